"""A request that added OS threads waits, within a bound, until they show a Python frame
(`integrity._await_first_frames`): a thread that reaches its first frame late is then seen by the
request that started it, not charged to a later, bystander exercise (docs/SECURITY.md)."""
from __future__ import annotations

import threading
import time

from autograder.sandbox import integrity


def test_a_thread_that_shows_its_frame_late_is_waited_for():
    done = threading.Event()

    def helper():   # already counted: starts the new Python thread 40 ms from now, as a thread that a
        time.sleep(0.04)   # loaded machine schedules late would show its first frame, and stays alive
        threading.Thread(target=done.wait, args=(5,)).start()
        done.wait(5)
    threading.Thread(target=helper).start()
    time.sleep(0.005)
    before = len(integrity._python_threads())
    started = time.monotonic()
    try:
        integrity._await_first_frames(1, before, limit_s=2.0)
        waited = time.monotonic() - started
        assert len(integrity._python_threads()) - before >= 1
        assert 0.02 <= waited < 1.0    # waited for the late thread, and returned once it showed
    finally:
        done.set()


def test_threads_that_never_show_a_frame_cost_at_most_the_limit():
    before = len(integrity._python_threads())
    started = time.monotonic()
    integrity._await_first_frames(1, before, limit_s=0.05)   # no new thread: like XLA's native ones
    assert 0.05 <= time.monotonic() - started < 0.5
