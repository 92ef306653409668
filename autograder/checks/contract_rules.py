"""Rules for a call that breaks what its function's contract requires, each read from JAX's message (and
the module of JAX that raised it) with the failing line, written after the twenty-fourth held-out batch's
first run (`tests/mistakes/heldout_error_mistakes_24.py`), one per kind of message it met that no rule knew
or that a rule read the wrong way (issue 38):

- what a function requires of an argument: `all_to_all`'s `split_axis` of the mapped axis's size,
  `randint`'s integer dtype, `image.resize`'s full shape, `broadcast_in_dim`'s entry per operand axis, a
  `PartitionSpec` of the mesh's own axis names, one dtype for both operands of a `lax` function, `argnums`
  counting positional arguments only, a cotangent for `linear_transpose`'s function shaped like the output;
- what JAX calls back: a `custom_vmap` rule's `(out, out_batched)` pair and its flags' structure, a
  `tree_unflatten` JAX calls on the class, a function closing over a traced value handed to a custom rule;
- what the values show was meant: a stack of tangents or cotangents for one `jvp` or pullback (one each,
  mapped), a literal tuple or number passed to a jitted function where it sets an axis or a count (static),
  a jitted function that returns a function.

Each fix is one the message and the function's convention settle (what the student meant, where it decides,
is read from the values: a stack, a literal). Part of `stated_rules.STATED_RULES`, first among them.
"""
from __future__ import annotations

import ast
import re

from .convention_rules import _calls
from .rule_facts import Facts, Rule

_ALL_TO_ALL = r"^all_to_all requires the size of the mapped axis (\w+) to equal x\.shape\[split_axis\], but they are (\d+) and (\d+)"
_ARGNUMS = r"^differentiating with respect to argnums=(\([^)]*\)|\d+) requires at least (\d+) positional arguments"
_TRANSPOSE_COT = r"^cotangent type does not match function output, expected \(ShapedArray\((\w+)\[([\d,]*)\]\),\)"
_RANDINT = r"^randint only accepts integer dtypes, got (\w+)"
_RETURNED_FUNCTION = r"traced for jit returned a value of type <class '(function|functools\.partial|method)'>"
_UNFLATTEN = r"^(?:[\w.<>]+\.)?(\w+)\.tree_unflatten\(\) missing 1 required positional argument: '(\w+)'"
_FLAGS = r"^structure of output value and output batching specification returned by custom vmap rule \(([^)]*)\) do not match"
_RESIZE = r"^shape must have length equal to the number of dimensions of x;\s*\(([^)]*)\) vs \(([^)]*)\)"
_BROADCAST_DIMS = r"broadcast_dimensions must have length equal to operand ndim; got broadcast_dimensions \(([^)]*)\) for operand ndim (\d+)"
_MESH_AXIS = r"^Resource axis: (\w+) of .* is not found in mesh: \(([^)]*)\)"
_LAX_DTYPES = r"^lax\.(\w+) requires arguments to have the same dtypes, got (\w+), (\w+)"
# (operations whose first argument is not one of the two operands the message names: rules of their own)
_NOT_OPERANDS = ("select", "select_n", "clamp", "dynamic_update_slice")
_COTANGENT = r"got (\w+)\[([\d,]*)\], but expected (\w+)\[([\d,]*)\]"
_TANGENT = r"Got primal shape \(([\d, ]*)\) and tangent shape as \(([\d, ]*)\)"
_OUT_TREE = r"Output values: (PyTreeDef[^\n]*)"
_FLAG_TREE = r"Batching spec: (PyTreeDef[^\n]*)"
_UNPACK = r"^(too many values to unpack|not enough values to unpack|cannot unpack non-iterable)"


def _spliced(f: Facts, node: ast.AST, text) -> str:
    """The failing line with `node` (parsed from it, on its one line) replaced by `text` (source, or a node), by
    position: the same text elsewhere on the line (a name inside `lambda`) is left alone."""
    line, text = f.code.strip(), text if isinstance(text, str) else ast.unparse(text)
    if getattr(node, "lineno", 0) != 1 or getattr(node, "end_lineno", 0) != 1:
        return f.line_with(node, text)
    return line[:node.col_offset] + text + line[node.end_col_offset:]


