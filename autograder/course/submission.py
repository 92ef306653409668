"""Reading a student's notebook: their solution cells, and what is wrong with the notebook itself.

Only solution cells are taken from a submission (by grade_id); setup and test cells come from
source/. Duplicated or missing grade_ids are reported in the result's `errors`, in one line each.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .layout import Assignment
from .notebook import classify, nbgrader_meta, read_notebook


@dataclass
class Submission:
    path: Path
    solutions: dict[str, str]
    errors: list[str] = field(default_factory=list)


def read_submission(path: Path, assignment: Assignment, nb=None) -> Submission:
    nb = nb if nb is not None else read_notebook(path)
    errors = []
    solutions: dict[str, str] = {}
    seen: dict[str, int] = {}
    wanted = set(assignment.exercises)
    for cell in classify(nb):
        if cell.role != "solution" or cell.grade_id not in wanted:
            continue
        if cell.grade_id in seen:
            errors.append(f"{path.name}: grade_id {cell.grade_id!r} appears in cells {seen[cell.grade_id]} "
                          f"and {cell.index}; the last one was graded (a notebook run keeps the last definition)")
        seen[cell.grade_id] = cell.index
        solutions[cell.grade_id] = cell.source
    for ex in assignment.exercises:
        if ex not in solutions:
            errors.append(f"{path.name}: no solution cell with grade_id {ex!r} (deleted, or its nbgrader "
                          f"metadata edited); that exercise scores 0")
    for i, c in enumerate(nb.cells):
        meta = nbgrader_meta(c)
        if meta.get("grade") and meta.get("solution") and meta.get("grade_id") in wanted:
            errors.append(f"{path.name}: cell {i} ({meta.get('grade_id')}) has altered nbgrader metadata")
    return Submission(path, solutions, errors)
