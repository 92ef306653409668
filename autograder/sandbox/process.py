"""Start and talk to a worker process that runs untrusted student code, under limits.

Layers, strongest available first (the level used is reported in every result as `isolation`):
- `namespace` (the grader runs as root, util-linux `unshare` present): new mount, PID, network and
  IPC namespaces. The worker sees only its own processes (so it cannot find or read the grader), the
  course's hidden material (source/, gradebook, submissions, test data) is covered by empty tmpfs
  mounts, and the worker then drops to an unprivileged uid of its own, so it cannot undo those mounts,
  write to the course or read private files, and its process cap is its own.
- `userns` (no root, unprivileged user namespaces): the same namespaces, the mounts locked by a
  nested user namespace; the worker keeps the grader's uid.
- `process`: a separate process in its own session, killed as a process group. The network, the
  disk and whatever the grader's user can read stay open to it; its results say so
  (`isolation: "process-network-open"`).

In the two namespace modes, three doors are closed (see `isolate`):
- **network**: the network namespace holds only loopback (brought up, so code that talks to
  itself on 127.0.0.1 works); /run, where host services keep their unix sockets (nscd, resolved,
  PostgreSQL, D-Bus, Docker), is covered; and /tmp is private (next point). No TCP/UDP packet,
  DNS query or unix-socket connection reaches the host or beyond.
- **disk**: every mount the worker can see is made read-only, then a tmpfs of `disk_mb` becomes its
  /tmp, with its working directory and HOME inside; /var/tmp and /dev/shm are that same tmpfs; the
  IPC namespace keeps SysV shared memory inside the sandbox. A cell that fills the budget stops the
  worker (`DISK_FULL_EXIT`); the next worker gets a fresh, empty tmpfs.
- **lifetime**: the namespaces' first process is a supervisor (`_supervise`), not the worker. It
  holds one end of a socket pair whose other end only the grader holds. Whenever the grader dies,
  by any signal including SIGKILL, the kernel closes the grader's end; the supervisor reads EOF and
  exits, and the kernel kills every process of the PID namespace with it. (Why not a parent-death
  signal: see `_supervise`.)
Always: a wall-clock timeout per request, a memory cap (`memlimit.py`: RLIMIT_AS when the worker's
JAX runs on the CPU; a cgroup, else RLIMIT_DATA, where it may use an accelerator), RLIMIT_FSIZE
(bytes of output: stdout and stderr go to capped files), RLIMIT_NPROC (processes, effective once
not root), RLIMIT_CORE = 0, a scratch working directory, a scrubbed environment, and the worker's
share of the GPUs (`devices.py`).
"""
from __future__ import annotations

import ctypes
import errno
import json
import os
import pickle
import resource
import secrets
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

from . import devices, memlimit, procs, seccomp


# Each namespaced worker runs under its own unprivileged uid (no passwd entry needed), so that
# RLIMIT_NPROC, which counts per uid, bounds each student's processes separately: one student's
# fork bomb cannot starve another's worker of threads. Uids are leased (`UidLease`), never derived
# from the grader's pid: two graders on one host must not hand a live worker's uid to another.
UID_BASE = 200_000
UID_RANGE = 100_000

# The worker exits with this code, instead of replying, when a request left its disk full
# (see worker.py): the request that filled it is the one charged.
DISK_FULL_EXIT = 86

# Where the worker lives inside the namespaces when its disk is the private tmpfs.
INNER_TMP = "/tmp"
INNER_WORK = "/tmp/work"

# Protections that `Limits.bench_without` may switch off (benchmarks/sandbox_overhead.py only).
PROTECTIONS = ("network", "disk", "lifetime", "seccomp")


# A worker's scratch folder on the host is named after the grader that made it, so that a later
# grader can tell a dead grader's leftovers (SIGKILL and the OOM killer leave no chance to clean up)
# from a live grader's folder.
SCRATCH_PREFIX = "jaxcourse-worker-"
ORPHAN_AGE_S = 3600  # also required of a leftover: a grader in another PID namespace looks dead
_swept = threading.Event()


def _make_scratch() -> str:
    if not _swept.is_set():
        _swept.set()
        sweep_orphaned_scratch()
    return tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def sweep_orphaned_scratch(root: str | None = None, min_age_s: float = ORPHAN_AGE_S) -> list[str]:
    """Remove the scratch folders whose grader is gone and that nobody touched for `min_age_s`;
    return their paths. Runs once per grader process, before its first worker."""
    root = root or tempfile.gettempdir()
    removed, now = [], time.time()
    try:
        entries = list(os.scandir(root))
    except OSError:
        return removed
    for entry in entries:
        owner = entry.name[len(SCRATCH_PREFIX):].split("-", 1)[0]
        if not (entry.name.startswith(SCRATCH_PREFIX) and owner.isdigit()):
            continue
        try:
            if not entry.is_dir(follow_symlinks=False) or now - entry.stat(follow_symlinks=False).st_mtime < min_age_s:
                continue
        except OSError:
            continue
        if int(owner) != os.getpid() and not _alive(int(owner)):
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(entry.path)
    return removed


