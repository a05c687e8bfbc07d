static char help[] = "Per-iteration benchmark of the BiCGStab variants on the 7-point 3D Laplacian (Dirichlet boundary eliminated): PETSc's\n\
bcgs, ibcgs and pipebcgs, cakrylov's bcgsm, pipebcgsm, rbicgstab and cabicgstab (s = 4, 8), and hypre's own ParCSR BiCGSTAB on\n\
the same matrix; time per iteration, ratios measured in the same rounds, the bytes each iteration moves (a model, printed\n\
below the table) and the fraction of the STREAM triad bandwidth of the same ranks that achieves.\n\
  -n <200>             : grid points per direction (N = n^3 unknowns)\n\
  -pc_type <none|jacobi|synthetic> : preconditioner of every KSP (synthetic: the identity at -pc_synthetic_complexity <alpha>\n\
                        vector reads+writes per application, default 20; Krasnopolsky section 4; hypre is skipped then).\n\
                        hypre's BiCGSTAB uses its own diagonal scaling (HYPRE_ParCSRDiagScale) as jacobi, its identity as none\n\
  -its <40>            : iterations per solve (every solve runs exactly this many; a multiple of 8 keeps cabicgstab's outer\n\
                        iterations whole)\n\
  -runs <5>            : timed rounds (each round solves once with every method, in a rotated order)\n\
  -methods <list>      : comma-separated subset of bcgs,ibcgs,bcgsm,pipebcgs,pipebcgsm,rbicgstab,cabicgstab4,cabicgstab8,hypre\n\
  -stream <true>       : measure the STREAM triad (false: skip it, no bandwidth fractions)\n\
  -csv <file>          : append one CSV row per method to file (a header first when the file is new or empty)\n\
  Every KSP also reads the options database (KSPSetFromOptions()), e.g. -ksp_rbicgstab_progress test. The timed rounds are\n\
  bracketed by MPI_Pcontrol(1) ... MPI_Pcontrol(0): with share/bench/cakpmpi/cakpmpi.c preloaded and CAKPMPI_PAUSED=1 only\n\
  the timed solves are counted.\n\n";

#include <cakrylov.h>

#include "benchutil.h" /* the problem, the STREAM triad, the median, one SpMV timed alone, the CSV files; shared with mrhs.c */
#if defined(PETSC_HAVE_HYPRE)
  #include <HYPRE.h>
  #include <HYPRE_IJ_mv.h>
  #include <HYPRE_parcsr_ls.h>

/* petscmathypre.h includes hypre's internal headers, which do not compile without warnings; its one function we need: */
PETSC_EXTERN PetscErrorCode MatHYPREGetParCSR(Mat, struct hypre_ParCSRMatrix_struct **);
#endif

#define NMETHODS 9

typedef struct {
  const char *name;
  KSPType     type;   /* NULL: hypre's ParCSR BiCGSTAB */
  PetscBool   right;  /* right preconditioning (pipelined and s-step types); left otherwise, the default */
  const char *native; /* the method it is compared with in the "vs" column, NULL for none */
  PetscBool   ours;   /* the library's types skip the identity PC; PETSc's (and hypre's) copy the vector */
  PetscInt    s;      /* cabicgstab: s (telescoping off: s steps in every outer iteration) */
  PetscReal   spmv;   /* operator applications (SpMV) per iteration */
  PetscReal   pcapps; /* preconditioner applications per iteration with a PC (jacobi, synthetic); with PC none the non-ours
                           types copy the vector once per application instead (16 N bytes) */
  PetscReal   vec[2]; /* vector reads+writes per iteration (8 N bytes each) besides SpMV and PC: with PC none, with a PC */
} Method;

