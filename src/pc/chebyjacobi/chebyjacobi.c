/*
   PCCHEBYJACOBI: Chebyshev-accelerated Jacobi, each iteration ONE pass over the operator's rows.

   The Chebyshev semi-iteration (Saad, Iterative Methods, 2nd ed., Algorithm 12.1, with the Jacobi preconditioner
   D = diag(A)) for the interval [emin, emax] of D^{-1} A, theta = (emax + emin)/2, delta = (emax - emin)/2,
   sigma = theta/delta, in its three-term form:

     rho_0 = 1/sigma                       x_1     = x_0 + (1/theta) D^{-1} (b - A x_0)
     rho_k = 1/(2 sigma - rho_{k-1})       x_{k+1} = x_k + rho_k rho_{k-1} (x_k - x_{k-1}) + (2 rho_k/delta) D^{-1} (b - A x_k)

   Every step is one pass: row i reads its row of A, x_k around it, x_{k-1,i}, b_i and D^{-1}_ii and writes x_{k+1,i}
   (x_{k+1} over x_{k-1}: row i of x_{k-1} is read only by row i). KSPCHEBYSHEV with PCJACOBI makes the same
   iteration as a MatMult() and four vector operations (with a nonzero initial guess one more MatMult()): for a 7-point
   AIJ operator about 130 bytes per row and step here against about 230 there. The smoother of PCMG:
   -mg_levels_ksp_type richardson -mg_levels_pc_type chebyjacobi, where KSPRICHARDSON hands its whole solve to
   PCApplyRichardson() (its max_it steps, the initial guess, no norms), as it does for PCSOR.

   The pass is the library's own on the CSR arrays of MATSEQAIJ and MATMPIAIJ (for MATMPIAIJ as MatMult_MPIAIJ(): the
   rows without off-rank columns while the halo travels, then the others); each row's A x_k is summed as MatMult()
   sums it (the diagonal block in order, then the off-diagonal block). Other matrix types make the same steps with
   MatMult() and vector operations. The default interval is Gershgorin's: [0.2 (1 + R), 1 + R] with
   R = max_i sum_{j != i} |a_ij| / |a_ii| (one reduction at setup): the upper 80 % of a spectrum that lies in [0, 1 + R]
   for a matrix with positive diagonal whose D^{-1} A has real eigenvalues (symmetric A). With 2 steps before and after
   the coarse-grid correction (tutorials/ex1, Q0 transfers) [0.4, 2] took as many V-cycles as [0.3, 2] or fewer in every
   case tried (2D and 3D, 32^3 to 128^3; share/bench/results/mg-fused.txt has 64^3 and 128^3).
*/
#include <cakrylov/private/cakrylovimpl.h>
#include <petsc/private/pcimpl.h>
#include <petsc/private/kspimpl.h> /* KSPMatSolve_RichardsonChebyJacobi(): the smoother KSP's settings */

#define PCCHEBYJACOBI_LOWER 0.2 /* emin = PCCHEBYJACOBI_LOWER emax by default: the upper 80 % of the interval is damped */
#if PetscHasAttribute(always_inline)
  #define PCCHEBYJACOBI_INLINE static inline __attribute__((always_inline))
#else
  #define PCCHEBYJACOBI_INLINE static inline
#endif

typedef struct {
  PetscReal  emin, emax; /* the interval of D^{-1} A damped by the polynomial */
  PetscBool  given;      /* the interval was given (PCChebyJacobiSetEigenvalues()); else Gershgorin's at each setup */
  PetscInt   its;        /* steps of PCApply() */
  Vec        dinv;       /* D^{-1} of the preconditioning matrix */
  Vec        work;       /* the other iterate */
  Vec        r;          /* other matrix types: D^{-1} (b - A x_k) */
  PetscBool  fused;      /* the operator is MATSEQAIJ or MATMPIAIJ: one pass per step */
  VecScatter halo;       /* MATMPIAIJ: the off-rank entries of x_k ... */
  Vec        ghost;      /* ... into this */
  PetscInt   nruns;      /* MATMPIAIJ: the local rows as runs [run[t], run[t + 1]), t < nruns, without (t even) and with (t odd) off-rank columns */
  PetscInt  *run;
  PetscInt   steps; /* steps made since creation (PCView()), one per column of a block */
  /* blocks of columns (PCMatApply(), KSPMatSolve() of KSPRICHARDSON): made at the first block of more columns than mcap */
  PetscInt           mcap;
  PetscScalar       *xwork;  /* nloc x mcap: the other iterates */
  PetscScalar       *ghosts; /* nghost x mcap: the halo of each column (MATMPIAIJ) ... */
  CAKrylovMatColumns plan;   /* ... exchanged for all columns at once, one message per neighbour */
  PetscInt           blocks; /* block applications since creation (PCView()) */
} PC_ChebyJacobi;

/* The arrays of one fused step: A (diagonal block; off-diagonal block and the halo values with MATMPIAIJ), b, D^{-1} */
typedef struct {
  const PetscInt    *ai, *aj, *oi, *oj;
  const PetscScalar *aa, *oa, *g, *b, *d;
} PCChebyJacobiRows;

