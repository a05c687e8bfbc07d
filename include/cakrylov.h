/*
   cakrylov: communication-avoiding and communication-hiding BiCGStab solvers for PETSc.

   Use it from any PETSc program without recompiling:
     ./app -dll_append /path/lib/libcakrylov.so -ksp_type cabicgstab
   or link -lcakrylov and call CAKrylovInitializePackage() after PetscInitialize().
*/
#pragma once

#include <petscksp.h>

#define CAKRYLOV_VERSION_MAJOR  0
#define CAKRYLOV_VERSION_MINOR  1
#define CAKRYLOV_VERSION_STRING "0.1.0"

/* Every public symbol of the library is exported with this (PETSc's own export attribute). */
#if defined(__cplusplus)
  #define CAKRYLOV_EXTERN extern "C" PETSC_DLLEXPORT
#else
  #define CAKRYLOV_EXTERN extern PETSC_DLLEXPORT
#endif

/* KSP types provided by this library (registered by CAKrylovInitializePackage()). */
#define KSPCABICGSTAB "cabicgstab"
#define KSPRBICGSTAB  "rbicgstab"
#define KSPPIPEBCGSM  "pipebcgsm"
#define KSPBCGSM      "bcgsm"
#define KSPAUTOBCGS   "autobcgs"

CAKRYLOV_EXTERN PetscErrorCode CAKrylovInitializePackage(void);

/* KSPCABICGSTAB: s-step BiCGStab */
/*E
   KSPCABiCGStabBasis - polynomial basis of the Krylov subspaces built by `KSPCABICGSTAB`

   Values:
.  `KSP_CABICGSTAB_BASIS_MONOMIAL`  - [v, Av, A^2 v, ...]; no setup, stable for small s (about s <= 4)
.  `KSP_CABICGSTAB_BASIS_NEWTON`    - [v, (A - theta_0) v, (A - theta_1)(A - theta_0) v, ...] with Leja-ordered shifts
                                      theta_j from the spectrum of the preconditioned operator
-  `KSP_CABICGSTAB_BASIS_CHEBYSHEV` - Chebyshev polynomials of an interval [lmin, lmax] of that spectrum

   Level: intermediate

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabSetBasis()`, `KSPCABiCGStabGetBasis()`
E*/
typedef enum {
  KSP_CABICGSTAB_BASIS_MONOMIAL,
  KSP_CABICGSTAB_BASIS_NEWTON,
  KSP_CABICGSTAB_BASIS_CHEBYSHEV
} KSPCABiCGStabBasis;
CAKRYLOV_EXTERN const char *const KSPCABiCGStabBases[];

CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabSetS(KSP, PetscInt);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabGetS(KSP, PetscInt *);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabSetBasis(KSP, KSPCABiCGStabBasis);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabGetBasis(KSP, KSPCABiCGStabBasis *);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabSetTelescope(KSP, PetscBool);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabGetTelescope(KSP, PetscBool *);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabSetSymmetricGram(KSP, PetscBool);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabGetSymmetricGram(KSP, PetscBool *);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabSetSpectrum(KSP, PetscReal, PetscReal);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabGetSpectrum(KSP, PetscReal *, PetscReal *, PetscReal *);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabSetResidualReplacement(KSP, PetscBool);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabGetResidualReplacement(KSP, PetscBool *);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabSetPaired(KSP, PetscBool);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabGetPaired(KSP, PetscBool *);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabSetAdaptiveS(KSP, PetscBool);
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabGetAdaptiveS(KSP, PetscBool *);

/*S
   KSPCABiCGStabStatistics - what the solves of a `KSPCABICGSTAB` did, summed over all its solves

   Fields:
+  solves              - calls of `KSPSolve()` and block solves of `KSPMatSolve()` (a block counts as one solve, its
                         outer rounds as outer iterations, its reductions once; the other counts sum over its columns)
.  outer               - outer iterations (Gram matrices)
.  inner               - inner (BiCGStab) iterations
.  reductions          - global reductions in the solves: one per outer iteration and one per check (the spectrum
                         estimates not included)
.  early_ends          - outer iterations ended early after an iteration whose q = r - alpha Â p the Gram matrix could
                         not resolve (p and r rebuilt and measured afresh)
.  half_steps          - of them, those that ended at the half step x + alpha p (q below the tolerance)
.  restarts            - full restarts p = rt = r: after a half step, or at (rt, r) = 0 exactly
.  replacements        - residual replacements r = b - A x (by the drift criterion, or after a failed check)
.  checks              - convergence claims checked against b - A x
.  checks_failed       - of them, those that failed (the solve went on by residual replacement)
.  s_lowered, s_raised - adaptive s: times s_k was halved or doubled again
.  s_min               - the smallest s_k adaptive s allowed (s if it never lowered s_k; 0 before the first solve)
.  estimates           - spectrum estimates (Newton, Chebyshev bases without a given interval)
-  estimate_reductions - global reductions the estimates issued

   Level: advanced

.seealso: `KSPCABICGSTAB`, `KSPCABiCGStabGetStatistics()`
S*/
typedef struct {
  PetscInt solves, outer, inner, reductions;
  PetscInt early_ends, half_steps, restarts, replacements, checks, checks_failed;
  PetscInt s_lowered, s_raised, s_min;
  PetscInt estimates, estimate_reductions;
} KSPCABiCGStabStatistics;
CAKRYLOV_EXTERN PetscErrorCode KSPCABiCGStabGetStatistics(KSP, KSPCABiCGStabStatistics *);

