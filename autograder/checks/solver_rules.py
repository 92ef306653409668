"""`jax.scipy.optimize.minimize` given what it does not take, read from the line that calls it: its BFGS
works on one flat vector of parameters (`x0` of shape (n,)) and multiplies it by an n x n matrix, so an
`x0` with more than one axis fails inside JAX's linear algebra (a contraction that does not line up),
and a pytree of parameters fails when it is made one array (NumPy's "inhomogeneous shape").

Neither message names `x0`, and whether it has more axes or is a pytree is not in the message, so the
fix (flatten it, rebuild inside the objective) is offered as a guess, on the student's own names.
Part of `api_rules.API_RULES`.
"""
from __future__ import annotations

import ast
import re

from .rule_facts import Facts, Rule
from .trial_texts import guess

_RAGGED_X0 = r"setting an array element with a sequence|inhomogeneous shape"


def _minimize(f: Facts):
    """(objective as an `ast` node, x0 as text) of a `jax.scipy.optimize.minimize(fun, x0, ...)` call on the line."""
    if not f.calls("jax.scipy.optimize.minimize", "minimize", "optimize.minimize"):
        return None
    for node in ast.walk(f.parsed):
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("minimize") and len(node.args) >= 2:
            return node.args[0], ast.unparse(node.args[1])
    return None


def _objective_on(fun, wrap: str) -> str:
    """The objective called on `wrap` of its flat argument: a lambda's own parameter wrapped in its body."""
    if isinstance(fun, ast.Lambda) and len(fun.args.args) == 1:
        p = fun.args.args[0].arg
        return f"lambda {p}: " + re.sub(rf"(?<![.\w]){p}\b", wrap.format(p), ast.unparse(fun.body))
    return f"lambda v: {ast.unparse(fun)}({wrap.format('v')})"


def _minimize_fix(f: Facts) -> str:
    fun, x0 = _minimize(f)
    if f.says(_RAGGED_X0):
        return guess(f"if `{x0}` is a pytree (a tuple or dict of arrays), minimize over one flat vector: "
                     f"`flat, unravel = jax.flatten_util.ravel_pytree({x0})`, then "
                     f"`minimize({_objective_on(fun, 'unravel({})')}, flat, ...)`, and `unravel(result.x)` "
                     f"rebuilds the tree")
    return guess(f"if `{x0}` has more than one axis, pass it flat and reshape inside the objective: "
                 f"`minimize({_objective_on(fun, '{}.reshape(' + x0 + '.shape)')}, {x0}.ravel(), ...)`, then "
                 f"reshape the result's `.x` back with `.reshape({x0}.shape)`")


SOLVER_RULES: list[Rule] = [
    Rule("minimize-flat-x0", lambda f: bool(_minimize(f)) and f.is_("TypeError", "ValueError")
         and f.says(r"dot_general|[Ii]ncompatible shapes|broadcast|rank|dimension|" + _RAGGED_X0),
         "`jax.scipy.optimize.minimize` works on one flat vector of parameters (its BFGS multiplies `x0` by an "
         "n x n matrix): an `x0` with more than one axis, or a pytree of them, does not line up",
         _minimize_fix),
]
