"""`autograder feedback ASSIGNMENT`: one HTML page per student, where nbgrader puts feedback
(`feedback/<student>/<assignment>/<assignment>.html`, beside the graded submission's timestamp.txt
and submission_secret.txt, so that `nbgrader release_feedback` hands it out and `nbgrader
fetch_feedback` finds it).

It shows every graded check: its points (from the gradebook, so a manual grade shows) and its
teaching message. Unlike `nbgrader generate_feedback`, which renders the autograded notebook, it
never shows a hidden test's source or its inputs: no test cell source appears at all, and when a
check failed inside a test cell's hidden region (the grader records the line that failed), the
evidence line, which names the inputs, is replaced by a plain statement; only the `cause:` and
`fix:` lines, which teach without naming inputs, are kept.
"""
from __future__ import annotations

import html
import shutil
from pathlib import Path

from .nbgrader_course import NbgraderCourse, write_atomically
from ..course.notebook import hidden_lines
from ..grading.hidden import student_view as hidden_view


def _delimiters(ncourse: NbgraderCourse) -> tuple[str, str]:
    from nbgrader.preprocessors import ClearHiddenTests
    pp = ClearHiddenTests(config=ncourse.config)
    return pp.begin_test_delimeter, pp.end_test_delimeter


def student_message(check: dict, hidden: set[int]) -> str:
    """What the student may read about one check (see `grading.hidden.student_view`)."""
    return hidden_view(check, hidden)


_STYLE = """body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;width:100%;margin-bottom:1.5rem}td,th{border-bottom:1px solid #ddd;padding:.4rem;
text-align:left;vertical-align:top}pre{white-space:pre-wrap;margin:0;font-size:.9rem}.ok{color:#1a7f37}
.no{color:#b42318}.pts{white-space:nowrap;text-align:right}"""


def render(assignment: str, student: str, result: dict, scores: dict[str, float], total: tuple | None,
           hidden_by_cell: dict[str, set[int]]) -> str:
    esc = html.escape
    score, max_score, penalty = total or (result["score"], result["max_score"], 0.0)
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{esc(assignment)}: {esc(student)}</title>",
             f"<style>{_STYLE}</style></head><body>",
             f"<h1>{esc(assignment)}</h1><p>Student: <b>{esc(student)}</b>. Score: <b>{score:g} / {max_score:g}</b>"
             + (f" (late penalty {penalty:g})" if penalty else "") + "</p>"]
    if result.get("errors"):
        parts.append("<h2>About your notebook</h2><ul>" +
                     "".join(f"<li>{esc(e)}</li>" for e in result["errors"]) + "</ul>")
    for exercise, ex in result["exercises"].items():
        checks = [c for c in ex["checks"] if c["kind"] != "integrity" or not c["passed"]]
        got = sum(scores.get(c["name"], c["points"]) for c in checks if c["kind"] != "integrity")
        if any(c["kind"] == "integrity" and not c["passed"] for c in ex["checks"]):
            got = 0.0
        parts.append(f"<h2>{esc(exercise)}: {got:g} / {ex['max_score']:g}</h2><table>"
                     "<tr><th>check</th><th>kind</th><th>points</th><th>result</th></tr>")
        for c in checks:
            points = scores.get(c["name"], c["points"])
            message = student_message(c, hidden_by_cell.get(c["name"], set()))
            verdict = "<span class='ok'>passed</span>" if c["passed"] else \
                f"<span class='no'>failed</span><pre>{esc(message)}</pre>"
            parts.append(f"<tr><td>{esc(c['name'])}</td><td>{esc(c['kind'])}</td>"
                         f"<td class='pts'>{points:g} / {c['max_points']:g}</td><td>{verdict}</td></tr>")
        parts.append("</table>")
    parts.append("</body></html>")
    return "\n".join(parts)


# What `nbgrader release_feedback` reads beside each page: the submission's timestamp and secret.
# nbgrader 0.9 releases the page under a hash of that secret, which only the submitting student's
# cache also holds, so each student fetches their own page and no one else's. Both are copied from
# the autograded folder, i.e. from the submission that was graded, not from a newer one collected
# since. The page is readable by all (0644, 0664 when groupshared, as `nbgrader generate_feedback`
# leaves it) because release_feedback copies its mode into the exchange, where the student's own
# uid must read it; the secret only by the instructor (and the group, when groupshared).
RELEASE_FILES = {"timestamp.txt": 0o644, "submission_secret.txt": 0o600}


def _mode(ncourse: NbgraderCourse, mode: int) -> int:
    return mode | 0o060 if ncourse.coursedir.groupshared else mode


def _copy_release_files(ncourse: NbgraderCourse, student: str, assignment: str):
    graded, feedback = ncourse.autograded(student, assignment), ncourse.feedback(student, assignment)
    for name, mode in RELEASE_FILES.items():
        target = feedback / name
        target.unlink(missing_ok=True)
        if (graded / name).is_file():
            shutil.copyfile(graded / name, target)
            target.chmod(_mode(ncourse, mode))


def _gradebook_view(ncourse: NbgraderCourse, assignment: str) -> dict[str, tuple[dict, tuple]]:
    """student -> ({cell: score}, (total, max, late penalty)) from the gradebook."""
    from .gradebook import read_notebooks
    return {student: (nb["scores"], nb["total"]) for student, nb in read_notebooks(ncourse, assignment).items()}


def write_feedback(ncourse: NbgraderCourse, assignment: str, students: list[str] | None = None) -> list[Path]:
    """Write the feedback of every graded student (or of `students`); returns the files written."""
    from .gradebook import check_known
    check_known(ncourse, assignment)
    begin, end = _delimiters(ncourse)
    hidden_by_cell = {c.grade_id: hidden_lines(c.source, begin, end)
                      for c in ncourse.course.assignment(assignment).test_cells}
    results = ncourse.load_results(assignment)
    book = _gradebook_view(ncourse, assignment)
    written = []
    for student in students or sorted(results):
        result = results.get(student)
        if result is None:
            continue
        scores, total = book.get(student, ({}, None))
        page = render(assignment, student, result, scores, total, hidden_by_cell)
        path = ncourse.feedback(student, assignment) / f"{assignment}.html"
        write_atomically(path, page, mode=_mode(ncourse, 0o644))
        _copy_release_files(ncourse, student, assignment)
        written.append(path)
    return written
