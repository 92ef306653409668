"""Rules for what JAX's message or the student's failing line states outright, written after the sixteenth
held-out batch's first run (`tests/mistakes/heldout_error_mistakes_16.py`), one per kind of message it met
and no rule knew (issue 38: each a property of the mistake, read from the message whatever the code around
it):

- what JAX's message names itself: a static size argument (`length=`), a function to wrap (`checkify`),
  a batching rule to define (`def_vmap`), a key to make another way (`jax.random.key`), fields listed in
  both of `register_dataclass`'s lists, a donated buffer passed twice, a scalar `initial=`;
- what the line shows around a generic message: a transform given a function's value instead of the
  function, a Jacobian of a column, `out_axes` past an output's rank, an index into the 0-d value vmap
  gives each call, an array where a dtype goes, a float seed;
- trees: lists that `jax.tree.map` walks into, a class it does not know as a node, a `tree_unflatten`
  that checks or computes on its leaves, an object JAX hashes as a function (`__hash__` of its arrays),
  leaves of different ranks joined with `concatenate`;
- custom rules: a complex tangent for a real output, a callback inside what is differentiated.

A fix is an instruction where the message settles it, and a guess (`trial_texts.GUESS`) where the
student's intent decides. Part of the one rule table of `rules.py`, before the convention rules.
"""
from __future__ import annotations

import ast
import re

from .convention_rules import _calls
from .argument_rules import ARGUMENT_RULES
from .contract_rules import CONTRACT_RULES
from .form_rules import FORM_RULES
from .input_rules import INPUT_RULES
from .signature_rules import SIGNATURE_RULES
from .intent_rules import INTENT_RULES
from .rule_facts import Facts, Rule
from .trial_texts import guess
from .usage_texts import _call, _vmap_sizes, _vmap_sizes_cause

# names that say "the same for every example" (a one-letter `b` or `a` says nothing either way)
_PARAMETER_NAMES = re.compile(r"^(params?|w|W|weights?|theta|kernel|model|state|coef\w*|net|layers?|cfg|config|table)$")
_TRANSFORMS = ("grad", "value_and_grad", "jacobian", "jacfwd", "jacrev", "hessian", "vmap", "jit")


def _static_keyword(f: Facts) -> tuple[str, str]:
    """(the function, the keyword) of JAX's "pass a static `length` argument" (its own words)."""
    m = re.search(r"argument '\w+' of ([\w.]+)\. To avoid this error, pass a static `(\w+)` argument", f.text)
    return (m.group(1), m.group(2)) if m else ("", "")


def _transform_of_value(f: Facts) -> ast.Call | None:
    """`jax.grad(fn(a, b))(...)`: a transform whose first argument is a call (the function's value)."""
    if not f.says(r"^Expected a callable value, got"):
        return None
    found = [c for c in _calls(f, *_TRANSFORMS) if c.args and isinstance(c.args[0], ast.Call)]
    return found[0] if found else None


def _value_fix(f: Facts) -> str:
    call = _transform_of_value(f)
    inner = call.args[0]
    fixed = ast.Call(ast.Call(call.func, [inner.func, *call.args[1:]], call.keywords), inner.args, inner.keywords)
    return (f"pass the function itself, not its result, and call what `{ast.unparse(call.func)}` returns with the "
            f"arguments: `{ast.unparse(fixed)}` (it differentiates with respect to the first argument; "
            f"`argnums=` picks another)")


def _dtype_argument(f: Facts) -> str:
    """The failing line with `.dtype` added to the array given as a dtype (`convert_element_type(x, w)`,
    `x.astype(w)`), or ''."""
    for call in _calls(f, "convert_element_type", "astype"):
        args = call.args[1:] if ast.unparse(call.func).endswith("convert_element_type") else call.args
        if args and isinstance(args[0], ast.Name):
            name = args[0].id
            return re.sub(rf"(\b(?:convert_element_type\([^,]+,|astype\()\s*){name}\b", rf"\1{name}.dtype", f.code.strip())
    return ""


