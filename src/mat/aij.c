/*
   What the library reads of its users' matrices, shared by its components: the Gershgorin radius of the
   Jacobi-preconditioned operator (the bottom policy's interval, PCCHEBYJACOBI's default interval), the halo scatter
   of a MATMPIAIJ (the library's own SpMVs: overlap progression, PCCHEBYJACOBI's fused pass) and the one-pass product of
   an AIJ matrix with a block of columns (KSPMatSolve() of KSPCABICGSTAB).
*/
#include <cakrylov/private/cakrylovimpl.h>
#include <petscsf.h>

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

/* The band of a MATSEQAIJ: lo = max_i (i - first column of row i), hi = max_i (last column - i), 0 at least; *rows
   PETSC_FALSE where its rows cannot be read */
static PetscErrorCode CAKrylovMatBand(Mat A, PetscInt *lo, PetscInt *hi, PetscBool *rows)
{
  const PetscInt *ia, *ja;
  PetscInt        n;

  PetscFunctionBegin;
  *lo = *hi = 0;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, rows));
  for (PetscInt i = 0; *rows && i < n; i++) /* a MATSEQAIJ row's columns are sorted */
    if (ia[i + 1] > ia[i]) {
      *lo = PetscMax(*lo, i - ja[ia[i]]);
      *hi = PetscMax(*hi, ja[ia[i + 1] - 1] - i);
    }
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, rows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define CAKRYLOV_COLUMNS_BLOCK 64 /* rows of Y per step */

/* The window of the one-pass product: a ring of W = 2^b >= lo + hi + 64 + 8 rows */
static PetscInt CAKrylovColumnsWindow(PetscInt lo, PetscInt hi)
{
  PetscInt W = 8;

  while (W < lo + hi + CAKRYLOV_COLUMNS_BLOCK + 8) W *= 2;
  return W;
}

struct _n_CAKrylovMatColumns {
  PetscInt mmax;   /* the most columns of one product */
  size_t   wmax;   /* the most bytes of the window */
  PetscInt lo, hi; /* the band of the local (diagonal) block */
  /* MATMPIAIJ: the halo, the other ranks' rows that the off-diagonal block reads (garray order), one message per
     neighbour each way whose unit is a row of all c columns, interleaved */
  PetscBool    halo;
  MPI_Comm     comm; /* PETSc's inner communicator of A, and a tag of its own */
  PetscMPIInt  tag;
  PetscMPIInt  nfrom, nto;                /* the neighbours whose rows this rank reads, those that read its rows */
  PetscMPIInt *from, *to;                 /* ... their ranks */
  PetscInt    *fromoff, *tooff;           /* ... their rows' offsets in the receive and send buffers (nfrom + 1, nto + 1) */
  PetscInt    *ghostof, *sendrow;         /* a received row's ghost index (garray order); a sent row's local row */
  PetscScalar *sendbuf, *recvbuf, *ghost; /* rows x mmax each, interleaved */
  MPI_Request *req;                       /* nfrom receives, then nto sends */
};

