/*
   The PCMG bottom-solver hook: a Krylov method with a bottom-solve policy on the coarsest level of PETSc's
   PCMG, and a report of what the bottom solves cost (williams2014 §IV: the bottom solve dominates at scale).

   Mechanism: CAKrylovInitializePackage() re-registers the PCMG constructor with PCCreate_MGBottom(), which calls
   PETSc's own PCCreate_MG() and then wraps some of its operations:
     setlevels       (the composed PCMGSetLevels_C) a new coarse KSP, made by PCMG when the number of levels
                     changes, also inside PCMG's setup (grid sequencing), gets the measurement and the policy at once
     setfromoptions  PCMG's options, then -pc_mg_bottom_*
     setup           the policy applied to the coarse KSP *before* PCMG's setup, so that PETSc's own
                     -mg_coarse_* options, which PCMG's setup reads, are applied after it and win; after it,
                     the KSP inside the policy's PCTELESCOPE and the cabicgstab basis
     reset           the policy's PCTELESCOPE to be made anew (a reset one orphans its inner KSP at its next setup)
     apply,
     applyrichardson the time and number of cycles of each PCMG application
     view, destroy   the policy and the report; the report printed at destruction on request
   After PCMG's setup, the level smoothers that are KSPRICHARDSON with PCCHEBYJACOBI and have no KSPMatSolve() of their
   own (PETSc before 3.26; from 3.26 on KSPRICHARDSON's calls PCMatApplyRichardson(), which PCCHEBYJACOBI has) get
   PCCHEBYJACOBI's block solve (KSPMatSolve_RichardsonChebyJacobi()): PCMG's PCMatApply() smooths m columns with
   one pass over the rows and one halo message per neighbour per step for all of them, where PETSc's KSPMatSolve() of a
   type without one solves column by column (the same bits either way).
   Each bottom solve is measured by a pre/post-solve pair on the coarse KSP: time, Krylov iterations, and the
   global reductions issued in it (PETSc's own count of MPI_Allreduce calls, petsc_allreduce_ct, plus this
   library's count of its MPI_Iallreduce calls), and the halo messages received in it (PETSc's own count of the
   point-to-point receives it posts, petsc_irecv_ct + petsc_recv_ct: the VecScatter/PetscSF exchanges of every operator
   application, and of a preconditioner that exchanges, one per neighbour rank each).

   A plugin touches only what it owns. Types built on PCMG replace its setup (PCGAMG, PCML, PCHMG): the hook is
   live only while its setup wrapper is the PC's (PCMGBottomLive()), and every wrapper they keep passes straight
   through to PCMG's own operation. A PCMG of one level has no coarse solve (its level is a smoother with PETSc's
   -mg_levels_0_ prefix): no policy, nothing measured. The policy sets only the coarse-KSP settings that still
   hold what PCMG or the policy itself last put there (PCMGBottomSettings): what the program set, in code or with
   the coarse KSP's own options, stays.
*/
#include <cakrylov/private/cakrylovimpl.h>
#include <petsc/private/pcimpl.h>
#include <petsc/private/kspimpl.h>
#include <petsc/private/pcmgimpl.h> /* the levels' pre- and post-smoothers, without PCMGGetSmootherUp(), which makes a post-smoother of its own */

#define PCMGBOTTOM_KEY "CAKrylovPCMGBottom"

/* The settings of a bottom KSP the policy may set, as the hook last saw them after setting them (or PCMG after creating
   the coarse KSP): one that differs now was set by someone else, and the policy leaves it alone */
typedef struct {
  char      ksptype[256], pctype[256];
  PetscReal rtol;
  PetscInt  maxit;
} PCMGBottomSettings;

/* The same for the basis of a KSPCABICGSTAB bottom solver, chosen by the policy after each PCMG setup */
typedef struct {
  PetscBool          set; /* the policy chose it on this KSP before */
  PetscInt           s;
  KSPCABiCGStabBasis basis;
  PetscBool          telescope;
} PCMGBottomBasis;

typedef struct {
  /* PCMG's own operations, called by the wrappers */
  PetscErrorCode (*setlevels)(PC, PetscInt, MPI_Comm *);
  PetscErrorCode (*setfromoptions)(PC, CAKrylovOptionItems);
  PetscErrorCode (*setup)(PC);
  PetscErrorCode (*reset)(PC);
  PetscErrorCode (*apply)(PC, Vec, Vec);
  PetscErrorCode (*matapply)(PC, Mat, Mat);
  PetscErrorCode (*applyrichardson)(PC, Vec, Vec, Vec, PetscReal, PetscReal, PetscReal, PetscInt, PetscBool, PetscInt *, PCRichardsonConvergedReason *);
  PetscErrorCode (*view)(PC, PetscViewer);
  PetscErrorCode (*destroy)(PC);
  /* the policy: ksptype[0] == 0 leaves the coarse solve as PCMG and the -mg_coarse_ options make it */
  char      ksptype[256];
  PetscReal rtol;
  PetscInt  maxit, agglomeration; /* the bottom solve runs on 1 of every agglomeration ranks (PCTELESCOPE) */
  PetscBool report;               /* print the report when the PC is destroyed */
  char      basis[1024];          /* the policy's choice of a cabicgstab bottom solver's basis, and why (for the report) */
  /* what the policy holds of the coarse KSP PCMG has now, and of the KSP inside the policy's PCTELESCOPE */
  PCMGBottomSettings coarseset;
  PetscBool          agglomerated; /* the coarse PC is the policy's PCTELESCOPE */
  PetscBool          renew;        /* ... reset since: to be made anew at the next setup (PCReset_MGBottom()) */
  PetscBool          ownsmethod;   /* the policy chose the bottom KSP's method: it may choose a cabicgstab's basis */
  PCMGBottomBasis    basisset;
  PetscBool          adapts;   /* the policy's Chebyshev basis with no s from the options: s follows the solves (PCMGBottomAdaptS()) */
  PetscInt           itsmax;   /* ... the most iterations of a bottom solve since the setup */
  PetscBool          single;   /* ... a bottom solve of one right-hand side since the setup (PCMGBottomWithMargin()) */
  PetscBool          together; /* the bottom solve in progress solved m > 1 right-hand sides together (a block KSPMatSolve()) */
  PetscBool          inblock;  /* in KSPMatSolve_MGBottom(): a KSPSolve() now is one column of the block's fallback */
  PetscBool          nested;   /* ... and one ran: the block went column by column */
  PetscBool          autoits;  /* a KSPAUTOBCGS bottom on the policy's interval: told the iterations to expect (PCMGBottomAdaptIterations()) */
  KSP                krylov;   /* a reference to the KSP inside the policy's PCTELESCOPE (NULL on the ranks it leaves idle) */
  /* the report, this rank's numbers */
  PCMGBottomReport stats;
  PetscLogDouble   tstart, rstart, hstart;
  PetscErrorCode (*matsolve)(KSP, Mat, Mat); /* the coarse KSP's own KSPMatSolve(), called by KSPMatSolve_MGBottom() */
} PCMGBottom;

static PetscErrorCode (*PCCreate_MG_PETSc)(PC) = NULL;
static PetscErrorCode PCSetUp_MGBottom(PC);

/* This library's non-blocking reductions, counted in src/vec/reduction.c: petsc_allreduce_ct only sees MPI_Allreduce */
static PetscLogDouble PCMGBottomReductionCount(void)
{
#if defined(PETSC_USE_LOG)
  return petsc_allreduce_ct + CAKrylovIallreduceCount;
#else
  return CAKrylovIallreduceCount;
#endif
}

/* Halo messages: the point-to-point receives PETSc posted (MPI_Irecv, MPI_Recv, and the persistent receives its PetscSF
   starts), counted by PETSc's logging; 0 without it. The receives of the program itself, if any, are not seen. */
static PetscLogDouble PCMGBottomHaloCount(void)
{
#if defined(PETSC_USE_LOG)
  return petsc_irecv_ct + petsc_recv_ct;
#else
  return 0;
#endif
}

/* The hook's data of a PC created by PCCreate_MGBottom(): PCMG, or a type built on it (PCGAMG, PCML) */
static PetscErrorCode PCMGBottomQuery(PC pc, PCMGBottom **bottom)
{
  PetscContainer container;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)pc, PCMGBOTTOM_KEY, (PetscObject *)&container));
  PetscCheck(container, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "This PCMG was created before CAKrylovInitializePackage(): call it right after PetscInitialize()");
  PetscCall(PetscContainerGetPointer(container, (void **)bottom));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The hook is live on PCMG itself; a type built on PCMG that replaced its setup (PCGAMG, PCML, PCHMG) makes its own
   levels and coarse solver: there the policy and the report do not exist and the wrappers it kept only pass through */
static PetscBool PCMGBottomLive(PC pc)
{
  return pc->ops->setup == PCSetUp_MGBottom ? PETSC_TRUE : PETSC_FALSE;
}

