"""Rules for functions wired the wrong way round, written after the fifth held-out batch's first run
(`tests/mistakes/heldout_error_mistakes_5.py`), one per kind of JAX (or Python) message it met and no
rule knew: a `functools.partial` keyword that the caller's positional values fill again, a custom_vjp
forward rule that does not return a pair, keyword arguments of a vmapped function (mapped like the
rest), and a `lax.cond` whose predicate is known while tracing. After the fourteenth batch, two branch
outputs that differ in a way the generic branch rule misnames: one branch returns its operand unchanged
(`lambda m: m`), so the operand's dtype is the one to keep; and two classes of the same name (a class
defined twice, or a NamedTuple made again), which are different pytree nodes.

As in `operand_rules.py`, a fix that rewrites the failing line is traced on the student's values
(`trial_rewrites.py`) before it is quoted. `WIRING_RULES` come first in `rules.RULES`, with the
operand rules; `BRANCH_RULES` last (they read any error on a line that calls `lax.cond`).
"""
from __future__ import annotations

import re

from . import trial_rewrites as rw
from .rule_facts import Facts, Rule
from .trial_texts import guess, rewrite_fix

_P = {
    "multiple": r"got multiple values for argument '(\w+)'",
    "fwd": r"^Custom VJP fwd rule (\S+) for function (\S+) must produce a pair",
    "produced": r"the fwd rule \S+ produced (.*)\.$",
}
_BRANCHES = ("lax.cond", "jax.lax.cond", "lax.switch", "jax.lax.switch")


def _g(f: Facts, key: str, group: int = 1, default: str = "") -> str:
    return f.group(_P[key], group, default)


def _source(f: Facts) -> str:
    return f.source


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
    m = re.search(r"first element had container/pytree structure:\s*(\S)[^\n]*\n.*?had output container/pytree "
                  r"structure:\s*(\S)", f.text, re.S)
    kinds = {"(": "a tuple", "[": "a list", "{": "a dict"}
    if m and m.group(1) != m.group(2) and m.group(1) in kinds and m.group(2) in kinds:
        return (f"the function returns {kinds[m.group(2)]} and the forward rule's output is {kinds[m.group(1)]}: "
                f"return the same container, {kinds[m.group(2)]}, not {kinds[m.group(1)]}, as the first of "
                f"`(output, residuals)`")
    return ("return `(output, residuals)` with `output` exactly what the function returns (same containers), and "
            "anything else among the residuals")


def _vmapped(f: Facts) -> dict:
    """The vmapped call of the line given keyword arguments, where JAX's message is about them: a scalar
    mapped (no positional argument may be one), `in_axes` longer than the positional arguments, or a
    keyword argument among the sizes that differ."""
    for v in f.stmt.get("vmapped_keywords", []):
        if f.says(r"^vmap was requested to map its argument along axis 0.*its shape is \(\)"):
            if v["scalar_keywords"] and not v["scalar_positional"]:
                return v
        elif f.says(r"^vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional") \
                and _counts(f)[0] > _counts(f)[1] or (f.says(r"^vmap got inconsistent sizes") and f.says(r"of kwargs\[")):
            return v
    return {}


def _counts(f: Facts) -> tuple[int, int]:
    """(entries of `in_axes`, positional arguments), from JAX's message."""
    m = re.search(r"len\(in_axes\)=(\d+), len\(args\)=(\d+)", f.text)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def _closed(v: dict) -> list[str]:
    """The keywords to close over: the scalars (a rank error), else all of them."""
    return v["scalar_keywords"] if v["scalar_keywords"] and not v["scalar_positional"] and \
        len(v["scalar_keywords"]) < len(v["keywords"]) else list(v["keywords"])


def _vmapped_call(v: dict, inner: str = "") -> str:
    """`jax.vmap(functools.partial(f, order=1), in_axes=...)(a, b)` for a vmapped call `v`: its
    keywords to close over closed over, the others kept."""
    closed = _closed(v)
    bound = ", ".join(f"{k}={v['keywords'][k]}" for k in closed)
    options = "".join(f", {o}" for o in v.get("options", []))
    given = v["args"] + [f"{k}={t}" for k, t in v["keywords"].items() if k not in closed]
    return f"jax.vmap(functools.partial({inner or v['wrapped']}, {bound}){options})({', '.join(given)})"


