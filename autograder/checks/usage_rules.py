"""Rules for JAX's errors outside jit: vmap, grad, loops, branches, pytrees, PRNG keys, custom
derivative rules, and shapes in batched code.

These errors come with a structured text (which argument, which axis, which carry component and its
two types), so each rule reads that text and the student's failing line (`facts.py` records a
transform called on the line, `jax.vmap(f, in_axes=...)(a, b)`, with its arguments) and names them
in its cause and fix. Part of the one rule table of `rules.py` (`RULES`), in its order.
"""
from __future__ import annotations

import dataclasses
import re

from .habit_rules import carry_structure_cause, carry_structure_fix
from .rule_facts import Facts, Rule
from .signature_rules import pairs_of_points_text
from .trial_texts import GUESS, broadcast_fix, carry_fix, guess, method_fix, rewrite_fix, static_branch_traced, vmap_fix
from .usage_texts import (  # the builders the rules name
    _TEXT, _branch_cause, _branch_fix, _call, _carry, _carry_cause, _carry_fix, _concat_fix,
    _count_values, _first, _grad_output_cause, _grad_output_fix, _in_axes_count_fix, _in_axes_tree_fix,
    _is_user_class, _m, _out_axes_fix, _shapes_in, _tree_fix, _unregistered, _unregistered_fix,
    _keys_count_text, _vmap_rank_fix, _vmap_sizes_cause, _vmap_sizes_fix, FLOAT0_TANGENT, ELEMENTWISE,
)

_BROADCAST = r"incompatible shapes for broadcasting|Incompatible shapes for broadcasting"
# JAX functions that run the student's function (or their arrays) through JAX's own code: an error raised
# there is about that call, not about an operation the student wrote
_HIGHER_ORDER = ("associative_scan", "scan", "map", "vmap", "pmap", "jacfwd", "jacrev", "hessian", "fori_loop",
                 "while_loop", "cond", "switch", "custom_root", "custom_linear_solve")
# the student's own operations whose errors read like the ones raised inside those functions
_OWN_JOINS = ("concatenate", "stack", "hstack", "vstack", "dstack", "column_stack", "append", "block", "r_", "c_")


def _key_from_int_fix(f: Facts) -> str:
    """`jax.random.split(n)` with one argument: the count was passed where the key goes (the key comes
    first, so no key from that number would help); any other number where a key goes is a seed: make
    the key from it."""
    m = re.search(r"\b(?:random\.)?split\(\s*([\w.]+)\s*\)", f.code)
    if (m and not re.search(r"key|seed|rng", m.group(1), re.I) and f.calls("jax.random.split", "random.split")
            and f.says(r"Got -?\d+$")):
        return (f"`jax.random.split` takes the key first and the count second: `jax.random.split(key, {m.group(1)})`; "
                f"`{m.group(1)}` alone is taken as the key")
    return ("make a key from the seed once, `key = jax.random.key(0)` (or `jax.random.PRNGKey(0)`), and pass "
            "the key; split it for more draws")


def _key_batch_fix(f: Facts) -> str:
    """`jax.random.split(key, 1)` written on the line is one key in an array: take it out. Any other batch
    of keys (of one key too: a count that happened to be 1) is drawn from per key with vmap."""
    sampler = _m(f, "sampler", default="normal")
    split = re.search(r"\b((?:jax\.)?random\.split)\(\s*(\w+)\s*,\s*1\s*\)", f.code)
    if split and re.search(r"shape \(1,\)", f.text):
        return (f"pass one key: `{split.group(1)}({split.group(2)}, 1)` makes an array of one key: take it, "
                f"`{split.group(1)}({split.group(2)}, 1)[0]`, or split in two and keep one, "
                f"`{split.group(1)}({split.group(2)})[1]`")
    return (f"draw per key with `jax.vmap(lambda k: jax.random.{sampler}(k, shape))(keys)`, or draw everything "
            f"from one key with a leading batch dimension in `shape`")


def _associative_scan(f: Facts) -> str:
    return next((c for c in f.stmt.get("calls", []) if c in ("lax.associative_scan", "jax.lax.associative_scan")), "")


def _raised_inside(f: Facts) -> str:
    """The higher-order JAX call on the line ('lax.associative_scan') when the line writes none of the
    joining operations the error is about; '' otherwise."""
    calls = f.stmt.get("calls", [])
    if re.search(r"\b(%s)\b" % "|".join(_OWN_JOINS), f.code):   # called, or passed as the function
        return ""
    return next((c for c in calls if c.rsplit(".", 1)[-1] in _HIGHER_ORDER
                 and c.rsplit(".", 1)[0] in ("jax", "lax", "jax.lax")), "")


