"""A compile cache a student's worker can read but never write: JAX's persistent compilation cache,
filled by the grader alone.

Why: two thirds of grading a notebook is XLA compiling, and most of it is the same programs in every
student's worker (the eager operations of the test cells, the references, short solutions that lower
to the same HLO). JAX's persistent cache is keyed by the compiled program (HLO, options, backend,
versions), so a hit returns what the compile would have produced. But a cache entry is an
executable: whoever can write one for a common program runs code in every process that reads it
(JAX's own docs: "the compilation cache is considered trusted"). So:

- **Only the grader writes the shared folder** (`seal`), from the entries of a builder worker that ran
  trusted code only (the assignment's reference solutions through its test cells; see
  `grading/batch_cache.py`). No worker ever writes it: the entries cross the wire as bytes and the
  grader writes them, with a manifest of their SHA-256 digests and the manifest's own digest.
- **A worker verifies what it reads.** It gets the folder and the manifest's digest from the grader
  (environment of the worker, set before any student code exists), loads the manifest at start-up and
  accepts an entry only if its bytes hash to the manifest's value: an entry changed, planted or
  swapped on disk is a miss, whatever the sandbox mode. In the namespace modes the folder is also
  read-only inside the worker (every mount is), so the files cannot even be changed; in `process`
  mode they can be, by the grader's own user, and the digests are what holds.
- **What a worker compiles itself stays in its memory** (`TrustedCache.private`): later compiles of
  the same program in the same worker (the probes clear JAX's in-memory caches on purpose) are hits,
  and nothing leaves the process. A student can spoil only their own worker's entries, as they could
  patch anything in their own process.

The cache is installed in JAX as its persistent cache object, without `jax_compilation_cache_dir`,
so JAX never writes files, logs persistent misses as warnings, or turns on XLA's own GPU caches.
JAX times a cache hit as a compile (`backend_compile_duration` wraps the lookup), so compile counts
read by the checks are unchanged. The timing worker gets no cache: a compile-time check compiles cold.

This module is imported by the worker before student code runs and holds no state the grader reads
back except through the worker's replies (`stats`, `entries`).
"""
from __future__ import annotations

import hashlib
import json
import os

from .inside import is_within

# Set by the grader for a worker, read and removed by the worker at its start (`take_environment`),
# before student code exists. Their names do not name the grader: a student's code must not learn
# from its environment that it is being graded (tests/hostile: detect_grading_run).
ENV_FOLDER = "XLA_SHARED_CACHE"           # present: install the cache; its value, the sealed folder
ENV_DIGEST = "XLA_SHARED_CACHE_DIGEST"    # SHA-256 of the folder's manifest
MANIFEST = "manifest.json"
# What a worker keeps of its own compiles, in bytes (entries are tens of kB; a notebook makes
# hundreds): past this, new compiles are not kept.
PRIVATE_BUDGET = 128 * 2**20


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _entry_path(folder: str, key: str) -> str:
    # keys are "<module name>-<hex digest>"; anything else is not a key this cache wrote
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in key)
    return os.path.join(folder, safe + ".bin")


def seal(folder: str, entries: dict[str, bytes]) -> str:
    """Write `entries` and their manifest into `folder` (the grader's side), make them read-only and
    return the manifest's digest, which the workers are given."""
    os.makedirs(folder, exist_ok=True)
    manifest = {}
    for key, blob in sorted(entries.items()):
        path = _entry_path(folder, key)
        with open(path, "wb") as fh:
            fh.write(blob)
        os.chmod(path, 0o444)
        manifest[key] = _sha256(blob)
    data = json.dumps(manifest, sort_keys=True).encode()
    path = os.path.join(folder, MANIFEST)
    with open(path, "wb") as fh:
        fh.write(data)
    os.chmod(path, 0o444)
    os.chmod(folder, 0o755)   # readable by the workers' own uids (namespace mode), writable by none
    return _sha256(data)


