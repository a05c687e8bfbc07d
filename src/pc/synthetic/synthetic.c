/*
   PCSYNTHETIC: the identity preconditioner at a chosen memory cost (Krasnopolsky §4): alpha vector reads+writes
   per application, made of real vector passes over the local arrays, progressing an in-flight reduction of the
   calling solver between chunks (CAKrylovProgressPoll(), include/cakrylov/private/progress.h).

   The passes, for y = M^{-1} x = x (local length n, chunks of CAKRYLOV_PC_SYNTHETIC_CHUNK entries):
     alpha odd:  one pass y = 0            1 access (a write of y)
     alpha/2 x   a pass   y = x            2 accesses (a read of x, a write of y)
   so alpha = (alpha mod 2) + 2 floor(alpha / 2) accesses, and y ends as a plain copy of x: bitwise x, whatever x
   holds (NaN payloads, signed zeros, subnormals under any floating-point mode: the entries move as integer words,
   no floating-point arithmetic touches them).
   Each pass walks the whole vectors (passes outer, chunks inner), so from one pass to the next the data comes
   from wherever a vector of that size lives (memory for large vectors, as in the paper's model). The passes are
   separated by the calls of CAKrylovProgressPoll() after every chunk, which the compiler cannot see through,
   so none is merged away.
*/
#include <cakrylov/private/cakrylovimpl.h>
#include <petsc/private/pcimpl.h>

#define CAKRYLOV_PC_SYNTHETIC_CHUNK 128 /* entries, the chunk of src/vec/fused.c */

/* The entries are moved as machine words of the scalar's size or a divisor of it, never as floating-point numbers */
#if !defined(PETSC_USE_COMPLEX) && defined(PETSC_USE_REAL___FP16)
typedef uint16_t PCSyntheticWord;
#elif !defined(PETSC_USE_COMPLEX) && defined(PETSC_USE_REAL_SINGLE)
typedef uint32_t PCSyntheticWord;
#else
typedef uint64_t PCSyntheticWord;
#endif
typedef char PCSyntheticWordDividesScalar[sizeof(PetscScalar) % sizeof(PCSyntheticWord) == 0 ? 1 : -1];
#define CAKRYLOV_PC_SYNTHETIC_WORDS (CAKRYLOV_PC_SYNTHETIC_CHUNK * (PetscInt)(sizeof(PetscScalar) / sizeof(PCSyntheticWord)))

typedef struct {
  PetscInt        alpha;        /* vector reads+writes per application, >= 2 */
  PetscBool       fallback;     /* -cakrylov_vec_fallback: PETSc Vec operations also for VECSEQ/VECMPI */
  PetscInt        applications; /* applications since creation (apply and apply-transpose), shown by PCView() */
  PCSyntheticWord zero;         /* always 0, but unknown to the compiler: see PCSyntheticPassCopy() */
} PC_Synthetic;