/*S
   KSPAutoBCGSChoice - a candidate of `KSPAUTOBCGS`: a type of this library, with s and basis for `KSPCABICGSTAB`, and
   its predicted time per iteration on this machine

   Fields:
+  type  - `KSPBCGSM`, `KSPRBICGSTAB`, `KSPPIPEBCGSM` or `KSPCABICGSTAB`
.  s     - the s of `KSPCABICGSTAB` (0 for the others)
.  basis - its basis
-  time  - the predicted time per iteration in seconds

   Level: intermediate

.seealso: `KSPAUTOBCGS`, `KSPAutoBCGSGetChoice()`
S*/
typedef struct {
  KSPType            type;
  PetscInt           s;
  KSPCABiCGStabBasis basis;
  PetscReal          time;
} KSPAutoBCGSChoice;
CAKRYLOV_EXTERN PetscErrorCode KSPAutoBCGSGetChoice(KSP, KSPAutoBCGSChoice *, PetscInt *, const KSPAutoBCGSChoice **, PetscInt *);
CAKRYLOV_EXTERN PetscErrorCode KSPAutoBCGSSetSpectrum(KSP, PetscReal, PetscReal);
CAKRYLOV_EXTERN PetscErrorCode KSPAutoBCGSSetIterations(KSP, PetscReal);
CAKRYLOV_EXTERN PetscErrorCode KSPAutoBCGSChoiceView(KSP, PetscViewer);

/*E
   CAKrylovProgressType - how `KSPRBICGSTAB` and `KSPPIPEBCGSM` help their non-blocking reductions progress while
   the work that hides them runs

   Values:
+  `CAKRYLOV_PROGRESS_NONE` - start the reduction, do the work, wait: the MPI library alone decides whether it progresses
-  `CAKRYLOV_PROGRESS_TEST` - manual progression: about n `MPI_Test` calls on the reduction at chunk boundaries of the
                              work this library controls (fused vector kernels, the SpMV of AIJ matrices, `PCJACOBI`,
                              `PCSYNTHETIC`)

   Level: intermediate

.seealso: `KSPRBiCGStabSetProgress()`, `KSPPIPEBCGSMSetProgress()`
E*/
typedef enum {
  CAKRYLOV_PROGRESS_NONE,
  CAKRYLOV_PROGRESS_TEST
} CAKrylovProgressType;
CAKRYLOV_EXTERN const char *const CAKrylovProgressTypes[];

/* KSPRBICGSTAB: reordered BiCGStab, its reductions hidden behind the preconditioner */
CAKRYLOV_EXTERN PetscErrorCode KSPRBiCGStabSetProgress(KSP, CAKrylovProgressType, PetscInt);
CAKRYLOV_EXTERN PetscErrorCode KSPRBiCGStabGetProgress(KSP, CAKrylovProgressType *, PetscInt *);

/* KSPPIPEBCGSM: pipelined BiCGStab with merged vector operations */
CAKRYLOV_EXTERN PetscErrorCode KSPPIPEBCGSMSetReplacementPeriod(KSP, PetscInt);
CAKRYLOV_EXTERN PetscErrorCode KSPPIPEBCGSMGetReplacementPeriod(KSP, PetscInt *);
CAKRYLOV_EXTERN PetscErrorCode KSPPIPEBCGSMSetProgress(KSP, CAKrylovProgressType, PetscInt);
CAKRYLOV_EXTERN PetscErrorCode KSPPIPEBCGSMGetProgress(KSP, CAKrylovProgressType *, PetscInt *);

/* KSPMatSolve() of the types with a block solver (KSPBCGSM, KSPPIPEBCGSM, KSPRBICGSTAB, KSPCABICGSTAB): how each column of the last block ended */
CAKRYLOV_EXTERN PetscErrorCode CAKrylovKSPGetMatSolveConvergedReasons(KSP, PetscInt *, const KSPConvergedReason *[], const PetscInt *[]);

