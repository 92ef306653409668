"""Rules for values JAX refuses as operands, and for calls wired the wrong way round, written after the
fifth held-out batch's first run (`tests/mistakes/heldout_error_mistakes_5.py`), one per kind of JAX
message that batch met and no rule knew:

- Python lists where `jax.numpy` wants an array; functions inside the trees a transform traces or
  `jax.tree.map` walks (activations, norms kept beside the parameters);
- calls whose arguments do not fit: a sampler's `shape` against its parameters, `jnp.pad`'s pairs
  against the array's axes, a convolution's layouts and axes, the entries a scan walks over;
- functions wired the wrong way round: a `functools.partial` keyword that the caller's positional
  values fill again, a custom_vjp forward rule that does not return a pair, keyword arguments of a
  vmapped function (mapped like the rest), a `lax.cond` whose predicate is known while tracing.

Where the failing line writes out the call to change, `trial_rewrites.py` rewrites it and the trial
traces the rewrite on the student's values before the message quotes it. `OPERAND_RULES` come first
in `rules.RULES` (their messages are specific); `BRANCH_RULES` last (any error on a `lax.cond` line).
"""
from __future__ import annotations

import re

from . import trial_rewrites as rw
from .rule_facts import Facts, Rule
from .trial_texts import TRACES, guess, rewrite_fix

_CALLABLE = (r"<class '(?:[\w.]+\.)?(function|PjitFunction|custom_jvp|custom_vjp|builtin_function_or_method|"
             r"partial|method|cython_function_or_method)'>")
_P = {
    "refused": r"^(\S+) requires ndarray or scalar arguments, got <class '(?:[\w.]+\.)?(\w+)'> at position (\d+)",
    "named": r"<function (?:[\w.<>]+\.)?(\w+)(?: at |>)",
    "interpreting": r"^Error interpreting argument to <function (?:[\w.<>]+\.)?(\w+)(?: at |>)",
    "nested": r"at path (\w+)((?:\[|\.\w)\S*?)\.?\s",
    "multiple": r"got multiple values for argument '(\w+)'",
    "fwd": r"^Custom VJP fwd rule (\S+) for function (\S+) must produce a pair",
    "produced": r"the fwd rule \S+ produced (.*)\.$",
    "sampler": r"^(\w+) parameter shapes must be broadcast-compatible with shape argument.*got result "
               r"(\([\d, ]*\)) for shape argument (\([\d, ]*\))",
    "lowered": r"jit\(_(\w+)\)",
    "pad": r"^jnp\.pad: (\w+) with nd=(\d+) has unsupported shape (\([\d, ]*\))",
    "conv_ndim": r"^convolution requires lhs and rhs ndim to be equal, got (\d+) and (\d+)",
    "conv_features": r"^conv_general_dilated lhs feature dimension size divided by feature_group_count must "
                     r"equal the rhs input feature dimension size, but (\d+) // (\d+) != (\d+)",
}
_TREE_MAPS = ("jax.tree.map", "jax.tree_util.tree_map", "jax.tree_map", "tree_map", "tree.map")
_LOOPS = ("lax.scan", "jax.lax.scan", "lax.map", "jax.lax.map")
_BRANCHES = ("lax.cond", "jax.lax.cond", "lax.switch", "jax.lax.switch")


def _g(f: Facts, key: str, group: int = 1, default: str = "") -> str:
    m = re.search(_P[key], f.text, re.M | re.S)
    return m.group(group) if m else default


def _source(f: Facts) -> str:
    return f.stmt.get("at_line", "")


_KINDS = {"function": "a Python function", "PjitFunction": "a jitted function, as `jnp` functions are",
          "custom_jvp": "a `custom_jvp` function, as activations such as `jax.nn.relu` are",
          "custom_vjp": "a `custom_vjp` function", "partial": "a `functools.partial`",
          "builtin_function_or_method": "a built-in function", "method": "a method"}


def _function_named(f: Facts) -> str:
    """`tanh` (the function's name, where JAX's text gives it), else what kind of function it is."""
    name = _g(f, "named") if not f.says(r"^Error interpreting") else ""
    kind = _g(f, "refused", 2) if f.says(_P["refused"]) else re.search(_CALLABLE, f.text).group(1)
    return f"`{name}`" if name else _KINDS.get(kind, "a function")


def _tree_with_function(f: Facts) -> str:
    trees = f.stmt.get("trees_with_functions") or []
    return trees[0] if trees and f.calls(*_TREE_MAPS) else ""


