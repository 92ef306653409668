"""`autograder selftest [--assignment A]`: does grading give the expected verdicts on this machine?

What a lab admin runs on a new GPU/TPU image (docs/LABS.md). On whatever backend JAX finds for the
student's worker, it grades every assignment's reference solutions (every check must pass) and its
known-wrong submissions (each must fail exactly the graded cells it lists), then prints one row per
assignment: backend, device kind and count, verdicts as expected, seconds. Exit 1 on any unexpected
verdict, 2 when an assignment cannot be graded at all.

The known-wrong submissions are the course's own test data, `tests/cases/<assignment>.py` under the
course root (an instructor's checkout): `CASES = {name: {"cells": {exercise: source}, "fails":
[grade_id, ...]}}`, and beside them `RIGHT = {name: {"why": ..., "cells": {...}}}`, correct
answers written in other idioms, which must fail nothing. A case whose verdict depends on the device count (07's psum-for-pmean mistakes
are right on one device) adds `"fails_on_one_device": [...]`, the verdict where only one device exists.

Cases are packed into few notebooks (`pack_cases`): one exercise's cell never changes another
exercise's score, so cases that touch different exercises share a notebook, and the notebook's failed
cells must be exactly the union of its cases' expected failures. tests/test_course.py packs them the
same way.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..course.layout import Course
from ..course.notebook import TEST_GRADE_ID, NotebookError, nbformat, nbgrader_meta
from ..sandbox.process import Limits

REFERENCE = "reference"


# ---------------------------------------------------------------- the known-wrong cases
def cases_path(course: Course, assignment: str) -> Path:
    return course.root / "tests" / "cases" / f"{assignment}.py"


def _case_file(course: Course, assignment: str) -> dict:
    path = cases_path(course, assignment)
    if not path.exists():
        return {}
    ns: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), ns)
    return ns


def load_cases(course: Course, assignment: str) -> dict:
    """`CASES` of tests/cases/<assignment>.py under the course root ({} when there is none)."""
    return _case_file(course, assignment).get("CASES", {})


def load_right_answers(course: Course, assignment: str) -> dict:
    """`RIGHT` of the same file: correct answers in other idioms, as cases that fail nothing."""
    right = _case_file(course, assignment).get("RIGHT", {})
    return {name: {**answer, "fails": []} for name, answer in right.items()}


def touched(case: dict) -> set:
    """Exercises a case changes: the cells it replaces and those whose tests it fails (an exercise
    that calls another exercise's function fails with it)."""
    return set(case["cells"]) | {TEST_GRADE_ID.match(f).group("exercise") for f in _all_fails(case)}


def _all_fails(case: dict) -> set:
    return set(case["fails"]) | set(case.get("fails_on_one_device", []))


def expected_fails(case: dict, devices: int) -> set:
    """The graded cells this case must fail where `devices` devices exist."""
    if devices == 1 and "fails_on_one_device" in case:
        return set(case["fails_on_one_device"])
    return set(case["fails"])


def pack_cases(cases: dict) -> list[list[str]]:
    """Group cases into rounds in which no two cases touch the same exercise (~5 notebooks per
    assignment instead of ~20; checks the isolation between exercises on the way)."""
    rounds: list[tuple[set, list]] = []
    for name, case in cases.items():
        mine = touched(case)
        for used, names in rounds:
            if not used & mine:
                used |= mine
                names.append(name)
                break
        else:
            rounds.append((set(mine), [name]))
    return [names for _, names in rounds]


def notebook_with_cells(path: Path, replacements: dict[str, str] | None = None):
    """The notebook at `path` with some solution cells replaced (exercise id -> cell source)."""
    nb = nbformat.read(str(path), as_version=4)
    for cell in nb.cells:
        gid = nbgrader_meta(cell).get("grade_id")
        if replacements and gid in replacements:
            cell.source = replacements[gid]
    return nb


def submissions(course: Course, assignment: str, cases: dict) -> tuple[dict, dict]:
    """The notebooks to grade: the reference and one per round of packed cases.
    Returns ({student name: notebook}, {case name: the student name of its round})."""
    source = course.source / assignment / f"{assignment}.ipynb"
    subs = {REFERENCE: notebook_with_cells(source)}
    rounds = {}
    for i, names in enumerate(pack_cases(cases)):
        cells = {ex: src for n in names for ex, src in cases[n]["cells"].items()}
        subs[f"round{i}"] = notebook_with_cells(source, cells)
        rounds.update({n: f"round{i}" for n in names})
    return subs, rounds


# ---------------------------------------------------------------- verdicts
def _failed(result: dict, exercises=None) -> dict:
    return {c["name"]: c["message"] for ex, e in result["exercises"].items()
            if exercises is None or ex in exercises for c in e["checks"] if not c["passed"]}


@dataclass
class Verdict:
    case: str                 # "reference" or a case name
    as_expected: bool
    detail: str = ""


def compare(results: dict, cases: dict, rounds: dict, devices: int) -> list[Verdict]:
    """One verdict for the reference and one per case, from graded results (student name -> JSON).

    A case is as expected when its exercises fail exactly its expected cells; a round's failure
    outside every case's exercises (one case hurting another exercise) counts against its cases."""
    verdicts = []
    ref = results.get(REFERENCE)
    if ref is not None:
        failed = _failed(ref)
        bad = ref["errors"] or failed or ref["max_score"] <= 0
        verdicts.append(Verdict(REFERENCE, not bad, _describe(set(), failed, ref["errors"])))
    stray_by_round: dict[str, dict] = {}
    for round_name in set(rounds.values()):
        mine = [n for n, r in rounds.items() if r == round_name]
        covered = set().union(*(touched(cases[n]) for n in mine))
        result = results[round_name]
        stray_by_round[round_name] = {n: m for n, m in _failed(result).items()
                                      if TEST_GRADE_ID.match(n) is None
                                      or TEST_GRADE_ID.match(n).group("exercise") not in covered}
    for name, case in cases.items():
        result = results[rounds[name]]
        expected = expected_fails(case, devices)
        failed = _failed(result, touched(case))
        stray = stray_by_round[rounds[name]]
        ok = set(failed) == expected and not stray and not result["errors"]
        verdicts.append(Verdict(name, ok, "" if ok else _describe(expected, {**failed, **stray},
                                                                  result["errors"])))
    return verdicts


def _describe(expected: set, failed: dict, errors: list) -> str:
    lines = []
    for cell in sorted(expected - set(failed)):
        lines.append(f"{cell}: passed, expected to fail")
    for cell in sorted(set(failed) - expected):
        first = (failed[cell] or "").strip().splitlines()[:3]
        lines.append(f"{cell}: failed, expected to pass: " + " / ".join(first))
    lines += [f"notebook error: {e}" for e in errors]
    return "\n".join(lines)


# ---------------------------------------------------------------- devices
def worker_environment(devices_per_worker: int = 1) -> dict:
    """The environment the student's worker gets for JAX: its platforms (the grader's own JAX is
    pinned to the CPU by the CLI), XLA_FLAGS, and one worker's share of the GPUs (its
    CUDA_VISIBLE_DEVICES decides how many devices the worker sees, and 07's verdicts with it)."""
    from ..sandbox import devices
    env = dict(os.environ)
    platforms = devices.worker_platforms()
    env.pop("JAX_PLATFORMS", None)
    if platforms:
        env["JAX_PLATFORMS"] = platforms
    plan = devices.make_plan(1, devices_per_worker)
    env.update(plan.environment(0 if plan.groups else None))
    return env


_DEVICE_PROBE = """
import json, sys
ns = {"__name__": "__main__"}
for source in json.loads(sys.stdin.read()):
    exec(compile(source, "<setup>", "exec"), ns)
import jax
devices = jax.devices()
print(json.dumps({"backend": jax.default_backend(), "kind": devices[0].device_kind,
                  "count": len(devices), "jax": jax.__version__}))
"""


def probe_devices(course: Course, assignment: str, devices_per_worker: int = 1) -> dict:
    """Backend, device kind and count as the assignment's worker sees them: after its setup cells
    (07's sets XLA_FLAGS for 8 simulated CPU devices where no accelerator is present)."""
    setup = [c.source for c in course.assignment(assignment).setup_cells]
    r = subprocess.run([sys.executable, "-c", _DEVICE_PROBE], input=json.dumps(setup), text=True,
                       capture_output=True, env=worker_environment(devices_per_worker), timeout=300)
    if r.returncode != 0:
        tail = (r.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"JAX could not start on this machine: {tail}")
    return json.loads(r.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------- one assignment, then all
@dataclass
class AssignmentOutcome:
    assignment: str
    backend: str = "?"
    device_kind: str = "?"
    devices: int = 0
    jax: str = ""
    verdicts: list[Verdict] = field(default_factory=list)
    seconds: float = 0.0
    error: str = ""

    @property
    def passed(self) -> bool:
        return not self.error and bool(self.verdicts) and all(v.as_expected for v in self.verdicts)


def check_assignment(course: Course, assignment: str, limits=None, jobs: int | None = None,
                     workdir: Path | None = None, right_answers: bool = False) -> AssignmentOutcome:
    """Grade the reference and the known-wrong cases (with `right_answers`, the correct answers
    in other idioms too, packed into the same notebooks) and compare with the expected verdicts."""
    from ..grading.grade import grade_many

    out = AssignmentOutcome(assignment)
    started = time.perf_counter()
    try:
        info = probe_devices(course, assignment, (limits.devices_per_worker if limits else 1))
        out.backend, out.device_kind, out.devices = info["backend"], info["kind"], info["count"]
        out.jax = info["jax"]
        # jobs None: grade_many's default (devices.default_jobs); workers sharing a GPU split its
        # memory (sandbox/devices.py), so several may run on one
        cases = load_cases(course, assignment)
        if right_answers:
            cases.update(load_right_answers(course, assignment))
        subs, rounds = submissions(course, assignment, cases)
        with tempfile.TemporaryDirectory(prefix="jaxcourse-selftest-", dir=workdir) as tmp:
            paths = {}
            for student, nb in subs.items():
                path = Path(tmp) / student / f"{assignment}.ipynb"
                path.parent.mkdir()
                nbformat.write(nb, str(path))
                paths[student] = path
            graded = grade_many(list(paths.values()), course, assignment, limits, jobs)
        results = dict(zip(paths, graded))
        seen = {r["backend"] for r in graded}
        if seen != {out.backend}:
            out.error = f"graded on {sorted(seen)} but JAX reports {out.backend}"
        out.verdicts = compare(results, cases, rounds, out.devices)
    except (NotebookError, RuntimeError, OSError, KeyError, SyntaxError) as exc:
        out.error = f"{type(exc).__name__}: {exc}"
    out.seconds = round(time.perf_counter() - started, 1)
    return out


def print_outcomes(outcomes: list[AssignmentOutcome], console=None):
    from rich.table import Table

    from ..grading.tables import stdout_console
    console = console or stdout_console()
    versions = sorted({o.jax for o in outcomes if o.jax})
    table = Table(title=f"autograder selftest (jax {', '.join(versions) or '?'})")
    for col, justify in (("assignment", "left"), ("backend", "left"), ("device kind", "left"),
                         ("devices", "right"), ("as expected", "right"), ("seconds", "right")):
        table.add_column(col, justify=justify, no_wrap=True)
    for o in outcomes:
        good = sum(v.as_expected for v in o.verdicts)
        mark = "" if o.passed else "  FAIL"
        table.add_row(o.assignment, o.backend, o.device_kind, str(o.devices),
                      f"{good}/{len(o.verdicts)}{mark}", f"{o.seconds:.1f}")
    console.print(table)
    for o in outcomes:
        if o.error:
            console.print(f"{o.assignment}: {o.error}", markup=False, highlight=False, soft_wrap=True)
        for v in o.verdicts:
            if not v.as_expected:
                console.print(f"{o.assignment} / {v.case}: unexpected verdict\n  "
                              + v.detail.replace("\n", "\n  "), markup=False, highlight=False, soft_wrap=True)
    total = sum(len(o.verdicts) for o in outcomes)
    good = sum(v.as_expected for o in outcomes for v in o.verdicts)
    ok = all(o.passed for o in outcomes)
    console.print(f"{'PASS' if ok else 'FAIL'}: {good}/{total} verdicts as expected in "
                  f"{sum(o.seconds for o in outcomes):.0f} s", markup=False, highlight=False)


def main(assignments: list[str] | None = None, course_root: Path | None = None, jobs: int | None = None,
         limits=None, right_answers: bool = False, tolerance_of: str | None = None) -> int:
    """`tolerance_of` ("gpu", "tpu"): values are compared with that backend's tolerances while the
    code runs here (`check.TOLERANCE_OF_VARIABLE`, in the environment of this process and of any grader
    process it starts)."""
    course = Course(course_root)
    known = course.assignment_names()
    if not known:
        print(f"autograder: error: no source/ assignments under {course.root}", file=sys.stderr)
        return 2
    unknown = [a for a in assignments or [] if a not in known]
    if unknown:
        print(f"autograder: error: unknown assignment {unknown[0]!r} (known: {', '.join(known)})",
              file=sys.stderr)
        return 2
    if not cases_path(course, (assignments or known)[0]).parent.is_dir():
        print(f"autograder: error: no tests/cases/ under {course.root}: the self-test needs the "
              f"course's known-wrong submissions (run it from an instructor checkout)", file=sys.stderr)
        return 2
    limits = limits or Limits(compile_cache=True)   # a batch: the cache is on unless switched off
    from ..checks.check import TOLERANCE_OF_VARIABLE
    saved = os.environ.pop(TOLERANCE_OF_VARIABLE, None)
    if tolerance_of:
        os.environ[TOLERANCE_OF_VARIABLE] = tolerance_of
    try:
        outcomes = [check_assignment(course, a, limits, jobs, right_answers=right_answers)
                    for a in assignments or known]
    finally:
        os.environ.pop(TOLERANCE_OF_VARIABLE, None)
        if saved is not None:
            os.environ[TOLERANCE_OF_VARIABLE] = saved
    print_outcomes(outcomes)
    if any(o.error and not o.verdicts for o in outcomes):
        return 2
    return 0 if all(o.passed for o in outcomes) else 1
