"""Rules by the kind of API mistake (`checks/api_rules.py`): removed names and calling conventions.

Each kind has a mistake written here (none of them a corpus case) where the rule must fire and tell
the fix, and a neighbour where it must not fire, or must say less (a guess, not an instruction)."""
from __future__ import annotations

import re
from functools import partial

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from autograder.checks import diagnose
from autograder.checks.trial_texts import GUESS
from support.explain import explanation_of, fix_line, rule_of


_block = explanation_of


_rule, _fix = rule_of, fix_line


# ---------------------------------------------------------------- removed and renamed names
@pytest.mark.parametrize("attr, replacement", [("index_min", ".at[idx].min("), ("index_mul", ".at[idx].multiply(")])
def test_a_removed_index_update_is_told_its_at_form(attr, replacement):
    import jax.ops
    grid = jnp.zeros((3, 3))
    block = _block(lambda: getattr(jax.ops, attr)(grid, (0, 1), 4.0))
    assert replacement in _fix(block) and not _fix(block).startswith(GUESS)


def test_a_removed_array_method_is_told_its_replacement():
    signal = jnp.linspace(0.0, 1.0, 5)
    block = _block(lambda: signal.device_buffer)
    assert "addressable_data(0)" in _fix(block)


def test_a_removed_constant_is_told_its_expression():
    block = _block(lambda: jnp.where(jnp.arange(3) > 1, 0.0, jnp.NINF))
    assert "-jnp.inf" in _fix(block)


def test_a_misspelled_name_of_the_students_own_module_is_not_taken_for_a_removed_one():
    import types
    mine = types.SimpleNamespace(index_update=None)
    assert _rule(lambda: mine.index_updat) != "removed-api"


# ---------------------------------------------------------------- forward and reverse mode
def test_jvp_with_bare_primals_is_told_tuples():
    def energy(q):
        return jnp.sum(q ** 2)
    q, dq = jnp.ones(3), jnp.zeros(3)
    block = _block(lambda: jax.jvp(energy, q, dq))
    assert "jax.jvp(energy, (q,), (dq,))" in _fix(block)


def test_jvp_with_tuples_is_not_told_tuples():
    q = jnp.ones(3)
    assert _rule(lambda: jax.jvp(jnp.sin, (q,), (jnp.ones(4),))) != "jvp-tuples"


def test_a_tangent_of_another_shape_is_told_its_primals_shape():
    u = jnp.ones((2, 3))
    block = _block(lambda: jax.jvp(jnp.tanh, (u,), (jnp.ones(6),)))
    assert "(2, 3)" in block and "ones_like" in _fix(block)


def test_a_batch_of_tangents_to_a_linearized_function_is_told_to_vmap():
    _, push = jax.linearize(jnp.exp, jnp.zeros(4))
    block = _block(lambda: push(jnp.ones((8, 4))))
    assert "jax.vmap" in _fix(block)


def test_a_pullback_called_with_several_cotangents_is_told_one_argument():
    _, pull = jax.vjp(lambda r: (r * 2, r + 1), jnp.ones(2))
    block = _block(lambda: pull(jnp.ones(2), jnp.ones(2)))
    assert "a single argument" in _fix(block)


# ---------------------------------------------------------------- pytrees
class _Box:
    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi


def test_a_flatten_rule_returning_a_list_is_told_the_pair():
    class Box(_Box):
        pass
    jax.tree_util.register_pytree_node(Box, lambda b: [b.lo, b.hi], lambda _, c: Box(*c))
    block = _block(lambda: jax.tree.map(lambda v: v + 1, Box(jnp.zeros(2), jnp.ones(2))))
    assert "(children, aux_data)" in _fix(block)


def test_a_flatten_rule_returning_the_pair_is_not_told_the_pair():
    class Box(_Box):
        pass
    jax.tree_util.register_pytree_node(Box, lambda b: ((b.lo, b.hi), None), lambda _, c: Box(*c))
    assert jax.tree.leaves(Box(jnp.zeros(2), jnp.ones(2)))


def test_an_array_in_metadata_is_told_to_move_it_among_the_children():
    class Box(_Box):
        pass
    jax.tree_util.register_pytree_node(Box, lambda b: ((b.lo,), b.hi), lambda hi, c: Box(c[0], hi))
    one, two = Box(jnp.zeros(2), jnp.ones(2)), Box(jnp.zeros(2), jnp.ones(2) * 2)
    block = _block(lambda: jax.tree.map(lambda a, b: a + b, one, two))
    assert "children" in _fix(block) and "hashable" in _fix(block)