/* Vector counts per iteration, SpMV and PC applications excluded:
   - bcgsm, pipebcgsm, rbicgstab: what their manual pages state;
   - bcgs (21) and pipebcgs (56): counted by us from PETSc 3.18's source (bcgs: VecDot 2 + VecAXPBYPCZ 4 + VecDot 2 + VecWAXPY 3 +
     VecDotNorm2 2 + VecAXPBYPCZ 4 + VecWAXPY 3 + VecNorm 1);
   - ibcgs (22): PETSc's hand-fused loops (z, v, s update: 5 reads + 3 writes; t = u - alpha q: 3; the six local dots: 5 reads;
     r, x update: 4 reads + 2 writes); run with KSPSetLagNorm() (one reduction per iteration, PETSc's advice);
   - cabicgstab, per outer iteration of s steps: 4s-1 operator applications (basis P: 2s, R: 2s-1), each with a PC application
     with a PC, plus one PC application for x; the Gram GEMM reads the 4s+2 columns [rt, P, R] once (an ideal BLAS-3 pass),
     the rebuild GEMM reads 4s+1 columns and writes p, r, dx (4s+4), 2 copies (4), x += dx (3): 8s+13 vectors, i.e. 8 + 13/s
     per iteration, 4 - 1/s SpMVs and 4 PC applications per iteration;
   - hypre's BiCGSTAB (hypre 2.26 krylov/bicgstab.c, 30): 2 ClearVector (1 each), 5 InnerProd (r0.q 2, r.s 2, s.s 1, r.r 1,
     r0.r 2), 6 Axpy (3 each), 1 ScaleVector (2); its identity preconditioner copies (PC none), HYPRE_ParCSRDiagScale is the
     jacobi case (it reads the diagonal through the CSR row pointers: more bytes than the 24 N modelled). */
static const Method methods[NMETHODS] = {
  {"bcgs",        KSPBCGS,       PETSC_FALSE, NULL,       PETSC_FALSE, 0, 2.0,   2.0, {21, 21}      },
  {"ibcgs",       KSPIBCGS,      PETSC_FALSE, "bcgs",     PETSC_FALSE, 0, 2.0,   2.0, {22, 22}      },
  {"bcgsm",       KSPBCGSM,      PETSC_FALSE, "bcgs",     PETSC_TRUE,  0, 2.0,   2.0, {18, 18}      },
  {"pipebcgs",    KSPPIPEBCGS,   PETSC_TRUE,  NULL,       PETSC_FALSE, 0, 2.0,   2.0, {56, 56}      },
  {"pipebcgsm",   KSPPIPEBCGSM,  PETSC_TRUE,  "pipebcgs", PETSC_TRUE,  0, 2.0,   2.0, {25, 34}      },
  {"rbicgstab",   KSPRBICGSTAB,  PETSC_TRUE,  "bcgs",     PETSC_TRUE,  0, 2.0,   2.0, {16, 21}      },
  {"cabicgstab4", KSPCABICGSTAB, PETSC_TRUE,  "bcgs",     PETSC_TRUE,  4, 3.75,  4.0, {11.25, 11.25}},
  {"cabicgstab8", KSPCABICGSTAB, PETSC_TRUE,  "bcgs",     PETSC_TRUE,  8, 3.875, 4.0, {9.625, 9.625}},
  {"hypre",       NULL,          PETSC_TRUE,  "bcgsm",    PETSC_FALSE, 0, 2.0,   2.0, {30, 30}      },
};

static const char *const PCTypes[] = {"none", "jacobi", "synthetic"};
static const char *const Sides[]   = {"left", "right", "symmetric"};

#if defined(PETSC_HAVE_HYPRE)
/* hypre's own ParCSR BiCGSTAB on the same matrix (MatConvert to MATHYPRE), right-hand side and zero initial guess */
typedef struct {
  Mat                Ah;
  HYPRE_IJVector     ijb, ijx;
  HYPRE_ParCSRMatrix parA;
  HYPRE_ParVector    parb, parx;
  HYPRE_Solver       solver;
} HypreBench;

