"""The three speed goals of issue 13, each against a baseline measured in the same run.

    .venv/bin/python benchmarks/course_speed.py [--one 03_control_flow] [--repeat 2] [--per-assignment 5]

1. One notebook (the reference solution of `--one`), whole processes, start-up included, the three
   commands interleaved `--repeat` times (best kept):
     `autograder grade`  vs  `nbgrader autograde --student` of the same notebook  vs  the floor
   (one plain Python process running every code cell of the source notebook once).
2. One student's whole course: the reference of every assignment (01..08), one `autograder grade`
   call, at --jobs 1 and --jobs 2, against the sum of the eight floors timed in this run.
3. A batch of `--per-assignment` x 8 notebooks (40 with the default) in one `autograder grade`
   call at --jobs 1 and --jobs 2, as notebooks per minute, against the floors of the same notebooks
   run one after another (the eight floors of step 2, times `--per-assignment`).
Every figure is printed as a ratio against its baseline: the machine is shared and noisy, so the
seconds alone say little; the ratios, taken minutes apart on the same machine, say more.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import nbformat  # noqa: E402

from autograder.course import Course  # noqa: E402
from autograder.classroom import nbgrader_run  # noqa: E402
from autograder.classroom.demo import build_submission  # noqa: E402
from floor import floor_command  # noqa: E402


def timed(cmd, cwd=None, env=None) -> float:
    t = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, cmd[:6]))} failed ({r.returncode}):\n{r.stderr[-2000:]}")
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--one", default="03_control_flow")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--per-assignment", type=int, default=5)
    ap.add_argument("--skip-batch", action="store_true")
    ap.add_argument("--json", help="also write the figures here")
    args = ap.parse_args()
    course = Course(ROOT)
    names = sorted(p.name for p in course.source.iterdir() if (p / f"{p.name}.ipynb").exists())
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    cli = [sys.executable, "-m", "autograder.cli", "grade", "--quiet", "--course-root", str(ROOT)]
    fig: dict = {"cores": os.cpu_count(), "assignments": names}
    with tempfile.TemporaryDirectory(prefix="jaxcourse-speed-") as tmp:
        tmp = Path(tmp)
        refs = {}
        for a in names:
            nb = build_submission(course.release / a / f"{a}.ipynb", course.source / a / f"{a}.ipynb", {})
            for i in range(args.per_assignment):
                p = tmp / "subs" / f"s{i}" / a / f"{a}.ipynb"
                p.parent.mkdir(parents=True)
                nbformat.write(nb, str(p))
            refs[a] = tmp / "subs" / "s0" / a / f"{a}.ipynb"
        out = str(tmp / "out.json")

        # 1. one notebook: grade vs nbgrader vs floor, interleaved
        a = args.one
        work = nbgrader_run.prepare(course, tmp / "nbg", a, {"s0": refs[a]})
        nbgrader_run.generate(work, a)
        nbg = [sys.executable, "-m", "nbgrader", "autograde", a, "--force", "--student", "s0"]
        one = {"grade": [], "nbgrader": [], "floor": []}
        for _ in range(args.repeat):
            one["floor"].append(timed(floor_command(course.source / a / f"{a}.ipynb"), env=env))
            one["grade"].append(timed(cli + [str(refs[a]), "--json", out], env=env))
            one["nbgrader"].append(timed(nbg, cwd=work, env=env))
        one = {k: min(v) for k, v in one.items()}
        fig["one"] = {"assignment": a, **one, "grade/nbgrader": one["grade"] / one["nbgrader"],
                      "grade/floor": one["grade"] / one["floor"]}
        shutil.rmtree(tmp / "nbg")
        print("one:", json.dumps(fig["one"]), flush=True)

        # 2. one student's whole course, against the sum of the floors
        floors = {a: timed(floor_command(course.source / a / f"{a}.ipynb"), env=env)
                  for a in names}
        floor_sum = sum(floors.values())
        course_runs = {}
        for jobs in (2, 1):
            course_runs[jobs] = timed(cli + [str(refs[a]) for a in names] + ["--jobs", str(jobs),
                                                                              "--json", out], env=env)
        results = json.loads(Path(out).read_text())
        full = all(all(c["passed"] for e in r["exercises"].values() for c in e["checks"])
                   for r in (results if isinstance(results, list) else results.get("results", [])))
        fig["course"] = {"floors": floors, "floor_sum": floor_sum,
                         **{f"jobs{j}": s for j, s in course_runs.items()},
                         **{f"jobs{j}/floor_sum": s / floor_sum for j, s in course_runs.items()},
                         "all_full_marks": full}
        print("course:", json.dumps(fig["course"]), flush=True)

        # 3. a batch of per_assignment x 8 notebooks
        if not args.skip_batch:
            batch = sorted(str(p) for p in (tmp / "subs").glob("s*/*/*.ipynb"))
            base = floor_sum * args.per_assignment
            fig["batch"] = {"notebooks": len(batch), "floors_in_sequence": base,
                            "floor_per_minute": 60 * len(batch) / base}
            for jobs in (1, 2):
                s = timed(cli + batch + ["--jobs", str(jobs), "--json", out], env=env)
                fig["batch"][f"jobs{jobs}"] = s
                fig["batch"][f"jobs{jobs}_per_minute"] = 60 * len(batch) / s
                fig["batch"][f"jobs{jobs}/floors"] = s / base

    o = fig["one"]
    print(f"cores: {fig['cores']}")
    print(f"1. one notebook ({o['assignment']}): grade {o['grade']:.2f}s, nbgrader autograde "
          f"{o['nbgrader']:.2f}s, floor {o['floor']:.2f}s -> grade/nbgrader {o['grade/nbgrader']:.2f}x "
          f"(goal <= 0.5x), grade/floor {o['grade/floor']:.2f}x (goal <= 1.3x)")
    c = fig["course"]
    print(f"2. whole course ({len(names)} notebooks): jobs 2 {c['jobs2']:.1f}s, jobs 1 {c['jobs1']:.1f}s "
          f"(goal < 30 s); sum of floors {c['floor_sum']:.1f}s -> jobs2/floors {c['jobs2/floor_sum']:.2f}x, "
          f"jobs1/floors {c['jobs1/floor_sum']:.2f}x; full marks: {c['all_full_marks']}")
    print("   floors: " + ", ".join(f"{a[:2]} {s:.1f}s" for a, s in c["floors"].items()))
    if "batch" in fig:
        b = fig["batch"]
        print(f"3. batch of {b['notebooks']}: jobs 1 {b['jobs1']:.0f}s = {b['jobs1_per_minute']:.1f} nb/min "
              f"({b['jobs1/floors']:.2f}x the floors in sequence); jobs 2 {b['jobs2']:.0f}s = "
              f"{b['jobs2_per_minute']:.1f} nb/min ({b['jobs2/floors']:.2f}x); floors in sequence "
              f"{b['floor_per_minute']:.1f} nb/min")
    if args.json:
        Path(args.json).write_text(json.dumps(fig, indent=1))


if __name__ == "__main__":
    main()
