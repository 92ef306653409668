"""Which accelerators the students' workers may use, and the environment each worker gets for them.

The grader decides this before any worker starts and without importing JAX: importing it would
start JAX's backends in the grader (whose own JAX stays on the CPU, see `grading.startup.isolate_jax_for_grader`)
and cost a second per decision. What it reads instead:

- `AUTOGRADER_GPUS`, when set: the GPUs to use, as a count (`8`) or as ids (`0,2,5`); `0` means
  none. Tests fake 1, 2 or 8 GPUs with it; an admin can pin the grader to some GPUs with it.
- else `CUDA_VISIBLE_DEVICES` of the grader's environment, when the admin set it: those GPUs only;
- else the GPUs the NVIDIA driver lists (/proc/driver/nvidia/gpus/*, else `nvidia-smi -L`, else the
  /dev/nvidiaN device nodes);
- TPUs: /dev/accel* (or /dev/vfio/N) device nodes.

How workers share GPUs (`DevicePlan`): the GPUs are cut into groups of `devices_per_worker`; each
worker takes the least used group when it starts (a lease, given back when it ends), and its
`CUDA_VISIBLE_DEVICES` names that group only. JAX would otherwise preallocate 75% of every visible
GPU's memory in each worker, so that a second worker on the same GPU fails. Each worker instead
gets `XLA_PYTHON_CLIENT_PREALLOCATE=false` (memory is taken as arrays need it) *and*
`XLA_PYTHON_CLIENT_MEM_FRACTION` = 0.75 / (workers sharing a group): the fraction still caps what
XLA's allocator may take when it does not preallocate, so the same 75% JAX takes for one process is
split evenly, and a GPU-memory bomb in one worker runs out of its own share instead of its
neighbour's. Variables the admin set in the grader's environment win over these defaults.

TPUs are not split: libtpu opens every chip of the host exclusively, so TPU workers run one at a
time, each with every chip.
"""
from __future__ import annotations

import glob
import math
import os
import re
import shutil
import subprocess
import threading
from dataclasses import dataclass
from functools import lru_cache

GPUS_ENV = "AUTOGRADER_GPUS"
# JAX's own default share of a GPU for one process; split between the workers that share one.
JAX_DEFAULT_FRACTION = 0.75
# Workers per GPU when --jobs is not given: a worker's CUDA context and libraries take well under
# 1 GB of the card, and 75%/4 of an 80 GB card (15 GB) is far more than any exercise needs; beyond a
# few workers per GPU the grader's own CPU work (references, comparisons) is the limit, so the
# default is also capped by the number of cores.
DEFAULT_WORKERS_PER_GPU = 4
# Allocator variables an admin may set for the workers; passed on as they are when set.
_ADMIN_XLA = ("XLA_PYTHON_CLIENT_PREALLOCATE", "XLA_PYTHON_CLIENT_MEM_FRACTION", "XLA_PYTHON_CLIENT_ALLOCATOR")


@dataclass(frozen=True)
class Accelerators:
    kind: str            # "gpu", "tpu", or "" where there is none
    ids: tuple           # GPU ids (or UUIDs) as CUDA_VISIBLE_DEVICES names them; TPU chip numbers
    source: str          # where the list came from, for messages and labcheck

    @property
    def count(self) -> int:
        return len(self.ids)


def _cuda_visible(value: str) -> tuple:
    """CUDA's reading of CUDA_VISIBLE_DEVICES: the entries up to the first invalid one (-1 ends it)."""
    ids = []
    for entry in value.split(","):
        entry = entry.strip()
        if not entry or entry.startswith("-"):
            break
        ids.append(entry)
    return tuple(ids)


def _nvidia_smi_ids() -> tuple:
    if not shutil.which("nvidia-smi"):
        return ()
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return ()
    return tuple(str(i) for i, line in enumerate(l for l in out.splitlines() if l.startswith("GPU ")))


