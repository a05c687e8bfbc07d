/* Private declarations shared by the components of the library. */
#pragma once

#include <cakrylov.h>
#include <cakrylov/private/compat.h>

/* Log events of the library's own kernels (registered in CAKrylovInitializePackage()). */
PETSC_INTERN PetscLogEvent CAKRYLOV_CABasis, CAKRYLOV_CAGram, CAKRYLOV_CARebuild;

PETSC_INTERN PetscErrorCode KSPCreate_CABiCGStab(KSP);
