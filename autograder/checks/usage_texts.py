"""Reading JAX's error texts outside jit, and the causes and fixes built from them, for the rules
of `usage_rules.py`: which argument and axis sizes a vmap error lists, which carry component changed
from what type to what, which branch returned what, the shapes an operation refused.
"""
from __future__ import annotations

import ast
import re

from .rule_facts import Facts
from .trial_texts import GUESS

_SIZE_LINE = re.compile(r"(?:one axis had size|most axes \(\d+ of them\) had size) (\d+)"
                        r"(?:, e\.g\.|:) axis (\d+) of (?:argument )?(\S+) of type (\S+?);?$", re.M)
_SHARED_NAMES = re.compile(r"^(params?|p|w|W|b|weights?|bias(es)?|theta|kernel|model|state|coef\w*|"
                           r"mu|sigma|scale|shift|net|layers?|cfg|config|table|A|M|K)\b")


def _first(pattern: str, text: str, group: int = 1, default: str = "") -> str:
    m = re.search(pattern, text)
    return m.group(group) if m else default


def _call(f: Facts, transform: str) -> dict:
    """The `jax.<transform>(fn, ...)(args)` call on the student's line, if it is written there (the
    one that starts on the failing line first, in a statement that spans several)."""
    calls = [t for t in f.stmt.get("transformed", []) if t["transform"] == transform]
    on_line = [t for t in calls if t.get("line") == f.stmt.get("line")]
    return (on_line or calls or [{}])[0]


def _top(name: str) -> str:
    """`p['w']` -> `p`, `args[1]` -> `args[1]`, `kwargs['w']` -> `w` (the argument a leaf belongs to)."""
    if name.startswith("kwargs["):
        return name[8:-2]
    return name if name.startswith("args[") else re.split(r"[\[.]", name)[0]


def _vmap_sizes(f: Facts) -> list[dict]:
    """Each mapped axis JAX listed (top-level arguments once): size, axis, argument, type, dims."""
    seen, out = set(), []
    for size, axis, name, typ in _SIZE_LINE.findall(f.text):
        if _top(name) not in seen:
            seen.add(_top(name))
            dims = tuple(int(d) for d in re.findall(r"\d+", typ.split("[", 1)[-1]))
            out.append({"size": int(size), "axis": int(axis), "name": _top(name), "type": typ, "dims": dims})
    return out


def _batch_size(sizes: list[dict]) -> int:
    """The batch length the call most likely meant: that of the arguments not named like parameters
    (`w`, `params`) when some are; else the most common length; else, between two, that of an
    argument mapped along its first axis (a non-zero axis in `in_axes` is the likelier slip), else
    the first argument's."""
    named = [s for s in sizes if _SHARED_NAMES.match(s["name"])]
    if named and len(named) < len(sizes):
        return next(s["size"] for s in sizes if s not in named)
    counts: dict[int, int] = {}
    for s in sizes:
        counts[s["size"]] = counts.get(s["size"], 0) + 1
    top = max(counts.values())
    if list(counts.values()).count(top) == 1 and top > 1:
        return next(size for size, n in counts.items() if n == top)
    return next((s["size"] for s in sizes if s["axis"] == 0), sizes[0]["size"])


def _given_in_axes(f: Facts):
    """The `in_axes` written on the line (a tuple of ints and Nones), if it can be read."""
    text = _call(f, "vmap").get("in_axes", "")
    try:
        value = ast.literal_eval(text) if text else None
    except (ValueError, SyntaxError):
        return None
    return tuple(value) if isinstance(value, (tuple, list)) else None


