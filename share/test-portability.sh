#!/usr/bin/env bash
# The regression suite under the BLAS kernels of other processors. OpenBLAS picks its ddot, dnrm2, ... kernels by
# CPU when it loads, so the same binaries round differently on another machine; OPENBLAS_CORETYPE forces a kernel
# set and reproduces that machine here. `make test-portability` calls this.
#
#   share/test-portability.sh "<command that runs the suite>" <log folder> <a PETSc program> <core type>...
#
# One summary line per kernel set (with the kernels OpenBLAS reports it loaded, read off the PETSc program, so a
# core type OpenBLAS does not know, or a PETSc without OpenBLAS, is not mistaken for a pass). Exits non-zero if a
# suite fails or a kernel set could not be forced.
set -u
suite=$1 logdir=$2 probe=$3
shift 3
mkdir -p "$logdir"
status=0
for core in "$@"; do
  log=$logdir/$core.log
  loaded=$(OPENBLAS_CORETYPE=$core OPENBLAS_VERBOSE=2 "$probe" -m 2 -n 2 2>&1 | sed -n 's/^Core: *//p' | head -n 1)
  start=$SECONDS
  OPENBLAS_CORETYPE=$core $suite > "$log" 2>&1
  rc=$?
  summary=$(grep -E '^tests: ' "$log" | tail -n 1)
  printf 'OPENBLAS_CORETYPE=%-12s kernels loaded: %-12s %s (%d s, log %s)\n' "$core" "${loaded:-unknown}" "${summary:-no summary}" $((SECONDS - start)) "$log"
  if [ "$rc" -ne 0 ]; then
    status=1
    grep -E '^ *not ok' "$log" | sort -u | sed 's/^/    /'
  fi
  if [ "$loaded" != "$core" ]; then
    status=1
    echo "    OpenBLAS did not load the $core kernels: is the BLAS of PETSc OpenBLAS (Debian: libopenblas0)?"
  fi
done
exit $status
