"""Rules read from what JAX's message says it wants, and from how the student's line is written, not
from one case's wording (issue 38: fixes that carry over to mistakes no rule was written from):

- the line's own syntax: `a < b & c > d` is Python's chained comparison around `b & c` (`&` binds tighter
  than `<`), whatever JAX then says about it; a condition under jit computed from constants only;
- a dtype JAX names as the one it accepts (integer indices, complex inputs, booleans for `&`);
- JAX's own tip naming a similar function (`jnp.add` for `lax.add`), with the student's call rewritten;
- what JAX's message lists as present or supported (the platforms, the index modes, the axes of size 1);
- where JAX's machinery, not the student's line, called the student's code: a constructor JAX calls
  with the fields as keywords, a function `jax.tree.map` gave array leaves to;
- a property called like a method (`x.device()`): the name is a property of JAX's arrays.

`EARLY_RULES` come before the table's generic rules for the same exception (`api_rules`); `LATE_RULES`
only where no rule knows the message (`fallback_rules`). A fix is an instruction only where the line's
syntax settles it (the chained comparison); every other fix is a guess (`trial_texts.GUESS`).
"""
from __future__ import annotations

import ast
import re

from .rule_facts import Facts, Rule
from .trial_texts import guess

_TREE_MAPS = r"\b(?:jax\.tree\.map|tree_util\.tree_map|jax\.tree_map|tree_map|tree\.map)\("


def _expr(f: Facts):
    """The failing statement's expression (the test of an `if`/`while`), parsed; None if it does not parse."""
    text = (f.stmt.get("source") or f.code or "").strip()
    for candidate in (text, text.rstrip(":")):
        for prefix in ("return ", "if ", "elif ", "while ", "assert "):
            if candidate.startswith(prefix):
                candidate = candidate[len(prefix):]
                break
        candidate = re.sub(r"^[\w.,\s\[\]]+=(?!=)\s*", "", candidate)
        try:
            return ast.parse(candidate.rstrip(":"), mode="eval").body
        except SyntaxError:
            continue
    return None


def call_text(code: str, start: int) -> str:
    """The call that starts at `start` in `code` up to its closing parenthesis, or ''."""
    depth = 0
    for i in range(code.find("(", start), len(code)):
        depth += {"(": 1, ")": -1}.get(code[i], 0)
        if depth == 0:
            return code[start:i + 1]
    return ""


# ---------------------------------------------------------------- `a < b & c > d`: a chained comparison
_BITOPS = {ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}


def _chained_bitop(f: Facts) -> tuple[str, str] | None:
    """(the comparison as written, it with each comparison in parentheses) where the line compares
    around `&`/`|` without parentheses: `a < b & c > d` is `a < (b & c) > d` in Python."""
    root = _expr(f)
    for node in ast.walk(root) if root is not None else ():
        if isinstance(node, ast.Compare) and len(node.ops) == 2 and isinstance(node.comparators[0], ast.BinOp) \
                and type(node.comparators[0].op) in _BITOPS:
            mid = node.comparators[0]
            left = ast.Compare(node.left, [node.ops[0]], [mid.left])
            right = ast.Compare(mid.right, [node.ops[1]], [node.comparators[1]])
            return ast.unparse(node), f"({ast.unparse(left)}) {_BITOPS[type(mid.op)]} ({ast.unparse(right)})"
    return None


def _bitop_error(f: Facts) -> bool:
    return (f.says(r"^(and|or|xor|bitwise_and|bitwise_or) does not accept dtype") or f.is_("TracerBoolConversionError")
            or f.says(r"truth value of an array")) and _chained_bitop(f) is not None


