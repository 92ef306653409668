"""Do the course's performance verdicts hold while the machine is loaded? (issue 36, item 3)

    .venv/bin/python benchmarks/perf_under_load.py [--mode inprocess|graders|cli|both] [--repeats N]
        [--trees DIR ...] [--no-load] [--all-cases]

For every performance cell of the course (a test cell calling `assert_runtime_within` or
`assert_compile_time_within`), the answers whose verdict is known are graded `--repeats` times:
  - must pass: the reference solution and the correct answers of tests/cases/ (`RIGHT`) that touch
    the cell's exercise;
  - must fail: the known-wrong cases (`CASES`) whose `fails` list holds the cell. By default only
    those whose verdict rests on the timing: a case that also fails the exercise's correctness or
    jit cell fails the performance cell for that reason, whatever the load (`--all-cases` keeps them).

Modes:
  - `inprocess`: the setup cells, the answer and the performance test cell run in one plain Python
    process, as in a notebook kernel (the check times both sides in this process). Fast: use it to
    iterate.
  - `graders`: both graders on a course trimmed to its performance cells: the CLI
    (`grade_many`, the timing worker) and `nbgrader autograde` (the student's kernel); `cli`: the
    CLI's alone (for a change to its timing worker, which nbgrader does not have).

Meanwhile the machine is loaded: one CPU burner per core (processes spinning) and a parallel batch
(`grade_many` of the reference notebooks of 03, in a loop); `--no-load` leaves them out. All of it
is stopped on the way out.

`--trees` grades with each given checkout of the grader (each in a child process with PYTHONPATH
pointing at it), alternating tree by tree within every repeat, so that an old and a new grader see
the same load (e.g. `--trees /tmp/perf-before .`). The course (notebooks, cases) is always this
checkout's.

Reported per cell, tree and grader: the verdicts that differ from the expected one (flips) out of
the gradings, and the measured ratio (student / reference) as min / median / max over the
gradings, beside the cell's budget. The ratio is the one the tree's check decides on (the median of
the paired ratios before issue 36; `performance.verdict_ratio` after); nbgrader's is not seen (it
runs in the student's kernel), only its points.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PERFORMANCE_CHECKS = ("assert_runtime_within", "assert_compile_time_within")
BUDGET = re.compile(r"(assert_runtime_within|assert_compile_time_within)\(\s*(\w+),[^\n]*?\),\s*([0-9.]+)")


# ---------------------------------------------------------------- what is graded
def _course():
    if str(ROOT) not in sys.path:   # after PYTHONPATH: a child imports the grader of its tree
        sys.path.append(str(ROOT))
    from autograder.course import Course
    return Course(ROOT)


def performance_cells(course) -> list[dict]:
    """[{assignment, exercise, cell, budget}] of every performance test cell of the course."""
    out = []
    for a in course.assignment_names():
        for cell in course.assignment(a).test_cells:
            m = BUDGET.search(cell.source)
            if m:
                out.append({"assignment": a, "exercise": cell.exercise or m.group(2), "cell": cell.grade_id,
                            "budget": float(m.group(3)), "check": m.group(1)})
    return out


def subjects(course, cell: dict, all_cases: bool) -> list[dict]:
    """The answers graded on `cell`: [{name, cells, expect}] (expect: True = must pass)."""
    from autograder.lab import selftest
    a, ex = cell["assignment"], cell["exercise"]
    out = [{"name": "reference", "cells": {}, "expect": True}]
    for name, right in selftest.load_right_answers(course, a).items():
        if ex in right["cells"]:
            out.append({"name": name, "cells": right["cells"], "expect": True})
    for name, case in selftest.load_cases(course, a).items():
        fails = set(case["fails"])
        if cell["cell"] not in fails:
            continue
        if not all_cases and fails & {f"{ex}_correctness", f"{ex}_jit"}:
            continue
        out.append({"name": name, "cells": case["cells"], "expect": False})
    return out


def plan(course, all_cases: bool, only: list[str] | None) -> list[dict]:
    cells = [c for c in performance_cells(course) if not only or c["cell"] in only]
    for c in cells:
        c["subjects"] = subjects(course, c, all_cases)
    return cells


# ---------------------------------------------------------------- load
class Load:
    """A CPU burner per core and a parallel batch grading in a loop, stopped on exit."""

    def __init__(self, enabled: bool, env: dict):
        self.enabled, self.env, self.procs = enabled, env, []

    def __enter__(self):
        if not self.enabled:
            return self
        for _ in range(os.cpu_count() or 1):
            self.procs.append(subprocess.Popen([sys.executable, "-c", "while True: pass"],
                                               start_new_session=True))
        self.procs.append(subprocess.Popen([sys.executable, __file__, "--child", "batch"], env=self.env,
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                           start_new_session=True))
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            try:
                os.killpg(p.pid, signal.SIGKILL)   # its own session: the batch's workers go with it
            except ProcessLookupError:
                pass
            p.wait()
        self.procs = []


def _batch_forever():
    """The parallel batch: the reference notebook of 03, two copies, graded again and again."""
    course = _course()
    from autograder.grading.grade import grade_many
    a = "03_control_flow"
    with tempfile.TemporaryDirectory(prefix="perf-load-batch-") as tmp:
        paths = []
        for i in range(2):
            p = Path(tmp) / f"s{i}" / f"{a}.ipynb"
            p.parent.mkdir(parents=True)
            shutil.copy(course.source / a / f"{a}.ipynb", p)
            paths.append(p)
        while True:
            grade_many(paths, course, a, jobs=2)


# ---------------------------------------------------------------- one grading, in a child process
def _ratio_of(result: dict) -> float | None:
    """The ratio the imported tree's check decides on."""
    if not result or not result.get("ok") or not result.get("ratios"):
        return None
    from autograder.checks import performance
    if hasattr(performance, "verdict_ratio"):
        return float(performance.verdict_ratio(result))
    import numpy as np
    return float(np.median(result["ratios"]))


