"""Compiled run time or compile time of a student's function against a reference, in one process.

`timing_side` prepares one side where its function lives; `compare_timings` alternates the two
sides round by round and returns the samples (the check, `performance.py`, takes the verdict).
`time_against` does both in this process: the notebook kernel's way, and the grader's, whose
timing worker holds the student's cells and the reference (`grading/timing.py`).
"""
from __future__ import annotations

import math

from .agreement import difference, fresh_inputs
from .facts import describe_exception
from .tracing import (_block, _clear_caches, _counting_events, _fresh_jit, _jit, _jit_lower, _jit_trace,
                      _perf_counter, summarise_jaxpr)

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
    state = {"calls": 1, "out": None}

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

    return record, {"warm": warm, "sample": sample, "results": results}


def compare_timings(student, reference, factor, phase="run", min_rounds=3, max_rounds=11, budget_s=4.0):
    """The rounds of `time_against`, given its two sides (`timing_side` results, called here or in
    the processes where they live; the reference's record first).

    Unrolled programs are reported before anything is compiled. The student's timed program must
    compute what the reference computes on `args` (`differs`, `agreement.py`): what is timed is
    what is graded. Then the sides are timed in
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
