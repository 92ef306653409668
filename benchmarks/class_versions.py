"""Issue 36's class benchmark: one class graded by this checkout and by an earlier revision, alternated
in the same run, and the 1,000-student model recomputed from it.

    .venv/bin/python benchmarks/class_versions.py [REV] [--class-size 100] [--assignment 03_control_flow|all]
                                                  [--jobs 2] [--rounds 2] [--cell-timeout 15] [--json FILE]

REV (b4b601d by default, the last revision before the trust issue) is checked out into a scratch
worktree with an interpreter that finds its package first (ab_versions.py's way). The class is
compile_cache.py's, built once from this checkout's tests/cases: 60% correct answers in other idioms,
30% known-wrong, 6% whose solution cell crashes the worker, 4% whose cell never ends. Each side grades
it as `autograder autograde` does by default, `grade_many` with the batch compile cache, in a
fresh process, against its own course (its own source notebooks and tests), at `--jobs`; the sides
take turns going first. Prints each side's best time, notebooks per minute, the ratio (REV / this
checkout: above 1, this checkout is faster), every notebook whose score differs (with the cells),
each kind of student's notebook seconds on both sides (right, wrong, crash, hang: where a difference
comes from), and the model: notebooks per core-minute times 16 cores, minutes for 8,000 notebooks.

`--prebuild`: each side first builds every assignment's compile cache (the builder that grades the
references), timed apart, then grades the class; the ratio is then of the grading alone, and the model
charges each build once, as a class of 1,000 pays it: (builds + cores x grading seconds x 8,000 / n) /
16 cores. Without it, the builds fall inside the timed batch, as `autograder autograde` runs them, and the
model charges them once per `--class-size` students of each assignment (eight builds for 96 notebooks
with `--class-size 12`, and the notebooks that start while their assignment's cache is being built are
graded without it: the model then prices what a small class pays, not a large one).

`--assignment all`: a class of `--class-size` students of each of the eight assignments, graded as one
batch, so that the model's 8,000 notebooks cost what the course's mix costs (with 03 alone, every
notebook is priced as 03's, which has two of the course's three performance checks). Students are
numbered across the assignments, so the class keeps the mix of kinds above even with a dozen per
assignment (where the kinds fall differs by assignment).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLASS_NOTEBOOKS = 8000        # 1,000 students, eight assignments
SERVER_CORES = 16


def run_child(spec_file: str) -> None:
    """In a fresh process of one side: grade the class against that side's course; print one JSON line."""
    import time
    spec = json.loads(Path(spec_file).read_text())
    from autograder.course import Course
    from autograder.grading.batch_cache import BatchCache
    from autograder.grading.grade import grade_many
    from autograder.grading.startup import isolate_jax_for_grader
    from autograder.sandbox.process import Limits
    import autograder.grading.grade as grade_module
    isolate_jax_for_grader()
    own = grade_module.grade_notebook
    seconds_of: dict[str, float] = {}

    def timed(path, *args, **kwargs):
        # each notebook's wall time, from the outside: both sides' grade_one call grade_notebook
        begin = time.perf_counter()
        try:
            return own(path, *args, **kwargs)
        finally:
            seconds_of[str(path)] = time.perf_counter() - begin
    grade_module.grade_notebook = timed
    course = Course(Path(spec["root"]))
    limits = Limits(cell_timeout=spec["cell_timeout"], check_timeout=spec["cell_timeout"], compile_cache=True)
    batch = BatchCache(limits, course.hidden_paths())
    started = time.perf_counter()
    if spec.get("prebuild"):     # every assignment's cache, one after another, before the class (timed apart)
        for name in dict.fromkeys(Path(p).parent.name.rsplit("-s", 1)[0] for p in spec["paths"]):
            batch.limits_for(course.assignment(name))
    build_seconds = time.perf_counter() - started
    started = time.perf_counter()
    results = grade_many(spec["paths"], course, None, limits, spec["jobs"], cache=batch)
    seconds = time.perf_counter() - started
    batch.close()
    graded = {r["notebook"]: {"score": r["score"],
                              "failed": sorted(c["name"] for e in r["exercises"].values() for c in e["checks"]
                                               if not c["passed"]),
                              "seconds": seconds_of.get(r["notebook"])} for r in results}
    print(json.dumps({"seconds": seconds, "build_seconds": build_seconds, "graded": graded,
                      "package": str(Path(sys.modules["autograder"].__file__).parent)}))