/*
   Rows [i0, i1) of one step: xn_i = xc_i + c1 (xc_i - xp_i) + c2 d_i (b_i - (A xc)_i), with the off-diagonal block
   (off) or not; xc = NULL: x_k = 0 (no operator); prev: xn holds x_{k-1} on entry (each row reads its own entry before
   it writes it), else x_{k-1} = 0. xn is never xc. Inlined with constant flags (PCChebyJacobiStepRows()), so that each
   case is a loop without tests.
*/
PCCHEBYJACOBI_INLINE void PCChebyJacobiStepRowsCase(const PCChebyJacobiRows *m, const PetscBool off, PetscInt i0, PetscInt i1, const PetscScalar *PETSC_RESTRICT xc, const PetscBool prev, PetscScalar c1, PetscScalar c2, PetscScalar *PETSC_RESTRICT xn)
{
  const PetscInt *PETSC_RESTRICT ai = m->ai, *PETSC_RESTRICT aj = m->aj, *PETSC_RESTRICT oi = m->oi, *PETSC_RESTRICT oj = m->oj;
  const PetscScalar *PETSC_RESTRICT aa = m->aa, *PETSC_RESTRICT oa = m->oa, *PETSC_RESTRICT g = m->g, *PETSC_RESTRICT b = m->b, *PETSC_RESTRICT d = m->d;

  for (PetscInt i = i0; i < i1; i++) {
    PetscScalar ax = 0.0, x = 0.0, xold = 0.0;

    if (xc) {
      for (PetscInt k = ai[i]; k < ai[i + 1]; k++) ax += aa[k] * xc[aj[k]];
      if (off)
        for (PetscInt k = oi[i]; k < oi[i + 1]; k++) ax += oa[k] * g[oj[k]];
      x = xc[i];
    }
    if (prev) xold = xn[i];
    xn[i] = x + c1 * (x - xold) + c2 * d[i] * (b[i] - ax);
  }
}

static void PCChebyJacobiStepRows(const PCChebyJacobiRows *m, PetscBool off, PetscInt i0, PetscInt i1, const PetscScalar *xc, PetscBool prev, PetscScalar c1, PetscScalar c2, PetscScalar *xn)
{
  if (!xc) PCChebyJacobiStepRowsCase(m, PETSC_FALSE, i0, i1, NULL, PETSC_FALSE, c1, c2, xn);
  else if (off && prev) PCChebyJacobiStepRowsCase(m, PETSC_TRUE, i0, i1, xc, PETSC_TRUE, c1, c2, xn);
  else if (off) PCChebyJacobiStepRowsCase(m, PETSC_TRUE, i0, i1, xc, PETSC_FALSE, c1, c2, xn);
  else if (prev) PCChebyJacobiStepRowsCase(m, PETSC_FALSE, i0, i1, xc, PETSC_TRUE, c1, c2, xn);
  else PCChebyJacobiStepRowsCase(m, PETSC_FALSE, i0, i1, xc, PETSC_FALSE, c1, c2, xn);
}

