"""Rules for habits other tools taught, each read from the message JAX words for it (issue 38: a
property of the mistake, not one case's wording):

- NumPy's in-place functions (`fill_diagonal`, `put`), its 64-bit integers and its strings;
- a sampler's scale given where JAX's samplers take `shape` (NumPy's `gamma(shape, scale, size)`);
- NumPy's boolean selection under a trace (`x[m]`: by how the line uses the mask), a `where=` mask of
  numbers, the same new axis twice;
- `None` as a placeholder in a loop's carry where the body returns an array;
- PyTorch's habits: a device list as the mesh itself; `argnums` where JAX's forward mode takes none;
- what a transformation can return or map: a jitted function returning a function, `pmap` mapping a scalar;
- a `symbolic_zeros` forward rule's wrapped inputs used as arrays;
- Python and NumPy habits on traced values: `a if t else b` (rules.py's "if" rule asks `if_cause` and
  `if_fix`), a NumPy function named in `jnp` only where JAX has it (`numpy_call_fix`: `np.ma` has no
  twin); a Python int too large for int32 given the line's own dtype; a norm over three axes;
- read from the student's line before any rule reads JAX's message (`LINE_HABIT_RULES`, first in
  `rules.RULES`): a list searched by value (`remove`, `index`, `count` compare with `==`), a list
  repeated by an array, a string folded into a key, `jax.util`'s zips.

Part of the one rule table of `rules.py` (`HABIT_RULES`). A fix that depends on what the student meant
(carry a value or output it) is offered as a guess (`trial_texts.GUESS`).
"""
from __future__ import annotations

import ast
import inspect
import re

from .rule_facts import Facts, Rule
from .trial_texts import guess
from .usage_texts import _first, _kind

_REDUCTIONS = r"(?:jnp|np)\.(?:sum|mean|max|min|prod|std|var|any|all|average|nansum|nanmean|nanmax|nanmin)"


def mask_fix(f: Facts) -> str:
    """A boolean mask's fix by how the line uses it: computed from no traced value (its operands are
    concrete where the line runs: closed over), it can be computed before the trace, where its size is
    known; read by a reduction (`jnp.mean(x[m])`), the reduction's own `where=`; else `jnp.where`."""
    code = f.source or f.code
    tracers = set(f.stmt.get("tracers", []))
    for s in f.stmt.get("subscripts", []):
        names = set(re.findall(r"\b[A-Za-z_]\w*\b", s["index"])) | {s["name"]}
        # names, numbers and operators only: no attribute or call whose value the facts do not know
        plain = re.fullmatch(r"[\w\s<>=!&|~+\-*/%]*", re.sub(r"\d+\.\d*", "0", s["index"]))
        if s["container"] in ("jax", "ndarray") and not s["slice"] and plain and not names & tracers:
            return (f"compute `{s['name']}[{s['index']}]` once before the traced code (outside the loop or jitted "
                    f"function that traces this line): it uses no traced value, so its size is known there")
    m = re.search(r"(%s)\(\s*(\w+)\[([^\[\]]+)\]\s*\)" % _REDUCTIONS, code)
    if m:
        return (f"keep the shape static: `{m.group(1)}({m.group(2)}, where={m.group(3)})` reduces over the entries "
                f"the mask keeps, without selecting them")
    return "keep the shape static: `jnp.where(mask, new, x)` instead of indexing with the mask"


# The carry's types as JAX prints them: the one it came in with and the one the body returned
_CARRY_TYPES = r"input carry (?:component )?(\S+) is (.+?) but the corresponding component of the carry output is (.+?), so"


