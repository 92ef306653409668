"""The boundary between test cells and student code (issue 23), attacked through the real CLI.

`tests/hostile/boundary.py` holds the attacks and what each did against 9e6139e. One batch call
grades the attacks of classes 1, 2, 3 and 5 together with a batch-mate that solves everything (the
one `read_a_batch_mate` tries to copy); each class 4 attack on the reader gets a grader process of
its own, so its peak memory and CPU time can be read from the kernel. For every attack: the victim
gets exactly its honest points (or 0 with an integrity failure), the two bystanders keep full marks,
and no message or feedback line about the victim holds a hidden input.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
import pytest

from support.notebooks import code_cell, make_notebook
from hostile.boundary import ATTACKS, HIDDEN_MARKERS, READER_ATTACKS, RIGHT

BYSTANDER = "def bystander_{n}(x):\n    ### BEGIN SOLUTION\n    return {k} * x\n    ### END SOLUTION\n"
SOURCE_VICTIM = "def victim(x, k):\n    ### BEGIN SOLUTION\n    return k * x\n    ### END SOLUTION\n"
TIMEOUT = "8"

# The victim's tests look up builtins (len, zip, range, map, sorted) and a hidden reference, as real
# test cells do; the hidden inputs are HIDDEN_MARKERS.
VICTIM_TESTS = [
    ("victim_correctness", 2,
     "_visible = [(jnp.arange(3.0), 2.0), (jnp.ones(2), -1.0)]\n"
     "for _i in range(len(_visible)):\n"
     "    _x, _k = _visible[_i]\n"
     "    check.assert_close(victim(_x, _k), _k * _x, what=f'victim(x, {_k})')\n"
     "### BEGIN HIDDEN TESTS\n"
     "def _reference(x, k):\n"
     "    return np.asarray(x) * np.float32(k)\n"
     "_hidden = [(jnp.full(4, 13.5), 0.4375)]\n"
     "for _x, _k in zip([h[0] for h in _hidden], [h[1] for h in _hidden]):\n"
     "    check.assert_close(victim(_x, _k), jnp.asarray(_reference(_x, _k)), what='victim(x, k) on a hidden input')\n"
     "### END HIDDEN TESTS"),
    ("victim_performance", 1,
     "_x = jnp.ones((128, 128))\n"
     "### BEGIN HIDDEN TESTS\n"
     "def _reference_fast(x, k):\n"
     "    \"ref-doc-5d1c\"\n"
     "    return k * x\n"
     "check.assert_runtime_within(victim, _reference_fast, (_x, 2.0), 50, what='x of shape (128, 128)')\n"
     "### END HIDDEN TESTS"),
    ("victim_jit", 1,
     "for _x in map(jnp.asarray, [[0.0, 1.0, 2.0]]):\n"
     "    check.assert_jittable(victim, _x, 2.0)\n"
     "### BEGIN HIDDEN TESTS\n"
     "for _x in map(jnp.asarray, [[1.0, 1.0, 1.0, 1.0]]):\n"
     "    check.assert_jittable(victim, _x, -3.0)\n"
     "### END HIDDEN TESTS"),
    ("victim_retrace", 1,
     "check.assert_max_traces(victim, [(jnp.arange(3.0), k) for k in sorted([3.0, 1.0, 2.0])], max_traces=1,\n"
     "                        what='three values of k')"),
    ("victim_structure", 1, "check.assert_has_primitive(victim, (jnp.arange(3.0), 2.0), 'mul')"),
]


def boundary_cells(victim_source: str):
    cells = [code_cell("import jax\nimport jax.numpy as jnp\nimport numpy as np\nfrom autograder import check",
                       "setup")]
    for name, k in (("bystander_a", 3.0), ("bystander_b", 4.0)):
        if name == "bystander_b":
            cells.append(code_cell(victim_source, "victim", role="solution"))
            cells += [code_cell(src, gid, role="test", points=pts) for gid, pts, src in VICTIM_TESTS]
        cells += [
            code_cell(BYSTANDER.format(n=name[-1], k=k), name, role="solution"),
            code_cell(f"check.assert_close({name}(jnp.arange(3.0)), {k} * jnp.arange(3.0), what='{name}(x)')",
                      f"{name}_correctness", role="test", points=2),
            code_cell(f"check.assert_jittable({name}, jnp.arange(3.0))", f"{name}_jit", role="test", points=1),
        ]
    return cells


def write_course(root):
    source = root / "course" / "source" / "boundary" / "boundary.ipynb"
    source.parent.mkdir(parents=True)
    nbformat.write(make_notebook(boundary_cells(SOURCE_VICTIM)), str(source))
    return root / "course"


def write_submission(subs, name, cell):
    path = subs / name / "boundary.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(make_notebook(boundary_cells(cell.format(subs=str(subs)) if "{subs" in cell else cell)),
                   str(path))
    return path


def grade(course, paths, out, jobs=2):
    """Run `autograder grade` in a process of its own; return (proc, stderr, results by folder name)."""
    cmd = [sys.executable, "-m", "autograder.cli", "grade", *map(str, paths), "--json", str(out),
           "--course-root", str(course), "--assignment", "boundary", "--jobs", str(jobs), "--quiet",
           "--cell-timeout", TIMEOUT, "--check-timeout", TIMEOUT, "--memory-mb", "3072"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1500)
    payload = json.loads(out.read_text())
    results = payload if isinstance(payload, list) else [payload]
    return proc, proc.stderr, {os.path.basename(os.path.dirname(r["notebook"])): r for r in results}


def scratch_outside_tmp():
    """A folder for the batch outside the host's /tmp: the worker's private disk covers /tmp, but a
    class's notebooks usually live elsewhere (a course folder, a home), where only hiding them helps."""
    from support.notebooks import ROOT
    base = ROOT / ".scratch"
    base.mkdir(exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="boundary-", dir=base))
    root.chmod(0o755)  # as a course folder usually is (mkdtemp makes it private to the grader's user)
    return root


