"""Notebooks for tests: cells with nbgrader metadata, a toy two-exercise assignment, the course's
own notebooks with some solution cells replaced, and its known-wrong cases."""
from __future__ import annotations

import os
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parent.parent.parent
# Short limits keep a hostile submission from stretching the suite; overridable for slow machines.
TEST_TIMEOUT = float(os.environ.get("JAX_COURSE_TEST_TIMEOUT", "20"))


def code_cell(source, grade_id, *, role="other", points=None):
    meta = {"grade_id": grade_id, "locked": role != "solution", "solution": role == "solution",
            "grade": role == "test", "schema_version": 3}
    if points is not None:
        meta["points"] = points
    return new_code_cell(source, metadata={"nbgrader": meta})


def make_notebook(cells) -> nbformat.NotebookNode:
    nb = new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                               "language": "python"}})
    nb.cells = [new_markdown_cell("generated for a test")] + list(cells)
    return nb


def submission_from_source(course, assignment: str, replacements: dict[str, str] | None = None,
                           base: str = "source"):
    """A student notebook: the release (base='release') or the solved source, with some solution
    cells replaced by `replacements` (exercise id -> cell source)."""
    root = course.release if base == "release" else course.source
    nb = nbformat.read(str(root / assignment / f"{assignment}.ipynb"), as_version=4)
    for cell in nb.cells:
        gid = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if replacements and gid in replacements:
            cell.source = replacements[gid]
    return nb


def load_cases(assignment: str) -> dict:
    """tests/cases/<assignment>.py's CASES (read by the package: `autograder selftest` uses them too)."""
    from autograder.course import Course
    from autograder.lab.selftest import load_cases as load
    return load(Course(ROOT), assignment)


TOY_SOLUTION = "def double(x):\n    ### BEGIN SOLUTION\n    return 2.0 * x\n    ### END SOLUTION\n"
TOY_TRIPLE = "def triple(x):\n    ### BEGIN SOLUTION\n    return 3.0 * x\n    ### END SOLUTION\n"


def toy_cells(solution=TOY_SOLUTION, triple=TOY_TRIPLE):
    """A two-exercise assignment used to test the grader independently of the course content."""
    return [
        code_cell("import jax\nimport jax.numpy as jnp\nfrom autograder import check", "setup"),
        code_cell(solution, "double", role="solution"),
        code_cell("check.assert_close(double(jnp.arange(3.0)), jnp.array([0.0, 2.0, 4.0]), what='double(x)')",
                  "double_correctness", role="test", points=2),
        code_cell("check.assert_jittable(double, jnp.arange(3.0))", "double_jit", role="test", points=1),
        code_cell(triple, "triple", role="solution"),
        code_cell("check.assert_close(triple(jnp.ones(2)), jnp.array([3.0, 3.0]), what='triple(x)')",
                  "triple_correctness", role="test", points=1),
    ]


def write_toy_submission(path: Path, solution=TOY_SOLUTION, triple=TOY_TRIPLE, cells=None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(make_notebook(cells if cells is not None else toy_cells(solution, triple)), str(path))
    return path
