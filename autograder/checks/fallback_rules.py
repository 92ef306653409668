"""The last rules of the table: where no rule knows JAX's message and nothing traced, a cause in the
student's terms (the name, the call, what JAX's own signature or module holds) and at most two
candidate fixes, always offered as guesses (`trial_texts.GUESS`), chosen by the kind of error:

- a name a JAX module does not have: the same name in another JAX module (it moved), or a close
  spelling in the same module;
- an attribute a JAX array does not have: the `jnp` function of that name, or NumPy's method on a
  NumPy copy outside traced code;
- a JAX function called against its signature (an unknown keyword, a missing or extra positional
  argument): its signature, read from the function itself, and the closest parameter name;
- an index past an axis, on a line that passes a literal `axis=` (or `in_axes=`, `out_axes=`): the
  axis counted from the end;
- a message that carries JAX's own advice ("Use ... instead"): that advice, quoted as a guess.

These read JAX's modules in the process that explains (the grader imports the same JAX the student
ran); a name they cannot resolve gives no rule, so the message says nothing rather than guess blind.
"""
from __future__ import annotations

import difflib
import importlib
import inspect
import re

from .advice_rules import LATE_RULES
from .rule_facts import Facts, Rule
from .trial_texts import GUESS, guess

# JAX's public modules a moved name is looked for in, with the name a student writes for each
_MODULES = {"jax": "jax", "jax.numpy": "jnp", "jax.lax": "lax", "jax.random": "jax.random", "jax.nn": "jax.nn",
            "jax.tree": "jax.tree", "jax.tree_util": "jax.tree_util", "jax.scipy.special": "jax.scipy.special",
            "jax.scipy.linalg": "jax.scipy.linalg", "jax.numpy.linalg": "jnp.linalg", "jax.numpy.fft": "jnp.fft",
            "jax.dtypes": "jax.dtypes", "jax.debug": "jax.debug", "jax.experimental": "jax.experimental",
            "jax.image": "jax.image", "jax.sharding": "jax.sharding", "jax.ops": "jax.ops", "jax.core": "jax.core"}
# how a student's call names a JAX module
_PREFIXES = {"jnp": "jax.numpy", "np": "", "lax": "jax.lax", "jax.lax": "jax.lax", "jax.numpy": "jax.numpy",
             "jax.random": "jax.random", "random": "jax.random", "jax.nn": "jax.nn", "jax": "jax",
             "jax.tree": "jax.tree", "jax.tree_util": "jax.tree_util", "jnp.linalg": "jax.numpy.linalg",
             "jax.scipy.special": "jax.scipy.special"}


def _module(name: str):
    """One of JAX's public modules above, imported; None for any other name. The name comes from a
    message the student's code may have raised itself, and the grader must not import what it names."""
    if name not in _MODULES:
        return None
    try:
        return importlib.import_module(name)
    except Exception:  # noqa: BLE001  (a module this JAX does not have)
        return None


def _public(mod) -> list[str]:
    return [n for n in dir(mod) if not n.startswith("_")] if mod is not None else []


# ---------------------------------------------------------------- a name a JAX module lacks
_MISSING = r"module '(jax[\w.]*)' has no attribute '(\w+)'"
_IMPORT_MISSING = r"cannot import name '(\w+)' from '(jax[\w.]*)'"
_MODULE_MISSING = r"^No module named '(jax(?:\.\w+)*)\.(\w+)'"
# JAX's packages whose modules a removed module may have moved to (`jax.experimental.optimizers`)
_PACKAGES = ("jax.example_libraries", "jax.extend", "jax.experimental")
# removed names with no successor of the same name (JAX's changelog): what replaces their common uses
_REPLACED = {"xla_bridge": "`jax.default_backend()` (the platform's name, 'cpu' or 'gpu') or `jax.devices()`"}


