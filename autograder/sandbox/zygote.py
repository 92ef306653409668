"""The fork server ("zygote"): one process per grader process that has imported NumPy, JAX and the
worker's modules once, and forks each worker from that state instead of exec'ing a fresh
interpreter that pays `import jax` again (about 0.75 s of CPU per worker). The grader's side, which
starts it and asks it for workers, is `forkserver.py`.

    python -m autograder.sandbox.zygote FD      (started by forkserver.py only)

FD is one end of a SOCK_SEQPACKET socket pair whose other end only the grader holds. Its EOF (the
grader closed it, or died of any signal) ends the zygote at once. On it the grader sends one
message per worker: the stage-2 config `process.WorkerProcess` builds, with the worker's fds
(SCM_RIGHTS: stdout and stderr files, request/reply/alarm channels, compile cache folder, the
supervisor's lifeline). The zygote forks a child C per message and answers `started TOKEN PID`;
it reaps C and sends `exit PID STATUS` (a wait status). C plays the role `unshare` plays on the
exec path: new session, only the worker's fds kept, the scratch folder as cwd, the worker's
environment, then in the namespace modes the same namespaces `unshare(1)` makes (`enter_namespaces`),
a fork (a new PID namespace applies to children) and /proc mounted afresh in pid 1. From there the
stage-2 code runs as on the exec path (`inside.stage2`: supervisor, fork, `isolate`), and the
confined worker calls `worker.main()` in place (`_run_worker`) instead of execve.

Single-threaded by construction: a fork copies only the calling thread, and unshare(CLONE_NEWUSER)
refuses a multi-threaded caller. NumPy's OpenBLAS starts a thread pool when it loads, but it stops
the pool in a pthread_atfork handler before every fork (restarting it on its next use); the zygote
forks once after its imports, checks /proc/self/task, and refuses to serve (the grader falls back
to the exec path) if any other thread is left. JAX starts no thread and initialises no backend at
import: the zygote never asks for a device nor makes an array.
"""
from __future__ import annotations

import ctypes
import gc
import io
import json
import os
import select
import signal
import socket
import sys
import traceback

from . import inside, procs

CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWUSER = 0x00020000, 0x08000000, 0x10000000
CLONE_NEWPID, CLONE_NEWNET = 0x20000000, 0x40000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 16384, 1 << 18
MAX_MESSAGE = 1 << 20
MAX_FDS = 16
_set_by_imports: dict[str, str] = {}   # variables the imports set (JAX: TF_CPP_MIN_LOG_LEVEL, ...)


def preload():
    """What a worker imports before its first reply: NumPy, JAX, the worker's modules, and the
    probes' modules (imported after the setup cells on the exec path; tracing.py turns JAX's
    persistent compile cache off when it loads, so that option is put back as JAX had it)."""
    before = dict(os.environ)
    import numpy  # noqa: F401
    import jax
    import jax.numpy  # noqa: F401
    from . import compile_cache, compile_effort, integrity, wire, worker  # noqa: F401
    cache_on = jax.config.jax_enable_compilation_cache
    from ..checks import diagnose, evidence, plain  # noqa: F401
    jax.config.update("jax_enable_compilation_cache", cache_on)
    _set_by_imports.update({k: v for k, v in os.environ.items() if before.get(k) != v})


def threads() -> int:
    return len(os.listdir("/proc/self/task"))


def single_threaded() -> bool:
    """Fork once and reap: libraries' at-fork handlers stop their pools (OpenBLAS); then count."""
    if threads() > 1:
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
    return threads() == 1


def enter_namespaces(mode: str, without) -> None:
    """What `unshare [--user --map-root-user] --mount --pid [--net] [--ipc] --fork --mount-proc
    --propagation private` does (isolation.py's command): returns in the namespaces' first process
    (pid 1); the calling process stays outside, waits for it and exits with its status."""
    flags = CLONE_NEWNS | CLONE_NEWPID
    if "network" not in without:
        flags |= CLONE_NEWNET
    if "disk" not in without:
        flags |= CLONE_NEWIPC
    uid, gid = os.geteuid(), os.getegid()
    if mode == "userns":
        flags |= CLONE_NEWUSER
    lib = inside._lib()
    inside._check(lib.unshare(flags), "unshare")
    if mode == "userns":   # --map-root-user
        for name, text in (("setgroups", "deny"), ("uid_map", f"0 {uid} 1"), ("gid_map", f"0 {gid} 1")):
            with open(f"/proc/self/{name}", "w") as fh:
                fh.write(text)
    inside._mount("none", "/", None, MS_REC | MS_PRIVATE)   # --propagation private
    child = os.fork()
    if child == 0:    # pid 1 of the new PID namespace: its own /proc (--mount-proc)
        inside._mount("none", "/proc", None, MS_REC | MS_PRIVATE)
        inside._mount("proc", "/proc", "proc", MS_NOSUID | MS_NOEXEC | MS_NODEV)
        return
    for sig in (signal.SIGINT, signal.SIGTERM):   # as unshare --fork: only the child's end ends it
        signal.signal(sig, signal.SIG_IGN)
    os.closerange(3, os.sysconf("SC_OPEN_MAX"))   # the channels are the worker's alone
    while True:
        try:
            _, status = os.waitpid(child, 0)
            break
        except InterruptedError:
            continue
    if os.WIFSIGNALED(status):    # die of the same signal, as unshare does
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
        os.kill(os.getpid(), sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def _keep_only(keep) -> None:
    """Close every fd but `keep` (0, 1, 2 and the worker's). An empty range is skipped: Python 3.11's
    os.closerange(n, n) asks close_range(2) for n..UINT_MAX and closes every fd from n."""
    low = 0
    for fd in sorted(set(keep)):
        if low < fd:
            os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, os.sysconf("SC_OPEN_MAX"))


