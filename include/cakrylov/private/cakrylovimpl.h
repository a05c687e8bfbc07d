/* Private declarations shared by the components of the library. */
#pragma once

#include <cakrylov.h>
#include <cakrylov/private/compat.h>
#include <cakrylov/private/vecfused.h>

/* Log events of the library's own kernels (registered in CAKrylovInitializePackage()). */
PETSC_INTERN PetscLogEvent CAKRYLOV_CABasis, CAKRYLOV_CAGram, CAKRYLOV_CARebuild, CAKRYLOV_VecFused, CAKRYLOV_ReductionEnd;

PETSC_INTERN PetscErrorCode KSPCreate_CABiCGStab(KSP);
PETSC_INTERN PetscErrorCode KSPCreate_BCGSM(KSP);
PETSC_INTERN PetscErrorCode KSPCreate_PIPEBCGSM(KSP);

/* src/pc/mgbottom: makes PCMG's constructor the one with the bottom-solver hook */
PETSC_INTERN PetscErrorCode PCMGBottomRegister(void);

/* MPI_Iallreduce calls made by the library on more than one rank (PETSc's petsc_allreduce_ct counts MPI_Allreduce) */
PETSC_INTERN PetscLogDouble CAKrylovIallreduceCount;

/* src/ksp/common: helpers of every solver of the library */
PETSC_INTERN PetscErrorCode CAKrylovKSPConvergenceTest(KSP, PetscReal);
PETSC_INTERN PetscErrorCode CAKrylovKSPNextIteration(KSP);
PETSC_INTERN PetscBool      CAKrylovKSPUnusable(KSP, PetscScalar, const char[]);
PETSC_INTERN PetscErrorCode CAKrylovPCIsIdentity(PC, PetscBool *);
PETSC_INTERN PetscErrorCode CAKrylovKSPMatMult(KSP, Vec, Vec);
PETSC_INTERN PetscErrorCode CAKrylovBiCGStabOmega(KSP, const PetscScalar[3], PetscScalar, Vec, Vec, PetscScalar *, PetscInt *);
