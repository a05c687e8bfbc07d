static char help[] = "Tests of PCSYNTHETIC (src/pc/synthetic): the identity at a cost of alpha vector reads+writes per application.\n\
  -check_identity : apply the PC (and its transpose) for each alpha of -alphas to a vector of awkward bit patterns\n\
                    (signed zeros, subnormals, infinities, NaNs with payloads, random bits) and check y == x bitwise;\n\
                    also counts the global reductions the applications issue (must be none)\n\
  -alphas <a,b,...> : the complexities checked (default 2,3,4,5,20,50)\n\
  -n <1003> : global vector length (not a multiple of the 128-entry chunk)\n\
  -nest : use a VECNEST of two standard vectors (the Vec-operations path) instead of -vec_type's vectors\n\
  -compare_none : solve a 2D Laplacian with -ksp_type's KSP twice, with PCNONE and with PCSYNTHETIC (-pc_synthetic_complexity),\n\
                  and compare the iteration counts and residual histories\n\
  -m <16> : grid points per direction of the Laplacian\n\
  -bad_setters : call PCSyntheticSetComplexity() with bad values and print the errors\n\n";

#include <cakrylov.h>
#include <cakrylov/private/compat.h>

#include "reductioncounter.h"

/* Fills x with awkward bit patterns: whatever arithmetic touched them would show */
static PetscErrorCode FillAwkward(Vec x, PetscInt offset)
{
  const uint64_t patterns[] = {
    0x0000000000000000ULL, /* +0 */
    0x8000000000000000ULL, /* -0 */
    0x0000000000000001ULL, /* smallest subnormal */
    0x800FFFFFFFFFFFFFULL, /* largest negative subnormal */
    0x7FF0000000000000ULL, /* +inf */
    0xFFF0000000000000ULL, /* -inf */
    0x7FF8000000000123ULL, /* quiet NaN with a payload */
    0x7FF0000000000001ULL, /* signaling NaN (becomes quiet under arithmetic) */
    0xFFF8DEADBEEF0000ULL, /* negative quiet NaN with a payload */
  };
  const PetscInt np = (PetscInt)(sizeof(patterns) / sizeof(patterns[0]));
  PetscScalar   *a;
  PetscInt       n, rstart;
  uint64_t       state;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetOwnershipRange(x, &rstart, NULL));
  PetscCall(VecGetArrayWrite(x, &a));
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt g = rstart + i + offset;
    uint64_t       bits;

    if (g % 4 == 0) bits = patterns[(g / 4) % np];
    else {
      /* random bits (splitmix64 of the global index): ordinary numbers of every exponent, and a few more NaNs */
      state = (uint64_t)g + 0x9E3779B97F4A7C15ULL;
      state = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9ULL;
      state = (state ^ (state >> 27)) * 0x94D049BB133111EBULL;
      bits  = state ^ (state >> 31);
    }
    PetscCall(PetscMemcpy(&a[i], &bits, sizeof(bits)));
  }
  PetscCall(VecRestoreArrayWrite(x, &a));
  PetscFunctionReturn(0);
}

/* Bitwise comparison of the local parts, on every rank; the result on all ranks */
static PetscErrorCode BitwiseEqual(Vec x, Vec y, PetscBool *equal)
{
  const PetscScalar *a, *b;
  PetscInt           n;
  PetscBool          isnest, local;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)x, VECNEST, &isnest));
  if (isnest) {
    Vec     *xs, *ys;
    PetscInt nx;

    PetscCall(VecNestGetSubVecs(x, &nx, &xs));
    PetscCall(VecNestGetSubVecs(y, NULL, &ys));
    *equal = PETSC_TRUE;
    for (PetscInt k = 0; k < nx; k++) {
      PetscBool e;

      PetscCall(BitwiseEqual(xs[k], ys[k], &e));
      if (!e) *equal = PETSC_FALSE;
    }
    PetscFunctionReturn(0);
  }
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(VecGetArrayRead(y, &b));
  local = (PetscBool)(memcmp(a, b, (size_t)n * sizeof(PetscScalar)) == 0);
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscCall(VecRestoreArrayRead(y, &b));
  PetscCall(MPIU_Allreduce(&local, equal, 1, CAKRYLOV_MPI_BOOL, MPI_LAND, PetscObjectComm((PetscObject)x)));
  PetscFunctionReturn(0);
}

