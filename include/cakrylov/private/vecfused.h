/*
   Fused vector kernels (src/vec/): one pass over memory for a group of AXPY-type updates and the
   dot products computed on the vectors they touch (Krasnopolsky's "merged" listings, one listing line
   per call). Dots are local: the caller reduces them, in one (possibly non-blocking) reduction per group.
*/
#pragma once

#include <petscvec.h>

/* y <- a[0] x[0] + a[1] x[1] + a[2] x[2] + b y, with 1..3 inputs (unused x[] are NULL).
   b == 0 means the old y is not read (it may hold garbage). y must not be one of its own inputs. */
typedef struct {
  Vec         y;
  PetscScalar b;
  PetscScalar a[3];
  Vec         x[3];
} CAKrylovVecUpdate;

/* The most distinct vectors one group may touch */
#define CAKRYLOV_VEC_FUSED_MAX 16

/* Updates u[0..nu-1] in this order, then the local dots dot[i] = (dx[i], dy[i]) = dy[i]^H dx[i] on the updated
   vectors, in one pass (VECSEQ/VECMPI) or through PETSc's Vec operations (any other type). */
PETSC_INTERN PetscErrorCode CAKrylovVecFused(PetscInt nu, const CAKrylovVecUpdate u[], PetscInt nd, const Vec dx[], const Vec dy[], PetscScalar dot[]);

/* Global sums of n scalars in place: blocking */
PETSC_INTERN PetscErrorCode CAKrylovReduction(MPI_Comm, PetscInt n, PetscScalar buf[]);
/* Global sums of n scalars: started here, finished by CAKrylovReductionEnd() (no MPI at all on one rank) */
PETSC_INTERN PetscErrorCode CAKrylovReductionBegin(MPI_Comm, PetscInt n, PetscScalar buf[], MPI_Request *);
PETSC_INTERN PetscErrorCode CAKrylovReductionEnd(MPI_Request *);

/* -cakrylov_vec_fallback (for testing): every kernel takes the portable path. Read from the options of obj
   by CAKrylovVecFusedSetFromOptions(), which each solver calls at the start of every solve. */
PETSC_INTERN PetscBool      CAKrylovVecFusedForceFallback;
PETSC_INTERN PetscErrorCode CAKrylovVecFusedSetFromOptions(PetscObject obj);
