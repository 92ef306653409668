"""The performance checks: compiled run time, or compile time, against a reference.

Both are compiled and warmed up, then timed in alternating rounds in one process (`timing.py`;
under the grader, the timing worker of `grading/timing.py`); the verdict is the ratio of the two
sides' second-fastest samples against the budget (`verdict_ratio`: load only adds time, so the
fastest samples are what a program costs). The message gives both times, the ratio, the budget and the likely
cause read from the evidence. Re-exported by `check`, where test cells find them.
"""
from __future__ import annotations

from . import evidence, plausible, timing
from .agreement import TRACED_FIX
from .check import _backend, _fail, _fail_on_error, _prims_text, _static_text, gather


# Fixed text (a hidden test may show it): performance checks time the program jax.jit traced.
_TIMED_CAUSE = ("the program this check timed computes something else than the reference on the same inputs: "
                "a function that asks whether its arguments are tracers runs another program under jax.jit "
                "than the one the correctness tests graded")


def _seconds_text(t: float) -> str:
    if t >= 1.0:
        return f"{t:.2f} s"
    if t >= 1e-3:
        return f"{t * 1e3:.3g} ms"
    return f"{t * 1e6:.3g} us"


def _shape_text(v: dict) -> str:
    return f"{v['dtype']}{v['shape']} ({v['size']} elements) from `{v['primitive']}`"


_LOOPS = ("while", "scan")


def _slow_cause(result: dict) -> tuple[str, str]:
    """The likely cause of a slow program, read from the evidence (trace counts, jaxpr summaries)."""
    mine, ref = result["summary"]["student"], result["summary"]["reference"]
    if result.get("traces_while_timed"):
        return ("a retrace per call: jax.jit traced the function again "
                f"{result['traces_while_timed']} times during the timed calls (a `jax.jit` created "
                "inside the function, or an argument whose type or static value changes)",
                "jit once at top level and keep argument types fixed")
    big, ref_big = mine["largest"], ref["largest"]
    if big["size"] >= 4 * max(ref_big["size"], 1):
        return (f"an extra intermediate: {_shape_text(big)}, where the reference's largest value is "
                f"{ref_big['dtype']}{ref_big['shape']}", "rewrite the computation so that no value "
                "larger than the result is built")
    loops = sum(mine["primitives"].get(p, 0) for p in _LOOPS)
    ref_loops = sum(ref["primitives"].get(p, 0) for p in _LOOPS)
    if loops > ref_loops:
        return (f"an unfused loop: the program runs {loops} loop(s) (while/scan) where the reference "
                f"runs {ref_loops}; each iteration is a separate small step that XLA cannot fuse or "
                "vectorise", "express the work as whole-array operations (or one loop over the "
                "sequential axis only, with the other axes in its carry)")
    if mine["eqns"] >= 3 * max(ref["eqns"], 1):
        return (f"many small operations: {mine['eqns']} equations where the reference has {ref['eqns']} "
                "(a Python loop unrolled into the program)", "replace the Python loop by array operations "
                "or a single `lax` loop")
    return ("the compiled program does more work than the reference (compare the two jaxprs with "
            "`jax.make_jaxpr`)", "look for repeated or redundant work in the function")


def verdict_ratio(result: dict) -> float:
    """The ratio a performance verdict compares with the budget: the student's second-fastest sample
    over the reference's (`timing.low_ratio`), from the samples the check received."""
    return timing.low_ratio(result["samples"])


def _budget(factor) -> float:
    """A time budget for the backend the student's code runs on. The reference is timed in the same
    process on the same device, so a ratio already means the same on a CPU and a GPU; a test cell
    may still give one factor per backend ({"cpu": 3, "gpu": 5}) where one is measured to differ,
    with "default" (else the loosest) for the others."""
    if isinstance(factor, dict):
        return float(factor.get(_backend(), factor.get("default", max(factor.values()))))
    return float(factor)


