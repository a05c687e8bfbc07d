static char help[] = "Multiple right-hand sides with KSPMatSolve(): the Laplacian on a DMDA (2D 5-point, 3D 7-point, Dirichlet boundary\n\
eliminated) with a parameter sweep of m sources, Gaussians centred at m points along the diagonal of [0,1]^d, all solved by one\n\
KSPMatSolve(ksp, B, X) on dense blocks of the DMDA's layout.\n\
  -dim <2|3>        : dimension (default 3)\n\
  -n <n>            : grid points per direction (default 24 in 3D, 64 in 2D)\n\
  -nrhs <m>         : number of right-hand sides (default 4)\n\
  -width <w>        : width (standard deviation) of the Gaussian sources (default 0.1)\n\
  -compare <bool>   : also solve each column with KSPSolve() and compare (default true)\n\
  The solver is any KSP/PC from the options, by default -ksp_type bcgsm -pc_type jacobi with right preconditioning (so that\n\
  the convergence test uses the unpreconditioned residual) and -ksp_rtol 1e-8. Types with a block solver (bcgsm, pipebcgsm,\n\
  rbicgstab) advance the m columns together: one sparse matrix times dense block product per SpMV and one reduction for the dots of all\n\
  columns; cabicgstab one reduction per s iterations for all columns; other types solve column by column (PETSc's KSPMatSolve()).\n\
  The DMDA is the PC's (the operator is A), so -pc_type mg -pc_mg_levels L -pc_mg_galerkin pmat builds a multigrid\n\
  (n - 1 divisible by 2^(L-1)), which PCMatApply() applies to all columns at once down to a KSPMatSolve() of the bottom solver\n\
  (-pc_mg_bottom_ksp_type cabicgstab: a block s-step bottom solve).\n\n";

/*
  What it prints, per column: how the column ended (CAKrylovKSPGetMatSolveConvergedReasons() for the types with a block
  solver; PETSc's types report one reason for the block) and whether its true residual ||b_j - A x_j|| is within
  1.01 rtol ||b_j||; then the verdicts over all columns: every true residual within 1.01 rtol ||b||, and (-compare) every
  column within rtol of the solution KSPSolve() computes for it alone, ||x_j - y_j|| <= rtol ||y_j||.
  The margins: the solvers test the residual they update, which ends below rtol ||b_j||, and b_j - A x_j differs from it
  by rounding only (the true residuals of the tests here lie at 0.48-0.82 rtol ||b_j||); the 1 % covers a column that
  stops just below rtol, while a wrong solution misses by orders of magnitude. A column and its own KSPSolve() do the
  same arithmetic but for the order of the sums in the block products (bitwise equal on this machine, 1e-14 apart on 4
  ranks with a nonzero guess), far below rtol.
*/
#include <cakrylov.h>
#include <petscdmda.h>

#include "stencil.h" /* share/problems/: StencilCreateDMDA(), AssembleStencilOperator() (here the Laplacian) */

/* Column j of B: a Gaussian of width w centred at c_j = (j+1)/(m+1) (1, ..., 1), sampled at the grid points x = (i+1) h,
   h = 1/(n+1), times h^2 (the operator is the Laplacian scaled by h^2) */
