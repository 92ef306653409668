"""`check.assert_runtime_within`, the `performance` check: a function doing the reference's work
passes, one doing far more fails, and each verdict holds 20 times in a row on this noisy machine.

The factors are wide on purpose (same work against a budget of 3x; 20 times the work against the
same budget), so that a load spike cannot flip a verdict: what is tested is the check's
measurement and its stability, not the machine's speed. Like test_checks.py, the cause tests run
`local` (as under nbgrader) and `remote` (the student function in a sandboxed worker, the
reference shipped to it by the test cell, as under the CLI).
"""
from __future__ import annotations

import re

import jax.numpy as jnp
import pytest
from jax import lax

from autograder import check
from autograder.course import Assignment
from autograder.course.notebook import Cell
from autograder.course.exports import top_level_names
from autograder.grading.session import GradingSession

STUDENT = '''
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

def same_work(x):
    return 2.0 * jnp.sin(x)

def twenty_times_the_work(x):   # the same values as same_work, from 20 sines (XLA cannot tell them alike)
    return 2.0 * lax.fori_loop(0, 20, lambda i, v: v + jnp.sin(x + i * 1e-30) / 20.0, jnp.zeros_like(x))

def with_outer_product(x):
    return jnp.sin(x) * 2.0 + 0.0 * jnp.sum(jnp.outer(x, x), axis=1)

def unrolled(x):
    for _ in range(2500):
        x = x + 1.0
    return x

def while_loop_squares(x, n):
    return lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * c[1]), (0, x))[1]

def unrolled_squares(x, n):
    for _ in range(n):
        x = x * x
    return x

def python_if(x):
    if x.sum() > 0:
        return x
    return -x


def rejits(x):
    """Builds a new jax.jit (and so traces) on every call: in a host callback of the program."""
    def host(v):
        return np.asarray(jax.jit(lambda u: 2.0 * jnp.sin(u))(v))
    return jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


def offloaded(x):
    """The right values, but each call first spends tens of milliseconds in a child process, whose CPU
    time is not this process's: timed in CPU time, it would cost what the reference costs."""
    def host(v):
        import subprocess
        subprocess.run(["sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"], check=True)
        return (2.0 * np.sin(np.asarray(v))).astype(v.dtype)
    return jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)
'''


# defined as a test cell defines it (in `__main__`), so that it travels to the worker by value
_ns = {"__name__": "__main__", "jnp": jnp, "lax": lax}
exec("def reference(x):\n    return jnp.sin(x) * 2.0\n", _ns)
exec("def loop_reference(x, n):\n    return lax.fori_loop(0, n, lambda i, y: y * y, x)\n", _ns)
reference, loop_reference = _ns["reference"], _ns["loop_reference"]


X = jnp.linspace(-3.0, 3.0, 100_000)
X_SMALL = jnp.linspace(-1.0, 1.0, 2000)


@pytest.fixture(scope="module")
def remote_session(limits):
    cells = [Cell(0, "setup", "setup", "import jax\nimport jax.numpy as jnp\nfrom autograder import check"),
             Cell(1, "solution", "student", STUDENT, exercise="student"),
             # the tests below call every function of the cell: a test cell that names them all
             Cell(2, "test", "student_correctness", "\n".join(sorted(top_level_names(STUDENT))),
                  exercise="student", kind="correctness")]
    session = GradingSession(Assignment("unit", None, cells), {"student": STUDENT}, limits)
    session.ensure_worker()
    yield session
    session.close()


@pytest.fixture(scope="module")
def local_fns():
    ns: dict = {}
    exec(compile(STUDENT, "student_cell.py", "exec"), ns)
    return ns


@pytest.fixture(params=["local", "remote"])
def fns(request, local_fns):
    if request.param == "local":
        return local_fns
    return request.getfixturevalue("remote_session")._test_namespace()


def verdict(fn, *args, factor=3):
    try:
        check.assert_runtime_within(fn, reference, args, factor)
    except AssertionError as exc:
        return str(exc)
    return "passed"


def test_same_work_passes_and_twenty_times_the_work_fails_20_times_in_a_row(local_fns):
    verdicts = [(verdict(local_fns["same_work"], X), verdict(local_fns["twenty_times_the_work"], X))
                for _ in range(20)]
    assert all(ok == "passed" for ok, _ in verdicts), [ok for ok, _ in verdicts if ok != "passed"]
    assert all(slow.startswith("[check] run time of jax.jit(twenty_times_the_work)") for _, slow in verdicts)


