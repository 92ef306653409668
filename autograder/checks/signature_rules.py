"""Rules for a call whose arguments break its function's signature convention, each read from JAX's message
and the failing line, written after the twenty-third held-out batch's first run
(`tests/mistakes/heldout_error_mistakes_23.py`), one per kind of message it met that no rule knew or that
a rule read the wrong way (issue 38):

- a function given as an argument with the wrong parameters: `map_with_path`'s `(path, leaf)`,
  `custom_root`'s `tangent_solve(g, y)`, `tree.reduce`'s two-argument function;
- NumPy's names and habits: `low=`/`high=`/`size=` on `jax.random`, `mode='raise'` under `jit`, a
  value-sized `jnp.extract` under `jit`, a float exponent, a device named by a string, `jnp.diag` of a stack,
  `tensordot`'s `axes=1`, `average`'s weights without an axis, `reduce_window`'s window per axis;
- JAX's own conventions: a slice size that must be static, a vmap's axis name, one key unpacked as two,
  `fold_in` of an array, `tree.all` of boolean arrays, an unravel function given the wrong length, a
  cotangent wrapped in a tuple, `transpose`'s outer treedef, `custom_linear_solve`'s `transpose_solve`,
  `jnp` work on constants inside `jit`; and, for `usage_rules`' `vmap-sizes`, two batches of points of
  different counts under one `vmap` (every pair may be meant).

A fix is an instruction where the message and the convention settle it, and a guess
(`trial_texts.GUESS`) where the student's intent decides. Part of `stated_rules.STATED_RULES`.
"""
from __future__ import annotations

import ast
import re

from .convention_rules import _calls
from .input_rules import with_first_parameter
from .rule_facts import Facts, Rule

_NUMPY_RANDOM_NAMES = {"low": "minval", "high": "maxval", "size": "shape"}
# (nonzero and its kin name their `size` argument in JAX's own message, which earlier rules read; `compress` is
# rewritten with a fixed size and tried by `trial_kinds`; `extract` fails on a truth asked inside it instead)
_VALUE_SIZED = ("jnp.extract",)
_REDUCERS = {"sum": ("acc + {f}(leaf)", "0.0"), "max": ("jnp.maximum(acc, {f}(leaf))", "-jnp.inf"),
             "min": ("jnp.minimum(acc, {f}(leaf))", "jnp.inf"), "prod": ("acc * {f}(leaf)", "1.0")}
_MODULES = {"jnp", "jax", "np", "numpy", "lax", "math", "bool", "int", "float", "abs", "min", "max", "round"}
_WINDOW = r"reduce_window got the wrong number of window_dimensions for operand: got operand shape \(([\d, ]*)\) " \
          r"with window_dimensions \(([\d, ]*)\)"
_MAPPED = r"axis (\d+) of argument (\w+) of type (\w+)\[([\d,]*)\]"
_UNRAVEL = r"^Sum of sizes (\d+) must be equal to dimension 0 of the operand shape \[(\d+)\]"
_DEVICE = r"Received invalid value: (cpu|gpu|tpu|cuda)\b"
_RAISE_MODE = r"(\w+) was jit-compiled with mode='raise'"
_UNBOUND = r"^unbound axis name: (\w+)"
_NO_ARGS = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])