def _missing(f: Facts) -> tuple[str, str, bool]:
    """(module, name, whether it was imported) for a name a JAX module lacks, in any of Python's three
    wordings (an attribute, `from m import name`, `import m.name`); ('', '', False) otherwise."""
    if f.is_("AttributeError") and f.says(_MISSING):
        return f.group(_MISSING, 1), f.group(_MISSING, 2), False
    if f.is_("ImportError") and f.says(_IMPORT_MISSING):
        return f.group(_IMPORT_MISSING, 2), f.group(_IMPORT_MISSING, 1), True
    if f.is_("ImportError") and f.says(_MODULE_MISSING):
        return f.group(_MODULE_MISSING, 1), f.group(_MODULE_MISSING, 2), True
    return "", "", False


def _submodule(package: str, name: str) -> bool:
    """Whether JAX's `package` has a module `name` (found, not imported: only the package is)."""
    import importlib.util
    try:
        return importlib.util.find_spec(f"{package}.{name}") is not None
    except Exception:  # noqa: BLE001
        return False


def _moved(f: Facts) -> list[str]:
    """`jax.lax.N`-style spellings of the same name in other JAX modules (or `from m import N` where the
    student imported it), then close spellings in the module the student named (two at most)."""
    module, name, imported = _missing(f)
    if not module or not name:
        return []
    if name in _REPLACED:
        return [_REPLACED[name]]
    spell = (lambda full, short: f"`from {full} import {name}`") if imported else \
        (lambda full, short: f"`{short}.{name}`")
    found = [spell(full, short) for full, short in _MODULES.items()
             if full != module and name in _public(_module(full))]
    if imported and f.says(_MODULE_MISSING) and name in _public(_module(module)):
        return [f"`from {module} import {name}` (an object of `{module}`, not a module)"]
    found += [f"`from {p} import {name}`" for p in _PACKAGES if p != module and _submodule(p, name)]
    for inner in ([] if found else _taken_from(f, f"{module}.{name}")):   # a removed module: where its names went
        found += [f"`from {full} import {inner}`" if imported else f"`{short}.{inner}`"
                  for full, short in _MODULES.items() if inner in _public(_module(full))]
    short = _MODULES.get(module, module)
    close = [f"`{short}.{n}`" for n in difflib.get_close_matches(name, _public(_module(module)), n=2, cutoff=0.75)]
    return (found + close)[:2]


def _taken_from(f: Facts, missing: str) -> list[str]:
    """The names the line takes from a module JAX no longer has: `from missing import A, B` or `missing.A`."""
    where = re.escape(missing)
    m = re.search(rf"\bfrom\s+{where}\s+import\s+\(?\s*([\w\s,]+)", f.code)
    if m:
        return [n.split()[0] for n in m.group(1).split(",") if n.strip()][:3]
    return list(dict.fromkeys(re.findall(rf"\b{where}\.(\w+)", f.code)))[:3]


def _moved_cause(f: Facts) -> str:
    import jax
    module, name, _ = _missing(f)
    return (f"this JAX ({jax.__version__}) has no `{name}` in `{module}`: JAX removed, renamed or moved it (its "
            f"changelog says which)")


# ---------------------------------------------------------------- an attribute a JAX array lacks
_ARRAY_ATTR = r"'(?:[\w.]+\.)?(ArrayImpl|\w*Tracer)' object has no attribute '(\w+)'"


def _array_options(f: Facts) -> list[str]:
    name = f.group(_ARRAY_ATTR, 2)
    if not name:
        return []
    import numpy as np
    options = []
    if name in _public(_module("jax.numpy")):
        options.append(f"the function `jnp.{name}(x)`")
    if hasattr(np.ndarray, name) and f.group(_ARRAY_ATTR, 1) == "ArrayImpl":
        options.append(f"outside traced code, NumPy's method on a copy: `np.asarray(x).{name}`")
    return options[:2]


# ---------------------------------------------------------------- a JAX function called against its signature
_SIGNATURE = (r"^(\w+)\(\) (got an unexpected keyword argument '(\w+)'|missing \d+ required positional arguments?"
              r"|takes (?:from \d+ to )?\d+ positional arguments? but \d+ (?:were|was) given)")


