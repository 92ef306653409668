"""Evidence from the student's process is data to check, not a verdict to trust.

Under the `autograder` CLI the probes of `evidence.py` run in the sandboxed worker, next to the
student's code, so what they return could have been altered by that code. Before a check reads it,
each result is checked here for the form and the arithmetic it must have: types, counts that add
up, a first jit call that traced at least once, timing ratios recomputed from the samples. An
implausible result fails the check with an `evidence` failure (it can never pass one).

This cannot catch a forgery that is consistent (docs/SECURITY.md says what a student could
still forge and what it would gain); it catches the cheap ones, e.g. a trace count of zero.
"""
from __future__ import annotations

import math

from .failure import CheckFailure, message


def _implausible(reason: str):
    raise CheckFailure(message(
        "the measurements taken next to your code", f"they are implausible: {reason}",
        "code in your notebook changed the grader's probes, counters or JAX's internals while they ran",
        "leave the grader's and JAX's internals alone"), category="evidence",
        hidden_cause="code in your notebook changed the grader's measurements while they ran")


def _is_int(v, low=0) -> bool:
    return type(v) is int and v >= low


def _is_seconds(v) -> bool:
    return type(v) in (int, float) and math.isfinite(v) and v >= 0


def _outcome(result) -> dict:
    """{'ok': True, ...} or {'ok': False, 'error': {'type': str, 'message': str, ...}}."""
    if type(result) is not dict or type(result.get("ok")) is not bool:
        _implausible("the probe's result is not a verdict-shaped record")
    if not result["ok"]:
        error = result.get("error")
        if type(error) is not dict or type(error.get("type")) is not str or type(error.get("message", "")) is not str:
            _implausible("an error without a type and a message")
    elif result.get("differs") is not None and type(result["differs"]) is not str:
        _implausible("a comparison of traced and direct results that is not text")
    return result


def verdict(result) -> dict:
    """A probe that answers ok or not (run_jit, key reuse, captured output, inputs unchanged)."""
    result = _outcome(result)
    if result["ok"] and "stdout" in result and type(result["stdout"]) is not str:
        _implausible("captured output that is not text")
    if result["ok"] and "changed" in result and not (
            type(result["changed"]) is list and all(_is_int(i) for i in result["changed"])):
        _implausible("changed inputs that are not argument positions")
    return result


def key_use(result) -> dict:
    """keyuse.observe: counts, where-texts and the state of its own hooks."""
    result = _outcome(result)
    if not result["ok"]:
        return result
    reuse = result.get("reuse")
    if not (_is_int(result.get("consumed")) and type(result.get("intact")) is bool
            and type(result.get("unobserved")) is list and all(type(p) is str for p in result["unobserved"])):
        _implausible("a key-use record without its counts")
    if reuse is not None and not (type(reuse) is dict and result["consumed"] >= 2
                                  and all(type(reuse.get(k)) is str for k in ("first", "again"))
                                  and type(reuse.get("split_then_drawn")) is bool):
        _implausible("a reused key that was not consumed twice")
    if not result["intact"]:
        _implausible("the watch on JAX's random primitives was removed while your function ran")
    return result


def traces(result, calls: int) -> dict:
    """count_traces: a first call after clearing JAX's caches traces at least once."""
    result = _outcome(result)
    if not (_is_int(result.get("traces")) and _is_int(result.get("compiles"))):
        _implausible("trace or compile counts that are not counts")
    if not result["ok"]:
        if not (_is_int(result.get("call")) and result["call"] < calls):
            _implausible("a failing call that is not one of the calls made")
        return result
    if result["traces"] < 1:
        _implausible(f"{result['traces']} traces over {calls} calls of a fresh jit (at least 1)")
    if not (type(result.get("explanations", [])) is list
            and all(type(e) is str for e in result.get("explanations", []))):
        _implausible("retrace explanations that are not text")
    if result.get("change") is not None and type(result["change"]) is not dict:
        _implausible("a retrace cause that is not a record")
    return result


def jaxpr(result) -> dict:
    """jaxpr_summary: primitive counts add up to the equations; cond branches match the conds."""
    result = _outcome(result)
    if result["ok"]:
        _summary(result)
    return result


def _summary(summary: dict):
    prims = summary.get("primitives")
    if not (type(prims) is dict and all(type(k) is str and _is_int(v, 1) for k, v in prims.items())):
        _implausible("primitive counts that are not counts")
    if not (_is_int(summary.get("eqns")) and summary["eqns"] == sum(prims.values())):
        _implausible("an equation count that is not the sum of the primitive counts")
    branches = summary.get("cond_branches")
    if not (type(branches) is list and all(_is_int(b, 1) for b in branches) and len(branches) == prims.get("cond", 0)):
        _implausible("cond branch counts that do not match the conds of the program")
    calls = summary.get("host_calls", [])
    if not (type(calls) is list and all(type(c) is str for c in calls)):
        _implausible("host calls that are not primitive names")
    largest = summary.get("largest")
    if not (type(largest) is dict and _is_int(largest.get("size")) and type(largest.get("shape")) is list
            and all(_is_int(d) for d in largest["shape"])
            and largest["size"] == (math.prod(largest["shape"]) if largest["shape"] else (1 if largest["size"] else 0))):
        _implausible("a largest value whose size is not the product of its shape")


def work(result) -> dict:
    """required_work: an equation count, host calls, and for each occurrence whether it mattered."""
    result = _outcome(result)
    if not result["ok"]:
        return result
    occurrences, calls = result.get("occurrences"), result.get("host_calls")
    if not (_is_int(result.get("eqns")) and type(calls) is list and all(type(c) is str for c in calls)
            and type(occurrences) is list and all(
                type(o) is dict and type(o.get("primitive")) is str and type(o.get("matters")) is bool
                and type(o.get("index_from_inputs")) is bool for o in occurrences)):
        _implausible("a record of the required primitive's work without its counts and verdicts")
    return result


def timing(result) -> dict:
    """time_against: sample lists of equal length; the ratios are recomputed from the samples."""
    result = _outcome(result)
    if not result["ok"]:
        return result
    summary = result.get("summary")
    if not (type(summary) is dict and set(summary) >= {"student", "reference"}):
        _implausible("no program summaries")
    for who in ("student", "reference"):
        _summary(summary[who])
    if result.get("not_timed") not in (None, "unrolled"):
        _implausible("an unknown reason for not timing")
    if result["not_timed"]:
        return result
    samples = result.get("samples")
    if not (type(samples) is dict and all(type(samples.get(w)) is list for w in ("student", "reference"))):
        _implausible("no timing samples")
    mine, ref = samples["student"], samples["reference"]
    if not (mine and len(mine) == len(ref) and all(_is_seconds(t) and t > 0 for t in mine + ref)):
        _implausible("timing samples that are not paired positive durations")
    for key in ("first_call_s", "trace_s"):
        if key in result and not all(_is_seconds(v) for v in result[key].values()):
            _implausible(f"{key} that are not durations")
    if not _is_int(result.get("traces_while_timed", 0)):
        _implausible("a trace count while timing that is not a count")
    if "differs" not in result:
        _implausible("no comparison of the timed program's results with the reference's")
    result["ratios"] = [s / max(r, 1e-9) for s, r in zip(mine, ref)]
    return result
