"""Time the autograder CLI against `nbgrader autograde` on the same submissions, in one run.

    .venv/bin/python benchmarks/grade_vs_nbgrader.py [--students N] [--repeat R] [--assignments A ...]

For every assignment: N copies of the reference solution are graded
  (a) one notebook: `autograder grade` (a fresh process, as an instructor runs it) vs
      `nbgrader autograde --student` of that one notebook;
  (b) the batch of N: one `autograder grade` call (parallel workers) vs one `nbgrader autograde`
      call (sequential kernels).
Prints seconds and the ratio nbgrader / CLI (above 1 means the CLI is faster). Both commands are
timed as whole processes, start-up included; the best of R repeats is kept.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.course import Course  # noqa: E402
from autograder.classroom import nbgrader_run  # noqa: E402
from autograder.classroom.demo import build_submission  # noqa: E402


def timed(cmd, cwd=None) -> float:
    t = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if r.returncode not in (0,):
        raise SystemExit(f"{' '.join(map(str, cmd))} failed:\n{r.stderr[-2000:]}")
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--students", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--assignments", nargs="*", default=["02_static_shapes", "03_control_flow"],
                    help="assignments to time (default: the two of the foundation issue)")
    args = ap.parse_args()
    course = Course(ROOT)
    cli = [sys.executable, "-m", "autograder.cli", "grade", "--quiet", "--course-root", str(ROOT)]
    rows = []
    with tempfile.TemporaryDirectory(prefix="jaxcourse-bench-") as tmp:
        tmp = Path(tmp)
        for a in args.assignments:
            import nbformat
            nb = build_submission(course.release / a / f"{a}.ipynb", course.source / a / f"{a}.ipynb", {})
            subs = {}
            for i in range(args.students):
                p = tmp / "subs" / a / f"s{i}" / f"{a}.ipynb"
                p.parent.mkdir(parents=True)
                nbformat.write(nb, str(p))
                subs[f"s{i}"] = p
            work = nbgrader_run.prepare(course, tmp / "nbg", a, subs)
            nbgrader_run.generate(work, a)
            nbg = [sys.executable, "-m", "nbgrader", "autograde", a, "--force"]
            one_nbg = min(timed(nbg + ["--student", "s0"], cwd=work) for _ in range(args.repeat))
            one_cli = min(timed(cli + [str(subs["s0"]), "--json", str(tmp / "o.json")]) for _ in range(args.repeat))
            all_nbg = min(timed(nbg, cwd=work) for _ in range(args.repeat))
            all_cli = min(timed(cli + [str(p) for p in subs.values()] + ["--json", str(tmp / "o.json")])
                          for _ in range(args.repeat))
            rows.append((a, one_cli, one_nbg, all_cli, all_nbg))
            shutil.rmtree(tmp / "nbg")
    print(f"{'assignment':20} {'1 nb: CLI':>10} {'nbgrader':>9} {'ratio':>6}   "
          f"{args.students} nbs: CLI {'nbgrader':>9} {'ratio':>6}")
    for a, oc, on, ac, an in rows:
        print(f"{a:20} {oc:9.2f}s {on:8.2f}s {on / oc:5.2f}x   {ac:9.2f}s {an:8.2f}s {an / ac:5.2f}x")
    print(f"cores: {os.cpu_count()}; ratio = nbgrader seconds / CLI seconds (higher: CLI faster)")


if __name__ == "__main__":
    main()
