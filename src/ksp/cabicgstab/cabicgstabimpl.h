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

typedef struct KSP_CABiCGStabBlock KSP_CABiCGStabBlock; /* KSPMatSolve()'s data (block.c) */

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
  PetscBool          one_pass;        /* KSPMatSolve(): a MATSEQAIJ or MATMPIAIJ applied to a run of columns in one pass (CAKrylovMatMultColumns()) */
  PetscInt           one_pass_window; /* ... its window's bytes at most */
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
  PetscBLASInt          ld;                                 /* max(nloc, 1) */
  PetscBLASInt          ldv, ldw;                           /* leading dimensions of V and W: ld, or M ld for a column of a block solve */
  PetscScalar          *V;                                  /* ldv x (4s+2): column 0 is rt, then the 2s_k+1 columns of P, then the 2s_k of R */
  PetscBool             V_shared;                           /* V and W are a column of the arrays of a block solve (block.c), which owns them */
  Vec                  *Vcol;                               /* the columns of V as Vecs (they share V's memory; KSPCABiCGStabBasisVec()) */
  PetscScalar          *W;                                  /* ldw x 3: [p, r, dx] rebuilt at the end of an outer iteration */
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
  PetscScalar *gram_work;                                                                                      /* CAKrylovGram()'s S, (nb+1) x (nb+1), and its work (none in a block's column) */
  PetscScalar *packed;                                                                                         /* nb + nb (nb+1)/2: g and the upper triangle of G, the reduced message (none in a block's column) */
  PetscScalar *coef;                                                                                           /* nb x 3: the coordinate vectors [a, c, e] of p, r, x - x_m */
  PetscScalar *Ta, *d, *Td, *GTd, *Gc;                                                                         /* nb each: T'a, d (coordinates of q), T'd, G T'd, G c */
  PetscInt    *isupp;                                                                                          /* 2 nb: supports of coordinate vectors (KSPCABiCGStabSupport()) */
  PetscReal    theta[2 * KSPCABICGSTAB_S_MAX], gamma[2 * KSPCABICGSTAB_S_MAX], sigma[2 * KSPCABICGSTAB_S_MAX]; /* basis recurrence */
  PetscReal    mono_scale;                                                                                     /* the monomial basis's gamma: a power of 2 near the ||Â|| the last Gram matrix measured (1 before) */

  PetscInt nb_pending; /* nb of the outer iteration whose e is not yet added to x (0: x is current) */

  KSPCABiCGStabStatistics stats; /* over all solves (KSPView(), KSPCABiCGStabGetStatistics()) */

  KSP_CABiCGStabBlock *block; /* KSPMatSolve() (block.c), made at the first block solve */
} KSP_CABiCGStab;

/*
   What one outer iteration hands to the next. The drift estimate follows Van der Vorst and Ye, in coordinates: each
   outer iteration adds eps sum_i (|c_i| + ||Â|| |e_i|) ||y_i|| (the rounding of r's and x's rebuilds and of the basis)
   until r is computed again as b - A x.
*/
typedef struct {
  PetscInt    k, sk, nb;    /* the outer iteration, its s_k and its 4 s_k + 1 basis columns */
  PetscInt    s_cap;        /* the largest s_k adaptive s allows now */
  PetscBool   test_pending; /* the convergence test of iteration ksp->its waits for the next Gram matrix (||r|| = G(r, r)^{1/2}) */
  PetscBool   restart;      /* the next outer iteration restarts fully: p = rt = r */
  PetscBool   resume;       /* the last outer iteration ended at a half step (r = q): the next one resumes at omega ... */
  PetscScalar alpha, rho;   /* ... with these alpha and rho = (rt, r) of the iteration */
  PetscReal   drift;        /* estimate of ||(b - A x) - r|| */
  PetscReal   drift_init;   /* ... right after r was computed as b - A x (the rounding of A x) */
  PetscBool   drift_small;  /* drift <= sqrt(eps) ||r|| at the end of the previous outer iteration */
  PetscReal   xscale;       /* sum of the coordinate scales of the updates of x since the last true residual */
  PetscReal   tau;          /* estimate of ||Â|| */
  PetscReal   ttol;         /* the tolerance of the default convergence test, max(rtol ||r_0||, abstol) */
  PetscBool   check;        /* the rebuild found a convergence claim to check against b - A x */
  PetscBool   increment;    /* the rebuild made dx: x is to be updated by M^{-1} dx (right) or dx (left) */
} KSPCABiCGStabOuter;

