/* Private declarations shared by the components of the library. */
#pragma once

#include <cakrylov.h>
#include <cakrylov/private/compat.h>
#include <cakrylov/private/vecfused.h>
#include <cakrylov/private/progress.h>

/* Log events of the library's own kernels (registered in CAKrylovInitializePackage()). */
PETSC_INTERN PetscLogEvent CAKRYLOV_CABasis, CAKRYLOV_CAGram, CAKRYLOV_CARebuild, CAKRYLOV_VecFused, CAKRYLOV_ReductionEnd, CAKRYLOV_SpMVProgress, CAKRYLOV_MatMultColumns;

PETSC_INTERN PetscErrorCode KSPCreate_CABiCGStab(KSP);
PETSC_INTERN PetscErrorCode KSPCreate_BCGSM(KSP);
PETSC_INTERN PetscErrorCode KSPCreate_PIPEBCGSM(KSP);
PETSC_INTERN PetscErrorCode PCCreate_Synthetic(PC);
PETSC_INTERN PetscErrorCode PCCreate_ChebyJacobi(PC);
PETSC_INTERN PetscErrorCode KSPCreate_RBiCGStab(KSP);
PETSC_INTERN PetscErrorCode KSPCreate_AutoBCGS(KSP);

/* src/pc/mgbottom: makes PCMG's constructor the one with the bottom-solver hook */
PETSC_INTERN PetscErrorCode PCMGBottomRegister(void);

/* src/mat: what the library reads of its users' matrices, and its dense views over its own storage */
PETSC_INTERN PetscErrorCode CAKrylovMatGershgorinRadius(Mat, PetscReal *);
PETSC_INTERN PetscErrorCode CAKrylovMatHaloCreate(Mat, Vec, VecScatter *, Vec *);
/* the one-pass product of a MATSEQAIJ or MATMPIAIJ with blocks of columns: its plan (band, halo), made before a solve */
typedef struct _n_CAKrylovMatColumns *CAKrylovMatColumns;
PETSC_INTERN PetscErrorCode           CAKrylovMatColumnsCreate(Mat, PetscInt, size_t, CAKrylovMatColumns *);
PETSC_INTERN PetscErrorCode           CAKrylovMatColumnsDestroy(CAKrylovMatColumns *);
PETSC_INTERN PetscErrorCode           CAKrylovMatMultColumns(CAKrylovMatColumns, Mat, PetscInt, PetscInt, size_t, const PetscScalar *, PetscInt, const PetscScalar *, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscInt);
PETSC_INTERN PetscErrorCode           CAKrylovMatColumnsHaloBegin(CAKrylovMatColumns, PetscInt, PetscInt, size_t, const PetscScalar *, PetscInt, const PetscScalar *);
PETSC_INTERN PetscErrorCode           CAKrylovMatColumnsHaloEnd(CAKrylovMatColumns, PetscInt, const PetscScalar **);
PETSC_INTERN PetscErrorCode           KSPMatSolve_RichardsonChebyJacobi(KSP, Mat, Mat);
PETSC_INTERN PetscErrorCode           CAKrylovMatCreateDense(PetscLayout, PetscInt, PetscScalar *, PetscInt, Mat *);

/* the first 64-byte boundary (a cache line) at or after p: p + 8 scalars at most */
static inline PetscScalar *CAKrylovAlign64(PetscScalar *p)
{
  return (PetscScalar *)(((uintptr_t)p + 63) & ~(uintptr_t)63);
}

/* src/vec/layout.c: a vector on an existing layout, without communication; huge pages for large blocks of vectors */
PETSC_INTERN PetscErrorCode CAKrylovVecCreateOnLayout(Vec, Vec *);
PETSC_INTERN PetscErrorCode CAKrylovVecCreateOnLayoutWithArray(Vec, PetscScalar *, Vec *);
PETSC_INTERN void           CAKrylovAdviseHugePages(void *, size_t);

/* MPI_Iallreduce calls made by the library on more than one rank (PETSc's petsc_allreduce_ct counts MPI_Allreduce) */
PETSC_INTERN PetscLogDouble CAKrylovIallreduceCount;

