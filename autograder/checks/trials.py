"""Candidate fixes, tried on the student's own values before a message tells them (issue 38).

A rule reads JAX's message and the student's line; it cannot know whether its fix works for this
student's code. JAX can, on shapes and dtypes alone: `jax.eval_shape` traces a function on abstract
values without computing anything. So where the failing line writes the call out
(`jax.vmap(f, in_axes=...)(a, b)`, `lax.scan(body, init, xs)`, `a - b`, `jax.grad(M.loss)(m, x)`),
a planner (`trial_plans.py`; `trial_rewrites.py` for fixes that rewrite the line's call: a list
wrapped in `jnp.asarray`, a sampler's `shape`, a `lax.cond` made a Python `if`) lists candidate fixes
of that call as text a message can quote, and a
forked child of the process where the exception happened rebuilds each candidate from the student's
own values (the failing frame's names) and reports which ones trace. The rule then says which fix
traced ("this traces: ..."), or, where none could be tried, offers its fix as a possibility only.

What a trial guarantees, whatever the student's code does:
- **The student's state does not change.** Candidates are traced in a forked child that exits when
  done (`os._exit`): what the student's function does to Python objects while it is traced happens
  to the child's copies. Before the first trace the child closes every inherited file descriptor
  but its result pipe (it cannot write to the grader's channel or the kernel's streams) and points
  stdin, stdout and stderr at /dev/null: nothing prints.
- **Nothing is computed for real.** The line's expressions are evaluated in the child only, inside
  the trace of `jax.eval_shape` (their calls are traced on abstract values; an assignment,
  `yield` or `await` is never evaluated: `trial_plans.evaluable`), and the candidates are traced by
  `jax.eval_shape` (or `.trace` for jit); a `lax.cond` predicate is evaluated with its arrays
  abstract, to see whether it is decided while tracing.
- **A time budget.** The parent waits `BUDGET_S` seconds at most, takes the candidates reported
  by then, and kills the child: an explained error waits that much more at worst, and a cell that
  succeeds pays nothing (a trial runs only after a rule that has one matched the exception). Where
  the rule's fix did not trace, the rewrites by the error's kind (`attempt_kinds`, `trial_kinds.py`)
  are tried in a second child within what is left of the same budget.
- **The child's word is only which candidates traced.** Its reply is read line by line as
  `index+` or `index-`, each index checked against the parent's own list; every text of the
  message is the parent's (the student's source, JAX's message), so a forged reply can at most
  pick among the parent's candidates.
"""
from __future__ import annotations

import os
import re
import select
import signal
import sys
import time
import warnings

from .operand_rules import PLANS as OPERAND_PLANS
from .rule_facts import Facts
from .trial_plans import Plan, Untriable, plan_broadcast, plan_carry, plan_method, plan_vmap
from .wiring_rules import PLANS as WIRING_PLANS

PLANS = {**OPERAND_PLANS, **WIRING_PLANS}

BUDGET_S = 2.0
# `AUTOGRADER_TRIALS=0` turns trials off (every such fix is then told as a guess): for measuring
# what they cost (benchmarks/explain_cost.py), or a machine where fork is unwelcome.
ENABLED = os.environ.get("AUTOGRADER_TRIALS", "1") != "0"
MAX_REPLY = 4096
_REPLY_LINE = re.compile(rb"^(\d{1,3})([+-])$")

# The rules whose fix a trial can confirm, and how each finds its call on the failing line.
_VMAP_RULES = ("vmap-sizes", "vmap-in-axes-count", "vmap-in-axes-tree", "vmap-rank", "vmap-all-none",
               "contract-under-vmap")


def _transformed(desc: dict, *transforms) -> dict:
    """The transform call (`jax.vmap(f, ...)(a, b)`) that starts on the failing line."""
    stmt = desc.get("facts") or {}
    for call in stmt.get("transformed", []):
        if call.get("transform") in transforms and call.get("line") == stmt.get("line"):
            return call
    return {}


def plan_for(rule: str, desc: dict) -> Plan | None:
    """The plan that can confirm rule `rule`'s fix for this exception, if its call is on the line."""
    source = (desc.get("facts") or {}).get("at_line", "")
    if rule in _VMAP_RULES:
        return plan_vmap(_transformed(desc, "vmap"))
    if rule == "loop-carry-type":
        return plan_carry(source)
    if rule == "broadcast" and not (PLANS["broadcast"](Facts(desc))):
        return plan_broadcast(source)
    if rule in ("unregistered-class", "non-array-argument"):
        return plan_method(_transformed(desc, "grad", "value_and_grad", "vmap", "jit"))
    if rule in PLANS:                                   # a rewrite of the line (`trial_rewrites.py`)
        return PLANS[rule](Facts(desc))
    return None


