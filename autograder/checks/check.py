"""The checks that test cells call: `from autograder import check`.

Each check is `assert_<subject>[_<predicate>]` and fails with a `CheckFailure` (an
`AssertionError`) whose message has one shape:

    [check] <what was checked> failed: <evidence>
      cause: <the likely cause, from the evidence>
      fix: <what to change, in the student's terms>

Evidence about a student function (does it jit, how often does it trace, what does its jaxpr
hold) is gathered by a probe from `evidence.py` *where the function lives*: in the notebook's own
kernel under nbgrader, in the sandboxed worker under the `autograder` CLI, where the function is a
`grading.session.RemoteObject`. The verdict is always taken here, on plain data that
`plausible.py` checks first (the worker runs the student's code, so its evidence is only data).
"""
from __future__ import annotations

import os

import numpy as np
import jax
from jax import tree_util

from . import evidence, plausible
from .agreement import TRACED_CAUSE, TRACED_FIX
from .failure import CheckFailure, message
from .diagnose import error_heading, explain, explain_retrace, explain_static, shorten, type_name, where_text

__all__ = [
    "assert_close", "assert_equal", "assert_raises", "assert_jittable", "assert_max_traces",
    "assert_has_primitive", "assert_cond_branches", "assert_not_unrolled",
    "assert_no_large_intermediate", "assert_prints", "assert_no_key_reuse",
    "assert_inputs_unchanged", "assert_runtime_within", "assert_compile_time_within",
    "gather", "fail",
]

# Set by the CLI to the backend the student's code runs on; tolerances loosen off-CPU where
# matmuls default to TF32/bf16.
ACTUAL_BACKEND: str | None = None
# Set in the grader's environment by `autograder selftest --tolerance-of B` (so that grader processes it
# starts see it too): compare with backend B's tolerances wherever the code ran, to see which
# known-wrong answers a lab's looser tolerance would let through.
TOLERANCE_OF_VARIABLE = "AUTOGRADER_TOLERANCE_OF"


def _backend() -> str:
    return ACTUAL_BACKEND or jax.default_backend()


def _tolerance_backend() -> str:
    return os.environ.get(TOLERANCE_OF_VARIABLE) or _backend()


def _fail(title: str, evidence_text: str, cause: str | None = None, fix: str | None = None, *,
          category: str, static: bool | str = True, hidden_fix: str | None = None):
    """Raise a CheckFailure. `static` says which of `cause` and `fix` are fixed texts (of the grader
    or the test author) that a hidden test may show: True (both), "fix" (the fix only) or False
    (neither: they quote what the student's code did, or the expected value). `hidden_fix`: the
    fixed text a hidden test shows in place of a fix that names the expected value."""
    raise CheckFailure(message(title, evidence_text, cause, fix), category=category,
                       hidden_cause=cause if static is True else None,
                       hidden_fix=hidden_fix or (fix if static in (True, "fix") else None))


def _fail_on_error(title: str, desc: dict, *, category: str, prefix: str = ""):
    """Raise a CheckFailure for an exception the student's code raised (described by `desc`)."""
    cause, fix = explain(desc)
    hidden_cause, hidden_fix = explain_static(desc) or (None, None)
    raise CheckFailure(message(title, prefix + error_heading(desc), cause, fix), category=category, hidden_cause=hidden_cause, hidden_fix=hidden_fix)


def _fail_if_differs(title: str, result: dict, name: str):
    """Fail when a probe found the traced program's results differ from a direct call's."""
    if result.get("differs"):
        _fail(title, f"the program jax.jit traced gives other results than calling {name} directly: "
              f"{result['differs']}", TRACED_CAUSE, TRACED_FIX, category="traced")


def fail(title: str, evidence_text: str, cause: str | None = None, fix: str | None = None):
    """Raise the standard failure from a test cell's own check (e.g. on data from `gather`).

    `cause` and `fix` are shown even when the failure comes from a hidden test (the evidence is
    not): write them as fixed text, never with values the student's code returned."""
    _fail(title, evidence_text, cause, fix, category="check")


