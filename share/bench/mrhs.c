static char help[] = "Multiple right-hand sides on the 7-point 3D Laplacian or another stencil operator (Dirichlet boundary eliminated): the time per RHS-iteration of\n\
m separate PETSc bcgs KSPSolve()s, PETSc's KSPMatSolve() with bcgs, m separate PETSc pipebcgs KSPSolve()s (the paper's\n\
baseline of its pipelined block), and KSPMatSolve() with cakrylov's bcgsm, pipebcgsm and rbicgstab (their default\n\
layout, auto: the faster layout measured at the first block solve; its path is that of the product's log event) and bcgsm in the\n\
dense and in the interleaved layout; the bytes each RHS-iteration moves (a model) against the\n\
STREAM triad measured in the same run; and the layout of the m columns for one SpMV: dense column-major (AIJ x MATDENSE,\n\
MatProductNumeric(), the dense layout's) against interleaved (MatCreateMAIJ(A, m), MatMult() on a vector of N m entries).\n\
  -n <200>             : grid points per direction (N = n^dim unknowns)\n\
  -dim <3>             : 2 (5-point stencil) or 3 (7-point stencil)\n\
  -problem <poisson>   : poisson, convdiff (upwind, cell Peclet number -peclet <0.5>) or skew (share/problems/stencil.h)\n\
  -m <1,4,16>          : numbers of right-hand sides (columns of B), comma-separated\n\
  -pc_type <none|jacobi> : preconditioner of every KSP\n\
  -its <4>             : iterations per solve (every column runs exactly this many: rtol 1e-30)\n\
  -runs <3>            : timed solves per (m, method), after a warm-up solve of one iteration\n\
  -methods <list>      : comma-separated subset of bcgs-separate,bcgs-matsolve,pipebcgs-separate,bcgsm,bcgsm-dense,bcgsm-inter,pipebcgsm,rbicgstab,\n                         cabicgstab-separate,cabicgstab,cabicgstab-cheb8 (cabicgstab: s = 4 monomial; cheb8: s = 8 Chebyshev)\n\
  -layout <true>       : time one SpMV of m columns dense and MAIJ for every m > 1 of -m\n\
  -breakdown <true>    : per method, the time per solve in the operator (MatMult, or MatMatMultNum in the dense layout) and\n\
                         in the fused passes (CAKVecFused) by PETSc's log events: median, spread, GB/s of their model bytes\n\
  -stream <true>       : measure the STREAM triad (false: no bandwidth fractions)\n\
  -csv <file>, -layout_csv <file> : append one CSV row per (m, method), per m of the layout study\n\
  The methods run one after the other, each with its own KSP that is destroyed before the next (the block solvers keep\n\
  their work blocks until then: at n = 200, m = 16 one block of 16 columns is 1 GB, bcgsm keeps 8, 10 interleaved). The peak resident\n\
  memory of the run is printed at the end. Every KSP also reads the options database (KSPSetFromOptions()). The timed\n\
  solves are bracketed by MPI_Pcontrol(1) ... MPI_Pcontrol(0): with share/bench/cakpmpi/cakpmpi.c preloaded and\n\
  CAKPMPI_PAUSED=1 only they are counted.\n\n";

#include <cakrylov.h>

#include "benchutil.h" /* the problem, the STREAM triad, the median, one SpMV timed alone, the CSV files */

#define NMETHODS 11
#define MAXM     8

typedef struct {
  const char            *name;
  KSPType                type;
  PetscBool              separate; /* m KSPSolve()s on the columns; otherwise one KSPMatSolve() */
  PetscBool              right;    /* right preconditioning, as in merged.c */
  PetscBool              ours;     /* the library's types skip the identity PC; PETSc's copy the vector */
  PetscReal              vec[2];   /* vector reads+writes per iteration and column besides SpMV and PC (PC none, with a PC): merged.c's counts */
  CAKrylovMatSolveLayout layout;   /* of the block solver (auto: measured at the first block solve, for m > 1 with PC none or Jacobi) */
  PetscReal              spmvs;    /* operator applications per iteration: 2; cabicgstab (4s - 1) / s */
  PetscReal              pcapps;   /* preconditioner applications per iteration: 2; cabicgstab 4s / s (the bases and x) */
  PetscInt               s;        /* cabicgstab: s and basis (telescoping on, the defaults) */
  KSPCABiCGStabBasis     basis;
} Method;

