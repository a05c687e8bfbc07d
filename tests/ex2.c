static char help[] = "Regression tests of KSPCABICGSTAB on DMDA problems.\n\
  -problem <poisson|convdiff|skew> : 5/7-point Laplacian, upwind convection-diffusion (cell Peclet -peclet), skew-symmetric x-difference\n\
  -dim <2|3>, -n <points per direction>\n\
  -rhs <ones|zero|nan>, -nonzero_guess : right-hand side and initial guess\n\
  -compare <tol> : also solve with PETSc's KSPBCGS (same PC, side, tolerances) and check |its - its_bcgs| <= max(1, tol its_bcgs)\n\
  -print_its : print the iteration counts\n\
  -count_reductions : count global reductions during KSPSolve() with an MPI profiling-interface counter\n\
  -bad_setters : call the setters with bad values and print the errors\n\n";

#include <cakrylov.h>
#include <petscdmda.h>

/* An MPI profiling-interface counter of global reductions (communicators of more than one rank):
   it sees every MPI_Allreduce/MPI_Iallreduce issued by PETSc, the library and this program. */
static PetscBool counting = PETSC_FALSE;
static PetscInt  nreductions;

static void CountReduction(MPI_Comm comm)
{
  int size;

  PMPI_Comm_size(comm, &size);
  if (counting && size > 1) nreductions++;
}

#undef MPI_Allreduce /* PETSc's logging macro: this file defines the function itself */
#undef MPI_Iallreduce
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
  CountReduction(comm);
  return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
  CountReduction(comm);
  return PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
}

typedef enum {
  PROBLEM_POISSON,
  PROBLEM_CONVDIFF,
  PROBLEM_SKEW
} Problem;
static const char *const Problems[] = {"poisson", "convdiff", "skew", "Problem", "PROBLEM_", NULL};
typedef enum {
  RHS_ONES,
  RHS_ZERO,
  RHS_NAN
} Rhs;
static const char *const Rhss[] = {"ones", "zero", "nan", "Rhs", "RHS_", NULL};

