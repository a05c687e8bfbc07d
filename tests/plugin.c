static char help[] = "Links libcakrylov and calls CAKrylovInitializePackage(): the types are registered and solve.\n\
The TEST blocks also load the library with -dll_append into PETSc's own, unmodified src/ksp/ksp/tutorials/ex2.c and\n\
into the petsc4py tutorial tutorials/ex2.py.\n\n";

#include <cakrylov.h>

int main(int argc, char **argv)
{
  const char *types[] = {KSPCABICGSTAB};
  Mat         A;
  Vec         u, x, b;
  KSP         ksp;
  PetscInt    n = 50, Istart, Iend;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(CAKrylovInitializePackage());
  PetscCall(CAKrylovInitializePackage()); /* a second call does nothing */

  /* 1D Laplacian, tridiag(-1, 2, -1), b = A u with u_i = sqrt(i + 1) (no symmetry that could make BiCGStab break down exactly) */
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, NULL, 2, NULL, &A));
  PetscCall(MatGetOwnershipRange(A, &Istart, &Iend));
  for (PetscInt i = Istart; i < Iend; i++) {
    if (i > 0) PetscCall(MatSetValue(A, i, i - 1, -1.0, INSERT_VALUES));
    if (i < n - 1) PetscCall(MatSetValue(A, i, i + 1, -1.0, INSERT_VALUES));
    PetscCall(MatSetValue(A, i, i, 2.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(A, &u, &b));
  PetscCall(VecDuplicate(u, &x));
  for (PetscInt i = Istart; i < Iend; i++) PetscCall(VecSetValue(u, i, PetscSqrtReal(i + 1.0), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(u));
  PetscCall(VecAssemblyEnd(u));
  PetscCall(MatMult(A, u, b));

  for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
    KSPConvergedReason reason;
    PetscReal          err;

    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, types[t]));
    PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 200));
    PetscCall(KSPSetFromOptions(ksp));
    PetscCall(VecSet(x, 0.0));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    PetscCall(VecAXPY(x, -1.0, u));
    PetscCall(VecNorm(x, NORM_INFINITY, &err));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %s, error below 1e-6: %s\n", types[t], KSPConvergedReasons[reason], err < 1e-6 ? "yes" : "no"));
    PetscCall(KSPDestroy(&ksp));
  }
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: linked
      nsize: {{1 2 4}}
      output_file: output/plugin_linked.out

   test:
      suffix: plugin_help
      command: ${CAKRYLOV_PETSC_EXAMPLES}/ex2 -dll_append ${CAKRYLOV_LIBRARY} -ksp_type cabicgstab -help
      filter: grep -o -E "^ *-ksp_cabicgstab_[a-z_]+"

   test:
      suffix: plugin_cabicgstab
      nsize: 2
      command: ${mpiexec} -n 2 ${CAKRYLOV_PETSC_EXAMPLES}/ex2 -dll_append ${CAKRYLOV_LIBRARY} -ksp_type cabicgstab -ksp_cabicgstab_s 4 -ksp_converged_reason -m 16 -n 16
      filter: sed -E -e "s/iterations [0-9]+/iterations N/" -e "s/Norm of error (0[.]00[0-9]*|[0-9.]+e-(0[5-9]|[1-9][0-9])) /Norm of error below 1e-2 /"

   test:
      suffix: plugin_help_pipebcgsm
      command: ${CAKRYLOV_PETSC_EXAMPLES}/ex2 -dll_append ${CAKRYLOV_LIBRARY} -ksp_type pipebcgsm -help
      filter: grep -o -E "^ *-ksp_pipebcgsm_[a-z_]+"

   test:
      suffix: plugin_pipebcgsm
      nsize: 2
      command: ${mpiexec} -n 2 ${CAKRYLOV_PETSC_EXAMPLES}/ex2 -dll_append ${CAKRYLOV_LIBRARY} -ksp_type pipebcgsm -pc_type jacobi -ksp_converged_reason -m 16 -n 16
      filter: sed -E -e "s/iterations [0-9]+/iterations N/" -e "s/Norm of error (0[.]00[0-9]*|[0-9.]+e-(0[5-9]|[1-9][0-9])) /Norm of error below 1e-2 /"

   test:
      suffix: plugin_bcgsm
      nsize: 2
      command: ${mpiexec} -n 2 ${CAKRYLOV_PETSC_EXAMPLES}/ex2 -dll_append ${CAKRYLOV_LIBRARY} -ksp_type bcgsm -pc_type jacobi -ksp_converged_reason -m 16 -n 16
      filter: sed -E -e "s/iterations [0-9]+/iterations N/" -e "s/Norm of error (0[.]00[0-9]*|[0-9.]+e-(0[5-9]|[1-9][0-9])) /Norm of error below 1e-2 /"

   test:
      suffix: plugin_rbicgstab
      nsize: 2
      command: ${mpiexec} -n 2 ${CAKRYLOV_PETSC_EXAMPLES}/ex2 -dll_append ${CAKRYLOV_LIBRARY} -ksp_type rbicgstab -pc_type jacobi -ksp_rbicgstab_progress test -ksp_converged_reason -m 16 -n 16
      filter: sed -E -e "s/iterations [0-9]+/iterations N/" -e "s/Norm of error (0[.]00[0-9]*|[0-9.]+e-(0[5-9]|[1-9][0-9])) /Norm of error below 1e-2 /"

   test:
      suffix: plugin_help_rbicgstab
      command: ${CAKRYLOV_PETSC_EXAMPLES}/ex2 -dll_append ${CAKRYLOV_LIBRARY} -ksp_type rbicgstab -help
      filter: grep -o -E "^ *-ksp_rbicgstab_[a-z_]+"

   test:
      suffix: plugin_help_bcgsm
      command: ${CAKRYLOV_PETSC_EXAMPLES}/ex2 -dll_append ${CAKRYLOV_LIBRARY} -ksp_type bcgsm -help
      filter: grep -o -E "^ *-ksp_bcgsm_[a-z_]+"

   # petsc4py as a client: tutorials/ex2.py builds a problem in Python, loads the plugin through the options database
   # and solves with each type, checked against bcgs solved in the same run
   test:
      suffix: petsc4py
      requires: petsc4py
      command: ${CAKRYLOV_PYTHON} ${CAKRYLOV_DIR}/tutorials/ex2.py -dll_append ${CAKRYLOV_LIBRARY} -n 32
      filter: sed -E "s/, [0-9]+ ranks:/, N ranks:/"

   test:
      suffix: petsc4py_2
      requires: petsc4py
      nsize: 2
      command: ${mpiexec} -n 2 ${CAKRYLOV_PYTHON} ${CAKRYLOV_DIR}/tutorials/ex2.py -dll_append ${CAKRYLOV_LIBRARY} -n 32 -cabicgstab_ksp_cabicgstab_s 8 -cabicgstab_ksp_cabicgstab_basis chebyshev
      filter: sed -E "s/, [0-9]+ ranks:/, N ranks:/"
      output_file: output/plugin_petsc4py.out

TEST*/
