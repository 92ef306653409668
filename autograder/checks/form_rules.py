"""Rules for a call written in a form its function's own documentation rules out, each read from JAX's
message and the failing line, written after the twenty-first held-out batch's first run
(`tests/mistakes/heldout_error_mistakes_21.py`), one per kind of message it met and no rule knew (issue
38: the function's convention, whatever the code around it):

- counts a function fixes: `jnp.piecewise`'s functions per condition, `jnp.select`'s choices per
  condition (a fallback goes in `default=`), `jnp.where`'s three arguments, `tree_reduce` of an empty tree;
- arrays and trees: two operands given their new axis in the same place where every pair was meant, `expand_dims`'s axis
  counted in the result, `jnp.vectorize` without the `signature=` of a function of matrices;
- keys: `.T` on a stack of raw keys, a key constructor JAX removed, an implementation name JAX does not
  know, a 64-bit seed hashed inside `jit`, `dirichlet`'s scalar concentration, a key-path flatten that
  returns bare children;
- transforms: `fori_loop`'s `unroll=` with traced bounds, a 64-bit result declared for a callback, a
  scalar's `shard_map` spec, an effect in a `cond` under `vmap`, an argument of JAX's own library
  function that must be static under `jit`.

A fix is an instruction where the message and the function's convention settle it, and a guess
(`trial_texts.GUESS`) where the student's intent decides. Part of `stated_rules.STATED_RULES`.
"""
from __future__ import annotations

import ast
import difflib
import importlib
import inspect
import re
import types

from .convention_rules import _calls
from .rule_facts import Facts, Rule
from .trial_texts import guess

_CONDITIONS, _FUNCTIONS, _DIMENSION = r"with (\d+) condition", r"got (\d+)", r"dimension (\d+)"
_SPEC_INDEX, _SPEC = r"in_specs.(\d+). is", r"in_specs.\d+. is (P\([^)]*\))"
_IMPL = r'^unrecognized PRNG implementation "(\w+)"\. Did you mean one of: (.*)\?'
_STATIC_LIBRARY = (r"^Abstract tracer value encountered where concrete value is expected: [^\n]*\n(\w+) argument of "
                   r"(\w+)\n.*while tracing the function \2 at \S+:\d+ for jit")
# where JAX's own functions live that a student jits whole (the message names the function, not its module)
_LIBRARIES = ("jax.scipy.special", "jax.numpy", "jax.nn", "jax.scipy.stats", "jax.scipy.linalg", "jax.numpy.linalg",
              "jax.scipy.signal", "jax.lax", "jax.random", "jax.numpy.fft")


def _select_with_default(f: Facts) -> str:
    """`jnp.select(conds, [a, b, c])` with one choice more than conditions, its last choice as `default=`."""
    for call in _calls(f, "select"):
        if len(call.args) == 2 and all(isinstance(a, (ast.List, ast.Tuple)) for a in call.args) \
                and len(call.args[1].elts) == len(call.args[0].elts) + 1:
            choices = type(call.args[1])(elts=call.args[1].elts[:-1], ctx=ast.Load())
            return f.line_with(call, ast.Call(call.func, [call.args[0], choices],
                                                [*call.keywords, ast.keyword("default", call.args[1].elts[-1])]))
    return ""


def _where_with_else(f: Facts) -> str:
    calls = [c for c in _calls(f, "where") if len(c.args) == 2 and not c.keywords]
    return f.line_with(calls[0], ast.Call(calls[0].func, [*calls[0].args, ast.Constant(0.0)], [])) if calls else ""


def _reduce_with_start(f: Facts) -> str:
    calls = [c for c in _calls(f, "tree_reduce", "tree.reduce") if len(c.args) == 2 and not c.keywords]
    return f.line_with(calls[0], ast.Call(calls[0].func, calls[0].args, [ast.keyword("initializer", ast.Constant(0.0))])) \
        if calls else ""


