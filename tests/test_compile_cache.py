"""The batch's compile cache (`sandbox/compile_cache.py`, `grading/batch_cache.py`): only the grader
writes it, a student's worker can neither change it nor be fooled by a changed copy, and verdicts,
messages and compile counts are the same with it as without it.

The attack is real, not assumed: a planted executable that the grader seals as if it were its own
changes a verdict (`test_a_planted_entry_sealed_as_trusted_would_change_a_verdict`); the same planted
entry, unsealed, changes nothing. The same holds in `nbgrader autograde`'s kernels where our runs
of nbgrader give them the folder (`classroom/kernel_cache.py`), and a compile-time check compiles
cold under an installed cache."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
from pathlib import Path

import nbformat
import pytest

from support.notebooks import code_cell, make_notebook

# A small assignment whose eager `jnp.sin` on float32[3] runs in the student's worker: its compiled
# program is the one the planting tests replace by a `jnp.cos` of the same signature.
WAVE = "def wave(x):\n    ### BEGIN SOLUTION\n    return jnp.sin(x)\n    ### END SOLUTION\n"
RETRACES = ("import functools\n\n@functools.partial(jax.jit, static_argnums=0)\n"
            "def wave(x):\n    return jnp.sin(x)\n")


def wave_cells(solution=WAVE):
    return [
        code_cell("import jax\nimport jax.numpy as jnp\nfrom autograder import check", "setup"),
        code_cell(solution, "wave", role="solution"),
        code_cell("check.assert_close(wave(jnp.arange(3.0)), jnp.sin(jnp.arange(3.0)), what='wave(x)')",
                  "wave_correctness", role="test", points=2),
        code_cell("check.assert_max_traces(wave, [(1.0,), (2.0,), (3.0,)], max_traces=1)",
                  "wave_retrace", role="test", points=1),
    ]


@pytest.fixture
def wave_course(tmp_path):
    from autograder.course import Course
    root = tmp_path / "course"
    (root / "source" / "wave").mkdir(parents=True)
    shutil.copy(Path(__file__).resolve().parent.parent / "nbgrader_config.py", root / "nbgrader_config.py")
    nbformat.write(make_notebook(wave_cells()), str(root / "source" / "wave" / "wave.ipynb"))
    return Course(root)


def submission(tmp_path, name, solution=WAVE) -> Path:
    path = tmp_path / "submitted" / name / "wave.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(make_notebook(wave_cells(solution)), str(path))
    return path


def checks(result) -> dict:
    """check name -> (passed, message): what a student sees."""
    if not isinstance(result, dict):
        result = result.to_json()
    return {c["name"]: (c["passed"], c["message"]) for e in result["exercises"].values() for c in e["checks"]}


def folder_digest(folder: str) -> dict:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(Path(folder).iterdir())}


@pytest.fixture
def built(wave_course, limits):
    """The wave assignment's batch cache, built from its reference as a batch builds it (in the
    grader's cache folder: not under /tmp, which the namespace modes hide from workers)."""
    from autograder.grading.batch_cache import BatchCache
    cache = BatchCache(limits, wave_course.hidden_paths())
    yield cache, cache.limits_for(wave_course.assignment("wave"))
    cache.close()


@pytest.fixture
def scratch_cache_folder():
    """A folder beside the batches' own, for planted copies; removed afterwards."""
    import tempfile

    from autograder.grading.batch_cache import cache_root
    cache_root().mkdir(parents=True, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="test-", dir=cache_root())
    yield Path(folder)
    shutil.rmtree(folder, ignore_errors=True)


def grade(path, course, limits, cache=None):
    from autograder.grading.grade import grade_notebook
    return grade_notebook(path, course, "wave", limits, cache=cache)


def grade_counting(path, course, limits):
    """Grade with `limits` as given (no batch build) and return (result, the worker's cache counts)."""
    from autograder.course.notebook import read_notebook
    from autograder.course.submission import read_submission
    from autograder.grading.batch_cache import BatchCache
    from autograder.grading.grade import grade_submission
    spec = course.assignment("wave")
    counts = BatchCache(limits, [])
    result = grade_submission(path, spec, read_submission(path, spec, read_notebook(path)), limits,
                              course.hidden_paths() + [str(path)], counts)
    return result, counts.summary()


def plain(limits):
    return dataclasses.replace(limits, compile_cache=False, compile_cache_folder="", compile_cache_digest="")