def _vmap_tried(fallback, principle=""):
    """A vmap rule's fix, confirmed by the `in_axes` that traced on the student's values, or replaced by them
    after the rule's `principle` (what holds whatever the fix)."""
    def text(part, f):
        return part(f) if callable(part) else part
    return lambda f: vmap_fix(f, _call(f, "vmap"), text(fallback, f), text(principle, f))


def _with_keys(fix):
    """A vmap sizes fix, then, a guess the `in_axes` trial never confirms: a key array's count beside one batch of
    another length (one key per example is likelier), or two sets of points (every pair may be meant)."""
    def text(f: Facts) -> str:
        keys = _keys_count_text(f) or pairs_of_points_text(f)
        main = fix(f)
        if not keys:
            return main
        return f"{main}; {keys}" if main.startswith(GUESS) else f"{main}; other possibility, {guess(keys)}"
    return text


def _carry_tried(f: Facts) -> str:
    _, component, before, after = _carry(f)
    return carry_fix(f, component, before, after, "dtypes do not match" in f.text, _carry_fix(f))


def _method_tried(fallback):
    """The fix for an object JAX cannot trace, confirmed by the `argnums`/`static_argnums` that traced there."""
    def fix(f: Facts) -> str:
        call = next((c for c in f.stmt.get("transformed", [])
                     if c.get("transform") in ("grad", "value_and_grad", "vmap", "jit")), {})
        return method_fix(f, call, fallback(f))
    return fix

_SELECT_FLOAT = r"got (?:\w+, )?(float\d+|bfloat16)"   # the float dtype `lax.select` names

