static char help[] = "Benchmark of the merged BiCGStab types: time per iteration of KSPBCGSM and KSPRBICGSTAB against PETSc's KSPBCGS\n\
and of KSPPIPEBCGSM against PETSc's KSPPIPEBCGS on the 7-point 3D Laplacian (Dirichlet boundary eliminated), with the bytes each\n\
iteration moves and the bandwidth that achieves, next to the STREAM triad bandwidth of the same ranks.\n\
  -n <200>             : grid points per direction (N = n^3 unknowns)\n\
  -pc_type <none|jacobi|synthetic> : preconditioner of every KSP (synthetic: the identity at -pc_synthetic_complexity <alpha>\n\
                        vector reads+writes per application, default 20; Krasnopolsky section 4)\n\
  -its <40>            : iterations per solve (every solve runs exactly this many)\n\
  -runs <5>            : timed rounds (each round solves once with every KSP, in a rotated order)\n\
  Every KSP also reads the options database (KSPSetFromOptions()), e.g. -ksp_rbicgstab_progress test.\n\n";

#include <cakrylov.h>
#include <petscdmda.h>

#define NMETHODS    5
#define STREAM_MIN  4194304 /* doubles per rank and array in the triad at least (32 MiB) */
#define STREAM_REPS 10

typedef struct {
  const char *name;
  KSPType     type;
  PetscBool   right;      /* right preconditioning (pipelined types); left otherwise, the default */
  PetscInt    native;     /* index of the PETSc type it is compared with, -1 for PETSc's types */
  PetscBool   ours;       /* the library's types skip the identity PC; PETSc's copy the vector */
  PetscInt    vec[2];     /* vector reads+writes per iteration (8 N bytes each) with PC none, with a PC (jacobi, synthetic) */
} Method;

/* Vector counts: the library's types as their manual pages state them; PETSc's types counted by us from PETSc 3.18's
   source (bcgs: VecDot 2 + VecAXPBYPCZ 4 + VecDot 2 + VecWAXPY 3 + VecDotNorm2 2 + VecAXPBYPCZ 4 + VecWAXPY 3 + VecNorm 1;
   pipebcgs: 56 without its two identity-PC copies, 60 with them). The PC applications are counted separately. */
static const Method methods[NMETHODS] = {
  {"bcgs",      KSPBCGS,      PETSC_FALSE, -1, PETSC_FALSE, {21, 21}},
  {"bcgsm",     KSPBCGSM,     PETSC_FALSE, 0,  PETSC_TRUE,  {18, 18}},
  {"pipebcgs",  KSPPIPEBCGS,  PETSC_TRUE,  -1, PETSC_FALSE, {56, 56}},
  {"pipebcgsm", KSPPIPEBCGSM, PETSC_TRUE,  2,  PETSC_TRUE,  {25, 34}},
  {"rbicgstab", KSPRBICGSTAB, PETSC_TRUE,  0,  PETSC_TRUE,  {16, 21}},
};

static const char *const PCTypes[] = {"none", "jacobi", "synthetic"};
static const char *const Sides[]   = {"left", "right", "symmetric"};

