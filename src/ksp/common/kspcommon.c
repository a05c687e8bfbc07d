/* Helpers shared by the library's Krylov solvers: the end of an iteration, unusable coefficients, identity PC. */
#include <cakrylov/private/cakrylovimpl.h>
#include <petsc/private/kspimpl.h>

/* Iteration ksp->its is done with residual norm rnorm: history, monitors, convergence test, iteration limit */
PetscErrorCode CAKrylovKSPConvergenceTest(KSP ksp, PetscReal rnorm)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectSAWsTakeAccess((PetscObject)ksp));
  ksp->rnorm = rnorm;
  PetscCall(PetscObjectSAWsGrantAccess((PetscObject)ksp));
  PetscCall(KSPLogResidualHistory(ksp, rnorm));
  PetscCall(KSPMonitor(ksp, ksp->its, rnorm));
  PetscCall((*ksp->converged)(ksp, ksp->its, rnorm, &ksp->reason, ksp->cnvP));
  if (!ksp->reason && ksp->its >= ksp->max_it) ksp->reason = KSP_DIVERGED_ITS;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ksp->its++ */
PetscErrorCode CAKrylovKSPNextIteration(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectSAWsTakeAccess((PetscObject)ksp));
  ksp->its++;
  PetscCall(PetscObjectSAWsGrantAccess((PetscObject)ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A recurrence coefficient that cannot be used ends the solve: NaN/Inf (KSP_DIVERGED_NANORINF) or an exact
   zero (KSP_DIVERGED_BREAKDOWN). Returns whether it did. */
PetscBool CAKrylovKSPUnusable(KSP ksp, PetscScalar v, const char what[])
{
  if (PetscIsInfOrNanScalar(v)) ksp->reason = KSP_DIVERGED_NANORINF;
  else if (v == 0.0) ksp->reason = KSP_DIVERGED_BREAKDOWN;
  if (ksp->reason) (void)PetscInfo(ksp, "Stopping at iteration %" PetscInt_FMT ": %s = %g\n", ksp->its, what, (double)PetscRealPart(v));
  return ksp->reason ? PETSC_TRUE : PETSC_FALSE;
}

/* Is the preconditioner the identity (PCNONE without diagonal scaling)? Then M^{-1} v = v is not applied
   at all: no copy, and the "hat" vectors of right-preconditioned recurrences are the plain ones. */
PetscErrorCode CAKrylovPCIsIdentity(PC pc, PetscBool *identity)
{
  PetscBool scaled;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCNONE, identity));
  PetscCall(PCGetDiagonalScale(pc, &scaled));
  if (scaled) *identity = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x (A^T x in KSPSolveTranspose()) with the null space of the KSP's operator removed */
PetscErrorCode CAKrylovKSPMatMult(KSP ksp, Vec x, Vec y)
{
  Mat A;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  PetscCall(KSP_MatMult(ksp, A, x, y));
  if (ksp->transpose_solve) PetscCall(KSP_RemoveNullSpaceTranspose(ksp, y));
  else PetscCall(KSP_RemoveNullSpace(ksp, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}
