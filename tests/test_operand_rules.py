"""The rules for values JAX refuses as operands and functions wired the wrong way round
(`checks/operand_rules.py`, `checks/wiring_rules.py`): each fires on its mistake and names the evidence, and does not fire on
the fixed code; where the fix rewrites the failing line, the rewrite was traced on the values."""
from __future__ import annotations

import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from test_usage_rules import _rule, fires_with  # the same reading of a case: (rule name, explanation)
from autograder.checks.trial_texts import GUESS, TRACES

x3 = jnp.array([0.5, 1.5, 2.5])


def _losses(fixed):
    losses = [jnp.mean(x3), jnp.max(x3)]
    if fixed:
        return lambda: jnp.mean(jnp.asarray(losses))
    return lambda: jnp.mean(losses)


def _tree_with_activation(fixed):
    model = {"w": jnp.ones((3, 2)), "act": jax.nn.relu}
    arrays = {k: v for k, v in model.items() if not callable(v)}
    if fixed:
        return lambda: jax.tree.map(jnp.zeros_like, arrays)
    return lambda: jax.tree.map(jnp.zeros_like, model)


def _grad_with_activation(fixed):
    model = {"w": jnp.ones(3), "act": jnp.tanh}

    def loss(m):
        return jnp.sum(m["act"](m["w"]))
    if fixed:
        return lambda: jax.grad(lambda w: loss({"w": w, "act": model["act"]}))(model["w"])
    return lambda: jax.grad(loss)(model)


def _jit_with_activation(fixed):
    model = {"w": jnp.ones(3), "act": jax.nn.relu}
    step = jax.jit(lambda m: jax.tree.map(lambda p: p * 2, m))
    if fixed:
        return lambda: step({"w": model["w"]})
    return lambda: step(model)


def _partial_loop(fixed):
    def step(decay, total, x):
        return total * decay + x, total
    if fixed:
        return lambda: lax.scan(functools.partial(step, 0.9), 0.0, x3)
    return lambda: lax.scan(functools.partial(step, decay=0.9), 0.0, x3)


def _fwd(pair):
    @jax.custom_vjp
    def f(x):
        return jnp.sum(x ** 2)

    def fwd(x):
        return (f(x), (x,)) if pair else (f(x), x, 2.0)
    f.defvjp(fwd, lambda res, g: (2 * g * res[0],))
    return lambda: jax.grad(f)(x3)


def _vmapped_option(fixed):
    def scaled(x, **opts):
        return x * opts.get("scale", 1.0)
    mapped = jax.vmap(scaled)
    if fixed:
        return lambda: jax.vmap(functools.partial(scaled, scale=2.0))(x3)
    return lambda: mapped(x3, scale=2.0)


def _cond_on_rank(fixed):
    v = jnp.ones(3)
    if fixed:
        return lambda: v.reshape(3, 1) if v.ndim == 1 else v.reshape(2, 2)
    return lambda: lax.cond(v.ndim == 1, lambda u: u.reshape(3, 1), lambda u: jnp.linalg.inv(u), v)


def _entries(fixed):
    nodes = tuple({"v": v} for v in x3)
    stacked = jax.tree.map(lambda *v: jnp.stack(v), *nodes)
    if fixed:
        return lambda: lax.scan(lambda c, node: (c + node["v"], None), 0.0, stacked)
    return lambda: lax.scan(lambda c, node: (c + node["v"], None), 0.0, nodes)


def _decayed(fixed):
    m, g = jnp.zeros(2, jnp.bfloat16), jnp.ones(2)       # the branch that updates promotes to float32
    if fixed:
        return lambda: lax.cond(True, lambda m: (m * 0.5 + g).astype(m.dtype), lambda m: m, m)
    return lambda: lax.cond(True, lambda m: m * 0.5 + g, lambda m: m, m)


class Pair(NamedTuple):
    a: jax.Array
    b: jax.Array


def _two_classes(fixed):
    again = NamedTuple("Pair", [("a", jax.Array), ("b", jax.Array)])   # the same name, another class
    first, second = Pair(x3, x3), again(x3, x3)
    if fixed:
        return lambda: lax.cond(True, lambda: first, lambda: type(first)(*second))
    return lambda: lax.cond(True, lambda: first, lambda: second)