/* The 7-point Laplacian on the DMDA, neighbours outside the grid dropped (as tests/ex2.c's poisson) */
static PetscErrorCode AssembleLaplacian(DM da, Mat A)
{
  PetscInt    xs, ys, zs, xm, ym, zm, M, N, P;
  MatStencil  row, col[7];
  PetscScalar v[7];

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, NULL, &M, &N, &P, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  for (PetscInt k = zs; k < zs + zm; k++) {
    for (PetscInt j = ys; j < ys + ym; j++) {
      for (PetscInt i = xs; i < xs + xm; i++) {
        const PetscInt idx[3] = {i, j, k}, size[3] = {M, N, P};
        PetscInt       nc     = 1;

        row.i  = i;
        row.j  = j;
        row.k  = k;
        col[0] = row;
        v[0]   = 6.0;
        for (PetscInt d = 0; d < 3; d++) {
          for (PetscInt side = -1; side <= 1; side += 2) {
            if (idx[d] + side < 0 || idx[d] + side >= size[d]) continue;
            col[nc] = row;
            if (d == 0) col[nc].i += side;
            if (d == 1) col[nc].j += side;
            if (d == 2) col[nc].k += side;
            v[nc++] = -1.0;
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

static void Triad(PetscInt m, double *PETSC_RESTRICT a, const double *PETSC_RESTRICT b, const double *PETSC_RESTRICT c)
{
  for (PetscInt i = 0; i < m; i++) a[i] = b[i] + 3.0 * c[i];
}

/* STREAM triad on all ranks at once: best of STREAM_REPS of the slowest rank's time, 3 * 8 bytes per element */
static PetscErrorCode StreamTriad(MPI_Comm comm, PetscInt nlocal, PetscInt *mlocal, double *gbs)
{
  const PetscInt m = PetscMax(nlocal, STREAM_MIN);
  double        *a, *b, *c, best = PETSC_MAX_REAL, mtotal, mm = (double)m;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(m, &a, m, &b, m, &c));
  for (PetscInt i = 0; i < m; i++) { /* first touch */
    a[i] = 0.0;
    b[i] = 1.0;
    c[i] = 2.0;
  }
  for (PetscInt rep = 0; rep < STREAM_REPS; rep++) {
    double t0, t, tmax;

    PetscCallMPI(MPI_Barrier(comm));
    t0 = MPI_Wtime();
    Triad(m, a, b, c);
    t = MPI_Wtime() - t0;
    PetscCallMPI(MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, comm));
    best = PetscMin(best, tmax);
  }
  PetscCheck(a[0] == 7.0 && a[m - 1] == 7.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "STREAM triad computed a wrong result");
  PetscCall(PetscFree3(a, b, c));
  PetscCallMPI(MPI_Allreduce(&mm, &mtotal, 1, MPI_DOUBLE, MPI_SUM, comm));
  *mlocal = m;
  *gbs    = 3.0 * 8.0 * mtotal / best / 1e9;
  PetscFunctionReturn(0);
}

/* Median of v[0..n) (v is reordered) */
static PetscErrorCode Median(PetscInt n, PetscReal v[], PetscReal *median)
{
  PetscFunctionBegin;
  PetscCall(PetscSortReal(n, v));
  *median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  PetscFunctionReturn(0);
}

/* One solve from x = 0, timed from a barrier; the time is the slowest rank's. Checks that exactly its iterations ran. */
static PetscErrorCode TimedSolve(KSP ksp, const char *name, PetscInt its, Vec b, Vec x, PetscReal *time)
{
  MPI_Comm           comm = PetscObjectComm((PetscObject)ksp);
  double             t0, t, tmax;
  PetscInt           done;
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Barrier(comm));
  t0 = MPI_Wtime();
  PetscCall(KSPSolve(ksp, b, x));
  t = MPI_Wtime() - t0;
  PetscCallMPI(MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, comm));
  PetscCall(KSPGetIterationNumber(ksp, &done));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCheck(done == its && reason == KSP_DIVERGED_ITS, comm, PETSC_ERR_NOT_CONVERGED, "%s ran %" PetscInt_FMT " iterations (%s) instead of exactly %" PetscInt_FMT, name, done, KSPConvergedReasons[reason], its);
  *time = tmax;
  PetscFunctionReturn(0);
}

/* One MatMult alone, median of 10 after a warm-up, slowest rank: the part of every method's iteration the library does not change */
static PetscErrorCode TimedMatMult(Mat A, Vec x, Vec y, PetscReal *time)
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)A);
  PetscReal t[10];

  PetscFunctionBegin;
  PetscCall(MatMult(A, x, y));
  for (PetscInt i = 0; i < 10; i++) {
    double t0, tl, tmax;

    PetscCallMPI(MPI_Barrier(comm));
    t0 = MPI_Wtime();
    PetscCall(MatMult(A, x, y));
    tl = MPI_Wtime() - t0;
    PetscCallMPI(MPI_Allreduce(&tl, &tmax, 1, MPI_DOUBLE, MPI_MAX, comm));
    t[i] = tmax;
  }
  PetscCall(Median(10, t, time));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  MPI_Comm       comm;
  PetscMPIInt    size;
  DM             da;
  Mat            A;
  Vec            b, x;
  KSP            ksp[NMETHODS];
  PetscInt       n = 200, its = 40, runs = 5, pc = 0, alpha = 20, N, mstream = 0;
  PetscReal     *t[NMETHODS], *work, triad, nnz, spmv, pcbytes, bytes, med, ratio, tspmv;
  double         gbs = 0.0;
  MatInfo        info;
  PCSide         side[NMETHODS];
  const PCType   pctypes[] = {PCNONE, PCJACOBI, PCSYNTHETIC};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(CAKrylovInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscOptionsBegin(comm, NULL, "Merged BiCGStab benchmark", NULL);
  PetscCall(PetscOptionsInt("-n", "Grid points per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsEList("-pc_type", "Preconditioner of every KSP", NULL, PCTypes, 3, PCTypes[pc], &pc, NULL));
  PetscCall(PetscOptionsInt("-pc_synthetic_complexity", "Vector reads+writes of one synthetic PC application", NULL, alpha, &alpha, NULL));
  PetscCall(PetscOptionsInt("-its", "Iterations per solve", NULL, its, &its, NULL));
  PetscCall(PetscOptionsInt("-runs", "Timed rounds", NULL, runs, &runs, NULL));
  PetscOptionsEnd();
  PetscCheck(n >= 2, comm, PETSC_ERR_ARG_OUTOFRANGE, "-n %" PetscInt_FMT " must be >= 2", n);
  PetscCheck(its >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-its %" PetscInt_FMT " must be >= 1", its);
  PetscCheck(runs >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-runs %" PetscInt_FMT " must be >= 1", runs);

  PetscCall(DMDACreate3d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(AssembleLaplacian(da, A));
  PetscCall(DMCreateGlobalVector(da, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecSet(b, 1.0));
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &info));
  nnz = (PetscReal)info.nz_used;

  /* STREAM triad before the solves, on the same ranks */
  {
    PetscInt nlocal;

    PetscCall(VecGetLocalSize(b, &nlocal));
    PetscCall(StreamTriad(comm, nlocal, &mstream, &gbs));
    triad = (PetscReal)gbs;
  }
  PetscCall(TimedMatMult(A, b, x, &tspmv));

  for (PetscInt m = 0; m < NMETHODS; m++) {
    PC kpc;

    PetscCall(KSPCreate(comm, &ksp[m]));
    PetscCall(KSPSetOperators(ksp[m], A, A));
    PetscCall(KSPSetType(ksp[m], methods[m].type));
    if (methods[m].right) PetscCall(KSPSetPCSide(ksp[m], PC_RIGHT));
    PetscCall(KSPGetPC(ksp[m], &kpc));
    PetscCall(PCSetType(kpc, pctypes[pc]));
    if (pc == 2) PetscCall(PCSyntheticSetComplexity(kpc, alpha));
    PetscCall(KSPSetTolerances(ksp[m], 1e-30, 0.0, PETSC_DEFAULT, its));
    PetscCall(KSPSetFromOptions(ksp[m])); /* the types' own options, e.g. -ksp_rbicgstab_progress test */
    PetscCall(KSPSetUp(ksp[m]));
    PetscCall(KSPGetPCSide(ksp[m], &side[m]));
    PetscCall(PetscMalloc1(runs, &t[m]));
  }
  PetscCall(PetscMalloc1(runs, &work));

  for (PetscInt m = 0; m < NMETHODS; m++) { /* warm-up */
    PetscReal time;

    PetscCall(TimedSolve(ksp[m], methods[m].name, its, b, x, &time));
  }
  for (PetscInt r = 0; r < runs; r++) {
    for (PetscInt j = 0; j < NMETHODS; j++) {
      const PetscInt m = (r + j) % NMETHODS;

      PetscCall(TimedSolve(ksp[m], methods[m].name, its, b, x, &t[m][r]));
      t[m][r] /= its;
    }
  }

  PetscCall(PetscPrintf(comm, "Merged BiCGStab benchmark (cakrylov %s): %d MPI rank%s, n = %" PetscInt_FMT ", N = %" PetscInt_FMT ", nnz = %.0f, PC %s%s, %" PetscInt_FMT " iterations per solve, %" PetscInt_FMT " round%s\n", CAKRYLOV_VERSION_STRING, size, size > 1 ? "s" : "", n, N, (double)nnz, PCTypes[pc], pc == 2 ? " (alpha as below)" : "", its, runs, runs > 1 ? "s" : ""));
  PetscCall(PetscPrintf(comm, "STREAM triad (a = b + 3 c, %" PetscInt_FMT " doubles per array on rank 0, all ranks at once, best of %d): %.2f GB/s\n\n", mstream, STREAM_REPS, (double)triad));
  spmv = 12.0 * nnz + 4.0 * (N + 1) + 16.0 * N;
  PetscCall(PetscPrintf(comm, "SpMV alone (PETSc MatMult, AIJ, median of 10): %.3f ms, %.2f GB/s = %.1f%% of triad\n\n", (double)(1e3 * tspmv), (double)(spmv / tspmv / 1e9), (double)(100.0 * spmv / tspmv / 1e9 / triad)));
  PetscCall(PetscPrintf(comm, "                   time per iteration [ms]                      bytes per iteration                          without the 2 SpMVs\n"));
  PetscCall(PetscPrintf(comm, "method     side     median      min      max  ratio (to)        vecs  2 PC apps      MB     GB/s  of triad      GB/s  of triad\n"));
  PetscCall(PetscPrintf(comm, "---------  -----  --------  -------  -------  ----------------  ----  ---------  ------  -------  --------  --------  --------\n"));
  for (PetscInt m = 0; m < NMETHODS; m++) {
    const char *pcname;
    char        ratiostr[32] = "-";
    PetscReal   tmin = PETSC_MAX_REAL, tmax = 0.0;

    if (pc == 1) {
      pcbytes = 24.0 * N;
      pcname  = "jacobi";
    } else if (pc == 2) {
      pcbytes = 8.0 * N * alpha;
      pcname  = "synthetic";
    } else if (methods[m].ours) {
      pcbytes = 0.0;
      pcname  = "skipped";
    } else {
      pcbytes = 16.0 * N;
      pcname  = "copies";
    }
    bytes = 2.0 * spmv + 2.0 * pcbytes + 8.0 * N * methods[m].vec[pc ? 1 : 0];
    for (PetscInt r = 0; r < runs; r++) {
      tmin    = PetscMin(tmin, t[m][r]);
      tmax    = PetscMax(tmax, t[m][r]);
      work[r] = t[m][r];
    }
    PetscCall(Median(runs, work, &med));
    if (methods[m].native >= 0) {
      for (PetscInt r = 0; r < runs; r++) work[r] = t[m][r] / t[methods[m].native][r];
      PetscCall(Median(runs, work, &ratio));
      PetscCall(PetscSNPrintf(ratiostr, sizeof(ratiostr), "%.3f (%s)", (double)ratio, methods[methods[m].native].name));
    }
    PetscCall(PetscPrintf(comm, "%-9s  %-5s  %8.3f  %7.3f  %7.3f  %-16s  %4" PetscInt_FMT "  %-9s  %6.1f  %7.2f  %7.1f%%  %8.2f  %7.1f%%\n", methods[m].name, Sides[side[m]], (double)(1e3 * med), (double)(1e3 * tmin), (double)(1e3 * tmax), ratiostr, methods[m].vec[pc ? 1 : 0], pcname,
                          (double)(bytes / 1e6), (double)(bytes / med / 1e9), (double)(100.0 * bytes / med / 1e9 / triad), (double)((bytes - 2.0 * spmv) / (med - 2.0 * tspmv) / 1e9), (double)(100.0 * (bytes - 2.0 * spmv) / (med - 2.0 * tspmv) / 1e9 / triad)));
  }
  PetscCall(PetscPrintf(comm, "\nmedian, min, max over the rounds; ratio: median over the rounds of the time relative to the PETSc type in the same round.\n"));
  if (pc == 2) PetscCall(PetscPrintf(comm, "PC synthetic: alpha = %" PetscInt_FMT " vector reads+writes per application\n", alpha));
  PetscCall(PetscPrintf(comm, "bytes per iteration = 2 SpMV (12 nnz + 4 (N+1) + 16 N each) + 2 PC applications (jacobi: 24 N each; synthetic: 8 alpha N; PC none: PETSc's types copy\n"));
  PetscCall(PetscPrintf(comm, "  the vector, 16 N each, the library's skip the identity) + vecs x 8 N (vector reads+writes of the Krylov method itself).\n"));
  PetscCall(PetscPrintf(comm, "rbicgstab: a solve of its iterations also makes one more SpMV and PC application (the lagged norm), included in the time.\n"));
  PetscCall(PetscPrintf(comm, "vecs of bcgsm, pipebcgsm and rbicgstab are what their manual pages state; those of bcgs (21) and pipebcgs (56; 60 with its two copies)\n"));
  PetscCall(PetscPrintf(comm, "  are our count from PETSc 3.18's source. GB/s = bytes per iteration / median time per iteration; without the 2 SpMVs: the\n"));
  PetscCall(PetscPrintf(comm, "  same with the bytes and the time (measured alone, above) of the two SpMVs taken out: the vector operations and the PC.\n\n"));

  for (PetscInt m = 0; m < NMETHODS; m++) {
    PetscCall(KSPDestroy(&ksp[m]));
    PetscCall(PetscFree(t[m]));
  }
  PetscCall(PetscFree(work));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}
