"""A batch over several grader processes: `--jobs N` beyond what one grader process drives
(`NOTEBOOKS_PER_GRADER` notebooks at once, in threads) runs several, so that the grader's own work
(test cells, protocol, decoding replies: a fifth to a third of a notebook, more with the compile
cache) runs on several cores instead of under one GIL (`--grader-processes` to choose).

Each grader process is `python -m autograder.grading.processes` (a fresh interpreter, nothing
inherited from a parent that runs threads, and no re-import of the caller's script). The parent
hands out notebooks one at a time, to whichever grader is free (a slow notebook never holds up a
fixed share), takes each result as it comes (so `autograde` commits it at once) and returns them
in the order given. The batch's compile caches are built by the parent while the graders start,
in a thread that takes one job's slot (`batch_cache.py`); every grader process gets the same sealed
folders. A grader process that dies costs only the notebook it held (an error entry);
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
from ..sandbox import devices, one_core
from ..sandbox.process import Limits
from .batch_cache import BatchCache, Built
from .results import failed_notebook


# Notebooks one grader process grades at once: its own share of a notebook (test cells, protocol) is
# about a fifth to a third, so one GIL keeps up with three to five workers (benchmarks/README.md).
NOTEBOOKS_PER_GRADER = 4


def grader_processes(jobs: int, asked: int | None = None) -> tuple[int, int]:
    """(processes, notebooks each) for `jobs` notebooks at once."""
    processes = asked or -(-jobs // NOTEBOOKS_PER_GRADER)
    processes = max(1, min(processes, jobs))
    return processes, -(-jobs // processes)


def assignments_of(paths, course: Course, assignment: str | None) -> list[str]:
    """The assignments a batch holds, in the order of their first notebook (read from each
    notebook when not given)."""
    if assignment:
        return [assignment]
    found: dict[str, None] = {}
    for path in paths:
        try:
            found[course.guess_assignment(Path(path), classify(read_notebook(Path(path))))] = None
        except (NotebookError, OSError):
            continue
    return list(found)


def build_caches(cache: BatchCache, course: Course, names: list[str]):
    """Build the batch's compile caches one after another (in the command's builder thread)."""
    for name in names:
        try:
            cache.limits_for(course.assignment(name))
        except NotebookError:
            continue


def _exit_with_parent(parent: int):
    """In a grader process: exit the moment the parent is gone (killed by any signal)."""
    def watch():
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def serve(reply_fd: int):
    """A grader process (`python -m autograder.grading.processes FD`): its settings on the first
    line of stdin, then one notebook per line (index, path and the caches built so far, as JSON)
    until EOF, graded `threads` at a time; each result goes back as one JSON line on `reply_fd`
    (stdout stays free for whatever a test cell prints)."""
    from .grade import grade_one
    from .startup import isolate_jax_for_grader
    isolate_jax_for_grader()
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the parent's to handle; this ends with it
    settings = json.loads(sys.stdin.readline())
    _exit_with_parent(settings["parent"])
    devices.start_at(settings["index"])     # graders sharing several GPUs start on different ones
    one_core.start_at(settings["index"] * settings["threads"])   # and their timing workers on different cores
    limits = Limits(**settings["limits"])
    course = Course(Path(settings["root"]))
    hide = settings["hide"]
    cache = BatchCache(limits, course.hidden_paths() + hide, builds=False) if limits.compile_cache else None
    lock = threading.Lock()
    with os.fdopen(reply_fd, "w") as replies:
        def grade(i, path):
            result = grade_one(path, course, settings["assignment"], limits, hide, cache)
            with lock:
                replies.write(json.dumps(["result", i, result]) + "\n")
                replies.flush()

        with ThreadPoolExecutor(max_workers=settings["threads"]) as pool:
            for line in sys.stdin:
                i, path, built = json.loads(line)
                if cache is not None:   # the caches built so far (before its build: own compiles only)
                    cache.built = {name: Built(**b) for name, b in built.items()}
                pool.submit(grade, i, path)
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
        self.holding = 0          # notebooks sent and not yet answered

    def lines(self) -> list[str]:
        """The complete lines that arrived (call when its pipe is readable); marks the end."""
        chunk = os.read(self.replies, 1 << 20)
        if not chunk:
            self.done = True
        self.buffer += chunk
        *complete, self.buffer = self.buffer.split(b"\n")
        return [line.decode() for line in complete]

    def fill(self, todo: list, threads: int, built: dict):
        """Send notebooks (with the caches built so far) until it holds `threads`; with nothing left
        to send and nothing held, close its stdin: it finishes and ends."""
        try:
            while todo and self.holding < threads:
                self.proc.stdin.write(json.dumps([*todo.pop(), built]) + "\n")
                self.proc.stdin.flush()
                self.holding += 1
            if not todo and not self.holding and not self.proc.stdin.closed:
                self.proc.stdin.close()
        except (BrokenPipeError, ValueError):   # it died: the end of its pipe says so
            pass


def grade_in_processes(paths, course: Course, assignment: str | None, limits: Limits, processes: int,
                       threads: int, hide: list[str], on_done=None, cache: BatchCache | None = None) -> list[dict]:
    """Grade `paths` in `processes` grader processes of `threads` notebooks each; results in the
    order of `paths`.

    With a compile cache, the command builds the caches of the batch's assignments in a thread
    that takes one notebook's slot (never more workers at once than `processes * threads`, which
    matters where they share a GPU's memory); each notebook is sent with the caches built so far."""
    paths = [str(p) for p in paths]
    settings = {"parent": os.getpid(), "root": str(course.root), "assignment": assignment,
                "limits": dataclasses.asdict(limits), "hide": list(hide), "threads": threads}
    builder = None
    if cache is not None:
        names = assignments_of(paths, course, assignment)
        builder = threading.Thread(target=build_caches, args=(cache, course, names), name="cache-builder", daemon=True)
        builder.start()

    def built() -> dict:
        return {name: dataclasses.asdict(b) for name, b in (dict(cache.built) if cache else {}).items()}

    def slots(g) -> int:   # the last grader gives one slot to the builder while it builds
        return threads - 1 if g is graders[-1] and builder and builder.is_alive() else threads

    todo = list(enumerate(paths))[::-1]
    graders = [_Grader(k, settings) for k in range(max(1, min(processes, len(paths))))]
    for g in graders:
        g.fill(todo, slots(g), built())
    out: list = [None] * len(paths)
    try:
        while not all(g.done for g in graders):
            ready, _, _ = select.select([g.replies for g in graders if not g.done], [], [], 0.2)
            for g in graders:
                for line in (g.lines() if g.replies in ready else []):
                    kind, i, value = json.loads(line)
                    if kind == "stats":
                        if cache is not None:
                            cache.merge(value)
                        continue
                    out[i] = value
                    g.holding -= 1
                    if on_done:
                        on_done(value)
                if not g.done:
                    g.fill(todo, slots(g), built())
    finally:
        for g in graders:
            with contextlib.suppress(OSError, ValueError):
                g.proc.stdin.close()
            try:
                g.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                g.proc.kill()
            os.close(g.replies)
    if builder is not None:
        # A small batch can be graded before its caches are built (its notebooks do not wait for them).
        # The build ends before the command does: the caller removes the cache's folders next, and a
        # daemon thread still building when the interpreter exits is stopped wherever it is.
        builder.join()
    for i, result in enumerate(out):
        if result is None:   # its grader process died while it held this notebook, or before it
            out[i] = failed_notebook(paths[i], f"{paths[i]}: grader error: its grading process ended",
                                     assignment or "")
            if on_done:
                on_done(out[i])
    return out


if __name__ == "__main__":
    serve(int(sys.argv[1]))
