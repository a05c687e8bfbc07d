/*
   KSPMatSolve() of the merged BiCGStab family: the pieces every type's block iteration shares. A type's block solve
   (KSPMatSolve_BCGSM(), KSPMatSolve_PIPEBCGSM(), KSPMatSolve_RBiCGStab()) advances m independent iterations together on
   work blocks in one of two layouts, which the type's code does not see: it calls KSPBlockFused_BiCGStabFamily() per
   column for a fused group of its single solve, KSPBlockMult_BiCGStabFamily() for the operator,
   KSPBlockPCApply_BiCGStabFamily() for the preconditioner and KSPBlockReduce*_BiCGStabFamily() for the global sums of
   its dots. Every one of these runs first what the fused calls recorded (interleaved layout), so no caller has a
   protocol to keep.

   Which one (CAKrylovKSPSetMatSolveLayout()): auto takes, for more than one column with the identity or PCJACOBI, the
   faster of the two on this machine for this operator, measured at the first block solve (KSPBlockMeasureLayouts(),
   again when A, its nonzero state or m change), and the dense layout otherwise. The work blocks of either layout are
   padded and aligned (KSPBlockAllocate()).

   Dense (column-major) layout, for any preconditioner:

     - the work blocks are plain arrays of nloc x m (lda nloc), allocated once per (m, layout, number of blocks) and
       kept until KSPReset()/KSPDestroy();
     - the columns still iterating occupy the leading na slots of every block (compacted, in column order, when a
       column ends), so that the operator is one MatProductNumeric() (AIJ x dense, one pass over the matrix) and the
       preconditioner one PCMatApply() on MATDENSE views of those na columns; the views of each na and their products
       are built when first needed (MatProductSymbolic() of MPIAIJ x MPIDENSE issues a reduction) and kept for later
       solves with the same operator (nonzero pattern), product pairing and layout;
     - the fused vector kernels run per column on sequential wrapper Vecs placed on a slot (VecPlaceArray()), with
       local dots only; the dots of all columns of one reduction point go into one packed reduction (blocking for
       bcgsm; for pipebcgsm and rbicgstab one CAKrylovReductionBegin()/End() around the block applications that hide it);
     - each column has its own coefficients, iteration count and convergence test: KSPConvergedDefault()'s test
       applied per column with the KSP's tolerances (KSPBlockColumnTest_BiCGStabFamily()), and the endings of
       BiCGStab's omega step (KSPBlockOmega_BiCGStabFamily(), as CAKrylovBiCGStabOmega() for one system);
     - with the identity preconditioner the preconditioned work vectors share the blocks of the plain ones
       (KSPBlockMapWork_BiCGStabFamily()), as in the types' single solves.

   Interleaved (row-wise) layout, the paper's storage of m right-hand sides, with the identity or PCJACOBI:
     - entry (i, j) of a block at i m + j; column j keeps place j for the whole solve (a column that ends is neither
       read nor written by the vector passes; the operator and PCJACOBI still sweep it, unused);
     - the operator is one pass over the matrix for all m columns, each row's m values of x read side by side (the
       dense product passes over the matrix once per 4 columns and gathers x from 4 column streams): the library's
       own SpMV on A's CSR arrays (CAKrylovMatMultInterleaved(), vectorised across the columns; with MATMPIAIJ the
       off-rank rows of x scattered as MatCreateMAIJ() does), per column the bits of MatMult() of MatCreateMAIJ(A, m),
       which issues twice the instructions under PETSc's compile flags; PCJACOBI is one pass y_ij = d_i x_ij with
       d = M^{-1} 1 (PCApply() to ones, bit for bit);
     - the per-column calls are recorded and run, before anything reads their results or overwrites their inputs (the
       operator, the PC, a reduction, a compaction, a monitor, the end; KSPBlockFlush()), as one
       CAKrylovVecFusedInterleaved() per set of calls with the same vectors (one sweep over the rows for all columns,
       each with its own coefficients), whose per-column arithmetic, dots included, is that of CAKrylovVecFused() on
       the column alone;
     - x and b have interleaved blocks of their own: B and X are copied in at the start, X out at the end.

   The layers of a block phase, and why each exists:
     - the type's phase (e.g. KSPBCGSMBlockUpdate()): the algorithm's lines, written once for both layouts;
     - this file's KSPBlock*_BiCGStabFamily(): the layouts, the per-column tests and endings, the packed reductions;
     - the record (KSPBlockRecord(), KSPBlockFlush()): turns m per-column calls into one sweep over the rows;
     - CAKrylovVecFusedInterleaved() (src/vec/fused.c): that sweep, m coefficient sets over interleaved rows;
     - the span kernels of fused.c: the arithmetic, shared with the single solve so that a column rounds as one system.
*/
#include <cakrylov/private/bicgstabfamily.h>

static PetscErrorCode KSPBlockFlush(KSP_BiCGStabBlock *);

PETSC_EXTERN PetscLogEvent MAT_Mult; /* PETSc's MatMult() event (petsc/private/matimpl.h, whose inline functions do not
                                        compile cleanly under -Wextra): the interleaved SpMV is logged as MatMult() */

const char *const CAKrylovMatSolveLayouts[] = {"auto", "dense", "interleaved", "CAKrylovMatSolveLayout", "CAKRYLOV_MATSOLVE_LAYOUT_", NULL};

/* Slot `slot` of work block k in the dense layout (block k itself for slot 0, in either layout): at k stride + slot nloc,
   counted in size_t (the product exceeds a 32-bit PetscInt at m = 64 columns and about 2M local rows) */
static inline PetscScalar *KSPBlockColumnArray(KSP_BiCGStabBlock *bk, PetscInt k, PetscInt slot)
{
  return bk->work + (size_t)k * bk->stride + (size_t)slot * (size_t)bk->nloc;
}

