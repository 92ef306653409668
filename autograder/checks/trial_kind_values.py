"""More rewrites by the kind of error (`trial_kinds.py` lists and traces them): values of the wrong kind.

Why a module of its own: `trial_kinds.py` holds the machinery and the generators of calls written the
wrong way (keywords, tuples, counts, conditionals, sizes); these are the generators of values handed
to JAX in a form it cannot trace: a NumPy function given a tracer, a traced value turned into a Python
number (`int(t)`, `float(t)`, `t.item()`), an integer input to `jax.grad`, a non-array entry in a
container given to `jax.jit`. Each keeps the student's computation: the same function from `jnp`, the
same value kept as an array, the same input as a float, the container without the entry the function
does not read (the trial fails if it reads it).
"""
from __future__ import annotations

import ast
import copy

from .trial_rewrites import call_name


def _e(text: str):
    return ast.parse(text, mode="eval").body


def gen_jnp(root, f):
    """A NumPy function given a traced value (`TracerArrayConversionError`): the same function from
    `jax.numpy` (the trial fails where `jnp` has no such name), every `np.` on the line at once."""
    if not f.is_("TracerArrayConversionError"):
        return
    class Swap(ast.NodeTransformer):
        def visit_Attribute(self, node):
            node = self.generic_visit(node)
            if isinstance(node.value, ast.Name) and node.value.id in ("np", "numpy", "onp"):
                return ast.Attribute(ast.Name("jnp", ast.Load()), node.attr, node.ctx)
            return node
    new = Swap().visit(copy.deepcopy(root))
    if ast.unparse(new) != ast.unparse(root):
        yield root, new


def gen_keep_array(root, f):
    """A traced value turned into a Python number (`int(t)`, `float(t)`, `t.item()`) where JAX's
    arithmetic takes the array: the value kept as an array of that kind (`jnp.asarray(t).astype(int)`,
    `t` for `.item()`)."""
    if not (f.is_("ConcretizationTypeError", "TypeError")
            and f.says(r"arose with the `(int|float)` function|`item`|converting a traced|__index__")):
        return
    for node in ast.walk(root):
        if isinstance(node, ast.Call) and call_name(node) in ("int", "float") and len(node.args) == 1 \
                and not node.keywords:
            yield node, _e(f"jnp.asarray({ast.unparse(node.args[0])}).astype({call_name(node)})")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "item" \
                and not node.args and not node.keywords:
            yield node, node.func.value


_DIFFERENTIATE = ("grad", "value_and_grad", "jacfwd", "jacrev", "hessian")


def gen_float_input(root, f):
    """An integer input to `jax.grad` (or `value_and_grad`, `jacfwd`, `jacrev`, `hessian`): the same
    input as a float array (`allow_int=True` would not differentiate it, so it is not a candidate)."""
    if not f.says(r"requires real- or complex-valued inputs|input dtype that is a sub-dtype of np\.(inexact|floating)"):
        return
    for node in ast.walk(root):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Call) \
                and call_name(node.func).split(".")[-1] in _DIFFERENTIATE:
            for i, arg in enumerate(node.args):
                if isinstance(arg, (ast.Name, ast.Constant, ast.Attribute, ast.Subscript)):
                    new = copy.copy(node)
                    new.args = list(node.args)
                    new.args[i] = _e(f"jnp.asarray({ast.unparse(arg)}, jnp.float32)")
                    yield node, new


def gen_drop_entry(root, f):
    """A container given to a jitted function holds a non-array entry (a string array, a name) at the
    path JAX names (`b['id']`): the container passed without that entry, so only the arrays are
    traced; the trial fails if the function reads it."""
    key = f.group(r"passed to the function at path \w+\['([^'\]]+)'\]")
    if not key or not f.says(r"as an abstract array"):
        return
    for node in ast.walk(root):
        if isinstance(node, ast.Call):
            for i, arg in enumerate(node.args):
                if isinstance(arg, ast.Name):
                    new = copy.copy(node)
                    new.args = list(node.args)
                    new.args[i] = _e(f"{{k: v for k, v in {arg.id}.items() if k != {key!r}}}")
                    yield node, new


# JAX's removed or renamed names whose replacement takes the same arguments (from JAX's changelog)
RENAMED = {"shuffle": "permutation", "tree_map": "tree.map", "tree_multimap": "tree.map",
           "tree_leaves": "tree.leaves", "tree_flatten": "tree.flatten", "tree_unflatten": "tree.unflatten",
           "tree_structure": "tree.structure", "tree_transpose": "tree.transpose", "product": "prod",
           "cumproduct": "cumprod", "alltrue": "all", "sometrue": "any", "round_": "round", "in1d": "isin",
           "trapz": "trapezoid", "PRNGKey": "key", "row_stack": "vstack", "normalize": "standardize"}


