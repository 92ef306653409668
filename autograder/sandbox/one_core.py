"""The CLI's timing worker runs on one core of its own choosing, from its start (CPU graders only).

Why: on a loaded machine a performance check's verdict on 03's `ema` depended on how XLA spread a
program over threads. A program that XLA splits over its thread pool (a scan per column: 32 independent
scans) waits for whichever of its threads the machine preempted last, so under a CPU burner per core it
read anything from half to ten times its cost, while the reference, on one thread, kept its cost. In the
CLI's timing worker the wrong answer passed once in 180 gradings at the issue's load (2.61x against a 3x
budget, where it costs 4.5-5x). A process held to one core from its start has one-thread pools (XLA
sizes them from the cores the process may use, when its backend starts), so both sides run as the
reference does, and no sample reads a threaded program at half its cost because a core freed up.
Measured in the CLI at the issue's load, twenty repeats against the worker on every core in the same
run (benchmarks/README.md, "The CLI's timing worker on one core"): 0 flips in 480 gradings either way;
the right answers' worst readings fell (1.61x to 1.23x, 1.69x to 1.12x) and the wrong answers' floors
rose or held for two cells of three; `ema`'s margin did not widen (its wrong answer read 3.78x at worst,
and forty more repeats of it failed a right answer once, at 3.06x: its answers were too close to its
budget for any clock; the cell's input was widened since, and on it `ema` held, 0 flips in 540).

What it does: the grader leases a core to each timing worker it starts (the least held one of the
cores the grader may use, ties taken round robin from where this grader process starts, so that the
graders of a batch and the timing workers of one grader spread out) and sets `ENV` for it; the worker
reads and removes it at its start (`take_environment`, before its JAX starts a backend or NumPy a
thread pool: every later thread inherits the mask). A worker whose JAX may reach an accelerator is
not pinned: there the wall clock times the device, and one host core would only slow its dispatch.
Only the timing worker: the correctness workers compile and run many small programs and gain from
every core, and `nbgrader autograde`'s kernel starts its JAX before any test cell could choose.

The lease is within one grader process (threads); several grader processes of one batch start at
different cores (`start_at`), as `devices.py` does for GPUs.
"""
from __future__ import annotations

import os
import threading

ENV = "CPU_AFFINITY_CORE"

_lock = threading.Lock()
_held: dict[int, int] = {}   # core -> timing workers pinned to it now
_next = 0                    # where the next tie-break starts (round robin)
_first = 0                   # where this grader process starts (`start_at`)


def start_at(index: int):
    """Start this grader process's leases at core `index` (mod the cores it may use)."""
    global _first, _next
    _first = _next = max(0, int(index))


def _usable_cores() -> list[int]:
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):   # not Linux: nothing to pin with
        return []


class CoreLease:
    """One timing worker's core: `environment` for its start, `release()` when it ends. Empty (no
    core, no variable) unless `wanted` (the grader's caller decides: not where an accelerator may be
    used) and the grader may use more than one core."""

    def __init__(self, wanted: bool):
        global _next
        self.core = None
        cores = _usable_cores() if wanted else []
        if len(cores) > 1:
            with _lock:
                order = [cores[(_next + i) % len(cores)] for i in range(len(cores))]
                self.core = min(order, key=lambda c: _held.get(c, 0))
                _held[self.core] = _held.get(self.core, 0) + 1
                _next = (cores.index(self.core) + 1) % len(cores)
        self.environment = {ENV: str(self.core)} if self.core is not None else {}

    def release(self):
        global _next
        if self.core is None:
            return
        with _lock:
            _held[self.core] = max(0, _held.get(self.core, 0) - 1)
            if not any(_held.values()):
                _next = _first   # a new round of workers starts where this process starts
        self.core = None


def take_environment() -> int | None:
    """In a worker, at its start: pin this process to the core the grader leased it (removing the
    variable, so student code does not find it). Returns the core, or None when none was given or
    the system refused (the worker then runs as before, on every core)."""
    value = os.environ.pop(ENV, "")
    if not value.isdigit():
        return None
    try:
        os.sched_setaffinity(0, {int(value)})
    except (AttributeError, OSError, ValueError):
        return None
    return int(value)


def pinned_core() -> int | None:
    """The one core this process may run on, if it is held to one (for tests and labcheck)."""
    cores = _usable_cores()
    return cores[0] if len(cores) == 1 else None
