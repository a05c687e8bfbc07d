/* The pieces the merged BiCGStab types (bcgsm, rbicgstab, pipebcgsm) share: see bicgstabfamily.h. */
#include <cakrylov/private/bicgstabfamily.h>

static PetscErrorCode KSPSetUp_BiCGStabFamily(KSP ksp)
{
  PetscFunctionBegin;
  PetscCheck(ksp->pc_side != PC_SYMMETRIC, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSP %s does not support symmetric preconditioning", ((PetscObject)ksp)->type_name);
  PetscCall(KSPSetWorkVecs(ksp, ((KSP_BiCGStabFamily *)ksp->data)->nwork));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPReset_BiCGStabFamily(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(CAKrylovKSPProgressReset(&((KSP_BiCGStabFamily *)ksp->data)->progress));
  PetscCall(KSPBlockReset_BiCGStabFamily(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The bodies of the _C methods of KSP<Type>SetProgress() and KSP<Type>GetProgress(), the same for every type that
   has them; each type composes them under its own names ("KSPRBiCGStabSetProgress_C") */
PetscErrorCode KSPSetProgress_BiCGStabFamily(KSP ksp, CAKrylovProgressType type, PetscInt ntests)
{
  PetscFunctionBegin;
  PetscCall(CAKrylovKSPProgressSet(ksp, &((KSP_BiCGStabFamily *)ksp->data)->progress, type, ntests));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPGetProgress_BiCGStabFamily(KSP ksp, CAKrylovProgressType *type, PetscInt *ntests)
{
  PetscFunctionBegin;
  CAKrylovKSPProgressGet(&((KSP_BiCGStabFamily *)ksp->data)->progress, type, ntests);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The solution: every type of the family keeps the true x in ksp->vec_sol at each monitor and test, under either
   preconditioner side (right preconditioning updates x with the M^{-1}-vectors p^ and s^), so it is vec_sol itself.
   PETSc's KSPBuildSolutionDefault() would apply M^{-1} to it once more under right preconditioning (PETSc's bcgs keeps
   M x there and unwinds at the end); KSPBuildResidualDefault() builds b - A x on top of this. */
static PetscErrorCode KSPBuildSolution_BiCGStabFamily(KSP ksp, Vec v, Vec *V)
{
  PetscFunctionBegin;
  if (v) {
    PetscCall(VecCopy(ksp->vec_sol, v));
    *V = v;
  } else *V = ksp->vec_sol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The family's part of KSPCreate_X(): the data with nwork work vectors, setup, reset, destroy, the solution and
   residual builders
*/
PetscErrorCode KSPCreate_BiCGStabFamily(KSP ksp, PetscInt nwork)
{
  KSP_BiCGStabFamily *fam;

  PetscFunctionBegin;
  PetscCall(PetscNew(&fam));
  ksp->data  = (void *)fam;
  fam->nwork = nwork;
  CAKrylovKSPProgressInitialize(&fam->progress);

  ksp->ops->setup         = KSPSetUp_BiCGStabFamily;
  ksp->ops->reset         = KSPReset_BiCGStabFamily;
  ksp->ops->destroy       = KSPDestroy_BiCGStabFamily;
  ksp->ops->buildsolution = KSPBuildSolution_BiCGStabFamily;
  ksp->ops->buildresidual = KSPBuildResidualDefault;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A type with methods of its own removes them first, then calls this */
PetscErrorCode KSPDestroy_BiCGStabFamily(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPReset_BiCGStabFamily(ksp));
  PetscCall(KSPComposeMatSolve_BiCGStabFamily(ksp, PETSC_FALSE));
  PetscCall(KSPDestroyDefault(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The start of every solve: fused-kernel options, whether M^{-1} = I, the diagonal-scaling check of right
   preconditioning (the iterations update x with M^{-1}-vectors and never unscale), x = 0 for a zero guess */
PetscErrorCode KSPSolveBegin_BiCGStabFamily(KSP ksp)
{
  KSP_BiCGStabFamily *fam = (KSP_BiCGStabFamily *)ksp->data;

  PetscFunctionBegin;
  PetscCall(CAKrylovVecFusedGetFallback((PetscObject)ksp, &fam->fallback));
  PetscCall(CAKrylovPCIsIdentity(ksp->pc, &fam->identity));
  if (!fam->identity && ksp->pc_side == PC_RIGHT) {
    PetscBool scaled;

    PetscCall(CAKrylovPCGetDiagonalScale(ksp->pc, &scaled));
    PetscCheck(!scaled, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSP %s does not support PCSetDiagonalScale() with right preconditioning", ((PetscObject)ksp)->type_name);
  }
  fam->nsolves++;
  if (ksp->guess_zero) PetscCall(VecSet(ksp->vec_sol, 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* r = b - A x (r = b when a zero initial guess starts the solve) */
PetscErrorCode KSPTrueResidual_BiCGStabFamily(KSP ksp, PetscBool start, Vec r)
{
  PetscFunctionBegin;
  if (start && ksp->guess_zero) PetscCall(VecCopy(ksp->vec_rhs, r));
  else {
    PetscCall(CAKrylovKSPMatMult(ksp, ksp->vec_sol, r));
    PetscCall(VecAYPX(r, -1.0, ksp->vec_rhs));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The test of iteration ksp->its with ||r|| = |rr|^{1/2}, rr = (r, r) summed by a reduction of the iteration */
PetscErrorCode KSPNormTest_BiCGStabFamily(KSP ksp, PetscScalar rr)
{
  const PetscReal rnorm = PetscSqrtReal(PetscAbsScalar(rr));

  PetscFunctionBegin;
  KSPCheckNorm(ksp, rnorm);
  PetscCall(CAKrylovKSPConvergenceTest(ksp, rnorm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Iteration 0 with rr = (r_0, r_0): its test (with norm 0 under KSP_NORM_NONE); r_0 = 0 exactly converges (seen here with KSP_NORM_NONE) */
PetscErrorCode KSPInitialTest_BiCGStabFamily(KSP ksp, PetscScalar rr)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectSAWsTakeAccess((PetscObject)ksp));
  ksp->its = 0; /* before KSPCheckNorm(), which returns: a NaN r_0 ends at iteration 0, not at the previous solve's count */
  PetscCall(PetscObjectSAWsGrantAccess((PetscObject)ksp));
  KSPCheckNorm(ksp, PetscSqrtReal(PetscAbsScalar(rr)));
  PetscCall(KSPNormTest_BiCGStabFamily(ksp, ksp->normtype != KSP_NORM_NONE ? rr : 0.0));
  if (!ksp->reason && rr == 0.0) ksp->reason = KSP_CONVERGED_ATOL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -ksp_<type>_progress and -ksp_<type>_progress_tests (inside the type's options head); man: the type's setter */
PetscErrorCode KSPSetFromOptionsProgress_BiCGStabFamily(KSP ksp, CAKrylovOptionItems PetscOptionsObject, const char man[])
{
  KSP_BiCGStabFamily *fam = (KSP_BiCGStabFamily *)ksp->data;

  PetscFunctionBegin;
  PetscCall(CAKrylovKSPProgressSetFromOptions(ksp, PetscOptionsObject, ((PetscObject)ksp)->type_name, man, &fam->progress));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The statistics line of -ksp_view, with one count of the type's own (what: its name; NULL: none), and the kernels'
   portable path when the last solve took it */
PetscErrorCode KSPViewStatistics_BiCGStabFamily(KSP ksp, PetscViewer viewer, PetscInt count, const char what[])
{
  KSP_BiCGStabFamily *fam     = (KSP_BiCGStabFamily *)ksp->data;
  char                own[64] = "";

  PetscFunctionBegin;
  if (what) PetscCall(PetscSNPrintf(own, sizeof(own), ", %" PetscInt_FMT " %s", count, what));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  statistics: %" PetscInt_FMT " solves, %" PetscInt_FMT " iterations, %" PetscInt_FMT " global reductions%s\n", fam->nsolves, fam->nits, fam->nreductions, own));
  if (fam->fallback) PetscCall(PetscViewerASCIIPrintf(viewer, "  vector operations: PETSc's, not the fused kernels (-%scakrylov_vec_fallback)\n", ((PetscObject)ksp)->prefix ? ((PetscObject)ksp)->prefix : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}