def innermost_student_frame(exc: BaseException):
    """The frame whose names the failing line reads: of the student's frames at the innermost one's
    line, the outermost (a lambda written on that line runs in a frame of its own, which holds its
    parameters only, not the names of the line around it)."""
    from .facts import is_student_frame
    frames, tb = [], exc.__traceback__
    while tb is not None:
        if is_student_frame(tb.tb_frame.f_code.co_filename):
            frames.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    if not frames:
        return None
    inner, line = frames[-1]
    return next(frame for frame, lineno in frames
                if lineno == line and frame.f_code.co_filename == inner.f_code.co_filename)


def attempt(rule: str, desc: dict, exc: BaseException) -> dict:
    """Plain data for `desc["trial"]`: the plan's kind and labels, which candidates traced and which
    did not, and whether every candidate was tried in the budget; {} when nothing could be tried."""
    if not ENABLED:
        return {}
    frame = innermost_student_frame(exc)
    try:
        plan = plan_for(rule, desc) if frame is not None else None
    except Exception:                                   # noqa: BLE001 (an odd line: no trial)
        plan = None
    if plan is None or not plan.labels:
        return {}
    results = run_plan(plan, frame)
    if results is None:
        return {}
    traced = [i for i, ok in results.items() if ok]
    return {"kind": plan.kind, "labels": plan.labels, "given": plan.given, "traced": traced,
            "failed": [i for i, ok in results.items() if not ok],
            "complete": len(results) == len(plan.labels)}


def attempt_kinds(desc: dict, exc: BaseException, budget: float = BUDGET_S) -> dict:
    """Plain data for `desc["kind_trial"]`: the failing statement rewritten by the kind of its error
    (`trial_kinds.py`), and which rewrites traced; {} when there is no candidate or none could run.
    Called only where no rule's own trial traced a fix."""
    from .trial_kinds import plan_kinds
    if not ENABLED:
        return {}
    frame = innermost_student_frame(exc)
    try:
        plan = plan_kinds(Facts(desc)) if frame is not None else None
    except Exception:                                   # noqa: BLE001 (an odd line: no trial)
        plan = None
    if plan is None or not plan.labels or budget < 0.2:
        return {}
    results = run_plan(plan, frame, budget)
    if results is None:
        return {}
    return {"kind": plan.kind, "labels": plan.labels, "traced": [i for i, ok in results.items() if ok],
            "failed": [i for i, ok in results.items() if not ok], "complete": len(results) == len(plan.labels)}


def run_plan(plan: Plan, frame, budget: float = BUDGET_S) -> dict[int, bool] | None:
    """{candidate index: whether it traced} for the candidates tried within the budget, in a
    forked child on `frame`'s values; None when the trial could not start."""
    if not hasattr(os, "fork"):
        return None
    read_end, write_end = os.pipe()
    with warnings.catch_warnings():         # JAX warns that fork and threads mix: the child runs no
        warnings.simplefilter("ignore")     # XLA computation, and it is killed at the deadline
        try:
            pid = os.fork()
        except OSError:
            os.close(read_end)
            os.close(write_end)
            return None
    if pid == 0:
        _child(plan, frame, write_end)      # never returns
    os.close(write_end)
    try:
        return _collect(read_end, len(plan.labels), budget)
    finally:
        os.close(read_end)
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            os.waitpid(pid, 0)
        except OSError:
            pass


def _child(plan: Plan, frame, write_end: int) -> None:
    try:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(3, write_end)
        os.closerange(write_end + 1, 1 << 16)
        sys.stdout = sys.stderr = open(os.devnull, "w")
        ns = dict(frame.f_globals)
        ns.update(frame.f_locals)
        for index in range(len(plan.labels)):
            try:
                plan.build(ns, index)()
                mark = b"+"
            except Untriable:                   # its values cannot be traced again: not tried
                continue
            except BaseException:               # noqa: BLE001 (a candidate that does not trace)
                mark = b"-"
            os.write(write_end, b"%d%s\n" % (index, mark))
    finally:
        os._exit(0)


def _collect(read_end: int, count: int, budget: float = BUDGET_S) -> dict[int, bool]:
    deadline = time.monotonic() + budget
    data = b""
    while len(data) <= MAX_REPLY:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([read_end], [], [], left)[0]:
            break
        chunk = os.read(read_end, MAX_REPLY + 1)
        if not chunk:
            break
        data += chunk
    results: dict[int, bool] = {}
    for line in data.split(b"\n")[:-1]:                 # whole lines only
        m = _REPLY_LINE.match(line)
        if not m or int(m.group(1)) >= count:
            break                                       # a forged or broken reply: stop reading
        results[int(m.group(1))] = m.group(2) == b"+"
    return results