/*E
   CAKrylovMatSolveLayout - how the block solvers of `KSPMatSolve()` (`KSPBCGSM`, `KSPPIPEBCGSM`, `KSPRBICGSTAB`) store
   their m columns

   Values:
+  `CAKRYLOV_MATSOLVE_LAYOUT_AUTO`        - for more than one column with the identity or `PCJACOBI`, the layout
                                            measured the faster for the operator at its first block solve (`-ksp_view`
                                            shows it); dense otherwise
.  `CAKRYLOV_MATSOLVE_LAYOUT_DENSE`       - column-major blocks: the operator is one AIJ x dense `MatProductNumeric()`,
                                            the preconditioner one `PCMatApply()`; columns that end leave the block
-  `CAKRYLOV_MATSOLVE_LAYOUT_INTERLEAVED` - row-wise blocks (the m values of a row side by side): the operator is one
                                            interleaved SpMV (one pass over the matrix for all m columns, per column
                                            the bits of `MatMult()` of `MatCreateMAIJ()`), `PCJACOBI` one fused pass, every vector pass one sweep over the
                                            rows for all columns; columns that end stay in place, untouched

   Level: intermediate

.seealso: `CAKrylovKSPSetMatSolveLayout()`, `KSPMatSolve()`, `MatCreateMAIJ()`
E*/
typedef enum {
  CAKRYLOV_MATSOLVE_LAYOUT_AUTO,
  CAKRYLOV_MATSOLVE_LAYOUT_DENSE,
  CAKRYLOV_MATSOLVE_LAYOUT_INTERLEAVED
} CAKrylovMatSolveLayout;
CAKRYLOV_EXTERN const char *const CAKrylovMatSolveLayouts[];
CAKRYLOV_EXTERN PetscErrorCode    CAKrylovKSPSetMatSolveLayout(KSP, CAKrylovMatSolveLayout);
CAKRYLOV_EXTERN PetscErrorCode    CAKrylovKSPGetMatSolveLayout(KSP, CAKrylovMatSolveLayout *);

/* PCMG bottom-solver hook: a Krylov method with a bottom-solve policy on the coarsest level of PCMG */
/*S
   PCMGBottomReport - what the bottom (coarsest-level) solves of a `PCMG` cost, collected by the cakrylov hook

   Fields:
+  vcycles    - applications of the `PCMG` preconditioner (one cycle each, V or W)
.  solves     - bottom solves
.  iterations - Krylov iterations of all bottom solves
.  reductions - global reductions (`MPI_Allreduce` and, from this library's solvers, `MPI_Iallreduce`) issued inside the bottom solves
.  bottomtime - seconds spent in the bottom solves
.  mgtime     - seconds spent in the `PCMG` applications (the bottom solves included)
.  mgreductions - global reductions (counted as `reductions`) issued inside the `PCMG` applications, the bottom solves
                  included: the difference is what the smoothers, the grid transfers and the cycles' own norms issue
.  halo       - halo messages received inside the bottom solves: the point-to-point receives PETSc posts (its `VecScatter`
                exchanges of each operator application, one message per neighbour rank), counted by PETSc's logging
                (`petsc_irecv_ct` + `petsc_recv_ct`; 0 when PETSc is built without logging)
-  mghalo     - halo messages received inside the `PCMG` applications, the bottom solves included

   Level: intermediate

.seealso: `PCMGGetBottomReport()`, `PCMGBottomReportView()`, `PCMGSetBottomSolver()`
S*/
typedef struct {
  PetscInt       vcycles;
  PetscInt       solves;
  PetscInt       iterations;
  PetscLogDouble reductions;
  PetscLogDouble bottomtime;
  PetscLogDouble mgtime;
  PetscLogDouble mgreductions;
  PetscLogDouble halo;
  PetscLogDouble mghalo;
} PCMGBottomReport;

CAKRYLOV_EXTERN PetscErrorCode PCMGSetBottomSolver(PC, KSPType);
CAKRYLOV_EXTERN PetscErrorCode PCMGSetBottomTolerances(PC, PetscReal, PetscInt);
CAKRYLOV_EXTERN PetscErrorCode PCMGSetBottomAgglomeration(PC, PetscInt);
CAKRYLOV_EXTERN PetscErrorCode PCMGSetBottomTelescope(PC, PetscInt); /* deprecated (0.2): PCMGSetBottomAgglomeration() */
CAKRYLOV_EXTERN PetscErrorCode PCMGGetBottomReport(PC, PCMGBottomReport *);
CAKRYLOV_EXTERN PetscErrorCode PCMGBottomReportView(PC, PetscViewer);
CAKRYLOV_EXTERN PetscErrorCode PCMGBottomReportReset(PC);

/* PCSYNTHETIC: the identity at a configurable cost of alpha vector reads+writes per application (a test and
   benchmark double for an expensive preconditioner that progresses in-flight reductions) */
#define PCSYNTHETIC "synthetic"
CAKRYLOV_EXTERN PetscErrorCode PCSyntheticSetComplexity(PC, PetscInt);
CAKRYLOV_EXTERN PetscErrorCode PCSyntheticGetComplexity(PC, PetscInt *);

/* PCCHEBYJACOBI: Chebyshev-accelerated Jacobi, one fused pass over the rows per iteration (a multigrid smoother) */
#define PCCHEBYJACOBI "chebyjacobi"
CAKRYLOV_EXTERN PetscErrorCode PCChebyJacobiSetEigenvalues(PC, PetscReal, PetscReal);
CAKRYLOV_EXTERN PetscErrorCode PCChebyJacobiGetEigenvalues(PC, PetscReal *, PetscReal *);
CAKRYLOV_EXTERN PetscErrorCode PCChebyJacobiSetIterations(PC, PetscInt);
