/*
   cakrylov: communication-avoiding and communication-hiding BiCGStab solvers for PETSc.

   Use it from any PETSc program without recompiling:
     ./app -dll_append /path/lib/libcakrylov.so -ksp_type cabicgstab
   or link -lcakrylov and call CAKrylovInitializePackage() after PetscInitialize().
*/
#pragma once

#include <petscksp.h>

#define CAKRYLOV_VERSION_MAJOR  0
#define CAKRYLOV_VERSION_MINOR  1
#define CAKRYLOV_VERSION_STRING "0.1.0"

/* Every public symbol of the library is exported with this (PETSc's own export attribute). */
#if defined(__cplusplus)
  #define CAKRYLOV_EXTERN extern "C" PETSC_DLLEXPORT
#else
  #define CAKRYLOV_EXTERN extern PETSC_DLLEXPORT
#endif

/* KSP types provided by this library (registered by CAKrylovInitializePackage()). */
#define KSPCABICGSTAB "cabicgstab"
#define KSPRBICGSTAB  "rbicgstab"
#define KSPPIPEBCGSM  "pipebcgsm"
#define KSPBCGSM      "bcgsm"

CAKRYLOV_EXTERN PetscErrorCode CAKrylovInitializePackage(void);

/* KSPCABICGSTAB: s-step BiCGStab */
/*E
   KSPCABiCGStabBasis - polynomial basis of the Krylov subspaces built by `KSPCABICGSTAB`

   Values:
.  `KSP_CABICGSTAB_BASIS_MONOMIAL` - [v, Av, A^2 v, ...]; stable for small s (about s <= 4)

   Level: intermediate

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabSetBasis()`, `KSPCABiCGStabGetBasis()`
E*/
typedef enum {
  KSP_CABICGSTAB_BASIS_MONOMIAL
} KSPCABiCGStabBasis;
CAKRYLOV_EXTERN const char *const KSPCABiCGStabBases[];

CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabSetS(KSP, PetscInt);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabGetS(KSP, PetscInt *);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabSetBasis(KSP, KSPCABiCGStabBasis);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabGetBasis(KSP, KSPCABiCGStabBasis *);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabSetTelescope(KSP, PetscBool);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabGetTelescope(KSP, PetscBool *);

/* KSPPIPEBCGSM: pipelined BiCGStab with merged vector operations */
CAKRYLOV_EXTERN PetscErrorCode KSPPIPEBCGSMSetReplacementPeriod(KSP, PetscInt);
CAKRYLOV_EXTERN PetscErrorCode KSPPIPEBCGSMGetReplacementPeriod(KSP, PetscInt *);
