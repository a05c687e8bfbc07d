static char help[] = "KSPAUTOBCGS: the chosen solver bit for bit, the choice under a planning model, when it is made again, bad options.\n"
                     "-test <same|model|rechoose|options|matsolve|uneven|iterations|kept|retype>, -n <points per direction>, -spectrum lmin,lmax (same: KSPAutoBCGSSetSpectrum());\n"
                     "-late_allreduce_ms t (kept): every MPI_Allreduce() and MPI_Iallreduce() of the last rank t ms late;\n"
                     "every KSP option applies to the KSPs made here.\n";

#include <cakrylov.h>
#include <cakrylov/private/compat.h>
#include <petscdmda.h>

#include "stencil.h"
#include "reductioncounter.h"

typedef enum {
  TEST_SAME,
  TEST_MODEL,
  TEST_RECHOOSE,
  TEST_OPTIONS,
  TEST_MATSOLVE,
  TEST_UNEVEN,
  TEST_ITERATIONS,
  TEST_KEPT,
  TEST_RETYPE
} Test;
static const char *const Tests[] = {"same", "model", "rechoose", "options", "matsolve", "uneven", "iterations", "kept", "retype", "Test", "TEST_", NULL};

/* A KSP of the options database's settings, of type `type` */
static PetscErrorCode CreateSolver(Mat A, KSPType type, KSP *ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, ksp));
  PetscCall(KSPSetOperators(*ksp, A, A));
  PetscCall(KSPSetType(*ksp, type));
  PetscCall(KSPSetTolerances(*ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 2000));
  PetscCall(KSPSetFromOptions(*ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The type autobcgs chose, set by hand: its side, s and basis, and on a given interval (NULL: none) the Chebyshev
   basis on it without telescoping, as autobcgs runs it; x and the iterations of its solve */
static PetscErrorCode SolveByHand(Mat A, Vec b, const KSPAutoBCGSChoice *choice, PCSide side, const PetscReal *interval, Vec x, PetscInt *its)
{
  KSP hand;

  PetscFunctionBegin;
  PetscCall(CreateSolver(A, choice->type, &hand));
  PetscCall(KSPSetPCSide(hand, side));
  if (choice->s) {
    PetscCall(KSPCABiCGStabSetS(hand, choice->s));
    PetscCall(KSPCABiCGStabSetBasis(hand, choice->basis));
  }
  if (interval && choice->basis == KSP_CABICGSTAB_BASIS_CHEBYSHEV) {
    PetscCall(KSPCABiCGStabSetSpectrum(hand, interval[0], interval[1]));
    PetscCall(KSPCABiCGStabSetTelescope(hand, PETSC_FALSE));
  }
  PetscCall(KSPSolve(hand, b, x));
  PetscCall(KSPGetIterationNumber(hand, its));
  PetscCall(KSPDestroy(&hand));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* autobcgs against the type it chose, set by hand (same side, s and basis): the same iterations and x bit for bit */
static PetscErrorCode TestSame(Mat A, Vec b)
{
  KSP               autoksp;
  KSPAutoBCGSChoice choice;
  Vec               xa, xh;
  PetscInt          ita, ith;
  PetscBool         equal;
  PCSide            side;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &xa));
  PetscCall(VecDuplicate(b, &xh));
  PetscReal spectrum[2];
  PetscInt  nsp = 2;
  PetscBool given;

  PetscCall(PetscOptionsGetRealArray(NULL, NULL, "-spectrum", spectrum, &nsp, &given));
  PetscCall(CreateSolver(A, KSPAUTOBCGS, &autoksp));
  if (given) PetscCall(KSPAutoBCGSSetSpectrum(autoksp, spectrum[0], spectrum[1]));
  PetscCall(KSPSolve(autoksp, b, xa));
  PetscCall(KSPAutoBCGSGetChoice(autoksp, &choice, NULL, NULL, NULL));
  PetscCall(KSPGetPCSide(autoksp, &side));
  PetscCall(SolveByHand(A, b, &choice, side, given ? spectrum : NULL, xh, &ith));
  PetscCall(KSPGetIterationNumber(autoksp, &ita));
  PetscCall(VecEqual(xa, xh, &equal));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the chosen type set by hand: the same iterations and x bit for bit: %s\n", equal && ita == ith ? "yes" : "NO"));
  if (!equal || ita != ith) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  chose %s s %" PetscInt_FMT ": %" PetscInt_FMT " against %" PetscInt_FMT " iterations\n", choice.type, choice.s, ita, ith));
  PetscCall(KSPDestroy(&autoksp));
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&xh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Under Krasnopolsky's model at p = 16384 nodes with C0 = 1 s a reduction costs a second, far above any compute this
   test measures, even on a loaded machine where two ranks share a core (with the default C0 it is about 0.5 ms, which
   a rank descheduled during the timed MatMult() can exceed): cabicgstab; at p = 1 with the default constants (3.5 us +
   1.7 us l^0.21) the compute decides, and cabicgstab applies the operator and passes over vectors more often per
   iteration than the merged types whatever the measured costs: not cabicgstab */
static PetscErrorCode TestModel(Mat A)
{
  const char *nodes[2] = {"16384", "1"}, *c0[2] = {"1", NULL};
  PetscBool   ca[2];

  PetscFunctionBegin;
  for (PetscInt i = 0; i < 2; i++) {
    KSP               ksp;
    KSPAutoBCGSChoice choice;

    PetscCall(PetscOptionsSetValue(NULL, "-ksp_autobcgs_model", "krasnopolsky"));
    PetscCall(PetscOptionsSetValue(NULL, "-ksp_autobcgs_nodes", nodes[i]));
    if (c0[i]) PetscCall(PetscOptionsSetValue(NULL, "-ksp_autobcgs_model_c0", c0[i]));
    else PetscCall(PetscOptionsClearValue(NULL, "-ksp_autobcgs_model_c0"));
    PetscCall(CreateSolver(A, KSPAUTOBCGS, &ksp));
    PetscCall(KSPSetUp(ksp));
    PetscCall(KSPAutoBCGSGetChoice(ksp, &choice, NULL, NULL, NULL));
    PetscCall(PetscStrcmp(choice.type, KSPCABICGSTAB, &ca[i]));
    PetscCall(KSPDestroy(&ksp));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "planning model: cabicgstab at p = 16384 with C0 = 1 s, a merged type at p = 1: %s\n", ca[0] && !ca[1] ? "yes" : "NO"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One choice per operator: none again for KSPSetFromOptions() with the same options, for new values, or for another
   matrix of the same pattern (the costs measured hold); one for a new nonzero pattern */
static PetscErrorCode TestRechoose(Mat A, Vec b)
{
  KSP      ksp;
  Mat      B;
  Vec      x;
  PetscInt n[6], lo, N;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &x));
  PetscCall(CreateSolver(A, KSPAUTOBCGS, &ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPAutoBCGSGetChoice(ksp, NULL, NULL, NULL, &n[0]));
  PetscCall(KSPSetFromOptions(ksp)); /* the same options again: no new choice */
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPAutoBCGSGetChoice(ksp, NULL, NULL, NULL, &n[1]));
  PetscCall(MatScale(A, 2.0)); /* new values, the same pattern */
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPAutoBCGSGetChoice(ksp, NULL, NULL, NULL, &n[2]));
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B)); /* another matrix */
  PetscCall(MatGetOwnershipRange(B, &lo, NULL));
  PetscCall(MatSetOption(B, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatSetValue(B, lo, lo, 1.0, ADD_VALUES));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscCall(KSPSetOperators(ksp, B, B));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPAutoBCGSGetChoice(ksp, NULL, NULL, NULL, &n[3]));
  PetscCall(MatGetSize(B, &N, NULL)); /* a new nonzero in the same matrix: a new nonzero state */
  PetscCall(MatSetValue(B, lo, (lo + N / 2) % N, 1e-3, ADD_VALUES));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscCall(KSPSetOperators(ksp, B, B));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPAutoBCGSGetChoice(ksp, NULL, NULL, NULL, &n[4]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "one choice at the first solve, none after KSPSetFromOptions() again or for new values: %s\n", n[0] == 1 && n[1] == 1 && n[2] == 1 ? "yes" : "NO"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "none for another matrix of the same pattern, a new choice for a new nonzero in it: %s\n", n[3] == 1 && n[4] == 2 ? "yes" : "NO"));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&B));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KSPAutoBCGSSetIterations() after a choice, on a given interval under a planning model where a reduction costs
   a second (C0 = 1 s: one outer iteration per solve is the fastest, whatever compute a loaded machine measures): cabicgstab at the smallest s of the candidates
   (2, 4, 6, ..., 16) not below the iterations, predicted again without a new measurement; each next solve bitwise that
   of cabicgstab set by hand with that s and basis on the interval, without telescoping */