/*
   The work blocks' memory: nblocks blocks of len scalars, the first at a 64-byte line (2 MiB for large blocks), block k
   at k stride with stride = len rounded up to 4 KiB plus one line. Measured on an AMD EPYC (issue 27): blocks whose
   size is a multiple of 4096 bytes (1000^2 rows x 16 columns) all start at the same offset mod 4096, so the 5 to 9
   streams of one fused pass alias in the 4 KiB-indexed load/store disambiguation; the extra line puts block k at
   64 k mod 4096. Blocks of 64 MiB and more get transparent huge pages where the system only gives them on request
   (madvise mode): fewer TLB misses and a page placement that does not change from run to run.
*/
static PetscErrorCode KSPBlockAllocate(PetscInt nblocks, size_t len, void **raw, PetscScalar **work, size_t *stride)
{
  const size_t line = 64 / sizeof(PetscScalar), page = 4096 / sizeof(PetscScalar), huge = (size_t)2 << 20, bytes = ((len + page - 1) / page * page + line) * sizeof(PetscScalar);
  const size_t align = bytes >= ((size_t)64 << 20) ? huge : 64;
  char        *p;

  PetscFunctionBegin;
  *stride = bytes / sizeof(PetscScalar);
  PetscCall(PetscMalloc((size_t)nblocks * bytes + align, raw));
  p     = (char *)*raw + (align - (size_t)((uintptr_t)*raw % align)) % align;
  *work = (PetscScalar *)p;
  if (align == huge) CAKrylovAdviseHugePages(p, (size_t)nblocks * bytes);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Block k of the interleaved layout */
static inline PetscScalar *KSPBlockArray(KSP_BiCGStabBlock *bk, PetscInt k)
{
  return KSPBlockColumnArray(bk, k, 0);
}

/* The per-column arrays for m columns */
static PetscErrorCode KSPBlockColumns(KSP_BiCGStabBlock *bk, PetscInt m)
{
  PetscFunctionBegin;
  if (bk->mcol == m) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree2(bk->slot2col, bk->live));
  PetscCall(PetscFree2(bk->reason, bk->its));
  PetscCall(PetscFree3(bk->rnorm0, bk->ttol, bk->bnorm));
  PetscCall(PetscFree7(bk->rho, bk->alpha, bk->omega, bk->beta, bk->restart, bk->rr, bk->dots));
  PetscCall(PetscMalloc2(m, &bk->slot2col, m, &bk->live));
  PetscCall(PetscMalloc2(m, &bk->reason, m, &bk->its));
  PetscCall(PetscMalloc3(m, &bk->rnorm0, m, &bk->ttol, m, &bk->bnorm));
  PetscCall(PetscMalloc7(m, &bk->rho, m, &bk->alpha, m, &bk->omega, m, &bk->beta, m, &bk->restart, m, &bk->rr, 5 * m, &bk->dots));
  bk->mcol = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ksp->its = the largest column iteration count; ksp->reason = the reason of the first column that failed, or, when all
   converged, that of the last column to end (the most iterations); statistics; the error of -ksp_error_if_not_converged */
PetscErrorCode KSPBlockEnd_BiCGStabFamily(KSP ksp, PetscInt m, PetscInt nreductions)
{
  KSP_BiCGStabBlock *bk = &((KSP_BiCGStabFamily *)ksp->data)->block;

  PetscFunctionBegin;
  bk->nmatsolves++;
  bk->last_m          = m;
  bk->last_reductions = nreductions;
  PetscCall(CAKrylovKSPMatSolveEnd(ksp, m, bk->reason, bk->its, &bk->last_its));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The fallback: KSPSolve() per column, as PETSc's KSPMatSolve() does for types without a block solver */
static PetscErrorCode KSPMatSolveColumns_BiCGStabFamily(KSP ksp, Mat B, Mat X)
{
  KSP_BiCGStabBlock *bk = &((KSP_BiCGStabFamily *)ksp->data)->block;
  PetscInt           m;
  PetscLogDouble     before = ((KSP_BiCGStabFamily *)ksp->data)->nreductions;

  PetscFunctionBegin;
  PetscCall(MatGetSize(B, NULL, &m));
  PetscCall(KSPBlockColumns(bk, m));
  PetscCall(CAKrylovKSPMatSolveColumns(ksp, B, X, bk->reason, bk->its));
  bk->last_block = PETSC_FALSE;
  PetscCall(KSPBlockEnd_BiCGStabFamily(ksp, m, (PetscInt)(((KSP_BiCGStabFamily *)ksp->data)->nreductions - before)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Can the block path solve B? Then the fused-kernel options and whether M^{-1} = I are read; otherwise (PetscInfo() says
   why) X is solved here by the fallback, a KSPSolve() per column */
PetscErrorCode KSPMatSolveUseBlock_BiCGStabFamily(KSP ksp, Mat B, Mat X, PetscBool *use)
{
  Mat          A;
  MatNullSpace ns = NULL, tns = NULL;
  PetscBool    aij, dense, scaled;
  const char  *why = NULL;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  PetscCall(CAKrylovKSPMatSolveCheckLayouts(ksp, A, B, X));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &aij, MATSEQAIJ, MATMPIAIJ, ""));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)B, &dense, MATSEQDENSE, MATMPIDENSE, ""));
  PetscCall(MatGetNullSpace(A, &ns));
  PetscCall(MatGetTransposeNullSpace(A, &tns));
  PetscCall(CAKrylovPCGetDiagonalScale(ksp->pc, &scaled));
  if (ksp->converged != KSPConvergedDefault) why = "a convergence test other than KSPConvergedDefault() is set";
  else if (ksp->transpose_solve) why = "KSPMatSolveTranspose()";
  else if (!aij) why = "the operator is not MATSEQAIJ/MATMPIAIJ";
  else if (!dense) why = "the blocks are not MATSEQDENSE/MATMPIDENSE";
  else if (ns || tns) why = "the operator has a null space";
  else if (scaled) why = "the preconditioner scales the system (PCSetDiagonalScale())";
  else if (ksp->pc_side != PC_LEFT && ksp->pc_side != PC_RIGHT) why = "the preconditioner side is neither left nor right";
  *use = why ? PETSC_FALSE : PETSC_TRUE;
  if (why) {
    PetscCall(PetscInfo(ksp, "KSPMatSolve() with %s: column by column (KSPSolve() per column), because %s\n", ((PetscObject)ksp)->type_name, why));
    PetscCall(KSPMatSolveColumns_BiCGStabFamily(ksp, B, X));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(CAKrylovVecFusedGetFallback((PetscObject)ksp, &((KSP_BiCGStabFamily *)ksp->data)->fallback));
  PetscCall(CAKrylovPCIsIdentity(ksp->pc, &((KSP_BiCGStabFamily *)ksp->data)->identity));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Destroys the views (and the products attached to them) */
static PetscErrorCode KSPBlockDestroyAliases(KSP_BiCGStabBlock *bk)
{
  PetscFunctionBegin;
  if (bk->cache)
    for (PetscInt k = 0; k < (bk->m + 1) * bk->nblocks; k++) PetscCall(MatDestroy(&bk->cache[k]));
  bk->alias = NULL;
  bk->na    = 0;
  bk->A     = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The interleaved SpMV's objects */
static PetscErrorCode KSPBlockDestroyInterleaved(KSP_BiCGStabBlock *bk)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&bk->vin));
  PetscCall(VecDestroy(&bk->ghost));
  PetscCall(VecScatterDestroy(&bk->sct));
  bk->mi = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Frees the work blocks and the per-column arrays */
static PetscErrorCode KSPBlockFree(KSP ksp)
{
  KSP_BiCGStabBlock *bk = &((KSP_BiCGStabFamily *)ksp->data)->block;

  PetscFunctionBegin;
  PetscCall(KSPBlockDestroyAliases(bk));
  PetscCall(KSPBlockDestroyInterleaved(bk));
  PetscCall(VecDestroy(&bk->jacobi.d));
  PetscCall(VecDestroy(&bk->msol));
  PetscCall(VecDestroy(&bk->mrhs));
  for (PetscInt g = 0; g < KSP_BICGSTABBLOCK_MAXGROUPS; g++) PetscCall(PetscFree3(bk->group[g].pos, bk->group[g].dot, bk->group[g].coef));
  PetscCall(PetscFree3(bk->seq, bk->gdot, bk->gwork));
  bk->ngroups     = 0;
  bk->interleaved = PETSC_FALSE;
  if (bk->wrap)
    for (PetscInt k = 0; k < bk->nblocks + 2; k++) PetscCall(VecDestroy(&bk->wrap[k]));
  PetscCall(PetscFree(bk->wrap));
  PetscCall(PetscFree(bk->cache));
  PetscCall(PetscFree(bk->workraw));
  bk->work   = NULL;
  bk->stride = 0;
  bk->m = bk->nloc = bk->N = bk->nblocks = 0;
  PetscCall(PetscFree2(bk->slot2col, bk->live));
  PetscCall(PetscFree2(bk->reason, bk->its));
  PetscCall(PetscFree3(bk->rnorm0, bk->ttol, bk->bnorm));
  PetscCall(PetscFree7(bk->rho, bk->alpha, bk->omega, bk->beta, bk->restart, bk->rr, bk->dots));
  bk->mcol = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Frees the work blocks, the per-column arrays and the layout measured by auto (KSPReset(), KSPDestroy()) */
PetscErrorCode KSPBlockReset_BiCGStabFamily(KSP ksp)
{
  KSP_BiCGStabBlock *bk = &((KSP_BiCGStabFamily *)ksp->data)->block;

  PetscFunctionBegin;
  PetscCall(KSPBlockFree(ksp));
  bk->measured = PETSC_FALSE;
  bk->ameasA   = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The interleaved SpMV's objects for m columns on A: with MATMPIAIJ, the scatter of the m values of each off-rank row of
   x that the local rows need (the rows garray[] of MatMPIAIJGetSeqAIJ(), in its order), as MatCreateMAIJ() builds it */
static PetscErrorCode KSPBlockInterleavedSetUp(KSP_BiCGStabBlock *bk, Mat A, PetscInt m)
{
  MPI_Comm        comm = PetscObjectComm((PetscObject)A);
  PetscBool       mpi;
  Mat             Ad, Ao;
  const PetscInt *garray;
  PetscInt        nloc, N, nghost;
  IS              is;

  PetscFunctionBegin;
  if (bk->mi == m) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPBlockDestroyInterleaved(bk));
  bk->mi = m;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATMPIAIJ, &mpi));
  if (!mpi) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetLocalSize(A, &nloc, NULL));
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
  PetscCall(MatGetSize(Ao, NULL, &nghost));
  PetscCall(VecCreateMPIWithArray(comm, m, m * nloc, m * N, NULL, &bk->vin));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, m * nghost, &bk->ghost));
  PetscCall(ISCreateBlock(PETSC_COMM_SELF, m, nghost, garray, PETSC_COPY_VALUES, &is));
  PetscCall(VecScatterCreate(bk->vin, is, bk->ghost, NULL, &bk->sct));
  PetscCall(ISDestroy(&is));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y (+)= S x on m interleaved columns, S a MATSEQAIJ (CAKrylovMatMultInterleaved() on its CSR arrays); *nz its nonzeros */
