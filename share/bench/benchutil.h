/*
   What the benchmark programs of share/bench share (merged.c, mrhs.c): their problem, the choice of methods (-methods),
   the STREAM triad measured on the ranks of the run, the median, one SpMV timed alone, and the CSV files they append to.
   Include it in one source file of a program (the makefile puts share/problems/ on the include path, for stencil.h).
*/
#pragma once

#include <petscdmda.h>

#include "stencil.h" /* share/problems/stencil.h: the DMDA and the operators of the tests */

#define STREAM_MIN  4194304 /* doubles per rank and array in the triad at least (32 MiB) */
#define STREAM_REPS 10

/* The 7-point Laplacian on n^3 points of a DMDA, Dirichlet boundary eliminated; b = 1 and x of its layout; its nonzeros */
static inline PetscErrorCode BenchLaplacian(MPI_Comm comm, PetscInt n, DM *da, Mat *A, Vec *b, Vec *x, PetscReal *nnz)
{
  MatInfo info;

  PetscFunctionBegin;
  PetscCall(StencilCreateDMDA(comm, 3, n, DM_BOUNDARY_NONE, da));
  PetscCall(DMSetUp(*da));
  PetscCall(DMCreateMatrix(*da, A));
  PetscCall(AssembleStencilOperator(*da, STENCIL_POISSON, 0.0, *A));
  PetscCall(DMCreateGlobalVector(*da, b));
  PetscCall(VecDuplicate(*b, x));
  PetscCall(VecSet(*b, 1.0));
  PetscCall(MatGetInfo(*A, MAT_GLOBAL_SUM, &info));
  *nnz = (PetscReal)info.nz_used;
  PetscFunctionReturn(0);
}

/* -help: the options were printed by the options block just read; a benchmark then stops instead of running (some run
   for many minutes and allocate gigabytes) */
static inline PetscErrorCode BenchHelpOnly(PetscBool *help)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsHasHelp(NULL, help));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define BENCH_MAX_METHODS 16

/* Inside the program's PetscOptionsBegin()/End(): -methods a,b,... among the nmethods name[] of its table; selected[k] for
   each method named, for every method when the option is not given (*given false) */
static inline PetscErrorCode BenchOptionsMethods(CAKrylovOptionItems PetscOptionsObject, PetscInt nmethods, const char *const name[], PetscBool selected[], PetscBool *given)
{
  char    *list[BENCH_MAX_METHODS];
  PetscInt nlist = BENCH_MAX_METHODS;

  PetscFunctionBegin;
  PetscCheck(nmethods <= BENCH_MAX_METHODS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "At most %d methods", BENCH_MAX_METHODS);
  PetscCall(PetscOptionsStringArray("-methods", "Comma-separated methods to run", NULL, list, &nlist, given));
  for (PetscInt k = 0; k < nmethods; k++) selected[k] = *given ? PETSC_FALSE : PETSC_TRUE;
  for (PetscInt i = 0; i < (*given ? nlist : 0); i++) {
    PetscBool found = PETSC_FALSE;

    for (PetscInt k = 0; k < nmethods && !found; k++) {
      PetscCall(PetscStrcmp(list[i], name[k], &found));
      if (found) selected[k] = PETSC_TRUE;
    }
    PetscCheck(found, PetscOptionsObject->comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown method %s in -methods", list[i]);
    PetscCall(PetscFree(list[i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Opens file name for appending on rank 0 (*fp NULL on the other ranks), with the header line when the file is new or empty */
static inline PetscErrorCode OpenCSV(MPI_Comm comm, const char *name, const char *header, FILE **fp)
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  *fp = NULL;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank) PetscFunctionReturn(0);
  *fp = fopen(name, "a");
  PetscCheck(*fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s", name);
  fseek(*fp, 0, SEEK_END);
  if (ftell(*fp) == 0) fprintf(*fp, "%s\n", header);
  PetscFunctionReturn(0);
}

static inline void Triad(PetscInt m, double *PETSC_RESTRICT a, const double *PETSC_RESTRICT b, const double *PETSC_RESTRICT c)
{
  for (PetscInt i = 0; i < m; i++) a[i] = b[i] + 3.0 * c[i];
}

/* STREAM triad on all ranks at once: best of STREAM_REPS of the slowest rank's time, 3 * 8 bytes per element */
static inline PetscErrorCode StreamTriad(MPI_Comm comm, PetscInt nlocal, PetscInt *mlocal, double *gbs)
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
static inline PetscErrorCode Median(PetscInt n, PetscReal v[], PetscReal *median)
{
  PetscFunctionBegin;
  PetscCall(PetscSortReal(n, v));
  *median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  PetscFunctionReturn(0);
}

/* One operator application alone, median of 10 after a warm-up, slowest rank: MatMult(A, x, y), or with x NULL
   MatProductNumeric(A) (A the product matrix, e.g. AIJ x dense with its symbolic phase done) */
static inline PetscErrorCode TimedSpMV(Mat A, Vec x, Vec y, PetscReal *time)
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)A);
  PetscReal t[11];

  PetscFunctionBegin;
  for (PetscInt i = 0; i < 11; i++) { /* the first: the warm-up */
    double t0, tl, tmax;

    PetscCallMPI(MPI_Barrier(comm));
    t0 = MPI_Wtime();
    if (x) PetscCall(MatMult(A, x, y));
    else PetscCall(MatProductNumeric(A));
    tl = MPI_Wtime() - t0;
    PetscCallMPI(MPI_Allreduce(&tl, &tmax, 1, MPI_DOUBLE, MPI_MAX, comm));
    t[i] = tmax;
  }
  PetscCall(Median(10, t + 1, time));
  PetscFunctionReturn(0);
}
