"""The revision after the sixteenth held-out batch's first run: the rules of `checks/stated_rules.py` (what
a JAX message or the student's line states outright) and fixes corrected where the first run read them as
wrong (an argument JAX names `b` mapped whole because of that name, where the student's rows hold the batch
on another axis; one PRNG key told to pass it whole under vmap; a `range` or `if` on a jit argument never
offered `static_argnames`).

Each has a mistake written here (none of them a corpus case) where it must fire and tell the fix, and,
where the fix rewrites a call, the fixed call runs; and a near miss where it must not, or must say
something else."""
from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import checkify, io_callback

from autograder.checks.trial_texts import GUESS
from support.explain import explanation_of as _block, fix_line as _fix, rule_of as _rule, told as _told



# ---------------------------------------------------------------- what JAX's message names
def test_a_bincount_under_vmap_is_told_a_static_length():
    rule, fix = _told(lambda: jax.vmap(jnp.bincount)(jnp.array([[0, 2, 2], [1, 1, 0]])))
    assert rule == "static-size-argument" and "length=" in fix
    jax.vmap(lambda v: jnp.bincount(v, length=3))(jnp.array([[0, 2, 2], [1, 1, 0]]))


def test_a_nonzero_under_jit_keeps_its_own_rule():
    assert _rule(lambda: jax.jit(jnp.nonzero)(jnp.array([0, 1, 1]))) != "static-size-argument"


def test_a_check_under_jit_is_told_checkify():
    def positive(x):
        checkify.check(x > 0, "must be positive")
        return jnp.log(x)
    rule, fix = _told(lambda: jax.jit(positive)(2.0))
    assert rule == "checkify-unwrapped" and "checkify.checkify(f)" in fix
    err, _ = jax.jit(checkify.checkify(positive))(2.0)
    err.throw()


def test_a_custom_vmap_without_its_rule_is_told_def_vmap():
    clipped = jax.custom_batching.custom_vmap(lambda x: jnp.clip(x, 0.0, 1.0))
    rule, fix = _told(lambda: jax.vmap(clipped)(jnp.ones(3)))
    assert rule == "custom-vmap-rule" and ".def_vmap" in fix


def test_a_legacy_key_refused_is_told_typed_keys_on_the_line():
    with jax.legacy_prng_key("error"):
        rule, fix = _told(lambda: jax.random.uniform(jax.random.PRNGKey(3), (2,)))
    assert rule == "legacy-key-refused" and "jax.random.uniform(jax.random.key(3), (2,))" in fix


def test_key_data_of_another_implementation_is_told_its_impl():
    data = jax.random.key_data(jax.random.key(0, impl="rbg"))
    rule, fix = _told(lambda: jax.random.wrap_key_data(data))
    assert rule == "key-data-width" and "impl=" in fix
    jax.random.wrap_key_data(data, impl="rbg")


def test_key_data_of_a_wrong_shape_without_wrap_is_another_rule():
    assert _rule(lambda: jax.random.normal(jnp.zeros(4, jnp.uint32), (2,))) != "key-data-width"


def test_fields_listed_twice_are_told_to_pick_one_list():
    @dataclasses.dataclass
    class Sensor:
        reading: jax.Array
        scale: float
    rule, fix = _told(lambda: jax.tree_util.register_dataclass(Sensor, data_fields=["reading", "scale"],
                                                                meta_fields=["scale"]))
    assert rule == "fields-overlap" and "`scale`" in fix and "meta_fields" in fix


def test_a_buffer_donated_and_passed_again_is_told_to_drop_donation():
    buf = jnp.arange(3.0)
    rule, fix = _told(lambda: jax.jit(lambda a, b: a * b, donate_argnums=0)(buf, buf))
    assert rule == "donated-twice" and "donate_argnums" in fix


def test_an_array_initial_is_told_to_map_the_rows():
    x, starts = jnp.arange(6.0).reshape(2, 3), jnp.array([10.0, 0.0])
    rule, fix = _told(lambda: jnp.max(x, axis=-1, initial=starts))
    assert rule == "initial-not-scalar" and "jax.vmap(lambda row, start: jnp.max(row, initial=start))" in fix
    jax.vmap(lambda row, start: jnp.max(row, initial=start))(x, starts)


def test_a_scalar_initial_of_the_wrong_kind_is_not_told_to_map():
    assert _rule(lambda: jnp.max(jnp.zeros((0,)))) != "initial-not-scalar"


# ---------------------------------------------------------------- what the line shows
def test_grad_of_a_functions_value_is_told_to_pass_the_function():
    def loss(w, xs):
        return jnp.sum((w * xs) ** 2)
    w, xs = 0.5, jnp.arange(3.0)
    rule, fix = _told(lambda: jax.grad(loss(w, xs))(w))
    assert rule == "transform-of-a-value" and "`jax.grad(loss)(w, xs)`" in fix
    jax.grad(loss)(w, xs)


