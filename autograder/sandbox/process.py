"""The grader's side of a worker: start a process that runs untrusted student code, under limits,
and talk to it (`WorkerProcess`). What runs inside its namespaces is `inside.py`; what the grader
keeps on the host for it (scratch folders, uid leases) is `host.py`.

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

In the two namespace modes, three doors are closed (see `inside.isolate`):
- **network**: the network namespace holds only loopback (brought up, so code that talks to
  itself on 127.0.0.1 works); /run, where host services keep their unix sockets (nscd, resolved,
  PostgreSQL, D-Bus, Docker), is covered; and /tmp is private (next point). No TCP/UDP packet,
  DNS query or unix-socket connection reaches the host or beyond.
- **disk**: every mount the worker can see is made read-only, then a tmpfs of `disk_mb` becomes its
  /tmp, with its working directory and HOME inside; /var/tmp and /dev/shm are that same tmpfs; the
  IPC namespace keeps SysV shared memory inside the sandbox. A cell that fills the budget stops the
  worker (`DISK_FULL_EXIT`); the next worker gets a fresh, empty tmpfs.
- **lifetime**: the namespaces' first process is a supervisor (`inside._supervise`), not the worker. It
  holds one end of a socket pair whose other end only the grader holds. Whenever the grader dies,
  by any signal including SIGKILL, the kernel closes the grader's end; the supervisor reads EOF and
  exits, and the kernel kills every process of the PID namespace with it. (Why not a parent-death
  signal: see `inside._supervise`.)
Always: a wall-clock timeout per request, a memory cap (`memlimit.py`: RLIMIT_AS when the worker's
JAX runs on the CPU; a cgroup, else RLIMIT_DATA, where it may use an accelerator), RLIMIT_FSIZE
(bytes of output: stdout and stderr go to capped files), RLIMIT_NPROC (processes, effective once
not root), RLIMIT_CORE = 0, a scratch working directory, a scrubbed environment, and the worker's
share of the GPUs (`devices.py`).
"""
from __future__ import annotations

import json
import os
import secrets
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass

from . import compile_cache, compile_effort, devices, forkserver, memlimit, one_core, procs
from .host import UidLease, covering_folders, make_scratch, python_roots
from .inside import DISK_FULL_EXIT, INNER_WORK
from .isolation import _unshare_command, choose_isolation, isolation_label  # noqa: F401 (re-exported)

PROTECTIONS = ("network", "disk", "files", "lifetime", "seccomp")   # what `Limits.bench_without` may switch off


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
    compile_cache: bool = False     # the grader's compile cache (compile_cache.py); for a batch,
    compile_cache_folder: str = ""  # the folder of the references' compiles
    compile_cache_digest: str = ""  # and its manifest's digest (grading/batch_cache.py)
    quick_compiles: bool = True     # on the CPU, XLA without its costly passes (compile_effort.py)
    reference_timeouts: bool = True  # shorter timeouts per cell from what the references cost,
    cell_timeouts: dict | None = None  # {grade_id: seconds} as the batch's builder measured (grading/timeouts.py)
    timing_one_core: bool = True    # the timing worker held to one core from its start, on a CPU (one_core.py)
    # benchmarks/sandbox_overhead.py only (set by the grader's caller): PROTECTIONS left off, to time each
    bench_without: tuple = ()


class WorkerDied(Exception):
    """The worker crashed, hung or broke the protocol; `reason` says which, in student terms."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class ForgedReply(WorkerDied):
    """A reply arrived for a request that had already been answered: the first answer was written
    by student code into the grader's channel."""


def _signal_name(code: int) -> str:
    try:
        return signal.Signals(code).name
    except ValueError:
        return f"signal {code}"