def test_mixed_dict_keys_are_told_one_type():
    table = {"bias": jnp.zeros(2), 0: jnp.ones(2)}
    block = _block(lambda: jax.tree.leaves(table))
    assert "keys of one type" in _fix(block)


# ---------------------------------------------------------------- keys and branches
def test_a_missing_key_is_told_to_make_one():
    rng = None
    block = _block(lambda: jax.random.bernoulli(rng, 0.3, (4,)))
    assert "jax.random.key(" in _fix(block) and "NoneType" in block


def test_a_none_predicate_is_told_to_decide_in_python():
    flip = None
    block = _block(lambda: lax.cond(flip, jnp.flip, lambda v: v, jnp.arange(3.0)))
    assert "is None" in _fix(block)


def test_a_traced_predicate_is_not_told_to_decide_on_none():
    block = _block(lambda: jax.jit(lambda v: lax.cond(v, lambda: 1.0, lambda: 2))(True))
    assert "is None" not in _fix(block)


def test_a_list_of_pmap_axes_is_told_a_tuple():
    block = _block(lambda: jax.pmap(lambda s, v: v * s, in_axes=[None, 0])(2.0, jnp.ones((1, 3))))
    assert "in_axes=(None, 0)" in _fix(block)


def test_checkpoint_branching_on_an_argument_is_told_its_static_position():
    layer = jax.checkpoint(lambda h, w, residual: h @ w + h if residual else h @ w)
    block = _block(lambda: layer(jnp.ones((2, 2)), jnp.eye(2), True))
    assert "static_argnums=(2,)" in _fix(block) and "jnp.where" in _fix(block)


def test_jit_branching_on_an_argument_is_not_told_checkpoint():
    block = _block(lambda: jax.jit(lambda h, on: h + 1 if on else h)(jnp.ones(2), True))
    assert "checkpoint" not in block


# ---------------------------------------------------------------- custom rules and loops
def test_a_bwd_rule_without_its_nondiff_argument_is_told_it_comes_first_as_a_guess():
    @partial(jax.custom_vjp, nondiff_argnums=(1,))
    def clip_grad(v, limit):
        return v

    def clip_fwd(v, limit):
        return v, None

    def clip_bwd(res, g):
        return (g,)
    clip_grad.defvjp(clip_fwd, clip_bwd)
    block = _block(lambda: jax.grad(lambda v: clip_grad(v, 1.0))(0.5))
    assert _fix(block).startswith(GUESS) and "nondiff_argnums" in _fix(block) and "first" in _fix(block)


def test_an_unrelated_arity_error_is_not_explained_as_a_custom_rule():
    def area(w, h):
        return w * h
    assert _rule(lambda: area(1.0, 2.0, 3.0)) != "rule-arity"


def test_a_scan_body_unpacking_a_scalar_carry_is_told_a_tuple_as_a_guess():
    block = _block(lambda: lax.scan(lambda st, v: ((lambda m, n: ((m + v, n + 1), m))(*st)), 0.0, jnp.ones(3)))
    assert _fix(block).startswith(GUESS) and "initial carry a tuple" in _fix(block)


def test_unpacking_a_scalar_outside_a_loop_is_not_told_a_carry():
    point = jnp.float32(1.0)

    def split():
        a, b = point
        return a + b
    assert "carry" not in _block(split)


def test_a_scan_body_indexing_below_its_slice_is_told_xs_is_sliced():
    block = _block(lambda: lax.scan(lambda acc, r: (acc + r[0, 1], None), 0.0, jnp.ones((4, 2))))
    assert _fix(block).startswith(GUESS) and "`xs`" in _fix(block)


def test_a_vmap_of_a_key_batch_beside_another_batch_is_told_the_split_count_as_a_guess():
    keys = jax.random.split(jax.random.key(1), 3)
    block = _block(lambda: jax.vmap(lambda k, row: row + jax.random.normal(k, row.shape))(keys, jnp.ones((7, 2))))
    assert "jax.random.split(key, 7)" in _fix(block)
    assert "other possibility, " + GUESS in _fix(block) or _fix(block).startswith(GUESS)


def test_a_truth_value_asked_by_the_students_if_is_not_taken_for_metadata():
    weights = jnp.ones(3)

    def gate():
        if weights > 0:
            return weights
    assert _rule(gate) != "metadata-truth"


