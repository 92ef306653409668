"""What each sandbox protection of issue 9 costs when grading one notebook.

    .venv/bin/python benchmarks/sandbox_overhead.py [--assignment 01_jax_basics] [--repeat 5]
                                                    [--isolation namespace|userns]

Grades the reference solution of one assignment (`grade_notebook`, the CLI's own path: fresh
worker, namespaces, `import jax`, every test cell) with all protections on, with each one left
off in turn (`Limits.bench_without`, a switch only this script uses), and with all of them off.
The configurations are interleaved, round after round, so that the load of a shared machine falls
on all of them alike. Prints the median seconds of each and the ratio of the full sandbox against
the run without that protection, measured in the same run. The protections act when a worker
starts, so a second table times that alone (start, confine, `import jax`, first reply), where the
cost is not lost in the noise of a whole notebook's JAX work:

  network   own network namespace, loopback brought up, host sockets (/run) covered
  disk      read-only mounts + a private tmpfs of --disk-mb as /tmp, cwd, HOME; IPC namespace
  lifetime  the supervisor (namespace's pid 1) and its lifeline to the grader
  seccomp   no-new-privileges and the system-call filter of sandbox/seccomp.py (issue 23)
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.course import Course  # noqa: E402
from autograder.grading.grade import grade_notebook  # noqa: E402
from autograder.sandbox.process import PROTECTIONS, Limits, WorkerProcess, choose_isolation  # noqa: E402


def worker_start(limits: Limits) -> float:
    started = time.perf_counter()
    worker = WorkerProcess(limits, [])
    try:
        reply = worker.request({"op": "exec", "grade_id": "setup", "source": "import jax\n",
                                "trusted": True}, 120, None)
        if not reply["ok"]:
            sys.exit(f"the worker could not import jax: {reply['error']}")
        return time.perf_counter() - started
    finally:
        worker.close()


def table(title: str, times: dict[str, list[float]]):
    full = statistics.median(times["full sandbox"])
    print(title)
    print(f"{'configuration':<22}{'median s':>10}{'full / this':>14}")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:<22}{median:>10.3f}{full / median:>14.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assignment", default="01_jax_basics")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--isolation", default="auto", choices=["auto", "namespace", "userns"])
    parser.add_argument("--worker-repeat", type=int, default=10, help="rounds of worker start-ups")
    args = parser.parse_args()
    mode = choose_isolation(args.isolation)
    if mode == "process":
        sys.exit("no namespace isolation on this machine: nothing to compare")
    course = Course(ROOT)
    notebook = course.source / args.assignment / f"{args.assignment}.ipynb"
    configs = {"full sandbox": ()} | {f"without {p}": (p,) for p in PROTECTIONS} \
        | {"without all": PROTECTIONS}
    times: dict[str, list[float]] = {name: [] for name in configs}
    grade_notebook(notebook, course, args.assignment, Limits(isolation=mode))  # warm the page cache
    for round_ in range(args.repeat):
        for name, without in configs.items():
            started = time.perf_counter()
            result = grade_notebook(notebook, course, args.assignment,
                                    Limits(isolation=mode, bench_without=without))
            times[name].append(time.perf_counter() - started)
            if result.score != result.max_score:
                sys.exit(f"{name}: the reference scored {result.score}/{result.max_score}")
        print(f"round {round_ + 1}/{args.repeat} done", file=sys.stderr)
    starts: dict[str, list[float]] = {name: [] for name in configs}
    for _ in range(args.worker_repeat):
        for name, without in configs.items():
            starts[name].append(worker_start(Limits(isolation=mode, bench_without=without)))
    table(f"grading {args.assignment}'s reference, isolation {mode}, median of {args.repeat}", times)
    table(f"\nworker start to its reply to `import jax`, median of {args.worker_repeat}", starts)


if __name__ == "__main__":
    main()
