"""The grader's side of the fork server (`zygote.py`): start it, ask it for workers, and keep a
Popen-like handle (`Forked`) on each process it forked.

One zygote per grader process and per base environment (the worker's environment without what is
its own: HOME, the device lease's variables, the compile cache's and compile effort's), started at
the first worker that needs it, as a child of the grader in a session of its own, and started
again if it died. `launch` sends it the stage-2 config and the worker's fds (SCM_RIGHTS) without
waiting for it: the first worker's request is queued while the zygote still imports JAX, so that
import runs beside the grader's own, as on the exec path (`grading/startup.py`). The handle owns the
grader's copies of the worker's fds until the zygote has forked; if the zygote cannot start, or
refuses (a thread it cannot fork safely), or dies before forking, the handle starts the same
worker on the exec path with them (`popen`).

The kill switch: AUTOGRADER_FORK_SERVER=0 in the grader's environment gives the exec path for
every worker (`python -m autograder.sandbox.inside`, through `unshare` in the namespace modes), as
do machines without SCM_RIGHTS or pidfds (not Linux).
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import uuid

SWITCH = "AUTOGRADER_FORK_SERVER"
PENDING_S = 120.0     # the longest a worker waits for the zygote to fork it, then the exec path

_lock = threading.Lock()
_servers: dict[tuple, "Server"] = {}
failures: list[str] = []     # why zygotes refused or ended (for tests and benchmarks)


def enabled() -> bool:
    return (os.environ.get(SWITCH, "1").strip() != "0" and sys.platform.startswith("linux")
            and hasattr(socket, "send_fds") and hasattr(os, "pidfd_open"))


class Forked:
    """A worker's first process (C: `unshare`'s role) as the zygote forked it, or, where the zygote
    could not, a Popen of the exec path. Popen's interface as WorkerProcess uses it."""

    def __init__(self, popen, release):
        self._popen_fn, self._release = popen, release
        self._popen = None
        self._server = None
        self._pid = None
        self._pidfd = None
        self.returncode = None
        self._cond = threading.Condition()

    # -- told by the server's reader thread
    def _started(self, pid: int):
        try:
            pidfd = os.pidfd_open(pid)
        except OSError:
            pidfd = None   # already gone: its exit report follows
        with self._cond:
            self._pid, self._pidfd = pid, pidfd
            self._release()
            self._cond.notify_all()

    def _exited(self, status: int):
        with self._cond:
            self.returncode = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
            if self._pidfd is not None:
                os.close(self._pidfd)
                self._pidfd = None
            self._cond.notify_all()

    def _fall_back(self):
        """The zygote will not fork this worker: start it on the exec path."""
        with self._cond:
            if self._pid is None and self._popen is None:
                try:
                    self._popen = self._popen_fn()
                finally:
                    self._release()
            self._cond.notify_all()

    def _lost(self):
        """The zygote died after forking this worker: its exit status can no longer be reported,
        so it is ended here (the grader restarts a zygote for the next worker)."""
        with self._cond:
            if self.returncode is None:
                self._signal(signal.SIGKILL)
                self.returncode = -signal.SIGKILL
            self._cond.notify_all()

    def _wait_started(self):
        started = lambda: self._pid is not None or self._popen is not None  # noqa: E731
        with self._cond:
            if self._cond.wait_for(started, PENDING_S):
                return
        failures.append(f"the fork server forked no worker in {PENDING_S:g} s: ended")
        self._server.proc.kill()      # its EOF sends what it holds to the exec path
        with self._cond:
            if not self._cond.wait_for(started, 30):
                raise RuntimeError("the fork server did not start the worker")

    # -- Popen's interface
    @property
    def pid(self) -> int:
        self._wait_started()
        return self._popen.pid if self._popen is not None else self._pid

    def poll(self):
        if self._popen is not None:
            return self._popen.poll()
        return self.returncode

    def wait(self, timeout=None):
        if self._popen is not None:
            return self._popen.wait(timeout)
        with self._cond:
            if not self._cond.wait_for(lambda: self.returncode is not None or self._popen is not None, timeout):
                raise subprocess.TimeoutExpired("worker", timeout)
        return self._popen.wait(timeout) if self._popen is not None else self.returncode

    def _signal(self, sig):
        if self._pidfd is not None:
            try:
                signal.pidfd_send_signal(self._pidfd, sig)
            except ProcessLookupError:
                pass

    def kill(self):
        self._wait_started()
        if self._popen is not None:
            return self._popen.kill()
        with self._cond:
            if self.returncode is None:
                self._signal(signal.SIGKILL)


