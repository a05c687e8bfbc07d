#!/bin/bash
# Runs the per-iteration benchmark of the BiCGStab variants (share/bench/merged.c: PETSc's bcgs, ibcgs, pipebcgs; cakrylov's
# bcgsm, pipebcgsm, rbicgstab, cabicgstab s = 4 and 8; hypre's ParCSR BiCGSTAB) on 1 and 2 MPI ranks with PC none and jacobi,
# and, when the cakpmpi library is given, counts every method's global reductions per iteration with it.
#   share/bench/merged.sh PROGRAM [options passed to every timed run, e.g. -n 200 -its 20 -runs 5]
# Environment:
#   MERGED_PCS="none jacobi"   preconditioners (also synthetic:ALPHA, the identity at ALPHA vector reads+writes per application)
#   MERGED_RANKS="1 2"         MPI rank counts
#   CAKPMPI_LIB=path           build/bench/libcakpmpi.so (make pmpi): count reductions per iteration on 2 ranks, PC jacobi, n = 32:
#                              the difference of a 64- and a 24-iteration solve, only the timed solves counted
#                              (CAKPMPI_PAUSED=1 and merged.c's MPI_Pcontrol brackets), so set-up and per-solve work cancel
# Writes share/bench/results/merged.txt (all output), merged.csv (one row per rank count, PC and method), merged-reductions.csv,
# and merged.png when a python3 with matplotlib is there (share/bench/plot.py merged).
set -eu -o pipefail

. "$(dirname "$0")/common.sh"
need_program "PROGRAM [benchmark options]   (PROGRAM: the built share/bench/merged.c, e.g. build/bench/merged)" "$@"
prog=$1
shift
outputs merged
redcsv=$results/merged-reductions.csv
pcs=${MERGED_PCS:-none jacobi}
ranklist=${MERGED_RANKS:-1 2}
methods="bcgs ibcgs bcgsm pipebcgs pipebcgsm rbicgstab cabicgstab4 cabicgstab8 hypre"

unset CAKPMPI_MODEL CAKPMPI_PROGRESS CAKPMPI_NODES CAKPMPI_PAUSED CAKPMPI_OUTPUT
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rm -f "$csv"
{
  echo "# $(date '+%Y-%m-%d %H:%M:%S %Z'); $(machine); load average $(cut -d' ' -f1-3 /proc/loadavg); command: $(rel "$0") $(rel "$prog") $*"
  echo
  for ranks in $ranklist; do
    for pc in $pcs; do
      pcopts=(-pc_type "${pc%%:*}")
      if [ "${pc#*:}" != "$pc" ]; then pcopts+=(-pc_synthetic_complexity "${pc#*:}"); fi
      echo "\$ mpiexec -n $ranks --bind-to core $(rel "$prog") ${pcopts[*]} -csv $(rel "$csv") $*"
      mpiexec -n "$ranks" --bind-to core "$prog" "${pcopts[@]}" -csv "$csv" "$@" 2>&1
    done
  done
} | tee "$out" || { echo "$0: a run failed (output so far in $out)" >&2; exit 1; }

if [ -n "${CAKPMPI_LIB:-}" ]; then
  lib=$(cd "$(dirname "$CAKPMPI_LIB")" && pwd)/$(basename "$CAKPMPI_LIB")
  count() { # method its -> "reductions bytes" on rank 0 within the timed solves
    rm -f "$tmp/cak"
    CAKPMPI_PAUSED=1 CAKPMPI_OUTPUT=$tmp/cak mpiexec -n 2 --bind-to core -x LD_PRELOAD="$lib" -x CAKPMPI_PAUSED -x CAKPMPI_OUTPUT \
      "$prog" -n 32 -pc_type jacobi -its "$2" -runs 1 -stream false -methods "$1" > "$tmp/out" 2>&1 ||
      { echo "$0: count run failed: $1 $2" >&2; cat "$tmp/out" >&2; return 1; }
    sed -n 's/^cakpmpi rank=0 .* allreduce=\([^ ]*\) allreduce_bytes=\([^ ]*\) iallreduce=\([^ ]*\) iallreduce_bytes=\([^ ]*\) .*/\1 \2 \3 \4/p' "$tmp/cak"
  }
  echo "method,allreduce_per_it,iallreduce_per_it,reductions_per_it,bytes_per_reduction" > "$redcsv"
  for m in $methods; do
    a=$(count "$m" 24) && b=$(count "$m" 64) || exit 1
    echo "$m $a $b" | awk '{ n = 40; ar = ($6 - $2) / n; ir = ($8 - $4) / n; red = ($6 - $2) + ($8 - $4);
      printf "%s,%.3f,%.3f,%.3f,%.1f\n", $1, ar, ir, ar + ir, red ? (($7 - $3) + ($9 - $5)) / red : 0 }' >> "$redcsv"
  done
  {
    echo
    echo "Global reductions per iteration, counted by cakpmpi (share/bench/cakpmpi/cakpmpi.c) on rank 0 of 2, PC jacobi, n = 32: solves"
    echo "of 64 minus solves of 24 iterations, only the timed solves counted (blocking MPI_Allreduce and non-blocking MPI_Iallreduce)"
    printf "%-12s %10s %11s %11s %10s\n" method allreduce iallreduce reductions "bytes/red"
    awk -F, 'NR > 1 { printf "%-12s %10.3f %11.3f %11.3f %10.1f\n", $1, $2, $3, $4, $5 }' "$redcsv"
  } | tee -a "$out"
fi

plot merged "$csv" "$png" ${CAKPMPI_LIB:+"$redcsv"}
echo "results: $(rel "$out"), $(rel "$csv")${CAKPMPI_LIB:+, $(rel "$redcsv")}"
