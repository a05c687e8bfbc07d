#!/usr/bin/env bash
# `make run`'s job (share/run.sh) repeated: the medians and spreads (max/min - 1) of its four times per bottom solver (this
# machine; simulated at p = RUN_NODES, default 4096, reductions and halo receives delayed: a planning model), and of the
# speedups of cabicgstab over bcgs, over R runs (each run: bcgs then cabicgstab, here then simulated).
#   share/bench/runsim.sh EX1 PMPI_LIB [-runs 9]
# Writes share/bench/results/runsim.txt (make bench-runsim).
set -eu -o pipefail
ex1=$1 lib=$2
shift 2
. "$(dirname "$0")/common.sh"
runs=9
[ -n "$quick" ] && runs=3
options "runs" "$@"
outputs runsim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((i = 1; i <= runs; i++)); do
  bash "$root/share/run.sh" "$ex1" "$tmp/run" "$lib" > /dev/null
  awk -v i="$i" '/^(bcgs|cabicgstab) / { printf "%s %s %s %s %s %s\n", i, $1, $(NF - 7), $(NF - 5), $(NF - 3), $(NF - 1) }' "$tmp/run/run.txt"
done > "$tmp/rows"
{
  echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'); $(machine); load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# command: $(rel "$0") $(rel "$ex1") $(rel "$lib") -runs $runs (make bench-runsim): make run's job $runs times"
  head -n 1 "$tmp/run/run.txt"
  python3 - "$tmp/rows" "${RUN_NODES:-4096}" << 'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
cols = ("bottom s here", "V-cycles s here", f"bottom s, p = {sys.argv[2]} sim.", f"V-cycles s, p = {sys.argv[2]} sim.")
t = {}
for r in rows:
    t.setdefault(r[1], {}).setdefault(int(r[0]), [float(x) for x in r[2:6]])
def ms(xs):
    return f"{statistics.median(xs):.4g} ({100 * (max(xs) / min(xs) - 1):.0f} %)"
print(f"median (spread) of {len(t['bcgs'])} runs; spread = max/min - 1")
print("%-26s" % "" + "".join("%-30s" % c for c in cols))
for name in ("bcgs", "cabicgstab"):
    print("%-26s" % name + "".join("%-30s" % ms([t[name][i][k] for i in t[name]]) for k in range(4)))
sp = lambda k: [t["bcgs"][i][k] / t["cabicgstab"][i][k] for i in t["bcgs"]]
print("%-26s" % "speedup of cabicgstab" + "".join("%-30s" % (ms(sp(k)).replace(" (", "x (")) for k in range(4)))
print("(speedup: bcgs time / cabicgstab time within each run, then the median; simulated: Krasnopolsky's T_G and T_L, a planning model)")
PY
} | tee "$out"
