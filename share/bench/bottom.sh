#!/usr/bin/env bash
# The bottom-solver study (the shape of Williams et al. 2014, Figs. 2-5): the 3D Helmholtz tutorial (tutorials/ex1.c,
# miniGMG's problem) with PCMG on 2 ranks, bcgs against cabicgstab as the bottom solver, under the latency simulator
# (share/bench/pmpi/cakpmpi.c, Krasnopolsky's model of a global reduction on p nodes) for p = 64 ... 32768, and
# without it. From the bottom-solve report of each run: V-cycles, bottom iterations, bottom reductions, the time in the
# bottom solves and in the whole PCMG (the solve: KSPRICHARDSON runs all its V-cycles inside PCMG).
#   share/bench/bottom.sh PMPI_LIB EX1 [tutorial options, default: -dim 3 -n 32 -coarse_n 8]
# Writes share/bench/results/bottom.txt and bottom.csv, and bottom.png when matplotlib is there.
# The simulator delays the global reductions only (nothing else of a large machine): a planning instrument.
set -eu
lib=$1 ex1=$2
shift 2
targs=("$@")
[ ${#targs[@]} -gt 0 ] || targs=(-dim 3 -n 32 -coarse_n 8)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
here=$(cd "$(dirname "$0")" && pwd)
results=$here/results
mkdir -p "$results"
csv=$results/bottom.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() { # nodes (0: no simulation), bottom KSP -> a CSV row: nodes,bottom,vcycles,its,reductions,bottom_s,pcmg_s
  local nodes=$1 bottom=$2 model=krasnopolsky
  [ "$nodes" -gt 0 ] || model=none
  CAKPMPI_MODEL=$model CAKPMPI_NODES=$((nodes > 0 ? nodes : 1)) CAKPMPI_OUTPUT=$tmp/stats \
    mpiexec --oversubscribe -n 2 -x LD_PRELOAD="$lib" -x CAKPMPI_MODEL -x CAKPMPI_NODES -x CAKPMPI_OUTPUT \
    "$ex1" -problem helmholtz "${targs[@]}" -bottom "$bottom" -bottom_report > "$tmp/out"
  awk -v p="$nodes" -v b="$bottom" '
    /^V-cycles:/                          { v = $2 }
    /bottom iterations:/                  { its = $3 }
    /global reductions in bottom solves:/ { red = $6 }
    /time in bottom solves:/              { tb = $5; tmg = $8 }
    END { if (v == "" || tb == "") exit 1; printf "%s,%s,%s,%s,%s,%s,%s\n", p, b, v, its, red, tb, tmg }' "$tmp/out"
}

echo "nodes,bottom,vcycles,bottom_iterations,bottom_reductions,bottom_s,pcmg_s" > "$csv"
for nodes in 0 64 256 1024 4096 16384 32768; do
  for bottom in bcgs cabicgstab; do run "$nodes" "$bottom" >> "$csv"; done
done

{
  echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'); nproc $(nproc); command: $0 $lib $ex1 ${targs[*]}"
  echo "# $(sed -n 's/, coarse solve .*//p' "$tmp/out" | head -n 1); 2 ranks"
  echo "# p > 0: global reductions delayed by Krasnopolsky's T_G(p, l) (simulated, a planning model); p = 0: this machine"
  awk -F, 'NR > 1 { key = $1; if ($2 == "bcgs") { b[key] = $0 } else { c[key] = $0 }; if (!(key in seen)) { order[++n] = key; seen[key] = 1 } }
    END {
      printf "%6s | %8s %8s | %10s %10s | %11s %11s %7s | %11s %11s %7s\n", "p", "V-cycles", "", "bottom red", "", "bottom s", "", "", "PCMG s", "", ""
      printf "%6s | %8s %8s | %10s %10s | %11s %11s %7s | %11s %11s %7s\n", "", "bcgs", "cabicg", "bcgs", "cabicg", "bcgs", "cabicg", "ratio", "bcgs", "cabicg", "ratio"
      for (i = 1; i <= n; i++) {
        split(b[order[i]], x, ","); split(c[order[i]], y, ",")
        printf "%6s | %8s %8s | %10s %10s | %11.4g %11.4g %6.2fx | %11.4g %11.4g %6.2fx\n", order[i] == 0 ? "here" : order[i], x[3], y[3], x[5], y[5], x[6], y[6], x[6] / y[6], x[7], y[7], x[7] / y[7]
      }
    }' "$csv"
  echo "ratio: bcgs time / cabicgstab time (> 1: cabicgstab faster). Bottom iterations: $(awk -F, 'NR == 2 { print $4 }' "$csv") (bcgs), $(awk -F, 'NR == 3 { print $4 }' "$csv") (cabicgstab) in every run."
} | tee "$results/bottom.txt"

py=python3
$py -c 'import matplotlib' 2>/dev/null || py=/usr/bin/python3
if $py -c 'import matplotlib' 2>/dev/null; then
  $py - "$csv" "$results/bottom.png" <<'EOF'
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
rows = [r for r in csv.DictReader(open(sys.argv[1])) if int(r["nodes"]) > 0]
fig, ax = plt.subplots(figsize=(7, 4.5))
for bottom, style in (("bcgs", "o-"), ("cabicgstab", "s-")):
    rr = [r for r in rows if r["bottom"] == bottom]
    p = [int(r["nodes"]) for r in rr]
    ax.plot(p, [float(r["bottom_s"]) for r in rr], style, label=f"{bottom}: bottom solves")
    ax.plot(p, [float(r["pcmg_s"]) for r in rr], style, alpha=0.45, label=f"{bottom}: whole PCMG solve")
ax.set_xscale("log", base=2)
ax.set_yscale("log")
ax.set_xlabel("simulated nodes p (Krasnopolsky's reduction model)")
ax.set_ylabel("time [s], 2 real ranks")
ax.set_title("Helmholtz multigrid, bottom solver bcgs vs cabicgstab (simulated)", fontsize=10)
ax.grid(True, which="both", alpha=0.3)
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=120)
EOF
  echo "plot: $results/bottom.png"
fi
