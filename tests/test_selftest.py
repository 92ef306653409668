"""`autograder selftest`, what a lab admin runs on a new GPU/TPU image, and the per-backend tolerance
policy it relies on.

`make test` runs the self-test on one assignment here: 07_parallelism on a *single* device (the
course tests grade it on 8 simulated devices, and test_course.py checks the self-test's verdicts
on that grading), so both device counts are covered on every run.
"""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from support.notebooks import ROOT

CLI = [sys.executable, "-m", "autograder.cli", "selftest"]


def run_selftest(*args, env=None):
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=900,
                          env={**os.environ, "COLUMNS": "200", **(env or {})})


def test_parallelism_passes_on_a_single_device():
    """07's setup cell asks for 8 simulated CPU devices unless XLA_FLAGS already names a count: one
    device is what a one-GPU lab machine has. The psum/pmean cases are right there."""
    r = run_selftest("--assignment", "07_parallelism", "--course-root", str(ROOT),
                     env={"XLA_FLAGS": "--xla_force_host_platform_device_count=1"})
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    row = next(line for line in r.stdout.splitlines() if "07_parallelism" in line)
    cells = [c.strip() for c in row.strip("│┃| ").split("│")]
    from autograder.course import Course
    from autograder.lab import selftest
    n = 1 + len(selftest.load_cases(Course(ROOT), "07_parallelism"))   # the reference and each case
    assert cells[1:5] == ["cpu", "cpu", "1", f"{n}/{n}"], row
    assert f"PASS: {n}/{n} verdicts as expected" in r.stdout


def _case_file(course_root, text):
    (course_root / "tests" / "cases").mkdir(parents=True)
    (course_root / "tests" / "cases" / "toy.py").write_text(text)


def test_known_wrong_answers_fail_under_a_tpus_tolerance():
    """Compared with the TPU's float32 tolerance (5e-2, the loosest row) while running here, every
    known-wrong answer of 05 and 08 still loses its points: before their cells changed, 05's
    finite-difference HVP and 08's epsilon norm (under the GPU's row too) and two bfloat16
    log-sum-exps passed their correctness cells, as they would on such a lab."""
    r = run_selftest("--tolerance-of", "tpu", "--assignment", "05_autodiff",
                     "--assignment", "08_numerics_and_performance", "--course-root", str(ROOT))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "PASS" in r.stdout.strip().splitlines()[-1]


def test_the_table_keeps_its_headers_when_piped(capsys):
    """A lab admin pipes the self-test into a log: rich's 80-column default cut the headers there
    ("as expec…") once 08_numerics_and_performance widened the first column."""
    from autograder.lab.selftest import AssignmentOutcome, print_outcomes
    print_outcomes([AssignmentOutcome("08_numerics_and_performance", "gpu", "NVIDIA H100 80GB HBM3", 1, "0.10.2")])
    out = capsys.readouterr().out
    assert all(h in out for h in ("as expected", "device kind", "NVIDIA H100 80GB HBM3", "seconds")), out


def test_an_unexpected_verdict_fails_the_selftest(toy_course):
    """A case that claims a failure the grader does not find (its code is right) is reported, with
    the cell, and the exit status is 1."""
    _case_file(toy_course.root, '''
CASES = {
    "double_identity": {"cells": {"double": "def double(x):\\n    return x\\n"},
                        "fails": ["double_correctness"]},
    "triple_claimed_wrong": {"cells": {"triple": "def triple(x):\\n    return 3.0 * x\\n"},
                             "fails": ["triple_correctness"]},
}
''')
    r = run_selftest("--course-root", str(toy_course.root))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "2/3  FAIL" in r.stdout
    assert "toy / triple_claimed_wrong: unexpected verdict" in r.stdout
    assert "triple_correctness: passed, expected to fail" in r.stdout
    assert "double_identity" not in r.stdout     # as expected: not listed


def test_without_known_wrong_cases_it_says_where_to_run(toy_course):
    r = run_selftest("--course-root", str(toy_course.root))
    assert r.returncode == 2 and "no tests/cases/" in r.stderr and r.stderr.count("\n") == 1


def test_unknown_assignment(toy_course):
    r = run_selftest("--course-root", str(toy_course.root), "--assignment", "99_nope")
    assert r.returncode == 2 and "unknown assignment '99_nope'" in r.stderr


