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

/* The fused passes of one flush of the interleaved layout that share their vectors (and their place in their columns'
   sequence of passes): one CAKrylovVecFusedInterleaved() on the np columns pos[] */
typedef struct {
  PetscInt      seq;                                                                                       /* the pass is its columns' seq-th since the last flush */
  PetscInt      nu, nd;                                                                                    /* updates and dots */
  PetscInt      y[CAKRYLOV_VEC_MAX_UPDATES], nx[CAKRYLOV_VEC_MAX_UPDATES], x[CAKRYLOV_VEC_MAX_UPDATES][3]; /* blocks */
  PetscBool     readsy[CAKRYLOV_VEC_MAX_UPDATES];                                                          /* the update has b != 0 */
  PetscInt      dx[CAKRYLOV_VEC_MAX_DOTS], dy[CAKRYLOV_VEC_MAX_DOTS];
  PetscInt      np, *pos; /* the columns (m entries allocated) */
  PetscScalar **dot;      /* where each column's nd dots go */
  PetscScalar  *coef;     /* coef[(4 k + c) m + j]: a[c] (c < 3) and b (c = 3) of update k in column j */
} KSP_BiCGStabBlockGroup;

#define KSP_BICGSTABBLOCK_MAXGROUPS 8

/* KSPMatSolve() of the family: m BiCGStab iterations advanced together (see src/ksp/common/bicgstabblock.c), on work
   blocks of nloc x m, one per work vector of the iteration, in one of two layouts:
     - dense: column-major (lda nloc); the active columns are kept in the leading slots (compacted when a column ends),
       so the operator and the preconditioner apply to them as MATDENSE aliases of the leading na columns, and the
       fused kernels run per column on sequential wrapper Vecs placed on a slot;
     - interleaved: row-wise (entry (i, j) at i m + j); a column keeps its place j = slot2col[slot], the operator is
       one SpMV of all m columns (CAKrylovMatMultInterleaved(), the bits of MatMult() of MatCreateMAIJ(A, m)), PCJACOBI a
       fused pass, and the fused passes of all columns
       are recorded and run as one pass over the rows each before their results are read; x and b have
       interleaved blocks of their own (nblocks and nblocks + 1), copied from X and B and back. */
typedef struct {
  CAKrylovMatSolveLayout layout;                             /* as asked (-ksp_<type>_matsolve_layout) */
  PetscBool              interleaved;                        /* the layout of the present work blocks */
  PetscInt               m, nloc, N, nblocks;                /* layout of the work blocks (0: none) */
  PetscScalar           *work;                               /* nblocks blocks of nloc x m (interleaved: nblocks + 2, with x and b), block k at k stride */
  size_t                 stride;                             /* scalars from one block to the next (padded: KSPBlockAllocate()) */
  void                  *workraw;                            /* what was allocated (work is aligned inside it) */
  PetscInt               mi;                                 /* interleaved: the columns of the SpMV's objects below (0: none), kept with A's nonzero state */
  Vec                    vin;                                /* interleaved, more than one rank: a Vec of m N entries (block size m) placed on x for the scatter */
  Vec                    ghost;                              /* the off-rank rows of x the local rows need (MatMPIAIJGetSeqAIJ()'s garray), m each */
  VecScatter             sct;                                /* vin -> ghost */
  PetscBool              measured;                           /* auto: the layouts were measured for (ameasA, ameasState, ameasm) */
  Mat                    ameasA;                             /* the operator measured (not referenced) */
  PetscObjectState       ameasState;                         /* its nonzero state then */
  PetscInt               ameasm;                             /* the columns measured */
  PetscBool              ameasInterleaved;                   /* the faster layout */
  PetscReal              ameasTime[4];                       /* slowest rank: SpMV and fused pass interleaved, SpMV and fused pass dense [s] */
  CAKrylovJacobi         jacobi;                             /* interleaved with PCJACOBI: M^{-1}'s diagonal */
  Vec                    msol, mrhs;                         /* x and b of the column a monitor sees (KSPBlockMonitor_BiCGStabFamily()) */
  KSP_BiCGStabBlockGroup group[KSP_BICGSTABBLOCK_MAXGROUPS]; /* interleaved: the passes recorded since the last flush */
  PetscInt               ngroups;
  PetscInt              *seq;                          /* interleaved, per column: passes recorded since the last flush */
  PetscScalar           *gdot, *gwork;                 /* interleaved: the dots of one group (8 m) and the kernel's work */
  Vec                   *wrap;                         /* nblocks + 2 wrappers: a slot of each block, then a column of X and of B */
  Mat                   *alias;                        /* nblocks MATDENSE views of the leading na columns of each block: &cache[na nblocks] */
  Mat                   *cache;                        /* dense: (m + 1) nblocks views, built when first needed, kept with their products */
  PetscInt               na;                           /* columns of the current views */
  PetscInt               nprod, prodin[5], prodout[5]; /* products alias[out] = A alias[in] (MatProductNumeric()) on every view */
  Mat                    A;                            /* the operator of the products, and its nonzero state when they were built */
  PetscObjectState       Astate;
  PetscInt               mcol;                              /* per-column arrays hold this many columns */
  PetscInt              *slot2col;                          /* the column of B and X in each active slot */
  PetscBool             *live;                              /* the slot's column is still iterating in this iteration */
  KSPConvergedReason    *reason;                            /* per column: how it ended */
  PetscInt              *its;                               /* per column: iterations */
  PetscReal             *rnorm0, *ttol, *bnorm;             /* per column: the default test's reference norm, tolerance, ||b|| (nonzero guess) */
  PetscScalar           *rho, *alpha, *omega, *beta;        /* per column: the recurrence coefficients */
  PetscBool             *restart;                           /* per column, pipebcgsm: the first iteration after the start (no old directions) */
  PetscScalar           *rr;                                /* per column, rbicgstab: the local (r, r) of the last pass, summed with the next reduction */
  PetscScalar           *dots;                              /* packed local dots of one reduction point (5 m) */
  PetscInt               nmatsolves;                        /* block solves over all KSPMatSolve() calls (batches count one each) */
  PetscInt               last_m, last_its, last_reductions; /* the last block solve (last batch) */
  PetscBool              last_block;                        /* it ran as a block (PETSC_FALSE: the column-by-column fallback) */
} KSP_BiCGStabBlock;

