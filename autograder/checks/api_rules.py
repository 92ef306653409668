"""Rules by the kind of API mistake, not by one case: names JAX removed or renamed (a table from JAX's
changelog), and the calling conventions of JAX's functions whose messages say exactly what was
passed (jvp's tuples and tangents, a vjp pullback's one argument, a pytree flatten's pair, its
metadata, dict keys, PRNG key types, `lax.cond`'s predicate, `in_axes` as a list, checkpoint's static
arguments, custom rules' arguments, a loop's carry and its `xs`).

Each rule's `when` reads one message JAX words for that convention whatever the student's code, so
its cause is certain; a fix is an instruction only where the message itself settles it (the
convention has one form), and a guess (`trial_texts.GUESS`) where the student's intent decides.
Part of the one rule table of `rules.py`, before the other tables (their messages are specific).
"""
from __future__ import annotations

import re

from .rule_facts import Facts, Rule
from .advice_rules import EARLY_RULES
from .solver_rules import SOLVER_RULES
from .trial_texts import guess, kind_fix

# ---------------------------------------------------------------- removed and renamed names
# name (as `module 'M' has no attribute 'N'` reports it) -> (what it was, what replaces it); from
# JAX's changelog. Names whose replacement takes the same arguments are tried by tracing instead
# (`trial_kind_values.RENAMED`); these need a different call.
_UPDATE = "`x.at[idx].{op}(y)` (JAX arrays are immutable; `.at` returns the updated copy)"
REMOVED = {
    "index_update": ("`jax.ops.index_update` was removed (JAX 0.3.2)", _UPDATE.format(op="set")),
    "index_add": ("`jax.ops.index_add` was removed (JAX 0.3.2)", _UPDATE.format(op="add")),
    "index_mul": ("`jax.ops.index_mul` was removed (JAX 0.3.2)", _UPDATE.format(op="multiply")),
    "index_min": ("`jax.ops.index_min` was removed (JAX 0.3.2)", _UPDATE.format(op="min")),
    "index_max": ("`jax.ops.index_max` was removed (JAX 0.3.2)", _UPDATE.format(op="max")),
    "DeviceArray": ("the `DeviceArray` class was removed; every JAX array is a `jax.Array`",
                    "test `isinstance(x, jax.Array)` (and annotate with `jax.Array`)"),
    "KeyArray": ("`jax.random.KeyArray` was removed; keys are `jax.Array`s",
                 "annotate or test with `jax.Array` (`jnp.issubdtype(k.dtype, jax.dtypes.prng_key)` for a typed key)"),
    "PRNGKeyArray": ("`jax.random.PRNGKeyArray` was removed; keys are `jax.Array`s",
                     "annotate or test with `jax.Array` (`jnp.issubdtype(k.dtype, jax.dtypes.prng_key)` for a typed key)"),
    "host_callback": ("`jax.experimental.host_callback` was removed",
                      "call Python from traced code with `jax.pure_callback(fn, result_shape_dtypes, *args)` (it "
                      "returns values), `jax.debug.callback` (side effects, e.g. printing) or "
                      "`jax.experimental.io_callback` (ordered effects)"),
    "defvjp": ("`jax.defvjp` (and `jax.defjvp`, `custom_transforms`) were removed",
               "decorate the function with `@jax.custom_vjp` and attach the rules with `f.defvjp(fwd, bwd)` "
               "(`fwd` returns `(output, residuals)`, `bwd` takes `(residuals, g)`); or `@jax.custom_jvp`"),
    "defjvp": ("`jax.defjvp` (and `custom_transforms`) were removed",
               "decorate the function with `@jax.custom_jvp` and attach the rule with `@f.defjvp` (it takes "
               "`(primals, tangents)` and returns `(primal_out, tangent_out)`); or `@jax.custom_vjp`"),
    "custom_transforms": ("`jax.custom_transforms` was removed",
                          "use `@jax.custom_vjp` (with `f.defvjp(fwd, bwd)`) or `@jax.custom_jvp`"),
    "xla_computation": ("`jax.xla_computation` was removed",
                        "lower the jitted function instead: `jax.jit(f).lower(*args)` (`.as_text()` shows it)"),
    "tie_in": ("`lax.tie_in` was removed; it is no longer needed", "drop it and use the value itself"),
    "asscalar": ("`jnp.asscalar` was removed", "use `x.item()` (outside traced code) or keep `x` as an array"),
    "NINF": ("`jnp.NINF` was removed (as in NumPy 2)", "write `-jnp.inf`"),
    "PINF": ("`jnp.PINF` was removed (as in NumPy 2)", "write `jnp.inf`"),
    "msort": ("`jnp.msort` was removed", "write `jnp.sort(x, axis=0)`"),
    "optimizers": ("`jax.experimental.optimizers` moved", "import it as `from jax.example_libraries import optimizers` "
                   "(or use `optax`)"),
    "stax": ("`jax.experimental.stax` moved", "import it as `from jax.example_libraries import stax` (or use `flax`)"),
    "partial": ("`jax.partial` was removed", "use `functools.partial` from Python's standard library"),
    "random": ("JAX's random numbers are not in `jax.numpy` but in `jax.random`, and every draw takes an "
               "explicit key (there is no global seed)",
               "make a key once, `key = jax.random.key(0)`, and draw with it, `jax.random.uniform(key, shape)`; "
               "split it for more draws (`key, sub = jax.random.split(key)`)"),
    "loops": ("`jax.experimental.loops` was removed", "write the loop with `lax.fori_loop`, `lax.scan` or `lax.while_loop`"),
    "to_dlpack": ("`jax.dlpack.to_dlpack` was removed: a JAX array speaks the DLPack protocol itself (`__dlpack__`)",
                  "pass the JAX array itself to the consumer directly: `np.from_dlpack(x)`, `torch.from_dlpack(x)`"),
}
# attributes of an array that JAX removed: name -> the replacement
ARRAY_REMOVED = {
    "to_py": "`np.asarray(x)`",
    "device_buffer": "`x.addressable_data(0)` (or `x` itself: it is the array)",
    "device_buffers": "`x.addressable_shards` (each shard's `.data`)",
    "block_host_until_ready": "`x.block_until_ready()`",
}
_MISSING = r"module '(jax[\w.]*)' has no attribute '(\w+)'"
_ARRAY_MISSING = r"'(?:[\w.]+\.)?(ArrayImpl|\w*Tracer)' object has no attribute '(\w+)'"