def sin_and_cos_entries() -> tuple[str, bytes, bytes]:
    """The key of the eager `jnp.sin` on float32[3], and the compiled `sin` and `cos` for it, made in
    a fresh process with the worker's cache installed (as a worker makes them)."""
    import subprocess
    import sys
    code = ("import json, os, sys\n"
            "import jax, jax.numpy as jnp\n"
            "from autograder.sandbox import compile_cache, compile_effort\n"
            "os.environ[compile_effort.ENV] = '1'\n"          # compiled as a worker compiles (its keys)
            "compile_effort.take_environment()\n"
            "compile_effort.apply()\n"
            "cache = compile_cache.install()\n"
            "jnp.sin(jnp.arange(3.0)).block_until_ready()\n"
            "sin = dict(cache.private)\n"
            "jnp.cos(jnp.arange(3.0)).block_until_ready()\n"
            "cos = {k: v for k, v in cache.private.items() if k not in sin}\n"
            "(ks,) = [k for k in sin if k.startswith('jit_sin')]\n"
            "(kc,) = [k for k in cos if k.startswith('jit_cos')]\n"
            "sys.stdout.write(json.dumps([ks, sin[ks].hex(), cos[kc].hex()]))\n")
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    key, sin, cos = json.loads(r.stdout)
    return key, bytes.fromhex(sin), bytes.fromhex(cos)


# ------------------------------------------------------------------ the cache object, no worker
def test_an_entry_is_used_only_if_its_bytes_match_the_manifest(tmp_path):
    from autograder.sandbox import compile_cache
    folder = str(tmp_path / "sealed")
    digest = compile_cache.seal(folder, {"jit_f-1": b"one", "jit_g-2": b"two"})
    manifest = compile_cache.load_manifest(folder, digest)
    assert oct(os.stat(folder).st_mode & 0o777) == oct(compile_cache.FOLDER_MODE)   # opened by name, not listed
    os.chmod(os.path.join(folder, "jit_f-1.bin"), 0o644)
    Path(folder, "jit_f-1.bin").write_bytes(b"evil")          # changed on disk before a worker read it
    Path(folder, "jit_h-3.bin").write_bytes(b"planted")       # not in the manifest
    dir_fd = os.open(folder, os.O_PATH | os.O_DIRECTORY)     # as a worker is given it
    try:
        cache = compile_cache.make_cache(dir_fd, manifest)
    finally:
        os.close(dir_fd)
    assert cache.get("jit_f-1") is None and cache.get("jit_h-3") is None and cache.get("jit_g-2") == b"two"
    assert cache.counts["rejected"] == 1 and cache.counts["shared_hits"] == 1
    assert not any(str(folder) in repr(v) for v in vars(cache).values())   # nothing leads back to it
    # a manifest rewritten to match the planted bytes no longer matches the digest the grader gave
    os.chmod(os.path.join(folder, compile_cache.MANIFEST), 0o644)
    Path(folder, compile_cache.MANIFEST).write_text(json.dumps(
        {"jit_f-1": hashlib.sha256(b"evil").hexdigest()}))
    assert compile_cache.load_manifest(folder, digest) is None
    # what a worker compiles itself stays in its memory, never in the folder
    cache.put("jit_k-4", b"mine")
    assert cache.get("jit_k-4") == b"mine" and not Path(folder, "jit_k-4.bin").exists()


# ------------------------------------------------------------------ real workers
def test_the_batch_cache_is_built_from_the_reference_and_hit_by_students(wave_course, built, tmp_path):
    cache, limits = built
    assert limits.compile_cache_digest and cache.built["wave"].entries > 0, cache.built["wave"]
    student = submission(tmp_path, "s1")
    with_cache = grade(student, wave_course, limits, cache)
    alone = grade(student, wave_course, plain(limits))
    assert checks(with_cache) == checks(alone)
    assert with_cache.score == alone.score == 3.0
    summary = cache.summary()
    assert summary["shared_hits"] > 0 and summary["rejected"] == 0, summary


def test_verdicts_messages_and_compile_counts_are_the_same_with_the_cache(wave_course, built, tmp_path):
    """A retracing submission: its message holds trace and compile counts and JAX's reason."""
    cache, limits = built
    student = submission(tmp_path, "retraces", RETRACES)
    with_cache = checks(grade(student, wave_course, limits, cache))
    alone = checks(grade(student, wave_course, plain(limits)))
    assert with_cache == alone
    passed, message = with_cache["wave_retrace"]
    assert not passed and "compiles)" in message, message
    assert cache.summary()["shared_hits"] > 0