static PetscErrorCode HypreBenchCreate(Mat A, Vec b, PetscInt pc, PetscInt its, HypreBench *h)
{
  MPI_Comm                          comm = PetscObjectComm((PetscObject)A);
  PetscInt                          rstart, rend, nlocal;
  HYPRE_BigInt                     *rows;
  HYPRE_Complex                    *vals;
  const PetscScalar                *barr;
  struct hypre_ParCSRMatrix_struct *parcsr;

  PetscFunctionBegin;
  PetscCall(MatConvert(A, MATHYPRE, MAT_INITIAL_MATRIX, &h->Ah));
  PetscCall(MatHYPREGetParCSR(h->Ah, &parcsr));
  h->parA = (HYPRE_ParCSRMatrix)parcsr;
  PetscCall(VecGetOwnershipRange(b, &rstart, &rend));
  nlocal = rend - rstart;
  PetscCall(PetscMalloc2(nlocal, &rows, nlocal, &vals));
  PetscCall(VecGetArrayRead(b, &barr));
  for (PetscInt i = 0; i < nlocal; i++) {
    rows[i] = (HYPRE_BigInt)(rstart + i);
    vals[i] = (HYPRE_Complex)barr[i];
  }
  PetscCall(VecRestoreArrayRead(b, &barr));
  for (PetscInt v = 0; v < 2; v++) {
    HYPRE_IJVector *ij = v ? &h->ijx : &h->ijb;

    PetscCallExternal(HYPRE_IJVectorCreate, comm, (HYPRE_BigInt)rstart, (HYPRE_BigInt)(rend - 1), ij);
    PetscCallExternal(HYPRE_IJVectorSetObjectType, *ij, HYPRE_PARCSR);
    PetscCallExternal(HYPRE_IJVectorInitialize, *ij);
    if (v == 0) PetscCallExternal(HYPRE_IJVectorSetValues, *ij, (HYPRE_Int)nlocal, rows, vals);
    PetscCallExternal(HYPRE_IJVectorAssemble, *ij);
  }
  PetscCall(PetscFree2(rows, vals));
  PetscCallExternal(HYPRE_IJVectorGetObject, h->ijb, (void **)&h->parb);
  PetscCallExternal(HYPRE_IJVectorGetObject, h->ijx, (void **)&h->parx);
  PetscCallExternal(HYPRE_ParVectorSetConstantValues, h->parx, 0.0);

  PetscCallExternal(HYPRE_ParCSRBiCGSTABCreate, comm, &h->solver);
  PetscCallExternal(HYPRE_ParCSRBiCGSTABSetTol, h->solver, 0.0);
  PetscCallExternal(HYPRE_ParCSRBiCGSTABSetAbsoluteTol, h->solver, 0.0);
  PetscCallExternal(HYPRE_ParCSRBiCGSTABSetMaxIter, h->solver, (HYPRE_Int)its);
  PetscCallExternal(HYPRE_ParCSRBiCGSTABSetLogging, h->solver, 0);
  PetscCallExternal(HYPRE_ParCSRBiCGSTABSetPrintLevel, h->solver, 0);
  if (pc == 1) PetscCallExternal(HYPRE_ParCSRBiCGSTABSetPrecond, h->solver, HYPRE_ParCSRDiagScale, HYPRE_ParCSRDiagScaleSetup, NULL);
  PetscCallExternal(HYPRE_ParCSRBiCGSTABSetup, h->solver, h->parA, h->parb, h->parx);
  PetscFunctionReturn(0);
}

static PetscErrorCode HypreBenchDestroy(HypreBench *h)
{
  PetscFunctionBegin;
  if (!h->Ah) PetscFunctionReturn(0);
  PetscCallExternal(HYPRE_ParCSRBiCGSTABDestroy, h->solver);
  PetscCallExternal(HYPRE_IJVectorDestroy, h->ijb);
  PetscCallExternal(HYPRE_IJVectorDestroy, h->ijx);
  PetscCall(MatDestroy(&h->Ah));
  PetscFunctionReturn(0);
}
#else
/* a PETSc without hypre: the method "hypre" is left out of the default list and refused by -methods */
typedef struct {
  Mat Ah;
} HypreBench;

