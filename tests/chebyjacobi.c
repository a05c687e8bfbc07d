static char help[] = "Tests of PCCHEBYJACOBI (src/pc/chebyjacobi): Chebyshev-accelerated Jacobi, one fused pass per step.\n\
  -test compare : for 1..4 steps, from a zero and a nonzero initial guess, KSPRICHARDSON + PCCHEBYJACOBI against\n\
                  KSPCHEBYSHEV + PCJACOBI on the same interval (the same polynomial): the iterates agree to rounding;\n\
                  PCApply() with -pc_chebyjacobi_its k against KSPCHEBYSHEV from zero; the global reductions the\n\
                  smoother's applications issue (none); the default (Gershgorin) interval\n\
  -test block   : PCMatApply() on 5 columns with 1..3 steps against PCApply() of each column: the same bits\n\
  -test bad     : bad intervals and step counts, and a matrix type without rows and no interval: PETSc errors\n\
  -n <24>       : grid points per direction of the 2D 5-point operator (a DMDA: MATMPIAIJ with a halo on 2 ranks)\n\
  -mat_type <aij> : the operator's type (sell: the unfused steps)\n\n";

#include <petscdmda.h>
#include <cakrylov.h>
#include <cakrylov/private/compat.h>

#include "reductioncounter.h"

