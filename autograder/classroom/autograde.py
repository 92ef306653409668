"""`autograder autograde ASSIGNMENT`: grade a class in nbgrader's course layout with the sandboxed
grader, into nbgrader's gradebook.

A thin layer over `grading.grade.grade_many`, which grades the notebooks `jobs` at a time. This
module decides which students to grade and commits each one as soon as `grade_many` reports it:

1. every `submitted/<student>/<assignment>/` folder (or the `--student`s) becomes one notebook or a
   one-line error for that student (no notebook, two notebooks, not JSON: the others still grade);
2. a student whose submission and assignment source hash the same as when last graded (recorded
   in `results/<assignment>/<student>.json`, written last) is skipped unless `--force`, so a run
   killed midway (SIGINT, SIGTERM or SIGKILL) and started again grades only the rest;
3. a student whose folder another run holds locked is left to that run (never graded twice at once);
4. for each graded student, in this order: the gradebook rows (one transaction), the autograded
   notebook, the results file. A signal waits for that sequence to finish; a SIGKILL inside it
   leaves no results file, so the student is graded again next time.

Exit status: 0 when every student was graded (whatever the scores), 2 when any could not be,
130 when interrupted.
"""
from __future__ import annotations

import contextlib
import datetime
import fcntl
import os
import queue
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ..course.notebook import NotebookError, read_notebook
from ..course.submission import read_submission
from ..sandbox import procs
from ..sandbox.process import Limits
from . import autograded_notebook, gradebook
from .nbgrader_course import NbgraderCourse, StudentSubmission
from .progress import BatchProgress


@dataclass
class Options:
    students: list[str] | None = None
    jobs: int | None = None
    force: bool = False
    limits: Limits | None = None
    grader_processes: int | None = None   # None: as many as --jobs needs (grading/processes.py)


class _Signals:
    """SIGINT/SIGTERM become KeyboardInterrupt, except inside `committing()`, where they wait for
    the student's writes to finish."""

    def __init__(self):
        self.critical = False
        self.pending = False

    def __call__(self, signum, frame):
        if self.critical:
            self.pending = True
            return
        raise KeyboardInterrupt

    @contextlib.contextmanager
    def committing(self):
        self.critical = True
        try:
            yield
        finally:
            self.critical = False
        if self.pending:
            raise KeyboardInterrupt


def _kill_workers():
    """Kill the sandboxed workers this process started (each leads its own process group)."""
    for _ in range(2):
        for pid in procs.children(os.getpid()):
            if procs.process_group(pid) == pid:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(pid, signal.SIGKILL)
        time.sleep(0.1)


def _lock_folder(folder: Path):
    """An exclusive, non-blocking lock on the student's submitted folder; None if another run has it.
    (Released when the file descriptor is closed, or when the process dies.)"""
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def _timestamp(ncourse: NbgraderCourse, folder: Path):
    return ncourse.coursedir.get_existing_timestamp(str(folder))


def autograde(ncourse: NbgraderCourse, assignment: str, options: Options | None = None,
              progress: BatchProgress | None = None) -> int:
    """Grade the class; returns the exit status. Raises NotebookError / GradebookError (one line)
    for an unusable assignment or gradebook, before anything is graded."""
    from ..grading.grade import grade_many
    options = options or Options()
    gradebook.check_known(ncourse, assignment)
    submitted_top = ncourse.root / ncourse.coursedir.submitted_directory
    if not submitted_top.is_dir():
        raise NotebookError(f"no {ncourse.coursedir.submitted_directory}/ folder in {ncourse.root} "
                            f"(nbgrader collect puts submissions there)")
    entries = ncourse.find_submissions(assignment, options.students)
    if not entries:
        raise NotebookError(f"no submissions of {assignment} in {submitted_top}/*/{assignment}/")
    gradebook.prepare_assignment(ncourse, assignment)
    for folder in (ncourse.results_dir(assignment), ncourse.root / ncourse.coursedir.autograded_directory):
        folder.mkdir(parents=True, exist_ok=True)
    limits = options.limits or Limits(cell_timeout=ncourse.cell_timeout, check_timeout=ncourse.cell_timeout,
                                      compile_cache=True)
    progress = progress or BatchProgress(assignment, len(entries))
    signals = _Signals()
    old_handlers = {s: signal.signal(s, signals) for s in (signal.SIGINT, signal.SIGTERM)}
    gb = gradebook.open_gradebook(ncourse)
    locks: dict[str, int] = {}
    interrupted = False
    try:
        with progress:
            todo = _select(ncourse, gb, assignment, entries, options, progress, locks)
            if todo:
                _grade(ncourse, gb, assignment, todo, limits, options, progress, signals, locks, grade_many)
    except KeyboardInterrupt:
        interrupted = True
        _kill_workers()
    finally:
        for s, h in old_handlers.items():
            signal.signal(s, h)
        for fd in locks.values():
            os.close(fd)
        gb.close()
    progress.summary(interrupted=interrupted)
    if interrupted:
        # the pool's threads may be waiting on workers just killed: do not wait for them
        import sys
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    return 2 if progress.tally.errors else 0