def _uid_lock_dir() -> str:
    """Where uid leases are kept: one folder for every grader on the host."""
    for base in ("/run/lock", "/var/lock", tempfile.gettempdir()):
        if os.path.isdir(base) and os.access(base, os.W_OK):
            path = os.path.join(base, "jaxcourse-uids")
            os.makedirs(path, mode=0o700, exist_ok=True)
            return path
    raise RuntimeError("no writable folder for worker uid leases")


class UidLease:
    """An unprivileged uid of `[UID_BASE, UID_BASE + UID_RANGE)` held for one worker: an exclusive
    flock on `<lock dir>/<uid>`, which the kernel drops when the grader closes it or dies, so a
    uid is never handed out twice while its worker lives, by this grader or another on the host."""

    def __init__(self, lock_dir: str | None = None, tries: int = 2000):
        import fcntl
        import random
        lock_dir = lock_dir or _uid_lock_dir()
        for _ in range(tries):
            uid = UID_BASE + random.randrange(UID_RANGE)
            fd = os.open(os.path.join(lock_dir, str(uid)), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            self.uid, self._fd = uid, fd
            return
        raise RuntimeError(f"no free worker uid after {tries} tries")

    def release(self):
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


@dataclass
class Limits:
    cell_timeout: float = 30.0      # seconds for one solution cell to execute
    check_timeout: float = 30.0     # seconds for one call or probe of a student function
    startup_timeout: float = 60.0   # seconds to start Python, run setup cells and import JAX
    memory_mb: int = 4096           # memory cap of the worker (its kind: `memory_limit`)
    memory_limit: str = "auto"      # auto | cgroup | rlimit-data | rlimit-as | none (memlimit.py)
    devices_per_worker: int = 1     # GPUs each worker gets where there are several (devices.py)
    concurrent_workers: int = 1     # workers running at once (set by grade_many): GPU sharing
    output_bytes: int = 2_000_000   # cap on what the worker writes to stdout + stderr files
    max_procs: int = 512            # RLIMIT_NPROC once the worker is not root (threads count)
    disk_mb: int = 256              # the worker's private tmpfs: /tmp, cwd, HOME, /dev/shm together
    isolation: str = "auto"         # auto | namespace | userns | process
    # For benchmarks/sandbox_overhead.py only: protections (of PROTECTIONS) left off, to time what
    # each one costs. Set by the grader's own caller; nothing a student controls reaches it.
    bench_without: tuple = ()


class WorkerDied(Exception):
    """The worker crashed, hung or broke the protocol; `reason` says which, in student terms."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class ForgedReply(WorkerDied):
    """A reply arrived for a request that had already been answered: the first answer was written
    by student code into the grader's channel."""


_UNSHARE = ["unshare", "--mount", "--pid", "--fork", "--mount-proc", "--propagation", "private"]
_UNSHARE_USER = ["unshare", "--user", "--map-root-user", "--mount", "--pid", "--fork", "--mount-proc",
                 "--propagation", "private"]


def _unshare_command(mode: str, without=()) -> list[str]:
    base = _UNSHARE if mode == "namespace" else _UNSHARE_USER
    extra = []
    if "network" not in without:
        extra.append("--net")
    if "disk" not in without:
        extra.append("--ipc")
    return base[:-3] + extra + base[-3:]  # flags before `--mount-proc --propagation private`


@lru_cache(maxsize=None)
def _works(cmd: tuple) -> bool:
    if not shutil.which("unshare"):
        return False
    try:
        return subprocess.run([*cmd, "true"], capture_output=True, timeout=20).returncode == 0
    except Exception:
        return False


def choose_isolation(requested: str) -> str:
    """`namespace` as root; `userns` (unprivileged user namespaces) otherwise; else `process`.

    Both namespace modes include the network and IPC namespaces: a machine that cannot give the
    worker a network of its own gets `process`, which says so in its results."""
    if requested == "process":
        return "process"
    root_ok = os.geteuid() == 0 and _works(tuple(_unshare_command("namespace")))
    user_ok = _works(tuple(_unshare_command("userns")))
    if requested == "namespace" and root_ok:
        return "namespace"
    if requested == "userns" and user_ok:
        return "userns"
    if requested in ("namespace", "userns"):
        raise RuntimeError(f"{requested} isolation is not available here (needs util-linux `unshare`"
                           f"{' and root' if requested == 'namespace' else ' and user namespaces'})")
    return "namespace" if root_ok else "userns" if user_ok else "process"


def isolation_label(mode: str) -> str:
    """The `isolation` value of a result: `process` mode states that the network is open."""
    return "process-network-open" if mode == "process" else mode


def _signal_name(code: int) -> str:
    try:
        return signal.Signals(code).name
    except ValueError:
        return f"signal {code}"


class WorkerProcess:
    """One running worker: send a request, wait for its reply within a deadline."""

    def __init__(self, limits: Limits, hide: list[str], env_extra: dict | None = None):
        self.limits = limits
        self.isolation = choose_isolation(limits.isolation)
        self.label = isolation_label(self.isolation)
        # accelerators: this worker's share of the GPUs (devices.py), and a memory cap CUDA can
        # start under (memlimit.py); both given back in close()
        self.memory = memlimit.make_cap(limits.memory_limit, limits.memory_mb,
                                        devices.accelerator_may_be_used())
        self.memory_limit = self.memory.label
        self.device_lease = devices.Lease(devices.make_plan(limits.concurrent_workers, limits.devices_per_worker))
        without = tuple(limits.bench_without)
        namespaced = self.isolation in ("namespace", "userns")
        private_disk = namespaced and "disk" not in without
        self.scratch = _make_scratch()
        self.stdout_path = os.path.join(self.scratch, ".stdout")
        self.stderr_path = os.path.join(self.scratch, ".stderr")
        if private_disk:
            work = INNER_WORK  # created inside the namespaces, on the private tmpfs
        else:
            work = os.path.join(self.scratch, "work")
            os.mkdir(work)
        req_r, self._req_w = os.pipe()
        self._rep_r, rep_w = os.pipe()
        self._alarm_r, alarm_w = os.pipe()   # the worker's audit hook reports here (integrity.py)
        os.set_blocking(self._alarm_r, False)
        child_fds = [req_r, rep_w, alarm_w]
        self._lifeline = None
        self._status = None
        if "lifetime" not in without:
            self._lifeline, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
            lifeline_fd = theirs.detach()
            child_fds.append(lifeline_fd)
        out = open(self.stdout_path, "wb")
        err = open(self.stderr_path, "wb")
        # MALLOC_ARENA_MAX: glibc reserves 64 MB of address space per malloc arena, up to 8 per core,
        # and XLA starts a thread pool per core: on a 16-core lab machine a CPU worker under its 4 GB
        # RLIMIT_AS could not start XLA's threads ("cannot allocate memory for thread-local data").
        # Two arenas keep a worker's address space near its memory use (1.5 GB -> 0.6 GB measured).
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": work, "LANG": "C.UTF-8",
               "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0",
               "MALLOC_ARENA_MAX": os.environ.get("MALLOC_ARENA_MAX", "2")}
        platforms = os.environ.get("AUTOGRADER_WORKER_JAX_PLATFORMS", os.environ.get("JAX_PLATFORMS"))
        if platforms:
            env["JAX_PLATFORMS"] = platforms
        # PYTHONPATH: a grader run from a checkout rather than installed (labcheck on a lab's own
        # python3) finds this package and its wheels through it, and so must the worker
        for key in ("XLA_FLAGS", "CUDA_VISIBLE_DEVICES", "TPU_VISIBLE_CHIPS", "PYTHONPATH",
                    "LD_LIBRARY_PATH", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
            if key in os.environ:
                env[key] = os.environ[key]
        env.update(self.device_lease.environment)
        env.update(env_extra or {})
        keep = [*_python_roots()] + ([] if private_disk else [self.scratch])
        if private_disk:
            hide = [*hide, tempfile.gettempdir()]  # other workers' scratch folders, wherever TMPDIR is
        hide = [h for h in hide if not any(_is_within(k, h) for k in keep)]
        self._uid_lease = UidLease() if self.isolation == "namespace" else None
        self.uid = self._uid_lease.uid if self._uid_lease else os.getuid()
        config = {"limits": asdict(limits), "hide": hide, "work": work, "reachable": _python_roots(),
                  "mode": self.isolation, "without": list(without), "env": env, "uid": self.uid,
                  "fds": [req_r, rep_w, alarm_w], "lifeline": lifeline_fd if self._lifeline else None,
                  "memory": self.memory.config(), "accelerator": devices.accelerator_may_be_used()}
        stage2 = [sys.executable, "-m", "autograder.sandbox.process", json.dumps(config)]
        if self.isolation == "namespace" and not private_disk:
            os.chmod(self.scratch, 0o755)
            os.chown(work, self.uid, self.uid)
            os.chmod(work, 0o700)  # another student's worker (another uid) cannot read these cells
        cmd = _unshare_command(self.isolation, without) + stage2 if namespaced else stage2
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, cwd=self.scratch, env=env,
            start_new_session=True, pass_fds=tuple(child_fds), close_fds=True)
        for fd in child_fds:
            os.close(fd)
        out.close()
        err.close()
        self.started = time.perf_counter()
        self._answered: set[str] = set()

    # -- protocol -------------------------------------------------------------
    def request(self, req: dict, timeout: float, make_handle) -> dict:
        """Send one request and return its reply.

        Every request carries a fresh nonce that its reply must echo. A reply with an unknown
        nonce, or a second reply to an answered request, means student code wrote into the
        channel: the worker is killed and the caller learns which (ForgedReply / WorkerDied).
        """
        return self.receive(self.send(req), timeout, make_handle)

    def send(self, req: dict) -> str:
        """Write one request; return the nonce its reply must echo. `receive` must read that reply
        before the next request is sent (one request in flight at a time)."""
        from . import wire  # (not at import: stage 2 must stay single-threaded, without numpy)
        if self.proc.poll() is not None:
            raise WorkerDied(self._death_reason())
        nonce = secrets.token_hex(12)
        try:
            wire.write_frame(self._req_w, dumps_request({**req, "nonce": nonce}))
        except (BrokenPipeError, OSError):
            raise WorkerDied(self._death_reason()) from None
        return nonce

    def receive(self, nonce: str, timeout: float, make_handle) -> dict:
        """Read the reply to the request that `send` returned `nonce` for (see `request`).

        The reply's nonce is read and compared first; only a reply to this request is read to its
        end (into one buffer of its announced size) and decoded. Processes the worker left running
        are found here, from /proc, and added to the reply's violations."""
        from . import wire
        deadline = time.monotonic() + timeout
        size = int.from_bytes(self._read_exactly(4, deadline, timeout), "big")
        if size > wire.MAX_FRAME:
            self.kill()
            raise WorkerDied("the worker's reply exceeded the size limit")
        if size < wire.NONCE_BYTES:
            self.kill()
            raise WorkerDied("wrote a malformed reply into the grader's channel (too short)")
        got = bytes(self._read_exactly(wire.NONCE_BYTES, deadline, timeout))
        if got != wire.nonce_bytes(nonce):
            self.kill()
            if got.strip().decode("ascii", "replace") in self._answered:
                raise ForgedReply("answered an earlier request twice: a forged reply was written "
                                  "into the grader's channel")
            raise ForgedReply("wrote a reply that does not belong to the grader's request into its channel")
        payload = self._read_exactly(size - wire.NONCE_BYTES, deadline, timeout)
        try:
            reply = wire.decode_reply(payload, make_handle)
        except wire.WireError as exc:
            self.kill()
            raise WorkerDied(f"wrote a malformed reply into the grader's channel ({exc})") from None
        self._answered.add(nonce)
        found = self.alarms()
        left = self.leftover_processes()
        if left:
            found.append(f"{len(left)} process(es) started by student code are still running")
        if found:
            reply["violations"] = [*reply.get("violations", []), *found]
        return reply

    def alarms(self) -> list[str]:
        """What the worker's audit hook reported since the last reply (integrity.ALARMS), read from
        a pipe whose read end only the grader holds: student code can neither unsay an alarm nor
        silence the channel without that showing (its write end closed reads as end-of-file)."""
        from .integrity import ALARMS
        try:
            data = os.read(self._alarm_r, 4096)
        except BlockingIOError:
            return []
        except OSError:
            return []
        if not data:
            return ["student code closed the grader's alarm channel"] if self.proc.poll() is None else []
        return [f"student code {ALARMS.get(code, 'raised an unknown alarm')}" for code in sorted(set(data.decode("ascii", "replace")))]

    def _read_exactly(self, n: int, deadline: float, timeout: float) -> memoryview:
        """`n` bytes of the reply channel, read into one buffer allocated once, by the deadline."""
        view = memoryview(bytearray(n))
        got = 0
        while got < n:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise WorkerDied(f"timed out after {timeout:g} s (an infinite loop, a blocking call, "
                                 f"or a computation far slower than needed)")
            ready, _, _ = select.select([self._rep_r], [], [], min(left, 0.5))
            if not ready:
                if self.proc.poll() is not None:
                    raise WorkerDied(self._death_reason())
                continue
            count = os.readv(self._rep_r, [view[got:]])
            if count == 0:
                self.proc.wait(timeout=5)
                raise WorkerDied(self._death_reason())
            got += count
        return view

    def leftover_processes(self) -> list[int]:
        """Processes of this worker's sandbox other than the worker itself, read from /proc by the
        grader (student code cannot hide them from it): the worker's children, and orphans that
        a double fork left to the supervisor (pid 1 of the namespaces, or a subreaper)."""
        if self.proc.poll() is not None:
            return []
        supervisor = self.proc.pid if self.isolation == "process" else next(iter(procs.children(self.proc.pid)), None)
        if supervisor is None:
            return []
        tree = [p for p in procs.descendants(supervisor) if procs.state(p) not in ("Z", "X", None)]
        if len(tree) <= 1:
            return []
        worker = min(procs.children(supervisor), key=lambda p: procs.start_time(p) or float("inf"), default=None)
        return [p for p in tree if p != worker]

    def _worker_status(self) -> int | None:
        """The worker's own wait status as the supervisor reported it (an exit code, or minus the
        signal that killed it), or None when there is no report (e.g. the grader killed it)."""
        if self._status is not None or self._lifeline is None:
            return self._status
        try:
            self._lifeline.setblocking(False)
            data = self._lifeline.recv(64).decode("ascii", "replace").split()
        except (BlockingIOError, OSError):
            return None
        if len(data) == 2 and data[0] in ("exit", "signal") and data[1].isdigit():
            self._status = int(data[1]) if data[0] == "exit" else -int(data[1])
        return self._status

    def _death_reason(self) -> str:
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.proc.returncode
        status = self._worker_status()
        if status is not None:
            code = status
        if code == DISK_FULL_EXIT:
            if self.isolation in ("namespace", "userns") and "disk" not in self.limits.bench_without:
                return (f"filled its disk budget of {self.limits.disk_mb} MB (its /tmp, working "
                        f"folder and HOME share that space)")
            return "filled the disk"
        size = os.path.getsize(self.stdout_path) + os.path.getsize(self.stderr_path) \
            if os.path.exists(self.stdout_path) else 0
        if size >= self.limits.output_bytes:
            return f"stopped after writing {size} bytes of output (the limit is {self.limits.output_bytes})"
        if self.memory.oom_killed():
            return f"ran out of memory (the limit is {self.limits.memory_mb} MB)"
        if code is not None and code < 0:
            sig = _signal_name(-code)
            if sig == "SIGXFSZ":
                return f"stopped for writing more than {self.limits.output_bytes} bytes of output"
            if sig == "SIGKILL":
                return "was killed (memory or process limit, or a kill from student code)"
            return f"crashed with {sig}"
        tail = self.stderr_tail()
        if "MemoryError" in tail or "RESOURCE_EXHAUSTED" in tail or "Out of memory" in tail:
            return f"ran out of memory (the limit is {self.limits.memory_mb} MB)"
        return f"exited with code {code} (os._exit, sys.exit in a thread, or a crash)"

    def stderr_tail(self, n: int = 2000) -> str:
        try:
            with open(self.stderr_path, "rb") as fh:
                fh.seek(max(0, os.path.getsize(self.stderr_path) - n))
                return fh.read().decode(errors="replace")
        except OSError:
            return ""

    def kill(self):
        if self.proc.poll() is None and self.isolation == "process" and self._lifeline is not None:
            # No PID namespace here: let the supervisor kill the descendants that left the worker's
            # process group (setsid), then fall back to killing the group.
            try:
                self._lifeline.shutdown(socket.SHUT_RDWR)
                self.proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.proc.kill()
            except ProcessLookupError:
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass

    def close(self):
        self.kill()
        for fd in (self._req_w, self._rep_r, self._alarm_r):
            try:
                os.close(fd)
            except OSError:
                pass
        if self._lifeline is not None:
            self._lifeline.close()  # the supervisor, if still there, takes this as its signal to end
        if self._uid_lease is not None:
            self._uid_lease.release()   # after kill(): no process of that uid is left
        shutil.rmtree(self.scratch, ignore_errors=True)
        self.memory.remove()
        self.device_lease.release()


