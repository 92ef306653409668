"""The revision after the thirteenth held-out batch's first run (`checks/value_rules.py`, the new rules of
`checks/transform_rules.py`, and the narrowed or completed fixes of `api_rules`, `usage_rules`,
`misuse_rules` and `habit_rules`).

Each rule has a mistake written here (none of them a corpus case) where it must fire and tell the fix,
and a near miss where it must not fire, or must say something else."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from autograder.checks.trial_texts import GUESS
from support.explain import explanation_of as _block, fix_line as _fix, rule_of as _rule


# ---------------------------------------------------------------- values JAX cannot take as arrays
def test_arithmetic_on_dicts_is_told_tree_map():
    new, old = {"w": jnp.ones(2)}, {"w": jnp.zeros(2)}
    assert _rule(lambda: new - old) == "container-arithmetic"
    assert "jax.tree.map(lambda a, b: a - b, x, y)" in _fix(_block(lambda: new - old))


def test_a_number_minus_a_string_is_not_a_pytree():
    assert _rule(lambda: 1.0 - "a") != "container-arithmetic"


def test_a_dict_given_to_asarray_is_told_to_work_on_leaves():
    chains = {"mu": jnp.zeros((4, 3)), "s": jnp.ones(4)}
    assert "jax.tree.map(lambda x: x[0], tree)" in _fix(_block(lambda: jnp.asarray(chains)[0]))


def test_none_in_a_list_is_told_nan():
    raw = [1.0, -1.0, 2.0]
    assert "`jnp.nan`" in _fix(_block(lambda: jnp.array([v if v >= 0 else None for v in raw])))


def test_none_given_to_asarray_whole_is_not_a_missing_entry():
    assert _rule(lambda: jnp.asarray(None)) != "none-in-array"


def test_an_object_array_is_told_to_be_converted_or_kept_out():
    column = np.array([1.0, 2.5], dtype=object)
    fix = _fix(_block(lambda: jnp.subtract(column, 1.0)))
    assert "x.astype(np.float32)" in fix and "keep it out of the function's arguments" in fix


def test_an_array_as_a_dict_key_is_told_python_numbers():
    counts = {0: 1, 1: 2}
    assert "np.asarray(x)" in _fix(_block(lambda: [counts[i] for i in jnp.arange(2)]))


def test_an_array_as_a_static_argument_is_not_a_dict_key():
    f = jax.jit(lambda x, n: x * n, static_argnums=1)
    assert _rule(lambda: f(1.0, jnp.arange(2))) != "array-as-key"


def test_a_typed_keys_dtype_given_to_numpy_is_told_key_data():
    key = jax.random.key(1)
    assert "jax.random.key_data(k)" in _fix(_block(lambda: np.dtype(key.dtype)))


def test_a_typed_keys_impl_attribute_is_told_key_impl():
    key = jax.random.key(1)
    assert "jax.random.key_impl(key)" in _fix(_block(lambda: key.impl))


def test_tensorflows_name_in_jnp_is_told_jax_spelling():
    assert "jnp.clip(x, lo, hi)" in _fix(_block(lambda: jnp.clip_by_value(jnp.ones(2), 0.0, 1.0)))


def test_a_name_no_library_has_is_not_another_librarys():
    assert _rule(lambda: jnp.clip_values(jnp.ones(2))) != "other-library-name"


def test_matmul_with_a_number_is_told_to_multiply():
    assert "use `*` instead of `@`" in _fix(_block(lambda: jnp.ones((2, 2)) @ jnp.float32(0.5)))
    assert "use `*` instead of `@`" in _fix(_block(lambda: np.ones((2, 2)) @ np.float32(0.5)))   # NumPy's wording


def test_matmul_of_mismatched_matrices_is_not_a_scale():
    assert _rule(lambda: jnp.ones((2, 3)) @ jnp.ones((2, 3))) not in ("matmul-scalar", "matmul-scalar-ndim")


def test_two_dicts_of_arrays_compared_are_told_leaf_by_leaf():
    a, b = {"w": jnp.ones(3)}, {"w": jnp.ones(3)}

    def same():
        return a == b
    assert "jax.tree.map(jnp.array_equal, a, b)" in _fix(_block(same))


def test_an_if_on_an_array_comparison_is_not_a_container_comparison():
    x = jnp.ones(3)

    def branch():
        if x == x:
            return 1
    assert _rule(branch) != "container-compare"


# ---------------------------------------------------------------- what a transformation asks
def test_an_unmapped_output_that_varies_along_a_named_axis_is_told_to_name_it():
    def step(v):
        return v, lax.pmean(v, axis_name="rows")
    inner = jax.vmap(step, out_axes=(0, None), axis_name="rows")
    outer = jax.vmap(inner, out_axes=(0, None), axis_name="grid")
    fix = _fix(_block(lambda: outer(jnp.ones((2, 3)))))
    assert "axis_name=('grid', ...)" in fix and "out_axes=0" in fix


def test_a_static_argument_of_a_custom_vjp_function_is_told_to_close_over_it():
    @jax.custom_vjp
    def power(b, k):
        return b ** int(k)
    power.defvjp(lambda b, k: (power(b, k), (b, k)), lambda r, g: (g, None))
    loss = jax.jit(lambda b, k: power(b, k), static_argnums=1)
    assert "close over it" in _fix(_block(lambda: loss(2.0, 3)))


def test_a_custom_jvp_rule_not_linear_in_its_tangent_is_told_to_multiply():
    cube = jax.custom_jvp(lambda x: x ** 3)
    cube.defjvps(lambda t, ans, x: 3.0 * t ** 2)
    fix = _fix(_block(lambda: jax.grad(cube)(2.0)))
    assert fix.startswith(GUESS) and "multiply the incoming tangent by the derivative" in fix


def test_a_callback_on_the_tangent_is_told_to_run_on_the_primal():
    def host_sin(v):
        return jax.pure_callback(np.sin, jax.ShapeDtypeStruct(v.shape, v.dtype), v)
    sine = jax.custom_jvp(host_sin)
    sine.defjvps(lambda t, ans, v: host_sin(t))
    assert "call the callback on the primal only" in _fix(_block(lambda: jax.grad(sine)(jnp.float32(1.0))))


def test_an_integer_output_beside_the_result_is_told_has_aux():
    def residual_and_count(x):
        return x ** 2, jnp.sum(x > 1.0)
    assert "jax.jacrev(residual_and_count, has_aux=True)" in _fix(
        _block(lambda: jax.jacrev(residual_and_count)(jnp.ones(3))))


def test_a_complex_output_is_still_told_real_numbers():
    assert _rule(lambda: jax.grad(lambda x: x * 1j)(1.0)) != "integer-output"


def test_a_split_written_inside_a_sampler_is_told_to_split_once():
    root = jax.random.key(0)
    fix = _fix(_block(lambda: jax.random.bernoulli(jax.random.split(root, 2), 0.9, (3,))))
    assert "jax.random.split(root, 3)" in fix and "jax.random.split(root)[1]" in fix


def test_a_key_batch_made_elsewhere_is_not_a_split_inside_the_sampler():
    keys = jax.random.split(jax.random.key(0), 2)
    assert _rule(lambda: jax.random.normal(keys, (3,))) != "split-inside-sampler"


def test_a_matrix_product_under_vmap_with_an_axis_left_is_guessed_nested_vmap():
    w = jnp.ones((4, 6))
    fix = _fix(_block(lambda: jax.vmap(lambda v: w @ v)(jnp.ones((2, 3, 6)))))
    assert fix.startswith(GUESS) and "jax.vmap(jax.vmap(fn))" in fix


def test_a_matrix_product_outside_vmap_keeps_the_transpose_fix():
    assert _rule(lambda: jnp.ones((4, 6)) @ jnp.ones((3, 6))) != "contract-under-vmap"


# ---------------------------------------------------------------- completed and narrowed fixes
def test_linearizing_at_an_integer_point_is_told_a_float_point():
    def slope():
        return jax.linear_transpose(jax.linearize(lambda x: x ** 3, 3)[1], 3)(1.0)
    assert "float(x)" in _fix(_block(slope))


def test_a_tuple_in_axes_at_a_list_argument_is_told_one_entry():
    f = jax.vmap(lambda x, s: x * s[0], in_axes=(0, (None, None)))
    fix = _fix(_block(lambda: f(jnp.ones(3), [1.0, 2.0])))
    assert "`None` (no leaf mapped)" in fix and "tree prefix" in fix


def test_a_list_in_axes_is_still_told_a_tuple():
    f = jax.vmap(lambda x, y: x + y, in_axes=[0, None])
    assert _rule(lambda: f((jnp.ones(3), jnp.ones(3)), 1.0)) != "axes-container"


def test_select_between_dtypes_is_told_the_float_cast():
    fix = _fix(_block(lambda: lax.select(True, jnp.int32(2), jnp.float32(1.0))))
    assert "b.astype(jnp.float32)" in fix


def test_clip_with_an_upper_bound_only_is_told_minimum_too():
    fix = _fix(_block(lambda: jnp.clip(jnp.ones(2), a_max=0.5)))
    assert "jnp.minimum(x, hi)" in fix and "max=hi" in fix


def test_a_list_carry_made_an_array_is_told_to_start_from_an_array():
    def body(y, _):
        y = jnp.asarray(y)
        return y * 0.5, y
    fix = _fix(_block(lambda: lax.scan(body, [1.0, 2.0], None, length=3)))
    assert "`jnp.asarray(init)`" in fix


def test_a_dict_carry_with_other_keys_is_not_told_an_array():
    fix = _fix(_block(lambda: lax.scan(lambda c, _: ({"b": c["a"]}, None), {"a": 1.0}, None, length=2)))
    assert "jnp.asarray(init)" not in fix

