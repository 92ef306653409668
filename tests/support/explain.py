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


def rule_of(fn) -> str:
    """The name of the rule that explains the error `fn()` raises ("" if none does)."""
    from autograder.checks import diagnose
    try:
        fn()
    except Exception as exc:  # noqa: BLE001
        rule = diagnose.match(diagnose.describe_exception(exc))
        return rule.name if rule else ""
    raise AssertionError("the case raised nothing")


def fix_line(block: str) -> str:
    """What follows `fix: ` in an explanation block ("" if it has none)."""
    return block.split("fix: ", 1)[1] if "fix: " in block else ""


def told(fn) -> tuple[str, str]:
    """(the rule that explains the error `fn()` raises, its fix line)."""
    return rule_of(fn), fix_line(explanation_of(fn))
