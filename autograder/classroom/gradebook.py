"""Grades into nbgrader's gradebook through nbgrader's own API (`nbgrader.api.Gradebook`), the way
`nbgrader autograde` writes them, so formgrader, manual grading and `nbgrader export` read them
unchanged:

- the student (`update_or_create_student`) and the submission, with the `timestamp.txt` of the
  submitted folder (`update_or_create_submission`, which creates a grade row per graded cell and
  a comment row per solution cell);
- each graded test cell's `auto_score` (the sandboxed grader's points) and `needs_manual_grade`
  (set when a human already gave a manual score, or when there is no automatic score), as its
  SaveAutoGrades preprocessor does; `auto_comment` "No response." on solution cells left as
  released; the late-submission penalty through the course's LateSubmissionPlugin, as its
  AssignLatePenalties does.
- A student's grade rows are committed in one transaction, as soon as that student is graded.

Several graders may share one gradebook (two `autograde` runs for different assignments, or a
course on PostgreSQL). Set-up (creating the tables, recording the assignment) runs under a lock:
an exclusive lock on the sqlite file, or a PostgreSQL advisory lock. Writes that lose a race
(sqlite busy, a duplicate student insert) are retried.
"""
from __future__ import annotations

import contextlib
import fcntl
import logging
import tempfile
import time
import warnings
from pathlib import Path

from ..course.notebook import NotebookError, nbgrader_meta, read_notebook
from .nbgrader_course import NbgraderCourse

_ADVISORY_KEY = 0x6A6178_6772_6164  # "jaxgrad": the set-up lock's key in PostgreSQL


class GradebookError(Exception):
    """The gradebook cannot take this assignment's grades (one line)."""


@contextlib.contextmanager
def setup_lock(ncourse: NbgraderCourse):
    """Serialize gradebook set-up between concurrent graders of one course."""
    path = ncourse.sqlite_path
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "ab") as fh:   # (an empty file is an empty sqlite database)
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)
        return
    if ncourse.db_url.startswith("postgresql"):
        from sqlalchemy import create_engine, text
        engine = create_engine(ncourse.db_url)
        try:
            with engine.connect() as conn:
                conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _ADVISORY_KEY})
                conn.commit()
                try:
                    yield
                finally:
                    conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _ADVISORY_KEY})
                    conn.commit()
        finally:
            engine.dispose()
        return
    yield


@contextlib.contextmanager
def quiet_nbgrader():
    """nbgrader's API logs a traceback for every insert that loses a race (a retry follows), and
    its add_submission makes SQLAlchemy 2 warn about its autoflush (harmless: nbgrader's own
    autograde warns the same)."""
    from sqlalchemy.exc import SAWarning
    logger = logging.getLogger("tornado.application")
    old = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SAWarning)
            yield
    finally:
        logger.setLevel(old)


def open_gradebook(ncourse: NbgraderCourse):
    from nbgrader.api import Gradebook

    from ..course.release import venv_on_path
    venv_on_path()   # a new gradebook runs `alembic`: this interpreter's bin/ must be on PATH
    with quiet_nbgrader():
        return retrying(lambda: Gradebook(ncourse.db_url, ncourse.course_id))


def retrying(fn, gb=None, attempts: int = 12):
    """Run fn(), retrying what a concurrent writer can cause: sqlite 'database is locked', a
    duplicate insert (nbgrader raises InvalidEntry), a PostgreSQL serialization failure."""
    from nbgrader.api import InvalidEntry
    from sqlalchemy.exc import DBAPIError, OperationalError
    delay = 0.05
    for attempt in range(attempts):
        try:
            return fn()
        except (InvalidEntry, OperationalError, DBAPIError) as exc:
            if attempt == attempts - 1:
                raise
            if isinstance(exc, DBAPIError) and not isinstance(exc, OperationalError) \
                    and "serializ" not in str(exc).lower() and "deadlock" not in str(exc).lower() \
                    and "duplicate" not in str(exc).lower() and "unique" not in str(exc).lower():
                raise
            if gb is not None:
                gb.db.rollback()
            time.sleep(delay)
            delay = min(delay * 2, 2.0)


def _source_grade_cells(ncourse: NbgraderCourse, assignment: str) -> dict[str, float]:
    nb = read_notebook(ncourse.course.source / assignment / f"{assignment}.ipynb")
    return {m["grade_id"]: float(m.get("points", 0) or 0)
            for m in (nbgrader_meta(c) for c in nb.cells) if m.get("grade") and m.get("grade_id")}


def _stored_grade_cells(gb, assignment: str) -> dict[str, float] | None:
    from nbgrader.api import MissingEntry
    try:
        nb = gb.find_notebook(assignment, assignment)
    except MissingEntry:
        return None
    return {c.name: float(c.max_score) for c in nb.grade_cells}