def _timed_against(fn, reference, args, factor, phase, static_argnums, what, fix):
    factor = _budget(factor)
    name = getattr(fn, "__name__", "the function")
    on = f" on {what}" if what else ""
    measured = "run time" if phase == "run" else "compile time"
    title = f"{measured} of jax.jit({name}{_static_text(static_argnums, ())}){on}"
    session = getattr(fn, "__autograder_session__", None)
    if session is not None:  # the grader: both in its timing worker, away from the student's worker
        result = session.time_against(fn, reference, tuple(args), float(factor), tuple(static_argnums), phase)
    else:                    # a notebook kernel: both in this process
        result = timing.time_against(fn, reference, tuple(args), float(factor), tuple(static_argnums), phase)
    result = plausible.timing(result)
    if not result["ok"]:
        _fail_on_error(title, result["error"], category="performance", prefix="could not compile it: ")
    mine, ref = result["summary"]["student"], result["summary"]["reference"]
    if session is not None:
        _same_program_as_graded(fn, args, static_argnums, mine, title)
    if result["not_timed"] == "unrolled":
        _fail(title, f"not timed: the program has {mine['eqns']} equations, {mine['eqns'] / max(ref['eqns'], 1):.3g}x "
              f"the reference's {ref['eqns']} (tracing alone took {_seconds_text(result['trace_s']['student'])} "
              f"vs {_seconds_text(result['trace_s']['reference'])}); compiling it would take far longer than running it",
              cause="a Python loop unrolled into the program: every iteration became separate equations",
              fix=fix or "loop with `lax.fori_loop`/`lax.scan`, or vectorise over the looped axis",
              category="performance")
    if result.get("differs"):
        _fail(title, f"the program timed computes something else than the reference on these inputs: "
              f"{result['differs'].replace('eager', 'reference')}", _TIMED_CAUSE, TRACED_FIX, category="traced")
    ratio = verdict_ratio(result)
    if ratio <= factor:
        return
    t_mine, t_ref = (timing.quiet_time(result["samples"][who]) for who in ("student", "reference"))
    rounds = len(result["ratios"])
    clock = ", in CPU time" if result.get("clock") == "cpu" else ""
    if phase == "run":
        text = (f"{_seconds_text(t_mine)} per call vs the reference's {_seconds_text(t_ref)}: {ratio:.3g}x, "
                f"budget {factor:g}x (the second-fastest sample of each{clock}, timed alternately in {rounds} rounds; the "
                f"first call, compile included, took {_seconds_text(result['first_call_s']['student'])} vs "
                f"{_seconds_text(result['first_call_s']['reference'])})")
        cause, default_fix = _slow_cause(result)
    else:
        text = (f"{_seconds_text(t_mine)} to trace and compile vs the reference's {_seconds_text(t_ref)}: "
                f"{ratio:.3g}x, budget {factor:g}x (the second-fastest of {rounds} compiles of each, alternately)")
        cause, default_fix = _slow_compile_cause(mine, ref)
    _fail(title, text, cause, fix or default_fix, category="performance", static="fix")


# Fixed text (a hidden test may show it).
_ELSEWHERE_CAUSE = ("your function traces to another program in the process that times it than where the other "
                    "checks ran: what it traces depends on what ran before it (a global it sets, a cache it "
                    "keeps, whether its first call was traced)")


def _same_program_as_graded(fn, args, static_argnums, timed: dict, title: str):
    """Under the grader, the program timed (in the timing worker) must be the program the student's
    worker traces from the same function and inputs, equation for equation (`summarise_jaxpr`): a
    function can tell the timing worker apart (its first call is a trace there; a blind red team
    ran a 12-fold recomputation everywhere else and the fast program only there)."""
    here = plausible.jaxpr(gather(evidence.jaxpr_summary, fn, tuple(args), None, tuple(static_argnums), ()))
    if not here["ok"] or (here["primitives"], here["eqns"]) == (timed["primitives"], timed["eqns"]):
        return
    _fail(title, f"the program timed has {timed['eqns']} equations ({_prims_text(timed)}); traced where the "
          f"other checks ran, the same function and inputs give {here['eqns']} ({_prims_text(here)})",
          _ELSEWHERE_CAUSE, "make what the function traces depend only on its arguments", category="timed")


def _slow_compile_cause(mine: dict, ref: dict) -> tuple[str, str]:
    if mine["eqns"] >= 3 * max(ref["eqns"], 1):
        return (f"an unrolled loop: the program has {mine['eqns']} equations where the reference has "
                f"{ref['eqns']}, and XLA optimises each one separately",
                "loop with `lax.fori_loop`/`lax.scan`: the body is traced and compiled once")
    return (f"an operation that grows when compiled: the jaxpr has only {mine['eqns']} "
            f"equation{'s' if mine['eqns'] != 1 else ''} "
            f"({_prims_text(mine)}), but XLA expands one of them into many (e.g. an integer power "
            "with a huge exponent becomes one multiplication per bit)",
            "keep the repetition in a `lax` loop, whose body compiles once")


def assert_runtime_within(fn, reference, args, factor, *, static_argnums=(), what=None, fix=None):
    """Compiled run time of `fn` on `args` is at most `factor` times the `reference`'s (`factor`
    may be a dict by backend, see `_budget`).

    Both are compiled and warmed up, then timed in alternating rounds of short samples in the same
    process (where the student's code runs); the verdict is the ratio of the two sides' second-fastest
    samples, which a busy machine's load (it only adds time) leaves alone. The message states both times, the ratio, the budget
    and the likely cause (a retrace per call, an extra intermediate, an unfused loop). A program
    20 times the size of the reference's (an unrolled loop) is reported without being compiled.
    """
    _timed_against(fn, reference, args, factor, "run", static_argnums, what, fix)


def assert_compile_time_within(fn, reference, args, factor, *, static_argnums=(), what=None, fix=None):
    """Time to trace and compile `jax.jit(fn)` on `args` is at most `factor` times the reference's
    (from cold caches, compiled alternately with the reference; the second-fastest compile of each)."""
    _timed_against(fn, reference, args, factor, "compile", static_argnums, what, fix)
