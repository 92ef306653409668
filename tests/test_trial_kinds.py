"""Rewrites by the kind of error (`checks/trial_kinds.py`, issue 38): for each generator, one mistake
where it fires and its rewrite of the student's line traces (and the message quotes it), and one where
it must not fire, or fires and must not trace, so that the message claims nothing."""
from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from autograder.checks.rule_facts import Facts
from autograder.checks.trial_kinds import candidates
from autograder.checks.trial_texts import GUESS, TRACES
from support.explain import explanation_of


_block = explanation_of


def _kinds_traced(fn) -> list[str]:
    """The rewrites by kind that traced, whatever a rule says first (a rule whose fix is an instruction
    keeps its message; these generators still hold for the same kind where no rule is written)."""
    from autograder.checks import facts, trials
    try:
        fn()
    except Exception as exc:  # noqa: BLE001
        t = trials.attempt_kinds(facts.describe_exception(exc), exc)
        return [t["labels"][i].split(":", 1)[1] for i in t.get("traced", [])]
    raise AssertionError("the case raised nothing")


def _fix(block: str) -> str:
    return block.split("fix: ", 1)[1] if "fix: " in block else ""


def _traces(block: str, text: str) -> bool:
    return _fix(block).startswith(TRACES) and f"`{text}`" in _fix(block)


def _generators(source: str, message: str, error: str = "TypeError") -> set[str]:
    """The generators that propose a rewrite of `source` for an error of this kind."""
    desc = {"type": error, "mro": [error, "Exception"], "message": message, "text": message,
            "facts": {"source": source}}
    return {gen for gen, *_ in candidates(Facts(desc))}


# ---------------------------------------------------------------- a traced value's truth used by Python
def _adapt(sd, acc, target=0.44):
    return sd * 1.2 if acc < target else sd / 1.2


def _sign(x):
    if x > 0:
        return x
    return -x


def test_a_conditional_expression_on_a_traced_value_traces_as_jnp_where():
    block = _block(lambda: jax.jit(_adapt)(1.0, 0.3))
    assert _traces(block, "jnp.where(acc < target, sd * 1.2, sd / 1.2)"), block


def test_an_if_statement_is_not_rewritten_as_one_line():
    block = _block(lambda: jax.jit(_sign)(1.0))
    assert TRACES not in block, block
    assert "where" not in _generators("x > 0", "Attempted boolean conversion of traced array", "TracerBoolConversionError")


# ---------------------------------------------------------------- an output whose size depends on the values
def _positive(v):
    return jnp.compress(v > 0, v)


def test_a_value_dependent_output_size_traces_with_a_fixed_size():
    block = _block(lambda: jax.jit(_positive)(jnp.array([1.0, -2.0, 3.0])))
    assert _traces(block, "jnp.compress(v > 0, v, size=v.size)"), block


def test_a_three_argument_where_is_not_given_a_size():
    assert "size" not in _generators("jnp.where(v > 0, v, 0.0)", "Abstract tracer value encountered where concrete "
                                      "value is expected", "ConcretizationTypeError")


# ---------------------------------------------------------------- keywords a function takes by position only
def _soft(c, lam):
    return jnp.where(jnp.abs(c) > lam, x=c - lam, y=0.0)


def test_positional_only_keywords_trace_passed_by_position():
    block = _block(lambda: _soft(jnp.array([-2.0, 0.3]), 0.5))
    assert _traces(block, "jnp.where(jnp.abs(c) > lam, c - lam, 0.0)"), block


def test_an_unknown_keyword_is_not_moved_to_a_position():
    assert "positional" not in _generators("f(x, scale=2.0)", "f() got an unexpected keyword argument 'scale'")


# ---------------------------------------------------------------- a tuple where separate arguments belong
def _cotangents(w, b):
    out, pullback = jax.vjp(lambda w_, b_: jnp.sum(w_ * b_), (w, b))
    return pullback(1.0)


def test_a_tuple_of_primals_traces_unpacked():
    block = _block(lambda: _cotangents(jnp.ones(3), jnp.ones(3)))
    assert _traces(block, "jax.vjp(lambda w_, b_: jnp.sum(w_ * b_), w, b)"), block


def test_a_call_without_a_literal_tuple_is_not_unpacked():
    assert "unpack" not in _generators("f(xs)", "f() missing 1 required positional argument: 'y'")


# ---------------------------------------------------------------- Python arithmetic that raises
def _inverse_gap(r):
    return jnp.where(jnp.abs(r) < 1.0, 1.0 / (r - 1.0), 0.0)


def test_a_python_division_by_zero_traces_with_the_divisor_as_an_array():
    block = _block(lambda: _inverse_gap(1.0))
    assert _traces(block, "jnp.where(jnp.abs(r) < 1.0, 1.0 / (jnp.asarray(r) - 1.0), 0.0)"), block


def test_a_divisor_of_two_names_is_not_guessed_at():
    assert not _generators("a / (b - c)", "float division by zero", "ZeroDivisionError")


# ---------------------------------------------------------------- a value of another dtype
def _half_slope(x):
    y, pullback = jax.vjp(lambda v: jnp.sum(v ** 2), x.astype(jnp.float16))
    return pullback(1.0)