/*
   A 2D 5-point operator with the coefficient 1 or 2 on each face (a checkerboard of cells) and Dirichlet rows: the
   diagonal is the sum of the face coefficients plus, on the boundary, the missing faces' coefficients. The entries
   are small integers: every row sum is exact, so Gershgorin's radius of D^{-1} A is exactly 1 (interior rows) and
   the default interval exactly [0.4, 2]. Nonsymmetric (a face's coefficient is that of the row's cell), so
   D^{-1} A is not A-self-adjoint: the test compares iterates, which does not need it.
*/
static PetscErrorCode CreateOperator(DM da, Mat *A)
{
  DMDALocalInfo info;
  MatType       type = MATAIJ;
  char typename[64];
  PetscBool flg;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_type", typename, sizeof(typename), &flg));
  if (flg) type = typename;
  PetscCall(DMSetMatType(da, MATAIJ));
  PetscCall(DMCreateMatrix(da, A));
  PetscCall(DMDAGetLocalInfo(da, &info));
  for (PetscInt j = info.ys; j < info.ys + info.ym; j++)
    for (PetscInt i = info.xs; i < info.xs + info.xm; i++) {
      const PetscScalar c   = (i + j) % 2 ? 2.0 : 1.0;
      MatStencil        row = {.i = i, .j = j}, col[5];
      PetscScalar       v[5], diag = 4.0 * c;
      PetscInt          nc    = 0;
      const PetscInt    di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};

      for (PetscInt f = 0; f < 4; f++) {
        const PetscInt ii = i + di[f], jj = j + dj[f];

        if (ii < 0 || jj < 0 || ii >= info.mx || jj >= info.my) continue; /* Dirichlet: the face's coefficient stays in the diagonal */
        col[nc].i = ii;
        col[nc].j = jj;
        v[nc++]   = -c;
      }
      col[nc] = row;
      v[nc++] = diag;
      PetscCall(MatSetValuesStencil(*A, 1, &row, nc, col, v, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  if (flg) PetscCall(MatConvert(*A, type, MAT_INPLACE_MATRIX, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x = its steps of Chebyshev/Jacobi on [emin, emax] from x (zero: from 0): chebyjacobi under Richardson, or PETSc's own */
static PetscErrorCode Smooth(Mat A, PetscBool own, PetscReal emin, PetscReal emax, PetscInt its, PetscBool zero, Vec b, Vec x)
{
  KSP ksp;
  PC  pc;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPGetPC(ksp, &pc));
  if (own) {
    PetscCall(KSPSetType(ksp, KSPRICHARDSON));
    PetscCall(PCSetType(pc, PCCHEBYJACOBI));
    PetscCall(PCChebyJacobiSetEigenvalues(pc, emin, emax));
  } else {
    PetscCall(KSPSetType(ksp, KSPCHEBYSHEV));
    PetscCall(KSPChebyshevSetEigenvalues(ksp, emax, emin));
    PetscCall(PCSetType(pc, PCJACOBI));
  }
  PetscCall(KSPSetNormType(ksp, KSP_NORM_NONE));
  PetscCall(KSPSetConvergenceTest(ksp, KSPConvergedSkip, NULL, NULL));
  PetscCall(KSPSetTolerances(ksp, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, its));
  PetscCall(KSPSetInitialGuessNonzero(ksp, zero ? PETSC_FALSE : PETSC_TRUE));
  PetscCall(KSPSetUp(ksp));
  counting = own;
  PetscCall(KSPSolve(ksp, b, x));
  counting = PETSC_FALSE;
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||x - y|| / ||y|| <= 1e-11: the same polynomial of degree <= 4 in D^{-1} A (norm <= 2 here) with coefficients of size
   <= 2/emin, summed in another order: a few hundred roundings of relative size 1.1e-16 at most; a wrong coefficient
   would differ by more than 1e-3 */
static PetscErrorCode Agree(Vec x, Vec y, PetscBool *agree)
{
  Vec       d;
  PetscReal nd, ny;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(x, &d));
  PetscCall(VecWAXPY(d, -1.0, x, y));
  PetscCall(VecNorm(d, NORM_2, &nd));
  PetscCall(VecNorm(y, NORM_2, &ny));
  *agree = nd <= 1e-11 * ny ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestCompare(Mat A)
{
  Vec         b, x0, xa, xb;
  PetscRandom rnd;
  PetscInt    total = 0;
  PetscBool   ok, all = PETSC_TRUE;
  KSP         ksp;
  PC          pc;
  PetscReal   emin, emax;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &x0, &b));
  PetscCall(VecDuplicate(x0, &xa));
  PetscCall(VecDuplicate(x0, &xb));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(VecSetRandom(x0, rnd));
  PetscCall(MatMult(A, x0, xa)); /* the operator's own halo set up (a reduction at its first MatMult()), as in any program */
  for (PetscInt zero = 0; zero < 2; zero++)
    for (PetscInt its = 1; its <= 4; its++) {
      PetscCall(VecCopy(x0, xa));
      PetscCall(VecCopy(x0, xb));
      nreductions = 0;
      PetscCall(Smooth(A, PETSC_TRUE, 0.3, 2.0, its, (PetscBool)zero, b, xa));
      total += nreductions;
      PetscCall(Smooth(A, PETSC_FALSE, 0.3, 2.0, its, (PetscBool)zero, b, xb));
      PetscCall(Agree(xa, xb, &ok));
      if (!ok) {
        all = PETSC_FALSE;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "richardson + chebyjacobi against chebyshev + jacobi, %" PetscInt_FMT " steps from %s: DIFFER\n", its, zero ? "zero" : "x0"));
      }
    }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "richardson + chebyjacobi against chebyshev + jacobi, 1..4 steps, zero and nonzero initial guess: %s\n", all ? "agree" : "DIFFER"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "global reductions issued by the smoother's solves on the given interval: %" PetscInt_FMT "\n", total));

  /* PCApply() (from 0) with k steps, and the default interval (Gershgorin) */
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCCHEBYJACOBI));
  PetscCall(PCSetUp(pc));
  PetscCall(PCChebyJacobiGetEigenvalues(pc, &emin, &emax));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "default interval after setup (Gershgorin, R = 1): [%g, %g]\n", (double)emin, (double)emax));
  all = PETSC_TRUE;
  for (PetscInt its = 1; its <= 3; its++) {
    PetscCall(PCChebyJacobiSetIterations(pc, its));
    PetscCall(PCApply(pc, b, xa));
    PetscCall(Smooth(A, PETSC_FALSE, emin, emax, its, PETSC_TRUE, b, xb));
    PetscCall(Agree(xa, xb, &ok));
    if (!ok) all = PETSC_FALSE;
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "PCApply() with 1..3 steps against chebyshev + jacobi from zero: %s\n", all ? "agree" : "DIFFER"));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&xb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCMatApply() of PCCHEBYJACOBI (all columns at once: one pass over the rows and one halo message per neighbour per
   step) against PCApply() of each column: the same bits (each row of each column is stepped as the single step does) */
