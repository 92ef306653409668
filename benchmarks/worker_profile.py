"""Where a batch's grading time goes, per process: the grader, the main worker, the timing worker.

    .venv/bin/python benchmarks/worker_profile.py [--assignment 03_control_flow] [--notebooks 4]
                                                  [--py-spy PATH] [--rate 100]

Grades `--notebooks` right answers of one assignment (compile_cache.py's class: the course's right
answers in other idioms) with `grade_many` and the batch compile cache, one at a time; the first
notebook also builds the cache and is left out of the per-notebook figures. Prints, per notebook:
each kind of request's round trips and the worker's own time on it (the reply's `seconds`), and
each kind of test cell's time in the grader.

With py-spy (https://github.com/benfred/py-spy; 0.4.3 was used, `pip install py-spy` anywhere and
give its path with `--py-spy`), the same run is also sampled, subprocesses included, and each
process's active time is split into what JAX does (importing, tracing, lowering to MLIR, reading the
compile cache, compiling) and the grader's own work (the integrity check of each reply); time spent
waiting for the next request is left out. py-spy samples from outside, so nothing that ships is
changed.
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

# The first marker a sampled stack holds decides its category (innermost concerns first).
CATEGORIES = [
    ("waiting for a request", "read_frame"),
    ("supervisor (waiting)", "_supervise"),
    ("XLA compile", "backend_compile_and_load"),
    ("compile cache read", "_cache_read"),
    ("lowering to MLIR", "lower_jaxpr_to_module"),
    ("tracing", "trace_to_jaxpr"),
    ("imports", "_find_and_load"),
    ("integrity check of a reply", "Snapshot.violations"),
]
IDLE = {"waiting for a request", "supervisor (waiting)"}


def grade(assignment: str, notebooks: int) -> None:
    """In this process: grade the notebooks, time each request and test cell, print the table."""
    from compile_cache import class_notebooks

    import autograder.grading.grade as grading
    import autograder.grading.session as session
    from autograder.course import Course
    from autograder.grading.batch_cache import BatchCache
    from autograder.grading.startup import isolate_jax_for_grader
    from autograder.sandbox.process import Limits, WorkerProcess
    isolate_jax_for_grader()
    paths = class_notebooks(Path(tempfile.mkdtemp()), assignment, notebooks, mix=False)
    seconds, own, count = collections.Counter(), collections.Counter(), collections.Counter()
    request, run_test_cell = WorkerProcess.request, session.GradingSession.run_test_cell

    def timed_request(self, req, timeout, make_handle):
        kind = req.get("op", "?") + (f" {req.get('probe')}" if req.get("op") == "probe" else "")
        begin = time.perf_counter()
        try:
            reply = request(self, req, timeout, make_handle)
            own[f"request: {kind}"] += reply.get("seconds", 0.0)
            return reply
        finally:
            seconds[f"request: {kind}"] += time.perf_counter() - begin
            count[f"request: {kind}"] += 1

    def timed_cell(self, cell):
        kind = f"test cells: *_{cell.grade_id.rsplit('_', 1)[-1]}"
        begin = time.perf_counter()
        try:
            return run_test_cell(self, cell)
        finally:
            seconds[kind] += time.perf_counter() - begin
            count[kind] += 1
    WorkerProcess.request, session.GradingSession.run_test_cell = timed_request, timed_cell
    course = Course(ROOT)
    limits = Limits(compile_cache=True)
    batch = BatchCache(limits, course.hidden_paths())
    grading.grade_many(paths[:1], course, None, limits, 1, cache=batch)   # builds the cache
    seconds.clear(), own.clear(), count.clear()
    begin = time.perf_counter()
    grading.grade_many(paths[1:], course, None, limits, 1, cache=batch)
    n = len(paths) - 1
    print(f"{n} notebooks of {assignment} after the first: {(time.perf_counter() - begin) / n:.2f} s each")
    print(f"{'per notebook':46} {'seconds':>8} {'worker':>8} {'count':>6}")
    for key, value in sorted(seconds.items(), key=lambda kv: -kv[1]):
        worker = f"{own[key] / n:8.3f}" if key.startswith("request") else " " * 8
        print(f"{key:46} {value / n:8.3f} {worker} {count[key] / n:6.1f}")
    batch.close()


def categorise(raw: Path) -> dict[str, collections.Counter]:
    """py-spy's raw stacks -> process label -> category -> samples."""
    per: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    role: dict[str, str] = {}
    for line in raw.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not n.isdigit():
            continue
        # a worker: a fresh interpreter running sandbox.inside, or a child the fork server's zygote forked
        # (the zygote itself is the first process named after it; what it forks is named after it too)
        pids = re.findall(r'process (\d+):"([^"]*)"', stack)
        forked = [pid for pid, cmd in pids if "sandbox.zygote" in cmd][1:]
        pid = (pids[-1][0] if "sandbox.inside" in stack else forked[-1] if forked
               else "zygote" if any("sandbox.zygote" in cmd for _, cmd in pids) else "grader")
        if "time_against" in stack:
            role[pid] = "timing worker"
        category = next((name for name, marker in CATEGORIES if marker in stack), "other")
        per[pid][category] += int(n)
    out: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for pid, counts in per.items():
        label = pid if pid in ("grader", "zygote") else role.get(pid, "main worker")
        if label != "grader" and sum(v for k, v in counts.items() if k not in IDLE) == 0:
            continue   # an `unshare` or supervisor process: it only waits
        out[label].update(counts)
        out[label]["processes"] += 1
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--assignment", default="03_control_flow")
    ap.add_argument("--notebooks", type=int, default=4)
    ap.add_argument("--py-spy", default=shutil.which("py-spy"))
    ap.add_argument("--rate", type=int, default=100)
    ap.add_argument("--child", action="store_true")
    args = ap.parse_args()
    if args.child or not args.py_spy:
        if not args.child:
            print("(py-spy not found: request and test-cell times only)")
        grade(args.assignment, args.notebooks)
        return
    raw = Path(tempfile.mkdtemp()) / "stacks.raw"
    cmd = [args.py_spy, "record", "-f", "raw", "-o", str(raw), "-r", str(args.rate), "--subprocesses",
           "--nonblocking", "--", sys.executable, __file__, "--child", "--assignment", args.assignment,
           "--notebooks", str(args.notebooks)]
    subprocess.run(cmd, check=True, env={**os.environ, "JAX_PLATFORMS": "cpu"})
    n = args.notebooks   # the builder's notebook included: these are whole-run seconds per notebook
    print(f"\nsampled at {args.rate} Hz, seconds per notebook (all {n}, the cache build included):")
    for label, counts in sorted(categorise(raw).items()):
        processes = counts.pop("processes")
        active = sum(v for k, v in counts.items() if k not in IDLE)
        parts = ", ".join(f"{k} {v / args.rate / n:.2f}" for k, v in counts.most_common() if k not in IDLE)
        print(f"  {label} ({processes} processes): active {active / args.rate / n:.2f}: {parts}")


if __name__ == "__main__":
    main()
