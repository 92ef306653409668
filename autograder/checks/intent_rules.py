"""Rules where the student's line shows what was meant and JAX's message says what stood in the way,
written after the eighteenth held-out batch's first run (`tests/mistakes/heldout_error_mistakes_18.py`),
one per kind of mistake it met and no rule told (issue 38: a property of the mistake, not one case):

- the line's own shape: two names unpacked from `jax.grad(f)(x, y)` (a gradient per argument), two names
  unpacked from `jax.random.split` of a key array (one key was meant), a chain of `... if ... else ...`
  on arrays (several conditions: `jnp.select`), `jax.vmap` over a list of partials of one function (map
  the function over its parameters), code written for a batch run under `jax.vmap` (`x.shape[0]` read as
  the batch size of one example);
- what JAX's message states: a function whose output length depends on values (its `size=`, read from
  the function's own signature), a treedef with another number of leaves, `shard_map`'s `in_specs`
  against the arguments given, a traced integer vector used as a shape, `defjvps` with
  `nondiff_argnums`, a `custom_gradient` function that returns its value alone, a NumPy array whose
  dtype JAX has no type for.

Written after the twenty-first: a string returned by a differentiated function (`has_aux=True`), a dict of
parameters holding integers given to `jax.grad` (split it), a `lax.scan` input laid out the other way (its
transpose), an unflatten function whose parameters are in the wrong order.

Written after the twentieth: an `if` on a traced value that guards a `raise` (a check) is told to
check outside the transformation or with `checkify`, not to choose with `jnp.where`.

A fix is an instruction where the message or the line settles it, and a guess (`trial_texts.GUESS`)
where the student's intent decides. Part of `stated_rules.STATED_RULES`, first.
"""
from __future__ import annotations

import ast
import inspect
import re

from .convention_rules import _calls
from .rule_facts import Facts, Rule
from .trial_texts import guess

# first names that say "the function's value", not "the gradient of another argument"
_VALUE_NAMES = re.compile(r"^(loss\w*|val\w*|cost\w*|l|f|y|out\w*|energy|obj\w*|res\w*|v)$")


def _targets(f: Facts) -> list[str]:
    """The names a plain `a, b = ...` on the failing line assigns, in order."""
    m = re.match(r"^\s*\(?\s*(\w+(?:\s*,\s*\w+)+)\s*\)?\s*=[^=]", f.code)
    return [n.strip() for n in m.group(1).split(",")] if m else []


def _grad_per_argument(f: Facts) -> str:
    """`g_w, g_b = jax.grad(f)(w, b)` with no `argnums`: the line with `argnums=(0, 1)` added, or ''."""
    names = _targets(f)
    if len(names) < 2 or _VALUE_NAMES.match(names[0]) or not f.says(r"values to unpack|iteration over a 0-d array|cannot unpack"):
        return ""
    for call in ast.walk(f.parsed):
        inner = call.func if isinstance(call, ast.Call) else None
        if isinstance(inner, ast.Call) and ast.unparse(inner.func).split(".")[-1] == "grad" and len(inner.args) == 1 \
                and not inner.keywords and len(call.args) == len(names) and not call.keywords:
            argnums = "(" + ", ".join(str(i) for i in range(len(names))) + ")"
            fixed = ast.unparse(ast.Call(inner.func, inner.args, [ast.keyword("argnums", ast.Name(argnums))]))
            return f.code.strip().replace(ast.unparse(inner), fixed, 1) if ast.unparse(inner) in f.code else ""
    return ""


def _split_unpacked(f: Facts) -> tuple[str, str]:
    """(the key array, the line with it indexed `[0]`) for `a, b = jax.random.split(keys)` given a key array."""
    names = _targets(f)    # singular names (`layer_key, next_key`): one key's split; `keys, subkeys`: every key's
    if not (f.says(r"^split accepts a single key, but was given a key array of shape") and names) or \
            any(n.endswith("s") for n in names):
        return "", ""
    for call in _calls(f, "random.split"):
        if call.args and isinstance(call.args[0], ast.Name):
            name = call.args[0].id
            return name, re.sub(rf"(split\(\s*){name}\b", rf"\g<1>{name}[0]", f.code.strip(), count=1)
    return "", ""


