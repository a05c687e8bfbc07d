#!/bin/bash
# Validation of the cakpmpi library (make pmpi-check): share/bench/cakpmpi/check.sh LIB VALIDATE [--quick] [--reps N] [--no-timing]
#   1. counts: share/bench/cakpmpi/validate.c makes a known set of MPI calls inside MPI_Pcontrol(1) ... MPI_Pcontrol(0)
#      (and others that must not count); every field it expects must be in the library's summary line of every rank,
#      with and without the simulator (every model and progress mode, halo delays on); request semantics and results
#      of every completion function (Test/Wait/...all/any/some, Request_get_status) on simulated requests are checked;
#      the summary's totals line, CAKPMPI_OUTPUT with %r, MPI_Pcontrol, and the error on a bad CAKPMPI_MODEL.
#   2. the model: the library's sum of T_G (sim_model_s) over the counted reductions against eq. (10)-(11) of
#      Krasnopolsky and the Hockney tree, computed here with the papers' constants.
#   3. timing: measured against modelled times (validate timing) for each model, (p, l) and progress mode: within 5 %
#      for modelled times >= 10 us (1 us below). The real cost of a reduction that nothing progressed during the work
#      (measured first without a model: validate real) is part of the prediction where it applies; a configuration
#      that fails is run a second time (timing noise from other processes) and the second run counts.
# Prints one line per check and "pmpi-check: N passed, N failed"; exits non-zero on any failure. 2 MPI ranks.
set -eu
if [ $# -lt 2 ] || [ ! -f "$1" ] || [ ! -x "$2" ]; then
  echo "usage: $0 LIBCAKPMPI.so VALIDATE [--quick] [--reps N] [--no-timing]   (make pmpi-check builds and runs it)" >&2
  exit 2
fi
lib=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
val=$2
. "$(dirname "$0")/../common.sh" # OpenMPI as root
reps=20
quick=0
notiming=0
shift 2
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1; reps=7 ;;
    --reps) reps=$2; shift ;;
    --no-timing) notiming=1 ;;
    *) echo "$0: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
unset CAKPMPI_MODEL CAKPMPI_PROGRESS CAKPMPI_NODES CAKPMPI_P CAKPMPI_RANKS_PER_NODE CAKPMPI_C0 CAKPMPI_C1 CAKPMPI_N0 \
  CAKPMPI_N1 CAKPMPI_T0 CAKPMPI_RINF CAKPMPI_ROUNDS CAKPMPI_COMM_SCALE CAKPMPI_HALO CAKPMPI_HALO_US CAKPMPI_PAUSED \
  CAKPMPI_OUTPUT CAKPMPI_VERBOSE
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
mpirun2() { timeout 300 mpiexec --oversubscribe -n 2 -x LD_PRELOAD="$lib" "$@"; }

