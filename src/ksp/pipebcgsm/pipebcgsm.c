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
enum {
  W_R,
  W_RT,
  W_RH,
  W_W,
  W_WH,
  W_T,
  W_PH,
  W_SH,
  W_QH,
  W_S,
  W_Z,
  W_ZH,
  W_Q,
  W_Y,
  W_V,
  W_COUNT
};

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
  const CAKrylovVecUpdate u[] = {
    {.y = work[W_RT], .a = {1.0}, .x = {work[W_R]}}
  }; /* rt = r */
  const Vec dx[] = {work[W_R], work[W_W]}, dy[] = {work[W_R], work[W_R]};

  PetscFunctionBegin;
  PetscCall(KSPTrueResidual_BiCGStabFamily(ksp, start, work[W_R]));
  PetscCall(KSPPIPEBCGSMPrecMult(ksp, work[W_R], work[W_RH], work[W_W]));
  PetscCall(CAKrylovVecFused(pb->fallback, 1, u, 2, dx, dy, dot)); /* [(r, r), (w, r)] */
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
  PetscCall(KSPTrueResidual_BiCGStabFamily(ksp, PETSC_FALSE, work[W_R])); /* r = b - A x */
  PetscCall(KSPPIPEBCGSMPrecMult(ksp, work[W_R], work[W_RH], work[W_W])); /* r^ = M^{-1} r, w = A r^ */
  PetscCall(KSPPIPEBCGSMPrecMult(ksp, work[W_W], work[W_WH], work[W_T])); /* w^ = M^{-1} w, t = A w^ */
  PetscCall(CAKrylovKSPMatMult(ksp, work[W_PH], work[W_S]));              /* s = A p^ */
  PetscCall(KSPPIPEBCGSMPrecMult(ksp, work[W_S], work[W_SH], work[W_Z])); /* s^ = M^{-1} s, z = A s^ */
  PetscCall(KSPPIPEBCGSMPrecMult(ksp, work[W_Z], work[W_ZH], work[W_V])); /* z^ = M^{-1} z, v = A z^ */
  pb->nreplacements++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The updates of group A (lines 4-5) into u[] (returns how many): the directions (first: the first iteration after a
   (re)start, no old directions), q^, q, y; w[] are the work vectors (the hatted ones the plain ones with the identity) */
static PetscInt KSPPIPEBCGSMGroupA(PetscBool identity, PetscBool first, PetscScalar alpha, PetscScalar beta, PetscScalar omega, const Vec w[], CAKrylovVecUpdate u[7])
{
  PetscInt n = 0;

  if (first) { /* p^ = r^, s^ = w^, s = w, z = t */
    u[n++] = (CAKrylovVecUpdate){.y = w[W_PH], .a = {1.0}, .x = {w[W_RH]}};
    if (!identity) u[n++] = (CAKrylovVecUpdate){.y = w[W_SH], .a = {1.0}, .x = {w[W_WH]}};
    u[n++] = (CAKrylovVecUpdate){.y = w[W_S], .a = {1.0}, .x = {w[W_W]}};
    u[n++] = (CAKrylovVecUpdate){.y = w[W_Z], .a = {1.0}, .x = {w[W_T]}};
  } else { /* p^ = r^ + beta (p^ - omega s^), s^ = w^ + beta (s^ - omega z^), s = w + beta (s - omega z), z = t + beta (z - omega v) */
    u[n++] = (CAKrylovVecUpdate){
      .y = w[W_PH], .b = beta, .a = {1.0,     -beta * omega},
              .x = {w[W_RH], w[W_SH]      }
    };
    if (!identity)
      u[n++] = (CAKrylovVecUpdate){
        .y = w[W_SH], .b = beta, .a = {1.0,     -beta * omega},
                .x = {w[W_WH], w[W_ZH]      }
      };
    u[n++] = (CAKrylovVecUpdate){
      .y = w[W_S], .b = beta, .a = {1.0,    -beta * omega},
              .x = {w[W_W], w[W_Z]       }
    };
    u[n++] = (CAKrylovVecUpdate){
      .y = w[W_Z], .b = beta, .a = {1.0,    -beta * omega},
              .x = {w[W_T], w[W_V]       }
    };
  }
  if (!identity)
    u[n++] = (CAKrylovVecUpdate){
      .y = w[W_QH], .a = {1.0,     -alpha },
           .x = {w[W_RH], w[W_SH]}
    }; /* q^ = r^ - alpha s^ */
  u[n++] = (CAKrylovVecUpdate){
    .y = w[W_Q], .a = {1.0,    -alpha},
         .x = {w[W_R], w[W_S]}
  }; /* q = r - alpha s */
  u[n++] = (CAKrylovVecUpdate){
    .y = w[W_Y], .a = {1.0,    -alpha},
         .x = {w[W_W], w[W_Z]}
  }; /* y = w - alpha z */
  return n;
}