def gather(probe, fn, *args, **kwargs):
    """Run `probe(fn, *args, **kwargs)` where `fn` lives and return its plain-data result."""
    session = getattr(fn, "__autograder_session__", None)
    if session is not None:
        return session.run_probe(probe, fn, args, kwargs)
    return probe(fn, *args, **kwargs)


def _name(fn, what):
    return what or getattr(fn, "__name__", "the function")


# ---------------------------------------------------------------- values
_ARRAY_TYPES = (np.ndarray, jax.Array)


def _describe(leaf) -> str:
    if isinstance(leaf, _ARRAY_TYPES):
        return f"{leaf.dtype}{list(leaf.shape)} array"
    return type(leaf).__name__


# (rtol, atol) for float32 results by the backend the student's code ran on, compared with references
# computed on the grader's CPU. By default GPUs multiply float32 matrices in TF32 (10 mantissa bits)
# and TPUs in one bfloat16 pass (7): a sum of 32 to 256 products of O(1) numbers is then off by up to
# ~1e-2 (TF32) or ~5e-2 (bf16, 32 terms). docs/LABS.md, "Tolerances per backend", has the measurements;
# an unknown backend gets the loosest row.
FLOAT32_TOLERANCE = {"cpu": (1e-5, 1e-6), "gpu": (1e-2, 1e-2), "tpu": (5e-2, 5e-2)}


def _default_tolerance(dtype) -> tuple[float, float]:
    if not np.issubdtype(dtype, np.inexact):
        return 0.0, 0.0
    if np.dtype(dtype).itemsize >= 8:
        return 1e-7, 1e-9
    return FLOAT32_TOLERANCE.get(_tolerance_backend(), FLOAT32_TOLERANCE["tpu"])


def _tolerance(dtype, rtol, atol, on_every_backend: bool = False) -> tuple[float, float]:
    """A test cell's rtol/atol (None: the default) hold on the CPU; off the CPU no float comparison
    is tighter than the backend's row above, so a cell written on a laptop holds on a lab's GPU.
    `on_every_backend`: the cell's own rtol/atol hold everywhere, for values that no backend rounds
    differently (an exact zero from zeros; a result rounded to bfloat16, whose tolerance the cell
    counts in bfloat16 steps): there a backend's row would let through what the cell is there to
    catch (08's bfloat16 log-sum-exp with an intermediate rounded to bfloat16 is 2**-5 off near 0,
    under TPU's 5e-2)."""
    d_rtol, d_atol = _default_tolerance(dtype)
    rtol = d_rtol if rtol is None else rtol
    atol = d_atol if atol is None else atol
    if _tolerance_backend() != "cpu" and not on_every_backend:
        rtol, atol = max(rtol, d_rtol), max(atol, d_atol)
    return rtol, atol


