"""How the probes jit, trace and count a student's function, with JAX's entry points bound early.

Imported by `evidence.py` before any student code runs in the worker, so the entry points bound
here (`jax.jit`, `jax.clear_caches`, the jitted type's own `trace` and `lower`) are JAX's, whatever
a student later rebinds. A student's jitted function is recognised by its type and rebuilt from
the compiled object's own state; traces are counted by a wrapper whose count lives in the probe's
closure; JAX's events and cache-miss explanations are collected while a probe runs.
"""
from __future__ import annotations

import contextlib
import functools
import logging
import time

import jax
import numpy as np
from jax import tree_util
from jax._src import compilation_cache as _persistent   # where JAX keeps its persistent cache (private)

from .text import scrub, shorten

# A lab's on-disk compilation cache (labs often switch it on) is switched off in the process that runs
# the checks: a compile-time check (`timing.py`) would time a cache lookup instead of a compile, and a
# program compiled in an earlier session would pass it. (Compile counts would not change: JAX records a
# hit as a compile, `backend_compile_duration` wraps the lookup; the grader's own read-only cache,
# sandbox/compile_cache.py, relies on that and never reaches the timing worker.) Probes trace the
# student's function afresh (`_fresh_jit`). Where the grader installs its own trusted cache (a worker,
# `nbgrader autograde`'s kernel when the grader gives it one), it switches it on after this import;
# a compile-time check still compiles cold (`_cold_compiles`).
jax.config.update("jax_enable_compilation_cache", False)

_jit = jax.jit
_clear_caches = jax.clear_caches
_block = jax.block_until_ready
_tree_leaves = tree_util.tree_leaves
_perf_counter = time.perf_counter
_TRACE_EVENT = "/jax/core/compile/jaxpr_trace_duration"
_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"


@contextlib.contextmanager
def _cold_compiles():
    """Compile with no persistent cache, whatever this process installed: for a compile-time check,
    which must time a compile, not a lookup. (Where the grader installed its trusted cache, in a
    worker or in `nbgrader autograde`'s kernel, it is JAX's `_cache` object; a lookup finds none
    while it is set aside, and nothing compiled meanwhile is kept.)"""
    saved, enabled = _persistent._cache, jax.config.jax_enable_compilation_cache
    _persistent._cache = None
    jax.config.update("jax_enable_compilation_cache", False)   # so JAX does not open a configured folder
    try:
        yield
    finally:
        jax.config.update("jax_enable_compilation_cache", enabled)
        _persistent._cache = saved


# ---------------------------------------------------------------- what the student jitted
# The type `jax.jit` returns, its pickling state and its `trace` method, bound before any student
# code runs. A student's jitted function is recognised by this type, never by attributes that any
# object can have (`lower`, `trace`, `__wrapped__`); and what it was built from is read from the
# compiled object's own state, since its attributes (`_fun`, `__wrapped__`, `_jit_info`, `trace`)
# can be reassigned on the instance.
_PJIT_TYPE = type(jax.jit(lambda x: x))
_PJIT_STATE = getattr(_PJIT_TYPE, "__getstate__", None)
_jit_trace = _PJIT_TYPE.trace
_jit_lower = _PJIT_TYPE.lower


def is_jitted(fn) -> bool:
    """True for the object `jax.jit` returns (by its type)."""
    return type(fn) is _PJIT_TYPE


def _jit_source(fn, static_argnums=(), static_argnames=()):
    """(function, static_argnums, static_argnames) to jit: for a student's own jitted function, the
    function and static arguments it was built with (so its own static args count); else `fn` with
    the static arguments the check intends."""
    if not is_jitted(fn):
        return fn, tuple(static_argnums), tuple(static_argnames)
    try:
        state = _PJIT_STATE(fn)
        return state["fun"], tuple(state["static_argnums"]), tuple(state["static_argnames"])
    except Exception:  # pragma: no cover - a jaxlib without the pickling state: the attributes
        info = fn._jit_info
        return fn._fun, tuple(info.static_argnums or ()), tuple(info.static_argnames or ())


def _target(fn):
    """The Python function behind `fn` (the one a student's jit was built from)."""
    return _jit_source(fn)[0]


def _fun_name(fn) -> str:
    target = _target(fn)
    try:
        from jax._src.util import fun_name  # the name JAX reports in its monitoring events
        return fun_name(target)
    except Exception:  # pragma: no cover - private API moved
        return getattr(target, "__name__", type(target).__name__)


def _fresh_jit(fn, static_argnums=(), static_argnames=(), on_trace=None, compiler_options=None):
    """A jit of our own, of `fn` or of what the student's jit was built from (with its static args).

    The function is always wrapped in a new closure, so that JAX's tracing caches (keyed by the
    function object) hold nothing for it: the probe traces the student's function now, with the
    program state of now, whatever was traced before. This is what makes a probe independent of the
    cells that ran before it, without `jax.clear_caches()`, which would also throw away every
    compiled operation (a notebook's probes then compiled each `jnp` operation again, a third of
    their compiles). With `on_trace`, `on_trace()` runs each time JAX traces the function: the
    trace count then lives in the probe's own closure, which student code cannot name, rather than
    in a counter keyed by a function name that the function itself can change while it is traced."""
    inner, nums, names = _jit_source(fn, static_argnums, static_argnames)
    count = on_trace or (lambda: None)

    @functools.wraps(inner)
    def target(*args, **kwargs):
        count()
        return inner(*args, **kwargs)

    target.__name__ = _fun_name(inner)
    return _jit(target, static_argnums=nums, static_argnames=names or None, compiler_options=compiler_options)