/* The runs of local rows without and with off-diagonal entries of MATMPIAIJ A (from its off-diagonal block's rows) */
static PetscErrorCode PCChebyJacobiRuns(PC_ChebyJacobi *cj, Mat A)
{
  Mat             Ao;
  const PetscInt *oi, *oj;
  PetscInt        n, t = 0;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, NULL, &Ao, NULL));
  PetscCall(MatGetRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &n, &oi, &oj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "PCCHEBYJACOBI needs the CSR arrays of the operator (MatGetRowIJ())");
  PetscCall(PetscMalloc1(2 * n + 2, &cj->run));
  cj->run[0] = 0;
  for (PetscInt i = 0; i < n; i++) { /* a new run where row i's class (off-rank columns or not) differs from run t's */
    const PetscBool halo = oi[i + 1] > oi[i] ? PETSC_TRUE : PETSC_FALSE;

    if (halo != (PetscBool)(t % 2)) cj->run[++t] = i;
  }
  cj->run[++t] = n;
  cj->nruns    = t;
  PetscCall(MatRestoreRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &n, &oi, &oj, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReset_ChebyJacobi(PC pc)
{
  PC_ChebyJacobi *cj = (PC_ChebyJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCall(VecDestroy(&cj->dinv));
  PetscCall(VecDestroy(&cj->work));
  PetscCall(VecDestroy(&cj->r));
  PetscCall(VecScatterDestroy(&cj->halo));
  PetscCall(VecDestroy(&cj->ghost));
  PetscCall(PetscFree(cj->run));
  cj->nruns = 0;
  PetscCall(PetscFree2(cj->xwork, cj->ghosts));
  PetscCall(CAKrylovMatColumnsDestroy(&cj->plan));
  cj->mcap = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* D^{-1} of the preconditioning matrix, the interval, and for AIJ operators what the fused pass reads */
static PetscErrorCode PCSetUp_ChebyJacobi(PC pc)
{
  PC_ChebyJacobi *cj = (PC_ChebyJacobi *)pc->data;
  PetscBool       seq, mpi, zero = PETSC_FALSE;
  PetscScalar    *d;
  PetscInt        n;

  PetscFunctionBegin;
  PetscCall(PCReset_ChebyJacobi(pc));
  PetscCall(MatCreateVecs(pc->pmat, &cj->dinv, &cj->work));
  PetscCall(MatGetDiagonal(pc->pmat, cj->dinv));
  PetscCall(VecGetLocalSize(cj->dinv, &n));
  PetscCall(VecGetArray(cj->dinv, &d));
  for (PetscInt i = 0; i < n; i++) { /* D^{-1}; a zero diagonal entry gives 1, as PCJACOBI does (no reduction to find it) */
    if (d[i] == 0.0) zero = PETSC_TRUE;
    d[i] = d[i] == 0.0 ? 1.0 : 1.0 / d[i];
  }
  PetscCall(VecRestoreArray(cj->dinv, &d));
  if (zero) PetscCall(PetscInfo(pc, "Zero diagonal entry on this rank: 1 used in D^{-1} there, as PCJACOBI\n"));
  if (!cj->given) {
    PetscReal R;

    PetscCall(CAKrylovMatGershgorinRadius(pc->pmat, &R));
    PetscCheck(R < PETSC_MAX_REAL, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PCCHEBYJACOBI has no Gershgorin interval (a zero diagonal entry, or rows this matrix type cannot give): give the interval with -pc_chebyjacobi_eigenvalues emin,emax or PCChebyJacobiSetEigenvalues()");
    cj->emax = 1.0 + R;
    cj->emin = PCCHEBYJACOBI_LOWER * cj->emax;
  }
  PetscCall(PetscObjectTypeCompare((PetscObject)pc->mat, MATSEQAIJ, &seq));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc->mat, MATMPIAIJ, &mpi));
  cj->fused = seq || mpi ? PETSC_TRUE : PETSC_FALSE;
  if (mpi) {
    PetscCall(CAKrylovMatHaloCreate(pc->mat, cj->work, &cj->halo, &cj->ghost));
    PetscCall(VecScatterSetUp(cj->halo)); /* here, not at the first step: its setup communicates (a reduction) */
    PetscCall(PCChebyJacobiRuns(cj, pc->mat));
  }
  if (!cj->fused) PetscCall(VecDuplicate(cj->work, &cj->r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One fused step xn = xc + c1 (xc - xp) + c2 D^{-1} (b - A xc) on MATSEQAIJ / MATMPIAIJ (xc NULL: zero; prev: xp is xn on
   entry, else zero) */
static PetscErrorCode PCChebyJacobiStepFused(PC pc, Vec b, Vec xc, PetscBool prev, PetscScalar c1, PetscScalar c2, Vec xn)
{
  PC_ChebyJacobi    *cj = (PC_ChebyJacobi *)pc->data;
  Mat                Ad = pc->mat, Ao = NULL;
  PCChebyJacobiRows  m   = {0};
  const PetscScalar *xca = NULL;
  PetscScalar       *xna;
  PetscInt           n, nz;
  PetscBool          done;

  PetscFunctionBegin;
  if (cj->halo) PetscCall(MatMPIAIJGetSeqAIJ(pc->mat, &Ad, &Ao, NULL));
  if (cj->halo && xc) PetscCall(VecScatterBegin(cj->halo, xc, cj->ghost, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &m.ai, &m.aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "PCCHEBYJACOBI needs the CSR arrays of the operator (MatGetRowIJ())");
  nz = m.ai[n]; /* the local nonzeros, for the flop count (with the off-diagonal block's below) */
  PetscCall(MatSeqAIJGetArrayRead(Ad, &m.aa));
  PetscCall(VecGetArrayRead(b, &m.b));
  PetscCall(VecGetArrayRead(cj->dinv, &m.d));
  if (xc) PetscCall(VecGetArrayRead(xc, &xca));
  PetscCall(VecGetArray(xn, &xna));
  if (!cj->halo || !xc) PCChebyJacobiStepRows(&m, PETSC_FALSE, 0, n, xca, prev, c1, c2, xna);
  else {
    for (PetscInt t = 0; t < cj->nruns; t += 2) PCChebyJacobiStepRows(&m, PETSC_FALSE, cj->run[t], cj->run[t + 1], xca, prev, c1, c2, xna); /* rows without halo */
    PetscCall(VecScatterEnd(cj->halo, xc, cj->ghost, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(MatGetRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &n, &m.oi, &m.oj, &done));
    PetscCall(MatSeqAIJGetArrayRead(Ao, &m.oa));
    PetscCall(VecGetArrayRead(cj->ghost, &m.g));
    for (PetscInt t = 1; t < cj->nruns; t += 2) PCChebyJacobiStepRows(&m, PETSC_TRUE, cj->run[t], cj->run[t + 1], xca, prev, c1, c2, xna); /* rows with halo */
    PetscCall(VecRestoreArrayRead(cj->ghost, &m.g));
    PetscCall(MatSeqAIJRestoreArrayRead(Ao, &m.oa));
    nz += m.oi[n];
    PetscCall(MatRestoreRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &n, &m.oi, &m.oj, &done));
  }
  PetscCall(VecRestoreArray(xn, &xna));
  if (xc) PetscCall(VecRestoreArrayRead(xc, &xca));
  PetscCall(VecRestoreArrayRead(cj->dinv, &m.d));
  PetscCall(VecRestoreArrayRead(b, &m.b));
  PetscCall(MatSeqAIJRestoreArrayRead(Ad, &m.aa));
  PetscCall(PetscLogFlops(xc ? 2.0 * nz + 7.0 * n : 2.0 * n)); /* A xc and the update of the row (from 0: c2 d b) */
  PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &m.ai, &m.aj, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The same step with MatMult() and vector operations (other matrix types) */
static PetscErrorCode PCChebyJacobiStepUnfused(PC pc, Vec b, Vec xc, PetscBool prev, PetscScalar c1, PetscScalar c2, Vec xn)
{
  PC_ChebyJacobi *cj = (PC_ChebyJacobi *)pc->data;

  PetscFunctionBegin;
  if (!xc) { /* xn = c2 D^{-1} b */
    PetscCall(VecPointwiseMult(xn, cj->dinv, b));
    PetscCall(VecScale(xn, c2));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatMult(pc->mat, xc, cj->r));
  PetscCall(VecAYPX(cj->r, -1.0, b));                                 /* r = b - A xc */
  PetscCall(VecPointwiseMult(cj->r, cj->dinv, cj->r));                /* r = D^{-1} (b - A xc) */
  if (prev) PetscCall(VecAXPBYPCZ(xn, 1.0 + c1, c2, -c1, xc, cj->r)); /* xn = (1 + c1) xc + c2 r - c1 xp, xp in xn */
  else {
    PetscCall(VecWAXPY(xn, c2, cj->r, xc)); /* xn = xc + c2 r (+ c1 xc) */
    if (c1 != 0.0) PetscCall(VecAXPY(xn, c1, xc));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Step k's coefficients: rho_k = 1/(2 sigma - rho_{k-1}) from *rho = rho_{k-1} (rho_0 = 1/sigma), c1 = rho_k rho_{k-1},
   c2 = 2 rho_k/delta (step 0: c1 = 0, c2 = 1/theta); prev: x_{k-1} != 0 (it is in the vector step k writes) */
static void PCChebyJacobiStepCoefficients(const PC_ChebyJacobi *cj, PetscInt k, PetscBool guesszero, PetscReal *rho, PetscScalar *c1, PetscScalar *c2, PetscBool *prev)
{
  const PetscReal theta = (cj->emax + cj->emin) / 2, delta = (cj->emax - cj->emin) / 2, sigma = theta / delta, rhoprev = *rho;

  *prev = k == 0 || (k == 1 && guesszero) ? PETSC_FALSE : PETSC_TRUE;
  if (k == 0) {
    *rho = 1.0 / sigma;
    *c1  = 0.0;
    *c2  = 1.0 / theta;
    return;
  }
  *rho = 1.0 / (2.0 * sigma - rhoprev);
  *c1  = *rho * rhoprev;
  *c2  = 2.0 * *rho / delta;
}

/*
   its steps from x (guesszero: from 0) to x. The iterates alternate between x and work: step k writes x_{k+1} over the
   vector that holds x_{k-1}. From a nonzero x_0 step 0 writes work, so an odd count ends with a copy to x; from 0,
   step 0 (which reads only b) writes where the count ends in x.
*/
static PetscErrorCode PCChebyJacobiIterate(PC pc, Vec b, Vec x, PetscInt its, PetscBool guesszero)
{
  PC_ChebyJacobi *cj   = (PC_ChebyJacobi *)pc->data;
  Vec             v[2] = {x, cj->work};
  PetscInt        out  = guesszero ? (its - 1) % 2 : 1; /* the vector step k writes */
  PetscReal       rho  = 0.0;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < its; k++, out = 1 - out) {
    Vec         xc = k == 0 && guesszero ? NULL : v[1 - out]; /* x_k */
    PetscBool   prev;
    PetscScalar c1, c2;

    PCChebyJacobiStepCoefficients(cj, k, guesszero, &rho, &c1, &c2, &prev);
    if (cj->fused) PetscCall(PCChebyJacobiStepFused(pc, b, xc, prev, c1, c2, v[out]));
    else PetscCall(PCChebyJacobiStepUnfused(pc, b, xc, prev, c1, c2, v[out]));
    cj->steps++;
  }
  if (its % 2 && !guesszero) PetscCall(VecCopy(cj->work, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The work of blocks of up to m columns (collective where the operator is MATMPIAIJ: the plan of the columns' halo,
   made at the first block of more columns than before, never inside a step) */
static PetscErrorCode PCChebyJacobiColumnsSetUp(PC pc, PetscInt m)
{
  PC_ChebyJacobi *cj     = (PC_ChebyJacobi *)pc->data;
  PetscInt        nghost = 0, n;

  PetscFunctionBegin;
  if (m <= cj->mcap) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree2(cj->xwork, cj->ghosts));
  PetscCall(CAKrylovMatColumnsDestroy(&cj->plan));
  PetscCall(VecGetLocalSize(cj->work, &n));
  if (cj->halo) {
    PetscCall(VecGetLocalSize(cj->ghost, &nghost));
    PetscCall(CAKrylovMatColumnsCreate(pc->mat, m, 0, &cj->plan)); /* its halo only: no window */
    PetscCheck(cj->plan, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No halo plan for the MATMPIAIJ operator");
  }
  PetscCall(PetscMalloc2((size_t)n * m, &cj->xwork, (size_t)nghost * m, &cj->ghosts));
  cj->mcap = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   One fused step of c columns, xn_j = xc_j + c1 (xc_j - xp_j) + c2 D^{-1} (b_j - A xc_j) (lda ldb, ldc, ldn; xc NULL:
   zero; prev: xp_j is xn_j on entry), each column's rows by PCChebyJacobiStepRows() as a single step makes them (the
   same bits), with the halo of all columns in one message per neighbour (MATMPIAIJ), in flight while the rows without
   off-rank columns are stepped; the rows in pieces of PCCHEBYJACOBI_ROWS, each stepped for all columns while its rows
   of A are in cache
*/
#define PCCHEBYJACOBI_ROWS 2048 /* 2048 rows of a 7-point operator: 170 kB of A, in L2; pieces of 256 (short streams per column) and whole runs measured the same on ex3's 33^3 grid */
static PetscErrorCode PCChebyJacobiStepColumns(PC pc, PetscInt c, const PetscScalar *b, PetscInt ldb, const PetscScalar *xc, PetscInt ldc, PetscBool prev, PetscScalar c1, PetscScalar c2, PetscScalar *xn, PetscInt ldn)
{
  PC_ChebyJacobi    *cj = (PC_ChebyJacobi *)pc->data;
  Mat                Ad = pc->mat, Ao = NULL;
  PCChebyJacobiRows  m = {0};
  const PetscScalar *ghost;
  PetscInt           n, nz, nghost = 0, nruns = 1, runs[2] = {0, 0}, *run = runs;
  PetscBool          done;

  PetscFunctionBegin;
  if (cj->halo) {
    PetscCall(MatMPIAIJGetSeqAIJ(pc->mat, &Ad, &Ao, NULL));
    PetscCall(VecGetLocalSize(cj->ghost, &nghost));
    if (xc) PetscCall(CAKrylovMatColumnsHaloBegin(cj->plan, c, c, 0, xc, ldc, NULL));
  }
  PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &m.ai, &m.aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "PCCHEBYJACOBI needs the CSR arrays of the operator (MatGetRowIJ())");
  nz = m.ai[n];
  PetscCall(MatSeqAIJGetArrayRead(Ad, &m.aa));
  PetscCall(VecGetArrayRead(cj->dinv, &m.d));
  if (cj->halo && xc) {
    PetscCall(MatGetRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &n, &m.oi, &m.oj, &done));
    PetscCall(MatSeqAIJGetArrayRead(Ao, &m.oa));
    nz += m.oi[n];
    run   = cj->run;
    nruns = cj->nruns;
  } else runs[1] = n;                      /* one run of all rows, none reads off-rank entries */
  for (PetscInt off = 0; off < 2; off++) { /* the runs without off-rank columns (even), then, the halo arrived, the others */
    if (off && cj->halo && xc) {           /* each column's ghosts side by side, as the single step reads them */
      PetscCall(CAKrylovMatColumnsHaloEnd(cj->plan, c, &ghost));
      for (PetscInt j = 0; j < c; j++)
        for (PetscInt g = 0; g < nghost; g++) cj->ghosts[(size_t)j * nghost + g] = ghost[g * c + j];
    }
    for (PetscInt t = off; t < nruns; t += 2)
      for (PetscInt i0 = run[t]; i0 < run[t + 1]; i0 += PCCHEBYJACOBI_ROWS)
        for (PetscInt j = 0; j < c; j++) {
          m.b = b + (size_t)j * ldb;
          m.g = cj->ghosts + (size_t)j * nghost;
          PCChebyJacobiStepRows(&m, (PetscBool)off, i0, PetscMin(i0 + PCCHEBYJACOBI_ROWS, run[t + 1]), xc ? xc + (size_t)j * ldc : NULL, prev, c1, c2, xn + (size_t)j * ldn);
        }
  }
  if (cj->halo && xc) {
    PetscCall(MatSeqAIJRestoreArrayRead(Ao, &m.oa));
    PetscCall(MatRestoreRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &n, &m.oi, &m.oj, &done));
  }
  PetscCall(VecRestoreArrayRead(cj->dinv, &m.d));
  PetscCall(MatSeqAIJRestoreArrayRead(Ad, &m.aa));
  PetscCall(PetscLogFlops(c * (xc ? 2.0 * nz + 7.0 * n : 2.0 * n)));
  PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &m.ai, &m.aj, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* its steps of the c columns of X (lda ldx) from X (guesszero: from 0) for the right-hand sides B (lda ldb), as
   PCChebyJacobiIterate() makes them for each column (the same bits): the iterates alternate between X and xwork. Other
   operator types: PCChebyJacobiIterate() per column */
static PetscErrorCode PCChebyJacobiIterateColumns(PC pc, Mat B, Mat X, PetscInt its, PetscBool guesszero)
{
  PC_ChebyJacobi    *cj = (PC_ChebyJacobi *)pc->data;
  const PetscScalar *b;
  PetscScalar       *x, *v[2];
  PetscInt           c, n, ldb, ldx, ld[2];
  PetscInt           out = guesszero ? (its - 1) % 2 : 1; /* the block step k writes */
  PetscReal          rho = 0.0;

  PetscFunctionBegin;
  PetscCall(MatGetSize(X, NULL, &c));
  if (!cj->fused) {
    for (PetscInt j = 0; j < c; j++) {
      Vec bj, xj;

      PetscCall(MatDenseGetColumnVecRead(B, j, &bj));
      PetscCall(MatDenseGetColumnVec(X, j, &xj));
      PetscCall(PCChebyJacobiIterate(pc, bj, xj, its, guesszero));
      PetscCall(MatDenseRestoreColumnVec(X, j, &xj));
      PetscCall(MatDenseRestoreColumnVecRead(B, j, &bj));
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PCChebyJacobiColumnsSetUp(pc, c));
  PetscCall(VecGetLocalSize(cj->work, &n));
  PetscCall(MatDenseGetArrayRead(B, &b));
  PetscCall(MatDenseGetLDA(B, &ldb));
  PetscCall(MatDenseGetArray(X, &x));
  PetscCall(MatDenseGetLDA(X, &ldx));
  v[0]  = x;
  v[1]  = cj->xwork;
  ld[0] = ldx;
  ld[1] = n;
  for (PetscInt k = 0; k < its; k++, out = 1 - out) {
    const PetscBool zero = k == 0 && guesszero ? PETSC_TRUE : PETSC_FALSE; /* x_0 = 0 */
    PetscBool       prev;
    PetscScalar     c1, c2;

    PCChebyJacobiStepCoefficients(cj, k, guesszero, &rho, &c1, &c2, &prev);
    PetscCall(PCChebyJacobiStepColumns(pc, c, b, ldb, zero ? NULL : v[1 - out], ld[1 - out], prev, c1, c2, v[out], ld[out]));
    cj->steps += c;
  }
  if (its % 2 && !guesszero)
    for (PetscInt j = 0; j < c; j++) PetscCall(PetscArraycpy(x + (size_t)j * ldx, cj->xwork + (size_t)j * n, n)); /* VecCopy() per column */
  PetscCall(MatDenseRestoreArray(X, &x));
  PetscCall(MatDenseRestoreArrayRead(B, &b));
  cj->blocks++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCMatApply(): PCApply() of each column (its steps from 0) for all columns at once */
static PetscErrorCode PCMatApply_ChebyJacobi(PC pc, Mat B, Mat X)
{
  PetscFunctionBegin;
  PetscCall(PCChebyJacobiIterateColumns(pc, B, X, ((PC_ChebyJacobi *)pc->data)->its, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(CAKRYLOV_HAVE_PC_MATAPPLYRICHARDSON)
/* PCMatApplyRichardson(), which KSPMatSolve() of KSPRICHARDSON calls under the conditions of PCApplyRichardson(): its
   steps of all columns from Y (guesszero: from 0), no norms */
static PetscErrorCode PCMatApplyRichardson_ChebyJacobi(PC pc, Mat B, Mat Y, Mat W, PetscReal rtol, PetscReal abstol, PetscReal dtol, PetscInt its, PetscBool guesszero, PetscInt *outits, PCRichardsonConvergedReason *reason)
{
  PetscFunctionBegin;
  (void)W;
  (void)rtol;
  (void)abstol;
  (void)dtol;
  PetscCall(PCChebyJacobiIterateColumns(pc, B, Y, its, guesszero));
  *outits = its;
  *reason = PCRICHARDSON_CONVERGED_ITS;
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/*
   KSPMatSolve() of a KSPRICHARDSON with PCCHEBYJACOBI (the multigrid smoother, installed by the bottom-solver hook on
   PCMG's levels where KSPRICHARDSON has no KSPMatSolve() of its own, PETSc before 3.26): its max_it steps of all columns at once, where KSPSolve() of each column would hand its whole solve
   to PCApplyRichardson() (PETSc's KSPSolve_Richardson(): scale 1, at least one iteration, the default test or none, no
   monitor, no transpose, no null space of the preconditioning matrix), the same bits; else KSPSolve() per column.
   KSPRICHARDSON's data begins with its scale (KSP_Richardson, PETSc 3.18 to 3.26), which PETSc has no getter for.
*/
PetscErrorCode KSPMatSolve_RichardsonChebyJacobi(KSP ksp, Mat B, Mat X)
{
  Mat          P;
  MatNullSpace nullsp;
  PetscBool    cheby, rich;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPRICHARDSON, &rich));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp->pc, PCCHEBYJACOBI, &cheby));
  PetscCall(PCGetOperators(ksp->pc, NULL, &P));
  PetscCall(MatGetNullSpace(P, &nullsp));
  if (rich && cheby && ksp->max_it > 0 && *(PetscReal *)ksp->data == 1.0 && (ksp->converged == KSPConvergedDefault || ksp->converged == KSPConvergedSkip) && !ksp->numbermonitors && !ksp->transpose_solve && !nullsp) {
    PetscCall(PCChebyJacobiIterateColumns(ksp->pc, B, X, ksp->max_it, ksp->guess_zero));
    ksp->its    = ksp->max_it;
    ksp->reason = KSP_CONVERGED_ITS;
  } else PetscCall(CAKrylovKSPMatSolveColumns(ksp, B, X, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_ChebyJacobi(PC pc, Vec b, Vec x)
{
  PetscFunctionBegin;
  PetscCall(PCChebyJacobiIterate(pc, b, x, ((PC_ChebyJacobi *)pc->data)->its, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KSPRICHARDSON's whole solve: its steps from x (the norms and tolerances are not computed: every step is made) */
static PetscErrorCode PCApplyRichardson_ChebyJacobi(PC pc, Vec b, Vec x, Vec w, PetscReal rtol, PetscReal abstol, PetscReal dtol, PetscInt its, PetscBool guesszero, PetscInt *outits, PCRichardsonConvergedReason *reason)
{
  PetscFunctionBegin;
  (void)w;
  (void)rtol;
  (void)abstol;
  (void)dtol;
  PetscCall(PCChebyJacobiIterate(pc, b, x, its, guesszero));
  *outits = its;
  *reason = PCRICHARDSON_CONVERGED_ITS;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_ChebyJacobi(PC pc, CAKrylovOptionItems PetscOptionsObject)
{
  PC_ChebyJacobi *cj     = (PC_ChebyJacobi *)pc->data;
  PetscReal       eig[2] = {cj->emin, cj->emax};
  PetscInt        neig = 2, its = cj->its;
  PetscBool       flg;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "PC chebyjacobi options");
  PetscCall(PetscOptionsRealArray("-pc_chebyjacobi_eigenvalues", "emin,emax: the interval of D^{-1} A the polynomial damps (default Gershgorin's upper 80 %)", "PCChebyJacobiSetEigenvalues", eig, &neig, &flg));
  if (flg) {
    PetscCheck(neig == 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_SIZ, "-pc_chebyjacobi_eigenvalues takes two values, emin,emax; %" PetscInt_FMT " given", neig);
    PetscCall(PCChebyJacobiSetEigenvalues(pc, eig[0], eig[1]));
  }
  PetscCall(PetscOptionsInt("-pc_chebyjacobi_its", "Chebyshev steps of one application (KSPRICHARDSON: its max_it instead)", "PCChebyJacobiSetIterations", its, &its, &flg));
  if (flg) PetscCall(PCChebyJacobiSetIterations(pc, its));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_ChebyJacobi(PC pc, PetscViewer viewer)
{
  PC_ChebyJacobi *cj = (PC_ChebyJacobi *)pc->data;
  PetscBool       isascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(PETSC_SUCCESS);
  if (cj->given) PetscCall(PetscViewerASCIIPrintf(viewer, "  Chebyshev on the interval [%g, %g] of D^{-1} A (given)\n", (double)cj->emin, (double)cj->emax));
  else if (pc->setupcalled) PetscCall(PetscViewerASCIIPrintf(viewer, "  Chebyshev on the interval [%g, %g] of D^{-1} A (Gershgorin: [%g, 1 + R], R = %g)\n", (double)cj->emin, (double)cj->emax, PCCHEBYJACOBI_LOWER, (double)(cj->emax - 1.0)));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  Chebyshev on Gershgorin's interval of D^{-1} A (set up with the operator)\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  steps per application: %" PetscInt_FMT " (under KSPRICHARDSON: its max_it)\n", cj->its));
  if (pc->setupcalled)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  %s; %" PetscInt_FMT " steps so far (of one column each)\n", cj->fused ? "one fused pass over the rows per step (AIJ)" : "MatMult() and vector operations per step (the operator is not MATSEQAIJ/MATMPIAIJ)", cj->steps));
  if (pc->setupcalled && cj->blocks)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt_FMT " block applications (PCMatApply(), or KSPMatSolve() of KSPRICHARDSON): each step one pass over the rows for all columns%s\n", cj->blocks, cj->halo ? ", their halo one message per neighbour" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCChebyJacobiSetEigenvalues_ChebyJacobi(PC pc, PetscReal emin, PetscReal emax)
{
  PC_ChebyJacobi *cj = (PC_ChebyJacobi *)pc->data;

  PetscFunctionBegin;
  PetscCheck(emin >= 0.0 && emin < emax, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCCHEBYJACOBI interval [%g, %g] is not valid: 0 <= emin < emax", (double)emin, (double)emax);
  cj->emin  = emin;
  cj->emax  = emax;
  cj->given = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCChebyJacobiGetEigenvalues_ChebyJacobi(PC pc, PetscReal *emin, PetscReal *emax)
{
  PC_ChebyJacobi *cj = (PC_ChebyJacobi *)pc->data;

  PetscFunctionBegin;
  if (emin) *emin = cj->emin;
  if (emax) *emax = cj->emax;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCChebyJacobiSetIterations_ChebyJacobi(PC pc, PetscInt its)
{
  PetscFunctionBegin;
  PetscCheck(its >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCCHEBYJACOBI steps per application %" PetscInt_FMT " must be at least 1", its);
  ((PC_ChebyJacobi *)pc->data)->its = its;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_ChebyJacobi(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_ChebyJacobi(pc));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCChebyJacobiSetEigenvalues_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCChebyJacobiGetEigenvalues_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCChebyJacobiSetIterations_C", NULL));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCChebyJacobiSetEigenvalues - Sets the interval [emin, emax] of the spectrum of D^{-1} A that `PCCHEBYJACOBI` damps

  Logically Collective

  Input Parameters:
+ pc   - the preconditioner
. emin - the lower end, 0 <= emin < emax
- emax - the upper end (an upper bound of the spectrum of D^{-1} A, or the iteration may diverge)

  Options Database Key:
. -pc_chebyjacobi_eigenvalues <emin,emax> - set the interval

  Notes:
  By default the interval is [0.2 (1 + R), 1 + R] with R the Gershgorin radius of D^{-1} A, computed at each setup
  (one reduction); a given interval needs no pass over the rows and no reduction. For the 7-point Laplacian and other
  M-matrices whose rows are weakly diagonally dominant R = 1: [0.4, 2]. Does nothing if the preconditioner is not
  `PCCHEBYJACOBI`.

  Level: intermediate

.seealso: `PCCHEBYJACOBI`, `PCChebyJacobiGetEigenvalues()`, `KSPChebyshevSetEigenvalues()`
@*/
PetscErrorCode PCChebyJacobiSetEigenvalues(PC pc, PetscReal emin, PetscReal emax)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, emin, 2);
  PetscValidLogicalCollectiveReal(pc, emax, 3);
  PetscTryMethod(pc, "PCChebyJacobiSetEigenvalues_C", (PC, PetscReal, PetscReal), (pc, emin, emax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCChebyJacobiGetEigenvalues - Gets the interval of the spectrum of D^{-1} A that `PCCHEBYJACOBI` damps

  Not Collective

  Input Parameter:
. pc - the preconditioner

  Output Parameters:
+ emin - the lower end (or `NULL`)
- emax - the upper end (or `NULL`)

  Note:
  Gershgorin's interval is known after `PCSetUp()`.

  Level: intermediate

.seealso: `PCCHEBYJACOBI`, `PCChebyJacobiSetEigenvalues()`
@*/
PetscErrorCode PCChebyJacobiGetEigenvalues(PC pc, PetscReal *emin, PetscReal *emax)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCChebyJacobiGetEigenvalues_C", (PC, PetscReal *, PetscReal *), (pc, emin, emax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCChebyJacobiSetIterations - Sets the Chebyshev steps of one application of `PCCHEBYJACOBI` (`PCApply()`, from 0)

  Logically Collective

  Input Parameters:
+ pc  - the preconditioner
- its - the steps, at least 1 (default 1: damped Jacobi, x = (2/(emin + emax)) D^{-1} b)

  Options Database Key:
. -pc_chebyjacobi_its <its> - set the steps

  Note:
  Under `KSPRICHARDSON` (the multigrid smoother) the steps are Richardson's maximum iterations instead, from the
  initial guess. Does nothing if the preconditioner is not `PCCHEBYJACOBI`.

  Level: intermediate

.seealso: `PCCHEBYJACOBI`, `PCChebyJacobiSetEigenvalues()`
@*/
PetscErrorCode PCChebyJacobiSetIterations(PC pc, PetscInt its)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, its, 2);
  PetscTryMethod(pc, "PCChebyJacobiSetIterations_C", (PC, PetscInt), (pc, its));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   PCCHEBYJACOBI - Chebyshev-accelerated Jacobi (a polynomial in D^{-1} A), each step one fused pass over the rows of
   the operator: the multigrid smoother of `KSPCHEBYSHEV` with `PCJACOBI` at about half its memory traffic

   Options Database Keys:
+  -pc_chebyjacobi_eigenvalues <emin,emax> - the interval of D^{-1} A to damp (default: Gershgorin's upper 80 %)
-  -pc_chebyjacobi_its <1>                 - steps of one `PCApply()` (from 0); under `KSPRICHARDSON` its max_it

   Level: intermediate

   Notes:
   As a multigrid smoother: -mg_levels_ksp_type richardson -mg_levels_pc_type chebyjacobi -mg_levels_ksp_max_it 2.
   `KSPRICHARDSON` (scale 1, no monitors, no null space) hands its whole solve to this preconditioner
   (`PCApplyRichardson()`), which makes max_it Chebyshev steps from the initial guess, as `KSPCHEBYSHEV` with
   `PCJACOBI` and the same interval makes them (the same iterates up to rounding), and computes no norms.

   Each step x_{k+1} = x_k + rho_k rho_{k-1} (x_k - x_{k-1}) + (2 rho_k/delta) D^{-1} (b - A x_k) (the three-term
   Chebyshev recurrence, Saad, Algorithm 12.1) is one pass over the rows for `MATSEQAIJ` and `MATMPIAIJ` operators
   (for `MATMPIAIJ` the rows without off-rank columns while the halo travels); other matrix types make the step with
   `MatMult()` and vector operations. From a zero initial guess the first step applies no operator. The polynomial is
   the same before and after a coarse-grid correction, so the V-cycle is symmetric and `KSPCG` can accelerate it.

   `PCMatApply()` steps all columns of a block at once (one pass over the rows and, for `MATMPIAIJ`, one halo message
   per neighbour per step for all columns), bitwise `PCApply()` per column. With the library's bottom-solver hook,
   PCMG's level smoothers that are `KSPRICHARDSON` with this preconditioner smooth PCMG's blocks (`PCMatApply()` of
   PCMG) the same way: their `KSPMatSolve()` is this block apply where `KSPSolve()` would hand its solve to
   `PCApplyRichardson()`, bitwise `KSPSolve()` per column (from PETSc 3.26 on through `PCMatApplyRichardson()`, which
   `KSPRICHARDSON`'s own `KSPMatSolve()` calls, without the hook).

   The default interval needs the matrix rows (`MatGetRow()`; `MATSELL` is read from a `MATAIJ` copy) and one
   reduction at each setup; give the interval when the rows cannot be read or the setup must not reduce. D is the
   diagonal of the preconditioning matrix, A the operator; a zero diagonal entry is an error.

.seealso: `PCCreate()`, `PCSetType()`, `PCJACOBI`, `KSPCHEBYSHEV`, `KSPRICHARDSON`, `PCMG`,
          `PCChebyJacobiSetEigenvalues()`, `PCChebyJacobiSetIterations()`
M*/
PetscErrorCode PCCreate_ChebyJacobi(PC pc)
{
  PC_ChebyJacobi *cj;

  PetscFunctionBegin;
  PetscCall(PetscNew(&cj));
  cj->its  = 1;
  pc->data = (void *)cj;

  pc->ops->apply    = PCApply_ChebyJacobi;
  pc->ops->matapply = PCMatApply_ChebyJacobi;
#if defined(CAKRYLOV_HAVE_PC_MATAPPLYRICHARDSON)
  pc->ops->matapplyrichardson = PCMatApplyRichardson_ChebyJacobi;
#endif
  pc->ops->applyrichardson = PCApplyRichardson_ChebyJacobi;
  pc->ops->setup           = PCSetUp_ChebyJacobi;
  pc->ops->reset           = PCReset_ChebyJacobi;
  pc->ops->setfromoptions  = PCSetFromOptions_ChebyJacobi;
  pc->ops->view            = PCView_ChebyJacobi;
  pc->ops->destroy         = PCDestroy_ChebyJacobi;

  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCChebyJacobiSetEigenvalues_C", PCChebyJacobiSetEigenvalues_ChebyJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCChebyJacobiGetEigenvalues_C", PCChebyJacobiGetEigenvalues_ChebyJacobi));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCChebyJacobiSetIterations_C", PCChebyJacobiSetIterations_ChebyJacobi));
  PetscFunctionReturn(PETSC_SUCCESS);
}
