static char help[] = "KSPMatSolve() with KSPBCGSM (or -ksp_type pipebcgsm, rbicgstab): m right-hand sides solved as one block against a KSPSolve() per column.\n"
                     "-problem <poisson|convdiff>, -dim <2|3>, -n <points per direction>, -nrhs <m>, -nonzero_guess\n"
                     "-zero_column <j>, -nan_column <j> : column j is zero, or has a NaN entry\n"
                     "-early_column <j>, -early_scale <s> : column j is s times column 0 (with -ksp_atol it converges early)\n"
                     "-user_test : a convergence test of the user's (KSPConvergedDefault() wrapped): the block path falls back to KSPSolve() per column\n"
                     "-count_reductions : global reductions of KSPMatSolve() against those of one KSPSolve() of its longest column\n"
                     "-layout_error : KSPMatSolve() in the interleaved layout must refuse the preconditioner (PETSC_ERR_SUP) first\n"
                     "-layout <auto|dense|interleaved> : the block's layout (CAKrylovKSPSetMatSolveLayout(), whatever the type)\n"
                     "-check_auto : the auto layout measured both and chose one, -ksp_view names it, and forcing it gives the same bits\n";

#include <cakrylov.h>
#include <cakrylov/private/compat.h>
#include <petscdmda.h>
#include <unistd.h> /* getpid() */

#include "reductioncounter.h"
#include "stencil.h"
#include "blocktests.h"