def _jitted(fn, static_argnums=(), static_argnames=()):
    """The student's own jit (called as it is: it runs the function it was built with) or ours with
    the intended static args."""
    if is_jitted(fn):
        return fn
    return _jit(fn, static_argnums=static_argnums, static_argnames=static_argnames or None)


@contextlib.contextmanager
def _counting_events(name: str):
    """Counts of JAX's trace and compile events while the block runs: for the function called
    `name`, and for every function (`"*"`). The counts live in this listener's closure, registered
    for the block only."""
    counts = {"traces": 0, "compiles": 0, "all_traces": 0}

    def listener(event, duration, **kwargs):
        fun = kwargs.get("fun_name", "")
        if event == _TRACE_EVENT:
            counts["all_traces"] += 1
            counts["traces"] += fun == name
        elif event == _COMPILE_EVENT and fun in (name, f"jit({name})"):
            counts["compiles"] += 1

    jax.monitoring.register_event_duration_secs_listener(listener)
    try:
        yield counts
    finally:
        try:
            jax.monitoring.unregister_event_duration_listener(listener)
        except Exception:  # removed by someone else: nothing left to undo
            pass


class _CacheMissLog(logging.Handler):
    """Collects JAX's `jax_explain_cache_misses` explanations while a probe runs."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record):
        text = record.getMessage()
        if "CACHE MISS" in text and "PERSISTENT" not in text:  # tracing misses, not the compile cache's
            self.records.append(text)


@contextlib.contextmanager
def _explaining_cache_misses():
    handler = _CacheMissLog()
    logger = logging.getLogger("jax")
    previous = jax.config.jax_explain_cache_misses
    jax.config.update("jax_explain_cache_misses", True)
    logger.addHandler(handler)
    try:
        yield handler.records
    finally:
        logger.removeHandler(handler)
        jax.config.update("jax_explain_cache_misses", previous)


def _summarise_miss(text: str) -> str:
    """Keep the lines of a cache-miss explanation that name the difference."""
    keep = [ln.strip() for ln in text.splitlines()
            if ln.strip().startswith(("*", "never seen", "different", "now"))]
    return shorten(scrub(" ".join(keep)), 400) or shorten(scrub(text.splitlines()[0]), 200)


def _sub_jaxprs(eqn):
    """Closed or open jaxprs held in an equation's params, found by type (names move between versions)."""
    from jax.extend import core as jcore
    out = []
    stack = list(eqn.params.values())
    while stack:
        p = stack.pop()
        if isinstance(p, jcore.ClosedJaxpr):
            out.append(p.jaxpr)
        elif isinstance(p, jcore.Jaxpr):
            out.append(p)
        elif isinstance(p, (tuple, list)):
            stack.extend(p)
    return out


# Steps whose work runs as host code, outside XLA (timing.py's LEAVES_XLA, and older JAX's names): with
# results, their work is in no jaxpr, so no structure check can vouch for it (`work.refuse_host_calls`).
HOST_PRIMITIVES = ("pure_callback", "io_callback", "debug_callback", "callback", "ffi_call", "custom_call")


def summarise_jaxpr(jaxpr) -> dict:
    """Primitive counts, equation count, cond branch counts, the largest value and the host calls
    that return values, through nesting."""
    prims: dict[str, int] = {}
    branches: list[int] = []
    host: set[str] = set()
    largest = {"size": 0, "shape": [], "dtype": "", "primitive": ""}
    n_eqns = 0
    stack = [jaxpr]
    while stack:
        jx = stack.pop()
        for eqn in jx.eqns:
            n_eqns += 1
            name = eqn.primitive.name
            prims[name] = prims.get(name, 0) + 1
            if name == "cond":
                branches.append(len(eqn.params.get("branches", ())))
            if name in HOST_PRIMITIVES and eqn.outvars:
                host.add(name)
            for var in eqn.outvars:
                aval = getattr(var, "aval", None)
                shape = tuple(getattr(aval, "shape", ()) or ())
                size = int(np.prod(shape)) if shape else 1
                floating = "float" in str(getattr(aval, "dtype", ""))
                # at equal size prefer a float value: it is the data, an int one is often an index
                if (size, floating) > (largest["size"], "float" in largest["dtype"]):
                    largest = {"size": size, "shape": list(shape),
                               "dtype": str(getattr(aval, "dtype", "")), "primitive": name}
            stack.extend(_sub_jaxprs(eqn))
    return {"primitives": prims, "eqns": n_eqns, "cond_branches": sorted(branches),
            "largest": largest, "host_calls": sorted(host)}