def _expr(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def _with_keywords(f: Facts, call: ast.Call, **values: str) -> str:
    """The line with `call` given `name=value` keywords (replacing those of the same name)."""
    kept = [k for k in call.keywords if k.arg not in values]
    return f.line_with(call, ast.Call(call.func, call.args, kept + [ast.keyword(k, _expr(v)) for k, v in values.items()]))


def _one_param_lambda(node) -> bool:
    return isinstance(node, ast.Lambda) and len(node.args.args) == 1 and not node.args.vararg


def _path_lambda(f: Facts) -> str:
    for call in _calls(f, "map_with_path") if f.says(r"takes 1 positional argument but 2 were given") else []:
        if call.args and _one_param_lambda(call.args[0]):
            return with_first_parameter(f, call.args[0], "path")
    return ""


def _tangent_solve(f: Facts) -> str:
    for call in _calls(f, "custom_root") if f.says(r"takes 1 positional argument but 2 were given") else []:
        given = call.args[3] if len(call.args) > 3 else next((k.value for k in call.keywords if k.arg == "tangent_solve"), None)
        if _one_param_lambda(given):
            return with_first_parameter(f, given, "g")
    return ""


def _binary_reduce(f: Facts) -> str:
    """`jax.tree.reduce(jnp.sum, tree)` on the line as a two-argument function with a start, or ''."""
    for call in _calls(f, "tree.reduce", "tree_reduce"):
        name = ast.unparse(call.args[0]) if len(call.args) == 2 else ""
        kind = name.split(".")[-1]
        if kind in _REDUCERS and not isinstance(call.args[0], ast.Lambda):
            body, start = _REDUCERS[kind]
            fn = name if "." in name else f"jnp.{kind}"
            new = f"{ast.unparse(call.func)}(lambda acc, leaf: {body.format(f=fn)}, {ast.unparse(call.args[1])}, {start})"
            return f.line_with(call, new)
    return ""


def _numpy_random_names(f: Facts) -> str:
    names = re.findall(r"got an unexpected keyword argument '(low|high|size)'", f.text)
    for call in _calls(f, "random.uniform", "random.randint", "random.normal", "random.choice", "random.bernoulli",
                       "random.permutation", "random.categorical", "random.exponential", "random.gamma") if names else []:
        if any(k.arg in _NUMPY_RANDOM_NAMES for k in call.keywords):
            renamed = [ast.keyword(_NUMPY_RANDOM_NAMES.get(k.arg, k.arg), k.value) for k in call.keywords]
            return f.line_with(call, ast.Call(call.func, call.args, renamed))
    return ""


def _raise_mode(f: Facts) -> str:
    name = f.group(_RAISE_MODE)
    for call in _calls(f, f".{name}") if name else []:
        return _with_keywords(f, call, mode="'clip'")
    return ""


def _value_sized(f: Facts) -> ast.Call | None:
    if not f.is_("TracerBoolConversionError"):
        return None
    found = [c for c in _calls(f, *_VALUE_SIZED) if not any(k.arg == "size" for k in c.keywords)]
    return found[0] if found else None


def _key_unpacked(f: Facts) -> str:
    """`key, sub = key` on the line as `key, sub = jax.random.split(key)`, or ''."""
    tree = f.parsed
    stmt = tree.body[0] if tree.body else None
    if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Tuple) and isinstance(stmt.value, ast.Name):
        n = len(stmt.targets[0].elts)
        split = f"jax.random.split({stmt.value.id}{'' if n == 2 else f', {n}'})"
        return f.line_with(stmt.value, split)
    return ""


def _tree_all_reduced(f: Facts) -> str:
    for call in _calls(f, "tree.all", "tree_all"):
        inner = call.args[0] if call.args else None
        if isinstance(inner, ast.Call) and ast.unparse(inner.func).endswith(("tree.map", "tree_map")) \
                and inner.args and isinstance(inner.args[0], ast.Lambda):
            return f.line_with(inner.args[0].body, f"jnp.all({ast.unparse(inner.args[0].body)})")
    return ""


def _outer_of_whole(f: Facts) -> str:
    """`jax.tree.transpose(jax.tree.structure(t), inner, t)` with the outer level's structure alone, or ''."""
    for call in _calls(f, "tree.transpose", "tree_transpose"):
        outer = call.args[0] if len(call.args) == 3 else None
        if isinstance(outer, ast.Call) and ast.unparse(outer.func).endswith(("tree.structure", "tree_structure")) \
                and outer.args and ast.unparse(outer.args[0]) == ast.unparse(call.args[2]):
            whole = ast.unparse(call.args[2])
            return f.line_with(outer, f"{ast.unparse(outer.func)}([0] * len({whole}))")
    return ""