def _overlap(f: Facts) -> str:
    return ", ".join(f"`{n}`" for n in re.findall(r"'(\w+)'", f.group(r"Overlapping fields: (\{[^}]*\})"))) or "a field"


def _reduction_call(f: Facts) -> str:
    calls = _calls(f, ".max", ".min", ".sum", ".prod", ".amax", ".amin")
    return ast.unparse(calls[0].func) if calls else "jnp.max"


def _complex_tangent(f: Facts) -> tuple[str, str]:
    m = re.search(r"Custom JVP rule must produce primal and tangent outputs with corresponding shapes and dtypes\. "
                  r"Expected ((?:float|bfloat)\d+\[[^\]]*\]) \(tangent type of [^)]*\) but got (complex\d+\[[^\]]*\])", f.text)
    return (m.group(1), m.group(2)) if m else ("", "")


def _out_axes_past_rank(f: Facts) -> tuple[str, str]:
    m = re.search(r"axis (-?\d+) is out of bounds for array of dimension (\d+)", f.text)
    given = [ast.unparse(c.args[2]) for c in _calls(f, "vmap") if len(c.args) > 2]   # `jax.vmap(f, in_axes, 1)`
    if not m or (f"out_axes={m.group(1)}" not in f.code.replace(" ", "") and m.group(1) not in given):
        return "", ""
    return m.group(1), m.group(2)


def _key_mapped(f: Facts) -> tuple[str, str]:
    """(the key argument, another mapped argument) of a `jax.vmap(fn, ...)(key, x)` on the line whose
    rank-0 argument JAX could not map: a single PRNG key where vmap wants one per example."""
    if not f.says(r"^vmap was requested to map its argument along axis 0, .*but is only 0"):
        return "", ""
    for node in ast.walk(f.parsed):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Call) and ast.unparse(node.func.func).endswith("vmap"):
            args = [ast.unparse(a) for a in node.args]
            keys = [a for a in args if re.search(r"random\.(key|PRNGKey)\(|\b\w*(key|rng)\w*\b", a, re.I)]
            others = [a for a in args if a not in keys and a.isidentifier()]
            if keys:
                return keys[0], others[0] if others else ""
    return "", ""


def _tree_map_line(f: Facts) -> bool:
    return bool(re.search(r"\btree(_util)?\.(tree_)?map\(|\btree_map\(", f.code))


def _unregistered_class(f: Facts) -> str:
    """The class `jax.tree.map` handed whole to the student's function (an operator it lacks), or ''."""
    name = f.group(r"unsupported operand type\(s\) for [^:]+: '(\w+)' and")
    return name if name and name[0].isupper() and _tree_map_line(f) else ""


def _leaves_joined(f: Facts) -> str:
    m = re.search(r"(?:jnp\.)?(?:concatenate|hstack)\(\s*(jax\.tree\.leaves\([^()]*\)|jax\.tree_util\.tree_leaves\([^()]*\))", f.code)
    return m.group(1) if m and f.says(r"Cannot concatenate arrays with different numbers of dimensions") else ""


def _key_width(f: Facts) -> tuple[str, str]:
    """(numbers a key of the default implementation holds, numbers a key of the data holds)."""
    return (f.group(r"end with \((\d+),\)", default="2"),
            f.group(r"got shape=\([^)]*?(\d+),?\)", default="another number of"))


def _jacobian_shape(f: Facts) -> str:
    return f.group(r"got (\([\d, ]+\))", default="four axes")


def _leaf_shapes(f: Facts) -> str:
    return f.group(r"got (\([\d, ]*\)(?:, \([\d, ]*\))*)", default="of different ranks")


def _class_named(f: Facts) -> str:
    return f.group(r"^'(\w+)' object", default="it")


def _got_value(f: Facts) -> str:
    return f.group(r"got (.+)$", default="a number")[:60]


def _unpacked_grad(f: Facts) -> str:
    """The failing line with `jax.grad(` made `jax.value_and_grad(` where two names unpack what grad returns."""
    if not (f.says(r"^iteration over a 0-d array|^cannot unpack non-iterable") and re.search(r"^\s*\w+\s*,\s*\w+\s*=.*\bgrad\(", f.code)):
        return ""
    return re.sub(r"\b(jax\.)?grad\(", lambda m: f"{m.group(1) or ''}value_and_grad(", f.code.strip(), count=1)