/* The same for the public functions, which need PCMG itself: types built on it replace the setup the policy needs */
static PetscErrorCode PCMGBottomGet(PC pc, PCMGBottom **bottom)
{
  PetscBool ismg;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCMG, &ismg));
  PetscCheck(ismg, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "The bottom-solver hook needs a PCMG preconditioner, not %s", ((PetscObject)pc)->type_name ? ((PetscObject)pc)->type_name : "an unset type");
  PetscCall(PCMGBottomQuery(pc, bottom));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The bottom solver of a safe Gershgorin interval (PCMGBottomChooseBasis()): Chebyshev basis, s = 10 at the first solve
   (then PCMGBottomAdaptS()), no s-telescoping */
#define PCMGBOTTOM_CHEBYSHEV_S 10

/*
   s of the policy's Chebyshev bottom solver follows its solves: after each, s is the most iterations a bottom solve took
   since the setup, plus one if a solve of one right-hand side came since then, at least 4 and at most 10. A basis of
   2s + 1 vectors costs 2s operator applications (each a halo exchange), and with m columns a Gram message of
   m (4s + 1)(2s + 2) numbers, whatever the solve then needs: a bottom solve of 3 iterations at s = 10 builds 21
   vectors for 7 used, at s = 4 it builds 9, with the same one reduction; 16 columns of 7 iterations at s = 10 reduce 115 KB, at s = 7 59 KB (0.2 ms more per solve in Krasnopolsky's
   model at p = 4096). The most since the setup, not the last: s only grows, so a solve that needed a second outer
   iteration (a second reduction) makes the next ones take one again. The one more: the bottom solves' iterations grow
   over the V-cycles as the coarse residual loses its smooth part (7, 7, 7, 7, 8, 9, 10, 10, 10 in the bottom study's
   Helmholtz multigrid, one at a time), and a solve that outruns s pays a second reduction and a second whole basis,
   where s one larger costs two operator applications. Not while every bottom solve since the setup was a block solve
   (KSPMatSolve() of m columns together, PCMG's PCMatApply()): its iterations are those of its slowest column, and a
   second outer iteration carries only the columns that outran s (the others have converged and build no basis), so it
   costs their bases and one reduction of their smaller Gram matrices, where s one larger costs every column two
   operator applications and every solve a larger Gram message (tutorials/ex3 with PCMG, 16 columns of 6 or 7
   iterations, p = 4096 simulated: the bottom solves 4 % faster; share/bench/RESULTS.md). Once a solve of one
   right-hand side came (PCApply(), a block's last batch of one column, a block solved column by column) the one more
   holds until the next setup, so that s does not move between solves. A program that changed s
   (KSPCABiCGStabSetS()) or the method since keeps its own: the policy stops adapting.
*/
static PetscInt PCMGBottomWithMargin(PetscInt itsmax, PetscBool single)
{
  return single ? itsmax + 1 : itsmax;
}

static PetscErrorCode PCMGBottomAdaptS(PCMGBottom *bottom, KSP ksp, PetscInt its)
{
  PetscInt  now = 0, need, s;
  PetscBool iscab;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPCABICGSTAB, &iscab));
  if (iscab) PetscCall(KSPCABiCGStabGetS(ksp, &now));
  if (!iscab || now != bottom->basisset.s) { /* the program changed the method or s since the setup */
    bottom->adapts = PETSC_FALSE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  bottom->itsmax = PetscMax(bottom->itsmax, its);
  need           = PCMGBottomWithMargin(bottom->itsmax, bottom->single);
  s              = PetscMax(4, PetscMin(need, PCMGBOTTOM_CHEBYSHEV_S));
  if (s != now) PetscCall(KSPCABiCGStabSetS(ksp, s));
  bottom->basisset.s = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The bottom solves' iterations to expect, as the policy's own s follows them (PCMGBottomAdaptS()): 10 before the first
   solve after a setup, then after each solve that took more iterations than any before itsmax + 1 (itsmax while all
   were block solves) up to 10, and itsmax beyond; a KSPAUTOBCGS bottom predicts again from the costs it measured and
   changes s or its type only when its choice changes */
static PetscErrorCode PCMGBottomAdaptIterations(PCMGBottom *bottom, KSP ksp, PetscInt its)
{
  PetscBool isauto;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPAUTOBCGS, &isauto));
  if (!isauto) { /* the program changed the method since the setup */
    bottom->autoits = PETSC_FALSE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (its <= bottom->itsmax) PetscFunctionReturn(PETSC_SUCCESS);
  bottom->itsmax = its;
  PetscCall(KSPAutoBCGSSetIterations(ksp, (PetscReal)(its > PCMGBOTTOM_CHEBYSHEV_S ? its : PetscMin(PCMGBottomWithMargin(its, bottom->single), PCMGBOTTOM_CHEBYSHEV_S))));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCMGBottomPreSolve(KSP coarse, Vec b, Vec x, void *ctx)
{
  PCMGBottom *bottom = (PCMGBottom *)ctx;

  PetscFunctionBegin;
  (void)coarse, (void)b, (void)x;
  if (bottom->inblock) PetscFunctionReturn(PETSC_SUCCESS); /* a column of a block measured as one bottom solve */
  bottom->together = PETSC_FALSE;
  bottom->rstart   = PCMGBottomReductionCount();
  bottom->hstart   = PCMGBottomHaloCount();
  PetscCall(PetscTime(&bottom->tstart));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCMGBottomPostSolve(KSP coarse, Vec b, Vec x, void *ctx)
{
  PCMGBottom    *bottom = (PCMGBottom *)ctx;
  PetscLogDouble t;
  PetscInt       its    = 0;
  KSP            krylov = bottom->agglomerated ? bottom->krylov : coarse; /* the KSP inside PCTELESCOPE: none on the ranks it leaves idle */

  PetscFunctionBegin;
  (void)b, (void)x;
  if (bottom->inblock) { /* a column of a block measured as one bottom solve (KSPMatSolve_MGBottom()) */
    bottom->nested = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscTime(&t));
  if (krylov) PetscCall(KSPGetIterationNumber(krylov, &its));
  bottom->stats.solves++;
  bottom->stats.iterations += its;
  bottom->stats.bottomtime += t - bottom->tstart;
  bottom->stats.reductions += PCMGBottomReductionCount() - bottom->rstart;
  bottom->stats.halo += PCMGBottomHaloCount() - bottom->hstart;
  if (!bottom->together) bottom->single = PETSC_TRUE;
  if (bottom->adapts && krylov) PetscCall(PCMGBottomAdaptS(bottom, krylov, its));
  if (bottom->autoits && krylov) PetscCall(PCMGBottomAdaptIterations(bottom, krylov, its));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A block bottom solve (KSPMatSolve() of PCMG's PCMatApply() on m columns) is measured as one bottom solve: KSPMatSolve()
   calls no pre- and post-solve functions, and the KSPSolve()s of a block solved column by column (the block solver's
   fallback, -info says why) are its columns. Its iterations: the bottom KSP's after the block, its slowest column's.
   The columns were solved together unless the block went column by column or through the policy's PCTELESCOPE (which
   applies itself to one column at a time, without pre- and post-solve functions on its KSP) */
static PetscErrorCode KSPMatSolve_MGBottom(KSP coarse, Mat B, Mat X)
{
  PCMGBottom *bottom = (PCMGBottom *)coarse->prectx;
  PetscInt    m;

  PetscFunctionBegin;
  PetscCall(PCMGBottomPreSolve(coarse, NULL, NULL, bottom));
  PetscCall(MatGetSize(B, NULL, &m));
  bottom->inblock = PETSC_TRUE;
  bottom->nested  = PETSC_FALSE;
  PetscCall(bottom->matsolve(coarse, B, X));
  bottom->inblock  = PETSC_FALSE;
  bottom->together = m > 1 && !bottom->nested && !bottom->agglomerated ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PCMGBottomPostSolve(coarse, NULL, NULL, bottom));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCMGBottomSettingsGet(KSP ksp, PCMGBottomSettings *set)
{
  KSPType ktype;
  PCType  ptype;
  PC      pc;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(set, sizeof(*set)));
  PetscCall(KSPGetType(ksp, &ktype));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCGetType(pc, &ptype));
  if (ktype) PetscCall(PetscStrncpy(set->ksptype, ktype, sizeof(set->ksptype)));
  if (ptype) PetscCall(PetscStrncpy(set->pctype, ptype, sizeof(set->pctype)));
  PetscCall(KSPGetTolerances(ksp, &set->rtol, NULL, NULL, &set->maxit));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCMGBottomSetChebyshev(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPCABiCGStabSetBasis(ksp, KSP_CABICGSTAB_BASIS_CHEBYSHEV));
  PetscCall(KSPCABiCGStabSetS(ksp, PCMGBOTTOM_CHEBYSHEV_S));
  PetscCall(KSPCABiCGStabSetTelescope(ksp, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The policy's method on a KSP whose method it owns; a new KSPCABICGSTAB starts from the likely choice of
   PCMGBottomChooseBasis(), so that the setup allocates for its s, and gets its basis chosen anew */
static PetscErrorCode PCMGBottomSetType(PCMGBottom *bottom, KSP ksp, KSPType type)
{
  PetscBool same, iscab;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, type, &same));
  if (same) PetscFunctionReturn(PETSC_SUCCESS); /* KSPSetType() on a set-up KSP would set it up anew */
  PetscCall(KSPSetType(ksp, type));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPCABICGSTAB, &iscab));
  if (iscab) PetscCall(PCMGBottomSetChebyshev(ksp));
  bottom->basisset.set = PETSC_FALSE;
  bottom->adapts       = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the Gershgorin interval [1 - R, 1 + R] serves as the Chebyshev basis's interval (see PCMGBottomChooseBasis()) */
static PetscErrorCode PCMGBottomGershgorinSafe(KSP ksp, PetscReal R, PetscBool *isjacobi, PetscBool *safe)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCJACOBI, isjacobi));
  *safe = *isjacobi && R <= 1.0 + 100 * PETSC_MACHINE_EPSILON ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A KSPAUTOBCGS bottom solver: the policy's interval for its Chebyshev candidates (KSPAutoBCGSSetSpectrum()), so that
   the policy's own choice for a cabicgstab bottom, Chebyshev on that interval without an estimate, is among the
   candidates its model compares; estimated where the interval is not safe */
