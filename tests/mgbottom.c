static char help[] = "Tests of the PCMG bottom-solver hook (src/pc/mgbottom) on a DMDA Poisson problem with geometric multigrid.\n\
  -dim <2|3>, -n <points per direction, 2^k + 1>, -pc_mg_levels <levels> : the grid and the hierarchy\n\
  -bottom <ksptype> : call PCMGSetBottomSolver() from C (instead of -pc_mg_bottom_ksp_type)\n\
  -print_coarse : print the coarse solver that results from the policy and the -mg_coarse_ options\n\
  -print_report : print the bottom-solve report (PCMGBottomReportView())\n\
  -check_choice : with an autobcgs bottom solver, whether the report says what it chose and on which interval (verdict)\n\
  -count_reductions <cycles> : run this many single V-cycles (KSPPREONLY, smoothers without reductions) and compare\n\
                               the report's reduction and halo-message counts with an MPI profiling-interface counter\n\
                               (halo messages also of one bottom solve called directly)\n\
  -bad_calls : call the hook's functions with bad arguments and print the errors; solve with a PCMG without levels\n\
  -reset : with -count_reductions, KSPReset() and the same V-cycles again (the bottom solver and its report after it)\n\
  -check_s : with -count_reductions and the policy's cabicgstab, whether s after the V-cycles is what the policy promises:\n\
             the most iterations of a bottom solve plus one (at least 4, at most 10), or -mg_coarse_ksp_cabicgstab_s\n\
  -block <m> : with -count_reductions, after a new setup as many V-cycles on m columns at once (PCMatApply(): a block\n\
               bottom solve, KSPMatSolve()) and whether s follows them: the most iterations of a bottom solve, no more\n\
  -block_fallback : with -block, a convergence test of the program's on the bottom KSP: the block cabicgstab solves the\n\
               block column by column, still one bottom solve in the report, and s is then the most plus one\n\
  -retype <type> : with -count_reductions, KSPSetType() on the coarse KSP after the first solve (the program's method)\n\
  -code_ksp_type <type>, -code_max_it <n>, -code_s <s> : set the coarse KSP in code before KSPSetFromOptions()\n\
  -print_bottom : print the bottom KSP after the solve (method, PC; s and basis of cabicgstab)\n\
  -check_block_smoother <m> : KSPMatSolve() of every level's smoother on m columns against KSPSolve() per column, from\n\
               zero and from a nonzero guess: bitwise the same X, and with KSPRICHARDSON + PCCHEBYJACOBI (the hook's block\n\
               smoother) 1/m of the halo messages (one per neighbour and step for all columns; counted by MPI)\n\
  -shift <c> : -Laplacian + c/h^2 (c > 0: strictly diagonally dominant, so the bottom policy takes the Chebyshev basis)\n\n";

#include <cakrylov.h>
#include <cakrylov/private/compat.h>
#include <petscdmda.h>
#include "reductioncounter.h"
#include "messagecounter.h"
#include "stencil.h"

/* -Laplacian + shift on the unit square/cube, vertex-centred, Dirichlet rows on the boundary, scaled by h^d (so that
   PCMG's restriction, the transpose of DMDA's interpolation, matches the rediscretized coarse operators). ctx points to
   the shift, in units of 1/h^2: with a positive shift every row is strictly diagonally dominant. */
