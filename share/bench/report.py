#!/usr/bin/env python3
"""The dated report of `make bench` (share/bench/bench.sh): the machine, the date, the commands, every benchmark's table read back
from its CSV/text output, and the project's targets next to what was measured (met or missed, per configuration).

    python3 share/bench/report.py RESULTS_DIR OUT.md [TITLE] [SECONDS] [COMMANDS_FILE]

Nothing in it is typed in: every number comes from the files the benchmarks wrote in RESULTS_DIR.
"""
import csv
import os
import platform
import subprocess
import sys
import time

res = sys.argv[1]
out = sys.argv[2]
title = sys.argv[3] if len(sys.argv) > 3 else "make bench"
seconds = sys.argv[4] if len(sys.argv) > 4 else "?"
cmdfile = sys.argv[5] if len(sys.argv) > 5 else None


def rows(name):
    path = os.path.join(res, name)
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def text(name):
    path = os.path.join(res, name)
    return open(path).read().rstrip("\n") if os.path.exists(path) else None


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=20).stdout.strip()
    except Exception:  # noqa: BLE001
        return ""


def verdict(ok):
    return "**met**" if ok else "**missed**"


L = []
L.append(f"# Benchmark results: `{title}`")
L.append("")
L.append(f"Date: {time.strftime('%Y-%m-%d %H:%M %Z')}; wall time of the benchmarks: {seconds} s; results folder `{os.path.relpath(res)}`.")
L.append("")
L.append("## Machine")
L.append("")
lscpu = sh("lscpu")
keep = ("Model name", "CPU(s)", "Thread(s) per core", "Core(s) per socket", "Socket(s)", "L1d cache", "L2 cache", "L3 cache",
        "Hypervisor vendor", "NUMA node(s)")
L.append("```")
for line in lscpu.splitlines():
    if line.split(":")[0].strip() in keep:
        L.append(" ".join(line.split()))
mem = sh("grep MemTotal /proc/meminfo")
L.append(mem)
L.append(f"kernel {platform.release()}; {sh('mpiexec --version 2>&1 | head -n 1')}")
petsc_version = sh("dpkg-query -W -f='${Version}' petsc-dev 2>/dev/null") or "(not from Debian)"
hypre_version = "?"
if os.path.exists("/usr/include/hypre/HYPRE_config.h"):
    for line in open("/usr/include/hypre/HYPRE_config.h"):
        if line.startswith("#define HYPRE_RELEASE_VERSION"):
            hypre_version = line.split()[2].strip('"')
L.append(f"PETSc {petsc_version} (Debian petsc-dev); hypre {hypre_version}")
L.append(f"load average at the end: {open('/proc/loadavg').read().split()[:3]}")
L.append("```")
L.append("")
if cmdfile and os.path.exists(cmdfile):
    L.append("## Commands (run by share/bench/bench.sh, in this order)")
    L.append("")
    L.append("```")
    L.extend(open(cmdfile).read().strip().splitlines())
    L.append("```")
    L.append("")

merged = rows("merged.csv")
reds = {r["method"]: r for r in rows("merged-reductions.csv")}
bottom = rows("bottom.csv")
mmap = rows("methodmap.csv")

# ---------------------------------------------------------------------------------------------------------- targets
L.append("## Targets, side by side with what was measured")
L.append("")
L.append("| target | measured | verdict |")
L.append("|---|---|---|")
if "cabicgstab4" in reds:
    v = float(reds["cabicgstab4"]["reductions_per_it"])
    ref = ", ".join(f"{m} {float(reds[m]['reductions_per_it']):.2f}" for m in ("bcgs", "cabicgstab8") if m in reds)
    L.append(f"| cabicgstab s = 4: <= 0.30 global reductions per iteration | {v:.3f} (cakpmpi; {ref}) | {verdict(v <= 0.30)} |")
