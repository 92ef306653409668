"""The rule tables: a described exception, or a change between calls, to a cause and a fix.

`explain` works on the plain data of `facts.describe_exception` only. It walks `RULES`, one ordered table: the
first rule whose `when` holds gives the cause and the fix. Specific rules come before general ones (an `assert`
before an `if`, `TracerBoolConversionError` before its parent `ConcretizationTypeError`).
`explain_retrace` does the same for the argument changes `evidence.count_traces` finds (`RETRACE_RULES`).
A fix says what to change in the student's terms (their argument, their list), never a course answer.
"""
from __future__ import annotations

import re
from typing import Callable

from .facts import _ARRAY_MODULES
from .rule_facts import Facts, Rule, float_shape as _float_shape, true_division as _true_division  # noqa: F401
from .trial_texts import GUESS, guess, kind_cause, kind_fix
from .api_rules import API_RULES, DATA_SIZE as _DATA_SIZE
from .convention_rules import CONVENTION_RULES
from .stated_rules import STATED_RULES
from .fallback_rules import FALLBACK_RULES, argmax_too as _argmax_too
from .habit_rules import (HABIT_RULES, LINE_HABIT_RULES, if_cause as _if_cause, if_fix as _if_fix,
                          numpy_call_fix as _numpy_call_fix, float_item_fix as _float_item_fix)
from .misuse_rules import MISUSE_RULES
from .operand_rules import OPERAND_RULES
from .transform_rules import TRANSFORM_RULES, VARYING_RULES
from .usage_rules import USAGE_RULES
from .value_rules import VALUE_RULES
from .wiring_rules import BRANCH_RULES, WIRING_RULES

# ---------------------------------------------------------------- the rule table
def _static_fix(f: Facts, what="it sets a size") -> str:
    """Static only works for a hashable Python value: for an array argument (data, a key) it is a guess."""
    text = f"if {what}, make it static: `jax.jit({f.fn}, static_argnames='{f.arg}')`"
    return text if f.arg_is_python_scalar else guess(text)


_SIZE_ERRORS = (r"Shapes must be 1D sequences|concrete value|abstract tracer|not hashable|"
                r"must be static|static (value|integer)|argument `?num_classes|'num' argument|pad_width")
_SIZE_CALLS = ("jnp.zeros", "jnp.ones", "jnp.full", "jnp.empty", "jnp.arange", "jnp.linspace", "jnp.eye",
               "jnp.tile", "jnp.repeat", "jnp.pad", "jnp.split", "jnp.reshape", ".reshape", "jax.nn.one_hot",
               "jax.random.", "lax.dynamic_slice", "jnp.broadcast_to", "lax.top_k", "jnp.identity")


# JAX's own errors about a traced value; each has rules of its own, so the generic TypeError
# rules (which match on JAX's text) must not take them.
_TRACER_ERRORS = ("ConcretizationTypeError", "TracerArrayConversionError", "TracerIntegerConversionError",
                  "TracerBoolConversionError", "NonConcreteBooleanIndexError")


def _is_size_error(f: Facts) -> bool:
    if f.is_("TracerIntegerConversionError", "NonConcreteBooleanIndexError", "TracerArrayConversionError"):
        return False                       # their own rules (NumPy on a tracer: even next to a size call)
    if f.is_("TracerBoolConversionError"):   # a truth asked by a statement or an `a if t else b`: a branch
        return bool(f.calls(*_SIZE_CALLS)) and f.kind not in ("if", "while", "assert") and not f.stmt.get("if_tests")
    return (f.is_("ConcretizationTypeError") or (f.is_("TypeError") and f.says(_SIZE_ERRORS))) \
        and (bool(f.calls(*_SIZE_CALLS)) or f.says(r"Shapes must be 1D|not hashable|num_classes|pad_width|'num'"))


def _size_user(f: Facts) -> str:
    sized = f.calls(*_SIZE_CALLS)
    return f"`{sized[0]}`" if sized else "a shape"


