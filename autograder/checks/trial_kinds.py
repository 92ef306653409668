"""Candidate rewrites of the failing line chosen by the KIND of error, for errors no rule's trial confirms.

Why this module: a rule reads one JAX message and fills one template; rules fitted to the batches they
were written from told about a third of a fresh batch (issue 38). What carries over to unseen mistakes is
the kind of the error (a traced value used as a Python bool, a keyword a function takes by position
only, a tuple where separate arguments belong, a cotangent of the wrong dtype, a key split into fewer
keys than names, ...): each kind has a few rewrites of the student's own statement that keep its
computation and only change how it is written. Each generator below is keyed by the kind (exception
class and a coarse family of JAX's message) and rewrites the failing statement's expression with `ast`
into candidates written in the student's own names; the trial's child (`trials.attempt_kinds`) traces
each with `jax.eval_shape` on the failing frame's names, and the message quotes those that traced
("this traces on your values: ..."), most conservative first (`RANK`).

A rewrite never drops or replaces the student's computation: it moves a keyword to its position,
unpacks a literal tuple into the arguments it lists, picks both sides of a conditional elementwise
(`jnp.where`), gives a data-dependent output a fixed `size=`, casts to the dtype JAX names, binds a
value shared by every leaf with `functools.partial`. `jax.grad(..., allow_int=True)` and the like,
which change what is computed, are not candidates.

Where the line ran under a transformation (jit, vmap), a name may hold a tracer whose trace has ended;
the child then passes an abstract value of that tracer's shape and dtype in its place (`abstract_eval`),
which is what `jax.eval_shape` would trace anyway: nothing is computed for real.
"""
from __future__ import annotations

import ast
import copy

from .trial_kind_values import GENERATORS as VALUE_GENERATORS
from .trial_kind_values import RANK as VALUE_RANK
from .trial_plans import Plan, evaluable
from .trial_rewrites import call_name, calls_named, parsed

# generator -> how conservative its rewrites are (lower first)
RANK = {"static": 0, "positional": 0, "args-tuple": 0, "in-axes": 0, "split-count": 0, "cast": 0, "partial": 1,
        "unpack": 1, "map-tuple": 1, "array-scalar": 1, "where": 2, "size": 3, "mask": 3, **VALUE_RANK}
_UNPACKS, _RANK = "__unpacks__", "__rank__"


def _statement(source: str):
    """(expression node of the failing statement, how many names it unpacks into or None)."""
    tree = parsed(source)
    if tree is not None:
        return tree.body, None
    try:
        stmt = ast.parse(source.strip(), mode="exec").body[0]
    except (SyntaxError, IndexError):
        return None, None
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        count = len(target.elts) if isinstance(target, (ast.Tuple, ast.List)) and not any(
            isinstance(e, ast.Starred) for e in target.elts) else None
        return stmt.value, count
    if isinstance(stmt, (ast.Return, ast.Expr)) and stmt.value is not None:
        return stmt.value, None
    return None, None


def _swap(root, target, replacement):
    """A copy of `root` with node `target` (by identity) replaced."""
    mapping = {}

    def clone(node):
        if isinstance(node, ast.AST):
            new = copy.copy(node)
            mapping[id(new)] = node
            for name, value in ast.iter_fields(node):
                setattr(new, name, clone(value))
            return new
        if isinstance(node, list):
            return [clone(v) for v in node]
        return node

    class SwapCopy(ast.NodeTransformer):
        def visit(self, node):
            return replacement if mapping.get(id(node)) is target else super().generic_visit(node)
    return SwapCopy().visit(clone(root))


def _e(text: str):
    return ast.parse(text, mode="eval").body


def _call(func: str, args, keywords=()):
    return ast.Call(_e(func), list(args), list(keywords))


# ---------------------------------------------------------------- the generators, by kind of error
def _bool_kind(f) -> bool:
    return f.is_("TracerBoolConversionError") or f.says(r"(?i)boolean conversion|truth value")