def _transposed_keys(f: Facts) -> str:
    m = re.search(r"\b(\w+)\.T\b", f.code)
    return m.group(1) if m else ""


def _impl_name(f: Facts) -> str:
    """The one name JAX offers that the given one begins (or nearly spells); of several, JAX's default."""
    given, offered = f.group(_IMPL), re.findall(r'"(\w+)"', f.group(_IMPL, 2))
    close = [o for o in offered if o.startswith(given)] or difflib.get_close_matches(given, offered, n=2)
    if len(close) > 1:
        import jax
        close = [c for c in close if c == jax.config.jax_default_prng_impl]
    return close[0] if len(close) == 1 else ""


def _removed_constructor(f: Facts) -> str:
    """`jax.random.threefry2x32_key(seed)` on the line as `jax.random.PRNGKey(seed, impl='threefry2x32')`."""
    impl = f.group(r"^module 'jax\.random' has no attribute '(threefry2x32|rbg|unsafe_rbg)_key'")
    for call in _calls(f, f"{impl}_key") if impl else []:
        new = ast.Call(ast.parse("jax.random.PRNGKey", mode="eval").body, call.args,
                       [*call.keywords, ast.keyword("impl", ast.Constant(impl))])
        return f.line_with(call, new)
    return f"jax.random.PRNGKey(seed, impl='{impl}')" if impl else ""


def _seed_in_jit(f: Facts) -> str:
    """The jit argument (JAX names its path) that the line turns into a key inside the jitted function."""
    name = f.group(r"overflow was encountered while parsing an argument to a jitted computation, whose argument "
                   r"path is (\w+)")
    return name if name and re.search(rf"(PRNGKey|random\.key)\(\s*{name}\s*[,)]", f.code) else ""


def _dirichlet_alpha(f: Facts) -> str:
    for call in _calls(f, "dirichlet"):
        alpha = next((ast.unparse(k.value) for k in call.keywords if k.arg == "alpha"),
                     ast.unparse(call.args[1]) if len(call.args) > 1 else "alpha")
        shape = next((k.value for k in call.keywords if k.arg == "shape"), None)
        size = ast.unparse(shape.elts[-1]) if isinstance(shape, ast.Tuple) and shape.elts else "k"
        return f"jnp.full(({size},), {alpha})"
    return "jnp.full((k,), alpha)"


def _key_pairs(f: Facts) -> str:
    """The flatten of `register_pytree_with_keys` on the line with each `obj.attr` child paired with its key."""
    for call in _calls(f, "register_pytree_with_keys"):
        flatten = call.args[1] if len(call.args) > 1 else None
        body = flatten.body if isinstance(flatten, ast.Lambda) else None
        if isinstance(body, ast.Tuple) and body.elts and isinstance(body.elts[0], ast.Tuple) \
                and all(isinstance(e, ast.Attribute) for e in body.elts[0].elts):
            pairs = ", ".join(f"(jax.tree_util.GetAttrKey({e.attr!r}), {ast.unparse(e)})" for e in body.elts[0].elts)
            return f"({pairs}{',' if len(body.elts[0].elts) == 1 else ''})"
    return ""


def _unroll_static(f: Facts) -> str:
    """`static_argnums=i` where the line jits a lambda whose parameter `i` is a bound of its `fori_loop`."""
    for jit in _calls(f, "jax.jit"):
        fn = jit.args[0] if jit.args else None
        loops = [c for c in ast.walk(fn) if isinstance(c, ast.Call) and ast.unparse(c.func).endswith("fori_loop")] \
            if isinstance(fn, ast.Lambda) else []
        params = [a.arg for a in fn.args.args] if isinstance(fn, ast.Lambda) else []
        for loop in loops:
            for bound in loop.args[:2]:
                if isinstance(bound, ast.Name) and bound.id in params:
                    return f"static_argnums={params.index(bound.id)}"
    return ""