def _refusing(f: Facts) -> str:
    """The `jax.numpy` (or `lax`, `jax.nn`...) function of the line that refused a function: named in
    JAX's text (`mean requires ndarray ...`), or the jitted JAX function it is built on
    (`Error interpreting argument to <function _mean ...>`)."""
    if f.says(_P["refused"]):
        return _g(f, "refused")
    inner = _g(f, "interpreting").lstrip("_")
    from .facts import _ARRAY_MODULES
    return next((c for c in f.stmt.get("calls", []) if inner and c.startswith(_ARRAY_MODULES)
                 and c.split(".")[-1] == inner), "")


# ---------------------------------------------------------------- Python lists and functions as values
def _list_fix(f: Facts) -> str:
    return rewrite_fix(f, "make it one array first: `jnp.asarray(values)` (entries of one shape; `jnp.stack` does "
                          "the same for a list of arrays, `jnp.concatenate` joins arrays of different lengths)",
                       "the list made one array first", certain=True, changes=lambda text: text.count("jnp.asarray("))


def _mapped_function_fix(f: Facts) -> str:
    if not _tree_with_function(f):
        return guess("if you meant the function's value, call it (`f(x)`, not `f`); if a container of arrays "
                     "holds it, take it out and pass the arrays only")
    tree = _tree_with_function(f)
    return (f"map over the arrays only: keep functions out of the tree you map over (hold them apart from the "
            f"arrays, or close over them), e.g. for a dict `{{k: v for k, v in {tree}.items() if not callable(v)}}`; "
            f"or skip them in the mapped function: `lambda v: v if callable(v) else ...`")


def _traced_function_fix(f: Facts) -> str:
    return ("keep functions out of what a transform traces: pass the arrays alone (take the function out of the "
            "dict or list that holds it) and close over the function, e.g. `jax.grad(lambda w: loss(w, act))(w)` "
            "or `functools.partial(loss, act=act)`; only under `jax.jit` may a function given as an argument of "
            "its own be marked static instead (`static_argnames=`)")


def _nested(f: Facts) -> tuple[str, str]:
    return _g(f, "nested", 1), _g(f, "nested", 1) + _g(f, "nested", 2)


def _nested_kind(f: Facts) -> str:
    m = re.search(_CALLABLE, f.text)
    return "function" if m else "string"


# ---------------------------------------------------------------- functools.partial and the caller's values
def _partial(f: Facts) -> dict:
    keyword = _g(f, "multiple")
    return next((p for p in f.stmt.get("partials", []) if keyword and keyword in p["keywords"]), {})


def _partial_named(p: dict) -> str:
    return (f"`{p['made_elsewhere']}` (a `functools.partial` of `{p['fn']}`)" if p.get("made_elsewhere")
            else f"`{p['text']}`")


def _partial_cause(f: Facts) -> str:
    p, keyword = _partial(f), _g(f, "multiple")
    order = f" ({', '.join(p['params'])})" if p.get("params") else ""
    return (f"{_partial_named(p)} gives `{keyword}` by keyword, and the caller passes its own values by position, "
            f"which fill `{p['fn']}`'s parameters from the left{order}: one of them lands on `{keyword}` again")


def _partial_fix(f: Facts) -> str:
    p, keyword = _partial(f), _g(f, "multiple")
    params, value = p.get("params") or [], p["keywords"][keyword]
    if p.get("made_elsewhere"):
        value = f"<the value of {keyword}>"
    if params and params[0] == keyword and not p["positional"]:
        where = f" where `{p['made_elsewhere']}` is made" if p.get("made_elsewhere") else ""
        return rewrite_fix(f, f"pass the value positionally{where}: `functools.partial({p['fn']}, {value})` (partial "
                              f"puts its positional values first, into `{keyword}`)",
                           f"`{value}` passed positionally fills `{keyword}`, the first parameter", certain=True)
    if keyword in params:
        rest = [q for q in params if q != keyword]
        return (f"move `{keyword}` to the end of `{p['fn']}`'s parameters, `def {p['fn']}({', '.join(rest)}, {keyword})`, so "
                f"that the values the caller passes positionally fill the others")
    return guess(f"pass `{keyword}` positionally (`functools.partial({p['fn']}, {value})`) if it is the first "
                 f"parameter; otherwise move it to the end of the parameters")