def _aux_unpacked(f: Facts) -> str:
    """`a, b, g = jax.value_and_grad(f, has_aux=True)(x)` with the value and aux grouped: `(a, b), g = ...`."""
    m = re.match(r"^\s*((?:\w+\s*,\s*)+)(\w+)\s*=\s*(.*value_and_grad\(.*has_aux=True.*)$", f.code)
    if not m or not f.says(r"^(not enough|too many) values to unpack"):
        return ""
    first = [n.strip() for n in m.group(1).split(",") if n.strip()]
    return f"({', '.join(first)}), {m.group(2)} = {m.group(3).strip()}" if len(first) == 2 else ""


def _grad_of_grad(f: Facts) -> str:
    m = re.search(r"\b(jax\.)?grad\(\s*(jax\.)?grad\(([\w.]+)\)\s*\)", f.code)
    if not m or not f.says(r"Gradient only defined for scalar-output functions"):
        return ""
    return f.code.strip().replace(m.group(0), f"jax.hessian({m.group(3)})")


def _fori_body_swapped(f: Facts) -> str:
    """`lax.fori_loop(lo, hi, lambda acc, i: ...)`: the lambda's parameters in scan's order, swapped."""
    m = re.search(r"fori_loop\([^\n]*?lambda\s+(\w+)\s*,\s*(i|j|k|t|idx|step|it|_)\s*:", f.code)
    if not m or not f.says(r"carry input and carry output must have equal types") or m.group(1) in ("i", "j", "k", "t", "idx", "_"):
        return ""
    return f.code.strip().replace(m.group(0), m.group(0).replace(f"{m.group(1)}, {m.group(2)}", f"{m.group(2)}, {m.group(1)}"), 1)


def _aot_relowered(f: Facts) -> str:
    m = re.search(r"\.lower\(([^()]*)\)\.compile\(\)\(([^()]*)\)", f.code)
    if not m or not f.says(r"^Argument types differ from the types for which this computation was compiled"):
        return ""
    return f.code.strip().replace(m.group(0), f".lower({m.group(2)}).compile()({m.group(2)})")


def _two_vectors(f: Facts) -> tuple[str, str, str] | None:
    """(function, first, second argument as written) of `jax.vmap(fn)(a, b)` over two 1-D arrays of different
    lengths, neither spelled like parameters: a table of every pair is a likely intent."""
    sizes, call = _vmap_sizes(f), _call(f, "vmap")
    args = call.get("args", [])
    if not f.says(r"^vmap got inconsistent sizes") or len(sizes) != 2 or len(args) != 2 or call.get("starred"):
        return None
    if any(len(s["dims"]) != 1 or s["type"].startswith(("key<", "uint32")) for s in sizes) or any(
            _PARAMETER_NAMES.match(n) for n in [*args, *(s["name"] for s in sizes)]) or f.says(r"argument \w+\[\d+\] of type"):
        return None     # (keys, and the entries of a tuple argument, have rules of their own)
    fn = call.get("fn") or "f"
    return (fn if len(fn) <= 30 else "f"), args[0], args[1]


def _pairs_fix(f: Facts) -> str:
    fn, a, b = _two_vectors(f)
    return guess(f"if every entry of `{a}` goes with every entry of `{b}` (a table), nest two vmaps, one per axis: "
                 f"`jax.vmap(jax.vmap({fn}, in_axes=(None, 0)), in_axes=(0, None))({a}, {b})`; if `{b}` is the same "
                 f"for every call, pass it whole: `jax.vmap({fn}, in_axes=(0, None))`; if they pair up one to one, "
                 f"they need one length")


