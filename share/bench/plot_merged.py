#!/usr/bin/env python3
"""Plots the per-iteration benchmark of share/bench/merged.c (rows of merged.csv written by merged.sh).

    python3 share/bench/plot_merged.py [merged.csv [merged.png [merged-reductions.csv]]]

Left: time per iteration relative to PETSc's bcgs in the same rounds (median of the per-round ratios), one group of bars per
method, one bar per (ranks, PC). Middle: the fraction of the STREAM triad bandwidth each method achieves by the bytes-per-iteration
model of merged.c, with the issue's 85 % target. Right (with the reductions CSV): global reductions per iteration.
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "results", "merged.csv")
dst = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "results", "merged.png")
red = sys.argv[3] if len(sys.argv) > 3 else None

with open(src, newline="") as f:
    rows = list(csv.DictReader(f))
if not rows:
    sys.exit(f"{src}: no data")

methods = []
for r in rows:
    if r["method"] not in methods:
        methods.append(r["method"])
configs = []
for r in rows:
    c = (int(r["ranks"]), r["pc"])
    if c not in configs:
        configs.append(c)

reds = {}
if red and os.path.exists(red):
    with open(red, newline="") as f:
        reds = {r["method"]: float(r["reductions_per_it"]) for r in csv.DictReader(f)}

ncol = 3 if reds else 2
fig, axes = plt.subplots(1, ncol, figsize=(6.0 * ncol, 4.8))
width = 0.8 / max(1, len(configs))
colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
for k, (ranks, pc) in enumerate(configs):
    sub = {r["method"]: r for r in rows if int(r["ranks"]) == ranks and r["pc"] == pc}
    xs = [i + (k - (len(configs) - 1) / 2) * width for i in range(len(methods))]
    rel = [float(sub[m]["vs_bcgs"]) if m in sub and float(sub[m]["vs_bcgs"]) > 0 else 0 for m in methods]
    frac = [100 * float(sub[m]["frac_triad"]) if m in sub else 0 for m in methods]
    lab = f"{ranks} rank{'s' if ranks > 1 else ''}, PC {pc}"
    axes[0].bar(xs, rel, width, label=lab, color=colours[k % len(colours)])
    axes[1].bar(xs, frac, width, label=lab, color=colours[k % len(colours)])
axes[0].axhline(1.0, color="grey", lw=0.8)
axes[0].set_ylabel("time per iteration / bcgs's (same rounds)")
axes[0].set_title("relative time per iteration (lower is better)", fontsize=10)
axes[1].axhline(85, color="red", lw=0.8, ls="--", label="target 85 %")
axes[1].set_ylabel("% of the STREAM triad (bytes model / time)")
axes[1].set_title("bandwidth fraction", fontsize=10)
for ax in axes[:2]:
    ax.set_xticks(range(len(methods)))
    ax.set_xticklabels(methods, rotation=40, ha="right", fontsize=8)
    ax.grid(axis="y", alpha=0.3)
axes[0].legend(fontsize=7)
axes[1].legend(fontsize=7)
if reds:
    ms = [m for m in methods if m in reds]
    axes[2].bar(range(len(ms)), [reds[m] for m in ms], 0.6, color="grey")
    axes[2].axhline(0.30, color="red", lw=0.8, ls="--", label="cabicgstab s=4 target 0.30")
    for i, m in enumerate(ms):
        axes[2].text(i, reds[m], f"{reds[m]:.2f}", ha="center", va="bottom", fontsize=7)
    axes[2].set_xticks(range(len(ms)))
    axes[2].set_xticklabels(ms, rotation=40, ha="right", fontsize=8)
    axes[2].set_ylabel("global reductions per iteration (cakpmpi)")
    axes[2].set_title("reductions per iteration, 2 ranks", fontsize=10)
    axes[2].legend(fontsize=7)
    axes[2].grid(axis="y", alpha=0.3)
n = rows[0]["n"]
fig.suptitle(f"BiCGStab variants, 7-point 3D Laplacian n = {n} ({rows[0]['its']} iterations per solve, median of {rows[0]['runs']} rounds)", fontsize=11)
fig.tight_layout()
fig.savefig(dst, dpi=110)
print(dst)