static const Method methods[NMETHODS] = {
  {"bcgs-separate",       KSPBCGS,       PETSC_TRUE,  PETSC_FALSE, PETSC_FALSE, {21, 21},     CAKRYLOV_MATSOLVE_LAYOUT_AUTO,        2,     2, 0, KSP_CABICGSTAB_BASIS_MONOMIAL },
  {"bcgs-matsolve",       KSPBCGS,       PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, {21, 21},     CAKRYLOV_MATSOLVE_LAYOUT_AUTO,        2,     2, 0, KSP_CABICGSTAB_BASIS_MONOMIAL },
  {"pipebcgs-separate",   KSPPIPEBCGS,   PETSC_TRUE,  PETSC_TRUE,  PETSC_FALSE, {56, 56},     CAKRYLOV_MATSOLVE_LAYOUT_AUTO,        2,     2, 0, KSP_CABICGSTAB_BASIS_MONOMIAL }, /* the paper's baseline of its pipelined block */
  {"bcgsm",               KSPBCGSM,      PETSC_FALSE, PETSC_FALSE, PETSC_TRUE,  {18, 18},     CAKRYLOV_MATSOLVE_LAYOUT_AUTO,        2,     2, 0, KSP_CABICGSTAB_BASIS_MONOMIAL },
  {"bcgsm-dense",         KSPBCGSM,      PETSC_FALSE, PETSC_FALSE, PETSC_TRUE,  {18, 18},     CAKRYLOV_MATSOLVE_LAYOUT_DENSE,       2,     2, 0, KSP_CABICGSTAB_BASIS_MONOMIAL }, /* the same block in each layout */
  {"bcgsm-inter",         KSPBCGSM,      PETSC_FALSE, PETSC_FALSE, PETSC_TRUE,  {18, 18},     CAKRYLOV_MATSOLVE_LAYOUT_INTERLEAVED, 2,     2, 0, KSP_CABICGSTAB_BASIS_MONOMIAL },
  {"pipebcgsm",           KSPPIPEBCGSM,  PETSC_FALSE, PETSC_TRUE,  PETSC_TRUE,  {25, 34},     CAKRYLOV_MATSOLVE_LAYOUT_AUTO,        2,     2, 0, KSP_CABICGSTAB_BASIS_MONOMIAL },
  {"rbicgstab",           KSPRBICGSTAB,  PETSC_FALSE, PETSC_TRUE,  PETSC_TRUE,  {16, 21},     CAKRYLOV_MATSOLVE_LAYOUT_AUTO,        2,     2, 0, KSP_CABICGSTAB_BASIS_MONOMIAL },
 /* s-step: vector reads+writes per iteration from the basis recurrence (3 per vector, 4 with a three-term one), the
     copies of p and r, the Gram matrix (4s+2 reads), the rebuild (4s+1 reads, 3 writes) and x (3): per s iterations */
  {"cabicgstab-separate", KSPCABICGSTAB, PETSC_TRUE,  PETSC_TRUE,  PETSC_TRUE,  {22.5, 23.5}, CAKRYLOV_MATSOLVE_LAYOUT_AUTO,        3.75,  4, 4, KSP_CABICGSTAB_BASIS_MONOMIAL },
  {"cabicgstab",          KSPCABICGSTAB, PETSC_FALSE, PETSC_TRUE,  PETSC_TRUE,  {22.5, 23.5}, CAKRYLOV_MATSOLVE_LAYOUT_AUTO,        3.75,  4, 4, KSP_CABICGSTAB_BASIS_MONOMIAL },
  {"cabicgstab-cheb8",    KSPCABICGSTAB, PETSC_FALSE, PETSC_TRUE,  PETSC_TRUE,  {25.1, 25.5}, CAKRYLOV_MATSOLVE_LAYOUT_AUTO,        3.875, 4, 8, KSP_CABICGSTAB_BASIS_CHEBYSHEV},
};

static const char *const PCTypes[] = {"none", "jacobi"};

/* Passes over the matrix of PETSc's AIJ x dense product of m columns: MatMatMultNumericAdd_SeqAIJ_SeqDense() advances 4
   columns per pass, then the remaining m mod 4 one by one */
static PetscInt DensePasses(PetscInt m)
{
  return m / 4 + m % 4;
}

/* The operator of -problem on n^dim points of a DMDA, Dirichlet boundary eliminated (share/problems/stencil.h); b = 1 and x
   of its layout; its nonzeros */
static PetscErrorCode BenchProblem(MPI_Comm comm, PetscInt dim, StencilProblem problem, PetscReal peclet, PetscInt n, DM *da, Mat *A, Vec *b, Vec *x, PetscReal *nnz)
{
  MatInfo info;

  PetscFunctionBegin;
  PetscCall(StencilCreateDMDA(comm, dim, n, DM_BOUNDARY_NONE, da));
  PetscCall(DMSetUp(*da));
  PetscCall(DMCreateMatrix(*da, A));
  PetscCall(AssembleStencilOperator(*da, problem, peclet, *A));
  PetscCall(DMCreateGlobalVector(*da, b));
  PetscCall(VecDuplicate(*b, x));
  PetscCall(VecSet(*b, 1.0));
  PetscCall(MatGetInfo(*A, MAT_GLOBAL_SUM, &info));
  *nnz = (PetscReal)info.nz_used;
  PetscFunctionReturn(0);
}