def gen_where(root, f):
    """A traced value's truth used by Python (`a if t else b`, `a and b`, `max(a, b)`): the same choice
    made elementwise by JAX, which traces both sides and picks, without a Python `if`."""
    if not _bool_kind(f):
        return
    for node in ast.walk(root):
        if isinstance(node, ast.IfExp):
            yield node, _call("jnp.where", [node.test, node.body, node.orelse])
        elif isinstance(node, ast.BoolOp) and len(node.values) == 2:
            op = "jnp.logical_and" if isinstance(node.op, ast.And) else "jnp.logical_or"
            yield node, _call(op, node.values)
        elif isinstance(node, ast.Call) and call_name(node) in ("max", "min") and len(node.args) == 2 \
                and not node.keywords:
            yield node, _call("jnp.maximum" if call_name(node) == "max" else "jnp.minimum", node.args)


_SIZED = {"nonzero": 0, "flatnonzero": 0, "argwhere": 0, "where": 0, "compress": 1, "unique": 0}


def gen_size(root, f):
    """An output whose size depends on the values (`jnp.nonzero`, one-argument `jnp.where`,
    `jnp.compress`, `jnp.unique`) under a transformation: the same call with a fixed `size=`, the most
    it can hold (entries past the count are padding)."""
    if not (f.is_("ConcretizationTypeError", "TracerBoolConversionError", "NonConcreteBooleanIndexError")
            or f.says(r"(?i)concrete|statically specified")):
        return
    for node in calls_named(root, *(f"jnp.{n}" for n in _SIZED), *(f"numpy.{n}" for n in _SIZED)):
        name = call_name(node).split(".")[-1]
        if any(k.arg == "size" for k in node.keywords) or (name == "where" and len(node.args) != 1) \
                or len(node.args) <= _SIZED[name] or any(isinstance(a, ast.Starred) for a in node.args):
            continue
        data = node.args[_SIZED[name]]
        size = _e(f"{ast.unparse(data)}.size") if isinstance(data, (ast.Name, ast.Attribute)) else \
            _e(f"({ast.unparse(data)}).size")
        new = copy.copy(node)
        new.keywords = list(node.keywords) + [ast.keyword("size", size)]
        yield node, new


def gen_positional(root, f):
    """Keywords a function takes by position only (JAX's `where(x=, y=)`, a `custom_vjp` function's
    keywords): the same values passed by position, in the order written."""
    named = f.group(r"positional-only arguments passed as keyword arguments: '([^']+)'") or \
        f.group(r"could not be resolved to positions: ([\w, ]+)")
    names = [n.strip() for n in named.split(",") if n.strip()]
    if not names:
        return
    for node in ast.walk(root):
        if isinstance(node, ast.Call) and {k.arg for k in node.keywords} >= set(names):
            new = copy.copy(node)
            new.args = list(node.args) + [k.value for k in node.keywords if k.arg in names]
            new.keywords = [k for k in node.keywords if k.arg not in names]
            yield node, new


def gen_unpack(root, f):
    """A literal tuple or list given where the function takes its entries as separate arguments
    (`jax.vjp(f, (w, b))` for a function of two, `jnp.arange([lo, hi])`): the entries unpacked."""
    if not (f.is_("TypeError") and f.says(r"missing \d+ required positional argument|requires ndarray, "
                                          r"scalar, or None arguments, got <class '(list|tuple)'>")):
        return
    for node in ast.walk(root):
        if not isinstance(node, ast.Call) or any(isinstance(a, ast.Starred) for a in node.args):
            continue
        for i, arg in enumerate(node.args):
            if isinstance(arg, (ast.Tuple, ast.List)) and 1 < len(arg.elts) <= 6:
                new = copy.copy(node)
                new.args = node.args[:i] + list(arg.elts) + node.args[i + 1:]
                yield node, new


def gen_array_scalar(root, f):
    """Python raised on Python numbers (a division by zero) where the line means JAX's arithmetic
    (inside `jnp.where`, which picks the other side): the divisor's names as JAX arrays, which give
    inf or nan instead of raising."""
    if not f.is_("ZeroDivisionError"):
        return
    for node in ast.walk(root):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)):
            names = [n for n in ast.walk(node.right) if isinstance(n, ast.Name)]
            if len(names) == 1:
                yield names[0], _call("jnp.asarray", [names[0]])


