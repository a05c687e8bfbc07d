#!/usr/bin/env bash
# The bottom-solver study (the shape of Williams et al. 2014, Figs. 2-5): the 3D Helmholtz tutorial (tutorials/ex1.c,
# miniGMG's problem) with PCMG on 2 ranks, bcgs against cabicgstab (the hook's default policy, and the library's defaults) as the bottom solver, under the latency simulator
# (share/bench/cakpmpi/cakpmpi.c, Krasnopolsky's model of a global reduction on p nodes) for p = 64 ... 32768, and
# without it. Every simulated point runs twice: with the global reductions and the halo receives delayed (Krasnopolsky's
# T_G and T_L, CAKPMPI_HALO=krasnopolsky: the default, what a message costs there), and with the reductions only (the
# study before issue 24). From the bottom-solve report of each run: V-cycles, bottom iterations, bottom reductions and
# halo messages, the time in the bottom solves and in the whole PCMG (the solve: KSPRICHARDSON runs all its V-cycles
# inside PCMG).
#   share/bench/bottom.sh PMPI_LIB EX1 [tutorial options, default: -dim 3 -n 32 -coarse_n 8]
# Writes share/bench/results/bottom.txt and bottom.csv, and bottom.png when matplotlib is there (share/bench/plot.py bottom);
# BOTTOM_OUTPUT=NAME writes NAME.txt/.csv/.png instead (a rerun beside the study the text quotes).
# BOTTOM_RUNS_CSV=FILE writes every run's row there too, in the order they ran (the r-th rows of the variants at a point:
# their r-th runs, back to back), with the type an autobcgs bottom solver chose (the times of a variant whose choice can
# differ from run to run are not summed up by their least: share/bench/auto.sh).
# BOTTOM_HALO="krasnopolsky none" (the default) selects the halo models of the simulated points: krasnopolsky (reductions
# and halo receives delayed), none (reductions only).
# The simulator delays the global reductions and the halo receives only (nothing else of a large machine: no contention,
# no noise, a rank's 1-2 real neighbours instead of up to 6 in a 3D decomposition, whose receives would overlap): a
# planning instrument.
set -eu -o pipefail
lib=$1 ex1=$2
shift 2
targs=("$@")
[ ${#targs[@]} -gt 0 ] || targs=(-dim 3 -n 32 -coarse_n 8)
. "$(dirname "$0")/common.sh"
outputs "${BOTTOM_OUTPUT:-bottom}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The bottom solvers compared (BOTTOM_VARIANTS selects, in this order; bcgs first): bcgs; cabicgstab: the hook's default policy,
# which picks the basis itself and says which in the bottom-solve report (on this problem: the Chebyshev basis at s = 10 on
# the Gershgorin interval of the Jacobi-preconditioned coarse operator, telescoping off: a bottom solve of at most 10
# iterations is one Gram reduction); cabicgstab-monomial-s4: the library's defaults (monomial basis, s = 4, telescoping),
# which the policy keeps where the Gershgorin interval is not safe. Any other name is passed as -bottom NAME.
variants=${BOTTOM_VARIANTS:-bcgs cabicgstab cabicgstab-monomial-s4}
read -r -a vs <<< "$variants"
variant_args() {
  case $1 in
    cabicgstab-monomial-s4) echo "-bottom cabicgstab -mg_coarse_ksp_cabicgstab_basis monomial -mg_coarse_ksp_cabicgstab_s 4 -mg_coarse_ksp_cabicgstab_telescope 1" ;;
    *) echo "-bottom $1" ;;
  esac
}

