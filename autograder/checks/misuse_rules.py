"""Rules for JAX's API used the NumPy way or the wrong way round, outside the families of
`usage_rules.py`: NumPy's keyword names, a shape given as a number or a generator, float indices,
strings and functions passed where a transform traces arrays, loops with run-time bounds under
reverse mode, host callbacks under vmap, scalars concatenated, batched `solve`.

Written after the fourth held-out batch's first run (`tests/mistakes/heldout_error_mistakes_4.py`),
one rule per kind of JAX message that batch met and no rule knew. Part of the one rule table of
`rules.py`, after `usage_rules.py`'s.
"""
from __future__ import annotations

import re

from .rule_facts import Facts, Rule
from .trial_texts import guess


def _first(pattern: str, text: str, default: str = "") -> str:
    m = re.search(pattern, text)
    return m.group(1) if m else default


def _loop_of(f: Facts) -> str:
    calls = f.calls("lax.fori_loop", "jax.lax.fori_loop", "fori_loop", "lax.while_loop", "jax.lax.while_loop")
    return calls[0].split(".")[-1] if calls else "fori_loop"


# JAX's wording the rules quote (named: an f-string cannot hold a pattern's backslashes)
_P = {
    "shape_got": r"must be a sequence, got (\S+?)\.?$",
    "index_type": r"with type (\w+)",
    "string": r"^Argument '([^']*)'",
    "class": r"value is of type <class '(?:[\w.<>]+\.)?(\w+)'>",
    "path": r"at path (\w+)",
}

def _jitted_here(f: Facts) -> str:
    """The function jitted and called on the failing line, `jax.jit(fn)(...)`, by its name, or ''."""
    m = re.search(r"\bjax\.jit\((\w+)\)\(", f.code)
    return m.group(1) if m else ""


def _or_default(f: Facts, part: int = 2) -> str:
    """`scale = scale or 1.0` (a default written with `or`) on the failing line: the name (or, with
    `part=3`, the default), or ''."""
    m = re.match(r"^(\w+)\s*=\s*(\w+)\s+or\s+(\S.*)$", f.code)
    return m.group(part) if m and m.group(1) == m.group(2) else ""


