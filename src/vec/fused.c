/*
   Fused vector kernels: a group of AXPY-type updates and the dots on the updated vectors in one pass.

   Fast path (VECSEQ/VECMPI): the local arrays are walked in chunks of CAKRYLOV_VEC_CHUNK entries; on each
   chunk every update and then every dot runs as a simple (vectorised) loop. A chunk of all the vectors of
   a group (at most 16 x 1 KiB) stays in L1 between the loops, so each vector crosses the memory bus once
   per group: reads of the vectors read, writes of the vectors written, nothing else. The result equals
   the sequence of separate updates, entry by entry. The chunk size matters: measured on one core of the
   development machine (AMD EPYC, 32 KiB L1d), the 9-vector pass of KSPPIPEBCGSM runs at about 31 GB/s
   with 128 entries and 20 GB/s with 512, whose 36 KiB of chunks no longer fit in L1.

   Fallback (any other Vec type, or -cakrylov_vec_fallback): the same updates with VecAXPBY(),
   VecAXPBYPCZ(), VecMAXPY(), ... and the local dots with VecDot() on the local parts
   (VecGetLocalVectorRead()), so no communication happens here either.
*/
#include <cakrylov/private/cakrylovimpl.h>
#include <petsc/private/petscimpl.h>

#define CAKRYLOV_VEC_CHUNK 128

/* -[prefix]cakrylov_vec_fallback <bool> of obj (its own prefix: a solver nested in another keeps its own setting), read
   by each solver at every solve, so one program can compare both paths */
