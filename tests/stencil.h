/*
   The stencil operators of the test programs on a DMDA (2D 5-point, 3D 7-point), Dirichlet boundaries eliminated:
   the Laplacian, upwind convection-diffusion, and a skew-symmetric x-difference. Shared by tests/ex2.c and the
   s-study (share/bench/sstudy.c). Include it in one source file of a program, after petscdmda.h.
*/
#pragma once

#include <petscdmda.h>

typedef enum {
  STENCIL_POISSON,
  STENCIL_CONVDIFF,
  STENCIL_SKEW
} StencilProblem;
static const char *const StencilProblems[] = {"poisson", "convdiff", "skew", "StencilProblem", "STENCIL_", NULL};

/* The operator on the DMDA: Dirichlet boundaries eliminated (neighbours outside the grid are dropped) */
static PetscErrorCode AssembleStencilOperator(DM da, StencilProblem problem, PetscReal peclet, Mat A)
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
