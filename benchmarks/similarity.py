"""`autograder similarity` on a class of 300, against copydetect's own CopyDetector, in one run.

    .venv/bin/python benchmarks/similarity.py [--students 300] [--assignment 03_control_flow] [--seed 0] [--keep DIR]

The class (seeded), written into a scratch nbgrader course:
- 37% reference-like: the reference solution, every other one with variables renamed and comments added;
- 53% idiom mixes: on each exercise one of the course's correct answers (the reference or a RIGHT
  answer of tests/cases/), variables renamed and comments added;
- 8% distinctive: an idiom mix whose code on two exercises also holds a helper of the student's own
  (a few generated statements: their own shapes, constants and control flow);
- 2% planted copies of distinctive students: half whole notebooks, half one exercise (the
  distinctive one) in an otherwise reference-like notebook, all with variables renamed and
  comments added.

Timed as whole processes, start-up included, the same solution code each:
  autograder similarity A                     (reads the notebooks, writes pairs.csv and the page)
  copydetect's CopyDetector                    (one .py file per student: the solution cells joined;
                                                the release's as boilerplate; the same k = 16 and
                                                window 1; run() and generate_html_report())
Prints seconds, the ratio, and for both: planted copies flagged at the threshold, and other pairs
flagged (copydetect: a pair whose similarity reaches the threshold on either side); and the highest
score any other pair got from `autograder similarity` (the margin under the threshold).
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from autograder.classroom.similarity import Settings, solution_code  # noqa: E402
from autograder.course import Course  # noqa: E402
from autograder.course.notebook import read_notebook  # noqa: E402
from support.classmates import disguise, idioms, make_course  # noqa: E402

COPYDETECT = """
import json, sys
from copydetect import CopyDetector
files, boiler, out, k, threshold = sys.argv[1:6]
d = CopyDetector(test_dirs=[files], ref_dirs=[files], boilerplate_dirs=[boiler], extensions=["py"],
                 noise_t=int(k), guarantee_t=int(k), display_t=float(threshold), autoopen=False,
                 silent=True, out_file=out + "/report.html")
d.run()
d.generate_html_report()
json.dump({"files": d.test_files, "refs": d.ref_files, "sim": d.similarity_matrix.tolist()},
          open(out + "/matrix.json", "w"))
"""


def helper(rng: random.Random, name: str) -> str:
    """A few statements of a student's own: generated, so no two students write the same."""
    ops = ["+", "-", "*"]
    lines = [f"def _{name}(v, w):"]
    for _ in range(rng.randint(3, 5)):
        a, b, op = rng.randint(2, 97), rng.randint(2, 9), rng.choice(ops)
        lines.append(rng.choice([
            f"    v = jnp.where(v > {a / 10}, v {op} w, w {op} {b})",
            f"    w = jnp.clip(w, -{a}, {a}) {op} {b} * v",
            f"    if v.ndim > {b % 3}:\n        v = v.reshape(v.shape[0], -1)[:, :{a}]",
            f"    for _ in range({b}):\n        w = w {op} v / {a}",
            f"    v, w = w[..., ::{b % 3 + 1}], v {op} {a}.0",
        ]))
    lines.append("    return v, w\n")
    return "\n".join(lines)


