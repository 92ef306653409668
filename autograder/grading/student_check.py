"""A notebook's visible tests, run through the grader's own harness: `autograder check NOTEBOOK`.

This is the student's view of grading. The notebook itself is the assignment: its setup cells,
its solution cells and its test cells (a release notebook's test cells hold the visible tests
only; hidden-test regions, if the notebook has any, are dropped here). They run in the same
`GradingSession` as the grader, so a visible test gives the same verdict, the same message and the
same points per cell as it will at grading; the hidden tests, which only the grader has, may still
fail. Nothing here reads source/, so the student kit can run it.
"""
from __future__ import annotations

from pathlib import Path

from ..course.layout import Assignment
from ..course.notebook import classify, read_notebook
from ..course.submission import read_submission
from ..sandbox.process import Limits
from .grade import grade_submission
from .results import NotebookResult

def visible_assignment(path: Path, nb) -> Assignment:
    """The assignment as the notebook itself states it, with visible tests only (hidden-test
    regions removed by nbgrader's own ClearHiddenTests, as `generate_assignment` does)."""
    import copy

    from nbgrader.preprocessors import ClearHiddenTests
    visible, _ = ClearHiddenTests().preprocess(copy.deepcopy(nb), {})
    return Assignment(Path(path).stem, Path(path), classify(visible))


def check_notebook(path, limits: Limits | None = None) -> NotebookResult:
    """Run a notebook's visible tests against its own solution cells (raises NotebookError)."""
    path = Path(path)
    nb = read_notebook(path)
    spec = visible_assignment(path, nb)
    if not spec.test_cells:
        from ..course.notebook import NotebookError
        raise NotebookError(f"{path}: no graded test cells (is this a course notebook?)")
    sub = read_submission(path, spec, nb)
    return grade_submission(path, spec, sub, limits)
