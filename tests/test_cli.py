"""The `autograder grade` command: exit codes, one-line errors, and the JSON of the contract."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.notebooks import TEST_TIMEOUT, write_toy_submission

AUTOGRADER = [sys.executable, "-m", "autograder.cli"]


def run_cli(course, *args):
    env = {**os.environ}
    r = subprocess.run([*AUTOGRADER, "grade", *map(str, args), "--course-root", str(course.root),
                        "--check-timeout", str(TEST_TIMEOUT), "--cell-timeout", str(TEST_TIMEOUT), "--quiet"],
                       capture_output=True, text=True, env=env, timeout=300)
    return r


def assert_contract_shape(obj):
    assert {"assignment", "backend", "score", "max_score", "exercises", "errors"} <= set(obj)
    for ex in obj["exercises"].values():
        assert {"score", "max_score", "checks"} <= set(ex)
        for c in ex["checks"]:
            assert {"name", "kind", "passed", "points", "max_points", "message", "backend"} <= set(c)
            assert isinstance(c["passed"], bool) and isinstance(c["points"], float)
    assert obj["score"] == sum(e["score"] for e in obj["exercises"].values())


def test_grades_into_contract_json(toy_course, tmp_path):
    nb = write_toy_submission(tmp_path / "alice" / "toy.ipynb")
    out = tmp_path / "out.json"
    r = run_cli(toy_course, nb, "--json", out)
    assert r.returncode == 0, r.stderr
    obj = json.loads(out.read_text())
    assert_contract_shape(obj)
    assert obj["assignment"] == "toy" and obj["score"] == obj["max_score"] == 4.0
    assert obj["exercises"]["double"]["checks"][0]["name"] == "double_correctness"
    assert obj["backend"] == "cpu"


def test_wrong_answer_still_exits_zero(toy_course, tmp_path):
    nb = write_toy_submission(tmp_path / "toy.ipynb", solution="def double(x):\n    return x\n")
    out = tmp_path / "out.json"
    r = run_cli(toy_course, nb, "--json", out)
    assert r.returncode == 0
    obj = json.loads(out.read_text())
    assert obj["exercises"]["double"]["score"] == 1.0 and obj["exercises"]["triple"]["score"] == 1.0


@pytest.mark.parametrize("content, words", [
    ("this is not json", "not a readable Jupyter notebook"),
    ('{"cells": 3}', "not a readable Jupyter notebook"),
])
def test_unusable_notebook_is_one_line_error(toy_course, tmp_path, content, words):
    bad = tmp_path / "toy.ipynb"
    bad.write_text(content)
    r = run_cli(toy_course, bad, "--json", tmp_path / "out.json")
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and lines[0].startswith("autograder: error:")


def test_unknown_assignment(toy_course, tmp_path):
    nb = write_toy_submission(tmp_path / "toy.ipynb")
    r = run_cli(toy_course, nb, "--json", tmp_path / "o.json", "--assignment", "99_nope")
    assert r.returncode == 2 and "unknown assignment '99_nope'" in r.stderr


def test_missing_file(toy_course, tmp_path):
    r = run_cli(toy_course, tmp_path / "nothere.ipynb", "--json", tmp_path / "o.json", "--assignment", "toy")
    assert r.returncode == 2 and "no such file" in r.stderr


def test_batch_grades_the_good_despite_a_bad_one(toy_course, tmp_path):
    good = write_toy_submission(tmp_path / "a" / "toy.ipynb")
    bad = tmp_path / "b" / "toy.ipynb"
    bad.parent.mkdir()
    bad.write_text("{broken")
    out = tmp_path / "out.json"
    r = run_cli(toy_course, good, bad, "--json", out, "--jobs", "2")
    assert r.returncode == 2
    results = json.loads(out.read_text())
    assert [res["score"] for res in results] == [4.0, 0.0]
    assert results[1]["errors"] and not results[1]["exercises"]


def test_missing_solution_cell_is_reported(toy_course, tmp_path):
    from support.notebooks import toy_cells
    cells = [c for c in toy_cells() if c.metadata["nbgrader"]["grade_id"] != "triple"]
    nb = write_toy_submission(tmp_path / "toy.ipynb", cells=cells)
    out = tmp_path / "out.json"
    assert run_cli(toy_course, nb, "--json", out).returncode == 0
    obj = json.loads(out.read_text())
    assert obj["exercises"]["double"]["score"] == 3.0 and obj["exercises"]["triple"]["score"] == 0.0
    assert any("no solution cell with grade_id 'triple'" in e for e in obj["errors"])
    assert "no solution cell" in obj["exercises"]["triple"]["checks"][0]["message"]


def test_pytest_plugin_turns_cells_into_items(toy_course, tmp_path):
    nb = write_toy_submission(tmp_path / "toy.ipynb", triple="def triple(x):\n    return x\n")
    junit = tmp_path / "j.xml"
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--submission", str(nb),
                        "--course-root", str(toy_course.root), "--junitxml", str(junit), "-q"],
                       capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert "1 failed, 2 passed" in r.stdout, r.stdout[-2000:]
    assert "triple_correctness" in r.stdout and "values of triple(x)" in r.stdout
    xml = junit.read_text()
    assert 'name="points" value="2.0"' in xml


def test_reading_notebooks_skips_the_slow_iri_checker_and_still_validates():
    """nbformat's jsonschema would build ~35 Lark parsers for IRI formats no notebook schema uses
    (about 0.9 s of every grader start); the grader keeps them out while nbformat loads, nbformat
    still rejects an invalid notebook, and the package stays importable for anyone else."""
    probe = (
        "import sys\n"
        "from autograder.course.notebook import nbformat\n"
        "print('loaded' if 'rfc3987_syntax.syntax_helpers' in sys.modules else 'skipped')\n"
        "nb = nbformat.v4.new_notebook(); nb.cells.append({'cell_type': 'code', 'source': 1})\n"
        "try:\n"
        "    nbformat.validate(nb)\n"
        "    print('accepted')\n"
        "except nbformat.ValidationError:\n"
        "    print('rejected')\n"
        "import importlib.util\n"
        "print('findable' if importlib.util.find_spec('rfc3987_syntax') else 'gone')\n")
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["skipped", "rejected", "findable"], r.stdout


def test_worker_starts_before_the_grader_imports_jax(toy_course, tmp_path):
    """`grade_notebook` starts the worker and sends it the setup cell before the grader imports
    the session and JAX, so the two `import jax` run side by side; the grade is unchanged."""
    nb = write_toy_submission(tmp_path / "toy.ipynb")
    probe = (
        "import json, sys\n"
        "from autograder.grading import startup, grade\n"
        "seen = []\n"
        "real = startup.start_worker\n"
        "def spy(*a, **k):\n"
        "    seen.append('jax' in sys.modules)\n"
        "    return real(*a, **k)\n"
        "grade.start_worker = spy\n"
        "from autograder.course.layout import Course\n"
        "from autograder.sandbox.process import Limits\n"
        f"r = grade.grade_notebook({str(nb)!r}, Course({str(toy_course.root)!r}),\n"
        f"                         limits=Limits(cell_timeout={TEST_TIMEOUT}, check_timeout={TEST_TIMEOUT}))\n"
        "print(json.dumps({'jax_before_worker': seen, 'score': r.to_json()['score'],\n"
        "                  'max': r.to_json()['max_score']}))\n")
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300,
                       env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["jax_before_worker"] == [False], out
    assert out["score"] == out["max"] > 0, out


def test_unavailable_isolation_is_one_line_error_not_a_zero_grade(toy_course, tmp_path):
    """Asking for an isolation this machine cannot give is the instructor's setup, not the
    student's work: one line and exit 2, never a notebook scored zero."""
    nb = write_toy_submission(tmp_path / "toy.ipynb")
    r = subprocess.run([*AUTOGRADER, "grade", str(nb), "--json", str(tmp_path / "out.json"), "--quiet",
                        "--course-root", str(toy_course.root), "--isolation", "userns"],
                       capture_output=True, text=True, timeout=300,
                       env={**os.environ, "PATH": str(tmp_path / "no-unshare-here")})
    assert r.returncode == 2, (r.returncode, r.stderr[-1000:])
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "userns isolation is not available here" in lines[0], lines
    out = json.loads((tmp_path / "out.json").read_text())
    assert out["exercises"] == {} and out["max_score"] == 0.0
