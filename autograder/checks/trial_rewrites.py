"""Candidate fixes written as the student's own line, rewritten (`trials.py` traces them).

Where a rule's fix changes one call of the failing line (wrap a list in `jnp.asarray`, give a sampler
its `shape`, drop padding pairs, move a convolution's channel axis, bind a `functools.partial`
value by position, stack the entries a scan walks over, choose a branch with a Python `if`), the
planner here rewrites the line's source with `ast` and the trial's child evaluates the rewritten
expression inside `jax.eval_shape` on the failing frame's names. Each candidate is a pair: the text a
message quotes (the rewritten call) and the expression the child evaluates (the rewritten line).

One candidate is not a rewrite: `STATIC`, which asks whether a `lax.cond` predicate is decided while
tracing (it reads shapes, dtypes or Python values only). The child evaluates the predicate with every
array-valued name of it replaced by an abstract value; a Python bool out of that is static.
"""
from __future__ import annotations

import ast
import copy

from .trial_plans import Plan, Untriable, evaluable, reader

STATIC = "the predicate is known while tracing"


def parsed(source: str):
    try:
        return ast.parse(source.strip(), mode="eval")
    except SyntaxError:
        return None


def call_name(node) -> str:
    """`jax.random.uniform` for `jax.random.uniform(...)`, `` for a call of a call."""
    parts, func = [], node.func if isinstance(node, ast.Call) else node
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        parts.append(func.id)
        return ".".join(reversed(parts))
    return ""


def calls_named(tree, *names) -> list:
    """The calls of `tree` whose dotted name is one of `names` or ends with `.name` (outermost first)."""
    def hit(n):
        full = call_name(n)
        return any(full == name or full.endswith("." + name) for name in names)
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and hit(n)]


def rewritten(tree, target, replacement) -> str:
    """The source of `tree` with the node `target` (found by identity) replaced; `tree` itself is
    left as it was."""
    class Swap(ast.NodeTransformer):
        def visit(self, node):
            return replacement if getattr(node, "_original", None) is target else super().visit(node)
    copied = Swap().visit(_shallow(tree))
    return ast.unparse(copied)


def _shallow(node):
    """A copy of the tree's containers (lists of children and node objects), sharing its leaves, so
    that a rewrite does not change the original."""
    if isinstance(node, ast.AST):
        new = copy.copy(node)
        for name, value in ast.iter_fields(node):
            setattr(new, name, _shallow(value))
        new._original = node                          # the identity a rewrite looks for
        return new
    if isinstance(node, list):
        return [_shallow(v) for v in node]
    return node


def expr(text: str):
    return ast.parse(text, mode="eval").body


def plan_rewrites(candidates: list[tuple[str, str]]) -> Plan | None:
    """[(label, expression)]: each expression evaluated in `jax.eval_shape`, its label quoted."""
    candidates = [(label, e) for label, e in dict(candidates).items() if evaluable(e)]
    if not candidates:
        return None
    labels = [label for label, _ in candidates]

    def build(ns, index):
        import functools

        import jax
        read = reader({"jax": jax, "jnp": jax.numpy, "lax": jax.lax, "functools": functools, **ns})
        return lambda: jax.eval_shape(lambda: read(candidates[index][1]))
    return Plan("rewrite", labels, build)


# ---------------------------------------------------------------- a lax.cond whose predicate is static
def _branch_call(source: str):
    tree = parsed(source)
    if tree is None:
        return None, None
    found = calls_named(tree, "lax.cond", "lax.switch", "cond", "switch")
    found = [c for c in found if call_name(c).split(".")[0] in ("lax", "jax", "cond", "switch")]
    return tree, (found[0] if found else None)


def _applied(branch, ops):
    """`branch(*ops)`; a lambda of plain parameters whose operands are names is applied inline
    (`lambda u: u.reshape(3, 1)` on `v`: `v.reshape(3, 1)`)."""
    params = branch.args if isinstance(branch, ast.Lambda) else None
    if params is None or params.vararg or params.kwarg or params.kwonlyargs or params.defaults or \
            params.posonlyargs or len(params.args) != len(ops) or not all(isinstance(o, ast.Name) for o in ops) \
            or any(isinstance(n, ast.Lambda) for n in ast.walk(branch.body)):
        return ast.Call(branch, list(ops), [])
    names = {a.arg: o.id for a, o in zip(params.args, ops)}

    class Rename(ast.NodeTransformer):
        def visit_Name(self, node):
            return ast.Name(names.get(node.id, node.id), node.ctx)
    return Rename().visit(_shallow(branch.body))


