"""`checks/transform_rules.py` and the precision fixes beside it: errors a jit rule or a generic rule
misread, because the value came from vmap, or JAX's own code (a custom rule's caller, `tree_util`)
called the student's function, or a computed split count. Each rule has a mistake written here (none
of them a corpus case) where it must fire and give its fix as a guess, and a near miss where it must
not fire, or must leave the older, certain fix alone."""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from autograder.checks.trial_texts import GUESS
from support.explain import explanation_of, fix_line, rule_of


_rule = rule_of


def _fix(fn) -> str:
    return fix_line(explanation_of(fn))


# ---------------------------------------------------------------- a value vmap mapped, no jit
def test_a_mapped_size_is_told_to_loop_in_python_not_to_be_static():
    def row_means(widths):
        return jax.vmap(lambda w: jnp.zeros((w, 2)).mean())(jnp.asarray(widths))
    assert _rule(lambda: row_means([1, 2])) == "mapped-value-concrete"
    fix = _fix(lambda: row_means([1, 2]))
    assert fix.startswith(GUESS) and "loop over these values in Python" in fix and "static_argnums" not in fix


def test_a_traced_size_under_jit_keeps_the_static_fix():
    def zeros_of(n):
        return jnp.zeros((n, 2))
    assert _rule(lambda: jax.jit(zeros_of)(3)) != "mapped-value-concrete"
    assert "static" in _fix(lambda: jax.jit(zeros_of)(3))


def test_a_mapped_argnums_is_told_to_loop_in_python():
    def slopes(point):
        return jax.vmap(lambda i: jax.grad(lambda a, b: a * b, i)(*point))(jnp.arange(2))
    assert _rule(lambda: slopes((1.0, 2.0))) == "mapped-value-concrete"


def test_a_python_if_on_a_mapped_value_keeps_its_own_rule():
    def clipped(xs):
        return jax.vmap(lambda x: 0.0 if x > 1.0 else x)(xs)
    assert _rule(lambda: clipped(jnp.arange(3.0))) not in ("mapped-value-concrete", "")
    assert "loop over these values in Python" not in _fix(lambda: clipped(jnp.arange(3.0)))


def test_a_mapped_nonzero_keeps_its_size_fix():
    def occupied(grid):
        return jax.vmap(jnp.nonzero)(grid)
    assert _rule(lambda: occupied(jnp.eye(3))) not in ("mapped-value-concrete", "")
    assert "size=" in _fix(lambda: occupied(jnp.eye(3)))


# ---------------------------------------------------------------- a custom rule's tuples
def test_a_jvp_rule_using_its_primals_tuple_is_told_to_unpack_it():
    @jax.custom_jvp
    def soft(x):
        return jnp.tanh(x)

    @soft.defjvp
    def soft_jvp(xs, dxs):
        return jnp.tanh(xs), dxs * (1 - jnp.tanh(xs) ** 2)

    assert _rule(lambda: jax.grad(soft)(0.3)) == "custom-rule-tuple"
    fix = _fix(lambda: jax.grad(soft)(0.3))
    assert fix.startswith(GUESS) and "`(x,) = xs`" in fix and "jnp.asarray" not in fix


def test_a_tuple_given_to_jnp_outside_a_custom_rule_keeps_its_traced_fix():
    def total(parts):
        return jnp.log1p(parts)
    assert _rule(lambda: total((1.0, 2.0))) == "list-argument"


# ---------------------------------------------------------------- a pytree's unflatten
def _box_class(convert):
    @jax.tree_util.register_pytree_node_class
    class Box:
        def __init__(self, value):
            self.value = value

        def tree_flatten(self):
            return (self.value,), None

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(convert(children[0]))
    return Box


def test_a_float_in_tree_unflatten_is_told_to_pass_children_through():
    Box = _box_class(float)
    assert _rule(lambda: jax.grad(lambda b: b.value ** 2)(Box(1.5))) == "unflatten-concrete"
    assert "cls(*children)" in _fix(lambda: jax.grad(lambda b: b.value ** 2)(Box(1.5)))


def test_a_float_in_the_students_own_function_is_not_an_unflatten_rule():
    assert _rule(lambda: jax.grad(lambda v: float(v) * v)(1.5)) != "unflatten-concrete"


# ---------------------------------------------------------------- a registered class in tree.map
def _tagged_class():
    @jax.tree_util.register_pytree_node_class
    class Label:
        def __init__(self, value, tag):
            self.value, self.tag = value, tag

        def tree_flatten(self):
            return (self.value,), self.tag

        @classmethod
        def tree_unflatten(cls, tag, children):
            return cls(children[0], tag)
    return Label


def test_different_aux_data_of_a_registered_class_is_not_called_dict_keys():
    Label = _tagged_class()
    fix = _fix(lambda: jax.tree.map(lambda a, b: a + b, Label(jnp.ones(2), "x"), Label(jnp.ones(2), "y")))
    assert fix.startswith(GUESS) and "dict keys" not in fix
    assert "is_leaf=lambda n: isinstance(n, Label)" in fix


def test_different_dict_keys_are_still_called_dict_keys():
    fix = _fix(lambda: jax.tree.map(lambda a, b: a + b, {"w": 1.0}, {"v": 1.0}))
    assert "dict keys" in fix or "same structure" in fix