/* One solve of the m columns from X = 0 with exactly its iterations per column; checks that each ran them */
static PetscErrorCode Solve(KSP ksp, const Method *method, Mat B, Mat X, PetscInt m, PetscInt its)
{
  MPI_Comm           comm = PetscObjectComm((PetscObject)ksp);
  PetscInt           done;
  KSPConvergedReason reason;
  PetscErrorCode (*f)(KSP, PetscInt *, const KSPConvergedReason *[], const PetscInt *[]) = NULL;

  PetscFunctionBegin;
  PetscCall(KSPSetTolerances(ksp, 1e-30, 0.0, PETSC_DEFAULT, its));
  if (method->separate) {
    for (PetscInt j = 0; j < m; j++) {
      Vec cb, cx;

      PetscCall(MatDenseGetColumnVecRead(B, j, &cb));
      PetscCall(MatDenseGetColumnVecWrite(X, j, &cx));
      PetscCall(KSPSolve(ksp, cb, cx));
      PetscCall(MatDenseRestoreColumnVecWrite(X, j, &cx));
      PetscCall(MatDenseRestoreColumnVecRead(B, j, &cb));
      PetscCall(KSPGetIterationNumber(ksp, &done));
      PetscCall(KSPGetConvergedReason(ksp, &reason));
      PetscCheck(done == its && reason == KSP_DIVERGED_ITS, comm, PETSC_ERR_NOT_CONVERGED, "%s column %" PetscInt_FMT " ran %" PetscInt_FMT " iterations (%s) instead of %" PetscInt_FMT, method->name, j, done, KSPConvergedReasons[reason], its);
    }
    PetscFunctionReturn(0);
  }
  PetscCall(MatZeroEntries(X));
  PetscCall(KSPMatSolve(ksp, B, X));
  PetscCall(KSPGetIterationNumber(ksp, &done));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCheck(done == its && reason == KSP_DIVERGED_ITS, comm, PETSC_ERR_NOT_CONVERGED, "%s ran %" PetscInt_FMT " iterations (%s) instead of %" PetscInt_FMT, method->name, done, KSPConvergedReasons[reason], its);
  PetscCall(PetscObjectQueryFunction((PetscObject)ksp, "CAKrylovKSPGetMatSolveConvergedReasons_C", &f));
  if (f) {
    PetscInt                  mm;
    const KSPConvergedReason *reasons;
    const PetscInt           *colits;

    PetscCall(CAKrylovKSPGetMatSolveConvergedReasons(ksp, &mm, &reasons, &colits));
    PetscCheck(mm == m, comm, PETSC_ERR_PLIB, "%s reports %" PetscInt_FMT " columns instead of %" PetscInt_FMT, method->name, mm, m);
    for (PetscInt j = 0; j < m; j++)
      PetscCheck(colits[j] == its && reasons[j] == KSP_DIVERGED_ITS, comm, PETSC_ERR_NOT_CONVERGED, "%s column %" PetscInt_FMT " ran %" PetscInt_FMT " iterations (%s) instead of %" PetscInt_FMT, method->name, j, colits[j], KSPConvergedReasons[reasons[j]], its);
  }
  PetscFunctionReturn(0);
}

/* The line under a method of -breakdown: per solve, the operator's time (nspmv calls of spmvbytes each) and the fused
   passes' (fusedbytes, the model's vector bytes of the iterations), median and spread over the runs (v reordered),
   their bandwidth and its fraction of the triad; the spread of the whole solve (tmin, tmax) beside them */
static PetscErrorCode PrintBreakdown(MPI_Comm comm, PetscInt runs, PetscReal tsp[], PetscReal tfu[], PetscReal tmin, PetscReal tmax, PetscInt nspmv, PetscReal spmvbytes, PetscReal fusedbytes, PetscReal triad)
{
  PetscReal msp = 0.0, mfu = 0.0, bsp, bfu; /* set by Median() (runs >= 1) */

  PetscFunctionBegin;
  PetscCall(Median(runs, tsp, &msp));
  PetscCall(Median(runs, tfu, &mfu));
  bsp = msp > 0.0 ? nspmv * spmvbytes / msp / 1e9 : 0.0;
  bfu = mfu > 0.0 ? fusedbytes / mfu / 1e9 : 0.0;
  PetscCall(PetscPrintf(comm, "  per solve: operator %" PetscInt_FMT " x %.1f MB in %.3f s [%.3f, %.3f] = %.2f GB/s (%.1f%% of triad); fused passes %.1f MB in %.3f s [%.3f, %.3f] = %.2f GB/s (%.1f%%); solve spread %.1f%%\n", nspmv, (double)(spmvbytes / 1e6), (double)msp, (double)tsp[0], (double)tsp[runs - 1], (double)bsp, (double)(triad > 0.0 ? 100.0 * bsp / triad : 0.0), (double)(fusedbytes / 1e6), (double)mfu, (double)tfu[0], (double)tfu[runs - 1], (double)bfu, (double)(triad > 0.0 ? 100.0 * bfu / triad : 0.0), (double)(100.0 * (tmax - tmin) / tmin)));
  PetscFunctionReturn(0);
}

