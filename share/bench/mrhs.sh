#!/bin/bash
# make bench-mrhs: multiple right-hand sides (share/bench/mrhs.c). Four parts, one after the other:
#   1. time per RHS-iteration of m separate bcgs KSPSolve()s, PETSc's KSPMatSolve() with bcgs, m separate pipebcgs
#      KSPSolve()s (the paper's baseline of its pipelined block), and KSPMatSolve() with bcgsm,
#      pipebcgsm, rbicgstab (their default layout: interleaved with these PCs) and bcgsm-dense (bcgsm in the dense
#      layout), per grid size, rank count (1, 2), PC (none, jacobi) and m (1, 4, 16); bytes per RHS-iteration
#      (a model) against the STREAM triad of the same run; the layout of one SpMV of m columns, dense vs MAIJ (PC none runs)
#   2. global reductions per iteration of every method and m, counted by cakpmpi (2 ranks, PC none, n = 30: solves of 12
#      minus solves of 4 iterations, only the timed solves counted: CAKPMPI_PAUSED=1 and mrhs.c's MPI_Pcontrol brackets)
#   3. the latency simulator (cakpmpi, CAKPMPI_MODEL=krasnopolsky, CAKPMPI_NODES=p): m = 16 systems at once against 16
#      single solves at simulated p nodes, 2 real ranks, n = 30 (not 32: with N = 2^15 the columns of a block lie a power of
#      two apart and PETSc's AIJ x dense kernel, which reads 4 of them at once, runs into cache-set conflicts): simulated
#      time per RHS-iteration, and Krasnopolsky's T_G(p, l) for the payload l = 8 m k bytes of each method's reductions
#      (k dots of m columns); every simulated point twice (column halo of mrhs-sim.csv): the halo receives delayed too
#      (CAKPMPI_HALO=krasnopolsky, Krasnopolsky's T_L(l), the default's first) and the reductions only (-halo "...")
#   4. the plot (share/bench/plot.py mrhs)
#   share/bench/mrhs.sh PROGRAM LIBCAKPMPI [-sizes "200 100"] [-its "4 8"] [-runs 3] [-m "1,4,16"] [-pcs "none jacobi"]
#                      [-ranks "1 2"] [-nodes "1024 4096 16384"] [-dim 3] [-problem poisson] [-halo "krasnopolsky none"]
# (-dim 2 -problem convdiff -sizes 1000 -its 30: the 2D 5-point convection-diffusion operator of issue 27, part 1 only;
# parts 2 and 3 always use the 3D Laplacian)
# -its gives the iterations per solve of each size, in the order of -sizes. QUICK=1 (make bench-mrhs QUICK=1): n = 48, 32,
# runs 2, nodes 1024 16384, a minute or two; its results go to results/quick/ unless BENCH_RESULTS says otherwise, and
# their first line says "quick mode".
# Memory: at n = 200, m = 16 one block of 16 columns is 1 GB; mrhs.c holds B, X and one method's KSP at a time (bcgsm: 8
# blocks, 2 more for x and b in the interleaved layout; pipebcgsm 15 + 2): up to about 20 GB, printed at the end of each run ("peak resident memory"). Runs never overlap.
# Writes share/bench/results/mrhs.txt (all output), mrhs.csv (one row per configuration and method), mrhs-layout.csv,
# mrhs-reductions.csv, mrhs-sim.csv and mrhs.png.
set -eu -o pipefail