# ---------------------------------------------------------------- custom_vjp forward rules
def _count(text: str) -> str:
    """How many entries a printed tuple or list has at its top level ('a single value' otherwise)."""
    if not text[:1] in "([":
        return "a single value"
    depth, commas = 0, 0
    for ch in text.rstrip(",)] "):
        depth += ch in "([{"
        depth -= ch in ")]}"
        commas += ch == "," and depth == 1
    return f"{commas + 1} values"


def _fwd_cause(f: Facts) -> str:
    fwd, fn = _g(f, "fwd", 1, "fwd"), _g(f, "fwd", 2, "f")
    if f.says("instead of a pair"):
        return (f"the forward rule `{fwd}` of `{fn}` must return two things, the output and the residuals (what the "
                f"backward rule needs); it returned {_count(_g(f, 'produced', 1, ''))}")
    return (f"the first of the two things the forward rule `{fwd}` returns must be `{fn}`'s output, in the same "
            f"containers; it has another structure")


def _fwd_fix(f: Facts) -> str:
    if f.says("instead of a pair"):
        return ("return exactly `(output, residuals)`: pack everything the backward rule needs into one tuple of "
                "residuals (`return out, (a, b)`), and unpack it there (`a, b = res`)")
    return ("return `(output, residuals)` with `output` exactly what the function returns (same containers), and "
            "anything else among the residuals")


# ---------------------------------------------------------------- samplers, padding, convolutions, scans
def _sampler_fix(f: Facts) -> str:
    result = _g(f, "sampler", 2)
    return rewrite_fix(f, f"make `shape` equal to the parameters' broadcast shape: `shape={result}` (for several draws "
                          f"of each, put the extra axes first: `(n, *{result})`)",
                       "the sample's `shape` equal to the parameters' broadcast shape", certain=True)


def _lowered_sampler(f: Facts) -> str:
    name = _g(f, "lowered")
    return name if name and f.calls(f"jax.random.{name}", f"random.{name}") else ""


def _lowered_fix(f: Facts) -> str:
    params = rw.sampler_parameters(_source(f), _lowered_sampler(f))
    shape = f"jnp.broadcast_shapes({', '.join(f'jnp.shape({p})' for p in params)})"
    return rewrite_fix(f, f"give the sample the shape its parameters broadcast to: `shape={shape}`",
                       "the sample's `shape` equal to the parameters' broadcast shape")


def _pad_shape(f: Facts) -> tuple[int, ...]:
    return tuple(int(d) for d in re.findall(r"\d+", _g(f, "pad", 3)))


def _pad_dropped(f: Facts) -> list:
    """The pairs with `(0, 0)` pairs dropped down to one pair per axis, where that is one list."""
    pairs, nd = rw.literal_arg(_source(f), ("jnp.pad", "numpy.pad"), 1, "pad_width"), int(_g(f, "pad", 2, "0"))
    if _g(f, "pad") != "pad_width" or not isinstance(pairs, (list, tuple)) or len(pairs) <= nd or not all(
            isinstance(p, (list, tuple)) and len(p) == 2 for p in pairs):
        return []
    zero = [i for i, p in enumerate(pairs) if list(p) == [0, 0]]
    extra = len(pairs) - nd
    if len(zero) < extra:
        return []
    import itertools
    kept = {tuple(tuple(p) for i, p in enumerate(pairs) if i not in set(drop)) for drop in itertools.combinations(zero, extra)}
    return [list(map(list, k)) for k in kept]


def _pad_cause(f: Facts) -> str:
    name, nd, shape = _g(f, "pad"), _g(f, "pad", 2), _pad_shape(f)
    has = f"{shape[0]} pairs" if len(shape) == 2 and shape[1] == 2 else f"shape {_g(f, 'pad', 3)}"
    return (f"`jnp.pad`'s `{name}` gives one pair `(before, after)` per axis of the array, which has {nd} "
            f"(or one pair for every axis); it has {has}")


def _pad_fix(f: Facts) -> str:
    name, nd, shape = _g(f, "pad"), _g(f, "pad", 2), _pad_shape(f)
    dropped = _pad_dropped(f)
    if len(dropped) == 1:
        return rewrite_fix(f, f"write one pair `(before, after)` per axis: drop the pair that pads nothing, "
                              f"`{name}={dropped[0]}`",
                           "one pair `(before, after)` per axis; the dropped `(0, 0)` padded nothing", certain=True)
    if len(shape) == 2 and shape[0] > int(nd):
        return guess(f"write one pair `(before, after)` per axis ({nd}): drop the pairs of axes the array does not "
                     f"have, or, if it should have {shape[0]} axes, check how it was made")
    return guess(f"write one pair `(before, after)` per axis ({nd}), `(0, 0)` for an axis not to pad")


