"""The suite's work units under `--dist loadgroup` (the Makefile's), as tests/conftest.py draws them:
test_course.py and test_right_answers.py read one grading per assignment (tests/support/
course_grading.py), so their tests of one assignment must run on one worker, while different
assignments may run on different ones; every other file stays whole (its module fixtures are built
once), as `--dist loadfile` kept it."""
from __future__ import annotations

import collections
import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _groups(*files: str) -> dict[str, str]:
    """{test id: its xdist group}, from a real collection of `files` (nothing runs)."""
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                          "-p", "support.group_report", *files], cwd=TESTS.parent, capture_output=True,
                         text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(TESTS)})
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    rows = [line.split(" ", 2)[1:] for line in run.stdout.splitlines() if line.startswith("GROUP ")]
    return {nodeid: group for nodeid, group in rows}


def test_an_assignments_course_tests_share_one_group_and_other_files_stay_whole():
    groups = _groups("tests/test_course.py", "tests/test_right_answers.py", "tests/test_suite_groups.py")
    by_group = collections.defaultdict(set)
    for nodeid, group in groups.items():
        assert group, f"{nodeid} has no xdist group"
        by_group[group].add(nodeid.split("::")[0])
    course = {g: files for g, files in by_group.items() if g.startswith("assignment-")}
    assert len(course) == 8, sorted(by_group)
    for group, files in course.items():          # both files' tests of an assignment: one worker
        assert files == {"tests/test_course.py", "tests/test_right_answers.py"}, (group, files)
    for nodeid, group in groups.items():
        if "[" in nodeid and group.startswith("assignment-"):
            assert group.removeprefix("assignment-") in nodeid, (nodeid, group)
    assert by_group["tests/test_suite_groups.py"] == {"tests/test_suite_groups.py"}
