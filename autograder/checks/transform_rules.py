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

Each fix above is a guess (`trial_texts.guess`): the usual way out for that situation, not tried on the
student's values, so a case it does not fit is told less, never told wrong.

A `custom_jvp`/`custom_vjp` function called through an object (`spring.energy(x)`) with an argument
missing: defined in a class it is no method, so `self` is not passed (a guess: the message cannot say
that it was defined in a class).

Calling conventions, where JAX's message and the student's line together say what was called how (the
fix follows from them, so it is told, not guessed): a loop body with the wrong parameters for its loop
(`fori_loop` calls `body(i, carry)`); a static argument of `jax.checkpoint` passed by keyword
(`static_argnums` counts positions); a function given to `vmap` that returns a function; an `argnums`
computed from a traced value; a custom backward rule that uses the output's cotangent, a tuple when the
function returns a tuple, as one array; an unflatten function that converts its children (JAX calls
it with any leaf, `None` included).

What a transformation asks of the values it maps or differentiates: an output marked `out_axes=None`
that still varies along a named axis (the collective left that axis out); an argument of a
`custom_vjp` function, traced even when the surrounding `jit` holds it static; a custom JVP rule that
applies a nonlinear step (a power, a callback) to its tangent, which reverse mode cannot transpose; an
integer among a differentiated function's outputs (an auxiliary value: `has_aux`); a key batch made by
a `jax.random.split` written inside a sampler's call; a matrix product under `vmap` whose element still
has an axis to map (a guess: another `vmap`).

`VARYING_RULES` (ahead of the API rules, which would read the types as a shape or dtype mismatch):
inside `shard_map`, which mesh axes a value varies over is part of its type (`float32[3]{V:rows}`). A
loop carry whose body makes it vary, or a cotangent that does not vary where the output does, differs
from what JAX expects in that alone; JAX's message names the axes, and `jax.lax.pcast(..., to='varying')`
on the value that lacks them (the initial carry, the cotangent) is the fix it names too.
"""
from __future__ import annotations

import ast
import re

from .rule_facts import Facts, Rule
from .trial_texts import guess, moved_axis, vmap_fix
from .usage_texts import _call


def _mapped_not_jitted(f: Facts) -> bool:
    """A concrete value was needed from a value vmap mapped, and no jit is on the way. Only JAX's plain
    message: its subclasses (a Python `if`, an index) and a message naming the function that needed
    the value (`nonzero`'s size, `scan`'s length, `float`) have rules of their own."""
    plain = f.desc.get("type") == "ConcretizationTypeError" and (not f.says(
        r"problem arose with|size argument|`length`|nonzero|argwhere|unique") or f.says(r"problem arose with the `int`"))
    needs_concrete = plain or (f.is_("TypeError") and f.says(r"Shapes must be 1D sequences of concrete values"))
    return (needs_concrete and f.says(r"\bBatchTracer\b") and not f.says(r"DynamicJaxprTracer")
            and "jit" not in (f.desc.get("transforms") or []) and not f.stmt.get("jitted_calls"))


def _mapped_name(f: Facts) -> str:
    """The traced name the line gives to the function JAX names ("It arose in the jnp.arange argument"),
    else the line's first traced name."""
    names = f.stmt.get("tracers") or []
    fn = f.group(r"arose in the (?:[\w.]*\.)?(\w+) argument")
    given = re.findall(rf"\b{fn}\(\s*(\w+)", f.code) if fn else []
    names = [n for n in given if n in names] + names
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
    body = f.parsed.body
    if not body:
        return None
    stmt = body[0]
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


# What each loop calls its functions with, by the loop's name on the line
_LOOP_SIGNATURES = {"fori_loop": "`body(i, carry)`: the loop index first, then the carry",
                    "scan": "`body(carry, x)`: it expects `(new_carry, y)` back",
                    "while_loop": "`cond(carry)` and `body(carry)`: the carry alone",
                    "map": "`f(x)`: one slice of the array at a time"}


_LOOP_PARAMS = {"scan": "carry, x", "while_loop": "carry", "map": "x"}


def _body_name(f: Facts) -> str:
    """The name of the function the loop called (as Python's message gives it), or `body`."""
    name = f.group(r"([\w.<>]+)\(\) (?:takes|missing)").rsplit(".", 1)[-1]
    return name if name.isidentifier() else "body"


