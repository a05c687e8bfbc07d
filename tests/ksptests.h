/*
   What the regression programs of the library's KSP types share (tests/cabicgstab.c; tests/bcgsm.c for bcgsm and
   pipebcgsm; tests/rbicgstab.c): a DMDA problem (tests/stencil.h), the solve with the program's type (or -ksp_type),
   the verdicts printed for it, and the checks of every type; a program adds its type's own options and checks
   through KSPTestHooks. KSPTESTS_HELP lists the options of every program.
*/
#pragma once

#define KSPTESTS_HELP \
  "-problem <poisson|convdiff|skew> : 5/7-point Laplacian, upwind convection-diffusion (cell Peclet -peclet), skew-symmetric x-difference\n" \
  "-dim <2|3>, -n <points per direction>\n" \
  "-rhs <ones|zero|nan>, -nonzero_guess : right-hand side and initial guess\n" \
  "-compare <tol> : also solve with PETSc's -compare_type (default bcgs; same PC, side, tolerances) and check |its - its_ref| <= max(1, tol its_ref)\n" \
  "-print_its : print the iteration counts\n" \
  "-print_history <digits> : print the residual norm history with this many significant digits\n" \
  "-check_fallback : solve again with -cakrylov_vec_fallback (fused kernels through PETSc Vec operations), compare iterations and residual history\n" \
  "-solves <n> : solve n times (the last one is the one reported), -scale_operator: A <- 2 A before each solve after the first\n" \
  "-check_progress : solve again with -ksp_<type>_progress test (rbicgstab, pipebcgsm): iterations, residual history and solution must be bitwise the same\n" \
  "-check_progress_tests : check from -ksp_view that the MPI_Test calls made per overlapped region are between 1 and n + 1 (n: -ksp_<type>_progress_tests)\n" \
  "-late_rank_ms <ms> : the last rank comes this late to every non-blocking reduction: the others' stay in flight through whole regions\n" \
  "-count_reductions : count global reductions during KSPSolve() with an MPI profiling-interface counter, check the number the type promises\n"

#include <cakrylov.h>
#include <cakrylov/private/compat.h>
#include <petscdmda.h>

#include "reductioncounter.h"
#include "stencil.h"

/* What a program adds: its own options (read in its own PetscOptionsBegin() block), a call before KSPSetUp(), and its
   checks after the reported solve (b, the initial guess x0, x: work vector for more solves) */
typedef struct {
  PetscErrorCode (*options)(void);
  PetscErrorCode (*before_setup)(KSP);
  PetscErrorCode (*checks)(KSP, Vec, Vec, Vec);
} KSPTestHooks;

typedef enum {
  RHS_ONES,
  RHS_ZERO,
  RHS_NAN
} Rhs;
static const char *const Rhss[] = {"ones", "zero", "nan", "Rhs", "RHS_", NULL};

/* x0 = 0.1 sin(i + 2j + 3k): a nonzero initial guess independent of the number of ranks */
static PetscErrorCode InitialGuess(DM da, Vec x)
{
  PetscInt     xs, ys, zs, xm, ym, zm;
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  PetscCall(VecGetArray(x, &a));
  for (PetscInt k = zs, l = 0; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++, l++) a[l] = 0.1 * PetscSinReal((PetscReal)(i + 2 * j + 3 * k));
  PetscCall(VecRestoreArray(x, &a));
  PetscFunctionReturn(0);
}

/* The residual in the norm the KSP tests: ||b - A x|| (right preconditioning, none) or ||M^{-1}(b - A x)|| (left) */
static PetscErrorCode ResidualNorm(KSP ksp, Mat A, Vec b, Vec x, PetscReal *norm)
{
  Vec    r, z;
  PCSide side;
  PC     pc;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(KSPGetPCSide(ksp, &side));
  if (side == PC_LEFT) {
    PetscCall(VecDuplicate(b, &z));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCApply(pc, r, z));
    PetscCall(VecNorm(z, NORM_2, norm));
    PetscCall(VecDestroy(&z));
  } else PetscCall(VecNorm(r, NORM_2, norm));
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(0);
}

