/*
   The one place where PETSc version differences are handled (3.18 .. newest).
   PETSC_VERSION_LT() is false on a development PETSc, so "older" branches come first.
*/
#pragma once

#include <petscsys.h>

/* PETSC_SUCCESS appeared in 3.19 */
#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS ((PetscErrorCode)0)
#endif

/* PetscValidPointer() became PetscAssertPointer() in 3.20 */
#if PETSC_VERSION_LT(3, 20, 0)
  #define PetscAssertPointer(h, arg) PetscValidPointer(h, arg)
#endif

/* KSPSetFromOptions_X() takes PetscOptionItems * before 3.23, PetscOptionItems from 3.23 on */
#if PETSC_VERSION_LT(3, 23, 0)
typedef PetscOptionItems *CAKrylovOptionItems;
#else
typedef PetscOptionItems CAKrylovOptionItems;
#endif

/* A PetscContainer whose pointer is freed with PetscFree() when it is destroyed (the API was renamed in 3.22) */
#if PETSC_VERSION_LT(3, 22, 0)
  #define CAKrylovContainerSetFree(c) PetscContainerSetUserDestroy((c), PetscContainerUserDestroyDefault)
#else
  #define CAKrylovContainerSetFree(c) PetscContainerSetCtxDestroy((c), PetscCtxDestroyDefault)
#endif

/* PetscErrorMessage() returns the specific message as char * before 3.25, as const char * from 3.25 on */
#if PETSC_VERSION_LT(3, 25, 0)
  #define CAKrylovErrorMessage(ierr, specific) PetscErrorMessage((ierr), NULL, (char **)(specific))
#else
  #define CAKrylovErrorMessage(ierr, specific) PetscErrorMessage((ierr), NULL, (specific))
#endif

/* Diagonal scaling of the preconditioned system (PCSetDiagonalScale()) was removed in 3.26: nothing is scaled there */
#if PETSC_VERSION_LT(3, 26, 0)
  #define CAKrylovPCGetDiagonalScale(pc, scaled) PCGetDiagonalScale((pc), (scaled))
#else
  #define CAKrylovPCGetDiagonalScale(pc, scaled) (*(scaled) = PETSC_FALSE, PETSC_SUCCESS)
#endif

/* The CGS refinement of GMRES's orthogonalization: KSPGMRESSetCGSRefinementType() became
   KSPOrthogonalizationSetCGSRefinementType() in 3.26 */
#if PETSC_VERSION_LT(3, 26, 0)
  #define CAKrylovKSPSetCGSRefinementNever(ksp) KSPGMRESSetCGSRefinementType((ksp), KSP_GMRES_CGS_REFINE_NEVER)
#else
  #define CAKrylovKSPSetCGSRefinementNever(ksp) KSPOrthogonalizationSetCGSRefinementType((ksp), KSP_ORTHOGONALIZATION_CGS_REFINE_NEVER)
#endif

/* The MPI datatype of PetscBool: MPIU_BOOL before 3.24, MPI_C_BOOL from 3.24 on (MPIU_BOOL deprecated) */
#if PETSC_VERSION_LT(3, 24, 0)
  #define CAKRYLOV_MPI_BOOL MPIU_BOOL
#else
  #define CAKRYLOV_MPI_BOOL MPI_C_BOOL
#endif

/* The minimum number of iterations of the default convergence test (KSPSetMinimumIterations(), ksp->min_it) appeared
   in 3.20: before it, none */
#if PETSC_VERSION_LT(3, 20, 0)
  #define CAKrylovKSPMinIterations(ksp) ((PetscInt)0)
#else
  #define CAKrylovKSPMinIterations(ksp) ((ksp)->min_it)
#endif

/* A PC's Richardson steps on a block (pc->ops->matapplyrichardson, which KSPRICHARDSON's own KSPMatSolve() calls): in
   3.26 (not in 3.24; before it, KSPRICHARDSON has no KSPMatSolve(), and the bottom-solver hook gives PCMG's
   richardson + chebyjacobi smoothers one) */
#if PETSC_VERSION_GE(3, 26, 0)
  #define CAKRYLOV_HAVE_PC_MATAPPLYRICHARDSON 1
#endif

/* KSPSetDMActive() takes which of the DM's uses it sets (KSPDMActive) from 3.25 on: all of them here */
#if PETSC_VERSION_LT(3, 25, 0)
  #define CAKrylovKSPSetDMInactive(ksp) KSPSetDMActive((ksp), PETSC_FALSE)
#else
  #define CAKrylovKSPSetDMInactive(ksp) KSPSetDMActive((ksp), KSP_DMACTIVE_ALL, PETSC_FALSE)
#endif
