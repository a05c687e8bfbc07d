/*
   KSPAUTOBCGS: the BiCGStab variant of this library, and its s and basis, chosen at setup from this machine's measured
   costs. Measure, then model, then choose, once per operator (its pattern, type and sizes, the PC side and type: see
   KSPAutoBCGSKey), never per solve:

     measure   on the KSP's communicator with its operator and preconditioner: one PCApply(), one MatMult(), a vector
               pass of 4 vectors and a fused one of 9 (pipebcgsm's width), cabicgstab's local GEMMs (Gram matrix,
               rebuild) on a sample of rows, a reduction of 8 bytes (3 times, the first non-blocking) and of s = 4's
               Gram matrix (twice where reductions cost microseconds, and there also 8 bytes three times more, twice
               non-blocking; other sizes by the power law through the two), and whether an MPI_Iallreduce() progresses
               while the rank computes (gamma, Krasnopolsky eq. (9));
               every time the maximum over the ranks (one reduction)
     model     each type's time per iteration, written beside its code (KSPBCGSMTimePerIteration(), ...), from these
               costs; with -ksp_autobcgs_model krasnopolsky the reduction times are eqs. (10)-(11) at p nodes instead
     choose    the smallest prediction; then the KSP *is* that solver: the chosen type's constructor runs on this KSP,
               so its iterates, monitors, reasons, counts and KSPMatSolve() are those of the type chosen by hand.
               The KSP keeps the type name autobcgs; setup, view, reset, destroy and options pass through this file.

   The state of the choice lives in a container composed on the KSP ("KSPAutoBCGS"): ksp->data belongs to the chosen
   type.
*/
#include <cakrylov/private/cakrylovimpl.h>
#include <petsc/private/kspimpl.h>
#include <petsc/private/pcimpl.h>
#include <petscblaslapack.h>

#define AUTOBCGS_NTYPES       4
#define AUTOBCGS_NS           7
#define AUTOBCGS_NCAND        (AUTOBCGS_NTYPES - 1 + AUTOBCGS_NS)
#define AUTOBCGS_GEMM_ROWS    1024  /* rows of the GEMM sample: a block of 280 kB at s = 8, beyond L1 as a solve's is */
#define AUTOBCGS_POOL         6     /* vectors of the measurement's working set (3 per round, in turn; freed before the chosen type allocates its own) */
#define AUTOBCGS_WIDE_STREAMS 9     /* vectors read and written by KSPAutoBCGSWidePass() */
#define AUTOBCGS_CHEAP_RED    20e-6 /* s: an 8-byte reduction under this on every rank: the Gram matrix timed twice */

static const char *const AutoTypes[AUTOBCGS_NTYPES] = {KSPBCGSM, KSPRBICGSTAB, KSPPIPEBCGSM, KSPCABICGSTAB};
static const PetscInt    AutoS[AUTOBCGS_NS]         = {2, 4, 6, 8, 10, 12, 16};

/* What a choice depends on besides the options: the operators (which objects, their nonzero states; their types, sizes
   and local nonzeros), the side and the preconditioner's type */
typedef struct {
  PetscObjectId    id[2];
  PetscObjectState nz[2];
} KSPAutoBCGSKeyObjects;

typedef struct {
  KSPAutoBCGSKeyObjects obj;
  char                  mattype[2][32], pctype[32];
  PetscInt              size[2][4]; /* M, N, m, n */
  PetscLogDouble        nnz[2];     /* local nonzeros (-1: the type gives none) */
  PCSide                side;
} KSPAutoBCGSKey;

static PetscErrorCode KSPAutoBCGSGetKey(KSP ksp, KSPAutoBCGSKey *key)
{
  Mat    M[2];
  PCType type;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(key, sizeof(*key)));
  PetscCall(PCGetOperators(ksp->pc, &M[0], &M[1]));
  for (PetscInt i = 0; i < 2; i++) {
    MatType   mtype;
    PetscBool has;

    PetscCall(PetscObjectGetId((PetscObject)M[i], &key->obj.id[i]));
    PetscCall(MatGetNonzeroState(M[i], &key->obj.nz[i]));
    PetscCall(MatGetType(M[i], &mtype));
    PetscCall(PetscStrncpy(key->mattype[i], mtype ? mtype : "", sizeof(key->mattype[i])));
    PetscCall(MatGetSize(M[i], &key->size[i][0], &key->size[i][1]));
    PetscCall(MatGetLocalSize(M[i], &key->size[i][2], &key->size[i][3]));
    PetscCall(MatHasOperation(M[i], MATOP_GETINFO, &has));
    key->nnz[i] = -1;
    if (has) {
      MatInfo info;

      PetscCall(MatGetInfo(M[i], MAT_LOCAL, &info));
      key->nnz[i] = info.nz_used;
    }
  }
  PetscCall(PCGetType(ksp->pc, &type));
  PetscCall(PetscStrncpy(key->pctype, type ? type : "", sizeof(key->pctype)));
  key->side = ksp->pc_side;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the costs measured for key a hold for key b: the same key, or other operator objects (or a new nonzero state)
   of the same types, sizes and nonzeros on every rank (a new Mat for the same problem, as PCMG's Galerkin product makes:
   one reduction, only then), with the same side and PC type */
