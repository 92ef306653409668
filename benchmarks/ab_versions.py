"""Grading time of this checkout against an earlier revision, interleaved in the same run.

    .venv/bin/python benchmarks/ab_versions.py REV [ASSIGNMENT ...] [--rounds 3]

Checks REV out into a scratch worktree, gives it an interpreter of its own that finds that
worktree's package before this one's (a venv whose .pth lists the worktree, then this venv's
site-packages), and times `autograder grade` of each assignment's reference notebook with both,
alternating which goes first round by round (with `--batch N --jobs J`, N copies of it in one call
at `--jobs J`). Prints the median seconds of each and the ratio (this checkout / REV). Every grading must score full marks, or the script stops.

With `--selftest`, each side runs `autograder selftest --assignment A` instead: the reference and
every known-wrong submission of tests/cases (packed into a few notebooks, graded as a batch), which
must each get their expected verdicts (a failing self-test stops the script). That times the wrong
answers too, whose failures are what a clean session (issue 34) is started for.
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ["03_control_flow", "08_numerics_and_performance", "06_tracing_and_purity"]


def old_checkout(rev: str, scratch: Path) -> tuple[Path, str]:
    tree = scratch / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(tree), rev], check=True)
    venv = scratch / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next((venv / "lib").glob("python*/site-packages"))
    here = next(p for p in sys.path if p.endswith("site-packages"))
    (site / "ab.pth").write_text(f"{tree}\n{here}\n")
    return tree, str(venv / "bin" / "python")


def run_side(python: str, root: Path, script: str, *args: str) -> dict:
    """`python script --child ARGS` with that side's package first on the path (`root`), in a scratch
    folder; the JSON of its last line, checked to come from `root`'s package."""
    import os
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONPATH": str(root)}
    run = subprocess.run([python, script, "--child", *args], capture_output=True, text=True, env=env,
                         cwd=tempfile.gettempdir())
    if run.returncode != 0:
        raise SystemExit(f"grading with {root} failed:\n{run.stderr[-3000:]}")
    out = json.loads(run.stdout.splitlines()[-1])
    assert Path(out["package"]).resolve().parent == root.resolve(), (out["package"], root)
    return out


def grade(python: str, root: Path, assignment: str, out: Path, batch: int = 1, jobs: int = 1) -> float:
    """Seconds of one `autograder grade` of the reference (with `batch` > 1, of that many copies of
    it in one call at `--jobs`)."""
    notebook = root / "source" / assignment / f"{assignment}.ipynb"
    notebooks = [notebook]
    if batch > 1:
        notebooks = []
        for i in range(batch):
            copy = out.parent / "batch" / f"s{i:03d}" / f"{assignment}.ipynb"
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(notebook, copy)
            notebooks.append(copy)
    start = time.perf_counter()
    r = subprocess.run([python, "-m", "autograder.cli", "grade", *map(str, notebooks), "--json", str(out),
                        "--quiet", "--jobs", str(jobs), "--course-root", str(root)],
                       cwd=root, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    results = json.loads(out.read_text())
    for result in results if isinstance(results, list) else [results]:
        if result["score"] != result["max_score"]:
            sys.exit(f"{root}: {assignment} scored {result['score']}/{result['max_score']}: {r.stderr[-500:]}")
    return seconds


def selftest(python: str, root: Path, assignment: str, jobs: int) -> float:
    """Seconds of `autograder selftest` of one assignment (reference and known-wrong cases)."""
    start = time.perf_counter()
    r = subprocess.run([python, "-m", "autograder.cli", "selftest", "--assignment", assignment,
                        "--course-root", str(root), "--jobs", str(jobs)], cwd=root, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit(f"{root}: selftest of {assignment} failed: {(r.stdout + r.stderr)[-1500:]}")
    return seconds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rev")
    ap.add_argument("assignments", nargs="*", default=DEFAULT)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--batch", type=int, default=1, help="grade this many copies of the reference in one call")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--selftest", action="store_true", help="time `autograder selftest` (known-wrong cases too)")
    args = ap.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="ab-"))
    try:
        tree, old_python = old_checkout(args.rev, scratch)
        sides = {args.rev: (old_python, tree), "this checkout": (sys.executable, ROOT)}
        times = {(a, s): [] for a in args.assignments for s in sides}
        for rnd in range(args.rounds):
            for a in args.assignments:
                order = list(sides) if rnd % 2 == 0 else list(reversed(sides))
                for side in order:
                    python, root = sides[side]
                    times[(a, side)].append(selftest(python, root, a, args.jobs) if args.selftest else
                                            grade(python, root, a, scratch / "out.json", args.batch, args.jobs))
        for a in args.assignments:
            old = statistics.median(times[(a, args.rev)])
            new = statistics.median(times[(a, "this checkout")])
            print(f"{a}: {args.rev} {old:.2f} s, this checkout {new:.2f} s, ratio {new / old:.2f}x")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(scratch / "tree")],
                       capture_output=True)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
