"""Rules for conventions of JAX's API that a message states exactly, written after the fifteenth held-out
batch's first run (`tests/mistakes/heldout_error_mistakes_15.py`), one per kind of message it met and no
rule knew, each read from that message whatever the code around it (issue 38: a property of the
mistake, not one case's wording):

- what a call needs that JAX's message names: a reduced SVD for its derivative, a Python `nse=` for a
  sparse array built under a transform, a matrix for `multivariate_normal`'s covariance, a 32-bit number
  for `fold_in`, an `ordered=False` callback under `vmap`, an update of the operand's dtype;
- trees: a pullback's cotangent in another container than the output, a class registered twice, a
  dataclass registered without all its fields, a NamedTuple's `_replace`, a `tree_unflatten` that calls
  the class's own `__new__`, `jax.tree.reduce` without a starting value (its sum keeps a leaf's shape);
- values: a reduction with no identity on an empty array, a typed key used in arithmetic, a permutation
  that leaves out axes, a custom_vjp function that closes over what is differentiated;
- names: keywords JAX renamed (`in_axis_resources`), a removed function whose replacement JAX's message
  names, rewritten on the student's line.

A fix is an instruction where the message settles it, and a guess (`trial_texts.GUESS`) where the
student's intent decides. Part of the one rule table of `rules.py`, before the habit and value rules
(their messages are more general).
"""
from __future__ import annotations

import ast
import re

from .rule_facts import Facts, Rule
from .trial_texts import guess

# keyword arguments JAX renamed: old -> new (from JAX's changelog; the values keep their meaning)
RENAMED_KEYWORDS = {"in_axis_resources": "in_shardings", "out_axis_resources": "out_shardings",
                    "check_rep": "check_vma"}


def _calls(f: Facts, *suffixes: str) -> list[ast.Call]:
    """The calls on the failing line whose function's dotted name ends with one of `suffixes`."""
    return [n for n in ast.walk(f.parsed) if isinstance(n, ast.Call)
            and ast.unparse(n.func).endswith(suffixes)]


def _reduce_without_start(f: Facts) -> ast.Call | None:
    """`jax.tree.reduce(fn, tree)` with no starting value, on a line whose result `jax.grad` found not
    to be one number."""
    if not f.says(r"Gradient only defined for scalar-output functions"):
        return None
    found = [c for c in _calls(f, "tree.reduce", "tree_reduce") if len(c.args) == 2
             and not any(k.arg == "initializer" for k in c.keywords)]
    return found[0] if found else None


def _reduce_fix(f: Facts) -> str:
    call = _reduce_without_start(f)
    fixed = ast.Call(call.func, [*call.args, ast.Constant(0.0)], call.keywords)
    return (f"give it a starting value, `{ast.unparse(fixed)}`, so that the first leaf goes through "
            f"`{ast.unparse(call.args[0])}` like the others")


def _key_arithmetic(f: Facts) -> str:
    """The name a line both uses in arithmetic and reads the dtype of (`key + jnp.asarray(..., dtype=key.dtype)`),
    where NumPy could not name that dtype (a typed key's), or ''."""
    for node in ast.walk(f.parsed):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
            for side in (node.left, node.right):
                if isinstance(side, ast.Name) and (f"{side.id}.dtype" in f.code or "key" in side.id.lower()):
                    return side.id
    return ""


def _cotangent_containers(f: Facts) -> tuple[str, str]:
    m = re.search(r"was a <class '(\w+)'> in the original output, but a <class '(\w+)'> here", f.text)
    return (m.group(1), m.group(2)) if m else ("", "")


def _permutation(f: Facts) -> tuple[tuple, tuple] | None:
    m = re.search(r"got permutation (\([\d, ]*\)) for operand shape (\([\d, ]*\))", f.text)
    if not m:
        return None
    return ast.literal_eval(m.group(1)), ast.literal_eval(m.group(2))


def _permutation_fix(f: Facts) -> str:
    perm, shape = _permutation(f)
    every = tuple(range(len(shape)))
    if tuple(perm) == every[:len(perm)]:
        return (f"{perm} keeps those axes where they are, so if no reordering is meant, drop the `.transpose(...)`; "
                f"otherwise list all {len(shape)} axes once each (the identity is {every})")
    kept = tuple(perm) + tuple(a for a in every if a not in perm)
    example = f", e.g. {kept} (the axes it leaves out kept in order)" if sorted(kept) == list(every) else ""
    return f"list all {len(shape)} axes once each, in the new order{example} (the identity is {every})"


def _renamed_keyword(f: Facts) -> str:
    name = f.group(r"got an unexpected keyword argument '(\w+)'")
    return name if name in RENAMED_KEYWORDS else ""


def _renamed_line(f: Facts) -> str:
    line = f.code.strip()
    for old, new in RENAMED_KEYWORDS.items():
        line = re.sub(rf"\b{old}(\s*=)", rf"{new}\1", line)
    return line


