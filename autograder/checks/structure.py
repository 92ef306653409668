"""The structure checks: what the traced jaxpr of a student's function holds (`check.py` re-exports them).

Each traces the function where it lives (`evidence.jaxpr_summary`), judges the summary, refuses a
program that hands work to host code (`work.refuse_host_calls`), checks that a required loop or
branch does the work (`work.py`), and once it passed runs that very trace against a direct call
(`_traced_is_graded`).
"""
from __future__ import annotations

from . import evidence, plausible, work
from .agreement import TRACED_CAUSE, TRACED_FIX
from .check import _fail, _fail_if_differs, _fail_on_error, _name, gather


def _jaxpr(fn, args, static_argnums, static_argnames, title):
    result = plausible.jaxpr(gather(evidence.jaxpr_summary, fn, tuple(args), None, tuple(static_argnums),
                                    tuple(static_argnames)))
    if not result["ok"]:
        _fail_on_error(title, result["error"], category="jaxpr", prefix="could not trace the function: ")
    work.refuse_host_calls(title, result["host_calls"])   # host code's work is in no jaxpr
    return result


def _does_work(fn, args, static_argnums, static_argnames, title, summary, primitives, n_branches, fix):
    """The required primitive matters to the result (`work.py`), in a program like the one summarised."""
    result = plausible.work(gather(evidence.required_work, fn, tuple(args), None, tuple(static_argnums),
                                   tuple(static_argnames), tuple(primitives), n_branches))
    if not result["ok"]:
        _fail_on_error(title, result["error"], category="jaxpr", prefix="could not trace the function: ")
    if result["eqns"] != summary["eqns"]:
        _fail(title, f"tracing it twice gave two programs ({summary['eqns']} and {result['eqns']} equations)",
              TRACED_CAUSE, TRACED_FIX, category="traced")
    work.require_work(title, result, primitives, fix)


def _traced_is_graded(fn, args, static_argnums, static_argnames, title, summary):
    """Once a structure check passed on `summary`: trace again, run that very trace and compare it
    with a direct call (`evidence.traced_results`). A function that gives another program when
    traced again, or whose program computes something else, fails the check."""
    result = plausible.jaxpr(gather(evidence.traced_results, fn, tuple(args), None, tuple(static_argnums),
                                    tuple(static_argnames)))
    if not result["ok"]:
        _fail_on_error(title, result["error"], category="traced", prefix="its traced program could not run: ")
    if any(result[k] != summary[k] for k in ("eqns", "primitives", "cond_branches")):
        _fail(title, f"tracing it twice gave two programs ({summary['eqns']} and {result['eqns']} equations)",
              TRACED_CAUSE, TRACED_FIX, category="traced")
    _fail_if_differs(title, result, _name(fn, None))


def _prims_text(summary):
    prims = sorted(summary["primitives"].items(), key=lambda kv: -kv[1])[:8]
    return ", ".join(f"{k}x{v}" for k, v in prims) or "no primitives"


def assert_has_primitive(fn, args, primitives, *, static_argnums=(), static_argnames=(),
                         what=None, fix=None):
    """The jaxpr of `fn` (nested jaxprs included) holds one of `primitives` (e.g. `('while', 'scan')`)."""
    if isinstance(primitives, str):
        primitives = (primitives,)
    name = _name(fn, what)
    title = f"jaxpr of {name} holds {' or '.join(primitives)}"
    summary = _jaxpr(fn, args, static_argnums, static_argnames, title)
    fix = fix or f"use the lax primitive that lowers to {primitives[0]}"
    if not any(p in summary["primitives"] for p in primitives):
        _fail(title, f"the jaxpr has {summary['eqns']} equations ({_prims_text(summary)}) and no "
              f"{'/'.join(primitives)}", fix=fix, category="jaxpr")
    _does_work(fn, args, static_argnums, static_argnames, title, summary, primitives, None, fix)
    _traced_is_graded(fn, args, static_argnums, static_argnames, title, summary)


def assert_cond_branches(fn, args, n_branches, *, static_argnums=(), static_argnames=(), what=None):
    """The jaxpr holds a `cond` with exactly `n_branches` branches (`lax.cond` is 2, `lax.switch` N)."""
    name = _name(fn, what)
    title = f"jaxpr of {name} holds a {n_branches}-branch cond"
    summary = _jaxpr(fn, args, static_argnums, static_argnames, title)
    found = summary["cond_branches"]
    fix = ("use `lax.cond(pred, true_fn, false_fn, x)`" if n_branches == 2 else
           f"use `lax.switch(index, [f0, ..., f{n_branches - 1}], x)` with {n_branches} functions")
    if n_branches not in found:
        if found:
            text = f"found cond(s) with {found} branches"
            cause = "the branches are split or merged differently from the exercise"
        elif "select_n" in summary["primitives"]:
            text = f"no cond, but select_n ({_prims_text(summary)})"
            cause = "`jnp.where`/`jnp.select` evaluates every branch and selects; it is not a cond"
        else:
            text = f"no cond in {summary['eqns']} equations ({_prims_text(summary)})"
            cause = "a Python `if` was resolved at trace time, or no branch was compiled"
        _fail(title, text, cause, fix, category="jaxpr")
    _does_work(fn, args, static_argnums, static_argnames, title, summary, ("cond",), n_branches,
               fix + ", with the predicate (or index) computed from the arguments, and return its result")
    _traced_is_graded(fn, args, static_argnums, static_argnames, title, summary)


def assert_not_unrolled(fn, small_args, large_args, *, static_argnums=(), static_argnames=(),
                        what=None, max_growth=1.5, fix=None):
    """The jaxpr does not grow with the loop count: equations at a large size <= max_growth x small.

    A Python loop unrolls into the jaxpr (10 steps -> ~20 equations, 1000 -> ~2000);
    `lax.fori_loop`/`while_loop`/`scan` keep it constant.
    """
    name = _name(fn, what)
    title = f"loop in {name} stays compiled (not unrolled)"
    small = _jaxpr(fn, small_args, static_argnums, static_argnames, title)
    large = _jaxpr(fn, large_args, static_argnums, static_argnames, title)
    if large["eqns"] > max_growth * max(small["eqns"], 1) + 2:
        _fail(title, f"the jaxpr grows from {small['eqns']} to {large['eqns']} equations between the "
              f"small and the large input", cause="a Python `for`/`while` loop is unrolled while tracing",
              fix=fix or "use `lax.fori_loop(0, n, body, init)` (or `lax.scan`) instead of a Python loop",
              category="jaxpr")
    _traced_is_graded(fn, small_args, static_argnums, static_argnames, title, small)


def assert_no_large_intermediate(fn, args, max_elements, *, static_argnums=(), static_argnames=(),
                                 what=None, fix=None):
    """No value in the jaxpr (nested included) has `max_elements` elements or more."""
    name = _name(fn, what)
    title = f"no intermediate of {max_elements} elements or more in {name}"
    summary = _jaxpr(fn, args, static_argnums, static_argnames, title)
    big = summary["largest"]
    if big["size"] >= max_elements:
        _fail(title, f"the largest value is {big['dtype']}{big['shape']} ({big['size']} elements) from "
              f"`{big['primitive']}`", cause="the computation materialises a full matrix",
              fix=fix or "restructure so that only vector-sized values are built", category="jaxpr")
    _traced_is_graded(fn, args, static_argnums, static_argnames, title, summary)
