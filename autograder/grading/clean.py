"""The messages of visible failures seen by a tainted worker, from a clean worker, once every process
that saw hidden data is gone.

A worker is tainted once a test cell sent it a request from its hidden region (`session.py`). A
visible failure it produced then may quote anything its student code chose, so its message is taken
from the same cell run again, up to its hidden region, in a *clean* session whose worker never
receives a request from a hidden region. That clean worker runs student code too, so it must not be
able to hear from the tainted one: a blind red team made the tainted worker hold 15,000 open files
(a host-wide count, `/proc/sys/fs/file-nr`) while the clean worker read the count and returned it,
and the clean message carried a hidden input's length. So the clean runs are deferred to the end of
the notebook (`resolve`), after the tainted main worker and the timing worker (which holds the hidden
references) are closed, and with them every process of their sandboxes (in the namespace modes the
kernel ends a PID namespace with its first process; `WorkerProcess.close` waits for it). What is
left to a tainted worker is what outlives it, which its private disk, IPC and network namespaces
and its own uid do not leave (docs/SECURITY.md).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..course.notebook import Cell, hidden_lines
from . import hidden as hidden_messages


@dataclass
class Deferred:
    result: object        # the CheckResult whose message is filled in by `resolve`
    cell: Cell
    raised: BaseException
    placeholder: str      # the message until then (the grader's words), which notes may follow


def defer(session, result, cell: Cell, raised: BaseException):
    """Give `result` the grader's words for now; `resolve` replaces them with the clean run's message."""
    result.message = hidden_messages.withheld(cell.grade_id, raised)
    session.deferred.append(Deferred(result, cell, raised, result.message))


def resolve(session):
    """Close the tainted workers, then take each deferred failure's message from a clean session."""
    if not session.deferred:
        return
    session._discard_worker()
    session.close_timing_worker()
    clean = type(session)(session.assignment, session.solutions, session.limits, session.hide, clean=True)
    clean.excluded |= session.excluded          # replay what the tainted worker replayed, no more
    try:
        for item in session.deferred:
            text = _clean_message(clean, item)
            note = item.result.message[len(item.placeholder):]   # e.g. "your cell raised ..." notes
            item.result.message = text + note
    finally:
        clean.close()
        session.deferred = []


def _clean_message(clean, item: Deferred) -> str:
    rerun = clean.run_test_cell(item.cell)
    hidden = hidden_lines(item.cell.source)
    if not rerun.passed and not rerun.reached_hidden and rerun.message and rerun.line not in hidden:
        return rerun.message
    return item.placeholder
