#!/usr/bin/env bash
# The demo of `make demo`: PETSc's own, unmodified ksp tutorial ex2 (2D Laplacian) solved with
# PETSc's bcgs and with each cakrylov type loaded at run time through -dll_append.
set -eu
ex2=$1 lib=$2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run() { mpiexec --oversubscribe -n 2 "$ex2" -m 64 -n 64 -pc_type jacobi -ksp_rtol 1e-8 -ksp_converged_reason "$@"; }
echo "== PETSc bcgs (no plugin)"
run -ksp_type bcgs
echo "== cakrylov cabicgstab, s = 4 (one global reduction per outer iteration), via -dll_append"
run -dll_append "$lib" -ksp_type cabicgstab -ksp_cabicgstab_s 4 -ksp_view | grep -E 'type: cabicgstab|s = |statistics|Linear solve|Norm of error'
