"""The worker's memory cap: which kind applies, and the cgroup that holds it when it is one.

Four kinds (the result's `memory_limit` names the one applied, e.g. "cgroup 4096 MB"):

- `rlimit-as`: RLIMIT_AS caps the address space. An allocation past it fails at once (MemoryError,
  RESOURCE_EXHAUSTED) and the worker lives on, which gives the clearest message. But the CUDA
  driver reserves far more virtual address space than that when it starts (unified addressing maps
  host and device memory into one space), so a worker capped this way cannot start a GPU. Used
  whenever the worker's JAX will run on the CPU.
- `cgroup`: a memory cgroup per worker (v2: `memory.max`, `memory.swap.max` = 0; v1:
  `memory.limit_in_bytes` and `memory.memsw.limit_in_bytes`). It counts pages really used, not
  address space reserved, so CUDA starts; past the cap the kernel's OOM killer ends the worker, and
  the grader reports that it ran out of memory. Needs root (or a delegated subtree) and a writable
  hierarchy with the memory controller. Used when an accelerator may be used and such a cgroup can
  be made.
- `rlimit-data`: RLIMIT_DATA caps private writable mappings (heap, anonymous mmap); the driver's
  reservations (PROT_NONE) and its device mappings (shared) are not counted. The fallback where an
  accelerator may be used and no cgroup can be made; labcheck measures whether CUDA starts under it.
- `none`: no cap; only when asked for.

Where the cgroups go: cgroup v2, under the nearest ancestor of the grader's own cgroup that hands the
memory controller to its children, in a subtree `jaxcourse/` (a cgroup with processes cannot hand out
controllers, so the grader's own cgroup is not used unless it is the root); cgroup v1 (no
"no internal processes" rule), directly under the grader's own memory cgroup. Either way any limit
above the grader still applies to its workers. The worker's first process moves itself in
(`enter`, before it forks the worker), so nothing it runs escapes; `Cap.remove` deletes the cgroup
when the worker is closed, and cgroups left by a dead grader are removed by the next one.

This module runs in the grader and, for `enter` and `apply_rlimit`, in the sandbox's first process:
standard library only.
"""
from __future__ import annotations

import itertools
import os
import re
import resource
import threading
import time
from dataclasses import dataclass
from functools import lru_cache

MODES = ("auto", "cgroup", "rlimit-data", "rlimit-as", "none")
SUBTREE = "jaxcourse"
_counter = itertools.count()
_swept = threading.Event()


@dataclass(frozen=True)
class Hierarchy:
    version: int     # 1 or 2
    parent: str      # the folder that holds the workers' cgroups


def _mounts() -> list[tuple[str, str, str]]:
    """(mount point, file system type, super options) of this mount namespace."""
    out = []
    try:
        with open("/proc/self/mountinfo") as fh:
            for line in fh:
                left, _, right = line.partition(" - ")
                fields, rest = left.split(), right.split()
                if len(fields) >= 5 and len(rest) >= 3:
                    out.append((fields[4].replace("\\040", " "), rest[0], rest[2]))
    except OSError:
        pass
    return out


def _own_cgroups() -> dict[str, str]:
    """The grader's cgroup paths: {"v2": path} and {"memory": path} for a v1 memory hierarchy."""
    own = {}
    try:
        with open("/proc/self/cgroup") as fh:
            for line in fh:
                num, controllers, path = line.rstrip("\n").split(":", 2)
                if num == "0" and controllers == "":
                    own["v2"] = path
                elif "memory" in controllers.split(","):
                    own["memory"] = path
    except (OSError, ValueError):
        pass
    return own


def _read(path: str) -> str:
    try:
        with open(path) as fh:
            return fh.read()
    except OSError:
        return ""


def _write(path: str, value: str):
    with open(path, "w") as fh:
        fh.write(value)


def _probe(parent: str, marker: str) -> bool:
    """A worker cgroup can be made under `parent`: make one, see its memory file, remove it."""
    probe = os.path.join(parent, f"probe-{os.getpid()}-{threading.get_ident()}")
    try:
        os.mkdir(probe)
    except OSError:
        return False
    try:
        return os.path.exists(os.path.join(probe, marker))
    finally:
        try:
            os.rmdir(probe)
        except OSError:
            pass


def _v2_parent(mount: str, own: str) -> str | None:
    if "memory" not in _read(os.path.join(mount, "cgroup.controllers")).split():
        return None  # the memory controller is bound to a v1 hierarchy (a hybrid set-up)
    rel = own.strip("/")
    while True:
        here = os.path.join(mount, rel) if rel else mount
        if "memory" in _read(os.path.join(here, "cgroup.subtree_control")).split():
            break
        if not rel:
            return None
        rel = os.path.dirname(rel)
    base = os.path.join(here, SUBTREE)
    try:
        os.makedirs(base, exist_ok=True)
        if "memory" not in _read(os.path.join(base, "cgroup.subtree_control")).split():
            _write(os.path.join(base, "cgroup.subtree_control"), "+memory")
    except OSError:
        return None
    return base if _probe(base, "memory.max") else None


@lru_cache(maxsize=None)
def hierarchy() -> Hierarchy | None:
    """Where this grader can make its workers' memory cgroups (v2 preferred), or None."""
    mounts, own = _mounts(), _own_cgroups()
    if "v2" in own:
        for point, fstype, _ in mounts:
            if fstype == "cgroup2":
                parent = _v2_parent(point, own["v2"])
                if parent:
                    return Hierarchy(2, parent)
    if "memory" in own:
        for point, fstype, options in mounts:
            if fstype == "cgroup" and "memory" in options.split(","):
                parent = os.path.join(point, own["memory"].strip("/"))
                if os.path.isdir(parent) and _probe(parent, "memory.limit_in_bytes"):
                    return Hierarchy(1, parent)
    return None


