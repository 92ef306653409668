"""Rules for an input JAX's message says its function refuses, each read from that message and the failing
line, written after the twenty-second held-out batch's first run (`tests/mistakes/heldout_error_mistakes_22.py`),
one per kind of message it met that no rule knew or that a rule read the wrong way (issue 38):

- what a function takes: `jax.random.bits`' unsigned dtype, `poisson`'s integer dtype, a count given as
  `n / 2`, a typed key converted as if it were numbers, `inv` of a matrix that is not square, `interp` of a
  table of curves, `meshgrid` of a column, an `einsum` subscript with a letter too many;
- calling conventions: `custom_linear_solve`'s `solve(matvec, b)` and its auxiliary outputs, `tree.unflatten`'s
  treedef first, `tree.flatten`'s pair where the leaves were meant, `register_dataclass` as a decorator with
  its field lists, `register_pytree_node_class` on a class without the methods, `checkpoint`'s removed
  `concrete=`, `linear_transpose` of a function that is not linear, `pmap` over more entries than devices;
- what the line shows was meant: `jnp.where` choosing between two tuples, a NaN gradient from the side of a
  `jnp.where` not taken, an `is_leaf` written negated, a `tree.reduce` whose function expects whole nodes, a
  `scan` over `jnp.arange` of a per-example count under `vmap`.

A fix is an instruction where the message and the convention settle it, and a guess
(`trial_texts.GUESS`) where the student's intent decides. Part of `stated_rules.STATED_RULES`.
"""
from __future__ import annotations

import ast

from .convention_rules import _calls
from .rule_facts import Facts, Rule

_BITS_DTYPE = r"^dtype argument to `bits` must be an unsigned int dtype, got (\w+)"
_KEY_CONVERT = r"^Cannot convert_element_type from key<(\w+)> to (\w+)"
_INV = r"^Argument to inv must have shape \[\.\.\., n, n\], got \((\d+), (\d+)\)"
_EINSUM = r"^Einstein sum subscript '(\w+)' does not contain the correct number of indices for operand (\d+)"
_MESHGRID = r"^Arguments to jax\.numpy\.meshgrid must be 1D, got shapes (\[.*\])"
_SOLVE_AUX = r"^solve\(\) output shapes must match b, got \[([^\]]*)\] and \[([^\]]*)\]"
_PYTREE_CLASS = r"^type object '(\w+)' has no attribute 'tree_(un)?flatten'"
_TRANSPOSE = r"^Transpose rule \(for reverse-mode differentiation\) for '(\w+)' not implemented"
_PMAP_SQUEEZE = r"^cannot select an axis to squeeze out which has size not equal to one, got shape=\((\d+),"


def _keyword_set(f: Facts, names: tuple, keyword: str, value: str) -> str:
    """The line with `keyword=value` on its call of one of `names` (replacing any `keyword=` there), or ''."""
    for call in _calls(f, *names):
        new = ast.Call(call.func, call.args, [k for k in call.keywords if k.arg != keyword]
                       + [ast.keyword(keyword, ast.parse(value, mode="eval").body)])
        return f.line_with(call, new)
    return ""


def _division_in_count(f: Facts) -> str:
    """The line with a true division among a call's arguments made a floor division, or ''."""
    for node in ast.walk(f.parsed):
        if isinstance(node, ast.Call):
            for arg in node.args:
                if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Div):
                    return f.line_with(arg, ast.BinOp(arg.left, ast.FloorDiv(), arg.right))
    return ""


def _key_data(f: Facts) -> str:
    """`jnp.asarray(keys, dtype=...)` (or `.astype`) on the line as `jax.random.key_data(keys)`, or ''."""
    for call in _calls(f, "jnp.asarray", "jnp.array", "astype"):
        subject = call.func.value if ast.unparse(call.func).endswith("astype") and isinstance(call.func, ast.Attribute) \
            else (call.args[0] if call.args else None)
        if subject is not None:
            return f.line_with(call, f"jax.random.key_data({ast.unparse(subject)})")
    return ""


