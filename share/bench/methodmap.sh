#!/bin/bash
# The method map (Krasnopolsky 2020, Figs. 6 and 10): time per iteration of the BiCGStab variants relative to PETSc's bcgs
# against the simulated node count p, with overlap of the non-blocking reductions (CAKPMPI_PROGRESS=async: a reduction
# completes T_G after its start whatever the program does) and without (CAKPMPI_PROGRESS=none: it advances only inside MPI
# calls on it, as MPI libraries without asynchronous progress).
#   share/bench/methodmap.sh LIBCAKPMPI MERGED [-n 32] [-its 48] [-runs 9] [-nodes "1 4 16 64 256 1024 4096 16384"]
#                            [-pcs "jacobi none"] [-progress "async none"] [-halo "krasnopolsky none"]
# MERGED is the built share/bench/merged.c; every point is one run of it on 2 real ranks under the latency simulator
# (share/bench/cakpmpi/cakpmpi.c, Krasnopolsky's T_G(p, l) = C0 + C1 l^0.21 p^0.54 with his Lomonosov constants, p = nodes), all
# methods in the same run, median over the rounds of the per-round ratio to bcgs. The problem: the 7-point 3D Laplacian on
# n^3 points, by default n = 32 (32768 unknowns, 16384 per rank): a strong-scaling point, small per rank, where one
# iteration's local work (about 0.1-0.3 ms here) is of the order of T_G at p = 64 ... 1024 (28-115 us per 8-byte reduction),
# the regime in which the methods' reduction counts decide (Krasnopolsky's eq. (21): N/p ~ 2.5e4 per node).
# Methods: bcgs, ibcgs (lagged norm), pipebcgs, bcgsm, pipebcgsm, rbicgstab, cabicgstab (s = 4).
# Writes share/bench/results/methodmap.{txt,csv} and methodmap.png (share/bench/plot.py methodmap) when matplotlib is there.
# -halo: the halo models of the simulated points: krasnopolsky (the default's first: the halo receives delayed too, by
# Krasnopolsky's T_L(l), CAKPMPI_HALO=krasnopolsky), none (the global reductions only, the map before issue 24); the CSV's
# column halo says which, the tables and the plot show the first, the tables the others after it.
# A planning model, not a measurement of a large machine: only the global reductions and the halo receives are delayed
# (no contention, no noise; a rank's one real neighbour instead of up to 6 in a 3D decomposition, whose receives overlap).
set -eu -o pipefail
if [ $# -lt 2 ] || [ ! -f "$1" ] || [ ! -x "$2" ]; then
  echo "usage: $0 LIBCAKPMPI.so MERGED [-n 32] [-its 48] [-runs 9] [-nodes \"1 4 ... 16384\"] [-pcs \"jacobi none\"] [-progress \"async none\"] [-halo \"krasnopolsky none\"]" >&2
  exit 2
fi
lib=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
prog=$2
shift 2
. "$(dirname "$0")/common.sh"
n=32 its=48 runs=9 nodes="1 4 16 64 256 1024 4096 16384" pcs="jacobi none" progress="async none" halo="krasnopolsky none"
options "n its runs nodes pcs progress halo" "$@"
methods=bcgs,ibcgs,pipebcgs,bcgsm,pipebcgsm,rbicgstab,cabicgstab4
unset CAKPMPI_MODEL CAKPMPI_PROGRESS CAKPMPI_NODES CAKPMPI_PAUSED CAKPMPI_OUTPUT CAKPMPI_HALO CAKPMPI_HALO_US
outputs methodmap
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# point PC PROGRESS NODES (0: no simulation) HALO -> CSV rows pc,progress,nodes,method,median_ms,vs_bcgs,halo
point() {
  local pc=$1 prog_mode=$2 p=$3 h=$4 model=krasnopolsky
  local -a env=()
  [ "$p" -gt 0 ] || model=none
  [ "$p" -gt 0 ] || h=none
  [ "$h" = none ] || env=(-x CAKPMPI_HALO="$h")
  rm -f "$tmp/run.csv"
  CAKPMPI_MODEL=$model CAKPMPI_NODES=$((p > 0 ? p : 1)) CAKPMPI_PROGRESS=$prog_mode CAKPMPI_OUTPUT=$tmp/cak \
    mpiexec -n 2 --bind-to core -x LD_PRELOAD="$lib" -x CAKPMPI_MODEL -x CAKPMPI_NODES -x CAKPMPI_PROGRESS -x CAKPMPI_OUTPUT "${env[@]}" \
    "$prog" -n "$n" -its "$its" -runs "$runs" -pc_type "$pc" -stream false -methods "$methods" -csv "$tmp/run.csv" > "$tmp/out" 2>&1 ||
    { echo "$0: run failed: pc $pc progress $prog_mode p $p" >&2; cat "$tmp/out" >&2; exit 1; }
  awk -F, -v pc="$pc" -v pr="$prog_mode" -v p="$p" -v h="$h" 'NR > 1 { printf "%s,%s,%s,%s,%s,%s,%s\n", pc, pr, p, $7, $9, $12, h }' "$tmp/run.csv"
}

echo "pc,progress,nodes,method,median_ms,vs_bcgs,halo" > "$csv"
for pc in $pcs; do
  point "$pc" async 0 none >> "$csv"
  for h in $halo; do
    for pr in $progress; do
      for p in $nodes; do point "$pc" "$pr" "$p" "$h" >> "$csv"; done
    done
  done
done

{
  echo "# $(date '+%Y-%m-%d %H:%M:%S %Z'); nproc $(nproc); load average $(cut -d' ' -f1-3 /proc/loadavg); command: $(rel "$0") $(rel "$lib") $(rel "$prog") -n $n -its $its -runs $runs -nodes \"$nodes\" -pcs \"$pcs\" -progress \"$progress\" -halo \"$halo\""
  echo "# 7-point 3D Laplacian n = $n ($((n * n * n)) unknowns, $((n * n * n / 2)) per rank), 2 real ranks, $its iterations per solve, median of $runs rounds"
  echo "# p > 0: global reductions delayed by Krasnopolsky's T_G(p, l), and with halo krasnopolsky every halo receive by his T_L(l) (simulated, a planning model); p = 0 (here): this machine"
  echo "# entries: speedup over bcgs = bcgs time / method time per iteration, median of the per-round ratios (> 1: faster than bcgs);"
  echo "# bcgs: its time per iteration in ms; best: the method with the largest speedup (Krasnopolsky's R = 1)"
  awk -F, 'NR > 1 {
      key = $1 SUBSEP $2 SUBSEP $3 SUBSEP ($3 == 0 ? "-" : $7)
      if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
      if (!($4 in mseen)) { mseen[$4] = 1; ms[++nm] = $4 }
      v[key, $4] = $6; t[key, $4] = $5
    }
    END {
      last = ""
      for (k = 1; k <= nk; k++) {
        split(keys[k], a, SUBSEP)
        grp = a[1] SUBSEP a[2] SUBSEP a[4]
        if (a[3] == 0) { grp = a[1] SUBSEP "-" }
        if (grp != last) {
          printf "\nPC %s, progress %s%s\n%7s %9s", a[1], a[3] == 0 ? "- (no simulation)" : a[2], a[3] == 0 ? "" : a[4] == "none" ? ", reductions only delayed" : ", reductions + halo (" a[4] ") delayed", "p", "bcgs ms"
          for (m = 1; m <= nm; m++) if (ms[m] != "bcgs") printf " %11s", ms[m]
          printf "  %s\n", "best"
          last = grp
        }
        printf "%7s %9.3f", a[3] == 0 ? "here" : a[3], t[keys[k], "bcgs"]
        best = "bcgs"; bs = 1
        for (m = 1; m <= nm; m++) {
          if (ms[m] != "bcgs" && v[keys[k], ms[m]] > 0 && 1 / v[keys[k], ms[m]] > bs) { bs = 1 / v[keys[k], ms[m]]; best = ms[m] }
          if (ms[m] != "bcgs") printf " %10.2fx", (v[keys[k], ms[m]] > 0 ? 1 / v[keys[k], ms[m]] : 0)
        }
        printf "  %s\n", best
      }
    }' "$csv"
} | tee "$out"

plot methodmap "$csv" "$png" "n = $n, $((n * n * n / 2)) unknowns per rank"