def _chain_as_select(f: Facts) -> tuple[str, ...]:
    """The failing line with a chain `a if c1 else (b if c2 else d)` written `jnp.select([c1, c2], [a, b], d)`,
    and written with nested `jnp.where`s; () where the line has no such chain."""
    out = []
    for form in ("select", "where"):
        tree = f.parsed
        chain = next((n for n in ast.walk(tree) if isinstance(n, ast.IfExp) and isinstance(n.orelse, ast.IfExp)), None)
        if chain is None:
            return ()
        conds, picks, rest = [], [], chain
        while isinstance(rest, ast.IfExp):
            conds.append(ast.unparse(rest.test)), picks.append(ast.unparse(rest.body))
            rest = rest.orelse
        text = ast.unparse(rest)
        if form == "select":
            text = f"jnp.select([{', '.join(conds)}], [{', '.join(picks)}], {text})"
        for cond, pick in reversed(list(zip(conds, picks))) if form == "where" else ():
            text = f"jnp.where({cond}, {pick}, {text})"

        class _Swap(ast.NodeTransformer):
            def visit_IfExp(self, seen, chain=chain, text=text):
                return ast.parse(text, mode="eval").body if seen is chain else self.generic_visit(seen)
        out.append(ast.unparse(_Swap().visit(tree)))
    return tuple(out)


def _partials(f: Facts) -> tuple[str, str]:
    """(the function, what its first partial binds) where `jax.vmap` was given partials of one function."""
    m = re.search(r"^Argument 'functools\.partial\(<function (?:[\w.<>]+\.)?(\w+)(?: at 0x[0-9a-f]+)?>, ([^)]*)\)' "
                  r"of type '<class 'functools\.partial'>' is not a valid JAX type", f.text)
    if not m or "vmap" not in (f.desc.get("transforms") or []) or not f.stmt.get("containers_with_functions"):
        return "", ""
    return m.group(1), m.group(2)


def _partials_fix(f: Facts) -> str:
    fn, bound = _partials(f)
    example = f"`jax.vmap(lambda p: {fn}(p, ...))(jnp.array([{bound}, ...]))`"
    for lam in (n for n in ast.walk(f.parsed) if isinstance(n, ast.Lambda) and len(n.args.args) == 1):
        body, name = lam.body, lam.args.args[0].arg
        if isinstance(body, ast.Call) and isinstance(body.func, ast.Name) and body.func.id == name:
            inner = ", ".join(["p", *(ast.unparse(a) for a in body.args)])
            example = f"`jax.vmap(lambda p: {fn}({inner}))(jnp.array([{bound}, ...]))`"
    return (f"map one function over an array of its parameters, not over a list of functions: the partials differ "
            f"only in what they bind to `{fn}` (the first binds `{bound}`), so put those values in one array and "
            f"call `{fn}` with each, e.g. {example}")


def _sized_function(f: Facts) -> str:
    """`jnp.union1d` where JAX says the error arose in a `jax.numpy` function that takes `size=` (its own
    words: a traced truth asked elsewhere on a line that calls such a function is another mistake)."""
    import jax.numpy as jnp
    named = f.group(r"The error arose (?:in|for the first argument of) (?:jnp\.|jax\.numpy\.)?(\w+)\(\)")
    own = [c.split(".")[-1] for c in f.calls("jnp.", "jax.numpy.")]   # the student's call, which reached `named`
    for name in ([named] if named in own else [*own, named]) if named else []:
        fn = getattr(jnp, name, None)
        try:
            if callable(fn) and "size" in inspect.signature(fn).parameters:
                return f"jnp.{name}"
        except (TypeError, ValueError):
            continue
    return ""


