"""`autograder` command line: grade notebooks into the JSON of ../shared/COURSE_SPEC.md.

    autograder grade NOTEBOOK [NOTEBOOK ...] --json OUT [--assignment A] [--jobs N]
    autograder check NOTEBOOK                 (students: the notebook's visible tests only)
    autograder student-kit --out DIR          (instructors: what students get)
    autograder selftest [--assignment A] [--right-answers]   (lab admins: expected verdicts here)
    autograder export gradescope A --out F.zip | prairielearn A --out DIR   (grading platforms)
    autograder autograde ASSIGNMENT [--student S ...] [--jobs N] [--force]   (nbgrader course layout)
    autograder feedback ASSIGNMENT / autograder report ASSIGNMENT / autograder similarity ASSIGNMENT
    autograder quickstart DIR [--exchange ROOT]   (a course directory for a class, outside the checkout)
    autograder lab-hub DIR --instructor I --students A,B   (lab admins: JupyterHub for one course)

Exit 0 when every notebook was graded (whatever the scores); 2 with a one-line error per unusable
notebook (the others are still graded and written).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .grading import options
from .grading.startup import isolate_jax_for_grader


def _parser():
    ap = argparse.ArgumentParser(prog="autograder", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    g = sub.add_parser("grade", help="grade one or more submitted notebooks")
    g.add_argument("notebooks", nargs="+", type=Path)
    g.add_argument("--json", dest="json_out", type=Path, required=True,
                   help="output file: one JSON object for one notebook, a JSON list for several")
    g.add_argument("--assignment", help="assignment name (default: from the file or folder name)")
    g.add_argument("--course-root", type=Path, help="course directory holding source/ (default: found from cwd)")
    g.add_argument("--jobs", type=int, default=None,
                   help="notebooks graded in parallel (default: the cores; with GPUs, 4 per GPU group)")
    options.add_limit_options(g)
    options.add_compile_cache_option(g, None)
    options.add_reference_timeouts_option(g)
    options.add_grader_processes_option(g)
    g.add_argument("--quiet", action="store_true", help="no score table")
    c = sub.add_parser("check", help="run a notebook's visible tests, as the grader will (for students)")
    c.add_argument("notebook", type=Path)
    c.add_argument("--json", dest="json_out", type=Path, help="also write the result as JSON")
    options.add_limit_options(c, ("cell_timeout", "check_timeout"), devices=False)
    options.add_compile_cache_option(c, False, own_only=True)
    k = sub.add_parser("student-kit", help="build what students get: release notebooks, the check "
                                           "library, pinned requirements, a README")
    k.add_argument("--out", type=Path, required=True, help="folder to create (must not exist, or be empty)")
    k.add_argument("--course-root", type=Path)
    st = sub.add_parser("selftest", help="grade reference solutions and known-wrong submissions on "
                                         "this machine's JAX backend and compare with the expected verdicts")
    st.add_argument("--assignment", action="append", help="only this assignment (repeatable)")
    st.add_argument("--course-root", type=Path)
    st.add_argument("--jobs", type=int, default=None,
                    help="notebooks graded in parallel (default: the cores; with GPUs, 4 per GPU group)")
    st.add_argument("--right-answers", action="store_true",
                    help="also grade tests/cases' correct answers in other idioms (each must lose nothing)")
    st.add_argument("--tolerance-of", choices=["gpu", "tpu"],
                    help="compare values with that backend's float32 tolerances (docs/LABS.md) while the code "
                         "runs here: a known-wrong answer that passes would pass on such a lab by tolerance alone")
    options.add_device_options(st, memory_mb=False)
    options.add_compile_cache_option(st, True)
    ex = sub.add_parser("export", help="package an assignment's grader for a grading platform")
    exs = ex.add_subparsers(dest="platform", required=True)
    for platform, out_help in (("gradescope", "the autograder zip to write"),
                               ("prairielearn", "the question folder to create (new or empty)")):
        e = exs.add_parser(platform, help=f"a {platform} package (see docs/INSTRUCTORS.md)")
        e.add_argument("assignment")
        e.add_argument("--out", type=Path, required=True, help=out_help)
        e.add_argument("--course-root", type=Path)
        e.add_argument("--deadline", type=float, default=480.0,
                       help="seconds by which the package always answers (platform limit: 600 by default)")
        options.add_limit_options(e, ("cell_timeout", "check_timeout", "memory_mb"), isolation=False, devices=False,
                                  defaults={"cell_timeout": 20.0})
        if platform == "prairielearn":
            e.add_argument("--image", default="", help="grading image name for info.json "
                                                       "(default: jax-course-grader:<version>)")
    q = sub.add_parser("quickstart", help="make a course directory for a class, outside the checkout "
                                          "(source/, nbgrader_config.py, .gitignore, bin/)")
    q.add_argument("folder", type=Path, help="the new course directory (must not exist, or be empty)")
    q.add_argument("--course-id", default="jax-course", help="nbgrader's course id (default: jax-course)")
    q.add_argument("--exchange", type=Path, help="nbgrader's exchange root (c.Exchange.root), e.g. /srv/nbgrader/exchange")
    q.add_argument("--course-root", type=Path, help="where source/ and nbgrader_config.py are (default: found from cwd)")
    r = sub.add_parser("release", help="regenerate release/ from source/ with nbgrader")
    r.add_argument("--course-root", type=Path)
    r.add_argument("--check", action="store_true", help="only report whether release/ is in sync")
    from .classroom.commands import add_subcommands
    add_subcommands(sub)
    from .lab.hub import add_parser as add_hub_parser
    add_hub_parser(sub)
    return ap


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "release":
        from .course.release import main as release_main
        return release_main(args.course_root, check_only=args.check)
    if args.command == "quickstart":
        from .classroom.quickstart import main as quickstart_main
        return quickstart_main(args.folder, args.course_root, args.course_id, args.exchange)
    if args.command == "export":
        return _export(args)
    if args.command == "lab-hub":
        from .lab.hub import main as hub_main
        return hub_main(args)
    if args.command == "student-kit":
        from .kit.student_kit import main as kit_main
        return kit_main(args.out, args.course_root)
    isolate_jax_for_grader()
    problem = options.option_error(args)
    if problem:
        print(f"autograder: error: {problem}", file=sys.stderr)
        return 2
    if args.command == "selftest":
        from .lab.selftest import main as selftest_main
        limits = options.limits_from(args, compile_cache=options.compile_cache_wanted(args, True))
        return selftest_main(args.assignment, args.course_root, args.jobs, limits,
                             right_answers=args.right_answers, tolerance_of=args.tolerance_of)
    if args.command == "check":
        return _check(args)
    if args.command in ("autograde", "feedback", "report", "similarity"):
        from .classroom.commands import run
        return run(args)
    from .course.layout import Course
    from .grading.grade import grade_many
    from .grading.tables import print_table

    course = Course(args.course_root)
    if not course.source.is_dir():
        from .course.layout import STUDENT_KIT_NOTE
        print(f"autograder: error: no source/ under {course.root}: {STUDENT_KIT_NOTE}", file=sys.stderr)
        return 2
    limits = options.limits_from(args, compile_cache=options.compile_cache_wanted(args, len(args.notebooks) > 1))
    out_path = args.json_out.resolve()
    results = grade_many(args.notebooks, course, args.assignment, limits, args.jobs,
                         extra_hide=[str(out_path.parent)] if out_path.parent != course.root else [],
                         grader_procs=args.grader_processes)
    payload = results[0] if len(results) == 1 else results
    tmp = out_path.with_suffix(out_path.suffix + ".tmp")
    tmp.write_text(json.dumps(payload, indent=1))
    tmp.replace(out_path)
    unusable = [r for r in results if not r["exercises"]]
    for r in unusable:
        print(f"autograder: error: {r['errors'][0]}", file=sys.stderr)
    if not args.quiet:
        print_table([r for r in results if r["exercises"]])
    return 2 if unusable else 0


def _export(args) -> int:
    """`autograder export gradescope|prairielearn`: 0 when written, 2 with a one-line error."""
    from .course.layout import Course
    from .course.notebook import NotebookError
    from .platforms import bundle

    limits = options.limits_from(args)
    course = Course(args.course_root)
    try:
        if args.platform == "gradescope":
            from .platforms.gradescope import build
            out = build(course, args.assignment, args.out, args.deadline, limits)
        else:
            from .platforms.prairielearn import build
            out = build(course, args.assignment, args.out, args.image, args.deadline, limits=limits)
    except (NotebookError, bundle.BundleError) as exc:
        print(f"autograder: error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {out}")
    return 0


def _check(args) -> int:
    """Visible tests only: exit 0 when they all pass, 1 when one fails, 2 for an unusable notebook."""
    from .course.notebook import NotebookError
    from .grading.student_check import check_notebook
    from .grading.tables import print_visible_report

    limits = options.limits_from(args, compile_cache=options.compile_cache_wanted(args, False))
    try:
        result = check_notebook(args.notebook, limits).to_json()
    except NotebookError as exc:
        print(f"autograder: error: {exc}", file=sys.stderr)
        return 2
    if args.json_out:
        args.json_out.write_text(json.dumps(result, indent=1))
    return 0 if print_visible_report(result) else 1


if __name__ == "__main__":
    sys.exit(main())
