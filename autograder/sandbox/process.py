"""Start and talk to a worker process that runs untrusted student code, under limits.

Layers, strongest available first (the level used is reported in every result as `isolation`):
- `namespace` (the grader runs as root, util-linux `unshare` present): a new mount and PID
  namespace. The worker sees only its own processes (so it cannot find or read the grader), the
  course's hidden material (source/, gradebook, submissions, test data) is covered by empty tmpfs
  mounts, and the worker then drops to an unprivileged uid of its own, so it cannot undo those mounts,
  write to the course or read private files, and its process cap is its own. Killing the namespace's first process kills every process the
  student started (fork bombs included).
- `process`: a separate process in its own session, killed as a process group.
Always: a wall-clock timeout per request, RLIMIT_AS (memory), RLIMIT_FSIZE (bytes of output:
stdout and stderr go to capped files), RLIMIT_NPROC (processes, effective once not root),
RLIMIT_CORE = 0, a scratch working directory, and a scrubbed environment.
"""
from __future__ import annotations

import json
import os
import pickle
import resource
import secrets
import select
import shutil
import itertools
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path


# Each namespaced worker runs under its own unprivileged uid (no passwd entry needed), so that
# RLIMIT_NPROC, which counts per uid, bounds each student's processes separately: one student's
# fork bomb cannot starve another's worker of threads.
_UID_BASE = 200_000
_uid_lock = threading.Lock()
_uid_counter = itertools.count()


def _next_uid() -> int:
    with _uid_lock:
        return _UID_BASE + (os.getpid() % 2000) * 1000 + next(_uid_counter) % 1000


@dataclass
class Limits:
    cell_timeout: float = 30.0      # seconds for one solution cell to execute
    check_timeout: float = 30.0     # seconds for one call or probe of a student function
    startup_timeout: float = 60.0   # seconds to start Python, run setup cells and import JAX
    memory_mb: int = 4096           # address-space cap of the worker
    output_bytes: int = 2_000_000   # cap on what the worker writes to stdout + stderr files
    max_procs: int = 512            # RLIMIT_NPROC once the worker is not root (threads count)
    isolation: str = "auto"         # auto | namespace | userns | process


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


@lru_cache(maxsize=None)
def _works(cmd: tuple) -> bool:
    if not shutil.which("unshare") or not shutil.which("mount"):
        return False
    try:
        return subprocess.run([*cmd, "true"], capture_output=True, timeout=20).returncode == 0
    except Exception:
        return False


def choose_isolation(requested: str) -> str:
    """`namespace` as root; `userns` (unprivileged user namespaces) otherwise; else `process`."""
    if requested == "process":
        return "process"
    root_ok = os.geteuid() == 0 and _works(tuple(_UNSHARE))
    user_ok = _works(tuple(_UNSHARE_USER))
    if requested == "namespace" and root_ok:
        return "namespace"
    if requested == "userns" and user_ok:
        return "userns"
    if requested in ("namespace", "userns"):
        raise RuntimeError(f"{requested} isolation is not available here (needs util-linux `unshare`"
                           f"{' and root' if requested == 'namespace' else ' and user namespaces'})")
    return "namespace" if root_ok else "userns" if user_ok else "process"


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
        self.scratch = tempfile.mkdtemp(prefix="jaxcourse-worker-")
        self.stdout_path = os.path.join(self.scratch, ".stdout")
        self.stderr_path = os.path.join(self.scratch, ".stderr")
        work = os.path.join(self.scratch, "work")
        os.mkdir(work)
        req_r, self._req_w = os.pipe()
        self._rep_r, rep_w = os.pipe()
        out = open(self.stdout_path, "wb")
        err = open(self.stderr_path, "wb")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": work, "LANG": "C.UTF-8",
               "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
        platforms = os.environ.get("AUTOGRADER_WORKER_JAX_PLATFORMS", os.environ.get("JAX_PLATFORMS"))
        if platforms:
            env["JAX_PLATFORMS"] = platforms
        for key in ("XLA_FLAGS", "CUDA_VISIBLE_DEVICES", "TPU_VISIBLE_CHIPS",
                    "LD_LIBRARY_PATH", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
            if key in os.environ:
                env[key] = os.environ[key]
        env.update(env_extra or {})
        keep = [self.scratch, *_python_roots()]
        hide = [h for h in hide if not any(_is_within(k, h) for k in keep)]
        config = {"limits": asdict(limits), "hide": hide, "work": work,
                  "reachable": _python_roots(), "stash": os.path.join(self.scratch, "stash"),
                  "mode": self.isolation, "env": env, "fds": [req_r, rep_w]}
        self.uid = _next_uid() if self.isolation == "namespace" else os.getuid()
        config["uid"] = self.uid
        stage2 = [sys.executable, "-m", "autograder.sandbox.process", json.dumps(config)]
        if self.isolation == "namespace":
            os.chmod(self.scratch, 0o755)
            os.chown(work, self.uid, self.uid)
            os.chmod(work, 0o700)  # another student's worker (another uid) cannot read these cells
            cmd = _UNSHARE + stage2
        elif self.isolation == "userns":
            cmd = _UNSHARE_USER + stage2
        else:
            cmd = stage2
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, cwd=work, env=env,
            start_new_session=True, pass_fds=(req_r, rep_w), close_fds=True)
        for fd in (req_r, rep_w):
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
        from . import wire  # (not at import: stage 2 must stay single-threaded, without numpy)
        if self.proc.poll() is not None:
            raise WorkerDied(self._death_reason())
        nonce = secrets.token_hex(12)
        try:
            wire.write_frame(self._req_w, _dumps({**req, "nonce": nonce}))
        except (BrokenPipeError, OSError):
            raise WorkerDied(self._death_reason()) from None
        payload = self._read_reply(timeout)
        try:
            reply = wire.decode_reply(payload, make_handle)
        except wire.WireError as exc:
            self.kill()
            raise WorkerDied(f"wrote a malformed reply into the grader's channel ({exc})") from None
        got = reply.get("nonce")
        if got != nonce:
            self.kill()
            if got in self._answered:
                raise ForgedReply("answered an earlier request twice: a forged reply was written "
                                  "into the grader's channel")
            raise ForgedReply("wrote a reply that does not belong to the grader's request into its channel")
        self._answered.add(nonce)
        return reply

    def _read_reply(self, timeout: float) -> bytes:
        from . import wire
        deadline = time.monotonic() + timeout
        buf = b""
        need = 4
        header_done = False
        while True:
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
            chunk = os.read(self._rep_r, 1 << 20)
            if not chunk:
                self.proc.wait(timeout=5)
                raise WorkerDied(self._death_reason())
            buf += chunk
            if not header_done and len(buf) >= 4:
                need = 4 + int.from_bytes(buf[:4], "big")
                header_done = True
                if need - 4 > wire.MAX_FRAME:
                    self.kill()
                    raise WorkerDied("the worker's reply exceeded the size limit")
            if header_done and len(buf) >= need:
                return buf[4:need]

    def _death_reason(self) -> str:
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.proc.returncode
        size = os.path.getsize(self.stdout_path) + os.path.getsize(self.stderr_path) \
            if os.path.exists(self.stdout_path) else 0
        if size >= self.limits.output_bytes:
            return f"stopped after writing {size} bytes of output (the limit is {self.limits.output_bytes})"
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
        for fd in (self._req_w, self._rep_r):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.scratch, ignore_errors=True)