MISUSE_RULES: list[Rule] = [
    # ---- NumPy's names and forms where JAX's differ
    Rule("clip-keywords", lambda f: f.says(r"clip\(\) got an unexpected keyword argument 'a_(min|max)'"),
         "`jnp.clip` names its bounds `min` and `max`; NumPy's `a_min`/`a_max` are not accepted",
         lambda f: "write `jnp.clip(x, min=lo, max=hi)` (or pass the bounds by position: `jnp.clip(x, lo, hi)`)"
                   + ("; with an upper bound only, `jnp.minimum(x, hi)` says the same" if "a_min" not in f.code else
                      "; with a lower bound only, `jnp.maximum(x, lo)` says the same" if "a_max" not in f.code else "")),
    Rule("vmap-axis-keyword", lambda f: f.says(r"^vmap\(\) got an unexpected keyword argument 'axis'"),
         "`jax.vmap` has no `axis=`: the axis to map is given per argument by `in_axes`",
         "write `jax.vmap(f, in_axes=0)` (one int for every argument, or one entry per argument: `in_axes=(0, None)`)"),
    Rule("shape-sequence", lambda f: f.says(r"shape argument of jax\.random\.\w+ must be a sequence, got"),
         lambda f: f"`shape` must be a tuple of sizes; it got the number {_first(_P['shape_got'], f.text)}",
         lambda f: f"give it as a tuple: `({_first(_P['shape_got'], f.text, 'n')},)`"),
    Rule("shape-generator", lambda f: f.says(r"^expected sequence object with len >= 0 or a single integer"),
         "a shape must be an int or a sequence of ints; a generator (`(d + 1 for d in dims)`) or another "
         "iterable is neither",
         "make it a tuple: `tuple(d + 1 for d in dims)` (a shape is a tuple of ints)"),
    Rule("float-index", lambda f: f.says(r"^Indexer must have integer or boolean type, got indexer with type (float|bfloat)"),
         lambda f: f"an index must be an integer, and this one is a {_first(_P['index_type'], f.text, 'float')}",
         "index with integers: `int(i)` for a Python number, `i.astype(jnp.int32)` for an array (round first, "
         "`jnp.round`, if it may be fractional; `//` keeps integers integral)"),
    Rule("key-to-numpy", lambda f: f.says(r"^JAX array with PRNGKey dtype cannot be converted to a NumPy array"),
         "a typed PRNG key (`jax.random.key`) is not numbers, so NumPy cannot hold it",
         "take its data first: `np.asarray(jax.random.key_data(key))` (a uint32 array); "
         "`jax.random.wrap_key_data` turns such data back into a key"),
    Rule("concatenate-scalars", lambda f: f.says(r"^Zero-dimensional arrays cannot be concatenated"),
         "`jnp.concatenate` joins arrays along an existing axis, and a scalar has none",
         "use `jnp.stack(values)` for scalars (it adds the axis), or `jnp.atleast_1d` each of them before concatenating"),
    Rule("solve-vector", lambda f: f.says(r"^Invalid shapes for solve: .*b\[\.\.\., None\]"),
         "a batch of right-hand sides for `jnp.linalg.solve` needs a trailing axis: `b` of shape (..., n) is "
         "read as a batch of matrices, not of vectors",
         "add the axis and remove it after: `jnp.linalg.solve(a, b[..., None]).squeeze(-1)`"),
    # ---- values a transform cannot trace
    Rule("string-argument", lambda f: f.says(r"^Argument '[^']*' of type <class 'str'> is not a valid JAX type"),
         lambda f: (f"the string `{_first(_P['string'], f.text)}` reached a transform as one of its "
                    f"arguments (or inside one), and transforms trace arrays only"),
         lambda f: ("keep it out of what is traced: close over it (`jax.grad(lambda x: loss(x, 'mode'))`, or "
                    "`functools.partial`), and pass only the arrays as arguments; for a `jax.custom_vjp` or "
                    "`custom_jvp` function, declare it non-differentiable with `nondiff_argnums=(i,)`; "
                    "for `jax.jit`, `static_argnames=`")),
    Rule("zip-argument", lambda f: f.says(r"^Argument '<zip object[^']*' of type '?<class 'zip'>'? is not a valid JAX type"),
         "`zip(...)` is a Python iterator, not an array: a transform cannot map or trace it",
         "pass the arrays themselves instead of zip: `jax.vmap(f)(xs, ys)` maps them together, entry by entry"),
    Rule("odeint-arguments", lambda f: f.says(r"^The contents of odeint \*args must be arrays or scalars"),
         "`odeint` passes its extra `*args` through autodiff, so they must be arrays or numbers; a function is neither",
         "close over the function instead: `odeint(lambda y, t: rhs(y, t, fn), y0, ts)` (or `functools.partial(rhs, fn=fn)`)"),
    Rule("jitted-method-self", lambda f: f.says(r"(?s)^Error interpreting argument to .* as an abstract array.*at path self\b"),
         lambda f: (f"the jitted function is a method, and `self` (a `{_first(_P['class'], f.text, 'object')}`) "
                    f"is passed to it as an argument: jit traces every argument it is not told is static"),
         lambda f: ("mark `self` static: `@functools.partial(jax.jit, static_argnums=0)` on the method (then `self` "
                    "must be hashable, and its arrays are compiled in as constants: a new object compiles again); or "
                    "register the class as a pytree so its arrays are traced")),
    Rule("function-argument", lambda f: f.says(r"(?s)^Error interpreting argument to .* as an abstract array.*"
                                               r"problematic value is of type <class '[\w.]*(PjitFunction|function|custom_jvp|"
                                               r"custom_vjp|partial|builtin_function_or_method|method)'>"),
         lambda f: f"`{_first(_P['path'], f.text, 'an argument')}` is a function, and jit traces every argument it is not told is static",
         lambda f: (f"mark it static: `jax.jit(fn, static_argnames='{_first(_P['path'], f.text, 'f')}')` "
                    f"(each function compiles its own version), or close over it"
                    + (f"; or pass the partial as a pytree, `{f.code.strip().replace('functools.partial(', 'jax.tree_util.Partial(', 1)}`: "
                       f"its bound arrays are traced, and one compile serves every value"
                       if "<class 'functools.partial'>" in f.text and "functools.partial(" in f.code else ""))),
    # ---- loops and callbacks under transformations
    Rule("loop-reverse-dynamic", lambda f: f.says(r"^Reverse-mode differentiation does not work for lax\.while_loop "
                                                 r"or lax\.fori_loop with dynamic start/stop"),
         lambda f: (f"reverse-mode autodiff (`jax.grad`) needs to know how many steps a loop ran, and this "
                    f"`{_loop_of(f)}`'s bounds are traced values, known only at run time"),
         lambda f: ("give `lax.fori_loop` static start/stop (Python ints: `int(n)`, or an argument marked static"
                    + (f": `jax.jit({_jitted_here(f)}, static_argnums=i)`, `i` the bound's position"
                       if _jitted_here(f) else "") + "), which makes it a `lax.scan`; or loop with `lax.scan` over a "
                    "fixed number of steps and mask the steps past the end (`jnp.where(i < n, new, old)`)")),
    Rule("callback-vmap", lambda f: f.says(r"^vmap is only supported for the pure_callback primitive when vmap_method"),
         "`jax.pure_callback` does not know how to batch the host function: under `jax.vmap` (and "
         "`jnp.vectorize`, which is built on it) it needs to be told",
         "pass `vmap_method='sequential'` to `jax.pure_callback` (the host function is called once per example), "
         "or `vmap_method='expand_dims'` if it handles a leading batch axis itself"),
    Rule("tracer-constant", lambda f: f.says(r"^No constant handler for type: <class '[\w.]*Tracer'>"),
         "a traced value was used where JAX needs a constant it can embed in the program",
         lambda f: guess("if an array is passed in `nondiff_argnums` of a `custom_jvp`/`custom_vjp` function, "
                         "remove it from `nondiff_argnums` (only hashable, non-array values belong there) and "
                         "return a zero cotangent or tangent for it")),
    Rule("or-default", lambda f: f.is_("TracerBoolConversionError") and _or_default(f) != "",
         lambda f: (f"`{_or_default(f)} or ...` asks whether `{_or_default(f)}` is true, which needs its value, "
                    f"and it is traced here"),
         lambda f: (f"to give a default to a value that may be `None`, test for `None`, which needs no value: "
                    f"`{_or_default(f)} if {_or_default(f)} is not None else {_or_default(f, 3)}`")),
    # ---- truth values of arrays (concrete ones: NumPy's own error)
    Rule("array-truth", lambda f: f.says(r"^The truth value of an array with more than one element is ambiguous"),
         lambda f: ("a chained comparison (`0 < v < 1`) or `and`/`or` asks for one truth value of a whole array"
                    if f.stmt.get("bool_ops") else
                    "Python `if`/`and`/`or` asks for one truth value of a whole array"),
         lambda f: ("combine elementwise: `(0 < v) & (v < 1)` (or `jnp.logical_and`), then choose with `jnp.where`"
                    if f.stmt.get("bool_ops") else
                    "choose per element with `jnp.where(cond, a, b)`, or reduce first: `jnp.any(cond)` / `jnp.all(cond)`")),
]
