"""Compiled run time or compile time of a student's function against a reference, in one process.

`timing_side` prepares one side where its function lives; `compare_timings` alternates the two
sides round by round and returns the samples (the check, `performance.py`, takes the verdict from
them with `low_ratio`).
`time_against` does both in this process: the notebook kernel's way, and the grader's, whose
timing worker holds the student's cells and the reference (`grading/timing.py`).
"""
from __future__ import annotations

import math
import time

from .agreement import difference, fresh_inputs
from .facts import describe_exception
from .tracing import (_block, _clear_caches, _cold_compiles, _counting_events, _fresh_jit, _jit, _jit_lower,
                      _jit_trace, _perf_counter, summarise_jaxpr)

# A program this much larger than the reference's (and at least this many equations) is an
# unrolled Python loop; XLA may need minutes to compile it, so it is reported, not timed.
UNROLLED_RATIO = 20
UNROLLED_MIN_EQNS = 2000
# A run-time sample is `calls` back-to-back calls of about SAMPLE_S together (one call at least);
# each side takes as many samples as fill ROUND_S per round (1 to MAX_REPEATS) and keeps the fastest.
# Short samples are what survive load: on a 2-core machine with a CPU burner per core, a 25 ms sample
# of a 50 us program is preempted every time (the reference of 03's `ema` measured 4x its unloaded
# cost, and a 5x slower answer measured 1.1x), while some 2 ms samples run whole (both within 5%).
SAMPLE_S = 0.002
ROUND_S = 0.05
MAX_REPEATS = 10
# A program whose call takes this long is timed in the process's CPU time instead (both sides): on
# a loaded machine no 10-100 ms call runs unpreempted, so its fastest wall-clock sample still holds
# other processes' time (08's 8 ms matmul reference read 16-63 ms under a burner per core, and a 6x
# slower answer 1.6x), while the CPU time of the same calls stayed within 20% of the unloaded time.
# Short calls keep the wall clock: their CPU time would count the threads that dispatch them; so do
# accelerators, whose work is not the host's CPU time.
LONG_CALL_S = 0.001
# Steps of a program that run code outside XLA. What such code does may happen in another process
# (a pool, a subprocess), which this process's CPU time does not count, so a student's program
# with one is timed on the wall clock: its CPU time could hide its cost (a false pass).
LEAVES_XLA = ("pure_callback", "io_callback", "debug_callback", "ffi_call")
# The verdict's evidence is settled when the ratio lies beyond this factor of the budget, either side
# (after `min_rounds`); nearer, rounds go on (to `max_rounds`, or `budget_s`).
NEAR = 1.5


def quiet_time(samples: list) -> float:
    """A side's cost under load: its second-fastest sample (its only one, when it has one).

    Load only ever adds time to a sample, so the fastest samples are what a program costs. Not the
    very fastest: XLA on a CPU may run back-to-back asynchronous calls side by side when a core
    frees up, and one such sample of 03's scan-per-column answer read 128 us where its other 20
    read 221-371 us (a 4.6x answer graded 2.7x)."""
    ordered = sorted(samples)
    return ordered[1] if len(ordered) > 1 else ordered[0]


def low_ratio(samples: dict) -> float:
    """The verdict's statistic: the student's `quiet_time` over the reference's.

    The two sides were sampled in the same alternating rounds, so each had the same chances of a
    quiet moment. (The median of paired ratios, used before, assumes a load that slows both sides
    alike; a burner on every core does not: it lengthens the sample it happens to hit.)"""
    return quiet_time(samples["student"]) / max(quiet_time(samples["reference"]), 1e-9)


def settled(samples: dict, factor: float, min_rounds: int) -> bool:
    """Enough rounds for a verdict: at least `min_rounds`, and the ratio far from the budget."""
    if len(samples["student"]) < min_rounds:
        return False
    ratio = low_ratio(samples)
    return ratio > factor * NEAR or ratio < factor / NEAR


def _timed_sample(call, k, clock=_perf_counter):
    """Mean seconds per call over `k` back-to-back calls (dispatch is asynchronous: block once)."""
    start = clock()
    out = None
    for _ in range(k):
        out = call()
    _block(out)
    return (clock() - start) / k


# What both timed programs are compiled with, whatever this process compiles other programs with: XLA's
# defaults, every optimization on. A grader's correctness worker and `nbgrader autograde`'s kernel
# compile the rest quickly (`jax_disable_most_optimizations`: sandbox/compile_effort.py, the course's
# nbgrader_config.py); a performance check times what the program costs optimized, as in a student's
# own kernel. (XLA applies these after the process's setting, so they win over it; the fusion emitters
# are XLA's default, which quick processes switch off: sandbox/compile_effort.QUICK_XLA_FLAGS.)
FULL_OPTIMIZATION = {"xla_backend_optimization_level": 3, "xla_llvm_disable_expensive_passes": False,
                     "xla_cpu_use_fusion_emitters": True}


def _on_cpu() -> bool:
    import jax
    return jax.default_backend() == "cpu"


def _compile_seconds(jitted, args):
    """Trace, lower and compile from cold caches, the persistent one included (nothing runs)."""
    _clear_caches()
    with _cold_compiles():
        start = _perf_counter()
        _jit_lower(jitted, *args).compile()
        return _perf_counter() - start


