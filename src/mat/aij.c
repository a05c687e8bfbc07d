/*
   What the library reads of its users' matrices, shared by its components: the Gershgorin radius of the
   Jacobi-preconditioned operator (the bottom policy's interval, PCCHEBYJACOBI's default interval) and the halo scatter
   of a MATMPIAIJ (the library's own SpMVs: overlap progression, PCCHEBYJACOBI's fused pass).
*/
#include <cakrylov/private/cakrylovimpl.h>

/* max_i R_i over the local rows of a matrix whose rows can be read (MatGetRow()); PETSC_MAX_REAL for a zero diagonal entry */
static PetscErrorCode CAKrylovMatGershgorinLocal(Mat A, PetscReal *local)
{
  PetscInt rstart, rend;

  PetscFunctionBegin;
  *local = 0.0;
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (PetscInt row = rstart; row < rend && *local < PETSC_MAX_REAL; row++) {
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscInt           ncols;
    PetscReal          diag = 0.0, off = 0.0;

    PetscCall(MatGetRow(A, row, &ncols, &cols, &vals));
    for (PetscInt j = 0; j < ncols; j++) {
      if (cols[j] == row) diag = PetscAbsScalar(vals[j]);
      else off += PetscAbsScalar(vals[j]);
    }
    PetscCall(MatRestoreRow(A, row, &ncols, &cols, &vals));
    *local = diag > 0.0 ? PetscMax(*local, off / diag) : PETSC_MAX_REAL;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Gershgorin's theorem for the Jacobi-preconditioned operator D^{-1} A (and A D^{-1}, which has the same eigenvalues):
   its eigenvalues lie in the union of the discs centred at 1 with radii R_i = sum_{j != i} |a_ij| / |a_ii|. One pass over
   the local rows and one maximum over the ranks (collective) give R = max_i R_i; PETSC_MAX_REAL for a zero diagonal
   entry or a matrix type whose rows cannot be read. MATSELL (-dm_mat_type sell) gives no rows: it is read from a copy
   converted to MATAIJ (the same entries). Other types without rows (MATSHELL) are not converted: that would cost one
   operator application per column.
*/
PetscErrorCode CAKrylovMatGershgorinRadius(Mat A, PetscReal *R)
{
  PetscReal local;
  PetscBool hasrow, issell;

  PetscFunctionBegin;
  PetscCall(MatHasOperation(A, MATOP_GET_ROW, &hasrow));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &issell, MATSEQSELL, MATMPISELL, ""));
  if (hasrow) PetscCall(CAKrylovMatGershgorinLocal(A, &local));
  else if (issell) {
    Mat aij;

    PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &aij));
    PetscCall(CAKrylovMatGershgorinLocal(aij, &local));
    PetscCall(MatDestroy(&aij));
  } else local = PETSC_MAX_REAL;
  PetscCall(MPIU_Allreduce(&local, R, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)A)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The halo of a MATMPIAIJ A: the scatter of the entries of x (a vector of A's column layout) that A's off-diagonal
   block reads (its garray) into a sequential vector ghost, in the order of that block's columns; as MatMult_MPIAIJ()
   gathers them
*/
PetscErrorCode CAKrylovMatHaloCreate(Mat A, Vec x, VecScatter *halo, Vec *ghost)
{
  Mat             Ao;
  const PetscInt *garray;
  PetscInt        nghost;
  IS              from;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, NULL, &Ao, &garray));
  PetscCall(MatGetSize(Ao, NULL, &nghost));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, nghost, ghost));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, nghost, garray, PETSC_USE_POINTER, &from));
  PetscCall(VecScatterCreate(x, from, *ghost, NULL, halo));
  PetscCall(ISDestroy(&from));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  CAKrylovMatBand - the band of a MATSEQAIJ: lo = max_i (i - first column of row i), hi = max_i (last column - i), 0 at
  least; *seqaij PETSC_FALSE (and nothing else) for another type

  Not Collective
*/
PetscErrorCode CAKrylovMatBand(Mat A, PetscInt *lo, PetscInt *hi, PetscBool *seqaij)
{
  const PetscInt *ia, *ja;
  PetscInt        n;
  PetscBool       rows;

  PetscFunctionBegin;
  *lo = *hi = 0;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJ, seqaij));
  if (!*seqaij) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &rows));
  *seqaij = rows;
  for (PetscInt i = 0; rows && i < n; i++) /* a MATSEQAIJ row's columns are sorted */
    if (ia[i + 1] > ia[i]) {
      *lo = PetscMax(*lo, i - ja[ia[i]]);
      *hi = PetscMax(*hi, ja[ia[i + 1] - 1] - i);
    }
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &rows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define CAKRYLOV_COLUMNS_BLOCK      64        /* rows of Y per step */
#define CAKRYLOV_COLUMNS_WINDOW_MAX (1 << 24) /* bytes of the window at most: 16 MiB */

