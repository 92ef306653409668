"""Each test cell's grading time, this checkout against an earlier revision: where a slower grade comes from.

    .venv/bin/python benchmarks/cell_versions.py [REV] [--assignment 03_control_flow] [--rounds 2]
                                                 [--right-answer] [--batch-cache]

The assignment's reference notebook (with `--right-answer`, the first right answer of tests/cases in
another idiom, as the class benchmark's first student hands in) is graded alone (`grade_notebook`)
by each side in a fresh process, the sides alternating which goes first; REV (b4b601d by default) is
checked out as `ab_versions.py` does. With `--batch-cache`, each side first builds the batch compile
cache from the references (not timed), then grades the notebook as one of a batch, as `autograde`
does by default. Each test cell's time is taken from outside the package, by wrapping
`GradingSession.run_test_cell` once the session module is imported, so both sides are measured the
same way; so is the number of requests a cell sends the worker. Prints each side's best notebook
time and, per test cell, the best time of each side and the difference, largest first.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_child(notebook: str, root: str, cached: str = "") -> None:
    """In a fresh process of one side: grade `notebook`, print one JSON line of cell times."""
    import time
    from autograder.course import Course
    from autograder.grading.batch_cache import BatchCache
    from autograder.grading import grade as grade_module
    from autograder.sandbox import process as process_module
    from autograder.sandbox.process import Limits
    seconds, requests, running = {}, {}, []
    send = process_module.WorkerProcess.request

    def counted(self, req, timeout, make_handle):
        if running:
            requests[running[-1]] = requests.get(running[-1], 0) + 1
        return send(self, req, timeout, make_handle)
    process_module.WorkerProcess.request = counted
    start = grade_module.start_worker

    def start_then_wrap(*args, **kwargs):
        started = start(*args, **kwargs)
        from autograder.grading import session      # imported by grade_submission after the start
        if not getattr(session.GradingSession, "_timed", False):
            run = session.GradingSession.run_test_cell

            def timed(self, cell):
                running.append(cell.grade_id)
                began = time.perf_counter()
                try:
                    return run(self, cell)
                finally:
                    seconds[cell.grade_id] = seconds.get(cell.grade_id, 0.0) + time.perf_counter() - began
                    running.pop()
            session.GradingSession.run_test_cell = timed
            session.GradingSession._timed = True
        return started
    course = Course(Path(root))
    limits = Limits(cell_timeout=60, check_timeout=60, compile_cache=bool(cached))
    batch = None
    if cached:    # built before the timers go on: its builder grades the reference through the test cells
        batch = BatchCache(limits, course.hidden_paths())
        batch.limits_for(course.assignment(Path(notebook).stem))
    grade_module.start_worker = start_then_wrap
    began = time.perf_counter()
    result = grade_module.grade_notebook(notebook, course, None, limits, cache=batch)
    if batch is not None:
        batch.close()
    print(json.dumps({"total": time.perf_counter() - began, "score": result.score, "cells": seconds,
                      "requests": requests, "package": str(Path(sys.modules["autograder"].__file__).parent)}))


def side(python: str, root: Path, notebook: Path, cached: bool) -> dict:
    from ab_versions import run_side
    return run_side(python, root, __file__, str(notebook), str(root), "cached" if cached else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rev", nargs="?", default="b4b601d")
    ap.add_argument("--assignment", default="03_control_flow")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--right-answer", action="store_true")
    ap.add_argument("--batch-cache", action="store_true")
    ap.add_argument("--child", nargs=3)
    args = ap.parse_args()
    if args.child:
        return run_child(*args.child)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from ab_versions import old_checkout
    scratch = Path(tempfile.mkdtemp(prefix="jaxcourse-cellver-"))
    try:
        old_tree, old_python = old_checkout(args.rev, scratch)
        sides = {args.rev: (old_python, old_tree), "this checkout": (sys.executable, ROOT)}
        runs: dict[str, list] = {name: [] for name in sides}
        student = None
        if args.right_answer:     # one notebook for both sides, from this checkout's tests/cases
            sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
            from compile_cache import class_notebooks
            student = Path(class_notebooks(scratch / "class", args.assignment, 1, False)[0])
        for r in range(args.rounds):
            for name in (list(sides) if r % 2 == 0 else list(reversed(sides))):
                python, root = sides[name]
                notebook = student or root / "source" / args.assignment / f"{args.assignment}.ipynb"
                runs[name].append(side(python, root, notebook, args.batch_cache))
        report(args, runs)
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(scratch / "tree")],
                       capture_output=True)
        shutil.rmtree(scratch, ignore_errors=True)


def report(args, runs: dict) -> None:
    (old_name, old), (new_name, new) = runs.items()
    what = "first right answer" if args.right_answer else "reference"
    cache = "with the batch cache" if args.batch_cache else "alone"
    print(f"{args.assignment}'s {what} graded {cache}, best of {args.rounds}: "
          f"{old_name} {min(r['total'] for r in old):.1f} s, {new_name} {min(r['total'] for r in new):.1f} s "
          f"(scores {old[0]['score']} and {new[0]['score']})")
    best = {name: {cell: min(r["cells"].get(cell, 0.0) for r in rs) for cell in rs[0]["cells"]}
            for name, rs in runs.items()}
    rows = sorted(best[new_name], key=lambda c: best[old_name].get(c, 0.0) - best[new_name][c])
    print(f"| test cell | {old_name} | {new_name} | difference | requests |\n|---|---|---|---|---|")
    for cell in rows:
        o, w = best[old_name].get(cell, 0.0), best[new_name][cell]
        print(f"| {cell} | {o:.2f} s | {w:.2f} s | {w - o:+.2f} s | "
              f"{old[0]['requests'].get(cell, 0)} -> {new[0]['requests'].get(cell, 0)} |")
    print(f"| all | {sum(best[old_name].values()):.2f} s | {sum(best[new_name].values()):.2f} s | | |")


if __name__ == "__main__":
    main()