/* x = KSPSolve(b) from x0, with the global reductions of the solve in nreductions. With warmup, a first solve does
   the PC's lazy one-time setup (Jacobi creates a vector on first use: a reduction) and the second one is counted.
   For cabicgstab (stats not NULL), what its statistics say of the counted solve. */
static PetscErrorCode CountedSolve(KSP ksp, Vec b, Vec x0, Vec x, PetscBool warmup, KSPCABiCGStabStatistics *stats)
{
  KSPCABiCGStabStatistics before;

  PetscFunctionBegin;
  if (warmup) {
    PetscCall(VecCopy(x0, x));
    PetscCall(KSPSolve(ksp, b, x));
  }
  if (stats) PetscCall(KSPCABiCGStabGetStatistics(ksp, &before));
  PetscCall(VecCopy(x0, x));
  nreductions  = 0;
  nnonblocking = 0;
  counting     = PETSC_TRUE;
  PetscCall(KSPSolve(ksp, b, x));
  counting = PETSC_FALSE;
  if (stats) {
    PetscCall(KSPCABiCGStabGetStatistics(ksp, stats));
    stats->outer -= before.outer;
    stats->checks -= before.checks;
    stats->reductions -= before.reductions;
  }
  PetscFunctionReturn(0);
}

/*
   Two solves of the same system whose arithmetic differs in rounding only (another summation order, another
   kernel, another reduction of the same Gram matrix): their residual histories agree closely at first and drift
   apart as BiCGStab amplifies the rounding, so their iteration counts may differ a little. What holds on every
   machine, and fails for a wrong kernel (which differs by O(1) from the first iterations on):
     - the first AGREE_ITS residual norms agree to 1e-6 ||r_0|| (rounding differences there are near 1e-12);
     - the iteration counts differ by at most 1 + 10 % (rounding alone moves BiCGStab's count by up to 8 % between
       BLAS kernel sets: PETSc's bcgs takes 39 to 43 iterations on the problem of tests/synthetic -compare_none).
*/
#define AGREE_ITS 5
static PetscErrorCode PrintAgreement(const char what[], PetscInt its_ref, const PetscReal ref[], PetscInt nref, PetscInt its, const PetscReal hist[], PetscInt n)
{
  const PetscInt  allowed = 1 + its_ref / 10;
  PetscReal       maxdiff = 0.0;
  const PetscBool early   = (PetscBool)(n > 0 && nref > 0);

  PetscFunctionBegin;
  for (PetscInt i = 0; i < PetscMin(AGREE_ITS, PetscMin(n, nref)); i++) maxdiff = PetscMax(maxdiff, PetscAbsReal(hist[i] - ref[i]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: first residual norms within 1e-6 ||r_0||: %s, iterations within 1 + 10 %%: %s\n", what, early && maxdiff <= 1e-6 * ref[0] ? "yes" : "NO", PetscAbsInt(its - its_ref) <= allowed ? "yes" : "NO"));
  if (!early || maxdiff > 1e-6 * ref[0] || PetscAbsInt(its - its_ref) > allowed)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %" PetscInt_FMT " against %" PetscInt_FMT " iterations, max early |difference| / ||r_0|| = %g\n", its, its_ref, early ? (double)(maxdiff / ref[0]) : -1.0));
  PetscFunctionReturn(0);
}

/* Solves again after change(ksp, ctx) (and change(ksp, ctx) back after the solve), compares with the solve before */
static PetscErrorCode CompareResolve(KSP ksp, Vec b, Vec x0, Vec x, const char what[], PetscErrorCode (*change)(KSP, PetscBool))
{
  const PetscReal *hist;
  PetscReal       *ref;
  PetscInt         nref, n, its_ref, its;

  PetscFunctionBegin;
  PetscCall(KSPGetIterationNumber(ksp, &its_ref));
  PetscCall(KSPGetResidualHistory(ksp, &hist, &nref));
  PetscCall(PetscMalloc1(nref, &ref));
  PetscCall(PetscArraycpy(ref, hist, nref));
  PetscCall(change(ksp, PETSC_TRUE));
  PetscCall(VecCopy(x0, x));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(change(ksp, PETSC_FALSE));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetResidualHistory(ksp, &hist, &n));
  PetscCall(PrintAgreement(what, its_ref, ref, nref, its, hist, n));
  PetscCall(PetscFree(ref));
  PetscFunctionReturn(0);
}

/* A change CompareResolve() makes for every type: every fused vector kernel on its fallback path (PETSc Vec operations) */
static PetscErrorCode ChangeFallback(KSP ksp, PetscBool on)
{
  PetscFunctionBegin;
  (void)ksp;
  if (on) PetscCall(PetscOptionsSetValue(NULL, "-cakrylov_vec_fallback", "1"));
  else PetscCall(PetscOptionsClearValue(NULL, "-cakrylov_vec_fallback"));
  PetscFunctionReturn(0);
}

/* The solve again with manual progression of the reductions: MPI_Test changes no data, so everything is bitwise equal */
static PetscErrorCode CheckProgress(KSP ksp, Vec b, Vec x0, Vec x)
{
  const PetscReal     *hist;
  PetscReal           *ref;
  PetscInt             nref, n, its_ref, its;
  KSPType              type;
  char                 name[64];
  Vec                  xref;
  PetscBool            same;
  CAKrylovProgressType ptype;

  PetscFunctionBegin;
  PetscCall(KSPGetType(ksp, &type));
  PetscCall(KSPGetIterationNumber(ksp, &its_ref));
  PetscCall(KSPGetResidualHistory(ksp, &hist, &nref));
  PetscCall(PetscMalloc1(nref, &ref));
  PetscCall(PetscArraycpy(ref, hist, nref));
  PetscCall(VecDuplicate(x, &xref));
  PetscCall(VecCopy(x, xref));
  PetscCall(PetscSNPrintf(name, sizeof(name), "-ksp_%s_progress", type));
  PetscCall(PetscOptionsSetValue(NULL, name, "test"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(PetscStrcmp(type, KSPRBICGSTAB, &same));
  if (same) PetscCall(KSPRBiCGStabGetProgress(ksp, &ptype, NULL));
  else PetscCall(KSPPIPEBCGSMGetProgress(ksp, &ptype, NULL));
  PetscCall(VecCopy(x0, x));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetResidualHistory(ksp, &hist, &n));
  same = (PetscBool)(its == its_ref && n == nref);
  for (PetscInt i = 0; same && i < n; i++) same = (PetscBool)(hist[i] == ref[i]);
  if (same) PetscCall(VecEqual(x, xref, &same));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "with progress %s: the same iterations, residual history and solution, bitwise: %s\n", CAKrylovProgressTypes[ptype], same ? "yes" : "NO"));
  PetscCall(VecDestroy(&xref));
  PetscCall(PetscFree(ref));
  PetscFunctionReturn(0);
}

