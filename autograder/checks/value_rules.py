"""Values JAX cannot take as arrays, and names other libraries taught (issue 38: each read from one
message Python, NumPy or JAX words for it, whatever the code around it):

- a pytree used as one value: Python arithmetic on dicts (`params - grads`) or two tuples (`a * b`), a
  `jax.tree.map` whose per-leaf tuples are unpacked as if it returned a tuple of trees, a dict given to
  `jnp.asarray` (NumPy reads a dict as a record type's description);
- what NumPy holds that JAX does not: `None` inside a list given to `jnp.array`, a NumPy array of
  Python objects (dtype `object`, what mixed entries and data frames give);
- a JAX array used as a dict key or set member (arrays are not hashable); two dicts of arrays compared
  with `==` (Python asks each entry's comparison for one truth value);
- typed PRNG keys read as plain data: their dtype (`key<fry>`) named by NumPy, an `.impl` attribute
  they do not have (`jax.random.key_impl` reads it), keys mixed with numbers (`jnp.pad` of a key array);
- `dtype=object` asked of `jnp.array`;
- TensorFlow's and PyTorch's names in `jax.numpy` (`clip_by_value`, `reduce_sum`, `cat`), and `@`
  with a plain number (a scale: `*`).

Part of the one rule table of `rules.py` (`VALUE_RULES`), after the rules read from the student's line:
each message here has one meaning, so the fix is told, not guessed (for an array of objects, a rewrite
by the error's kind that traced on the student's values comes first: `trial_texts.kind_fix`).
"""
from __future__ import annotations

import re

from .rule_facts import Facts, Rule
from .trial_texts import guess, kind_fix

_CONTAINER_OP = r"unsupported operand type\(s\) for (\S+): '(\w+)' and '(\w+)'"
_SEQUENCE_TIMES = r"can't multiply sequence by non-int of type '(tuple|list)'"
_OBJECT_DTYPE = r"dtype=(?:np\.)?object_?\b"

# names from TensorFlow and PyTorch that `jax.numpy` lacks -> JAX's spelling (checked against jax 0.10)
OTHER_LIBRARY_NAMES = {
    "clip_by_value": ("TensorFlow", "jnp.clip(x, lo, hi)"), "clamp": ("PyTorch", "jnp.clip(x, lo, hi)"),
    "reduce_sum": ("TensorFlow", "jnp.sum(x, axis=...)"), "reduce_mean": ("TensorFlow", "jnp.mean(x, axis=...)"),
    "reduce_max": ("TensorFlow", "jnp.max(x, axis=...)"), "reduce_min": ("TensorFlow", "jnp.min(x, axis=...)"),
    "reduce_prod": ("TensorFlow", "jnp.prod(x, axis=...)"), "reduce_all": ("TensorFlow", "jnp.all(x, axis=...)"),
    "reduce_any": ("TensorFlow", "jnp.any(x, axis=...)"), "cat": ("PyTorch", "jnp.concatenate([a, b], axis=...)"),
    "unsqueeze": ("PyTorch", "jnp.expand_dims(x, axis)"), "numel": ("PyTorch", "x.size"),
    "permute": ("PyTorch", "jnp.transpose(x, axes)"), "flatten": ("PyTorch", "jnp.ravel(x)"),
}


def _container_op(f: Facts) -> tuple[str, str]:
    """(operator, container) where Python arithmetic met a dict (or a list or tuple in arithmetic they
    do not do: `-`, `/`, `**`, `@`), or ('', '')."""
    m = re.search(_CONTAINER_OP, f.text) or re.search(_SEQUENCE_TIMES, f.text)
    if not m or (f.desc.get("where") or {}).get("called_by_jax") in ("custom_derivatives", "tree_util"):
        return "", ""    # JAX calling a custom rule or an unflatten function: transform_rules
    if f.says(_SEQUENCE_TIMES):             # `*` of two tuples (or lists): Python words it as repetition
        return "*", f.group(_SEQUENCE_TIMES)
    op, kinds = m.group(1), (m.group(2), m.group(3))
    if "dict" in kinds:
        return op, "dict"
    if op in ("-", "/", "//", "**", "@") and {"list", "tuple"} & set(kinds):
        return op, next(k for k in kinds if k in ("list", "tuple"))
    return "", ""


