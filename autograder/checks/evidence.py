"""Probes that run next to the student's code and return plain data (never a verdict).

Under `nbgrader autograde` they run in the student's kernel; under the `autograder` CLI they run
in the sandboxed worker, and the grader decides in its own process from the data they return
(see `check.py`). Every probe clears JAX's caches first, so a function warmed up earlier in the
notebook still shows its real traces, and describes exceptions with `diagnose.describe_exception`.

The JAX entry points are bound at import time, i.e. before any student code runs in the worker,
so that a student who rebinds `jax.jit` does not change what the probes call.
"""
from __future__ import annotations

import contextlib
import functools
import inspect
import io
import linecache
import logging
import math
import os
import re
import time

import jax
import numpy as np
from jax import tree_util

from .diagnose import describe_exception, scrub, shorten

# A persistent compilation cache (labs often switch it on) would hide compiles from the retrace
# checks; probes always measure from cold caches.
jax.config.update("jax_enable_compilation_cache", False)

_jit = jax.jit
_clear_caches = jax.clear_caches
_block = jax.block_until_ready
_tree_leaves = tree_util.tree_leaves
_perf_counter = time.perf_counter
_TRACE_EVENT = "/jax/core/compile/jaxpr_trace_duration"
_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"

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


def _fresh_jit(fn, static_argnums=(), static_argnames=(), on_trace=None):
    """A jit of our own, of `fn` or of what the student's jit was built from (with its static args).

    With `on_trace`, the function is wrapped so that `on_trace()` runs each time JAX traces it: the
    trace count then lives in the probe's own closure, which student code cannot name, rather than
    in a counter keyed by a function name that the function itself can change while it is traced."""
    target, nums, names = _jit_source(fn, static_argnums, static_argnames)
    if on_trace is not None:
        inner = target

        @functools.wraps(inner)
        def target(*args, **kwargs):
            on_trace()
            return inner(*args, **kwargs)

        target.__name__ = _fun_name(inner)
    return _jit(target, static_argnums=nums, static_argnames=names or None)


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
        if "CACHE MISS" in text:
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


