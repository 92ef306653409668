"""`autograder quickstart DIR`: a course directory for one class, outside the checkout.

nbgrader writes its gradebook and its `release/`, `submitted/`, `autograded/` and `feedback/`
folders into the course directory, so it must not be the checkout. This makes one as
docs/INSTRUCTORS.md describes it: private to the instructors (mode 0700: `submitted/` holds every
submission's secret), with a copy of the course's `source/`, this project's `nbgrader_config.py`
with the course id and the exchange added, a `.gitignore` for what nbgrader generates, and a `bin/`
of wrappers that run this environment's `nbgrader`, `autograder`, `jupyter` and `python` (put it on PATH, or
call them by path). It prints the next commands, each with its full path.
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

GENERATED = ["gradebook.db", "release/", "submitted/", "autograded/", "feedback/", "reports/",
             ".ipynb_checkpoints/", "__pycache__/"]
TOOLS = ("nbgrader", "autograder", "jupyter", "python")


class QuickstartError(Exception):
    """A course directory that cannot be made as asked: one line for the instructor."""


def make(folder: Path, source: Path, config: Path, course_id: str, exchange: Path | None) -> Path:
    """Make the course directory `folder` (new, or empty) from `source` and the project's `config`."""
    folder = folder.expanduser().resolve()
    if folder.exists() and any(folder.iterdir()):
        raise QuickstartError(f"{folder} exists and is not empty: give a new folder")
    if not source.is_dir() or not any(source.glob("*/*.ipynb")):
        raise QuickstartError(f"no assignments under {source} (source/<assignment>/<assignment>.ipynb)")
    checkout = config.parent.resolve()
    if folder == checkout or checkout in folder.parents:
        raise QuickstartError(f"{folder} is inside the checkout {checkout}: a course directory lives outside it")
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)
    shutil.copytree(source, folder / "source", ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    lines = [config.read_text().rstrip(), "", "# Added by `autograder quickstart`",
             f"c.CourseDirectory.course_id = {course_id!r}"]
    if exchange is not None:
        lines.append(f"c.Exchange.root = {str(exchange.expanduser().resolve())!r}")
    (folder / "nbgrader_config.py").write_text("\n".join(lines) + "\n")
    (folder / ".gitignore").write_text("# made by nbgrader and the grader; submissions are private\n"
                                       + "\n".join(GENERATED) + "\n")
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    here = Path(sys.executable).parent         # this environment's bin/ (a venv's, unresolved: its
    for tool in TOOLS:                          # python finds the venv from its own path)
        target = here / tool if tool != "python" else Path(sys.executable)
        if target.exists():
            wrapper = bin_dir / tool
            wrapper.write_text(wrapper_script(here, target))
            wrapper.chmod(0o755)
    return folder


def wrapper_script(env_bin: Path, target: Path) -> str:
    """A `bin/` wrapper: the tool, with its environment's bin/ first on PATH, as activating the
    environment would put it. nbgrader needs that: the first command that makes the gradebook
    runs `alembic` by name, which is found nowhere else when the wrapper is called by its path."""
    return (f'#!/bin/sh\nPATH="{env_bin}:$PATH"\nexport PATH\nexec "{target}" "$@"\n')


def next_steps(folder: Path, exchange: Path | None) -> str:
    b = folder / "bin"
    steps = [f"cd {folder}",
             f"{b}/nbgrader generate_assignment 02_static_shapes     # or `{b}/autograder release`",
             f"{b}/nbgrader release_assignment 02_static_shapes" if exchange else
             "# (no --exchange: give nbgrader_config.py a c.Exchange.root to release through nbgrader)",
             f"{b}/nbgrader collect 02_static_shapes",
             f"{b}/autograder autograde 02_static_shapes",
             f"{b}/autograder feedback 02_static_shapes",
             f"{b}/nbgrader release_feedback 02_static_shapes"]
    return "\n".join(f"  {s}" for s in steps)


def main(folder: Path, course_root: Path | None, course_id: str, exchange: Path | None) -> int:
    from ..course.layout import Course
    try:
        course = Course(course_root)
        if not (course.root / "nbgrader_config.py").is_file():
            raise QuickstartError(f"no nbgrader_config.py in {course.root}: run this in the checkout, "
                                  f"or give it with --course-root")
        made = make(folder, course.source, course.root / "nbgrader_config.py", course_id, exchange)
    except (QuickstartError, OSError) as exc:
        print(f"autograder: error: {exc}", file=sys.stderr)
        return 2
    print(f"course directory: {made} (mode 0700; .gitignore covers what nbgrader writes)")
    print(f"PATH for this course: export PATH={made / 'bin'}{os.pathsep}$PATH")
    print("next:\n" + next_steps(made, exchange))
    return 0