def build_class(course, assignment: str, n: int, seed: int):
    """student -> exercise -> code, and the planted (copier, original) pairs."""
    rng = random.Random(seed)
    ids, exercises = idioms(course, assignment), course.assignment(assignment).exercises
    counts = {"ref": round(0.37 * n), "distinct": round(0.08 * n), "copy": max(2, round(0.02 * n))}
    counts["mix"] = n - sum(counts.values())
    students, distinct = {}, []
    for i in range(counts["ref"]):
        students[f"ref{i:03d}"] = {ex: disguise(ids[ex][0], f"r{i}", keep=exercises) if i % 2 else ids[ex][0]
                                   for ex in exercises}
    for i in range(counts["mix"] + counts["distinct"]):
        name = f"mix{i:03d}" if i < counts["mix"] else f"own{i:03d}"
        students[name] = {ex: disguise(rng.choice(ids[ex]), f"m{i}", keep=exercises) for ex in exercises}
        if name.startswith("own"):
            own = rng.sample(exercises, 2)
            for ex in own:
                students[name][ex] = helper(rng, f"{ex}_step") + "\n\n" + students[name][ex]
            distinct.append((name, own[0]))
    planted = []
    for c in range(counts["copy"]):
        original, ex = distinct[c]
        copier = f"copy{c:02d}"
        if c % 2 == 0:
            students[copier] = {e: disguise(src, f"c{c}", keep=exercises) for e, src in students[original].items()}
        else:
            copied = disguise(students[original][ex], f"c{c}", keep=exercises)
            students[copier] = {**students[f"ref{c:03d}"], ex: copied}
        planted.append(frozenset((copier, original)))
    return students, planted, exercises


def timed(cmd, cwd=None) -> float:
    t = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, cmd))} exited {r.returncode}:\n{r.stdout[-1500:]}\n{r.stderr[-1500:]}")
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--students", type=int, default=300)
    ap.add_argument("--assignment", default="03_control_flow")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--keep", type=Path, help="build the class in this new folder and keep it "
                                              "(default: a temporary one)")
    args = ap.parse_args()
    course, a = Course(ROOT), args.assignment
    settings = Settings()
    students, planted, exercises = build_class(course, a, args.students, args.seed)
    with tempfile.TemporaryDirectory(prefix="jaxcourse-similarity-") as scratch:
        tmp = args.keep or Path(scratch)
        root = make_course(course, tmp / "course", a, students)
        # the same code as plain files: what each notebook's solution cells hold, and the release's
        files, boiler, out = tmp / "files", tmp / "boilerplate", tmp / "copydetect"
        for folder in (files, boiler, out):
            folder.mkdir()
        for student in students:
            nb = read_notebook(root / "submitted" / student / a / f"{a}.ipynb")
            (files / f"{student}.py").write_text("\n\n".join(solution_code(nb, exercises).values()))
        release = read_notebook(course.release / a / f"{a}.ipynb")
        (boiler / f"{a}.py").write_text("\n\n".join(solution_code(release, exercises).values()))
        print(f"{len(students)} students of {a}: {len(planted)} planted copies; cores: {os.cpu_count()}",
              flush=True)

        ours = timed([sys.executable, "-m", "autograder.cli", "similarity", a, "--course-root", str(root)])
        rows = list(csv.DictReader(open(root / "reports" / a / "similarity" / "pairs.csv")))
        flagged = {frozenset((r["student_a"], r["student_b"])) for r in rows if r["flagged"] == "yes"}
        best_other = max(float(r["score"]) for r in rows if frozenset((r["student_a"], r["student_b"])) not in planted)
        theirs = timed([sys.executable, "-c", COPYDETECT, str(files), str(boiler), str(out),
                        str(settings.noise_t), str(settings.threshold)])
        matrix = json.loads((out / "matrix.json").read_text())
        index = {Path(f).stem: i for i, f in enumerate(matrix["refs"])}
        their_flags = set()
        for i, f in enumerate(matrix["files"]):
            for other, j in index.items():
                if max(matrix["sim"][i][j]) >= settings.threshold and Path(f).stem != other:
                    their_flags.add(frozenset((Path(f).stem, other)))

    for label, seconds, flags in (("autograder similarity", ours, flagged),
                                  ("copydetect CopyDetector", theirs, their_flags)):
        caught = len(flags & set(planted))
        print(f"  {label:24} {seconds:7.1f} s   planted copies flagged {caught}/{len(planted)}, "
              f"other pairs flagged {len(flags - set(planted))} (threshold {settings.threshold:g})")
    print(f"highest score of a pair not planted (autograder similarity): {best_other:.2f}")
    print(f"ratio copydetect / autograder similarity: {theirs / ours:.2f}x")


if __name__ == "__main__":
    main()
