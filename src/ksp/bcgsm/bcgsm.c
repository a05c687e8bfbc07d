/*
   KSPBCGSM: BiCGStab with merged vector operations, Algorithms 2 (no preconditioner) and 5 (right
   preconditioning) of Krasnopolsky, "Revisiting performance of BiCGStab methods for solving systems with
   multiple right-hand sides" (Appendix B). Left preconditioning runs Algorithm 2 on M^{-1} A.

   Every line of the listing that groups vector operations is one CAKrylovVecFused() call (one pass over
   memory); its dots are summed by one global reduction. Three reductions per iteration:
     delta = (v, rt);   [phi, psi, theta] = [(t, s), (t, t), (s, s)];   [rho, nu] = [(r, rt), (r, r)].
*/
#include <cakrylov/private/bicgstabfamily.h>

/* The work vectors, by name */
enum { W_R, W_RT, W_P, W_V, W_S, W_T, W_PH, W_SH, W_COUNT };

/* v = Â p: A p (identity PC), M^{-1} A p (left; A p goes to the unused p^ storage), or A p^ with p^ = M^{-1} p kept (right) */
static PetscErrorCode KSPBCGSMApplyOperator(KSP ksp, PetscBool identity, Vec p, Vec ph, Vec v)
{
  PetscFunctionBegin;
  if (identity) PetscCall(CAKrylovKSPMatMult(ksp, p, v));
  else if (ksp->pc_side == PC_RIGHT) {
    PetscCall(KSP_PCApply(ksp, p, ph));
    PetscCall(CAKrylovKSPMatMult(ksp, ph, v));
  } else PetscCall(KSP_PCApplyBAorAB(ksp, p, v, ksp->work[W_PH]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rt = p = r and rho = (r, r): one pass, one reduction (the start, and the restart after (rt, r) = 0) */
static PetscErrorCode KSPBCGSMRestart(KSP ksp, PetscScalar *rho)
{
  KSP_BiCGStabFamily     *bm = (KSP_BiCGStabFamily *)ksp->data;
  Vec                     R = ksp->work[W_R];
  const CAKrylovVecUpdate u[] = {
    {.y = ksp->work[W_RT], .a = {1.0}, .x = {R}}, /* rt = r */
    {.y = ksp->work[W_P],  .a = {1.0}, .x = {R}}, /* p = r */
  };

  PetscFunctionBegin;
  PetscCall(CAKrylovVecFused(2, u, 1, &R, &R, rho));
  PetscCall(CAKrylovReduction(PetscObjectComm((PetscObject)ksp), 1, rho));
  bm->nreductions++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSolve_BCGSM(KSP ksp)
{
  KSP_BiCGStabFamily *bm   = (KSP_BiCGStabFamily *)ksp->data;
  MPI_Comm            comm = PetscObjectComm((PetscObject)ksp);
  Vec                 X = ksp->vec_sol, B = ksp->vec_rhs, R = ksp->work[W_R], RT = ksp->work[W_RT], P = ksp->work[W_P], V = ksp->work[W_V], S = ksp->work[W_S], T = ksp->work[W_T], PH, SH;
  const PetscBool     wantnorm = ksp->normtype != KSP_NORM_NONE ? PETSC_TRUE : PETSC_FALSE;
  PetscScalar         rho, alpha, omega, beta, dot[3];

  PetscFunctionBegin;
  PetscCall(KSPSolveBegin_BiCGStabFamily(ksp));
  bm->right = !bm->identity && ksp->pc_side == PC_RIGHT ? PETSC_TRUE : PETSC_FALSE;
  PH        = bm->right ? ksp->work[W_PH] : P; /* p^, s^: the vectors x is updated with */
  SH        = bm->right ? ksp->work[W_SH] : S;

  /* r_0 = b - A x_0 (M^{-1}(b - A x_0) with left preconditioning); rt = p_0 = r_0, rho_0 = (r_0, r_0) */
  PetscCall(KSPInitialResidual(ksp, X, V, T, R, B));
  PetscCall(KSPBCGSMRestart(ksp, &rho));
  PetscCall(KSPInitialTest_BiCGStabFamily(ksp, rho));

  while (!ksp->reason) {
    /* line 5: v = Â p (p^ = M^{-1} p);  line 6: delta = (v, rt) */
    PetscCall(KSPBCGSMApplyOperator(ksp, bm->identity, P, PH, V));
    PetscCall(CAKrylovVecFused(0, NULL, 1, &V, &RT, dot));
    PetscCall(CAKrylovReduction(comm, 1, dot));
    bm->nreductions++;
    KSPCheckDot(ksp, dot[0]);
    PetscCall(CAKrylovKSPCheckCoefficient(ksp, dot[0], "(rt, Ap)"));
    if (ksp->reason) break;
    alpha = rho / dot[0]; /* line 7 */
    PetscCall(CAKrylovKSPCheckCoefficient(ksp, alpha, "alpha"));
    if (ksp->reason) break;

    { /* line 8: s = r - alpha v */
      const CAKrylovVecUpdate u[] = {{.y = S, .a = {1.0, -alpha}, .x = {R, V}}};

      PetscCall(CAKrylovVecFused(1, u, 0, NULL, NULL, NULL));
    }

    /* line 9: t = Â s (s^ = M^{-1} s);  line 10: [phi, psi, theta] = [(t, s), (t, t), (s, s)] in one pass */
    PetscCall(KSPBCGSMApplyOperator(ksp, bm->identity, S, SH, T));
    {
      const Vec dx[] = {T, T, S}, dy[] = {S, T, S};

      PetscCall(CAKrylovVecFused(0, NULL, 3, dx, dy, dot));
    }
    PetscCall(CAKrylovReduction(comm, 3, dot));
    bm->nreductions++;
    PetscCall(CAKrylovBiCGStabOmega(ksp, dot, alpha, X, PH, &omega, &bm->nits)); /* line 11: omega = phi / psi, or the end */
    if (ksp->reason) break;

    { /* line 15: x = x + alpha p^ + omega s^,  r = s - omega t,  [rho, nu] = [(r, rt), (r, r)] in one pass */
      const CAKrylovVecUpdate u[]  = {
        {.y = X, .b = 1.0, .a = {alpha, omega}, .x = {PH, SH}},
        {.y = R, .a = {1.0, -omega}, .x = {S, T}},
      };
      const Vec               dx[] = {R, R}, dy[] = {RT, R};

      PetscCall(CAKrylovVecFused(2, u, wantnorm ? 2 : 1, dx, dy, dot));
    }
    PetscCall(CAKrylovReduction(comm, wantnorm ? 2 : 1, dot));
    bm->nreductions++;
    PetscCall(CAKrylovKSPNextIteration(ksp));
    bm->nits++;
    PetscCall(KSPNormTest_BiCGStabFamily(ksp, wantnorm ? dot[1] : 0.0)); /* ||r||, exact (Algorithm 2 estimates it as theta - omega phi) */
    if (ksp->reason) break;

    if (dot[0] == 0.0) { /* rt orthogonal to r != 0: restart from p = rt = r */
      PetscCall(PetscInfo(ksp, "(rt, r) = 0 at iteration %" PetscInt_FMT ": restarting with p = rt = r\n", ksp->its));
      PetscCall(KSPBCGSMRestart(ksp, &rho));
      continue;
    }
    KSPCheckDot(ksp, dot[0]);
    beta = (dot[0] / rho) * (alpha / omega); /* line 16 */
    KSPCheckDot(ksp, beta);
    rho = dot[0];
    { /* line 17: p = r + beta (p - omega v) */
      const CAKrylovVecUpdate u[] = {{.y = P, .b = beta, .a = {1.0, -beta * omega}, .x = {R, V}}};

      PetscCall(CAKrylovVecFused(1, u, 0, NULL, NULL, NULL));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPView_BCGSM(KSP ksp, PetscViewer viewer)
{
  PetscBool isascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  merged vector operations: 3 global reductions, %d vector reads+writes per iteration (fused kernels; plus 2 operator applications)\n", ((KSP_BiCGStabFamily *)ksp->data)->right ? 19 : 18));
  PetscCall(KSPViewStatistics_BiCGStabFamily(ksp, viewer, 0, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPBCGSM - BiCGStab with merged (fused) vector operations: a drop-in `KSPBCGS` that moves fewer bytes

   Level: intermediate

   Notes:
   The iteration is `KSPBCGS`'s, regrouped as in Krasnopolsky's merged BiCGStab (Algorithms 2 and 5):
   each group of vector updates and the dot products on them is one pass over memory, and each group's
   dots are summed by one global reduction. Per iteration: 3 global reductions (`KSPBCGS`: 4, one of
   them for the residual norm) and two operator applications.

   Vector reads+writes per iteration (vectors of the local length, excluding the operator and the
   preconditioner): 14 reads + 4 writes = 18 with no preconditioner or left preconditioning, 15 + 4 = 19
   with right preconditioning (x is updated with M^{-1} p and M^{-1} s). These are the merged column of
   the paper's Table 2 (BiCGStab 18, PBiCGStab 19). `KSPBCGS` moves 21 (it iterates on M^{-1}-scaled
   variables with right preconditioning and applies M^{-1} to x once at the end), and with
   `-pc_type none` 4 more for its two identity-preconditioner copies; `KSPBCGSM` skips the identity.

   Differences from the listings: the residual norm is computed exactly, in the same pass and the same
   reduction as (r, rt) (the paper estimates it as theta - omega phi, which cancels badly near
   convergence); an exact (rt, r) = 0 with r != 0 restarts with p = rt = r instead of breaking down.
   Left preconditioning (the default, as for `KSPBCGS`) uses the preconditioned norm, right
   preconditioning the unpreconditioned norm; `KSP_NORM_NONE` works with both. The fused kernels run
   on `VECSEQ`/`VECMPI` arrays and fall back to PETSc's Vec operations for other vector types.

   References:
.  * - B. Krasnopolsky, Revisiting performance of BiCGStab methods for solving systems with multiple
   right-hand sides, Computers and Mathematics with Applications 79 (2020), Appendix B.

.seealso: `KSPCreate()`, `KSPSetType()`, `KSPBCGS`, `KSPPIPEBCGSM`, `KSPCABICGSTAB`
M*/
PetscErrorCode KSPCreate_BCGSM(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPCreate_BiCGStabFamily(ksp, W_COUNT, NULL));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_PRECONDITIONED, PC_LEFT, 3));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_RIGHT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_LEFT, 1));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_RIGHT, 1));

  ksp->ops->solve = KSPSolve_BCGSM;
  ksp->ops->view  = KSPView_BCGSM;
  PetscFunctionReturn(PETSC_SUCCESS);
}