# ---------------------------------------------------------------- a condition under jit from constants only
def _host_condition(f: Facts) -> str:
    """The `if` test rewritten on NumPy's side (`np.all(np.asarray(c) <= 0)`) where JAX says the value
    became a tracer by JAX operations and names no argument: the condition reads constants only."""
    if not (f.is_("TracerBoolConversionError") and f.kind in ("if", "while", "assert") and f.desc.get("from_operations")
            and not f.desc.get("traced_args")):
        return ""
    root = _expr(f)
    if root is None or not any(isinstance(n, ast.Compare) for n in ast.walk(root)):
        return ""

    class Host(ast.NodeTransformer):
        def visit_Compare(self, node):
            wrap = lambda e: ast.parse(f"np.asarray({ast.unparse(e)})", mode="eval").body \
                if isinstance(e, (ast.Name, ast.Attribute, ast.Subscript)) else e  # noqa: E731
            return ast.Compare(wrap(node.left), node.ops, [wrap(c) for c in node.comparators])

        def visit_Attribute(self, node):
            node = self.generic_visit(node)
            if isinstance(node.value, ast.Name) and node.value.id == "jnp":
                return ast.Attribute(ast.Name("np", ast.Load()), node.attr, node.ctx)
            return node
    return ast.unparse(Host().visit(root))


# ---------------------------------------------------------------- a dtype JAX names as the one it accepts
def _transformed_arg(f: Facts) -> str:
    """`x` of `jax.jacrev(fn, ...)(x)` on the line, or ''."""
    m = re.search(r"\b(?:jax\.)?(?:grad|jacrev|jacfwd|hessian|vjp|jvp|value_and_grad)\(.*\)\((\w+)[,)]", f.code)
    return m.group(1) if m else ""


def _wanted_dtype(f: Facts) -> str:
    """'integer' or 'complex' where JAX's message says a value must have that dtype and got another."""
    if f.says(r"(?i)\bindices must be of integer type|must be (of )?(an )?integer (type|dtype), got|"
              r"index(es|ices)? must be integers?"):
        return "integer"
    if f.says(r"requires (inputs|outputs) with complex dtype|with holomorphic=True requires inputs"):
        return "complex"
    return ""


def _dtype_fix(f: Facts) -> str:
    if _wanted_dtype(f) == "integer":
        got = f.group(r"got (\w+)") or "a float dtype"
        return guess(f"make the indices integers: `.astype(jnp.int32)` on the value passed as indices (it is {got}; "
                     f"indices computed with `/` are floats, `//` keeps them integer)")
    x = _transformed_arg(f) or "x"
    return guess(f"give it complex inputs: `{x}.astype(jnp.complex64)` (`holomorphic=True` differentiates a "
                 f"complex function of complex inputs; for real inputs drop `holomorphic=True`)")


# ---------------------------------------------------------------- JAX's tip: a similar function
_TIP = r"Tip: (jnp\.(\w+)) is a similar function"
_LAX_FN = r"^(lax\.\w+) requires arguments"


def _tip_call(f: Facts) -> str:
    """The student's `lax.add(a, b)` rewritten as the function JAX's tip names (`jnp.add(a, b)`), or ''."""
    name = f.group(r"^lax\.(\w+) requires arguments") if f.group(_TIP) else ""
    m = re.search(rf"(?<![\w.])(?:jax\.)?lax\.{name}\(", f.code) if name else None
    call = call_text(f.code, m.start()) if m else ""
    return re.sub(rf"^(?:jax\.)?lax\.{name}", f.group(_TIP), call) if call else ""


# ---------------------------------------------------------------- what the message lists
_BACKEND = r"Unknown backend:? '?(\w+)'? requested.*?Platforms present are: ([\w, ]+)"


def _squeeze_axes(f: Facts) -> list[int]:
    shape = f.group(r"cannot select an axis to squeeze out which has size not equal to one, got shape=\(([\d, ]*)\)")
    dims = [int(d) for d in re.findall(r"\d+", shape)]
    return [i for i, d in enumerate(dims) if d == 1] if shape else []