. "$(dirname "$0")/common.sh"
need_program "PROGRAM LIBCAKPMPI [-sizes \"200 100\"] [-its \"4 8\"] [-runs 3] [-m \"1,4,16\"] [-pcs \"none jacobi\"] [-ranks \"1 2\"] [-nodes \"1024 4096 16384\"]" "$@"
prog=$1
if [ $# -lt 2 ] || [ ! -f "$2" ]; then
  echo "$0: the second argument must be build/bench/libcakpmpi.so (make pmpi)" >&2
  exit 2
fi
lib=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
shift 2
if [ -n "$quick" ]; then
  sizes="48 32" its="4 8" runs=2 m="1,4,16" pcs="none jacobi" ranks="1 2" nodes="1024 16384"
else
  sizes="200 100" its="4 8" runs=3 m="1,4,16" pcs="none jacobi" ranks="1 2" nodes="1024 4096 16384"
fi
dim=3 problem=poisson
halo="krasnopolsky none"
options "sizes its runs m pcs ranks nodes dim problem halo" "$@"
methods="bcgs-separate bcgs-matsolve pipebcgs-separate bcgsm bcgsm-dense bcgsm-inter pipebcgsm rbicgstab cabicgstab-separate cabicgstab cabicgstab-cheb8"
outputs mrhs
laycsv=$results/mrhs-layout.csv
redcsv=$results/mrhs-reductions.csv
simcsv=$results/mrhs-sim.csv
read -r -a itlist <<< "$its"
read -r -a sizelist <<< "$sizes"
if [ ${#itlist[@]} -ne ${#sizelist[@]} ]; then
  echo "$0: -its needs one iteration count per size of -sizes" >&2
  exit 2
fi

unset CAKPMPI_MODEL CAKPMPI_PROGRESS CAKPMPI_NODES CAKPMPI_PAUSED CAKPMPI_OUTPUT CAKPMPI_HALO CAKPMPI_HALO_US
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The duration on a quiet 2-core VM, calibrated on the full run of 2026-11-24 (1608 s): an iteration of one column costs
# about 26 ns per unknown on 1 rank, 16 on 2 (averaged over the methods, pipebcgs the slowest, and their start-up
# work); every (size, ranks, PC) runs every method (runs x its
# + 1) iterations of sum(m) columns and sets up for about N / 1e6 s; the layout study 33 SpMVs of sum(m > 1) columns (6 and
# 4 ns per unknown); the counts and the simulator (both halo models) about 50 s
msum=$(echo "$m" | tr ',' '\n' | awk '{ s += $1 } END { print s }')
mbig=$(echo "$m" | tr ',' '\n' | awk '$1 > 1 { s += $1 } END { print s + 0 }')
est=$(for i in "${!sizelist[@]}"; do for r in $ranks; do echo "${sizelist[$i]} ${itlist[$i]} $r"; done; done |
  awk -v runs="$runs" -v msum="$msum" -v mbig="$mbig" -v npc="$(echo $pcs | wc -w)" -v nmeth="$(echo $methods | wc -w)" '{
    N = $1 ^ 3; one = $3 == 1
    s += npc * (N * msum * nmeth * (runs * $2 + 1) * (one ? 26e-9 : 16e-9) + N / 1e6 + 2) + 33 * mbig * N * (one ? 6e-9 : 4e-9)
  } END { printf "%.0f", s + 50 }')
echo "# make bench-mrhs${quick:+ QUICK=1}: about $((est / 60)) min $((est % 60)) s on a quiet 2-core VM (longer under load); results in $(rel "$results")"
T0=$(date +%s)

rm -f "$csv" "$laycsv"
{
  echo "# $(date '+%Y-%m-%d %H:%M:%S %Z'); $(machine); load average $(cut -d' ' -f1-3 /proc/loadavg); command: $(rel "$0") $(rel "$prog") $(rel "$lib") -sizes \"$sizes\" -its \"$its\" -runs $runs -m \"$m\" -pcs \"$pcs\" -ranks \"$ranks\" -nodes \"$nodes\""
  if [ -n "$quick" ]; then echo "# quick mode (QUICK=1): small grids, few runs; a check that the benchmark works end to end, not its numbers"; fi
  echo
  for i in "${!sizelist[@]}"; do
    for r in $ranks; do
      mpi_flags "$r"
      layout=true
      for pc in $pcs; do
        echo "\$ mpiexec -n $r ${mpiflags[*]} $(rel "$prog") -dim $dim -problem $problem -n ${sizelist[$i]} -its ${itlist[$i]} -runs $runs -m $m -pc_type $pc -layout $layout"
        mpiexec -n "$r" "${mpiflags[@]}" "$prog" -dim "$dim" -problem "$problem" -n "${sizelist[$i]}" -its "${itlist[$i]}" -runs "$runs" -m "$m" -pc_type "$pc" \
          -layout "$layout" -csv "$csv" -layout_csv "$laycsv" 2>&1
        layout=false # the layout study does not depend on the PC: once per size and rank count
      done
    done
  done
} | tee "$out" || { echo "$0: a run failed (output so far in $(rel "$out"))" >&2; exit 1; }

# count METHOD M ITS -> "reductions bytes" on rank 0 within the timed solves
count() {
  rm -f "$tmp/cak"
  CAKPMPI_PAUSED=1 CAKPMPI_OUTPUT=$tmp/cak mpiexec -n 2 --bind-to core -x LD_PRELOAD="$lib" -x CAKPMPI_PAUSED -x CAKPMPI_OUTPUT \
    "$prog" -n 30 -pc_type none -m "$2" -its "$3" -runs 1 -stream false -layout false -methods "$1" > "$tmp/out" 2>&1 ||
    { echo "$0: count run failed: $1 m = $2, $3 iterations" >&2; cat "$tmp/out" >&2; return 1; }
  sed -n 's/^cakpmpi rank=0 .* allreduce=\([^ ]*\) allreduce_bytes=\([^ ]*\) iallreduce=\([^ ]*\) iallreduce_bytes=\([^ ]*\) .*/\1 \2 \3 \4/p' "$tmp/cak"
}
echo "method,m,reductions_per_it,reductions_per_rhs_it,bytes_per_reduction" > "$redcsv"
for meth in $methods; do
  for mm in $(echo "$m" | tr ',' ' '); do
    a=$(count "$meth" "$mm" 4) && b=$(count "$meth" "$mm" 12) || exit 1
    echo "$meth $mm $a $b" | awk '{ red = ($7 - $3) + ($9 - $5); printf "%s,%d,%.3f,%.3f,%.1f\n", $1, $2, red / 8, red / 8 / $2, red ? (($8 - $4) + ($10 - $6)) / red : 0 }' >> "$redcsv"
  done
done
{
  echo
  echo "Global reductions per iteration (all m systems advanced one iteration), counted by cakpmpi (share/bench/cakpmpi/cakpmpi.c) on"
  echo "rank 0 of 2, PC none, n = 30: solves of 12 minus solves of 4 iterations, only the timed solves counted"
  printf "%-17s %4s %14s %16s %11s\n" method m "per iteration" "per RHS-iteration" "bytes/red"
  awk -F, 'NR > 1 { printf "%-17s %4d %14.3f %16.3f %11.1f\n", $1, $2, $3, $4, $5 }' "$redcsv"
} | tee -a "$out"

# The simulator: m = 16 (the largest m) at once against separate solves, at simulated p nodes (p = 0: no simulation)
mmax=$(echo "$m" | tr ',' '\n' | sort -n | tail -n 1)
echo "nodes,method,path,median_ms,reductions_per_rhs_it,bytes_per_reduction,tg_us,model_reduction_ms,halo" > "$simcsv"
for ph in 0:none $(for h in $halo; do for p in $nodes; do echo "$p:$h"; done; done); do
  p=${ph%%:*} h=${ph#*:} model=krasnopolsky
  env=()
  [ "$p" -gt 0 ] || model=none
  [ "$h" = none ] || env=(-x CAKPMPI_HALO="$h")
  rm -f "$tmp/run.csv"
  CAKPMPI_MODEL=$model CAKPMPI_NODES=$((p > 0 ? p : 1)) CAKPMPI_OUTPUT=$tmp/cak mpiexec -n 2 --bind-to core -x LD_PRELOAD="$lib" \
    -x CAKPMPI_MODEL -x CAKPMPI_NODES -x CAKPMPI_OUTPUT "${env[@]}" "$prog" -n 30 -pc_type none -m "$mmax" -its 16 -runs "$runs" -stream false \
    -layout false -csv "$tmp/run.csv" > "$tmp/out" 2>&1 || { echo "$0: simulator run failed: p = $p" >&2; cat "$tmp/out" >&2; exit 1; }
  # T_G(p, l) = C0 + C1 l^0.21 p^0.54 (Krasnopolsky eqs. (10)-(11), cakpmpi's defaults) for each method's bytes per reduction
  awk -F, -v p="$p" -v mm="$mmax" -v h="$h" 'FNR == NR { if (FNR > 1 && $2 == mm) { red[$1] = $4; bytes[$1] = $5 } next }
    FNR > 1 { tg = p > 0 ? 3.5e-6 + 1.7e-6 * bytes[$8] ^ 0.21 * p ^ 0.54 : 0
              printf "%d,%s,%s,%s,%.3f,%.1f,%.2f,%.4f,%s\n", p, $8, $9, $10, red[$8], bytes[$8], 1e6 * tg, 1e3 * red[$8] * tg, h }' \
    "$redcsv" "$tmp/run.csv" >> "$simcsv"
done
{
  echo
  echo "Latency simulator (cakpmpi, CAKPMPI_MODEL=krasnopolsky: T_G(p, l) = 3.5e-6 + 1.7e-6 l^0.21 p^0.54 s per reduction of l bytes,"
  echo "a planning model, not a measurement of a large machine): m = $mmax systems, 2 real ranks, n = 30, PC none, 16 iterations per solve,"
  echo "median of $runs; p = 0: no simulation. time per RHS-iteration [ms]; reductions per RHS-iteration (counted above); l = bytes per"
  echo "reduction = 8 m k for k dots of m columns (8 k for the separate solves); T_G(p, l); model = reductions per RHS-iteration x T_G;"
  echo "charged: what the simulator delayed (reductions: the global reductions only; red.+halo: and every halo receive, Krasnopolsky's T_L(l))"
  printf "%6s %-10s %-17s %-7s %9s %9s %8s %9s %10s %10s\n" p charged method path "ms/RHS-it" "vs sep." "red/RHS" "l [B]" "T_G [us]" "model [ms]"
  awk -F, 'NR > 1 { if ($2 == "bcgs-separate") sep[$1, $9] = $4; rows[NR] = $0 }
    END { for (i = 2; i <= NR; i++) { split(rows[i], f, ","); printf "%6d %-10s %-17s %-7s %9.4f %8.2fx %8.3f %9.0f %10.1f %10.4f\n",
          f[1], f[1] == 0 ? "here" : f[9] == "none" ? "reductions" : "red.+halo", f[2], f[3], f[4], sep[f[1], f[9]] / f[4], f[5], f[6], f[7], f[8] } }' "$simcsv"
} | tee -a "$out"

plot mrhs "$csv" "$png" "$results"
T1=$(date +%s)
echo "# make bench-mrhs: $((T1 - T0)) s (estimated $est s)" | tee -a "$out"
echo "results: $(rel "$out"), $(rel "$csv"), $(rel "$laycsv"), $(rel "$redcsv"), $(rel "$simcsv")"
