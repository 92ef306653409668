"""Starting a grading worker early, so that its `import jax` runs beside the grader's own.

A worker's first request is always the assignment's first setup cell (trusted source code that
imports JAX). `start_worker` starts the worker and sends that request at once, without waiting for
the reply; `GradingSession.ensure_worker` reads the reply later. `grade.grade_submission` calls it
before it imports the grading session (and with it JAX), so on two cores the two imports overlap
instead of following each other. This module must not import JAX or NumPy for that reason.

Nothing about the worker changes: same process, same sandbox, same requests in the same order; only
the moment the first request is written moves earlier, before any student code is involved.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from ..course.notebook import Cell
from ..sandbox.process import Limits, WorkerDied, WorkerProcess


@dataclass
class StartedWorker:
    worker: WorkerProcess
    setup_nonce: str | None   # the nonce of the first setup cell's request; None if not sent


def setup_request(cell: Cell) -> dict:
    """The request that runs one of the source's setup cells in the worker."""
    return {"op": "exec", "grade_id": cell.grade_id, "source": cell.source, "trusted": True}


def start_worker(limits: Limits, hide: list[str], setup_cells: list[Cell], pin_core: bool = False) -> StartedWorker:
    """Start a worker and send it the first setup cell; its reply is read by the session.
    `pin_core`: the timing worker's one core (sandbox/one_core.py)."""
    worker = WorkerProcess(limits, hide, pin_core=pin_core)
    nonce = None
    if setup_cells:
        try:
            nonce = worker.send(setup_request(setup_cells[0]))
        except WorkerDied:
            nonce = None  # the session sends it again and reports why the worker is gone
    return StartedWorker(worker, nonce)


def isolate_jax_for_grader():
    """The grader's own JAX runs on the CPU, leaving accelerators to the student's worker (which
    gets what JAX_PLATFORMS said, through AUTOGRADER_WORKER_JAX_PLATFORMS). Called by every grading
    command before JAX is imported."""
    if "AUTOGRADER_WORKER_JAX_PLATFORMS" not in os.environ:
        os.environ["AUTOGRADER_WORKER_JAX_PLATFORMS"] = os.environ.get("JAX_PLATFORMS", "")
    os.environ["JAX_PLATFORMS"] = "cpu"