def _shape_math_origin(f: Facts) -> str:
    for o in f.desc.get("origin", []):
        arrays = [c for c in o.get("calls", []) if c.startswith(_ARRAY_MODULES)]
        if arrays:
            return f"`{arrays[0]}` on line {o['line']}"
    arrays = [c for c in f.stmt.get("calls", []) if c.startswith(_ARRAY_MODULES)]
    if f.stmt.get("jitted_calls"):
        return f"the jitted `{f.stmt['jitted_calls'][0]}`"
    return f"`{arrays[0]}`" if arrays else "a `jnp` call"


def _jnp_shape(f: Facts) -> str:
    """The name made a `jnp` array on the line (`jnp.array(s)`) when the traced value came from that
    conversion (the origin JAX reports calls it) and a size call uses it; '' otherwise."""
    m = re.search(r"jnp\.(?:array|asarray)\(\s*([\w.]+)\s*\)", f.code)
    converted = any(c in ("jnp.array", "jnp.asarray") for o in f.desc.get("origin", []) for c in o.get("calls", []))
    return m.group(1) if m and converted and _is_size_error(f) else ""


def _shape_math_fix(f: Facts) -> str:
    """A shape turned into a `jnp` array (`jnp.array(s)`) is traced under jit: keep it a tuple; other
    shape arithmetic with `jnp`: plain Python or NumPy."""
    if _jnp_shape(f):
        return (f"pass the shape as a Python tuple, `tuple({_jnp_shape(f)})`, instead of `jnp.array({_jnp_shape(f)})`: "
                f"a `jnp` array made inside a jitted function is traced, a tuple of ints stays static")
    return ("do shape arithmetic in plain Python or NumPy, which stays static: `x.size + 1`, `max(n, 2)`, "
            "`math.ceil(math.log2(n))`, `np.prod(x.shape)`; keep `jnp` for the array data")


def _comes_from_operations(f: Facts) -> bool:
    """The traced value came from `jnp` operations on constants or shapes, not from an argument."""
    if f.desc.get("traced_args"):
        return False
    if f.desc.get("from_operations"):
        return True
    return bool(f.stmt.get("int_around_array_call") or f.stmt.get("array_math_on_sizes")
                or f.stmt.get("jitted_calls"))


def _container_fix(f: Facts) -> str:
    s = f.subscript("list", "tuple", "dict", "ndarray")
    name = s["name"] if s else "values"
    index = (s["index"] if s else "i").replace("int(", "").rstrip(")") if s else "i"
    if s and s["callables"]:
        named = f"name the functions, `branches = {name}`, and " if s.get("literal") else ""
        name = "branches" if s.get("literal") else name
        return (f"{named}pick one with `lax.switch(jnp.clip({index}, 0, len({name}) - 1), {name}, ...)` "
                f"(it takes a traced index; `jnp.clip` keeps it in range)")
    if s and s["container"] == "dict":
        return (f"a traced value cannot be a dict key: put the values in an array and index it by "
                f"position: `jnp.asarray(list({name}.values()))[{index}]`")
    return f"index an array instead: `jnp.asarray({name})[{index}]` (a JAX array accepts a traced index)"


def _unhashable_fix(f: Facts) -> str:
    m = re.search(r"object of type <class '([\w.]+)'>", f.text)
    kind = m.group(1).rsplit(".", 1)[-1] if m else ""
    arg = _static_arg_name(f)
    if kind == "list":
        return f"static arguments must be hashable: pass a tuple (`tuple({arg})`) instead of a list"
    if "Tracer" in kind:
        return ("static arguments must be hashable concrete values: call with a plain Python number, "
                "not a value computed by `jnp` inside a jitted function")
    if kind in ("ndarray", "ArrayImpl", "Array"):
        return (f"static arguments must be hashable: make `{arg}` a traced argument (leave it out of "
                f"static_argnums), or pass a tuple of its values")
    if kind in ("dict", "set"):
        return f"static arguments must be hashable: pass a tuple of (key, value) pairs or a frozen dataclass"
    return (f"static arguments must be hashable: give the class value-based `__hash__`/`__eq__` "
            f"(`@dataclass(frozen=True)`), or pass a tuple of its values")