def _poisson_cast(f: Facts) -> str:
    """`jax.random.poisson(..., dtype=float)` on the line as integer draws cast after, or ''."""
    for call in _calls(f, "random.poisson", "random.binomial"):
        dtype = [k for k in call.keywords if k.arg == "dtype"]
        if dtype:
            drawn = ast.Call(call.func, call.args, [k for k in call.keywords if k.arg != "dtype"])
            return f.line_with(call, f"{ast.unparse(drawn)}.astype({ast.unparse(dtype[0].value)})")
    return ""


def _interp_rows(f: Facts) -> str:
    calls = [c for c in _calls(f, "interp") if len(c.args) == 3]
    if not calls:
        return ""
    x, xp, fp = (ast.unparse(a) for a in calls[0].args)
    return f"jax.vmap(lambda row: jnp.interp({x}, {xp}, row))({fp})"


def _meshgrid_vectors(f: Facts) -> str:
    """The line with `[:, None]` (or `[None, :]`) dropped from `meshgrid`'s arguments, or ''."""
    for call in _calls(f, "meshgrid"):
        args = [a.value if isinstance(a, ast.Subscript) and "None" in ast.unparse(a.slice) else a for a in call.args]
        if any(a is not b for a, b in zip(args, call.args)):
            return f.line_with(call, ast.Call(call.func, args, call.keywords))
    return ""


def with_first_parameter(f: Facts, node: ast.Lambda, first: str) -> str:
    """The line with lambda `node` given `first` as a new first parameter (a function JAX calls with one more)."""
    return f.line_with(node, f"lambda {first}, {ast.unparse(node)[len('lambda '):]}")


def _solve_call(f: Facts) -> ast.Call | None:
    calls = _calls(f, "custom_linear_solve")
    return calls[0] if calls else None


def _solve_two_arguments(f: Facts) -> str:
    """The line with `solve=lambda b: ...` as `solve=lambda matvec, b: ...`, or ''."""
    call = _solve_call(f)
    for k in call.keywords if call and f.says(r"takes 1 positional argument but 2 were given") else []:
        if k.arg in ("solve", "transpose_solve") and isinstance(k.value, ast.Lambda) and len(k.value.args.args) == 1:
            return with_first_parameter(f, k.value, "matvec")
    return ""


def _unflatten_swapped(f: Facts) -> str:
    for call in _calls(f, "tree.unflatten", "tree_unflatten") if f.says(r"has no attribute 'unflatten'") else []:
        if len(call.args) == 2:
            return f.line_with(call, ast.Call(call.func, call.args[::-1], call.keywords))
    return ""


def _flatten_as_leaves(f: Facts) -> str:
    """The line with `jax.tree.flatten(t)` given to another call as `jax.tree.leaves(t)`, or ''."""
    for call in ast.walk(f.parsed):
        if isinstance(call, ast.Call):
            for arg in call.args:
                if isinstance(arg, ast.Call) and ast.unparse(arg.func).endswith(("tree.flatten", "tree_flatten")):
                    name = ast.unparse(arg.func)
                    leaves = name[:-len("flatten")] + "leaves"
                    return f.line_with(arg, ast.Call(ast.parse(leaves, mode="eval").body, arg.args, arg.keywords))
    return ""


def _dataclass_decorator(f: Facts) -> str:
    """`@jax.tree_util.register_dataclass(data_fields=..., meta_fields=...)` as a `functools.partial`, or ''."""
    line = f.code.strip()
    if not line.startswith("@") or not f.says(r"missing 1 required positional argument: 'nodetype'"):
        return ""
    try:
        call = ast.parse(line[1:], mode="eval").body
    except SyntaxError:
        return ""
    if isinstance(call, ast.Call) and not call.args and call.keywords:
        return "@" + ast.unparse(ast.Call(ast.parse("functools.partial", mode="eval").body, [call.func], call.keywords))
    return ""


