#!/bin/bash
# Runs the overlap micro-benchmark (share/bench/overlap.c, Krasnopolsky's Appendix C) on 2 and 4 MPI ranks.
#   share/bench/overlap.sh PROGRAM [options passed to every run, e.g. -reps 100 -work_us 20]
# Writes share/bench/results/overlap.txt (the tables, with date, machine and MPI), overlap.csv (every number), and,
# when python3 and matplotlib are there, overlap.png (gamma against N_it per message size; share/bench/plot_overlap.py).
set -o pipefail

if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 PROGRAM [benchmark options]   (PROGRAM: the built share/bench/overlap.c, e.g. build/bench/overlap)" >&2
  exit 1
fi
prog=$1
shift

here=$(cd "$(dirname "$0")" && pwd)
results=${BENCH_RESULTS:-$here/results} # make bench QUICK=1 writes elsewhere
mkdir -p "$results"
out=$results/overlap.txt
csv=$results/overlap.csv
png=$results/overlap.png

# OpenMPI refuses to run as root without these
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

cores=$(nproc)
cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
mpi=$(mpiexec --version 2>&1 | head -n 1)
{
  echo "# $(date '+%Y-%m-%d %H:%M:%S %Z'); host $(hostname); nproc $cores; CPU ${cpu:-unknown}; MPI: ${mpi:-unknown}; command: $0 $prog $*"
  append=
  for ranks in 2 4; do
    # OpenMPI: pin when every rank has a core; beyond, allow oversubscription and let the OS place them
    flags=()
    if echo "$mpi" | grep -q -E 'Open MPI|OpenRTE'; then
      if [ "$ranks" -le "$cores" ]; then flags=(--bind-to core); else flags=(--oversubscribe --bind-to none); fi
    fi
    echo
    if [ "$ranks" -gt "$cores" ]; then
      echo "# NOTE: $ranks ranks on $cores cores are oversubscribed: a rank often waits for the OS to schedule another, so these"
      echo "# numbers say more about the scheduler than about the MPI library; run on a machine with >= $ranks cores for real ones."
    fi
    echo "\$ mpiexec -n $ranks ${flags[*]} $prog -csv $csv $append $*"
    mpiexec -n "$ranks" "${flags[@]}" "$prog" -csv "$csv" $append "$@" 2>&1 || exit 1
    append=-csv_append
  done
} | tee "$out"
status=$?
if [ $status -ne 0 ]; then
  echo "$0: a run failed (output so far in $out)" >&2
  exit $status
fi
py=
for p in python3 /usr/bin/python3; do # the first python3 on PATH may be another one than the system's (pyenv)
  if command -v "$p" > /dev/null && "$p" -c 'import matplotlib' 2> /dev/null; then py=$p; break; fi
done
if [ -n "$py" ]; then
  "$py" "$here/plot_overlap.py" "$csv" "$png" > /dev/null && echo "plot: $png"
else
  echo "(no python3 with matplotlib: no plot; the numbers are in $csv)"
fi
echo "results: $out, $csv"