def _jax_function(f: Facts):
    """(the call as written, the JAX function) for the function JAX's message names, when the failing
    line calls it through a JAX module; (None, None) otherwise (the student's own functions)."""
    name = f.group(_SIGNATURE, 1)
    if not name:
        return None, None
    for prefix, full in sorted(_PREFIXES.items(), key=lambda p: -len(p[0])):
        if full and re.search(rf"(?<![\w.]){re.escape(prefix)}\.{name}\(", f.code):
            fn = getattr(_module(full), name, None)
            if callable(fn):
                return f"{prefix}.{name}", fn
    return None, None


def _params(fn) -> list[str]:
    try:
        return [p for p in inspect.signature(fn).parameters if p not in ("args", "kwargs")]
    except (TypeError, ValueError):
        return []


def _signature_text(f: Facts) -> str:
    """`jnp.take_along_axis(arr, indices, axis=-1, ...)`: the parameters without their annotations."""
    written, fn = _jax_function(f)
    try:
        parameters = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return f"`{written}(...)`"
    shown, star = [], False
    for p in parameters[:6]:
        if p.kind is p.KEYWORD_ONLY and not star:
            shown.append("*")
            star = True
        default = "" if p.default is p.empty else "=" + (repr(p.default) if len(repr(p.default)) <= 12 else "...")
        shown.append(("*" if p.kind is p.VAR_POSITIONAL else "**" if p.kind is p.VAR_KEYWORD else "") + p.name + default)
    more = ", ..." if len(parameters) > 6 else ""
    return f"`{written}({', '.join(shown)}{more})`"


def _renamed_keyword(f: Facts, written: str, keyword: str, name: str) -> str:
    """The student's call of `written` with keyword `keyword=` renamed `name=`, or ''."""
    from .advice_rules import call_text
    m = re.search(rf"(?<![\w.]){re.escape(written)}\(", f.code)
    call = call_text(f.code, m.start()) if m else ""
    return re.sub(rf"\b{keyword}\s*=", f"{name}=", call) if call and len(call) <= 120 else ""


# keywords other array libraries use for what JAX (after NumPy) names otherwise: PyTorch's `dim`, `keepdim`,
# NumPy's random `size`
OTHER_LIBRARIES = {"dim": "axis", "dims": "axes", "keepdim": "keepdims", "size": "shape"}


def _signature_fix(f: Facts) -> str:
    written, fn = _jax_function(f)
    keyword = f.group(_SIGNATURE, 3)
    params = _params(fn)
    if keyword and OTHER_LIBRARIES.get(keyword) in params:
        name = OTHER_LIBRARIES[keyword]
        call = _renamed_keyword(f, written, keyword, name)
        return f"`{written}` calls it `{name}=` (as NumPy does): " + (f"`{call}`" if call else f"`{name}=`")
    if keyword:
        close = difflib.get_close_matches(keyword, params, n=1, cutoff=0.5)
        if close:
            call = _renamed_keyword(f, written, keyword, close[0])
            return guess(f"the parameter may be `{close[0]}=` (`{written}` has no `{keyword}`)"
                         + (f": `{call}`" if call else ""))
        return guess(f"drop `{keyword}=`, which `{written}` does not take, or pass the value by one of its own "
                     f"parameters ({', '.join(params[:6])})")
    missing = re.findall(r"'(\w+)'", f.group(r"missing \d+ required positional arguments?: (.*)$"))
    if missing:
        return guess(f"pass {' and '.join(f'`{m}`' for m in missing)} as well, in the order of {_signature_text(f)}")
    return guess(f"pass the arguments after the positional ones by keyword, in the order of {_signature_text(f)}")


# ---------------------------------------------------------------- an index past an axis given by number
def _axis_literal(f: Facts) -> str:
    """`axis=2` (or `in_axes=2`, `out_axes=2`) on the failing line, as written, or ''."""
    m = re.search(r"\b((?:in_|out_)?ax[ie]s)=(\d+)\b", f.code)
    return f"{m.group(1)}={m.group(2)}" if m else ""


