/*
   Global sums of the local dots of a fused group: one MPI_Iallreduce on a packed buffer, started before
   the work that hides it (preconditioner, SpMV) and finished after. On one rank nothing is sent.
*/
#include <cakrylov/private/cakrylovimpl.h>

PetscLogDouble CAKrylovIallreduceCount = 0;

/* Starts buf[0..n) <- sum over the ranks of comm of buf[0..n), in place */
PetscErrorCode CAKrylovReductionBegin(MPI_Comm comm, PetscInt n, PetscScalar buf[], MPI_Request *req)
{
  PetscMPIInt size, count;

  PetscFunctionBegin;
  *req = MPI_REQUEST_NULL;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMPIIntCast(n, &count));
  PetscCallMPI(MPI_Iallreduce(MPI_IN_PLACE, buf, count, MPIU_SCALAR, MPIU_SUM, comm, req));
  CAKrylovIallreduceCount++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Waits for the sums started by CAKrylovReductionBegin(); the wait is logged as event CAKReductionEnd */
PetscErrorCode CAKrylovReductionEnd(MPI_Request *req)
{
  PetscFunctionBegin;
  if (*req == MPI_REQUEST_NULL) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(CAKRYLOV_ReductionEnd, 0, 0, 0, 0));
  PetscCallMPI(MPI_Wait(req, MPI_STATUS_IGNORE));
  PetscCall(PetscLogEventEnd(CAKRYLOV_ReductionEnd, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* buf[0..n) <- sum over the ranks of comm of buf[0..n), in place, blocking (one MPI_Allreduce) */
PetscErrorCode CAKrylovReduction(MPI_Comm comm, PetscInt n, PetscScalar buf[])
{
  PetscMPIInt size, count;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMPIIntCast(n, &count));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, buf, count, MPIU_SCALAR, MPIU_SUM, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}
