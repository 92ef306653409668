"""A request that started Python threads waits, within a bound, until they show a Python frame
(`integrity._await_first_frames`): a thread scheduled late is then seen by the request that started it,
not charged to a later, bystander exercise (docs/SECURITY.md). Native threads (XLA's and LLVM's pools)
have no Python thread state and cost no wait."""
from __future__ import annotations

import _thread
import ctypes
import sys
import threading
import time

from autograder.sandbox import integrity


def test_a_thread_not_yet_scheduled_is_counted_and_waited_for():
    done = threading.Event()
    before = integrity._threads_without_frames()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(5.0)   # this thread keeps the GIL: the new one cannot reach its first frame
    try:
        _thread.start_new_thread(done.wait, (5,))
        not_yet_running = integrity._threads_without_frames()
        started = time.monotonic()
        integrity._await_first_frames(before, limit_s=2.0)   # sleeps: the new thread gets the GIL
        waited = time.monotonic() - started
        after = integrity._threads_without_frames()
    finally:
        sys.setswitchinterval(interval)
        done.set()
    assert not_yet_running == before + 1
    assert after == before
    assert waited < 1.0   # returned once the thread showed its frame, not at the limit


def test_native_threads_cost_no_wait():
    libc = ctypes.CDLL(None)
    native = ctypes.c_ulong()
    before = integrity._threads_without_frames()
    sleep = ctypes.cast(libc.sleep, ctypes.c_void_p)   # a native thread: pthread_create(sleep, 1)
    assert libc.pthread_create(ctypes.byref(native), None, sleep, ctypes.c_void_p(1)) == 0
    try:
        started = time.monotonic()
        integrity._await_first_frames(before, limit_s=2.0)
        assert time.monotonic() - started < 0.05
    finally:
        libc.pthread_join(native, None)


def test_the_wait_is_bounded():
    started = time.monotonic()
    integrity._await_first_frames(-1, limit_s=0.05)   # as if a started thread never showed a frame
    assert 0.05 <= time.monotonic() - started < 0.5
