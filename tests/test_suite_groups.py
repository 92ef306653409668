"""The suite's work units under `--dist loadgroup` (the Makefile's), as tests/conftest.py's scheduler
draws them: test_course.py and test_right_answers.py read one grading per assignment (tests/support/
course_grading.py), so their tests of one assignment must run on one worker, while different
assignments may run on different ones; every other file stays whole (its module fixtures are built
once), as `--dist loadfile` kept it."""
from __future__ import annotations

import collections
import subprocess
import sys
from pathlib import Path

from conftest import work_unit
from autograder.course import Course

ROOT = Path(__file__).resolve().parent.parent


def _collected(*files: str) -> list[str]:
    """The test ids of `files`, from a real collection (nothing runs)."""
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *files],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    return [line for line in run.stdout.splitlines() if "::" in line]


def test_an_assignments_course_tests_share_one_unit_and_other_files_stay_whole():
    assignments = Course(ROOT).assignment_names()
    ids = _collected("tests/test_course.py", "tests/test_right_answers.py", "tests/test_suite_groups.py")
    units = collections.defaultdict(set)
    for nodeid in ids:
        units[work_unit(nodeid, assignments)].add(nodeid.split("::")[0])
    course = {u: files for u, files in units.items() if u.startswith("assignment ")}
    assert sorted(course) == sorted(f"assignment {a}" for a in assignments)
    for unit, files in course.items():          # both files' tests of an assignment: one worker
        assert files == {"tests/test_course.py", "tests/test_right_answers.py"}, (unit, files)
    for nodeid in ids:                          # a known-wrong case goes with its assignment
        unit = work_unit(nodeid, assignments)
        if "[" in nodeid and nodeid.startswith(("tests/test_course.py", "tests/test_right_answers.py")):
            assert unit.startswith("assignment ") and unit.split(" ", 1)[1] in nodeid, (nodeid, unit)
    assert units["tests/test_suite_groups.py"] == {"tests/test_suite_groups.py"}
    assert work_unit("tests/test_docs.py::test_x[01_jax_basics]", assignments) == "tests/test_docs.py"
