"""The revision after the fourteenth held-out batch's first run: new rules (`keys-as-numbers` and
`object-dtype` in `checks/value_rules.py`, `update-rank` and `minimize-flat-x0` in `api_rules.py`, the
shard_map rules of `transform_rules.VARYING_RULES`, tested in test_transform_rules.py, the branch-output
rules of `wiring_rules.py`, tested in test_operand_rules.py) and fixes completed where they named the
cause right and the fix short (NumPy beside `float()`, an `assert` on a mapped value, a key left `None`,
a removed module's names, a keyword a JAX function does not take, a constant cotangent).

Each has a mistake written here (none of them a corpus case) where it must fire and tell the fix, and a
near miss where it must not, or must say something else."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from autograder.checks.trial_texts import GUESS
from support.explain import explanation_of as _block, fix_line as _fix, rule_of as _rule


# ---------------------------------------------------------------- values
def test_keys_padded_like_numbers_are_told_to_pad_their_data():
    keys = jax.random.split(jax.random.key(0), 3)
    assert _rule(lambda: jnp.pad(keys, ((0, 1),))) == "keys-as-numbers"
    assert "jax.random.key_data(keys)" in _fix(_block(lambda: jnp.pad(keys, ((0, 1),))))
    jax.random.wrap_key_data(jnp.pad(jax.random.key_data(keys), ((0, 1), (0, 0))))


def test_numbers_padded_wrongly_are_not_keys():
    assert _rule(lambda: jnp.pad(jnp.ones(2), ((0, 1, 2),))) != "keys-as-numbers"


def test_dtype_object_is_told_a_numeric_dtype_on_the_students_line():
    def frequencies(counts):
        arr = jnp.array(counts, dtype=object)
        return arr / arr.sum()
    assert _rule(lambda: frequencies([1, 2])) == "object-dtype"
    assert "`arr = jnp.array(counts, dtype=jnp.int32)`" in _fix(_block(lambda: frequencies([1, 2])))


def test_a_numpy_array_of_objects_keeps_its_own_rule():
    assert _rule(lambda: jnp.sin(np.array([1.0, None], dtype=object))) not in ("object-dtype", None)


def test_two_tuples_multiplied_are_told_tree_map_with_their_operator():
    a, b = (jnp.ones(2), jnp.ones(1)), (jnp.zeros(2), jnp.zeros(1))
    assert _rule(lambda: a * b) == "container-arithmetic"
    assert "jax.tree.map(lambda a, b: a * b, x, y)" in _fix(_block(lambda: a * b))


def test_a_string_times_a_float_is_not_a_pytree():
    assert _rule(lambda: "ab" * 2.0) != "container-arithmetic"


# ---------------------------------------------------------------- shapes
def test_an_update_squeezed_below_the_operands_rank_is_told_to_keep_its_axes():
    grid, block = jnp.zeros((4, 1)), jnp.ones((2, 1))
    fire = lambda: lax.dynamic_update_slice(grid, jnp.squeeze(block), (0, 0))   # noqa: E731
    assert _rule(fire) == "update-rank"
    assert _fix(_block(fire)).startswith("drop the `squeeze`")
    lax.dynamic_update_slice(grid, block, (0, 0))


def test_an_update_of_another_rank_without_a_squeeze_is_a_guess():
    fire = lambda: lax.dynamic_update_slice(jnp.zeros((4, 1)), jnp.ones(2), (0, 0))   # noqa: E731
    assert _rule(fire) == "update-rank" and _fix(_block(fire)).startswith(GUESS)


def test_minimize_from_a_grid_is_told_to_flatten_x0_as_a_guess():
    from jax.scipy.optimize import minimize

    def relax(grid):
        return minimize(energy, grid, method="BFGS").x

    def energy(v):
        return jnp.sum((v - 1.0) ** 2)
    fix = _fix(_block(lambda: relax(jnp.zeros((2, 3)))))
    assert _rule(lambda: relax(jnp.zeros((2, 3)))) == "minimize-flat-x0"
    assert fix.startswith(GUESS) and "grid.ravel()" in fix and "v.reshape(grid.shape)" in fix
    relax(jnp.zeros(6))


# ---------------------------------------------------------------- fixes completed
def test_float_of_a_traced_value_inside_numpy_is_told_jnp_too():
    fix = _fix(_block(lambda: jax.grad(lambda r: np.exp(-float(r)))(1.0)))
    assert "drop `int()`/`float()`" in fix and "use `jnp.exp` instead of `np.exp`" in fix
    jax.grad(lambda r: jnp.exp(-r))(1.0)


def test_float_of_a_traced_value_alone_names_no_numpy_function():
    assert "instead of `np." not in _fix(_block(lambda: jax.grad(lambda r: float(r) * 2.0)(1.0)))


def test_an_assert_on_a_mapped_value_is_told_to_drop_it():
    def normalized(row):
        assert row[0] != 0.0, "first entry must not be zero"
        return row / row[0]
    assert _rule(lambda: jax.vmap(normalized)(jnp.ones((2, 3)))) == "assert"
    assert "drop the `assert`" in _fix(_block(lambda: jax.vmap(normalized)(jnp.ones((2, 3)))))


def test_an_if_on_a_mapped_value_keeps_its_per_example_choice():
    def flipped(row):
        if row[0] > 0:
            return row
        return -row
    assert _rule(lambda: jax.vmap(flipped)(jnp.ones((2, 3)))) == "vmap-python-if"


def test_a_key_left_none_is_told_to_fall_back_where_it_is_read():
    def init(settings):
        rng_key = settings.get("rng_key")
        return jax.random.normal(rng_key, (2,))
    assert "`rng_key if rng_key is not None else jax.random.key(0)`" in _fix(_block(lambda: init({})))


def _old_mesh():
    from jax.experimental.maps import Mesh   # noqa: F401  (removed from JAX)
    return Mesh


def _old_shaped_array():
    return jax.abstract_arrays.ShapedArray((2,), jnp.float32)


def test_a_removed_modules_names_are_looked_for_where_they_went():
    assert "`from jax.sharding import Mesh`" in _fix(_block(_old_mesh))
    assert "`jax.core.ShapedArray`" in _fix(_block(_old_shaped_array))


def test_a_keyword_a_jax_function_does_not_take_is_told_to_be_dropped():
    fix = _fix(_block(lambda: jax.nn.softmax(jnp.ones(3), where=jnp.ones(3, bool), initial=-jnp.inf)))
    assert fix.startswith(GUESS) and "drop `initial=`" in fix


def test_a_constant_cotangent_for_a_mask_is_offered_none():
    @jax.custom_vjp
    def gate(x, mask):
        return x * mask
    gate.defvjp(lambda x, mask: (x * mask, mask), lambda mask, g: (g * mask, 0.0))
    fix = _fix(_block(lambda: jax.grad(lambda v: jnp.sum(gate(v, jnp.ones(3))))(jnp.ones(3))))
    assert "return `None` as that input's cotangent" in fix


def test_a_contraction_that_does_not_line_up_is_a_guess_with_a_nested_vmap():
    fix = _fix(_block(lambda: jnp.ones((6, 4)) @ jnp.ones((1, 3, 4))))
    assert fix.startswith(GUESS) and "jax.vmap(jax.vmap(" in fix


def test_the_mapped_name_is_the_one_the_failing_function_got():
    text = _block(lambda: jax.vmap(lambda n, g: jnp.sum(jnp.arange(n) * g))(jnp.array([2, 2]), jnp.ones(2)))
    assert "`n` is one element of a batch" in text and "in_axes=(None, 0)" in _fix(text)


def test_a_tree_of_pairs_unpacked_into_two_names_is_offered_a_transpose_that_runs():
    layers = [jnp.ones(2), jnp.ones((2, 2)), jnp.ones(3)]

    def moments(w):
        return jnp.mean(w), jnp.std(w)

    def statistics():
        means, scales = jax.tree.map(moments, layers)
        return means, scales
    assert _rule(statistics) == "tree-of-tuples-unpacked"
    fix = _fix(_block(statistics))
    assert fix.startswith(GUESS)
    offered = next(part for part in fix.split("`") if part.startswith("jax.tree.transpose("))
    means, scales = eval(offered, {"jax": jax, "moments": moments, "layers": layers})   # the offered call runs
    assert len(means) == len(scales) == 3


def test_too_many_values_from_another_call_is_not_a_tree_map():
    def unpack():
        first, second = jnp.split(jnp.ones(6), 3)
        return first, second
    assert _rule(unpack) != "tree-of-tuples-unpacked"