def gen_cast(root, f):
    """A value of one dtype where JAX expects another of the same shape (a cotangent given to a VJP
    function): the argument of the call on the line cast to the dtype JAX names."""
    got, want = f.group(r"got (\w+)(\[[\d, ]*\]), but expected"), f.group(r"but expected (\w+)(\[[\d, ]*\])")
    if not got or not want or f.group(r"got \w+(\[[\d, ]*\]), but") != f.group(r"but expected \w+(\[[\d, ]*\])"):
        return
    dtype = {"float16": "jnp.float16", "bfloat16": "jnp.bfloat16", "float32": "jnp.float32",
             "float64": "jnp.float64", "int32": "jnp.int32"}.get(want)
    if not dtype:
        return
    for node in ast.walk(root):
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords \
                and isinstance(node.func, ast.Name):
            new = copy.copy(node)
            new.args = [_call("jnp.asarray", [node.args[0], _e(dtype)])]
            yield node, new


def gen_split_count(root, f, count):
    """A key split into fewer (or more) keys than the names it is unpacked into: the count set to the
    number of names (the result's length is checked in the trial), where the count was a number written
    out (or left out); a computed count is left alone."""
    if count is None or not f.says(r"(not enough|too many) values to unpack"):
        return
    for node in calls_named(root, "random.split", "jr.split", "jrandom.split"):
        asked = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "num"), None)
        if asked is not None and not (isinstance(asked, ast.Constant) and isinstance(asked.value, int)):
            continue     # a count the student computed (`n + 1`) is what they want: `transform_rules` says so
        new = copy.copy(node)
        new.args, new.keywords = list(node.args[:1]), [k for k in node.keywords if k.arg != "num"]
        new.args.append(ast.Constant(count))
        yield node, new


_TREE_MAPS = ("jax.tree.map", "jax.tree_util.tree_map", "tree_util.tree_map", "tree.map", "tree_map")


def gen_partial(root, f):
    """`jax.tree.map(fn, value, tree)` where `value` is one leaf shared by every leaf of `tree` (a rate,
    a constant): it is bound with `functools.partial`, and tree.map walks the trees only (the trial
    checks that `value` is a single leaf)."""
    if not f.is_("TypeError", "ValueError"):
        return
    for node in calls_named(root, *_TREE_MAPS):
        if len(node.args) >= 3 and isinstance(node.args[1], (ast.Constant, ast.Name, ast.Attribute)):
            bound = _call("functools.partial", node.args[:2])
            new = copy.copy(node)
            new.args = [bound] + node.args[2:]
            yield node, new


def gen_args_tuple(root, f):
    """`args=value` where the function wants a tuple of extra arguments: `args=(value,)`."""
    if not (f.is_("TypeError") and f.says(r"args\b.{0,60}must be a tuple")):
        return
    for node in ast.walk(root):
        if isinstance(node, ast.Call):
            for k in node.keywords:
                if k.arg == "args" and not isinstance(k.value, ast.Tuple):
                    new = copy.copy(node)
                    new.keywords = [ast.keyword("args", ast.Tuple([k.value], ast.Load())) if x is k else x
                                    for x in node.keywords]
                    yield node, new


def gen_in_axes(root, f):
    """`in_axes` entries that are not axes (`True`/`False`): `True` as axis 0, `False` as `None`."""
    if not f.says(r"in_axes must be an int, None, or \(nested\) container"):
        return
    for node in calls_named(root, "vmap"):
        for k in node.keywords:
            if k.arg == "in_axes" and any(isinstance(c, ast.Constant) and isinstance(c.value, bool)
                                          for c in ast.walk(k.value)):
                class Axes(ast.NodeTransformer):
                    def visit_Constant(self, c):
                        return ast.Constant((0 if c.value else None) if isinstance(c.value, bool) else c.value)
                new = copy.copy(node)
                new.keywords = [ast.keyword("in_axes", Axes().visit(copy.deepcopy(k.value))) if x is k else x
                                for x in node.keywords]
                yield node, new


