"""The rules for JAX's API used the NumPy way or the wrong way round (`checks/misuse_rules.py`): each
fires on its mistake and names the evidence, and does not fire on the fixed code."""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax
from jax.experimental.ode import odeint

from test_usage_rules import _rule, fires_with  # the same reading of a case: (rule name, explanation)


x3 = jnp.array([0.5, 1.5, 2.5])


def _fori_grad(static):
    def total(x, n):
        return lax.fori_loop(0, n, lambda i, c: c * x, 1.0)
    if static:
        return lambda: jax.grad(total)(1.5, 3)
    return lambda: jax.jit(lambda x, n: jax.grad(total)(x, n))(1.5, 3)     # `n` traced


class _Stepper:
    def __init__(self):
        self.lr = 0.1

    @jax.jit
    def step(self, w):
        return w - self.lr

    @functools.partial(jax.jit, static_argnums=0)
    def fixed_step(self, w):
        return w - self.lr


def _callback(method):
    def one(v):
        return jax.pure_callback(lambda a: np.tanh(a).astype(np.float32), jax.ShapeDtypeStruct(v.shape, v.dtype), v,
                                 **({"vmap_method": method} if method else {}))
    return lambda: jax.vmap(one)(x3)


def _or_default(good):
    def one(row, scale=None):
        scale = scale or 1.0
        return row / scale

    def fixed(row, scale=None):
        scale = scale if scale is not None else 1.0
        return row / scale
    return lambda: jax.vmap(fixed if good else one)(jnp.ones((3, 2)), x3)


def _ode(closed):
    def rhs(y, t, fn):
        return -fn(y)
    if closed:
        return lambda: odeint(lambda y, t: rhs(y, t, jnp.tanh), 1.0, jnp.linspace(0.0, 1.0, 3))
    return lambda: odeint(rhs, 1.0, jnp.linspace(0.0, 1.0, 3), jnp.tanh)


CASES = {
    "clip-keywords": (lambda: jnp.clip(x3, a_min=0.0, a_max=1.0), ["min=lo, max=hi"],
                      lambda: jnp.clip(x3, min=0.0, max=1.0)),
    "vmap-axis-keyword": (lambda: jax.vmap(jnp.sum, axis=0)(jnp.ones((2, 3))), ["in_axes=0"],
                          lambda: jax.vmap(jnp.sum, in_axes=0)(jnp.ones((2, 3)))),
    "shape-sequence": (lambda: jax.random.choice(jax.random.key(0), 5, 3), ["`(3,)`"],
                       lambda: jax.random.choice(jax.random.key(0), 5, (3,))),
    "shape-generator": (lambda: jnp.zeros(d + 1 for d in (2, 3)), ["tuple(d + 1 for d in dims)"],
                        lambda: jnp.zeros(tuple(d + 1 for d in (2, 3)))),
    "float-index": (lambda: x3[jnp.float32(1.0)], ["astype(jnp.int32)", "float32"],
                    lambda: x3[jnp.int32(1)]),
    "key-to-numpy": (lambda: np.asarray(jax.random.key(0)), ["key_data"],
                     lambda: np.asarray(jax.random.key_data(jax.random.key(0)))),
    "concatenate-scalars": (lambda: jnp.concatenate([jnp.float32(1.0), jnp.float32(2.0)]), ["jnp.stack"],
                            lambda: jnp.stack([jnp.float32(1.0), jnp.float32(2.0)])),
    "solve-vector": (lambda: jnp.linalg.solve(jnp.stack([jnp.eye(3)] * 4), jnp.ones((1, 3))), ["b[..., None]"],
                     lambda: jnp.linalg.solve(jnp.stack([jnp.eye(3)] * 4), jnp.ones((1, 3))[..., None])),
    "string-argument": (lambda: jax.grad(lambda o: jnp.sum(o["x"] ** 2))({"x": x3, "tag": "gri"}),
                        ["`gri`", "close over"],
                        lambda: jax.grad(lambda v: jnp.sum(v ** 2))(x3)),
    "zip-argument": (lambda: jax.vmap(lambda p: p[0] * p[1])(zip(x3, x3)), ["instead of zip"],
                     lambda: jax.vmap(lambda a, b: a * b)(x3, x3)),
    "odeint-arguments": (_ode(False), ["close over the function"], _ode(True)),
    "jitted-method-self": (lambda: _Stepper().step(x3), ["static_argnums=0", "_Stepper"],
                           lambda: _Stepper().fixed_step(x3)),
    "function-argument": (lambda: jax.jit(lambda fn, v: fn(fn(v)))(jax.jit(jnp.sin), x3), ["static_argnames='fn'"],
                          lambda: jax.jit(lambda fn, v: fn(fn(v)), static_argnames="fn")(jax.jit(jnp.sin), x3)),
    "loop-reverse-dynamic": (_fori_grad(False), ["static start/stop", "lax.scan"], _fori_grad(True)),
    "callback-vmap": (_callback(None), ["vmap_method='sequential'"], _callback("sequential")),
    "tracer-constant": (None, [], None),          # JAX's internal message: no small case reaches it on this JAX
    "or-default": (_or_default(False), ["scale if scale is not None else 1.0"], _or_default(True)),
    "array-truth": (lambda: jnp.where(0 < x3 < 1, x3, 0.0), ["(0 < v) & (v < 1)"],
                    lambda: jnp.where((0 < x3) & (x3 < 1), x3, 0.0)),
}


