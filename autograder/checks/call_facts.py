"""What a call on the failing line binds, read with `ast` and the frame's names (for `facts.py`):

- `partials`: `functools.partial(step, decay=rate)`, its keywords and the parameters of `step`, in order
  (read from the function's code object: nothing of the student's runs);
- `vmapped_keywords`: a function made by `jax.vmap` called with keyword arguments
  (`warp(images, coords, order=1)`), which of those are scalars, and whether a positional one is.
"""
from __future__ import annotations

import ast
import types


def _parameters(value) -> list[str]:
    """The positional parameters of a plain Python function, in order ([] for anything else)."""
    if not isinstance(value, types.FunctionType):
        return []
    code = value.__code__
    return list(code.co_varnames[:code.co_posonlyargcount + code.co_argcount])


def _is_vmapped(value) -> bool:
    """A function `jax.vmap` returned: JAX writes its docstring and keeps the function it maps."""
    return isinstance(value, types.FunctionType) and isinstance(getattr(value, "__wrapped__", None), types.FunctionType) \
        and (value.__doc__ or "").startswith("Vectorized version of")


def _is_scalar(node, lookup) -> bool | None:
    """Whether an argument is a number or a 0-d array (None when it cannot be told)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float, complex, bool))
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return isinstance(node.operand.value, (int, float))
    if isinstance(node, ast.Name):
        value, found = lookup(node.id)
        if not found:
            return None
        if type(value) in (int, float, complex, bool):
            return True
        module = getattr(type(value), "__module__", "") or ""
        if module.startswith(("numpy", "jax", "jaxlib")) and "Tracer" not in type(value).__name__:
            ndim = getattr(value, "ndim", None)
            return ndim == 0 if isinstance(ndim, int) else None
        return False if isinstance(value, (list, tuple, dict, str)) else None
    return None


def about(node: ast.Call, name: str, lookup) -> dict:
    """Facts of one call (`name` its dotted name; `lookup(name)` -> (value, found) in the frame)."""
    out: dict = {}
    if name.split(".")[-1] == "partial" and len(node.args) >= 1 and node.keywords:
        fn = node.args[0]
        value, found = lookup(fn.id) if isinstance(fn, ast.Name) else (None, False)
        out["partials"] = [{"fn": ast.unparse(fn), "text": ast.unparse(node),
                            "positional": [ast.unparse(a) for a in node.args[1:]],
                            "keywords": {k.arg: ast.unparse(k.value) for k in node.keywords if k.arg},
                            "params": _parameters(value) if found else []}]
    if isinstance(node.func, ast.Name) and node.keywords:
        value, found = lookup(node.func.id)
        if found and _is_vmapped(value):
            keywords = {k.arg: k.value for k in node.keywords if k.arg}
            out["vmapped_keywords"] = [{
                "fn": node.func.id, "wrapped": value.__wrapped__.__name__,
                "args": [ast.unparse(a) for a in node.args],
                "keywords": {k: ast.unparse(v) for k, v in keywords.items()},
                "scalar_keywords": [k for k, v in keywords.items() if _is_scalar(v, lookup)],
                "scalar_positional": [ast.unparse(a) for a in node.args if _is_scalar(a, lookup) is not False]}]
    return out
