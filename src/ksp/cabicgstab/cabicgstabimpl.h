/* KSPCABICGSTAB's data, shared by its solver (cabicgstab.c) and its polynomial bases (basis.c). */
#pragma once

#include <cakrylov/private/cakrylovimpl.h>
#include <petsc/private/kspimpl.h>

#define KSPCABICGSTAB_S_MAX 32 /* the Gram matrix of s = 32 already has 129 x 130 entries */

/* What the paired products [P_{i+1}, R_{i+1}] = Â [P_i, R_i] were set up for */
typedef enum {
  KSPCABICGSTAB_PAIR_NONE,   /* not set up */
  KSPCABICGSTAB_PAIR_A,      /* Â = A (identity preconditioner) */
  KSPCABICGSTAB_PAIR_A_MINV, /* Â = A M^{-1} (right preconditioning) */
  KSPCABICGSTAB_PAIR_MINV_A  /* Â = M^{-1} A (left preconditioning) */
} KSPCABiCGStabPairMode;

typedef struct {
  /* options */
  PetscInt           s;               /* maximum number of inner iterations per outer iteration */
  KSPCABiCGStabBasis basis;           /* polynomial basis of P and R */
  PetscBool          telescope;       /* outer iteration k uses s_k = min(s, 2^k) */
  PetscBool          symmetric;       /* reduce only g and the upper triangle of the symmetric G */
  PetscBool          replacement;     /* residual replacement at outer-iteration boundaries */
  PetscBool          replacement_set; /* ... as the user set it; else on for the Newton and Chebyshev bases */
  PetscBool          adaptive;        /* adaptive s: lower s_k while the coordinates of r lose too many digits */
  PetscBool          paired;          /* build P and R together: [Â p_i, Â r_i] as one two-column product */
  PetscBool          pairs;           /* ... in the current solve (not where the PC applies B A itself or scales diagonally) */

  /* the spectrum of Â behind the Newton and Chebyshev bases: user-given, or Ritz values of a few GMRES steps */
  PetscBool        user_spectrum;                     /* [lmin, lmax] given by the user: no estimate */
  PetscReal        lmin, lmax, imax;                  /* real interval of the spectrum, largest |imaginary part| */
  PetscReal        shift_re[2 * KSPCABICGSTAB_S_MAX]; /* the 2s Newton shifts, Leja-ordered, conjugate pairs adjacent */
  PetscReal        shift_im[2 * KSPCABICGSTAB_S_MAX];
  PetscObjectId    amat_id, pmat_id; /* the operators the estimate belongs to */
  PetscObjectState amat_state, pmat_state;
  PCSide           est_side;
  PetscInt         est_s;              /* s the estimate was made for (2s GMRES steps) */
  PetscBool        coefficients_ready; /* theta, gamma, sigma hold the current basis for s */
  PetscInt         est_steps;          /* GMRES steps of the last estimate */

  /* storage, allocated in KSPSetUp() for s_alloc = s */
  PetscInt              s_alloc;
  PetscInt              nloc;                               /* local length of the vectors */
  PetscBLASInt          ld;                                 /* leading dimension of V and W: max(nloc, 1) */
  PetscScalar          *V;                                  /* ld x (4s+2): column 0 is rt, then the 2s_k+1 columns of P, then the 2s_k of R */
  Vec                  *Vcol;                               /* the columns of V as Vecs (they share V's memory) */
  PetscScalar          *W;                                  /* ld x 3: [p, r, dx] rebuilt at the end of an outer iteration */
  Vec                   Wcol[3];                            /* the columns of W as Vecs */
  Vec                   t;                                  /* work vector of the operator application */
  PetscBool             identity_pc;                        /* PCNONE without diagonal scaling: Â = A, applied without the copy PCApply would make */
  Mat                   pair_in[KSPCABICGSTAB_S_MAX + 1];   /* paired powers, per s_k: n x 2 dense view of [P_i, R_i] in V (leading dimension (2s_k+1) ld) */
  Mat                   pair_out[KSPCABICGSTAB_S_MAX + 1];  /* the view of [P_{i+1}, R_{i+1}], holding the product */
  Mat                   pair_work[KSPCABICGSTAB_S_MAX + 1]; /* n x 2: M^{-1} [P_i, R_i] (right, slot 0) or A [P_i, R_i] (left, per s_k) */
  KSPCABiCGStabPairMode pair_mode;                          /* what the products were set up for */
  PetscBool             pair_transpose;                     /* ... of A^T (KSPSolveTranspose()) */
  PetscObjectId         pair_amat_id;                       /* ... and with which matrix (id, nonzero pattern) */
  PetscObjectState      pair_amat_nz;

  /* small dense arrays on every rank (nb = 4s+1 at most) */
  PetscScalar *Tp;                                                                                             /* nb x nb: T', the operator in coordinates: Â[P_, 0, R_, 0] = [P, R] T' */
  PetscScalar *GG;                                                                                             /* nb x (nb+1): [g, G] = [P, R]^T [rt, P, R] */
  PetscScalar *packed;                                                                                         /* nb + nb (nb+1)/2: g and the upper triangle of G, the reduced message */
  PetscScalar *coef;                                                                                           /* nb x 3: the coordinate vectors [a, c, e] of p, r, x - x_m */
  PetscScalar *Ta, *d, *Td, *GTd, *Gc;                                                                         /* nb each: T'a, d (coordinates of q), T'd, G T'd, G c */
  PetscReal    theta[2 * KSPCABICGSTAB_S_MAX], gamma[2 * KSPCABICGSTAB_S_MAX], sigma[2 * KSPCABICGSTAB_S_MAX]; /* basis recurrence */
  PetscReal    mono_scale;                                                                                     /* the monomial basis's gamma: a power of 2 near the ||Â|| the last Gram matrix measured (1 before) */

  PetscInt nb_pending; /* nb of the outer iteration whose e is not yet added to x (0: x is current) */

  KSPCABiCGStabStatistics stats; /* over all solves (KSPView(), KSPCABiCGStabGetStatistics()) */
} KSP_CABiCGStab;

PETSC_INTERN PetscErrorCode KSPCABiCGStabSetUpBasis(KSP);
PETSC_INTERN PetscErrorCode KSPCABiCGStabViewBasis(KSP, PetscViewer);
PETSC_INTERN PetscErrorCode KSPCABiCGStabCheckSpectrum(KSP, PetscReal, PetscReal);
