"""Rules read from what JAX's message says it wants and from the line's syntax (`checks/advice_rules.py`),
with the extensions of `fallback_rules` (JAX's advice sentences, a keyword renamed in the student's call)
and of the `in_axes` tree rule (a mismatch inside one argument's pytree).

Each rule has a mistake written here (none of them a corpus case) where it must fire and tell the fix, and
a near miss where it must not fire, or must say less."""
from __future__ import annotations

import dataclasses
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from autograder.checks import diagnose
from autograder.checks.trial_texts import GUESS
from support.explain import explanation_of as _block, fix_line, rule_of


_rule, _fix = rule_of, fix_line


# ---------------------------------------------------------------- the line's syntax
def test_a_chained_comparison_around_ampersand_is_told_parentheses():
    def keep_going(state):
        steps, err = state
        return steps < 10 & jnp.abs(err) > 0.5
    block = _block(lambda: lax.while_loop(keep_going, lambda s: (s[0] + 1, s[1] / 2), (0, 4.0)))
    assert "(steps < 10) & (jnp.abs(err) > 0.5)" in _fix(block) and not _fix(block).startswith(GUESS)


def test_parenthesized_comparisons_are_not_taken_for_a_chain():
    def bad(steps, err):
        return (steps < 10) & jnp.abs(err) > "x"
    assert _rule(lambda: bad(jnp.int32(3), jnp.float32(2.0))) != "chained-bitop"


def test_a_condition_from_constants_under_jit_is_told_numpy():
    limits = jnp.array([1.0, -2.0])

    def clipped(v):
        if np.any(limits < 0):
            return v
        return -v
    block = _block(lambda: jax.jit(clipped)(jnp.ones(2)))
    assert "np.any(np.asarray(limits) < 0)" in _fix(block) and _fix(block).startswith(GUESS)


def test_a_condition_on_an_argument_is_not_told_numpy():
    def clipped(v):
        if jnp.any(v < 0):
            return v
        return -v
    assert _rule(lambda: jax.jit(clipped)(jnp.ones(2))) != "host-condition"


# ---------------------------------------------------------------- the dtype JAX names
def test_float_indices_are_told_an_integer_cast():
    table = jnp.arange(12.0).reshape(3, 4)
    picks = jnp.array([[1.0], [0.0], [3.0]])
    block = _block(lambda: jnp.take_along_axis(table, picks, axis=1))
    assert "astype(jnp.int32)" in _fix(block) and _fix(block).startswith(GUESS)


def test_integer_indices_of_the_wrong_shape_are_not_told_a_cast():
    table = jnp.arange(12.0).reshape(3, 4)
    assert _rule(lambda: jnp.take_along_axis(table, jnp.array([1, 0]), axis=1)) != "wanted-dtype"


def test_holomorphic_on_real_inputs_is_told_complex_inputs():
    rotation = jnp.array([[0.0, 1.0], [1.0, 0.0]])
    field = jnp.array([1.0, 2.0])
    block = _block(lambda: jax.jacfwd(lambda u: rotation @ u, holomorphic=True)(field))
    assert "field.astype(jnp.complex64)" in _fix(block)


def test_ampersand_on_floats_without_a_chain_is_a_guess():
    a, b = jnp.array([0.5, 2.0]), jnp.array([1.0, 3.0])
    block = _block(lambda: jnp.where(a & b, 1.0, 0.0))
    assert "jnp.logical_and" in _fix(block) and _fix(block).startswith(GUESS)


# ---------------------------------------------------------------- JAX's tip and JAX's advice
def test_jax_tip_of_a_similar_function_rewrites_the_call():
    hits, weights = jnp.array([1, 2]), jnp.array([0.5, 0.25])
    block = _block(lambda: lax.mul(hits, weights))
    assert "`jnp.multiply(hits, weights)`" in _fix(block)


def test_same_dtypes_have_no_tip_rule():
    hits = jnp.array([1.0, 2.0])
    assert _rule(lambda: lax.mul(hits, jnp.ones(3))) != "tip-similar"


def test_jax_advice_to_pass_an_option_is_quoted():
    square = jnp.array([[2.0, 1.0], [0.0, 3.0]])
    block = _block(lambda: jax.grad(lambda m: jnp.sum(jnp.linalg.eig(m)[1].real))(square))
    assert "enable_eigvec_derivs=True" in _fix(block) and _fix(block).startswith(GUESS)


