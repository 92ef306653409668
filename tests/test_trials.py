"""Fixes tried before they are told (`checks/trials.py`, issue 38): each planner confirms the fix
that works on the student's values and claims nothing when none does; and the trial's properties
hold against a function that fights them: the student's state does not change, nothing prints,
an endless trace costs at most the budget, a forged reply picks only among our own candidates."""
from __future__ import annotations

import os
import time

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from autograder.checks import diagnose, trials
from autograder.checks.trial_texts import CONFIRMED, GUESS, TRACES

SEEN_WHILE_TRACED: list = []


def _explained(fn) -> tuple[dict, str]:
    try:
        fn()
    except Exception as exc:  # noqa: BLE001
        desc = diagnose.describe_exception(exc)
        return desc, diagnose.explanation_block(exc) or ""
    raise AssertionError("the case raised nothing")


def _fix(block: str) -> str:
    return block.split("\nfix: ", 1)[1]


def _confirmed(block: str) -> bool:
    """The fix says it was tried: first, or at the end of the tried part (a guess may follow it)."""
    fix = _fix(block)
    return fix.startswith(TRACES) or fix.split("; other possibility, ")[0].endswith(CONFIRMED)


# ---------------------------------------------------------------- vmap's in_axes
def test_in_axes_container_for_one_argument_is_fixed_to_the_one_that_traces():
    params = {"w": jnp.ones(3), "b": jnp.array(0.5)}
    xs, ys = jnp.ones((4, 3)), jnp.zeros(4)

    def sq(p, x, y):
        return (p["w"] @ x + p["b"] - y) ** 2
    desc, block = _explained(lambda: jax.vmap(sq, in_axes=({"w": None}, 0, 0))(params, xs, ys))
    assert desc["trial"]["complete"], desc["trial"]
    assert _fix(block).endswith(CONFIRMED) and "in_axes=(None, 0, 0)" in block, block
    jax.vmap(sq, in_axes=(None, 0, 0))(params, xs, ys)          # the told fix works


def test_a_tuple_argument_given_an_entry_per_member_is_told_a_single_entry():
    xs, ys = jnp.ones((4, 3)), jnp.ones(4)
    _, block = _explained(lambda: jax.vmap(lambda xy: xy[0].sum() + xy[1], in_axes=(0, 0))((xs, ys)))
    fix = _fix(block)
    assert "in_axes=(0" in fix and (fix.endswith(CONFIRMED) or fix.startswith(TRACES)), block


def test_in_axes_that_no_combination_fixes_claims_no_fix():
    a, b = jnp.ones((4, 3)), jnp.ones((4, 5))
    _, block = _explained(lambda: jax.vmap(lambda u, v: u + v, in_axes=(0, 1))(a, b))
    assert TRACES not in block and block.split("fix: ", 1)[1].startswith(GUESS), block


# ---------------------------------------------------------------- carries, broadcasts, methods
def test_a_carry_that_gains_a_singleton_axis_is_told_to_keep_its_shape():
    def body(c, x):
        return c + x[None], c
    _, block = _explained(lambda: lax.scan(body, 0.0, jnp.ones(3)))
    assert _fix(block).startswith(TRACES) and "jnp.squeeze" in block and "full size" not in block, block


def test_a_carry_that_grows_is_not_told_a_reshape():
    def body(c, x):
        return jnp.concatenate([c, x[None]]), x
    _, block = _explained(lambda: lax.scan(body, jnp.zeros(1), jnp.ones(3)))
    assert TRACES not in block and "full size" in block, block


def test_broadcast_is_told_the_new_axes_that_trace():
    a, b = jnp.ones(3), jnp.ones(4)
    _, block = _explained(lambda: a - b)
    assert "`a[:, None] - b`" in block and TRACES in block, block
    c, d = jnp.ones((2, 3)), jnp.ones((5, 7))
    _, block = _explained(lambda: c * d)
    assert TRACES not in block and GUESS in block, block


class _Model:                   # not a pytree
    def __init__(self):
        self.w = jnp.ones(3)

    def loss(self, x):
        return jnp.sum(self.w * x)


def test_a_method_given_to_grad_is_told_the_argnums_that_traces():
    model, x = _Model(), jnp.ones(3)
    _, block = _explained(lambda: jax.grad(_Model.loss)(model, x))
    assert "`jax.grad(_Model.loss, argnums=1)(model, x)`" in block and _fix(block).startswith(TRACES), block
    jax.grad(_Model.loss, argnums=1)(model, x)


def test_inside_a_transformation_the_values_are_not_tried():
    """The failing line ran under jit: its names hold tracers, so nothing is claimed either way."""
    @jax.jit
    def f(a, b):
        return a - b
    _, block = _explained(lambda: f(jnp.ones(3), jnp.ones(4)))
    assert TRACES not in block and GUESS in block, block


# ---------------------------------------------------------------- the trial's properties
def test_the_students_state_is_unchanged_and_nothing_prints(capfd):
    SEEN_WHILE_TRACED.clear()

    def noisy(x, y):
        SEEN_WHILE_TRACED.append(1)
        print("traced!")
        os.write(1, b"raw write\n")
        return x * y
    xs, ys = jnp.ones((4, 3)), jnp.ones((5, 3))
    _, block = _explained(lambda: jax.vmap(noisy)(xs, ys))
    assert _confirmed(block), block                     # candidates were traced (in the child)
    out, err = capfd.readouterr()
    assert SEEN_WHILE_TRACED == [] and "traced!" not in out + err and "raw write" not in out + err


def test_an_endless_trace_costs_the_budget_and_claims_nothing():
    def endless(x, y):
        if x.ndim == 1 and y.ndim == 2:              # every candidate that could trace never ends
            while True:
                time.sleep(0.01)
        return x * y
    xs, ys = jnp.ones((4, 3)), jnp.ones((5, 3))
    try:
        jax.vmap(endless)(xs, ys)
    except ValueError as exc:
        start = time.monotonic()
        block = diagnose.explanation_block(exc)
        took = time.monotonic() - start
    # the budget, plus what a loaded machine adds to forking the child and killing it (a fresh-clone run
    # beside a load test, load 10 on 2 cores, read 3.9 s); an endless trace without the budget never returns
    assert trials.BUDGET_S - 0.2 < took < trials.BUDGET_S + 4.0, took
    assert TRACES not in block and GUESS in block, block


def test_a_forged_reply_picks_only_among_our_candidates():
    read_end, write_end = os.pipe()
    os.write(write_end, b"0+\n1-\n7+\n2+\nsecret text\n")
    os.close(write_end)
    try:
        assert trials._collect(read_end, 3) == {0: True, 1: False}   # stops at the first bad line
    finally:
        os.close(read_end)


def test_no_trial_runs_for_a_rule_without_one(monkeypatch):
    forks = []
    monkeypatch.setattr(os, "fork", lambda: forks.append(1) or (_ for _ in ()).throw(OSError()))
    _explained(lambda: jax.random.normal(3, (2,)))          # a rule with no trial (a seed for a key)
    assert forks == []


@pytest.mark.parametrize("text,ok", [("jax.vmap(f)", True), ("lambda x: x", True), ("(y := 3)", False),
                                     ("x[", False)])
def test_which_expressions_a_trial_may_evaluate(text, ok):
    from autograder.checks.trial_plans import evaluable
    assert evaluable(text) is ok