echo "== cakpmpi: $lib ($(mpiexec --version 2>&1 | head -n 1); $(date '+%Y-%m-%d %H:%M %Z'), $(hostname), nproc $(nproc))"
echo "== 1. exact counts (validate counts: every expected field, every rank) and request semantics"
configs=(
  "CAKPMPI_MODEL=none"
  "CAKPMPI_MODEL=krasnopolsky CAKPMPI_NODES=64"
  "CAKPMPI_MODEL=krasnopolsky CAKPMPI_NODES=64 CAKPMPI_PROGRESS=none"
  "CAKPMPI_MODEL=hockney CAKPMPI_P=64 CAKPMPI_PROGRESS=anycall CAKPMPI_HALO_US=20"
  "CAKPMPI_MODEL=none CAKPMPI_HALO=krasnopolsky"
)
for cfg in "${configs[@]}"; do
  out=$tmp/summary.txt
  rm -f "$out"
  rc=0
  (export $cfg CAKPMPI_OUTPUT="$out"; mpirun2 "$val" counts) > "$tmp/stdout.txt" 2> "$tmp/stderr.txt" || rc=$?
  if [ $rc -ne 0 ] || ! grep -q 'all ok' "$tmp/stdout.txt"; then
    bad "counts [$cfg]: request semantics or results (rc $rc): $(grep -h FAIL "$tmp/stderr.txt" | head -n 3)"
    continue
  fi
  ok "counts [$cfg]: request semantics and results ($(sed -n 's/.*: \([0-9]* checks\).*/\1/p' "$tmp/stdout.txt"))"
  # every key=value of each rank's expect line must be in that rank's summary line
  msg=$(awk '
    FNR == NR && $1 == "cakpmpi-expect" { split($2, a, "="); r = a[2]; for (i = 3; i <= NF; i++) want[r, ++n[r]] = $i; next }
    FNR != NR && $1 == "cakpmpi" && $2 ~ /^rank=/ { split($2, a, "="); r = a[2]; for (i = 3; i <= NF; i++) have[r, $i] = 1; seen[r] = 1 }
    END {
      for (r in n) {
        if (!(r in seen)) { printf "no summary line for rank %s; ", r; bad = 1; continue }
        for (i = 1; i <= n[r]; i++) if (!((r, want[r, i]) in have)) { printf "rank %s expected %s; ", r, want[r, i]; bad = 1 }
      }
      if (!bad) { for (r in n) k++; printf "OK %d ranks x %d fields", k, n[0] }
    }' "$tmp/stdout.txt" "$out")
  case $msg in
    OK*) ok "counts [$cfg]: ${msg#OK } equal (allreduce, iallreduce, bytes, collectives, p2p, starts, test, wait)" ;;
    *) bad "counts [$cfg]: $msg" ;;
  esac
  # the totals line: sums and maxima over the ranks
  msg=$(awk '$1 == "cakpmpi" && $2 ~ /^rank=/ { for (i = 3; i <= NF; i++) { split($i, a, "="); if (a[1] != "ranks" && a[2] ~ /^[0-9]+$/) { s[a[1]] += a[2]; if (a[2] > m[a[1]]) m[a[1]] = a[2] } } }
    $1 == "cakpmpi" && $2 == "total" { for (i = 3; i <= NF; i++) { split($i, a, "="); t[a[1]] = a[2] } }
    END { for (k in s) { if (t[k "_sum"] != s[k] || t[k "_max"] != m[k]) { printf "%s: sum %s/%s max %s/%s; ", k, t[k "_sum"], s[k], t[k "_max"], m[k]; bad = 1 } } if (!bad) printf "OK" }' "$out")
  [ "$msg" = OK ] && ok "counts [$cfg]: totals line = sum and max of the rank lines" || bad "counts [$cfg]: totals line: $msg"
  # the simulator's model: its sum of T_G over the counted reductions (7 MPI_Allreduce of 8k bytes, k = 1..7, 9
  # MPI_Iallreduce of 12 bytes, on all 2 ranks = the whole simulated machine) against the papers' formulas
  case $cfg in
    *krasnopolsky*NODES=64*)
      want=$(awk 'function T(l) { return 3.5e-6 + 1.7e-6 * l^0.21 * 64^0.54 } BEGIN { s = 9 * T(12); for (k = 1; k <= 7; k++) s += T(8 * k); printf "%.6g", s }') ;;
    *hockney*P=64*)
      want=$(awk 'function T(l) { return 6 * (2e-6 + l / 1e10) } BEGIN { s = 9 * T(12); for (k = 1; k <= 7; k++) s += T(8 * k); printf "%.6g", s }') ;;
    *) want= ;;
  esac
  if [ -n "$want" ]; then
    have=$(sed -n 's/^cakpmpi rank=0 .* sim_model_s=\([^ ]*\) .*/\1/p' "$out")
    if awk -v a="$have" -v b="$want" 'BEGIN { exit !(a > 0 && (a - b) / b < 1e-4 && (b - a) / b < 1e-4) }'; then
      ok "model [$cfg]: library's sum of T_G over the 16 reductions $have s = the paper's formula $want s"
    else
      bad "model [$cfg]: library's sum of T_G $have s, the paper's formula gives $want s"
    fi
  fi
done

# CAKPMPI_OUTPUT with %r: one file per rank, rank 0's also with the totals; CAKPMPI_PAUSED=1: the MPI_Barrier that
# validate makes before its first MPI_Pcontrol is not counted (1 barrier, in the region, instead of 2)
rm -f "$tmp"/per.*.txt
CAKPMPI_OUTPUT="$tmp/per.%r.txt" CAKPMPI_PAUSED=1 mpirun2 "$val" counts > /dev/null 2>&1 || true # judged by its files
if [ -f "$tmp/per.0.txt" ] && [ -f "$tmp/per.1.txt" ] && grep -q '^cakpmpi rank=1 .* allreduce=7 .* barrier=1 ' "$tmp/per.1.txt" &&
  grep -q '^cakpmpi total ' "$tmp/per.0.txt" && ! grep -q '^cakpmpi total ' "$tmp/per.1.txt"; then
  ok "CAKPMPI_OUTPUT=per.%r.txt: one file per rank, totals in rank 0's; CAKPMPI_PAUSED=1: nothing counted before MPI_Pcontrol(1)"
else
  bad "CAKPMPI_OUTPUT with %r / CAKPMPI_PAUSED"
fi
if CAKPMPI_MODEL=bogus mpirun2 "$val" counts > "$tmp/bogus.txt" 2>&1; then
  bad "CAKPMPI_MODEL=bogus: the run should abort"
