"""The fix a rule gives once its trial has run (`trials.py`): what traced on the student's values,
quoted as their own call; or, where nothing could be tried, the rule's own fix offered as a guess.

Three forms of a `fix:` line, and what each promises:
- `this traces on your values: ...`, or the rule's own fix followed by `(tried on your values: this
  traces)`: the candidate was traced by `jax.eval_shape` on the student's own arguments (their
  shapes, dtypes and containers) and raised nothing;
- a plain instruction: rules without a trial, whose fix follows from JAX's message alone;
- `a guess, not tried on your values: ...` (`GUESS`): a rule that could not confirm its fix (the
  call is not written on the failing line, its values were tracers, or the trial ran out of time),
  or whose candidate was traced and failed.
"""
from __future__ import annotations

import ast
import re

from .rule_facts import Facts

GUESS = "a guess, not tried on your values: "
TRACES = "this traces on your values: "
CONFIRMED = " (tried on your values: this traces)"


def guess(text: str) -> str:
    return GUESS + text


def _tried(f: Facts, kind: str) -> dict:
    t = f.trial
    if t.get("kind") != kind or not isinstance(t.get("labels"), list):
        return {}
    labels = t["labels"]
    t = dict(t, traced=[i for i in t.get("traced", []) if type(i) is int and 0 <= i < len(labels)])
    return t


def _literal(text: str):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None


def _distance(candidate, given, n: int) -> int:
    """How many `in_axes` entries a candidate changes from what the student wrote (a bare int or
    nothing written counts as that int, or 0, for every argument)."""
    if not isinstance(given, (tuple, list)):
        given = (0 if given is None else given,) * n
    return sum(1 for i, entry in enumerate(candidate) if i >= len(given) or entry != given[i])


def _proposed(fallback: str, n: int):
    """The first `in_axes=...` a rule's own fix proposes, as a tuple of `n` entries (None if none)."""
    m = re.search(r"in_axes=([^`]+)`", fallback)
    text = m.group(1) if m else ""
    while text:
        value = _literal(text)
        if value is not None or text.strip() == "None":
            if isinstance(value, (tuple, list)):
                return tuple(value)
            return (value,) * n
        if not text.endswith(")"):
            return None
        text = text[:-1]
    return None


def vmap_fix(f: Facts, call: dict, fallback: str, principle: str = "") -> str:
    """The rule's own fix when its `in_axes` traced ("this traces"); else the `in_axes` that traced
    with the fewest changes to the student's own (those tied, up to three), after the rule's
    `principle`; else, nothing having traced (a container argument may need an `in_axes` per entry,
    which is not among the candidates), the rule's fix as a guess."""
    from .trial_plans import NESTED, STACKED
    t = _tried(f, "vmap")
    if not t:
        return guess(fallback)
    fn = call.get("fn") or "f"
    fn = fn if len(fn) <= 40 else "f"
    args = ", ".join(call.get("args", []))
    n = len(call.get("args", []))
    stacked = [int(t["labels"][i][len(STACKED):]) for i in t["traced"] if t["labels"][i].startswith(STACKED)]
    if stacked and stacked[0] < n and "jnp.stack(" in fallback:     # the rule's own fix stacks them
        return fallback + CONFIRMED
    if stacked and stacked[0] < n:    # a list of per-example entries: vmap maps array axes, not entries
        entries = call["args"][stacked[0]]
        values = list(call.get("args", []))
        values[stacked[0]] = f"jax.tree.map(lambda *v: jnp.stack(v), *{entries})"
        axes = f", in_axes={t['given']}" if t.get("given") else ""
        return (f"{TRACES}`jax.vmap({fn}{axes})({', '.join(values)})`: `{entries}` is a list (or tuple) of "
                f"per-example entries, and vmap maps an axis of arrays, not the entries of a list: stack them "
                f"leaf by leaf into arrays with a batch axis")
    nested = [t["labels"][i] for i in t["traced"] if t["labels"][i].startswith(NESTED)]
    if nested:                        # a pair of axes given for one array: two axes, two vmaps
        outer, inner = nested[0][len(NESTED):].split("|")
        return (f"{TRACES}`jax.vmap(jax.vmap({fn}, in_axes={inner}), in_axes={outer})({args})`: one vmap "
                f"maps one axis, so to map two axes nest two vmaps (the inner one maps the second entry of "
                f"each pair, the outer one the first)")
    traced = {i: _literal(t["labels"][i]) for i in t["traced"] if not t["labels"][i].startswith((NESTED, STACKED))}
    traced = {i: tuple(v) for i, v in traced.items() if isinstance(v, (tuple, list))}
    if not traced:
        return guess(fallback)
    if _proposed(fallback, n) in traced.values():
        return fallback + CONFIRMED
    given = _literal(t.get("given") or "") if t.get("given") else None
    rank = {i: (_distance(v, given, n), sum(e is None for e in v)) for i, v in traced.items()}
    best = min(rank.values())
    near = sorted(i for i in traced if rank[i] == best)[:3]
    first = f"`jax.vmap({fn}, in_axes={t['labels'][near[0]]})({args})`"
    others = "".join(f"; so does `in_axes={t['labels'][i]}`" for i in near[1:])
    pick = " (pick the one that maps the axis holding your examples)" if others else ""
    lead = f"{principle}; " if principle else ""
    return (f"{lead}{TRACES}{first}{others}{pick} (in `in_axes`, `None` passes an argument whole to every "
            f"call, a number is the axis that holds the batch)")