def _removed(f: Facts) -> tuple[str, str, str] | None:
    if not f.is_("AttributeError"):
        return None
    if f.says(r"^arr\.\w+ has been deprecated\. Use "):      # JAX names the replacement itself
        return ("ArrayImpl", f.group(r"^arr\.(\w+)"), "array")
    module, name = f.group(_MISSING, 1), f.group(_MISSING, 2)
    if module and name in REMOVED:
        return (module, name, "")
    cls, attr = f.group(_ARRAY_MISSING, 1), f.group(_ARRAY_MISSING, 2)
    return (cls, attr, "array") if attr in ARRAY_REMOVED else None


def _removed_cause(f: Facts) -> str:
    where, name, kind = _removed(f)
    if kind:
        return f"JAX arrays no longer have `.{name}` (this `{where}` is a JAX array)"
    return f"{REMOVED[name][0]}; this JAX version's `{where}` has no `{name}`"


def _removed_fix(f: Facts) -> str:
    where, name, kind = _removed(f)
    told = f.group(r"has been deprecated\. Use (\S+?)\.?$")
    if kind and told:
        return f"use `{told.replace('arr.', 'x.')}`"
    return f"use {ARRAY_REMOVED.get(name, '')}" if kind else REMOVED[name][1]


# the student's own ways of asking an array for one truth value
_OWN_TRUTH = r"\b(if|while|and|or|not|assert)\b|\bbool\(|\w\s*[<>]=?\s*[\w.]+\s*[<>]=?\s*\w"
_TREE_CALL = r"\btree(_util)?\.\w+\(|\btree_(map|leaves|flatten|structure|transpose)\("


def _metadata_truth(f: Facts) -> bool:
    """An array's truth asked on a line that has no `if`, `and`, `or`, `not`, `assert`, `bool(` or
    chained comparison of the student's, and calls JAX's pytree functions: JAX compared two trees'
    metadata with `==`, and it holds an array."""
    return (f.says(r"^The truth value of an array with more than one element is ambiguous")
            and bool(re.search(_TREE_CALL, f.code)) and not re.search(_OWN_TRUTH, f.code))