def _compare_leaf(path, actual, expected, what, rtol, atol, on_every_backend=False):
    label = f"{what}{path}"
    exp = np.asarray(expected)
    if isinstance(actual, (bool, int, float, complex, np.generic)) and not isinstance(actual, _ARRAY_TYPES):
        act = np.asarray(actual)
        if act.dtype.kind != exp.dtype.kind and not (act.dtype.kind in "iu" and exp.dtype.kind in "iu"):
            _fail(f"value of {label}", f"got a Python {type(actual).__name__} ({actual!r}) but expected "
                  f"{exp.dtype} values", fix="return a jnp array of the expected dtype", category="type")
    elif isinstance(actual, _ARRAY_TYPES):
        act = np.asarray(actual)
    else:
        _fail(f"type of {label}", f"got {type(actual).__name__}, expected {_describe(expected)}",
              fix="return a jax array (jnp functions return one)", category="type")
    if act.shape != exp.shape:
        _fail(f"shape of {label}", f"got shape {act.shape}, expected {exp.shape}",
              cause=("the axes look transposed" if sorted(act.shape) == sorted(exp.shape)
                     and len(act.shape) > 1 else None),
              fix="check the output shape the exercise asks for", category="shape")
    if isinstance(actual, _ARRAY_TYPES) and act.dtype != exp.dtype:
        _fail(f"dtype of {label}", f"got {act.dtype}, expected {exp.dtype}",
              fix=f"cast with `.astype(jnp.{exp.dtype})` or keep the input dtype", category="dtype",
              static=False, hidden_fix="return the dtype the exercise asks for (often the input's dtype)")
    rtol, atol = _tolerance(exp.dtype, rtol, atol, on_every_backend)
    if exp.dtype.kind in "fc":
        ok = np.isclose(act, exp, rtol=rtol, atol=atol, equal_nan=True)
    else:
        ok = act == exp
    ok = np.asarray(ok)
    if not ok.all():
        bad = np.argwhere(~ok) if ok.ndim else np.zeros((1, 0), dtype=int)
        first = tuple(int(i) for i in bad[0])
        a_val, e_val = act[first].item(), exp[first].item()  # plain numbers read better
        text = (f"mismatched elements: {int((~ok).sum())} / {ok.size}; at index {list(first)}: "
                f"{a_val!r} (actual), {e_val!r} (expected)")
        if exp.dtype.kind in "fc":
            with np.errstate(divide="ignore", invalid="ignore"):
                diff = np.abs(act.astype(np.float64) - exp.astype(np.float64))
                rel = diff / np.abs(exp.astype(np.float64))
            text += (f"; max abs diff {_worst(diff[~ok]):.3g}, max rel diff {_worst(rel[~ok]):.3g}"
                     f" (rtol={rtol:g}, atol={atol:g})")
        if act.size <= 12:
            text += f"\n  actual:   {np.array2string(act, precision=5)}\n  expected: {np.array2string(exp, precision=5)}"
        _fail(f"values of {label}", text, category="values")


def _worst(differences: np.ndarray) -> float:
    """Largest difference among the mismatched elements, a NaN counting as inf (np.nanmax would
    warn about an all-NaN slice, and the notebook would show that warning next to the message)."""
    return float(np.where(np.isnan(differences), np.inf, differences).max())


def assert_close(actual, expected, *, what="result", rtol=None, atol=None, on_every_backend=False):
    """`actual` matches `expected`: pytree structure, then shape, then dtype, then values.

    Tolerances default by dtype and backend (exact for ints and bools); off the CPU they are
    raised to the backend's row unless `on_every_backend` (see `_tolerance`). A leaf path in the
    message names where the trees differ, e.g. `params[0]['W']`.
    """
    exp_paths, exp_def = tree_util.tree_flatten_with_path(expected)
    act_leaves, act_def = tree_util.tree_flatten(actual)
    if act_def != exp_def:
        _fail(f"structure of {what}", f"got {act_def}, expected {exp_def}",
              fix="return the same containers (tuple/list/dict keys) as the exercise describes",
              category="structure")
    for (path, exp_leaf), act_leaf in zip(exp_paths, act_leaves):
        _compare_leaf(tree_util.keystr(path), act_leaf, exp_leaf, what, rtol, atol, on_every_backend)


def assert_equal(actual, expected, *, what="result", on_every_backend=False):
    """Exact equality (structure, shape, dtype, values); floats off the CPU: see `_tolerance`."""
    assert_close(actual, expected, what=what, rtol=0.0, atol=0.0, on_every_backend=on_every_backend)


def assert_raises(exc_type, fn, *args, what=None, **kwargs):
    """Calling `fn(*args, **kwargs)` raises `exc_type` (e.g. the ValueError an exercise specifies)."""
    try:
        fn(*args, **kwargs)
    except exc_type:
        return
    except Exception as exc:
        desc = getattr(exc, "desc", None)  # an exception raised in the worker, rebuilt here
        raised = type_name(desc) if desc else type(exc).__name__
        text = desc["message"] if desc else str(exc)
        _fail(f"{_name(fn, what)} raises {exc_type.__name__}",
              f"it raised {raised}: {shorten(text, 200)}" if text.strip() else f"it raised {raised}",
              fix=f"raise {exc_type.__name__} with a message for this input", category="raises")
    _fail(f"{_name(fn, what)} raises {exc_type.__name__}", "it returned normally",
          fix=f"check the input and `raise {exc_type.__name__}(...)` as the exercise describes",
          category="raises")


