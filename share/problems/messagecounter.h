/*
   An MPI profiling-interface counter of point-to-point receives (halo messages) for the test programs: it sees every
   MPI_Recv, MPI_Irecv and every start (MPI_Start, MPI_Startall) of a persistent receive made with MPI_Recv_init, issued
   by PETSc, the library and the program, while `counting_receives` is true; receives from MPI_PROC_NULL are not
   counted (share/bench/cakpmpi/cakpmpi.c counts the same way). Include it in exactly one source file of a program, after
   the PETSc headers. Not thread-safe.
*/
#pragma once

#include <petscsys.h>

static PetscBool    counting_receives = PETSC_FALSE;
static PetscInt     nreceives;
static MPI_Request *recvinits; /* the persistent receives alive (MPI_Recv_init until MPI_Request_free) */
static int          nrecvinits, maxrecvinits;

static int IsPersistentReceive(MPI_Request r)
{
  for (int i = 0; i < nrecvinits; i++)
    if (recvinits[i] == r) return 1;
  return 0;
}

#undef MPI_Recv /* PETSc's logging macros: this file defines the functions themselves */
#undef MPI_Irecv
#undef MPI_Recv_init
#undef MPI_Start
#undef MPI_Startall
#undef MPI_Request_free
int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
  if (counting_receives && source != MPI_PROC_NULL) nreceives++;
  return PMPI_Recv(buf, count, datatype, source, tag, comm, status);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
  if (counting_receives && source != MPI_PROC_NULL) nreceives++;
  return PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
  int rc = PMPI_Recv_init(buf, count, datatype, source, tag, comm, request);

  if (rc == MPI_SUCCESS && source != MPI_PROC_NULL) {
    if (nrecvinits == maxrecvinits) {
      MPI_Request *more = (MPI_Request *)realloc(recvinits, sizeof(MPI_Request) * (maxrecvinits = 2 * maxrecvinits + 16));

      if (!more) PMPI_Abort(MPI_COMM_WORLD, 2);
      recvinits = more;
    }
    recvinits[nrecvinits++] = *request;
  }
  return rc;
}

int MPI_Request_free(MPI_Request *request)
{
  for (int i = 0; i < nrecvinits; i++)
    if (recvinits[i] == *request) {
      recvinits[i] = recvinits[--nrecvinits];
      break;
    }
  if (!nrecvinits) { /* nothing alive: nothing left for valgrind or -malloc_dump's neighbours to see */
    free(recvinits);
    recvinits    = NULL;
    maxrecvinits = 0;
  }
  return PMPI_Request_free(request);
}

int MPI_Start(MPI_Request *request)
{
  if (counting_receives && IsPersistentReceive(*request)) nreceives++;
  return PMPI_Start(request);
}

int MPI_Startall(int count, MPI_Request requests[])
{
  if (counting_receives)
    for (int i = 0; i < count; i++)
      if (IsPersistentReceive(requests[i])) nreceives++;
  return PMPI_Startall(count, requests);
}