static KSP            coarse    = NULL; /* PCMG's coarse KSP, once KSPSetUp() made it */
static PetscInt       ncomputed = 0;    /* calls of ComputeMatrix() for it after that: none, unless it is set up again */
static PetscErrorCode ComputeMatrix(KSP ksp, Mat J, Mat A, void *ctx)
{
  const PetscReal shift = *(PetscReal *)ctx;
  DM              da;
  PetscInt        dim, M, N, P, xs, ys, zs, xm, ym, zm;
  PetscReal       h, scale;
  MatStencil      row, col[7];
  PetscScalar     v[7];

  PetscFunctionBegin;
  (void)J;
  if (ksp == coarse) ncomputed++;
  PetscCall(KSPGetDM(ksp, &da));
  PetscCall(DMDAGetInfo(da, &dim, &M, &N, &P, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  h     = 1.0 / (M - 1);
  scale = PetscPowRealInt(h, dim - 2); /* h^d / h^2 */
  for (PetscInt k = zs; k < zs + zm; k++) {
    for (PetscInt j = ys; j < ys + ym; j++) {
      for (PetscInt i = xs; i < xs + xm; i++) {
        const PetscInt idx[3] = {i, j, k}, size[3] = {M, N, P};
        PetscBool      boundary = PETSC_FALSE;
        PetscInt       nc       = 1;

        row.i = i;
        row.j = j;
        row.k = k;
        for (PetscInt d = 0; d < dim; d++) boundary = (PetscBool)(boundary || idx[d] == 0 || idx[d] == size[d] - 1);
        col[0] = row;
        v[0]   = boundary ? scale : (2.0 * dim + shift) * scale; /* u = 0 on the boundary; the 2d-point Laplacian inside */
        if (!boundary) {
          for (PetscInt d = 0; d < dim; d++) {
            for (PetscInt side = -1; side <= 1; side += 2) {
              col[nc] = row;
              if (d == 0) col[nc].i += side;
              if (d == 1) col[nc].j += side;
              if (d == 2) col[nc].k += side;
              v[nc++] = -scale;
            }
          }
        }
        PetscCall(MatSetValuesStencil(A, 1, &row, nc, col, v, INSERT_VALUES));
      }
    }
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* f = h^d (1 + x) (1 + 2 y) (1 + 3 z) inside, 0 on the boundary: no symmetry that could make BiCGStab break down */
static PetscErrorCode ComputeRHS(KSP ksp, Vec b, void *ctx)
{
  DM           da;
  PetscInt     dim, M, xs, ys, zs, xm, ym, zm;
  PetscReal    h;
  PetscScalar *f;

  PetscFunctionBegin;
  (void)ctx;
  PetscCall(KSPGetDM(ksp, &da));
  PetscCall(DMDAGetInfo(da, &dim, &M, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  h = 1.0 / (M - 1);
  PetscCall(VecGetArray(b, &f));
  for (PetscInt k = zs; k < zs + zm; k++) {
    for (PetscInt j = ys; j < ys + ym; j++) {
      for (PetscInt i = xs; i < xs + xm; i++) {
        const PetscInt idx[3] = {i, j, k};
        PetscScalar   *fijk   = &f[((k - zs) * ym + (j - ys)) * xm + (i - xs)];

        *fijk = PetscPowRealInt(h, dim);
        for (PetscInt d = 0; d < dim; d++) *fijk *= (idx[d] > 0 && idx[d] < M - 1) ? 1.0 + (d + 1) * idx[d] * h : 0.0;
      }
    }
  }
  PetscCall(VecRestoreArray(b, &f));
  PetscFunctionReturn(0);
}

static PetscErrorCode PrintCoarse(PC pc)
{
  KSP       coarse;
  PC        cpc;
  KSPType   ktype;
  PCType    ptype;
  PetscReal rtol;
  PetscInt  maxit;
  PetscBool nonzero;

  PetscFunctionBegin;
  PetscCall(PCMGGetCoarseSolve(pc, &coarse));
  PetscCall(KSPGetType(coarse, &ktype));
  PetscCall(KSPGetTolerances(coarse, &rtol, NULL, NULL, &maxit));
  PetscCall(KSPGetInitialGuessNonzero(coarse, &nonzero));
  PetscCall(KSPGetPC(coarse, &cpc));
  PetscCall(PCGetType(cpc, &ptype));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "coarse solver: KSP %s, rtol %g, max_it %" PetscInt_FMT ", %s initial guess, PC %s\n", ktype, (double)rtol, maxit, nonzero ? "nonzero" : "zero", ptype));
  PetscFunctionReturn(0);
}

/* The bottom KSP: the coarse KSP, or with agglomeration the KSP inside PCTELESCOPE (NULL on the ranks it leaves idle);
   *agglomerated (if asked) whether it is the latter */
static PetscErrorCode GetBottomKSP(PC mg, KSP *bottom, PetscBool *agglomerated)
{
  KSP       coarse;
  PC        cpc;
  PetscBool telescope;

  PetscFunctionBegin;
  PetscCall(PCMGGetCoarseSolve(mg, &coarse));
  PetscCall(KSPGetPC(coarse, &cpc));
  PetscCall(PetscObjectTypeCompare((PetscObject)cpc, PCTELESCOPE, &telescope));
  *bottom = coarse;
  if (telescope) PetscCall(PCTelescopeGetKSP(cpc, bottom));
  if (agglomerated) *agglomerated = telescope;
  PetscFunctionReturn(0);
}

/* What the bottom KSP of rank 0 (which PCTELESCOPE keeps) is: its method, its PC and, for cabicgstab, s and the basis */
static PetscErrorCode PrintBottom(PC mg)
{
  KSP       bottom;
  PC        bpc;
  KSPType   ktype     = NULL;
  PCType    ptype     = NULL;
  PetscInt  s         = 0;
  PetscBool iscab     = PETSC_FALSE;
  char      line[256] = "";

  PetscFunctionBegin;
  PetscCall(GetBottomKSP(mg, &bottom, NULL));
  if (bottom) {
    KSPCABiCGStabBasis basis;

    PetscCall(KSPGetType(bottom, &ktype));
    PetscCall(KSPGetPC(bottom, &bpc));
    PetscCall(PCGetType(bpc, &ptype));
    PetscCall(PetscObjectTypeCompare((PetscObject)bottom, KSPCABICGSTAB, &iscab));
    if (iscab) {
      PetscCall(KSPCABiCGStabGetS(bottom, &s));
      PetscCall(KSPCABiCGStabGetBasis(bottom, &basis));
    }
    PetscCall(PetscSNPrintf(line, sizeof(line), "bottom solver: KSP %s, PC %s", ktype, ptype));
    if (iscab) PetscCall(PetscSNPrintf(line, sizeof(line), "bottom solver: KSP %s, PC %s, s = %" PetscInt_FMT ", basis %s", ktype, ptype, s, KSPCABiCGStabBases[basis]));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", line));
  PetscFunctionReturn(0);
}

/* Iterations of the last bottom solve, read from the bottom KSP itself: the coarse KSP, or with agglomeration the KSP
   inside PCTELESCOPE (which exists on the ranks of the smaller communicator only) */
static PetscErrorCode LastBottomIterations(PC mg, PetscInt *its)
{
  KSP      bottom;
  PetscInt local = 0;

  PetscFunctionBegin;
  PetscCall(GetBottomKSP(mg, &bottom, NULL));
  if (bottom) PetscCall(KSPGetIterationNumber(bottom, &local));
  PetscCall(MPIU_Allreduce(&local, its, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)mg)));
  PetscFunctionReturn(0);
}

static PetscErrorCode PrintError(PetscErrorCode ierr, const char call[])
{
  const char *specific;

  PetscFunctionBegin;
  PetscCall(CAKrylovErrorMessage(ierr, &specific));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s -> error %d: %s\n", call, (int)ierr, ierr ? specific : "none"));
  PetscFunctionReturn(0);
}

/* KSPSolve() with a PCMG whose levels were never set (no PCMGSetLevels(), no KSPSetFromOptions()): PETSc's own error */
static PetscErrorCode SolveWithoutLevels(DM da)
{
  KSP       ksp;
  PC        pc;
  PetscReal shift = 0.0;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetDM(ksp, da));
  PetscCall(KSPSetComputeOperators(ksp, ComputeMatrix, &shift));
  PetscCall(KSPSetComputeRHS(ksp, ComputeRHS, NULL));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCMG));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  PetscCall(PrintError(KSPSolve(ksp, NULL, NULL), "KSPSolve() with a PCMG without levels"));
  PetscCall(PetscPopErrorHandler());
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(0);
}

static PetscErrorCode BadCalls(PC mg, DM da)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  PetscCall(PrintError(PCMGSetBottomSolver(pc, KSPCABICGSTAB), "PCMGSetBottomSolver(jacobi, cabicgstab)"));
  PetscCall(PrintError(PCMGSetBottomSolver(mg, ""), "PCMGSetBottomSolver(mg, \"\")"));
  PetscCall(PrintError(PCMGSetBottomTolerances(mg, 1.0, 10), "PCMGSetBottomTolerances(mg, 1, 10)"));
  PetscCall(PrintError(PCMGSetBottomTolerances(mg, 1e-4, 0), "PCMGSetBottomTolerances(mg, 1e-4, 0)"));
  PetscCall(PrintError(PCMGSetBottomAgglomeration(mg, 0), "PCMGSetBottomAgglomeration(mg, 0)"));
  PetscCall(PrintError(PCMGSetBottomTelescope(mg, 0), "PCMGSetBottomTelescope(mg, 0)")); /* the deprecated name of the same */
  PetscCall(PetscPopErrorHandler());
  PetscCall(PCDestroy(&pc));
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc)); /* a PCMG without levels: the report says so, also at destruction */
  PetscCall(PCSetType(pc, PCMG));
  PetscCall(PCMGBottomReportView(pc, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(PCDestroy(&pc));
  PetscCall(SolveWithoutLevels(da));
  PetscFunctionReturn(0);
}

/* The largest of a count over the ranks (the report's halo messages are the largest over the ranks) */
static PetscErrorCode MaxOverRanks(PC pc, PetscInt local, PetscInt *max)
{
  PetscFunctionBegin;
  PetscCall(MPIU_Allreduce(&local, max, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)pc)));
  PetscFunctionReturn(0);
}