# ---------------------------------------------------------------- a computed split count
def test_a_computed_split_count_is_kept_and_the_keys_taken_apart():
    def chains(seed, n):
        key = jax.random.key(seed)
        key, chain_keys = jax.random.split(key, n + 1)
        return chain_keys
    assert _rule(lambda: chains(0, 3)) == "split-count-kept"
    fix = _fix(lambda: chains(0, 3))
    assert "`keys = jax.random.split(key, n + 1)`" in fix and "`key, chain_keys = keys[0], keys[1:]`" in fix
    assert "split(key, 2)" not in fix


def test_a_written_out_split_count_is_still_tried_as_the_number_of_names():
    def two(seed):
        a, b = jax.random.split(jax.random.key(seed), 3)
        return a, b
    assert _rule(lambda: two(0)) != "split-count-kept"
    assert "split(jax.random.key(seed), 2)" in _fix(lambda: two(0))


# ---------------------------------------------------------------- NumPy under vmap
def test_numpy_under_vmap_is_told_jnp_for_code_under_vmap():
    fix = _fix(lambda: jax.vmap(lambda m: np.linalg.norm(m))(jnp.ones((2, 3))))
    assert "`jnp.linalg.norm` instead of `np.linalg.norm` inside code under `jax.vmap`" in fix


def test_numpy_under_jit_is_still_told_jitted_code():
    fix = _fix(lambda: jax.jit(lambda m: np.linalg.norm(m))(jnp.ones((2, 3))))
    assert "inside jitted code" in fix


# ---------------------------------------------------------------- shard_map: types that differ in their varying axes
def _over_rows(body, out_specs=None):
    mesh = jax.make_mesh((1,), ("rows",), axis_types=(jax.sharding.AxisType.Auto,))
    spec = jax.sharding.PartitionSpec("rows")
    return jax.jit(jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=out_specs or spec))


def _running_sum(init):
    def per_block(block):
        final, _ = jax.lax.scan(lambda acc, row: (acc + row, None), init(block), block)
        return final[None]
    return per_block


def test_a_carry_that_starts_the_same_on_every_device_is_told_pcast_with_its_axes():
    rows = jnp.arange(6.0).reshape(2, 3)
    fire = lambda: _over_rows(_running_sum(lambda b: jnp.zeros(3)))(rows)   # noqa: E731
    assert _rule(fire) == "varying-carry"
    fix = _fix(fire)
    assert "jax.lax.pcast(init, ('rows',), to='varying')" in fix and "full size" not in fix
    _over_rows(_running_sum(lambda b: jax.lax.pcast(jnp.zeros(3), ("rows",), to="varying")))(rows)


def test_a_carry_whose_shape_changes_inside_shard_map_keeps_the_shape_fix():
    rows = jnp.arange(6.0).reshape(2, 3)

    def per_block(block):
        final, _ = jax.lax.scan(lambda acc, row: (jnp.concatenate([acc, row]), None),
                                jax.lax.pcast(jnp.zeros(3), ("rows",), to="varying"), block)
        return final[None]
    fire = lambda: _over_rows(per_block)(rows)   # noqa: E731
    assert _rule(fire) != "varying-carry"
    assert "pcast" not in _fix(fire)


def test_a_cotangent_without_the_outputs_varying_axes_is_told_pcast():
    rows = jnp.arange(6.0).reshape(2, 3)
    p = jnp.ones(3)

    def grads(cotangent):
        def one(x):
            _, pull = jax.vjp(lambda q: jnp.dot(x, q), p)
            return pull(cotangent())
        return _over_rows(lambda r: jax.lax.map(one, r)[0])
    assert _rule(lambda: grads(lambda: jnp.ones(()))(rows)) == "varying-cotangent"
    assert "jax.lax.pcast(ct, ('rows',), to='varying')" in _fix(lambda: grads(lambda: jnp.ones(()))(rows))
    grads(lambda: jax.lax.pcast(jnp.ones(()), ("rows",), to="varying"))(rows)


def test_a_cotangent_of_another_shape_keeps_the_shape_fix():
    _, pull = jax.vjp(jnp.sin, jnp.ones(3))
    assert _rule(lambda: pull(jnp.ones(2))) != "varying-cotangent"
    assert "pcast" not in _fix(lambda: pull(jnp.ones(2)))


# ---------------------------------------------------------------- a custom function called as a method
class _Spring:
    stiffness = 3.0

    @functools.partial(jax.custom_jvp, nondiff_argnums=(0,))
    def energy(self, x):
        return 0.5 * self.stiffness * jnp.sum(x ** 2)

    @energy.defjvp
    def _energy_jvp(self, primals, tangents):
        (x,), (x_dot,) = primals, tangents
        return _Spring.energy(self, x), self.stiffness * jnp.sum(x * x_dot)


def test_a_custom_jvp_method_called_on_an_instance_is_offered_self_passed_explicitly():
    spring = _Spring()
    fix = _fix(lambda: spring.energy(jnp.ones(2)))
    assert _rule(lambda: spring.energy(jnp.ones(2))) == "custom-rule-method"
    assert fix.startswith(GUESS) and "`type(spring).energy(spring, jnp.ones(2))`" in fix
    type(spring).energy(spring, jnp.ones(2))


def test_a_custom_function_called_with_too_few_arguments_is_not_offered_self():
    @jax.custom_jvp
    def scaled(k, x):
        return k * x
    scaled.defjvp(lambda primals, tangents: (scaled(*primals), primals[0] * tangents[1]))
    assert _rule(lambda: scaled(jnp.ones(2))) != "custom-rule-method"
