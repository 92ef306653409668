"""Plain data by type: the one place that decides whether a value a student's function returned is
data the grader may read, by its exact type, never by what the object says about itself.

A student's object can claim anything through its attributes (`dtype`, `shape`, `__array__`,
`__jax_array__`, `__class__` as a property): an object whose `dtype` says bfloat16 but whose
`__array__` gives float32 values would pass a check that reads `out.dtype`. So a value is data only
when its type *is* one of these, exactly (subclasses are refused, since they can override what
the base class reports):

- `None`, `bool`, `int`, `float`, `complex`, `str`;
- `numpy.ndarray` (numeric and bool dtypes) and NumPy's own scalar types;
- JAX's concrete array type, its typed PRNG key array type, and JAX's own tracer classes (a probe may trace the function);
- `list`, `tuple` and `dict` (string or integer keys) of the above.

Everything crossing from the worker to the grader is encoded by these rules (`sandbox/wire.py`),
and a probe that a test cell runs next to the student's code gets the student's function wrapped
so that what it returns has passed them (`returning_plain`), so the probe reads JAX's `dtype`,
not the student's.
"""
from __future__ import annotations

import functools
import sys

import numpy as np

SCALARS = (type(None), bool, int, float, complex, str)
NUMPY_SCALARS = frozenset(t for t in set(np.sctypeDict.values()) if issubclass(t, (np.number, np.bool_))
                          and t.__module__ == "numpy")
MAX_DEPTH = 64


class NotPlainData(TypeError):
    """A value that is not plain data by type: the student's function returned an object of its own."""


@functools.lru_cache(maxsize=1)
def _jax_types() -> dict:
    """JAX's concrete array type and its PRNG key array type (typed keys), by their exact types (the
    array from a transfer, not `jnp.zeros`: a transfer compiles no program in a fresh worker)."""
    import jax
    return {type(jax.device_put(np.zeros((), np.float32))): "jax", type(jax.random.key(0)): "key"}


def is_jax_tracer_type(cls) -> bool:
    """A tracer class of JAX's own: a subclass of `jax.core.Tracer` that its defining JAX module
    holds under its name (a student's class can set `__module__`, not put itself into JAX's module:
    the integrity snapshot watches JAX's modules)."""
    import jax
    if not (isinstance(cls, type) and issubclass(cls, jax.core.Tracer)):
        return False
    module = sys.modules.get(getattr(cls, "__module__", "") or "")
    name = getattr(module, "__name__", "")
    return (name == "jax" or name.startswith(("jax.", "jaxlib."))) and vars(module).get(cls.__name__) is cls


def kind(value) -> str | None:
    """'scalar', 'numpy', 'npscalar', 'jax', 'key', 'tracer', 'list', 'tuple', 'dict', or None (not plain)."""
    t = type(value)
    if t in SCALARS:
        return "scalar"
    if t is np.ndarray:
        return "numpy" if value.dtype.kind in "biufc" or value.dtype.name == "bfloat16" else None
    if t in NUMPY_SCALARS:
        return "npscalar"
    if t is list or t is tuple:
        return t.__name__
    if t is dict:
        return "dict" if all(type(k) in (str, int) for k in value) else None
    if "jax" not in sys.modules:
        return None
    found = _jax_types().get(t)
    if found:
        return found
    if is_jax_tracer_type(t):
        return "tracer"
    return None


def checked(value, what: str = "the function", depth: int = 0):
    """`value` itself when it is plain data throughout (see the module docstring); else raises
    `NotPlainData` naming the first object that is not."""
    found = kind(value)
    if found is None:
        raise NotPlainData(f"{what} returned a {type(value).__name__} object, not an array or a list, "
                           f"tuple or dict of arrays")
    if depth > MAX_DEPTH:
        raise NotPlainData(f"{what} returned containers nested more than {MAX_DEPTH} deep")
    if found in ("list", "tuple"):
        for item in value:
            checked(item, what, depth + 1)
    elif found == "dict":
        for item in value.values():
            checked(item, what, depth + 1)
    return value


def returning_plain(fn):
    """`fn`, wrapped so that what it returns is checked by type first (`checked`), or, when it returns
    a function, wrapped in turn: given to probes that a test cell runs next to the student's code."""
    if not callable(fn):
        return fn
    try:
        name = fn.__name__ if type(fn.__name__) is str else "the function"
    except Exception:
        name = "the function"

    def plain_fn(*args, **kwargs):
        out = fn(*args, **kwargs)
        if callable(out) and kind(out) is None:   # a function that returns a function (a transform):
            return returning_plain(out)            # what that one returns is checked in turn
        return checked(out, f"`{name}`")

    plain_fn.__name__ = plain_fn.__qualname__ = name
    return plain_fn