/* One bottom solve called directly on PCMG's coarse KSP (its pre- and post-solve measure it as a bottom solve): the
   report's halo messages against the MPI counter's receives in exactly that solve */
static PetscErrorCode CountBottomHalo(PC pc)
{
  PCMGBottomReport before, report;
  KSP              coarse;
  Mat              A;
  Vec              cx, cb;
  PetscInt         counted;
  PetscMPIInt      size;

  PetscFunctionBegin;
  PetscCall(PCMGGetCoarseSolve(pc, &coarse));
  PetscCall(KSPGetOperators(coarse, &A, NULL));
  PetscCall(MatCreateVecs(A, &cx, &cb));
  PetscCall(VecSet(cb, 1.0));
  PetscCall(PCMGGetBottomReport(pc, &before));
  nreceives         = 0;
  counting_receives = PETSC_TRUE;
  PetscCall(KSPSolve(coarse, cb, cx));
  counting_receives = PETSC_FALSE;
  PetscCall(PCMGGetBottomReport(pc, &report));
  PetscCall(MaxOverRanks(pc, nreceives, &counted));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "halo messages in a bottom solve called directly, reported and counted by MPI: %s\n", report.solves == before.solves + 1 && report.halo - before.halo == (PetscLogDouble)counted && (counted > 0) == (size > 1) ? "same" : "DIFFERENT"));
  PetscCall(VecDestroy(&cx));
  PetscCall(VecDestroy(&cb));
  PetscFunctionReturn(0);
}

/* The global reductions the policy's cabicgstab bottom solver issued itself so far (its Gram matrices, convergence
   checks and estimates; KSPCABiCGStabGetStatistics()), the largest over the ranks (PCTELESCOPE leaves some idle) */
static PetscErrorCode BottomSolverReductions(PC pc, PetscInt *n)
{
  KSP                     bottom;
  KSPCABiCGStabStatistics stats = {0};

  PetscFunctionBegin;
  PetscCall(GetBottomKSP(pc, &bottom, NULL));
  if (bottom) PetscCall(KSPCABiCGStabGetStatistics(bottom, &stats));
  PetscCall(MaxOverRanks(pc, stats.reductions, n));
  PetscFunctionReturn(0);
}

/* s of the policy's cabicgstab bottom solver after bottom solves of at most itsmax iterations (of any rank that runs it):
   itsmax + 1 if a solve of one right-hand side came since the setup, itsmax after block solves only, at least 4 and at most 10; the option's s
   where -mg_coarse_ksp_cabicgstab_s gave one */
static PetscErrorCode CheckAdaptedS(PC pc, PetscInt itsmax, PetscBool block)
{
  KSP       bottom;
  PetscInt  local = 0, s, given, expected;
  PetscBool flg;

  PetscFunctionBegin;
  PetscCall(GetBottomKSP(pc, &bottom, NULL));
  if (bottom) PetscCall(KSPCABiCGStabGetS(bottom, &local));
  PetscCall(MPIU_Allreduce(&local, &s, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)pc)));
  PetscCall(PetscOptionsGetInt(NULL, "mg_coarse_", "-ksp_cabicgstab_s", &given, &flg));
  expected = flg ? given : PetscMax(4, PetscMin(itsmax + (block ? 0 : 1), 10));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "s of the bottom solver after the %sV-cycles, %s: %s\n", block ? "block " : "", flg ? "the option's" : (block ? "the most iterations of a bottom solve, at least 4 and at most 10" : "the most iterations of a bottom solve plus one, at least 4 and at most 10"), s == expected ? "yes" : "NO"));
  PetscFunctionReturn(0);
}

/* KSPConvergedDefault() set as the program's own test: the same iterates, but the block cabicgstab then solves a block
   column by column (KSPSolve() per column) */
static PetscErrorCode ConvergedAsDefault(KSP ksp, PetscInt it, PetscReal rnorm, KSPConvergedReason *reason, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(KSPConvergedDefault(ksp, it, rnorm, reason, ctx));
  PetscFunctionReturn(0);
}

/* After a new setup, V-cycles on m columns at once (PCMatApply(): one block bottom solve each, KSPMatSolve()): each is
   one bottom solve in the report, of the iterations of its slowest column (the bottom KSP's count), and s follows them:
   the most iterations while all bottom solves since the setup were block solves, plus one where the block went column
   by column (fallback: the program's own convergence test on the bottom KSP) */
static PetscErrorCode BlockCycles(KSP ksp, PC pc, PetscInt cycles, PetscInt m, PetscBool fallback)
{
  PCMGBottomReport before, report;
  Mat              A, B, X;
  PetscInt         nloc, iterations = 0, itsmax = 0;
  PetscRandom      rnd;

  PetscFunctionBegin;
  PetscCall(KSPReset(ksp)); /* no bottom solve of one right-hand side since the setup */
  PetscCall(KSPSetUp(ksp));
  if (fallback) {
    KSP   bottom;
    void *ctx;

    PetscCall(GetBottomKSP(pc, &bottom, NULL));
    if (bottom) {
      PetscCall(KSPConvergedDefaultCreate(&ctx));
      PetscCall(KSPSetConvergenceTest(bottom, ConvergedAsDefault, ctx, KSPConvergedDefaultDestroy));
    }
  }
  PetscCall(PCGetOperators(pc, &A, NULL));
  PetscCall(MatGetLocalSize(A, &nloc, NULL));
  PetscCall(MatCreateDense(PetscObjectComm((PetscObject)pc), nloc, PETSC_DECIDE, PETSC_DETERMINE, m, NULL, &B));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
  PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)pc), &rnd));
  PetscCall(MatSetRandom(B, rnd));
  PetscCall(PCMGGetBottomReport(pc, &before));
  for (PetscInt c = 0; c < cycles; c++) {
    PetscInt bits;

    PetscCall(PCMatApply(pc, B, X));
    PetscCall(LastBottomIterations(pc, &bits));
    iterations += bits;
    itsmax = PetscMax(itsmax, bits);
  }
  PetscCall(PCMGGetBottomReport(pc, &report));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "block V-cycles%s: one bottom solve each, of the block's iterations (the reported and the coarse KSP's): %s\n", fallback ? " solved column by column" : "",
                        report.solves - before.solves == cycles && report.iterations - before.iterations == iterations ? "yes" : "NO"));
  PetscCall(CheckAdaptedS(pc, itsmax, fallback ? PETSC_FALSE : PETSC_TRUE));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(MatDestroy(&X));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(0);
}

/* KSPMatSolve() of each level's smoother on m random columns against KSPSolve() of each column (from zero, then from a
   random initial guess): the same bits; the halo messages received in each (counted by MPI, largest over the ranks),
   after a first block solve */