def _signature(f: Facts) -> str:
    fn = f.group(r"^Argument to _?(\w+)\(\) must have shape \[\.\.\., n, n\]")
    return {"det": '"(n,n)->()"', "inv": '"(n,n)->(n,n)"', "cholesky": '"(n,n)->(n,n)"'}.get(fn, '"(n,n)->..."')


def _library_function(f: Facts):
    """JAX's own function of the name the message gives, from the modules a student jits whole, or None.

    The name comes from a message student code can raise itself, and the kernel's JAX modules are the
    student's to change: only a plain function or one of JAX's own callable types is returned, so reading
    its signature runs no student code (a planted object's `__signature__` property is never read)."""
    name = f.group(_STATIC_LIBRARY, 2)
    for module in _LIBRARIES if name else ():
        try:
            found = getattr(importlib.import_module(module), name, None)
        except ImportError:
            continue
        kind = type(found)
        if kind in (types.FunctionType, types.BuiltinFunctionType) or kind.__module__.startswith(("jax.", "jaxlib.")):
            return found
    return None


def _partial_of_library(f: Facts) -> str:
    """`jax.jit(fn)(a, d)` on the line as `jax.jit(functools.partial(fn, d=d))(a)`, `d` the parameter JAX names."""
    param, name, fn = f.group(_STATIC_LIBRARY), f.group(_STATIC_LIBRARY, 2), _library_function(f)
    try:
        index = list(inspect.signature(fn).parameters).index(param) if fn else -1
    except (TypeError, ValueError):
        index = -1
    for call in ast.walk(f.parsed):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Call) and ast.unparse(call.func.func).endswith("jit") \
                and call.func.args and ast.unparse(call.func.args[0]).endswith(name) and 0 <= index < len(call.args):
            bound = ast.parse(f"functools.partial({ast.unparse(call.func.args[0])}, {param}="
                              f"{ast.unparse(call.args[index])})", mode="eval").body
            new = ast.Call(ast.Call(call.func.func, [bound, *call.func.args[1:]], call.func.keywords),
                           [a for i, a in enumerate(call.args) if i != index], call.keywords)
            return f.line_with(call, new)
    return ""


def _pairs_table(f: Facts) -> str:
    """`a[:, None] - b[:, None]` on the line with the second operand's new axis first."""
    found = list(re.finditer(r"\b(\w+)\[:, ?None\]", f.code))
    return f.code.strip().replace(found[1].group(0), f"{found[1].group(1)}[None, :]", 1) if len(found) == 2 else ""


