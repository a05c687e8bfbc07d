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

/* A recurrence coefficient that cannot be used ends the solve: NaN/Inf (KSP_DIVERGED_NANORINF) or an exact zero
   (KSP_DIVERGED_BREAKDOWN). The caller tests ksp->reason after it. */
PetscErrorCode CAKrylovKSPCheckCoefficient(KSP ksp, PetscScalar v, const char what[])
{
  PetscFunctionBegin;
  if (PetscIsInfOrNanScalar(v)) ksp->reason = KSP_DIVERGED_NANORINF;
  else if (v == 0.0) ksp->reason = KSP_DIVERGED_BREAKDOWN;
  if (ksp->reason) PetscCall(PetscInfo(ksp, "Stopping at iteration %" PetscInt_FMT ": %s = %g\n", ksp->its, what, (double)PetscRealPart(v)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Is the preconditioner the identity (PCNONE without diagonal scaling)? Then M^{-1} v = v is not applied
   at all: no copy, and the "hat" vectors of right-preconditioned recurrences are the plain ones. */
PetscErrorCode CAKrylovPCIsIdentity(PC pc, PetscBool *identity)
{
  PetscBool scaled;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCNONE, identity));
  PetscCall(CAKrylovPCGetDiagonalScale(pc, &scaled));
  if (scaled) *identity = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The diagonal d that a PCJACOBI applies (its PCApply() is y = x .* d, whatever -pc_jacobi_ says), as d = M^{-1} 1 (bit
   for bit: 1 * d = d), in jac->d (made on x's layout, without a new layout's reduction), computed again only where the
   preconditioning matrix or its state changed: the library's own applications of PCJACOBI (in chunks, to blocks of
   columns) are then bitwise PETSc's
*/
PetscErrorCode CAKrylovPCJacobiDiagonal(PC pc, Vec x, CAKrylovJacobi *jac)
{
  Mat              P;
  PetscObjectId    id;
  PetscObjectState state;
  Vec              ones;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(pc, NULL, &P));
  PetscCall(PetscObjectGetId((PetscObject)P, &id));
  PetscCall(PetscObjectStateGet((PetscObject)P, &state));
  if (jac->d && jac->mat_id == id && jac->mat_state == state) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecDestroy(&jac->d));
  if (x) PetscCall(CAKrylovVecCreateOnLayout(x, &jac->d));
  else PetscCall(MatCreateVecs(P, &jac->d, NULL));
  PetscCall(VecDuplicate(jac->d, &ones));
  PetscCall(VecSet(ones, 1.0));
  PetscCall(PCApply(pc, ones, jac->d));
  PetscCall(VecDestroy(&ones));
  jac->mat_id    = id;
  jac->mat_state = state;
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

