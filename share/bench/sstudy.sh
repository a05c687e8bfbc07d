#!/bin/bash
# The s-study of cabicgstab, in two parts.
# 1. Iterations to rtol 1e-10 and the final true relative residual ||b - A x|| / ||b|| against s = 1, 2, 4, 6, 8, 10, 12,
#    16, 24, 32 for each basis (monomial, newton, chebyshev), with PETSc's bcgs as the reference, on (a) the 3D Poisson
#    problem (7-point, Dirichlet), (b) miniGMG's variable-coefficient Helmholtz problem of williams2014 (a = b = 0.9,
#    periodic; single level, no multigrid), (c) upwind convection-diffusion (cell Peclet 1), all 64^3 with PC jacobi
#    (right preconditioning, unpreconditioned norm, for bcgs too), on 2 MPI ranks.
# 2. The regression matrix of the suite (tests/cabicgstab_large_s.c) with s up to 32: the 2D and 3D Laplacian, the Helmholtz problem,
#    convection-diffusion at cell Peclet 0.5 (2D) and 2 (3D), each with PC jacobi and bjacobi, on 1, 2 and 4 ranks, the
#    Newton and Chebyshev bases at s = 4 .. 16, 24, 32, rtol 1e-8: iterations against bcgs's of the same run, the
#    targets 1.2x (s <= 16) and 1.3x (s = 24, 32). MATRIX=0 skips it (the quick mode skips it unless MATRIX=1).
#   share/bench/sstudy.sh PROGRAM [options passed to every run, e.g. -ksp_cabicgstab_telescope 0]
#   environment: QUICK=1 or BENCH_QUICK=1 (32^3 grids instead of 64^3, a few minutes; writes to results/quick/), RANKS=n (default 2), N=cells per direction,
#                S_LIST=1,2,4 (the s values), BASES=monomial,newton (the bases), PECLET=1
# Writes share/bench/results/sstudy.txt (the tables, with date, machine and command, and a summary against bcgs),
# sstudy.csv (every number), sstudy-matrix.{txt,csv} (part 2) and, when python3 and matplotlib are there, sstudy.png
# (share/bench/plot.py sstudy: a column per problem, iterations and true residual against s, a line per basis, bcgs dashed). A basis the library does not know yet is listed
# as skipped. cabicgstab solves stop at 4x bcgs's iterations (-max_it_factor).
set -eu -o pipefail

. "$(dirname "$0")/common.sh"
need_program "PROGRAM [options]   (PROGRAM: the built share/bench/sstudy.c, e.g. build/bench/sstudy; make bench-sstudy builds and runs it)" "$@"
prog=$1
shift
outputs sstudy

ranks=${RANKS:-2}
if [ -n "$quick" ]; then
  n=${N:-32}
  slist=${S_LIST:-1,2,4,6,8,10,12,16,24,32}
  mode="quick (QUICK=1)"
else
  n=${N:-64}
  slist=${S_LIST:-1,2,4,6,8,10,12,16,24,32}
  mode=full
fi
bases=${BASES:-monomial,newton,chebyshev}
peclet=${PECLET:-1}

