"""The instructor's subcommands of `autograder`, run in an nbgrader course directory (or with
--course-root):

    autograder autograde ASSIGNMENT [--student S ...] [--jobs N] [--force]
    autograder feedback ASSIGNMENT [--student S ...]
    autograder report ASSIGNMENT [--out DIR]
    autograder similarity ASSIGNMENT [--out DIR] [--threshold T]

Errors are one line, `autograder: error: ...`; exit 2 when anything could not be done.
"""
from __future__ import annotations

import sys
from pathlib import Path

from ..grading import options


def add_subcommands(sub):
    a = sub.add_parser("autograde", help="grade submitted/ into nbgrader's gradebook (sandboxed, in parallel)")
    a.add_argument("assignment")
    a.add_argument("--student", action="append", dest="students", metavar="S",
                   help="grade only this student (repeatable; default: every submitted/<student>/<assignment>/)")
    a.add_argument("--jobs", type=int, default=None,
                   help="students graded at once (default: the cores; with GPUs, 4 per GPU group)")
    a.add_argument("--force", action="store_true", help="regrade students whose submission has not changed")
    a.add_argument("--course-root", type=Path, help="the nbgrader course directory (default: found from cwd)")
    options.add_limit_options(a, defaults={"cell_timeout": None, "check_timeout": None}, helps={
        "cell_timeout": "seconds per solution cell (default: Execute.timeout of nbgrader_config.py)",
        "check_timeout": "seconds per call of a student function (default: as --cell-timeout)"})
    options.add_compile_cache_option(a, True)
    options.add_reference_timeouts_option(a)
    options.add_grader_processes_option(a)
    f = sub.add_parser("feedback", help="write feedback/<student>/<assignment>/<assignment>.html (no hidden tests)")
    f.add_argument("assignment")
    f.add_argument("--student", action="append", dest="students", metavar="S")
    f.add_argument("--course-root", type=Path)
    r = sub.add_parser("report", help="class report: CSV, plots and a summary page in reports/<assignment>/")
    r.add_argument("assignment")
    r.add_argument("--out", type=Path, help="output folder (default: reports/<assignment>/)")
    r.add_argument("--course-root", type=Path)
    s = sub.add_parser("similarity", help="students' solution cells compared pairwise (copydetect, rare code "
                                          "weighs most): pairs.csv and similarity.html")
    s.add_argument("assignment")
    s.add_argument("--out", type=Path, help="output folder (default: reports/<assignment>/similarity/)")
    s.add_argument("--threshold", type=float, default=None,   # (similarity.py imports numpy: not at start-up)
                   help="flag a pair whose score (0 to 1) reaches this (default: 0.6, Settings.threshold)")
    s.add_argument("--course-root", type=Path)


def _error(message: str) -> int:
    print(f"autograder: error: {message}", file=sys.stderr)
    return 2


def run(args) -> int:
    from ..course.notebook import NotebookError
    from .gradebook import GradebookError
    from .nbgrader_course import NbgraderCourse
    try:
        ncourse = NbgraderCourse(args.course_root)
        if args.command == "autograde":
            return _autograde(ncourse, args)
        if args.command == "feedback":
            return _feedback(ncourse, args)
        if args.command == "similarity":
            return _similarity(ncourse, args)
        return _report(ncourse, args)
    except (NotebookError, GradebookError) as exc:
        return _error(str(exc))


def _autograde(ncourse, args) -> int:
    from .autograde import Options, autograde
    problem = options.option_error(args)
    if problem:
        return _error(problem)
    cell = args.cell_timeout or ncourse.cell_timeout
    limits = options.limits_from(args, cell_timeout=cell, check_timeout=args.check_timeout or cell,
                                 compile_cache=options.compile_cache_wanted(args, True))
    return autograde(ncourse, args.assignment, Options(args.students, args.jobs, args.force, limits,
                                                       args.grader_processes))


def _feedback(ncourse, args) -> int:
    from .feedback import write_feedback
    written = write_feedback(ncourse, args.assignment, args.students)
    got = {p.parent.parent.name for p in written}
    status = 0
    for student in args.students or []:
        if student not in got:
            status = _error(f"{student}: no graded result for {args.assignment} (run autograder autograde first)")
    if not written and not args.students:
        return _error(f"no graded results for {args.assignment} (run autograder autograde first)")
    for path in written:
        print(f"wrote {path.relative_to(ncourse.root)}")
    return status


def _report(ncourse, args) -> int:
    from .class_report import write_report
    page = write_report(ncourse, args.assignment, args.out)
    folder = page.parent
    shown = folder.relative_to(ncourse.root) if folder.is_relative_to(ncourse.root) else folder
    print(f"class report: {shown}/ (summary.html, scores.csv, score_histogram.png, pass_rate.png, "
          f"failure_causes.png)")
    return 0


def _similarity(ncourse, args) -> int:
    from .similarity import Settings, run_similarity
    from .similarity_report import summary_line, write_outputs
    threshold = Settings.threshold if args.threshold is None else args.threshold
    if not 0.0 < threshold <= 1.0:
        return _error(f"--threshold {threshold:g}: scores lie between 0 and 1; give a value above 0, at most 1")
    result = run_similarity(ncourse, args.assignment, Settings(threshold=threshold))
    folder = Path(args.out) if args.out else ncourse.reports_dir(args.assignment) / "similarity"
    write_outputs(result, folder)
    for reason in result.skipped:
        print(f"autograder: note: left out {reason}", file=sys.stderr)
    folder = folder.resolve()
    shown = folder.relative_to(ncourse.root) if folder.is_relative_to(ncourse.root) else folder
    print(summary_line(result, str(shown)))
    return 0