def _dims(text: str) -> tuple:
    return tuple(int(d) for d in re.findall(r"\d+", text))


def _stacked(inner: str, outer: str) -> int:
    """The count of a stack: `outer`'s dims are `inner`'s with one more axis in front (0 when they are not)."""
    a, b = _dims(inner), _dims(outer)
    return b[0] if len(b) == len(a) + 1 and b[1:] == a else 0


def _one_argument_call(f: Facts) -> ast.Call | None:
    """The line's call of a plain name with one argument (a pullback: `pullback(cots)`), or None."""
    found = [c for c in ast.walk(f.parsed) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
             and len(c.args) == 1 and not c.keywords and not isinstance(c.args[0], ast.Lambda)]
    return found[0] if len(found) == 1 else None


def _stacked_cotangents(f: Facts) -> str:
    """`pullback(cots)` given a stack of cotangents: the line with the pullback mapped over them, or ''."""
    m = re.search(_COTANGENT, f.text)
    call = _one_argument_call(f) if m and m.group(1) == m.group(3) and _stacked(m.group(4), m.group(2)) else None
    return _spliced(f, call, f"jax.vmap({ast.unparse(call.func)})({ast.unparse(call.args[0])})") if call else ""


def _stacked_tangents(f: Facts) -> str:
    """`jax.jvp(fn, (x,), (ts,))` given a stack of tangents: the line with the jvp mapped over them, or ''."""
    m = re.search(_TANGENT, f.text)
    if not m or not _stacked(m.group(1), m.group(2)):
        return ""
    for call in _calls(f, "jvp"):
        if len(call.args) == 3 and isinstance(call.args[2], ast.Tuple) and len(call.args[2].elts) == 1:
            stack = ast.unparse(call.args[2].elts[0])
            one = ast.Call(call.func, [call.args[0], call.args[1], ast.Tuple([ast.Name("t")], ast.Load())], [])
            return _spliced(f, call, f"jax.vmap(lambda t: {ast.unparse(one)})({stack})")
    return ""


def _keywords_positional(f: Facts) -> str:
    """The call given only keyword arguments, with them passed by position in the order written, or ''."""
    found = [c for c in ast.walk(f.parsed) if isinstance(c, ast.Call) and not c.args and c.keywords
             and all(k.arg for k in c.keywords)]
    return _spliced(f, found[0], ast.Call(found[0].func, [k.value for k in found[0].keywords], [])) if found else ""


def _randint_cast(f: Facts) -> str:
    """`jax.random.randint(..., dtype=float)` drawing integers and cast after, or ''."""
    for call in _calls(f, "randint"):
        dtype = next((k.value for k in call.keywords if k.arg == "dtype"), None)
        if dtype is not None:
            drawn = ast.Call(call.func, call.args, [k for k in call.keywords if k.arg != "dtype"])
            return _spliced(f, call, f"{ast.unparse(drawn)}.astype({ast.unparse(dtype)})")
    return ""


def _resize_shape(f: Facts) -> str:
    """A full shape for `jax.image.resize` where only the resized axes were given (channels last), or ''."""
    given, full = _dims(f.group(_RESIZE)), _dims(f.group(_RESIZE, 2))
    calls = _calls(f, "image.resize", "resize")
    if not calls or not calls[0].args or len(full) != len(given) + 2:
        return ""
    x = ast.unparse(calls[0].args[0])
    return f"({x}.shape[0], {', '.join(str(d) for d in given)}, {x}.shape[{len(full) - 1}])"