def _mapped_after_call(f: Facts) -> str:
    """`jax.vmap(jax.grad(fn)(xs))`: a transformed function called on the whole batch inside `vmap`'s
    parentheses; the line with the call moved out (`jax.vmap(jax.grad(fn))(xs)`), or ''."""
    for node in ast.walk(f.parsed):
        if (isinstance(node, ast.Call) and ast.unparse(node.func).endswith("vmap") and len(node.args) == 1
                and isinstance(node.args[0], ast.Call) and isinstance(node.args[0].func, ast.Call)):
            inner = node.args[0]
            fixed = ast.Call(ast.Call(node.func, [inner.func], node.keywords), inner.args, inner.keywords)
            return f.code.strip().replace(ast.unparse(node), ast.unparse(fixed)) if ast.unparse(node) in f.code else ""
    return ""


def _output_shape(f: Facts) -> str:
    return f.group(r"Output had shape: (\([\d, ]*\))", default="not one number")


def _key_difference(f: Facts) -> str:
    return f.group(r"symmetric difference on key sets is\s+(.+)$", default="keys")


def _deeper_first(f: Facts) -> bool:
    """`jax.tree.map(fn, a, b)` where the first tree (the one whose structure is followed) has a container where
    another has one value: the first is the deeper one."""
    return (f.says(r"prefix pytree tree_map tree has a subtree of type\s+<class '(list|tuple)'>")
            and f.says(r"full pytree has a subtree of different type\s+<class '(int|float|bool|complex)'>")
            and "grad" not in f.code)   # (a gradient against another tree: the structure rule's own guess)


def _tree_of(leaves: str) -> str:
    return leaves[leaves.index("(") + 1:-1].strip() or "tree"