def choose(requested: str, accelerator: bool) -> str:
    """The kind of cap for a worker (see the module's docstring)."""
    if requested not in MODES:
        raise ValueError(f"unknown memory limit {requested!r} (one of {', '.join(MODES)})")
    if requested != "auto":
        if requested == "cgroup" and hierarchy() is None:
            raise RuntimeError("a cgroup memory limit is not available here (needs root and a writable "
                               "cgroup hierarchy with the memory controller)")
        return requested
    if not accelerator:
        return "rlimit-as"
    return "cgroup" if hierarchy() is not None else "rlimit-data"


def label(mode: str, mb: int) -> str:
    """The `memory_limit` value of a result."""
    return "none" if mode == "none" else f"{mode} {mb} MB"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep(h: Hierarchy):
    """Remove the (empty) worker cgroups of graders that are gone."""
    pattern = re.compile(r"(?:w|jaxcourse-)(\d+)-\d+$")
    try:
        names = os.listdir(h.parent)
    except OSError:
        return
    for name in names:
        m = pattern.match(name)
        if m and int(m.group(1)) != os.getpid() and not _pid_alive(int(m.group(1))):
            try:
                os.rmdir(os.path.join(h.parent, name))
            except OSError:
                pass


class Cap:
    """One worker's memory cap. For `cgroup`, the cgroup is made here and removed by `remove`."""

    def __init__(self, mode: str, mb: int):
        self.mode, self.mb = mode, int(mb)
        self.path = None
        self.version = 0
        if mode == "cgroup":
            h = hierarchy()
            if not _swept.is_set():
                _swept.set()
                sweep(h)
            name = f"{'w' if h.version == 2 else 'jaxcourse-'}{os.getpid()}-{next(_counter)}"
            path = os.path.join(h.parent, name)
            os.mkdir(path)
            try:
                limit = str(self.mb * 2**20)
                if h.version == 2:
                    _write(os.path.join(path, "memory.max"), limit)
                    if os.path.exists(os.path.join(path, "memory.swap.max")):
                        _write(os.path.join(path, "memory.swap.max"), "0")
                else:
                    _write(os.path.join(path, "memory.limit_in_bytes"), limit)
                    if os.path.exists(os.path.join(path, "memory.memsw.limit_in_bytes")):
                        _write(os.path.join(path, "memory.memsw.limit_in_bytes"), limit)
            except OSError:
                os.rmdir(path)
                raise
            self.path, self.version = path, h.version

    @property
    def label(self) -> str:
        return label(self.mode, self.mb)

    def config(self) -> dict:
        """What the sandbox's first process needs: `enter` and `apply_rlimit` read it."""
        return {"mode": self.mode, "bytes": self.mb * 2**20,
                "procs": os.path.join(self.path, "cgroup.procs") if self.path else None}

    def oom_killed(self) -> bool:
        """The kernel's OOM killer ended a process of this cgroup (the cap was reached)."""
        if not self.path:
            return False
        text = _read(os.path.join(self.path, "memory.events" if self.version == 2 else "memory.oom_control"))
        m = re.search(r"^oom_kill (\d+)$", text, re.M)
        return bool(m and int(m.group(1)) > 0)

    def peak_mb(self) -> float | None:
        """The most memory the cgroup held (None where the kernel does not say)."""
        if not self.path:
            return None
        text = _read(os.path.join(self.path, "memory.peak" if self.version == 2 else "memory.max_usage_in_bytes"))
        return round(int(text) / 2**20, 1) if text.strip().isdigit() else None

    def remove(self):
        """Delete the cgroup once its processes are gone (v2: ending any that are left first)."""
        if not self.path:
            return
        kill = os.path.join(self.path, "cgroup.kill")
        if os.path.exists(kill):
            try:
                _write(kill, "1")
            except OSError:
                pass
        for _ in range(100):
            try:
                os.rmdir(self.path)
                break
            except FileNotFoundError:
                break
            except OSError:
                time.sleep(0.02)   # the last processes are still exiting
        self.path = None


# ---------------------------------------------------------------- inside the sandbox
def enter(cfg: dict | None):
    """Move this process (the sandbox's first, before it forks the worker) into the worker's cgroup."""
    if cfg and cfg.get("procs"):
        _write(cfg["procs"], "0")


def apply_rlimit(cfg: dict | None):
    """Set the rlimit kind of cap in the process that becomes the worker."""
    mode = (cfg or {}).get("mode")
    which = {"rlimit-as": resource.RLIMIT_AS, "rlimit-data": resource.RLIMIT_DATA}.get(mode)
    if which is not None:
        resource.setrlimit(which, (cfg["bytes"], cfg["bytes"]))


def make_cap(requested: str, mb: int, accelerator: bool) -> Cap:
    """The cap for one worker; in `auto` mode a cgroup that cannot be made falls back to RLIMIT_DATA."""
    mode = choose(requested, accelerator)
    try:
        return Cap(mode, mb)
    except OSError as exc:
        if requested == "cgroup":
            raise RuntimeError(f"could not make the worker's memory cgroup: {exc}") from None
        return Cap("rlimit-data", mb)
