#!/usr/bin/env python3
"""Plots the overlap overhead gamma of share/bench/overlap.c against the number of work chunks N_it.

    python3 share/bench/plot_overlap.py [overlap.csv [overlap.png]]

One panel per rank count; per message size, mode #3 (MPI_Test after each chunk) as a solid line and mode #2 (no
progression) dashed, same colour. gamma = 1: no overlap (as blocking); 0: the reduction completely hidden.
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "results", "overlap.csv")
dst = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "results", "overlap.png")

with open(src, newline="") as f:
    rows = list(csv.DictReader(f))
if not rows:
    sys.exit(f"{src}: no data")

ranks = sorted({int(r["ranks"]) for r in rows})
msgs = sorted({int(r["msg_bytes"]) for r in rows})
fig, axes = plt.subplots(1, len(ranks), figsize=(5.5 * len(ranks), 4.2), sharey=True, squeeze=False)
colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
for ax, p in zip(axes[0], ranks):
    sub = [r for r in rows if int(r["ranks"]) == p]
    over = any(int(r.get("oversubscribed", 0)) for r in sub)
    for i, m in enumerate(msgs):
        pts = sorted((int(r["n_it"]), float(r["gamma3"]), float(r["gamma2"])) for r in sub if int(r["msg_bytes"]) == m)
        if not pts:
            continue
        nit, g3, g2 = zip(*pts)
        c = colours[i % len(colours)]
        ax.plot(nit, g3, "o-", color=c, label=f"{m} B, #3 MPI_Test")
        ax.plot(nit, g2, "x--", color=c, alpha=0.6, label=f"{m} B, #2 no progression")
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.axhline(0.0, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("N_it (work chunks = MPI_Test calls in #3)")
    ax.set_title(f"{p} ranks" + (" (OVERSUBSCRIBED)" if over else ""))
    ax.grid(alpha=0.3)
axes[0][0].set_ylabel("overlap overhead gamma (1: none, 0: hidden)")
axes[0][-1].legend(fontsize=7, loc="best")
fig.suptitle("MPI_Iallreduce overlap (Krasnopolsky, Appendix C, eq. 24)")
fig.tight_layout()
fig.savefig(dst, dpi=120)
print(dst)