/* The operator on the DMDA: Dirichlet boundaries eliminated (neighbours outside the grid are dropped) */
static PetscErrorCode AssembleOperator(DM da, Problem problem, PetscReal peclet, Mat A)
{
  PetscInt    dim, xs, ys, zs, xm, ym, zm, M, N, P;
  PetscReal   wind[3] = {1.0, 0.5, 0.25}; /* convection velocity direction */
  MatStencil  row, col[7];
  PetscScalar v[7];

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, &dim, &M, &N, &P, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  for (PetscInt k = zs; k < zs + zm; k++) {
    for (PetscInt j = ys; j < ys + ym; j++) {
      for (PetscInt i = xs; i < xs + xm; i++) {
        const PetscInt idx[3] = {i, j, k}, size[3] = {M, N, P};
        PetscInt       nc     = 1;

        row.i = i; row.j = j; row.k = k;
        col[0] = row;
        v[0]   = problem == PROBLEM_SKEW ? 0.0 : 2.0 * dim;
        for (PetscInt d = 0; d < dim; d++) {
          for (PetscInt side = -1; side <= 1; side += 2) {
            if (idx[d] + side < 0 || idx[d] + side >= size[d]) continue;
            col[nc] = row;
            if (d == 0) col[nc].i += side;
            if (d == 1) col[nc].j += side;
            if (d == 2) col[nc].k += side;
            switch (problem) {
            case PROBLEM_POISSON:
              v[nc] = -1.0;
              break;
            case PROBLEM_CONVDIFF: /* -Laplace u + Pe w . grad u, first-order upwind (w > 0) */
              v[nc] = -1.0 - (side < 0 ? peclet * wind[d] : 0.0);
              break;
            case PROBLEM_SKEW: /* u_{i+1} - u_{i-1} in x only: A^T = -A, so (r, A r) = 0 */
              v[nc] = d == 0 ? (PetscScalar)side : 0.0;
              break;
            }
            nc++;
          }
          if (problem == PROBLEM_CONVDIFF) v[0] += peclet * wind[d];
        }
        PetscCall(MatSetValuesStencil(A, 1, &row, nc, col, v, INSERT_VALUES));
      }
    }
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

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

/* Outer iterations KSPCABICGSTAB needs for its iterations: outer k holds min(s, 2^k) of them with telescoping, s without */
static PetscInt OuterIterations(PetscInt its, PetscInt s, PetscBool telescope)
{
  PetscInt outer = 0;

  for (PetscInt done = 0; done < its; outer++) done += telescope && outer < 6 ? PetscMin(s, (PetscInt)1 << outer) : s;
  return outer;
}

/* x = KSPSolve(b) from x0, with the global reductions of the solve in nreductions. With warmup, a first solve does
   the PC's lazy one-time setup (Jacobi creates a vector on first use: a reduction) and the second one is counted. */
static PetscErrorCode CountedSolve(KSP ksp, Vec b, Vec x0, Vec x, PetscBool warmup)
{
  PetscFunctionBegin;
  if (warmup) {
    PetscCall(VecCopy(x0, x));
    PetscCall(KSPSolve(ksp, b, x));
  }
  PetscCall(VecCopy(x0, x));
  nreductions = 0;
  counting    = PETSC_TRUE;
  PetscCall(KSPSolve(ksp, b, x));
  counting = PETSC_FALSE;
  PetscFunctionReturn(0);
}

static PetscErrorCode BadSetters(KSP ksp)
{
  const PetscInt bad[] = {0, 33};

  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    PetscErrorCode ierr = KSPCABiCGStabSetS(ksp, bad[i]);
    const char    *specific;

    PetscCall(PetscErrorMessage(ierr, NULL, (char **)&specific));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KSPCABiCGStabSetS(ksp, %" PetscInt_FMT ") -> error %d: %s\n", bad[i], (int)ierr, specific));
  }
  PetscCall(PetscPopErrorHandler());
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  DM                 da;
  Mat                A;
  Vec                x, b, x0;
  KSP                ksp;
  PC                 pc;
  Problem            problem = PROBLEM_POISSON;
  Rhs                rhs     = RHS_ONES;
  PetscInt           dim = 2, n = 24, its, s;
  PetscReal          peclet = 0.5, compare = -1.0, rtol, r0, r1, xnorm;
  PetscBool          nonzero = PETSC_FALSE, print_its = PETSC_FALSE, count = PETSC_FALSE, bad_setters = PETSC_FALSE, telescope;
  KSPConvergedReason reason;
  KSPType            type;
  KSPNormType        normtype;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(CAKrylovInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "KSPCABICGSTAB regression test", NULL);
  PetscCall(PetscOptionsEnum("-problem", "Operator", NULL, Problems, (PetscEnum)problem, (PetscEnum *)&problem, NULL));
  PetscCall(PetscOptionsInt("-dim", "2 or 3", NULL, dim, &dim, NULL));
  PetscCall(PetscOptionsInt("-n", "Grid points per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsReal("-peclet", "Cell Peclet number of convdiff", NULL, peclet, &peclet, NULL));
  PetscCall(PetscOptionsEnum("-rhs", "Right-hand side", NULL, Rhss, (PetscEnum)rhs, (PetscEnum *)&rhs, NULL));
  PetscCall(PetscOptionsBool("-nonzero_guess", "Start from a nonzero initial guess", NULL, nonzero, &nonzero, NULL));
  PetscCall(PetscOptionsReal("-compare", "Compare iterations with KSPBCGS, relative tolerance", NULL, compare, &compare, NULL));
  PetscCall(PetscOptionsBool("-print_its", "Print iteration counts", NULL, print_its, &print_its, NULL));
  PetscCall(PetscOptionsBool("-count_reductions", "Count global reductions in KSPSolve()", NULL, count, &count, NULL));
  PetscCall(PetscOptionsBool("-bad_setters", "Call the setters with bad values", NULL, bad_setters, &bad_setters, NULL));
  PetscOptionsEnd();

  if (dim == 2) PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
  else PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(AssembleOperator(da, problem, peclet, A));
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
  PetscCall(KSPSetType(ksp, KSPCABICGSTAB));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetInitialGuessNonzero(ksp, nonzero));
  PetscCall(KSPSetFromOptions(ksp));
  if (bad_setters) PetscCall(BadSetters(ksp));
  PetscCall(KSPSetUp(ksp));
  PetscCall(KSPGetType(ksp, &type));
  PetscCall(KSPGetNormType(ksp, &normtype));
  PetscCall(KSPGetTolerances(ksp, &rtol, NULL, NULL, NULL));
  PetscCall(ResidualNorm(ksp, A, b, x0, &r0));

  PetscCall(CountedSolve(ksp, b, x0, x, count));
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

  if (count) {
    PetscInt expected;

    PetscCall(KSPCABiCGStabGetS(ksp, &s));
    PetscCall(KSPCABiCGStabGetTelescope(ksp, &telescope));
    expected = (normtype != KSP_NORM_NONE ? 1 : 0) + OuterIterations(its, s, telescope);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "global reductions in KSPSolve: %" PetscInt_FMT " for %" PetscInt_FMT " iterations; expected %s%" PetscInt_FMT " outer iterations (s = %" PetscInt_FMT ", telescoping %s) = %" PetscInt_FMT ": %s\n", nreductions, its,
                          normtype != KSP_NORM_NONE ? "1 initial norm + " : "", OuterIterations(its, s, telescope), s, telescope ? "on" : "off", expected, nreductions == expected ? "yes" : "NO"));
  }

  if (compare >= 0.0) { /* the same solve with PETSc's BiCGStab */
    KSP      bcgs;
    PC       bpc;
    PCType   pctype;
    PCSide   side;
    PetscInt its_bcgs, allowed;

    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCGetType(pc, &pctype));
    PetscCall(KSPGetPCSide(ksp, &side));
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &bcgs));
    PetscCall(KSPSetOperators(bcgs, A, A));
    PetscCall(KSPSetType(bcgs, KSPBCGS));
    PetscCall(KSPSetPCSide(bcgs, side));
    PetscCall(KSPSetNormType(bcgs, normtype));
    PetscCall(KSPSetTolerances(bcgs, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
    PetscCall(KSPSetInitialGuessNonzero(bcgs, nonzero));
    PetscCall(KSPGetPC(bcgs, &bpc));
    PetscCall(PCSetType(bpc, pctype));
    PetscCall(CountedSolve(bcgs, b, x0, x, count));
    PetscCall(KSPGetIterationNumber(bcgs, &its_bcgs));
    allowed = PetscMax(1, (PetscInt)(compare * its_bcgs));
    if (print_its) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bcgs: %" PetscInt_FMT " iterations\n", its_bcgs));
    if (count) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bcgs global reductions in KSPSolve: %" PetscInt_FMT " for %" PetscInt_FMT " iterations\n", nreductions, its_bcgs));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "iterations within max(1, %g its_bcgs) of bcgs: %s\n", (double)compare, PetscAbsInt(its - its_bcgs) <= allowed ? "yes" : "NO"));
    if (PetscAbsInt(its - its_bcgs) > allowed) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  cabicgstab %" PetscInt_FMT ", bcgs %" PetscInt_FMT "\n", its, its_bcgs));
    PetscCall(KSPDestroy(&bcgs));
  }

  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   testset:
      suffix: poisson2d
      nsize: {{1 2 4}}
      args: -problem poisson -dim 2 -n 24 -pc_type {{none jacobi bjacobi}} -ksp_pc_side {{right left}} -nonzero_guess {{0 1}}
      output_file: output/ex2_converged.out

   testset:
      suffix: poisson3d
      nsize: {{1 2 4}}
      args: -problem poisson -dim 3 -n 10 -pc_type {{jacobi bjacobi}} -ksp_pc_side {{right left}}
      output_file: output/ex2_converged.out

   testset:
      suffix: convdiff
      nsize: {{1 2 4}}
      args: -problem convdiff -dim 2 -n 24 -peclet 0.5 -pc_type {{none jacobi bjacobi}} -ksp_pc_side {{right left}} -nonzero_guess {{0 1}}
      output_file: output/ex2_converged.out

   # s = 1 without telescoping is classical BiCGStab: same iterations as KSPBCGS (+-1)
   test:
      suffix: s1_vs_bcgs
      args: -problem {{poisson convdiff}} -dim 2 -n 24 -pc_type {{none jacobi}} -ksp_pc_side {{right left}} -ksp_cabicgstab_s 1 -ksp_cabicgstab_telescope 0 -compare 0
      output_file: output/ex2_s1_vs_bcgs.out

   # s = 2, 4 within 10 % of KSPBCGS
   test:
      suffix: s_vs_bcgs
      nsize: 2
      args: -problem {{poisson convdiff}} -dim {{2 3}} -n 12 -pc_type jacobi -ksp_cabicgstab_s {{2 4}} -ksp_cabicgstab_telescope {{0 1}} -compare 0.1
      output_file: output/ex2_s_vs_bcgs.out

   # global reductions counted for real on 2 ranks: 1 initial norm + 1 per outer iteration
   test:
      suffix: reductions
      nsize: 2
      args: -problem poisson -dim 2 -n 24 -pc_type jacobi -ksp_cabicgstab_s {{1 2 4}} -ksp_cabicgstab_telescope {{0 1}} -count_reductions
      filter: sed -E "s/: [0-9]+ for [0-9]+ iterations; expected .*: yes/: as expected/"
      output_file: output/ex2_reductions.out

   test:
      suffix: reductions_normnone
      nsize: 2
      args: -problem poisson -dim 2 -n 24 -pc_type jacobi -ksp_norm_type none -ksp_max_it 30 -count_reductions
      output_file: output/ex2_reductions_normnone.out

   test:
      suffix: view
      nsize: 2
      args: -problem convdiff -dim 2 -n 16 -pc_type jacobi -ksp_cabicgstab_s 3 -ksp_cabicgstab_telescope 0 -ksp_view -print_its
      filter: grep -E "cabicgstab|s = |Gram|statistics|right|UNPRECONDITIONED"

   test:
      suffix: breakdown
      nsize: {{1 2}}
      args: -problem skew -dim 2 -n 8 -pc_type none
      output_file: output/ex2_breakdown.out

   test:
      suffix: zero_rhs
      nsize: {{1 2}}
      args: -rhs zero -pc_type jacobi
      output_file: output/ex2_zero_rhs.out

   test:
      suffix: nan_rhs
      nsize: {{1 2}}
      args: -rhs nan -pc_type jacobi -ksp_norm_type {{unpreconditioned none}}
      output_file: output/ex2_nan_rhs.out

   test:
      suffix: bad_setters
      args: -bad_setters -pc_type jacobi

   test:
      suffix: bad_option
      args: -ksp_cabicgstab_s 0
      filter: Error: grep -o -E "KSPCABICGSTAB s = 0 is out of range: 1 <= s <= [0-9]+"

   test:
      suffix: bad_basis
      args: -ksp_cabicgstab_basis newton
      filter: Error: grep -o -E "Unknown .*newton.*"

TEST*/