# ---------------------------------------------------------------- fallbacks: nothing else knows the message
def _guesses(block: str) -> list[str]:
    fix = _fix(block)
    assert fix.startswith(GUESS), fix
    return re.findall(r"`([^`]+)`", fix)


def test_a_name_that_moved_between_jax_modules_is_offered_where_it_lives():
    vals = jnp.linspace(-1.0, 1.0, 4)
    block = _block(lambda: jax.numpy.erf(vals))
    assert "scipy.special.erf" in block and _fix(block).count("`") <= 8


def test_a_name_no_jax_module_has_says_nothing():
    assert _block(lambda: jax.numpy.no_such_function_anywhere) == ""


def test_a_numpy_only_array_method_is_offered_at_most_two_guesses():
    table = jnp.ones((2, 2))
    assert _block(lambda: table.no_such_method) == ""         # neither NumPy nor jnp has it: nothing said
    block = _block(lambda: table.fill(0.0))
    assert len(_guesses(block)) <= 2 and "np.asarray(x).fill" in block


def test_a_misspelled_keyword_of_a_jax_function_is_offered_its_parameter_as_a_guess():
    logits = jnp.zeros((3, 4))
    block = _block(lambda: jax.nn.log_softmax(logits, axes=0))
    assert "`axis=`" in _fix(block) and _fix(block).startswith(GUESS)


def test_a_missing_argument_of_a_jax_function_quotes_its_signature():
    block = _block(lambda: jnp.searchsorted(jnp.arange(5)))
    assert "`v`" in _fix(block) and "jnp.searchsorted(a, v" in block


def test_the_students_own_function_called_against_its_signature_is_not_quoted():
    def blend(a, b):
        return a + b
    assert _rule(lambda: blend(1.0, 2.0, 3.0)) != "jax-signature"


def test_an_axis_past_the_arrays_rank_is_offered_the_last_axis_as_a_guess():
    scores = jnp.arange(5.0)
    block = _block(lambda: jnp.cumsum(scores, axis=2))
    assert "axis=-1" in _fix(block) and _fix(block).startswith(GUESS)


def test_an_index_past_an_axis_without_an_axis_keyword_is_not_told_an_axis():
    counts = jnp.arange(3)
    assert "axis=-1" not in _block(lambda: counts.tolist()[7])


def test_a_size_made_with_jnp_from_constants_is_told_plain_python_as_a_guess():
    def fill(v):
        count = jnp.floor(7.0 / 2.0).astype(int)
        return v + jnp.arange(count).sum()
    block = _block(lambda: jax.jit(fill)(1.0))
    assert _fix(block).startswith(GUESS) and "plain Python" in _fix(block)


def test_a_size_from_a_jit_argument_is_not_blamed_on_constants():
    block = _block(lambda: jax.jit(lambda n: jnp.arange(n).sum())(4))
    assert "constants" not in block


def _size_desc(given: dict) -> dict:
    text = ("Shapes must be 1D sequences of concrete values of integer type, got (JitTracer(int32[]),).\n"
            "This concrete value was not available in Python because it depends on the value of the argument count.")
    return {"type": "TypeError", "mro": ["TypeError", "Exception"], "message": text, "text": text,
            "traced_args": ["count"], "facts": {"calls": ["jnp.ones"], "at_line": "return jnp.ones((count,))"},
            "where": {"line": 3, "function": "pad", "code": "return jnp.ones((count,))"},
            "call": {"function": "pad", "args": given}}


def test_a_size_from_an_argument_of_unknown_kind_offers_static_and_masking_as_guesses():
    cause, fix = diagnose.explain(_size_desc({}))
    assert fix.startswith(GUESS) and "static_argnames='count'" in fix and "fixed maximum size and mask" in fix


def test_a_size_from_a_python_int_argument_is_told_static_without_masking():
    cause, fix = diagnose.explain(_size_desc({"count": {"kind": "int"}}))
    assert "static_argnames='count'" in fix and "mask" not in fix and not fix.startswith(GUESS)


# ---------------------------------------------------------------- shapes and types a convention fixes
def test_a_cotangent_of_another_shape_is_told_the_outputs_type():
    _, back = jax.vjp(lambda m: m.sum(axis=0), jnp.ones((3, 5)))
    block = _block(lambda: back(jnp.ones(3)))
    assert "float32[5]" in block and "ones_like(out)" in _fix(block)


