"""Rules for values JAX refuses as operands, written after the fifth held-out batch's first run
(`tests/mistakes/heldout_error_mistakes_5.py`), one per kind of JAX message that batch met and no rule
knew (`wiring_rules.py` has the batch's functions wired the wrong way round):

- Python lists where `jax.numpy` wants an array; functions inside the trees a transform traces or
  `jax.tree.map` walks (activations, norms kept beside the parameters);
- calls whose arguments do not fit: a sampler's `shape` against its parameters, `jnp.pad`'s pairs
  against the array's axes, a convolution's layouts and axes, the entries a scan walks over;
- shapes an operation cannot reach (after the twelfth held-out batch): `broadcast_to` a shape with fewer
  axes, `take_along_axis` indices with fewer axes than the array, typed keys from `jax.random.split`
  reshaped as if each were two uint32s.

Where the failing line writes out the call to change, `trial_rewrites.py` rewrites it and the trial
traces the rewrite on the student's values before the message quotes it. `OPERAND_RULES` come first
in `rules.RULES` (their messages are specific).
"""
from __future__ import annotations

import re

from . import trial_rewrites as rw
from .rule_facts import Facts, Rule
from .trial_texts import TRACES, guess, rewrite_fix

_CALLABLE = (r"<class '(?:[\w.]+\.)?(function|PjitFunction|custom_jvp|custom_vjp|builtin_function_or_method|"
             r"partial|method|cython_function_or_method|ufunc)'>")
