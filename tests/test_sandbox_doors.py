"""The sandbox's three doors (issue 9): the network, the disk, and a worker outliving its grader.

Each attack goes through the real `autograder grade` CLI, in every isolation mode the machine
supports, with the hostile corpus's three-exercise assignment (tests/test_hostile.py): the victim
exercise holds the attack, the two bystanders must keep full marks.

- Network: the victim's function returns the right answer only if its connection (TCP to a server
  this test runs on 127.0.0.1, a unix socket of this test, or a DNS look-up) succeeded. In the
  namespace modes it must earn nothing and the servers must receive nothing; `process` mode, where
  the network is open and says so, is the control that shows the attacks are real.
- Disk: a cell writes 1 GB in 1 MB files; it fails with a message naming the disk budget, and the
  next student's worker starts on an empty disk.
- Lifetime: the CLI is killed (SIGTERM, SIGKILL) while a student's function hangs and has started
  a detached grandchild; 10 s later no process of this run is left. Processes are found by a
  random name the student code gives them and by this test's unique folder in their command line.
"""
from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time

import nbformat
import pytest

from support.machine import unavailable
from support.notebooks import make_notebook
from test_hostile import hostile_cells, processes_named, run_corpus

NAMESPACE_MODES = ["namespace", "userns"]


def supported(mode: str) -> bool:
    from autograder.sandbox.process import choose_isolation
    try:
        return choose_isolation(mode) == mode
    except RuntimeError:
        return False


class Listener:
    """A TCP server on 127.0.0.1 and a unix socket (filesystem and abstract) that record every
    connection and byte they receive."""

    def __init__(self, folder):
        self.received: list[tuple[str, bytes]] = []
        self.tcp = socket.create_server(("127.0.0.1", 0))
        self.port = self.tcp.getsockname()[1]
        self.path = str(folder / "grader.sock")
        self.unix = socket.socket(socket.AF_UNIX)
        self.unix.bind(self.path)
        self.abstract_name = "jaxcourse-" + secrets.token_hex(6)
        self.abstract = socket.socket(socket.AF_UNIX)
        self.abstract.bind("\0" + self.abstract_name)
        self.sockets = [self.tcp, self.unix, self.abstract]
        for s in self.sockets:
            s.listen(16)
            threading.Thread(target=self._serve, args=(s,), daemon=True).start()

    def _serve(self, server):
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(2)
                data = b""
                try:
                    while chunk := conn.recv(4096):
                        data += chunk
                except OSError:
                    pass
                self.received.append((repr(server.getsockname()), data))

    def close(self):
        for s in self.sockets:
            s.close()


def network_attacks(listener: Listener) -> dict:
    # Each victim is right only when its connection worked: a mark for it is a door left open.
    # (the wrong branch is not jittable either, as the corpus's WRONG: no point at all for it)
    tail = "    return 2.0 * x if ok else (x + 1.0 if x.sum() > -1 else x)\n"
    return {
        "tcp_to_localhost": {"cell": (
            "import socket\ndef victim(x):\n    try:\n"
            f"        with socket.create_connection(('127.0.0.1', {listener.port}), timeout=2) as s:\n"
            "            s.sendall(b'stolen answers')\n        ok = True\n"
            "    except OSError:\n        ok = False\n" + tail)},
        "unix_socket_outside": {"cell": (
            "import socket\ndef victim(x):\n    ok = False\n"
            f"    for address in ({listener.path!r}, '\\0{listener.abstract_name}'):\n"
            "        try:\n            s = socket.socket(socket.AF_UNIX)\n            s.settimeout(2)\n"
            "            s.connect(address)\n            s.sendall(b'stolen answers')\n"
            "            s.close()\n            ok = True\n        except OSError:\n            pass\n"
            + tail)},
        "resolve_host_name": {"cell": (
            "import socket\ndef victim(x):\n    try:\n"
            "        ok = bool(socket.getaddrinfo('pypi.org', 443))\n"
            "    except OSError:\n        ok = False\n" + tail)},
    }


def host_resolves() -> bool:
    try:
        return bool(socket.getaddrinfo("pypi.org", 443))
    except OSError:
        return False