/*
   omega = (t, s) / (t, t) of BiCGStab's second half step, from dot = [(t, s), (t, t), (s, s)], where s is the
   residual of the half-step iterate x + alpha p^ and t = Â s (pipebcgsm: s = q, t = y). When that is not
   possible the solve ends (ksp->reason is set) with the best iterate in x:
     t = 0, s = 0:   x + alpha p^ solves the system (one more iteration, converged)
     t = 0, s != 0:  breakdown, x unchanged
     omega = 0:      s is orthogonal to A s: x + alpha p^ is the iterate (one more iteration); converged if its
                     residual ||s|| passes the convergence test (the half step solved the system up to rounding,
                     seen with PETSc's ex23 -n 3), breakdown otherwise
     omega NaN/Inf:  x + alpha p^ (the half step) is kept
*/
PetscErrorCode CAKrylovBiCGStabOmega(KSP ksp, PetscBool fallback, const PetscScalar dot[3], PetscScalar alpha, Vec x, Vec ph, PetscScalar *omega, PetscInt *nits)
{
  const CAKrylovVecUpdate half[] = {
    {.y = x, .b = 1.0, .a = {alpha}, .x = {ph}}
  }; /* x += alpha p^ */

  PetscFunctionBegin;
  KSPCheckDot(ksp, dot[0]);
  KSPCheckDot(ksp, dot[1]);
  if (dot[1] == 0.0) {
    if (dot[2] != 0.0) {
      ksp->reason = KSP_DIVERGED_BREAKDOWN;
      PetscCall(PetscInfo(ksp, "Breakdown at iteration %" PetscInt_FMT ": A s = 0 with s != 0\n", ksp->its));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(CAKrylovVecFused(fallback, 1, half, 0, NULL, NULL, NULL));
    PetscCall(CAKrylovKSPNextIteration(ksp));
    (*nits)++;
    PetscCall(CAKrylovKSPConvergenceTest(ksp, 0.0));
    if (!ksp->reason) ksp->reason = KSP_CONVERGED_ATOL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *omega = dot[0] / dot[1];
  if (*omega == 0.0) {
    const PetscReal snorm = ksp->normtype != KSP_NORM_NONE ? PetscSqrtReal(PetscAbsScalar(dot[2])) : 0.0; /* ||s|| */

    PetscCall(CAKrylovVecFused(fallback, 1, half, 0, NULL, NULL, NULL));
    PetscCall(CAKrylovKSPNextIteration(ksp));
    (*nits)++;
    PetscCall(CAKrylovKSPConvergenceTest(ksp, snorm));
    if (!ksp->reason || ksp->reason == KSP_DIVERGED_ITS) {
      ksp->reason = KSP_DIVERGED_BREAKDOWN;
      PetscCall(PetscInfo(ksp, "Breakdown at iteration %" PetscInt_FMT ": omega = (A s, s) / (A s, A s) = 0 with ||s|| = %g not converged\n", ksp->its, (double)snorm));
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(CAKrylovKSPCheckCoefficient(ksp, *omega, "omega"));
  if (ksp->reason) PetscCall(CAKrylovVecFused(fallback, 1, half, 0, NULL, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   KSPConvergedDefault()'s test of column col of a KSPMatSolve() at iteration n with residual norm rnorm, with the KSP's
   rtol, abstol, divtol, max_it, norm type and the options of its default-test context
   (-ksp_converged_use_initial_residual_norm, -ksp_converged_use_min_initial_residual_norm, -ksp_converged_maxits),
   without a reduction of its own: with a nonzero initial guess, bnorm is the column's ||b|| (||M^{-1} b|| under left
   preconditioning), computed by the caller for all columns at once. The column's reference norm and tolerance are kept
   in *rnorm0 and *ttol from n = 0 on. A NaN/Inf norm ends the column with KSP_DIVERGED_NANORINF, and a column still
   iterating at max_it with KSP_DIVERGED_ITS.
*/
PetscErrorCode CAKrylovKSPColumnTest(KSP ksp, PetscInt col, PetscInt n, PetscReal rnorm, PetscReal bnorm, PetscReal *rnorm0, PetscReal *ttol, KSPConvergedReason *r)
{
  KSPConvergedDefaultCtx *cctx = (KSPConvergedDefaultCtx *)ksp->cnvP;

  PetscFunctionBegin;
  *r = KSP_CONVERGED_ITERATING;
  if (PetscIsInfOrNanReal(rnorm)) {
    *r = KSP_DIVERGED_NANORINF;
    PetscCall(PetscInfo(ksp, "KSPMatSolve() column %" PetscInt_FMT ": residual norm NaN or Inf at iteration %" PetscInt_FMT "\n", col, n));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (cctx && cctx->convmaxits && n >= ksp->max_it) {
    *r = KSP_CONVERGED_ITS;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (ksp->normtype != KSP_NORM_NONE) {
    if (!n) {
      if (!ksp->guess_zero && !(cctx && cctx->initialrtol)) {
        const PetscReal snorm = bnorm != 0.0 ? bnorm : rnorm; /* zero rhs, nonzero guess: the initial residual */

        *rnorm0 = cctx && cctx->mininitialrtol ? PetscMin(snorm, rnorm) : snorm;
      } else *rnorm0 = rnorm;
      *ttol = PetscMax(ksp->rtol * *rnorm0, ksp->abstol);
    }
    if (n > ksp->chknorm && n >= CAKrylovKSPMinIterations(ksp)) {
      if (rnorm <= *ttol) *r = rnorm < ksp->abstol ? KSP_CONVERGED_ATOL : KSP_CONVERGED_RTOL;
      else if (rnorm >= ksp->divtol * *rnorm0) *r = KSP_DIVERGED_DTOL;
    }
  }
  if (!*r && n >= ksp->max_it) *r = KSP_DIVERGED_ITS;
  if (*r) PetscCall(PetscInfo(ksp, "KSPMatSolve() column %" PetscInt_FMT ": %s at iteration %" PetscInt_FMT ", residual norm %g\n", col, KSPConvergedReasons[*r], n, (double)rnorm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* B and X against the operator, before anything is read: distinct, with as many columns, B's rows distributed as A's
   rows (its columns under KSPMatSolveTranspose()) and X's as A's columns (its rows). The layouts hold every rank's
   ownership range, so the comparison needs no communication and gives one answer on all ranks. */
PetscErrorCode CAKrylovKSPMatSolveCheckLayouts(KSP ksp, Mat A, Mat B, Mat X)
{
  PetscLayout arow, acol, brow, bcol, xrow, xcol;
  PetscBool   bsame, xsame;

  PetscFunctionBegin;
  PetscCheck(B != X, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_IDN, "KSPMatSolve(): B and X must be different matrices");
  PetscCall(MatGetLayouts(A, ksp->transpose_solve ? &acol : &arow, ksp->transpose_solve ? &arow : &acol)); /* A^T: rows and columns swap */
  PetscCall(MatGetLayouts(B, &brow, &bcol));
  PetscCall(MatGetLayouts(X, &xrow, &xcol));
  PetscCheck(bcol->N == xcol->N, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_SIZ, "KSPMatSolve(): B has %" PetscInt_FMT " columns and X %" PetscInt_FMT, bcol->N, xcol->N);
  PetscCall(PetscLayoutCompare(brow, arow, &bsame));
  PetscCall(PetscLayoutCompare(xrow, acol, &xsame));
  PetscCheck(bsame && xsame, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_INCOMP, "KSPMatSolve(): the rows of %s are not distributed as the %s of the operator%s (%" PetscInt_FMT " of %" PetscInt_FMT " on this rank against %" PetscInt_FMT " of %" PetscInt_FMT "): create B and X with the operator's local sizes (MatGetLocalSize())", bsame ? "X" : "B", bsame ? "columns" : "rows", ksp->transpose_solve ? "'s transpose" : "",
             bsame ? xrow->n : brow->n, bsame ? xrow->N : brow->N, bsame ? acol->n : arow->n, bsame ? acol->N : arow->N);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KSPMatSolve() as a KSPSolve() per column (KSPSolveTranspose() in KSPMatSolveTranspose()), for the cases a block solver
   does not cover; reason[j] and its[j]: how column j ended (NULL: not asked for) */
PetscErrorCode CAKrylovKSPMatSolveColumns(KSP ksp, Mat B, Mat X, KSPConvergedReason reason[], PetscInt its[])
{
  PetscInt        m;
  const PetscBool transpose = ksp->transpose_solve; /* KSPMatSolveTranspose(): A^T x_j = b_j, each by KSPSolveTranspose() */

  PetscFunctionBegin;
  PetscCall(MatGetSize(B, NULL, &m));
  for (PetscInt j = 0; j < m; j++) {
    Vec cb, cx;

    PetscCall(MatDenseGetColumnVecRead(B, j, &cb));
    if (ksp->guess_zero) PetscCall(MatDenseGetColumnVecWrite(X, j, &cx));
    else PetscCall(MatDenseGetColumnVec(X, j, &cx)); /* the column is the initial guess: read, then written */
    if (transpose) PetscCall(KSPSolveTranspose(ksp, cb, cx));
    else PetscCall(KSPSolve(ksp, cb, cx));
    if (ksp->guess_zero) PetscCall(MatDenseRestoreColumnVecWrite(X, j, &cx));
    else PetscCall(MatDenseRestoreColumnVec(X, j, &cx));
    PetscCall(MatDenseRestoreColumnVecRead(B, j, &cb));
    if (reason) reason[j] = ksp->reason;
    if (its) its[j] = ksp->its;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The end of a block solve of m columns that ended with reason[] after its[] iterations: the KSP's iteration count (the
   largest, also in *maxits) and reason (that of the first column that failed, else of the column with the most
   iterations), and KSPSetErrorIfNotConverged() */
PetscErrorCode CAKrylovKSPMatSolveEnd(KSP ksp, PetscInt m, const KSPConvergedReason reason[], const PetscInt its[], PetscInt *maxits)
{
  PetscInt failed = -1, last = 0;

  PetscFunctionBegin;
  *maxits = 0;
  for (PetscInt j = 0; j < m; j++) {
    if (reason[j] < 0 && failed < 0) failed = j;
    if (its[j] > *maxits) {
      *maxits = its[j];
      last    = j;
    }
  }
  PetscCall(PetscObjectSAWsTakeAccess((PetscObject)ksp));
  ksp->its    = *maxits;
  ksp->reason = m ? reason[failed >= 0 ? failed : last] : KSP_CONVERGED_ATOL;
  PetscCall(PetscObjectSAWsGrantAccess((PetscObject)ksp));
  PetscCheck(!ksp->errorifnotconverged || failed < 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_NOT_CONVERGED, "KSPMatSolve() has not converged: column %" PetscInt_FMT " %s", failed, KSPConvergedReasons[failed >= 0 ? reason[failed] : 0]);
  PetscFunctionReturn(PETSC_SUCCESS);
}
