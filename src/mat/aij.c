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
