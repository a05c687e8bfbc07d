#!/usr/bin/env bash
# The regression suite under the BLAS kernels of other processors. OpenBLAS picks its ddot, dnrm2, ... kernels by
# CPU when it loads, so the same binaries round differently on another machine; OPENBLAS_CORETYPE forces a kernel
# set and reproduces that machine here. `make test-portability` calls this.
#
#   share/test-portability.sh "<make command of the suite>" <log folder> <a PETSc program> <core type>...
#
# The make command runs the suite with `test` (search= selecting) and lists its tests with `test-list`.
# PORTABILITY=whole (the default) runs the whole suite under each kernel set in turn. PORTABILITY=shared shares the
# tests out instead, each test under one kernel set, so that all the sets cost one run of the suite (CI: the whole
# runs cost about 7 minutes each on 2 cores); test i (in the suite's order) runs under kernel set (i + h) mod k, h the
# commit's hash modulo the number k of kernel sets, so successive commits run each test under other sets.
#
# One summary line per kernel set (with the kernels OpenBLAS reports it loaded, read off the PETSc program, so a
# core type OpenBLAS does not know, or a PETSc without OpenBLAS, is not mistaken for a pass). Exits non-zero if a
# suite fails or a kernel set could not be forced. A kernel set whose instructions this processor lacks (SkylakeX's
# AVX-512 on an AVX2 machine: OpenBLAS would die with SIGILL) cannot be tested here: it is reported as skipped, with
# the missing instruction set, and does not fail the run. The kernel set OpenBLAS picks here unasked is skipped too:
# `make test` has run the suite with it.
set -u

# The instruction sets (flags of /proc/cpuinfo) that OpenBLAS's kernels of a core type execute
required_flags() {
  case $1 in
    SkylakeX | Cooperlake | SapphireRapids) echo avx512f avx512bw avx512vl avx512dq avx512cd ;;
    Haswell | Zen | Excavator) echo avx2 fma ;;
    Sandybridge | Bulldozer | Piledriver | Steamroller) echo avx ;;
    *) ;;
  esac
}
missing_flags() {
  local flags
  flags=" $(sed -n 's/^flags[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1) "
  [ "$flags" = "  " ] && return 0 # no /proc/cpuinfo: try the kernels and let a failure say so
  for f in $(required_flags "$1"); do case $flags in *" $f "*) ;; *) printf '%s ' "$f" ;; esac; done
}

suite=$1 logdir=$2 probe=$3
shift 3
mode=${PORTABILITY:-whole}
case $mode in whole | shared) ;; *) echo "PORTABILITY=$mode: whole or shared" >&2; exit 2 ;; esac
mkdir -p "$logdir"
status=0
native=$(OPENBLAS_VERBOSE=2 "$probe" -m 2 -n 2 2>&1 | sed -n 's/^Core: *//p' | head -n 1) # what OpenBLAS picks here unasked

# the kernel sets this processor can run, other than its own
cores=()
for core in "$@"; do
  lacking=$(missing_flags "$core")
  if [ -n "$lacking" ]; then
    printf 'OPENBLAS_CORETYPE=%-12s skipped: this processor lacks %sthat these kernels execute\n' "$core" "$lacking"
  elif [ "$core" = "$native" ]; then
    printf 'OPENBLAS_CORETYPE=%-12s skipped: these are the kernels OpenBLAS picks on this processor anyway, which make test runs\n' "$core"
  else
    cores+=("$core")
  fi
done
[ ${#cores[@]} -eq 0 ] && exit 0

# PORTABILITY=shared: test i (in the suite's order) runs under kernel set (i + offset) mod k
if [ "$mode" = shared ]; then
  read -r -a tests <<< "$($suite test-list)"
  [ ${#tests[@]} -gt 0 ] || { echo "test-portability: the suite lists no test" >&2; exit 1; }
  commit=$(git -C "$(dirname "$0")" rev-parse HEAD 2>/dev/null || echo 0)
  offset=$(( 16#${commit:0:7} % ${#cores[@]} ))
  echo "PORTABILITY=shared: ${#tests[@]} tests shared out among ${#cores[@]} kernel sets (commit ${commit:0:12}, offset $offset)"
fi

for c in "${!cores[@]}"; do
  core=${cores[$c]}
  log=$logdir/$core.log
  search=()
  if [ "$mode" = shared ]; then
    share=""
    for i in "${!tests[@]}"; do [ $(( (i + offset) % ${#cores[@]} )) -eq "$c" ] && share+="${tests[$i]} "; done
    search=("search=${share% }")
  fi
  loaded=$(OPENBLAS_CORETYPE=$core OPENBLAS_VERBOSE=2 "$probe" -m 2 -n 2 2>&1 | sed -n 's/^Core: *//p' | head -n 1)
  start=$SECONDS
  OPENBLAS_CORETYPE=$core $suite test "${search[@]}" > "$log" 2>&1
  rc=$?
  summary=$(grep -E '^tests: ' "$log" | tail -n 1)
  printf 'OPENBLAS_CORETYPE=%-12s kernels loaded: %-12s %s (%d s, log %s)\n' "$core" "${loaded:-unknown}" "${summary:-no summary}" $((SECONDS - start)) "$log"
  if [ "$rc" -ne 0 ]; then
    status=1
    grep -E '^ *not ok' "$log" | sort -u | sed 's/^/    /'
  fi
  if [ "$loaded" != "$core" ]; then
    status=1
    echo "    OpenBLAS did not load the $core kernels: is the BLAS of PETSc OpenBLAS (Debian: libopenblas0)?"
  fi
done
exit $status
