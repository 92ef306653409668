"""pytest plugin: each graded test cell of a submission becomes a pytest item.

    pytest --submission alice.ipynb [--submission bob.ipynb] [--assignment 02_static_shapes] \
        [--junitxml grades.xml] [-k jit]

Items run through the same `GradingSession` as the CLI (same sandbox, same verdicts), so
instructors get pytest's selection, reporting and JUnit XML. Points are recorded as properties.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from ..course.notebook import KINDS
from ..grading import clean, options


def pytest_addoption(parser):
    group = parser.getgroup("autograder")
    group.addoption("--submission", action="append", default=[], type=str,
                    help="student notebook to grade (repeatable); its graded cells become test items")
    group.addoption("--assignment", default=None, help="assignment name (default: from the notebook)")
    group.addoption("--course-root", default=None, help="course directory holding source/")
    for name in ("check_timeout", "cell_timeout"):
        group.addoption("--" + name.replace("_", "-"), type=float, default=getattr(options.DEFAULT, name),
                        help=options.HELP[name])


def pytest_configure(config):
    for kind in KINDS:
        config.addinivalue_line("markers", f"{kind}: graded test cells of kind {kind}")
    subs = config.getoption("submission")
    if subs:
        config.args = [str(Path(s)) for s in subs]


def pytest_collect_file(file_path, parent):
    subs = {str(Path(s).resolve()) for s in parent.config.getoption("submission")}
    if file_path.suffix == ".ipynb" and str(file_path.resolve()) in subs:
        return SubmissionFile.from_parent(parent, path=file_path)
    return None


class SubmissionFile(pytest.File):
    def collect(self):
        from ..grading.startup import isolate_jax_for_grader
        isolate_jax_for_grader()
        from ..course.layout import Course
        from ..course.notebook import NotebookError, classify, read_notebook
        from ..sandbox.process import Limits
        from ..grading.session import GradingSession
        from ..course.submission import read_submission

        config = self.config
        course = Course(config.getoption("course_root"))
        try:
            nb = read_notebook(self.path)
            name = config.getoption("assignment") or course.guess_assignment(self.path, classify(nb))
            spec = course.assignment(name)
        except NotebookError as exc:
            raise self.CollectError(str(exc)) from None
        sub = read_submission(self.path, spec, nb)
        limits = Limits(check_timeout=config.getoption("check_timeout"),
                        cell_timeout=config.getoption("cell_timeout"))
        self.grading = GradingSession(spec, sub.solutions, limits,
                                      hide=course.hidden_paths() + [str(self.path.resolve())])
        for cell in spec.test_cells:
            yield CheckItem.from_parent(self, name=cell.grade_id, cell=cell)

    def teardown(self):
        grading = getattr(self, "grading", None)
        if grading is not None:
            grading.close()

    class CollectError(Exception):
        pass


class CheckFailed(Exception):
    pass


class CheckItem(pytest.Item):
    def __init__(self, *, cell, **kwargs):
        super().__init__(**kwargs)
        self.cell = cell
        self.add_marker(getattr(pytest.mark, cell.kind))

    def runtest(self):
        grading = self.parent.grading
        result = grading.run_test_cell(self.cell)
        if grading.deferred:    # its message from a clean worker, after closing the tainted one (clean.py)
            clean.resolve(grading)
        self.user_properties.append(("points", result.points))
        self.user_properties.append(("max_points", result.max_points))
        self.user_properties.append(("kind", result.kind))
        if not result.passed:
            raise CheckFailed(result.message)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CheckFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"{self.cell.exercise}: {self.cell.grade_id} ({self.cell.points:g} pt)"
