"""The hostile-submission corpus (tests/hostile/corpus.py) through the real `autograder` CLI.

One batch call grades every attack. For each: no false points for the victim exercise, the two
bystander exercises keep full marks, and the grader exits normally with the JSON. Afterwards no
student process is left running, and the gradebook is unchanged.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import nbformat
import pytest

from support.machine import unavailable
from support.notebooks import code_cell, make_notebook
from hostile.corpus import ATTACKS, RIGHT

BYSTANDER = "def bystander_{n}(x):\n    ### BEGIN SOLUTION\n    return {k} * x\n    ### END SOLUTION\n"
# Short, since every hanging attack costs it; 5 s leaves room for the fork attack's 30 children to
# start on a loaded 2-core machine (at 4 s it timed out once in CI instead of failing integrity).
TIMEOUT = "5"


def hostile_cells(victim_source: str):
    cells = [code_cell("import jax\nimport jax.numpy as jnp\nfrom autograder import check", "setup")]
    for name, source, k in (("bystander_a", BYSTANDER.format(n="a", k=3.0), 3.0), ("victim", victim_source, 2.0),
                            ("bystander_b", BYSTANDER.format(n="b", k=4.0), 4.0)):
        cells += [
            code_cell(source, name, role="solution"),
            code_cell(f"check.assert_close({name}(jnp.arange(3.0)), {k} * jnp.arange(3.0), what='{name}(x)')\n"
                      f"### BEGIN HIDDEN TESTS\ncheck.assert_close({name}(jnp.ones(2)), jnp.full(2, {k}), "
                      f"what='{name}(x)')\n### END HIDDEN TESTS", f"{name}_correctness", role="test", points=2),
            code_cell(f"check.assert_jittable({name}, jnp.arange(3.0))", f"{name}_jit", role="test", points=1),
        ]
    return cells


def run_marker(root) -> str:
    """A process name (at most 15 characters) unique to one corpus run: its student processes
    take it, so that the test finds them without matching anyone else's."""
    return "jc" + hashlib.sha1(str(root).encode()).hexdigest()[:12]


