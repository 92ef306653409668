"""nbgrader commands, and a student's work, under one uid: `python as_user.py UID STEPS_JSON`.

STEPS_JSON is a list of steps run in order, in the working directory (a student's home, or the
instructor's course directory): `["nbgrader", "fetch_assignment", "toy"]` runs that nbgrader command
as the `nbgrader` executable does (`NbGraderApp.launch_instance`, which runs the subcommand's app);
`["solve", "toy/toy.ipynb", {grade_id: source}]` writes a student's answers into their copy of the
notebook; `["peek", [path, ...]]` prints one line `peek: {path: what}` saying what this uid can see
of each path ("denied", "missing", "readable" for a file, or a folder's listing). The first step
that fails ends the run with its exit status, after a line `as_user: step N failed: ...` on stderr.

Why a launcher: a class on one host has one Unix account per student, and nbgrader's exchange
relies on it (the inbound folder is write-only for students, released feedback is named by a hash
only its owner can compute, each student's cache is in their own home). To test those permissions
the students must not be root, but this machine has no accounts for them, and its Python lives
under /root (mode 0700), which another uid cannot even execute. So this starts as root, imports
nbgrader's apps while it still can read them, and drops to the student's uid and gid for good (no
supplementary groups) before the first step. UID equal to the caller's own keeps the caller's
identity (the instructor, and every student when the tests do not run as root).

nbformat is imported the grader's way (`autograder.course.notebook`: without the `rfc3987_syntax`
IRI checker, which no notebook schema uses and which costs about 1.2 s of CPU per start); each
nbgrader command here otherwise costs about 2 s of CPU before it does anything.
"""
from __future__ import annotations

import json
import os
import sys
import traceback


def _preload():
    """Everything the steps import, read before the uid can no longer read it."""
    import importlib
    from autograder.course.notebook import nbformat     # first: it keeps rfc3987_syntax out of jsonschema
    for name in ("base64", "glob", "secrets", "shutil", "logging.config",
                 "encodings.idna", "encodings.unicode_escape",   # looked up by name, lazily
                 "jupyter_core.migrate",                          # imported by the first app started
                 "nbgrader.apps.nbgraderapp",                     # imports every nbgrader app
                 *(f"nbgrader.exchange.default.{m}" for m in ("collect", "fetch_assignment", "fetch_feedback",
                                                              "list", "release_assignment", "release_feedback",
                                                              "submit"))):
        importlib.import_module(name)
    nbformat.validate(nbformat.v4.new_notebook())  # builds and caches the schema's validator


def _nbgrader(argv: list[str]) -> int:
    """One `nbgrader ARGV` in this process; its exit status."""
    from nbgrader.apps.nbgraderapp import NbGraderApp
    from traitlets.config import SingletonConfigurable
    try:
        NbGraderApp.launch_instance(argv)
        status = 0
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except Exception:  # noqa: BLE001  (the nbgrader executable would print it and exit 1)
        traceback.print_exc()
        status = 1
    # forget the app singletons, so the next command starts from a fresh NbGraderApp
    for cls in [NbGraderApp, *_subclasses(SingletonConfigurable)]:
        cls.clear_instance()
    return status


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _solve(path: str, answers: dict[str, str]) -> int:
    import nbformat
    nb = nbformat.read(path, as_version=4)
    missing = set(answers)
    for cell in nb.cells:
        gid = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if gid in answers:
            cell.source = answers[gid]
            missing.discard(gid)
    if missing:
        print(f"as_user: {path} has no cell {sorted(missing)}", file=sys.stderr)
        return 1
    nbformat.write(nb, path)
    return 0


def _peek(paths: list[str]) -> int:
    seen = {}
    for path in paths:
        try:
            if os.path.isdir(path):
                seen[path] = sorted(os.listdir(path))
            else:
                with open(path, "rb"):
                    seen[path] = "readable"
        except FileNotFoundError:
            seen[path] = "missing"
        except PermissionError:
            seen[path] = "denied"
    print("peek: " + json.dumps(seen))
    return 0


STEPS = {"nbgrader": lambda step: _nbgrader(step[1:]), "solve": lambda step: _solve(step[1], step[2]),
         "peek": lambda step: _peek(step[1])}


def main(argv: list[str]) -> int:
    if len(argv) != 3 or not argv[1].isdigit():
        print("usage: python as_user.py UID STEPS_JSON", file=sys.stderr)
        return 2
    uid, steps = int(argv[1]), json.loads(argv[2])
    _preload()
    if uid != os.getuid():
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
    for number, step in enumerate(steps, 1):
        status = STEPS[step[0]](step)
        if status:
            print(f"as_user: step {number} failed: {json.dumps(step)[:200]} (exit {status})",
                  file=sys.stderr)
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