@lru_cache(maxsize=None)
def _discover(override, cuda_visible) -> Accelerators:
    if override is not None:
        override = override.strip()
        if override.isdigit():
            return Accelerators("gpu" if int(override) else "", tuple(str(i) for i in range(int(override))),
                                GPUS_ENV)
        ids = _cuda_visible(override)
        return Accelerators("gpu" if ids else "", ids, GPUS_ENV)
    if cuda_visible is not None:
        ids = _cuda_visible(cuda_visible)
        return Accelerators("gpu" if ids else "", ids, "CUDA_VISIBLE_DEVICES")
    found = sorted(glob.glob("/proc/driver/nvidia/gpus/*"))
    if found:
        return Accelerators("gpu", tuple(str(i) for i in range(len(found))), "/proc/driver/nvidia/gpus")
    nodes = [p for p in glob.glob("/dev/nvidia*") if re.fullmatch(r"/dev/nvidia\d+", p)]
    if nodes:
        ids = _nvidia_smi_ids() or tuple(str(i) for i in range(len(nodes)))
        return Accelerators("gpu", ids, "nvidia-smi -L" if shutil.which("nvidia-smi") else "/dev/nvidia*")
    chips = glob.glob("/dev/accel[0-9]*") or [p for p in glob.glob("/dev/vfio/*") if os.path.basename(p).isdigit()]
    if chips:
        return Accelerators("tpu", tuple(str(i) for i in range(len(chips))), "/dev/accel*")
    return Accelerators("", (), "none found")


def discover(environ=None) -> Accelerators:
    """The accelerators the grader may hand to workers (see the module's docstring)."""
    environ = os.environ if environ is None else environ
    return _discover(environ.get(GPUS_ENV), environ.get("CUDA_VISIBLE_DEVICES"))


def worker_platforms(environ=None) -> str:
    """The JAX_PLATFORMS the student's worker gets ("" lets JAX choose)."""
    environ = os.environ if environ is None else environ
    return environ.get("AUTOGRADER_WORKER_JAX_PLATFORMS", environ.get("JAX_PLATFORMS", "")) or ""


def cpu_only(platforms: str) -> bool:
    names = [p.strip() for p in platforms.split(",") if p.strip()]
    return bool(names) and all(p == "cpu" for p in names)


@lru_cache(maxsize=None)
def _plugin_installed() -> bool:
    """A JAX accelerator plugin is installed (found without importing it or JAX)."""
    from importlib.util import find_spec
    for name in ("jax_cuda13_plugin", "jax_cuda12_plugin", "jax_plugins.xla_cuda13",
                 "jax_plugins.xla_cuda12", "libtpu"):
        try:
            if find_spec(name) is not None:
                return True
        except (ImportError, ValueError):
            continue
    return False


def accelerator_may_be_used(environ=None) -> bool:
    """Whether a worker's JAX may start an accelerator: its platforms do not force the CPU, and an
    accelerator is present (device nodes or a JAX accelerator plugin). With `AUTOGRADER_GPUS` set,
    that count alone decides."""
    environ = os.environ if environ is None else environ
    if cpu_only(worker_platforms(environ)):
        return False
    found = discover(environ)
    if found.count or found.source == GPUS_ENV:
        return bool(found.count)
    return _plugin_installed()


# ------------------------------------------------------------------ sharing
@dataclass(frozen=True)
class DevicePlan:
    kind: str                 # "gpu", "tpu" or ""
    groups: tuple             # the device ids each lease hands out (a tuple of tuples)
    workers_per_group: int    # workers that may hold one group at the same time

    def environment(self, group: int | None, environ=None) -> dict:
        """The variables a worker holding `group` gets (on top of the sandbox's scrubbed environment)."""
        if self.kind != "gpu":
            return admin_allocator_settings(environ)
        env = share_environment(self.groups[group] if group is not None else None, self.workers_per_group, environ)
        # the driver's JIT cache would go to HOME, on the worker's small private disk, and a fresh
        # worker never finds it again
        env.setdefault("CUDA_CACHE_DISABLE", "1")
        return env


def admin_allocator_settings(environ=None) -> dict:
    """The allocator variables the admin set (they win over the shares below)."""
    environ = os.environ if environ is None else environ
    return {key: environ[key] for key in _ADMIN_XLA if key in environ}