def _replacement(f: Facts) -> tuple[str, str]:
    """(the removed name, the name JAX's message says to use instead) where the failing line calls the removed
    one, or ('', '')."""
    m = re.search(r"([\w.]+) was deprecated in JAX [\w.]+ and removed in JAX [\w.]+; use ([\w.]+) instead", f.text)
    if not m or f"{m.group(1)}(" not in f.code:
        return "", ""
    return m.group(1), m.group(2)


def _dtypes(f: Facts) -> tuple[str, str]:
    m = re.search(r"dynamic_update_slice requires arguments to have the same dtypes, got (\w+), (\w+)", f.text)
    return (m.group(1), m.group(2)) if m else ("", "")


def _missing_fields(f: Facts) -> str:
    """The fields JAX's message says were left out, quoted as the student would list them."""
    names = re.findall(r"'(\w+)'", f.group(r"Missing fields: (\{[^}]*\})"))
    return ", ".join(repr(n) for n in names) or "the missing field"


def _class_named(f: Facts) -> str:
    return f.group(r"^'(\w+)' object has no attribute", default="the object")


def _reduction(f: Facts) -> str:
    return f.group(r"reduction operation (\w+)", default="min")


def _cov_axes(f: Facts) -> str:
    return f.group(r"got cov\.ndim == (\d+)", default="too few")



def _select_shapes(f: Facts) -> str:
    return f.group(r"got (\[[^\]\n]*\])")

