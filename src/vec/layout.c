/*
   Vectors on a layout that exists: no communication where VecDuplicate() of a DM's vector would set one up.
*/
#include <cakrylov/private/cakrylovimpl.h>

/*
   CAKrylovVecCreateOnLayout - a vector of tmpl's type on tmpl's layout (shared, not copied), without tmpl's DM. With
   PETSc 3.18, VecDuplicate() of a DMDA's vector creates a new vector of the DM, whose layout is set up anew with a
   global reduction, and so does every VecDuplicate() of that one: a KSPGMRES run on it (cabicgstab's spectrum
   estimate) paid one per Krylov vector. Duplicates of the vector made here share its layout without communication.
*/
PetscErrorCode CAKrylovVecCreateOnLayout(Vec tmpl, Vec *v)
{
  PetscLayout map;
  VecType     type;

  PetscFunctionBegin;
  PetscCall(VecGetLayout(tmpl, &map));
  PetscCall(VecGetType(tmpl, &type));
  PetscCall(VecCreate(PetscObjectComm((PetscObject)tmpl), v));
  PetscCall(VecSetLayout(*v, map));
  PetscCall(VecSetType(*v, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}