def carry_structure_cause(f: Facts) -> str:
    """What changed in a loop's carry: keys, containers, or (printed alike) the class itself."""
    m = re.search(_CARRY_TYPES, f.text)
    if not m:
        return "the loop's carry must keep its structure; the body returns different containers than it receives"
    name = re.sub(r"^loop_carry\[1\]", "carry", m.group(1))
    if "metadata" in m.group(2):                        # the same container, other keys or fields
        return (f"the loop's carry must keep its structure; `{name}` comes in with keys "
                f"{_first(r'metadata (.+)$', m.group(2))} and the body returns keys {_first(r'metadata (.+)$', m.group(3))}")
    kinds = [_kind(m.group(i)) for i in (2, 3)]
    if m.group(2) == m.group(3):                        # two classes of one name: defined anew at each call
        return (f"the loop's carry must keep its structure; `{name}` comes in as {kinds[0]} and the body returns "
                f"another class of the same name: JAX compares the class objects, and this class is defined anew "
                f"(inside a function) each time that code runs")
    return (f"the loop's carry must keep its structure; `{name}` comes in as {kinds[0]} and the body "
            f"returns {kinds[1]}" + (" (`None` is an empty container to JAX, not a value)" if "None" in kinds[0] else ""))


def carry_structure_fix(f: Facts) -> str:
    """`None` in the initial carry where the body returns an array: either the body is meant to carry
    that value (then it starts as an array) or it is a per-step output (then it leaves the carry); only
    the student knows which, so both are offered."""
    m = re.search(_CARRY_TYPES, f.text)
    if m and m.group(2) == m.group(3):
        return ("define the class once, at module level (outside the function that builds the carry), so the loop "
                "sees one class; or build the body's new carry from the one it gets, `carry._replace(...)`")
    if re.search(r"input carry (?:component )?\S+ is a <class 'NoneType'> but the corresponding component of the "
                 r"carry output is a <class '[\w.]*(ShapedArray|ArrayImpl)'>", f.text):
        return guess("if the body is meant to carry this value from step to step, start it as an array in the "
                     "initial carry (`jnp.zeros(())`, or `jnp.zeros(shape, dtype)` of what the body returns there) "
                     "instead of `None`; if it is this step's output only, return the carry with the containers it "
                     "came in with (`None` there) and put the value in scan's `y`")
    text = ("return the carry with the containers it came in with (the same tuple length, dict keys); put "
            "per-step outputs in scan's `y`, not in the carry")
    if re.search(r"input carry (?:component )?\S+ is a <class '(list|tuple)'> but the corresponding component of "
                 r"the carry output is a <class '[\w.]*(ShapedArray|ArrayImpl)'>", f.text):
        return (f"{text}; or, where the list holds one number per entry and the body computes with it as an "
                f"array, start the loop from that array: `jnp.asarray(init)` as the initial carry")
    return text


def _sampler_call(f: Facts) -> tuple[str, str, str]:
    """(sampler, the argument written at its `shape` position, the call) of a `jax.random` sampler on the
    line called with a positional argument where `shape` goes, or ('', '', '')."""
    import jax
    for node in ast.walk(f.parsed):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and re.search(r"\brandom$", ast.unparse(node.func.value))):
            continue
        fn = getattr(jax.random, node.func.attr, None)
        try:
            params = list(inspect.signature(fn).parameters)
        except (TypeError, ValueError):
            continue
        at = params.index("shape") if "shape" in params else -1
        if 0 < at < len(node.args) and not isinstance(node.args[at], (ast.Tuple, ast.List)):
            kept = ast.unparse(ast.Call(node.func, node.args[:at], node.keywords))
            return node.func.attr, ast.unparse(node.args[at]), kept
    return "", "", ""


def _call_name(f: Facts, default: str) -> str:
    m = re.search(r"\b((?:jnp|np|jax\.numpy)\.\w+)\(", f.code)
    return m.group(1) if m else default


def _repeated_axes(f: Facts) -> str:
    axes = re.findall(r"-?\d+", f.group(r"repeated axis in lax\.expand_dims: \(([^)]*)\)"))
    return "(" + ", ".join(str(i) for i in range(len(axes))) + ")" if axes else "(0, 1)"


def _argnums_number_fix(f: Facts) -> str:
    m = re.search(r"argnums=([(\[]\s*(\d+)\s*,?\s*[)\]])", f.code)
    if not m:
        return "call it with `argnums=` set to a number for the gradient itself, or take it out of the tuple, `[0]`"
    return (f"call it with `argnums=` set to the number, `argnums={m.group(2)}`, for the gradient itself, or take "
            f"it out of the tuple, `[0]`")