def processes_named(name: str, or_cmdline: str | None = None) -> list[str]:
    """Live processes with a thread named `name`, or whose command line holds `or_cmdline`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            names = {open(f"/proc/{pid}/task/{tid}/comm").read().strip()
                     for tid in os.listdir(f"/proc/{pid}/task")}
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                cmdline = fh.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if name in names or (or_cmdline is not None and or_cmdline in cmdline):
            found.append(f"{pid}: {cmdline[:160]}")
    return found


def run_corpus(root, attacks, isolation="auto"):
    """Write one submission per attack (plus a non-JSON file) and grade them in one CLI call."""
    course = root / "course"
    (course / "source" / "hostile").mkdir(parents=True)
    source = course / "source" / "hostile" / "hostile.ipynb"
    nbformat.write(make_notebook(hostile_cells(
        "def victim(x):\n    ### BEGIN SOLUTION\n    return 2.0 * x\n    ### END SOLUTION\n")), str(source))
    gradebook = course / "gradebook.db"
    gradebook.write_bytes(b"sentinel gradebook")
    subs = root / "subs"
    paths = []
    for name, attack in attacks.items():
        cell = attack["cell"].format(source=str(source), gradebook=str(gradebook), marker=run_marker(root)) \
            if any(f"{{{key}" in attack["cell"] for key in ("source", "gradebook", "marker")) \
            else attack["cell"]
        nb = make_notebook(hostile_cells(cell))
        if "notebook" in attack:
            nb = attack["notebook"](nb)
        path = subs / name / "hostile.ipynb"
        path.parent.mkdir(parents=True)
        nbformat.write(nb, str(path))
        paths.append(path)
    not_json = subs / "not_json" / "hostile.ipynb"
    not_json.parent.mkdir(parents=True)
    not_json.write_text("{ this is not a notebook")
    out = root / "out" / "results.json"
    out.parent.mkdir()
    cmd = [sys.executable, "-m", "autograder.cli", "grade", *map(str, paths + [not_json]), "--json", str(out),
           "--course-root", str(course), "--assignment", "hostile", "--jobs", "2", "--quiet",
           "--cell-timeout", TIMEOUT, "--check-timeout", TIMEOUT, "--memory-mb", "2048",
           "--output-bytes", "1000000", "--isolation", isolation]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1500)
    results = {os.path.basename(os.path.dirname(r["notebook"])): r for r in json.loads(out.read_text())}
    return proc, results, gradebook


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory):
    return run_corpus(tmp_path_factory.mktemp("hostile"), ATTACKS)


# Without root the grader falls back to unprivileged user namespaces; the attacks on secrets, the
# gradebook and the grader process are run that way too.
USERNS_ATTACKS = ["read_hidden_tests", "write_gradebook", "signal_the_grader", "read_grader_memory",
                  "fork_children_left_running", "patch_jax_jit", "infinite_loop_in_function"]


@pytest.fixture(scope="module")
def userns_run(tmp_path_factory):
    from autograder.sandbox.process import choose_isolation
    try:
        choose_isolation("userns")
    except RuntimeError as exc:
        unavailable(str(exc))
    return run_corpus(tmp_path_factory.mktemp("userns"), {a: ATTACKS[a] for a in USERNS_ATTACKS}, "userns")


def test_grader_exits_normally_with_json(hostile_run):
    proc, results, _ = hostile_run
    assert proc.returncode == 2, proc.stderr[-3000:]  # 2: one notebook (not_json) was unusable
    assert proc.stderr.strip().splitlines() == [l for l in proc.stderr.strip().splitlines()
                                                if l.startswith("autograder: error:")]
    assert "not_json" in proc.stderr and "not a readable Jupyter notebook" in proc.stderr
    assert set(results) == set(ATTACKS) | {"not_json"}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_attack_earns_no_false_points(hostile_run, attack):
    assert_verdict(hostile_run, attack)


@pytest.mark.parametrize("attack", USERNS_ATTACKS)
def test_attack_earns_no_false_points_under_user_namespaces(userns_run, attack):
    assert userns_run[1][attack]["isolation"] == "userns"
    assert_verdict(userns_run, attack)


def test_gradebook_untouched_under_user_namespaces(userns_run):
    assert userns_run[2].read_bytes() == b"sentinel gradebook"


def assert_verdict(run, attack):
    _, results, _ = run
    spec = ATTACKS[attack]
    result = results[attack]
    ex = result["exercises"]
    summary = {name: [(c["name"], c["passed"], c["message"][:200]) for c in e["checks"]] for name, e in ex.items()}
    if attack == "read_hidden_tests" and result["isolation"] not in ("namespace", "userns"):
        unavailable("hidden files are only unreadable with namespace or userns isolation")
    assert ex["victim"]["score"] == spec.get("victim", 0.0), summary
    assert ex["bystander_a"]["score"] == 3.0 and ex["bystander_b"]["score"] == 3.0, summary
    assert result["score"] == 6.0 + spec.get("victim", 0.0)
    messages = " ".join(c["message"] for c in ex["victim"]["checks"])
    if "message" in spec:
        assert spec["message"] in messages, summary["victim"]
    kinds = [c["kind"] for c in ex["victim"]["checks"]]
    if spec.get("integrity"):
        assert "integrity" in kinds, summary["victim"]
    else:
        assert "integrity" not in kinds, summary["victim"]
    if "errors" in spec:
        assert any(spec["errors"] in e for e in result["errors"]), result["errors"]


def test_no_message_carries_text_that_acts_on_its_reader(hostile_run):
    """Whatever the attacks raised, printed or named their classes, every message and error of the
    JSON is plain text: no control character but tab and newline, no format mark (bidirectional
    override, zero-width), no line separator, no lone surrogate; and no line of a message is one the
    student wrote to look like the grader's (a class name with a newline stays on its line)."""
    import unicodedata
    _, results, _ = hostile_run
    texts = [(name, c["message"]) for name, r in results.items() for e in r["exercises"].values()
             for c in e["checks"]] + [(name, e) for name, r in results.items() for e in r["errors"]]
    acting = [(name, repr(ch)) for name, text in texts for ch in set(text)
              if ch not in "\n\t" and unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs")]
    assert acting == []
    victim = [c["message"] for c in results["terminal_control_in_messages"]["exercises"]["victim"]["checks"]]
    assert any("Passed [check] all passed" in m for m in victim), victim
    assert not any(line.startswith("[check] all passed") for m in victim for line in m.splitlines()), victim


def test_no_student_process_survives(hostile_run):
    """The forked children of `fork_children_left_running` carry this run's name, and the
    sandbox's own processes (unshare, supervisor) this run's folder in their command line."""
    _, _, gradebook = hostile_run
    root = gradebook.parent.parent
    assert processes_named(run_marker(root), or_cmdline=str(root)) == []


def test_gradebook_untouched(hostile_run):
    _, results, gradebook = hostile_run
    if results["write_gradebook"]["isolation"] not in ("namespace", "userns"):
        unavailable("the gradebook is only protected with namespace isolation")
    assert gradebook.read_bytes() == b"sentinel gradebook"


def test_reference_victim_passes(tmp_path):
    """Control: the same harness gives the victim full marks for a right answer, so a zero above
    is the attack's doing."""
    from autograder.course import Course
    from autograder.grading.grade import grade_notebook
    from autograder.sandbox.process import Limits
    course = tmp_path / "course"
    (course / "source" / "hostile").mkdir(parents=True)
    nbformat.write(make_notebook(hostile_cells(RIGHT)), str(course / "source" / "hostile" / "hostile.ipynb"))
    sub = tmp_path / "hostile.ipynb"
    nbformat.write(make_notebook(hostile_cells(RIGHT)), str(sub))
    result = grade_notebook(sub, Course(course), "hostile", Limits(cell_timeout=20, check_timeout=20))
    assert result.score == result.max_score == 9.0


def test_workers_cannot_read_each_others_cells(limits):
    """Two students graded at once: one worker cannot find the cell files of the other. Each keeps
    them on its own private disk (a tmpfs only its namespace sees), not on the host's /tmp."""
    import tempfile

    from autograder.sandbox.process import WorkerProcess, choose_isolation
    from autograder.sandbox.wire import dumps_request as _dumps
    if choose_isolation("auto") == "process":
        unavailable("private disks need namespace or userns isolation")
    search = ("import glob\ndef find():\n    found = []\n"
              f"    for top in ('/tmp', '/var/tmp', '/dev/shm', {tempfile.gettempdir()!r}):\n"
              "        found += glob.glob(top + '/**/secret*.py', recursive=True)\n    return found\n")
    alice, mallory = WorkerProcess(limits, []), WorkerProcess(limits, [])
    try:
        for worker in (alice, mallory):
            worker.request({"op": "exec", "grade_id": "search", "source": search}, 60, None)
        alice.request({"op": "exec", "grade_id": "secret", "source": "answer = 42\n"}, 60, None)
        find = {"op": "call", "target": ("name", "find"), "args": _dumps(((), {}))}
        assert "/tmp/work/secret.py" in alice.request(find, 60, None)["value"]  # she sees hers
        assert mallory.request(find, 60, None)["value"] == []
        assert not any("secret" in f for _, _, files in os.walk(alice.scratch) for f in files)
    finally:
        alice.close()
        mallory.close()
