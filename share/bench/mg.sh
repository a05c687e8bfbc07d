#!/usr/bin/env bash
# The tutorial's multigrid against what users would pick instead (issue 24, item 2): tutorials/ex1.c's problems (3D
# Poisson and miniGMG's Helmholtz problem, n^3 cells, 2 ranks) solved to rtol 1e-8 (unpreconditioned residual norm) by
#   gmg-cakrylov   the tutorial's GMG (KSPRICHARDSON + PCMG, SSOR smoothing, Q0 transfers) with the hook's default bottom
#   gmg-lean       the same GMG with -smoother chebyshev -ksp_type cg (Chebyshev/Jacobi smoothing on [0.3, 2], CG outer)
#   gmg-lean-bcgs  gmg-lean with a bcgs bottom
#   gmg-lean-s10   gmg-lean with the hook's Chebyshev bottom at a fixed s = 10 (-mg_coarse_ksp_cabicgstab_s 10: the
#                  policy before its s followed the bottom solves' iterations)
#   gmg-lean-sell  gmg-lean with the operators in PETSc's sliced ELLPACK format (-dm_mat_type sell)
#   gmg-fused      the GMG with this library's PCCHEBYJACOBI (-smoother chebyjacobi -ksp_type cg: KSPRICHARDSON hands its 2
#                  sweeps to the PC, one fused pass over the rows per Chebyshev step, on [0.4, 2])
#   gmg-fused-03   gmg-fused on gmg-lean's interval [0.3, 2]: the same polynomial as gmg-lean, so that the fused pass and
#                  the interval are measured apart
#   gmg-fused-auto gmg-fused with the autobcgs bottom (-bottom autobcgs: the hook hands autobcgs its interval, it chooses)
#   gmg-bcgs       the SSOR GMG with a bcgs bottom
#   gmg-redundant  the same with PETSc's default coarse solve (-bottom none: PCREDUNDANT LU)
#   pfmg-cg        CG + hypre's PFMG on a hypre structured matrix (-dm_mat_type hyprestruct)
#   boomeramg-cg   CG + hypre's BoomerAMG
#   gamg-cg        CG + PETSc's GAMG
# (MG_VARIANTS selects and orders them; any other name NAME is the GMG with -bottom NAME, e.g. autobcgs), on this machine
# and under the latency simulator (share/bench/cakpmpi: every global reduction delayed by Krasnopolsky's T_G(p, l) and every
# halo receive by his T_L(l); a planning model, not a large machine) at p simulated nodes. Per run: iterations (V-cycles or
# CG iterations), the setup (KSPSetUp + PCSetUp of -log_view; ex1 sets up before it solves) and the solve (KSPSolve) times,
# the global reductions and halo messages (point-to-point receives) of the solve per rank (cakpmpi, counting only between
# ex1's MPI_Pcontrol(1) and MPI_Pcontrol(0) around KSPSolve: hypre's own messages included), and, for the PCMG-based
# solvers (-pc_mg_log), the time split into smoothing (MGSmooth of the levels above the coarsest), residuals (MGResid),
# transfers (MGInterp: restriction and interpolation), bottom (MGSmooth Level 0: the coarse solve) and the rest (KSPSolve
# minus these: the outer Krylov method, or Richardson's residuals and norms). Runs alternate the variants; medians and
# spreads (max/min - 1) over the runs. MG_REPORT_ONLY=1 prints the tables again from an existing mg.csv; MG_OUTPUT=NAME
# writes NAME.txt/.csv/.png instead of mg.* (a study of some variants beside the full table).
#   share/bench/mg.sh PMPI_LIB EX1 [-problems "poisson helmholtz"] [-n "64"] [-nodes "0 64 256 1024 4096 16384 32768"]
#                     [-runs 3]
# Writes share/bench/results/mg.txt and mg.csv, and mg.png when matplotlib is there (share/bench/plot.py mg; make bench-mg;
# QUICK=1: n = 32, nodes 0 4096, 1 run).
set -eu -o pipefail
lib=$1 ex1=$2
shift 2
. "$(dirname "$0")/common.sh"
need_program "PMPI_LIB EX1 [-problems LIST] [-n LIST] [-nodes LIST] [-runs R]" "$ex1"
problems="poisson helmholtz" n=64 nodes="0 64 256 1024 4096 16384 32768" runs=3
[ -n "$quick" ] && n=32 nodes="0 4096" runs=1
options "problems n nodes runs" "$@"
outputs "${MG_OUTPUT:-mg}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
variants=${MG_VARIANTS:-gmg-cakrylov gmg-lean gmg-fused gmg-lean-bcgs gmg-bcgs gmg-redundant pfmg-cg boomeramg-cg gamg-cg}