def _jnp_has(dotted: str) -> bool:
    """Whether `jnp.<dotted>` exists in this JAX (`linalg.norm` does, `ma.masked_array` does not)."""
    import jax.numpy as jnp
    obj = jnp
    for part in dotted.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return False
    return True


def _if_test(f: Facts) -> str:
    """The test of the one conditional expression (`a if t else b`) on the failing line, or ''."""
    tests = f.stmt.get("if_tests") or []
    return tests[0] if len(tests) == 1 else ""


def if_cause(f: Facts) -> str:
    """rules.py's "if": what asked for a traced value's truth (a statement, or `a if t else b`)."""
    if f.kind == "if":
        return "Python `if` on a traced value: its truth is unknown while tracing"
    if _if_test(f):
        return f"`a if {_if_test(f)} else b` asks Python for the truth of `{_if_test(f)}`, a traced value, unknown while tracing"
    return "Python `if`/`while`/`and`/`or`/`assert` on a traced value: its truth is unknown while tracing"


def if_fix(f: Facts) -> str:
    """For `a if t else b`, a guess (so the trials try `jnp.where` on the student's own values: the two
    sides may not have one shape and dtype)."""
    if _if_test(f):
        static = (f"; if `{f.arg}` is a Python flag fixed for each call, make it static: `jax.jit("
                  f"{f.fn if f.fn.isidentifier() else 'f'}, static_argnames='{f.arg}')`"
                  if f.arg and f.arg == _if_test(f) and not f.arg_is_data else "")
        return guess(f"choose with `jnp.where({_if_test(f)}, a, b)` (both sides computed, elementwise) or "
                     f"`lax.cond({_if_test(f)}, lambda: a, lambda: b)` (one side runs){static}")
    traced = f.desc.get("traced_args") or []
    if f.kind == "if" and traced and "jit" not in (f.desc.get("transforms") or []) and not f.stmt.get("jitted_calls"):
        # nothing is jitted: the argument is one a loop or branch traces (its carry, its scanned values)
        return guess(f"if `{traced[0]}` is a setting that does not change (a flag, a mode), keep it out of what the "
                     f"loop or branch traces (its carry, its `xs`, its operands) and close over it as a Python value, "
                     f"so your `if` sees it; if it is data, branch with `jnp.where(pred, a, b)` or `lax.cond`")
    if f.kind == "if":
        return "branch with `jnp.where(pred, a, b)` (elementwise) or `lax.cond(pred, true_fn, false_fn, x)`"
    # the construct is not known: a menu, offered as a guess
    return guess("branch with `jnp.where` (elementwise) or `lax.cond` / `lax.switch`; loop with `lax.while_loop`")


def numpy_call_fix(f: Facts) -> str:
    """`jnp`'s function of the same name where JAX has one; never a `jnp` name that does not exist."""
    call = f.calls("np.", "numpy.", "onp.")[0]
    rest = call.split(".", 1)[1]
    if _jnp_has(rest):
        return f"use `jnp.{rest}` instead of `{call}` inside {f.traced_code}"
    if rest.startswith("ma."):   # NumPy's mask marks the entries left out; JAX's `where=` the ones kept
        m = re.search(r"masked_array\(\s*([\w.]+)\s*,\s*mask\s*=\s*(~?)([\w.]+)", f.code)
        x, keep = (m.group(1), m.group(3) if m.group(2) else f"~{m.group(3)}") if m else ("x", "keep")
        return (f"JAX has no masked arrays (`np.ma`): keep the mask as a boolean array and use it in the reduction, "
                f"`jnp.mean({x}, where={keep})` or `jnp.sum(jnp.where({keep}, {x}, 0.0)) / jnp.sum({keep})` (`{keep}`: "
                f"the entries to keep, the opposite of NumPy's `mask=`)")
    return guess(f"`jnp` has no `{rest}`: write it with `jnp` operations inside {f.traced_code}, or call it "
                 f"outside, on concrete values")