def _loop_called(f: Facts) -> str:
    """The loop on the line whose function was called with the wrong number of arguments, or ''."""
    if not (f.is_("TypeError") and f.says(r"takes (\d+) positional arguments? but (\d+) (were|was) given|"
                                          r"missing \d+ required positional argument")):
        return ""
    m = re.search(r"\blax\.(fori_loop|scan|while_loop|map)\(", f.code)
    called = f.group(r"([\w.<>]+)\(\) (?:takes|missing)").rsplit(".", 1)[-1]
    # the loop itself called with the wrong arguments (`lax.map(f, a, b)`) is not its body's signature
    return m.group(1) if m and called not in ("", "fori_loop", "scan", "while_loop", "map") else ""


def _positional_call(f: Facts) -> str:
    """The line's call with keyword arguments, rewritten with them passed by position, or ''."""
    for node in ast.walk(f.parsed):
        if isinstance(node, ast.Call) and node.keywords and all(k.arg for k in node.keywords):
            return ast.unparse(ast.Call(node.func, node.args + [k.value for k in node.keywords], []))
    return ""


def _grad_candidates(f: Facts) -> int:
    """How many arguments the line's `jax.grad(fn, argnums=...)(a, b, ...)` is called with (2 if unknown)."""
    for node in ast.walk(f.parsed):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Call) and \
                any(k.arg == "argnums" for k in node.func.keywords):
            return max(len(node.args), 2)
    return 2


def _all_argnums(f: Facts) -> str:
    return "(" + ", ".join(str(i) for i in range(_grad_candidates(f))) + ")"


# steps that are not linear in their input: applied to a tangent, reverse mode has no transpose for them
_NONLINEAR = r"integer_pow|pow|exp|exp2|log|log1p|sin|cos|tan|tanh|logistic|sqrt|rsqrt|cbrt|abs|max|min|erf|pure_callback"
_NO_TRANSPOSE = r"for '(\w+)' not implemented"
_GOT_DTYPE = r"but got (\w+)"
_DIFF_CALL = r"\bjax\.(grad|value_and_grad|jacrev|jacfwd|hessian)\((\w+)"


def _differentiated(f: Facts) -> tuple[str, str]:
    """(transformation, function) of the line's differentiating call, or ('grad', the function)."""
    m = re.search(_DIFF_CALL, f.code)
    return (m.group(1), m.group(2)) if m else (f.group(r"^(\w+) requires real-valued outputs", default="grad"), "f")


def _split_key_arg(f: Facts) -> str:
    """The key a sampler's call splits inline into two keys (`bernoulli(jax.random.split(root, 2), ...)`: one
    fresh key was meant; a split into one key, or into more, `key-batch` tells), or ''."""
    m = re.search(r"random\.\w+\(\s*(?:jax\.)?(?:random\.)?split\((\w+)\s*(?:,\s*(?:num=)?2)?\s*\)", f.code)
    return m.group(1) if m else ""


def _unmapped_axis(f: Facts) -> str:
    return f.group(r"^vmap has mapped output \(axis_name=([^)]+)\) but out_axes is None")


# ---------------------------------------------------------------- a custom rule's function as a method
_CUSTOM_UNRESOLVED = r"^The input arguments to the custom_(?:jvp|vjp)-decorated function (\w+) could not be resolved"


def _custom_method_call(f: Facts) -> tuple[str, str, str] | None:
    """(instance, function, arguments) where the line calls a custom_jvp/custom_vjp function on an instance
    (`spring.energy(x)`) and JAX found an argument missing: a custom function is no method, so the
    instance is not passed as `self`."""
    name = f.group(_CUSTOM_UNRESOLVED)
    if not name or not f.says("missing a required argument"):
        return None
    for node in ast.walk(f.parsed):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == name
                and isinstance(node.func.value, ast.Name)):
            return node.func.value.id, name, ", ".join(ast.unparse(a) for a in node.args)
    return None


CUSTOM_METHOD_RULE = Rule(
    "custom-rule-method", lambda f: _custom_method_call(f) is not None,
    lambda f: (lambda obj, fn, args: (
        f"`{obj}.{fn}(...)` calls a `jax.custom_jvp`/`custom_vjp` function through an object, and an argument is "
        f"missing: a custom function defined in a class is not a method, so the object is not passed as `self`"
    ))(*_custom_method_call(f)),
    lambda f: (lambda obj, fn, args: guess(
        f"if `{fn}` is defined in the class of `{obj}`, pass `self` explicitly: `type({obj}).{fn}({obj}, {args})`, "
        f"or make `{fn}` a plain function outside the class; otherwise pass every argument `{fn}` takes"
    ))(*_custom_method_call(f)))


