"""Scores and the grading JSON of ../shared/COURSE_SPEC.md.

Every text of the JSON that can quote student code (a check's message, an error) passes through
`text.visible` here, the one place every output is built from (the CLI's tables, nbgrader's
gradebook and feedback, Gradescope and PrairieLearn read this JSON): no control character or
invisible mark of the student's reaches a terminal or a page."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..checks import failure
from ..checks.text import visible


@dataclass
class CheckResult:
    name: str                 # the graded test cell's grade_id
    kind: str
    exercise: str
    passed: bool = False
    points: float = 0.0
    max_points: float = 0.0
    message: str = ""
    seconds: float = 0.0
    line: int = 0             # line of the test cell where it failed (0: passed, or failed before running)
    reached_hidden: bool = False   # a clean session's run stopped where the hidden tests begin

    def to_json(self, backend: str) -> dict:
        return {"name": self.name, "kind": self.kind, "passed": self.passed, "points": self.points,
                "max_points": self.max_points, "message": visible(self.message), "backend": backend,
                "seconds": self.seconds, "line": self.line}


@dataclass
class ExerciseResult:
    exercise: str
    checks: list[CheckResult] = field(default_factory=list)

    @property
    def max_score(self) -> float:
        return float(sum(c.max_points for c in self.checks))

    @property
    def score(self) -> float:
        if any(c.kind == "integrity" and not c.passed for c in self.checks):
            return 0.0
        return float(sum(c.points for c in self.checks))


@dataclass
class NotebookResult:
    assignment: str
    backend: str
    isolation: str
    exercises: dict[str, ExerciseResult]
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    notebook: str = ""
    memory_limit: str = "unknown"   # the worker's memory cap, e.g. "cgroup 4096 MB" (sandbox/memlimit.py)

    @property
    def score(self) -> float:
        return float(sum(e.score for e in self.exercises.values()))

    @property
    def max_score(self) -> float:
        return float(sum(e.max_score for e in self.exercises.values()))

    def to_json(self) -> dict:
        return {
            "assignment": self.assignment, "notebook": self.notebook, "backend": self.backend,
            "isolation": self.isolation, "memory_limit": self.memory_limit, "score": self.score, "max_score": self.max_score,
            "exercises": {ex: {"score": e.score, "max_score": e.max_score,
                               "checks": [c.to_json(self.backend) for c in e.checks]}
                          for ex, e in self.exercises.items()},
            "errors": [visible(e) for e in self.errors], "seconds": self.seconds,
        }


def failed_notebook(notebook: str, error: str, assignment: str = "") -> dict:
    """The JSON for a notebook that could not be graded at all (the batch goes on)."""
    return {"assignment": assignment, "notebook": notebook, "backend": "unknown", "isolation": "none",
            "memory_limit": "none",
            "score": 0.0, "max_score": 0.0, "exercises": {}, "errors": [visible(error)], "seconds": 0.0}


def notebook_result(assignment, checks: list[CheckResult], integrity: dict[str, list[str]],
                    **fields) -> NotebookResult:
    """The notebook's result from its test cells' results; an exercise whose code changed the
    grader's libraries, hooks or threads (`integrity`: its violations) scores 0, with one more check
    that says why."""
    exercises = {}
    for ex in assignment.exercises:
        mine = [c for c in checks if c.exercise == ex]
        if integrity.get(ex):
            for c in mine:
                c.passed, c.points = False, 0.0
            mine.append(CheckResult(name=f"{ex}_integrity", kind="integrity", exercise=ex,
                                    passed=False, points=0.0, max_points=0.0,
                                    message=failure.message("integrity", "your code changed the grader's "
                                                            "libraries or hooks: " + "; ".join(integrity[ex][:5]))))
        exercises[ex] = ExerciseResult(exercise=ex, checks=mine)
    return NotebookResult(assignment=assignment.name, exercises=exercises, **fields)