def _compares_containers(f: Facts) -> bool:
    """A truth value asked by `==`/`!=` alone: no `if`, `while`, `and`, `or`, `not` or chained comparison on
    the line, so the comparison itself asked it (Python compares two dicts or lists entry by entry and
    asks each entry's result for one truth value; two arrays compared give an array, not an error)."""
    code = f.code
    return (f.says(r"truth value of an array with more than one element is ambiguous")
            and len(re.findall(r"==|!=|<=|>=|(?<![<>=-])[<>](?![<>=])", code)) == 1 and bool(re.search(r"==|!=", code))
            and not re.search(r"\b(if|while|and|or|not|assert|in)\b", code) and not f.stmt.get("bool_ops"))


def _missing_name(f: Facts) -> str:
    name = f.group(r"module 'jax\.numpy' has no attribute '(\w+)'")
    return name if name in OTHER_LIBRARY_NAMES else ""


_TREE_MAPS = ("jax.tree.map", "jax.tree_util.tree_map", "jax.tree_map", "tree_map", "tree.map")


def _tree_map_unpacked(f: Facts) -> tuple[str, str, int] | None:
    """(function, tree, names) where the line unpacks `jax.tree.map(fn, tree)` into several names."""
    import ast
    for node in ast.walk(f.parsed):
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple) and isinstance(node.value, ast.Call)
                and ast.unparse(node.value.func) in _TREE_MAPS and len(node.value.args) >= 2):
            return ast.unparse(node.value.args[0]), ast.unparse(node.value.args[1]), len(node.targets[0].elts)
    return None