static PetscErrorCode TestIterations(Mat A, Vec b)
{
  const PetscReal interval[2] = {0.01, 1.99};
  const PetscInt  its[3] = {3, 7, 10}, expect[3] = {4, 8, 10};
  KSP             autoksp;
  Vec             xa, xh;
  PetscInt        n0, n;
  PetscBool       chose = PETSC_TRUE, same = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &xa));
  PetscCall(VecDuplicate(b, &xh));
  PetscCall(CreateSolver(A, KSPAUTOBCGS, &autoksp));
  PetscCall(KSPAutoBCGSSetSpectrum(autoksp, interval[0], interval[1]));
  PetscCall(KSPSolve(autoksp, b, xa)); /* the choice, for the default 100 iterations per solve */
  PetscCall(KSPAutoBCGSGetChoice(autoksp, NULL, NULL, NULL, &n0));
  for (PetscInt i = 0; i < 3; i++) {
    KSPAutoBCGSChoice choice;
    PCSide            side;
    PetscInt          ita, ith;
    PetscBool         equal, iscab;

    PetscCall(KSPAutoBCGSSetIterations(autoksp, its[i]));
    PetscCall(KSPAutoBCGSGetChoice(autoksp, &choice, NULL, NULL, &n));
    PetscCall(PetscStrcmp(choice.type, KSPCABICGSTAB, &iscab));
    if (!iscab || choice.s != expect[i] || n != n0) {
      chose = PETSC_FALSE;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %" PetscInt_FMT " iterations: chose %s s = %" PetscInt_FMT " (%" PetscInt_FMT " choices measured)\n", its[i], choice.type, choice.s, n));
    }
    PetscCall(KSPSolve(autoksp, b, xa));
    PetscCall(KSPGetPCSide(autoksp, &side));
    PetscCall(SolveByHand(A, b, &choice, side, interval, xh, &ith));
    PetscCall(KSPGetIterationNumber(autoksp, &ita));
    PetscCall(VecEqual(xa, xh, &equal));
    if (!equal || ita != ith) {
      same = PETSC_FALSE;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %" PetscInt_FMT " iterations: %" PetscInt_FMT " against %" PetscInt_FMT " by hand, x %s\n", its[i], ita, ith, equal ? "equal" : "different"));
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "after KSPAutoBCGSSetIterations(3, 7, 10): cabicgstab at the smallest s not below them, no new measurement: %s\n", chose ? "yes" : "NO"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "each next solve: the iterations and x of that cabicgstab set by hand, bit for bit: %s\n", same ? "yes" : "NO"));
  PetscCall(KSPDestroy(&autoksp));
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&xh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The operators of a KSP with a DM (KSPSetComputeOperators()), as main() assembles them; ctx counts the calls */
static PetscErrorCode ComputeOperators(KSP ksp, Mat A, Mat B, void *ctx)
{
  DM da;

  PetscFunctionBegin;
  (void)A;
  PetscCall(KSPGetDM(ksp, &da));
  PetscCall(AssembleStencilOperator(da, STENCIL_CONVDIFF, 1.0, B));
  (*(PetscInt *)ctx)++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A change of type after KSPAutoBCGSSetIterations() (the bottom hook's feed) on a KSP with a DM: the new type runs at
   the next solve, bit for bit as set by hand, and the operators are computed once (a new type set up as KSPSetType()
   would be, at KSP_SETUP_NEW, makes KSPSetUp() compute a DM's operators again: a PCMG's coarse operator); a change
   after KSPSetOperators() (which does make KSPSetUp() compute them again) is set up with the new operators. Candidates
   bcgsm and cabicgstab, and a reduction of C0 seconds whatever its size (-ksp_autobcgs_model_c1 0): at C0 -> 0 bcgsm
   wins whatever the iterations per solve (its compute per iteration is the least), at C0 -> infinity cabicgstab (one
   reduction per iteration or fewer against bcgsm's three); in between cabicgstab wins sooner for 4096 iterations per
   solve (one reduction per s of them) than for 1, so an interval of C0 makes the two differ. C0 goes up from 10 ns by
   a factor 1.25 per step, a new KSP (a new measurement) at each, until one KSP's choices at 4096 and 1 differ (several
   steps fall in that interval: a loaded machine's noisy measurement can miss some of them) */
static PetscErrorCode TestRetype(DM da, Mat A, Vec b)
{
  const PetscReal many = 4096, interval[2] = {0.01, 1.99};
  PetscReal       c0    = 1e-8; /* [s] */
  PetscBool       found = PETSC_FALSE, same = PETSC_TRUE, once = PETSC_TRUE;
  Vec             xa, xh;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &xa));
  PetscCall(VecDuplicate(b, &xh));
  for (; c0 < 10 && !found; c0 *= 1.25) {
    const PetscReal   its[5] = {many, 1, many, 1, many};
    const char       *first  = NULL;
    char              value[32];
    KSP               ksp;
    KSPAutoBCGSChoice choice;
    PetscInt          computed = 0, nchoices;

    PetscCall(PetscSNPrintf(value, sizeof(value), "%.17g", (double)c0));
    PetscCall(PetscOptionsSetValue(NULL, "-ksp_autobcgs_model_c0", value));
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetDM(ksp, da));
    PetscCall(KSPSetComputeOperators(ksp, ComputeOperators, &computed));
    PetscCall(KSPSetType(ksp, KSPAUTOBCGS));
    PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 2000));
    PetscCall(KSPSetFromOptions(ksp));
    PetscCall(KSPAutoBCGSSetSpectrum(ksp, interval[0], interval[1]));
    for (PetscInt i = 0; i < 5; i++) {
      PCSide    side;
      PetscInt  ita, ith;
      PetscBool equal;

      if (i >= 3) { /* the program says the operators changed (the same ones): the change of type waits for their setup */
        Mat Ak, Bk;

        PetscCall(KSPGetOperators(ksp, &Ak, &Bk));
        PetscCall(KSPSetOperators(ksp, Ak, Bk));
      }
      PetscCall(KSPAutoBCGSSetIterations(ksp, its[i]));
      PetscCall(KSPSetUp(ksp)); /* the first: the measurement and the choice */
      PetscCall(KSPAutoBCGSGetChoice(ksp, &choice, NULL, NULL, NULL));
      if (!i) first = choice.type;
      else if (i == 1 && choice.type == first) break; /* no change of type at this C0 */
      PetscCall(KSPSolve(ksp, b, xa));
      PetscCall(KSPGetPCSide(ksp, &side));
      PetscCall(SolveByHand(A, b, &choice, side, interval, xh, &ith));
      PetscCall(KSPGetIterationNumber(ksp, &ita));
      PetscCall(VecEqual(xa, xh, &equal));
      if (i && (!equal || ita != ith)) {
        same = PETSC_FALSE;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  C0 %g s, %g iterations: %s, %" PetscInt_FMT " against %" PetscInt_FMT " iterations by hand, x %s\n", (double)c0, (double)its[i], choice.type, ita, ith, equal ? "equal" : "different"));
      }
      if (i == 4) found = PETSC_TRUE;
    }
    PetscCall(KSPAutoBCGSGetChoice(ksp, NULL, NULL, NULL, &nchoices));
    if (computed != (found ? 3 : 1) || nchoices != 1) {
      once = PETSC_FALSE;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  C0 %g s: operators computed %" PetscInt_FMT " times, %" PetscInt_FMT " measurements\n", (double)c0, computed, nchoices));
    }
    PetscCall(KSPDestroy(&ksp));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "a C0 where 4096 and 1 iterations per solve choose different types: %s\n", found ? "yes" : "NO"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "after each change the next solve is the new type set by hand, bit for bit: %s\n", same ? "yes" : "NO"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the DM's operators computed at the first setup and after KSPSetOperators() only, one measurement per KSP: %s\n", once ? "yes" : "NO"));
  PetscCall(PetscOptionsClearValue(NULL, "-ksp_autobcgs_model_c0"));
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&xh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A second KSPAUTOBCGS on the communicator times no reduction again (the times the first measured are kept on it): the
   global reductions of its setup (counted by MPI) are those of the first less those that timed the reductions: 8 bytes
   three times (once non-blocking) and s = 4's Gram matrix (the only reductions of more than 16 entries) once, or,
   where an 8-byte reduction took under 20 us on every rank, the Gram matrix twice and 8 bytes three times more (twice
   non-blocking).
   -late_allreduce_ms t: every MPI_Allreduce() and MPI_Iallreduce() of the last rank starts t ms late, so every
   reduction takes at least that long: with t >= 0.02, the Gram matrix once */
