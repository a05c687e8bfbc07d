/*
   KSPRBICGSTAB: reordered BiCGStab, Algorithm 6 of Krasnopolsky, "Revisiting performance of BiCGStab methods for
   solving systems with multiple right-hand sides" (Appendix B, merged formulation; the method is from his ref. [6]),
   right preconditioning. The preconditioner application that classical BiCGStab needs at the start of the next
   half step is done one step early, so that each of the two reductions of an iteration is in flight while one
   preconditioner application runs:
     A  (lines 6-7)   v = A v^;  [delta, (r, r)] = [(v, r0), (r_j, r_j)]       -> reduction 1
                      s = M^{-1} v                                             (hides reduction 1)
     B  (line 10)     t^ = z - alpha s;  t = A t^
     C  (line 12)     r~ = r - alpha v;  [theta, phi, eta, psi] = [(t, r~), (t, t), (r~, r~), (t, r0)]   -> reduction 2
                      q = M^{-1} t                                             (hides reduction 2)
     D  (line 22)     x += alpha v^ + omega t^,  r = r~ - omega t,  z = t^ - omega q,  v^ = z + beta (v^ - omega s)
   with z = M^{-1} r, v^ = M^{-1} p (the preconditioned direction), t^ = M^{-1} r~, s = M^{-1} A v^, q = M^{-1} t;
   rho_{j+1} = (r_{j+1}, r0) = -omega psi (since (r~, r0) = rho - alpha delta = 0). With the identity preconditioner
   z, t^ are r and s, q are v, t: nothing is copied, pass C has no update and pass D two.
*/
#include <cakrylov/private/bicgstabfamily.h>

/* The work vectors, by name (H: the preconditioned vector, M^{-1} of something) */
enum {
  W_R0,
  W_R,
  W_Z,
  W_VH,
  W_V,
  W_S,
  W_TH,
  W_T,
  W_Q,
  W_COUNT
};
enum {
  REGION_1,
  REGION_2
}; /* the overlapped regions of an iteration, for the progression statistics */

