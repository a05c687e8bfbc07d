#!/usr/bin/env python3
"""
cakrylov from petsc4py: the plugin loaded at run time through the options database, no compilation.

Builds the 5-point upwind convection-diffusion operator on an n x n grid,
    -Laplace(u) + peclet / h * (u_x + u_y)   (Dirichlet boundary, right-hand side 1),
with petsc4py, and solves it with PETSc's bcgs and then with each of cakrylov's BiCGStab types, all with the
same preconditioner, right preconditioning and tolerance. For every type it checks, against the bcgs solve of
the same run:
  - the solve converged;
  - the true residual ||b - A x|| is at most rtol ||b|| (times 1.01: the tolerance of cabicgstab's own final
    check, see KSPCABiCGStabSetResidualReplacement());
  - it took at most -margin (default 1.2) times bcgs's iterations (all are BiCGStab in exact arithmetic; rounding
    alone moves BiCGStab's iteration count by about 10 %).

Run it (2 ranks, the library of this repository):
    mpiexec -n 2 python3 tutorials/ex2.py -dll_append $PWD/lib/libcakrylov.so
and pass any cakrylov option, with the type as prefix: -cabicgstab_ksp_cabicgstab_s 8, -pipebcgsm_ksp_view.
petsc4py reads the options when it initializes PETSc, so -dll_append must be in sys.argv before
`from petsc4py import PETSc` (or in PETSC_OPTIONS).

Options:
    -n <64>                 grid points per direction
    -peclet <0.5>           cell Peclet number of the convection
    -pc_type <jacobi>       preconditioner of every solve
    -rtol <1e-8>            relative tolerance
    -types <list>           comma-separated KSP types to compare with bcgs (default: every cakrylov type)
    -margin <1.2>           largest allowed ratio of iterations to bcgs's
"""
import sys

import petsc4py

petsc4py.init(sys.argv)
from petsc4py import PETSc  # noqa: E402  (after init: -dll_append must reach PetscInitialize)

CAKRYLOV_TYPES = ["bcgsm", "pipebcgsm", "rbicgstab", "cabicgstab"]


def convection_diffusion(n, peclet):
    """The (2-D, 5-point, upwind) convection-diffusion matrix, scaled by h^2, rows distributed by PETSc."""
    N = n * n
    A = PETSc.Mat().createAIJ([N, N], nnz=5, comm=PETSc.COMM_WORLD)
    start, end = A.getOwnershipRange()
    for row in range(start, end):
        i, j = row % n, row // n
        A.setValue(row, row, 4.0 + 2.0 * peclet)  # diffusion 4, upwind convection in x and y: +peclet each
        if i > 0:
            A.setValue(row, row - 1, -1.0 - peclet)
        if i < n - 1:
            A.setValue(row, row + 1, -1.0)
        if j > 0:
            A.setValue(row, row - n, -1.0 - peclet)
        if j < n - 1:
            A.setValue(row, row + n, -1.0)
    A.assemble()
    return A


def reason_name(reason):
    """PETSc's name of a KSPConvergedReason (CONVERGED_RTOL, DIVERGED_ITS, ...)."""
    names = vars(PETSc.KSP.ConvergedReason)
    return next((k for k, v in names.items() if v == reason and k.startswith(("CONVERGED_", "DIVERGED_"))), str(reason))


def solve(A, b, ksp_type, pc_type, rtol):
    """Solves A x = b with ksp_type (options prefix '<type>_') from a zero guess; returns the KSP and x."""
    ksp = PETSc.KSP().create(comm=A.getComm())
    ksp.setOperators(A)
    ksp.setType(ksp_type)  # an unknown type (the plugin not loaded) is a PETSc error here
    ksp.getPC().setType(pc_type)
    ksp.setPCSide(PETSc.PC.Side.RIGHT)
    ksp.setNormType(PETSc.KSP.NormType.UNPRECONDITIONED)
    ksp.setTolerances(rtol=rtol, atol=0.0, max_it=10000)
    ksp.setOptionsPrefix(ksp_type + "_")
    ksp.setFromOptions()
    x = b.duplicate()
    x.set(0.0)
    ksp.solve(b, x)
    return ksp, x


def true_residual_norm(A, b, x):
    r = b.duplicate()
    A.mult(x, r)
    r.aypx(-1.0, b)  # r = b - A x
    return r.norm()


def main():
    opts = PETSc.Options()
    n = opts.getInt("n", 64)
    peclet = opts.getReal("peclet", 0.5)
    pc_type = opts.getString("pc_type", "jacobi")
    rtol = opts.getReal("rtol", 1e-8)
    margin = opts.getReal("margin", 1.2)
    types = [t for t in opts.getString("types", ",".join(CAKRYLOV_TYPES)).split(",") if t]

    A = convection_diffusion(n, peclet)
    b = A.createVecLeft()
    b.set(1.0)
    bnorm = b.norm()

    ref, _ = solve(A, b, "bcgs", pc_type, rtol)
    its_ref = ref.getIterationNumber()
    PETSc.Sys.Print(
        "convection-diffusion %d x %d, Peclet %g, PC %s, rtol %g, %d ranks: reference bcgs %s"
        % (n, n, peclet, pc_type, rtol, A.getComm().getSize(), reason_name(ref.getConvergedReason()))
    )
    for ksp_type in types:
        ksp, x = solve(A, b, ksp_type, pc_type, rtol)
        converged = ksp.getConvergedReason() > 0
        accurate = true_residual_norm(A, b, x) <= 1.01 * rtol * bnorm
        within = ksp.getIterationNumber() <= margin * its_ref
        PETSc.Sys.Print(
            "%s: %s; true residual <= rtol ||b||: %s; iterations <= %g x bcgs's: %s"
            % (ksp.getType(), reason_name(ksp.getConvergedReason()), "yes" if accurate else "NO", margin, "yes" if within else "NO")
        )
        if not (converged and accurate and within):
            PETSc.Sys.Print(
                "  %s: %d iterations, bcgs %d; ||b - A x|| / ||b|| = %g"
                % (ksp_type, ksp.getIterationNumber(), its_ref, true_residual_norm(A, b, x) / bnorm)
            )
        ksp.destroy()
        x.destroy()
    ref.destroy()
    b.destroy()
    A.destroy()


if __name__ == "__main__":
    main()