static PetscErrorCode TestKept(Mat A)
{
  PetscInt  n[2], wide[2], nb[2];
  Vec       x, y;
  PetscBool slow, kept;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-late_allreduce_ms", &late_allreduce_ms, NULL));
  late_iallreduce_ms = late_allreduce_ms; /* the non-blocking 8-byte sample too */
  slow               = late_allreduce_ms >= 0.02 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(A, x, y)); /* the operator's lazy setup (its halo's PetscSF, a reduction) before the counts */
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  for (PetscInt i = 0; i < 2; i++) {
    KSP ksp;

    PetscCall(CreateSolver(A, KSPAUTOBCGS, &ksp));
    nreductions = nnonblocking = nwide = 0;
    counting                           = PETSC_TRUE;
    PetscCall(KSPSetUp(ksp));
    counting = PETSC_FALSE;
    n[i]     = nreductions;
    wide[i]  = nwide;
    nb[i]    = nnonblocking;
    PetscCall(KSPDestroy(&ksp));
  }
  late_allreduce_ms = late_iallreduce_ms = 0.0;
  /* the Gram matrix timed twice (wide[0] == 2): three 8-byte samples more, two of them non-blocking */
  kept = (wide[0] == 1 || wide[0] == 2) && !wide[1] && n[0] - n[1] == 3 + wide[0] + 3 * (wide[0] - 1) && nb[0] - nb[1] == 1 + 2 * (wide[0] - 1) ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "a second autobcgs on the communicator: the reduction times kept, the 3 of 8 bytes and the Gram matrix's 1 (or 2, and 3 of 8 bytes) fewer at its setup: %s\n", kept ? "yes" : "NO"));
  if (!kept)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %" PetscInt_FMT " then %" PetscInt_FMT " reductions, %" PetscInt_FMT " then %" PetscInt_FMT " of the Gram matrix's size, %" PetscInt_FMT " then %" PetscInt_FMT " non-blocking\n", n[0], n[1], wide[0], wide[1], nb[0], nb[1]));
  if (slow) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "with every reduction 20 us or more, the Gram matrix's size timed once: %s\n", wide[0] == 1 ? "yes" : "NO"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A bad option is a PETSc error (at KSPSetUp()) whose message names the option */
