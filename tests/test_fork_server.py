"""The fork server (sandbox/zygote.py, sandbox/forkserver.py): a worker forked from the zygote is
confined as an exec'd one is (its fds are its channels only, it cannot see or reach the zygote),
draws its own random numbers, the zygote ends with the grader, and AUTOGRADER_FORK_SERVER=0 gives
the exec path."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from support.machine import unavailable
from support.notebooks import TEST_TIMEOUT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork server is Linux only")

@pytest.fixture(autouse=True)
def _fork_server_on(monkeypatch):
    """These tests are of the fork server, whatever the suite's AUTOGRADER_FORK_SERVER says."""
    monkeypatch.setenv("AUTOGRADER_FORK_SERVER", "1")


FD_CELL = textwrap.dedent("""\
    import os
    fds = {}
    for name in os.listdir("/proc/self/fd"):
        try:
            fds[int(name)] = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            pass
    print("FDS", __import__("json").dumps(fds))
    print("PIDS", sorted(int(p) for p in os.listdir("/proc") if p.isdigit()), os.getpid())
    def cmdline(pid):   # (in `process` mode the host's processes are listed: one may end meanwhile)
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                return fh.read().decode(errors="replace")
        except OSError:
            return None
    print("CMDLINES", __import__("json").dumps([c for c in (cmdline(p) for p in os.listdir("/proc") if p.isdigit())
                                                if c is not None]))
""")


def _mode(mode):
    from autograder.sandbox.process import choose_isolation
    try:
        return choose_isolation(mode) == mode
    except RuntimeError:
        return False


def _forked_worker(limits, **changes):
    import dataclasses

    from autograder.sandbox import forkserver
    from autograder.sandbox.process import WorkerProcess
    worker = WorkerProcess(dataclasses.replace(limits, **changes), [])
    assert isinstance(worker.proc, forkserver.Forked), "the fork server is off"
    return worker


def _run(worker, source: str) -> str:
    """Run `source` as a trusted cell; what it printed."""
    reply = worker.request({"op": "exec", "grade_id": "cell", "source": source, "trusted": True}, 60, None)
    assert reply["ok"], (reply["error"], worker.stderr_tail())
    with open(worker.stdout_path) as fh:
        return fh.read()


def _run_forked(limits, mode: str, source: str) -> str:
    """Run `source` in a worker forked from the zygote in isolation `mode`; its output."""
    if not _mode(mode):
        unavailable(f"{mode} isolation is not available here")
    worker = _forked_worker(limits, isolation=mode)
    try:
        out = _run(worker, source)
        assert worker.proc._popen is None, "the worker took the exec path"
    finally:
        worker.close()
    return out


def _line(out: str, tag: str) -> str:
    return next(line for line in out.splitlines() if line.startswith(tag + " "))[len(tag) + 1:]


@pytest.mark.parametrize("mode", ["namespace", "userns", "process"])
def test_a_forked_worker_holds_its_channels_only(limits, mode):
    out = _run_forked(limits, mode, FD_CELL)
    # (the fd os.listdir held on /proc/self/fd is closed by the time it is read: not listed)
    fds = {int(k): v for k, v in json.loads(_line(out, "FDS")).items()}
    assert sorted(fds) == [0, 1, 2, 3, 4, 5], fds
    assert fds[0] == "/dev/null" and fds[1].endswith(".stdout") and fds[2].endswith(".stderr"), fds
    assert all(fds[fd].startswith("pipe:") for fd in (3, 4, 5)), fds
    assert not any(v.startswith("socket:") for v in fds.values()), "a socket (the zygote's, the lifeline) reached the worker"


@pytest.mark.parametrize("mode", ["namespace", "userns"])
def test_a_forked_worker_cannot_see_the_zygote(limits, mode):
    out = _run_forked(limits, mode, FD_CELL)
    pids, me = _line(out, "PIDS").rsplit(" ", 1)
    assert json.loads(pids) == [1, int(me)], "the worker sees processes other than its supervisor"
    # (the supervisor and the worker keep the zygote's command line: they are its forks, not it)
    assert len(json.loads(_line(out, "CMDLINES"))) == 2