def _treedef_counts(f: Facts) -> tuple[str, str]:
    """(the leaves the treedef describes, how many were given: a count, or `more`/`fewer` where JAX says none)."""
    m = re.search(r"^Too (few|many) leaves for PyTreeDef; expected (\d+)(?:, got (\d+))?", f.text)
    return (m.group(2), m.group(3) or {"few": "fewer", "many": "more"}[m.group(1)]) if m else ("", "")


def _unflatten_names(f: Facts) -> tuple[str, str]:
    for call in _calls(f, "tree.unflatten", "tree_unflatten"):
        if len(call.args) == 2:
            return ast.unparse(call.args[0]), ast.unparse(call.args[1])
    return "the treedef", "the leaves"


def _kept_leaves(f: Facts) -> str:
    """`[g(l) for l in leaves if c]` given to `unflatten` as `[g(l) if c else l for l in leaves]`, or ''."""
    for call in _calls(f, "tree.unflatten", "tree_unflatten"):
        comp = call.args[1] if len(call.args) == 2 else None
        if isinstance(comp, ast.ListComp) and len(comp.generators) == 1 and len(comp.generators[0].ifs) == 1:
            gen = comp.generators[0]
            return (f"[{ast.unparse(comp.elt)} if {ast.unparse(gen.ifs[0])} else {ast.unparse(gen.target)} "
                    f"for {ast.unparse(gen.target)} in {ast.unparse(gen.iter)}]")
    return ""


def _same_named_classes(f: Facts) -> tuple[str, str]:
    """(two classes' full names) where a tree-structure error is between two classes of one name."""
    if not f.says(r"pytree structure error: different types at key path"):
        return "", ""
    found = list(dict.fromkeys(re.findall(r"<class '([\w.<>]+)'>", f.text)))
    if len(found) == 2 and found[0].rsplit(".", 1)[-1] == found[1].rsplit(".", 1)[-1]:
        return found[0], found[1]
    return "", ""


def _specs_counts(f: Facts) -> tuple[str, str]:
    m = re.search(r"shard_map in_specs\s+At that key path, the prefix pytree shard_map in_specs has a subtree of type "
                  r"tuple of length (\d+), but the full pytree has a subtree of the same type but of length (\d+)", f.text)
    return (m.group(1), m.group(2)) if m else ("", "")


def _traced_shape(f: Facts) -> str:
    """The jit argument used as a shape, when JAX saw it as a traced integer vector."""
    if not f.says(r"^Shapes must be 1D sequences of concrete values of integer type, got \w*Tracer\(u?int\d+\[\d+\]\)"):
        return ""
    return f.arg


def _key_array_shape(f: Facts) -> str:
    return f.group(r"key array of shape (\([^)]*\))")


def _tracer_type(f: Facts) -> str:
    return f.group(r"Tracer\((u?int\d+\[\d+\])\)")


def _batch_code(f: Facts) -> tuple[str, str]:
    """(the name whose axis 0 the line takes for a batch, what to give a batch axis) on a line run under
    `jax.vmap` (`x.reshape((x.shape[0], -1))`: code written for a batch, handed one example)."""
    if "vmap" not in (f.desc.get("transforms") or []) or not f.says(
            r"^dot_general requires contracting dimensions|^Incompatible shapes for broadcasting|^matmul"):
        return "", ""
    m = re.search(r"\b(\w+)\.reshape\(\(?\s*\1\.shape\[0\]\s*,", f.code)
    if not m:
        return "", ""
    for lam in (n for n in ast.walk(f.parsed) if isinstance(n, ast.Call) and isinstance(n.func, ast.Lambda)):
        params = [a.arg for a in lam.func.args.args]
        if m.group(1) in params and params.index(m.group(1)) < len(lam.args):
            return m.group(1), ast.unparse(lam.args[params.index(m.group(1))])
    return m.group(1), m.group(1)


