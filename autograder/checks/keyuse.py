"""Key reuse judged by what the student's code did with its keys, observed while it runs.

JAX's experimental checker (`jax_debug_key_reuse`) infers reuse from how key *values* flow through
a jaxpr, and it errs on idioms that use every key once: unpacking a typed key array
(`key, *subkeys = jax.random.split(key, 4)`) is reported as reuse. A student who is right must
not lose a point to it, so the verdict here rests on evidence: the key data each random operation
actually consumed.

`observe` runs the function once, eagerly (`jax.disable_jit()`, so that jitted helpers, `scan`,
`fori_loop` and `while_loop` run op by op), with the implementations of the primitives that
consume a key wrapped: `random_bits` (every draw: normal, uniform, bernoulli, ...), `random_split`
and `random_gamma`. `vmap` reaches them with the whole batch of keys, so every key of the batch is
one consumption. Reuse is the same key data (and PRNG implementation) consumed twice: two draws,
or a split and a draw. `fold_in` derives a new key and consumes nothing (as in JAX's own rules);
folding the same data into the same key twice makes the same key, which is caught where both are
drawn from.

A consuming primitive can still run out of sight, inside a compiled control-flow primitive that
could not run in Python (a `while_loop` whose condition is batched by `vmap`). Then `observe`
says so (`unobserved`) and the check falls back to JAX's checker for that call.

A function that compiles its own draws inside the watch (`with jax.disable_jit(False):` around a
jit, or an ahead-of-time compiled executable) draws out of sight and unflagged: it forges its own
key-reuse point, one of the evidence points docs/SECURITY.md says a student can forge.

Computation that `vmap` evaluates and then discards (both branches of a batched `cond`, the rows
of a batched `while_loop` that had already stopped) is observed as if it were used; none of the
course's exercises draws there.
"""
from __future__ import annotations

import contextlib
import functools
import os
import sys

import jax
import numpy as np

from .facts import is_student_frame
from .tracing import _block

CONSUMERS = {"random_bits": "a random draw", "random_split": "jax.random.split",
             "random_gamma": "jax.random.gamma"}
# Control flow that runs compiled at eval level when it cannot run in Python under disable_jit.
_COMPILED_REGIONS = ("while", "scan", "cond")
_RANDOM_MODULE = os.sep + os.path.join("jax", "_src", "random")   # a package in some releases, a module in others
_MAX_EVENTS = 100_000


def _primitives_in(jaxpr, found: dict):
    for eqn in jaxpr.eqns:
        found.setdefault(eqn.primitive.name, eqn.primitive)
        for value in eqn.params.values():
            for sub in value if isinstance(value, (list, tuple)) else (value,):
                inner = getattr(sub, "jaxpr", None)
                if inner is not None:
                    _primitives_in(inner if hasattr(inner, "eqns") else inner.jaxpr, found)


@functools.lru_cache(maxsize=1)
def _primitives() -> dict:
    """JAX's primitives by name, found in jaxprs of public functions (their module moves between
    JAX releases; their names do not)."""
    key = jax.random.key(0)
    found: dict = {}
    programs = [
        (lambda k: (jax.random.bits(k), jax.random.split(k), jax.random.gamma(k, 1.0)), (key,)),
        (lambda x: jax.lax.while_loop(lambda c: c < 3, lambda c: c + 1, x), (0,)),
        (lambda x: jax.lax.scan(lambda c, _: (c + 1, None), x, None, length=2), (0,)),
        (lambda x: jax.lax.cond(x > 0, lambda: x, lambda: -x), (1,)),
    ]
    for fn, args in programs:
        _primitives_in(jax.make_jaxpr(fn)(*args).jaxpr, found)
    return found


def _contains_consumer(params) -> bool:
    found: dict = {}
    for value in params.values():
        for sub in value if isinstance(value, (list, tuple)) else (value,):
            inner = getattr(sub, "jaxpr", None)
            if inner is not None:
                _primitives_in(inner if hasattr(inner, "eqns") else inner.jaxpr, found)
    return any(name in found for name in CONSUMERS)


def _site() -> dict | None:
    """The student's line that led to this operation, and the jax.random function it called."""
    frame, api, where = sys._getframe(2), None, None
    while frame is not None:
        filename = frame.f_code.co_filename
        if _RANDOM_MODULE in filename and not frame.f_code.co_name.startswith("_"):
            api = frame.f_code.co_name          # the outermost public jax.random function wins
        elif is_student_frame(filename):
            where = {"function": frame.f_code.co_name, "line": frame.f_lineno}
            break
        frame = frame.f_back
    if where is not None and api is not None:
        where["api"] = f"jax.random.{api}"
    return where


def _key_rows(keys) -> list:
    """One identity per key of the (possibly batched) key array: its implementation and data."""
    if jax.dtypes.issubdtype(keys.dtype, jax.dtypes.prng_key):
        impl, data = str(jax.random.key_impl(keys)), np.asarray(jax.random.key_data(keys))
    else:   # a raw uint32 key reaching the primitive directly
        impl, data = "raw", np.asarray(keys)
    count = int(np.prod(keys.shape)) if keys.shape else 1
    rows = data.reshape(count, -1)
    return [(impl, row.tobytes()) for row in rows]


@contextlib.contextmanager
def _watching(events: list, unobserved: list):
    prims = _primitives()
    saved = {}

    def consumer(prim, label):
        original = prim.impl

        def impl(*args, **params):
            site = _site()
            for identity in _key_rows(args[0]):
                if len(events) < _MAX_EVENTS:
                    events.append((identity, label, site))
            return original(*args, **params)
        return original, impl

    def region(prim):
        original = prim.impl

        def impl(*args, **params):
            if _contains_consumer(params):
                unobserved.append(prim.name)
            return original(*args, **params)
        return original, impl

    for name, label in CONSUMERS.items():
        saved[prims[name]] = consumer(prims[name], label)
    for name in _COMPILED_REGIONS:
        saved[prims[name]] = region(prims[name])
    for prim, (_, wrapper) in saved.items():
        prim.impl = wrapper
    try:
        yield lambda: all(prim.impl is wrapper for prim, (_, wrapper) in saved.items())
    finally:
        for prim, (original, _) in saved.items():
            prim.impl = original


def _describe_use(label: str, site: dict | None) -> str:
    what = (site or {}).get("api") or label
    if site is None:
        return what
    return f"{what} at line {site['line']} of {site['function']}"


def first_reuse(events: list) -> dict | None:
    """The first key consumed a second time: where it was consumed first and where again."""
    first_use: dict = {}
    for identity, label, site in events:
        if identity in first_use:
            before = first_use[identity]
            return {"first": _describe_use(*before), "again": _describe_use(label, site),
                    "split_then_drawn": before[0] != label}
        first_use[identity] = (label, site)
    return None


def observe(fn, args, kwargs, describe_exception) -> dict:
    """Call `fn` once, watching every key it consumes. Plain data for the grader:
    {'ok', 'consumed' (keys), 'reuse' (None or where), 'unobserved' (primitive names), 'intact'}."""
    events: list = []
    unobserved: list = []
    with _watching(events, unobserved) as intact, jax.disable_jit():
        try:
            _block(fn(*args, **(kwargs or {})))
        except Exception as exc:
            return {"ok": False, "error": describe_exception(exc)}
        hooks_intact = intact()
    return {"ok": True, "consumed": len(events), "reuse": first_reuse(events),
            "unobserved": sorted(set(unobserved)), "intact": hooks_intact}
