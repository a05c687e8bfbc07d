#!/usr/bin/env bash
# The bottom-solver study (the shape of Williams et al. 2014, Figs. 2-5): the 3D Helmholtz tutorial (tutorials/ex1.c,
# miniGMG's problem) with PCMG on 2 ranks, bcgs against cabicgstab (s = 4; s = 8 with the Newton basis; s = 10 with the Chebyshev basis) as the bottom solver, under the latency simulator
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
results=${BENCH_RESULTS:-$here/results} # make bench QUICK=1 writes elsewhere
mkdir -p "$results"
csv=$results/bottom.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The bottom solvers compared (BOTTOM_VARIANTS selects, in this order; bcgs first): bcgs; cabicgstab (s = 4, monomial basis,
# telescoping: the library's defaults); cabicgstab-newton-s8: s = 8, Newton basis (shifts from the library's spectrum estimate,
# made once per operator: its reductions are counted in the bottom solves), telescoping off (fewest reductions of the
# Newton/Chebyshev, s = 8/12, telescoping on/off variants tried on this problem); cabicgstab-cheb-s10: s = 10, Chebyshev basis
# on the interval [0, 2], which contains the spectrum of the Jacobi-preconditioned operator by Gershgorin's theorem (the
# operator is diagonally dominant with a positive diagonal), so no estimate; telescoping off: a bottom solve of at most 10
# iterations issues one reduction.
variants=${BOTTOM_VARIANTS:-bcgs cabicgstab cabicgstab-newton-s8 cabicgstab-cheb-s10}
variant_args() {
  case $1 in
    cabicgstab-newton-s8) echo "-bottom cabicgstab -mg_coarse_ksp_cabicgstab_basis newton -mg_coarse_ksp_cabicgstab_s 8 -mg_coarse_ksp_cabicgstab_telescope 0" ;;
    cabicgstab-cheb-s10) echo "-bottom cabicgstab -mg_coarse_ksp_cabicgstab_basis chebyshev -mg_coarse_ksp_cabicgstab_spectrum 0,2 -mg_coarse_ksp_cabicgstab_s 10 -mg_coarse_ksp_cabicgstab_telescope 0" ;;
    *) echo "-bottom $1" ;;
  esac
}

run() { # nodes (0: no simulation), bottom variant -> a CSV row: nodes,bottom,vcycles,its,reductions,bottom_s,pcmg_s
  local nodes=$1 bottom=$2 model=krasnopolsky
  [ "$nodes" -gt 0 ] || model=none
  CAKPMPI_MODEL=$model CAKPMPI_NODES=$((nodes > 0 ? nodes : 1)) CAKPMPI_OUTPUT=$tmp/stats \
    mpiexec --oversubscribe -n 2 -x LD_PRELOAD="$lib" -x CAKPMPI_MODEL -x CAKPMPI_NODES -x CAKPMPI_OUTPUT \
    "$ex1" -problem helmholtz "${targs[@]}" $(variant_args "$bottom") -bottom_report > "$tmp/out"
  awk -v p="$nodes" -v b="$bottom" '
    /^V-cycles:/                          { v = $2 }
    /bottom iterations:/                  { its = $3 }
    /global reductions in bottom solves:/ { red = $6 }
    /time in bottom solves:/              { tb = $5; tmg = $8 }
    END { if (v == "" || tb == "") exit 1; printf "%s,%s,%s,%s,%s,%s,%s\n", p, b, v, its, red, tb, tmg }' "$tmp/out"
}