def load_manifest(folder: str, digest: str) -> dict[str, str] | None:
    """The manifest in `folder` if its bytes hash to `digest`, else None (a changed manifest makes the
    whole folder unusable: every lookup is a miss)."""
    try:
        with open(os.path.join(folder, MANIFEST), "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    if not digest or _sha256(data) != digest:
        return None
    try:
        manifest = json.loads(data)
    except ValueError:
        return None
    return manifest if isinstance(manifest, dict) else None


def _cache_interface():
    try:
        from jax._src.compilation_cache_interface import CacheInterface
    except ImportError:  # pragma: no cover - a JAX that moved it: no cache, grading as before
        return None
    return CacheInterface


def make_cache(folder: str | None, manifest: dict[str, str] | None):
    """A JAX cache object over the sealed `folder` (entries checked against `manifest`) and this
    process's own compiles (kept in memory)."""
    base = _cache_interface()

    class TrustedCache(base):
        def __init__(self):
            self._path = folder or ""
            self.private: dict[str, bytes] = {}
            self.private_bytes = 0
            self.counts = {"shared_hits": 0, "private_hits": 0, "misses": 0, "rejected": 0, "kept": 0}

        def get(self, key: str):
            blob = self.private.get(key)
            if blob is not None:
                self.counts["private_hits"] += 1
                return blob
            expected = manifest.get(key) if manifest else None
            if expected is not None:
                try:
                    with open(_entry_path(folder, key), "rb") as fh:
                        blob = fh.read()
                except OSError:
                    blob = None
                if blob is not None and _sha256(blob) == expected:
                    self.counts["shared_hits"] += 1
                    return blob
                self.counts["rejected"] += 1
            self.counts["misses"] += 1
            return None

        def put(self, key: str, value: bytes):
            if self.private_bytes + len(value) > PRIVATE_BUDGET or key in self.private:
                return
            self.private[key] = bytes(value)
            self.private_bytes += len(value)
            self.counts["kept"] += 1

        def clear(self):
            self.private.clear()
            self.private_bytes = 0

    return TrustedCache()


_installed = None


def install(folder: str | None = None, digest: str | None = None):
    """Make JAX use a `TrustedCache` in this process (before its first compile, so the whole
    notebook uses it). Returns the cache, or None where this JAX has no place for one."""
    global _installed
    if _installed is not None:
        return _installed
    if _cache_interface() is None:
        return None
    import jax
    from jax._src import compilation_cache as jax_cache
    manifest = load_manifest(folder, digest) if folder else None
    cache = make_cache(folder if manifest is not None else None, manifest)
    cache.manifest_ok = manifest is not None or not folder
    jax_cache.reset_cache()
    jax.config.update("jax_enable_compilation_cache", True)
    # every compile is worth keeping: a worker's compiles are 10 to 100 ms each
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
    jax_cache._cache = cache
    _installed = cache
    return cache


_given: dict | None = None


def take_environment():
    """In a worker, at its start: keep what the grader set and remove it from the environment."""
    global _given
    _given = {name: os.environ.pop(name) for name in (ENV_FOLDER, ENV_DIGEST) if name in os.environ}


def install_from_environment():
    """In a worker: install the cache when the grader asked for it, over the sealed folder it named,
    if any. Called once JAX is imported, before student code runs."""
    if not _given or ENV_FOLDER not in _given:
        return None
    return install(_given[ENV_FOLDER] or None, _given.get(ENV_DIGEST) or None)


def stats() -> dict:
    """Counts of this process's lookups, for the grader's report."""
    if _installed is None:
        return {"installed": False}
    return {"installed": True, "manifest_ok": _installed.manifest_ok, **_installed.counts,
            "private_entries": len(_installed.private)}


def entries() -> dict[str, bytes]:
    """What this process compiled (the builder worker's answer to the grader)."""
    return dict(_installed.private) if _installed is not None else {}


def for_worker(limits, hide: list[str]) -> tuple[str, dict[str, str]]:
    """The grader's side: the folder a worker of `limits` reads ("" for none) and the environment
    that gives it the cache ({} when off). The folder is made reachable in the worker's namespaces,
    where it is read-only like every mount; one inside a hidden path is not given, since opening it
    would open what hides it."""
    if not limits.compile_cache:
        return "", {}
    folder = limits.compile_cache_folder
    if folder and any(is_within(folder, h) for h in hide):
        folder = ""
    return folder, {ENV_FOLDER: folder, ENV_DIGEST: limits.compile_cache_digest or ""}