def test_a_number_where_a_function_goes_without_a_call_is_another_rule():
    assert _rule(lambda: jax.grad(3.0)(1.0)) != "transform-of-a-value"


def test_a_jacobian_of_a_column_is_told_a_flat_input():
    column = jnp.array([[1.0], [2.0]])
    rule, fix = _told(lambda: jnp.linalg.det(jax.jacobian(lambda p: p * p[0])(column)))
    assert rule == "jacobian-of-a-column" and ".ravel()" in fix
    jnp.linalg.det(jax.jacobian(lambda p: p * p[0])(column.ravel()))


def test_out_axes_past_a_scalar_output_is_told_out_axes_zero():
    table = jnp.ones((3, 4))
    rule, fix = _told(lambda: jax.vmap(lambda c: jnp.sum(c), in_axes=1, out_axes=1)(table))
    assert rule == "out-axes-past-rank" and "`out_axes=0`" in fix
    jax.vmap(lambda c: jnp.sum(c), in_axes=1, out_axes=0)(table)


def test_an_axis_out_of_bounds_without_out_axes_is_another_rule():
    assert _rule(lambda: jnp.sum(jnp.ones(3), axis=1)) != "out-axes-past-rank"


def test_indexing_the_0d_value_vmap_gives_is_told_a_batch_axis():
    one = jnp.array([1.0, 2.0, 3.0])
    rule, fix = _told(lambda: jax.vmap(lambda r: r - r[0])(one))
    assert rule == "index-mapped-scalar" and "x[None]" in fix
    jax.vmap(lambda r: r - r[0])(one[None])


def test_an_array_given_as_a_dtype_is_told_its_dtype_on_the_line():
    counts, weights = jnp.arange(3), jnp.ones(3)
    rule, fix = _told(lambda: lax.convert_element_type(counts, weights))
    assert rule == "array-as-dtype" and "lax.convert_element_type(counts, weights.dtype)" in fix


def test_a_float_seed_is_told_an_integer():
    rule, fix = _told(lambda: jax.random.PRNGKey(1.5))
    assert rule == "float-seed" and "int(seed)" in fix


def test_one_key_mapped_by_vmap_is_told_to_split_not_to_pass_it_whole():
    levels = jnp.arange(4.0)
    rule, fix = _told(lambda: jax.vmap(lambda k, v: v + jax.random.normal(k))(jax.random.key(1), levels))
    assert rule == "one-key-mapped" and "jax.random.split(jax.random.key(1), levels.shape[0])" in fix
    jax.vmap(lambda k, v: v + jax.random.normal(k))(jax.random.split(jax.random.key(1), levels.shape[0]), levels)


def test_one_key_tested_by_its_raw_rank_is_told_the_typed_shape():
    rng_key = jax.random.key(2)
    rule, fix = _told(lambda: jax.random.normal(rng_key) if rng_key.ndim == 1 else jax.vmap(jax.random.normal)(rng_key))
    assert rule == "key-rank-test" and "rng_key.shape == ()" in fix


def test_a_scalar_array_mapped_is_not_a_key_mistake():
    assert _rule(lambda: jax.vmap(lambda a, b: a + b)(jnp.float32(1.0), jnp.ones(3))) not in ("one-key-mapped",
                                                                                                "key-rank-test")


# ---------------------------------------------------------------- trees
def test_tree_map_into_lists_is_told_is_leaf():
    arrows = {"a": [1.0, 2.0], "b": [3.0, 4.0]}
    rule, fix = _told(lambda: jax.tree.map(lambda v: v[0] + v[1], arrows))
    assert rule == "tree-map-into-lists" and "is_leaf=lambda x: isinstance(x, list)" in fix
    jax.tree.map(lambda v: v[0] + v[1], arrows, is_leaf=lambda x: isinstance(x, list))


def test_tree_map_over_an_unregistered_class_is_told_to_register_it():
    class Anchor:
        def __init__(self, at):
            self.at = at
    anchors = [Anchor(jnp.ones(2))]
    rule, fix = _told(lambda: jax.tree.map(lambda a: a * 2.0, anchors))
    assert rule == "tree-map-unknown-class" and "register_pytree_node_class" in fix


def test_an_operator_missing_outside_tree_map_is_another_rule():
    class Anchor:
        pass
    assert _rule(lambda: Anchor() * 2.0) != "tree-map-unknown-class"


def test_an_unflatten_that_checks_its_leaves_is_told_to_take_them_as_they_are():
    @jax.tree_util.register_pytree_node_class
    class Named:
        def __init__(self, value, names):
            self.value, self.names = value, names

        def tree_flatten(self):
            return (self.value,), self.names

        @classmethod
        def tree_unflatten(cls, names, children):
            assert jnp.ndim(children[0]) == len(names), "names do not match"
            return cls(children[0], names)
    batch = Named(jnp.ones((4, 2)), ("row", "col"))
    rule, fix = _told(lambda: jax.vmap(lambda n: n.value.sum())(batch))
    assert rule == "unflatten-checks-leaves" and "cls(*children)" in fix


