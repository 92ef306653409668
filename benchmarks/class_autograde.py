"""A class-sized run into nbgrader's gradebook (issue 25): `autograder autograde` of a whole class.

    .venv/bin/python benchmarks/class_autograde.py [--students 300] [--assignment 03_control_flow]
                                                   [--jobs 2] [--baseline 8] [--cell-timeout 15]

Builds an nbgrader course whose submitted/ holds `--students` notebooks of one assignment, a mix
taken from the course's own cases: 60% correct answers in other idioms (tests/cases' RIGHT), 30%
known-wrong (CASES), 6% whose solution cell crashes the worker, 4% whose cell never ends (each
costs the full cell timeout). Then, timed as whole processes:
  autograder autograde A --jobs J     (the whole class, into the sqlite gradebook)
  nbgrader autograde A --student S    (the baseline: `--baseline` students of the same class, one
                                       notebook at a time, as nbgrader grades)
Prints the time, notebooks per minute, the ratio against nbgrader's rate, the peak memory of the
whole process tree (the grader processes and their sandboxed workers, sampled every 0.2 s), the
time until the first student's grade is in the gradebook, and the number of grader processes seen.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))

from class_batch import ENV, make_course, run  # noqa: E402
from compile_cache import class_notebooks  # noqa: E402


class TreeSampler:
    """Peak resident memory of a process and its descendants, and the grader processes seen."""

    def __init__(self, pid: int):
        self.root = psutil.Process(pid)
        self.peak = 0
        self.graders: set[int] = set()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        while not self.stop.is_set():
            try:
                procs = [self.root, *self.root.children(recursive=True)]
            except psutil.NoSuchProcess:
                return
            total = 0
            for p in procs:
                try:
                    total += p.memory_info().rss
                    if "autograder.grading.processes" in " ".join(p.cmdline()):
                        self.graders.add(p.pid)
                except psutil.Error:
                    continue
            self.peak = max(self.peak, total)
            time.sleep(0.2)


def first_grade_seconds(results: Path, started: float, done: threading.Event, out: list):
    while not done.is_set():
        if results.is_dir() and any(results.glob("*.json")):
            out.append(time.perf_counter() - started)
            return
        time.sleep(0.1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--students", type=int, default=300)
    ap.add_argument("--assignment", default="03_control_flow")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--baseline", type=int, default=8, help="students graded by nbgrader for the baseline")
    ap.add_argument("--cell-timeout", type=int, default=15)
    args = ap.parse_args()
    ENV["PATH"] = os.path.dirname(sys.executable) + os.pathsep + ENV.get("PATH", "")
    ENV["JAX_COURSE_CELL_TIMEOUT"] = str(args.cell_timeout)
    a = args.assignment
    with tempfile.TemporaryDirectory(prefix="jaxcourse-class300-") as tmp:
        import nbformat
        paths = class_notebooks(Path(tmp) / "nbs", a, args.students, True)
        subs = {f"s{i:03d}": nbformat.read(p, as_version=4) for i, p in enumerate(paths)}
        from autograder.course import Course
        ours, theirs = Path(tmp) / "ours", Path(tmp) / "theirs"
        make_course(Course(ROOT), ours, {a: subs})
        # the baseline's students: spread over the class's mix (every k-th)
        step = max(1, args.students // max(1, args.baseline))
        picked = list(subs)[::step][:args.baseline]
        make_course(Course(ROOT), theirs, {a: {s: subs[s] for s in picked}})
        print(f"{args.students} students of {a}; cores {os.cpu_count()}; cell timeout {args.cell_timeout} s",
              flush=True)

        base = sum(run([sys.executable, "-m", "nbgrader", "autograde", a, "--student", s, "--force"],
                       theirs, ok=(0, 1, 2)) for s in picked)
        base_rate = len(picked) / base * 60
        print(f"  nbgrader autograde, {len(picked)} students one by one: {base:.1f} s, "
              f"{base_rate:.1f} notebooks/minute", flush=True)

        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "autograder.cli", "autograde", a, "--jobs", str(args.jobs)],
                                cwd=ours, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        sampler = TreeSampler(proc.pid)
        done, first = threading.Event(), []
        watcher = threading.Thread(target=first_grade_seconds, args=(ours / "results" / a, started, done, first),
                                   daemon=True)
        watcher.start()
        _, err = proc.communicate()
        seconds = time.perf_counter() - started
        done.set()
        sampler.stop.set()
        graded = len(list((ours / "results" / a).glob("*.json")))
        rate = graded / seconds * 60
        print(f"  autograder autograde --jobs {args.jobs}: {graded} students in {seconds:.1f} s, "
              f"{rate:.1f} notebooks/minute ({rate / base_rate:.2f}x nbgrader's rate), "
              f"first grade after {first[0] if first else float('nan'):.1f} s, "
              f"peak memory {sampler.peak / 2**30:.2f} GiB, grader processes seen {len(sampler.graders)}; "
              f"exit {proc.returncode}", flush=True)
        if proc.returncode not in (0, 2):
            print(err[-2000:])


if __name__ == "__main__":
    main()