class WorkerProcess:
    """One running worker: send a request, wait for its reply within a deadline."""

    def __init__(self, limits: Limits, hide: list[str], env_extra: dict | None = None, pin_core: bool = False):
        """`pin_core`: hold the worker to one leased core from its start (the timing worker's,
        `one_core.py`; not where its JAX may reach an accelerator)."""
        self.limits = limits
        self.isolation = choose_isolation(limits.isolation)
        self.label = isolation_label(self.isolation)
        # accelerators: this worker's share of the GPUs (devices.py), and a memory cap CUDA can
        # start under (memlimit.py); both given back in close()
        self.memory = memlimit.make_cap(limits.memory_limit, limits.memory_mb,
                                        devices.accelerator_may_be_used())
        self.memory_limit = self.memory.label
        self.device_lease = devices.Lease(devices.make_plan(limits.concurrent_workers, limits.devices_per_worker))
        self.core_lease = one_core.CoreLease(pin_core and not devices.accelerator_may_be_used())
        without = tuple(limits.bench_without)
        namespaced = self.isolation in ("namespace", "userns")
        private_disk = namespaced and "disk" not in without
        self.scratch = make_scratch()
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
        self._lifeline = self._status = None
        if "lifetime" not in without:
            self._lifeline, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
            lifeline_fd = theirs.detach()
            child_fds.append(lifeline_fd)
        out, err = open(self.stdout_path, "wb"), open(self.stderr_path, "wb")
        base = base_environment()   # also the fork server's (forkserver.py): what is not the worker's own
        env = {**base, "HOME": work, **self.device_lease.environment, **self.core_lease.environment}
        if private_disk:
            hide = [*hide, tempfile.gettempdir()]  # other workers' scratch folders, wherever TMPDIR is
        cache_fd, cache_env, hide = compile_cache.for_worker(limits, hide, self.isolation == "userns")
        env.update({**cache_env, **compile_effort.for_worker(limits), **(env_extra or {})})
        channels = [req_r, rep_w, alarm_w, *([cache_fd] if cache_fd is not None else [])]
        child_fds += channels[3:]
        reachable = python_roots()
        keep = [*reachable] + ([] if private_disk else [self.scratch])
        hide = list(covering_folders(tuple(hide), tuple(keep)))
        self._uid_lease = UidLease() if self.isolation == "namespace" else None
        self.uid = self._uid_lease.uid if self._uid_lease else os.getuid()
        config = {"limits": asdict(limits), "hide": hide, "work": work, "reachable": reachable,
                  "mode": self.isolation, "without": list(without), "env": env, "uid": self.uid,
                  "fds": channels, "lifeline": lifeline_fd if self._lifeline else None,
                  "memory": self.memory.config(), "accelerator": devices.accelerator_may_be_used()}
        stage2 = [sys.executable, "-m", "autograder.sandbox.inside", json.dumps(config)]
        if self.isolation == "namespace" and not private_disk:
            os.chmod(self.scratch, 0o755)
            os.chown(work, self.uid, self.uid)
            os.chmod(work, 0o700)  # another student's worker (another uid) cannot read these cells
        cmd = _unshare_command(self.isolation, without) + stage2 if namespaced else stage2
        popen = lambda: subprocess.Popen(  # noqa: E731
            cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, cwd=self.scratch, env=env,
            start_new_session=True, pass_fds=tuple(child_fds), close_fds=True)

        def release():   # the grader's copies of the worker's fds, once its first process has them
            for fd in child_fds:
                os.close(fd)
            out.close(), err.close()
        self.proc = forkserver.launch(popen, release, base, {"config": config, "cwd": self.scratch,
                                      "numbers": child_fds}, [out.fileno(), err.fileno(), *child_fds])
        self.started = time.perf_counter()
        self._answered: set[str] = set()
        self._budgets: dict[str, int] = {}   # nonce -> the most bytes its reply may have

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
        if self.proc.poll() is not None:
            raise WorkerDied(self._death_reason())
        from . import wire  # (not at import: grading/startup.py starts a worker before numpy loads)
        nonce = secrets.token_hex(12)
        payload = wire.dumps_request({**req, "nonce": nonce})
        self._budgets[nonce] = wire.reply_budget(req.get("op"), len(payload))   # its reply's bytes
        try:
            wire.write_frame(self._req_w, payload)
        except (BrokenPipeError, OSError):
            raise WorkerDied(self._death_reason()) from None
        return nonce

    def receive(self, nonce: str, timeout: float, make_handle) -> dict:
        """Read the reply to the request that `send` returned `nonce` for (see `request`).

        The nonce is read and compared first; only a reply to this request, within its byte budget,
        is read to its end (one buffer) and decoded. Leftover processes are added to its violations."""
        from . import wire
        deadline = time.monotonic() + timeout
        size = int.from_bytes(self._read_exactly(4, deadline, timeout), "big")
        if size < wire.NONCE_BYTES or size > wire.MAX_FRAME:
            raise self.kill() or WorkerDied("wrote a malformed reply into the grader's channel (too short)"
                                            if size < wire.NONCE_BYTES else wire.over_budget(size, wire.MAX_FRAME))
        got = bytes(self._read_exactly(wire.NONCE_BYTES, deadline, timeout))
        if got != wire.nonce_bytes(nonce):
            self.kill()
            if got.strip().decode("ascii", "replace") in self._answered:
                raise ForgedReply("answered an earlier request twice: a forged reply was written "
                                  "into the grader's channel")
            raise ForgedReply("wrote a reply that does not belong to the grader's request into its channel")
        budget = self._budgets.pop(nonce, wire.MAX_FRAME)
        if size > budget:   # refused before the rest of it is read
            raise self.kill() or WorkerDied(wire.over_budget(size, budget))
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
        self.core_lease.release()


def base_environment() -> dict:
    """The worker's environment but for what is its own (HOME, its devices, its compile cache and
    effort): the fork server's environment, and the key of its zygote."""
    # MALLOC_ARENA_MAX: glibc reserves 64 MB of address space per malloc arena, up to 8 per core, and
    # XLA starts a thread pool per core: on a 16-core lab machine a CPU worker under its 4 GB RLIMIT_AS
    # could not start XLA's threads. Two arenas keep its address space near its use (1.5 -> 0.6 GB).
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
           "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0",
           "MALLOC_ARENA_MAX": os.environ.get("MALLOC_ARENA_MAX", "2"),
           # JAX keeps its own frames in a traceback (marked hidden), as in a notebook kernel, where IPython makes
           # this JAX's default: an explanation then reads the same evidence in both (checks/facts.py `raised_by`)
           "JAX_TRACEBACK_FILTERING": "tracebackhide"}
    platforms = os.environ.get("AUTOGRADER_WORKER_JAX_PLATFORMS", os.environ.get("JAX_PLATFORMS"))
    if platforms:
        env["JAX_PLATFORMS"] = platforms
    # PYTHONPATH: a grader run from a checkout rather than installed (labcheck on a lab's own
    # python3) finds this package and its wheels through it, and so must the worker
    for key in ("XLA_FLAGS", "CUDA_VISIBLE_DEVICES", "TPU_VISIBLE_CHIPS", "PYTHONPATH",
                "LD_LIBRARY_PATH", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        if key in os.environ:
            env[key] = os.environ[key]
    return env