# ---------------------------------------------------------------- calling conventions
def _jvp_call(f: Facts) -> str:
    """`jax.jvp(fn, (x,), (t,))` from the failing line's `jvp(fn, x, t)`, or ''."""
    m = re.search(r"\b((?:jax\.)?jvp)\(\s*([^,()]+(?:\([^()]*\))?),\s*([\w.\[\]]+)\s*,\s*([\w.\[\]]+)\s*\)", f.code)
    if not m:
        return ""
    fn = m.group(2) if len(m.group(2)) <= 30 else "f"
    return f"`{m.group(1)}({fn}, ({m.group(3)},), ({m.group(4)},))`"


def _tangent_shapes(f: Facts) -> tuple[str, str]:
    primal = f.group(r"primal shape (\([^)]*\))") or f.group(r"for primal aval (\S+)")
    tangent = f.group(r"tangent shape as (\([^)]*\))") or f.group(r"Got tangent aval (\S+)")
    return primal, tangent


def _axes_container(f: Facts) -> tuple[str, str, str]:
    """(`in_axes[i]`, its container, the argument's container) where `in_axes` holds a tuple or list at an
    argument that is another container (not where `in_axes` itself is a list: `axes-list`), or ()."""
    m = re.search(r"key path\s+\w+ ((?:in|out)_axes\[\d+\])\s+At that key path, the prefix pytree \w+ \w+ has "
                  r"a subtree of type\s+<class '(tuple)'>\s+but at the same key path the full pytree has a "
                  r"subtree of different type\s+<class '(list|tuple|dict)'>", f.text)
    return (m.group(1), m.group(2), m.group(3)) if m else ()


def _tangent_fix(f: Facts) -> str:
    if f.says(r"expected ~?float0\[") and f.says(r"primal aval ~?u?int"):   # linearized at an integer point
        return ("linearize (or differentiate) at a float point: pass `float(x)` or `x.astype(jnp.float32)` "
                "(pass floats: an integer input has no tangent space, so its only tangent is `float0`)")
    if f.says(r"expected tangent dtype \S*float0"):     # an integer primal: it has no tangent space
        return guess("to differentiate along that input, pass it as floats (`x.astype(jnp.float32)`); to hold it "
                     "fixed, give it a `float0` tangent: `np.zeros(x.shape, jax.dtypes.float0)`")
    primal, tangent = _tangent_shapes(f)
    text = (f"give each tangent the same shape and dtype as its primal ({primal or 'the input'}), e.g. "
            f"`jnp.ones_like(x)` for the direction of all ones")
    if f.says(r"^linearized function") or len(re.findall(r"\d+", tangent)) > len(re.findall(r"\d+", primal)):
        text += "; to push several tangents at once, map over them: `jax.vmap(f_jvp)(tangents)`"
    return text


def _lambda_position(code: str, name: str) -> str:
    """The position of parameter `name` in the first `lambda` (or `def`) on the line, or ''."""
    m = re.search(r"lambda\s+([^:]*):", code) or re.search(r"def\s+\w+\(([^)]*)\)", code)
    if not m:
        return ""
    params = [p.strip().split("=")[0].split(":")[0].strip() for p in m.group(1).split(",")]
    return str(params.index(name)) if name in params else ""


def _checkpoint_fix(f: Facts) -> str:
    arg = f.group(r"depends on the value of the argument (\w+)")
    pos = _lambda_position(f.code, arg) if arg else ""
    static = f"static_argnums=({pos},)" if pos else f"static_argnums=(<position of `{arg or 'it'}`>,)"
    return (f"if `{arg or 'that argument'}` is a Python flag (it chooses the code), mark it static: "
            f"`jax.checkpoint(fn, {static})`, or bind it before checkpointing, "
            f"`jax.checkpoint(functools.partial(fn, {arg or 'flag'}=<its value>))`; if it is data, branch with "
            f"`jnp.where` or `lax.cond`")


def _rule_arity(f: Facts) -> tuple[str, int, int]:
    m = re.search(r"(\w+)\(\) takes (\d+) positional arguments? but (\d+) (?:were|was) given", f.text)
    return (m.group(1), int(m.group(2)), int(m.group(3))) if m else ("", 0, 0)


def _is_rule_arity(f: Facts) -> bool:
    name, takes, given = _rule_arity(f)
    return (f.is_("TypeError") and bool(re.search(r"bwd|backward|fwd|forward|jvp", name, re.I)) and given != takes
            and not re.search(rf"\b{re.escape(name)}\(", f.code))    # JAX made the call, not the student's line