def moved_axis(f: Facts, call: dict) -> str:
    """What the `in_axes` that traced says where it moves one argument's mapped axis ("the examples of
    `x` lie on axis 1, not axis 0"), or '' (nothing traced, or it changes more than one entry)."""
    t, args = _tried(f, "vmap"), call.get("args", [])
    given = _literal(t.get("given") or "") if t.get("given") else None
    if not isinstance(given, (tuple, list)):
        given = (0 if given is None else given,) * len(args)
    for i in t.get("traced", []):
        value = _literal(t["labels"][i])
        if isinstance(value, (tuple, list)) and len(value) == len(args) == len(given):
            moved = [(j, e) for j, e in enumerate(value) if e != given[j]]
            if len(moved) == 1 and type(moved[0][1]) is int and type(given[moved[0][0]]) is int:
                j, axis = moved[0]
                return f"the examples of `{args[j]}` lie on axis {axis}, not axis {given[j]}"
    return ""


def carry_fix(f: Facts, component: str, before: str, after: str, dtype_changed: bool, fallback: str) -> str:
    """KEEP (the body's new carry made like the start) and START (the start made like the body's
    output) as they traced; when neither traced (a carry that grows, or a shape and a dtype that
    both change), the rule's own fix, as a guess."""
    from .trial_plans import KEEP, START, START_FULL, SWAP
    t = _tried(f, "carry")
    if not t:
        return guess(fallback)
    traced = {t["labels"][i] for i in t["traced"]}
    if dtype_changed:
        dtype = lambda aval: {"f32": "float32", "i32": "int32"}.get(aval.split("[")[0], aval.split("[")[0])  # noqa: E731
        ways = []
        if KEEP in traced:
            ways.append(f"cast the new value back with `.astype(jnp.{dtype(before)})` in the body")
        if START in traced:
            ways.append(f"start `{component}` with the dtype the body produces, "
                        f"`.astype(jnp.{dtype(after)})` on the initial value")
        return TRACES + "; or ".join(ways) if ways else (fallback if t.get("complete") else guess(fallback))
    if KEEP in traced:
        return (f"{TRACES}the body's new `{component}` reshaped back to {before} before it is returned "
                f"(`jnp.squeeze(...)`, `[0]` or `.reshape(...)` on the value that gained an axis of size 1), "
                f"so the carry keeps one fixed shape")
    if START in traced:
        return f"{TRACES}starting `{component}` with the shape the body returns, {after} (reshape the initial value)"
    if START_FULL in traced:
        zeros = f"jnp.zeros({_shape_of(after)}, jnp.{dtype_name(after)})"
        return (f"{TRACES}starting `{component}` with the shape the body returns, {after} (a carry has one fixed "
                f"shape): an initial value of that shape, e.g. `{zeros}`, if the carry is meant to hold that many "
                f"values; if it is meant to stay {before}, reduce the body's new value to that shape instead")
    if SWAP in traced:            # last: a swapped body that traces keeps its carry unchanged, which others fix too
        return (f"{TRACES}the body's two outputs the other way round: a scan body must return `(carry, y)`, the new "
                f"carry first and the value to stack second, and yours returns `{component}`'s new value second")
    return guess(fallback)