def _squeeze_fix(f: Facts) -> str:
    axes = _squeeze_axes(f)
    rank = len(re.findall(r"\d+", f.group(r"got shape=\(([\d, ]*)\)")))
    named = ", ".join(f"`axis=-1` (the last axis)" if a == rank - 1 else f"`axis={a}`" for a in axes)
    return guess(f"squeeze the axis of size 1: {named}" if len(axes) == 1 else
                 f"squeeze an axis of size 1 ({named}), or leave `axis` out to squeeze them all")


def _one_d_only(f: Facts) -> str:
    """`jax.scipy.signal.convolve(...)`: the student's 1-D-only `jnp` call, N-dimensional, or ''."""
    name = f.group(_ONE_D)
    m = re.search(rf"(?<![\w.])(?:jnp|jax\.numpy)\.{name}\(", f.code) if name else None
    if not m:
        return ""
    import jax.scipy.signal as signal
    if not hasattr(signal, name):
        return ""
    call = call_text(f.code, m.start())
    return re.sub(rf"^(?:jnp|jax\.numpy)\.{name}", f"jax.scipy.signal.{name}", call)


# ---------------------------------------------------------------- JAX's machinery calling the student's code
_INIT = r"^(?:[\w.<>]+\.)?(\w+)\.__init__\(\) got an unexpected keyword argument '(\w+)'"


def _jax_built_it(f: Facts) -> bool:
    """A constructor called with a keyword the line does not pass: JAX rebuilt the object (a pytree's
    unflatten passes a registered dataclass its fields as keywords)."""
    keyword = f.group(_INIT, 2)
    return bool(keyword) and not re.search(rf"\b{keyword}\s*=", f.code) and bool(
        re.search(_TREE_MAPS + r"|\bjax\.(jit|vmap|grad|tree\.\w+|tree_util\.\w+)\(|\blax\.(scan|cond|fori_loop|while_loop)\(",
                  f.code))


_ARRAY_ATTR = r"'(?:[\w.]+\.)?(ArrayImpl|\w*Tracer)' object has no attribute '(\w+)'"


def _leaf_attribute(f: Facts) -> str:
    """The attribute a function given to `jax.tree.map` reads from what it takes as a container, while
    tree.map hands it the array leaves; '' otherwise."""
    name = f.group(_ARRAY_ATTR, 2)
    return name if name and re.search(_TREE_MAPS, f.code) and re.search(rf"\.{name}\b", f.code) \
        and "is_leaf" not in f.code else ""


def _called_property(f: Facts) -> str:
    """`x.device` where the line calls a property of JAX's arrays (`x.device()`) and Python says the
    value it gave is not callable; '' otherwise."""
    if not f.says(r"^'[\w.]+' object is not callable"):
        return ""
    import jax
    for m in re.finditer(r"([\w.\]\)]+)\.(\w+)\(\)", f.code):
        if isinstance(getattr(jax.Array, m.group(2), None), property):
            return f"{m.group(1)}.{m.group(2)}"
    return ""


def _property_fix(f: Facts) -> str:
    prop = _called_property(f)
    extra = " (or `.devices()`, the set of devices it lives on)" if prop.endswith(".device") else ""
    return guess(f"read it without calling it: `{prop}`{extra}")


_ANDOR = r"^(and|or) does not accept dtype (?:float|complex)"
_RAISE = r"The 'raise' mode to (\S+) is not supported"
_SQUEEZED = r"got (shape=.*)$"
_ONE_D = r"^(\w+)\(\) only supports? 1-dimensional inputs"


def _got(f: Facts) -> str:
    return f.group(r"got (\w+)") or "another dtype"


# ---------------------------------------------------------------- a pytree where a `jnp` function takes arrays
_TREE_ARG = r"^(\w+) requires ndarray or scalar arguments, got <class '(?:[\w.<>]+\.)?(\w+)'> at position (\d+)"
# classes a `jnp` function refuses that are not containers of arrays (a list has its own rules: `jnp.asarray`)
_NOT_TREES = {"NoneType", "str", "list", "tuple", "set", "function", "generator", "zip", "map", "range", "bytes",
              "method", "builtin_function_or_method", "type", "int", "float", "complex", "bool"}