def _positional_call(v: dict, unmapped: bool = False) -> str:
    """`f(xs, params)`: the keywords given by position, where they are the parameters right after the
    positional arguments ('' otherwise); with `unmapped`, for a vmap written on the line, also each
    given `None` in `in_axes` (`jax.vmap(f, in_axes=(0, None))(xs, params)`)."""
    after = v["params"][len(v["args"]):len(v["args"]) + len(v["keywords"])]
    if not v["params"] or sorted(after) != sorted(v["keywords"]):
        return ""
    given = ", ".join(v["args"] + [v["keywords"][p] for p in after])
    if not unmapped:
        return f"{v['fn']}({given})"
    axes = [o for o in v.get("options", []) if o.startswith("in_axes=")]
    first = axes[0].split("=", 1)[1] if axes else "0"
    if not v.get("written") or not first.lstrip("-").isdigit():
        return ""
    entries = ", ".join([first] * len(v["args"]) + ["None"] * len(after))
    options = "".join(f", {o}" for o in v.get("options", []) if not o.startswith("in_axes="))
    return f"jax.vmap({v['wrapped']}, in_axes=({entries}){options})({given})"


def _vmapped_cause(f: Facts) -> str:
    v = _vmapped(f)
    named = ", ".join(f"`{k}`" for k in _closed(v))
    said = "`jax.vmap` maps keyword arguments too, always along axis 0 (`in_axes` covers positional arguments only)"
    if f.says(r"^vmap was requested"):
        return f"{said}, and {named} is a scalar, with no axis to map"
    if f.says(r"^vmap in_axes must be"):
        return (f"{said}: `in_axes` has an entry for {named}, passed by keyword, and keyword arguments are not "
                f"counted")
    return f"{said}, and {named} has no axis 0 of the batch's length"


def _vmapped_fix(f: Facts) -> str:
    v = _vmapped(f)
    lam = v["wrapped"] == "<lambda>"
    defined = "" if v.get("written") or lam else \
        f", with `{v['wrapped']}` defined without the vmap (and the `in_axes` you mapped with)"
    positional = _positional_call(v) if not f.says(r"^vmap was requested") else ""
    first = (f"pass it positionally, `{positional}`, so that its entry of `in_axes` applies (`None` passes it whole); "
             f"or " if positional else "")
    t = f.trial if f.trial.get("kind") == "rewrite" else {}
    shown = [t["labels"][i] for i in t.get("traced", []) if type(i) is int and 0 <= i < len(t.get("labels", []))][:1]
    why = ("passed positionally, it has its entry in `in_axes`, which has one entry per positional argument "
           "(`None` passes it whole)" if shown and shown[0] in (positional, _positional_call(v, True)) else
           "the option closed over with `functools.partial` before `jax.vmap`"
           + ("" if v.get("written") or lam else f", `{v['wrapped']}` defined without the vmap"))
    return rewrite_fix(f, f"{first}close over options that are the same for every example before mapping: "
                          f"`{_vmapped_call(v, _mapped(v))}`{defined}", why, certain=True, limit=1)


def _mapped(v: dict) -> str:
    """How a message names the function the vmapped one maps: its name, or `f.__wrapped__` for a lambda."""
    return f"{v['fn']}.__wrapped__" if v["wrapped"] == "<lambda>" and not v.get("written") else v["wrapped"]


# ---------------------------------------------------------------- branch outputs
_TWO_CLASSES = r"output is a <class '([\w.<>]+)'> but \w+ ?\d* output is a <class '([\w.<>]+)'>"


def _identity_branch(f: Facts) -> tuple[str, str] | None:
    """(parameter, the other branch's body) where a `cond` on the line passes `lambda p: p` as one branch
    and a one-parameter lambda as the other."""
    import ast
    for node in ast.walk(f.parsed):
        if isinstance(node, ast.Call) and ast.unparse(node.func) in _BRANCHES and len(node.args) >= 3:
            sides = [a for a in node.args[1:3] if isinstance(a, ast.Lambda) and len(a.args.args) == 1]
            same = [a for a in sides if isinstance(a.body, ast.Name) and a.body.id == a.args.args[0].arg]
            if len(sides) == 2 and len(same) == 1:
                other = sides[1] if same[0] is sides[0] else sides[0]
                return same[0].args.args[0].arg, ast.unparse(other.body)
    return None


def _same_name(f: Facts) -> str:
    m = re.search(_TWO_CLASSES, f.text)
    if m and m.group(1).rsplit(".", 1)[-1] == m.group(2).rsplit(".", 1)[-1]:   # same name, yet not one class
        return m.group(1).rsplit(".", 1)[-1]
    return ""


