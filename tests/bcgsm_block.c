static char help[] = "KSPMatSolve() with KSPBCGSM (or -ksp_type pipebcgsm, rbicgstab): m right-hand sides solved as one block against a KSPSolve() per column.\n"
                     "-problem <poisson|convdiff>, -dim <2|3>, -n <points per direction>, -nrhs <m>, -nonzero_guess\n"
                     "-zero_column <j>, -nan_column <j> : column j is zero, or has a NaN entry\n"
                     "-early_column <j>, -early_scale <s> : column j is s times column 0 (with -ksp_atol it converges early)\n"
                     "-user_test : a convergence test of the user's (KSPConvergedDefault() wrapped): the block path falls back to KSPSolve() per column\n"
                     "-count_reductions : global reductions of KSPMatSolve() against those of one KSPSolve() of its longest column\n"
                     "-layout_error : KSPMatSolve() in the interleaved layout must refuse the preconditioner (PETSC_ERR_SUP) first\n";

#include <cakrylov.h>
#include <cakrylov/private/compat.h>
#include <petscdmda.h>

#include "reductioncounter.h"
#include "stencil.h"

static PetscErrorCode UserConverged(KSP ksp, PetscInt n, PetscReal rnorm, KSPConvergedReason *reason, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(KSPConvergedDefault(ksp, n, rnorm, reason, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||v|| in the norm the KSP tests: ||v|| (right preconditioning, none) or ||M^{-1} v|| (left) */
static PetscErrorCode TestNorm(KSP ksp, Vec v, PetscReal *norm)
{
  PCSide side;
  PC     pc;
  Vec    z;

  PetscFunctionBegin;
  PetscCall(KSPGetPCSide(ksp, &side));
  if (side == PC_LEFT) {
    PetscCall(VecDuplicate(v, &z));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCApply(pc, v, z));
    PetscCall(VecNorm(z, NORM_2, norm));
    PetscCall(VecDestroy(&z));
  } else PetscCall(VecNorm(v, NORM_2, norm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM                        da;
  Mat                       A, B, X, X0;
  KSP                       ksp, single;
  PC                        pc, spc;
  PCType                    pctype;
  PCSide                    side;
  KSPNormType               normtype;
  StencilProblem            problem = STENCIL_CONVDIFF;
  PetscInt                  dim = 2, n = 24, m = 4, zero = -1, nan = -1, early = -1, rstart, rend, nloc, maxit, nb, its_block, *its_single, longest = 0, offset;
  PetscReal                 peclet = 0.5, escale = 1e-5, rtol, atol, dtol;
  PetscBool                 flg, nonzero = PETSC_FALSE, user = PETSC_FALSE, count = PETSC_FALSE, layout_error = PETSC_FALSE, allconv = PETSC_TRUE, resid = PETSC_TRUE, itsok = PETSC_TRUE, same = PETSC_TRUE;
  KSPConvergedReason        reason_block, *reason_single;
  const KSPConvergedReason *reasons;
  const PetscInt           *its;
  PetscInt                  nred_block, nred_single = 0, perit;
  KSPType                   type;
  PetscBool                 pipe;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(CAKrylovInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "KSPMatSolve() test", NULL);
  PetscCall(PetscOptionsEnum("-problem", "Operator", NULL, StencilProblems, (PetscEnum)problem, (PetscEnum *)&problem, NULL));
  PetscCall(PetscOptionsInt("-dim", "2 or 3", NULL, dim, &dim, NULL));
  PetscCall(PetscOptionsInt("-n", "Grid points per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-nrhs", "Columns", NULL, m, &m, NULL));
  PetscCall(PetscOptionsBool("-nonzero_guess", "Start from a nonzero initial guess", NULL, nonzero, &nonzero, NULL));
  PetscCall(PetscOptionsInt("-zero_column", "A zero column", NULL, zero, &zero, NULL));
  PetscCall(PetscOptionsInt("-nan_column", "A column with a NaN", NULL, nan, &nan, NULL));
  PetscCall(PetscOptionsInt("-early_column", "A column scaled by -early_scale", NULL, early, &early, NULL));
  PetscCall(PetscOptionsReal("-early_scale", "Its scale", NULL, escale, &escale, NULL));
  PetscCall(PetscOptionsBool("-user_test", "A user convergence test", NULL, user, &user, NULL));
  PetscCall(PetscOptionsBool("-count_reductions", "Count global reductions", NULL, count, &count, NULL));
  PetscCall(PetscOptionsBool("-layout_error", "The interleaved layout refuses the PC first", NULL, layout_error, &layout_error, NULL));
  PetscOptionsEnd();

  PetscCall(StencilCreateDMDA(PETSC_COMM_WORLD, dim, n, DM_BOUNDARY_NONE, &da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(AssembleStencilOperator(da, problem, peclet, A));

  /* B: m distinct columns b_j(i) = 1 + 0.5 sin(0.37 (j + 1)(i + 1)) of the global index i (the same on any number of
     ranks), with the special columns asked for; X0: the initial guess 0.1 sin(i + j) or zero */
  PetscCall(MatGetLocalSize(A, &nloc, NULL));
  PetscCall(MatCreateDense(PETSC_COMM_WORLD, nloc, PETSC_DECIDE, PETSC_DETERMINE, m, NULL, &B));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X0));
  PetscCall(MatGetOwnershipRange(B, &rstart, &rend));
  for (PetscInt j = 0; j < m; j++) {
    for (PetscInt i = rstart; i < rend; i++) {
      PetscScalar v = 1.0 + 0.5 * PetscSinReal(0.37 * (j + 1) * (i + 1));

      if (j == early) v = escale * (1.0 + 0.5 * PetscSinReal(0.37 * (i + 1)));
      if (j == zero) v = 0.0;
      if (j == nan && i == 0) v = (PetscScalar)NAN;
      PetscCall(MatSetValue(B, i, j, v, INSERT_VALUES));
      PetscCall(MatSetValue(X0, i, j, nonzero ? 0.1 * PetscSinReal((PetscReal)(i + j)) : 0.0, INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(X0, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(X0, MAT_FINAL_ASSEMBLY));
  PetscCall(MatDuplicate(X0, MAT_COPY_VALUES, &X));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPBCGSM));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetInitialGuessNonzero(ksp, nonzero));
  PetscCall(KSPSetFromOptions(ksp));
  if (user) {
    void *ctx;

    PetscCall(KSPConvergedDefaultCreate(&ctx));
    PetscCall(KSPSetConvergenceTest(ksp, UserConverged, ctx, KSPConvergedDefaultDestroy));
  }
  PetscCall(KSPSetUp(ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCGetType(pc, &pctype));
  PetscCall(KSPGetPCSide(ksp, &side));
  PetscCall(KSPGetNormType(ksp, &normtype));
  PetscCall(KSPGetTolerances(ksp, &rtol, &atol, &dtol, &maxit));
  PetscCall(KSPGetType(ksp, &type));
  PetscCall(PetscStrcmp(type, KSPPIPEBCGSM, &pipe));
  PetscCall(PetscStrcmp(type, KSPBCGSM, &flg));
  perit = flg ? 3 : 2; /* global reductions per iteration of one KSPSolve() */

  /* the reference: a KSPSolve() per column on a KSP of its own with the same settings (and the first use of the PC) */
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &single));
  PetscCall(KSPSetOperators(single, A, A));
  PetscCall(KSPSetType(single, type));
  if (pipe) {
    PetscInt period;

    PetscCall(KSPPIPEBCGSMGetReplacementPeriod(ksp, &period));
    PetscCall(KSPPIPEBCGSMSetReplacementPeriod(single, period));
  }
  PetscCall(KSPGetPC(single, &spc));
  PetscCall(PCSetType(spc, pctype));
  PetscCall(KSPSetPCSide(single, side));
  PetscCall(KSPSetNormType(single, normtype));
  PetscCall(KSPSetTolerances(single, rtol, atol, dtol, maxit));
  PetscCall(KSPSetInitialGuessNonzero(single, nonzero));
  PetscCall(PetscMalloc2(m, &its_single, m, &reason_single));
  for (PetscInt j = 0; j < m; j++) {
    Vec b, x;

    PetscCall(MatDenseGetColumnVecRead(B, j, &b));
    PetscCall(MatDenseGetColumnVecWrite(X, j, &x));
    PetscCall(KSPSolve(single, b, x));
    PetscCall(MatDenseRestoreColumnVecWrite(X, j, &x));
    PetscCall(MatDenseRestoreColumnVecRead(B, j, &b));
    PetscCall(KSPGetIterationNumber(single, &its_single[j]));
    PetscCall(KSPGetConvergedReason(single, &reason_single[j]));
    if (reason_single[j] > 0 && its_single[j] > its_single[longest]) longest = j;
  }
  if (count) { /* one KSPSolve() of the longest column, counted */
    Vec b, x;

    PetscCall(MatCopy(X0, X, SAME_NONZERO_PATTERN));
    PetscCall(MatDenseGetColumnVecRead(B, longest, &b));
    PetscCall(MatDenseGetColumnVecWrite(X, longest, &x));
    nreductions = 0;
    counting    = PETSC_TRUE;
    PetscCall(KSPSolve(single, b, x));
    counting    = PETSC_FALSE;
    nred_single = nreductions;
    PetscCall(MatDenseRestoreColumnVecWrite(X, longest, &x));
    PetscCall(MatDenseRestoreColumnVecRead(B, longest, &b));
  }

  if (layout_error) { /* a PC other than the identity and PCJACOBI in the interleaved layout: a PETSc error, then auto solves */
    CAKrylovMatSolveLayout layout;
    PetscErrorCode         ierr;

    PetscCall(CAKrylovKSPGetMatSolveLayout(ksp, &layout));
    PetscCall(CAKrylovKSPSetMatSolveLayout(ksp, CAKRYLOV_MATSOLVE_LAYOUT_INTERLEAVED));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = KSPMatSolve(ksp, B, X);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the interleaved layout refuses PC %s with PETSC_ERR_SUP: %s\n", pctype, ierr == PETSC_ERR_SUP ? "yes" : "NO"));
    PetscCall(CAKrylovKSPSetMatSolveLayout(ksp, layout));
  }

  /* the block solve; counted, after a first one that builds what the block path keeps (the products' symbolic phase
     issues a reduction per active-column count, as the PC's lazy setup does for a single solve) */
  if (count) {
    PetscCall(MatCopy(X0, X, SAME_NONZERO_PATTERN));
    PetscCall(KSPMatSolve(ksp, B, X));
  }
  PetscCall(MatCopy(X0, X, SAME_NONZERO_PATTERN));
  nreductions = 0;
  counting    = PETSC_TRUE;
  PetscCall(KSPMatSolve(ksp, B, X));
  counting   = PETSC_FALSE;
  nred_block = nreductions;
  PetscCall(KSPGetConvergedReason(ksp, &reason_block));
  PetscCall(KSPGetIterationNumber(ksp, &its_block));
  PetscCall(CAKrylovKSPGetMatSolveConvergedReasons(ksp, &nb, &reasons, &its));
  offset = m - nb; /* -ksp_matsolve_batch_size: the reasons are those of the last batch */

  /* verdicts per column: reason and iterations against its KSPSolve(); the true residual of X's column */
  for (PetscInt j = 0; j < m; j++) {
    Vec       b, x, r;
    PetscReal rn, bn;

    if (j >= offset) {
      const PetscInt jb = j - offset, allowed = PetscMax(1, its_single[j] / 10);

      if (reasons[jb] != reason_single[j]) {
        same = PETSC_FALSE;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  column %" PetscInt_FMT ": block %s, single %s\n", j, KSPConvergedReasons[reasons[jb]], KSPConvergedReasons[reason_single[j]]));
      }
      if (PetscAbsInt(its[jb] - its_single[j]) > allowed) {
        itsok = PETSC_FALSE;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  column %" PetscInt_FMT ": block %" PetscInt_FMT " iterations, single %" PetscInt_FMT "\n", j, its[jb], its_single[j]));
      }
      if (reasons[jb] <= 0 && j != nan) allconv = PETSC_FALSE;
    }
    if (j == nan) continue;
    PetscCall(MatDenseGetColumnVecRead(B, j, &b));
    PetscCall(MatDenseGetColumnVecRead(X, j, &x));
    PetscCall(VecDuplicate(b, &r));
    PetscCall(MatMult(A, x, r));
    PetscCall(VecAYPX(r, -1.0, b));
    PetscCall(TestNorm(ksp, r, &rn));
    PetscCall(TestNorm(ksp, b, &bn));
    if (rn > 1.01 * PetscMax(rtol * bn, atol)) {
      resid = PETSC_FALSE;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  column %" PetscInt_FMT ": ||r|| = %g, ||b|| = %g\n", j, (double)rn, (double)bn));
    }
    if (j == zero) {
      PetscReal xn;

      PetscCall(VecNorm(x, NORM_INFINITY, &xn));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "zero column: converged at iteration 0 with x = 0: %s\n", reasons[j - offset] > 0 && its[j - offset] == 0 && xn == 0.0 ? "yes" : "NO"));
    }
    PetscCall(VecDestroy(&r));
    PetscCall(MatDenseRestoreColumnVecRead(X, j, &x));
    PetscCall(MatDenseRestoreColumnVecRead(B, j, &b));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "every column converged%s: %s\n", nan >= 0 ? " but the NaN column" : "", allconv ? "yes" : "NO"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "every column's true residual <= 1.01 max(rtol ||b_j||, atol) (norm of the test): %s\n", resid ? "yes" : "NO"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "every column: the reason of its KSPSolve(): %s\n", same ? "yes" : "NO"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "every column: iterations within max(1, 10 %%) of its KSPSolve(): %s\n", itsok ? "yes" : "NO"));
  { /* the block's reason and iterations: the worst reason, the largest count */
    PetscInt           maxits = 0, failed = -1;
    KSPConvergedReason expect;

    for (PetscInt jb = 0; jb < nb; jb++) {
      maxits = PetscMax(maxits, its[jb]);
      if (reasons[jb] < 0 && failed < 0) failed = jb;
    }
    expect = failed >= 0 ? reasons[failed] : reason_block;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KSPGetIterationNumber() the largest column count, KSPGetConvergedReason() negative iff a column failed: %s\n", maxits == its_block && reason_block == expect && (failed >= 0) == (reason_block < 0) ? "yes" : "NO"));
  }
  if (nan >= 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "NaN column: %s\n", KSPConvergedReasons[reasons[nan - offset]]));
  if (early >= 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "early column: converged before the longest column: %s\n", reasons[early - offset] > 0 && its[early - offset] < its_block ? "yes" : "NO"));
  if (count) { /* one KSPSolve() of the longest column: 1 (+1 for ||b|| with a nonzero guess) + perit per iteration; the block: the same + perit per iteration it took more */
    const PetscInt expected = nred_single + perit * (its_block - its_single[longest]);

    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "global reductions of KSPMatSolve(), counted: those of one KSPSolve() (the same per iteration): %s\n", nred_block == expected ? "yes" : "NO"));
    if (nred_block != expected) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  block %" PetscInt_FMT " in %" PetscInt_FMT " iterations, single %" PetscInt_FMT " in %" PetscInt_FMT "\n", nred_block, its_block, nred_single, its_single[longest]));
  }

  PetscCall(PetscFree2(its_single, reason_single));
  PetscCall(KSPDestroy(&single));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&X));
  PetscCall(MatDestroy(&X0));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST
   # KSPMatSolve() with bcgsm, and with the communication-hiding pipebcgsm and rbicgstab (right preconditioning only): m columns
   # as one block against a KSPSolve() per column (m = 4 and Jacobi run in the tests below; one column and 7 here)
   testset:
      suffix: converged
      nsize: {{1 2 4}}
      args: -nrhs {{1 7}} -pc_type {{none bjacobi}} -ksp_pc_side {{left right}}
      output_file: output/bcgsm_block_converged.out

   testset:
      suffix: hiding_converged
      nsize: {{1 2 4}}
      args: -ksp_type {{pipebcgsm rbicgstab}} -nrhs {{1 7}} -pc_type {{none bjacobi}}
      output_file: output/bcgsm_block_converged.out

   test:
      suffix: nonzero_guess
      nsize: 2
      args: -nrhs 4 -nonzero_guess -pc_type {{jacobi bjacobi}} -ksp_pc_side {{left right}} -count_reductions
      output_file: output/bcgsm_block_count.out

   test:
      suffix: hiding_nonzero_guess
      nsize: 2
      args: -ksp_type {{pipebcgsm rbicgstab}} -nrhs 4 -nonzero_guess -pc_type {{jacobi bjacobi}} -count_reductions
      output_file: output/bcgsm_block_count.out

   # residual replacement every 5 iterations: the block replaces all its columns at once (they share the iteration count)
   test:
      suffix: pipebcgsm_replacement
      nsize: {{1 2}}
      args: -ksp_type pipebcgsm -nrhs 4 -ksp_pipebcgsm_residual_replacement_period 5 -pc_type {{none jacobi}} -count_reductions
      output_file: output/bcgsm_block_count.out

   test:
      suffix: count
      nsize: {{2 4}}
      args: -ksp_type {{bcgsm pipebcgsm rbicgstab}} -nrhs {{1 7}} -pc_type {{none jacobi}} -count_reductions
      output_file: output/bcgsm_block_count.out

   test:
      suffix: early
      nsize: {{1 2}}
      args: -nrhs 4 -early_column 2 -ksp_atol 1e-9 -pc_type jacobi -ksp_pc_side {{left right}}

   test:
      suffix: hiding_early
      nsize: {{1 2}}
      args: -ksp_type {{pipebcgsm rbicgstab}} -nrhs 4 -early_column 2 -ksp_atol 1e-9 -pc_type jacobi
      output_file: output/bcgsm_block_early.out

   test:
      suffix: zero
      nsize: {{1 2}}
      args: -ksp_type {{bcgsm pipebcgsm rbicgstab}} -nrhs 4 -zero_column 1 -pc_type jacobi -count_reductions

   test:
      suffix: nan
      nsize: {{1 2}}
      args: -nrhs 4 -nan_column 3 -pc_type jacobi -ksp_pc_side {{left right}}

   test:
      suffix: hiding_nan
      nsize: {{1 2}}
      args: -ksp_type {{pipebcgsm rbicgstab}} -nrhs 4 -nan_column 3 -pc_type jacobi
      output_file: output/bcgsm_block_nan.out

   # KSP_NORM_NONE: every column runs to max_it (KSP_DIVERGED_ITS, as its KSPSolve()), the reductions as one KSPSolve()'s
   test:
      suffix: norm_none
      nsize: 2
      args: -ksp_type {{bcgsm pipebcgsm rbicgstab}} -nrhs 4 -pc_type jacobi -ksp_norm_type none -ksp_max_it 20 -count_reductions
      filter: grep -E "reason of its|iterations within|^KSPGet|global reductions"

   # the dense layout with the preconditioners the interleaved one takes by default (none, Jacobi): the same verdicts
   testset:
      suffix: dense
      nsize: {{1 2}}
      args: -nrhs 7 -pc_type {{none jacobi}} -ksp_pc_side {{left right}} -ksp_bcgsm_matsolve_layout dense
      output_file: output/bcgsm_block_converged.out

   testset:
      suffix: pipebcgsm_dense
      nsize: {{1 2}}
      args: -ksp_type pipebcgsm -nrhs 7 -pc_type {{none jacobi}} -ksp_pipebcgsm_matsolve_layout dense
      output_file: output/bcgsm_block_converged.out

   testset:
      suffix: rbicgstab_dense
      nsize: {{1 2}}
      args: -ksp_type rbicgstab -nrhs 7 -pc_type {{none jacobi}} -ksp_rbicgstab_matsolve_layout dense
      output_file: output/bcgsm_block_converged.out

   # one column asked interleaved (auto takes the dense path for one column)
   test:
      suffix: bcgsm_interleaved_one
      nsize: {{1 2}}
      args: -ksp_type bcgsm -nrhs 1 -pc_type jacobi -ksp_bcgsm_matsolve_layout interleaved
      output_file: output/bcgsm_block_converged.out

   test:
      suffix: pipebcgsm_interleaved_one
      nsize: {{1 2}}
      args: -ksp_type pipebcgsm -nrhs 1 -pc_type jacobi -ksp_pipebcgsm_matsolve_layout interleaved
      output_file: output/bcgsm_block_converged.out

   test:
      suffix: rbicgstab_interleaved_one
      nsize: {{1 2}}
      args: -ksp_type rbicgstab -nrhs 1 -pc_type jacobi -ksp_rbicgstab_matsolve_layout interleaved
      output_file: output/bcgsm_block_converged.out

   # the interleaved layout asked with a PC it does not apply: a PETSc error; then the auto layout (dense) solves
   test:
      suffix: layout_error
      nsize: 2
      args: -nrhs 4 -pc_type bjacobi -layout_error

   test:
      suffix: batch
      nsize: 2
      args: -ksp_type {{bcgsm pipebcgsm rbicgstab}} -nrhs 7 -ksp_matsolve_batch_size 3 -pc_type bjacobi

   test:
      suffix: fallback
      nsize: 2
      args: -nrhs 4 -user_test -pc_type jacobi -ksp_view
      filter: grep -E "^(every|KSPGet)|KSPMatSolve\(\)" | sed -E -e "s/^ +//" -e "/last KSPMatSolve/s/[0-9]+/N/g"

   # the fallback with a nonzero initial guess: each column of X is read as its guess, then written
   test:
      suffix: fallback_nonzero_guess
      nsize: 2
      args: -ksp_type {{bcgsm pipebcgsm rbicgstab}} -nrhs 4 -user_test -nonzero_guess -pc_type jacobi
      output_file: output/bcgsm_block_converged.out

   test:
      suffix: pipebcgsm_fallback
      nsize: 2
      args: -ksp_type pipebcgsm -nrhs 4 -user_test -pc_type jacobi -ksp_view
      filter: grep -E "^(every|KSPGet)|KSPMatSolve\(\)" | sed -E -e "s/^ +//" -e "/last KSPMatSolve/s/[0-9]+/N/g"

   test:
      suffix: rbicgstab_fallback
      nsize: 2
      args: -ksp_type rbicgstab -nrhs 4 -user_test -pc_type jacobi -ksp_view
      filter: grep -E "^(every|KSPGet)|KSPMatSolve\(\)" | sed -E -e "s/^ +//" -e "/last KSPMatSolve/s/[0-9]+/N/g"

   test:
      suffix: view
      nsize: 2
      args: -nrhs 4 -pc_type jacobi -ksp_view
      filter: grep -E "^(every|KSPGet)|KSPMatSolve\(\)" | sed -E -e "s/^ +//" -e "/last KSPMatSolve/s/[0-9]+/N/g"

   test:
      suffix: pipebcgsm_view
      nsize: 2
      args: -ksp_type pipebcgsm -nrhs 4 -pc_type jacobi -ksp_view
      filter: grep -E "^(every|KSPGet)|KSPMatSolve\(\)" | sed -E -e "s/^ +//" -e "/last KSPMatSolve/s/[0-9]+/N/g"

   test:
      suffix: rbicgstab_view
      nsize: 2
      args: -ksp_type rbicgstab -nrhs 4 -pc_type jacobi -ksp_view
      filter: grep -E "^(every|KSPGet)|KSPMatSolve\(\)" | sed -E -e "s/^ +//" -e "/last KSPMatSolve/s/[0-9]+/N/g"
   # PETSc's own, unmodified KSPMatSolve() client ex79 (a random diagonally dominant 10 x 10 AIJ system, a dense block
   # of 10 right-hand sides) with the library loaded at run time: it fails unless the whole solve applied the
   # preconditioner to blocks only (PCMatApply(), never PCApply()), and it prints nothing when it passes
   # (LU on one rank only: a parallel LU needs MUMPS or SuperLU_DIST, which the PETSc of make test-petsc-latest lacks)
   test:
      suffix: plugin_ex79
      command: ${mpiexec} -n 1 ${CAKRYLOV_PETSC_EXAMPLES}/ex79 -dll_append ${CAKRYLOV_LIBRARY} -ksp_type {{bcgsm pipebcgsm rbicgstab}} -pc_type {{none shell mat lu bjacobi}}
      output_file: output/bcgsm_block_plugin_ex79.out
   test:
      suffix: plugin_ex79_2
      command: ${mpiexec} -n 2 ${CAKRYLOV_PETSC_EXAMPLES}/ex79 -dll_append ${CAKRYLOV_LIBRARY} -ksp_type {{bcgsm pipebcgsm rbicgstab}} -pc_type {{none shell mat bjacobi}}
      output_file: output/bcgsm_block_plugin_ex79.out

TEST*/