static PetscErrorCode CheckBlockSmoother(PC pc, PetscInt m)
{
  PetscInt    levels;
  PetscRandom rnd;
  PetscBool   same = PETSC_TRUE, fewer = PETSC_TRUE;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  PetscCall(PCMGGetLevels(pc, &levels));
  PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)pc), &rnd));
  for (PetscInt l = 1; l < levels; l++)
    for (PetscInt nonzero = 0; nonzero < 2; nonzero++) {
      KSP                smoother;
      Mat                A, B, X0, X, Y;
      PetscInt           nloc, blockrecv, colrecv;
      const PetscScalar *x, *y;
      PetscInt           ldx, ldy;
      PetscBool          eq = PETSC_TRUE;

      PetscBool guess;

      PetscCall(PCMGGetSmoother(pc, l, &smoother));
      PetscCall(KSPGetInitialGuessNonzero(smoother, &guess));
      PetscCall(KSPSetInitialGuessNonzero(smoother, (PetscBool)nonzero));
      PetscCall(KSPGetOperators(smoother, &A, NULL));
      PetscCall(MatGetLocalSize(A, &nloc, NULL));
      PetscCall(MatCreateDense(PetscObjectComm((PetscObject)pc), nloc, PETSC_DECIDE, PETSC_DETERMINE, m, NULL, &B));
      PetscCall(MatSetRandom(B, rnd));
      PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X0));
      PetscCall(MatSetRandom(X0, rnd));
      PetscCall(MatDuplicate(X0, MAT_COPY_VALUES, &X));
      PetscCall(MatDuplicate(X0, MAT_COPY_VALUES, &Y));
      PetscCall(KSPMatSolve(smoother, B, X)); /* the first block sets up its halo (its own messages): not counted */
      PetscCall(MatCopy(X0, X, SAME_NONZERO_PATTERN));
      nreceives         = 0;
      counting_receives = PETSC_TRUE;
      PetscCall(KSPMatSolve(smoother, B, X));
      counting_receives = PETSC_FALSE;
      PetscCall(MaxOverRanks(pc, nreceives, &blockrecv));
      nreceives = 0;
      for (PetscInt j = 0; j < m; j++) {
        Vec b, y;

        PetscCall(MatDenseGetColumnVecRead(B, j, &b));
        PetscCall(MatDenseGetColumnVec(Y, j, &y));
        counting_receives = PETSC_TRUE;
        PetscCall(KSPSolve(smoother, b, y));
        counting_receives = PETSC_FALSE;
        PetscCall(MatDenseRestoreColumnVec(Y, j, &y));
        PetscCall(MatDenseRestoreColumnVecRead(B, j, &b));
      }
      PetscCall(MaxOverRanks(pc, nreceives, &colrecv));
      PetscCall(MatDenseGetArrayRead(X, &x));
      PetscCall(MatDenseGetArrayRead(Y, &y));
      PetscCall(MatDenseGetLDA(X, &ldx));
      PetscCall(MatDenseGetLDA(Y, &ldy));
      for (PetscInt j = 0; j < m && eq; j++) PetscCall(PetscArraycmp(x + j * ldx, y + j * ldy, nloc, &eq));
      PetscCall(MatDenseRestoreArrayRead(Y, &y));
      PetscCall(MatDenseRestoreArrayRead(X, &x));
      PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &eq, 1, CAKRYLOV_MPI_BOOL, MPI_LAND, PetscObjectComm((PetscObject)pc)));
      PetscCall(KSPSetInitialGuessNonzero(smoother, guess)); /* PCMG's setting back */
      same  = (PetscBool)(same && eq);
      fewer = (PetscBool)(fewer && blockrecv * m == colrecv && (size == 1 || blockrecv < colrecv));
      PetscCall(MatDestroy(&B));
      PetscCall(MatDestroy(&X0));
      PetscCall(MatDestroy(&X));
      PetscCall(MatDestroy(&Y));
    }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KSPMatSolve() of the level smoothers bitwise KSPSolve() per column, from zero and from a guess: %s\n", same ? "yes" : "NO"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "halo messages of KSPMatSolve() of the level smoothers: 1/m of those of KSPSolve() per column: %s\n", fewer ? "yes" : "NO"));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(0);
}

/* Single V-cycles (PCApply()) after a first solve; the report's counts against an MPI counter and the bottom KSP itself */
static PetscErrorCode CountCycles(KSP ksp, PC pc, PetscInt cycles, PetscBool check_s, const char retype[])
{
  PCMGBottomReport before, report;
  Vec              x, b;
  PetscInt         counted, received, iterations = 0, itsmax, own = 0;

  PetscFunctionBegin;
  PetscCall(KSPSolve(ksp, NULL, NULL)); /* a first V-cycle sets up the coarse solver (PETSc's setup reductions) */
  PetscCall(LastBottomIterations(pc, &itsmax));
  if (retype[0]) { /* the program changes the bottom method after the policy's setup: the policy's s must leave it alone */
    KSP coarse;

    PetscCall(PCMGGetCoarseSolve(pc, &coarse));
    PetscCall(KSPSetType(coarse, retype));
    PetscCall(KSPSetUp(coarse)); /* its setup (and its reductions) before the counted V-cycles */
  }
  PetscCall(KSPGetSolution(ksp, &x));
  PetscCall(KSPGetRhs(ksp, &b));
  PetscCall(VecCopy(x, b)); /* then V-cycles alone, PCApply(), on some right-hand side */
  PetscCall(PCMGGetBottomReport(pc, &before));
  if (check_s) PetscCall(BottomSolverReductions(pc, &own));
  nreductions = nnonblocking = nreceives = 0;
  for (PetscInt c = 0; c < cycles; c++) { /* one bottom solve each: its iterations read from the bottom KSP itself */
    PetscInt bits;

    counting = counting_receives = PETSC_TRUE;
    PetscCall(PCApply(pc, b, x));
    counting = counting_receives = PETSC_FALSE;
    PetscCall(LastBottomIterations(pc, &bits));
    iterations += bits;
    itsmax = PetscMax(itsmax, bits);
  }
  counted = nreductions;
  PetscCall(MaxOverRanks(pc, nreceives, &received));
  PetscCall(PCMGGetBottomReport(pc, &report));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " V-cycles, %" PetscInt_FMT " bottom solves: global reductions in them, reported %.0f, counted by MPI %" PetscInt_FMT " (%" PetscInt_FMT " non-blocking): %s\n", report.vcycles - before.vcycles,
                        report.solves - before.solves, report.reductions - before.reductions, counted, nnonblocking, report.reductions - before.reductions == (PetscLogDouble)counted && counted > 0 ? "same" : "DIFFERENT"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "global reductions in the PCMG applications, reported and counted by MPI: %s\n", report.mgreductions - before.mgreductions == (PetscLogDouble)counted ? "same" : "DIFFERENT"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "halo messages in the PCMG applications, reported and counted by MPI: %s\n", report.mghalo - before.mghalo == (PetscLogDouble)received && received > 0 ? "same" : "DIFFERENT"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "halo messages in the bottom solves no more than in the PCMG applications: %s\n", report.halo - before.halo <= report.mghalo - before.mghalo ? "yes" : "NO"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bottom iterations, reported and summed from the coarse KSP after each V-cycle: %s\n", report.iterations - before.iterations == iterations ? "same" : "DIFFERENT"));
  /* the policy's basis, chosen in PCMG's setup, must not make the bottom KSP set up again (with a DM: the coarse operator recomputed) */
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "coarse operator computed again after KSPSetUp(): %s\n", ncomputed ? "YES" : "no"));
  if (check_s) { /* s changes after the first solve: a new s must cost no reduction of its own (a new vector layout) */
    PetscInt  own_after;
    KSP       bottom;
    PetscBool telescope;

    PetscCall(BottomSolverReductions(pc, &own_after));
    PetscCall(GetBottomKSP(pc, &bottom, &telescope));
    /* without agglomeration: with PETSc 3.26 the coarse KSPPREONLY around PCTELESCOPE reduces the PC's failure reason
       after each bottom solve (PCReduceFailedReason(): 6 counted against the solver's 3 in 3 solves; none with 3.18) */
    if (!telescope)
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "global reductions in the bottom solves, counted by MPI and the bottom solver's own (Gram matrices, checks): %s\n", (PetscInt)(report.reductions - before.reductions) == own_after - own ? "same" : "DIFFERENT"));
    PetscCall(CheckAdaptedS(pc, itsmax, PETSC_FALSE));
  }
  PetscCall(CountBottomHalo(pc));
  PetscFunctionReturn(0);
}

