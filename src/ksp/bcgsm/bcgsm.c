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
enum {
  W_R,
  W_RT,
  W_P,
  W_V,
  W_S,
  W_T,
  W_PH,
  W_SH,
  W_COUNT
};

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
  KSP_BiCGStabFamily     *bm  = (KSP_BiCGStabFamily *)ksp->data;
  Vec                     R   = ksp->work[W_R];
  const CAKrylovVecUpdate u[] = {
    {.y = ksp->work[W_RT], .a = {1.0}, .x = {R}}, /* rt = r */
    {.y = ksp->work[W_P],  .a = {1.0}, .x = {R}}, /* p = r */
  };

  PetscFunctionBegin;
  PetscCall(CAKrylovVecFused(bm->fallback, 2, u, 1, &R, &R, rho));
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
    PetscCall(CAKrylovVecFused(bm->fallback, 0, NULL, 1, &V, &RT, dot));
    PetscCall(CAKrylovReduction(comm, 1, dot));
    bm->nreductions++;
    KSPCheckDot(ksp, dot[0]);
    PetscCall(CAKrylovKSPCheckCoefficient(ksp, dot[0], "(rt, Ap)"));
    if (ksp->reason) break;
    alpha = rho / dot[0]; /* line 7 */
    PetscCall(CAKrylovKSPCheckCoefficient(ksp, alpha, "alpha"));
    if (ksp->reason) break;

    { /* line 8: s = r - alpha v */
      const CAKrylovVecUpdate u[] = {
        {.y = S, .a = {1.0, -alpha}, .x = {R, V}}
      };

      PetscCall(CAKrylovVecFused(bm->fallback, 1, u, 0, NULL, NULL, NULL));
    }

    /* line 9: t = Â s (s^ = M^{-1} s);  line 10: [phi, psi, theta] = [(t, s), (t, t), (s, s)] in one pass */
    PetscCall(KSPBCGSMApplyOperator(ksp, bm->identity, S, SH, T));
    {
      const Vec dx[] = {T, T, S}, dy[] = {S, T, S};

      PetscCall(CAKrylovVecFused(bm->fallback, 0, NULL, 3, dx, dy, dot));
    }
    PetscCall(CAKrylovReduction(comm, 3, dot));
    bm->nreductions++;
    PetscCall(CAKrylovBiCGStabOmega(ksp, bm->fallback, dot, alpha, X, PH, &omega, &bm->nits)); /* line 11: omega = phi / psi, or the end */
    if (ksp->reason) break;

    { /* line 15: x = x + alpha p^ + omega s^,  r = s - omega t,  [rho, nu] = [(r, rt), (r, r)] in one pass */
      const CAKrylovVecUpdate u[] = {
        {.y = X, .b = 1.0, .a = {alpha, omega}, .x = {PH, SH}},
        {.y = R,      .a = {1.0, -omega},         .x = {S, T}    },
      };
      const Vec dx[] = {R, R}, dy[] = {RT, R};

      PetscCall(CAKrylovVecFused(bm->fallback, 2, u, wantnorm ? 2 : 1, dx, dy, dot));
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
      const CAKrylovVecUpdate u[] = {
        {.y = P, .b = beta, .a = {1.0, -beta * omega}, .x = {R, V}}
      };

      PetscCall(CAKrylovVecFused(bm->fallback, 1, u, 0, NULL, NULL, NULL));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   KSPMatSolve(): the iteration above for m columns together (src/ksp/common/bicgstabblock.c has the machinery). Per
   iteration: v = Â p and t = Â s each as one operator pass over the block (KSPBlockMult_BiCGStabFamily(), and
   KSPBlockPCApply_BiCGStabFamily() for the preconditioner), the fused groups of the single solve called once per column
   and flushed after each loop (one pass for all columns in the interleaved layout), and the dots of all
   columns of each of the 3 reduction points in one reduction. A column's arithmetic is that of its KSPSolve().
*/

/* v = Â p (which = 0) or t = Â s (which = 1) on the active columns: identity A p; right A (M^{-1} p) keeping p^;
   left M^{-1} (A p) with A p in the unused p^ block */
static PetscErrorCode KSPBCGSMBlockApplyOperator(KSP ksp, PetscInt which)
{
  KSP_BiCGStabFamily *bm = (KSP_BiCGStabFamily *)ksp->data;
  const PetscInt      in = which ? W_S : W_P, hat = which ? W_SH : W_PH, out = which ? W_T : W_V;

  PetscFunctionBegin;
  if (bm->identity) PetscCall(KSPBlockMult_BiCGStabFamily(ksp, out));
  else if (bm->right) {
    PetscCall(KSPBlockPCApply_BiCGStabFamily(ksp, in, hat));
    PetscCall(KSPBlockMult_BiCGStabFamily(ksp, out));
  } else {
    PetscCall(KSPBlockMult_BiCGStabFamily(ksp, hat));
    PetscCall(KSPBlockPCApply_BiCGStabFamily(ksp, hat, out));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rt = p_0 = r_0, rho_0 = (r_0, r_0) per column in one reduction; the test of iteration 0; the columns that ended leave */
static PetscErrorCode KSPBCGSMBlockStart(KSP ksp, KSP_BiCGStabBlockSolve *bs)
{
  KSP_BiCGStabFamily *bm = (KSP_BiCGStabFamily *)ksp->data;
  KSP_BiCGStabBlock  *bk = &bm->block;
  Vec                *w  = bk->wrap;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < bs->na; s++) {
    const CAKrylovVecUpdate u[] = {
      {.y = w[W_RT], .a = {1.0}, .x = {w[W_R]}},
      {.y = w[W_P],  .a = {1.0}, .x = {w[W_R]}},
    };

    PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, 2, u, 1, &w[W_R], &w[W_R], &bk->dots[s]));
  }
  PetscCall(KSPBlockReduce_BiCGStabFamily(ksp, bs, bs->na, bk->dots));
  bs->maxnorm = 0.0;
  for (PetscInt s = 0; s < bs->na; s++) {
    bk->rho[bk->slot2col[s]] = bk->dots[s];
    PetscCall(KSPBlockInitialTest_BiCGStabFamily(ksp, bs, s, bk->dots[s]));
  }
  PetscCall(KSPBlockMonitor_BiCGStabFamily(ksp, bs, 0));
  PetscCall(KSPBlockCompact_BiCGStabFamily(ksp, bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* line 5: v = Â p;  line 6: delta = (v, rt);  line 7: alpha = rho / delta;  line 8: s = r - alpha v */
static PetscErrorCode KSPBCGSMBlockAlpha(KSP ksp, KSP_BiCGStabBlockSolve *bs)
{
  KSP_BiCGStabFamily *bm   = (KSP_BiCGStabFamily *)ksp->data;
  KSP_BiCGStabBlock  *bk   = &bm->block;
  Vec                *w    = bk->wrap;
  PetscScalar        *dots = bk->dots;
  PetscBool           bad;

  PetscFunctionBegin;
  PetscCall(KSPBCGSMBlockApplyOperator(ksp, 0));
  for (PetscInt s = 0; s < bs->na; s++) PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, 0, NULL, 1, &w[W_V], &w[W_RT], &dots[s]));
  PetscCall(KSPBlockReduce_BiCGStabFamily(ksp, bs, bs->na, dots));
  for (PetscInt s = 0; s < bs->na; s++) {
    const PetscInt col = bk->slot2col[s];

    PetscCall(KSPBlockCheckCoefficient_BiCGStabFamily(ksp, s, dots[s], PETSC_TRUE, "(rt, Ap)", &bad));
    if (bad) continue;
    bk->alpha[col] = bk->rho[col] / dots[s];
    PetscCall(KSPBlockCheckCoefficient_BiCGStabFamily(ksp, s, bk->alpha[col], PETSC_TRUE, "alpha", &bad));
  }
  for (PetscInt s = 0; s < bs->na; s++) {
    const CAKrylovVecUpdate u[] = {
      {.y = w[W_S], .a = {1.0, -bk->alpha[bk->slot2col[s]]}, .x = {w[W_R], w[W_V]}}
    };

    if (bk->live[s]) PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, 1, u, 0, NULL, NULL, NULL));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* line 9: t = Â s;  line 10: [phi, psi, theta] = [(t, s), (t, t), (s, s)];  line 11: omega = phi / psi, or the column ends at
   the half step x + alpha p^ (KSPBlockOmega_BiCGStabFamily()) */
static PetscErrorCode KSPBCGSMBlockOmega(KSP ksp, KSP_BiCGStabBlockSolve *bs)
{
  KSP_BiCGStabFamily *bm   = (KSP_BiCGStabFamily *)ksp->data;
  KSP_BiCGStabBlock  *bk   = &bm->block;
  Vec                *w    = bk->wrap;
  PetscScalar        *dots = bk->dots;

  PetscFunctionBegin;
  PetscCall(KSPBCGSMBlockApplyOperator(ksp, 1));
  for (PetscInt s = 0; s < bs->na; s++) {
    const Vec dx[] = {w[W_T], w[W_T], w[W_S]}, dy[] = {w[W_S], w[W_T], w[W_S]};

    dots[3 * s] = dots[3 * s + 1] = dots[3 * s + 2] = 0.0;
    if (bk->live[s]) PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, 0, NULL, 3, dx, dy, &dots[3 * s]));
  }
  PetscCall(KSPBlockReduce_BiCGStabFamily(ksp, bs, 3 * bs->na, dots));
  bs->maxnorm = 0.0;
  for (PetscInt s = 0; s < bs->na; s++)
    if (bk->live[s]) PetscCall(KSPBlockOmega_BiCGStabFamily(ksp, bs, s, &dots[3 * s], bm->right ? W_PH : W_P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* line 15: x = x + alpha p^ + omega s^,  r = s - omega t,  [rho, nu] = [(r, rt), (r, r)] in one pass per column, one reduction;
   the test of iteration k per column (||r|| exact) and the block's monitor */
static PetscErrorCode KSPBCGSMBlockUpdate(KSP ksp, KSP_BiCGStabBlockSolve *bs)
{
  KSP_BiCGStabFamily *bm   = (KSP_BiCGStabFamily *)ksp->data;
  KSP_BiCGStabBlock  *bk   = &bm->block;
  Vec                *w    = bk->wrap;
  PetscScalar        *dots = bk->dots;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < bs->na; s++) {
    const PetscInt          col = bk->slot2col[s];
    const CAKrylovVecUpdate u[] = {
      {.y = w[W_COUNT], .b = 1.0, .a = {bk->alpha[col], bk->omega[col]}, .x = {w[bm->right ? W_PH : W_P], w[bm->right ? W_SH : W_S]}},
      {.y = w[W_R],               .a = {1.0, -bk->omega[col]},             .x = {w[W_S], w[W_T]}        },
    };
    const Vec dx[] = {w[W_R], w[W_R]}, dy[] = {w[W_RT], w[W_R]};

    dots[2 * s] = dots[2 * s + 1] = 0.0;
    if (bk->live[s]) PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, 2, u, 2, dx, dy, &dots[2 * s]));
  }
  PetscCall(KSPBlockReduce_BiCGStabFamily(ksp, bs, 2 * bs->na, dots));
  bs->k++;
  for (PetscInt s = 0; s < bs->na; s++)
    if (bk->live[s]) PetscCall(KSPBlockNormTest_BiCGStabFamily(ksp, bs, s, dots[2 * s + 1]));
  PetscCall(KSPBlockMonitor_BiCGStabFamily(ksp, bs, bs->k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* line 16: beta = (rho_new / rho)(alpha / omega);  line 17: p = r + beta (p - omega v) per column (an exact (rt, r) = 0
   restarts the column from p = rt = r); the columns that ended leave the block */
static PetscErrorCode KSPBCGSMBlockDirection(KSP ksp, KSP_BiCGStabBlockSolve *bs)
{
  KSP_BiCGStabFamily *bm   = (KSP_BiCGStabFamily *)ksp->data;
  KSP_BiCGStabBlock  *bk   = &bm->block;
  Vec                *w    = bk->wrap;
  PetscScalar        *dots = bk->dots;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < bs->na; s++) {
    const PetscInt col = bk->slot2col[s];
    PetscScalar    beta;
    PetscBool      bad;

    if (!bk->live[s] || bk->reason[col]) continue;
    if (dots[2 * s] == 0.0) { /* rt orthogonal to r != 0: restart from p = rt = r, rho = (r, r) (this pass's nu: no reduction) */
      const CAKrylovVecUpdate u[] = {
        {.y = w[W_RT], .a = {1.0}, .x = {w[W_R]}},
        {.y = w[W_P],  .a = {1.0}, .x = {w[W_R]}},
      };

      PetscCall(PetscInfo(ksp, "KSPMatSolve() column %" PetscInt_FMT ": (rt, r) = 0 at iteration %" PetscInt_FMT ": restarting with p = rt = r\n", col, bs->k));
      PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, 2, u, 0, NULL, NULL, NULL));
      bk->rho[col] = dots[2 * s + 1];
      continue;
    }
    PetscCall(KSPBlockCheckCoefficient_BiCGStabFamily(ksp, s, dots[2 * s], PETSC_FALSE, "(r, rt)", &bad));
    if (bad) continue;
    beta = (dots[2 * s] / bk->rho[col]) * (bk->alpha[col] / bk->omega[col]);
    PetscCall(KSPBlockCheckCoefficient_BiCGStabFamily(ksp, s, beta, PETSC_FALSE, "beta", &bad));
    if (bad) continue;
    bk->rho[col] = dots[2 * s];
    {
      const CAKrylovVecUpdate u[] = {
        {.y = w[W_P], .b = beta, .a = {1.0, -beta * bk->omega[col]}, .x = {w[W_R], w[W_V]}}
      };

      PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, 1, u, 0, NULL, NULL, NULL));
    }
  }
  PetscCall(KSPBlockCompact_BiCGStabFamily(ksp, bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPMatSolve_BCGSM(KSP ksp, Mat B, Mat X)
{
  KSP_BiCGStabFamily    *bm = (KSP_BiCGStabFamily *)ksp->data;
  KSP_BiCGStabBlockSolve bs = {0};
  PetscInt               m;
  PetscBool              use;
  const PetscInt         keep[] = {W_R, W_RT, W_P}; /* what a column carries from one iteration to the next */

  PetscFunctionBegin;
  PetscCall(KSPMatSolveUseBlock_BiCGStabFamily(ksp, B, X, &use));
  if (!use) PetscFunctionReturn(PETSC_SUCCESS);
  bm->right = !bm->identity && ksp->pc_side == PC_RIGHT ? PETSC_TRUE : PETSC_FALSE;
  bs.left   = !bm->identity && ksp->pc_side == PC_LEFT ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(MatGetSize(B, NULL, &m));
  { /* the products alias[out] = A alias[in]: v = A p and t = A s (identity), A p^ and A s^ (right), A p and A s into p^, s^ (left) */
    const PetscInt in[] = {bm->right ? W_PH : W_P, bm->right ? W_SH : W_S}, out[] = {bs.left ? W_PH : W_V, bs.left ? W_SH : W_T};

    PetscCall(KSPBlockSetUp_BiCGStabFamily(ksp, m, W_COUNT, 2, in, out));
  }
  PetscCall(KSPBlockMapWork_BiCGStabFamily(ksp, &bs, 0, NULL, 3, keep));
  PetscCall(KSPBlockSolveBegin_BiCGStabFamily(ksp, B, X, &bs));
  PetscCall(KSPBlockInitialResidual_BiCGStabFamily(ksp, &bs, W_R, W_V, W_T));
  PetscCall(KSPBCGSMBlockStart(ksp, &bs));
  while (bs.na) {
    PetscCall(KSPBCGSMBlockAlpha(ksp, &bs));
    PetscCall(KSPBCGSMBlockOmega(ksp, &bs));
    PetscCall(KSPBCGSMBlockUpdate(ksp, &bs));
    PetscCall(KSPBCGSMBlockDirection(ksp, &bs));
  }
  PetscCall(KSPBlockSolveEnd_BiCGStabFamily(ksp, B, X, &bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The cost of one iteration for KSPAUTOBCGS's model (Krasnopolsky eq. (13)/(17) in this type's counts): 2 operator
   and 2 preconditioner applications, 18 vector reads+writes (19 with a preconditioner on the right), and the three
   blocking reductions of 1, 3 and 2 numbers */
PetscReal KSPBCGSMTimePerIteration(const CAKrylovCosts *c)
{
  return 2 * c->spmv + 2 * c->pc + (c->pc > 0 && c->right ? 19 : 18) * c->vec + CAKrylovCostsReduction(c, 8) + CAKrylovCostsReduction(c, 24) + CAKrylovCostsReduction(c, 16);
}

static PetscErrorCode KSPView_BCGSM(KSP ksp, PetscViewer viewer)
{
  PetscBool isascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  merged vector operations: 3 global reductions, %d vector reads+writes per iteration (fused kernels; plus 2 operator applications)\n", ((KSP_BiCGStabFamily *)ksp->data)->right ? 19 : 18));
  PetscCall(KSPViewStatistics_BiCGStabFamily(ksp, viewer, 0, NULL));
  PetscCall(KSPViewBlock_BiCGStabFamily(ksp, viewer, 3, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetFromOptions_BCGSM(KSP ksp, CAKrylovOptionItems PetscOptionsObject)
{
  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "KSP BCGSM options");
  PetscCall(KSPSetFromOptionsMatSolve_BiCGStabFamily(ksp, PetscOptionsObject));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPBCGSM - BiCGStab with merged (fused) vector operations: a drop-in `KSPBCGS` that moves fewer bytes

   Options Database Key:
.  -ksp_bcgsm_matsolve_layout <auto,dense,interleaved> - how `KSPMatSolve()`'s block stores its columns (`CAKrylovKSPSetMatSolveLayout()`)

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

   `KSPMatSolve()` (dense B, X; a batch at a time with `-ksp_matsolve_batch_size`) advances the m columns' iterations
   together, in the layout of `CAKrylovMatSolveLayout`. Interleaved (no preconditioner or `PCJACOBI`): v = Â p and
   t = Â s are one interleaved SpMV each (the library's kernel on the AIJ arrays, one pass over the matrix for all m
   columns, per column the bits of `MatMult()` of `MatCreateMAIJ()`) and one fused Jacobi pass, and each fused group is
   one sweep over the rows for all columns. Dense (every other
   preconditioner): one AIJ x dense product and one `PCMatApply()` each on the columns still iterating (PETSc applies a
   PC without a block kernel column by column), the fused passes per column. In both, the dots of all columns of each
   reduction point are summed by one reduction: 3 per iteration for the block. With the default auto layout, the
   first block solve of an operator (and each one after its nonzero state or m changes) times one SpMV and one fused
   pass in both layouts and keeps the faster for more than one column with no preconditioner or `PCJACOBI` (one more
   reduction in that solve); `-ksp_view` shows the choice and the times. Each column
   has its own coefficients and the test of `KSPConvergedDefault()` (rtol, abstol, divtol, max_it, the norm type, and
   -ksp_converged_use_initial_residual_norm / _min_initial_residual_norm / -ksp_converged_maxits) applied to it alone;
   a column that converges, breaks down or meets NaN stops while the others go on, and a column's iterates are those
   of its `KSPSolve()` up to rounding. `KSPGetIterationNumber()` gives the largest column count,
   `KSPGetConvergedReason()` the reason of the first column that failed (else that of the longest column), and
   `CAKrylovKSPGetMatSolveConvergedReasons()` each column's. `-ksp_monitor` prints, per iteration, the largest finite
   residual norm of the columns tested at that iteration, and every monitor sees that column as the KSP's system
   (`KSPGetRhs()`, `KSPGetSolution()`, `KSPBuildSolution()`, `KSPBuildResidual()`: its b and present x, so
   `-ksp_monitor_true_residual` prints its true residual). B and X must be distinct and distributed by rows as the
   operator (`PETSC_ERR_ARG_INCOMP` otherwise). An exact (r, r~) = 0 restarts the column from p = r~ = r, as
   `KSPSolve()` does (`KSPPIPEBCGSM` and `KSPRBICGSTAB`, whose `KSPSolve()` restarts from the true residual, end such a
   block column with `KSP_DIVERGED_BREAKDOWN` after its residual test). A residual that is NaN is `KSP_DIVERGED_NANORINF` (a PC
   failure is not told apart there). The first block solve builds the products for each count of active columns
   (one reduction each in MPIAIJ's symbolic phase); later solves with the same operator reuse them. A user convergence
   test, a null space attached to the operator, an operator other than `MATSEQAIJ`/`MATMPIAIJ`, blocks other than
   `MATSEQDENSE`/`MATMPIDENSE` or `KSPMatSolveTranspose()` fall back to a `KSPSolve()` per column (`-info` says why).

   References:
.  * - B. Krasnopolsky, Revisiting performance of BiCGStab methods for solving systems with multiple
   right-hand sides, Computers and Mathematics with Applications 79 (2020), Appendix B.

.seealso: `KSPCreate()`, `KSPSetType()`, `KSPBCGS`, `KSPPIPEBCGSM`, `KSPCABICGSTAB`
M*/
PetscErrorCode KSPCreate_BCGSM(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPCreate_BiCGStabFamily(ksp, W_COUNT));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_PRECONDITIONED, PC_LEFT, 3));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_RIGHT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_LEFT, 1));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_RIGHT, 1));

  ksp->ops->solve          = KSPSolve_BCGSM;
  ksp->ops->matsolve       = KSPMatSolve_BCGSM;
  ksp->ops->setfromoptions = KSPSetFromOptions_BCGSM;
  ksp->ops->view           = KSPView_BCGSM;
  PetscCall(KSPComposeMatSolve_BiCGStabFamily(ksp, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