TRANSFORM_RULES: list[Rule] = [
    Rule("loop-body-arguments", lambda f: bool(_loop_called(f)),
         lambda f: (f"`lax.{_loop_called(f)}` calls {_LOOP_SIGNATURES[_loop_called(f)]}; `"
                    + f.group(r"([\w.<>]+)\(\) (?:takes|missing)", default="the function").rsplit(".", 1)[-1]
                    + "` was written with other parameters"),
         lambda f: ("give the function the parameters the loop passes, in that order (`def body(i, carry)` for "
                    "`fori_loop`; ignore one it does not need), or adapt it in place: `lambda i, carry: body(carry)`"
                    if _loop_called(f) == "fori_loop" else
                    f"give the function the parameters the loop passes, in that order: "
                    f"{_LOOP_SIGNATURES[_loop_called(f)].split(':')[0]}"
                    + ("; close over a parameter the loop does not pass (a constant of the whole loop): "
                       f"`lax.{_loop_called(f)}(lambda {_LOOP_PARAMS[_loop_called(f)]}: {_body_name(f)}"
                       f"({_LOOP_PARAMS[_loop_called(f)]}, <that value>), ...)`"
                       if f.says(r"missing \d+ required positional argument") else ""))),
    Rule("checkpoint-static-keyword", lambda f: f.says(r"`static_argnums` argument to `jax\.checkpoint`")
         and f.says(r"len\(args\)`? = \d+") and bool(_positional_call(f)),
         lambda f: ("`static_argnums` counts positional arguments, and the call passed only "
                    + f.group(r"len\(args\)`? = (\d+)") + " by position: the static one came by keyword"),
         lambda f: f"pass it positionally: `{_positional_call(f)}`"),
    Rule("vmap-returns-object", lambda f: f.says(r"^Output from batched function .* with type <class '[\w.]+'> "
                                                 r"is not a valid JAX type"),
         lambda f: ("the function given to `jax.vmap` returns a `"
                    + f.group(r"with type <class '(?:[\w.]+\.)?(\w+)'>") + "`; vmap can stack only arrays (and "
                    "containers of them) along the batch axis"),
         "return only the arrays from the mapped function (a solver's solution array, not the object that holds "
         "its functions): keep functions and other objects out of its outputs, and build them outside vmap; or, to "
         "keep such a value in the output, hold it as the aux data of a class registered with "
         "`jax.tree_util.register_pytree_node` (no children), which vmap passes through unmapped"),
    Rule("argnums-traced", lambda f: f.is_("ConcretizationTypeError") and "argnums=" in f.code
         and bool(re.search(r"\bgrad\(|value_and_grad\(|jacrev\(|jacfwd\(", f.code)),
         "`argnums` says which argument to differentiate; it must be a Python int when `jax.grad` is called, and "
         "here it comes from a traced value",
         lambda f: (f"differentiate with respect to every candidate, `argnums={_all_argnums(f)}`, and pick the "
                    f"gradient you need with the traced index afterwards (`jnp.stack(grads)[i]`, or `lax.switch`)")),
    Rule("custom-rule-tuple-operand", lambda f: _called_by(f, "custom_derivatives") and f.is_("TypeError")
         and f.says(r"unsupported operand type\(s\) for .*'tuple'|can't multiply sequence by non-int|"
                    r"can only concatenate tuple|bad operand type for unary -: 'tuple'"),
         lambda f: (f"`{f.fn}` is a custom derivative rule, and "
                    + (f"`{_params(f)[-1]}`" if _params(f) else "its last argument") + " is a tuple used as one "
                    "array: a backward rule gets the output's cotangent with the output's structure (a tuple when "
                    "the function returns a tuple), a forward rule its tangents with one entry per argument"),
         lambda f: (lambda g: f"take it apart first: `{g}[0]` for the first entry (`g_a, g_b = {g}` for two), "
                              f"and compute with the arrays")(_params(f)[-1] if _params(f) else "g")),
    Rule("unflatten-converts", lambda f: _called_by(f, "tree_util") and f.says(r"None is not a valid value|NoneType"),
         lambda f: (f"`{f.fn}` (a pytree's unflatten) converts its children, and JAX calls it with whatever the "
                    f"tree holds: here `None`, as `jax.tree.map` leaves where a function returns None"),
         "make the unflatten function store its children unchanged, `cls(*children)`, and convert the values "
         "where they are used: it must accept any leaf"),

    Rule("mapped-value-concrete", _mapped_not_jitted,
         lambda f: (f"`jax.vmap` maps array values: inside the mapped function {_mapped_name(f)} is one element "
                    f"of a batch, and it is used where a concrete value is needed (a shape, an `argnums`, a "
                    f"Python `int`); nothing is jitted here, so `static_argnums` would not help"),
         lambda f: guess("if the value is the same for every example (an axis, a count, a mode), do not map "
                         "it: pass it unmapped as a Python number (`in_axes=(None, 0)`, with `None` at its "
                         "position), or close over it (`jax.vmap(lambda x: fn(x, value))(xs)`); if it "
                         "differs, loop over these values in Python instead of mapping them "
                         "(`jnp.stack([fn(v) for v in values])`), or, where they set a shape, compute the size once, "
                         "outside the transformed function, from the whole batch (its largest value), pass it "
                         "in as a Python int, and pad every element to it (masking the padding)")),
    CUSTOM_METHOD_RULE,
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
    Rule("vmap-unmapped-collective", lambda f: bool(_unmapped_axis(f)),
         lambda f: (f"an output marked `out_axes=None` (one value for the whole batch) still varies along the "
                    f"mapped axis `{_unmapped_axis(f)}`: the collective that computes it does not reduce over that axis"),
         lambda f: (f"if it is one value for the whole batch, reduce over `{_unmapped_axis(f)}` too, naming every "
                    f"axis in the collective: `lax.pmean(x, axis_name=('{_unmapped_axis(f)}', ...))` (a tuple names "
                    f"several); if it is one value per element, map it: `out_axes=0`")),
    Rule("custom-rule-static-argument", lambda f: f.is_("ConcretizationTypeError")
         and f.says(r"for custom_(vjp|jvp) fun"),
         lambda f: ("a `jax.custom_vjp`/`custom_jvp` function traces every argument it is given, even one the "
                    "surrounding `jit` holds static, so a Python conversion (`int(k)`) inside it meets a tracer"),
         "keep that argument a Python value: close over it (define the custom function where the value is "
         "known, or use `functools.partial`), or declare it with `nondiff_argnums=(its position,)`, whose "
         "arguments stay Python values and get no cotangent"),
    Rule("nonlinear-tangent", lambda f: f.says(r"Transpose rule \(for reverse-mode differentiation\) for "
                                               r"'(" + _NONLINEAR + r")' not implemented"),
         lambda f: ("reverse mode transposes what was done to the tangents, which works for linear steps only; "
                    f"`{f.group(_NO_TRANSPOSE)}` was applied to a tangent, as a custom JVP rule "
                    "does when it raises its tangent to a power or passes it through a nonlinear function"),
         lambda f: (lambda t: t if "defjvp" in f.code else guess(t))(
             "in the JVP rule, multiply the incoming tangent by the derivative at the primal, `3 * x ** 2 * x_dot`, "
             "never `x_dot ** 2`: the tangent out must be linear in the tangents in")),
    Rule("callback-transpose", lambda f: f.says(r"Pure callbacks do not support transpose"),
         "reverse mode needs a transpose of every step applied to a tangent, and a `pure_callback` is opaque to "
         "JAX: it has none. A custom JVP rule that calls the callback on its tangent makes it such a step",
         "in the JVP rule, call the callback on the primal only and multiply the tangent by its result "
         "(`host_cos(x) * x_dot`): linear in the tangent, it needs no transpose; or give the whole function a "
         "`jax.custom_vjp` whose backward rule calls the callback"),
    Rule("integer-output", lambda f: f.says(r"^\w+ requires real-valued outputs .* but got (u?int\d*|bool)\b"),
         lambda f: (f"an output of `{_differentiated(f)[1]}` is an integer "
                    f"({f.group(_GOT_DTYPE)}), and integers have no derivative"),
         lambda f: (f"if it returns the integer beside its result (a count, a flag, an index), return it as an "
                    f"auxiliary value: `jax.{_differentiated(f)[0]}({_differentiated(f)[1]}, has_aux=True)` "
                    f"gives `(derivative, extra)`; if the integer is the result, compute it in floats "
                    f"(`.astype(jnp.float32)`)")),
    Rule("split-inside-sampler", lambda f: f.says(r"accepts a single key, but was given a key array")
         and bool(_split_key_arg(f)),
         lambda f: (f"`jax.random.split({_split_key_arg(f)}, ...)` returns several keys, and the sampler takes "
                    f"one; splitting `{_split_key_arg(f)}` again also repeats the keys an earlier split of it made"),
         lambda f: (f"split `{_split_key_arg(f)}` once into as many keys as the code uses and pass one to each "
                    f"draw (`k1, k2, k3 = jax.random.split({_split_key_arg(f)}, 3)`); for one fresh key here, "
                    f"`jax.random.split({_split_key_arg(f)})[1]`")),
    Rule("contract-under-vmap", lambda f: f.says(r"^dot_general requires contracting dimensions to have the same shape")
         and "vmap(" in f.code,
         "a matrix product inside the mapped function got operands whose summed axes differ: each element "
         "`jax.vmap` hands it may still have an axis to map (a batch of vectors where it expects one)",
         lambda f: vmap_fix(f, _call(f, "vmap"), "if every element still holds several vectors, map over that axis "
                            "too, `jax.vmap(jax.vmap(fn))` (one `vmap` per batch axis); if an operand's axes are "
                            "swapped, transpose it (`w.T`)", moved_axis(f, _call(f, "vmap")))),
]