def _fresh_stdio() -> None:
    """New stdout/stderr objects over fds 1 and 2 (now the worker's capped files), set up as
    Python's start-up sets them for a file: nothing of the zygote's buffers, positions or modes."""
    for name, fd in (("stdout", 1), ("stderr", 2)):
        old = getattr(sys, name)
        new = io.TextIOWrapper(io.open(fd, "wb", closefd=False), encoding=old.encoding, errors=old.errors,
                               line_buffering=old.line_buffering or os.isatty(fd), write_through=old.write_through)
        setattr(sys, name, new)
        setattr(sys, f"__{name}__", new)


def _run_worker(config: dict):
    """In the confined worker (after `inside.isolate`), instead of execve: what a fresh `python -m
    autograder.sandbox.worker` would have that a fork of the zygote has not, then the worker."""
    os.environ.clear()
    os.environ.update(config["env"])
    for key, value in _set_by_imports.items():   # as the imports' os.environ.setdefault would have
        os.environ.setdefault(key, value)
    sys.path.insert(0, os.getcwd())        # as `python -m` sets it: the working folder
    sys.argv = [sys.modules["autograder.sandbox.worker"].__file__]
    procs.prctl(procs.PR_SET_DUMPABLE, 1)  # as execve would make it again after setuid
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # as Python's start-up sets it: writes past the
    # output cap fail with EFBIG ("File too large") instead of killing the worker
    import numpy as np
    np.random.seed()   # NumPy's global generator was seeded in the zygote (`random` reseeds at fork)
    from . import worker
    code = 0
    try:
        worker.main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        traceback.print_exc()
        code = 1
    import atexit
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    os._exit(code)


def _child(sock: socket.socket, request: dict, fds: list[int]):
    """C: from the zygote's fork to the supervisor (never returns)."""
    try:
        sock.detach()    # its fd is closed below; the object must never close a reused number
        procs.prctl(procs.PR_SET_DUMPABLE, 1)   # as unshare is (the supervisor turns it off again)
        os.setsid()
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(fds[0], 1)
        os.dup2(fds[1], 2)
        given = dict(zip(request["numbers"], fds[2:]))
        config = request["config"]
        config["fds"] = [given[fd] for fd in config["fds"]]
        if config.get("lifeline") is not None:
            config["lifeline"] = given[config["lifeline"]]
        _keep_only([0, 1, 2, *fds[2:]])
        _fresh_stdio()
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(config["env"])
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        if config["mode"] in ("namespace", "userns"):
            enter_namespaces(config["mode"], config.get("without", ()))
        inside.stage2(config, _run_worker)
    except BaseException:
        traceback.print_exc()
        sys.stderr.flush()
    finally:
        os._exit(1)


def serve(sock: socket.socket):
    """Fork a child per request; report each child's end. Returns at the grader's EOF."""
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    children: dict[int, int] = {}   # pidfd -> pid
    while True:
        for fd, _ in poller.poll():
            if fd != sock.fileno():
                pid = children.pop(fd)
                poller.unregister(fd)
                os.close(fd)
                _, status = os.waitpid(pid, 0)
                sock.send(f"exit {pid} {status}".encode())
                continue
            data, fds, _, _ = socket.recv_fds(sock, MAX_MESSAGE, MAX_FDS)
            if not data:
                return
            token = "?"
            try:
                request = json.loads(data)
                token = request["token"]
                for s in (sys.stdout, sys.stderr):
                    s.flush()
                pid = os.fork()
                if pid == 0:
                    _child(sock, request, fds)
            except Exception as exc:
                for f in fds:
                    os.close(f)
                sock.send(f"failed {token} {type(exc).__name__}: {exc}".encode())
                continue
            for f in fds:
                os.close(f)
            pidfd = os.pidfd_open(pid)
            children[pidfd] = pid
            poller.register(pidfd, select.POLLIN)
            sock.send(f"started {token} {pid}".encode())


def main():
    sock = socket.socket(fileno=int(sys.argv[1]))
    if sys.path and sys.path[0] == os.getcwd():
        sys.path.pop(0)    # `python -m`'s cwd entry: each worker gets its own working folder there
    procs.prctl(procs.PR_SET_DUMPABLE, 0)   # same-uid processes cannot read its memory nor take its fds
    try:
        preload()
    except BaseException as exc:
        sock.send(f"unsafe import failed: {type(exc).__name__}: {exc}".encode())
        return
    if not single_threaded():
        names = sorted(open(f"/proc/self/task/{t}/comm").read().strip() for t in os.listdir("/proc/self/task"))
        sock.send(f"unsafe threads after import: {names}".encode())
        return
    # Out of the collector's reach, for every fork: what the imports made lives as long as the worker,
    # and a forked worker's first full collection would otherwise walk all of it (about 94,000
    # objects after `import jax`, 55-70 ms, and writing each one's header copies its page out of
    # the zygote's). Frozen objects are still freed by reference counting.
    gc.collect()
    gc.freeze()
    sock.send(b"ready")
    serve(sock)


if __name__ == "__main__":
    main()