USAGE_RULES: list[Rule] = [
    # ---- vmap
    Rule("vmap-sizes", lambda f: f.says(r"^vmap got inconsistent sizes for array axes to be mapped"),
         _vmap_sizes_cause, _with_keys(_vmap_tried(_vmap_sizes_fix, "map each argument along the axis that holds "
                                                                     "the batch, or pass it whole with `None`"))),
    Rule("vmap-in-axes-count", lambda f: f.says(r"^vmap in_axes must be an int, None, or a tuple of entries"),
         lambda f: (f"`in_axes` has {_m(f, 'in_axes_len', default='a different number of')} "
                    f"entries but the function was called with {_m(f, 'args_len', default='more')} "
                    f"positional arguments"),
         _vmap_tried(_in_axes_count_fix, lambda f: (f"give `in_axes` one entry per positional argument "
                                                    f"({_m(f, 'args_len', default='one per argument')} here)"))),
    Rule("vmap-in-axes-tree", lambda f: f.says(r"^vmap in_axes specification must be a tree prefix"),
         "`in_axes` gives a container where the argument does not have that structure: each entry of `in_axes` "
         "is one axis (an int) or `None` for one argument, or a pytree of those mirroring a pytree argument",
         _vmap_tried(_in_axes_tree_fix, "give `in_axes` one entry per positional argument, and a container "
                                        "only where it mirrors its argument entry for entry")),
    Rule("vmap-rank", lambda f: f.says(r"^vmap was requested to map its argument along axis"),
         lambda f: (f"`jax.vmap` was asked to map axis {_m(f, 'rank_axis')} of an argument "
                    f"of shape {_m(f, 'rank_shape')}, which has no such axis"),
         _vmap_tried(_vmap_rank_fix, "map along an axis it has, or pass it whole with `None`")),
    Rule("vmap-out-axes", lambda f: f.says(r"^vmap out_axes specification must be a tree prefix"),
         "`out_axes` does not match the structure of the function's outputs", _out_axes_fix),
    Rule("vmap-out-axes-batched", lambda f: f.says(r"^at vmap out_axes\S*, got axis spec None but output was batched"),
         lambda f: (f"`out_axes{_m(f, 'out_path')}` is `None`, which promises that output is the same for every "
                    f"example, but it depends on the mapped inputs"),
         lambda f: (f"give that output a mapped axis in `out_axes` (`0` at `out_axes{_m(f, 'out_path')}`, or `out_axes=0` for all); if it "
                    f"should be shared by every example (weights), keep `None` and compute it from unmapped arguments alone (`None` in `in_axes`: one key, not one per example)")),
    Rule("vmap-all-none", lambda f: f.says(r"^vmap must have at least one non-None value in in_axes"),
         "every entry of `in_axes` is `None`, so there is no axis to map and no batch size",
         _vmap_tried("map at least one argument (`0` for its batch axis), or give the batch size with `axis_size=`",
                     "map at least one argument (or give the batch size with `axis_size=`)")),
    Rule("vmap-python-if", lambda f: f.is_("TracerBoolConversionError") and f.says(r"BatchTracer") and f.kind != "assert",
         "a Python `if` (or `and`/`or`/`while`) on a value that `jax.vmap` maps: each example has its own value, "
         "so Python cannot pick one branch for the whole batch",
         lambda f: ("loop with `lax.while_loop(cond_fun, body_fun, init)`: under `jax.vmap` its condition is "
                    "checked per example, and the loop runs until it is false for every example (the finished ones "
                    "keep their values)" if f.kind == "while" else
                    ELEMENTWISE * bool(f.stmt.get("bool_ops")) + "choose per example with `jnp.where(pred, a, b)` (both sides are computed, then picked), or "
                    "`lax.cond`, which vmap turns into the same per-example choice")),
    Rule("vmap-axis-name", lambda f: f.says(r"^Found an unbound axis name"),
         lambda f: f"a collective (`lax.psum`, `lax.pmean`, ...) names the axis `{_m(f, 'axis_name')}`, but no `jax.vmap` around it has that name",
         lambda f: f"name the mapped axis where you map it: `jax.vmap(f, axis_name={_m(f, 'axis_name')!r})`"),
    Rule("vmap-no-arguments", lambda f: f.says(r"^vmap wrapped function must be passed at least one argument"),
         "the vmapped function was called with no array argument, so there is no axis to map and no batch size",
         "map at least one argument: pass the batch (e.g. keys from `jax.random.split(key, n)`) as an argument, "
         "or give the batch size with `axis_size=`"),
    # ---- grad
    Rule("grad-output", lambda f: f.says(r"^Gradient only defined for scalar-output functions"),
         _grad_output_cause, _grad_output_fix),
    # a complex input is no mistake of dtype: the derivative exists where the function is holomorphic,
    # which only the student can say (JAX's own advice), so the fix is offered, not instructed
    Rule("grad-complex-input", lambda f: f.says(r"^\w+ requires real-valued inputs") and _m(f, "got_dtype").startswith("complex"),
         lambda f: (f"`jax.{_m(f, 'transform', default='grad')}` differentiates with respect to real inputs unless "
                    f"told otherwise; it got {_m(f, 'got_dtype')}"),
         lambda f: guess(f"if the function is holomorphic in that input (built from `+`, `*`, `jnp.exp`, ... of it; "
                         f"no `jnp.abs`, `jnp.conj` or `jnp.real`), pass `holomorphic=True` to "
                         f"`jax.{_m(f, 'transform', default='grad')}`; if not, differentiate a real function of its "
                         "real and imaginary parts")),
    Rule("grad-int-input", lambda f: f.says(r"^\w+ requires real(- or complex)?-valued inputs"),
         lambda f: (f"`jax.grad` differentiates with respect to float inputs; it got "
                    f"{_m(f, 'got_dtype', default='an integer')} (an integer has no derivative)"),
         lambda f: ("pass floats: `3.0` instead of `3`, or `x.astype(jnp.float32)` before calling the gradient; "
                    "if that argument is not the one to differentiate (labels, indices), `jax.grad` takes the first "
                    "argument unless told: give the position of the parameters with `argnums=`; if the integer is a "
                    "setting inside a dict or list of parameters, every leaf of it is differentiated: take the setting "
                    "out and close over it, `jax.grad(lambda w: loss({**params, 'w': w}))(params['w'])`")),
    Rule("grad-has-aux", lambda f: f.says(r"^expected function with aux output to return a two-element tuple"),
         lambda f: ("with `has_aux=True` the function must return exactly two things, `(value, aux)`; it returned "
                    + (f"a tuple of {_count_values(_m(f, 'aux_value'))}"
                       if "<class 'tuple'>" in f.text else "one value")),
         lambda f: ("return `(loss, aux)`, packing extra outputs into one `aux` (`return loss, (a, b)`); if it "
                    "returns only the loss, drop `has_aux=True`")),
    Rule("grad-argnums", lambda f: f.says(r"^differentiating with respect to argnums=\S+ requires at least"),
         lambda f: (f"`argnums={_m(f, 'argnums')}` names a positional argument the call does "
                    f"not pass (it got {_m(f, 'positional')} positionally)"),
         "pass the argument positionally (gradients are taken only with respect to positional arguments), "
         "or use an `argnums` that counts from 0 over the positional arguments"),
    Rule("grad-complex-output", lambda f: f.says(r"^\w+ requires real-valued outputs"),
         lambda f: f"the function returns a {_m(f, 'got_dtype', default='complex')} value, and `jax.grad` differentiates real-valued outputs",
         "differentiate a real number (`jnp.abs(z) ** 2`, `jnp.real(z)`), or take the complex derivative with "
         "`jax.jacfwd` / `jax.jvp` (`holomorphic=True` if the function is holomorphic)"),
    # ---- loops
    Rule("loop-carry-type", lambda f: f.says(r"^(scan|while_loop) body function carry input and carry output must have equal types"),
         _carry_cause, _carry_tried),
    Rule("loop-carry-structure", lambda f: f.says(r"^(scan|while_loop) body function carry input and carry output must have the same pytree structure"),
         carry_structure_cause, carry_structure_fix),
    Rule("scan-pair", lambda f: f.says(r"^scan body output must be a pair"),
         "a `lax.scan` body must return two things: the new carry and this step's output",
         "return `(carry, y)` from the body (`return carry, None` when there is nothing to stack)"),
    Rule("loop-predicate", lambda f: f.says(r"^cond_fun must return a boolean scalar"),
         lambda f: f"the `while_loop` condition must return one bool; it returned {_m(f, 'pred_aval', default='an array')}",
         "reduce it to one bool: `jnp.all(...)` (every element) or `jnp.any(...)` (some element)"),
    Rule("loop-bounds", lambda f: f.says(r"^lower and upper arguments to fori_loop must have equal types"),
         lambda f: f"`fori_loop`'s bounds have different types ({_m(f, 'bound_types')})",
         "make both bounds integers: `int(n)` for a Python number, `.astype(jnp.int32)` for an array"),
    Rule("scan-without-xs", lambda f: f.says(r"^scan got no values to scan over and `length` not provided"),
         "`lax.scan` with `xs=None` has nothing to count its steps by",
         "give the number of steps: `lax.scan(body, init, None, length=n)`"),
    Rule("loop-body-callable", lambda f: f.says(r"argument should be callable"),
         lambda f: f"`{_m(f, 'not_callable', default='the loop')}` got a value where it needs a function (the body was called, and its result passed)",
         "pass the function itself, not its result: `lax.fori_loop(0, n, lambda i, x: step(x), x0)`"),
    # ---- branches
    Rule("branch-types", lambda f: f.says(r"^(cond|switch) branch(es| outputs) must have (equal output types|the same pytree structure)"),
         _branch_cause, _branch_fix),
    Rule("cond-predicate", lambda f: f.says(r"^Pred must be a scalar"),
         lambda f: f"`lax.cond` takes one bool and runs one branch; the predicate has shape {_m(f, 'of_shape')}",
         "for an elementwise choice use `jnp.where(pred, a, b)`; to branch once, reduce the predicate with "
         "`jnp.all`/`jnp.any`; per example, `jax.vmap` the function that calls `lax.cond`, so that each example's predicate is a scalar"),
    Rule("cond-predicate-type", lambda f: f.says(r"^Pred type must be either boolean or number, got"),
         lambda f: (f"the predicate of `lax.cond` is the function `{_m(f, 'pred_function')}`, not its value"
                    if _m(f, 'pred_function') else "the predicate of `lax.cond` is not a bool or a number"),
         lambda f: ((f"call it: `lax.cond({_m(f, 'pred_function')}(x), true_fn, false_fn, x)`; " if _m(f, 'pred_function') else "")
                    + "the predicate is one bool (a scalar); for an elementwise choice use `jnp.where(pred, a, b)`")),
    Rule("switch-index", lambda f: f.says(r"^Index type must be an integer"),
         lambda f: f"`lax.switch` picks a branch by an integer index; it got a {_m(f, 'index_dtype', default='float')}",
         "cast the index: `lax.switch(i.astype(jnp.int32), branches, x)` (round first if it can be fractional)"),
    Rule("branch-operands", lambda f: f.is_("TypeError") and f.says(r"missing \d+ required positional argument")
         and bool(f.calls("lax.cond", "jax.lax.cond", "lax.switch", "jax.lax.switch")),
         "the branches of `lax.cond`/`lax.switch` are called with the operands passed after them, and here "
         "their number does not match what the branch functions take",
         "give the operands after the branches (`lax.cond(pred, true_fn, false_fn, x)`), or write branches that "
         "take none (`lambda: 10.0`)"),
    Rule("select-types", lambda f: f.says(r"^lax\.select requires arguments to have the same (dtypes|shapes)"),
         "`lax.select` takes two cases of exactly one dtype and shape, and does not promote or broadcast",
         lambda f: ("use `jnp.where(pred, a, b)`, which promotes dtypes and broadcasts; or cast the other case to "
                    "one dtype first: `b.astype(jnp." + f.group(_SELECT_FLOAT, default="float32") + ")`")),
    # ---- pytrees
    Rule("tree-structure", lambda f: f.says(r"^pytree structure error") and f.says(r"tree_map"),
         "`jax.tree.map` walks several trees in step, so they must have the same structure",
         _tree_fix),
    Rule("unregistered-class", lambda f: f.says(r"(?s)^(Error interpreting argument to .* as an abstract array|"
                                                r"(Argument|Output from batched function) .* is not a valid JAX type)")
         and _is_user_class(f),
         lambda f: f"JAX does not know how to find the arrays inside a `{_unregistered(f)}` object (the class is not a registered pytree)",
         _method_tried(_unregistered_fix)),
    Rule("non-array-argument", lambda f: f.says(r"(?s)^Error interpreting argument to .* as an abstract array")
         and f.says(r"problematic value is of type <class '(str|function|type|NoneType|builtin_function_or_method)'>"),
         lambda f: (f"`{_m(f, 'arg_path', default='an argument')}` is a {_m(f, 'value_type', default='Python value')}, "
                    f"not an array, and jit traces every argument it is not told is static"),
         lambda f: (f"mark it static: `jax.jit({_m(f, 'jitted_fn', default='f')}, "
                    f"static_argnames='{_m(f, 'arg_path', default='name')}')` (each value compiles its own version)")),
    # ---- PRNG keys
    Rule("key-from-int", lambda f: f.says(r"^JAX encountered invalid PRNG key data") and
         f.says(r"Got -?\d+$|key_data\.dtype = uint32; got dtype=(float|int|bool)"),
         lambda f: ("a plain number was passed where a PRNG key is expected" if f.says(r"Got -?\d+$") else
                    "an array of numbers was passed where a PRNG key is expected"),
         _key_from_int_fix),
    Rule("key-seeds", lambda f: f.says(r"^\w+ accepts a scalar seed, but was given an array of shape"),
         lambda f: (f"`jax.random.{_m(f, 'seed_maker', default='key')}` makes one key from one integer seed; it got an "
                    f"array of seeds of shape {_m(f, 'seed_shape')}"),
         lambda f: (guess("a uint32 array of shape (2,) is what `jax.random.PRNGKey` returns: if it is already a "
                          "key, use it as it is (split it for more draws), or make the key from the integer seed "
                          "it came from, `jax.random.PRNGKey(seed)`; if it holds two seeds, one key per seed: "
                          "`jax.vmap(jax.random.key)(seeds)`")
                    if _m(f, 'seed_shape') == "(2,)" else
                    f"one key per seed: `jax.vmap(jax.random.{_m(f, 'seed_maker', default='key')})(seeds)`; or one key, "
                    f"split: `jax.random.split(jax.random.key(seed), n)`")),
    Rule("key-already", lambda f: f.says(r"^\w+ accepts a scalar seed, but was given a PRNG key"),
         "the value is already a PRNG key; `jax.random.PRNGKey`/`jax.random.key` make a key from an integer seed",
         "use the key as it is (split it for more draws); do not mix typed keys (`jax.random.key`) and raw ones "
         "(`PRNGKey`): convert with `jax.random.key_data(key)` or `jax.random.wrap_key_data(raw)` where a library "
         "wants the other kind"),
    Rule("key-indexed", lambda f: f.is_("IndexError") and f.says(r"array is 0-dimensional")
         and f.subscript("key") is not None,
         lambda f: (f"`{f.subscript('key')['name']}` is a typed PRNG key (`jax.random.key`), a scalar of shape (); "
                    f"indexing it is for raw uint32 keys (`jax.random.PRNGKey`, shape (2,))"),
         "for a new key, split it, `key, new_key = jax.random.split(key)` (`jax.random.split(key, n)` for n keys; "
         "a key never seeds another key); where code expects the old uint32 keys, take its raw data with "
         "`jax.random.key_data(key)`"),
    Rule("key-mixed", lambda f: f.says(r"key<\w+> is not a valid dtype for JAX type promotion"),
         "typed keys (`jax.random.key`) and raw keys (`jax.random.PRNGKey`, uint32 arrays) were combined in one array",
         "use one kind of key everywhere (`jax.random.key`), or convert: `jax.random.wrap_key_data(raw)` makes "
         "a typed key, `jax.random.key_data(key)` the raw one"),
    Rule("key-compared", lambda f: f.says(r"^(equal|ne|not_equal|eq|lt|le|gt|ge) does not accept dtypes? key<"),
         "a typed PRNG key (`jax.random.key`) compared with numbers: a key is not its raw uint32 data",
         "compare the key's raw data, `jax.random.key_data(key) == raw` (or make the other side a key too, "
         "`jax.random.wrap_key_data(raw)`, and compare their data)"),
    Rule("key-arithmetic", lambda f: f.says(r"does not accept dtypes? key<"),
         "arithmetic on a PRNG key (`key + 1`): keys are not numbers",
         "derive new keys with `jax.random.fold_in(key, i)` or `jax.random.split(key)`"),
    Rule("key-batch", lambda f: f.says(r"accepts a single key, but was given a key array of shape"),
         lambda f: (f"`jax.random.{_m(f, 'sampler', default='normal')}` takes one key; it got "
                    f"a batch of keys of shape {_m(f, 'of_shape')}"),
         _key_batch_fix),
    Rule("sampler-dtype", lambda f: f.says(r"^dtype argument to `\w+` must be a float"),
         lambda f: f"`jax.random.{_m(f, 'sampler_dtype', default='normal')}` draws real numbers; an integer dtype cannot hold them",
         lambda f: (f"sample floats, then cast: `jax.random.{_m(f, 'sampler_dtype', default='normal')}(key, shape).astype(jnp.int32)`; "
                    f"for random integers use `jax.random.randint`")),
    Rule("sample-size", lambda f: f.says(r"^Cannot take a larger sample"),
         "without replacement, each item can be drawn once, so there are too few items for the sample",
         "ask for no more samples than there are items, or draw with `replace=True`"),
    # ---- custom derivative rules
    Rule("vjp-bwd-structure", lambda f: f.says(r"Custom VJP bwd rule must produce an output with the same container"),
         lambda f: ("the custom_vjp backward rule must return one cotangent per input of the function, as a tuple; "
                    f"it returned {_m(f, 'bwd_tree', default='another structure')} "
                    f"for inputs {_m(f, 'primal_tree', default='')}").rstrip(" "),
         "return a tuple from `bwd` with one cotangent for each input, in order (a one-input function returns "
         "`(g * ...,)`, with the comma; `None` or zeros for inputs without a gradient)"),
    Rule("vjp-bwd-shape", lambda f: f.says(r"Custom VJP bwd rule must produce an output with the same (shape|type)"),
         lambda f: (f"the custom_vjp backward rule's {_m(f, 'bwd_output', default='output')} has type "
                    f"{_m(f, 'bwd_type')} but its input has type "
                    f"{_m(f, 'bwd_input')}"),
         lambda f: (f"each cotangent must have the shape and dtype of its input "
                    f"({_m(f, 'bwd_input', default='the input')}): "
                    f"broadcast it (e.g. `g * jnp.ones_like(x)`) or sum over the broadcast axes; for an input "
                    f"that gets no gradient (a mask, a constant), return `None` as that input's cotangent")),
    Rule("jvp-pair", lambda f: f.says(r"^Custom JVP rule .* must produce a pair"),
         "a custom_jvp rule must return two things: the primal output and its tangent",
         "return `(primal_out, tangent_out)` from the function given to `defjvp`"),
    Rule("jvp-tangent", lambda f: f.says(r"^Custom JVP rule must produce primal and tangent outputs with corresponding shapes"),
         lambda f: (f"the custom_jvp rule's tangent has type {_m(f, 'tangent_type')} but its primal output needs "
                    f"{_m(f, 'tangent_expected')}" + (": an integer or boolean output has no tangent space, only "
                    "`float0` zeros" if _m(f, 'tangent_expected').startswith("float0") else "")),
         lambda f: FLOAT0_TANGENT if _m(f, 'tangent_expected').startswith("float0") else (
                    f"compute the tangent so it has the primal output's shape and dtype ({_m(f, 'tangent_expected')}): "
                    f"apply the same reductions to it (`jnp.sum(t)` when the output is a sum), and write floats "
                    f"(`0.0`, `.astype`)")),
    Rule("vjp-forward-mode", lambda f: f.says(r"can't apply forward-mode autodiff \(jvp\) to a custom_vjp function"),
         "a `custom_vjp` function defines reverse mode only, and `jax.jvp`, `jax.jacfwd` and `jax.hessian` use forward mode",
         lambda f: ("use reverse mode (`jax.grad`, `jax.jacrev`), or define the rule with `jax.custom_jvp` if forward "
                    "mode is needed" + "".join(
                        f"; or use `{name}`'s plain function, undecorated (`{name}.fun`, the function you wrote): JAX "
                        f"differentiates it in forward mode, and on your values this traces"
                        for name in (f.stmt.get("own_custom_vjps") or [])[:1] if f.trial.get("traced")))),
    # ---- shapes in batched code
    Rule("broadcast", lambda f: f.says(_BROADCAST),
         lambda f: (f"arrays of shapes {_shapes_in(f)} cannot be combined elementwise: broadcasting lines shapes up "
                    f"from the last axis, and each pair of sizes must be equal or 1"),
         lambda f: broadcast_fix(f, "give one of them an axis of size 1 where the other has its own: `a[:, None]` "
                                    "(a column) or `keepdims=True` on the reduction that made it, or transpose "
                                    "the one whose axes are swapped")),
    Rule("associative-scan-combine", lambda f: bool(_raised_inside(f)) and bool(_associative_scan(f))
         and f.says(r"^Cannot concatenate|^All input arrays must have the same shape|^dot_general requires|"
                    r"^Incompatible shapes|^cannot reshape|different numbers of dim"),
         lambda f: (f"the error is raised inside `{_associative_scan(f)}` (JAX's code, not an operation on your line): "
                    f"it calls your combine function on whole batches of elements stacked along axis 0, not on one "
                    f"pair of elements, so a combine written for single elements gets arrays with an extra axis"),
         guess("write the combine for batches: vectorize it with `jax.vmap`, "
               "`lax.associative_scan(jax.vmap(combine), elems)`, or write it with `...`-broadcasting operations "
               "(`jnp.matmul`, `@`) that act on the last axes")),
    Rule("inside-transform", lambda f: bool(_raised_inside(f))
         and f.says(r"^Cannot concatenate arrays with (shapes that differ|different numbers of dim)"),
         lambda f: (f"the error is raised inside `{_raised_inside(f)}` (JAX's code: no concatenate is written on your line); "
                    f"arrays of shapes {_m(f, 'concat_ndims') or _m(f, 'concat_shapes')} met there"),
         lambda f: guess(f"check what you pass to `{_raised_inside(f)}` against what its documentation expects of the "
                         f"function and its arguments (their shapes and the axes it maps or scans over)")),
    Rule("concatenate", lambda f: f.says(r"^Cannot concatenate arrays with (shapes that differ|different numbers of dim)"),
         lambda f: (f"arrays of shapes {_m(f, 'concat_ndims')} have different numbers of axes"
                    if f.says("different numbers of dim") else
                    f"arrays of shapes {_m(f, 'concat_shapes')} differ in an axis other than the one they are joined on"),
         _concat_fix),
    Rule("stack", lambda f: f.says(r"^All input arrays must have the same shape"),
         lambda f: f"`jnp.stack` needs arrays of one shape; they have {_m(f, 'stack_shapes')}",
         "pad or crop them to the same shape first, or use `jnp.concatenate` (which allows different lengths along "
         "the axis it joins)"),
    Rule("contract", lambda f: f.says(r"^dot_general requires contracting dimensions to have the same shape"),
         lambda f: (f"a matrix product sums over the last axis of the first and the second-to-last of the second; "
                    f"their lengths differ ({_m(f, 'contract_sizes')})"),
         guess("transpose the operand whose axes are swapped (`w.T`), or name the axes to sum over with `jnp.einsum`; "
               "if one operand is a batch, map the product over it (`jax.vmap(jax.vmap(...))` for two batch axes)")),
    Rule("reshape", lambda f: f.says(r"^cannot reshape array of shape"),
         lambda f: (f"`reshape` keeps the number of elements: {_m(f, 'reshape_from')} holds "
                    f"{_m(f, 'reshape_from_size')}, the new shape {_m(f, 'reshape_to')} "
                    f"would hold {_m(f, 'reshape_to_size')}"),
         "choose sizes that multiply to the same total, or write `-1` for the one dimension to infer"),
    Rule("einsum-label", lambda f: f.says(r"^Size of label '\w+' for operand \d+"),
         lambda f: (f"the label `{_m(f, 'label')}` names axes of two lengths, {_first(_TEXT['label'], f.text, 3)} and "
                    f"{_first(_TEXT['label'], f.text, 4)}, in operand {_first(_TEXT['label'], f.text, 2)} and the terms before it"),
         guess("if that operand's axes are in another order, swap its subscripts (`ji` for `ij`) or transpose it; if it "
               "holds a different number of entries, give both operands the same entries along that axis")),
    Rule("split-equal", lambda f: f.says(r"^array split does not result in an equal division"),
         lambda f: f"`jnp.split` into equal sections needs the number of sections to divide the axis (the rest is {_m(f, 'split_rest')})",
         "use `jnp.array_split` for sections of unequal length, or pad the axis to a multiple first"),
    Rule("set-shape", lambda f: f.says(r"^Incompatible types for broadcasting: input type=") and ".at[" in f.code,
         lambda f: (f"the value given to `.at[...]` has type {_first(_TEXT['set_types'], f.text, 1)} but the entries it "
                    f"replaces have {_first(_TEXT['set_types'], f.text, 2)}"),
         "give it the shape of the entries it replaces: slice or reshape the value (or index more entries)"),
]