/* An autobcgs bottom solver: the report, written to a file and read back on rank 0, names the solver chosen (the choice
   of the coarse KSP, KSPAutoBCGSGetChoice()) and the policy's Gershgorin interval given to it */
static PetscErrorCode CheckChoice(PC pc)
{
  const char       *name = "mgbottom-report.txt";
  PetscViewer       viewer;
  KSP               bottom;
  KSPAutoBCGSChoice choice;
  char              text[16384] = "", chose[64], *hit1 = NULL, *hit2 = NULL;

  PetscFunctionBegin;
  PetscCall(GetBottomKSP(pc, &bottom, NULL));
  PetscCall(KSPAutoBCGSGetChoice(bottom, &choice, NULL, NULL, NULL));
  PetscCall(PetscViewerASCIIOpen(PETSC_COMM_WORLD, name, &viewer));
  PetscCall(PCMGBottomReportView(pc, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  if (!PetscGlobalRank) {
    FILE  *fp;
    size_t n;

    PetscCall(PetscFOpen(PETSC_COMM_SELF, name, "r", &fp));
    n       = fread(text, 1, sizeof(text) - 1, fp);
    text[n] = 0;
    PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
    PetscCheck(!remove(name), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot remove %s", name);
  }
  PetscCall(PetscSNPrintf(chose, sizeof(chose), "autobcgs chose %s", choice.type));
  PetscCall(PetscStrstr(text, chose, &hit1));
  PetscCall(PetscStrstr(text, "on the Gershgorin interval", &hit2));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the report says what autobcgs chose, and the Gershgorin interval it was given: %s\n", hit1 && hit2 ? "yes" : "NO"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM               da;
  KSP              ksp;
  PC               pc;
  Vec              x, b;
  PCMGBottomReport report;
  PetscInt         dim = 2, n = 33, cycles = 0, its, code_s = 0, code_max_it = 0, block = 0, block_smoother = 0;
  PetscReal        shift      = 0.0;
  char             bottom[64] = "", code_type[64] = "", retype[64] = "";
  PetscBool        block_fallback = PETSC_FALSE, print_coarse = PETSC_FALSE, print_report = PETSC_FALSE, print_bottom = PETSC_FALSE, bad_calls = PETSC_FALSE, reset = PETSC_FALSE, check_choice = PETSC_FALSE, check_s = PETSC_FALSE, ismg;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(CAKrylovInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "PCMG bottom-solver hook test", NULL);
  PetscCall(PetscOptionsInt("-dim", "Dimension", NULL, dim, &dim, NULL));
  PetscCall(PetscOptionsInt("-n", "Grid points per direction (2^k + 1)", NULL, n, &n, NULL));
  PetscCall(PetscOptionsString("-bottom", "PCMGSetBottomSolver() with this KSP type", NULL, bottom, bottom, sizeof(bottom), NULL));
  PetscCall(PetscOptionsBool("-print_coarse", "Print the coarse solver", NULL, print_coarse, &print_coarse, NULL));
  PetscCall(PetscOptionsBool("-print_report", "Print the bottom-solve report", NULL, print_report, &print_report, NULL));
  PetscCall(PetscOptionsBool("-print_bottom", "Print the bottom KSP after the solve", NULL, print_bottom, &print_bottom, NULL));
  PetscCall(PetscOptionsBool("-check_choice", "Whether the report says what an autobcgs bottom solver chose", NULL, check_choice, &check_choice, NULL));
  PetscCall(PetscOptionsInt("-count_reductions", "Single V-cycles whose bottom reductions are counted", NULL, cycles, &cycles, NULL));
  PetscCall(PetscOptionsBool("-bad_calls", "Call the hook with bad arguments", NULL, bad_calls, &bad_calls, NULL));
  PetscCall(PetscOptionsReal("-shift", "Add this (times 1/h^2) to the operator's diagonal", NULL, shift, &shift, NULL));
  PetscCall(PetscOptionsBool("-reset", "KSPReset() and the V-cycles again", NULL, reset, &reset, NULL));
  PetscCall(PetscOptionsBool("-check_s", "Whether s of the policy's cabicgstab follows the bottom solves", NULL, check_s, &check_s, NULL));
  PetscCall(PetscOptionsInt("-block", "With -count_reductions, V-cycles on this many columns at once after a new setup", NULL, block, &block, NULL));
  PetscCall(PetscOptionsBool("-block_fallback", "With -block, the bottom KSP's own convergence test (its block goes column by column)", NULL, block_fallback, &block_fallback, NULL));
  PetscCall(PetscOptionsInt("-check_block_smoother", "KSPMatSolve() of the level smoothers on this many columns against KSPSolve() per column", NULL, block_smoother, &block_smoother, NULL));
  PetscCall(PetscOptionsString("-retype", "KSPSetType() on the coarse KSP after the first solve", NULL, retype, retype, sizeof(retype), NULL));
  PetscCall(PetscOptionsString("-code_ksp_type", "KSPSetType() on the coarse KSP in code", NULL, code_type, code_type, sizeof(code_type), NULL));
  PetscCall(PetscOptionsInt("-code_max_it", "KSPSetTolerances() on the coarse KSP in code", NULL, code_max_it, &code_max_it, NULL));
  PetscCall(PetscOptionsInt("-code_s", "KSPCABiCGStabSetS() on the coarse KSP in code", NULL, code_s, &code_s, NULL));
  PetscOptionsEnd();

  PetscCall(StencilCreateDMDA(PETSC_COMM_WORLD, dim, n, DM_BOUNDARY_NONE, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetDM(ksp, da));
  PetscCall(KSPSetComputeOperators(ksp, ComputeMatrix, &shift));
  PetscCall(KSPSetComputeRHS(ksp, ComputeRHS, NULL));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCMG));
  PetscCall(PCMGSetLevels(pc, 3, NULL));
  if (bottom[0]) PetscCall(PCMGSetBottomSolver(pc, bottom));
  if (code_type[0] || code_max_it || code_s) { /* the program's own settings of the coarse KSP, made in code */
    KSP c;

    PetscCall(PCMGGetCoarseSolve(pc, &c));
    if (code_type[0]) PetscCall(KSPSetType(c, code_type));
    if (code_max_it) PetscCall(KSPSetTolerances(c, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, code_max_it));
    if (code_s) PetscCall(KSPCABiCGStabSetS(c, code_s));
  }
  if (bad_calls) PetscCall(BadCalls(pc, da));
  if (cycles) { /* one V-cycle per KSPSolve; the smoothers use no reductions: every reduction is a bottom one */
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    for (PetscInt l = 1; l < 3; l++) {
      KSP smoother;
      PC  spc;

      PetscCall(PCMGGetSmoother(pc, l, &smoother));
      PetscCall(KSPSetType(smoother, KSPRICHARDSON));
      PetscCall(KSPGetPC(smoother, &spc));
      PetscCall(PCSetType(spc, PCJACOBI)); /* not SOR: MatSOR_MPIAIJ duplicates a vector (one reduction) per call */
    }
  } else {
    PetscCall(KSPSetType(ksp, KSPFGMRES)); /* the bottom solve is a (nonlinear) Krylov solve: flexible outer method */
    PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 50));
  }
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCMG, &ismg));
  PetscCall(KSPSetUp(ksp));
  if (ismg) PetscCall(PCMGGetCoarseSolve(pc, &coarse));
  PetscCall(KSPGetSolution(ksp, &x));
  PetscCall(KSPGetRhs(ksp, &b));
  if (ismg && print_coarse) PetscCall(PrintCoarse(pc));
  if (ismg && block_smoother) PetscCall(CheckBlockSmoother(pc, block_smoother));

  if (cycles) {
    PetscCall(CountCycles(ksp, pc, cycles, check_s, retype));
    if (reset) { /* the same PCMG set up again: the bottom solver and the report must follow it */
      PetscCall(KSPReset(ksp));
      PetscCall(KSPSetUp(ksp));
      ncomputed = 0;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "after KSPReset() and KSPSetUp():\n"));
      PetscCall(CountCycles(ksp, pc, cycles, check_s, retype));
      PetscCall(PrintBottom(pc));
    }
    if (block) PetscCall(BlockCycles(ksp, pc, cycles, block, block_fallback));
  } else {
    KSPConvergedReason reason;
    Mat                A;
    Vec                r;
    PetscReal          rnorm, bnorm;

    PetscCall(KSPSolve(ksp, NULL, NULL));
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCall(KSPGetOperators(ksp, &A, NULL));
    PetscCall(VecDuplicate(b, &r));
    PetscCall(MatResidual(A, b, x, r));
    PetscCall(VecNorm(r, NORM_2, &rnorm));
    PetscCall(VecNorm(b, NORM_2, &bnorm));
    PetscCall(VecDestroy(&r));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s; true residual <= 1e-8 ||b||: %s\n", KSPConvergedReasons[reason], rnorm <= 1e-8 * bnorm ? "yes" : "NO"));
    if (ismg) {
      PetscCall(PCMGGetBottomReport(pc, &report));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "report: one bottom solve per PCMG application: %s\n", report.solves == report.vcycles && report.vcycles == its ? "yes" : "NO"));
    }
  }
  if (ismg && print_bottom) PetscCall(PrintBottom(pc));
  if (ismg && print_report) PetscCall(PCMGBottomReportView(pc, PETSC_VIEWER_STDOUT_WORLD));
  if (ismg && check_choice) PetscCall(CheckChoice(pc));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # the hook from the options database and from C; the policy, and PETSc's -mg_coarse_ options winning over it
   test:
      suffix: policy
      nsize: {{1 2 4}}
      args: -pc_mg_bottom_ksp_type {{cabicgstab bcgs bcgsm pipebcgsm}} -mg_levels_pc_type jacobi -print_coarse
      filter: sed -E "s/KSP (cabicgstab|bcgs|bcgsm|pipebcgsm),/KSP <type>,/"
      output_file: output/mgbottom_policy.out

   test:
      suffix: policy_c
      nsize: 2
      args: -bottom cabicgstab -pc_mg_bottom_rtol 1e-3 -pc_mg_bottom_max_it 50 -print_coarse -dim 3 -n 17

   test:
      suffix: override
      nsize: 2
      args: -pc_mg_bottom_ksp_type cabicgstab -mg_coarse_ksp_type bcgs -mg_coarse_ksp_rtol 1e-6 -mg_coarse_pc_type sor -print_coarse

   # settings the program made in code on the coarse KSP stay: the policy fills only what PCMG set itself (here rtol and
   # the PC; a cabicgstab chosen in code keeps its s and basis, no Gershgorin choice); -mg_coarse_ options win over both
   test:
      suffix: code
      nsize: 2
      args: -pc_mg_bottom_ksp_type cabicgstab -code_ksp_type bcgs -code_max_it 30 -mg_coarse_ksp_max_it 40 -print_coarse

   test:
      suffix: code_s
      nsize: 2
      args: -pc_mg_bottom_ksp_type cabicgstab -code_ksp_type cabicgstab -code_s 6 -shift 0.5 -print_bottom

   # KSPRICHARDSON runs all its V-cycles in one PCApplyRichardson(): they are counted too
   # an autobcgs bottom solver: the policy gives it the Gershgorin interval (the shift makes it safe), the report says what it chose
   test:
      suffix: autobcgs
      nsize: {{1 2}}
      args: -pc_mg_bottom_ksp_type autobcgs -shift 0.5 -check_choice

   test:
      suffix: richardson
      nsize: 2
      args: -ksp_type richardson -pc_mg_bottom_ksp_type cabicgstab -print_report
      filter: grep -v -i "time in" | sed -E -e "/cycles:|iterations:|reductions in/s/[0-9]+([.][0-9]+)?/N/g"

   # the bottom KSP's options win over the policy's choice of s, basis and telescoping, and the report says what runs
   test:
      suffix: options_basis
      nsize: 2
      args: -pc_mg_bottom_ksp_type cabicgstab -mg_coarse_ksp_cabicgstab_s 6 -print_report
      filter: grep "basis of the cabicgstab"

   # PCMG's own coarse solve is measured too (no policy)
   test:
      suffix: nopolicy
      nsize: 2
      args: -print_coarse -print_report
      filter: grep -v -i "time in" | sed -E -e "/cycles:|iterations:|reductions in/s/[0-9]+([.][0-9]+)?/N/g"

   # the report's count of global reductions in bottom solves is the real one
   test:
      suffix: reductions
      nsize: {{2 4}}
      args: -pc_mg_bottom_ksp_type {{cabicgstab bcgs bcgsm pipebcgsm autobcgs}} -count_reductions 3
      filter: sed -E "s/reported [0-9]+, counted by MPI [0-9]+ \\([0-9]+ non-blocking\\)/reported N, counted N/"
      output_file: output/mgbottom_reductions.out

   # the program changes the bottom method after the policy chose its Chebyshev cabicgstab (whose s follows the solves):
   # the policy stops adapting s and leaves the new method alone; the counts as above (the new method sets the coarse
   # KSP up again, so the coarse operator is computed again: the program's doing)
   test:
      suffix: reductions_retype
      nsize: 2
      args: -pc_mg_bottom_ksp_type cabicgstab -shift 0.5 -retype bcgs -count_reductions 3
      filter: sed -E "s/reported [0-9]+, counted by MPI [0-9]+ \\([0-9]+ non-blocking\\)/reported N, counted N/"

   # a bottom cabicgstab with the Newton or Chebyshev basis: the spectrum estimate (GMRES, in the first bottom solve) is counted too
   test:
      suffix: reductions_bases
      nsize: 2
      args: -pc_mg_bottom_ksp_type cabicgstab -mg_coarse_ksp_cabicgstab_basis {{newton chebyshev}} -mg_coarse_ksp_cabicgstab_s 8 -count_reductions 3
      filter: sed -E "s/reported [0-9]+, counted by MPI [0-9]+ \\([0-9]+ non-blocking\\)/reported N, counted N/"
      output_file: output/mgbottom_reductions.out

   # a strictly diagonally dominant operator: the policy takes the Chebyshev basis on the Gershgorin interval (s = 10 at
   # the first bottom solve, then following the solves' iterations: one reduction per bottom solve of at most s
   # iterations); the counts as above, and s after the V-cycles
   test:
      suffix: reductions_gershgorin
      nsize: 4
      args: -pc_mg_bottom_ksp_type cabicgstab -shift 0.5 -pc_mg_bottom_agglomeration 1 -count_reductions 3 -print_report -check_s
      filter: grep -v -i "time in" | sed -E -e "/cycles:|iterations:|reductions in/s/[0-9]+([.][0-9]+)?/N/g" -e "s/, on (all ranks|1 of every 2 ranks [(]PCTELESCOPE[)])//"
      output_file: output/mgbottom_reductions_gershgorin.out

   # the same agglomerated onto 1 of every 2 ranks (PCTELESCOPE)
   test:
      suffix: reductions_gershgorin_agglomeration
      nsize: 4
      args: -pc_mg_bottom_ksp_type cabicgstab -shift 0.5 -pc_mg_bottom_agglomeration 2 -count_reductions 3 -print_report -check_s
      filter: grep -v -i "time in" | sed -E -e "/cycles:|iterations:|reductions in/s/[0-9]+([.][0-9]+)?/N/g" -e "s/, on (all ranks|1 of every 2 ranks [(]PCTELESCOPE[)])//"

   # the same with the operators in MATSELL, which gives no rows (MatGetRow()): the policy reads the coarse operator's
   # radii from a MATAIJ copy and takes the same basis on the same interval
   test:
      suffix: reductions_gershgorin_sell
      nsize: 4
      args: -pc_mg_bottom_ksp_type cabicgstab -shift 0.5 -dm_mat_type sell -count_reductions 3 -print_report -check_s
      filter: grep -v -i "time in" | sed -E -e "/cycles:|iterations:|reductions in/s/[0-9]+([.][0-9]+)?/N/g" -e "s/, on (all ranks|1 of every 2 ranks [(]PCTELESCOPE[)])//"
      output_file: output/mgbottom_reductions_gershgorin.out

   # s given by the option: the policy keeps it (no adapting to the bottom solves)
   test:
      suffix: reductions_gershgorin_fixed_s
      nsize: 4
      args: -pc_mg_bottom_ksp_type cabicgstab -shift 0.5 -mg_coarse_ksp_cabicgstab_s 10 -count_reductions 3 -check_s
      filter: sed -E -e "/cycles:|iterations:|reductions in/s/[0-9]+([.][0-9]+)?/N/g"

   test:
      suffix: reductions_agglomeration
      nsize: 4
      args: -pc_mg_bottom_ksp_type {{cabicgstab bcgs}} -pc_mg_bottom_agglomeration 2 -count_reductions 3
      filter: sed -E "s/reported [0-9]+, counted by MPI [0-9]+ \\([0-9]+ non-blocking\\)/reported N, counted N/"
      output_file: output/mgbottom_reductions.out

   test:
      suffix: reductions_dim3
      nsize: 2
      args: -bottom cabicgstab -dim 3 -n 17 -count_reductions 2 -print_report -check_s
      filter: grep -v -i "time in" | sed -E -e "/cycles:|iterations:|reductions in/s/[0-9]+([.][0-9]+)?/N/g"

   # then, after a new setup, V-cycles on 4 columns at once (PCMatApply(): block bottom solves), after which s is their
   # most iterations; with -block_fallback the block goes column by column and the one more is back
   test:
      suffix: reductions_dim3_block
      nsize: 2
      args: -bottom cabicgstab -dim 3 -n 17 -count_reductions 3 -check_s -block 4 -block_fallback {{0 1}separate output}
      filter: sed -E -e "/reductions in/s/[0-9]+([.][0-9]+)?/N/g"

   # the level smoothers' KSPMatSolve() (what PCMG's PCMatApply() calls): KSPRICHARDSON + PCCHEBYJACOBI get the hook's
   # block smoother, bitwise KSPSolve() per column with one halo message per neighbour and step for all columns
   test:
      suffix: block_smoother
      nsize: {{1 2 3}}
      args: -dim {{2 3}} -n 17 -check_block_smoother 5 -mg_levels_ksp_type richardson -mg_levels_pc_type chebyjacobi
      filter: grep -e "level smoothers"
      output_file: output/mgbottom_block_smoother.out

   # the same PCMG set up again after KSPReset(): the policy reaches the bottom KSP again (with agglomeration a new KSP
   # inside PCTELESCOPE) and the report counts that one
   test:
      suffix: reset
      nsize: 4
      args: -pc_mg_bottom_ksp_type {{cabicgstab bcgs}} -pc_mg_bottom_agglomeration {{1 2}} -count_reductions 2 -reset
      filter: sed -E -e "s/reported [0-9]+, counted by MPI [0-9]+ \\([0-9]+ non-blocking\\)/reported N, counted N/" -e "s/KSP (cabicgstab|bcgs), PC jacobi(, s = [0-9]+, basis [a-z]+)?/KSP <policy>, PC jacobi/"
      output_file: output/mgbottom_reset.out

   # agglomeration onto fewer ranks: the same V-cycles as without it (bottom iterations and reductions differ)
   test:
      suffix: agglomeration
      nsize: 4
      args: -pc_mg_bottom_ksp_type cabicgstab -pc_mg_bottom_agglomeration {{1 2 4}} -print_report
      filter: grep -v -i -E "time in|iterations:|reductions" | sed -E "s/, on (all ranks|1 of every [24] ranks \\(PCTELESCOPE\\))//"
      output_file: output/mgbottom_agglomeration.out

   # the deprecated option name still takes effect (the report says where the bottom solve ran; PETSc's warning filtered out)
   test:
      suffix: deprecated_telescope
      nsize: 4
      args: -pc_mg_bottom_ksp_type cabicgstab -pc_mg_bottom_telescope 2 -print_report
      filter: grep -E "^Bottom-solve report"

   test:
      suffix: report_at_destroy
      nsize: 2
      args: -pc_mg_bottom_ksp_type bcgs -pc_mg_bottom_report
      filter: grep -v -i "time in" | sed -E -e "/cycles:|iterations:|reductions in/s/[0-9]+([.][0-9]+)?/N/g"

   test:
      suffix: bad_calls
      args: -bad_calls

   test:
      suffix: bad_option
      args: -pc_mg_bottom_rtol 2
      filter: Error: grep -o "Bottom rtol 2. must be in (0, 1)"

   # not PCMG, or a type built on PCMG (gamg replaces PCMG's setup, view, destroy): the hook stays out of the way
   test:
      suffix: gamg
      nsize: 2
      args: -pc_type gamg -pc_mg_bottom_ksp_type cabicgstab -options_left 0

   test:
      suffix: not_mg
      args: -pc_type jacobi -ksp_type cg -ksp_max_it 500 -pc_mg_bottom_ksp_type cabicgstab -options_left 0

   # PETSc's own, unmodified KSP tutorial ex45 (3D Laplacian, DMDA, PCMG) with the library loaded at run time
   test:
      suffix: plugin_ex45
      nsize: 2
      command: ${mpiexec} -n 2 ${CAKRYLOV_PETSC_EXAMPLES}/ex45 -dll_append ${CAKRYLOV_LIBRARY} -da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type mg -pc_mg_levels 3 -pc_mg_bottom_ksp_type cabicgstab -pc_mg_bottom_report -ksp_converged_reason
      filter: grep -v -i "time in" | sed -E -e "/cycles:|iterations:|reductions in/s/[0-9]+([.][0-9]+)?/N/g" | sed -E -e "s/iterations [0-9]+/iterations N/" -e "s/Residual norm [0-9.e-]+/Residual norm (printed)/"

   # types built on PCMG replace its setup (gamg, ml): the hook stays out of their -ksp_view and -ksp_view_pre
   test:
      suffix: plugin_view_gamg
      nsize: 2
      command: ${mpiexec} -n 2 ${CAKRYLOV_PETSC_EXAMPLES}/ex2 -dll_append ${CAKRYLOV_LIBRARY} -m 16 -n 16 -pc_type gamg -ksp_view -ksp_view_pre
      filter: grep -E "^Norm of error|Bottom-solve report" | sed -E "s/error [^ ]+ iterations [0-9]+/error (printed) iterations N/"
      output_file: output/mgbottom_plugin_view.out

   test:
      suffix: plugin_view_ml
      requires: ml
      nsize: 2
      command: ${mpiexec} -n 2 ${CAKRYLOV_PETSC_EXAMPLES}/ex2 -dll_append ${CAKRYLOV_LIBRARY} -m 16 -n 16 -pc_type ml -ksp_view -ksp_view_pre
      filter: grep -E "^Norm of error|Bottom-solve report" | sed -E "s/error [^ ]+ iterations [0-9]+/error (printed) iterations N/"
      output_file: output/mgbottom_plugin_view.out

   # PETSc's SNES ex19 with grid sequencing: PCMG rebuilds its levels inside its setup on each finer grid; first one level
   # (a smoother, -mg_levels_0_: no coarse solve, no policy), then two, whose new coarse KSP gets the policy before its setup
   test:
      suffix: plugin_gridsequence
      command: ${CAKRYLOV_PETSC_EXAMPLES}/snes-ex19 -dll_append ${CAKRYLOV_LIBRARY} -da_grid_x 5 -da_grid_y 5 -snes_grid_sequence 1 -pc_type mg -ksp_type fgmres -pc_mg_bottom_ksp_type {{bcgs cabicgstab}} -mg_levels_0_pc_type lu -snes_converged_reason -pc_mg_bottom_report
      filter: grep -E "Nonlinear solve|^Bottom-solve report|PCMG cycles:" | sed -E -e "s/^ +//" -e "s/iterations [0-9]+/iterations N/" -e "s/bottom KSP (bcgs|cabicgstab),/bottom KSP <policy>,/" -e "s/cycles: [0-9]+, bottom solves: [1-9][0-9]{0,9}/cycles: N, bottom solves: at least one/"
      output_file: output/mgbottom_plugin_gridsequence.out

   # the same on 2 ranks, three grids, with and without agglomeration: on each finer grid a new coarse KSP (and PCTELESCOPE),
   # and PCMG reset between the grids
   test:
      suffix: plugin_gridsequence_2
      nsize: 2
      command: ${mpiexec} -n 2 ${CAKRYLOV_PETSC_EXAMPLES}/snes-ex19 -dll_append ${CAKRYLOV_LIBRARY} -da_grid_x 5 -da_grid_y 5 -snes_grid_sequence 2 -pc_type mg -ksp_type fgmres -pc_mg_bottom_ksp_type {{bcgs cabicgstab}} -pc_mg_bottom_agglomeration {{1 2}} -snes_converged_reason -pc_mg_bottom_report
      filter: grep -E "Nonlinear solve|^Bottom-solve report|PCMG cycles:" | sed -E -e "s/^ +//" -e "s/iterations [0-9]+/iterations N/" -e "s/bottom KSP (bcgs|cabicgstab),/bottom KSP <policy>,/" -e "s/cycles: [0-9]+, bottom solves: [1-9][0-9]{0,9}/cycles: N, bottom solves: at least one/" -e "s/, on (all ranks|1 of every 2 ranks [(]PCTELESCOPE[)])//"

   test:
      suffix: plugin_ex45_help
      command: ${CAKRYLOV_PETSC_EXAMPLES}/ex45 -dll_append ${CAKRYLOV_LIBRARY} -pc_type mg -help
      filter: grep -o -E "^ *-pc_mg_bottom_[a-z_]+"

TEST*/