def test_a_worker_cannot_write_the_cache_and_the_next_student_is_unaffected(wave_course, built, tmp_path):
    """A student cell tries every way to write the sealed folder: overwrite, add, delete, and JAX's
    own cache pointed at it. Then a correct student of the same batch is graded as alone."""
    cache, limits = built
    folder = limits.compile_cache_folder
    before = folder_digest(folder)
    attack = ("import os, glob\n"
              "import jax, jax.numpy as jnp\n"
              "folder = CACHE_FOLDER\n"
              "for path in glob.glob(os.path.join(folder, '*')):\n"
              "    for how in (lambda: os.chmod(path, 0o666), lambda: open(path, 'wb').write(b'x'),\n"
              "                lambda: os.remove(path)):\n"
              "        try:\n            how()\n        except OSError:\n            pass\n"
              "try:\n    open(os.path.join(folder, 'jit_sin-planted.bin'), 'wb').write(b'x')\n"
              "except OSError:\n    pass\n"
              "jax.config.update('jax_compilation_cache_dir', folder)\n"
              "jax.config.update('jax_persistent_cache_min_compile_time_secs', 0.0)\n"
              "jnp.cos(jnp.arange(3.0) * 7).block_until_ready()\n"
              + WAVE)
    assert folder
    attack = f"CACHE_FOLDER = {folder!r}\n" + attack    # as if it had found it
    grade(submission(tmp_path, "attacker", attack), wave_course, limits, cache)
    victim = submission(tmp_path, "victim")
    after_attack = checks(grade(victim, wave_course, limits, cache))
    assert after_attack == checks(grade(victim, wave_course, plain(limits)))
    from autograder.sandbox.process import choose_isolation
    if choose_isolation(limits.isolation) in ("namespace", "userns"):
        assert folder_digest(folder) == before      # read-only inside the worker: nothing changed
    assert cache.summary()["shared_hits"] > 0


def _planted_copy(limits, where: Path, reseal: bool):
    """A copy of the sealed folder whose eager-`sin` entry holds the compiled `cos`; with `reseal`,
    sealed again as if the grader had written it (what poisoning would need)."""
    from autograder.sandbox import compile_cache
    key, sin, cos = sin_and_cos_entries()
    original = compile_cache.load_manifest(limits.compile_cache_folder, limits.compile_cache_digest)
    assert key in original, f"the worker's key for eager sin ({key}) is not in the reference's cache"
    entries = {k: Path(limits.compile_cache_folder, k + ".bin").read_bytes() for k in original}
    assert entries[key] != cos
    entries[key] = cos
    copy = str(where / ("resealed" if reseal else "planted"))
    digest = compile_cache.seal(copy, entries)
    if not reseal:
        digest = limits.compile_cache_digest   # the grader's digest, for the original entries
        os.chmod(os.path.join(copy, compile_cache.MANIFEST), 0o644)
        shutil.copy(os.path.join(limits.compile_cache_folder, compile_cache.MANIFEST),
                    os.path.join(copy, compile_cache.MANIFEST))
    return dataclasses.replace(limits, compile_cache_folder=copy, compile_cache_digest=digest)


def test_a_planted_entry_sealed_as_trusted_would_change_a_verdict(wave_course, built, tmp_path,
                                                                   scratch_cache_folder):
    """The control: why only the grader may write. The entry is used, and `wave` computes cos."""
    _, limits = built
    poisoned = _planted_copy(limits, scratch_cache_folder, reseal=True)
    result, counts = grade_counting(submission(tmp_path, "s"), wave_course, poisoned)
    assert counts["shared_hits"] > 0, counts
    passed, _ = checks(result)["wave_correctness"]
    assert not passed, "a planted executable was not used: this test no longer shows the attack"


def test_a_planted_entry_in_a_copy_changes_no_verdict(wave_course, built, tmp_path, scratch_cache_folder):
    _, limits = built
    planted = _planted_copy(limits, scratch_cache_folder, reseal=False)
    student = submission(tmp_path, "s")
    result, counts = grade_counting(student, wave_course, planted)
    assert checks(result) == checks(grade(student, wave_course, plain(limits)))
    assert checks(result)["wave_correctness"][0]
    assert counts["rejected"] >= 1 and counts["shared_hits"] > 0, counts