/* The phases of one outer iteration, for the single solve (cabicgstab.c) and the block solve of KSPMatSolve() (block.c) */
PETSC_INTERN PetscErrorCode KSPCABiCGStabSolveBegin(KSP, KSPCABiCGStabOuter *);
PETSC_INTERN PetscErrorCode KSPCABiCGStabOuterPrepare(KSP, KSPCABiCGStabOuter *);
PETSC_INTERN PetscErrorCode KSPCABiCGStabBasesBegin(KSP, KSPCABiCGStabOuter *);
PETSC_INTERN PetscErrorCode KSPCABiCGStabApplyOperator(KSP, Vec, Vec);
PETSC_INTERN PetscLogDouble KSPCABiCGStabShiftAndScaleLocal(const KSP_CABiCGStab *, PetscInt, PetscInt, PetscScalar *, const PetscScalar *, const PetscScalar *);
PETSC_INTERN PetscErrorCode KSPCABiCGStabShiftAndScale(KSP_CABiCGStab *, Vec[], PetscInt);
PETSC_INTERN PetscInt       KSPCABiCGStabGramCount(KSP_CABiCGStab *, PetscInt);
PETSC_INTERN PetscErrorCode KSPCABiCGStabGramLocal(KSP, PetscInt, PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode KSPCABiCGStabGramUnpack(KSP, PetscInt, const PetscScalar *);
PETSC_INTERN PetscErrorCode KSPCABiCGStabMonomialScale(KSP, KSPCABiCGStabOuter *, PetscBool *);
PETSC_INTERN PetscErrorCode KSPCABiCGStabOuterIterate(KSP, KSPCABiCGStabOuter *, PetscBool *);
PETSC_INTERN PetscErrorCode KSPCABiCGStabAddIncrement(KSP, Vec, Vec);
PETSC_INTERN PetscErrorCode KSPCABiCGStabOuterFinish(KSP, KSPCABiCGStabOuter *);

PETSC_INTERN PetscErrorCode KSPCABiCGStabAllocate(KSP);
PETSC_INTERN PetscErrorCode KSPCABiCGStabBasisVec(KSP, PetscInt, Vec *);

/* V's column i changed under its Vec (if made): its cached norms are stale */
static inline PetscErrorCode KSPCABiCGStabBasisVecChanged(KSP_CABiCGStab *cab, PetscInt i)
{
  return cab->Vcol[i] ? PetscObjectStateIncrease((PetscObject)cab->Vcol[i]) : PETSC_SUCCESS;
}

PETSC_INTERN PetscErrorCode KSPCABiCGStabPairable(KSP, PetscBool *);
PETSC_INTERN PetscErrorCode KSPCABiCGStabSetUpBasis(KSP);
PETSC_INTERN PetscErrorCode KSPCABiCGStabCopyBasis(KSP, KSP);

/* KSPMatSolve() (block.c) */
PETSC_INTERN PetscErrorCode KSPMatSolve_CABiCGStab(KSP, Mat, Mat);
PETSC_INTERN PetscErrorCode KSPViewBlock_CABiCGStab(KSP, PetscViewer);
PETSC_INTERN PetscErrorCode KSPDestroyBlock_CABiCGStab(KSP);
PETSC_INTERN PetscErrorCode KSPComposeBlock_CABiCGStab(KSP, PetscBool);
PETSC_INTERN PetscErrorCode KSPCABiCGStabViewBasis(KSP, PetscViewer);
PETSC_INTERN PetscErrorCode KSPCABiCGStabCheckSpectrum(KSP, PetscReal, PetscReal);