mpi_flags "$ranks"
lib=$root/lib/libcakrylov.so
# One BLAS thread per rank, however the ranks are bound: at large s the iteration counts depend on rounding, and a
# threaded OpenBLAS rounds the Gram matrix differently (Newton s = 8 on the 2D convection-diffusion problem of part 2,
# 1 rank: 120 iterations with one thread, 121 with two)
export OPENBLAS_NUM_THREADS=1
start=$(date +%s)
{
  echo "# cabicgstab s-study, $mode: $(date '+%Y-%m-%d %H:%M:%S %Z'); $(machine)"
  envs=
  for v in QUICK RANKS N S_LIST BASES PECLET; do
    if [ -n "${!v:-}" ]; then envs="$envs$v=${!v} "; fi
  done
  echo "# command: $envs$(rel "$0") $(rel "$prog") $*   (make bench-sstudy runs it; QUICK=1 for the quick mode)"
  src=$root/src/ksp/cabicgstab/cabicgstab.c
  echo "# library: $(rel "$lib") built $(date -r "$lib" '+%Y-%m-%d %H:%M:%S' 2>/dev/null); git $(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown); cabicgstab.c sha256 $(sha256sum "$src" 2>/dev/null | cut -c1-12)"
  echo "# every solve: a fresh KSP, zero initial guess, PC jacobi on the right, unpreconditioned norm (bcgs too), rtol 1e-10, atol 0;"
  echo "# its: iterations (cabicgstab: inner iterations); /bcgs: its / bcgs's its; cnv: the solve claimed convergence;"
  echo "# true res: ||b - A x|| / ||b|| computed after the solve; recur res: the norm the solver reported / ||b||; outer: outer"
  echo "# iterations (Gram matrices), ends: outer iterations ended early (q or r not resolved by the Gram matrix), repl: residual"
  echo "# replacements, s_min: the smallest s_k adaptive s allowed (all from KSPCABiCGStabGetStatistics());"
  echo "# reduct: every MPI_Allreduce/Iallreduce in KSPSetUp() + KSPSolve(), counted by"
  echo "# an MPI profiling-interface wrapper (PETSc's own and the spectrum estimate's included; '-' on 1 rank); time: KSPSetUp() +"
  echo "# KSPSolve() on this machine, indicative only. '<- claimed ...' flags a claimed convergence whose true residual is > 10 rtol."
  echo "# cabicgstab solves stop at 4x bcgs's iterations (DIVERGED_ITS then means: not converged within 4x)."
  append=
  for problem in poisson helmholtz convdiff; do
    echo
    echo "\$ mpiexec -n $ranks ${mpiflags[*]} $(rel "$prog") -problem $problem -n $n -peclet $peclet -s_list $slist -bases $bases -view_s 8 -csv $(rel "$csv") $append $*"
    mpiexec -n "$ranks" "${mpiflags[@]}" "$prog" -problem "$problem" -n "$n" -peclet "$peclet" -s_list "$slist" -bases "$bases" -view_s 8 -csv "$csv" $append "$@" 2>&1
    append=-csv_append
  done
  echo
  echo "# wall time of the study: $(( $(date +%s) - start )) s"
} | tee "$out" || { echo "$0: a run failed (output so far in $out)" >&2; exit 1; }

# The summary against bcgs (appended to the txt), and the plot
python3 - "$csv" << 'EOF' | tee -a "$out"
import csv
import sys

src = sys.argv[1]
with open(src, newline="") as f:
    rows = list(csv.DictReader(f))
problems = list(dict.fromkeys(r["problem"] for r in rows))
bases = list(dict.fromkeys(r["basis"] for r in rows if r["method"] == "cabicgstab"))
ref = {r["problem"]: r for r in rows if r["method"] == "bcgs"}
rtol = float(rows[0]["rtol"])

print()
print("# summary against bcgs: 'ok' = converged (true residual <= 10 rtol), within 1.2x bcgs's iterations (1.3x at s > 16) and a true")
print("# residual within 10x of bcgs's; otherwise what fails: its = iterations ratio above that, res = true residual > 10x bcgs's (or > 10 rtol),")
print("# DIV = not converged")
print("%-10s %-10s %s %s" % ("problem", "basis", "".join("%-8s" % ("s=%d" % s) for s in sorted({int(r["s"]) for r in rows if r["method"] == "cabicgstab"})), "(every s up to)"))
for p in problems:
    b = ref[p]
    for basis in bases:
        cells, upto, last = [], None, 0
        for r in sorted((r for r in rows if r["problem"] == p and r["basis"] == basis), key=lambda r: int(r["s"])):
            ratio = int(r["its"]) / max(int(b["its"]), 1)
            tr, trb = float(r["true_relres"]), float(b["true_relres"])
            fails = []
            if not int(r["claimed_converged"]):
                fails.append("DIV")
            else:
                if ratio > (1.2 if int(r["s"]) <= 16 else 1.3):
                    fails.append("its")
                if tr > 10 * trb or tr > 10 * rtol:
                    fails.append("res")
            cells.append("%-8s" % ("ok" if not fails else "+".join(fails)))
            if fails and upto is None:
                upto = last
            last = int(r["s"])
        if upto is None:
            upto = last
        print("%-10s %-10s %s %s" % (p, basis, "".join(cells), "ok up to s = %s" % upto if upto else "not ok at the smallest s"))
    print("%-10s %-10s (bcgs: %s iterations, true residual %.2e)" % (p, "", b["its"], float(b["true_relres"])))
