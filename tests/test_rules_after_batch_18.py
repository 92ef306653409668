"""The revision after the eighteenth held-out batch's first run: the rules of `checks/intent_rules.py`
(the line shows what was meant: a gradient per argument, one key's split, several conditions, partials
of one function, code written for a batch run under `vmap`; JAX's message states the rest: a `size=` read
from the function's signature, a treedef of another leaf count, `shard_map`'s specs against its
arguments, a traced shape vector, `defjvps` with `nondiff_argnums`, a `custom_gradient` that returns its
value alone, a NumPy dtype JAX has no type for), a `lax.cond` whose predicate tests shapes (known before
tracing: `call_facts._static_value`), and the `in_axes` trial for a matrix product under `vmap`.

Each has a mistake written here (none of them a corpus case) where it must fire and tell the fix, and,
where the fix rewrites a call, the fixed call runs; and a near miss where it must not."""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from autograder.checks.trial_texts import GUESS
from support.explain import rule_of as _rule, told as _told


def _sse(w, x):
    return jnp.sum((w * x - 1.0) ** 2)


def test_a_gradient_unpacked_per_argument_is_told_argnums():
    w, x = jnp.ones(3), jnp.arange(3.0)

    def step():
        dw, dx = jax.grad(_sse)(w, x)
        return dw, dx
    rule, fix = _told(step)
    assert rule == "grad-per-argument" and "dw, dx = jax.grad(_sse, argnums=(0, 1))(w, x)" in fix
    dw, dx = jax.grad(_sse, argnums=(0, 1))(w, x)


def test_a_value_unpacked_beside_a_gradient_is_not_told_argnums():
    def step():
        loss, g = jax.grad(_sse)(1.0, 2.0)
        return loss, g
    assert _rule(step) != "grad-per-argument"


def test_one_keys_split_of_a_key_array_is_offered_the_first_key_and_vmap():
    batch = jax.random.split(jax.random.key(3), 5)

    def step():
        enc_key, dec_key = jax.random.split(batch)
        return enc_key, dec_key
    rule, fix = _told(step)
    assert rule == "split-of-a-key-array" and fix.startswith(GUESS)
    assert "enc_key, dec_key = jax.random.split(batch[0])" in fix and "jax.vmap(jax.random.split)(batch)" in fix
    enc_key, dec_key = jax.random.split(batch[0])


def test_every_keys_split_is_left_to_the_batch_rule():
    batch = jax.random.split(jax.random.key(3), 5)

    def step():
        batch_keys, subkeys = jax.random.split(batch)
        return batch_keys, subkeys
    assert _rule(step) != "split-of-a-key-array"


def test_a_chain_of_conditions_is_told_select_and_nested_where():
    t = jnp.linspace(-1.0, 3.0, 5)

    def step():
        y = 0.0 if t < 0 else (t if t < 2 else 2.0)
        return y
    rule, fix = _told(step)
    assert rule == "conditions-chained"
    assert "y = jnp.select([t < 0, t < 2], [0.0, t], 2.0)" in fix
    assert "y = jnp.where(t < 0, 0.0, jnp.where(t < 2, t, 2.0))" in fix
    assert np.allclose(jnp.select([t < 0, t < 2], [0.0, t], 2.0), jnp.where(t < 0, 0.0, jnp.where(t < 2, t, 2.0)))


def test_one_condition_is_not_a_chain():
    t = jnp.linspace(-1.0, 3.0, 5)
    assert _rule(lambda: 0.0 if t < 0 else t) != "conditions-chained"


def _power(p, v):
    return v ** p


def test_vmap_over_partials_is_told_to_map_their_parameter():
    v = jnp.arange(3.0)
    powers = [functools.partial(_power, 2.0), functools.partial(_power, 3.0)]
    rule, fix = _told(lambda: jax.vmap(lambda g: g(v))(powers))
    assert rule == "vmap-over-partials" and "jax.vmap(lambda p: _power(p, v))(jnp.array([2.0, ...]))" in fix
    jax.vmap(lambda p: _power(p, v))(jnp.array([2.0, 3.0]))


def test_a_partial_given_to_grad_is_not_vmap_over_partials():
    assert _rule(lambda: jax.grad(lambda g: 1.0)(functools.partial(_power, 2.0))) != "vmap-over-partials"


def test_a_function_whose_output_length_depends_on_values_is_told_its_size():
    a, b = jnp.array([3, 1, 2]), jnp.array([2, 5])
    rule, fix = _told(lambda: jax.jit(lambda p, q: jnp.intersect1d(p, q))(a, b))
    assert rule == "output-sized-by-values" and "`jnp.intersect1d` a static `size=`" in fix
    jax.jit(lambda p, q: jnp.intersect1d(p, q, size=2))(a, b)


def test_a_traced_truth_beside_jnp_where_is_not_told_size():
    r = jnp.arange(3.0)
    assert _rule(lambda: jax.jit(lambda s: jnp.where((s > 0) and (s < 2), s, 0.0))(r)) != "output-sized-by-values"


