"""The red-team corpus of issue 34 (tests/hostile/trust.py), graded through the real CLI.

`hostile/trust.py` holds the attacks and what each did against b4b601d. One batch call (`--jobs 2`)
grades every attack but those graded alone: submissions of the boundary harness of test_boundary.py
and of course assignments from source/ cut down to a few exercises, each with one or two solution
cells replaced. After it, each memory attack is graded alone in a grader process of its own, whose
peak memory is read from the kernel, and the attack on the batch's compile cache is graded alone
with a compile cache (the batch runs without one: building a cache per assignment costs more than
it saves for one or two notebooks each). For every attack: the attacked exercise gets no more than its
honest answer earns and loses the checks the trick passed (or 0 with an integrity failure where the
entry says so), every other exercise keeps full marks, no hidden value appears in any
student-facing text (each check's JSON message, its feedback-page text, the notebook's errors), and
the grader's memory stays bounded.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

from hostile.trust import ASSIGNMENTS, ATTACKS
from support.notebooks import ROOT, make_notebook, submission_from_source
from test_boundary import run_measured, scratch_outside_tmp
from test_boundary import write_course as write_boundary_course
from test_boundary import write_submission as write_boundary_submission

# Short, but with room for the course's own performance checks on a loaded 2-core machine.
TIMEOUT = "20"
# The grader's peak memory while grading one notebook, whatever the notebook sends: 0.23 GB for an
# honest boundary notebook, 0.29 GB for an honest 08 (JAX and the replies); the bound leaves room for
# replies of tens of MB (the attacks took it to 1.5, 1.3 and 2.2 GB at b4b601d).
PEAK_KB = 1_000_000
ALONE = {name for name, attack in ATTACKS.items() if attack.get("memory") or attack.get("cache")}
BATCH = {name: attack for name, attack in ATTACKS.items() if name not in ALONE}


def notebook_of(name: str) -> str:
    return ATTACKS[name].get("notebook", name)


# ---------------------------------------------------------------- the course the corpus attacks
def trimmed_source(assignment: str, graded, solution_only=()) -> nbformat.NotebookNode:
    """source/<assignment> with its setup cells, the solution and test cells of the `graded`
    exercises and the solution cells of the `solution_only` ones."""
    from autograder.course.notebook import classify
    nb = nbformat.read(str(ROOT / "source" / assignment / f"{assignment}.ipynb"), as_version=4)
    roles = {c.index: c for c in classify(nb)}
    kept = []
    for i, cell in enumerate(nb.cells):
        c = roles.get(i)
        if c is None:
            continue
        if c.role == "setup" or (c.role == "solution" and c.grade_id in (*graded, *solution_only)) or \
                (c.role == "test" and c.exercise in graded):
            kept.append(cell)
    out = make_notebook([])
    out.cells = kept
    return out


def write_course(root: Path) -> Path:
    """The boundary harness (test_boundary.py) and the cut-down course assignments, under root/course."""
    course = write_boundary_course(root)
    for assignment, (graded, solution_only) in ASSIGNMENTS.items():
        path = course / "source" / assignment / f"{assignment}.ipynb"
        path.parent.mkdir(parents=True)
        nbformat.write(trimmed_source(assignment, graded, solution_only), str(path))
    return course


def write_notebook(course: Path, subs: Path, notebook: str) -> Path:
    """The submission `notebook`: its assignment, with the cells of every attack that shares it."""
    attacks = [a for name, a in ATTACKS.items() if notebook_of(name) == notebook]
    assignment = attacks[0]["assignment"]
    assert all(a["assignment"] == assignment for a in attacks)
    if assignment == "boundary":
        assert len(attacks) == 1 and attacks[0]["exercise"] == "victim"
        return write_boundary_submission(subs, notebook, attacks[0]["cell"])
    from autograder.course import Course
    cells = {}
    for a in attacks:
        cells.update({a["exercise"]: a["cell"], **a.get("also", {})})
    nb = submission_from_source(Course(course), assignment, cells)
    path = subs / notebook / f"{assignment}.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(nb, str(path))
    return path


def grade_command(course: Path, paths, out: Path, jobs: int = 2, memory_mb: int = 3072, cache=False) -> list[str]:
    return [sys.executable, "-m", "autograder.cli", "grade", *map(str, paths), "--json", str(out),
            "--course-root", str(course), "--jobs", str(jobs), "--quiet", "--cell-timeout", TIMEOUT,
            "--check-timeout", TIMEOUT, "--memory-mb", str(memory_mb),
            "--compile-cache" if cache else "--no-compile-cache"]


def results_by_notebook(out: Path) -> dict:
    payload = json.loads(out.read_text())
    results = payload if isinstance(payload, list) else [payload]
    return {os.path.basename(os.path.dirname(r["notebook"])): r for r in results}


@pytest.fixture(scope="module")
def trust_root():
    root = scratch_outside_tmp()
    try:
        yield root, write_course(root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def trust_run(trust_root):
    """Every attack but those graded alone, in one batch call."""
    root, course = trust_root
    notebooks = sorted({notebook_of(name) for name in BATCH})
    paths = [write_notebook(course, root / "subs", nb) for nb in notebooks]
    out = root / "results.json"
    proc = subprocess.run(grade_command(course, paths, out), capture_output=True, text=True, timeout=1500)
    return proc, course, results_by_notebook(out) if out.exists() else {}


@pytest.fixture(scope="module")
def alone_runs(trust_root, trust_run):
    """Each memory attack alone, in a grader process of its own whose peak memory the kernel reports;
    each cache attack alone, with the batch's compile cache. After the batch, all at once."""
    root, course = trust_root

    def one(name):
        attack = ATTACKS[name]
        path = write_notebook(course, root / "alone", notebook_of(name))
        out = root / f"alone-{name}.json"
        cmd = grade_command(course, [path], out, jobs=1, memory_mb=4096, cache=bool(attack.get("cache")))
        code, peak_kb, stderr = run_measured(cmd)
        return name, (code, peak_kb, stderr, json.loads(out.read_text()) if out.exists() else None)

    with ThreadPoolExecutor(max_workers=len(ALONE)) as pool:
        return dict(pool.map(one, sorted(ALONE)))


