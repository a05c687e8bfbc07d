/*
   The problems of the test programs, tutorials and benchmarks (share/problems/ is on their include path): the DMDA
   (StencilCreateDMDA()) and its stencil operators (2D 5-point, 3D 7-point): with Dirichlet boundaries eliminated, the
   Laplacian, upwind convection-diffusion and a skew-symmetric x-difference; on a periodic DMDA, miniGMG's
   variable-coefficient Helmholtz problem with its right-hand side. Include it in one source file of a program.
*/
#pragma once

#include <petscdmda.h>
#include <cakrylov/private/compat.h> /* PETSC_SUCCESS on PETSc 3.18 */

typedef enum {
  STENCIL_POISSON,
  STENCIL_CONVDIFF,
  STENCIL_SKEW
} StencilProblem;
static const char *const StencilProblems[] = {"poisson", "convdiff", "skew", "StencilProblem", "STENCIL_", NULL};

/* A DMDA of n points per direction in dim = 2 or 3 dimensions, boundary type bt, star stencil of width 1, one field; not
   set up (the caller may DMSetFromOptions() first) */
static inline PetscErrorCode StencilCreateDMDA(MPI_Comm comm, PetscInt dim, PetscInt n, DMBoundaryType bt, DM *da)
{
  PetscFunctionBegin;
  PetscCheck(dim == 2 || dim == 3, comm, PETSC_ERR_ARG_OUTOFRANGE, "Dimension %" PetscInt_FMT ": 2 or 3", dim);
  if (dim == 2) PetscCall(DMDACreate2d(comm, bt, bt, DMDA_STENCIL_STAR, n, n, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, da));
  else PetscCall(DMDACreate3d(comm, bt, bt, bt, DMDA_STENCIL_STAR, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The operator on the DMDA: Dirichlet boundaries eliminated (neighbours outside the grid are dropped) */
static inline PetscErrorCode AssembleStencilOperator(DM da, StencilProblem problem, PetscReal peclet, Mat A)
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
        PetscInt       nc = 1;

        row.i  = i;
        row.j  = j;
        row.k  = k;
        col[0] = row;
        v[0]   = problem == STENCIL_SKEW ? 0.0 : 2.0 * dim;
        for (PetscInt d = 0; d < dim; d++) {
          for (PetscInt side = -1; side <= 1; side += 2) {
            if (idx[d] + side < 0 || idx[d] + side >= size[d]) continue;
            col[nc] = row;
            if (d == 0) col[nc].i += side;
            if (d == 1) col[nc].j += side;
            if (d == 2) col[nc].k += side;
            switch (problem) {
            case STENCIL_POISSON:
              v[nc] = -1.0;
              break;
            case STENCIL_CONVDIFF: /* -Laplace u + Pe w . grad u, first-order upwind (w > 0) */
              v[nc] = -1.0 - (side < 0 ? peclet * wind[d] : 0.0);
              break;
            case STENCIL_SKEW: /* u_{i+1} - u_{i-1} in x only: A^T = -A, so (r, A r) = 0 */
              v[nc] = d == 0 ? (PetscScalar)side : 0.0;
              break;
            }
            nc++;
          }
          if (problem == STENCIL_CONVDIFF) v[0] += peclet * wind[d];
        }
        PetscCall(MatSetValuesStencil(A, 1, &row, nc, col, v, INSERT_VALUES));
      }
    }
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/*
   miniGMG's Helmholtz problem as tutorials/ex1.c builds it on its finest grid (-problem helmholtz -coefficients variable
   -bc periodic): a alpha u - b div(beta grad u) = f on the periodic unit cube, a = b = 0.9, alpha = 1 + 0.5 prod cos(2 pi x_i),
   beta = 1 + 0.5 prod sin(2 pi x_i), f = prod (1 - 4 |x_i - 1/2|); cell-centred finite volumes, rows integrated over the
   cell (h^d), face coefficients the harmonic mean of the two cells' beta.
*/
static inline PetscErrorCode AssembleHelmholtz(DM da, Mat A, Vec rhs)
{
  const PetscReal a = 0.9, b = 0.9;
  Vec             beta, lbeta;
  PetscScalar    *be, *f;
  PetscInt        dim, M, xs, ys, zs, xm, ym, zm, gxs, gys, gzs, gxm, gym;
  PetscReal       h, hd, hd2;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, &dim, &M, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  h   = 1.0 / M;
  hd  = PetscPowRealInt(h, dim);
  hd2 = PetscPowRealInt(h, dim - 2);
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  PetscCall(DMDAGetGhostCorners(da, &gxs, &gys, &gzs, &gxm, &gym, NULL));
  PetscCall(DMCreateGlobalVector(da, &beta));
  PetscCall(VecGetArrayWrite(beta, &be));
  PetscCall(VecGetArrayWrite(rhs, &f));
  for (PetscInt k = zs, l = 0; k < zs + zm; k++) {
    for (PetscInt j = ys; j < ys + ym; j++) {
      for (PetscInt i = xs; i < xs + xm; i++, l++) {
        const PetscInt idx[3] = {i, j, k};
        PetscReal      s = 1.0, t = 1.0;

        for (PetscInt d = 0; d < dim; d++) {
          const PetscReal x = (idx[d] + 0.5) / M;

          s *= PetscSinReal(2 * PETSC_PI * x);
          t *= 1.0 - 4.0 * PetscAbsReal(x - 0.5);
        }
        be[l] = 1.0 + 0.5 * s;
        f[l]  = hd * t;
      }
    }
  }
  PetscCall(VecRestoreArrayWrite(rhs, &f));
  PetscCall(VecRestoreArrayWrite(beta, &be));
  PetscCall(DMGetLocalVector(da, &lbeta));
  PetscCall(DMGlobalToLocal(da, beta, INSERT_VALUES, lbeta));
  PetscCall(VecGetArray(lbeta, &be));
  for (PetscInt k = zs; k < zs + zm; k++) {
    for (PetscInt j = ys; j < ys + ym; j++) {
      for (PetscInt i = xs; i < xs + xm; i++) {
        const PetscInt idx[3] = {i, j, k}, stride[3] = {1, gxm, gxm * gym};
        const PetscInt g   = (i - gxs) + stride[1] * (j - gys) + stride[2] * (k - gzs);
        MatStencil     row = {.k = k, .j = j, .i = i}, col[7];
        PetscScalar    v[7];
        PetscReal      c  = 1.0;
        PetscInt       nc = 1;

        for (PetscInt d = 0; d < dim; d++) c *= PetscCosReal(2 * PETSC_PI * (idx[d] + 0.5) / M);
        col[0] = row;
        v[0]   = hd * a * (1.0 + 0.5 * c); /* h^d a alpha_i */
        for (PetscInt d = 0; d < dim; d++) {
          for (PetscInt side = -1; side <= 1; side += 2) {
            const PetscScalar bn = be[g + side * stride[d]], bf = 2.0 * be[g] * bn / (be[g] + bn);

            v[0] += b * bf * hd2;
            col[nc] = row;
            if (d == 0) col[nc].i += side;
            if (d == 1) col[nc].j += side;
            if (d == 2) col[nc].k += side;
            v[nc++] = -b * bf * hd2;
          }
        }
        PetscCall(MatSetValuesStencil(A, 1, &row, nc, col, v, ADD_VALUES));
      }
    }
  }
  PetscCall(VecRestoreArray(lbeta, &be));
  PetscCall(DMRestoreLocalVector(da, &lbeta));
  PetscCall(VecDestroy(&beta));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* The problems of the s-step studies (share/bench/sstudy.c, tests/cabicgstab_large_s.c), chosen with -problem */
typedef enum {
  PROBLEM_POISSON,
  PROBLEM_HELMHOLTZ,
  PROBLEM_CONVDIFF
} StudyProblem;
static const char *const StudyProblems[] = {"poisson", "helmholtz", "convdiff", "StudyProblem", "PROBLEM_", NULL};

/* One study problem on n^dim points, set up, with its operator A and right-hand side b (b = 1 for the Laplacian and
   convection-diffusion with cell Peclet number peclet, on a Dirichlet DMDA; Helmholtz on a periodic one) */
static inline PetscErrorCode StudyProblemCreate(MPI_Comm comm, StudyProblem problem, PetscInt dim, PetscInt n, PetscReal peclet, DM *da, Mat *A, Vec *b)
{
  PetscFunctionBegin;
  PetscCall(StencilCreateDMDA(comm, dim, n, problem == PROBLEM_HELMHOLTZ ? DM_BOUNDARY_PERIODIC : DM_BOUNDARY_NONE, da));
  PetscCall(DMSetUp(*da));
  PetscCall(DMCreateMatrix(*da, A));
  PetscCall(DMCreateGlobalVector(*da, b));
  if (problem == PROBLEM_HELMHOLTZ) PetscCall(AssembleHelmholtz(*da, *A, *b));
  else {
    PetscCall(AssembleStencilOperator(*da, problem == PROBLEM_CONVDIFF ? STENCIL_CONVDIFF : STENCIL_POISSON, peclet, *A));
    PetscCall(VecSet(*b, 1.0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