def _child_inprocess(cells: list[dict]) -> list[dict]:
    """Each subject's performance cell in this process, as a notebook kernel runs it."""
    course = _course()
    from autograder.checks import timing
    seen: list = []
    real = timing.time_against

    def recording(*a, **k):
        seen.append(real(*a, **k))
        return seen[-1]

    timing.time_against = recording
    out = []
    for cell in cells:
        asg = course.assignment(cell["assignment"])
        ns: dict = {}
        for c in asg.setup_cells:
            exec(c.source, ns)
        test = next(c for c in asg.test_cells if c.grade_id == cell["cell"])
        solution = next(c for c in asg.solution_cells if c.grade_id == cell["exercise"])
        for s in cell["subjects"]:
            env = dict(ns)
            seen.clear()
            message = ""
            try:
                exec(s["cells"].get(cell["exercise"], solution.source), env)
                exec(test.source, env)
                passed = True
            except BaseException as exc:   # noqa: BLE001 - a failed check, or the answer's own error
                passed, message = False, str(exc)[:400]
            raw = seen[-1] if seen else {}
            out.append({"cell": cell["cell"], "subject": s["name"], "grader": "in-process", "passed": passed,
                        "ratio": _ratio_of(raw), "message": message,
                        "ratios": raw.get("ratios"), "samples": raw.get("samples")})
    return out


def _trimmed_course(course, cells: list[dict], dest: Path):
    """A course of the assignments in `cells`, whose only graded test cells are the performance ones."""
    import nbformat
    keep = {c["cell"] for c in cells}
    shutil.copy(course.root / "nbgrader_config.py", dest / "nbgrader_config.py")
    for a in sorted({c["assignment"] for c in cells}):
        shutil.copytree(course.source / a, dest / "source" / a)
        path = dest / "source" / a / f"{a}.ipynb"
        nb = nbformat.read(str(path), as_version=4)
        nb.cells = [c for c in nb.cells if not (c.metadata.get("nbgrader", {}).get("grade")
                                                 and not c.metadata["nbgrader"].get("solution")
                                                 and c.metadata["nbgrader"].get("grade_id") not in keep)]
        nbformat.write(nb, str(path))
    from autograder.course import Course
    return Course(dest)


