"""Performance checks under the grader: the hidden reference is timed in a worker of its own.

`check.assert_runtime_within(fn, reference, ...)` compares the student's compiled function with a
reference written in a (usually hidden) test cell. In a notebook kernel both run in one process.
Under the grader, the reference must never sit next to the student's code, where that code could
read it (it is often the answer). So a second, trusted worker, which runs the assignment's setup
cells and nothing of the student's, compiles and times the reference; the student's worker compiles
and times the student's function; the grader alternates between the two, sample by sample, and
takes the verdict from the paired ratios (`evidence.compare_timings`). Both workers have the same
limits, isolation and devices, so a sample means the same on either side.
"""
from __future__ import annotations

from ..checks import evidence
from ..course.notebook import Cell
from ..sandbox.process import Limits, WorkerDied, dumps_request
from .startup import setup_request, start_worker

PERFORMANCE_CHECKS = ("assert_runtime_within", "assert_compile_time_within")


def needs_reference_worker(test_cells: list[Cell]) -> bool:
    return any(name in cell.source for cell in test_cells for name in PERFORMANCE_CHECKS)


class ReferenceWorker:
    """A worker that runs only trusted code: the setup cells, then the references it is sent."""

    def __init__(self, limits: Limits, hide: list[str], setup_cells: list[Cell]):
        self.limits = limits
        self.setup_cells = setup_cells
        self.started = start_worker(limits, hide, setup_cells)
        self.worker = self.started.worker
        self.ready = False

    def _request(self, req: dict) -> dict:
        return self.worker.request(req, self.limits.check_timeout, lambda node: node)

    def _ensure_ready(self):
        if self.ready:
            return
        for i, cell in enumerate(self.setup_cells):
            if i == 0 and self.started.setup_nonce:
                reply = self.worker.receive(self.started.setup_nonce, self.limits.startup_timeout, lambda n: n)
            else:
                reply = self.worker.request(setup_request(cell), self.limits.startup_timeout, lambda n: n)
            if not reply["ok"]:
                raise RuntimeError(f"the setup cell failed in the reference worker: {reply['error']['type']}")
        self.ready = True

    def _step(self, node):
        def run():
            reply = self._request({"op": "call", "target": ("handle", node["id"]), "args": dumps_request(((), {}))})
            if not reply["ok"]:
                raise RuntimeError(f"the reference failed while timed: {reply['error']['type']}: "
                                   f"{reply['error']['message'][:300]}")
            return reply["value"]
        return run

    def side(self, reference, args, static_argnums, phase):
        """The reference's side of a timing (see `evidence.timing_side`), run in this worker."""
        self._ensure_ready()
        reply = self._request({"op": "probe", "probe": "timing_side", "target": None,
                               "args": dumps_request(((reference, args, static_argnums, phase), {"student": False}))})
        if not reply["ok"]:
            raise RuntimeError(f"the reference could not be traced: {reply['error']['type']}: "
                               f"{reply['error']['message'][:300]}")
        record, steps = reply["value"]
        return record, {name: self._step(node) for name, node in steps.items()}

    def close(self):
        self.worker.close()


def time_against(session, fn, reference, args, factor, static_argnums, phase) -> dict:
    """`evidence.time_against` with the student's side in the student's worker and the reference's
    in the session's reference worker."""
    from .session import StudentCodeError
    for attempt in (1, 2):   # a worker lost to a cleanup between checks (a container's) is started again
        try:
            ref = session.reference_worker().side(reference, args, static_argnums, phase)
            break
        except WorkerDied as died:
            session.close_reference_worker()
            if attempt == 2:
                raise RuntimeError(f"the reference worker {died.reason}") from None
    record, steps = session.run_probe(evidence.timing_side, fn, (args, static_argnums, phase), {})
    if not record["ok"]:
        return record
    try:
        return evidence.compare_timings((record, steps), ref, factor, phase)
    except StudentCodeError as exc:
        return {"ok": False, "error": exc.desc}