/* The time and the calls of the operator's events (MatMult; MatMatMultNum, the dense layout's product), of the fused
   passes (CAKVecFused) and of the library's one-pass product (CAKMatMultCols: the dense layout's on a MATSEQAIJ, through a window in the interleaved layout) so far
   on this rank, in that order (0 without logging: -breakdown false) */
static PetscErrorCode EventTimes(PetscLogDouble v[8])
{
  const char *const names[4] = {"MatMult", "MatMatMultNum", "CAKVecFused", "CAKMatMultCols"};
  PetscBool         active;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < 8; k++) v[k] = 0.0;
  PetscCall(PetscLogIsActive(&active));
  if (!active) PetscFunctionReturn(0);
  for (PetscInt k = 0; k < 4; k++) {
    PetscLogEvent      e;
    PetscEventPerfInfo info = {0};

    PetscCall(PetscLogEventGetId(names[k], &e));
    PetscCall(PetscLogEventGetPerfInfo(0, e, &info));
    v[2 * k]     = info.time;
    v[2 * k + 1] = info.count;
  }
  PetscFunctionReturn(0);
}

/* The times per RHS-iteration of runs solves (slowest rank, from a barrier), after a warm-up solve of one iteration that
   allocates what the solver keeps; per solve, the time in the operator (tspmv, with its calls nspmv) and in the fused
   passes (tfused), slowest rank; *block: the type advanced the columns together (it has a block solver), *dense: in the
   dense layout (the product's event ran) */
static PetscErrorCode TimeMethod(Mat A, PetscInt pc, const Method *method, Mat B, Mat X, PetscInt m, PetscInt its, PetscInt runs, PetscReal t[], PetscReal tspmv[], PetscReal tfused[], PetscInt *nspmv, PetscBool *block, PetscBool *dense, PetscBool *onepass)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  KSP      ksp;
  PC       kpc;
  PetscErrorCode (*f)(KSP, PetscInt *, const KSPConvergedReason *[], const PetscInt *[]) = NULL;

  PetscFunctionBegin;
  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, method->type));
  if (method->right) PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
  PetscCall(KSPGetPC(ksp, &kpc));
  PetscCall(PCSetType(kpc, pc ? PCJACOBI : PCNONE));
  PetscCall(KSPSetFromOptions(ksp));
  if (method->layout != CAKRYLOV_MATSOLVE_LAYOUT_AUTO) PetscCall(CAKrylovKSPSetMatSolveLayout(ksp, method->layout));
  if (method->s) {
    PetscCall(KSPCABiCGStabSetS(ksp, method->s));
    PetscCall(KSPCABiCGStabSetBasis(ksp, method->basis));
  }
  PetscCall(KSPSetUp(ksp));
  PetscCall(PetscObjectQueryFunction((PetscObject)ksp, "CAKrylovKSPGetMatSolveConvergedReasons_C", &f));
  *block = !method->separate && f ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(Solve(ksp, method, B, X, m, 1));
  PetscCallMPI(MPI_Pcontrol(1)); /* cakpmpi: count the timed solves only (with CAKPMPI_PAUSED=1) */
  for (PetscInt r = 0; r < runs; r++) {
    double         t0, tl[5], tmax[5];
    PetscLogDouble e0[8], e1[8];

    PetscCallMPI(MPI_Barrier(comm));
    PetscCall(EventTimes(e0));
    t0 = MPI_Wtime();
    PetscCall(Solve(ksp, method, B, X, m, its));
    tl[0] = MPI_Wtime() - t0;
    PetscCall(EventTimes(e1));
    tl[4]  = e1[7] - e0[7] > 0 ? 1.0 : 0.0;              /* the one-pass product ran */
    tl[3]  = e1[3] - e0[3] > 0 || tl[4] > 0 ? 1.0 : 0.0; /* a dense product ran: the dense layout */
    tl[1]  = tl[3] > 0 ? e1[2] - e0[2] + e1[6] - e0[6] : e1[0] - e0[0];
    tl[2]  = e1[4] - e0[4];
    *nspmv = (PetscInt)(tl[3] > 0 ? e1[3] - e0[3] + e1[7] - e0[7] : e1[1] - e0[1]);
    PetscCallMPI(MPI_Allreduce(tl, tmax, 5, MPI_DOUBLE, MPI_MAX, comm));
    *dense    = *block && (tmax[3] > 0 || m == 1 || method->layout == CAKRYLOV_MATSOLVE_LAYOUT_DENSE) ? PETSC_TRUE : PETSC_FALSE;
    *onepass  = tmax[4] > 0 ? PETSC_TRUE : PETSC_FALSE;
    t[r]      = tmax[0] / (its * m);
    tspmv[r]  = tmax[1];
    tfused[r] = tmax[2];
  }
  PetscCallMPI(MPI_Pcontrol(0));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(0);
}

