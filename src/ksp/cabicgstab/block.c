/*
   KSPMatSolve() of KSPCABICGSTAB: m s-step BiCGStab solves advanced together, with ONE global reduction per outer
   iteration for all of them, the least any BiCGStab can issue for m systems.

   Each column j is a solve of its own, run by a column solver (a KSPCABICGSTAB on this KSP's PC, made at the first block
   solve and kept): its own s_k (telescoping, adaptive s), coordinates, residual replacement, convergence-claim check,
   iteration count and reason, through the phases of the single solve (cabicgstab.c). A block solve runs those phases
   in rounds, one outer iteration of every live column per round:

     p, r into the bases (KSPCABiCGStabOuterPrepare())
     P_j, R_j of every live column, power by power (KSPCABiCGStabBlockBuildBases()): the columns that apply the operator
       to the same basis index form runs, and a run of c >= 2 columns is one dense product (a MATSEQAIJ of moderate
       band: the library's one pass over the matrix for all c columns, CAKrylovMatMultColumns(), which takes the
       power of P_j and of R_j together, 2c columns: one halo message per neighbour and power for both bases; else
       PETSc's AIJ x dense, one pass per 4 columns; PCMatApply() for the preconditioner)
     [g_j, G_j] = [P_j, R_j]^T [rt_j, P_j, R_j], local Gram matrices (CAKrylovGram()) packed side by side, and ONE MPI_Allreduce for all
     the s_k inner iterations and the rebuild of p, r, dx of every live column (KSPCABiCGStabOuterIterate()), and
       x_j += M^{-1} dx_j with one PCMatApply() per run of columns (dx_j side by side, as the bases)

   The bases of all columns live in one array, interleaved by basis vector: vector i of column j at (i M + j) ld (M the
   most columns it was made for), so that vector i of a run of columns is one dense nloc x c block (lda ld) and each
   column's own basis is a dense block with lda M ld, on which its Gram GEMM and rebuild run as in its single solve;
   the same for [p, r, dx]. With right preconditioning the block applies the preconditioner only to blocks
   (PCMatApply()), never column by column; with left preconditioning the initial residual and a checked claim apply
   it per column. One spectrum estimate (Newton,
   Chebyshev bases) serves all columns: the operator is the same. A column that ends builds no more bases.

   A column's convergence test is KSPConvergedDefault()'s (CAKrylovKSPColumnTest()), with ||b_j|| of a nonzero initial
   guess taken for all columns in one reduction. A column whose convergence claim is checked against b - A x costs
   that check's reduction, as in its single solve. A block of one column with the identity preconditioner applies the
   operator as KSPSolve() does (MatMult()): KSPSolve()'s iteration bit for bit. In a block of more columns a column
   that runs alone is a product of one column too: on more than one rank MatMult() sums a row in another order than
   the AIJ x dense product (the off-diagonal block's entries one by one onto the diagonal block's sum, or their own sum
   added), and the product computes each column alone, so a column's bits do not depend on which of its neighbours
   have converged, and the one pass (which spans converged columns) and PETSc's product give the same bits.
*/
#include "cabicgstabimpl.h"
#include <petsc/private/pcimpl.h> /* PC_MatApply: the library's PCJACOBI on blocks is logged as PETSc logs PCMatApply() */

/* The default test of one column, with its reference norm and tolerance (CAKrylovKSPColumnTest()) */
typedef struct {
  KSP       ksp; /* the KSP of KSPMatSolve(): its tolerances and default-test options */
  PetscInt  col;
  PetscReal bnorm, rnorm0, ttol;
} KSPCABiCGStabColumnTest;

struct KSP_CABiCGStabBlock {
  PetscInt                 m;          /* columns of the present block solve (a batch of -ksp_matsolve_batch_size) */
  PetscInt                 mcap, s;    /* the column solvers and the arrays below are for mcap >= m columns, the bases for s */
  PetscInt                 nloc, N;    /* the vectors' local and global lengths */
  PetscBLASInt             ld;         /* nloc rounded up to a multiple of 8: each column of V and W starts on a cache line */
  KSP                     *col;        /* the column solvers */
  KSPCABiCGStabOuter      *o;          /* per column: its outer iteration */
  KSPCABiCGStabColumnTest *test;       /* per column: its convergence test */
  PetscBool               *live, *sel; /* per column: still iterating; taking part in this step */
  PetscScalar             *V;          /* the columns' bases: vector i of column j at (i mcap + j) ld, V on a 64-byte boundary */
  PetscScalar             *Vmem;       /* ... in this allocation */
  PetscScalar             *W;          /* the columns' [p, r, dx]: the same */
  PetscScalar             *Z;          /* nloc x mcap (lda ld): M^{-1} X (right preconditioning) or A X (left) of a run */
  PetscScalar             *buf;        /* the packed Gram matrices of the columns of one reduction */
  Vec                     *b, *x;      /* per column: B's and X's column (VecPlaceArray()) */
  PetscScalar             *scale;      /* per column of a run: the scaling its one-pass product applies (1: none) */
  Mat                     *Xv, *Yv;    /* per run length c (1 <= c <= m): dense views of a run's basis vectors i and i + 1 */
  Mat                     *Zv;         /* ... and nloc x c over Z */
  KSPCABiCGStabPairMode    mode;       /* what the products of the views were made for */
  PetscObjectId            amat_id;    /* ... with which matrix (id, nonzero pattern) */
  PetscObjectState         amat_nz;
  CAKrylovMatColumns       plan;      /* the library's one-pass product of the operator (AIJ; NULL: PETSc's product) */
  PetscBool                plan_made; /* ... made for the operator of this id and nonzero pattern */
  PetscObjectId            plan_id;
  PetscObjectState         plan_nz;
  PetscInt                 plan_window; /* ... and window bytes */
  PetscInt                 gap_max;     /* ... and the most converged columns a run spans (KSPCABiCGStabBlockRun()) */
  PetscBool                batch;       /* this solve applies the operator to runs of columns as products (not to one column with the identity PC) */
  PetscBool                jacobi;      /* ... with PCJACOBI, applied to runs by the library (its diagonal:) */
  CAKrylovJacobi           jacobi_d;
  KSPConvergedReason      *reason;     /* per column of the last block solve: how it ended */
  PetscInt                *its;        /* ... and its iterations */
  PetscInt                 nmatsolves; /* block solves (a batch of -ksp_matsolve_batch_size counts one) */
  PetscInt                 last_m, last_its, last_rounds, last_reductions, last_products;
  PetscBool                last_block;    /* the last KSPMatSolve() ran as a block (else a KSPSolve() per column) */
  PetscBool                last_one_pass; /* ... its products were CAKrylovMatMultColumns()'s */
};