def plan_static_branch(source: str) -> Plan | None:
    """`lax.cond(pred, t, f, *ops)`: `STATIC` (the predicate is decided while tracing), then the line
    with the cond replaced by a Python `if` (`t(*ops) if pred else f(*ops)`), traced."""
    tree, call = _branch_call(source)
    if call is None or call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    kind = call_name(call).split(".")[-1]
    if kind == "cond" and len(call.args) >= 3:
        pred, branches, ops = call.args[0], call.args[1:3], call.args[3:]
        chosen = ast.IfExp(test=pred, body=_applied(branches[0], ops), orelse=_applied(branches[1], ops))
    elif kind == "switch" and len(call.args) >= 2:
        pred, ops = call.args[0], call.args[2:]
        chosen = ast.Call(ast.Subscript(call.args[1], pred), list(ops), [])
    else:
        return None
    pred_text = ast.unparse(pred)
    if not evaluable(pred_text):
        return None
    quoted = ast.unparse(chosen)
    line = rewritten(scope(tree, call), call, chosen)
    labels = [STATIC, quoted]

    def build(ns, index):
        import jax
        import numpy as np
        read = reader({"jax": jax, "jnp": jax.numpy, "lax": jax.lax, **ns})
        if index == 1:
            return lambda: jax.eval_shape(lambda: read(line))

        def probe():
            code = compile(pred_text, "<trial>", "eval")
            if any(isinstance(ns.get(n), jax.core.Tracer) for n in code.co_names):
                raise Untriable(pred_text)          # the line ran under a transformation: not tried
            arrays = [n for n in code.co_names if isinstance(ns.get(n), (jax.Array, np.ndarray))]

            def decide(*values):                    # the arrays abstract: a Python bool out is static
                out = eval(code, {**ns, **dict(zip(arrays, values))})    # noqa: S307 (`evaluable`, in the child)
                if not isinstance(out, (bool, int, np.bool_, np.integer)) or isinstance(out, jax.core.Tracer):
                    raise TypeError("the predicate depends on the values")
                return 0
            jax.eval_shape(decide, *[ns[n] for n in arrays])
        return probe
    return Plan("rewrite", labels, build)


# ---------------------------------------------------------------- one argument of a call, changed
def _changed_call(call, position=None, keyword=None, value=None, wrap=None, drop=()):
    """A copy of `call` with argument `position` (or keyword `keyword`) set to `value`, or wrapped
    by `wrap(node)`; keywords in `drop` removed."""
    new = copy.copy(call)
    new.args = list(call.args)
    new.keywords = [k for k in call.keywords if k.arg not in drop]
    if position is not None and position < len(new.args):
        new.args[position] = wrap(new.args[position]) if wrap else value
    elif keyword is not None:
        old = next((k for k in new.keywords if k.arg == keyword), None)
        if old is not None:
            new.keywords = [ast.keyword(k.arg, wrap(k.value) if wrap else value) if k is old else k
                            for k in new.keywords]
        elif value is not None:
            new.keywords.append(ast.keyword(keyword, value))
        else:
            return None
    else:
        return None
    return new


def scope(tree, node):
    """What runs in the failing frame around `node`: the body of the innermost lambda of the line that
    holds it (a lambda runs in a frame of its own), else the whole line."""
    inner = tree
    for lam in ast.walk(tree):
        if isinstance(lam, ast.Lambda) and any(n is node for n in ast.walk(lam.body)):
            inner = lam.body                 # `ast.walk` is breadth-first: the innermost comes last
    return inner


def _candidates(source: str, pick, changes) -> list[tuple[str, str]]:
    """For the first call `pick(tree)` returns, each change (call -> new node or None): (the new
    node's text, what the trial evaluates: the line, or the body of the lambda of the line that holds
    the call, rewritten)."""
    tree = parsed(source)
    call = pick(tree) if tree is not None else None
    if call is None:
        return []
    out = []
    for change in changes:
        new = change(call)
        if new is not None:
            out.append((ast.unparse(new), rewritten(scope(tree, call), call, new)))
    return out


