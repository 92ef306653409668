"""Rules for an argument a JAX function refuses in the form it was given, each read from the message
that names the argument (and the line that passed it), written after the nineteenth held-out batch's
first run (`tests/mistakes/heldout_error_mistakes_19.py`), one per kind of message it met and no rule
knew (issue 38: the form the function's own convention asks for, whatever the code around it):

- `lax`'s conventions: `lax.reduce`'s scalar initial values of the operand's dtype, a `reduce_window`
  reducer that returns one array, `select_n`'s integer `which`, `lax.pad`'s triples and padding value,
  integer start indices for `dynamic_update_slice`, one `(low, high)` pair per spatial axis for a
  convolution, `tensordot`'s axes as tuples of ints;
- what a call was given for another parameter: a backend name given by position where the function's
  first parameter is another (read from its signature), a device index where a device goes, an f-string
  for `jax.debug.print`'s template and a template field with no keyword;
- keys and trees: `permutation` of a float, `choice`'s `p` along another axis, `categorical`'s `shape`
  without the logits' batch shape, a key path entry read as a dict key, `tree.transpose`'s inner treedef;
- custom rules: `symbolic_zeros=True`'s wrapped primals.

After the twentieth batch's first run: `jax.jvp`'s tangents of another structure than its primals,
arithmetic on the float0 gradient of an integer argument, an axis of a 0-d value, an `io_callback`
under a batched `while_loop`, `associative_scan` inputs of different lengths, an integer `p` for
`bernoulli`, an unhashable object given to `jax.jit`, a traced `pad_width`, a `ShapeDtypeStruct`
without its dtype.

A fix is an instruction where the message and the function's convention settle it, and a guess
(`trial_texts.GUESS`) where the student's intent decides. Part of `stated_rules.STATED_RULES`.
"""
from __future__ import annotations

import ast
import inspect
import re

from .convention_rules import _calls
from .rule_facts import Facts, Rule
from .trial_texts import guess

_BACKENDS = ("cpu", "gpu", "tpu", "cuda", "rocm", "METAL")
# what the messages quote, read by the rules' texts
_OPERAND_DTYPE = r"operands=.ShapedArray.(\w+)"
_INIT_DTYPE = r"initial_values=.ShapedArray.(\w+)"
_TWO_DTYPES = r"got (\w+) and (\w+)"
_AXES = r"got \[([\d ]+)\] and \[([\d ]+)\]"
_DEVICE_INDEX = r"Received invalid value: (\d+)$"
_AXIS_LENGTH = r"a.shape.axis. is (\d+)"
_P_LENGTH = r"p has shape \((\d+),?\)"
_KEY_KIND = r"^.(\w+)"
_ENTRY_FIELD = {"DictKey": "key", "GetAttrKey": "name", "SequenceKey": "idx", "FlattenedIndexKey": "key"}


def _g(f: Facts, pattern: str, group: int = 1) -> str:
    return f.group(pattern, group)


def _axes_tuples(f: Facts) -> str:
    first, second = (_g(f, _AXES, i).split() for i in (1, 2))
    return "axes=" + str((tuple(int(i) for i in first), tuple(int(i) for i in second)))


def _arg(f: Facts, names: tuple, index: int, keyword: str = "") -> str:
    """The source of argument `index` (or `keyword=`) of the first call on the line named by `names`."""
    for call in _calls(f, *names):
        for k in call.keywords:
            if keyword and k.arg == keyword:
                return ast.unparse(k.value)
        if len(call.args) > index:
            return ast.unparse(call.args[index])
    return ""


def _pairs_as_triples(f: Facts) -> str:
    """`lax.pad(x, v, [(1, 1), (2, 2)])`'s config with an interior 0 added to each pair, or ''."""
    config = _arg(f, ("lax.pad",), 2, "padding_config")
    try:
        pairs = ast.literal_eval(config)
    except (ValueError, SyntaxError):
        return ""
    if isinstance(pairs, (list, tuple)) and all(isinstance(p, (list, tuple)) and len(p) == 2 for p in pairs):
        return "[" + ", ".join(f"({lo}, {hi}, 0)" for lo, hi in pairs) + "]"
    return ""