def _unwrapped_cotangent(f: Facts) -> str:
    if not f.says(r"was a pytree leaf in the original output, but a <class 'tuple'> here"):
        return ""
    for call in ast.walk(f.parsed):
        if isinstance(call, ast.Call) and len(call.args) == 1 and isinstance(call.args[0], ast.Tuple) \
                and len(call.args[0].elts) == 1:
            return f.line_with(call.args[0], call.args[0].elts[0])
    return ""


def _only_constants(f: Facts) -> bool:
    """A traced truth whose line reads no variable at all: `jnp` work on constants, staged by `jit`."""
    if not f.desc.get("from_operations") or f.desc.get("traced_args"):
        return False
    names = [n.id for n in ast.walk(f.parsed) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
    return bool(names) and all(n in _MODULES for n in names) and bool(f.calls("jnp.", "jax.", "lax."))


def _window_fix(f: Facts) -> str:
    shape = [d for d in f.group(_WINDOW).replace(" ", "").split(",") if d]
    window = [d for d in f.group(_WINDOW, 2).replace(" ", "").split(",") if d]
    if len(shape) == 4 and len(window) == 2:
        a, b = window
        return (f"give one size per axis of the operand, 1 where nothing is pooled: `(1, {a}, {b}, 1)` for "
                f"(batch, height, width, channels), `(1, 1, {a}, {b})` for (batch, channels, height, width); the "
                f"strides likewise")
    return f"give one window size (and stride) per axis of the operand, {len(shape)} of them, 1 where nothing is pooled"


def _device_of(f: Facts) -> str:
    return f"jax.devices({f.group(_DEVICE)!r})[0]"


def pairs_of_points_text(f: Facts) -> str:
    """For `vmap-sizes` (after its tried fix, as a guess): two batches of points of different counts, where
    every pair may be what was meant."""
    pairs = _pairs_of_points(f)
    return f"if every pair is meant (a table), nest two vmaps, one per argument: `{pairs[0]}`" if pairs else ""


def _pairs_of_points(f: Facts) -> tuple[str, str] | None:
    """Two mapped arguments of one rank and trailing shape but different counts, under a bare `vmap(fn)`."""
    mapped = re.findall(_MAPPED, f.text)
    transformed = [t for t in f.stmt.get("transformed") or [] if t.get("transform") == "vmap"]
    if len(mapped) != 2 or len(transformed) != 1 or transformed[0].get("options") or transformed[0].get("in_axes"):
        return None
    (ax1, _, t1, s1), (ax2, _, t2, s2) = mapped
    d1, d2 = s1.split(","), s2.split(",")
    if ax1 != "0" or ax2 != "0" or t1 != t2 or len(d1) < 2 or d1[1:] != d2[1:] or len(transformed[0].get("args", [])) != 2:
        return None
    fn, (x, y) = transformed[0]["fn"], transformed[0]["args"]
    return (f"jax.vmap(jax.vmap({fn}, in_axes=(None, 0)), in_axes=(0, None))({x}, {y})",
            f"jax.vmap({fn}, in_axes=(0, None))({x}, {y})")


SIGNATURE_RULES: list[Rule] = [
    # ---- a function given as an argument with the wrong parameters
    Rule("map-with-path-parameters", lambda f: bool(_path_lambda(f)),
         "`jax.tree.map_with_path` calls its function with the leaf's key path first, then the leaf",
         lambda f: f"take both: `{_path_lambda(f)}`"),
    Rule("tangent-solve-parameters", lambda f: bool(_tangent_solve(f)),
         "`lax.custom_root` calls `tangent_solve(g, y)`: `g` the linearized function at the root, `y` what to solve for",
         lambda f: f"take both: `{_tangent_solve(f)}` (for a scalar root, `y / g(1.0)` solves it)"),
    Rule("tree-reduce-binary", lambda f: bool(_binary_reduce(f)),
         "`jax.tree.reduce` calls its function with two arguments, the running value and the next leaf; "
         "`jnp.sum(a, b)` reads the second as an axis",
         lambda f: f"reduce each leaf inside a two-argument function, from a start: `{_binary_reduce(f)}`"),
    # ---- NumPy's names and habits
    Rule("numpy-random-keywords", lambda f: bool(_numpy_random_names(f)),
         "`jax.random` names its bounds `minval`/`maxval` and its sample's shape `shape`, not NumPy's "
         "`low`/`high`/`size`",
         lambda f: f"use JAX's names: `{_numpy_random_names(f)}`"),
    Rule("mode-raise-under-jit", lambda f: bool(_raise_mode(f)),
         lambda f: (f"`jnp.{f.group(_RAISE_MODE)}` checks its indices by default (`mode='raise'`), which "
                    f"needs their values, unknown under `jax.jit`"),
         lambda f: f"choose what out-of-range indices do: `{_raise_mode(f)}` (or `mode='wrap'`)"),
    Rule("value-sized-under-jit", lambda f: _value_sized(f) is not None,
         lambda f: (f"`{ast.unparse(_value_sized(f).func)}`'s output length depends on the values of its input, "
                    f"unknown under `jax.jit`"),
         lambda f: (f"give it a fixed length: `{_with_keywords(f, _value_sized(f), size='n')}` (`n` the most elements "
                    f"kept, the rest filled with `fill_value`)")),
    Rule("integer-exponent", lambda f: f.says(r"^exponent must be an integer, got ") and bool(_calls(f, "matrix_power")),
         "`matrix_power` multiplies the matrix by itself a whole number of times: its exponent must be a Python int",
         lambda f: (lambda c: f"pass a Python int: `{f.line_with(c.args[1], f'int({ast.unparse(c.args[1])})')}`"
                    if len(c.args) > 1 else "pass the exponent as a Python int, `int(n)`")(_calls(f, "matrix_power")[0])),
    Rule("device-by-name", lambda f: f.says(_DEVICE) and bool(_calls(f, "device_put")),
         "`jax.device_put` takes a device object (or a sharding), not a platform's name",
         lambda f: (lambda c: f"name the device: `{f.line_with(c.args[1], _device_of(f))}`"
                    if len(c.args) > 1 else "pass `jax.devices('cpu')[0]`")(_calls(f, "device_put")[0])),
    Rule("diag-of-a-stack", lambda f: f.says(r"^diag input must be 1d or 2d") and bool(_calls(f, "jnp.diag")),
         "`jnp.diag` takes one matrix (or one vector); a stack of matrices has more axes",
         lambda f: (lambda c: f"take the diagonal of each matrix over its last two axes: "
                    f"`{f.line_with(c, f'jnp.diagonal({ast.unparse(c.args[0])}, axis1=-2, axis2=-1)')}`")(_calls(f, "jnp.diag")[0])),
    Rule("tensordot-axes", lambda f: f.says(r"^dot_general requires contracting dimensions to have the same shape")
         and any(isinstance(k.value, ast.Constant) for c in _calls(f, "tensordot") for k in c.keywords if k.arg == "axes"),
         "`tensordot(a, b, axes=1)` sums the last axis of `a` with the first axis of `b`, and those lengths differ here",
         "name the summed axis of each operand: `axes=([i], [j])`, `i` an axis of the first and `j` one of the second of "
         "one length (e.g. `axes=([0], [0])` for two tables of samples)"),
    Rule("average-axis", lambda f: f.says(r"^Axis must be specified when shapes of a and weights differ")
         and bool(_calls(f, "average")),
         "`jnp.average`'s 1-D weights run along one axis of the data, and which one must be named",
         lambda f: f"name it, e.g. `{_with_keywords(f, _calls(f, 'average')[0], axis='0')}` (the axis of the weights' length)"),
    Rule("window-per-axis", lambda f: f.says(_WINDOW),
         lambda f: (f"`lax.reduce_window` takes a window size for every axis of the operand "
                    f"({len([d for d in f.group(_WINDOW).split(',') if d.strip()])} here), not only the pooled ones"),
         _window_fix),
    # ---- JAX's own conventions
    Rule("slice-size-static", lambda f: f.is_("TracerIntegerConversionError")
         and bool(_calls(f, "dynamic_slice_in_dim", "dynamic_slice", "dynamic_index_in_dim")),
         "a dynamic slice's start may be traced, but its size sets the output's shape, so it must be known while tracing",
         "give `slice_size` a Python int, one width for every example (slice the widest and mask what is past each "
         "one's end: `jnp.where(jnp.arange(width) < n, piece, 0)`)"),
    Rule("collective-axis-undeclared", lambda f: f.is_("NameError") and f.says(_UNBOUND) and bool(_calls(f, "vmap", "pmap")),
         lambda f: (f"a collective names the axis `'{f.group(_UNBOUND)}'`, and no transformation "
                    f"around it declares that name"),
         lambda f: (f"declare it on the map: `{_with_keywords(f, _calls(f, 'vmap', 'pmap')[0], axis_name=repr(f.group(_UNBOUND)))}`")),
    Rule("key-unpacked", lambda f: f.says(r"^iteration over a 0-d key array") and bool(_key_unpacked(f)),
         "one key is one value, not a pair: unpacking it does not make two keys",
         lambda f: f"split it into two: `{_key_unpacked(f)}`"),
    Rule("fold-in-array", lambda f: f.says(r"^fold_in accepts a scalar, but was given an array"),
         "`jax.random.fold_in` folds one integer into a key; for one key per integer, map it",
         lambda f: (lambda c: f"map it over the integers: `{f.line_with(c, f'jax.vmap(lambda i: {ast.unparse(c.func)}({ast.unparse(c.args[0])}, i))({ast.unparse(c.args[1])})')}`"
                    if len(c.args) == 2 else "map it: `jax.vmap(lambda i: jax.random.fold_in(key, i))(ints)`")(
             (_calls(f, "fold_in") or [ast.Call(_expr("f"), [], [])])[0])),
    Rule("tree-all-arrays", lambda f: f.says(r"^The truth value of an array with more than one element is ambiguous")
         and bool(_calls(f, "tree.all", "tree_all")),
         "`jax.tree.all` asks each leaf for one truth value, and a leaf here is an array of many",
         lambda f: (f"reduce each leaf to one first: `{_tree_all_reduced(f)}`" if _tree_all_reduced(f)
                    else "reduce each leaf to one first: `jax.tree.all(jax.tree.map(jnp.all, tree))`")),
    Rule("unravel-length", lambda f: f.says(_UNRAVEL) and "unravel" in f.code,
         lambda f: (f"the function `ravel_pytree` returned rebuilds the tree from a flat vector of all its "
                    f"{f.group(_UNRAVEL)} entries, and it was given {f.group(_UNRAVEL, 2)}"),
         "give it a vector of the same length as the flat vector `ravel_pytree` returned: `jnp.zeros(flat.shape[0])`"),
    Rule("cotangent-in-a-tuple", lambda f: bool(_unwrapped_cotangent(f)),
         "a pullback takes a cotangent of the output's own structure; the output is one array, and this cotangent "
         "wraps it in a tuple",
         lambda f: f"give it the same structure as the output, not wrapped in a tuple: `{_unwrapped_cotangent(f)}`"),
    Rule("transpose-outer-whole", lambda f: bool(_outer_of_whole(f)),
         "`jax.tree.transpose`'s outer treedef is the structure of the outer level alone; the whole tree's structure "
         "already holds the inner one",
         lambda f: f"give the outer level's structure: `{_outer_of_whole(f)}`"),
    Rule("transpose-solve-missing", lambda f: f.says(r"^transpose_solve required for backwards mode"),
         "reverse-mode differentiation of `lax.custom_linear_solve` solves with the transposed matrix, and no "
         "`transpose_solve` was given",
         "give it: `transpose_solve=lambda matvec, b: jnp.linalg.solve(A.T, b)` (`A` your matrix), or "
         "`symmetric=True` where the matrix is symmetric"),
    Rule("constants-under-jit", lambda f: f.is_("TracerBoolConversionError", "ConcretizationTypeError") and _only_constants(f),
         "inside `jax.jit`, `jnp` operations are traced even on constants, so this value, computed from constants "
         "alone, is still unknown while tracing",
         lambda f: (f"compute it while tracing: `with jax.ensure_compile_time_eval(): {f.code.strip()}` (or compute "
                    f"the constant with `math`/`numpy`)")),
]