def _static_arg_name(f: Facts) -> str:
    m = re.search(r"argument \(index (\d+)\)", f.text)
    static = f.call.get("static") or []
    if static:
        return static[0]
    return f"argument {m.group(1)}" if m else "the static argument"


RULES: list[Rule] = [
    # ---- not JAX at all
    Rule("stub", lambda f: f.is_("NotImplementedError") and "NotImplementedError" in f.code,
         "the exercise is not implemented yet (the `raise NotImplementedError()` stub is still there)",
         "replace the stub with your solution"),
    Rule("numpy-at", lambda f: f.is_("AttributeError") and f.says(r"'numpy\.ndarray' object has no attribute 'at'"),
         "the input is a NumPy array here; `.at[...]` exists only on JAX arrays",
         lambda f: f"convert it first: `{_at_name(f)} = jnp.asarray({_at_name(f)})`, then "
                   f"`{_at_name(f)}.at[...].set(...)` returns a new array"),
    Rule("immutable", lambda f: f.is_("TypeError") and f.says(r"immutable|does not support item assignment"),
         "JAX arrays are immutable: `x[i] = v` cannot write into them",
         "build a new array instead: `x = x.at[i].set(v)`"),
    Rule("key-reuse", lambda f: f.is_("KeyReuseError"), "a PRNG key was used twice, so two 'independent' draws are identical",
         "split the key, `key, subkey = jax.random.split(key)`, and give each draw a fresh subkey, used once; if a "
         "draw is meant to repeat an earlier one, say so by giving it `jax.random.clone(key)`"),
    *STATED_RULES,         # what JAX's message or the line states outright (a static `length=`, `out_axes=`)
    *CONVENTION_RULES,     # conventions one message states exactly (a reduced SVD, a cotangent's containers)
    *LINE_HABIT_RULES,     # Python habits the student's line shows (a list searched by value), whatever JAX says
    *VALUE_RULES,          # values JAX cannot take as arrays (a dict in arithmetic), other libraries' names
    # ---- JAX's API outside jit: vmap, grad, loops, branches, pytrees, keys, custom rules, shapes
    *VARYING_RULES,        # shard_map: types that differ only in the mesh axes they vary over
    *API_RULES,            # removed names and calling conventions, each read from one message JAX words
    *TRANSFORM_RULES,      # what a jit or generic rule would misread: vmap's values, JAX calling a custom rule
    *OPERAND_RULES,        # specific messages first: a function inside an argument before a static one
    *WIRING_RULES,
    *MISUSE_RULES,         # `self` of a jitted method before unregistered classes
    *USAGE_RULES,
    *HABIT_RULES,          # habits from NumPy and PyTorch (a boolean mask too), each told by one message
    Rule("nondiff-tracer", lambda f: f.is_("UnexpectedTracerError")
         and (f.says(r"nondiff_argnums") or bool(f.stmt.get("nondiff_rules")) or "nondiff_argnums" in f.code),
         lambda f: (lambda r: f"a traced value (an array argument) was declared in `nondiff_argnums` of a custom "
                    f"derivative rule" + (f": `{r['name']}` (a `{r['kind']}`) declares argument(s) "
                                          f"{r['nondiff_argnums']} non-differentiable, and the line gives it traced "
                                          f"values" if r else ""))((f.stmt.get("nondiff_rules") or [None])[0]),
         lambda f: "remove the array from `nondiff_argnums` (only hashable, non-array values belong there) and keep "
                   "it a differentiable argument; " + (
                       "give it a tangent in the jvp rule (zeros: it is not differentiated)"
                       if (f.stmt.get("nondiff_rules") or [{}])[0].get("kind") == "custom_jvp" else
                       "return a zero (or `None`) cotangent for it from `bwd`")),
    Rule("leaked-tracer", lambda f: f.is_("UnexpectedTracerError"),
         lambda f: ("a traced value escaped its trace: "
                    + (f"`{f.desc['where']['function']}` stores it outside the function "
                       f"(line {f.desc['where']['line']}), and it is used after that trace ended"
                       if f.desc.get("where") else "it was stored in a global, a list or an object, then used later")),
         "keep the function pure: return it as an extra output (or pass it in as an argument) instead of storing it in "
         "a global or an object"),
    Rule("format-tracer", lambda f: f.is_("TypeError") and f.says(r"unsupported format string passed to \w*Tracer"),
         "formatting a traced value (`f'{loss:.3f}'`) needs its number, which does not exist while tracing",
         "return the value and format it outside the jitted function, or use "
         "`jax.debug.print('loss {l:.3f}', l=loss)`"),
    Rule("unhashable-static", lambda f: f.is_("ValueError") and f.says(r"[Nn]on-hashable static arguments"),
         lambda f: f"`{_static_arg_name(f)}` is a static argument, and jit hashes static arguments to "
                   f"look up compiled code; this value cannot be hashed",
         _unhashable_fix),
    # ---- control flow on traced values
    Rule("assert", lambda f: f.is_("ConcretizationTypeError", "TracerBoolConversionError") and f.kind == "assert",
         "`assert` on a traced value: its truth is unknown while tracing",
         "drop the `assert` (check the inputs before the transformation, on concrete values), or check values "
         "with `jax.experimental.checkify.check(pred, 'message')` inside a function wrapped by "
         "`checkify.checkify`; keep Python `assert` for shapes and static values"),
    Rule("while-loop", lambda f: f.is_("TracerBoolConversionError") and (f.kind == "while" or f.stmt.get("exits_loop")),
         lambda f: ("a Python `while` on a traced value: its truth is unknown while tracing"
                    if f.kind == "while" else
                    "a loop that stops early (`break`) on a traced value: the number of steps is unknown while tracing"),
         lambda f: "loop with `lax.while_loop(cond_fun, body_fun, init)`, which tests the condition at run time"
                   + ("; inside `cond_fun` combine conditions with `jnp.logical_and`/`jnp.logical_or` "
                      "(not `and`/`or`)" if f.stmt.get("bool_ops") else "")),
    Rule("and-or", lambda f: f.is_("TracerBoolConversionError") and f.stmt.get("bool_ops"),
         "Python `and`/`or`/`not` call `bool()` on a traced value, whose truth is unknown while tracing",
         "combine traced conditions with `jnp.logical_and`/`jnp.logical_or`/`jnp.logical_not` (or "
         "`&`, `|`, `~`), then branch with `jnp.where(cond, a, b)` or `lax.cond`"),
    Rule("bool-call", lambda f: f.is_("TracerBoolConversionError") and "bool" in f.stmt.get("calls", [])
         and f.kind not in ("if", "while", "assert") and not f.stmt.get("bool_ops"),
         "`bool()` of a traced value needs its truth, which is unknown while tracing",
         "keep it an array: drop `bool()` (a comparison already gives a boolean array; `.astype(bool)` "
         "sets the dtype), and turn it into a Python `bool` outside the jitted function"),
    Rule("static-control", lambda f: f.is_("TracerBoolConversionError") and not _is_size_error(f)
         and f.arg and f.arg_is_python_scalar,
         lambda f: f"`{f.arg}` is a jit argument, so it is traced, and a Python `{f.kind if f.kind in ('if', 'while') else 'if'}` "
                   f"on it needs its value",
         lambda f: _static_fix(f, "it picks the code path (a mode or a count)")
         + "; if it is data, branch with `jnp.where` or `lax.cond` instead"),
    Rule("if", lambda f: f.is_("TracerBoolConversionError") and not _is_size_error(f), _if_cause, _if_fix),
    # ---- a traced value used as a Python int: indexes and branch numbers
    Rule("container-index", lambda f: f.is_("TracerIntegerConversionError", "TracerArrayConversionError", "TypeError",
                                            "ConcretizationTypeError")
         and f.subscript("list", "tuple", "dict", "ndarray") is not None
         and (f.is_("TracerIntegerConversionError", "TracerArrayConversionError") or
              f.says(r"unhashable type: '\w*Tracer'|indices must be integers|problem arose with the `int`")),
         lambda f: (lambda s: f"a traced index into the Python {s['container'] if s['container'] != 'ndarray' else 'NumPy array'} "
                    f"`{s['name']}`: Python needs a concrete number to pick an item")(f.subscript("list", "tuple", "dict", "ndarray")),
         _container_fix),
    Rule("int-branch-index", lambda f: f.is_("ConcretizationTypeError") and f.says(r"problem arose with the `int`")
         and not _comes_from_operations(f)
         and (f.arg_is_python_scalar or f.arg in f.stmt.get("int_of_names", [])),  # not `int(x.sum())`
         lambda f: (f"`{f.arg}` is a jit argument, so it is traced, and `int()` needs a concrete number"
                    if f.arg else "`int()` needs a concrete number, but the value is traced"),
         lambda f: (_static_fix(f, "it picks a branch or sets a size") + "; to keep it traced, drop `int()` and "
                    if f.arg_is_python_scalar else f"keep `{f.arg}` an array (drop `int()`); ")
         + f"pick a branch with `lax.switch(jnp.clip({f.arg}, 0, len(branches) - 1), branches, x)` "
           "(`jnp.clip` keeps the index in range)"),
    # ---- shapes and sizes
    Rule("float-size", lambda f: f.is_("TypeError") and not f.is_(*_TRACER_ERRORS) and _float_shape(f),
         lambda f: (f"a float where an integer size is needed: the shape {_float_shape(f)} holds a float"
                    + (", and `/` always gives a float (`6 / 2` is `3.0`)" if _true_division(f) else "")),
         lambda f: ((f"divide with `//`, which keeps integers integers: `{_true_division(f)}`; or "
                     if _true_division(f) else "") + "wrap the size in `int()`, e.g. `jnp.zeros(int(n))`")),
    Rule("shape-math-with-jnp", lambda f: (_is_size_error(f) or f.is_("ConcretizationTypeError", "TracerIntegerConversionError"))
         and _comes_from_operations(f) and not _float_shape(f),
         lambda f: (f"the shape `{_jnp_shape(f)}` is made a `jnp` array (`jnp.array({_jnp_shape(f)})`), which is "
                    f"traced inside a jitted function, and a shape needs concrete numbers" if _jnp_shape(f) else
                    f"shape arithmetic done with {_shape_math_origin(f)} turns static numbers (shapes, "
                    f"constants) into traced values, and {_size_user(f) if _is_size_error(f) else '`int()`'} "
                    f"needs a concrete number"),
         _shape_math_fix),
    Rule("scan-length", lambda f: f.is_("ConcretizationTypeError") and f.says(r"`length` argument to `scan`"),
         lambda f: ("`lax.scan`'s `length=` must be a concrete Python int, "
                    + (f"and `{f.arg}` is a jit argument, so it is traced" if f.arg else "and the value given is traced")),
         lambda f: guess(f"if only the final carry is needed, loop with `lax.fori_loop(0, {f.arg or 'n'}, lambda i, carry: "
                         f"body, init)` (or `lax.while_loop`), which accepts a traced number of steps; if the stacked "
                         f"outputs are needed, their number must be known when tracing: make `{f.arg or 'n'}` static, "
                         f"`jax.jit({f.fn if str(f.fn).isidentifier() else 'f'}, static_argnames='{f.arg or 'n'}')`")),  # the student knows which
    Rule("nonzero-size", lambda f: f.is_("ConcretizationTypeError") and f.says(r"jnp\.nonzero|size argument|argwhere|flatnonzero|jnp\.unique|jnp\.compress"),
         "`jnp.nonzero` / one-argument `jnp.where` on a traced value: the output size depends on the values",
         lambda f: "pass a static `size=` (and `fill_value=`), or rewrite with `jnp.where(cond, a, b)` and a cumulative sum" + _argmax_too(f)),
    Rule("range", lambda f: f.is_("TracerIntegerConversionError") and "range" in f.stmt.get("calls", []),
         lambda f: (f"`{f.arg}` is a jit argument, so it is traced, and `range()` needs a concrete count"
                    if f.arg else "`range()` of a traced value: the loop count is unknown while tracing"),
         lambda f: ("loop with `lax.fori_loop(0, n, body, init)`, which accepts a traced bound"
                    + (f"; or, if `{f.arg}` is a Python int fixed for each call, make it static: "
                       f"`jax.jit({f.fn if f.fn.isidentifier() else 'f'}, static_argnames='{f.arg}')`" if f.arg and not f.arg_is_data else
                       f" (`{f.arg}` arrives as an array, so it stays traced)" if f.arg and f.arg_is_data else ""))),
    Rule("size-from-int-argument", lambda f: _is_size_error(f) and f.arg and not f.arg_is_data,
         lambda f: f"`{f.arg}` is a jit argument, so it is traced; {_size_user(f)} needs its value to fix an output shape",
         lambda f: _static_fix(f) + ("; or pass `total_repeat_length=`" if f.says("total_repeat_length") else "")
         + ("" if f.arg_is_python_scalar else _DATA_SIZE)),
    Rule("size-from-data", lambda f: _is_size_error(f) and f.arg and f.arg_is_data,
         lambda f: f"the size depends on `{f.arg}`, which is traced data (its values are unknown while "
                   f"tracing), so {_size_user(f)} cannot fix an output shape",
         "shapes must not depend on values: work at a fixed maximum size and mask the extra entries "
         "(e.g. `valid = jnp.arange(max_n) < n`, then `jnp.where(valid, x, 0)`)"),
    Rule("traced-slice", lambda f: f.is_("IndexError") and f.says(r"[Ss]lice entries must be static|[Aa]rray slice indices must have static|traced|dynamic"),
         "slicing with a traced start or stop (`x[i:i + k]`)",
         lambda f: "use `lax.dynamic_slice(x, (i,), (k,))` with a static size `k`"
                   + (f"; or, if `{f.arg}` sets the length, make it static: `jax.jit({f.fn}, static_argnames='{f.arg}')`"
                      if f.arg and f.arg_is_python_scalar else "")),
    Rule("arange-size", lambda f: f.is_("ConcretizationTypeError") and f.says(r"arange"),
         "a traced value used as a shape or size",
         guess("make that argument static (`static_argnums`) or keep shapes fixed and mask instead")),
    Rule("shape-size", lambda f: f.is_("TypeError") and not f.is_(*_TRACER_ERRORS) and f.says(r"Shapes must be 1D sequences of concrete values|concrete value|abstract tracer"),
         "a traced value used as a shape (`jnp.zeros(n)`, `jnp.full((n,), v)`, `reshape(n)`)",
         "mark the size argument static: `jax.jit(f, static_argnums=...)`"),
    # ---- NumPy and Python numbers on traced values
    Rule("numpy-call", lambda f: f.is_("TracerArrayConversionError") and bool(f.calls("np.", "numpy.", "onp.")),
         lambda f: f"`{f.calls('np.', 'numpy.', 'onp.')[0]}` is NumPy: it needs concrete numbers, but the value is traced",
         _numpy_call_fix),
    Rule("numpy", lambda f: f.is_("TracerArrayConversionError"),
         "`np.asarray` / NumPy called on a traced value",
         "use `jnp` functions instead of `np` inside jitted code"),
    Rule("print-number", lambda f: f.is_("ConcretizationTypeError") and "print" in f.stmt.get("calls", []),
         "printing needs the number, which does not exist while tracing",
         "print traced values with `jax.debug.print('w={w}', w=w)`, which runs on every call"),
    Rule("float-item", lambda f: f.is_("ConcretizationTypeError") and (f.says(r"`float` function|item\(\) method|`bool` function|`int` function")
                                                                      or f.calls("float", "int", ".item", "bool")),
         "a traced value was needed as a concrete Python value (`float(t)`, `int(t)`, `.item()`, `bool(t)`)",
         _float_item_fix),
    Rule("concrete", lambda f: f.is_("ConcretizationTypeError"),
         "a traced value was needed as a concrete Python value (`float(t)`, `int(t)`, `.item()`, `bool(t)`)",
         # the construct that needed the value is not known here: a menu, offered as a guess
         guess("stay in `jnp` (no `float()`/`.item()`); print with `jax.debug.print`; make true constants static")),
    Rule("index-int", lambda f: f.is_("TracerIntegerConversionError"),
         "a traced value used as a Python int (e.g. `range(n)` or a list index)",
         lambda f: "use `lax.fori_loop(0, n, body, init)` for a traced bound"
                   + (f"; or, if `{f.arg}` is a true constant, make it static: "
                      f"`jax.jit({f.fn}, static_argnames='{f.arg}')`" if f.arg and f.arg_is_python_scalar else "")),
    # ---- limits of the grader
    Rule("output-cap", lambda f: f.is_("OSError") and f.says(r"File too large"),
         "the code printed more output than the grader allows (the cap counts bytes)",
         "print summaries, not whole arrays or a print in every loop step"),
    Rule("memory", lambda f: f.is_("MemoryError"),
         "the code allocated more memory than the grader allows",
         "work on the sizes the exercise gives; avoid building huge intermediates"),
    # ---- any other error on a line that calls lax.cond/lax.switch: both branches are traced
    *BRANCH_RULES,
    *FALLBACK_RULES,       # nothing else knows it: a cause in the student's terms, at most two guesses
]