def _vmap_plan(f: Facts) -> tuple[int, list[tuple[str, object, object]], str]:
    """(batch length, [(argument, axis now, axis proposed)], the proposed `in_axes` tuple)."""
    sizes, call = _vmap_sizes(f), _call(f, "vmap")
    batch = _batch_size(sizes)
    plan, spelled = [], dict(zip((s["name"] for s in sizes), call.get("args", []) if len(call.get("args", [])) == len(sizes) else []))
    for s in sizes:   # a parameter's name as the student spelled the argument (jnp.outer's `b` may be their rows)
        if s["size"] == batch:
            new = s["axis"]
        elif _SHARED_NAMES.match(spelled.get(s["name"], s["name"])) or batch not in s["dims"]:
            new = None
        else:
            new = s["dims"].index(batch)
        plan.append((s["name"], s["axis"], new))
    entries = [str(new) for _, _, new in plan]
    given = _given_in_axes(f)
    if given is not None and sum(e is not None for e in given) == len(entries):   # JAX lists mapped ones only
        listed = iter(entries)
        entries = ["None" if e is None else next(listed) for e in given]
    if call and not call["starred"] and len(call["args"]) > len(entries):       # arguments JAX did not list
        entries += ["0"] * (len(call["args"]) - len(entries))
    return batch, plan, f"({', '.join(entries)}{',' if len(entries) == 1 else ''})"


def _vmap_sizes_cause(f: Facts) -> str:
    listed = ", ".join(f"axis {s['axis']} of `{s['name']}` has {s['size']} ({s['type']})" for s in _vmap_sizes(f))
    return (f"`jax.vmap` maps each argument along one axis (axis 0 unless `in_axes` says otherwise), and "
            f"all mapped axes must have one length, the batch size; here {listed}")


def _vmap_sizes_fix(f: Facts) -> str:
    entries = _first(r"argument (\w+)\[\d+\] of type", f.text)
    if entries:                       # the leaves of a tuple or list argument, each mapped on its own
        return (f"`{entries}` is a tuple (or list) of arrays, and vmap maps each entry along its own axis, not "
                f"over the entries: pass one stacked array instead of a tuple (`jnp.stack({entries})`; the keys "
                f"of `jax.random.split(key, n)` are already one array of keys, not a tuple)")
    batch, plan, in_axes = _vmap_plan(f)
    fn = _call(f, "vmap").get("fn") or "f"
    fn = fn if len(fn) <= 30 else "f"
    whole = [name for name, _, new in plan if new is None]
    reasons = [f"`{name}` has the batch length {batch} on axis {new}, not axis {now}"
               for name, now, new in plan if new is not None and new != now]
    if whole:
        these = " and ".join(f"`{n}`" for n in whole)
        reasons.append(f"if {these} {'is' if len(whole) == 1 else 'are'} the same for every example "
                       f"(parameters, a table), pass {'it' if len(whole) == 1 else 'them'} whole")
    text = (f"{'; '.join(reasons) or 'map every argument along an axis of the same length'}: "
            f"`jax.vmap({fn}, in_axes={in_axes})` (`None` = passed whole to every call, a number = the axis "
            f"that holds the batch of {batch})")
    if whole:
        text += (f"; if {'it is a batch' if len(whole) == 1 else 'they are batches'} too, every mapped argument "
                 f"needs the same mapped axis size ({batch} here: stack or pad the batches to it)")
    return text


def _keys_count_text(f: Facts) -> str:
    """Where a mapped argument is an array of PRNG keys (`key<...>[n]`) and the others share another
    batch length: the keys' count is the likelier slip (one key per example)."""
    sizes = _vmap_sizes(f)
    keys = [s for s in sizes if s["type"].startswith("key<") or "uint32" in s["type"] and s["dims"][-1:] == (2,)]
    others = {s["size"] for s in sizes if s not in keys}
    if len(keys) != 1 or len(others) != 1:
        return ""
    n = next(iter(others))
    return (f"if `{keys[0]['name']}` holds one key per example, split as many keys as the batch: "
            f"`jax.random.split(key, {n})` gives {n} keys")