def test_a_cotangent_of_another_dtype_traces_cast():
    block = _block(lambda: _half_slope(jnp.ones(3)))
    assert _traces(block, "pullback(jnp.asarray(1.0, jnp.float16))"), block


def test_a_cotangent_of_another_shape_is_not_cast():
    message = ("unexpected JAX type (e.g. shape/dtype) for argument to VJP function: got float32[3], but "
               "expected float16[] because the corresponding output of the differentiated function had JAX type")
    assert "cast" not in _generators("pullback(g)", message, "ValueError")


# ---------------------------------------------------------------- a key split into too few keys
def _three_keys():
    k_in, k_hidden, k_out = jax.random.split(jax.random.key(0), 2)
    return k_in


def test_a_key_split_into_too_few_keys_traces_with_one_per_name():
    block = _block(_three_keys)
    assert _traces(block, "jax.random.split(jax.random.key(0), 3)"), block


def test_an_array_split_is_not_given_another_count():
    assert "split-count" not in _generators("a, b, c = jnp.split(x, 2)", "not enough values to unpack (expected 3, "
                                            "got 2)", "ValueError")


# ---------------------------------------------------------------- a single value given to tree.map as a tree
def _decayed(params):
    return jax.tree.map(lambda lr, p: p - lr * p, 0.05, params)


def _stepped(grads, params):
    return jax.tree.map(lambda g, p: p - g, grads, params)


def test_a_shared_value_traces_bound_with_partial():
    block = _block(lambda: _decayed({"w": jnp.ones(2), "b": jnp.zeros(1)}))
    assert _traces(block, "jax.tree.map(functools.partial(lambda lr, p: p - lr * p, 0.05), params)"), block


def test_a_tree_given_where_a_tree_belongs_is_not_bound_with_partial():
    block = _block(lambda: _stepped([jnp.ones(2), jnp.ones(1)], {"w": jnp.ones(2), "b": jnp.zeros(1)}))
    assert "functools.partial" not in _fix(block).split(GUESS)[0], block


# ---------------------------------------------------------------- `args=` that is not a tuple
def _fitted(data):
    from jax.scipy.optimize import minimize
    return minimize(lambda w, d: jnp.sum((w - d) ** 2), jnp.zeros(2), args=data, method="BFGS").x


def test_args_that_is_not_a_tuple_traces_as_one():
    block = _block(lambda: _fitted(jnp.array([1.0, -2.0])))
    assert TRACES in block and "args=(data,)" in _fix(block), block


def test_args_that_is_a_tuple_is_not_wrapped_again():
    assert "args-tuple" not in _generators("minimize(f, x0, args=(a, b))", "args argument to minimize must be a tuple")


# ---------------------------------------------------------------- in_axes entries that are not axes
def _amplified(rows, gain):
    return jax.vmap(lambda row, g: row * g, in_axes=(True, False))(rows, gain)


def test_boolean_in_axes_trace_as_axis_and_none():
    block = _block(lambda: _amplified(jnp.ones((4, 3)), jnp.array(2.0)))
    assert _traces(block, "jax.vmap(lambda row, g: row * g, in_axes=(0, None))"), block


def test_in_axes_without_booleans_are_not_rewritten():
    message = "vmap in_axes must be an int, None, or (nested) container with those types as leaves, but got ('a', 0)."
    assert "in-axes" not in _generators("jax.vmap(f, in_axes=('a', 0))(x, y)", message, "TypeError")


# ---------------------------------------------------------------- lax.map given several xs
def _lengths(starts, ends):
    return lax.map(lambda a, b: jnp.linalg.norm(a - b), starts, ends)


def test_lax_map_of_two_arrays_traces_with_one_tuple():
    block = _block(lambda: _lengths(jnp.ones((4, 2)), jnp.zeros((4, 2))))
    assert _traces(block, "lax.map(lambda xs: (lambda a, b: jnp.linalg.norm(a - b))(*xs), (starts, ends))"), block


def test_lax_map_of_one_array_is_not_rewritten():
    assert "map-tuple" not in _generators("lax.map(f, xs)", "map() takes 2 positional arguments but 3 were given")


# ---------------------------------------------------------------- the sum of a slice of traced length
def _first_sum(a, k):
    return jnp.sum(lax.dynamic_slice(a, (0,), (k,)))


def _first_rows(rows, n):
    return jnp.sum(rows[jnp.arange(n)], axis=0)


def test_a_sum_of_a_traced_length_prefix_traces_masked():
    block = _block(lambda: jax.jit(_first_sum)(jnp.ones(5), 2))
    assert _traces(block, "jnp.sum(jnp.where(jnp.arange(a.shape[0]) < k, a, 0))"), block
    block = _block(lambda: jax.vmap(_first_rows, in_axes=(None, 0))(jnp.ones((5, 3)), jnp.array([1, 2])))
    assert _traces(block, "jnp.sum(jnp.where(jnp.arange(rows.shape[0])[:, None] < n, rows, 0), axis=0)"), block
    assert jnp.allclose(jnp.sum(jnp.where(jnp.arange(5)[:, None] < 2, jnp.ones((5, 3)), 0), axis=0), 2.0)


