/*
   The library's dense views: n x c MATDENSE matrices over its own column-major storage (a basis block, the columns of
   a block solve), on which PETSc's MatProduct applies the operator to many columns at once.
*/
#include <cakrylov/private/cakrylovimpl.h>

/*
   CAKrylovMatCreateDense - an n x ncols MATDENSE on the row layout `rows` (a vector's or the operator's), over `array`
   with leading dimension lda (array NULL: its own storage, lda ignored), with no communication: MatCreateDense() sets
   up new layouts, one MPI_Allgather each and one MPI_Allreduce for a PETSC_DETERMINE size, where this shares `rows` and
   builds the columns' layout from ranges computed here, split as PetscSplitOwnership() splits ncols (so the matrix
   matches those PETSc creates). A solver that creates its views when s or the number of live columns changes would
   otherwise pay a global reduction in the middle of a solve.
*/
PetscErrorCode CAKrylovMatCreateDense(PetscLayout rows, PetscInt ncols, PetscScalar *array, PetscInt lda, Mat *M)
{
  PetscMPIInt size;
  PetscInt   *range;
  PetscLayout cols;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(rows->comm, &size));
  PetscCall(PetscMalloc1(size + 1, &range));
  range[0] = 0;
  for (PetscMPIInt r = 0; r < size; r++) range[r + 1] = range[r] + ncols / size + ((ncols % size) > r); /* PetscSplitOwnership()'s local n of rank r */
  PetscCall(PetscLayoutCreateFromRanges(rows->comm, range, PETSC_OWN_POINTER, 1, &cols));
  PetscCall(MatCreate(rows->comm, M));
  PetscCall(MatSetLayouts(*M, rows, cols));
  PetscCall(PetscLayoutDestroy(&cols));
  PetscCall(MatSetType(*M, MATDENSE));
  PetscCall(MatSeqDenseSetPreallocation(*M, array));
  PetscCall(MatMPIDenseSetPreallocation(*M, array));
  if (array && lda > 0) PetscCall(MatDenseSetLDA(*M, lda));
  PetscFunctionReturn(PETSC_SUCCESS);
}
