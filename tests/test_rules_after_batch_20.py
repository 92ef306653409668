"""The revision after the twentieth held-out batch's first run: more rules of `checks/argument_rules.py`
(`jax.jvp`'s tangents of another structure, arithmetic on a float0 gradient, an axis of a 0-d value, an
`io_callback` under a batched `while_loop`, `associative_scan` inputs of different lengths, an integer
`p` for `bernoulli`, an unhashable object given to `jax.jit`, a traced `pad_width`, a `ShapeDtypeStruct`
without its dtype), `out_axes` given by position past an output's rank, and a permutation's example.

Each has a mistake written here (none of them a corpus case) where it must fire and tell the fix, and,
where the fix rewrites a call, the fixed call runs; and, for rules read from the line, a near miss where
it must not."""
from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
from jax import lax

from support.explain import rule_of as _rule, told as _told


def test_jvp_given_fewer_tangents_than_primals_is_told_zeros():
    f = lambda a, b: a * b   # noqa: E731
    rule, fix = _told(lambda: jax.jvp(f, (1.0, 2.0), (1.0,)))
    assert rule == "jvp-tangents-structure" and "zeros_like" in fix
    jax.jvp(f, (1.0, 2.0), (1.0, jnp.zeros_like(2.0)))


def test_arithmetic_on_an_integer_arguments_gradient_is_told_argnums():
    def step():
        grads = jax.grad(lambda w, n: w * n, argnums=(0, 1), allow_int=True)(1.0, 3)
        return grads[1] * 0.5
    rule, fix = _told(step)
    assert rule == "float0-arithmetic" and "argnums=" in fix


def test_an_axis_of_a_0d_value_is_told_to_drop_it():
    rule, fix = _told(lambda: jnp.max(jnp.float32(3.0), axis=0))
    assert rule == "axis-of-a-scalar" and "axis=None" in fix
    jnp.max(jnp.float32(3.0), axis=None)


def test_an_axis_past_a_1d_value_is_not_an_axis_of_a_scalar():
    assert _rule(lambda: jnp.max(jnp.ones(3), axis=1)) != "axis-of-a-scalar"


def test_an_io_callback_under_a_batched_while_is_told_debug_callback():
    def countdown(n):
        def body(k):
            jax.experimental.io_callback(lambda v: None, None, k)
            return k - 1
        return lax.while_loop(lambda k: k > 0, body, n)
    import jax.experimental   # noqa: F401  (io_callback)
    rule, fix = _told(lambda: jax.vmap(countdown)(jnp.array([2, 3])))
    assert rule == "io-callback-batched-while" and "jax.debug.callback" in fix


def test_associative_scan_inputs_of_two_lengths_are_told_one_length():
    rule, fix = _told(lambda: lax.associative_scan(lambda a, b: (a[0] + b[0], a[1] + b[1]), (jnp.ones(3), jnp.ones(2))))
    assert rule == "associative-scan-lengths" and "same leading size" in fix


def test_an_integer_probability_for_bernoulli_is_told_floats():
    odds = jnp.array([0, 1, 1])
    rule, fix = _told(lambda: jax.random.bernoulli(jax.random.key(0), odds))
    assert rule == "bernoulli-int-p" and "odds.astype(jnp.float32)" in fix
    jax.random.bernoulli(jax.random.key(0), odds.astype(jnp.float32))


@dataclasses.dataclass
class _Scale:
    k: float

    def __call__(self, x):
        return self.k * x


def test_jit_of_an_unhashable_object_is_told_to_freeze_it():
    rule, fix = _told(lambda: jax.jit(_Scale(2.0))(1.0))
    assert rule == "jit-of-an-unhashable-object" and "frozen=True" in fix
    frozen = dataclasses.dataclass(frozen=True)(type("Scale", (), {"__annotations__": {"k": float},
                                                                   "__call__": _Scale.__call__}))
    jax.jit(frozen(2.0))(1.0)


def test_an_unhashable_static_argument_is_not_a_jitted_object():
    rule = _rule(lambda: jax.jit(lambda x, opts: x, static_argnums=1)(1.0, {"a": 1}))
    assert rule != "jit-of-an-unhashable-object"


def test_a_traced_pad_width_is_told_python_pairs():
    rule, fix = _told(lambda: jax.jit(lambda x, w: jnp.pad(x, w))(jnp.ones((2, 2)), jnp.array([[0, 0], [1, 1]])))
    assert rule == "pad-width-traced" and "pairs" in fix
    jax.jit(lambda x: jnp.pad(x, ((0, 0), (1, 1))))(jnp.ones((2, 2)))


def test_a_shape_dtype_struct_without_dtype_is_told_one():
    rule, fix = _told(lambda: jax.ShapeDtypeStruct((2, 3), None))
    assert rule == "shape-dtype-struct-no-dtype" and "jax.ShapeDtypeStruct(shape, jnp.float32)" in fix
    jax.ShapeDtypeStruct((2, 3), jnp.float32)


def test_out_axes_by_position_past_the_rank_is_told_the_rank():
    rule, fix = _told(lambda: jax.vmap(jnp.sum, 0, 1)(jnp.ones((4, 3))))
    assert rule == "out-axes-past-rank" and "out_axes=0" in fix
    jax.vmap(jnp.sum, 0, 0)(jnp.ones((4, 3)))


def test_a_permutation_missing_axes_is_offered_them_in_order():
    rule, fix = _told(lambda: jnp.ones((2, 3, 4)).transpose((2, 0)))
    assert "(2, 0, 1)" in fix, (rule, fix)
    jnp.ones((2, 3, 4)).transpose((2, 0, 1))



def _positive_root(x, validate=True):
    if validate and x < 0:
        raise ValueError("negative input")
    return jnp.sqrt(x)


def _guarded_sqrt(x):
    if x < 0:
        raise ValueError("negative input")
    return jnp.sqrt(x)


def _clipped(x):
    if x < 0:
        return jnp.zeros_like(x)
    return x


def test_a_check_that_raises_under_vmap_is_told_its_switch_and_checkify():
    xs = jnp.array([1.0, 4.0])
    rule, fix = _told(lambda: jax.vmap(_positive_root)(xs))
    assert rule == "check-that-raises" and "`validate=False`" in fix and "checkify" in fix
    assert "jnp.where" not in fix
    jax.vmap(lambda x: _positive_root(x, validate=False))(xs)


def test_a_check_that_raises_under_jit_without_a_switch_is_told_to_turn_it_off_or_checkify():
    rule, fix = _told(lambda: jax.jit(_guarded_sqrt)(4.0))
    assert rule == "check-that-raises" and "turn off the check" in fix and "checkify.checkify" in fix


def test_an_if_that_returns_is_not_a_check():
    assert _rule(lambda: jax.jit(_clipped)(4.0)) != "check-that-raises"
