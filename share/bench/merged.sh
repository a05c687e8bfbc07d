#!/bin/bash
# Runs the merged BiCGStab benchmark (share/bench/merged.c) on 1 and 2 MPI ranks with PC none, jacobi, and the
# synthetic PC of alpha = 20 and 50 vector reads+writes (Krasnopolsky's section 4 "expensive preconditioner").
#   share/bench/merged.sh PROGRAM [options passed to every run, e.g. -n 200 -runs 5]
# The combined output goes to stdout and to share/bench/results/merged.txt.
set -o pipefail

if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 PROGRAM [benchmark options]   (PROGRAM: the built share/bench/merged.c, e.g. build/bench/merged)" >&2
  exit 1
fi
prog=$1
shift

here=$(cd "$(dirname "$0")" && pwd)
results=$here/results
mkdir -p "$results"
out=$results/merged.txt

# OpenMPI refuses to run as root without these
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
{
  echo "# $(date '+%Y-%m-%d %H:%M:%S %Z'); nproc $(nproc); CPU ${cpu:-unknown}; command: $0 $prog $*"
  echo
  for ranks in 1 2; do
    for pc in none jacobi synthetic:20 synthetic:50; do
      pcopts=(-pc_type "${pc%%:*}")
      [ "${pc#*:}" != "$pc" ] && pcopts+=(-pc_synthetic_complexity "${pc#*:}")
      echo "\$ mpiexec -n $ranks --bind-to core $prog ${pcopts[*]} $*"
      mpiexec -n "$ranks" --bind-to core "$prog" "${pcopts[@]}" "$@" 2>&1 || exit 1
    done
  done
} | tee "$out"
status=$?
[ $status -eq 0 ] || echo "$0: a run failed (output so far in $out)" >&2
exit $status
