"""Turn an exception raised while tracing student code into a cause and a fix, in student terms.

Three parts, because the exception happens where the student's code runs (the notebook kernel, or
the sandboxed worker under the CLI) and the verdict is written in the grader:

- `facts.py` (where the exception happened): `describe_exception` turns it into plain data;
- `rules.py` (anywhere, on that data): `explain` and `explain_retrace`, the ordered rule tables;
- `trials.py` (also where the exception happened): the fixes a matched rule can confirm, tried
  on the student's own values with `jax.eval_shape` before the message tells them;
- this module: the description with its trial (`describe_exception`), and the lines of a failure
  message built from both.

The names of the other modules are re-exported here, where the rest of the package imports them.
"""
from __future__ import annotations

import time

from . import facts, trials
from .facts import is_student_frame  # noqa: F401  (re-exported)
from .rule_facts import Facts
from .rules import RULES, explain, explain_retrace, explain_static, match  # noqa: F401
from .trial_texts import kind_fix
from .text import scrub, shorten  # noqa: F401


def describe_exception(exc: BaseException, call: dict | None = None) -> dict:
    """`facts.describe_exception`, plus `trial`: which candidate fixes of the matched rule traced on
    the student's own values (`trials.attempt`; absent when the rule has none or none could run), and,
    where none traced, `kind_trial`: the failing line rewritten by the kind of its error
    (`trials.attempt_kinds`), tried in what is left of the same budget."""
    desc = facts.describe_exception(exc, call)
    started = time.monotonic()
    rule = match(desc)
    if rule is not None:
        trial = trials.attempt(rule.name, desc, exc)
        if trial:
            desc["trial"] = trial
    if not desc.get("trial", {}).get("traced"):       # no rule's fix traced: rewrites by the error's kind
        kinds = trials.attempt_kinds(desc, exc, trials.BUDGET_S - (time.monotonic() - started))
        if kinds:
            desc["kind_trial"] = kinds
    return desc


def explained(desc: dict) -> bool:
    """Whether a message can say a cause and a fix: a rule matched, or a rewrite by kind traced."""
    return match(desc) is not None or bool(kind_fix(Facts(desc)))


def type_name(desc: dict) -> str:
    """The exception's type name on one line: the worker names it, and a student's class can be
    given any `__name__`, a newline and a line that looks like the grader's included."""
    return " ".join(str(desc.get("type")).split())


def where_text(desc: dict) -> str:
    w = desc.get("where")
    if not w:
        return ""
    return f" at line {w['line']} of {w['function']}: `{w['code']}`"


def error_heading(desc: dict) -> str:
    """`Type at line N of fn: `code`: JAX's text` (no empty colon when the message is empty)."""
    message = desc.get("message", "")
    head = f"{type_name(desc)}{where_text(desc)}"
    return f"{head}: {shorten(message, 400)}" if message.strip() else head


def format_failure(desc: dict) -> str:
    """One line of evidence plus the cause and the fix, used inside an AssertionError message."""
    cause, fix = explain(desc)
    return f"{error_heading(desc)}\n  cause: {cause}\n  fix: {fix}"


# ---------------------------------------------------------------- errors raised by student code
def student_error_text(desc: dict) -> str:
    """`Type: message (line N of fn: `code`)`, plus the cause and fix when a rule knows them.

    Used for an exception the student's code raised during a test (re-raised in the grader as
    data); an empty message (`raise NotImplementedError()`) leaves no dangling colon."""
    message = (desc.get("message") or "").strip()
    text = f"{type_name(desc)}: {message}" if message else type_name(desc)
    if desc.get("where"):
        w = desc["where"]
        text += f" (line {w['line']} of {w['function']}: `{w['code']}`)"
    if explained(desc):
        cause, fix = explain(desc)
        text += f"\n  cause: {cause}\n  fix: {fix}"
    return text



# ---------------------------------------------------------------- the student's own kernel
def explanation_block(exc: BaseException) -> str | None:
    """`cause: ...` and `fix: ...` lines for an exception a notebook cell raised (the kernel's
    hook prints them after the traceback); None when no rule knows the exception, or when it is a
    failed check, whose message already holds them."""
    from .failure import CheckFailure
    if isinstance(exc, CheckFailure) or not isinstance(exc, Exception):
        return None
    desc = describe_exception(exc)
    if not explained(desc):
        return None
    cause, fix = explain(desc)
    return f"cause: {cause}\nfix: {fix}"
