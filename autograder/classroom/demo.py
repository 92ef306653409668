"""`make demo`: build the release, grade the example students (examples/students.py) with
`autograder autograde` into an nbgrader course's sqlite gradebook, and print a per-student,
per-exercise table, the first failed check of each exercise that lost points, and where the class
report and the feedback are. Everything it writes goes under .demo/ (untracked):

    .demo/course/           an nbgrader course: nbgrader_config.py, source/, submitted/,
                            autograded/, feedback/, results/, reports/, gradebook.db

`make demo ASSIGNMENTS="02_static_shapes 03_control_flow"` limits it to some assignments;
`make demo NBGRADER=1` also runs `nbgrader autograde` on the same submissions (slower: one kernel
per notebook, one notebook at a time) and shows its points in brackets beside the autograder's."""
from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

from rich.table import Table

from ..course.notebook import nbformat
from ..grading.tables import stdout_console


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


def make_course(project, demo: Path, assignments: list[str]) -> Path:
    """An nbgrader course directory under .demo/ with the project's configuration and source/."""
    course = demo / "course"
    course.mkdir(parents=True)
    config = (project.root / "nbgrader_config.py").read_text()
    (course / "nbgrader_config.py").write_text(config + f"\nc.CourseDirectory.root = {str(course)!r}\n")
    for a in assignments:
        shutil.copytree(project.source / a, course / "source" / a)
    return course


def _table(console, assignment, ncourse, students, nbgrader_scores=None) -> tuple[list[str], int]:
    from .gradebook import read_scores
    spec = ncourse.course.assignment(assignment)
    book = read_scores(ncourse, assignment)
    results = ncourse.load_results(assignment)
    title = f"{assignment}: points per exercise, autograder" + (" (nbgrader)" if nbgrader_scores else "")
    table = Table(title=title)
    table.add_column("student")
    for ex in spec.exercises:
        table.add_column(ex, justify="right")
    table.add_column("total", justify="right")
    notes, disagree = [], 0
    for s in students:
        cells = book.get(s, {})
        row = [s]
        for ex in spec.exercises:
            mine = [c for c in spec.test_cells if c.exercise == ex]
            got = sum(cells.get(c.grade_id, 0.0) for c in mine)
            text = f"{got:g}/{sum(c.points for c in mine):g}"
            if nbgrader_scores is not None:
                theirs = nbgrader_scores.get(s, {})
                agree = all(abs(cells.get(c.grade_id, 0.0) - theirs.get(c.grade_id, -1)) < 1e-9 for c in mine)
                disagree += not agree
                text += f" ({sum(theirs.get(c.grade_id, 0.0) for c in mine):g}{'' if agree else ' !'})"
            row.append(text)
            checks = results.get(s, {}).get("exercises", {}).get(ex, {}).get("checks", [])
            failed = next((c for c in checks if not c["passed"]), None)
            if failed:
                notes.append(f"{s} {failed['name']}: {' '.join(failed['message'].split())[:150]}")
        row.append(f"{sum(cells.values()):g}/{sum(c.points for c in spec.test_cells):g}")
        table.add_row(*row)
    console.print(table)
    return notes, disagree


