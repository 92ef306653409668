"""Which part of a graded cell decided its verdict: the visible tests, which the student has, or
the hidden ones, which only the grader has.

A graded test cell holds visible tests, then a hidden region (between nbgrader's begin and end
hidden-tests delimiters). What a student may see at once follows from where the cell stopped:
- a failure *before* the hidden region comes from tests in the student's own notebook: its message
  repeats what running that cell shows, so it can be shown right away;
- a failure *in* the hidden region is about inputs the student has not seen, and a pass says that the
  hidden tests passed: both wait until the instructor publishes grades (Gradescope) or are reduced to
  a line that names no hidden input (PrairieLearn, which shows everything at once).

`instrument(cell)` inserts one statement at the hidden region's first line that records, in this
process, that the cell got that far. Test cells run in the grader's process, never in the student's
worker, so student code cannot set the record; the statement does nothing else, so verdicts and
points are those of the uninstrumented cell.
"""
from __future__ import annotations

import ast
import dataclasses

from ..course import notebook
from ..course.notebook import Cell

_reached: set[str] = set()


# nbgrader's hidden-test delimiters, defined with the notebook's cells (a test compares them with
# nbgrader's own).
HIDDEN_DELIMITER, HIDDEN_END_DELIMITER = notebook.HIDDEN_DELIMITER, notebook.HIDDEN_END_DELIMITER


def hidden_delimiter() -> str:
    return HIDDEN_DELIMITER


def hidden_line(source: str) -> int | None:
    """Index of the line that opens the hidden region, or None (nbgrader matches substrings)."""
    mark = hidden_delimiter()
    for i, line in enumerate(source.splitlines()):
        if mark in line:
            return i
    return None


def has_hidden_tests(cell: Cell) -> bool:
    return hidden_line(cell.source) is not None


def instrument(cell: Cell) -> Cell:
    """The cell with a record of reaching its hidden region (unchanged without one)."""
    at = hidden_line(cell.source)
    if at is None:
        return cell
    lines = cell.source.splitlines()
    indent = lines[at][:len(lines[at]) - len(lines[at].lstrip())]
    record = f"{indent}__import__({__name__!r}, fromlist=['_']).reached({cell.grade_id!r})"
    return dataclasses.replace(cell, source="\n".join(lines[:at] + [record] + lines[at:]) + "\n")


def reached(grade_id: str):
    _reached.add(grade_id)


def forget(grade_id: str):
    _reached.discard(grade_id)


def did_reach(grade_id: str) -> bool:
    return grade_id in _reached


def question(cell: Cell) -> str:
    """The cell's docstring (a question such as "Does jax.jit(f) work?") when it sits above the
    hidden region, else ""."""
    try:
        tree = ast.parse(cell.source)
    except SyntaxError:
        return ""
    first = tree.body[0] if tree.body else None
    if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        return ""
    at = hidden_line(cell.source)
    if at is not None and first.end_lineno > at:
        return ""
    return " ".join(first.value.value.split())


def shown_at_once(check: dict, hidden: bool, reached_hidden: bool) -> bool:
    """Whether a check's verdict and message may be shown before grades are published: a cell
    without hidden tests, or one that failed before its hidden region (and a check that is not a
    test cell's, such as the integrity verdict on the student's own code)."""
    return not hidden or (not check["passed"] and not reached_hidden)
