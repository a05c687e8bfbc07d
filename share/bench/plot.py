#!/usr/bin/env python3
"""The plots of share/bench: one function per benchmark, each reading the CSV its script wrote.

    python3 share/bench/plot.py KIND CSV PNG [EXTRA]

KIND: merged (EXTRA: merged-reductions.csv, a third panel), methodmap (EXTRA: a subtitle), overlap, bottom, sstudy, mrhs
(EXTRA: the results folder, with mrhs-layout.csv, mrhs-reductions.csv and mrhs-sim.csv), mg, auto.
The scripts call it through bench_plot of common.sh, which finds a python3 with matplotlib.
"""
import csv
import os
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402


def read(path, keep=lambda r: True):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if keep(r)]
    if not rows:
        sys.exit(f"{path}: no data to plot")
    return rows


def merged(rows, red):
    """Per-iteration benchmark (merged.sh). Left: time per iteration relative to PETSc's bcgs in the same rounds (median of
    the per-round ratios), one group of bars per method, one bar per (ranks, PC). Middle: the fraction of the STREAM triad each
    method achieves by merged.c's bytes-per-iteration model, with the 85 % target. Right (with EXTRA, the reductions CSV):
    global reductions per iteration."""
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
    return fig


def methodmap(rows, subtitle):
    """Method map (methodmap.sh; Krasnopolsky 2020, Figs. 6 and 10 style): one panel per (PC, progress mode), the speedup of
    every variant over bcgs against the simulated node count p; the best method at each p has Krasnopolsky's R = 1. With a
    halo column (issue 24) the points of its first model (the halo receives delayed too) are drawn."""
    if rows and "halo" in rows[0]:
        first = next((r["halo"] for r in rows if int(r["nodes"]) > 0), "none")
        rows = [r for r in rows if r["halo"] == first or int(r["nodes"]) == 0]
        subtitle = (subtitle + ", " if subtitle else "") + ("reductions only delayed" if first == "none" else f"reductions and halo ({first}) delayed")
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
            ax.set_xlabel("simulated nodes p (Krasnopolsky's T_G, T_L models)")
            if j == 0:
                ax.set_ylabel("speedup over bcgs (time per iteration)")
    axes[0][-1].legend(fontsize=7, loc="upper left")
    fig.suptitle("Method map: BiCGStab variants under the latency simulator, 2 real ranks" + (f" ({subtitle})" if subtitle else ""),
                 fontsize=10)
    return fig


def overlap(rows):
    """Overlap overhead gamma (overlap.sh, Krasnopolsky Appendix C, eq. 24) against the number of work chunks N_it: one
    panel per rank count; per message size, mode #3 (MPI_Test after each chunk) solid and mode #2 (no progression) dashed."""
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
    return fig