# ---------------------------------------------------------------- shard_map's varying manual axes
_VARYING_PAIR = r"has (?:JAX )?type (\S+?) but the corresponding output carry component has type (\S+?),"
_VARYING_COTANGENT = r"got (\S+?), but expected (\S+?) because the corresponding output"


def _axes(aval: str) -> tuple[str, ...]:
    """('rows',) from `float32[3]{V:rows}`; () when the type varies over no mesh axis."""
    m = re.search(r"\{V:([\w, ]+)\}", aval)
    return tuple(a.strip() for a in m.group(1).split(",")) if m else ()


def _varying(f: Facts, pattern: str) -> tuple[str, str, tuple[str, ...]] | None:
    """(type given, type expected, the axes only the expected one varies over), where the two types
    differ in their varying axes alone; None otherwise."""
    m = re.search(pattern, f.text)
    if not m or re.sub(r"\{V:[^}]*\}", "", m.group(1)) != re.sub(r"\{V:[^}]*\}", "", m.group(2)):
        return None
    missing = tuple(a for a in _axes(m.group(2)) if a not in _axes(m.group(1)))
    return (m.group(1), m.group(2), missing) if missing else None


def _carry_name(f: Facts) -> str:
    name = f.group(r"input carry (?:component )?(\S+) has type", 1, "the carry")
    return re.sub(r"^loop_carry\[1\]", "carry", name)


