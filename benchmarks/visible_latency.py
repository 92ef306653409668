"""How long a student waits for a visible test cell, in a warm Jupyter kernel.

    .venv/bin/python benchmarks/visible_latency.py [--assignments A ...] [--runs 2]

For each assignment, the release notebook with the reference solutions filled in runs in one
kernel (nbclient), cell by cell, as a student runs it top to bottom; every visible graded test
cell is timed (kernel round trip included). `--runs 2` runs each test cell a second time right
after, as a student does after a fix. Prints the median and maximum per exercise and overall,
against the goals (median under 0.3 s, maximum under 1 s).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.course import Course  # noqa: E402
from autograder.course.notebook import nbgrader_meta, TEST_GRADE_ID  # noqa: E402
from autograder.classroom.demo import build_submission  # noqa: E402


def time_test_cells(nb, runs: int) -> dict[str, list[float]]:
    """exercise -> seconds of each run of each of its visible test cells."""
    client = NotebookClient(nb, timeout=600, kernel_name="python3", allow_errors=True,
                            extra_arguments=["--IPKernelApp.log_level=ERROR"])
    times: dict[str, list[float]] = {}
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            meta = nbgrader_meta(cell)
            is_test = meta.get("grade") and not meta.get("solution")
            for _ in range(runs if is_test else 1):
                started = time.perf_counter()
                client.execute_cell(cell, index)
                took = time.perf_counter() - started
                if is_test:
                    m = TEST_GRADE_ID.match(meta["grade_id"])
                    times.setdefault(m.group("exercise") if m else meta["grade_id"], []).append(took)
                    errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
                    if errors:
                        print(f"  warning: {meta['grade_id']} failed on the reference: {errors[0]['evalue'][:120]}")
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--assignments", nargs="*")
    ap.add_argument("--runs", type=int, default=1, help="runs of each test cell (2: the rerun after a fix)")
    args = ap.parse_args()
    course = Course(ROOT)
    names = args.assignments or course.assignment_names()
    rows, every, by_assignment = [], [], {}
    for name in names:
        nb = build_submission(course.release / name / f"{name}.ipynb", course.source / name / f"{name}.ipynb", {})
        for exercise, secs in time_test_cells(nb, args.runs).items():
            rows.append((name, exercise, len(secs), statistics.median(secs), max(secs)))
            every += secs
            by_assignment.setdefault(name, []).extend(secs)
    print(f"{'assignment':24} {'exercise':22} {'cells':>5} {'median s':>9} {'max s':>7}")
    for name, exercise, n, med, mx in rows:
        print(f"{name:24} {exercise:22} {n:5d} {med:9.3f} {mx:7.3f}")
    print(f"\n{'assignment':28} {'cells':>5} {'median s':>9} {'max s':>7}")
    for name, secs in by_assignment.items():
        print(f"{name:28} {len(secs):5d} {statistics.median(secs):9.3f} {max(secs):7.3f}")
    med, mx = statistics.median(every), max(every)
    print(f"{'all':24} {'':22} {len(every):5d} {med:9.3f} {mx:7.3f}   "
          f"(goals: median < 0.3 s {'met' if med < 0.3 else 'NOT met'}, max < 1 s {'met' if mx < 1 else 'NOT met'})")


if __name__ == "__main__":
    main()
