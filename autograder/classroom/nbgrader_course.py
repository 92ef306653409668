"""An nbgrader course directory as `autograder autograde`, `feedback` and `report` see it.

nbgrader's own configuration decides everything it decides for `nbgrader autograde`: the course
root, `db_url` (sqlite `gradebook.db` in the root by default), `course_id`, the folder layout
(`submitted/<student>/<assignment>/`, `autograded/...`, `feedback/...`) and the per-cell timeout
(`Execute.timeout`). Two things are the grader's own:

- `results/<assignment>/<student>.json`: each student's full grading result (the contract's JSON
  with every check's message), plus the content hash of what was graded. A rerun skips a student
  whose hash is unchanged; feedback and the class report are written from these files.
- `reports/<assignment>/`: the class report.

A student folder is turned into one notebook to grade, or into a one-line reason why not
(`find_submissions`).
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..course.layout import Course
from ..course.notebook import NotebookError

CONFIG_FILE = "nbgrader_config.py"


@dataclass
class StudentSubmission:
    student: str
    notebook: Path | None          # None when the folder cannot be graded
    error: str = ""                 # the one-line reason when it cannot
    note: str = ""                  # something worth saying about a gradable folder


class NbgraderCourse:
    """nbgrader's configuration and folders for one course root."""

    def __init__(self, root: Path | None = None):
        from nbgrader.coursedir import CourseDirectory
        from traitlets.config.loader import PyFileConfigLoader

        start = Path(root).resolve() if root else Course().root
        if not (start / CONFIG_FILE).exists():
            raise NotebookError(f"no {CONFIG_FILE} in {start}: run in an nbgrader course directory "
                                f"or pass --course-root")
        self.config = PyFileConfigLoader(CONFIG_FILE, path=str(start)).load_config()
        if "root" not in self.config.CourseDirectory:
            self.config.CourseDirectory.root = str(start)
        self.coursedir = CourseDirectory(config=self.config)
        self.root = Path(self.coursedir.root)
        self.course = Course(self.root)

    # ------------------------------------------------------------------ configuration
    @property
    def course_id(self) -> str:
        return self.coursedir.course_id or "default_course"

    @property
    def db_url(self) -> str:
        """nbgrader's db_url; a sqlite file gets a busy timeout, so concurrent graders wait for
        each other's commits instead of failing with 'database is locked'."""
        url = self.coursedir.db_url
        if url.startswith("sqlite:///") and "timeout=" not in url:
            url += ("&" if "?" in url else "?") + "timeout=60"
        return url

    @property
    def sqlite_path(self) -> Path | None:
        url = self.coursedir.db_url
        if not url.startswith("sqlite:///"):
            return None
        return Path(url[len("sqlite:///"):].split("?")[0])

    @property
    def cell_timeout(self) -> float:
        """`Execute.timeout` of the course configuration: what nbgrader allows a cell."""
        value = self.config.Execute.get("timeout", None) if "Execute" in self.config else None
        return float(value) if value else 30.0

    # ------------------------------------------------------------------ folders
    def _path(self, step: str, student: str, assignment: str) -> Path:
        return Path(self.coursedir.format_path(step, student, assignment))

    def submitted(self, student: str, assignment: str) -> Path:
        return self._path(self.coursedir.submitted_directory, student, assignment)

    def autograded(self, student: str, assignment: str) -> Path:
        return self._path(self.coursedir.autograded_directory, student, assignment)

    def feedback(self, student: str, assignment: str) -> Path:
        return self._path(self.coursedir.feedback_directory, student, assignment)

    def results_dir(self, assignment: str) -> Path:
        return self.root / "results" / assignment

    def reports_dir(self, assignment: str) -> Path:
        return self.root / "reports" / assignment

    def grading_state_paths(self) -> list[str]:
        """Folders and files student code must not see while it runs, beyond `Course.hidden_paths`:
        other students' results and the gradebook wherever the configuration puts it."""
        paths = [self.root / "results", self.root / "reports", self.root / self.coursedir.autograded_directory,
                 self.root / self.coursedir.feedback_directory, self.root / self.coursedir.submitted_directory]
        if self.sqlite_path is not None:
            paths.append(self.sqlite_path)
        socket_dir = self.database_socket_dir
        if socket_dir is not None:
            paths.append(socket_dir)
        return [str(p.resolve()) for p in paths if p.exists()]

    @property
    def database_socket_dir(self) -> Path | None:
        """The folder of a database server's unix socket (`?host=/path` in the db_url): student code
        that could reach it could connect to the gradebook (e.g. PostgreSQL with trust auth)."""
        from sqlalchemy.engine import make_url
        try:
            host = make_url(self.coursedir.db_url).query.get("host")
        except Exception:  # noqa: BLE001 (an unparsable URL fails later, in nbgrader, with its own message)
            return None
        if isinstance(host, tuple):
            host = host[0] if host else None
        return Path(host) if host and host.startswith("/") else None

    # ------------------------------------------------------------------ submissions
    def submitted_students(self, assignment: str) -> list[str]:
        """Students with a `submitted/<student>/<assignment>/` folder."""
        top = self.root / self.coursedir.submitted_directory
        if not top.is_dir():
            return []
        return sorted(d.name for d in top.iterdir()
                      if d.is_dir() and not d.name.startswith(".") and self.submitted(d.name, assignment).is_dir())

    def find_submissions(self, assignment: str, students: list[str] | None = None) -> list[StudentSubmission]:
        """One entry per student: the notebook to grade, or the one-line reason there is none."""
        chosen = students or self.submitted_students(assignment)
        out = []
        for student in chosen:
            folder = self.submitted(student, assignment)
            rel = os.path.relpath(folder, self.root)
            if not folder.is_dir():
                out.append(StudentSubmission(student, None, f"{student}: no submission folder {rel}/"))
                continue
            notebooks = sorted(p for p in folder.glob("*.ipynb") if not p.name.startswith("."))
            if not notebooks:
                out.append(StudentSubmission(student, None, f"{student}: no notebook in {rel}/"))
            elif len(notebooks) > 1:
                names = ", ".join(p.name for p in notebooks)
                out.append(StudentSubmission(student, None, f"{student}: {len(notebooks)} notebooks in {rel}/ "
                                                            f"({names}); keep only {assignment}.ipynb"))
            else:
                nb = notebooks[0]
                note = "" if nb.name == f"{assignment}.ipynb" else \
                    f"{student}: graded {rel}/{nb.name} as {assignment}.ipynb (the only notebook there)"
                out.append(StudentSubmission(student, nb, note=note))
        return out

    # ------------------------------------------------------------------ results and hashes
    def result_path(self, assignment: str, student: str) -> Path:
        return self.results_dir(assignment) / f"{student}.json"

    def load_result(self, assignment: str, student: str) -> dict | None:
        path = self.result_path(assignment, student)
        try:
            return json.loads(path.read_text())
        except (OSError, ValueError):
            return None

    def load_results(self, assignment: str) -> dict[str, dict]:
        folder = self.results_dir(assignment)
        out = {}
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            try:
                out[path.stem] = json.loads(path.read_text())
            except ValueError:
                continue
        return out

    def save_result(self, assignment: str, student: str, result: dict):
        write_atomically(self.result_path(assignment, student), json.dumps(result, indent=1))

    def content_hash(self, notebook: Path, assignment: str) -> str:
        """What a grade depends on: the submission's bytes and the assignment's source notebook."""
        h = hashlib.sha256()
        for path in (notebook, self.course.source / assignment / f"{assignment}.ipynb"):
            h.update(path.read_bytes())
            h.update(b"\0")
        return h.hexdigest()


def write_atomically(path: Path, text: str, mode: int | None = None):
    """Write a file so that a reader (or a run killed midway) sees the old or the new content."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
