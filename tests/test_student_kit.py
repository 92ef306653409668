"""The student kit (`autograder student-kit`) and the students' `autograder check`.

The kit must hold no solution and no hidden test, must install on its own into a fresh virtual
environment, and there its `autograder check` and nbgrader's Validate must give the verdicts the
grader gives on the visible tests.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

from support.notebooks import ROOT, TEST_TIMEOUT, load_cases, submission_from_source
from autograder.course import Course

COURSE = Course(ROOT)
CLI = [sys.executable, "-m", "autograder.cli"]


def secret_lines(course: Course) -> set[str]:
    """Lines of 20+ characters that occur only inside solution or hidden-test regions of source/."""
    secret, public = set(), set()
    for name in course.assignment_names():
        nb = nbformat.read(str(course.source / name / f"{name}.ipynb"), as_version=4)
        for cell in nb.cells:
            inside = False
            for line in cell.source.splitlines():
                text = line.strip()
                if "BEGIN SOLUTION" in text or "BEGIN HIDDEN TESTS" in text:
                    inside = True
                elif "END SOLUTION" in text or "END HIDDEN TESTS" in text:
                    inside = False
                elif len(text) >= 20:
                    (secret if inside else public).add(text)
    return secret - public


def kit_texts(kit: Path):
    """(name, text) of every file in the kit (not the .venv that install.sh makes in it);
    notebooks by cell source, wheels by member."""
    for path in sorted(kit.rglob("*")):
        if not path.is_file() or ".venv" in path.relative_to(kit).parts:
            continue
        if path.suffix == ".whl":
            with zipfile.ZipFile(path) as zf:
                for member in zf.namelist():
                    yield f"{path.name}!{member}", zf.read(member).decode("utf-8", errors="replace")
        elif path.suffix == ".ipynb":
            nb = nbformat.read(str(path), as_version=4)
            yield str(path), "\n".join(c.source for c in nb.cells)
            yield str(path) + " (raw)", path.read_text()
        else:
            yield str(path), path.read_bytes().decode("utf-8", errors="replace")


def test_kit_has_notebooks_library_requirements_and_readme(kit):
    for name in COURSE.assignment_names():
        assert (kit / name / f"{name}.ipynb").exists()
    assert len(list((kit / "wheels").glob("jax_course_autograder-*.whl"))) == 1
    reqs = [r for r in (kit / "requirements.txt").read_text().splitlines() if r and not r.startswith("#")]
    assert any(r.startswith("jax==") for r in reqs) and all("==" in r for r in reqs)
    assert "hidden tests" in (kit / "README.md").read_text()
    assert not {p.name for p in kit.iterdir()} & {"source", "tests", "autograded", "submitted", "examples"}


def test_kit_holds_no_solution_or_hidden_test(kit):
    secrets = secret_lines(COURSE)
    assert len(secrets) > 100  # the scan has something to find
    leaks = []
    for name, text in kit_texts(kit):
        for marker in ("BEGIN SOLUTION", "BEGIN HIDDEN TESTS", "END SOLUTION", "END HIDDEN TESTS"):
            if marker in text:
                leaks.append((name, marker))
        leaks += [(name, line) for line in secrets if line in text]
    assert not leaks, leaks[:10]


def test_the_scan_would_catch_a_leak(tmp_path):
    """Control for the test above: a solution line planted in a kit file is found."""
    line = sorted(secret_lines(COURSE))[0]
    (tmp_path / "notes.txt").write_text(f"copied from the instructor: {line}\n")
    assert any(line in text for _, text in kit_texts(tmp_path))


def test_without_source_the_package_says_it_is_the_kit(kit):
    code = ("from autograder.course import Course, NotebookError\n"
            "try:\n    Course().assignment('02_static_shapes').solution_cells\n"
            "except NotebookError as exc:\n    print('REFUSED', exc)\n")
    env = {k: v for k, v in os.environ.items() if k != "JAX_COURSE_ROOT"}
    r = subprocess.run([sys.executable, "-c", code], cwd=kit, capture_output=True, text=True, env=env)
    assert "REFUSED" in r.stdout and "student kit" in r.stdout, r.stdout + r.stderr
    r = subprocess.run([*CLI, "grade", "02_static_shapes/02_static_shapes.ipynb", "--json", "o.json"],
                       cwd=kit, capture_output=True, text=True, env=env)
    assert r.returncode == 2 and "student kit" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_kit_refuses_a_non_empty_folder(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    r = subprocess.run([*CLI, "student-kit", "--out", str(tmp_path), "--course-root", str(ROOT)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "not empty" in r.stderr and (tmp_path / "keep.txt").read_text() == "mine"


# ---------------------------------------------------------------- `autograder check`
def write(nb, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(path))
    return path


def run_check(notebook: Path, python=sys.executable, cwd=None):
    return subprocess.run([python, "-m", "autograder.cli", "check", str(notebook),
                           "--cell-timeout", str(TEST_TIMEOUT), "--check-timeout", str(TEST_TIMEOUT)],
                          capture_output=True, text=True, timeout=600, cwd=cwd)


def test_check_exit_codes_and_last_line(tmp_path):
    a = "02_static_shapes"
    ref = write(submission_from_source(COURSE, a), tmp_path / "ref" / f"{a}.ipynb")
    release = write(submission_from_source(COURSE, a, base="release"), tmp_path / "rel" / f"{a}.ipynb")
    bad = tmp_path / "bad" / f"{a}.ipynb"
    bad.parent.mkdir()
    bad.write_text("{not json")
    r = run_check(ref)
    assert r.returncode == 0, r.stdout[-2000:]
    assert r.stdout.strip().splitlines()[-1] == "visible tests passed; hidden tests run at grading"
    assert "all tests passed" not in r.stdout.lower()
    r = run_check(release)
    assert r.returncode == 1 and "visible test(s) failed" in r.stdout
    r = run_check(bad)
    assert r.returncode == 2 and r.stderr.startswith("autograder: error:") and len(r.stderr.splitlines()) == 1


# ---------------------------------------------------------------- the kit, installed for real
# (the `kit` and `kit_venv` fixtures are in conftest.py: the browser test uses them too)
VALIDATE = """\
import json, sys
from jupyter_core.paths import jupyter_config_path
from nbgrader.apps import NbGrader
from nbgrader.validator import Validator
app = NbGrader()
app.config_file_paths.append(jupyter_config_path())  # as the Validate button's handler loads it
app.load_config_file()
print(json.dumps(Validator(config=app.config).validate(sys.argv[1])))
"""


def failed_by_validate(python, notebook: Path, cwd) -> set[str]:
    r = subprocess.run([str(python), "-c", VALIDATE, str(notebook)], capture_output=True, text=True,
                       timeout=600, cwd=cwd)
    assert r.returncode == 0, r.stderr[-2000:]
    verdict = json.loads(r.stdout.strip().splitlines()[-1])
    by_source = {c.source.strip(): c.metadata.nbgrader["grade_id"]
                 for c in nbformat.read(str(notebook), as_version=4).cells if c.cell_type == "code"}
    return {by_source[f["source"]] for f in verdict.get("failed", [])}


def test_installed_kit_runs_the_visible_tests(kit, kit_venv, tmp_path):
    """In the fresh venv: `autograder check` passes a solved notebook, fails the untouched one and a
    known-wrong one, and nbgrader's Validator (with the kit's student config) fails the same cells."""
    from autograder.classroom.demo import build_submission
    python = kit_venv / "bin" / "python"
    a = "02_static_shapes"
    release, source = kit / a / f"{a}.ipynb", COURSE.source / a / f"{a}.ipynb"
    wrong_case = load_cases(a)["mask_tensor_boolean_index"]
    notebooks = {"solved": write(build_submission(release, source, {}), tmp_path / "solved" / f"{a}.ipynb"),
                 "wrong": write(build_submission(release, source, wrong_case["cells"]),
                                tmp_path / "wrong" / f"{a}.ipynb"),
                 "untouched": release}
    for label, notebook in notebooks.items():
        out = tmp_path / f"{label}.json"
        r = subprocess.run([str(python), "-m", "autograder.cli", "check", str(notebook), "--json", str(out)],
                           capture_output=True, text=True, timeout=600, cwd=tmp_path)
        failed = {c["name"] for e in json.loads(out.read_text())["exercises"].values()
                  for c in e["checks"] if not c["passed"]}
        assert r.returncode == (0 if label == "solved" else 1), r.stdout[-3000:] + r.stderr[-2000:]
        if label == "wrong":
            assert failed == set(wrong_case["fails"])
        assert failed_by_validate(python, notebook, tmp_path) == failed, label