def _in_axes_tree_fix(f: Facts) -> str:
    """A dict (or tuple) in `in_axes` that does not mirror its argument: name what it must hold, and
    the tuple with `None` for a container whose entries were all `None`."""
    given = _given_in_axes(f)
    if given is not None and any(isinstance(e, (dict, tuple, list)) for e in given):
        def whole(e):
            values = list(e.values()) if isinstance(e, dict) else list(e) if isinstance(e, (tuple, list)) else [e]
            return None if all(v is None for v in values) else e
        fixed = tuple(whole(e) for e in given)
        if fixed != given and all(not isinstance(e, (dict, tuple, list)) for e in fixed):
            return (f"a container in `in_axes` must mirror its argument entry for entry (every dict key); to pass "
                    f"the whole argument unmapped, write one `None` for it: `in_axes={fixed!r}`")
    inner = f.group(r"key path\s+vmap (in_axes\[\d+\](?:\[[^\]]+\]|\.\w+)+)")
    if inner:                                   # the mismatch is inside one argument's pytree
        return (f"`in_axes` must be a tree prefix of the arguments: at `{inner}` give one int or `None` for the "
                f"whole subtree, or a container with one entry for each of its elements (as many as the argument "
                f"holds there)")
    return ("give `in_axes` one entry per positional argument, each an int or `None` (e.g. `in_axes=(0, 0)`), "
            "a dict only with every key of a dict argument; to map two axes of an array, nest two vmaps: "
            "`jax.vmap(jax.vmap(f, in_axes=(1, 1)), in_axes=(0, 0))`")


def _in_axes_count_fix(f: Facts) -> str:
    n = int(_first(r"len\(args\)=(\d+)", f.text, default="0") or 0)
    example = ", ".join(["0"] + ["None"] * (n - 1)) if n else "0, None"
    return (f"give `in_axes` one entry per positional argument ({n} here), e.g. `in_axes=({example})`, "
            f"with `None` for each argument passed whole; or a single `0` to map them all")


def _vmap_rank_fix(f: Facts) -> str:
    axis = _first(r"along axis (-?\d+)", f.text, default="0")
    shape = _first(r"its shape is (\([^)]*\))", f.text, default="")
    if shape == "()":
        return ("a scalar has no axis to map: pass it whole with `None` in `in_axes` "
                "(e.g. `in_axes=(0, None)`), or give it a batch axis first (`jnp.full((n,), v)`)")
    return (f"an argument of shape {shape} has no axis {axis}: map along an axis it has "
            f"(`in_axes=0` for its first), or pass it whole with `None` in `in_axes`")


def _out_axes_fix(f: Facts) -> str:
    got = _first(r"prefix pytree vmap out_axes has a subtree of type (.+?), but", f.text)
    full = _first(r"full pytree has a subtree of (?:the same type but )?(.+?)\.\s*$", f.text)
    if full.startswith("of ") and got:
        full = f"{got.split()[0]} {full}"
    detail = f" (out_axes is a {got}; the function returns a {full})" if got and full else ""
    return (f"give `out_axes` the structure of what the function returns, one entry per output"
            f"{detail}, or a single int (`out_axes=0`) for all of them")


def _grad_of(f: Facts) -> str:
    for t in ("grad", "value_and_grad"):
        c = _call(f, t)
        if c.get("fn"):
            return c["fn"]
    return "f"


def _grad_output_cause(f: Facts) -> str:
    shape = _first(r"Output had shape: (\([^)]*\))", f.text)
    if shape:
        return f"`jax.grad` differentiates a function that returns one number; `{_grad_of(f)}` returns shape {shape}"
    return f"`jax.grad` differentiates a function that returns one number; `{_grad_of(f)}` returns a tuple or list"