/* y[0..n) = +0: a write-only pass (the word zero, stored in a loop: see below) */
static PetscErrorCode PCSyntheticPassZero(PetscInt n, PetscScalar *y, PCSyntheticWord zero)
{
  const PetscInt nw = n * (PetscInt)(sizeof(PetscScalar) / sizeof(PCSyntheticWord));

  PetscFunctionBegin;
  for (PetscInt start = 0; start < nw; start += CAKRYLOV_PC_SYNTHETIC_WORDS) {
    const PetscInt       len = PetscMin(CAKRYLOV_PC_SYNTHETIC_WORDS, nw - start);
    char *PETSC_RESTRICT yc  = (char *)y + sizeof(PCSyntheticWord) * (size_t)start;

    if (len == CAKRYLOV_PC_SYNTHETIC_WORDS) { /* constant trip count: vectorised without an epilogue */
      for (size_t i = 0; i < (size_t)CAKRYLOV_PC_SYNTHETIC_WORDS; i++) memcpy(yc + sizeof(PCSyntheticWord) * i, &zero, sizeof(PCSyntheticWord));
    } else {
      for (size_t i = 0; i < (size_t)len; i++) memcpy(yc + sizeof(PCSyntheticWord) * i, &zero, sizeof(PCSyntheticWord));
    }
    PetscCall(CAKrylovProgressPoll()); /* a chunk boundary: progress a reduction in flight, if asked */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  y[0..n) = x[0..n): a read of x and a write of y, as words XORed with zero. The XOR with a zero the compiler cannot
  see keeps it from turning the chunk loop into a call of memcpy() (and the zeroing into memset()): on the development
  machine (AMD EPYC, glibc, 4M entries) a memcpy() call per 1 KiB chunk took 2.0 ms per pass against 1.4 ms for this
  loop (as fast as one VecCopy() of the whole vector), and a memset() call per chunk 2.0 ms against 0.9 ms. XOR with 0
  changes no bit. (The words go through memcpy() of one word, which compilers turn into plain loads and stores, so no
  type is accessed as another.)
*/
static PetscErrorCode PCSyntheticPassCopy(PetscInt n, const PetscScalar *x, PetscScalar *y, PCSyntheticWord zero)
{
  const PetscInt nw = n * (PetscInt)(sizeof(PetscScalar) / sizeof(PCSyntheticWord));

  PetscFunctionBegin;
  for (PetscInt start = 0; start < nw; start += CAKRYLOV_PC_SYNTHETIC_WORDS) {
    const PetscInt             len = PetscMin(CAKRYLOV_PC_SYNTHETIC_WORDS, nw - start);
    const char *PETSC_RESTRICT xc  = (const char *)x + sizeof(PCSyntheticWord) * (size_t)start;
    char *PETSC_RESTRICT       yc  = (char *)y + sizeof(PCSyntheticWord) * (size_t)start;

    if (len == CAKRYLOV_PC_SYNTHETIC_WORDS) {
      for (size_t i = 0; i < (size_t)CAKRYLOV_PC_SYNTHETIC_WORDS; i++) {
        PCSyntheticWord w;

        memcpy(&w, xc + sizeof(PCSyntheticWord) * i, sizeof(PCSyntheticWord));
        w ^= zero;
        memcpy(yc + sizeof(PCSyntheticWord) * i, &w, sizeof(PCSyntheticWord));
      }
    } else {
      for (size_t i = 0; i < (size_t)len; i++) {
        PCSyntheticWord w;

        memcpy(&w, xc + sizeof(PCSyntheticWord) * i, sizeof(PCSyntheticWord));
        w ^= zero;
        memcpy(yc + sizeof(PCSyntheticWord) * i, &w, sizeof(PCSyntheticWord));
      }
    }
    PetscCall(CAKrylovProgressPoll());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_Synthetic(PC pc, Vec x, Vec y)
{
  PC_Synthetic *syn = (PC_Synthetic *)pc->data;
  PetscBool     xstd, ystd;

  PetscFunctionBegin;
  syn->applications++;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)x, &xstd, VECSEQ, VECMPI, ""));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)y, &ystd, VECSEQ, VECMPI, ""));
  if (xstd && ystd && !syn->fallback) {
    const PetscScalar *xa;
    PetscScalar       *ya;
    PetscInt           n, ny;

    PetscCall(VecGetLocalSize(x, &n));
    PetscCall(VecGetLocalSize(y, &ny));
    PetscCheck(n == ny, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "PCSYNTHETIC: local lengths of x and y differ: %" PetscInt_FMT " != %" PetscInt_FMT, n, ny);
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecGetArrayWrite(y, &ya)); /* no pass reads y */
    if (syn->alpha % 2) PetscCall(PCSyntheticPassZero(n, ya, syn->zero));
    for (PetscInt k = 0; k < syn->alpha / 2; k++) PetscCall(PCSyntheticPassCopy(n, xa, ya, syn->zero));
    PetscCall(VecRestoreArrayWrite(y, &ya)); /* increases y's object state */
    PetscCall(VecRestoreArrayRead(x, &xa));
  } else { /* any other Vec type: the same passes through PETSc's Vec operations (no progression inside them) */
    if (syn->alpha % 2) {
      PetscCall(VecSet(y, 0.0));
      PetscCall(CAKrylovProgressPoll());
    }
    for (PetscInt k = 0; k < syn->alpha / 2; k++) {
      PetscCall(VecCopy(x, y));
      PetscCall(CAKrylovProgressPoll()); /* between the operations */
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_Synthetic(PC pc, PetscViewer viewer)
{
  PC_Synthetic *syn = (PC_Synthetic *)pc->data;
  PetscBool     isascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  identity at complexity alpha = %" PetscInt_FMT " vector reads+writes per application: %" PetscInt_FMT " cop%s of x into y%s\n", syn->alpha, syn->alpha / 2, syn->alpha / 2 == 1 ? "y" : "ies", syn->alpha % 2 ? " after one write y = 0" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  applications: %" PetscInt_FMT "\n", syn->applications));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_Synthetic(PC pc, CAKrylovOptionItems PetscOptionsObject)
{
  PC_Synthetic *syn   = (PC_Synthetic *)pc->data;
  PetscInt      alpha = syn->alpha;
  PetscBool     flg;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "PC synthetic options");
  PetscCall(PetscOptionsInt("-pc_synthetic_complexity", "Vector reads+writes per application of the identity (>= 2)", "PCSyntheticSetComplexity", alpha, &alpha, &flg));
  if (flg) PetscCall(PCSyntheticSetComplexity(pc, alpha));
  PetscOptionsHeadEnd();
  /* the library's testing switch (see src/vec/fused.c): the portable path also for VECSEQ/VECMPI */
  PetscCall(CAKrylovVecFusedGetFallback((PetscObject)pc, &syn->fallback));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSyntheticSetComplexity_Synthetic(PC pc, PetscInt alpha)
{
  PetscFunctionBegin;
  PetscCheck(alpha >= 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCSYNTHETIC complexity alpha = %" PetscInt_FMT " is out of range: alpha >= 2 (an application reads x and writes y)", alpha);
  ((PC_Synthetic *)pc->data)->alpha = alpha;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSyntheticGetComplexity_Synthetic(PC pc, PetscInt *alpha)
{
  PetscFunctionBegin;
  *alpha = ((PC_Synthetic *)pc->data)->alpha;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_Synthetic(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSyntheticSetComplexity_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSyntheticGetComplexity_C", NULL));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSyntheticSetComplexity - Sets alpha, the vector reads+writes that one application of `PCSYNTHETIC` makes

  Logically Collective

  Input Parameters:
+ pc    - the preconditioner
- alpha - vector reads+writes per application, alpha >= 2 (default 2: one copy of x into y)

  Options Database Key:
. -pc_synthetic_complexity <alpha> - set alpha

  Notes:
  The application is y = x, made of floor(alpha/2) passes y = x (a read and a write each) and, for odd alpha, one
  pass y = 0 before them (a write). alpha = 2 costs what `PCNONE` costs; Krasnopolsky (§4) uses 2, 20 and 50.
  Does nothing if the preconditioner is not `PCSYNTHETIC`.

  Level: advanced

.seealso: `PCSYNTHETIC`, `PCSyntheticGetComplexity()`
@*/
PetscErrorCode PCSyntheticSetComplexity(PC pc, PetscInt alpha)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, alpha, 2);
  PetscTryMethod(pc, "PCSyntheticSetComplexity_C", (PC, PetscInt), (pc, alpha));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSyntheticGetComplexity - Gets alpha, the vector reads+writes that one application of `PCSYNTHETIC` makes

  Not Collective

  Input Parameter:
. pc - the preconditioner

  Output Parameter:
. alpha - vector reads+writes per application

  Level: advanced

.seealso: `PCSYNTHETIC`, `PCSyntheticSetComplexity()`
@*/
PetscErrorCode PCSyntheticGetComplexity(PC pc, PetscInt *alpha)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(alpha, 2);
  PetscUseMethod(pc, "PCSyntheticGetComplexity_C", (PC, PetscInt *), (pc, alpha));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   PCSYNTHETIC - the identity preconditioner at a configurable memory cost: y = x, moving alpha vectors per application,
   and progressing an in-flight non-blocking reduction of the calling solver while it works

   Options Database Keys:
+  -pc_synthetic_complexity <2> - alpha, the vector reads+writes per application (alpha >= 2)
-  -cakrylov_vec_fallback       - testing: make the passes with PETSc's `VecSet()`/`VecCopy()` also for `VECSEQ`/`VECMPI`

   Level: advanced

   Notes:
   A test and benchmark double for an expensive preconditioner, after Krasnopolsky's §4, which emulates
   preconditioners of complexity alpha = 2, 20 and 50 vector reads/writes to study when hiding global reductions
   behind the preconditioner pays. The iterates of a Krylov method are those of `PCNONE`: the result is bitwise x.

   How the alpha accesses are made, on the local arrays of `VECSEQ`/`VECMPI` vectors in chunks of 128 entries:
   for odd alpha, first one pass y = 0 (one write); then floor(alpha/2) passes y = x (a read of x and a write of y).
   alpha = 2 is one copy, as `PCNONE`; alpha = 3 is a zeroing and a copy; alpha = 20 is ten copies. Every pass walks
   the whole local vectors, so large vectors stream from memory alpha times. No arithmetic touches the entries:
   y is bitwise x (NaN payloads and signed zeros included). Flops logged: none; the time is in the `PCApply` event.

   After every chunk the preconditioner calls the library's progression poll: when a solver of this library has a
   reduction in flight and asked for progression (`MPI_Test` at chunk boundaries), this is where it happens, as in
   the paper's benchmark, which calls `MPI_Test` after each of its emulated vector operations. Otherwise the poll
   does nothing.

   Other vector types get the same passes through `VecSet()` and `VecCopy()` (the progression poll between the
   copies). The transpose application is the same as the application. `PCView()` shows alpha and the number of
   applications made so far (both applications and transpose applications count).

   References:
.  * - B. Krasnopolsky, Revisiting performance of BiCGStab methods for solving systems with multiple right-hand
   sides, Computers and Mathematics with Applications 79 (2020), §4 (Figures 7, 11, 12) and Appendix C.

.seealso: `PCCreate()`, `PCSetType()`, `PCNONE`, `PCSyntheticSetComplexity()`, `PCSyntheticGetComplexity()`,
          `CAKrylovInitializePackage()`
M*/
PetscErrorCode PCCreate_Synthetic(PC pc)
{
  PC_Synthetic *syn;

  PetscFunctionBegin;
  PetscCall(PetscNew(&syn));
  syn->alpha = 2;
  pc->data   = (void *)syn;

  pc->ops->apply          = PCApply_Synthetic;
  pc->ops->applytranspose = PCApply_Synthetic;
  pc->ops->setfromoptions = PCSetFromOptions_Synthetic;
  pc->ops->view           = PCView_Synthetic;
  pc->ops->destroy        = PCDestroy_Synthetic;

  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSyntheticSetComplexity_C", PCSyntheticSetComplexity_Synthetic));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSyntheticGetComplexity_C", PCSyntheticGetComplexity_Synthetic));
  PetscFunctionReturn(PETSC_SUCCESS);
}
