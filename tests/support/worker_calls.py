"""A function a cell defines in a real worker, called there: what that worker's process sees (its JAX
settings, its environment), asked the way the grader asks (a trusted setup cell first, which is when
the worker applies its settings; then the student's cell; then a call)."""
from __future__ import annotations


def call_in_worker(limits, source: str, name: str):
    """`name()`'s value, where `source` (run as a student's cell) defines `name`, in a new worker."""
    from autograder.sandbox.process import WorkerProcess
    from autograder.sandbox.wire import dumps_request
    worker = WorkerProcess(limits, [])
    try:
        assert worker.request({"op": "exec", "grade_id": "setup", "source": "import jax", "trusted": True}, 60, None)["ok"]
        assert worker.request({"op": "exec", "grade_id": name, "source": source}, 60, None)["ok"]
        return worker.request({"op": "call", "target": ("name", name), "args": dumps_request(((), {}))},
                              60, None)["value"]
    finally:
        worker.close()