def _conv_padding(f: Facts) -> tuple[str, str]:
    """(the padding given, one pair per spatial axis) where one `(low, high)` pair was given for all."""
    given, strides = _arg(f, ("conv_general_dilated", "conv"), 3, "padding"), _arg(f, ("conv_general_dilated", "conv"), 2)
    try:
        pair, axes = ast.literal_eval(given), len(ast.literal_eval(strides))
    except (ValueError, SyntaxError, TypeError):
        return given, ""
    if isinstance(pair, tuple) and len(pair) == 2 and all(type(v) is int for v in pair):
        return given, "(" + ", ".join([f"({pair[0]}, {pair[1]})"] * axes) + ")"
    return given, ""


def _backend_by_position(f: Facts) -> str:
    """The line with a backend name given by keyword where it was given by position to a `jax.` function
    whose parameter at that position is another one (its own signature says so), or ''."""
    import jax
    for call in ast.walk(f.parsed):
        if not (isinstance(call, ast.Call) and ast.unparse(call.func).startswith("jax.")):
            continue
        fn = jax
        for part in ast.unparse(call.func).split(".")[1:]:
            fn = getattr(fn, part, None)
        try:
            params = list(inspect.signature(fn).parameters) if callable(fn) else []
        except (TypeError, ValueError):
            continue
        for i, a in enumerate(call.args):
            if isinstance(a, ast.Constant) and a.value in _BACKENDS and "backend" in params[i + 1:]:
                fixed = ast.Call(call.func, [x for x in call.args if x is not a],
                                 [*call.keywords, ast.keyword("backend", a)])
                return f.code.strip().replace(ast.unparse(call), ast.unparse(fixed)) \
                    if ast.unparse(call) in f.code else ast.unparse(fixed)
    return ""


def _template(f: Facts) -> str:
    """`jax.debug.print(f"loss {loss}")` written as a plain template with keywords, or ''."""
    for call in _calls(f, "debug.print"):
        if call.args and isinstance(call.args[0], ast.JoinedStr):
            text, names = "", []
            for part in call.args[0].values:
                if isinstance(part, ast.Constant):
                    text += str(part.value).replace("{", "{{").replace("}", "}}")
                elif isinstance(part, ast.FormattedValue) and isinstance(part.value, ast.Name):
                    text += "{" + part.value.id + "}"
                    names.append(part.value.id)
                else:
                    return ""
            given = {k.arg for k in call.keywords}
            keywords = [*call.keywords, *(ast.keyword(n, ast.Name(n)) for n in dict.fromkeys(names) if n not in given)]
            return ast.unparse(ast.Call(call.func, [ast.Constant(text), *call.args[1:]], keywords))
    return ""


def _missing_field(f: Facts) -> tuple[str, str]:
    """(the field, the call with it given) where `jax.debug.print`'s template names a keyword not passed."""
    name = f.group(r"^'(\w+)'$") if f.is_("KeyError") else ""
    for call in _calls(f, "debug.print") if name else []:
        if call.args and isinstance(call.args[0], ast.Constant) and "{" + name + "}" in str(call.args[0].value) \
                and name not in {k.arg for k in call.keywords}:
            return name, ast.unparse(ast.Call(call.func, call.args, [*call.keywords, ast.keyword(name, ast.Name(name))]))
    return "", ""


def _indices_cast(f: Facts) -> str:
    """The start indices of `dynamic_(update_)slice` on the line, each cast to int32."""
    for call in _calls(f, "dynamic_update_slice", "dynamic_slice"):
        index = 2 if ast.unparse(call.func).endswith("dynamic_update_slice") else 1
        if len(call.args) > index and isinstance(call.args[index], (ast.Tuple, ast.List)):
            return "(" + ", ".join(f"{ast.unparse(e)}.astype(jnp.int32)" for e in call.args[index].elts) + \
                ("," if len(call.args[index].elts) == 1 else "") + ")"
    return "(start.astype(jnp.int32),)"


def _jitted_object(f: Facts) -> str:
    """The class JAX could not hash, where the line gives `jax.jit` something to compile (an object of that
    class: a function is hashable)."""
    kind = f.group(r"^unhashable type: '(\w+)'$")
    builtin = ("list", "dict", "set", "ndarray", "ArrayImpl", "DeviceArray", "bytearray")
    named = [c for c in _calls(f, "jax.jit") if c.args]
    return kind if kind and kind not in builtin and named else ""


