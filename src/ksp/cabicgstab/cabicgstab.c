/*
   KSPCABICGSTAB: s-step (communication-avoiding) BiCGStab, Algorithm 2 of
   Williams, Lijewski, Almgren, Van Straalen, Carson, Knight, Demmel (IPDPS 2014).

   Per outer iteration (s inner iterations of BiCGStab):
     P = basis of K_{2s+1}(Â, p),  R = basis of K_{2s}(Â, r)            (4s-1 operator applications)
     [g, G] = [P, R]^T [rt, P, R]                                       (one local GEMM + ONE MPI_Allreduce)
     s BiCGStab iterations on length-(4s+1) coordinate vectors a, c, d, e, using T' for Â and G, g for dots
     [p, r, dx] = [P, R] [a, c, e]                                      (one local GEMM)
   where Â = A M^{-1} (right preconditioning, the default) or M^{-1} A (left).

   Storage: one contiguous local block V (ld x (4s+2)) holding the columns [rt | P | R], so that the Gram
   matrix and the rebuild are single BLAS-3 calls. With telescoping, outer iteration k uses
   s_k = min(s, 2^k) and R starts right after the 2 s_k + 1 columns of P.
*/
#include "cabicgstabimpl.h"
#include <petsc/private/pcimpl.h>
#include <petscblaslapack.h>

#define KSPCABICGSTAB_CHECK_FRACTION 0.01 /* a converged solve checks b - A x when the drift estimate exceeds this fraction of the tolerance */

const char *const KSPCABiCGStabBases[] = {"monomial", "newton", "chebyshev", "KSPCABiCGStabBasis", "KSP_CABICGSTAB_BASIS_", NULL};