def dtype_name(aval: str) -> str:
    """`f32[3,1]` -> `float32`; `int32[]` -> `int32`."""
    name = aval.split("[")[0]
    return {"f32": "float32", "i32": "int32", "f64": "float64", "i64": "int64", "bool": "bool_"}.get(name, name)


def _shape_of(aval: str) -> str:
    """`int32[3,1]` -> `(3, 1)`; `f32[4]` -> `(4,)`."""
    dims = [d.strip() for d in aval.split("[", 1)[-1].rstrip("]").split(",") if d.strip()]
    return f"({dims[0]},)" if len(dims) == 1 else f"({', '.join(dims)})"


def broadcast_fix(f: Facts, fallback: str) -> str:
    t = _tried(f, "broadcast")
    if not t:
        return guess(fallback)
    traced = [t["labels"][i] for i in t["traced"]][:3]
    if traced:
        listed = " or ".join(f"`{text}`" for text in traced)
        which = " (they give different shapes: pick the one whose axes mean what you want)" if len(traced) > 1 else ""
        return f"{TRACES}{listed}{which}"
    return guess(fallback)


def method_fix(f: Facts, call: dict, fallback: str) -> str:
    """A transform given a method or a function whose argument is an object JAX cannot trace: the
    `argnums=` (grad), `static_argnums=` (jit) or `in_axes` (vmap) that traced, as the student's call."""
    t = _tried(f, "method")
    if not t or not t["traced"]:
        return guess(fallback) if not (t and t.get("complete")) else fallback
    fn, transform = call.get("fn") or "f", call.get("transform", "grad")
    args = ", ".join(call.get("args", []))
    setting = t["labels"][t["traced"][0]]
    how = {"grad": "differentiate with `argnums=` the position of the arrays",
           "value_and_grad": "differentiate with `argnums=` the position of the arrays",
           "jit": "mark the object static with `static_argnums=`",
           "vmap": "pass the object whole with `None` in `in_axes`"}.get(transform, "")
    return (f"{TRACES}`jax.{transform}({fn}, {setting})({args})`: {how}, so the object is passed along as "
            f"it is and JAX works only with the arrays; or {fallback}")


def rewrite_fix(f: Facts, fallback: str, why: str = "", certain: bool = False, limit: int = 3,
                changes=None) -> str:
    """The rewritten calls that traced (`trial_rewrites.py`), quoted, with `why` they fix it (those
    with the fewest `changes(label)` only, when given); else the rule's own fix: an instruction when
    it follows from JAX's message alone (`certain`) and no candidate was found failing, a guess
    otherwise."""
    from .trial_rewrites import STATIC
    t = _tried(f, "rewrite")
    traced = [t["labels"][i] for i in t["traced"] if t["labels"][i] != STATIC] if t else []
    if traced and changes is not None:
        traced = [text for text in traced if changes(text) == min(map(changes, traced))]
    if traced:
        shown = traced[:limit]
        listed = " or ".join(f"`{text}`" for text in shown)
        which = " (they differ: pick the one whose axes mean what you want)" if len(shown) > 1 else ""
        return f"{TRACES}{listed}{which}" + (f": {why}" if why else "")
    failed = bool(t) and t.get("complete") and t.get("failed")
    return fallback if certain and not failed else guess(fallback)


def static_branch_traced(f: Facts) -> bool:
    """Whether the trial of a `lax.cond` line found its predicate known while tracing and the Python
    `if` form tracing (`trial_rewrites.plan_static_branch`)."""
    from .trial_rewrites import STATIC
    t = _tried(f, "rewrite")
    traced = {t["labels"][i] for i in t["traced"]} if t else set()
    return STATIC in traced and len(traced) > 1


