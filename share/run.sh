#!/usr/bin/env bash
# The main job of `make run`: the 3D variable-coefficient Helmholtz tutorial (miniGMG's problem, williams2014) on
# 2 ranks, geometric multigrid with PETSc's bcgs and with cakrylov's cabicgstab as the bottom solver, side by side.
# Numbers come from the bottom-solve report of each run (PCMGBottomReportView); times vary from run to run.
set -eu
ex1=$1 outdir=$2
shift 2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$outdir"
args=(-problem helmholtz -dim 3 -n 64 -coarse_n 16 -bc periodic -bottom_report "$@")

run() { # bottom solver, extra options -> one table row: name|V-cycles|its|its per cycle|reductions|per cycle|bottom s|PCMG s
  local bottom=$1 out
  shift
  out=$(mpiexec --oversubscribe -n 2 "$ex1" "${args[@]}" -bottom "$bottom" "$@")
  printf '%s\n' "$out" | sed -n 's/, coarse solve .*//p' | head -n 1 > "$outdir/problem.txt"
  printf '%s\n' "$out" | awk -v name="$bottom" '
    /^V-cycles:/                          { v = $2 }
    /bottom iterations:/                  { its = $3 }
    /global reductions in bottom solves:/ { red = $6 }
    /time in bottom solves:/              { tb = $5; tmg = $8 }
    END { if (v == "" || its == "" || red == "" || tb == "") exit 1
          printf "%s|%s|%s|%.1f|%s|%.1f|%s|%s\n", name, v, its, its / v, red, red / v, tb, tmg }'
}

rows=$(run bcgs; run cabicgstab -view_solution "$outdir/helmholtz")
echo "== $(cat "$outdir/problem.txt"), 2 ranks: bottom solver bcgs vs cabicgstab"
printf '%s\n' "$rows" | awk -F'|' '
  BEGIN { printf "%-11s %8s %18s %22s %14s %16s\n", "bottom", "V-cycles", "bottom iterations", "bottom reductions", "bottom time", "V-cycle time" }
  { printf "%-11s %8s %9s (%5s/V) %12s (%6s/V) %12.3g s %14.3g s\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
echo "(reductions: global reductions issued inside the bottom solves; times: this machine, this run)"
test -s "$outdir/helmholtz.h5" && test -s "$outdir/helmholtz.xmf"
where=$(realpath --relative-to=. "$outdir")
echo "solution of the cabicgstab run: $where/helmholtz.h5 (u and the residual r), $where/helmholtz.xmf (open it in ParaView)"
