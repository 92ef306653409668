"""Rules for habits other tools taught (`checks/habit_rules.py`) and the precision revision after the
tenth held-out batch's first run (a `while` told `lax.while_loop`, a mask by how it is used, a key
compared, one key in an array, `None` in a carry, a container that differs, a keyword from another
library, a name JAX renamed, JAX's "values of the arguments").

Each rule has a mistake written here (none of them a corpus case) where it must fire and tell the fix,
and a near miss where it must not fire, or must say something else."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.flatten_util import ravel_pytree

from autograder.checks.trial_texts import GUESS
from support.explain import explanation_of as _block, fix_line as _fix, rule_of as _rule


# ---------------------------------------------------------------- NumPy's habits
def test_an_inplace_numpy_function_is_told_inplace_false():
    grid = jnp.ones((3, 3))
    fix = _fix(_block(lambda: jnp.fill_diagonal(grid, 0.0)))
    assert "jnp.fill_diagonal(x, ..., inplace=False)" in fix and ".at[i].set(v)" in fix


def test_another_not_implemented_error_is_not_told_inplace():
    def later():
        raise NotImplementedError("write me")
    assert _rule(later) != "numpy-inplace"


def test_an_integer_past_int32_is_told_64_bit_mode():
    assert "jax_enable_x64" in _fix(_block(lambda: jnp.array([3, 2 ** 40])))


def test_another_overflow_is_not_told_64_bit_mode():
    import math
    assert _rule(lambda: math.exp(1000.0)) != "int32-overflow"


def test_strings_are_told_to_be_parsed_first():
    assert "np.array(values, dtype=float)" in _fix(_block(lambda: jnp.array(["1.5", "2.0"])))


def test_a_where_mask_of_numbers_is_told_a_boolean_cast():
    losses, valid = jnp.arange(3.0), jnp.array([1, 0, 1])
    assert "where=valid.astype(jnp.bool_)" in _fix(_block(lambda: jnp.sum(losses, where=valid)))


def test_a_sampler_given_a_scale_where_its_shape_goes_is_told_to_multiply():
    key = jax.random.key(0)
    fix = _fix(_block(lambda: jax.random.gamma(key, 2.0, 3.0)))
    assert fix.startswith(GUESS) and "`jax.random.gamma(key, 2.0) * 3.0`" in fix


def test_a_sampler_given_its_shape_is_fine_and_another_type_error_is_not_a_scale():
    key = jax.random.key(0)
    assert jax.random.gamma(key, 2.0, (3,)).shape == (3,)
    assert _rule(lambda: jax.random.gamma(key, 2.0) + "x") != "sampler-scale"


def test_the_same_new_axis_twice_is_told_distinct_positions():
    assert "jnp.expand_dims(x, (0, 1, 2))" in _fix(_block(lambda: jnp.expand_dims(jnp.ones(2), (0, 0, 0))))


def test_a_mask_read_by_a_reduction_is_told_its_where():
    def positive_mean(x):
        return jnp.mean(x[x > 0])
    assert "`jnp.mean(x, where=x > 0)`" in _fix(_block(lambda: jax.jit(positive_mean)(jnp.arange(-2.0, 3.0))))


def test_a_mask_from_constants_only_is_told_to_be_computed_before_the_trace():
    weights = jnp.array([0.5, -1.0, 2.0])

    def drift(m):
        return lax.scan(lambda c, _: (c + jnp.mean(weights[weights > 0]), None), m, None, length=3)[0]
    fix = _fix(_block(lambda: drift(jnp.zeros(()))))
    assert "compute `weights[weights > 0]` once before the traced code" in fix


def test_a_mask_written_into_is_told_jnp_where():
    def clipped(x):
        return x.at[x > 1].set(1.0)
    assert "jnp.where(mask, new, x)" in _fix(_block(lambda: jax.jit(clipped)(jnp.arange(3.0))))


# ---------------------------------------------------------------- loops and branches
def test_a_python_while_under_vmap_is_told_while_loop_not_where():
    def shrink(z):
        while jnp.any(jnp.abs(z) > 1.0): z = z / 2  # noqa: E701  (the one-line form the rule must read)
        return z
    fix = _fix(_block(lambda: jax.vmap(shrink)(jnp.array([[3.0], [0.5]]))))
    assert "lax.while_loop" in fix and "jnp.where" not in fix


def test_a_one_line_python_while_under_jit_is_told_while_loop():
    def halve(z):
        while z > 1.0: z = z / 2  # noqa: E701
        return z
    fix = _fix(_block(lambda: jax.jit(halve)(3.0)))
    assert fix.startswith("loop with `lax.while_loop") and not fix.startswith(GUESS)


def test_a_python_if_under_vmap_is_still_told_where():
    def sign(z):
        if z > 0:
            return z
        return -z
    assert "jnp.where" in _fix(_block(lambda: jax.vmap(sign)(jnp.array([1.0, -1.0]))))


def test_none_in_an_initial_carry_is_offered_an_array_start_or_the_output():
    def step(carry, _):
        w, (total, last) = carry
        return (w, (total + w, w * 2)), None
    fix = _fix(_block(lambda: lax.scan(step, (jnp.ones(()), (0.0, None)), None, length=2)))
    assert fix.startswith(GUESS) and "jnp.zeros(())" in fix and "in scan's `y`" in fix


def test_a_carry_of_another_length_keeps_the_containers_fix():
    fix = _fix(_block(lambda: lax.scan(lambda c, _: ((c[0], c[1], c[0]), None), (0.0, 1.0), None, length=2)))
    assert fix.startswith("return the carry with the containers it came in with")


# ---------------------------------------------------------------- keys
def test_a_key_compared_with_raw_data_is_told_key_data():
    key = jax.random.key(3)
    block = _block(lambda: key == jnp.zeros(2, jnp.uint32))
    assert "compared with numbers" in block and "jax.random.key_data(key) == raw" in _fix(block)


def test_key_arithmetic_is_still_told_fold_in():
    key = jax.random.key(3)
    assert "fold_in" in _fix(_block(lambda: key + 1))


def test_a_batch_of_one_key_is_told_to_take_it():
    key = jax.random.key(3)
    fix = _fix(_block(lambda: jax.random.normal(jax.random.split(key, 1), (2,))))
    assert "`jax.random.split(key, 1)[0]`" in fix and "vmap" not in fix


def test_a_batch_of_several_keys_is_still_told_vmap():
    keys = jax.random.split(jax.random.key(3), 3)
    assert "jax.vmap" in _fix(_block(lambda: jax.random.normal(keys, (2,))))


def test_a_batch_that_holds_one_key_by_its_count_is_still_told_vmap():
    count = 1      # a batch size that happens to be 1: the code means a batch
    keys = jax.random.split(jax.random.key(3), count)
    assert "jax.vmap" in _fix(_block(lambda: jax.random.normal(keys, (2,))))


def test_raw_key_data_given_to_prngkey_is_offered_the_seed_as_well():
    raw = jax.random.PRNGKey(1)
    assert "jax.random.PRNGKey(seed)" in _fix(_block(lambda: jax.random.PRNGKey(raw)))


# ---------------------------------------------------------------- autodiff and custom rules
def _loss(w, b):
    return jnp.sum((w * jnp.arange(3.0) + b) ** 2)


def test_grad_with_a_tuple_of_argnums_used_as_an_array_is_told_a_number():
    w, b = 0.5, 0.1
    fix = _fix(_block(lambda: w - 0.1 * jax.grad(_loss, argnums=(0,))(w, b)))
    assert "`argnums=0`" in fix and "`[0]`" in fix


def test_a_sequence_error_without_grad_on_the_line_is_not_an_argnums_tuple():
    pair = (1.0, 2.0)
    assert _rule(lambda: 0.5 * pair) != "grad-argnums-tuple"


def test_argnums_given_to_jvp_is_told_to_close_over():
    block = _block(lambda: jax.jvp(_loss, (0.5, 0.1), (1.0, 0.0), argnums=0))
    assert "has no `argnums`" in block and "close over" in _fix(block)


def test_a_symbolic_zeros_forward_rule_using_its_inputs_is_told_value():
    @jax.custom_vjp
    def soft_abs(v):
        return jnp.sqrt(v ** 2 + 1e-3)
    soft_abs.defvjp(lambda v: (jnp.sqrt(v ** 2 + 1e-3), v), lambda v, g: (v * g,), symbolic_zeros=True)
    assert "`x.value`" in _fix(_block(lambda: jax.grad(soft_abs)(2.0)))


def test_a_forward_rule_returning_another_container_is_told_which():
    @jax.custom_vjp
    def pair(x):
        return [x * 2, x + 1]
    pair.defvjp(lambda x: ((x * 2, x + 1), None), lambda _, g: (g[0] * 2 + g[1],))
    fix = _fix(_block(lambda: jax.grad(lambda x: jnp.sum(jax.checkpoint(pair)(x)[0]))(1.0)))
    assert "a list, not a tuple" in fix


# ---------------------------------------------------------------- transformations' outputs and mapping
def test_jit_returning_a_function_is_told_to_return_only_arrays():
    params = {"w": jnp.ones(2), "b": jnp.zeros(1)}
    assert "return only arrays" in _fix(_block(lambda: jax.jit(ravel_pytree)(params)))


def test_pmap_of_a_scalar_argument_is_told_in_axes_none():
    fix = _fix(_block(lambda: jax.pmap(lambda a, s: a * s)(jnp.ones((1, 3)), 2.0)))
    assert "in_axes=(0, None)" in fix and "close over" in fix


def test_a_device_list_as_a_two_axis_mesh_is_told_to_reshape():
    fix = _fix(_block(lambda: jax.sharding.Mesh(jax.devices(), ("data", "model"))))
    assert "reshape(" in fix and "jax.make_mesh" in fix


def test_a_value_vmap_maps_where_a_static_one_goes_is_offered_closing_over():
    blocks, axes = jnp.ones((2, 3, 4)), jnp.array([1, 1])
    fix = _fix(_block(lambda: jax.vmap(lambda b, ax: jnp.sum(b, ax))(blocks, axes)))
    assert fix.startswith(GUESS) and "close over it" in fix


# ---------------------------------------------------------------- names and keywords
def test_pytorchs_dim_is_told_axis():
    x = jnp.ones((2, 3))
    fix = _fix(_block(lambda: jax.nn.softmax(x, dim=-1)))
    assert "`axis=`" in fix and "jax.nn.softmax(x, axis=-1)" in fix and not fix.startswith(GUESS)


def test_an_unknown_keyword_is_still_a_guess():
    x = jnp.ones((2, 3))
    assert _fix(_block(lambda: jax.nn.softmax(x, temperature=2.0))).startswith(GUESS)


def test_names_jax_removed_are_told_their_replacement():
    def stacked(a, b):
        return jnp.row_stack([a, b])

    def summed():
        return jax.partial(jnp.sum, axis=0)

    def noise():
        return jnp.random.uniform(size=3)
    assert "`jnp.vstack([a, b])`" in _fix(_block(lambda: stacked(jnp.ones(2), jnp.zeros(2))))
    assert "functools.partial" in _fix(_block(summed))
    assert "jax.random.key(0)" in _fix(_block(noise))


# ---------------------------------------------------------------- JAX naming several arguments
def test_a_truth_of_two_jit_arguments_is_told_to_drop_bool_not_a_size_fix():
    def same(a, b):
        return bool(jnp.asarray(a == b).all())
    assert _rule(lambda: jax.jit(same)(jnp.ones(2), jnp.ones(2))) == "bool-call"


def test_a_scan_length_from_two_jit_arguments_is_told_static():
    def euler(x, t, h):
        return lax.scan(lambda c, _: (c * 0.9, None), x, None, length=round(t / h))[0]
    fix = _fix(_block(lambda: jax.jit(euler)(1.0, 1.0, 0.25)))
    assert "static_arg" in fix, fix


# ---------------------------------------------------------------- after the eleventh held-out batch's first run
def test_a_conditional_expression_on_a_traced_value_is_told_where_or_cond():
    def flip_unless_positive(x, limit):
        return x if limit > 0 else -x
    block = _block(lambda: jax.jit(flip_unless_positive)(jnp.ones(2), jnp.float32(1.0)))
    fix = _fix(block)
    # the two sides are not known to agree: `jnp.where` is tried on the student's values, the rest a guess
    assert "`a if limit > 0 else b`" in block and "`jnp.where(limit > 0, x, -x)`" in fix and "lax.cond(limit > 0" in fix
    assert "shape arithmetic" not in block and GUESS in fix


def test_a_conditional_expression_beside_a_sampler_is_a_branch_not_shape_arithmetic():
    def draw(key, logits, temperature):
        return jax.random.categorical(key, logits / temperature) if temperature > 0.0 else jnp.argmax(logits)
    block = _block(lambda: jax.jit(draw)(jax.random.key(0), jnp.zeros(3), jnp.float32(1.0)))
    assert "shape arithmetic" not in block and "jnp.where(temperature > 0.0" in _fix(block)


def test_a_conditional_expression_joined_with_and_is_told_logical_and():
    def inside(x, lo, hi):
        return x if lo < 0 and hi > 0 else -x
    assert "jnp.logical_and" in _fix(_block(lambda: jax.jit(inside)(1.0, jnp.float32(-1), jnp.float32(1))))


def test_a_python_int_too_large_for_int32_is_told_the_dtype_its_line_asks_for():
    key = jax.random.key(0)
    fix = _fix(_block(lambda: jax.random.randint(key, (2,), 0, 2 ** 31 + 5, dtype=jnp.uint32)))
    assert "`maxval=jnp.uint32(2147483653)`" in fix and not fix.startswith(GUESS)


def test_a_python_int_too_large_without_a_dtype_is_offered_64_bit_mode_as_a_guess():
    key = jax.random.key(0)
    fix = _fix(_block(lambda: jax.random.randint(key, (2,), 0, 2 ** 31 + 5)))
    assert fix.startswith(GUESS) and "jax_enable_x64" in fix


def test_a_norm_over_three_axes_is_told_to_flatten():
    cube = jnp.ones((2, 2, 2))
    assert "`jnp.linalg.norm(cube.ravel())`" in _fix(_block(lambda: jnp.linalg.norm(cube, axis=(0, 1, 2))))


def test_a_norm_over_two_axes_is_a_matrix_norm_and_no_error():
    assert jnp.linalg.norm(jnp.ones((2, 2, 2)), axis=(0, 1)).shape == (2,)
    assert _rule(lambda: jnp.linalg.norm(jnp.ones(3), axis=(0, 1, 2))) != "norm-axes"   # an axis past the rank


def test_an_empty_axis_indexed_in_a_loop_is_told_to_handle_the_empty_case_first():
    rows = jnp.zeros((0, 3))
    fix = _fix(_block(lambda: lax.fori_loop(0, 2, lambda i, c: c + rows[i], jnp.zeros(3))))
    assert "Python `if` on the shape" in fix and "`if x.shape[0] == 0" in fix


def test_an_index_past_a_non_empty_axis_is_not_the_empty_case():
    assert _rule(lambda: np.ones((2, 3))[:, 7]) != "empty-axis"


def test_numpy_indexing_an_empty_array_outside_a_trace_is_not_told_about_tracing():
    assert _rule(lambda: np.zeros((0, 3))[0]) != "empty-axis"


def test_a_module_moved_to_example_libraries_is_told_its_new_import():
    def old_import():
        from jax.experimental import stax  # noqa: F401
    assert "`from jax.example_libraries import stax`" in _fix(_block(old_import))


def test_jax_config_imported_as_a_module_is_told_the_object():
    def old_import():
        import jax.config  # noqa: F401
    fix = _fix(_block(old_import))
    assert "`from jax import config`" in fix and "example_libraries" not in fix


def test_a_name_jax_never_had_is_not_sent_to_example_libraries():
    def made_up():
        from jax.experimental import no_such_module_anywhere  # noqa: F401
    assert "example_libraries" not in _block(made_up)


def test_numpy_masked_arrays_under_vmap_are_told_a_where_mask_not_a_jnp_name_that_does_not_exist():
    def masked_mean(v, bad):
        return np.ma.masked_array(v, mask=bad).mean()
    fix = _fix(_block(lambda: jax.vmap(masked_mean)(jnp.ones((2, 3)), jnp.zeros((2, 3), bool))))
    assert "jnp.ma" not in fix and "`jnp.mean(v, where=~bad)`" in fix


def test_numpy_under_vmap_with_a_jnp_twin_is_still_told_the_twin():
    assert "`jnp.sum`" in _fix(_block(lambda: jax.vmap(lambda v: np.sum(np.asarray(v)))(jnp.ones((2, 3)))))


def test_branches_returning_a_list_and_a_tuple_are_told_to_convert_the_list():
    fix = _fix(_block(lambda: lax.cond(True, lambda: [jnp.ones(2), 1.0], lambda: (jnp.zeros(2), 2.0))))
    assert "`tuple(the_list)`" in fix


def test_branches_returning_dicts_with_other_keys_keep_the_containers_fix():
    fix = _fix(_block(lambda: lax.cond(True, lambda: {"a": 1.0}, lambda: {"b": 1.0})))
    assert "same dict keys" in fix and "tuple(the_list)" not in fix


def test_an_integer_leaf_of_a_parameter_dict_is_offered_closing_over_it():
    def energy(p):
        return jnp.sum(p["coeff"] ** p["power"])
    fix = _fix(_block(lambda: jax.grad(energy)({"coeff": jnp.ones(2), "power": jnp.int32(2)})))
    assert "close over it" in fix and "argnums=" in fix


# ---------------------------------------------------------------- after the twelfth held-out batch
def test_a_list_searched_by_value_under_vmap_is_told_to_remove_by_identity():
    def drop_second(x):
        terms = [x, x * 2.0, x * 3.0]
        terms.remove(terms[1])
        return terms[0] + terms[-1]
    fix = _fix(_block(lambda: jax.vmap(drop_second)(jnp.arange(3.0))))
    assert "`terms = [v for v in terms if v is not terms[1]]`" in fix


def test_another_truth_of_a_mapped_value_is_not_a_list_search():
    assert _rule(lambda: jax.vmap(lambda x: 1.0 if x > 0 else 0.0)(jnp.arange(3.0))) != "list-search-by-value"


def test_a_list_repeated_by_an_array_is_told_a_python_int():
    def zeros_for(count):
        return [0.0] * count
    assert "`int(count)`" in _fix(_block(lambda: zeros_for(jnp.array(3))))


def test_a_dict_times_an_array_is_not_a_list_repeat():
    assert _rule(lambda: {"a": 1.0} * jnp.array(2)) != "list-times-array"


def test_a_string_folded_into_a_key_is_told_a_stable_hash():
    def layer_key(key, name):
        return jax.random.fold_in(key, name)
    fix = _fix(_block(lambda: layer_key(jax.random.key(1), "decoder")))
    assert "zlib.crc32(name.encode())" in fix and "`hash`" in fix


def test_an_int_parse_without_fold_in_is_not_told_a_hash():
    assert _rule(lambda: int("decoder")) != "fold-in-string"


def test_jax_util_zip_is_told_pythons_strict_zip():
    def pairs(a, b):
        return jax.util.safe_zip(a, b)
    assert "`zip(a, b, strict=True)`" in _fix(_block(lambda: pairs([1], [2])))


def test_a_fori_loop_body_without_the_index_is_told_body_i_carry():
    def grow(x):
        return lax.fori_loop(0, 3, lambda c: c * 2.0, x)
    block = _block(lambda: grow(1.0))
    assert "`body(i, carry)`" in block and "lambda i, carry: body(carry)" in _fix(block)


def test_a_scan_body_with_one_parameter_is_told_body_carry_x():
    def totals(xs):
        return lax.scan(lambda c: (c, c), 0.0, xs)
    assert "`body(carry, x)`" in _fix(_block(lambda: totals(jnp.arange(3.0))))


def test_a_function_called_wrongly_outside_any_loop_is_not_a_loop_body():
    def two(a, b):
        return a + b
    assert _rule(lambda: two(1.0)) != "loop-body-arguments"


def test_a_checkpoint_static_argument_passed_by_keyword_is_told_positionally():
    def layer(w, x, train):
        return w * x if train else x
    block = jax.checkpoint(layer, static_argnums=(2,))

    def run():
        return block(2.0, 3.0, train=True)
    assert "`block(2.0, 3.0, True)`" in _fix(_block(run))


def test_a_function_vmap_returns_is_told_to_return_arrays_only():
    def fit(x):
        return x * 2.0, jnp.sin
    assert "return only the arrays" in _fix(_block(lambda: jax.vmap(fit)(jnp.ones(3))))


def test_jit_returning_a_function_keeps_its_own_rule():
    assert _rule(lambda: jax.jit(lambda x: (x, jnp.sin))(1.0)) != "vmap-returns-object"


def test_an_argnums_read_from_a_traced_index_is_told_to_differentiate_all_and_pick():
    def energy(a, b):
        return a * b ** 2

    def partial(i):
        return jax.grad(energy, argnums=int(i))(1.0, 2.0)
    assert "`argnums=(0, 1)`" in _fix(_block(lambda: lax.map(partial, jnp.array([0, 1]))))


def test_a_traced_size_without_argnums_is_not_told_argnums():
    assert _rule(lambda: lax.map(lambda i: jnp.zeros(int(i)), jnp.array([1, 2]))) != "argnums-traced"


@jax.custom_vjp
def _halves(x):
    return x / 2.0, x / 4.0


_halves.defvjp(lambda x: (_halves(x), None), lambda res, g: (g * 0.5,))


def test_a_backward_rule_using_a_tuple_cotangent_as_an_array_is_told_to_take_it_apart():
    fix = _fix(_block(lambda: jax.grad(lambda x: _halves(x)[0])(1.0)))
    assert "`g[0]`" in fix


class _Pair:
    def __init__(self, a, b):
        self.a, self.b = a, b


jax.tree_util.register_pytree_node(_Pair, lambda p: ((p.a, p.b), None),
                                   lambda _, kids: _Pair(jnp.asarray(kids[0]), jnp.asarray(kids[1])))


def test_an_unflatten_that_converts_none_is_told_to_keep_children_unchanged():
    fix = _fix(_block(lambda: jax.tree.map(lambda v: None, _Pair(1.0, 2.0))))
    assert "unchanged, `cls(*children)`" in fix


def test_broadcasting_incompatible_sizes_is_not_the_fewer_axes_rule():
    assert _rule(lambda: jnp.broadcast_to(jnp.ones((2, 3)), (4, 3))) != "broadcast-fewer-axes"


def test_raw_keys_reshape_to_pairs_and_other_reshapes_keep_the_reshape_rule():
    assert jax.random.split(jax.random.PRNGKey(0), 6).reshape(2, 3, 2).shape == (2, 3, 2)
    assert _rule(lambda: jnp.ones(12).reshape(5, 2)) != "split-keys-reshaped"


def test_a_raw_key_of_another_implementation_is_told_a_typed_key():
    fix = _fix(_block(lambda: jax.random.split(jax.random.PRNGKey(3, impl="rbg"), 2)))
    assert "`jax.random.key(seed, impl=\"rbg\")`" in fix


def test_a_python_flag_choosing_branches_of_other_shapes_is_told_a_python_if():
    crop = True
    fix = _fix(_block(lambda: lax.cond(crop, lambda: jnp.ones(2), lambda: jnp.ones(3))))
    assert "Python `if` (`a if crop else b`)" in fix


def test_a_traced_predicate_choosing_branches_of_other_shapes_keeps_the_same_shape_fix():
    fix = _fix(_block(lambda: jax.jit(lambda p: lax.cond(p, lambda: jnp.ones(2), lambda: jnp.ones(3)))(True)))
    assert "same shape" in fix and "Python `if`" not in fix


class _Scale:
    def __call__(self, x):
        return 2.0 * x


jax.tree_util.register_pytree_node(_Scale, lambda s: ((), None), lambda _, kids: _Scale())


def test_callable_nodes_mapped_against_arrays_are_told_is_leaf():
    fix = _fix(_block(lambda: jax.tree.map(lambda f, s: f(s), [_Scale()], [jnp.ones(2)])))
    assert "`is_leaf=lambda x: isinstance(x, _Scale)`" in fix


def test_a_carry_class_defined_anew_at_each_call_is_told_to_define_it_once():
    from typing import NamedTuple

    def make(v):
        class Step(NamedTuple):
            value: jax.Array
        return Step(v)
    block = _block(lambda: lax.while_loop(lambda s: s.value < 3, lambda s: make(s.value + 1), make(0.0)))
    assert "another class of the same name" in block and "define the class once" in _fix(block)


def test_a_carry_with_other_dict_keys_is_not_told_to_define_a_class_once():
    block = _block(lambda: lax.while_loop(lambda s: s["a"] < 3, lambda s: {"b": s["a"] + 1}, {"a": 0.0}))
    assert "define the class once" not in block


def test_a_python_if_on_a_flag_carried_through_scan_is_offered_closing_over_it():
    def step(carry, x):
        total, plain = carry
        if plain:
            return (total + x, plain), x
        return (total - x, plain), x
    fix = _fix(_block(lambda: lax.scan(step, (0.0, True), jnp.arange(3.0))))
    assert fix.startswith(GUESS) and "close over it" in fix and "jnp.where" in fix


def test_a_python_if_on_a_jit_argument_is_not_offered_closing_over_a_loop_value():
    fix = _fix(_block(lambda: jax.jit(lambda x: x if x > 0 else -x)(1.0)))
    assert "close over it as a Python value" not in fix


def test_a_loop_itself_given_too_many_arguments_is_not_its_bodys_signature():
    assert _rule(lambda: lax.map(lambda a, b: a + b, jnp.ones(2), jnp.ones(2))) != "loop-body-arguments"