def timing_side(fn, args, static_argnums=(), phase="run", student=True, target_sample_s=SAMPLE_S):
    """One side of a timing, prepared where `fn` runs: `fn` jitted (a student's jit is rebuilt from
    what it was built with) and traced. Returns a record ({'ok', 'summary', 'trace_s'}) and the
    side's next steps: `warm()` compiles and runs it once and picks the calls per sample (run time
    only), `sample()` returns (seconds of one round's fastest sample, traces of any function meanwhile).

    A student's failure to trace is returned as {'ok': False, 'error': ...}; a reference's raises."""
    static_argnums = tuple(static_argnums)
    jitted = (_fresh_jit(fn, static_argnums, compiler_options=FULL_OPTIMIZATION) if student
              else _jit(fn, static_argnums=static_argnums, compiler_options=FULL_OPTIMIZATION))
    start = _perf_counter()
    try:
        traced = _jit_trace(jitted, *args)
    except Exception as exc:
        if not student:
            raise
        return {"ok": False, "error": describe_exception(exc)}, {}
    record = {"ok": True, "trace_s": _perf_counter() - start, "summary": summarise_jaxpr(traced.jaxpr.jaxpr)}
    state = {"calls": 1, "repeats": 1, "out": None}

    def call():
        return jitted(*args)

    def results():
        """What the timed program returns on `args` (from the warm-up call when there was one)."""
        if state["out"] is None:
            state["out"] = _block(jitted(*fresh_inputs(tuple(args))))
        return state["out"]

    def warm():
        start = _perf_counter()
        try:
            state["out"] = _block(jitted(*fresh_inputs(tuple(args))))
        except Exception as exc:
            if not student:
                raise
            return {"ok": False, "error": describe_exception(exc)}
        first = _perf_counter() - start
        one = max(min(_timed_sample(call, 1) for _ in range(3)), 1e-7)
        state["calls"] = max(1, min(10_000, math.ceil(target_sample_s / one)))
        state["repeats"] = max(1, min(MAX_REPEATS, math.ceil(ROUND_S / (one * state["calls"]))))
        return {"ok": True, "first_call_s": first, "calls_per_sample": state["calls"], "one_call_s": one}

    def sample(clock="wall"):
        with _counting_events("") as events:
            if phase == "compile":
                seconds = _compile_seconds(jitted, args)
            else:   # the best of a few short back-to-back samples: what the program costs, less
                    # the moments another process of a busy machine held the core
                timer = time.process_time if clock == "cpu" else _perf_counter
                seconds = min(_timed_sample(call, state["calls"], timer) for _ in range(state["repeats"]))
        return seconds, events["all_traces"]

    return record, {"warm": warm, "sample": sample, "results": results}


def compare_timings(student, reference, factor, phase="run", min_rounds=5, max_rounds=21, budget_s=6.0):
    """The rounds of `time_against`, given its two sides (`timing_side` results, called here or in
    the processes where they live; the reference's record first).

    Unrolled programs are reported before anything is compiled. The student's timed program must
    compute what the reference computes on `args` (`differs`, `agreement.py`): what is timed is
    what is graded. Then the sides are timed in
    alternating rounds (student first on even rounds, reference first on odd ones), so that both
    sides get the same chances of a quiet moment on a shared machine. Rounds stop once the ratio of
    the two sides' second-fastest samples (`low_ratio`) lies beyond `NEAR` of `factor`, either way (after
    `min_rounds`): a verdict near the budget gets more rounds, up to `max_rounds` or `budget_s`. Returns
    plain data; the check takes the verdict (`low_ratio` vs `factor`, from the samples)."""
    sides = {"student": student, "reference": reference}
    out: dict = {"ok": True, "phase": phase, "not_timed": None,
                 "summary": {who: side[0]["summary"] for who, side in sides.items()},
                 "trace_s": {who: side[0]["trace_s"] for who, side in sides.items()}}
    if out["summary"]["student"]["eqns"] > max(UNROLLED_RATIO * out["summary"]["reference"]["eqns"],
                                              UNROLLED_MIN_EQNS):
        out["not_timed"] = "unrolled"
        return out
    longest = 0.0
    if phase == "run":
        out["first_call_s"], out["calls_per_sample"] = {}, {}
        for who in ("reference", "student"):
            warmed = sides[who][1]["warm"]()
            if not warmed["ok"]:
                return warmed
            out["first_call_s"][who] = warmed["first_call_s"]
            out["calls_per_sample"][who] = warmed["calls_per_sample"]
            longest = max(longest, warmed.get("one_call_s", 0.0))
    samples: dict = {"student": [], "reference": []}
    ratios: list = []
    traces = 0
    # (on a GPU/TPU the work is not the host's CPU time: there the wall clock, always)
    outside = any(p in out["summary"]["student"]["primitives"] for p in LEAVES_XLA)
    out["clock"] = clock = "cpu" if longest >= LONG_CALL_S and _on_cpu() and not outside else "wall"
    started = _perf_counter()
    for i in range(max_rounds):
        order = ("student", "reference") if i % 2 == 0 else ("reference", "student")
        got = {}
        for who in order:
            got[who], traced = sides[who][1]["sample"](clock)
            traces += traced if who == "student" else 0
        for who in order:
            samples[who].append(got[who])
        ratios.append(got["student"] / max(got["reference"], 1e-9))
        if settled(samples, factor, min_rounds) or (len(ratios) >= min_rounds and _perf_counter() - started > budget_s):
            break
    out.update(samples=samples, ratios=ratios, traces_while_timed=traces if phase == "run" else 0)
    try:
        student_out = sides["student"][1]["results"]()
    except Exception as exc:
        return {"ok": False, "error": describe_exception(exc)}
    out["differs"] = difference(student_out, sides["reference"][1]["results"]())
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
