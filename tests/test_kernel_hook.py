"""The explanation hook in a real Jupyter kernel (nbclient, one kernel for the file).

One notebook runs once: a stub error before `from autograder import check` (no explanation yet),
the import, then cells that raise an error a rule knows, one no rule knows, a failed check, a
successful cell, the import again after `importlib.reload`, and a diagnosis that raises. Each test reads the outputs of its cell. What nbgrader scores is unchanged:
it gives 0 to a test cell with an error output (or any stderr), and the hook writes only after
an error; `nbgrader autograde` with the hook on is covered by tests/test_course.py (release
notebooks, whose test cells raise the stub error, must score 0; known-wrong ones lose exactly their
points).
"""
from __future__ import annotations

import time

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from support.notebooks import ROOT

HEADING = "[autograder] what the error above means:"
STUB = "def exercise(x):\n    raise NotImplementedError()\n\nexercise(1.0)"

CELLS = {
    "before_import": STUB,
    "import": "import jax\nimport jax.numpy as jnp\nfrom autograder import check",
    "stub": STUB,
    "vmap": "def pairwise(x, y):\n    return x * y\n\njax.vmap(pairwise)(jnp.ones(3), jnp.ones(4))",
    "unknown": 'settings = {}\nsettings["missing"]',
    "failed_check": "check.assert_close((jnp.ones(2),), [jnp.ones(2)], what='answer')",  # has a fix
    "succeeds": "y = jnp.ones(2) * 2\nprint('ok', float(y.sum()))",
    "reimport": ("import importlib\nimport autograder.checks.kernel_hook as hook\n"
                 "import autograder.checks.check as check_module\n"
                 "importlib.reload(hook)\nimportlib.reload(check_module)\n"
                 "from autograder import check\nfrom autograder.checks import check as again"),
    "stub_again": STUB,
    "broken_diagnosis": ("import autograder.checks.diagnose as diagnose\nworking = diagnose.explanation_block\n\n"
                         "def broken(exc):\n    raise RuntimeError('the diagnosis broke')\n\n"
                         "diagnose.explanation_block = broken\nexercise(1.0)"),
    "restore": "diagnose.explanation_block = working",
}


@pytest.fixture(scope="module")
def ran():
    """{cell name: its outputs} after running the notebook once in a fresh python3 kernel."""
    from nbclient import NotebookClient
    nb = new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                               "language": "python"}})
    nb.cells = [new_code_cell(source, metadata={"name": name}) for name, source in CELLS.items()]
    started = time.monotonic()
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(ROOT)}}).execute()
    print(f"notebook ran in {time.monotonic() - started:.1f} s")
    return {cell.metadata["name"]: cell.outputs for cell in nb.cells}


def error_of(outputs):
    errors = [o for o in outputs if o.output_type == "error"]
    assert len(errors) == 1, outputs
    return errors[0]


def stderr_after_error(outputs) -> str:
    """The stderr text written after the cell's error output (where the hook writes)."""
    at = next(i for i, o in enumerate(outputs) if o.output_type == "error")
    return "".join(o.text for o in outputs[at + 1:] if o.output_type == "stream" and o.name == "stderr")


def everything(outputs) -> str:
    return "\n".join(o.get("text", "") + "\n".join(o.get("traceback", [])) for o in outputs)


def test_no_explanation_before_the_notebook_imports_check(ran):
    assert error_of(ran["before_import"]).ename == "NotImplementedError"
    assert HEADING not in everything(ran["before_import"])


def test_a_known_error_is_explained_under_its_own_traceback(ran):
    error = error_of(ran["stub"])
    assert error.ename == "NotImplementedError"
    assert any("exercise" in line for line in error.traceback), error.traceback   # the student's frame
    after = stderr_after_error(ran["stub"])
    assert after.startswith(HEADING), after
    assert "\n  cause: " in after and "\n  fix: " in after, after
    assert after.count("cause:") == 1


def test_a_vmap_size_mismatch_is_explained_with_in_axes(ran):
    error = error_of(ran["vmap"])
    assert error.ename == "ValueError"
    assert "inconsistent sizes" in "\n".join(error.traceback)        # JAX's own text stays
    after = stderr_after_error(ran["vmap"])
    assert "cause:" in after and "in_axes=" in after.split("fix:", 1)[-1], after


def test_an_error_no_rule_knows_gets_nothing_added(ran):
    assert error_of(ran["unknown"]).ename == "KeyError"
    assert stderr_after_error(ran["unknown"]) == ""
    assert HEADING not in everything(ran["unknown"])


def test_a_failed_check_keeps_its_one_cause_and_fix(ran):
    error = error_of(ran["failed_check"])
    assert error.ename == "CheckFailure"
    text = everything(ran["failed_check"])
    assert "[check]" in text and HEADING not in text and stderr_after_error(ran["failed_check"]) == ""
    assert text.count("fix:") == 1, text


def test_a_cell_that_succeeds_gets_nothing(ran):
    outputs = ran["succeeds"]
    assert [(o.output_type, o.get("name")) for o in outputs] == [("stream", "stdout")], outputs
    assert outputs[0].text == "ok 4.0\n"


def test_importing_again_and_reloading_prints_the_explanation_once(ran):
    assert not [o for o in ran["reimport"] if o.output_type == "error"], ran["reimport"]
    assert error_of(ran["stub_again"]).ename == "NotImplementedError"
    assert stderr_after_error(ran["stub_again"]).count(HEADING) == 1


def test_a_failing_diagnosis_leaves_the_error_as_it_was(ran):
    outputs = ran["broken_diagnosis"]
    assert error_of(outputs).ename == "NotImplementedError"
    assert [o.output_type for o in outputs] == ["error"], outputs     # no "Error in callback" on stderr
    assert not ran["restore"]