def dumps_request(req) -> bytes:
    """Pickle a request; grader-side proxies become references the worker resolves."""
    import io

    import cloudpickle

    class Pickler(cloudpickle.Pickler):
        def persistent_id(self, obj):
            ref = getattr(obj, "__autograder_ref__", None)
            return ref if isinstance(ref, tuple) else None

    buf = io.BytesIO()
    Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(req)
    return buf.getvalue()


def _is_within(path: str, ancestor: str) -> bool:
    path, ancestor = os.path.realpath(path), os.path.realpath(ancestor)
    return path == ancestor or path.startswith(ancestor.rstrip(os.sep) + os.sep)


def _python_roots() -> list[str]:
    """Directories the worker must reach: the interpreter, its libraries, this package."""
    roots = {os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix),
             os.path.realpath(os.path.dirname(os.path.dirname(os.path.dirname(__file__)))),
             os.path.realpath(os.path.dirname(sys.executable))}
    for p in sys.path:
        if p and os.path.isdir(p):
            roots.add(os.path.realpath(p))
    return sorted(roots)


# ================================================================ stage 2 (inside the namespaces)
# `python -m autograder.sandbox.process CONFIG` runs as the namespaces' first process (pid 1, root
# of the namespaces; in `process` mode, a plain child of the grader). It forks: the parent stays as
# the supervisor, the child confines itself (`isolate`) and becomes the worker.

