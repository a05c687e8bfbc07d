#include "ksptests.h"

static char help[] = "Regression tests of the merged BiCGStab types KSPBCGSM and KSPPIPEBCGSM on DMDA problems (bcgsm by default, -ksp_type pipebcgsm).\n" KSPTESTS_HELP "\n";

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(KSPTestRun(KSPBCGSM, NULL));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST
   # KSPBCGSM: converges; iterations within 5 % of PETSc's bcgs with the same PC, side and guess
   testset:
      suffix: converged
      nsize: {{1 2 4}}
      args: -ksp_type bcgsm -problem {{poisson convdiff}} -dim 2 -n 24 -pc_type {{none jacobi bjacobi}} -ksp_pc_side {{left right}} -nonzero_guess {{0 1}} -compare 0.05
      output_file: output/bcgsm_converged.out

   testset:
      suffix: converged_3d
      nsize: 2
      args: -ksp_type bcgsm -problem {{poisson convdiff}} -dim 3 -n 10 -pc_type {{jacobi bjacobi}} -compare 0.05
      output_file: output/bcgsm_converged.out

   # KSPPIPEBCGSM: converges; iterations within 5 % of PETSc's pipebcgs (right preconditioning only, as pipebcgs)
   testset:
      suffix: pipebcgsm
      nsize: {{1 2 4}}
      args: -ksp_type pipebcgsm -problem {{poisson convdiff}} -dim 2 -n 24 -pc_type {{none jacobi bjacobi}} -nonzero_guess {{0 1}} -compare 0.05 -compare_type pipebcgs
      output_file: output/bcgsm_pipebcgsm_converged.out

   testset:
      suffix: pipebcgsm_3d
      nsize: 2
      args: -ksp_type pipebcgsm -problem {{poisson convdiff}} -dim 3 -n 10 -pc_type {{jacobi bjacobi}} -compare 0.05 -compare_type pipebcgs
      output_file: output/bcgsm_pipebcgsm_converged.out

   # the portable fallback of the fused kernels (PETSc Vec operations) reproduces the fast path: iterations and residual history
   test:
      suffix: fallback
      nsize: {{1 2}}
      args: -ksp_type {{bcgsm pipebcgsm}} -problem convdiff -pc_type {{none jacobi bjacobi}} -check_fallback
      filter: sed -e "s/^[a-z]*bcgsm:/merged:/"
      output_file: output/bcgsm_fallback.out

   # global reductions counted for real on 2 ranks: bcgsm 3 per iteration (bcgs needs 4), pipebcgsm 2 per iteration, all non-blocking
   test:
      suffix: reductions
      nsize: 2
      args: -ksp_type bcgsm -problem convdiff -pc_type jacobi -count_reductions -compare 0.05

   test:
      suffix: reductions_normnone
      nsize: 2
      args: -ksp_type bcgsm -problem convdiff -pc_type jacobi -ksp_norm_type none -ksp_max_it 30 -count_reductions

   test:
      suffix: pipebcgsm_reductions
      nsize: 2
      args: -ksp_type pipebcgsm -problem convdiff -pc_type jacobi -count_reductions -compare 0.05 -compare_type pipebcgs

   test:
      suffix: pipebcgsm_reductions_normnone
      nsize: 2
      args: -ksp_type pipebcgsm -problem convdiff -pc_type jacobi -ksp_norm_type none -ksp_max_it 30 -count_reductions

   test:
      suffix: view
      nsize: 2
      args: -ksp_type bcgsm -problem convdiff -n 16 -pc_type jacobi -ksp_view
      filter: grep -E "bcgsm|merged|statistics" | sed -E "/statistics/s/[0-9]+/N/g"

   test:
      suffix: pipebcgsm_view
      nsize: 2
      args: -ksp_type pipebcgsm -problem convdiff -n 16 -pc_type jacobi -ksp_view
      filter: grep -E "pipebcgsm|pipelined|reads|replacement|progression|statistics" | sed -E "/statistics/s/[0-9]+/N/g"

   # residual replacement every 5 iterations: still converges to the true residual
   test:
      suffix: pipebcgsm_replacement
      nsize: 2
      args: -ksp_type pipebcgsm -problem convdiff -n 24 -pc_type {{none jacobi}} -ksp_pipebcgsm_residual_replacement_period 5 -ksp_view
      filter: grep -E "pipebcgsm:|true residual|replacement" | sed -E -e "s/, [1-9][0-9]* residual replacements/, at least one residual replacement/" -e "/statistics/s/[0-9]+/N/g"
      output_file: output/bcgsm_pipebcgsm_replacement.out

   test:
      suffix: merged_breakdown
      nsize: {{1 2}}
      args: -ksp_type {{bcgsm pipebcgsm}} -problem skew -dim 2 -n 8 -pc_type none
      filter: sed -E "s/^(bcgsm|pipebcgsm):/merged:/"
      output_file: output/bcgsm_merged_breakdown.out

   test:
      suffix: merged_zero_rhs
      nsize: {{1 2}}
      args: -ksp_type {{bcgsm pipebcgsm}} -rhs zero -pc_type jacobi
      filter: sed -E "s/^(bcgsm|pipebcgsm):/merged:/"
      output_file: output/bcgsm_merged_zero_rhs.out

   test:
      suffix: merged_nan_rhs
      nsize: {{1 2}}
      args: -ksp_type {{bcgsm pipebcgsm}} -rhs nan -pc_type jacobi -ksp_pc_side right -ksp_norm_type {{unpreconditioned none}}
      filter: sed -E "s/^(bcgsm|pipebcgsm):/merged:/"
      output_file: output/bcgsm_merged_nan_rhs.out

   # manual progression in pipebcgsm (MPI_Test in the chunks of PCJACOBI and of the SEQAIJ/MPIAIJ SpMV) changes nothing, bitwise;
   # between 1 and n + 1 MPI_Test calls per region, also with a late rank (the reductions in flight through whole regions)
   test:
      suffix: pipebcgsm_progress
      nsize: {{1 2 4}}
      args: -ksp_type pipebcgsm -problem convdiff -n 64 -pc_type {{none jacobi bjacobi}} -check_progress
      output_file: output/bcgsm_pipebcgsm_progress.out

   test:
      suffix: pipebcgsm_progress_3d
      nsize: 2
      args: -ksp_type pipebcgsm -problem poisson -dim 3 -n 20 -pc_type jacobi -check_progress -ksp_pipebcgsm_progress_tests {{1 4 8}} -check_progress_tests -late_rank_ms {{0 5}}
      output_file: output/bcgsm_pipebcgsm_progress_3d.out

   test:
      suffix: pipebcgsm_bad_option
      args: -ksp_type pipebcgsm -ksp_pipebcgsm_residual_replacement_period -1
      filter: Error: grep -o -E "KSPPIPEBCGSM residual replacement period -1 must be >= 0 .0: never."

   # the deprecated name of the residual replacement period still takes effect (PETSc's deprecation warning is filtered out)
   test:
      suffix: pipebcgsm_deprecated_option
      nsize: 2
      args: -ksp_type pipebcgsm -problem convdiff -n 16 -pc_type jacobi -ksp_pipebcgsm_replacement_period 7 -ksp_view
      filter: grep -E "^pipebcgsm:|residual replacement every"

   # omega = 0 after a half step that solved the system up to rounding (PETSc's ex23 -n 3, a 3-point 1D Laplacian, right
   # Jacobi: s is orthogonal to A s only because s is rounding): converged, as PETSc's bcgs and pipebcgs, not a breakdown
   test:
      suffix: half_step_solves
      nsize: 2
      command: ${mpiexec} -n 2 ${CAKRYLOV_PETSC_EXAMPLES}/ex23 -dll_append ${CAKRYLOV_LIBRARY} -n 3 -ksp_type {{bcgsm pipebcgsm rbicgstab}} -ksp_pc_side right -pc_type jacobi -ksp_converged_reason
      filter: grep -E "^ *(Linear solve|Norm of error)" | sed -E -e "s/^ +//" -e "s/iterations [0-9]+/iterations N/"
      output_file: output/bcgsm_half_step_solves.out

   # -cakrylov_vec_fallback is each solver's own setting, read with its prefix: a bcgsm inside PCKSP (prefix ksp_) takes
   # the portable path while the outer bcgsm keeps the fused kernels, and the other way round (-ksp_view's lines of ours:
   # the outer solver's statistics come first, then the inner one's)
   test:
      suffix: fallback_nested_inner
      command: ${CAKRYLOV_PETSC_EXAMPLES}/ex2 -dll_append ${CAKRYLOV_LIBRARY} -m 8 -n 8 -ksp_type bcgsm -pc_type ksp -ksp_ksp_type bcgsm -ksp_ksp_max_it 3 -ksp_cakrylov_vec_fallback 1 -ksp_view
      filter: grep -E "^ *(statistics|vector operations):" | sed -E -e "s/^ +//" -e "s/[0-9]+ /N /g"

   test:
      suffix: fallback_nested_outer
      command: ${CAKRYLOV_PETSC_EXAMPLES}/ex2 -dll_append ${CAKRYLOV_LIBRARY} -m 8 -n 8 -ksp_type bcgsm -pc_type ksp -ksp_ksp_type bcgsm -ksp_ksp_max_it 3 -cakrylov_vec_fallback 1 -ksp_view
      filter: grep -E "^ *(statistics|vector operations):" | sed -E -e "s/^ +//" -e "s/[0-9]+ /N /g"

TEST*/