def _scan_confirmed(f: Facts) -> bool:
    return rewrite_fix(f, "").startswith(TRACES)


def _scan_cause(f: Facts) -> str:
    said = ("`lax.scan` slices every leaf of `xs` along its leading axis, one slice per step, and a leaf of `xs` "
            "has no such axis (a Python list or tuple of per-step entries is a tree of those entries, not arrays "
            "with a step axis)")
    if f.says(r"^scan got value with no leading axis") or _scan_confirmed(f):
        return said
    return f"an index past the end of a shape; if it comes from the `lax.scan` of this line: {said}"


def _scan_fix(f: Facts) -> str:
    return rewrite_fix(f, "stack the per-step entries into arrays with a leading step axis: "
                          "`jax.tree.map(lambda *v: jnp.stack(v), *entries)` (`jnp.asarray(values)` for numbers); "
                          "for a number of steps with nothing to walk over, `lax.scan(f, init, None, length=n)`",
                       "the entries stacked leaf by leaf, so each leaf has a leading step axis",
                       certain=f.says(r"^scan got value with no leading axis"))


def _vmapped(f: Facts) -> dict:
    return next((v for v in f.stmt.get("vmapped_keywords", []) if v["scalar_keywords"] and not v["scalar_positional"]), {})


def _vmapped_call(v: dict, inner: str = "") -> str:
    """`jax.vmap(functools.partial(f, order=1), in_axes=...)(a, b)` for a vmapped call `v`: its scalar
    keywords closed over, the others kept."""
    bound = ", ".join(f"{k}={v['keywords'][k]}" for k in v["scalar_keywords"])
    options = "".join(f", {o}" for o in v.get("options", []))
    given = v["args"] + [f"{k}={t}" for k, t in v["keywords"].items() if k not in v["scalar_keywords"]]
    return f"jax.vmap(functools.partial({inner or v['wrapped']}, {bound}){options})({', '.join(given)})"


def _vmapped_fix(f: Facts) -> str:
    v = _vmapped(f)
    defined = "" if v.get("written") else f", with `{v['wrapped']}` defined without the vmap (and the `in_axes` you mapped with)"
    return rewrite_fix(f, f"close over options that are the same for every example before mapping: "
                          f"`{_vmapped_call(v)}`{defined}",
                       "the option closed over with `functools.partial` before `jax.vmap`"
                       + ("" if v.get("written") else f", `{v['wrapped']}` defined without the vmap"),
                       certain=True, limit=1)


