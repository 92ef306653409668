"""What a call on the failing line binds, read with `ast` and the frame's names (for `facts.py`):

- `partials`: `functools.partial(step, decay=rate)` written on the line, or held by a name the line
  passes, its keywords and the parameters of `step`, in order (read from the function's code object:
  nothing of the student's runs);
- `vmapped_keywords`: a function made by `jax.vmap` called with keyword arguments
  (`warp(images, coords, order=1)`, `jax.vmap(f)(x, scale=2.0)`), the mapped function's parameters,
  which keyword arguments and which positional ones may be scalars;
- `trees_with_functions`: the trees given to `jax.tree.map` that hold a function among their leaves;
  `containers_with_functions` and `function_arguments`: the names a call of the line is given that
  hold a function in a dict, list or tuple, or are one; `own_custom_vjps`: those that are a
  `jax.custom_vjp` around a Python function;
- `python_predicates`: the predicate of a `lax.cond` on the line where it is a Python bool or int (a
  literal, a name holding one, or a test of shapes, `x.shape[0] >= 3`, `len(xs) > 1`, `x.ndim == 2`,
  computed here from JAX's and NumPy's own arrays, whose shapes are known while tracing): known before
  any tracing;
- `string_arguments`: the arguments of a call of the line that are or hold a Python string;
  `int_dict_entries`: the keys of a dict written in a call whose values are integers (a setting among
  parameters); `scan_xs_shapes`: the shapes of the arrays of a `lax.scan`'s `xs` written as a tuple
  (`a.T` read as `a`'s shape reversed), where the frame holds them.
"""
from __future__ import annotations

import ast
import functools
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


_COMPARE = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
            ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}
_ARITHMETIC = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
               ast.FloorDiv: lambda a, b: a // b if b else None, ast.Mod: lambda a, b: a % b if b else None}


def _own_array(value) -> bool:
    """An array whose shape JAX or NumPy keeps (reading it runs nothing of the student's)."""
    module = (getattr(type(value), "__module__", "") or "").split(".")[0]
    return (type(value) is not type and module in ("numpy", "jax", "jaxlib")
            and type(getattr(type(value), "shape", None)).__name__ in ("property", "getset_descriptor"))


def _static_value(node, lookup, depth: int = 0):
    """The value of a test of shapes and Python numbers (`x.shape[0] >= 3`, `len(xs) == 2`, `x.ndim > 1`),
    or None where any part of it is not known before tracing (a value, a call of the student's)."""
    if depth > 12:
        return None
    if isinstance(node, ast.Constant) and type(node.value) in (int, bool):
        return node.value
    if isinstance(node, ast.Name):
        value, found = lookup(node.id)
        return value if found and type(value) in (int, bool) else None
    if isinstance(node, ast.Attribute) and node.attr in ("shape", "ndim") and isinstance(node.value, ast.Name):
        value, found = lookup(node.value.id)
        return getattr(value, node.attr) if found and _own_array(value) else None
    if isinstance(node, ast.Subscript) and isinstance(node.slice, (ast.Constant, ast.UnaryOp)):
        whole, index = _static_value(node.value, lookup, depth + 1), _static_value(node.slice, lookup, depth + 1)
        ok = type(whole) is tuple and type(index) is int and -len(whole) <= index < len(whole)
        return whole[index] if ok else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not)):
        inner = _static_value(node.operand, lookup, depth + 1)
        return None if inner is None else (-inner if isinstance(node.op, ast.USub) else not inner)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and \
            len(node.args) == 1 and isinstance(node.args[0], ast.Name):
        value, found = lookup(node.args[0].id)
        if found and (type(value) in (list, tuple) or _own_array(value) and getattr(value, "ndim", 0)):
            return len(value) if type(value) in (list, tuple) else value.shape[0]
        return None
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        a, b = _static_value(node.left, lookup, depth + 1), _static_value(node.right, lookup, depth + 1)
        return _ARITHMETIC[type(node.op)](a, b) if type(a) is int and type(b) is int else None
    if isinstance(node, ast.Compare) and all(type(op) in _COMPARE for op in node.ops):
        values = [_static_value(n, lookup, depth + 1) for n in (node.left, *node.comparators)]
        if any(type(v) not in (int, bool) for v in values):
            return None
        return all(_COMPARE[type(op)](a, b) for op, a, b in zip(node.ops, values, values[1:]))
    if isinstance(node, ast.BoolOp):
        values = [_static_value(n, lookup, depth + 1) for n in node.values]
        if any(type(v) not in (int, bool) for v in values):
            return None
        return all(values) if isinstance(node.op, ast.And) else any(values)
    return None