# JAX's own advice in its message (`... is not supported. Use stable=True ...`): a sentence that starts
# with one of these, quoted back as a guess where no rule knows the message
_ADVICE = (r"(?:^|[.:;]\s+)((?:[Uu]se|Instead,? use|Consider using|Try using|Please use|Did you mean|Pass|Set)\b"
           r"[^\n]{3,200}?)(?:\.(?:\s|$)|$)")


def argmax_too(f: Facts) -> str:
    """For `jnp.where(x == jnp.max(x))` (the positions of the largest entry, whose count depends on the
    values): `jnp.argmax`, which has a fixed size, as a guess; '' for any other line."""
    m = re.search(r"jnp\.(?:where|nonzero|argwhere)\(\s*(\w+)\s*==\s*jnp\.(max|min)\(\s*\1\s*\)\s*\)", f.code)
    return (f"; {GUESS}for the position of the {m.group(2)}imum, `jnp.unravel_index(jnp.arg{m.group(2)}({m.group(1)}), "
            f"{m.group(1)}.shape)` (one index per axis, a fixed size)") if m else ""


def _from_jax(f: Facts) -> bool:
    """JAX's own code raised it, or (its frames hidden by JAX's traceback filtering) its message names
    a JAX function or option (`jax.lax.linalg.eig`, `jnp.take`)."""
    return f.desc.get("raised_in_jax") is True or f.says(r"\b(jax|jnp|lax)\.\w+")


# JAX's words for a traced index into an axis of size 0 (NumPy's, outside a trace, name the index: `index 0 is`)
_EMPTY_AXIS = r"(axis \d+ with size 0)\b"


def _past_end(f: Facts) -> str:
    """JAX's (or NumPy's) words for an index or an axis number past the end of an array, or ''."""
    if not f.is_("IndexError", "ValueError", "AxisError"):
        return ""
    return f.group(r"((?:index|axis) -?\d+ is out of bounds for (?:axis \d+ with size \d+|array of dimension \d+))")


FALLBACK_RULES: list[Rule] = [
    *LATE_RULES,           # what JAX's message says it wants, and where its machinery called the student's code
    Rule("moved-name", lambda f: bool(_moved(f)), _moved_cause,
         lambda f: guess(" or ".join(_moved(f)) + " (what this JAX has in its place)")),
    Rule("array-attribute", lambda f: bool(_array_options(f)),
         lambda f: f"JAX arrays have no `.{f.group(_ARRAY_ATTR, 2)}` method (NumPy's arrays do)",
         lambda f: guess(" or ".join(_array_options(f)))),
    Rule("jax-signature", lambda f: f.is_("TypeError") and _jax_function(f)[1] is not None,
         lambda f: (f"`{_jax_function(f)[0]}` was called against its signature, {_signature_text(f)}: "
                    f"{f.group(_SIGNATURE, 2)}"),
         _signature_fix),
    Rule("empty-axis", lambda f: f.is_("IndexError") and f.says(r"\bindex is out of bounds for " + _EMPTY_AXIS),
         lambda f: (f"an axis of size 0 is indexed ({f.group(_EMPTY_AXIS)}): JAX traces a loop's body, a "
                    f"mapped function and both branches even when they would run zero times, and there is no entry "
                    f"to index while tracing"),
         "handle the empty case before it, with a Python `if` on the shape (shapes are static, even under `jax.jit`): "
         "`if x.shape[0] == 0: return ...`, and run the loop or map only for arrays that have entries"),
    Rule("axis-past-end", lambda f: bool(_past_end(f)) and bool(_axis_literal(f)),
         lambda f: f"an index or axis ran past the array ({_past_end(f)}) on a line that passes `{_axis_literal(f)}`",
         lambda f: guess(f"`{_axis_literal(f)}` may name a dimension the array does not have there: axes count "
                         f"from 0, and `-1` is the last axis whatever the rank (`axis=-1`)")),
    Rule("jax-advice", lambda f: _from_jax(f) and f.group(_ADVICE, default="") != "",
         "JAX rejected this call, and its message says what it accepts instead",
         lambda f: guess(f"JAX's own suggestion: {f.group(_ADVICE).rstrip('.')}")),
]
