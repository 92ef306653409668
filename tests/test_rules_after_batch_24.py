"""The revision after the twenty-fourth held-out batch's first run: `checks/contract_rules.py` (a call that
breaks what its function's contract requires), the module of JAX that raised an error (`facts.py`'s
`raised_by`, the same in the grader's worker as in a kernel) and `register_dataclass`'s missing field told
as missing.

Each rule has a mistake written here (none of them a corpus case) where it must fire and tell the fix,
and, where the fix rewrites the line, the fixed code runs; and, for rules read from the values or the line,
a near miss where it must not."""
from __future__ import annotations

import contextlib
import dataclasses
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from support.explain import rule_of as _rule, told as _told


@contextlib.contextmanager
def _frames_kept():
    """JAX's frames left in tracebacks, as in a notebook kernel (IPython) and the grader's worker."""
    before = jax.config.jax_traceback_filtering
    jax.config.update("jax_traceback_filtering", "tracebackhide")
    try:
        yield
    finally:
        jax.config.update("jax_traceback_filtering", before)


# ---- what a function requires of an argument

def test_all_to_all_split_over_an_axis_of_another_length_is_told_the_mapped_size():
    blocks = jnp.ones((2, 2, 3))
    rule, fix = _told(lambda: jax.vmap(lambda b: lax.all_to_all(b, "i", 1, 0), axis_name="i")(blocks))
    assert rule == "all-to-all-split-size" and "`split_axis`" in fix and "mapped axis size, 2" in fix
    jax.vmap(lambda b: lax.all_to_all(b, "i", 0, 0), axis_name="i")(blocks)


def test_argnums_with_every_argument_by_keyword_is_told_to_pass_them_by_position():
    rule, fix = _told(lambda: jax.grad(lambda a, b: a * b, argnums=1)(a=2.0, b=3.0))
    assert rule == "argnums-by-keyword" and "jax.grad(lambda a, b: a * b, argnums=1)(2.0, 3.0)" in fix
    jax.grad(lambda a, b: a * b, argnums=1)(2.0, 3.0)


def test_argnums_with_some_arguments_by_position_is_left_to_other_rules():
    """One argument by position and one by keyword: which to move depends on the function, unread here."""
    assert _rule(lambda: jax.grad(lambda a, b: a * b, argnums=(0, 1))(2.0, b=3.0)) != "argnums-by-keyword"


def test_linear_transpose_given_an_input_shaped_value_is_told_the_outputs_shape():
    m, v = jnp.ones((4, 2)), jnp.ones(2)
    rule, fix = _told(lambda: jax.linear_transpose(lambda u: m @ u, v)(v))
    assert rule == "transpose-cotangent" and "`jnp.ones((4,), jnp.float32)`" in fix
    jax.linear_transpose(lambda u: m @ u, v)(jnp.ones((4,), jnp.float32))


def test_randint_asked_for_floats_is_told_to_cast_after():
    key = jax.random.key(1)
    rule, fix = _told(lambda: jax.random.randint(key, (5,), 0, 3, dtype=jnp.float16))
    assert rule == "randint-float-dtype" and "jax.random.randint(key, (5,), 0, 3).astype(jnp.float16)" in fix
    jax.random.randint(key, (5,), 0, 3).astype(jnp.float16)


def test_resize_given_only_the_spatial_sizes_is_told_the_full_shape():
    imgs = jnp.ones((4, 5, 5, 2))
    rule, fix = _told(lambda: jax.image.resize(imgs, (10, 10), "nearest"))
    assert rule == "resize-full-shape" and "(imgs.shape[0], 10, 10, imgs.shape[3])" in fix
    assert jax.image.resize(imgs, (imgs.shape[0], 10, 10, imgs.shape[3]), "nearest").shape == (4, 10, 10, 2)


def test_broadcast_in_dim_given_an_entry_per_output_axis_is_told_one_per_operand_axis():
    v = jnp.arange(3.0)
    rule, fix = _told(lambda: lax.broadcast_in_dim(v, (2, 3), (0, 1)))
    assert rule == "broadcast-dims-per-operand-axis" and "`(1,)`" in fix
    lax.broadcast_in_dim(v, (2, 3), (1,))