median_row() { # the R rows of one point -> one row with the median of each time (the counts are the same in every run)
  local rows median6 median7
  rows=$(cat)
  median6=$(cut -d, -f6 <<< "$rows" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
  median7=$(cut -d, -f7 <<< "$rows" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
  echo "$(head -n 1 <<< "$rows" | cut -d, -f1-5),$median6,$median7"
}

runs=${BOTTOM_RUNS:-3} # repetitions of every point; the medians of the times are kept
echo "nodes,bottom,vcycles,bottom_iterations,bottom_reductions,bottom_s,pcmg_s" > "$csv"
for nodes in 0 64 256 1024 4096 16384 32768; do
  for bottom in $variants; do
    for ((i = 0; i < runs; i++)); do run "$nodes" "$bottom"; done | median_row >> "$csv"
  done
done

{
  echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'); nproc $(nproc); command: $0 $lib $ex1 ${targs[*]}"
  echo "# $(sed -n 's/, coarse solve .*//p' "$tmp/out" | head -n 1); 2 ranks"
  echo "# p > 0: global reductions delayed by Krasnopolsky's T_G(p, l) (simulated, a planning model); p = 0: this machine; times: medians of $runs runs"
  awk -F, 'NR > 1 { key = $1; row[key, $2] = $0; if (!(key in seen)) { order[++n] = key; seen[key] = 1 }; if (!($2 in vseen)) { v[++nv] = $2; vseen[$2] = 1 } }
    END {
      split("bcgs cabicg newton8 cheb10 v5 v6", short, " ")
      for (j = 1; j <= nv; j++) { if (v[j] == "bcgs") short[j] = "bcgs"; printf "# %s: %s\n", short[j], v[j] }
      w1 = 9 * nv; w2 = 12 + 20 * (nv - 1)
      printf "%6s | %-*s | %-*s | %-*s | %-*s\n", "p", w1 - 1, "V-cycles", w1 - 1, "bottom reductions", w2 - 1, "bottom solves s (ratio)", w2 - 1, "whole PCMG s (ratio)"
      printf "%6s |", ""
      for (g = 1; g <= 2; g++) { for (j = 1; j <= nv; j++) printf " %8s", short[j]; printf " |" }
      for (g = 1; g <= 2; g++) { for (j = 1; j <= nv; j++) printf " %10s%s", short[j], (j > 1 ? "          " : ""); printf " |" }
      printf "\n"
      for (i = 1; i <= n; i++) {
        k = order[i]; split(row[k, v[1]], b, ",")
        printf "%6s |", k == 0 ? "here" : k
        for (j = 1; j <= nv; j++) { split(row[k, v[j]], x, ","); printf " %8s", x[3] }
        printf " |"; for (j = 1; j <= nv; j++) { split(row[k, v[j]], x, ","); printf " %8s", x[5] }
        printf " |"; for (j = 1; j <= nv; j++) { split(row[k, v[j]], x, ","); printf " %10.4g", x[6]; if (j > 1) printf " (%6.2fx)", b[6] / x[6] }
        printf " |"; for (j = 1; j <= nv; j++) { split(row[k, v[j]], x, ","); printf " %10.4g", x[7]; if (j > 1) printf " (%6.2fx)", b[7] / x[7] }
        printf " |\n"
      }
    }' "$csv"
  echo "ratio: bcgs time / that variant's time (> 1: faster than bcgs). Bottom iterations in the unsimulated run: $(awk -F, 'NR > 1 && $1 == 0 { printf "%s%s %s", sep, $2, $4; sep = ", " }' "$csv")."
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
variants = list(dict.fromkeys(r["bottom"] for r in rows))
for bottom, style in zip(variants, ("o-", "s-", "D-", "^-", "v-")):
    rr = [r for r in rows if r["bottom"] == bottom]
    p = [int(r["nodes"]) for r in rr]
    ax.plot(p, [float(r["bottom_s"]) for r in rr], style, label=f"{bottom}: bottom solves")
    ax.plot(p, [float(r["pcmg_s"]) for r in rr], style, alpha=0.45, label=f"{bottom}: whole PCMG solve")
ax.set_xscale("log", base=2)
ax.set_yscale("log")
ax.set_xlabel("simulated nodes p (Krasnopolsky's reduction model)")
ax.set_ylabel("time [s], 2 real ranks")
ax.set_title("Helmholtz multigrid, bottom solver bcgs vs cabicgstab variants (simulated)", fontsize=10)
ax.grid(True, which="both", alpha=0.3)
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=120)
EOF
  echo "plot: $results/bottom.png"
fi
