"""How much slower than its reference a correct answer's test cell runs: the evidence for the margin of
the timeouts per cell (autograder/grading/timeouts.py).

    .venv/bin/python benchmarks/timeout_margin.py [--assignment A ...] [--jobs 2]

For each assignment, one batch with a compile cache, as `autograder autograde` grades one: the builder
grades the references and measures each cell, then the correct answers of tests/cases (`RIGHT`, each
in several idioms, packed into few notebooks) are graded beside each other with the configured
timeouts (no cell is cut short here). Prints, per test cell, the reference's seconds, the slowest
correct answer's seconds and their ratio, and the timeout the cell would get; a correct answer that
would have been cut short is marked. The ratio is what the margin must cover, on this machine's load.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
os.environ.setdefault("JAX_PLATFORMS", "cpu")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--assignment", action="append")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    import nbformat
    from autograder.course import Course
    from autograder.grading import timeouts
    from autograder.grading.batch_cache import BatchCache
    from autograder.grading.grade import grade_many
    from autograder.lab import selftest
    from autograder.sandbox.process import Limits
    from support.notebooks import submission_from_source
    course = Course(ROOT)
    rows, worst = [], 0.0
    for name in a.assignment or course.assignment_names():
        right = selftest.load_right_answers(course, name)
        tmp = Path(tempfile.mkdtemp(prefix="margin-"))
        paths = []
        for i, names in enumerate(selftest.pack_cases(right)):
            cells = {ex: src for n in names for ex, src in right[n]["cells"].items()}
            path = tmp / f"round{i}" / f"{name}.ipynb"
            path.parent.mkdir(parents=True)
            nbformat.write(submission_from_source(course, name, cells), str(path))
            paths.append(path)
        limits = Limits(cell_timeout=120.0, check_timeout=120.0, compile_cache=True, reference_timeouts=False)
        cache = BatchCache(limits, course.hidden_paths())
        try:
            results = grade_many(paths, course, name, limits, jobs=a.jobs, cache=cache)
            reference = cache.built[name].reference_seconds
        finally:
            cache.close()
        slowest: dict[str, float] = {}
        for result in results:
            for e in result["exercises"].values():
                for c in e["checks"]:
                    if c["name"] in reference and c["passed"]:
                        slowest[c["name"]] = max(slowest.get(c["name"], 0.0), c["seconds"])
        derived = timeouts.derive(reference)
        for cell, t in sorted(slowest.items()):
            ratio = t / max(reference[cell], 1e-3)
            worst = max(worst, ratio)
            rows.append((name, cell, reference[cell], t, ratio, derived[cell], t > derived[cell]))
    print("| assignment | cell | reference s | slowest correct s | ratio | timeout s | cut short |")
    print("|---|---|---|---|---|---|---|")
    for name, cell, ref, t, ratio, limit, cut in sorted(rows, key=lambda r: -r[4]):
        print(f"| {name} | {cell} | {ref:.3f} | {t:.3f} | {ratio:.1f}x | {limit:g} | {'**yes**' if cut else ''} |")
    print(f"\ncells: {len(rows)}; largest ratio {worst:.1f}x; margin {timeouts.MARGIN:g}x, floor "
          f"{timeouts.FLOOR_S:g} s; cut short: {sum(r[6] for r in rows)}")


if __name__ == "__main__":
    main()