static PetscErrorCode FillAwkwardAll(Vec x)
{
  PetscBool isnest;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)x, VECNEST, &isnest));
  if (isnest) {
    Vec     *xs;
    PetscInt nx;

    PetscCall(VecNestGetSubVecs(x, &nx, &xs));
    for (PetscInt k = 0; k < nx; k++) PetscCall(FillAwkward(xs[k], 1 + k)); /* different patterns in each block */
  } else PetscCall(FillAwkward(x, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckIdentity(PetscInt N, PetscBool nest, const PetscInt alphas[], PetscInt nalphas)
{
  Mat       A;
  PC        pc;
  Vec       x, y;
  VecType   vtype;
  PetscInt  alpha, n, applications = 0; /* alpha: from the options */
  PetscBool ok = PETSC_TRUE;

  PetscFunctionBegin;
  if (nest) { /* two standard blocks: a vector type without VecGetArray(), so the PC takes its Vec-operations path */
    Vec b[2], by[2];

    for (PetscInt k = 0; k < 2; k++) {
      PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, N / 2 + k, &b[k]));
      PetscCall(VecDuplicate(b[k], &by[k]));
    }
    PetscCall(VecCreateNest(PETSC_COMM_WORLD, 2, NULL, b, &x));
    PetscCall(VecCreateNest(PETSC_COMM_WORLD, 2, NULL, by, &y));
    for (PetscInt k = 0; k < 2; k++) {
      PetscCall(VecDestroy(&b[k]));
      PetscCall(VecDestroy(&by[k]));
    }
  } else {
    PetscCall(VecCreate(PETSC_COMM_WORLD, &x));
    PetscCall(VecSetSizes(x, PETSC_DECIDE, N));
    PetscCall(VecSetFromOptions(x));
    PetscCall(VecDuplicate(x, &y));
  }
  PetscCall(VecGetType(x, &vtype));
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(MatCreateConstantDiagonal(PETSC_COMM_WORLD, n, n, PETSC_DETERMINE, PETSC_DETERMINE, 1.0, &A)); /* any operator: the PC ignores it */

  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetType(pc, PCSYNTHETIC));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCSetUp(pc));
  PetscCall(PCSyntheticGetComplexity(pc, &alpha));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "vector type %s; complexity after PCSetFromOptions(): alpha = %" PetscInt_FMT "\n", vtype, alpha));

  PetscCall(FillAwkwardAll(x));
  for (PetscInt i = 0; i <= nalphas; i++) {
    PetscBool eq_apply, eq_transpose;
    PetscInt  got;

    PetscCall(PCSyntheticSetComplexity(pc, i < nalphas ? alphas[i] : alpha)); /* at last the options' alpha again */
    PetscCall(PCSyntheticGetComplexity(pc, &got));
    PetscCall(VecSet(y, 7.0)); /* something to overwrite */
    nreductions = 0;
    counting    = PETSC_TRUE;
    PetscCall(PCApply(pc, x, y));
    counting = PETSC_FALSE;
    PetscCall(BitwiseEqual(x, y, &eq_apply));
    PetscCall(VecSet(y, -3.0));
    counting = PETSC_TRUE;
    PetscCall(PCApplyTranspose(pc, x, y));
    counting = PETSC_FALSE;
    PetscCall(BitwiseEqual(x, y, &eq_transpose));
    applications += 2;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "alpha = %2" PetscInt_FMT ": y == x bitwise: apply %s, transpose %s; global reductions issued: %" PetscInt_FMT "\n", got, eq_apply ? "yes" : "NO", eq_transpose ? "yes" : "NO", nreductions));
    if (!eq_apply || !eq_transpose) ok = PETSC_FALSE;
  }
  {
    PetscViewer viewer = PETSC_VIEWER_STDOUT_WORLD;

    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s; PCView() after %" PetscInt_FMT " applications:\n", ok ? "all bitwise equal" : "SOME DIFFER", applications));
    PetscCall(PCView(pc, viewer));
  }
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(0);
}

