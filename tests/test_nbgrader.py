"""nbgrader_config.py does what it claims under real `nbgrader autograde`, and release/ is what
`nbgrader generate_assignment` makes of source/."""
from __future__ import annotations

import nbformat

from support.notebooks import code_cell, make_notebook
from autograder.classroom import nbgrader_run
from autograder.course.release import out_of_sync

WARNS = ("def widen(x):\n"
         "    # asks for float64 with x64 off: JAX warns on stderr and returns float32\n"
         "    return jnp.asarray(x, dtype=jnp.float64) * 1.0\n")


def _warning_course(toy_course):
    nb = make_notebook([
        code_cell("import jax\nimport jax.numpy as jnp\nfrom autograder import check", "setup"),
        code_cell(WARNS, "widen", role="solution"),
        code_cell("check.assert_close(widen(jnp.ones(2)), jnp.ones(2), what='widen(x)')",
                  "widen_correctness", role="test", points=1),
    ])
    nbformat.write(nb, str(toy_course.source / "toy" / "toy.ipynb"))
    return nb


def test_jax_warning_on_stderr_keeps_the_points(toy_course, tmp_path):
    nb = _warning_course(toy_course)
    sub = tmp_path / "sub.ipynb"
    nbformat.write(nb, str(sub))
    work = nbgrader_run.prepare(toy_course, tmp_path / "nbg", "toy", {"alice": sub})
    nbgrader_run.generate(work, "toy")
    assert nbgrader_run.run_nbgrader_autograde(work, "toy").returncode == 0
    assert nbgrader_run.read_gradebook(work, "toy") == {"alice": {"widen_correctness": 1.0}}
    graded = nbformat.read(str(work / "autograded" / "alice" / "toy" / "toy.ipynb"), as_version=4)
    # the warning really was raised (so the test can fail): with an empty IgnorePattern.pattern (the default) it zeroes the cell
    config = (work / "nbgrader_config.py").read_text()
    (work / "nbgrader_config.py").write_text(config + "\nc.IgnorePattern.pattern = \"\"\n")
    assert nbgrader_run.run_nbgrader_autograde(work, "toy").returncode == 0
    assert nbgrader_run.read_gradebook(work, "toy") == {"alice": {"widen_correctness": 0.0}}
    assert graded.cells


def test_deleted_test_cell_is_restored(toy_course, tmp_path):
    from support.notebooks import toy_cells
    cells = [c for c in toy_cells() if c.metadata["nbgrader"]["grade_id"] != "double_jit"]
    sub = tmp_path / "sub.ipynb"
    nbformat.write(make_notebook(cells), str(sub))
    work = nbgrader_run.prepare(toy_course, tmp_path / "nbg", "toy", {"bob": sub})
    nbgrader_run.generate(work, "toy")
    assert nbgrader_run.run_nbgrader_autograde(work, "toy").returncode == 0
    assert nbgrader_run.read_gradebook(work, "toy")["bob"]["double_jit"] == 1.0


def test_release_is_in_sync_with_source(course):
    assert out_of_sync(course) == [], "run `make release` and commit release/"
