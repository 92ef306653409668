"""Probes that run next to the student's code and return plain data (never a verdict).

Under `nbgrader autograde` they run in the student's kernel; under the `autograder` CLI they run
in the sandboxed worker, and the grader decides in its own process from the data they return
(see `check.py`). Every probe that jits traces the student's function afresh (`tracing._fresh_jit`:
a new closure, so no tracing cache holds it), so a function warmed up earlier in the notebook still
shows its real traces, while the operations compiled before stay compiled; exceptions are described
with `diagnose.describe_exception`.

The JAX entry points are bound at import time, i.e. before any student code runs in the worker,
so that a student who rebinds `jax.jit` does not change what the probes call.
"""
from __future__ import annotations

import contextlib
import io

import jax
import numpy as np

from .calls import _arg_signature, _parameter_names, _retrace_change, _static_of, call_context
from . import keyuse
from .agreement import as_traced, difference, fresh_inputs, perturbed
from .plain import NotPlainData, checked
from .facts import describe_exception
from .timing import compare_timings, time_against, timing_side  # noqa: F401  (probes, by name)
from .work import required_work  # noqa: F401  (a probe, by name)
from .tracing import (_block, _clear_caches, _counting_events, _explaining_cache_misses, _fresh_jit, _fun_name,
                      _jit_source, _jit_trace, _jitted, _summarise_miss, _tree_leaves, is_jitted,  # noqa: F401
                      summarise_jaxpr)


def _eager_difference(fn, args, kwargs, traced_out, static_argnums=(), static_argnames=()) -> str | None:
    """How the results of a traced program (`traced_out`) differ from calling `fn` directly on the
    same inputs (`agreement.py`); None when they agree. The direct call gets the Python numbers of
    the traced arguments as JAX scalars, as jit does (a Python float added to a Python float is
    float64 arithmetic, which a traced program does in float32)."""
    _, nums, names = _jit_source(fn, static_argnums, static_argnames)
    args, kwargs = as_traced(tuple(args), dict(kwargs or {}), nums, names)
    try:
        eager = fn(*fresh_inputs(args), **fresh_inputs(kwargs))
        _block(eager)
    except Exception:
        return "called directly on the same inputs it raised an exception, traced it did not"
    try:
        checked(eager, "called directly, it")
    except NotPlainData as exc:
        return str(exc)
    return difference(traced_out, eager)

def _traced_agreement(fn, args, kwargs, out, run, static_argnums=(), static_argnames=()) -> str | None:
    """How a traced program's results differ from a direct call of `fn` (None when they agree), from one
    direct call: on `perturbed` inputs (`run(moved_args, moved_kwargs)` runs the traced program on
    them), or on the check's own inputs (`out`, the program's results there) where no value moved or
    the traced program could not run on the moved ones.

    One direct call, not one per set of inputs: a direct call runs op by op and is most of what the
    comparison costs (benchmarks/README.md, issue 36). The moved inputs are the ones to use: a check's
    own inputs are often degenerate (all ones), and agree by chance with a program that computes
    something else; and a traced program is one program for every value of its inputs' shapes, so
    one that computes something else only on the check's own values must test for them at run time,
    and still holds the computation the checks read from its trace."""
    _, nums, names = _jit_source(fn, static_argnums, static_argnames)
    kwargs = dict(kwargs or {})
    moved_args, moved_kwargs = perturbed(tuple(args), kwargs, nums, names)
    if any(a is not b for a, b in zip(_tree_leaves((tuple(args), kwargs)), _tree_leaves((moved_args, moved_kwargs)))):
        try:
            moved = _block(run(moved_args, moved_kwargs))
        except Exception:
            moved = None
        if moved is not None:
            found = _eager_difference(fn, moved_args, moved_kwargs, moved, static_argnums, static_argnames)
            return f"on inputs of the same shapes with other values, {found}" if found else None
    return _eager_difference(fn, args, kwargs, out, static_argnums, static_argnames)