static PetscErrorCode TestOptions(Mat A)
{
  const char *opt[3][2] = {
    {"-ksp_autobcgs_candidates", "bcgsm,gmres"},
    {"-ksp_autobcgs_s_max",      "17"         },
    {"-ksp_autobcgs_nodes",      "0"          }
  };

  PetscFunctionBegin;
  for (PetscInt i = 0; i < 3; i++) {
    KSP            ksp;
    PetscErrorCode ierr;
    const char    *msg  = NULL;
    char          *hit  = NULL;
    PetscBool      fail = PETSC_FALSE;

    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPAUTOBCGS));
    PetscCall(PetscOptionsSetValue(NULL, opt[i][0], opt[i][1]));
    PetscCall(KSPSetFromOptions(ksp));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = KSPSetUp(ksp);
    PetscCall(PetscPopErrorHandler());
    if (ierr) {
      PetscCall(CAKrylovErrorMessage(ierr, &msg));
      if (msg) PetscCall(PetscStrstr(msg, opt[i][0], &hit));
      fail = hit ? PETSC_TRUE : PETSC_FALSE;
    }
    PetscCall(PetscOptionsClearValue(NULL, opt[i][0]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %s: an error naming the option: %s\n", opt[i][0], opt[i][1], fail ? "yes" : "NO"));
    PetscCall(KSPDestroy(&ksp));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KSPMatSolve() of autobcgs: the chosen type's block solve, column j bitwise the hand-chosen type's */
static PetscErrorCode TestMatSolve(Mat A, Vec b)
{
  KSP                autoksp, hand;
  KSPAutoBCGSChoice  choice;
  Mat                B, Xa, Xh;
  PetscInt           nloc;
  PetscBool          equal;
  PCSide             side;
  PetscScalar       *v;
  const PetscScalar *bv;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(b, &nloc));
  PetscCall(MatCreateDense(PETSC_COMM_WORLD, nloc, PETSC_DECIDE, PETSC_DETERMINE, 3, NULL, &B));
  PetscCall(MatDenseGetArrayWrite(B, &v));
  PetscCall(VecGetArrayRead(b, &bv));
  for (PetscInt j = 0; j < 3; j++)
    for (PetscInt i = 0; i < nloc; i++) v[j * nloc + i] = bv[i] * (1 + j) + j;
  PetscCall(VecRestoreArrayRead(b, &bv));
  PetscCall(MatDenseRestoreArrayWrite(B, &v));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &Xa));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &Xh));
  PetscCall(CreateSolver(A, KSPAUTOBCGS, &autoksp));
  PetscCall(KSPMatSolve(autoksp, B, Xa));
  PetscCall(KSPAutoBCGSGetChoice(autoksp, &choice, NULL, NULL, NULL));
  PetscCall(KSPGetPCSide(autoksp, &side));
  PetscCall(CreateSolver(A, choice.type, &hand));
  PetscCall(KSPSetPCSide(hand, side));
  if (choice.s) {
    PetscCall(KSPCABiCGStabSetS(hand, choice.s));
    PetscCall(KSPCABiCGStabSetBasis(hand, choice.basis));
  }
  PetscCall(KSPMatSolve(hand, B, Xh));
  PetscCall(MatEqual(Xa, Xh, &equal));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KSPMatSolve(): the chosen type's block solve, X bit for bit: %s\n", equal ? "yes" : "NO"));
  PetscCall(KSPDestroy(&autoksp));
  PetscCall(KSPDestroy(&hand));
  PetscCall(MatDestroy(&Xa));
  PetscCall(MatDestroy(&Xh));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Ranks of very different sizes (1 row against 3000) decide alike: the costs are the slowest rank's, so every rank makes
   the same choice (a choice that differed by rank would hang in the chosen solver's first reduction) */
static PetscErrorCode TestUneven(void)
{
  const PetscInt           nloc = PetscGlobalRank ? 3000 : 1;
  KSP                      ksp;
  KSPAutoBCGSChoice        choice;
  Mat                      A;
  Vec                      b, x;
  PetscInt                 lo, hi, N, mine[3], lmin[3], lmax[3], n;
  const KSPAutoBCGSChoice *cand;
  PetscBool                same = PETSC_TRUE;
  KSPConvergedReason       reason;

  PetscFunctionBegin;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, nloc, nloc, PETSC_DETERMINE, PETSC_DETERMINE, 3, NULL, 2, NULL, &A));
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  PetscCall(MatGetSize(A, &N, NULL));
  for (PetscInt i = lo; i < hi; i++) { /* 1D convection-diffusion, diagonally dominant */
    if (i > 0) PetscCall(MatSetValue(A, i, i - 1, -1.2, INSERT_VALUES));
    PetscCall(MatSetValue(A, i, i, 3.0, INSERT_VALUES));
    if (i < N - 1) PetscCall(MatSetValue(A, i, i + 1, -0.8, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(CreateSolver(A, KSPAUTOBCGS, &ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPAutoBCGSGetChoice(ksp, &choice, &n, &cand, NULL));
  for (PetscInt t = 0; t < 3; t++) mine[t] = 0;
  mine[0] = choice.type[0] + 256 * choice.type[1] + 65536 * choice.type[2]; /* the type's first letters */
  mine[1] = choice.s;
  mine[2] = choice.basis;
  PetscCallMPI(MPI_Allreduce(mine, lmin, 3, MPIU_INT, MPI_MIN, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Allreduce(mine, lmax, 3, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD));
  for (PetscInt i = 0; i < n; i++) { /* every prediction the same number on every rank */
    PetscReal tmin, tmax;

    PetscCallMPI(MPI_Allreduce(&cand[i].time, &tmin, 1, MPIU_REAL, MPIU_MIN, PETSC_COMM_WORLD));
    PetscCallMPI(MPI_Allreduce(&cand[i].time, &tmax, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
    same = same && tmin == tmax ? PETSC_TRUE : PETSC_FALSE;
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "ranks of 1 and 3000 rows: the same predictions and choice on every rank, and it converges: %s\n", same && lmin[0] == lmax[0] && lmin[1] == lmax[1] && lmin[2] == lmax[2] && reason > 0 ? "yes" : "NO"));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Test     test = TEST_SAME;
  PetscInt n    = 32;
  DM       da;
  Mat      A;
  Vec      b;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(CAKrylovInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "KSPAUTOBCGS test", NULL);
  PetscCall(PetscOptionsEnum("-test", "What to test", NULL, Tests, (PetscEnum)test, (PetscEnum *)&test, NULL));
  PetscCall(PetscOptionsInt("-n", "Grid points per direction", NULL, n, &n, NULL));
  PetscOptionsEnd();
  PetscCall(StencilCreateDMDA(PETSC_COMM_WORLD, 2, n, DM_BOUNDARY_NONE, &da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(AssembleStencilOperator(da, STENCIL_CONVDIFF, 1.0, A));
  PetscCall(MatCreateVecs(A, &b, NULL));
  PetscCall(VecSet(b, 1.0));
  switch (test) {
  case TEST_SAME:
    PetscCall(TestSame(A, b));
    break;
  case TEST_MODEL:
    PetscCall(TestModel(A));
    break;
  case TEST_RECHOOSE:
    PetscCall(TestRechoose(A, b));
    break;
  case TEST_OPTIONS:
    PetscCall(TestOptions(A));
    break;
  case TEST_MATSOLVE:
    PetscCall(TestMatSolve(A, b));
    break;
  case TEST_UNEVEN:
    PetscCall(TestUneven());
    break;
  case TEST_ITERATIONS:
    PetscCall(TestIterations(A, b));
    break;
  case TEST_KEPT:
    PetscCall(TestKept(A));
    break;
  case TEST_RETYPE:
    PetscCall(TestRetype(da, A, b));
    break;
  }
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST
   # restricted to one candidate: that type bit for bit (cabicgstab: with the s and basis chosen)
   test:
      suffix: same
      nsize: {{1 2}}
      args: -test same -ksp_autobcgs_candidates {{bcgsm rbicgstab pipebcgsm cabicgstab}} -pc_type {{none jacobi}}

   # the whole set, left preconditioning (bcgsm and cabicgstab only), and a small s_max
   test:
      suffix: same_all
      nsize: 2
      args: -test same -ksp_pc_side {{left right}} -ksp_autobcgs_s_max 6 -pc_type jacobi
      output_file: output/autobcgs_same.out

   # a given spectrum: a Chebyshev choice runs on it without telescoping, as set by hand
   test:
      suffix: spectrum
      nsize: 2
      args: -test same -ksp_autobcgs_candidates cabicgstab -spectrum 0.01,1.99 -pc_type jacobi -ksp_autobcgs_model krasnopolsky -ksp_autobcgs_nodes 16384
      output_file: output/autobcgs_same.out

   test:
      suffix: model
      nsize: {{1 2}}
      args: -test model -pc_type jacobi -n 200

   test:
      suffix: rechoose
      nsize: 2
      args: -test rechoose -ksp_autobcgs_gamma 0.5 -ksp_autobcgs_model_c0 4e-6

   # 1 row on rank 0, 3000 on the others: at p = 1024 planned the Gram GEMM decides among the cabicgstab candidates
   test:
      suffix: uneven
      nsize: {{2 3}}
      args: -test uneven -pc_type jacobi -ksp_autobcgs_candidates cabicgstab -ksp_autobcgs_model krasnopolsky -ksp_autobcgs_nodes 1024

   test:
      suffix: options
      args: -test options

   # the reduction times kept on the communicator for the next autobcgs
   test:
      suffix: kept
      nsize: 2
      args: -test kept -pc_type jacobi

   # ... with every reduction at least 0.05 ms: the Gram matrix's size timed once
   test:
      suffix: kept_slow
      nsize: 2
      args: -test kept -pc_type jacobi -late_allreduce_ms 0.05

   # KSPAutoBCGSSetIterations() after a choice (the bottom hook's feed): predicted again, bit for bit the type by hand
   test:
      suffix: iterations
      nsize: {{1 2}}
      args: -test iterations -pc_type jacobi -ksp_autobcgs_model krasnopolsky -ksp_autobcgs_nodes 1e6 -ksp_autobcgs_model_c0 1

   # a change of type by KSPAutoBCGSSetIterations() on a KSP with a DM: set up at once, the DM's operators not computed
   # again (the bottom hook's coarse KSP)
   test:
      suffix: retype
      nsize: {{1 2}}
      args: -test retype -pc_type jacobi -ksp_autobcgs_candidates bcgsm,cabicgstab -ksp_autobcgs_model krasnopolsky -ksp_autobcgs_nodes 1 -ksp_autobcgs_model_c1 0

   test:
      suffix: matsolve
      nsize: 2
      args: -test matsolve -ksp_autobcgs_candidates {{bcgsm cabicgstab}} -pc_type jacobi
TEST*/
