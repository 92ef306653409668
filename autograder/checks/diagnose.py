"""Turn an exception raised while tracing student code into a cause and a fix, in student terms.

Exceptions are described as plain data (`describe_exception`) where they happen, so that the
description can cross a process boundary; `explain` works only on that description. The table
follows the measured behaviour of jax 0.10.2 (see GRADING_NOTES.md): subclasses come before their
parents, because `TracerBoolConversionError` is a `ConcretizationTypeError`.
"""
from __future__ import annotations

import linecache
import os
import re
import traceback

# (exception class name, message regex or None, cause, fix)
_RULES = [
    ("TracerBoolConversionError", None,
     "Python `if`/`while`/`and`/`or`/`assert` on a traced value: its truth is unknown while tracing",
     "branch with `jnp.where` (elementwise) or `lax.cond` / `lax.switch`; loop with `lax.while_loop`"),
    ("NonConcreteBooleanIndexError", None,
     "boolean-mask indexing (`x[mask]` or `x.at[mask]`): the result's shape depends on the values",
     "keep the shape static: `jnp.where(mask, new, x)` instead of indexing with the mask"),
    ("TracerIntegerConversionError", None,
     "a traced value used as a Python int (e.g. `range(n)` or a list index)",
     "use `lax.fori_loop(0, n, body, init)` for a traced bound, or mark the argument static"),
    ("TracerArrayConversionError", None,
     "`np.asarray` / NumPy called on a traced value",
     "use `jnp` functions instead of `np` inside jitted code"),
    ("ConcretizationTypeError", r"jnp\.nonzero|size argument|argwhere|flatnonzero",
     "`jnp.nonzero` / one-argument `jnp.where` on a traced value: the output size depends on the values",
     "pass a static `size=` (and `fill_value=`), or rewrite with `jnp.where(cond, a, b)` and a cumulative sum"),
    ("ConcretizationTypeError", r"arange",
     "a traced value used as a shape or size",
     "make that argument static (`static_argnums`) or keep shapes fixed and mask instead"),
    ("ConcretizationTypeError", None,
     "a traced value was needed as a concrete Python value (`float(t)`, `int(t)`, `.item()`, `bool(t)`)",
     "stay in `jnp` (no `float()`/`.item()`); print with `jax.debug.print`; make true constants static"),
    ("UnexpectedTracerError", r"nondiff_argnums",
     "a traced value (an array argument) was declared in `nondiff_argnums` of a custom derivative rule",
     "keep array arguments differentiable; return a zero (or `None`) cotangent for them from `bwd`"),
    ("TypeError", r"Custom VJP bwd rule must produce",
     "the custom_vjp backward rule returned a different number or structure of cotangents than the "
     "function has inputs",
     "return a tuple from `bwd` with one cotangent per input, in order (zeros or `None` for inputs "
     "without a gradient)"),
    ("UnexpectedTracerError", None,
     "a tracer escaped its trace (stored in a global, a list or an object, then used later)",
     "return values instead of storing them; keep the function pure"),
    ("KeyReuseError", None,
     "a PRNG key was used twice, so two 'independent' draws are identical",
     "`jax.random.split` the key and use each subkey once"),
    ("TypeError", r"unsupported format string passed to \w*Tracer\.__format__",
     "formatting a traced value (`f'{loss:.3f}'`) needs its number, which does not exist while tracing",
     "return the value and format it outside the jitted function, or use "
     "`jax.debug.print('loss {l:.3f}', l=loss)`"),
    ("TypeError", r"Shapes must be 1D sequences of concrete values|concrete value|abstract tracer",
     "a traced value used as a shape (`jnp.zeros(n)`, `jnp.full((n,), v)`, `reshape(n)`)",
     "mark the size argument static: `jax.jit(f, static_argnums=...)`"),
    ("ValueError", r"[Nn]on-hashable static arguments",
     "an unhashable value (a list, an array) was passed as a static argument",
     "pass a tuple or an int as the static argument, or make the argument traced"),
    ("IndexError", r"[Ss]lice entries must be static|[Aa]rray slice indices must have static|traced|dynamic",
     "slicing with a traced start or stop (`x[i:i + k]`)",
     "use `lax.dynamic_slice(x, (i,), (k,))` with a static size `k`"),
    ("OSError", r"File too large",
     "the code printed more output than the grader allows (the cap counts bytes)",
     "print summaries, not whole arrays or a print in every loop step"),
    ("MemoryError", None,
     "the code allocated more memory than the grader allows",
     "work on the sizes the exercise gives; avoid building huge intermediates"),
    ("NotImplementedError", None,
     "the exercise is not implemented yet (the `raise NotImplementedError()` stub is still there)",
     "replace the stub with your solution"),
]

_LIBRARY_MARKERS = (os.sep + "jax" + os.sep, os.sep + "jaxlib" + os.sep, os.sep + "numpy" + os.sep,
                    os.sep + "autograder" + os.sep, os.sep + "site-packages" + os.sep,
                    os.sep + "cloudpickle" + os.sep)
_STDLIB = os.path.dirname(os.__file__)


def is_student_frame(filename: str) -> bool:
    """Student code is any frame outside the libraries and the standard library."""
    if not filename or filename.startswith("<frozen"):
        return False
    if filename.startswith(_STDLIB) and os.sep + "site-packages" + os.sep not in filename:
        return False
    return not any(m in filename for m in _LIBRARY_MARKERS)


def describe_exception(exc: BaseException) -> dict:
    """Plain-data description of an exception: class names (MRO), message, the student's line."""
    names = [c.__name__ for c in type(exc).__mro__ if c not in (object, BaseException)]
    frames = traceback.extract_tb(exc.__traceback__)
    where = None
    for fr in frames:
        if is_student_frame(fr.filename):
            line = fr.line or linecache.getline(fr.filename, fr.lineno).strip()
            where = {"file": os.path.basename(fr.filename), "line": fr.lineno, "code": line,
                     "function": fr.name}
    message = str(exc)
    # JAX error messages are long; the first paragraph carries the evidence.
    first = message.strip().split("\n\n")[0]
    return {"type": type(exc).__name__, "mro": names, "message": first[:600], "where": where}


def explain(desc: dict) -> tuple[str, str]:
    """(cause, fix) for a described exception; a generic pair when no rule matches."""
    mro = desc.get("mro") or [desc.get("type", "")]
    for name in mro:
        for cls, pattern, cause, fix in _RULES:
            if cls == name and (pattern is None or re.search(pattern, desc.get("message", ""))):
                return cause, fix
    return ("the function raised an exception",
            "run it eagerly on the example input and read the traceback")


def where_text(desc: dict) -> str:
    w = desc.get("where")
    if not w:
        return ""
    return f" at line {w['line']} of {w['function']}: `{w['code']}`"


def format_failure(desc: dict) -> str:
    """One line of evidence plus the fix, used inside an AssertionError message."""
    cause, fix = explain(desc)
    return (f"{desc['type']}{where_text(desc)}: {desc['message'][:300]}\n"
            f"  cause: {cause}\n  fix: {fix}")

