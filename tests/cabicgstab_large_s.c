static char help[] = "The large-s regression matrix of KSPCABICGSTAB: on one problem, PETSc's bcgs and then cabicgstab with each basis\n\
of -bases at each s of -s_list, all with right preconditioning, the unpreconditioned norm and a zero initial guess. Every\n\
cabicgstab solve must converge, take at most -margin times bcgs's iterations, and end with ||b - A x|| <= 1.01 rtol ||b||.\n\
  -problem <poisson|helmholtz|convdiff> : 5/7-point Laplacian (Dirichlet, b = 1); miniGMG's variable-coefficient Helmholtz\n\
                                          (periodic, triangle-wave f); upwind convection-diffusion (Dirichlet, b = 1)\n\
  -dim <2|3>, -n <points per direction>, -peclet <cell Peclet number of convdiff>\n\
  -bases <newton,chebyshev>, -s_list <4,6,8,10,12,16>, -margin <1.2>, -ksp_rtol <1e-8>, -pc_type <jacobi>\n\n";

#include <cakrylov.h>
#include <petscdmda.h>

#include "stencil.h"

/* x = A^{-1} b by a fresh KSP of this type (cabicgstab: with this basis and s); its iterations, reason and ||b - A x|| / ||b|| */
static PetscErrorCode Solve(Mat A, Vec b, Vec x, KSPType type, KSPCABiCGStabBasis basis, PetscInt s, PetscReal rtol, PetscInt *its, KSPConvergedReason *reason, PetscReal *relres)
{
  KSP       ksp;
  PC        pc;
  Vec       r;
  PetscReal bnorm, rnorm;
  PetscBool iscab;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPSetTolerances(ksp, rtol, 0.0, 1e10, 5000));
  PetscCall(KSPSetFromOptions(ksp)); /* -pc_type */
  PetscCall(PetscStrcmp(type, KSPCABICGSTAB, &iscab));
  if (iscab) {
    PetscCall(KSPCABiCGStabSetBasis(ksp, basis));
    PetscCall(KSPCABiCGStabSetS(ksp, s));
  }
  PetscCall(VecSet(x, 0.0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rnorm));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  *relres = rnorm / bnorm;
  PetscCall(VecDestroy(&r));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  DM                 da;
  Mat                A;
  Vec                b, x;
  StudyProblem       problem = PROBLEM_POISSON;
  PetscInt           dim = 2, n = 64, slist[32] = {4, 6, 8, 10, 12, 16}, ns = 32, nbases = 3, its_ref;
  PetscEnum          bases[3] = {(PetscEnum)KSP_CABICGSTAB_BASIS_NEWTON, (PetscEnum)KSP_CABICGSTAB_BASIS_CHEBYSHEV};
  PetscReal          peclet = 0.5, rtol = 1e-8, margin = 1.2, relres;
  KSPConvergedReason reason;
  PetscBool          flg;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(CAKrylovInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "KSPCABICGSTAB large-s regression matrix", NULL);
  PetscCall(PetscOptionsEnum("-problem", "Operator", NULL, StudyProblems, (PetscEnum)problem, (PetscEnum *)&problem, NULL));
  PetscCall(PetscOptionsInt("-dim", "2 or 3", NULL, dim, &dim, NULL));
  PetscCall(PetscOptionsInt("-n", "Points per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsReal("-peclet", "Cell Peclet number of convdiff", NULL, peclet, &peclet, NULL));
  PetscCall(PetscOptionsIntArray("-s_list", "The s values", NULL, slist, &ns, &flg));
  if (!flg) ns = 6;
  PetscCall(PetscOptionsEnumArray("-bases", "The bases", NULL, KSPCABiCGStabBases, bases, &nbases, &flg));
  if (!flg) nbases = 2;
  PetscCall(PetscOptionsReal("-margin", "Largest allowed ratio of iterations to bcgs's", NULL, margin, &margin, NULL));
  PetscCall(PetscOptionsReal("-ksp_rtol", "Relative tolerance", NULL, rtol, &rtol, NULL));
  PetscOptionsEnd();

  PetscCall(StudyProblemCreate(PETSC_COMM_WORLD, problem, dim, n, peclet, &da, &A, &b));
  PetscCall(VecDuplicate(b, &x));

  PetscCall(Solve(A, b, x, KSPBCGS, KSP_CABICGSTAB_BASIS_MONOMIAL, 0, rtol, &its_ref, &reason, &relres));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bcgs: %s\n", KSPConvergedReasons[reason]));
  for (PetscInt i = 0; i < nbases; i++) {
    PetscBool converged = PETSC_TRUE, within = PETSC_TRUE, accurate = PETSC_TRUE;

    for (PetscInt k = 0; k < ns; k++) {
      PetscInt its;

      PetscCall(Solve(A, b, x, KSPCABICGSTAB, (KSPCABiCGStabBasis)bases[i], slist[k], rtol, &its, &reason, &relres));
      if (reason <= 0 || its > margin * its_ref || relres > 1.01 * rtol) {
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s s = %" PetscInt_FMT ": %s, %" PetscInt_FMT " iterations (bcgs %" PetscInt_FMT "), ||b - A x|| / ||b|| = %g\n", KSPCABiCGStabBases[bases[i]], slist[k], KSPConvergedReasons[reason], its, its_ref, (double)relres));
        converged = (PetscBool)(converged && reason > 0);
        within    = (PetscBool)(within && its <= margin * its_ref);
        accurate  = (PetscBool)(accurate && relres <= 1.01 * rtol);
      }
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s, every s: converged: %s, iterations <= %g x bcgs's: %s, ||b - A x|| <= 1.01 rtol ||b||: %s\n", KSPCABiCGStabBases[bases[i]], converged ? "yes" : "NO", (double)margin, within ? "yes" : "NO", accurate ? "yes" : "NO"));
  }

  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # the Laplacian (2D, 3D), miniGMG's Helmholtz (3D, periodic) and upwind convection-diffusion at two Peclet numbers,
   # each with Jacobi and block Jacobi, on 1, 2 and 4 ranks: both bases, s = 4 .. 16, within 1.2 x bcgs's iterations
   test:
      suffix: poisson2d
      nsize: {{1 2 4}}
      args: -problem poisson -dim 2 -n 64 -pc_type {{jacobi bjacobi}}
      output_file: output/cabicgstab_large_s.out

   test:
      suffix: poisson3d
      nsize: {{1 2 4}}
      args: -problem poisson -dim 3 -n 24 -pc_type {{jacobi bjacobi}}
      output_file: output/cabicgstab_large_s.out

   test:
      suffix: helmholtz
      nsize: {{1 2 4}}
      args: -problem helmholtz -dim 3 -n 24 -pc_type {{jacobi bjacobi}}
      output_file: output/cabicgstab_large_s.out

   test:
      suffix: convdiff2d
      nsize: {{1 2 4}}
      args: -problem convdiff -dim 2 -n 64 -peclet 0.5 -pc_type {{jacobi bjacobi}}
      output_file: output/cabicgstab_large_s.out

   test:
      suffix: convdiff3d
      nsize: {{1 2 4}}
      args: -problem convdiff -dim 3 -n 24 -peclet 2 -pc_type {{jacobi bjacobi}}
      output_file: output/cabicgstab_large_s.out

TEST*/