_libc = None


def _lib():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


def _check(rc: int, what: str):
    if rc != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC = 1, 2, 4, 8, 32, 4096, 16384


def _mount(source, target: str, fstype=None, flags: int = 0, data=None):
    enc = lambda s: None if s is None else os.fsencode(s)  # noqa: E731
    _check(_lib().mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)),
           f"mount {source} on {target}")


def _cover(path: str, options: str, keep=()):
    """Mount an empty tmpfs over `path`, then bind each path of `keep` (files or folders inside
    `path`) back in place. The kept paths are held open (O_PATH) across the covering, so they
    are found even when they lie under `path` itself."""
    held = []
    for k in sorted(set(keep)):
        held.append((k, os.open(k, os.O_PATH), os.path.isdir(k)))
    _mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, options)
    for k, fd, is_dir in held:
        if is_dir:
            os.makedirs(k, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(k), exist_ok=True)
            open(k, "a").close()
        _mount(f"/proc/self/fd/{fd}", k, None, MS_BIND | MS_REC)
        os.close(fd)


def _hide(paths: list[str]):
    """Cover the course's hidden material (folders: an empty tmpfs; files: /dev/null)."""
    for path in paths:
        if os.path.isdir(path):
            _mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m")
        elif os.path.exists(path):
            _mount("/dev/null", path, None, MS_BIND)


