#!/usr/bin/env bash
# The main job of `make run`: the 3D variable-coefficient Helmholtz tutorial (miniGMG's problem, williams2014) on
# 2 ranks, geometric multigrid with PETSc's bcgs and with cakrylov's cabicgstab as the bottom solver, side by side:
# this machine, this run; and the same two runs under the latency simulator at p = RUN_NODES nodes (default 4096:
# share/bench/cakpmpi, every global reduction delayed by Krasnopolsky's T_G(p, l) and every halo receive by his T_L(l);
# a planning model of a large machine, not a measurement), when its library is given (the makefile builds it).
#   share/run.sh EX1 OUTDIR [PMPI_LIB] [tutorial options]     (PMPI_LIB: a path ending in .so, or "" for no simulated column)
# Numbers come from the bottom-solve report of each run (PCMGBottomReportView); times vary from run to run. The table also
# goes to OUTDIR/run.txt (share/bench/runsim.sh repeats the job and writes the medians).
set -eu
shopt -s inherit_errexit # a failed run inside $(...) stops the job
ex1=$1 outdir=$2
shift 2
lib=
if [ $# -gt 0 ] && { [ -z "$1" ] || [[ $1 == *.so ]]; }; then
  lib=$1
  shift
fi
nodes=${RUN_NODES:-4096}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$outdir"
args=(-problem helmholtz -dim 3 -n 64 -coarse_n 16 -bc periodic -bottom_report "$@")

# bottom solver, simulated (0: no, 1: at p = nodes), extra options -> one table row:
#   name|V-cycles|its|its per cycle|reductions|per cycle|halo messages|bottom s|PCMG s
run() {
  local bottom=$1 sim=$2 out
  local -a pre=()
  shift 2
  if [ "$sim" = 1 ]; then
    pre=(-x LD_PRELOAD="$lib" -x CAKPMPI_MODEL=krasnopolsky -x CAKPMPI_NODES="$nodes" -x CAKPMPI_HALO=krasnopolsky -x CAKPMPI_OUTPUT=/dev/null)
  fi
  out=$(mpiexec --oversubscribe -n 2 "${pre[@]}" "$ex1" "${args[@]}" -bottom "$bottom" "$@")
  printf '%s\n' "$out" | sed -n 's/, coarse solve .*//p' | head -n 1 > "$outdir/problem.txt"
  printf '%s\n' "$out" | awk -v name="$bottom" -f "$here/bench/report.awk" -f <(echo '
    END { if (v == "" || its == "" || red == "" || tb == "" || halo == "") exit 1
          printf "%s|%s|%s|%.1f|%s|%.1f|%s|%s|%s\n", name, v, its, its / v, red, red / v, halo, tb, tmg }')
}

rows=$(run bcgs 0; run cabicgstab 0 -view_solution "$outdir/helmholtz")
sim=
if [ -n "$lib" ] && [ -f "$lib" ]; then sim=$(run bcgs 1; run cabicgstab 1); fi
{
echo "== $(cat "$outdir/problem.txt"), 2 ranks: bottom solver bcgs vs cabicgstab"
printf '%s\n' "$rows" | awk -F'|' -v sim="$sim" -v nodes="$nodes" '
  BEGIN { n = split(sim, s, "\n"); for (i = 1; i <= n; i++) { split(s[i], f, "|"); sb[f[1]] = f[8]; sm[f[1]] = f[9] } }
  { name[NR] = $1; tb[NR] = $8; tm[NR] = $9
    line[NR] = sprintf("%-11s %8s %9s (%5s/V) %10s (%5s/V) %8s %11.3g s %10.3g s", $1, $2, $3, $4, $5, $6, $7, $8, $9)
    if (n) line[NR] = line[NR] sprintf(" %11.3g s %10.3g s", sb[$1], sm[$1]) }
  END {
    printf "%70s | %-25s%s\n", "", "this machine, this run", n ? " | simulated, p = " nodes " nodes (a model)" : ""
    printf "%-11s %8s %19s %20s %8s %13s %12s", "bottom", "V-cycles", "bottom iterations", "bottom reductions", "halo", "bottom time", "V-cycle time"
    if (n) printf " %13s %12s", "bottom time", "V-cycle time"
    printf "\n"
    for (i = 1; i <= NR; i++) print line[i]
    if (NR == 2 && tb[2] > 0 && tm[2] > 0) {
      printf "%-70s %11.2f x %10.2f x", "speedup of " name[2] " (" name[1] " time / its time)", tb[1] / tb[2], tm[1] / tm[2]
      if (n && sb[name[2]] > 0 && sm[name[2]] > 0) printf " %11.2f x %10.2f x", sb[name[1]] / sb[name[2]], sm[name[1]] / sm[name[2]]
      printf "\n"
    }
  }'
echo "(reductions: global reductions issued inside the bottom solves; halo: halo messages received per rank in them)"
if [ -n "$sim" ]; then
  echo "(simulated: the same runs on 2 real ranks with every global reduction delayed by Krasnopolsky's T_G(p = $nodes, l) and every"
  echo " halo receive by his T_L(l) (share/bench/cakpmpi): a planning model of where a bottom solve's reductions dominate, not a"
  echo " measurement of a large machine; share/bench/RESULTS.md has the bottom study behind it)"
elif [ -n "$lib" ]; then
  echo "(no simulated column: $lib is missing; make pmpi builds it)"
fi
} | tee "$outdir/run.txt"
test -s "$outdir/helmholtz.h5" && test -s "$outdir/helmholtz.xmf"
where=$(realpath --relative-to=. "$outdir")
echo "solution of the cabicgstab run: $where/helmholtz.h5 (u and the residual r), $where/helmholtz.xmf (open it in ParaView)"
