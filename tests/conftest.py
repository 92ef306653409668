"""Shared fixtures: the course, short limits, in-memory assignments and notebook builders."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

# Short limits keep a hostile submission from stretching the suite; overridable for slow machines.
TEST_TIMEOUT = float(os.environ.get("JAX_COURSE_TEST_TIMEOUT", "20"))
os.environ.setdefault("JAX_COURSE_CELL_TIMEOUT", str(int(TEST_TIMEOUT * 3)))
os.environ.setdefault("AUTOGRADER_WORKER_JAX_PLATFORMS", os.environ.get("JAX_PLATFORMS", ""))
os.environ["JAX_PLATFORMS"] = "cpu"


@pytest.fixture(scope="session")
def course():
    from autograder.course import Course
    return Course(ROOT)


@pytest.fixture(scope="session")
def limits():
    from autograder.sandbox.process import Limits
    return Limits(cell_timeout=TEST_TIMEOUT, check_timeout=TEST_TIMEOUT, startup_timeout=60,
                  memory_mb=3072, output_bytes=1_000_000)


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
    from autograder.outputs.selftest import load_cases as load
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


@pytest.fixture
def toy_course(tmp_path):
    """A course directory holding the project's nbgrader_config.py and source/toy/toy.ipynb."""
    from autograder.course import Course
    root = tmp_path / "course"
    (root / "source" / "toy").mkdir(parents=True)
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    nbformat.write(make_notebook(toy_cells()), str(root / "source" / "toy" / "toy.ipynb"))
    return Course(root)


def write_toy_submission(path: Path, solution=TOY_SOLUTION, triple=TOY_TRIPLE, cells=None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(make_notebook(cells if cells is not None else toy_cells(solution, triple)), str(path))
    return path


@pytest.fixture(scope="session")
def kit(tmp_path_factory):
    """The student kit, built by the real CLI (`autograder student-kit`)."""
    import subprocess
    out = tmp_path_factory.mktemp("kit") / "jax-course-kit"
    r = subprocess.run([sys.executable, "-m", "autograder.cli", "student-kit", "--out", str(out),
                        "--course-root", str(ROOT)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return out


@pytest.fixture(scope="session")
def kit_venv(kit):
    """A fresh virtual environment holding only what the kit's install.sh puts there."""
    import subprocess
    r = subprocess.run(["sh", str(kit / "install.sh")], capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stderr[-3000:]
    return kit / ".venv"