#define KSP_BICGSTABBLOCK_MAXWORK 15 /* work vectors of the family's iterations, at most */

/* What the phases of one block solve (a type's KSPMatSolve()) share */
typedef struct {
  PetscInt           h[KSP_BICGSTABBLOCK_MAXWORK];           /* the block holding work vector i (with the identity PC the preconditioned vectors are the plain ones) */
  Vec                w[KSP_BICGSTABBLOCK_MAXWORK + 2];       /* wrappers on the current column's slot of block h[i]; w[nwork]: x, w[nwork + 1]: b */
  PetscInt           nkeep, keep[KSP_BICGSTABBLOCK_MAXWORK]; /* the blocks a column carries from one iteration to the next */
  const PetscScalar *ba;                                     /* B's array and leading dimension */
  PetscScalar       *xa;                                     /* X's */
  PetscInt           ldb, ldx;
  PetscInt           na;      /* active columns: the first na slots */
  PetscInt           k;       /* the block's iteration */
  PetscInt           nred;    /* global reductions issued */
  PetscReal          maxnorm; /* the largest residual norm tested in this iteration: what the block's monitor prints */
  PetscInt           maxcol;  /* the column of B and X of that norm: the system the monitors see */
  PetscBool          left;    /* left preconditioning, PC not the identity */
} KSP_BiCGStabBlockSolve;

typedef struct {
  PetscInt            nwork;                      /* work vectors of the iteration */
  PetscBool           identity;                   /* the last solve ran with the identity preconditioner: M^{-1} is neither applied nor copied */
  PetscBool           fallback;                   /* the fused kernels of this solver take the portable path (-[prefix]cakrylov_vec_fallback) */
  PetscBool           right;                      /* bcgsm: the last solve kept p^ = M^{-1} p and s^ = M^{-1} s (right preconditioning, PC not the identity) */
  PetscInt            replace_period;             /* pipebcgsm: residual replacement every this many iterations (0: never) */
  CAKrylovKSPProgress progress;                   /* rbicgstab, pipebcgsm: progression of the reductions in flight */
  PetscInt            nsolves, nits, nreductions; /* statistics over all solves (KSPView()) */
  PetscInt            npc;                        /* rbicgstab: preconditioner applications over all solves */
  PetscInt            nreplacements;              /* pipebcgsm: residual replacements over all solves */
  KSP_BiCGStabBlock   block;                      /* KSPMatSolve() */
} KSP_BiCGStabFamily;

PETSC_INTERN PetscErrorCode KSPCreate_BiCGStabFamily(KSP, PetscInt);
PETSC_INTERN PetscErrorCode KSPDestroy_BiCGStabFamily(KSP);
PETSC_INTERN PetscErrorCode KSPSetProgress_BiCGStabFamily(KSP, CAKrylovProgressType, PetscInt);
PETSC_INTERN PetscErrorCode KSPGetProgress_BiCGStabFamily(KSP, CAKrylovProgressType *, PetscInt *);
PETSC_INTERN PetscErrorCode KSPSolveBegin_BiCGStabFamily(KSP);
PETSC_INTERN PetscErrorCode KSPTrueResidual_BiCGStabFamily(KSP, PetscBool, Vec);
PETSC_INTERN PetscErrorCode KSPInitialTest_BiCGStabFamily(KSP, PetscScalar);
PETSC_INTERN PetscErrorCode KSPNormTest_BiCGStabFamily(KSP, PetscScalar);
PETSC_INTERN PetscErrorCode KSPSetFromOptionsProgress_BiCGStabFamily(KSP, CAKrylovOptionItems, const char[]);
PETSC_INTERN PetscErrorCode KSPViewStatistics_BiCGStabFamily(KSP, PetscViewer, PetscInt, const char[]);

