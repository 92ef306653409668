"""End to end, per assignment: reference solutions get full marks, the untouched release gets zero
without crashing, and every known-wrong submission loses exactly the cells it should; the CLI and
`nbgrader autograde` agree cell by cell on all of them."""
from __future__ import annotations

import json
import shutil

import nbformat
import pytest

from conftest import load_cases, submission_from_source
from autograder.course import Course
from autograder.grade import grade_notebook
from autograder import nbgrader_run

COURSE = Course()
ASSIGNMENTS = COURSE.assignment_names()


def _case_ids():
    return [(a, name) for a in ASSIGNMENTS for name in load_cases(a)]


@pytest.fixture(scope="module")
def graded(tmp_path_factory, limits):
    """Grade, once per assignment, the reference, the release and every case, with both graders."""
    cache: dict = {}

    def get(assignment):
        if assignment in cache:
            return cache[assignment]
        tmp = tmp_path_factory.mktemp(assignment)
        subs = {"reference": submission_from_source(COURSE, assignment),
                "release": submission_from_source(COURSE, assignment, base="release")}
        for name, case in load_cases(assignment).items():
            subs[name] = submission_from_source(COURSE, assignment, case["cells"])
        paths = {}
        for student, nb in subs.items():
            path = tmp / "in" / student / f"{assignment}.ipynb"
            path.parent.mkdir(parents=True)
            nbformat.write(nb, str(path))
            paths[student] = path
        cli = {s: grade_notebook(p, COURSE, assignment, limits) for s, p in paths.items()}
        work = nbgrader_run.prepare(COURSE, tmp / "nbgrader", assignment, paths)
        nbgrader_run.generate(work, assignment)
        run = nbgrader_run.autograde(work, assignment)
        assert run.returncode == 0, run.stderr[-3000:]
        cache[assignment] = (cli, nbgrader_run.read_gradebook(work, assignment))
        return cache[assignment]

    return get


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_reference_solutions_get_full_marks(graded, assignment):
    cli, _ = graded(assignment)
    result = cli["reference"]
    failed = {c.name: c.message for e in result.exercises.values() for c in e.checks if not c.passed}
    assert not failed, json.dumps(failed, indent=1)
    assert result.score == result.max_score > 0
    assert set(result.exercises) == set(COURSE.assignment(assignment).exercises)


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_release_scores_zero_without_crashing(graded, assignment):
    cli, _ = graded(assignment)
    result = cli["release"]
    assert result.score == 0 and result.max_score > 0
    for exercise in result.exercises.values():
        for c in exercise.checks:
            assert "NotImplementedError" in c.message or "not implemented" in c.message, (c.name, c.message)
            assert "[grader]" not in c.message


@pytest.mark.parametrize("assignment, case", _case_ids())
def test_known_wrong_submission_loses_exactly_its_points(graded, assignment, case):
    cli, _ = graded(assignment)
    spec = load_cases(assignment)[case]
    result = cli[case]
    failed = {c.name for e in result.exercises.values() for c in e.checks if not c.passed}
    assert failed == set(spec["fails"]), {c.name: c.message for e in result.exercises.values()
                                          for c in e.checks if not c.passed}
    for e in result.exercises.values():
        for c in e.checks:
            if not c.passed:
                assert c.message.startswith(("[check]", "your code raised")), c.message


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_exercise_has_two_known_wrong_submissions(assignment):
    cases = load_cases(assignment).values()
    for exercise in COURSE.assignment(assignment).exercises:
        n = sum(exercise in c["cells"] for c in cases)
        assert n >= 2, f"{exercise}: {n} known-wrong submissions"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_cli_and_nbgrader_agree_cell_by_cell(graded, assignment):
    cli, gradebook = graded(assignment)
    disagreements = []
    for student, result in cli.items():
        ours = result.cell_points()
        theirs = gradebook[student]
        assert set(ours) == set(theirs), (student, set(ours) ^ set(theirs))
        for cell, points in ours.items():
            if abs(points - theirs[cell]) > 1e-9:
                disagreements.append((student, cell, points, theirs[cell]))
    assert not disagreements