def _make_reachable(paths: list[str]):
    """Let the unprivileged worker traverse to the interpreter: cover each private ancestor (e.g.
    /root, mode 700) with a world-traversable tmpfs and bind the needed subtrees back into it."""
    for path in paths:
        parts = Path(path).parts
        for depth in range(2, len(parts)):
            anc = os.path.join(*parts[:depth])
            if os.stat(anc).st_mode & 0o001:
                continue
            children = {os.path.join(anc, Path(p).parts[depth]) for p in paths
                        if _is_within(p, anc) and len(Path(p).parts) > depth}
            _cover(anc, "mode=0755,size=1m", children)


def _cover_host_sockets(keep: list[str]):
    """/run (and /var/run when it is a folder of its own) holds the unix sockets of the host's
    services: name resolution (nscd, systemd-resolved), databases, D-Bus, Docker. A network
    namespace does not stop a connection to a socket file, so these folders are covered."""
    for path in ("/run", "/var/run"):
        if os.path.isdir(path) and not os.path.islink(path):
            _cover(path, "mode=0755,size=1m", [k for k in keep if _is_within(k, path)])


def _loopback_up():
    """A new network namespace has one interface, `lo`, and it is down. Bring it up with the
    SIOCSIFFLAGS ioctl (no dependency on iproute2): code that talks to itself over 127.0.0.1
    works as on a laptop, while nothing outside the namespace is reachable."""
    import fcntl
    SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        req = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH", fcntl.ioctl(s, SIOCGIFFLAGS, req)[:18])[1]
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