def _at_name(f: Facts) -> str:
    m = re.search(r"(\w+)\.at\[", f.code)
    return m.group(1) if m else "x"


def _text(part, f: Facts) -> str:
    return part(f) if callable(part) else part


_TRIED_BY_KIND = {"moved-name"}   # rules whose guesses the rewrites by kind try: what traced replaces them
_GENERIC = ("the function raised an exception", "run it eagerly on the example input and read the traceback")


def explain(desc: dict) -> tuple[str, str]:
    """(cause, fix) for a described exception; a generic pair when no rule matches."""
    rule = match(desc)
    f = Facts(desc)
    by_kind = kind_fix(f)                     # rewrites by the error's kind that traced, or ''
    if rule is None:
        return (kind_cause(f), by_kind) if by_kind else _GENERIC
    try:
        cause, fix = _text(rule.cause, f), _text(rule.fix, f)
    except Exception:  # a description a rule cannot read (forged by the worker): the generic pair
        return _GENERIC
    if by_kind and rule.name in _TRIED_BY_KIND:
        fix = by_kind
    elif by_kind and fix.startswith(GUESS):     # what traced first; the rule's possibility stays a guess
        fix = f"{by_kind}; other possibilities, {fix}"
    return cause, fix


def explain_static(desc: dict) -> tuple[str, str] | None:
    """(cause, fix) when the matching rule's texts are fixed (they quote nothing from the student's
    code), else None: what a failure on a hidden test may still say."""
    rule = match(desc)
    if rule is None or callable(rule.cause) or callable(rule.fix):
        return None
    return rule.cause, rule.fix


