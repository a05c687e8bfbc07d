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

/* The most distinct vectors one group may touch, the most updates and dots of one group */
#define CAKRYLOV_VEC_FUSED_MAX   16
#define CAKRYLOV_VEC_MAX_UPDATES 8
#define CAKRYLOV_VEC_MAX_DOTS    8

/* Updates u[0..nu-1] in this order, then the local dots dot[i] = (dx[i], dy[i]) = dy[i]^H dx[i] on the updated
   vectors, in one pass (VECSEQ/VECMPI) or through PETSc's Vec operations (any other type). */
PETSC_INTERN PetscErrorCode CAKrylovVecFused(PetscBool fallback, PetscInt nu, const CAKrylovVecUpdate u[], PetscInt nd, const Vec dx[], const Vec dy[], PetscScalar dot[]);

/* One update of a pass over an interleaved block of m columns (entry (i, j) at i m + j, the m values of a row side by
   side): y <- a[0] x[0] + a[1] x[1] + a[2] x[2] + b y in column j with the coefficients a[k][j], b[j] of that column;
   nx inputs; b == NULL means the old y is not read. */
typedef struct {
  PetscScalar       *y;
  const PetscScalar *x[3];
  const PetscScalar *a[3];
  const PetscScalar *b;
  PetscInt           nx;
} CAKrylovVecBlockUpdate;

/* The rows CAKrylovVecFusedInterleaved() updates at a time with all m columns: a multiple of 4 with at least 64 entries
   (at most 64 + 4 m), and the scalars of work it needs */
static inline PetscInt CAKrylovVecInterleavedRows(PetscInt m)
{
  return 4 * ((16 + m - 1) / m);
}
#define CAKRYLOV_VEC_INTERLEAVED_WORK(m) (4 * CAKRYLOV_VEC_MAX_DOTS * (m) + 4 * CAKRYLOV_VEC_MAX_UPDATES * (64 + 4 * (m)))

/* CAKrylovVecFused() on nrows rows of interleaved blocks of m columns, for the np columns pos[] (NULL: all m, np = m):
   the updates u[], then the local dots dot[d m + j] = (dx[d], dy[d]) of column j; per column entry for entry the
   arithmetic of CAKrylovVecFused() on that column alone, dots summed in the same order. work: CAKRYLOV_VEC_INTERLEAVED_WORK(m) scalars. */
PETSC_INTERN PetscErrorCode CAKrylovVecFusedInterleaved(PetscInt nrows, PetscInt m, PetscInt np, const PetscInt pos[], PetscInt nu, const CAKrylovVecBlockUpdate u[], PetscInt nd, const PetscScalar *const dx[], const PetscScalar *const dy[], PetscScalar work[], PetscScalar dot[]);

/* y = A x (add: y += A x, the row's sum added to y) on nrows rows of interleaved blocks of m columns, A in CSR (ai, aj,
   aa): per column the arithmetic of MatMult() (MatMultAdd()) of MatCreateMAIJ(A, m), vectorised across the columns */
PETSC_INTERN void CAKrylovMatMultInterleaved(PetscInt nrows, PetscInt m, const PetscInt ai[], const PetscInt aj[], const PetscScalar aa[], const PetscScalar x[], PetscScalar y[], PetscBool add);
/* ... with x a ring of mask + 1 rows (mask = 2^b - 1): A's column col read at row col & mask of x */
PETSC_INTERN void CAKrylovMatMultInterleavedRing(PetscInt nrows, PetscInt m, const PetscInt ai[], const PetscInt aj[], const PetscScalar aa[], const PetscScalar x[], PetscInt mask, PetscScalar y[], PetscBool add, PetscBool stream);
#define CAKRYLOV_STREAM_MIN ((size_t)1 << 24) /* bytes of a kernel's result from which no cache keeps it until it is read (16 MiB): streaming stores */

/* S = V^T V (k x k, column-major) of the k local columns of V (n rows, lda ld), in one pass over V; the same bits with
   AVX-512F and AVX2 (the SSE2 baseline rounds each product). work: CAKrylovGramWorkSize(k) scalars */
PETSC_INTERN PetscInt       CAKrylovGramWorkSize(PetscInt k);
PETSC_INTERN PetscErrorCode CAKrylovGram(PetscInt n, PetscInt k, const PetscScalar V[], PetscInt ld, PetscScalar work[], PetscScalar S[]);

/* dst[b ldd + a] = src[a lds + b] for a < na, b < nb: column-major blocks to the interleaved layout and back */
PETSC_INTERN void CAKrylovTranspose(PetscInt na, PetscInt nb, const PetscScalar scale[], const PetscScalar src[], PetscInt lds, PetscScalar dst[], PetscInt ldd, PetscBool stream);

/* Global sums of n scalars in place: blocking */
PETSC_INTERN PetscErrorCode CAKrylovReduction(MPI_Comm, PetscInt n, PetscScalar buf[]);
/* Global sums of n scalars: started here, finished by CAKrylovReductionEnd() (no MPI at all on one rank) */
PETSC_INTERN PetscErrorCode CAKrylovReductionBegin(MPI_Comm, PetscInt n, PetscScalar buf[], MPI_Request *);
PETSC_INTERN PetscErrorCode CAKrylovReductionEnd(MPI_Request *);

/* -[prefix]cakrylov_vec_fallback of obj (for testing): its kernels take the portable path. Each solver reads it at the
   start of every solve, keeps it, and passes it to every CAKrylovVecFused() call. */
PETSC_INTERN PetscErrorCode CAKrylovVecFusedGetFallback(PetscObject obj, PetscBool *fallback);
