/*
   KSPPIPEBCGSM: pipelined BiCGStab with merged vector operations, Algorithm 7 (right preconditioning;
   Algorithm 4 with the identity) of Krasnopolsky, "Revisiting performance of BiCGStab methods for solving
   systems with multiple right-hand sides", Appendix B; the method is Cools and Vanroose's pipelined BiCGStab.

   Per iteration three fused passes over memory and two non-blocking reductions, each in flight while
   one preconditioner application and one SpMV run:
     A  (lines 4-5)  p^, s^, q^, s, z, q, y updated;  [theta, phi, pi] = [(q, y), (y, y), (q, q)]  -> reduction 1
                     z^ = M^{-1} z,  v = A z^                                                    (hides reduction 1)
     B  (line 13)    x += alpha p^ + omega q^,  r^ = q^ - omega (w^ - alpha z^)
     C  (line 14)    r = q - omega y,  w = y - omega (t - alpha v);
                     [rho, psi, sigma, delta, nu] = [(r, rt), (z, rt), (w, rt), (s, rt), (r, r)]  -> reduction 2
                     w^ = M^{-1} w,  t = A w^                                                    (hides reduction 2)
   With the identity preconditioner (PCNONE) the hatted vectors are the plain ones: nothing is copied,
   s^ and q^ are not updated and B only updates x (r^ = r comes from C).
*/
#include <cakrylov/private/bicgstabfamily.h>

/* The work vectors, by name (H: the hatted, preconditioned, vector) */
enum { W_R, W_RT, W_RH, W_W, W_WH, W_T, W_PH, W_SH, W_QH, W_S, W_Z, W_ZH, W_Q, W_Y, W_V, W_COUNT };