def test_message_states_times_ratio_budget_and_cause(fns):
    msg = verdict(fns["twenty_times_the_work"], X)
    assert re.search(r"[\d.]+ (ms|us) per call vs the reference's [\d.]+ (ms|us): [\d.]+x, budget 3x", msg), msg
    assert "cause: an unfused loop" in msg and "fix:" in msg, msg


def test_passes_through_the_sandbox(fns):
    assert verdict(fns["same_work"], X) == "passed"


def test_extra_intermediate_is_named(fns):
    msg = verdict(fns["with_outer_product"], X_SMALL)
    assert "cause: an extra intermediate: float32[2000, 2000]" in msg and "float32[2000]" in msg, msg


def test_unrolled_loop_is_reported_without_compiling(fns):
    msg = verdict(fns["unrolled"], X_SMALL)
    assert "not timed: the program has 2500 equations" in msg and "unrolled" in msg, msg


def test_retrace_per_call_is_named(fns):
    msg = verdict(fns["rejits"], X_SMALL, factor=1e-3)   # any time fails: the cause is what is tested
    assert "cause: a retrace per call" in msg, msg


def test_a_function_that_does_not_compile_fails_with_the_jit_diagnosis(fns):
    msg = verdict(fns["python_if"], X_SMALL)
    assert "could not compile it: TracerBoolConversionError" in msg, msg


# ------------------------------------------------------------------ compile time
def compile_verdict(fn, factor=3):
    try:
        check.assert_compile_time_within(fn, loop_reference, (jnp.ones(100), 1000), factor,
                                         static_argnums=(1,))
    except AssertionError as exc:
        return str(exc)
    return "passed"


def test_compile_time_of_a_compiled_loop_passes_and_an_unrolled_one_fails(fns):
    assert compile_verdict(fns["while_loop_squares"]) == "passed"
    msg = compile_verdict(fns["unrolled_squares"])
    assert re.search(r"failed: [\d.]+ m?s to trace and compile vs the reference's [\d.]+ m?s: [\d.]+x, budget 3x",
                     msg), msg
    assert "cause: an unrolled loop: the program has 1000 equations" in msg, msg


# ------------------------------------------------------------------ assert_jittable(transform=)
def test_jittable_with_a_transform_jits_the_transformed_function(fns):
    import jax
    check.assert_jittable(fns["same_work"], jnp.float32(0.5), transform=jax.grad)
    msg = ""
    try:
        check.assert_jittable(fns["python_if"], jnp.ones(3), what="jax.grad(python_if)",
                              transform=lambda f: jax.grad(lambda x: f(x).sum()))
    except AssertionError as exc:
        msg = str(exc)
    assert msg.startswith("[check] jax.jit(jax.grad(python_if)) failed: TracerBoolConversionError"), msg


def test_a_budget_can_differ_per_backend(local_fns):
    """A factor given per backend is the one of the backend the student's code ran on: twenty times
    the work fails the CPU's 2x budget; on a GPU, that same dict gives the GPU's own budget."""
    from autograder.checks import performance
    saved = check.ACTUAL_BACKEND
    try:
        check.ACTUAL_BACKEND = "cpu"
        slow = local_fns["twenty_times_the_work"]
        assert verdict(slow, X, factor={"cpu": 2, "gpu": 200}) != "passed"
        check.ACTUAL_BACKEND = "gpu"
        assert performance._budget({"cpu": 2, "gpu": 200}) == 200.0
        assert performance._budget({"cpu": 2, "default": 7}) == 7.0 and performance._budget({"cpu": 2, "tpu": 9}) == 9.0
    finally:
        check.ACTUAL_BACKEND = saved


def test_work_moved_to_another_process_by_a_host_callback_is_still_timed(local_fns):
    """A CPU-time clock would not see the child's work (a false pass): such a program keeps the wall
    clock, and its tens of milliseconds against the reference's one fail the 3x budget."""
    msg = verdict(local_fns["offloaded"], X)
    assert msg.startswith("[check] run time of jax.jit(offloaded)"), msg
    assert "CPU time" not in msg, msg