static PetscErrorCode KSPBlockSpMVSeq(Mat S, PetscInt m, const PetscScalar *x, PetscScalar *y, PetscBool add, PetscInt *nz)
{
  const PetscInt    *ai, *aj;
  const PetscScalar *aa;
  PetscInt           n;
  PetscBool          done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(S, 0, PETSC_FALSE, PETSC_FALSE, &n, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "The interleaved layout of KSPMatSolve() needs the CSR arrays of the operator (MatGetRowIJ())");
  PetscCall(MatSeqAIJGetArrayRead(S, &aa));
  CAKrylovMatMultInterleaved(n, m, ai, aj, aa, x, y, add);
  *nz = ai[n];
  PetscCall(MatSeqAIJRestoreArrayRead(S, &aa));
  PetscCall(MatRestoreRowIJ(S, 0, PETSC_FALSE, PETSC_FALSE, &n, &ai, &aj, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x for the m interleaved columns of x and y (KSPBlockInterleavedSetUp() done): the local rows' diagonal block
   while the off-rank rows of x travel, then their off-diagonal block added; per column the arithmetic of MatMult() of
   MatCreateMAIJ(A, m) (each part summed from 0, the second added to the first), logged as MatMult() */
static PetscErrorCode KSPBlockSpMVInterleaved(KSP_BiCGStabBlock *bk, Mat A, PetscInt m, const PetscScalar *x, PetscScalar *y)
{
  Mat                Ad = A, Ao = NULL;
  PetscInt           nzd, nzo   = 0;
  const PetscScalar *g;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MAT_Mult, A, 0, 0, 0));
  if (bk->sct) {
    PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, NULL));
    PetscCall(VecPlaceArray(bk->vin, x));
    PetscCall(VecScatterBegin(bk->sct, bk->vin, bk->ghost, INSERT_VALUES, SCATTER_FORWARD));
  }
  PetscCall(KSPBlockSpMVSeq(Ad, m, x, y, PETSC_FALSE, &nzd));
  if (bk->sct) {
    PetscCall(VecScatterEnd(bk->sct, bk->vin, bk->ghost, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecResetArray(bk->vin));
    PetscCall(VecGetArrayRead(bk->ghost, &g));
    PetscCall(KSPBlockSpMVSeq(Ao, m, g, y, PETSC_TRUE, &nzo));
    PetscCall(VecRestoreArrayRead(bk->ghost, &g));
  }
  PetscCall(PetscLogFlops(2.0 * m * (nzd + nzo)));
  PetscCall(PetscLogEventEnd(MAT_Mult, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define KSP_BLOCK_MEASURE_REPS 3 /* timed repetitions of each measured operation, after one untimed */

/* The fastest of KSP_BLOCK_MEASURE_REPS runs of operation op (0: SpMV interleaved, 1: fused pass interleaved, 2: SpMV
   dense, 3: fused pass dense) on the scratch blocks v[0..3] of nloc x m */
static PetscErrorCode KSPBlockMeasureOne(KSP ksp, Mat A, PetscInt m, PetscInt op, PetscScalar *v[4], Mat C, Vec w[4], PetscScalar *iwork, PetscReal *t)
{
  KSP_BiCGStabBlock     *bk   = &((KSP_BiCGStabFamily *)ksp->data)->block;
  const PetscScalar      half = 0.5, one = 1.0, *ones = iwork, *halves = iwork + m; /* coefficients: y = x0 + x1 / 2 + y / 2 */
  PetscScalar           *dots = iwork + 2 * m, *kwork = iwork + 4 * m;
  PetscInt               nloc;
  CAKrylovVecBlockUpdate ui = {
    .y = v[3], .x = {v[0], v[1]  },
         .a = {ones, halves},
         .b = halves, .nx = 2
  };
  const PetscScalar *dx[2] = {v[3], v[3]}, *dy[2] = {v[2], v[3]};

  PetscFunctionBegin;
  PetscCall(MatGetLocalSize(A, &nloc, NULL));
  *t = PETSC_MAX_REAL;
  for (PetscInt r = 0; r <= KSP_BLOCK_MEASURE_REPS; r++) {
    PetscLogDouble t0, t1;

    PetscCall(PetscTime(&t0));
    switch (op) {
    case 0:
      PetscCall(KSPBlockSpMVInterleaved(bk, A, m, v[0], v[1]));
      break;
    case 1:
      PetscCall(CAKrylovVecFusedInterleaved(nloc, m, m, NULL, 1, &ui, 2, dx, dy, kwork, dots));
      break;
    case 2:
      PetscCall(MatProductNumeric(C));
      break;
    default:
      for (PetscInt j = 0; j < m; j++) {
        const CAKrylovVecUpdate u[] = {
          {.y = w[3], .b = half, .a = {one, half}, .x = {w[0], w[1]}}
        };
        const Vec vx[2] = {w[3], w[3]}, vy[2] = {w[2], w[3]};

        for (PetscInt k = 0; k < 4; k++) PetscCall(VecPlaceArray(w[k], v[k] + (size_t)j * nloc));
        PetscCall(CAKrylovVecFused(((KSP_BiCGStabFamily *)ksp->data)->fallback, 1, u, 2, vx, vy, dots));
        for (PetscInt k = 0; k < 4; k++) PetscCall(VecResetArray(w[k]));
      }
    }
    PetscCall(PetscTime(&t1));
    if (r) *t = PetscMin(*t, (PetscReal)(t1 - t0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   auto: which layout is the faster for m columns of A on this machine, measured once per operator, nonzero state and m
   (the first block solve, KSP_BLOCK_MEASURE_REPS runs each after one untimed): one SpMV and one fused pass (y = x0 + x1 / 2
   + y / 2 with two dots on y, 5 streams) in each layout on 4 scratch blocks, the slowest rank's times (one reduction), and
   per iteration 2 SpMVs + 4 such passes (the family's iterations move 16 to 34 vectors besides their 2 SpMVs)
*/
static PetscErrorCode KSPBlockMeasureLayouts(KSP ksp, Mat A, PetscInt m)
{
  KSP_BiCGStabBlock *bk   = &((KSP_BiCGStabFamily *)ksp->data)->block;
  MPI_Comm           comm = PetscObjectComm((PetscObject)A);
  PetscInt           nloc, N;
  void              *raw;
  PetscScalar       *base, *v[4], *iwork;
  size_t             stride;
  Mat                X, C;
  Vec                w[4];
  PetscReal          t[4], cost[2];

  PetscFunctionBegin;
  PetscCall(MatGetLocalSize(A, &nloc, NULL));
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(KSPBlockAllocate(4, (size_t)m * nloc, &raw, &base, &stride));
  PetscCall(PetscMalloc1(4 * m + CAKRYLOV_VEC_INTERLEAVED_WORK(m), &iwork));
  for (PetscInt j = 0; j < m; j++) {
    iwork[j]     = 1.0;
    iwork[m + j] = 0.5;
  }
  for (PetscInt k = 0; k < 4; k++) {
    v[k] = base + (size_t)k * stride;
    for (size_t i = 0; i < (size_t)m * nloc; i++) v[k][i] = 1.0; /* also the first touch */
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, nloc, NULL, &w[k]));
  }
  PetscCall(KSPBlockInterleavedSetUp(bk, A, m));
  PetscCall(MatCreateDense(comm, nloc, PETSC_DECIDE, N, m, v[0], &X));
  PetscCall(MatCreateDense(comm, nloc, PETSC_DECIDE, N, m, v[1], &C));
  PetscCall(MatProductCreateWithMat(A, X, NULL, C));
  PetscCall(MatProductSetType(C, MATPRODUCT_AB));
  PetscCall(MatProductSetFromOptions(C));
  PetscCall(MatProductSymbolic(C));
  for (PetscInt op = 0; op < 4; op++) PetscCall(KSPBlockMeasureOne(ksp, A, m, op, v, C, w, iwork, &t[op]));
  PetscCall(MPIU_Allreduce(t, bk->ameasTime, 4, MPIU_REAL, MPIU_MAX, comm));
  cost[0]              = 2 * bk->ameasTime[0] + 4 * bk->ameasTime[1];
  cost[1]              = 2 * bk->ameasTime[2] + 4 * bk->ameasTime[3];
  bk->ameasInterleaved = cost[0] <= cost[1] ? PETSC_TRUE : PETSC_FALSE;
  bk->ameasA           = A;
  bk->ameasm           = m;
  bk->measured         = PETSC_TRUE;
  PetscCall(MatGetNonzeroState(A, &bk->ameasState));
  PetscCall(PetscInfo(ksp, "KSPMatSolve() auto layout for %" PetscInt_FMT " columns: %s (per iteration, 2 SpMVs + 4 fused passes: interleaved %g s, dense %g s)\n", m, bk->ameasInterleaved ? "interleaved" : "dense", (double)cost[0], (double)cost[1]));
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&X));
  for (PetscInt k = 0; k < 4; k++) PetscCall(VecDestroy(&w[k]));
  PetscCall(PetscFree(iwork));
  PetscCall(PetscFree(raw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The layout of this block solve: as asked, or for auto with more than one column and the identity or PCJACOBI the one
   measured the faster for this operator (nonzero state) and m, measured now if not yet */
static PetscErrorCode KSPBlockChooseLayout(KSP ksp, Mat A, PetscInt m, PetscBool *interleaved)
{
  KSP_BiCGStabFamily *fam = (KSP_BiCGStabFamily *)ksp->data;
  KSP_BiCGStabBlock  *bk  = &fam->block;
  PetscInt            N;
  PetscObjectState    state;
  PetscBool           jacobi, fits;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatGetNonzeroState(A, &state));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp->pc, PCJACOBI, &jacobi));
  fits         = (PetscInt64)m * N <= PETSC_MAX_INT ? PETSC_TRUE : PETSC_FALSE; /* the scatter's Vec has m N entries */
  *interleaved = bk->layout == CAKRYLOV_MATSOLVE_LAYOUT_INTERLEAVED ? PETSC_TRUE : PETSC_FALSE;
  PetscCheck(!*interleaved || fits, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "The interleaved layout of KSPMatSolve() keeps the %" PetscInt_FMT " columns in one Vec of %" PetscInt64_FMT " entries, more than a PetscInt counts: use -ksp_%s_matsolve_layout dense or auto, or PETSc with 64-bit indices", m, (PetscInt64)m * N,
             ((PetscObject)ksp)->type_name);
  PetscCheck(!*interleaved || fam->identity || jacobi, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "The interleaved layout of KSPMatSolve() takes the identity preconditioner or PCJACOBI, not %s: use -ksp_%s_matsolve_layout dense or auto",
             ((PetscObject)ksp->pc)->type_name, ((PetscObject)ksp)->type_name);
  /* auto: one column is the same array in both layouts, and the dense path's per-column kernels, made for one vector,
     are the faster there */
  if (bk->layout != CAKRYLOV_MATSOLVE_LAYOUT_AUTO || m < 2 || !(fam->identity || jacobi) || !fits) PetscFunctionReturn(PETSC_SUCCESS);
  if (!bk->measured || bk->ameasA != A || bk->ameasState != state || bk->ameasm != m) PetscCall(KSPBlockMeasureLayouts(ksp, A, m));
  *interleaved = bk->ameasInterleaved;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* nblocks work blocks of m columns in the layout of the operator, kept when (m, layout, nblocks) is unchanged; the
   products alias[out[p]] = A alias[in[p]], p < nprod, of this solve (the cached views are dropped when the pairing, the
   operator or its nonzero pattern changed) */
PetscErrorCode KSPBlockSetUp_BiCGStabFamily(KSP ksp, PetscInt m, PetscInt nblocks, PetscInt nprod, const PetscInt in[], const PetscInt out[])
{
  KSP_BiCGStabFamily *fam = (KSP_BiCGStabFamily *)ksp->data;
  KSP_BiCGStabBlock  *bk  = &fam->block;
  Mat                 A;
  PetscInt            nloc, N;
  PetscObjectState    state;
  PetscBool           same, interleaved;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  PetscCall(MatGetLocalSize(A, &nloc, NULL));
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatGetNonzeroState(A, &state));
  if (bk->A != A || bk->Astate != state) {
    PetscCall(VecDestroy(&bk->msol));
    PetscCall(VecDestroy(&bk->mrhs));
    PetscCall(KSPBlockDestroyInterleaved(bk));
  }
  PetscCall(KSPBlockChooseLayout(ksp, A, m, &interleaved));
  if (bk->m != m || bk->nloc != nloc || bk->N != N || bk->nblocks != nblocks || bk->interleaved != interleaved) {
    const PetscInt nalloc = nblocks + (interleaved ? 2 : 0); /* interleaved: x and b too */

    PetscCall(KSPBlockFree(ksp));
    PetscCall(KSPBlockAllocate(nalloc, (size_t)m * nloc, &bk->workraw, &bk->work, &bk->stride));
    if (!interleaved) PetscCall(PetscCalloc1((m + 1) * nblocks, &bk->cache)); /* the views of the dense layout */
    PetscCall(PetscMalloc1(nblocks + 2, &bk->wrap));
    for (PetscInt k = 0; k < nblocks + 2; k++) PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, nloc, NULL, &bk->wrap[k]));
    if (interleaved) {
      PetscCall(PetscCalloc3(m, &bk->seq, CAKRYLOV_VEC_MAX_DOTS * m, &bk->gdot, CAKRYLOV_VEC_INTERLEAVED_WORK(m), &bk->gwork));
      for (PetscInt g = 0; g < KSP_BICGSTABBLOCK_MAXGROUPS; g++) PetscCall(PetscMalloc3(m, &bk->group[g].pos, m, &bk->group[g].dot, 4 * CAKRYLOV_VEC_MAX_UPDATES * m, &bk->group[g].coef));
    }
    bk->m           = m;
    bk->nloc        = nloc;
    bk->N           = N;
    bk->nblocks     = nblocks;
    bk->interleaved = interleaved;
    PetscCall(PetscInfo(ksp, "KSPMatSolve() work: %" PetscInt_FMT " %s blocks of %" PetscInt_FMT " x %" PetscInt_FMT "\n", nalloc, interleaved ? "interleaved" : "dense", nloc, m));
  }
  if (interleaved) PetscCall(KSPBlockInterleavedSetUp(bk, A, m));                                     /* the SpMV's scatter, kept with A's nonzero state */
  if (interleaved && !fam->identity) PetscCall(CAKrylovPCJacobiDiagonal(ksp->pc, NULL, &bk->jacobi)); /* PCJACOBI: its diagonal d, as its PCApply() multiplies by it */
  same = bk->A == A && bk->Astate == state && bk->nprod == nprod ? PETSC_TRUE : PETSC_FALSE;
  for (PetscInt p = 0; same && p < nprod; p++) same = bk->prodin[p] == in[p] && bk->prodout[p] == out[p] ? PETSC_TRUE : PETSC_FALSE;
  if (!same) PetscCall(KSPBlockDestroyAliases(bk));
  bk->nprod = nprod;
  for (PetscInt p = 0; p < nprod; p++) {
    bk->prodin[p]  = in[p];
    bk->prodout[p] = out[p];
  }
  bk->A      = A;
  bk->Astate = state;
  bk->na     = -1;
  PetscCall(KSPBlockColumns(bk, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The views of the leading na columns of every block (built with their products on first use) */
PetscErrorCode KSPBlockSetActive_BiCGStabFamily(KSP ksp, PetscInt na)
{
  KSP_BiCGStabBlock *bk = &((KSP_BiCGStabFamily *)ksp->data)->block;
  Mat               *v;
  PetscLayout        rows;

  PetscFunctionBegin;
  if (na == bk->na) PetscFunctionReturn(PETSC_SUCCESS);
  bk->na = na;
  if (bk->interleaved) PetscFunctionReturn(PETSC_SUCCESS); /* no views: the operator and the PC sweep all m columns */
  v         = bk->cache + na * bk->nblocks;
  bk->alias = v;
  if (!na || v[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetLayouts(bk->A, &rows, NULL)); /* views made as columns converge, inside a solve: no communication */
  for (PetscInt k = 0; k < bk->nblocks; k++) PetscCall(CAKrylovMatCreateDense(rows, na, KSPBlockArray(bk, k), 0, &v[k]));
  for (PetscInt p = 0; p < bk->nprod; p++) {
    Mat C = v[bk->prodout[p]];

    PetscCall(MatProductCreateWithMat(bk->A, v[bk->prodin[p]], NULL, C));
    PetscCall(MatProductSetType(C, MATPRODUCT_AB));
    PetscCall(MatProductSetFromOptions(C));
    PetscCall(MatProductSymbolic(C));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The wrappers on slot `slot` of every block, on column slot2col[slot] of X (xa, lda ldx) and of B (ba, lda ldb) */
static PetscErrorCode KSPBlockPlace_BiCGStabFamily(KSP ksp, PetscInt slot, PetscScalar *xa, PetscInt ldx, const PetscScalar *ba, PetscInt ldb)
{
  KSP_BiCGStabBlock *bk  = &((KSP_BiCGStabFamily *)ksp->data)->block;
  const PetscInt     col = bk->slot2col[slot];

  PetscFunctionBegin;
  for (PetscInt k = 0; k < bk->nblocks; k++) PetscCall(VecPlaceArray(bk->wrap[k], KSPBlockColumnArray(bk, k, slot)));
  PetscCall(VecPlaceArray(bk->wrap[bk->nblocks], xa + (size_t)col * ldx));
  PetscCall(VecPlaceArray(bk->wrap[bk->nblocks + 1], (PetscScalar *)ba + (size_t)col * ldb)); /* only read */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPBlockUnplace_BiCGStabFamily(KSP ksp)
{
  KSP_BiCGStabBlock *bk = &((KSP_BiCGStabFamily *)ksp->data)->block;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < bk->nblocks + 2; k++) PetscCall(VecResetArray(bk->wrap[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Drops the slots whose column ended (reason != 0) from the leading bs->na, keeping the order of the others; the blocks
   bs->keep[] carry the state of the iteration and move with their column. Then all remaining slots are live, and the
   views are those of the remaining columns. */
PetscErrorCode KSPBlockCompact_BiCGStabFamily(KSP ksp, KSP_BiCGStabBlockSolve *bs)
{
  KSP_BiCGStabBlock *bk = &((KSP_BiCGStabFamily *)ksp->data)->block;
  PetscInt           n  = 0;

  PetscFunctionBegin;
  PetscCall(KSPBlockFlush(bk));
  for (PetscInt s = 0; s < bs->na; s++) {
    if (bk->reason[bk->slot2col[s]]) continue;
    if (s != n) {
      if (!bk->interleaved) /* interleaved: the column keeps its place */
        for (PetscInt k = 0; k < bs->nkeep; k++) PetscCall(PetscArraycpy(KSPBlockColumnArray(bk, bs->keep[k], n), KSPBlockColumnArray(bk, bs->keep[k], s), bk->nloc));
      bk->slot2col[n] = bk->slot2col[s];
    }
    n++;
  }
  for (PetscInt s = 0; s < n; s++) bk->live[s] = PETSC_TRUE;
  bs->na = n;
  PetscCall(KSPBlockSetActive_BiCGStabFamily(ksp, bs->na));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* bs->h: work vector i in block i, but with the identity preconditioner the preconditioned vector pairs[2 p] in block
   pairs[2 p + 1] (its plain one), p < npairs; bs->keep: the blocks of carry[0..ncarry) that are their own */
PetscErrorCode KSPBlockMapWork_BiCGStabFamily(KSP ksp, KSP_BiCGStabBlockSolve *bs, PetscInt npairs, const PetscInt pairs[], PetscInt ncarry, const PetscInt carry[])
{
  KSP_BiCGStabFamily *fam = (KSP_BiCGStabFamily *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(fam->nwork <= KSP_BICGSTABBLOCK_MAXWORK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT " work vectors, at most %d", fam->nwork, KSP_BICGSTABBLOCK_MAXWORK);
  for (PetscInt i = 0; i < fam->nwork; i++) bs->h[i] = i;
  for (PetscInt p = 0; fam->identity && p < npairs; p++) bs->h[pairs[2 * p]] = pairs[2 * p + 1];
  bs->nkeep = 0;
  for (PetscInt i = 0; i < ncarry; i++)
    if (bs->h[carry[i]] == carry[i]) bs->keep[bs->nkeep++] = carry[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KSPConvergedDefault()'s test of column col at iteration n with residual norm rnorm (CAKrylovKSPColumnTest()) */
PetscErrorCode KSPBlockColumnTest_BiCGStabFamily(KSP ksp, PetscInt col, PetscInt n, PetscReal rnorm)
{
  KSP_BiCGStabBlock *bk = &((KSP_BiCGStabFamily *)ksp->data)->block;

  PetscFunctionBegin;
  PetscCall(CAKrylovKSPColumnTest(ksp, col, n, rnorm, bk->bnorm[col], &bk->rnorm0[col], &bk->ttol[col], &bk->reason[col]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x and b of column col, out of the work blocks (interleaved) or out of X and B (dense), into bk->msol and bk->mrhs */
static PetscErrorCode KSPBlockCopyColumn(KSP ksp, KSP_BiCGStabBlockSolve *bs, PetscInt col)
{
  KSP_BiCGStabBlock *bk = &((KSP_BiCGStabFamily *)ksp->data)->block;
  const PetscInt     m  = bk->m;
  PetscScalar       *x, *b;

  PetscFunctionBegin;
  if (!bk->msol) PetscCall(MatCreateVecs(bk->A, &bk->msol, &bk->mrhs));
  PetscCall(VecGetArrayWrite(bk->msol, &x));
  PetscCall(VecGetArrayWrite(bk->mrhs, &b));
  if (bk->interleaved) {
    const PetscScalar *xi = KSPBlockArray(bk, bk->nblocks), *bi = KSPBlockArray(bk, bk->nblocks + 1);

    for (PetscInt i = 0; i < bk->nloc; i++) {
      x[i] = xi[(size_t)i * m + col];
      b[i] = bi[(size_t)i * m + col];
    }
  } else {
    PetscCall(PetscArraycpy(x, bs->xa + (size_t)col * bs->ldx, bk->nloc));
    PetscCall(PetscArraycpy(b, bs->ba + (size_t)col * bs->ldb, bk->nloc));
  }
  PetscCall(VecRestoreArrayWrite(bk->msol, &x));
  PetscCall(VecRestoreArrayWrite(bk->mrhs, &b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The residual norm rnorm of column col tested in this iteration: the block's monitor prints the largest finite one */
static void KSPBlockMonitorNorm(KSP_BiCGStabBlockSolve *bs, PetscInt col, PetscReal rnorm)
{
  if (PetscIsInfOrNanReal(rnorm) || rnorm < bs->maxnorm) return;
  bs->maxnorm = rnorm;
  bs->maxcol  = col;
}

/*
   Iteration its of the block, with the largest finite residual norm of the columns tested in it (0 under KSP_NORM_NONE):
   history and monitors. A monitor sees the column of that norm as the KSP's system: ksp->vec_rhs and ksp->vec_sol are
   its b and its present x for the monitor's call (copies, made only when monitors are set, after the recorded passes
   have run), so that KSPBuildSolution(), KSPBuildResidual() and every monitor PETSc ships (-ksp_monitor_true_residual
   prints that column's true residual beside the norm it was tested with) work as in KSPSolve().
*/
PetscErrorCode KSPBlockMonitor_BiCGStabFamily(KSP ksp, KSP_BiCGStabBlockSolve *bs, PetscInt its)
{
  KSP_BiCGStabBlock *bk    = &((KSP_BiCGStabFamily *)ksp->data)->block;
  const PetscReal    rnorm = ksp->normtype != KSP_NORM_NONE ? bs->maxnorm : 0.0;
  Vec                sol = ksp->vec_sol, rhs = ksp->vec_rhs;
  PetscErrorCode     ierr;

  PetscFunctionBegin;
  PetscCall(PetscObjectSAWsTakeAccess((PetscObject)ksp));
  ksp->its   = its;
  ksp->rnorm = rnorm;
  PetscCall(PetscObjectSAWsGrantAccess((PetscObject)ksp));
  PetscCall(KSPLogResidualHistory(ksp, rnorm));
  if (!ksp->numbermonitors) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPBlockFlush(bk)); /* x up to date */
  PetscCall(KSPBlockCopyColumn(ksp, bs, bs->maxcol));
  ksp->vec_sol = bk->msol;
  ksp->vec_rhs = bk->mrhs;
  ierr         = KSPMonitor(ksp, its, rnorm);
  ksp->vec_sol = sol; /* the caller's vectors back, also when a monitor failed */
  ksp->vec_rhs = rhs;
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Column of slot `slot` ends with reason (its iteration count stays) */
void KSPBlockEndColumn_BiCGStabFamily(KSP ksp, PetscInt slot, KSPConvergedReason reason)
{
  KSP_BiCGStabBlock *bk = &((KSP_BiCGStabFamily *)ksp->data)->block;

  bk->reason[bk->slot2col[slot]] = reason;
  bk->live[slot]                 = PETSC_FALSE;
}

/* An unusable coefficient v ends its column (*bad): NaN/Inf (KSP_DIVERGED_NANORINF) or, if zero is unusable, 0 (breakdown) */
PetscErrorCode KSPBlockCheckCoefficient_BiCGStabFamily(KSP ksp, PetscInt slot, PetscScalar v, PetscBool zero, const char what[], PetscBool *bad)
{
  KSP_BiCGStabBlock *bk     = &((KSP_BiCGStabFamily *)ksp->data)->block;
  KSPConvergedReason reason = KSP_CONVERGED_ITERATING;

  PetscFunctionBegin;
  if (PetscIsInfOrNanScalar(v)) reason = KSP_DIVERGED_NANORINF;
  else if (zero && v == 0.0) reason = KSP_DIVERGED_BREAKDOWN;
  *bad = reason ? PETSC_TRUE : PETSC_FALSE;
  if (!reason) PetscFunctionReturn(PETSC_SUCCESS);
  KSPBlockEndColumn_BiCGStabFamily(ksp, slot, reason);
  PetscCall(PetscInfo(ksp, "KSPMatSolve() column %" PetscInt_FMT " stops at iteration %" PetscInt_FMT ": %s = %g\n", bk->slot2col[slot], bk->its[bk->slot2col[slot]], what, (double)PetscRealPart(v)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The block of wrapper v: k for wrap[k] (nblocks: x, nblocks + 1: b) */
static PetscErrorCode KSPBlockIndex(KSP_BiCGStabBlock *bk, Vec v, PetscInt *k)
{
  PetscFunctionBegin;
  for (*k = 0; *k < bk->nblocks + 2 && bk->wrap[*k] != v; (*k)++) { }
  PetscCheck(*k < bk->nblocks + 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A fused pass of the block path on a vector that is not a work block");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Do a and b run the same pass (vectors, which updates read y, place in their columns' sequence)? */
static PetscBool KSPBlockSameGroup(const KSP_BiCGStabBlockGroup *a, const KSP_BiCGStabBlockGroup *b)
{
  if (a->seq != b->seq || a->nu != b->nu || a->nd != b->nd) return PETSC_FALSE;
  for (PetscInt k = 0; k < a->nu; k++) {
    if (a->y[k] != b->y[k] || a->nx[k] != b->nx[k] || a->readsy[k] != b->readsy[k]) return PETSC_FALSE;
    for (PetscInt c = 0; c < a->nx[k]; c++)
      if (a->x[k][c] != b->x[k][c]) return PETSC_FALSE;
  }
  for (PetscInt d = 0; d < a->nd; d++)
    if (a->dx[d] != b->dx[d] || a->dy[d] != b->dy[d]) return PETSC_FALSE;
  return PETSC_TRUE;
}

/* Interleaved: the pass of the column of slot s joins the group of the same pass (a new group if none) with its
   coefficients; it runs at the next flush */
static PetscErrorCode KSPBlockRecord(KSP_BiCGStabBlock *bk, PetscInt s, PetscInt nu, const CAKrylovVecUpdate u[], PetscInt nd, const Vec dx[], const Vec dy[], PetscScalar dot[])
{
  const PetscInt         j   = bk->slot2col[s];
  KSP_BiCGStabBlockGroup key = {0}, *g = NULL;

  PetscFunctionBegin;
  if (bk->ngroups == KSP_BICGSTABBLOCK_MAXGROUPS) PetscCall(KSPBlockFlush(bk)); /* room for a new group */
  key.seq = bk->seq[j]++;
  key.nu  = nu;
  key.nd  = nd;
  for (PetscInt k = 0; k < nu; k++) {
    PetscCall(KSPBlockIndex(bk, u[k].y, &key.y[k]));
    for (key.nx[k] = 0; key.nx[k] < 3 && u[k].x[key.nx[k]]; key.nx[k]++) PetscCall(KSPBlockIndex(bk, u[k].x[key.nx[k]], &key.x[k][key.nx[k]]));
    key.readsy[k] = u[k].b != 0.0 ? PETSC_TRUE : PETSC_FALSE;
  }
  for (PetscInt d = 0; d < nd; d++) {
    PetscCall(KSPBlockIndex(bk, dx[d], &key.dx[d]));
    PetscCall(KSPBlockIndex(bk, dy[d], &key.dy[d]));
  }
  for (PetscInt i = 0; i < bk->ngroups && !g; i++)
    if (KSPBlockSameGroup(&bk->group[i], &key)) g = &bk->group[i];
  if (!g) {
    g        = &bk->group[bk->ngroups++];
    key.pos  = g->pos;
    key.dot  = g->dot;
    key.coef = g->coef;
    *g       = key;
  }
  g->pos[g->np]   = j;
  g->dot[g->np++] = dot;
  for (PetscInt k = 0; k < nu; k++) {
    for (PetscInt c = 0; c < 3; c++) g->coef[(4 * k + c) * bk->m + j] = c < key.nx[k] ? u[k].a[c] : 0.0;
    g->coef[(4 * k + 3) * bk->m + j] = u[k].b;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Runs the passes recorded since the last flush (interleaved; nothing to do in the dense layout): one sweep over the
   rows per group, for its columns; a column's passes in the order it recorded them (groups by seq), then each
   column's dots where its call asked for them
*/
static PetscErrorCode KSPBlockFlush(KSP_BiCGStabBlock *bk)
{
  PetscInt last = -1;

  PetscFunctionBegin;
  if (!bk->interleaved || !bk->ngroups) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < bk->ngroups; i++) last = PetscMax(last, bk->group[i].seq);
  for (PetscInt seq = 0; seq <= last; seq++) {
    for (PetscInt i = 0; i < bk->ngroups; i++) {
      const KSP_BiCGStabBlockGroup *g = &bk->group[i];
      CAKrylovVecBlockUpdate        u[CAKRYLOV_VEC_MAX_UPDATES];
      const PetscScalar            *dx[CAKRYLOV_VEC_MAX_DOTS], *dy[CAKRYLOV_VEC_MAX_DOTS];

      if (g->seq != seq) continue;
      for (PetscInt k = 0; k < g->nu; k++) {
        u[k].y  = KSPBlockArray(bk, g->y[k]);
        u[k].nx = g->nx[k];
        for (PetscInt c = 0; c < 3; c++) {
          u[k].x[c] = c < g->nx[k] ? KSPBlockArray(bk, g->x[k][c]) : NULL;
          u[k].a[c] = g->coef + (4 * k + c) * bk->m;
        }
        u[k].b = g->readsy[k] ? g->coef + (4 * k + 3) * bk->m : NULL;
      }
      for (PetscInt d = 0; d < g->nd; d++) {
        dx[d] = KSPBlockArray(bk, g->dx[d]);
        dy[d] = KSPBlockArray(bk, g->dy[d]);
      }
      PetscCall(CAKrylovVecFusedInterleaved(bk->nloc, bk->m, g->np, g->np == bk->m ? NULL : g->pos, g->nu, u, g->nd, dx, dy, bk->gwork, bk->gdot));
      for (PetscInt t = 0; t < g->np; t++)
        for (PetscInt d = 0; d < g->nd; d++) g->dot[t][d] = bk->gdot[d * bk->m + g->pos[t]];
    }
  }
  for (PetscInt i = 0; i < bk->ngroups; i++)
    for (PetscInt t = 0; t < bk->group[i].np; t++) bk->seq[bk->group[i].pos[t]] = 0;
  bk->ngroups = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The global sums of the local dots dots[0..n) of the block's columns, recorded passes run first: one blocking
   reduction (Reduce), or one in flight from ReduceBegin to ReduceEnd (the block's operator or PC hides it) */
PetscErrorCode KSPBlockReduce_BiCGStabFamily(KSP ksp, KSP_BiCGStabBlockSolve *bs, PetscInt n, PetscScalar dots[])
{
  PetscFunctionBegin;
  PetscCall(KSPBlockFlush(&((KSP_BiCGStabFamily *)ksp->data)->block));
  PetscCall(CAKrylovReduction(PetscObjectComm((PetscObject)ksp), n, dots));
  bs->nred++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPBlockReduceBegin_BiCGStabFamily(KSP ksp, PetscInt n, PetscScalar dots[], MPI_Request *req)
{
  PetscFunctionBegin;
  PetscCall(KSPBlockFlush(&((KSP_BiCGStabFamily *)ksp->data)->block));
  PetscCall(CAKrylovReductionBegin(PetscObjectComm((PetscObject)ksp), n, dots, req));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPBlockReduceEnd_BiCGStabFamily(KSP_BiCGStabBlockSolve *bs, MPI_Request *req)
{
  PetscFunctionBegin;
  PetscCall(CAKrylovReductionEnd(req));
  bs->nred++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The product p that writes block out (alias[out] = A alias[in[p]]) */
static PetscErrorCode KSPBlockProduct(KSP_BiCGStabBlock *bk, PetscInt out, PetscInt *p)
{
  PetscFunctionBegin;
  for (*p = 0; *p < bk->nprod && bk->prodout[*p] != out; (*p)++) { }
  PetscCheck(*p < bk->nprod, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No product of the block path writes block %" PetscInt_FMT, out);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Interleaved: y = A x for all m columns of blocks x and y (KSPBlockSpMVInterleaved()) */
static PetscErrorCode KSPBlockMatMultInterleaved(KSP_BiCGStabBlock *bk, PetscInt x, PetscInt y)
{
  PetscFunctionBegin;
  PetscCall(KSPBlockSpMVInterleaved(bk, bk->A, bk->m, KSPBlockArray(bk, x), KSPBlockArray(bk, y)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Block out = A (block in) on the active columns, for the product of this solve that writes out: one AIJ x dense
   MatProductNumeric() (dense) or one interleaved SpMV (KSPBlockSpMVInterleaved()) */
PetscErrorCode KSPBlockMult_BiCGStabFamily(KSP ksp, PetscInt out)
{
  KSP_BiCGStabBlock *bk = &((KSP_BiCGStabFamily *)ksp->data)->block;
  PetscInt           p;

  PetscFunctionBegin;
  PetscCall(KSPBlockFlush(bk));
  PetscCall(KSPBlockProduct(bk, out, &p));
  if (bk->interleaved) PetscCall(KSPBlockMatMultInterleaved(bk, bk->prodin[p], out));
  else PetscCall(MatProductNumeric(bk->alias[out]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Block out = A x on the active columns (dense: x copied into the input block of the product that writes out) */
PetscErrorCode KSPBlockMultSolution_BiCGStabFamily(KSP ksp, KSP_BiCGStabBlockSolve *bs, PetscInt out)
{
  KSP_BiCGStabBlock *bk = &((KSP_BiCGStabFamily *)ksp->data)->block;
  PetscInt           p;

  PetscFunctionBegin;
  PetscCall(KSPBlockFlush(bk));
  PetscCall(KSPBlockProduct(bk, out, &p));
  if (bk->interleaved) PetscCall(KSPBlockMatMultInterleaved(bk, bk->nblocks, out));
  else {
    for (PetscInt s = 0; s < bs->na; s++) PetscCall(PetscArraycpy(KSPBlockColumnArray(bk, bk->prodin[p], s), bs->xa + (size_t)bk->slot2col[s] * bs->ldx, bk->nloc));
    PetscCall(MatProductNumeric(bk->alias[out]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Block y = M^{-1} (block x) on the active columns: PCMatApply() (dense) or the fused PCJACOBI y_ij = d_i x_ij (interleaved) */
PetscErrorCode KSPBlockPCApply_BiCGStabFamily(KSP ksp, PetscInt x, PetscInt y)
{
  KSP_BiCGStabBlock *bk = &((KSP_BiCGStabFamily *)ksp->data)->block;

  PetscFunctionBegin;
  PetscCall(KSPBlockFlush(bk));
  if (!bk->interleaved) PetscCall(PCMatApply(ksp->pc, bk->alias[x], bk->alias[y]));
  else {
    const PetscScalar *d, *xa = KSPBlockArray(bk, x);
    PetscScalar       *ya = KSPBlockArray(bk, y);
    const PetscInt     m  = bk->m;

    PetscCall(VecGetArrayRead(bk->jacobi.d, &d));
    for (PetscInt i = 0; i < bk->nloc; i++)
      for (PetscInt j = 0; j < m; j++) ya[i * m + j] = d[i] * xa[i * m + j];
    PetscCall(VecRestoreArrayRead(bk->jacobi.d, &d));
    PetscCall(PetscLogFlops((PetscLogDouble)bk->nloc * m));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Block y = b on the active columns (dense: from B's columns, whose layout need not be that of the work blocks) */
static PetscErrorCode KSPBlockCopyRHS(KSP ksp, KSP_BiCGStabBlockSolve *bs, PetscInt y)
{
  KSP_BiCGStabBlock *bk = &((KSP_BiCGStabFamily *)ksp->data)->block;

  PetscFunctionBegin;
  PetscCall(KSPBlockFlush(bk)); /* no recorded pass writes y after the copy */
  if (bk->interleaved) PetscCall(PetscArraycpy(KSPBlockArray(bk, y), KSPBlockArray(bk, bk->nblocks + 1), (size_t)bk->m * bk->nloc));
  else
    for (PetscInt s = 0; s < bs->na; s++) PetscCall(PetscArraycpy(KSPBlockColumnArray(bk, y, s), bs->ba + (size_t)bk->slot2col[s] * bs->ldb, bk->nloc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One fused group of the single solve on the column of slot s (wrap[k] on its column of block k, wrap[nblocks] on x,
   wrap[nblocks + 1] on b): run here (dense), or recorded for the next KSPBlockFlush() (interleaved) */
PetscErrorCode KSPBlockFused_BiCGStabFamily(KSP ksp, KSP_BiCGStabBlockSolve *bs, PetscInt s, PetscInt nu, const CAKrylovVecUpdate u[], PetscInt nd, const Vec dx[], const Vec dy[], PetscScalar dot[])
{
  KSP_BiCGStabBlock *bk = &((KSP_BiCGStabFamily *)ksp->data)->block;

  PetscFunctionBegin;
  if (bk->interleaved) {
    PetscCall(KSPBlockRecord(bk, s, nu, u, nd, dx, dy, dot));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(KSPBlockPlace_BiCGStabFamily(ksp, s, bs->xa, bs->ldx, bs->ba, bs->ldb));
  PetscCall(CAKrylovVecFused(((KSP_BiCGStabFamily *)ksp->data)->fallback, nu, u, nd, dx, dy, dot));
  PetscCall(KSPBlockUnplace_BiCGStabFamily(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Between the column-major a (lda) and the interleaved block v, entry (i, j) being a[j lda + i] and v[i m + j]: into v
   (in) or back into a, in tiles of 64 rows */
static void KSPBlockInterleave(PetscInt nloc, PetscInt m, PetscBool in, PetscScalar *a, PetscInt lda, PetscScalar *v)
{
  for (PetscInt i0 = 0; i0 < nloc; i0 += 64)
    for (PetscInt j = 0; j < m; j++)
      for (PetscInt i = i0; i < PetscMin(i0 + 64, nloc); i++) {
        if (in) v[(size_t)i * m + j] = a[(size_t)j * lda + i];
        else a[(size_t)j * lda + i] = v[(size_t)i * m + j];
      }
}

/* B's and X's arrays, every column iterating from slot = column, the views of all m columns, the wrappers bs->w; after
   KSPBlockMapWork_BiCGStabFamily() and KSPBlockSetUp_BiCGStabFamily() */
PetscErrorCode KSPBlockSolveBegin_BiCGStabFamily(KSP ksp, Mat B, Mat X, KSP_BiCGStabBlockSolve *bs)
{
  KSP_BiCGStabFamily *fam = (KSP_BiCGStabFamily *)ksp->data;
  KSP_BiCGStabBlock  *bk  = &fam->block;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < fam->nwork; i++) bs->w[i] = bk->wrap[bs->h[i]];
  bs->w[fam->nwork]     = bk->wrap[bk->nblocks];     /* x */
  bs->w[fam->nwork + 1] = bk->wrap[bk->nblocks + 1]; /* b */
  if (ksp->res_hist_reset) ksp->res_hist_len = 0;
  PetscCall(MatDenseGetArrayRead(B, &bs->ba));
  PetscCall(MatDenseGetLDA(B, &bs->ldb));
  PetscCall(MatDenseGetArray(X, &bs->xa));
  PetscCall(MatDenseGetLDA(X, &bs->ldx));
  for (PetscInt j = 0; j < bk->m; j++) {
    bk->slot2col[j] = j;
    bk->live[j]     = PETSC_TRUE;
    bk->reason[j]   = KSP_CONVERGED_ITERATING;
    bk->its[j]      = 0;
    bk->bnorm[j]    = 0.0;
    bk->restart[j]  = PETSC_TRUE;
    bk->beta[j]     = 0.0;
    bk->omega[j]    = 0.0;
  }
  bs->na     = bk->m;
  bs->maxcol = 0;
  PetscCall(KSPBlockSetActive_BiCGStabFamily(ksp, bs->na));
  if (bk->interleaved) {                                                                                                 /* b and x into their interleaved blocks (x = 0 for a zero guess) */
    KSPBlockInterleave(bk->nloc, bk->m, PETSC_TRUE, (PetscScalar *)bs->ba, bs->ldb, KSPBlockArray(bk, bk->nblocks + 1)); /* only read */
    if (ksp->guess_zero) PetscCall(PetscArrayzero(KSPBlockArray(bk, bk->nblocks), (size_t)bk->m * bk->nloc));
    else KSPBlockInterleave(bk->nloc, bk->m, PETSC_TRUE, bs->xa, bs->ldx, KSPBlockArray(bk, bk->nblocks));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The arrays back, the statistics, the block's reason and count */
PetscErrorCode KSPBlockSolveEnd_BiCGStabFamily(KSP ksp, Mat B, Mat X, KSP_BiCGStabBlockSolve *bs)
{
  KSP_BiCGStabFamily *fam = (KSP_BiCGStabFamily *)ksp->data;

  PetscFunctionBegin;
  PetscCall(KSPBlockFlush(&fam->block));
  if (fam->block.interleaved) KSPBlockInterleave(fam->block.nloc, fam->block.m, PETSC_FALSE, bs->xa, bs->ldx, KSPBlockArray(&fam->block, fam->block.nblocks)); /* x back into X */
  PetscCall(MatDenseRestoreArray(X, &bs->xa));
  PetscCall(MatDenseRestoreArrayRead(B, &bs->ba));
  fam->nsolves++;
  fam->nits += bs->k;
  fam->nreductions += bs->nred;
  fam->block.last_block = PETSC_TRUE;
  PetscCall(KSPBlockEnd_BiCGStabFamily(ksp, fam->block.m, bs->nred));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* r_0 = b - A x_0 (M^{-1}(b - A x_0) with left preconditioning) per column into block r, as KSPInitialResidual(), with the
   product alias[prodout[0]] = A alias[prodin[0]] and the scratch blocks t1, t2; with a nonzero guess also ||b||
   (||M^{-1} b|| with the preconditioned norm), the reference of KSPConvergedDefault(), in one reduction */
PetscErrorCode KSPBlockInitialResidual_BiCGStabFamily(KSP ksp, KSP_BiCGStabBlockSolve *bs, PetscInt r, PetscInt t1, PetscInt t2)
{
  KSP_BiCGStabBlock      *bk   = &((KSP_BiCGStabFamily *)ksp->data)->block;
  Vec                    *w    = bk->wrap;
  KSPConvergedDefaultCtx *cctx = (KSPConvergedDefaultCtx *)ksp->cnvP;
  const PetscInt          y    = bs->left ? t1 : r; /* b - A x_0 goes here */

  PetscFunctionBegin;
  if (ksp->guess_zero) { /* r_0 = b (M^{-1} b: b copied into t1 first, since B's column layout, e.g. a batch of
                            KSPMatSolve(), need not be that of the work blocks, which PCMatApply() checks from PETSc 3.23 on) */
    PetscCall(KSPBlockCopyRHS(ksp, bs, y));
    if (bs->left) PetscCall(KSPBlockPCApply_BiCGStabFamily(ksp, t1, r));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(KSPBlockMultSolution_BiCGStabFamily(ksp, bs, bk->prodout[0])); /* A x_0 */
  for (PetscInt s = 0; s < bs->na; s++) {
    const CAKrylovVecUpdate u[] = {
      {.y = w[y], .a = {1.0, -1.0}, .x = {w[bk->nblocks + 1], w[bk->prodout[0]]}}
    }; /* b - A x_0 */

    PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, 1, u, 0, NULL, NULL, NULL));
  }
  if (bs->left) PetscCall(KSPBlockPCApply_BiCGStabFamily(ksp, t1, r));
  if (ksp->normtype != KSP_NORM_NONE && !(cctx && cctx->initialrtol)) {
    const PetscBool pb = bs->left && ksp->normtype == KSP_NORM_PRECONDITIONED ? PETSC_TRUE : PETSC_FALSE;

    if (pb) { /* M^{-1} b into t1, through a copy of b in t2 (B's column layout, as above) */
      PetscCall(KSPBlockCopyRHS(ksp, bs, t2));
      PetscCall(KSPBlockPCApply_BiCGStabFamily(ksp, t2, t1));
    }
    for (PetscInt s = 0; s < bs->na; s++) {
      const Vec v = pb ? w[t1] : w[bk->nblocks + 1];

      PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, 0, NULL, 1, &v, &v, &bk->dots[s]));
    }
    PetscCall(KSPBlockReduce_BiCGStabFamily(ksp, bs, bs->na, bk->dots));
    for (PetscInt s = 0; s < bs->na; s++) bk->bnorm[s] = PetscSqrtReal(PetscAbsScalar(bk->dots[s]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The test of iteration 0 of the column in slot s with rr = (r_0, r_0) summed, as KSPInitialTest_BiCGStabFamily(): NaN ends
   it, r_0 = 0 exactly converges; the block's monitor norm */
PetscErrorCode KSPBlockInitialTest_BiCGStabFamily(KSP ksp, KSP_BiCGStabBlockSolve *bs, PetscInt s, PetscScalar rr)
{
  KSP_BiCGStabBlock *bk    = &((KSP_BiCGStabFamily *)ksp->data)->block;
  const PetscInt     col   = bk->slot2col[s];
  const PetscReal    rnorm = PetscSqrtReal(PetscAbsScalar(rr));

  PetscFunctionBegin;
  if (PetscIsInfOrNanReal(rnorm)) bk->reason[col] = KSP_DIVERGED_NANORINF;
  else {
    PetscCall(KSPBlockColumnTest_BiCGStabFamily(ksp, col, 0, ksp->normtype != KSP_NORM_NONE ? rnorm : 0.0));
    if (!bk->reason[col] && rr == 0.0) bk->reason[col] = KSP_CONVERGED_ATOL;
    if (ksp->normtype != KSP_NORM_NONE) KSPBlockMonitorNorm(bs, col, rnorm);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The test of iteration bs->k of the live column in slot s with rr = (r, r) summed (||r|| exact), as KSPNormTest_BiCGStabFamily() */
PetscErrorCode KSPBlockNormTest_BiCGStabFamily(KSP ksp, KSP_BiCGStabBlockSolve *bs, PetscInt s, PetscScalar rr)
{
  KSP_BiCGStabBlock *bk    = &((KSP_BiCGStabFamily *)ksp->data)->block;
  const PetscInt     col   = bk->slot2col[s];
  const PetscReal    rnorm = PetscSqrtReal(PetscAbsScalar(rr));

  PetscFunctionBegin;
  bk->its[col] = bs->k;
  PetscCall(KSPBlockColumnTest_BiCGStabFamily(ksp, col, bs->k, ksp->normtype != KSP_NORM_NONE ? rnorm : 0.0));
  if (ksp->normtype != KSP_NORM_NONE) KSPBlockMonitorNorm(bs, col, rnorm);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* omega = (t, s) / (t, t) of the live column in slot s from d = [(t, s), (t, t), (s, s)] summed, or the column ends at the
   half step x + alpha p^ (p^ in block ph), as CAKrylovBiCGStabOmega() for one system: t = 0 with s = 0 converged, with s != 0
   a breakdown; omega = 0 converged if ||s|| passes the test, a breakdown otherwise; omega NaN/Inf keeps the half step */
PetscErrorCode KSPBlockOmega_BiCGStabFamily(KSP ksp, KSP_BiCGStabBlockSolve *bs, PetscInt s, const PetscScalar d[3], PetscInt ph)
{
  KSP_BiCGStabBlock *bk    = &((KSP_BiCGStabFamily *)ksp->data)->block;
  const PetscInt     col   = bk->slot2col[s];
  PetscBool          half  = PETSC_FALSE, bad; /* half: the column ends at the half step x + alpha p^ */
  PetscReal          hnorm = 0.0;

  PetscFunctionBegin;
  PetscCall(KSPBlockCheckCoefficient_BiCGStabFamily(ksp, s, d[0], PETSC_FALSE, "(t, s)", &bad));
  if (!bad) PetscCall(KSPBlockCheckCoefficient_BiCGStabFamily(ksp, s, d[1], PETSC_FALSE, "(t, t)", &bad));
  if (bad) PetscFunctionReturn(PETSC_SUCCESS);
  if (d[1] == 0.0) { /* t = 0: s = 0 solved the system at the half step, s != 0 is a breakdown */
    if (d[2] != 0.0) {
      KSPBlockEndColumn_BiCGStabFamily(ksp, s, KSP_DIVERGED_BREAKDOWN);
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    half = PETSC_TRUE;
  } else {
    bk->omega[col] = d[0] / d[1];
    if (bk->omega[col] == 0.0) { /* s orthogonal to A s: converged if the half step's residual ||s|| passes */
      half  = PETSC_TRUE;
      hnorm = ksp->normtype != KSP_NORM_NONE ? PetscSqrtReal(PetscAbsScalar(d[2])) : 0.0;
    } else {
      PetscCall(KSPBlockCheckCoefficient_BiCGStabFamily(ksp, s, bk->omega[col], PETSC_FALSE, "omega", &half)); /* NaN/Inf: keep the half step */
    }
  }
  if (half) {
    const CAKrylovVecUpdate u[] = {
      {.y = bk->wrap[bk->nblocks], .b = 1.0, .a = {bk->alpha[col]}, .x = {bk->wrap[ph]}}
    }; /* x += alpha p^ */

    PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, 1, u, 0, NULL, NULL, NULL));
    if (bk->reason[col]) PetscFunctionReturn(PETSC_SUCCESS); /* omega NaN/Inf: the half step is kept, the column has its reason */
    bk->its[col] = bs->k + 1;
    bk->live[s]  = PETSC_FALSE;
    PetscCall(KSPBlockColumnTest_BiCGStabFamily(ksp, col, bs->k + 1, hnorm));
    KSPBlockMonitorNorm(bs, col, hnorm);
    if (d[1] == 0.0 && !bk->reason[col]) bk->reason[col] = KSP_CONVERGED_ATOL;
    if (d[1] != 0.0 && (!bk->reason[col] || bk->reason[col] == KSP_DIVERGED_ITS)) bk->reason[col] = KSP_DIVERGED_BREAKDOWN;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The -ksp_view lines of the block path: nred reductions per iteration for the block, hidden behind `hidden` (NULL: blocking) */
PetscErrorCode KSPViewBlock_BiCGStabFamily(KSP ksp, PetscViewer viewer, PetscInt nred, const char hidden[])
{
  KSP_BiCGStabBlock *bk = &((KSP_BiCGStabFamily *)ksp->data)->block;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "  KSPMatSolve(): m columns advanced together, one operator pass per SpMV of the iteration and %" PetscInt_FMT " %sreductions per iteration for the block%s%s\n", nred, hidden ? "non-blocking " : "", hidden ? ", each hidden behind " : "", hidden ? hidden : ""));
  if (bk->layout != CAKRYLOV_MATSOLVE_LAYOUT_AUTO) PetscCall(PetscViewerASCIIPrintf(viewer, "  KSPMatSolve() layout: %s\n", CAKrylovMatSolveLayouts[bk->layout]));
  else if (!bk->measured)
    PetscCall(
      PetscViewerASCIIPrintf(viewer, "  KSPMatSolve() layout: auto (for more than one column with the identity preconditioner or PCJACOBI the faster of interleaved and dense, measured at the first block solve of the operator; dense otherwise)\n"));
  else {
    const PetscReal *t = bk->ameasTime;

    PetscCall(PetscViewerASCIIPrintf(viewer, "  KSPMatSolve() layout: auto, for %" PetscInt_FMT " columns of this operator %s: measured per iteration (2 SpMVs + 4 fused passes, slowest rank) interleaved 2 x %.3g + 4 x %.3g ms, dense 2 x %.3g + 4 x %.3g ms\n", bk->ameasm, bk->ameasInterleaved ? "interleaved" : "dense", (double)(1e3 * t[0]), (double)(1e3 * t[1]), (double)(1e3 * t[2]), (double)(1e3 * t[3])));
  }
  if (bk->nmatsolves)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  last KSPMatSolve() block: %" PetscInt_FMT " columns %s, %" PetscInt_FMT " iterations, %" PetscInt_FMT " global reductions\n", bk->last_m, bk->last_block ? (bk->interleaved ? "together, interleaved" : "together, dense") : "column by column", bk->last_its, bk->last_reductions));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CAKrylovKSPGetMatSolveConvergedReasons_BiCGStabFamily(KSP ksp, PetscInt *m, const KSPConvergedReason *reasons[], const PetscInt *its[])
{
  KSP_BiCGStabBlock *bk  = &((KSP_BiCGStabFamily *)ksp->data)->block;
  const PetscBool    any = bk->nmatsolves && bk->mcol ? PETSC_TRUE : PETSC_FALSE; /* KSPReset() frees them */

  PetscFunctionBegin;
  if (m) *m = any ? bk->last_m : 0;
  if (reasons) *reasons = any ? bk->reason : NULL;
  if (its) *its = any ? bk->its : NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CAKrylovKSPSetMatSolveLayout_BiCGStabFamily(KSP ksp, CAKrylovMatSolveLayout layout)
{
  PetscFunctionBegin;
  ((KSP_BiCGStabFamily *)ksp->data)->block.layout = layout;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CAKrylovKSPGetMatSolveLayout_BiCGStabFamily(KSP ksp, CAKrylovMatSolveLayout *layout)
{
  PetscFunctionBegin;
  *layout = ((KSP_BiCGStabFamily *)ksp->data)->block.layout;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Composes (on) or removes the KSPMatSolve() methods of a type with a block solver */
PetscErrorCode KSPComposeMatSolve_BiCGStabFamily(KSP ksp, PetscBool on)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "CAKrylovKSPGetMatSolveConvergedReasons_C", on ? CAKrylovKSPGetMatSolveConvergedReasons_BiCGStabFamily : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "CAKrylovKSPSetMatSolveLayout_C", on ? CAKrylovKSPSetMatSolveLayout_BiCGStabFamily : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "CAKrylovKSPGetMatSolveLayout_C", on ? CAKrylovKSPGetMatSolveLayout_BiCGStabFamily : NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -ksp_<type>_matsolve_layout (inside the type's options head) */
PetscErrorCode KSPSetFromOptionsMatSolve_BiCGStabFamily(KSP ksp, CAKrylovOptionItems PetscOptionsObject)
{
  KSP_BiCGStabBlock *bk = &((KSP_BiCGStabFamily *)ksp->data)->block;
  char               opt[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-ksp_%s_matsolve_layout", ((PetscObject)ksp)->type_name));
  PetscCall(PetscOptionsEnum(opt, "Layout of the columns of KSPMatSolve()'s block solve", "CAKrylovKSPSetMatSolveLayout", CAKrylovMatSolveLayouts, (PetscEnum)bk->layout, (PetscEnum *)&bk->layout, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  CAKrylovKSPSetMatSolveLayout - how the block solver of `KSPMatSolve()` of a cakrylov `KSP` stores its columns

  Logically Collective

  Input Parameters:
+ ksp    - the `KSP` (`KSPBCGSM`, `KSPPIPEBCGSM`, `KSPRBICGSTAB`; ignored for other types)
- layout - `CAKRYLOV_MATSOLVE_LAYOUT_AUTO` (default), `CAKRYLOV_MATSOLVE_LAYOUT_DENSE` or `CAKRYLOV_MATSOLVE_LAYOUT_INTERLEAVED`

  Options Database Key:
. -ksp_<type>_matsolve_layout <auto,dense,interleaved> - the layout

  Level: intermediate

  Notes:
  The interleaved layout stores the m values of a row side by side and applies the operator in one pass over the matrix
  for all columns (the library's own SpMV on the AIJ arrays, vectorised across the columns, with per column the bits of
  `MatMult()` of `MatCreateMAIJ()`). The dense layout applies it as one AIJ x dense `MatProductNumeric()`, which PETSc
  runs as one pass over the matrix per 4 columns, and reads x from 4 column streams. The interleaved layout applies the
  preconditioner itself and so takes only the identity or `PCJACOBI` (an error otherwise). auto takes, for those with
  more than one column, the layout measured the faster on this machine for this operator: at the first block solve of
  an operator (again when its nonzero state or the number of columns changes) one SpMV and one fused vector pass are
  timed in each layout on 4 scratch blocks (slowest rank, one reduction, inside that `KSPMatSolve()`), and the layout
  with the smaller 2 SpMVs + 4 passes wins; `-ksp_view` shows the choice and the times. One column, and every other
  preconditioner (with `PCMatApply()`), take the dense layout. The layout changes the order of no operation of a
  column's iteration except inside the operator's product, so both give each column the iteration of its `KSPSolve()`
  up to the rounding of the product; auto's result is bitwise that of the layout it chose.

.seealso: `CAKrylovMatSolveLayout`, `CAKrylovKSPGetMatSolveLayout()`, `KSPMatSolve()`, `MatCreateMAIJ()`
@*/
PetscErrorCode CAKrylovKSPSetMatSolveLayout(KSP ksp, CAKrylovMatSolveLayout layout)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(ksp, layout, 2);
  PetscTryMethod(ksp, "CAKrylovKSPSetMatSolveLayout_C", (KSP, CAKrylovMatSolveLayout), (ksp, layout));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  CAKrylovKSPGetMatSolveLayout - the layout asked for the block solver of `KSPMatSolve()`

  Not Collective

  Input Parameter:
. ksp - the `KSP` (`KSPBCGSM`, `KSPPIPEBCGSM`, `KSPRBICGSTAB`, `KSPCABICGSTAB`)

  Output Parameter:
. layout - the layout

  Level: intermediate

.seealso: `CAKrylovKSPSetMatSolveLayout()`, `CAKrylovMatSolveLayout`
@*/
PetscErrorCode CAKrylovKSPGetMatSolveLayout(KSP ksp, CAKrylovMatSolveLayout *layout)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscUseMethod(ksp, "CAKrylovKSPGetMatSolveLayout_C", (KSP, CAKrylovMatSolveLayout *), (ksp, layout));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  CAKrylovKSPGetMatSolveConvergedReasons - how each column of the last `KSPMatSolve()` (its last batch) of a cakrylov
  `KSP` ended, and its iteration count

  Not Collective

  Input Parameter:
. ksp - the `KSP` (`KSPBCGSM`, `KSPPIPEBCGSM`, `KSPRBICGSTAB`, `KSPCABICGSTAB`)

  Output Parameters:
+ m       - the number of columns (0 before the first `KSPMatSolve()`)
. reasons - the converged reason of each column (owned by the `KSP`, valid until its next `KSPMatSolve()`, `KSPReset()` or `KSPDestroy()`)
- its     - the iterations of each column (same ownership)

  Level: intermediate

  Notes:
  `KSPGetConvergedReason()` after `KSPMatSolve()` gives one reason for the block: that of the first column that failed,
  or, when all converged, that of the column that took the most iterations; `KSPGetIterationNumber()` gives the largest
  column iteration count. With `-ksp_matsolve_batch_size` smaller than the number of columns, PETSc solves the batches
  one after the other and these arrays describe the last batch. Any output may be `NULL`. Errors on types without a
  block solver.

.seealso: `KSPMatSolve()`, `KSPBCGSM`, `KSPPIPEBCGSM`, `KSPRBICGSTAB`, `KSPCABICGSTAB`, `KSPGetConvergedReason()`, `KSPSetMatSolveBatchSize()`
@*/
PetscErrorCode CAKrylovKSPGetMatSolveConvergedReasons(KSP ksp, PetscInt *m, const KSPConvergedReason *reasons[], const PetscInt *its[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscUseMethod(ksp, "CAKrylovKSPGetMatSolveConvergedReasons_C", (KSP, PetscInt *, const KSPConvergedReason *[], const PetscInt *[]), (ksp, m, reasons, its));
  PetscFunctionReturn(PETSC_SUCCESS);
}