_SYS_MOUNT_SETATTR = 442  # the same number on every architecture (Linux >= 5.12)


# The kernel's own file systems stay writable for a worker that may use a GPU: cuInit fails with
# CUDA_ERROR_OPERATING_SYSTEM under a read-only root (measured on an H200 lab machine, where it runs
# once the root alone stays writable). They hold nothing an unprivileged worker can fill: /dev is
# root's (its /dev/shm is the private tmpfs), /proc and /sys are the kernel's.
KERNEL_MOUNTS = ("/dev", "/proc", "/sys")


def _read_only_root(fallback: bool = False, keep_writable: tuple = ()):
    """Make every mount of this mount namespace read-only (the host's mounts are untouched: the
    namespace has its own copies), but the mounts at and under `keep_writable`. mount_setattr(2)
    does it in one call per tree; kernels before 5.12 get a read-only bind remount of each mount,
    keeping its other flags (a user namespace forbids dropping them)."""
    if not fallback:
        attr = _MountAttr(attr_set=0x1)  # MOUNT_ATTR_RDONLY
        rc = _lib().syscall(_SYS_MOUNT_SETATTR, -100, b"/", 0x8000,  # AT_FDCWD, "/", AT_RECURSIVE
                            ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)))
        if rc == 0:
            for path in keep_writable:
                if os.path.ismount(path):
                    back = _MountAttr(attr_clr=0x1)
                    _check(_lib().syscall(_SYS_MOUNT_SETATTR, -100, os.fsencode(path), 0x8000,
                                          ctypes.byref(back), ctypes.c_size_t(ctypes.sizeof(back))),
                           f"mount_setattr({path}, clear MOUNT_ATTR_RDONLY)")
            return
        if ctypes.get_errno() not in (errno.ENOSYS, errno.EINVAL):
            _check(rc, "mount_setattr(/, MOUNT_ATTR_RDONLY, AT_RECURSIVE)")
    keep_flags = (os.ST_NOSUID | os.ST_NODEV | os.ST_NOEXEC | os.ST_NOATIME | os.ST_NODIRATIME
                  | os.ST_RELATIME)
    with open("/proc/self/mountinfo") as fh:
        points = [line.split()[4] for line in fh]
    for point in points:
        point = point.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n") \
            .replace("\\134", "\\")
        if any(_is_within(point, keep) for keep in keep_writable):
            continue
        try:
            flags = os.statvfs(point).f_flag & keep_flags
        except OSError:
            continue  # covered by a later mount: not reachable, nothing to protect
        _mount(None, point, None, MS_REMOUNT | MS_BIND | MS_RDONLY | flags)


