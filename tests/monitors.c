static char help[] = "What a monitor sees of cakrylov's types, in KSPSolve() and in KSPMatSolve(): the solution and residual built\n"
                     "at every iteration (KSPBuildSolution(), KSPBuildResidual()) agree with the norm the iteration tested, and\n"
                     "every monitor PETSc ships runs. Also the argument checks of KSPMatSolve().\n"
                     "  -case solve       KSPSolve() on a 2D convection-diffusion problem with the checking monitor\n"
                     "  -case matsolve    KSPMatSolve() of -nrhs columns with the checking monitor (the column of the largest norm)\n"
                     "  -case layouts     KSPMatSolve() with B and X distributed unlike the operator (2 ranks): refused\n\n";

#include <cakrylov.h>
#include <cakrylov/private/compat.h>
#include <petscdmda.h>

#include "stencil.h"

typedef enum {
  CASE_SOLVE,
  CASE_MATSOLVE,
  CASE_LAYOUTS
} TestCase;
static const char *const TestCases[] = {"solve", "matsolve", "layouts", "TestCase", "CASE_", NULL};

/* What the checking monitor found: the largest gap, relative to ||b||, between the norm the iteration tested and the norm
   of the residual built from the solution at that iteration (b - A x, or M^{-1}(b - A x) with the preconditioned norm) */
typedef struct {
  PetscReal gap;
  PetscInt  calls;
} CheckCtx;