variant_args() {
  case $1 in
    gmg-cakrylov) echo "-pc_mg_log" ;;
    gmg-lean) echo "-smoother chebyshev -ksp_type cg -pc_mg_log" ;;
    gmg-lean-bcgs) echo "-smoother chebyshev -ksp_type cg -bottom bcgs -pc_mg_log" ;;
    gmg-lean-s10) echo "-smoother chebyshev -ksp_type cg -mg_coarse_ksp_cabicgstab_s 10 -pc_mg_log" ;;
    gmg-lean-sell) echo "-smoother chebyshev -ksp_type cg -dm_mat_type sell -pc_mg_log" ;;
    gmg-fused) echo "-smoother chebyjacobi -ksp_type cg -pc_mg_log" ;;
    gmg-fused-auto) echo "-smoother chebyjacobi -ksp_type cg -bottom autobcgs -pc_mg_log" ;;
    gmg-fused-03) echo "-smoother chebyjacobi -ksp_type cg -mg_levels_pc_chebyjacobi_eigenvalues 0.3,2 -pc_mg_log" ;;
    gmg-bcgs) echo "-bottom bcgs -pc_mg_log" ;;
    gmg-redundant) echo "-bottom none -pc_mg_log" ;;
    pfmg-cg) echo "-pc_type pfmg -dm_mat_type hyprestruct -ksp_type cg -ksp_norm_type unpreconditioned" ;;
    boomeramg-cg) echo "-pc_type hypre -ksp_type cg -ksp_norm_type unpreconditioned" ;;
    gamg-cg) echo "-pc_type gamg -ksp_type cg -ksp_norm_type unpreconditioned -pc_mg_log" ;;
    *) echo "-bottom $1 -pc_mg_log" ;;
  esac
}

# problem, n, nodes (0: no simulation), variant, run -> a CSV row (the header below)
run() {
  local prob=$1 size=$2 p=$3 v=$4 r=$5
  local -a sim=()
  [ "$p" -gt 0 ] && sim=(-x CAKPMPI_MODEL=krasnopolsky -x CAKPMPI_NODES="$p" -x CAKPMPI_HALO=krasnopolsky)
  rm -f "$tmp/cak"
  mpiexec --oversubscribe -n 2 -x LD_PRELOAD="$lib" -x CAKPMPI_PAUSED=1 -x CAKPMPI_OUTPUT="$tmp/cak" "${sim[@]}" \
    "$ex1" -problem "$prob" -dim 3 -n "$size" -ksp_rtol 1e-8 $(variant_args "$v") -log_view > "$tmp/out" 2>&1 ||
    { echo "$0: $v $prob n = $size p = $p failed:" >&2; tail -n 20 "$tmp/out" >&2; exit 1; }
  grep -q "CONVERGED" "$tmp/out" || { echo "$0: $v $prob n = $size p = $p did not converge" >&2; exit 1; }
  awk -v prob="$prob" -v n="$size" -v p="$p" -v v="$v" -v r="$r" '
    FNR == NR { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "reductions_max") red = kv[2]; if (kv[1] == "p2p_recv_max") halo = kv[2] } next }
    /^V-cycles: / { its = $2 }
    /^[a-z]+ iterations: / { its = $3 }
    function first(name, t) { if (!(name in seen)) { seen[name] = 1; val[name] = t } }
    /^KSPSolve / { first("solve", $4) }
    /^KSPSetUp / { first("kspsetup", $4) }
    /^PCSetUp / { first("pcsetup", $4) }
    /^PCApply / { first("pcapply", $4) }
    /^MGSmooth Level 0 / { first("bottom", $6) }
    /^MGSmooth Level [1-9]/ { k = "smooth" $3; if (!(k in seen)) { seen[k] = 1; smooth += $6 } }
    /^MGResid Level / { k = "resid" $3; if (!(k in seen)) { seen[k] = 1; resid += $6 } }
    /^MGInterp Level / { k = "interp" $3; if (!(k in seen)) { seen[k] = 1; interp += $6 } }
    END {
      if (its == "" || val["solve"] == "" || red == "") exit 1
      mg = ("bottom" in val)
      printf "%s,%s,%s,%s,%s,%s,%.6g,%.6g,%s,%s,%s,%s,%s,%s,%s\n", prob, n, p, v, r, its, val["kspsetup"] + val["pcsetup"], val["solve"], red, halo,
        mg ? smooth : "", mg ? resid : "", mg ? interp : "", mg ? val["bottom"] : "", mg ? val["solve"] - smooth - resid - interp - val["bottom"] : ""
    }' "$tmp/cak" "$tmp/out"
}