big = [r for r in bottom if int(r["nodes"]) >= 4096]
if big:
    by = {}
    for r in big:  # halo: krasnopolsky (reductions and halo receives delayed, issue 24) or none (reductions only)
        by.setdefault((int(r["nodes"]), r.get("halo", "none")), {})[r["bottom"]] = r
    for variant in dict.fromkeys(r["bottom"] for r in big):
        if variant == "bcgs":
            continue
        for p, halo in sorted(by, key=lambda k: (k[1] == "none", k[0])):
            b, c = by[p, halo].get("bcgs"), by[p, halo].get(variant)
            if not b or not c:
                continue
            rb = float(b["bottom_s"]) / float(c["bottom_s"])
            rw = float(b["pcmg_s"]) / float(c["pcmg_s"])
            same = b["vcycles"] == c["vcycles"]
            # no bottom solver makes PCMG faster than bcgs's PCMG time / its time outside the bottom solves
            ceiling = float(b["pcmg_s"]) / (float(b["pcmg_s"]) - float(b["bottom_s"]))
            outside = f", {int(float(b['pcmg_reductions']) - float(b['bottom_reductions']))} outside" if "pcmg_reductions" in b else ""
            halos = f", bottom halo messages {b['bottom_halo']} / {c['bottom_halo']}" if "bottom_halo" in b else ""
            measured = (f"bottom {rb:.2f}x, whole {rw:.2f}x (ceiling {ceiling:.2f}x), V-cycles {b['vcycles']} / {c['vcycles']}, "
                        f"bottom reductions {b['bottom_reductions']} / {c['bottom_reductions']}{outside}{halos}")
            charged = "reductions only" if halo == "none" else "reductions + halo"
            if variant == "cabicgstab" and halo != "none":  # the targets are the hook's defaults', every message charged
                need = 6 if p < 16384 else 4
                whole = f", whole solve >= 3x" if p < 16384 else ""
                L.append(f"| bottom study p = {p} ({charged}): cabicgstab (the hook's defaults) bottom >= {need}x{whole} faster than bcgs, same V-cycles | "
                         f"{measured} | bottom {verdict(rb >= need)}{f', whole {verdict(rw >= 3)}' if p < 16384 else ''}, V-cycles {verdict(same)} |")
            else:
                L.append(f"| bottom study p = {p} ({charged}): {variant} (for comparison) | {measured} | - |")

for name, what in (("sstudy.csv", "s-study 64^3"), ("sstudy-matrix.csv", "regression matrix")):
    st = rows(name)
    ref = {(r["problem"], r["pc"], r["ranks"]): r for r in st if r["method"] == "bcgs"}
    for basis in dict.fromkeys(r["basis"] for r in st if r["method"] == "cabicgstab"):
        for small in (True, False):
            cab = [r for r in st if r["basis"] == basis and (int(r["s"]) <= 16) == small]
            if not cab:
                continue
            limit = 1.2 if small else 1.3
            ratios = [int(r["its"]) / max(int(ref[(r["problem"], r["pc"], r["ranks"])]["its"]), 1) for r in cab]
            bad = [r for r in cab if not int(r["claimed_converged"])]
            acc = [r for r in cab if int(r["claimed_converged"]) and float(r["true_relres"]) > 1.01 * float(r["rtol"])]
            L.append(f"| {what}, {basis}, s {'<= 16' if small else '= 24, 32'}: every solve converges within {limit}x bcgs's iterations, "
                     f"true residual <= rtol | largest ratio {max(ratios):.2f} in {len(cab)} solves; not converged: {len(bad)}; "
                     f"true residual > 1.01 rtol: {len(acc)} | {verdict(max(ratios) <= limit and not bad and not acc)} |")
configs = []
for r in merged:
    c = (int(r["ranks"]), r["pc"])
    if c not in configs:
        configs.append(c)
for ranks, pc in configs:
    sub = {r["method"]: r for r in merged if int(r["ranks"]) == ranks and r["pc"] == pc}
    tag = f"{ranks} rank{'s' if ranks > 1 else ''}, PC {pc}"
    if "pipebcgsm" in sub and float(sub["pipebcgsm"]["vs_native"]) > 0:
        v = float(sub["pipebcgsm"]["vs_native"])
        L.append(f"| {tag}: pipebcgsm <= 0.60 x pipebcgs (time per iteration) | {v:.3f} | {verdict(v <= 0.60)} |")
    if "bcgsm" in sub and float(sub["bcgsm"]["vs_hypre"]) > 0:
        v = 1 / float(sub["bcgsm"]["vs_hypre"])
        L.append(f"| {tag}: bcgsm >= 1.3x faster than hypre's ParCSR BiCGSTAB | {v:.3f}x | {verdict(v >= 1.3)} |")
    ours = [m for m in ("bcgsm", "pipebcgsm", "rbicgstab", "cabicgstab4", "cabicgstab8") if m in sub]
    if ours and float(sub[ours[0]]["triad_gbs"]) > 0:
        fr = ", ".join(f"{m} {100 * float(sub[m]['frac_triad']):.0f} %" for m in ours)
        ok = all(float(sub[m]["frac_triad"]) >= 0.85 for m in ours)
        best = max(float(sub[m]["frac_triad"]) for m in ours)
        L.append(f"| {tag}: >= 85 % of the STREAM triad ({float(sub[ours[0]]['triad_gbs']):.1f} GB/s) | {fr} | "
                 f"{verdict(ok)}{'' if ok else f' (best {100 * best:.0f} %)'} |")