BRANCH_OUTPUT_RULES: list[Rule] = [
    Rule("branch-keeps-operand-dtype", lambda f: f.says(r"(?s)^cond branches must have equal output types.*dtypes do not match")
         and _identity_branch(f) is not None,
         lambda f: (f"one branch returns its operand `{_identity_branch(f)[0]}` unchanged and the other computes a new "
                    f"value of another dtype; both branches must return the same types"),
         lambda f: (f"cast the new value back to the operand's dtype: `lambda {_identity_branch(f)[0]}: "
                    f"({_identity_branch(f)[1]}).astype({_identity_branch(f)[0]}.dtype)`, which keeps "
                    f"`{_identity_branch(f)[0]}` in the dtype it came in with, so both branches return the same dtype")),
    Rule("branch-same-name-classes", lambda f: bool(_same_name(f)),
         lambda f: (f"the branches return two different classes that are both named `{_same_name(f)}` (a class "
                    f"defined twice, or a NamedTuple made again): each class is its own kind of pytree node, even "
                    f"with the same fields"),
         lambda f: (f"give the trees the same structure: build both results with one class, converting the other "
                    f"(for NamedTuples, `type(first)(*second)`)")),
]


WIRING_RULES: list[Rule] = [
    # ---- functions wired the wrong way round
    Rule("partial-keyword", lambda f: f.is_("TypeError") and f.says(_P["multiple"]) and bool(_partial(f)),
         _partial_cause, _partial_fix),
    Rule("vjp-fwd-pair", lambda f: f.says(_P["fwd"]), _fwd_cause, _fwd_fix),
    Rule("vmap-keyword", lambda f: bool(_vmapped(f)), _vmapped_cause, _vmapped_fix),
    *BRANCH_OUTPUT_RULES,
]


# ---------------------------------------------------------------- any error on a lax.cond line (last)
def _static_branch(f: Facts) -> tuple[bool, bool]:
    """(the predicate is known while tracing, the Python `if` form traced), from the trial."""
    t = f.trial if f.trial.get("kind") == "rewrite" else {}
    labels = t.get("labels") or []
    traced = {labels[i] for i in t.get("traced", []) if type(i) is int and 0 <= i < len(labels)}
    return rw.STATIC in traced, any(label != rw.STATIC for label in traced)


_IN_BRANCH = ("broadcast", "concatenate", "stack", "contract", "reshape", "einsum-label", "split-equal", "set-shape")


def _branch_plan(f: Facts):
    """A shape error inside a branch (`usage_rules._in_branch`) on a `lax.cond` line: the same trial."""
    return rw.plan_static_branch(_source(f)) if f.calls(*_BRANCHES) else None


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
    """The keywords given by position (not for a scalar: it has no batch axis either way), then
    closed over before `jax.vmap`."""
    import ast
    v, tree = _vmapped(f), rw.parsed(_source(f))
    call = next((c for c in ast.walk(tree) if isinstance(c, ast.Call) and c.keywords
                 and ast.unparse(c.func) == v["fn"]), None) if tree and v else None
    if call is None:
        return None
    where = rw.scope(tree, call)
    candidates = []
    for positional in dict.fromkeys((_positional_call(v), _positional_call(v, True))):
        if positional and not f.says(r"^vmap was requested"):
            candidates.append((positional, rw.rewritten(where, call, rw.expr(positional))))
    label = _vmapped_call(v, _mapped(v))
    run = label if v.get("written") else _vmapped_call(v, f"{v['fn']}.__wrapped__")
    candidates.append((label, rw.rewritten(where, call, rw.expr(run))))
    return rw.plan_rewrites(candidates)


def _plan_partial(f: Facts):
    p, keyword = _partial(f), _g(f, "multiple")
    first = p.get("params") and p["params"][0] == keyword and not p["positional"]
    return rw.partial_positional(_source(f), keyword) if first else None


# rule -> the plan of its trial, from the description (`trials.plan_for`)
PLANS = {
    "partial-keyword": _plan_partial,
    "vmap-keyword": _vmapped_plan,
    "branch-static": lambda f: rw.plan_static_branch(_source(f)),
    **{name: _branch_plan for name in _IN_BRANCH},
    # `usage_rules`' forward mode through a custom_vjp: the student's own function, undecorated
    "vjp-forward-mode": lambda f: rw.plain_function(_source(f), (f.stmt.get("own_custom_vjps") or [""])[0]),
}