def gen_map_tuple(root, f):
    """`lax.map(fn, a, b)`: lax.map walks one `xs`; the arrays passed as one tuple, unpacked for `fn`."""
    if not (f.is_("TypeError") and f.says(r"map\(\) takes \d+ positional arguments? but \d+ were given")):
        return
    for node in calls_named(root, "lax.map"):
        if len(node.args) >= 3 and not any(isinstance(a, ast.Starred) for a in node.args):
            fn = _e(f"lambda xs: ({ast.unparse(node.args[0])})(*xs)")
            new = copy.copy(node)
            new.args = [fn, ast.Tuple(node.args[1:], ast.Load())]
            yield node, new


def gen_mask(root, f):
    """The sum of a slice whose length is traced (`jnp.sum(x[:n])`, `jnp.sum(lax.dynamic_slice(x, (0,),
    (n,)))`, `jnp.sum(x[jnp.arange(n)], axis=0)`): a fixed shape, the rows past `n` masked to 0, which
    the sum does not see. One candidate per rank (1-D, 2-D); the trial checks `x` has that rank, so the
    mask lines up with the rows and never broadcasts across another axis."""
    if not (f.is_("ConcretizationTypeError", "TypeError", "IndexError")
            and f.says(r"(?i)concrete|Shapes must be 1D sequences|must be static")):
        return
    for node in calls_named(root, "jnp.sum"):
        if len(node.args) != 1 or any(k.arg != "axis" or ast.unparse(k.value) != "0" for k in node.keywords):
            continue
        inner, x, n = node.args[0], None, None
        if isinstance(inner, ast.Subscript) and isinstance(inner.slice, ast.Slice) and inner.slice.lower is None \
                and inner.slice.step is None and inner.slice.upper is not None:
            x, n = inner.value, inner.slice.upper
        elif isinstance(inner, ast.Subscript) and isinstance(inner.slice, ast.Call) \
                and call_name(inner.slice) == "jnp.arange" and len(inner.slice.args) == 1:
            x, n = inner.value, inner.slice.args[0]
        elif isinstance(inner, ast.Call) and call_name(inner).endswith("dynamic_slice") and len(inner.args) == 3 \
                and ast.unparse(inner.args[1]) in ("(0,)", "[0]") and isinstance(inner.args[2], (ast.Tuple, ast.List)) \
                and len(inner.args[2].elts) == 1:
            x, n = inner.args[0], inner.args[2].elts[0]
        if x is None or not isinstance(x, (ast.Name, ast.Attribute)):
            continue
        xs, axis = ast.unparse(x), ", axis=0" if node.keywords else ""
        for rank, rows in ((1, ""), (2, "[:, None]")):
            shown = f"jnp.sum(jnp.where(jnp.arange({xs}.shape[0]){rows} < {ast.unparse(n)}, {xs}, 0){axis})"
            yield node, _e(shown), shown.replace(f"arange({xs}.shape", f"arange({_RANK}({xs}, {rank}).shape", 1)


def gen_static(root, f):
    """A jit argument that is not an array (an object, a string, a shape) where JAX wants arrays: the
    `jax.jit(fn)(...)` call on the line with `static_argnums=` at a position; only a position whose value
    is hashable and used as a Python value traces."""
    if not f.says(r"as an abstract array|not a valid JAX type"):
        return
    for node in ast.walk(root):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Call) and call_name(node.func) in (
                "jax.jit", "jit") and not any(k.arg in ("static_argnums", "static_argnames") for k in node.func.keywords) \
                and 0 < len(node.args) <= 4 and not any(isinstance(a, ast.Starred) for a in node.args):
            for i in range(len(node.args)):
                new = copy.copy(node)
                new.func = copy.copy(node.func)
                new.func.keywords = list(node.func.keywords) + [ast.keyword("static_argnums", ast.Constant(i))]
                yield node, new


GENERATORS = {**VALUE_GENERATORS, "positional": gen_positional, "args-tuple": gen_args_tuple, "in-axes": gen_in_axes,
              "cast": gen_cast, "partial": gen_partial, "unpack": gen_unpack, "map-tuple": gen_map_tuple,
              "array-scalar": gen_array_scalar, "where": gen_where, "size": gen_size, "mask": gen_mask,
              "static": gen_static}