def float_item_fix(f: Facts) -> str:
    """Drop the conversion; where the line also calls a NumPy function JAX has, that one too: without
    the conversion it would get the traced array, which NumPy cannot take either."""
    fix = ("keep it an array: drop `int()`/`float()`/`.item()` (cast with `.astype(jnp.float32)` if you need a "
           "dtype) and convert outside the jitted function; to look at it, use `jax.debug.print`")
    numpy = [c for c in f.calls("np.", "numpy.", "onp.") if _jnp_has(c.split(".", 1)[1])]
    if numpy:
        rest = numpy[0].split(".", 1)[1]
        fix += (f"; where the line passes the value on to `{numpy[0]}`, use `jnp.{rest}` instead of `{numpy[0]}` "
                f"(NumPy needs concrete numbers too)")
    return fix


# JAX's words for a Python int argument too large for the integer type it becomes
_OVERFLOW = r"overflow was encountered while parsing an argument .* whose argument path is (\w+)\. Got <class 'int'> with value (-?\d+)"


def _overflow_fix(f: Facts) -> str:
    """The line's own dtype (`dtype=jnp.uint32`) for the value, where the line gives one."""
    name, value = f.group(_OVERFLOW, 1), f.group(_OVERFLOW, 2)
    m = re.search(r"dtype=(?:jnp\.|np\.|jax\.numpy\.)?(u?int(?:8|16|32|64))\b", f.code)
    dtype = m.group(1) if m else ""
    if dtype and dtype != "int64":
        return (f"give `{name}` as an array of the dtype the line asks for, `{name}=jnp.{dtype}({value})`, so it is "
                f"never made an int32")
    return guess(f"turn 64-bit mode on at startup, `jax.config.update('jax_enable_x64', True)`, or give `{name}` "
                 f"as an array of a type it fits, e.g. `jnp.uint32({value})`")


def _first_arg(f: Facts, default: str) -> str:
    """The array a `norm(x, ..., axis=...)` call on the line is given."""
    m = re.search(r"norm\(\s*([\w.]+)\s*,[^()]*\baxis\s*=", f.code)
    return m.group(1) if m else default


_LIST_SEARCH = r"\b([A-Za-z_][\w.]*)\.(remove|index|count)\(\s*([^()]+?)\s*\)"
_LIST_TIMES = r"unsupported operand type\(s\) for \*: 'list' and '\w*(ArrayImpl|Tracer)'"


def _list_search(f: Facts) -> tuple[str, str, str]:
    m = re.search(_LIST_SEARCH, f.code)
    return (m.group(1), m.group(2), m.group(3)) if m else ("", "", "")


def _list_search_fix(f: Facts) -> str:
    name, method, item = _list_search(f)
    if method == "remove":
        return (f"remove it by identity (the same object), not by value: `{name} = [v for v in {name} if v is not "
                f"{item}]`, or by position, `del {name}[i]`, where you know it")
    return f"find it by identity, `next(i for i, v in enumerate({name}) if v is {item})`, or keep its position"


def _repeat_count(f: Facts) -> str:
    m = re.search(r"\[[^\[\]]*\]\s*\*\s*([\w.]+)|([\w.]+)\s*\*\s*\[", f.code)
    return (m.group(1) or m.group(2)) if m else "n"