/* From -ksp_view's progression line "... about n MPI_Test calls per overlapped region; made t in r regions ...": 1 <= t / r <= n + 1 */
static PetscErrorCode CheckProgressTests(KSP ksp)
{
  PetscViewer viewer;
  char        text[4096] = "";
  const char *line;
  int         n = 0, t = -1, r = 0;
  PetscMPIInt rank;
  FILE       *fp;
  size_t      len = 0;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIOpen(PETSC_COMM_WORLD, "ksp_view.txt", &viewer));
  PetscCall(KSPView(ksp, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank == 0) {
    PetscCall(PetscFOpen(PETSC_COMM_SELF, "ksp_view.txt", "r", &fp));
    len       = fread(text, 1, sizeof(text) - 1, fp);
    text[len] = 0;
    PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
  }
  line = strstr(text, "progression of the reductions: test, about ");
  if (line) (void)sscanf(line, "progression of the reductions: test, about %d MPI_Test calls per overlapped region; made %d in %d regions", &n, &t, &r);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MPI_Test calls per overlapped region between 1 and n + 1: %s\n", r > 0 && t >= r && t <= (n + 1) * r ? "yes" : "NO"));
  if (!(r > 0 && t >= r && t <= (n + 1) * r)) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  n = %d, %d tests in %d regions\n", n, t, r));
  PetscFunctionReturn(0);
}

/* -count_reductions: what each type promises, from the counts of this run (the solve just made, counted): cabicgstab 1
   per outer iteration (r_0's norm included) and 1 per check of a convergence claim (stats: its own statistics of the
   solve), bcgsm 3 per iteration, pipebcgsm 2 non-blocking per iteration, rbicgstab 2 non-blocking per iteration, each
   + 1 for r_0, rbicgstab + 1 for the norm of the last iterate */