# 1 GB in files of 1 MB (10**6 bytes: the corpus's --output-bytes, which also caps a file's size)
FILL_DISK = ("import os\nfor i in range(1000):\n"
             "    with open(f'spam-{i}.bin', 'wb') as fh:\n        fh.write(os.urandom(10**6))\n"
             "def victim(x):\n    return 2.0 * x\n")
# A second student: right only if their disk is empty and the whole budget is free.
CLEAN_DISK = ("import os, shutil, glob\ndef victim(x):\n"
              "    leftovers = glob.glob('/tmp/**/spam-*', recursive=True) + glob.glob('spam-*')\n"
              "    free = shutil.disk_usage('.').free\n"
              "    return 2.0 * x if not leftovers and free > 200 * 2**20 else x + 1.0\n")


_RUNS: dict = {}


@pytest.fixture(scope="module", params=NAMESPACE_MODES + ["process"])
def doors_run(request, tmp_path_factory):
    """One CLI call per isolation mode grades every network and disk attack."""
    return _doors_run(request.param, tmp_path_factory)


@pytest.fixture(scope="module", params=NAMESPACE_MODES)
def disk_run(request, tmp_path_factory):
    """The same runs, in the modes that have a disk budget (`process` mode has none: docs/SECURITY.md)."""
    return _doors_run(request.param, tmp_path_factory)


def _doors_run(mode, tmp_path_factory):
    if mode in _RUNS:
        return _RUNS[mode]
    if not supported(mode):
        unavailable(f"{mode} isolation is not available on this machine")
    root = tmp_path_factory.mktemp(f"doors-{mode}")
    listener = Listener(root)
    attacks = network_attacks(listener)
    if mode != "process":  # in process mode the disk is the host's: no 1 GB write there
        attacks["fill_disk_1GB"] = {"cell": FILL_DISK}
        attacks["next_student_after_fill"] = {"cell": CLEAN_DISK}
    try:
        proc, results, _ = run_corpus(root, attacks, mode)
        time.sleep(0.5)  # let the servers record a late connection
    finally:
        listener.close()
    _RUNS[mode] = mode, proc, results, listener
    return _RUNS[mode]


def scores(result):
    return {name: e["score"] for name, e in result["exercises"].items()}


def messages(result, exercise="victim"):
    return " ".join(c["message"] for c in result["exercises"][exercise]["checks"])


@pytest.mark.parametrize("attack", ["tcp_to_localhost", "unix_socket_outside", "resolve_host_name"])
def test_network_is_closed_to_student_code(doors_run, attack):
    mode, proc, results, listener = doors_run
    result = results[attack]
    if attack == "resolve_host_name" and not host_resolves():
        unavailable("this machine cannot resolve host names itself")
    if mode == "process":
        # control: the door is open here, and the results say so
        assert result["isolation"] == "process-network-open"
        assert scores(result)["victim"] == 3.0, messages(result)
        return
    assert result["isolation"] == mode
    assert scores(result) == {"bystander_a": 3.0, "victim": 0.0, "bystander_b": 3.0}, messages(result)


def test_servers_receive_nothing_from_a_sandbox(doors_run):
    mode, _, _, listener = doors_run
    if mode == "process":
        assert any(data == b"stolen answers" for _, data in listener.received)  # control
    else:
        assert listener.received == []


def test_filling_the_disk_fails_that_exercise_only(disk_run):
    mode, proc, results, _ = disk_run
    result = results["fill_disk_1GB"]
    assert scores(result) == {"bystander_a": 3.0, "victim": 0.0, "bystander_b": 3.0}, messages(result)
    assert "filled its disk budget of 256 MB" in messages(result)


def test_next_student_starts_with_an_empty_disk(disk_run):
    mode, _, results, _ = disk_run
    assert scores(results["next_student_after_fill"])["victim"] == 3.0, \
        messages(results["next_student_after_fill"])