/* 5-point Laplacian on an m x m grid (Dirichlet boundary eliminated), b = A u with u_i = sqrt(i + 1) */
static PetscErrorCode Laplacian(PetscInt m, Mat *A, Vec *b)
{
  PetscInt Istart, Iend;
  Vec      u;

  PetscFunctionBegin;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, m * m, m * m, 5, NULL, 2, NULL, A));
  PetscCall(MatGetOwnershipRange(*A, &Istart, &Iend));
  for (PetscInt r = Istart; r < Iend; r++) {
    const PetscInt i = r / m, j = r % m;

    if (i > 0) PetscCall(MatSetValue(*A, r, r - m, -1.0, INSERT_VALUES));
    if (i < m - 1) PetscCall(MatSetValue(*A, r, r + m, -1.0, INSERT_VALUES));
    if (j > 0) PetscCall(MatSetValue(*A, r, r - 1, -1.0, INSERT_VALUES));
    if (j < m - 1) PetscCall(MatSetValue(*A, r, r + 1, -1.0, INSERT_VALUES));
    PetscCall(MatSetValue(*A, r, r, 4.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(*A, &u, b));
  for (PetscInt r = Istart; r < Iend; r++) PetscCall(VecSetValue(u, r, PetscSqrtReal(r + 1.0), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(u));
  PetscCall(VecAssemblyEnd(u));
  PetscCall(MatMult(*A, u, *b));
  PetscCall(VecDestroy(&u));
  PetscFunctionReturn(0);
}

/* Solves with the KSP of the options and PC type pctype: the KSP's type, its iterations and residual history (to be freed) */
static PetscErrorCode Solve(Mat A, Vec b, PCType pctype, char ksptype[64], PetscInt *its, PetscReal **hist, PetscInt *nhist, KSPConvergedReason *reason)
{
  KSP ksp;
  PC  pc;
  Vec x;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, pctype));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(PetscMalloc1(1001, hist));
  PetscCall(KSPSetResidualHistory(ksp, *hist, 1001, PETSC_TRUE));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(KSPGetResidualHistory(ksp, NULL, nhist));
  {
    KSPType type;

    PetscCall(KSPGetType(ksp, &type));
    PetscCall(PetscStrncpy(ksptype, type, 64));
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(0);
}

static PetscErrorCode CompareNone(PetscInt m)
{
  Mat                A;
  Vec                b;
  char               type[64];
  PetscInt           its[2], nhist[2];
  PetscReal         *hist[2], maxrel = 0.0;
  KSPConvergedReason reason[2];
  PetscBool          bitwise;

  PetscFunctionBegin;
  PetscCall(Laplacian(m, &A, &b));
  PetscCall(Solve(A, b, PCNONE, type, &its[0], &hist[0], &nhist[0], &reason[0]));
  PetscCall(Solve(A, b, PCSYNTHETIC, type, &its[1], &hist[1], &nhist[1], &reason[1]));
  bitwise = (PetscBool)(nhist[0] == nhist[1] && !memcmp(hist[0], hist[1], (size_t)nhist[0] * sizeof(PetscReal)));
  for (PetscInt i = 0; i < PetscMin(nhist[0], nhist[1]); i++) maxrel = PetscMax(maxrel, PetscAbsReal(hist[1][i] - hist[0][i]) / PetscMax(hist[0][i], PETSC_SMALL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: none %s, synthetic %s; same iteration count: %s; residual histories: %s\n", type, KSPConvergedReasons[reason[0]], KSPConvergedReasons[reason[1]], its[0] == its[1] ? "yes" : "NO", bitwise ? "bitwise equal" : (maxrel < 1e-6 ? "equal to 1e-6" : "DIFFER")));
  if (its[0] != its[1]) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %" PetscInt_FMT " and %" PetscInt_FMT " iterations\n", its[0], its[1]));
  PetscCall(PetscFree(hist[0]));
  PetscCall(PetscFree(hist[1]));
  PetscCall(MatDestroy(&A));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(0);
}

static PetscErrorCode BadSetters(void)
{
  const PetscInt bad[] = {1, 0, -5};
  PC             pc;

  PetscFunctionBegin;
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetType(pc, PCSYNTHETIC));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    PetscErrorCode ierr = PCSyntheticSetComplexity(pc, bad[i]);
    const char    *specific;

    PetscCall(CAKrylovErrorMessage(ierr, &specific));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "PCSyntheticSetComplexity(pc, %" PetscInt_FMT ") -> error %d: %s\n", bad[i], (int)ierr, specific));
  }
  PetscCall(PetscPopErrorHandler());
  {
    PetscInt alpha;

    PetscCall(PCSyntheticGetComplexity(pc, &alpha));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "alpha unchanged: %" PetscInt_FMT "\n", alpha));
  }
  PetscCall(PCSetType(pc, PCNONE)); /* on another type the setter does nothing, as PETSc's setters */
  PetscCall(PCSyntheticSetComplexity(pc, 0));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "PCSyntheticSetComplexity() on PCNONE: no error\n"));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt  N = 1003, m = 16, alphas[16] = {2, 3, 4, 5, 20, 50}, nalphas = 16;
  PetscBool check = PETSC_FALSE, nest = PETSC_FALSE, compare = PETSC_FALSE, bad = PETSC_FALSE, set;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(CAKrylovInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "PCSYNTHETIC test", NULL);
  PetscCall(PetscOptionsBool("-check_identity", "Check y == x bitwise for each alpha", NULL, check, &check, NULL));
  PetscCall(PetscOptionsIntArray("-alphas", "Complexities checked", NULL, alphas, &nalphas, &set));
  if (!set) nalphas = 6;
  PetscCall(PetscOptionsInt("-n", "Global vector length", NULL, N, &N, NULL));
  PetscCall(PetscOptionsBool("-nest", "Use VECNEST vectors", NULL, nest, &nest, NULL));
  PetscCall(PetscOptionsBool("-compare_none", "Compare a solve with PCNONE and PCSYNTHETIC", NULL, compare, &compare, NULL));
  PetscCall(PetscOptionsInt("-m", "Grid points per direction", NULL, m, &m, NULL));
  PetscCall(PetscOptionsBool("-bad_setters", "Bad values to the setter", NULL, bad, &bad, NULL));
  PetscOptionsEnd();

  if (check) PetscCall(CheckIdentity(N, nest, alphas, nalphas));
  if (compare) PetscCall(CompareNone(m));
  if (bad) PetscCall(BadSetters());
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # y == x bitwise for every alpha, apply and transpose, VECSEQ/VECMPI on 1, 2 and 4 ranks; no global reduction
   # (of PCView(), only PCSYNTHETIC's own lines: PETSc's own lines change between versions)
   test:
      suffix: identity
      nsize: {{1 2 4}}
      args: -check_identity -pc_synthetic_complexity 7 -vec_type {{standard mpi}}
      filter: grep -E "vector type|alpha|bitwise|synthetic|applications" | sed -E -e "s/vector type [a-z]+;/vector type standard;/"
      output_file: output/synthetic_identity.out

   # the portable path: through PETSc's Vec operations, forced for standard vectors and for a VECNEST
   test:
      suffix: identity_fallback
      nsize: {{1 2}}
      args: -check_identity -pc_synthetic_complexity 7 -vec_type standard -cakrylov_vec_fallback
      filter: grep -E "vector type|alpha|bitwise|synthetic|applications" | sed -E -e "s/vector type [a-z]+;/vector type standard;/"
      output_file: output/synthetic_identity.out

   test:
      suffix: identity_nest
      nsize: {{1 2}}
      args: -check_identity -pc_synthetic_complexity 7 -nest
      filter: grep -E "vector type|alpha|bitwise|synthetic|applications"
      output_file: output/synthetic_identity_nest.out

   # a solve with PCSYNTHETIC is a solve with PCNONE: same iterations; PETSc's types (PCNONE copies) bitwise the same history
   test:
      suffix: compare_petsc
      nsize: {{1 2}separate output}
      args: -compare_none -ksp_type {{bcgs cg gmres}separate output} -pc_synthetic_complexity {{2 3 20}}

   # the library's types skip PCNONE but apply PCSYNTHETIC: y = x exactly, so the same arithmetic and the same history
   test:
      suffix: compare_cakrylov
      nsize: 2
      args: -compare_none -ksp_type {{bcgsm pipebcgsm cabicgstab}separate output} -pc_synthetic_complexity 20

   test:
      suffix: view
      nsize: 2
      args: -compare_none -ksp_type bcgs -pc_synthetic_complexity 20 -ksp_view
      filter: grep -E "synthetic|alpha|applications" | sed -E "s/applications: [0-9]+/applications: N/"

   test:
      suffix: bad_option
      args: -check_identity -pc_synthetic_complexity 1
      filter: Error: grep -o -E "PCSYNTHETIC complexity alpha = 1 is out of range.*"

   test:
      suffix: bad_setters
      args: -bad_setters

   # with the library loaded into PETSc's own, unmodified ex2: -help lists the option, and the solve is PCNONE's
   test:
      suffix: plugin_help
      command: ${CAKRYLOV_PETSC_EXAMPLES}/ex2 -dll_append ${CAKRYLOV_LIBRARY} -pc_type synthetic -help
      filter: grep -o -E "^ *-pc_synthetic_[a-z_]+"

   # (one expected output for none and synthetic: both converge, error below 1e-2; -options_left 0: with none the
   # complexity option is unused on purpose)
   test:
      suffix: plugin_ex2_bcgs
      nsize: 2
      command: ${mpiexec} -n 2 ${CAKRYLOV_PETSC_EXAMPLES}/ex2 -dll_append ${CAKRYLOV_LIBRARY} -pc_type {{none synthetic}} -pc_synthetic_complexity 20 -options_left 0 -ksp_type bcgs -ksp_converged_reason -m 16 -n 16
      filter: sed -E -e "s/iterations [0-9]+/iterations N/" -e "s/Norm of error (0[.]00[0-9]*|[0-9.]+e-(0[5-9]|[1-9][0-9])) /Norm of error below 1e-2 /"

   test:
      suffix: plugin_ex2_cg
      nsize: 2
      command: ${mpiexec} -n 2 ${CAKRYLOV_PETSC_EXAMPLES}/ex2 -dll_append ${CAKRYLOV_LIBRARY} -pc_type {{none synthetic}} -pc_synthetic_complexity 3 -options_left 0 -ksp_type cg -ksp_converged_reason -m 16 -n 16
      filter: sed -E -e "s/iterations [0-9]+/iterations N/" -e "s/Norm of error (0[.]00[0-9]*|[0-9.]+e-(0[5-9]|[1-9][0-9])) /Norm of error below 1e-2 /"

TEST*/