/* src/ksp/common: helpers of every solver of the library */
PETSC_INTERN PetscErrorCode CAKrylovKSPConvergenceTest(KSP, PetscReal);
PETSC_INTERN PetscErrorCode CAKrylovKSPNextIteration(KSP);
PETSC_INTERN PetscErrorCode CAKrylovKSPCheckCoefficient(KSP, PetscScalar, const char[]);
PETSC_INTERN PetscErrorCode CAKrylovPCIsIdentity(PC, PetscBool *);
typedef struct {
  Vec              d;      /* PCJACOBI's diagonal: y = x .* d */
  PetscObjectId    mat_id; /* ... of this preconditioning matrix */
  PetscObjectState mat_state;
} CAKrylovJacobi;
PETSC_INTERN PetscErrorCode CAKrylovPCJacobiDiagonal(PC, Vec, CAKrylovJacobi *);
PETSC_INTERN PetscErrorCode CAKrylovKSPMatMult(KSP, Vec, Vec);
PETSC_INTERN PetscErrorCode CAKrylovKSPMatSolveCheckLayouts(KSP, Mat, Mat, Mat);
PETSC_INTERN PetscErrorCode CAKrylovKSPMatSolveColumns(KSP, Mat, Mat, KSPConvergedReason[], PetscInt[]);
PETSC_INTERN PetscErrorCode CAKrylovKSPMatSolveEnd(KSP, PetscInt, const KSPConvergedReason[], const PetscInt[], PetscInt *);
PETSC_INTERN PetscErrorCode CAKrylovKSPColumnTest(KSP, PetscInt, PetscInt, PetscReal, PetscReal, PetscReal *, PetscReal *, KSPConvergedReason *);
/* src/ksp/common/kspprogress.c: overlap progression of the solvers that hide reductions */
#define CAKRYLOV_KSP_PROGRESS_KINDS 2 /* overlapped regions per iteration */
typedef struct {
  CAKrylovProgressType type;
  PetscInt             ntests;                                /* MPI_Test calls aimed at per region */
  PetscInt             expected[CAKRYLOV_KSP_PROGRESS_KINDS]; /* polls of the last region of each kind */
  PetscInt             nregions, ntested;                     /* statistics: regions, MPI_Test calls made */
  CAKrylovJacobi       jacobi;                                /* PCJACOBI's diagonal, for its chunked application */
  VecScatter           halo;                                  /* MPIAIJ's halo exchange, for the chunked SpMV */
  Vec                  ghost;
  Mat                  halo_mat;
  PetscObjectState     halo_state;
} CAKrylovKSPProgress;
PETSC_INTERN PetscErrorCode CAKrylovKSPProgressSetFromOptions(KSP, CAKrylovOptionItems, const char[], const char[], CAKrylovKSPProgress *);
PETSC_INTERN void           CAKrylovKSPProgressInitialize(CAKrylovKSPProgress *);
PETSC_INTERN void           CAKrylovKSPProgressGet(const CAKrylovKSPProgress *, CAKrylovProgressType *, PetscInt *);
PETSC_INTERN PetscErrorCode CAKrylovKSPProgressSet(KSP, CAKrylovKSPProgress *, CAKrylovProgressType, PetscInt);
PETSC_INTERN PetscErrorCode CAKrylovKSPProgressView(const CAKrylovKSPProgress *, PetscViewer);
PETSC_INTERN PetscErrorCode CAKrylovKSPProgressBegin(CAKrylovKSPProgress *, PetscInt, MPI_Request *, CAKrylovProgressRegion *);
PETSC_INTERN PetscErrorCode CAKrylovKSPProgressEnd(CAKrylovKSPProgress *, PetscInt, const CAKrylovProgressRegion *);
PETSC_INTERN PetscErrorCode CAKrylovKSPPCApply(KSP, CAKrylovKSPProgress *, Vec, Vec);
PETSC_INTERN PetscErrorCode CAKrylovKSPMatMultProgress(KSP, CAKrylovKSPProgress *, Vec, Vec);
PETSC_INTERN PetscErrorCode CAKrylovKSPProgressReset(CAKrylovKSPProgress *);

PETSC_INTERN PetscErrorCode CAKrylovBiCGStabOmega(KSP, PetscBool, const PetscScalar[3], PetscScalar, Vec, Vec, PetscScalar *, PetscInt *);

/* The costs KSPAUTOBCGS measures at setup (src/ksp/autobcgs), from which each type predicts its time per iteration
   with the model written beside its code (Krasnopolsky 2020, eqs. (12)-(19), in this library's counts) */
#define CAKRYLOV_COSTS_NRED 2 /* reduction sizes measured (bytes): 8, and s = 4's Gram matrix */
typedef struct {
  PetscReal spmv;                           /* s: one MatMult() */
  PetscReal pc;                             /* s: one PCApply() (0 for the identity, which the types skip) */
  PetscReal vec;                            /* s: one read or write of a vector of the KSP's size (a fused pass of 4 streams / 4) */
  PetscReal vec_wide;                       /* s: the same in a fused pass of 9 streams (pipebcgsm's passes and rbicgstab's pass D are 8-11 wide) */
  PetscReal nloc;                           /* local rows */
  PetscReal gemm_rate;                      /* flop/s of the Gram matrix's local GEMM (cabicgstab) */
  PetscReal combine_rate;                   /* flop/s of the GEMM [p, r, dx] = [P, R] [a, c, e] (cabicgstab's rebuild: 3 columns) */
  PetscReal gamma;                          /* exposed fraction of a non-blocking reduction started before computing, eq. (9) */
  PetscReal red_bytes[CAKRYLOV_COSTS_NRED]; /* the reduction sizes measured, increasing */
  PetscReal red[CAKRYLOV_COSTS_NRED];       /* s: one MPI_Allreduce of that size */
  PetscReal red_nb;                         /* s: an 8-byte MPI_Iallreduce() and its wait, back to back (0: not measured) */
  PetscReal red_exp;                        /* the power law through them: T(l) = red[0] (l / red_bytes[0])^red_exp */
  PetscReal nodes, C[4];                    /* nodes > 0: the reductions are Krasnopolsky's eq. (10) at p = nodes, C0, C1, n0, n1 */
  PetscBool right;                          /* right preconditioning (bcgsm's passes differ by side) */
} CAKrylovCosts;
PETSC_INTERN PetscReal CAKrylovCostsReduction(const CAKrylovCosts *, PetscReal);
PETSC_INTERN PetscReal CAKrylovCostsOverlap(const CAKrylovCosts *, PetscReal, PetscReal);
PETSC_INTERN PetscReal KSPBCGSMTimePerIteration(const CAKrylovCosts *);
PETSC_INTERN PetscReal KSPRBiCGStabTimePerIteration(const CAKrylovCosts *);
PETSC_INTERN PetscReal KSPPIPEBCGSMTimePerIteration(const CAKrylovCosts *);
PETSC_INTERN PetscReal KSPCABiCGStabTimePerIteration(const CAKrylovCosts *, PetscInt, KSPCABiCGStabBasis, PetscBool, PetscReal);
PETSC_INTERN PetscInt  KSPCABiCGStabGramBytes(PetscInt);
PETSC_INTERN PetscReal KSPCABiCGStabEstimateTime(const CAKrylovCosts *, PetscInt);
