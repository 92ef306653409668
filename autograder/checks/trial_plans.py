"""The candidate fixes a trial tries (`trials.py`), one planner per kind of call on the failing line.

A planner runs in the process where the exception happened, on the student's source text only:
it returns a `Plan`, the candidates' labels (what a message may quote) and a `build(ns, index)`
that the trial's child calls with the failing frame's names to get a zero-argument function
tracing that candidate with `jax.eval_shape`. Only the child evaluates the student's expressions,
and only expressions that read values (`evaluable`).
"""
from __future__ import annotations

import ast
import itertools
import math

MAX_CANDIDATES = 64

_REFUSED = (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)


def evaluable(text: str) -> bool:
    """Whether `text` is an expression a trial may evaluate: any expression but an assignment
    (`:=`), `yield` or `await`. It is evaluated in the trial's child only, inside the trace of
    `jax.eval_shape`, so its calls (`jnp.ones(3)`, the student's `make_batch(key)`) are traced,
    not computed."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return False
    return not any(isinstance(node, _REFUSED) for node in ast.walk(tree))


class Untriable(Exception):
    """A name of the line holds a tracer (the line ran inside a transformation whose trace has
    ended): the candidate is reported as not tried, not as failed."""


def reader(ns: dict):
    """`read(text)`: the value of an `evaluable` expression in the failing frame's names (in the
    child only, called inside the trial's trace); `Untriable` when a name it reads holds a tracer."""
    import jax

    def read(text: str):
        code = compile(text, "<trial>", "eval")
        for name in code.co_names:
            held = ns.get(name)
            if isinstance(held, jax.core.Tracer) or (isinstance(held, (tuple, list, dict)) and any(
                    isinstance(leaf, jax.core.Tracer) for leaf in jax.tree.leaves(held))):
                raise Untriable(name)
        return eval(code, ns)                                    # noqa: S307 (`evaluable`, in the child)
    return read


class Plan:
    """Candidate fixes of one call: `labels` (what a message quotes) and `build(ns, index)`."""

    def __init__(self, kind: str, labels: list[str], build, given: str = ""):
        self.kind, self.labels, self.build, self.given = kind, labels[:MAX_CANDIDATES], build, given


def _axes_text(entries) -> str:
    inner = ", ".join(repr(e) for e in entries)
    return f"({inner},)" if len(entries) == 1 else f"({inner})"


# ---------------------------------------------------------------- vmap's in_axes
def plan_vmap(call: dict) -> Plan | None:
    """`jax.vmap(fn, in_axes=...)(a, b, ...)`: every `in_axes` of 0, 1 or None per argument (not all
    None), and, for a single argument, the student's own `in_axes` as that argument's entry (the
    container form: a tuple argument mapped entry by entry); two axes of one array as two vmaps
    (`NESTED`); and each argument that is a list or tuple of per-example entries stacked leaf by
    leaf, with the student's own `in_axes` (`STACKED`)."""
    fn, args = call.get("fn", ""), call.get("args", [])
    if call.get("transform") != "vmap" or call.get("starred") or not args or len(args) > 4 \
            or not evaluable(fn) or not all(map(evaluable, args)):
        return None
    options = {k: v for k, v in call.get("options", {}).items() if k != "in_axes"}
    if not all(evaluable(v) for v in options.values()):
        return None
    per_arg = (0, 1, None) if len(args) <= 3 else (0, None)
    combos = [c for c in itertools.product(per_arg, repeat=len(args)) if any(e is not None for e in c)]
    labels = [_axes_text(c) for c in combos]
    given = call.get("in_axes", "")
    if len(args) == 1 and given and evaluable(given):
        labels.append(f"({given},)")
    nested = _nested(given, len(args))
    if nested:
        labels.append(f"{NESTED}{nested[0]}|{nested[1]}")
    labels += [f"{STACKED}{i}" for i in range(len(args))]

    def build(ns, index):
        import jax
        import jax.numpy as jnp
        read = reader(ns)

        def trial():
            extra = {k: read(v) for k, v in options.items()}
            values = [read(a) for a in args]
            if labels[index].startswith(STACKED):      # a list of per-example entries, stacked
                i = int(labels[index][len(STACKED):])
                if not isinstance(values[i], (list, tuple)):
                    raise TypeError("not a list or tuple of entries")
                values[i] = jax.tree.map(lambda *v: jnp.stack(v), *values[i])
                axes = read(given) if given else 0
                return jax.vmap(read(fn), in_axes=axes, **extra)(*values)
            if labels[index].startswith(NESTED):
                outer, inner = labels[index][len(NESTED):].split("|")
                return jax.vmap(jax.vmap(read(fn), in_axes=read(inner)), in_axes=read(outer), **extra)(*values)
            return jax.vmap(read(fn), in_axes=read(labels[index]), **extra)(*values)
        return lambda: jax.eval_shape(trial)
    return Plan("vmap", labels, build, given)