static PetscErrorCode PCMGBottomAutoSpectrum(PCMGBottom *bottom, KSP ksp, PetscReal R)
{
  PetscBool isauto, isjacobi, safe;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPAUTOBCGS, &isauto));
  if (!isauto) PetscFunctionReturn(PETSC_SUCCESS); /* the bottom KSP's options chose another method */
  PetscCall(PCMGBottomGershgorinSafe(ksp, R, &isjacobi, &safe));
  if (safe) {
    const char *prefix;
    PetscBool   given;

    PetscCall(KSPAutoBCGSSetSpectrum(ksp, PetscMax(0.0, 1.0 - R), 1.0 + R));
    PetscCall(KSPGetOptionsPrefix(ksp, &prefix));
    PetscCall(PetscOptionsHasName(((PetscObject)ksp)->options, prefix, "-ksp_autobcgs_iterations", &given));
    bottom->autoits = given ? PETSC_FALSE : PETSC_TRUE;
    if (bottom->autoits) PetscCall(KSPAutoBCGSSetIterations(ksp, PCMGBOTTOM_CHEBYSHEV_S));
    PetscCall(PetscSNPrintf(bottom->basis, sizeof(bottom->basis), "its Chebyshev candidates on the Gershgorin interval [%.3g, %.3g] of the Jacobi-preconditioned operator, no estimate (the policy's cabicgstab choice among them), %s", (double)PetscMax(0.0, 1.0 - R), (double)(1.0 + R),
                            bottom->autoits ? "its predictions for bottom solves of the most iterations since the setup (plus one if a solve of one right-hand side came since then), 10 at the first and at most 10 unless more were taken" : "the iterations of -ksp_autobcgs_iterations"));
  } else {
    PetscCall(KSPAutoBCGSSetSpectrum(ksp, 0.0, 0.0));
    PetscCall(PetscStrncpy(bottom->basis, "its Chebyshev candidates with a spectrum estimate (no safe Gershgorin interval)", sizeof(bottom->basis)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The policy's basis for a KSPCABICGSTAB bottom solver with PCJACOBI, after PCMG's setup (the coarse operator exists):
   the Gershgorin interval [1 - R, 1 + R] contains the spectrum of the preconditioned operator, with no estimate and no
   reduction beyond one maximum. It serves as the Chebyshev basis's interval when all radii are at most 1: the spectrum
   lies in the disc |z - 1| <= R, in the closed right half plane. R = 1 is the usual coarse Laplacian, with Dirichlet
   rows (irreducibly diagonally dominant: nonsingular, its eigenvalues in (0, 2)) or periodic (0 the null space's); 0 at
   the interval's end costs the basis nothing, the Chebyshev polynomials are bounded by 1 on the whole interval (whether
   a singular operator's solve converges is the solve's matter, not the basis's). A nonsymmetric operator's complex
   eigenvalues in the disc lie off the interval, where the Chebyshev polynomials grow as a scaled monomial basis does
   (at most (1 + sqrt 2)^j against 2^j at |z - 1| = 1): no worse than the monomial basis there. Then the bottom solver
   is the Chebyshev basis on that interval at s = 10 without telescoping, s then following the bottom
   solves (PCMGBottomAdaptS()): a bottom solve of at most s iterations is one global reduction. Otherwise (radii above
   1: the disc reaches into the left half plane) the monomial
   basis at s = 4 without telescoping: s_k = min(s, 2^k) never saves a reduction (its rounds cover 1, 3, 7, 11, ...
   iterations against 4, 8, 12, ... without), only the operator applications of a solve shorter than s, and a bottom
   solve at scale is bound by its reductions (16 columns on 2 ranks, 16384 nodes simulated: 3 rounds per bottom solve
   become 2). The options of
   the KSP's prefix are read again afterwards and win. Chosen anew at each setup (the operator may have changed) while
   the policy owns the method and s, basis and s-telescoping still hold what it chose last: a program that set them
   keeps them. bottom->basis says what was chosen and why.
*/
static PetscErrorCode PCMGBottomChooseBasis(PCMGBottom *bottom, KSP coarse, KSP ksp)
{
  Mat             A;
  PetscBool       iscab, isauto, isjacobi = PETSC_FALSE, safe, sgiven;
  PetscReal       R;
  PCMGBottomBasis chosen;

  PetscFunctionBegin;
  bottom->basis[0] = 0; /* the report says only what this setup chose */
  bottom->adapts   = PETSC_FALSE;
  bottom->autoits  = PETSC_FALSE;
  bottom->itsmax   = 0;
  bottom->single   = PETSC_FALSE;
  PetscCall(PetscStrcmp(bottom->ksptype, KSPCABICGSTAB, &iscab));
  PetscCall(PetscStrcmp(bottom->ksptype, KSPAUTOBCGS, &isauto));
  if (!(iscab || isauto) || !bottom->ownsmethod) PetscFunctionReturn(PETSC_SUCCESS); /* the same on all ranks */
  /* the radii of the coarse operator on all ranks (under PCTELESCOPE the inner KSP's copy of it is filled later) */
  PetscCall(KSPGetOperators(coarse, &A, NULL));
  PetscCall(CAKrylovMatGershgorinRadius(A, &R));
  if (!ksp) PetscFunctionReturn(PETSC_SUCCESS); /* a rank idle under PCTELESCOPE */
  if (isauto) PetscFunctionReturn(PCMGBottomAutoSpectrum(bottom, ksp, R));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPCABICGSTAB, &iscab));
  if (!iscab) PetscFunctionReturn(PETSC_SUCCESS); /* the bottom KSP's options chose another method */
  if (bottom->basisset.set) {
    PCMGBottomBasis now;

    PetscCall(KSPCABiCGStabGetS(ksp, &now.s));
    PetscCall(KSPCABiCGStabGetBasis(ksp, &now.basis));
    PetscCall(KSPCABiCGStabGetTelescope(ksp, &now.telescope));
    if (now.s != bottom->basisset.s || now.basis != bottom->basisset.basis || now.telescope != bottom->basisset.telescope) {
      PetscCall(PetscStrncpy(bottom->basis, "the program's (set after the policy chose one: the policy leaves it)", sizeof(bottom->basis)));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCall(PCMGBottomGershgorinSafe(ksp, R, &isjacobi, &safe));
  if (safe) {
    PetscCall(PCMGBottomSetChebyshev(ksp));
    PetscCall(KSPCABiCGStabSetSpectrum(ksp, PetscMax(0.0, 1.0 - R), 1.0 + R));
    PetscCall(PetscSNPrintf(bottom->basis, sizeof(bottom->basis), "chebyshev, s = %d at the first solve, then the most iterations of a solve since the setup, plus one if a solve of one right-hand side came since then (at least 4, at most %d), no telescoping, on the Gershgorin interval [%.3g, %.3g] of the Jacobi-preconditioned operator (all radii %s 1)", PCMGBOTTOM_CHEBYSHEV_S, PCMGBOTTOM_CHEBYSHEV_S, (double)PetscMax(0.0, 1.0 - R), (double)(1.0 + R), R < 1.0 ? "<" : "<="));
  } else { /* monomial, s = 4, no telescoping (PCMGBottomSetType() set the Chebyshev ones before the setup; a new s is allocated at the first solve) */
    PetscCall(KSPCABiCGStabSetBasis(ksp, KSP_CABICGSTAB_BASIS_MONOMIAL));
    PetscCall(KSPCABiCGStabSetSpectrum(ksp, PETSC_DETERMINE, PETSC_DETERMINE));
    PetscCall(KSPCABiCGStabSetS(ksp, 4));
    PetscCall(KSPCABiCGStabSetTelescope(ksp, PETSC_FALSE));
    if (!isjacobi) PetscCall(PetscStrncpy(bottom->basis, "monomial, s = 4, no telescoping (the bottom PC is not PCJACOBI: no Gershgorin interval)", sizeof(bottom->basis)));
    else if (R == PETSC_MAX_REAL) PetscCall(PetscStrncpy(bottom->basis, "monomial, s = 4, no telescoping (a zero diagonal entry, or the matrix type gives no rows: no Gershgorin interval)", sizeof(bottom->basis)));
    else PetscCall(PetscSNPrintf(bottom->basis, sizeof(bottom->basis), "monomial, s = 4, no telescoping (Gershgorin radius %.3g > 1: the disc around 1 reaches into the left half plane)", (double)R));
  }
  PetscCall(KSPCABiCGStabGetS(ksp, &chosen.s));
  PetscCall(KSPCABiCGStabGetBasis(ksp, &chosen.basis));
  PetscCall(KSPCABiCGStabGetTelescope(ksp, &chosen.telescope));
  PetscCall(KSPSetFromOptions(ksp)); /* the KSP's own options win */
  PetscCall(KSPCABiCGStabGetS(ksp, &bottom->basisset.s));
  PetscCall(KSPCABiCGStabGetBasis(ksp, &bottom->basisset.basis));
  PetscCall(KSPCABiCGStabGetTelescope(ksp, &bottom->basisset.telescope));
  bottom->basisset.set = PETSC_TRUE;
  if (chosen.s != bottom->basisset.s || chosen.basis != bottom->basisset.basis || chosen.telescope != bottom->basisset.telescope) { /* the report says what runs */
    char policy[sizeof(bottom->basis)];

    PetscCall(PetscStrncpy(policy, bottom->basis, sizeof(policy)));
    PetscCall(PetscSNPrintf(bottom->basis, sizeof(bottom->basis), "%s, s = %" PetscInt_FMT ", %s, from the bottom KSP's options (the policy's choice was: %.400s)", KSPCABiCGStabBases[bottom->basisset.basis], bottom->basisset.s, bottom->basisset.telescope ? "telescoping" : "no telescoping", policy));
  }
  /* s follows the solves (PCMGBottomAdaptS()) while the basis is the policy's Chebyshev choice and no option gave s */
  PetscCall(PetscOptionsHasName(((PetscObject)ksp)->options, ((PetscObject)ksp)->prefix, "-ksp_cabicgstab_s", &sgiven));
  bottom->adapts = safe && !sgiven && bottom->basisset.basis == KSP_CABICGSTAB_BASIS_CHEBYSHEV && !bottom->basisset.telescope ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The policy's PC on a coarse PC it owns: Jacobi, or PCTELESCOPE onto 1 of every agglomeration ranks */
static PetscErrorCode PCMGBottomSetPC(PCMGBottom *bottom, PC cpc, PetscBool agglomerate)
{
  PetscBool same;

  PetscFunctionBegin;
  bottom->agglomerated = agglomerate;
  PetscCall(PetscObjectTypeCompare((PetscObject)cpc, agglomerate ? PCTELESCOPE : PCJACOBI, &same));
  if (same && !(agglomerate && bottom->renew)) PetscFunctionReturn(PETSC_SUCCESS);
  bottom->renew = PETSC_FALSE;
  PetscCall(KSPDestroy(&bottom->krylov));
  if (!agglomerate) {
    PetscCall(PCSetType(cpc, PCJACOBI));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (same) PetscCall(PCSetType(cpc, PCNONE)); /* a reset PCTELESCOPE: destroyed with its inner KSP, and made anew */
  /* the Krylov solve runs on 1 of every agglomeration ranks: its reductions span fewer ranks (Hu 1995) */
  PetscCall(PCSetType(cpc, PCTELESCOPE));
  PetscCall(PCTelescopeSetReductionFactor(cpc, bottom->agglomeration));
  /* the Krylov solve and Jacobi need the assembled coarse matrix only: redistribute its rows. With the DM, PCTELESCOPE
     repartitions a DMDA and has the user's KSPSetComputeOperators() callback assemble on it, a DM the program never
     made: whatever it attached to its own DMs (coarsen hooks, named vectors) is missing there */
  PetscCall(PCTelescopeSetIgnoreDM(cpc, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The policy on the coarse KSP, before PCMG's setup (and as soon as PCMG makes the coarse KSP), for each setting that
   still holds what PCMG or the policy put there last (its record, bottom->coarseset): one that differs was set by the
   program, in code or with the coarse KSP's options, and stays. The method, rtol, max_it and the PC are independent.
   Agglomeration needs the PC: the coarse KSP becomes KSPPREONLY around the policy's PCTELESCOPE, whose inner KSP gets the
   method after PCMG's setup (PCMGBottomConfigureTelescope()).
*/
static PetscErrorCode PCMGBottomConfigureCoarse(PC pc, PCMGBottom *bottom)
{
  KSP                coarse;
  PC                 cpc;
  PCMGBottomSettings now, *rec = &bottom->coarseset;
  PetscBool          owntype, ownpc, ownrtol, ownmaxit, agglomerate;

  PetscFunctionBegin;
  PetscCall(PCMGGetCoarseSolve(pc, &coarse));
  if (!coarse || !bottom->ksptype[0]) PetscFunctionReturn(PETSC_SUCCESS); /* no coarse level on this rank (PCMGSetLevels()'s comms), or no policy */
  PetscCall(PCMGBottomSettingsGet(coarse, &now));
  PetscCall(PetscStrcmp(now.ksptype, rec->ksptype, &owntype));
  PetscCall(PetscStrcmp(now.pctype, rec->pctype, &ownpc));
  ownrtol  = now.rtol == rec->rtol ? PETSC_TRUE : PETSC_FALSE; /* a copy compared with itself: exact */
  ownmaxit = now.maxit == rec->maxit ? PETSC_TRUE : PETSC_FALSE;
  if (!(owntype && ownpc && ownrtol && ownmaxit)) PetscCall(PetscInfo(pc, "The program's coarse-KSP settings stay (1 = the program's): method %d, rtol %d, max_it %d, PC %d\n", !owntype, !ownrtol, !ownmaxit, !ownpc));
  if (!ownpc) { /* the program replaced the policy's PCTELESCOPE, if there was one */
    bottom->agglomerated = PETSC_FALSE;
    bottom->renew        = PETSC_FALSE;
    PetscCall(KSPDestroy(&bottom->krylov));
  }
  agglomerate = ownpc && bottom->agglomeration > 1 ? PETSC_TRUE : PETSC_FALSE;
  if (owntype) PetscCall(PCMGBottomSetType(bottom, coarse, agglomerate ? KSPPREONLY : bottom->ksptype));
  if (ownrtol || ownmaxit) PetscCall(KSPSetTolerances(coarse, ownrtol ? bottom->rtol : PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, ownmaxit ? bottom->maxit : PETSC_DEFAULT));
  PetscCall(KSPGetPC(coarse, &cpc));
  if (ownpc) PetscCall(PCMGBottomSetPC(bottom, cpc, agglomerate));
  bottom->ownsmethod = agglomerate || owntype ? PETSC_TRUE : PETSC_FALSE;
  /* the new record of what the policy set; a setting of the program's keeps its old record, so it stays the program's */
  PetscCall(PCMGBottomSettingsGet(coarse, &now));
  if (owntype) PetscCall(PetscStrncpy(rec->ksptype, now.ksptype, sizeof(rec->ksptype)));
  if (ownpc) PetscCall(PetscStrncpy(rec->pctype, now.pctype, sizeof(rec->pctype)));
  if (ownrtol) rec->rtol = now.rtol;
  if (ownmaxit) rec->maxit = now.maxit;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After PCMG's setup: PCTELESCOPE has made its inner KSP (on the ranks that run it); a new one gets the whole policy, then
   its options (-mg_coarse_telescope_ksp_*) */
static PetscErrorCode PCMGBottomConfigureTelescope(PC pc, PCMGBottom *bottom)
{
  KSP       coarse, inner;
  PC        cpc, ipc;
  PetscBool istelescope;

  PetscFunctionBegin;
  if (!bottom->agglomerated) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PCMGGetCoarseSolve(pc, &coarse));
  PetscCall(KSPGetPC(coarse, &cpc));
  PetscCall(PetscObjectTypeCompare((PetscObject)cpc, PCTELESCOPE, &istelescope));
  if (!istelescope) { /* -mg_coarse_pc_type replaced it */
    bottom->agglomerated = PETSC_FALSE;
    PetscCall(KSPDestroy(&bottom->krylov));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PCTelescopeGetKSP(cpc, &inner));
  if (inner == bottom->krylov) PetscFunctionReturn(PETSC_SUCCESS); /* configured before (the reference keeps its address unique) */
  PetscCall(KSPDestroy(&bottom->krylov));
  if (!inner) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectReference((PetscObject)inner));
  bottom->krylov = inner;
  PetscCall(PCMGBottomSetType(bottom, inner, bottom->ksptype));
  PetscCall(KSPSetTolerances(inner, bottom->rtol, PETSC_DEFAULT, PETSC_DEFAULT, bottom->maxit));
  PetscCall(KSPGetPC(inner, &ipc));
  PetscCall(PCSetType(ipc, PCJACOBI));
  PetscCall(KSPSetFromOptions(inner));
  bottom->basisset.set = PETSC_FALSE;
  bottom->adapts       = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What the policy held of a coarse KSP that PCMG has just destroyed */
static PetscErrorCode PCMGBottomForget(PCMGBottom *bottom)
{
  PetscFunctionBegin;
  PetscCall(KSPDestroy(&bottom->krylov));
  PetscCall(PetscMemzero(&bottom->coarseset, sizeof(bottom->coarseset)));
  PetscCall(PetscMemzero(&bottom->basisset, sizeof(bottom->basisset)));
  bottom->agglomerated = PETSC_FALSE;
  bottom->renew        = PETSC_FALSE;
  bottom->ownsmethod   = PETSC_FALSE;
  bottom->adapts       = PETSC_FALSE;
  bottom->basis[0]     = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PCMG makes its levels here, and makes them anew when their number changes, also inside its own setup on a refined DM
   (grid sequencing): a new coarse KSP is measured and gets the policy at once, before PCMG's setup reads its options and
   sets it up. Given later, the policy would change the method of a set-up KSP, which sets it up anew: with a DM, on a
   new operator matrix (SNES's finite-difference coloring cached on the coarse DM belongs to the old one). One level is a
   smoother (-mg_levels_0_), not a coarse solve: no policy, nothing measured.
*/
static PetscErrorCode PCMGSetLevels_MGBottom(PC pc, PetscInt levels, MPI_Comm *comms)
{
  PCMGBottom *bottom;
  PetscInt    before;
  KSP         coarse, old = NULL;

  PetscFunctionBegin;
  PetscCall(PCMGBottomQuery(pc, &bottom));
  PetscCall(PCMGGetLevels(pc, &before));
  if (before > 1) PetscCall(PCMGGetCoarseSolve(pc, &old)); /* compared, never used: PETSc may destroy it */
  PetscCall(bottom->setlevels(pc, levels, comms));
  if (levels > 1) PetscCall(PCMGGetCoarseSolve(pc, &coarse));
  else coarse = NULL;
  if ((levels == before && coarse == old) || !PCMGBottomLive(pc)) PetscFunctionReturn(PETSC_SUCCESS); /* PETSc kept its levels */
  PetscCall(PCMGBottomForget(bottom));
  if (!coarse) PetscFunctionReturn(PETSC_SUCCESS); /* this rank is not on the coarse level (comms) */
  PetscCall(KSPSetPreSolve(coarse, PCMGBottomPreSolve, bottom));
  PetscCall(KSPSetPostSolve(coarse, PCMGBottomPostSolve, bottom));
  PetscCall(PCMGBottomSettingsGet(coarse, &bottom->coarseset)); /* PCMG's own: KSPPREONLY, a direct solve */
  PetscCall(PCMGBottomConfigureCoarse(pc, bottom));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCMG's reset resets the coarse KSP and its PC; a reset PCTELESCOPE makes a new inner KSP at its next setup without
   destroying the old one (PETSc 3.18 to 3.26). The policy's PCTELESCOPE is made anew at the next setup instead
   (PCMGBottomSetPC()), which destroys the old one with its inner KSP; until then it stays, and so does the report's
   view of it */
static PetscErrorCode PCReset_MGBottom(PC pc)
{
  PCMGBottom *bottom;

  PetscFunctionBegin;
  PetscCall(PCMGBottomQuery(pc, &bottom));
  PetscCall(bottom->reset(pc));
  if (bottom->agglomerated) bottom->renew = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The start of a PCMG application: the time, reduction and halo counts the report measures from */
static PetscErrorCode PCMGBottomCycleBegin(PetscLogDouble *t0, PetscLogDouble r0[2])
{
  PetscFunctionBegin;
  r0[0] = PCMGBottomReductionCount();
  r0[1] = PCMGBottomHaloCount();
  PetscCall(PetscTime(t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Its end: `cycles` cycles, their time, reductions and halo messages */
static PetscErrorCode PCMGBottomCycleEnd(PCMGBottom *bottom, PetscInt cycles, PetscLogDouble t0, const PetscLogDouble r0[2])
{
  PetscLogDouble t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t1));
  bottom->stats.vcycles += cycles;
  bottom->stats.mgtime += t1 - t0;
  bottom->stats.mgreductions += PCMGBottomReductionCount() - r0[0];
  bottom->stats.mghalo += PCMGBottomHaloCount() - r0[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_MGBottom(PC pc, Vec b, Vec x)
{
  PCMGBottom    *bottom;
  PetscLogDouble t0, r0[2];

  PetscFunctionBegin;
  PetscCall(PCMGBottomQuery(pc, &bottom));
  PetscCall(PCMGBottomCycleBegin(&t0, r0));
  PetscCall(bottom->apply(pc, b, x));
  PetscCall(PCMGBottomCycleEnd(bottom, 1, t0, r0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCMatApply(): one cycle on m columns, counted as one cycle */
static PetscErrorCode PCMatApply_MGBottom(PC pc, Mat B, Mat X)
{
  PCMGBottom    *bottom;
  PetscLogDouble t0, r0[2];

  PetscFunctionBegin;
  PetscCall(PCMGBottomQuery(pc, &bottom));
  PetscCall(PCMGBottomCycleBegin(&t0, r0));
  PetscCall(bottom->matapply(pc, B, X));
  PetscCall(PCMGBottomCycleEnd(bottom, 1, t0, r0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KSPRICHARDSON with PCMG runs all its cycles in one call: count the cycles it reports */
static PetscErrorCode PCApplyRichardson_MGBottom(PC pc, Vec b, Vec x, Vec w, PetscReal rtol, PetscReal abstol, PetscReal dtol, PetscInt its, PetscBool zeroguess, PetscInt *outits, PCRichardsonConvergedReason *reason)
{
  PCMGBottom    *bottom;
  PetscLogDouble t0, r0[2];

  PetscFunctionBegin;
  PetscCall(PCMGBottomQuery(pc, &bottom));
  PetscCall(PCMGBottomCycleBegin(&t0, r0));
  PetscCall(bottom->applyrichardson(pc, b, x, w, rtol, abstol, dtol, its, zeroguess, outits, reason));
  PetscCall(PCMGBottomCycleEnd(bottom, *outits, t0, r0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCMGSetType() (called by PCMG's set-from-options) sets applyrichardson itself: wrap what it set */
static void PCMGBottomWrapRichardson(PC pc, PCMGBottom *bottom)
{
  if (pc->ops->applyrichardson == PCApplyRichardson_MGBottom) return;
  bottom->applyrichardson = pc->ops->applyrichardson;
  if (bottom->applyrichardson) pc->ops->applyrichardson = PCApplyRichardson_MGBottom;
}

/* The block solve of PCCHEBYJACOBI under KSPRICHARDSON as a smoother's KSPMatSolve(), where the smoother has none (its
   type, once set up, is final: KSPSetType() clears what was put here) */
static PetscErrorCode PCMGBottomBlockSmoother(KSP smoother)
{
  PetscBool rich, cheby;

  PetscFunctionBegin;
  if (!smoother || smoother->ops->matsolve) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectTypeCompare((PetscObject)smoother, KSPRICHARDSON, &rich));
  PetscCall(PetscObjectTypeCompare((PetscObject)smoother->pc, PCCHEBYJACOBI, &cheby));
  if (rich && cheby) smoother->ops->matsolve = KSPMatSolve_RichardsonChebyJacobi;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetUp_MGBottom(PC pc)
{
  PCMGBottom *bottom;
  PetscInt    levels;
  KSP         coarse;

  PetscFunctionBegin;
  PetscCall(PCMGBottomQuery(pc, &bottom));
  PCMGBottomWrapRichardson(pc, bottom);
  PetscCall(PCMGGetLevels(pc, &levels));
  if (levels > 1) PetscCall(PCMGBottomConfigureCoarse(pc, bottom)); /* a policy given or changed since PCMG made its levels */
  PetscCall(bottom->setup(pc));                                     /* PETSc's own checks first (no levels); it may make the levels anew (PCMGSetLevels_MGBottom()) */
  PetscCall(PCMGGetLevels(pc, &levels));
  if (levels < 2) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt l = 1; l < levels; l++) {
    PC_MG_Levels *lv = ((PC_MG *)pc->data)->levels[l];

    PetscCall(PCMGBottomBlockSmoother(lv->smoothd));
    if (lv->smoothu != lv->smoothd) PetscCall(PCMGBottomBlockSmoother(lv->smoothu));
  }
  PetscCall(PCMGGetCoarseSolve(pc, &coarse));
  if (coarse && coarse->presolve == PCMGBottomPreSolve && coarse->ops->matsolve && coarse->ops->matsolve != KSPMatSolve_MGBottom) { /* the coarse KSP's type is final now */
    bottom->matsolve      = coarse->ops->matsolve;
    coarse->ops->matsolve = KSPMatSolve_MGBottom;
  }
  if (!coarse || !bottom->ksptype[0]) PetscFunctionReturn(PETSC_SUCCESS);
  if (coarse->presolve != PCMGBottomPreSolve) PetscCall(PetscInfo(pc, "The coarse KSP has a pre-solve function of the program's: bottom solves are not reported\n"));
  PetscCall(KSPSetInitialGuessNonzero(coarse, PETSC_FALSE)); /* PCMG zeroes the coarse x before each bottom solve: do not compute b - A 0 */
  PetscCall(PCMGBottomConfigureTelescope(pc, bottom));
  PetscCall(PCMGBottomChooseBasis(bottom, coarse, bottom->agglomerated ? bottom->krylov : coarse));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_MGBottom(PC pc, CAKrylovOptionItems PetscOptionsObject)
{
  PCMGBottom *bottom;
  char        type[256];
  PetscReal   rtol;
  PetscInt    maxit, factor;
  PetscBool   flg, flg2;

  PetscFunctionBegin;
  PetscCall(PCMGBottomQuery(pc, &bottom));
  PetscCall(bottom->setfromoptions(pc, PetscOptionsObject));
  PCMGBottomWrapRichardson(pc, bottom);
  rtol   = bottom->rtol;
  maxit  = bottom->maxit;
  factor = bottom->agglomeration;
  PetscOptionsHeadBegin(PetscOptionsObject, "PCMG bottom solver (cakrylov)");
  PetscCall(PetscOptionsFList("-pc_mg_bottom_ksp_type", "Krylov method of the bottom solve, with the bottom policy", "PCMGSetBottomSolver", KSPList, bottom->ksptype[0] ? bottom->ksptype : KSPCABICGSTAB, type, sizeof(type), &flg));
  if (flg) PetscCall(PCMGSetBottomSolver(pc, type));
  PetscCall(PetscOptionsReal("-pc_mg_bottom_rtol", "Relative residual reduction of a bottom solve", "PCMGSetBottomTolerances", rtol, &rtol, &flg));
  PetscCall(PetscOptionsInt("-pc_mg_bottom_max_it", "Iteration cap of a bottom solve", "PCMGSetBottomTolerances", maxit, &maxit, &flg2));
  if (flg || flg2) PetscCall(PCMGSetBottomTolerances(pc, rtol, maxit));
  PetscCall(PetscOptionsDeprecated("-pc_mg_bottom_telescope", "-pc_mg_bottom_agglomeration", "0.2.0", "(telescope names cabicgstab's s-telescoping)"));
  PetscCall(PetscOptionsInt("-pc_mg_bottom_agglomeration", "Run the bottom solve on 1 of every n ranks (PCTELESCOPE reduction factor; 1: all ranks)", "PCMGSetBottomAgglomeration", factor, &factor, &flg));
  if (flg) PetscCall(PCMGSetBottomAgglomeration(pc, factor));
  PetscCall(PetscOptionsBool("-pc_mg_bottom_report", "Print the bottom-solve report when the preconditioner is destroyed", "PCMGBottomReportView", bottom->report, &bottom->report, NULL));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_MGBottom(PC pc, PetscViewer viewer)
{
  PCMGBottom *bottom;
  PetscBool   isascii;

  PetscFunctionBegin;
  PetscCall(PCMGBottomQuery(pc, &bottom));
  PetscCall(bottom->view(pc, viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (isascii && PCMGBottomLive(pc)) PetscCall(PCMGBottomReportView(pc, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_MGBottom(PC pc)
{
  PCMGBottom *bottom;

  PetscFunctionBegin;
  PetscCall(PCMGBottomQuery(pc, &bottom));
  if (bottom->report) PetscCall(PCMGBottomReportView(pc, PETSC_VIEWER_STDOUT_(PetscObjectComm((PetscObject)pc))));
  PetscCall(KSPDestroy(&bottom->krylov));
  PetscCall(bottom->destroy(pc));
  PetscCall(PetscObjectCompose((PetscObject)pc, PCMGBOTTOM_KEY, NULL)); /* frees bottom */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCMG as PETSc creates it, with the hook around it */
static PetscErrorCode PCCreate_MGBottom(PC pc)
{
  PCMGBottom    *bottom;
  PetscContainer container;

  PetscFunctionBegin;
  PetscCall(PCCreate_MG_PETSc(pc));
  PetscCall(PetscNew(&bottom));
  bottom->rtol          = 1e-4; /* BoxLib/AMReX bottom solves */
  bottom->maxit         = 200;
  bottom->agglomeration = 1;
  PetscCall(PetscContainerCreate(PetscObjectComm((PetscObject)pc), &container));
  PetscCall(PetscContainerSetPointer(container, bottom));
  PetscCall(CAKrylovContainerSetFree(container));
  PetscCall(PetscObjectCompose((PetscObject)pc, PCMGBOTTOM_KEY, (PetscObject)container));
  PetscCall(PetscContainerDestroy(&container));

  PetscCall(PetscObjectQueryFunction((PetscObject)pc, "PCMGSetLevels_C", &bottom->setlevels));
  PetscCheck(bottom->setlevels, PetscObjectComm((PetscObject)pc), PETSC_ERR_PLIB, "PETSc's PCMG composes no PCMGSetLevels_C");
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCMGSetLevels_C", PCMGSetLevels_MGBottom));
  bottom->setfromoptions  = pc->ops->setfromoptions;
  bottom->setup           = pc->ops->setup;
  bottom->reset           = pc->ops->reset;
  bottom->apply           = pc->ops->apply;
  bottom->matapply        = pc->ops->matapply;
  bottom->view            = pc->ops->view;
  bottom->destroy         = pc->ops->destroy;
  pc->ops->setfromoptions = PCSetFromOptions_MGBottom;
  pc->ops->setup          = PCSetUp_MGBottom;
  pc->ops->reset          = PCReset_MGBottom;
  pc->ops->apply          = PCApply_MGBottom;
  if (bottom->matapply) pc->ops->matapply = PCMatApply_MGBottom;
  pc->ops->view    = PCView_MGBottom;
  pc->ops->destroy = PCDestroy_MGBottom;
  PCMGBottomWrapRichardson(pc, bottom);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Called once by CAKrylovInitializePackage(): PCMG's constructor becomes PCCreate_MGBottom() */
PetscErrorCode PCMGBottomRegister(void)
{
  PetscErrorCode (*create)(PC) = NULL;

  PetscFunctionBegin;
  PetscCall(PCInitializePackage()); /* PCRegisterAll() first, or it would register PCMG over us later */
  PetscCall(PetscFunctionListFind(PCList, PCMG, &create));
  PetscCheck(create, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PETSc has no PCMG registered");
  if (create == PCCreate_MGBottom) PetscFunctionReturn(PETSC_SUCCESS);
  PCCreate_MG_PETSc = create;
  PetscCall(PCRegister(PCMG, PCCreate_MGBottom));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   PCMGBottomSolver - the cakrylov hook on the coarsest level ("bottom") of `PCMG`: a Krylov method with a bottom
   policy, optional agglomeration onto fewer ranks, and a report of the bottom solves' cost

   Options Database Keys (on the `PCMG`'s own prefix):
+  -pc_mg_bottom_ksp_type <cabicgstab>  - makes this `KSPType` the bottom solver with the bottom policy (see `PCMGSetBottomSolver()`)
.  -pc_mg_bottom_rtol <1e-4>            - relative residual reduction of each bottom solve
.  -pc_mg_bottom_max_it <200>           - iteration cap of each bottom solve
.  -pc_mg_bottom_agglomeration <1>      - run the bottom solve on 1 of every n ranks through `PCTELESCOPE`
-  -pc_mg_bottom_report                 - print the bottom-solve report when the preconditioner is destroyed

   Notes:
   Loaded with `-dll_append libcakrylov.so`, or linked with `CAKrylovInitializePackage()` called, every `PCMG`
   carries the hook: an unmodified PETSc program gets the bottom solver from the options above.

   The policy sets the coarse `KSP` (prefix `-mg_coarse_`) to the method, tolerances rtol and max_it, a zero
   initial guess and `PCJACOBI`, replacing PCMG's default redundant direct solve. It is applied when `PCMG` makes
   its coarse `KSP` (`PCMGSetLevels()`, also when `PCMG`'s setup makes the levels anew on a refined `DM`, as in grid
   sequencing) and again before each setup of `PCMG`, always before PCMG's setup reads the `-mg_coarse_` options,
   so that PETSc's own options still work and win: `-mg_coarse_ksp_rtol 1e-6` or `-mg_coarse_pc_type sor` change
   one part of the policy. With `-pc_mg_bottom_agglomeration` n > 1 the coarse `KSP` becomes `KSPPREONLY` with
   `PCTELESCOPE` of reduction factor n on the assembled matrix (the coarse `DM` ignored), and the policy goes to the
   `KSP` inside it (prefix `-mg_coarse_telescope_`), also to the new one `PCTELESCOPE` makes after `KSPReset()`.

   The policy is a default, as PCMG's own direct solve is: it replaces only what `PCMG` chose by itself, never what
   the program chose. Precisely, each of four settings of the coarse `KSP` is the policy's while it still holds the
   value `PCMG` gave it when it made the coarse `KSP`, or the value the policy itself set last; a setting that differs
   was set by the program (in code, e.g. `KSPSetType()`, `KSPSetTolerances()` or `PCSetType()` on the `KSP` of
   `PCMGGetCoarseSolve()`, or with `-mg_coarse_` options) and stays the program's: the method (`KSPType`), rtol,
   max_it, and the `PC` (`PCJACOBI`, or the `PCTELESCOPE` of agglomeration, which therefore needs `PCMG`'s own coarse
   `PC`). Why: PETSc's convention is that code sets defaults and options override them; a policy is neither the
   program's code nor an option of the coarse `KSP`, so it must not undo either, and with this rule the result does
   not depend on whether the program set the coarse `KSP` before or after choosing the policy. A program that sets
   the coarse `KSP` itself keeps the report and gets the policy for the rest. To override a program's coarse-`KSP`
   settings from the command line use PETSc's `-mg_coarse_` options, read after all of this; the `-pc_mg_bottom_`
   options choose the policy, a default, and do not. A setting the program sets to exactly the policy's value counts
   as the policy's.

   A `PCMG` with one level has no coarse solve (its only level is a smoother with PETSc's `-mg_levels_0_` prefix): no
   policy there and nothing to report. Types built on `PCMG` that make their own hierarchy and coarse solver
   (`PCGAMG`, `PCML`, `PCHMG`) are left alone: no policy, no report.

   A `KSPCABICGSTAB` bottom solver with `PCJACOBI` gets its basis from the coarse operator, after `PCMG`'s setup: one
   pass over its rows gives the Gershgorin radius R = max_i sum_{j != i} |a_ij| / |a_ii|, so the spectrum of the
   Jacobi-preconditioned operator lies in the disc of radius R around 1 (one maximum over the ranks, no estimate).
   When R <= 1 (the usual coarse Laplacian, Dirichlet or periodic, has R = 1) the bottom solver
   is the Chebyshev basis on [1 - R, 1 + R] without telescoping, so a bottom solve of at most s iterations is one
   global reduction, at s = 10 for the first solve and then at the most iterations of a bottom solve since the setup,
   plus one if a solve of one right-hand side came since then (at least 4, at most 10; a block solve's second outer
   iteration carries only its columns that outran s): a basis of 2s + 1 vectors costs 2s operator applications
   whatever the solve needs, and bottom solves of 3 iterations need no 21 (`-mg_coarse_ksp_cabicgstab_s` fixes s); otherwise the monomial basis at s = 4 without
   s-telescoping (which never saves a reduction, only the operator applications of a solve shorter than s). The report says
   which it chose and why; `-mg_coarse_ksp_cabicgstab_*` options still win. The basis is chosen only for a method the
   policy set, and again at each setup while s, the basis and s-telescoping hold what it chose last: a
   `KSPCABICGSTAB` the program set (`KSPSetType()`, `KSPCABiCGStabSetS()` on the coarse `KSP`) keeps its own.

   The report (`PCMGBottomReport`) is collected for every `PCMG`, with or without the policy: number of `PCMG`
   applications (cycles), bottom solves, bottom Krylov iterations, global reductions and halo messages issued inside
   the bottom solves and the whole `PCMG` applications, time in the bottom solves and in the whole `PCMG`
   applications. `-ksp_view` shows it. Reductions are PETSc's own count of `MPI_Allreduce` calls plus this library's
   count of its `MPI_Iallreduce` calls: the non-blocking reductions of PETSc's own pipelined types (`pipecg`,
   `pipebcgs`, ...) are not seen. Halo messages are PETSc's own count of the point-to-point receives it posts
   (`petsc_irecv_ct` + `petsc_recv_ct`: one per neighbour rank per `VecScatter`, i.e. per operator application). Cycles are
   counted for `PCApply()` and for `KSPRICHARDSON`'s `PCApplyRichardson()`; `KSPMatSolve()` is not measured.

   Level: intermediate

.seealso: `PCMGSetBottomSolver()`, `PCMGSetBottomTolerances()`, `PCMGSetBottomAgglomeration()`, `PCMGGetBottomReport()`,
          `PCMGBottomReportView()`, `PCMG`, `PCTELESCOPE`, `KSPCABICGSTAB`
M*/

/*@C
  PCMGSetBottomSolver - Makes a Krylov method the bottom (coarsest-level) solver of a `PCMG`, with the bottom policy

  Logically Collective

  Input Parameters:
+ pc   - the `PCMG` preconditioner
- type - the `KSPType` of the bottom solve, e.g. `KSPCABICGSTAB` or `KSPBCGS`

  Options Database Key:
. -pc_mg_bottom_ksp_type <type> - the same from the options database

  Notes:
  The policy, applied when the `PCMG` is set up: residual reduced by a relative factor (default 1e-4, see
  `PCMGSetBottomTolerances()`), an iteration cap (default 200), zero initial guess, `PCJACOBI`, no direct solve; for
  `KSPCABICGSTAB`, the Chebyshev basis on the Gershgorin interval of the coarse operator when that is safe, at s = 10
  for the first bottom solve and then at the most iterations of a bottom solve, plus one if a solve of one
  right-hand side came since the setup (at least 4, at most 10).
  It replaces only `PCMG`'s own choices: the method, rtol, max_it or `PC` that the program set on the coarse `KSP`
  (`PCMGGetCoarseSolve()`), before or after this call, stay the program's. PETSc's `-mg_coarse_` options are read
  after it and win over both. See `PCMGBottomSolver`.

  Level: intermediate

.seealso: `PCMGBottomSolver`, `PCMGSetBottomTolerances()`, `PCMGSetBottomAgglomeration()`, `PCMGGetBottomReport()`
@*/
PetscErrorCode PCMGSetBottomSolver(PC pc, KSPType type)
{
  PCMGBottom *bottom;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscCheck(type && type[0], PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_NULL, "Give the KSPType of the bottom solver");
  PetscCall(PCMGBottomGet(pc, &bottom));
  PetscCall(PetscStrncpy(bottom->ksptype, type, sizeof(bottom->ksptype)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCMGSetBottomTolerances - Sets the relative residual reduction and the iteration cap of each bottom solve

  Logically Collective

  Input Parameters:
+ pc    - the `PCMG` preconditioner
. rtol  - relative reduction of the residual norm, in (0, 1) (default 1e-4)
- maxit - iteration cap, at least 1 (default 200)

  Options Database Keys:
+ -pc_mg_bottom_rtol <rtol>   - the relative reduction
- -pc_mg_bottom_max_it <maxit> - the cap

  Notes:
  Defaults of the policy: an rtol or max_it the program set on the coarse `KSP` itself stays (see `PCMGBottomSolver`);
  `-mg_coarse_ksp_rtol` and `-mg_coarse_ksp_max_it` override both.

  Level: intermediate

.seealso: `PCMGBottomSolver`, `PCMGSetBottomSolver()`
@*/
PetscErrorCode PCMGSetBottomTolerances(PC pc, PetscReal rtol, PetscInt maxit)
{
  PCMGBottom *bottom;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscCheck(rtol > 0.0 && rtol < 1.0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Bottom rtol %g must be in (0, 1)", (double)rtol);
  PetscCheck(maxit >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Bottom max_it %" PetscInt_FMT " must be at least 1", maxit);
  PetscCall(PCMGBottomGet(pc, &bottom));
  bottom->rtol  = rtol;
  bottom->maxit = maxit;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCMGSetBottomAgglomeration - Agglomerates the bottom solve onto 1 of every factor ranks through `PCTELESCOPE`

  Logically Collective

  Input Parameters:
+ pc     - the `PCMG` preconditioner
- factor - the reduction factor: the bottom Krylov solve runs on size/factor ranks (1: on all ranks, the default)

  Options Database Key:
. -pc_mg_bottom_agglomeration <factor> - the same (`-pc_mg_bottom_telescope`, deprecated, still works in 0.2)

  Notes:
  Takes effect with a bottom solver set by `PCMGSetBottomSolver()`, on a coarse `KSP` whose `PC` is still `PCMG`'s own
  (a `PC` the program set stays, and the bottom solve stays on all ranks). Solving the coarse problem on fewer ranks
  makes each of its global reductions cheaper (Hu 1995); the restriction to the fewer ranks and back costs two
  scatters per bottom solve. Options of the inner `KSP` have the prefix `-mg_coarse_telescope_`. `PCTELESCOPE`
  redistributes the assembled coarse matrix and ignores the coarse `DM` (`PCTelescopeSetIgnoreDM()`):
  its `DMDA` path would repartition the `DMDA` and assemble the operator anew through the program's
  `KSPSetComputeOperators()` callback on a `DM` the program never made (`-mg_coarse_pc_telescope_ignore_dm 0`
  asks for it).

  Level: intermediate

.seealso: `PCMGBottomSolver`, `PCMGSetBottomSolver()`, `PCTELESCOPE`
@*/
PetscErrorCode PCMGSetBottomAgglomeration(PC pc, PetscInt factor)
{
  PCMGBottom *bottom;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscCheck(factor >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Agglomeration factor %" PetscInt_FMT " must be at least 1", factor);
  PetscCall(PCMGBottomGet(pc, &bottom));
  bottom->agglomeration = factor;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCMGSetBottomTelescope - Deprecated name of `PCMGSetBottomAgglomeration()` ("telescope" names `KSPCABICGSTAB`'s
  s-telescoping, `KSPCABiCGStabSetTelescope()`); it will be removed after cakrylov 0.2

  Level: deprecated

.seealso: `PCMGSetBottomAgglomeration()`
@*/
PetscErrorCode PCMGSetBottomTelescope(PC pc, PetscInt factor)
{
  PetscFunctionBegin;
  PetscCall(PCMGSetBottomAgglomeration(pc, factor));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCMGGetBottomReport - Gets what the bottom solves of a `PCMG` have cost so far

  Collective

  Input Parameter:
. pc - the `PCMG` preconditioner

  Output Parameter:
. report - the counts and times; iterations, reductions, halo messages and times are the largest over the ranks
           (under `PCTELESCOPE` only some ranks run the Krylov solve)

  Notes:
  One `MPI_Allreduce`, outside any bottom solve. Counts accumulate over all solves until `PCMGBottomReportReset()`.

  Level: intermediate

.seealso: `PCMGBottomReport`, `PCMGBottomReportView()`, `PCMGBottomReportReset()`, `PCMGBottomSolver`
@*/
PetscErrorCode PCMGGetBottomReport(PC pc, PCMGBottomReport *report)
{
  PCMGBottom    *bottom;
  PetscLogDouble local[7], global[7];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(report, 2);
  PetscCall(PCMGBottomGet(pc, &bottom));
  local[0] = (PetscLogDouble)bottom->stats.iterations;
  local[1] = bottom->stats.reductions;
  local[2] = bottom->stats.bottomtime;
  local[3] = bottom->stats.mgtime;
  local[4] = bottom->stats.mgreductions;
  local[5] = bottom->stats.halo;
  local[6] = bottom->stats.mghalo;
  PetscCall(MPIU_Allreduce(local, global, 7, MPIU_PETSCLOGDOUBLE, MPI_MAX, PetscObjectComm((PetscObject)pc)));
  *report              = bottom->stats;
  report->iterations   = (PetscInt)global[0];
  report->reductions   = global[1];
  report->bottomtime   = global[2];
  report->mgtime       = global[3];
  report->mgreductions = global[4];
  report->halo         = global[5];
  report->mghalo       = global[6];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCMGBottomReportReset - Zeroes the bottom-solve report of a `PCMG`

  Logically Collective

  Input Parameter:
. pc - the `PCMG` preconditioner

  Level: intermediate

.seealso: `PCMGGetBottomReport()`, `PCMGBottomReportView()`
@*/
PetscErrorCode PCMGBottomReportReset(PC pc)
{
  PCMGBottom *bottom;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscCall(PCMGBottomGet(pc, &bottom));
  PetscCall(PetscMemzero(&bottom->stats, sizeof(bottom->stats)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCMGBottomReportView - Prints the bottom-solve report of a `PCMG`: cycles, bottom solves and iterations, global
  reductions and halo messages received inside the bottom solves and inside the whole `PCMG` applications, and the time
  in the bottom solves against
  the whole `PCMG` applications

  Collective

  Input Parameters:
+ pc     - the `PCMG` preconditioner
- viewer - an ASCII viewer, e.g. `PETSC_VIEWER_STDOUT_WORLD`

  Options Database Key:
. -pc_mg_bottom_report - print it when the preconditioner is destroyed (`-ksp_view` prints it too)

  Level: intermediate

.seealso: `PCMGGetBottomReport()`, `PCMGBottomSolver`
@*/
PetscErrorCode PCMGBottomReportView(PC pc, PetscViewer viewer)
{
  PCMGBottom      *bottom;
  PCMGBottomReport r;
  KSP              coarse;
  KSPType          type;
  PetscReal        rtol;
  PetscInt         maxit, nlevels;
  char             where[64];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidHeaderSpecific(viewer, PETSC_VIEWER_CLASSID, 2);
  PetscCall(PCMGBottomGet(pc, &bottom));
  PetscCall(PCMGGetBottomReport(pc, &r));
  PetscCall(PCMGGetLevels(pc, &nlevels));
  if (nlevels < 1) { /* no hierarchy yet (PCMGSetLevels() or PCSetUp() not called): nothing to report */
    PetscCall(PetscViewerASCIIPrintf(viewer, "Bottom-solve report (cakrylov): PCMG has no levels yet\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (nlevels < 2) { /* the one level is a smoother (-mg_levels_0_) */
    PetscCall(PetscViewerASCIIPrintf(viewer, "Bottom-solve report (cakrylov): PCMG has one level, a smoother: no bottom solve\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PCMGGetCoarseSolve(pc, &coarse));
  PetscCall(KSPGetType(bottom->krylov ? bottom->krylov : coarse, &type));
  PetscCall(KSPGetTolerances(bottom->krylov ? bottom->krylov : coarse, &rtol, NULL, NULL, &maxit));
  if (!bottom->ksptype[0]) where[0] = 0;
  else if (bottom->agglomerated) PetscCall(PetscSNPrintf(where, sizeof(where), ", on 1 of every %" PetscInt_FMT " ranks (PCTELESCOPE)", bottom->agglomeration));
  else PetscCall(PetscStrncpy(where, ", on all ranks", sizeof(where)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "Bottom-solve report (cakrylov): bottom KSP %s, rtol %g, max_it %" PetscInt_FMT "%s\n", type ? type : "(not set up)", (double)rtol, maxit, bottom->ksptype[0] ? where : " (PCMG's own coarse solve, no bottom policy)"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  {
    KSP       bksp = bottom->krylov ? bottom->krylov : coarse;
    PetscBool isauto;

    PetscCall(PetscObjectTypeCompare((PetscObject)bksp, KSPAUTOBCGS, &isauto));
    if (bottom->basis[0]) PetscCall(PetscViewerASCIIPrintf(viewer, "%s bottom solver: %s\n", isauto ? "autobcgs" : "basis of the cabicgstab", bottom->basis));
    if (isauto) PetscCall(KSPAutoBCGSChoiceView(bksp, viewer)); /* what it chose and why */
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "PCMG cycles: %" PetscInt_FMT ", bottom solves: %" PetscInt_FMT "\n", r.vcycles, r.solves));
  PetscCall(PetscViewerASCIIPrintf(viewer, "bottom iterations: %" PetscInt_FMT " (%.1f per solve)\n", r.iterations, r.solves ? (double)r.iterations / r.solves : 0.0));
  PetscCall(PetscViewerASCIIPrintf(viewer, "global reductions in bottom solves: %.0f (%.1f per solve); halo messages received: %.0f (%.1f per solve)\n", r.reductions, r.solves ? r.reductions / r.solves : 0.0, r.halo, r.solves ? r.halo / r.solves : 0.0));
  PetscCall(PetscViewerASCIIPrintf(viewer, "global reductions in PCMG: %.0f, outside the bottom solves (smoothers, transfers, the cycles' own norms): %.0f; halo messages received in PCMG: %.0f, outside the bottom solves: %.0f\n", r.mgreductions, PetscMax(r.mgreductions - r.reductions, 0.0), r.mghalo, PetscMax(r.mghalo - r.halo, 0.0)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "time in bottom solves: %.3g s of %.3g s in PCMG (%.0f %%); per cycle %.3g s of %.3g s\n", r.bottomtime, r.mgtime, r.mgtime > 0 ? 100.0 * r.bottomtime / r.mgtime : 0.0, r.vcycles ? r.bottomtime / r.vcycles : 0.0, r.vcycles ? r.mgtime / r.vcycles : 0.0));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}