FORM_RULES: list[Rule] = [
    # ---- counts a function fixes
    Rule("piecewise-count", lambda f: f.says(r"^with (\d+) condition\(s\), either \d+ or \d+ functions are expected"),
         lambda f: (f"`jnp.piecewise` takes one function (or value) per condition, in order, and may take one more as the "
                    f"default where no condition holds: {f.group(_CONDITIONS)} conditions here, and "
                    f"{f.group(_FUNCTIONS)} functions"),
         lambda f: (f"give one function per condition ({f.group(_CONDITIONS)} of them), or one more, last, "
                    f"for the points no condition covers")),
    Rule("select-default", lambda f: f.says(r"^condlist must have length equal to choicelist \(\d+ vs \d+\)"),
         "`jnp.select` takes one choice per condition; a value for where no condition holds is its `default=`, "
         "not one more choice",
         lambda f: (f"move the fallback to `default=`: `{_select_with_default(f)}`" if _select_with_default(f) else
                    "give as many choices as conditions, and the fallback as `default=`")),
    Rule("where-two-arguments", lambda f: f.says(r"^where requires ndarray or scalar arguments, got <class 'NoneType'> "
                                                 r"at position 2") and bool(_calls(f, "where")),
         "`jnp.where(cond, x, y)` needs both values, `x` where the condition holds and `y` where it does not (the "
         "one-argument form gives indices and cannot run under a transform)",
         lambda f: (f"give `jnp.where` both `x` and `y`, e.g. `{_where_with_else(f)}`" if _where_with_else(f) else
                    "give `jnp.where` both `x` and `y`")),
    Rule("tree-reduce-empty", lambda f: f.says(r"^reduce\(\) of empty iterable with no initial value")
         and bool(_calls(f, "tree_reduce", "tree.reduce")),
         "the tree has no leaves (it is empty, or every entry is `None`), and `tree_reduce` without a starting value "
         "has nothing to begin with",
         lambda f: (f"give it a starting value: `{_reduce_with_start(f)}`" if _reduce_with_start(f) else
                    "give it a starting value, `initializer=0.0`")),
    # ---- arrays and trees
    Rule("pairs-need-two-axes", lambda f: f.says(r"^operands could not be broadcast together with shapes \(\d+, ?1\) "
                                                 r"\(\d+, ?1\)|^\w+ got incompatible shapes for broadcasting: "
                                                 r"\(\d+, 1\), \(\d+, 1\)\.") and bool(_pairs_table(f)),
         "both operands got their new axis in the same place, so their lengths meet on one axis and differ",
         lambda f: (f"for every pair, give one operand its new axis first: `{_pairs_table(f)}` (shapes (n, 1) and "
                    f"(1, m) broadcast to an (n, m) table)")),
    Rule("expand-dims-axis", lambda f: f.says(r"^axis -?\d+ is out of bounds for array of dimension \d+")
         and bool(_calls(f, "expand_dims")),
         lambda f: (f"`jnp.expand_dims`'s axis is counted in the result, which has "
                    f"{f.group(_DIMENSION)} axes (0 to {int(f.group(_DIMENSION)) - 1})"),
         "for a new last axis give `-1` (or the input's number of axes); negative axes count from the end"),
    Rule("vectorize-signature", lambda f: f.says(r"^Argument to _?\w+\(\) must have shape \[\.\.\., n, n\], got \(\)")
         and bool(_calls(f, "vectorize")),
         "`jnp.vectorize` without `signature=` calls the function on single numbers, and this function takes a "
         "matrix",
         lambda f: (f"say which axes one call takes: `jnp.vectorize(fn, signature={_signature(f)})` (the matrix's "
                    f"two axes go to each call, every leading axis is mapped)")),
    # ---- keys
    Rule("raw-keys-transposed", lambda f: f.says(r"^JAX encountered invalid PRNG key data: expected key_data\.shape to "
                                                 r"end with \(\d+,\)") and bool(_transposed_keys(f)),
         lambda f: (f"`{_transposed_keys(f)}` holds raw keys, each two uint32 words on its last axis, and `.T` reverses "
                    f"every axis: the words' axis moved first"),
         lambda f: f"swap only the batch axes: `jnp.swapaxes({_transposed_keys(f)}, 0, 1)`"),
    Rule("removed-key-constructor", lambda f: bool(_removed_constructor(f)),
         "JAX removed its constructors of one implementation's keys; the implementation is an argument of the "
         "key constructor now",
         lambda f: f"name the implementation with `impl=`: `{_removed_constructor(f)}`"),
    Rule("prng-impl-name", lambda f: bool(_impl_name(f)),
         lambda f: f"`{f.group(_IMPL)}` is not a name of a PRNG implementation; JAX's names are listed in its message",
         lambda f: f"give the full name: `impl='{_impl_name(f)}'`"),
    Rule("seed-hashed-in-jit", lambda f: bool(_seed_in_jit(f)),
         lambda f: (f"the seed `{_seed_in_jit(f)}` is a Python int beyond 32 bits, and as an argument of a jitted "
                    f"function it must fit JAX's integer type"),
         lambda f: (f"make the key outside the jitted function, where `jax.random.PRNGKey` takes a Python int of any "
                    f"size, and pass the key in: `jax.jit(lambda key: ...)(jax.random.PRNGKey({_seed_in_jit(f)}))`")),
    Rule("dirichlet-scalar-alpha", lambda f: f.says(r"^dirichlet requires alpha\.ndim >= 1, got alpha\.ndim == 0"),
         "`jax.random.dirichlet`'s `alpha` holds one concentration per category (its last axis), and this one is a "
         "single number; `shape=` is the batch of draws",
         lambda f: f"give one concentration per category, equal ones as `{_dirichlet_alpha(f)}`"),
    Rule("key-path-pairs", lambda f: f.says(r"^The to_iterable_with_keys function for a custom PyTree node should "
                                            r"return a \(key_leaf_pairs, aux_data\) tuple"),
         "a flatten function given to `register_pytree_with_keys` returns each child paired with its key, "
         "`(key, child)`, and this one returns the children alone",
         lambda f: (f"pair each child with its key: `{_key_pairs(f)}`" if _key_pairs(f) else
                    "pair each child with its key, e.g. `((jax.tree_util.GetAttrKey('a'), obj.a), ...)`")),
    # ---- transforms
    Rule("fori-unroll-traced", lambda f: f.says(r"^Can only use `unroll` in `fori_loop` if the loop bounds are "
                                                r"statically known"),
         "`fori_loop` unrolls only a loop whose bounds are Python ints; these are traced (jit arguments, or values "
         "computed with `jnp`)",
         lambda f: (f"make the bound static: `jax.jit(..., {_unroll_static(f)})`, called with a Python int" if
                    _unroll_static(f) else "pass the bounds as Python ints (`static_argnums=` for a jit argument), "
                                           "or drop `unroll=`")),
    Rule("repeat-length-under-vmap", lambda f: f.says(r"the total number of repeats must be static")
         and f.says(r"\bBatchTracer\b"),
         "under `jax.vmap` the repeat counts are traced (each example has its own), so `jnp.repeat` cannot know "
         "how long its output is, and every example's output must have one length",
         "give the output length: `total_repeat_length=` the largest total of any example (a shorter one repeats its "
         "last value to that length)"),
    Rule("callback-64-bit-result", lambda f: f.says(r"^result_shape_dtypes cannot specify 64-bit types when "
                                                    r"`jax_enable_x64` is disabled"),
         "the callback's declared result is 64-bit, and without 64-bit mode JAX holds 32-bit values only",
         "declare it 32-bit, `jax.ShapeDtypeStruct(shape, np.float32)`, and return that dtype from the callback "
         "(`.astype(np.float32)`), or turn on `jax_enable_x64` at startup"),
    Rule("scalar-spec", lambda f: f.says(r"For scalar values \(rank 0\), consider using an in_specs entry of `P\(\)`"),
         lambda f: (f"`in_specs[{f.group(_SPEC_INDEX)}]` is `{f.group(_SPEC)}`, "
                    f"one entry per axis, and its argument is a scalar, which has none"),
         lambda f: f"give that argument the empty spec: `P()` at `in_specs[{f.group(_SPEC_INDEX)}]`"),
    Rule("effect-in-vmapped-cond", lambda f: f.says(r"IO effect not supported in vmap-of-cond"),
         "an `io_callback` runs in a `lax.cond` under `jax.vmap`: vmap turns the cond into a choice that runs both "
         "branches, which an ordered effect cannot",
         guess("move the `vmap` inside the loop, onto the step that has no callback (`jax.vmap(step)` inside the "
               "`scan`), so the loop and its callback run once; or report progress with `jax.debug.callback`")),
    Rule("library-argument-static", lambda f: bool(_partial_of_library(f)),
         lambda f: (f"`{f.group(_STATIC_LIBRARY, 2)}`'s `{f.group(_STATIC_LIBRARY)}` must be a Python value (it "
                    f"sets a shape or a count), and `jax.jit` traces every argument"),
         lambda f: f"bind it before jitting: `{_partial_of_library(f)}`"),
]