def main() -> int:
    from ..grading.startup import isolate_jax_for_grader
    isolate_jax_for_grader()
    os.environ.setdefault("JAX_COURSE_CELL_TIMEOUT", "10")
    from ..course import release
    from ..course.layout import Course
    from ..grading.batch_cache import BatchCache
    from ..sandbox.process import Limits
    from . import nbgrader_run
    from .autograde import Options, autograde
    from .class_report import write_report
    from .feedback import write_feedback
    from .nbgrader_course import NbgraderCourse
    from .progress import BatchProgress

    console = stdout_console()
    project = Course()
    demo = project.root / ".demo"
    if demo.exists():
        shutil.rmtree(demo)
    chosen = os.environ.get("ASSIGNMENTS", "").split()
    unknown = [a for a in chosen if a not in project.assignment_names()]
    if unknown:
        console.print(f"demo: unknown assignment(s) {', '.join(unknown)}")
        return 2
    assignments = chosen or project.assignment_names()
    console.rule("1. release: nbgrader generate_assignment of source/ (into .demo/release)")
    built = release.build(project, demo / "release", assignments)
    for path in built:
        same = (project.release / path.parent.name / path.name).read_text() == path.read_text()
        console.print(f"  {path.relative_to(project.root)}  ({'same as' if same else 'DIFFERS from'} release/)")

    students = _students(project.root)
    root = make_course(project, demo, assignments)
    console.rule(f"2. submissions: {', '.join(students)} x {len(assignments)} assignments in "
                 f"{root.relative_to(project.root)}/submitted/")
    for a in assignments:
        for student, wrote in students.items():
            nb = build_submission(demo / "release" / a / f"{a}.ipynb", project.source / a / f"{a}.ipynb",
                                  wrote.get(a, {}))
            path = root / "submitted" / student / a / f"{a}.ipynb"
            path.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, str(path))

    ncourse = NbgraderCourse(root)
    console.rule("3. autograder autograde <assignment> (sandboxed, in parallel, into gradebook.db)")
    t0 = time.perf_counter()
    status = 0
    for a in assignments:
        status = max(status, autograde(ncourse, a, Options(), BatchProgress(a, len(students), console)))
    seconds = time.perf_counter() - t0

    nbgrader_scores, nbg_seconds = {}, 0.0
    if os.environ.get("NBGRADER"):
        console.rule("   nbgrader autograde <assignment> on the same submissions (.demo/nbgrader/)")
        t0 = time.perf_counter()
        for a in assignments:
            subs = {s: root / "submitted" / s / a / f"{a}.ipynb" for s in students}
            work = nbgrader_run.prepare(project, demo / "nbgrader", a, subs)
            nbgrader_run.generate(work, a)
            # the kernels read a compile cache built from the references (kernel_cache.py); its build
            # is part of the time
            cache = BatchCache(Limits(compile_cache=True), project.hidden_paths() + [str(p) for p in subs.values()])
            try:
                run = nbgrader_run.run_nbgrader_autograde(work, a, cache=cache.build(project.assignment(a)))
            finally:
                cache.close()
            if run.returncode != 0:
                console.print(f"  nbgrader autograde exited {run.returncode}: {run.stderr.strip().splitlines()[-1:]}")
            nbgrader_scores[a] = nbgrader_run.read_gradebook(work, a)
        nbg_seconds = time.perf_counter() - t0

    console.rule("4. the gradebook (what formgrader and `nbgrader export` show)")
    notes, disagree = [], 0
    for a in assignments:
        n, d = _table(console, a, ncourse, list(students), nbgrader_scores.get(a) if nbgrader_scores else None)
        notes += n
        disagree += d
    console.rule("first failed check of each exercise that lost points")
    for note in notes:
        console.print(note, highlight=False, markup=False)

    console.rule("5. autograder report / autograder feedback")
    for a in assignments:
        page = write_report(ncourse, a)
        write_feedback(ncourse, a)
        console.print(f"  {a}: class report {page.parent.relative_to(project.root)}/summary.html")
    feedback = root / ncourse.coursedir.feedback_directory
    console.print(f"feedback (no hidden tests): {feedback.relative_to(project.root)}/<student>/<assignment>/; "
                  f"gradebook: {(root / 'gradebook.db').relative_to(project.root)}")
    line = f"autograder autograde: {seconds:.1f} s for {len(students) * len(assignments)} notebooks"
    if nbgrader_scores:
        line += (f"; nbgrader autograde: {nbg_seconds:.1f} s (ratio {nbg_seconds / seconds:.2f}x); "
                 f"exercises where they disagree: {disagree}")
    console.print(line)
    return status


if __name__ == "__main__":
    sys.exit(main())
