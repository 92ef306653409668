"""How a jitted function was called, and what changed between two calls: plain data for the
diagnosis of a failing jit (`facts.describe_exception`) and of a retrace (`rules.explain_retrace`)."""
from __future__ import annotations

import inspect
import linecache
import os

import jax
from jax import tree_util

from .text import OBJECT_ADDRESS
from .tracing import _jit_source, _target, is_jitted

# ---------------------------------------------------------------- how a function was called
def _value_kind(value) -> str:
    """How an argument was passed, in words the diagnosis rules use."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if value is None:
        return "none"
    dtype = getattr(value, "dtype", None)
    if dtype is not None and hasattr(value, "shape"):
        try:
            if jax.dtypes.issubdtype(dtype, jax.dtypes.prng_key):
                return "key"
        except TypeError:
            pass
        return "array"
    if isinstance(value, (list, tuple, dict)):
        return "pytree"
    if callable(value):
        return "callable"
    return "object"


def _signature_line(target) -> dict | None:
    """The `def` line of a Python function (past its decorators), as a `where` entry."""
    code = getattr(target, "__code__", None)
    if code is None:
        return None
    for lineno in range(code.co_firstlineno, code.co_firstlineno + 12):
        line = linecache.getline(code.co_filename, lineno).strip()
        if line.startswith(("def ", "async def ")):
            return {"file": os.path.basename(code.co_filename), "line": lineno, "code": line,
                    "function": code.co_name, "path": code.co_filename}
    return None


def _static_of(fn, static_argnums, static_argnames):
    """The static argument numbers and names jit really uses (the student's own, if jitted)."""
    _, nums, names = _jit_source(fn, static_argnums, static_argnames)
    return set(nums), set(names)


def _parameter_names(fn, count) -> list[str]:
    target = _target(fn)
    try:
        params = [p.name for p in inspect.signature(target).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    return [params[i] if i < len(params) else f"args[{i}]" for i in range(count)]


def call_context(fn, args, kwargs=None, static_argnums=(), static_argnames=()) -> dict:
    """Plain data about a jitted call: the function, and how each argument was passed.

    `diagnose` uses it to tell a size argument passed as a Python int (make it static) from one
    passed as an array (it must stay traced), and to name the argument in the fix."""
    nums, names = _static_of(fn, static_argnums, static_argnames)
    target = _target(fn)
    out = {"function": getattr(target, "__name__", "f"), "student_jit": is_jitted(fn), "args": {},
           "static": [], "signature": _signature_line(target)}
    for i, (name, value) in enumerate(zip(_parameter_names(fn, len(args)), args)):
        static = i in nums or name in names
        out["args"][name] = {"kind": "static" if static else _value_kind(value)}
        if static:
            out["static"].append(name)
    for name, value in (kwargs or {}).items():
        static = name in names
        out["args"][name] = {"kind": "static" if static else _value_kind(value)}
        if static:
            out["static"].append(name)
    return out


# ---------------------------------------------------------------- what changed between calls
def _short(value, limit=60) -> str:
    try:
        text = OBJECT_ADDRESS.sub("", repr(value))
    except Exception:  # a student object whose repr fails
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _tree_text(value) -> str:
    """A short description of a pytree's top level: `None`, `f32[3]`, `dict with keys ['a']`."""
    if value is None:
        return "None"
    if isinstance(value, dict):
        return f"a dict with keys {sorted(map(str, value))}"
    if isinstance(value, (list, tuple)):
        return f"a {type(value).__name__} of {len(value)}"
    try:
        return jax.typeof(value).str_short(short_dtypes=True)
    except Exception:
        return type(value).__name__


def _aval(leaf):
    try:
        aval = jax.typeof(leaf)
        return aval.str_short(short_dtypes=True), str(aval.dtype), tuple(aval.shape), bool(aval.weak_type)
    except Exception:
        return type(leaf).__name__, "", (), False


def _arg_signature(value, static):
    if static:
        return {"static": True, "value": value}
    leaves, treedef = tree_util.tree_flatten_with_path(value)
    return {"static": False, "value": value, "treedef": treedef,
            "leaves": [(tree_util.keystr(path), _aval(leaf)) for path, leaf in leaves]}


def _first_treedef_difference(a, b, a_value, b_value, path=""):
    """Walk two treedefs together: ('structure' | 'metadata', path, before, now) or None."""
    a_data, b_data = a.node_data(), b.node_data()
    a_kids, b_kids = a.children(), b.children()
    a_type = a_data[0] if a_data else None
    b_type = b_data[0] if b_data else None
    if a_type is not b_type or len(a_kids) != len(b_kids):
        return "structure", path, _tree_text(a_value), _tree_text(b_value)
    if a_data and a_data[1] != b_data[1]:
        builtin = a_type in (dict, list, tuple, type(None)) or (
            isinstance(a_type, type) and issubclass(a_type, tuple))
        if builtin:
            return "structure", path, _tree_text(a_value), _tree_text(b_value)
        return "metadata", path, _short(a_data[1]), _short(b_data[1])
    for i, (ka, kb) in enumerate(zip(a_kids, b_kids)):
        found = _first_treedef_difference(ka, kb, None, None, path)
        if found:
            kind, sub, before, now = found
            if kind == "structure" and before == "None" == now:   # no values below the top
                before, now = str(ka), str(kb)
            return kind, sub, before, now
    return None


def _static_difference(name, a, b):
    if a is b:
        return None
    try:
        if a == b and hash(a) == hash(b):
            return None
    except Exception:
        pass
    same_type = type(a) is type(b)
    change = {"arg": name, "before": _short(a), "now": _short(b)}
    if same_type and callable(a) and not isinstance(a, type):
        return {**change, "kind": "static_identity", "callable": True, "type": type(b).__name__,
                "now": f"a new `{type(b).__name__}`" if isinstance(b, type(lambda: 0)) else _short(b)}
    if same_type and (type(a).__eq__ is object.__eq__ or _short(a) == _short(b)):
        return {**change, "kind": "static_identity", "type": type(b).__name__,
                "before": f"a `{type(a).__name__}` object", "now": f"a new `{type(b).__name__}` object"}
    return {**change, "kind": "static_value"}


def _differences(name, a, b) -> list[dict]:
    if a["static"] or b["static"]:
        found = _static_difference(name, a["value"], b["value"])
        return [found] if found else []
    if a["treedef"] != b["treedef"]:
        found = _first_treedef_difference(a["treedef"], b["treedef"], a["value"], b["value"])
        kind, path, before, now = found or ("structure", "", str(a["treedef"]), str(b["treedef"]))
        return [{"kind": kind, "arg": name + path, "before": before, "now": now}]
    out = []
    for (path, (a_text, a_dtype, a_shape, a_weak)), (_, (b_text, b_dtype, b_shape, b_weak)) in zip(
            a["leaves"], b["leaves"]):
        where = name + path
        if a_shape != b_shape:
            out.append({"kind": "shape", "arg": where, "before": a_text, "now": b_text})
        elif a_dtype != b_dtype:
            out.append({"kind": "dtype", "arg": where, "before": a_text, "now": b_text,
                        "before_dtype": a_dtype})
        elif a_weak != b_weak:
            typed = b_dtype if a_weak else a_dtype
            out.append({"kind": "weak_type", "arg": where,
                        "before": a_text + (" (Python scalar)" if a_weak else " (typed)"),
                        "now": b_text + (" (Python scalar)" if b_weak else " (typed)"),
                        "before_dtype": typed})
    return out


def _retrace_change(signatures, names, i) -> dict | None:
    """The argument change that best explains why call `i` traced again: the earlier call it
    differs from least (JAX's own 'closest previous key'), and the first difference there."""
    best = None
    for j in reversed(range(i)):
        diffs = [d for k, name in enumerate(names)
                 for d in _differences(name, signatures[j][k], signatures[i][k])]
        if diffs and (best is None or len(diffs) < len(best[1])):
            best = (j, diffs)
    if best is None:
        return None
    j, diffs = best
    return {**diffs[0], "call": i, "compared_with": j, "others": len(diffs) - 1}