def test_forked_workers_draw_their_own_random_numbers(limits):
    cell = ("import random, numpy as np\n"
            "print('DRAW', np.random.rand(3).tolist(), random.random(), np.random.default_rng().random())\n")
    draws = []
    for _ in range(2):
        worker = _forked_worker(limits)
        try:
            draws.append(_line(_run(worker, cell), "DRAW"))
        finally:
            worker.close()
    first, second = (d.rsplit("] ", 1)[0] for d in draws)
    assert first != second, f"two forked workers drew the same NumPy numbers: {draws}"
    assert draws[0].split("] ")[1].split()[0] != draws[1].split("] ")[1].split()[0], "same `random` numbers"


def test_a_forked_worker_never_walks_what_the_zygote_imported(limits):
    # its first cell, before the worker's own first collection: JAX's objects are frozen already
    cell = "import gc\nprint('GC', gc.get_freeze_count(), len(gc.get_objects()))\n"
    worker = _forked_worker(limits)
    try:
        frozen, tracked = map(int, _line(_run(worker, cell), "GC").split())
    finally:
        worker.close()
    assert frozen > 50_000, f"only {frozen} objects frozen in the zygote: every worker's first collection walks JAX's"
    assert tracked < 20_000, f"{tracked} objects left to the forked worker's collector"


def test_the_kill_switch_gives_the_exec_path(limits, monkeypatch):
    from autograder.sandbox import forkserver
    from autograder.sandbox.process import WorkerProcess
    monkeypatch.setenv(forkserver.SWITCH, "0")
    worker = WorkerProcess(limits, [])
    try:
        assert isinstance(worker.proc, subprocess.Popen)
        assert "autograder.sandbox.inside" in " ".join(worker.proc.args)
        assert _run(worker, "print('up')\n").strip() == "up"
    finally:
        worker.close()
    monkeypatch.setenv(forkserver.SWITCH, "1")
    worker = _forked_worker(limits)
    try:
        _run(worker, "print('up')\n")
        from autograder.sandbox import procs
        assert procs.parent(worker.proc.pid) in forkserver.pids(), "the worker's first process is not the zygote's child"
    finally:
        worker.close()


def test_a_dead_zygote_is_started_again(limits):
    from autograder.sandbox import forkserver
    worker = _forked_worker(limits)
    try:
        _run(worker, "print('up')\n")
        before = forkserver.pids()
        assert before
    finally:
        worker.close()
    for pid in before:
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while any(p in forkserver.pids() for p in before) and time.monotonic() < deadline:
        time.sleep(0.05)
    worker = _forked_worker(limits)
    try:
        assert _run(worker, "print('again')\n").strip() == "again"
        assert worker.proc._popen is None and not set(before) & set(forkserver.pids())
    finally:
        worker.close()


GRADER = textwrap.dedent("""\
    import sys, time
    from autograder.sandbox import forkserver
    from autograder.sandbox.process import Limits, WorkerProcess
    w = WorkerProcess(Limits(isolation=sys.argv[1]), [])
    assert w.request({"op": "exec", "grade_id": "s", "source": "x = 1", "trusted": True}, 60, None)["ok"]
    print(forkserver.pids()[0], w.proc.pid, flush=True)
    time.sleep(600)
""")


@pytest.mark.parametrize("mode", ["namespace", "process"])
def test_the_zygote_and_its_workers_end_with_the_grader(tmp_path, mode):
    if not _mode(mode):
        unavailable(f"{mode} isolation is not available here")
    script = tmp_path / "grader.py"
    script.write_text(GRADER)
    grader = subprocess.Popen([sys.executable, str(script), mode], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "AUTOGRADER_FORK_SERVER": "1"})
    try:
        zygote, first = (int(v) for v in grader.stdout.readline().split())
        from autograder.sandbox import procs
        tree = [zygote, first, *procs.descendants(first)]
        assert len(tree) >= 3, tree     # zygote, C, the supervisor (and the worker)
    finally:
        grader.kill()
        grader.wait()
    deadline = time.monotonic() + 3 * TEST_TIMEOUT
    alive = tree
    while alive and time.monotonic() < deadline:
        alive = [p for p in tree if procs.state(p) not in (None, "Z")]
        time.sleep(0.05)
    assert not alive, f"still running after the grader was killed: {alive}"