LINE_HABIT_RULES: list[Rule] = [
    Rule("list-search-by-value", lambda f: f.is_("TracerBoolConversionError", "ConcretizationTypeError")
         and bool(_list_search(f)[0]),
         lambda f: (f"`{_list_search(f)[0]}.{_list_search(f)[1]}({_list_search(f)[2]})` finds the item by comparing "
                    f"it with each entry (`==`), and `==` on arrays gives an array of booleans (traced here), not "
                    f"the True or False Python needs"),
         _list_search_fix),
    Rule("list-times-array", lambda f: f.is_("TypeError") and f.says(_LIST_TIMES),
         lambda f: (f"`[...] * {_repeat_count(f)}` repeats a Python list, which needs a Python int, and "
                    f"`{_repeat_count(f)}` is a JAX array"),
         lambda f: (f"make the count a Python int where it is known, `int({_repeat_count(f)})` (outside jit; under "
                    f"jit a length must be static), or build an array of that length, `jnp.zeros({_repeat_count(f)})`")),
    Rule("fold-in-string", lambda f: f.is_("ValueError", "TypeError") and "fold_in(" in f.code
         and f.says(r"invalid literal for int\(\)|'str'|str object|<class 'str'>"),
         "`jax.random.fold_in` mixes an integer into the key, and it was given a string",
         "turn the string into an integer that is the same in every run, a stable hash such as "
         "`zlib.crc32(name.encode())` (Python's `hash` of a string changes between runs), and fold that in: "
         "`jax.random.fold_in(key, zlib.crc32(name.encode()))`"),
    Rule("jax-util-zip", lambda f: f.says(r"has no attribute 'util'") and bool(re.search(r"jax\.util\.safe_(zip|map)", f.code)),
         "`jax.util` (with `safe_zip` and `safe_map`) is JAX's internal module, no longer part of its API",
         "use Python's own: `zip(a, b, strict=True)` checks the lengths as `safe_zip` did, and "
         "`[f(x, y) for x, y in zip(a, b, strict=True)]` replaces `safe_map`"),
]


