#!/usr/bin/env python3
"""The standing campaign against PETSc's own example programs (`make test-petsc-examples`).

Runs every line of programs.txt with each cakrylov KSP type, loaded at run time by -dll_append, on each rank count the
line names, and judges each run only by what the run itself prints: its exit code, and the checks its line names
(see programs.txt for their meaning). Prints one line per run, the failing commands with the tail of their output,
and a closing line `petsc-examples: N passed, N failed, N skipped`; exits 1 if any run failed.

  campaign.py --petsc-dir DIR --bindir DIR --lib LIB [--list FILE] [--jobs N] [--types T,T] [--only PATTERN]
              [--extra OPTIONS] [--timeout SECONDS]

--bindir holds the programs built by the makefile, one per source, at BINDIR/<source path without .c>.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import signal
import subprocess
import sys
import time

TYPES = ["cabicgstab", "rbicgstab", "pipebcgsm", "bcgsm", "autobcgs"]
# The true residual may exceed the solver's tolerance by rounding: the solvers stop on a recursively updated residual
# (cabicgstab on a checked one), whose gap to b - A x is a few ulps of ||A|| ||x|| per iteration. On these small
# problems (condition numbers below 1e5, at most a few hundred iterations, rtol >= 1e-8) that gap is orders of magnitude
# below 10 % of rtol ||r0||, so a true residual above 1.1 rtol ||r0|| is a wrong answer, not rounding.
MARGIN = 1.1
FLOAT = r"([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|nan|inf|-nan|-inf)"
# The programs' own verdict lines, named for use as `NAME<=BOUND` checks in programs.txt: the first number after
# the phrase on each matching line.
VERDICTS = {
    "error": r"(?i)norm of (?:the )?error[^0-9+-]*?" + FLOAT,           # "Norm of error 1e-6", "Infinity norm of the error: ..."
    "errnorm": r"Error norm " + FLOAT,                                  # ksp/tests ex24, ksp/tutorials ex34
    "relres": r"Relative norm of the residual " + FLOAT,               # ksp/tutorials ex5
    "residual": r"(?<![A-Za-z ])Residual norm " + FLOAT,               # ksp/tutorials ex25, ex34, ex45 ("Residual norm 1e-7")
    "tserror": r"(?i)avg\. error \(2 norm\) = " + FLOAT,              # ts/tutorials ex3, ex4
    "snesfnorm": r"fnorm " + FLOAT,                                    # snes/tutorials ex14
    "cres": r"\|\| C(?:\^T)?\*u - b\|\| = +" + FLOAT,                     # ksp/tests ex2 ("|| C^T*u - b|| = 1e-9")
}
RE_MONITOR_TRUE = re.compile(r"^\s*(\d+) KSP .*true resid norm " + FLOAT + r" \|\|r\(i\)\|\|/\|\|b\|\| " + FLOAT)
RE_MONITOR = re.compile(r"^\s*(\d+) KSP (?:unpreconditioned |preconditioned )?Residual norm " + FLOAT)
RE_FINAL = re.compile(r"KSP final norm of residual " + FLOAT)
# left out of the tail of a failed run's output: PETSc's option table and configure line, Open MPI's abort notice
NOISE = re.compile(r"PETSC ERROR: (?:-|PETSc Option Table|Configure options|See https|Petsc Release|.* on a .* named )|"
                   r"^\[[^\]]*:\d+\]|MPI_ABORT|^-{20,}|NOTE: invoking MPI_ABORT|You may or may not see|exactly when Open MPI|"
                   r"with errorcode|^\s*$")
RE_CONVERGED = re.compile(r"converged due to CONVERGED_")
RE_DIVERGED = re.compile(r"DIVERGED_|did not converge|failed due to")


def parse_list(path):
    """Lines `name | source | ranks | types | needs | checks | arguments | why`; '#' starts a comment line."""
    entries = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = [x.strip() for x in line.rstrip("\n").split("|", 7)]  # the last (why) may hold "||b||"
            if len(fields) != 8:
                sys.exit(f"{path}:{lineno}: expected 8 fields separated by '|', found {len(fields)}")
            name, source, ranks, types, needs, checks, args, why = fields
            if "@TYPE@" not in args:
                sys.exit(f"{path}:{lineno}: the arguments must say where the type goes (@TYPE@)")
            entries.append(dict(name=name, source=source, ranks=[int(r) for r in ranks.split()],
                                types=TYPES if types == "all" else types.split(),
                                needs=[] if needs == "-" else needs.split(), checks=checks.split(), args=args,
                                why=why, lineno=lineno))
    return entries


def petsc_has(petsc_dir, petsc_arch, package):
    for conf in (os.path.join(petsc_dir, petsc_arch, "include", "petscconf.h"),
                 os.path.join(petsc_dir, "include", "petscconf.h")):
        if os.path.exists(conf):
            with open(conf) as f:
                return re.search(r"^#define PETSC_HAVE_%s 1" % re.escape(package.upper()), f.read(), re.M) is not None
    return False


def num(s):
    try:
        return float(s)
    except ValueError:
        return float("nan")


def judge(checks, out):
    """Returns '' when every check holds, else why not."""
    lines = out.splitlines()
    for check in checks:
        if check == "reason":
            bad = [l.strip() for l in lines if RE_DIVERGED.search(l)]
            if bad:
                return "not converged: " + bad[0]
            if not any(RE_CONVERGED.search(l) for l in lines):
                return "no 'converged due to CONVERGED_*' line"
        elif check.startswith("trueres<="):
            # -ksp_monitor_true_residual: the last line of each solve (a solve starts at iteration 0)
            rtol = float(check.split("<=")[1])
            solves = []
            for l in lines:
                m = RE_MONITOR_TRUE.match(l)
                if m:
                    if int(m.group(1)) == 0 or not solves:
                        solves.append(None)
                    solves[-1] = (int(m.group(1)), num(m.group(3)))
            if not solves:
                return "no -ksp_monitor_true_residual lines"
            for k, (its, ratio) in enumerate(solves):
                if not ratio <= rtol * MARGIN:
                    return f"solve {k + 1}: true residual ||b - A x||/||b|| = {ratio:g} at its last iteration {its} > {MARGIN} * rtol {rtol:g}"
        elif check.startswith("finalres<="):
            # -ksp_monitor (unpreconditioned norm: its line 0 is ||b - A x0||) and -ksp_view_final_residual
            # (PETSc's b - A x from the returned x): each final residual against the last initial one before it
            rtol = float(check.split("<=")[1])
            r0, n = None, 0
            for l in lines:
                m = RE_MONITOR.match(l)
                if m and int(m.group(1)) == 0:
                    r0 = num(m.group(2))
                m = RE_FINAL.search(l)
                if m:
                    n += 1
                    if r0 is None:
                        return "a final residual without a -ksp_monitor line 0 before it"
                    final = num(m.group(1))
                    if not final <= rtol * MARGIN * r0:
                        return f"solve {n}: final ||b - A x|| = {final:g} > {MARGIN} * rtol {rtol:g} * ||r0|| {r0:g}"
                    r0 = None
            if not n:
                return "no -ksp_view_final_residual lines"
        elif "<=" in check:
            key, bound = check.split("<=")
            optional = key.endswith("?")
            key = key.rstrip("?")
            if key not in VERDICTS:
                return f"unknown check {check}"
            values = [num(m.group(1)) for l in lines for m in [re.search(VERDICTS[key], l)] if m]
            if not values and not optional:
                return f"no '{key}' verdict line"
            for v in values:
                if not v <= float(bound):
                    return f"{key} {v:g} > {bound}"
        elif check == "exit":
            pass
        else:
            return f"unknown check {check}"
    return ""


def run_one(job, timeout):
    t0 = time.time()
    p = subprocess.Popen(job["cmd"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
                         cwd=job["cwd"])
    try:
        out, _ = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        rc = None
    out = out.decode(errors="replace")
    if rc is None:
        why = f"timed out after {timeout} s"
    elif rc != 0:
        why = f"exit code {rc}"
    else:
        why = judge(job["checks"], out)
    return job, why, out, time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--list", default=os.path.join(here, "programs.txt"))
    ap.add_argument("--petsc-dir", required=True)
    ap.add_argument("--petsc-arch", default="")
    ap.add_argument("--bindir", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("CAMPAIGN_JOBS", "1")),
                    help="runs at a time (each uses up to 2 ranks)")
    ap.add_argument("--types", default=",".join(TYPES))
    ap.add_argument("--only", default="", help="regular expression on the program's name")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--extra", default="", help="options appended to every run (e.g. '-malloc_debug -malloc_dump')")
    ap.add_argument("--mpiexec", default=os.environ.get("MPIEXEC", "mpiexec"))
    a = ap.parse_args()

    env_mpi = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1", "OMPI_MCA_rmaps_base_oversubscribe": "1"}
    os.environ.update(env_mpi)
    # one machine: OpenMPI's ob1 (shared memory) unless chosen otherwise, not a probe of UCX/libfabric at each launch
    os.environ.setdefault("OMPI_MCA_pml", "ob1")
    types = a.types.split(",")
    # the programs run in a folder of their own (some write files where they run)
    workdir = os.path.join(a.bindir, "run")
    os.makedirs(workdir, exist_ok=True)
    jobs, skipped = [], []
    entries = parse_list(a.list)
    width = max(len(e["name"]) for e in entries)
    for e in entries:
        if a.only and not re.search(a.only, e["name"]):
            continue
        exe = os.path.join(a.bindir, e["source"][:-2] if e["source"].endswith(".c") else e["source"])
        missing = [n for n in e["needs"] if not petsc_has(a.petsc_dir, a.petsc_arch, n)]
        # a line for all types runs with the selected ones (--types bcgs runs the list with PETSc's own BiCGStab)
        for t in (types if e["types"] == TYPES else [t for t in e["types"] if t in types]):
            for np in e["ranks"]:
                tag = f"{e['name']:<{width}} {t:<10} np={np}"
                if missing:
                    skipped.append(f"SKIP {tag}  (this PETSc has no {', '.join(missing)})")
                    continue
                if not os.path.exists(exe):
                    skipped.append(f"SKIP {tag}  ({e['source']} is not in this PETSc's examples)")
                    continue
                args = shlex.split(e["args"].replace("@TYPE@", t)) + shlex.split(a.extra)
                cmd = [a.mpiexec, "--oversubscribe", "-n", str(np), exe, "-dll_append", a.lib] + args
                jobs.append(dict(tag=tag, cmd=cmd, checks=e["checks"], cwd=workdir))
    for s in skipped:
        print(s, flush=True)

    t0 = time.time()
    passed, failed = 0, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for job, why, out, dt in pool.map(lambda j: run_one(j, a.timeout), jobs):
            if why:
                failed.append((job, why, out))
                print(f"FAIL {job['tag']}  {dt:5.1f} s  {why}", flush=True)
            else:
                passed += 1
                print(f"ok   {job['tag']}  {dt:5.1f} s", flush=True)
    for job, why, out in failed:
        kept = [l for l in out.splitlines() if not NOISE.search(l)]
        tail = kept[-25:]
        errors = [l for l in kept[:-25] if "PETSC ERROR" in l][:12]  # PETSc's message when more output followed it
        if errors:
            tail = errors + ["..."] + tail
        print(f"\n---- FAIL {job['tag']}: {why}\n$ cd {shlex.quote(job['cwd'])} && "
              + " ".join(f"{k}={v}" for k, v in env_mpi.items()) + " " + " ".join(shlex.quote(c) for c in job["cmd"]))
        print("\n".join("  " + l for l in tail))
    print(f"petsc-examples: {len(jobs)} runs in {time.time() - t0:.0f} s")
    print(f"petsc-examples: {passed} passed, {len(failed)} failed, {len(skipped)} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