NESTED, STACKED = "nested:", "stacked:"


def _nested(given: str, n: int):
    """`in_axes=(None, (0, None), (None, 0))`, a pair of axes given for an array: two axes mapped at
    once, which is two vmaps. The (outer, inner) `in_axes` of the nested form, or None."""
    try:
        entries = ast.literal_eval(given) if given else None
    except (ValueError, SyntaxError):
        return None
    if not isinstance(entries, (tuple, list)) or len(entries) != n:
        return None
    pairs = [e for e in entries if isinstance(e, (tuple, list))]
    if not pairs or not all(len(p) == 2 and all(x is None or type(x) is int for x in p) for p in pairs) \
            or any(not isinstance(e, (tuple, list)) and e is not None for e in entries):
        return None
    outer = tuple(e[0] if isinstance(e, (tuple, list)) else None for e in entries)
    inner = tuple(e[1] if isinstance(e, (tuple, list)) else None for e in entries)
    return _axes_text(outer), _axes_text(inner)


# ---------------------------------------------------------------- a loop's carry
_LOOPS = {"scan": ("body", "init", "xs"), "fori_loop": ("lower", "upper", "body", "init"),
          "while_loop": ("cond", "body", "init")}
KEEP, START = "keep the carry's type in the body", "start from the body's type"
START_FULL = "start from the body's shape, broadcast"
SWAP = "the body's two outputs the other way round"


def _loop_call(source: str):
    try:
        tree = ast.parse(source.strip(), mode="exec")
    except SyntaxError:
        return None, None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = ast.unparse(node.func).split(".")[-1]
            if name in _LOOPS and not any(isinstance(a, ast.Starred) for a in node.args):
                return name, node
    return None, None


def plan_carry(source: str) -> Plan | None:
    """`lax.scan(body, init, xs)` (or `fori_loop`, `while_loop`) whose carry changes type: the
    candidates, the body's new carry reshaped and cast back to the carry's type (`KEEP`), the
    initial carry reshaped and cast to the type the body returns (`START`), and the initial carry
    broadcast to that type (`START_FULL`: a scalar start for a carry that holds one value per row); for
    `scan`, also the body's two outputs swapped (`SWAP`: a body that returns `(y, carry)`).
    A reshape is kept only where the sizes agree (a singleton axis gained or lost), and the body must
    return the type it starts from, so a carry that grows at every step traces none."""
    loop, node = _loop_call(source)
    if node is None:
        return None
    names = dict(zip(_LOOPS[loop], (ast.unparse(a) for a in node.args)))
    keywords = {k.arg: ast.unparse(k.value) for k in node.keywords if k.arg}
    names.update({k: v for k, v in keywords.items() if k in _LOOPS[loop]})
    options = {k: v for k, v in keywords.items() if k not in _LOOPS[loop]}
    texts = list(names.values()) + list(options.values())
    if set(names) != set(_LOOPS[loop]) or not all(map(evaluable, texts)):
        return None

    def build(ns, index):
        import jax
        import jax.numpy as jnp
        from jax import lax
        read = reader(ns)

        def like(new, old, broadcast=False):  # `new` reshaped (same size only) or broadcast, cast to `old`'s type
            def one(n, o):
                shape = tuple(o.shape) if hasattr(o, "shape") else ()
                dtype = o.dtype if hasattr(o, "dtype") else jnp.result_type(o)
                if broadcast:
                    return jnp.broadcast_to(n, shape).astype(dtype)
                if math.prod(jnp.shape(n)) != math.prod(shape):
                    raise TypeError("the sizes differ: no reshape lines them up")
                return jnp.reshape(n, shape).astype(dtype)
            return jax.tree.map(one, new, old)

        def trial():
            v = {k: read(t) for k, t in names.items()}
            opts = {k: read(t) for k, t in options.items()}
            body, init = v["body"], v["init"]

            def run(step, start):
                if loop == "scan":
                    return lax.scan(step, start, v["xs"], **opts)
                if loop == "fori_loop":
                    return lax.fori_loop(v["lower"], v["upper"], step, start, **opts)
                return lax.while_loop(v["cond"], step, start)

            if index == 0:                   # KEEP: the body's new carry made like the one it got
                if loop == "scan":
                    return run(lambda c, x: (lambda out: (like(out[0], c), out[1]))(body(c, x)), init)
                if loop == "fori_loop":
                    return run(lambda i, c: like(body(i, c), c), init)
                return run(lambda c: like(body(c), c), init)

            if index == 3:                   # SWAP: a scan body that returns `(y, carry)`
                if loop != "scan":
                    raise TypeError("only a scan's body returns a pair")
                return run(lambda c, x: tuple(body(c, x))[::-1], init)

            def first_step(start):           # START: the initial carry made like the body's output
                if loop == "scan":
                    x = None if v["xs"] is None else jax.tree.map(lambda a: a[0], v["xs"])
                    return body(start, x)[0]
                return body(v["lower"], start) if loop == "fori_loop" else body(start)
            return run(body, like(init, jax.eval_shape(first_step, init), broadcast=index == 2))
        return lambda: jax.eval_shape(trial)
    return Plan("carry", [KEEP, START, START_FULL, SWAP], build)


