/*
   The polynomial bases of KSPCABICGSTAB. Every basis is a three-term recurrence

     rho_{i+1}(z) = ((z - theta_i) rho_i(z) - sigma_i rho_{i-1}(z)) / gamma_i,   rho_0 = 1,

   so its vectors satisfy Â v_i = gamma_i v_{i+1} + theta_i v_i + sigma_i v_{i-1} (column i of T'):
     monomial   theta = 0, sigma = 0, gamma = the power of 2 nearest to the ||Â|| the previous Gram matrix measured
                (no setup; set per outer iteration, KSPCABiCGStabMonomialScale() in cabicgstab.c)
     Newton     theta_i = the first 2s Leja points of the Ritz values and the interval's 2s Chebyshev points; a
                conjugate pair a +- ib takes two steps in real arithmetic: (z - a) rho_i, then
                (z - a) rho_{i+1} + b^2 rho_i                                                (Bai, Hu, Reichel 1994)
     Chebyshev  theta = c, monic sigma-hat = h^2/2 then h^2/4, on the interval [c - h, c + h]: the Chebyshev
                polynomials T_i((z - c)/h) up to scaling
   The scaling gamma_i makes max |rho_{i+1}| = 1 over sample points of the spectrum's interval or ellipse, so
   the basis vectors keep norms O(1) (a vector's norm is bounded by the largest value of its polynomial on the
   spectrum). Written with the monic sigma-hat, sigma_i = sigma-hat_i / gamma_{i-1}.

   The spectrum: user-given [lmin, lmax], or the Ritz values of 2s GMRES steps on the preconditioned operator,
   computed at the first KSPSolve() with an operator and reused until the operators change.
*/
#include "cabicgstabimpl.h"

#define KSPCABICGSTAB_REAL_PAIR 0.05 /* Ritz pairs with |imaginary part| below this fraction of lmax - lmin count as real */

/* z_re + i z_im: the Leja distance sum_j log |z - chosen_j| to the points already chosen */
static PetscReal KSPCABiCGStabLejaLogDistance(PetscReal z_re, PetscReal z_im, PetscInt nchosen, const PetscReal re[], const PetscReal im[])
{
  PetscReal sum = 0.0;

  for (PetscInt j = 0; j < nchosen; j++) sum += PetscLogReal(PetscSqrtReal(PetscSqr(z_re - re[j]) + PetscSqr(z_im - im[j])));
  return sum;
}

