#include "ksptests.h"

static char help[] = "Regression tests of KSPRBICGSTAB on DMDA problems.\n" KSPTESTS_HELP "\n";

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(KSPTestRun(KSPRBICGSTAB, NULL));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST
   # KSPRBICGSTAB: converges; iterations within 5 % of PETSc's bcgs with right preconditioning (rbicgstab's only side)
   testset:
      suffix: converged
      nsize: {{1 2 4}}
      args: -ksp_type rbicgstab -problem {{poisson convdiff}} -dim 2 -n 24 -pc_type {{none jacobi bjacobi synthetic}} -ksp_pc_side right -nonzero_guess {{0 1}} -compare 0.05
      output_file: output/rbicgstab_converged.out

   testset:
      suffix: converged_3d
      nsize: 2
      args: -ksp_type rbicgstab -problem {{poisson convdiff}} -dim 3 -n 10 -pc_type {{jacobi bjacobi}} -ksp_pc_side right -compare 0.05
      output_file: output/rbicgstab_converged.out

   # 2 non-blocking reductions per iteration, + 1 at the start and + 1 for the norm of the last iterate
   test:
      suffix: reductions
      nsize: 2
      args: -ksp_type rbicgstab -problem convdiff -pc_type {{none jacobi}} -count_reductions
      output_file: output/rbicgstab_reductions.out

   test:
      suffix: reductions_normnone
      nsize: 2
      args: -ksp_type rbicgstab -problem convdiff -pc_type jacobi -ksp_norm_type none -ksp_max_it 30 -count_reductions

   # manual progression (MPI_Test in the chunks of PCJACOBI and PCSYNTHETIC; none in bjacobi) changes nothing, bitwise;
   # the MPI_Test calls made per overlapped region follow -ksp_rbicgstab_progress_tests (at least 1, at most n + 1), also
   # when a late rank keeps the reductions in flight through whole regions (-late_rank_ms 5: the first region of each kind
   # then polls the request at all of its ~100 chunk boundaries)
   test:
      suffix: progress
      nsize: 2
      args: -ksp_type rbicgstab -problem convdiff -n 64 -pc_type {{jacobi bjacobi synthetic}} -check_progress
      output_file: output/rbicgstab_progress.out

   test:
      suffix: progress_tests
      nsize: 2
      args: -ksp_type rbicgstab -problem convdiff -n 64 -pc_type jacobi -ksp_rbicgstab_progress test -ksp_rbicgstab_progress_tests {{1 4 8}} -check_progress_tests -late_rank_ms {{0 5}}
      output_file: output/rbicgstab_progress_tests.out

   test:
      suffix: progress_tests_synthetic
      nsize: 2
      args: -ksp_type rbicgstab -problem convdiff -n 64 -pc_type synthetic -pc_synthetic_complexity 20 -ksp_rbicgstab_progress test -ksp_rbicgstab_progress_tests {{1 4 8}} -check_progress_tests -late_rank_ms {{0 5}}
      output_file: output/rbicgstab_progress_tests.out

   test:
      suffix: view
      nsize: 2
      args: -ksp_type rbicgstab -problem convdiff -n 16 -pc_type jacobi -ksp_view
      filter: grep -E "rbicgstab|reordered|progression|statistics" | sed -E "/statistics/s/[0-9]+/N/g"

   test:
      suffix: bad_option
      args: -ksp_type rbicgstab -ksp_rbicgstab_progress_tests 0
      filter: Error: grep -o -E "MPI_Test calls per overlapped region 0 must be at least 1"

   # breakdown, zero and NaN right-hand sides: the verdicts of the other merged types (tests/bcgsm.c)
   test:
      suffix: breakdown
      nsize: {{1 2}}
      args: -ksp_type rbicgstab -problem skew -dim 2 -n 8 -pc_type none
      filter: sed -E "s/^rbicgstab:/merged:/"
      output_file: output/rbicgstab_breakdown.out

   test:
      suffix: zero_rhs
      nsize: {{1 2}}
      args: -ksp_type rbicgstab -rhs zero -pc_type jacobi
      filter: sed -E "s/^rbicgstab:/merged:/"
      output_file: output/rbicgstab_zero_rhs.out

   test:
      suffix: nan_rhs
      nsize: {{1 2}}
      args: -ksp_type rbicgstab -rhs nan -pc_type jacobi -ksp_pc_side right -ksp_norm_type {{unpreconditioned none}}
      filter: sed -E "s/^rbicgstab:/merged:/"
      output_file: output/rbicgstab_nan_rhs.out
TEST*/
