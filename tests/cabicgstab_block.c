static char help[] = "KSPMatSolve() with KSPCABICGSTAB: one global reduction per outer round for all columns, each column as its KSPSolve().\n"
                     "-problem <poisson|convdiff>, -dim <2|3>, -n <points per direction>, -nrhs <m>, -nonzero_guess\n"
                     "-zero_column <j>, -nan_column <j>, -scale_column <j> -column_scale <s> : column j is zero, has a NaN entry, or is\n"
                     "  s times its pattern (columns whose norms differ by s); -early: it converges before the others (verdict)\n"
                     "-count_reductions : global reductions counted by MPI (2 or more ranks) against the solver's count and the outer rounds\n"
                     "-shell_jacobi : Jacobi as a PCSHELL whose PCMatApply() records a block of no columns (verdict: none)\n"
                     "-shell_operator : the operator a MATSHELL (MatMult() and MatGetDiagonal() of the assembled one): no one-pass product\n"
                     "-check_one_pass : solve again with -ksp_cabicgstab_one_pass_product false (PETSc's AIJ x dense product): X bitwise the same\n"
                     "-check_new_s : a block solve at s + 1 (new column bases and vectors) sets up no vector layout (no MPI_Allgather)\n"
                     "Every KSP option applies to the block solver and to the reference (a KSPSolve() per column) alike.\n";

#include <cakrylov.h>
#include <cakrylov/private/compat.h>
#include <petscdmda.h>

#include "reductioncounter.h"
#include "stencil.h"
#include "blocktests.h"

typedef struct {
  StencilProblem problem;
  PetscInt       dim, n, m, zero, nan, scaled;
  PetscReal      scale;
  PetscBool      nonzero, count, early, shell, one_pass, new_s, shell_op;
} Options;

static Vec      shell_idiag;        /* -shell_jacobi: 1 / diag(A) */
static PetscInt shell_empty_blocks; /* PCMatApply()s of the shell given no columns */

static PetscErrorCode GetOptions(Options *o)
{
  PetscFunctionBegin;
  *o = (Options){STENCIL_POISSON, 2, 24, 6, -1, -1, -1, 1e20, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE};
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "KSPMatSolve() of KSPCABICGSTAB", NULL);
  PetscCall(PetscOptionsEnum("-problem", "Operator", NULL, StencilProblems, (PetscEnum)o->problem, (PetscEnum *)&o->problem, NULL));
  PetscCall(PetscOptionsInt("-dim", "2 or 3", NULL, o->dim, &o->dim, NULL));
  PetscCall(PetscOptionsInt("-n", "Grid points per direction", NULL, o->n, &o->n, NULL));
  PetscCall(PetscOptionsInt("-nrhs", "Columns", NULL, o->m, &o->m, NULL));
  PetscCall(PetscOptionsBool("-nonzero_guess", "Start from a nonzero initial guess", NULL, o->nonzero, &o->nonzero, NULL));
  PetscCall(PetscOptionsInt("-zero_column", "A zero column", NULL, o->zero, &o->zero, NULL));
  PetscCall(PetscOptionsInt("-nan_column", "A column with a NaN", NULL, o->nan, &o->nan, NULL));
  PetscCall(PetscOptionsInt("-scale_column", "A column scaled by -column_scale", NULL, o->scaled, &o->scaled, NULL));
  PetscCall(PetscOptionsReal("-column_scale", "Its scale", NULL, o->scale, &o->scale, NULL));
  PetscCall(PetscOptionsBool("-early", "The scaled column converges before the others (verdict)", NULL, o->early, &o->early, NULL));
  PetscCall(PetscOptionsBool("-count_reductions", "Count global reductions (2 or more ranks)", NULL, o->count, &o->count, NULL));
  PetscCall(PetscOptionsBool("-shell_jacobi", "Jacobi as a PCSHELL that records PCMatApply()s of no columns", NULL, o->shell, &o->shell, NULL));
  PetscCall(PetscOptionsBool("-check_one_pass", "Solve again with PETSc's AIJ x dense product: X bitwise the same", NULL, o->one_pass, &o->one_pass, NULL));
  PetscCall(PetscOptionsBool("-check_new_s", "A block solve at s + 1 sets up no vector layout", NULL, o->new_s, &o->new_s, NULL));
  PetscCall(PetscOptionsBool("-shell_operator", "The operator a MATSHELL of the assembled one", NULL, o->shell_op, &o->shell_op, NULL));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* B: column j is sin((j + 1) (i + 1) / 7) + 1 at global row i (times -column_scale, zero or with a NaN for the special
   columns); X0: the initial guess, 1/2 everywhere with -nonzero_guess (else 0) */