def _bound_partial(name: str, value) -> dict | None:
    """A `functools.partial` object a name of the line holds (made on an earlier line)."""
    if type(value) is not functools.partial or not value.keywords:
        return None
    fn = getattr(value.func, "__name__", "f")
    return {"fn": fn, "text": f"{name}` (`functools.partial({fn}, ...)`", "made_elsewhere": name,
            "positional": ["..."] * len(value.args), "keywords": {k: "..." for k in value.keywords},
            "params": _parameters(value.func)}


def _holds_function(value, depth: int = 0) -> bool:
    """Whether plain containers (dicts, lists, tuples: nothing of the student's is called) hold a
    function among their entries."""
    if depth > 4:
        return False
    if type(value) in (dict, list, tuple):
        return any(_holds_function(v, depth + 1) for v in (value.values() if type(value) is dict else value))
    return depth > 0 and _is_function(value)


# The positions where JAX's higher-order functions take a function (a body, a branch, the function to
# transform): a function there is no mistake.
_FUNCTION_SLOTS = {"scan": {0}, "fori_loop": {2}, "while_loop": {0, 1}, "cond": {1, 2}, "switch": {1}, "map": {0},
                   "partial": {0}, "vmap": {0}, "grad": {0}, "value_and_grad": {0}, "jit": {0}, "jacfwd": {0},
                   "jacrev": {0}, "hessian": {0}, "checkpoint": {0}, "remat": {0}, "custom_jvp": {0},
                   "custom_vjp": {0}, "odeint": {0}, "pure_callback": {0}, "eval_shape": {0}, "jvp": {0},
                   "vjp": {0}, "linearize": {0}, "associative_scan": {0}, "reduce": {2}}


def _is_own_custom_vjp(value) -> bool:
    """A `jax.custom_vjp` object around a plain Python function (one the student wrote)."""
    return type(value).__name__ == "custom_vjp" and (type(value).__module__ or "").startswith("jax") \
        and isinstance(getattr(value, "fun", None), types.FunctionType)


def _is_function(value) -> bool:
    return isinstance(value, (types.FunctionType, types.BuiltinFunctionType, functools.partial)) \
        or type(value).__name__ in ("PjitFunction", "custom_jvp", "custom_vjp")


def _holds_string(value, depth: int = 0) -> bool:
    """A str, or a plain list, tuple or dict holding one (exact types: nothing of the student's runs)."""
    if type(value) is str:
        return True
    if depth < 2 and type(value) in (list, tuple, dict):
        items = list(dict.values(value) if type(value) is dict else value)[:50]
        return any(_holds_string(v, depth + 1) for v in items)
    return False


def _is_integer(value) -> bool:
    return type(value) is int or (_own_array(value) and value.dtype.kind in ("i", "u"))


def _shape_of(node, lookup):
    """The shape of `name` or `name.T` where the frame holds an array there (its `shape` attribute read
    only from JAX's and NumPy's own arrays), else None."""
    flip = isinstance(node, ast.Attribute) and node.attr == "T"
    base = node.value if flip else node
    value = lookup(base.id)[0] if isinstance(base, ast.Name) else None
    if value is None or not _own_array(value):
        return None
    shape = tuple(int(d) for d in value.shape)
    return shape[::-1] if flip else shape