# ---------------------------------------------------------------- what a student reads
def student_text(result: dict, course: Path) -> str:
    """Every message of the result, as the JSON has it and as the feedback page shows it, and its errors."""
    from autograder.classroom.feedback import hidden_lines, student_message
    from autograder.course import Course
    sources = {c.grade_id: c.source for c in Course(course).assignment(result["assignment"]).test_cells}
    texts = list(map(str, result.get("errors") or []))
    for exercise in result["exercises"].values():
        for check in exercise["checks"]:
            texts.append(check["message"])
            texts.append(student_message(check, hidden_lines(sources.get(check["name"], ""))))
    return "\n".join(texts)


def assert_attack_failed(result: dict, name: str, course: Path):
    attack = ATTACKS[name]
    attacked = {ex for n in ATTACKS if notebook_of(n) == notebook_of(name)
                for ex in (ATTACKS[n]["exercise"], *ATTACKS[n].get("also", {}))}
    exercises = result["exercises"]
    summary = {c["name"]: (c["passed"], c["message"][:300]) for c in exercises[attack["exercise"]]["checks"]}
    for exercise, ex in exercises.items():   # the bystanders keep full marks
        if exercise not in attacked:
            assert ex["score"] == ex["max_score"], (exercise, ex, result.get("errors"))
    mine = exercises[attack["exercise"]]
    score, checks = mine["score"], {c["name"]: c for c in mine["checks"]}
    integrity = any(c["kind"] == "integrity" for c in mine["checks"])
    if attack.get("integrity"):
        assert integrity and score == 0.0, (score, summary)
    if attack.get("honest") is not None:   # no false credit: at most what the honest answer earns
        assert score <= attack["honest"], (score, summary)
    for stolen in attack.get("stolen", ()):  # and the checks the trick passed are lost
        assert stolen in checks and not checks[stolen]["passed"], (stolen, summary)
    text = student_text(result, course)
    leaked = [m for m in attack.get("leak", ()) if m in text]
    assert not leaked, f"hidden data {leaked} in: {text[:3000]}"


# ---------------------------------------------------------------- the tests
def test_the_markers_are_those_of_the_hidden_tests():
    """A leak is found by the hidden values it would carry; they were taken from these test cells."""
    from autograder.course import Course
    for name, attack in ATTACKS.items():
        if "markers_from" in attack:
            cell, text = attack["markers_from"]
            sources = {c.grade_id: c.source for c in Course(ROOT).assignment(attack["assignment"]).test_cells}
            assert text in sources[cell], f"{name}: {cell} no longer computes its hidden values with {text!r}"


def test_the_batch_was_graded(trust_run):
    proc, _, results = trust_run
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert set(results) == {notebook_of(name) for name in BATCH}


@pytest.mark.parametrize("attack", sorted(BATCH))
def test_trust_attack_fails(trust_run, attack):
    _, course, results = trust_run
    assert_attack_failed(results[notebook_of(attack)], attack, course)


@pytest.mark.parametrize("attack", sorted(ALONE))
def test_attack_graded_alone_fails_and_the_grader_stays_bounded(trust_root, alone_runs, attack):
    code, peak_kb, stderr, result = alone_runs[attack]
    assert code == 0 and result is not None, stderr[-3000:]
    assert_attack_failed(result, attack, trust_root[1])
    if ATTACKS[attack].get("memory"):
        assert peak_kb < PEAK_KB, f"grader peak RSS {peak_kb / 1024:.0f} MB"
