"""What a failure on a hidden test may say: the grader's own words, never the student code's.

A hidden test calls the student's function on inputs the student has not seen. Whatever that code
returns or raises can carry those inputs (an exception message, an exception class named after
them, values returned in place of a result, a trace count chosen to spell them), and a message that
quotes it would hand them to the student in the feedback, on Gradescope or PrairieLearn. So when a
graded cell fails on a line of its hidden region, its message is rebuilt here from what the grader
itself knows: the cell's grade_id, the category of what failed, and a cause and fix only when they
are fixed texts (of the grader's rule table or of the test author). Not even the test author's
description of the case (`what=`): authors often name the hidden input there, nor a fix that names the
expected value (its dtype). The verdict, and which of a few dozen fixed sentences applies (the kind
of failure, or one of `_KNOWN_ERRORS`), are all it says about the hidden input.
"""
from __future__ import annotations

from ..checks import failure
from ..checks.failure import CATEGORIES, CheckFailure

# The exception classes a hidden failure may name: the errors JAX code raises by mistake, Python's
# and JAX's. Any other class is "an exception": a student's own class could be named after a hidden
# input, and code that picks one of Python's seventy built-in classes by a hidden value (a blind red
# team did: IsADirectoryError for a length of 19) would spell six bits of it per check.
_KNOWN_ERRORS = {
    "TypeError", "ValueError", "IndexError", "KeyError", "AttributeError", "NameError", "UnboundLocalError",
    "ZeroDivisionError", "AssertionError", "NotImplementedError", "RecursionError", "MemoryError",
    "OverflowError", "RuntimeError",
    "ConcretizationTypeError", "TracerBoolConversionError", "TracerIntegerConversionError",
    "TracerArrayConversionError", "NonConcreteBooleanIndexError", "UnexpectedTracerError",
    "KeyReuseError", "XlaRuntimeError", "JaxRuntimeError", "ShardingTypeError", "InconclusiveDimensionOperation"}

GENERIC_FIX = "hidden tests use inputs you have not seen: test your function on more cases of your own"


def message(grade_id: str, exc: BaseException) -> str:
    """The message of a graded cell that failed on its hidden region with `exc`."""
    sentence, cause, fix = _grader_words(exc)
    return failure.message(grade_id, f"{sentence} on an input you have not seen", cause, fix or GENERIC_FIX,
                           verb="failed on a hidden test")


WITHHELD = ("the details come from a run of your code after it had seen hidden test data, so they are not "
            "shown; run this cell in your notebook to see them")


def withheld(grade_id: str, exc: BaseException) -> str:
    """The message of a visible failure whose details came from a worker that had seen hidden data
    and that a clean worker did not reproduce: the grader's words only (`session.py`)."""
    sentence, cause, fix = _grader_words(exc)
    return failure.message(grade_id, f"{sentence} ({WITHHELD})", cause, fix)


def _grader_words(exc: BaseException) -> tuple[str, str | None, str | None]:
    """What a failure may say without quoting student code: its category, and a cause and fix when
    they are fixed texts."""
    cause, fix = None, None
    if isinstance(exc, CheckFailure):
        cause, fix = exc.hidden_cause, exc.hidden_fix
        sentence = CATEGORIES.get(exc.category, "a test failed")
    elif getattr(exc, "desc", None) is not None:           # the student's code raised (session.StudentCodeError)
        kind = exc.desc.get("type", "")
        sentence = f"your code raised {kind if kind in _KNOWN_ERRORS else 'an exception'}"
        from ..checks.diagnose import explain_static
        cause, fix = explain_static(exc.desc) or (None, None)
    else:
        sentence = "a test failed"
    return sentence, cause, fix


def student_view(check: dict, hidden: set[int]) -> str:
    """What a student may read about one graded check, given its cell's hidden lines: its message,
    which the grader already rebuilt for a hidden failure; a result written by an older grader
    whose hidden failure still quotes the evidence says only that it failed there."""
    if check["passed"]:
        return ""
    text = check.get("message", "")
    if check.get("line", 0) in hidden and not text.startswith(f"[check] {check['name']} failed on a hidden test"):
        return failure.message(check["name"], "an input you have not seen", fix=GENERIC_FIX,
                               verb="failed on a hidden test")
    return text