def test_disk_budget_is_the_cli_option(tmp_path):
    """`--disk-mb 64`: the student sees a 64 MB scratch disk as its working folder."""
    if not supported("namespace") and not supported("userns"):
        unavailable("no namespace isolation on this machine")
    probe = ("import shutil\ndef victim(x):\n    total = shutil.disk_usage('.').total\n"
             "    return 2.0 * x if 60 * 2**20 < total <= 64 * 2**20 else x + 1.0\n")
    course, sub, out = write_assignment(tmp_path, probe)
    proc = subprocess.run(cli(course, sub, out, "--disk-mb", "64"), capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(out.read_text())  # one notebook: one result object
    assert scores(result)["victim"] == 3.0, messages(result)


# ---------------------------------------------------------------- the host's files
def outside_copy():
    """A folder no course names, outside /tmp (the worker's private disk), the system's folders and
    the interpreter's: at the root when this test runs as root (as CI does), else in the home
    folder. It holds what an instructor's machine holds beside a course: another copy's hidden tests."""
    base = "/" if os.geteuid() == 0 else os.path.expanduser("~")
    folder = os.path.join(base, f".jax-course-test-{secrets.token_hex(6)}")
    os.makedirs(os.path.join(folder, "source"))
    os.chmod(folder, 0o755), os.chmod(os.path.join(folder, "source"), 0o755)
    secret = os.path.join(folder, "source", "hidden_tests.txt")
    with open(secret, "w") as fh:
        fh.write("the hidden tests of another copy of the course")
    os.chmod(secret, 0o644)
    return folder, secret


def test_a_checkout_gives_the_worker_its_package_only():
    """The folders bound back into a worker: the interpreter's, and of the checkout that holds this
    package only `autograder/` (its source/, tests/ and .git stay covered), not the grader's own
    working folder or what a test runner put on sys.path."""
    from autograder.sandbox.host import python_roots
    from support.notebooks import ROOT
    roots = python_roots()
    package = os.path.realpath(ROOT / "autograder")
    assert package in roots, roots
    assert os.path.realpath(ROOT) not in roots and os.path.realpath(ROOT / "tests") not in roots, roots
    assert os.path.realpath(os.getcwd()) not in roots or os.path.realpath(os.getcwd()).startswith(sys.prefix), roots


READ_OUTSIDE = ("import os\ndef victim(x):\n    try:\n        ok = 'hidden tests' in open({secret!r}).read()\n"
                "    except OSError:\n        ok = False\n"
                "    return 2.0 * x if ok else (x + 1.0 if x.sum() > -1 else x)\n")


@pytest.mark.parametrize("mode", NAMESPACE_MODES + ["process"])
def test_a_course_copy_elsewhere_on_the_host_is_out_of_reach(tmp_path, mode):
    """The worker sees the system, the interpreter and this package, nothing else of the host: a
    copy of the course in a folder no course root names is not readable. `process` mode, where the
    files stay open and say so, is the control that shows the read is real."""
    if not supported(mode) and mode != "process":
        unavailable(f"{mode} isolation is not available on this machine")
    folder, secret = outside_copy()
    try:
        course, sub, out = write_assignment(tmp_path, READ_OUTSIDE.format(secret=secret))
        proc = subprocess.run(cli(course, sub, out, "--isolation", mode), capture_output=True, text=True,
                              timeout=300)
        assert proc.returncode == 0, proc.stderr[-2000:]
        result = json.loads(out.read_text())
        expected = 3.0 if mode == "process" else 0.0
        assert scores(result)["victim"] == expected, messages(result)
        assert scores(result)["bystander_a"] == 3.0, messages(result)
    finally:
        import shutil
        shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------- nothing outlives the grader
HANG = ("import ctypes, os, sys\n"
        "def victim(x):\n"
        "    libc = ctypes.CDLL(None)\n"
        "    libc.prctl(15, {token!r}.encode(), 0, 0, 0)  # PR_SET_NAME: this process's name\n"
        "    if os.fork() == 0:\n"
        "        os.setsid()\n"
        "        if os.fork() == 0:  # a detached grandchild, as a daemon would be\n"
        "            libc.prctl(15, {token!r}.encode(), 0, 0, 0)\n"
        "            while True:\n                pass\n"
        "        os._exit(0)\n"
        "    while True:\n        pass\n")


def write_assignment(root, victim_cell):
    course = root / "course"
    (course / "source" / "hostile").mkdir(parents=True)
    right = "def victim(x):\n    ### BEGIN SOLUTION\n    return 2.0 * x\n    ### END SOLUTION\n"
    nbformat.write(make_notebook(hostile_cells(right)), str(course / "source" / "hostile" / "hostile.ipynb"))
    sub = root / "student" / "hostile.ipynb"
    sub.parent.mkdir()
    nbformat.write(make_notebook(hostile_cells(victim_cell)), str(sub))
    return course, sub, root / "results.json"


def cli(course, sub, out, *extra):
    return [sys.executable, "-m", "autograder.cli", "grade", str(sub), "--json", str(out),
            "--course-root", str(course), "--assignment", "hostile", "--quiet", "--jobs", "1",
            "--cell-timeout", "120", "--check-timeout", "120", "--memory-mb", "2048", *extra]


def wait_for(predicate, seconds: float):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return predicate()


@pytest.mark.parametrize("mode", NAMESPACE_MODES + ["process"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_nothing_outlives_a_killed_grader(tmp_path, mode, signum):
    if not supported(mode):
        unavailable(f"{mode} isolation is not available on this machine")
    token = "jc" + secrets.token_hex(6)  # 14 characters: fits a process name
    course, sub, out = write_assignment(tmp_path, HANG.format(token=token))
    scratch = tmp_path / "tmp"  # the killed grader cannot remove its scratch folders: keep them here
    scratch.mkdir()
    grader = subprocess.Popen(cli(course, sub, out, "--isolation", mode), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, env={**os.environ, "TMPDIR": str(scratch)})
    try:
        # the student's function is hanging, and its detached grandchild is running
        assert wait_for(lambda: len(processes_named(token)) >= 2, 120), \
            "the student's function never started"
        grader.send_signal(signum)
        grader.wait(timeout=30)
        assert wait_for(lambda: not processes_named(token, str(tmp_path)), 10), \
            processes_named(token, str(tmp_path))
    finally:
        if grader.poll() is None:
            grader.kill()
            grader.wait()
        for line in processes_named(token, str(tmp_path)):  # never leave one behind
            try:
                os.kill(int(line.split(":")[0]), signal.SIGKILL)
            except OSError:
                pass


# ---------------------------------------------------------------- a killed grader's scratch
def test_a_later_grader_removes_a_dead_graders_scratch(tmp_path):
    """SIGKILL leaves a grader no chance to remove its workers' scratch folders (the test above keeps
    them under its own TMPDIR). The next grader removes those whose grader is gone and that are an
    hour old; it keeps a live grader's, a fresh one (a grader in another PID namespace looks dead)
    and anything not named like a scratch folder."""
    from autograder.sandbox import host
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)
    dead = int(finished.stdout)
    old = time.time() - 2 * host.ORPHAN_AGE_S
    folders = {name: tmp_path / name for name in (
        f"{host.SCRATCH_PREFIX}{dead}-old", f"{host.SCRATCH_PREFIX}{dead}-fresh",
        f"{host.SCRATCH_PREFIX}1-live", f"{host.SCRATCH_PREFIX}abc", "unrelated-999999-old")}
    for name, folder in folders.items():
        (folder / "work").mkdir(parents=True)
        (folder / ".stdout").write_text("output")
        if not name.endswith("fresh"):
            os.utime(folder, (old, old))
    made = subprocess.run([sys.executable, "-c", "import os; from autograder.sandbox import host; "
                           "print(os.getpid(), host.make_scratch())"], capture_output=True, text=True,
                          env={**os.environ, "TMPDIR": str(tmp_path)}, check=True)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert f"{host.SCRATCH_PREFIX}{dead}-old" not in left
    assert {f"{host.SCRATCH_PREFIX}{dead}-fresh", f"{host.SCRATCH_PREFIX}1-live",
            f"{host.SCRATCH_PREFIX}abc", "unrelated-999999-old"} <= set(left)
    pid, new = made.stdout.split()
    assert os.path.dirname(new) == str(tmp_path)
    assert os.path.basename(new).startswith(f"{host.SCRATCH_PREFIX}{pid}-")  # named after its grader
