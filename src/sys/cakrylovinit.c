/* Package registration: types, log events, finalizer; the -dll_append entry point. */
#include <cakrylov/private/cakrylovimpl.h>

PetscLogEvent CAKRYLOV_CABasis, CAKRYLOV_CAGram, CAKRYLOV_CARebuild, CAKRYLOV_VecFused, CAKRYLOV_ReductionEnd, CAKRYLOV_SpMVProgress, CAKRYLOV_MatMultColumns;

static PetscBool CAKrylovPackageInitialized = PETSC_FALSE;

static PetscErrorCode CAKrylovFinalizePackage(void)
{
  PetscFunctionBegin;
  CAKrylovPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  CAKrylovInitializePackage - Registers the cakrylov KSP types, the PCMG bottom-solver hook and log events with PETSc.

  Not Collective

  Notes:
  Call it once after `PetscInitialize()` in a program that links `-lcakrylov`; later calls do nothing.
  A program that loads the library at run time with `-dll_append /path/libcakrylov.so` does not
  need it: PETSc calls `PetscDLLibraryRegister_cakrylov()`, which calls this function.

  Level: beginner

.seealso: `KSPCABICGSTAB`, `KSPRBICGSTAB`, `KSPPIPEBCGSM`, `KSPBCGSM`, `PCMGBottomSolver`, `KSPRegister()`
@*/
PetscErrorCode CAKrylovInitializePackage(void)
{
  PetscFunctionBegin;
  if (CAKrylovPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  CAKrylovPackageInitialized = PETSC_TRUE;
  PetscCall(KSPInitializePackage());
  PetscCall(KSPRegister(KSPCABICGSTAB, KSPCreate_CABiCGStab));
  PetscCall(KSPRegister(KSPPIPEBCGSM, KSPCreate_PIPEBCGSM));
  PetscCall(KSPRegister(KSPBCGSM, KSPCreate_BCGSM));
  PetscCall(KSPRegister(KSPRBICGSTAB, KSPCreate_RBiCGStab));
  PetscCall(KSPRegister(KSPAUTOBCGS, KSPCreate_AutoBCGS));
  PetscCall(PCMGBottomRegister());
  PetscCall(PCRegister(PCSYNTHETIC, PCCreate_Synthetic));
  PetscCall(PCRegister(PCCHEBYJACOBI, PCCreate_ChebyJacobi));
  /* one style: "CAK" and what the event times (at most 16 characters, the width of -log_view's column) */
  PetscCall(PetscLogEventRegister("CAKCABasis", KSP_CLASSID, &CAKRYLOV_CABasis));
  PetscCall(PetscLogEventRegister("CAKCAGram", KSP_CLASSID, &CAKRYLOV_CAGram));
  PetscCall(PetscLogEventRegister("CAKCARebuild", KSP_CLASSID, &CAKRYLOV_CARebuild));
  PetscCall(PetscLogEventRegister("CAKVecFused", VEC_CLASSID, &CAKRYLOV_VecFused));
  PetscCall(PetscLogEventRegister("CAKReductionEnd", VEC_CLASSID, &CAKRYLOV_ReductionEnd));
  PetscCall(PetscLogEventRegister("CAKSpMVProgress", MAT_CLASSID, &CAKRYLOV_SpMVProgress));
  PetscCall(PetscLogEventRegister("CAKMatMultCols", MAT_CLASSID, &CAKRYLOV_MatMultColumns));
  PetscCall(PetscRegisterFinalize(CAKrylovFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Called by PETSc when the library is loaded with -dll_append / -dll_prepend. */
CAKRYLOV_EXTERN PetscErrorCode PetscDLLibraryRegister_cakrylov(void);
PetscErrorCode                 PetscDLLibraryRegister_cakrylov(void)
{
  PetscFunctionBegin;
  PetscCall(CAKrylovInitializePackage());
  PetscFunctionReturn(PETSC_SUCCESS);
}