static PetscErrorCode CheckingMonitor(KSP ksp, PetscInt its, PetscReal rnorm, void *ctx)
{
  CheckCtx   *check = (CheckCtx *)ctx;
  Vec         b, x, r, t;
  Mat         A;
  PC          pc;
  KSPNormType normtype;
  PetscReal   bnorm, tnorm;

  PetscFunctionBeginUser;
  PetscCall(KSPGetNormType(ksp, &normtype));
  if (normtype == KSP_NORM_NONE) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPGetRhs(ksp, &b));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCGetOperators(pc, &A, NULL));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(VecDuplicate(b, &t));
  PetscCall(KSPBuildSolution(ksp, NULL, &x)); /* x: the KSP's own solution vector or a vector it builds */
  PetscCall(MatMult(A, x, t));
  PetscCall(VecAYPX(t, -1.0, b));                /* t = b - A x */
  PetscCall(KSPBuildResidual(ksp, NULL, r, &r)); /* the same through the type's residual builder */
  PetscCall(VecAXPY(r, -1.0, t));
  PetscCall(VecNorm(r, NORM_2, &tnorm));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  check->gap = PetscMax(check->gap, tnorm / bnorm); /* the two builders agree */
  if (normtype == KSP_NORM_PRECONDITIONED) {
    PetscCall(PCApply(pc, t, r));
    PetscCall(VecCopy(r, t));
    PetscCall(PCApply(pc, b, r));
    PetscCall(VecNorm(r, NORM_2, &bnorm));
  }
  PetscCall(VecNorm(t, NORM_2, &tnorm));
  check->gap = PetscMax(check->gap, PetscAbsReal(tnorm - rnorm) / bnorm);
  check->calls++;
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A 2D convection-diffusion operator on n x n points and a KSP on it with the checking monitor, from the options */
static PetscErrorCode CreateProblem(PetscInt n, CheckCtx *check, Mat *A, KSP *ksp)
{
  DM da;

  PetscFunctionBeginUser;
  PetscCall(StencilCreateDMDA(PETSC_COMM_WORLD, 2, n, DM_BOUNDARY_NONE, &da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, A));
  PetscCall(AssembleStencilOperator(da, STENCIL_CONVDIFF, 2.0, *A));
  PetscCall(DMDestroy(&da));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, ksp));
  PetscCall(KSPSetOperators(*ksp, *A, *A));
  PetscCall(KSPSetType(*ksp, KSPBCGSM));
  PetscCall(KSPSetTolerances(*ksp, 1e-6, PETSC_DEFAULT, PETSC_DEFAULT, 500));
  PetscCall(KSPMonitorSet(*ksp, CheckingMonitor, check, NULL));
  PetscCall(KSPSetFromOptions(*ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The verdict: the residual built at each iteration is the one tested, to rounding. A gap of 1e-4 ||b|| is far above the
   drift between the updated and the true residual of these small well-conditioned solves (and above the O(sqrt(eps))
   error of cabicgstab's Gram-matrix norms), and far below the gap of a wrong solution (about 0.75 ||b|| when M^{-1} is
   applied once more to x under right Jacobi preconditioning) */
static PetscErrorCode PrintVerdict(KSP ksp, const char what[], CheckCtx *check)
{
  KSPType            type;
  KSPConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(KSPGetType(ksp, &type));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %s: converged %s, monitored %s, the solution built at every iteration has the residual tested: %s\n", type, what, reason > 0 ? "yes" : "no", check->calls > 1 ? "yes" : "no", check->gap <= 1e-4 ? "yes" : "no"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestSolve(PetscInt n)
{
  CheckCtx  check = {0.0, 0};
  Mat       A;
  KSP       ksp;
  Vec       b, x, xbuilt;
  PetscBool same;

  PetscFunctionBeginUser;
  PetscCall(CreateProblem(n, &check, &A, &ksp));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(PrintVerdict(ksp, "KSPSolve()", &check));
  PetscCall(VecDuplicate(x, &xbuilt));
  PetscCall(KSPBuildSolution(ksp, xbuilt, NULL)); /* after the solve: the solution itself */
  PetscCall(VecEqual(x, xbuilt, &same));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KSPBuildSolution() after the solve is the solution: %s\n", same ? "yes" : "no"));
  PetscCall(VecDestroy(&xbuilt));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* m columns b_j(i) = 1 + 0.5 sin(0.37 (j + 1)(i + 1)); a KSPSolve() first, whose vectors the KSP keeps after the block */
static PetscErrorCode TestMatSolve(PetscInt n, PetscInt m)
{
  CheckCtx check = {0.0, 0};
  Mat      A, B, X;
  KSP      ksp;
  Vec      b, x, rhs, sol;
  PetscInt nloc, rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(CreateProblem(n, &check, &A, &ksp));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(KSPSolve(ksp, b, x));
  check.gap   = 0.0;
  check.calls = 0;
  PetscCall(MatGetLocalSize(A, &nloc, NULL));
  PetscCall(MatCreateDense(PETSC_COMM_WORLD, nloc, PETSC_DECIDE, PETSC_DETERMINE, m, NULL, &B));
  PetscCall(MatGetOwnershipRange(B, &rstart, &rend));
  for (PetscInt j = 0; j < m; j++)
    for (PetscInt i = rstart; i < rend; i++) PetscCall(MatSetValue(B, i, j, 1.0 + 0.5 * PetscSinReal(0.37 * (j + 1) * (i + 1)), INSERT_VALUES));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
  PetscCall(KSPMatSolve(ksp, B, X));
  PetscCall(PrintVerdict(ksp, "KSPMatSolve()", &check));
  PetscCall(KSPGetRhs(ksp, &rhs));
  PetscCall(KSPGetSolution(ksp, &sol));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "The KSP's right-hand side and solution after KSPMatSolve() are those of the KSPSolve() before it: %s\n", rhs == b && sol == x ? "yes" : "no"));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&X));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A 1D Laplacian with 50 rows on rank 0 and 150 on rank 1; B and X of 100 rows on each: KSPMatSolve() must refuse them
   (with an error of the class of incompatible or wrongly sized arguments) before reading them */
static PetscErrorCode TestLayouts(PetscInt m)
{
  Mat            A, B, X;
  KSP            ksp;
  PetscMPIInt    rank;
  PetscInt       rstart, rend;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, rank ? 150 : 50, rank ? 150 : 50, 200, 200, 3, NULL, 2, NULL, &A));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; i++) {
    if (i > 0) PetscCall(MatSetValue(A, i, i - 1, -1.0, INSERT_VALUES));
    if (i < 199) PetscCall(MatSetValue(A, i, i + 1, -1.0, INSERT_VALUES));
    PetscCall(MatSetValue(A, i, i, 2.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateDense(PETSC_COMM_WORLD, 100, PETSC_DECIDE, 200, m, NULL, &B));
  PetscCall(MatSetRandom(B, NULL));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPBCGSM));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = KSPMatSolve(ksp, B, X);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KSPMatSolve() with B and X distributed unlike the operator refused: %s\n", ierr == PETSC_ERR_ARG_INCOMP || ierr == PETSC_ERR_ARG_SIZ ? "yes" : "no"));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&X));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  TestCase tcase = CASE_SOLVE;
  PetscInt n = 24, m = 4;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(CAKrylovInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Monitor test", NULL);
  PetscCall(PetscOptionsEnum("-case", "What to test", NULL, TestCases, (PetscEnum)tcase, (PetscEnum *)&tcase, NULL));
  PetscCall(PetscOptionsInt("-n", "Grid points per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-nrhs", "Columns of KSPMatSolve()", NULL, m, &m, NULL));
  PetscOptionsEnd();
  switch (tcase) {
  case CASE_SOLVE:
    PetscCall(TestSolve(n));
    break;
  case CASE_MATSOLVE:
    PetscCall(TestMatSolve(n, m));
    break;
  case CASE_LAYOUTS:
    PetscCall(TestLayouts(m));
    break;
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # the solution and residual a monitor builds are those of the iteration (PETSc's KSPBuildSolutionDefault() applied
   # M^{-1} to x once more under right preconditioning)
   testset:
      suffix: solve
      nsize: {{1 2}}
      args: -case solve -ksp_type {{bcgsm pipebcgsm rbicgstab cabicgstab}} -pc_type {{jacobi bjacobi}} -ksp_pc_side right
      filter: sed -E "s/^[a-z]+ /type /"
      output_file: output/monitors_solve.out

   test:
      suffix: solve_left
      nsize: 2
      args: -case solve -ksp_type bcgsm -pc_type {{jacobi bjacobi}} -ksp_pc_side left
      filter: sed -E "s/^[a-z]+ /type /"
      output_file: output/monitors_solve.out

   # every monitor PETSc ships runs on a KSPSolve() (their output, PETSc's formatting, is filtered out)
   test:
      suffix: solve_petsc_monitors_residual
      nsize: 2
      args: -case solve -ksp_type {{bcgsm pipebcgsm rbicgstab cabicgstab}} -pc_type jacobi -ksp_monitor_true_residual -ksp_monitor_range -ksp_monitor_max -ksp_monitor_short
      filter: grep -E "(yes|no)$" | sed -E "s/^[a-z]+ /type /"
      output_file: output/monitors_solve.out

   test:
      suffix: solve_petsc_monitors_solution
      nsize: 2
      args: -case solve -ksp_type {{bcgsm pipebcgsm rbicgstab cabicgstab}} -pc_type jacobi -ksp_monitor -ksp_monitor_solution ascii:/dev/null -ksp_monitor_singular_value
      filter: grep -E "(yes|no)$" | sed -E "s/^[a-z]+ /type /"
      output_file: output/monitors_solve.out

   # in KSPMatSolve() a monitor sees the column of the largest residual norm, with its b and its present x, in both layouts
   test:
      suffix: matsolve_bcgsm
      nsize: {{1 2}}
      args: -case matsolve -ksp_type bcgsm -pc_type jacobi -ksp_bcgsm_matsolve_layout {{dense interleaved}}
      filter: sed -E "s/^[a-z]+ /type /"
      output_file: output/monitors_matsolve.out

   test:
      suffix: matsolve_pipebcgsm
      nsize: {{1 2}}
      args: -case matsolve -ksp_type pipebcgsm -pc_type jacobi -ksp_pipebcgsm_matsolve_layout {{dense interleaved}}
      filter: sed -E "s/^[a-z]+ /type /"
      output_file: output/monitors_matsolve.out

   test:
      suffix: matsolve_rbicgstab
      nsize: {{1 2}}
      args: -case matsolve -ksp_type rbicgstab -pc_type jacobi -ksp_rbicgstab_matsolve_layout {{dense interleaved}}
      filter: sed -E "s/^[a-z]+ /type /"
      output_file: output/monitors_matsolve.out

   test:
      suffix: matsolve_petsc_monitors_residual
      nsize: 2
      args: -case matsolve -ksp_type {{bcgsm pipebcgsm rbicgstab}} -pc_type {{none jacobi bjacobi}} -ksp_monitor_true_residual -ksp_monitor_range -ksp_monitor_max -ksp_monitor_short
      filter: grep -E "(yes|no)$" | sed -E "s/^[a-z]+ /type /"
      output_file: output/monitors_matsolve.out

   test:
      suffix: matsolve_petsc_monitors_solution
      nsize: 2
      args: -case matsolve -ksp_type {{bcgsm pipebcgsm rbicgstab}} -pc_type {{none jacobi bjacobi}} -ksp_monitor -ksp_monitor_solution ascii:/dev/null -ksp_monitor_singular_value
      filter: grep -E "(yes|no)$" | sed -E "s/^[a-z]+ /type /"
      output_file: output/monitors_matsolve.out

   test:
      suffix: layouts
      nsize: 2
      args: -case layouts -ksp_type {{bcgsm pipebcgsm rbicgstab}}

TEST*/