def _grad_output_fix(f: Facts) -> str:
    fn = _grad_of(f)
    reduce = (f"reduce it to one number first (return `jnp.sum(...)` or `jnp.mean(...)` of the per-example "
              f"values); for one gradient per example use `jax.vmap(jax.grad({fn}))`, for the full Jacobian "
              f"`jax.jacrev({fn})`")
    if _first(r"Output had shape: (\([^)]*\))", f.text):
        return reduce
    aux = (f"if it returns `(loss, extra)`, use `jax.grad({fn}, has_aux=True)`, which returns "
           f"`(gradient, extra)`")
    if re.search(r"Output was \((Array|TypedFloat)\(-?[\d.e+-]+,", f.text):   # a tuple led by a scalar
        return f"{aux}; if every output is to be differentiated, {reduce}"
    return f"{reduce}; {aux}"


def _carry(f: Facts) -> tuple[str, str, str, str]:
    """(loop, component, type before, type after) from a carry-type error."""
    loop = _first(r"^(scan|while_loop) body function", f.text, default="scan")
    if "loop_carry" in f.text or f.calls("lax.fori_loop", "jax.lax.fori_loop", "fori_loop"):
        loop = "fori_loop"
    component = _first(r"input carry (?:component )?(\S+) has type", f.text)
    component = re.sub(r"^loop_carry\[1\]", "carry", component)
    before = _first(r"has type (\S+) but the corresponding output", f.text)
    after = _first(r"output carry component has type (\S+?),(?:\s|$)", f.text)
    return loop, component, before, after


def _carry_cause(f: Facts) -> str:
    loop, component, before, after = _carry(f)
    what = "dtype" if "dtypes do not match" in f.text else "shape"
    return (f"the `{loop}` carry must keep its type from one step to the next; `{component}` starts as "
            f"{before} and the body returns {after} (its {what} changed)")


def _dtype_name(aval: str) -> str:
    name = aval.split("[")[0]
    return {"f32": "float32", "i32": "int32"}.get(name, name)


def _carry_fix(f: Facts) -> str:
    _, component, before, after = _carry(f)
    if "dtypes do not match" in f.text:
        return (f"start `{component}` with the dtype the body produces: `.astype(jnp.{_dtype_name(after)})` on "
                f"the initial value (or `jnp.{_dtype_name(after)}(0)`), or cast the new value back with "
                f"`.astype(jnp.{_dtype_name(before)})` in the body")
    return ("a carry has one fixed shape: allocate it at full size before the loop and fill it with "
            "`.at[i].set(...)`, or (in `scan`) return the per-step value as `y`, which scan stacks for you")


def _kind(text: str) -> str:
    """`a <class 'jax._src.core.ShapedArray'>` -> `an array`; `a <class 'tuple'>` -> `a tuple`."""
    name = _first(r"<class '(?:[\w.<>]+\.)?(\w+)'>", text, default=text)
    return {"ShapedArray": "an array", "ArrayImpl": "an array", "NoneType": "`None`"}.get(name, f"a {name}")


def _branch_cause(f: Facts) -> str:
    m = re.search(r"output of (\w+) has type (\S+) but the corresponding output of (\w+) has type (\S+?),(?:\s|$)", f.text)
    if m:
        return (f"both branches are compiled and must return the same types; `{m.group(1)}` returns "
                f"{m.group(2)} and `{m.group(3)}` returns {m.group(4)}")
    m = re.search(r"(\w+ ?\d*) output is (.+?) but (\w+ ?\d*) output is (.+?), so", f.text)
    if m:
        kind = [_kind(m.group(i)) if "<class" in m.group(i) else m.group(i) for i in (2, 4)]
        return (f"both branches are compiled and must return the same structure; {m.group(1)} returns "
                f"{kind[0]} and {m.group(3)} returns {kind[1]}")
    return "both branches are compiled and must return the same shapes, dtypes and containers"


