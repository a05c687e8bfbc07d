/*
   The one place where PETSc version differences are handled (3.18 .. newest).
   PETSC_VERSION_LT() is false on a development PETSc, so "older" branches come first.
*/
#pragma once

#include <petscsys.h>

/* PETSC_SUCCESS appeared in 3.19 */
#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS ((PetscErrorCode)0)
#endif

/* PetscValidPointer() became PetscAssertPointer() in 3.20 */
#if PETSC_VERSION_LT(3, 20, 0)
  #define PetscAssertPointer(h, arg) PetscValidPointer(h, arg)
#endif

/* KSPSetFromOptions_X() takes PetscOptionItems * before 3.23, PetscOptionItems from 3.23 on */
#if PETSC_VERSION_LT(3, 23, 0)
typedef PetscOptionItems *CAKrylovOptionItems;
#else
typedef PetscOptionItems CAKrylovOptionItems;
#endif

/* A PetscContainer whose pointer is freed with PetscFree() when it is destroyed (the API was renamed in 3.22) */
#if PETSC_VERSION_LT(3, 22, 0)
  #define CAKrylovContainerSetFree(c) PetscContainerSetUserDestroy((c), PetscContainerUserDestroyDefault)
#else
  #define CAKrylovContainerSetFree(c) PetscContainerSetCtxDestroy((c), PetscCtxDestroyDefault)
#endif