PetscErrorCode CAKrylovVecFusedGetFallback(PetscObject obj, PetscBool *fallback)
{
  PetscFunctionBegin;
  *fallback = PETSC_FALSE;
  PetscCall(PetscOptionsGetBool(obj->options, obj->prefix, "-cakrylov_vec_fallback", fallback, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The slot of v among the distinct vectors of the group, added if new; write marks it as written */
static PetscErrorCode CAKrylovVecFusedAddVec(Vec v, PetscBool write, Vec vec[], PetscBool written[], PetscInt *nv, PetscInt *slot)
{
  PetscInt i;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(v, VEC_CLASSID, 1);
  for (i = 0; i < *nv && vec[i] != v; i++) { }
  if (i == *nv) {
    PetscCheck(*nv < CAKRYLOV_VEC_FUSED_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "A fused group touches more than %d vectors", CAKRYLOV_VEC_FUSED_MAX);
    vec[i]     = v;
    written[i] = PETSC_FALSE;
    (*nv)++;
  }
  if (write) written[i] = PETSC_TRUE;
  *slot = i;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y[0..n) <- sum_k a[k] x_k + b y, specialised on the number of inputs and on b == 0 (y is none of its inputs: restrict) */
static inline void ChunkUpdate(PetscInt n, PetscScalar *PETSC_RESTRICT y, PetscScalar b, PetscInt nx, const PetscScalar *a, const PetscScalar *PETSC_RESTRICT x0, const PetscScalar *PETSC_RESTRICT x1, const PetscScalar *PETSC_RESTRICT x2)
{
  const PetscScalar a0 = a[0], a1 = a[1], a2 = a[2];

  if (b == 0.0) {
    switch (nx) {
    case 1:
      for (PetscInt i = 0; i < n; i++) y[i] = a0 * x0[i];
      break;
    case 2:
      for (PetscInt i = 0; i < n; i++) y[i] = a0 * x0[i] + a1 * x1[i];
      break;
    default:
      for (PetscInt i = 0; i < n; i++) y[i] = a0 * x0[i] + a1 * x1[i] + a2 * x2[i];
    }
  } else {
    switch (nx) {
    case 1:
      for (PetscInt i = 0; i < n; i++) y[i] = a0 * x0[i] + b * y[i];
      break;
    case 2:
      for (PetscInt i = 0; i < n; i++) y[i] = a0 * x0[i] + a1 * x1[i] + b * y[i];
      break;
    default:
      for (PetscInt i = 0; i < n; i++) y[i] = a0 * x0[i] + a1 * x1[i] + a2 * x2[i] + b * y[i];
    }
  }
}

/* sum_i x[i] conj(y[i]) over n entries, with four partial sums (independent chains, fixed order) */
static inline PetscScalar ChunkDot(PetscInt n, const PetscScalar *x, const PetscScalar *y)
{
  PetscScalar s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  PetscInt    i;

  for (i = 0; i + 3 < n; i += 4) {
    s0 += x[i] * PetscConj(y[i]);
    s1 += x[i + 1] * PetscConj(y[i + 1]);
    s2 += x[i + 2] * PetscConj(y[i + 2]);
    s3 += x[i + 3] * PetscConj(y[i + 3]);
  }
  for (; i < n; i++) s0 += x[i] * PetscConj(y[i]);
  return (s0 + s1) + (s2 + s3);
}

/* The fallback: the same group through PETSc's Vec operations */
static PetscErrorCode CAKrylovVecFusedFallback(PetscInt nu, const CAKrylovVecUpdate u[], PetscInt nd, const Vec dx[], const Vec dy[], PetscScalar dot[])
{
  Vec       vec[CAKRYLOV_VEC_FUSED_MAX], loc[CAKRYLOV_VEC_FUSED_MAX];
  PetscInt  nv = 0, ix[CAKRYLOV_VEC_MAX_DOTS], iy[CAKRYLOV_VEC_MAX_DOTS];
  PetscBool unused[CAKRYLOV_VEC_FUSED_MAX];

  PetscFunctionBegin;
  for (PetscInt k = 0; k < nu; k++) {
    PetscInt nx = 0;

    while (nx < 3 && u[k].x[nx]) nx++;
    if (u[k].b == 0.0) { /* y = a0 x0 + sum_{k>0} a_k x_k, old y never read */
      PetscCall(VecCopy(u[k].x[0], u[k].y));
      if (u[k].a[0] != 1.0) PetscCall(VecScale(u[k].y, u[k].a[0]));
      if (nx > 1) PetscCall(VecMAXPY(u[k].y, nx - 1, u[k].a + 1, (Vec *)u[k].x + 1));
    } else if (nx == 1) PetscCall(VecAXPBY(u[k].y, u[k].a[0], u[k].b, u[k].x[0]));
    else {
      PetscCall(VecAXPBYPCZ(u[k].y, u[k].a[0], u[k].a[1], u[k].b, u[k].x[0], u[k].x[1]));
      if (nx == 3) PetscCall(VecAXPY(u[k].y, u[k].a[2], u[k].x[2]));
    }
  }
  if (!nd) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt d = 0; d < nd; d++) {
    PetscCall(CAKrylovVecFusedAddVec(dx[d], PETSC_FALSE, vec, unused, &nv, &ix[d]));
    PetscCall(CAKrylovVecFusedAddVec(dy[d], PETSC_FALSE, vec, unused, &nv, &iy[d]));
  }
  for (PetscInt i = 0; i < nv; i++) { /* the local part as a sequential Vec: VecDot() on it does not communicate */
    PetscCall(VecCreateLocalVector(vec[i], &loc[i]));
    PetscCall(VecGetLocalVectorRead(vec[i], loc[i]));
  }
  for (PetscInt d = 0; d < nd; d++) PetscCall(VecDot(loc[ix[d]], loc[iy[d]], &dot[d]));
  for (PetscInt i = 0; i < nv; i++) {
    PetscCall(VecRestoreLocalVectorRead(vec[i], loc[i]));
    PetscCall(VecDestroy(&loc[i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  CAKrylovVecFused - applies the updates u[0..nu-1] in order, then computes the local dots
  dot[i] = (dx[i], dy[i]) (PETSc's convention, dy^H dx) on the updated vectors, in one pass over memory.

  Not Collective (the dots are local: reduce them with CAKrylovReductionBegin()/End())

  Notes:
  fallback: the portable path even for VECSEQ/VECMPI (the caller's -cakrylov_vec_fallback, CAKrylovVecFusedGetFallback()).
  Each update is y <- sum_k a[k] x[k] + b y with 1..3 inputs; with b == 0 the old y is not read. A vector
  written by one update may be read by later ones and by the dots. Logged as event CAKVecFused with the
  flops of the group; written vectors get their object state increased (VecRestoreArray()).
*/
PetscErrorCode CAKrylovVecFused(PetscBool fallback, PetscInt nu, const CAKrylovVecUpdate u[], PetscInt nd, const Vec dx[], const Vec dy[], PetscScalar dot[])
{
  Vec            vec[CAKRYLOV_VEC_FUSED_MAX];
  PetscBool      written[CAKRYLOV_VEC_FUSED_MAX], fast = fallback ? PETSC_FALSE : PETSC_TRUE;
  PetscScalar   *arr[CAKRYLOV_VEC_FUSED_MAX];
  PetscInt       nv = 0, iy[CAKRYLOV_VEC_MAX_UPDATES], ix[CAKRYLOV_VEC_MAX_UPDATES][3], nx[CAKRYLOV_VEC_MAX_UPDATES], idx[CAKRYLOV_VEC_MAX_DOTS], idy[CAKRYLOV_VEC_MAX_DOTS];
  PetscInt       n, nloc;
  PetscLogDouble flops = 0.0;

  PetscFunctionBegin;
  PetscCheck(nu >= 0 && nu <= CAKRYLOV_VEC_MAX_UPDATES && nd >= 0 && nd <= CAKRYLOV_VEC_MAX_DOTS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "A fused group has at most %d updates and %d dots, not %" PetscInt_FMT " and %" PetscInt_FMT, CAKRYLOV_VEC_MAX_UPDATES, CAKRYLOV_VEC_MAX_DOTS, nu, nd);
  PetscCall(PetscLogEventBegin(CAKRYLOV_VecFused, 0, 0, 0, 0));
  /* the distinct vectors, what each update and dot reads and writes, and the checks */
  for (PetscInt k = 0; k < nu; k++) {
    for (nx[k] = 0; nx[k] < 3 && u[k].x[nx[k]]; nx[k]++) {
      PetscCheck(u[k].x[nx[k]] != u[k].y, PETSC_COMM_SELF, PETSC_ERR_ARG_IDN, "Update %" PetscInt_FMT " of a fused group reads its own output as input %" PetscInt_FMT "; use its coefficient b", k, nx[k]);
      PetscCall(CAKrylovVecFusedAddVec(u[k].x[nx[k]], PETSC_FALSE, vec, written, &nv, &ix[k][nx[k]]));
    }
    PetscCheck(nx[k] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Update %" PetscInt_FMT " of a fused group has no input", k);
    PetscCall(CAKrylovVecFusedAddVec(u[k].y, PETSC_TRUE, vec, written, &nv, &iy[k]));
    flops += 2 * nx[k] - 1 + (u[k].b != 0.0 ? 2 : 0);
  }
  for (PetscInt d = 0; d < nd; d++) {
    PetscCall(CAKrylovVecFusedAddVec(dx[d], PETSC_FALSE, vec, written, &nv, &idx[d]));
    PetscCall(CAKrylovVecFusedAddVec(dy[d], PETSC_FALSE, vec, written, &nv, &idy[d]));
    flops += 2;
  }
  PetscCall(VecGetLocalSize(vec[0], &nloc));
  for (PetscInt i = 0; i < nv; i++) {
    PetscBool standard;

    PetscCall(VecGetLocalSize(vec[i], &n));
    PetscCheck(n == nloc, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "Vectors of a fused group differ in local length: %" PetscInt_FMT " != %" PetscInt_FMT, n, nloc);
    PetscCall(PetscObjectTypeCompareAny((PetscObject)vec[i], &standard, VECSEQ, VECMPI, ""));
    if (!standard) fast = PETSC_FALSE;
  }

  if (!fast) PetscCall(CAKrylovVecFusedFallback(nu, u, nd, dx, dy, dot));
  else {
    for (PetscInt i = 0; i < nv; i++) {
      if (written[i]) PetscCall(VecGetArray(vec[i], &arr[i]));
      else PetscCall(VecGetArrayRead(vec[i], (const PetscScalar **)&arr[i]));
    }
    for (PetscInt d = 0; d < nd; d++) dot[d] = 0.0;
    for (PetscInt start = 0; start < nloc; start += CAKRYLOV_VEC_CHUNK) {
      const PetscInt len = PetscMin(CAKRYLOV_VEC_CHUNK, nloc - start);

      for (PetscInt k = 0; k < nu; k++) {
        const PetscScalar *x0 = arr[ix[k][0]] + start, *x1 = nx[k] > 1 ? arr[ix[k][1]] + start : NULL, *x2 = nx[k] > 2 ? arr[ix[k][2]] + start : NULL;

        if (len == CAKRYLOV_VEC_CHUNK) ChunkUpdate(CAKRYLOV_VEC_CHUNK, arr[iy[k]] + start, u[k].b, nx[k], u[k].a, x0, x1, x2); /* constant trip count: vectorised without an epilogue */
        else ChunkUpdate(len, arr[iy[k]] + start, u[k].b, nx[k], u[k].a, x0, x1, x2);
      }
      for (PetscInt d = 0; d < nd; d++) dot[d] += ChunkDot(len, arr[idx[d]] + start, arr[idy[d]] + start);
      PetscCall(CAKrylovProgressPoll()); /* a chunk boundary: progress a reduction in flight, if asked */
    }
    for (PetscInt i = 0; i < nv; i++) {
      if (written[i]) PetscCall(VecRestoreArray(vec[i], &arr[i]));
      else PetscCall(VecRestoreArrayRead(vec[i], (const PetscScalar **)&arr[i]));
    }
  }
  PetscCall(PetscLogFlops(flops * nloc));
  PetscCall(PetscLogEventEnd(CAKRYLOV_VecFused, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y[e] = a0[e] x0[e] + a1[e] x1[e] + a2[e] x2[e] + b[e] y[e], e < n: the expression of ChunkUpdate(), term by term in the
   same order, with a coefficient per entry (b == NULL: y not read) */
static inline void SpanUpdateN(PetscInt n, PetscScalar *PETSC_RESTRICT y, PetscInt nx, const PetscScalar *PETSC_RESTRICT x0, const PetscScalar *PETSC_RESTRICT x1, const PetscScalar *PETSC_RESTRICT x2, const PetscScalar *PETSC_RESTRICT a0, const PetscScalar *PETSC_RESTRICT a1, const PetscScalar *PETSC_RESTRICT a2, const PetscScalar *PETSC_RESTRICT b)
{
  if (!b) {
    switch (nx) {
    case 1:
      for (PetscInt e = 0; e < n; e++) y[e] = a0[e] * x0[e];
      break;
    case 2:
      for (PetscInt e = 0; e < n; e++) y[e] = a0[e] * x0[e] + a1[e] * x1[e];
      break;
    default:
      for (PetscInt e = 0; e < n; e++) y[e] = a0[e] * x0[e] + a1[e] * x1[e] + a2[e] * x2[e];
    }
  } else {
    switch (nx) {
    case 1:
      for (PetscInt e = 0; e < n; e++) y[e] = a0[e] * x0[e] + b[e] * y[e];
      break;
    case 2:
      for (PetscInt e = 0; e < n; e++) y[e] = a0[e] * x0[e] + a1[e] * x1[e] + b[e] * y[e];
      break;
    default:
      for (PetscInt e = 0; e < n; e++) y[e] = a0[e] * x0[e] + a1[e] * x1[e] + a2[e] * x2[e] + b[e] * y[e];
    }
  }
}

/* s[e] += x[e] conj(y[e]), e < n */
static inline void SpanDotN(PetscInt n, PetscScalar *PETSC_RESTRICT s, const PetscScalar *PETSC_RESTRICT x, const PetscScalar *PETSC_RESTRICT y)
{
  for (PetscInt e = 0; e < n; e++) s[e] += x[e] * PetscConj(y[e]);
}

/* SpanUpdateN() and SpanDotN() in pieces of CAKRYLOV_VEC_SPAN entries, a constant trip count the compiler vectorises
   without an epilogue, then the rest */
#define CAKRYLOV_VEC_SPAN 16
static inline void SpanUpdate(PetscInt n, PetscScalar *y, PetscInt nx, const PetscScalar *x0, const PetscScalar *x1, const PetscScalar *x2, const PetscScalar *a0, const PetscScalar *a1, const PetscScalar *a2, const PetscScalar *b)
{
  PetscInt e = 0;

  for (; e + CAKRYLOV_VEC_SPAN <= n; e += CAKRYLOV_VEC_SPAN) SpanUpdateN(CAKRYLOV_VEC_SPAN, y + e, nx, x0 + e, x1 ? x1 + e : NULL, x2 ? x2 + e : NULL, a0 + e, a1 + e, a2 + e, b ? b + e : NULL);
  if (e < n) SpanUpdateN(n - e, y + e, nx, x0 + e, x1 ? x1 + e : NULL, x2 ? x2 + e : NULL, a0 + e, a1 + e, a2 + e, b ? b + e : NULL);
}

static inline void SpanDot(PetscInt n, PetscScalar *s, const PetscScalar *x, const PetscScalar *y)
{
  PetscInt e = 0;

  for (; e + CAKRYLOV_VEC_SPAN <= n; e += CAKRYLOV_VEC_SPAN) SpanDotN(CAKRYLOV_VEC_SPAN, s + e, x + e, y + e);
  if (e < n) SpanDotN(n - e, s + e, x + e, y + e);
}

/* Row `off` of update u on the np columns pos[] (coefficients a[c][j], b[j]), in ChunkUpdate()'s order */
static inline void RowUpdateSome(const CAKrylovVecBlockUpdate *u, PetscInt off, PetscInt np, const PetscInt *pos)
{
  PetscScalar *PETSC_RESTRICT       y  = u->y + off;
  const PetscScalar *PETSC_RESTRICT x0 = u->x[0] + off, *x1 = u->nx > 1 ? u->x[1] + off : NULL, *x2 = u->nx > 2 ? u->x[2] + off : NULL;

  for (PetscInt t = 0; t < np; t++) {
    const PetscInt j = pos[t];
    PetscScalar    v = u->a[0][j] * x0[j];

    if (x1) v += u->a[1][j] * x1[j];
    if (x2) v += u->a[2][j] * x2[j];
    if (u->b) v += u->b[j] * y[j];
    y[j] = v;
  }
}

/*
  CAKrylovVecFusedInterleaved - CAKrylovVecFused() for m columns stored row-wise (interleaved), one pass over the
  rows for all columns, each column with its own coefficients

  Not Collective (the dots are local)

  Notes:
  Column j's dots are summed as ChunkDot() sums a column alone: in chunks of CAKRYLOV_VEC_CHUNK rows, four partial sums
  by row within the chunk, combined as (s0 + s1) + (s2 + s3); so each column's result equals CAKrylovVecFused() on that
  column stored by itself, bit for bit. With all m columns (pos == NULL) the rows of a chunk go in blocks of
  CAKrylovVecInterleavedRows(m) (a multiple of 4, at least 64 entries): every update is one flat loop over the block's
  entries with the coefficients repeated row after row (in work), and the dots go 4 rows at a time, whose 4 m entries
  e = r m + j are partial sum r of column j. Columns not in pos[] are neither read nor written.
  work: CAKRYLOV_VEC_INTERLEAVED_WORK(m) scalars.
*/
PetscErrorCode CAKrylovVecFusedInterleaved(PetscInt nrows, PetscInt m, PetscInt np, const PetscInt pos[], PetscInt nu, const CAKrylovVecBlockUpdate u[], PetscInt nd, const PetscScalar *const dx[], const PetscScalar *const dy[], PetscScalar work[], PetscScalar dot[])
{
  const PetscInt rows = CAKrylovVecInterleavedRows(m), span = rows * m;     /* the rows of one update block, its entries */
  PetscScalar   *sums = work, *coef = work + 4 * CAKRYLOV_VEC_MAX_DOTS * m; /* sums[(4 d + r) m + j]; coef[(4 k + c) span + e]: a[c] (c < 3), b (c = 3) */
  PetscLogDouble flops = 0.0;

  PetscFunctionBegin;
  PetscCheck(nu >= 0 && nu <= CAKRYLOV_VEC_MAX_UPDATES && nd >= 0 && nd <= CAKRYLOV_VEC_MAX_DOTS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "A fused group has at most %d updates and %d dots, not %" PetscInt_FMT " and %" PetscInt_FMT, CAKRYLOV_VEC_MAX_UPDATES, CAKRYLOV_VEC_MAX_DOTS, nu, nd);
  PetscCall(PetscLogEventBegin(CAKRYLOV_VecFused, 0, 0, 0, 0));
  for (PetscInt k = 0; k < nu; k++) flops += 2 * u[k].nx - 1 + (u[k].b ? 2 : 0);
  flops += 2 * nd;
  if (!pos)
    for (PetscInt k = 0; k < nu; k++)
      for (PetscInt c = 0; c < 4; c++) {
        const PetscScalar *a = c < 3 ? u[k].a[c] : u[k].b;

        if (a && (c == 3 || c < u[k].nx))
          for (PetscInt r = 0; r < rows; r++) PetscCall(PetscArraycpy(coef + (4 * k + c) * span + r * m, a, m));
      }
  for (PetscInt d = 0; d < nd; d++)
    for (PetscInt t = 0; t < np; t++) dot[d * m + (pos ? pos[t] : t)] = 0.0;
  for (PetscInt start = 0; start < nrows; start += CAKRYLOV_VEC_CHUNK) {
    const PetscInt len = PetscMin(CAKRYLOV_VEC_CHUNK, nrows - start), len4 = len - len % 4;
    PetscInt       i = 0;

    PetscCall(PetscArrayzero(sums, 4 * nd * m));
    while (!pos && i < len4) { /* a block of `rows` rows (or of 4 at the end of the chunk): 4 m contiguous entries per 4 rows */
      const PetscInt off = (start + i) * m, nr = i + rows <= len4 ? rows : 4;

      for (PetscInt k = 0; k < nu; k++) {
        const PetscScalar *cf = coef + 4 * k * span;

        SpanUpdate(nr * m, u[k].y + off, u[k].nx, u[k].x[0] + off, u[k].nx > 1 ? u[k].x[1] + off : NULL, u[k].nx > 2 ? u[k].x[2] + off : NULL, cf, cf + span, cf + 2 * span, u[k].b ? cf + 3 * span : NULL);
      }
      for (PetscInt q = 0; q < nr; q += 4)
        for (PetscInt d = 0; d < nd; d++) SpanDot(4 * m, sums + 4 * d * m, dx[d] + off + q * m, dy[d] + off + q * m);
      i += nr;
    }
    for (; i < len; i++) { /* one row: its partial sum is i % 4, or 0 past the last group of four (ChunkDot()'s tail) */
      const PetscInt off = (start + i) * m, lane = i < len4 ? i % 4 : 0;

      for (PetscInt k = 0; k < nu; k++) {
        if (pos) RowUpdateSome(&u[k], off, np, pos);
        else SpanUpdate(m, u[k].y + off, u[k].nx, u[k].x[0] + off, u[k].nx > 1 ? u[k].x[1] + off : NULL, u[k].nx > 2 ? u[k].x[2] + off : NULL, u[k].a[0], u[k].a[1], u[k].a[2], u[k].b);
      }
      for (PetscInt d = 0; d < nd; d++) {
        PetscScalar *PETSC_RESTRICT sd = sums + (4 * d + lane) * m;
        const PetscScalar          *x = dx[d] + off, *y = dy[d] + off;

        if (pos)
          for (PetscInt t = 0; t < np; t++) sd[pos[t]] += x[pos[t]] * PetscConj(y[pos[t]]);
        else SpanDot(m, sd, x, y);
      }
    }
    for (PetscInt d = 0; d < nd; d++) { /* (s0 + s1) + (s2 + s3), as ChunkDot() */
      const PetscScalar *sd = sums + 4 * d * m;

      for (PetscInt t = 0; t < np; t++) {
        const PetscInt j = pos ? pos[t] : t;

        dot[d * m + j] += (sd[j] + sd[m + j]) + (sd[2 * m + j] + sd[3 * m + j]);
      }
    }
    PetscCall(CAKrylovProgressPoll()); /* a chunk boundary: progress a reduction in flight, if asked */
  }
  PetscCall(PetscLogFlops(flops * nrows * np));
  PetscCall(PetscLogEventEnd(CAKRYLOV_VecFused, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The interleaved SpMV: y = A x on blocks of m columns stored row-wise (entry (i, j) at i m + j), A in CSR (ai, aj, aa).
   Column j of row i is summed as PETSc's AIJ and MAIJ kernels sum it: from 0, over the row's nonzeros in order, one
   product added at a time (add: that sum then added to y, as MatMultAdd_SeqMAIJ_*() does for the off-diagonal part of an
   MPIAIJ operator where PETSc has a kernel for this m, 16 among them; its generic kernel adds each product to y); so each
   column gets the bits of MatMult() of MatCreateMAIJ(A, m) (and of MatMult() of A on 1 rank).
   The m columns go in tiles of 8 w (w = 4, 2, 1: 32, 16, 8 columns) as GCC vectors of 8 doubles, then one by one; the
   tiles are compiled for AVX-512F, AVX2 and the baseline and chosen at run time: PETSc's flags (Debian: -O2, no -march)
   vectorise with SSE2 only, 2 doubles per instruction, and MatMult_SeqMAIJ_16() then issues 8 multiplications and 8
   additions per nonzero, which on one core of an AMD EPYC runs at about 55 % of the STREAM triad. Products and sums stay
   separate instructions (fp-contract off: an FMA would round differently).
*/
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(PETSC_USE_COMPLEX) && defined(PETSC_USE_REAL_DOUBLE)
  #define CAKRYLOV_SPMV_VECTOR 1
typedef double CAKv8 __attribute__((vector_size(64), aligned(8))); /* 8 doubles at any 8-byte boundary */

/* The vector kernels this processor runs: 0 AVX-512F, 1 AVX2, 2 the baseline (each kernel is compiled for all three) */
static inline PetscInt CAKrylovISA(void)
{
  return __builtin_cpu_supports("avx512f") ? 0 : (__builtin_cpu_supports("avx2") ? 1 : 2);
}

  #include <immintrin.h>
  /* a streaming store of 8 doubles at a 64-byte boundary: around the caches, no read of the line it replaces */
  #define CAKRYLOV_STREAM_AVX512(d, v) _mm512_stream_pd((d), (__m512d)(v))
  #define CAKRYLOV_STREAM_AVX2(d, v) \
    do { \
      _mm256_stream_pd((d), (__m256d){(v)[0], (v)[1], (v)[2], (v)[3]}); \
      _mm256_stream_pd((d) + 4, (__m256d){(v)[4], (v)[5], (v)[6], (v)[7]}); \
    } while (0)
  #define CAKRYLOV_STREAM_BASE(d, v) \
    do { \
      for (PetscInt h = 0; h < 8; h += 2) _mm_stream_pd((d) + h, (__m128d){(v)[h], (v)[h + 1]}); \
    } while (0)
  #define CAKRYLOV_STORE(STREAM, stream, d, v) \
    do { \
      if ((stream) && !((uintptr_t)(d)&63)) STREAM((d), (v)); \
      else *(CAKv8 *)(d) = (v); \
    } while (0)

  #define CAKRYLOV_SPMV_TILE(name, W, attr, STREAM) \
    static attr void name(PetscInt nrows, PetscInt ld, const PetscInt *PETSC_RESTRICT ai, const PetscInt *PETSC_RESTRICT aj, const PetscScalar *PETSC_RESTRICT aa, const PetscScalar *PETSC_RESTRICT x, PetscInt mask, PetscScalar *PETSC_RESTRICT y, PetscBool add, PetscBool stream) \
    { \
      for (PetscInt i = 0; i < nrows; i++) { \
        CAKv8 s[W]; \
        if (add && ai[i] == ai[i + 1]) continue; /* y + 0 = y: an empty row of an off-diagonal block leaves y's row unread */ \
        for (PetscInt q = 0; q < W; q++) s[q] = (CAKv8){0}; \
        for (PetscInt k = ai[i]; k < ai[i + 1]; k++) { \
          const double v  = aa[k]; \
          const CAKv8 *xr = (const CAKv8 *)(x + (size_t)(aj[k] & mask) * (size_t)ld); \
          for (PetscInt q = 0; q < W; q++) s[q] += v * xr[q]; \
        } \
        CAKv8 *yr = (CAKv8 *)(y + (size_t)i * (size_t)ld); \
        for (PetscInt q = 0; q < W; q++) { \
          if (add) yr[q] += s[q]; \
          else CAKRYLOV_STORE(STREAM, stream, (double *)(yr + q), s[q]); \
        } \
      } \
      if (stream) _mm_sfence(); \
    }
  #define CAKRYLOV_SPMV_TILES(suffix, attr, STREAM) \
    CAKRYLOV_SPMV_TILE(SpMVTile4##suffix, 4, attr, STREAM) \
    CAKRYLOV_SPMV_TILE(SpMVTile2##suffix, 2, attr, STREAM) \
    CAKRYLOV_SPMV_TILE(SpMVTile1##suffix, 1, attr, STREAM)
CAKRYLOV_SPMV_TILES(Avx512, __attribute__((target("avx512f"), optimize("fp-contract=off"))), CAKRYLOV_STREAM_AVX512)
CAKRYLOV_SPMV_TILES(Avx2, __attribute__((target("avx2"), optimize("fp-contract=off"))), CAKRYLOV_STREAM_AVX2)
CAKRYLOV_SPMV_TILES(Base, __attribute__((optimize("fp-contract=off"))), CAKRYLOV_STREAM_BASE)
#endif

/* Columns [c, c + w) one by one (w < 8, or no vector kernels) */
static void SpMVColumns(PetscInt nrows, PetscInt ld, PetscInt w, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *x, PetscInt mask, PetscScalar *y, PetscBool add)
{
  for (PetscInt i = 0; i < nrows; i++)
    for (PetscInt c = 0; c < w && !(add && ai[i] == ai[i + 1]); c++) {
      PetscScalar s = 0.0;

      for (PetscInt k = ai[i]; k < ai[i + 1]; k++) s += aa[k] * x[(size_t)(aj[k] & mask) * (size_t)ld + c];
      if (add) y[(size_t)i * (size_t)ld + c] += s;
      else y[(size_t)i * (size_t)ld + c] = s;
    }
}

/*
  CAKrylovMatMultInterleaved - y = A x (add: y += A x) for m columns stored row-wise, A given by its CSR arrays

  Not Collective

  Notes:
  nrows rows of A (ai[nrows + 1], aj, aa), x with at least max(aj) + 1 rows of m entries, y with nrows; x and y do not
  overlap. Per column the bits of MatMult() of MatCreateMAIJ(A, m) (MatMultAdd() with add, except that an empty row of
  A leaves y's row as it is: y + 0 differs from y only for y = -0, which no sum from 0 of the first part gives). Not
  logged: the caller logs.

  A y of more than CAKRYLOV_STREAM_MIN bytes, 64-byte aligned, with m a multiple of 8, is written with streaming stores
  (without add): no cache keeps it until it is read, and a normal store first reads each line it writes.
*/
void CAKrylovMatMultInterleaved(PetscInt nrows, PetscInt m, const PetscInt ai[], const PetscInt aj[], const PetscScalar aa[], const PetscScalar x[], PetscScalar y[], PetscBool add)
{
  const PetscBool stream = !add && m % 8 == 0 && !((uintptr_t)y & 63) && (size_t)nrows * (size_t)m * sizeof(PetscScalar) > CAKRYLOV_STREAM_MIN ? PETSC_TRUE : PETSC_FALSE;

  CAKrylovMatMultInterleavedRing(nrows, m, ai, aj, aa, x, -1, y, add, stream);
}

/*
  CAKrylovMatMultInterleavedRing - y = A x as CAKrylovMatMultInterleaved(), x's row col at row (col & mask) of x: a ring
  of mask + 1 rows (mask = 2^b - 1) holding the rows A's rows read (mask = -1: all of x); stream: y's pieces of 8
  entries on 64-byte boundaries written with streaming stores (not with add)

  Not Collective
*/
void CAKrylovMatMultInterleavedRing(PetscInt nrows, PetscInt m, const PetscInt ai[], const PetscInt aj[], const PetscScalar aa[], const PetscScalar x[], PetscInt mask, PetscScalar y[], PetscBool add, PetscBool stream)
{
  PetscInt c = 0;

#if defined(CAKRYLOV_SPMV_VECTOR)
  static const struct {
    void (*tile[3])(PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *, const PetscScalar *, PetscInt, PetscScalar *, PetscBool, PetscBool);
  } kernels[3]       = {{{SpMVTile4Avx512, SpMVTile2Avx512, SpMVTile1Avx512}}, {{SpMVTile4Avx2, SpMVTile2Avx2, SpMVTile1Avx2}}, {{SpMVTile4Base, SpMVTile2Base, SpMVTile1Base}}};
  const PetscInt isa = CAKrylovISA();

  for (PetscInt t = 0; t < 3; t++) { /* tiles of 32, 16, 8 columns */
    const PetscInt w = 8 << (2 - t);

    for (; c + w <= m; c += w) kernels[isa].tile[t](nrows, m, ai, aj, aa, x + c, mask, y + c, add, stream);
  }
#else
  (void)stream;
#endif
  if (c < m) SpMVColumns(nrows, m, m - c, ai, aj, aa, x + c, mask, y + c, add);
}

/*
   The Gram kernel: S = V^T V of k columns of length n (lda ld), in one pass over V. The rows go in blocks of
   CAKRYLOV_GRAM_ROWS, small enough that a block of all k columns stays in L1/L2 while every pair of columns is summed
   over it; the pairs in tiles of 4 x 4 columns, whose 16 sums are GCC vectors of 8 lanes (row i of V in lane i % 8),
   kept in work between the blocks; the lanes of a pair added at the end as ((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 +
   l7)). Only the tiles on and above the diagonal are summed; S(b, a) is S(a, b). Each product is added by an FMA with
   AVX-512F and with AVX2 (the same bits on both: every x86-64 CPU since 2013 gives the same Gram matrix, where OpenBLAS's
   DGEMM picks its kernel and summation order by CPU); the baseline (SSE2) rounds each product. Why not DGEMM: for k =
   18 columns of 10^6 rows (cabicgstab at s = 4) OpenBLAS took 26-35 ms (17-24 Gflop/s: it packs both operands, and its
   2 threads on 2 cores were slower than 1) and this kernel 16 ms, on one core of an Intel Xeon with AVX-512 (k = 34:
   76 ms against 41); for 66 columns of 10^5 rows both took 13 ms.
*/
#define CAKRYLOV_GRAM_ROWS      256
#define CAKRYLOV_GRAM_MAX_TILES 32 /* columns: at most 128 (cabicgstab: 4 s + 2 <= 66) */

#if defined(CAKRYLOV_SPMV_VECTOR)
  /* acc[4 p + q] += rows [0, len) of the products of columns a[p] and b[q], len a multiple of 8 */
  #define CAKRYLOV_GRAM_TILE(name, attr) \
    static attr void name(PetscInt len, const double *const *PETSC_RESTRICT a, const double *const *PETSC_RESTRICT b, CAKv8 *PETSC_RESTRICT acc) \
    { \
      CAKv8 s[16]; \
      _Pragma("GCC unroll 16") for (PetscInt q = 0; q < 16; q++) s[q] = acc[q]; \
      for (PetscInt i = 0; i < len; i += 8) { \
        CAKv8 x[4], y[4]; \
        _Pragma("GCC unroll 4") for (PetscInt p = 0; p < 4; p++) \
        { \
          x[p] = *(const CAKv8 *)(a[p] + i); \
          y[p] = *(const CAKv8 *)(b[p] + i); \
        } \
        _Pragma("GCC unroll 4") for (PetscInt p = 0; p < 4; p++) \
        { \
          _Pragma("GCC unroll 4") for (PetscInt q = 0; q < 4; q++) s[4 * p + q] += x[p] * y[q]; \
        } \
      } \
      _Pragma("GCC unroll 16") for (PetscInt q = 0; q < 16; q++) acc[q] = s[q]; \
    }
CAKRYLOV_GRAM_TILE(GramTileAvx512, __attribute__((target("avx512f,fma"), optimize("fp-contract=fast"))))
CAKRYLOV_GRAM_TILE(GramTileAvx2, __attribute__((target("avx2,fma"), optimize("fp-contract=fast"))))
CAKRYLOV_GRAM_TILE(GramTileBase, __attribute__((optimize("fp-contract=off"))))

/* The sums of the tiles on and above the diagonal over the rows [r0, r0 + len) of the columns col[] */
static void GramBlock(void (*tile)(PetscInt, const double *const *, const double *const *, CAKv8 *), PetscInt k, const double *const col[], PetscInt r0, PetscInt len, CAKv8 *acc)
{
  const PetscInt nt = (k + 3) / 4;

  for (PetscInt ta = 0; ta < nt; ta++)
    for (PetscInt tb = ta; tb < nt; tb++, acc += 16) {
      const double *a[4], *b[4];

      for (PetscInt p = 0; p < 4; p++) { /* past the last column: the last column again, its sums unused */
        a[p] = col[PetscMin(4 * ta + p, k - 1)] + r0;
        b[p] = col[PetscMin(4 * tb + p, k - 1)] + r0;
      }
      tile(len, a, b, acc);
    }
}
#endif

/* The scalars of work CAKrylovGram() needs for k columns */
PetscInt CAKrylovGramWorkSize(PetscInt k)
{
  const PetscInt nt = (k + 3) / 4;

  return 16 * 8 * (nt * (nt + 1) / 2) + 8 * k;
}

/*
  CAKrylovGram - S = V^T V (k x k, both triangles, column-major) for the k columns of V (n rows, lda ld), local to this
  process

  Not Collective

  Notes:
  work holds CAKrylovGramWorkSize(k) scalars. The vector kernels (GCC, x86-64, real double precision) give the same bits
  on every x86-64 CPU; elsewhere BLAS's GEMM. Not logged: the caller logs.
*/
PetscErrorCode CAKrylovGram(PetscInt n, PetscInt k, const PetscScalar V[], PetscInt ld, PetscScalar work[], PetscScalar S[])
{
  PetscFunctionBegin;
#if defined(CAKRYLOV_SPMV_VECTOR)
  {
    void (*const tiles[3])(PetscInt, const double *const *, const double *const *, CAKv8 *) = {GramTileAvx512, GramTileAvx2, GramTileBase};
    void (*const tile)(PetscInt, const double *const *, const double *const *, CAKv8 *)     = tiles[CAKrylovISA()];
    const PetscInt nt = (k + 3) / 4, n8 = n - n % 8;
    CAKv8         *acc                              = (CAKv8 *)work;
    double        *tail                             = work + 16 * 8 * (nt * (nt + 1) / 2); /* the last n % 8 rows, padded with zeros to 8 */
    const double  *col[4 * CAKRYLOV_GRAM_MAX_TILES] = {NULL}, *tcol[4 * CAKRYLOV_GRAM_MAX_TILES] = {NULL};

    PetscCheck(nt <= CAKRYLOV_GRAM_MAX_TILES, PETSC_COMM_SELF, PETSC_ERR_SUP, "CAKrylovGram() of %" PetscInt_FMT " columns: at most %d", k, 4 * CAKRYLOV_GRAM_MAX_TILES);
    for (PetscInt a = 0; a < k; a++) {
      col[a]  = V + (size_t)a * (size_t)ld;
      tcol[a] = tail + 8 * a;
      for (PetscInt i = 0; i < 8; i++) tail[8 * a + i] = n8 + i < n ? col[a][n8 + i] : 0.0;
    }
    for (PetscInt q = 0; q < 16 * (nt * (nt + 1) / 2); q++) acc[q] = (CAKv8){0};
    for (PetscInt r0 = 0; r0 < n8; r0 += CAKRYLOV_GRAM_ROWS) GramBlock(tile, k, col, r0, PetscMin(CAKRYLOV_GRAM_ROWS, n8 - r0), acc);
    if (n8 < n) GramBlock(tile, k, tcol, 0, 8, acc);
    for (PetscInt ta = 0; ta < nt; ta++)
      for (PetscInt tb = ta; tb < nt; tb++, acc += 16)
        for (PetscInt p = 0; p < 4; p++)
          for (PetscInt q = 0; q < 4; q++) {
            const PetscInt a = 4 * ta + p, b = 4 * tb + q;
            const CAKv8    l = acc[4 * p + q];

            if (a < k && b < k && a <= b) S[a + b * k] = S[b + a * k] = ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));
          }
  }
#else
  {
    const PetscScalar one = 1.0, zero = 0.0;
    PetscBLASInt      bk, bn, bld;

    (void)work;
    PetscCall(PetscBLASIntCast(k, &bk));
    PetscCall(PetscBLASIntCast(n, &bn));
    PetscCall(PetscBLASIntCast(ld, &bld));
    if (n > 0) PetscCallBLAS("BLASgemm", BLASgemm_("T", "N", &bk, &bk, &bn, &one, V, &bld, V, &bld, &zero, S, &bk));
    else PetscCall(PetscArrayzero(S, k * k));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The transpose kernel: dst[b ldd + a] = src[a lds + b] for a < na, b < nb, in tiles of 8 x 8: 8 vector loads along b,
   24 two-vector shuffles (pairs, then pairs of pairs, then halves), 8 vector stores along a; the edges entry by entry.
   It turns column-major blocks into the interleaved layout and back (CAKrylovMatMultColumns()).
*/
#if defined(CAKRYLOV_SPMV_VECTOR)
typedef long long CAKi8 __attribute__((vector_size(64)));

  #define CAKRYLOV_TRANSPOSE(name, attr, STREAM) \
    static attr void name(PetscInt na8, PetscInt nb8, const double *PETSC_RESTRICT scale, const double *PETSC_RESTRICT src, PetscInt lds, double *PETSC_RESTRICT dst, PetscInt ldd, PetscBool stream) \
    { \
      for (PetscInt a0 = 0; a0 < na8; a0 += 8) \
        for (PetscInt b0 = 0; b0 < nb8; b0 += 8) { \
          CAKv8 v[8], p[8], q[8]; \
          _Pragma("GCC unroll 8") for (PetscInt k = 0; k < 8; k++) v[k] = *(const CAKv8 *)(src + (size_t)(a0 + k) * (size_t)lds + b0); \
          _Pragma("GCC unroll 4") for (PetscInt k = 0; k < 8; k += 2) \
          { /* p[k] = (v[k][0], v[k+1][0], v[k][2], v[k+1][2], ...), p[k+1] the odd entries */ \
            p[k]     = __builtin_shuffle(v[k], v[k + 1], (CAKi8){0, 8, 2, 10, 4, 12, 6, 14}); \
            p[k + 1] = __builtin_shuffle(v[k], v[k + 1], (CAKi8){1, 9, 3, 11, 5, 13, 7, 15}); \
          } \
          _Pragma("GCC unroll 2") for (PetscInt k = 0; k < 8; k += 4) /* q[k + e]: entries e and e + 4 of v[k .. k + 3], e = 0, 1, 2, 3 */ \
            _Pragma("GCC unroll 2") for (PetscInt e = 0; e < 2; e++) \
          { \
            q[k + e]     = __builtin_shuffle(p[k + e], p[k + 2 + e], (CAKi8){0, 1, 8, 9, 4, 5, 12, 13}); \
            q[k + 2 + e] = __builtin_shuffle(p[k + e], p[k + 2 + e], (CAKi8){2, 3, 10, 11, 6, 7, 14, 15}); \
          } \
          _Pragma("GCC unroll 4") for (PetscInt e = 0; e < 4; e++) \
          { /* entries e and e + 4 of v[0 .. 7], times scale[b] */ \
            CAKv8 lo = __builtin_shuffle(q[e], q[4 + e], (CAKi8){0, 1, 2, 3, 8, 9, 10, 11}), hi = __builtin_shuffle(q[e], q[4 + e], (CAKi8){4, 5, 6, 7, 12, 13, 14, 15}); \
            if (scale) { \
              lo *= scale[b0 + e]; \
              hi *= scale[b0 + e + 4]; \
            } \
            CAKRYLOV_STORE(STREAM, stream, dst + (size_t)(b0 + e) * (size_t)ldd + a0, lo); \
            CAKRYLOV_STORE(STREAM, stream, dst + (size_t)(b0 + e + 4) * (size_t)ldd + a0, hi); \
          } \
        } \
      if (stream) _mm_sfence(); /* the streaming stores ordered before what follows */ \
    }
CAKRYLOV_TRANSPOSE(TransposeAvx512, __attribute__((target("avx512f"))), CAKRYLOV_STREAM_AVX512)
CAKRYLOV_TRANSPOSE(TransposeAvx2, __attribute__((target("avx2"))), CAKRYLOV_STREAM_AVX2)
CAKRYLOV_TRANSPOSE(TransposeBase, , CAKRYLOV_STREAM_BASE)
#endif

/*
  CAKrylovTranspose - dst[b ldd + a] = scale[b] src[a lds + b] for a < na, b < nb (src and dst do not overlap; scale NULL:
  dst[b ldd + a] = src[a lds + b])

  Not Collective

  Notes:
  Each entry is one product of two numbers, so it rounds as a VecScale() of dst's line b after the transpose would.
  stream: dst is written with streaming stores where its 8-entry pieces start on a 64-byte boundary (a dst that no cache
  would keep until it is read: the store then moves its bytes once, where a normal store first reads the line).
*/
void CAKrylovTranspose(PetscInt na, PetscInt nb, const PetscScalar scale[], const PetscScalar src[], PetscInt lds, PetscScalar dst[], PetscInt ldd, PetscBool stream)
{
  PetscInt na8 = 0, nb8 = 0;

#if defined(CAKRYLOV_SPMV_VECTOR)
  void (*const kernels[3])(PetscInt, PetscInt, const double *, const double *, PetscInt, double *, PetscInt, PetscBool) = {TransposeAvx512, TransposeAvx2, TransposeBase};
  void (*const kernel)(PetscInt, PetscInt, const double *, const double *, PetscInt, double *, PetscInt, PetscBool)     = kernels[CAKrylovISA()];

  na8 = na - na % 8;
  nb8 = nb - nb % 8;
  kernel(na8, nb8, scale, src, lds, dst, ldd, stream);
#else
  (void)stream;
#endif
  for (PetscInt a = 0; a < na; a++) /* the edges: b >= nb8 on every line, then the lines a >= na8 */
    for (PetscInt b = a < na8 ? nb8 : 0; b < nb; b++) dst[(size_t)b * ldd + a] = scale ? scale[b] * src[(size_t)a * lds + b] : src[(size_t)a * lds + b];
}
