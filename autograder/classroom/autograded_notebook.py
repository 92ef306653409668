"""The autograded notebook that formgrader and manual grading show:
`autograded/<student>/<assignment>/<assignment>.ipynb`.

It is the student's notebook sanitized by nbgrader's own preprocessors, as `nbgrader autograde`
sanitizes it before running it (ClearOutput, DeduplicateIds, OverwriteKernelspec, OverwriteCells,
CheckCellMetadata, with the course's configuration: read-only cells restored from the gradebook,
deleted test cells added back). It is never executed in a kernel: each graded test cell gets the
sandboxed grader's verdict as its output, an `error` output when it failed, so that nbgrader's
own rule (`nbgrader.utils.determine_grade`) reads from the notebook the points in the gradebook.

A notebook those preprocessors reject (mangled nbgrader metadata) is rebuilt from the gradebook's
copy of the assignment with the student's solution cells put in, and sanitized the same way, so
formgrader always has a notebook to show for a graded student.

Like nbgrader's, the autograded notebook is the instructor's: its test cells hold the hidden tests
and its outputs the full evidence. Students get `autograder feedback`, which shows neither.
"""
from __future__ import annotations

import logging
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ..course.notebook import nbformat, nbgrader_meta
from .nbgrader_course import NbgraderCourse, write_atomically

# nbgrader's preprocessors report every restored cell as a warning on their traitlets logger; the
# batch runner shows its own one-line notes instead.
_quiet = logging.getLogger("autograder.nbgrader_preprocessors")
_quiet.addHandler(logging.NullHandler())
_quiet.propagate = False


@dataclass
class AutogradedNotebook:
    nb: nbformat.NotebookNode
    unanswered: set[str] = field(default_factory=set)   # solution cells left as released ("No response.")
    manual: dict[str, float | None] = field(default_factory=dict)  # grade+solution cells: nbgrader's auto score
    rebuilt: bool = False                                # the submission's own notebook was unusable


def _sanitize(ncourse: NbgraderCourse, nb, assignment: str, student: str):
    from nbgrader.preprocessors import (CheckCellMetadata, ClearOutput, DeduplicateIds, OverwriteCells,
                                        OverwriteKernelspec)
    resources = {"nbgrader": {"notebook": assignment, "assignment": assignment, "student": student,
                              "db_url": ncourse.db_url}}
    for cls in (ClearOutput, DeduplicateIds, OverwriteKernelspec, OverwriteCells, CheckCellMetadata):
        nb, resources = cls(config=ncourse.config, log=_quiet)(nb, resources)
    return nb


def _rebuilt(ncourse: NbgraderCourse, gb, assignment: str, solutions: dict[str, str]):
    """The assignment as released (from the gradebook's source cells), with the solution cells the
    grader read from the submission."""
    from nbgrader.api import MissingEntry
    source = nbformat.read(str(ncourse.course.source / assignment / f"{assignment}.ipynb"), as_version=4)
    for cell in source.cells:
        gid = nbgrader_meta(cell).get("grade_id")
        if not gid:
            continue
        try:
            stored = gb.find_source_cell(gid, assignment, assignment)
        except MissingEntry:
            continue
        cell.source = solutions.get(gid, stored.source) if nbgrader_meta(cell).get("solution") else stored.source
    return source


def _verdict_outputs(check: dict) -> list:
    if check["passed"]:
        return [nbformat.v4.new_output("stream", name="stdout",
                                       text=f"[autograder] passed: {check['points']:g} / {check['max_points']:g}\n")]
    lines = check["message"].splitlines() or ["failed"]
    return [nbformat.v4.new_output("error", ename="AutograderCheckFailed", evalue=lines[0],
                                   traceback=lines)]


def build(ncourse: NbgraderCourse, gb, assignment: str, student: str, submitted, solutions: dict[str, str],
          result: dict) -> AutogradedNotebook:
    """`submitted` is the student's notebook (already parsed); `solutions` what the grader graded."""
    from nbgrader import utils
    import copy
    rebuilt = False
    try:
        nb = _sanitize(ncourse, copy.deepcopy(submitted), assignment, student)
    except Exception:
        nb = _sanitize(ncourse, _rebuilt(ncourse, gb, assignment, solutions), assignment, student)
        rebuilt = True
    checks = {c["name"]: c for ex in result["exercises"].values() for c in ex["checks"]}
    out = AutogradedNotebook(nb, rebuilt=rebuilt)
    for cell in nb.cells:
        meta = nbgrader_meta(cell)
        gid = meta.get("grade_id")
        if not gid:
            continue
        if utils.is_solution(cell) and not utils.is_task(cell) and \
                meta.get("checksum") == utils.compute_checksum(cell):
            out.unanswered.add(gid)
        if utils.is_grade(cell) and utils.is_solution(cell):
            out.manual[gid] = utils.determine_grade(cell)[0]
        if cell.cell_type == "code" and utils.is_grade(cell) and gid in checks:
            cell.outputs = _verdict_outputs(checks[gid])
    return out


def write(ncourse: NbgraderCourse, assignment: str, student: str, submitted_folder: Path, graded: AutogradedNotebook):
    """Write the notebook, and copy the folder's other files as nbgrader does (the submission's,
    then the assignment's own from source/, e.g. data files and timestamp.txt)."""
    from nbgrader.utils import find_all_files
    dest = ncourse.autograded(student, assignment)
    dest.mkdir(parents=True, exist_ok=True)
    ignore = list(ncourse.coursedir.ignore) + ["*.ipynb"]
    source = ncourse.course.source / assignment
    for folder in (submitted_folder, source):
        for filename in find_all_files(str(folder), ignore):
            target = dest / os.path.relpath(filename, folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.exists():
                target.unlink()
            shutil.copy(filename, target)
    write_atomically(dest / f"{assignment}.ipynb", nbformat.writes(graded.nb), mode=0o444)