_P = {
    "fewer": r"Cannot broadcast to shape with fewer dimensions: arr_shape=(\([^)]*\)) shape=(\([^)]*\))",
    "take": r"indices and arr must have the same number of dimensions; (\d+) vs\. (\d+)",
    "reshape": r"cannot reshape array of shape (\([^)]*\)) \(size (\d+)\) into shape (\([^)]*\)) \(size (\d+)\)",
    "refused": r"^(\S+) requires ndarray or scalar arguments, got <class '(?:[\w.]+\.)?(\w+)'> at position (\d+)",
    "named": r"<function (?:[\w.<>]+\.)?(\w+)(?: at |>)",
    "interpreting": r"^Error interpreting argument to <function (?:[\w.<>]+\.)?(\w+)(?: at |>)",
    "nested": r"at path (\w+)((?:\[|\.\w)\S*?)\.?\s",
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


def _g(f: Facts, key: str, group: int = 1, default: str = "") -> str:
    return f.group(_P[key], group, default)


def _source(f: Facts) -> str:
    return f.source


_KINDS = {"function": "a Python function", "PjitFunction": "a jitted function, as `jnp` functions are",
          "custom_jvp": "a `custom_jvp` function, as activations such as `jax.nn.relu` are",
          "custom_vjp": "a `custom_vjp` function", "partial": "a `functools.partial`",
          "builtin_function_or_method": "a built-in function", "method": "a method",
          "ufunc": "a `jnp` ufunc (such as `jnp.multiply`)"}


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
    held = f.stmt.get("containers_with_functions") or []
    direct = f.stmt.get("function_arguments") or []
    said = ("keep functions out of what a transform traces: pass the arrays alone (take the function out of "
            f"{'`' + held[0] + '`' if held else 'the dict or list that holds it'}) and close over the function, e.g. "
            "`jax.grad(lambda w: loss(w, act))(w)` or `functools.partial(loss, act=act)`; if it must travel with the "
            "arrays (in a loop's carry, a pytree), wrap it in `jax.tree_util.Partial(fn)`, a pytree JAX can trace")
    if direct and not held:             # a function passed as it is: maybe a value meant, not called
        return guess(f"if `{direct[0]}` is meant to be a value, call it (`{direct[0]}(...)`); if it is meant to be "
                     f"used as a function, close over it (`functools.partial`, a lambda) instead of passing it")
    return said


def _nested(f: Facts) -> tuple[str, str]:
    return _g(f, "nested", 1), _g(f, "nested", 1) + _g(f, "nested", 2)


def _nested_kind(f: Facts) -> str:
    m = re.search(_CALLABLE, f.text)
    return "function" if m else "string"


# ---------------------------------------------------------------- samplers, padding, convolutions, scans
def _sampler_fix(f: Facts) -> str:
    result = _g(f, "sampler", 2)
    return rewrite_fix(f, f"make `shape` equal to the parameters' broadcast shape: `shape={result}` (for several draws "
                          f"of each, put the extra axes first: `(n, *{result})`)",
                       "the sample's `shape` equal to the parameters' broadcast shape", certain=True)


def _line_sampler(f: Facts) -> str:
    """The `jax.random` sampler the line calls with parameters (`uniform(key, minval=lo, ...)`), or ''."""
    for call in f.calls("jax.random.", "random.", "jrandom.", "jr."):
        name = call.split(".")[-1]
        if rw.sampler_parameters(_source(f), name):
            return name
    return ""


def _sampler_broadcast(f: Facts) -> bool:
    """JAX failed to line the sample up with its parameters: compiling the sampler (`jit(_uniform)`), or
    broadcasting them, on a line that draws from a sampler with parameters."""
    name = _line_sampler(f)
    return bool(name) and (f.says(r"^Cannot lower jaxpr with verifier errors") and _g(f, "lowered") == name
                           or f.says(r"[Ii]ncompatible (shapes|types) for broadcasting"))


def _sampler_fits(f: Facts) -> bool:
    return rewrite_fix(f, "").startswith(TRACES)


def _lowered_fix(f: Facts) -> str:
    params = rw.sampler_parameters(_source(f), _line_sampler(f))
    shape = f"jnp.broadcast_shapes({', '.join(f'jnp.shape({p})' for p in params)})"
    return rewrite_fix(f, f"give the sample the shape its parameters broadcast to: `shape={shape}` (for several "
                          f"draws of each, `(n, *{shape})`)",
                       "the sample's `shape` equal to the parameters' broadcast shape (or with the draws of each "
                       "first)")


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


def _split_reshaped(f: Facts) -> str:
    """The shape `jax.random.split(key, n).reshape(a, b, 2)` meant, `(a, b)`, where the reshape asks for twice
    the keys split made and ends in 2 (the raw key's two uint32s), or ''."""
    m = re.search(_P["reshape"], f.text)
    call = re.search(r"random\.split\([^\n]*\)\s*\.reshape\(", f.code)
    if not (m and call) or int(m.group(4)) != 2 * int(m.group(2)):
        return ""
    sizes = [s.strip() for s in m.group(3).strip("()").split(",") if s.strip()]
    return f"({', '.join(sizes[:-1])})" if sizes and sizes[-1] == "2" else ""


def _key_name(f: Facts) -> str:
    call = re.search(r"random\.split\(\s*([\w.\[\]]+)\s*,", f.code)
    return call.group(1) if call else "key"


OPERAND_RULES: list[Rule] = [
    # ---- shapes an operation cannot reach
    Rule("broadcast-fewer-axes", lambda f: f.says(_P["fewer"]),
         lambda f: (f"`broadcast_to` can add leading axes and stretch size-1 ones, never remove an axis: the array "
                    f"has shape {_g(f, 'fewer')} and the target shape {_g(f, 'fewer', 2)} has fewer axes"),
         lambda f: (f"give a target shape with at least as many axes as the array, {_g(f, 'fewer')}: usually the "
                    f"full shape of the array it must match (`x.shape`, not `x.shape[1:]`)")),
    Rule("take-along-axis-ndim", lambda f: f.says(_P["take"]),
         lambda f: (f"`take_along_axis` needs indices with as many axes as the array: the indices have "
                    f"{_g(f, 'take')} and the array {_g(f, 'take', 2)}"),
         lambda f: (f"add the missing {int(_g(f, 'take', 2)) - int(_g(f, 'take'))} size-1 "
                    f"ax{'is' if int(_g(f, 'take', 2)) - int(_g(f, 'take')) == 1 else 'es'} to the indices where "
                    f"the array has axes they do not vary along, `jnp.expand_dims(indices, axis)` (or "
                    f"`indices[..., None]`): they broadcast along them"
                    + ("; indices from `jnp.argmax`/`jnp.argmin` keep the reduced axis with `keepdims=True`"
                       if re.search(r"\bjnp\.arg(max|min)\(", f.code) else ""))),
    Rule("split-keys-reshaped", lambda f: bool(_split_reshaped(f)),
         lambda f: ("`jax.random.split` returns typed keys here, one element per key, not two uint32s each, so "
                    f"{_g(f, 'reshape', 2)} keys do not reshape to {_g(f, 'reshape', 3)}"),
         lambda f: f"ask `split` for the shape of keys you need: `jax.random.split({_key_name(f)}, {_split_reshaped(f)})`"),

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
    # ---- arguments that do not fit the call
    Rule("sampler-shape", lambda f: f.says(_P["sampler"]),
         lambda f: (f"the parameters of `jax.random.{_line_sampler(f) or _g(f, 'sampler')}` broadcast to shape {_g(f, 'sampler', 2)}, one "
                    f"draw per entry, so the sample's `shape` must be {_g(f, 'sampler', 2)} (or have it as its last "
                    f"axes); it is {_g(f, 'sampler', 3)}"),
         _sampler_fix),
    Rule("sampler-broadcast", _sampler_broadcast,
         lambda f: (f"`jax.random.{_line_sampler(f)}` draws a sample of its `shape` (`()` when not given), and its "
                    f"parameters' shapes must broadcast to that shape; here they do not"
                    + ("" if _sampler_fits(f) else " (if the error comes from the sampler: shapes of other operations "
                                                   "on this line may be the ones that differ)")),
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


# ---------------------------------------------------------------- what each rule's trial rewrites
def _plan_conv_ndim(f: Facts):
    lhs, rhs = int(_g(f, "conv_ndim", 1, "0")), int(_g(f, "conv_ndim", 2, "0"))
    return rw.conv_missing_axis(_source(f)) if lhs == rhs - 1 else None


def _plan_pad(f: Facts):
    dropped = _pad_dropped(f)
    return rw.pad_pairs(_source(f), repr(dropped[0])) if len(dropped) == 1 else None


def _plan_sampler(f: Facts):
    """The sample's `shape` made the parameters' broadcast shape, and that shape after the one given
    (several draws of each)."""
    name = _line_sampler(f)
    params = rw.sampler_parameters(_source(f), name)
    given = rw.sampler_given_shape(_source(f), name)
    shape = f"jnp.broadcast_shapes({', '.join(f'jnp.shape({p})' for p in params)})"
    literal = given.startswith("(") and given.endswith(")")
    more = (f"{given} + {shape}" if literal else f"tuple({given}) + {shape}") if given and given != "()" else ""
    return rw.sampler_shape(_source(f), name, *([shape, more] if more else [shape])) if params else None


# rule -> the plan of its trial, from the description (`trials.plan_for`)
PLANS = {
    "list-argument": lambda f: rw.wrap_argument(_source(f), _g(f, "refused"), int(_g(f, "refused", 3, "0"))),
    "sampler-shape": lambda f: rw.sampler_shape(_source(f), _line_sampler(f) or _g(f, "sampler"), _g(f, "sampler", 2)),
    "sampler-broadcast": _plan_sampler,
    "pad-width": _plan_pad,
    "conv-ndim": _plan_conv_ndim,
    "conv-features": lambda f: rw.conv_layouts(_source(f)),
    "scan-xs-axis": lambda f: rw.scan_stacked(_source(f)),
}