EOF
plot sstudy "$csv" "$png"
echo "results: $(rel "$out"), $(rel "$csv")"

# 2. The regression matrix with s up to 32 (the suite's grids, so a few minutes)
[ "${MATRIX:-${quick:+0}}" = 0 ] && exit 0 # MATRIX=0 skips it; the quick mode too unless MATRIX=1
mout=$results/sstudy-matrix.txt
mcsv=$results/sstudy-matrix.csv
mslist=4,6,8,10,12,16,24,32
rm -f "$mcsv"
{
  echo "# cabicgstab regression matrix with s up to 32: $(date '+%Y-%m-%d %H:%M:%S %Z'); $(machine)"
  echo "# command: $(rel "$0") $(rel "$prog") $*; library git $(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown)"
  echo "# the problems and PCs of tests/cabicgstab_large_s.c, bases newton and chebyshev, s = $mslist, rtol 1e-8, PC on the right;"
  echo "# a cell: iterations / bcgs's iterations (same problem, PC and ranks), '*' over the target (1.2 for s <= 16, 1.3 above),"
  echo "# '!' not converged or true residual > 1.01 rtol"
} > "$mout"
mpi_flags 4 # up to 4 ranks
for problem in "poisson -dim 2 -n 64" "poisson -dim 3 -n 24" "helmholtz -dim 3 -n 24" "convdiff -dim 2 -n 64 -peclet 0.5" "convdiff -dim 3 -n 24 -peclet 2"; do
  label=$(echo "$problem" | sed -E 's/ -dim ([23])/ \1D/; s/ -n ([0-9]+)/ n=\1/; s/ -peclet / Pe=/')
  for pc in jacobi bjacobi; do
    for np in 1 2 4; do
      part=$results/.sstudy-matrix-part.csv
      mpiexec -n "$np" "${mpiflags[@]}" "$prog" -problem $problem -pc_type "$pc" -s_list "$mslist" -bases newton,chebyshev \
        -ksp_rtol 1e-8 -csv "$part" "$@" > /dev/null 2>&1 || { echo "$0: matrix run failed: -problem $problem -pc_type $pc on $np ranks" >&2; exit 1; }
      [ -f "$mcsv" ] || head -n 1 "$part" > "$mcsv"
      tail -n +2 "$part" | sed "s/^[a-z]*,/$label,/" >> "$mcsv" # the problem's label with its dimension and Peclet number
      rm -f "$part"
    done
  done
done
python3 - "$mcsv" << 'EOF' | tee -a "$mout"
import csv
import sys

rows = list(csv.DictReader(open(sys.argv[1], newline="")))
svals = sorted({int(r["s"]) for r in rows if r["method"] == "cabicgstab"})
print("%-28s %-8s %5s %-9s %s  %s" % ("problem", "pc", "ranks", "basis", " ".join("%6s" % ("s=%d" % s) for s in svals), "max"))
worst = {16: 0.0, 32: 0.0}
for key in dict.fromkeys((r["problem"], r["pc"], r["ranks"]) for r in rows):
    ref = next(r for r in rows if (r["problem"], r["pc"], r["ranks"]) == key and r["method"] == "bcgs")
    for basis in ("newton", "chebyshev"):
        cells, mx = [], 0.0
        for s in svals:
            r = next(r for r in rows if (r["problem"], r["pc"], r["ranks"]) == key and r["basis"] == basis and int(r["s"]) == s)
            ratio = int(r["its"]) / max(int(ref["its"]), 1)
            bad = not int(r["claimed_converged"]) or float(r["true_relres"]) > 1.01 * float(r["rtol"])
            over = ratio > (1.2 if s <= 16 else 1.3)
            worst[16 if s <= 16 else 32] = max(worst[16 if s <= 16 else 32], ratio)
            cells.append("%5.2f%s" % (ratio, "!" if bad else ("*" if over else " ")))
            mx = max(mx, ratio)
        print("%-28s %-8s %5s %-9s %s  %.2f" % (key[0], key[1], key[2], basis, " ".join(cells), mx))
print("largest ratio to bcgs: %.2f at s <= 16 (target 1.2), %.2f at s = 24, 32 (target 1.3)" % (worst[16], worst[32]))
EOF
echo "results: $(rel "$mout"), $(rel "$mcsv")"