static PetscErrorCode CheckReductions(KSP ksp, const KSPCABiCGStabStatistics *stats)
{
  PetscInt    its, expected, expected_nonblocking;
  PetscBool   isbcgsm, ispipe, isrb;
  KSPType     type;
  KSPNormType normtype;
  char        promise[128];

  PetscFunctionBegin;
  PetscCall(KSPGetType(ksp, &type));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetNormType(ksp, &normtype));
  PetscCall(PetscStrcmp(type, KSPBCGSM, &isbcgsm));
  PetscCall(PetscStrcmp(type, KSPPIPEBCGSM, &ispipe));
  PetscCall(PetscStrcmp(type, KSPRBICGSTAB, &isrb));
  PetscCheck(stats || isbcgsm || ispipe || isrb, PETSC_COMM_WORLD, PETSC_ERR_SUP, "-count_reductions knows cabicgstab, bcgsm, pipebcgsm and rbicgstab, not %s", type);
  if (stats) { /* the solve's own statistics: outer iterations (Gram matrices) and checks of convergence claims */
    expected             = stats->outer + stats->checks;
    expected_nonblocking = 0;
    PetscCall(PetscStrncpy(promise, "1 per outer iteration + 1 per check of a convergence claim, as the solver reports them", sizeof(promise)));
    if (stats->reductions != expected) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  the solver reports %" PetscInt_FMT " reductions for %" PetscInt_FMT " outer iterations and %" PetscInt_FMT " checks\n", stats->reductions, stats->outer, stats->checks));
      expected = -1;
    }
  } else if (isbcgsm) {
    expected             = 1 + 3 * its;
    expected_nonblocking = 0;
    PetscCall(PetscStrncpy(promise, "1 + 3 per iteration", sizeof(promise)));
  } else {
    const PetscInt final = isrb && normtype != KSP_NORM_NONE ? 1 : 0;

    expected             = 1 + 2 * its + final;
    expected_nonblocking = expected;
    PetscCall(PetscStrncpy(promise, final ? "1 + 2 per iteration + 1 for the last norm, all non-blocking" : "1 + 2 per iteration, all non-blocking", sizeof(promise)));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "global reductions in KSPSolve, counted: %s: %s\n", promise, nreductions == expected && nnonblocking == expected_nonblocking ? "yes" : "NO"));
  if (nreductions != expected || nnonblocking != expected_nonblocking)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %" PetscInt_FMT " (%" PetscInt_FMT " non-blocking) for %" PetscInt_FMT " iterations, expected %" PetscInt_FMT " (%" PetscInt_FMT ")\n", nreductions, nnonblocking, its, expected, expected_nonblocking));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -compare: the same solve with PETSc's compare_type, the same PC, side, norm, rtol and guess; iterations within
   max(1, compare its_ref) */
static PetscErrorCode CompareIterations(KSP ksp, Vec b, Vec x0, Vec x, const char compare_type[], PetscReal compare, PetscBool count, PetscBool print_its)
{
  KSP         ref;
  Mat         A;
  PC          pc, bpc;
  PCType      pctype;
  PCSide      side;
  KSPType     type;
  KSPNormType normtype;
  PetscReal   rtol;
  PetscBool   nonzero;
  PetscInt    its, its_ref, allowed;

  PetscFunctionBegin;
  PetscCall(KSPGetType(ksp, &type));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetNormType(ksp, &normtype));
  PetscCall(KSPGetTolerances(ksp, &rtol, NULL, NULL, NULL));
  PetscCall(KSPGetInitialGuessNonzero(ksp, &nonzero));
  PetscCall(KSPGetOperators(ksp, &A, NULL));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCGetType(pc, &pctype));
  PetscCall(KSPGetPCSide(ksp, &side));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ref));
  PetscCall(KSPSetOperators(ref, A, A));
  PetscCall(KSPSetType(ref, compare_type));
  PetscCall(KSPSetPCSide(ref, side));
  PetscCall(KSPSetNormType(ref, normtype));
  PetscCall(KSPSetTolerances(ref, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetInitialGuessNonzero(ref, nonzero));
  PetscCall(KSPGetPC(ref, &bpc));
  PetscCall(PCSetType(bpc, pctype));
  PetscCall(CountedSolve(ref, b, x0, x, count, NULL));
  PetscCall(KSPGetIterationNumber(ref, &its_ref));
  allowed = PetscMax(1, (PetscInt)(compare * its_ref));
  if (print_its) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " iterations\n", compare_type, its_ref));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "iterations within max(1, %g its_%s) of %s: %s\n", (double)compare, compare_type, compare_type, PetscAbsInt(its - its_ref) <= allowed ? "yes" : "NO"));
  if (PetscAbsInt(its - its_ref) > allowed) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s %" PetscInt_FMT ", %s %" PetscInt_FMT "\n", type, its, compare_type, its_ref));
  PetscCall(KSPDestroy(&ref));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The solve of the problem the options describe with default_type (or -ksp_type), its verdicts, and the checks asked for */
