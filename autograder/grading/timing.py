"""Performance checks under the grader: timed in a worker of their own, away from the other checks.

`check.assert_runtime_within(fn, reference, ...)` compares the student's compiled function with a
reference written in a (usually hidden) test cell, in one process, alternating the two sample by
sample so that both get the same chances of a quiet moment on a busy machine, and compares their
second-fastest samples (`checks/timing.py`). (Timing the two in two processes
was tried: on a loaded 2-core machine their paired ratios scattered from 0.3 to 7 for the same two
programs, where one process keeps them within 20%.)

The reference is often the answer, so it must not enter the student's worker, where the student's
code could read it and pass it on through a later check's message. So the timing runs in a third
process, the *timing worker*: the assignment's setup cells, the student's solution cells replayed as
the main worker replays them (poisoned ones left out), then each reference it is sent. Student code
there could read the reference, but nothing that worker says reaches the student except the check's
verdict: it runs no other check, it has its own private disk and no network, and a failure of a
performance check in a hidden region (where references live) is reported in the grader's own words
(`hidden.py`). Its integrity is checked as the main worker's is.
"""
from __future__ import annotations

import dataclasses

from ..course.notebook import Cell
from ..sandbox.process import Limits, WorkerDied
from ..sandbox.wire import dumps_request
from .startup import setup_request, start_worker

PERFORMANCE_CHECKS = ("assert_runtime_within", "assert_compile_time_within")
# what a performance check whose timing ran out of time says, on a hidden test too (a fixed text)
LIMIT_FIX = ("time `jax.jit` of your function yourself on inputs as large as the exercise's, its compile and "
             "its calls: one that takes seconds where the reference takes milliseconds is what ran out of time")


def needs_timing_worker(test_cells: list[Cell]) -> bool:
    return any(name in cell.source for cell in test_cells for name in PERFORMANCE_CHECKS)


class TimingFailed(Exception):
    """The timing worker could not time this check (it could not start, replay or answer).
    `thread_cells`: the solution cells whose code a thread still ran there (`integrity.py`);
    `timed_out`: it was still compiling or calling when the check's time limit ran out."""

    def __init__(self, message: str, thread_cells=(), timed_out: bool = False):
        super().__init__(message)
        self.thread_cells = list(thread_cells)
        self.timed_out = timed_out


class TimingWorker:
    """Setup cells at once (so that its `import jax` overlaps the grading), the student's solution
    cells at its first check, then one `time_against` probe per performance check."""

    def __init__(self, limits: Limits, hide: list[str], setup_cells: list[Cell]):
        # no compile cache (a compile-time budget is measured from a cold compile), every XLA
        # optimization (a run-time budget times what the student would run: compile_effort.py), and,
        # on a CPU, one core from its start (sandbox/one_core.py)
        self.limits = limits = dataclasses.replace(limits, compile_cache=False, quick_compiles=False)
        self.setup_cells = setup_cells
        self.started = start_worker(limits, hide, setup_cells, pin_core=limits.timing_one_core)
        self.worker = self.started.worker
        self.replayed = False

    def _request(self, req: dict, timeout: float) -> dict:
        reply = self.worker.request(req, timeout, lambda node: node)
        if reply.get("violations") or reply.get("thread_cells"):
            # without their text: the timing worker holds the hidden reference, so what its student
            # code changed could be named after it (session.py, "student text only from a clean worker")
            raise TimingFailed(f"the timing worker's integrity check failed "
                               f"({len(reply.get('violations', [])) + len(reply.get('thread_cells', []))} change(s) "
                               f"to the grader's or JAX's modules, hooks, threads or processes)",
                               reply.get("thread_cells", ()))
        return reply

    def _replay(self, solutions: list[tuple[str, str]]):
        for i, cell in enumerate(self.setup_cells):
            if i == 0 and self.started.setup_nonce:
                reply = self.worker.receive(self.started.setup_nonce, self.limits.startup_timeout, lambda n: n)
            else:
                reply = self._request(setup_request(cell), self.limits.startup_timeout)
            if not reply["ok"]:
                raise TimingFailed("the assignment's setup cell failed in the timing worker")
        for exercise, source in solutions:   # a cell that raises is replayed as the main worker does
            self._request({"op": "exec", "grade_id": exercise, "source": source}, self.limits.cell_timeout)
        self.replayed = True

    def time_against(self, solutions, name, reference, args, factor, static_argnums, phase) -> dict:
        """`evidence.time_against(<the student's `name`>, reference, ...)` in this worker."""
        try:
            if not self.replayed:
                self._replay(solutions)
            reply = self._request({"op": "probe", "probe": "time_against", "target": ("name", name),
                                   "args": dumps_request(((reference, args, factor, static_argnums, phase), {}))},
                                  self.limits.check_timeout)
        except WorkerDied as died:
            raise TimingFailed(f"the timing worker {died.reason}", timed_out=died.reason.startswith("timed out")) from None
        return reply["value"] if reply["ok"] else {"ok": False, "error": reply["error"]}

    def alive(self) -> bool:
        return self.worker.proc.poll() is None

    def close(self):
        self.worker.close()
