"""A request that started Python threads waits, within a bound, until they show a Python frame
(`integrity._await_first_frames`): a thread scheduled late is then seen by the request that started it,
not charged to a later, bystander exercise (docs/SECURITY.md). Native threads (XLA's and LLVM's pools)
have no Python thread state and cost no wait. The count reads CPython's thread list through function
pointers of the module's own, which retyping `ctypes.pythonapi`'s shared ones does not reach, and whose
defaults student code cannot swap without an alarm."""
from __future__ import annotations

import _thread
import ctypes
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

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


def test_retyping_ctypes_shared_pointers_hides_no_thread():
    done = threading.Event()
    shared = ctypes.pythonapi.PyThreadState_Next
    saved = shared.restype
    interval = sys.getswitchinterval()
    before = integrity._threads_without_frames()
    shared.restype = None            # would end a walk through the shared pointer at its first state
    sys.setswitchinterval(5.0)
    try:
        _thread.start_new_thread(done.wait, (5,))
        counted = integrity._threads_without_frames()
        integrity._await_first_frames(before, limit_s=2.0)
    finally:
        sys.setswitchinterval(interval)
        shared.restype = saved
        done.set()
    assert counted == before + 1


def test_swapping_the_counters_defaults_raises_an_alarm():
    script = textwrap.dedent("""
        import os
        read, write = os.pipe()
        os.dup2(write, 5)
        from autograder.sandbox import integrity
        integrity.Snapshot.take()
        def swapped():
            integrity._threads_without_frames.__defaults__ = (None, None, None)
        exec(compile("swapped()", "student-cell", "exec"), {"swapped": swapped})
        def own(a=1):
            return a
        own.__defaults__ = (2,)          # a function of the student's own: no alarm
        os.set_blocking(read, False)
        print(os.read(read, 16).decode())
    """)
    env = {"JAX_PLATFORMS": "cpu", "PATH": "/usr/bin:/bin",
           "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "C", run.stdout