# ---------------------------------------------------------------- jit
def _static_text(static_argnums, static_argnames):
    parts = []
    if static_argnums:
        parts.append(f"static_argnums={tuple(static_argnums)}")
    if static_argnames:
        parts.append(f"static_argnames={tuple(static_argnames)}")
    return (", " + ", ".join(parts)) if parts else ""


def assert_jittable(fn, *args, static_argnums=(), static_argnames=(), what=None, transform=None, **kwargs):
    """`jax.jit(fn)` traces and runs on `args` (the student's own jit if `fn` is already jitted).

    With `transform` (e.g. `jax.grad`), `jax.jit(transform(fn))` instead, built where `fn` lives;
    `what` then names the transformed function (e.g. `"jax.grad(safe_norm)"`)."""
    name = getattr(fn, "__name__", "the function")
    if transform is not None:
        name, what = what or f"{getattr(transform, '__name__', 'transform')}({name})", None
    result = plausible.verdict(gather(evidence.run_jit, fn, args, kwargs, tuple(static_argnums),
                                      tuple(static_argnames), transform))
    on = f" on {what}" if what and what != name else ""
    title = f"jax.jit({name}{_static_text(static_argnums, static_argnames)}){on}"
    if not result["ok"]:
        _fail_on_error(title, result["error"], category="jit")
    _fail_if_differs(title, result, name)


def assert_max_traces(fn, calls, *, max_traces=1, static_argnums=(), static_argnames=(), what=None):
    """Over `calls` (argument tuples), `jax.jit(fn)` traces at most `max_traces` times.

    The message quotes JAX's own reason for each retrace (shape, dtype, weak type, static value,
    pytree structure).
    """
    name = getattr(fn, "__name__", "the function")
    calls = [tuple(c) for c in calls]
    result = plausible.traces(gather(evidence.count_traces, fn, calls, tuple(static_argnums),
                                     tuple(static_argnames)), len(calls))
    title = f"retrace check of jax.jit({name}{_static_text(static_argnums, static_argnames)})"
    if what and what != name:
        title += f" over {what}"
    if not result["ok"]:
        _fail_on_error(title, result["error"], category="retrace",
                       prefix=f"on call {result['call'] + 1} of {len(calls)}: ")
    if result["traces"] > max_traces:
        reasons = result.get("explanations") or []
        text = (f"{result['traces']} traces ({result['compiles']} compiles) over {len(calls)} calls, "
                f"at most {max_traces} allowed")
        if reasons:
            text += "\n  JAX's reason for the first retrace: " + reasons[0]
        change = result.get("change")
        if change:
            text += (f"\n  what changed: `{change['arg']}` on call {change['call'] + 1}: {change['before']} "
                     f"(call {change['compared_with'] + 1}), now {change['now']}")
        cause, fix = explain_retrace(change, reasons)
        _fail(title, text, cause, fix, category="retrace", static=False)
    _fail_if_differs(title, result, name)


# ---------------------------------------------------------------- effects
def assert_prints(fn, calls, *, expected_lines, pattern=None, jit=True, static_argnums=(), what=None):
    """`fn` (jitted by default) prints `expected_lines` lines over `calls`, each matching `pattern`;
    returns the lines (a test cell may compare them, e.g. with what the same calls print unjitted)."""
    import re
    name = getattr(fn, "__name__", "the function")
    result = plausible.verdict(gather(evidence.captured_stdout, fn, [tuple(c) for c in calls], jit,
                                      tuple(static_argnums)))
    title = f"output of {'jax.jit(' + name + ')' if jit else name} over {len(calls)} calls"
    if what and what != name:
        title += f" ({what})"
    if not result["ok"]:
        _fail_on_error(title, result["error"], category="output")
    lines = [ln for ln in result["stdout"].splitlines() if ln.strip()]
    if len(lines) != expected_lines:
        cause = ("Python `print` runs once, at trace time; compiled calls skip it"
                 if jit and 0 < len(lines) < expected_lines else None)
        _fail(title, f"{len(lines)} line(s) printed, expected {expected_lines}: {lines[:6]}", cause,
              "print with `jax.debug.print('mean={m}', m=value)`, which runs on every call",
              category="output")
    if pattern:
        for ln in lines:
            if not re.fullmatch(pattern, ln.strip()):
                _fail(title, f"line {ln!r} does not match {pattern!r}", fix="print exactly the format asked for",
                      category="output")
    return lines