def about(node: ast.Call, name: str, lookup) -> dict:
    """Facts of one call (`name` its dotted name; `lookup(name)` -> (value, found) in the frame)."""
    out: dict = {"partials": [], "vmapped_keywords": [], "trees_with_functions": [], "containers_with_functions": [],
                 "function_arguments": [], "own_custom_vjps": []}
    slots = () if isinstance(node.func, ast.Call) else _FUNCTION_SLOTS.get(name.split(".")[-1], ())
    names = [a.id for i, a in enumerate(node.args) if isinstance(a, ast.Name) and i not in slots]
    out["containers_with_functions"] = [n for n in names if _holds_function(lookup(n)[0])]
    out["function_arguments"] = [n for n in names if _is_function(lookup(n)[0])]
    out["own_custom_vjps"] = [n for n in [a.id for a in node.args if isinstance(a, ast.Name)]
                              if _is_own_custom_vjp(lookup(n)[0])]
    if name.split(".")[-1] in ("map", "tree_map") and "tree" in name:       # `jax.tree.map(f, model)`
        out["trees_with_functions"] = [a.id for a in node.args[1:]
                                       if isinstance(a, ast.Name) and _holds_function(lookup(a.id)[0])]
    if name.split(".")[-1] == "partial" and len(node.args) >= 1 and node.keywords:
        fn = node.args[0]
        value, found = lookup(fn.id) if isinstance(fn, ast.Name) else (None, False)
        out["partials"].append({"fn": ast.unparse(fn), "text": ast.unparse(node),
                                "positional": [ast.unparse(a) for a in node.args[1:]],
                                "keywords": {k.arg: ast.unparse(k.value) for k in node.keywords if k.arg},
                                "params": _parameters(value) if found else []})
    for arg in node.args:                       # `lax.scan(body, ...)` with `body = functools.partial(...)`
        if isinstance(arg, ast.Name):
            held = _bound_partial(arg.id, lookup(arg.id)[0])
            if held:
                out["partials"].append(held)
    if isinstance(node.func, ast.Name):         # `masked(x, m)`, `masked` a custom rule with nondiff_argnums
        rule = lookup(node.func.id)[0]
        if type(rule).__name__ in ("custom_jvp", "custom_vjp") and type(rule).__module__.startswith("jax") \
                and getattr(rule, "nondiff_argnums", ()):
            out["nondiff_rules"] = [{"name": node.func.id, "kind": type(rule).__name__,
                                     "nondiff_argnums": [int(i) for i in rule.nondiff_argnums]}]
    wrapped, params = "", []
    if isinstance(node.func, ast.Name) and node.keywords:
        value, found = lookup(node.func.id)
        if found and _is_vmapped(value):
            wrapped, params = value.__wrapped__.__name__, _parameters(value.__wrapped__)
    elif isinstance(node.func, ast.Call) and node.keywords and node.func.args and \
            ast.unparse(node.func.func).split(".")[-1] == "vmap":       # `jax.vmap(f, ...)(x, scale=2.0)`
        mapped = node.func.args[0]
        wrapped = ast.unparse(mapped)
        if isinstance(mapped, ast.Name):
            params = _parameters(lookup(mapped.id)[0])
        elif isinstance(mapped, ast.Lambda):
            params = [a.arg for a in mapped.args.posonlyargs + mapped.args.args]
    if wrapped:
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        out["vmapped_keywords"].append({
            "fn": ast.unparse(node.func), "wrapped": wrapped, "written": isinstance(node.func, ast.Call),
            "options": [ast.unparse(k) for k in node.func.keywords] if isinstance(node.func, ast.Call) else [],
            "args": [ast.unparse(a) for a in node.args], "params": params,
            "keywords": {k: ast.unparse(v) for k, v in keywords.items()},
            "scalar_keywords": [k for k, v in keywords.items() if _is_scalar(v, lookup) is not False],
            "scalar_positional": [ast.unparse(a) for a in node.args if _is_scalar(a, lookup) is not False]})
    out["string_arguments"] = [ast.unparse(a) for a in [*node.args, *(k.value for k in node.keywords)]
                               if (isinstance(a, ast.Constant) and isinstance(a.value, str))
                               or (isinstance(a, ast.Name) and _holds_string(lookup(a.id)[0]))]
    out["int_dict_entries"] = [ast.literal_eval(k) for d in node.args if isinstance(d, ast.Dict)
                               for k, v in zip(d.keys, d.values) if isinstance(k, ast.Constant)
                               and isinstance(v, ast.Name) and _is_integer(lookup(v.id)[0])]
    if name.split(".")[-1] == "scan" and len(node.args) > 2 and isinstance(node.args[2], (ast.Tuple, ast.List)):
        out["scan_xs_shapes"] = [[ast.unparse(e), _shape_of(e, lookup)] for e in node.args[2].elts]
    if name.split(".")[-1] == "cond" and node.args:     # `lax.cond(flag, ...)` with `flag` a Python bool
        pred = node.args[0]
        if type(_static_value(pred, lookup)) in (bool, int):
            out["python_predicates"] = [ast.unparse(pred)]
    return {k: v for k, v in out.items() if v}