def test_every_misuse_rule_has_a_case():
    from autograder.checks.misuse_rules import MISUSE_RULES
    assert {r.name for r in MISUSE_RULES} == set(CASES)


@pytest.mark.parametrize("name", [n for n, case in CASES.items() if case[0] is not None])
def test_rule_fires_with_its_evidence_and_not_on_the_fixed_code(name):
    fire, words, near = CASES[name]
    text = fires_with(name, fire, words)
    assert _rule(near)[0] != name


def test_the_tracer_constant_rule_reads_its_message_and_only_guesses():
    from autograder.checks.rules import explain, match
    desc = {"type": "TypeError", "mro": ["TypeError"],
            "message": "No constant handler for type: <class 'jax._src.interpreters.partial_eval.DynamicJaxprTracer'>",
            "text": "No constant handler for type: <class 'jax._src.interpreters.partial_eval.DynamicJaxprTracer'>"}
    assert match(desc).name == "tracer-constant"
    assert explain(desc)[1].startswith("a guess, not tried on your values: ")


def test_bool_of_a_traced_value_is_told_to_stay_an_array():
    lives = jnp.array([2, 0, 1])
    rule, text = _rule(lambda: jax.jit(lambda lv: bool(jnp.sum(lv <= 0) > 0))(lives))
    assert rule == "bool-call" and "drop `bool()`" in text, (rule, text)
    assert _rule(lambda: jax.jit(lambda lv: jnp.sum(lv <= 0) > 0)(lives))[0] is None


def test_fixes_that_depend_on_code_the_rule_cannot_see_are_offered_as_guesses():
    """A menu of constructs for a truth asked for where the rule cannot name the construct, and
    `static_argnames` for an argument that is an array (a key): possibilities, not instructions. For a
    Python int that sets a size (known to the jit check, which made the call), static is an
    instruction: it works."""
    rule, text = _rule(lambda: jax.jit(lambda v: jnp.compress(v > 0, v))(x3))
    assert "fix: a guess, not tried on your values: " in text, (rule, text)

    def draw(key):
        n = jax.random.poisson(key, 3.0)
        return jax.random.randint(key, (n,), 0, 5)
    rule, text = _rule(lambda: jax.jit(draw)(jax.random.key(2)))
    assert "static_argnames='key'" not in text or "a guess, not tried on your values: " in text, (rule, text)
    from autograder import check

    def first(arr, kk):
        return jnp.sum(lax.dynamic_slice(arr, (0,), (kk,)))
    with pytest.raises(AssertionError) as told:      # the check knows `kk` is given a Python int
        check.assert_jittable(first, x3, 2)
    assert "static_argnames='kk'" in str(told.value), str(told.value)
    assert "a guess, not tried on your values: if it sets" not in str(told.value), str(told.value)


def _nondiff_mask(declared):
    def apply(arr, m):
        return arr * m
    if declared:
        masked = jax.custom_jvp(apply, nondiff_argnums=(1,))
        masked.defjvp(lambda m, primals, tangents: jax.jvp(lambda a: a * m, primals, tangents))
    else:
        masked = jax.custom_jvp(apply)
        masked.defjvp(lambda primals, tangents: (apply(*primals), tangents[0] * primals[1]))

    def loss(v, m):
        carry, _ = lax.scan(lambda c, _: ((masked(*c), c[1]), None), (v, m), None, length=2)
        return carry[0].sum()
    return lambda: jax.grad(loss)(jnp.ones(3), jnp.array([1.0, 0.0, 1.0]))


def test_a_tracer_leaked_through_nondiff_argnums_is_told_as_such():
    """JAX's message says only that a tracer escaped; the custom rule called on the line, read from the
    student's frame, says which `nondiff_argnums` took a traced array."""
    rule, text = _rule(_nondiff_mask(True))
    assert rule == "nondiff-tracer" and "`masked`" in text and "remove the array from `nondiff_argnums`" in text, text
    _nondiff_mask(False)()        # the fixed rule runs


def test_a_look_alike_custom_rule_cannot_break_the_explanation():
    """The frame is the student's: an object named like JAX's custom rule whose `nondiff_argnums`
    raises or lies gives no `nondiff_rules` fact and never an error of ours."""
    class custom_jvp:                         # noqa: N801 (a look-alike of JAX's class)
        __module__ = "jax.fake"

        @property
        def nondiff_argnums(self):
            raise RuntimeError("boom")

        def __call__(self, v, m):
            return v * m
    masked = custom_jvp()

    def loss(v, m):
        carry, _ = lax.scan(lambda c, _: ((masked(*c), c[1]), None), (v, m), None, length=2)
        return carry[0].sum()
    rule, text = _rule(lambda: jax.jit(lambda v: bool(loss(v, v)))(x3))
    assert rule != "nondiff-tracer" and "boom" not in text, (rule, text)