def _axes_text(axes: tuple[str, ...]) -> tuple[str, str]:
    """(`rows`, `y` for the prose; ('rows', 'y') for the code)."""
    return ", ".join(f"`{a}`" for a in axes), "(" + ", ".join(repr(a) for a in axes) + ("," if len(axes) == 1 else "") + ")"


_SHARD_MAP_TYPES = "inside `shard_map` a value's type includes the mesh axes it varies over"


def _varying_carry_cause(f: Facts) -> str:
    before, after, axes = _varying(f, _VARYING_PAIR)
    return (f"{_SHARD_MAP_TYPES}: the body returns `{_carry_name(f)}` as {after}, varying over {_axes_text(axes)[0]}, "
            f"while its initial value, {before}, is the same on every device; a carry must keep its type, axes included")


def _varying_carry_fix(f: Facts) -> str:
    axes = _varying(f, _VARYING_PAIR)[2]
    return (f"make the initial value vary over those axes before the loop: `jax.lax.pcast(init, {_axes_text(axes)[1]}, "
            f"to='varying')`, where `init` is the initial value of `{_carry_name(f)}`")


def _varying_cotangent_cause(f: Facts) -> str:
    given, expected, axes = _varying(f, _VARYING_COTANGENT)
    return (f"{_SHARD_MAP_TYPES}: the output varies over {_axes_text(axes)[0]} ({expected}), and the cotangent given "
            f"to the pullback, {given}, does not; a cotangent must have the output's type, axes included")


def _varying_cotangent_fix(f: Facts) -> str:
    axes = _varying(f, _VARYING_COTANGENT)[2]
    return (f"make the cotangent vary over those axes before passing it: `jax.lax.pcast(ct, {_axes_text(axes)[1]}, "
            f"to='varying')` (a basis such as `jnp.eye(n)` too)")


VARYING_RULES: list[Rule] = [
    Rule("varying-carry", lambda f: _varying(f, _VARYING_PAIR) is not None, _varying_carry_cause, _varying_carry_fix),
    Rule("varying-cotangent", lambda f: _varying(f, _VARYING_COTANGENT) is not None,
         _varying_cotangent_cause, _varying_cotangent_fix),
]