def test_an_object_hashed_as_a_scan_body_is_told_a_lambda():
    @dataclasses.dataclass(frozen=True)
    class Step:
        rate: jax.Array

        def __call__(self, carry, x):
            return carry * self.rate + x, carry
    step = Step(jnp.float32(0.9))
    rule, fix = _told(lambda: lax.scan(step, 0.0, jnp.ones(3)))
    assert rule == "hashed-callable" and "lax.scan(lambda carry, x:" in fix
    lax.scan(lambda carry, x: step(carry, x), 0.0, jnp.ones(3))


def test_an_array_as_a_dict_key_keeps_its_rule():
    assert _rule(lambda: {jnp.ones(2): 1}) == "array-as-key"


def test_leaves_of_different_ranks_joined_are_told_ravel_pytree():
    params = {"w": jnp.ones((2, 3)), "b": jnp.ones(3)}
    rule, fix = _told(lambda: jnp.concatenate(jax.tree.leaves(params)))
    assert rule == "leaves-of-different-ranks" and "ravel_pytree(params)" in fix
    jnp.concatenate([jnp.ravel(x) for x in jax.tree.leaves(params)])


def test_arrays_of_different_ranks_not_from_a_tree_keep_their_rule():
    assert _rule(lambda: jnp.concatenate([jnp.ones(3), jnp.ones((2, 3))])) != "leaves-of-different-ranks"


def test_values_of_a_namedtuple_are_offered_tree_leaves_as_a_guess():
    from typing import NamedTuple

    class Layer(NamedTuple):
        w: jax.Array
    layer = Layer(jnp.ones(2))
    rule, fix = _told(lambda: [v.shape for v in layer.values()])
    assert rule == "values-of-a-pytree" and fix.startswith(GUESS) and "jax.tree.leaves" in fix


# ---------------------------------------------------------------- custom rules and static arguments
def test_a_complex_tangent_for_a_real_output_is_told_its_real_part():
    @jax.custom_jvp
    def energy(x):
        return jnp.abs(x) ** 2

    @energy.defjvp
    def energy_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return energy(x), (x * t).astype(jnp.complex64)
    rule, fix = _told(lambda: jax.jvp(energy, (jnp.ones(2),), (jnp.ones(2),)))
    assert rule == "complex-tangent" and "jnp.real(t)" in fix


def test_an_io_callback_under_grad_is_told_a_custom_rule():
    def logged(v):
        return io_callback(lambda a: np.asarray(a), jax.ShapeDtypeStruct(v.shape, v.dtype), v)
    rule, fix = _told(lambda: jax.grad(lambda v: jnp.sum(logged(v)))(jnp.ones(2)))
    assert rule == "callback-derivative" and "jax.custom_vjp" in fix


def test_range_of_a_jit_argument_is_offered_static_argnames_too():
    rule, fix = _told(lambda: jax.jit(lambda xs, n: sum(xs[i] for i in range(n)))(jnp.ones(4), 3))
    assert "lax.fori_loop" in fix and "static_argnames='n'" in fix
    jax.jit(lambda xs, n: sum(xs[i] for i in range(n)), static_argnames="n")(jnp.ones(4), 3)


def test_an_if_on_a_jit_argument_is_offered_static_argnames_too():
    fix = _fix(_block(lambda: jax.jit(lambda v, flip: -v if flip else v)(jnp.ones(2), True)))
    assert "jnp.where" in fix and "static_argnames='flip'" in fix


def test_an_if_on_a_computed_value_is_not_offered_static():
    fix = _fix(_block(lambda: jax.jit(lambda v: -v if v.sum() > 0 else v)(jnp.ones(2))))
    assert "static_argnames" not in fix


def test_an_argument_jax_calls_b_that_holds_the_batch_on_axis_1_is_mapped_there():
    rows, cols = jnp.ones((4, 3)), jnp.ones((3, 4))
    rule, fix = _told(lambda: jax.vmap(jnp.outer, in_axes=(0, 0))(rows, cols))
    assert rule == "vmap-sizes" and "in_axes=(0, 1)" in fix
    jax.vmap(jnp.outer, in_axes=(0, 1))(rows, cols)


def test_a_student_argument_named_like_parameters_is_still_passed_whole():
    xs, w = jnp.ones((4, 3)), jnp.ones((3, 4))
    fix = _fix(_block(lambda: jax.vmap(lambda x, m: x @ m, in_axes=(0, 0))(xs, w)))
    assert "in_axes=(0, None)" in fix