# ---- a vmap error raised inside another transformation's machinery (jacfwd, jacrev and hessian
# map over directions with vmap): told as that transformation's, not as a vmap the student wrote
_BUILT_ON_VMAP = ("jacfwd", "jacrev", "hessian")


def _inside(f: Facts) -> str:
    """The transformation the student wrote whose own vmap raised, or ''."""
    written = f.desc.get("transforms") or []
    if "vmap" in written:
        return ""
    return next((t for t in written if t in _BUILT_ON_VMAP), "")


def _attributed(rule: Rule) -> Rule:
    def cause(f: Facts) -> str:
        outer = _inside(f)
        said = rule.cause(f) if callable(rule.cause) else rule.cause
        return (f"`jax.{outer}` computes its derivative with a `jax.vmap` of its own, and that vmap raised "
                f"this (you wrote no vmap here): {said}") if outer else said

    def fix(f: Facts) -> str:
        outer = _inside(f)
        if outer:
            return guess(f"look at what `jax.{outer}` is given: the function's inputs and outputs must be arrays "
                         f"(or containers of arrays) of fixed shapes; `in_axes` is not yours to change here")
        return rule.fix(f) if callable(rule.fix) else rule.fix
    return dataclasses.replace(rule, cause=cause, fix=fix)


USAGE_RULES = [_attributed(r) if r.name.startswith("vmap-") else r for r in USAGE_RULES]


