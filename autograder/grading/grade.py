"""Grade notebooks: one submission (`grade_notebook`) or a batch in parallel (`grade_many`)."""
from __future__ import annotations

import dataclasses
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..course.layout import Assignment, Course
from ..course.notebook import NotebookError, classify, read_notebook
from .results import NotebookResult, failed_notebook
from ..sandbox import devices
from ..sandbox.process import Limits
from .startup import start_worker
from .batch_cache import BatchCache
from ..course.submission import Submission, read_submission


def grade_notebook(path, course: Course | None = None, assignment: str | None = None,
                   limits: Limits | None = None, extra_hide: list[str] | None = None,
                   cache: BatchCache | None = None) -> NotebookResult:
    """Grade one notebook (with `cache`, as one of a batch: its worker reads the batch's compile
    cache). Raises NotebookError (one line) for unusable input."""
    course = course or Course()
    path = Path(path)
    nb = read_notebook(path)
    name = assignment or course.guess_assignment(path, classify(nb))
    spec = course.assignment(name)
    sub = read_submission(path, spec, nb)
    hide = course.hidden_paths() + [str(path.resolve())] + list(extra_hide or [])
    if cache is not None:
        limits = cache.limits_for(spec)
    return grade_submission(path, spec, sub, limits, hide, cache)


def grade_submission(path: Path, spec: Assignment, sub: Submission, limits: Limits | None,
                     hide: list[str] | None = None, cache: BatchCache | None = None) -> NotebookResult:
    """Grade a submission already read: start its worker, then (only then) import the grading
    session and JAX, so that the worker's `import jax` runs beside the grader's."""
    limits = limits or Limits()
    started = start_worker(limits, hide or [], spec.setup_cells)
    try:
        from .session import GradingSession
        session = GradingSession(spec, sub.solutions, limits, hide=hide, started=started)
    except BaseException:
        started.worker.close()
        raise
    try:
        result = session.grade()
        if cache is not None:
            cache.record((session.compile_cache_reply() or {}).get("stats"))
    finally:
        session.close()
    result.errors = sub.errors + result.errors
    result.notebook = str(path)
    return result


def grade_many(paths, course: Course | None = None, assignment: str | None = None,
               limits: Limits | None = None, jobs: int | None = None, extra_hide=None,
               on_done=None, cache: BatchCache | None = None, grader_procs: int | None = None) -> list[dict]:
    """Grade several notebooks, `jobs` at a time; a broken notebook yields an error entry;
    `on_done` gets each result as it comes. Beyond what one grader process drives, or with
    `grader_procs` > 1, in several grader processes (`processes.py`), else in this one.

    `jobs` defaults to what the machine allows (`devices.default_jobs`: the cores, or a few workers
    per GPU); the workers learn how many run at once so that those sharing a GPU split its memory.
    With `limits.compile_cache` the batch shares a compile cache built from the references
    (`batch_cache.py`; pass `cache` to read its counts afterwards, else one is made and removed)."""
    course = course or Course()
    limits = limits or Limits()
    jobs = jobs or devices.default_jobs(len(paths), limits.devices_per_worker)
    limits = dataclasses.replace(limits, concurrent_workers=jobs)

    # Every notebook of the batch is hidden from every worker, not only its own: a student must not
    # read a batch-mate's answers.
    batch = [str(Path(p).resolve()) for p in paths if Path(p).exists()]
    hide = [*(extra_hide or []), *batch]

    own_cache = cache is None and limits.compile_cache
    if own_cache:
        cache = BatchCache(limits, course.hidden_paths() + hide)
    if not limits.compile_cache:
        cache = None

    from .processes import grade_in_processes, grader_processes
    processes, threads = grader_processes(jobs, grader_procs)

    def one(path):
        out = grade_one(path, course, assignment, limits, hide, cache)
        if on_done:
            on_done(out)
        return out

    try:
        if processes > 1 and len(paths) > 1:
            return grade_in_processes(paths, course, assignment, limits, processes, threads, hide, on_done, cache)
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(one, paths))
    finally:
        if own_cache:
            cache.close()


def grade_one(path, course: Course, assignment: str | None, limits: Limits, hide: list[str],
              cache: BatchCache | None) -> dict:
    """One notebook of a batch, as its JSON; an unusable notebook or a grader error is an error
    entry (the batch goes on)."""
    try:
        return grade_notebook(path, course, assignment, limits, hide, cache).to_json()
    except NotebookError as exc:
        return failed_notebook(str(path), str(exc), assignment or "")
    except Exception as exc:  # the grader never crashes on one notebook
        return failed_notebook(str(path), f"{path}: grader error: {type(exc).__name__}: {exc}",
                               assignment or "")