def _cond_of_tuples(f: Facts) -> str:
    """`jnp.where(p, a(), b())` (both sides calls or tuples) on the line as `lax.cond(p, lambda: a(), lambda: b())`."""
    for call in _calls(f, "jnp.where") if f.says(r"^where requires ndarray or scalar arguments, got <class 'tuple'>") else []:
        if len(call.args) == 3 and all(isinstance(a, (ast.Call, ast.Tuple)) for a in call.args[1:]):
            sides = [ast.Lambda(ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), a)
                     for a in call.args[1:]]
            return f.line_with(call, ast.Call(ast.parse("lax.cond", mode="eval").body, [call.args[0], *sides], []))
    return ""


def _where_under_grad(f: Facts) -> tuple[str, str]:
    """(the cond form, the safe-input form) of `jnp.where(p, g(x), c)` on a differentiated line, or ('', '')."""
    if not f.is_("FloatingPointError") or not _calls(f, "grad", "value_and_grad", "jacrev", "jacfwd"):
        return "", ""
    for call in _calls(f, "jnp.where"):
        if len(call.args) == 3 and isinstance(call.args[1], ast.Call) and len(call.args[1].args) == 1:
            pred, risky, other = call.args
            empty = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
            cond = ast.Call(ast.parse("lax.cond", mode="eval").body,
                            [pred, ast.Lambda(empty, risky), ast.Lambda(empty, other)], [])
            inner = risky.args[0]
            safe_in = ast.Call(call.func, [pred, inner, ast.Constant(1.0)], [])
            safe = ast.Call(call.func, [pred, ast.Call(risky.func, [safe_in], risky.keywords), other], [])
            return f.line_with(call, cond), f.line_with(call, safe)
    return "", ""


def _negated_is_leaf(f: Facts) -> str:
    """The line with an `is_leaf=lambda n: not ...` predicate un-negated, or ''."""
    for call in ast.walk(f.parsed) if f.says(r"values to unpack|not iterable|has no attribute") else ():
        for k in call.keywords if isinstance(call, ast.Call) else []:
            if k.arg == "is_leaf" and isinstance(k.value, ast.Lambda) and isinstance(k.value.body, ast.UnaryOp) \
                    and isinstance(k.value.body.op, ast.Not):
                return f.line_with(k.value.body, k.value.body.operand)
    return ""


def _reduce_over_nodes(f: Facts) -> bool:
    """A `tree.reduce` on the line whose function applies `tree.map` to its arguments: it expects nodes."""
    return any(isinstance(c.args[0], ast.Lambda) and any(
        isinstance(n, ast.Call) and ast.unparse(n.func).endswith(("tree.map", "tree_map")) for n in ast.walk(c.args[0]))
        for c in _calls(f, "tree.reduce", "tree_reduce") if c.args and not any(k.arg == "is_leaf" for k in c.keywords))


def _scan_over_range(f: Facts) -> str:
    """`lax.scan(step, init, jnp.arange(n))` on the line as the `fori_loop` that takes a traced `n`, or ''."""
    if not f.says(r"It arose in the jnp\.arange argument 'stop'") or "BatchTracer" not in f.text:
        return ""
    for call in _calls(f, "lax.scan", "jax.lax.scan"):
        if len(call.args) == 3 and isinstance(call.args[2], ast.Call) and ast.unparse(call.args[2].func).endswith("arange") \
                and len(call.args[2].args) == 1:
            step, init, stop = ast.unparse(call.args[0]), ast.unparse(call.args[1]), ast.unparse(call.args[2].args[0])
            return f"lax.fori_loop(0, {stop}, lambda i, carry: {step}(carry, i)[0], {init})"
    return ""


def _logging_callback(f: Facts) -> str:
    """`io_callback(fn, None, args...)` on the line (a callback that returns nothing) as `jax.debug.callback`."""
    for call in _calls(f, "io_callback"):
        if len(call.args) >= 2 and isinstance(call.args[1], ast.Constant) and call.args[1].value is None:
            return f.line_with(call, ast.Call(ast.parse("jax.debug.callback", mode="eval").body,
                                              [call.args[0], *call.args[2:]], []))
    return ""