# ---- a shape error in a branch of lax.cond/switch: both branches are traced whatever the predicate,
# so the branch that raised may be one that was never meant to run for these shapes
_SHAPE_RULES = ("broadcast", "concatenate", "stack", "contract", "reshape", "einsum-label", "split-equal", "set-shape")


def _in_branch(rule: Rule) -> Rule:
    def inside(f: Facts) -> bool:
        return any(t in ("cond", "switch") for t in (f.desc.get("transforms") or []))

    def cause(f: Facts) -> str:
        said = rule.cause(f) if callable(rule.cause) else rule.cause
        if not inside(f):
            return said
        return (f"{said}; this happened inside a branch of `lax.cond`/`lax.switch`, which traces every branch "
                f"whatever the predicate")

    def fix(f: Facts) -> str:
        if not inside(f):
            return rule.fix(f) if callable(rule.fix) else rule.fix
        said = (rule.fix(f) if callable(rule.fix) else rule.fix).removeprefix(GUESS)
        if f.trial.get("kind") == "rewrite" and static_branch_traced(f):     # the trial of `trial_rewrites`
            return rewrite_fix(f, "", "the predicate is known while tracing, and a Python `if` traces only the "
                                      "branch it picks", limit=1)
        return guess(f"if that branch is not meant to run for these shapes, the choice depends on a shape, which "
                     f"is known while tracing: choose with a Python `if` on the shape instead of `lax.cond`; "
                     f"otherwise {said}")
    return dataclasses.replace(rule, cause=cause, fix=fix)


USAGE_RULES = [_in_branch(r) if r.name in _SHAPE_RULES else r for r in USAGE_RULES]
