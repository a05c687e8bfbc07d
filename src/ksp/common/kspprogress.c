/*
   Overlap progression for the solvers that hide non-blocking reductions (rbicgstab, pipebcgsm): the options, the
   statistics, the overlapped regions, and the work of the regions that this library runs in chunks itself so that
   it can poll (CAKrylovProgressPoll()) the reduction in flight: PCJACOBI and the SpMV of SEQAIJ/MPIAIJ here, the fused
   kernels in src/vec/. Both chunked kernels compute exactly what PETSc's own do, in the same order, so the iterates
   are bitwise those without progression (tested).
*/
#include <cakrylov/private/cakrylovimpl.h>
#include <petsc/private/kspimpl.h>
#include <petsc/private/pcimpl.h> /* PC_Apply: the chunked Jacobi is logged as PETSc logs PCApply() */

#define CAKRYLOV_PROGRESS_CHUNK 128 /* rows between polls: fine-grained enough for ~20 tests in a region of a few thousand rows */

/* -ksp_<type>_progress <none|test> and -ksp_<type>_progress_tests <n>; man: the manual page of the type's setter */
PetscErrorCode CAKrylovKSPProgressSetFromOptions(KSP ksp, CAKrylovOptionItems PetscOptionsObject, const char type[], const char man[], CAKrylovKSPProgress *pr)
{
  char                 name[2][64];
  CAKrylovProgressType ptype  = pr->type;
  PetscInt             ntests = pr->ntests;
  PetscBool            flg1, flg2;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(name[0], sizeof(name[0]), "-ksp_%s_progress", type));
  PetscCall(PetscSNPrintf(name[1], sizeof(name[1]), "-ksp_%s_progress_tests", type));
  PetscCall(PetscOptionsEnum(name[0], "Progression of the non-blocking reductions while the work that hides them runs", man, CAKrylovProgressTypes, (PetscEnum)ptype, (PetscEnum *)&ptype, &flg1));
  PetscCall(PetscOptionsInt(name[1], "MPI_Test calls per overlapped region with progress test", man, ntests, &ntests, &flg2));
  if (flg1 || flg2) PetscCall(CAKrylovKSPProgressSet(ksp, pr, ptype, ntests));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The defaults: no progression; with progress test about 20 tests per region (Krasnopolsky, Appendix C: 10-30 did best) */
void CAKrylovKSPProgressInitialize(CAKrylovKSPProgress *pr)
{
  pr->type   = CAKRYLOV_PROGRESS_NONE;
  pr->ntests = 20;
}

void CAKrylovKSPProgressGet(const CAKrylovKSPProgress *pr, CAKrylovProgressType *type, PetscInt *ntests)
{
  if (type) *type = pr->type;
  if (ntests) *ntests = pr->ntests;
}

PetscErrorCode CAKrylovKSPProgressSet(KSP ksp, CAKrylovKSPProgress *pr, CAKrylovProgressType type, PetscInt ntests)
{
  PetscFunctionBegin;
  PetscCheck(type == CAKRYLOV_PROGRESS_NONE || type == CAKRYLOV_PROGRESS_TEST, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "Unknown progression type %d", (int)type);
  PetscCheck(ntests >= 1, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "MPI_Test calls per overlapped region %" PetscInt_FMT " must be at least 1", ntests);
  pr->type   = type;
  pr->ntests = ntests;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One line of -ksp_view: the strategy and the MPI_Test calls made (regions with no reduction in flight, on one rank, make none) */
PetscErrorCode CAKrylovKSPProgressView(const CAKrylovKSPProgress *pr, PetscViewer viewer)
{
  PetscFunctionBegin;
  if (pr->type == CAKRYLOV_PROGRESS_NONE) PetscCall(PetscViewerASCIIPrintf(viewer, "  progression of the reductions: none (start, work, wait)\n"));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "  progression of the reductions: test, about %" PetscInt_FMT " MPI_Test calls per overlapped region; made %" PetscInt_FMT " in %" PetscInt_FMT " regions (%.1f per region, %" PetscInt_FMT " regions per iteration)\n", pr->ntests, pr->ntested, pr->nregions,
                                     pr->nregions ? (double)pr->ntested / pr->nregions : 0.0, (PetscInt)CAKRYLOV_KSP_PROGRESS_KINDS));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The work after this hides the reduction *req (region `kind` of the iteration): with progress test, poll it */