# ---------------------------------------------------------------- an elementwise operation
_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**", ast.FloorDiv: "//",
        ast.Mod: "%"}


def plan_broadcast(source: str) -> Plan | None:
    """`a - b` between two names (or attributes) whose shapes do not broadcast: a new axis on
    either side (`a[:, None] - b`, `a - b[:, None]`, `a[None] - b`...) or a transpose of either."""
    try:
        tree = ast.parse(source.strip(), mode="exec")
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            a, b = ast.unparse(node.left), ast.unparse(node.right)
            if evaluable(a) and evaluable(b) and not isinstance(node.left, ast.Constant) \
                    and not isinstance(node.right, ast.Constant):
                op = _OPS[type(node.op)]
                break
    else:
        return None
    suffixes = [("[:, None]", ""), ("", "[:, None]"), ("[None]", ""), ("", "[None]"), (".T", ""), ("", ".T")]
    labels = [f"{a}{sa} {op} {b}{sb}" for sa, sb in suffixes]

    def build(ns, index):
        import jax
        sa, sb = suffixes[index]
        read = reader(ns)
        code = compile(f"a{sa} {op} b{sb}", "<trial>", "eval")        # our own text, on the values
        return lambda: jax.eval_shape(lambda: eval(code, {"a": read(a), "b": read(b)}))  # noqa: S307
    return Plan("broadcast", labels, build)


# ---------------------------------------------------------------- a method given to a transform
def plan_method(call: dict) -> Plan | None:
    """`jax.grad(Model.loss)(model, x)` (or `value_and_grad`, `vmap`, `jit`) where an argument is
    an object JAX cannot trace: for grad, `argnums=` each other position; for jit,
    `static_argnums=` that position; for vmap, `in_axes` with `None` there."""
    fn, args, transform = call.get("fn", ""), call.get("args", []), call.get("transform", "")
    if call.get("starred") or not args or len(args) > 4 or not evaluable(fn) or not all(map(evaluable, args)):
        return None
    if transform in ("grad", "value_and_grad"):
        labels = [f"argnums={i}" for i in range(1, len(args))]
    elif transform == "jit":
        labels = [f"static_argnums={i}" for i in range(len(args))]
    elif transform == "vmap":
        labels = [f"in_axes={_axes_text([None if j == i else 0 for j in range(len(args))])}"
                  for i in range(len(args))]
    else:
        return None

    def build(ns, index):
        import jax
        read = reader(ns)
        key, setting = labels[index].split("=", 1)
        transformed = getattr(jax, transform)(read(fn), **{key: read(setting)})
        if transform == "jit":
            return lambda: transformed.trace(*[read(a) for a in args])
        return lambda: jax.eval_shape(lambda: transformed(*[read(a) for a in args]))
    return Plan("method", labels, build)