def test_leaves_unflattened_with_another_trees_treedef_are_told_its_own():
    params = {"w": jnp.ones(2), "b": jnp.zeros(()), "s": jnp.ones(())}
    other = jax.tree.structure((0, 0))
    rule, fix = _told(lambda: jax.tree.unflatten(other, jax.tree.leaves(params)))
    assert rule == "unflatten-other-treedef" and "jax.tree.flatten(tree)" in fix
    leaves, treedef = jax.tree.flatten(params)
    jax.tree.unflatten(treedef, leaves)


def test_shard_map_given_fewer_arguments_than_specs_is_told_one_per_spec():
    mesh = jax.sharding.Mesh(np.array(jax.devices()[:1]), ("i",))
    spec = jax.sharding.PartitionSpec("i")
    scaled = jax.shard_map(lambda x, s: x * s, mesh=mesh, in_specs=(spec, spec), out_specs=spec)
    rule, fix = _told(lambda: scaled(jnp.ones(4)))
    assert rule == "shard-map-arguments" and "one argument per entry of `in_specs`" in fix
    scaled(jnp.ones(4), jnp.ones(4))


def test_a_traced_shape_vector_is_told_a_static_tuple():
    key, dims = jax.random.key(0), jnp.array([2, 3])
    rule, fix = _told(lambda: jax.jit(lambda k, dims: jax.random.uniform(k, dims))(key, dims))
    assert rule == "traced-shape-vector" and "static_argnames='dims'" in fix and "tuple(" in fix
    jax.jit(lambda k, dims: jax.random.uniform(k, dims), static_argnames="dims")(key, tuple(int(d) for d in dims))


def test_a_traced_float_scale_is_not_a_shape_vector():
    key = jax.random.key(0)
    assert _rule(lambda: jax.jit(lambda k, s: jax.random.normal(k, s))(key, 2.0)) != "traced-shape-vector"


def test_defjvps_with_nondiff_argnums_is_told_defjvp():
    @functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
    def scaled(v, c):
        return v * c
    rule, fix = _told(lambda: scaled.defjvps(lambda t, out, v, c: t * c))
    assert rule == "defjvps-with-nondiff" and "scaled.defjvp(rule)" in fix and "def rule(n, primals, tangents)" in fix

    @scaled.defjvp
    def rule(c, primals, tangents):
        return scaled(primals[0], c), tangents[0] * c
    assert float(jax.grad(scaled)(1.0, 3.0)) == 3.0


def test_a_custom_gradient_that_returns_its_value_alone_is_told_the_pair():
    rule, fix = _told(lambda: jax.grad(jax.custom_gradient(lambda v: v ** 3))(2.0))
    assert rule == "custom-gradient-value-only" and "return y, lambda g: (g * dy_dx,)" in fix
    assert float(jax.grad(jax.custom_gradient(lambda v: (v ** 3, lambda g: (g * 3 * v ** 2,))))(2.0)) == 12.0


@pytest.mark.skipif(np.dtype(np.longdouble).itemsize <= 8, reason="this platform's longdouble is float64")
def test_a_numpy_array_of_extended_floats_is_told_to_cast():
    sample = np.linspace(0.0, 1.0, 3, dtype=np.longdouble)
    rule, fix = _told(lambda: jnp.asarray(sample) + 1.0)
    assert rule == "numpy-dtype-without-jax-type" and "sample.astype(np.float64)" in fix
    jnp.asarray(sample.astype(np.float64)) + 1.0


def test_code_for_a_batch_under_vmap_is_offered_the_batch_axis_back():
    w = jnp.ones((4, 2))

    def score(x):
        return (lambda b: b.reshape((b.shape[0], -1)) @ w)(x)
    rule, fix = _told(lambda: jax.vmap(score)(jnp.ones((3, 2, 2))))
    assert rule == "batch-code-under-vmap" and fix.startswith(GUESS) and "jnp.expand_dims(x, 0)" in fix
    jax.vmap(lambda x: (lambda b: b.reshape((b.shape[0], -1)) @ w)(jnp.expand_dims(x, 0)))(jnp.ones((3, 2, 2)))


def test_the_same_line_outside_vmap_is_not_batch_code():
    w = jnp.ones((5, 2))
    assert _rule(lambda: (lambda b: b.reshape((b.shape[0], -1)) @ w)(jnp.ones((3, 2, 2)))) != "batch-code-under-vmap"


def test_a_product_under_vmap_is_told_the_in_axes_that_traced():
    m, v = jnp.ones((2, 6)), jnp.ones(2)
    rule, fix = _told(lambda: jax.vmap(lambda c: c @ v)(m))
    assert rule == "contract-under-vmap" and "on axis 1, not axis 0" in fix and "in_axes=(1,)" in fix
    assert not fix.startswith(GUESS)
    jax.vmap(lambda c: c @ v, in_axes=(1,))(m)


def test_a_cond_on_a_shape_test_is_told_a_python_if():
    x = jnp.arange(4.0)
    rule, fix = _told(lambda: lax.cond(x.ndim == 1, lambda a: a[:2], lambda a: a, x))
    assert rule == "branch-types" and "`x.ndim == 1` is a Python value" in fix


def test_a_cond_on_a_value_is_not_told_a_python_if():
    x = jnp.arange(4.0)
    rule, fix = _told(lambda: lax.cond(x.sum() > 0, lambda a: a[:2], lambda a: a, x))
    assert rule == "branch-types" and "Python value" not in fix