def test_cache_switches_on_the_command_line(toy_course, tmp_path):
    """On for batches unless --no-compile-cache; off for one notebook and for check unless asked."""
    import argparse

    from autograder.grading import options
    p = argparse.ArgumentParser()
    options.add_compile_cache_option(p, True)
    assert options.compile_cache_wanted(p.parse_args([]), True) is True
    assert options.compile_cache_wanted(p.parse_args(["--no-compile-cache"]), True) is False
    assert options.compile_cache_wanted(p.parse_args([]), False) is False
    assert options.compile_cache_wanted(p.parse_args(["--compile-cache"]), False) is True


# Everything a student's cell could use to find the sealed folder, or to list it: an open fd that
# leads there, a mount, the environment, the cache module's or JAX's cache object's state, the
# folder's known place under the grader's cache root. `wave` is right only if none of them works.
FIND_THE_FOLDER = (
    "import os, sys, glob\n"
    "import jax\n"
    "_clues = []\n"
    "for _fd in os.listdir('/proc/self/fd'):\n"
    "    try:\n"
    "        _target = os.readlink(f'/proc/self/fd/{_fd}')\n"
    "    except OSError:\n"
    "        continue\n"
    "    if 'compile-cache' in _target or 'jax-course' in _target:\n"
    "        _clues.append(_target)\n"
    "if 'compile-cache' in open('/proc/self/mountinfo').read():\n"
    "    _clues.append('mountinfo')\n"
    "_clues += [v for v in os.environ.values() if 'compile-cache' in v]\n"
    "from autograder.sandbox import compile_cache as _cc\n"
    "_clues += [repr(v) for v in vars(_cc).values() if 'compile-cache' in repr(v)]\n"
    "from jax._src import compilation_cache as _jc\n"
    "_cache = getattr(_jc, '_cache', None)\n"
    "_clues += [repr(v)[:80] for v in vars(_cache).values() if 'compile-cache' in repr(v)] if _cache is not None else []\n"
    "for _home in ('/root', os.path.expanduser('~'), '/home'):\n"
    "    _clues += glob.glob(os.path.join(_home, '**', 'compile-cache', '*', '*'), recursive=True)[:3]\n"
    "if _cache is not None and not getattr(_cache, 'shared', None):\n"
    "    _clues.append('the cache was not installed from the folder')\n"
    "def wave(x):\n"
    "    if _clues:\n        raise ValueError(repr(_clues))\n"
    "    return jnp.sin(x)\n"
)


def test_a_student_finds_no_way_to_the_cache_folder_but_its_entries_are_used(wave_course, built, tmp_path):
    """Nothing to list: the worker read the sealed entries before student code ran and holds no fd,
    mount, path or environment that leads back to the folder (namespace modes; a `process` worker
    shares the grader's files and could walk to it, docs/SECURITY.md)."""
    from autograder.sandbox.process import choose_isolation
    cache, limits = built
    if choose_isolation(limits.isolation) not in ("namespace", "userns"):
        pytest.fail("this machine gives the worker no namespaces; the property holds only with them")
    result = checks(grade(submission(tmp_path, "finder", FIND_THE_FOLDER), wave_course, limits, cache))
    assert result["wave_correctness"][0], result
    assert cache.summary()["shared_hits"] > 0


# ------------------------------------------------------------------ nbgrader's kernels (classroom/kernel_cache.py)
# A test cell that fails when the kernel still holds the variables that named the folder.
ENV_GONE = ("import os\nassert not [k for k in os.environ if k.startswith('XLA_KERNEL_CACHE')], "
            "'the kernel kept the variables'")


def nbgrader_points(course, tmp_path, run_name, students: dict, cache=None) -> dict:
    """{student: {cell: points}} from a real `nbgrader autograde` of the wave assignment, its kernels
    given `cache` (a `batch_cache.Built`, or a stand-in with `folder` and `digest`)."""
    from autograder.classroom import nbgrader_run
    work = nbgrader_run.prepare(course, tmp_path / run_name, "wave", students)
    nbgrader_run.generate(work, "wave")
    run = nbgrader_run.run_nbgrader_autograde(work, "wave", cache=cache)
    assert run.returncode == 0, run.stderr[-2000:]
    return nbgrader_run.read_gradebook(work, "wave")


