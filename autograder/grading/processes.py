"""A batch over several grader processes: `--jobs N` runs N grader processes, one notebook each at a
time, so that the grader's own work (test cells, protocol, decoding replies: a fifth to a third of a
notebook, more with the compile cache) runs on N cores instead of under one GIL.

Each grader process is `python -m autograder.grading.processes` (a fresh interpreter, nothing
inherited from a parent that runs threads, and no re-import of the caller's script). The parent
hands out notebooks one at a time, to whichever grader is free (a slow notebook never holds up a
fixed share), takes each result as it comes (so `autograde` commits it at once) and returns them
in the order given. The batch's compile caches are built by the parent before the graders start,
one per assignment of the batch, `jobs` at a time (`batch_cache.py`); every grader process gets the
same sealed folders. A grader process that dies costs only the notebook it held (an error entry);
a grader process whose parent dies exits at once, and its sandboxed workers with it (their
lifeline).
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..course.layout import Course
from ..course.notebook import NotebookError, classify, read_notebook
from ..sandbox import devices
from ..sandbox.process import Limits
from .batch_cache import BatchCache, Built
from .results import failed_notebook


def assignments_of(paths, course: Course, assignment: str | None) -> set[str]:
    """The assignments a batch holds (read from each notebook when not given)."""
    if assignment:
        return {assignment}
    found = set()
    for path in paths:
        try:
            found.add(course.guess_assignment(Path(path), classify(read_notebook(Path(path)))))
        except (NotebookError, OSError):
            continue
    return found


def build_caches(cache: BatchCache, course: Course, names: set[str], jobs: int):
    """Build the batch's compile caches before the graders start, `jobs` at a time."""
    specs = []
    for name in sorted(names):
        try:
            specs.append(course.assignment(name))
        except NotebookError:
            continue
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(cache.limits_for, specs))


def _exit_with_parent(parent: int):
    """In a grader process: exit the moment the parent is gone (killed by any signal)."""
    def watch():
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def serve(reply_fd: int):
    """A grader process (`python -m autograder.grading.processes FD`): its settings on the first
    line of stdin, then one notebook per line (index and path, as JSON) until EOF; each result goes
    back as one JSON line on `reply_fd` (stdout stays free for whatever a test cell prints)."""
    from .grade import grade_one
    from .startup import isolate_jax_for_grader
    isolate_jax_for_grader()
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the parent's to handle; this ends with it
    settings = json.loads(sys.stdin.readline())
    _exit_with_parent(settings["parent"])
    devices.start_at(settings["index"])     # graders sharing several GPUs start on different ones
    limits = Limits(**settings["limits"])
    course = Course(Path(settings["root"]))
    hide = settings["hide"]
    cache = None
    if limits.compile_cache:
        cache = BatchCache(limits, course.hidden_paths() + hide)
        cache.built = {name: Built(**b) for name, b in settings["built"].items()}
    with os.fdopen(reply_fd, "w") as replies:
        for line in sys.stdin:
            i, path = json.loads(line)
            result = grade_one(path, course, settings["assignment"], limits, hide, cache)
            replies.write(json.dumps(["result", i, result]) + "\n")
            replies.flush()
        replies.write(json.dumps(["stats", settings["index"], dict(cache.stats) if cache else {}]) + "\n")


class _Grader:
    """The parent's end of one grader process."""

    def __init__(self, index: int, settings: dict):
        self.replies, write_fd = os.pipe()
        package_parent = str(Path(__file__).resolve().parents[2])   # found however the parent found it
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (package_parent, os.environ.get("PYTHONPATH")) if p)}
        self.proc = subprocess.Popen([sys.executable, "-m", "autograder.grading.processes", str(write_fd)],
                                     stdin=subprocess.PIPE, pass_fds=(write_fd,), text=True, env=env)
        os.close(write_fd)
        self.proc.stdin.write(json.dumps({**settings, "index": index}) + "\n")
        self.proc.stdin.flush()
        self.buffer = b""
        self.done = False

    def lines(self) -> list[str]:
        """The complete lines that arrived (call when its pipe is readable); marks the end."""
        chunk = os.read(self.replies, 1 << 20)
        if not chunk:
            self.done = True
        self.buffer += chunk
        *complete, self.buffer = self.buffer.split(b"\n")
        return [line.decode() for line in complete]

    def give(self, task):
        """Send the next notebook, or (None) close stdin: no more."""
        try:
            if task is None:
                self.proc.stdin.close()
            else:
                self.proc.stdin.write(json.dumps(task) + "\n")
                self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):   # it died: the end of its pipe says so
            pass


def grade_in_processes(paths, course: Course, assignment: str | None, limits: Limits, jobs: int,
                       hide: list[str], on_done=None, cache: BatchCache | None = None) -> list[dict]:
    """Grade `paths` in `jobs` grader processes; results in the order of `paths`."""
    paths = [str(p) for p in paths]
    if cache is not None:
        build_caches(cache, course, assignments_of(paths, course, assignment), jobs)
    settings = {"parent": os.getpid(), "root": str(course.root), "assignment": assignment,
                "limits": dataclasses.asdict(limits), "hide": list(hide),
                "built": {n: dataclasses.asdict(b) for n, b in (cache.built.items() if cache else ())}}
    todo = list(enumerate(paths))[::-1]
    graders = [_Grader(k, settings) for k in range(max(1, min(jobs, len(paths))))]
    for g in graders:
        g.give(todo.pop() if todo else None)
    out: list = [None] * len(paths)
    try:
        while not all(g.done for g in graders):
            ready, _, _ = select.select([g.replies for g in graders if not g.done], [], [])
            for g in [g for g in graders if g.replies in ready]:
                for line in g.lines():
                    kind, i, value = json.loads(line)
                    if kind == "stats":
                        if cache is not None:
                            cache.merge(value)
                        continue
                    out[i] = value
                    if on_done:
                        on_done(value)
                    g.give(todo.pop() if todo else None)
    finally:
        for g in graders:
            with contextlib.suppress(OSError, ValueError):
                g.proc.stdin.close()
            try:
                g.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                g.proc.kill()
            os.close(g.replies)
    for i, result in enumerate(out):
        if result is None:   # its grader process died while it held this notebook, or before it
            out[i] = failed_notebook(paths[i], f"{paths[i]}: grader error: its grading process ended",
                                     assignment or "")
            if on_done:
                on_done(out[i])
    return out


if __name__ == "__main__":
    serve(int(sys.argv[1]))
