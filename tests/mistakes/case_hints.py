"""Print (or save) the message of every failed cell of every known-wrong case in tests/cases/.

    .venv/bin/python tests/mistakes/case_hints.py --out before.json [ASSIGNMENT ...]
    .venv/bin/python tests/mistakes/case_hints.py --compare before.json [ASSIGNMENT ...]

A development aid for message work: save the hints before a change to `diagnose.py`/`check.py`,
then compare after it, to see every course message that changed (graded with the CLI's grader).
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from support.notebooks import load_cases, submission_from_source  # noqa: E402
from test_course import pack_cases  # noqa: E402
from autograder.course import Course  # noqa: E402
from autograder.grading.grade import grade_many  # noqa: E402
from autograder.sandbox.process import Limits  # noqa: E402


def hints(course: Course, assignment: str, jobs: int = 1) -> dict:
    cases = load_cases(assignment)
    rounds = pack_cases(cases)
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, names in enumerate(rounds):
            cells = {ex: src for n in names for ex, src in cases[n]["cells"].items()}
            path = Path(tmp) / f"round{i}" / f"{assignment}.ipynb"
            path.parent.mkdir(parents=True)
            nbformat.write(submission_from_source(course, assignment, cells), str(path))
            paths.append(path)
        results = grade_many(paths, course, assignment, Limits(cell_timeout=60, check_timeout=60), jobs=jobs)
    out = {}
    for names, result in zip(rounds, results):
        checks = {c["name"]: c for e in result["exercises"].values() for c in e["checks"]}
        for n in names:
            out[n] = {f: checks[f]["message"] for f in cases[n]["fails"] if f in checks}
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("assignments", nargs="*")
    ap.add_argument("--out")
    ap.add_argument("--compare")
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    course = Course(ROOT)
    names = a.assignments or course.assignment_names()
    now = {n: hints(course, n, a.jobs) for n in names}
    if a.out:
        Path(a.out).write_text(json.dumps(now, indent=1))
    if a.compare:
        before = json.loads(Path(a.compare).read_text())
        for asg, cases in now.items():
            for case, cells in cases.items():
                for cell, msg in cells.items():
                    old = before.get(asg, {}).get(case, {}).get(cell)
                    if old != msg:
                        print(f"== {asg} {case} {cell}\n-- before:\n{old}\n-- now:\n{msg}\n")
    elif not a.out:
        print(json.dumps(now, indent=1))


if __name__ == "__main__":
    main()