/* KSPMatSolve() of the family (src/ksp/common/bicgstabblock.c) */
PETSC_INTERN PetscErrorCode KSPMatSolveUseBlock_BiCGStabFamily(KSP, Mat, Mat, PetscBool *);
PETSC_INTERN PetscErrorCode KSPBlockSetUp_BiCGStabFamily(KSP, PetscInt, PetscInt, PetscInt, const PetscInt[], const PetscInt[]);
PETSC_INTERN PetscErrorCode KSPBlockSetActive_BiCGStabFamily(KSP, PetscInt);
PETSC_INTERN PetscErrorCode KSPBlockReset_BiCGStabFamily(KSP);
PETSC_INTERN PetscErrorCode KSPBlockMonitor_BiCGStabFamily(KSP, KSP_BiCGStabBlockSolve *, PetscInt);
PETSC_INTERN PetscErrorCode KSPBlockCompact_BiCGStabFamily(KSP, KSP_BiCGStabBlockSolve *);
PETSC_INTERN PetscErrorCode KSPBlockMapWork_BiCGStabFamily(KSP, KSP_BiCGStabBlockSolve *, PetscInt, const PetscInt[], PetscInt, const PetscInt[]);
PETSC_INTERN PetscErrorCode KSPBlockColumnTest_BiCGStabFamily(KSP, PetscInt, PetscInt, PetscReal);
PETSC_INTERN PetscErrorCode KSPBlockEnd_BiCGStabFamily(KSP, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode KSPViewBlock_BiCGStabFamily(KSP, PetscViewer, PetscInt, const char[]);
PETSC_INTERN PetscErrorCode KSPBlockSolveBegin_BiCGStabFamily(KSP, Mat, Mat, KSP_BiCGStabBlockSolve *);
PETSC_INTERN PetscErrorCode KSPBlockSolveEnd_BiCGStabFamily(KSP, Mat, Mat, KSP_BiCGStabBlockSolve *);
PETSC_INTERN PetscErrorCode KSPBlockFused_BiCGStabFamily(KSP, KSP_BiCGStabBlockSolve *, PetscInt, PetscInt, const CAKrylovVecUpdate[], PetscInt, const Vec[], const Vec[], PetscScalar[]);
PETSC_INTERN void           KSPBlockEndColumn_BiCGStabFamily(KSP, PetscInt, KSPConvergedReason);
PETSC_INTERN PetscErrorCode KSPBlockCheckCoefficient_BiCGStabFamily(KSP, PetscInt, PetscScalar, PetscBool, const char[], PetscBool *);
PETSC_INTERN PetscErrorCode KSPBlockInitialResidual_BiCGStabFamily(KSP, KSP_BiCGStabBlockSolve *, PetscInt, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode KSPBlockInitialTest_BiCGStabFamily(KSP, KSP_BiCGStabBlockSolve *, PetscInt, PetscScalar);
PETSC_INTERN PetscErrorCode KSPBlockNormTest_BiCGStabFamily(KSP, KSP_BiCGStabBlockSolve *, PetscInt, PetscScalar);
PETSC_INTERN PetscErrorCode KSPBlockOmega_BiCGStabFamily(KSP, KSP_BiCGStabBlockSolve *, PetscInt, const PetscScalar[3], PetscInt);
PETSC_INTERN PetscErrorCode KSPComposeMatSolve_BiCGStabFamily(KSP, PetscBool);
PETSC_INTERN PetscErrorCode KSPBlockReduce_BiCGStabFamily(KSP, KSP_BiCGStabBlockSolve *, PetscInt, PetscScalar[]);
PETSC_INTERN PetscErrorCode KSPBlockReduceBegin_BiCGStabFamily(KSP, PetscInt, PetscScalar[], MPI_Request *);
PETSC_INTERN PetscErrorCode KSPBlockReduceEnd_BiCGStabFamily(KSP_BiCGStabBlockSolve *, MPI_Request *);
PETSC_INTERN PetscErrorCode KSPBlockMult_BiCGStabFamily(KSP, PetscInt);
PETSC_INTERN PetscErrorCode KSPBlockMultSolution_BiCGStabFamily(KSP, KSP_BiCGStabBlockSolve *, PetscInt);
PETSC_INTERN PetscErrorCode KSPBlockPCApply_BiCGStabFamily(KSP, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode KSPSetFromOptionsMatSolve_BiCGStabFamily(KSP, CAKrylovOptionItems);