def _first(calls):
    return calls[0] if calls else None


def wrap_argument(source: str, fun: str, position: int, wrapper: str = "jnp.asarray") -> Plan | None:
    """`jnp.mean(losses)`: the argument JAX refused (`position`) given as one array, `jnp.mean(jnp.asarray(losses))`."""
    name = fun.split(".")[-1]
    literal = (ast.List, ast.Tuple, ast.ListComp)

    def pick(t):                            # the call JAX names; else (a `jnp` function built on it, as
        named = [c for c in calls_named(t, name) if len(c.args) > position  # `softmax` on `max`) the
                 and not isinstance(c.args[position], ast.Starred)]          # first call given a list
        return _first(named or [c for c in ast.walk(t) if isinstance(c, ast.Call)
                                and any(isinstance(a, literal) for a in c.args)])
    wrap = lambda a: ast.Call(expr(wrapper), [a], [])  # noqa: E731

    def every_literal(c):                   # JAX names the first list it met: the others, converted too
        new = copy.copy(c)
        new.args = [wrap(a) if i == position or isinstance(a, literal) else a for i, a in enumerate(c.args)]
        return new
    return plan_rewrites(_candidates(source, pick, [lambda c: _changed_call(c, position, wrap=wrap), every_literal]))


def _sampler_call(tree, sampler: str):
    def drawn(c):
        parts = call_name(c).split(".")
        return "random" in parts[:-1] or parts[0] in ("jr", "jrandom")
    return _first([c for c in calls_named(tree, sampler) if drawn(c)])


def _shape_at(sampler: str):
    import inspect

    import jax
    try:
        params = list(inspect.signature(getattr(jax.random, sampler)).parameters)
    except (AttributeError, TypeError, ValueError):
        return None, []
    return (params.index("shape") if "shape" in params else None), params


def sampler_shape(source: str, sampler: str, *shape_texts: str) -> Plan | None:
    """`jax.random.<sampler>(...)` with its `shape` (by position or keyword) set to each of `shape_texts`."""
    at, params = _shape_at(sampler)
    if not params:
        return None

    def change(text):
        def one(c):
            if any(k.arg == "shape" for k in c.keywords) or at is None or len(c.args) < at:
                return _changed_call(c, keyword="shape", value=expr(text))
            if len(c.args) == at:                    # the next positional argument: give it there
                new = copy.copy(c)
                new.args = list(c.args) + [expr(text)]
                return new
            return _changed_call(c, position=at, value=expr(text))
        return one
    return plan_rewrites(_candidates(source, lambda t: _sampler_call(t, sampler), [change(t) for t in shape_texts]))


def sampler_given_shape(source: str, sampler: str) -> str:
    """The text of the `shape` the call gives (by position or keyword), or ''."""
    tree = parsed(source)
    call = _sampler_call(tree, sampler) if tree else None
    at, _ = _shape_at(sampler)
    if call is None:
        return ""
    node = next((k.value for k in call.keywords if k.arg == "shape"), None)
    if node is None and at is not None and len(call.args) > at:
        node = call.args[at]
    return ast.unparse(node) if node is not None else ""


def sampler_parameters(source: str, sampler: str) -> list[str]:
    """The texts of the distribution's parameters passed in the call (`minval`, `maxval`, `p`, ...)."""
    tree = parsed(source)
    call = _sampler_call(tree, sampler) if tree else None
    _, params = _shape_at(sampler)
    if call is None or not params:
        return []
    given = dict(zip(params, call.args))
    given.update({k.arg: k.value for k in call.keywords if k.arg})
    skip = ("key", "shape", "dtype", "out_sharding", "mode", "method", "replace", "axis")
    return [ast.unparse(v) for name, v in given.items() if name not in skip]


def pad_pairs(source: str, pairs_text: str) -> Plan | None:
    """`jnp.pad(x, <pad_width>)` with its pairs replaced by `pairs_text`."""
    pick = lambda t: _first(calls_named(t, "jnp.pad", "numpy.pad"))  # noqa: E731
    return plan_rewrites(_candidates(source, pick, [
        lambda c: _changed_call(c, 1, value=expr(pairs_text)) if len(c.args) > 1 else
        _changed_call(c, keyword="pad_width", value=expr(pairs_text))]))