static PetscErrorCode KSPTestRun(KSPType default_type, const KSPTestHooks *hooks)
{
  DM                      da;
  Mat                     A;
  Vec                     x, b, x0;
  KSP                     ksp;
  StencilProblem          problem = STENCIL_POISSON;
  Rhs                     rhs     = RHS_ONES;
  PetscInt                dim = 2, n = 24, its, history_digits = 0, nsolves = 1;
  PetscReal               peclet = 0.5, compare = -1.0, rtol, r0, r1, xnorm;
  PetscBool               nonzero = PETSC_FALSE, print_its = PETSC_FALSE, count = PETSC_FALSE, check_fallback = PETSC_FALSE, check_progress = PETSC_FALSE, check_progress_tests = PETSC_FALSE, scale_operator = PETSC_FALSE, iscab;
  char                    compare_type[64] = KSPBCGS;
  KSPConvergedReason      reason;
  KSPType                 type;
  KSPNormType             normtype;
  KSPCABiCGStabStatistics solve_stats;

  PetscFunctionBegin;
  PetscCall(CAKrylovInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "KSP regression test", NULL);
  PetscCall(PetscOptionsEnum("-problem", "Operator", NULL, StencilProblems, (PetscEnum)problem, (PetscEnum *)&problem, NULL));
  PetscCall(PetscOptionsInt("-dim", "2 or 3", NULL, dim, &dim, NULL));
  PetscCall(PetscOptionsInt("-n", "Grid points per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsReal("-peclet", "Cell Peclet number of convdiff", NULL, peclet, &peclet, NULL));
  PetscCall(PetscOptionsEnum("-rhs", "Right-hand side", NULL, Rhss, (PetscEnum)rhs, (PetscEnum *)&rhs, NULL));
  PetscCall(PetscOptionsBool("-nonzero_guess", "Start from a nonzero initial guess", NULL, nonzero, &nonzero, NULL));
  PetscCall(PetscOptionsReal("-compare", "Compare iterations with -compare_type, relative tolerance", NULL, compare, &compare, NULL));
  PetscCall(PetscOptionsString("-compare_type", "PETSc KSP type to compare with", NULL, compare_type, compare_type, sizeof(compare_type), NULL));
  PetscCall(PetscOptionsBool("-print_its", "Print iteration counts", NULL, print_its, &print_its, NULL));
  PetscCall(PetscOptionsInt("-print_history", "Print the residual history with this many significant digits", NULL, history_digits, &history_digits, NULL));
  PetscCall(PetscOptionsBool("-check_fallback", "Compare with the fallback path of the fused kernels", NULL, check_fallback, &check_fallback, NULL));
  PetscCall(PetscOptionsBool("-check_progress", "Compare with manual progression of the reductions", NULL, check_progress, &check_progress, NULL));
  PetscCall(PetscOptionsInt("-solves", "Solve this many times", NULL, nsolves, &nsolves, NULL));
  PetscCall(PetscOptionsBool("-scale_operator", "A <- 2 A before each solve after the first", NULL, scale_operator, &scale_operator, NULL));
  PetscCall(PetscOptionsBool("-check_progress_tests", "Check the MPI_Test calls made per overlapped region", NULL, check_progress_tests, &check_progress_tests, NULL));
  PetscCall(PetscOptionsReal("-late_rank_ms", "The last rank comes this late (ms) to every non-blocking reduction", NULL, late_iallreduce_ms, &late_iallreduce_ms, NULL));
  PetscCall(PetscOptionsBool("-count_reductions", "Count global reductions in KSPSolve()", NULL, count, &count, NULL));
  PetscOptionsEnd();
  if (hooks && hooks->options) PetscCall(hooks->options());

  PetscCall(StencilCreateDMDA(PETSC_COMM_WORLD, dim, n, DM_BOUNDARY_NONE, &da));
  PetscCall(DMSetFromOptions(da)); /* -dm_mat_type */
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(AssembleStencilOperator(da, problem, peclet, A));
  PetscCall(DMCreateGlobalVector(da, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &x0));
  PetscCall(VecSet(b, rhs == RHS_ONES ? 1.0 : 0.0));
  if (rhs == RHS_NAN) PetscCall(VecSetValue(b, 0, (PetscScalar)NAN, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(b));
  PetscCall(VecAssemblyEnd(b));
  if (nonzero) PetscCall(InitialGuess(da, x0));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, default_type));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetInitialGuessNonzero(ksp, nonzero));
  PetscCall(KSPSetResidualHistory(ksp, NULL, PETSC_DECIDE, PETSC_TRUE));
  PetscCall(KSPSetFromOptions(ksp));
  if (hooks && hooks->before_setup) PetscCall(hooks->before_setup(ksp));
  PetscCall(KSPSetUp(ksp));
  PetscCall(KSPGetType(ksp, &type));
  PetscCall(PetscStrcmp(type, KSPCABICGSTAB, &iscab));
  PetscCall(KSPGetNormType(ksp, &normtype));
  PetscCall(KSPGetTolerances(ksp, &rtol, NULL, NULL, NULL));
  PetscCall(ResidualNorm(ksp, A, b, x0, &r0));

  for (PetscInt i = 1; i < nsolves; i++) { /* the same operator (or a scaled one): what is set up once stays */
    PetscCall(VecCopy(x0, x));
    PetscCall(KSPSolve(ksp, b, x));
    if (scale_operator) PetscCall(MatScale(A, 2.0));
  }
  PetscCall(CountedSolve(ksp, b, x0, x, count, iscab ? &solve_stats : NULL));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %s", type, KSPConvergedReasons[reason]));
  if (print_its || reason == KSP_DIVERGED_BREAKDOWN || rhs != RHS_ONES) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " at iteration %" PetscInt_FMT, its));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  PetscCall(VecNorm(x, NORM_INFINITY, &xnorm));
  if (rhs != RHS_ONES || reason < 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "solution is %s\n", PetscIsInfOrNanReal(xnorm) ? "NOT finite" : (xnorm == 0.0 ? "zero" : "finite")));
  if (reason > 0 && normtype != KSP_NORM_NONE && rhs == RHS_ONES) {
    PetscCall(ResidualNorm(ksp, A, b, x, &r1));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "true residual (norm of the convergence test) <= rtol * initial: %s\n", r1 <= rtol * r0 ? "yes" : "NO"));
    if (r1 > rtol * r0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  ||r|| / ||r0|| = %g, rtol = %g\n", (double)(r1 / r0), (double)rtol));
  }

  if (history_digits > 0) {
    const PetscReal *hist;
    PetscInt         nhist;

    PetscCall(KSPGetResidualHistory(ksp, &hist, &nhist));
    for (PetscInt i = 0; i < nhist; i++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%3" PetscInt_FMT " %.*e\n", i, (int)history_digits - 1, (double)hist[i]));
  }

  if (check_fallback) PetscCall(CompareResolve(ksp, b, x0, x, "fallback path against fused kernels", ChangeFallback));
  if (check_progress) PetscCall(CheckProgress(ksp, b, x0, x));
  if (check_progress_tests) PetscCall(CheckProgressTests(ksp));
  if (hooks && hooks->checks) PetscCall(hooks->checks(ksp, b, x0, x));

  if (count) PetscCall(CheckReductions(ksp, iscab ? &solve_stats : NULL));
  if (compare >= 0.0) PetscCall(CompareIterations(ksp, b, x0, x, compare_type, compare, count, print_its));

  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(0);
}