# ---------------------------------------------------------------- what the message lists
def test_an_absent_backend_is_told_the_default_devices():
    if any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("a GPU is present")
    block = _block(lambda: jax.devices("gpu"))
    assert "jax.devices()" in _fix(block)


def test_raise_mode_is_told_fill_or_clip():
    table = jnp.arange(6.0)
    block = _block(lambda: jnp.take(table, jnp.array([1, 9]), mode="raise"))
    assert "mode='fill'" in _fix(block) and "mode='clip'" in _fix(block)


def test_a_squeeze_of_a_long_axis_names_the_axis_of_size_one():
    column = jnp.ones((1, 5))
    block = _block(lambda: jnp.squeeze(column, axis=1))
    assert "`axis=0`" in _fix(block) and "axis=-1" not in _fix(block)


def test_a_squeeze_with_no_axis_of_size_one_has_no_squeeze_rule():
    assert _rule(lambda: jnp.squeeze(jnp.ones((2, 5)), axis=1)) != "squeeze-axis"


def test_a_two_dimensional_correlate_is_told_scipy_signal():
    image, kernel = jnp.ones((4, 4)), jnp.ones((2, 2))
    block = _block(lambda: jnp.correlate(image, kernel, mode="same"))
    assert "jax.scipy.signal.correlate(image, kernel, mode=" in _fix(block)


# ---------------------------------------------------------------- JAX's machinery calling the student's code
def test_a_dataclass_built_from_other_inputs_is_told_to_keep_its_fields_init():
    @jax.tree_util.register_dataclass
    @dataclasses.dataclass
    class Price:
        cents: jax.Array

        def __init__(self, *, dollars):
            self.cents = dollars * 100.0
    block = _block(lambda: jax.tree.map(jnp.round, Price(dollars=jnp.float32(2.5))))
    assert "classmethod" in _fix(block) and "`cents=" in block


def test_a_constructor_called_with_a_wrong_keyword_by_the_student_is_not_jax_built():
    @dataclasses.dataclass
    class Price:
        cents: float
    assert _rule(lambda: jax.tree.map(jnp.round, Price(dollars=2.5))) != "jax-built-it"


def test_tree_map_into_named_tuples_is_told_is_leaf():
    class Pair(NamedTuple):
        left: jax.Array
        right: jax.Array
    pairs = [Pair(jnp.ones(2), jnp.zeros(2))]
    block = _block(lambda: jax.tree.map(lambda p: p.left + p.right, pairs))
    assert "is_leaf=lambda x: hasattr(x, 'left')" in _fix(block)


def test_a_missing_array_attribute_outside_tree_map_has_no_is_leaf_rule():
    assert _rule(lambda: jnp.ones(2).left) != "leaf-attribute"


def test_a_jnp_function_given_a_dict_is_told_tree_map():
    mask = jnp.array(True)
    new, old = {"w": jnp.ones(2)}, {"w": jnp.zeros(2)}
    block = _block(lambda: jnp.where(mask, new, old))
    assert "jax.tree.map(lambda a, b: jnp.where(mask, a, b), new, old)" in _fix(block)


def test_a_property_called_like_a_method_is_told_to_drop_the_call():
    weights = jnp.ones((2, 3))
    block = _block(lambda: weights.shape())
    assert "`weights.shape`" in _fix(block)


def test_calling_a_non_callable_of_ones_own_is_not_a_property_rule():
    count = 3
    assert _rule(lambda: count()) != "called-property"


def test_a_custom_vmap_rule_returning_a_list_is_told_the_bare_output():
    @jax.custom_batching.custom_vmap
    def scaled(a):
        return 2.0 * a

    @scaled.def_vmap
    def scaled_rule(axis_size, in_batched, a):
        return [2.0 * a], [in_batched[0]]
    block = _block(lambda: jax.vmap(scaled)(jnp.ones(3)))
    assert "not wrapped in a list" in _fix(block)


# ---------------------------------------------------------------- extensions of earlier rules
def test_an_unknown_keyword_is_told_with_the_call_rewritten():
    grid = jnp.ones(6)
    block = _block(lambda: jnp.repeat(grid, repeat=2))
    assert "jnp.repeat(grid, repeats=2)" in _fix(block)