def _transpose_as_vjp(f: Facts) -> str:
    """`jax.linear_transpose(f, x)(ct)` on the line as `jax.vjp(f, x)[1](ct)`, or ''."""
    for call in ast.walk(f.parsed):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Call) \
                and ast.unparse(call.func.func).endswith("linear_transpose"):
            vjp = ast.parse(ast.unparse(call.func.func)[:-len("linear_transpose")] + "vjp", mode="eval").body
            return f.line_with(call, ast.Call(ast.Subscript(ast.Call(vjp, call.func.args, []), ast.Constant(1)),
                                              call.args, call.keywords))
    return ""


INPUT_RULES: list[Rule] = [
    # ---- what a function takes
    Rule("bits-unsigned", lambda f: f.says(_BITS_DTYPE),
         lambda f: (f"`jax.random.bits` gives raw random bits, which are unsigned integers; `{f.group(_BITS_DTYPE)}` is "
                    f"not one"),
         lambda f: (f"ask for an unsigned dtype: `{_keyword_set(f, ('random.bits',), 'dtype', 'jnp.uint32')}`; for "
                    f"floats in [0, 1) draw `jax.random.uniform` instead" if _keyword_set(f, ("random.bits",), "dtype", "x")
                    else "ask for an unsigned dtype (`dtype=jnp.uint32`); for floats draw `jax.random.uniform`")),
    Rule("poisson-integer-dtype", lambda f: f.says(r"^Invalid integer data type '\w+'") and bool(_poisson_cast(f)),
         "`jax.random.poisson` draws counts, which are integers: its `dtype=` must be an integer type",
         lambda f: f"draw integers, then cast: `{_poisson_cast(f)}`"),
    Rule("count-true-division", lambda f: f.says(r"^'float' object cannot be interpreted as an integer") and bool(_division_in_count(f)),
         "`/` always gives a Python float, and a count (of keys, of steps, a size) must be a Python int",
         lambda f: f"divide with `//` to keep a Python int (or wrap the quotient in `int(...)`): `{_division_in_count(f)}`"),
    Rule("typed-key-as-numbers", lambda f: f.says(_KEY_CONVERT),
         lambda f: (f"a typed key (`key<{f.group(_KEY_CONVERT)}>`) is not a number and cannot be cast to "
                    f"`{f.group(_KEY_CONVERT, 2)}`; its raw bits are read with `jax.random.key_data`"),
         lambda f: (f"read the raw bits: `{_key_data(f)}`" if _key_data(f) else
                    "read the raw bits with `jax.random.key_data(keys)` (and make keys from them again with "
                    "`jax.random.wrap_key_data`)")),
    Rule("inverse-not-square", lambda f: f.says(_INV),
         lambda f: (f"`jnp.linalg.inv` inverts square matrices only, and this one is {f.group(_INV)} by "
                    f"{f.group(_INV, 2)}: it has no inverse"),
         "for a least-squares fit use the pseudo-inverse, `jnp.linalg.pinv(A) @ b`, or solve it directly with "
         "`jnp.linalg.lstsq(A, b)[0]`"),
    Rule("interp-one-curve", lambda f: f.says(r"^xp and fp must be one-dimensional arrays of equal size") and bool(_interp_rows(f)),
         "`jnp.interp` interpolates one curve: `xp` and `fp` are 1-D and of one length",
         lambda f: (f"if `fp` holds one curve per row, interpolate each row with `jax.vmap`: `{_interp_rows(f)}`; "
                    f"otherwise give `xp` and `fp` the same length")),
    Rule("meshgrid-vectors", lambda f: f.says(_MESHGRID),
         lambda f: (f"`jnp.meshgrid` takes 1-D coordinate vectors and makes the grid's axes itself; it got shapes "
                    f"{f.group(_MESHGRID)}"),
         lambda f: (f"pass the 1-D vectors: `{_meshgrid_vectors(f)}`" if _meshgrid_vectors(f) else
                    "pass the 1-D coordinate vectors (`.ravel()` a column)")),
    Rule("einsum-letters", lambda f: f.says(_EINSUM),
         lambda f: (f"an `einsum` subscript has one letter per axis of its operand: `'{f.group(_EINSUM)}'` has "
                    f"{len(f.group(_EINSUM))} letters, and operand {f.group(_EINSUM, 2)} has another number of axes"),
         lambda f: (f"write one letter per axis for operand {f.group(_EINSUM, 2)} (a vector takes one: `'ij,j->i'` for "
                    f"a matrix times a vector), and drop the dropped letter from the output")),
    # ---- calling conventions
    Rule("linear-solve-signature", lambda f: bool(_solve_two_arguments(f)),
         "`lax.custom_linear_solve` calls `solve(matvec, b)`, with the function that applies the matrix first",
         lambda f: f"take both arguments: `{_solve_two_arguments(f)}`"),
    Rule("linear-solve-aux", lambda f: f.says(_SOLVE_AUX) and bool(_solve_call(f))
         and f.group(_SOLVE_AUX).count("(") > f.group(_SOLVE_AUX, 2).count("("),
         lambda f: (f"`solve` returned [{f.group(_SOLVE_AUX)}] where `b` is [{f.group(_SOLVE_AUX, 2)}]: the outputs "
                    f"beyond the solution are auxiliary data, which `custom_linear_solve` takes only when told"),
         lambda f: f"declare them: `{_keyword_set(f, ('custom_linear_solve',), 'has_aux', 'True')}`"),
    Rule("unflatten-arguments-swapped", lambda f: bool(_unflatten_swapped(f)),
         "`jax.tree.unflatten(treedef, leaves)` takes the treedef first; here the leaves came first, and a list "
         "has no `unflatten`",
         lambda f: f"swap them, treedef first: `{_unflatten_swapped(f)}`"),
    Rule("flatten-returns-pair", lambda f: f.says(r"requires ndarray or scalar arguments") and bool(_flatten_as_leaves(f)),
         "`jax.tree.flatten` returns a pair, the leaves and the treedef, not the leaves alone",
         lambda f: f"take the leaves: `{_flatten_as_leaves(f)}` (or unpack `leaves, treedef = jax.tree.flatten(...)`)"),
    Rule("dataclass-decorator-fields", lambda f: bool(_dataclass_decorator(f)),
         "`jax.tree_util.register_dataclass(cls, data_fields, meta_fields)` takes the class first; called with the "
         "field lists alone it is not a decorator",
         lambda f: f"bind the field lists first: `{_dataclass_decorator(f)}`"),
    Rule("pytree-class-methods", lambda f: f.says(_PYTREE_CLASS),
         lambda f: (f"`register_pytree_node_class` registers a class through its own `tree_flatten` and "
                    f"`tree_unflatten` methods, which `{f.group(_PYTREE_CLASS)}` does not define"),
         lambda f: (f"for a dataclass, register its fields instead: `jax.tree_util.register_dataclass("
                    f"{f.group(_PYTREE_CLASS)})`; otherwise define `tree_flatten(self)` and the classmethod "
                    f"`tree_unflatten(cls, aux_data, children)`")),
    Rule("checkpoint-concrete", lambda f: f.says(r"^The `concrete` option to `jax\.checkpoint` was deprecated"),
         "`jax.checkpoint`'s `concrete=True` is gone: an argument the checkpointed function uses as a Python value "
         "(in an `if`, as a count) is now marked static",
         "mark it static instead: `jax.checkpoint(f, static_argnums=(i,))`, `i` the position of each such argument"),
    Rule("callback-derivative", lambda f: f.says(r"^IO callbacks do not support JVP"),
         "`io_callback` runs Python outside what JAX traces, so JAX has no derivative for it",
         lambda f: (f"this callback returns nothing: for a side effect alone (logging, saving), use "
                    f"`jax.debug.callback`, which differentiation passes over: `{_logging_callback(f)}`" if _logging_callback(f)
                    else "wrap the function that calls it in `jax.custom_vjp` (or `jax.custom_jvp`) and give its "
                    "derivative yourself (`f.defvjp(fwd, bwd)`), or keep the callback out of what is differentiated "
                    "(call it on `lax.stop_gradient(x)`)")),
    Rule("linear-transpose-nonlinear", lambda f: f.is_("NotImplementedError") and bool(_transpose_as_vjp(f))
         and f.says(_TRANSPOSE),
         lambda f: (f"`jax.linear_transpose` transposes linear functions only, and this one is not linear in its "
                    f"input (it applies `{f.group(_TRANSPOSE)}` to it)"),
         lambda f: (f"for the vector-Jacobian product of a nonlinear function, use `jax.vjp`, which linearizes at "
                    f"the point first: `{_transpose_as_vjp(f)}`")),
    Rule("pmap-more-than-devices", lambda f: f.says(_PMAP_SQUEEZE) and f.says(r"dimensions=\(0,\)")
         and bool(_calls(f, "pmap")),
         lambda f: (f"`jax.pmap` maps axis 0 over devices, one entry per device, and this axis has "
                    f"{f.group(_PMAP_SQUEEZE)} entries, more than this machine has devices"),
         "give the mapped axis `jax.local_device_count()` entries (reshape to `(jax.local_device_count(), -1, ...)`), "
         "or map on one device with `jax.vmap`"),
    # ---- what the line shows was meant
    Rule("where-of-tuples", lambda f: bool(_cond_of_tuples(f)),
         "`jnp.where` picks between arrays elementwise; it cannot pick between two tuples of results",
         lambda f: (f"choose between the two results with `lax.cond`, which runs one side: `{_cond_of_tuples(f)}` (or "
                    f"`jax.tree.map(lambda a, b: jnp.where(pred, a, b), left, right)` to pick leaf by leaf)")),
    Rule("where-nan-gradient", lambda f: bool(_where_under_grad(f)[0]),
         "`jnp.where` computes both sides, and the derivative flows through both: where the side not taken is "
         "infinite or NaN (a `log` or a division at 0), its derivative is NaN, and 0 times NaN is NaN",
         lambda f: (f"run only the side taken with `lax.cond`, whose derivative comes from that side alone: "
                    f"`{_where_under_grad(f)[0]}`; for arrays, give the risky side a safe input where it is not "
                    f"taken: `{_where_under_grad(f)[1]}`")),
    Rule("is-leaf-negated", lambda f: bool(_negated_is_leaf(f)),
         "`is_leaf` returning True stops the traversal there, keeping that node whole as one leaf; negated, it stops "
         "at every node except the ones meant as leaves, and those are descended into",
         lambda f: f"return True for the nodes you want whole: `{_negated_is_leaf(f)}`"),
    Rule("reduce-over-nodes", lambda f: _reduce_over_nodes(f),
         "`jax.tree.reduce` hands its function leaves (arrays), never whole nodes, so a `jax.tree.map` inside it "
         "meets arrays of different fields",
         "stop the traversal at the nodes you combine, so each whole node is one leaf: "
         "`is_leaf=lambda node: isinstance(node, Node)` (`Node` your node's class)"),
    Rule("scan-over-mapped-range", lambda f: bool(_scan_over_range(f)),
         "under `jax.vmap`, the count given to `jnp.arange` is one per example, and a `scan`'s length is a shape, "
         "the same for the whole batch",
         lambda f: (f"loop with `lax.fori_loop`, whose bounds may differ per example (under `vmap` it runs to the "
                    f"largest and keeps each example's result at its own): `{_scan_over_range(f)}`")),
]

