#!/bin/bash
# make bench: every benchmark of share/bench, one after the other (never two at once: they would time each other), then a
# dated report with the tables and the issue's targets side by side (share/bench/report.py).
#   share/bench/bench.sh BUILDDIR LIBCAKRYLOV       (make bench builds what it needs first)
# Environment: QUICK=1 or BENCH_QUICK=1 (make bench QUICK=1): smaller problems, fewer rounds and node counts, a few minutes; its
# results go to share/bench/results/quick/ so that they do not replace the full run's. BENCH_RESULTS=dir overrides where results go.
#   1. bench-merged    share/bench/merged.sh: per-iteration time, STREAM fraction, reductions per iteration (cakpmpi)
#   2. bench-overlap   share/bench/overlap.sh: MPI_Iallreduce overlap micro-benchmark
#   3. bench-bottom    share/bench/bottom.sh: Helmholtz multigrid, bcgs vs cabicgstab bottom solver, simulated p = 64..32768
#   4. pmpi-demo       share/bench/pmpi-demo.sh: PETSc's ex2 under cakpmpi
#   5. method map      share/bench/methodmap.sh: relative performance against the simulated node count, with/without overlap
#   6. bench-mrhs      share/bench/mrhs.sh: multiple right-hand sides, KSPMatSolve() against separate solves (about 15 min)
#   7. bench-mg        share/bench/mg.sh: the tutorial's multigrid against hypre PFMG/BoomerAMG and GAMG (about 10 min)
#   8. bench-auto      share/bench/auto.sh: autobcgs against every fixed candidate, method map and bottom study (about 10 min)
#   9. bench-haloshare share/bench/haloshare.sh: what the halo messages cost the bottom solves (a few minutes)
#  10. bench-runsim    share/bench/runsim.sh: make run's job repeated, medians (a few minutes)
# Writes the usual per-benchmark files (txt, csv, png) and bench-YYYY-MM-DD-HHMM.{md,log} in the results folder.
set -eu -o pipefail
if [ $# -lt 2 ] || [ ! -d "$1" ] || [ ! -f "$2" ]; then
  echo "usage: $0 BUILDDIR LIBCAKRYLOV.so   (run it through make bench)" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
cak=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
. "$(dirname "$0")/common.sh"
export BENCH_RESULTS=$results QUICK=${quick:-0} # every step writes there, in the same mode
stamp=$(date '+%Y-%m-%d-%H%M')
log=$results/bench-$stamp.log
pmpi=$build/bench/libcakpmpi.so

if [ -n "$quick" ]; then
  merged_args=(-n 100 -its 8 -runs 3)
  overlap_args=()
  demo_args=(-nodes "64 1024" -reps 2)
  map_args=(-n 32 -its 32 -runs 3 -nodes "1 16 256 4096" -pcs jacobi)
else
  merged_args=(-n 200 -its 16 -runs 5)
  overlap_args=()
  demo_args=()
  map_args=(-n 32 -its 48 -runs 9 -nodes "1 4 16 64 256 1024 4096 16384" -pcs "jacobi none")
fi

cmds=()
step() { # name command... : runs it, logs it, records the command and its time
  local name=$1 t0 t1 rc
  shift
  cmds+=("$(printf '%q ' "$@" | sed "s|$root/||g")") # paths relative to the repository
  echo "== [$name] ${cmds[${#cmds[@]}-1]}" | tee -a "$log"
  t0=$(date +%s)
  rc=0
  "$@" 2>&1 | tee -a "$log" || rc=$?
  t1=$(date +%s)
  echo "== [$name] exit $rc, $((t1 - t0)) s" | tee -a "$log"
  if [ $rc -ne 0 ]; then failed="$failed $name"; fi
}

failed=
echo "# make bench${quick:+ QUICK=1}: $(date '+%Y-%m-%d %H:%M:%S %Z'); results in $(rel "$results")" | tee "$log"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg) (other jobs on this machine disturb the timings)" | tee -a "$log"
T0=$(date +%s)
step merged env CAKPMPI_LIB="$pmpi" "$here/merged.sh" "$build/bench/merged" "${merged_args[@]}"
step overlap "$here/overlap.sh" "$build/bench/overlap" "${overlap_args[@]}"
step bottom "$here/bottom.sh" "$pmpi" "$build/tutorials/ex1"
step sstudy "$here/sstudy.sh" "$build/bench/sstudy"
step pmpi-demo "$here/pmpi-demo.sh" "$pmpi" "$build/petsc-examples/ex2" "$cak" "${demo_args[@]}"
step methodmap "$here/methodmap.sh" "$pmpi" "$build/bench/merged" "${map_args[@]}"
step mrhs "$here/mrhs.sh" "$build/bench/mrhs" "$pmpi"
step mg "$here/mg.sh" "$pmpi" "$build/tutorials/ex1"
step auto "$here/auto.sh" "$pmpi" "$build/bench/auto" "$build/tutorials/ex1"
step haloshare "$here/haloshare.sh" "$pmpi" "$build/tutorials/ex1"
step runsim "$here/runsim.sh" "$build/tutorials/ex1" "$pmpi"
T1=$(date +%s)

report=$results/bench-$stamp.md
{
  for c in "${cmds[@]}"; do echo "$c"; done
} > "$results/.commands"
python3 "$here/report.py" "$results" "$report" "make bench${quick:+ QUICK=1}" "$((T1 - T0))" "$results/.commands"
echo "report: $(rel "$report")" | tee -a "$log"
rm -f "$results/.commands"
echo "# make bench: $((T1 - T0)) s in all; log $(rel "$log")" | tee -a "$log"
if [ -n "$failed" ]; then
  echo "# FAILED:$failed" | tee -a "$log"
  exit 1
fi