def test_rows_of_different_lengths_made_one_array_are_offered_padding_as_a_guess():
    short, long_ = jnp.ones(2), jnp.ones(4)
    block = _block(lambda: jnp.asarray([short, long_]))
    assert _fix(block).startswith(GUESS) and "jnp.pad" in _fix(block) and "axis=" not in _fix(block)


def test_a_concatenate_the_student_wrote_is_not_taken_for_a_ragged_array():
    assert _rule(lambda: jnp.concatenate([jnp.ones((2, 2)), jnp.ones((3, 3))])) != "ragged-array"


def test_an_update_of_more_axes_than_its_entries_is_told_their_shape():
    counts = jnp.zeros(4)
    block = _block(lambda: counts.at[1].add(jnp.ones(3)))
    assert "(3,)" in block and "()" in block


def test_a_scalar_matmul_is_told_to_multiply():
    assert "`*`" in _fix(_block(lambda: 3.0 @ jnp.ones(2)))


def test_scan_xs_of_two_lengths_is_told_one_leading_size():
    block = _block(lambda: lax.scan(lambda c, p: (c + p[0] * p[1], None), 0.0, (jnp.ones(5), jnp.ones(6))))
    assert "same leading axis size" in _fix(block) and "5, 6" in block


def test_static_argnames_naming_no_parameter_is_told_the_functions_own_names():
    block = _block(lambda: jax.jit(lambda rows, *, scale: rows * scale, static_argnames="scal"))
    assert "static_argnames" in _fix(block)


def test_a_float_where_a_key_belongs_is_told_to_make_a_key():
    block = _block(lambda: jax.random.permutation(0.5, 4))
    assert "jax.random.key(" in _fix(block) and "0.5" in block


def test_an_out_axes_past_the_rank_is_told_the_last_axis():
    # (was a guess; `stated_rules`' "out-axes-past-rank" reads `out_axes=3` on the line: tests/test_rules_after_batch_16.py)
    block = _block(lambda: jax.vmap(jnp.diff, out_axes=3)(jnp.ones((2, 4))))
    assert "`out_axes=3`" in block and "`-1`" in _fix(block)


def test_jax_advice_in_its_message_is_quoted_as_a_guess():
    block = _block(lambda: jnp.sort(jnp.ones(3), kind="quicksort"))
    assert _fix(block).startswith(GUESS) and "stable=" in _fix(block)


def test_advice_in_the_students_own_exception_is_not_attributed_to_jax():
    def check_rate(r):
        raise ValueError("rate too high. Use a smaller rate.")
    assert "JAX's own suggestion" not in _block(lambda: check_rate(2.0))


def test_an_int_where_a_key_belongs_keeps_its_own_rule():
    assert _rule(lambda: jax.random.split(5)) != "key-number"


def test_a_tangent_for_an_integer_primal_is_not_told_to_match_its_dtype():
    block = _block(lambda: jax.jvp(lambda n: n * 3, (jnp.arange(4),), (jnp.ones(4),)))
    assert _fix(block).startswith(GUESS) and "float0" in _fix(block) and "ones_like" not in _fix(block)


def test_a_list_where_a_key_belongs_is_offered_a_key_as_a_guess():
    block = _block(lambda: jax.random.uniform([3, 4], (2,)))
    assert _fix(block).startswith(GUESS) and "jax.random.key(" in _fix(block)


def test_a_forward_function_the_student_calls_with_too_many_arguments_is_not_a_custom_rule():
    def forward(x, w):
        return x @ w
    assert _rule(lambda: forward(jnp.ones(2), jnp.ones((2, 2)), 1.0)) != "rule-arity"


def test_a_message_the_student_raised_makes_the_grader_import_no_module_it_names():
    """The fallback looks a missing name up in JAX's public modules only: a message a student's code
    raised itself, naming another JAX module, imports nothing (it would run that module's import in
    the grader)."""
    import importlib.util
    import sys
    planted = "jax.example_libraries.stax"
    assert importlib.util.find_spec(planted) is not None
    # a corpus case run earlier in this process may have imported it: set it aside, so an import is seen
    earlier = sys.modules.pop(planted, None)

    from autograder.checks import diagnose

    def raise_it():
        raise AttributeError(f"module '{planted}' has no attribute 'lower_fn'")
    try:
        _block(raise_it)                                   # the kernel's explanation
        try:
            raise_it()
        except AttributeError as exc:                      # the grader's, from the worker's description
            diagnose.student_error_text(diagnose.describe_exception(exc))
        assert planted not in sys.modules
    finally:
        if earlier is not None:
            sys.modules[planted] = earlier