mrhs = rows("mrhs.csv")
mred = rows("mrhs-reductions.csv")
mtxt = text("mrhs.txt") or ""
mquick = " (quick mode: not the full run)" if "quick mode" in mtxt.split("\n\n")[0] else ""
if mrhs or mred:
    at = {r["method"]: r for r in mrhs if (int(r["n"]), int(r["m"]), int(r["ranks"]), r["pc"]) == (200, 16, 1, "none")}
    for meth, goal in (("bcgsm", 1.7), ("pipebcgsm", 1.8)):
        target = f"m = 16, 1 rank, PC none, n = 200: block {meth} >= {goal}x faster per RHS-iteration than 16 separate bcgs solves"
        if meth in at:
            v = float(at[meth]["speedup"])
            path = "" if at[meth]["path"] != "columns" else "; the type solved column by column (no block solver)"
            L.append(f"| {target} | {v:.2f}x ({float(at[meth]['median_ms']):.1f} against {float(at['bcgs-separate']['median_ms']):.1f} ms{path}) | {verdict(v >= goal)} |")
        else:
            L.append(f"| {target} | not measured{mquick or ' (no such row in mrhs.csv)'} | - |")
    if "pipebcgsm" in at and "pipebcgs-separate" in at:  # the paper's own comparison: its pipelined block against its single pipelined solves
        v = float(at["pipebcgs-separate"]["median_ms"]) / float(at["pipebcgsm"]["median_ms"])
        L.append(f"| (the paper's comparison) m = 16, 1 rank, PC none, n = 200: block pipebcgsm >= 1.8x faster per RHS-iteration than 16 separate pipebcgs solves | "
                 f"{v:.2f}x ({float(at['pipebcgsm']['median_ms']):.1f} against {float(at['pipebcgs-separate']['median_ms']):.1f} ms) | {verdict(v >= 1.8)} |")
    per = {(r["method"], int(r["m"])): float(r["reductions_per_it"]) for r in mred}
    ms = sorted({int(r["m"]) for r in mred})
    for meth in ("bcgsm", "pipebcgsm", "rbicgstab"):
        if (meth, 1) in per and len(ms) > 1:
            vals = ", ".join(f"m = {m}: {per[(meth, m)]:.2f}" for m in ms if (meth, m) in per)
            ok = all(abs(per[(meth, m)] - per[(meth, 1)]) < 0.01 for m in ms if (meth, m) in per)
            L.append(f"| {meth}: global reductions per iteration of m systems = those of one system{mquick} | {vals} (cakpmpi) | {verdict(ok)} |")
L.append("")

# ---------------------------------------------------------------------------------------------------------- merged
if merged:
    L.append("## Per-iteration benchmark (`share/bench/merged.c`, `merged.sh`)")
    L.append("")
    r0 = merged[0]
    L.append(f"7-point 3D Laplacian n = {r0['n']} (N = {r0['N']}), {r0['its']} iterations per solve, median of {r0['runs']} rounds; "
             "relative times are medians of the per-round ratios (same run). Bandwidth: bytes-per-iteration model of merged.c / "
             "median time, as a fraction of the STREAM triad measured in the same run. Plot: `merged.png`.")
    L.append("")
    for ranks, pc in configs:
        sub = [r for r in merged if int(r["ranks"]) == ranks and r["pc"] == pc]
        L.append(f"**{ranks} rank{'s' if ranks > 1 else ''}, PC {pc}** (STREAM triad {float(sub[0]['triad_gbs']):.1f} GB/s; "
                 f"PETSc MatMult alone {float(sub[0]['spmv_ms']):.2f} ms)")
        L.append("")
        L.append("| method | ms / iteration | vs bcgs | vs (native) | MB / iteration (model) | GB/s | of triad | reductions / it |")
        L.append("|---|---|---|---|---|---|---|---|")
        for r in sub:
            nat = f"{float(r['vs_native']):.3f} ({r['native']})" if float(r["vs_native"]) > 0 else "-"
            rd = f"{float(reds[r['method']]['reductions_per_it']):.3f}" if r["method"] in reds else "-"
            L.append(f"| {r['method']} | {float(r['median_ms']):.2f} | {float(r['vs_bcgs']):.3f} | {nat} | {float(r['mb_per_it']):.0f} | "
                     f"{float(r['gbs']):.1f} | {100 * float(r['frac_triad']):.0f} % | {rd} |")
        L.append("")