def _rule_arity_fix(f: Facts) -> str:
    name, takes, given = _rule_arity(f)
    if re.search(r"bwd|backward", name, re.I):
        return guess(f"with `nondiff_argnums`, JAX passes those arguments to `{name}` first, then the residuals "
                     f"and the output's cotangent: `def {name}(<nondiff args>, res, g)`; without them, `bwd` takes "
                     f"`(res, g)` and returns one cotangent per differentiable input")
    if re.search(r"jvp", name, re.I):
        return guess(f"with `nondiff_argnums`, JAX passes those arguments to `{name}` first, then `(primals, "
                     f"tangents)`: `def {name}(<nondiff args>, primals, tangents)`")
    return guess(f"`{name}` is called with the function's own arguments (all of them, the nondiff ones too), "
                 f"in the same order")


def _in_loop(f: Facts) -> str:
    calls = f.calls("lax.scan", "jax.lax.scan", "lax.fori_loop", "jax.lax.fori_loop", "lax.while_loop",
                    "jax.lax.while_loop", "lax.map", "jax.lax.map")
    if calls:
        return calls[0].split(".")[-1]
    m = re.search(r"\blax\.(scan|fori_loop|while_loop|map)\(", f.code)
    return m.group(1) if m else ""


def _list_in_axes(f: Facts) -> str:
    m = re.search(r"\b(in_axes|out_axes)=\[([^\]]*)\]", f.code)
    if not m:
        return ""
    return f"`{m.group(1)}=({m.group(2)}{',' if ',' not in m.group(2) else ''})`"


def _key_type(f: Facts) -> str:
    kind = f.group(r"type <class '([\w.]+)'>")
    return f"`{kind}`" if kind else "a value"


def _found(f: Facts) -> str:
    m = re.search(r"found (\w+) and (\w+)", f.text)
    return f"`{m.group(1)}` and `{m.group(2)}`" if m else "bare values"


def _traced_arg(f: Facts) -> str:
    return f.group(r"depends on the value of the argument (\w+)", default="the argument")


def _impl_named(f: Facts) -> str:
    m = re.search(r"\bimpl\s*=\s*(['\"]\w+['\"])", f.code)
    return m.group(1) if m else "'rbg'"


_KEY_FIX = ("pass a key: make one with `jax.random.key(0)` (or `jax.random.PRNGKey(0)`) and give each draw its own "
            "subkey from `jax.random.split`")


def _dims(f: Facts) -> str:
    return f.group(r"(array is \d+-dimensional)", default="too few dimensions")


# a size whose argument's kind is unknown (not recorded): the other guess beside making it static
DATA_SIZE = ("; or, if it is data (an array, a key), compute that part outside the jitted function (there its "
             "sizes are concrete), or work at a fixed maximum size and mask the extra entries")


def _constant_size(f: Facts) -> bool:
    """A size traced under jit that JAX ties to no argument: made with `jnp` from constants (under jit
    every `jnp` result is traced), so the student's argument is not the cause."""
    return (f.is_("ConcretizationTypeError") and not f.is_("TracerBoolConversionError")   # a truth, not a size
            and f.says(r"arange|[Ss]hape|size") and f.says(r"for jit\b") and not f.desc.get("traced_args"))


def _ragged(f: Facts) -> bool:
    """Rows of different lengths made one array (`jnp.array([a, b])`): JAX's error comes from its own
    concatenate (or NumPy's inhomogeneous shape), and the line joins nothing itself."""
    joins = re.search(r"\b(concatenate|stack|hstack|vstack|append|column_stack|block)\(", f.code)
    return (f.says(r"^Cannot concatenate arrays with shapes that differ|inhomogeneous shape")
            and bool(re.search(r"\bjnp\.(array|asarray)\(\s*\[", f.code)) and not joins)


def _shape_after(f: Facts, label: str) -> str:
    return f.group(re.escape(label) + r"=(\([^)]*\))", default="(unknown)")


def _argnames(f: Facts) -> str:
    return f.group(r"argnames (\{[^}]*\})", default="a parameter")


def _cotangent_types(f: Facts) -> tuple[str, str]:
    m = re.search(r"got (\S+), but expected ([^\s,.]+)", f.text)
    return (m.group(1), m.group(2)) if m else ("", "")


