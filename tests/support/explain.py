"""What the course explains about an error that a piece of code raises (the kernel's and the grader's
explanation block), for the rule tests."""
from __future__ import annotations


def explanation_of(fn) -> str:
    """The explanation block of the error `fn()` raises ("" if no rule explains it)."""
    from autograder.checks import diagnose
    try:
        fn()
    except Exception as exc:  # noqa: BLE001
        return diagnose.explanation_block(exc) or ""
    raise AssertionError("the case raised nothing")
