"""No correct answer loses a point (issue 26): for every exercise, `RIGHT` in tests/cases/ holds at
least five correct answers written in different idioms a student might use; each earns full marks
from the `autograder` CLI and from `nbgrader autograde`, cell by cell the same.

The answers are graded in the same batch as test_course.py's notebooks (tests/support/course_grading.py).
Answers to different exercises share a notebook (`pack_cases`), so an assignment costs as many
notebooks as its exercise with the most answers."""
from __future__ import annotations

import pytest

from support.both_graders import disagreements
from support.notebooks import ROOT
from autograder.course import Course
from autograder.lab import selftest

COURSE = Course(ROOT)
ASSIGNMENTS = COURSE.assignment_names()
AT_LEAST = 5


def _right(assignment: str) -> dict:
    return selftest.load_right_answers(COURSE, assignment)


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_exercise_has_right_answers_in_several_idioms(assignment):
    right = _right(assignment)
    exercises = COURSE.assignment(assignment).exercises
    counts = {ex: sum(ex in a["cells"] for a in right.values()) for ex in exercises}
    assert {ex: n for ex, n in counts.items() if n < AT_LEAST} == {}
    for name, answer in right.items():
        assert set(answer["cells"]) <= set(exercises), name
        assert answer.get("why", "").strip(), f"{name}: say why it is right"
        reference = {c.grade_id: c.source for c in COURSE.assignment(assignment).solution_cells}
        for ex, source in answer["cells"].items():
            assert source.strip() != reference.get(ex, "").strip(), f"{name} is the reference itself"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_right_answers_earn_full_marks_from_both_graders(course_grading, assignment):
    graded = course_grading.get(assignment)
    rounds = graded.right_rounds
    cli = {s: graded.cli[s] for s in graded.students(right=True)}
    gradebook = {s: graded.gradebook[s] for s in cli}
    assert set(cli) == set(rounds) and cli
    lost = {}
    for student, result in cli.items():
        assert not result["errors"], (rounds[student], result["errors"])
        for exercise, e in result["exercises"].items():
            for c in e["checks"]:
                if not c["passed"]:
                    answer = [n for n in rounds[student] if exercise in _right(assignment)[n]["cells"]]
                    lost[(tuple(answer), c["name"])] = c["message"][:600]
    assert lost == {}
    assert all(r["score"] == r["max_score"] > 0 for r in cli.values())
    assert disagreements(cli, gradebook) == []