# ---------------------------------------------------------------- rewrites by the error's kind
# generator (`trial_kinds.py`) -> (the cause, when no rule knows the message; why the rewrite works)
KIND_TEXTS = {
    "where": ("Python's `if`/`and`/`or`/`max` asks for the truth of a traced value, which is unknown "
              "while tracing",
              "`jnp.where` computes both sides and picks elementwise, without a Python `if` on a traced value"),
    "size": ("the size of this output depends on the values, and under a transformation every shape must "
             "be known while tracing",
             "a fixed `size=` (here the most it can hold) makes the shape known while tracing; entries past "
             "the count are padding (`fill_value=` sets them)"),
    "positional": ("these parameters are positional-only: they cannot be passed by keyword",
                   "the same values passed by position, in order, instead of by keyword"),
    "unpack": ("the function takes these values as separate arguments, and got one tuple (or list) holding them",
               "the tuple's entries unpacked into separate arguments"),
    "array-scalar": ("Python raised on Python numbers: Python's arithmetic raises where JAX's gives inf or nan",
                     "as a JAX array (`jnp.asarray`), the division gives inf or nan instead of raising, and "
                     "`jnp.where` keeps the side you want"),
    "cast": ("the value has another dtype than the one JAX expects here (a cotangent has the dtype of the "
             "function's output)",
             "the value cast to the dtype of the function's output"),
    "split-count": ("the number of keys split does not match the number of names they are unpacked into",
                    "one key per name: the split count is the number of names"),
    "partial": ("`jax.tree.map` walks every argument after the function as a tree of the first one's "
                "structure, and this one is a single value",
                "`functools.partial` binds the value shared by every leaf, and tree.map walks the tree only"),
    "args-tuple": ("`args` is the tuple of extra arguments passed to the function",
                   "`args` as a tuple, one entry per extra argument"),
    "in-axes": ("each entry of `in_axes` is an axis (a number) or `None`",
                "`True` written as axis 0 and `False` as `None` (passed whole, not mapped)"),
    "map-tuple": ("`lax.map` walks one `xs` (an array or a tuple of arrays), not several",
                  "pass the arrays as one tuple and unpack it in the function"),
    "static": ("a jit argument that is not an array (an object, a string, a shape) cannot be traced",
               "the argument marked static: JAX passes it as it is (it must be hashable) and traces again "
               "when it changes"),
    "renamed": ("this JAX module has no such name (removed or renamed in a JAX release, or misspelt)",
                "the name JAX has now for it, which takes the same arguments"),
    "jnp": ("a NumPy function was given a traced value: NumPy needs concrete numbers, JAX's NumPy traces",
            "`jnp` instead of `np`: the same function from JAX's NumPy, which traces"),
    "keep-array": ("a traced value was turned into a Python number, which is unknown while tracing",
                   "the value kept as a JAX array (of that kind), which the arithmetic after it takes as it is"),
    "float-input": ("`jax.grad` differentiates with respect to float inputs only, and this one is an integer",
                    "the input as a float array (`allow_int=True` would not differentiate it)"),
    "drop-entry": ("an entry of a container given to a jitted function is not an array, so it cannot be traced",
                   "pass only the arrays: the non-array entry kept out of what jit traces (it is not read there)"),
    "einsum-labels": ("an einsum label names axes of different lengths",
                      "that operand's subscripts in the order of its axes, so that every label has one length"),
    "mask": ("a slice whose length is traced has a shape unknown while tracing",
             "a mask keeps the shape fixed, and the entries past the length count as 0 in the sum"),
}


def _kind_traced(f: Facts) -> list[tuple[str, str]]:
    """[(generator, rewritten text)] that traced, in the plan's order (most conservative first)."""
    from .trial_kinds import label_parts
    t = f.desc.get("kind_trial")
    if not isinstance(t, dict) or t.get("kind") != "kinds" or not isinstance(t.get("labels"), list):
        return []
    labels = t["labels"]
    out = []
    for i in sorted({i for i in t.get("traced", []) if type(i) is int and 0 <= i < len(labels)}):
        gen, text = label_parts(str(labels[i]))
        if gen in KIND_TEXTS:
            out.append((gen, text))
    return out


def kind_fix(f: Facts) -> str:
    """`this traces on your values: `rewrite`: why` for the rewrites by kind that traced (up to two,
    the most conservative kind first), or ''."""
    traced = _kind_traced(f)
    if not traced:
        return ""
    first = traced[0][0]
    shown = [text for gen, text in traced if gen == first][:2]
    listed = " or ".join(f"`{text}`" for text in shown)
    return f"{TRACES}{listed}: {KIND_TEXTS[first][1]}"


def kind_cause(f: Facts) -> str:
    traced = _kind_traced(f)
    return KIND_TEXTS[traced[0][0]][0] if traced else ""
