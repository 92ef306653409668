"""The batch compile cache of issue 29: notebooks per minute with it and without it, in the same run.

    .venv/bin/python benchmarks/compile_cache.py [--per-assignment 5] [--class-size 100]
                                                 [--class-assignment 03_control_flow] [--jobs 2]
                                                 [--rounds 1] [--json FILE]

Two batches, each graded by `grade_many` (what `autograder grade` and `autograde` call) in a fresh
Python process, with `--no-compile-cache` and with the cache, alternately (`--rounds` times):
1. the course batch: `--per-assignment` notebooks of each of the eight assignments (40 by default),
   each a reference with one exercise replaced by a correct answer in another idiom
   (tests/cases' RIGHT), so that the students do not all write the reference;
2. a class of `--class-size` students of one assignment: 60% correct answers in other idioms, 30%
   known-wrong cases (tests/cases' CASES), 6% whose solution cell crashes the worker, 4% whose
   cell never ends (each costs its full cell timeout, 15 s here, with or without the cache).
Prints seconds, notebooks per minute, the ratio (cache / no cache, above 1: faster), the share of
the workers' compile lookups that hit, the time to build each assignment's cache, and how many
checks disagree between the two runs (must be 0).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Appended, not put first: class_versions.py imports this module in its children too, which must import
# their own side's package (their PYTHONPATH) rather than this checkout's.
for _folder in (ROOT, ROOT / "tests"):
    if str(_folder) not in sys.path:
        sys.path.append(str(_folder))

HOSTILE = {"crash": "import os\nos._exit(1)\n", "hang": "while True:\n    pass\n"}


def student_kind(i: int, mix: bool) -> str:
    """What student `i` of the class hands in: "right", "wrong", "crash" or "hang" (30/15/3/2 in 50)."""
    slot = i % 50
    if not mix or slot < 30:
        return "right"
    return "wrong" if slot < 45 else "crash" if slot < 48 else "hang"


def class_notebooks(folder: Path, assignment: str, n: int, mix: bool, first_student: int = 0) -> list[str]:
    """`n` student notebooks of `assignment` under `folder` (see the module's docstring), students
    `first_student` on (a class over several assignments numbers its students across them, so that
    the mix of kinds holds for the whole class however few each assignment has)."""
    import nbformat

    from autograder.course import Course
    from autograder.lab import selftest
    from support.notebooks import submission_from_source
    course = Course(ROOT)
    right = list(selftest.load_right_answers(course, assignment).values())
    wrong = list(selftest.load_cases(course, assignment).values())
    first = course.assignment(assignment).exercises[0]
    paths = []
    for i in range(first_student, first_student + n):
        kind = student_kind(i, mix)
        if kind == "right":
            cells = right[i % len(right)]["cells"]
        elif kind == "wrong":
            cells = wrong[i % len(wrong)]["cells"]
        else:
            cells = {first: HOSTILE[kind]}
        path = folder / f"{assignment}-s{i:03d}" / f"{assignment}.ipynb"
        path.parent.mkdir(parents=True)
        nbformat.write(submission_from_source(course, assignment, cells), str(path))
        paths.append(str(path))
    return paths


def run_batch(paths: list[str], jobs: int, cache: bool, cell_timeout: float) -> dict:
    """In this (fresh) process: grade `paths` with grade_many; seconds, results, cache counts."""
    import dataclasses

    from autograder.course import Course
    from autograder.grading.batch_cache import BatchCache
    from autograder.grading.grade import grade_many
    from autograder.grading.startup import isolate_jax_for_grader
    from autograder.sandbox.process import Limits
    isolate_jax_for_grader()
    course = Course(ROOT)
    limits = Limits(cell_timeout=cell_timeout, check_timeout=cell_timeout, compile_cache=cache)
    batch = BatchCache(limits, course.hidden_paths()) if cache else None
    started = time.perf_counter()
    first = []
    results = grade_many(paths, course, None, dataclasses.replace(limits), jobs, cache=batch,
                         on_done=lambda r: first.append(time.perf_counter() - started) if not first else None)
    seconds = time.perf_counter() - started
    summary = batch.summary() if batch else {}
    if batch:
        batch.close()
    verdicts = {r["notebook"]: {c["name"]: c["passed"] for e in r["exercises"].values() for c in e["checks"]}
                for r in results}
    return {"seconds": seconds, "first_s": first[0] if first else None, "verdicts": verdicts, "cache": summary}


def in_fresh_process(paths, jobs, cache, cell_timeout) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump({"paths": paths, "jobs": jobs, "cache": cache, "cell_timeout": cell_timeout}, fh)
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    r = subprocess.run([sys.executable, __file__, "--child", fh.name], capture_output=True, text=True, env=env)
    os.unlink(fh.name)
    if r.returncode != 0:
        raise SystemExit(f"the batch failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.splitlines()[-1])


def compare(label: str, paths: list[str], jobs: int, rounds: int, cell_timeout: float) -> dict:
    runs = {"off": [], "on": []}
    for _ in range(rounds):
        for mode in ("off", "on"):
            runs[mode].append(in_fresh_process(paths, jobs, mode == "on", cell_timeout))
    best = {mode: min(rs, key=lambda r: r["seconds"]) for mode, rs in runs.items()}
    n = len(paths)
    disagree = sum(best["off"]["verdicts"][p].get(c) != v
                   for p, checks in best["on"]["verdicts"].items() for c, v in checks.items())
    cache = best["on"]["cache"]
    builds = {a: b["seconds"] for a, b in cache.get("built", {}).items()}
    row = {"batch": label, "notebooks": n, "jobs": jobs,
           "off_s": round(best["off"]["seconds"], 1), "on_s": round(best["on"]["seconds"], 1),
           "off_per_min": round(n / best["off"]["seconds"] * 60, 1),
           "on_per_min": round(n / best["on"]["seconds"] * 60, 1),
           "ratio": round(best["off"]["seconds"] / best["on"]["seconds"], 2),
           "first_grade_off_s": round(best["off"]["first_s"] or 0, 1),
           "first_grade_on_s": round(best["on"]["first_s"] or 0, 1),
           "hit_share": cache.get("hit_share"), "lookups": cache.get("lookups"),
           "shared_hits": cache.get("shared_hits"), "private_hits": cache.get("private_hits"),
           "misses": cache.get("misses"), "rejected": cache.get("rejected"),
           "build_s": builds, "disagreements": disagree}
    print(f"{label}: {n} notebooks at --jobs {jobs}: no cache {row['off_s']} s ({row['off_per_min']}/min), "
          f"cache {row['on_s']} s ({row['on_per_min']}/min): {row['ratio']}x; lookups {row['lookups']}, "
          f"hits {row['hit_share']:.1%} (shared {row['shared_hits']}, own {row['private_hits']}), "
          f"builds {builds}; checks that disagree: {disagree}", flush=True)
    return row


def batch_options(ap, rounds: int):
    """The options every batch benchmark shares: --jobs, --rounds, --cell-timeout, --json, --child."""
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=rounds)
    ap.add_argument("--cell-timeout", type=float, default=15.0)
    ap.add_argument("--json")
    ap.add_argument("--child")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per-assignment", type=int, default=5)
    ap.add_argument("--class-size", type=int, default=100)
    ap.add_argument("--class-assignment", default="03_control_flow")
    batch_options(ap, rounds=1)
    args = ap.parse_args()
    if args.child:
        spec = json.loads(Path(args.child).read_text())
        out = run_batch(spec["paths"], spec["jobs"], spec["cache"], spec["cell_timeout"])
        print(json.dumps(out))
        return
    from autograder.course import Course
    names = Course(ROOT).assignment_names()
    rows = []
    print(f"cores: {os.cpu_count()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="jaxcourse-cc-") as tmp:
        if args.per_assignment:
            paths = [p for a in names for p in class_notebooks(Path(tmp) / "course", a, args.per_assignment, False)]
            rows.append(compare("course batch", paths, args.jobs, args.rounds, args.cell_timeout))
        if args.class_size:
            paths = class_notebooks(Path(tmp) / "class", args.class_assignment, args.class_size, True)
            rows.append(compare(f"class of {args.class_assignment}", paths, args.jobs, args.rounds,
                                args.cell_timeout))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