class Server:
    """One zygote and the thread that reads its reports."""

    def __init__(self, env: dict):
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.pending: dict[str, Forked] = {}
        self.running: dict[int, Forked] = {}
        self.lost = False
        self._lock = threading.Lock()
        with theirs:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "autograder.sandbox.zygote", str(theirs.fileno())],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                cwd="/", env=env, start_new_session=True, pass_fds=(theirs.fileno(),), close_fds=True)
        threading.Thread(target=self._read, name="fork-server", daemon=True).start()

    def launch(self, request: dict, fds: list[int], handle: Forked) -> bool:
        token = uuid.uuid4().hex
        with self._lock:
            if self.lost:
                return False
            self.pending[token] = handle
        try:
            socket.send_fds(self.sock, [json.dumps({**request, "token": token}).encode()], fds)
        except OSError:
            with self._lock:   # not taken by `_end` (which sent it to the exec path): the caller's
                if self.proc.poll() is not None:
                    self.lost = True   # dead before its reader saw the EOF: the next launch starts another
                return self.pending.pop(token, None) is None
        return True

    def idle(self) -> bool:
        with self._lock:
            return not self.pending and not self.running

    def _read(self):
        while True:
            try:
                data = self.sock.recv(65536)
            except OSError:
                data = b""
            if not data:
                return self._end()
            kind, _, rest = data.decode("utf-8", "replace").partition(" ")
            if kind == "started":
                token, pid = rest.split()
                with self._lock:
                    handle = self.pending.pop(token, None)
                    if handle is not None:
                        self.running[int(pid)] = handle
                if handle is not None:
                    handle._started(int(pid))
            elif kind == "exit":
                pid, status = (int(v) for v in rest.split())
                with self._lock:
                    handle = self.running.pop(pid, None)
                if handle is not None:
                    handle._exited(status)
            elif kind == "failed":
                token, _, why = rest.partition(" ")
                failures.append(why)
                with self._lock:
                    handle = self.pending.pop(token, None)
                if handle is not None:
                    handle._fall_back()
            elif kind == "unsafe":
                failures.append(rest)

    def _end(self):
        """EOF: the zygote is gone (or refused to serve). Unforked workers take the exec path."""
        with self._lock:
            self.lost = True
            pending, running = list(self.pending.values()), list(self.running.values())
            self.pending.clear(), self.running.clear()
        for handle in pending:
            handle._fall_back()
        for handle in running:
            handle._lost()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        self.sock.close()

    def close(self):
        """End the zygote (its workers run on; their reports are lost, so only when idle)."""
        self.lost = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _server(env: dict) -> Server:
    key = tuple(sorted(env.items()))
    with _lock:
        server = _servers.get(key)
        if server is None or server.lost:
            for other_key, other in list(_servers.items()):   # an idle zygote of another environment
                if other_key != key and (other.lost or other.idle()):
                    other.close()
                    del _servers[other_key]
            server = _servers[key] = Server(env)
        return server


def launch(popen, release, zygote_env: dict, request: dict, fds: list[int]):
    """Start a worker: through the zygote of `zygote_env` when the fork server is on, else (or when
    it cannot be started) `popen()` on the exec path. `release()` closes the grader's copies of the
    worker's fds once the worker's first process holds them."""
    for _attempt in range(2 if enabled() else 0):   # a zygote found dead while sending is started again once
        handle = Forked(popen, release)
        try:
            server = handle._server = _server(zygote_env)
            if server.launch(request, fds, handle):
                return handle
        except OSError as exc:
            failures.append(f"could not start the fork server: {exc}")
            break
        if not server.lost:
            break
    proc = popen()
    release()
    return proc


def _forget_in_child():
    """A fork of the grader (checks/trials.py's) holds no zygote: its copies of the sockets are
    closed, so that only the grader's end keeps a zygote alive."""
    global _lock
    _lock = threading.Lock()
    for server in _servers.values():
        try:
            server.sock.close()
        except OSError:
            pass
    _servers.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)


def pids() -> list[int]:
    """The zygotes of this grader process that are running (tests)."""
    with _lock:
        return [s.proc.pid for s in _servers.values() if not s.lost and s.proc.poll() is None]


def shutdown(timeout: float = 10.0):
    """End every zygote of this process and reap it (benchmarks: its CPU time then counts among the
    grader's children's). Its running workers are not waited for."""
    with _lock:
        servers = list(_servers.values())
        _servers.clear()
    for server in servers:
        server.close()
        try:
            server.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            server.proc.kill()