def test_a_partition_spec_naming_an_axis_the_mesh_lacks_is_told_the_meshs_names():
    mesh = jax.sharding.Mesh(np.array(jax.devices()[:1]), ("rows",))
    rule, fix = _told(lambda: jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("batch")))
    assert rule == "mesh-axis-name" and "PartitionSpec('rows')" in fix
    jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("rows"))


def test_a_lax_function_given_two_dtypes_is_told_to_cast_one():
    """(`lax.max` and its kin carry JAX's tip of a `jnp` function that promotes, which `advice_rules` tells.)"""
    a, b = jnp.ones((1, 1, 8), jnp.float16), jnp.ones((1, 1, 2), jnp.float32)
    rule, fix = _told(lambda: lax.conv_general_dilated(a, b, (1,), "VALID"))
    assert rule == "lax-same-dtypes" and "lax.conv_general_dilated(a, b.astype(a.dtype), (1,), 'VALID')" in fix.replace('"', "'")
    lax.conv_general_dilated(a, b.astype(a.dtype), (1,), "VALID")


def test_dynamic_update_slice_and_select_keep_their_own_rules():
    """Their first argument is not one of the two operands the message names (an array written into; a
    predicate), so casting it would be no fix."""
    a, u = jnp.zeros(4, jnp.float32), jnp.ones(2, jnp.int32)
    assert _rule(lambda: lax.dynamic_update_slice(a, u, (0,))) == "update-slice-dtype"
    assert _rule(lambda: lax.select(a > 0, a, jnp.zeros(4, jnp.int32))) not in ("", "lax-same-dtypes")


# ---- what JAX calls back

def _with_rule(rule):
    @jax.custom_batching.custom_vmap
    def double(row):
        return row * 2.0
    double.def_vmap(rule)
    return double


def test_a_custom_vmap_rule_returning_the_outputs_alone_is_told_the_pair():
    rows = jnp.ones((3, 2))
    with _frames_kept():
        rule, fix = _told(lambda: jax.vmap(_with_rule(lambda size, batched, x: x * 2.0))(rows))
    assert rule == "custom-vmap-rule-pair" and "return out, out_batched" in fix
    jax.vmap(_with_rule(lambda size, batched, x: (x * 2.0, batched[0])))(rows)


def test_an_unpacking_error_of_the_students_own_is_not_read_as_a_custom_vmap_rule():
    def split(pair):
        a, b = pair
        return a + b
    with _frames_kept():
        assert _rule(lambda: split(jnp.ones(3))) != "custom-vmap-rule-pair"


def test_a_custom_vmap_rule_returning_one_flag_per_input_is_told_one_per_output():
    rows, c = jnp.ones((3, 2)), 1.0

    @jax.custom_batching.custom_vmap
    def add(row, k):
        return row + k
    add.def_vmap(lambda size, batched, x, k: (x + k, batched))
    rule, fix = _told(lambda: jax.vmap(add, in_axes=(0, None))(rows, c))
    assert rule == "custom-vmap-flags-structure" and "`out_batched` one flag per output" in fix
    add.def_vmap(lambda size, batched, x, k: (x + k, batched[0]))
    jax.vmap(add, in_axes=(0, None))(rows, c)


def test_a_tree_unflatten_without_classmethod_is_told_to_make_it_one():
    class Pair:
        def __init__(self, a, b):
            self.a, self.b = a, b

        def tree_flatten(self):
            return (self.a, self.b), None

        def tree_unflatten(self, aux, children):
            return Pair(*children)
    jax.tree_util.register_pytree_node_class(Pair)
    rule, fix = _told(lambda: jax.tree.map(lambda t: t + 1, Pair(1.0, 2.0)))
    assert rule == "unflatten-not-classmethod" and "@classmethod" in fix

    @jax.tree_util.register_pytree_node_class
    class Fixed(Pair):
        @classmethod
        def tree_unflatten(cls, aux_data, children):
            return cls(*children)
    assert jax.tree.map(lambda t: t + 1, Fixed(1.0, 2.0)).b == 3.0


