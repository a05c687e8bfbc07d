#!/usr/bin/env bash
# Multigrid for m right-hand sides (issue 27): tutorials/ex3.c (3D Laplacian, m Gaussian sources) with PCMG on 2 ranks,
# under the latency simulator (share/bench/cakpmpi/cakpmpi.c, Krasnopolsky's model of a global reduction on p nodes) and
# without it, three ways:
#   separate     m KSPSolve()s: PETSc's bcgs outside (it has no block solver: KSPMatSolve() loops), bcgs bottom solves
#   block-bcgsm  one KSPMatSolve(): the block bcgsm outside, PCMG's PCMatApply() on the block, a block bcgsm bottom
#   block-cab    the same with the block cabicgstab bottom (the hook's policy): one reduction per outer round for all m
#   block-cab-s8 the block cabicgstab bottom with the Chebyshev basis at s = 8, telescoping off (a bottom solve of at most
#                8 iterations is one reduction; its spectrum is estimated once, in the first bottom solve)
#   block-cab-cheb7 the same at s = 7 on the interval [0, 2], no estimate: the Gershgorin interval [1 - R, 1 + R] of the
#                Jacobi-preconditioned operator (R = 1 for these Dirichlet coarse grids, where the hook's policy takes the
#                monomial basis at s = 4 instead); the bottom solves here take at most 7 iterations, one round each
# From each run: the solve time (KSPMatSolve's, or the KSPSolve()s' for separate; -log_view), PCMG cycles, bottom solves,
# the bottom solves' reductions and time (the bottom report). Repeated RUNS times, alternating the variants; medians and
# the spread (max/min - 1) of the times.
#   share/bench/mrhsmg.sh PMPI_LIB EX3 [-nodes "0 1024 4096 16384"] [-m "1 8 16"] [-runs 5] [-n 33] [-levels 4]
#                         [-halo "krasnopolsky none"] [-smoother petsc|chebyjacobi]
# Writes share/bench/results/mrhsmg.txt and mrhsmg.csv. -halo: the halo models of the simulated points (column halo):
# krasnopolsky (the global reductions and every halo receive delayed, Krasnopolsky's T_G and T_L; the default's first),
# none (the reductions only). The simulator delays nothing else: a planning instrument, not a large machine.
# -smoother: PCMG's level smoothers in every variant alike: petsc (PETSc's default, Chebyshev with SOR, which
# KSPMatSolve() applies to a block column by column) or chebyjacobi (this library's PCCHEBYJACOBI under richardson,
# -mg_levels_ksp_type richardson -mg_levels_pc_type chebyjacobi: one fused pass over the rows per step, column by column
# as well).
set -eu -o pipefail
lib=$1 ex3=$2
shift 2
. "$(dirname "$0")/common.sh"
need_program "PMPI_LIB EX3 [-nodes LIST] [-m LIST] [-runs R] [-n N] [-levels L]" "$ex3"
nodes="0 1024 4096 16384" m="1 8 16" runs=5 n=33 levels=4 halo="krasnopolsky none" smoother=petsc
[ -n "$quick" ] && nodes="0 4096" m="8" runs=3
options "nodes m runs n levels halo smoother" "$@"
case $smoother in
  petsc) smoother_args="" ;;
  chebyjacobi) smoother_args="-mg_levels_ksp_type richardson -mg_levels_pc_type chebyjacobi" ;;
  *) echo "$0: -smoother $smoother: petsc or chebyjacobi" >&2; exit 2 ;;
esac
outputs mrhsmg
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
variants="separate block-bcgsm block-cab block-cab-s8 block-cab-cheb7"

variant_args() {
  case $1 in
    separate) echo "-ksp_type bcgs -pc_mg_bottom_ksp_type bcgs" ;;
    block-bcgsm) echo "-ksp_type bcgsm -pc_mg_bottom_ksp_type bcgsm" ;;
    block-cab) echo "-ksp_type bcgsm -pc_mg_bottom_ksp_type cabicgstab" ;;
    block-cab-s8) echo "-ksp_type bcgsm -pc_mg_bottom_ksp_type cabicgstab -mg_coarse_ksp_cabicgstab_basis chebyshev -mg_coarse_ksp_cabicgstab_s 8 -mg_coarse_ksp_cabicgstab_telescope 0" ;;
    block-cab-cheb7) echo "-ksp_type bcgsm -pc_mg_bottom_ksp_type cabicgstab -mg_coarse_ksp_cabicgstab_basis chebyshev -mg_coarse_ksp_cabicgstab_spectrum 0,2 -mg_coarse_ksp_cabicgstab_s 7 -mg_coarse_ksp_cabicgstab_telescope 0" ;;
  esac
}