OPERAND_RULES: list[Rule] = [
    # ---- values JAX refuses
    Rule("list-argument", lambda f: f.says(_P["refused"]) and _g(f, "refused", 2) in ("list", "tuple"),
         lambda f: (f"`{_g(f, 'refused')}` takes arrays; its argument {_g(f, 'refused', 3)} is a Python "
                    f"{_g(f, 'refused', 2)} (NumPy turns lists into arrays silently, `jax.numpy` does not)"),
         _list_fix),
    Rule("function-value", lambda f: (f.says(_P["refused"]) or f.says(_P["interpreting"])) and bool(_refusing(f))
         and re.search(_CALLABLE, f.text) is not None,
         lambda f: (f"`{_tree_with_function(f)}`, given to `jax.tree.map`, holds a function among its leaves "
                    f"({_function_named(f)}); `{_refusing(f)}` is called on every leaf" if _tree_with_function(f) else
                    f"a function, {_function_named(f)}, was given where `{_refusing(f)}` needs an array"),
         _mapped_function_fix),
    Rule("function-traced", lambda f: f.says(r"^Argument '.*' of type '?" + _CALLABLE + r"'? is not a valid JAX type"),
         lambda f: (f"a function, {_function_named(f)}, is among the values a transform traces (an argument, or "
                    f"inside one: a dict or list beside the arrays), and transforms trace arrays only"),
         _traced_function_fix),
    Rule("nested-non-array", lambda f: f.says(r"^Error interpreting argument to .* as an abstract array")
         and f.says(_P["nested"]) and (f.says(_CALLABLE) or f.says(r"value is of type <class 'str'>")),
         lambda f: (f"`{_nested(f)[1]}` is a {_nested_kind(f)} inside the argument `{_nested(f)[0]}`, and jit traces "
                    f"every leaf of its arguments (`static_argnames` marks whole arguments only)"),
         lambda f: (f"take it out of `{_nested(f)[0]}`: pass the arrays alone and close over the {_nested_kind(f)} "
                    f"(or pass it as an argument of its own, marked static); in a class of your own registered with "
                    f"`jax.tree_util.register_dataclass`, declare the field static "
                    f"(`dataclasses.field(metadata=dict(static=True))`)")),
    # ---- functions wired the wrong way round
    Rule("partial-keyword", lambda f: f.is_("TypeError") and f.says(_P["multiple"]) and bool(_partial(f)),
         _partial_cause, _partial_fix),
    Rule("vjp-fwd-pair", lambda f: f.says(_P["fwd"]), _fwd_cause, _fwd_fix),
    Rule("vmap-keyword", lambda f: f.says(r"^vmap was requested to map its argument along axis 0.*its shape is \(\)")
         and bool(_vmapped(f)),
         lambda f: (f"`jax.vmap` maps keyword arguments too, always along axis 0 (`in_axes` covers positional "
                    f"arguments only), and `{_vmapped(f)['scalar_keywords'][0]}` is a scalar, with no axis to map"),
         _vmapped_fix),
    # ---- arguments that do not fit the call
    Rule("sampler-shape", lambda f: f.says(_P["sampler"]),
         lambda f: (f"the parameters of `jax.random.{_g(f, 'sampler')}` broadcast to shape {_g(f, 'sampler', 2)}, one "
                    f"draw per entry, so the sample's `shape` must be {_g(f, 'sampler', 2)} (or have it as its last "
                    f"axes); it is {_g(f, 'sampler', 3)}"),
         _sampler_fix),
    Rule("sampler-lowering", lambda f: f.says(r"^Cannot lower jaxpr with verifier errors") and bool(_lowered_sampler(f)),
         lambda f: (f"`jax.random.{_lowered_sampler(f)}` draws a sample of its `shape` (`()` when not given) and does "
                    f"not broadcast it to its parameters, whose shapes differ from it (JAX failed compiling the sampler)"),
         _lowered_fix),
    Rule("pad-width", lambda f: f.says(_P["pad"]), _pad_cause, _pad_fix),
    Rule("conv-ndim", lambda f: f.says(_P["conv_ndim"]),
         lambda f: (f"the input has {_g(f, 'conv_ndim')} axes and the kernel {_g(f, 'conv_ndim', 2)}: a convolution "
                    f"takes the input as (batch, channels, spatial...) and the kernel as (out channels, in channels, "
                    f"spatial...), the same number of axes"),
         lambda f: rewrite_fix(f, "a single example has no batch axis: add one, `x[None]`, and take `[0]` of the result "
                                  "(for a missing channel axis, `x[:, None]`)" if int(_g(f, "conv_ndim", 1, "0")) < int(_g(f, "conv_ndim", 2, "0"))
                               else "give the kernel all its axes, (out channels, in channels, spatial...): "
                                    "`w[None]` for a single output channel, `w[:, None]` for a single input channel",
                               "the missing axis added")),
    Rule("conv-features", lambda f: f.says(_P["conv_features"]),
         lambda f: (f"the input's feature (channel) axis has {_g(f, 'conv_features')} entries and the kernel's "
                    f"input-feature axis {_g(f, 'conv_features', 3)}: without `dimension_numbers`, a convolution reads "
                    f"the input as NCHW (channels on axis 1) and the kernel as OIHW (input channels on axis 1)"),
         lambda f: rewrite_fix(f, "if your arrays are channels-last (NHWC images, HWIO kernels), move the axes: "
                                  "`jnp.transpose(x, (0, 3, 1, 2))` for the input, `jnp.transpose(w, (3, 2, 0, 1))` "
                                  "for the kernel, or use `lax.conv_general_dilated` with "
                                  "`dimension_numbers=('NHWC', 'HWIO', 'NHWC')`; otherwise make the kernel's input "
                                  "channels those of the input",
                               "the channels moved to axis 1, where the convolution reads them",
                               changes=lambda text: text.count("jnp.moveaxis("))),
    Rule("scan-xs-axis", lambda f: f.says(r"^scan got value with no leading axis to scan over") or (
         f.is_("IndexError") and f.says(r"^tuple index out of range$") and bool(f.calls(*_LOOPS))),
         _scan_cause, _scan_fix),
]