def _tree_mapped(f: Facts) -> str:
    """The student's `jnp.where(done, fresh, stepped)` mapped over the trees from the position JAX names
    on (each plain name there a tree of the same structure): `jax.tree.map(lambda a, b: ..., fresh, stepped)`."""
    name, position = f.group(_TREE_ARG), int(f.group(_TREE_ARG, 3) or 0)
    if f.group(_TREE_ARG, 2) in _NOT_TREES:
        return ""
    m = re.search(rf"(?<![\w.])(?:jnp|jax\.numpy|np)\.{name}\(", f.code) if name else None
    node = _expr(Facts({"where": {"code": call_text(f.code, m.start())}})) if m else None
    if not isinstance(node, ast.Call) or node.keywords or position >= len(node.args):
        return ""
    trees = [i for i, a in enumerate(node.args) if i >= position and isinstance(a, ast.Name)]
    if position not in trees:
        return ""
    params = dict(zip(trees, "abcdef"))
    body = ast.unparse(ast.Call(node.func, [ast.Name(params[i]) if i in params else a for i, a in enumerate(node.args)], []))
    return (f"jax.tree.map(lambda {', '.join(params.values())}: {body}, "
            f"{', '.join(ast.unparse(node.args[i]) for i in trees)})")


# ---------------------------------------------------------------- a custom rule's output wrapped in a container
_RULE_TREES = r"Original output: PyTreeDef\((.*)\)\s*\n\s*Rule output: PyTreeDef\((.*)\)"


def _wrapped(f: Facts) -> str:
    """'list' or 'tuple' where a custom rule returned the original function's output structure wrapped in
    one (`[*]` for `*`), '' otherwise."""
    original, rule = f.group(_RULE_TREES), f.group(_RULE_TREES, 2)
    if not original or not f.says(r"^structure of output returned by custom \w+ rule"):
        return ""
    return "list" if rule == f"[{original}]" else "tuple" if rule == f"({original},)" else ""


EARLY_RULES: list[Rule] = [
    Rule("chained-bitop", _bitop_error,
         lambda f: (f"`&` and `|` bind tighter than comparisons in Python: `{_chained_bitop(f)[0]}` is the chained "
                    f"comparison around the bitwise operation in the middle, not two comparisons joined"),
         lambda f: f"put each comparison in parentheses: `{_chained_bitop(f)[1]}`"),
    Rule("host-condition", lambda f: bool(_host_condition(f)),
         "the condition reads no argument of the jitted function, but under jit JAX's operations on its arrays "
         "(a comparison of a JAX array, a `jnp` call) are traced even on constants, so Python cannot read the result",
         lambda f: guess(f"compute the condition with NumPy on the concrete values, at trace time: "
                         f"`{_host_condition(f)}`")),
]