def _rule_owner(f: Facts) -> str:
    m = re.search(r"\b([\w.]+)\.defjvps\(", f.code)
    return m.group(1) if m else "f"


def _asarray_name(f: Facts) -> str:
    for call in _calls(f, "asarray", "array", "device_put"):
        if call.args and isinstance(call.args[0], ast.Name):
            return call.args[0].id
    return "the_array"


def _check_switch(f: Facts) -> str:
    """`if check_x and bad: raise ...`: the name that switches the check on, or ''."""
    m = re.match(r"^\s*if\s+(\w+)\s+and\b", f.code)
    return m.group(1) if m and m.group(1) not in ("not", "True") else ""


def _check_fix(f: Facts) -> str:
    switch = _check_switch(f)
    off = (f"pass `{switch}=False` where the function is transformed (it switches this check) and check the inputs "
           f"before the call" if switch else
           "turn off the check where the function is transformed and check the inputs before the call")
    return (f"{off}, where they are concrete; to keep the check inside, write it with `jax.experimental.checkify`: "
            f"`checkify.check(ok, \"message\")`, and call the function wrapped by `checkify.checkify`, which "
            f"returns the error with the result (`err.throw()` raises it)")


_DERIVATIVES = ("grad", "value_and_grad", "jacrev", "jacfwd", "hessian")


def _string_output(f: Facts) -> tuple[dict, str]:
    """(the derivative on the line, the line with `has_aux=True`) where JAX quotes a string that none of
    the line's arguments holds: the differentiated function returned it."""
    text = f.group(r"^Argument '([^']*)' of type <class 'str'> is not a valid JAX type")
    if not text or f.stmt.get("string_arguments") or text in f.code:
        return {}, ""
    for t in f.stmt.get("transformed") or []:
        for call in _calls(f, t.get("transform") or "?") if t.get("transform") in _DERIVATIVES else []:
            if call.args and ast.unparse(call.args[0]) == t.get("fn") and not call.keywords:
                new = ast.Call(call.func, call.args, [ast.keyword("has_aux", ast.Constant(True))])
                return t, f.line_with(call, new)
    return {}, ""


def _split_ints(f: Facts) -> str:
    """`jax.grad(loss)({"w": w, "n": n})`, `n` an integer, as a gradient of the float entries with the
    integer ones passed beside them (not differentiated), or ''."""
    ints = f.stmt.get("int_dict_entries") or []
    for call in ast.walk(f.parsed) if ints and f.says(r"^\w+ requires real(- or complex)?-valued inputs") else ():
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Call) and len(call.args) == 1 \
                and isinstance(call.args[0], ast.Dict) and len(call.func.args) == 1 and not call.func.keywords \
                and ast.unparse(call.func.func).split(".")[-1] in ("grad", "value_and_grad"):
            d = call.args[0]
            entries = [(k, v) for k, v in zip(d.keys, d.values) if isinstance(k, ast.Constant)]
            floats = [(k, v) for k, v in entries if k.value not in ints]
            fixed = [(k, v) for k, v in entries if k.value in ints]
            if not floats or not fixed or len(entries) != len(d.keys):
                return ""
            fn, grad = ast.unparse(call.func.args[0]), ast.unparse(call.func.func)
            as_dict = lambda pairs: ast.unparse(ast.Dict([k for k, _ in pairs], [v for _, v in pairs]))  # noqa: E731
            new = f"{grad}(lambda floats, ints: {fn}({{**floats, **ints}}))({as_dict(floats)}, {as_dict(fixed)})"
            return f.line_with(call, new)
    return ""