# ------------------------------------------------------------------ tolerances per backend
def _round_mantissa(x, bits):
    """Round float32 values to `bits` explicit mantissa bits (TF32: 10, bfloat16: 7)."""
    x = np.asarray(x, np.float32)
    as_int = x.view(np.uint32).astype(np.uint64)
    drop = 23 - bits
    rounded = ((as_int + (1 << (drop - 1))) >> drop) << drop
    return rounded.astype(np.uint32).view(np.float32)


def _matmul_like(bits, inner=64, seed=0):
    """A float32 reference matmul and the same product from inputs rounded as an accelerator's
    default precision does (products accumulated in float32)."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(64, inner)).astype(np.float32)
    b = rng.normal(size=(inner, 16)).astype(np.float32)
    return (a @ b).astype(np.float32), (_round_mantissa(a, bits) @ _round_mantissa(b, bits)).astype(np.float32)


@pytest.fixture
def backend():
    from autograder.checks import check
    saved = check.ACTUAL_BACKEND

    def use(name):
        check.ACTUAL_BACKEND = name
        return check
    yield use
    check.ACTUAL_BACKEND = saved


@pytest.mark.parametrize("name, bits, inner", [("gpu", 10, 256), ("tpu", 7, 32)])
def test_accelerator_precision_passes_on_its_backend_only(backend, name, bits, inner):
    """TF32 (GPU) over 256 terms and one bfloat16 pass (TPU) over 32, the course's largest sums."""
    expected, accelerated = _matmul_like(bits, inner)
    backend(name).assert_close(accelerated, expected, what="xs @ W")
    with pytest.raises(AssertionError, match="values of xs @ W"):
        backend("cpu").assert_close(accelerated, expected, what="xs @ W")


@pytest.mark.parametrize("name", ["cpu", "gpu", "tpu", "some-new-backend"])
def test_a_wrong_answer_fails_on_every_backend(backend, name):
    expected, _ = _matmul_like(10)
    with pytest.raises(AssertionError):
        backend(name).assert_close(expected * 1.25, expected, what="xs @ W")   # 25% off: e.g. a wrong mean
    with pytest.raises(AssertionError):
        backend(name).assert_equal(np.array([1, 2, 4], np.int32), np.array([1, 2, 3], np.int32))


def test_a_cells_own_tolerance_is_floored_off_the_cpu(backend):
    expected, accelerated = _matmul_like(10)
    backend("gpu").assert_close(accelerated, expected, rtol=1e-5, atol=1e-6, what="xs @ W")
    with pytest.raises(AssertionError):
        backend("cpu").assert_close(accelerated, expected, rtol=1e-5, atol=1e-6, what="xs @ W")
    backend("cpu").assert_close(accelerated, expected, rtol=5e-2, atol=5e-2, what="xs @ W")  # looser stays


@pytest.mark.parametrize("name", ["gpu", "tpu", "some-new-backend"])
def test_a_tolerance_for_every_backend_is_not_floored(backend, name):
    """`on_every_backend`: values no backend rounds differently keep the cell's own tolerance off the
    CPU too: an exact zero (the 1e-6 of sqrt(0 + 1e-12) passes a GPU's 1e-2), and a result counted
    in bfloat16 steps (2**-5 off near 0, under a TPU's 5e-2)."""
    check = backend(name)
    check.assert_equal(np.float32(1e-6), np.float32(0.0), what="safe_norm(zeros(3))")   # floored: passes
    with pytest.raises(AssertionError, match="values of safe_norm"):
        check.assert_equal(np.float32(1e-6), np.float32(0.0), what="safe_norm(zeros(3))", on_every_backend=True)
    off = np.float32(-0.031) + np.float32(2 ** -5)
    if name != "gpu":           # the TPU row (5e-2), and an unknown backend's, would pass it
        check.assert_close(off, np.float32(-0.031), rtol=2 ** -7, atol=2 ** -10)
    with pytest.raises(AssertionError):
        check.assert_close(off, np.float32(-0.031), rtol=2 ** -7, atol=2 ** -10, on_every_backend=True)
    check.assert_close(np.float32(-0.031) + np.float32(2 ** -12), np.float32(-0.031), rtol=2 ** -7,
                       atol=2 ** -10, on_every_backend=True)     # within its own tolerance: passes
