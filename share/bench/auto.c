static char help[] = "KSPAUTOBCGS against every candidate it chooses from, time per solve to -rtol (setup included), in the same rounds,\n\
on the 7-point 3D Laplacian (Dirichlet boundary eliminated), right preconditioning for all (the side every candidate has):\n\
bcgsm, rbicgstab, pipebcgsm, cabicgstab at s = 2, 4 (monomial), 6, 8, 10, 12, 16 (Chebyshev), and autobcgs (a new KSP per\n\
solve: it measures and chooses in each; the first of the process also times the reductions, which the later ones find\n\
kept on the communicator: its time is the row auto-1st). Also each candidate's measured time per iteration (its KSPSolve() after\n\
KSPSetUp(), over its iterations) beside autobcgs's prediction for it (the model's accuracy).\n\
  -n <32>        : grid points per direction;  -pc_type <none|jacobi> : the preconditioner of every KSP\n\
  -rtol <1e-8>   : the tolerance of every solve;  -runs <5> : rounds (each solves once with every method; round r in the order\n\
                 k = r + i (1 + r mod 10) mod 11, so that each method follows a different one in each round)\n\
  -csv <file>    : append one CSV row per method to file;  -label <text> : the first CSV column (the cell of the map)\n\
  -rounds_csv <file> : append one CSV row per method and round (its place in the round, its setup and solve times)\n\
  Every KSP also reads the options database (KSPSetFromOptions()).\n\n";

#include <cakrylov.h>

#include "benchutil.h"

#define NFIXED   10
#define NMETHODS (NFIXED + 1)

typedef struct {
  const char        *name;
  KSPType            type;
  PetscInt           s;
  KSPCABiCGStabBasis basis;
} Method;

static const Method methods[NMETHODS] = {
  {"bcgsm",        KSPBCGSM,      0,  KSP_CABICGSTAB_BASIS_MONOMIAL },
  {"rbicgstab",    KSPRBICGSTAB,  0,  KSP_CABICGSTAB_BASIS_MONOMIAL },
  {"pipebcgsm",    KSPPIPEBCGSM,  0,  KSP_CABICGSTAB_BASIS_MONOMIAL },
  {"cabicgstab2",  KSPCABICGSTAB, 2,  KSP_CABICGSTAB_BASIS_MONOMIAL },
  {"cabicgstab4",  KSPCABICGSTAB, 4,  KSP_CABICGSTAB_BASIS_MONOMIAL },
  {"cabicgstab6",  KSPCABICGSTAB, 6,  KSP_CABICGSTAB_BASIS_CHEBYSHEV},
  {"cabicgstab8",  KSPCABICGSTAB, 8,  KSP_CABICGSTAB_BASIS_CHEBYSHEV},
  {"cabicgstab10", KSPCABICGSTAB, 10, KSP_CABICGSTAB_BASIS_CHEBYSHEV},
  {"cabicgstab12", KSPCABICGSTAB, 12, KSP_CABICGSTAB_BASIS_CHEBYSHEV},
  {"cabicgstab16", KSPCABICGSTAB, 16, KSP_CABICGSTAB_BASIS_CHEBYSHEV},
  {"autobcgs",     KSPAUTOBCGS,   0,  KSP_CABICGSTAB_BASIS_MONOMIAL }
};

/* One solve with method k on a new KSP: the times of KSPSetUp() and KSPSolve() (slowest rank), its iterations, reason;
   for autobcgs its choice and the model's time per iteration of each fixed method whose solve's iterations fixed_its[]
   holds, predicted for a solve of that many (the model's one-time costs, a spectrum estimate, spread over them: each
   of this benchmark's solves is a new KSP) from the costs this autobcgs measured */
