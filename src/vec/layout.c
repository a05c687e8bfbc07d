/*
   Vectors on a layout that exists: no communication where VecDuplicate() of a DM's vector would set one up; and the
   memory of the library's large blocks of vectors.
*/
#include <cakrylov/private/cakrylovimpl.h>
#if defined(PETSC_HAVE_SYS_MMAN_H) || defined(__linux__)
  #include <sys/mman.h>
#endif

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

/*
   CAKrylovVecCreateOnLayoutWithArray - a VECSEQ (one rank) or VECMPI vector on tmpl's layout (shared) over `array`, a
   column of the library's own storage that the vector never frees (NULL: no array until VecPlaceArray()), with no
   communication: VecCreateMPIWithArray() sets up a new layout, an MPI_Allgather on the whole communicator per vector,
   and cabicgstab wraps every basis vector (4 s + 5 per column at each new s: a block solve of 16 columns at s = 4 made
   368 of them in its first solve). The storage the type allocates is given back at once (VecReplaceArray() with no
   array), before the column is placed.
*/
PetscErrorCode CAKrylovVecCreateOnLayoutWithArray(Vec tmpl, PetscScalar *array, Vec *v)
{
  PetscLayout map;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCall(VecGetLayout(tmpl, &map));
  PetscCallMPI(MPI_Comm_size(map->comm, &size));
  PetscCall(VecCreate(map->comm, v));
  PetscCall(VecSetLayout(*v, map));
  PetscCall(VecSetType(*v, size == 1 ? VECSEQ : VECMPI));
  PetscCall(VecReplaceArray(*v, NULL));
  if (array) PetscCall(VecPlaceArray(*v, array));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define CAKRYLOV_HUGE_PAGE ((uintptr_t)1 << 21) /* 2 MiB: an x86-64 or arm64 transparent huge page */

/*
  CAKrylovAdviseHugePages - asks Linux for transparent huge pages on the whole 2 MiB pages inside [p, p + bytes), before
  their first touch (madvise(MADV_HUGEPAGE): Linux's default THP mode "madvise" gives them only to memory that asks)

  Not Collective

  Note:
  The block types' work blocks of 64 MiB and more (KSPBlockAllocate()) and the bases of cabicgstab ask for them. The
  bases of a cabicgstab solve are large (18 vectors at s = 4; 2.3 GB for 16 columns of 10^6 rows) and first written
  by its first solve, one page fault per 4 KiB page: in a virtual machine here 6-8 s of page clearing in the first block
  solve of the mrhs benchmark (its first timed solve 26-30 ms per RHS-iteration against 14 for the next). With huge
  pages one fault per 2 MiB. Nothing happens elsewhere, or where THP is off; the values, and so the iterates, are the
  same either way.
*/
void CAKrylovAdviseHugePages(void *p, size_t bytes)
{
#if defined(MADV_HUGEPAGE)
  const uintptr_t first = ((uintptr_t)p + CAKRYLOV_HUGE_PAGE - 1) & ~(CAKRYLOV_HUGE_PAGE - 1), end = ((uintptr_t)p + bytes) & ~(CAKRYLOV_HUGE_PAGE - 1);

  if (end > first) (void)madvise((void *)first, end - first, MADV_HUGEPAGE); /* advice: a refusal changes nothing */
#else
  (void)p;
  (void)bytes;
#endif
}
