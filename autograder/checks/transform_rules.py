"""Errors that a rule written for jit, or a generic rule, would misread, because the value came from
another transformation or JAX's own machinery called the student's code (issue 38, precision first):

- a value `jax.vmap` mapped (JAX's message says "BatchTracer"), used where a concrete Python value is
  needed (a shape, an `argnums`, a Python `int`), with nothing jitted: `static_argnums` cannot help,
  and vmap cannot map what sets a shape;
- a custom derivative rule (JAX's `custom_derivatives` called it) that uses its `primals` or
  `tangents` tuple as one array: the rule gets one tuple entry per argument of the function;
- a pytree's `tree_unflatten` (JAX's `tree_util` called it) that converts a child to a Python number:
  under grad, jit or vmap the children are tracers;
- keys split into a number the student computed (`n + 1`) and unpacked into fewer names: setting the
  count to the number of names would run and change what the code means, so the keys are kept and
  taken apart by position.

Each fix is a guess (`trial_texts.guess`): the usual way out for that situation, not tried on the
student's values, so a case it does not fit is told less, never told wrong.
"""
from __future__ import annotations

import ast

from .rule_facts import Facts, Rule
from .trial_texts import guess


def _mapped_not_jitted(f: Facts) -> bool:
    """A concrete value was needed from a value vmap mapped, and no jit is on the way. Only JAX's plain
    message: its subclasses (a Python `if`, an index) and a message naming the function that needed
    the value (`nonzero`'s size, `scan`'s length, `float`) have rules of their own."""
    plain = f.desc.get("type") == "ConcretizationTypeError" and not f.says(
        r"problem arose with|size argument|`length`|nonzero|argwhere|unique")
    needs_concrete = plain or (f.is_("TypeError") and f.says(r"Shapes must be 1D sequences of concrete values"))
    return (needs_concrete and f.says(r"\bBatchTracer\b") and not f.says(r"DynamicJaxprTracer")
            and "jit" not in (f.desc.get("transforms") or []) and not f.stmt.get("jitted_calls"))


def _mapped_name(f: Facts) -> str:
    names = f.stmt.get("tracers") or []
    return f"`{names[0]}`" if names else "the mapped value"


def _called_by(f: Facts, module: str) -> bool:
    return (f.desc.get("where") or {}).get("called_by_jax") == module


def _params(f: Facts) -> list[str]:
    return [p for p in (f.desc.get("where") or {}).get("params") or [] if p not in ("self", "cls")]


def _rule_tuple_fix(f: Facts) -> str:
    params = _params(f)[-2:] or ["primals", "tangents"]
    unpack = " and ".join(f"`({'x' if i == 0 else 't'},) = {p}`" for i, p in enumerate(params))
    return guess(f"unpack them first, one entry per argument of the function: {unpack} "
                 f"(or `{params[0]}[0]`), then compute with the arrays")


def _split_kept(f: Facts) -> tuple[list[str], str, str] | None:
    """(names, the split call, its computed count) for `a, b = jax.random.split(key, n + 1)` that raised
    an unpacking error; None otherwise."""
    if not f.says(r"(not enough|too many) values to unpack"):
        return None
    try:
        stmt = ast.parse(f.code.strip()).body[0]
    except (SyntaxError, IndexError):
        return None
    if not (isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Tuple)
            and all(isinstance(t, ast.Name) for t in stmt.targets[0].elts) and isinstance(stmt.value, ast.Call)):
        return None
    call = stmt.value
    if not ast.unparse(call.func).endswith(("random.split", "jr.split")) or len(call.args) != 2 \
            or isinstance(call.args[1], ast.Constant):
        return None
    return [t.id for t in stmt.targets[0].elts], ast.unparse(call), ast.unparse(call.args[1])


def _split_fix(f: Facts) -> str:
    names, call, _ = _split_kept(f)
    parts = [f"keys[{i}]" for i in range(len(names) - 1)] + [f"keys[{len(names) - 1}:]"]
    return guess(f"keep that many keys and take them apart by position: `keys = {call}`, then "
                 f"`{', '.join(names)} = {', '.join(parts)}` (the last name gets the rest)")


TRANSFORM_RULES: list[Rule] = [
    Rule("mapped-value-concrete", _mapped_not_jitted,
         lambda f: (f"`jax.vmap` maps array values: inside the mapped function {_mapped_name(f)} is one element "
                    f"of a batch, and it is used where a concrete value is needed (a shape, an `argnums`, a "
                    f"Python `int`); nothing is jitted here, so `static_argnums` would not help"),
         lambda f: guess("if the value is the same for every example (an axis, a count, a mode), do not map "
                         "it: close over it as a Python value (`jax.vmap(lambda x: fn(x, value))(xs)`); if it "
                         "differs, loop over these values in Python instead of mapping them "
                         "(`jnp.stack([fn(v) for v in values])`), or, where they set a shape, pad every "
                         "element to the largest shape and mask the padding")),
    Rule("custom-rule-tuple", lambda f: _called_by(f, "custom_derivatives")
         and f.says(r"got <class '(tuple|list)'>"),
         lambda f: (f"`{f.fn}` is a custom derivative rule, and JAX calls it with tuples: "
                    f"{' and '.join(f'`{p}`' for p in _params(f)[-2:]) or 'its arguments'} hold one entry per "
                    f"argument of the function, even when it has only one"),
         _rule_tuple_fix),
    Rule("unflatten-concrete", lambda f: _called_by(f, "tree_util") and f.is_("ConcretizationTypeError"),
         lambda f: (f"`{f.fn}` runs on whatever JAX puts in the tree's leaves: under grad, jit or vmap those "
                    f"are tracers, so a child cannot be made a Python number there"),
         lambda f: guess("pass the children through unchanged (`return cls(*children)`) and convert where the "
                         "values are used, outside the transformation")),
    Rule("split-count-kept", lambda f: _split_kept(f) is not None,
         lambda f: (f"`{_split_kept(f)[1]}` gives `{_split_kept(f)[2]}` keys, and the line unpacks them into "
                    f"{len(_split_kept(f)[0])} names"),
         _split_fix),
]