def test_an_in_axes_mismatch_inside_an_argument_names_its_key_path():
    flat = {"a": jnp.ones((3, 2))}
    assert "tree prefix" not in _fix(_block(lambda: jax.vmap(lambda b: b["a"], in_axes=({"b": 0},))(flat)))
    batch = {"a": (jnp.ones((3, 2)), jnp.float32(1.0))}      # no whole-argument `in_axes` traces
    block = _block(lambda: jax.vmap(lambda b: b["a"][0], in_axes=({"a": (0,)},))(batch))
    assert "tree prefix" in _fix(block) and "in_axes[0]['a']" in _fix(block)


def test_the_position_of_a_maximum_under_jit_is_also_offered_argmax():
    block = _block(lambda: jax.jit(lambda h: jnp.where(h == jnp.max(h)))(jnp.arange(4.0)))
    assert "jnp.argmax(h)" in _fix(block) and "size=" in _fix(block)


def test_a_removed_key_array_type_is_told_jax_array():
    key = jax.random.key(1)
    block = _block(lambda: isinstance(key, jax.random.PRNGKeyArray))
    assert "jax.Array" in _fix(block)


# ---------------------------------------------------------------- what a rule reads is bounded
def _endless_line_desc(n: int) -> dict:
    """A description, as a worker could send it, of `'int' object is not callable` on a line of `n`
    characters that calls nothing: what `_called_property`'s pattern scans in time quadratic in `n`."""
    line = "y = " + "a." * (n // 2) + "b"
    return {"type": "TypeError", "mro": ["TypeError"], "message": "'int' object is not callable",
            "text": "'int' object is not callable" + " x" * n, "where": {"line": 3, "function": "f", "code": line},
            "facts": {"at_line": line, "calls": ["a.b"] * 1000}, "origin": [], "call": {}, "transforms": []}


def test_rules_read_a_bounded_description_whatever_the_worker_sent():
    """Facts (what every rule reads) and the grader's StudentCodeError cut a description to
    `text.bounded`'s sizes: a 200,000-character line is read as its first 1,000 characters."""
    from autograder.checks import text
    from autograder.checks.rule_facts import Facts
    from autograder.grading.remote import StudentCodeError
    desc = _endless_line_desc(200_000)
    for seen in (Facts(desc).desc, StudentCodeError(desc).desc):
        assert len(seen["where"]["code"]) == text.OTHER_CHARS
        assert len(seen["facts"]["at_line"]) == text.OTHER_CHARS
        assert len(seen["text"]) == text.TEXT_CHARS
        assert len(seen["facts"]["calls"]) == text.ENTRIES
    assert len(desc["where"]["code"]) > 200_000           # the caller's description is left as it was
    from autograder.grading.remote import rebuild_exception
    for forged in (["x" * 200_000], "x" * 200_000, None):  # not a description at all: one readable error
        assert "cannot read" in str(rebuild_exception(forged))
    long_text = {"type": "TypeError", "message": "Use " + "a." * 200_000, "text": "Use " + "a." * 200_000,
                 "raised_in_jax": True}
    assert len(str(rebuild_exception(long_text))) < 4 * text.OTHER_CHARS
    nested = {"type": "E", "message": "m"}
    inner = nested
    for _ in range(50):
        inner["more"] = inner = {}
    depth, node = 0, Facts(nested).desc
    while isinstance(node, dict):                           # dicts kept, one per level
        depth, node = depth + 1, node.get("more")
    assert depth == text.DEPTH
    assert Facts({"type": "E", "odd": object(), (1, 2): "tuple key"}).desc == {"type": "E", "odd": None}


def test_an_error_on_an_endless_line_is_explained_from_its_first_characters():
    """The kernel's own description (facts.describe_exception) is cut the same way, and the grader's
    message quotes the line as far as the rules read it."""
    from autograder.checks import text
    from autograder.grading.remote import StudentCodeError
    source = "def endless():\n    return (3)()  # " + "a." * 20_000 + "\n"
    namespace: dict = {}
    exec(compile(source, "<endless>", "exec"), namespace)
    import linecache
    linecache.cache["<endless>"] = (len(source), None, source.splitlines(True), "<endless>")
    try:
        namespace["endless"]()
    except TypeError as exc:
        desc = diagnose.describe_exception(exc)
    finally:
        linecache.cache.pop("<endless>", None)
    assert all(len(v) <= text.OTHER_CHARS for v in _strings(desc, skip="text"))
    message = str(StudentCodeError(desc))
    assert "not callable" in message and len(message) < 4 * text.OTHER_CHARS


def _strings(value, skip=""):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if k != skip:
                yield from _strings(v, skip)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v, skip)