if reds:
    L.append("**Global reductions per iteration** (cakpmpi, rank 0 of 2, PC jacobi, n = 32; 64- minus 24-iteration solves)")
    L.append("")
    L.append("| method | MPI_Allreduce | MPI_Iallreduce | total | bytes per reduction |")
    L.append("|---|---|---|---|---|")
    for m, r in reds.items():
        L.append(f"| {m} | {float(r['allreduce_per_it']):.3f} | {float(r['iallreduce_per_it']):.3f} | {float(r['reductions_per_it']):.3f} | "
                 f"{float(r['bytes_per_reduction']):.0f} |")
    L.append("")

# ---------------------------------------------------------------------------------------------------------- method map
if mmap:
    L.append("## Method map (`share/bench/methodmap.sh`; Krasnopolsky Figs. 6/10 style)")
    L.append("")
    L.append("Speedup over bcgs (bcgs time per iteration / the method's, median of per-round ratios) under the latency "
             "simulator (Krasnopolsky's T_G(p, l), simulated nodes p; a planning model). `async`: non-blocking reductions "
             "progress by themselves (overlap); `none`: only inside MPI calls on them (no overlap unless the solver tests). "
             "Bold: the fastest method at that p (largest speedup; Krasnopolsky's R = 1). Plot: `methodmap.png`; text: `methodmap.txt`.")
    L.append("")
    ms = list(dict.fromkeys(r["method"] for r in mmap))
    hl = lambda r: r.get("halo", "none") if int(r["nodes"]) > 0 else "-"  # the halo model of a simulated point (issue 24)
    groups = list(dict.fromkeys((r["pc"], r["progress"] if int(r["nodes"]) > 0 else "-", hl(r)) for r in mmap))
    for pc, pr, h in groups:
        pts = [r for r in mmap if r["pc"] == pc and hl(r) == h and ((pr == "-" and int(r["nodes"]) == 0) or (r["progress"] == pr and int(r["nodes"]) > 0))]
        nodes = list(dict.fromkeys(int(r["nodes"]) for r in pts))
        charged = "" if h == "-" else ", reductions only delayed" if h == "none" else f", reductions + halo ({h}) delayed"
        L.append(f"**PC {pc}, progress {pr if pr != '-' else '(no simulation, this machine)'}{charged}**")
        L.append("")
        L.append("| p | bcgs ms/it | " + " | ".join(ms[1:]) + " |")
        L.append("|---" * (len(ms) + 1) + "|")
        for p in nodes:
            at = {r["method"]: r for r in pts if int(r["nodes"]) == p}
            best = max(at, key=lambda m: 1.0 if m == "bcgs" else (1 / float(at[m]["vs_bcgs"]) if float(at[m]["vs_bcgs"]) > 0 else 0))
            cells = []
            for m in ms[1:]:
                if m not in at or float(at[m]["vs_bcgs"]) <= 0:
                    cells.append("-")
                    continue
                s = f"{1 / float(at[m]['vs_bcgs']):.2f}x"
                cells.append(f"**{s}**" if m == best else s)
            L.append(f"| {p if p > 0 else 'here'} | {'**' if best == 'bcgs' else ''}{float(at['bcgs']['median_ms']):.3f}"
                     f"{'**' if best == 'bcgs' else ''} | " + " | ".join(cells) + " |")
        L.append("")

# ---------------------------------------------------------------------------------------------------------- multiple RHS
if mrhs:
    L.append(f"## Multiple right-hand sides (`share/bench/mrhs.c`, `mrhs.sh`){mquick}")
    L.append("")
    L.append("Time per RHS-iteration (solve time / (iterations x m), median of the timed solves) and speedup over m separate bcgs "
             "KSPSolve()s; path: the columns advanced together in the interleaved (inter) or dense layout, columns = one KSPSolve() per column. Bytes: mrhs.c's model "
             "per RHS-iteration at m = 16 and the fraction of the STREAM triad of the same run it reaches. Text: `mrhs.txt`; plot: `mrhs.png`.")
    L.append("")
    mlist = sorted({int(r["m"]) for r in mrhs})
    for cfg in dict.fromkeys((int(r["n"]), int(r["ranks"]), r["pc"]) for r in mrhs):
        sub = [r for r in mrhs if (int(r["n"]), int(r["ranks"]), r["pc"]) == cfg]
        mtop = max(mlist)
        L.append(f"**n = {cfg[0]}, {cfg[1]} rank{'s' if cfg[1] > 1 else ''}, PC {cfg[2]}** ({sub[0]['its']} iterations per solve, "
                 f"triad {float(sub[0]['triad_gbs']):.1f} GB/s)")
        L.append("")
        L.append("| method | path | " + " | ".join(f"m = {m}: ms, speedup" for m in mlist) + f" | MB / RHS-it (m = {mtop}) | of triad |")
        L.append("|---" * (len(mlist) + 4) + "|")
        for meth in dict.fromkeys(r["method"] for r in sub):
            byc = {int(r["m"]): r for r in sub if r["method"] == meth}
            cells = [f"{float(byc[m]['median_ms']):.2f}, {float(byc[m]['speedup']):.2f}x" if m in byc else "-" for m in mlist]
            top = byc.get(mtop)
            L.append(f"| {meth} | {top['path'] if top else '-'} | " + " | ".join(cells) +
                     (f" | {float(top['model_mb']):.0f} | {100 * float(top['frac_triad']):.0f} % |" if top else " | - | - |"))
        L.append("")
