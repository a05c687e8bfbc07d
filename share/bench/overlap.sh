#!/bin/bash
# Runs the overlap micro-benchmark (share/bench/overlap.c, Krasnopolsky's Appendix C) on 2 and 4 MPI ranks.
#   share/bench/overlap.sh PROGRAM [options passed to every run, e.g. -reps 100 -work_us 20]
# Writes share/bench/results/overlap.txt (the tables, with date, machine and MPI), overlap.csv (every number), and,
# when python3 and matplotlib are there, overlap.png (gamma against N_it per message size; share/bench/plot.py overlap).
set -eu -o pipefail

. "$(dirname "$0")/common.sh"
need_program "PROGRAM [benchmark options]   (PROGRAM: the built share/bench/overlap.c, e.g. build/bench/overlap)" "$@"
prog=$1
shift
outputs overlap

{
  echo "# $(date '+%Y-%m-%d %H:%M:%S %Z'); $(machine); command: $(rel "$0") $(rel "$prog") $*"
  append=
  for ranks in 2 4; do
    mpi_flags "$ranks"
    echo
    if [ "$ranks" -gt "$(nproc)" ]; then
      echo "# NOTE: $ranks ranks on $(nproc) cores are oversubscribed: a rank often waits for the OS to schedule another, so these"
      echo "# numbers say more about the scheduler than about the MPI library; run on a machine with >= $ranks cores for real ones."
    fi
    echo "\$ mpiexec -n $ranks ${mpiflags[*]} $(rel "$prog") -csv $(rel "$csv") $append $*"
    mpiexec -n "$ranks" "${mpiflags[@]}" "$prog" -csv "$csv" $append "$@" 2>&1
    append=-csv_append
  done
} | tee "$out" || { echo "$0: a run failed (output so far in $out)" >&2; exit 1; }
plot overlap "$csv" "$png"
echo "results: $(rel "$out"), $(rel "$csv")"