def candidates(f) -> list[tuple[str, str, str, int | None]]:
    """[(generator, the rewritten node as text, the rewritten statement's expression, names it must
    unpack into or None)], most conservative first."""
    root, count = _statement((f.stmt or {}).get("source", ""))
    if root is None:
        return []
    found = []
    gens = dict(GENERATORS, **{"split-count": lambda r, facts: gen_split_count(r, facts, count)})
    for name, gen in gens.items():
        try:
            for target, new, *checked in gen(root, f):
                whole = ast.unparse(_swap(root, target, new))
                expr = f"{_UNPACKS}({whole}, {count})" if name == "split-count" else whole
                if checked:                                 # the node as the trial evaluates it (checks added)
                    expr = ast.unparse(_swap(root, target, _e(checked[0])))
                shown = ast.unparse(new) if target is not root else whole
                if isinstance(new, ast.Call) and call_name(new) == "jnp.asarray" and name == "array-scalar":
                    shown = whole
                found.append((name, shown, expr))
        except Exception:                                   # noqa: BLE001 (an odd line: no candidate)
            continue
    found = [c for c in dict(((g, s), (g, s, e)) for g, s, e in found).values() if evaluable(c[2])]
    found.sort(key=lambda c: RANK.get(c[0], 9))
    return [(g, s, e, count) for g, s, e in found][:12]


def plan_kinds(f) -> Plan | None:
    """The candidates as a trial's `Plan`: labels `generator:text`, each traced by `abstract_eval`."""
    found = candidates(f)
    if not found:
        return None
    labels = [f"{g}:{s}" for g, s, _, _ in found]

    def build(ns, index):
        gen, _, text, _ = found[index]
        return lambda: abstract_eval(ns, text, shared_leaf=gen == "partial")
    return Plan("kinds", labels, build)


def abstract_eval(ns: dict, text: str, shared_leaf: bool = False):
    """`text` evaluated inside `jax.eval_shape` on the frame's names (in the trial's child only), each
    tracer among them (a trace that has ended) replaced by an abstract value of its shape and dtype."""
    import functools

    import jax
    import jax.numpy as jnp

    tree = ast.parse(text, mode="eval")
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    slots, specs, flat = [], [], {}
    for name in sorted(names & set(ns)):
        try:
            leaves, treedef = jax.tree.flatten(ns[name])
        except Exception:                                   # noqa: BLE001
            continue
        holes = [i for i, leaf in enumerate(leaves) if isinstance(leaf, jax.core.Tracer)]
        if holes:
            flat[name] = (leaves, treedef)
            for i in holes:
                aval = leaves[i].aval
                slots.append((name, i))
                specs.append(jax.ShapeDtypeStruct(aval.shape, aval.dtype, weak_type=getattr(aval, "weak_type", False)))
    code = compile(tree, "<trial>", "eval")

    def unpacks(value, count):
        if len(value) != count:
            raise ValueError("a different number of values")
        return value

    def rank(value, r):
        if jnp.ndim(value) != r:
            raise ValueError("another rank")
        return value

    def run(*values):
        local = {"jax": jax, "jnp": jnp, "lax": jax.lax, "functools": functools, **ns, _UNPACKS: unpacks,
                 _RANK: rank}
        filled = {name: list(leaves) for name, (leaves, _) in flat.items()}
        for (name, i), v in zip(slots, values):
            filled[name][i] = v
        local.update({name: jax.tree.unflatten(flat[name][1], leaves) for name, leaves in filled.items()})
        if shared_leaf:
            _check_shared_leaf(tree, local)
        return eval(code, local)                                 # noqa: S307 (`evaluable`, in the child)
    return jax.eval_shape(run, *specs)


def _check_shared_leaf(tree, local):
    """For a `functools.partial(fn, value)` candidate: `value` must be one leaf, not a tree."""
    import jax
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and call_name(node) == "functools.partial" and len(node.args) == 2:
            value = eval(compile(ast.Expression(node.args[1]), "<trial>", "eval"), local)   # noqa: S307
            if len(jax.tree.leaves(value)) != 1 or jax.tree.leaves(value)[0] is not value:
                raise TypeError("not a single leaf")


def label_parts(label: str) -> tuple[str, str]:
    """`generator:text` -> (generator, text)."""
    gen, _, text = label.partition(":")
    return gen, text


def generator_of(label: str) -> str:
    gen = label_parts(label)[0]
    return gen if gen in RANK else ""

