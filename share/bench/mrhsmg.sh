#!/usr/bin/env bash
# Multigrid for m right-hand sides (issue 27): tutorials/ex3.c (3D Laplacian, m Gaussian sources) with PCMG on 2 ranks,
# under the latency simulator (share/bench/cakpmpi/cakpmpi.c, Krasnopolsky's model of a global reduction on p nodes) and
# without it, three ways:
#   separate     m KSPSolve()s: PETSc's bcgs outside (it has no block solver: KSPMatSolve() loops), bcgs bottom solves
#   block-bcgsm  one KSPMatSolve(): the block bcgsm outside, PCMG's PCMatApply() on the block, a block bcgsm bottom
#   block-cab    the same with the block cabicgstab bottom (the hook's policy): one reduction per outer round for all m
#   block-cab-s8 the block cabicgstab bottom with the Chebyshev basis at s = 8, telescoping off (a bottom solve of at most
#                8 iterations is one reduction; its spectrum is estimated once, in the first bottom solve)
# From each run: the solve time (KSPMatSolve's, or the KSPSolve()s' for separate; -log_view), PCMG cycles, bottom solves,
# the bottom solves' reductions and time (the bottom report). Repeated RUNS times, alternating the variants; medians and
# the spread (max/min - 1) of the times.
#   share/bench/mrhsmg.sh PMPI_LIB EX3 [-nodes "0 1024 4096 16384"] [-m "1 8 16"] [-runs 5] [-n 33] [-levels 4]
# Writes share/bench/results/mrhsmg.txt and mrhsmg.csv. The simulator delays the global reductions only: a planning
# instrument, not a large machine.
set -eu -o pipefail
lib=$1 ex3=$2
shift 2
. "$(dirname "$0")/common.sh"
need_program "PMPI_LIB EX3 [-nodes LIST] [-m LIST] [-runs R] [-n N] [-levels L]" "$ex3"
nodes="0 1024 4096 16384" m="1 8 16" runs=5 n=33 levels=4
[ -n "$quick" ] && nodes="0 4096" m="8" runs=3
options "nodes m runs n levels" "$@"
outputs mrhsmg
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
variants="separate block-bcgsm block-cab block-cab-s8"

variant_args() {
  case $1 in
    separate) echo "-ksp_type bcgs -pc_mg_bottom_ksp_type bcgs" ;;
    block-bcgsm) echo "-ksp_type bcgsm -pc_mg_bottom_ksp_type bcgsm" ;;
    block-cab) echo "-ksp_type bcgsm -pc_mg_bottom_ksp_type cabicgstab" ;;
    block-cab-s8) echo "-ksp_type bcgsm -pc_mg_bottom_ksp_type cabicgstab -mg_coarse_ksp_cabicgstab_basis chebyshev -mg_coarse_ksp_cabicgstab_s 8 -mg_coarse_ksp_cabicgstab_telescope 0" ;;
  esac
}

run() { # nodes (0: no simulation), m, variant -> a CSV row: nodes,m,variant,solve_s,cycles,bottom_solves,bottom_reductions,bottom_s
  local p=$1 cols=$2 v=$3 model=krasnopolsky
  [ "$p" -gt 0 ] || model=none
  CAKPMPI_MODEL=$model CAKPMPI_NODES=$((p > 0 ? p : 1)) CAKPMPI_OUTPUT=$tmp/stats \
    mpiexec --oversubscribe -n 2 -x LD_PRELOAD="$lib" -x CAKPMPI_MODEL -x CAKPMPI_NODES -x CAKPMPI_OUTPUT \
    "$ex3" -dim 3 -n "$n" -nrhs "$cols" -compare 0 -pc_type mg -pc_mg_levels "$levels" -pc_mg_galerkin pmat \
    $(variant_args "$v") -pc_mg_bottom_report -log_view > "$tmp/out"
  # converged: every column within 1.01 rtol (the block types' columns), or PETSc's bcgs's reason for all (its updated
  # residual may end above rtol in b - A x, which the verdict of ex3 would count)
  grep -q -E "every column's true residual <= 1.01 rtol \|\|b\|\|: yes|reports one converged reason for the block: CONVERGED" "$tmp/out" || { echo "$v, p = $p, m = $cols: a column did not converge" >&2; exit 1; }
  awk -v p="$p" -v m="$cols" -v v="$v" '
    /^KSPMatSolve / { tm = $4 }
    /^KSPSolve /    { ts = $4 }
    /PCMG cycles:/  { c = $3; sub(/,$/, "", c); bs = $6 }
    /global reductions in bottom solves:/ { red = $6 }
    /time in bottom solves:/ { tb = $5 }
    END { t = (v == "separate" || tm == "") ? ts : tm; if (t == "" || tb == "") exit 1; printf "%s,%s,%s,%s,%s,%s,%s,%s\n", p, m, v, t, c, bs, red, tb }' "$tmp/out"
}

{
  echo "# multigrid for m right-hand sides: tutorials/ex3 -dim 3 -n $n, PCMG $levels levels (Galerkin), 2 ranks; $(machine)"
  echo "# nodes = 0: no simulation; else the reductions delayed as on p nodes (Krasnopolsky's model); $runs runs each, alternating"
  echo "nodes,m,variant,solve_s,cycles,bottom_solves,bottom_reductions,bottom_s"
  for p in $nodes; do
    for cols in $m; do
      for r in $(seq "$runs"); do
        for v in $variants; do run "$p" "$cols" "$v"; done
      done
    done
  done
} > "$tmp/csv"
grep -v '^#' "$tmp/csv" > "$csv"

# medians per (nodes, m, variant); the ratios the issue asks for: the whole solve per right-hand side against separate
# solves, the bottom solves against the block bcgsm bottom; the bottom reductions per bottom solve (equal for m and 1)
python3 - "$tmp/csv" > "$out" << 'EOF'
import csv, statistics, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('#'))]
head = [l.rstrip('\n') for l in open(sys.argv[1]) if l.startswith('#')]
print('\n'.join(head))
keys = sorted({(int(r['nodes']), int(r['m'])) for r in rows})
def med(p, m, v, f):
    xs = [float(r[f]) for r in rows if int(r['nodes']) == p and int(r['m']) == m and r['variant'] == v]
    return statistics.median(xs), (max(xs) / min(xs) - 1) if min(xs) > 0 else 0.0
print('%6s %3s %-12s %10s %7s %7s %7s %12s %10s %9s %9s' % ('nodes', 'm', 'variant', 'solve ms', 'spread', 'cycles', 'bottoms', 'red/bottom', 'bottom ms', 'x sep', 'bottom x'))
for p, m in keys:
    sep = med(p, m, 'separate', 'solve_s')[0]
    bb = med(p, m, 'block-bcgsm', 'bottom_s')[0]
    for v in ('separate', 'block-bcgsm', 'block-cab', 'block-cab-s8'):
        t, sp = med(p, m, v, 'solve_s')
        c = med(p, m, v, 'cycles')[0]; b = med(p, m, v, 'bottom_solves')[0]; red = med(p, m, v, 'bottom_reductions')[0]
        tb = med(p, m, v, 'bottom_s')[0]
        print('%6d %3d %-12s %10.2f %6.0f%% %7.0f %7.0f %12.2f %10.2f %8.2fx %8.2fx' % (p, m, v, 1e3 * t, 100 * sp, c, b, red / b if b else 0, 1e3 * tb, sep / t, bb / tb if tb else 0))
print('# x sep: separate solve time / this one (the whole solve of m right-hand sides); bottom x: block-bcgsm bottom time / this one')
EOF
cat "$out"
