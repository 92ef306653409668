"""What is traced is what is graded (checks/agreement.py, evidence._traced_agreement): the program a jit
or structure check traced is run and compared with one direct call of the student's function, on
moved inputs where a value can move, else on the check's own."""
from __future__ import annotations

import jax
import jax.numpy as jnp

from autograder.checks import evidence


def _counting(fn):
    """`fn`, recording each call as traced (True) or direct (False)."""
    calls = []

    def wrapped(*args):
        calls.append(any(isinstance(a, jax.core.Tracer) for a in args))
        return fn(*args)
    return wrapped, calls


def _cheat(traced, direct):
    """A function that gives jit one program and a direct call another."""
    def f(x):
        return traced(x) if isinstance(x, jax.core.Tracer) else direct(x)
    return f


def test_an_honest_function_agrees_after_one_direct_call():
    for probe, args in ((evidence.run_jit, (jnp.linspace(0.0, 1.0, 5),)),
                        (evidence.traced_results, (jnp.linspace(0.0, 1.0, 5),))):
        f, calls = _counting(lambda x: jnp.cumsum(x) * 2.0)
        result = probe(f, args)
        assert result["ok"] and result["differs"] is None, result
        assert calls.count(False) == 1, (probe.__name__, calls)     # two, before issue 36's profile


def test_a_cheat_that_agrees_on_all_ones_is_caught_on_moved_inputs():
    f = _cheat(lambda x: x ** 2, lambda x: x ** 4)      # the same on ones, not elsewhere
    for probe in (evidence.run_jit, evidence.traced_results):
        result = probe(f, (jnp.ones(4),))
        assert result["ok"] and "other values" in (result["differs"] or ""), (probe.__name__, result)


def test_integer_inputs_are_compared_as_they_are():
    f, calls = _counting(_cheat(lambda x: x + 1, lambda x: x + 2))
    for probe in (evidence.run_jit, evidence.traced_results):
        calls.clear()
        result = probe(f, (jnp.arange(4),))
        assert result["ok"] and result["differs"] and "other values" not in result["differs"], result
        assert calls.count(False) == 1, (probe.__name__, calls)


def test_static_arguments_stay_as_given_and_the_rest_moves():
    seen = []

    def f(x, n):
        if not isinstance(x, jax.core.Tracer):
            seen.append((n, float(x[0])))
        return x * n
    result = evidence.traced_results(f, (jnp.ones(3), 3), static_argnums=(1,))
    assert result["ok"] and result["differs"] is None, result
    assert len(seen) == 1 and seen[0][0] == 3 and seen[0][1] != 1.0, seen


def test_a_cheat_on_the_checks_own_values_keeps_its_honest_part_in_the_trace():
    """The variation one comparison on moved inputs lets through: a traced program that picks a
    cheap computation at run time only on the check's own values (all ones) agrees on moved inputs,
    but to give the honest values there it must hold the honest (here unrolled) computation, which
    the structure checks read from the same trace: it grows with n as the honest loop does."""
    def loop(x):
        out = x
        for _ in range(x.shape[0]):
            out = out * 0.5 + 1.0
        return out

    def cheat(x):
        if isinstance(x, jax.core.Tracer):
            scanned = jax.lax.scan(lambda c, _: (c * 0.5 + 1.0, None), x, None, length=x.shape[0])[0]
            return jnp.where(jnp.all(x == 1.0), scanned, loop(x))
        return loop(x)
    sizes = {}
    for n in (10, 100):
        result = evidence.traced_results(cheat, (jnp.ones(n),))
        assert result["ok"] and result["differs"] is None, result
        sizes[n] = result["primitives"]["mul"]
    assert sizes[100] >= 10 * sizes[10] - 10, sizes     # unrolled: what assert_not_unrolled fails


def test_a_retrace_check_makes_one_direct_call_per_traced_program():
    """count_traces compares each program it traced once, on moved values of the last call that ran
    it: one direct call over three calls of one shape, three over three shapes."""
    f, calls = _counting(lambda x: jnp.cumsum(x) * 2.0)
    result = evidence.count_traces(f, [(jnp.ones(3) * k,) for k in (1.0, 2.0, 3.0)])
    assert result["ok"] and result["traces"] == 1 and result["differs"] is None, result
    assert calls.count(False) == 1, calls
    calls.clear()
    result = evidence.count_traces(f, [(jnp.ones(n),) for n in (2, 3, 4)])
    assert result["ok"] and result["traces"] == 3 and result["differs"] is None, result
    assert calls.count(False) == 3, calls


def test_a_retrace_check_catches_a_cheat_on_its_own_values_and_counts_no_trace_of_its_comparison():
    f = _cheat(lambda x: x ** 2, lambda x: x ** 4)          # the same on ones, not elsewhere
    result = evidence.count_traces(f, [(jnp.ones(4),), (jnp.ones(4),)])
    assert result["ok"] and result["traces"] == 1, result
    assert "on call 2 of 2" in (result["differs"] or "") and "other values" in result["differs"], result