static PetscErrorCode HypreBenchCreate(Mat A, Vec b, PetscInt pc, PetscInt its, HypreBench *h)
{
  PetscFunctionBegin;
  (void)b, (void)pc, (void)its, (void)h;
  SETERRQ(PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "This PETSc has no hypre");
}

static PetscErrorCode HypreBenchDestroy(HypreBench *h)
{
  PetscFunctionBegin;
  (void)h;
  PetscFunctionReturn(0);
}
#endif

/* One solve from x = 0 (zeroed inside the timed region, as KSPSolve() does), timed from a barrier: the slowest rank's time
   per iteration. Checks that exactly its iterations ran. */
static PetscErrorCode TimedSolve(KSP ksp, HypreBench *h, const char *name, PetscInt its, Vec b, Vec x, PetscReal *time)
{
  MPI_Comm comm = ksp ? PetscObjectComm((PetscObject)ksp) : PETSC_COMM_WORLD;
  double   t0, t, tmax;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Barrier(comm));
  t0 = MPI_Wtime();
  if (ksp) PetscCall(KSPSolve(ksp, b, x));
#if defined(PETSC_HAVE_HYPRE)
  else {
    PetscCallExternal(HYPRE_ParVectorSetConstantValues, h->parx, 0.0);
    PetscCallExternal(HYPRE_ParCSRBiCGSTABSolve, h->solver, h->parA, h->parb, h->parx);
  }
#else
  (void)h; /* hypre's solves only */
#endif
  t = MPI_Wtime() - t0;
  PetscCallMPI(MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, comm));
  if (ksp) {
    PetscInt           done;
    KSPConvergedReason reason;

    PetscCall(KSPGetIterationNumber(ksp, &done));
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    /* ibcgs with the lagged norm counts one iteration more (its last norm arrives with iteration its + 1): divided by what ran */
    PetscCheck((done == its || done == its + 1) && reason == KSP_DIVERGED_ITS, comm, PETSC_ERR_NOT_CONVERGED, "%s ran %" PetscInt_FMT " iterations (%s) instead of %" PetscInt_FMT, name, done, KSPConvergedReasons[reason], its);
    tmax /= done;
  }
#if defined(PETSC_HAVE_HYPRE)
  else {
    HYPRE_Int done;

    PetscCallExternal(HYPRE_ParCSRBiCGSTABGetNumIterations, h->solver, &done);
    PetscCheck(done == its, comm, PETSC_ERR_NOT_CONVERGED, "%s ran %d iterations instead of exactly %" PetscInt_FMT, name, (int)done, its);
    tmax /= done;
  }
#endif
  *time = tmax;
  PetscFunctionReturn(0);
}

static PetscInt MethodIndex(const char *name)
{
  for (PetscInt m = 0; m < NMETHODS; m++) {
    PetscBool same;

    if (!name) return -1;
    if (PetscStrcmp(name, methods[m].name, &same)) return -1;
    if (same) return m;
  }
  return -1;
}