@pytest.fixture(scope="module")
def boundary_run():
    root = scratch_outside_tmp()
    course = write_course(root)
    subs = root / "subs"
    paths = [write_submission(subs, name, attack["cell"]) for name, attack in ATTACKS.items()]
    paths.append(write_submission(subs, "batch_mate", RIGHT))
    try:
        (root / "out").mkdir()
        yield grade(course, paths, root / "out" / "results.json")
    finally:
        shutil.rmtree(root, ignore_errors=True)


def victim_text(result) -> str:
    """Every message about the victim, as the JSON has it and as the feedback page shows it."""
    from autograder.classroom.feedback import hidden_lines, student_message
    by_name = {gid: src for gid, _, src in VICTIM_TESTS}
    texts = []
    for check in result["exercises"]["victim"]["checks"]:
        texts.append(check["message"])
        texts.append(student_message(check, hidden_lines(by_name.get(check["name"], ""))))
    return "\n".join(texts)


def assert_attack_failed(result, attack):
    ex = result["exercises"]
    summary = {c["name"]: (c["passed"], c["message"][:300]) for c in ex["victim"]["checks"]}
    assert ex["bystander_a"]["score"] == 3.0 and ex["bystander_b"]["score"] == 3.0, (result.get("errors"), summary)
    assert ex["victim"]["score"] == attack["victim"], summary
    kinds = [c["kind"] for c in ex["victim"]["checks"]]
    assert ("integrity" in kinds) == bool(attack.get("integrity")), summary
    text = victim_text(result)
    assert attack.get("says", "") in text, text[:1500]
    leaked = [m for m in HIDDEN_MARKERS if m in text]
    assert not leaked, f"hidden data {leaked} in: {text[:1500]}"


def test_the_batch_was_graded(boundary_run):
    proc, stderr, results = boundary_run
    assert proc.returncode == 0, stderr[-3000:]
    assert set(results) == set(ATTACKS) | {"batch_mate"}


def test_an_honest_batch_mate_gets_full_marks(boundary_run):
    """Control: the harness gives a right answer every point, so a lower score above is the attack's."""
    result = boundary_run[2]["batch_mate"]
    assert result["score"] == result["max_score"] == 12.0, result


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_boundary_attack_fails(boundary_run, attack):
    assert_attack_failed(boundary_run[2][attack], ATTACKS[attack])


@pytest.mark.parametrize("attack", sorted(READER_ATTACKS))
def test_reader_attack_costs_only_its_exercise_and_bounded_grader_memory(tmp_path, attack):
    course = write_course(tmp_path)
    path = write_submission(tmp_path / "subs", attack, READER_ATTACKS[attack]["cell"])
    out = tmp_path / "results.json"
    cmd = [sys.executable, "-m", "autograder.cli", "grade", str(path), "--json", str(out),
           "--course-root", str(course), "--assignment", "boundary", "--quiet",
           "--cell-timeout", TIMEOUT, "--check-timeout", TIMEOUT, "--memory-mb", "3072"]
    code, peak_kb, stderr = run_measured(cmd)
    assert code == 0, stderr[-3000:]
    result = json.loads(out.read_text())
    assert_attack_failed(result, READER_ATTACKS[attack])
    # The grader's own peak memory: its JAX and the worker's replies, never the attack's multiples.
    assert peak_kb < 1_200_000, f"grader peak RSS {peak_kb / 1024:.0f} MB"


