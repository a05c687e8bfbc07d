static char help[] = "KSPAUTOBCGS: the chosen solver bit for bit, the choice under a planning model, when it is made again, bad options.\n"
                     "-test <same|model|rechoose|options|matsolve>, -n <points per direction>, -spectrum lmin,lmax (same: KSPAutoBCGSSetSpectrum());\n"
                     "every KSP option applies to the KSPs made here.\n";

#include <cakrylov.h>
#include <cakrylov/private/compat.h>
#include <petscdmda.h>

#include "stencil.h"

typedef enum {
  TEST_SAME,
  TEST_MODEL,
  TEST_RECHOOSE,
  TEST_OPTIONS,
  TEST_MATSOLVE
} Test;
static const char *const Tests[] = {"same", "model", "rechoose", "options", "matsolve", "Test", "TEST_", NULL};

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

/* autobcgs against the type it chose, set by hand (same side, s and basis): the same iterations and x bit for bit */
static PetscErrorCode TestSame(Mat A, Vec b)
{
  KSP               autoksp, hand;
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
  PetscCall(CreateSolver(A, choice.type, &hand));
  PetscCall(KSPSetPCSide(hand, side));
  if (choice.s) {
    PetscCall(KSPCABiCGStabSetS(hand, choice.s));
    PetscCall(KSPCABiCGStabSetBasis(hand, choice.basis));
  }
  if (given && choice.basis == KSP_CABICGSTAB_BASIS_CHEBYSHEV) { /* the given interval, without telescoping */
    PetscCall(KSPCABiCGStabSetSpectrum(hand, spectrum[0], spectrum[1]));
    PetscCall(KSPCABiCGStabSetTelescope(hand, PETSC_FALSE));
  }
  PetscCall(KSPSolve(hand, b, xh));
  PetscCall(KSPGetIterationNumber(autoksp, &ita));
  PetscCall(KSPGetIterationNumber(hand, &ith));
  PetscCall(VecEqual(xa, xh, &equal));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the chosen type set by hand: the same iterations and x bit for bit: %s\n", equal && ita == ith ? "yes" : "NO"));
  if (!equal || ita != ith) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  chose %s s %" PetscInt_FMT ": %" PetscInt_FMT " against %" PetscInt_FMT " iterations\n", choice.type, choice.s, ita, ith));
  PetscCall(KSPDestroy(&autoksp));
  PetscCall(KSPDestroy(&hand));
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&xh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Under Krasnopolsky's model at p = 16384 nodes a reduction costs about 0.5 ms against microseconds of compute here:
   cabicgstab; at p = 1 (3.5 us + 1.7 us l^0.21) the compute decides: not cabicgstab */
static PetscErrorCode TestModel(Mat A)
{
  const char *nodes[2] = {"16384", "1"};
  PetscBool   ca[2];

  PetscFunctionBegin;
  for (PetscInt i = 0; i < 2; i++) {
    KSP               ksp;
    KSPAutoBCGSChoice choice;

    PetscCall(PetscOptionsSetValue(NULL, "-ksp_autobcgs_model", "krasnopolsky"));
    PetscCall(PetscOptionsSetValue(NULL, "-ksp_autobcgs_nodes", nodes[i]));
    PetscCall(CreateSolver(A, KSPAUTOBCGS, &ksp));
    PetscCall(KSPSetUp(ksp));
    PetscCall(KSPAutoBCGSGetChoice(ksp, &choice, NULL, NULL, NULL));
    PetscCall(PetscStrcmp(choice.type, KSPCABICGSTAB, &ca[i]));
    PetscCall(KSPDestroy(&ksp));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "planning model: cabicgstab at p = 16384, a merged type at p = 1: %s\n", ca[0] && !ca[1] ? "yes" : "NO"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One choice per operator: none again for new values in the same pattern, one for a new nonzero pattern */
static PetscErrorCode TestRechoose(Mat A, Vec b)
{
  KSP      ksp;
  Mat      B;
  Vec      x;
  PetscInt n[4], lo;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &x));
  PetscCall(CreateSolver(A, KSPAUTOBCGS, &ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPAutoBCGSGetChoice(ksp, NULL, NULL, NULL, &n[0]));
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
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "one choice at the first solve, none at the second or for new values: %s\n", n[0] == 1 && n[1] == 1 && n[2] == 1 ? "yes" : "NO"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "a new choice for another operator: %s\n", n[3] == 2 ? "yes" : "NO"));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&B));
  PetscCall(VecDestroy(&x));
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

   # a given spectrum: the Chebyshev candidates use it (with s_max 16 and no estimate to pay for, s > 4 wins here)
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
      args: -test rechoose

   test:
      suffix: options
      args: -test options

   test:
      suffix: matsolve
      nsize: 2
      args: -test matsolve -ksp_autobcgs_candidates {{bcgsm cabicgstab}} -pc_type jacobi
TEST*/
