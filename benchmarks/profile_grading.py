"""Where the time of grading one notebook goes, part by part.

    .venv/bin/python benchmarks/profile_grading.py [--assignment 03_control_flow] [--repeat 3]

Grades the reference solution of one assignment the way `autograder grade` does (one fresh process
per run, start-up included), observing the grader from outside: the grading code is wrapped, never
changed, so the profile measures what ships. It also times the floor: one plain Python process that
runs every code cell of the source notebook (solutions and all tests) once. Prints a table of the
parts (the median over `--repeat` runs) and the whole against the floor.

Parts:
  grader start-up          interpreter start and imports until the CLI begins to grade
  notebook, import jax     reading the submission, starting the worker and sending it the setup
                           cell, then the grader's own `import jax` (the worker imports its JAX
                           meanwhile, see grading/startup.py)
  worker start + import    what is left of the worker's start when the grader needs it: waiting
                           for its reply to the setup cell (process, namespaces, `import jax`)
  solution cells           the student's cells executed in the worker
  probes and calls         round trips of check probes and student calls (worker time included),
                           split into the worker's own time on each request (as its reply reports
                           it) and the rest: pickling, the pipes, the integrity check of each reply
  test cells (grader)      test cells' own time in the grader, round trips excluded
  reference JAX work       of which: tracing and compiling in the grader (jax.monitoring)
  worker restarts          workers started after the first one
  results                  the JSON written at the end
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs inside a fresh grader process: wraps the grading stages with timers, then runs the CLI.
PROBE = textwrap.dedent('''
    import json, os, sys, time
    T0 = float(sys.argv[1])
    marks = {"start": time.time() - T0}
    parts = {k: 0.0 for k in ("worker", "solutions", "roundtrips", "compute", "tests", "jax", "restarts",
                              "results")}
    counts = {"workers": 0, "roundtrips": 0, "test_cells": 0}
    import autograder.cli as cli
    from autograder.grading import grade as G
    from autograder.sandbox import process as P

    # The CLI imports the grading session (and JAX) only after it has started the worker, so that
    # the two imports overlap: the timers go on the session right after that start, not before.
    real_start = G.start_worker
    def start_then_wrap(*a, **k):
        started = real_start(*a, **k)
        if "ensure" not in orig:
            from autograder.grading import session as S   # what grade_submission imports next
            wrap(S)
        return started
    G.start_worker = start_then_wrap
    state = {"in_ensure": False}

    def wrap(S):
        import jax.monitoring
        def on_jax(event, duration, **kw):
            if event in ("/jax/core/compile/jaxpr_trace_duration",
                         "/jax/core/compile/backend_compile_duration"):
                parts["jax"] += duration
        jax.monitoring.register_event_duration_secs_listener(on_jax)
        orig["ensure"], orig["test"] = S.GradingSession.ensure_worker, S.GradingSession.run_test_cell
        S.GradingSession.ensure_worker, S.GradingSession.run_test_cell = ensure, test
    orig = {"request": P.WorkerProcess.request}

    def ensure(self):
        if self.worker is not None:
            return orig["ensure"](self)
        t = time.perf_counter()
        if counts["workers"] == 0:
            marks["first_ensure"] = time.time() - T0
        state["in_ensure"] = True
        try:
            return orig["ensure"](self)
        finally:
            state["in_ensure"] = False
            took = time.perf_counter() - t
            counts["workers"] += 1
            parts["worker" if counts["workers"] == 1 else "restarts"] += took

    def request(self, req, timeout, make_handle):
        t = time.perf_counter()
        reply = None
        try:
            reply = orig["request"](self, req, timeout, make_handle)
            return reply
        finally:
            took = time.perf_counter() - t
            if state["in_ensure"] and req.get("op") == "exec" and not req.get("trusted"):
                parts["solutions"] += took      # counted again below: taken out of "worker"
            elif not state["in_ensure"]:
                parts["roundtrips"] += took
                counts["roundtrips"] += 1
                if isinstance(reply, dict):     # the worker's own time on the request
                    parts["compute"] += float(reply.get("seconds") or 0.0)

    def test(self, cell):
        t = time.perf_counter()
        try:
            return orig["test"](self, cell)
        finally:
            parts["tests"] += time.perf_counter() - t
            counts["test_cells"] += 1

    P.WorkerProcess.request = request
    orig_dumps = json.dumps
    def dumps(*a, **k):
        t = time.perf_counter()
        try:
            return orig_dumps(*a, **k)
        finally:
            parts["results"] += time.perf_counter() - t
    cli.json.dumps = dumps
    marks["grading"] = time.time() - T0
    code = cli.main(sys.argv[2:])
    marks["end"] = time.time() - T0
    parts["worker"] -= parts["solutions"]
    print("PROFILE " + json.dumps({"marks": marks, "parts": parts, "counts": counts, "code": code}))
''')



def run(cmd, env=None) -> tuple[float, str]:
    t = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if r.returncode not in (0,):
        raise SystemExit(f"{' '.join(map(str, cmd[:4]))} failed ({r.returncode}):\n{r.stderr[-3000:]}")
    return time.time() - t, r.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--assignment", default="03_control_flow")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    import nbformat

    from autograder.course import Course
    from autograder.classroom.demo import build_submission
    from floor import floor_command
    a = args.assignment
    course = Course(ROOT)
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    with tempfile.TemporaryDirectory(prefix="jaxcourse-profile-") as tmp:
        sub = Path(tmp) / a / f"{a}.ipynb"
        sub.parent.mkdir()
        nbformat.write(build_submission(course.release / a / f"{a}.ipynb", course.source / a / f"{a}.ipynb", {}),
                       str(sub))
        profiles, totals, floors = [], [], []
        for _ in range(args.repeat):
            floors.append(run(floor_command(course.source / a / f"{a}.ipynb"), env)[0])
            t0 = time.time()
            total, out = run([sys.executable, "-c", PROBE, repr(t0), "grade", str(sub), "--json",
                              str(Path(tmp) / "out.json"), "--quiet", "--course-root", str(ROOT)], env)
            totals.append(total)
            profiles.append(json.loads(out.split("PROFILE ", 1)[1]))
    med = statistics.median

    def part(key):
        return med(p["parts"][key] for p in profiles)
    startup = med(p["marks"]["grading"] for p in profiles)
    beside = med(p["marks"]["first_ensure"] - p["marks"]["grading"] for p in profiles)
    tests_only = part("tests") - part("roundtrips")
    rows = [("grader start-up", startup),
            ("reading the notebook, grader's import jax", beside),
            ("worker start + import jax, not overlapped", part("worker")),
            ("solution cells", part("solutions")),
            ("probes and calls (round trips)", part("roundtrips")),
            ("  of which the worker computing", part("compute")),
            ("  of which protocol: pickle, pipe, integrity", part("roundtrips") - part("compute")),
            ("test cells in the grader", tests_only),
            ("  of which reference JAX tracing/compiling", part("jax")),
            ("worker restarts", part("restarts")),
            ("results", part("results"))]
    total, floor = med(totals), med(floors)
    print(f"{a}: reference solution, median of {args.repeat} runs, {os.cpu_count()} cores")
    print(f"{'part':44} {'seconds':>8} {'share':>6}")
    for name, secs in rows:
        print(f"{name:44} {secs:8.2f} {secs / total:6.0%}")
    other = total - sum(s for n, s in rows if not n.startswith("  "))
    print(f"{'(unaccounted: process exit, worker close)':44} {other:8.2f} {other / total:6.0%}")
    c = profiles[0]["counts"]
    print(f"{'whole `autograder grade`':44} {total:8.2f}   ({c['workers']} worker(s), "
          f"{c['roundtrips']} round trips, {c['test_cells']} test cells)")
    print(f"{'floor: one process running every source cell':44} {floor:8.2f}")
    print(f"grade / floor = {total / floor:.2f}x")


if __name__ == "__main__":
    main()