# nodes (0: no simulation), halo model, m, variant -> a CSV row:
#   nodes,halo,m,variant,solve_s,cycles,bottom_solves,bottom_reductions,bottom_s,bottom_halo
run() {
  local p=$1 h=$2 cols=$3 v=$4 model=krasnopolsky
  local -a env=()
  [ "$p" -gt 0 ] || model=none
  [ "$h" = none ] || env=(-x CAKPMPI_HALO="$h")
  CAKPMPI_MODEL=$model CAKPMPI_NODES=$((p > 0 ? p : 1)) CAKPMPI_OUTPUT=$tmp/stats \
    mpiexec --oversubscribe -n 2 -x LD_PRELOAD="$lib" -x CAKPMPI_MODEL -x CAKPMPI_NODES -x CAKPMPI_OUTPUT "${env[@]}" \
    "$ex3" -dim 3 -n "$n" -nrhs "$cols" -compare 0 -pc_type mg -pc_mg_levels "$levels" -pc_mg_galerkin pmat \
    $(variant_args "$v") $smoother_args -pc_mg_bottom_report -log_view > "$tmp/out"
  # converged: every column within 1.01 rtol (the block types' columns), or PETSc's bcgs's reason for all (its updated
  # residual may end above rtol in b - A x, which the verdict of ex3 would count)
  grep -q -E "every column's true residual <= 1.01 rtol \|\|b\|\|: yes|reports one converged reason for the block: CONVERGED" "$tmp/out" || { echo "$v, p = $p, m = $cols: a column did not converge" >&2; exit 1; }
  awk -v p="$p" -v h="$h" -v m="$cols" -v v="$v" -f "$here/report.awk" -f <(echo '
    /^KSPMatSolve / { tm = $4 }
    /^KSPSolve /    { ts = $4 }
    /PCMG cycles:/  { c = $3; sub(/,$/, "", c); bs = $6 }
    END { t = (v == "separate" || tm == "") ? ts : tm; if (t == "" || tb == "" || halo == "") exit 1; printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", p, h, m, v, t, c, bs, red, tb, halo }') "$tmp/out"
}

{
  echo "# multigrid for m right-hand sides: tutorials/ex3 -dim 3 -n $n, PCMG $levels levels (Galerkin), smoothers: $smoother${smoother_args:+ ($smoother_args)}, 2 ranks; $(machine)"
  echo "# nodes = 0: no simulation; else the reductions delayed as on p nodes (Krasnopolsky's model), with halo krasnopolsky every halo receive too (his T_L); $runs runs each, alternating"
  echo "nodes,halo,m,variant,solve_s,cycles,bottom_solves,bottom_reductions,bottom_s,bottom_halo"
  for p in $nodes; do
    for h in $halo; do
      [ "$p" -gt 0 ] || [ "$h" = "${halo%% *}" ] || continue # no simulation: one set of runs
      [ "$p" -gt 0 ] || h=none
      for cols in $m; do
        for r in $(seq "$runs"); do
          for v in $variants; do run "$p" "$h" "$cols" "$v"; done
        done
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
halos = list(dict.fromkeys(r['halo'] for r in rows if int(r['nodes']) > 0))
keys = sorted({(int(r['nodes']), r['halo'], int(r['m'])) for r in rows}, key=lambda k: (k[1] == 'none' and k[0] > 0, k[0], k[2]))
def med(p, h, m, v, f):
    xs = [float(r[f]) for r in rows if int(r['nodes']) == p and r['halo'] == h and int(r['m']) == m and r['variant'] == v]
    return statistics.median(xs), (max(xs) / min(xs) - 1) if min(xs) > 0 else 0.0
print('%6s %-13s %3s %-15s %10s %7s %7s %7s %12s %12s %10s %9s %9s' % ('nodes', 'charged', 'm', 'variant', 'solve ms', 'spread', 'cycles', 'bottoms', 'red/bottom', 'halo/bottom', 'bottom ms', 'x sep', 'bottom x'))
for p, h, m in keys:
    sep = med(p, h, m, 'separate', 'solve_s')[0]
    bb = med(p, h, m, 'block-bcgsm', 'bottom_s')[0]
    charged = 'here' if p == 0 else 'reductions' if h == 'none' else 'red.+halo'
    for v in ('separate', 'block-bcgsm', 'block-cab', 'block-cab-s8', 'block-cab-cheb7'):
        t, sp = med(p, h, m, v, 'solve_s')
        c = med(p, h, m, v, 'cycles')[0]; b = med(p, h, m, v, 'bottom_solves')[0]; red = med(p, h, m, v, 'bottom_reductions')[0]
        hb = med(p, h, m, v, 'bottom_halo')[0]
        tb = med(p, h, m, v, 'bottom_s')[0]
        print('%6d %-13s %3d %-15s %10.2f %6.0f%% %7.0f %7.0f %12.2f %12.2f %10.2f %8.2fx %8.2fx' % (p, charged, m, v, 1e3 * t, 100 * sp, c, b, red / b if b else 0, hb / b if b else 0, 1e3 * tb, sep / t, bb / tb if tb else 0))
print('# charged: what the simulator delayed (here: nothing, this machine; reductions: the global reductions only; red.+halo: and every halo')
print('# receive); halo/bottom: halo messages received per rank per bottom solve (the bottom report);')
print('# x sep: separate solve time / this one (the whole solve of m right-hand sides); bottom x: block-bcgsm bottom time / this one')
EOF
cat "$out"