# Started by a Python that has imported nothing else: Linux carries a process's peak RSS across fork
# and exec (the parent's memory at the fork counts as the child's), so a command started straight
# from this pytest worker would report the worker's own peak (JAX and every earlier test in it).
_LAUNCHER = ("import os, subprocess, sys\n"
             "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
             "_, status, usage = os.wait4(p.pid, 0)\n"
             "print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)\n")


def run_measured(cmd: list[str]) -> tuple[int, int, str]:
    """(exit code, peak RSS in KB, stderr) of `cmd`, measured from a small launcher process."""
    r = subprocess.run([sys.executable, "-c", _LAUNCHER, *cmd], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and r.stdout.strip(), r.stderr[-3000:]
    code, peak = map(int, r.stdout.split())
    return code, peak, r.stderr


# A thread that holds no Python frame for its first 0.3 s (`time.sleep` called from C), then runs the
# cell's own `_linger`: the worker can see it only at a later request, another exercise's.
LATE_THREAD = ("import _thread, itertools, time\n"
               "def _linger(_):\n"
               "    time.sleep(600)\n"
               "_thread.start_new_thread(list, (itertools.chain(map(time.sleep, [0.3]), map(_linger, [None])),))\n"
               "def lingerer(x):\n"
               "    return x\n")
SLOW_CELL = "import time\ntime.sleep(1.5)\ndef steady(x):\n    return 2 * x\n"        # seen at its exec
SLOW_CALL = "import time\ndef steady(x):\n    time.sleep(1.5)\n    return 2 * x\n"   # seen at a test cell's call


def late_thread_cells(steady: str, lingerer: str):
    """Solution cells run in this order, lingerer's first; test cells too, steady's first."""
    cells = [code_cell("import jax.numpy as jnp\nfrom autograder import check", "setup"),
             code_cell(lingerer, "lingerer", role="solution"), code_cell(steady, "steady", role="solution")]
    cells += [code_cell(f"check.assert_close(steady(jnp.arange(3.0)), 2 * jnp.arange(3.0), what='steady(x)')",
                        "steady_correctness", role="test", points=2),
              code_cell(f"check.assert_close(lingerer(jnp.arange(3.0)), jnp.arange(3.0), what='lingerer(x)')",
                        "lingerer_correctness", role="test", points=1)]
    return cells


def test_a_thread_seen_late_costs_only_the_exercise_whose_code_it_runs(tmp_path):
    """A thread started by one cell may be seen only at a later request: at another cell's exec (the
    first notebook) or at a call from another exercise's test cell (the second). It is charged to the
    cell whose code it runs, and the other exercise keeps its points (before: it lost them)."""
    source = tmp_path / "course" / "source" / "late" / "late.ipynb"
    source.parent.mkdir(parents=True)
    nbformat.write(make_notebook(late_thread_cells("def steady(x):\n    return 2 * x\n",
                                                   "def lingerer(x):\n    return x\n")), str(source))
    paths = []
    for name, steady in {"at_exec": SLOW_CELL, "at_call": SLOW_CALL}.items():
        path = tmp_path / "subs" / name / "late.ipynb"
        path.parent.mkdir(parents=True)
        nbformat.write(make_notebook(late_thread_cells(steady, LATE_THREAD)), str(path))
        paths.append(path)
    out = tmp_path / "results.json"
    cmd = [sys.executable, "-m", "autograder.cli", "grade", *map(str, paths), "--json", str(out),
           "--course-root", str(tmp_path / "course"), "--assignment", "late", "--jobs", "2", "--quiet",
           "--cell-timeout", TIMEOUT, "--check-timeout", TIMEOUT]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    wrong = {}
    for result in json.loads(out.read_text()):
        ex = result["exercises"]
        messages = {c["name"]: c["message"][:200] for e in ex.values() for c in e["checks"]}
        if not (ex["steady"]["score"] == 2.0 and ex["lingerer"]["score"] == 0.0
                and "still running" in messages.get("lingerer_integrity", "")):
            wrong[os.path.basename(os.path.dirname(result["notebook"]))] = messages
    assert not wrong, wrong