def _transposed_xs(f: Facts) -> tuple[str, str, int]:
    """(the array of `lax.scan`'s `xs` laid out the other way, it moved, the axis holding the others' length)."""
    sizes = [int(n) for n in re.findall(r"\d+", f.group(r"different leading axis sizes: ([\d, ]+)"))]
    shapes = f.stmt.get("scan_xs_shapes") or []
    if not sizes or len(shapes) != len(sizes) or any(shape is None for _, shape in shapes):
        return "", "", 0
    ranked = sorted(set(sizes), key=sizes.count, reverse=True)
    if len(ranked) > 1 and sizes.count(ranked[0]) == sizes.count(ranked[1]):
        return "", "", 0          # no length most arrays share: which one is laid out the other way is a guess
    common = ranked[0]
    odd = [(src, list(shape)) for (src, shape), n in zip(shapes, sizes) if n != common]
    axes = [k for k, n in enumerate(odd[0][1]) if k > 0 and n == common] if len(odd) == 1 else []
    if len(axes) != 1:
        return "", "", 0
    src, shape = odd[0]
    moved = (src[:-2] if src.endswith(".T") else f"{src}.T") if len(shape) == 2 else f"jnp.moveaxis({src}, {axes[0]}, 0)"
    return src, moved, axes[0]


def _unflatten_swapped(f: Facts) -> tuple[str, str]:
    """(the unflatten lambda on the line, it with its parameters swapped) where it star-unpacks its first
    parameter and JAX gave that parameter the aux data (`None`)."""
    for call in _calls(f, "register_pytree_node") if f.says(r"NoneType|not iterable") else []:
        un = call.args[2] if len(call.args) > 2 else None
        if isinstance(un, ast.Lambda) and len(un.args.args) == 2 and any(
                isinstance(n, ast.Starred) and isinstance(n.value, ast.Name) and n.value.id == un.args.args[0].arg
                for n in ast.walk(un.body)):
            swapped = ast.Lambda(ast.arguments(posonlyargs=[], args=un.args.args[::-1], kwonlyargs=[], kw_defaults=[],
                                               defaults=[]), un.body)
            return ast.get_source_segment(f.code.strip(), un) or ast.unparse(un), ast.unparse(swapped)
    return "", ""


