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
#define CAKRYLOV_VEC_MAX_UPDATES 8
#define CAKRYLOV_VEC_MAX_DOTS    8

PetscBool CAKrylovVecFusedForceFallback = PETSC_FALSE;

/* -cakrylov_vec_fallback <bool>: read at every solve, so one program can compare both paths */
PetscErrorCode CAKrylovVecFusedSetFromOptions(PetscObject obj)
{
  PetscFunctionBegin;
  CAKrylovVecFusedForceFallback = PETSC_FALSE;
  PetscCall(PetscOptionsGetBool(obj->options, NULL, "-cakrylov_vec_fallback", &CAKrylovVecFusedForceFallback, NULL));
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
  Vec      vec[CAKRYLOV_VEC_FUSED_MAX], loc[CAKRYLOV_VEC_FUSED_MAX];
  PetscInt nv = 0, ix[CAKRYLOV_VEC_MAX_DOTS], iy[CAKRYLOV_VEC_MAX_DOTS];
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
  Each update is y <- sum_k a[k] x[k] + b y with 1..3 inputs; with b == 0 the old y is not read. A vector
  written by one update may be read by later ones and by the dots. Logged as event CAKVecFused with the
  flops of the group; written vectors get their object state increased (VecRestoreArray()).
*/
PetscErrorCode CAKrylovVecFused(PetscInt nu, const CAKrylovVecUpdate u[], PetscInt nd, const Vec dx[], const Vec dy[], PetscScalar dot[])
{
  Vec            vec[CAKRYLOV_VEC_FUSED_MAX];
  PetscBool      written[CAKRYLOV_VEC_FUSED_MAX], fast = CAKrylovVecFusedForceFallback ? PETSC_FALSE : PETSC_TRUE;
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
