"""What a grading container needs for one assignment, and nothing more (Gradescope, PrairieLearn).

- the grading notebook (`course/source/<a>/<a>.ipynb`): the source notebook's setup cells, its graded
  test cells with their hidden tests, and its solution cells *cleared* by nbgrader's ClearSolutions
  (the grader needs to know that each exercise exists, never its answer); narrative and demo cells
  are dropped;
- this package as a wheel plus the pinned requirements: the same wheel the student kit ships, which
  holds no course content;
- `config.json`: the assignment, the deadline and the grading limits.

The hidden tests must be in the bundle, because the container grades with them: the platform keeps
the bundle away from students, and `container.py` keeps it away from their code while it runs.
"""
from __future__ import annotations

import copy
import dataclasses
import json
import zipfile
from pathlib import Path

from ..course.layout import Course
from ..course.notebook import classify, nbformat
from ..sandbox.process import Limits
from ..course.packaging import build_wheel, pinned_requirements

CONFIG = "config.json"
MATERIAL = "course"             # a course root: MATERIAL/source/<a>/<a>.ipynb
STUB = "# YOUR CODE HERE\nraise NotImplementedError()"


class BundleError(Exception):
    """The bundle cannot be built (one line)."""


def grading_notebook(course: Course, assignment: str) -> nbformat.NotebookNode:
    """Setup, cleared solution and graded test cells of the source notebook, in order."""
    from nbgrader.preprocessors import ClearSolutions

    spec = course.assignment(assignment)       # one-line NotebookError for an unknown assignment
    nb = nbformat.read(str(spec.path), as_version=4)
    roles = {c.index: c.role for c in classify(nb)}
    nb.cells = [c for i, c in enumerate(nb.cells) if roles.get(i) in ("setup", "solution", "test")]
    cleared, _ = ClearSolutions(code_stub={"python": STUB}, enforce_metadata=True).preprocess(
        copy.deepcopy(nb), {})
    for cell in cleared.cells:
        cell.outputs = [] if cell.cell_type == "code" else cell.get("outputs")
        if cell.cell_type == "code":
            cell.execution_count = None
    return cleared


def write_material(course: Course, assignment: str, dest: Path) -> Path:
    path = dest / MATERIAL / "source" / assignment / f"{assignment}.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(grading_notebook(course, assignment), str(path))
    return path


def write_python_package(dest: Path) -> Path:
    """dest/wheels/<this package>.whl and dest/requirements.txt (pinned runtime dependencies)."""
    try:
        wheel = build_wheel(dest / "wheels")
        requirements = pinned_requirements()
    except Exception as exc:  # KitError, or pip missing
        raise BundleError(str(exc)) from None
    (dest / "requirements.txt").write_text("# pinned: the versions this course was tested with\n"
                                           + "\n".join(requirements) + "\n")
    return wheel


def write_config(dest: Path, assignment: str, deadline_s: float, limits: Limits, **extra):
    (dest / CONFIG).write_text(json.dumps({"assignment": assignment, "deadline_s": deadline_s,
                                           "limits": dataclasses.asdict(limits), **extra}, indent=1))


def read_config(folder: Path) -> tuple[dict, Limits]:
    config = json.loads((folder / CONFIG).read_text())
    return config, Limits(**config.get("limits", {}))


# ------------------------------------------------------------------ what must never be shipped
def solution_lines(course: Course, assignment: str) -> set[str]:
    """The reference solutions' own lines: those between the solution delimiters that appear
    nowhere else in the source notebook (narrative, demos and tests are public or shipped anyway)."""
    from ..course.packaging import markers

    begin, end = markers()[:2]
    spec = course.assignment(assignment)
    nb = nbformat.read(str(spec.path), as_version=4)
    inside_lines, outside_lines = set(), set()
    for cell in nb.cells:
        inside = False
        for line in cell.source.splitlines():
            if begin in line:
                inside = True
            elif end in line:
                inside = False
            else:
                (inside_lines if inside else outside_lines).add(line.strip())
    return {line for line in inside_lines - outside_lines if len(line) >= 12}


def _texts(path: Path):
    """(name, text) of every file under `path`, inside zip files and wheels too."""
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    for f in files:
        if f.suffix in (".zip", ".whl"):
            with zipfile.ZipFile(f) as zf:
                for n in zf.namelist():
                    yield f"{f}!{n}", zf.read(n).decode("utf-8", errors="replace")
        else:
            yield str(f), f.read_bytes().decode("utf-8", errors="replace")


def _lines(name: str, text: str) -> set[str]:
    """A file's stripped lines; a notebook's are its cells' source lines."""
    if name.endswith(".ipynb"):
        try:
            text = "\n".join("".join(c.get("source", "")) if isinstance(c.get("source"), list)
                             else c.get("source", "") for c in json.loads(text).get("cells", []))
        except (ValueError, AttributeError):
            pass
    return {line.strip() for line in text.splitlines()}


def solution_leaks(path: Path, course: Course, assignment: str) -> list[str]:
    """Files under `path` (a folder or a zip) that hold a line of a reference solution, or a
    solution delimiter."""
    from ..course.packaging import markers

    own = solution_lines(course, assignment)
    delimiters = markers()[:2]
    return [name for name, text in _texts(path)
            if any(d in text for d in delimiters) or own & _lines(name, text)]


def check_no_solutions(path: Path, course: Course, assignment: str):
    leaks = solution_leaks(path, course, assignment)
    if leaks:
        raise BundleError(f"refusing to write the package: reference solution text in {leaks[:3]}")