/* xh = M^{-1} x, y = A xh; with the identity preconditioner xh is x and only y = A x is computed */
static PetscErrorCode KSPPIPEBCGSMPrecMult(KSP ksp, Vec x, Vec xh, Vec y)
{
  KSP_BiCGStabFamily *pb = (KSP_BiCGStabFamily *)ksp->data;

  PetscFunctionBegin;
  if (!pb->identity) PetscCall(KSP_PCApply(ksp, x, xh));
  PetscCall(CAKrylovKSPMatMult(ksp, xh, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The same while the reduction *req is in flight (region kind of the iteration): progressed if asked */
static PetscErrorCode KSPPIPEBCGSMHiddenPrecMult(KSP ksp, PetscInt kind, MPI_Request *req, Vec x, Vec xh, Vec y)
{
  KSP_BiCGStabFamily    *pb = (KSP_BiCGStabFamily *)ksp->data;
  CAKrylovProgressRegion saved;

  PetscFunctionBegin;
  PetscCall(CAKrylovKSPProgressBegin(&pb->progress, kind, req, &saved));
  if (!pb->identity) PetscCall(CAKrylovKSPPCApply(ksp, &pb->progress, x, xh));
  PetscCall(CAKrylovKSPMatMultProgress(ksp, &pb->progress, xh, y));
  PetscCall(CAKrylovKSPProgressEnd(&pb->progress, kind, &saved));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Line 1-2 from the current x: r = b - A x, r^ = M^{-1} r, w = A r^, rt = r, [rho, (rt, w)] in one reduction
   hidden behind w^ = M^{-1} w, t = A w^. Starts the solve, and restarts it after an exact (rt, r) = 0.
*/
static PetscErrorCode KSPPIPEBCGSMStart(KSP ksp, PetscBool start, Vec *work, PetscScalar dot[2])
{
  KSP_BiCGStabFamily     *pb = (KSP_BiCGStabFamily *)ksp->data;
  MPI_Request             req;
  const CAKrylovVecUpdate u[]  = {{.y = work[W_RT], .a = {1.0}, .x = {work[W_R]}}}; /* rt = r */
  const Vec               dx[] = {work[W_R], work[W_W]}, dy[] = {work[W_R], work[W_R]};

  PetscFunctionBegin;
  PetscCall(KSPTrueResidual_BiCGStabFamily(ksp, start, work[W_R]));
  PetscCall(KSPPIPEBCGSMPrecMult(ksp, work[W_R], work[W_RH], work[W_W]));
  PetscCall(CAKrylovVecFused(1, u, 2, dx, dy, dot)); /* [(r, r), (w, r)] */
  PetscCall(CAKrylovReductionBegin(PetscObjectComm((PetscObject)ksp), 2, dot, &req));
  PetscCall(KSPPIPEBCGSMHiddenPrecMult(ksp, 1, &req, work[W_W], work[W_WH], work[W_T]));
  PetscCall(CAKrylovReductionEnd(&req));
  pb->nreductions++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Residual replacement (as in PETSc's KSPPIPEBCGS): the recurrence vectors recomputed from x and p^ */
static PetscErrorCode KSPPIPEBCGSMReplace(KSP ksp, Vec *work)
{
  KSP_BiCGStabFamily *pb = (KSP_BiCGStabFamily *)ksp->data;

  PetscFunctionBegin;
  PetscCall(KSPTrueResidual_BiCGStabFamily(ksp, PETSC_FALSE, work[W_R]));                 /* r = b - A x */
  PetscCall(KSPPIPEBCGSMPrecMult(ksp, work[W_R], work[W_RH], work[W_W]));           /* r^ = M^{-1} r, w = A r^ */
  PetscCall(KSPPIPEBCGSMPrecMult(ksp, work[W_W], work[W_WH], work[W_T]));           /* w^ = M^{-1} w, t = A w^ */
  PetscCall(CAKrylovKSPMatMult(ksp, work[W_PH], work[W_S]));                         /* s = A p^ */
  PetscCall(KSPPIPEBCGSMPrecMult(ksp, work[W_S], work[W_SH], work[W_Z]));           /* s^ = M^{-1} s, z = A s^ */
  PetscCall(KSPPIPEBCGSMPrecMult(ksp, work[W_Z], work[W_ZH], work[W_V]));           /* z^ = M^{-1} z, v = A z^ */
  pb->nreplacements++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSolve_PIPEBCGSM(KSP ksp)
{
  KSP_BiCGStabFamily *pb   = (KSP_BiCGStabFamily *)ksp->data;
  MPI_Comm            comm = PetscObjectComm((PetscObject)ksp);
  Vec                 w[W_COUNT], X = ksp->vec_sol;
  const PetscBool     wantnorm = ksp->normtype != KSP_NORM_NONE ? PETSC_TRUE : PETSC_FALSE;
  PetscBool           first    = PETSC_TRUE; /* the first iteration after a (re)start: no old directions */
  PetscScalar         rho, alpha, omega = 0.0, beta = 0.0, dot[5];
  MPI_Request         req;

  PetscFunctionBegin;
  PetscCall(KSPSolveBegin_BiCGStabFamily(ksp));
  for (PetscInt i = 0; i < W_COUNT; i++) w[i] = ksp->work[i];
  if (pb->identity) { /* M^{-1} = I: the hatted vectors are the plain ones (p^ stays: it is the direction p) */
    w[W_RH] = w[W_R];
    w[W_WH] = w[W_W];
    w[W_SH] = w[W_S];
    w[W_QH] = w[W_Q];
    w[W_ZH] = w[W_Z];
  }

  /* lines 1-2: r_0, r^_0, w_0, w^_0, t_0; rt = r_0, rho_0 = (r_0, r_0), alpha_0 = rho_0 / (r_0, w_0) */
  PetscCall(KSPPIPEBCGSMStart(ksp, PETSC_TRUE, w, dot));
  PetscCall(KSPInitialTest_BiCGStabFamily(ksp, dot[0]));
  if (ksp->reason) PetscFunctionReturn(PETSC_SUCCESS);
  rho = dot[0];
  PetscCall(CAKrylovKSPCheckCoefficient(ksp, dot[1], "(rt, A r)"));
  if (ksp->reason) PetscFunctionReturn(PETSC_SUCCESS);
  alpha = rho / dot[1];
  PetscCall(CAKrylovKSPCheckCoefficient(ksp, alpha, "alpha"));
  if (ksp->reason) PetscFunctionReturn(PETSC_SUCCESS);

  while (!ksp->reason) {
    { /* lines 4-5 (group A): the directions, q^, q, y, and [theta, phi, pi] = [(q, y), (y, y), (q, q)] */
      CAKrylovVecUpdate u[7];
      PetscInt          n    = 0;
      const Vec         dx[] = {w[W_Q], w[W_Y], w[W_Q]}, dy[] = {w[W_Y], w[W_Y], w[W_Q]};

      if (first) { /* p^ = r^, s^ = w^, s = w, z = t */
        u[n++] = (CAKrylovVecUpdate){.y = w[W_PH], .a = {1.0}, .x = {w[W_RH]}};
        if (!pb->identity) u[n++] = (CAKrylovVecUpdate){.y = w[W_SH], .a = {1.0}, .x = {w[W_WH]}};
        u[n++] = (CAKrylovVecUpdate){.y = w[W_S], .a = {1.0}, .x = {w[W_W]}};
        u[n++] = (CAKrylovVecUpdate){.y = w[W_Z], .a = {1.0}, .x = {w[W_T]}};
      } else { /* p^ = r^ + beta (p^ - omega s^), s^ = w^ + beta (s^ - omega z^), s = w + beta (s - omega z), z = t + beta (z - omega v) */
        u[n++] = (CAKrylovVecUpdate){.y = w[W_PH], .b = beta, .a = {1.0, -beta * omega}, .x = {w[W_RH], w[W_SH]}};
        if (!pb->identity) u[n++] = (CAKrylovVecUpdate){.y = w[W_SH], .b = beta, .a = {1.0, -beta * omega}, .x = {w[W_WH], w[W_ZH]}};
        u[n++] = (CAKrylovVecUpdate){.y = w[W_S], .b = beta, .a = {1.0, -beta * omega}, .x = {w[W_W], w[W_Z]}};
        u[n++] = (CAKrylovVecUpdate){.y = w[W_Z], .b = beta, .a = {1.0, -beta * omega}, .x = {w[W_T], w[W_V]}};
      }
      if (!pb->identity) u[n++] = (CAKrylovVecUpdate){.y = w[W_QH], .a = {1.0, -alpha}, .x = {w[W_RH], w[W_SH]}}; /* q^ = r^ - alpha s^ */
      u[n++] = (CAKrylovVecUpdate){.y = w[W_Q], .a = {1.0, -alpha}, .x = {w[W_R], w[W_S]}};                        /* q = r - alpha s */
      u[n++] = (CAKrylovVecUpdate){.y = w[W_Y], .a = {1.0, -alpha}, .x = {w[W_W], w[W_Z]}};                        /* y = w - alpha z */
      PetscCall(CAKrylovVecFused(n, u, 3, dx, dy, dot));
    }
    PetscCall(CAKrylovReductionBegin(comm, 3, dot, &req));
    PetscCall(KSPPIPEBCGSMHiddenPrecMult(ksp, 0, &req, w[W_Z], w[W_ZH], w[W_V])); /* line 6: z^ = M^{-1} z, v = A z^ */
    PetscCall(CAKrylovReductionEnd(&req));
    pb->nreductions++;
    first = PETSC_FALSE;
    PetscCall(CAKrylovBiCGStabOmega(ksp, dot, alpha, X, w[W_PH], &omega, &pb->nits)); /* line 7: omega = theta / phi, or the end */
    if (ksp->reason) break;

    { /* line 13 (group B): x = x + alpha p^ + omega q^,  r^ = q^ - omega w^ + omega alpha z^ (r^ = r comes from C with the identity) */
      CAKrylovVecUpdate u[2];
      PetscInt          n = 0;

      u[n++] = (CAKrylovVecUpdate){.y = X, .b = 1.0, .a = {alpha, omega}, .x = {w[W_PH], w[W_QH]}};
      if (!pb->identity) u[n++] = (CAKrylovVecUpdate){.y = w[W_RH], .a = {1.0, -omega, omega * alpha}, .x = {w[W_QH], w[W_WH], w[W_ZH]}};
      PetscCall(CAKrylovVecFused(n, u, 0, NULL, NULL, NULL));
    }
    { /* line 14 (group C): r = q - omega y,  w = y - omega t + omega alpha v,  [rho, psi, sigma, delta, nu] */
      const CAKrylovVecUpdate u[]  = {
        {.y = w[W_R], .a = {1.0, -omega}, .x = {w[W_Q], w[W_Y]}},
        {.y = w[W_W], .a = {1.0, -omega, omega * alpha}, .x = {w[W_Y], w[W_T], w[W_V]}},
      };
      const Vec               dx[] = {w[W_R], w[W_Z], w[W_W], w[W_S], w[W_R]}, dy[] = {w[W_RT], w[W_RT], w[W_RT], w[W_RT], w[W_R]};

      PetscCall(CAKrylovVecFused(2, u, wantnorm ? 5 : 4, dx, dy, dot));
    }
    PetscCall(CAKrylovReductionBegin(comm, wantnorm ? 5 : 4, dot, &req));
    PetscCall(KSPPIPEBCGSMHiddenPrecMult(ksp, 1, &req, w[W_W], w[W_WH], w[W_T])); /* line 15: w^ = M^{-1} w, t = A w^ */
    PetscCall(CAKrylovReductionEnd(&req));
    pb->nreductions++;

    PetscCall(CAKrylovKSPNextIteration(ksp));
    pb->nits++;
    PetscCall(KSPNormTest_BiCGStabFamily(ksp, wantnorm ? dot[4] : 0.0)); /* ||r||, exact (the listing estimates it as pi - omega theta) */
    if (ksp->reason) break;

    if (dot[0] == 0.0) { /* rt orthogonal to r != 0: restart from the true residual with rt = p = r */
      PetscCall(PetscInfo(ksp, "(rt, r) = 0 at iteration %" PetscInt_FMT ": restarting with p = rt = r\n", ksp->its));
      PetscCall(KSPPIPEBCGSMStart(ksp, PETSC_FALSE, w, dot));
      KSPCheckDot(ksp, dot[0]);
      rho = dot[0];
      PetscCall(CAKrylovKSPCheckCoefficient(ksp, dot[1], "(rt, A r)"));
      if (ksp->reason) break;
      alpha = rho / dot[1];
      first = PETSC_TRUE;
      continue;
    }
    KSPCheckDot(ksp, dot[0]);
    beta = (alpha / omega) * (dot[0] / rho);                              /* line 16 */
    PetscCall(CAKrylovKSPCheckCoefficient(ksp, dot[2] + beta * dot[3] - beta * omega * dot[1], "(rt, s_{j+1})"));
    if (ksp->reason) break;
    alpha = dot[0] / (dot[2] + beta * dot[3] - beta * omega * dot[1]);   /* line 17 */
    PetscCall(CAKrylovKSPCheckCoefficient(ksp, alpha, "alpha"));
    if (ksp->reason) break;
    rho = dot[0];
    if (pb->replace_period > 0 && ksp->its % pb->replace_period == 0) PetscCall(KSPPIPEBCGSMReplace(ksp, w));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPView_PIPEBCGSM(KSP ksp, PetscViewer viewer)
{
  KSP_BiCGStabFamily *pb = (KSP_BiCGStabFamily *)ksp->data;
  PetscBool      isascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  pipelined, merged vector operations: 2 non-blocking global reductions per iteration, each hidden behind one PC application and one SpMV\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  vector reads+writes per iteration: 25 with the identity preconditioner, 34 with a preconditioner (fused kernels)\n"));
  PetscCall(CAKrylovKSPProgressView(&pb->progress, viewer));
  if (pb->replace_period > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  residual replacement every %" PetscInt_FMT " iterations\n", pb->replace_period));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  residual replacement off\n"));
  PetscCall(KSPViewStatistics_BiCGStabFamily(ksp, viewer, pb->nreplacements, "residual replacements"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetFromOptions_PIPEBCGSM(KSP ksp, CAKrylovOptionItems PetscOptionsObject)
{
  PetscInt  period = ((KSP_BiCGStabFamily *)ksp->data)->replace_period;
  PetscBool flg;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "KSP PIPEBCGSM options");
  PetscCall(PetscOptionsDeprecated("-ksp_pipebcgsm_replacement_period", "-ksp_pipebcgsm_residual_replacement_period", "0.2.0", NULL));
  PetscCall(PetscOptionsInt("-ksp_pipebcgsm_residual_replacement_period", "Residual replacement every this many iterations (0: never)", "KSPPIPEBCGSMSetReplacementPeriod", period, &period, &flg));
  if (flg) PetscCall(KSPPIPEBCGSMSetReplacementPeriod(ksp, period));
  PetscCall(KSPSetFromOptionsProgress_BiCGStabFamily(ksp, PetscOptionsObject));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPPIPEBCGSMSetReplacementPeriod_PIPEBCGSM(KSP ksp, PetscInt period)
{
  PetscFunctionBegin;
  PetscCheck(period >= 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPPIPEBCGSM residual replacement period %" PetscInt_FMT " must be >= 0 (0: never)", period);
  ((KSP_BiCGStabFamily *)ksp->data)->replace_period = period;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPPIPEBCGSMGetReplacementPeriod_PIPEBCGSM(KSP ksp, PetscInt *period)
{
  PetscFunctionBegin;
  *period = ((KSP_BiCGStabFamily *)ksp->data)->replace_period;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPDestroy_PIPEBCGSM(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPIPEBCGSMSetReplacementPeriod_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPIPEBCGSMGetReplacementPeriod_C", NULL));
  PetscCall(KSPDestroy_BiCGStabFamily(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPPIPEBCGSMSetReplacementPeriod - Sets how often `KSPPIPEBCGSM` replaces its recurrence residual by the true one

  Logically Collective

  Input Parameters:
+ ksp    - the Krylov solver
- period - replace every period iterations (default 100); 0 turns replacement off

  Options Database Key:
. -ksp_pipebcgsm_residual_replacement_period <period> - set the period

  Notes:
  A replacement recomputes r = b - A x and the auxiliary vectors w, t, s, z, v (and their preconditioned
  versions) from x and the search direction: 6 SpMVs and 4 preconditioner applications. It restores the
  accuracy that the pipelined recurrences lose to rounding (as `KSPPIPEBCGS` does every 100 iterations).

  Level: intermediate

.seealso: `KSPPIPEBCGSM`, `KSPPIPEBCGSMGetReplacementPeriod()`
@*/
PetscErrorCode KSPPIPEBCGSMSetReplacementPeriod(KSP ksp, PetscInt period)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ksp, period, 2);
  PetscTryMethod(ksp, "KSPPIPEBCGSMSetReplacementPeriod_C", (KSP, PetscInt), (ksp, period));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPPIPEBCGSMGetReplacementPeriod - Gets how often `KSPPIPEBCGSM` replaces its recurrence residual by the true one

  Not Collective

  Input Parameter:
. ksp - the Krylov solver

  Output Parameter:
. period - the period (0: never)

  Level: intermediate

.seealso: `KSPPIPEBCGSM`, `KSPPIPEBCGSMSetReplacementPeriod()`
@*/
PetscErrorCode KSPPIPEBCGSMGetReplacementPeriod(KSP ksp, PetscInt *period)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(period, 2);
  PetscUseMethod(ksp, "KSPPIPEBCGSMGetReplacementPeriod_C", (KSP, PetscInt *), (ksp, period));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPPIPEBCGSMSetProgress - Sets how `KSPPIPEBCGSM` helps its non-blocking reductions progress while the
  preconditioner application and the SpMV that hide them run

  Logically Collective

  Input Parameters:
+ ksp    - the Krylov solver
. type   - `CAKRYLOV_PROGRESS_NONE` (default) or `CAKRYLOV_PROGRESS_TEST`
- ntests - with `CAKRYLOV_PROGRESS_TEST`, about this many `MPI_Test` calls per overlapped region (default 20)

  Options Database Keys:
+ -ksp_pipebcgsm_progress <none,test> - the type
- -ksp_pipebcgsm_progress_tests <n>  - the number of tests

  Notes:
  With `CAKRYLOV_PROGRESS_TEST` the work that hides a reduction polls it at the boundaries of its chunks: `PCJACOBI`
  and the SpMV of `MATSEQAIJ`/`MATMPIAIJ` operators (both applied in chunks by this library, bitwise as PETSc does;
  for `MATMPIAIJ` the diagonal block runs while the halo exchange travels, as in `MatMult()`), and `PCSYNTHETIC`.
  Other preconditioners and matrix types run unchanged, without tests. Iterates are bitwise the same with and
  without progression. See `KSPRBiCGStabSetProgress()`.

  Level: intermediate

.seealso: `KSPPIPEBCGSM`, `KSPPIPEBCGSMGetProgress()`, `CAKrylovProgressType`, `KSPRBiCGStabSetProgress()`
@*/
PetscErrorCode KSPPIPEBCGSMSetProgress(KSP ksp, CAKrylovProgressType type, PetscInt ntests)
{
  PetscFunctionBegin;
  PetscCall(KSPSetProgressMethod_BiCGStabFamily(ksp, "KSPPIPEBCGSM", type, ntests));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPPIPEBCGSMGetProgress - Gets how `KSPPIPEBCGSM` progresses its non-blocking reductions

  Not Collective

  Input Parameter:
. ksp - the Krylov solver

  Output Parameters:
+ type   - the progression type (or `NULL`)
- ntests - the `MPI_Test` calls aimed at per overlapped region (or `NULL`)

  Level: intermediate

.seealso: `KSPPIPEBCGSM`, `KSPPIPEBCGSMSetProgress()`
@*/
PetscErrorCode KSPPIPEBCGSMGetProgress(KSP ksp, CAKrylovProgressType *type, PetscInt *ntests)
{
  PetscFunctionBegin;
  PetscCall(KSPGetProgressMethod_BiCGStabFamily(ksp, "KSPPIPEBCGSM", type, ntests));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPPIPEBCGSM - pipelined BiCGStab with merged (fused) vector operations: two non-blocking reductions per
   iteration, each hidden behind a preconditioner application and an SpMV, and far fewer bytes moved
   than `KSPPIPEBCGS`

   Options Database Keys:
+  -ksp_pipebcgsm_residual_replacement_period <100> - residual replacement every this many iterations (0: never)
.  -ksp_pipebcgsm_progress <none,test>     - progression of the reductions while the PC and SpMV run (see `KSPPIPEBCGSMSetProgress()`)
-  -ksp_pipebcgsm_progress_tests <20>      - `MPI_Test` calls per overlapped region with progress test

   Level: intermediate

   Notes:
   The iteration is Cools and Vanroose's pipelined BiCGStab (PETSc's `KSPPIPEBCGS`) in Krasnopolsky's
   merged formulation (Algorithm 7; Algorithm 4 without preconditioner): three fused passes over memory
   per iteration, and the dots of each pass summed by one `MPI_Iallreduce` that stays in flight while
   z^ = M^{-1} z, v = A z^ (first) and w^ = M^{-1} w, t = A w^ (second) are computed. A solve issues
   1 + 2 (iterations) reductions, all non-blocking (PETSc's -log_view does not count them; -ksp_view
   does). Right preconditioning only, with the unpreconditioned residual norm or `KSP_NORM_NONE`.

   Vector reads+writes per iteration (excluding the two SpMVs and two PC applications):
   with a preconditioner 23 reads + 11 writes = 34, the paper's Table 2 (PPipeBiCGStab, merged);
   with `-pc_type none` 17 reads + 8 writes = 25, one read fewer than the paper's 26 for Algorithm 4
   because r = q - omega y is formed in the pass that reads q and y for w and the dots, not in the pass
   that updates x; and no identity-preconditioner copy is made. `KSPPIPEBCGS` moves about 60 (including
   its two copies with `-pc_type none`).

   Differences from the listing: the residual norm is computed exactly in the second reduction (as
   `KSPPIPEBCGS` does) instead of the estimate pi - omega theta; (q, q) stays in the first reduction to
   tell a converged q = 0 from a breakdown when y = 0; an exact (rt, r) = 0 with r != 0 restarts from the
   true residual; every `-ksp_pipebcgsm_residual_replacement_period` iterations the recurrence vectors are
   recomputed from x (residual replacement, as in `KSPPIPEBCGS`). Breakdowns end with
   `KSP_DIVERGED_BREAKDOWN`, non-finite values with `KSP_DIVERGED_NANORINF`, x holding the last finite
   iterate. Memory: 15 work vectors.

   Non-blocking reductions progress only if the MPI library makes them progress; the overlap is real
   only where it does (hardware or asynchronous progress), or with manual progression,
   -ksp_pipebcgsm_progress test (`KSPPIPEBCGSMSetProgress()`).

   References:
+  * - S. Cools, W. Vanroose, The communication-hiding pipelined BiCGstab method for the parallel solution
   of large unsymmetric linear systems, Parallel Computing 65 (2017).
-  * - B. Krasnopolsky, Revisiting performance of BiCGStab methods for solving systems with multiple
   right-hand sides, Computers and Mathematics with Applications 79 (2020), Appendix B.

.seealso: `KSPCreate()`, `KSPSetType()`, `KSPPIPEBCGS`, `KSPBCGSM`, `KSPRBICGSTAB`, `KSPPIPEBCGSMSetReplacementPeriod()`, `KSPPIPEBCGSMSetProgress()`
M*/
PetscErrorCode KSPCreate_PIPEBCGSM(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPCreate_BiCGStabFamily(ksp, W_COUNT, "KSPPIPEBCGSM"));
  ((KSP_BiCGStabFamily *)ksp->data)->replace_period = 100;
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_RIGHT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_RIGHT, 1));

  ksp->ops->solve          = KSPSolve_PIPEBCGSM;
  ksp->ops->destroy        = KSPDestroy_PIPEBCGSM;
  ksp->ops->view           = KSPView_PIPEBCGSM;
  ksp->ops->setfromoptions = KSPSetFromOptions_PIPEBCGSM;

  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPIPEBCGSMSetReplacementPeriod_C", KSPPIPEBCGSMSetReplacementPeriod_PIPEBCGSM));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPIPEBCGSMGetReplacementPeriod_C", KSPPIPEBCGSMGetReplacementPeriod_PIPEBCGSM));
  PetscFunctionReturn(PETSC_SUCCESS);
}