# ---------------------------------------------------------------- any error on a lax.cond line (last)
def _static_branch(f: Facts) -> tuple[bool, bool]:
    """(the predicate is known while tracing, the Python `if` form traced), from the trial."""
    t = f.trial if f.trial.get("kind") == "rewrite" else {}
    labels = t.get("labels") or []
    traced = {labels[i] for i in t.get("traced", []) if type(i) is int and 0 <= i < len(labels)}
    return rw.STATIC in traced, any(label != rw.STATIC for label in traced)


def _branch_cause(f: Facts) -> str:
    static, chosen = _static_branch(f)
    said = "`lax.cond`/`lax.switch` traces every branch on the operands, whatever the predicate"
    if static and chosen:
        return (f"{said}, and a branch not taken raised this; here the predicate is known while tracing (it reads "
                f"shapes, dtypes or Python values only), so that branch need not be traced at all")
    return f"this was raised on a line that calls `lax.cond`/`lax.switch`; {said}"


def _branch_fix(f: Facts) -> str:
    static, chosen = _static_branch(f)
    if static and chosen:
        return rewrite_fix(f, "", "a Python `if` on a predicate known while tracing traces only the branch it picks",
                           limit=1)
    return guess("if the predicate depends only on shapes, dtypes or Python values, choose with a Python `if` (only "
                 "the chosen branch is traced); otherwise make every branch valid for these operands")


BRANCH_RULES: list[Rule] = [
    Rule("branch-static", lambda f: bool(f.calls(*_BRANCHES)) and f.is_("TypeError", "ValueError", "IndexError")
         and not f.is_("ConcretizationTypeError", "TracerBoolConversionError", "TracerIntegerConversionError",
                       "TracerArrayConversionError", "UnexpectedTracerError"), _branch_cause, _branch_fix),
]


# ---------------------------------------------------------------- what each rule's trial rewrites
def _vmapped_plan(f: Facts):
    import ast
    v, tree = _vmapped(f), rw.parsed(_source(f))
    call = next((c for c in ast.walk(tree) if isinstance(c, ast.Call) and c.keywords
                 and ast.unparse(c.func) == v["fn"]), None) if tree and v else None
    if call is None:
        return None
    label = _vmapped_call(v)
    run = label if v.get("written") else _vmapped_call(v, f"{v['fn']}.__wrapped__")
    return rw.plan_rewrites([(label, rw.rewritten(tree, call, rw.expr(run)))])


def _plan_conv_ndim(f: Facts):
    lhs, rhs = int(_g(f, "conv_ndim", 1, "0")), int(_g(f, "conv_ndim", 2, "0"))
    return rw.conv_missing_axis(_source(f)) if lhs == rhs - 1 else None


def _plan_pad(f: Facts):
    dropped = _pad_dropped(f)
    return rw.pad_pairs(_source(f), repr(dropped[0])) if len(dropped) == 1 else None


def _plan_partial(f: Facts):
    p, keyword = _partial(f), _g(f, "multiple")
    first = p.get("params") and p["params"][0] == keyword and not p["positional"]
    return rw.partial_positional(_source(f), keyword) if first else None


def _plan_lowered(f: Facts):
    params = rw.sampler_parameters(_source(f), _lowered_sampler(f))
    shape = f"jnp.broadcast_shapes({', '.join(f'jnp.shape({p})' for p in params)})"
    return rw.sampler_shape(_source(f), _lowered_sampler(f), shape) if params else None


# rule -> the plan of its trial, from the description (`trials.plan_for`)
PLANS = {
    "list-argument": lambda f: rw.wrap_argument(_source(f), _g(f, "refused"), int(_g(f, "refused", 3, "0"))),
    "partial-keyword": _plan_partial,
    "vmap-keyword": _vmapped_plan,
    "sampler-shape": lambda f: rw.sampler_shape(_source(f), _g(f, "sampler"), _g(f, "sampler", 2)),
    "sampler-lowering": _plan_lowered,
    "pad-width": _plan_pad,
    "conv-ndim": _plan_conv_ndim,
    "conv-features": lambda f: rw.conv_layouts(_source(f)),
    "scan-xs-axis": lambda f: rw.scan_stacked(_source(f)),
    "branch-static": lambda f: rw.plan_static_branch(_source(f)),
}