static PetscErrorCode KSPAutoBCGSKeyHolds(MPI_Comm comm, const KSPAutoBCGSKey *a, const KSPAutoBCGSKey *b, PetscBool *holds)
{
  PetscBool same, alike;

  PetscFunctionBegin;
  PetscCall(PetscMemcmp(a, b, sizeof(*a), &same));
  if (same) {
    *holds = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMemcmp((const char *)a + sizeof(a->obj), (const char *)b + sizeof(b->obj), sizeof(*a) - sizeof(a->obj), &alike));
  alike = alike && a->nnz[0] >= 0 && a->nnz[1] >= 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(MPIU_Allreduce(&alike, holds, 1, CAKRYLOV_MPI_BOOL, MPI_LAND, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  /* options */
  PetscBool      use[AUTOBCGS_NTYPES]; /* -ksp_autobcgs_candidates */
  PetscInt       smax;                 /* -ksp_autobcgs_s_max */
  PetscBool      model;                /* -ksp_autobcgs_model krasnopolsky */
  PetscReal      nodes, C[4];          /* its p and C0, C1, n0, n1 (eq. (11): Lomonosov) */
  PetscReal      gamma;                /* -ksp_autobcgs_gamma (< 0: measured) */
  PetscReal      lmin, lmax;           /* KSPAutoBCGSSetSpectrum(): the Chebyshev candidates' interval (lmax <= lmin: estimated) */
  PetscReal      est_its;              /* -ksp_autobcgs_iterations: per solve (telescoping) and per operator (a spectrum estimate) */
  PetscBool      untelescoped;         /* this file turned the chosen cabicgstab's telescoping off (a given interval) */
  PetscBool      view, fromoptions;    /* -ksp_autobcgs_view; KSPSetFromOptions() was called */
  char           bad[256];             /* a bad option value, reported at KSPSetUp() (an error inside the options block would leak PETSc's) */
  PetscErrorCode bad_code;
  /* the measurement and the predictions */
  CAKrylovCosts     costs;
  PetscReal         setup_time;
  PetscBool         red_kept; /* the reduction times were those an earlier KSPAUTOBCGS measured on this communicator */
  PetscInt          n, chosen, nchoices;
  KSPAutoBCGSChoice cand[AUTOBCGS_NCAND];
  /* the chosen type on this KSP, and what it was chosen for */
  PetscBool      active, newmatrix; /* the chosen type's setupnewmatrix */
  PetscBool      unset;             /* chosen again (KSPAutoBCGSPredictAgain()) with new operators not set up yet */
  struct _KSPOps ops;               /* the chosen type's operations */
  KSPAutoBCGSKey key;
} KSP_AutoBCGS;

static PetscErrorCode KSPAutoBCGSGet(KSP ksp, KSP_AutoBCGS **a)
{
  PetscContainer container;

  PetscFunctionBegin;
  *a = NULL;
  PetscCall(PetscObjectQuery((PetscObject)ksp, "KSPAutoBCGS", (PetscObject *)&container));
  if (container) PetscCall(PetscContainerGetPointer(container, (void **)a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* T_G of one reduction of `bytes`: Krasnopolsky eq. (10) at p nodes, or the power law through the two sizes measured,
   T(l) = T(l0) (l / l0)^e (eq. (10)'s form, whose size term dominates at scale), not below T(l0) */
PetscReal CAKrylovCostsReduction(const CAKrylovCosts *c, PetscReal bytes)
{
  const PetscReal *l = c->red_bytes, *t = c->red;

  if (c->nodes > 0) return c->C[0] + c->C[1] * PetscPowReal(bytes, c->C[2]) * PetscPowReal(c->nodes, c->C[3]);
  if (bytes <= l[0] || !(c->red_exp > 0)) return PetscMax(t[0], bytes <= l[0] ? 0 : t[1]);
  return t[0] * PetscPowReal(bytes / l[0], c->red_exp);
}

/* A non-blocking reduction of `bytes` in flight while `work` seconds of computation run: eq. (12),
   max(work + gamma T_G, T_G), plus what the non-blocking path costs beyond a blocking reduction where that was measured
   (red_nb: reductions of microseconds): its schedule runs in the rank's own MPI calls, which no computation hides. On a
   2-rank VM with OpenMPI 4.1 an 8-byte MPI_Iallreduce() and its wait took 0.6-0.8 us against 0.3 us for
   MPI_Allreduce(): 2 x 0.4 us per rbicgstab iteration of 8 us in a coarse-grid solve, which the model had not seen */
static PetscReal KSPAutoBCGSNonblockingExcess(const CAKrylovCosts *c)
{
  return PetscMax(c->red_nb - c->red[0], 0);
}

PetscReal CAKrylovCostsOverlap(const CAKrylovCosts *c, PetscReal work, PetscReal bytes)
{
  const PetscReal T = CAKrylovCostsReduction(c, bytes);

  return PetscMax(work + c->gamma * T, T) + KSPAutoBCGSNonblockingExcess(c);
}

/* The reduction times measured on a communicator, kept on it as an MPI attribute for the next KSPAUTOBCGS there: what a
   reduction costs is the communicator's and the machine's, not the operator's, so a program that makes many KSPs (a new
   one per solve, several fields, a new choice for a new operator) times them once; gamma, the overlap during this
   operator's SpMV, is measured by each. The values are the maximum over the ranks, the same on all of them. */
typedef struct {
  PetscReal red[CAKRYLOV_COSTS_NRED], red_nb;
} KSPAutoBCGSCommCosts;

static PetscMPIInt AutoBCGSCommKeyval = MPI_KEYVAL_INVALID;

static PetscMPIInt MPIAPI KSPAutoBCGSCommCostsDelete(MPI_Comm comm, PetscMPIInt keyval, void *attr, void *extra)
{
  (void)comm, (void)keyval, (void)extra;
  return PetscFree(attr) ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static PetscErrorCode KSPAutoBCGSCommKeyvalFree(void)
{
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_free_keyval(&AutoBCGSCommKeyval));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The reduction times kept on comm, or NULL */
static PetscErrorCode KSPAutoBCGSCommCostsGet(MPI_Comm comm, KSPAutoBCGSCommCosts **kept)
{
  PetscMPIInt found;

  PetscFunctionBegin;
  *kept = NULL;
  if (AutoBCGSCommKeyval == MPI_KEYVAL_INVALID) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_get_attr(comm, AutoBCGSCommKeyval, kept, &found));
  if (!found) *kept = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPAutoBCGSCommCostsKeep(MPI_Comm comm, const PetscReal red[], PetscReal red_nb)
{
  KSPAutoBCGSCommCosts *kept;

  PetscFunctionBegin;
  if (AutoBCGSCommKeyval == MPI_KEYVAL_INVALID) {
    PetscCallMPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, KSPAutoBCGSCommCostsDelete, &AutoBCGSCommKeyval, NULL));
    PetscCall(PetscRegisterFinalize(KSPAutoBCGSCommKeyvalFree));
  }
  PetscCall(PetscNew(&kept));
  PetscCall(PetscArraycpy(kept->red, red, CAKRYLOV_COSTS_NRED));
  kept->red_nb = red_nb;
  PetscCallMPI(MPI_Comm_set_attr(comm, AutoBCGSCommKeyval, kept));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The smallest of `reps` timings of `call`, after one untimed call if `warm` (the first use of an operation) */
#define AUTOBCGS_TIME(best, call, warm, reps) \
  do { \
    PetscLogDouble t0_, t1_; \
    if (warm) PetscCall(call); \
    best = PETSC_MAX_REAL; \
    for (PetscInt r_ = 0; r_ < (reps); r_++) { \
      PetscCall(PetscTime(&t0_)); \
      PetscCall(call); \
      PetscCall(PetscTime(&t1_)); \
      best = PetscMin(best, (PetscReal)(t1_ - t0_)); \
    } \
  } while (0)

static PetscErrorCode KSPAutoBCGSAllreduce(MPI_Comm comm, PetscScalar *buf, PetscInt count)
{
  PetscMPIInt n;

  PetscFunctionBegin;
  PetscCall(PetscMPIIntCast(count, &n));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, buf, n, MPIU_SCALAR, MPIU_SUM, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An 8-byte MPI_Iallreduce() on buf[0] and its wait, back to back */
static PetscErrorCode KSPAutoBCGSIallreduceWait(MPI_Comm comm, PetscScalar *buf)
{
  MPI_Request req;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Iallreduce(MPI_IN_PLACE, buf, 1, MPIU_SCALAR, MPIU_SUM, comm, &req));
  PetscCallMPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* W = V C, m x 3 from V m x k: KSPCABiCGStabCombine()'s shape */
static PetscErrorCode KSPAutoBCGSCombineSample(PetscBLASInt m, PetscBLASInt k, const PetscScalar *V, const PetscScalar *C, PetscScalar *W)
{
  const PetscScalar one = 1.0, zero = 0.0;
  PetscBLASInt      n = 3;

  PetscFunctionBegin;
  PetscCallBLAS("BLASgemm", BLASgemm_("N", "N", &m, &n, &k, &one, V, &m, C, &k, &zero, W, &m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The rates of cabicgstab's two GEMMs on its bases, as flop/s of what the model charges, on a sample of
   min(n, AUTOBCGS_GEMM_ROWS) rows, each the best of two timings, after a warm-up in the process's first measurement:
   the Gram matrix [P, R]^T [rt, P, R] (CAKrylovGram(), nb + 1 = 4 s + 2 columns) and the rebuild [p, r, dx] =
   [P, R] [a, c, e] (KSPCABiCGStabCombine(): 3 columns). A sample of 256 rows (70 kB, in cache) ran the Gram matrix
   1.8-2.7x faster than a solve's Gram matrices at s = 8 (Intel Xeon, 2 ranks, with OpenBLAS's DGEMM then); 1024 rows
   measured the solve's rate. The rates of a sample (rows, s) are the machine's, not the operator's: measured once per
   process and kept (as the reduction times are kept per communicator), a tenth of a later measurement's time */
static PetscErrorCode KSPAutoBCGSMeasureGemm(PetscInt nloc, PetscInt s, PetscReal *rate, PetscReal *combine_rate)
{
  const PetscInt   rows = PetscMin(nloc, AUTOBCGS_GEMM_ROWS), nb = 4 * s + 1, k = nb + 1;
  static PetscBool warmed    = PETSC_FALSE;
  static PetscInt  kept_rows = -1, kept_s = -1;
  static PetscReal kept_rate, kept_combine;
  PetscScalar     *V, *S, *C, *W;
  PetscBLASInt     m, kb;
  PetscReal        t, tc;

  PetscFunctionBegin;
  *rate = *combine_rate = PETSC_MAX_REAL;
  if (!rows) PetscFunctionReturn(PETSC_SUCCESS);
  if (rows == kept_rows && s == kept_s) {
    *rate         = kept_rate;
    *combine_rate = kept_combine;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscBLASIntCast(rows, &m));
  PetscCall(PetscBLASIntCast(nb, &kb));
  PetscCall(PetscMalloc4((size_t)rows * k, &V, k * k + CAKrylovGramWorkSize(k), &S, 3 * nb, &C, (size_t)rows * 3, &W));
  for (PetscInt i = 0; i < rows * k; i++) V[i] = 1.0 + 0.125 * (i & 7); /* normal numbers, no division */
  for (PetscInt i = 0; i < 3 * nb; i++) C[i] = 0.5;
  AUTOBCGS_TIME(t, CAKrylovGram(rows, k, V, rows, S + k * k, S), !warmed, 2); /* the best of 2: it is kept */
  AUTOBCGS_TIME(tc, KSPAutoBCGSCombineSample(m, kb, V + rows, C, W), !warmed, 2);
  warmed        = PETSC_TRUE;
  *rate         = 2.0 * rows * nb * (nb + 1) / PetscMax(t, 1e-9);
  *combine_rate = 2.0 * rows * nb * 3 / PetscMax(tc, 1e-9);
  kept_rows     = rows;
  kept_s        = s;
  kept_rate     = *rate;
  kept_combine  = *combine_rate;
  PetscCall(PetscFree4(V, S, C, W));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The best of 2 PCMatApply() of one column after a warm-up, or *done false if the PC's PCMatApply() refuses (PCASM with
   the program's subdomains: not implemented), before any work */
static PetscErrorCode KSPAutoBCGSTimePCMatApply(PC pc, PetscReal *t, PetscBool *done)
{
  Mat            X, Y, A;
  PetscLayout    rows;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(pc, &A, NULL));
  PetscCall(MatGetLayouts(A, &rows, NULL));
  PetscCall(CAKrylovMatCreateDense(rows, 1, NULL, 0, &X)); /* zero; no reduction of its own */
  PetscCall(MatAssemblyBegin(X, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(X, MAT_FINAL_ASSEMBLY));
  PetscCall(MatDuplicate(X, MAT_DO_NOT_COPY_VALUES, &Y));
  /* the PC's operation itself (set up by the caller): a refusal leaves no log event of PCMatApply() open */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = (*pc->ops->matapply)(pc, X, Y);
  PetscCall(PetscPopErrorHandler());
  *done = ierr ? PETSC_FALSE : PETSC_TRUE;
  if (*done) AUTOBCGS_TIME(*t, (*pc->ops->matapply)(pc, X, Y), PETSC_FALSE, 2);
  PetscCall(MatDestroy(&X));
  PetscCall(MatDestroy(&Y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One fused pass as wide as pipebcgsm's (its 3 merged passes per iteration stream 25 vectors, 34 with a preconditioner,
   8-11 per pass): 3 updates y = a0 x0 + a1 x1 + b y of the other half o of the pool from this round's half v, and 3 dots
   of the updated vectors, 6 vectors read and 3 written (AUTOBCGS_WIDE_STREAMS). The values stay bounded (coefficients
   summing to 1) */
static PetscErrorCode KSPAutoBCGSWidePass(Vec v[3], Vec o[3])
{
  CAKrylovVecUpdate u[3];
  const Vec         dx[3] = {o[0], o[1], o[2]}, dy[3] = {o[1], o[2], o[0]};
  PetscScalar       dot[3];

  PetscFunctionBegin;
  for (PetscInt k = 0; k < 3; k++) {
    u[k].y    = o[k];
    u[k].b    = 0.5;
    u[k].a[0] = 0.25;
    u[k].a[1] = 0.25;
    u[k].a[2] = 0.0;
    u[k].x[0] = v[k];
    u[k].x[1] = v[(k + 1) % 3];
    u[k].x[2] = NULL;
  }
  PetscCall(CAKrylovVecFused(PETSC_FALSE, 3, u, 3, dx, dy, dot));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The measurement: compute on this machine always; reductions and gamma measured unless the model or the options give them */
static PetscErrorCode KSPAutoBCGSMeasure(KSP ksp, KSP_AutoBCGS *a)
{
  CAKrylovCosts        *c             = &a->costs;
  MPI_Comm              comm          = PetscObjectComm((PetscObject)ksp);
  const PetscBool       measure_gamma = a->gamma < 0 && !a->model ? PETSC_TRUE : PETSC_FALSE;
  KSPAutoBCGSCommCosts *kept;
  PetscInt              smax = 2, nloc, nrounds;
  PetscMPIInt           size;
  PetscScalar           gsum = 0;
  PetscReal             t[11], vec, wide;
  PetscBool             identity;
  Mat                   A;
  Vec                   x, w0, *w;
  PetscBool             pcblock = PETSC_FALSE, timepc;
  MPI_Request           req;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < AUTOBCGS_NS; i++)
    if (AutoS[i] <= a->smax) smax = AutoS[i];
  PetscCall(KSPAutoBCGSCommCostsGet(comm, &kept));
  a->red_kept = !a->model && kept ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PCSetUp(ksp->pc));
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  if (ksp->vec_rhs) { /* KSPSolve()'s b: its layout (no new one, a collective) */
    x = ksp->vec_rhs;
    PetscCall(PetscObjectReference((PetscObject)x));
  } else PetscCall(MatCreateVecs(A, &x, NULL));
  PetscCall(VecGetLocalSize(x, &nloc));
  PetscCall(CAKrylovVecCreateOnLayout(x, &w0));       /* not VecDuplicate(): a DM's vector would set up a new layout (a reduction) each time */
  PetscCall(VecDuplicateVecs(w0, AUTOBCGS_POOL, &w)); /* the layout shared */
  PetscCall(VecDestroy(&w0));
  for (PetscInt i = 0; i < AUTOBCGS_POOL; i++)
    if (i % 3 != 2) PetscCall(VecSet(w[i], 1.0 + i)); /* the vectors a round reads before it writes them; the third is MatMult()'s output */
  PetscCall(CAKrylovPCIsIdentity(ksp->pc, &identity));
  /* Outside KSPSolve() (no b yet: KSPMatSolve(), or KSPSetUp() called by the program) the PC is timed as PCMatApply() of
     one column if it has one that works: a block solve applies the PC only so, and programs check it (PETSc's ex79) */
  t[1] = 0;
  if (!identity && !ksp->vec_rhs && ksp->pc->ops->matapply) PetscCall(KSPAutoBCGSTimePCMatApply(ksp->pc, &t[1], &pcblock));
  timepc = !identity && !pcblock ? PETSC_TRUE : PETSC_FALSE;
  /* The reductions first, where they are measured: 8 bytes as MPI_Iallreduce() and its wait (the first non-blocking
     call, slow, before gamma's) and twice as MPI_Allreduce(), the least; s = 4's Gram matrix once, and where an 8-byte
     reduction took under AUTOBCGS_CHEAP_RED on every rank twice, the lesser. A size's first MPI_Allreduce() can take
     several times what the next does (on a 2-rank VM 2.4-9 us against 0.4-0.8 us for 8 bytes, 10-18 us against 1-4 us
     for the Gram matrix), which had made reductions look 5-10 times dearer than in a solve; where a reduction costs tens
     of microseconds or more (a simulated p >= 64, a large machine) that first-call cost is a few per cent of it, and
     a second sample of the Gram matrix would cost as much as the first (1.5 ms at a simulated p = 16384). Each rank's
     vote (1: its 8-byte reduction was cheap) rides in the Gram matrix's first sample, a sum of small integers, exact
     and the same on every rank: all ranks take the second sample or none. Where they do, also the 8-byte non-blocking
     reduction and its wait again, the lesser of 2 (the first was the path's first use): what it costs beyond
     MPI_Allreduce() is charged to every non-blocking reduction of the model (CAKrylovCostsOverlap()); and a fourth
     8-byte MPI_Allreduce(): the first after a non-blocking reduction waits for the ranks that leave it late (3.2-5.3 us
     against 0.5-1.3 for the next on a 2-rank VM), so that the 8-byte time had rested on one sample (2.6-2.9 us in 2 of
     12 coarse-grid measurements, 0.4-0.9 in the others; those two chose rbicgstab and cabicgstab s = 2, whose bottom
     solves take 1.1-2.5x bcgsm's there) */
  c->red_bytes[0] = 8;
  c->red_bytes[1] = KSPCABiCGStabGramBytes(4);
  t[4] = t[5] = t[10] = 0;
  if (!a->model && !a->red_kept) {
    const PetscInt n = (PetscInt)(c->red_bytes[1] / sizeof(PetscScalar));
    PetscScalar   *buf;
    PetscReal      first;

    PetscCall(PetscCalloc1(n, &buf));
    AUTOBCGS_TIME(first, KSPAutoBCGSIallreduceWait(comm, buf), PETSC_FALSE, 1);
    AUTOBCGS_TIME(t[4], KSPAutoBCGSAllreduce(comm, buf, 1), PETSC_FALSE, 2);
    t[4]   = PetscMin(t[4], first);
    buf[0] = t[4] < AUTOBCGS_CHEAP_RED ? 1.0 : 0.0; /* this rank's vote */
    AUTOBCGS_TIME(t[5], KSPAutoBCGSAllreduce(comm, buf, n), PETSC_FALSE, 1);
    PetscCallMPI(MPI_Comm_size(comm, &size));
    if (PetscRealPart(buf[0]) == size) { /* every rank voted */
      PetscReal again;

      AUTOBCGS_TIME(again, KSPAutoBCGSAllreduce(comm, buf, n), PETSC_FALSE, 1);
      t[5] = PetscMin(t[5], again);
      AUTOBCGS_TIME(t[10], KSPAutoBCGSIallreduceWait(comm, buf), PETSC_FALSE, 2);
      AUTOBCGS_TIME(again, KSPAutoBCGSAllreduce(comm, buf, 1), PETSC_FALSE, 1);
      t[4] = PetscMin(t[4], again);
    }
    PetscCall(PetscFree(buf));
  }
  /* PCApply(), MatMult() and a vector pass (3 reads, 1 write) in turn, as in an iteration (v = A M^{-1} p: the
     MatMult() reads what the PCApply() wrote), after the first round also a fused pass as wide as pipebcgsm's (over
     both halves of the pool), each round on 3 vectors of the pool that the round before did not touch, with the
     operator and the pool about a solver's working set (calls repeated on the same vectors run from caches that a
     solve's calls do not find: up to 1.5x faster on a machine whose L2 holds this working set); the least time of each.
     No separate warm-up: the first round pays what a first use costs (PCJACOBI makes its diagonal at its first
     PCApply(), which a solve would pay in its first iteration; cold caches). gamma: an 8-byte MPI_Iallreduce() in
     flight during a third round's MatMult(), and the wait for it after that MatMult(), timed alone (that MatMult() is
     no sample of the SpMV: where MPI progresses the reduction only inside MPI calls, the halo exchange's calls advance
     it there) */
  nrounds = measure_gamma ? 3 : 2;
  t[0] = vec = wide = PETSC_MAX_REAL;
  if (timepc) t[1] = PETSC_MAX_REAL;
  t[6] = 0;
  for (PetscInt r = 0; r < nrounds; r++) {
    Vec            *v     = w + 3 * (r % 2); /* p = v[0], M^{-1} p = v[1], A M^{-1} p = v[2] */
    const PetscBool gamma = measure_gamma && r == 2 ? PETSC_TRUE : PETSC_FALSE;
    Vec            *o     = w + 3 * ((r + 1) % 2); /* the other half of the pool */
    PetscLogDouble  t0_, t1_, t2_, t3_, t4_, t5_;

    PetscCall(PetscTime(&t0_));
    if (timepc) PetscCall(PCApply(ksp->pc, v[0], v[1]));
    PetscCall(PetscTime(&t1_));
    if (gamma) PetscCallMPI(MPI_Iallreduce(MPI_IN_PLACE, &gsum, 1, MPIU_SCALAR, MPIU_SUM, comm, &req));
    PetscCall(MatMult(A, timepc ? v[1] : v[0], v[2]));
    PetscCall(PetscTime(&t2_));
    if (gamma) PetscCallMPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    PetscCall(PetscTime(&t3_));
    PetscCall(VecAXPBYPCZ(v[2], 1.0, -1.0, 0.5, v[0], v[1]));
    PetscCall(PetscTime(&t4_));
    if (r) PetscCall(KSPAutoBCGSWidePass(v, o)); /* not in the cold first round */
    PetscCall(PetscTime(&t5_));
    if (timepc) t[1] = PetscMin(t[1], (PetscReal)(t1_ - t0_));
    if (gamma) t[6] = (PetscReal)(t3_ - t2_); /* the wait for the reduction after the MatMult() */
    else t[0] = PetscMin(t[0], (PetscReal)(t2_ - t1_));
    vec = PetscMin(vec, (PetscReal)(t4_ - t3_));
    if (r) wide = PetscMin(wide, (PetscReal)(t5_ - t4_));
  }
  t[2] = vec / 4;
  t[9] = wide / AUTOBCGS_WIDE_STREAMS;
  PetscCall(KSPAutoBCGSMeasureGemm(nloc, PetscMin(smax, 8), &t[3], &t[8]));
  t[3] = 1 / t[3];
  t[8] = 1 / t[8];
  t[7] = nloc;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, t, 11, MPIU_REAL, MPIU_MAX, comm)); /* the same costs on every rank: the slowest's */
  c->nloc         = t[7];
  c->spmv         = t[0];
  c->pc           = t[1];
  c->vec          = t[2];
  c->vec_wide     = t[9];
  c->gemm_rate    = 1 / t[3];
  c->combine_rate = 1 / t[8];
  for (PetscInt i = 0; i < CAKRYLOV_COSTS_NRED; i++) c->red[i] = a->red_kept ? kept->red[i] : t[4 + i];
  c->red_nb = a->red_kept ? kept->red_nb : t[10];
  if (!a->model && !a->red_kept) PetscCall(KSPAutoBCGSCommCostsKeep(comm, c->red, c->red_nb));
  c->red_exp = c->red[0] > 0 && c->red[1] > c->red[0] ? PetscLogReal(c->red[1] / c->red[0]) / PetscLogReal(c->red_bytes[1] / c->red_bytes[0]) : 0;
  c->right   = ksp->pc_side == PC_RIGHT ? PETSC_TRUE : PETSC_FALSE;
  c->nodes   = a->model ? a->nodes : 0;
  for (PetscInt i = 0; i < 4; i++) c->C[i] = a->C[i];
  if (a->gamma >= 0) c->gamma = a->gamma;
  else if (a->model) c->gamma = 1; /* a machine planned for: no overlap assumed */
  else {
    /* eq. (12), t = max(spmv + gamma T, T): what the reduction adds after the SpMV, the wait, is max(gamma T, T - spmv),
       so gamma = wait / T where the wait exceeds T - spmv; a shorter wait (the reduction done when the SpMV is) is
       consistent with every gamma <= (T - spmv) / T: the smallest, 0. The wait alone, not the MatMult() and the wait
       less the SpMV's time from the other rounds: the MatMult() varies between rounds by more than T (under the latency
       simulator at p = 256, async progress: waits of 1-11 us of T = 57 us, MatMult() +-10 us and more, and gamma 0.1-0.25
       and up to 0.84 from the difference, where pipebcgsm was predicted 8-21 % slow) */
    const PetscReal T = CAKrylovCostsReduction(c, 8);

    c->gamma = T > 0 && t[6] > T - t[0] ? PetscClipInterval(t[6] / T, 0, 1) : 0;
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroyVecs(AUTOBCGS_POOL, &w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every candidate the options and the preconditioner side allow, its prediction, and the fastest */
static PetscErrorCode KSPAutoBCGSPredict(KSP ksp, KSP_AutoBCGS *a)
{
  const CAKrylovCosts *c     = &a->costs;
  const PetscBool      right = ksp->pc_side == PC_RIGHT ? PETSC_TRUE : PETSC_FALSE;

  PetscFunctionBegin;
  a->n      = 0;
  a->chosen = -1;
  for (PetscInt t = 0; t < AUTOBCGS_NTYPES; t++) {
    if (!a->use[t] || (!right && (t == 1 || t == 2))) continue; /* rbicgstab, pipebcgsm: right preconditioning only */
    for (PetscInt i = 0; i < (t == 3 ? AUTOBCGS_NS : 1); i++) {
      KSPAutoBCGSChoice *k = &a->cand[a->n];

      k->type  = AutoTypes[t];
      k->s     = 0;
      k->basis = KSP_CABICGSTAB_BASIS_MONOMIAL;
      if (t == 0) k->time = KSPBCGSMTimePerIteration(c);
      else if (t == 1) k->time = KSPRBiCGStabTimePerIteration(c);
      else if (t == 2) k->time = KSPPIPEBCGSMTimePerIteration(c);
      else {
        if (AutoS[i] > a->smax) break;
        const PetscBool given = a->lmax > a->lmin ? PETSC_TRUE : PETSC_FALSE;

        k->s = AutoS[i];
        /* the s-study: monomial only to s = 4; a Chebyshev basis on a given interval (every s: the bottom policy's basis
           for short bottom solves is Chebyshev at s = 4) runs without telescoping and without an estimate, else it pays
           its spectrum estimate (2 s GMRES steps, once per operator: per -ksp_autobcgs_iterations) */
        k->basis = k->s <= 4 && !given ? KSP_CABICGSTAB_BASIS_MONOMIAL : KSP_CABICGSTAB_BASIS_CHEBYSHEV;
        k->time  = KSPCABiCGStabTimePerIteration(c, k->s, k->basis, k->basis == KSP_CABICGSTAB_BASIS_MONOMIAL || !given ? PETSC_TRUE : PETSC_FALSE, a->est_its);
        if (k->basis != KSP_CABICGSTAB_BASIS_MONOMIAL && !given) k->time += KSPCABiCGStabEstimateTime(c, k->s) / a->est_its;
      }
      if (a->chosen < 0 || k->time < a->cand[a->chosen].time) a->chosen = a->n;
      a->n++;
    }
  }
  PetscCheck(a->n > 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_INCOMP, "KSPAUTOBCGS: no candidate of -ksp_autobcgs_candidates supports %s preconditioning (rbicgstab and pipebcgsm: right only)", PCSides[ksp->pc_side]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetUp_AutoBCGS(KSP);
static PetscErrorCode KSPSolve_AutoBCGS(KSP);
static PetscErrorCode KSPMatSolve_AutoBCGS(KSP, Mat, Mat);
static PetscErrorCode KSPReset_AutoBCGS(KSP);
static PetscErrorCode KSPDestroy_AutoBCGS(KSP);
static PetscErrorCode KSPView_AutoBCGS(KSP, PetscViewer);
static PetscErrorCode KSPSetFromOptions_AutoBCGS(KSP, CAKrylovOptionItems);

/* This file's operations, in place of the chosen type's where they pass through it */
static void KSPAutoBCGSSetOps(KSP ksp)
{
  ksp->ops->setup          = KSPSetUp_AutoBCGS;
  ksp->ops->reset          = KSPReset_AutoBCGS;
  ksp->ops->destroy        = KSPDestroy_AutoBCGS;
  ksp->ops->view           = KSPView_AutoBCGS;
  ksp->ops->setfromoptions = KSPSetFromOptions_AutoBCGS;
}

/* The operations table as KSPSetType() leaves it for a type's constructor */
static PetscErrorCode KSPAutoBCGSClearOps(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(ksp->ops, sizeof(struct _KSPOps)));
  ksp->ops->buildsolution = KSPBuildSolutionDefault;
  ksp->ops->buildresidual = KSPBuildResidualDefault;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Remove the chosen type from the KSP (its destroy frees ksp->data and its composed methods) */
static PetscErrorCode KSPAutoBCGSDeactivate(KSP ksp, KSP_AutoBCGS *a)
{
  PetscFunctionBegin;
  if (!a->active) PetscFunctionReturn(PETSC_SUCCESS);
  if (a->ops.destroy) PetscCall((*a->ops.destroy)(ksp));
  ksp->data = NULL;
  PetscCall(KSPAutoBCGSClearOps(ksp));
  KSPAutoBCGSSetOps(ksp);
  a->active       = PETSC_FALSE;
  a->untelescoped = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The choice's s and basis on a chosen cabicgstab, after its own options (which set the rest); a Chebyshev basis on a
   given interval runs without an estimate and without telescoping (which protects a basis whose conditioning is
   unknown; the bottom hook's policy does the same), and with an estimate again when the interval is taken back */
static PetscErrorCode KSPAutoBCGSApplyChoice(KSP ksp, KSP_AutoBCGS *a)
{
  const KSPAutoBCGSChoice *k = &a->cand[a->chosen];

  PetscFunctionBegin;
  if (!k->s) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPCABiCGStabSetS(ksp, k->s));
  PetscCall(KSPCABiCGStabSetBasis(ksp, k->basis));
  if (k->basis == KSP_CABICGSTAB_BASIS_MONOMIAL) PetscFunctionReturn(PETSC_SUCCESS);
  if (a->lmax > a->lmin) {
    PetscCall(KSPCABiCGStabSetSpectrum(ksp, a->lmin, a->lmax));
    PetscCall(KSPCABiCGStabSetTelescope(ksp, PETSC_FALSE));
    a->untelescoped = PETSC_TRUE;
  } else {
    PetscCall(KSPCABiCGStabSetSpectrum(ksp, PETSC_DETERMINE, PETSC_DETERMINE));
    if (a->untelescoped) PetscCall(KSPCABiCGStabSetTelescope(ksp, PETSC_TRUE));
    a->untelescoped = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Make the KSP the chosen candidate, as KSPSetType() would (its constructor on a cleared operations table), with the
   choice's s and basis and, when the program called KSPSetFromOptions(), the options of that type */
static PetscErrorCode KSPAutoBCGSActivate(KSP ksp, KSP_AutoBCGS *a)
{
  const KSPAutoBCGSChoice *k = &a->cand[a->chosen];
  PetscErrorCode (*create)(KSP);

  PetscFunctionBegin;
  PetscCall(PetscFunctionListFind(KSPList, k->type, &create));
  PetscCheck(create, PetscObjectComm((PetscObject)ksp), PETSC_ERR_PLIB, "KSP type %s not registered", k->type);
  PetscCall(KSPAutoBCGSClearOps(ksp));
  ksp->setupnewmatrix = PETSC_FALSE;
  PetscCall((*create)(ksp));
  a->ops       = *ksp->ops;
  a->newmatrix = ksp->setupnewmatrix;
  a->active    = PETSC_TRUE;
  KSPAutoBCGSSetOps(ksp);
  ksp->ops->solve = KSPSolve_AutoBCGS; /* a cheap check of the key first: a PC side or type changed without a setup */
  if (a->ops.matsolve) ksp->ops->matsolve = KSPMatSolve_AutoBCGS;
  ksp->setupnewmatrix = PETSC_TRUE; /* KSPSetUp() calls this file's setup on a new operator: it may choose again */
  if (a->fromoptions && a->ops.setfromoptions) {
    PetscObjectOptionsBegin((PetscObject)ksp);
    PetscCall((*a->ops.setfromoptions)(ksp, PetscOptionsObject));
    PetscOptionsEnd();
  }
  PetscCall(KSPAutoBCGSApplyChoice(ksp, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetUp_AutoBCGS(KSP ksp)
{
  KSP_AutoBCGS  *a;
  KSPAutoBCGSKey key;
  PetscBool      holds = PETSC_FALSE, choose;

  PetscFunctionBegin;
  PetscCall(KSPAutoBCGSGet(ksp, &a));
  PetscCheck(!a->bad[0], PetscObjectComm((PetscObject)ksp), a->bad_code, "KSPAUTOBCGS: %s", a->bad);
  PetscCall(KSPAutoBCGSGetKey(ksp, &key));
  if (a->active) PetscCall(KSPAutoBCGSKeyHolds(PetscObjectComm((PetscObject)ksp), &a->key, &key, &holds));
  choose = !holds;
  a->key = key;
  if (choose) {
    PetscLogDouble t0, t1;

    PetscCall(KSPAutoBCGSDeactivate(ksp, a));
    PetscCall(PetscTime(&t0));
    PetscCall(KSPAutoBCGSMeasure(ksp, a));
    PetscCall(PetscTime(&t1));
    a->setup_time = (PetscReal)(t1 - t0);
    PetscCall(KSPAutoBCGSPredict(ksp, a));
    PetscCall(KSPAutoBCGSActivate(ksp, a));
    a->nchoices++;
    if (a->view) PetscCall(KSPView_AutoBCGS(ksp, PETSC_VIEWER_STDOUT_(PetscObjectComm((PetscObject)ksp))));
  }
  /* the chosen type's own setup: always on a new choice or a new KSP, on a new operator if that type asks for it */
  if ((choose || ksp->setupstage == KSP_SETUP_NEW || a->newmatrix || a->unset) && a->ops.setup) PetscCall((*a->ops.setup)(ksp));
  a->unset = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Before each solve: what the choice depends on may have changed without a KSPSetUp() that reaches this file (a PC side
   or type set between solves): then choose again, as at a setup; the chosen type's solve in any case */
static PetscErrorCode KSPAutoBCGSCheckKey(KSP ksp, KSP_AutoBCGS **a)
{
  KSPAutoBCGSKey key;
  PetscBool      same;

  PetscFunctionBegin;
  PetscCall(KSPAutoBCGSGet(ksp, a));
  PetscCall(KSPAutoBCGSGetKey(ksp, &key));
  PetscCall(PetscMemcmp(&key, &(*a)->key, sizeof(key), &same));
  if (!same) PetscCall(KSPSetUp_AutoBCGS(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSolve_AutoBCGS(KSP ksp)
{
  KSP_AutoBCGS *a;

  PetscFunctionBegin;
  PetscCall(KSPAutoBCGSCheckKey(ksp, &a));
  PetscCall((*a->ops.solve)(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPMatSolve_AutoBCGS(KSP ksp, Mat B, Mat X)
{
  KSP_AutoBCGS *a;

  PetscFunctionBegin;
  PetscCall(KSPAutoBCGSCheckKey(ksp, &a));
  PetscCheck(a->ops.matsolve, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSPAUTOBCGS: the type chosen again has no KSPMatSolve()");
  PetscCall((*a->ops.matsolve)(ksp, B, X));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPReset_AutoBCGS(KSP ksp)
{
  KSP_AutoBCGS *a;

  PetscFunctionBegin;
  PetscCall(KSPAutoBCGSGet(ksp, &a));
  if (a->active && a->ops.reset) PetscCall((*a->ops.reset)(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPDestroy_AutoBCGS(KSP ksp)
{
  KSP_AutoBCGS *a;

  PetscFunctionBegin;
  PetscCall(KSPAutoBCGSGet(ksp, &a));
  PetscCall(KSPAutoBCGSDeactivate(ksp, a));
  PetscCall(PetscObjectCompose((PetscObject)ksp, "KSPAutoBCGS", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPAutoBCGSGetChoice_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPAutoBCGSSetSpectrum_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPAutoBCGSSetIterations_C", NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The choice in words: the fastest prediction against the next type's, and why */
static PetscErrorCode KSPAutoBCGSViewChoice(KSP_AutoBCGS *a, PetscViewer viewer)
{
  const KSPAutoBCGSChoice *k    = &a->cand[a->chosen];
  const CAKrylovCosts     *c    = &a->costs;
  PetscInt                 next = -1;
  char                     name[64], versus[128] = "";
  const char              *why;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < a->n; i++)
    if (a->cand[i].type != k->type && (next < 0 || a->cand[i].time < a->cand[next].time)) next = i;
  if (k->s) PetscCall(PetscSNPrintf(name, sizeof(name), "%s s = %" PetscInt_FMT " (%s basis)", k->type, k->s, KSPCABiCGStabBases[k->basis]));
  else PetscCall(PetscSNPrintf(name, sizeof(name), "%s", k->type));
  if (next >= 0) PetscCall(PetscSNPrintf(versus, sizeof(versus), ", %.2fx faster than the next type (%s, %g us)", (double)(a->cand[next].time / k->time), a->cand[next].type, (double)(1e6 * a->cand[next].time)));
  if (k->s) why = "one reduction per s iterations saves more than the s-step basis costs";
  else if (k->type == AutoTypes[0]) why = "the fewest vector passes win over hiding or avoiding reductions";
  else why = "hiding the reductions behind the computation saves more than the extra vector passes cost";
  PetscCall(PetscViewerASCIIPrintf(viewer, "  autobcgs chose %s: predicted %g us per iteration%s\n", name, (double)(1e6 * k->time), versus));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  why: a reduction of 8 bytes costs %g us against %g us for one operator application%s: %s\n", (double)(1e6 * CAKrylovCostsReduction(c, 8)), (double)(1e6 * (c->spmv + c->pc)), c->pc > 0 ? " with its preconditioner" : "", why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPView_AutoBCGS(KSP ksp, PetscViewer viewer)
{
  KSP_AutoBCGS *a;
  PetscBool     isascii;

  PetscFunctionBegin;
  PetscCall(KSPAutoBCGSGet(ksp, &a));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (isascii && !a->active) PetscCall(PetscViewerASCIIPrintf(viewer, "  autobcgs: nothing chosen yet (the choice is made at KSPSetUp())\n"));
  if (isascii && a->active) {
    const CAKrylovCosts *c = &a->costs;

    PetscCall(KSPAutoBCGSViewChoice(a, viewer));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  measured at setup (%g ms, maximum over the ranks): MatMult %g us, PCApply %g us, vector read/write %g us (%g us in a %d-vector pass), Gram GEMM %g Gflop/s, rebuild GEMM %g Gflop/s, gamma %g%s\n", (double)(1e3 * a->setup_time), (double)(1e6 * c->spmv), (double)(1e6 * c->pc), (double)(1e6 * c->vec), (double)(1e6 * c->vec_wide), AUTOBCGS_WIDE_STREAMS, (double)(1e-9 * c->gemm_rate), (double)(1e-9 * c->combine_rate),
                                     (double)c->gamma, a->gamma >= 0 ? " (given)" : (a->model ? " (assumed: no overlap)" : "")));
    if (c->nodes > 0)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  reductions: Krasnopolsky eq. (10) at p = %g nodes, C0 = %g, C1 = %g, n0 = %g, n1 = %g (a planning model)\n", (double)c->nodes, (double)c->C[0], (double)c->C[1], (double)c->C[2], (double)c->C[3]));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer, "  reductions measured%s: %g us (%g B), %g us (%g B); other sizes by the power law through them, exponent %.3g\n", a->red_kept ? " on this communicator by an earlier autobcgs" : "", (double)(1e6 * c->red[0]),
                                       (double)c->red_bytes[0], (double)(1e6 * c->red[1]), (double)c->red_bytes[1], (double)c->red_exp));
    if (c->red_nb > 0)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  non-blocking reduction of 8 B and its wait: %g us, charged %g us beyond the blocking one to each non-blocking reduction\n", (double)(1e6 * c->red_nb), (double)(1e6 * KSPAutoBCGSNonblockingExcess(c))));
    char   line[1024] = "";
    size_t len;

    for (PetscInt i = 0; i < a->n; i++) {
      PetscCall(PetscStrlen(line, &len));
      if (a->cand[i].s) PetscCall(PetscSNPrintf(line + len, sizeof(line) - len, " %s(%" PetscInt_FMT ") %.4g", a->cand[i].type, a->cand[i].s, (double)(1e6 * a->cand[i].time)));
      else PetscCall(PetscSNPrintf(line + len, sizeof(line) - len, " %s %.4g", a->cand[i].type, (double)(1e6 * a->cand[i].time)));
    }
    if (a->lmax > a->lmin) PetscCall(PetscViewerASCIIPrintf(viewer, "  Chebyshev candidates: on the given interval [%g, %g], no spectrum estimate\n", (double)a->lmin, (double)a->lmax));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  predicted time per iteration [us]:%s\n", line));
  }
  if (a->active && a->ops.view) PetscCall((*a->ops.view)(ksp, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A bad option value, kept for KSPSetUp() to report */
static PetscErrorCode KSPAutoBCGSBad(KSP_AutoBCGS *a, PetscErrorCode code, const char text[])
{
  PetscFunctionBegin;
  a->bad_code = code;
  PetscCall(PetscStrncpy(a->bad, text, sizeof(a->bad)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -ksp_autobcgs_candidates: the types named, each known */
static PetscErrorCode KSPAutoBCGSOptionCandidates(CAKrylovOptionItems PetscOptionsObject, KSP_AutoBCGS *a, PetscBool *changed)
{
  char     *names[AUTOBCGS_NTYPES + 4], text[256];
  PetscInt  n = AUTOBCGS_NTYPES + 4;
  PetscBool set, use[AUTOBCGS_NTYPES] = {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE};

  PetscFunctionBegin;
  PetscCall(PetscOptionsStringArray("-ksp_autobcgs_candidates", "Types to choose from (bcgsm,rbicgstab,pipebcgsm,cabicgstab)", "KSPAUTOBCGS", names, &n, &set));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < n; i++) {
    PetscInt t;

    for (t = 0; t < AUTOBCGS_NTYPES; t++) {
      PetscBool same;

      PetscCall(PetscStrcmp(names[i], AutoTypes[t], &same));
      if (same) break;
    }
    if (t < AUTOBCGS_NTYPES) use[t] = PETSC_TRUE;
    else {
      PetscCall(PetscSNPrintf(text, sizeof(text), "-ksp_autobcgs_candidates: unknown type %s (bcgsm, rbicgstab, pipebcgsm, cabicgstab)", names[i]));
      PetscCall(KSPAutoBCGSBad(a, PETSC_ERR_ARG_UNKNOWN_TYPE, text));
    }
    PetscCall(PetscFree(names[i]));
  }
  if (!n) PetscCall(KSPAutoBCGSBad(a, PETSC_ERR_ARG_WRONG, "-ksp_autobcgs_candidates: give at least one type"));
  for (PetscInt t = 0; t < AUTOBCGS_NTYPES; t++) {
    *changed |= a->use[t] != use[t] ? PETSC_TRUE : PETSC_FALSE;
    a->use[t] = use[t];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A real option of the model: *changed only when its value changes */
static PetscErrorCode KSPAutoBCGSOptionReal(CAKrylovOptionItems PetscOptionsObject, const char name[], const char text[], PetscReal *v, PetscBool *changed)
{
  PetscReal x = *v;

  PetscFunctionBegin;
  PetscCall(PetscOptionsReal(name, text, "KSPAUTOBCGS", x, &x, NULL));
  if (x != *v) *changed = PETSC_TRUE;
  *v = x;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetFromOptions_AutoBCGS(KSP ksp, CAKrylovOptionItems PetscOptionsObject)
{
  const char   *models[] = {"measured", "krasnopolsky"};
  KSP_AutoBCGS *a;
  PetscInt      smax, model;
  PetscReal     nodes;
  PetscBool     changed = PETSC_FALSE;
  char          text[256];

  PetscFunctionBegin;
  PetscCall(KSPAutoBCGSGet(ksp, &a));
  a->fromoptions = PETSC_TRUE;
  a->bad[0]      = 0;
  smax           = a->smax;
  model          = a->model ? 1 : 0;
  nodes          = a->nodes;
  PetscOptionsHeadBegin(PetscOptionsObject, "KSP autobcgs options");
  PetscCall(KSPAutoBCGSOptionCandidates(PetscOptionsObject, a, &changed));
  PetscCall(PetscOptionsInt("-ksp_autobcgs_s_max", "Largest s of a cabicgstab candidate (2..16)", "KSPAUTOBCGS", smax, &smax, NULL));
  if (smax >= 2 && smax <= 16) {
    changed |= smax != a->smax ? PETSC_TRUE : PETSC_FALSE;
    a->smax = smax;
  } else {
    PetscCall(PetscSNPrintf(text, sizeof(text), "-ksp_autobcgs_s_max %" PetscInt_FMT ": must be in 2..16", smax));
    PetscCall(KSPAutoBCGSBad(a, PETSC_ERR_ARG_OUTOFRANGE, text));
  }
  PetscCall(PetscOptionsEList("-ksp_autobcgs_model", "Reduction times: measured here, or Krasnopolsky's eqs. (10)-(11) at -ksp_autobcgs_nodes", "KSPAUTOBCGS", models, 2, models[model], &model, NULL));
  changed |= (model == 1) != a->model ? PETSC_TRUE : PETSC_FALSE;
  a->model = model == 1 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscOptionsReal("-ksp_autobcgs_nodes", "Nodes p of the machine planned for (with -ksp_autobcgs_model krasnopolsky)", "KSPAUTOBCGS", nodes, &nodes, NULL));
  if (nodes > 0) {
    changed |= nodes != a->nodes ? PETSC_TRUE : PETSC_FALSE;
    a->nodes = nodes;
  } else {
    PetscCall(PetscSNPrintf(text, sizeof(text), "-ksp_autobcgs_nodes %g: must be > 0", (double)nodes));
    PetscCall(KSPAutoBCGSBad(a, PETSC_ERR_ARG_OUTOFRANGE, text));
  }
  PetscCall(KSPAutoBCGSOptionReal(PetscOptionsObject, "-ksp_autobcgs_model_c0", "Krasnopolsky's C0 [s]", &a->C[0], &changed));
  PetscCall(KSPAutoBCGSOptionReal(PetscOptionsObject, "-ksp_autobcgs_model_c1", "Krasnopolsky's C1 [s]", &a->C[1], &changed));
  PetscCall(KSPAutoBCGSOptionReal(PetscOptionsObject, "-ksp_autobcgs_model_n0", "Krasnopolsky's n0 (message size exponent)", &a->C[2], &changed));
  PetscCall(KSPAutoBCGSOptionReal(PetscOptionsObject, "-ksp_autobcgs_model_n1", "Krasnopolsky's n1 (node count exponent)", &a->C[3], &changed));
  PetscCall(KSPAutoBCGSOptionReal(PetscOptionsObject, "-ksp_autobcgs_gamma", "Exposed fraction of a hidden reduction, eq. (9) (negative: measured)", &a->gamma, &changed));
  PetscCall(KSPAutoBCGSOptionReal(PetscOptionsObject, "-ksp_autobcgs_iterations", "Iterations expected per solve (cabicgstab's telescoping start) and per operator (a Chebyshev spectrum estimate)", &a->est_its, &changed));
  if (!(a->est_its >= 1)) PetscCall(KSPAutoBCGSBad(a, PETSC_ERR_ARG_OUTOFRANGE, "-ksp_autobcgs_iterations: must be >= 1"));
  PetscCall(PetscOptionsBool("-ksp_autobcgs_view", "Print the measured costs, the predictions and the choice at setup", "KSPAUTOBCGS", a->view, &a->view, NULL));
  PetscOptionsHeadEnd();
  if (changed && a->active) { /* choose again at the next setup */
    PetscCall(KSPAutoBCGSDeactivate(ksp, a));
    ksp->setupstage = KSP_SETUP_NEW;
  }
  if (a->active && a->ops.setfromoptions) { /* the chosen type's options, then the choice (s, basis, interval) over them */
    PetscCall((*a->ops.setfromoptions)(ksp, PetscOptionsObject));
    PetscCall(KSPAutoBCGSApplyChoice(ksp, a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPAutoBCGSGetChoice_AutoBCGS(KSP ksp, KSPAutoBCGSChoice *choice, PetscInt *n, const KSPAutoBCGSChoice **candidates, PetscInt *nchoices)
{
  KSP_AutoBCGS *a;

  PetscFunctionBegin;
  PetscCall(KSPAutoBCGSGet(ksp, &a));
  PetscCheck(a->active, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_WRONGSTATE, "KSPAUTOBCGS chooses at KSPSetUp(): call it first");
  if (choice) *choice = a->cand[a->chosen];
  if (n) *n = a->n;
  if (candidates) *candidates = a->cand;
  if (nchoices) *nchoices = a->nchoices;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After a choice, what the predictions depend on changed but not the operator: predict again from the costs measured
   (no communication: every rank holds the same costs, so every rank makes the same choice); a new type replaces the
   chosen one and is set up at once (new operators not set up yet: at their KSPSetUp()); the same type takes the new
   s, basis and interval (cabicgstab reallocates its basis for a new s at its next solve, without a reduction) */
static PetscErrorCode KSPAutoBCGSPredictAgain(KSP ksp, KSP_AutoBCGS *a)
{
  const char *before;

  PetscFunctionBegin;
  if (!a->active) PetscFunctionReturn(PETSC_SUCCESS); /* the first choice, at KSPSetUp(), uses the new value */
  before = a->cand[a->chosen].type;
  PetscCall(KSPAutoBCGSPredict(ksp, a));
  if (before != a->cand[a->chosen].type) {
    PetscCall(KSPAutoBCGSDeactivate(ksp, a));
    PetscCall(KSPAutoBCGSActivate(ksp, a));
    /* the new type's setup now if the KSP is set up for its operators (KSPSetUp() would return at once), else at the
       next KSPSetUp() with the new operators; not by KSP_SETUP_NEW, which with a DM makes KSPSetUp() compute the
       operators again (KSPSetComputeOperators(): a PCMG's coarse operator) */
    if (ksp->setupstage == KSP_SETUP_NEWRHS) {
      if (a->ops.setup) PetscCall((*a->ops.setup)(ksp));
    } else a->unset = PETSC_TRUE;
  } else PetscCall(KSPAutoBCGSApplyChoice(ksp, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPAutoBCGSSetSpectrum_AutoBCGS(KSP ksp, PetscReal lmin, PetscReal lmax)
{
  KSP_AutoBCGS *a;

  PetscFunctionBegin;
  PetscCall(KSPAutoBCGSGet(ksp, &a));
  if (a->lmin == lmin && a->lmax == lmax) PetscFunctionReturn(PETSC_SUCCESS);
  a->lmin = lmin;
  a->lmax = lmax;
  PetscCall(KSPAutoBCGSPredictAgain(ksp, a)); /* the Chebyshev candidates' predictions change */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPAutoBCGSSetIterations_AutoBCGS(KSP ksp, PetscReal its)
{
  KSP_AutoBCGS *a;

  PetscFunctionBegin;
  PetscCall(KSPAutoBCGSGet(ksp, &a));
  PetscCheck(its >= 1, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPAutoBCGSSetIterations(): iterations %g must be >= 1", (double)its);
  if (a->est_its == its) PetscFunctionReturn(PETSC_SUCCESS);
  a->est_its = its;
  PetscCall(KSPAutoBCGSPredictAgain(ksp, a)); /* the cabicgstab candidates' outer iterations per solve change */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPAutoBCGSSetSpectrum - Gives a `KSPAUTOBCGS` the interval [lmin, lmax] that bounds the real parts of the
   preconditioned operator's spectrum: its `KSPCABICGSTAB` candidates with the Chebyshev basis then use it
   (`KSPCABiCGStabSetSpectrum()`, without telescoping) and make no spectrum estimate, whose cost leaves their
   predictions. After a choice it predicts again from the costs measured (no new measurement) and changes the solver
   only if the choice changes, as `KSPAutoBCGSSetIterations()` does

   Collective

   Input Parameters:
+  ksp  - the `KSP` of type `KSPAUTOBCGS`
.  lmin - the lower end
-  lmax - the upper end (lmax <= lmin: estimated, the default)

   Note:
   The PCMG bottom-solver hook gives a `KSPAUTOBCGS` bottom solver its Gershgorin interval, so that the hook's own choice
   for a `KSPCABICGSTAB` bottom (Chebyshev on that interval, no telescoping) is one of the candidates the model compares.

   Level: advanced

.seealso: `KSPAUTOBCGS`, `KSPCABiCGStabSetSpectrum()`, `PCMGBottomSolver`
@*/
PetscErrorCode KSPAutoBCGSSetSpectrum(KSP ksp, PetscReal lmin, PetscReal lmax)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveReal(ksp, lmin, 2);
  PetscValidLogicalCollectiveReal(ksp, lmax, 3);
  PetscTryMethod(ksp, "KSPAutoBCGSSetSpectrum_C", (KSP, PetscReal, PetscReal), (ksp, lmin, lmax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPAutoBCGSSetIterations - Tells a `KSPAUTOBCGS` how many iterations its solves are expected to take (the option
   `-ksp_autobcgs_iterations`, default 100): a `KSPCABICGSTAB` candidate's outer iterations, and so its global
   reductions and bases per solve, follow from it, as does the share of a spectrum estimate per iteration. After a choice
   it predicts again from the costs measured (no new measurement, no communication) and changes the solver only if the
   choice changes: the same type takes the new s and basis; another type replaces it and is set up at once for the
   operators the `KSP` is set up for (after `KSPSetOperators()`: at the next `KSPSetUp()`), never as a new `KSP`, so
   that a `KSP` with a `DM` does not compute its operators again

   Collective

   Input Parameters:
+  ksp - the `KSP` of type `KSPAUTOBCGS`
-  its - the iterations expected per solve, >= 1

   Note:
   The PCMG bottom-solver hook tells a `KSPAUTOBCGS` bottom solver with the policy's Gershgorin interval the most
   iterations a bottom solve took since the setup, plus one if a solve of one right-hand side came since then (10
   before the first, at most 10 unless a solve took more), as the policy's own s follows them for a `KSPCABICGSTAB`
   bottom: bottom solves of a few iterations make a smaller s (or a type without a basis) the fastest. Its
   `-ksp_autobcgs_iterations`, when given, wins.

   Level: advanced

.seealso: `KSPAUTOBCGS`, `KSPAutoBCGSSetSpectrum()`, `PCMGBottomSolver`
@*/
PetscErrorCode KSPAutoBCGSSetIterations(KSP ksp, PetscReal its)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveReal(ksp, its, 2);
  PetscTryMethod(ksp, "KSPAutoBCGSSetIterations_C", (KSP, PetscReal), (ksp, its));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPAutoBCGSChoiceView - Prints what a `KSPAUTOBCGS` chose at its last setup, its prediction against the next type's,
   and why, in two lines (the first two of its `-ksp_view`); nothing before its first setup

   Collective

   Input Parameters:
+  ksp    - the `KSP` of type `KSPAUTOBCGS` (another type prints nothing)
-  viewer - an ASCII viewer

   Level: intermediate

.seealso: `KSPAUTOBCGS`, `KSPAutoBCGSGetChoice()`, `PCMGBottomReportView()`
@*/
PetscErrorCode KSPAutoBCGSChoiceView(KSP ksp, PetscViewer viewer)
{
  KSP_AutoBCGS *a;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidHeaderSpecific(viewer, PETSC_VIEWER_CLASSID, 2);
  PetscCall(KSPAutoBCGSGet(ksp, &a));
  if (a && a->active) PetscCall(KSPAutoBCGSViewChoice(a, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   KSPAutoBCGSGetChoice - The solver a `KSPAUTOBCGS` chose at its last setup, and the prediction of every candidate

   Not Collective

   Input Parameter:
.  ksp - the `KSP` of type `KSPAUTOBCGS`, set up

   Output Parameters:
+  choice     - the type, s and basis chosen (s = 0 for the types without s) and its predicted time per iteration in seconds (or `NULL`)
.  n          - the number of candidates (or `NULL`)
.  candidates - each candidate's type, s, basis and predicted time per iteration, in the order of `-ksp_view` (or `NULL`; owned by the `KSP`)
-  nchoices   - how many choices this `KSP` has made: one per operator (or `NULL`)

   Level: intermediate

.seealso: `KSPAUTOBCGS`, `KSPAutoBCGSChoice`, `KSPSetUp()`
@*/
PetscErrorCode KSPAutoBCGSGetChoice(KSP ksp, KSPAutoBCGSChoice *choice, PetscInt *n, const KSPAutoBCGSChoice **candidates, PetscInt *nchoices)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscUseMethod(ksp, "KSPAutoBCGSGetChoice_C", (KSP, KSPAutoBCGSChoice *, PetscInt *, const KSPAutoBCGSChoice **, PetscInt *), (ksp, choice, n, candidates, nchoices));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPAUTOBCGS - "autobcgs": the BiCGStab variant of this library (`KSPBCGSM`, `KSPRBICGSTAB`, `KSPPIPEBCGSM`,
   `KSPCABICGSTAB` with s and basis) that is fastest on this machine for this operator, preconditioner and number of
   ranks, chosen at `KSPSetUp()` from measured costs

   Options Database Keys:
+  -ksp_autobcgs_candidates <bcgsm,rbicgstab,pipebcgsm,cabicgstab> - the types to choose from (default: all)
.  -ksp_autobcgs_s_max <16> - the largest s of a `KSPCABICGSTAB` candidate, 2 .. 16 (s in 2, 4, 6, 8, 10, 12, 16; the
                             monomial basis to s = 4, Chebyshev beyond, as the s-study supports;
                             Chebyshev at every s on an interval given by `KSPAutoBCGSSetSpectrum()`)
.  -ksp_autobcgs_model <measured,krasnopolsky> - the reduction times measured here, or Krasnopolsky's eqs. (10)-(11) for
                             a machine of p nodes (the compute still measured here): planning for a machine without it
.  -ksp_autobcgs_nodes <p> - that p (default 1)
.  -ksp_autobcgs_model_c0, _c1, _n0, _n1 - the model's constants (default eq. (11): 3.5e-6, 1.7e-6, 0.21, 0.54)
.  -ksp_autobcgs_gamma <g> - the exposed fraction of a non-blocking reduction while computing (default: measured;
                             1, no overlap, with the model)
.  -ksp_autobcgs_iterations <100> - the iterations expected per solve and per operator: a cabicgstab candidate's
                             outer iterations follow from them (with telescoping s_k = 1, 2, 4, ... up to s, and the
                             last one whole), and a Chebyshev candidate's one spectrum estimate is spread over them
-  -ksp_autobcgs_view - print the costs, the predictions and the choice at setup (`-ksp_view` prints them too)

   Notes:
   At `KSPSetUp()`, and again when the operator's nonzero pattern, type or sizes, the PC side or the PC type change
   (another Mat of the same pattern keeps the costs measured; never per solve), the KSP measures on
   its own communicator, with its operator and preconditioner: one `PCApply()`, one `MatMult()`, a vector pass of
   4 streams (the lesser of 2 rounds, on a pool of 6 vectors) and a fused one of 9 (pipebcgsm's width, charged to its
   vector streams), the local GEMMs of cabicgstab's Gram matrix and rebuild on up to 1024
   rows (measured once per process and sample size), a reduction of 8 bytes (the best of 3, the first non-blocking) and of s = 4's Gram matrix (once; other sizes by the power law
   through the two, eq. (10)'s form), where an 8-byte reduction costs under 20 us on every rank also the Gram matrix
   again (the lesser), the 8-byte reduction once more and the 8-byte `MPI_Iallreduce()` with its wait twice (the lesser:
   what it costs beyond `MPI_Allreduce()` is charged to each non-blocking reduction of rbicgstab and pipebcgsm), and whether an `MPI_Iallreduce()` progresses during a third round's `MatMult()` (gamma: the wait for it
   after that `MatMult()` over the reduction's time); every value
   the maximum over the ranks: 6 or 10 reductions (2 where an earlier `KSPAUTOBCGS` on the communicator timed them) and 3
   operator applications in all, the last overlapped. Each type predicts its time per iteration from these with the
   model written beside its code (Krasnopolsky's eqs. (12)-(19) in this library's counts; for `KSPCABICGSTAB` the
   4 s - 1 operator applications, 16 s + 1 vector passes (monomial 8 s + 5), the Gram GEMM, the rebuild GEMM of 3 columns, one reduction of the Gram
   size per s iterations, and a Chebyshev
   basis's spectrum estimate, 2 s GMRES steps with their Gram-Schmidt passes, spread over -ksp_autobcgs_iterations). The fastest prediction is chosen, and the KSP then is that
   solver: the chosen type's constructor runs on it, so its iterates, monitors, reasons, iteration counts,
   `KSPMatSolve()` and type-specific functions (`KSPCABiCGStabGetStatistics()`, ...) are those of that type chosen by
   hand with the same s and basis. `KSPGetType()` still says autobcgs; `KSPAutoBCGSGetChoice()` says what it chose.

   The default is right preconditioning with the unpreconditioned norm, which every candidate supports (with
   `-ksp_pc_side left` only `KSPBCGSM` and `KSPCABICGSTAB` are candidates). So with default settings autobcgs is
   bitwise `-ksp_type bcgsm -ksp_pc_side right` when it chooses bcgsm (bcgsm's own default is left). Options of the
   chosen type (`-ksp_cabicgstab_telescope`, ...) apply when the program calls `KSPSetFromOptions()`, except s and basis,
   which are the choice.

   The model predicts time per iteration, not per solve: the variants' iteration counts differ by rounding, and a
   Chebyshev basis may take a few more. Under the latency simulator of `share/bench/cakpmpi` the measured reductions are
   the simulated ones, so the choice follows the simulated machine.

   References:
.  * - B. Krasnopolsky, Revisiting performance of BiCGStab methods for solving systems with multiple right-hand sides,
   Computers and Mathematics with Applications 79 (2020), section 3.

   Level: intermediate

.seealso: `KSPCreate()`, `KSPSetType()`, `KSPAutoBCGSGetChoice()`, `KSPAutoBCGSChoiceView()`, `KSPAutoBCGSSetSpectrum()`, `KSPAutoBCGSSetIterations()`, `KSPBCGSM`, `KSPRBICGSTAB`, `KSPPIPEBCGSM`, `KSPCABICGSTAB`
M*/
PetscErrorCode KSPCreate_AutoBCGS(KSP ksp)
{
  KSP_AutoBCGS  *a;
  PetscContainer container;

  PetscFunctionBegin;
  PetscCall(PetscNew(&a));
  for (PetscInt t = 0; t < AUTOBCGS_NTYPES; t++) a->use[t] = PETSC_TRUE;
  a->smax    = 16;
  a->nodes   = 1;
  a->C[0]    = 3.5e-6; /* eq. (11) */
  a->C[1]    = 1.7e-6;
  a->C[2]    = 0.21;
  a->C[3]    = 0.54;
  a->gamma   = -1;
  a->est_its = 100;
  PetscCall(PetscContainerCreate(PetscObjectComm((PetscObject)ksp), &container));
  PetscCall(PetscContainerSetPointer(container, a));
  PetscCall(CAKrylovContainerSetFree(container));
  PetscCall(PetscObjectCompose((PetscObject)ksp, "KSPAutoBCGS", (PetscObject)container));
  PetscCall(PetscContainerDestroy(&container));
  /* the union of the candidates' norms, right preconditioning first: every candidate supports it */
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_RIGHT, 3));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_PRECONDITIONED, PC_LEFT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_RIGHT, 1));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_LEFT, 1));
  KSPAutoBCGSSetOps(ksp);
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPAutoBCGSGetChoice_C", KSPAutoBCGSGetChoice_AutoBCGS));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPAutoBCGSSetSpectrum_C", KSPAutoBCGSSetSpectrum_AutoBCGS));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPAutoBCGSSetIterations_C", KSPAutoBCGSSetIterations_AutoBCGS));
  PetscFunctionReturn(PETSC_SUCCESS);
}