def _select(ncourse, gb, assignment, entries: list[StudentSubmission], options, progress, locks) -> dict:
    """student -> (notebook, content hash) still to grade; reports the others."""
    todo = {}
    for entry in entries:
        if entry.notebook is None:
            progress.failed(entry.error)
            continue
        digest = ncourse.content_hash(entry.notebook, assignment)
        fd = _lock_folder(entry.notebook.parent)
        if fd is None:
            progress.busy(entry.student)
            continue
        locks[entry.student] = fd
        last = ncourse.load_result(assignment, entry.student)
        if (not options.force and last and last.get("sha256") == digest
                and (ncourse.autograded(entry.student, assignment) / f"{assignment}.ipynb").exists()
                and gradebook.has_submission(gb, assignment, entry.student)):
            progress.unchanged(entry.student)
            continue
        todo[entry.student] = (entry, digest)
    return todo


def _grade(ncourse, gb, assignment, todo, limits, options, progress, signals, locks, grade_many):
    by_path = {str(entry.notebook): student for student, (entry, _) in todo.items()}
    done: queue.Queue = queue.Queue()
    hide = ncourse.grading_state_paths()
    failure: list[BaseException] = []

    def run():
        try:
            grade_many(list(by_path), ncourse.course, assignment, limits,
                       options.jobs, extra_hide=hide, on_done=done.put,
                       grader_procs=options.grader_processes)
        except BaseException as exc:  # noqa: BLE001 (reported by the main thread)
            failure.append(exc)
        finally:
            done.put(None)

    thread = threading.Thread(target=run, name="grade_many", daemon=True)
    thread.start()
    while True:
        try:
            result = done.get(timeout=0.2)
        except queue.Empty:
            continue
        if result is None:
            break
        student = by_path[result["notebook"]]
        entry, digest = todo[student]
        if not result["exercises"]:
            why = result["errors"][0] if result["errors"] else "could not be graded"
            progress.failed(f"{student}: {why.replace(str(ncourse.root) + os.sep, '')}")
        else:
            with signals.committing():
                notes = _commit(ncourse, gb, assignment, student, entry, digest, result)
            progress.graded(student, result["score"], result["max_score"], result["seconds"],
                            ([entry.note] if entry.note else []) + notes)
        os.close(locks.pop(student))
    thread.join()
    if failure:
        raise failure[0]


def _commit(ncourse, gb, assignment, student, entry: StudentSubmission, digest: str, result: dict) -> list[str]:
    """Gradebook rows, autograded notebook, results file: in that order (see the module doc)."""
    spec = ncourse.course.assignment(assignment)
    nb = read_notebook(entry.notebook)
    solutions = read_submission(entry.notebook, spec, nb).solutions
    graded = autograded_notebook.build(ncourse, gb, assignment, student, nb, solutions, result)
    folder = entry.notebook.parent
    gradebook.write_student(gb, ncourse, assignment, student, result, graded.unanswered, graded.manual,
                            _timestamp(ncourse, folder))
    autograded_notebook.write(ncourse, assignment, student, folder, graded)
    notes = []
    if graded.rebuilt:
        notes.append(f"{student}: nbgrader could not sanitize the notebook (mangled cell metadata); "
                     f"the autograded copy was rebuilt from the assignment with the student's solution cells")
    record = dict(result, student=student, sha256=digest,
                  graded_at=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"))
    ncourse.save_result(assignment, student, record)
    return notes
