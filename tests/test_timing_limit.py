"""A performance check whose timing runs out of the check's time limit says so, on a hidden test too.

Under load, an answer that compiles slowly (one scan per column of a wide input) can keep the timing
worker busy past the check's time limit. The check fails either way; its message must name what
happened (`failure.CATEGORIES["timing-limit"]`) and a fix in the grader's own words, not the generic
"a test failed". Graded through the real CLI: a submission whose function is slow to trace only at the
performance input's size, and one that is not.
"""
from __future__ import annotations

import json
import subprocess
import sys

import nbformat

from support.notebooks import code_cell, make_notebook

SLOW_AT_SIZE = ("def scaled(x):\n"
                "    ### BEGIN SOLUTION\n"
                "    if x.shape[0] >= 256:\n"
                "        import time\n"
                "        time.sleep(60)          # at trace time: the timing worker's compile never ends in time\n"
                "    return 2.0 * x\n"
                "    ### END SOLUTION\n")
QUICK = "def scaled(x):\n    ### BEGIN SOLUTION\n    return 2.0 * x\n    ### END SOLUTION\n"
TESTS = [("scaled_correctness", "check.assert_close(scaled(jnp.arange(3.0)), 2.0 * jnp.arange(3.0), what='scaled(x)')"),
         ("scaled_performance",
          "_x = jnp.ones((256, 64))\n"
          "### BEGIN HIDDEN TESTS\n"
          "def _reference(x):\n"
          "    return x + x\n"
          "check.assert_runtime_within(scaled, _reference, (_x,), 20, what='x of shape (256, 64)')\n"
          "### END HIDDEN TESTS")]


def _notebook(solution: str):
    cells = [code_cell("import jax\nimport jax.numpy as jnp\nfrom autograder import check", "setup"),
             code_cell(solution, "scaled", role="solution")]
    cells += [code_cell(src, gid, role="test", points=1) for gid, src in TESTS]
    return make_notebook(cells)


def test_a_timing_past_the_check_limit_fails_with_its_own_words(tmp_path):
    source = tmp_path / "course" / "source" / "slow" / "slow.ipynb"
    source.parent.mkdir(parents=True)
    nbformat.write(_notebook(QUICK), str(source))
    paths = []
    for name, solution in (("slow", SLOW_AT_SIZE), ("quick", QUICK)):
        path = tmp_path / "subs" / name / "slow.ipynb"
        path.parent.mkdir(parents=True)
        nbformat.write(_notebook(solution), str(path))
        paths.append(path)
    out = tmp_path / "results.json"
    cmd = [sys.executable, "-m", "autograder.cli", "grade", *map(str, paths), "--json", str(out),
           "--course-root", str(tmp_path / "course"), "--assignment", "slow", "--jobs", "2", "--quiet",
           "--cell-timeout", "10", "--check-timeout", "6"]
    subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    by_name = {r["notebook"].split("/")[-2]: r for r in json.loads(out.read_text())}
    checks = {name: {c["name"]: c for c in r["exercises"]["scaled"]["checks"]} for name, r in by_name.items()}
    assert checks["quick"]["scaled_performance"]["passed"] and checks["quick"]["scaled_correctness"]["passed"]
    slow = checks["slow"]["scaled_performance"]
    assert checks["slow"]["scaled_correctness"]["passed"] and not slow["passed"]
    assert "timing it did not finish within the grader's time limit" in slow["message"], slow["message"]
    assert "time `jax.jit` of your function yourself" in slow["message"], slow["message"]