/* One SpMV of m columns both ways: dense column-major (AIJ x MATDENSE) and interleaved (MAIJ); a CSV row */
static PetscErrorCode LayoutStudy(Mat A, PetscInt n, PetscInt m, PetscReal mbytes, PetscReal tspmv, PetscReal triad, FILE *fp)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)A);
  Mat         Bd, C, Am;
  Vec         xm, ym;
  PetscInt    nloc, N;
  PetscReal   tdense, tmaij, bdense, bmaij;
  PetscRandom rnd;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(MatGetLocalSize(A, &nloc, NULL));
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));
  PetscCall(MatCreateDense(comm, nloc, PETSC_DECIDE, N, m, NULL, &Bd));
  PetscCall(MatSetRandom(Bd, rnd));
  PetscCall(MatProductCreate(A, Bd, NULL, &C));
  PetscCall(MatProductSetType(C, MATPRODUCT_AB));
  PetscCall(MatProductSetFromOptions(C));
  PetscCall(MatProductSymbolic(C));
  PetscCall(TimedSpMV(C, NULL, NULL, &tdense));
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&Bd));
  PetscCall(MatCreateMAIJ(A, m, &Am));
  PetscCall(MatCreateVecs(Am, &xm, &ym));
  PetscCall(VecSetRandom(xm, rnd));
  PetscCall(TimedSpMV(Am, xm, ym, &tmaij));
  PetscCall(VecDestroy(&xm));
  PetscCall(VecDestroy(&ym));
  PetscCall(MatDestroy(&Am));
  PetscCall(PetscRandomDestroy(&rnd));
  bdense = DensePasses(m) * mbytes + 16.0 * N * m; /* the matrix once per pass; x read, y written once per column */
  bmaij  = mbytes + 16.0 * N * m;                  /* the matrix once; the interleaved x and y contiguously */
  PetscCall(PetscPrintf(comm, "m = %2" PetscInt_FMT ": dense %9.3f ms (%" PetscInt_FMT " pass%s over the matrix, %7.1f MB, %6.2f GB/s)   MAIJ %9.3f ms (1 pass, %7.1f MB, %6.2f GB/s)   %" PetscInt_FMT " x MatMult %9.3f ms   faster: %s (%.2fx)\n", m, (double)(1e3 * tdense), DensePasses(m), DensePasses(m) > 1 ? "es" : "", (double)(bdense / 1e6), (double)(bdense / tdense / 1e9), (double)(1e3 * tmaij), (double)(bmaij / 1e6), (double)(bmaij / tmaij / 1e9), m, (double)(1e3 * m * tspmv), tdense < tmaij ? "dense" : "MAIJ", (double)(tdense < tmaij ? tmaij / tdense : tdense / tmaij)));
  if (fp)
    fprintf(fp, "%d,%d,%d,%d,%.6g,%.6g,%.6g,%d,%.6g,%.6g,%.4g,%.4g,%.4g,%s\n", (int)size, (int)n, (int)N, (int)m, (double)(1e3 * tdense), (double)(1e3 * tmaij), (double)(1e3 * m * tspmv), (int)DensePasses(m), (double)(bdense / 1e6), (double)(bmaij / 1e6), (double)(bdense / tdense / 1e9), (double)(bmaij / tmaij / 1e9), (double)triad, tdense < tmaij ? "dense" : "maij");
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscBool      helponly;
  MPI_Comm       comm;
  PetscMPIInt    size;
  DM             da;
  Mat            A;
  Vec            b, x;
  PetscInt       n = 200, dim = 3, its = 4, runs = 3, pc = 0, N, nloc, mlist[MAXM] = {1, 4, 16}, nm = MAXM, mstream = 0;
  StencilProblem problem = STENCIL_POISSON;
  PetscReal     *t, *tsp, *tfu, peclet = 0.5, nnz = 0.0, mbytes, tspmv, triad = 0.0, med[NMETHODS];
  PetscBool      selected[NMETHODS] = {PETSC_FALSE}, stream = PETSC_TRUE, breakdown = PETSC_TRUE, layout = PETSC_TRUE, methodsset, mset;
  const char    *names[NMETHODS];
  char           csvname[PETSC_MAX_PATH_LEN] = "", laycsvname[PETSC_MAX_PATH_LEN] = "";
  double         gbs = 0.0;
  PetscLogDouble peak, peaksum;
  FILE          *fp, *lfp;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(CAKrylovInitializePackage());
  PetscCall(PetscMemorySetGetMaximumUsage());
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  for (PetscInt k = 0; k < NMETHODS; k++) names[k] = methods[k].name;
  PetscOptionsBegin(comm, NULL, "Multiple right-hand sides benchmark", NULL);
  PetscCall(PetscOptionsInt("-n", "Grid points per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-dim", "Dimension of the grid (2: 5-point, 3: 7-point stencil)", NULL, dim, &dim, NULL));
  PetscCall(PetscOptionsEnum("-problem", "Operator", NULL, StencilProblems, (PetscEnum)problem, (PetscEnum *)&problem, NULL));
  PetscCall(PetscOptionsReal("-peclet", "Cell Peclet number of convdiff", NULL, peclet, &peclet, NULL));
  PetscCall(PetscOptionsIntArray("-m", "Numbers of right-hand sides", NULL, mlist, &nm, &mset));
  if (!mset) nm = 3; /* the default list */
  PetscCall(PetscOptionsEList("-pc_type", "Preconditioner of every KSP", NULL, PCTypes, 2, PCTypes[pc], &pc, NULL));
  PetscCall(PetscOptionsInt("-its", "Iterations per solve", NULL, its, &its, NULL));
  PetscCall(PetscOptionsInt("-runs", "Timed solves per (m, method)", NULL, runs, &runs, NULL));
  PetscCall(BenchOptionsMethods(PetscOptionsObject, NMETHODS, names, selected, &methodsset));
  PetscCall(PetscOptionsBool("-layout", "Time one SpMV of m columns dense and MAIJ", NULL, layout, &layout, NULL));
  PetscCall(PetscOptionsBool("-breakdown", "Time the operator and the fused passes of every solve (PETSc's logging)", NULL, breakdown, &breakdown, NULL));
  PetscCall(PetscOptionsBool("-stream", "Measure the STREAM triad", NULL, stream, &stream, NULL));
  PetscCall(PetscOptionsString("-csv", "Append one CSV row per (m, method) to this file", NULL, csvname, csvname, sizeof(csvname), NULL));
  PetscCall(PetscOptionsString("-layout_csv", "Append one CSV row per m of the layout study to this file", NULL, laycsvname, laycsvname, sizeof(laycsvname), NULL));
  PetscOptionsEnd();
  PetscCall(BenchHelpOnly(&helponly));
  if (helponly) {
    PetscCall(PetscFinalize());
    return 0;
  }
  if (breakdown) PetscCall(PetscLogDefaultBegin());
  PetscCheck(n >= 2, comm, PETSC_ERR_ARG_OUTOFRANGE, "-n %" PetscInt_FMT " must be >= 2", n);
  PetscCheck(its >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-its %" PetscInt_FMT " must be >= 1", its);
  PetscCheck(runs >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-runs %" PetscInt_FMT " must be >= 1", runs);
  PetscCheck(nm >= 1, comm, PETSC_ERR_ARG_WRONG, "-m needs at least one number of right-hand sides");
  for (PetscInt i = 0; i < nm; i++) PetscCheck(mlist[i] >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-m %" PetscInt_FMT " must be >= 1", mlist[i]);

  if (dim == 3 && problem == STENCIL_POISSON) PetscCall(BenchLaplacian(comm, n, &da, &A, &b, &x, &nnz));
  else PetscCall(BenchProblem(comm, dim, problem, peclet, n, &da, &A, &b, &x, &nnz));
  PetscCall(VecGetLocalSize(b, &nloc));
  PetscCall(MatGetSize(A, &N, NULL));
  mbytes = 12.0 * nnz + 4.0 * (N + 1); /* the matrix: values and column indices, row pointers */
  if (stream) {
    PetscCall(StreamTriad(comm, nloc, &mstream, &gbs));
    triad = (PetscReal)gbs;
  }
  PetscCall(TimedSpMV(A, b, x, &tspmv));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));

  PetscCall(PetscPrintf(comm, "Multiple right-hand sides benchmark (cakrylov %s): %d MPI rank%s, %s %" PetscInt_FMT "D, n = %" PetscInt_FMT ", N = %" PetscInt_FMT ", nnz = %.0f, PC %s, %" PetscInt_FMT " iterations per solve, %" PetscInt_FMT " timed solve%s per (m, method)\n", CAKRYLOV_VERSION_STRING, size, size > 1 ? "s" : "", StencilProblems[problem], dim, n, N, (double)nnz, PCTypes[pc], its, runs, runs > 1 ? "s" : ""));
  if (stream) PetscCall(PetscPrintf(comm, "STREAM triad (a = b + 3 c, %" PetscInt_FMT " doubles per array on rank 0, all ranks at once, best of %d): %.2f GB/s\n", mstream, STREAM_REPS, (double)triad));
  else PetscCall(PetscPrintf(comm, "STREAM triad: not measured (-stream false)\n"));
  PetscCall(PetscPrintf(comm, "SpMV alone (MatMult, AIJ, median of 10): %.3f ms\n\n", (double)(1e3 * tspmv)));

  if (layout) {
    lfp = NULL;
    if (laycsvname[0]) PetscCall(OpenCSV(comm, laycsvname, "ranks,n,N,m,dense_ms,maij_ms,separate_ms,dense_passes,dense_mb,maij_mb,dense_gbs,maij_gbs,triad_gbs,faster", &lfp));
    PetscCall(PetscPrintf(comm, "Layout of m columns for one SpMV (median of 10, slowest rank): dense column-major (AIJ x MATDENSE, MatProductNumeric()) vs interleaved (MatCreateMAIJ(A, m), MatMult())\n"));
    for (PetscInt i = 0; i < nm; i++)
      if (mlist[i] > 1) PetscCall(LayoutStudy(A, n, mlist[i], mbytes, tspmv, triad, lfp));
    PetscCall(PetscPrintf(comm, "bytes (model): matrix M = 12 nnz + 4 (N+1) per pass over it (dense: PETSc's kernel passes once per 4 columns, then once per remaining column; MAIJ: once), plus 16 N per column (x read, y written)\n\n"));
    if (lfp) fclose(lfp);
  }

  fp = NULL;
  if (csvname[0]) PetscCall(OpenCSV(comm, csvname, "ranks,n,N,pc,m,its,runs,method,path,median_ms,min_ms,max_ms,speedup,model_mb,gbs,frac_triad,triad_gbs,spmv_ms", &fp));
  PetscCall(PetscMalloc3(runs, &t, runs, &tsp, runs, &tfu));
  for (PetscInt i = 0; i < nm; i++) {
    const PetscInt m = mlist[i];
    Mat            B, X;
    PetscRandom    rnd;

    PetscCall(MatCreateDense(comm, nloc, PETSC_DECIDE, N, m, NULL, &B));
    PetscCall(MatCreateDense(comm, nloc, PETSC_DECIDE, N, m, NULL, &X));
    PetscCall(PetscRandomCreate(comm, &rnd));
    PetscCall(PetscRandomSetFromOptions(rnd));
    PetscCall(MatSetRandom(B, rnd));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(MatZeroEntries(X));
    PetscCall(PetscPrintf(comm, "m = %" PetscInt_FMT " right-hand sides              time per RHS-iteration [ms]   speedup over   bytes per RHS-iteration (model)\n", m));
    PetscCall(PetscPrintf(comm, "method             path        median     min     max   bcgs-separate      MB     GB/s  of triad\n"));
    PetscCall(PetscPrintf(comm, "-----------------  -------  --------  ------  ------  -------------  ------  -------  --------\n"));
    for (PetscInt k = 0; k < NMETHODS; k++) {
      PetscBool block = PETSC_FALSE, dense = PETSC_FALSE, onepass = PETSC_FALSE;
      char      speedstr[16] = "-";
      PetscReal tmin = PETSC_MAX_REAL, tmax = 0.0, spmv, pcbytes, bytes, speedup = -1.0;
      PetscInt  nspmv = 0;

      if (!selected[k]) continue;
      PetscCall(TimeMethod(A, pc, &methods[k], B, X, m, its, runs, t, tsp, tfu, &nspmv, &block, &dense, &onepass));
      for (PetscInt r = 0; r < runs; r++) {
        tmin = PetscMin(tmin, t[r]);
        tmax = PetscMax(tmax, t[r]);
      }
      PetscCall(Median(runs, t, &med[k]));
      if (selected[0]) {
        speedup = med[0] / med[k];
        PetscCall(PetscSNPrintf(speedstr, sizeof(speedstr), "%.3f", (double)speedup));
      }
      spmv    = block ? ((dense && !onepass ? DensePasses(m) : 1) * mbytes + 16.0 * N * m) / m : mbytes + 16.0 * N; /* per column; interleaved: MAIJ, one pass */
      pcbytes = pc ? methods[k].pcapps * 24.0 * N : (methods[k].ours ? 0.0 : 2.0 * 16.0 * N);                       /* jacobi: its applications; none: PETSc's types copy twice */
      bytes   = methods[k].spmvs * spmv + pcbytes + 8.0 * N * methods[k].vec[pc];
      PetscCall(PetscPrintf(comm, "%-17s  %-7s  %8.3f  %6.2f  %6.2f  %13s  %6.1f  %7.2f  %7.1f%%\n", methods[k].name, block ? (dense ? (onepass ? "window" : "dense") : "inter") : "columns", (double)(1e3 * med[k]), (double)(1e3 * tmin), (double)(1e3 * tmax), speedstr, (double)(bytes / 1e6), (double)(bytes / med[k] / 1e9), (double)(stream ? 100.0 * bytes / med[k] / 1e9 / triad : 0.0)));
      if (fp)
        fprintf(fp, "%d,%d,%d,%s,%d,%d,%d,%s,%s,%.6g,%.6g,%.6g,%.4f,%.6g,%.4g,%.4f,%.4g,%.6g\n", (int)size, (int)n, (int)N, PCTypes[pc], (int)m, (int)its, (int)runs, methods[k].name, block ? (dense ? (onepass ? "window" : "dense") : "inter") : "columns", (double)(1e3 * med[k]), (double)(1e3 * tmin), (double)(1e3 * tmax), (double)speedup, (double)(bytes / 1e6), (double)(bytes / med[k] / 1e9), (double)(stream ? bytes / med[k] / 1e9 / triad : 0.0), (double)triad, (double)(1e3 * tspmv));
      if (breakdown) PetscCall(PrintBreakdown(comm, runs, tsp, tfu, tmin, tmax, nspmv, block ? ((dense && !onepass ? DensePasses(m) : 1) * mbytes + 16.0 * N * m) : mbytes + 16.0 * N, 8.0 * N * m * methods[k].vec[pc] * its, stream ? triad : 0.0));
    }
    if (selected[2] && selected[6]) PetscCall(PetscPrintf(comm, "pipebcgsm against %" PetscInt_FMT " separate pipebcgs solves (the paper's comparison of its pipelined block): %.3fx\n", m, (double)(med[2] / med[6])));
    if (selected[8] && selected[9]) PetscCall(PetscPrintf(comm, "cabicgstab's block against %" PetscInt_FMT " separate cabicgstab solves: %.3fx\n", m, (double)(med[8] / med[9])));
    PetscCall(PetscPrintf(comm, "\n"));
    PetscCall(MatDestroy(&X));
    PetscCall(MatDestroy(&B));
  }
  if (fp) fclose(fp);
  PetscCall(PetscPrintf(comm, "time per RHS-iteration = solve time / (iterations x m), slowest rank, median of the timed solves (per-solve work included: initial\n"));
  PetscCall(PetscPrintf(comm, "  residual, rbicgstab's lagged norm); speedup = bcgs-separate's median / the method's. path: the m columns advanced together\n"));
  PetscCall(PetscPrintf(comm, "  (one reduction per reduction point for all columns) in the interleaved layout (inter: one MAIJ MatMult() per SpMV, one pass per fused\n"));
  PetscCall(PetscPrintf(comm, "  group for all columns) or the dense one (dense: one AIJ x dense product per SpMV, fused groups per column); columns = one KSPSolve() per column.\n"));
  PetscCall(PetscPrintf(comm, "bytes per RHS-iteration (model) = the SpMVs (2 per iteration; cabicgstab (4s-1)/s) (block: (passes M + 16 N m) / m, passes = 1 inter, m/4 + m mod 4 dense; columns: M + 16 N; M = 12 nnz + 4 (N+1))\n"));
  PetscCall(PetscPrintf(comm, "  + PC (jacobi: 24 N per application, 2 per iteration, cabicgstab 4; none: PETSc's bcgs copies the vector twice, 2 x 16 N, the library's types skip it) + vecs x 8 N (merged.c's\n"));
  PetscCall(PetscPrintf(comm, "  counts: bcgs 21, bcgsm 18, pipebcgsm 25 / 34 with a PC, rbicgstab 16 / 21; cabicgstab 22.5 / 23.5 at s = 4, 25.1 / 25.5 Chebyshev s = 8). GB/s = model bytes / median time; of triad: that over the\n"));
  PetscCall(PetscPrintf(comm, "  STREAM triad of this run (time x triad bandwidth = the bytes the triad would move in that time).\n"));
  PetscCall(PetscMemoryGetMaximumUsage(&peak));
  PetscCallMPI(MPI_Allreduce(&peak, &peaksum, 1, MPI_DOUBLE, MPI_SUM, comm));
  PetscCall(PetscPrintf(comm, "peak resident memory of the run, all ranks: %.2f GB\n\n", (double)(peaksum / 1e9)));

  PetscCall(PetscFree3(t, tsp, tfu));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}