_UPDATE_RANK = r"^dynamic_update_slice update must have the same rank as operand, got update shape (\([^)]*\)) for operand shape (\([^)]*\))"


def _none_fallback(f: Facts) -> str:
    """Where the key came from a name on the line (an optional setting left `None`): fall back there."""
    m = re.search(r"\bjax\.random\.\w+\(\s*([A-Za-z_]\w*)\s*[,)]", f.code)
    return (f"; where `{m.group(1)}` may be unset (`None`), fall back to a key there: `{m.group(1)} if "
            f"{m.group(1)} is not None else jax.random.key(0)`") if m else ""

API_RULES: list[Rule] = [
    Rule("removed-api", lambda f: _removed(f) is not None, _removed_cause, _removed_fix),
    *EARLY_RULES,          # the line's own syntax, and a condition under jit read from constants only
    Rule("constant-size", _constant_size,
         "a traced value used as a shape or size; JAX names no argument it depends on, so it was computed "
         "with `jnp` from constants (under jit every `jnp` result is traced, even from constants)",
         guess("compute the size in plain Python or NumPy (`int(...)`, `math.ceil`, `np.`), which stays a "
               "concrete number; keep `jnp` for the arrays")),
    # ---- forward and reverse mode's calling conventions
    Rule("jvp-tuples", lambda f: f.says(r"primal and tangent arguments to jax\.jvp must be tuples or lists"),
         lambda f: (f"`jax.jvp` takes the primals and the tangents each as a tuple (one entry per argument of the "
                    f"function); it got {_found(f)} instead"),
         lambda f: (f"wrap them in tuples: {_jvp_call(f)}" if _jvp_call(f) else
                    "wrap them in tuples: `jax.jvp(fn, (x,), (t,))` (tuples of primals and of tangents)")),
    Rule("tangent-shape", lambda f: f.says(r"^jvp called with different primal and tangent shapes|"
                                           r"^linearized function called on tangent values inconsistent|"
                                           r"primal and tangent arguments to jax\.jvp do not match"),
         lambda f: ("a tangent is one direction in the input space, so it has its primal's shape and dtype; here "
                    f"the primal is {_tangent_shapes(f)[0] or 'one shape'} and the tangent "
                    f"{_tangent_shapes(f)[1] or 'another'}"
                    + ("; an integer primal's only tangent is `float0` (integers have no derivative)"
                       if f.says(r"expected ~?float0") else "")),
         lambda f: kind_fix(f) or _tangent_fix(f)),
    Rule("pullback-arity", lambda f: f.says(r"returned by `jax\.vjp` .*called with \d+ arguments"),
         "the pullback `jax.vjp` returns takes one argument: the cotangent of the function's whole output "
         "(a tuple when the function returns a tuple)",
         "call it with a single argument, the cotangent tuple itself: `pullback(g)`, without the `*` that "
         "splits it into several arguments"),
    Rule("cotangent-type", lambda f: f.says(r"^unexpected JAX type \(e\.g\. shape/dtype\) for argument to VJP function"),
         lambda f: (f"the pullback takes a cotangent with the shape and dtype of the function's output "
                    f"({_cotangent_types(f)[1] or 'its output'}); it got {_cotangent_types(f)[0] or 'another'}"),
         lambda f: kind_fix(f) or (f"give it a cotangent like the output: e.g. `jnp.ones_like(out)` (shape and dtype "
                                   f"{_cotangent_types(f)[1] or 'of the output'}), where `out` is what `jax.vjp` "
                                   f"returned first")),      # a rewrite that traced (a cast) first
    *SOLVER_RULES,         # jax.scipy.optimize.minimize given what it does not take
    # ---- arrays built or updated with the wrong shape
    Rule("update-rank", lambda f: f.says(_UPDATE_RANK),
         lambda f: (f"`lax.dynamic_update_slice` writes an update with as many axes as the operand: the update has "
                    f"shape {f.group(_UPDATE_RANK, 1)} and the operand {f.group(_UPDATE_RANK, 2)}"
                    + ("; the `squeeze` on the line removed the update's size-1 axes" if "squeeze(" in f.code else "")),
         lambda f: ("drop the `squeeze` and pass the update with its size-1 axes kept" if "squeeze(" in f.code else
                    guess(f"give the update the operand's number of axes: `jnp.reshape(update, ...)`, or add the "
                          f"missing size-1 axes with `update[..., None]` or `jnp.expand_dims`"))),
    Rule("ragged-array", _ragged,
         "`jnp.array` of a list makes one rectangular array, and these entries have different lengths",
         guess("pad the entries to one length first (`jnp.pad`, with a mask for the padding), or keep them a list "
               "of arrays; to join them end to end, `jnp.concatenate` them")),
    Rule("set-rank", lambda f: f.says(r"^Cannot broadcast to shape with fewer dimensions") and ".at[" in f.code,
         lambda f: (f"the value given to `.at[...]` has shape {_shape_after(f, 'arr_shape')} but the entries it "
                    f"updates have shape {_shape_after(f, ' shape')}"),
         "give it the shape of the entries it updates: index more entries (a slice), or reduce or index the value"),
    Rule("matmul-scalar-ndim", lambda f: f.says(r"^matmul input operand \d must have ndim at least 1"),
         "`@` (`jnp.matmul`) multiplies arrays with at least one axis; one operand is a scalar",
         "scale by a scalar with `*` (`x * 2.0`); keep `@` for vectors and matrices"),
    Rule("scan-xs-lengths", lambda f: f.says(r"^scan got values with different leading axis sizes"),
         lambda f: (f"`lax.scan` steps through every array of `xs` together along its leading axis, and these "
                    f"have different leading axis sizes ({f.group(r'sizes: ([^.]*)', default='several')})"),
         "give every array in `xs` the same leading axis size (trim or pad them to one length)"),
    Rule("static-argnames-unknown", lambda f: f.says(r"has invalid argnames \{.*\} in static_argnames"),
         lambda f: f"`static_argnames` names {_argnames(f)}, which the function does not have",
         "name the function's own parameters in `static_argnames` (or give their positions in `static_argnums`)"),
    # ---- pytrees
    Rule("flatten-pair", lambda f: f.says(r"to_iterable function for a custom PyTree node should return a "
                                          r"\(children, aux_data\) tuple"),
         "a custom pytree's flatten function must return a pair; this one returned something else",
         "return the pair `(children, aux_data)`: the arrays as a tuple, then the hashable metadata (`None` "
         "when there is none), and take the same two in the unflatten function"),
    Rule("metadata-arrays", lambda f: f.says(r"checking equality of metadata fields of pytree"),
         "a custom pytree holds an array in its metadata (aux_data, or a static field), which JAX compares "
         "with `==` and hashes when it matches trees; an array gives no single truth value",
         "return the arrays among the children (leaves) from the flatten function (do not mark an array field as "
         "static: make it a data field); keep the aux data for hashable Python values such as ints, strings and tuples"),
    Rule("metadata-truth", _metadata_truth,
         "JAX compared the metadata (aux data) of two pytrees with `==` while matching them, and an array's "
         "`==` gives no single truth value; this line has no `if`, `and` or `or` of yours that asks for one",
         lambda f: guess("if a custom pytree keeps an array in its aux data (or a static field), return it among "
                         "the children (leaves) instead, and keep the aux data for hashable Python values")),
    Rule("dict-key-types", lambda f: f.says(r"Comparator raised exception while sorting pytree dictionary keys"),
         "JAX flattens a dict in sorted key order, and this dict's keys cannot be sorted together (keys of "
         "different types, e.g. strings and ints)",
         "give the dict keys of one type (all strings, or all ints) in every dict of the pytree"),
    # ---- keys and branches given the wrong kind of value
    Rule("key-number", lambda f: f.says(r"^JAX encountered invalid PRNG key data: expected key_data to have ndim")
         and not f.says(r"Got -?\d+$"),          # an int: `usage_rules`' key-from-int (a count, or a seed)
         lambda f: f"a plain Python number ({f.group(r'Got (.*)$', default='a number')}) was passed where a PRNG key belongs",
         lambda f: ("make a key from an integer seed and pass the key: `jax.random.key(0)` (then "
                    "`jax.random.split` it for more draws)")),
    Rule("raw-key-impl", lambda f: f.says(r"invalid PRNG key data: expected key_data\.shape to end with")
         and bool(re.search(r"\bimpl\s*=", f.code)),
         lambda f: ("a raw key (`jax.random.PRNGKey(..., impl=...)`, a uint32 array) does not carry its implementation: "
                    "its data has shape " + f.group(r"got shape=(\([^)]*\))", default="of another implementation")
                    + " and this call read it as the default `" + f.group(r"name='(\w+)'", default="threefry2x32") + "`"),
         lambda f: ("make a typed key, which carries its implementation to every `jax.random` call: "
                    f"`jax.random.key(seed, impl={_impl_named(f)})`")),
    Rule("key-type", lambda f: f.says(r"^unexpected PRNG key type"),
         lambda f: (f"a `jax.random` function got {_key_type(f)} "
                    f"where a PRNG key belongs" + (" (the key was never set)" if f.says(r"NoneType") else "")),
         lambda f: (_KEY_FIX + _none_fallback(f) if f.says(r"NoneType") else
                    guess(_KEY_FIX + "; if the value holds a key's data, wrap it back: `jax.random.wrap_key_data(jnp.asarray(v))`"))),
    Rule("cond-none", lambda f: f.says(r"^cond predicate is None"),
         "`lax.cond` got `None` as its predicate (an optional argument left unset); it needs a boolean scalar",
         "decide on `None` in Python: `if x is None: ... else: ...` (whether a value is `None` is known while "
         "tracing); keep `lax.cond` for traced booleans"),
    Rule("axes-container", lambda f: f.says(r"(vmap|pmap) (in|out)_axes\[") and bool(_axes_container(f)),
         lambda f: (f"`{_axes_container(f)[0]}` is a {_axes_container(f)[1]}, and the argument there is a "
                    f"{_axes_container(f)[2]}: a container in `in_axes` must have the argument's own container "
                    f"type and length"),
         lambda f: ("write one entry for the whole argument instead, `None` (no leaf mapped) or `0`: a single entry "
                    "covers every leaf, and `in_axes` only needs to be a tree prefix of the arguments; for an axis per "
                    f"entry, use the argument's own container (a {_axes_container(f)[2]} of entries)")),
    Rule("axes-list", lambda f: f.says(r"(vmap|pmap) (in|out)_axes\[") and f.says(r"<class 'list'>")
         and f.says(r"<class 'tuple'>"),
         lambda f: (f"`{f.group(r'((?:in|out)_axes)', default='in_axes')}` is a list, and JAX reads it as a pytree "
                    "that must mirror the arguments' tuple: a list does not match a tuple"),
         lambda f: (f"write it as a tuple: {_list_in_axes(f)}" if _list_in_axes(f) else
                    "write it as a tuple, e.g. `in_axes=(None, 0)`, not a list")),
    Rule("checkpoint-static", lambda f: f.is_("TracerBoolConversionError", "ConcretizationTypeError")
         and f.says(r"for checkpoint / remat"),
         lambda f: (f"`jax.checkpoint` traces its function, so `{_traced_arg(f)}` "
                    f"is traced there and Python cannot branch on it"),
         _checkpoint_fix),
    Rule("rule-arity", _is_rule_arity,
         lambda f: (f"`{_rule_arity(f)[0]}` takes {_rule_arity(f)[1]} arguments but JAX called it with "
                    f"{_rule_arity(f)[2]}: a custom rule's arguments are fixed by `jax.custom_vjp`/`custom_jvp`"),
         _rule_arity_fix),
    # ---- loops: what the body receives
    Rule("carry-unpack", lambda f: f.says(r"^iteration over a 0-d array|cannot unpack non-iterable") and bool(_in_loop(f)),
         lambda f: (f"the `{_in_loop(f)}` body unpacks its carry into several names, but the carry it got is a "
                    "single scalar"),
         lambda f: guess("make the initial carry a tuple with one entry per name the body unpacks, e.g. "
                         "`(init_a, init_b)`, and return a carry of that same structure")),
    Rule("xs-slice", lambda f: f.is_("IndexError") and f.says(r"^Too many indices") and _in_loop(f) in ("scan", "map"),
         lambda f: (f"`lax.{_in_loop(f)}` hands the body one slice of `xs` along its leading axis, with one "
                    f"dimension less than `xs`; the body indexes it as if it had more "
                    f"({_dims(f)})"),
         lambda f: guess("index within one element of `xs` (each `x` is `xs[i]`), or give `xs` the shape whose "
                         "leading axis is the one to loop over (e.g. pairs as shape (n, 2))")),
]