PetscErrorCode CAKrylovKSPProgressBegin(CAKrylovKSPProgress *pr, PetscInt kind, MPI_Request *req, CAKrylovProgressRegion *saved)
{
  PetscFunctionBegin;
  PetscCheck(kind >= 0 && kind < CAKRYLOV_KSP_PROGRESS_KINDS, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Bad region kind %" PetscInt_FMT, kind);
  if (pr->type == CAKRYLOV_PROGRESS_TEST) PetscCall(CAKrylovProgressBegin(req, pr->ntests, pr->expected[kind], saved));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CAKrylovKSPProgressEnd(CAKrylovKSPProgress *pr, PetscInt kind, const CAKrylovProgressRegion *saved)
{
  PetscInt polls, tests;

  PetscFunctionBegin;
  if (pr->type != CAKRYLOV_PROGRESS_TEST) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(CAKrylovProgressEnd(saved, &polls, &tests));
  pr->expected[kind] = polls; /* the same work next time: spread the tests over as many polls */
  pr->nregions++;
  pr->ntested += tests;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = M^{-1} x. With progress test and PCJACOBI on VECSEQ/VECMPI: y = x .* d in chunks, polling between them */
PetscErrorCode CAKrylovKSPPCApply(KSP ksp, CAKrylovKSPProgress *pr, Vec x, Vec y)
{
  PetscBool          jacobi, standard;
  const PetscScalar *xa, *d;
  PetscScalar       *ya;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp->pc, PCJACOBI, &jacobi));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)x, &standard, VECSEQ, VECMPI, ""));
  if (pr->type != CAKRYLOV_PROGRESS_TEST || !jacobi || !standard || ksp->transpose_solve) {
    PetscCall(KSP_PCApply(ksp, x, y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(CAKrylovPCJacobiDiagonal(ksp->pc, x, &pr->jacobi)); /* x may be a DM's vector */
  PetscCall(PetscLogEventBegin(PC_Apply, ksp->pc, x, y, 0));
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayRead(pr->jacobi.d, &d));
  PetscCall(VecGetArrayWrite(y, &ya));
  for (PetscInt start = 0; start < n; start += CAKRYLOV_PROGRESS_CHUNK) {
    const PetscInt end = PetscMin(n, start + CAKRYLOV_PROGRESS_CHUNK);

    for (PetscInt i = start; i < end; i++) ya[i] = xa[i] * d[i]; /* VecPointwiseMult(y, x, d), as PCApply_Jacobi() */
    PetscCall(CAKrylovProgressPoll());
  }
  PetscCall(VecRestoreArrayWrite(y, &ya));
  PetscCall(VecRestoreArrayRead(pr->jacobi.d, &d));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(PetscLogFlops(n));
  PetscCall(PetscLogEventEnd(PC_Apply, ksp->pc, x, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y (+)= A x for the rows of a SEQAIJ matrix, in chunks with a poll after each: sum over each row in storage order,
   from 0 (y = A x, as MatMult_SeqAIJ()) or from y_i (y += A x, as MatMultAdd_SeqAIJ()) */
static PetscErrorCode CAKrylovKSPProgressSpMVRows(Mat A, const PetscScalar *x, PetscScalar *y, PetscBool add)
{
  const PetscInt    *ia, *ja;
  const PetscScalar *aa;
  PetscInt           m;
  PetscBool          done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No row structure of the AIJ matrix");
  PetscCall(MatSeqAIJGetArrayRead(A, &aa));
  for (PetscInt start = 0; start < m; start += CAKRYLOV_PROGRESS_CHUNK) {
    const PetscInt end = PetscMin(m, start + CAKRYLOV_PROGRESS_CHUNK);

    for (PetscInt i = start; i < end; i++) {
      PetscScalar sum = add ? y[i] : 0.0;

      for (PetscInt k = ia[i]; k < ia[i + 1]; k++) sum += aa[k] * x[ja[k]]; /* y_i = sum_k a_ik x_k */
      y[i] = sum;
    }
    PetscCall(CAKrylovProgressPoll());
  }
  PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The halo exchange of an MPIAIJ matrix (x -> the ghost values its off-diagonal block reads), kept until its nonzero
   structure changes */
static PetscErrorCode CAKrylovKSPProgressHaloScatter(CAKrylovKSPProgress *pr, Mat A, Vec x)
{
  PetscObjectState state;

  PetscFunctionBegin;
  PetscCall(MatGetNonzeroState(A, &state));
  if (pr->halo && pr->halo_mat == A && pr->halo_state == state) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecScatterDestroy(&pr->halo));
  PetscCall(VecDestroy(&pr->ghost));
  PetscCall(CAKrylovMatHaloCreate(A, x, &pr->halo, &pr->ghost));
  pr->halo_mat   = A;
  pr->halo_state = state;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   y = A x with the null space removed (CAKrylovKSPMatMult()). With progress test and a SEQAIJ or MPIAIJ operator,
   in chunks with polls: for MPIAIJ as MatMult_MPIAIJ() does it, the diagonal block while the halo exchange runs,
   then the off-diagonal block added. Other matrix types: MatMult(), without polls.
*/
PetscErrorCode CAKrylovKSPMatMultProgress(KSP ksp, CAKrylovKSPProgress *pr, Vec x, Vec y)
{
  Mat                A;
  PetscBool          seq, mpi;
  const PetscScalar *xa, *ga;
  PetscScalar       *ya;
  MatInfo            info;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJ, &seq));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATMPIAIJ, &mpi));
  if (pr->type != CAKRYLOV_PROGRESS_TEST || !(seq || mpi) || ksp->transpose_solve) {
    PetscCall(CAKrylovKSPMatMult(ksp, x, y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(CAKRYLOV_SpMVProgress, A, x, y, 0));
  if (mpi) PetscCall(CAKrylovKSPProgressHaloScatter(pr, A, x));
  if (mpi) PetscCall(VecScatterBegin(pr->halo, x, pr->ghost, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayWrite(y, &ya));
  if (seq) PetscCall(CAKrylovKSPProgressSpMVRows(A, xa, ya, PETSC_FALSE));
  else {
    Mat Ad, Ao;

    PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, NULL));
    PetscCall(CAKrylovKSPProgressSpMVRows(Ad, xa, ya, PETSC_FALSE)); /* y = A_d x, while the ghost values travel */
    PetscCall(VecScatterEnd(pr->halo, x, pr->ghost, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGetArrayRead(pr->ghost, &ga));
    PetscCall(CAKrylovKSPProgressSpMVRows(Ao, ga, ya, PETSC_TRUE)); /* y += A_o x_ghost */
    PetscCall(VecRestoreArrayRead(pr->ghost, &ga));
  }
  PetscCall(VecRestoreArrayWrite(y, &ya));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
  PetscCall(PetscLogFlops(2.0 * info.nz_used));
  PetscCall(PetscLogEventEnd(CAKRYLOV_SpMVProgress, A, x, y, 0));
  PetscCall(KSP_RemoveNullSpace(ksp, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CAKrylovKSPProgressReset(CAKrylovKSPProgress *pr)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&pr->jacobi.d));
  PetscCall(VecScatterDestroy(&pr->halo));
  PetscCall(VecDestroy(&pr->ghost));
  pr->halo_mat = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
