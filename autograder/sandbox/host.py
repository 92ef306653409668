"""What the grader keeps on the host for its workers: scratch folders (and the sweep of those a
killed grader left), the leases of the unprivileged uids its namespaced workers run under, and the
folders of the host a worker must still reach (the interpreter, its libraries, this package), and
the few folders that cover what it must not."""
from __future__ import annotations

import functools
import os
import shutil
import site
import sys
import tempfile
import threading
import time

from .inside import SYSTEM_FOLDERS

# A worker's scratch folder on the host is named after the grader that made it, so that a later
# grader can tell a dead grader's leftovers (SIGKILL and the OOM killer leave no chance to clean up)
# from a live grader's folder.
SCRATCH_PREFIX = "jaxcourse-worker-"
ORPHAN_AGE_S = 3600  # also required of a leftover: a grader in another PID namespace looks dead
_swept = threading.Event()


def make_scratch() -> str:
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


def sweep_orphaned_scratch(root: str | None = None, min_age_s: float = ORPHAN_AGE_S,
                           prefix: str = SCRATCH_PREFIX) -> list[str]:
    """Remove the scratch folders (named `<prefix><grader's pid>-...`) whose grader is gone and that
    nobody touched for `min_age_s`; return their paths. Runs once per grader process, before its
    first worker (and for the batches' compile caches, before a batch's first)."""
    root = root or tempfile.gettempdir()
    removed, now = [], time.time()
    try:
        entries = list(os.scandir(root))
    except OSError:
        return removed
    for entry in entries:
        owner = entry.name[len(prefix):].split("-", 1)[0]
        if not (entry.name.startswith(prefix) and owner.isdigit()):
            continue
        try:
            if not entry.is_dir(follow_symlinks=False) or now - entry.stat(follow_symlinks=False).st_mtime < min_age_s:
                continue
        except OSError:
            continue
        if int(owner) != os.getpid() and not _alive(int(owner)):
            try:
                os.chmod(entry.path, 0o700)   # a sealed compile cache cannot be listed until then
            except OSError:
                pass
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(entry.path)
    return removed


# Each namespaced worker runs under its own unprivileged uid (no passwd entry needed), so that
# RLIMIT_NPROC, which counts per uid, bounds each student's processes separately: one student's
# fork bomb cannot starve another's worker of threads. Uids are leased (`UidLease`), never derived
# from the grader's pid: two graders on one host must not hand a live worker's uid to another.
UID_BASE = 200_000
UID_RANGE = 100_000

def _uid_lock_dir() -> str:
    """Where uid leases are kept: one folder for every grader on the host."""
    for base in ("/run/lock", "/var/lock", tempfile.gettempdir()):
        if os.path.isdir(base) and os.access(base, os.W_OK):
            path = os.path.join(base, "jaxcourse-uids")
            os.makedirs(path, mode=0o700, exist_ok=True)
            return path
    raise RuntimeError("no writable folder for worker uid leases")


class UidLease:
    """An unprivileged uid of `[base, base + span)` (by default `[UID_BASE, UID_BASE + UID_RANGE)`,
    the workers' range) held for one worker: an exclusive flock on `<lock dir>/<uid>`, which the
    kernel drops when the grader closes it or dies, so a uid is never handed out twice while its
    worker lives, by this grader or another on the host."""

    def __init__(self, lock_dir: str | None = None, tries: int = 2000, base: int | None = None,
                 span: int | None = None):
        import fcntl
        import random
        lock_dir = lock_dir or _uid_lock_dir()
        base = UID_BASE if base is None else base
        span = UID_RANGE if span is None else span
        for _ in range(tries):
            uid = base + random.randrange(span)
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




def python_roots() -> list[str]:
    """The folders a worker needs from the host besides the system's own (`inside.SYSTEM_FOLDERS`):
    the interpreter, the standard library, the site folders and what their `.pth` files add, the
    PYTHONPATH entries the worker inherits, and this package. Not the grader's own `sys.path`:
    its first entry is the grader's working folder (the instructor's home, a course), and a test
    runner adds its own. A folder that holds this package (a checkout: its source/, tests/ and
    .git beside the package, or the course itself) gives only the package's folder."""
    package = os.path.realpath(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    roots = {os.path.realpath(p) for p in (sys.base_prefix, sys.prefix, os.path.dirname(sys.executable))}
    sites = [*site.getsitepackages(), *([site.getusersitepackages()] if site.ENABLE_USER_SITE else [])]
    entries = [*sites, *os.environ.get("PYTHONPATH", "").split(os.pathsep)]
    for folder in sites:
        entries += _pth_entries(folder)
    for entry in entries:
        if entry and os.path.isdir(entry):
            entry = os.path.realpath(entry)
            holds_package = package.startswith(entry.rstrip(os.sep) + os.sep)
            roots.add(package if holds_package else entry)
    roots.add(package)
    return sorted(roots)


def _pth_entries(folder: str) -> list[str]:
    """The folders a site folder's `.pth` files add to `sys.path` (their lines that are not imports)."""
    found = []
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".pth"))
    except OSError:
        return found
    for name in names:
        try:
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as fh:
                lines = fh.read().splitlines()
        except OSError:
            continue
        for line in lines:
            line = line.strip()
            if line and not line.startswith(("#", "import ", "import\t")):
                found.append(os.path.join(folder, line))
    return found


@functools.lru_cache(maxsize=16)
def covering_folders(hide: tuple[str, ...], keep: tuple[str, ...]) -> tuple[str, ...]:
    """What a worker's mounts cover so that every path of `hide` is out of its reach and every path
    of `keep` stays in it, in as few mounts as that allows.

    Each hidden path is replaced by its highest ancestor that neither holds a kept path nor lies in
    one, below the host's top level (`inside._only_the_system` decides there) and never inside a
    system folder but /tmp; a path under another one is dropped, and a hidden path that holds a
    kept one is left out (what a worker must read wins). Why: every notebook of a batch is hidden
    from every worker, and one path each made a class of n students n mounts per worker and about
    10 n path resolutions per worker start in the grader (271 ms a worker at 1,000 notebooks, 1.6 s
    at 8,000; benchmarks/README.md): in nbgrader's submitted/<student>/<assignment>/ layout the whole
    batch is one folder. Memoized: a batch asks the same question at every worker start."""
    kept = [os.path.realpath(k) for k in keep]

    def within(path: str, folder: str) -> bool:   # both resolved already (a resolved path's parents are)
        return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)

    @functools.lru_cache(maxsize=None)
    def reachable(folder: str) -> bool:   # holds a kept path, or lies in one
        return any(within(k, folder) or within(folder, k) for k in kept)

    covers: set[str] = set()
    for path in hide:
        path = os.path.realpath(path)
        if any(within(k, path) for k in kept):
            continue
        top = path.split(os.sep)[1] if path.count(os.sep) > 1 else ""
        if top in SYSTEM_FOLDERS - {"tmp"} or reachable(path):
            covers.add(path)
            continue
        parent = os.path.dirname(path)
        while parent.count(os.sep) > 1 and not reachable(parent):
            path, parent = parent, os.path.dirname(parent)
        covers.add(path)
    return tuple(sorted(c for c in covers if not any(o != c and within(c, o) for o in covers)))