def _static_literal(f: Facts) -> tuple[str, str, str]:
    """(the jit keyword, its value, the argument) for a literal tuple (an axis list, a shape) passed to a jitted function on the
    line, where JAX's message says the concrete value came from that argument: ('static_argnames', "'axis'",
    'axis'), or ('', '', '')."""
    names = {re.split(r"[\[.]", a)[0] for a in f.desc.get("traced_args") or []}
    for call in ast.walk(f.parsed):
        jit = call.func if isinstance(call, ast.Call) else None
        if not (isinstance(jit, ast.Call) and ast.unparse(jit.func) in ("jax.jit", "jit") and jit.args):
            continue
        for k in call.keywords:
            if k.arg in names and isinstance(k.value, ast.Tuple):
                return "static_argnames", repr(k.arg), k.arg
        params = [a.arg for a in jit.args[0].args.args] if isinstance(jit.args[0], ast.Lambda) else []
        for i, a in enumerate(call.args):
            if i < len(params) and params[i] in names and isinstance(a, ast.Tuple):
                return "static_argnums", str(i), params[i]
    return "", "", ""


def _jit_with_static(f: Facts) -> str:
    keyword, value, _ = _static_literal(f)
    for call in ast.walk(f.parsed) if keyword else []:
        jit = call.func if isinstance(call, ast.Call) else None
        if isinstance(jit, ast.Call) and ast.unparse(jit.func) in ("jax.jit", "jit"):
            static = ast.Call(jit.func, jit.args, jit.keywords + [ast.keyword(keyword, ast.parse(value).body[0].value)])
            return _spliced(f, jit, static)
    return ""


def _closure_into_custom_rule(f: Facts) -> str:
    """The traced name a lambda on the line closes over, where the function it is handed to on that line was
    called by JAX (a custom rule's function, traced apart) and the value leaked: '' otherwise."""
    chain = f.desc.get("chain") or []
    caller = chain[-2] if len(chain) > 1 and chain[-1].get("function") == "<lambda>" else {}
    handed = [c for c in ast.walk(f.parsed) if isinstance(c, ast.Call) and caller.get("called_by_jax")
              and ast.unparse(c.func).split(".")[-1] == caller.get("function")
              and any(isinstance(a, ast.Lambda) for a in c.args)]
    params = set((f.desc.get("where") or {}).get("params") or [])
    closed = [t for t in f.stmt.get("tracers", []) if t not in params]
    return closed[0] if f.is_("UnexpectedTracerError") and handed and closed else ""


def _handed_to(f: Facts) -> str:
    chain = f.desc.get("chain") or []
    return chain[-2].get("function", "") if len(chain) > 1 else ""


def _mesh_fix(f: Facts) -> str:
    wanted, axes = f.group(_MESH_AXIS), re.findall(r"'(\w+)'", f.group(_MESH_AXIS, 2))
    if len(axes) == 1 and re.search(rf"(['\"]){wanted}\1", f.code):
        line = re.sub(rf"(['\"]){wanted}\1", repr(axes[0]), f.code.strip(), count=1)
        return f"name an axis of the mesh: `{line}` (or give the mesh an axis named '{wanted}')"
    return f"name one of the mesh's axis names, {', '.join(repr(a) for a in axes)}, in the `PartitionSpec`"


def _lax_cast(f: Facts) -> str:
    op = f.group(_LAX_DTYPES)
    calls = [c for c in _calls(f, f"lax.{op}") if len(c.args) >= 2]
    if not calls:
        return f"cast one operand to the other's dtype with `.astype(...)` (`lax.{op}` does not promote; `jnp` functions do)"
    first, second = (ast.unparse(a) for a in calls[0].args[:2])
    return (f"cast one operand to the other's dtype, e.g. `{_spliced(f, calls[0].args[1], f'{second}.astype({first}.dtype)')}` "
            f"(`lax.{op}` does not promote dtypes; `jnp` functions do)")


