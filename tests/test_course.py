"""End to end, per assignment: reference solutions get full marks, the untouched release gets zero
without crashing, and every known-wrong submission loses exactly the cells it should; the CLI and
`nbgrader autograde` agree cell by cell on all of them. (The grading, shared with
test_right_answers.py, is tests/support/course_grading.py's.)"""
from __future__ import annotations

import functools
import json

import pytest

from support.both_graders import disagreements
from support.notebooks import load_cases
from autograder.course import Course
from autograder.lab import selftest

COURSE = Course()
ASSIGNMENTS = COURSE.assignment_names()


def _case_ids():
    return [(a, name) for a in ASSIGNMENTS for name in load_cases(a)]


# Exercises a case touches, and the packing of cases into few notebooks: the same as the lab
# self-test's (`autograder selftest`), which grades the same cases on a lab's accelerators.
_touched = selftest.touched
pack_cases = selftest.pack_cases


@functools.lru_cache(maxsize=None)
def _devices(assignment: str) -> int:
    """Devices the assignment's worker sees, where a case's verdict depends on it (else 0)."""
    if any("fails_on_one_device" in c for c in load_cases(assignment).values()):
        return selftest.probe_devices(COURSE, assignment)["count"]
    return 0


@pytest.fixture
def graded(course_grading):
    """(CLI results, nbgrader's points, case -> its notebook) of an assignment: the reference, the
    release and every known-wrong case, graded once with the right answers (course_grading)."""
    def get(assignment):
        g = course_grading.get(assignment)
        return g.cli, g.gradebook, g.wrong_rounds
    return get


def _checks(result: dict):
    return [c for e in result["exercises"].values() for c in e["checks"]]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_reference_solutions_get_full_marks(graded, assignment):
    cli, gradebook, _ = graded(assignment)
    result = cli["reference"]
    failed = {c["name"]: c["message"] for c in _checks(result) if not c["passed"]}
    assert not failed, json.dumps(failed, indent=1)
    assert result["score"] == result["max_score"] > 0
    assert set(result["exercises"]) == set(COURSE.assignment(assignment).exercises)
    assert sum(gradebook["reference"].values()) == result["max_score"]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_release_scores_zero_without_crashing(graded, assignment):
    cli, gradebook, _ = graded(assignment)
    result = cli["release"]
    assert result["score"] == 0 and result["max_score"] > 0 and not result["errors"]
    assert sum(gradebook["release"].values()) == 0
    for c in _checks(result):
        assert "NotImplementedError" in c["message"], (c["name"], c["message"])
        assert "[grader]" not in c["message"]


@pytest.mark.parametrize("assignment, case", _case_ids())
def test_known_wrong_submission_loses_exactly_its_points(graded, assignment, case):
    cli, _, rounds = graded(assignment)
    cases = load_cases(assignment)
    spec = cases[case]
    result = cli[rounds[case]]
    mine = {c["name"]: c for ex in _touched(spec) for c in result["exercises"][ex]["checks"]}
    failed = {name for name, c in mine.items() if not c["passed"]}
    expected = selftest.expected_fails(spec, _devices(assignment))
    assert failed == expected, {n: c["message"] for n, c in mine.items() if not c["passed"]}
    for name in failed:
        assert mine[name]["message"].startswith(("[check]", "your code raised")), mine[name]["message"]
    # the other exercises of the same notebook lose exactly their own cases' cells
    round_fails = {f for n, r in rounds.items() if r == rounds[case]
                   for f in selftest.expected_fails(cases[n], _devices(assignment))}
    assert {c["name"] for c in _checks(result) if not c["passed"]} == round_fails


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_exercise_has_two_known_wrong_submissions(assignment):
    cases = load_cases(assignment).values()
    for exercise in COURSE.assignment(assignment).exercises:
        n = sum(exercise in c["cells"] for c in cases)
        assert n >= 2, f"{exercise}: {n} known-wrong submissions"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_cli_and_nbgrader_agree_cell_by_cell(graded, assignment):
    cli, gradebook, _ = graded(assignment)
    assert disagreements(cli, gradebook) == []


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_selftest_agrees_with_this_grading(graded, assignment):
    """`autograder selftest`'s verdicts, taken from the grading above (nothing is graded again)."""
    cli, _, rounds = graded(assignment)
    cases = load_cases(assignment)
    verdicts = selftest.compare(cli, cases, rounds, _devices(assignment))
    assert len(verdicts) == len(cases) + 1
    assert [v for v in verdicts if not v.as_expected] == []


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_student_check_agrees_with_the_grader_on_visible_tests(course_grading, limits, assignment):
    """`autograder check` (the notebook's own visible tests, the grader's harness) on the same
    notebooks: a cell with no hidden part gets the grader's verdict, points and message; a cell
    that fails its visible part fails at grading with the same message."""
    from concurrent.futures import ThreadPoolExecutor
    from autograder.grading.student_check import check_notebook
    graded = course_grading.get(assignment)
    cli, rounds, paths = graded.cli, graded.wrong_rounds, graded.paths
    cases = load_cases(assignment)
    # a case whose values come from an unseeded generator fails both runs, with different numbers, and
    # not always at the same input: its random draws can agree by chance on the visible one (the jit
    # check compares 10 entries of +-1), so only its verdict and points are compared
    varies = {(rounds[n], t) for n, c in cases.items() if c.get("varies_between_runs") for t in c["fails"]}
    hidden = {c.grade_id for c in COURSE.assignment(assignment).test_cells if "BEGIN HIDDEN TESTS" in c.source}
    students = graded.students(right=False)      # (the right answers are not graded a third time)
    with ThreadPoolExecutor(2) as pool:
        checked = dict(zip(students, pool.map(lambda s: check_notebook(paths[s], limits).to_json(),
                                               students)))
    for student in students:
        grader = {c["name"]: c for c in _checks(cli[student]) if c["kind"] != "integrity"}
        mine = {c["name"]: c for c in _checks(checked[student])}
        assert set(mine) == set(grader), student
        for name, c in mine.items():
            g = grader[name]
            if name not in hidden or not c["passed"]:
                cut = (lambda m: "") if (student, name) in varies else (lambda m: m)
                assert (c["passed"], c["points"], cut(_same_run(c["message"]))) == \
                    (g["passed"], g["points"], cut(_same_run(g["message"]))), (student, name, c["message"][:300])


def _same_run(message: str) -> str:
    """A message without what differs between two runs: the worker's scratch folder, and the
    Python object ids that JAX's tracer errors quote."""
    import re
    message = re.sub(r"/tmp/jaxcourse-worker-\S*", "", message)
    return re.sub(r"object id \d+", "object id N", message)