static PetscErrorCode TestBlock(Mat A)
{
  const PetscInt     m = 5;
  PC                 pc;
  Mat                B, X;
  Vec                b, y;
  PetscRandom        rnd;
  PetscInt           nloc, ldx;
  const PetscScalar *x, *ya;
  PetscBool          same = PETSC_TRUE, eq;

  PetscFunctionBegin;
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetType(pc, PCCHEBYJACOBI));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetUp(pc));
  PetscCall(MatGetLocalSize(A, &nloc, NULL));
  PetscCall(MatCreateDense(PETSC_COMM_WORLD, nloc, PETSC_DECIDE, PETSC_DETERMINE, m, NULL, &B));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(MatSetRandom(B, rnd));
  PetscCall(MatCreateVecs(A, &y, NULL));
  for (PetscInt its = 1; its <= 3; its++) {
    PetscCall(PCChebyJacobiSetIterations(pc, its));
    PetscCall(PCMatApply(pc, B, X));
    PetscCall(MatDenseGetArrayRead(X, &x));
    PetscCall(MatDenseGetLDA(X, &ldx));
    for (PetscInt j = 0; j < m; j++) {
      PetscCall(MatDenseGetColumnVecRead(B, j, &b));
      PetscCall(PCApply(pc, b, y));
      PetscCall(MatDenseRestoreColumnVecRead(B, j, &b));
      PetscCall(VecGetArrayRead(y, &ya));
      PetscCall(PetscArraycmp(x + j * ldx, ya, nloc, &eq));
      PetscCall(VecRestoreArrayRead(y, &ya));
      same = (PetscBool)(same && eq);
    }
    PetscCall(MatDenseRestoreArrayRead(X, &x));
  }
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &same, 1, CAKRYLOV_MPI_BOOL, MPI_LAND, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "PCMatApply() with 1..3 steps bitwise PCApply() per column: %s\n", same ? "yes" : "NO"));
  PetscCall(VecDestroy(&y));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(MatDestroy(&X));
  PetscCall(MatDestroy(&B));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A call that must fail: print its error message (the library's own text) */
#define EXPECT_ERROR(call, what) \
  do { \
    PetscErrorCode ierr_; \
    const char    *msg_ = NULL; \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); \
    ierr_ = (call); \
    PetscCall(PetscPopErrorHandler()); \
    if (ierr_) PetscCall(CAKrylovErrorMessage(ierr_, &msg_)); \
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s -> %s%s\n", what, ierr_ ? "error: " : "NO ERROR", ierr_ ? msg_ : "")); \
  } while (0)

static PetscErrorCode TestBad(Mat A)
{
  PC  pc;
  Mat S;

  PetscFunctionBegin;
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetType(pc, PCCHEBYJACOBI));
  EXPECT_ERROR(PCChebyJacobiSetEigenvalues(pc, 2.0, 1.0), "PCChebyJacobiSetEigenvalues(pc, 2, 1)");
  EXPECT_ERROR(PCChebyJacobiSetEigenvalues(pc, -0.1, 1.0), "PCChebyJacobiSetEigenvalues(pc, -0.1, 1)");
  EXPECT_ERROR(PCChebyJacobiSetIterations(pc, 0), "PCChebyJacobiSetIterations(pc, 0)");
  /* a shell operator has no rows: no Gershgorin interval without a given one */
  PetscCall(MatConvert(A, MATSHELL, MAT_INITIAL_MATRIX, &S));
  PetscCall(PCSetOperators(pc, S, S));
  EXPECT_ERROR(PCSetUp(pc), "PCSetUp() on a MATSHELL without an interval");
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&S));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM       da;
  Mat      A;
  PetscInt n        = 24;
  char     test[32] = "compare";

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(CAKrylovInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-test", test, sizeof(test), NULL));
  PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
  PetscCall(DMSetUp(da));
  PetscCall(CreateOperator(da, &A));
  if (!strcmp(test, "compare")) PetscCall(TestCompare(A));
  else if (!strcmp(test, "block")) PetscCall(TestBlock(A));
  else if (!strcmp(test, "bad")) PetscCall(TestBad(A));
  else SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "Unknown -test %s", test);
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # the same polynomial as PETSc's Chebyshev/Jacobi; no reductions on a given interval; the Gershgorin default
   test:
      suffix: compare
      nsize: {{1 2 3}}
      args: -test compare -mat_type {{aij sell}}
      output_file: output/chebyjacobi_compare.out

   # the block apply (PCMatApply()): the bits of PCApply() of each column (sell: the unfused steps, column by column)
   test:
      suffix: block
      nsize: {{1 2 3}}
      args: -test block -mat_type {{aij sell}}
      output_file: output/chebyjacobi_block.out

   test:
      suffix: bad
      args: -test bad

TEST*/