# ---------------------------------------------------------------- probes
def run_jit(fn, args, kwargs=None, static_argnums=(), static_argnames=(), transform=None):
    """Trace and run `jax.jit(fn)` once, or `jax.jit(transform(fn))` (e.g. `transform=jax.grad`).
    Returns {'ok': True, 'differs': None or how the jitted results differ from a direct call's}
    or {'ok': False, 'error': ...}."""
    try:
        target = fn if transform is None else transform(fn)
        jitted = _fresh_jit(target, static_argnums, static_argnames)
        out = jitted(*fresh_inputs(tuple(args)), **fresh_inputs(dict(kwargs or {})))
        _block(out)
    except Exception as exc:  # the student's mistake, described for the verdict
        return {"ok": False, "error": describe_exception(
            exc, call_context(fn, args, kwargs, static_argnums, static_argnames))}
    differs = _traced_agreement(target, args, kwargs, out, lambda a, k: jitted(*a, **k),
                                static_argnums, static_argnames)
    return {"ok": True, "differs": differs}


def count_traces(fn, calls, static_argnums=(), static_argnames=()):
    """Trace and compile counts of one `jax.jit(fn)` over `calls` (a list of argument tuples).

    A student function that is already jitted is counted with the static args it was built with
    (its own static_argnums count). Traces are counted by wrapping the function (`_fresh_jit`).
    Explanations are JAX's own cache-miss reasons, one per retrace; `change` names the
    argument whose type, shape, structure or static value changed before the first retrace.
    """
    traces = []
    jitted = _fresh_jit(fn, static_argnums, static_argnames, on_trace=lambda: traces.append(1))
    traced_at, outs = [], []
    with _explaining_cache_misses() as misses, _counting_events(_fun_name(fn)) as events:
        try:
            for i, call in enumerate(calls):
                before = len(traces)
                outs.append(_block(jitted(*fresh_inputs(tuple(call)))))
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
    counts = {"traces": len(traces), "compiles": events["compiles"]}
    # After counting (a student jit's own traces, and any the comparison makes, are not counted): one
    # direct call per traced program, `_traced_agreement` on the last call that ran it (the one after
    # the most calls, where state read between calls has moved furthest).
    differs = None
    for end in [*traced_at[1:], len(calls)]:
        i = end - 1
        found = _traced_agreement(fn, calls[i], None, outs[i], lambda a, k: jitted(*a, **k),
                                  static_argnums, static_argnames)
        if found:
            differs = f"on call {i + 1} of {len(calls)}: {found}"
            break
    return {"ok": True, **counts, "calls": len(calls), "explanations": [_summarise_miss(m) for m in misses[1:]],
            "change": change, "differs": differs}


def jaxpr_summary(fn, args, kwargs=None, static_argnums=(), static_argnames=()):
    """Trace `fn` (honouring static args) and summarise its jaxpr."""
    try:
        traced = _jit_trace(_fresh_jit(fn, static_argnums, static_argnames), *args, **(kwargs or {}))
    except Exception as exc:
        return {"ok": False, "error": describe_exception(exc)}
    return {"ok": True, **summarise_jaxpr(traced.jaxpr.jaxpr)}


def traced_results(fn, args, kwargs=None, static_argnums=(), static_argnames=()):
    """Trace `fn` once, summarise that jaxpr, then compile and run that very trace and compare its
    results with a direct call's (`agreement.py`): the structure checks' second step, asked for
    only once the structure passed (an unrolled program is never compiled here)."""
    kwargs = dict(kwargs or {})
    try:
        _, nums, names = _jit_source(fn, static_argnums, static_argnames)
        nums = {n % len(args) for n in nums} if args else set()
        traced = _jit_trace(_fresh_jit(fn, static_argnums, static_argnames), *args, **kwargs)
        summary = summarise_jaxpr(traced.jaxpr.jaxpr)
        dynamic = [a for i, a in enumerate(args) if i not in nums]
        compiled = traced.lower().compile()
        out = _block(compiled(*fresh_inputs(tuple(dynamic)),
                              **fresh_inputs({k: v for k, v in kwargs.items() if k not in names})))
    except Exception as exc:
        return {"ok": False, "error": describe_exception(exc)}
    differs = _traced_agreement(fn, args, kwargs, out,
                                lambda a, k: compiled(*[v for i, v in enumerate(a) if i not in nums],
                                                      **{n: v for n, v in k.items() if n not in names}),
                                static_argnums, static_argnames)
    return {"ok": True, **summary, "differs": differs}


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


def key_use(fn, args, kwargs=None):
    """Call `fn` once, eagerly, recording the key data every random operation consumes
    (`keyuse.observe`: the evidence behind the key-reuse verdict)."""
    return keyuse.observe(fn, args, kwargs, describe_exception)


def call_with_key_reuse_checks(fn, args, kwargs=None):
    """Call `fn` eagerly with JAX's key-reuse checker on (the fallback where `key_use` could not
    watch every draw)."""
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