def _branch_fix(f: Facts) -> str:
    if re.search(r"has type key<\w+>\S* but .* has type uint32|has type uint32\S* but .* has type key<", f.text):
        return ("make both branches return the same kind of PRNG key: one returns a typed key "
                "(`jax.random.key`), the other a raw uint32 key (`jax.random.PRNGKey`); use `jax.random.key` "
                "in both, or convert with `jax.random.wrap_key_data(raw)` / `jax.random.key_data(key)`")
    if "dtypes do not match" in f.text:
        target = _dtype_name(_first(r"output of \w+ has type (\S+) but", f.text, default="float32"))
        return (f"make both branches return the same dtype and shape: cast with `.astype(jnp.{target})` "
                f"(a Python `1` is an int: write `1.0`)")
    preds = f.stmt.get("python_predicates") or []
    if "shapes do not match" in f.text and preds:   # a Python bool picks the side before any tracing
        return (f"`{preds[0]}` is a Python value, known before tracing: choose with a Python `if` (`a if {preds[0]} "
                f"else b`), which builds one side only; `lax.cond` compiles both, so they need one shape")
    if "shapes do not match" in f.text:
        return ("make both branches return the same shape and dtype (e.g. `jnp.zeros_like(x)` or "
                "`jnp.full_like(x, v)` instead of a scalar)")
    kinds = re.search(r"output is a <class '(list|tuple)'> but \w+ ?\d* output is a <class '(list|tuple)'>", f.text)
    if kinds and kinds.group(1) != kinds.group(2):   # a list on one side, a tuple on the other: other pytrees
        return "make both branches return the same kind of container: convert the list, `tuple(the_list)`, where it is returned"
    return "make both branches return the same containers (same dict keys, tuple lengths), with the same shapes"


def _tree_fix(f: Facts) -> str:
    path = _first(r"key path\s+tree_map tree(\S*)", f.text)
    where = f" at `{path}`" if path else ""
    node = _first(r"has a subtree of type\s+<class '(?:[\w.<>]+\.)?(\w+)'>", f.text)
    custom = node not in ("", "dict", "list", "tuple", "NoneType", "OrderedDict", "defaultdict")
    if custom and "different pytree metadata" in f.text:      # a registered class's aux data, not dict keys
        a = _first(r"with metadata\s+(.+?)\s+but", f.text)
        b = _first(r"but with metadata\s+(.+?)\s+so", f.text)
        return (f"{GUESS}`{node}` nodes carry different metadata in the two trees{where} ({a} vs {b}): JAX compares "
                f"the aux data `tree_flatten` returns, so a value that differs between the trees belongs in the "
                f"children; or hand the `{node}` objects to your function whole: `is_leaf=lambda n: "
                f"isinstance(n, {node})`")
    if custom and "different numbers of pytree children" in f.text:
        return (f"{GUESS}`{node}`'s `tree_flatten` gives it a different number of children in the two trees{where}, "
                f"so JAX cannot match them node by node: return its containers whole as children (a dict as one "
                f"child), so that JAX walks into them, or hold the values in a plain dict")
    if "different pytree metadata" in f.text:
        a = _first(r"with metadata\s+(.+?)\s+but", f.text)
        b = _first(r"but with metadata\s+(.+?)\s+so", f.text)
        return (f"give the trees the same structure{where}: their dict keys differ ({a} vs {b}); build both "
                f"from the same keys (e.g. `jax.tree.map(lambda p: ..., params)` for the second)")
    if "different lengths" in f.text:
        return (f"give the trees the same structure{where}: one has more entries than the other; map over "
                f"trees of the same length (one entry per layer in both)")
    if "different types" in f.text:
        a = _kind(_first(r"has a subtree of type\s+(<class '[\w.<>]+'>)", f.text))
        b = _kind(_first(r"subtree of different type\s+(<class '[\w.<>]+'>)", f.text))
        if "`None`" in (a, b):
            return (f"{GUESS}give the trees the same structure{where}: `None` is an "
                    f"empty subtree in JAX, not a leaf. If it means \"no value here\" (a mask, an optional entry), "
                    f"pass `is_leaf=lambda x: x is None` to `jax.tree.map` so your function receives it, or "
                    f"write a value of the other tree's kind there (`False` in a boolean mask); if nothing is "
                    f"there in either tree, write `None` in both")
        if custom and "an array" in (a, b):   # a registered class (a callable module) against one value
            return (f"`{node}` is a pytree node, which `jax.tree.map` walks into, and the other tree has one value "
                    f"there{where}: to hand each `{node}` to your function whole, `is_leaf=lambda x: isinstance(x, {node})`")
        if "an array" in (a, b):
            same = (f"give the trees the same structure{where}: {a} in one and {b} in the other (a whole "
                    f"container against a single array)")
            if "grad" in f.code:          # a gradient with the structure of another argument than the parameters
                return (f"{GUESS}one of them is a gradient: if it has the structure of another argument than the "
                        f"parameters, `jax.grad` differentiated that argument; differentiate with respect to the "
                        f"parameters (with `argnums=` their position, or a function of the parameters "
                        f"themselves); otherwise {same}")
            return same
        both = ("a plain `dict` in both (`dict(x.items())`)" if any(x.endswith(" dict") for x in (a, b)) else
                "one container type in both (`tuple(...)` or `list(...)`)")
        return f"give the trees the same structure{where}: {a} in one and {b} in the other; use {both}"
    return "give the trees the same structure (same dict keys, same lengths, same containers)"