def assert_no_key_reuse(fn, *args, what=None, consumes=None, **kwargs):
    """Calling `fn` consumes no PRNG key twice (two draws, or a split and a draw, from one key), and,
    with `consumes`, exactly that many keys in all: each key split off used once, nothing drawn
    without a key (a function that draws nothing reuses nothing, and must not pass for using its keys).

    Judged from the key data each random operation consumed (`keyuse`), with typed or raw keys;
    JAX's own checker decides only where a draw ran out of sight (inside a compiled loop, where
    consumptions are not counted either)."""
    name = _name(fn, what)
    title = f"PRNG key use in {name}"
    result = plausible.key_use(gather(evidence.key_use, fn, args, kwargs))
    if not result["ok"]:
        _fail_on_error(title, result["error"], category="keys")
    if result["unobserved"]:
        fallback = plausible.verdict(gather(evidence.call_with_key_reuse_checks, fn, args, kwargs))
        if not fallback["ok"]:
            cause, fix = explain(fallback["error"])
            static = explain_static(fallback["error"])
            _fail(title, f"{type_name(fallback['error'])}{where_text(fallback['error'])}: "
                  f"{shorten(fallback['error']['message'], 300)} (JAX's key-reuse checker: a random "
                  f"operation ran inside a compiled {', '.join(result['unobserved'])})", cause, fix,
                  category="keys", static=static == (cause, fix))
    reuse = result["reuse"]
    if reuse is not None:
        cause = ("a key that was split was also drawn from, so the draw repeats randomness its subkeys "
                 "give out" if reuse["split_then_drawn"] else
                 "one key fed two random operations, so their 'independent' draws come from the same random bits")
        _fail(title, f"the same key was consumed twice: by {reuse['first']}, then by {reuse['again']}",
              cause, "split once, `key, subkey = jax.random.split(key)` (or `jax.random.split(key, n)`), "
              "and give each key to exactly one random function", category="keys")
    if consumes is not None and not result["unobserved"] and result["consumed"] != consumes:
        _fail(title, f"its splits and draws consumed {result['consumed']} key(s) where this call should consume "
              f"{consumes} (a split or a draw consumes the key it is given; each key of a vmap counts)",
              "a key split off but never given to a random function, or values made without drawing from "
              "a key, leave the draws off the stated convention",
              "give each key you split off to exactly one random function (a key you hand back for "
              "later stays unused), and draw every random value from one of them", category="keys")


def assert_inputs_unchanged(fn, *args, what=None, **kwargs):
    """Calling `fn` leaves every argument (NumPy arrays included) as it was."""
    name = _name(fn, what)
    result = plausible.verdict(gather(evidence.leaves_unchanged, fn, args, kwargs))
    if not result["ok"]:
        _fail_on_error(f"{name} leaves its inputs unchanged", result["error"], category="inputs")
    if result["changed"]:
        _fail(f"{name} leaves its inputs unchanged", f"argument leaves {result['changed']} were modified in place",
              fix="build a new array with `x.at[idx].set(v)` (or `jnp.asarray(x)` first) instead of writing into x",
              category="inputs")


# The structure checks live in structure.py and the performance checks in performance.py (they use
# `gather`, `_fail` and `_static_text` above).
from .structure import (_prims_text, assert_cond_branches, assert_has_primitive,  # noqa: E402,F401
                        assert_no_large_intermediate, assert_not_unrolled)
from .performance import assert_compile_time_within, assert_runtime_within  # noqa: E402,F401

# In a notebook kernel, the cells' JAX errors get their cause and fix under the traceback.
from .kernel_hook import install as _install_kernel_hook  # noqa: E402
_install_kernel_hook()
