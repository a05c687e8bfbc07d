#!/usr/bin/env python3
"""Plots the method map of share/bench/methodmap.sh (Krasnopolsky 2020, Figs. 6 and 10 style).

    python3 share/bench/plot_methodmap.py [methodmap.csv [methodmap.png [subtitle]]]

One panel per (PC, progress mode): the speedup of every BiCGStab variant over PETSc's bcgs (bcgs time per iteration / the
method's, median of the per-round ratios) against the simulated node count p; above 1 the method beats bcgs. The best method
at each p has Krasnopolsky's relative performance R = 1.
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "results", "methodmap.csv")
dst = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "results", "methodmap.png")
subtitle = sys.argv[3] if len(sys.argv) > 3 else ""

with open(src, newline="") as f:
    rows = [r for r in csv.DictReader(f) if int(r["nodes"]) > 0]
if not rows:
    sys.exit(f"{src}: no simulated points")

pcs = list(dict.fromkeys(r["pc"] for r in rows))
modes = list(dict.fromkeys(r["progress"] for r in rows))
methods = list(dict.fromkeys(r["method"] for r in rows))
label = {"async": "with overlap (asynchronous progress)", "none": "without overlap (no asynchronous progress)",
         "anycall": "progress in any MPI call"}
styles = {"bcgs": "k-", "ibcgs": "C1o-", "pipebcgs": "C2s--", "bcgsm": "C0o-", "pipebcgsm": "C2s-", "rbicgstab": "C3^-",
          "cabicgstab4": "C4D-"}
fig, axes = plt.subplots(len(pcs), len(modes), figsize=(6.2 * len(modes), 4.3 * len(pcs)), sharey=True, squeeze=False)
for i, pc in enumerate(pcs):
    for j, mode in enumerate(modes):
        ax = axes[i][j]
        for m in methods:
            pts = sorted((int(r["nodes"]), float(r["vs_bcgs"])) for r in rows
                         if r["pc"] == pc and r["progress"] == mode and r["method"] == m and float(r["vs_bcgs"]) > 0)
            if not pts:
                continue
            p, v = zip(*pts)
            ax.plot(p, [1 / x for x in v], styles.get(m, "-"), label=m.replace("cabicgstab4", "cabicgstab s=4"), ms=4)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
        ax.axhline(1.0, color="grey", lw=0.8)
        ax.grid(True, which="both", alpha=0.3)
        ax.set_title(f"PC {pc}, {label.get(mode, mode)}", fontsize=9)
        ax.set_xlabel("simulated nodes p (Krasnopolsky's T_G model)")
        if j == 0:
            ax.set_ylabel("speedup over bcgs (time per iteration)")
axes[0][-1].legend(fontsize=7, loc="upper left")
fig.suptitle("Method map: BiCGStab variants under the latency simulator, 2 real ranks" + (f" ({subtitle})" if subtitle else ""),
             fontsize=10)
fig.tight_layout()
fig.savefig(dst, dpi=110)
print(dst)
