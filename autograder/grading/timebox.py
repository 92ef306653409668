"""Grade one submission inside a fixed time, with each exercise paying for its own hangs.

`autograder grade` gives every call and cell its timeout, so a submission whose every check hangs
takes (checks x timeout). A grading container has one deadline for the whole notebook (Gradescope
scores a timeout 0 and shows nothing), so here each exercise gets an equal share of the time:
- the time of a test cell is charged to its exercise; a call never waits longer than what is left of
  that share (and never more than the usual check timeout);
- restarting the worker is charged to the exercise whose cell crashed or hung it (a solution cell
  that hangs while the worker replays the cells is charged to its own exercise);
- once an exercise has used its share, its remaining test cells are "not run", and the others are
  graded as usual.
So a hang or crash costs only its exercise, and the whole grading takes at most
(exercises x (share + one cell timeout + one restart)) plus the first start: `share_for` picks the
share so that this fits a deadline.
"""
from __future__ import annotations

import dataclasses
import time
from collections import defaultdict

from ..checks import failure
from . import clean
from ..course.layout import Assignment
from .results import CheckResult, NotebookResult
from .session import GradingSession
from .startup import StartedWorker
from ..sandbox.process import Limits

RESTART_ALLOWANCE_S = 15.0   # one worker start (python + JAX + setup and solution cells) on half a CPU
MIN_CALL_S = 3.0             # below this much of its share an exercise's remaining cells are not run


def share_for(deadline_s: float, exercises: int, limits: Limits, startup_s: float = 60.0) -> float:
    """Each exercise's share of a deadline, leaving room for the first start and, per exercise, one
    solution-cell timeout and one restart beyond its share."""
    per_exercise = (deadline_s - startup_s) / max(1, exercises)
    return max(MIN_CALL_S, per_exercise - limits.cell_timeout - RESTART_ALLOWANCE_S)


def grade_timeboxed(assignment: Assignment, solutions: dict[str, str], limits: Limits, share_s: float,
                    hide: list[str] | None = None, on_check=None, after_worker_lost=None,
                    after_worker_start=None, started: StartedWorker | None = None) -> NotebookResult:
    """Grade like `GradingSession.grade`, within each exercise's share of the time.

    `on_check(check_result, session)` is called as soon as each check is decided (containers stream
    the verdicts, so that a grader stopped at the deadline still leaves them behind).
    `after_worker_lost()` is called whenever no worker is alive after a crash, a hang or a failed
    start: a container whose student code runs under a uid of its own kills that uid's leftovers
    (processes that left the worker's session), so that they cannot starve the next worker.
    `after_worker_start(worker)` is called with each worker that grading goes on with.
    `started`: the first worker, started ahead by `grading.startup.start_worker`."""
    began = time.perf_counter()
    session = GradingSession(assignment, solutions, limits, hide=hide, started=started)
    spent: dict[str, float] = defaultdict(float)
    last_breaker: str | None = None      # the exercise whose check last took the worker down
    grader_error = ""
    checks = []
    try:
        for cell in assignment.test_cells:
            ex = cell.exercise
            if not grader_error and session.worker is None:
                before = set(session.excluded)
                t0 = time.perf_counter()
                for attempt in (1, 2):
                    try:
                        session.ensure_worker()
                        break
                    except RuntimeError as exc:   # e.g. a fork bomb's leftovers: clean up, try once more
                        if after_worker_lost:
                            after_worker_lost()
                        if attempt == 2 or not after_worker_lost:
                            grader_error = f"[grader] {exc}"
                            break
                if session.worker is not None and after_worker_start:
                    after_worker_start(session.worker)
                newly = set(session.excluded) - before
                for culprit in newly or ([last_breaker] if last_breaker else []):
                    spent[culprit] += (time.perf_counter() - t0) / max(1, len(newly))
            left = share_s - spent[ex]
            if grader_error:
                result = CheckResult(cell.grade_id, cell.kind, ex, max_points=cell.points, message=grader_error)
            elif left < MIN_CALL_S:
                result = CheckResult(cell.grade_id, cell.kind, ex, max_points=cell.points,
                                     message=failure.message(
                                         cell.grade_id, f"`{ex}` used its share of the grading time "
                                         f"({share_s:.0f} s) on earlier checks that hung, crashed or ran slowly",
                                         verb="not run"))
            else:
                session.limits = dataclasses.replace(limits, check_timeout=min(limits.check_timeout, left))
                t0 = time.perf_counter()
                result = session.run_test_cell(cell)
                spent[ex] += time.perf_counter() - t0
                if session.worker is None:
                    last_breaker = ex
                    if after_worker_lost:
                        after_worker_lost()
            checks.append(result)
            if on_check:
                on_check(result, session)
        if session.deferred:     # the messages of tainted visible failures, once those workers are gone
            clean.resolve(session)
            if on_check:
                for item in checks:
                    on_check(item, session)
        return session.result(checks, time.perf_counter() - began)
    finally:
        session.close()