def _logits(f: Facts) -> str:
    return _arg(f, ("random.categorical",), 1, "logits") or "logits"


ARGUMENT_RULES: list[Rule] = [
    # ---- lax's own conventions
    Rule("reduce-init-not-scalar", lambda f: f.says(r"^reduce found non-scalar initial value"),
         "`lax.reduce` takes one scalar initial value per operand (the reduction's identity, `0` for a sum), not an "
         "array shaped like its result",
         lambda f: (f"give a scalar of the operand's dtype, e.g. `jnp.zeros((), {_arg(f, ('lax.reduce',), 0) or 'x'}.dtype)` "
                    f"(or `0.0` for float32 data)")),
    Rule("reduce-init-dtype", lambda f: f.says(r"^reduce operand dtypes should match corresponding initial value dtypes"),
         lambda f: (f"`lax.reduce`'s initial value must have its operand's dtype; the operand is "
                    f"{_g(f, _OPERAND_DTYPE) or 'a float'} and the initial value "
                    f"{_g(f, _INIT_DTYPE) or 'an int'} (a Python `0` is an int)"),
         lambda f: (f"write the initial value in the operand's dtype: `0.0` for floats, or "
                    f"`jnp.zeros((), {_arg(f, ('lax.reduce',), 0) or 'x'}.dtype)`")),
    Rule("reducer-returns-list", lambda f: f.says(r"^reduce_window output must have the same tree structure as the "
                                                  r"operands PyTreeDef\(\*\) vs\. PyTreeDef\(\[\*\]\)"),
         "the reducer returns a list around its result where `lax.reduce_window` expects one array, as its operand",
         "return the array itself, not wrapped in a list (`lax.min(a, b)`, or pass `lax.min` as the reducer)"),
    Rule("select-n-float-which", lambda f: f.says(r"^select `which` must be boolean or integer type, got (float|bfloat)"),
         "`lax.select_n` picks a case by the integer value of `which` (a bool picks between two), and this `which` "
         "holds floats",
         lambda f: f"cast it to an integer dtype: `{_arg(f, ('select_n',), 0) or 'which'}.astype(jnp.int32)`"),
    Rule("lax-pad-pairs", lambda f: f.says(r"^not enough values to unpack \(expected 3, got 2\)") and bool(_calls(f, "lax.pad")),
         "`lax.pad` takes one `(low, high, interior)` triple per axis (interior: padding between elements), not "
         "NumPy's `(before, after)` pairs",
         lambda f: (f"add the interior padding, `0`, to each pair: `{_pairs_as_triples(f)}`" if _pairs_as_triples(f)
                    else "give one `(low, high, interior)` triple per axis, e.g. `(1, 1, 0)`")),
    Rule("lax-pad-value-dtype", lambda f: f.says(r"^pad operand and padding_value must be same dtype: got \w+ and"),
         lambda f: (f"`lax.pad`'s padding value must have the operand's dtype; they are "
                    f"{_g(f, _TWO_DTYPES, 1)} and {_g(f, _TWO_DTYPES, 2)} (a Python `0` is an int)"),
         lambda f: (f"make the padding value in the operand's dtype: "
                    f"`jnp.array(0, {_arg(f, ('lax.pad',), 0) or 'x'}.dtype)` (or `0.0` for floats)")),
    Rule("slice-start-not-int", lambda f: f.says(r"^index arguments to dynamic_(update_)?slice must be integers"),
         "`dynamic_slice`/`dynamic_update_slice` take their start indices as integers of one dtype, and these are floats",
         lambda f: f"cast the start indices: `{_indices_cast(f)}`"),
    Rule("conv-padding-pair", lambda f: f.says(r"^padding argument to conv_general_dilated should be a string or a "
                                               r"sequence of \(low, high\) pairs"),
         "a convolution's padding is a string (`'SAME'`, `'VALID'`) or one `(low, high)` pair per spatial axis; "
         "one pair alone is read as two numbers",
         lambda f: (f"give a pair for each spatial axis: `{_conv_padding(f)[1]}` instead of `{_conv_padding(f)[0]}`"
                    if _conv_padding(f)[1] else "give one `(low, high)` pair for each spatial axis, e.g. "
                    "`((1, 1), (1, 1))` for images")),
    Rule("tensordot-axes-arrays", lambda f: f.says(r"^tensordot requires both axes lists to be either ints, tuples or lists"),
         "`jnp.tensordot`'s `axes` must be an int or two tuples (or lists) of Python ints, known while tracing; "
         "these are arrays",
         lambda f: (f"give `axes` as two tuples of Python ints: `{_axes_tuples(f)}`" if _g(f, _AXES)
                    else "convert each with `tuple(...)`")),
    # ---- an argument given for another parameter
    Rule("backend-by-position", lambda f: bool(_backend_by_position(f)),
         "a backend name was given by position, where the function's parameter at that position is another one "
         "(`jax.local_devices(process_index, backend, ...)`: the first is a process number)",
         lambda f: f"name it: `{_backend_by_position(f)}`"),
    Rule("device-index", lambda f: f.says(r"^`jax\.device_put` only accepts .* Received invalid value: \d+$"),
         "`jax.device_put` places on a device or a sharding, not on a device's index",
         lambda f: f"pass the device itself: `jax.devices()[{_g(f, _DEVICE_INDEX) or 0}]`"),
    Rule("debug-print-fstring", lambda f: f.says(r"^Unused keyword arguments to `jax\.debug\.print`") and bool(_template(f)),
         "`jax.debug.print` fills its template itself when the values exist (at run time); an f-string is filled "
         "when the line runs, while tracing, so its fields are gone and the keywords are left unused",
         lambda f: f"pass a plain string (no `f`) with the values as keywords: `{_template(f)}`"),
    Rule("debug-print-field", lambda f: bool(_missing_field(f)[0]),
         lambda f: f"the template names `{{{_missing_field(f)[0]}}}`, and no keyword `{_missing_field(f)[0]}=` was given",
         lambda f: f"pass a keyword for every field of the template: `{_missing_field(f)[1]}`"),
    # ---- keys and trees
    Rule("permutation-of-a-float", lambda f: f.says(r"^x must be an integer or at least 1-dimensional") and bool(
        _calls(f, "random.permutation")),
         "`jax.random.permutation(key, x)` shuffles `range(x)` when `x` is an integer, or the array `x`; this `x` is "
         "a single float",
         lambda f: f"pass an integer: `int({_arg(f, ('random.permutation',), 1) or 'n'})`"),
    Rule("choice-p-other-axis", lambda f: f.says(r"^p must be None or a 1D vector with the same size as a\.shape\[axis\]"),
         lambda f: (f"`p` holds one probability per entry along `axis` (axis 0 unless given), which has "
                    f"{_g(f, _AXIS_LENGTH)} entries; `p` has {_g(f, _P_LENGTH)}"),
         lambda f: guess(f"if these are weights of another axis (columns), pass it: `axis=1` (the axis whose length is "
                         f"{_g(f, _P_LENGTH)})")),
    Rule("categorical-shape-batch", lambda f: f.says(r"^Incompatible shapes for broadcasting") and bool(
        _calls(f, "random.categorical")) and "shape=" in f.code,
         "`jax.random.categorical`'s `shape` must end with the logits' batch shape (their shape without the category "
         "axis): the draws for each row of logits come last",
         lambda f: f"put the batch shape at the end: `shape=(n, *{_logits(f)}.shape[:-1])` for `n` draws of each row"),
    Rule("key-path-entry-field", lambda f: f.says(r"^'(GetAttrKey|SequenceKey|DictKey|FlattenedIndexKey)' object has no "
                                                   r"attribute '(key|name|idx)'"),
         lambda f: (f"the entries of a key path are of several kinds, one per kind of node: `DictKey` has `.key`, "
                    f"`GetAttrKey` `.name`, `SequenceKey` `.idx`; this one is a `{_g(f, _KEY_KIND)}`"),
         lambda f: (f"read a `{_g(f, _KEY_KIND)}`'s own field, `.{_ENTRY_FIELD.get(_g(f, _KEY_KIND), 'key')}`; where one "
                    f"path mixes kinds of nodes, read each kind's field, or the whole path as text with "
                    f"`jax.tree_util.keystr(path)`")),
    Rule("transpose-inner-mismatch", lambda f: f.says(r"^Mismatch\s+PyTreeDef") and bool(_calls(f, "tree.transpose", "tree_transpose")),
         "the tree must be the outer treedef with the inner one at each of its leaves, and these do not compose to it",
         "let JAX read the inner structure from the tree: pass `None` as the inner treedef "
         "(`jax.tree.transpose(outer, None, tree)`)"),
    # ---- after the twentieth batch
    Rule("jvp-tangents-structure", lambda f: f.says(r"^primal and tangent arguments to jax\.jvp must have the same tree structure"),
         "`jax.jvp` pushes one tangent through each primal input, so the tangents need the primals' structure "
         "(here one tangent for two primals)",
         "give one tangent per primal, in the same structure: a zero tangent, `jnp.zeros_like(p)`, for each input "
         "not pushed"),
    Rule("float0-arithmetic", lambda f: f.says(r"did not contain a loop with signature matching types \(dtype\(\[\('float0'"),
         "a gradient with respect to an integer argument has dtype float0, which holds no values and takes no "
         "arithmetic",
         "differentiate the float arguments only, `argnums=` their positions, so that no float0 gradient is made "
         "(integers have no derivative)"),
    Rule("axis-of-a-scalar", lambda f: f.says(r"^axis -?\d+ is out of bounds for array of dimension 0$"),
         "a 0-d value has no axes, so no `axis=` can name one",
         "drop `axis=` (`axis=None` reduces a 0-d value to itself), or make the value 1-d first, `jnp.atleast_1d(x)`"),
    Rule("io-callback-batched-while", lambda f: f.says(r"^Unordered IO effects not supported in while_loop with batched predicate"),
         "an `io_callback` inside a `while_loop` whose predicate `vmap` batched: JAX cannot keep its effects in "
         "order across the examples",
         "log with `jax.debug.callback` (or `jax.debug.print`), which a batched loop allows, or keep the loop's "
         "predicate the same for every example"),
    Rule("associative-scan-lengths", lambda f: f.says(r"^Array inputs to associative_scan must have the same first dimension"),
         lambda f: (f"`lax.associative_scan` combines its inputs element by element along the scanned axis, so they "
                    f"need one length there; here {f.group(r'saw: (.*)[)][.]?$') or 'they differ'}"),
         "give every input the same leading size (pad or cut them to one length), as `jnp.stack` would need"),
    Rule("bernoulli-int-p", lambda f: f.says(r"^bernoulli probability `p` must have a floating dtype"),
         "`jax.random.bernoulli`'s `p` is a probability between 0 and 1, in floats, and this one is an integer array",
         lambda f: f"pass it as floats: `{_arg(f, ('random.bernoulli',), 1, 'p') or 'p'}.astype(jnp.float32)`"),
    Rule("jit-of-an-unhashable-object", lambda f: bool(_jitted_object(f)),
         lambda f: (f"`jax.jit` hashes the callable it compiles, and a `{_jitted_object(f)}` object is not hashable (a "
                    f"dataclass that defines `__eq__` is not, unless frozen)"),
         "make the object hashable, `@dataclasses.dataclass(frozen=True)` (or a `__hash__`), or jit a plain "
         "function that calls it"),
    Rule("pad-width-traced", lambda f: f.says(r"^Abstract tracer value encountered where concrete value is expected[^\n]*\n"
                                              r"pad_width argument of jnp\.pad"),
         "`jnp.pad`'s `pad_width` must be known while tracing, and this one is a traced array (an argument of the "
         "jitted function, or built with `jnp`)",
         "give `pad_width` as Python ints: a tuple of `(before, after)` pairs, e.g. `((0, 0), (0, 2))`, not an array"),
    Rule("shape-dtype-struct-no-dtype", lambda f: f.says(r"^ShapeDtypeStruct: dtype must be specified"),
         "a `jax.ShapeDtypeStruct` describes an array's shape and dtype, and none was given",
         "give it a dtype: `jax.ShapeDtypeStruct(shape, jnp.float32)` (or the `x.dtype` of the array it stands for)"),
    # ---- custom rules
    Rule("symbolic-zeros-primal", lambda f: f.says(r"^Argument 'CustomVJPPrimal\("),
         "with `symbolic_zeros=True`, the forward rule gets each primal wrapped as a `CustomVJPPrimal` (its `value` "
         "and whether it is `perturbed`), not the array",
         "read the arrays as `x.value` in the forward rule (or drop `symbolic_zeros=True`)"),
]