LATE_RULES: list[Rule] = [
    Rule("tree-argument", lambda f: bool(_tree_mapped(f)),
         lambda f: (f"`jnp.{f.group(_TREE_ARG)}` takes arrays, and argument {f.group(_TREE_ARG, 3)} is a "
                    f"`{f.group(_TREE_ARG, 2)}` of them (a pytree)"),
         lambda f: guess(f"apply it leaf by leaf: `{_tree_mapped(f)}`")),
    Rule("rule-output-wrapped", lambda f: bool(_wrapped(f)),
         lambda f: (f"the custom rule returns its output wrapped in a {_wrapped(f)} (`{f.group(_RULE_TREES, 2)}`), "
                    f"while the original function returns `{f.group(_RULE_TREES)}`"),
         lambda f: guess(f"return the output with the same structure as the original function, not wrapped in a "
                         f"{_wrapped(f)}: e.g. `return out, batched` for the output and its batched flag")),
    Rule("wanted-dtype", lambda f: f.is_("TypeError") and bool(_wanted_dtype(f)),
         lambda f: f"JAX wants {_wanted_dtype(f)} values here and got {_got(f)}",
         _dtype_fix),
    Rule("bitop-floats", lambda f: f.says(_ANDOR),
         lambda f: f"`&`/`|` (`{f.group(_ANDOR)}`) are bitwise: they take integers and booleans, and got floats",
         lambda f: guess("compare first, then join the booleans: `(a > 0) & (b < 1)`, or `jnp.logical_and(a > 0, b < 1)` "
                         "(`&` binds tighter than `<`, so each comparison needs its parentheses)")),
    Rule("tip-similar", lambda f: bool(_tip_call(f)),
         lambda f: (f"`{f.group(_LAX_FN)}` takes arguments of one dtype only (no promotion); JAX's tip names "
                    f"`{f.group(_TIP)}`, which promotes them"),
         lambda f: guess(f"`{_tip_call(f)}` (it promotes the dtypes as NumPy does), or cast one argument with "
                         f"`.astype(...)` first")),
    Rule("backend-absent", lambda f: f.says(_BACKEND),
         lambda f: f"this machine has no `{f.group(_BACKEND)}` backend: JAX found only `{f.group(_BACKEND, 2).strip()}`",
         lambda f: guess("take the default backend's devices, `jax.devices()` (the GPU where there is one, else the "
                         "CPU), or ask for `jax.devices('cpu')`")),
    Rule("raise-mode", lambda f: f.says(_RAISE),
         lambda f: f"`mode='raise'` is not supported by `{f.group(_RAISE)}`: compiled code cannot "
                   f"raise on an out-of-bounds index",
         guess("pass `mode='fill'` (an out-of-bounds index gives `fill_value`) or `mode='clip'` (the nearest index); "
               "to catch bad indices, check them with `checkify`")),
    Rule("squeeze-axis", lambda f: bool(_squeeze_axes(f)),
         lambda f: f"`squeeze` was asked for an axis whose size is not 1 ({f.group(_SQUEEZED)})",
         _squeeze_fix),
    Rule("one-d-only", lambda f: bool(_one_d_only(f)),
         lambda f: f"`jnp.{f.group(_ONE_D)}` is NumPy's 1-D function; the arrays have more dimensions",
         lambda f: guess(f"the N-dimensional version: `{_one_d_only(f)}`")),
    Rule("jax-built-it", lambda f: f.is_("TypeError") and _jax_built_it(f),
         lambda f: (f"JAX rebuilt a `{f.group(_INIT)}` by calling its constructor with every field as a keyword "
                    f"(`{f.group(_INIT, 2)}=...`, how a registered dataclass is unflattened), and its `__init__` takes "
                    f"other parameters"),
         lambda f: guess(f"keep the generated `__init__` (drop the custom one, so the constructor accepts the fields) "
                         f"and build from other inputs in a `classmethod`, e.g. `{f.group(_INIT)}.from_...(...)` "
                         f"returning `cls({f.group(_INIT, 2)}=...)`")),
    Rule("leaf-attribute", lambda f: f.is_("AttributeError") and bool(_leaf_attribute(f)),
         lambda f: (f"`jax.tree.map` calls the function on every array leaf, descending into your containers, so "
                    f"it got an array where it reads `.{_leaf_attribute(f)}`"),
         lambda f: guess(f"stop at your containers: pass `is_leaf=lambda x: hasattr(x, '{_leaf_attribute(f)}')` "
                         f"(or an `isinstance` test of their class) to `jax.tree.map`")),
    Rule("called-property", lambda f: f.is_("TypeError") and bool(_called_property(f)),
         lambda f: f"`{_called_property(f).rsplit('.', 1)[1]}` is a property of JAX's arrays, not a method: "
                   f"reading it gives the value, and the `()` after it calls that value",
         _property_fix),
]