static PetscErrorCode FillSources(DM da, Mat B, PetscReal w)
{
  PetscInt dim, n, m, xs, ys, zs, xm, ym, zm;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, &dim, &n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  PetscCall(MatGetSize(B, NULL, &m));
  for (PetscInt j = 0; j < m; j++) {
    const PetscReal c = (j + 1.0) / (m + 1.0), h = 1.0 / (n + 1.0);
    Vec             bj;
    PetscScalar    *a;

    PetscCall(MatDenseGetColumnVecWrite(B, j, &bj));
    PetscCall(VecGetArray(bj, &a));
    for (PetscInt k = zs, l = 0; k < zs + zm; k++) {
      for (PetscInt jj = ys; jj < ys + ym; jj++) {
        for (PetscInt i = xs; i < xs + xm; i++, l++) {
          const PetscReal x[3] = {(i + 1) * h, (jj + 1) * h, (k + 1) * h};
          PetscReal       r2   = 0.0;

          for (PetscInt d = 0; d < dim; d++) r2 += (x[d] - c) * (x[d] - c);
          a[l] = h * h * PetscExpReal(-r2 / (2.0 * w * w));
        }
      }
    }
    PetscCall(VecRestoreArray(bj, &a));
    PetscCall(MatDenseRestoreColumnVecWrite(B, j, &bj));
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  MPI_Comm                  comm;
  DM                        da;
  Mat                       A, B, X, R;
  KSP                       ksp;
  PC                        pc;
  KSPType                   type;
  PetscInt                  dim = 3, n = -1, m = 4, nloc, N, mcols = 0, within = 0, matches = 0;
  PetscReal                 w       = 0.1, rtol, *rnorm, *bnorm;
  PetscBool                 compare = PETSC_TRUE;
  const KSPConvergedReason *reasons = NULL;
  KSPConvergedReason        reason;
  PetscErrorCode (*percolumn)(KSP, PetscInt *, const KSPConvergedReason *[], const PetscInt *[]) = NULL;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(CAKrylovInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscOptionsBegin(comm, NULL, "Multiple right-hand sides tutorial", NULL);
  PetscCall(PetscOptionsInt("-dim", "Dimension", NULL, dim, &dim, NULL));
  PetscCall(PetscOptionsInt("-n", "Grid points per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-nrhs", "Number of right-hand sides", NULL, m, &m, NULL));
  PetscCall(PetscOptionsReal("-width", "Width of the Gaussian sources", NULL, w, &w, NULL));
  PetscCall(PetscOptionsBool("-compare", "Compare with KSPSolve() of each column", NULL, compare, &compare, NULL));
  PetscOptionsEnd();
  PetscCheck(dim == 2 || dim == 3, comm, PETSC_ERR_ARG_OUTOFRANGE, "-dim %" PetscInt_FMT ": 2 or 3", dim);
  if (n < 0) n = dim == 3 ? 24 : 64;
  PetscCheck(n >= 2, comm, PETSC_ERR_ARG_OUTOFRANGE, "-n %" PetscInt_FMT " must be >= 2", n);
  PetscCheck(m >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-nrhs %" PetscInt_FMT " must be >= 1", m);
  PetscCheck(w > 0.0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-width %g must be > 0", (double)w);

  PetscCall(StencilCreateDMDA(comm, dim, n, DM_BOUNDARY_NONE, &da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(AssembleStencilOperator(da, STENCIL_POISSON, 0.0, A)); /* 2d on the diagonal, -1 per neighbour inside the grid */
  PetscCall(MatGetLocalSize(A, &nloc, NULL));
  PetscCall(MatGetSize(A, &N, NULL));
  /* B and X: dense, the DMDA's row layout, m columns */
  PetscCall(MatCreateDense(comm, nloc, PETSC_DECIDE, N, m, NULL, &B));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
  PetscCall(FillSources(da, B, w));

  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPBCGSM));
  PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetDM(pc, da)); /* the grid hierarchy of -pc_type mg (with -pc_mg_galerkin: the coarse operators from A) */
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPGetType(ksp, &type));
  PetscCall(KSPGetTolerances(ksp, &rtol, NULL, NULL, NULL));
  PetscCall(PetscPrintf(comm, "Laplacian %" PetscInt_FMT "D, %" PetscInt_FMT "^%" PetscInt_FMT " grid points, %" PetscInt_FMT " right-hand side%s (Gaussian sources along the diagonal), KSP %s, rtol %g\n", dim, n, dim, m, m > 1 ? "s" : "", type, (double)rtol));

  PetscCall(KSPMatSolve(ksp, B, X));

  /* how each column ended: per column from the types with a block solver, one reason for the block otherwise */
  PetscCall(PetscObjectQueryFunction((PetscObject)ksp, "CAKrylovKSPGetMatSolveConvergedReasons_C", &percolumn));
  if (percolumn) PetscCall(CAKrylovKSPGetMatSolveConvergedReasons(ksp, &mcols, &reasons, NULL));
  PetscCheck(!percolumn || mcols == m, comm, PETSC_ERR_PLIB, "%" PetscInt_FMT " column reasons for %" PetscInt_FMT " columns", mcols, m);
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  if (!percolumn) PetscCall(PetscPrintf(comm, "%s reports one converged reason for the block: %s\n", type, KSPConvergedReasons[reason]));

  /* true residuals R = B - A X, column norms */
  PetscCall(PetscMalloc2(m, &rnorm, m, &bnorm));
  PetscCall(MatMatMult(A, X, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &R));
  PetscCall(MatAYPX(R, -1.0, B, SAME_NONZERO_PATTERN));
  PetscCall(MatGetColumnNorms(R, NORM_2, rnorm));
  PetscCall(MatGetColumnNorms(B, NORM_2, bnorm));
  for (PetscInt j = 0; j < m; j++) {
    const PetscBool ok = rnorm[j] <= 1.01 * rtol * bnorm[j] ? PETSC_TRUE : PETSC_FALSE;

    within += ok;
    if (percolumn) PetscCall(PetscPrintf(comm, "column %" PetscInt_FMT ": %s, true residual <= 1.01 rtol ||b||: %s\n", j, KSPConvergedReasons[reasons[j]], ok ? "yes" : "no"));
    else PetscCall(PetscPrintf(comm, "column %" PetscInt_FMT ": true residual <= 1.01 rtol ||b||: %s\n", j, ok ? "yes" : "no"));
  }
  PetscCall(PetscPrintf(comm, "every column's true residual <= 1.01 rtol ||b||: %s\n", within == m ? "yes" : "no"));

  if (compare) { /* each column alone: KSPSolve() with the same KSP, into a column of R */
    for (PetscInt j = 0; j < m; j++) {
      Vec       bj, xj, yj;
      PetscReal ynorm, dnorm;

      PetscCall(MatDenseGetColumnVecRead(B, j, &bj));
      PetscCall(MatDenseGetColumnVecWrite(R, j, &yj));
      PetscCall(KSPSolve(ksp, bj, yj));
      PetscCall(MatDenseGetColumnVecRead(X, j, &xj));
      PetscCall(VecNorm(yj, NORM_2, &ynorm));
      PetscCall(VecAXPY(yj, -1.0, xj)); /* y_j - x_j */
      PetscCall(VecNorm(yj, NORM_2, &dnorm));
      PetscCall(MatDenseRestoreColumnVecRead(X, j, &xj));
      PetscCall(MatDenseRestoreColumnVecWrite(R, j, &yj));
      PetscCall(MatDenseRestoreColumnVecRead(B, j, &bj));
      matches += dnorm <= rtol * ynorm ? 1 : 0;
    }
    PetscCall(PetscPrintf(comm, "matches KSPSolve() of each column within rtol (||x_j - y_j|| <= rtol ||y_j||): %s\n", matches == m ? "yes" : "no"));
  }

  PetscCall(PetscFree2(rnorm, bnorm));
  PetscCall(MatDestroy(&R));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&X));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   build:
      requires: !complex !single

   # bcgsm advances the columns together (a reason per column); PETSc's bcgs solves them one by one (KSPMatSolve()'s loop);
   # the same output on 1 and 2 ranks
   testset:
      suffix: 3d
      nsize: {{1 2}}
      args: -ksp_type {{bcgsm bcgs}separate output} -nrhs {{1 4}separate output}

   testset:
      suffix: 2d
      nsize: {{1 2}}
      args: -dim 2 -ksp_type {{bcgsm bcgs}separate output} -nrhs 4

   # no preconditioner: bcgsm's block path skips the identity
   test:
      suffix: pc_none
      nsize: 2
      args: -nrhs 3 -pc_type none

   # cabicgstab's block: one reduction per outer round for all columns (no -compare: a column's rounding differs from its
   # KSPSolve()'s in the block's products and reduction, and an s-step iteration carries that further than rtol in x)
   test:
      suffix: cabicgstab
      nsize: {{1 2}}
      args: -ksp_type cabicgstab -nrhs 4 -ksp_cabicgstab_basis {{monomial chebyshev}} -compare 0
      output_file: output/ex3_cabicgstab.out

   # multigrid on the block (PCMatApply()), the block cabicgstab as its bottom solver through the hook
   test:
      suffix: mg
      nsize: {{1 2}}
      args: -n 17 -nrhs 4 -ksp_type {{cabicgstab bcgsm}separate output} -pc_type mg -pc_mg_levels 3 -pc_mg_galerkin pmat -pc_mg_bottom_ksp_type cabicgstab -compare 0

TEST*/