lay = rows("mrhs-layout.csv")
if lay:
    L.append("**Layout of m columns, one SpMV** (median of 10): dense column-major (AIJ x MATDENSE, what the block solvers use) "
             "against interleaved MAIJ; bytes by mrhs.c's model (dense: one pass over the matrix per 4 columns)")
    L.append("")
    L.append("| ranks | n | m | dense ms | MAIJ ms | m x MatMult ms | dense GB/s | MAIJ GB/s | faster |")
    L.append("|---|---|---|---|---|---|---|---|---|")
    for r in lay:
        L.append(f"| {r['ranks']} | {r['n']} | {r['m']} | {float(r['dense_ms']):.2f} | {float(r['maij_ms']):.2f} | {float(r['separate_ms']):.2f} | "
                 f"{float(r['dense_gbs']):.1f} | {float(r['maij_gbs']):.1f} | {r['faster']} "
                 f"({max(float(r['dense_ms']), float(r['maij_ms'])) / min(float(r['dense_ms']), float(r['maij_ms'])):.2f}x) |")
    L.append("")
msim = rows("mrhs-sim.csv")
if msim:
    L.append("**Latency simulator** (cakpmpi, Krasnopolsky's T_G(p, l), 2 real ranks, n = 30, PC none; a planning model): time per "
             "RHS-iteration, reductions per RHS-iteration, bytes per reduction l and T_G(p, l)")
    L.append("")
    L.append("| p | method | path | ms / RHS-it | vs separate | reductions / RHS-it | l [B] | T_G [us] | reductions x T_G [ms] |")
    L.append("|---|---|---|---|---|---|---|---|---|")
    sep = {(r["nodes"], r.get("halo", "none")): float(r["median_ms"]) for r in msim if r["method"] == "bcgs-separate"}
    for r in msim:
        where = r["nodes"] if int(r["nodes"]) else "here"
        if int(r["nodes"]) and "halo" in r:  # issue 24: what the simulator delayed
            where += " (reductions)" if r["halo"] == "none" else " (red. + halo)"
        L.append(f"| {where} | {r['method']} | {r['path']} | {float(r['median_ms']):.3f} | "
                 f"{sep[r['nodes'], r.get('halo', 'none')] / float(r['median_ms']):.2f}x | {float(r['reductions_per_rhs_it']):.3f} | {float(r['bytes_per_reduction']):.0f} | "
                 f"{float(r['tg_us']):.0f} | {float(r['model_reduction_ms']):.3f} |")
    L.append("")

# ---------------------------------------------------------------------------------------------------------- bottom, demo, overlap
for name, head, note in (("bottom.txt", "Bottom-solver study (`share/bench/bottom.sh`)", "Plot: `bottom.png`."),
                         ("sstudy-matrix.txt", "cabicgstab regression matrix with s up to 32 (`share/bench/sstudy.sh`, part 2)",
                          "The 64^3 s-study itself: `sstudy.txt` (every solve), `sstudy.png`."),
                         ("pmpi-demo.txt", "cakpmpi on PETSc's ex2 (`share/bench/pmpi-demo.sh`)", ""),
                         ("overlap.txt", "MPI_Iallreduce overlap micro-benchmark (`share/bench/overlap.sh`)", "Plot: `overlap.png`.")):
    t = text(name)
    if t is None:
        continue
    L.append(f"## {head}")
    L.append("")
    if note:
        L.append(note)
        L.append("")
    L.append("```")
    L.append(t)
    L.append("```")
    L.append("")

with open(out, "w") as f:
    f.write("\n".join(L) + "\n")
