"""Each course assignment graded once per test worker, for test_course.py and test_right_answers.py
together: the reference, the untouched release, the known-wrong cases and the right answers, every
one of them by both graders in one batch (one reference build and compile cache for the CLI, one
`nbgrader generate_assignment` and one `nbgrader autograde`).

One batch instead of one per file saves those fixed costs for every assignment. conftest.py's
scheduler puts both files' tests of an assignment in one work unit (`work_unit`), so that the worker
that grades it is the one that asks (the Makefile runs pytest with `--dist loadgroup`).

Cases are packed into notebooks (`selftest.pack_cases`): no two cases of a notebook touch the same
exercise. Known-wrong cases are the students `round<i>`; right answers are `right<i>`."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from support.both_graders import grade_with_both
from support.notebooks import load_cases, submission_from_source
from autograder.lab import selftest


@dataclass
class GradedAssignment:
    cli: dict                 # student -> CLI result JSON
    gradebook: dict           # student -> {graded cell: nbgrader's points}
    paths: dict               # student -> the notebook graded
    wrong_rounds: dict        # known-wrong case -> the student whose notebook holds it
    right_rounds: dict = field(default_factory=dict)   # right-answer student -> the answers it holds

    def students(self, *, right: bool) -> list[str]:
        """The right-answer notebooks, or all the others (reference, release, known-wrong rounds)."""
        return [s for s in self.cli if (s in self.right_rounds) == right]


class CourseGrading:
    """`get(assignment)`: that assignment's GradedAssignment, graded on first use."""

    def __init__(self, course, tmp_path_factory, limits):
        self.course, self.tmp, self.limits = course, tmp_path_factory, limits
        self._graded: dict[str, GradedAssignment] = {}

    def get(self, assignment: str) -> GradedAssignment:
        if assignment not in self._graded:
            self._graded[assignment] = self._grade(assignment)
        return self._graded[assignment]

    def _grade(self, assignment: str) -> GradedAssignment:
        course = self.course
        subs = {"reference": submission_from_source(course, assignment),
                "release": submission_from_source(course, assignment, base="release")}
        wrong, wrong_rounds = load_cases(assignment), {}
        for i, names in enumerate(selftest.pack_cases(wrong)):
            subs[f"round{i}"] = self._notebook(assignment, wrong, names)
            wrong_rounds.update({n: f"round{i}" for n in names})
        right, right_rounds = selftest.load_right_answers(course, assignment), {}
        for i, names in enumerate(selftest.pack_cases(right)):
            subs[f"right{i}"] = self._notebook(assignment, right, names)
            right_rounds[f"right{i}"] = names
        cli, gradebook, paths = grade_with_both(course, assignment, subs, Path(self.tmp.mktemp(assignment)),
                                                self.limits)
        return GradedAssignment(cli, gradebook, paths, wrong_rounds, right_rounds)

    def _notebook(self, assignment: str, cases: dict, names: list[str]):
        cells = {ex: src for n in names for ex, src in cases[n]["cells"].items()}
        return submission_from_source(self.course, assignment, cells)
