static char help[] = "The s-study of KSPCABICGSTAB: iterations to -ksp_rtol and the final true relative residual\n\
||b - A x|| / ||b|| against s for each polynomial basis, and PETSc's bcgs as the reference, on one problem.\n\
  -problem <poisson|helmholtz|convdiff> : 7-point Laplacian (Dirichlet, b = 1); miniGMG's variable-coefficient Helmholtz\n\
                                          (williams2014: a = b = 0.9, periodic, triangle-wave f); upwind convection-diffusion\n\
                                          (Dirichlet, b = 1, cell Peclet -peclet, wind (1, 0.5, 0.25))\n\
  -n <cells per direction>, -dim <2|3>, -peclet <Pe>\n\
  -s_list 1,2,4,...      : the s values\n\
  -bases monomial,newton,chebyshev : the bases; one the library does not know is reported as such and skipped\n\
  -max_it_factor <f>     : cabicgstab solves stop after f times bcgs's iterations (default 4; the study measures, it does not wait)\n\
  -csv <file>, -csv_append : also write the rows to this CSV file\n\
  -view_cab              : print the cabicgstab lines of -ksp_view (basis, spectrum, statistics) of every cabicgstab solve ('#'-prefixed)\n\
  -view_s <s>            : the same for the solves with this s only\n\
  -pc_type <jacobi>      : the preconditioner of every solve\n\
Columns from KSPCABiCGStabGetStatistics(): outer iterations, early ends (unresolved q or r), residual replacements, the\n\
smallest s_k (adaptive s). Every solve: a fresh KSP, zero initial guess, PC jacobi, right preconditioning and the unpreconditioned norm (the same\n\
for bcgs), rtol -ksp_rtol (1e-10), atol 0. Global reductions are counted during KSPSetUp() + KSPSolve() with an MPI\n\
profiling-interface counter (communicators of more than one rank; 1 rank: not counted).\n\n";

#include <cakrylov.h>
#include <petscdmda.h>
#include <petscviewer.h>
#include <petsctime.h>

/* global reductions: the test programs' MPI profiling-interface counter (counting, nreductions) */
#include "reductioncounter.h"
/* The study problems (StudyProblemCreate()) */
#include "stencil.h"
/* BenchHelpOnly() */
#include "benchutil.h"

/* The cabicgstab lines of -ksp_view (from "type:" to KSPView()'s "maximum iterations="), '#'-prefixed */
static PetscErrorCode CabView(KSP ksp)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)ksp);
  PetscMPIInt rank;
  char       *buf = NULL, *line, *save = NULL;
  size_t      len = 0;
  FILE       *fp;
  PetscViewer viewer;
  PetscBool   in = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  fp = open_memstream(&buf, &len);
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_SYS, "open_memstream() failed");
  PetscCall(PetscViewerASCIIOpenWithFILE(comm, fp, &viewer));
  PetscCall(KSPView(ksp, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  fclose(fp);
  if (rank == 0 && buf) {
    for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
      if (strstr(line, "maximum iterations=")) break;
      if (strstr(line, "type: ")) in = PETSC_TRUE;
      if (in) printf("#   %s\n", line);
    }
  }
  free(buf);
  PetscFunctionReturn(0);
}

typedef struct {
  PetscInt                its, nred;
  KSPConvergedReason      reason;
  PetscReal               truerel, rnormrel, time;
  KSPCABiCGStabStatistics stats; /* cabicgstab: outer iterations, early ends, replacements, adaptive s, ... (stats.outer = -1: bcgs) */
} Result;

/* One solve with a fresh KSP: type (bcgs or cabicgstab), basis and s for cabicgstab */
static PetscErrorCode Solve(Mat A, Vec b, Vec x, const char *type, PetscEnum basis, PetscInt s, PetscReal rtol, PetscInt max_it, PetscBool view, Result *res)
{
  KSP            ksp;
  PC             pc;
  Vec            r;
  PetscReal      bnorm, rnorm, t1;
  PetscBool      iscab;
  PetscLogDouble tic, toc;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(type, KSPCABICGSTAB, &iscab));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  /* divergence tolerance 1e10, as tests/cabicgstab_large_s.c: BiCGStab's residual may grow 10^3-fold before it converges (2D convection-
     diffusion, Peclet 0.5: bcgs up to 1.8e3 ||r_0||), and a rounding variant of the same iteration can pass PETSc's default
     1e4 ||r_0|| on its way; the study measures the iteration, not that threshold */
  PetscCall(KSPSetTolerances(ksp, rtol, 0.0, 1e10, max_it));
  PetscCall(KSPSetFromOptions(ksp)); /* other -ksp_ options, e.g. -ksp_cabicgstab_spectrum, -ksp_cabicgstab_telescope */
  if (iscab) {                       /* what the study sets wins */
    PetscCall(KSPCABiCGStabSetBasis(ksp, (KSPCABiCGStabBasis)basis));
    PetscCall(KSPCABiCGStabSetS(ksp, s));
  }
  PetscCall(KSPSetTolerances(ksp, rtol, 0.0, 1e10, max_it));
  PetscCall(VecSet(x, 0.0));
  PetscCallMPI(MPI_Barrier(PetscObjectComm((PetscObject)A)));
  nreductions = 0;
  counting    = PETSC_TRUE;
  PetscCall(PetscTime(&tic));
  PetscCall(KSPSetUp(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(PetscTime(&toc));
  counting  = PETSC_FALSE;
  res->time = toc - tic;
  res->nred = nreductions;
  PetscCall(KSPGetIterationNumber(ksp, &res->its));
  PetscCall(KSPGetConvergedReason(ksp, &res->reason));
  PetscCall(KSPGetResidualNorm(ksp, &rnorm));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &t1));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  PetscCall(VecDestroy(&r));
  res->truerel     = t1 / bnorm;
  res->rnormrel    = rnorm / bnorm;
  res->stats.outer = -1;
  if (iscab) PetscCall(KSPCABiCGStabGetStatistics(ksp, &res->stats));
  if (iscab && view) PetscCall(CabView(ksp));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(0);
}