elif grep -q 'unknown CAKPMPI_MODEL=bogus' "$tmp/bogus.txt"; then
  ok "CAKPMPI_MODEL=bogus: aborts with 'unknown CAKPMPI_MODEL=bogus'"
else
  bad "CAKPMPI_MODEL=bogus: no error message"
fi

if [ $notiming -eq 1 ]; then
  echo "pmpi-check: $pass passed, $fail failed (timing not checked: --no-timing)"
  [ $fail -eq 0 ]
  exit
fi
echo "== 2. timing: measured against modelled (validate timing; us; median of $reps, max over ranks)"
# The simulator includes the real operation's cost: a real MPI_Iallreduce that nothing progressed during the work
# still needs some time in MPI_Wait. Measured here without a model, it is added to the predictions where it applies.
real=$(mpirun2 "$val" real -reps "$reps" -bytes 8,64,2048,8192 2> /dev/null | tail -n 1) || real= # then every timing case fails
echo "real cost of MPI_Iallreduce left for MPI_Wait after 50 us of work, no model (bytes:us): $real"
timing() { # label, env, validate options; a configuration with failures is run once more (timing noise)
  local label=$1 cfg=$2 rc try note=
  shift 2
  echo "-- $label [$cfg]"
  for try in 1 2; do
    rc=0
    (export $cfg; mpirun2 "$val" timing -reps "$reps" -real "$real" "$@") > "$tmp/timing.txt" 2> "$tmp/timing.err" || rc=$?
    grep -q '^FAIL ' "$tmp/timing.txt" || [ $rc -ne 0 ] || break
    [ $try -eq 1 ] && note="   (failed once: $(grep -c '^FAIL ' "$tmp/timing.txt") case(s); run again, this is the second run)"
  done
  [ -n "$note" ] && echo "$note"
  sed -n '2,$p' "$tmp/timing.txt" | grep -v '^timing:' | grep -v '^ *case' | sed 's/^/   /'
  local p f
  p=$(grep -c '^ok ' "$tmp/timing.txt") || true # grep -c prints 0 and fails when nothing matches
  f=$(grep -c '^FAIL ' "$tmp/timing.txt") || true
  pass=$((pass + p))
  fail=$((fail + f))
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then bad "$label: validate timing exited with $rc: $(head -c 300 "$tmp/timing.err")"; fi
}
timing "Krasnopolsky eq. (10), async progress" "CAKPMPI_MODEL=krasnopolsky CAKPMPI_NODES=64" -bytes 8
timing "Krasnopolsky eq. (10), async progress" "CAKPMPI_MODEL=krasnopolsky CAKPMPI_NODES=1024" -bytes 8,64
if [ $quick -eq 0 ]; then
  timing "Krasnopolsky eq. (10), async progress" "CAKPMPI_MODEL=krasnopolsky CAKPMPI_NODES=16384" -bytes 2048
  timing "Krasnopolsky, no asynchronous progress" "CAKPMPI_MODEL=krasnopolsky CAKPMPI_NODES=16384 CAKPMPI_PROGRESS=none" -bytes 2048
fi
timing "Krasnopolsky, no asynchronous progress" "CAKPMPI_MODEL=krasnopolsky CAKPMPI_NODES=1024 CAKPMPI_PROGRESS=none" -bytes 8
timing "Krasnopolsky, progress in any MPI call" "CAKPMPI_MODEL=krasnopolsky CAKPMPI_NODES=1024 CAKPMPI_PROGRESS=anycall" -bytes 8
timing "Hockney tree, async progress" "CAKPMPI_MODEL=hockney CAKPMPI_P=16" -bytes 8
timing "Hockney tree, async progress" "CAKPMPI_MODEL=hockney CAKPMPI_P=1024" -bytes 8
if [ $quick -eq 0 ]; then
  timing "Hockney tree, async progress" "CAKPMPI_MODEL=hockney CAKPMPI_P=65536" -bytes 8192
  timing "Hockney tree, Cray T3D constants (Hu 1995)" "CAKPMPI_MODEL=hockney CAKPMPI_P=256 CAKPMPI_T0=6e-6 CAKPMPI_RINF=1.2e8" -bytes 8,8192
fi
timing "Hockney tree, T3D, no asynchronous progress" "CAKPMPI_MODEL=hockney CAKPMPI_P=256 CAKPMPI_T0=6e-6 CAKPMPI_RINF=1.2e8 CAKPMPI_PROGRESS=none" -bytes 8
timing "halo receives, constant 50 us" "CAKPMPI_HALO_US=50"
timing "halo receives, Krasnopolsky eq. (8)" "CAKPMPI_HALO=krasnopolsky"

echo "pmpi-check: $pass passed, $fail failed"
[ $fail -eq 0 ]
