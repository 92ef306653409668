"""The compile cache of one batch: built from trusted code, read by every student's worker.

Before the first notebook of an assignment is graded, a *builder* grades the assignment's reference
solutions through its test cells, in a sandboxed worker of its own like any student's. That worker
keeps what it compiles in memory (`sandbox/compile_cache.py`); the grader asks it for the entries and
writes them itself into a fresh folder with a manifest of their digests (`compile_cache.seal`). The
students' workers of the batch then read that folder, and accept an entry only if it matches the
manifest whose digest the grader gave them. Nothing a student's worker does reaches the folder: it
never writes there (read-only mount in the namespace modes, and it is never asked to), and what it
could change on disk in `process` mode fails the digest check and counts as a miss.

The timing worker (performance checks) gets no cache, so a compile-time budget is measured cold.
If the builder fails (a broken reference, a worker that cannot start), the batch is graded without
a shared folder: each worker still keeps its own compiles (only its own), and verdicts are the same.
"""
from __future__ import annotations

import dataclasses
import os
import shutil
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from ..course.layout import Assignment
from ..sandbox import compile_cache
from ..sandbox.host import sweep_orphaned_scratch
from ..sandbox.inside import is_within
from ..sandbox.process import Limits, WorkerDied
from . import timeouts, timing


FOLDER_PREFIX = "batch-"


def cache_root() -> Path:
    """Where batches keep their folders: the grader's cache directory, not /tmp (which the namespace
    modes hide from workers, with every other worker's scratch in it)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "jax-course" / "compile-cache"


@dataclasses.dataclass
class Built:
    folder: str = ""
    digest: str = ""
    entries: int = 0
    bytes: int = 0
    seconds: float = 0.0
    error: str = ""
    reference_seconds: dict = dataclasses.field(default_factory=dict)   # per cell, as the builder measured them


class BatchCache:
    """One batch's compile caches, one per assignment, each built the first time a notebook of that
    assignment needs it (the other notebooks of the assignment wait for it). `close()` removes them."""

    def __init__(self, limits: Limits, hide: list[str], root: Path | None = None, builds: bool = True):
        self.limits = limits
        self.hide = list(hide)
        self.builds = builds    # False in a grader process: the command builds, and sends `built`
        self.root = Path(root) if root else cache_root()
        self.built: dict[str, Built] = {}
        self.stats: Counter = Counter()
        self._locks: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()

    def limits_for(self, spec: Assignment) -> Limits:
        """The limits a student's worker of `spec` gets: the sealed folder and its digest. The first
        caller builds it; a caller that comes while it is being built does not wait (its worker keeps
        only its own compiles), so that no core sits idle during the build."""
        with self._lock:
            lock = self._locks.setdefault(spec.name, threading.Lock())
        if self.builds and lock.acquire(blocking=spec.name in self.built):
            try:
                if spec.name not in self.built:
                    self.built[spec.name] = self._build(spec)
            finally:
                lock.release()
        built = self.built.get(spec.name) or Built()
        return dataclasses.replace(self.limits, compile_cache=True, compile_cache_folder=built.folder,
                                   compile_cache_digest=built.digest,
                                   cell_timeouts=timeouts.derive(built.reference_seconds) or None)

    def build(self, spec: Assignment) -> Built:
        """The sealed cache of `spec`, built now if it was not (for a run of `nbgrader autograde`,
        whose kernels read it: `classroom/kernel_cache.py`)."""
        self.limits_for(spec)
        return self.built.get(spec.name) or Built()

    def _folder(self, name: str) -> str | None:
        """A fresh folder for `name`'s entries, or None where workers could not be given it safely
        (inside a path hidden from them: opening it would open its hidden ancestor)."""
        self.root.mkdir(parents=True, exist_ok=True)
        os.chmod(self.root, 0o700)   # a worker of another uid cannot even traverse to a batch's folder
        sweep_orphaned_scratch(str(self.root), min_age_s=60, prefix=FOLDER_PREFIX)  # batches killed midway
        folder = tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-{name}-", dir=self.root)
        if any(is_within(folder, h) for h in [*self.hide, tempfile.gettempdir()]):
            os.rmdir(folder)
            return None
        return folder

    def _build(self, spec: Assignment) -> Built:
        from .session import GradingSession
        started = time.perf_counter()
        solutions = {cell.grade_id: cell.source for cell in spec.solution_cells}
        # the performance checks run in a timing worker, which compiles cold: nothing to collect
        spec = dataclasses.replace(spec, cells=[c for c in spec.cells if not (
            c.role == "test" and timing.needs_timing_worker([c]))])
        builder = dataclasses.replace(self.limits, compile_cache=True, compile_cache_folder="",
                                      compile_cache_digest="")
        try:
            folder = self._folder(spec.name)
            if folder is None:
                return Built(error=f"{self.root} lies inside a path hidden from workers")
            session = GradingSession(spec, solutions, builder, hide=self.hide)
            try:
                result = session.grade()
                reply = session.compile_cache_reply(entries=True)
                measured = {**session.exec_seconds, **{c.name: c.seconds for e in result.exercises.values()
                                                       for c in e.checks if c.passed}}
            finally:
                session.close()
            if not reply or not isinstance(reply.get("keys"), list):
                return Built(folder=folder, error="the builder worker gave no entries")
            entries = {key: blob.tobytes() for key, blob in zip(reply["keys"], reply["blobs"])}
            digest = compile_cache.seal(folder, entries)
        except (OSError, RuntimeError, WorkerDied) as exc:
            return Built(error=f"{type(exc).__name__}: {exc}")
        return Built(folder=folder, digest=digest, entries=len(entries),
                     bytes=sum(len(b) for b in entries.values()),
                     seconds=round(time.perf_counter() - started, 2), reference_seconds=measured)

    def record(self, stats: dict | None):
        """Add one worker's lookup counts (its reply to `compile_cache`) to the batch's."""
        if not stats or not stats.get("installed"):
            return
        with self._lock:
            self.stats["workers"] += 1
            for key in ("shared_hits", "private_hits", "misses", "rejected"):
                value = stats.get(key)
                if isinstance(value, int) and value >= 0:
                    self.stats[key] += value

    def merge(self, counts: dict):
        """Add another grader process's counts (`processes.py`)."""
        with self._lock:
            for key, value in (counts or {}).items():
                if isinstance(value, int) and value >= 0:
                    self.stats[key] += value

    def summary(self) -> dict:
        """Lookups and the build of each assignment, for benchmarks and `--verbose` reports."""
        lookups = sum(self.stats[k] for k in ("shared_hits", "private_hits", "misses"))
        hits = self.stats["shared_hits"] + self.stats["private_hits"]
        return {"lookups": lookups, "hit_share": round(hits / lookups, 3) if lookups else 0.0,
                **dict(self.stats),
                "built": {name: dataclasses.asdict(b) for name, b in self.built.items()}}

    def close(self):
        for built in self.built.values():
            if built.folder:
                compile_cache.unseal(built.folder)
                shutil.rmtree(built.folder, ignore_errors=True)
