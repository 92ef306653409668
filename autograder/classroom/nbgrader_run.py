"""Grade submissions with real `nbgrader autograde` into a sqlite gradebook, and read it back.

Used by `make demo`, by the tests that require the CLI and nbgrader to agree cell by cell, and by
the benchmark. The course directory is laid out as nbgrader expects:
  <dir>/nbgrader_config.py  (the project's, with CourseDirectory.root pointed at <dir>)
  <dir>/source/<a>/<a>.ipynb, <dir>/submitted/<student>/<a>/<a>.ipynb, <dir>/gradebook.db
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from ..course.layout import Course
from ..course.release import venv_on_path
from . import kernel_cache


def prepare(course: Course, workdir: Path, assignment: str, submissions: dict[str, Path]) -> Path:
    """Lay out an nbgrader course in `workdir` with `submissions` (student id -> notebook)."""
    workdir.mkdir(parents=True, exist_ok=True)
    config = (course.root / "nbgrader_config.py").read_text()
    (workdir / "nbgrader_config.py").write_text(
        config + f"\nc.CourseDirectory.root = {str(workdir)!r}\n")
    src = workdir / "source" / assignment
    if src.exists():
        shutil.rmtree(src)
    shutil.copytree(course.source / assignment, src)
    for student, nb in submissions.items():
        dest = workdir / "submitted" / student / assignment
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copy(nb, dest / f"{assignment}.ipynb")
    return workdir


def _nbgrader(workdir: Path, *args, timeout=None, env_extra=None) -> subprocess.CompletedProcess:
    venv_on_path()
    cmd = [sys.executable, "-m", "nbgrader", *args]
    env = {**os.environ, **env_extra} if env_extra else None
    return subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=timeout, env=env)


def generate(workdir: Path, assignment: str):
    r = _nbgrader(workdir, "generate_assignment", assignment, "--force", "--create")
    if r.returncode != 0:
        raise RuntimeError(f"nbgrader generate_assignment failed:\n{r.stdout}\n{r.stderr}")


def run_nbgrader_autograde(workdir: Path, assignment: str, students: list[str] | None = None, timeout=None,
                           cache=None):
    """One `nbgrader autograde` call for all students (nbgrader grades them one after another). With
    `cache` (a `batch_cache.Built` of this assignment), every kernel reads its trusted entries
    (`kernel_cache.py`)."""
    args = ["autograde", assignment, "--force"]
    if students and len(students) == 1:
        args += ["--student", students[0]]
    return _nbgrader(workdir, *args, timeout=timeout, env_extra=kernel_cache.environment(cache))


def read_gradebook(workdir: Path, assignment: str) -> dict[str, dict[str, float]]:
    """student id -> {test cell grade_id: points} from the sqlite gradebook."""
    from nbgrader.api import Gradebook, MissingEntry
    out: dict[str, dict[str, float]] = {}
    with Gradebook(f"sqlite:///{workdir / 'gradebook.db'}", "jax-course") as gb:
        for student in gb.students:
            try:
                nb = gb.find_submission_notebook(assignment, assignment, student.id)
            except MissingEntry:
                continue
            out[student.id] = {g.name: float(g.score) for g in nb.grades
                               if g.cell.__class__.__name__ == "GradeCell" and g.max_score}
    return out
