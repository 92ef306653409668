"""Build release/ from source/ with `nbgrader generate_assignment` (never by hand).

nbgrader runs in a scratch course directory with its own gradebook, so generating the release
touches nothing in the project but release/. `--check` compares a fresh build with release/.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from .layout import Course


def venv_on_path():
    """nbgrader runs `alembic` as a subprocess: put this interpreter's bin/ first on PATH."""
    import os
    bindir = os.path.dirname(sys.executable)
    if os.environ.get("PATH", "").split(os.pathsep)[0] != bindir:
        os.environ["PATH"] = bindir + os.pathsep + os.environ.get("PATH", "")


def build(course: Course, out_dir: Path, names: list[str] | None = None, db_url: str | None = None,
          course_id: str = "jax-course") -> list[Path]:
    """Generate the student notebooks of `names` (default: all) into out_dir/<name>/.

    With `db_url`, nbgrader also records the assignments' cells in that gradebook (what
    `nbgrader generate_assignment` does in a course); by default a scratch gradebook is used."""
    from nbgrader.apps import NbGraderAPI
    from traitlets.config import Config

    venv_on_path()
    names = names or course.assignment_names()
    written = []
    with tempfile.TemporaryDirectory(prefix="jaxcourse-release-") as tmp:
        tmp = Path(tmp)
        for name in names:
            shutil.copytree(course.source / name, tmp / "source" / name)
        cfg = Config()
        cfg.CourseDirectory.root = str(tmp)
        cfg.CourseDirectory.course_id = course_id
        if db_url:
            cfg.CourseDirectory.db_url = db_url
        cfg.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
        cfg.ClearSolutions.enforce_metadata = True
        api = NbGraderAPI(config=cfg)
        for name in names:
            result = api.generate_assignment(name, force=True, create=True)
            if not result["success"]:
                raise RuntimeError(f"nbgrader generate_assignment {name} failed:\n{result['log']}")
            target = out_dir / name
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(tmp / "release" / "jax-course" / name if (tmp / "release" / "jax-course").exists()
                            else tmp / "release" / name, target)
            written.append(target / f"{name}.ipynb")
    return written


def out_of_sync(course: Course) -> list[str]:
    """Assignments whose release/ differs from a fresh build."""
    with tempfile.TemporaryDirectory() as tmp:
        build(course, Path(tmp))
        stale = []
        for name in course.assignment_names():
            fresh = Path(tmp) / name / f"{name}.ipynb"
            committed = course.release / name / f"{name}.ipynb"
            if not committed.exists() or committed.read_text() != fresh.read_text():
                stale.append(name)
        return stale


def main(root=None, check_only=False) -> int:
    course = Course(root)
    if check_only:
        stale = out_of_sync(course)
        if stale:
            print(f"release/ is out of sync for: {', '.join(stale)} (run `make release`)", file=sys.stderr)
            return 1
        print("release/ is in sync with source/")
        return 0
    for path in build(course, course.release):
        print(f"wrote {path.relative_to(course.root)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