static PetscErrorCode PrintRow(FILE *csv, const char *problem, PetscInt n, PetscMPIInt size, const char *pctype, const char *method, const char *basis, PetscInt s, PetscReal rtol, const Result *res, const Result *ref)
{
  const PetscBool claimed = res->reason > 0 ? PETSC_TRUE : PETSC_FALSE, iscab = res->stats.outer >= 0 ? PETSC_TRUE : PETSC_FALSE;
  char            outer[32] = "-", red[32] = "-", ratio[32] = "-", ends[32] = "-", repl[32] = "-", smin[32] = "-";

  PetscFunctionBegin;
  if (iscab) {
    PetscCall(PetscSNPrintf(outer, sizeof(outer), "%" PetscInt_FMT, res->stats.outer));
    PetscCall(PetscSNPrintf(ends, sizeof(ends), "%" PetscInt_FMT, res->stats.early_ends));
    PetscCall(PetscSNPrintf(repl, sizeof(repl), "%" PetscInt_FMT, res->stats.replacements));
    PetscCall(PetscSNPrintf(smin, sizeof(smin), "%" PetscInt_FMT, res->stats.s_min));
  }
  if (size > 1) PetscCall(PetscSNPrintf(red, sizeof(red), "%" PetscInt_FMT, res->nred));
  if (ref && ref->its > 0) PetscCall(PetscSNPrintf(ratio, sizeof(ratio), "%.2f", (double)res->its / (double)ref->its));
  /* a claim of convergence whose true residual misses the tolerance by more than 10x is flagged */
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-9s %-10s %-9s %3" PetscInt_FMT " %6" PetscInt_FMT " %6s %-24s %-3s %10.2e %10.2e %7s %7s %5s %5s %5s %8.2f%s\n", problem, method, basis, s, res->its, ratio, KSPConvergedReasons[res->reason], claimed ? "yes" : "no",
                        (double)res->truerel, (double)res->rnormrel, outer, red, ends, repl, smin, (double)res->time, claimed && res->truerel > 10 * rtol ? "  <- claimed, true residual > 10 rtol" : ""));
  if (csv)
    PetscCall(PetscFPrintf(PETSC_COMM_WORLD, csv, "%s,%" PetscInt_FMT ",%d,%s,%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%s,%d,%.6e,%.6e,%s,%s,%.4f,%g,%s,%s,%s,%s\n", problem, n, (int)size, method, basis, s, res->its, KSPConvergedReasons[res->reason], (int)claimed,
                           (double)res->truerel, (double)res->rnormrel, iscab ? outer : "", size > 1 ? red : "", (double)res->time, (double)rtol, pctype, iscab ? ends : "", iscab ? repl : "", iscab ? smin : ""));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscBool    helponly;
  DM           da;
  Mat          A;
  Vec          b, x;
  StudyProblem problem = PROBLEM_POISSON;
  PetscInt     dim = 3, n = 64, slist[32] = {1, 2, 4, 6, 8, 10, 12, 16}, ns = 8, nbases = 3, max_it;
  PetscReal    peclet = 1.0, max_it_factor = 4.0, rtol = 1e-10;
  const char  *deflt[3] = {"monomial", "newton", "chebyshev"};
  char        *given[8] = {NULL}, csvname[PETSC_MAX_PATH_LEN] = "";
  PetscInt     view_s     = -1;
  char         pctype[64] = PCJACOBI;
  PetscBool    csv_append = PETSC_FALSE, view = PETSC_FALSE, flg;
  PetscMPIInt  size;
  FILE        *csv = NULL;
  Result       ref, res;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(CAKrylovInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "s-study of KSPCABICGSTAB", NULL);
  PetscCall(PetscOptionsEnum("-problem", "Operator", NULL, StudyProblems, (PetscEnum)problem, (PetscEnum *)&problem, NULL));
  PetscCall(PetscOptionsInt("-dim", "2 or 3", NULL, dim, &dim, NULL));
  PetscCall(PetscOptionsInt("-n", "Cells per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsReal("-peclet", "Cell Peclet number of convdiff", NULL, peclet, &peclet, NULL));
  {
    PetscInt nmax = 32;

    PetscCall(PetscOptionsIntArray("-s_list", "The s values", NULL, slist, &nmax, &flg));
    if (flg) ns = nmax;
  }
  {
    PetscInt nmax = 8;

    PetscCall(PetscOptionsStringArray("-bases", "The bases", NULL, given, &nmax, &flg));
    if (flg) nbases = nmax;
  }
  PetscCall(PetscOptionsReal("-max_it_factor", "cabicgstab stops after this many times bcgs's iterations", NULL, max_it_factor, &max_it_factor, NULL));
  PetscCall(PetscOptionsString("-csv", "Also write the rows to this CSV file", NULL, csvname, csvname, sizeof(csvname), NULL));
  PetscCall(PetscOptionsBool("-csv_append", "Append to the CSV file (no header)", NULL, csv_append, &csv_append, NULL));
  PetscCall(PetscOptionsBool("-view_cab", "Print the -ksp_view lines of each cabicgstab solve", NULL, view, &view, NULL));
  PetscCall(PetscOptionsInt("-view_s", "Print the -ksp_view lines of the cabicgstab solves with this s", NULL, view_s, &view_s, NULL));
  PetscCall(PetscOptionsReal("-ksp_rtol", "Relative tolerance", NULL, rtol, &rtol, NULL));
  PetscCall(PetscOptionsString("-pc_type", "Preconditioner of every solve (jacobi: Gershgorin-safe for the bottom policy)", NULL, pctype, pctype, sizeof(pctype), NULL));
  PetscOptionsEnd();
  PetscCall(BenchHelpOnly(&helponly));
  if (helponly) {
    for (PetscInt i = 0; i < 8; i++) PetscCall(PetscFree(given[i]));
    PetscCall(PetscFinalize());
    return 0;
  }
  PetscCheck(dim == 2 || dim == 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-dim must be 2 or 3");
  PetscCheck(ns > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-s_list is empty");

  PetscCall(StudyProblemCreate(PETSC_COMM_WORLD, problem, dim, n, peclet, &da, &A, &b));
  PetscCall(VecDuplicate(b, &x));

  if (csvname[0]) {
    PetscCall(PetscFOpen(PETSC_COMM_WORLD, csvname, csv_append ? "a" : "w", &csv));
    if (!csv_append) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, csv, "problem,n,ranks,method,basis,s,its,reason,claimed_converged,true_relres,recursive_relres,outer_its,reductions,time_s,rtol,pc,early_ends,replacements,s_min\n"));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "== %s, %" PetscInt_FMT "^%" PetscInt_FMT, StudyProblems[problem], n, dim));
  if (problem == PROBLEM_CONVDIFF) PetscCall(PetscPrintf(PETSC_COMM_WORLD, ", cell Peclet %g", (double)peclet));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, ", %d rank%s, PC %s (right), rtol %g\n", (int)size, size > 1 ? "s" : "", pctype, (double)rtol));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-9s %-10s %-9s %3s %6s %6s %-24s %-3s %10s %10s %7s %7s %5s %5s %5s %8s\n", "problem", "method", "basis", "s", "its", "/bcgs", "reason", "cnv", "true res", "recur res", "outer", "reduct", "ends", "repl", "s_min", "time s"));

  PetscCall(Solve(A, b, x, KSPBCGS, 0, 0, rtol, 100000, PETSC_FALSE, &ref));
  PetscCall(PrintRow(csv, StudyProblems[problem], n, size, pctype, KSPBCGS, "-", 0, rtol, &ref, NULL));
  max_it = (PetscInt)(max_it_factor * PetscMax(ref.its, 10));
  for (PetscInt ib = 0; ib < nbases; ib++) {
    const char *basis = given[0] ? given[ib] : deflt[ib];
    PetscEnum   e;
    PetscBool   known;

    /* the names the library knows, from the library itself (not from the header this program was compiled with) */
    PetscCall(PetscEnumFind(KSPCABiCGStabBases, basis, &e, &known));
    if (!known) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-9s %-10s %-9s  (basis not available in this build of the library: skipped)\n", StudyProblems[problem], KSPCABICGSTAB, basis));
      continue;
    }
    for (PetscInt is = 0; is < ns; is++) {
      const PetscBool v = (PetscBool)(view || slist[is] == view_s);

      if (v) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# -ksp_view of basis %s, s = %" PetscInt_FMT ":\n", basis, slist[is]));
      PetscCall(Solve(A, b, x, KSPCABICGSTAB, e, slist[is], rtol, max_it, v, &res));
      PetscCall(PrintRow(csv, StudyProblems[problem], n, size, pctype, KSPCABICGSTAB, basis, slist[is], rtol, &res, &ref));
    }
  }
  if (csv) PetscCall(PetscFClose(PETSC_COMM_WORLD, csv));
  for (PetscInt i = 0; i < 8; i++) PetscCall(PetscFree(given[i]));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}
