/*
   An MPI profiling-interface counter of global reductions for the test and benchmark programs (communicators of more than one
   rank): it sees every MPI_Allreduce/MPI_Iallreduce issued by PETSc, the library and the program, while
   `counting` is true, and every MPI_Allgather. Include it in exactly one source file of a program, after the PETSc headers.
   A test can also make the last rank come late_iallreduce_ms late to every MPI_Iallreduce (a loaded node): the other
   ranks' non-blocking reductions then stay in flight through the whole work that hides them, on any machine; and
   late_allreduce_ms late to every MPI_Allreduce: every blocking reduction then takes at least that long.
*/
#pragma once

#include <petscsys.h>

static PetscBool counting = PETSC_FALSE;
static PetscInt  nreductions, nnonblocking;
static PetscInt  nwide;       /* ... of more than 16 entries (a Gram matrix's, not a few dot products') */
static PetscInt  nallgathers; /* MPI_Allgather: PetscLayoutSetUp() issues one per new layout (a new vector's, a matrix's) */
static PetscReal late_iallreduce_ms = 0.0, late_allreduce_ms = 0.0;

static void CountReduction(MPI_Comm comm, PetscBool nonblocking, int count)
{
  int size;

  PMPI_Comm_size(comm, &size);
  if (counting && size > 1) {
    nreductions++;
    if (nonblocking) nnonblocking++;
    if (count > 16) nwide++;
  }
}

#undef MPI_Allreduce /* PETSc's logging macro: this file defines the function itself */
#undef MPI_Iallreduce
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
  int rank, size;

  CountReduction(comm, PETSC_FALSE, count);
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  if (late_allreduce_ms > 0.0 && rank == size - 1) (void)PetscSleep(late_allreduce_ms / 1000.0);
  return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
  int rank, size;

  CountReduction(comm, PETSC_TRUE, count);
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  if (late_iallreduce_ms > 0.0 && rank == size - 1) (void)PetscSleep(late_iallreduce_ms / 1000.0);
  return PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
}

#undef MPI_Allgather
int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  int size;

  PMPI_Comm_size(comm, &size);
  if (counting && size > 1) nallgathers++;
  return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