def _pack(cells: list[dict]) -> list[dict]:
    """Notebooks of one assignment: subjects of different exercises share a notebook."""
    notebooks: list[dict] = []   # {cells: {exercise: source}, who: {cell: subject}}
    for cell in cells:
        for i, s in enumerate(cell["subjects"]):
            while len(notebooks) <= i:
                notebooks.append({"cells": {}, "who": {}})
            notebooks[i]["cells"].update(s["cells"])
            notebooks[i]["who"][cell["cell"]] = s["name"]
    return notebooks


def _child_graders(cells: list[dict], with_nbgrader: bool = True) -> list[dict]:
    """Both graders, once, on the subjects of `cells`: the CLI's `grade_many` and `nbgrader autograde`
    (the CLI alone without `with_nbgrader`)."""
    course = _course()
    import nbformat
    from autograder.classroom import nbgrader_run
    from autograder.grading import timing as grading_timing
    from autograder.grading.grade import grade_many
    from autograder.lab.selftest import notebook_with_cells
    from autograder.sandbox.process import Limits

    seen: list = []   # (exercise, its source as replayed, result): the CLI's ratios, from its timing worker
    real = grading_timing.TimingWorker.time_against

    def recording(self, solutions, name, *a, **k):
        result = real(self, solutions, name, *a, **k)
        seen.append((name, dict(solutions).get(name), result))
        return result

    grading_timing.TimingWorker.time_against = recording
    out = []
    with tempfile.TemporaryDirectory(prefix="perf-load-") as tmp:
        tmp = Path(tmp)
        (tmp / "course").mkdir()
        trimmed = _trimmed_course(course, cells, tmp / "course")
        for a in sorted({c["assignment"] for c in cells}):
            mine = [c for c in cells if c["assignment"] == a]
            source = trimmed.source / a / f"{a}.ipynb"
            paths, who = {}, {}
            for i, nb in enumerate(_pack(mine)):
                student = f"nb{i}"
                path = tmp / "in" / a / student / f"{a}.ipynb"
                path.parent.mkdir(parents=True)
                nbformat.write(notebook_with_cells(source, nb["cells"]), str(path))
                paths[student], who[student] = path, nb["who"]
            seen.clear()
            results = dict(zip(paths, grade_many(list(paths.values()), trimmed, a, Limits(compile_cache=True), jobs=2)))
            solution_src = {c.grade_id: c.source for c in trimmed.assignment(a).solution_cells}
            if with_nbgrader:
                work = nbgrader_run.prepare(trimmed, tmp / "nbgrader", a, paths)
                nbgrader_run.generate(work, a)
                run = nbgrader_run.run_nbgrader_autograde(work, a)
                book = nbgrader_run.read_gradebook(work, a) if run.returncode == 0 else {}
            for student, cellmap in who.items():
                checks = {c["name"]: c for e in results[student].get("exercises", {}).values() for c in e["checks"]}
                for name, subject in cellmap.items():
                    cell = next(c for c in mine if c["cell"] == name)
                    s = next(x for x in cell["subjects"] if x["name"] == subject)
                    src = s["cells"].get(cell["exercise"], solution_src[cell["exercise"]])
                    ratio = next((_ratio_of(r) for ex, got, r in seen if ex == cell["exercise"] and got == src), None)
                    c = checks.get(name)
                    out.append({"cell": name, "subject": subject, "grader": "cli", "passed": bool(c and c["passed"]),
                                "ratio": ratio, "message": (c or {}).get("message", "no result")[:400]})
                    if not with_nbgrader:
                        continue
                    points = book.get(student, {}).get(name)
                    out.append({"cell": name, "subject": subject, "grader": "nbgrader",
                                "passed": points is not None and points > 0, "ratio": None,
                                "message": "" if points is not None else f"no grade: {run.stderr[-300:]}"})
    return out