/* The column's default test: CAKrylovKSPColumnTest() with the KSP of KSPMatSolve()'s settings */
static PetscErrorCode KSPCABiCGStabColumnConverged(KSP col, PetscInt n, PetscReal rnorm, KSPConvergedReason *reason, void *ctx)
{
  KSPCABiCGStabColumnTest *t = (KSPCABiCGStabColumnTest *)ctx;

  PetscFunctionBegin;
  (void)col;
  PetscCall(CAKrylovKSPColumnTest(t->ksp, t->col, n, rnorm, t->bnorm, &t->rnorm0, &t->ttol, reason));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabBlockDestroyViews(KSP_CABiCGStabBlock *bk)
{
  PetscFunctionBegin;
  for (PetscInt c = 0; bk->Xv && c <= bk->mcap; c++) {
    PetscCall(MatDestroy(&bk->Xv[c]));
    PetscCall(MatDestroy(&bk->Yv[c]));
    PetscCall(MatDestroy(&bk->Zv[c]));
  }
  bk->mode = KSPCABICGSTAB_PAIR_NONE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Frees the bases (and the views on them) */
static PetscErrorCode KSPCABiCGStabBlockFreeBases(KSP_CABiCGStabBlock *bk)
{
  PetscFunctionBegin;
  PetscCall(KSPCABiCGStabBlockDestroyViews(bk));
  PetscCall(PetscFree4(bk->Vmem, bk->W, bk->Z, bk->buf));
  bk->s = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Frees the column solvers, the bases and the per-column arrays */
static PetscErrorCode KSPCABiCGStabBlockFree(KSP_CABiCGStabBlock *bk)
{
  PetscFunctionBegin;
  PetscCall(KSPCABiCGStabBlockFreeBases(bk));
  PetscCall(CAKrylovMatColumnsDestroy(&bk->plan));
  PetscCall(VecDestroy(&bk->jacobi_d.d));
  bk->plan_made = PETSC_FALSE;
  for (PetscInt j = 0; j < bk->mcap; j++) {
    PetscCall(KSPDestroy(&bk->col[j]));
    PetscCall(VecDestroy(&bk->b[j]));
    PetscCall(VecDestroy(&bk->x[j]));
  }
  PetscCall(PetscFree6(bk->col, bk->o, bk->test, bk->live, bk->sel, bk->reason));
  PetscCall(PetscFree4(bk->b, bk->x, bk->its, bk->scale));
  PetscCall(PetscFree3(bk->Xv, bk->Yv, bk->Zv));
  bk->m = bk->mcap = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KSPReset(), KSPDestroy() */
PetscErrorCode KSPDestroyBlock_CABiCGStab(KSP ksp)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;

  PetscFunctionBegin;
  if (!cab->block) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPCABiCGStabBlockFree(cab->block));
  PetscCall(PetscFree(cab->block));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The column solvers and per-column arrays for mcap = m columns of the present local length */
static PetscErrorCode KSPCABiCGStabBlockColumns(KSP ksp, PetscInt m)
{
  KSP_CABiCGStab      *cab = (KSP_CABiCGStab *)ksp->data;
  KSP_CABiCGStabBlock *bk  = cab->block;

  PetscFunctionBegin;
  PetscCall(KSPCABiCGStabBlockFree(bk));
  bk->mcap = m;
  bk->nloc = cab->nloc;
  PetscCall(PetscBLASIntCast((PetscMax(bk->nloc, 1) + 7) / 8 * 8, &bk->ld));
  PetscCheck((size_t)m * bk->ld <= PETSC_BLAS_INT_MAX, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSPMatSolve() of KSPCABICGSTAB: %" PetscInt_FMT " columns of %" PetscInt_FMT " local rows exceed the BLAS integer; use -ksp_matsolve_batch_size", m, bk->nloc);
  PetscCall(VecGetSize(cab->t, &bk->N));
  PetscCall(PetscCalloc6(m, &bk->col, m, &bk->o, m, &bk->test, m, &bk->live, m, &bk->sel, m, &bk->reason));
  PetscCall(PetscCalloc4(m, &bk->b, m, &bk->x, m, &bk->its, m, &bk->scale));
  PetscCall(PetscCalloc3(m + 1, &bk->Xv, m + 1, &bk->Yv, m + 1, &bk->Zv));
  for (PetscInt j = 0; j < m; j++) {
    PetscCall(KSPCreate(PetscObjectComm((PetscObject)ksp), &bk->col[j]));
    PetscCall(PetscObjectIncrementTabLevel((PetscObject)bk->col[j], (PetscObject)ksp, 1));
    PetscCall(KSPSetType(bk->col[j], KSPCABICGSTAB));
    PetscCall(KSPSetPC(bk->col[j], ksp->pc));
    ((KSP_CABiCGStab *)bk->col[j]->data)->V_shared   = PETSC_TRUE; /* column j of the shared bases (KSPCABiCGStabBlockBases()) */
    ((KSP_CABiCGStab *)bk->col[j]->data)->mono_scale = cab->mono_scale;
    PetscCall(CAKrylovVecCreateOnLayoutWithArray(cab->t, NULL, &bk->b[j]));
    PetscCall(CAKrylovVecCreateOnLayoutWithArray(cab->t, NULL, &bk->x[j]));
    PetscCall(KSPSetConvergenceTest(bk->col[j], KSPCABiCGStabColumnConverged, &bk->test[j], NULL));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The bases of the mcap columns at s, interleaved by basis vector; column j's solver sees its own in them (a new s keeps
   the column solvers, the one-pass plan and its halo: only the bases and the views on them are made anew) */
static PetscErrorCode KSPCABiCGStabBlockBases(KSP ksp)
{
  KSP_CABiCGStab      *cab = (KSP_CABiCGStab *)ksp->data;
  KSP_CABiCGStabBlock *bk  = cab->block;
  const PetscInt       s = cab->s, nb = 4 * s + 1, m = bk->mcap;

  PetscFunctionBegin;
  PetscCall(KSPCABiCGStabBlockFreeBases(bk));
  PetscCall(PetscCalloc4((size_t)bk->ld * m * (4 * s + 2) + 8, &bk->Vmem, (size_t)bk->ld * m * 3, &bk->W, (size_t)bk->ld * m, &bk->Z, (size_t)m * nb * (nb + 1), &bk->buf));
  bk->V = CAKrylovAlign64(bk->Vmem); /* the one-pass product's streaming stores need whole cache lines; zeros: a run that
                                        spans a converged column multiplies its vectors, which need not have been written */
  CAKrylovAdviseHugePages(bk->Vmem, ((size_t)bk->ld * m * (4 * s + 2) + 8) * sizeof(PetscScalar));
  CAKrylovAdviseHugePages(bk->W, (size_t)bk->ld * m * 3 * sizeof(PetscScalar));
  for (PetscInt j = 0; j < m; j++) {
    KSP_CABiCGStab *cc = (KSP_CABiCGStab *)bk->col[j]->data;

    cc->V   = bk->V + (size_t)j * bk->ld; /* its storage made anew at its next KSPCABiCGStabAllocate() (its s changes too) */
    cc->W   = bk->W + (size_t)j * bk->ld;
    cc->ldv = cc->ldw = (PetscBLASInt)(m * bk->ld);
  }
  bk->s = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The column solvers and arrays for m columns (kept for at most as many columns of the same local length), the bases
   for s (kept for s up to theirs) */
static PetscErrorCode KSPCABiCGStabBlockSetUp(KSP ksp, PetscInt m)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;

  PetscFunctionBegin;
  if (!cab->block) PetscCall(PetscNew(&cab->block));
  if (m > cab->block->mcap || cab->block->nloc != cab->nloc) PetscCall(KSPCABiCGStabBlockColumns(ksp, m));
  if (cab->block->s < cab->s) PetscCall(KSPCABiCGStabBlockBases(ksp)); /* kept for a smaller s (KSPCABiCGStabAllocate()) */
  cab->block->m = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Column j's solver gets this KSP's settings and the columns j of B and X */
static PetscErrorCode KSPCABiCGStabBlockColumnBegin(KSP ksp, PetscInt j, const PetscScalar *b, PetscScalar *x)
{
  KSP_CABiCGStab      *cab = (KSP_CABiCGStab *)ksp->data;
  KSP_CABiCGStabBlock *bk  = cab->block;
  KSP                  col = bk->col[j];
  KSP_CABiCGStab      *cc  = (KSP_CABiCGStab *)col->data;

  PetscFunctionBegin;
  if (col->pc != ksp->pc) PetscCall(KSPSetPC(col, ksp->pc)); /* KSPSetPC() on this KSP since the column solver was made */
  cc->s               = cab->s;
  cc->basis           = cab->basis;
  cc->telescope       = cab->telescope;
  cc->symmetric       = cab->symmetric;
  cc->replacement     = cab->replacement;
  cc->replacement_set = cab->replacement_set;
  cc->adaptive        = cab->adaptive;
  cc->paired          = PETSC_FALSE;                  /* the block builds its bases by runs of columns */
  cc->stats           = (KSPCABiCGStabStatistics){0}; /* this block solve's */
  PetscCall(KSPCABiCGStabCopyBasis(ksp, col));
  col->pc_side    = ksp->pc_side;
  col->normtype   = ksp->normtype;
  col->guess_zero = ksp->guess_zero;
  col->rtol       = ksp->rtol;
  col->abstol     = ksp->abstol;
  col->divtol     = ksp->divtol;
  col->max_it     = ksp->max_it;
  col->chknorm    = ksp->chknorm;
  col->reason     = KSP_CONVERGED_ITERATING;
  PetscCall(VecPlaceArray(bk->b[j], b));
  PetscCall(VecPlaceArray(bk->x[j], x));
  col->vec_rhs = bk->b[j]; /* borrowed for the solve: KSPCABiCGStabBlockColumnEnd() takes them back */
  col->vec_sol = bk->x[j];
  bk->test[j]  = (KSPCABiCGStabColumnTest){.ksp = ksp, .col = j};
  PetscCall(KSPCABiCGStabAllocate(col));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabBlockColumnEnd(KSP_CABiCGStabBlock *bk, PetscInt j)
{
  PetscFunctionBegin;
  bk->col[j]->vec_rhs = NULL;
  bk->col[j]->vec_sol = NULL;
  PetscCall(VecResetArray(bk->b[j]));
  PetscCall(VecResetArray(bk->x[j]));
  bk->reason[j] = bk->col[j]->reason;
  bk->its[j]    = bk->col[j]->its;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||b_j|| (||M^{-1} b_j|| for the preconditioned norm) of every column in one reduction: the reference of the default
   test with a nonzero initial guess */
static PetscErrorCode KSPCABiCGStabBlockRHSNorms(KSP ksp, PetscInt *nred)
{
  KSP_CABiCGStab         *cab  = (KSP_CABiCGStab *)ksp->data;
  KSP_CABiCGStabBlock    *bk   = cab->block;
  KSPConvergedDefaultCtx *cctx = (KSPConvergedDefaultCtx *)ksp->cnvP;
  const PetscBool         pb   = ksp->pc_side == PC_LEFT && ksp->normtype == KSP_NORM_PRECONDITIONED ? PETSC_TRUE : PETSC_FALSE;

  PetscFunctionBegin;
  if (ksp->guess_zero || ksp->normtype == KSP_NORM_NONE || (cctx && cctx->initialrtol)) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt j = 0; j < bk->m; j++) {
    Vec v = bk->b[j];

    if (pb) {
      v = ((KSP_CABiCGStab *)bk->col[j]->data)->Wcol[2]; /* free before the solve */
      PetscCall(KSP_PCApply(bk->col[j], bk->b[j], v));
    }
    PetscCall(VecNormBegin(v, NORM_2, &bk->test[j].bnorm));
  }
  for (PetscInt j = 0; j < bk->m; j++) PetscCall(VecNormEnd(pb ? ((KSP_CABiCGStab *)bk->col[j]->data)->Wcol[2] : bk->b[j], NORM_2, &bk->test[j].bnorm));
  (*nred)++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The dense views and products for runs of c columns: Y = A X (identity PC), Y = A Z with Z = M^{-1} X (right), Z = A X
   with Y = M^{-1} Z (left); made when first needed and kept while the operator's nonzero pattern and the mode stay */
static PetscErrorCode KSPCABiCGStabBlockViews(KSP ksp, PetscInt c)
{
  KSP_CABiCGStab             *cab  = (KSP_CABiCGStab *)ksp->data;
  KSP_CABiCGStabBlock        *bk   = cab->block;
  const KSPCABiCGStabPairMode mode = cab->identity_pc ? KSPCABICGSTAB_PAIR_A : (ksp->pc_side == PC_RIGHT ? KSPCABICGSTAB_PAIR_A_MINV : KSPCABICGSTAB_PAIR_MINV_A);
  Mat                         A;
  PetscLayout                 rows;
  PetscObjectId               id;
  PetscObjectState            nz;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  PetscCall(PetscObjectGetId((PetscObject)A, &id));
  PetscCall(MatGetNonzeroState(A, &nz));
  if (bk->mode != KSPCABICGSTAB_PAIR_NONE && (bk->mode != mode || bk->amat_id != id || bk->amat_nz != nz)) PetscCall(KSPCABiCGStabBlockDestroyViews(bk));
  if (bk->Yv[c]) PetscFunctionReturn(PETSC_SUCCESS);
  bk->mode    = mode;
  bk->amat_id = id;
  bk->amat_nz = nz;
  PetscCall(MatGetLayouts(A, &rows, NULL)); /* views made as columns converge, inside a solve: no communication */
  PetscCall(CAKrylovMatCreateDense(rows, c, bk->V, bk->ld, &bk->Xv[c]));
  PetscCall(CAKrylovMatCreateDense(rows, c, bk->V, bk->ld, &bk->Yv[c]));
  if (mode != KSPCABICGSTAB_PAIR_A) PetscCall(CAKrylovMatCreateDense(rows, c, bk->Z, bk->ld, &bk->Zv[c])); /* one block Z for every c: a Z is read right after it is made */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's product P = A B of the views of c columns, made when first used (MatProductSymbolic() of MPIAIJ x MPIDENSE
   issues a reduction: the library's one-pass product needs none, so a solve that uses it makes none as its columns
   converge) */
static PetscErrorCode KSPCABiCGStabBlockPETScProduct(KSP ksp, PetscInt c, Mat P)
{
  KSP_CABiCGStabBlock *bk = ((KSP_CABiCGStab *)ksp->data)->block;
  Mat                  A;
  MatProductType       type;

  PetscFunctionBegin;
  PetscCall(MatProductGetType(P, &type));
  if (type == MATPRODUCT_UNSPECIFIED) {
    PetscCall(PCGetOperators(ksp->pc, &A, NULL));
    PetscCall(MatProductCreateWithMat(A, bk->mode == KSPCABICGSTAB_PAIR_A_MINV ? bk->Zv[c] : bk->Xv[c], NULL, P));
    PetscCall(MatProductSetType(P, MATPRODUCT_AB));
    PetscCall(MatProductSetFromOptions(P));
    PetscCall(MatProductSymbolic(P));
  }
  PetscCall(MatProductNumeric(P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The plan of the library's one-pass product for this solve's operator (CAKrylovMatColumnsCreate(): MATSEQAIJ, MATMPIAIJ
   with its halo), made before the solve (on more than one rank it communicates) and kept while the operator's nonzero
   pattern and -ksp_cabicgstab_one_pass_window stay; with it the most converged columns a run may span: g columns cost the
   product 16 g bytes per row (read x, write y), a second product reads A once more, 12 bytes per nonzero and 4 per row
   (and sends its halo again), so g <= (12 nz / n + 4) / 16 (5 for a 7-point operator, 20 for a 27-point one) */
static PetscErrorCode KSPCABiCGStabBlockPlan(KSP ksp)
{
  KSP_CABiCGStab      *cab = (KSP_CABiCGStab *)ksp->data;
  KSP_CABiCGStabBlock *bk  = cab->block;
  Mat                  A;
  PetscObjectId        id;
  PetscObjectState     nz;
  MatInfo              info;

  PetscFunctionBegin;
  if (!bk->batch || !cab->one_pass) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  PetscCall(PetscObjectGetId((PetscObject)A, &id));
  PetscCall(MatGetNonzeroState(A, &nz));
  if (bk->plan_made && bk->plan_id == id && bk->plan_nz == nz && bk->plan_window == cab->one_pass_window) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(CAKrylovMatColumnsDestroy(&bk->plan));
  PetscCall(CAKrylovMatColumnsCreate(A, 2 * bk->mcap, (size_t)cab->one_pass_window, &bk->plan)); /* P's and R's vectors of every column (KSPCABiCGStabBlockTwin()) */
  bk->gap_max = 0;
  if (bk->plan && bk->nloc) {                   /* an AIJ operator (a MATSHELL has no MatGetInfo()) */
    PetscCall(MatGetInfo(A, MAT_LOCAL, &info)); /* no communication */
    bk->gap_max = (PetscInt)((12.0 * info.nz_used / bk->nloc + 4.0) / 16.0);
  }
  bk->plan_made   = PETSC_TRUE;
  bk->plan_id     = id;
  bk->plan_nz     = nz;
  bk->plan_window = cab->one_pass_window;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Does this solve apply the operator with the library's one-pass product (a plan for the operator, and it is on)? */
static PetscBool KSPCABiCGStabBlockOnePass(KSP ksp)
{
  return ((KSP_CABiCGStab *)ksp->data)->block->plan && ((KSP_CABiCGStab *)ksp->data)->one_pass ? PETSC_TRUE : PETSC_FALSE;
}

/* The library's one-pass product (CAKrylovMatMultColumns()) of the operator with c columns of the arrays x, y (lda ld)
   in groups of cgrp columns ldg entries apart, times scale[j % cgrp] as stored (scale NULL: not), with PCJACOBI's
   diagonal applied to x's rows (jacobi PC_RIGHT) or y's (PC_LEFT) */
static PetscErrorCode KSPCABiCGStabBlockOnePassProduct(KSP ksp, PetscInt c, PetscInt cgrp, size_t ldg, const PetscScalar *x, PetscScalar *y, PetscInt ld, PCSide jacobi, const PetscScalar scale[])
{
  KSP_CABiCGStabBlock *bk = ((KSP_CABiCGStab *)ksp->data)->block;
  Mat                  A;
  const PetscScalar   *d = NULL;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  if (jacobi != PC_SIDE_DEFAULT) PetscCall(VecGetArrayRead(bk->jacobi_d.d, &d));
  PetscCall(CAKrylovMatMultColumns(bk->plan, A, c, cgrp, ldg, x, ld, jacobi == PC_RIGHT ? d : NULL, jacobi == PC_LEFT ? d : NULL, scale, y, ld));
  if (jacobi != PC_SIDE_DEFAULT) PetscCall(VecRestoreArrayRead(bk->jacobi_d.d, &d));
  bk->last_one_pass = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The product P = A B of the views of c columns (P = Yv[c] or Zv[c]): the library's one-pass product where the operator
   has a plan (KSPCABiCGStabBlockOnePassProduct()), which multiplies column j by scale[j] as it stores it (scale NULL:
   not), and applies PCJACOBI's diagonal to B's rows (right) or P's (left) where jacobi says so; else PETSc's MatProduct
   (KSPCABiCGStabBlockPETScProduct(); jacobi PC_SIDE_DEFAULT only) */
static PetscErrorCode KSPCABiCGStabBlockProduct(KSP ksp, Mat B, Mat P, PetscInt c, PCSide jacobi, const PetscScalar scale[], PetscBool *scaled)
{
  KSP_CABiCGStabBlock *bk = ((KSP_CABiCGStab *)ksp->data)->block;
  const PetscScalar   *b;
  PetscScalar         *p;
  const PetscBool      done = KSPCABiCGStabBlockOnePass(ksp);

  PetscFunctionBegin;
  if (done) {
    PetscCall(MatDenseGetArrayRead(B, &b));
    PetscCall(MatDenseGetArrayWrite(P, &p));
    PetscCall(KSPCABiCGStabBlockOnePassProduct(ksp, c, c, 0, b, p, bk->ld, jacobi, scale)); /* views of lda ld */
    PetscCall(MatDenseRestoreArrayWrite(P, &p));
    PetscCall(MatDenseRestoreArrayRead(B, &b));
  } else {
    PetscCall(KSPCABiCGStabBlockPETScProduct(ksp, c, P));
    bk->last_one_pass = PETSC_FALSE;
  }
  *scaled = (PetscBool)(done && scale);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Z = M^{-1} X for the c columns of dense views: PCMatApply(), or with PCJACOBI one loop, z_j = x_j .* d (d = M^{-1} 1,
   CAKrylovPCJacobiDiagonal()): the bits of its PCApply() on each column, without PETSc's PCMatApply() of PCJACOBI, which
   applies it column by column through a vector view each (a fifth of a bottom-sized block solve's basis time) */
static PetscErrorCode KSPCABiCGStabBlockPCApply(KSP ksp, Mat X, Mat Z)
{
  KSP_CABiCGStabBlock *bk = ((KSP_CABiCGStab *)ksp->data)->block;
  const PetscScalar   *x, *d;
  PetscScalar         *z;
  PetscInt             c, ldx, ldz;

  PetscFunctionBegin;
  if (!bk->jacobi) {
    PetscCall(PCMatApply(ksp->pc, X, Z));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(PC_MatApply, ksp->pc, X, Z, 0));
  PetscCall(MatGetSize(X, NULL, &c));
  PetscCall(MatDenseGetArrayRead(X, &x));
  PetscCall(MatDenseGetLDA(X, &ldx));
  PetscCall(MatDenseGetArrayWrite(Z, &z));
  PetscCall(MatDenseGetLDA(Z, &ldz));
  PetscCall(VecGetArrayRead(bk->jacobi_d.d, &d));
  for (PetscInt j = 0; j < c; j++)
    for (PetscInt i = 0; i < bk->nloc; i++) z[(size_t)j * ldz + i] = x[(size_t)j * ldx + i] * d[i]; /* VecPointwiseMult(z_j, x_j, d), as PCApply_Jacobi() */
  PetscCall(VecRestoreArrayRead(bk->jacobi_d.d, &d));
  PetscCall(MatDenseRestoreArrayWrite(Z, &z));
  PetscCall(MatDenseRestoreArrayRead(X, &x));
  PetscCall(PetscLogFlops((PetscLogDouble)c * bk->nloc));
  PetscCall(PetscLogEventEnd(PC_MatApply, ksp->pc, X, Z, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Basis vector i + 1 = Â (basis vector i) of the columns j0 .. j0 + c - 1, as one product, and where twin > 0 the vectors
   twin further on alike in the same product (P's power and R's: KSPCABiCGStabBlockTwin()); *scaled: times
   bk->scale[j - j0] (where the product is the operator's last step: its one pass stores the scaled result) */
static PetscErrorCode KSPCABiCGStabBlockApplyRun(KSP ksp, PetscInt i, PetscInt j0, PetscInt c, PetscInt twin, PetscBool *scaled)
{
  KSP_CABiCGStabBlock *bk = ((KSP_CABiCGStab *)ksp->data)->block;
  PetscScalar         *x = bk->V + ((size_t)i * bk->mcap + j0) * bk->ld, *y = x + (size_t)bk->mcap * bk->ld;
  Mat                  X, Y;

  PetscFunctionBegin;
  *scaled = PETSC_FALSE;
  PetscCall(KSPCABiCGStabBlockViews(ksp, c)); /* the mode of the products */
  if (twin) {                                 /* the one pass, with no preconditioner or PCJACOBI in it: 2c columns, groups twin basis vectors apart */
    const PCSide jacobi = bk->mode == KSPCABICGSTAB_PAIR_A ? PC_SIDE_DEFAULT : (bk->mode == KSPCABICGSTAB_PAIR_A_MINV ? PC_RIGHT : PC_LEFT);

    PetscCall(KSPCABiCGStabBlockOnePassProduct(ksp, 2 * c, c, (size_t)twin * bk->mcap * bk->ld, x, y, bk->ld, jacobi, bk->scale + j0));
    *scaled = PETSC_TRUE;
  } else {
    X = bk->Xv[c];
    Y = bk->Yv[c];
    PetscCall(MatDensePlaceArray(X, x));
    PetscCall(MatDensePlaceArray(Y, y));
    switch (bk->mode) {
    case KSPCABICGSTAB_PAIR_NONE:
      break;
    case KSPCABICGSTAB_PAIR_A: /* Y = A X */
      PetscCall(KSPCABiCGStabBlockProduct(ksp, X, Y, c, PC_SIDE_DEFAULT, bk->scale + j0, scaled));
      break;
    case KSPCABICGSTAB_PAIR_A_MINV: /* Y = A (M^{-1} X); PCJACOBI in the one pass: Y = A (D X) */
      if (bk->jacobi && KSPCABiCGStabBlockOnePass(ksp)) PetscCall(KSPCABiCGStabBlockProduct(ksp, X, Y, c, PC_RIGHT, bk->scale + j0, scaled));
      else {
        PetscCall(KSPCABiCGStabBlockPCApply(ksp, X, bk->Zv[c]));
        PetscCall(KSPCABiCGStabBlockProduct(ksp, bk->Zv[c], Y, c, PC_SIDE_DEFAULT, bk->scale + j0, scaled));
      }
      break;
    case KSPCABICGSTAB_PAIR_MINV_A: /* Y = M^{-1} (A X); PCJACOBI in the one pass: Y = D (A X), the product the last step */
      if (bk->jacobi && KSPCABiCGStabBlockOnePass(ksp)) PetscCall(KSPCABiCGStabBlockProduct(ksp, X, Y, c, PC_LEFT, bk->scale + j0, scaled));
      else {
        PetscCall(KSPCABiCGStabBlockProduct(ksp, X, bk->Zv[c], c, PC_SIDE_DEFAULT, NULL, scaled));
        PetscCall(KSPCABiCGStabBlockPCApply(ksp, bk->Zv[c], Y));
      }
      break;
    }
    PetscCall(MatDenseResetArray(X));
    PetscCall(MatDenseResetArray(Y));
  }
  bk->last_products++;
  for (PetscInt j = j0; j < j0 + c; j++) { /* V changed under its Vecs */
    PetscCall(KSPCABiCGStabBasisVecChanged((KSP_CABiCGStab *)bk->col[j]->data, i + 1));
    if (twin) PetscCall(KSPCABiCGStabBasisVecChanged((KSP_CABiCGStab *)bk->col[j]->data, twin + i + 1));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Does column j (selected) apply the operator to its basis vector i: i = 1 .. 2 s_k in P, 2 s_k + 2 .. 4 s_k in R? */
static PetscBool KSPCABiCGStabBlockSource(KSP_CABiCGStabBlock *bk, PetscInt j, PetscInt i)
{
  const PetscInt sk = bk->o[j].sk;

  return bk->sel[j] && ((i >= 1 && i <= 2 * sk) || (i >= 2 * sk + 2 && i <= 4 * sk)) ? PETSC_TRUE : PETSC_FALSE;
}

/* Column j's recurrence from its basis index i is a scaling alone, v_{i+1} = (Â v_i) / gamma (the monomial basis; no shift):
   *g = 1 / gamma, as KSPCABiCGStabShiftAndScale() would apply it */
static PetscBool KSPCABiCGStabBlockScaleOnly(KSP_CABiCGStabBlock *bk, PetscInt j, PetscInt i, PetscScalar *g)
{
  const KSP_CABiCGStab *cc = (KSP_CABiCGStab *)bk->col[j]->data;
  const PetscInt        sk = bk->o[j].sk, l = i <= 2 * sk ? i - 1 : i - (2 * sk + 2); /* the index in P or R */

  *g = 1.0 / cc->gamma[l];
  return cc->theta[l] == 0.0 && (l == 0 || cc->sigma[l] == 0.0) ? PETSC_TRUE : PETSC_FALSE;
}

/* The run of columns from j0 that applies the operator to basis index i as one product: the selected columns from j0
   that apply it, and, where the product is the library's one pass with the preconditioner inside it (none or PCJACOBI),
   on across gaps of at most gap_max converged columns to the next such columns: multiplying those columns' vectors
   (their results unused; each column of the product is computed alone, so the others' bits do not change) costs less
   than a second product (KSPCABiCGStabBlockPlan()). Only converged columns are spanned (a diverged one's vectors may
   hold Inf or NaN, which -fp_trap would stop on); columns that still iterate but take no part (a rebuild of some
   columns) never are: their bases are in use. */
static PetscInt KSPCABiCGStabBlockRun(KSP ksp, PetscInt i, PetscInt j0)
{
  KSP_CABiCGStab      *cab  = (KSP_CABiCGStab *)ksp->data;
  KSP_CABiCGStabBlock *bk   = cab->block;
  const PetscBool      join = bk->batch && KSPCABiCGStabBlockOnePass(ksp) && (cab->identity_pc || bk->jacobi) ? PETSC_TRUE : PETSC_FALSE;
  PetscInt             c    = 0, g;

  while (j0 + c < bk->m && KSPCABiCGStabBlockSource(bk, j0 + c, i)) c++;
  while (join && c) {
    for (g = 0; j0 + c + g < bk->m && !bk->live[j0 + c + g] && bk->col[j0 + c + g]->reason > 0; g++) { }
    if (!g || g > bk->gap_max || j0 + c + g == bk->m || !KSPCABiCGStabBlockSource(bk, j0 + c + g, i)) break;
    for (c += g; j0 + c < bk->m && KSPCABiCGStabBlockSource(bk, j0 + c, i); c++) { }
  }
  return c;
}

/* Where the selected columns take each power of their P and R in one product: the distance from P's basis index to R's,
   2 s_k + 1, of a single s_k (columns advance in step: all the selected columns' s_k are the same but after a restart or
   an adaptive s) and the library's one pass with no preconditioner or PCJACOBI in it (two groups of columns at a fixed
   distance, each run of columns: one halo message per neighbour for both bases, half the messages of taking P's powers
   and then R's); 0: by basis index */
static PetscInt KSPCABiCGStabBlockTwin(KSP ksp)
{
  KSP_CABiCGStab      *cab = (KSP_CABiCGStab *)ksp->data;
  KSP_CABiCGStabBlock *bk  = cab->block;
  PetscInt             sk  = 0;

  if (!bk->batch || !KSPCABiCGStabBlockOnePass(ksp) || !(cab->identity_pc || bk->jacobi)) return 0;
  for (PetscInt j = 0; j < bk->m; j++) {
    if (!bk->sel[j]) continue;
    if (sk && bk->o[j].sk != sk) return 0;
    sk = bk->o[j].sk;
  }
  return sk ? 2 * sk + 1 : 0;
}

/* Column j's basis vector i + 1 from vector i after the run's product (*scaled as it left it): the operator applied to
   the column alone where the solve takes no products (KSPSolve()'s operator application), then its shift and scaling on
   its storage (KSPCABiCGStabShiftAndScaleLocal(), no vector operation per column), unless the product stored it scaled
   already */
static PetscErrorCode KSPCABiCGStabBlockColumnStep(KSP ksp, PetscInt j, PetscInt i, PetscBool scaled, PetscLogDouble *flops)
{
  KSP_CABiCGStabBlock *bk  = ((KSP_CABiCGStab *)ksp->data)->block;
  KSP                  col = bk->col[j];
  KSP_CABiCGStab      *cc  = (KSP_CABiCGStab *)col->data;
  const PetscInt       sk  = bk->o[j].sk;
  const PetscInt       l   = i <= 2 * sk ? i - 1 : i - (2 * sk + 2);
  PetscScalar          g, *v;

  PetscFunctionBegin;
  if (!bk->batch) {
    Vec x, y;

    PetscCall(KSPCABiCGStabBasisVec(col, i, &x));
    PetscCall(KSPCABiCGStabBasisVec(col, i + 1, &y));
    PetscCall(KSPCABiCGStabApplyOperator(col, x, y));
  }
  if (scaled && KSPCABiCGStabBlockScaleOnly(bk, j, i, &g)) PetscFunctionReturn(PETSC_SUCCESS);
  v = cc->V + (size_t)i * cc->ldv; /* basis vector i of column j: the recurrence's index l in P or R */
  *flops += KSPCABiCGStabShiftAndScaleLocal(cc, l, bk->nloc, v + cc->ldv, v, l > 0 ? v - cc->ldv : NULL);
  PetscCall(KSPCABiCGStabBasisVecChanged(cc, i + 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* P_j and R_j of the selected columns, power by power: the columns that apply the operator to basis index i form runs
   of consecutive columns, one product each, with R's index i + twin in the same product where the columns take both
   bases' powers together (KSPCABiCGStabBlockTwin(): P's powers 1 .. 2 s_k, R's 1 .. 2 s_k - 1 with them); else by basis
   index, P's powers then R's; then each column's step (KSPCABiCGStabBlockColumnStep()) */
static PetscErrorCode KSPCABiCGStabBlockBuildBases(KSP ksp)
{
  KSP_CABiCGStabBlock *bk    = ((KSP_CABiCGStab *)ksp->data)->block;
  const PetscInt       twin  = KSPCABiCGStabBlockTwin(ksp);
  PetscInt             imax  = 0;
  PetscLogDouble       flops = 0.0;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(CAKRYLOV_CABasis, ksp, 0, 0, 0));
  for (PetscInt j = 0; j < bk->m; j++)
    if (bk->sel[j]) imax = PetscMax(imax, 4 * bk->o[j].sk);
  if (twin) imax = twin - 1; /* R's powers are taken with P's */
  for (PetscInt i = 1; i <= imax; i++) {
    const PetscInt pair = twin && i + 2 <= twin ? twin : 0; /* R has one power less than P */

    for (PetscInt j0 = 0, c; j0 < bk->m; j0 += PetscMax(c, 1)) {
      PetscBool scaled = PETSC_FALSE;

      c = KSPCABiCGStabBlockRun(ksp, i, j0);
      for (PetscInt j = j0; j < j0 + c; j++)
        if (!KSPCABiCGStabBlockSource(bk, j, i) || !KSPCABiCGStabBlockScaleOnly(bk, j, i, &bk->scale[j])) bk->scale[j] = 1.0; /* a spanned converged column (its result unused), or one shifted later; R's index i + pair: the same recurrence index */
      if (bk->batch && c) PetscCall(KSPCABiCGStabBlockApplyRun(ksp, i, j0, c, pair, &scaled));
      for (PetscInt j = j0; j < j0 + c; j++) {
        if (!KSPCABiCGStabBlockSource(bk, j, i)) continue; /* a converged column the run spans */
        PetscCall(KSPCABiCGStabBlockColumnStep(ksp, j, i, scaled, &flops));
        if (pair) PetscCall(KSPCABiCGStabBlockColumnStep(ksp, j, i + pair, scaled, &flops));
      }
    }
  }
  PetscCall(PetscLogFlops(flops));
  PetscCall(PetscLogEventEnd(CAKRYLOV_CABasis, ksp, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Gram matrices of the selected columns with ONE reduction: local GEMMs packed side by side, one MPI_Allreduce */
static PetscErrorCode KSPCABiCGStabBlockGram(KSP ksp, PetscInt *nred)
{
  KSP_CABiCGStabBlock *bk    = ((KSP_CABiCGStab *)ksp->data)->block;
  PetscInt             count = 0;
  PetscMPIInt          mcount;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(CAKRYLOV_CAGram, ksp, 0, 0, 0));
  for (PetscInt j = 0; j < bk->m; j++) {
    if (!bk->sel[j]) continue;
    PetscCall(KSPCABiCGStabGramLocal(bk->col[j], bk->o[j].nb, ((KSP_CABiCGStab *)ksp->data)->gram_work, bk->buf + count)); /* this KSP's, at s >= s_k */
    count += KSPCABiCGStabGramCount((KSP_CABiCGStab *)bk->col[j]->data, bk->o[j].nb);
  }
  PetscCall(PetscMPIIntCast(count, &mcount));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, bk->buf, mcount, MPIU_SCALAR, MPIU_SUM, PetscObjectComm((PetscObject)ksp)));
  (*nred)++;
  count = 0;
  for (PetscInt j = 0; j < bk->m; j++) {
    if (!bk->sel[j]) continue;
    PetscCall(KSPCABiCGStabGramUnpack(bk->col[j], bk->o[j].nb, bk->buf + count));
    count += KSPCABiCGStabGramCount((KSP_CABiCGStab *)bk->col[j]->data, bk->o[j].nb);
  }
  PetscCall(PetscLogEventEnd(CAKRYLOV_CAGram, ksp, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Round k of the block: history and monitors with the largest finite residual norm of the columns that iterated in it
   (0 under KSP_NORM_NONE) and the largest iteration count; a monitor sees that column's b and x as the KSP's system, so
   that KSPBuildSolution(), KSPBuildResidual() and every monitor PETSc ships work as in KSPSolve()
*/
static PetscErrorCode KSPCABiCGStabBlockMonitor(KSP ksp, const PetscBool iterated[])
{
  KSP_CABiCGStabBlock *bk  = ((KSP_CABiCGStab *)ksp->data)->block;
  Vec                  sol = ksp->vec_sol, rhs = ksp->vec_rhs;
  PetscReal            rnorm = 0.0;
  PetscInt             its = 0, jmax = -1;
  PetscErrorCode       ierr;

  PetscFunctionBegin;
  for (PetscInt j = 0; j < bk->m; j++) {
    its = PetscMax(its, bk->col[j]->its);
    if (!iterated[j] || PetscIsInfOrNanReal(bk->col[j]->rnorm) || (jmax >= 0 && bk->col[j]->rnorm < rnorm)) continue;
    rnorm = bk->col[j]->rnorm;
    jmax  = j;
  }
  if (ksp->normtype == KSP_NORM_NONE) rnorm = 0.0;
  PetscCall(PetscObjectSAWsTakeAccess((PetscObject)ksp));
  ksp->its   = its;
  ksp->rnorm = rnorm;
  PetscCall(PetscObjectSAWsGrantAccess((PetscObject)ksp));
  PetscCall(KSPLogResidualHistory(ksp, rnorm));
  if (!ksp->numbermonitors || jmax < 0) PetscFunctionReturn(PETSC_SUCCESS);
  ksp->vec_sol = bk->x[jmax];
  ksp->vec_rhs = bk->b[jmax];
  ierr         = KSPMonitor(ksp, its, rnorm);
  ksp->vec_sol = sol; /* the caller's vectors back, also when a monitor failed */
  ksp->vec_rhs = rhs;
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x_j += M^{-1} dx_j (right preconditioning) or dx_j of the columns whose rebuild made dx_j: with a preconditioner other
   than the identity on the right, one PCMatApply() per run of consecutive columns on their dx_j, side by side in W */
static PetscErrorCode KSPCABiCGStabBlockIncrements(KSP ksp)
{
  KSP_CABiCGStab      *cab = (KSP_CABiCGStab *)ksp->data;
  KSP_CABiCGStabBlock *bk  = cab->block;
  const PetscScalar   *z;
  PetscInt             ldz;

  PetscFunctionBegin;
  if (ksp->pc_side != PC_RIGHT || cab->identity_pc || !bk->batch) {
    for (PetscInt j = 0; j < bk->m; j++)
      if (bk->o[j].increment) PetscCall(KSPCABiCGStabAddIncrement(bk->col[j], bk->x[j], bk->x[j]));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt j0 = 0, c; j0 < bk->m; j0 += PetscMax(c, 1)) {
    for (c = 0; j0 + c < bk->m && bk->o[j0 + c].increment; c++) { }
    if (!c) continue;
    PetscCall(KSPCABiCGStabBlockViews(ksp, c)); /* Zv[c]: nloc x c */
    PetscCall(MatDensePlaceArray(bk->Xv[c], bk->W + ((size_t)2 * bk->mcap + j0) * bk->ld));
    PetscCall(KSPCABiCGStabBlockPCApply(ksp, bk->Xv[c], bk->Zv[c]));
    PetscCall(MatDenseResetArray(bk->Xv[c]));
    PetscCall(MatDenseGetArrayRead(bk->Zv[c], &z));
    PetscCall(MatDenseGetLDA(bk->Zv[c], &ldz));
    for (PetscInt j = j0; j < j0 + c; j++) { /* x_j += z_j on the arrays (VecAXPY() of 1: the same bits), not through
                                                MatDenseGetColumnVecRead(), whose first vector per view sets up a layout:
                                                an MPI_Allgather in the middle of the solve */
      PetscScalar *x;

      PetscCall(VecGetArray(bk->x[j], &x));
      for (PetscInt i = 0; i < bk->nloc; i++) x[i] += z[(size_t)(j - j0) * ldz + i];
      PetscCall(VecRestoreArray(bk->x[j], &x));
    }
    PetscCall(MatDenseRestoreArrayRead(bk->Zv[c], &z));
    PetscCall(PetscLogFlops((PetscLogDouble)c * bk->nloc));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One round: an outer iteration of every live column, with one reduction (two, once per solve, where a monomial basis is
   rescaled, as in the single solve) */
static PetscErrorCode KSPCABiCGStabBlockRound(KSP ksp, PetscInt *nred)
{
  KSP_CABiCGStabBlock *bk  = ((KSP_CABiCGStab *)ksp->data)->block;
  PetscBool            any = PETSC_FALSE;

  PetscFunctionBegin;
  for (PetscInt j = 0; j < bk->m; j++) {
    bk->sel[j] = bk->live[j];
    if (!bk->live[j]) continue;
    PetscCall(KSPCABiCGStabOuterPrepare(bk->col[j], &bk->o[j]));
    PetscCall(KSPCABiCGStabBasesBegin(bk->col[j], &bk->o[j]));
  }
  PetscCall(KSPCABiCGStabBlockBuildBases(ksp));
  PetscCall(KSPCABiCGStabBlockGram(ksp, nred));
  for (PetscInt j = 0; j < bk->m; j++) {
    if (!bk->live[j]) continue;
    PetscCall(KSPCABiCGStabMonomialScale(bk->col[j], &bk->o[j], &bk->sel[j]));
    if (bk->sel[j]) PetscCall(KSPCABiCGStabBasesBegin(bk->col[j], &bk->o[j]));
    any = (PetscBool)(any || bk->sel[j]);
  }
  if (any) { /* the columns whose monomial basis is rescaled build it again (p, r and rt are still in V) */
    PetscCall(KSPCABiCGStabBlockBuildBases(ksp));
    PetscCall(KSPCABiCGStabBlockGram(ksp, nred));
  }
  for (PetscInt j = 0; j < bk->m; j++) {
    bk->sel[j]         = PETSC_FALSE; /* rebuilt */
    bk->o[j].increment = PETSC_FALSE;
    if (bk->live[j]) PetscCall(KSPCABiCGStabOuterIterate(bk->col[j], &bk->o[j], &bk->sel[j]));
  }
  PetscCall(KSPCABiCGStabBlockIncrements(ksp));
  for (PetscInt j = 0; j < bk->m; j++) {
    if (bk->sel[j]) PetscCall(KSPCABiCGStabOuterFinish(bk->col[j], &bk->o[j]));
    if (bk->live[j]) bk->o[j].k++;
  }
  PetscCall(KSPCABiCGStabBlockMonitor(ksp, bk->live));
  for (PetscInt j = 0; j < bk->m; j++) bk->live[j] = bk->live[j] && !bk->col[j]->reason ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The statistics of the KSP (KSPView(), KSPCABiCGStabGetStatistics()) count a block solve as one solve of `rounds` outer
   iterations and `nred` reductions, with the inner iterations and events of all its columns */
static void KSPCABiCGStabBlockStatistics(KSP ksp, PetscInt rounds, PetscInt nred)
{
  KSP_CABiCGStab          *cab = (KSP_CABiCGStab *)ksp->data;
  KSP_CABiCGStabBlock     *bk  = cab->block;
  KSPCABiCGStabStatistics *st  = &cab->stats;

  st->solves++;
  st->outer += rounds;
  st->reductions += nred;
  for (PetscInt j = 0; j < bk->m; j++) {
    const KSPCABiCGStabStatistics *c = &((KSP_CABiCGStab *)bk->col[j]->data)->stats;

    st->inner += c->inner;
    st->early_ends += c->early_ends;
    st->half_steps += c->half_steps;
    st->restarts += c->restarts;
    st->replacements += c->replacements;
    st->checks += c->checks;
    st->checks_failed += c->checks_failed;
    st->s_lowered += c->s_lowered;
    st->s_raised += c->s_raised;
    if (c->s_min) st->s_min = st->s_min ? PetscMin(st->s_min, c->s_min) : c->s_min;
  }
}

/* The block's iteration count and reason (CAKrylovKSPMatSolveEnd()) */
static PetscErrorCode KSPCABiCGStabBlockEnd(KSP ksp, PetscInt m)
{
  KSP_CABiCGStabBlock *bk = ((KSP_CABiCGStab *)ksp->data)->block;

  PetscFunctionBegin;
  bk->nmatsolves++;
  bk->last_m = m;
  PetscCall(CAKrylovKSPMatSolveEnd(ksp, m, bk->reason, bk->its, &bk->last_its));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Can the block solve this KSPMatSolve()? Else why not */
static PetscErrorCode KSPCABiCGStabBlockUsable(KSP ksp, Mat B, Mat X, const char **why)
{
  Mat          A;
  MatNullSpace ns = NULL, tns = NULL;
  PetscBool    bdense, xdense, scaled;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)B, &bdense, MATSEQDENSE, MATMPIDENSE, ""));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)X, &xdense, MATSEQDENSE, MATMPIDENSE, ""));
  PetscCall(MatGetNullSpace(A, &ns));
  PetscCall(MatGetTransposeNullSpace(A, &tns));
  PetscCall(CAKrylovPCGetDiagonalScale(ksp->pc, &scaled));
  *why = NULL;
  if (ksp->converged != KSPConvergedDefault) *why = "a convergence test other than KSPConvergedDefault() is set";
  else if (ksp->transpose_solve) *why = "KSPMatSolveTranspose()";
  else if (!bdense || !xdense) *why = "the blocks are not MATSEQDENSE/MATMPIDENSE";
  else if (ns || tns) *why = "the operator has a null space";
  else if (scaled) *why = "the preconditioner scales the system (PCSetDiagonalScale())";
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KSPMatSolve(): the block solve, or a KSPSolve() per column where the block does not apply (-info says why) */
PetscErrorCode KSPMatSolve_CABiCGStab(KSP ksp, Mat B, Mat X)
{
  KSP_CABiCGStab      *cab = (KSP_CABiCGStab *)ksp->data;
  KSP_CABiCGStabBlock *bk;
  Mat                  A;
  const PetscScalar   *ba;
  PetscScalar         *xa;
  PetscInt             m, ldb, ldx, nred = 0, rounds = 0;
  PetscBool            live = PETSC_TRUE;
  const char          *why  = NULL;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  PetscCall(CAKrylovKSPMatSolveCheckLayouts(ksp, A, B, X));
  PetscCall(MatGetSize(B, NULL, &m));
  PetscCall(KSPCABiCGStabAllocate(ksp)); /* s changed since KSPSetUp() */
  PetscCall(KSPCABiCGStabBlockSetUp(ksp, m));
  bk = cab->block;
  PetscCall(KSPCABiCGStabBlockUsable(ksp, B, X, &why));
  if (why) {
    PetscLogDouble before = cab->stats.reductions;

    PetscCall(PetscInfo(ksp, "KSPMatSolve() with %s: column by column (KSPSolve() per column), because %s\n", ((PetscObject)ksp)->type_name, why));
    PetscCall(CAKrylovKSPMatSolveColumns(ksp, B, X, bk->reason, bk->its));
    bk->last_block      = PETSC_FALSE;
    bk->last_rounds     = 0;
    bk->last_reductions = (PetscInt)(cab->stats.reductions - before);
    PetscCall(KSPCABiCGStabBlockEnd(ksp, m));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (ksp->res_hist_reset) ksp->res_hist_len = 0;
  PetscCall(CAKrylovPCIsIdentity(ksp->pc, &cab->identity_pc));
  PetscCall(KSPCABiCGStabPairable(ksp, &bk->batch));
  if (m == 1 && cab->identity_pc) bk->batch = PETSC_FALSE; /* KSPSolve()'s MatMult(), bit for bit */
  PetscCall(KSPCABiCGStabBlockPlan(ksp));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp->pc, PCJACOBI, &bk->jacobi));
  if (bk->jacobi) PetscCall(CAKrylovPCJacobiDiagonal(ksp->pc, cab->t, &bk->jacobi_d));
  PetscCall(KSPCABiCGStabSetUpBasis(ksp)); /* one spectrum estimate for all columns */
  PetscCall(MatDenseGetArrayRead(B, &ba));
  PetscCall(MatDenseGetLDA(B, &ldb));
  PetscCall(MatDenseGetArray(X, &xa));
  PetscCall(MatDenseGetLDA(X, &ldx));
  bk->last_products = 0;
  bk->last_one_pass = PETSC_FALSE;
  for (PetscInt j = 0; j < m; j++) PetscCall(KSPCABiCGStabBlockColumnBegin(ksp, j, ba + (size_t)j * ldb, xa + (size_t)j * ldx));
  PetscCall(KSPCABiCGStabBlockRHSNorms(ksp, &nred));
  for (PetscInt j = 0; j < m; j++) {
    PetscCall(KSPCABiCGStabSolveBegin(bk->col[j], &bk->o[j]));
    bk->live[j] = bk->col[j]->reason ? PETSC_FALSE : PETSC_TRUE;
  }
  for (; live; rounds++) {
    PetscCall(KSPCABiCGStabBlockRound(ksp, &nred));
    live = PETSC_FALSE;
    for (PetscInt j = 0; j < m; j++) live = (PetscBool)(live || bk->live[j]);
  }
  for (PetscInt j = 0; j < m; j++) {
    nred += ((KSP_CABiCGStab *)bk->col[j]->data)->stats.checks; /* a checked convergence claim: one reduction */
    PetscCall(KSPCABiCGStabBlockColumnEnd(bk, j));
  }
  PetscCall(MatDenseRestoreArray(X, &xa));
  PetscCall(MatDenseRestoreArrayRead(B, &ba));
  bk->last_block      = PETSC_TRUE;
  bk->last_rounds     = rounds;
  bk->last_reductions = nred;
  KSPCABiCGStabBlockStatistics(ksp, rounds, nred);
  PetscCall(KSPCABiCGStabBlockEnd(ksp, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -ksp_view: the last block solve */
PetscErrorCode KSPViewBlock_CABiCGStab(KSP ksp, PetscViewer viewer)
{
  KSP_CABiCGStabBlock *bk = ((KSP_CABiCGStab *)ksp->data)->block;

  PetscFunctionBegin;
  if (!bk || !bk->nmatsolves) PetscFunctionReturn(PETSC_SUCCESS);
  if (!bk->last_block) PetscCall(PetscViewerASCIIPrintf(viewer, "  KSPMatSolve(): %" PetscInt_FMT " block solves; the last, %" PetscInt_FMT " columns, ran column by column (KSPSolve() per column; -info says why)\n", bk->nmatsolves, bk->last_m));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "  KSPMatSolve(): %" PetscInt_FMT " block solves; the last: %" PetscInt_FMT " columns, %" PetscInt_FMT " outer rounds, %" PetscInt_FMT " global reductions for all columns, at most %" PetscInt_FMT " iterations per column, %" PetscInt_FMT " operator products on runs of columns (%s)\n", bk->nmatsolves, bk->last_m, bk->last_rounds, bk->last_reductions, bk->last_its, bk->last_products, bk->last_one_pass ? "one pass over the matrix each" : "PETSc's product"));
  if (bk->last_block && bk->last_one_pass)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  KSPMatSolve(): one-pass product's window at most %" PetscInt_FMT " bytes (-ksp_cabicgstab_one_pass_window)%s\n", ((KSP_CABiCGStab *)ksp->data)->one_pass_window, bk->jacobi ? "; PCJACOBI applied within it" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CAKrylovKSPGetMatSolveConvergedReasons_CABiCGStab(KSP ksp, PetscInt *m, const KSPConvergedReason *reasons[], const PetscInt *its[])
{
  KSP_CABiCGStabBlock *bk = ((KSP_CABiCGStab *)ksp->data)->block;

  PetscFunctionBegin;
  if (m) *m = bk ? bk->last_m : 0;
  if (reasons) *reasons = bk ? bk->reason : NULL;
  if (its) *its = bk ? bk->its : NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPComposeBlock_CABiCGStab(KSP ksp, PetscBool on)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "CAKrylovKSPGetMatSolveConvergedReasons_C", on ? CAKrylovKSPGetMatSolveConvergedReasons_CABiCGStab : NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}
