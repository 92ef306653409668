"""The CLI's timing worker held to one core from its start (sandbox/one_core.py).

Real workers: the grader's timing worker as the session starts it (`grading.timing.TimingWorker`)
reports, after its JAX has run a program, the cores every one of its threads may run on, and
whether the variable that carried its core is still there for student code to find.
"""
from __future__ import annotations

import dataclasses
import os

import pytest

from autograder.sandbox import one_core
from autograder.sandbox.wire import dumps_request

# Run in the worker, after its JAX has started a backend (XLA's thread pools exist by then).
_REPORT = ("import os, glob\n"
           "import jax.numpy as jnp\n"
           "def report():\n"
           "    jnp.cumsum(jnp.ones((256, 64)), axis=0).block_until_ready()\n"
           "    masks = set()\n"
           "    for status in glob.glob('/proc/self/task/*/status'):\n"
           "        for line in open(status):\n"
           "            if line.startswith('Cpus_allowed_list:'):\n"
           "                masks.add(line.split(':', 1)[1].strip())\n"
           "    from autograder.sandbox import compile_cache, compile_effort\n"
           "    return {'masks': sorted(masks), 'threads': len(glob.glob('/proc/self/task/*')),\n"
           "            'variable': os.environ.get('" + one_core.ENV + "'),\n"
           "            'quick': compile_effort.asked(), 'cache': compile_cache.stats()['installed']}\n")

CORES = sorted(os.sched_getaffinity(0))
# the cores the grader may use, as /proc writes them ("0-1"): what a worker that is not pinned keeps
_GRADERS_MASK = next(line.split(":", 1)[1].strip() for line in open("/proc/self/status")
                     if line.startswith("Cpus_allowed_list:"))


def _report(worker) -> dict:
    """`_REPORT` in `worker` (a WorkerProcess)."""
    assert worker.request({"op": "exec", "grade_id": "report", "source": _REPORT}, 60, None)["ok"]
    reply = worker.request({"op": "call", "target": ("name", "report"), "args": dumps_request(((), {}))}, 60, None)
    assert reply["ok"], reply
    return reply["value"]


@pytest.fixture
def on_cpu(monkeypatch):
    monkeypatch.setenv("AUTOGRADER_WORKER_JAX_PLATFORMS", "cpu")
    monkeypatch.setenv("AUTOGRADER_GPUS", "0")


def test_timing_workers_run_on_one_core_each(limits, on_cpu):
    """Two timing workers at once (a grader grading two notebooks): each worker's every thread is
    held to one core, not the same one, and student code cannot read which from the environment.
    A correctness worker keeps every core."""
    from autograder.grading.timing import TimingWorker
    from autograder.sandbox.process import WorkerProcess
    assert len(CORES) > 1, "this test needs a machine with two cores or more (the CI machine has two)"
    timing = [TimingWorker(limits, [], []) for _ in range(2)]
    plain = WorkerProcess(limits, [])
    try:
        reports = [_report(t.worker) for t in timing]
        everywhere = _report(plain)
    finally:
        for t in timing:
            t.close()
        plain.close()
    cores = [t.worker.core_lease for t in timing]
    assert all(lease.core is None for lease in cores), "a lease outlived its worker"
    assert all(len(r["masks"]) == 1 and r["masks"][0] in {str(c) for c in CORES} for r in reports), reports
    assert reports[0]["masks"] != reports[1]["masks"], "two timing workers at once were given the same core"
    assert all(r["variable"] is None for r in reports), "the core's variable was left for student code"
    assert everywhere["masks"] == [_GRADERS_MASK], everywhere


def test_no_core_where_an_accelerator_may_be_used(limits, monkeypatch):
    """With (fake) GPUs the timing worker is not pinned: the wall clock times the device there."""
    from autograder.sandbox.process import WorkerProcess
    monkeypatch.setenv("AUTOGRADER_GPUS", "2")
    monkeypatch.setenv("AUTOGRADER_WORKER_JAX_PLATFORMS", "")
    worker = WorkerProcess(limits, [], pin_core=True)
    try:
        assert worker.core_lease.core is None and one_core.ENV not in worker.core_lease.environment
    finally:
        worker.close()


def test_every_timing_worker_compiles_cold_and_fully(limits, on_cpu):
    """Whoever starts it (the session at its start, or again after a cell was left out) and with
    whatever limits: no compile cache (a compile time is measured cold) and no quick compiles (a run
    time is what the student's optimized program costs). A restarted one once got the session's own."""
    from autograder.grading.timing import TimingWorker
    from autograder.sandbox.process import WorkerProcess
    given = dataclasses.replace(limits, compile_cache=True, quick_compiles=True)
    timing, plain = TimingWorker(given, [], []), WorkerProcess(given, [])
    try:
        report, as_given = _report(timing.worker), _report(plain)
    finally:
        timing.close()
        plain.close()
    assert as_given["quick"] is True, as_given   # what these limits give any other worker
    assert not timing.limits.compile_cache and not timing.limits.quick_compiles
    assert report["quick"] is False and report["cache"] is False, report


def test_the_grader_can_switch_it_off(limits, on_cpu):
    from autograder.grading.timing import TimingWorker
    timing = TimingWorker(dataclasses.replace(limits, timing_one_core=False), [], [])
    try:
        assert timing.worker.core_lease.core is None
        assert _report(timing.worker)["masks"] == [_GRADERS_MASK]
    finally:
        timing.close()


def test_leases_spread_and_come_back():
    """Leases take the least held core, ties round robin from where this grader process starts;
    released ones are taken again; none is given where not wanted."""
    assert one_core.CoreLease(False).environment == {}
    one_core.start_at(1)
    try:
        leases = [one_core.CoreLease(True) for _ in range(len(CORES) + 1)]
        taken = [lease.core for lease in leases]
        assert taken[0] == CORES[1 % len(CORES)]
        assert sorted(taken[:len(CORES)]) == CORES, taken      # every core once before any twice
        assert leases[0].environment == {one_core.ENV: str(taken[0])}
        assert taken[len(CORES)] == taken[0]
        leases[1].release()
        again = one_core.CoreLease(True)
        assert again.core == taken[1]                          # the one given back is the least held
        for lease in [*leases, again]:
            lease.release()
    finally:
        one_core.start_at(0)