HABIT_RULES: list[Rule] = [
    Rule("boolean-mask", lambda f: f.is_("NonConcreteBooleanIndexError"),
         "boolean-mask indexing (`x[mask]` or `x.at[mask]`): the result's shape depends on the values", mask_fix),
    Rule("numpy-inplace", lambda f: f.says(r"JAX arrays are immutable, must use inplace=False"),
         lambda f: f"`{_call_name(f, 'this function')}` writes into its array in NumPy; JAX arrays are immutable",
         lambda f: (f"pass `inplace=False` and keep the array it returns: `x = {_call_name(f, 'jnp.fill_diagonal')}"
                    f"(x, ..., inplace=False)`; any other write is `x = x.at[i].set(v)`")),
    Rule("int-argument-overflow", lambda f: f.is_("OverflowError") and f.says(_OVERFLOW),
         lambda f: (f"`{f.group(_OVERFLOW, 1)}` is the Python int {f.group(_OVERFLOW, 2)}, which JAX turns into its "
                    f"default integer (int32 unless 64-bit mode is on), and it does not fit"),
         _overflow_fix),
    Rule("norm-axes", lambda f: f.says(r"^Improper number of axes for norm: axis=\((\d+, ){2,}"),
         "`jnp.linalg.norm` takes one axis (a vector norm) or two (a matrix norm), not three or more",
         lambda f: (f"for the norm of all the entries, flatten first, `jnp.linalg.norm({_first_arg(f, 'x')}.ravel())`; "
                    f"over some of the axes, `jnp.sqrt(jnp.sum({_first_arg(f, 'x')} ** 2, axis=...))`")),
    Rule("int32-overflow", lambda f: f.says(r"Python integer -?\d+ out of bounds for (u?int32)"),
         "JAX makes 32-bit integers (and floats) unless its 64-bit mode is on, and this number needs 64 bits",
         "turn 64-bit mode on at startup, before any array is made: `jax.config.update('jax_enable_x64', True)` "
         "(or `with jax.enable_x64():` around the code); or keep such numbers outside JAX (Python ints)"),
    Rule("string-values", lambda f: f.says(r"with dtype <U\d+ is not a valid JAX array type"),
         "JAX arrays hold numbers, and these values are strings",
         "parse them to numbers first, `np.array(values, dtype=float)` (or `[float(s) for s in values]`), "
         "then make the JAX array"),
    Rule("where-dtype", lambda f: f.says(r"where must be None or a boolean array; got where\.dtype="),
         lambda f: "`where=` takes a boolean mask; it got " + f.group(r"got where\.dtype=dtype\('?(\w+)", default="numbers"),
         lambda f: (lambda m: f"make it boolean: `where={m}.astype(jnp.bool_)` (or a comparison, `{m} > 0`)")(
             (re.search(r"where=(\w+)", f.code) or re.match("(mask)", "mask")).group(1))),
    Rule("sampler-scale", lambda f: f.is_("TypeError") and bool(_sampler_call(f)[0])
         and f.says(r"object is not iterable|Shapes must be|shape"),
         lambda f: (f"`jax.random.{_sampler_call(f)[0]}` takes `shape` where `{_sampler_call(f)[1]}` was given: "
                    f"JAX's samplers draw the standard distribution and take no scale"),
         lambda f: guess(f"if `{_sampler_call(f)[1]}` is a scale, multiply the standard sample: "
                         f"`{_sampler_call(f)[2]} * {_sampler_call(f)[1]}` (a rate divides, a mean for `wald` "
                         f"scales the same way); give the shape by keyword, `shape=`")),
    Rule("mesh-devices", lambda f: f.says(r"^Mesh requires the ndim of its first argument"),
         lambda f: ("`Mesh` takes an array of devices with one axis per axis name; it got "
                    + f.group(r"(devices\.ndim == \d+ and len\(axis_names\) == \d+)", default="another number")),
         "give the devices that shape: `np.array(jax.devices()).reshape(n_a, n_b)`, or build the mesh with "
         "`jax.make_mesh((n_a, n_b), names)`, one size per name"),
    Rule("repeated-new-axis", lambda f: f.says(r"^repeated axis in lax\.expand_dims"),
         "each new axis is a position in the result, and the same position was given twice",
         lambda f: f"give each new axis its own position: `jnp.expand_dims(x, {_repeated_axes(f)})`"),
    Rule("symbolic-zeros-primal-use", lambda f: f.says(r"'CustomVJPPrimal'"),
         "with `symbolic_zeros=True`, the forward rule gets each input wrapped in a `CustomVJPPrimal`, not the array",
         "read the array as `x.value` (and `x.perturbed` says whether it is differentiated)"),
    Rule("grad-argnums-tuple", lambda f: f.is_("TypeError") and f.says(r"sequence|tuple|list")
         and bool(re.search(r"\b(grad|value_and_grad)\([^\n]*argnums=[(\[]", f.code)),
         "`argnums` given as a tuple (or list) makes `jax.grad` return a tuple of gradients, one per position, even "
         "for one position; the line uses it as one array",
         _argnums_number_fix),
    Rule("forward-mode-argnums", lambda f: f.says(r"^(jvp|linearize|vjp)\(\) got an unexpected keyword argument 'argnums'"),
         lambda f: ("`jax." + f.group(r"^(\w+)") + "` has no `argnums`: it differentiates with respect to every "
                    "primal it is given"),
         "close over the arguments that stay fixed and give it only the one you differentiate: "
         "`jax.jvp(lambda x: f(x, *rest), (x,), (t,))` (or `functools.partial`)"),
    Rule("jit-returns-object", lambda f: f.says(r"traced for jit returned a value of type <class '[\w.]+'> at output "
                                                r"component \[?\d*\]?, which is not a valid JAX type"),
         lambda f: ("a jitted function can return only arrays (and containers of them); its output "
                    + f.group(r"at output component (\S+),", default="") + " is a `"
                    + f.group(r"returned a value of type <class .([\w.]+).>").rsplit(".", 1)[-1] + "`"),
         lambda f: ("return only arrays from the jitted function (only the arrays are traced), and keep the "
                    + ("string" if f.says(r"returned a value of type <class 'str'>") else "object")
                    + " outside it (a label, a name: added after the call, or closed over); a function that returns "
                    "a function or another object (as `ravel_pytree` returns its unravel function) is called outside "
                    "`jax.jit`, and its array part jitted")),
    Rule("pmap-scalar", lambda f: f.says(r"_internal_pmap_axis_name") and f.says(r"rank at least 1, but was applied to "
                                                                                 r"a value of rank 0"),
         lambda f: ("`jax.pmap` maps every argument along axis 0 unless `in_axes` says otherwise, and argument "
                    + f.group(r"key path (\S+)", default="") + " is a scalar"),
         "pass it unmapped, `jax.pmap(f, in_axes=(0, None))`, or close over it "
         "(`jax.pmap(lambda s: f(s, value))(shards)`)"),
]