_CLASS_OF_VALUE = r"(?:of|with) type '?<class '([\w.<>]+)'>"


def _unregistered(f: Facts) -> str:
    kind = _first(_CLASS_OF_VALUE, f.text)
    return kind.rsplit(".", 1)[-1] if kind else ""


def _is_user_class(f: Facts) -> bool:
    kind = _first(_CLASS_OF_VALUE, f.text)
    return bool(kind) and "." in kind and not kind.startswith(("numpy.", "jax", "builtins."))


def _unregistered_fix(f: Facts) -> str:
    name = _unregistered(f)
    return (f"register `{name}` as a pytree so JAX can see the arrays in it: `@jax.tree_util.register_dataclass` "
            f"on a `@dataclass`, `jax.tree_util.register_pytree_node_class` (a decorator, with `tree_flatten`/`tree_unflatten`), "
            f"or make it a `NamedTuple`; or pass its arrays (a dict) instead of the object")


def _concat_fix(f: Facts) -> str:
    if "different numbers of dimensions" in f.text:
        return ("give them the same number of axes first: add the missing one with `x[None]` (or "
                "`jnp.expand_dims`), or `jnp.broadcast_to` the smaller one; or use `jnp.stack` on arrays of "
                "one shape; then concatenate along the axis that differs (`axis=`)")
    axis = int(_first(r"along dimension (\d+)", f.text, default="0"))
    shapes = [tuple(int(d) for d in re.findall(r"\d+", s)) for s in
              re.findall(r"\(([\d, ]*)\)", _first(r"for shapes (.+?)\.\s*$", f.text))]
    differ = sorted({d for a in shapes for b in shapes if len(a) == len(b)
                     for d in range(len(a)) if a[d] != b[d] and d != axis})
    if len(differ) == 1 and shapes and all(len(s) == len(shapes[0]) for s in shapes) and all(
            a[axis] == b[axis] for a in shapes for b in shapes):
        return (f"the shapes differ along axis {differ[0]} only: concatenate along it with "
                f"`axis={differ[0]}` (arrays may differ only along the axis they are joined on)")
    return (f"arrays may differ only along the axis they are joined on (axis {axis} here): make the other "
            f"dimensions equal first (reshape, transpose or broadcast), or join along the axis that differs (`axis=`)")


def _shapes_in(f: Facts) -> str:
    return _first(r"broadcasting:?\s*(?:shapes=)?\[?(\(.*?\)(?:, \(.*?\))+)", f.text)