def bottom(rows):
    """Bottom-solver study (bottom.sh): bottom-solve and whole-PCMG time of each bottom solver against the simulated p,
    with the halo receives delayed too (solid; the CSV's halo column, when there is one) and the reductions only (dotted,
    bottom solves only)."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    halos = list(dict.fromkeys(r.get("halo", "none") for r in rows))
    main = halos[0]
    for i, (variant, style) in enumerate(zip(dict.fromkeys(r["bottom"] for r in rows), ("o-", "s-", "D-", "^-", "v-"))):
        rr = [r for r in rows if r["bottom"] == variant and r.get("halo", "none") == main]
        p = [int(r["nodes"]) for r in rr]
        what = "" if main == "none" else ", reductions + halo"
        ax.plot(p, [float(r["bottom_s"]) for r in rr], style, color=f"C{i}", label=f"{variant}: bottom solves{what}")
        ax.plot(p, [float(r["pcmg_s"]) for r in rr], style, color=f"C{i}", alpha=0.45, label=f"{variant}: whole PCMG solve{what}")
        if main != "none" and "none" in halos:
            ro = [r for r in rows if r["bottom"] == variant and r["halo"] == "none"]
            ax.plot([int(r["nodes"]) for r in ro], [float(r["bottom_s"]) for r in ro], style[0] + ":", color=f"C{i}", alpha=0.6, markersize=3, label=f"{variant}: bottom solves, reductions only")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("simulated nodes p (Krasnopolsky's reduction and halo models)")
    ax.set_ylabel("time [s], 2 real ranks")
    ax.set_title("Helmholtz multigrid, bottom solver bcgs vs cabicgstab variants (simulated)", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    return fig


def mg(rows):
    """The multigrid against what users would pick instead (mg.sh): a panel per problem and grid, the median solve time of
    each variant against the simulated p (this machine, p = 0, drawn at p = 1 as a separate marker), log-log."""
    panels = list(dict.fromkeys((r["problem"], r["n"]) for r in rows))
    fig, axes = plt.subplots(1, len(panels), figsize=(5.5 * len(panels), 4.5), squeeze=False)
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    styles = ("o-", "s-", "D-", "^-", "v-", "<-", ">-", "P-", "X-")
    for ax, (prob, n) in zip(axes[0], panels):
        for i, v in enumerate(variants):
            rr = [r for r in rows if (r["problem"], r["n"], r["variant"]) == (prob, n, v)]
            ps = sorted({int(r["nodes"]) for r in rr})
            med = {p: statistics.median(float(r["solve_s"]) for r in rr if int(r["nodes"]) == p) for p in ps}
            sim = [p for p in ps if p > 0]
            ax.plot(sim, [med[p] for p in sim], styles[i % len(styles)], color=f"C{i}", label=v)
            if 0 in med:
                ax.plot([1], [med[0]], styles[i % len(styles)][0], color=f"C{i}", alpha=0.6)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("simulated nodes p (reductions + halo; p = 1: this machine, unsimulated)")
        ax.set_ylabel("solve time [s], median, 2 real ranks")
        ax.set_title(f"{prob} {n}^3, rtol 1e-8", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
    axes[0][-1].legend(fontsize=7)
    fig.suptitle("tutorials/ex1's multigrid against hypre PFMG/BoomerAMG and PETSc GAMG (make bench-mg)", fontsize=11)
    return fig


def sstudy(rows):
    """s-study (sstudy.sh): a column per problem, iterations and true residual against s, a line per basis, bcgs dashed;
    hollow markers: solves that did not claim convergence."""
    problems = list(dict.fromkeys(r["problem"] for r in rows))
    bases = list(dict.fromkeys(r["basis"] for r in rows if r["method"] == "cabicgstab"))
    ref = {r["problem"]: r for r in rows if r["method"] == "bcgs"}
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
    return fig


def mrhs(rows, resdir):
    """Multiple right-hand sides (mrhs.sh). Top left: speedup per RHS-iteration over m separate bcgs solves against m, one
    line per method, the largest grid on 1 rank with PC none (the targets' configuration, targets marked); top right: one
    SpMV of m columns, dense column-major against interleaved MAIJ; bottom left: global reductions per iteration of all m
    systems (cakpmpi); bottom right: simulated time per RHS-iteration against the simulated node count p (largest m)."""
    def side(name):
        path = os.path.join(resdir, name)
        return read(path) if os.path.exists(path) else []

    lay, red, sim = side("mrhs-layout.csv"), side("mrhs-reductions.csv"), side("mrhs-sim.csv")
    methods = list(dict.fromkeys(r["method"] for r in rows))
    styles = {"bcgs-separate": "k-", "bcgs-matsolve": "k:", "pipebcgs-separate": "C2--", "bcgsm": "C0o-", "bcgsm-dense": "C0x--", "pipebcgsm": "C2s-", "rbicgstab": "C3^-"}
    fig, axes = plt.subplots(2, 2, figsize=(12.5, 9.0))
    nmax = max(int(r["n"]) for r in rows)
    ax = axes[0][0]
    for meth in methods:
        pts = sorted((int(r["m"]), float(r["speedup"])) for r in rows
                     if r["method"] == meth and int(r["n"]) == nmax and int(r["ranks"]) == 1 and r["pc"] == "none" and float(r["speedup"]) > 0)
        if pts:
            ax.plot(*zip(*pts), styles.get(meth, "-"), label=meth)
    ax.plot([16], [1.7], "C0*", ms=12, label="target bcgsm m = 16: 1.7x")
    ax.plot([16], [1.8], "C2*", ms=12, label="target pipebcgsm m = 16: 1.8x")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("m (right-hand sides)")
    ax.set_ylabel("speedup per RHS-iteration over m separate bcgs solves")
    ax.set_title(f"n = {nmax}, 1 rank, PC none", fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    ax = axes[0][1]
    if lay:
        labels = [f"{r['ranks']}r n={r['n']} m={r['m']}" for r in lay]
        xs = range(len(lay))
        ax.bar([x - 0.2 for x in xs], [float(r["dense_ms"]) / float(r["separate_ms"]) for r in lay], 0.4, label="dense (AIJ x MATDENSE)")
        ax.bar([x + 0.2 for x in xs], [float(r["maij_ms"]) / float(r["separate_ms"]) for r in lay], 0.4, label="interleaved (MAIJ)")
        ax.axhline(1.0, color="grey", lw=0.8)
        ax.set_xticks(list(xs))
        ax.set_xticklabels(labels, rotation=40, ha="right", fontsize=7)
        ax.set_ylabel("time of one SpMV of m columns / m MatMults")
        ax.set_title("layout of the m columns (lower is better)", fontsize=10)
        ax.legend(fontsize=7)
        ax.grid(axis="y", alpha=0.3)
    ax = axes[1][0]
    for meth in dict.fromkeys(r["method"] for r in red):
        pts = sorted((int(r["m"]), float(r["reductions_per_it"])) for r in red if r["method"] == meth)
        ax.plot(*zip(*pts), styles.get(meth, "-"), label=meth)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xlabel("m (right-hand sides)")
    ax.set_ylabel("global reductions per iteration of all m systems")
    ax.set_title("reductions (cakpmpi, 2 ranks)", fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(True, which="both", alpha=0.3)
    ax = axes[1][1]
    if sim and "halo" in sim[0]:  # issue 24: the points of the first halo model (the halo receives delayed too)
        first = next((r["halo"] for r in sim if int(r["nodes"]) > 0), "none")
        sim = [r for r in sim if r["halo"] == first]
    for meth in dict.fromkeys(r["method"] for r in sim):
        pts = sorted((int(r["nodes"]), float(r["median_ms"])) for r in sim if r["method"] == meth and int(r["nodes"]) > 0)
        if pts:
            ax.plot(*zip(*pts), styles.get(meth, "-"), label=meth)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("simulated nodes p (Krasnopolsky's T_G, T_L models)")
    ax.set_ylabel("time per RHS-iteration [ms], 2 real ranks")
    ax.set_title("latency simulator: m systems at once vs separate solves", fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(True, which="both", alpha=0.3)
    fig.suptitle(f"Multiple right-hand sides, 7-point 3D Laplacian ({rows[0]['its']} iterations per solve at n = {rows[0]['n']}, median of {rows[0]['runs']})", fontsize=11)
    return fig


def auto(rows):
    """autobcgs against the fixed candidates (auto.sh). Left, one panel per (PC, progress) over the method map: the time
    per solve of autobcgs and of each fixed candidate (medians over the rounds, setup included) relative to the fastest
    fixed candidate of the cell, with the 10 % and 25 % targets; this machine (p = here) drawn at the left. Right: the
    model's predicted time per iteration against the measured one for every (candidate, cell), with the 25 % band."""
    cells = [r for r in rows if r["method"] != "auto-1st"]
    pcs = list(dict.fromkeys(r["pc"] for r in cells))
    modes = [m for m in dict.fromkeys(r["label"].split("/")[0] for r in cells) if m != "-"]
    fixed = [m for m in dict.fromkeys(r["method"] for r in cells) if m != "autobcgs"]
    styles = {"bcgsm": "C0o-", "rbicgstab": "C3^-", "pipebcgsm": "C2s-", "cabicgstab4": "C4D-", "cabicgstab2": "C5v-"}
    time = {(r["pc"], r["label"], r["method"]): float(r["median_solve_ms"]) for r in cells}
    here = 0.5  # the abscissa of this machine's cell
    fig = plt.figure(figsize=(6.0 * len(modes) + 6.0, 4.0 * len(pcs)))
    grid = fig.add_gridspec(len(pcs), len(modes) + 1)
    for i, pc in enumerate(pcs):
        for j, mode in enumerate(modes):
            ax = fig.add_subplot(grid[i, j])
            labels = ["-/0"] + sorted({r["label"] for r in cells if r["pc"] == pc and r["label"].startswith(mode + "/")},
                                      key=lambda l: int(l.split("/")[1]))
            labels = [l for l in labels if (pc, l, "autobcgs") in time]
            xs = [here if l == "-/0" else int(l.split("/")[1]) for l in labels]
            best = [min(time[pc, l, m] for m in fixed if (pc, l, m) in time) for l in labels]
            for m in fixed:
                ys = [time.get((pc, l, m), float("nan")) / b for l, b in zip(labels, best)]
                if m in styles:
                    ax.plot(xs, ys, styles[m], lw=1, ms=3, label=m.replace("cabicgstab", "cabicgstab s="))
                else:  # the other s of cabicgstab, unlabelled
                    ax.plot(xs, ys, "-", color="0.75", lw=0.7)
            ax.plot(xs, [time[pc, l, "autobcgs"] / b for l, b in zip(labels, best)], "k*-", lw=2, ms=7, label="autobcgs")
            for y, ls in ((1.10, "--"), (1.25, ":")):
                ax.axhline(y, color="k", ls=ls, lw=0.8)
            ax.set_xscale("log", base=2)
            ax.set_ylim(0.9, 2.0)
            ax.set_xticks(xs)
            ax.set_xticklabels(["here" if x == here else str(x) for x in xs], fontsize=7)
            ax.grid(True, alpha=0.3)
            ax.set_title(f"PC {pc}, progress {mode}", fontsize=9)
            ax.set_xlabel("simulated nodes p")
            if j == 0:
                ax.set_ylabel("time per solve / fastest fixed")
            if i == 0 and j == 0:
                ax.legend(fontsize=7, loc="upper left")
    ax = fig.add_subplot(grid[:, len(modes)])
    pts = [(float(r["median_us_per_it"]), float(r["predicted_us_per_it"]), r["method"]) for r in cells
           if r["method"] != "autobcgs" and float(r["predicted_us_per_it"]) > 0]
    for m in fixed:
        sel = [(x, y) for x, y, k in pts if k == m]
        if sel and m in styles:
            ax.plot(*zip(*sel), styles[m][:-1], ms=4, ls="none", label=m.replace("cabicgstab", "cabicgstab s="))
        elif sel:
            ax.plot(*zip(*sel), "o", color="0.6", ms=3, ls="none")
    lo, hi = min(min(x, y) for x, y, _ in pts) / 1.3, max(max(x, y) for x, y, _ in pts) * 1.3
    ax.plot([lo, hi], [lo, hi], "k-", lw=0.8)
    ax.fill_between([lo, hi], [lo / 1.25, hi / 1.25], [lo * 1.25, hi * 1.25], color="k", alpha=0.08, label="within 25 %")
    within = sum(1 for x, y, _ in pts if abs(y / x - 1) <= 0.25)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.grid(True, which="both", alpha=0.3)
    ax.set_xlabel("measured time per iteration (us)")
    ax.set_ylabel("predicted by autobcgs's model (us)")
    ax.set_title(f"model: {within} of {len(pts)} (candidate, cell) within 25 % (grey: cabicgstab, other s)", fontsize=9)
    ax.xaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.yaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.legend(fontsize=7, loc="upper left")
    fig.suptitle("autobcgs against every fixed candidate over the method map (time per solve, setup included; dashed: 1.10x, "
                 "dotted: 1.25x the fastest)", fontsize=10)
    return fig


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("merged", "methodmap", "overlap", "bottom", "sstudy", "mrhs", "mg", "auto"):
        sys.exit("usage: plot.py merged|methodmap|overlap|bottom|sstudy|mrhs|mg|auto CSV PNG [EXTRA]")
    kind, src, dst = sys.argv[1:4]
    extra = sys.argv[4] if len(sys.argv) > 4 else None
    if kind == "merged":
        fig = merged(read(src), extra)
    elif kind == "methodmap":
        fig = methodmap(read(src, lambda r: int(r["nodes"]) > 0), extra or "")
    elif kind == "overlap":
        fig = overlap(read(src))
    elif kind == "mrhs":
        fig = mrhs(read(src), extra or os.path.dirname(src))
    elif kind == "bottom":
        fig = bottom(read(src, lambda r: int(r["nodes"]) > 0))
    elif kind == "mg":
        fig = mg(read(src))
    elif kind == "auto":
        fig = auto(read(src))
    else:
        fig = sstudy(read(src))
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    main()