def share_environment(devices, sharers: int, environ=None) -> dict:
    """A process's share of GPUs, for every process that takes one: each grading worker (through
    `DevicePlan.environment`) and each student's server on the lab's hub (`lab/hub_spawn.py`).
    `devices`: the ids it may see (None: leave CUDA_VISIBLE_DEVICES as it is); `sharers`: how many
    processes share those devices. No preallocation, and JAX's default 75% split evenly."""
    env = {"XLA_PYTHON_CLIENT_PREALLOCATE": "false",
           "XLA_PYTHON_CLIENT_MEM_FRACTION": f"{JAX_DEFAULT_FRACTION / max(1, sharers):.4g}"}
    if devices is not None:
        env["CUDA_VISIBLE_DEVICES"] = ",".join(devices)
    env.update(admin_allocator_settings(environ))
    return env


def plan_over(ids: tuple, jobs: int, devices_per_worker: int = 1) -> DevicePlan:
    """`jobs` processes over the GPUs `ids`, in groups of `devices_per_worker` (none: an empty plan)."""
    if not ids:
        return DevicePlan("", (), 1)
    per = min(devices_per_worker, len(ids))
    groups = tuple(tuple(ids[i:i + per]) for i in range(0, len(ids) - per + 1, per))
    return DevicePlan("gpu", groups, max(1, math.ceil(max(1, jobs) / len(groups))))


def make_plan(jobs: int, devices_per_worker: int = 1, environ=None) -> DevicePlan:
    """How `jobs` workers share the accelerators the worker may use (none: an empty plan)."""
    environ = os.environ if environ is None else environ
    if devices_per_worker < 1:
        raise ValueError(f"--devices-per-worker must be at least 1 (got {devices_per_worker})")
    if not accelerator_may_be_used(environ):
        return DevicePlan("", (), 1)
    found = discover(environ)
    if found.kind != "gpu" or not found.count:
        return DevicePlan(found.kind, (), 1)   # TPUs (and plugins without devices): not split
    return plan_over(found.ids, jobs, devices_per_worker)


def default_jobs(items: int, devices_per_worker: int = 1, environ=None) -> int:
    """`--jobs` when not given: the cores on a CPU-only machine; on GPUs, DEFAULT_WORKERS_PER_GPU
    per group of devices (capped by the cores); on TPUs, 1 (libtpu takes every chip)."""
    environ = os.environ if environ is None else environ
    cores = os.cpu_count() or 1
    jobs = cores
    if accelerator_may_be_used(environ):
        found = discover(environ)
        if found.kind == "gpu" and found.count:
            groups = max(1, found.count // max(1, min(devices_per_worker, found.count)))
            jobs = min(cores, groups * DEFAULT_WORKERS_PER_GPU)
        elif found.kind == "tpu":
            jobs = 1
    return max(1, min(items, jobs)) if items else max(1, jobs)


# ------------------------------------------------------------------ leases
_lock = threading.Lock()
_held: dict = {}      # group (tuple of ids) -> workers holding it now
_next: dict = {}      # plan's groups -> where the next tie-break starts (round robin)
_first = 0            # where a batch starts when no group is held (`start_at`)


def start_at(index: int):
    """Start this process's batches on group `index` (mod the groups): grader processes of one
    batch (grading/processes.py), each holding few workers, then spread over the GPUs."""
    global _first
    _first = max(0, int(index))


class Lease:
    """One worker's hold on a group of devices: the least held group, ties taken round robin
    (from the first group when none is held)."""

    def __init__(self, plan: DevicePlan, environ=None):
        self.plan = plan
        self.group = None
        if plan.groups:
            with _lock:
                n = len(plan.groups)
                idle = not any(_held.get(g, 0) for g in plan.groups)
                start = _first % n if idle else _next.get(plan.groups, 0)   # a new batch: the first
                order = [(start + i) % n for i in range(n)]
                self.group = min(order, key=lambda g: _held.get(plan.groups[g], 0))
                _held[plan.groups[self.group]] = _held.get(plan.groups[self.group], 0) + 1
                _next[plan.groups] = (self.group + 1) % n
        self.environment = plan.environment(self.group, environ)

    @property
    def devices(self) -> tuple:
        return self.plan.groups[self.group] if self.group is not None else ()

    def release(self):
        if self.group is None:
            return
        with _lock:
            key = self.plan.groups[self.group]
            _held[key] = max(0, _held.get(key, 0) - 1)
        self.group = None
