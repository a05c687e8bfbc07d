#!/bin/bash
# The s-study of cabicgstab, in two parts.
# 1. Iterations to rtol 1e-10 and the final true relative residual ||b - A x|| / ||b|| against s = 1, 2, 4, 6, 8, 10, 12,
#    16, 24, 32 for each basis (monomial, newton, chebyshev), with PETSc's bcgs as the reference, on (a) the 3D Poisson
#    problem (7-point, Dirichlet), (b) miniGMG's variable-coefficient Helmholtz problem of williams2014 (a = b = 0.9,
#    periodic; single level, no multigrid), (c) upwind convection-diffusion (cell Peclet 1), all 64^3 with PC jacobi
#    (right preconditioning, unpreconditioned norm, for bcgs too), on 2 MPI ranks.
# 2. The regression matrix of the suite (tests/ex5.c) with s up to 32: the 2D and 3D Laplacian, the Helmholtz problem,
#    convection-diffusion at cell Peclet 0.5 (2D) and 2 (3D), each with PC jacobi and bjacobi, on 1, 2 and 4 ranks, the
#    Newton and Chebyshev bases at s = 4 .. 16, 24, 32, rtol 1e-8: iterations against bcgs's of the same run, the
#    targets 1.2x (s <= 16) and 1.3x (s = 24, 32). MATRIX=0 skips it.
#   share/bench/sstudy.sh PROGRAM [options passed to every run, e.g. -ksp_cabicgstab_telescope 0]
#   environment: QUICK=1 or BENCH_QUICK=1 (32^3 grids instead of 64^3, under a minute; writes sstudy-quick.*), RANKS=n (default 2), N=cells per direction,
#                S_LIST=1,2,4 (the s values), BASES=monomial,newton (the bases), PECLET=1
# Writes share/bench/results/sstudy.txt (the tables, with date, machine and command, and a summary against bcgs),
# sstudy.csv (every number) and, when python3 and matplotlib are there, sstudy.png (a column per problem: iterations
# against s and true residual against s, a line per basis, bcgs dashed). A basis the library does not know yet is listed
# as skipped. cabicgstab solves stop at 4x bcgs's iterations (-max_it_factor).
set -o pipefail

if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 PROGRAM [options]   (PROGRAM: the built share/bench/sstudy.c, e.g. build/bench/sstudy; make bench-sstudy builds and runs it)" >&2
  exit 1
fi
prog=$1
shift

here=$(cd "$(dirname "$0")" && pwd)
results=$here/results
mkdir -p "$results"
QUICK=${QUICK:-$BENCH_QUICK} # make bench's spelling works too
[ "$QUICK" = 0 ] && QUICK=
name=sstudy
[ "${QUICK:-0}" != 0 ] && name=sstudy-quick # the quick mode does not overwrite the full study's results
out=$results/$name.txt
csv=$results/$name.csv
png=$results/$name.png

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

ranks=${RANKS:-2}
if [ "${QUICK:-0}" != 0 ]; then
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

cores=$(nproc)
cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
mpi=$(mpiexec --version 2>&1 | head -n 1)
flags=()
if echo "$mpi" | grep -q -E 'Open MPI|OpenRTE'; then
  if [ "$ranks" -le "$cores" ]; then flags=(--bind-to core); else flags=(--oversubscribe --bind-to none); fi
fi
lib=$(cd "$here/../.." && pwd)/lib/libcakrylov.so
start=$(date +%s)
{
  echo "# cabicgstab s-study, $mode: $(date '+%Y-%m-%d %H:%M:%S %Z'); host $(hostname); nproc $cores; CPU ${cpu:-unknown}; MPI: ${mpi:-unknown}"
  envs=
  for v in QUICK RANKS N S_LIST BASES PECLET; do [ -n "${!v}" ] && envs="$envs$v=${!v} "; done
  echo "# command: $envs$0 $prog $*   (make bench-sstudy runs it; QUICK=1 for the quick mode)"
  src=$here/../../src/ksp/cabicgstab/cabicgstab.c
  echo "# library: $lib built $(date -r "$lib" '+%Y-%m-%d %H:%M:%S' 2>/dev/null); git $(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown); cabicgstab.c sha256 $(sha256sum "$src" 2>/dev/null | cut -c1-12)"
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
    echo "\$ mpiexec -n $ranks ${flags[*]} $prog -problem $problem -n $n -peclet $peclet -s_list $slist -bases $bases -view_s 8 -csv $csv $append $*"
    mpiexec -n "$ranks" "${flags[@]}" "$prog" -problem "$problem" -n "$n" -peclet "$peclet" -s_list "$slist" -bases "$bases" -view_s 8 -csv "$csv" $append "$@" 2>&1 || exit 1
    append=-csv_append
  done
  echo
  echo "# wall time of the study: $(( $(date +%s) - start )) s"
} | tee "$out"
status=$?
if [ $status -ne 0 ]; then
  echo "$0: a run failed (output so far in $out)" >&2
  exit $status
fi

py=
for p in python3 /usr/bin/python3; do # the first python3 on PATH may be another one than the system's (pyenv)
  if command -v "$p" > /dev/null && "$p" -c 'import matplotlib' 2> /dev/null; then py=$p; break; fi