def match(desc: dict) -> Rule | None:
    """The first rule of `RULES` that holds for `desc` (None when none does)."""
    f = Facts(desc)
    for rule in RULES:
        try:
            if rule.when(f):
                return rule
        except Exception:  # a rule must never turn a failure into a crash
            continue
    return None


# ---------------------------------------------------------------- retraces
# The argument change that explains a retrace (`evidence._retrace_change`), by its kind: (cause, fix),
# formatted with the change's fields: {arg}, {now}, {dtype} (the dtype to keep), {type} (a class).
RETRACE_RULES: dict[str, tuple[str, str]] = {
    "dtype": ("the dtype of `{arg}` changes between calls, and each dtype compiles its own version",
              "give `{arg}` one dtype on every call: cast it before the call, e.g. "
              "`jnp.asarray({arg}, jnp.{dtype})` (or `{arg}.astype(jnp.{dtype})`)"),
    "weak_type": ("`{arg}` arrives as a Python scalar (weakly typed) in one call and as a typed array in "
                  "another, and jit compiles each separately",
                  "pass `{arg}` the same way every call, e.g. always `jnp.{dtype}({arg})` (or "
                  "`jnp.asarray({arg}, jnp.{dtype})`)"),
    "shape": ("the shape of `{arg}` changes between calls, and every new shape compiles again",
              "keep shapes fixed: pad inputs up to a few bucket sizes and pass a mask for the padding"),
    "structure": ("the pytree structure of `{arg}` changes between calls, and every new structure "
                  "compiles again",
                  "pass `{arg}` with the same structure every call: use a placeholder of the same structure "
                  "(e.g. zeros and a mask) instead of `None` or a missing key, or make the choice a static flag"),
    "metadata": ("`{arg}` is a pytree whose node metadata (aux data) holds a value that changes; metadata "
                 "is part of the cache key",
                 "make that number a leaf: return it among the children in `tree_flatten` (or mark the "
                 "field as data), so it is traced instead of compiled in"),
    "static_callable": ("`{arg}` is static and a new function object ({now}) arrives on every call; static "
                        "arguments are compared by `==`, and two lambdas or partials never compare equal",
                        "define it once (at top level) and pass that same object every call, or pass its "
                        "parameters as traced arguments"),
    "static_identity": ("`{arg}` is static, and its class compares by identity: each new `{type}` object is "
                        "a new cache key, even with equal values",
                        "give the class value-based `__hash__` and `__eq__` (e.g. `@dataclass(frozen=True)`), "
                        "or pass a hashable tuple of its values as the static argument"),
    "static_value": ("`{arg}` is static, so every new value compiles again",
                     "keep static only what sets shapes or modes; pass `{arg}` as a traced argument instead "
                     "(pass it as a traced `jnp` scalar and leave it out of static_argnums)"),
}
# Without a change to name, JAX's own reasons decide: the first entry whose test holds for them.
# JAX's cache-miss lines name avals as dtype[shape] ("f32[4]", "bf16[2,3]", "bool[]"): any dtype is
# matched, and the wording around them only loosely (it changes between releases).
RETRACE_REASONS: list[tuple[Callable[[str], bool], tuple[str, str]]] = [
    (lambda text: "weak" in text,
     ("the same value arrives sometimes as a Python scalar (weakly typed) and sometimes as an array",
      "convert with `jnp.asarray(v, dtype)` before the call or keep the types consistent")),
    (lambda text: "static" in text.lower(),
     ("an argument the exercise treats as traced is static, so every new value retraces",
      "keep only true sizes/modes in static_argnums; pass data as traced arrays")),
    (lambda text: bool(re.search(r"\b[a-z]+\d*\[[\d,\s]*\]", text) or re.search(r"\b(now|shape|dtype)\b", text)),
     ("the shape or dtype of an argument changes between calls",
      "keep shapes fixed (pad to a bucket) and dtypes consistent")),
]
RETRACE_OTHERWISE = ("the function is re-created or re-jitted on every call, or a Python value changes the trace",
                     "jit once at top level and pass changing values as arguments")


def explain_retrace(change: dict | None, reasons: list[str]) -> tuple[str, str]:
    """(cause, fix) for the first retrace, from the argument change `evidence.count_traces` found."""
    change = change or {}
    kind = change.get("kind", "")
    if kind == "static_identity" and change.get("callable"):
        kind = "static_callable"
    if kind in RETRACE_RULES:
        fields = {"arg": change.get("arg", ""), "now": change.get("now", ""),
                  "dtype": change.get("before_dtype") or "float32", "type": change.get("type", "object")}
        cause, fix = RETRACE_RULES[kind]
        return cause.format(**fields), fix.format(**fields)
    joined = " ".join(reasons)
    for holds, texts in RETRACE_REASONS:
        if holds(joined):
            return texts
    return RETRACE_OTHERWISE