VALUE_RULES: list[Rule] = [
    Rule("tree-of-tuples-unpacked", lambda f: f.says(r"(too many|not enough) values to unpack")
         and _tree_map_unpacked(f) is not None,
         lambda f: (lambda fn, tree, n: (
             f"`jax.tree.map({fn}, {tree})` returns one tree shaped like `{tree}`, with what `{fn}` returns at each "
             f"leaf; unpacking it into {n} names takes `{tree}`'s own entries apart, not each leaf's values"))(
             *_tree_map_unpacked(f)),
         lambda f: (lambda fn, tree, n: guess(
             f"if `{fn}` returns {n} values per leaf, transpose the tree of tuples into a tuple of trees: "
             f"`jax.tree.transpose(jax.tree.structure({tree}), jax.tree.structure(({', '.join(['0'] * n)})), "
             f"jax.tree.map({fn}, {tree}))`, or map once per value"))(*_tree_map_unpacked(f))),
    Rule("container-arithmetic", lambda f: f.is_("TypeError") and bool(_container_op(f)[0]),
         lambda f: (f"Python's `{_container_op(f)[0]}` does not reach inside a {_container_op(f)[1]}: a pytree of "
                    f"arrays (parameters, gradients) is not one array, and its arithmetic is done leaf by leaf"),
         lambda f: (f"apply it to every leaf with `jax.tree.map`: `jax.tree.map(lambda a, b: a {_container_op(f)[0]} b, "
                    f"x, y)` (the trees must have the same structure; close over a plain number: "
                    f"`jax.tree.map(lambda a: a * s, x)`)")),
    Rule("dict-as-array", lambda f: f.says(r"entry not a 2- or 3- tuple") and bool(
         f.calls("jnp.asarray", "jnp.array", "np.asarray", "np.array", "jax.numpy.asarray", "jax.numpy.array")),
         "`jnp.asarray` was given a dict, which is not one array (NumPy reads a dict as the description of a "
         "record type, hence its message)",
         "work on the leaves: `jax.tree.map(lambda x: x[0], tree)` indexes every leaf; if the leaves share one "
         "shape, `jnp.stack(jax.tree.leaves(tree))` makes them one array"),
    Rule("none-in-array", lambda f: f.says(r"^None is not a valid value for jnp\.array")
         and bool(re.search(r"\b(jnp|np|numpy)\.(array|asarray)\(\s*\[", f.code)),
         "`None` has no number, so an array cannot hold it (JAX's arrays hold one numeric dtype)",
         "mark a missing number with `jnp.nan` (then `jnp.nanmean`, `jnp.nansum`, ... skip it), or leave the "
         "missing entries out of the list"),
    Rule("object-array", lambda f: f.says(r"Error interpreting argument to .* as an abstract array")
         and f.says(r"of type <class 'numpy\.ndarray'>"),
         lambda f: ("a NumPy array of Python objects or strings (dtype `object` or `<U`: what NumPy makes of mixed "
                    "entries, `None`, text or a data frame's column) is not an array of numbers JAX can hold; it was "
                    "passed at " + f.group(r"passed to the function at path (\S+?)\.?$", default="an argument")),
         lambda f: kind_fix(f) or (
             "if it holds numbers, convert them first: `x.astype(np.float32)` (replace `None` entries with `np.nan` "
             "before); if it holds text or other objects, keep it out of the function's arguments (pass only the "
             "arrays, and use the rest outside)")),
    Rule("keys-as-numbers", lambda f: f.says(r"^Cannot convert_element_type from \w+ to key<"),
         "typed PRNG keys are not numbers: an operation that mixes them with numbers (`jnp.pad`'s zeros, "
         "a concatenation or `where` with an integer array, arithmetic) cannot make keys of the result",
         "do it on the keys' data, `jax.random.key_data(keys)` (uint32, with one more trailing axis: pad or "
         "index it too), and make keys of the result again with `jax.random.wrap_key_data(...)`"),
    Rule("object-dtype", lambda f: f.says(r"only supports number, bool, and string dtypes, got dtype <class 'object'>")
         and bool(re.search(_OBJECT_DTYPE, f.code)),
         "`dtype=object` asks for an array of Python objects, and JAX holds only numbers and booleans",
         lambda f: (f"give the numbers' dtype instead: `{re.sub(_OBJECT_DTYPE, 'dtype=jnp.int32', f.code.strip())}` "
                    f"for whole numbers (`jnp.float32` for fractions), or leave `dtype=` out")),
    Rule("array-as-key", lambda f: f.says(r"unhashable type: '(?:[\w.]+\.)?ArrayImpl'") and not f.says(r"static"),
         "a JAX array cannot be a dict key or a set member: it is not hashable (its `==` compares elements)",
         "use Python numbers as keys: `int(i)` for one element, or loop over a NumPy copy, `for i in np.asarray(x)` "
         "(NumPy's integers hash), or over `x.tolist()`"),
    Rule("container-compare", _compares_containers,
         "`==` between two containers (dicts, lists) compares their entries pair by pair and asks each pair's "
         "result for one truth value, which an array of several elements does not have",
         "compare leaf by leaf and combine: `jax.tree_util.tree_all(jax.tree.map(jnp.array_equal, a, b))` (True "
         "when every leaf is equal)"),
    Rule("key-dtype-name", lambda f: f.says(r"Cannot interpret 'key<\w+>' as a data type"),
         "a typed PRNG key's dtype is `key<impl>`, which NumPy cannot name, store or convert",
         "turn key leaves into their raw uint32 data first, `jax.random.key_data(k)` (pick them out with "
         "`jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)`), and back with `jax.random.wrap_key_data`"),
    Rule("key-impl-attribute", lambda f: f.says(r"'PRNGKeyArray' object has no attribute '_?impl'"),
         "a typed PRNG key does not carry its implementation as an attribute",
         "read it with `jax.random.key_impl(key)` (what `impl=` of `jax.random.key` and `wrap_key_data` takes)"),
    Rule("other-library-name", lambda f: bool(_missing_name(f)),
         lambda f: (f"`{_missing_name(f)}` is {OTHER_LIBRARY_NAMES[_missing_name(f)][0]}'s name; JAX's NumPy API "
                    f"does not have it"),
         lambda f: f"write `{OTHER_LIBRARY_NAMES[_missing_name(f)][1]}`"),
    Rule("matmul-scalar", lambda f: f.says(r"matmul: Input operand \d does not have enough dimensions \(has 0|"
                                           r"matmul input operand \d must have ndim at least 1, but it has ndim 0"),
         "`@` (a matrix product) needs at least one axis on each side, and one side is a single number",
         "use `*` instead of `@` to scale by a number (`w * s`); if the matrix expects a one-element vector there "
         "(an (n, 1) matrix times one feature), give the number its axis: `w @ jnp.atleast_1d(s)`"),
]
