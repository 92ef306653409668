"""The revision after the seventeenth held-out batch's first run: more rules of `checks/stated_rules.py`
(the line's own shape around a generic message: a gradient unpacked as two names, `has_aux` unpacked flat,
a gradient of a gradient, a transformed function called inside `vmap`'s parentheses, a `fori_loop` body
in scan's order, two vectors of different lengths under `vmap`, a tree mapped with its deeper tree first,
shardings of other keys, typed keys padded, a callback given a shape alone, an int past int32, an
in-place NumPy call, an executable compiled for other types or transformed), and fixes corrected where the
first run read them as wrong (a custom mapping against a dict told to use tuples, an array field told to
stay static, a function in a loop's carry never offered `jax.tree_util.Partial`).

Each has a mistake written here (none of them a corpus case) where it must fire and tell the fix, and,
where the fix rewrites a call, the fixed call runs; and a near miss where it must not."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from autograder.checks.trial_texts import GUESS
from support.explain import explanation_of as _block, fix_line as _fix, rule_of as _rule, told as _told


def _loss(w, xs):
    return jnp.sum((w * xs) ** 2)


def test_a_gradient_unpacked_as_two_names_is_told_value_and_grad():
    w, xs = 0.3, jnp.arange(3.0)

    def step():
        value, slope = jax.grad(_loss)(w, xs)
        return value, slope
    rule, fix = _told(step)
    assert rule == "grad-unpacked-as-two" and "value, slope = jax.value_and_grad(_loss)(w, xs)" in fix
    value, slope = jax.value_and_grad(_loss)(w, xs)


def test_a_gradient_unpacked_into_its_own_parts_is_not_value_and_grad():
    def step():
        a, b = jax.grad(lambda p: jnp.sum(p ** 2))(jnp.ones(3))
        return a, b
    assert _rule(step) != "grad-unpacked-as-two"


def test_value_and_grad_with_aux_unpacked_flat_is_told_the_nesting():
    def fit(c):
        r = c * jnp.arange(3.0)
        return jnp.sum(r ** 2), r

    def step():
        loss, resid, grads = jax.value_and_grad(fit, has_aux=True)(1.5)
        return loss, resid, grads
    rule, fix = _told(step)
    assert rule == "aux-unpacked-flat" and "(loss, resid), grads = jax.value_and_grad(fit, has_aux=True)(1.5)" in fix
    (loss, resid), grads = jax.value_and_grad(fit, has_aux=True)(1.5)


def test_a_gradient_of_a_gradient_of_a_vector_function_is_told_hessian():
    def energy(x):
        return jnp.sum(jnp.sin(x) * x)
    rule, fix = _told(lambda: jax.grad(jax.grad(energy))(jnp.ones(3)))
    assert rule == "grad-of-grad" and "jax.hessian(energy)" in fix
    jax.hessian(energy)(jnp.ones(3))


def test_a_second_derivative_called_on_the_batch_inside_vmap_is_told_to_map_first():
    def bowl(x):
        return 0.5 * x ** 3
    xs = jnp.arange(3.0)
    rule, fix = _told(lambda: jax.vmap(jax.grad(jax.grad(bowl))(xs)))
    assert rule == "called-inside-vmap" and "jax.vmap(jax.grad(jax.grad(bowl)))(xs)" in fix
    jax.vmap(jax.grad(jax.grad(bowl)))(xs)


def test_a_gradient_of_a_one_element_array_is_told_to_index_it():
    feats = jnp.ones((2, 1))
    rule, fix = _told(lambda: jax.grad(lambda w: w @ feats)(jnp.ones(2)))
    assert rule == "grad-of-one-element" and "[0]" in fix
    jax.grad(lambda w: (w @ feats)[0])(jnp.ones(2))


def test_a_gradient_of_three_values_is_not_told_to_index():
    assert _rule(lambda: jax.grad(lambda w: w * 2.0)(jnp.ones(3))) != "grad-of-one-element"


def test_a_fori_loop_body_in_scan_order_is_told_the_index_first():
    start = jnp.ones(3)
    rule, fix = _told(lambda: lax.fori_loop(0, 4, lambda total, i: total * 0.5, start))
    assert rule == "fori-body-swapped" and "lambda i, total: total * 0.5" in fix
    lax.fori_loop(0, 4, lambda i, total: total * 0.5, start)


def test_a_fori_loop_body_that_changes_the_carry_shape_is_not_swapped():
    assert _rule(lambda: lax.fori_loop(0, 4, lambda i, c: c.sum(), jnp.ones(3))) != "fori-body-swapped"


def test_two_vectors_of_different_lengths_are_offered_every_pair_as_a_guess():
    starts, stops = jnp.arange(4.0), jnp.arange(6.0)
    rule, fix = _told(lambda: jax.vmap(lambda a, b: a - b)(starts, stops))
    assert rule == "vmap-two-vectors" and fix.startswith(GUESS)
    assert "jax.vmap(jax.vmap(" in fix and "in_axes=(None, 0)), in_axes=(0, None))(starts, stops)" in fix
    jax.vmap(jax.vmap(lambda a, b: a - b, in_axes=(None, 0)), in_axes=(0, None))(starts, stops)


def test_a_vector_against_parameters_keeps_the_sizes_rule():
    xs, w = jnp.ones(4), jnp.ones(6)
    assert _rule(lambda: jax.vmap(lambda x, v: x * v.sum())(xs, w)) != "vmap-two-vectors"


def test_a_tree_map_with_the_deeper_tree_first_is_told_to_swap_as_a_guess():
    deep, shallow = [[1.0, 2.0], [3.0]], [0.0, 1.0]
    rule, fix = _told(lambda: jax.tree.map(lambda t, h: [h] + t, deep, shallow))
    assert rule == "tree-map-deeper-first" and fix.startswith(GUESS) and "shallower tree first" in fix


def test_two_trees_of_other_lengths_are_not_told_to_swap():
    assert _rule(lambda: jax.tree.map(lambda a, b: a + b, [1.0, 2.0], [1.0])) != "tree-map-deeper-first"


def test_a_custom_mapping_against_a_dict_is_told_a_plain_dict():
    @jax.tree_util.register_pytree_node_class
    class Frozen:
        def __init__(self, w):
            self.w = w

        def tree_flatten(self):
            return (self.w,), None

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(*children)
    fix = _fix(_block(lambda: jax.tree.map(lambda p, s: p * s, Frozen(jnp.ones(2)), {"w": 2.0})))
    assert "a plain `dict` in both" in fix


def test_typed_keys_padded_are_told_to_pad_their_data():
    keys = jax.random.split(jax.random.key(0), 3)
    rule, fix = _told(lambda: lax.pad(keys, 0, ((0, 1, 0),)))
    assert rule == "pad-typed-keys" and "jax.random.key_data(keys)" in fix and "wrap_key_data" in fix
    jax.random.wrap_key_data(lax.pad(jax.random.key_data(keys), jnp.uint32(0), ((0, 1, 0), (0, 0, 0))))


def test_a_callback_given_a_shape_alone_is_told_shape_dtype_struct():
    values = jnp.ones(3)
    rule, fix = _told(lambda: jax.pure_callback(lambda v: np.asarray(v) * 2, (3,), values))
    assert rule == "callback-shape-only" and "jax.ShapeDtypeStruct(values.shape, values.dtype)" in fix
    jax.pure_callback(lambda v: np.asarray(v) * 2, jax.ShapeDtypeStruct(values.shape, values.dtype), values)


def test_an_int_past_int32_is_told_iinfo():
    rule, fix = _told(lambda: jnp.asarray(2 ** 40))
    assert rule == "int-past-int32" and "jnp.iinfo(jnp.int32).max" in fix


def test_an_in_place_numpy_call_is_told_inplace_false_or_at():
    table = jnp.zeros((2, 3))
    rule, fix = _told(lambda: jnp.put_along_axis(table, jnp.array([[0], [2]]), 1.0, axis=1))
    assert rule == "in-place-put" and "inplace=False" in fix and ".at[" in fix
    jnp.put_along_axis(table, jnp.array([[0], [2]]), 1.0, axis=1, inplace=False)


def test_an_executable_compiled_for_other_types_is_told_to_lower_for_the_call():
    scaled = jax.jit(lambda a, b: a * b)
    one, vec = jnp.float32(1.0), jnp.ones(3)
    rule, fix = _told(lambda: scaled.lower(one, one).compile()(vec, vec))
    assert rule == "aot-other-types" and "scaled.lower(vec, vec).compile()(vec, vec)" in fix
    scaled.lower(vec, vec).compile()(vec, vec)


def test_a_compiled_executable_under_vmap_is_told_to_vmap_the_jitted_function():
    compiled = jax.jit(lambda r: r * 2.0).lower(jnp.ones(3)).compile()
    rule, fix = _told(lambda: jax.vmap(compiled)(jnp.ones((2, 3))))
    assert rule == "transform-of-compiled" and "jax.vmap(jax.jit(fn))" in fix


def test_shardings_of_other_keys_are_told_the_same_structure():
    from jax.sharding import NamedSharding, PartitionSpec
    mesh = jax.make_mesh((1,), ("i",))
    where = NamedSharding(mesh, PartitionSpec())
    params = {"w": jnp.ones(2), "b": jnp.ones(2), "scale": jnp.ones(())}
    rule, fix = _told(lambda: jax.jit(lambda p: p["w"] * p["scale"], in_shardings=({"w": where, "b": where},))(params))
    assert rule == "shardings-keys" and "give the trees the same structure" in fix


def test_a_function_in_a_carry_is_offered_partial():
    fix = _fix(_block(lambda: lax.scan(lambda c, x: (c, x), (jnp.sin, 0.0), jnp.ones(2))))
    assert "jax.tree_util.Partial(fn)" in fix
    lax.scan(lambda c, x: (c, x), (jax.tree_util.Partial(jnp.sin), 0.0), jnp.ones(2))