def prepare_assignment(ncourse: NbgraderCourse, assignment: str):
    """Make sure the gradebook holds the assignment with source/'s graded cells.

    A missing (or outdated, while nothing is submitted) assignment is recorded by nbgrader's own
    `generate_assignment`, run in a scratch directory against this gradebook, so release/ is left
    alone. Raises GradebookError when the gradebook cannot match source/."""
    from nbgrader.api import Gradebook

    from ..course import release
    wanted = _source_grade_cells(ncourse, assignment)
    with setup_lock(ncourse), quiet_nbgrader():
        with open_gradebook(ncourse) as gb:
            stored = _stored_grade_cells(gb, assignment)
        # nbgrader's own preprocessors open the gradebook under the default course id: create its
        # row now, while no other grader can race to insert it
        with Gradebook(ncourse.db_url):
            pass
        if stored == wanted:
            return
        with tempfile.TemporaryDirectory(prefix="autograder-register-") as tmp:
            try:
                release.build(ncourse.course, Path(tmp), [assignment], db_url=ncourse.db_url,
                              course_id=ncourse.course_id)
            except RuntimeError as exc:
                why = [line for line in str(exc).splitlines() if "Cannot" in line or "Error" in line]
                raise GradebookError(
                    f"the gradebook's {assignment} does not match source/{assignment} "
                    f"({(why or ['nbgrader generate_assignment failed'])[-1].strip()[:200]})") from None
        with open_gradebook(ncourse) as gb:
            if _stored_grade_cells(gb, assignment) != wanted:
                raise GradebookError(f"the gradebook's {assignment} still does not match source/{assignment} "
                                     f"after nbgrader generate_assignment")


def has_submission(gb, assignment: str, student: str) -> bool:
    from nbgrader.api import MissingEntry
    try:
        nb = gb.find_submission_notebook(assignment, assignment, student)
    except MissingEntry:
        return False
    return any(g.auto_score is not None for g in nb.grades)


def cell_points(result: dict) -> dict[str, float]:
    """Points per graded test cell from the grading JSON (an integrity failure has already
    zeroed its exercise's cells; the pseudo-check `<exercise>_integrity` is no cell)."""
    return {c["name"]: float(c["points"]) for ex in result["exercises"].values() for c in ex["checks"]
            if c["kind"] != "integrity"}


def write_student(gb, ncourse: NbgraderCourse, assignment: str, student: str, result: dict,
                  unanswered: set[str], manual: dict[str, float | None], timestamp=None):
    """Record one student's grades and commit them (retried as a whole on a lost race)."""
    def attempt():
        _write_student(gb, ncourse, assignment, student, cell_points(result), unanswered, manual, timestamp)
    with quiet_nbgrader():
        retrying(attempt, gb)


def _write_student(gb, ncourse, assignment, student, points, unanswered, manual, timestamp):
    from nbgrader.api import GradeCell
    from nbgrader.preprocessors import AssignLatePenalties

    gb.update_or_create_student(student)
    if timestamp is not None:
        gb.update_or_create_submission(assignment, student, timestamp=timestamp)
    else:
        gb.update_or_create_submission(assignment, student)
    notebook = gb.find_submission_notebook(assignment, assignment, student)
    for grade in notebook.grades:
        name = grade.cell.name
        if isinstance(grade.cell, GradeCell) and name in manual:
            auto = manual[name]               # a manually graded answer: nbgrader's own rule
        elif isinstance(grade.cell, GradeCell):
            auto = points.get(name)
        else:
            auto = None                       # a task cell: graded by hand
        grade.auto_score = auto
        grade.needs_manual_grade = grade.manual_score is not None or auto is None
    for comment in notebook.comments:
        comment.auto_comment = "No response." if comment.cell.name in unanswered else None
    gb.db.flush()

    submission = notebook.assignment
    notebook.late_submission_penalty = None
    if submission.total_seconds_late > 0:
        plugin = AssignLatePenalties(config=ncourse.config)
        plugin.init_plugin()
        penalty = plugin.plugin_inst.late_submission_penalty(student, notebook.score,
                                                             submission.total_seconds_late)
        if penalty is not None:
            notebook.late_submission_penalty = min(max(penalty, 0), notebook.score)
    gb.db.commit()


def read_notebooks(ncourse: NbgraderCourse, assignment: str) -> dict[str, dict]:
    """student -> {"scores": {graded cell: score} (a manual score where a human gave one),
    "total": (score less the late penalty, max score, late penalty)}, from the gradebook."""
    from nbgrader.api import GradeCell, MissingEntry
    out: dict[str, dict] = {}
    with open_gradebook(ncourse) as gb:
        try:
            submissions = gb.assignment_submissions(assignment)
        except MissingEntry:
            return out
        for sub in submissions:
            for nb in sub.notebooks:
                if nb.name != assignment:
                    continue
                penalty = float(nb.late_submission_penalty or 0.0)
                out[sub.student.id] = {
                    "scores": {g.name: float(g.score) for g in nb.grades if isinstance(g.cell, GradeCell)},
                    "total": (float(nb.score) - penalty, float(nb.max_score), penalty)}
    return out


def read_scores(ncourse: NbgraderCourse, assignment: str) -> dict[str, dict[str, float]]:
    """student -> {graded cell: score} (a manual score where a human gave one)."""
    return {student: nb["scores"] for student, nb in read_notebooks(ncourse, assignment).items()}


def check_known(ncourse: NbgraderCourse, assignment: str):
    """A one-line error unless source/ has the assignment."""
    if assignment not in ncourse.course.assignment_names():
        known = ", ".join(ncourse.course.assignment_names()) or "none"
        raise NotebookError(f"unknown assignment {assignment!r} (known: {known})")