CASES = {
    "list-argument": (_losses(False), ["`jnp.mean(jnp.asarray(losses))`", TRACES], _losses(True)),
    "function-value": (_tree_with_activation(False), ["`model`", "if not callable(v)"], _tree_with_activation(True)),
    "function-traced": (_grad_with_activation(False), ["`tanh`", "close over"], _grad_with_activation(True)),
    "nested-non-array": (_jit_with_activation(False), ["`m['act']`", "take it out of `m`"], _jit_with_activation(True)),
    "partial-keyword": (_partial_loop(False), ["`functools.partial(step, 0.9)`", TRACES, "(decay, total, x)"],
                        _partial_loop(True)),
    "vjp-fwd-pair": (_fwd(False), ["returned 3 values", "residuals"], _fwd(True)),
    "vmap-keyword": (_vmapped_option(False), ["`scale`", "functools.partial(scaled, scale=2.0)", TRACES],
                     _vmapped_option(True)),
    "sampler-shape": (lambda: jax.random.randint(jax.random.key(0), (), jnp.zeros(3, int), jnp.full(3, 5)),
                      ["(3,)", TRACES, "broadcast shape"],
                      lambda: jax.random.randint(jax.random.key(0), (3,), jnp.zeros(3, int), jnp.full(3, 5))),
    "sampler-broadcast": (lambda: jax.random.uniform(jax.random.key(0), minval=jnp.zeros(3), maxval=jnp.ones(3)),
                          ["jnp.broadcast_shapes(", TRACES],
                         lambda: jax.random.uniform(jax.random.key(0), (3,), minval=jnp.zeros(3), maxval=jnp.ones(3))),
    "pad-width": (lambda: jnp.pad(x3, [[1, 1], [0, 0]]), ["`jnp.pad(x3, [[1, 1]])`", "which has 1", TRACES],
                  lambda: jnp.pad(x3, [[1, 1]])),
    "conv-ndim": (lambda: lax.conv(jnp.ones((3, 5, 5)), jnp.ones((2, 3, 3, 3)), (1, 1), "SAME"),
                  ["`lax.conv(jnp.ones((3, 5, 5))[None], jnp.ones((2, 3, 3, 3)), (1, 1), 'SAME')[0]`", "3 axes"],
                  lambda: lax.conv(jnp.ones((1, 3, 5, 5)), jnp.ones((2, 3, 3, 3)), (1, 1), "SAME")),
    "conv-features": (lambda: lax.conv(jnp.ones((2, 6, 6, 3)), jnp.ones((4, 3, 3, 3)), (1, 1), "SAME"),
                      ["jnp.moveaxis(jnp.ones((2, 6, 6, 3)), -1, 1)", "NCHW", TRACES],
                      lambda: lax.conv(jnp.ones((2, 3, 6, 6)), jnp.ones((4, 3, 3, 3)), (1, 1), "SAME")),
    "scan-xs-axis": (_entries(False), ["jax.tree.map(lambda *v: jnp.stack(v), *nodes)", TRACES], _entries(True)),
    "branch-static": (_cond_on_rank(False), ["known while tracing", "if v.ndim == 1 else", TRACES],
                      _cond_on_rank(True)),
    # after the twelfth held-out batch (near misses of other errors: tests/test_habit_rules.py)
    "broadcast-fewer-axes": (lambda: jnp.broadcast_to(jnp.ones((1, 2, 3)), (2, 3)),
                             ["at least as many axes as the array, (1, 2, 3)", "not `x.shape[1:]`"],
                             lambda: jnp.broadcast_to(jnp.ones((1, 2, 3)), (4, 2, 3))),
    "take-along-axis-ndim": (lambda: jnp.take_along_axis(jnp.ones((2, 3, 4)), jnp.zeros((2, 1), int), axis=-1),
                             ["the indices have 2 and the array 3", "add the missing 1 size-1 axis"],
                             lambda: jnp.take_along_axis(jnp.ones((2, 3, 4)), jnp.zeros((2, 1, 1), int), axis=-1)),
    "split-keys-reshaped": (lambda: jax.random.split(jax.random.key(0), 6).reshape(2, 3, 2),
                            ["one element per key", "`jax.random.split(key, (2, 3))`"],
                            lambda: jax.random.split(jax.random.key(0), (2, 3))),
    "branch-keeps-operand-dtype": (_decayed(False), ["`m` unchanged", "`lambda m: (m * 0.5 + g).astype(m.dtype)`"],
                                   _decayed(True)),
    "branch-same-name-classes": (_two_classes(False), ["both named `Pair`", "give the trees the same structure"],
                                 _two_classes(True)),
}