def _dumps(req: dict) -> bytes:
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


# ---------------------------------------------------------------- stage 2 (inside the sandbox)
def _mount(*args):
    subprocess.run(["mount", *args], check=True, capture_output=True)


def _make_reachable(paths: list[str], stash: str):
    """Let the unprivileged worker traverse to the interpreter: cover each private ancestor (e.g. /root, mode
    700) with a world-traversable tmpfs and bind the needed subtree back into it."""
    os.makedirs(stash, exist_ok=True)
    done = 0
    for path in paths:
        parts = Path(path).parts
        for depth in range(2, len(parts)):
            anc = Path(*parts[:depth])
            if os.stat(anc).st_mode & 0o001:
                continue
            child = parts[depth]
            keep = os.path.join(stash, str(done))
            done += 1
            os.makedirs(keep)
            _mount("--bind", str(anc / child), keep)
            _mount("-t", "tmpfs", "-o", "mode=0755,size=1m", "tmpfs", str(anc))
            os.makedirs(anc / child, exist_ok=True)
            _mount("--bind", keep, str(anc / child))


def _enter_nested_user_namespace():
    """Drop the capabilities this process holds in its user namespace: the mounts made above
    become locked, so student code cannot unmount them to reveal what they cover."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(0x10000000) != 0:  # CLONE_NEWUSER
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWUSER) failed")


def stage2(config: dict):
    limits = config["limits"]
    mode = config["mode"]
    if mode in ("namespace", "userns"):
        for path in config["hide"]:
            if os.path.isdir(path):
                _mount("-t", "tmpfs", "-o", "mode=0755,size=1m", "tmpfs", path)
            elif os.path.exists(path):
                _mount("--bind", "/dev/null", path)
        if mode == "namespace":
            _make_reachable(config["reachable"], config["stash"])
    mem = int(limits["memory_mb"]) * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["output_bytes"], limits["output_bytes"]))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NPROC, (limits["max_procs"], limits["max_procs"]))
    if mode == "userns":
        _enter_nested_user_namespace()
    if mode == "namespace":
        os.setgroups([])
        os.setgid(config["uid"])
        os.setuid(config["uid"])
    os.chdir(config["work"])
    # the request and reply channels become fds 3 and 4 (see worker.py)
    req_r, rep_w = config["fds"]
    moved = [os.dup(req_r), os.dup(rep_w)]
    for fd in (req_r, rep_w):
        os.close(fd)
    os.dup2(moved[0], 3)
    os.dup2(moved[1], 4)
    for fd in moved:
        if fd not in (3, 4):
            os.close(fd)
    os.set_inheritable(3, True)  # dup2 onto the same number keeps close-on-exec
    os.set_inheritable(4, True)
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    os.execve(sys.executable, [sys.executable, "-m", "autograder.sandbox.worker"], config["env"])


if __name__ == "__main__":
    stage2(json.loads(sys.argv[1]))