def test_nbgrader_kernels_use_only_the_entries_the_grader_sealed(wave_course, built, tmp_path, scratch_cache_folder):
    """The same folder the CLI's workers read, given to `nbgrader autograde`'s kernels: the control
    (a planted entry sealed as if by the grader is used: `wave` computes cos) shows that kernels read
    it; the same entry in a copy under the grader's digest is a miss; with the grader's own folder the
    gradebook is the one of a run without it, and no kernel keeps the variables."""
    from types import SimpleNamespace
    cache, limits = built
    # in a kernel the test cell's own values are computed there too: the expected one comes from NumPy
    cells = [*wave_cells()[:2],
             code_cell("import numpy as np\ncheck.assert_close(wave(jnp.arange(3.0)), np.sin(np.arange(3.0, dtype=np.float32)), "
                       "what='wave(x)')", "wave_correctness", role="test", points=2),
             wave_cells()[3], code_cell(ENV_GONE, "env_gone", role="test", points=1)]
    student = tmp_path / "s.ipynb"
    nbformat.write(make_notebook(cells), str(student))
    source = wave_course.source / "wave" / "wave.ipynb"
    nbformat.write(make_notebook(cells), str(source))   # the env_gone cell is a test cell of the assignment
    full = {"wave_correctness": 2.0, "wave_retrace": 1.0, "env_gone": 1.0}
    built_wave = cache.built["wave"]
    assert nbgrader_points(wave_course, tmp_path, "plain", {"s": student}) == {"s": full}
    assert nbgrader_points(wave_course, tmp_path, "cached", {"s": student}, built_wave) == {"s": full}
    for reseal, expected in ((True, 0.0), (False, 2.0)):
        copy = _planted_copy(limits, scratch_cache_folder, reseal)
        given = SimpleNamespace(folder=copy.compile_cache_folder, digest=copy.compile_cache_digest)
        points = nbgrader_points(wave_course, tmp_path, f"planted-{reseal}", {"s": student}, given)
        assert points["s"]["wave_correctness"] == expected, (reseal, points)


def _with_installed_cache(body: str):
    """Run `body` in a fresh process whose JAX uses an installed `TrustedCache` (`cache`, with
    `jax`, `jnp`, `timing`, `json` and `sys` imported); what it writes to stdout, read as JSON."""
    import subprocess
    import sys
    code = ("import json, sys\n"
            "import jax, jax.numpy as jnp\n"
            "from autograder.checks import timing\n"
            "from autograder.sandbox import compile_cache\n"
            "cache = compile_cache.install()\n" + body)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def test_a_compile_time_check_compiles_cold_under_an_installed_cache():
    """`timing._compile_seconds` sets the persistent cache aside: no lookup, nothing kept, and the
    cache serves again afterwards (a compile-time check that timed a lookup would pass anything)."""
    before, during, after = _with_installed_cache(
        "f = jax.jit(lambda x: jnp.sin(x) * 2)\n"
        "f.lower(jnp.ones(3)).compile()\n"
        "before = dict(cache.counts)\n"
        "timing._compile_seconds(f, (jnp.ones(3),))\n"
        "during = dict(cache.counts)\n"
        "jax.clear_caches(); f.lower(jnp.ones(3)).compile()\n"
        "sys.stdout.write(json.dumps([before, during, dict(cache.counts)]))\n")
    assert during == before, (before, during)
    assert after["private_hits"] > before["private_hits"], (before, after)


def test_a_program_loaded_once_is_reused_and_still_computes_its_own_result():
    """A second hit of the same entry returns the executable the first loaded (no second load), is
    counted as a hit, and computes what that program computes; a different program is not given it;
    a compile-time check's cold compile never reads the loaded ones."""
    import numpy as np
    first, second, third, a, b, loaded = _with_installed_cache(
        "f = lambda x: jnp.sin(x) * 2\n"
        "jax.jit(f)(jnp.ones(3)).block_until_ready()\n"
        "first = dict(cache.counts)\n"
        "jax.clear_caches(); a = jax.jit(f)(jnp.arange(3.0))\n"
        "jax.clear_caches(); b = jax.jit(lambda x: jnp.cos(x) * 2)(jnp.arange(3.0))\n"
        "x = jnp.ones(3); second = dict(cache.counts)\n"
        "timing._compile_seconds(jax.jit(f), (x,))\n"
        "sys.stdout.write(json.dumps([first, second, dict(cache.counts), a.tolist(), b.tolist(),\n"
        "                             len(cache.loaded)]))\n")
    np.testing.assert_allclose(a, np.sin(np.arange(3.0)) * 2, rtol=1e-6)
    np.testing.assert_allclose(b, np.cos(np.arange(3.0)) * 2, rtol=1e-6)
    assert first["reloads_saved"] == 0 and second["reloads_saved"] >= 1, (first, second)
    assert second["private_hits"] - first["private_hits"] >= second["reloads_saved"], (first, second)
    assert third == second, (second, third)
    assert loaded >= 1