/*
   Leja order of n values that are real or come in conjugate pairs (in any order): first the value of largest
   modulus, then each time the one farthest (product of distances) from those chosen; a + ib (b > 0) is followed
   by a - ib. Equal values (distance product 0) go last. In place.
*/
static PetscErrorCode KSPCABiCGStabLejaOrder(PetscInt n, PetscReal re[], PetscReal im[])
{
  PetscReal ore[4 * KSPCABICGSTAB_S_MAX], oim[4 * KSPCABICGSTAB_S_MAX];
  PetscBool used[4 * KSPCABICGSTAB_S_MAX] = {PETSC_FALSE};
  PetscInt  m = 0, npos = 0, nneg = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    if (im[i] > 0.0) npos++;
    if (im[i] < 0.0) nneg++;
  }
  PetscCheck(npos == nneg, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT " Ritz values with positive and %" PetscInt_FMT " with negative imaginary part: not conjugate pairs", npos, nneg);
  while (m < n) {
    PetscInt  best     = -1;
    PetscReal best_val = PETSC_MIN_REAL;

    for (PetscInt i = 0; i < n; i++) { /* the candidates: real values and the a + ib, b > 0, of each pair */
      PetscReal val;

      if (used[i] || im[i] < 0.0) continue;
      val = m ? KSPCABiCGStabLejaLogDistance(re[i], im[i], m, ore, oim) : PetscSqrtReal(PetscSqr(re[i]) + PetscSqr(im[i]));
      if (best < 0 || val > best_val) {
        best     = i;
        best_val = val;
      }
    }
    used[best] = PETSC_TRUE;
    ore[m]     = re[best];
    oim[m++]   = im[best];
    if (im[best] > 0.0) { /* its conjugate right after it, exactly conjugate so that the pair's recurrence is real */
      ore[m]   = re[best];
      oim[m++] = -im[best];
    }
  }
  PetscCall(PetscArraycpy(re, ore, n));
  PetscCall(PetscArraycpy(im, oim, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A right-hand side for the estimate: pseudo-random entries in [-1, 1) from each entry's global index (splitmix64), the same on any number of ranks */
static PetscErrorCode KSPCABiCGStabNoiseVector(Vec v)
{
  PetscInt     lo, hi;
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(VecGetOwnershipRange(v, &lo, &hi));
  PetscCall(VecGetArrayWrite(v, &a));
  for (PetscInt i = lo; i < hi; i++) {
    uint64_t z = (uint64_t)i * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;

    z         = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z         = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z         = z ^ (z >> 31);
    a[i - lo] = 2.0 * (PetscReal)(z >> 11) / 9007199254740992.0 - 1.0; /* 53 random bits / 2^53 */
  }
  PetscCall(VecRestoreArrayWrite(v, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The Newton shifts: the first 2s Leja points of the candidates, the n Ritz values and the 2s Chebyshev points
   c + h cos((2k+1) pi / 4s) of [lmin, lmax]. The Chebyshev points fill the spectrum where Ritz values are few (a 2s-step
   estimate resolves the ends of the spectrum, not its inside); Leja ordering keeps the shifts apart, so that no
   stretch of the basis is close to monomial.
*/
static PetscErrorCode KSPCABiCGStabNewtonShifts(KSP_CABiCGStab *cab, PetscInt n, const PetscReal ritz_re[], const PetscReal ritz_im[])
{
  const PetscInt  m = 2 * cab->s;
  const PetscReal c = 0.5 * (cab->lmax + cab->lmin), h = 0.5 * (cab->lmax - cab->lmin);
  PetscReal       re[4 * KSPCABICGSTAB_S_MAX], im[4 * KSPCABICGSTAB_S_MAX];

  PetscFunctionBegin;
  PetscCall(PetscArraycpy(re, ritz_re, n));
  PetscCall(PetscArraycpy(im, ritz_im, n));
  for (PetscInt k = 0; k < m; k++) {
    re[n + k] = c + h * PetscCosReal((2 * k + 1) * PETSC_PI / (2 * m));
    im[n + k] = 0.0;
  }
  PetscCall(KSPCABiCGStabLejaOrder(n + m, re, im));
  PetscCall(PetscArraycpy(cab->shift_re, re, m));
  PetscCall(PetscArraycpy(cab->shift_im, im, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The spectrum of Â from 2s steps of GMRES (restart 2s, same PC and side, zero guess, a noise right-hand side): [lmin, lmax]
   the real extent of the Ritz values, imax their largest imaginary part, and the Newton shifts. Conjugate pairs whose
   imaginary part is below 5 % of lmax - lmin count as real: a non-normal operator with a real spectrum (upwind
   convection) has such Ritz values, and a pair of nearly equal shifts would make that stretch of the basis monomial.
*/
static PetscErrorCode KSPCABiCGStabEstimateSpectrum(KSP ksp)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;
  const PetscInt  m   = 2 * cab->s;
  KSP             est;
  Vec             b, x;
  const char     *prefix;
  PetscLogDouble  reductions = petsc_allreduce_ct;
  PetscReal       re[2 * KSPCABICGSTAB_S_MAX], im[2 * KSPCABICGSTAB_S_MAX];
  PetscInt        its, n;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)ksp), &est));
  PetscCall(KSPGetOptionsPrefix(ksp, &prefix)); /* the prefix before the PC is shared: it would rename the PC */
  PetscCall(KSPSetOptionsPrefix(est, prefix));
  PetscCall(KSPAppendOptionsPrefix(est, "cabicgstab_est_"));
  PetscCall(PetscObjectIncrementTabLevel((PetscObject)est, (PetscObject)ksp, 1));
  PetscCall(KSPSetType(est, KSPGMRES));
  PetscCall(KSPSetPC(est, ksp->pc));
  PetscCall(KSPSetPCSide(est, ksp->pc_side));
  PetscCall(KSPGMRESSetRestart(est, m));
  PetscCall(CAKrylovKSPSetCGSRefinementNever(est));             /* two reductions per step; an estimate needs no reorthogonalization */
  PetscCall(KSPSetTolerances(est, 0.0, 0.0, PETSC_DEFAULT, m)); /* m steps, unless the Krylov space is exhausted first */
  PetscCall(KSPSetComputeEigenvalues(est, PETSC_TRUE));
  PetscCall(KSPSetSkipPCSetFromOptions(est, PETSC_TRUE)); /* the PC is the solver's, already set up */
  PetscCall(KSPSetFromOptions(est));
  PetscCall(CAKrylovVecCreateOnLayout(cab->t, &b)); /* the layout of the system's vectors, also in a block solve (no ksp->vec_rhs); GMRES's duplicates of b share it */
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPCABiCGStabNoiseVector(b));
  PetscCall(KSPSolve(est, b, x));
  PetscCall(KSPGetIterationNumber(est, &its));
  PetscCall(KSPComputeEigenvalues(est, m, re, im, &n));
  PetscCheck(n > 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_CONV_FAILED, "KSPCABICGSTAB: the spectrum estimate (GMRES on a noise vector) produced no Ritz value; give -ksp_cabicgstab_spectrum lmin,lmax");
  for (PetscInt i = 0; i < n; i++)
    PetscCheck(!PetscIsInfOrNanReal(re[i]) && !PetscIsInfOrNanReal(im[i]), PetscObjectComm((PetscObject)ksp), PETSC_ERR_FP, "KSPCABICGSTAB: the spectrum estimate produced a non-finite Ritz value; give -ksp_cabicgstab_spectrum lmin,lmax");
  cab->lmin = cab->lmax = re[0];
  for (PetscInt i = 0; i < n; i++) {
    cab->lmin = PetscMin(cab->lmin, re[i]);
    cab->lmax = PetscMax(cab->lmax, re[i]);
  }
  cab->imax = 0.0;
  for (PetscInt i = 0; i < n; i++) {
    if (PetscAbsReal(im[i]) < KSPCABICGSTAB_REAL_PAIR * (cab->lmax - cab->lmin)) im[i] = 0.0;
    cab->imax = PetscMax(cab->imax, PetscAbsReal(im[i]));
  }
  PetscCall(KSPCABiCGStabNewtonShifts(cab, n, re, im));
  cab->stats.estimates++;
  cab->est_steps = its;
  cab->stats.estimate_reductions += (PetscInt)(petsc_allreduce_ct - reductions);
  PetscCall(PetscInfo(ksp, "Spectrum estimate: %" PetscInt_FMT " GMRES steps, %" PetscInt_FMT " Ritz values, real parts in [%g, %g], largest |imaginary part| %g\n", its, n, (double)cab->lmin, (double)cab->lmax, (double)cab->imax));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(KSPDestroy(&est));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* theta, gamma, sigma of the current basis for the 2s recurrence steps of P (R uses the first 2s - 1) */
static PetscErrorCode KSPCABiCGStabBasisCoefficients(KSP_CABiCGStab *cab)
{
  const PetscInt n = 2 * cab->s, K = 16 * cab->s; /* recurrence steps; sample points on the half ellipse */
  PetscReal      c = 0.5 * (cab->lmax + cab->lmin), h = 0.5 * (cab->lmax - cab->lmin);
  PetscReal      sigma_hat[2 * KSPCABICGSTAB_S_MAX];
  PetscReal     *z_re, *z_im, *r_re, *r_im, *q_re, *q_im; /* sample points, rho_i and rho_{i-1} there */

  PetscFunctionBegin;
  if (cab->basis == KSP_CABICGSTAB_BASIS_MONOMIAL) { /* v_{i+1} = Â v_i / gamma, gamma set per outer iteration */
    for (PetscInt i = 0; i < n; i++) {
      cab->theta[i] = 0.0;
      cab->sigma[i] = 0.0;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the monic recurrence rho_{i+1} = (z - theta_i) rho_i - sigma-hat_i rho_{i-1} */
  for (PetscInt i = 0; i < n; i++) {
    if (cab->basis == KSP_CABICGSTAB_BASIS_CHEBYSHEV) { /* T_{i+1}(x) = 2x T_i(x) - T_{i-1}(x), x = (z - c)/h */
      cab->theta[i] = c;
      sigma_hat[i]  = i == 0 ? 0.0 : (i == 1 ? 0.5 * h * h : 0.25 * h * h);
    } else { /* Newton; a pair a + ib, a - ib: (z - a), then (z - a) + b^2 */
      cab->theta[i] = cab->shift_re[i];
      sigma_hat[i]  = i > 0 && cab->shift_im[i] < 0.0 ? -PetscSqr(cab->shift_im[i]) : 0.0;
    }
  }
  /* scaling: gamma_i = max |(z - theta_i) rho_i(z) - sigma_i rho_{i-1}(z)| over z = c + h cos(phi) + i imax sin(phi), phi in [0, pi] */
  if (h <= 0.0 && cab->imax <= 0.0) h = c != 0.0 ? 1e-2 * PetscAbsReal(c) : 1.0; /* a single Ritz value: widen to a small interval */
  PetscCall(PetscMalloc6(K + 1, &z_re, K + 1, &z_im, K + 1, &r_re, K + 1, &r_im, K + 1, &q_re, K + 1, &q_im));
  for (PetscInt k = 0; k <= K; k++) {
    z_re[k] = c + h * PetscCosReal(PETSC_PI * k / K);
    z_im[k] = cab->imax * PetscSinReal(PETSC_PI * k / K);
    r_re[k] = 1.0; /* rho_0 */
    r_im[k] = q_re[k] = q_im[k] = 0.0;
  }
  for (PetscInt i = 0; i < n; i++) {
    PetscReal gmax = 0.0;

    cab->sigma[i] = i > 0 ? sigma_hat[i] / cab->gamma[i - 1] : 0.0;
    for (PetscInt k = 0; k <= K; k++) { /* q <- (z - theta_i) rho_i - sigma_i rho_{i-1}: rho_{i+1} before scaling; rho_{i-1} is not needed after */
      const PetscReal a_re = z_re[k] - cab->theta[i], a_im = z_im[k];
      const PetscReal n_re = a_re * r_re[k] - a_im * r_im[k] - cab->sigma[i] * q_re[k];
      const PetscReal n_im = a_re * r_im[k] + a_im * r_re[k] - cab->sigma[i] * q_im[k];

      q_re[k] = r_re[k];
      q_im[k] = r_im[k];
      r_re[k] = n_re;
      r_im[k] = n_im;
      gmax    = PetscMax(gmax, PetscSqrtReal(n_re * n_re + n_im * n_im));
    }
    cab->gamma[i] = gmax > 0.0 && !PetscIsInfOrNanReal(gmax) ? gmax : 1.0;
    for (PetscInt k = 0; k <= K; k++) {
      r_re[k] /= cab->gamma[i];
      r_im[k] /= cab->gamma[i];
    }
  }
  PetscCall(PetscFree6(z_re, z_im, r_re, r_im, q_re, q_im));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The cost of KSPCABiCGStabEstimateSpectrum() at s for KSPAUTOBCGS's model: m = 2 s GMRES steps with classical Gram-Schmidt
   and no refinement; step j = 1 .. m: an operator and a preconditioner application, VecMDot() of the new vector against
   j basis vectors (reads j + 1), VecMAXPY() (reads j + 1, writes 1), VecNormalize() (3 passes), and two reductions (the
   j dot products, the norm); the noise right-hand side, the initial residual and the solution built at the end (the
   VecMAXPY() of m vectors and a preconditioner application) add m + 6 passes, and the norms of the right-hand side
   and the initial residual two 8-byte reductions (tests/cabicgstab.c, -check_estimate_reductions, counts them)
*/
PetscReal KSPCABiCGStabEstimateTime(const CAKrylovCosts *c, PetscInt s)
{
  const PetscInt m     = 2 * s;
  PetscReal      total = (m + 6) * c->vec + c->pc + 2 * CAKrylovCostsReduction(c, 8.0);

  for (PetscInt j = 1; j <= m; j++) total += c->spmv + c->pc + (2 * j + 6) * c->vec + CAKrylovCostsReduction(c, 8.0 * j) + CAKrylovCostsReduction(c, 8.0);
  return total;
}

/* Called at the start of every solve: the recurrence coefficients for the current basis, s and operator (an estimate only when the operators changed) */
PetscErrorCode KSPCABiCGStabSetUpBasis(KSP ksp)
{
  KSP_CABiCGStab  *cab = (KSP_CABiCGStab *)ksp->data;
  Mat              Amat, Pmat;
  PetscObjectId    amat_id, pmat_id;
  PetscObjectState amat_state, pmat_state;

  PetscFunctionBegin;
  if (cab->basis != KSP_CABICGSTAB_BASIS_MONOMIAL && !cab->user_spectrum) {
    PetscCall(PCGetOperators(ksp->pc, &Amat, &Pmat));
    PetscCall(PetscObjectGetId((PetscObject)Amat, &amat_id));
    PetscCall(PetscObjectGetId((PetscObject)Pmat, &pmat_id));
    PetscCall(PetscObjectStateGet((PetscObject)Amat, &amat_state));
    PetscCall(PetscObjectStateGet((PetscObject)Pmat, &pmat_state));
    if (!cab->stats.estimates || cab->est_s != cab->s || cab->est_side != ksp->pc_side || amat_id != cab->amat_id || pmat_id != cab->pmat_id || amat_state != cab->amat_state || pmat_state != cab->pmat_state) {
      PetscCall(KSPCABiCGStabEstimateSpectrum(ksp));
      cab->est_s              = cab->s;
      cab->est_side           = ksp->pc_side;
      cab->amat_id            = amat_id;
      cab->pmat_id            = pmat_id;
      cab->amat_state         = amat_state;
      cab->pmat_state         = pmat_state;
      cab->coefficients_ready = PETSC_FALSE;
    }
  }
  if (cab->coefficients_ready) PetscFunctionReturn(PETSC_SUCCESS);
  if (cab->basis == KSP_CABICGSTAB_BASIS_NEWTON && cab->user_spectrum) PetscCall(KSPCABiCGStabNewtonShifts(cab, 0, NULL, NULL));
  PetscCall(KSPCABiCGStabBasisCoefficients(cab));
  cab->coefficients_ready = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The basis of `from` (its spectrum estimate and recurrence coefficients) for `to`, a column of from's block solve: one
   estimate serves all columns, whose operator is the same */
PetscErrorCode KSPCABiCGStabCopyBasis(KSP from, KSP to)
{
  KSP_CABiCGStab *f = (KSP_CABiCGStab *)from->data, *t = (KSP_CABiCGStab *)to->data;

  PetscFunctionBegin;
  t->user_spectrum      = f->user_spectrum;
  t->lmin               = f->lmin;
  t->lmax               = f->lmax;
  t->imax               = f->imax;
  t->amat_id            = f->amat_id;
  t->pmat_id            = f->pmat_id;
  t->amat_state         = f->amat_state;
  t->pmat_state         = f->pmat_state;
  t->est_side           = f->est_side;
  t->est_s              = f->est_s;
  t->est_steps          = f->est_steps;
  t->coefficients_ready = f->coefficients_ready;
  t->stats.estimates    = f->stats.estimates;
  PetscCall(PetscArraycpy(t->shift_re, f->shift_re, 2 * KSPCABICGSTAB_S_MAX));
  PetscCall(PetscArraycpy(t->shift_im, f->shift_im, 2 * KSPCABICGSTAB_S_MAX));
  PetscCall(PetscArraycpy(t->theta, f->theta, 2 * KSPCABICGSTAB_S_MAX));
  PetscCall(PetscArraycpy(t->gamma, f->gamma, 2 * KSPCABICGSTAB_S_MAX));
  PetscCall(PetscArraycpy(t->sigma, f->sigma, 2 * KSPCABICGSTAB_S_MAX));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* lmin < lmax, both finite: else a PETSc error that says what was wrong */
PetscErrorCode KSPCABiCGStabCheckSpectrum(KSP ksp, PetscReal lmin, PetscReal lmax)
{
  PetscFunctionBegin;
  PetscCheck(!PetscIsInfOrNanReal(lmin) && !PetscIsInfOrNanReal(lmax), PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCABICGSTAB spectrum [%g, %g]: lmin and lmax must be finite", (double)lmin, (double)lmax);
  PetscCheck(lmin < lmax, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCABICGSTAB spectrum [%g, %g]: lmin < lmax is required", (double)lmin, (double)lmax);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -ksp_view: where the basis comes from and what its setup cost */
PetscErrorCode KSPCABiCGStabViewBasis(KSP ksp, PetscViewer viewer)
{
  KSP_CABiCGStab *cab = (KSP_CABiCGStab *)ksp->data;

  PetscFunctionBegin;
  if (cab->basis == KSP_CABICGSTAB_BASIS_MONOMIAL) PetscFunctionReturn(PETSC_SUCCESS);
  if (cab->user_spectrum) PetscCall(PetscViewerASCIIPrintf(viewer, "  spectrum: [%g, %g], given by the user\n", (double)cab->lmin, (double)cab->lmax));
  else if (!cab->stats.estimates) PetscCall(PetscViewerASCIIPrintf(viewer, "  spectrum: estimated at the first solve (Ritz values of %" PetscInt_FMT " GMRES steps)\n", 2 * cab->s));
  else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  spectrum: Ritz values of %" PetscInt_FMT " GMRES steps, real parts in [%g, %g], largest |imaginary part| %g\n", cab->est_steps, (double)cab->lmin, (double)cab->lmax, (double)cab->imax));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  spectrum estimates: %" PetscInt_FMT " (one per operator), %" PetscInt_FMT " operator applications, %" PetscInt_FMT " global reductions in all\n", cab->stats.estimates, cab->stats.estimates * cab->est_steps,
                                     cab->stats.estimate_reductions));
  }
  if (cab->basis == KSP_CABICGSTAB_BASIS_NEWTON && cab->coefficients_ready) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  Newton shifts (Leja order):"));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
    for (PetscInt i = 0; i < 2 * cab->s; i++) {
      if (cab->shift_im[i] != 0.0) PetscCall(PetscViewerASCIIPrintf(viewer, " %.3g%+.3gi", (double)cab->shift_re[i], (double)cab->shift_im[i]));
      else PetscCall(PetscViewerASCIIPrintf(viewer, " %.3g", (double)cab->shift_re[i]));
    }
    PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