static PetscErrorCode UserConverged(KSP ksp, PetscInt n, PetscReal rnorm, KSPConvergedReason *reason, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(KSPConvergedDefault(ksp, n, rnorm, reason, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The test's problem, its block solver, the reference of a KSPSolve() per column, and the verdicts found */
typedef struct {
  /* options */
  StencilProblem         problem;
  PetscInt               dim, n, m, zero, nan, early;
  PetscReal              escale;
  PetscBool              nonzero, user, count, layout_error, layoutset, check_auto;
  CAKrylovMatSolveLayout layout;
  /* the problem: A, the m columns B, the initial guess X0, the solutions X */
  DM  da;
  Mat A, B, X, X0;
  /* the block solver and its settings, copied to the reference */
  KSP         ksp;
  PCType      pctype;
  PCSide      side;
  KSPNormType normtype;
  KSPType     type;
  PetscReal   rtol, atol, dtol;
  PetscInt    maxit, perit; /* perit: global reductions per iteration of one KSPSolve() */
  /* the reference: a KSPSolve() per column */
  PetscInt           *its_single, longest, nred_single;
  KSPConvergedReason *reason_single;
  /* the block solve */
  PetscInt                  nb, offset, its_block, nred_block;
  KSPConvergedReason        reason_block;
  const KSPConvergedReason *reasons;
  const PetscInt           *its;
} BlockTest;

static PetscErrorCode GetOptions(BlockTest *t)
{
  PetscFunctionBegin;
  t->problem = STENCIL_CONVDIFF;
  t->dim     = 2;
  t->n       = 24;
  t->m       = 4;
  t->zero = t->nan = t->early = -1;
  t->escale                   = 1e-5;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "KSPMatSolve() test", NULL);
  PetscCall(PetscOptionsEnum("-problem", "Operator", NULL, StencilProblems, (PetscEnum)t->problem, (PetscEnum *)&t->problem, NULL));
  PetscCall(PetscOptionsInt("-dim", "2 or 3", NULL, t->dim, &t->dim, NULL));
  PetscCall(PetscOptionsInt("-n", "Grid points per direction", NULL, t->n, &t->n, NULL));
  PetscCall(PetscOptionsInt("-nrhs", "Columns", NULL, t->m, &t->m, NULL));
  PetscCall(PetscOptionsBool("-nonzero_guess", "Start from a nonzero initial guess", NULL, t->nonzero, &t->nonzero, NULL));
  PetscCall(PetscOptionsInt("-zero_column", "A zero column", NULL, t->zero, &t->zero, NULL));
  PetscCall(PetscOptionsInt("-nan_column", "A column with a NaN", NULL, t->nan, &t->nan, NULL));
  PetscCall(PetscOptionsInt("-early_column", "A column scaled by -early_scale", NULL, t->early, &t->early, NULL));
  PetscCall(PetscOptionsReal("-early_scale", "Its scale", NULL, t->escale, &t->escale, NULL));
  PetscCall(PetscOptionsBool("-user_test", "A user convergence test", NULL, t->user, &t->user, NULL));
  PetscCall(PetscOptionsBool("-count_reductions", "Count global reductions", NULL, t->count, &t->count, NULL));
  PetscCall(PetscOptionsBool("-layout_error", "The interleaved layout refuses the PC first", NULL, t->layout_error, &t->layout_error, NULL));
  PetscCall(PetscOptionsEnum("-layout", "The block's layout", "CAKrylovKSPSetMatSolveLayout", CAKrylovMatSolveLayouts, (PetscEnum)t->layout, (PetscEnum *)&t->layout, &t->layoutset));
  PetscCall(PetscOptionsBool("-check_auto", "Check the auto layout's choice", NULL, t->check_auto, &t->check_auto, NULL));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A on the DMDA; B: m distinct columns b_j(i) = 1 + 0.5 sin(0.37 (j + 1)(i + 1)) of the global index i (the same on any
   number of ranks), with the special columns asked for; X0: the initial guess 0.1 sin(i + j) or zero; X = X0 */
static PetscErrorCode CreateProblem(BlockTest *t)
{
  PetscInt nloc, rstart, rend;

  PetscFunctionBegin;
  PetscCall(StencilCreateDMDA(PETSC_COMM_WORLD, t->dim, t->n, DM_BOUNDARY_NONE, &t->da));
  PetscCall(DMSetUp(t->da));
  PetscCall(DMCreateMatrix(t->da, &t->A));
  PetscCall(AssembleStencilOperator(t->da, t->problem, 0.5, t->A));
  PetscCall(MatGetLocalSize(t->A, &nloc, NULL));
  PetscCall(MatCreateDense(PETSC_COMM_WORLD, nloc, PETSC_DECIDE, PETSC_DETERMINE, t->m, NULL, &t->B));
  PetscCall(MatDuplicate(t->B, MAT_DO_NOT_COPY_VALUES, &t->X0));
  PetscCall(MatGetOwnershipRange(t->B, &rstart, &rend));
  for (PetscInt j = 0; j < t->m; j++) {
    for (PetscInt i = rstart; i < rend; i++) {
      PetscScalar v = 1.0 + 0.5 * PetscSinReal(0.37 * (j + 1) * (i + 1));

      if (j == t->early) v = t->escale * (1.0 + 0.5 * PetscSinReal(0.37 * (i + 1)));
      if (j == t->zero) v = 0.0;
      if (j == t->nan && i == 0) v = (PetscScalar)NAN;
      PetscCall(MatSetValue(t->B, i, j, v, INSERT_VALUES));
      PetscCall(MatSetValue(t->X0, i, j, t->nonzero ? 0.1 * PetscSinReal((PetscReal)(i + j)) : 0.0, INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(t->B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(t->B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(t->X0, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(t->X0, MAT_FINAL_ASSEMBLY));
  PetscCall(MatDuplicate(t->X0, MAT_COPY_VALUES, &t->X));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The block solver from the options (bcgsm by default, rtol 1e-8), with the user's test if asked; its settings */
static PetscErrorCode CreateSolver(BlockTest *t)
{
  PC        pc;
  PetscBool bcgsm;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &t->ksp));
  PetscCall(KSPSetOperators(t->ksp, t->A, t->A));
  PetscCall(KSPSetType(t->ksp, KSPBCGSM));
  PetscCall(KSPSetTolerances(t->ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetInitialGuessNonzero(t->ksp, t->nonzero));
  PetscCall(KSPSetFromOptions(t->ksp));
  if (t->layoutset) PetscCall(CAKrylovKSPSetMatSolveLayout(t->ksp, t->layout));
  if (t->user) {
    void *ctx;

    PetscCall(KSPConvergedDefaultCreate(&ctx));
    PetscCall(KSPSetConvergenceTest(t->ksp, UserConverged, ctx, KSPConvergedDefaultDestroy));
  }
  PetscCall(KSPSetUp(t->ksp));
  PetscCall(KSPGetPC(t->ksp, &pc));
  PetscCall(PCGetType(pc, &t->pctype));
  PetscCall(KSPGetPCSide(t->ksp, &t->side));
  PetscCall(KSPGetNormType(t->ksp, &t->normtype));
  PetscCall(KSPGetTolerances(t->ksp, &t->rtol, &t->atol, &t->dtol, &t->maxit));
  PetscCall(KSPGetType(t->ksp, &t->type));
  PetscCall(PetscStrcmp(t->type, KSPBCGSM, &bcgsm));
  t->perit = bcgsm ? 3 : 2;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The reference: a KSPSolve() per column on a KSP of its own with the same settings (and the first use of the PC); with
   -count_reductions, one more KSPSolve() of the longest column, counted */
static PetscErrorCode SolveColumns(BlockTest *t)
{
  KSP       single;
  PC        spc;
  PetscBool pipe;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &single));
  PetscCall(KSPSetOperators(single, t->A, t->A));
  PetscCall(KSPSetType(single, t->type));
  PetscCall(PetscStrcmp(t->type, KSPPIPEBCGSM, &pipe));
  if (pipe) {
    PetscInt period;

    PetscCall(KSPPIPEBCGSMGetReplacementPeriod(t->ksp, &period));
    PetscCall(KSPPIPEBCGSMSetReplacementPeriod(single, period));
  }
  PetscCall(KSPGetPC(single, &spc));
  PetscCall(PCSetType(spc, t->pctype));
  PetscCall(KSPSetPCSide(single, t->side));
  PetscCall(KSPSetNormType(single, t->normtype));
  PetscCall(KSPSetTolerances(single, t->rtol, t->atol, t->dtol, t->maxit));
  PetscCall(KSPSetInitialGuessNonzero(single, t->nonzero));
  PetscCall(PetscMalloc2(t->m, &t->its_single, t->m, &t->reason_single));
  t->longest = 0;
  for (PetscInt j = 0; j < t->m; j++) {
    Vec b, x;

    PetscCall(MatDenseGetColumnVecRead(t->B, j, &b));
    PetscCall(MatDenseGetColumnVecWrite(t->X, j, &x));
    PetscCall(KSPSolve(single, b, x));
    PetscCall(MatDenseRestoreColumnVecWrite(t->X, j, &x));
    PetscCall(MatDenseRestoreColumnVecRead(t->B, j, &b));
    PetscCall(KSPGetIterationNumber(single, &t->its_single[j]));
    PetscCall(KSPGetConvergedReason(single, &t->reason_single[j]));
    if (t->reason_single[j] > 0 && t->its_single[j] > t->its_single[t->longest]) t->longest = j;
  }
  if (t->count) {
    Vec b, x;

    PetscCall(MatCopy(t->X0, t->X, SAME_NONZERO_PATTERN));
    PetscCall(MatDenseGetColumnVecRead(t->B, t->longest, &b));
    PetscCall(MatDenseGetColumnVecWrite(t->X, t->longest, &x));
    nreductions = 0;
    counting    = PETSC_TRUE;
    PetscCall(KSPSolve(single, b, x));
    counting       = PETSC_FALSE;
    t->nred_single = nreductions;
    PetscCall(MatDenseRestoreColumnVecWrite(t->X, t->longest, &x));
    PetscCall(MatDenseRestoreColumnVecRead(t->B, t->longest, &b));
  }
  PetscCall(KSPDestroy(&single));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A PC other than the identity and PCJACOBI in the interleaved layout: a PETSc error, then the layout asked before */
static PetscErrorCode CheckLayoutError(BlockTest *t)
{
  CAKrylovMatSolveLayout layout;
  PetscErrorCode         ierr;

  PetscFunctionBegin;
  PetscCall(CAKrylovKSPGetMatSolveLayout(t->ksp, &layout));
  PetscCall(CAKrylovKSPSetMatSolveLayout(t->ksp, CAKRYLOV_MATSOLVE_LAYOUT_INTERLEAVED));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = KSPMatSolve(t->ksp, t->B, t->X);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the interleaved layout refuses PC %s with PETSC_ERR_SUP: %s\n", t->pctype, ierr == PETSC_ERR_SUP ? "yes" : "NO"));
  PetscCall(CAKrylovKSPSetMatSolveLayout(t->ksp, layout));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The block solve, counted; with -count_reductions after a first one that builds what the block path keeps (the
   products' symbolic phase issues a reduction per active-column count, as the PC's lazy setup does for a single solve) */
static PetscErrorCode SolveBlock(BlockTest *t)
{
  PetscFunctionBegin;
  if (t->count) {
    PetscCall(MatCopy(t->X0, t->X, SAME_NONZERO_PATTERN));
    PetscCall(KSPMatSolve(t->ksp, t->B, t->X));
  }
  PetscCall(MatCopy(t->X0, t->X, SAME_NONZERO_PATTERN));
  nreductions = 0;
  counting    = PETSC_TRUE;
  PetscCall(KSPMatSolve(t->ksp, t->B, t->X));
  counting      = PETSC_FALSE;
  t->nred_block = nreductions;
  PetscCall(KSPGetConvergedReason(t->ksp, &t->reason_block));
  PetscCall(KSPGetIterationNumber(t->ksp, &t->its_block));
  PetscCall(CAKrylovKSPGetMatSolveConvergedReasons(t->ksp, &t->nb, &t->reasons, &t->its));
  t->offset = t->m - t->nb; /* -ksp_matsolve_batch_size: the reasons are those of the last batch */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Per column: its reason and iterations against its KSPSolve() (*same, *itsok, *allconv), and the true residual of X's
   column in the norm of the test within 1.01 max(rtol ||b_j||, atol) (*resid); the zero column's verdict */
static PetscErrorCode CheckColumns(BlockTest *t, PetscBool *allconv, PetscBool *resid, PetscBool *same, PetscBool *itsok)
{
  PetscFunctionBegin;
  *allconv = *resid = *same = *itsok = PETSC_TRUE;
  for (PetscInt j = 0; j < t->m; j++) {
    Vec       b, x, r;
    PetscReal rn, bn;

    if (j >= t->offset) {
      const PetscInt jb = j - t->offset, allowed = PetscMax(1, t->its_single[j] / 10);

      if (t->reasons[jb] != t->reason_single[j]) {
        *same = PETSC_FALSE;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  column %" PetscInt_FMT ": block %s, single %s\n", j, KSPConvergedReasons[t->reasons[jb]], KSPConvergedReasons[t->reason_single[j]]));
      }
      if (PetscAbsInt(t->its[jb] - t->its_single[j]) > allowed) {
        *itsok = PETSC_FALSE;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  column %" PetscInt_FMT ": block %" PetscInt_FMT " iterations, single %" PetscInt_FMT "\n", j, t->its[jb], t->its_single[j]));
      }
      if (t->reasons[jb] <= 0 && j != t->nan) *allconv = PETSC_FALSE;
    }
    if (j == t->nan) continue;
    PetscCall(MatDenseGetColumnVecRead(t->B, j, &b));
    PetscCall(MatDenseGetColumnVecRead(t->X, j, &x));
    PetscCall(VecDuplicate(b, &r));
    PetscCall(MatMult(t->A, x, r));
    PetscCall(VecAYPX(r, -1.0, b));
    PetscCall(TestNorm(t->ksp, r, &rn));
    PetscCall(TestNorm(t->ksp, b, &bn));
    if (rn > 1.01 * PetscMax(t->rtol * bn, t->atol)) {
      *resid = PETSC_FALSE;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  column %" PetscInt_FMT ": ||r|| = %g, ||b|| = %g\n", j, (double)rn, (double)bn));
    }
    if (j == t->zero) {
      PetscReal xn;

      PetscCall(VecNorm(x, NORM_INFINITY, &xn));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "zero column: converged at iteration 0 with x = 0: %s\n", t->reasons[j - t->offset] > 0 && t->its[j - t->offset] == 0 && xn == 0.0 ? "yes" : "NO"));
    }
    PetscCall(VecDestroy(&r));
    PetscCall(MatDenseRestoreColumnVecRead(t->X, j, &x));
    PetscCall(MatDenseRestoreColumnVecRead(t->B, j, &b));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The block's reason and count (the worst reason, the largest count), the special columns, the reductions */
static PetscErrorCode CheckBlock(BlockTest *t)
{
  PetscInt           maxits = 0, failed = -1;
  KSPConvergedReason expect;

  PetscFunctionBegin;
  for (PetscInt jb = 0; jb < t->nb; jb++) {
    maxits = PetscMax(maxits, t->its[jb]);
    if (t->reasons[jb] < 0 && failed < 0) failed = jb;
  }
  expect = failed >= 0 ? t->reasons[failed] : t->reason_block;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KSPGetIterationNumber() the largest column count, KSPGetConvergedReason() negative iff a column failed: %s\n", maxits == t->its_block && t->reason_block == expect && (failed >= 0) == (t->reason_block < 0) ? "yes" : "NO"));
  if (t->nan >= 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "NaN column: %s\n", KSPConvergedReasons[t->reasons[t->nan - t->offset]]));
  if (t->early >= 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "early column: converged before the longest column: %s\n", t->reasons[t->early - t->offset] > 0 && t->its[t->early - t->offset] < t->its_block ? "yes" : "NO"));
  if (t->count) { /* one KSPSolve() of the longest column: 1 (+1 for ||b|| with a nonzero guess) + perit per iteration; the block: the same + perit per iteration it took more */
    const PetscInt expected = t->nred_single + t->perit * (t->its_block - t->its_single[t->longest]);

    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "global reductions of KSPMatSolve(), counted: those of one KSPSolve() (the same per iteration): %s\n", t->nred_block == expected ? "yes" : "NO"));
    if (t->nred_block != expected)
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  block %" PetscInt_FMT " in %" PetscInt_FMT " iterations, single %" PetscInt_FMT " in %" PetscInt_FMT "\n", t->nred_block, t->its_block, t->nred_single, t->its_single[t->longest]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The layout -ksp_view names for the last block solve on rank 0 (through a file): 1 interleaved, 0 dense, -1 if its
   layout line (auto's choice) and its last-block line do not both name the same one */
static PetscErrorCode ViewedLayout(KSP ksp, int *layout)
{
  MPI_Comm    comm                     = PetscObjectComm((PetscObject)ksp);
  char        name[PETSC_MAX_PATH_LEN] = "", line[4096];
  PetscViewer viewer;
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (!rank) PetscCall(PetscSNPrintf(name, sizeof(name), "bcgsm_block_auto_%d.txt", (int)getpid()));
  PetscCallMPI(MPI_Bcast(name, sizeof(name), MPI_CHAR, 0, comm));
  PetscCall(PetscViewerASCIIOpen(comm, name, &viewer));
  PetscCall(KSPView(ksp, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  *layout = -1;
  if (!rank) {
    FILE *fp     = fopen(name, "r");
    int   chosen = -1, last = -2;

    PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot read %s", name);
    while (fgets(line, sizeof(line), fp)) {
      if (strstr(line, "KSPMatSolve() layout: auto, for")) chosen = strstr(line, "operator interleaved:") ? 1 : (strstr(line, "operator dense:") ? 0 : -1);
      if (strstr(line, "last KSPMatSolve() block:")) last = strstr(line, "together, interleaved") ? 1 : (strstr(line, "together, dense") ? 0 : -2);
    }
    fclose(fp);
    (void)remove(name);
    *layout = chosen == last ? chosen : -1;
  }
  PetscCallMPI(MPI_Bcast(layout, 1, MPI_INT, 0, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -check_auto, after the block solve with auto: it measured the layouts and chose one, -ksp_view names it, and the solve
   with that layout forced gives X bit for bit */
static PetscErrorCode CheckAuto(BlockTest *t)
{
  MPI_Comm           comm = PETSC_COMM_WORLD;
  Mat                Xauto;
  const PetscScalar *a, *b;
  PetscInt           nloc, lda, ldb;
  PetscBool          same = PETSC_TRUE, all;
  int                layout;

  PetscFunctionBegin;
  PetscCall(ViewedLayout(t->ksp, &layout));
  PetscCall(PetscPrintf(comm, "auto measured the layouts, chose one, and -ksp_view names it: %s\n", layout >= 0 ? "yes" : "NO"));
  if (layout < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatDuplicate(t->X, MAT_COPY_VALUES, &Xauto));
  PetscCall(CAKrylovKSPSetMatSolveLayout(t->ksp, layout ? CAKRYLOV_MATSOLVE_LAYOUT_INTERLEAVED : CAKRYLOV_MATSOLVE_LAYOUT_DENSE));
  PetscCall(MatCopy(t->X0, t->X, SAME_NONZERO_PATTERN));
  PetscCall(KSPMatSolve(t->ksp, t->B, t->X));
  PetscCall(CAKrylovKSPSetMatSolveLayout(t->ksp, CAKRYLOV_MATSOLVE_LAYOUT_AUTO));
  PetscCall(MatGetLocalSize(t->X, &nloc, NULL));
  PetscCall(MatDenseGetLDA(t->X, &lda));
  PetscCall(MatDenseGetLDA(Xauto, &ldb));
  PetscCall(MatDenseGetArrayRead(t->X, &a));
  PetscCall(MatDenseGetArrayRead(Xauto, &b));
  for (PetscInt j = 0; j < t->m; j++)
    if (memcmp(a + (size_t)j * lda, b + (size_t)j * ldb, (size_t)nloc * sizeof(PetscScalar))) same = PETSC_FALSE;
  PetscCall(MatDenseRestoreArrayRead(Xauto, &b));
  PetscCall(MatDenseRestoreArrayRead(t->X, &a));
  PetscCallMPI(MPI_Allreduce(&same, &all, 1, CAKRYLOV_MPI_BOOL, MPI_LAND, comm));
  PetscCall(PetscPrintf(comm, "auto's solution is bitwise that of the solve with its layout forced: %s\n", all ? "yes" : "NO"));
  PetscCall(MatDestroy(&Xauto));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Destroy(BlockTest *t)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(t->its_single, t->reason_single));
  PetscCall(KSPDestroy(&t->ksp));
  PetscCall(MatDestroy(&t->X));
  PetscCall(MatDestroy(&t->X0));
  PetscCall(MatDestroy(&t->B));
  PetscCall(MatDestroy(&t->A));
  PetscCall(DMDestroy(&t->da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  BlockTest t = {0};
  PetscBool allconv, resid, same, itsok;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(CAKrylovInitializePackage());
  PetscCall(GetOptions(&t));
  PetscCall(CreateProblem(&t));
  PetscCall(CreateSolver(&t));
  PetscCall(SolveColumns(&t));
  if (t.layout_error) PetscCall(CheckLayoutError(&t));
  PetscCall(SolveBlock(&t));
  PetscCall(CheckColumns(&t, &allconv, &resid, &same, &itsok));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "every column converged%s: %s\n", t.nan >= 0 ? " but the NaN column" : "", allconv ? "yes" : "NO"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "every column's true residual <= 1.01 max(rtol ||b_j||, atol) (norm of the test): %s\n", resid ? "yes" : "NO"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "every column: the reason of its KSPSolve(): %s\n", same ? "yes" : "NO"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "every column: iterations within max(1, 10 %%) of its KSPSolve(): %s\n", itsok ? "yes" : "NO"));
  PetscCall(CheckBlock(&t));
  if (t.check_auto) PetscCall(CheckAuto(&t));
  PetscCall(Destroy(&t));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST
   # KSPMatSolve() with bcgsm, and with the communication-hiding pipebcgsm and rbicgstab (right preconditioning only): m columns
   # as one block against a KSPSolve() per column (m = 4 and Jacobi run in the tests below; one column and 7 here)
   testset:
      suffix: converged
      nsize: {{1 2 4}}
      args: -nrhs {{1 7}} -pc_type {{none bjacobi}} -ksp_pc_side {{left right}}
      output_file: output/bcgsm_block_converged.out

   testset:
      suffix: hiding_converged
      nsize: {{1 2 4}}
      args: -ksp_type {{pipebcgsm rbicgstab}} -nrhs {{1 7}} -pc_type {{none bjacobi}}
      output_file: output/bcgsm_block_converged.out

   test:
      suffix: nonzero_guess
      nsize: 2
      args: -nrhs 4 -nonzero_guess -pc_type {{jacobi bjacobi}} -ksp_pc_side {{left right}} -count_reductions
      output_file: output/bcgsm_block_count.out

   test:
      suffix: hiding_nonzero_guess
      nsize: 2
      args: -ksp_type {{pipebcgsm rbicgstab}} -nrhs 4 -nonzero_guess -pc_type {{jacobi bjacobi}} -count_reductions
      output_file: output/bcgsm_block_count.out

   # residual replacement every 5 iterations: the block replaces all its columns at once (they share the iteration count)
   test:
      suffix: pipebcgsm_replacement
      nsize: {{1 2}}
      args: -ksp_type pipebcgsm -nrhs 4 -ksp_pipebcgsm_residual_replacement_period 5 -pc_type {{none jacobi}} -count_reductions
      output_file: output/bcgsm_block_count.out

   test:
      suffix: count
      nsize: {{2 4}}
      args: -ksp_type {{bcgsm pipebcgsm rbicgstab}} -nrhs {{1 7}} -pc_type {{none jacobi}} -count_reductions
      output_file: output/bcgsm_block_count.out

   test:
      suffix: early
      nsize: {{1 2}}
      args: -nrhs 4 -early_column 2 -ksp_atol 1e-9 -pc_type jacobi -ksp_pc_side {{left right}}

   test:
      suffix: hiding_early
      nsize: {{1 2}}
      args: -ksp_type {{pipebcgsm rbicgstab}} -nrhs 4 -early_column 2 -ksp_atol 1e-9 -pc_type jacobi
      output_file: output/bcgsm_block_early.out

   test:
      suffix: zero
      nsize: {{1 2}}
      args: -ksp_type {{bcgsm pipebcgsm rbicgstab}} -nrhs 4 -zero_column 1 -pc_type jacobi -count_reductions

   test:
      suffix: nan
      nsize: {{1 2}}
      args: -nrhs 4 -nan_column 3 -pc_type jacobi -ksp_pc_side {{left right}}

   test:
      suffix: hiding_nan
      nsize: {{1 2}}
      args: -ksp_type {{pipebcgsm rbicgstab}} -nrhs 4 -nan_column 3 -pc_type jacobi
      output_file: output/bcgsm_block_nan.out

   # KSP_NORM_NONE: every column runs to max_it (KSP_DIVERGED_ITS, as its KSPSolve()), the reductions as one KSPSolve()'s
   test:
      suffix: norm_none
      nsize: 2
      args: -ksp_type {{bcgsm pipebcgsm rbicgstab}} -nrhs 4 -pc_type jacobi -ksp_norm_type none -ksp_max_it 20 -count_reductions
      filter: grep -E "reason of its|iterations within|^KSPGet|global reductions"

   # the dense layout with the preconditioners the interleaved one takes by default (none, Jacobi): the same verdicts
   testset:
      suffix: dense
      nsize: {{1 2}}
      args: -nrhs 7 -pc_type {{none jacobi}} -ksp_pc_side {{left right}} -ksp_bcgsm_matsolve_layout dense
      output_file: output/bcgsm_block_converged.out

   testset:
      suffix: pipebcgsm_dense
      nsize: {{1 2}}
      args: -ksp_type pipebcgsm -nrhs 7 -pc_type {{none jacobi}} -ksp_pipebcgsm_matsolve_layout dense
      output_file: output/bcgsm_block_converged.out

   testset:
      suffix: rbicgstab_dense
      nsize: {{1 2}}
      args: -ksp_type rbicgstab -nrhs 7 -pc_type {{none jacobi}} -ksp_rbicgstab_matsolve_layout dense
      output_file: output/bcgsm_block_converged.out

   # one column asked interleaved (auto takes the dense path for one column)
   test:
      suffix: bcgsm_interleaved_one
      nsize: {{1 2}}
      args: -ksp_type bcgsm -nrhs 1 -pc_type jacobi -ksp_bcgsm_matsolve_layout interleaved
      output_file: output/bcgsm_block_converged.out

   test:
      suffix: pipebcgsm_interleaved_one
      nsize: {{1 2}}
      args: -ksp_type pipebcgsm -nrhs 1 -pc_type jacobi -ksp_pipebcgsm_matsolve_layout interleaved
      output_file: output/bcgsm_block_converged.out

   test:
      suffix: rbicgstab_interleaved_one
      nsize: {{1 2}}
      args: -ksp_type rbicgstab -nrhs 1 -pc_type jacobi -ksp_rbicgstab_matsolve_layout interleaved
      output_file: output/bcgsm_block_converged.out

   # the interleaved layout asked (-layout sets it whatever the type): auto measures both on these small problems and may
   # take either, so the interleaved code paths are tested here
   testset:
      suffix: interleaved
      nsize: {{1 2}}
      args: -ksp_type {{bcgsm pipebcgsm rbicgstab}} -nrhs 7 -pc_type {{none jacobi}} -layout interleaved
      output_file: output/bcgsm_block_converged.out

   # a block of more than 16 MiB per rank (3D 66^3 on 2 ranks: 143748 rows x 16 columns): the SpMV's result written with
   # streaming stores, the empty rows of the off-diagonal block skipped
   test:
      suffix: interleaved_stream
      nsize: 2
      args: -ksp_type bcgsm -nrhs 16 -dim 3 -n 66 -pc_type jacobi -layout interleaved
      output_file: output/bcgsm_block_converged.out

   test:
      suffix: interleaved_count
      nsize: 2
      args: -ksp_type {{bcgsm pipebcgsm rbicgstab}} -nrhs 7 -pc_type jacobi -count_reductions -layout interleaved
      output_file: output/bcgsm_block_count.out

   test:
      suffix: interleaved_early
      nsize: 2
      args: -ksp_type {{bcgsm pipebcgsm rbicgstab}} -nrhs 4 -early_column 2 -ksp_atol 1e-9 -pc_type jacobi -layout interleaved
      output_file: output/bcgsm_block_early.out

   test:
      suffix: interleaved_zero
      nsize: 2
      args: -ksp_type {{bcgsm pipebcgsm rbicgstab}} -nrhs 4 -zero_column 1 -pc_type jacobi -count_reductions -layout interleaved
      output_file: output/bcgsm_block_zero.out

   test:
      suffix: interleaved_nan
      nsize: 2
      args: -ksp_type {{bcgsm pipebcgsm rbicgstab}} -nrhs 4 -nan_column 3 -pc_type jacobi -layout interleaved
      output_file: output/bcgsm_block_nan.out

   # auto: the layouts measured at the first block solve, one chosen and named by -ksp_view, the same bits as forcing it
   test:
      suffix: auto
      nsize: {{1 2}}
      args: -ksp_type {{bcgsm pipebcgsm rbicgstab}} -nrhs 4 -pc_type {{none jacobi}} -check_auto

   # the interleaved layout asked with a PC it does not apply: a PETSc error; then the auto layout (dense) solves
   test:
      suffix: layout_error
      nsize: 2
      args: -nrhs 4 -pc_type bjacobi -layout_error

   test:
      suffix: batch
      nsize: 2
      args: -ksp_type {{bcgsm pipebcgsm rbicgstab}} -nrhs 7 -ksp_matsolve_batch_size 3 -pc_type bjacobi

   test:
      suffix: fallback
      nsize: 2
      args: -nrhs 4 -user_test -pc_type jacobi -ksp_view
      filter: grep -E "^(every|KSPGet)|KSPMatSolve\(\)" | sed -E -e "s/^ +//" -e "/last KSPMatSolve/s/[0-9]+/N/g" -e "s/(operator|together,) (interleaved|dense)/\\1 LAYOUT/" -e "/layout: auto, for/s/measured per iteration.+/measured/"

   # the fallback with a nonzero initial guess: each column of X is read as its guess, then written
   test:
      suffix: fallback_nonzero_guess
      nsize: 2
      args: -ksp_type {{bcgsm pipebcgsm rbicgstab}} -nrhs 4 -user_test -nonzero_guess -pc_type jacobi
      output_file: output/bcgsm_block_converged.out

   test:
      suffix: pipebcgsm_fallback
      nsize: 2
      args: -ksp_type pipebcgsm -nrhs 4 -user_test -pc_type jacobi -ksp_view
      filter: grep -E "^(every|KSPGet)|KSPMatSolve\(\)" | sed -E -e "s/^ +//" -e "/last KSPMatSolve/s/[0-9]+/N/g" -e "s/(operator|together,) (interleaved|dense)/\\1 LAYOUT/" -e "/layout: auto, for/s/measured per iteration.+/measured/"

   test:
      suffix: rbicgstab_fallback
      nsize: 2
      args: -ksp_type rbicgstab -nrhs 4 -user_test -pc_type jacobi -ksp_view
      filter: grep -E "^(every|KSPGet)|KSPMatSolve\(\)" | sed -E -e "s/^ +//" -e "/last KSPMatSolve/s/[0-9]+/N/g" -e "s/(operator|together,) (interleaved|dense)/\\1 LAYOUT/" -e "/layout: auto, for/s/measured per iteration.+/measured/"

   test:
      suffix: view
      nsize: 2
      args: -nrhs 4 -pc_type jacobi -ksp_view
      filter: grep -E "^(every|KSPGet)|KSPMatSolve\(\)" | sed -E -e "s/^ +//" -e "/last KSPMatSolve/s/[0-9]+/N/g" -e "s/(operator|together,) (interleaved|dense)/\\1 LAYOUT/" -e "/layout: auto, for/s/measured per iteration.+/measured/"

   test:
      suffix: pipebcgsm_view
      nsize: 2
      args: -ksp_type pipebcgsm -nrhs 4 -pc_type jacobi -ksp_view
      filter: grep -E "^(every|KSPGet)|KSPMatSolve\(\)" | sed -E -e "s/^ +//" -e "/last KSPMatSolve/s/[0-9]+/N/g" -e "s/(operator|together,) (interleaved|dense)/\\1 LAYOUT/" -e "/layout: auto, for/s/measured per iteration.+/measured/"

   test:
      suffix: rbicgstab_view
      nsize: 2
      args: -ksp_type rbicgstab -nrhs 4 -pc_type jacobi -ksp_view
      filter: grep -E "^(every|KSPGet)|KSPMatSolve\(\)" | sed -E -e "s/^ +//" -e "/last KSPMatSolve/s/[0-9]+/N/g" -e "s/(operator|together,) (interleaved|dense)/\\1 LAYOUT/" -e "/layout: auto, for/s/measured per iteration.+/measured/"
   # PETSc's own, unmodified KSPMatSolve() client ex79 (a random diagonally dominant 10 x 10 AIJ system, a dense block
   # of 10 right-hand sides) with the library loaded at run time: it fails unless the whole solve applied the
   # preconditioner to blocks only (PCMatApply(), never PCApply()), and it prints nothing when it passes
   # (LU on one rank only: a parallel LU needs MUMPS or SuperLU_DIST, which the PETSc of make test-petsc-latest lacks)
   test:
      suffix: plugin_ex79
      command: ${mpiexec} -n 1 ${CAKRYLOV_PETSC_EXAMPLES}/ex79 -dll_append ${CAKRYLOV_LIBRARY} -ksp_type {{bcgsm pipebcgsm rbicgstab}} -pc_type {{none shell mat lu bjacobi}}
      output_file: output/bcgsm_block_plugin_ex79.out
   test:
      suffix: plugin_ex79_2
      command: ${mpiexec} -n 2 ${CAKRYLOV_PETSC_EXAMPLES}/ex79 -dll_append ${CAKRYLOV_LIBRARY} -ksp_type {{bcgsm pipebcgsm rbicgstab}} -pc_type {{none shell mat bjacobi}}
      output_file: output/bcgsm_block_plugin_ex79.out

TEST*/