def literal_arg(source: str, names: tuple, position: int, keyword: str):
    """The literal value of a call's argument (a list of pairs), or None."""
    tree = parsed(source)
    call = _first(calls_named(tree, *names)) if tree else None
    if call is None:
        return None
    node = call.args[position] if len(call.args) > position else next(
        (k.value for k in call.keywords if k.arg == keyword), None)
    try:
        return ast.literal_eval(node) if node is not None else None
    except (ValueError, SyntaxError):
        return None


_CONVS = ("lax.conv", "lax.conv_general_dilated", "lax.conv_with_general_padding")


def _conv(tree):
    return _first([c for c in calls_named(tree, *_CONVS) if len(c.args) >= 2
                   and not any(k.arg == "dimension_numbers" for k in c.keywords)])


def conv_layouts(source: str) -> Plan | None:
    """A convolution given channels-last arrays: the input's last axis moved to axis 1 (NHWC to NCHW),
    the kernel's two last axes moved first (HWIO to OIHW), or both."""
    lhs = lambda a: ast.Call(expr("jnp.moveaxis"), [a, expr("-1"), expr("1")], [])  # noqa: E731
    rhs = lambda a: ast.Call(expr("jnp.moveaxis"), [a, expr("(-1, -2)"), expr("(0, 1)")], [])  # noqa: E731
    return plan_rewrites(_candidates(source, _conv, [
        lambda c: _changed_call(c, 0, wrap=lhs),
        lambda c: _changed_call(c, 1, wrap=rhs),
        lambda c: _changed_call(_changed_call(c, 0, wrap=lhs), 1, wrap=rhs)]))


def conv_missing_axis(source: str) -> Plan | None:
    """A convolution whose input has one axis fewer than its kernel: a batch axis added (and taken
    off the result), or a channel axis added."""
    def batch(c):
        new = _changed_call(c, 0, wrap=lambda a: ast.Subscript(a, expr("None")))
        return ast.Subscript(new, ast.Constant(0))

    def channel(c):
        return _changed_call(c, 0, wrap=lambda a: ast.Subscript(a, ast.Tuple([ast.Slice(), ast.Constant(None)])))
    return plan_rewrites(_candidates(source, _conv, [batch, channel]))


def partial_positional(source: str, keyword: str) -> Plan | None:
    """`functools.partial(step, decay=rate)` whose keyword is the function's first parameter, bound by
    position instead: `functools.partial(step, rate)`."""
    def pick(t):
        return _first([c for c in calls_named(t, "partial") if len(c.args) == 1
                       and any(k.arg == keyword for k in c.keywords)])

    def change(c):
        new = copy.copy(c)
        value = next(k.value for k in c.keywords if k.arg == keyword)
        new.args = [c.args[0], value]
        new.keywords = [k for k in c.keywords if k.arg != keyword]
        return new
    return plan_rewrites(_candidates(source, pick, [change]))


def scan_stacked(source: str) -> Plan | None:
    """`lax.scan(body, init, xs)` (or `lax.map(f, xs)`) whose `xs` is a list or tuple of per-step
    entries: the entries stacked leaf by leaf, `jax.tree.map(lambda *v: jnp.stack(v), *xs)`."""
    def pick(t):
        return _first([c for c in calls_named(t, "lax.scan", "lax.map") if not c.keywords or
                       all(k.arg in ("length", "reverse", "unroll", "batch_size") for k in c.keywords)])

    def change(c):
        at = 2 if call_name(c).endswith("scan") else 1
        stacked = lambda a: expr(f"jax.tree.map(lambda *v: jnp.stack(v), *{ast.unparse(a)})")  # noqa: E731
        return _changed_call(c, at, wrap=stacked) if len(c.args) > at else None
    return plan_rewrites(_candidates(source, pick, [change]))


def plain_function(source: str, name: str) -> Plan | None:
    """The line with the `custom_vjp` function `name` replaced by the function it decorates
    (`name.fun`): whether JAX differentiates it as written, in the mode the line asks for."""
    tree = parsed(source)
    used = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name] if tree else []
    if not used:
        return None

    class Plain(ast.NodeTransformer):
        def visit_Name(self, node):
            return expr(f"{name}.fun") if node.id == name else node
    run = ast.unparse(Plain().visit(_shallow(scope(tree, used[0]))))
    return plan_rewrites([(f"{name}.fun", run)])