/* Group B (line 13) into u[] (returns how many): x = x + alpha p^ + omega q^,  r^ = q^ - omega w^ + omega alpha z^
   (r^ = r comes from group C with the identity) */
static PetscInt KSPPIPEBCGSMGroupB(PetscBool identity, PetscScalar alpha, PetscScalar omega, Vec x, const Vec w[], CAKrylovVecUpdate u[2])
{
  PetscInt n = 0;

  u[n++] = (CAKrylovVecUpdate){
    .y = x, .b = 1.0, .a = {alpha,   omega  },
            .x = {w[W_PH], w[W_QH]}
  };
  if (!identity)
    u[n++] = (CAKrylovVecUpdate){
      .y = w[W_RH], .a = {1.0,     -omega,  omega * alpha},
           .x = {w[W_QH], w[W_WH], w[W_ZH]      }
    };
  return n;
}

/* Group C (line 14), one pass, into u[] and dx[], dy[] (returns the number of dots): r = q - omega y,
   w = y - omega t + omega alpha v,  and the dots [rho, psi, sigma, delta, nu] = [(r, rt), (z, rt), (w, rt), (s, rt), (r, r)]
   (the first 4 without the norm) */
static PetscInt KSPPIPEBCGSMGroupC(PetscBool wantnorm, PetscScalar alpha, PetscScalar omega, const Vec w[], CAKrylovVecUpdate u[2], Vec dx[5], Vec dy[5])
{
  const Vec x[] = {w[W_R], w[W_Z], w[W_W], w[W_S], w[W_R]}, y[] = {w[W_RT], w[W_RT], w[W_RT], w[W_RT], w[W_R]};

  u[0] = (CAKrylovVecUpdate){
    .y = w[W_R], .a = {1.0,    -omega},
         .x = {w[W_Q], w[W_Y]}
  };
  u[1] = (CAKrylovVecUpdate){
    .y = w[W_W], .a = {1.0,    -omega, omega * alpha},
         .x = {w[W_Y], w[W_T], w[W_V]       }
  };
  for (PetscInt d = 0; d < 5; d++) {
    dx[d] = x[d];
    dy[d] = y[d];
  }
  return wantnorm ? 5 : 4;
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
      const PetscInt    n    = KSPPIPEBCGSMGroupA(pb->identity, first, alpha, beta, omega, w, u);
      const Vec         dx[] = {w[W_Q], w[W_Y], w[W_Q]}, dy[] = {w[W_Y], w[W_Y], w[W_Q]};

      PetscCall(CAKrylovVecFused(pb->fallback, n, u, 3, dx, dy, dot));
    }
    PetscCall(CAKrylovReductionBegin(comm, 3, dot, &req));
    PetscCall(KSPPIPEBCGSMHiddenPrecMult(ksp, 0, &req, w[W_Z], w[W_ZH], w[W_V])); /* line 6: z^ = M^{-1} z, v = A z^ */
    PetscCall(CAKrylovReductionEnd(&req));
    pb->nreductions++;
    first = PETSC_FALSE;
    PetscCall(CAKrylovBiCGStabOmega(ksp, pb->fallback, dot, alpha, X, w[W_PH], &omega, &pb->nits)); /* line 7: omega = theta / phi, or the end */
    if (ksp->reason) break;

    { /* line 13 (group B): x, r^ */
      CAKrylovVecUpdate u[2];
      const PetscInt    n = KSPPIPEBCGSMGroupB(pb->identity, alpha, omega, X, w, u);

      PetscCall(CAKrylovVecFused(pb->fallback, n, u, 0, NULL, NULL, NULL));
    }
    { /* line 14 (group C): r, w, [rho, psi, sigma, delta, nu] */
      CAKrylovVecUpdate u[2];
      Vec               dx[5], dy[5];
      const PetscInt    nd = KSPPIPEBCGSMGroupC(wantnorm, alpha, omega, w, u, dx, dy);

      PetscCall(CAKrylovVecFused(pb->fallback, 2, u, nd, dx, dy, dot));
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
    beta = (alpha / omega) * (dot[0] / rho); /* line 16 */
    PetscCall(CAKrylovKSPCheckCoefficient(ksp, dot[2] + beta * dot[3] - beta * omega * dot[1], "(rt, s_{j+1})"));
    if (ksp->reason) break;
    alpha = dot[0] / (dot[2] + beta * dot[3] - beta * omega * dot[1]); /* line 17 */
    PetscCall(CAKrylovKSPCheckCoefficient(ksp, alpha, "alpha"));
    if (ksp->reason) break;
    rho = dot[0];
    if (pb->replace_period > 0 && ksp->its % pb->replace_period == 0) PetscCall(KSPPIPEBCGSMReplace(ksp, w));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   KSPMatSolve(): the iteration above for m columns together (src/ksp/common/bicgstabblock.c has the machinery). Each
   M^{-1}, A pair of the single solve is one block PC application and one block operator application
   (KSPBlockPCApply_BiCGStabFamily(), KSPBlockMult_BiCGStabFamily()); the fused groups are called per column and flushed
   after each loop; the dots of all columns of each of the 2 reduction points of an
   iteration are one MPI_Iallreduce, in flight while the block's z^ = M^{-1} z, v = A z^ (first) and w^ = M^{-1} w,
   t = A w^ (second) are computed, as in the single solve. A column's arithmetic is that of its KSPSolve().
*/

/* The products alias[out] = A alias[in] of the block path: w = A r^, t = A w^, v = A z^, and for residual replacement
   s = A p^, z = A s^ (the first also forms A x in w from x copied into r^) */
enum {
  P_W,
  P_T,
  P_V,
  P_S,
  P_Z,
  P_COUNT
};

/* y^ = M^{-1} y (not with the identity) and z = A y^ on the active columns (the product that writes z) */
static PetscErrorCode KSPPIPEBCGSMBlockPrecMult(KSP ksp, KSP_BiCGStabBlockSolve *bs, PetscInt y, PetscInt yh, PetscInt z)
{
  KSP_BiCGStabFamily *fam = (KSP_BiCGStabFamily *)ksp->data;

  PetscFunctionBegin;
  if (!fam->identity) PetscCall(KSPBlockPCApply_BiCGStabFamily(ksp, bs->h[y], bs->h[yh]));
  PetscCall(KSPBlockMult_BiCGStabFamily(ksp, bs->h[z]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* lines 1-2 per column: r^ = M^{-1} r, w = A r^, rt = r, [rho, (rt, w)] = [(r, r), (w, r)] in one reduction hidden behind
   w^ = M^{-1} w, t = A w^; the test of iteration 0, alpha = rho / (rt, w); the columns that ended leave */
static PetscErrorCode KSPPIPEBCGSMBlockStart(KSP ksp, KSP_BiCGStabBlockSolve *bs)
{
  KSP_BiCGStabBlock *bk   = &((KSP_BiCGStabFamily *)ksp->data)->block;
  const Vec         *w    = bs->w;
  PetscScalar       *dots = bk->dots;
  MPI_Request        req;

  PetscFunctionBegin;
  PetscCall(KSPPIPEBCGSMBlockPrecMult(ksp, bs, W_R, W_RH, W_W));
  for (PetscInt s = 0; s < bs->na; s++) {
    const CAKrylovVecUpdate u[] = {
      {.y = w[W_RT], .a = {1.0}, .x = {w[W_R]}}
    }; /* rt = r */
    const Vec dx[] = {w[W_R], w[W_W]}, dy[] = {w[W_R], w[W_R]};

    PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, 1, u, 2, dx, dy, &dots[2 * s]));
  }
  PetscCall(KSPBlockReduceBegin_BiCGStabFamily(ksp, 2 * bs->na, dots, &req));
  PetscCall(KSPPIPEBCGSMBlockPrecMult(ksp, bs, W_W, W_WH, W_T));
  PetscCall(KSPBlockReduceEnd_BiCGStabFamily(bs, &req));
  bs->maxnorm = 0.0;
  for (PetscInt s = 0; s < bs->na; s++) {
    const PetscInt col = bk->slot2col[s];
    PetscBool      bad;

    bk->rho[col] = dots[2 * s];
    PetscCall(KSPBlockInitialTest_BiCGStabFamily(ksp, bs, s, dots[2 * s]));
    if (bk->reason[col]) continue;
    PetscCall(KSPBlockCheckCoefficient_BiCGStabFamily(ksp, s, dots[2 * s + 1], PETSC_TRUE, "(rt, A r)", &bad));
    if (bad) continue;
    bk->alpha[col] = bk->rho[col] / dots[2 * s + 1];
    PetscCall(KSPBlockCheckCoefficient_BiCGStabFamily(ksp, s, bk->alpha[col], PETSC_TRUE, "alpha", &bad));
  }
  PetscCall(KSPBlockMonitor_BiCGStabFamily(ksp, bs, 0));
  PetscCall(KSPBlockCompact_BiCGStabFamily(ksp, bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* lines 4-5 (group A) per column with [theta, phi, pi] = [(q, y), (y, y), (q, q)] in one reduction hidden behind line 6:
   z^ = M^{-1} z, v = A z^;  line 7: omega = theta / phi, or the column ends at the half step x + alpha p^ */
static PetscErrorCode KSPPIPEBCGSMBlockGroupA(KSP ksp, KSP_BiCGStabBlockSolve *bs)
{
  KSP_BiCGStabFamily *fam  = (KSP_BiCGStabFamily *)ksp->data;
  KSP_BiCGStabBlock  *bk   = &fam->block;
  const Vec          *w    = bs->w;
  PetscScalar        *dots = bk->dots;
  MPI_Request         req;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < bs->na; s++) {
    const PetscInt    col  = bk->slot2col[s];
    const Vec         dx[] = {w[W_Q], w[W_Y], w[W_Q]}, dy[] = {w[W_Y], w[W_Y], w[W_Q]};
    CAKrylovVecUpdate u[7];
    const PetscInt    n = KSPPIPEBCGSMGroupA(fam->identity, bk->restart[col], bk->alpha[col], bk->beta[col], bk->omega[col], w, u);

    PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, n, u, 3, dx, dy, &dots[3 * s]));
    bk->restart[col] = PETSC_FALSE;
  }
  PetscCall(KSPBlockReduceBegin_BiCGStabFamily(ksp, 3 * bs->na, dots, &req));
  PetscCall(KSPPIPEBCGSMBlockPrecMult(ksp, bs, W_Z, W_ZH, W_V));
  PetscCall(KSPBlockReduceEnd_BiCGStabFamily(bs, &req));
  bs->maxnorm = 0.0;
  for (PetscInt s = 0; s < bs->na; s++) PetscCall(KSPBlockOmega_BiCGStabFamily(ksp, bs, s, &dots[3 * s], bs->h[W_PH]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* line 16: beta = (alpha / omega)(rho_new / rho);  line 17: alpha = rho_new / ((w, rt) + beta (s, rt) - beta omega (z, rt))
   for the column of slot s, from d = [rho_new, psi, sigma, delta] = [(r, rt), (z, rt), (w, rt), (s, rt)]; an exact
   (r, rt) = 0, which the single solve restarts from, ends the column with a breakdown */
static PetscErrorCode KSPPIPEBCGSMBlockCoefficients(KSP ksp, PetscInt s, const PetscScalar d[4])
{
  KSP_BiCGStabBlock *bk  = &((KSP_BiCGStabFamily *)ksp->data)->block;
  const PetscInt     col = bk->slot2col[s];
  PetscScalar        den;
  PetscBool          bad;

  PetscFunctionBegin;
  PetscCall(KSPBlockCheckCoefficient_BiCGStabFamily(ksp, s, d[0], PETSC_TRUE, "(r, rt)", &bad));
  if (bad) PetscFunctionReturn(PETSC_SUCCESS);
  bk->beta[col] = (bk->alpha[col] / bk->omega[col]) * (d[0] / bk->rho[col]);
  den           = d[2] + bk->beta[col] * d[3] - bk->beta[col] * bk->omega[col] * d[1];
  PetscCall(KSPBlockCheckCoefficient_BiCGStabFamily(ksp, s, den, PETSC_TRUE, "(rt, s_{j+1})", &bad));
  if (bad) PetscFunctionReturn(PETSC_SUCCESS);
  bk->alpha[col] = d[0] / den;
  PetscCall(KSPBlockCheckCoefficient_BiCGStabFamily(ksp, s, bk->alpha[col], PETSC_TRUE, "alpha", &bad));
  bk->rho[col] = d[0];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* line 13 (group B) and line 14 (group C) per column, the dots of C in one reduction hidden behind line 15: w^ = M^{-1} w,
   t = A w^; the test of iteration k per column (||r|| exact), the block's monitor, the coefficients of the next iteration;
   the columns that ended leave */
static PetscErrorCode KSPPIPEBCGSMBlockGroupBC(KSP ksp, KSP_BiCGStabBlockSolve *bs)
{
  KSP_BiCGStabFamily *fam      = (KSP_BiCGStabFamily *)ksp->data;
  KSP_BiCGStabBlock  *bk       = &fam->block;
  const Vec          *w        = bs->w;
  PetscScalar        *dots     = bk->dots;
  const PetscBool     wantnorm = ksp->normtype != KSP_NORM_NONE ? PETSC_TRUE : PETSC_FALSE;
  const PetscInt      nd       = wantnorm ? 5 : 4;
  MPI_Request         req;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < bs->na; s++) {
    const PetscInt    col = bk->slot2col[s];
    CAKrylovVecUpdate u[2];
    Vec               dx[5], dy[5];
    PetscInt          n;

    PetscCall(PetscArrayzero(&dots[nd * s], nd));
    if (!bk->live[s]) continue;
    n = KSPPIPEBCGSMGroupB(fam->identity, bk->alpha[col], bk->omega[col], w[W_COUNT], w, u);
    PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, n, u, 0, NULL, NULL, NULL));
    (void)KSPPIPEBCGSMGroupC(wantnorm, bk->alpha[col], bk->omega[col], w, u, dx, dy);
    PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, 2, u, nd, dx, dy, &dots[nd * s]));
  }
  PetscCall(KSPBlockReduceBegin_BiCGStabFamily(ksp, nd * bs->na, dots, &req));
  PetscCall(KSPPIPEBCGSMBlockPrecMult(ksp, bs, W_W, W_WH, W_T));
  PetscCall(KSPBlockReduceEnd_BiCGStabFamily(bs, &req));
  bs->k++;
  for (PetscInt s = 0; s < bs->na; s++) {
    if (!bk->live[s]) continue;
    PetscCall(KSPBlockNormTest_BiCGStabFamily(ksp, bs, s, wantnorm ? dots[nd * s + 4] : 0.0));
    if (!bk->reason[bk->slot2col[s]]) PetscCall(KSPPIPEBCGSMBlockCoefficients(ksp, s, &dots[nd * s]));
  }
  PetscCall(KSPBlockMonitor_BiCGStabFamily(ksp, bs, bs->k));
  PetscCall(KSPBlockCompact_BiCGStabFamily(ksp, bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Residual replacement of the active columns (all at iteration k), as KSPPIPEBCGSMReplace(): r = b - A x (x copied into
   the r^ block, A x into w), r^ = M^{-1} r, w = A r^, w^ = M^{-1} w, t = A w^, s = A p^, s^ = M^{-1} s, z = A s^,
   z^ = M^{-1} z, v = A z^ */
static PetscErrorCode KSPPIPEBCGSMBlockReplace(KSP ksp, KSP_BiCGStabBlockSolve *bs)
{
  KSP_BiCGStabFamily *fam = (KSP_BiCGStabFamily *)ksp->data;
  const Vec          *w   = bs->w;

  PetscFunctionBegin;
  PetscCall(KSPBlockMultSolution_BiCGStabFamily(ksp, bs, W_W));
  for (PetscInt s = 0; s < bs->na; s++) {
    const CAKrylovVecUpdate u[] = {
      {.y = w[W_R], .a = {1.0, -1.0}, .x = {w[W_COUNT + 1], w[W_W]}}
    }; /* r = b - A x */

    PetscCall(KSPBlockFused_BiCGStabFamily(ksp, bs, s, 1, u, 0, NULL, NULL, NULL));
  }
  PetscCall(KSPPIPEBCGSMBlockPrecMult(ksp, bs, W_R, W_RH, W_W));
  PetscCall(KSPPIPEBCGSMBlockPrecMult(ksp, bs, W_W, W_WH, W_T));
  PetscCall(KSPBlockMult_BiCGStabFamily(ksp, W_S));
  PetscCall(KSPPIPEBCGSMBlockPrecMult(ksp, bs, W_S, W_SH, W_Z));
  PetscCall(KSPPIPEBCGSMBlockPrecMult(ksp, bs, W_Z, W_ZH, W_V));
  fam->nreplacements++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The blocks of the work vectors (with the identity r^ = r, w^ = w, s^ = s, q^ = q, z^ = z; p^ stays: it is the direction
   p), the blocks a column carries, the products of this solve */
static PetscErrorCode KSPPIPEBCGSMBlockSetUp(KSP ksp, PetscInt m, KSP_BiCGStabBlockSolve *bs)
{
  KSP_BiCGStabFamily *fam     = (KSP_BiCGStabFamily *)ksp->data;
  const PetscInt      pairs[] = {W_RH, W_R, W_WH, W_W, W_SH, W_S, W_QH, W_Q, W_ZH, W_Z};
  const PetscInt      carry[] = {W_R, W_RT, W_RH, W_W, W_WH, W_T, W_PH, W_SH, W_S, W_Z, W_ZH, W_V};

  PetscFunctionBegin;
  PetscCall(KSPBlockMapWork_BiCGStabFamily(ksp, bs, 5, pairs, 12, carry));
  {
    const PetscInt in[P_COUNT] = {bs->h[W_RH], bs->h[W_WH], bs->h[W_ZH], W_PH, bs->h[W_SH]}, out[P_COUNT] = {W_W, W_T, W_V, W_S, W_Z};

    PetscCall(KSPBlockSetUp_BiCGStabFamily(ksp, m, W_COUNT, fam->replace_period > 0 ? P_COUNT : P_S, in, out));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPMatSolve_PIPEBCGSM(KSP ksp, Mat B, Mat X)
{
  KSP_BiCGStabFamily    *fam = (KSP_BiCGStabFamily *)ksp->data;
  KSP_BiCGStabBlockSolve bs  = {0};
  PetscInt               m;
  PetscBool              use;

  PetscFunctionBegin;
  PetscCall(KSPMatSolveUseBlock_BiCGStabFamily(ksp, B, X, &use));
  if (!use) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetSize(B, NULL, &m));
  PetscCall(KSPPIPEBCGSMBlockSetUp(ksp, m, &bs));
  PetscCall(KSPBlockSolveBegin_BiCGStabFamily(ksp, B, X, &bs));

  PetscCall(KSPBlockInitialResidual_BiCGStabFamily(ksp, &bs, W_R, W_Q, W_Y)); /* right preconditioning: no scratch used */
  PetscCall(KSPPIPEBCGSMBlockStart(ksp, &bs));
  while (bs.na) {
    PetscCall(KSPPIPEBCGSMBlockGroupA(ksp, &bs));
    PetscCall(KSPPIPEBCGSMBlockGroupBC(ksp, &bs));
    if (fam->replace_period > 0 && bs.na && bs.k % fam->replace_period == 0) PetscCall(KSPPIPEBCGSMBlockReplace(ksp, &bs));
  }
  PetscCall(KSPBlockSolveEnd_BiCGStabFamily(ksp, B, X, &bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The cost of one iteration for KSPAUTOBCGS's model (Krasnopolsky eqs. (16)/(19) in this type's counts): 25 vector
   reads+writes (34 with a preconditioner) in 3 merged passes of 8-11 vectors, charged at the measured time per vector
   of a 9-vector pass (a 3D Laplacian on 2 ranks, PC none: this type's CAKVecFused 97-123 us per iteration where 25
   reads+writes of a 4-vector pass came to 87), and reductions of 3 and 5 numbers, each hidden behind one operator
   and one preconditioner application */
PetscReal KSPPIPEBCGSMTimePerIteration(const CAKrylovCosts *c)
{
  return (c->pc > 0 ? 34 : 25) * c->vec_wide + CAKrylovCostsOverlap(c, c->spmv + c->pc, 24) + CAKrylovCostsOverlap(c, c->spmv + c->pc, 40);
}

static PetscErrorCode KSPView_PIPEBCGSM(KSP ksp, PetscViewer viewer)
{
  KSP_BiCGStabFamily *pb = (KSP_BiCGStabFamily *)ksp->data;
  PetscBool           isascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (!isascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  pipelined, merged vector operations: 2 non-blocking global reductions per iteration, each hidden behind one PC application and one SpMV\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  vector reads+writes per iteration: 25 with the identity preconditioner, 34 with a preconditioner (fused kernels)\n"));
  PetscCall(CAKrylovKSPProgressView(&pb->progress, viewer));
  if (pb->replace_period > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  residual replacement every %" PetscInt_FMT " iterations\n", pb->replace_period));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  residual replacement off\n"));
  PetscCall(KSPViewStatistics_BiCGStabFamily(ksp, viewer, pb->nreplacements, "residual replacements"));
  PetscCall(KSPViewBlock_BiCGStabFamily(ksp, viewer, 2, "one block PC application and one block SpMV"));
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
  PetscCall(KSPSetFromOptionsProgress_BiCGStabFamily(ksp, PetscOptionsObject, "KSPPIPEBCGSMSetProgress"));
  PetscCall(KSPSetFromOptionsMatSolve_BiCGStabFamily(ksp, PetscOptionsObject));
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
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPIPEBCGSMSetProgress_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPIPEBCGSMGetProgress_C", NULL));
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
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(ksp, type, 2);
  PetscValidLogicalCollectiveInt(ksp, ntests, 3);
  PetscTryMethod(ksp, "KSPPIPEBCGSMSetProgress_C", (KSP, CAKrylovProgressType, PetscInt), (ksp, type, ntests));
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
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscUseMethod(ksp, "KSPPIPEBCGSMGetProgress_C", (KSP, CAKrylovProgressType *, PetscInt *), (ksp, type, ntests));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPPIPEBCGSM - pipelined BiCGStab with merged (fused) vector operations: two non-blocking reductions per
   iteration, each hidden behind a preconditioner application and an SpMV, and far fewer bytes moved
   than `KSPPIPEBCGS`

   Options Database Keys:
+  -ksp_pipebcgsm_residual_replacement_period <100> - residual replacement every this many iterations (0: never)
.  -ksp_pipebcgsm_progress <none,test>     - progression of the reductions while the PC and SpMV run (see `KSPPIPEBCGSMSetProgress()`)
.  -ksp_pipebcgsm_progress_tests <20>      - `MPI_Test` calls per overlapped region with progress test
-  -ksp_pipebcgsm_matsolve_layout <auto,dense,interleaved> - how `KSPMatSolve()`'s block stores its columns (`CAKrylovKSPSetMatSolveLayout()`)

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

   `KSPMatSolve()` (dense B, X; a batch at a time with `-ksp_matsolve_batch_size`) advances the m columns' iterations
   together, as `KSPBCGSM` does (see its manual page for the per-column convergence tests, reasons, monitor and the
   fallback to a `KSPSolve()` per column, and for the two layouts, `CAKrylovMatSolveLayout`): each z^ = M^{-1} z,
   v = A z^ and w^ = M^{-1} w, t = A w^ is one block preconditioner application (a fused Jacobi pass, or `PCMatApply()`)
   and one block operator application (an interleaved SpMV, or an AIJ x dense product; auto measures which is faster, see `KSPBCGSM`), each fused group
   one pass for all columns (interleaved) or one per column (dense), and the
   dots of all columns of each reduction point are one `MPI_Iallreduce` in flight while those block applications run:
   2 reductions per iteration for the block, as for one system. Residual replacement works in the block path: the
   columns iterating share the iteration count, so every `-ksp_pipebcgsm_residual_replacement_period` iterations all
   of them are replaced together (dense layout: two more products per count of active columns are built for it). Differences from
   `KSPSolve()`: an exact (rt, r) = 0, which `KSPSolve()` restarts from, ends the column with `KSP_DIVERGED_BREAKDOWN`;
   -ksp_pipebcgsm_progress test does not poll in the block path.

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
  PetscCall(KSPCreate_BiCGStabFamily(ksp, W_COUNT));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPIPEBCGSMSetProgress_C", KSPSetProgress_BiCGStabFamily));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPIPEBCGSMGetProgress_C", KSPGetProgress_BiCGStabFamily));
  ((KSP_BiCGStabFamily *)ksp->data)->replace_period = 100;
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_RIGHT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_RIGHT, 1));

  ksp->ops->solve          = KSPSolve_PIPEBCGSM;
  ksp->ops->matsolve       = KSPMatSolve_PIPEBCGSM;
  ksp->ops->destroy        = KSPDestroy_PIPEBCGSM;
  ksp->ops->view           = KSPView_PIPEBCGSM;
  ksp->ops->setfromoptions = KSPSetFromOptions_PIPEBCGSM;

  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPIPEBCGSMSetReplacementPeriod_C", KSPPIPEBCGSMSetReplacementPeriod_PIPEBCGSM));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPPIPEBCGSMGetReplacementPeriod_C", KSPPIPEBCGSMGetReplacementPeriod_PIPEBCGSM));
  PetscCall(KSPComposeMatSolve_BiCGStabFamily(ksp, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