def test_a_mean_of_a_traced_length_prefix_is_not_masked():
    assert "mask" not in _generators("jnp.mean(a[:k])", "Slice entries must be static integers", "IndexError")


# ---------------------------------------------------------------- a jit argument that is not an array
@dataclasses.dataclass(frozen=True)
class _Dense:
    features: int

    def apply(self, v):
        return v[:, :self.features]


def _forward(model, x):
    return jax.jit(lambda m, v: m.apply(v))(model, x)


def _ids(batch, w):
    return jax.jit(lambda b, w_: b["x"] @ w_)(batch, w)


def test_an_object_argument_traces_marked_static():
    block = _block(lambda: _forward(_Dense(2), jnp.ones((4, 3))))
    assert _traces(block, "jax.jit(lambda m, v: m.apply(v), static_argnums=0)(model, x)"), block


def test_an_unhashable_argument_is_not_marked_static():
    batch = {"x": jnp.ones((2, 3)), "id": np.array(["a", "b"])}
    block = _block(lambda: _ids(batch, jnp.ones(3)))
    assert "static_argnums=0" not in _fix(block).split(GUESS)[0], block


# ---------------------------------------------------------------- values of the wrong kind (`trial_kind_values.py`)
def _np_positions(i):
    return np.arange(6)[i] + np.sum(i)


def test_numpy_on_a_traced_value_traces_from_jnp():
    traced = _kinds_traced(lambda: jax.jit(_np_positions)(jnp.array([1, 2])))
    assert "jnp.arange(6)[i] + jnp.sum(i)" in traced, traced


def test_numpy_with_no_jnp_twin_is_not_claimed():
    def draw(k):
        return np.random.default_rng(0).normal(size=k.shape)
    block = _block(lambda: jax.jit(lambda k: draw(k) + np.asarray(k))(jnp.ones(2)))
    assert TRACES not in block, block


def _scaled_row(table, i):
    return table[int(i)] * 2.0


def test_a_traced_value_made_a_python_int_traces_kept_as_an_array():
    traced = _kinds_traced(lambda: jax.jit(_scaled_row)(jnp.ones((3, 2)), 1))
    assert "jnp.asarray(i).astype(int)" in traced, traced


def test_a_python_int_used_as_a_range_is_not_kept_as_an_array():
    def total(n):
        return sum(range(int(n)))
    assert not _kinds_traced(lambda: jax.jit(total)(3))


def _int_slope(n):
    return jax.grad(lambda v: v ** 2)(n)


def test_an_integer_input_to_grad_traces_as_a_float():
    traced = _kinds_traced(lambda: _int_slope(3))
    assert "jax.grad(lambda v: v ** 2)(jnp.asarray(n, jnp.float32))" in traced, traced


def test_grad_of_a_float_input_is_not_cast():
    assert "float-input" not in _generators("jax.grad(f)(x)", "Gradient only defined for scalar-output functions. "
                                            "Output had shape: [3]", "TypeError")


def _accuracy(batch, w):
    return jax.jit(lambda b, w_: jnp.mean((b["x"] @ w_ > 0) == b["y"]))(batch, w)


def _named_accuracy(batch, w):
    return jax.jit(lambda b, w_: jnp.mean(b["x"] @ w_) + len(b["id"]))(batch, w)


def _batch():
    return {"x": jnp.ones((2, 3)), "y": jnp.array([True, False]), "id": np.array(["a", "b"])}


def test_a_non_array_entry_the_function_does_not_read_traces_left_out():
    block = _block(lambda: _accuracy(_batch(), jnp.ones(3)))
    assert TRACES in block and "if k != 'id'" in _fix(block), block


def test_a_non_array_entry_the_function_reads_is_not_left_out():
    block = _block(lambda: _named_accuracy(_batch(), jnp.ones(3)))
    assert "if k != 'id'" not in _fix(block).split(GUESS)[0], block


def _shuffled(x):
    return jax.random.shuffle(jax.random.key(4), x, axis=0)


def test_a_removed_jax_name_traces_as_its_replacement():
    block = _block(lambda: _shuffled(jnp.arange(6.0)))
    assert _traces(block, "jax.random.permutation(jax.random.key(4), x, axis=0)"), block


def test_a_missing_name_with_no_replacement_is_not_guessed():
    message = "module 'jax' has no attribute 'defvjp'"
    assert "renamed" not in _generators("jax.defvjp(f, g)", message, "AttributeError")
    assert "renamed" not in _generators("np.shuffle(x)", "module 'numpy' has no attribute 'shuffle'", "AttributeError")


def test_rewrites_by_kind_share_the_rule_trials_budget():
    """What is left of `BUDGET_S` after the rule's own trial is the kinds' budget: none left, none tried."""
    from autograder.checks import facts, trials
    try:
        _three_keys()
    except ValueError as exc:
        desc = facts.describe_exception(exc)
        assert trials.attempt_kinds(desc, exc, budget=0.0) == {}
        assert trials.attempt_kinds(desc, exc)["traced"]