static PetscErrorCode SolveOnce(const Method *m, Mat A, Vec b, Vec x, const char *pc, PetscReal rtol, PetscReal *tsetup, PetscReal *tsolve, PetscInt *its, KSPConvergedReason *reason, KSPAutoBCGSChoice *choice, const PetscInt *fixed_its, PetscReal *predicted)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  KSP      ksp;
  PC       p;
  double   t[3], tl[2], tmax[2];

  PetscFunctionBegin;
  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, m->type));
  PetscCall(KSPGetPC(ksp, &p));
  PetscCall(PCSetType(p, pc));
  PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
  PetscCall(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 10000));
  PetscCall(KSPSetFromOptions(ksp));
  if (m->s) {
    PetscCall(KSPCABiCGStabSetS(ksp, m->s));
    PetscCall(KSPCABiCGStabSetBasis(ksp, m->basis));
  }
  PetscCall(VecSet(x, 0.0));
  PetscCallMPI(MPI_Barrier(comm));
  t[0] = MPI_Wtime();
  PetscCall(KSPSetUp(ksp));
  t[1] = MPI_Wtime();
  PetscCall(KSPSolve(ksp, b, x));
  t[2]  = MPI_Wtime();
  tl[0] = t[1] - t[0];
  tl[1] = t[2] - t[1];
  PetscCallMPI(MPI_Allreduce(tl, tmax, 2, MPI_DOUBLE, MPI_MAX, comm));
  *tsetup = tmax[0];
  *tsolve = tmax[1];
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  if (choice) { /* autobcgs: its choice, and its prediction for every fixed method */
    PetscInt                 n;
    const KSPAutoBCGSChoice *cand;

    PetscCall(KSPAutoBCGSGetChoice(ksp, choice, NULL, NULL, NULL));
    for (PetscInt k = 0; k < NFIXED; k++) {
      PetscBool same;

      predicted[k] = -1;
      if (!fixed_its[k]) continue;
      PetscCall(KSPAutoBCGSSetIterations(ksp, (PetscReal)fixed_its[k])); /* predicts again; no measurement */
      PetscCall(KSPAutoBCGSGetChoice(ksp, NULL, &n, &cand, NULL));
      for (PetscInt i = 0; i < n; i++) {
        PetscCall(PetscStrcmp(cand[i].type, methods[k].type, &same));
        if (same && cand[i].s == methods[k].s) predicted[k] = cand[i].time;
      }
    }
  }
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscBool          helponly;
  MPI_Comm           comm;
  PetscInt           n = 32, runs = 5, pc = 0, its[NMETHODS] = {0};
  PetscReal          rtol                        = 1e-8, nnz, total[NMETHODS][64], setup[NMETHODS][64], periter[NMETHODS][64], predicted[NFIXED][64], mpred[NFIXED];
  char               csvname[PETSC_MAX_PATH_LEN] = "", roundsname[PETSC_MAX_PATH_LEN] = "", label[256] = "here";
  PetscBool          csvset, roundsset;
  PetscInt           place[NMETHODS][64];
  PetscReal          first_total, first_setup;
  const char        *pcs[] = {PCNONE, PCJACOBI};
  KSPConvergedReason reason[NMETHODS];
  KSPAutoBCGSChoice  choice[64];
  DM                 da;
  Mat                A;
  Vec                b, x;
  FILE              *fp = NULL;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(CAKrylovInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscOptionsBegin(comm, NULL, "autobcgs benchmark", NULL);
  PetscCall(PetscOptionsInt("-n", "Grid points per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsEList("-pc_type", "Preconditioner of every KSP", NULL, pcs, 2, pcs[pc], &pc, NULL));
  PetscCall(PetscOptionsReal("-rtol", "Tolerance of every solve", NULL, rtol, &rtol, NULL));
  PetscCall(PetscOptionsInt("-runs", "Rounds", NULL, runs, &runs, NULL));
  PetscCall(PetscOptionsString("-csv", "Append one CSV row per method to this file", NULL, csvname, csvname, sizeof(csvname), &csvset));
  PetscCall(PetscOptionsString("-rounds_csv", "Append one CSV row per method and round to this file", NULL, roundsname, roundsname, sizeof(roundsname), &roundsset));
  PetscCall(PetscOptionsString("-label", "The first CSV column", NULL, label, label, sizeof(label), NULL));
  PetscOptionsEnd();
  PetscCall(BenchHelpOnly(&helponly));
  if (helponly) {
    PetscCall(PetscFinalize());
    return 0;
  }
  PetscCheck(runs >= 1 && runs <= 64, comm, PETSC_ERR_ARG_OUTOFRANGE, "-runs must be in 1..64");
  for (PetscInt d = 2; d < NMETHODS; d++) PetscCheck(NMETHODS % d, comm, PETSC_ERR_PLIB, "the rounds' order needs a prime number of methods");
  PetscCall(BenchLaplacian(comm, n, &da, &A, &b, &x, &nnz));
  for (PetscInt r = 0; r < runs; r++)
    for (PetscInt i = 0; i < NMETHODS; i++) {
      /* a rotated order whose step changes per round (NMETHODS = 11 is prime: every step 1-10 visits every method), so
         that no method always follows the same one: autobcgs's measurement, a few hundred microseconds, read 20-30 %
         slow right after cabicgstab s = 16's solve (AMD EPYC VM; its first MatMult()s after that solve run slow), and
         the plain rotation put it there in every round */
      const PetscInt  k      = (r + i * (1 + r % (NMETHODS - 1))) % NMETHODS;
      const PetscBool isauto = k == NFIXED ? PETSC_TRUE : PETSC_FALSE;
      PetscReal       ts = 0, tv = 0, pred[NFIXED];

      PetscCall(SolveOnce(&methods[k], A, b, x, pcs[pc], rtol, &ts, &tv, &its[k], &reason[k], isauto ? &choice[r] : NULL, its, pred));
      place[k][r]   = i;
      setup[k][r]   = ts;
      total[k][r]   = ts + tv;
      periter[k][r] = its[k] ? tv / its[k] : 0;
      if (isauto)
        for (PetscInt j = 0; j < NFIXED; j++) predicted[j][r] = pred[j];
    }
  first_total = total[NFIXED][0]; /* before the medians reorder the rounds */
  first_setup = setup[NFIXED][0];
  if (roundsset) {
    PetscCall(OpenCSV(comm, roundsname, "label,pc,method,round,place,setup_ms,solve_ms", &fp));
    for (PetscInt r = 0; r < runs; r++)
      for (PetscInt k = 0; k < NMETHODS; k++) PetscCall(PetscFPrintf(comm, fp, "%s,%s,%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%.6g,%.6g\n", label, pcs[pc], methods[k].name, r, place[k][r], 1e3 * setup[k][r], 1e3 * (total[k][r] - setup[k][r])));
    PetscCall(PetscFClose(comm, fp));
    fp = NULL;
  }
  for (PetscInt k = 0; k < NFIXED; k++) PetscCall(Median(runs, predicted[k], &mpred[k])); /* the model's, from each round's measurement */
  if (csvset) PetscCall(OpenCSV(comm, csvname, "label,pc,method,s,median_solve_ms,min_solve_ms,max_solve_ms,iterations,reason,median_setup_ms,median_us_per_it,predicted_us_per_it,chosen", &fp));
  PetscCall(PetscPrintf(comm, "autobcgs benchmark: 3D Laplacian n = %" PetscInt_FMT " (%" PetscInt_FMT " unknowns), PC %s, right preconditioning, rtol %g, %" PetscInt_FMT " rounds\n", n, n * n * n, pcs[pc], (double)rtol, runs));
  PetscCall(PetscPrintf(comm, "%-13s %10s %9s %9s %6s %10s %11s %11s  %s\n", "method", "solve ms", "min", "max", "its", "setup ms", "us/it", "predicted", "reason / chosen"));
  for (PetscInt k = 0; k < NMETHODS; k++) {
    PetscReal med = 0, lo = PETSC_MAX_REAL, hi = 0, msetup = 0, mit = 0;
    char      chosen[64] = "";

    for (PetscInt r = 0; r < runs; r++) {
      lo = PetscMin(lo, total[k][r]);
      hi = PetscMax(hi, total[k][r]);
    }
    PetscCall(Median(runs, total[k], &med));
    PetscCall(Median(runs, setup[k], &msetup));
    PetscCall(Median(runs, periter[k], &mit));
    if (k == NFIXED) { /* the choice of most rounds (of the later ones on a tie), and in how many */
      PetscInt same = 0, mode = runs - 1;

      for (PetscInt q = 0; q < runs; q++) {
        PetscInt n = 0;

        for (PetscInt r = 0; r < runs; r++) n += choice[r].type == choice[q].type && choice[r].s == choice[q].s;
        if (n >= same) {
          same = n;
          mode = q;
        }
      }
      char s[16] = "";

      if (choice[mode].s) PetscCall(PetscSNPrintf(s, sizeof(s), " s=%" PetscInt_FMT, choice[mode].s));
      PetscCall(PetscSNPrintf(chosen, sizeof(chosen), "%s%s (%" PetscInt_FMT "/%" PetscInt_FMT " rounds)", choice[mode].type, s, same, runs));
    }
    PetscCall(PetscPrintf(comm, "%-13s %10.3f %9.3f %9.3f %6" PetscInt_FMT " %10.3f %11.2f %11.2f  %s %s\n", methods[k].name, 1e3 * med, 1e3 * lo, 1e3 * hi, its[k], 1e3 * msetup, 1e6 * mit, k < NFIXED ? 1e6 * mpred[k] : 0.0, KSPConvergedReasons[reason[k]], chosen));
    if (fp)
      PetscCall(PetscFPrintf(comm, fp, "%s,%s,%s,%" PetscInt_FMT ",%.6g,%.6g,%.6g,%" PetscInt_FMT ",%s,%.6g,%.6g,%.6g,%s\n", label, pcs[pc], methods[k].name, methods[k].s, 1e3 * med, 1e3 * lo, 1e3 * hi, its[k], KSPConvergedReasons[reason[k]], 1e3 * msetup, 1e6 * mit, k < NFIXED ? 1e6 * mpred[k] : 0.0, chosen));
  }
  /* the first autobcgs of the process (round 1): it alone times the reductions, which the later ones find kept on the
     communicator; one sample */
  PetscCall(PetscPrintf(comm, "%-13s %10.3f %9s %9s %6s %10.3f %11s %11s  %s\n", "auto-1st", 1e3 * first_total, "", "", "", 1e3 * first_setup, "", "", "round 1: the reduction times measured"));
  if (fp)
    PetscCall(PetscFPrintf(comm, fp, "%s,%s,auto-1st,0,%.6g,%.6g,%.6g,%" PetscInt_FMT ",%s,%.6g,0,0,%s\n", label, pcs[pc], 1e3 * first_total, 1e3 * first_total, 1e3 * first_total, its[NFIXED], KSPConvergedReasons[reason[NFIXED]], 1e3 * first_setup, "round 1"));
  if (fp) PetscCall(PetscFClose(comm, fp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}