/* y = M^{-1} x while the reduction *req is in flight (region kind): counted, progressed if asked */
static PetscErrorCode KSPRBiCGStabPCApply(KSP ksp, PetscInt kind, MPI_Request *req, Vec x, Vec y)
{
  KSP_BiCGStabFamily    *rb = (KSP_BiCGStabFamily *)ksp->data;
  CAKrylovProgressRegion saved;

  PetscFunctionBegin;
  PetscCall(CAKrylovKSPProgressBegin(&rb->progress, kind, req, &saved));
  PetscCall(CAKrylovKSPPCApply(ksp, &rb->progress, x, y));
  PetscCall(CAKrylovKSPProgressEnd(&rb->progress, kind, &saved));
  rb->npc++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Lines 1-4 from the current x: r = b - A x (r = b at a zero-guess start), r0 = r, rho = (r, r) in one reduction
   hidden behind z = M^{-1} r (the extra preconditioner application of the method), v^ = z. Starts the solve, and
   restarts it after an exact (r, r0) = 0.
*/
static PetscErrorCode KSPRBiCGStabStart(KSP ksp, PetscBool start, Vec *w, PetscScalar *rho)
{
  KSP_BiCGStabFamily     *rb = (KSP_BiCGStabFamily *)ksp->data;
  MPI_Request             req;
  const CAKrylovVecUpdate u[] = {
    {.y = w[W_R0], .a = {1.0}, .x = {w[W_R]}}
  }; /* r0 = r */
  const CAKrylovVecUpdate uv[] = {
    {.y = w[W_VH], .a = {1.0}, .x = {w[W_Z]}}
  }; /* v^ = z */

  PetscFunctionBegin;
  PetscCall(KSPTrueResidual_BiCGStabFamily(ksp, start, w[W_R]));
  PetscCall(CAKrylovVecFused(rb->fallback, 1, u, 1, &w[W_R], &w[W_R], rho));
  PetscCall(CAKrylovReductionBegin(PetscObjectComm((PetscObject)ksp), 1, rho, &req));
  if (!rb->identity) PetscCall(KSPRBiCGStabPCApply(ksp, REGION_1, &req, w[W_R], w[W_Z])); /* line 3: z = M^{-1} r */
  PetscCall(CAKrylovReductionEnd(&req));
  rb->nreductions++;
  PetscCall(CAKrylovVecFused(rb->fallback, 1, uv, 0, NULL, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* line 10 (pass B) into u[0]: t^ = z - alpha s;  with the identity t^ = r~ = r - alpha v, in place (w[]: the work vectors,
   the preconditioned ones the plain ones with the identity) */
static void KSPRBiCGStabPassB(PetscBool identity, PetscScalar alpha, const Vec w[], CAKrylovVecUpdate u[1])
{
  if (identity) u[0] = (CAKrylovVecUpdate){.y = w[W_R], .b = 1.0, .a = {-alpha}, .x = {w[W_V]}};
  else
    u[0] = (CAKrylovVecUpdate){
      .y = w[W_TH], .a = {1.0,    -alpha},
           .x = {w[W_Z], w[W_S]}
    };
}

/* line 12 (pass C) into u[] (returns how many) and the 4 dots dx[], dy[]: r~ = r - alpha v (in r; done in pass B with the
   identity), [theta, phi, eta, psi] = [(t, r~), (t, t), (r~, r~), (t, r0)] */
static PetscInt KSPRBiCGStabPassC(PetscBool identity, PetscScalar alpha, const Vec w[], CAKrylovVecUpdate u[1], Vec dx[4], Vec dy[4])
{
  const Vec x[] = {w[W_T], w[W_T], w[W_R], w[W_T]}, y[] = {w[W_R], w[W_T], w[W_R], w[W_R0]};

  for (PetscInt d = 0; d < 4; d++) {
    dx[d] = x[d];
    dy[d] = y[d];
  }
  u[0] = (CAKrylovVecUpdate){.y = w[W_R], .b = 1.0, .a = {-alpha}, .x = {w[W_V]}};
  return identity ? 0 : 1;
}

/* lines 15 and 22 (pass D) into u[] (returns how many): x, r, z, v^; the caller adds the local (r, r) for the test at the
   next reduction */
static PetscInt KSPRBiCGStabPassD(PetscBool identity, PetscScalar alpha, PetscScalar omega, PetscScalar beta, Vec x, const Vec w[], CAKrylovVecUpdate u[4])
{
  PetscInt n = 0;

  u[n++] = (CAKrylovVecUpdate){
    .y = x, .b = 1.0, .a = {alpha,   omega  },
            .x = {w[W_VH], w[W_TH]}
  };                 /* x += alpha v^ + omega t^ (t^ = r~ is read before r changes) */
  u[n++] = (CAKrylovVecUpdate){.y = w[W_R], .b = 1.0, .a = {-omega}, .x = {w[W_T]}}; /* r = r~ - omega t */
  if (!identity)
    u[n++] = (CAKrylovVecUpdate){
      .y = w[W_Z], .a = {1.0,     -omega},
           .x = {w[W_TH], w[W_Q]}
    }; /* z = t^ - omega q */
  u[n++] = (CAKrylovVecUpdate){
    .y = w[W_VH], .b = beta, .a = {1.0,    -beta * omega},
            .x = {w[W_Z], w[W_S]       }
  }; /* v^ = z + beta (v^ - omega s) */
  return n;
}

static PetscErrorCode KSPSolve_RBiCGStab(KSP ksp)
{
  KSP_BiCGStabFamily *rb   = (KSP_BiCGStabFamily *)ksp->data;
  MPI_Comm            comm = PetscObjectComm((PetscObject)ksp);
  Vec                 w[W_COUNT], X = ksp->vec_sol;
  const PetscBool     wantnorm = ksp->normtype != KSP_NORM_NONE ? PETSC_TRUE : PETSC_FALSE;
  PetscBool           pending  = PETSC_FALSE; /* ||r_its|| is still to be tested: its local square is in dot[1] */
  PetscScalar         rho, alpha, omega = 0.0, beta, dot[4];
  MPI_Request         req;

  PetscFunctionBegin;
  PetscCall(KSPSolveBegin_BiCGStabFamily(ksp));
  for (PetscInt i = 0; i < W_COUNT; i++) w[i] = ksp->work[i];
  if (rb->identity) { /* M^{-1} = I: z = r, t^ = r~ (kept in r), s = v, q = t; v^ stays: it is the direction p */
    w[W_Z]  = w[W_R];
    w[W_TH] = w[W_R];
    w[W_S]  = w[W_V];
    w[W_Q]  = w[W_T];
  }

  PetscCall(KSPRBiCGStabStart(ksp, PETSC_TRUE, w, &rho));
  PetscCall(KSPInitialTest_BiCGStabFamily(ksp, rho));

  while (!ksp->reason) {
    PetscCall(CAKrylovKSPMatMult(ksp, w[W_VH], w[W_V])); /* line 6: v = A v^ */
    {                                                    /* line 7 (pass A): delta = (v, r0), with the local (r_j, r_j) of pass D still to be summed */
      const Vec dx[] = {w[W_V]}, dy[] = {w[W_R0]};

      PetscCall(CAKrylovVecFused(rb->fallback, 0, NULL, 1, dx, dy, dot));
    }
    PetscCall(CAKrylovReductionBegin(comm, pending ? 2 : 1, dot, &req));
    if (!rb->identity) PetscCall(KSPRBiCGStabPCApply(ksp, REGION_1, &req, w[W_V], w[W_S])); /* line 8: s = M^{-1} v */
    PetscCall(CAKrylovReductionEnd(&req));
    rb->nreductions++;
    if (pending) { /* the test of iteration its, one half step late: ||r_its|| is exact, not the listing's eta - omega theta */
      pending = PETSC_FALSE;
      PetscCall(KSPNormTest_BiCGStabFamily(ksp, dot[1]));
      if (ksp->reason) break;
    }
    PetscCall(CAKrylovKSPCheckCoefficient(ksp, dot[0], "(r0, A M^{-1} p)"));
    if (ksp->reason) break;
    alpha = rho / dot[0]; /* line 9 */
    PetscCall(CAKrylovKSPCheckCoefficient(ksp, alpha, "alpha"));
    if (ksp->reason) break;

    { /* line 10 */
      CAKrylovVecUpdate u[1];

      KSPRBiCGStabPassB(rb->identity, alpha, w, u);
      PetscCall(CAKrylovVecFused(rb->fallback, 1, u, 0, NULL, NULL, NULL));
    }
    PetscCall(CAKrylovKSPMatMult(ksp, w[W_TH], w[W_T])); /* line 11: t = A t^ */
    {                                                    /* line 12 */
      CAKrylovVecUpdate u[1];
      Vec               dx[4], dy[4];
      const PetscInt    n = KSPRBiCGStabPassC(rb->identity, alpha, w, u, dx, dy);

      PetscCall(CAKrylovVecFused(rb->fallback, n, u, 4, dx, dy, dot));
    }
    PetscCall(CAKrylovReductionBegin(comm, 4, dot, &req));
    if (!rb->identity) PetscCall(KSPRBiCGStabPCApply(ksp, REGION_2, &req, w[W_T], w[W_Q])); /* line 13: q = M^{-1} t */
    PetscCall(CAKrylovReductionEnd(&req));
    rb->nreductions++;
    PetscCall(CAKrylovBiCGStabOmega(ksp, rb->fallback, dot, alpha, X, w[W_VH], &omega, &rb->nits)); /* line 14: omega = theta / phi, or the end */
    if (ksp->reason) break;
    KSPCheckDot(ksp, dot[3]);
    beta = (-omega * dot[3] / rho) * (alpha / omega); /* lines 20-21: rho_{j+1} = -omega psi; beta = (rho_{j+1} / rho_j)(alpha / omega) */

    { /* lines 15, 22 */
      CAKrylovVecUpdate u[4];
      const PetscInt    n = KSPRBiCGStabPassD(rb->identity, alpha, omega, beta, X, w, u);

      PetscCall(CAKrylovVecFused(rb->fallback, n, u, wantnorm ? 1 : 0, &w[W_R], &w[W_R], &dot[1]));
    }
    PetscCall(CAKrylovKSPNextIteration(ksp));
    rb->nits++;
    if (!wantnorm) {
      PetscCall(CAKrylovKSPConvergenceTest(ksp, 0.0));
      if (ksp->reason) break;
    } else pending = PETSC_TRUE;

    if (dot[3] == 0.0) { /* (r_{j+1}, r0) = 0 with r_{j+1} not yet known to be small: restart from the true residual, r0 = r */
      PetscCall(PetscInfo(ksp, "(r, r0) = 0 at iteration %" PetscInt_FMT ": restarting with r0 = r\n", ksp->its));
      PetscCall(KSPRBiCGStabStart(ksp, PETSC_FALSE, w, &rho));
      if (wantnorm) { /* the test of iteration its with the exact norm the restart computed */
        pending = PETSC_FALSE;
        PetscCall(KSPNormTest_BiCGStabFamily(ksp, rho));
      }
      if (!ksp->reason && rho == 0.0) ksp->reason = KSP_CONVERGED_ATOL;
      continue;
    }
    rho = -omega * dot[3];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   KSPMatSolve(): the iteration above for m columns together (src/ksp/common/bicgstabblock.c has the machinery).
   v = A v^ and t = A t^ are one block operator application each (KSPBlockMult_BiCGStabFamily()), s = M^{-1} v and
   q = M^{-1} t (and z_0 = M^{-1} r_0) one block PC application (KSPBlockPCApply_BiCGStabFamily()); the fused passes are
   called per column and flushed after each loop; the dots of all columns of each of the
   2 reduction points of an iteration are one MPI_Iallreduce, in flight while the block's M^{-1} runs, as in the single
   solve. Each column's ||r_k|| is tested with the next iteration's first reduction. A column's arithmetic is that of
   its KSPSolve().
*/

enum {
  P_V,
  P_T,
  P_COUNT
}; /* the products of the block path: v = A v^ (also A x_0, x_0 copied into v^), t = A t^ */

/* y = M^{-1} x on the active columns (not with the identity), while a reduction is in flight */
static PetscErrorCode KSPRBiCGStabBlockPCApply(KSP ksp, KSP_BiCGStabBlockSolve *bs, PetscInt x, PetscInt y)
{
  KSP_BiCGStabFamily *rb = (KSP_BiCGStabFamily *)ksp->data;

  PetscFunctionBegin;
  if (rb->identity) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPBlockPCApply_BiCGStabFamily(ksp, x, y));
  rb->npc += bs->na;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* lines 1-4 per column: r0 = r, rho = (r, r) in one reduction hidden behind z = M^{-1} r; v^ = z; the test of iteration 0;
   the columns that ended leave */
static PetscErrorCode KSPRBiCGStabBlockStart(KSP ksp, KSP_BiCGStabBlockSolve *bs)
{
  KSP_BiCGStabBlock *bk   = &((KSP_BiCGStabFamily *)ksp->data)->block;
  const Vec         *w    = bs->w;
  PetscScalar       *dots = bk->dots;
  MPI_Request        req;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < bs->na; s++) {
    const CAKrylovVecUpdate u[] = {
      {.y = w[W_R0], .a = {1.0}, .x = {w[W_R]}}
    }; /* r0 = r */

    PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, 1, u, 1, &w[W_R], &w[W_R], &dots[s]));
  }
  PetscCall(KSPBlockReduceBegin_BiCGStabFamily(ksp, bs->na, dots, &req));
  PetscCall(KSPRBiCGStabBlockPCApply(ksp, bs, W_R, bs->h[W_Z])); /* line 3: z = M^{-1} r */
  PetscCall(KSPBlockReduceEnd_BiCGStabFamily(bs, &req));
  bs->maxnorm = 0.0;
  for (PetscInt s = 0; s < bs->na; s++) {
    const CAKrylovVecUpdate u[] = {
      {.y = w[W_VH], .a = {1.0}, .x = {w[W_Z]}}
    }; /* v^ = z */

    bk->rho[bk->slot2col[s]] = dots[s];
    PetscCall(KSPBlockInitialTest_BiCGStabFamily(ksp, bs, s, dots[s]));
    PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, 1, u, 0, NULL, NULL, NULL));
  }
  PetscCall(KSPBlockMonitor_BiCGStabFamily(ksp, bs, 0));
  PetscCall(KSPBlockCompact_BiCGStabFamily(ksp, bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* line 6: v = A v^;  line 7 (pass A): delta = (v, r0), with the local (r_k, r_k) of pass D when *pending, in one reduction
   hidden behind line 8: s = M^{-1} v; the test of iteration k one half step late (||r_k|| exact); line 9: alpha = rho / delta;
   the columns that ended leave */
static PetscErrorCode KSPRBiCGStabBlockAlpha(KSP ksp, KSP_BiCGStabBlockSolve *bs, PetscBool *pending)
{
  KSP_BiCGStabBlock *bk   = &((KSP_BiCGStabFamily *)ksp->data)->block;
  const Vec         *w    = bs->w;
  PetscScalar       *dots = bk->dots;
  const PetscInt     nd   = *pending ? 2 : 1;
  MPI_Request        req;

  PetscFunctionBegin;
  PetscCall(KSPBlockMult_BiCGStabFamily(ksp, W_V));
  for (PetscInt s = 0; s < bs->na; s++) {
    PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, 0, NULL, 1, &w[W_V], &w[W_R0], &dots[nd * s]));
    if (*pending) dots[nd * s + 1] = bk->rr[bk->slot2col[s]];
  }
  PetscCall(KSPBlockReduceBegin_BiCGStabFamily(ksp, nd * bs->na, dots, &req));
  PetscCall(KSPRBiCGStabBlockPCApply(ksp, bs, W_V, bs->h[W_S]));
  PetscCall(KSPBlockReduceEnd_BiCGStabFamily(bs, &req));
  if (*pending) {
    bs->maxnorm = 0.0;
    for (PetscInt s = 0; s < bs->na; s++) PetscCall(KSPBlockNormTest_BiCGStabFamily(ksp, bs, s, dots[nd * s + 1]));
    PetscCall(KSPBlockMonitor_BiCGStabFamily(ksp, bs, bs->k));
    *pending = PETSC_FALSE;
  }
  for (PetscInt s = 0; s < bs->na; s++) {
    const PetscInt col = bk->slot2col[s];
    PetscBool      bad;

    if (bk->reason[col]) continue;
    PetscCall(KSPBlockCheckCoefficient_BiCGStabFamily(ksp, s, dots[nd * s], PETSC_TRUE, "(r0, A M^{-1} p)", &bad));
    if (bad) continue;
    bk->alpha[col] = bk->rho[col] / dots[nd * s];
    PetscCall(KSPBlockCheckCoefficient_BiCGStabFamily(ksp, s, bk->alpha[col], PETSC_TRUE, "alpha", &bad));
  }
  PetscCall(KSPBlockCompact_BiCGStabFamily(ksp, bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* line 10 (pass B);  line 11: t = A t^;  line 12 (pass C) with [theta, phi, eta, psi] in one reduction hidden behind
   line 13: q = M^{-1} t;  line 14: omega = theta / phi, or the column ends at the half step x + alpha v^;
   lines 20-21: beta = (rho_{k+1} / rho_k)(alpha / omega) with rho_{k+1} = -omega psi */
static PetscErrorCode KSPRBiCGStabBlockOmega(KSP ksp, KSP_BiCGStabBlockSolve *bs)
{
  KSP_BiCGStabFamily *rb   = (KSP_BiCGStabFamily *)ksp->data;
  KSP_BiCGStabBlock  *bk   = &rb->block;
  PetscScalar        *dots = bk->dots;
  MPI_Request         req;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < bs->na; s++) {
    CAKrylovVecUpdate u[1];

    KSPRBiCGStabPassB(rb->identity, bk->alpha[bk->slot2col[s]], bs->w, u);
    PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, 1, u, 0, NULL, NULL, NULL));
  }
  PetscCall(KSPBlockMult_BiCGStabFamily(ksp, W_T));
  for (PetscInt s = 0; s < bs->na; s++) {
    CAKrylovVecUpdate u[1];
    Vec               dx[4], dy[4];
    const PetscInt    n = KSPRBiCGStabPassC(rb->identity, bk->alpha[bk->slot2col[s]], bs->w, u, dx, dy);

    PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, n, u, 4, dx, dy, &dots[4 * s]));
  }
  PetscCall(KSPBlockReduceBegin_BiCGStabFamily(ksp, 4 * bs->na, dots, &req));
  PetscCall(KSPRBiCGStabBlockPCApply(ksp, bs, W_T, bs->h[W_Q]));
  PetscCall(KSPBlockReduceEnd_BiCGStabFamily(bs, &req));
  bs->maxnorm = 0.0;
  for (PetscInt s = 0; s < bs->na; s++) {
    const PetscInt col = bk->slot2col[s];
    PetscBool      bad;

    PetscCall(KSPBlockOmega_BiCGStabFamily(ksp, bs, s, &dots[4 * s], W_VH));
    if (!bk->live[s]) continue;
    PetscCall(KSPBlockCheckCoefficient_BiCGStabFamily(ksp, s, dots[4 * s + 3], PETSC_FALSE, "(t, r0)", &bad));
    if (bad) continue;
    bk->beta[col] = (-bk->omega[col] * dots[4 * s + 3] / bk->rho[col]) * (bk->alpha[col] / bk->omega[col]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* lines 15, 22 (pass D) per live column: x, r, z, v^ and the local (r, r) for the test at the next reduction (*pending);
   rho_{k+1} = -omega psi; with KSP_NORM_NONE the test of iteration k; the columns that ended leave. An exact
   psi = (r_{k+1}, r0) = 0 (KSPSolve() restarts from it) gives rho_{k+1} = 0: the column's pending test of ||r_{k+1}|| still
   comes first (r_{k+1} = 0 converged), and only then does alpha = rho_{k+1} / delta = 0 end it as a breakdown */
static PetscErrorCode KSPRBiCGStabBlockUpdate(KSP ksp, KSP_BiCGStabBlockSolve *bs, PetscBool *pending)
{
  KSP_BiCGStabFamily *rb       = (KSP_BiCGStabFamily *)ksp->data;
  KSP_BiCGStabBlock  *bk       = &rb->block;
  const PetscScalar  *dots     = bk->dots;
  const PetscBool     wantnorm = ksp->normtype != KSP_NORM_NONE ? PETSC_TRUE : PETSC_FALSE;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < bs->na; s++) {
    const PetscInt col = bk->slot2col[s];

    CAKrylovVecUpdate u[4];
    PetscInt          n;

    if (!bk->live[s]) continue;
    n = KSPRBiCGStabPassD(rb->identity, bk->alpha[col], bk->omega[col], bk->beta[col], bs->w[W_COUNT], bs->w, u);
    PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, n, u, wantnorm ? 1 : 0, &bs->w[W_R], &bs->w[W_R], &bk->rr[col]));
  }
  bs->k++;
  for (PetscInt s = 0; s < bs->na; s++) {
    const PetscInt col = bk->slot2col[s];

    if (!bk->live[s]) continue;
    bk->its[col] = bs->k;
    if (!wantnorm) PetscCall(KSPBlockNormTest_BiCGStabFamily(ksp, bs, s, 0.0));
    if (!bk->reason[col] && dots[4 * s + 3] == 0.0) PetscCall(PetscInfo(ksp, "KSPMatSolve() column %" PetscInt_FMT ": (r, r0) = 0 at iteration %" PetscInt_FMT ": a breakdown unless its residual passes the test\n", col, bs->k));
    bk->rho[col] = -bk->omega[col] * dots[4 * s + 3];
  }
  if (!wantnorm) PetscCall(KSPBlockMonitor_BiCGStabFamily(ksp, bs, bs->k));
  *pending = wantnorm;
  PetscCall(KSPBlockCompact_BiCGStabFamily(ksp, bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPMatSolve_RBiCGStab(KSP ksp, Mat B, Mat X)
{
  KSP_BiCGStabBlockSolve bs      = {0};
  const PetscInt         pairs[] = {W_Z, W_R, W_TH, W_R, W_S, W_V, W_Q, W_T}; /* with the identity z, t^ are r, s is v, q is t */
  const PetscInt         carry[] = {W_R0, W_R, W_Z, W_VH, W_V, W_S};
  PetscBool              use, pending = PETSC_FALSE; /* pending: the columns' ||r_k|| are to be tested at the next reduction */
  PetscInt               m;

  PetscFunctionBegin;
  PetscCall(KSPMatSolveUseBlock_BiCGStabFamily(ksp, B, X, &use));
  if (!use) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetSize(B, NULL, &m));
  PetscCall(KSPBlockMapWork_BiCGStabFamily(ksp, &bs, 4, pairs, 6, carry));
  {
    const PetscInt in[P_COUNT] = {W_VH, bs.h[W_TH]}, out[P_COUNT] = {W_V, W_T};

    PetscCall(KSPBlockSetUp_BiCGStabFamily(ksp, m, W_COUNT, P_COUNT, in, out));
  }
  PetscCall(KSPBlockSolveBegin_BiCGStabFamily(ksp, B, X, &bs));

  PetscCall(KSPBlockInitialResidual_BiCGStabFamily(ksp, &bs, W_R, W_T, W_Q)); /* right preconditioning: no scratch used */
  PetscCall(KSPRBiCGStabBlockStart(ksp, &bs));
  while (bs.na) {
    PetscCall(KSPRBiCGStabBlockAlpha(ksp, &bs, &pending));
    if (!bs.na) break;
    PetscCall(KSPRBiCGStabBlockOmega(ksp, &bs));
    PetscCall(KSPRBiCGStabBlockUpdate(ksp, &bs, &pending));
  }
  PetscCall(KSPBlockSolveEnd_BiCGStabFamily(ksp, B, X, &bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The cost of one iteration for KSPAUTOBCGS's model (Krasnopolsky eq. (18) in this type's counts): 2 operator
   applications, 16 vector reads+writes (21 with a preconditioner, eq. (18)), and reductions of 2 and 4 numbers,
   each hidden behind one preconditioner application (nothing hides them with the identity). Pass D streams 8 of the
   vectors (11 with a preconditioner), charged at the time per vector of a pass that wide, as pipebcgsm's passes are;
   passes A-C at that of a 4-vector pass */
PetscReal KSPRBiCGStabTimePerIteration(const CAKrylovCosts *c)
{
  const PetscReal wide = c->pc > 0 ? 11 : 8;

  return 2 * c->spmv + ((c->pc > 0 ? 21 : 16) - wide) * c->vec + wide * c->vec_wide + CAKrylovCostsOverlap(c, c->pc, 16) + CAKrylovCostsOverlap(c, c->pc, 32);
}

static PetscErrorCode KSPView_RBiCGStab(KSP ksp, PetscViewer viewer)
{
  KSP_BiCGStabFamily *rb = (KSP_BiCGStabFamily *)ksp->data;
  PetscBool           isascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  reordered, merged vector operations: 2 non-blocking global reductions per iteration, each hidden behind one PC application\n"));
  PetscCall(CAKrylovKSPProgressView(&rb->progress, viewer));
  PetscCall(KSPViewStatistics_BiCGStabFamily(ksp, viewer, rb->npc, "PC applications"));
  PetscCall(KSPViewBlock_BiCGStabFamily(ksp, viewer, 2, "one block PC application"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPDestroy_RBiCGStab(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPRBiCGStabSetProgress_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPRBiCGStabGetProgress_C", NULL));
  PetscCall(KSPDestroy_BiCGStabFamily(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetFromOptions_RBiCGStab(KSP ksp, CAKrylovOptionItems PetscOptionsObject)
{
  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "KSP RBICGSTAB options");
  PetscCall(KSPSetFromOptionsProgress_BiCGStabFamily(ksp, PetscOptionsObject, "KSPRBiCGStabSetProgress"));
  PetscCall(KSPSetFromOptionsMatSolve_BiCGStabFamily(ksp, PetscOptionsObject));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPRBiCGStabSetProgress - Sets how `KSPRBICGSTAB` helps its non-blocking reductions progress while the
  preconditioner that hides them runs

  Logically Collective

  Input Parameters:
+ ksp    - the Krylov solver
. type   - `CAKRYLOV_PROGRESS_NONE` (default) or `CAKRYLOV_PROGRESS_TEST`
- ntests - with `CAKRYLOV_PROGRESS_TEST`, about this many `MPI_Test` calls per overlapped region (default 20)

  Options Database Keys:
+ -ksp_rbicgstab_progress <none,test> - the type
- -ksp_rbicgstab_progress_tests <n>  - the number of tests

  Notes:
  Many MPI libraries advance a non-blocking reduction only inside MPI calls (Krasnopolsky, Appendix C). With
  `CAKRYLOV_PROGRESS_TEST` the preconditioner application that hides a reduction polls it at the boundaries of its
  chunks: `PCJACOBI` (applied in chunks by this library, bitwise as PETSc does) and `PCSYNTHETIC`; other
  preconditioners run unchanged, without tests. The tests are spread over the region by the number of chunk
  boundaries the same region had before; the first region, whose work is not known yet, tests at boundaries 1, 2, 4,
  8, ...; no region makes more than n + 1 tests. `-ksp_view` reports the tests made.
  Iterates are bitwise the same with and without progression.

  Level: intermediate

.seealso: `KSPRBICGSTAB`, `KSPRBiCGStabGetProgress()`, `CAKrylovProgressType`, `KSPPIPEBCGSMSetProgress()`
@*/
PetscErrorCode KSPRBiCGStabSetProgress(KSP ksp, CAKrylovProgressType type, PetscInt ntests)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(ksp, type, 2);
  PetscValidLogicalCollectiveInt(ksp, ntests, 3);
  PetscTryMethod(ksp, "KSPRBiCGStabSetProgress_C", (KSP, CAKrylovProgressType, PetscInt), (ksp, type, ntests));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPRBiCGStabGetProgress - Gets how `KSPRBICGSTAB` progresses its non-blocking reductions

  Not Collective

  Input Parameter:
. ksp - the Krylov solver

  Output Parameters:
+ type   - the progression type (or `NULL`)
- ntests - the `MPI_Test` calls aimed at per overlapped region (or `NULL`)

  Level: intermediate

.seealso: `KSPRBICGSTAB`, `KSPRBiCGStabSetProgress()`
@*/
PetscErrorCode KSPRBiCGStabGetProgress(KSP ksp, CAKrylovProgressType *type, PetscInt *ntests)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscUseMethod(ksp, "KSPRBiCGStabGetProgress_C", (KSP, CAKrylovProgressType *, PetscInt *), (ksp, type, ntests));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPRBICGSTAB - reordered BiCGStab: two non-blocking global reductions per iteration, each hidden behind a
   preconditioner application, with merged (fused) vector operations

   Options Database Keys:
+  -ksp_rbicgstab_progress <none,test> - progression of the reductions while the preconditioner runs (see `KSPRBiCGStabSetProgress()`)
.  -ksp_rbicgstab_progress_tests <20>  - `MPI_Test` calls per overlapped region with progress test
-  -ksp_rbicgstab_matsolve_layout <auto,dense,interleaved> - how `KSPMatSolve()`'s block stores its columns (`CAKrylovKSPSetMatSolveLayout()`)

   Level: intermediate

   Notes:
   Krasnopolsky's merged Algorithm 6 (right preconditioning): the preconditioner application that classical
   BiCGStab makes at the start of each half step is made one step early, while the reduction of that step is in
   flight: s = M^{-1} A M^{-1} p hides [(A M^{-1} p, r0)], q = M^{-1} t hides [(t, r~), (t, t), (r~, r~), (t, r0)].
   Four fused passes over memory per iteration (vector reads+writes, excluding the SpMVs and PC applications):
   A 2 reads; B 2 reads + 1 write; C 4 reads + 1 write; D 7 reads + 4 writes: 15 reads + 6 writes = 21, the
   paper's Table 2 (RBiCGStab, merged). With the identity preconditioner z, t^, s, q are r, r~, v, t and nothing
   is copied: 12 reads + 4 writes = 16. The listing's fix of its line 22 is followed.

   Costs relative to `KSPBCGSM` with right preconditioning: one more preconditioner application per solve (line 3,
   z0 = M^{-1} r0, itself hiding the first reduction), and the residual norm one half step late: the listing's
   estimate ||r_{j+1}||^2 = eta - omega theta cancels when the residual drops, so this implementation sums the exact
   (r_{j+1}, r_{j+1}) (computed in pass D) with the next iteration's first reduction, at no extra reduction; the
   converged iteration costs one more SpMV and PC application, whose results are not used. A solve of n iterations
   issues 2 n + 2 reductions with a norm (2 n + 1 with `KSP_NORM_NONE`), all non-blocking, and applies the
   preconditioner 2 n + 2 times. -ksp_view counts both.

   An exact (r, r0) = 0 with r != 0 restarts from the true residual with r0 = r; breakdowns end with
   `KSP_DIVERGED_BREAKDOWN`, non-finite values with `KSP_DIVERGED_NANORINF`, x holding the last finite iterate.
   Right preconditioning only, unpreconditioned norm or `KSP_NORM_NONE`. Memory: 9 work vectors.

   `KSPMatSolve()` (dense B, X; a batch at a time with `-ksp_matsolve_batch_size`) advances the m columns' iterations
   together, as `KSPBCGSM` does (see its manual page for the per-column convergence tests, reasons, monitor and the
   fallback to a `KSPSolve()` per column, and for the two layouts, `CAKrylovMatSolveLayout`): v = A v^ and t = A t^
   are one block operator application each (an interleaved SpMV, or an AIJ x dense product; auto measures which is faster, see `KSPBCGSM`), s = M^{-1} v
   and q = M^{-1} t one block preconditioner application each (a fused Jacobi pass, or `PCMatApply()`); each fused
   group is one pass for all columns (interleaved) or one per column (dense), and the dots
   of all columns of each reduction point are one `MPI_Iallreduce` in flight while the block's preconditioner runs:
   2 reductions per iteration for the block, as for one system, each column's residual norm tested one half step
   late as in `KSPSolve()`. Differences from `KSPSolve()`: an exact (r, r0) = 0, which `KSPSolve()` restarts from,
   ends the column with `KSP_DIVERGED_BREAKDOWN`; -ksp_rbicgstab_progress test does not poll in the block path;
   -ksp_view's PC applications count a block application once per column.

   References:
.  * - B. Krasnopolsky, Revisiting performance of BiCGStab methods for solving systems with multiple right-hand
   sides, Computers and Mathematics with Applications 79 (2020), Algorithm 6 and Appendix C.

.seealso: `KSPCreate()`, `KSPSetType()`, `KSPBCGS`, `KSPBCGSM`, `KSPPIPEBCGSM`, `KSPRBiCGStabSetProgress()`, `PCSYNTHETIC`
M*/
PetscErrorCode KSPCreate_RBiCGStab(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPCreate_BiCGStabFamily(ksp, W_COUNT));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPRBiCGStabSetProgress_C", KSPSetProgress_BiCGStabFamily));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPRBiCGStabGetProgress_C", KSPGetProgress_BiCGStabFamily));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_RIGHT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_RIGHT, 1));

  ksp->ops->solve          = KSPSolve_RBiCGStab;
  ksp->ops->matsolve       = KSPMatSolve_RBiCGStab;
  ksp->ops->view           = KSPView_RBiCGStab;
  ksp->ops->setfromoptions = KSPSetFromOptions_RBiCGStab;
  ksp->ops->destroy        = KSPDestroy_RBiCGStab;
  PetscCall(KSPComposeMatSolve_BiCGStabFamily(ksp, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