# ---------------------------------------------------------------- the driver
def _run_child(tree: Path, mode: str, cells: list[dict], timeout: float) -> list[dict]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    r = subprocess.run([sys.executable, __file__, "--child", mode], input=json.dumps(cells), env=env,
                       capture_output=True, text=True, timeout=timeout, cwd=str(ROOT))
    if r.returncode != 0:
        raise SystemExit(f"{mode} with {tree} failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def report(cells: list[dict], rows: list[dict], trees: list[str]) -> str:
    lines = ["| cell | budget | tree | grader | answers | flips / gradings | ratio of must-pass (min / median / max) "
             "| ratio of must-fail (min / median / max) |", "|---|---|---|---|---|---|---|---|"]
    total = {}
    for cell in cells:
        expect = {s["name"]: s["expect"] for s in cell["subjects"]}
        for tree in trees:
            for grader in ("in-process", "cli", "nbgrader"):
                mine = [r for r in rows if r["cell"] == cell["cell"] and r["tree"] == tree and r["grader"] == grader]
                if not mine:
                    continue
                flips = [r for r in mine if r["passed"] != expect[r["subject"]]]
                total[(tree, grader)] = [a + b for a, b in zip(total.get((tree, grader), (0, 0)), (len(flips), len(mine)))]

                def spread(good):
                    xs = sorted(r["ratio"] for r in mine if r["ratio"] is not None and expect[r["subject"]] == good)
                    return f"{xs[0]:.2f} / {xs[len(xs) // 2]:.2f} / {xs[-1]:.2f}" if xs else "-"

                names = len({r["subject"] for r in mine})
                lines.append(f"| {cell['cell']} | {cell['budget']:g}x | {tree} | {grader} | {names} | "
                             f"{len(flips)} / {len(mine)} | {spread(True)} | {spread(False)} |")
                for f in flips:
                    lines.append(f"|  | | | | flip: {f['subject']} | ratio {f['ratio']} | "
                                 f"{f['message'][:160].replace('|', '/').replace(chr(10), ' ')} | |")
    lines.append("")
    lines += [f"- {tree}, {grader}: {n} flips in {m} gradings" for (tree, grader), (n, m) in total.items()]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=("inprocess", "graders", "cli", "both"), default="inprocess",
                    help="cli: the CLI's grader alone (graders: it and nbgrader autograde)")
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--trees", nargs="*", default=[str(ROOT)], help="grader checkouts to compare (default: this one)")
    ap.add_argument("--no-load", action="store_true", help="no burners and no parallel batch")
    ap.add_argument("--all-cases", action="store_true", help="also the wrong answers that fail for another reason")
    ap.add_argument("--cells", nargs="*", help="only these performance cells (grade_ids)")
    ap.add_argument("--json", help="also write every grading here")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child == "batch":
        return _batch_forever()
    if args.child:
        cells = json.loads(sys.stdin.read())
        rows = (_child_inprocess(cells) if args.child == "inprocess"
                else _child_graders(cells, with_nbgrader=args.child == "graders"))
        print(json.dumps(rows))
        return
    course = _course()
    cells = plan(course, args.all_cases, args.cells)
    trees = [str(Path(t).resolve()) for t in args.trees]
    modes = ("inprocess", "graders") if args.mode == "both" else (args.mode,)
    rows: list[dict] = []
    started = time.time()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))   # a `timeout` still stops the burners
    with Load(not args.no_load, {**os.environ, "PYTHONPATH": trees[-1]}):
        time.sleep(0 if args.no_load else 3)
        for r in range(args.repeats):
            for mode in modes:
                for tree in (trees if r % 2 == 0 else trees[::-1]):
                    for row in _run_child(Path(tree), mode, cells, timeout=1800):
                        rows.append({**row, "tree": tree, "repeat": r})
            print(f"repeat {r + 1}/{args.repeats} done, {time.time() - started:.0f} s", file=sys.stderr, flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    print(report(cells, rows, trees))
    load = "unloaded" if args.no_load else f"{os.cpu_count()} burners and a parallel batch"
    print(f"\n{args.repeats} repeats, {load}, {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