STATED_RULES: list[Rule] = [
    *CONTRACT_RULES,        # what a function's contract requires of a call (`contract_rules.py`, the 24th)
    *INTENT_RULES,          # what the line shows was meant (`intent_rules.py`, after the eighteenth batch)
    *INPUT_RULES,           # an input JAX's message says its function refuses (`input_rules.py`, after the 22nd)
    *SIGNATURE_RULES,       # arguments against a function's signature convention (`signature_rules.py`, the 23rd)
    *ARGUMENT_RULES,        # an argument in a form its function refuses (`argument_rules.py`, after the nineteenth)
    *FORM_RULES,            # a call in a form its function's convention rules out (`form_rules.py`, after the 21st)
    # ---- what JAX's message names
    Rule("static-size-argument", lambda f: bool(_static_keyword(f)[0]),
         lambda f: (f"`{_static_keyword(f)[0]}`'s output size depends on the values of its input, which are traced "
                    f"here (under `jax.vmap` or `jax.jit`), so JAX cannot know the size"),
         lambda f: (f"pass `{_static_keyword(f)[1]}=` as a Python int: `{_static_keyword(f)[0]}(x, "
                    f"{_static_keyword(f)[1]}=n)` (the output's size, known before the values, e.g. the number of "
                    f"bins; values past it are dropped)")),
    Rule("checkify-unwrapped", lambda f: f.says(r"checkify\.check which was not functionalized"),
         "a `checkify.check` inside `jax.jit` (or `scan`, `vmap`) needs its function converted by "
         "`checkify.checkify`, which turns a failed check into an error value the function returns",
         "wrap the function before jitting it: `err, out = jax.jit(checkify.checkify(f))(x)`, then `err.throw()` "
         "raises if a check failed"),
    Rule("custom-vmap-rule", lambda f: f.says(r"No batching rule defined for custom_vmap function"),
         "a `jax.custom_vmap` function was mapped before a batching rule was given to it",
         "define its rule with `@f.def_vmap` (`def rule(axis_size, in_batched, *args): ... return out, out_batched`) "
         "before calling `jax.vmap` on it"),
    Rule("legacy-key-refused", lambda f: f.says(r"Legacy uint32 key array passed as key to jax\.random"),
         "this program sets `jax_legacy_prng_key='error'`, so `jax.random` refuses the raw `uint32[2]` keys "
         "`jax.random.PRNGKey` makes",
         lambda f: ("make typed keys with `jax.random.key(seed)` instead of `jax.random.PRNGKey(seed)` (split, "
                    "fold_in and the samplers take them the same way)"
                    + (f": `{f.code.strip().replace('PRNGKey(', 'key(')}`" if "PRNGKey(" in f.code else ""))),
    Rule("key-data-width", lambda f: f.says(r"invalid PRNG key data: expected key_data\.shape to end with") and "wrap_key_data(" in f.code,
         lambda f: (f"`jax.random.wrap_key_data` assumes the default implementation (threefry, "
                    f"{_key_width(f)[0]} numbers a key) unless told, and this data has "
                    f"{_key_width(f)[1]} numbers a key: it came "
                    f"from a key of another implementation"),
         "tell it which: `jax.random.wrap_key_data(data, impl='rbg')` (the implementation the key was made with; "
         "`jax.random.key_impl(key)` names it before you unwrap it)"),
    Rule("fields-overlap", lambda f: f.says(r"data_fields and meta_fields must not overlap"),
         lambda f: (f"`register_dataclass` was told that {_overlap(f)} is both data (arrays, traced) and metadata "
                    f"(static, part of the tree's structure)"),
         lambda f: (f"list each field in exactly one of the two: remove {_overlap(f)} from `meta_fields` if it holds "
                    f"arrays, or from `data_fields` if it is a fixed setting (a string, a number, a flag)")),
    Rule("donated-twice", lambda f: f.says(r"Attempt to use a buffer that was previously donated in the same call"),
         "the same array is passed twice in one call and one of the two is donated: its memory is handed to the "
         "output, so the other argument would read memory that is being overwritten",
         "drop `donate_argnums` for it, or pass a copy as the other argument (`f(buf, jnp.copy(buf))`)"),
    Rule("initial-not-scalar", lambda f: f.says(r"initial value must be a scalar\. Got array of shape"),
         "`initial=` is one starting value for the whole reduction; an array of them (one per row) is not accepted",
         lambda f: (f"for one starting value per row, map the reduction over the rows with one scalar each: "
                    f"`jax.vmap(lambda row, start: {_reduction_call(f)}(row, initial=start))(x, starts)` (keep your "
                    f"`where=` per row the same way); without `where=`, `jnp.maximum({_reduction_call(f)}(x, axis=-1), "
                    f"starts)` is the same")),
    # ---- what the line shows around a generic message
    Rule("key-rank-test", lambda f: bool(_key_mapped(f)[0]) and f"{_key_mapped(f)[0]}.ndim" in f.code,
         lambda f: (f"`{_key_mapped(f)[0]}` is one typed PRNG key, of shape () (`ndim` 0), and the line takes "
                    f"`{_key_mapped(f)[0]}.ndim == 1` to mean one key: that is a raw `uint32[2]` key's rank"),
         lambda f: (f"test for one typed key by its shape: `{_key_mapped(f)[0]}.shape == ()` (or "
                    f"`{_key_mapped(f)[0]}.ndim == 0`); a batch of keys has shape (n,)")),
    Rule("one-key-mapped", lambda f: bool(_key_mapped(f)[0]),
         lambda f: (f"`{_key_mapped(f)[0]}` is one PRNG key (shape ()), and `jax.vmap` maps axis 0 of each argument, "
                    f"which a single key does not have"),
         lambda f: (f"give each example its own key, `keys = jax.random.split(key, n)` (n = the batch size: as many "
                    f"keys as examples), and map them with the rest"
                    + (f": `jax.random.split({_key_mapped(f)[0]}, {_key_mapped(f)[1]}.shape[0])` in its place"
                       if _key_mapped(f)[1] else "")
                    + "; passing the one key whole (`None` in `in_axes`) would give every example the same random "
                      "numbers")),
    Rule("transform-of-a-value", lambda f: _transform_of_value(f) is not None,
         lambda f: (f"`{ast.unparse(_transform_of_value(f).func)}` takes a function and returns a new function; "
                    f"`{ast.unparse(_transform_of_value(f).args[0])}` calls the function, so it got the function's "
                    f"value ({_got_value(f)})"),
         _value_fix),
    Rule("jacobian-of-a-column", lambda f: f.says(r"must have shape \[\.\.\., n, n\], got \(\d+, 1, \d+, 1\)")
         and "jacobian(" in f.code or f.says(r"must have shape \[\.\.\., n, n\]") and "jacfwd(" in f.code,
         lambda f: (f"`jax.jacobian` of a function from shape A to shape B has shape B + A: here "
                    f"{_jacobian_shape(f)}, because the input and the output are "
                    f"columns (n, 1), not vectors"),
         "pass the input as a flat 1-D vector (`point.ravel()`, shape (n,)) so that the Jacobian is an (n, n) "
         "matrix, or reshape it to (n, n) before using it as one"),
    Rule("out-axes-past-rank", lambda f: bool(_out_axes_past_rank(f)[0]),
         lambda f: (f"`out_axes={_out_axes_past_rank(f)[0]}` puts the batch axis at position "
                    f"{_out_axes_past_rank(f)[0]} of an output, and that output has {_out_axes_past_rank(f)[1]} "
                    f"axes in all, the batch axis included: each call returns fewer axes than that"),
         "`out_axes` can be at most the number of axes each call returns: `out_axes=0` for a scalar result "
         "(or `-1`, the last axis, whatever the rank)"),
    Rule("index-mapped-scalar", lambda f: f.is_("IndexError") and f.says(r"array is 0-dimensional, but \d+ were indexed")
         and "vmap(" in f.code,
         "`jax.vmap` removes the mapped axis: each call gets one entry of the mapped argument, here a 0-d value, and "
         "the function indexes it",
         "if the argument is one example (not a batch of them), give it a batch axis, `jax.vmap(fn)(x[None])`, or "
         "call the function without `vmap`; to map over rows, pass a 2-D array"),
    Rule("array-as-dtype", lambda f: f.says(r"Cannot construct a dtype from an array|^Passing an array as a dtype argument"),
         "a dtype argument was given an array; JAX wants a dtype there (`jnp.float32`, or an array's `.dtype`)",
         lambda f: (f"pass the array's dtype: `{_dtype_argument(f)}`" if _dtype_argument(f)
                    else "pass the array's `.dtype` (or a dtype such as `jnp.float32`) instead of the array")),
    Rule("float-seed", lambda f: f.says(r"PRNG key seed must be an integer; got"),
         "a PRNG key's seed must be an integer, and this one is a float",
         "make it an integer before making the key: `jax.random.PRNGKey(int(seed))` (or `jax.random.key(int(seed))`) "
         "for a Python number; `seed.astype(jnp.uint32)` for a traced one"),
    # ---- after batch 17: the line's own shape around a generic message
    Rule("vmap-two-vectors", lambda f: _two_vectors(f) is not None, _vmap_sizes_cause, _pairs_fix),
    Rule("grad-unpacked-as-two", lambda f: bool(_unpacked_grad(f)),
         "`jax.grad` returns the gradient alone (here one number), not the function's value with it, so it cannot "
         "be unpacked into two names",
         lambda f: f"`jax.value_and_grad` returns both: `{_unpacked_grad(f)}`"),
    Rule("aux-unpacked-flat", lambda f: bool(_aux_unpacked(f)),
         "`jax.value_and_grad(..., has_aux=True)` returns two things: the pair `(value, aux)` and the gradient",
         lambda f: f"unpack them nested: `{_aux_unpacked(f)}`"),
    Rule("called-inside-vmap", lambda f: bool(_mapped_after_call(f)) and f.is_("TypeError", "ValueError"),
         "the transformed function is called on the whole batch inside `jax.vmap(...)`'s parentheses, so it gets "
         "every example at once, and `jax.vmap` would get its result, not a function",
         lambda f: f"map the function, then call what `jax.vmap` returns: `{_mapped_after_call(f)}`"),
    Rule("grad-of-grad", lambda f: bool(_grad_of_grad(f)),
         lambda f: (f"the inner `jax.grad` returns a gradient with the input's shape "
                    f"({_output_shape(f)}), so the outer "
                    f"one differentiates a vector: the second derivatives of a function of a vector form a matrix"),
         lambda f: f"take the matrix of second derivatives with `jax.hessian`: `{_grad_of_grad(f)}`"),
    Rule("grad-of-one-element", lambda f: f.says(r"Gradient only defined for scalar-output functions\. Output had shape: \(1,\)"),
         "`jax.grad` needs a function that returns one number of shape (); this one returns an array of one "
         "element, shape (1,)",
         lambda f: (f"take the one number out, `(...)[0]`, `.squeeze()` or `jnp.sum(...)` (the same for one element), "
                    f"so that the function returns shape (); if each row is an example, `jax.vmap(jax.grad({f.fn if f.fn.isidentifier() else 'f'}))` "
                    f"gives one gradient per example")),
    Rule("fori-body-swapped", lambda f: bool(_fori_body_swapped(f)),
         "`lax.fori_loop` calls its body as `body(i, carry)`, the index first, and this body takes the carry first, "
         "so the carry it returns is computed from the index",
         lambda f: (f"put the index first among the body's first two positional arguments: `{_fori_body_swapped(f)}`")),
    Rule("tree-map-deeper-first", _deeper_first,
         "`jax.tree.map(fn, tree, *rest)` follows the first tree's structure, and every other tree must match it or "
         "be deeper; here the first tree has a container where another has a single value",
         guess("pass the shallower tree first, and swap the function's parameters to match: "
               "`jax.tree.map(lambda b, a: ..., shallow, deep)`")),
    Rule("shardings-keys", lambda f: f.says(r"pjit in_shardings") and f.says(r"symmetric difference on key sets"),
         lambda f: (f"`in_shardings` must mirror the arguments' tree, and its dict and the argument's differ in "
                    f"the keys {_key_difference(f)}"),
         "give the trees the same structure: one sharding per key of the argument, or one sharding for the whole "
         "argument (a prefix of its tree)"),
    Rule("pad-typed-keys", lambda f: f.says(r"must be same dtype: got key<\w+>"),
         "typed PRNG keys are not numbers: padding (like arithmetic) cannot put a number beside them",
         "pad their raw data and wrap it again: `jax.random.wrap_key_data(lax.pad(jax.random.key_data(keys), "
         "jnp.uint32(0), pads))`, where `pads` is your padding config with `(0, 0, 0)` added for the data's last axis "
         "(the key's own)"),
    Rule("callback-shape-only", lambda f: f.is_("AttributeError") and f.says(r"^'int' object has no attribute 'dtype'")
         and "pure_callback(" in f.code,
         "`jax.pure_callback`'s second argument describes the result's shape and dtype, and a tuple of ints gives "
         "only a shape",
         "pass `jax.ShapeDtypeStruct(shape, dtype)`, e.g. `jax.ShapeDtypeStruct(values.shape, values.dtype)`"),
    Rule("int-past-int32", lambda f: f.says(r"Python int -?\d+ too large to convert to int32"),
         "JAX's integers are 32-bit unless 64-bit mode is on (`jax_enable_x64`), and this Python int is beyond int32's "
         "range",
         "use a bound within it, `jnp.iinfo(jnp.int32).max` (the largest int32), or turn on 64-bit numbers with "
         "`jax.config.update('jax_enable_x64', True)` at the start"),
    Rule("in-place-put", lambda f: f.says(r"cannot modify arrays in-place, because JAX arrays"),
         "JAX arrays are immutable: this NumPy function's in-place form cannot write into one",
         "pass `inplace=False` to get an updated copy, or write it with `.at[...]`: `x.at[idx].set(v)` returns a new "
         "array"),
    Rule("aot-other-types", lambda f: bool(_aot_relowered(f)),
         "an executable compiled ahead of time runs only on arguments of the shapes and dtypes it was lowered with",
         lambda f: (f"lower and compile it for the arguments you call it with, `{_aot_relowered(f)}`, or call the "
                    f"jitted function itself, which compiles once per shape")),
    Rule("transform-of-compiled", lambda f: f.says(r"^Cannot apply JAX transformations to a function lowered and compiled"),
         "a function lowered and compiled ahead of time is fixed to its signature, so `vmap`, `grad` and `jit` cannot "
         "transform it",
         "transform the jitted function instead (`jax.vmap(jax.jit(fn))`), and compile ahead of time what the "
         "transform returns, if you need to"),
    # ---- trees
    Rule("tree-map-into-lists", lambda f: f.is_("TypeError") and f.says(r"^'(float|int|bool)' object is not subscriptable")
         and _tree_map_line(f),
         "`jax.tree.map` goes down into lists and tuples (they are nodes of the tree), so your function got one "
         "number of each list, not the list",
         "to hand each list to the function whole, pass `is_leaf=lambda x: isinstance(x, list)` to `jax.tree.map`, "
         "or make the lists arrays (`jnp.asarray`)"),
    Rule("tree-map-unknown-class", lambda f: bool(_unregistered_class(f)),
         lambda f: (f"`{_unregistered_class(f)}` is not registered as a pytree node, so `jax.tree.map` treats each "
                    f"`{_unregistered_class(f)}` as one leaf and your function got the whole object"),
         lambda f: (f"register the class so that its fields are the leaves: decorate a dataclass with "
                    f"`jax.tree_util.register_dataclass`, or a class with `tree_flatten`/`tree_unflatten` with "
                    f"`jax.tree_util.register_pytree_node_class`, or make `{_unregistered_class(f)}` a `NamedTuple`")),
    Rule("unflatten-checks-leaves", lambda f: f.fn == "tree_unflatten" and (f.is_("AssertionError") or "raise " in f.code),
         "JAX calls your `tree_unflatten` with leaves that are not your arrays: under `vmap`, `jit` or `scan` they "
         "are tracers (under `vmap`, without the mapped axis), and JAX also rebuilds trees of placeholders "
         "(`None`, `object()`)",
         "rebuild the object from its children as they are, without checking or computing on them (`cls(*children)`, "
         "or `object.__new__(cls)` then set the fields); check shapes where you create the object instead"),
    Rule("hashed-callable", lambda f: (f.desc.get("where") or {}).get("generated") == "__hash__" and f.says(r"unhashable type: '(?:[\w.]+\.)?ArrayImpl'"),
         "JAX hashes the function you give it (`lax.scan`, `jax.jit`, `lax.cond` cache their trace by it), and this "
         "one is an object whose `__hash__` (a frozen dataclass's, made from its fields) hashes the arrays it holds",
         "pass a plain function that calls the object instead of the object itself, e.g. `lax.scan(lambda carry, x: "
         "model(carry, x), init, xs)` or `jax.jit(lambda *a: model(*a))`"),
    Rule("leaves-of-different-ranks", lambda f: bool(_leaves_joined(f)),
         lambda f: (f"the leaves of `{_tree_of(_leaves_joined(f))}` have different shapes "
                    f"({_leaf_shapes(f)}), and "
                    f"`jnp.concatenate` joins arrays along an axis they share"),
         lambda f: (f"flatten the whole tree into one vector: `flat, unravel = jax.flatten_util.ravel_pytree("
                    f"{_tree_of(_leaves_joined(f))})` (`unravel(flat)` gives the tree back), or ravel each leaf first, "
                    f"`jnp.concatenate([jnp.ravel(x) for x in {_leaves_joined(f)}])`")),
    Rule("values-of-a-pytree", lambda f: f.is_("AttributeError") and f.says(r"^'\w+' object has no attribute 'values'$")
         and ".values()" in f.code,
         lambda f: f"`{_class_named(f)}` is not a dict, so it has no `.values()`",
         lambda f: guess(f"to go over the arrays of any pytree (a NamedTuple, a dataclass, a dict), use "
                         f"`jax.tree.leaves(...)` instead of `.values()`")),
    # ---- custom rules
    Rule("complex-tangent", lambda f: bool(_complex_tangent(f)[0]),
         lambda f: (f"the primal output is real ({_complex_tangent(f)[0]}) and the rule's tangent is complex "
                    f"({_complex_tangent(f)[1]})"),
         "take the tangent's real part, `jnp.real(t)`: the derivative of a real output is real (the imaginary parts "
         "of the complex intermediate values cancel in it)"),
]
