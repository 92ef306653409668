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
- **A worker reads it once, before student code, and keeps nothing to find it by.** The grader opens
  the folder and hands the worker that open folder (fd `FOLDER_FD`), with the manifest's digest;
  the folder is not mounted in the worker's namespaces (its parent is covered) and no path is given.
  At start-up the worker reads the manifest and every entry through that fd, keeps in memory only
  the entries whose bytes hash to the manifest's values (an entry changed, planted or swapped on
  disk is a miss), and closes the fd. Student code then finds no fd, no path and no mount that leads
  to the folder; the folder itself lets other users open an entry by name but not list it (mode
  0311), for a worker of `process` mode, which could walk to it.
- **What a worker compiles itself stays in its memory** (`TrustedCache.private`): later compiles of
  the same program in the same worker (the probes clear JAX's in-memory caches on purpose) are hits,
  and nothing leaves the process. A student can spoil only their own worker's entries, as they could
  patch anything in their own process.
- **A hit is loaded once per process** (`TrustedCache.loaded`): JAX turns an entry's bytes into an
  executable at every hit (about 2.5 ms on the course's CPU machine, most of a hit's cost), and a
  quarter of a notebook's lookups are a program the same process already loaded (each probe traces
  the student's function under a new jit, which lowers to the same program). The executable loaded
  the first time is returned again; it is immutable once built, and JAX's own caches share one
  executable between calls the same way.

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
FOLDER_FD = 6                             # the sealed folder, open, in a worker (sandbox/inside.py)
FOLDER_MODE = 0o311                       # entries opened by name; nobody but root lists it
# What a worker keeps of its own compiles, in bytes (entries are tens of kB; a notebook makes
# hundreds): past this, new compiles are not kept.
PRIVATE_BUDGET = 128 * 2**20
# Entries whose executables a process keeps loaded (each about its entry's size in memory again).
LOADED_MAX = 1024


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
    os.chmod(folder, FOLDER_MODE)   # entries opened by name by the workers' own uids; listed by none
    return _sha256(data)


def _read(folder, name: str) -> bytes | None:
    """A file of the sealed folder, given as a path or as an open folder (an fd)."""
    try:
        fd = os.open(name, os.O_RDONLY, dir_fd=folder) if isinstance(folder, int) else \
            os.open(os.path.join(folder, name), os.O_RDONLY)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        return fh.read()


def unseal(folder: str):
    """Let the grader remove a sealed folder (it cannot list it)."""
    if os.path.isdir(folder):
        os.chmod(folder, 0o700)


def load_manifest(folder, digest: str) -> dict[str, str] | None:
    """The manifest in `folder` if its bytes hash to `digest`, else None (a changed manifest makes the
    whole folder unusable: every lookup is a miss)."""
    data = _read(folder, MANIFEST)
    if data is None or not digest or _sha256(data) != digest:
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


def make_cache(folder, manifest: dict[str, str] | None):
    """A JAX cache object over the entries of the sealed `folder` (a path or an open folder), read
    now and kept only where their bytes match `manifest`, and this process's own compiles (kept in
    memory). It holds no path and no fd: nothing in it leads back to the folder."""
    base = _cache_interface()
    shared, rejected = {}, 0
    for key, expected in (manifest or {}).items():
        blob = _read(folder, os.path.basename(_entry_path("", key)))
        if blob is not None and _sha256(blob) == expected:
            shared[key] = blob
        else:
            rejected += 1

    class TrustedCache(base):
        def __init__(self):
            self._path = ""
            self.shared = shared
            self.private: dict[str, bytes] = {}
            self.private_bytes = 0
            self.loaded: dict = {}   # (key, backend, devices) -> (executable, compile time, backend): `load`
            self.counts = {"shared_hits": 0, "private_hits": 0, "misses": 0, "rejected": rejected, "kept": 0,
                           "reloads_saved": 0}

        def get(self, key: str):
            blob = self.private.get(key)
            if blob is not None:
                self.counts["private_hits"] += 1
                return blob
            blob = self.shared.get(key)
            if blob is not None:
                self.counts["shared_hits"] += 1
                return blob
            self.counts["misses"] += 1
            return None

        def put(self, key: str, value: bytes):
            if self.private_bytes + len(value) > PRIVATE_BUDGET or key in self.private:
                return
            self.private[key] = bytes(value)
            self.private_bytes += len(value)
            self.counts["kept"] += 1

        @staticmethod
        def _memo(cache_key, backend, executable_devices=None):
            # on a GPU the key leaves out which devices the program runs on: they are part of the memo
            cpu = getattr(backend, "platform", "") == "cpu"
            return (cache_key, id(backend)) if cpu else (cache_key, id(backend), executable_devices)

        def load(self, read, cache_key, compile_options, backend, executable_devices):
            """JAX's `get_executable_and_time` (`read`), but an entry this process already loaded
            (or compiled) is returned as it was; counted as the hit it would have been."""
            memo = self._memo(cache_key, backend, executable_devices)
            try:
                got = self.loaded.get(memo)
            except TypeError:   # devices that do not hash: no memo
                return read(cache_key, compile_options, backend, executable_devices)
            if got is not None and got[2] is backend:
                self.counts["private_hits" if cache_key in self.private else "shared_hits"] += 1
                self.counts["reloads_saved"] += 1
                return got[:2]
            executable, compile_time = read(cache_key, compile_options, backend, executable_devices)
            if executable is not None:
                self._remember(memo, executable, compile_time, backend)
            return executable, compile_time

        def compiled(self, cache_key, executable, backend, compile_time):
            """What this process compiled and JAX is putting in the cache: loaded already (on a CPU,
            whose keys name the devices)."""
            if getattr(backend, "platform", "") == "cpu" and cache_key in self.private:
                self._remember(self._memo(cache_key, backend), executable, compile_time, backend)

        def _remember(self, memo, executable, compile_time, backend):
            if len(self.loaded) < LOADED_MAX:
                self.loaded[memo] = (executable, compile_time, backend)

        def clear(self):
            self.private.clear()
            self.private_bytes = 0
            self.loaded.clear()

    return TrustedCache()


_installed = None


def install(folder=None, digest: str | None = None):
    """Make JAX use a `TrustedCache` in this process (before its first compile, so the whole
    notebook uses it). Returns the cache, or None where this JAX has no place for one."""
    global _installed
    if _installed is not None:
        return _installed
    if _cache_interface() is None:
        return None
    import jax
    from jax._src import compilation_cache as jax_cache
    manifest = load_manifest(folder, digest) if folder is not None else None
    cache = make_cache(folder if manifest is not None else None, manifest)
    cache.manifest_ok = manifest is not None or folder is None
    jax_cache.reset_cache()
    jax.config.update("jax_enable_compilation_cache", True)
    # every compile is worth keeping: a worker's compiles are 10 to 100 ms each
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
    jax_cache._cache = cache
    read = jax_cache.get_executable_and_time

    def get_executable_and_time(cache_key, compile_options, backend, executable_devices):
        if jax_cache._cache is not cache:   # set aside (a compile-time check's cold compile)
            return read(cache_key, compile_options, backend, executable_devices)
        return cache.load(read, cache_key, compile_options, backend, executable_devices)

    write = jax_cache.put_executable_and_time

    def put_executable_and_time(cache_key, module_name, executable, backend, compile_time):
        write(cache_key, module_name, executable, backend, compile_time)
        if jax_cache._cache is cache:
            cache.compiled(cache_key, executable, backend, compile_time)

    jax_cache.get_executable_and_time = get_executable_and_time
    jax_cache.put_executable_and_time = put_executable_and_time
    _installed = cache
    return cache


_given: dict | None = None


def take_environment():
    """In a worker, at its start: keep what the grader set and remove it from the environment."""
    global _given
    _given = {name: os.environ.pop(name) for name in (ENV_FOLDER, ENV_DIGEST) if name in os.environ}


def install_from_environment():
    """In a worker: install the cache when the grader asked for it, over the sealed folder it gave
    (open, as fd FOLDER_FD), if any; then close that fd. Called once JAX is imported, before student
    code runs."""
    global _given
    given, _given = _given, None
    if not given or ENV_FOLDER not in given:
        return None
    folder = FOLDER_FD if given[ENV_FOLDER] == "fd" else None
    try:
        return install(folder, given.get(ENV_DIGEST) or None)
    finally:
        if folder is not None:
            try:
                os.close(folder)
            except OSError:
                pass


def stats() -> dict:
    """Counts of this process's lookups, for the grader's report."""
    if _installed is None:
        return {"installed": False}
    return {"installed": True, "manifest_ok": _installed.manifest_ok, **_installed.counts,
            "private_entries": len(_installed.private)}


def entries() -> dict[str, bytes]:
    """What this process compiled (the builder worker's answer to the grader)."""
    return dict(_installed.private) if _installed is not None else {}


def for_worker(limits, hide: list[str], same_uid_namespaces: bool) -> tuple[int | None, dict[str, str], list[str]]:
    """The grader's side, for a worker of `limits`: the sealed folder opened (an fd the worker gets as
    FOLDER_FD; None for none), the environment that gives the worker the cache ({} when off;
    ENV_FOLDER is "fd" with a folder, "" for a cache of the worker's own compiles only) and the
    paths to hide. The folder is never mounted in the worker's namespaces. Its parent, the batches'
    root, is mode 0700: a `namespace` worker (a uid of its own) cannot traverse it; a `userns` worker
    (the grader's uid) could, so there the root is also covered (`same_uid_namespaces`), which names
    the root, not the folder, in the worker's mount table. A folder inside a hidden path is not given."""
    if not limits.compile_cache:
        return None, {}, hide
    folder = limits.compile_cache_folder
    if folder and any(is_within(folder, h) for h in hide):
        folder = ""
    env = {ENV_FOLDER: "fd" if folder else "", ENV_DIGEST: limits.compile_cache_digest or ""}
    if not folder:
        return None, env, hide
    return os.open(folder, os.O_PATH | os.O_DIRECTORY), env, [*hide, os.path.dirname(folder)] if same_uid_namespaces else hide
