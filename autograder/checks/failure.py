"""A failed check: its message, in the one shape every check uses, and what a hidden test may say.

Every failure reads

    [check] <what was checked> failed: <evidence>
      cause: <the likely cause, from the evidence>
      fix: <what to change, in the student's terms>

and is built by `message` here. A `CheckFailure` also carries what a failure on a hidden test may
still tell the student (`grading/hidden.py` writes that message): the category of what failed, and
the cause and fix when they are fixed texts.
"""
from __future__ import annotations

import os
import types

_CHECKS_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _outside_checks(tb):
    """The traceback chain cut before its first frame in this package (the test cell's frames stay)."""
    frames = []
    while tb is not None and not os.path.abspath(tb.tb_frame.f_code.co_filename).startswith(_CHECKS_DIR):
        frames.append(tb)
        tb = tb.tb_next
    chain = None
    for entry in reversed(frames):
        chain = types.TracebackType(chain, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return chain


class CheckFailure(AssertionError):
    """A failed check. In Jupyter it shows the test cell's line, then the message, without the
    grader's own frames (as chex strips its frames): IPython asks an exception for
    `_render_traceback_` before formatting it. The cell still ends in an error, so nbgrader and
    `autograder check` see the failure as before.

    Besides the message it keeps what a failure on a *hidden* test may still say (see
    `grading/hidden.py`): the `category` of what failed (a word from `CATEGORIES`), and
    `hidden_cause` / `hidden_fix`: the cause and fix when they are fixed texts of the grader or the
    test author, never text built from what the student's code returned or raised (None otherwise)."""

    def __init__(self, message: str, *, category: str = "", hidden_cause: str | None = None,
                 hidden_fix: str | None = None):
        super().__init__(message)
        self.category = category if category in CATEGORIES else ""
        self.hidden_cause, self.hidden_fix = hidden_cause, hidden_fix

    def _render_traceback_(self):
        from IPython import get_ipython  # only IPython calls this
        tb = _outside_checks(self.__traceback__) or self.__traceback__
        return get_ipython().InteractiveTB.structured_traceback(type(self), self, tb)


# What failed, in words that name no input: a hidden test's message says only this (plus a fixed
# cause and fix), since anything computed from the student's code could carry a hidden input out.
CATEGORIES = {
    "structure": "its result's containers (pytree structure) differ from the expected ones",
    "type": "its result is not of the expected type",
    "shape": "its result has the wrong shape",
    "dtype": "its result has the wrong dtype",
    "values": "its result differs from the expected values",
    "raises": "it did not raise the error the exercise asks for",
    "jit": "jax.jit of the function failed",
    "retrace": "jax.jit of the function traced again over calls that should share one compiled version",
    "jaxpr": "its traced program does not have the structure the exercise asks for",
    "output": "it printed something other than the exercise asks for",
    "keys": "it used a PRNG key more than once",
    "inputs": "it changed its inputs in place",
    "performance": "it was slower than the exercise's budget",
    "timing-limit": "timing it did not finish within the grader's time limit for one check",
    "evidence": "the measurements taken next to your code were not plausible",
    "traced": "the program jax.jit traced from your function computes something else than calling it directly",
    "timed": "the program timed is not the one the other checks traced from your function",
    "check": "the test's own check failed",
}


def message(title: str, evidence_text: str, cause: str | None = None, fix: str | None = None, *,
            verb: str = "failed") -> str:
    """`[check] <title> failed: <evidence>`, then the likely cause and the fix on their own lines.
    `verb` says what happened instead when a check did not simply fail ("not run")."""
    msg = f"[check] {title} {verb}: {evidence_text}"
    if cause:
        msg += f"\n  cause: {cause}"
    if fix:
        msg += f"\n  fix: {fix}"
    return msg