done
[ -n "$py" ] || py=$(command -v python3)
if [ -z "$py" ]; then
  echo "(no python3: no summary and no plot; the numbers are in $csv)"
  exit 0
fi

# The summary against bcgs (appended to the txt) and the plot
"$py" - "$csv" "$png" << 'EOF' | tee -a "$out"
import csv
import sys

src, dst = sys.argv[1], sys.argv[2]
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

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("(no matplotlib: no plot)")
    sys.exit(0)

fig, axes = plt.subplots(2, len(problems), figsize=(5.2 * len(problems), 7.6), sharex=True, squeeze=False)
styles = {"monomial": ("tab:red", "o"), "newton": ("tab:blue", "s"), "chebyshev": ("tab:green", "^")}
for j, p in enumerate(problems):
    b = ref[p]
    ax_its, ax_res = axes[0][j], axes[1][j]
    for basis in bases:
        rs = sorted((r for r in rows if r["problem"] == p and r["basis"] == basis), key=lambda r: int(r["s"]))
        s = [int(r["s"]) for r in rs]
        colour, marker = styles.get(basis, (None, "x"))
        ax_its.plot(s, [int(r["its"]) for r in rs], marker=marker, color=colour, label=basis)
        ax_res.semilogy(s, [float(r["true_relres"]) for r in rs], marker=marker, color=colour, label=basis)
        # solves that did not claim convergence: hollow markers
        bad = [r for r in rs if not int(r["claimed_converged"])]
        if bad:
            ax_its.plot([int(r["s"]) for r in bad], [int(r["its"]) for r in bad], linestyle="none", marker=marker, markersize=11, markerfacecolor="none", color=colour)
    ax_its.axhline(int(b["its"]), color="black", linestyle="--", label="bcgs")
    ax_its.axhline(1.2 * int(b["its"]), color="grey", linestyle=":", label="1.2x bcgs")
    ax_res.axhline(float(b["true_relres"]), color="black", linestyle="--", label="bcgs")
    ax_res.axhline(float(b["rtol"]), color="grey", linestyle=":", label="rtol")
    ax_its.set_title("%s %s^3, %s ranks" % (p, b["n"], b["ranks"]))
    ax_its.set_ylabel("iterations to rtol (capped at 4x bcgs)")
    ax_res.set_ylabel("true residual ||b - Ax|| / ||b||")
    ax_res.set_xlabel("s")
    for ax in (ax_its, ax_res):
        ax.grid(True, alpha=0.3)
    if j == 0:
        ax_its.legend(fontsize=8)
        ax_res.legend(fontsize=8)
fig.suptitle("cabicgstab: iterations and true residual vs s per basis, PC jacobi (hollow: not converged)")
fig.tight_layout()
fig.savefig(dst, dpi=110)
print("plot: " + dst)
EOF
echo "results: $out, $csv"

# 2. The regression matrix with s up to 32 (the suite's grids, so a few minutes)
[ "${MATRIX:-1}" = 0 ] && exit 0
mout=$results/sstudy-matrix.txt
mcsv=$results/sstudy-matrix.csv
mslist=4,6,8,10,12,16,24,32
rm -f "$mcsv"
{
  echo "# cabicgstab regression matrix with s up to 32: $(date '+%Y-%m-%d %H:%M:%S %Z'); host $(hostname); nproc $cores; CPU ${cpu:-unknown}"
  echo "# command: $0 $prog $*; library git $(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown)"
  echo "# the problems and PCs of tests/ex5.c, bases newton and chebyshev, s = $mslist, rtol 1e-8, PC on the right;"
  echo "# a cell: iterations / bcgs's iterations (same problem, PC and ranks), '*' over the target (1.2 for s <= 16, 1.3 above),"
  echo "# '!' not converged or true residual > 1.01 rtol"
} > "$mout"
mflags=()
echo "$mpi" | grep -q -E 'Open MPI|OpenRTE' && mflags=(--oversubscribe)
for problem in "poisson -dim 2 -n 64" "poisson -dim 3 -n 24" "helmholtz -dim 3 -n 24" "convdiff -dim 2 -n 64 -peclet 0.5" "convdiff -dim 3 -n 24 -peclet 2"; do
  label=$(echo "$problem" | sed -E 's/ -dim ([23])/ \1D/; s/ -n ([0-9]+)/ n=\1/; s/ -peclet / Pe=/')
  for pc in jacobi bjacobi; do
    for np in 1 2 4; do
      part=$results/.sstudy-matrix-part.csv
      mpiexec -n "$np" "${mflags[@]}" "$prog" -problem $problem -pc_type "$pc" -s_list "$mslist" -bases newton,chebyshev \
        -ksp_rtol 1e-8 -csv "$part" "$@" > /dev/null 2>&1 || { echo "$0: matrix run failed: -problem $problem -pc_type $pc on $np ranks" >&2; exit 1; }
      [ -f "$mcsv" ] || head -n 1 "$part" > "$mcsv"
      tail -n +2 "$part" | sed "s/^[a-z]*,/$label,/" >> "$mcsv" # the problem's label with its dimension and Peclet number
      rm -f "$part"
    done
  done
done
"$py" - "$mcsv" << 'EOF' | tee -a "$mout"
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
echo "results: $mout, $mcsv"