/* Median over the rounds of t[m][r] / t[ref][r], or -1 when ref did not run */
static PetscErrorCode PairedRatio(PetscInt runs, PetscReal **t, PetscInt m, PetscInt ref, PetscBool *selected, PetscReal *work, PetscReal *ratio)
{
  PetscFunctionBegin;
  *ratio = -1.0;
  if (ref < 0 || !selected[ref]) PetscFunctionReturn(0);
  for (PetscInt r = 0; r < runs; r++) work[r] = t[m][r] / t[ref][r];
  PetscCall(Median(runs, work, ratio));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscBool    helponly;
  MPI_Comm     comm;
  PetscMPIInt  size;
  DM           da;
  Mat          A;
  Vec          b, x;
  KSP          ksp[NMETHODS] = {NULL};
  HypreBench   hyp           = {0};
  PetscInt     n = 200, its = 40, runs = 5, pc = 0, alpha = 20, N, mstream = 0, nsel = 0, order[NMETHODS];
  PetscReal   *t[NMETHODS] = {NULL}, *work, triad = 0.0, nnz = 0.0, spmv, pcbytes, tspmv = 0.0;
  PetscReal    med[NMETHODS], rbcgs[NMETHODS], rnative[NMETHODS], rhypre[NMETHODS], bytes[NMETHODS];
  double       gbs = 0.0;
  PCSide       side[NMETHODS];
  PetscBool    selected[NMETHODS] = {PETSC_FALSE}, stream = PETSC_TRUE, methodsset, csvset;
  const char  *names[NMETHODS];
  char         csvname[PETSC_MAX_PATH_LEN] = "";
  const PCType pctypes[]                   = {PCNONE, PCJACOBI, PCSYNTHETIC};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(CAKrylovInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  for (PetscInt m = 0; m < NMETHODS; m++) names[m] = methods[m].name;
  PetscOptionsBegin(comm, NULL, "BiCGStab variants benchmark", NULL);
  PetscCall(PetscOptionsInt("-n", "Grid points per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsEList("-pc_type", "Preconditioner of every KSP", NULL, PCTypes, 3, PCTypes[pc], &pc, NULL));
  PetscCall(PetscOptionsInt("-pc_synthetic_complexity", "Vector reads+writes of one synthetic PC application", NULL, alpha, &alpha, NULL));
  PetscCall(PetscOptionsInt("-its", "Iterations per solve", NULL, its, &its, NULL));
  PetscCall(PetscOptionsInt("-runs", "Timed rounds", NULL, runs, &runs, NULL));
  PetscCall(BenchOptionsMethods(PetscOptionsObject, NMETHODS, names, selected, &methodsset));
  PetscCall(PetscOptionsBool("-stream", "Measure the STREAM triad", NULL, stream, &stream, NULL));
  PetscCall(PetscOptionsString("-csv", "Append one CSV row per method to this file", NULL, csvname, csvname, sizeof(csvname), &csvset));
  PetscOptionsEnd();
  PetscCall(BenchHelpOnly(&helponly));
  if (helponly) {
    PetscCall(PetscFinalize());
    return 0;
  }
  PetscCheck(n >= 2, comm, PETSC_ERR_ARG_OUTOFRANGE, "-n %" PetscInt_FMT " must be >= 2", n);
  PetscCheck(its >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-its %" PetscInt_FMT " must be >= 1", its);
  PetscCheck(runs >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-runs %" PetscInt_FMT " must be >= 1", runs);
  if (pc == 2 && selected[NMETHODS - 1]) {
    selected[NMETHODS - 1] = PETSC_FALSE;
    PetscCall(PetscPrintf(comm, "(hypre's BiCGSTAB has no synthetic preconditioner: skipped)\n"));
  }
  if (!PetscDefined(HAVE_HYPRE) && selected[NMETHODS - 1]) {
    PetscCheck(!methodsset, comm, PETSC_ERR_SUP, "This PETSc has no hypre: leave hypre out of -methods");
    selected[NMETHODS - 1] = PETSC_FALSE;
    PetscCall(PetscPrintf(comm, "(this PETSc has no hypre: hypre's BiCGSTAB skipped)\n"));
  }
  for (PetscInt m = 0; m < NMETHODS; m++)
    if (selected[m]) order[nsel++] = m;
  PetscCheck(nsel > 0, comm, PETSC_ERR_ARG_WRONG, "No method selected");

  PetscCall(BenchLaplacian(comm, n, &da, &A, &b, &x, &nnz)); /* the 7-point Laplacian, Dirichlet boundary eliminated */
  PetscCall(MatGetSize(A, &N, NULL));

  /* STREAM triad before the solves, on the same ranks */
  if (stream) {
    PetscInt nlocal;

    PetscCall(VecGetLocalSize(b, &nlocal));
    PetscCall(StreamTriad(comm, nlocal, &mstream, &gbs));
    triad = (PetscReal)gbs;
  }
  PetscCall(TimedSpMV(A, b, x, &tspmv));

  for (PetscInt i = 0; i < nsel; i++) {
    const PetscInt m = order[i];
    PC             kpc;

    PetscCall(PetscMalloc1(runs, &t[m]));
    if (!methods[m].type) {
      PetscCall(HypreBenchCreate(A, b, pc, its, &hyp));
      side[m] = PC_RIGHT;
      continue;
    }
    PetscCall(KSPCreate(comm, &ksp[m]));
    PetscCall(KSPSetOperators(ksp[m], A, A));
    PetscCall(KSPSetType(ksp[m], methods[m].type));
    if (methods[m].s) { /* the steady state: s steps per outer iteration from the first (make -its a multiple of s) */
      PetscCall(KSPCABiCGStabSetS(ksp[m], methods[m].s));
      PetscCall(KSPCABiCGStabSetTelescope(ksp[m], PETSC_FALSE));
    }
    if (methods[m].right) PetscCall(KSPSetPCSide(ksp[m], PC_RIGHT));
    if (!strcmp(methods[m].type, KSPIBCGS)) PetscCall(KSPSetLagNorm(ksp[m], PETSC_TRUE)); /* one reduction per iteration */
    PetscCall(KSPGetPC(ksp[m], &kpc));
    PetscCall(PCSetType(kpc, pctypes[pc]));
    if (pc == 2) PetscCall(PCSyntheticSetComplexity(kpc, alpha));
    PetscCall(KSPSetTolerances(ksp[m], 1e-30, 0.0, PETSC_DEFAULT, its));
    PetscCall(KSPSetFromOptions(ksp[m])); /* the types' own options, e.g. -ksp_rbicgstab_progress test */
    PetscCall(KSPSetUp(ksp[m]));
    PetscCall(KSPGetPCSide(ksp[m], &side[m]));
  }
  PetscCall(PetscMalloc1(runs, &work));

  for (PetscInt i = 0; i < nsel; i++) { /* warm-up */
    PetscReal time;

    PetscCall(TimedSolve(ksp[order[i]], &hyp, methods[order[i]].name, its, b, x, &time));
  }
  PetscCallMPI(MPI_Pcontrol(1)); /* cakpmpi: count the timed solves only (with CAKPMPI_PAUSED=1) */
  for (PetscInt r = 0; r < runs; r++) {
    for (PetscInt j = 0; j < nsel; j++) {
      const PetscInt m = order[(r + j) % nsel];

      PetscCall(TimedSolve(ksp[m], &hyp, methods[m].name, its, b, x, &t[m][r]));
    }
  }
  PetscCallMPI(MPI_Pcontrol(0));

  PetscCall(PetscPrintf(comm, "BiCGStab variants benchmark (cakrylov %s): %d MPI rank%s, n = %" PetscInt_FMT ", N = %" PetscInt_FMT ", nnz = %.0f, PC %s%s, %" PetscInt_FMT " iterations per solve, %" PetscInt_FMT " round%s\n", CAKRYLOV_VERSION_STRING, size, size > 1 ? "s" : "", n, N, (double)nnz, PCTypes[pc], pc == 2 ? " (alpha as below)" : "", its, runs, runs > 1 ? "s" : ""));
  if (stream) PetscCall(PetscPrintf(comm, "STREAM triad (a = b + 3 c, %" PetscInt_FMT " doubles per array on rank 0, all ranks at once, best of %d): %.2f GB/s\n\n", mstream, STREAM_REPS, (double)triad));
  else PetscCall(PetscPrintf(comm, "STREAM triad: not measured (-stream false)\n\n"));
  spmv = 12.0 * nnz + 4.0 * (N + 1) + 16.0 * N;
  PetscCall(PetscPrintf(comm, "SpMV alone (PETSc MatMult, AIJ, median of 10): %.3f ms, %.2f GB/s = %.1f%% of triad\n\n", (double)(1e3 * tspmv), (double)(spmv / tspmv / 1e9), (double)(stream ? 100.0 * spmv / tspmv / 1e9 / triad : 0.0)));
  PetscCall(PetscPrintf(comm, "                     time per iteration [ms]   time relative to        bytes per iteration (model)                         without the SpMVs\n"));
  PetscCall(PetscPrintf(comm, "method       side     median     min     max   bcgs  (native)           SpMV  vecs   PC apps      MB     GB/s  of triad      GB/s  of triad\n"));
  PetscCall(PetscPrintf(comm, "-----------  -----  --------  ------  ------  -----  -----------------  ----  -----  ---------  ------  -------  --------  --------  --------\n"));
  for (PetscInt i = 0; i < nsel; i++) {
    const PetscInt m = order[i];
    const char    *pcname;
    char           nativestr[32] = "-", bcgsstr[16] = "-";
    PetscReal      tmin = PETSC_MAX_REAL, tmax = 0.0, vecs = methods[m].vec[pc ? 1 : 0], pcapps = methods[m].pcapps, wo_gbs, wo_frac;

    if (pc == 1) {
      pcbytes = 24.0 * N;
      pcname  = methods[m].type ? "jacobi" : "diagscale";
    } else if (pc == 2) {
      pcbytes = 8.0 * N * alpha;
      pcname  = "synthetic";
    } else if (methods[m].ours) {
      pcbytes = 0.0;
      pcname  = "skipped";
    } else {
      pcbytes = 16.0 * N;
      pcapps  = 2.0; /* the identity PC's copies: two per iteration in bcgs, ibcgs, pipebcgs and hypre */
      pcname  = "copies";
    }
    bytes[m] = methods[m].spmv * spmv + pcapps * pcbytes + 8.0 * N * vecs;
    for (PetscInt r = 0; r < runs; r++) {
      tmin    = PetscMin(tmin, t[m][r]);
      tmax    = PetscMax(tmax, t[m][r]);
      work[r] = t[m][r];
    }
    PetscCall(Median(runs, work, &med[m]));
    PetscCall(PairedRatio(runs, t, m, MethodIndex("bcgs"), selected, work, &rbcgs[m]));
    PetscCall(PairedRatio(runs, t, m, MethodIndex(methods[m].native), selected, work, &rnative[m]));
    PetscCall(PairedRatio(runs, t, m, MethodIndex("hypre"), selected, work, &rhypre[m]));
    if (rbcgs[m] > 0) PetscCall(PetscSNPrintf(bcgsstr, sizeof(bcgsstr), "%.3f", (double)rbcgs[m]));
    if (rnative[m] > 0) PetscCall(PetscSNPrintf(nativestr, sizeof(nativestr), "%.3f (%s)", (double)rnative[m], methods[m].native));
    wo_gbs  = (bytes[m] - methods[m].spmv * spmv) / (med[m] - methods[m].spmv * tspmv) / 1e9;
    wo_frac = stream ? 100.0 * wo_gbs / triad : 0.0;
    PetscCall(PetscPrintf(comm, "%-11s  %-5s  %8.3f  %6.2f  %6.2f  %5s  %-17s  %4.2f  %5.2f  %-9s  %6.1f  %7.2f  %7.1f%%  %8.2f  %7.1f%%\n", methods[m].name, Sides[side[m]], (double)(1e3 * med[m]), (double)(1e3 * tmin), (double)(1e3 * tmax), bcgsstr, nativestr,
                          (double)methods[m].spmv, (double)vecs, pcname, (double)(bytes[m] / 1e6), (double)(bytes[m] / med[m] / 1e9), (double)(stream ? 100.0 * bytes[m] / med[m] / 1e9 / triad : 0.0), (double)wo_gbs, (double)wo_frac));
  }
  PetscCall(PetscPrintf(comm, "\nmedian, min, max over the rounds; relative times: median over the rounds of the time relative to that method's in the same round.\n"));
  {
    const PetscInt ib = MethodIndex("bcgsm"), ip = MethodIndex("pipebcgsm");

    if (selected[ip] && rnative[ip] > 0) PetscCall(PetscPrintf(comm, "target pipebcgsm <= 0.60 x pipebcgs: %.3f\n", (double)rnative[ip]));
    if (selected[ib] && rhypre[ib] > 0) PetscCall(PetscPrintf(comm, "target bcgsm >= 1.3x faster than hypre's BiCGSTAB: %.3fx (hypre time / bcgsm time)\n", (double)(1.0 / rhypre[ib])));
  }
  if (pc == 2) PetscCall(PetscPrintf(comm, "PC synthetic: alpha = %" PetscInt_FMT " vector reads+writes per application\n", alpha));
  PetscCall(PetscPrintf(comm, "bytes per iteration (model) = SpMV x (12 nnz + 4 (N+1) + 16 N) + PC apps x (jacobi: 24 N; synthetic: 8 alpha N; PC none: PETSc's types and\n"));
  PetscCall(PetscPrintf(comm, "  hypre copy the vector, 16 N, twice per iteration, the library's skip the identity) + vecs x 8 N (the Krylov method's own vector\n"));
  PetscCall(PetscPrintf(comm, "  reads+writes; share/bench/merged.c says where each count comes from; cabicgstab: 4 - 1/s SpMVs, 4 PC apps and 8 + 13/s vecs per\n"));
  PetscCall(PetscPrintf(comm, "  iteration, the Gram and rebuild GEMMs counted as one pass each). GB/s = bytes per iteration / median time per iteration;\n"));
  PetscCall(PetscPrintf(comm, "  without the SpMVs: the same without the bytes and the time (PETSc's MatMult measured alone, above) of its SpMVs.\n"));
  PetscCall(PetscPrintf(comm, "Per-solve work is in the time per iteration: rbicgstab's extra SpMV and PC application (the lagged norm), hypre's initial residual\n"));
  PetscCall(PetscPrintf(comm, "  (1 SpMV, 3 copies, 2 dots), cabicgstab's initial residual norm. cabicgstab runs without telescoping (s steps in every outer iteration:\n"));
  PetscCall(PetscPrintf(comm, "  the steady state; -its should be a multiple of s). ibcgs runs with KSPSetLagNorm() (1 reduction per iteration).\n\n"));

  if (csvset && csvname[0]) {
    FILE *fp;

    PetscCall(OpenCSV(comm, csvname, "ranks,n,N,pc,its,runs,method,side,median_ms,min_ms,max_ms,vs_bcgs,vs_native,native,vs_hypre,spmv_per_it,vecs,mb_per_it,gbs,frac_triad,triad_gbs,spmv_ms", &fp));
    if (fp) {
      for (PetscInt i = 0; i < nsel; i++) {
        const PetscInt m    = order[i];
        PetscReal      tmin = PETSC_MAX_REAL, tmax = 0.0;

        for (PetscInt r = 0; r < runs; r++) {
          tmin = PetscMin(tmin, t[m][r]);
          tmax = PetscMax(tmax, t[m][r]);
        }
        fprintf(fp, "%d,%d,%d,%s,%d,%d,%s,%s,%.6g,%.6g,%.6g,%.4f,%.4f,%s,%.4f,%.4g,%.4g,%.6g,%.4g,%.4f,%.4g,%.6g\n", (int)size, (int)n, (int)N, PCTypes[pc], (int)its, (int)runs, methods[m].name, Sides[side[m]], (double)(1e3 * med[m]), (double)(1e3 * tmin), (double)(1e3 * tmax), (double)rbcgs[m], (double)rnative[m],
                methods[m].native ? methods[m].native : "", (double)rhypre[m], (double)methods[m].spmv, (double)methods[m].vec[pc ? 1 : 0], (double)(bytes[m] / 1e6), (double)(bytes[m] / med[m] / 1e9), (double)(stream ? bytes[m] / med[m] / 1e9 / triad : 0.0), (double)triad, (double)(1e3 * tspmv));
      }
      fclose(fp);
    }
  }

  for (PetscInt m = 0; m < NMETHODS; m++) {
    PetscCall(KSPDestroy(&ksp[m]));
    PetscCall(PetscFree(t[m]));
  }
  PetscCall(HypreBenchDestroy(&hyp));
  PetscCall(PetscFree(work));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}
