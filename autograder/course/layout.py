"""The course on disk: assignments in source/ (instructor notebooks) and release/ (student copies).

The grader always takes setup and test cells from source/, so an edited or deleted test cell in
a submission changes nothing.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .notebook import Cell, NotebookError, classify, read_notebook


STUDENT_KIT_NOTE = ("this looks like the student kit (release notebooks and visible tests only): "
                    "`autograder check NOTEBOOK` runs a notebook's visible tests; grading needs the "
                    "instructor's course directory (pass --course-root or set JAX_COURSE_ROOT)")


def default_course_root() -> Path:
    """$JAX_COURSE_ROOT, else the nearest directory at or above the cwd that holds both
    nbgrader_config.py and source/, else the cwd itself.

    Never the checkout this package was installed from: a student's environment may hold the
    package, and it must not find an instructor's solutions or hidden tests through it."""
    env = os.environ.get("JAX_COURSE_ROOT")
    if env:
        return Path(env).resolve()
    here = Path.cwd().resolve()
    for d in (here, *here.parents):
        if (d / "nbgrader_config.py").exists() and (d / "source").is_dir():
            return d
    return here


@dataclass
class Assignment:
    name: str
    path: Path
    cells: list[Cell] = field(default_factory=list)

    @property
    def setup_cells(self) -> list[Cell]:
        return [c for c in self.cells if c.role == "setup"]

    @property
    def solution_cells(self) -> list[Cell]:
        return [c for c in self.cells if c.role == "solution"]

    @property
    def test_cells(self) -> list[Cell]:
        return [c for c in self.cells if c.role == "test"]

    @property
    def exercises(self) -> list[str]:
        return [c.grade_id for c in self.solution_cells]


class Course:
    def __init__(self, root: Path | None = None):
        self.root = Path(root).resolve() if root else default_course_root()
        self.source = self.root / "source"
        self.release = self.root / "release"

    def assignment_names(self) -> list[str]:
        if not self.source.is_dir():
            return []
        return sorted(p.name for p in self.source.iterdir() if (p / f"{p.name}.ipynb").exists())

    def assignment(self, name: str) -> Assignment:
        path = self.source / name / f"{name}.ipynb"
        if not path.exists():
            if not self.source.is_dir():
                raise NotebookError(f"no source/ under {self.root}: {STUDENT_KIT_NOTE}")
            known = ", ".join(self.assignment_names()) or "none"
            raise NotebookError(f"unknown assignment {name!r} (known: {known})")
        return Assignment(name, path, classify(read_notebook(path)))

    def guess_assignment(self, notebook: Path, cells: list[Cell]) -> str:
        """From the file name, the folder name, or the solution grade_ids it holds."""
        names = self.assignment_names()
        for candidate in (notebook.stem, notebook.parent.name):
            if candidate in names:
                return candidate
        ids = {c.grade_id for c in cells if c.role == "solution"}
        best, overlap = None, 0
        for name in names:
            n = len(ids & set(self.assignment(name).exercises))
            if n > overlap:
                best, overlap = name, n
        if best is None:
            raise NotebookError(f"{notebook}: cannot tell which assignment this is; pass --assignment")
        return best

    def hidden_paths(self) -> list[str]:
        """What student code must not see while it runs: instructor material and grading state."""
        candidates = [self.source, self.root / "tests", self.root / "submitted", self.root / "autograded",
                      self.root / "feedback", self.root / "gradebook.db", self.root / "examples",
                      self.root / ".demo", self.root / ".git"]
        return [str(p) for p in candidates if p.exists()]