# JAX's wording, read by the rules below (named: f-strings cannot hold the backslashes of a pattern)
_TEXT = {
    'in_axes_len': r'len.in_axes.=(\d+)',
    'axis_name': r'unbound axis name: (\S+?)\.',
    'bound_types': r'must have equal types, got (.+?)\.?$',
    'not_callable': r'^([\w.]+): \w+ argument should be callable',
    'jitted_fn': r'argument to <function (?:[\w.<>]+\.)?(\w+)(?: at|>)',
    'arg_path': r'passed to the function at path (\w+)',
    'value_type': r"problematic value is of type <class '(\w+)'>",
    'label': r"Size of label '(\w+)' for operand (\d+) \((\d+)\) does not match previous terms \((\d+)\)",
    'split_rest': r'rest is (\d+)',
    'set_types': r'input type=(\S+) and requested type=(\S+?)\.?$',
    'sample_sizes': r'larger sample \(size (\d+)\) than population \(size (\d+)\)',
    'sampler_dtype': r'dtype argument to `(\w+)` must be a float',
    'pred_function': r'got <function (?:[\w.<>]+\.)?(\w+)(?: at|>)',
    'seed_maker': r'^(\w+) accepts a scalar seed',
    'seed_shape': r'array of shape (.[^)]*.)',
    'out_path': r'^at vmap out_axes(\S*), got',
    'args_len': r'len.args.=(\d+)',
    'rank_axis': r'along axis (-?[0-9]+)',
    'rank_shape': r'its shape is (.[^)]*.)',
    'got_dtype': r'but got (\w+)',
    'transform': r'^(\w+) requires',
    'aux_value': r'with value [(](.*)[)]$',
    'argnums': r'argnums=(\S+)',
    'positional': r'got only (\d+)',
    'pred_aval': r'ShapedArray.([^)]*).',
    'of_shape': r'of shape (.[^)]*.)',
    'index_dtype': r'as (\w+)',
    'sampler': r'^(\w+) accepts',
    'bwd_tree': r'bwd output structure (PyTreeDef.*?) for',
    'primal_tree': r'primal input structure (PyTreeDef.*?)\.?$',
    'bwd_output': r'at (output\[\d+\])',
    'bwd_type': r'produced an output of type (\S+)',
    'bwd_input': r'corresponding to an input of type (\S+?),',
    'tangent_type': r'(?:but got |with tangent )(\S+?)(?:\.?$|,)',      # one output, or each of several
    'tangent_expected': r'(?:Expected |expecting tangent )(\S+?)(?:\s|,|$)',
    'concat_shapes': r'for shapes (.+?)\.?$',
    'concat_ndims': r'dimensions: got (.+?)\.?$',
    'stack_shapes': r'Got (.+?)\.?$',
    'contract_sizes': r'got (.+?)\.?$',
    'reshape_from': r'of shape (.[^)]*.) .size',
    'reshape_from_size': r'.size (\d+).',
    'reshape_to': r'into shape (\([^)]*\)|\d+)',
    'reshape_to_size': r'into shape (?:\([^)]*\)|\d+) .size (\d+).',
}


FLOAT0_TANGENT = ("give that output a `float0` zero as its tangent: `np.zeros(out.shape, dtype=jax.dtypes.float0)` "
                  "(`out` the integer or boolean primal output; `0.0` or an int array is not accepted)")
ELEMENTWISE = ("combine the conditions elementwise with `jnp.logical_and`/`jnp.logical_or`/`jnp.logical_not` (or "
               "`&`, `|`, `~` between parenthesised comparisons), then ")   # for Python's `and`/`or` on a mapped value


def _m(f: Facts, key: str, default: str = "") -> str:
    return _first(_TEXT[key], f.text, default=default)


def _count_values(listing: str) -> int:
    return len(re.findall(r"Tracer\(", listing)) or listing.count(",") + 1