def _private_disk(disk_mb: int, uid: int, keep: list[str]):
    """The worker's only writable storage: a tmpfs of `disk_mb` on /tmp (a cap on bytes and on
    files), holding its working folder (also HOME), bound again on /var/tmp and, through a
    subfolder, on /dev/shm. Mounted after the root was made read-only, so it alone is writable."""
    inodes = max(1024, disk_mb * 64)
    _cover(INNER_TMP, f"size={disk_mb}m,nr_inodes={inodes},mode=1777",
           [k for k in keep if _is_within(k, INNER_TMP)])
    os.mkdir(INNER_WORK, 0o700)
    if uid is not None:  # namespace mode: the worker's own uid (userns: already the owner)
        os.chown(INNER_WORK, uid, uid)
    shm = os.path.join(INNER_TMP, ".shm")
    os.mkdir(shm)
    os.chmod(shm, 0o1777)
    if os.path.isdir("/var/tmp") and not os.path.islink("/var/tmp"):
        _mount(INNER_TMP, "/var/tmp", None, MS_BIND | MS_REC)
    if os.path.isdir("/dev/shm"):
        _mount(shm, "/dev/shm", None, MS_BIND)


def _set_limits(limits: dict, memory: dict | None):
    memlimit.apply_rlimit(memory)   # RLIMIT_AS or RLIMIT_DATA; a cgroup was entered in stage2
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["output_bytes"], limits["output_bytes"]))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NPROC, (limits["max_procs"], limits["max_procs"]))


def _enter_nested_user_namespace():
    """Drop the capabilities this process holds in its user namespace: the mounts made above
    become locked, so student code cannot unmount them to reveal what they cover."""
    if _lib().unshare(0x10000000) != 0:  # CLONE_NEWUSER
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWUSER) failed")


def isolate(config: dict):
    """Every confinement step of the worker, in order, in one place.

    Runs in the process that becomes the worker: in the namespace modes it starts as root of fresh
    mount, PID, network and IPC namespaces; in `process` mode, as the grader's user. After it, the
    process holds the request/reply channel on fds 3 and 4 and only has to exec the worker. (A
    pre-forked worker parent would call this in each forked child, after unshare(2), instead of
    exec'ing a fresh interpreter.)
    """
    mode, without = config["mode"], set(config.get("without", ()))
    keep = config["reachable"]
    if mode in ("namespace", "userns"):
        # 1. what the student must not read: the course's hidden material, other workers' scratch
        _hide(config["hide"])
        if mode == "namespace":
            _make_reachable(keep)
        # 2. network: only loopback in the namespace, and no host socket files
        if "network" not in without:
            _cover_host_sockets(keep)
            _loopback_up()
        # 3. disk: nothing writable but a private tmpfs of the budget's size
        if "disk" not in without:
            _read_only_root(keep_writable=KERNEL_MOUNTS if config.get("accelerator") else ())
            _private_disk(int(config["limits"]["disk_mb"]),
                          config["uid"] if mode == "namespace" else None, keep)
    # 4. resource limits, then credentials (after them nothing above can be undone)
    _set_limits(config["limits"], config.get("memory"))
    if mode == "userns":
        _enter_nested_user_namespace()
    if mode == "namespace":
        os.setgroups([])
        os.setgid(config["uid"])
        os.setuid(config["uid"])
    os.chdir(config["work"])
    # 5. no new privileges, and the system calls a JAX worker never needs denied (seccomp.py)
    if "seccomp" not in without:
        try:
            seccomp.install()
        except OSError as exc:  # a kernel without seccomp filters: the other layers still hold
            print(f"autograder: seccomp filter not installed: {exc}", file=sys.stderr)
    # 6. the request, reply and alarm channels become fds 3, 4 and 5 (see worker.py)
    channels = config["fds"]
    moved = [os.dup(fd) for fd in channels]
    for fd in channels:
        os.close(fd)
    for target, fd in zip((3, 4, 5), moved):
        os.dup2(fd, target)
    for fd in moved:
        if fd not in (3, 4, 5):
            os.close(fd)
    for target in (3, 4, 5):
        os.set_inheritable(target, True)  # dup2 onto the same number keeps close-on-exec
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)


