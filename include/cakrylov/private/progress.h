/*
   Manual progression of an in-flight non-blocking reduction (Krasnopolsky, Appendix C; the README's "KSPRBICGSTAB and overlap
   progression"): many MPI libraries advance an MPI_Iallreduce only inside MPI calls. While a solver's reduction
   is in flight, the work this library controls (fused vector kernels, the chunked SpMV of AIJ matrices, Jacobi,
   PCSYNTHETIC) calls CAKrylovProgressPoll() at its chunk boundaries; every `every`-th poll is one MPI_Test on the
   request. MPI_Test changes no data: iterates are bitwise the same with and without progression.

   The region is dynamic in scope, by design: it names the reduction in flight while a piece of work runs, not a
   setting of any object. A PC application polls the region of the solver that applies it, which cannot pass it
   through PCApply(); a solver nested in that work (a bottom solve inside PCMG) polls the enclosing reduction too
   (that is the progression asked for, and its tests are counted there), and a nested solver's own region is saved
   and restored around it by Begin/End. The settings (progress type, tests per region) live in each solver's
   CAKrylovKSPProgress.
*/
#pragma once

#include <cakrylov.h>

/* One overlapped region: the reduction in flight and what was done for it */
typedef struct {
  MPI_Request *req;   /* the request (NULL: no region, polls do nothing) */
  PetscInt     every; /* MPI_Test at every every-th poll (0: the work is not known yet, at polls 1, 2, 4, 8, ...) */
  PetscInt     limit; /* at most this many MPI_Test calls in the region */
  PetscInt     polls; /* polls made in the region */
  PetscInt     tests; /* MPI_Test calls made in the region */
} CAKrylovProgressRegion;

/* Starts a region over *req aiming at about ntests (>= 1) MPI_Test calls, given that the same work polled expected_polls
   times before: every (expected_polls / ntests)-th poll, or, with expected_polls 0 (unknown), polls 1, 2, 4, 8, ...;
   never more than ntests + 1 tests, however long the work (timing cannot change the count's bound). The enclosing
   region, if any, is saved in *saved. */
PETSC_INTERN PetscErrorCode CAKrylovProgressBegin(MPI_Request *req, PetscInt ntests, PetscInt expected_polls, CAKrylovProgressRegion *saved);
/* Ends the region: its polls and tests; the enclosing region is restored from *saved */
PETSC_INTERN PetscErrorCode CAKrylovProgressEnd(const CAKrylovProgressRegion *saved, PetscInt *polls, PetscInt *tests);
/* A chunk boundary of overlapped work: maybe one MPI_Test (no-op outside a region or once the request completed) */
PETSC_INTERN PetscErrorCode CAKrylovProgressPoll(void);