def test_every_operand_and_wiring_rule_has_a_case():
    from autograder.checks.operand_rules import OPERAND_RULES
    from autograder.checks.wiring_rules import BRANCH_RULES, WIRING_RULES
    assert {r.name for r in OPERAND_RULES + WIRING_RULES + BRANCH_RULES} == set(CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_rule_fires_with_its_evidence_and_not_on_the_fixed_code(name):
    fire, words, near = CASES[name]
    text = fires_with(name, fire, words)
    assert _rule(near)[0] != name
    near()                                          # the fixed code runs


# ---------------------------------------------------------------- where the cause is not certain
def _fix(text: str) -> str:
    return text.split("\nfix: ", 1)[1]


def test_a_list_of_ragged_arrays_is_not_told_an_asarray_that_fails():
    a, b = jnp.ones(2), jnp.ones(3)
    rule, text = _rule(lambda: jnp.mean([a, b]))
    assert rule == "list-argument" and _fix(text).startswith(GUESS), text


def test_a_function_given_to_jnp_outside_a_tree_is_a_guess():
    def loss(x):
        return x.sum()
    rule, text = _rule(lambda: jnp.mean(loss))
    assert rule == "function-value" and _fix(text).startswith(GUESS) and "call it" in text, text
    rule, text = _rule(lambda: jax.tree.map(lambda p: jnp.mean(loss), {"a": x3}))   # the tree holds no function
    assert rule == "function-value" and _fix(text).startswith(GUESS), text


def test_a_partial_keyword_that_is_not_the_first_parameter_is_moved_last():
    def step(total, decay, x):
        return total * decay + x, total
    rule, text = _rule(lambda: lax.scan(functools.partial(step, decay=0.9), 0.0, x3))
    assert rule == "partial-keyword" and "def step(total, x, decay)" in text, text
    lax.scan(functools.partial(lambda total, x, decay: step(total, decay, x), decay=0.9), 0.0, x3)


def test_pad_pairs_whose_dropping_is_ambiguous_are_a_guess():
    rule, text = _rule(lambda: jnp.pad(jnp.ones((2, 2)), [[0, 0], [1, 1], [0, 0]]))
    assert rule == "pad-width" and _fix(text).startswith(GUESS), text


def test_an_index_error_inside_a_scan_body_is_not_blamed_on_xs():
    rule, text = _rule(lambda: lax.scan(lambda c, x: (c, x.shape[1]), 0.0, jnp.ones((3, 2))))
    assert rule == "scan-xs-axis" and _fix(text).startswith(GUESS) and "if it comes from" in text, text


def test_a_cond_whose_predicate_depends_on_values_is_not_told_a_python_if():
    v = jnp.ones(3)
    rule, text = _rule(lambda: lax.cond(v.sum() > 0, lambda u: u, lambda u: jnp.linalg.inv(u), v))
    assert rule == "branch-static" and _fix(text).startswith(GUESS) and "known while tracing" not in text, text


def test_a_cond_whose_operand_fails_is_not_told_a_python_if():
    v = jnp.ones(3)
    rule, text = _rule(lambda: lax.cond(v.ndim == 1, lambda u: u, lambda u: u, jnp.linalg.inv(v)))
    assert rule == "branch-static" and _fix(text).startswith(GUESS), text


def test_forward_mode_through_the_students_own_custom_vjp_offers_the_plain_function_when_it_traces():
    @jax.custom_vjp
    def xent(z):
        return jax.nn.logsumexp(z) - z[0]
    xent.defvjp(lambda z: (xent(z), jax.nn.softmax(z)), lambda p, g: (g * p,))
    direction = jnp.ones(3)
    rule, text = _rule(lambda: jax.jvp(xent, (x3,), (direction,)))
    assert rule == "vjp-forward-mode" and "`xent.fun`" in text, text
    jax.jvp(xent.fun, (x3,), (direction,))
    rule, text = _rule(lambda: jax.jacfwd(lambda t: jnp.sum(odeint_like(t)))(x3))   # JAX's own custom_vjp
    assert rule == "vjp-forward-mode" and ".fun`" not in text, text


@jax.custom_vjp
def odeint_like(t):
    return t * 2


odeint_like.defvjp(lambda t: (t * 2, None), lambda _, g: (2 * g,))


def test_a_keyword_argument_of_a_vmapped_function_is_passed_positionally_with_its_in_axes_entry():
    xs, scale = jnp.ones((4, 3)), jnp.array([1.0, 2.0, 0.5])

    def scaled(x, s):
        return jnp.sum(x * s)
    rule, text = _rule(lambda: jax.vmap(scaled)(xs, s=scale))          # `s` mapped along axis 0: sizes differ
    assert rule == "vmap-keyword" and "`jax.vmap(scaled, in_axes=(0, None))(xs, scale)`" in text, text
    jax.vmap(scaled, in_axes=(0, None))(xs, scale)
    rule, text = _rule(lambda: jax.vmap(scaled, in_axes=(0, None))(xs, s=scale))    # in_axes counts positionals
    assert rule == "vmap-keyword" and "`jax.vmap(scaled, in_axes=(0, None))(xs, scale)`" in text, text
