#!/usr/bin/env bash
# A/B of two builds of the library on one command, on one machine in one session: the command run RUNS times for each
# build, alternating (A B A B ...), with the directory of that build's libcakrylov.so first on LD_LIBRARY_PATH (the
# programs' RUNPATH gives way to it; mpiexec's local ranks inherit it), and the number PATTERN's first group captures
# in each run's output (the first match); the medians, the spreads (max/min - 1) and the ratio A/B of the medians.
#   share/bench/ab.sh LIB_A LIB_B PATTERN RUNS COMMAND [ARGS...]
# e.g. the bottom solves' time of the multigrid for 16 right-hand sides at a simulated p = 4096 (make bench-mrhs-mg's
# block-cab variant), the commit before a change against the working tree:
#   git worktree add /tmp/base HEAD~1 && make -C /tmp/base && cp lib/libcakrylov.so /tmp/new/
#   share/bench/ab.sh /tmp/base/lib /tmp/new 'time in bottom solves: ([0-9.e+-]+) s' 7 env CAKPMPI_MODEL=krasnopolsky \
#     CAKPMPI_NODES=4096 CAKPMPI_HALO=krasnopolsky mpiexec -n 2 -x CAKPMPI_MODEL -x CAKPMPI_NODES -x CAKPMPI_HALO \
#     -x LD_PRELOAD=build/bench/libcakpmpi.so build/tutorials/ex3 -dim 3 -n 33 -nrhs 16 -compare 0 -pc_type mg \
#     -pc_mg_levels 4 -pc_mg_galerkin pmat -ksp_type bcgsm -pc_mg_bottom_ksp_type cabicgstab -pc_mg_bottom_report
set -eu -o pipefail
[ $# -ge 5 ] || { echo "usage: $0 LIB_A LIB_B PATTERN RUNS COMMAND [ARGS...]" >&2; exit 2; }
liba=$1 libb=$2 pattern=$3 runs=$4
shift 4
for d in "$liba" "$libb"; do [ -e "$d/libcakrylov.so" ] || { echo "$0: no libcakrylov.so in $d" >&2; exit 1; }; done
a=() b=()
measure() {
  local v
  v=$(LD_LIBRARY_PATH="$1${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "${@:2}" 2>&1 | sed -n -E "s/.*$pattern.*/\\1/p" | head -1)
  [ -n "$v" ] || { echo "$0: no match of '$pattern' in the output of: ${*:2}" >&2; exit 1; }
  echo "$v"
}
echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); A = $liba, B = $libb; $runs runs each, alternating"
echo "\$ $*"
for r in $(seq "$runs"); do
  a+=("$(measure "$liba" "$@")")
  b+=("$(measure "$libb" "$@")")
  echo "run $r: A ${a[-1]}  B ${b[-1]}"
done
python3 - "${a[*]}" "${b[*]}" << 'EOF'
import statistics, sys
a = [float(x) for x in sys.argv[1].split()]
b = [float(x) for x in sys.argv[2].split()]
ma, mb = statistics.median(a), statistics.median(b)
print("A median %.6g (spread %.0f%%), B median %.6g (spread %.0f%%), A/B %.3f" % (ma, 100 * (max(a) / min(a) - 1), mb, 100 * (max(b) / min(b) - 1), ma / mb))
EOF
