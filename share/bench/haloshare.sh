#!/usr/bin/env bash
# What the halo messages cost the bottom solves (issue 24, item 4): the bottom study's problem (share/bench/bottom.sh: 3D
# Helmholtz 32^3, PCMG 3 levels, coarse grid 8^3, 2 ranks) at simulated p nodes, each bottom solver run R times with the
# global reductions and the halo receives delayed (Krasnopolsky's T_G and T_L) alternating with the reductions only;
# medians and spreads (max/min - 1) of the bottom-solve and whole-PCMG times, and the halo's share of the bottom time,
# (median with halo - median without) / median with halo.
#   share/bench/haloshare.sh PMPI_LIB EX1 [-nodes "4096 16384"] [-runs 9] [-bottoms "bcgs cabicgstab"]
# Writes share/bench/results/haloshare.txt and haloshare.csv. A planning model (cakpmpi), not a large machine.
set -eu -o pipefail
lib=$1 ex1=$2
shift 2
. "$(dirname "$0")/common.sh"
need_program "PMPI_LIB EX1 [-nodes LIST] [-runs R] [-bottoms LIST]" "$ex1"
nodes="4096 16384" runs=9 bottoms="bcgs cabicgstab"
[ -n "$quick" ] && nodes="4096" runs=3
options "nodes runs bottoms" "$@"
outputs haloshare
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
targs=(-problem helmholtz -dim 3 -n 32 -coarse_n 8)

run() { # nodes, halo model (krasnopolsky or none), bottom -> nodes,halo,bottom,bottom_halo,bottom_s,pcmg_s
  local -a env=()
  [ "$2" = none ] || env=(-x CAKPMPI_HALO="$2")
  mpiexec --oversubscribe -n 2 -x LD_PRELOAD="$lib" -x CAKPMPI_MODEL=krasnopolsky -x CAKPMPI_NODES="$1" -x CAKPMPI_OUTPUT=/dev/null "${env[@]}" \
    "$ex1" "${targs[@]}" -bottom "$3" -bottom_report > "$tmp/out"
  awk -v p="$1" -v h="$2" -v b="$3" -f "$here/report.awk" -f <(echo '
    END { if (tb == "" || halo == "") exit 1; printf "%s,%s,%s,%s,%s,%s\n", p, h, b, halo, tb, tmg }') "$tmp/out"
}

echo "nodes,halo,bottom,bottom_halo,bottom_s,pcmg_s" > "$csv"
for p in $nodes; do
  for ((i = 0; i < runs; i++)); do
    for b in $bottoms; do
      for h in krasnopolsky none; do run "$p" "$h" "$b" >> "$csv"; done
    done
  done
done
{
  echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'); $(machine); load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# command: $(rel "$0") $(rel "$lib") $(rel "$ex1") -nodes \"$nodes\" -runs $runs -bottoms \"$bottoms\" (make bench-haloshare); problem: ${targs[*]}"
  echo "# simulated (a planning model): global reductions delayed by Krasnopolsky's T_G(p, l); red.+halo: every halo receive also by his T_L(l)"
  python3 - "$csv" << 'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def ms(xs):
    return statistics.median(xs), 100 * (max(xs) / min(xs) - 1)
print("%6s %-11s %10s %22s %22s %22s %22s %14s %14s %18s" % ("p", "bottom", "halo msgs", "bottom s red.+halo", "bottom s red. only", "PCMG s red.+halo", "PCMG s red. only", "halo % bottom", "halo % PCMG", "halo % bottom min"))
for p in dict.fromkeys(r["nodes"] for r in rows):
    for b in dict.fromkeys(r["bottom"] for r in rows):
        sel = lambda h, f: [float(r[f]) for r in rows if r["nodes"] == p and r["bottom"] == b and r["halo"] == h]
        bh, bn, mh, mn = ms(sel("krasnopolsky", "bottom_s")), ms(sel("none", "bottom_s")), ms(sel("krasnopolsky", "pcmg_s")), ms(sel("none", "pcmg_s"))
        nh = sel("krasnopolsky", "bottom_halo")[0]
        lo = min(sel("krasnopolsky", "bottom_s")), min(sel("none", "bottom_s"))
        print("%6s %-11s %10.0f %13.4g (%3.0f %%) %13.4g (%3.0f %%) %13.4g (%3.0f %%) %13.4g (%3.0f %%) %12.1f %% %12.1f %% %16.1f %%" % (
            p, b, nh, bh[0], bh[1], bn[0], bn[1], mh[0], mh[1], mn[0], mn[1], 100 * (bh[0] - bn[0]) / bh[0], 100 * (mh[0] - mn[0]) / mh[0], 100 * (lo[0] - lo[1]) / lo[0]))
print("(medians of the runs, spread max/min - 1 in brackets; halo %: (median red.+halo - median red. only) / median red.+halo;")
print(" halo % bottom min: the same from the least times (bottom.sh's statistic: other jobs on the machine only add time);")
print(" halo msgs: halo messages received per rank in all bottom solves of a run, from the bottom-solve report)")
PY
} | tee "$out"