# ---------------------------------------------------------------- how a function was called
def _value_kind(value) -> str:
    """How an argument was passed, in words the diagnosis rules use."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if value is None:
        return "none"
    dtype = getattr(value, "dtype", None)
    if dtype is not None and hasattr(value, "shape"):
        try:
            if jax.dtypes.issubdtype(dtype, jax.dtypes.prng_key):
                return "key"
        except TypeError:
            pass
        return "array"
    if isinstance(value, (list, tuple, dict)):
        return "pytree"
    if callable(value):
        return "callable"
    return "object"


def _signature_line(target) -> dict | None:
    """The `def` line of a Python function (past its decorators), as a `where` entry."""
    code = getattr(target, "__code__", None)
    if code is None:
        return None
    for lineno in range(code.co_firstlineno, code.co_firstlineno + 12):
        line = linecache.getline(code.co_filename, lineno).strip()
        if line.startswith(("def ", "async def ")):
            return {"file": os.path.basename(code.co_filename), "line": lineno, "code": line,
                    "function": code.co_name, "path": code.co_filename}
    return None


def _static_of(fn, static_argnums, static_argnames):
    """The static argument numbers and names jit really uses (the student's own, if jitted)."""
    _, nums, names = _jit_source(fn, static_argnums, static_argnames)
    return set(nums), set(names)


def _parameter_names(fn, count) -> list[str]:
    target = _target(fn)
    try:
        params = [p.name for p in inspect.signature(target).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    return [params[i] if i < len(params) else f"args[{i}]" for i in range(count)]


def call_context(fn, args, kwargs=None, static_argnums=(), static_argnames=()) -> dict:
    """Plain data about a jitted call: the function, and how each argument was passed.

    `diagnose` uses it to tell a size argument passed as a Python int (make it static) from one
    passed as an array (it must stay traced), and to name the argument in the fix."""
    nums, names = _static_of(fn, static_argnums, static_argnames)
    target = _target(fn)
    out = {"function": getattr(target, "__name__", "f"), "student_jit": is_jitted(fn), "args": {},
           "static": [], "signature": _signature_line(target)}
    for i, (name, value) in enumerate(zip(_parameter_names(fn, len(args)), args)):
        static = i in nums or name in names
        out["args"][name] = {"kind": "static" if static else _value_kind(value)}
        if static:
            out["static"].append(name)
    for name, value in (kwargs or {}).items():
        static = name in names
        out["args"][name] = {"kind": "static" if static else _value_kind(value)}
        if static:
            out["static"].append(name)
    return out


# ---------------------------------------------------------------- what changed between calls
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _short(value, limit=60) -> str:
    try:
        text = _ADDRESS.sub("", repr(value))
    except Exception:  # a student object whose repr fails
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _tree_text(value) -> str:
    """A short description of a pytree's top level: `None`, `f32[3]`, `dict with keys ['a']`."""
    if value is None:
        return "None"
    if isinstance(value, dict):
        return f"a dict with keys {sorted(map(str, value))}"
    if isinstance(value, (list, tuple)):
        return f"a {type(value).__name__} of {len(value)}"
    try:
        return jax.typeof(value).str_short(short_dtypes=True)
    except Exception:
        return type(value).__name__


def _aval(leaf):
    try:
        aval = jax.typeof(leaf)
        return aval.str_short(short_dtypes=True), str(aval.dtype), tuple(aval.shape), bool(aval.weak_type)
    except Exception:
        return type(leaf).__name__, "", (), False


def _arg_signature(value, static):
    if static:
        return {"static": True, "value": value}
    leaves, treedef = tree_util.tree_flatten_with_path(value)
    return {"static": False, "value": value, "treedef": treedef,
            "leaves": [(tree_util.keystr(path), _aval(leaf)) for path, leaf in leaves]}


def _first_treedef_difference(a, b, a_value, b_value, path=""):
    """Walk two treedefs together: ('structure' | 'metadata', path, before, now) or None."""
    a_data, b_data = a.node_data(), b.node_data()
    a_kids, b_kids = a.children(), b.children()
    a_type = a_data[0] if a_data else None
    b_type = b_data[0] if b_data else None
    if a_type is not b_type or len(a_kids) != len(b_kids):
        return "structure", path, _tree_text(a_value), _tree_text(b_value)
    if a_data and a_data[1] != b_data[1]:
        builtin = a_type in (dict, list, tuple, type(None)) or (
            isinstance(a_type, type) and issubclass(a_type, tuple))
        if builtin:
            return "structure", path, _tree_text(a_value), _tree_text(b_value)
        return "metadata", path, _short(a_data[1]), _short(b_data[1])
    for i, (ka, kb) in enumerate(zip(a_kids, b_kids)):
        found = _first_treedef_difference(ka, kb, None, None, path)
        if found:
            kind, sub, before, now = found
            if kind == "structure" and before == "None" == now:   # no values below the top
                before, now = str(ka), str(kb)
            return kind, sub, before, now
    return None


def _static_difference(name, a, b):
    if a is b:
        return None
    try:
        if a == b and hash(a) == hash(b):
            return None
    except Exception:
        pass
    same_type = type(a) is type(b)
    change = {"arg": name, "before": _short(a), "now": _short(b)}
    if same_type and callable(a) and not isinstance(a, type):
        return {**change, "kind": "static_identity", "callable": True, "type": type(b).__name__,
                "now": f"a new `{type(b).__name__}`" if isinstance(b, type(lambda: 0)) else _short(b)}
    if same_type and (type(a).__eq__ is object.__eq__ or _short(a) == _short(b)):
        return {**change, "kind": "static_identity", "type": type(b).__name__,
                "before": f"a `{type(a).__name__}` object", "now": f"a new `{type(b).__name__}` object"}
    return {**change, "kind": "static_value"}


def _differences(name, a, b) -> list[dict]:
    if a["static"] or b["static"]:
        found = _static_difference(name, a["value"], b["value"])
        return [found] if found else []
    if a["treedef"] != b["treedef"]:
        found = _first_treedef_difference(a["treedef"], b["treedef"], a["value"], b["value"])
        kind, path, before, now = found or ("structure", "", str(a["treedef"]), str(b["treedef"]))
        return [{"kind": kind, "arg": name + path, "before": before, "now": now}]
    out = []
    for (path, (a_text, a_dtype, a_shape, a_weak)), (_, (b_text, b_dtype, b_shape, b_weak)) in zip(
            a["leaves"], b["leaves"]):
        where = name + path
        if a_shape != b_shape:
            out.append({"kind": "shape", "arg": where, "before": a_text, "now": b_text})
        elif a_dtype != b_dtype:
            out.append({"kind": "dtype", "arg": where, "before": a_text, "now": b_text,
                        "before_dtype": a_dtype})
        elif a_weak != b_weak:
            typed = b_dtype if a_weak else a_dtype
            out.append({"kind": "weak_type", "arg": where,
                        "before": a_text + (" (Python scalar)" if a_weak else " (typed)"),
                        "now": b_text + (" (Python scalar)" if b_weak else " (typed)"),
                        "before_dtype": typed})
    return out


def _retrace_change(signatures, names, i) -> dict | None:
    """The argument change that best explains why call `i` traced again: the earlier call it
    differs from least (JAX's own 'closest previous key'), and the first difference there."""
    best = None
    for j in reversed(range(i)):
        diffs = [d for k, name in enumerate(names)
                 for d in _differences(name, signatures[j][k], signatures[i][k])]
        if diffs and (best is None or len(diffs) < len(best[1])):
            best = (j, diffs)
    if best is None:
        return None
    j, diffs = best
    return {**diffs[0], "call": i, "compared_with": j, "others": len(diffs) - 1}


# ---------------------------------------------------------------- probes
def run_jit(fn, args, kwargs=None, static_argnums=(), static_argnames=(), transform=None):
    """Trace and run `jax.jit(fn)` once, or `jax.jit(transform(fn))` (e.g. `transform=jax.grad`).
    Returns {'ok': True} or {'ok': False, 'error': ...}."""
    _clear_caches()
    try:
        target = fn if transform is None else transform(fn)
        _block(_jitted(target, static_argnums, static_argnames)(*args, **(kwargs or {})))
    except Exception as exc:  # the student's mistake, described for the verdict
        return {"ok": False, "error": describe_exception(
            exc, call_context(fn, args, kwargs, static_argnums, static_argnames))}
    return {"ok": True}


def count_traces(fn, calls, static_argnums=(), static_argnames=()):
    """Trace and compile counts of one `jax.jit(fn)` over `calls` (a list of argument tuples).

    A student function that is already jitted is counted with the static args it was built with
    (its own static_argnums count). Traces are counted by wrapping the function (`_fresh_jit`).
    Explanations are JAX's own cache-miss reasons, one per retrace; `change` names the
    argument whose type, shape, structure or static value changed before the first retrace.
    """
    _clear_caches()
    traces = []
    jitted = _fresh_jit(fn, static_argnums, static_argnames, on_trace=lambda: traces.append(1))
    traced_at = []
    with _explaining_cache_misses() as misses, _counting_events(_fun_name(fn)) as events:
        try:
            for i, call in enumerate(calls):
                before = len(traces)
                _block(jitted(*call))
                if len(traces) > before:
                    traced_at.append(i)
        except Exception as exc:
            return {"ok": False, "call": i, "traces": len(traces), "compiles": events["compiles"],
                    "error": describe_exception(exc, call_context(fn, call, None, static_argnums,
                                                                  static_argnames))}
    change = None
    retraces = [i for i in traced_at if i > 0]
    if retraces:
        try:
            nums, names_static = _static_of(fn, static_argnums, static_argnames)
            width = max(len(c) for c in calls)
            names = _parameter_names(fn, width)
            signatures = [[_arg_signature(c[k], k in nums or names[k] in names_static) if k < len(c)
                           else {"static": True, "value": None} for k in range(width)] for c in calls]
            change = _retrace_change(signatures, names, retraces[0])
        except Exception:  # the explanation is a courtesy; the counts stand without it
            change = None
    return {"ok": True, "traces": len(traces), "compiles": events["compiles"],
            "calls": len(calls), "explanations": [_summarise_miss(m) for m in misses[1:]],
            "change": change}


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


def summarise_jaxpr(jaxpr) -> dict:
    """Primitive counts, equation count, cond branch counts and the largest value, through nesting."""
    prims: dict[str, int] = {}
    branches: list[int] = []
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
            "largest": largest}


def jaxpr_summary(fn, args, kwargs=None, static_argnums=(), static_argnames=()):
    """Trace `fn` (honouring static args) and summarise its jaxpr."""
    _clear_caches()
    try:
        traced = _jit_trace(_fresh_jit(fn, static_argnums, static_argnames), *args, **(kwargs or {}))
    except Exception as exc:
        return {"ok": False, "error": describe_exception(exc)}
    return {"ok": True, **summarise_jaxpr(traced.jaxpr.jaxpr)}


def captured_stdout(fn, calls, jit=True, static_argnums=()):
    """What `fn` prints over `calls` (jitted by default), after all effects have run."""
    _clear_caches()
    target = _jitted(fn, static_argnums) if jit else fn
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            for call in calls:
                _block(target(*call))
            jax.effects_barrier()
    except Exception as exc:
        return {"ok": False, "error": describe_exception(exc), "stdout": buf.getvalue()[-4000:]}
    return {"ok": True, "stdout": buf.getvalue()[-20000:]}


def call_with_key_reuse_checks(fn, args, kwargs=None):
    """Call `fn` eagerly with JAX's key-reuse checker on."""
    previous = jax.config.jax_debug_key_reuse
    jax.config.update("jax_debug_key_reuse", True)
    try:
        _clear_caches()
        _block(fn(*args, **(kwargs or {})))
    except Exception as exc:
        return {"ok": False, "error": describe_exception(exc)}
    finally:
        jax.config.update("jax_debug_key_reuse", previous)
        _clear_caches()
    return {"ok": True}


def leaves_unchanged(fn, args, kwargs=None):
    """Call `fn` and report which argument leaves (NumPy arrays included) it modified in place."""
    before = [np.array(leaf, copy=True) for leaf in _tree_leaves(args)]
    try:
        _block(fn(*args, **(kwargs or {})))
    except Exception as exc:
        return {"ok": False, "error": describe_exception(exc)}
    changed = [i for i, (b, leaf) in enumerate(zip(before, _tree_leaves(args)))
               if not np.array_equal(b, np.asarray(leaf), equal_nan=True)]
    return {"ok": True, "changed": changed}


# ---------------------------------------------------------------- run time against a reference
# A program this much larger than the reference's (and at least this many equations) is an
# unrolled Python loop; XLA may need minutes to compile it, so it is reported, not timed.
UNROLLED_RATIO = 20
UNROLLED_MIN_EQNS = 2000
# A run-time sample is the fastest of this many back-to-back samples of about 25 ms each.
SAMPLE_REPEATS = 3


def _timed_sample(call, k):
    """Mean seconds per call over `k` back-to-back calls (dispatch is asynchronous: block once)."""
    start = _perf_counter()
    out = None
    for _ in range(k):
        out = call()
    _block(out)
    return (_perf_counter() - start) / k


def _compile_seconds(jitted, args):
    """Trace, lower and compile from cold caches (nothing runs)."""
    _clear_caches()
    start = _perf_counter()
    _jit_lower(jitted, *args).compile()
    return _perf_counter() - start


def timing_side(fn, args, static_argnums=(), phase="run", student=True, target_sample_s=0.025):
    """One side of a timing, prepared where `fn` runs: `fn` jitted (a student's jit is rebuilt from
    what it was built with) and traced. Returns a record ({'ok', 'summary', 'trace_s'}) and the
    side's next steps: `warm()` compiles and runs it once and picks the calls per sample (run time
    only), `sample()` returns (seconds of one sample, traces of any function meanwhile).

    A student's failure to trace is returned as {'ok': False, 'error': ...}; a reference's raises."""
    static_argnums = tuple(static_argnums)
    jitted = _fresh_jit(fn, static_argnums) if student else _jit(fn, static_argnums=static_argnums)
    start = _perf_counter()
    try:
        traced = _jit_trace(jitted, *args)
    except Exception as exc:
        if not student:
            raise
        return {"ok": False, "error": describe_exception(exc)}, {}
    record = {"ok": True, "trace_s": _perf_counter() - start, "summary": summarise_jaxpr(traced.jaxpr.jaxpr)}
    state = {"calls": 1}

    def call():
        return jitted(*args)

    def warm():
        start = _perf_counter()
        try:
            _block(call())
        except Exception as exc:
            if not student:
                raise
            return {"ok": False, "error": describe_exception(exc)}
        first = _perf_counter() - start
        state["calls"] = max(1, min(10_000, math.ceil(target_sample_s / max(_timed_sample(call, 1), 1e-7))))
        return {"ok": True, "first_call_s": first, "calls_per_sample": state["calls"]}

    def sample():
        with _counting_events("") as events:
            if phase == "compile":
                seconds = _compile_seconds(jitted, args)
            else:   # the best of a few back-to-back samples: what the program costs, less the
                    # moments another process of a busy machine held the core
                seconds = min(_timed_sample(call, state["calls"]) for _ in range(SAMPLE_REPEATS))
        return seconds, events["all_traces"]

    return record, {"warm": warm, "sample": sample}


def compare_timings(student, reference, factor, phase="run", min_rounds=3, max_rounds=11, budget_s=4.0):
    """The rounds of `time_against`, given its two sides (`timing_side` results, called here or in
    the processes where they live; the reference's record first).

    Unrolled programs are reported before anything is compiled. Then the sides are timed in
    alternating rounds (student first on even rounds, reference first on odd ones), so that a change
    of load on a shared machine hits both alike. Rounds stop once every paired ratio lies far from
    `factor` on the same side (after `min_rounds`), after `budget_s` (after 5 rounds), or at
    `max_rounds`. Returns plain data; the check takes the verdict (median paired ratio vs `factor`)."""
    sides = {"student": student, "reference": reference}
    out: dict = {"ok": True, "phase": phase, "not_timed": None,
                 "summary": {who: side[0]["summary"] for who, side in sides.items()},
                 "trace_s": {who: side[0]["trace_s"] for who, side in sides.items()}}
    if out["summary"]["student"]["eqns"] > max(UNROLLED_RATIO * out["summary"]["reference"]["eqns"],
                                              UNROLLED_MIN_EQNS):
        out["not_timed"] = "unrolled"
        return out
    if phase == "run":
        out["first_call_s"], out["calls_per_sample"] = {}, {}
        for who in ("reference", "student"):
            warmed = sides[who][1]["warm"]()
            if not warmed["ok"]:
                return warmed
            out["first_call_s"][who] = warmed["first_call_s"]
            out["calls_per_sample"][who] = warmed["calls_per_sample"]
    samples: dict = {"student": [], "reference": []}
    ratios: list = []
    traces = 0
    started = _perf_counter()
    for i in range(max_rounds):
        order = ("student", "reference") if i % 2 == 0 else ("reference", "student")
        got = {}
        for who in order:
            got[who], traced = sides[who][1]["sample"]()
            traces += traced if who == "student" else 0
        for who in order:
            samples[who].append(got[who])
        ratios.append(got["student"] / max(got["reference"], 1e-9))
        clear = len(ratios) >= min_rounds and (min(ratios) > 2 * factor or max(ratios) < factor / 2)
        if clear or (len(ratios) >= 5 and _perf_counter() - started > budget_s):
            break
    out.update(samples=samples, ratios=ratios, traces_while_timed=traces if phase == "run" else 0)
    return out


def time_against(fn, reference, args, factor, static_argnums=(), phase="run"):
    """Time of `fn` against `reference` on the same `args`, both in this process: the compiled run
    time (`phase="run"`) or the time to trace and compile (`phase="compile"`); see `compare_timings`.
    (The grader times the reference in a trusted worker of its own instead, so that no hidden
    reference ever sits beside the student's code.) Run-time caches are kept (unlike the other
    probes): a warm cache only shortens the untimed first call."""
    ref = timing_side(reference, args, static_argnums, phase, student=False)
    mine = timing_side(fn, args, static_argnums, phase)
    if not mine[0]["ok"]:
        return mine[0]
    try:
        return compare_timings(mine, ref, factor, phase)
    except Exception as exc:
        return {"ok": False, "error": describe_exception(exc)}