def test_a_closure_over_a_traced_value_handed_to_a_custom_rule_is_told_closure_convert():
    @functools.partial(jax.custom_vjp, nondiff_argnums=(0,))
    def run(fn, v):
        return fn(v)
    run.defvjp(lambda fn, v: (fn(v), v), lambda fn, v, g: (jax.vjp(fn, v)[1](g)[0],))

    def loss(scale):
        return run(lambda v: jnp.sin(scale * v), 2.0)
    rule, fix = _told(lambda: jax.grad(loss)(0.5))
    assert rule == "closure-into-custom-rule" and "jax.closure_convert" in fix and "`scale`" in fix


def test_a_tracer_stored_in_a_list_is_not_told_closure_convert():
    kept = []
    jax.jit(lambda x: kept.append(x) or x)(1.0)
    assert _rule(lambda: kept[0] + 1) != "closure-into-custom-rule"


# ---- what the values show was meant

def test_a_stack_of_cotangents_for_one_pullback_is_told_to_map_it():
    x, cots = jnp.ones(3), jnp.ones((5, 3))
    _, pull = jax.vjp(jnp.sin, x)
    rule, fix = _told(lambda: pull(cots))
    assert rule == "stacked-cotangents" and "jax.vmap(pull)(cots)" in fix
    assert jax.vmap(pull)(cots)[0].shape == (5, 3)


def test_a_cotangent_of_another_shape_is_not_told_to_map():
    _, pull = jax.vjp(jnp.sin, jnp.ones(3))
    assert _rule(lambda: pull(jnp.ones(2))) != "stacked-cotangents"


def test_a_stack_of_tangents_for_one_jvp_is_told_to_map_it():
    x, dirs = jnp.ones(2), jnp.eye(2)
    rule, fix = _told(lambda: jax.jvp(jnp.cos, (x,), (dirs,)))
    assert rule == "stacked-tangents" and "jax.vmap(lambda t: jax.jvp(jnp.cos, (x,), (t,)))(dirs)" in fix
    assert jax.vmap(lambda t: jax.jvp(jnp.cos, (x,), (t,)))(dirs)[1].shape == (2, 2)


def test_a_tangent_of_another_shape_is_not_told_to_map():
    assert _rule(lambda: jax.jvp(jnp.cos, (jnp.ones(2),), (jnp.ones(3),))) != "stacked-tangents"


def test_a_literal_axis_passed_to_a_jitted_function_is_told_static():
    m = jnp.ones((2, 3))
    rule, fix = _told(lambda: jax.jit(lambda x, ax: x.sum(axis=ax))(m, (1,)))
    assert rule == "literal-argument-static" and "jax.jit(lambda x, ax: x.sum(axis=ax), static_argnums=1)(m, (1,))" in fix
    jax.jit(lambda x, ax: x.sum(axis=ax), static_argnums=1)(m, (1,))


def test_an_array_axis_passed_to_a_jitted_function_is_not_told_static_by_this_rule():
    m, ax = jnp.ones((2, 3)), jnp.array(1)
    assert _rule(lambda: jax.jit(lambda x, a: x.sum(axis=a))(m, ax)) != "literal-argument-static"


def test_a_jitted_function_returning_a_function_is_told_to_return_arrays():
    rule, fix = _told(lambda: jax.jit(lambda a: (lambda t: a * t))(2.0))
    assert rule == "jit-returns-function" and "return only arrays" in fix


# ---- register_dataclass's missing field

def test_a_field_left_out_of_register_dataclass_is_told_missing():
    @dataclasses.dataclass
    class Box:
        lo: jax.Array
        hi: jax.Array
    rule, fix = _told(lambda: jax.tree_util.register_dataclass(Box, data_fields=["lo"], meta_fields=[]))
    assert rule == "dataclass-fields" and "add the missing field" in fix and "`data_fields`" in fix


def test_the_graders_worker_keeps_jaxs_frames_as_a_kernel_does():
    from autograder.sandbox.process import base_environment
    assert base_environment()["JAX_TRACEBACK_FILTERING"] == "tracebackhide"