/* y = Â x: A M^{-1} x (right) or M^{-1} A x (left); just A x with the identity preconditioner */
PetscErrorCode KSPCABiCGStabApplyOperator(KSP ksp, Vec x, Vec y)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;

  PetscFunctionBegin;
  if (cab->identity_pc) PetscCall(CAKrylovKSPMatMult(ksp, x, y));
  else PetscCall(KSP_PCApplyBAorAB(ksp, x, y, cab->t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The recurrence's shift and scaling on n entries of v_{i+1} = Â v_i: v_{i+1} = (Â v_i - theta_i v_i - sigma_i v_{i-1}) / gamma_i,
   one pass as g v_{i+1} + a v_i + b v_{i-1} (g = 1 / gamma_i, a = -theta_i g, b = -sigma_i g; v_{i-1} read only where
   sigma_i != 0); the single solve's vectors and the block's columns (block.c) alike, so that a column's bits are its
   single solve's. Returns the flops. */
PetscLogDouble KSPCABiCGStabShiftAndScaleLocal(const KSP_CABiCGStab *cab, PetscInt i, PetscInt n, PetscScalar *w, const PetscScalar *v, const PetscScalar *u)
{
  const PetscScalar g = 1.0 / cab->gamma[i], a = -cab->theta[i] * g, b = -cab->sigma[i] * g;

  if (i > 0 && cab->sigma[i] != 0.0) {
    for (PetscInt k = 0; k < n; k++) w[k] = a * v[k] + b * u[k] + g * w[k];
    return 5.0 * n;
  }
  if (cab->theta[i] != 0.0) {
    for (PetscInt k = 0; k < n; k++) w[k] = a * v[k] + g * w[k];
    return 3.0 * n;
  }
  if (g == 1.0) return 0.0;
  for (PetscInt k = 0; k < n; k++) w[k] = g * w[k];
  return (PetscLogDouble)n;
}

/* KSPCABiCGStabShiftAndScaleLocal() on the vectors v[i + 1], v[i], v[i - 1] */
PetscErrorCode KSPCABiCGStabShiftAndScale(KSP_CABiCGStab *cab, Vec v[], PetscInt i)
{
  const PetscBool    three = i > 0 && cab->sigma[i] != 0.0 ? PETSC_TRUE : PETSC_FALSE;
  PetscScalar       *w;
  const PetscScalar *x, *y = NULL;
  PetscInt           n;

  PetscFunctionBegin;
  if (!three && cab->theta[i] == 0.0 && cab->gamma[i] == 1.0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecGetLocalSize(v[i + 1], &n));
  PetscCall(VecGetArray(v[i + 1], &w));
  PetscCall(VecGetArrayRead(v[i], &x));
  if (three) PetscCall(VecGetArrayRead(v[i - 1], &y));
  PetscCall(PetscLogFlops(KSPCABiCGStabShiftAndScaleLocal(cab, i, n, w, x, y)));
  if (three) PetscCall(VecRestoreArrayRead(v[i - 1], &y));
  PetscCall(VecRestoreArrayRead(v[i], &x));
  PetscCall(VecRestoreArray(v[i + 1], &w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* v[1..n-1] from v[0] by the basis recurrence */
static PetscErrorCode KSPCABiCGStabBuildBasis(KSP ksp, Vec v[], PetscInt n)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;

  PetscFunctionBegin;
  for (PetscInt i = 0; i + 1 < n; i++) {
    PetscCall(KSPCABiCGStabApplyOperator(ksp, v[i], v[i + 1]));
    PetscCall(KSPCABiCGStabShiftAndScale(cab, v, i));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabPairDestroy(KSP_CABiCGStab *cab)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i <= KSPCABICGSTAB_S_MAX; i++) {
    PetscCall(MatDestroy(&cab->pair_in[i]));
    PetscCall(MatDestroy(&cab->pair_out[i]));
    PetscCall(MatDestroy(&cab->pair_work[i]));
  }
  cab->pair_mode = KSPCABICGSTAB_PAIR_NONE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An n x 2 dense matrix on the columns array and array + lda (NULL: its own storage) */
static PetscErrorCode KSPCABiCGStabPairView(KSP ksp, PetscScalar *array, PetscInt lda, Mat *M)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;
  PetscLayout     rows;

  PetscFunctionBegin;
  PetscCall(VecGetLayout(cab->t, &rows));
  PetscCall(CAKrylovMatCreateDense(rows, 2, array, lda, M)); /* no reduction: created at a new s_k, inside a solve */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* C = A B (MATPRODUCT_AB) or A^T B (MATPRODUCT_AtB) as a MatProduct: symbolic now, numeric per use. Where PETSc has no block
   kernel for the matrix type, its MatProduct multiplies column by column (-info says so) */
static PetscErrorCode KSPCABiCGStabPairProduct(Mat A, MatProductType type, Mat B, Mat C)
{
  PetscFunctionBegin;
  PetscCall(MatProductCreateWithMat(A, B, NULL, C));
  PetscCall(MatProductSetType(C, type));
  PetscCall(MatProductSetFromOptions(C));
  PetscCall(MatProductSymbolic(C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The dense views of outer iterations with s_k: [P_i, R_i] are columns 1 + i and 1 + (2s_k+1) + i of V, so an n x 2 matrix with
   leading dimension (2s_k+1) ld placed at column 1 + i sees both. Set up once per s_k and kept (telescoping uses few s_k); the
   products are of A^T in KSPSolveTranspose().
*/
static PetscErrorCode KSPCABiCGStabPairSetUp(KSP ksp, PetscInt sk)
{
  KSP_CABiCGStab             *cab  = (KSP_CABiCGStab *)ksp->data;
  const KSPCABiCGStabPairMode mode = cab->identity_pc ? KSPCABICGSTAB_PAIR_A : (ksp->pc_side == PC_RIGHT ? KSPCABICGSTAB_PAIR_A_MINV : KSPCABICGSTAB_PAIR_MINV_A);
  const MatProductType        type = ksp->transpose_solve ? MATPRODUCT_AtB : MATPRODUCT_AB;
  const PetscInt              lda  = (2 * sk + 1) * cab->ldv;
  Mat                         Amat;
  PetscObjectId               id;
  PetscObjectState            nz;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &Amat, NULL));
  PetscCall(PetscObjectGetId((PetscObject)Amat, &id));
  PetscCall(MatGetNonzeroState(Amat, &nz));
  if (cab->pair_mode != KSPCABICGSTAB_PAIR_NONE && (cab->pair_mode != mode || cab->pair_transpose != ksp->transpose_solve || cab->pair_amat_id != id || cab->pair_amat_nz != nz))
    PetscCall(KSPCABiCGStabPairDestroy(cab)); /* PC, side, transpose or matrix changed */
  if (cab->pair_out[sk]) PetscFunctionReturn(PETSC_SUCCESS);
  cab->pair_mode      = mode;
  cab->pair_transpose = ksp->transpose_solve;
  cab->pair_amat_id   = id;
  cab->pair_amat_nz   = nz;
  PetscCall(KSPCABiCGStabPairView(ksp, cab->V + cab->ldv, lda, &cab->pair_in[sk]));
  PetscCall(KSPCABiCGStabPairView(ksp, cab->V + 2 * cab->ldv, lda, &cab->pair_out[sk]));
  switch (mode) {
  case KSPCABICGSTAB_PAIR_NONE:
    break;
  case KSPCABICGSTAB_PAIR_A: /* [P, R]_{i+1} = A [P, R]_i */
    PetscCall(KSPCABiCGStabPairProduct(Amat, type, cab->pair_in[sk], cab->pair_out[sk]));
    break;
  case KSPCABICGSTAB_PAIR_A_MINV: /* Z = M^{-1} [P, R]_i, [P, R]_{i+1} = A Z */
    if (!cab->pair_work[0]) PetscCall(KSPCABiCGStabPairView(ksp, NULL, 0, &cab->pair_work[0]));
    PetscCall(KSPCABiCGStabPairProduct(Amat, type, cab->pair_work[0], cab->pair_out[sk]));
    break;
  case KSPCABICGSTAB_PAIR_MINV_A: /* Z = A [P, R]_i, [P, R]_{i+1} = M^{-1} Z */
    PetscCall(KSPCABiCGStabPairView(ksp, NULL, 0, &cab->pair_work[sk]));
    PetscCall(KSPCABiCGStabPairProduct(Amat, type, cab->pair_in[sk], cab->pair_work[sk]));
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Z = M^{-1} X for two columns with PCMatApply(); Z = M^{-T} X in KSPSolveTranspose(), column by column (PETSc 3.18 has no
   PCMatApplyTranspose()) */
static PetscErrorCode KSPCABiCGStabPairPCApply(KSP ksp, Mat X, Mat Z)
{
  PetscFunctionBegin;
  if (!ksp->transpose_solve) {
    PetscCall(PCMatApply(ksp->pc, X, Z));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt j = 0; j < 2; j++) {
    Vec x, z;

    PetscCall(MatDenseGetColumnVecRead(X, j, &x));
    PetscCall(MatDenseGetColumnVecWrite(Z, j, &z));
    PetscCall(PCApplyTranspose(ksp->pc, x, z));
    PetscCall(MatDenseRestoreColumnVecWrite(Z, j, &z));
    PetscCall(MatDenseRestoreColumnVecRead(X, j, &x));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* [P_{i+1}, R_{i+1}] = Â [P_i, R_i] (Â^T in KSPSolveTranspose()): one pass over the matrix and one halo exchange for both columns,
   then the null space removed from both as KSP_PCApplyBAorAB() removes it (left preconditioning) */
static PetscErrorCode KSPCABiCGStabApplyOperatorPair(KSP ksp, PetscInt sk, PetscInt i)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;
  Mat             X = cab->pair_in[sk], Y = cab->pair_out[sk];

  PetscFunctionBegin;
  PetscCall(MatDensePlaceArray(X, cab->V + (1 + i) * (size_t)cab->ldv));
  PetscCall(MatDensePlaceArray(Y, cab->V + (2 + i) * (size_t)cab->ldv));
  switch (cab->pair_mode) {
  case KSPCABICGSTAB_PAIR_NONE:
    break;
  case KSPCABICGSTAB_PAIR_A: /* [P, R]_{i+1} = A [P, R]_i (A^T [P, R]_i) */
    PetscCall(MatProductNumeric(Y));
    break;
  case KSPCABICGSTAB_PAIR_A_MINV: /* [P, R]_{i+1} = A (M^{-1} [P, R]_i) (A^T (M^{-T} [P, R]_i)) */
    PetscCall(KSPCABiCGStabPairPCApply(ksp, X, cab->pair_work[0]));
    PetscCall(MatProductNumeric(Y));
    break;
  case KSPCABICGSTAB_PAIR_MINV_A: /* [P, R]_{i+1} = M^{-1} (A [P, R]_i) (M^{-T} (A^T [P, R]_i)) */
    PetscCall(MatProductNumeric(cab->pair_work[sk]));
    PetscCall(KSPCABiCGStabPairPCApply(ksp, cab->pair_work[sk], Y));
    break;
  }
  PetscCall(MatDenseResetArray(X));
  PetscCall(MatDenseResetArray(Y));
  for (PetscInt j = 0; j < 2; j++) {
    Vec y = cab->Vcol[2 + i + j * (2 * sk + 1)];

    PetscCall(PetscObjectStateIncrease((PetscObject)y)); /* V changed under its Vecs */
    if (ksp->transpose_solve) PetscCall(KSP_RemoveNullSpaceTranspose(ksp, y));
    else PetscCall(KSP_RemoveNullSpace(ksp, y));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Do the paired products apply the Â of KSP_PCApplyBAorAB()? Not when the PC applies B A itself (PCShellSetApplyBA()) or
   scales the system diagonally (PCSetDiagonalScale()): then the bases are built column by column */
PetscErrorCode KSPCABiCGStabPairable(KSP ksp, PetscBool *pairable)
{
  PetscBool scaled;

  PetscFunctionBegin;
  PetscCall(CAKrylovPCGetDiagonalScale(ksp->pc, &scaled));
  *pairable = !scaled && !(ksp->transpose_solve ? ksp->pc->ops->applyBAtranspose : ksp->pc->ops->applyBA) ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* P = [p, rho_1(Â) p, ..., rho_2s(Â) p] and R = [r, ..., rho_{2s-1}(Â) r] in V: column by column, or in pairs [P_i, R_i] */
static PetscErrorCode KSPCABiCGStabBuildBases(KSP ksp, PetscInt sk)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;
  const PetscInt  iR0 = 2 * sk + 1;
  Vec            *P = cab->Vcol + 1, *R = cab->Vcol + 1 + iR0;

  PetscFunctionBegin;
  if (!cab->pairs) {
    PetscCall(KSPCABiCGStabBuildBasis(ksp, P, 2 * sk + 1));
    PetscCall(KSPCABiCGStabBuildBasis(ksp, R, 2 * sk));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(KSPCABiCGStabPairSetUp(ksp, sk));
  for (PetscInt i = 0; i + 1 < 2 * sk; i++) { /* R has one power less than P */
    PetscCall(KSPCABiCGStabApplyOperatorPair(ksp, sk, i));
    PetscCall(KSPCABiCGStabShiftAndScale(cab, P, i));
    PetscCall(KSPCABiCGStabShiftAndScale(cab, R, i));
  }
  PetscCall(KSPCABiCGStabApplyOperator(ksp, P[2 * sk - 1], P[2 * sk]));
  PetscCall(KSPCABiCGStabShiftAndScale(cab, P, 2 * sk - 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* T' (nb x nb, column-major) for s_k: the recurrence of P in the leading 2s_k+1 block, of R in the trailing 2s_k block; the last column of each block is zero */
static PetscErrorCode KSPCABiCGStabBuildT(KSP_CABiCGStab *cab, PetscInt sk)
{
  const PetscInt nb = 4 * sk + 1, off[2] = {0, 2 * sk + 1}, len[2] = {2 * sk + 1, 2 * sk};

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(cab->Tp, nb * nb));
  for (PetscInt b = 0; b < 2; b++) {
    for (PetscInt i = 0; i + 1 < len[b]; i++) {
      const PetscInt col = off[b] + i;

      cab->Tp[(col + 1) + nb * col] = cab->gamma[i];
      cab->Tp[col + nb * col]       = cab->theta[i];
      if (i > 0) cab->Tp[(col - 1) + nb * col] = cab->sigma[i];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The coordinate vectors of p, r and q in the basis [P, R] fill in from the front of each of its two blocks (by inner
   iteration j about 2j + 1 of P's entries and 2j of R's), so early in an outer iteration most of them are exact
   zeros. The products with the Gram matrix G below take only the columns k where x_k != 0 and compute only the rows
   that are read: each term G_ik x_k left out is an exact zero (G is finite where the iteration goes on), so every
   sum has the bits of the sum over all n, in the same order, for about a third of the multiply-adds over an outer
   iteration.
*/

/* The indices i < n, in increasing order, where x_i != 0 or (y given) y_i != 0; returns their number */
static PetscInt KSPCABiCGStabSupport(PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscInt *idx)
{
  PetscInt k = 0;

  for (PetscInt i = 0; i < n; i++)
    if (x[i] != 0.0 || (y && y[i] != 0.0)) idx[k++] = i;
  return k;
}

/* y = A x for a small dense n x n matrix A with leading dimension lda, where x vanishes outside cols[0..ncols) and y is
   read only in rows[0..nrows) (both increasing): those rows summed over those columns, in column order, the others 0 */
static void KSPCABiCGStabDenseMult(PetscInt n, const PetscScalar *A, PetscInt lda, const PetscScalar *x, PetscInt ncols, const PetscInt *cols, PetscInt nrows, const PetscInt *rows, PetscScalar *y)
{
  for (PetscInt i = 0; i < n; i++) y[i] = 0.0;
  for (PetscInt k = 0; k < ncols; k++) {
    const PetscScalar *Aj = A + lda * cols[k], xj = x[cols[k]];

    for (PetscInt l = 0; l < nrows; l++) y[rows[l]] += Aj[rows[l]] * xj;
  }
}

/* y = T' x: T' (KSPCABiCGStabBuildT()) is tridiagonal, so row i sums its three entries in column order (the same bits
   as the dense product for finite x, where the other entries add exact zeros), 3 nb multiply-adds for nb^2 */
static void KSPCABiCGStabTMult(PetscInt n, const PetscScalar *T, const PetscScalar *x, PetscScalar *y)
{
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar sum = 0.0;

    if (i > 0) sum += T[i + n * (i - 1)] * x[i - 1];
    sum += T[i + n * i] * x[i];
    if (i + 1 < n) sum += T[i + n * (i + 1)] * x[i + 1];
    y[i] = sum;
  }
}

/* (x, y) of two length-n coordinate vectors (real scalars) */
static PetscScalar KSPCABiCGStabDenseDot(PetscInt n, const PetscScalar *x, const PetscScalar *y)
{
  PetscScalar sum = 0.0;

  for (PetscInt i = 0; i < n; i++) sum += x[i] * y[i];
  return sum;
}

/* sum_i |x_i| ||y_i||: a bound on ||[P, R] x|| and the scale of its rounding errors */
static PetscReal KSPCABiCGStabCoordinateScale(PetscInt nb, const PetscScalar *G, const PetscScalar *x)
{
  PetscReal sum = 0.0;

  for (PetscInt i = 0; i < nb; i++) sum += PetscAbsScalar(x[i]) * PetscSqrtReal(PetscAbsScalar(G[i + nb * i]));
  return sum;
}

/*
   Is the squared norm (x, G x) of the vector [P, R] x resolved by the Gram matrix? Its rounding error is of the order
   of eps (sum_i |x_i| ||y_i||)^2, with ||y_i|| = G_ii^{1/2}; below a safe multiple of that, the value (even its sign) is
   noise. Sets idx (n entries) to the support of x, Gx = G x (in the rows where x_i != 0, the only ones (x, G x) reads;
   0 in the others) and *xGx = (x, G x).
*/
#define KSPCABICGSTAB_GRAM_RESOLUTION (16.0 * PETSC_MACHINE_EPSILON)
static PetscBool KSPCABiCGStabGramResolved(PetscInt n, const PetscScalar *G, const PetscScalar *x, PetscInt *idx, PetscScalar *Gx, PetscReal *xGx)
{
  const PetscReal scale = KSPCABiCGStabCoordinateScale(n, G, x);
  const PetscInt  nnz   = KSPCABiCGStabSupport(n, x, NULL, idx);

  KSPCABiCGStabDenseMult(n, G, n, x, nnz, idx, nnz, idx, Gx);
  *xGx = PetscRealPart(KSPCABiCGStabDenseDot(n, x, Gx));
  return *xGx > KSPCABICGSTAB_GRAM_RESOLUTION * scale * scale ? PETSC_TRUE : PETSC_FALSE;
}

/* The numbers the Gram reduction of an outer iteration with nb basis columns sends */
PetscInt KSPCABiCGStabGramCount(KSP_CABiCGStab *cab, PetscInt nb)
{
  return cab->symmetric ? nb + nb * (nb + 1) / 2 : nb * (nb + 1);
}

/*
   [g, G] = [P, R]^T [rt, P, R] of an outer iteration with nb basis columns, in three steps so that a block solve
   (KSPMatSolve(), block.c) reduces the Gram matrices of all its columns in one message: the local GEMM over the
   contiguous block, packed into buf (KSPCABiCGStabGramCount() numbers: g and, with the symmetric reduction, only the
   upper triangle of the symmetric G = [P, R]^T [P, R]); the global sum of buf; the reduced buf unpacked into [g, G].
*/
/* Bytes of an outer iteration's reduction at s: nb = 4 s + 1 basis vectors, g and the upper triangle of G */
PetscInt KSPCABiCGStabGramBytes(PetscInt s)
{
  const PetscInt nb = 4 * s + 1;

  return (PetscInt)sizeof(PetscScalar) * (nb + nb * (nb + 1) / 2);
}

/*
   The cost of one outer iteration at s for KSPAUTOBCGS's model: 4 s - 1 operator applications and 4 s preconditioner
   applications (the bases, and x += M^{-1} dx); the vector passes: each of the 4 s - 1 new basis vectors shifted and
   scaled by KSPCABiCGStabShiftAndScale() (a VecAXPBYPCZ(), 4 passes, with the Newton and Chebyshev bases; a VecScale(),
   2, with the monomial one), 4 copies and x += dx (3): 16 s + 1, monomial 8 s + 5; the Gram matrix's local GEMM
   (2 n nb (nb + 1) flops, or reading its nb + 1 columns if that is slower); the rebuild of p, r, dx,
   KSPCABiCGStabCombine(), a GEMM of 3 columns (2 n nb 3 flops at its own measured rate, or reading nb columns and
   writing 3 if that is slower: charged as nb + 3 vector passes it was 2.5x faster in the model than in the solve, and
   every cabicgstab candidate 9-16 % too fast, share/bench/results/auto-combine-1129/); and one blocking reduction of
   KSPCABiCGStabGramBytes(s)
*/
static PetscReal KSPCABiCGStabTimePerOuter(const CAKrylovCosts *c, PetscInt s, KSPCABiCGStabBasis basis)
{
  const PetscReal nb = 4 * s + 1, gemm = PetscMax(2 * c->nloc * nb * (nb + 1) / c->gemm_rate, (nb + 1) * c->vec);
  const PetscReal combine = PetscMax(2 * c->nloc * nb * 3 / c->combine_rate, (nb + 3) * c->vec);
  const PetscReal passes  = basis == KSP_CABICGSTAB_BASIS_MONOMIAL ? 8 * s + 5 : 16 * s + 1;

  return (4 * s - 1) * c->spmv + 4 * s * c->pc + passes * c->vec + gemm + combine + CAKrylovCostsReduction(c, KSPCABiCGStabGramBytes(s));
}

/* The cost per iteration of a solve of `its` iterations at s: its outer iterations, s_k = 1, 2, 4, ... up to s with
   telescoping, each a whole outer iteration (the last one's basis is built in full however few steps it takes) */
PetscReal KSPCABiCGStabTimePerIteration(const CAKrylovCosts *c, PetscInt s, KSPCABiCGStabBasis basis, PetscBool telescope, PetscReal its)
{
  PetscReal total = 0, done = 0;

  for (PetscInt sk = telescope ? 1 : s; sk < s && done < its; sk *= 2) {
    total += KSPCABiCGStabTimePerOuter(c, sk, basis);
    done += sk;
  }
  if (done < its) total += PetscCeilReal((its - done) / s) * KSPCABiCGStabTimePerOuter(c, s, basis);
  return total / its;
}

/* [g, G] of this KSP's bases, local, into buf as the reduction sends it; work: a gram_work of nb or more (the block's
   columns share their block KSP's: it is needed only here) */
PetscErrorCode KSPCABiCGStabGramLocal(KSP ksp, PetscInt nb, PetscScalar *work, PetscScalar *buf)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;
  PetscScalar    *g = cab->GG, *G = cab->GG + nb, *S = work; /* S = [rt, P, R]^T [rt, P, R], (nb + 1) x (nb + 1) */
  const PetscInt  k = nb + 1;

  PetscFunctionBegin;
  PetscCall(CAKrylovGram(cab->nloc, k, cab->V, cab->ldv, work + k * k, S));
  PetscCall(PetscLogFlops(1.0 * cab->nloc * k * (k + 1)));
  for (PetscInt i = 0; i < nb; i++) g[i] = S[i + 1]; /* g_i = (P, R)_i^T rt */
  for (PetscInt j = 0; j < nb; j++)
    for (PetscInt i = 0; i < nb; i++) G[i + j * nb] = S[i + 1 + (j + 1) * k];
  if (!cab->symmetric) PetscCall(PetscArraycpy(buf, cab->GG, nb * (nb + 1)));
  else {
    for (PetscInt i = 0; i < nb; i++) *buf++ = g[i];
    for (PetscInt j = 0; j < nb; j++)
      for (PetscInt i = 0; i <= j; i++) *buf++ = G[i + j * nb]; /* G_ij, i <= j */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPCABiCGStabGramUnpack(KSP ksp, PetscInt nb, const PetscScalar *buf)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;
  PetscScalar    *g = cab->GG, *G = cab->GG + nb;

  PetscFunctionBegin;
  if (!cab->symmetric) PetscCall(PetscArraycpy(cab->GG, buf, nb * (nb + 1)));
  else {
    for (PetscInt i = 0; i < nb; i++) g[i] = *buf++;
    for (PetscInt j = 0; j < nb; j++)
      for (PetscInt i = 0; i <= j; i++) G[i + j * nb] = G[j + i * nb] = *buf++; /* G_ji = G_ij */
  }
  cab->stats.reductions++;
  cab->stats.outer++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* [g, G] with the ONE global reduction of the outer iteration */
static PetscErrorCode KSPCABiCGStabGram(KSP ksp, PetscInt nb)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;
  PetscMPIInt     count;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(CAKRYLOV_CAGram, ksp, 0, 0, 0));
  PetscCall(PetscMPIIntCast(KSPCABiCGStabGramCount(cab, nb), &count));
  PetscCall(KSPCABiCGStabGramLocal(ksp, nb, cab->gram_work, cab->packed));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, cab->packed, count, MPIU_SCALAR, MPIU_SUM, PetscObjectComm((PetscObject)ksp)));
  PetscCall(KSPCABiCGStabGramUnpack(ksp, nb, cab->packed));
  PetscCall(PetscLogEventEnd(CAKRYLOV_CAGram, ksp, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* W(:, first : first+ncols) = [P, R] coef(:, first : first+ncols): one local GEMM (no communication) */
static PetscErrorCode KSPCABiCGStabCombine(KSP ksp, PetscInt nb, PetscInt first, PetscInt ncols)
{
  KSP_CABiCGStab   *cab = (KSP_CABiCGStab *)ksp->data;
  const PetscScalar one = 1.0, zero = 0.0;
  PetscBLASInt      m, n, k;

  PetscFunctionBegin;
  PetscCall(PetscBLASIntCast(cab->nloc, &m));
  PetscCall(PetscBLASIntCast(ncols, &n));
  PetscCall(PetscBLASIntCast(nb, &k));
  if (m > 0) PetscCallBLAS("BLASgemm", BLASgemm_("N", "N", &m, &n, &k, &one, cab->V + cab->ldv, &cab->ldv, cab->coef + nb * first, &k, &zero, cab->W + (size_t)cab->ldw * first, &cab->ldw));
  PetscCall(PetscLogFlops(2.0 * cab->nloc * nb * ncols));
  for (PetscInt i = first; i < first + ncols; i++) PetscCall(PetscObjectStateIncrease((PetscObject)cab->Wcol[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = x + M^{-1} dx (right preconditioning) or x + dx (left), where dx = W(:,2) */
PetscErrorCode KSPCABiCGStabAddIncrement(KSP ksp, Vec x, Vec y)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;

  PetscFunctionBegin;
  if (y != x) PetscCall(VecCopy(x, y));
  if (ksp->pc_side == PC_RIGHT && !cab->identity_pc) {
    PetscCall(KSP_PCApply(ksp, cab->Wcol[2], cab->t));
    PetscCall(VecAXPY(y, 1.0, cab->t));
  } else PetscCall(VecAXPY(y, 1.0, cab->Wcol[2]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabNextIteration(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(CAKrylovKSPNextIteration(ksp));
  ((KSP_CABiCGStab *)ksp->data)->stats.inner++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||Â|| estimated as the largest ||Â y_i|| / ||y_i|| over the basis vectors, from ||Â y_i||^2 = (T'e_i, G T'e_i) (T' is tridiagonal) */
static PetscReal KSPCABiCGStabOperatorNorm(KSP_CABiCGStab *cab, PetscInt nb, const PetscScalar *G)
{
  PetscReal tau = 0.0;

  for (PetscInt i = 0; i < nb; i++) {
    const PetscInt lo = PetscMax(i - 1, 0), hi = PetscMin(i + 1, nb - 1);
    PetscReal      Ay2 = 0.0;

    for (PetscInt j = lo; j <= hi; j++)
      for (PetscInt l = lo; l <= hi; l++) Ay2 += PetscRealPart(cab->Tp[j + nb * i] * G[j + nb * l] * cab->Tp[l + nb * i]);
    if (Ay2 > 0.0 && PetscRealPart(G[i + nb * i]) > 0.0 && !PetscIsInfOrNanReal(Ay2) && !PetscIsInfOrNanScalar(G[i + nb * i])) tau = PetscMax(tau, PetscSqrtReal(Ay2 / PetscRealPart(G[i + nb * i])));
  }
  return tau;
}

/* r = b - A x, or M^{-1}(b - A x) with left preconditioning: one operator application, no reduction */
static PetscErrorCode KSPCABiCGStabTrueResidual(KSP ksp, Vec r)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;
  Mat             Amat;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &Amat, NULL));
  PetscCall(KSP_MatMult(ksp, Amat, ksp->vec_sol, r));
  PetscCall(VecAYPX(r, -1.0, ksp->vec_rhs));
  if (ksp->pc_side == PC_LEFT && !cab->identity_pc) {
    PetscCall(VecCopy(r, cab->t));
    PetscCall(KSP_PCApply(ksp, cab->t, r));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* r <- b - A x: its norm comes with the next Gram matrix; the drift starts again from the rounding of A x */
static PetscErrorCode KSPCABiCGStabReplaceResidual(KSP ksp, KSPCABiCGStabOuter *o)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;

  PetscFunctionBegin;
  PetscCall(KSPCABiCGStabTrueResidual(ksp, cab->Wcol[1]));
  o->drift = o->drift_init = PETSC_MACHINE_EPSILON * o->tau * o->xscale;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The solve claims convergence (x is current, p rebuilt in W(:,0)) while the drift estimate is not small against the
   tolerance: test the true residual itself (one operator application, one reduction). If it fails the test, the solve
   goes on from it by residual replacement: r = b - A x, with p and rt kept.
*/
static PetscErrorCode KSPCABiCGStabCheckConvergence(KSP ksp, KSPCABiCGStabOuter *o)
{
  KSP_CABiCGStab *cab     = (KSP_CABiCGStab *)ksp->data;
  PetscReal       updated = ksp->rnorm, rnorm;

  PetscFunctionBegin;
  PetscCall(KSPCABiCGStabTrueResidual(ksp, cab->Wcol[1]));
  PetscCall(VecNorm(cab->Wcol[1], NORM_2, &rnorm));
  cab->stats.reductions++;
  cab->stats.checks++;
  PetscCall(PetscObjectSAWsTakeAccess((PetscObject)ksp));
  ksp->rnorm  = rnorm; /* the norm the solve reports is the true one */
  ksp->reason = KSP_CONVERGED_ITERATING;
  PetscCall(PetscObjectSAWsGrantAccess((PetscObject)ksp));
  PetscCall((*ksp->converged)(ksp, ksp->its, rnorm, &ksp->reason, ksp->cnvP));
  PetscCall(PetscInfo(ksp, "Iteration %" PetscInt_FMT ": updated residual norm %g, true residual norm %g: %s\n", ksp->its, (double)updated, (double)rnorm, ksp->reason > 0 ? "converged" : "going on from the true residual"));
  if (ksp->reason) PetscFunctionReturn(PETSC_SUCCESS);
  cab->stats.checks_failed++;
  cab->stats.replacements++;
  o->drift = o->drift_init = PETSC_MACHINE_EPSILON * o->tau * o->xscale; /* r = b - A x already in W(:,1) */
  if (ksp->its >= ksp->max_it) ksp->reason = KSP_DIVERGED_ITS;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* s of outer iteration k: min(s, 2^k) with telescoping, s without; never more than adaptive s allows */
static PetscInt KSPCABiCGStabOuterS(KSP_CABiCGStab *cab, KSPCABiCGStabOuter *o)
{
  const PetscInt sk = (!cab->telescope || o->k >= 6) ? cab->s : PetscMin(cab->s, (PetscInt)1 << o->k); /* 2^6 > KSPCABICGSTAB_S_MAX */

  return PetscMin(sk, o->s_cap);
}

#define KSPCABICGSTAB_GRAM_TINY (1.0 / (PETSC_MACHINE_EPSILON * PETSC_MAX_REAL)) /* a squared norm this small has underflowing terms */

/*
   The monomial basis y_{i+1} = Â y_i / gamma grows like (||Â|| / gamma)^i: gamma is the power of 2 nearest to tau, the largest
   ||Â y_i|| / ||y_i|| each Gram matrix measures (no reduction of its own), for the next outer iteration. A power of 2 scales
   exactly: the iterates are those of the unscaled basis bit for bit, where that one neither overflows nor underflows. The first
   outer iteration of a solve uses the measure of the solve before (gamma = 1 before any), which a new operator may make
   wrong: if its Gram matrix is unusable (an entry not finite, or a squared norm near underflow) and the measure says another
   gamma, *again asks to build it again with that one (one reduction more, at most once per solve; later outer iterations use
   the measure of the one before, of the same operator).
*/
PetscErrorCode KSPCABiCGStabMonomialScale(KSP ksp, KSPCABiCGStabOuter *o, PetscBool *again)
{
  KSP_CABiCGStab *cab  = (KSP_CABiCGStab *)ksp->data;
  const PetscInt  nb   = o->nb;
  const PetscReal used = cab->mono_scale, tau = KSPCABiCGStabOperatorNorm(cab, nb, cab->GG + nb);
  PetscBool       usable = PETSC_TRUE;

  PetscFunctionBegin;
  *again = PETSC_FALSE;
  if (cab->basis != KSP_CABICGSTAB_BASIS_MONOMIAL || tau <= 0.0) PetscFunctionReturn(PETSC_SUCCESS);
  cab->mono_scale = PetscPowReal(2.0, PetscFloorReal(PetscLog2Real(tau) + 0.5));
  for (PetscInt i = 0; i < nb * (nb + 1); i++) usable = usable && !PetscIsInfOrNanScalar(cab->GG[i]) ? PETSC_TRUE : PETSC_FALSE;
  for (PetscInt i = 0; i < nb; i++) usable = usable && PetscRealPart(cab->GG[nb + i + nb * i]) >= KSPCABICGSTAB_GRAM_TINY ? PETSC_TRUE : PETSC_FALSE;
  if (!usable && cab->mono_scale != used && o->k == 0) {
    *again = PETSC_TRUE;
    PetscCall(PetscInfo(ksp, "Outer iteration %" PetscInt_FMT ": Gram matrix of the monomial basis unusable with scaling %g; again with %g (||A|| estimate %g)\n", o->k, (double)used, (double)cab->mono_scale, (double)tau));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The recurrence of this outer iteration's bases (the monomial one scaled by gamma = mono_scale) and T' */
PetscErrorCode KSPCABiCGStabBasesBegin(KSP ksp, KSPCABiCGStabOuter *o)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;

  PetscFunctionBegin;
  if (cab->basis == KSP_CABICGSTAB_BASIS_MONOMIAL)
    for (PetscInt i = 0; i < 2 * o->sk; i++) cab->gamma[i] = cab->mono_scale; /* y_{i+1} = Â y_i / gamma */
  PetscCall(KSPCABiCGStabBuildT(cab, o->sk));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The bases P and R from V[1] = p and V[1 + 2s_k + 1] = r with the current recurrence, T', and [g, G] with one reduction */
static PetscErrorCode KSPCABiCGStabBasesAndGram(KSP ksp, KSPCABiCGStabOuter *o)
{
  PetscFunctionBegin;
  PetscCall(KSPCABiCGStabBasesBegin(ksp, o));
  PetscCall(PetscLogEventBegin(CAKRYLOV_CABasis, ksp, 0, 0, 0));
  PetscCall(KSPCABiCGStabBuildBases(ksp, o->sk));
  PetscCall(PetscLogEventEnd(CAKRYLOV_CABasis, ksp, 0, 0, 0));
  PetscCall(KSPCABiCGStabGram(ksp, o->nb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Line 6 (its start): s_k of this outer iteration, and p, r (and rt = r after a restart) into V, where the bases grow from them */
PetscErrorCode KSPCABiCGStabOuterPrepare(KSP ksp, KSPCABiCGStabOuter *o)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;
  Vec             p, r, rt;

  PetscFunctionBegin;
  o->sk            = KSPCABiCGStabOuterS(cab, o);
  o->nb            = 4 * o->sk + 1; /* coordinates: P is 0 .. 2s_k, R is 2s_k+1 .. 4s_k */
  cab->stats.s_min = cab->stats.s_min ? PetscMin(cab->stats.s_min, o->s_cap) : o->s_cap;
  PetscCall(KSPCABiCGStabBasisVec(ksp, 1, &p));
  PetscCall(KSPCABiCGStabBasisVec(ksp, 2 + 2 * o->sk, &r));
  PetscCall(VecCopy(cab->Wcol[0], p));
  PetscCall(VecCopy(cab->Wcol[1], r));
  if (o->restart) PetscCall(KSPCABiCGStabBasisVec(ksp, 0, &rt));
  if (o->restart) PetscCall(VecCopy(cab->Wcol[1], rt));
  o->restart = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The convergence test that waited for this Gram matrix: ||r|| = G(R_0, R_0)^{1/2}, resolved (r is a basis vector).
   A convergence claim with a large drift estimate is checked against b - A x; *again: the check failed and r was
   replaced, so this outer iteration starts over from it.
*/
static PetscErrorCode KSPCABiCGStabPendingTest(KSP ksp, KSPCABiCGStabOuter *o, PetscBool *again)
{
  KSP_CABiCGStab *cab   = (KSP_CABiCGStab *)ksp->data;
  const PetscInt  iR0   = 2 * o->sk + 1;
  const PetscReal rnorm = PetscSqrtReal(PetscAbsScalar(cab->GG[o->nb + iR0 + o->nb * iR0]));

  PetscFunctionBegin;
  *again          = PETSC_FALSE;
  o->test_pending = PETSC_FALSE;
  if (ksp->its == 0) { /* the initial residual norm */
    KSPCheckNorm(ksp, rnorm);
    o->ttol = PetscMax(ksp->rtol * rnorm, ksp->abstol);
  }
  PetscCall(CAKrylovKSPConvergenceTest(ksp, rnorm));
  if (ksp->reason > 0 && o->drift > KSPCABICGSTAB_CHECK_FRACTION * o->ttol) {
    PetscCall(KSPCABiCGStabCheckConvergence(ksp, o));
    *again = ksp->reason ? PETSC_FALSE : PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Exact breakdown (rt, r) = 0 with r != 0: the next outer iteration restarts fully, p = rt = r */
static PetscErrorCode KSPCABiCGStabRestart(KSP ksp, KSPCABiCGStabOuter *o)
{
  PetscFunctionBegin;
  PetscCall(PetscInfo(ksp, "(rt, r) = 0 at iteration %" PetscInt_FMT ": restarting with p = rt = r\n", ksp->its));
  o->restart = PETSC_TRUE;
  ((KSP_CABiCGStab *)ksp->data)->stats.restarts++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Line 9: a_0 = e_{P_0}, c_0 = e_{R_0}, e_0 = 0, and rho = (rt, r) = (g, c_0); or, resuming at omega after a half step
   (r = q, rho kept), the test of ||q||, now resolved: below the tolerance, x + alpha p (already in x) is the solution
   (*counted: that iteration is counted and tested; a convergence test of the user's own may want more)
*/
static PetscErrorCode KSPCABiCGStabInnerStart(KSP ksp, KSPCABiCGStabOuter *o, PetscScalar *rho, PetscBool *counted)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;
  const PetscInt  nb = o->nb, iR0 = 2 * o->sk + 1;
  PetscScalar    *g = cab->GG, *G = cab->GG + nb;

  PetscFunctionBegin;
  *counted = PETSC_FALSE;
  PetscCall(PetscArrayzero(cab->coef, 3 * nb));
  cab->coef[0]        = 1.0; /* a */
  cab->coef[nb + iR0] = 1.0; /* c */
  cab->nb_pending     = nb;
  if (o->resume) {
    const PetscReal qnorm = PetscSqrtReal(PetscAbsScalar(G[iR0 + nb * iR0]));

    o->resume = PETSC_FALSE;
    if (ksp->normtype != KSP_NORM_NONE && qnorm <= o->ttol) {
      PetscCall(KSPCABiCGStabNextIteration(ksp));
      PetscCall(CAKrylovKSPConvergenceTest(ksp, qnorm));
      *counted = PETSC_TRUE;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *rho = g[iR0];                                                                        /* (rt, r_m) = (g, c_0) */
  if (*rho == 0.0 && G[iR0 + nb * iR0] != 0.0) PetscCall(KSPCABiCGStabRestart(ksp, o)); /* rt orthogonal to r != 0 */
  else if (G[iR0 + nb * iR0] == 0.0) ksp->reason = KSP_CONVERGED_ATOL;                  /* r = 0 exactly (seen with KSP_NORM_NONE) */
  else PetscCall(CAKrylovKSPCheckCoefficient(ksp, *rho, "(rt, r)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Lines 9-21: s_k iterations of BiCGStab on the coordinate vectors a, c, e of p, r and x - x_m, no communication.

   The Gram matrix gives squared norms (x, G x) with an absolute error of eps (sum_i |x_i| ||y_i||)^2: near a
   breakdown of BiCGStab (a tiny (rt, Â p), so a huge alpha), q = r - alpha Â p is a cancellation that the vector
   update resolves but (d, G d) does not. Then ||q||, (q, Â q) and (Â q, Â q) are noise, and the iteration ends the
   outer iteration at its half step: x + alpha p and r = q are rebuilt, and the next outer iteration, whose Gram matrix
   measures q afresh (it is a basis vector there), resumes the iteration at omega (o->resume, with alpha and rho kept).
   The half step's ||q|| is tested there first: below the tolerance, the solve ends at x + alpha p. The iteration
   count is BiCGStab's; an unresolved ||r|| likewise ends the outer iteration after the step, its test waiting for the
   next Gram matrix. Only an exact (rt, r) = 0 restarts, fully (p = rt = r).
*/
static PetscErrorCode KSPCABiCGStabInnerIterations(KSP ksp, KSPCABiCGStabOuter *o)
{
  KSP_CABiCGStab *cab      = (KSP_CABiCGStab *)ksp->data;
  const PetscInt  nb       = o->nb;
  const PetscBool wantnorm = ksp->normtype != KSP_NORM_NONE ? PETSC_TRUE : PETSC_FALSE;
  PetscScalar    *a = cab->coef, *c = cab->coef + nb, *e = cab->coef + 2 * nb, *g = cab->GG, *G = cab->GG + nb;
  PetscScalar    *d = cab->d, *Ta = cab->Ta, *Td = cab->Td, *GTd = cab->GTd;
  PetscScalar     rho = o->rho, alpha = o->alpha, omega, beta;
  PetscBool       resume = o->resume, counted;

  PetscFunctionBegin;
  PetscCall(KSPCABiCGStabInnerStart(ksp, o, &rho, &counted));
  if (counted && ksp->reason) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt j = 0; j < o->sk && !ksp->reason && !o->restart; j++) {
    PetscScalar qAq, AqAq, rho_new;
    PetscReal   qq, rr = 0.0;
    PetscBool   resolved = PETSC_TRUE;
    PetscInt   *iTd = cab->isupp, *irows = cab->isupp + nb, nTd, nrows;

    KSPCABiCGStabTMult(nb, cab->Tp, a, Ta); /* T'a: coordinates of Â p */
    if (resume) {                           /* the half step was taken by the previous outer iteration: q = r */
      PetscCall(PetscArraycpy(d, c, nb));
      resume = PETSC_FALSE;
    } else {
      const PetscScalar den = KSPCABiCGStabDenseDot(nb, g, Ta); /* (rt, Â p) = (g, T'a) */

      PetscCall(CAKrylovKSPCheckCoefficient(ksp, den, "(rt, Ap)"));
      if (ksp->reason) break;
      alpha = rho / den; /* line 11 */
      PetscCall(CAKrylovKSPCheckCoefficient(ksp, alpha, "alpha"));
      if (ksp->reason) break;
      for (PetscInt i = 0; i < nb; i++) {
        e[i] += alpha * a[i];        /* line 12: x += alpha p */
        d[i] = c[i] - alpha * Ta[i]; /* line 13: q = r - alpha Â p */
      }
      if (!KSPCABiCGStabGramResolved(nb, G, d, cab->isupp, cab->Gc, &qq)) { /* end the outer iteration at the half step: x + alpha p, r = q, p */
        PetscCall(PetscArraycpy(c, d, nb));
        o->resume = PETSC_TRUE;
        o->alpha  = alpha;
        o->rho    = rho;
        cab->stats.early_ends++;
        cab->stats.half_steps++;
        break;
      }
    }
    KSPCABiCGStabTMult(nb, cab->Tp, d, Td); /* T'd: coordinates of Â q */
    nTd   = KSPCABiCGStabSupport(nb, Td, NULL, iTd);
    nrows = KSPCABiCGStabSupport(nb, d, Td, irows);
    KSPCABiCGStabDenseMult(nb, G, nb, Td, nTd, iTd, nrows, irows, GTd); /* G T'd, in the rows (d, .) and (T'd, .) read */
    qAq  = KSPCABiCGStabDenseDot(nb, d, GTd);                           /* (q, Â q)   = (d, G T'd) */
    AqAq = KSPCABiCGStabDenseDot(nb, Td, GTd);                          /* (Âq, Âq)   = (T'd, G T'd) */
    PetscCall(CAKrylovKSPCheckCoefficient(ksp, AqAq, "(Aq, Aq)"));      /* Â q = 0 with q != 0 */
    if (ksp->reason) break;
    omega = qAq / AqAq; /* line 15 */
    PetscCall(CAKrylovKSPCheckCoefficient(ksp, omega, "omega"));
    if (ksp->reason) break;
    for (PetscInt i = 0; i < nb; i++) {
      e[i] += omega * d[i];        /* line 16: x += omega q */
      c[i] = d[i] - omega * Td[i]; /* line 17: r = q - omega Â q */
    }
    if (!counted) PetscCall(KSPCABiCGStabNextIteration(ksp));
    counted = PETSC_FALSE;
    if (wantnorm) { /* line 18: ||r|| = (c, G c)^{1/2} when the Gram matrix resolves it; else the next one will */
      resolved = KSPCABiCGStabGramResolved(nb, G, c, cab->isupp, cab->Gc, &rr);
      if (resolved) rr = PetscSqrtReal(rr);
      else if (PetscIsInfOrNanReal(rr)) ksp->reason = KSP_DIVERGED_NANORINF;
      else o->test_pending = PETSC_TRUE;
      if (ksp->reason) break;
    }
    if (!o->test_pending) PetscCall(CAKrylovKSPConvergenceTest(ksp, rr));
    if (ksp->reason) break;
    rho_new = KSPCABiCGStabDenseDot(nb, g, c); /* (rt, r_{j+1}) = (g, c_{j+1}) */
    if (rho_new == 0.0) {                      /* rt orthogonal to r (r != 0: not converged) */
      PetscCall(KSPCABiCGStabRestart(ksp, o));
      break;
    }
    PetscCall(CAKrylovKSPCheckCoefficient(ksp, rho_new, "(rt, r)"));
    if (ksp->reason) break;
    beta = (alpha / omega) * (rho_new / rho); /* line 19 */
    PetscCall(CAKrylovKSPCheckCoefficient(ksp, beta, "beta"));
    if (ksp->reason) break;
    for (PetscInt i = 0; i < nb; i++) a[i] = c[i] + beta * (a[i] - omega * Ta[i]); /* line 20: p = r + beta (p - omega Â p) */
    rho = rho_new;
    if (o->test_pending) { /* ||r|| unresolved: p and r rebuilt, measured by the next Gram matrix */
      cab->stats.early_ends++;
      break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Adaptive s (after Carson, 2018): r = [P, R] c is rebuilt with a relative error of about eps sum_i |c_i| ||y_i|| / ||r||.
   Once that amplification exceeds 1/sqrt(eps) (half of the digits lost), the next outer iterations use half the s_k;
   once it is below eps^(-1/4) again, twice as many, up to s.
*/
static PetscErrorCode KSPCABiCGStabAdaptS(KSP ksp, KSPCABiCGStabOuter *o)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;
  const PetscInt  nb  = o->nb;
  PetscScalar    *c = cab->coef + nb, *G = cab->GG + nb;
  PetscReal       rr, amplification;

  PetscFunctionBegin;
  if (KSPCABiCGStabGramResolved(nb, G, c, cab->isupp, cab->Gc, &rr)) amplification = KSPCABiCGStabCoordinateScale(nb, G, c) / PetscSqrtReal(rr);
  else amplification = PETSC_MAX_REAL;
  PetscCall(PetscInfo(ksp, "Outer iteration %" PetscInt_FMT ", s_k = %" PetscInt_FMT ": coordinate amplification of r %g\n", o->k, o->sk, (double)amplification));
  if (amplification > 1.0 / PetscSqrtReal(PETSC_MACHINE_EPSILON) && o->sk > 1) {
    o->s_cap = PetscMax(1, o->sk / 2);
    cab->stats.s_lowered++;
  } else if (amplification < PetscPowReal(PETSC_MACHINE_EPSILON, -0.25) && o->s_cap < cab->s) {
    o->s_cap = PetscMin(cab->s, 2 * o->s_cap);
    cab->stats.s_raised++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Lines 22-24: [p, r, dx] = [P, R] [a, c, e] (only dx when the solve ends, unless a convergence claim is to be checked: a
   failed check goes on with p), and the drift estimate. o->increment: x is to be updated by M^{-1} dx (right
   preconditioning) or dx (left), KSPCABiCGStabAddIncrement(), before KSPCABiCGStabOuterFinish().
*/
static PetscErrorCode KSPCABiCGStabOuterRebuild(KSP ksp, KSPCABiCGStabOuter *o)
{
  KSP_CABiCGStab *cab      = (KSP_CABiCGStab *)ksp->data;
  const PetscInt  nb       = o->nb;
  const PetscBool wantnorm = ksp->normtype != KSP_NORM_NONE ? PETSC_TRUE : PETSC_FALSE;
  PetscScalar    *a = cab->coef, *c = cab->coef + nb, *e = cab->coef + 2 * nb, *G = cab->GG + nb;

  PetscFunctionBegin;
  if (o->restart) PetscCall(PetscArraycpy(a, c, nb));     /* p = r */
  if (wantnorm && ksp->reason != KSP_DIVERGED_NANORINF) { /* drift: eps sum_i (|c_i| + ||Â|| |e_i|) ||y_i|| */
    const PetscReal escale = KSPCABiCGStabCoordinateScale(nb, G, e);

    o->tau = PetscMax(o->tau, KSPCABiCGStabOperatorNorm(cab, nb, G));
    o->xscale += escale;
    o->drift += PETSC_MACHINE_EPSILON * (KSPCABiCGStabCoordinateScale(nb, G, c) + o->tau * escale);
  }
  o->check     = ksp->reason > 0 && wantnorm && o->drift > KSPCABICGSTAB_CHECK_FRACTION * o->ttol ? PETSC_TRUE : PETSC_FALSE;
  o->increment = ksp->reason != KSP_DIVERGED_NANORINF ? PETSC_TRUE : PETSC_FALSE; /* else the basis may hold Inf/NaN (0 * NaN = NaN): keep x_m, the last finite iterate */
  PetscCall(PetscLogEventBegin(CAKRYLOV_CARebuild, ksp, 0, 0, 0));
  if (o->increment && ksp->reason && !o->check) PetscCall(KSPCABiCGStabCombine(ksp, nb, 2, 1));
  else if (o->increment) PetscCall(KSPCABiCGStabCombine(ksp, nb, 0, 3));
  PetscCall(PetscLogEventEnd(CAKRYLOV_CARebuild, ksp, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What follows an outer iteration, x updated: the check of a convergence claim, residual replacement, adaptive s */
PetscErrorCode KSPCABiCGStabOuterFinish(KSP ksp, KSPCABiCGStabOuter *o)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;

  PetscFunctionBegin;
  cab->nb_pending = 0;
  if (o->check) PetscCall(KSPCABiCGStabCheckConvergence(ksp, o));
  else if (!ksp->reason && !o->test_pending) { /* replacement when the drift crosses sqrt(eps) ||r|| and has grown since r was last b - A x (Van der Vorst and Ye) */
    const PetscBool small = o->drift <= PetscSqrtReal(PETSC_MACHINE_EPSILON) * ksp->rnorm ? PETSC_TRUE : PETSC_FALSE;

    if (cab->replacement && o->drift_small && !small && o->drift > 1.1 * o->drift_init) {
      PetscCall(PetscInfo(ksp, "Iteration %" PetscInt_FMT ": drift estimate %g > sqrt(eps) ||r|| = %g: r replaced by b - A x\n", ksp->its, (double)o->drift, (double)(PetscSqrtReal(PETSC_MACHINE_EPSILON) * ksp->rnorm)));
      PetscCall(KSPCABiCGStabReplaceResidual(ksp, o));
      cab->stats.replacements++;
    }
    o->drift_small = small;
  }
  if (!ksp->reason && cab->adaptive) PetscCall(KSPCABiCGStabAdaptS(ksp, o));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The start of a solve: storage, basis coefficients, r_0 = b - A x_0 (M^{-1}(b - A x_0) with left preconditioning), p_0 = rt = r_0;
   the test of ||r_0|| waits for the first Gram matrix (no reduction of its own) */
PetscErrorCode KSPCABiCGStabSolveBegin(KSP ksp, KSPCABiCGStabOuter *o)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;
  PetscInt        nloc;

  PetscFunctionBegin;
  PetscCall(KSPCABiCGStabAllocate(ksp)); /* s changed since KSPSetUp() */
  PetscCall(VecGetLocalSize(ksp->vec_rhs, &nloc));
  PetscCheck(nloc == cab->nloc, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Local vector length %" PetscInt_FMT " differs from the %" PetscInt_FMT " KSPSetUp() saw; call KSPReset() after changing the problem size", nloc, cab->nloc);
  *o = (KSPCABiCGStabOuter){.s_cap = cab->s, .drift_small = PETSC_TRUE, .restart = PETSC_TRUE};
  cab->stats.solves++;
  cab->nb_pending = 0;
  PetscCall(CAKrylovPCIsIdentity(ksp->pc, &cab->identity_pc));
  if (cab->paired) PetscCall(KSPCABiCGStabPairable(ksp, &cab->pairs));
  else cab->pairs = PETSC_FALSE;
  PetscCall(KSPCABiCGStabSetUpBasis(ksp)); /* Newton, Chebyshev: the spectrum is estimated once per operator */

  if (ksp->guess_zero) PetscCall(VecSet(ksp->vec_sol, 0.0));
  PetscCall(KSPInitialResidual(ksp, ksp->vec_sol, cab->t, cab->Wcol[0], cab->Wcol[1], ksp->vec_rhs));
  PetscCall(VecCopy(cab->Wcol[1], cab->Wcol[0]));
  PetscCall(PetscObjectSAWsTakeAccess((PetscObject)ksp));
  ksp->its = 0;
  PetscCall(PetscObjectSAWsGrantAccess((PetscObject)ksp));
  if (ksp->normtype != KSP_NORM_NONE) o->test_pending = PETSC_TRUE;
  else PetscCall(CAKrylovKSPConvergenceTest(ksp, 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After the Gram matrix: the test that waited for it, lines 9-21 and the rebuild of lines 22-24; *rebuilt: the outer
   iteration went that far (not when the test ended the solve, or replaced r so that the next outer iteration starts
   over from it), and KSPCABiCGStabOuterFinish() is to follow, after x is updated where o->increment says */
PetscErrorCode KSPCABiCGStabOuterIterate(KSP ksp, KSPCABiCGStabOuter *o, PetscBool *rebuilt)
{
  PetscFunctionBegin;
  *rebuilt     = PETSC_FALSE;
  o->increment = PETSC_FALSE;
  if (o->test_pending) {
    PetscBool again;

    PetscCall(KSPCABiCGStabPendingTest(ksp, o, &again));
    if (ksp->reason || again) PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(KSPCABiCGStabInnerIterations(ksp, o));
  PetscCall(KSPCABiCGStabOuterRebuild(ksp, o));
  *rebuilt = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSolve_CABiCGStab(KSP ksp)
{
  KSPCABiCGStabOuter o;

  PetscFunctionBegin;
  PetscCall(KSPCABiCGStabSolveBegin(ksp, &o));
  /* per outer iteration: lines 6-8 (bases, Gram matrix, one reduction), 9-21 (inner iterations), 22-24 (rebuild, x) */
  for (o.k = 0; !ksp->reason; o.k++) {
    PetscBool again, rebuilt;

    PetscCall(KSPCABiCGStabOuterPrepare(ksp, &o));
    PetscCall(KSPCABiCGStabBasesAndGram(ksp, &o));
    PetscCall(KSPCABiCGStabMonomialScale(ksp, &o, &again));
    if (again) PetscCall(KSPCABiCGStabBasesAndGram(ksp, &o)); /* p, r and rt are still in V */
    PetscCall(KSPCABiCGStabOuterIterate(ksp, &o, &rebuilt));
    if (o.increment) PetscCall(KSPCABiCGStabAddIncrement(ksp, ksp->vec_sol, ksp->vec_sol));
    if (rebuilt) PetscCall(KSPCABiCGStabOuterFinish(ksp, &o));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The current iterate, also in the middle of an outer iteration: x_m + M^{-1} [P, R] e */
static PetscErrorCode KSPBuildSolution_CABiCGStab(KSP ksp, Vec v, Vec *V)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;

  PetscFunctionBegin;
  if (!cab->nb_pending) {
    if (v) PetscCall(VecCopy(ksp->vec_sol, v));
    else v = ksp->vec_sol;
  } else {
    if (!v) v = cab->Wcol[0]; /* W is free between rebuilds */
    PetscCall(KSPCABiCGStabCombine(ksp, cab->nb_pending, 2, 1));
    PetscCall(KSPCABiCGStabAddIncrement(ksp, ksp->vec_sol, v));
  }
  if (V) *V = v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Frees the storage of s (KSPCABiCGStabAllocate()); the work vector t, and with it the layout, stays */
static PetscErrorCode KSPCABiCGStabFreeStorage(KSP ksp)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;

  PetscFunctionBegin;
  if (!cab->s_alloc) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPCABiCGStabPairDestroy(cab));
  for (PetscInt i = 0; i < 4 * cab->s_alloc + 2; i++) PetscCall(VecDestroy(&cab->Vcol[i]));
  PetscCall(PetscFree(cab->Vcol));
  for (PetscInt i = 0; i < 3; i++) PetscCall(VecDestroy(&cab->Wcol[i]));
  if (!cab->V_shared) PetscCall(PetscFree(cab->V));
  if (!cab->V_shared) PetscCall(PetscFree(cab->W));
  PetscCall(PetscFree5(cab->Tp, cab->GG, cab->coef, cab->Ta, cab->d));
  PetscCall(PetscFree2(cab->packed, cab->gram_work));
  PetscCall(PetscFree4(cab->Td, cab->GTd, cab->Gc, cab->isupp));
  cab->s_alloc = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPReset_CABiCGStab(KSP ksp)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;

  PetscFunctionBegin;
  PetscCall(KSPDestroyBlock_CABiCGStab(ksp));
  PetscCall(KSPCABiCGStabFreeStorage(ksp));
  PetscCall(VecDestroy(&cab->t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Basis vector i of V as a Vec (sharing V's memory), made when first asked for: a column solver of a block solve makes
   only those a per-column step uses (most of its steps work on the block's storage) */
PetscErrorCode KSPCABiCGStabBasisVec(KSP ksp, PetscInt i, Vec *v)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;

  PetscFunctionBegin;
  if (!cab->Vcol[i]) PetscCall(CAKrylovVecCreateOnLayoutWithArray(cab->t, cab->V + (size_t)cab->ldv * i, &cab->Vcol[i]));
  if (v) *v = cab->Vcol[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The storage of s = cab->s: the basis block V = [P, R, rt] and its column Vecs, the coordinate arrays; (re)allocated only
   when s grew beyond the s of the last allocation (a smaller s works in the first 4s + 2 basis vectors and the leading
   parts of the arrays: the bottom policy's s moves down after the first solve and up by one now and then, and each new
   allocation is memory the solve first touches, page by page, a tenth of a bottom-sized block solve), by KSPSetUp() and
   at the start of a solve (a new s after the setup, e.g. from the bottom policy, needs no new KSPSetUp(), which with a DM
   would compute the operators again, and keeps the work vector t, and with it the layout: a new vector from the KSP's DM
   would set up a new layout, a global reduction, between two solves; a block solve keeps its column solvers and one-pass
   plan) */
PetscErrorCode KSPCABiCGStabAllocate(KSP ksp)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;
  const PetscInt  s = cab->s, nb = 4 * s + 1;
  PetscBool       standard;

  PetscFunctionBegin;
  if (cab->s_alloc >= s) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPCABiCGStabFreeStorage(ksp));
  if (!cab->t) {
    Vec *tmpl;

    PetscCall(KSPCreateVecs(ksp, 1, &tmpl, 0, NULL));
    cab->t = tmpl[0];
    PetscCall(PetscFree(tmpl));
  }
  PetscCall(PetscObjectTypeCompareAny((PetscObject)cab->t, &standard, VECSEQ, VECMPI, ""));
  PetscCheck(standard, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSPCABICGSTAB keeps its basis in one host memory block and needs VECSEQ or VECMPI vectors, not %s", ((PetscObject)cab->t)->type_name);
  PetscCall(VecGetLocalSize(cab->t, &cab->nloc));
  PetscCall(PetscBLASIntCast(PetscMax(cab->nloc, 1), &cab->ld));

  if (!cab->V_shared) {
    cab->ldv = cab->ldw = cab->ld;
    PetscCall(PetscMalloc1((size_t)cab->ld * (4 * s + 2), &cab->V));
    PetscCall(PetscMalloc1((size_t)cab->ld * 3, &cab->W));
    CAKrylovAdviseHugePages(cab->V, (size_t)cab->ld * (4 * s + 2) * sizeof(PetscScalar));
  }
  PetscCall(PetscCalloc1(4 * s + 2, &cab->Vcol));
  for (PetscInt i = 0; !cab->V_shared && i < 4 * s + 2; i++) PetscCall(KSPCABiCGStabBasisVec(ksp, i, NULL)); /* all: KSPSolve() works on them */
  for (PetscInt i = 0; i < 3; i++) PetscCall(CAKrylovVecCreateOnLayoutWithArray(cab->t, cab->W + (size_t)cab->ldw * i, &cab->Wcol[i]));

  PetscCall(PetscMalloc5(nb * nb, &cab->Tp, nb * (nb + 1), &cab->GG, 3 * nb, &cab->coef, nb, &cab->Ta, nb, &cab->d));
  PetscCall(PetscMalloc2(cab->V_shared ? 0 : nb * (nb + 1), &cab->packed, cab->V_shared ? 0 : CAKrylovGramWorkSize(nb + 1) + (nb + 1) * (nb + 1), &cab->gram_work)); /* a block's column: neither (its block packs and reduces, with its block KSP's work) */
  PetscCall(PetscMalloc4(nb, &cab->Td, nb, &cab->GTd, nb, &cab->Gc, 2 * nb, &cab->isupp));
  cab->s_alloc = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetUp_CABiCGStab(KSP ksp)
{
  PetscFunctionBegin;
  PetscCheck(ksp->pc_side != PC_SYMMETRIC, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSPCABICGSTAB does not support symmetric preconditioning; use -ksp_pc_side right or left");
  PetscCheck(!PetscDefined(USE_COMPLEX), PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSPCABICGSTAB supports real scalars only");
  PetscCall(KSPCABiCGStabAllocate(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPView_CABiCGStab(KSP ksp, PetscViewer viewer)
{
  KSP_CABiCGStab                *cab = (KSP_CABiCGStab *)ksp->data;
  const KSPCABiCGStabStatistics *st  = &cab->stats;
  PetscBool                      isascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  s = %" PetscInt_FMT ", basis %s, telescoping %s\n", cab->s, KSPCABiCGStabBases[cab->basis], cab->telescope ? "on (s_k = min(s, 2^k))" : "off"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  Gram matrix reduction: %" PetscInt_FMT " scalars per outer iteration at s (%s)\n", KSPCABiCGStabGramCount(cab, 4 * cab->s + 1), cab->symmetric ? "g and the upper triangle of the symmetric G" : "g and all of G"));
  PetscCall(KSPCABiCGStabViewBasis(ksp, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  basis built %s; residual replacement %s%s; adaptive s %s\n", !cab->paired ? "column by column" : (cab->stats.solves && !cab->pairs ? "column by column in the last solve (pairs asked for, but its PC applies B A itself or scales diagonally)" : "in pairs [Â p_i, Â r_i] (two-column products)"), cab->replacement ? "on" : "off", cab->replacement_set ? "" : " (the basis's default)", cab->adaptive ? "on" : "off"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  statistics: %" PetscInt_FMT " solves, %" PetscInt_FMT " outer iterations (Gram matrices), %" PetscInt_FMT " inner iterations, %" PetscInt_FMT " global reductions\n", st->solves, st->outer, st->inner, st->reductions));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  outer iterations ended early (unresolved q): %" PetscInt_FMT ", at a half step: %" PetscInt_FMT "; full restarts: %" PetscInt_FMT "; residual replacements: %" PetscInt_FMT "\n", st->early_ends, st->half_steps, st->restarts, st->replacements));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  convergence claims checked against b - A x: %" PetscInt_FMT " (%" PetscInt_FMT " failed: the solve went on)\n", st->checks, st->checks_failed));
  if (cab->adaptive && st->solves) PetscCall(PetscViewerASCIIPrintf(viewer, "  adaptive s: s_k lowered %" PetscInt_FMT " times, raised %" PetscInt_FMT " times; smallest s_k allowed %" PetscInt_FMT "\n", st->s_lowered, st->s_raised, st->s_min));
  PetscCall(KSPViewBlock_CABiCGStab(ksp, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetFromOptions_CABiCGStab(KSP ksp, CAKrylovOptionItems PetscOptionsObject)
{
  KSP_CABiCGStab    *cab       = (KSP_CABiCGStab *)ksp->data;
  PetscInt           s         = cab->s;
  KSPCABiCGStabBasis basis     = cab->basis;
  PetscBool          telescope = cab->telescope, symmetric = cab->symmetric, replacement = cab->replacement, paired = cab->paired, adaptive = cab->adaptive, flg, given;
  PetscReal          spectrum[2] = {cab->lmin, cab->lmax};
  PetscInt           nspectrum   = 2;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "KSP CABiCGStab options");
  PetscCall(PetscOptionsInt("-ksp_cabicgstab_s", "Inner iterations per global reduction", "KSPCABiCGStabSetS", s, &s, &flg));
  if (flg) PetscCall(KSPCABiCGStabSetS(ksp, s));
  PetscCall(PetscOptionsEnum("-ksp_cabicgstab_basis", "Polynomial basis of the Krylov subspaces", "KSPCABiCGStabSetBasis", KSPCABiCGStabBases, (PetscEnum)basis, (PetscEnum *)&basis, &flg));
  if (flg) PetscCall(KSPCABiCGStabSetBasis(ksp, basis));
  PetscCall(PetscOptionsBool("-ksp_cabicgstab_telescope", "Outer iteration k uses s_k = min(s, 2^k)", "KSPCABiCGStabSetTelescope", telescope, &telescope, &flg));
  if (flg) PetscCall(KSPCABiCGStabSetTelescope(ksp, telescope));
  PetscCall(PetscOptionsBool("-ksp_cabicgstab_symmetric_gram", "Reduce only g and the upper triangle of the symmetric Gram matrix", "KSPCABiCGStabSetSymmetricGram", symmetric, &symmetric, &flg));
  if (flg) PetscCall(KSPCABiCGStabSetSymmetricGram(ksp, symmetric));
  PetscCall(PetscOptionsRealArray("-ksp_cabicgstab_spectrum", "lmin,lmax: interval of the spectrum of the preconditioned operator (newton, chebyshev); estimated if not given", "KSPCABiCGStabSetSpectrum", spectrum, &nspectrum, &flg));
  given = flg;
  if (!flg) PetscCall(PetscOptionsHasName(((PetscObject)ksp)->options, ((PetscObject)ksp)->prefix, "-ksp_cabicgstab_spectrum", &given)); /* given without values */
  if (given) {
    PetscCheck(flg && nspectrum == 2, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_WRONG, "-ksp_cabicgstab_spectrum needs two values lmin,lmax; %" PetscInt_FMT " given", flg ? nspectrum : 0);
    PetscCall(KSPCABiCGStabSetSpectrum(ksp, spectrum[0], spectrum[1]));
  }
  PetscCall(PetscOptionsBool("-ksp_cabicgstab_residual_replacement", "Replace the residual by b - A x at outer-iteration boundaries when its drift grows (default: on for newton, chebyshev)", "KSPCABiCGStabSetResidualReplacement", replacement, &replacement, &flg));
  if (flg) PetscCall(KSPCABiCGStabSetResidualReplacement(ksp, replacement));
  PetscCall(PetscOptionsBool("-ksp_cabicgstab_adaptive_s", "Lower s_k while the coordinates of r lose more than half of their digits", "KSPCABiCGStabSetAdaptiveS", adaptive, &adaptive, &flg));
  if (flg) PetscCall(KSPCABiCGStabSetAdaptiveS(ksp, adaptive));
  PetscCall(PetscOptionsBool("-ksp_cabicgstab_paired", "Build the bases of p and r together, two columns per operator application", "KSPCABiCGStabSetPaired", paired, &paired, &flg));
  if (flg) PetscCall(KSPCABiCGStabSetPaired(ksp, paired));
  PetscCall(PetscOptionsBool("-ksp_cabicgstab_one_pass_product", "KSPMatSolve(): apply a MATSEQAIJ or MATMPIAIJ to all columns of a run in one pass over the matrix (false: PETSc's AIJ x dense product)", "KSPMatSolve", cab->one_pass, &cab->one_pass, NULL));
  PetscCall(PetscOptionsRangeInt("-ksp_cabicgstab_one_pass_window", "KSPMatSolve(): bytes of the one-pass product's window at most (band x columns; wider: columns in groups)", "KSPMatSolve", cab->one_pass_window, &cab->one_pass_window, NULL, 1024, PETSC_MAX_INT));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabSetS_CABiCGStab(KSP ksp, PetscInt s)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(s >= 1 && s <= KSPCABICGSTAB_S_MAX, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCABICGSTAB s = %" PetscInt_FMT " is out of range: 1 <= s <= %d", s, KSPCABICGSTAB_S_MAX);
  if (s != cab->s) cab->coefficients_ready = PETSC_FALSE; /* 2s shifts, 2s GMRES steps for the spectrum */
  cab->s = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabGetS_CABiCGStab(KSP ksp, PetscInt *s)
{
  PetscFunctionBegin;
  *s = ((KSP_CABiCGStab *)ksp->data)->s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabSetBasis_CABiCGStab(KSP ksp, KSPCABiCGStabBasis basis)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(basis >= KSP_CABICGSTAB_BASIS_MONOMIAL && basis <= KSP_CABICGSTAB_BASIS_CHEBYSHEV, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "Unknown KSPCABiCGStabBasis %d", (int)basis);
  if (basis != cab->basis) cab->coefficients_ready = PETSC_FALSE;
  cab->basis = basis;
  if (!cab->replacement_set) cab->replacement = basis != KSP_CABICGSTAB_BASIS_MONOMIAL ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabGetBasis_CABiCGStab(KSP ksp, KSPCABiCGStabBasis *basis)
{
  PetscFunctionBegin;
  *basis = ((KSP_CABiCGStab *)ksp->data)->basis;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabSetTelescope_CABiCGStab(KSP ksp, PetscBool telescope)
{
  PetscFunctionBegin;
  ((KSP_CABiCGStab *)ksp->data)->telescope = telescope;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabGetTelescope_CABiCGStab(KSP ksp, PetscBool *telescope)
{
  PetscFunctionBegin;
  *telescope = ((KSP_CABiCGStab *)ksp->data)->telescope;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabSetSymmetricGram_CABiCGStab(KSP ksp, PetscBool symmetric)
{
  PetscFunctionBegin;
  ((KSP_CABiCGStab *)ksp->data)->symmetric = symmetric;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabGetSymmetricGram_CABiCGStab(KSP ksp, PetscBool *symmetric)
{
  PetscFunctionBegin;
  *symmetric = ((KSP_CABiCGStab *)ksp->data)->symmetric;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabSetSpectrum_CABiCGStab(KSP ksp, PetscReal lmin, PetscReal lmax)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;

  PetscFunctionBegin;
  if (lmin == (PetscReal)PETSC_DETERMINE && lmax == (PetscReal)PETSC_DETERMINE) { /* back to the estimate */
    if (cab->user_spectrum) cab->est_s = 0;                                       /* no estimate belongs to the current setting: the next solve makes one */
    cab->user_spectrum = PETSC_FALSE;
  } else {
    PetscCall(KSPCABiCGStabCheckSpectrum(ksp, lmin, lmax));
    cab->user_spectrum = PETSC_TRUE;
    cab->lmin          = lmin;
    cab->lmax          = lmax;
    cab->imax          = 0.0;
  }
  cab->coefficients_ready = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabGetSpectrum_CABiCGStab(KSP ksp, PetscReal *lmin, PetscReal *lmax, PetscReal *imax)
{
  KSP_CABiCGStab *cab   = (KSP_CABiCGStab *)ksp->data;
  const PetscBool known = cab->user_spectrum || cab->stats.estimates ? PETSC_TRUE : PETSC_FALSE;

  PetscFunctionBegin;
  if (lmin) *lmin = known ? cab->lmin : 0.0;
  if (lmax) *lmax = known ? cab->lmax : 0.0;
  if (imax) *imax = known ? cab->imax : 0.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabSetResidualReplacement_CABiCGStab(KSP ksp, PetscBool replacement)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;

  PetscFunctionBegin;
  cab->replacement     = replacement;
  cab->replacement_set = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabGetResidualReplacement_CABiCGStab(KSP ksp, PetscBool *replacement)
{
  PetscFunctionBegin;
  *replacement = ((KSP_CABiCGStab *)ksp->data)->replacement;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabSetPaired_CABiCGStab(KSP ksp, PetscBool paired)
{
  PetscFunctionBegin;
  ((KSP_CABiCGStab *)ksp->data)->paired = paired;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabGetPaired_CABiCGStab(KSP ksp, PetscBool *paired)
{
  PetscFunctionBegin;
  *paired = ((KSP_CABiCGStab *)ksp->data)->paired;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabSetAdaptiveS_CABiCGStab(KSP ksp, PetscBool adaptive)
{
  PetscFunctionBegin;
  ((KSP_CABiCGStab *)ksp->data)->adaptive = adaptive;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabGetAdaptiveS_CABiCGStab(KSP ksp, PetscBool *adaptive)
{
  PetscFunctionBegin;
  *adaptive = ((KSP_CABiCGStab *)ksp->data)->adaptive;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCABiCGStabGetStatistics_CABiCGStab(KSP ksp, KSPCABiCGStabStatistics *stats)
{
  PetscFunctionBegin;
  *stats = ((KSP_CABiCGStab *)ksp->data)->stats;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The methods the public setters and getters reach, composed (on) or removed: one list for create and destroy */
static PetscErrorCode KSPCABiCGStabComposeMethods(KSP ksp, PetscBool on)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCABiCGStabSetS_C", on ? KSPCABiCGStabSetS_CABiCGStab : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCABiCGStabGetS_C", on ? KSPCABiCGStabGetS_CABiCGStab : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCABiCGStabSetBasis_C", on ? KSPCABiCGStabSetBasis_CABiCGStab : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCABiCGStabGetBasis_C", on ? KSPCABiCGStabGetBasis_CABiCGStab : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCABiCGStabSetTelescope_C", on ? KSPCABiCGStabSetTelescope_CABiCGStab : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCABiCGStabGetTelescope_C", on ? KSPCABiCGStabGetTelescope_CABiCGStab : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCABiCGStabSetSymmetricGram_C", on ? KSPCABiCGStabSetSymmetricGram_CABiCGStab : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCABiCGStabGetSymmetricGram_C", on ? KSPCABiCGStabGetSymmetricGram_CABiCGStab : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCABiCGStabSetSpectrum_C", on ? KSPCABiCGStabSetSpectrum_CABiCGStab : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCABiCGStabGetSpectrum_C", on ? KSPCABiCGStabGetSpectrum_CABiCGStab : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCABiCGStabSetResidualReplacement_C", on ? KSPCABiCGStabSetResidualReplacement_CABiCGStab : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCABiCGStabGetResidualReplacement_C", on ? KSPCABiCGStabGetResidualReplacement_CABiCGStab : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCABiCGStabSetPaired_C", on ? KSPCABiCGStabSetPaired_CABiCGStab : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCABiCGStabGetPaired_C", on ? KSPCABiCGStabGetPaired_CABiCGStab : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCABiCGStabSetAdaptiveS_C", on ? KSPCABiCGStabSetAdaptiveS_CABiCGStab : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCABiCGStabGetAdaptiveS_C", on ? KSPCABiCGStabGetAdaptiveS_CABiCGStab : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCABiCGStabGetStatistics_C", on ? KSPCABiCGStabGetStatistics_CABiCGStab : NULL));
  PetscCall(KSPComposeBlock_CABiCGStab(ksp, on));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPDestroy_CABiCGStab(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPReset_CABiCGStab(ksp));
  PetscCall(KSPCABiCGStabComposeMethods(ksp, PETSC_FALSE));
  PetscCall(KSPDestroyDefault(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCABiCGStabSetS - Sets s, the number of BiCGStab iterations per global reduction of `KSPCABICGSTAB`

  Logically Collective

  Input Parameters:
+ ksp - the Krylov solver
- s   - 1 <= s <= 32 (default 4)

  Options Database Key:
. -ksp_cabicgstab_s <s> - set s

  Notes:
  Each outer iteration builds 4s+1 basis vectors (4s-1 operator applications) and reduces a
  (4s+1) x (4s+2) Gram matrix. The monomial basis loses accuracy beyond s of about 4 (adaptive s,
  `KSPCABiCGStabSetAdaptiveS()`, then keeps its s_k near 4); the Newton and Chebyshev bases (`KSPCABiCGStabSetBasis()`)
  track `KSPBCGS` up to s = 32 (within 1.2x its iterations up to s = 16, 1.3x at 24 and 32 on the s-study's problems).

  Level: intermediate

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabGetS()`, `KSPCABiCGStabSetTelescope()`
@*/
PetscErrorCode KSPCABiCGStabSetS(KSP ksp, PetscInt s)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ksp, s, 2);
  PetscTryMethod(ksp, "KSPCABiCGStabSetS_C", (KSP, PetscInt), (ksp, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCABiCGStabGetS - Gets s, the number of BiCGStab iterations per global reduction of `KSPCABICGSTAB`

  Not Collective

  Input Parameter:
. ksp - the Krylov solver

  Output Parameter:
. s - the s-step parameter

  Level: intermediate

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabSetS()`
@*/
PetscErrorCode KSPCABiCGStabGetS(KSP ksp, PetscInt *s)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(s, 2);
  PetscUseMethod(ksp, "KSPCABiCGStabGetS_C", (KSP, PetscInt *), (ksp, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCABiCGStabSetBasis - Sets the polynomial basis `KSPCABICGSTAB` uses for its Krylov subspaces

  Logically Collective

  Input Parameters:
+ ksp   - the Krylov solver
- basis - `KSP_CABICGSTAB_BASIS_MONOMIAL` (the default), `KSP_CABICGSTAB_BASIS_NEWTON` or `KSP_CABICGSTAB_BASIS_CHEBYSHEV`

  Options Database Key:
. -ksp_cabicgstab_basis <monomial,newton,chebyshev> - set the basis

  Notes:
  The basis vectors follow a three-term recurrence Â v_i = gamma_i v_{i+1} + theta_i v_i + sigma_i v_{i-1}:
+ monomial  - v_{i+1} = Â v_i / gamma. No setup; the vectors align with the dominant eigenvector, and the Gram matrix
              stops resolving the iteration beyond s of about 4 (more iterations, see `KSPCABiCGStabSetResidualReplacement()`).
              gamma is the power of 2 nearest to the ||Â|| the previous Gram matrix measured (its largest ||Â v_i|| / ||v_i||,
              no communication), so the basis neither overflows nor underflows whatever the scale of the operator, and a
              power of 2 scales exactly: the iterates are those of the unscaled basis where that one stays finite. The first
              outer iteration of a solve takes the gamma of the solve before (1 before any); if its Gram matrix overflows or
              underflows, it is built again with the gamma it measured (one reduction more, once per solve at most, `-info`
              says so).
. newton    - v_{i+1} = (Â - theta_i) v_i / gamma_i with the shifts theta_i the first 2s Leja points (each next one
              the farthest from those before) of the Ritz values of the preconditioned operator together with the 2s
              Chebyshev points of their real interval; the Chebyshev points fill the inside of the spectrum, which 2s
              GMRES steps resolve poorly. Complex Ritz values are used, not dropped: a conjugate pair a +- ib takes two
              steps in real arithmetic, (Â - a) v_i, then (Â - a) v_{i+1} + b^2 v_i (Bai, Hu and Reichel). A pair
              whose imaginary part is below 5 % of the interval's length counts as real (non-normal operators with a
              real spectrum, such as upwind convection, produce such pairs; two nearly equal shifts would make that
              stretch of the basis monomial). A pair cut by the end of a basis contributes its real part only. With a
              given interval (`KSPCABiCGStabSetSpectrum()`), the shifts are its 2s Chebyshev points in Leja order.
- chebyshev - the Chebyshev polynomials T_i((z - c)/h) of the interval [c - h, c + h] = [lmin, lmax], the real extent
              of the Ritz values (or the given interval). Complex spectra are covered by the ellipses with these foci;
              the imaginary extent of the Ritz values enters the scaling only.

  The scaling gamma_i makes the largest value of each basis polynomial 1 on the interval, or on the ellipse
  through the largest imaginary part of the Ritz values, so the basis vectors keep norms of order 1. The spectrum
  is estimated at the first `KSPSolve()` with an operator, by 2s steps of `KSPGMRES` (restart 2s, the same
  preconditioner and side, a noise right-hand side; options prefix -ksp_cabicgstab_est_), and estimated again
  only when the operators change (their object state) or s changes. `-ksp_view` shows the Ritz interval, the
  shifts and what the estimates cost.

  Level: intermediate

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabBasis`, `KSPCABiCGStabGetBasis()`
@*/
PetscErrorCode KSPCABiCGStabSetBasis(KSP ksp, KSPCABiCGStabBasis basis)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(ksp, basis, 2);
  PetscTryMethod(ksp, "KSPCABiCGStabSetBasis_C", (KSP, KSPCABiCGStabBasis), (ksp, basis));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCABiCGStabGetBasis - Gets the polynomial basis of `KSPCABICGSTAB`

  Not Collective

  Input Parameter:
. ksp - the Krylov solver

  Output Parameter:
. basis - the basis

  Level: intermediate

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabBasis`, `KSPCABiCGStabSetBasis()`
@*/
PetscErrorCode KSPCABiCGStabGetBasis(KSP ksp, KSPCABiCGStabBasis *basis)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(basis, 2);
  PetscUseMethod(ksp, "KSPCABiCGStabGetBasis_C", (KSP, KSPCABiCGStabBasis *), (ksp, basis));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCABiCGStabSetTelescope - Turns telescoping of s on or off for `KSPCABICGSTAB`

  Logically Collective

  Input Parameters:
+ ksp       - the Krylov solver
- telescope - `PETSC_TRUE` (default): outer iteration k = 0, 1, 2, ... uses s_k = min(s, 2^k); `PETSC_FALSE`: always s

  Options Database Key:
. -ksp_cabicgstab_telescope <bool> - telescoping on or off

  Notes:
  Telescoping keeps easy solves (a few iterations, as many multigrid bottom solves are) from paying
  for a full basis and Gram matrix of size s, while hard solves reach s after a few outer iterations.

  Level: intermediate

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabGetTelescope()`, `KSPCABiCGStabSetS()`
@*/
PetscErrorCode KSPCABiCGStabSetTelescope(KSP ksp, PetscBool telescope)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveBool(ksp, telescope, 2);
  PetscTryMethod(ksp, "KSPCABiCGStabSetTelescope_C", (KSP, PetscBool), (ksp, telescope));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCABiCGStabGetTelescope - Tells whether `KSPCABICGSTAB` telescopes s

  Not Collective

  Input Parameter:
. ksp - the Krylov solver

  Output Parameter:
. telescope - `PETSC_TRUE` if telescoping is on

  Level: intermediate

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabSetTelescope()`
@*/
PetscErrorCode KSPCABiCGStabGetTelescope(KSP ksp, PetscBool *telescope)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(telescope, 2);
  PetscUseMethod(ksp, "KSPCABiCGStabGetTelescope_C", (KSP, PetscBool *), (ksp, telescope));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCABiCGStabSetSymmetricGram - Sets whether `KSPCABICGSTAB` reduces only the upper triangle of its symmetric Gram matrix

  Logically Collective

  Input Parameters:
+ ksp       - the Krylov solver
- symmetric - `PETSC_TRUE` (default): the reduction of an outer iteration sends g and the upper triangle of G,
              (4s+1) + (4s+1)(4s+2)/2 numbers; `PETSC_FALSE`: g and all of G, (4s+1)(4s+2) numbers (for comparison)

  Options Database Key:
. -ksp_cabicgstab_symmetric_gram <bool> - on or off

  Notes:
  G = [P, R]^T [P, R] is symmetric, so half of it need not travel: still exactly one reduction per outer iteration,
  of about half the size (170 instead of 306 numbers at s = 4). Where a reduction's time grows with its length
  (Krasnopolsky's model: as l^0.21) that makes each one cheaper. The unpacked G is exactly symmetric; the full
  reduction keeps the local GEMM's rounding-level asymmetry, so the two can differ in the last digits.

  Level: intermediate

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabGetSymmetricGram()`
@*/
PetscErrorCode KSPCABiCGStabSetSymmetricGram(KSP ksp, PetscBool symmetric)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveBool(ksp, symmetric, 2);
  PetscTryMethod(ksp, "KSPCABiCGStabSetSymmetricGram_C", (KSP, PetscBool), (ksp, symmetric));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCABiCGStabGetSymmetricGram - Tells whether `KSPCABICGSTAB` reduces only the upper triangle of its Gram matrix

  Not Collective

  Input Parameter:
. ksp - the Krylov solver

  Output Parameter:
. symmetric - `PETSC_TRUE` if only g and the upper triangle of G are reduced

  Level: intermediate

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabSetSymmetricGram()`
@*/
PetscErrorCode KSPCABiCGStabGetSymmetricGram(KSP ksp, PetscBool *symmetric)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(symmetric, 2);
  PetscUseMethod(ksp, "KSPCABiCGStabGetSymmetricGram_C", (KSP, PetscBool *), (ksp, symmetric));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCABiCGStabSetSpectrum - Gives `KSPCABICGSTAB` an interval containing the (real parts of the) spectrum of the
  preconditioned operator, for the Newton and Chebyshev bases

  Logically Collective

  Input Parameters:
+ ksp  - the Krylov solver
. lmin - lower end of the interval
- lmax - upper end, lmin < lmax; both `PETSC_DETERMINE` to go back to the estimate

  Options Database Key:
. -ksp_cabicgstab_spectrum <lmin,lmax> - the interval

  Notes:
  The preconditioned operator is A M^{-1} with right preconditioning (the default) and M^{-1} A with left.
  Without an interval, the spectrum is estimated at the first `KSPSolve()` with an operator: the Ritz values of
  2s steps of `KSPGMRES` (same preconditioner and side, a noise right-hand side), recomputed only when the
  operators change. The Chebyshev basis uses the interval; the Newton basis uses the Ritz values themselves as
  shifts, or, with a given interval, its 2s Chebyshev points, in Leja order.

  Level: intermediate

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabGetSpectrum()`, `KSPCABiCGStabSetBasis()`
@*/
PetscErrorCode KSPCABiCGStabSetSpectrum(KSP ksp, PetscReal lmin, PetscReal lmax)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveReal(ksp, lmin, 2);
  PetscValidLogicalCollectiveReal(ksp, lmax, 3);
  PetscTryMethod(ksp, "KSPCABiCGStabSetSpectrum_C", (KSP, PetscReal, PetscReal), (ksp, lmin, lmax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCABiCGStabGetSpectrum - Gets the spectrum information `KSPCABICGSTAB` builds its Newton or Chebyshev basis from

  Not Collective

  Input Parameter:
. ksp - the Krylov solver

  Output Parameters:
+ lmin - lower end of the real interval (the smallest real part of the Ritz values when estimated)
. lmax - upper end
- imax - the largest imaginary part of the Ritz values in absolute value (0 for a given interval)

  Notes:
  All three are 0 while the spectrum is neither given nor estimated yet. Pass NULL for what is not needed.

  Level: intermediate

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabSetSpectrum()`
@*/
PetscErrorCode KSPCABiCGStabGetSpectrum(KSP ksp, PetscReal *lmin, PetscReal *lmax, PetscReal *imax)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscUseMethod(ksp, "KSPCABiCGStabGetSpectrum_C", (KSP, PetscReal *, PetscReal *, PetscReal *), (ksp, lmin, lmax, imax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCABiCGStabSetResidualReplacement - Turns residual replacement of `KSPCABICGSTAB` on or off

  Logically Collective

  Input Parameters:
+ ksp         - the Krylov solver
- replacement - `PETSC_TRUE` to replace the recursively updated residual by the true one when its drift grows

  Options Database Key:
. -ksp_cabicgstab_residual_replacement <bool> - on or off (default: on for the Newton and Chebyshev bases, off for monomial)

  Notes:
  The residual an s-step method updates in coordinates drifts away from b - A x by rounding errors that grow
  with the basis. The solver estimates that drift from the Gram matrices it already has (no communication):
  per outer iteration, eps sum_i (|c_i| + |e_i| ||Â||) ||y_i||, with c, e the coordinates of r and of the
  update of x, y_i the basis vectors and ||Â|| the largest ||Â y_i|| / ||y_i||. With replacement on, r is replaced at
  the end of the outer iteration in which the accumulated drift crosses sqrt(eps) ||r|| and has grown beyond the
  rounding of the last b - A x (the criterion of Van der Vorst and Ye, as Carson and Demmel apply it to s-step
  methods): one operator application, no global reduction (the next Gram matrix measures it), p and rt kept.

  Independently of this option, a solve that claims convergence while the drift estimate exceeds 1 % of the
  tolerance first checks the true residual (one operator application and one reduction) and, if it does not
  pass the convergence test, goes on from it by residual replacement (p and rt kept; never a cold restart). So a
  converged solve's true residual norm is at most 1.01 times the tolerance (by the estimate), or at most the
  tolerance (checked). `-ksp_view` and `KSPCABiCGStabGetStatistics()` count both events.

  Level: advanced

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabGetResidualReplacement()`, `KSPCABiCGStabGetStatistics()`
@*/
PetscErrorCode KSPCABiCGStabSetResidualReplacement(KSP ksp, PetscBool replacement)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveBool(ksp, replacement, 2);
  PetscTryMethod(ksp, "KSPCABiCGStabSetResidualReplacement_C", (KSP, PetscBool), (ksp, replacement));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCABiCGStabGetResidualReplacement - Tells whether `KSPCABICGSTAB` replaces its residual

  Not Collective

  Input Parameter:
. ksp - the Krylov solver

  Output Parameter:
. replacement - `PETSC_TRUE` if residual replacement is on

  Level: advanced

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabSetResidualReplacement()`
@*/
PetscErrorCode KSPCABiCGStabGetResidualReplacement(KSP ksp, PetscBool *replacement)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(replacement, 2);
  PetscUseMethod(ksp, "KSPCABiCGStabGetResidualReplacement_C", (KSP, PetscBool *), (ksp, replacement));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCABiCGStabSetPaired - Sets whether `KSPCABICGSTAB` builds the bases of p and r together (paired matrix powers)

  Logically Collective

  Input Parameters:
+ ksp    - the Krylov solver
- paired - `PETSC_TRUE`: [Â^k p, Â^k r] as one product of the operator with a two-column dense block

  Options Database Key:
. -ksp_cabicgstab_paired <bool> - on or off (default off)

  Notes:
  With pairs, each of the 2s-1 products [P_{k+1}, R_{k+1}] = Â [P_k, R_k] reads the matrix once and exchanges one
  halo for both columns (`MatMatMult()` with a dense block, `PCMatApply()`), as BoxLib's implementation does; only
  the last power of p goes alone. The halo exchanges per outer iteration then equal classical BiCGStab's 2s.
  Where PETSc has no block kernel for the matrix type, its `MatProduct` multiplies column by column (`-info` says so).
  The iterates are the same as without pairs up to rounding.

  In `KSPSolveTranspose()` the products are A^T [P_k, R_k] (`MatTransposeMatMult()`) and the preconditioner's transpose is
  applied column by column (PETSc 3.18 has no `PCMatApplyTranspose()`). A null space attached to the matrix (its transpose
  null space in `KSPSolveTranspose()`) is removed from both columns where `KSP` removes it (left preconditioning). A
  preconditioner that applies B A itself (`PCShellSetApplyBA()`) or scales the system diagonally (`PCSetDiagonalScale()`)
  gets the bases built column by column, through it; `-ksp_view` then says so.

  Level: advanced

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabGetPaired()`
@*/
PetscErrorCode KSPCABiCGStabSetPaired(KSP ksp, PetscBool paired)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveBool(ksp, paired, 2);
  PetscTryMethod(ksp, "KSPCABiCGStabSetPaired_C", (KSP, PetscBool), (ksp, paired));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCABiCGStabGetPaired - Tells whether `KSPCABICGSTAB` builds the bases of p and r together

  Not Collective

  Input Parameter:
. ksp - the Krylov solver

  Output Parameter:
. paired - `PETSC_TRUE` if paired matrix powers are on

  Level: advanced

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabSetPaired()`
@*/
PetscErrorCode KSPCABiCGStabGetPaired(KSP ksp, PetscBool *paired)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(paired, 2);
  PetscUseMethod(ksp, "KSPCABiCGStabGetPaired_C", (KSP, PetscBool *), (ksp, paired));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCABiCGStabSetAdaptiveS - Turns adaptive s of `KSPCABICGSTAB` on or off

  Logically Collective

  Input Parameters:
+ ksp      - the Krylov solver
- adaptive - `PETSC_TRUE` (default): lower s_k for the next outer iterations while the coordinates of r lose too many digits

  Options Database Key:
. -ksp_cabicgstab_adaptive_s <bool> - on or off

  Notes:
  After Carson (2018). The residual r = [P, R] c rebuilt at the end of an outer iteration carries a relative error of
  about eps sum_i |c_i| ||y_i|| / ||r||. When that amplification exceeds 1/sqrt(eps), half of the digits are gone, and
  the next outer iterations use s_k / 2; when it is below eps^(-1/4) again, s_k doubles back, up to s. A safety net for
  large s: it keeps the monomial basis near s_k = 4 whatever s is, and seldom acts on the Newton and Chebyshev bases
  (mostly after an outer iteration that ended early). `-ksp_view` and `KSPCABiCGStabGetStatistics()` report how often
  s_k was lowered and raised and the smallest s_k it allowed.

  Level: advanced

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabGetAdaptiveS()`, `KSPCABiCGStabSetS()`
@*/
PetscErrorCode KSPCABiCGStabSetAdaptiveS(KSP ksp, PetscBool adaptive)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveBool(ksp, adaptive, 2);
  PetscTryMethod(ksp, "KSPCABiCGStabSetAdaptiveS_C", (KSP, PetscBool), (ksp, adaptive));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCABiCGStabGetAdaptiveS - Tells whether adaptive s of `KSPCABICGSTAB` is on

  Not Collective

  Input Parameter:
. ksp - the Krylov solver

  Output Parameter:
. adaptive - `PETSC_TRUE` if adaptive s is on

  Level: advanced

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabSetAdaptiveS()`
@*/
PetscErrorCode KSPCABiCGStabGetAdaptiveS(KSP ksp, PetscBool *adaptive)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(adaptive, 2);
  PetscUseMethod(ksp, "KSPCABiCGStabGetAdaptiveS_C", (KSP, PetscBool *), (ksp, adaptive));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCABiCGStabGetStatistics - Gets what the solves of a `KSPCABICGSTAB` did: iterations, reductions, early ends,
  restarts, residual replacements, checks, adaptive s, spectrum estimates

  Not Collective

  Input Parameter:
. ksp - the Krylov solver

  Output Parameter:
. stats - the counts, summed over all solves of the solver

  Notes:
  `-ksp_view` prints the same. Counts of one solve are differences of two calls.

  Level: advanced

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabStatistics`
@*/
PetscErrorCode KSPCABiCGStabGetStatistics(KSP ksp, KSPCABiCGStabStatistics *stats)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(stats, 2);
  PetscUseMethod(ksp, "KSPCABiCGStabGetStatistics_C", (KSP, KSPCABiCGStabStatistics *), (ksp, stats));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPCABICGSTAB - s-step (communication-avoiding) BiCGStab: one global reduction per s iterations

   Options Database Keys:
+  -ksp_cabicgstab_s <4>                          - inner iterations per outer iteration (global reduction), 1 <= s <= 32
.  -ksp_cabicgstab_basis <monomial>               - polynomial basis of the Krylov subspaces: monomial, newton, chebyshev
.  -ksp_cabicgstab_spectrum <lmin,lmax>           - interval of the spectrum of the preconditioned operator (newton, chebyshev); estimated if not given
.  -ksp_cabicgstab_telescope <true>               - outer iteration k uses s_k = min(s, 2^k)
.  -ksp_cabicgstab_symmetric_gram <true>          - reduce only g and the upper triangle of the symmetric Gram matrix
.  -ksp_cabicgstab_residual_replacement           - replace the residual by b - A x when its drift estimate grows (default: on for newton, chebyshev)
.  -ksp_cabicgstab_paired <false>                 - build [Â^k p, Â^k r] as two-column products (one halo exchange per pair)
.  -ksp_cabicgstab_one_pass_product <true>        - `KSPMatSolve()`: a `MATSEQAIJ` or `MATMPIAIJ` applied to all columns of a run in one pass over the matrix, a diagonal `PCJACOBI` within it (false: PETSc's AIJ x dense product, one pass per 4 columns)
.  -ksp_cabicgstab_one_pass_window <16777216>     - bytes of that product's window at most (band x columns in flight; a wider band takes the columns in groups)
-  -ksp_cabicgstab_adaptive_s <true>              - lower s_k while the coordinates of r lose more than half of their digits

   Level: intermediate

   Notes:
   Each outer iteration computes bases P of K_{2s+1}(Â, p) and R of K_{2s}(Â, r), forms the Gram matrix
   [g, G] = [P, R]^T [rt, P, R] with one local BLAS-3 product and exactly one `MPI_Allreduce`, runs s
   BiCGStab iterations on length-(4s+1) coordinate vectors (no communication, no work of length N),
   and rebuilds p, r and x with one more local product. A solve issues one reduction per outer iteration
   and no other: the initial residual norm comes with the first Gram matrix, G(r_0, r_0)^{1/2}. That is
   about 1/s per iteration against 3-4 for `KSPBCGS`, and a single reduction for a solve of at most s
   iterations (a multigrid bottom solve with s large enough and telescoping off).

   Right preconditioning (Â = A M^{-1}) is the default, with the unpreconditioned residual norm; the
   solution is updated with one preconditioner application per outer iteration. Left preconditioning
   uses the preconditioned norm; `KSP_NORM_NONE` is supported with either side. Residual norms come
   from (c, G c)^{1/2}, without communication; round-off can make (c, G c) slightly negative, which
   counts as zero (the paper's Section V.C).

   Bases: monomial (no setup, s up to about 4; scaled by powers of 2 near ||Â||, so an operator of any scale), Newton or
   Chebyshev (s = 8 to 16 and more; the spectrum is estimated once per operator by a few GMRES steps, or given), see
   `KSPCABiCGStabSetBasis()`.

   `KSPSolveTranspose()` solves A^T x = b on every path (the bases, paired or not, residual replacement, the check of a
   convergence claim, the recovery of x) with A^T and the transposed preconditioner; the spectrum estimate of the
   Newton and Chebyshev bases serves both, since A^T M^{-T} has the spectrum of A M^{-1}.

   Accuracy: a solve that claims convergence while the rounding-drift estimate of its updated residual exceeds 1 %
   of the tolerance checks b - A x (one more reduction) and goes on from it by residual replacement if it fails the
   test, so the true residual norm of a converged solve is at most 1.01 times the tolerance; with the Newton and
   Chebyshev bases the residual is also replaced during the solve when its drift grows (see
   `KSPCABiCGStabSetResidualReplacement()`).

   Large s: the Gram matrix gives squared norms with an absolute error of eps (sum_i |x_i| ||y_i||)^2. Near a breakdown
   of BiCGStab (a huge alpha) the ||q|| of the half step is a cancellation it cannot resolve; the outer iteration then
   ends at the half step and the next one, whose Gram matrix measures q afresh, resumes the iteration at omega (the
   iteration count stays BiCGStab's; one reduction more). An unresolved ||r|| likewise ends the outer iteration after
   the step. Only an exact (rt, r) = 0 restarts, and fully (p = rt = r). Adaptive s (`KSPCABiCGStabSetAdaptiveS()`)
   halves s_k while the rebuilt r loses more than half of its digits. `-ksp_view` and `KSPCABiCGStabGetStatistics()`
   report early ends, half steps, restarts, replacements, checks and the s_k adaptive s allowed.

   Each inner iteration counts in `KSPGetIterationNumber()` and goes through the monitors and the
   convergence test, so iteration counts compare with `KSPBCGS`; `KSPBuildSolution()` and
   `KSPBuildResidual()` give the current iterate at any inner iteration. Breakdowns ((rt, Âp) = 0,
   omega = 0) end the solve with `KSP_DIVERGED_BREAKDOWN`, non-finite coefficients with
   `KSP_DIVERGED_NANORINF`; x then holds the last finite iterate.

   `KSPMatSolve()` (dense B and X; a batch at a time with `-ksp_matsolve_batch_size`) advances the m solves together in
   rounds, with ONE global reduction per round for all of them: each round runs one outer iteration of every column
   still iterating, packs the m Gram matrices into one `MPI_Allreduce`, and builds the bases power by power, the columns
   at the same basis index as one sparse matrix times dense block product (`PCMatApply()` for the preconditioner), so
   that `PCMG` applies one cycle to the block and its bottom solver gets a `KSPMatSolve()` (with the bottom hook: this
   block solve). Each column keeps everything of its own `KSPSolve()`: s_k, adaptive s, residual replacement, the check
   of a convergence claim (one reduction for that column), iteration count and reason
   (`CAKrylovKSPGetMatSolveConvergedReasons()`); one spectrum estimate serves all columns. With right preconditioning
   the preconditioner is applied to blocks only (`PCMatApply()`, also for x += M^{-1} dx), never column by column; with
   left preconditioning the initial residual and a checked claim apply it per column. With the identity preconditioner
   a block of one column is `KSPSolve()`'s iteration bit for bit. `KSPGetIterationNumber()` is the largest column count, `KSPGetConvergedReason()`
   that of the first column that failed (else of the longest); `-ksp_monitor` prints once per round the largest residual
   norm tested in it, for that column's system. With a convergence test other than `KSPConvergedDefault()`, a null
   space, diagonal scaling, `KSPMatSolveTranspose()` or blocks that are not `MATSEQDENSE`/`MATMPIDENSE` the columns are
   solved one by one (`-info` says why). On one rank the block saves only the sparse-matrix passes: the Gram matrices and
   rebuilds are per column, as in m solves; it pays where the reductions dominate.

   Cost: 4s+2 vectors of extra memory (the basis and rt, one contiguous block), 4s-1 operator and
   preconditioner applications per s iterations (about twice `KSPBCGS`). It pays when global reductions
   dominate: multigrid bottom solves and small-per-rank problems at scale. Real scalars only; the
   vectors must be `VECSEQ`/`VECMPI`. A block solve of m columns keeps m (4s+2) vectors and m column solvers.

   References:
+  * - S. Williams, M. Lijewski, A. Almgren, B. Van Straalen, E. Carson, N. Knight, J. Demmel,
   s-step Krylov subspace methods as bottom solvers for geometric multigrid, IPDPS 2014.
.  * - Z. Bai, D. Hu, L. Reichel, A Newton basis GMRES implementation, IMA J. Numer. Anal. 14 (1994).
.  * - M. Hoemmen, Communication-avoiding Krylov subspace methods, PhD thesis, UC Berkeley, 2010 (Ch. 7, bases).
.  * - E. Carson, J. Demmel, A residual replacement strategy for improving the maximum attainable accuracy
   of s-step Krylov subspace methods, SIAM J. Matrix Anal. Appl. 35 (2014); H. van der Vorst, Q. Ye, Residual
   replacement strategies for Krylov subspace iterative methods for the convergence of true residuals, SISC 22 (2000).
-  * - E. Carson, The adaptive s-step conjugate gradient method, SIAM J. Matrix Anal. Appl. 39 (2018).

.seealso: `KSPCreate()`, `KSPSetType()`, `KSPBCGS`, `KSPCABiCGStabSetS()`, `KSPCABiCGStabSetBasis()`,
          `KSPCABiCGStabSetSpectrum()`, `KSPCABiCGStabSetTelescope()`, `KSPCABiCGStabSetSymmetricGram()`,
          `KSPCABiCGStabSetResidualReplacement()`, `KSPCABiCGStabSetPaired()`, `KSPCABiCGStabSetAdaptiveS()`,
          `KSPCABiCGStabGetStatistics()`, `CAKrylovInitializePackage()`
M*/
PetscErrorCode KSPCreate_CABiCGStab(KSP ksp)
{
  KSP_CABiCGStab *cab;

  PetscFunctionBegin;
  PetscCall(PetscNew(&cab));
  ksp->data            = (void *)cab;
  cab->s               = 4;
  cab->basis           = KSP_CABICGSTAB_BASIS_MONOMIAL;
  cab->telescope       = PETSC_TRUE;
  cab->symmetric       = PETSC_TRUE;
  cab->adaptive        = PETSC_TRUE;
  cab->one_pass        = PETSC_TRUE;
  cab->mono_scale      = 1.0;
  cab->one_pass_window = 1 << 24;

  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_RIGHT, 3));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_PRECONDITIONED, PC_LEFT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_RIGHT, 1));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_LEFT, 1));

  ksp->ops->setup          = KSPSetUp_CABiCGStab;
  ksp->ops->solve          = KSPSolve_CABiCGStab;
  ksp->ops->reset          = KSPReset_CABiCGStab;
  ksp->ops->destroy        = KSPDestroy_CABiCGStab;
  ksp->ops->view           = KSPView_CABiCGStab;
  ksp->ops->setfromoptions = KSPSetFromOptions_CABiCGStab;
  ksp->ops->buildsolution  = KSPBuildSolution_CABiCGStab;
  ksp->ops->buildresidual  = KSPBuildResidualDefault;
  ksp->ops->matsolve       = KSPMatSolve_CABiCGStab;

  PetscCall(KSPCABiCGStabComposeMethods(ksp, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