CONVENTION_RULES: list[Rule] = [
    # ---- trees
    Rule("tree-reduce-start", lambda f: _reduce_without_start(f) is not None,
         lambda f: (f"`{ast.unparse(_reduce_without_start(f).func)}` without a starting value begins with the first "
                    f"leaf itself (not `{ast.unparse(_reduce_without_start(f).args[0])}` of it), so the result keeps "
                    f"that leaf's shape and `jax.grad` gets an array, not one number"),
         _reduce_fix),
    Rule("cotangent-container", lambda f: f.says(r"argument to a VJP function returned by `jax\.vjp` must match")
         and bool(_cotangent_containers(f)[0]),
         lambda f: (f"the function's output was a `{_cotangent_containers(f)[0]}`, and its pullback was given a "
                    f"`{_cotangent_containers(f)[1]}`: a cotangent must have the output's exact structure, "
                    f"containers included"),
         lambda f: (f"pass the cotangent in the containers it came in with: a `{_cotangent_containers(f)[0]}` "
                    f"(e.g. `[g]` for a one-element list), as `jax.tree.map(jnp.ones_like, out)` would build it")),
    Rule("registered-twice", lambda f: f.says(r"^Duplicate custom PyTreeDef type registration for"),
         "the class was registered as a pytree node a second time (registering code that runs twice: a cell run "
         "again, a function that registers on every call, or two places that both register it)",
         "register the class once, where it is defined (at module level, next to the class), or skip the "
         "registration when it has already been done"),
    Rule("dataclass-fields", lambda f: f.says(r"data_fields and meta_fields must include all dataclass fields"),
         lambda f: (f"`register_dataclass` must be told every field of the dataclass; {_missing_fields(f)} "
                    f"was left out of both lists"),
         lambda f: (f"add the missing field to one of the lists: to `data_fields` if it holds arrays, or to "
                    f"`meta_fields=[{_missing_fields(f)}]` if it is static metadata (strings, numbers, flags)")),
    Rule("namedtuple-replace", lambda f: f.is_("AttributeError")
         and f.says(r"^'\w+' object has no attribute 'replace'$") and ".replace(" in f.code,
         lambda f: f"`{_class_named(f)}` has no `.replace` method",
         lambda f: guess(f"if `{_class_named(f)}` is a NamedTuple, its copy-with-changes method is "
                         f"`._replace(...)`; for a dataclass, `dataclasses.replace(obj, ...)`")),
    Rule("unflatten-own-new", lambda f: f.is_("TypeError") and f.says(r"__new__\(\) missing \d+ required positional")
         and "__new__(cls" in f.code,
         "`cls.__new__(cls)` runs the class's own `__new__`, which wants the arguments it was written with",
         "make the bare instance without the class's constructor, `object.__new__(cls)`, then set its fields"),
    # ---- values
    Rule("empty-reduction", lambda f: f.says(r"zero-size array to reduction operation \w+ which has no identity"),
         lambda f: (f"`{_reduction(f)}` of an empty array has no value (there is nothing to take the "
                    f"{_reduction(f)} of)"),
         lambda f: (f"give it a value for empty input, `initial=` (e.g. `jnp.{_reduction(f)}(x, initial=...)`), or "
                    f"skip the empty arrays (`None if x.size == 0 else ...`)")),
    Rule("key-arithmetic-dtype", lambda f: f.says(r"Cannot interpret 'key<\w+>' as a data type") and bool(_key_arithmetic(f)),
         lambda f: (f"`{_key_arithmetic(f)}` is a typed PRNG key, and the line does arithmetic with it: keys are not "
                    f"numbers, and adding to one does not make a new key"),
         lambda f: (f"make new keys with `jax.random.split({_key_arithmetic(f)})` "
                    f"(`a, b = jax.random.split({_key_arithmetic(f)})`) or `jax.random.fold_in("
                    f"{_key_arithmetic(f)}, i)`")),
    Rule("fold-in-overflow", lambda f: f.is_("OverflowError") and "fold_in(" in f.code,
         "`jax.random.fold_in` takes a 32-bit unsigned integer, and the number given is larger",
         "keep its low 32 bits: `data & (2**32 - 1)` (or `data % 2**32`)"),
    Rule("permutation-axes", lambda f: _permutation(f) is not None,
         lambda f: (f"a permutation must name every axis once: {_permutation(f)[0]} names "
                    f"{len(_permutation(f)[0])} of the {len(_permutation(f)[1])} axes of the {_permutation(f)[1]} array"),
         _permutation_fix),
    # ---- what one API needs
    Rule("svd-full-matrices", lambda f: f.says(r"Singular value decomposition JVP not implemented for full matrices"),
         "JAX differentiates the reduced SVD only: with `full_matrices=True` (the default) the extra columns of "
         "`u` or rows of `vh` have no defined derivative",
         "compute the reduced SVD, `jnp.linalg.svd(a, full_matrices=False)` (the same singular values)"),
    Rule("sparse-nse", lambda f: f.says(r"concrete\s+value to the nse"),
         "building a sparse array under a transformation needs its number of stored elements (`nse`) before the "
         "values are known",
         "pass `nse=` as a Python int: an upper bound on the nonzeros of one array (its `size` holds them all)"),
    Rule("mvn-covariance", lambda f: f.says(r"multivariate_normal requires cov\.ndim >= 2"),
         lambda f: f"`cov` must be a covariance matrix, and the one given has {_cov_axes(f)} axes",
         lambda f: ("for one variable, make it a 1 x 1 matrix: `jnp.atleast_2d(cov)`" if f.says(r"cov\.ndim == 0")
                    else "for independent variances, make them the diagonal of a matrix: `jnp.diag(cov)`")),
    Rule("select-shapes", lambda f: f.says(r"^select cases must have the same shapes|^select `which` must be scalar "
                                          r"or have the same shape as cases"),
         lambda f: ("`lax.select` does not broadcast: its condition and both cases must have one shape"
                    + (f" (here {_select_shapes(f)})" if _select_shapes(f) else "")),
         "use `jnp.where(pred, a, b)`, which broadcasts, or broadcast them first: "
         "`lax.select(*jnp.broadcast_arrays(pred, a, b))`"),
    Rule("ordered-callback-vmap", lambda f: f.says(r"Cannot `vmap` ordered IO callback"),
         "an ordered callback promises one call per step in program order, which a batch of calls cannot keep",
         "if the order of the calls does not matter, pass `ordered=False`; if it does, loop over the batch "
         "(`lax.map`, or a Python loop) instead of `jax.vmap`"),
    Rule("custom-vjp-closure", lambda f: f.says(r"differentiation of a custom_vjp function with respect to a closed-over"),
         "the function with the custom VJP closes over a value that is being differentiated, and its rule only "
         "gives cotangents for its explicit arguments",
         "pass that value as an argument of the custom_vjp function (and return its cotangent from `bwd`), or let "
         "`jax.closure_convert(fn, *args)` turn what it closes over into arguments"),
    Rule("update-slice-dtype", lambda f: bool(_dtypes(f)[0]),
         lambda f: (f"`lax.dynamic_update_slice` writes into an array of {_dtypes(f)[0]} an update of "
                    f"{_dtypes(f)[1]}; it does not convert"),
         lambda f: f"cast the update to the array's dtype: `update.astype(jnp.{_dtypes(f)[0]})`"),
    # ---- names
    Rule("renamed-keyword", lambda f: bool(_renamed_keyword(f)),
         lambda f: f"`{_renamed_keyword(f)}` was renamed `{RENAMED_KEYWORDS[_renamed_keyword(f)]}` (same values)",
         lambda f: f"`{_renamed_line(f)}`"),
    Rule("removed-with-replacement", lambda f: bool(_replacement(f)[0]),
         lambda f: f"`{_replacement(f)[0]}` was removed from JAX, and JAX's message names `{_replacement(f)[1]}` instead",
         lambda f: f"`{f.code.strip().replace(_replacement(f)[0] + '(', _replacement(f)[1] + '(')}`"),
]