/*
   CAKrylovMatMultColumns - Y(:, j) = scale[j] A X(:, j) for the c columns of column-major blocks X, Y (leading dimensions
   ldx, ldy) and a MATSEQAIJ A of band (lo, hi) (CAKrylovMatBand()), in one pass over A, X and Y (scale NULL: Y = A X)

   Not Collective

   Notes:
   PETSc's AIJ x dense product reads A once per 4 columns and gathers each entry of x from 4 column streams, compute-bound
   on the gathers (about 30 % of the STREAM triad for 16 columns of a 5-point operator). Here the rows of X that A's rows
   read are turned into the interleaved layout (row i's c entries side by side) in a window: a ring of 2^b >= lo + hi +
   64 + 8 rows, loaded 8 rows ahead of need, so it holds rows i - lo .. i + hi of the 64 rows of Y in progress; those
   rows are the library's interleaved SpMV of all c columns (CAKrylovMatMultInterleavedRing(): one vector load per entry
   of A per 8 columns), turned back into Y's columns. Each entry of Y is the sum over its row of A in A's order, as
   MatMult() forms it, times scale[j] as it is stored: the bits of MatMult() and then VecScale(). A Y of more than 16 MiB
   is written with streaming stores where its columns' pieces of 8 rows start on a cache line (ldy a multiple of 8, Y
   aligned to 64 bytes): the next product reads it from memory anyway, and a streaming store moves each byte once where a
   normal store first reads the line it writes (standalone 25-27 ms against 33 for 16 columns of a 5-point operator on
   10^6 rows). *done is PETSC_FALSE, and nothing is done, where the window would exceed 16 MiB (a matrix of wide band: a
   3D grid of more than about 256^2 points per plane at c = 16).
*/
PetscErrorCode CAKrylovMatMultColumns(Mat A, PetscInt lo, PetscInt hi, PetscInt c, const PetscScalar *X, PetscInt ldx, const PetscScalar scale[], PetscScalar *Y, PetscInt ldy, PetscBool *done)
{
  const PetscInt    *ia, *ja;
  const PetscScalar *a;
  PetscScalar       *buf, *T, *Yb;
  PetscInt           n, W = 8, t = 0;
  PetscBool          rows, stream;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  while (W < lo + hi + CAKRYLOV_COLUMNS_BLOCK + 8) W *= 2;
  if ((size_t)W * (size_t)c * sizeof(PetscScalar) > CAKRYLOV_COLUMNS_WINDOW_MAX) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &rows));
  if (!rows) PetscFunctionReturn(PETSC_SUCCESS);
  stream = (size_t)n * (size_t)c * sizeof(PetscScalar) > CAKRYLOV_STREAM_MIN ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscLogEventBegin(CAKRYLOV_MatMultColumns, A, 0, 0, 0));
  PetscCall(MatSeqAIJGetArrayRead(A, &a));
  PetscCall(PetscMalloc1((size_t)(W + CAKRYLOV_COLUMNS_BLOCK) * c + 16, &buf));
  T  = CAKrylovAlign64(buf); /* a window row of 8 w columns spans w cache lines, not w + 1: the window's address, and so its speed, no longer depends on the heap's state */
  Yb = CAKrylovAlign64(T + (size_t)W * c);
  for (PetscInt r0 = 0; r0 < n; r0 += CAKRYLOV_COLUMNS_BLOCK) {
    const PetscInt r1 = PetscMin(n, r0 + CAKRYLOV_COLUMNS_BLOCK), need = PetscMin(n, r1 + hi);

    for (; t < need; t += 8) CAKrylovTranspose(c, PetscMin(8, n - t), NULL, X + t, ldx, T + (size_t)(t & (W - 1)) * c, c, PETSC_FALSE); /* rows t .. t + 7 of X into the window (8 | W: no wrap inside) */
    CAKrylovMatMultInterleavedRing(r1 - r0, c, ia + r0, ja, a, T, W - 1, Yb, PETSC_FALSE, PETSC_FALSE);                                 /* (A X)(r0 .. r1 - 1, :), interleaved */
    CAKrylovTranspose(r1 - r0, c, scale, Yb, c, Y + r0, ldy, stream);
  }
  PetscCall(PetscFree(buf));
  PetscCall(PetscLogFlops(2.0 * c * ia[n]));
  PetscCall(PetscLogEventEnd(CAKRYLOV_MatMultColumns, A, 0, 0, 0));
  PetscCall(MatSeqAIJRestoreArrayRead(A, &a));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &rows));
  *done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