def side(python: str, root: Path, paths: list[str], jobs: int, cell_timeout: float, prebuild: bool = False) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump({"root": str(root), "paths": paths, "jobs": jobs, "cell_timeout": cell_timeout,
                   "prebuild": prebuild}, fh)
    try:
        from ab_versions import run_side
        return run_side(python, root, __file__, fh.name)
    finally:
        os.unlink(fh.name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rev", nargs="?", default="b4b601d")
    ap.add_argument("--class-size", type=int, default=100)
    ap.add_argument("--assignment", default="03_control_flow", help="an assignment, or all (each of the eight)")
    ap.add_argument("--prebuild", action="store_true", help="build every cache first, timed apart (see above)")
    from compile_cache import batch_options
    batch_options(ap, rounds=2)
    args = ap.parse_args()
    if args.child:
        return run_child(args.child)
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "tests"))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from ab_versions import old_checkout
    from compile_cache import class_notebooks
    scratch = Path(tempfile.mkdtemp(prefix="jaxcourse-classver-"))
    try:
        old_tree, old_python = old_checkout(args.rev, scratch)
        from autograder.course import Course
        names = Course(ROOT).assignment_names() if args.assignment == "all" else [args.assignment]
        paths = [p for k, a in enumerate(names)
                 for p in class_notebooks(scratch / "class", a, args.class_size, True, k * args.class_size)]
        sides = {args.rev: (old_python, old_tree), "this checkout": (sys.executable, ROOT)}
        runs: dict[str, list] = {name: [] for name in sides}
        for r in range(args.rounds):
            order = list(sides) if r % 2 == 0 else list(reversed(sides))
            for name in order:
                out = side(*sides[name], paths, args.jobs, args.cell_timeout, args.prebuild)
                runs[name].append(out)
                built = f" (after {out['build_seconds']:.1f} s of builds)" if args.prebuild else ""
                print(f"round {r + 1}, {name}: {out['seconds']:.1f} s{built}", flush=True)
        report(args, runs, len(paths))
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(scratch / "tree")],
                       capture_output=True)
        shutil.rmtree(scratch, ignore_errors=True)


def report(args, runs: dict, n: int) -> None:
    from compile_cache import student_kind
    old, new = (min(runs[name], key=lambda r: r["seconds"]) for name in runs)
    per_min = {name: n / best["seconds"] * 60 for name, best in zip(runs, (old, new))}
    ratio = old["seconds"] / new["seconds"]
    print(f"\nclass of {n} of {args.assignment} at --jobs {args.jobs} (cell timeout {args.cell_timeout:g} s), "
          f"best of {args.rounds}:")
    for name, best in zip(runs, (old, new)):
        every = ", ".join(f"{r['seconds']:.1f}" for r in runs[name])
        print(f"  {name}: {best['seconds']:.1f} s, {per_min[name]:.1f} notebooks/min (all runs: {every} s)")
    print(f"  ratio {args.rev} / this checkout: {ratio:.2f}x")
    differ = {p: (old["graded"][p], new["graded"][p]) for p in new["graded"]
              if old["graded"][p]["score"] != new["graded"][p]["score"]}
    print(f"  notebooks whose score differs: {len(differ)} of {n}")
    for p, (o, w) in differ.items():
        print(f"    {Path(p).parent.name}: {o['score']} -> {w['score']}; failed {o['failed']} -> {w['failed']}")
    by_kind = {}
    for p in new["graded"]:
        kind = student_kind(int(Path(p).parent.name.rsplit("-s", 1)[1]), True)
        sums = by_kind.setdefault(kind, [0, 0.0, 0.0])
        sums[0] += 1
        sums[1] += old["graded"][p].get("seconds") or 0.0
        sums[2] += new["graded"][p].get("seconds") or 0.0
    print("  notebook seconds by kind of student (summed over the notebooks; with --jobs > 1 under contention):")
    for kind, (count, o, w) in by_kind.items():
        print(f"    {kind:6s} {count:3d} notebooks: {args.rev} {o:7.1f} s, this checkout {w:7.1f} s, "
              f"ratio {o / w if w else float('nan'):.2f}x")
    by_assignment: dict = {}
    for p in new["graded"]:
        sums = by_assignment.setdefault(Path(p).parent.name.rsplit("-s", 1)[0], [0, 0.0, 0.0])
        sums[0] += 1
        sums[1] += old["graded"][p].get("seconds") or 0.0
        sums[2] += new["graded"][p].get("seconds") or 0.0
    if len(by_assignment) > 1:
        print("  notebook seconds by assignment (summed, as above):")
        for name, (count, o, w) in sorted(by_assignment.items()):
            print(f"    {name:28s} {count:3d} notebooks: {args.rev} {o:7.1f} s, this checkout {w:7.1f} s")
    cores = os.cpu_count() or 2
    model = {name: CLASS_NOTEBOOKS / (rate / cores * SERVER_CORES) for name, rate in per_min.items()}
    if args.prebuild:    # the builds once per assignment, the grading per notebook
        model = {name: (best.get("build_seconds", 0.0) + cores * best["seconds"] * CLASS_NOTEBOOKS / n)
                 / SERVER_CORES / 60 for name, best in zip(runs, (old, new))}
        print("  builds (every assignment's cache, before the class): "
              + ", ".join(f"{name} {best.get('build_seconds', 0.0):.1f} s" for name, best in zip(runs, (old, new))))
    print(f"  1,000-student model ({CLASS_NOTEBOOKS} notebooks, {SERVER_CORES} cores, linear in cores from "
          f"{cores} here{', builds once per assignment' if args.prebuild else ''}): "
          + ", ".join(f"{name} {m:.0f} min" for name, m in model.items()))
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": {k: [r["seconds"] for r in v] for k, v in runs.items()},
                                               "builds": {k: [r.get("build_seconds") for r in v] for k, v in runs.items()},
                                               "ratio": ratio, "per_min": per_min, "model_min": model,
                                               "differ": differ, "by_kind": by_kind,
                                               "by_assignment": by_assignment}, indent=1))


if __name__ == "__main__":
    main()
