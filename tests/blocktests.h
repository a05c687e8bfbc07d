/* What the KSPMatSolve() test programs (bcgsm_block.c, cabicgstab_block.c) share. Include it in one source file. */
#pragma once

#include <petscksp.h>
#include <cakrylov/private/compat.h> /* PETSC_SUCCESS on PETSc 3.18 */

/* ||v|| in the norm the KSP tests: ||v|| (right preconditioning, none) or ||M^{-1} v|| (left) */
static PetscErrorCode TestNorm(KSP ksp, Vec v, PetscReal *norm)
{
  PCSide side;
  PC     pc;
  Vec    z;

  PetscFunctionBegin;
  PetscCall(KSPGetPCSide(ksp, &side));
  if (side == PC_LEFT) {
    PetscCall(VecDuplicate(v, &z));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCApply(pc, v, z));
    PetscCall(VecNorm(z, NORM_2, norm));
    PetscCall(VecDestroy(&z));
  } else PetscCall(VecNorm(v, NORM_2, norm));
  PetscFunctionReturn(PETSC_SUCCESS);
}
