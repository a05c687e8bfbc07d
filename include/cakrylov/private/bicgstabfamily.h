/*
   The merged BiCGStab family: KSPBCGSM, KSPRBICGSTAB and KSPPIPEBCGSM share one data struct (as PETSc's bcgsimpl.h
   serves bcgs, fbcgs, pipebcgs and qmrcgs) and the pieces of their solvers that are the same: creation, setup,
   reset, destroy, the start of a solve, the residual-norm tests and the statistics line of -ksp_view. The progress
   setters of the types that hide reductions are one implementation, composed under each type's own name. Each type
   file holds only its iteration, its manual page and its options.
*/
#pragma once

#include <cakrylov/private/cakrylovimpl.h>
#include <petsc/private/kspimpl.h>

typedef struct {
  const char         *name;           /* the type's prefix of its composed methods ("KSPRBiCGStab"), NULL: no progression */
  PetscInt            nwork;          /* work vectors of the iteration */
  PetscBool           identity;       /* the last solve ran with the identity preconditioner: M^{-1} is neither applied nor copied */
  PetscBool           right;          /* bcgsm: the last solve kept p^ = M^{-1} p and s^ = M^{-1} s (right preconditioning, PC not the identity) */
  PetscInt            replace_period; /* pipebcgsm: residual replacement every this many iterations (0: never) */
  CAKrylovKSPProgress progress;       /* rbicgstab, pipebcgsm: progression of the reductions in flight */
  PetscInt            nsolves, nits, nreductions; /* statistics over all solves (KSPView()) */
  PetscInt            npc;                        /* rbicgstab: preconditioner applications over all solves */
  PetscInt            nreplacements;              /* pipebcgsm: residual replacements over all solves */
} KSP_BiCGStabFamily;

PETSC_INTERN PetscErrorCode KSPCreate_BiCGStabFamily(KSP, PetscInt, const char[]);
PETSC_INTERN PetscErrorCode KSPDestroy_BiCGStabFamily(KSP);
PETSC_INTERN PetscErrorCode KSPSetProgressMethod_BiCGStabFamily(KSP, const char[], CAKrylovProgressType, PetscInt);
PETSC_INTERN PetscErrorCode KSPGetProgressMethod_BiCGStabFamily(KSP, const char[], CAKrylovProgressType *, PetscInt *);
PETSC_INTERN PetscErrorCode KSPSolveBegin_BiCGStabFamily(KSP);
PETSC_INTERN PetscErrorCode KSPTrueResidual_BiCGStabFamily(KSP, PetscBool, Vec);
PETSC_INTERN PetscErrorCode KSPInitialTest_BiCGStabFamily(KSP, PetscScalar);
PETSC_INTERN PetscErrorCode KSPNormTest_BiCGStabFamily(KSP, PetscScalar);
PETSC_INTERN PetscErrorCode KSPSetFromOptionsProgress_BiCGStabFamily(KSP, CAKrylovOptionItems);
PETSC_INTERN PetscErrorCode KSPViewStatistics_BiCGStabFamily(KSP, PetscViewer, PetscInt, const char[]);
