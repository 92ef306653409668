"""Timeouts per cell from what the reference costs on this machine (issue 36).

Without them, a student's call that hangs waits the configured timeout (`--check-timeout`; for
`autograde`, nbgrader's `Execute.timeout`, 60 s by default), though the reference answers the same
cell in a second. In a batch with a compile cache, the *builder* (`batch_cache.py`) already grades
the reference solutions through the test cells, in a sandboxed worker like a student's, before any
student's notebook: it measures each test cell and each solution cell there. A student's call in
that cell then waits at most

    min(configured timeout, max(FLOOR_S, MARGIN x the reference's seconds for the whole cell))

and a solution cell likewise. What the margin has to cover, and why these values:
- the reference's time is its whole cell (every call it makes, and the first cell also pays the
  worker's start), while the limit applies to each call; the builder compiles cold, as a student
  whose program differs from the reference's does;
- a correct but slow answer: a Python loop unrolled into the trace, an eager loop, a `vmap` written
  as a loop. tests/test_right_answers.py grades the course's slowest correct answers under these
  timeouts, by both graders, and every one must earn full marks;
- the load of a batch: the builder runs while the other assignments' notebooks are being graded,
  but a student's notebook may run beside more of them than the builder did.
The floor covers a cell that is nearly free for the reference (a shape check) on a busy machine.
Measured (benchmarks/timeout_margin.py, all 8 assignments, 118 cells, on 2 cores loaded to 9-35 by
other gradings): the slowest correct answer of a cell took at most 2.7x what the reference took
there (03 `newton_sqrt_jit`), so a margin of 10 leaves it more than 3.7x of room.

What does not change: performance checks (the timing worker, which the builder does not run), a
cell the reference failed or did not reach, any batch without a builder (no compile cache, or the
build failed), and `--no-reference-timeouts`, the instructor's override, under which every cell
gets the configured timeout. A timeout is never longer than the configured one.
"""
from __future__ import annotations

MARGIN = 10.0
FLOOR_S = 5.0


def derive(reference_seconds: dict[str, float]) -> dict[str, float]:
    """{grade_id: seconds} from the builder's reference run ({grade_id: seconds} of its passed test
    cells and of its solution cells); the configured timeout caps them where they are used."""
    return {gid: round(max(FLOOR_S, MARGIN * s), 1) for gid, s in reference_seconds.items()
            if isinstance(s, (int, float)) and s >= 0}


def _derived(limits, grade_id: str | None) -> float | None:
    table = limits.cell_timeouts if limits.reference_timeouts else None
    value = table.get(grade_id) if table and grade_id else None
    return float(value) if isinstance(value, (int, float)) and value > 0 else None


def call_timeout(limits, grade_id: str | None) -> float:
    """Seconds one call of a student function may take in test cell `grade_id`."""
    derived = _derived(limits, grade_id)
    return limits.check_timeout if derived is None else min(limits.check_timeout, derived)


def exec_timeout(limits, exercise: str) -> float:
    """Seconds the student's solution cell `exercise` may take to run."""
    derived = _derived(limits, exercise)
    return limits.cell_timeout if derived is None else min(limits.cell_timeout, derived)
