"""What compiling without XLA's costly passes saves the grader, and that no verdict moves
(autograder/sandbox/compile_effort.py).

    .venv/bin/python benchmarks/compile_effort.py [--assignment A ...] [--repeats 2] [--jobs 2]

For each assignment, one batch as `autograder autograde` grades it (a compile cache built from the
references): the reference, every known-wrong round and every right-answer round of tests/cases/.
The batch is graded with quick compiles and with full ones, alternately (ABAB...), so that both see
the same load. Prints the median wall seconds of each, their ratio, whether every check got the same
verdict and points, and how many messages differ (a value a wrong answer printed may differ in its
last digits).
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
os.environ.setdefault("JAX_PLATFORMS", "cpu")


def batch_paths(course, name: str) -> list[Path]:
    import nbformat
    from autograder.lab import selftest
    from support.notebooks import load_cases, submission_from_source
    tmp = Path(tempfile.mkdtemp(prefix="effort-"))
    notebooks = {"reference": submission_from_source(course, name)}
    for kind, cases in (("wrong", load_cases(name)), ("right", selftest.load_right_answers(course, name))):
        for i, names in enumerate(selftest.pack_cases(cases)):
            cells = {ex: src for n in names for ex, src in cases[n]["cells"].items()}
            notebooks[f"{kind}{i}"] = submission_from_source(course, name, cells)
    paths = []
    for student, nb in notebooks.items():
        path = tmp / student / f"{name}.ipynb"
        path.parent.mkdir(parents=True)
        nbformat.write(nb, str(path))
        paths.append(path)
    return paths


def verdicts(results: list[dict]) -> list:
    """(notebook, check, passed, points, message) of every check but the performance ones (timed)."""
    import re
    return [(i, c["name"], c["passed"], c["points"], re.sub(r"/tmp/\S*|object id \d+", "", c["message"]))
            for i, r in enumerate(results) for e in r["exercises"].values() for c in e["checks"]
            if c["kind"] != "performance"]


def grade(paths, course, name, limits, jobs) -> tuple[float, list]:
    from autograder.grading.grade import grade_many
    start = time.perf_counter()
    results = grade_many(paths, course, name, limits, jobs=jobs)
    return time.perf_counter() - start, results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--assignment", action="append")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    from autograder.course import Course
    from autograder.sandbox.process import Limits
    course = Course(ROOT)
    base = Limits(cell_timeout=120.0, check_timeout=120.0, compile_cache=True)
    print("| assignment | notebooks | full compiles (s) | quick compiles (s) | ratio | same verdicts and points | messages that differ |")
    print("|---|---|---|---|---|---|---|")
    totals = {True: 0.0, False: 0.0}
    for name in a.assignment or course.assignment_names():
        paths = batch_paths(course, name)
        runs = {True: [], False: []}
        seen = {}
        for _ in range(a.repeats):
            for quick in (False, True):
                wall, results = grade(paths, course, name, dataclasses.replace(base, quick_compiles=quick), a.jobs)
                runs[quick].append(wall)
                seen[quick] = verdicts(results)
        med = {q: statistics.median(r) for q, r in runs.items()}
        for q in (True, False):
            totals[q] += med[q]
        same = [x[:4] for x in seen[True]] == [x[:4] for x in seen[False]]
        messages = sum(x[4] != y[4] for x, y in zip(seen[True], seen[False]))
        print(f"| {name} | {len(paths)} | {med[False]:.1f} | {med[True]:.1f} | {med[True] / med[False]:.2f}x | "
              f"{'yes' if same else 'NO'} | {messages} |", flush=True)
        for x, y in zip(seen[False], seen[True]):
            if x[:4] != y[:4]:
                print(f"    differs: full {x[:4]} {x[4][:200]!r}\n             quick {y[:4]} {y[4][:200]!r}")
    f, q = totals[False], totals[True]
    print(f"| **all** | | {f:.1f} | {q:.1f} | {q / f:.2f}x | | |")


if __name__ == "__main__":
    main()
