"""`make demo`: build the release, grade example students with nbgrader and with the CLI, and print
a per-student, per-exercise table of both. Everything it writes goes under .demo/ (untracked).

`make demo ASSIGNMENTS="02_static_shapes 03_control_flow"` limits it to some assignments."""
from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

import nbformat
from rich.console import Console
from rich.table import Table


def _students(root: Path) -> dict:
    ns: dict = {}
    path = root / "examples" / "students.py"
    exec(compile(path.read_text(), str(path), "exec"), ns)
    return ns["WROTE"]


def build_submission(release_nb: Path, source_nb: Path, own: dict[str, str]) -> nbformat.NotebookNode:
    """The release notebook with each solution cell filled: the student's own or the reference."""
    reference = {c.metadata.get("nbgrader", {}).get("grade_id"): c.source
                 for c in nbformat.read(str(source_nb), as_version=4).cells}
    nb = nbformat.read(str(release_nb), as_version=4)
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution"):
            cell.source = own.get(meta["grade_id"], reference.get(meta["grade_id"], cell.source))
    return nb


def main() -> int:
    from ..cli import _isolate_jax_for_grader
    _isolate_jax_for_grader()
    os.environ.setdefault("JAX_COURSE_CELL_TIMEOUT", "10")
    from ..course.layout import Course
    from ..grading.grade import grade_many
    from . import nbgrader_run
    from ..course import release
    from ..sandbox.process import Limits

    console = Console(width=None if sys.stdout.isatty() else 160)
    course = Course()
    demo = course.root / ".demo"
    if demo.exists():
        shutil.rmtree(demo)
    console.rule("1. release: nbgrader generate_assignment of source/ (into .demo/release)")
    built = release.build(course, demo / "release", os.environ.get("ASSIGNMENTS", "").split() or None)
    for path in built:
        same = (course.release / path.parent.name / path.name).read_text() == path.read_text()
        console.print(f"  {path.relative_to(course.root)}  ({'same as' if same else 'DIFFERS from'} release/)")

    students = _students(course.root)
    chosen = os.environ.get("ASSIGNMENTS", "").split()
    unknown = [a for a in chosen if a not in course.assignment_names()]
    if unknown:
        console.print(f"demo: unknown assignment(s) {', '.join(unknown)}")
        return 2
    assignments = chosen or course.assignment_names()
    console.rule(f"2. submissions: {', '.join(students)} x {len(assignments)} assignments")
    subs: dict[str, dict[str, Path]] = {}
    for a in assignments:
        for student, wrote in students.items():
            nb = build_submission(demo / "release" / a / f"{a}.ipynb", course.source / a / f"{a}.ipynb",
                                  wrote.get(a, {}))
            path = demo / "submissions" / student / a / f"{a}.ipynb"
            path.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, str(path))
            subs.setdefault(a, {})[student] = path

    timeout = float(os.environ["JAX_COURSE_CELL_TIMEOUT"])
    nbg_scores: dict = {}
    t0 = time.perf_counter()
    for a in assignments:
        console.rule(f"3. nbgrader autograde {a} (sqlite gradebook .demo/nbgrader/gradebook.db)")
        work = nbgrader_run.prepare(course, demo / "nbgrader", a, subs[a])
        nbgrader_run.generate(work, a)
        run = nbgrader_run.autograde(work, a)
        if run.returncode != 0:
            console.print(f"  nbgrader autograde exited {run.returncode}: {run.stderr.strip().splitlines()[-1:]}")
        nbg_scores[a] = nbgrader_run.read_gradebook(work, a)
    nbg_seconds = time.perf_counter() - t0

    console.rule("4. autograder grade (sandboxed, in parallel)")
    limits = Limits(cell_timeout=timeout, check_timeout=timeout)
    t0 = time.perf_counter()
    cli = {}
    for a in assignments:
        for r in grade_many([subs[a][s] for s in students], course, a, limits):
            cli[(a, Path(r["notebook"]).parent.parent.name)] = r
    cli_seconds = time.perf_counter() - t0
    (demo / "results").mkdir(exist_ok=True)
    import json
    for (a, s), r in cli.items():
        (demo / "results" / f"{s}-{a}.json").write_text(json.dumps(r, indent=1))

    disagree = 0
    notes = []
    for a in assignments:
        exercises = list(cli[(a, next(iter(students)))]["exercises"])
        table = Table(title=f"{a}: points per exercise, autograder CLI (nbgrader)")
        table.add_column("student")
        for ex in exercises:
            table.add_column(ex, justify="right")
        table.add_column("total", justify="right")
        for s in students:
            r = cli[(a, s)]
            book = nbg_scores[a].get(s, {})
            row = [s]
            for ex in exercises:
                e = r["exercises"][ex]
                theirs = sum(book.get(c["name"], 0.0) for c in e["checks"] if c["kind"] != "integrity")
                agree = all(abs(c["points"] - book.get(c["name"], -1)) < 1e-9
                            for c in e["checks"] if c["kind"] != "integrity")
                disagree += not agree
                row.append(f"{e['score']:g}/{e['max_score']:g} ({theirs:g}{'' if agree else ' !'})")
                failed = next((c for c in e["checks"] if not c["passed"]), None)
                if failed:
                    notes.append(f"{s} {failed['name']}: {' '.join(failed['message'].split())[:150]}")
            row.append(f"{r['score']:g}/{r['max_score']:g}")
            table.add_row(*row)
        console.print(table)
    console.rule("first failed check of each exercise that lost points (CLI messages)")
    for note in notes:
        console.print(note, highlight=False, markup=False)
    console.print(f"nbgrader autograde: {nbg_seconds:.1f} s; autograder CLI: {cli_seconds:.1f} s "
                  f"(ratio {nbg_seconds / cli_seconds:.2f}x); cells where they disagree: {disagree} exercise(s)")
    console.print(f"JSON results: {(demo / 'results').relative_to(course.root)}/, gradebook: "
                  f"{(demo / 'nbgrader' / 'gradebook.db').relative_to(course.root)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