CONTRACT_RULES: list[Rule] = [
    # ---- what a function requires of an argument
    Rule("all-to-all-split-size", lambda f: f.says(_ALL_TO_ALL),
         lambda f: (f"`lax.all_to_all` cuts axis `split_axis` of its operand into one piece per member of the mapped "
                    f"axis ({f.group(_ALL_TO_ALL, 2)} members), and the axis chosen has "
                    f"{f.group(_ALL_TO_ALL, 3)} entries"),
         lambda f: (f"choose as `split_axis` an axis whose length equals the mapped axis size, "
                    f"{f.group(_ALL_TO_ALL, 2)} (reshape the operand first if no axis has it)")),
    Rule("argnums-by-keyword", lambda f: f.says(_ARGNUMS) and bool(_keywords_positional(f)),
         lambda f: (f"`argnums={f.group(_ARGNUMS)}` picks arguments by position, and this call passed them all "
                    f"by keyword, so there is no argument {f.group(_ARGNUMS).strip('(),').split(',')[0]} to differentiate"),
         lambda f: (f"pass them positionally, not by keyword, in the order of the function's parameters: "
                    f"`{_keywords_positional(f)}` "
                    f"(the arguments to differentiate are chosen by position, with `argnums=`)")),
    Rule("transpose-cotangent", lambda f: f.says(_TRANSPOSE_COT),
         lambda f: (f"the function `jax.linear_transpose` returns maps the linear function's outputs back to its "
                    f"inputs, so it takes a cotangent of the output ({f.group(_TRANSPOSE_COT)}"
                    f"[{f.group(_TRANSPOSE_COT, 2)}]), not a value shaped like the input"),
         lambda f: (f"give it a cotangent with the shape and dtype of the linear function's output, e.g. "
                    f"`jnp.ones(({f.group(_TRANSPOSE_COT, 2)},), jnp.{f.group(_TRANSPOSE_COT)})`")),
    Rule("randint-float-dtype", lambda f: f.says(_RANDINT) and bool(_randint_cast(f)),
         lambda f: f"`jax.random.randint` draws integers, and it was asked for {f.group(_RANDINT)} values",
         lambda f: f"draw integers, then cast them: `{_randint_cast(f)}`"),
    Rule("resize-full-shape", lambda f: f.says(_RESIZE),
         lambda f: (f"`jax.image.resize` takes the whole output shape, one entry per axis of the input "
                    f"({f.group(_RESIZE, 2)}), and it got ({f.group(_RESIZE)})"),
         lambda f: (f"give every axis its size, the batch and channel axes too: e.g. `{_resize_shape(f)}` for "
                    f"channels-last images" if _resize_shape(f) else
                    "give every axis its size, the ones kept as they are too (e.g. `x.shape[0]` for the batch)")),
    Rule("broadcast-dims-per-operand-axis", lambda f: f.says(_BROADCAST_DIMS),
         lambda f: (f"`broadcast_dimensions` says, for each axis of the operand, which axis of the output it becomes, "
                    f"so it has one entry per operand axis ({f.group(_BROADCAST_DIMS, 2)} here), not one per output axis"),
         lambda f: (lambda k, r: f"give `broadcast_dimensions` one entry per operand axis: e.g. "
                    f"`{tuple(range(r - k, r)) if r > k else '(...)'}` lines the operand up with the output's last "
                    f"axes, as NumPy's broadcasting does")(int(f.group(_BROADCAST_DIMS, 2)),
                                                            len(_dims(f.group(_BROADCAST_DIMS))))),
    Rule("mesh-axis-name", lambda f: f.says(_MESH_AXIS),
         lambda f: (f"a `PartitionSpec` names axes of the mesh, and '{f.group(_MESH_AXIS)}' is not one of this "
                    f"mesh's axis names ({f.group(_MESH_AXIS, 2)})"),
         _mesh_fix),
    Rule("lax-same-dtypes", lambda f: f.says(_LAX_DTYPES) and f.group(_LAX_DTYPES) not in _NOT_OPERANDS
         and not f.says(r"\(Tip: "),     # JAX's tip names the `jnp` function that promotes: `advice_rules` tells it
         lambda f: (f"`lax.{f.group(_LAX_DTYPES)}` takes operands of one dtype and does not convert them; here they "
                    f"are {f.group(_LAX_DTYPES, 2)} and {f.group(_LAX_DTYPES, 3)}"),
         _lax_cast),
    # ---- what JAX calls back
    Rule("custom-vmap-rule-pair", lambda f: f.desc.get("raised_by") == "custom_batching" and f.says(_UNPACK),
         "JAX unpacks what a `custom_vmap` rule returns into two: the outputs and `out_batched`, whether each output "
         "has the batch axis; this rule returned something else (the outputs alone?)",
         "return both from the rule: `return out, out_batched`, `out_batched` with the structure of `out`, `True` "
         "where an output has the batch axis (e.g. `in_batched[0]` for an output mapped like the first argument)"),
    Rule("custom-vmap-flags-structure", lambda f: f.says(_FLAGS),
         lambda f: (f"a `custom_vmap` rule returns `(out, out_batched)`, with `out_batched` shaped like `out`, one flag "
                    f"per output; `{f.group(_FLAGS)}` returned outputs of structure "
                    f"{f.group(_OUT_TREE) or '?'} and flags of structure {f.group(_FLAG_TREE) or '?'}"),
         "give `out_batched` one flag per output, not `in_batched` as it came (one per input): for one output, one "
         "bool, e.g. `in_batched[0]`"),
    Rule("unflatten-not-classmethod", lambda f: f.says(_UNFLATTEN),
         lambda f: (f"JAX rebuilds a `{f.group(_UNFLATTEN)}` by calling `{f.group(_UNFLATTEN)}.tree_unflatten(aux_data, "
                    f"children)` on the class, with no instance; as a plain method its `self` took `aux_data`, and "
                    f"`{f.group(_UNFLATTEN, 2)}` was left without a value"),
         lambda f: (f"make it a class method: `@classmethod` above `def tree_unflatten(cls, aux_data, children): "
                    f"return cls(*children)`")),
    Rule("closure-into-custom-rule", lambda f: bool(_closure_into_custom_rule(f)),
         lambda f: (f"the function on this line closes over `{_closure_into_custom_rule(f)}`, a value being "
                    f"differentiated, and it was handed to `{_handed_to(f)}`, which JAX traces apart (a function with a "
                    f"custom rule, or under another transformation): the closed-over tracer escaped into that trace"),
         lambda f: (f"turn what it closes over into explicit arguments with `jax.closure_convert(fn, *args)` "
                    f"(it returns the function and the values it closed over, to pass as differentiable "
                    f"arguments), or pass `{_closure_into_custom_rule(f)}` as an argument yourself")),
    # ---- what the values show was meant
    Rule("stacked-cotangents", lambda f: bool(_stacked_cotangents(f)),
         lambda f: (f"the pullback takes one cotangent shaped like the output ({f.group(_COTANGENT, 3)}"
                    f"[{f.group(_COTANGENT, 4)}]), and it got a stack of {_dims(f.group(_COTANGENT, 2))[0]} of them"),
         lambda f: f"to pull back each one, map the pullback over the stack: `{_stacked_cotangents(f)}`"),
    Rule("stacked-tangents", lambda f: bool(_stacked_tangents(f)),
         lambda f: (f"a tangent is one direction, shaped like its primal ({f.group(_TANGENT)}); this is a stack of "
                    f"{_dims(f.group(_TANGENT, 2))[0]} of them"),
         lambda f: f"to push each direction forward, map the jvp over the stack: `{_stacked_tangents(f)}`"),
    Rule("literal-argument-static", lambda f: f.is_("TracerIntegerConversionError", "ConcretizationTypeError")
         and bool(_jit_with_static(f)),
         lambda f: (f"`jax.jit` traces every argument, a literal tuple or number too, and `{_static_literal(f)[2]}` is "
                    f"used where a concrete value is needed (an axis, a size)"),
         lambda f: f"mark it static: `{_jit_with_static(f)}` (each value compiles its own version)"),
    Rule("jit-returns-function", lambda f: f.says(_RETURNED_FUNCTION),
         "a jitted function returns arrays (and tuples, lists and dicts of them), and this one returned a Python "
         "function, which XLA cannot hold",
         "return only arrays from the jitted function (what the function you want is built from), and build that "
         "function outside `jax.jit` from what it returned"),
]