# A CSV row: nodes,halo,bottom,vcycles,its,reductions,bottom_halo,bottom_s,pcmg_s,pcmg_reductions,pcmg_halo,chosen (the
# type autobcgs chose, from the report's "autobcgs chose TYPE" line; else empty)
run() { # nodes (0: no simulation), halo model (krasnopolsky: halo receives delayed too; none), bottom variant
  local nodes=$1 halo=$2 bottom=$3 model=krasnopolsky
  local -a env=()
  [ "$nodes" -gt 0 ] || model=none
  [ "$halo" = none ] || env=(-x CAKPMPI_HALO="$halo")
  CAKPMPI_MODEL=$model CAKPMPI_NODES=$((nodes > 0 ? nodes : 1)) CAKPMPI_OUTPUT=$tmp/stats \
    mpiexec --oversubscribe -n 2 -x LD_PRELOAD="$lib" -x CAKPMPI_MODEL -x CAKPMPI_NODES -x CAKPMPI_OUTPUT "${env[@]}" \
    "$ex1" -problem helmholtz "${targs[@]}" $(variant_args "$bottom") -bottom_report > "$tmp/out"
  awk -v p="$nodes" -v h="$halo" -v b="$bottom" -f "$here/report.awk" -f <(echo '
    /autobcgs chose / && !chosen { chosen = $0; sub(/.*autobcgs chose /, "", chosen); sub(/:.*/, "", chosen) }
    END { if (v == "" || tb == "" || mgred == "" || halo == "") exit 1
          printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", p, h, b, v, its, red, halo, tb, tmg, mgred, mghalo, chosen }') "$tmp/out"
}

describe() { # bottom variant -> what its bottom solver was: the coarse KSP's view, and the policy's choice from the report
  mpiexec --oversubscribe -n 2 "$ex1" -problem helmholtz "${targs[@]}" $(variant_args "$1") -bottom_report -mg_coarse_ksp_view > "$tmp/view"
  awk -v b="$1" '
    /^ *type: / && !type { type = $2 }
    /^ *s = [0-9]+, basis / && !s { sub(/^ */, ""); s = $0 }
    /^ *spectrum: / && !sp { sub(/^ */, ""); sp = $0 }
    /basis of the cabicgstab bottom solver:/ && !pol { sub(/^.*bottom solver: /, ""); pol = $0 }
    END {
      printf "# %s: %s%s%s\n", b, type, s ? ", " s : "", sp ? "; " sp : ""
      if (pol) printf "#   the policy chose: %s%s\n", pol, b == "cabicgstab" ? "" : " (the -mg_coarse_ksp_cabicgstab_ options of this variant win)"
    }' "$tmp/view"
}

best_row() { # the R rows of one point -> one row with the least of each time (the counts are the same in every run but
  # autobcgs's, whose choice can change: its counts are the first run's; BOTTOM_RUNS_CSV has them all)
  local rows
  rows=$(cat)
  echo "$(head -n 1 <<< "$rows" | cut -d, -f1-7),$(cut -d, -f8 <<< "$rows" | sort -g | head -n 1),$(cut -d, -f9 <<< "$rows" | sort -g | head -n 1),$(head -n 1 <<< "$rows" | cut -d, -f10-11)"
}

table() { # halo model -> the study's table of the points simulated with it (and the unsimulated one)
  awk -F, -v h="$1" 'NR > 1 && ($1 == 0 || $2 == h) { key = $1; row[key, $3] = $0; if (!(key in seen)) { order[++n] = key; seen[key] = 1 }; if (!($3 in vseen)) { v[++nv] = $3; vseen[$3] = 1 } }
    END {
      for (j = 1; j <= nv; j++) { # a column name of at most 8 characters
        short[j] = v[j] == "cabicgstab" ? "cabicg" : v[j] == "cabicgstab-monomial-s4" ? "mono-s4" : substr(v[j], 1, 8)
        printf "# %s: %s\n", short[j], v[j]
      }
      w1 = 9 * nv; w2 = 12 + 20 * (nv - 1)
      printf "%6s | %-*s | %-*s | %-*s | %-*s | %-*s\n", "p", w1 - 1, "V-cycles", w1 - 1, "bottom reductions", w1 - 1, "bottom halo messages", w2 - 1, "bottom solves s (ratio)", w2 - 1, "whole PCMG s (ratio)"
      printf "%6s |", ""
      for (g = 1; g <= 3; g++) { for (j = 1; j <= nv; j++) printf " %8s", short[j]; printf " |" }
      for (g = 1; g <= 2; g++) { for (j = 1; j <= nv; j++) printf " %10s%s", short[j], (j > 1 ? "          " : ""); printf " |" }
      printf "\n"
      for (i = 1; i <= n; i++) {
        k = order[i]; split(row[k, v[1]], b, ",")
        printf "%6s |", k == 0 ? "here" : k
        for (j = 1; j <= nv; j++) { split(row[k, v[j]], x, ","); printf " %8s", x[4] }
        printf " |"; for (j = 1; j <= nv; j++) { split(row[k, v[j]], x, ","); printf " %8s", x[6] }
        printf " |"; for (j = 1; j <= nv; j++) { split(row[k, v[j]], x, ","); printf " %8s", x[7] }
        printf " |"; for (j = 1; j <= nv; j++) { split(row[k, v[j]], x, ","); printf " %10.4g", x[8]; if (j > 1) printf " (%6.2fx)", b[8] / x[8] }
        printf " |"; for (j = 1; j <= nv; j++) { split(row[k, v[j]], x, ","); printf " %10.4g", x[9]; if (j > 1) printf " (%6.2fx)", b[9] / x[9] }
        printf " |\n"
      }
    }' "$csv"
}

# Repetitions of every point (quick mode: 1), alternating between the variants; the least time of each is kept, as in
# pmpi-demo.sh: the simulator's delays are the same in every run, and other jobs on the machine only add time (a rank
# that loses its core while the simulator busy-waits comes back late: one contended run took 0.41 s for bcgs's bottom
# solves at p = 16384, the model 0.16 s).
runs=${BOTTOM_RUNS:-$([ -n "$quick" ] && echo 1 || echo 9)}
halos=${BOTTOM_HALO:-krasnopolsky none}
echo "nodes,halo,bottom,vcycles,bottom_iterations,bottom_reductions,bottom_halo,bottom_s,pcmg_s,pcmg_reductions,pcmg_halo" > "$csv"
runs_csv=${BOTTOM_RUNS_CSV:-/dev/null}
echo "$(head -n 1 "$csv"),chosen" > "$runs_csv"
for nodes in 0 64 256 1024 4096 16384 32768; do
  for halo in $halos; do
    [ "$nodes" -gt 0 ] || [ "$halo" = "${halos%% *}" ] || continue # here: one run, nothing simulated
    [ "$nodes" -gt 0 ] || halo=none
    # run i of every variant, then run i + 1 (alternating: a drift of the machine during a point reaches every variant
    # alike), the variants' order rotated by one per run so that each takes every place in turn
    rm -f "$tmp"/rows.*
    for ((i = 0; i < runs; i++)); do
      for ((j = 0; j < ${#vs[@]}; j++)); do
        k=$(((i + j) % ${#vs[@]}))
        run "$nodes" "$halo" "${vs[k]}" | tee -a "$runs_csv" >> "$tmp/rows.$k"
      done
    done
    for ((k = 0; k < ${#vs[@]}; k++)); do best_row < "$tmp/rows.$k" >> "$csv"; done
  done
done

{
  echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'); nproc $(nproc); command: $(rel "$0") $(rel "$lib") $(rel "$ex1") ${targs[*]} (make bench-bottom)"
  echo "# $(sed -n 's/, coarse solve .*//p' "$tmp/out" | head -n 1); 2 ranks"
  echo "# the bottom solvers (the coarse KSP's view in one unsimulated run):"
  for bottom in $variants; do describe "$bottom"; done
  echo "# p > 0: simulated (a planning model): global reductions delayed by Krasnopolsky's T_G(p, l), and in the tables \"reductions + halo\" every halo receive by his T_L(l) too; p = 0: this machine; times: the least of $runs runs"
  echo "# halo messages: receives per rank (the largest over the 2 ranks) in the bottom solves, PETSc's count in the bottom-solve report"
  for halo in $halos; do
    echo
    if [ "$halo" = none ]; then echo "== reductions only delayed"; else echo "== reductions + halo messages delayed ($halo)"; fi
    table "$halo"
  done
  echo
  echo "ratio: bcgs time / that variant's time (> 1: faster than bcgs). Bottom iterations in the unsimulated run: $(awk -F, 'NR > 1 && $1 == 0 { printf "%s%s %s", sep, $3, $5; sep = ", " }' "$csv")."
  # What bounds the whole-PCMG ratio: the part of PCMG outside the bottom solves is the same work for every bottom solver
  # (smoothing, grid transfers, the cycles' own residual norms, and the reductions they issue), so no bottom solver can
  # make the whole PCMG faster than bcgs's PCMG time / bcgs's time outside its bottom solves.
  echo "Global reductions and halo messages in PCMG outside the bottom solves (the same for every bottom solver): $(awk -F, 'NR > 1 && $1 == 0 { printf "%s%s %s and %s", sep, $3, $10 - $6, $11 - $7; sep = ", " }' "$csv")."
  echo "The whole-PCMG ratio cannot exceed bcgs's PCMG time / bcgs's time outside its bottom solves (${halos%% *}): $(awk -F, -v first="${variants%% *}" -v h="${halos%% *}" 'NR > 1 && $3 == first && ($1 == 0 || $2 == h) { printf "%s%s %.2fx", sep, $1 == 0 ? "here" : "p = " $1, $9 / ($9 - $8); sep = ", " }' "$csv")."
  # What the halo messages cost: the bottom time with halo receives delayed against the same point with the reductions only
  if [[ " $halos " == *" none "* ]] && [ "${halos%% *}" != none ]; then
    echo "Share of the bottom-solve time that the delayed halo receives add ((t_halo - t_reductions) / t_halo; the whole PCMG in brackets):"
    awk -F, -v h="${halos%% *}" 'NR > 1 && $1 > 0 { t[$1, $2, $3] = $8; m[$1, $2, $3] = $9; if (!($1 in ps)) { ps[$1] = 1; p[++np] = $1 }; if (!($3 in vs)) { vs[$3] = 1; v[++nv] = $3 } }
      END { for (i = 1; i <= np; i++) { printf "  p = %5s:", p[i]; for (j = 1; j <= nv; j++) { a = t[p[i], h, v[j]]; b = t[p[i], "none", v[j]]; c = m[p[i], h, v[j]]; d = m[p[i], "none", v[j]]; printf "  %s %5.1f %% (%5.1f %%)", v[j], 100 * (a - b) / a, 100 * (c - d) / c }; printf "\n" } }' "$csv"
  fi
} | tee "$out"

plot bottom "$csv" "$png"