INTENT_RULES: list[Rule] = [
    Rule("check-that-raises", lambda f: f.is_("TracerBoolConversionError", "ConcretizationTypeError")
         and f.kind == "if" and bool(f.stmt.get("guards_raise")),
         "the `if` decides whether to raise an error from a traced value: under `jax.jit` or `jax.vmap` the value "
         "is not known while Python runs the `if` (under `vmap` each example has its own), so a Python `raise` "
         "cannot check it",
         _check_fix),
    Rule("string-returned-by-derivative", lambda f: bool(_string_output(f)[1]),
         lambda f: (f"`{_string_output(f)[0].get('fn')}` returns a string among its outputs, and "
                    f"`jax.{_string_output(f)[0].get('transform')}` differentiates every output (a string is not a "
                    f"JAX type); none of the call's arguments is a string"),
         lambda f: (f"return the value to differentiate first and the rest beside it, `return value, extra`, and mark "
                    f"the rest as auxiliary: `{_string_output(f)[1]}` returns `(derivative, extra)`")),
    Rule("grad-of-a-dict-with-integers", lambda f: bool(_split_ints(f)),
         lambda f: (f"`jax.grad` differentiates every leaf of the dict, and "
                    f"{'the entry' if len(f.stmt.get('int_dict_entries')) == 1 else 'the entries'} "
                    f"{', '.join(repr(k) for k in f.stmt.get('int_dict_entries'))} "
                    f"{'holds an integer' if len(f.stmt.get('int_dict_entries')) == 1 else 'hold integers'} (an integer "
                    f"has no derivative)"),
         lambda f: (f"split the dict: differentiate the float entries and pass the integer ones as a second argument, "
                    f"which `jax.grad` does not differentiate: `{_split_ints(f)}`")),
    Rule("scan-xs-transposed", lambda f: bool(_transposed_xs(f)[0]),
         lambda f: (f"`lax.scan` steps through every array of `xs` along axis 0, and `{_transposed_xs(f)[0]}` has the "
                    f"others' length on axis {_transposed_xs(f)[2]}: it is laid out the other way"),
         lambda f: f"transpose it as the others are: `{_transposed_xs(f)[1]}` in `xs`"),
    Rule("unflatten-argument-order", lambda f: bool(_unflatten_swapped(f)[0]),
         lambda f: (f"JAX calls a pytree's unflatten function as `unflatten(aux_data, children)`, the aux data first, "
                    f"and `{_unflatten_swapped(f)[0]}` reads its first parameter as the children (it got the aux "
                    f"data, `None` here)"),
         lambda f: f"swap its parameters: `{_unflatten_swapped(f)[1]}`"),
    Rule("grad-per-argument", lambda f: bool(_grad_per_argument(f)),
         lambda f: (f"`jax.grad` differentiates with respect to the first argument only, so it returns one gradient, "
                    f"shaped like that argument, and the line unpacks it into {len(_targets(f))} names"),
         lambda f: f"ask for one gradient per argument with `argnums=`: `{_grad_per_argument(f)}`"),
    Rule("split-of-a-key-array", lambda f: bool(_split_unpacked(f)[0]),
         lambda f: (f"`jax.random.split` splits one key, and `{_split_unpacked(f)[0]}` is an array of keys "
                    f"of shape {_key_array_shape(f)}; the line unpacks the result as one key's split"),
         lambda f: guess(f"if `{_split_unpacked(f)[0]}` holds one key with a leftover axis, take that key: "
                         f"`{_split_unpacked(f)[1]}`; to split every key, `jax.vmap(jax.random.split)"
                         f"({_split_unpacked(f)[0]})`, whose result has the batch axis first")),
    Rule("conditions-chained", lambda f: bool(_chain_as_select(f)) and (
        f.says(r"^The truth value of an array with more than one element is ambiguous") or f.is_("TracerBoolConversionError")),
         "the line chooses among several cases with a chain of `... if ... else ...`, and each `if` asks Python for "
         "one truth value of an array",
         lambda f: (f"choose per element among several conditions with `jnp.select` (the first true condition wins, "
                    f"as in the chain): `{_chain_as_select(f)[0]}`, or nest `jnp.where`: `{_chain_as_select(f)[1]}`")),
    Rule("vmap-over-partials", lambda f: bool(_partials(f)[0]),
         lambda f: (f"`jax.vmap` maps arrays along an axis; it was given a list of functions (partials of "
                    f"`{_partials(f)[0]}`), which it cannot stack or trace"),
         _partials_fix),
    Rule("batch-code-under-vmap", lambda f: bool(_batch_code(f)[0]),
         lambda f: (f"under `jax.vmap` each call gets one example, without the batch axis, and this line takes axis 0 "
                    f"of `{_batch_code(f)[0]}` for a batch (`{_batch_code(f)[0]}.shape[0]`), so an example's own first "
                    f"axis is read as one"),
         lambda f: guess(f"give the one example its batch axis back, `jnp.expand_dims({_batch_code(f)[1]}, 0)` (or "
                         f"`{_batch_code(f)[1]}[None]`), or write the function for one example")),
    Rule("output-sized-by-values", lambda f: f.is_("ConcretizationTypeError") and bool(_sized_function(f)),
         lambda f: (f"under `jit`, `{_sized_function(f)}`'s output length would depend on the values it is given, and "
                    f"every shape must be known while tracing"),
         lambda f: (f"give `{_sized_function(f)}` a static `size=` (the most elements it can return; the rest is "
                    f"padded with `fill_value=`), or call it outside `jit`")),
    Rule("unflatten-dropped-leaves", lambda f: bool(_treedef_counts(f)[0]) and bool(_kept_leaves(f)),
         lambda f: (f"the treedef describes {_treedef_counts(f)[0]} leaves and the comprehension's `if` keeps only "
                    f"some of them: `unflatten` needs every leaf back, in order"),
         lambda f: (f"give `unflatten` all its leaves back: transform those the `if` selects and keep the other "
                    f"leaves unchanged, `{_kept_leaves(f)}`")),
    Rule("unflatten-other-treedef", lambda f: bool(_treedef_counts(f)[0]),
         lambda f: (f"`{_unflatten_names(f)[0]}` describes a tree of {_treedef_counts(f)[0]} leaves and "
                    f"`{_unflatten_names(f)[1]}` has {_treedef_counts(f)[1]}: a treedef rebuilds only the structure "
                    f"it was taken from"),
         "unflatten with the treedef of the tree these leaves came from: `leaves, treedef = jax.tree.flatten(tree)` "
         "returns both together (`jax.tree.structure(tree)` gives the treedef alone)"),
    Rule("classes-of-one-name", lambda f: bool(_same_named_classes(f)[0]),
         lambda f: (f"the trees hold two different classes with one name, `{_same_named_classes(f)[0]}` and "
                    f"`{_same_named_classes(f)[1]}`: each `class` (or `NamedTuple`) statement that runs makes a new "
                    f"class, and JAX compares classes, not names"),
         "define the class once, at module level, and build both trees with that one class (a state restored from "
         "a checkpoint included)"),
    Rule("shard-map-arguments", lambda f: bool(_specs_counts(f)[0]),
         lambda f: (f"`in_specs` gives {_specs_counts(f)[0]} specs, one per argument, and the call passes "
                    f"{_specs_counts(f)[1]} argument(s)"),
         "pass one argument per entry of `in_specs` (or give `in_specs` one entry per argument the function takes)"),
    Rule("traced-shape-vector", lambda f: bool(_traced_shape(f)),
         lambda f: (f"`{_traced_shape(f)}` is a jit argument, so it is a traced array "
                    f"({_tracer_type(f)}), and a shape must be Python ints known while tracing"),
         lambda f: (f"pass the shape as a tuple of ints and mark it static: `jax.jit(..., static_argnames='{_traced_shape(f)}')` "
                    f"called with `tuple(...)` of the sizes (an array is not hashable, a tuple is)")),
    Rule("defjvps-with-nondiff", lambda f: f.says(r"^Can't use ``defjvps`` with ``nondiff_argnums``"),
         "`defjvps` takes one rule per differentiable argument and has no place for the arguments of `nondiff_argnums`",
         lambda f: (f"define one rule with `defjvp` instead: `{_rule_owner(f)}.defjvp(rule)` with `def rule(n, primals, "
                    f"tangents)`, the nondiff arguments first, returning `(primal_out, tangent_out)`")),
    Rule("custom-gradient-value-only", lambda f: bool(_calls(f, "custom_gradient")) and f.says(
        r"^iteration over a 0-d array|^cannot unpack non-iterable|values to unpack|object is not iterable"),
         "a function given to `jax.custom_gradient` must return two things: its value and the function that maps the "
         "output's cotangent to the inputs'; this one returns its value alone",
         "return the pair: `return y, lambda g: (g * dy_dx,)` (one cotangent per input, in a tuple)"),
    Rule("numpy-dtype-without-jax-type", lambda f: f.says(
        r"^Error interpreting argument to \w+ as a JAX value\. The problematic value is of type <class 'numpy\.ndarray'>"),
         "JAX takes a NumPy array when it has a type for the array's dtype; this one's dtype has none (float128 or "
         "longdouble, object, strings or datetimes are refused)",
         lambda f: (f"convert it to a dtype JAX has before it reaches JAX, e.g. `{_asarray_name(f)}.astype(np.float64)` "
                    f"for extended-precision floats (float32 unless 64-bit mode is on)")),
]