/*
   The halo of the one-pass product of a MATMPIAIJ, read from the SF of garray (roots: the local rows of A's column
   layout, leaves: the off-diagonal block's columns): whose rows this rank receives, in which order (PetscSFGetRootRanks()),
   and which of its rows it sends to whom (PetscSFGetLeafRanks()). An exchange is then one MPI_Irecv and one MPI_Isend
   per neighbour of c interleaved columns per row, without the SF's per-exchange set-up of a derived unit (a third of
   the product's time on a 5^3 bottom grid of 16 columns). Collective (the SF's set-up: one global reduction), and so
   made before a solve, never in one.
*/
static PetscErrorCode CAKrylovMatColumnsHaloCreate(Mat A, CAKrylovMatColumns plan)
{
  Mat                Ao;
  const PetscInt    *garray, *roffset, *rmine, *ioffset, *irootloc;
  const PetscMPIInt *ranks, *iranks;
  PetscInt           nghost;
  PetscMPIInt        nranks, niranks;
  PetscLayout        cmap;
  PetscSF            sf;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, NULL, &Ao, &garray));
  PetscCall(MatGetSize(Ao, NULL, &nghost));
  PetscCall(MatGetLayouts(A, NULL, &cmap));
  PetscCall(PetscSFCreate(PetscObjectComm((PetscObject)A), &sf));
  PetscCall(PetscSFSetGraphLayout(sf, cmap, nghost, NULL, PETSC_COPY_VALUES, garray));
  PetscCall(PetscSFSetUp(sf));
  PetscCall(PetscSFGetRootRanks(sf, &nranks, &ranks, &roffset, &rmine, NULL));
  PetscCall(PetscSFGetLeafRanks(sf, &niranks, &iranks, &ioffset, &irootloc));
  plan->halo  = PETSC_TRUE;
  plan->nfrom = nranks;
  plan->nto   = niranks;
  PetscCall(PetscMalloc4(nranks, &plan->from, nranks + 1, &plan->fromoff, roffset[nranks], &plan->ghostof, nranks + niranks, &plan->req));
  PetscCall(PetscMalloc3(niranks, &plan->to, niranks + 1, &plan->tooff, ioffset[niranks], &plan->sendrow));
  PetscCall(PetscArraycpy(plan->from, ranks, nranks));
  PetscCall(PetscArraycpy(plan->fromoff, roffset, nranks + 1));
  PetscCall(PetscArraycpy(plan->ghostof, rmine, roffset[nranks]));
  PetscCall(PetscArraycpy(plan->to, iranks, niranks));
  PetscCall(PetscArraycpy(plan->tooff, ioffset, niranks + 1));
  PetscCall(PetscArraycpy(plan->sendrow, irootloc, ioffset[niranks]));
  PetscCall(PetscMalloc3((size_t)ioffset[niranks] * plan->mmax, &plan->sendbuf, (size_t)roffset[nranks] * plan->mmax, &plan->recvbuf, (size_t)nghost * plan->mmax, &plan->ghost));
  PetscCall(PetscSFDestroy(&sf));
  PetscCall(PetscCommDuplicate(PetscObjectComm((PetscObject)A), &plan->comm, &plan->tag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  CAKrylovMatColumnsCreate - the plan of the one-pass product of A with up to mmax columns and a window of at most
  wmax bytes (CAKrylovMatMultColumns()): the band of A (MATSEQAIJ) or of its diagonal block (MATMPIAIJ, and its halo); *plan NULL where A is of another type
  or its row and column layouts differ (the same answer on every rank)

  Collective on A for MATMPIAIJ (the halo's set-up)
*/
PetscErrorCode CAKrylovMatColumnsCreate(Mat A, PetscInt mmax, size_t wmax, CAKrylovMatColumns *plan)
{
  Mat         Ad = A;
  PetscLayout rmap, cmap;
  PetscBool   mpi, seq, same, rows;

  PetscFunctionBegin;
  *plan = NULL;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATMPIAIJ, &mpi));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJ, &seq));
  PetscCall(MatGetLayouts(A, &rmap, &cmap));
  PetscCall(PetscLayoutCompare(rmap, cmap, &same)); /* the window holds rows of X by A's local column */
  if (!(mpi || seq) || !same) PetscFunctionReturn(PETSC_SUCCESS);
  if (mpi) PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, NULL, NULL));
  PetscCall(PetscNew(plan));
  (*plan)->mmax = mmax;
  (*plan)->wmax = wmax;
  PetscCall(CAKrylovMatBand(Ad, &(*plan)->lo, &(*plan)->hi, &rows));
  if (mpi) PetscCall(CAKrylovMatColumnsHaloCreate(A, *plan));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CAKrylovMatColumnsDestroy(CAKrylovMatColumns *plan)
{
  PetscFunctionBegin;
  if (!*plan) PetscFunctionReturn(PETSC_SUCCESS);
  if ((*plan)->halo) {
    PetscCall(PetscFree4((*plan)->from, (*plan)->fromoff, (*plan)->ghostof, (*plan)->req));
    PetscCall(PetscFree3((*plan)->to, (*plan)->tooff, (*plan)->sendrow));
    PetscCall(PetscFree3((*plan)->sendbuf, (*plan)->recvbuf, (*plan)->ghost));
    PetscCall(PetscCommDestroy(&(*plan)->comm));
  }
  PetscCall(PetscFree(*plan));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Column j of a block of c columns in groups of cgrp (CAKrylovMatMultColumns()): at (j / cgrp) ldg + (j % cgrp) ld */
static inline size_t CAKrylovColumnOffset(PetscInt j, PetscInt cgrp, size_t ldg, PetscInt ld)
{
  return (size_t)(j / cgrp) * ldg + (size_t)(j % cgrp) * (size_t)ld;
}

/* The columns from j before end that lie in j's group: a piece of constant leading dimension */
static inline PetscInt CAKrylovColumnPiece(PetscInt j, PetscInt end, PetscInt cgrp)
{
  return PetscMin(end, (j / cgrp + 1) * cgrp) - j;
}

/* The halo's exchange of c <= mmax columns of diag(din) X (in groups of cgrp at distance ldg, lda ldx; din NULL: X)
   started: the rows each neighbour reads, interleaved, one message per neighbour for all columns (a MATMPIAIJ's plan;
   also PCCHEBYJACOBI's steps on blocks) */
PetscErrorCode CAKrylovMatColumnsHaloBegin(CAKrylovMatColumns plan, PetscInt c, PetscInt cgrp, size_t ldg, const PetscScalar *X, PetscInt ldx, const PetscScalar din[])
{
  PetscMPIInt n;

  PetscFunctionBegin;
  PetscCheck(c <= plan->mmax, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%" PetscInt_FMT " columns exceed the plan's %" PetscInt_FMT, c, plan->mmax);
  for (PetscMPIInt i = 0; i < plan->nfrom; i++) {
    PetscCall(PetscMPIIntCast((plan->fromoff[i + 1] - plan->fromoff[i]) * c, &n));
    PetscCallMPI(MPI_Irecv(plan->recvbuf + plan->fromoff[i] * c, n, MPIU_SCALAR, plan->from[i], plan->tag, plan->comm, &plan->req[i]));
  }
  for (PetscInt j = 0; j < c; j++) {
    const PetscScalar *x = X + CAKrylovColumnOffset(j, cgrp, ldg, ldx);

    for (PetscInt k = 0; k < plan->tooff[plan->nto]; k++) {
      const PetscInt r = plan->sendrow[k];

      plan->sendbuf[k * c + j] = din ? din[r] * x[r] : x[r];
    }
  }
  for (PetscMPIInt i = 0; i < plan->nto; i++) {
    PetscCall(PetscMPIIntCast((plan->tooff[i + 1] - plan->tooff[i]) * c, &n));
    PetscCallMPI(MPI_Isend(plan->sendbuf + plan->tooff[i] * c, n, MPIU_SCALAR, plan->to[i], plan->tag, plan->comm, &plan->req[plan->nfrom + i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ... ended: the received rows into the ghost block, garray order: column j of ghost g at ghost[g c + j] (ghost NULL:
   not asked for) */
PetscErrorCode CAKrylovMatColumnsHaloEnd(CAKrylovMatColumns plan, PetscInt c, const PetscScalar **ghost)
{
  PetscFunctionBegin;
  PetscCallMPI(MPI_Waitall(plan->nfrom + plan->nto, plan->req, MPI_STATUSES_IGNORE));
  for (PetscInt k = 0; k < plan->fromoff[plan->nfrom]; k++)
    for (PetscInt j = 0; j < c; j++) plan->ghost[plan->ghostof[k] * c + j] = plan->recvbuf[k * c + j];
  if (ghost) *ghost = plan->ghost;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   CAKrylovMatMultColumns - Y(:, j) = scale[j % cgrp] diag(dout) A diag(din) X(:, j) for the c <= mmax columns of
   column-major blocks X, Y (leading dimensions ldx, ldy) in groups of cgrp columns ldg entries apart (column j of X at
   X + (j / cgrp) ldg + (j % cgrp) ldx, of Y the same with ldy; cgrp = c: one block) and the matrix A of the plan
   (CAKrylovMatColumnsCreate()), in one pass over A, X and Y (scale, din, dout NULL: not applied; din, dout: a diagonal
   preconditioner on the right, on the left). The groups are vectors of the same cgrp systems (the P and R bases of
   KSPMatSolve() of KSPCABICGSTAB), so they share the scaling: one pass and one halo message per neighbour for all.

   Collective on A for MATMPIAIJ

   Notes:
   PETSc's AIJ x dense product reads A once per 4 columns and gathers each entry of x from 4 column streams, compute-bound
   on the gathers (about 30 % of the STREAM triad for 16 columns of a 5-point operator; on 2 ranks of a bottom-sized
   grid, 16^3, 4 Gflop/s). Here the rows of X that A's rows read are turned into the interleaved layout (row i's c
   entries side by side) in a window: a ring of 2^b >= lo + hi + 64 + 8 rows, loaded 8 rows ahead of need, so it holds
   rows i - lo .. i + hi of the 64 rows of Y in progress; those rows are the library's interleaved SpMV of all c columns
   (CAKrylovMatMultInterleavedRing(): one vector load per entry of A per 8 columns), turned back into Y's columns. A
   window of more than the plan's bytes (16 MiB by default: a 3D grid of more than about 256^2 points per plane at c =
   16) takes the columns in groups that fit, a multiple of 8 where it can: one pass per group. On a MATMPIAIJ the window runs
   over the diagonal block, and the off-diagonal block's rows, once the halo of all c columns has arrived (one message per
   neighbour, in flight while the rows before the first that reads it are multiplied), are added to the 64 rows before
   they are turned back. Each entry of Y is the sum over its row of A in A's order (on a MATMPIAIJ: the diagonal block's
   sum, plus the off-diagonal block's summed from 0, as PETSc's MPIAIJ x dense product forms it), times scale[j] as it
   is stored: the bits of PETSc's product and then VecScale(). A diagonal preconditioner costs no pass of its own: din
   scales the rows of X as they enter the window (and the halo), dout the rows of the result before they are turned
   back, each one product of two numbers, the bits of VecPointwiseMult() before or after the product (PCJACOBI's
   PCApply()). A Y of more than 16 MiB is written with streaming stores where its columns' pieces of 8 rows start on a
   cache line (ldy a multiple of 8, Y aligned to 64 bytes): the next product reads it from memory anyway, and a
   streaming store moves each byte once where a normal store first reads the line it writes (standalone 25-27 ms
   against 33 for 16 columns of a 5-point operator on 10^6 rows).
*/
PetscErrorCode CAKrylovMatMultColumns(CAKrylovMatColumns plan, Mat A, PetscInt c, PetscInt cgrp, size_t ldg, const PetscScalar *X, PetscInt ldx, const PetscScalar din[], const PetscScalar dout[], const PetscScalar scale[], PetscScalar *Y, PetscInt ldy)
{
  Mat                Ad = A, Ao = NULL;
  const PetscInt    *ia, *ja, *io = NULL, *jo = NULL;
  const PetscScalar *a, *ao = NULL;
  PetscScalar       *buf, *T, *Yb, *G = NULL;
  PetscInt           n, no = 0, nghost = 0, fit, cg;
  const PetscInt     W = CAKrylovColumnsWindow(plan->lo, plan->hi);
  PetscBool          rows, stream, arrived = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCheck(c <= plan->mmax, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%" PetscInt_FMT " columns exceed the plan's %" PetscInt_FMT, c, plan->mmax);
  PetscCheck(cgrp > 0 && (cgrp >= c || ldg >= (size_t)cgrp * (size_t)PetscMax(ldx, ldy)), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "groups of %" PetscInt_FMT " columns overlap", cgrp);
  PetscCall(PetscLogEventBegin(CAKRYLOV_MatMultColumns, A, 0, 0, 0));
  fit = (PetscInt)PetscMin((size_t)c, PetscMax(1, plan->wmax / ((size_t)W * sizeof(PetscScalar)))); /* columns whose window fits */
  cg  = fit >= c ? c : (fit >= 8 ? fit / 8 * 8 : fit);
  if (plan->halo) {
    PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, NULL));
    PetscCall(CAKrylovMatColumnsHaloBegin(plan, c, cgrp, ldg, X, ldx, din));
    arrived = PETSC_FALSE;
    PetscCall(MatGetRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &no, &io, &jo, &rows));
    PetscCall(MatSeqAIJGetArrayRead(Ao, &ao));
    PetscCall(MatGetSize(Ao, NULL, &nghost));
  }
  PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &rows));
  stream = (size_t)n * (size_t)c * sizeof(PetscScalar) > CAKRYLOV_STREAM_MIN ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(MatSeqAIJGetArrayRead(Ad, &a));
  PetscCall(PetscMalloc2((size_t)(W + CAKRYLOV_COLUMNS_BLOCK) * cg + 16, &buf, (size_t)(cg < c ? nghost * cg : 0), &G));
  T  = CAKrylovAlign64(buf); /* a window row of 8 w columns spans w cache lines, not w + 1: the window's address, and so its speed, no longer depends on the heap's state */
  Yb = CAKrylovAlign64(T + (size_t)W * cg);
  if (cg < c && Ao) { /* groups of columns: their ghosts side by side, once all have arrived */
    PetscCall(CAKrylovMatColumnsHaloEnd(plan, c, NULL));
    arrived = PETSC_TRUE;
  }
  for (PetscInt j0 = 0; j0 < c; j0 += cg) {
    const PetscInt     w  = PetscMin(cg, c - j0);
    const PetscScalar *Gg = plan->ghost;
    PetscInt           t  = 0;

    if (w < c && Ao) {
      for (PetscInt g = 0; g < nghost; g++)
        for (PetscInt j = 0; j < w; j++) G[g * w + j] = plan->ghost[g * c + j0 + j];
      Gg = G;
    }
    for (PetscInt r0 = 0; r0 < n; r0 += CAKRYLOV_COLUMNS_BLOCK) {
      const PetscInt r1 = PetscMin(n, r0 + CAKRYLOV_COLUMNS_BLOCK), need = PetscMin(n, r1 + plan->hi);

      for (; t < need; t += 8) /* rows t .. t + 7 of diag(din) X into the window (8 | W: no wrap inside), group by group */
        for (PetscInt j = j0, l; j < j0 + w; j += l) {
          l = CAKrylovColumnPiece(j, j0 + w, cgrp);
          CAKrylovTranspose(l, PetscMin(8, n - t), din ? din + t : NULL, X + CAKrylovColumnOffset(j, cgrp, ldg, ldx) + t, ldx, T + (size_t)(t & (W - 1)) * w + (j - j0), w, PETSC_FALSE);
        }
      CAKrylovMatMultInterleavedRing(r1 - r0, w, ia + r0, ja, a, T, W - 1, Yb, PETSC_FALSE, PETSC_FALSE); /* (A_d X)(r0 .. r1 - 1, :), interleaved */
      if (Ao && io[r1] > io[r0]) {                                                                        /* + (A_o X_ghost)(r0 .. r1 - 1, :) */
        if (!arrived) PetscCall(CAKrylovMatColumnsHaloEnd(plan, c, NULL));
        arrived = PETSC_TRUE;
        CAKrylovMatMultInterleaved(r1 - r0, w, io + r0, jo, ao, Gg, Yb, PETSC_TRUE);
      }
      for (PetscInt i = 0; dout && i < r1 - r0; i++)
        for (PetscInt j = 0; j < w; j++) Yb[i * w + j] = dout[r0 + i] * Yb[i * w + j];
      for (PetscInt j = j0, l; j < j0 + w; j += l) {
        l = CAKrylovColumnPiece(j, j0 + w, cgrp);
        CAKrylovTranspose(r1 - r0, l, scale ? scale + j % cgrp : NULL, Yb + (j - j0), w, Y + CAKrylovColumnOffset(j, cgrp, ldg, ldy) + r0, ldy, stream);
      }
    }
  }
  if (!arrived) PetscCall(CAKrylovMatColumnsHaloEnd(plan, c, NULL)); /* rows of this rank that others read, none of its own */
  PetscCall(PetscFree2(buf, G));
  PetscCall(PetscLogFlops(2.0 * c * (ia[n] + (Ao ? io[no] : 0)) + (din || dout ? (PetscLogDouble)c * n : 0.0)));
  PetscCall(MatSeqAIJRestoreArrayRead(Ad, &a));
  PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &rows));
  if (Ao) {
    PetscCall(MatSeqAIJRestoreArrayRead(Ao, &ao));
    PetscCall(MatRestoreRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &no, &io, &jo, &rows));
  }
  PetscCall(PetscLogEventEnd(CAKRYLOV_MatMultColumns, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