[ "${MG_REPORT_ONLY:-0}" = 1 ] || echo "problem,n,nodes,variant,run,iterations,setup_s,solve_s,reductions,halo,smooth_s,resid_s,transfer_s,bottom_s,outer_s" > "$csv"
[ "${MG_REPORT_ONLY:-0}" = 1 ] || for prob in $problems; do
  for size in $n; do
    for p in $nodes; do
      for ((r = 1; r <= runs; r++)); do
        for v in $variants; do run "$prob" "$size" "$p" "$v" "$r" >> "$csv"; done
      done
    done
  done
done

{
  echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'); $(machine); load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# command: ${MG_VARIANTS:+MG_VARIANTS=\"$MG_VARIANTS\" }${MG_OUTPUT:+MG_OUTPUT=$MG_OUTPUT }$(rel "$0") $(rel "$lib") $(rel "$ex1") -problems \"$problems\" -n \"$n\" -nodes \"$nodes\" -runs $runs (make bench-mg)"
  [ "${MG_REPORT_ONLY:-0}" = 1 ] && echo "# (MG_REPORT_ONLY=1: the tables printed again from $(rel "$csv"), whose runs are older than this line's date)"
  echo "# tutorials/ex1 -dim 3, 2 ranks, rtol 1e-8 (unpreconditioned norm); p > 0: simulated (reductions and halo receives delayed, Krasnopolsky's T_G and T_L; a planning model)"
  python3 - "$csv" << 'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def med(xs):
    xs = [float(x) for x in xs if x != ""]
    if not xs:
        return None, None
    return statistics.median(xs), (100 * (max(xs) / min(xs) - 1) if min(xs) > 0 else 0.0)
for prob in dict.fromkeys(r["problem"] for r in rows):
    for n in dict.fromkeys(r["n"] for r in rows if r["problem"] == prob):
        print(f"\n== {prob} {n}^3, 2 ranks: medians (spread) of {max(int(r['run']) for r in rows)} runs; per solve")
        print("%6s %-14s %5s %17s %17s %10s %9s %7s | %9s %9s %9s %9s %9s %11s" % ("p", "variant", "its", "setup s", "solve s", "vs pfmg", "reduct.", "halo",
              "smooth", "resid", "transfer", "bottom", "rest", "(solve ms)"))
        for p in dict.fromkeys(r["nodes"] for r in rows if r["problem"] == prob and r["n"] == n):
            sel = [r for r in rows if r["problem"] == prob and r["n"] == n and r["nodes"] == p]
            pf = med([r["solve_s"] for r in sel if r["variant"] == "pfmg-cg"])[0]
            for v in dict.fromkeys(r["variant"] for r in sel):
                rr = [r for r in sel if r["variant"] == v]
                f = lambda k: med([r[k] for r in rr])
                su, so = f("setup_s"), f("solve_s")
                parts = [f(k)[0] for k in ("smooth_s", "resid_s", "transfer_s", "bottom_s")]
                if parts[0] is not None:  # the rest: the solve minus the parts (per run, then the median)
                    parts.append(med([float(r["solve_s"]) - sum(float(r[k]) for k in ("smooth_s", "resid_s", "transfer_s", "bottom_s")) for r in rr])[0])
                else:
                    parts.append(None)
                split = " ".join("%9s" % ("-" if x is None else "%.1f" % (1e3 * x)) for x in parts)
                print("%6s %-14s %5.0f %10.4g (%3.0f%%) %10.4g (%3.0f%%) %9s %9.0f %7.0f | %s" % ("here" if p == "0" else p, v, f("iterations")[0], su[0], su[1], so[0], so[1],
                      ("%.2fx" % (so[0] / pf)) if pf else "-", f("reductions")[0], f("halo")[0], split))
print("\nits: V-cycles (gmg) or CG iterations; setup: KSPSetUp + PCSetUp; solve: KSPSolve after the setup; vs pfmg: solve time / pfmg-cg's;")
print("reduct., halo: global reductions and halo messages (point-to-point receives) per rank in the solve (cakpmpi); the split in ms")
print("(PCMG-based solvers, -pc_mg_log): smoothing above the coarsest level, residuals, transfers (restriction and interpolation),")
print("bottom (the coarse solve), rest (the solve minus these: the outer Krylov method or Richardson's residual norms)")
PY
} | tee "$out"
plot mg "$csv" "$png"