# JAX's modules where a name the student's module lacks may have moved (`jax.lax.logsumexp` is `jax.nn`'s)
_ELSEWHERE = ("jax.numpy", "jax.lax", "jax.nn", "jax.random", "jax.scipy.special", "jax.numpy.linalg",
              "jax.scipy.linalg", "jax.tree", "jax.tree_util")


# prefixes that name opposite operations: a close spelling that swaps one for the other is no rename
_OPPOSITE_PREFIXES = (("to_", "from_"), ("get_", "set_"), ("add_", "remove_"), ("enable_", "disable_"),
                      ("is_", "not_"), ("min", "max"), ("arg" + "min", "arg" + "max"))


def _opposites(a: str, b: str) -> bool:
    """`to_dlpack` and `from_dlpack` (one operation and its inverse): similar spellings, opposite calls."""
    return any((a.startswith(x) and b.startswith(y) or a.startswith(y) and b.startswith(x))
               and a[len(x if a.startswith(x) else y):] == b[len(y if b.startswith(y) else x):]
               for x, y in _OPPOSITE_PREFIXES)


def gen_renamed(root, f):
    """A name a JAX module does not have (`module 'jax.random' has no attribute 'shuffle'`): the name
    JAX's changelog gives for it (`RENAMED`, same arguments) and close spellings the module does have
    (a typo) where no other JAX module has that name, or the same name in the modules that do (it moved);
    the trial keeps those that trace on the line's own arguments."""
    import difflib
    import sys
    module, name = f.group(r"module '([\w.]+)' has no attribute '(\w+)'"), f.group(r"has no attribute '(\w+)'")
    if not f.is_("AttributeError") or not module.startswith("jax") or module not in sys.modules:
        return
    have = [n for n in dir(sys.modules[module]) if not n.startswith("_")]
    moved = [f"{m[len('jax.'):]}.{name}" for m in _ELSEWHERE if m != module and m in sys.modules
             and hasattr(sys.modules[m], name)]        # the same name in another JAX module: it moved
    close = [] if moved else [c for c in difflib.get_close_matches(name, have, n=2, cutoff=0.8)
                              if not _opposites(name, c)]
    options = ([RENAMED[name]] if name in RENAMED else []) + moved[:2] + close
    for node in ast.walk(root):                # the call of that name, quoted whole (or the name alone)
        attr = node.func if isinstance(node, ast.Call) else node
        if isinstance(attr, ast.Attribute) and attr.attr == name and (node is attr or isinstance(node, ast.Call)):
            for option in dict.fromkeys(options):
                parts = option.split(".")
                base = attr.value if len(parts) == 1 else _e("jax." + ".".join(parts[:-1]))
                new_attr = ast.Attribute(base, parts[-1], attr.ctx)
                if node is attr:
                    yield node, new_attr
                else:
                    new = copy.copy(node)
                    new.func = new_attr
                    yield node, new
            if node is not attr:
                return


def gen_einsum_labels(root, f):
    """An einsum label whose lengths differ (`Size of label 'i' for operand 1 (3) does not match previous
    terms (5)`): that operand's subscripts with the label moved to each of its other places (`ji` for `ij`),
    as for an operand whose axes are in the other order. The trial keeps those that trace, so an operand
    that holds another number of entries gets no candidate."""
    label, operand = f.group(r"Size of label '(\w)' for operand (\d+)", 1), f.group(r"for operand (\d+)")
    if not label or not operand:
        return
    for node in ast.walk(root):
        if not (isinstance(node, ast.Call) and ast.unparse(node.func).endswith("einsum") and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            continue
        inputs, arrow, output = node.args[0].value.replace(" ", "").partition("->")
        terms = inputs.split(",")
        k = int(operand)
        if k >= len(terms) or label not in terms[k]:
            continue
        p = terms[k].index(label)
        for q in range(len(terms[k])):
            if q != p and terms[k][q] != label:
                chars = list(terms[k])
                chars[p], chars[q] = chars[q], chars[p]
                spec = ",".join(terms[:k] + ["".join(chars)] + terms[k + 1:]) + arrow + output
                new = copy.copy(node)
                new.args = [ast.Constant(spec), *node.args[1:]]
                yield node, new
        return


GENERATORS = {"renamed": gen_renamed, "jnp": gen_jnp, "keep-array": gen_keep_array, "float-input": gen_float_input,
              "drop-entry": gen_drop_entry, "einsum-labels": gen_einsum_labels}
RANK = {"renamed": 0, "jnp": 0, "float-input": 0, "einsum-labels": 0, "drop-entry": 1, "keep-array": 2}