static PetscErrorCode CreateColumns(const Options *o, Mat A, Mat *B, Mat *X0)
{
  PetscInt     nloc, lo;
  PetscScalar *b;

  PetscFunctionBegin;
  PetscCall(MatGetLocalSize(A, &nloc, NULL));
  PetscCall(MatGetOwnershipRange(A, &lo, NULL));
  PetscCall(MatCreateDense(PETSC_COMM_WORLD, nloc, PETSC_DECIDE, PETSC_DETERMINE, o->m, NULL, B));
  PetscCall(MatCreateDense(PETSC_COMM_WORLD, nloc, PETSC_DECIDE, PETSC_DETERMINE, o->m, NULL, X0));
  PetscCall(MatDenseGetArrayWrite(*B, &b));
  for (PetscInt j = 0; j < o->m; j++)
    for (PetscInt i = 0; i < nloc; i++) {
      PetscScalar v = PetscSinReal((PetscReal)((j + 1) * (lo + i + 1)) / 7.0) + 1.0;

      if (j == o->zero) v = 0.0;
      if (j == o->scaled) v *= o->scale;
      if (j == o->nan && lo + i == 0) v = NAN;
      b[j * nloc + i] = v;
    }
  PetscCall(MatDenseRestoreArrayWrite(*B, &b));
  PetscCall(MatDenseGetArrayWrite(*X0, &b));
  for (PetscInt k = 0; k < o->m * nloc; k++) b[k] = o->nonzero ? 0.5 : 0.0;
  PetscCall(MatDenseRestoreArrayWrite(*X0, &b));
  PetscCall(MatAssemblyBegin(*B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(*X0, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*X0, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -shell_jacobi: y = D^{-1} x, column by column for a block (PCMatApply() of PCJACOBI is the same) */
static PetscErrorCode ShellJacobiApply(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  (void)pc;
  PetscCall(VecPointwiseMult(y, shell_idiag, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ShellJacobiMatApply(PC pc, Mat X, Mat Y)
{
  PetscInt N;

  PetscFunctionBegin;
  PetscCall(MatGetSize(X, NULL, &N));
  if (!N) shell_empty_blocks++;
  for (PetscInt j = 0; j < N; j++) {
    Vec x, y;

    PetscCall(MatDenseGetColumnVecRead(X, j, &x));
    PetscCall(MatDenseGetColumnVecWrite(Y, j, &y));
    PetscCall(ShellJacobiApply(pc, x, y));
    PetscCall(MatDenseRestoreColumnVecWrite(Y, j, &y));
    PetscCall(MatDenseRestoreColumnVecRead(X, j, &x));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -shell_operator: y = A x and diag(A) of the assembled operator behind a MATSHELL, which has no rows to read (no
   MatGetInfo(), no one-pass plan: the block takes PETSc's product, a MatMult() per column) */
static PetscErrorCode ShellOperatorMult(Mat S, Vec x, Vec y)
{
  Mat A;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(S, &A));
  PetscCall(MatMult(A, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ShellOperatorGetDiagonal(Mat S, Vec d)
{
  Mat A;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(S, &A));
  PetscCall(MatGetDiagonal(A, d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateShellOperator(Mat A, Mat *S)
{
  PetscInt m, n, M, N;

  PetscFunctionBegin;
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)A), m, n, M, N, A, S));
  PetscCall(MatShellSetOperation(*S, MATOP_MULT, (void (*)(void))ShellOperatorMult));
  PetscCall(MatShellSetOperation(*S, MATOP_GET_DIAGONAL, (void (*)(void))ShellOperatorGetDiagonal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A KSP of the options database's settings (cabicgstab unless -ksp_type says otherwise) */
static PetscErrorCode CreateSolver(const Options *o, Mat A, KSP *ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, ksp));
  PetscCall(KSPSetOperators(*ksp, A, A));
  PetscCall(KSPSetType(*ksp, KSPCABICGSTAB));
  PetscCall(KSPSetTolerances(*ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 2000));
  PetscCall(KSPSetInitialGuessNonzero(*ksp, o->nonzero));
  if (o->shell) {
    PC pc;

    if (!shell_idiag) {
      PetscCall(MatCreateVecs(A, &shell_idiag, NULL));
      PetscCall(MatGetDiagonal(A, shell_idiag));
      PetscCall(VecReciprocal(shell_idiag));
    }
    PetscCall(KSPGetPC(*ksp, &pc));
    PetscCall(PCSetType(pc, PCSHELL));
    PetscCall(PCShellSetApply(pc, ShellJacobiApply));
    PetscCall(PCShellSetMatApply(pc, ShellJacobiMatApply));
  }
  PetscCall(KSPSetFromOptions(*ksp));
  PetscCall(KSPSetUp(*ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The block solve, counted after a first one (which builds the column solvers, the products and the spectrum
   estimate): the reductions seen by MPI against those the solver counts, and against one per outer round (the
   residual history has an entry per round) plus ||b|| with a nonzero guess and the checked convergence claims
*/
static PetscErrorCode SolveBlock(const Options *o, KSP ksp, Mat B, Mat X0, Mat X)
{
  KSPCABiCGStabStatistics before, after;
  PetscInt                rounds, batch = PETSC_DECIDE, nan = o->nan >= 0 ? 1 : 0;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ksp_matsolve_batch_size", &batch, NULL));
  PetscCall(MatCopy(X0, X, SAME_NONZERO_PATTERN));
  PetscCall(KSPMatSolve(ksp, B, X));
  PetscCall(KSPSetResidualHistory(ksp, NULL, PETSC_DECIDE, PETSC_TRUE));
  PetscCall(KSPCABiCGStabGetStatistics(ksp, &before));
  PetscCall(MatCopy(X0, X, SAME_NONZERO_PATTERN));
  nreductions = 0;
  counting    = PETSC_TRUE;
  PetscCall(KSPMatSolve(ksp, B, X));
  counting = PETSC_FALSE;
  PetscCall(KSPCABiCGStabGetStatistics(ksp, &after));
  PetscCall(KSPGetResidualHistory(ksp, NULL, &rounds));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "a repeated block solve makes no spectrum estimate: %s\n", after.estimates == before.estimates ? "yes" : "NO"));
  if (o->shell) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "no PCMatApply() of a block of no columns: %s\n", shell_empty_blocks ? "NO" : "yes"));
  if (o->count) { /* a NaN norm costs PETSc's KSPCheckNorm() a reduction (it agrees on the PC's failure), as in KSPSolve() */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "global reductions counted by MPI = those the solver counts (+1 for a NaN column): %s\n", nreductions == after.reductions - before.reductions + nan ? "yes" : "NO"));
    if (nreductions != after.reductions - before.reductions + nan) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %" PetscInt_FMT " counted, %" PetscInt_FMT " by the solver\n", nreductions, after.reductions - before.reductions));
  }
  if (batch > 0 && batch < o->m) PetscFunctionReturn(PETSC_SUCCESS); /* several block solves, the history of the last */
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the block solve is one solve of the statistics, with as many outer iterations as residual-history entries: %s\n", after.solves == before.solves + 1 && after.outer - before.outer == rounds ? "yes" : "NO"));
  if (o->count && !nan) {
    const PetscInt expected = rounds + (o->nonzero ? 1 : 0) + (after.checks - before.checks);

    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "global reductions = one per outer round for all columns (+ ||b|| with a nonzero guess, + checked claims): %s\n", nreductions == expected ? "yes" : "NO"));
    if (nreductions != expected) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %" PetscInt_FMT " counted, %" PetscInt_FMT " expected\n", nreductions, expected));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Each column against its KSPSolve() on a KSP of the same options: the same reason, iterations within max(2, 25 %) (the
   block's products and its larger reduction round otherwise, and BiCGStab's count moves with rounding: the single
   solves of these problems take 51 to 59 iterations on 1 to 4 ranks), the true residual within 1.01 max(rtol ||b_j||, atol) in the test's
   norm; with one column, X bitwise KSPSolve()'s (a run of one column applies the operator as KSPSolve() does)
*/
static PetscErrorCode CompareColumns(const Options *o, KSP ksp, Mat A, Mat B, Mat X0, Mat X)
{
  KSP                       single;
  const KSPConvergedReason *reasons;
  const PetscInt           *its;
  PetscInt                  nb, offset, maxits = 0, failed = -1, bits;
  PetscReal                 rtol, atol;
  KSPConvergedReason        breason;
  PetscBool                 same = PETSC_TRUE, itsok = PETSC_TRUE, resid = PETSC_TRUE, bitwise = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(CAKrylovKSPGetMatSolveConvergedReasons(ksp, &nb, &reasons, &its));
  offset = o->m - nb; /* -ksp_matsolve_batch_size: the reasons are those of the last batch */
  PetscCall(KSPGetConvergedReason(ksp, &breason));
  PetscCall(KSPGetIterationNumber(ksp, &bits));
  PetscCall(KSPGetTolerances(ksp, &rtol, &atol, NULL, NULL));
  PetscCall(CreateSolver(o, A, &single));
  for (PetscInt j = 0; j < o->m; j++) {
    Vec                b, x, xs, r;
    PetscInt           sits;
    KSPConvergedReason sreason;
    PetscReal          rn, bn;

    PetscCall(MatCreateVecs(A, &xs, &r));
    PetscCall(MatDenseGetColumnVecRead(X0, j, &x));
    PetscCall(VecCopy(x, xs));
    PetscCall(MatDenseRestoreColumnVecRead(X0, j, &x));
    PetscCall(MatDenseGetColumnVecRead(B, j, &b));
    PetscCall(KSPSolve(single, b, xs));
    PetscCall(KSPGetIterationNumber(single, &sits));
    PetscCall(KSPGetConvergedReason(single, &sreason));
    if (j >= offset) { /* a column of the last batch */
      const PetscInt jb = j - offset;

      maxits = PetscMax(maxits, its[jb]);
      if (reasons[jb] < 0 && failed < 0) failed = jb;
      if (reasons[jb] != sreason) same = PETSC_FALSE;
      if (PetscAbsInt(its[jb] - sits) > PetscMax(2, sits / 4)) itsok = PETSC_FALSE;
      if (reasons[jb] != sreason || PetscAbsInt(its[jb] - sits) > PetscMax(2, sits / 4))
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  column %" PetscInt_FMT ": block %s in %" PetscInt_FMT ", single %s in %" PetscInt_FMT "\n", j, KSPConvergedReasons[reasons[jb]], its[jb], KSPConvergedReasons[sreason], sits));
    }
    PetscCall(MatDenseGetColumnVecRead(X, j, &x));
    if (j != o->nan) {
      PetscCall(MatMult(A, x, r));
      PetscCall(VecAYPX(r, -1.0, b));
      PetscCall(TestNorm(ksp, r, &rn));
      PetscCall(TestNorm(ksp, b, &bn));
      if (!(rn <= 1.01 * PetscMax(rtol * bn, atol))) {
        resid = PETSC_FALSE;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  column %" PetscInt_FMT ": ||r|| = %g, ||b|| = %g\n", j, (double)rn, (double)bn));
      }
    }
    if (o->m == 1) PetscCall(VecEqual(x, xs, &bitwise));
    PetscCall(MatDenseRestoreColumnVecRead(X, j, &x));
    PetscCall(MatDenseRestoreColumnVecRead(B, j, &b));
    PetscCall(VecDestroy(&xs));
    PetscCall(VecDestroy(&r));
  }
  PetscCall(KSPDestroy(&single));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "every column: the reason of its KSPSolve(): %s\n", same ? "yes" : "NO"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "every column: iterations within max(2, 25 %%) of its KSPSolve(): %s\n", itsok ? "yes" : "NO"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "every column but a NaN one: true residual <= 1.01 max(rtol ||b_j||, atol): %s\n", resid ? "yes" : "NO"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KSPGetIterationNumber() the largest column count, KSPGetConvergedReason() negative iff a column failed: %s\n", maxits == bits && (failed >= 0) == (breason < 0) && (failed < 0 || breason == reasons[failed]) ? "yes" : "NO"));
  if (o->nan >= offset) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "NaN column: %s\n", KSPConvergedReasons[reasons[o->nan - offset]]));
  if (o->zero >= offset) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "zero column: converged at iteration 0: %s\n", reasons[o->zero - offset] > 0 && its[o->zero - offset] == 0 ? "yes" : "NO"));
  if (o->m == 1) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "one column: x bitwise KSPSolve()'s: %s\n", bitwise ? "yes" : "NO"));
  if (o->early && o->scaled >= offset) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "scaled column: converged before the longest column: %s\n", reasons[o->scaled - offset] > 0 && its[o->scaled - offset] < bits ? "yes" : "NO"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The one-pass products so far (the log event of CAKrylovMatMultColumns()) */
static PetscErrorCode OnePassProducts(PetscInt *count)
{
  PetscLogEvent      e;
  PetscEventPerfInfo info;

  PetscFunctionBegin;
  PetscCall(PetscLogEventGetId("CAKMatMultCols", &e));
  PetscCall(PetscLogEventGetPerfInfo(0, e, &info));
  *count = info.count;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -check_one_pass: the block solve again with PETSc's AIJ x dense product instead of the library's one-pass product
   (CAKrylovMatMultColumns(), on a MATSEQAIJ, or a MATMPIAIJ's diagonal block and then its off-diagonal block on the
   halo): both sum each entry over its row (each block's part) in the matrix's order, so X is bitwise the same */
static PetscErrorCode CheckOnePass(KSP ksp, Mat B, Mat X0, Mat X)
{
  Mat                Xp;
  const PetscScalar *x, *xp;
  PetscInt           m, n, ld, ldp, before, after;
  PetscBool          same = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(MatDuplicate(X0, MAT_COPY_VALUES, &Xp));
  PetscCall(PetscOptionsSetValue(NULL, "-ksp_cabicgstab_one_pass_product", "false"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(OnePassProducts(&before));
  PetscCall(KSPMatSolve(ksp, B, Xp));
  PetscCall(OnePassProducts(&after));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the one-pass product applied the operator, and only with it on: %s\n", before > 0 && after == before ? "yes" : "NO"));
  PetscCall(PetscOptionsClearValue(NULL, "-ksp_cabicgstab_one_pass_product"));
  PetscCall(MatGetLocalSize(X, &n, NULL));
  PetscCall(MatGetSize(X, NULL, &m));
  PetscCall(MatDenseGetArrayRead(X, &x));
  PetscCall(MatDenseGetArrayRead(Xp, &xp));
  PetscCall(MatDenseGetLDA(X, &ld));
  PetscCall(MatDenseGetLDA(Xp, &ldp));
  for (PetscInt j = 0; j < m && same; j++) PetscCall(PetscArraycmp(x + j * ld, xp + j * ldp, n, &same));
  PetscCall(MatDenseRestoreArrayRead(Xp, &xp));
  PetscCall(MatDenseRestoreArrayRead(X, &x));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &same, 1, CAKRYLOV_MPI_BOOL, MPI_LAND, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "X with PETSc's AIJ x dense product bitwise X with the one-pass product: %s\n", same ? "yes" : "NO"));
  PetscCall(MatDestroy(&Xp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A block solve at a new s makes new column bases with a vector on each basis column: they share the system's layout,
   where a new layout is an MPI_Allgather on the whole communicator (368 in the first block solve of 16 columns at s = 4).
   It keeps the column solvers and the one-pass plan of the solves before: X bitwise that of a new KSP at that s. */
static PetscErrorCode CheckNewS(const Options *o, KSP ksp, Mat A, Mat B, Mat X0, Mat X)
{
  PetscInt           s, n, ld, ldf;
  KSP                fresh;
  Mat                Xf;
  const PetscScalar *x, *xf;
  PetscBool          same = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(KSPCABiCGStabGetS(ksp, &s));
  PetscCall(KSPCABiCGStabSetS(ksp, s + 1));
  PetscCall(MatCopy(X0, X, SAME_NONZERO_PATTERN));
  nallgathers = 0;
  counting    = PETSC_TRUE;
  PetscCall(KSPMatSolve(ksp, B, X));
  counting = PETSC_FALSE;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "a block solve at a new s sets up no vector layout (no MPI_Allgather): %s\n", nallgathers ? "NO" : "yes"));
  if (nallgathers) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %" PetscInt_FMT " MPI_Allgather\n", nallgathers));
  PetscCall(CreateSolver(o, A, &fresh));
  PetscCall(KSPCABiCGStabSetS(fresh, s + 1));
  PetscCall(MatDuplicate(X0, MAT_COPY_VALUES, &Xf));
  PetscCall(KSPMatSolve(fresh, B, Xf));
  PetscCall(MatGetLocalSize(X, &n, NULL));
  PetscCall(MatDenseGetArrayRead(X, &x));
  PetscCall(MatDenseGetLDA(X, &ld));
  PetscCall(MatDenseGetArrayRead(Xf, &xf));
  PetscCall(MatDenseGetLDA(Xf, &ldf));
  for (PetscInt j = 0; j < o->m && same; j++) PetscCall(PetscArraycmp(x + j * ld, xf + j * ldf, n, &same));
  PetscCall(MatDenseRestoreArrayRead(Xf, &xf));
  PetscCall(MatDenseRestoreArrayRead(X, &x));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &same, 1, CAKRYLOV_MPI_BOOL, MPI_LAND, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "X of the block solve at the new s bitwise that of a new KSP at that s: %s\n", same ? "yes" : "NO"));
  PetscCall(MatDestroy(&Xf));
  PetscCall(KSPDestroy(&fresh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Options o;
  DM      da;
  Mat     A, S = NULL, B, X0, X;
  KSP     ksp;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(CAKrylovInitializePackage());
  PetscCall(GetOptions(&o));
  if (o.one_pass) PetscCall(PetscLogDefaultBegin()); /* the one-pass products counted by their event */
  PetscCall(StencilCreateDMDA(PETSC_COMM_WORLD, o.dim, o.n, DM_BOUNDARY_NONE, &da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(AssembleStencilOperator(da, o.problem, 1.0, A));
  PetscCall(CreateColumns(&o, A, &B, &X0));
  PetscCall(MatDuplicate(X0, MAT_DO_NOT_COPY_VALUES, &X));
  if (o.shell_op) PetscCall(CreateShellOperator(A, &S));
  PetscCall(CreateSolver(&o, S ? S : A, &ksp));
  PetscCall(SolveBlock(&o, ksp, B, X0, X));
  PetscCall(CompareColumns(&o, ksp, S ? S : A, B, X0, X));
  if (o.one_pass) PetscCall(CheckOnePass(ksp, B, X0, X));
  if (o.new_s) PetscCall(CheckNewS(&o, ksp, S ? S : A, B, X0, X));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&X));
  PetscCall(MatDestroy(&X0));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&S));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(VecDestroy(&shell_idiag));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST
   # m columns in one block against a KSPSolve() per column
   test:
      suffix: converged
      nsize: {{1 2 4}}
      args: -nrhs 6 -pc_type {{none jacobi}} -ksp_pc_side {{left right}}

   # the one-pass product of a MATSEQAIJ (1 rank) and of a MATMPIAIJ (2, 4 ranks: the diagonal block in the window, the
   # off-diagonal block on the halo of all columns; 4 ranks in 3D: rows with two off-diagonal entries, where MatMult()
   # sums in another order than the AIJ x dense product) against PETSc's AIJ x dense product: the same bits, also where
   # late in the solve a column still iterating lies between converged ones (the one pass spans them, PETSc's product
   # takes that column alone: a product of one column, not MatMult()); 13 columns (a tile of 8, 5 columns one by one),
   # 2D and 3D, the preconditioner applied before (right) and after (left) the product
   test:
      suffix: one_pass
      nsize: {{1 2 4}}
      requires: defined(PETSC_USE_LOG)
      args: -nrhs 13 -dim {{2 3}} -n 12 -pc_type {{none jacobi}} -ksp_pc_side {{left right}} -check_one_pass
      filter: grep -e "bitwise X with the one-pass" -e "one-pass product applied"

   # the same with a window of 8 KiB: the columns in groups (2D: 8 + 5 columns, 3D: 2 at a time), each one pass
   test:
      suffix: one_pass_groups
      nsize: {{1 2}}
      requires: defined(PETSC_USE_LOG)
      args: -nrhs 13 -dim {{2 3}} -n 12 -pc_type jacobi -ksp_pc_side {{left right}} -ksp_cabicgstab_one_pass_window 8192 -check_one_pass
      filter: grep -e "bitwise X with the one-pass" -e "one-pass product applied"
      output_file: output/cabicgstab_block_one_pass.out

   # the same where the product's result (176400 rows x 13 columns, 18 MB) is written with streaming stores, the
   # monomial basis's scaling applied as it is stored, and the Chebyshev basis (shifts: scaled after the product)
   test:
      suffix: one_pass_stream
      requires: defined(PETSC_USE_LOG)
      args: -nrhs 13 -dim 2 -n 420 -pc_type none -ksp_max_it 12 -ksp_cabicgstab_basis {{monomial chebyshev}} -check_one_pass
      filter: grep -e "bitwise X with the one-pass" -e "one-pass product applied"

   # a preconditioner of the user's (PCSHELL): the bases apply it to runs of columns, never to an empty one (PETSc 3.26's
   # PCMG stops on an empty block)
   test:
      suffix: shell
      nsize: {{1 2}}
      args: -nrhs 5 -shell_jacobi -ksp_pc_side {{left right}} -ksp_cabicgstab_s {{2 4}}

   # an operator of the user's (MATSHELL: no rows for the one-pass product, no MatGetInfo()): PETSc's product, the same
   # verdicts
   test:
      suffix: shell_operator
      nsize: {{1 2}}
      args: -nrhs 4 -shell_operator -pc_type {{none jacobi}} -ksp_pc_side {{left right}}
      output_file: output/cabicgstab_block_converged.out

   # one column with the identity preconditioner: KSPSolve()'s iterates bit for bit (with a preconditioner the block
   # applies it with PCMatApply() and the operator as a product, which may round otherwise)
   test:
      suffix: one
      nsize: {{1 2}}
      args: -nrhs 1 -pc_type none -ksp_cabicgstab_basis {{monomial chebyshev}}

   # reductions counted by MPI: one per outer round for all columns
   test:
      suffix: count
      nsize: {{2 4}}
      args: -nrhs 6 -pc_type {{none jacobi}} -ksp_pc_side {{left right}} -count_reductions

   test:
      suffix: bases
      nsize: 2
      args: -nrhs 5 -problem convdiff -ksp_cabicgstab_basis {{monomial newton chebyshev}} -ksp_cabicgstab_s {{4 8}} -pc_type bjacobi -count_reductions
      output_file: output/cabicgstab_block_count.out

   test:
      suffix: nonzero_guess
      nsize: 2
      args: -nrhs 4 -nonzero_guess -pc_type jacobi -ksp_pc_side {{left right}} -count_reductions
      output_file: output/cabicgstab_block_count.out

   # a column of 1e20 (or 1e-20) beside columns of 1: each converges to its own tolerance
   test:
      suffix: scaled
      nsize: 2
      args: -nrhs 4 -scale_column 2 -column_scale {{1e20 1e-20}} -ksp_cabicgstab_basis chebyshev -ksp_cabicgstab_s 8 -count_reductions
      output_file: output/cabicgstab_block_count.out

   test:
      suffix: threed
      nsize: 2
      args: -dim 3 -n 12 -nrhs 8 -pc_type jacobi -ksp_cabicgstab_s {{2 4}} -ksp_cabicgstab_telescope {{0 1}} -count_reductions
      output_file: output/cabicgstab_block_count.out

   # a zero column converges at once, a NaN column ends with its reason, the others converge
   # a column of 1e-9 (||b|| 2.9e-8) with an absolute tolerance of 4e-8 converges in the first outer round, the others go on
   test:
      suffix: early
      nsize: {{1 2}}
      args: -nrhs 4 -scale_column 1 -column_scale 1e-9 -ksp_atol 4e-8 -pc_type jacobi -early

   # a new s between block solves: new column bases and views, no new vector layout (MPI_Allgather; 2 and 4 ranks), the
   # column solvers kept, X bitwise that of a new KSP at that s (also with PETSc's product: -ksp_cabicgstab_one_pass_product 0)
   test:
      suffix: new_s
      nsize: {{1 2 4}}
      args: -nrhs 5 -pc_type {{none jacobi}} -ksp_pc_side {{left right}} -ksp_cabicgstab_one_pass_product {{1 0}} -check_new_s
      filter: grep "new s"

   test:
      suffix: zero_nan
      nsize: {{2 4}}
      args: -nrhs 4 -zero_column 1 -nan_column 3 -pc_type jacobi -count_reductions

   # batches smaller than m: each batch is a block (the reasons are those of the last batch's columns)
   test:
      suffix: batch
      nsize: 2
      args: -nrhs 5 -ksp_matsolve_batch_size 2 -ksp_cabicgstab_s 6 -ksp_cabicgstab_basis newton -count_reductions
TEST*/
