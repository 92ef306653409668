"""A class batch through `autograder autograde` and through `nbgrader autograde`, in one run.

    .venv/bin/python benchmarks/class_batch.py [--assignments A B] [--references N] [--wrong N]
                                               [--cell-timeout S]

For each assignment the class holds N copies of the reference solution, the untouched release,
one notebook per known-wrong case of tests/cases/ (up to --wrong), and three hostile ones (the
process exits while a solution cell runs, a solution cell that never ends, a file that is not
JSON): 22 notebooks per assignment with the defaults, 44 over two assignments.

Each grader gets its own copy of the same nbgrader course (assignments recorded beforehand with
`nbgrader generate_assignment`, so neither pays for it), the same per-cell timeout
(`Execute.timeout`, which both read from nbgrader_config.py) and is timed as whole processes:
  nbgrader autograde A --force               (one kernel per notebook, one notebook at a time)
  autograder autograde A --force --jobs 1
  autograder autograde A --force --jobs 2
Prints seconds, notebooks per minute, the ratio nbgrader / autograder (above 1: autograder
faster), and how many graded cells of the non-hostile notebooks the two gradebooks disagree on.
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
sys.path.insert(0, str(ROOT / "tests"))

import nbformat  # noqa: E402

from autograder.course import Course  # noqa: E402
from autograder.classroom.demo import build_submission  # noqa: E402

HOSTILE = {
    "exits": "import os\nos._exit(1)\n",
    "hangs": "while True:\n    pass\n",
}


def load_cases(assignment: str) -> dict:
    path = ROOT / "tests" / "cases" / f"{assignment}.py"
    ns: dict = {}
    if path.exists():
        exec(compile(path.read_text(), str(path), "exec"), ns)
    return ns.get("CASES", {})


def class_submissions(course: Course, assignment: str, references: int, wrong: int) -> dict:
    """student -> notebook (or raw text for the file that is not JSON)."""
    release = course.release / assignment / f"{assignment}.ipynb"
    source = course.source / assignment / f"{assignment}.ipynb"
    out = {f"ref{i:02d}": build_submission(release, source, {}) for i in range(references)}
    out["release"] = nbformat.read(str(release), as_version=4)
    for i, (name, case) in enumerate(list(load_cases(assignment).items())[:wrong]):
        out[f"wrong{i:02d}"] = build_submission(release, source, case["cells"])
    first = course.assignment(assignment).exercises[0]
    for name, cell in HOSTILE.items():
        out[f"hostile_{name}"] = build_submission(release, source, {first: cell})
    out["hostile_not_json"] = "{ this is not a notebook"
    return out


def make_course(course: Course, root: Path, classes: dict):
    root.mkdir(parents=True)
    config = (course.root / "nbgrader_config.py").read_text()
    (root / "nbgrader_config.py").write_text(config + f"\nc.CourseDirectory.root = {str(root)!r}\n")
    for assignment, subs in classes.items():
        shutil.copytree(course.source / assignment, root / "source" / assignment)
        for student, nb in subs.items():
            path = root / "submitted" / student / assignment / f"{assignment}.ipynb"
            path.parent.mkdir(parents=True)
            if isinstance(nb, str):
                path.write_text(nb)
            else:
                nbformat.write(nb, str(path))
    for assignment in classes:
        run([sys.executable, "-m", "nbgrader", "generate_assignment", assignment, "--force", "--create"], root)
    # generate_assignment writes release/ into the scratch course; nothing else needs it
    shutil.rmtree(root / "release", ignore_errors=True)


def run(cmd, cwd, ok=(0,)) -> float:
    t = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=ENV)
    if r.returncode not in ok:
        raise SystemExit(f"{' '.join(map(str, cmd))} exited {r.returncode}:\n{r.stdout[-1500:]}\n{r.stderr[-1500:]}")
    return time.perf_counter() - t


def scores(root: Path, assignment: str) -> dict:
    from nbgrader.api import Gradebook, MissingEntry
    out = {}
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}", "jax-course") as gb:
        for student in gb.students:
            try:
                nb = gb.find_submission_notebook(assignment, assignment, student.id)
            except MissingEntry:
                continue
            out[student.id] = {g.name: g.auto_score for g in nb.grades}
    return out


ENV = dict(os.environ)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--assignments", nargs="+", default=["02_static_shapes", "03_control_flow"])
    ap.add_argument("--references", type=int, default=6)
    ap.add_argument("--wrong", type=int, default=12)
    ap.add_argument("--cell-timeout", type=int, default=15)
    args = ap.parse_args()
    ENV["PATH"] = os.path.dirname(sys.executable) + os.pathsep + ENV.get("PATH", "")
    ENV["JAX_COURSE_CELL_TIMEOUT"] = str(args.cell_timeout)
    course = Course(ROOT)
    classes = {a: class_submissions(course, a, args.references, args.wrong) for a in args.assignments}
    total = sum(len(c) for c in classes.values())
    print(f"{total} notebooks: {', '.join(f'{a} ({len(c)})' for a, c in classes.items())}; "
          f"cores: {os.cpu_count()}; cell timeout {args.cell_timeout} s", flush=True)
    autograder = [sys.executable, "-m", "autograder.cli", "autograde"]
    nbgrader = [sys.executable, "-m", "nbgrader", "autograde"]
    runs = {"nbgrader autograde": lambda a: nbgrader + [a, "--force"],
            "autograder autograde --jobs 1": lambda a: autograder + [a, "--force", "--jobs", "1"],
            "autograder autograde --jobs 2": lambda a: autograder + [a, "--force", "--jobs", "2"]}
    seconds = {}
    with tempfile.TemporaryDirectory(prefix="jaxcourse-class-") as tmp:
        roots = {}
        for label, cmd in runs.items():
            root = Path(tmp) / label.split()[0] / label.split()[-1]
            make_course(course, root, classes)
            roots[label] = root
            # both exit non-zero when a student could not be graded (the file that is not JSON)
            seconds[label] = sum(run(cmd(a), root, ok=(0, 1, 2)) for a in args.assignments)
            print(f"  {label:32} {seconds[label]:7.1f} s  {total / seconds[label] * 60:6.1f} notebooks/minute",
                  flush=True)
        disagreements = 0
        for a in args.assignments:
            theirs = scores(roots["nbgrader autograde"], a)
            ours = scores(roots["autograder autograde --jobs 2"], a)
            for student, cells in theirs.items():
                if student.startswith("hostile"):
                    continue
                disagreements += sum(cells[c] != ours.get(student, {}).get(c) for c in cells)
    base = seconds["nbgrader autograde"]
    for jobs in (1, 2):
        mine = seconds[f"autograder autograde --jobs {jobs}"]
        print(f"ratio nbgrader / autograder --jobs {jobs}: {base / mine:.2f}x")
    print(f"graded cells where the two gradebooks disagree (non-hostile notebooks): {disagreements}")


if __name__ == "__main__":
    main()
