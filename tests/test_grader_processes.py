"""`--grader-processes` (by default one per 4 jobs: `grading/processes.py`): the grader's own work is
spread over processes, results are the same as one process's and come back in order, a grader
process that dies costs only the notebooks it held, and nothing outlives a killed batch."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import psutil

from support.notebooks import TEST_TIMEOUT, write_toy_submission

GRADER = "autograder.grading.processes"
HANG = "def double(x):\n    while True:\n        pass\n"


def start_grade(course, paths, out, *args):
    return subprocess.Popen([sys.executable, "-m", "autograder.cli", "grade", *map(str, paths), "--json", str(out),
                             "--course-root", str(course.root), "--quiet", "--cell-timeout", str(TEST_TIMEOUT),
                             "--check-timeout", str(TEST_TIMEOUT), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def graders_of(pid: int) -> list[psutil.Process]:
    """The grader processes of the command `pid` (its direct children: a grader's own children are
    copies of it for a moment, between fork and exec)."""
    try:
        children = psutil.Process(pid).children()
    except psutil.NoSuchProcess:
        return []
    out = []
    for p in children:
        try:
            if GRADER in " ".join(p.cmdline()):
                out.append(p)
        except psutil.Error:
            continue
    return out


def watch(proc, until=None) -> set[int]:
    """Grader processes seen under `proc` until it ends (or `until()` is true)."""
    seen = set()
    while proc.poll() is None and not (until and until(seen)):
        seen |= {p.pid for p in graders_of(proc.pid)}
        time.sleep(0.05)
    return seen


def scores(out) -> list:
    return [(r["score"], {c["name"]: c["passed"] for e in r["exercises"].values() for c in e["checks"]})
            for r in json.loads(out.read_text())]


def test_two_grader_processes_give_the_results_of_one(toy_course, tmp_path):
    paths = [write_toy_submission(tmp_path / f"s{i}" / "toy.ipynb",
                                  solution=("def double(x):\n    return x\n" if i == 1 else
                                            "def double(x):\n    return 2.0 * x\n")) for i in range(4)]
    two = start_grade(toy_course, paths, tmp_path / "two.json", "--jobs", "2", "--grader-processes", "2")
    seen = watch(two)
    assert two.wait(timeout=300) == 0, two.stderr.read()[-2000:]
    assert len(seen) == 2, f"grader processes seen: {seen}"
    one = start_grade(toy_course, paths, tmp_path / "one.json", "--jobs", "2")
    assert not watch(one), "--jobs 2 grades in the command's own process by default"
    assert one.wait(timeout=300) == 0
    assert scores(tmp_path / "two.json") == scores(tmp_path / "one.json")
    assert [s for s, _ in scores(tmp_path / "two.json")] == [4.0, 2.0, 4.0, 4.0]   # in the order given


def test_a_grader_process_that_dies_costs_only_its_notebook(toy_course, tmp_path):
    hang = write_toy_submission(tmp_path / "hang" / "toy.ipynb", solution=HANG)
    good = [write_toy_submission(tmp_path / f"ok{i}" / "toy.ipynb") for i in range(2)]
    out = tmp_path / "out.json"
    # without the compile cache's builder (which holds the second process's slot while it builds),
    # the first grader process is handed the first notebook, the one that hangs
    proc = start_grade(toy_course, [hang, *good], out, "--jobs", "2", "--grader-processes", "2",
                       "--no-compile-cache")
    seen = watch(proc, until=lambda s: len(s) == 2)
    assert len(seen) == 2, seen
    # the first started: two processes started in one clock tick share a create_time, and pids
    # grow (CI's last run killed the second one: min() over equal times picked by set order)
    first = min((psutil.Process(p) for p in seen), key=lambda p: (p.create_time(), p.pid))
    time.sleep(3)
    first.kill()
    assert proc.wait(timeout=300) == 2, proc.stderr.read()[-2000:]
    results = json.loads(out.read_text())
    assert "its grading process ended" in results[0]["errors"][0] and not results[0]["exercises"]
    assert [r["score"] for r in results[1:]] == [4.0, 4.0]


def test_nothing_outlives_a_killed_batch(toy_course, tmp_path):
    paths = [write_toy_submission(tmp_path / f"h{i}" / "toy.ipynb", solution=HANG) for i in range(2)]
    proc = start_grade(toy_course, paths, tmp_path / "out.json", "--jobs", "2", "--grader-processes", "2")
    seen = watch(proc, until=lambda s: len(s) == 2)
    assert len(seen) == 2
    time.sleep(2)
    everything = {p.pid for p in psutil.Process(proc.pid).children(recursive=True)}
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    deadline = time.time() + 15
    while time.time() < deadline and any(psutil.pid_exists(p) and psutil.Process(p).status() != "zombie"
                                         for p in everything):
        time.sleep(0.2)
    left = [p for p in everything if psutil.pid_exists(p) and psutil.Process(p).status() != "zombie"]
    assert not left, f"still running after the batch was killed: {left}"


def test_the_caches_build_ends_before_the_batch_returns(toy_course, tmp_path, limits):
    """A batch of two toy notebooks is graded before its cache is built (they do not wait for it). The
    build must still end before the command does: the caller removes the cache's folders next, and a
    build thread left running when the interpreter exited once aborted the command (exit -6, "terminate
    called after throwing an instance of ''", in a fresh-clone run of the suite)."""
    import threading
    from autograder.grading.batch_cache import BatchCache
    from autograder.grading.processes import grade_in_processes
    paths = [write_toy_submission(tmp_path / f"s{i}" / "toy.ipynb") for i in range(2)]
    cache = BatchCache(limits, toy_course.hidden_paths())   # the grader's own cache folder, as `autograde` uses
    try:
        out = grade_in_processes(paths, toy_course, "toy", limits, 2, 1, [], cache=cache)
        assert [r["score"] for r in out] == [4.0, 4.0], out
        assert not [t for t in threading.enumerate() if t.name == "cache-builder"]
        assert cache.built.get("toy") is not None and not cache.built["toy"].error, cache.built
    finally:
        cache.close()