def _exec_worker(config: dict):
    os.execve(sys.executable, [sys.executable, "-m", "autograder.sandbox.worker"], config["env"])


PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER = 1, 4, 36


def _supervise(worker: int, lifeline: int, mode: str):
    """Wait for the worker to end, or for the grader to go; then end everything and exit.

    The lifeline is a socket whose other end only the grader holds. The grader sends nothing on
    it: it becomes readable when that end is closed, by `WorkerProcess.close()` or by the kernel
    when the grader dies, whatever killed it (SIGKILL, the OOM killer, a CI time limit). Reading
    EOF is level-triggered, so a grader that died before this loop started is seen at once.

    Why this and not a parent-death signal (PR_SET_PDEATHSIG): that signal fires when the parent
    *thread* exits, and the grader starts workers from a thread pool, so a worker would die with
    the pool thread that started it; setting it on `unshare` would need a preexec_fn, which can
    deadlock in a threaded grader; and it is cleared when the worker changes uid, so every link of
    grader -> unshare -> pid 1 -> worker would need re-arming, each with a race against a parent
    that already died. One socket closes reliably, whatever the threads and uids.

    In the namespace modes this process is pid 1: when it exits, the kernel kills every process
    left in the PID namespace (fork bombs and double-forked daemons included), and student code
    cannot signal it (pid 1 only receives signals it handles, and it handles none) nor ptrace it
    (it is not dumpable). In `process` mode it is a child subreaper and kills what is left of its
    descendants itself; there, student code running as the same user can still kill it first.

    When the worker ends on its own, its wait status is written on the lifeline ("exit N" /
    "signal N") for the grader's death report, since pid 1 cannot die of a signal to pass it on.
    """
    lib = _lib()
    lib.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    if mode == "process":
        lib.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    try:
        pidfd = os.pidfd_open(worker)
    except (AttributeError, OSError):
        pidfd = None
    poller = select.poll()
    poller.register(lifeline, select.POLLIN | select.POLLHUP | select.POLLERR)
    if pidfd is not None:
        poller.register(pidfd, select.POLLIN)
    status = None
    while status is None:
        events = poller.poll(1000 if pidfd is not None else 100)
        status = _reap(worker)  # also reaps orphans re-parented to this process
        if status is None and any(fd == lifeline for fd, _ in events):
            _end_all(mode)     # the grader is gone, or done with this worker
            os._exit(0)
    if os.WIFSIGNALED(status):
        report, code = f"signal {os.WTERMSIG(status)}", 128 + os.WTERMSIG(status)
    else:
        report, code = f"exit {os.WEXITSTATUS(status)}", os.WEXITSTATUS(status)
    try:
        os.write(lifeline, report.encode() + b"\n")
    except OSError:
        pass
    _end_all(mode)
    os._exit(code)


def _reap(worker: int):
    """Collect every finished child; return the worker's wait status once it has ended."""
    found = None
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return found
        if pid == 0:
            return found
        if pid == worker:
            found = status


def _end_all(mode: str):
    """Namespace modes: nothing to do, the kernel ends the PID namespace with its pid 1. Process
    mode: kill the descendants (orphans came back here, as a subreaper) until none is left."""
    if mode != "process":
        return
    me = os.getpid()
    for _ in range(200):
        kids = procs.descendants(me)
        if not kids:
            return
        for pid in kids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        _reap(-1)
        time.sleep(0.01)


def stage2(config: dict):
    memlimit.enter(config.get("memory"))  # before the fork: the worker starts inside its cgroup
    lifeline = config.get("lifeline")
    if lifeline is None:  # benchmarks only: no supervisor, the worker is the first process
        isolate(config)
        _exec_worker(config)
    supervisor = os.getpid()
    worker = os.fork()
    if worker == 0:
        try:
            os.close(lifeline)
            if config["mode"] == "process":
                # no PID namespace to end it with the supervisor: die with it instead
                _lib().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
                if os.getppid() != supervisor:
                    os._exit(1)
            isolate(config)
            _exec_worker(config)
        except BaseException:
            import traceback
            traceback.print_exc()
            os._exit(1)
    for fd in config["fds"]:
        os.close(fd)  # only the worker may hold the channel: its death must reach the grader as EOF
    _supervise(worker, lifeline, config["mode"])


if __name__ == "__main__":
    stage2(json.loads(sys.argv[1]))
