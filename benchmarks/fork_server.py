"""The fork server (sandbox/zygote.py) against the exec path, in the same run.

    .venv/bin/python benchmarks/fork_server.py [--starts 7] [--notebooks 8] [--assignment 03_control_flow]
                                               [--jobs 2] [--rounds 2] [--cell-timeout 15] [--json FILE]

1. Starting a worker: `WorkerProcess` then its first setup cell (`import jax`, `jax.numpy`, NumPy),
   `--starts` times per side, the sides alternating (exec path: AUTOGRADER_FORK_SERVER=0; fork
   server: a zygote already running, the usual case after a grader's first worker). Wall seconds to
   the reply, and CPU seconds of everything it took: the grader's own, the worker's process tree
   (unshare or the zygote's child C, the supervisor, the worker, read from /proc before it is
   closed) and, for the fork server, the zygote's (the fork itself). Medians, and exec / fork.
2. Grading `--notebooks` student notebooks of `--assignment` (right and known-wrong answers in
   turn, compile_cache.py's class) with `grade_many` at `--jobs`, the batch compile cache on as
   `autograde` has it, in a fresh Python process per run, sides alternating for `--rounds`: wall
   seconds and the CPU seconds of the grader and all its descendants, read from a cpuacct cgroup (v1)
   or a cgroup v2 of its own the run is started in (root; workers on the CPU stay in it, their memory
   cap being RLIMIT_AS), else from getrusage, which misses the workers that a pid 1 reaped. Medians,
   and exec / fork; checks whose verdict differs (must be 0).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))

SWITCH = "AUTOGRADER_FORK_SERVER"
SETUP = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n"
TICK = os.sysconf("SC_CLK_TCK")


def _cpu(pid: int, with_children: bool = True) -> float:
    from autograder.sandbox import procs
    total = 0.0
    for p in [pid, *procs.descendants(pid)] if with_children else [pid]:
        try:
            fields = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(v) for v in fields[11:15]) / TICK    # utime stime cutime cstime
    return total


def one_start(fork: bool) -> tuple[float, float]:
    from autograder.sandbox import forkserver
    from autograder.sandbox.process import Limits, WorkerProcess
    os.environ[SWITCH] = "1" if fork else "0"
    zygotes = forkserver.pids() if fork else []
    before = sum(_cpu(z, False) for z in zygotes) + time.process_time()
    started = time.perf_counter()
    worker = WorkerProcess(Limits(), [])
    try:
        reply = worker.request({"op": "exec", "grade_id": "setup", "source": SETUP, "trusted": True}, 120, None)
        wall = time.perf_counter() - started
        assert reply["ok"], reply
        cpu = _cpu(worker.proc.pid) + sum(_cpu(z, False) for z in zygotes) + time.process_time() - before
    finally:
        worker.close()
    return wall, cpu


def starts(n: int) -> dict:
    from autograder.grading.startup import isolate_jax_for_grader
    isolate_jax_for_grader()
    first = one_start(True)     # starts the zygote: not counted, as a warm-up
    one_start(False)
    runs = {"exec": [], "fork": []}
    for i in range(n):
        for side in (("exec", "fork") if i % 2 == 0 else ("fork", "exec")):
            runs[side].append(one_start(side == "fork"))
    row = {side: {"wall_s": statistics.median(w for w, _ in rs), "cpu_s": statistics.median(c for _, c in rs)}
           for side, rs in runs.items()}
    row["first_fork_wall_s"], row["first_fork_cpu_s"] = first
    row["wall_ratio"] = row["exec"]["wall_s"] / row["fork"]["wall_s"]
    row["cpu_ratio"] = row["exec"]["cpu_s"] / row["fork"]["cpu_s"]
    print(f"worker start + first setup cell, median of {n}: exec {row['exec']['wall_s']:.3f} s wall, "
          f"{row['exec']['cpu_s']:.3f} s CPU; fork server {row['fork']['wall_s']:.3f} s wall, "
          f"{row['fork']['cpu_s']:.3f} s CPU; exec / fork: wall {row['wall_ratio']:.2f}x, CPU {row['cpu_ratio']:.2f}x "
          f"(the first worker, zygote start included: {first[0]:.2f} s wall)", flush=True)
    return row


def _cpu_cgroup() -> tuple[str, str] | None:
    """A fresh cgroup that counts CPU time: (its folder, the file that holds the count), or None."""
    for root, counter in (("/sys/fs/cgroup/cpuacct", "cpuacct.usage"), ("/sys/fs/cgroup", "cpu.stat")):
        if os.path.exists(os.path.join(root, counter)) or os.path.exists(os.path.join(root, "cgroup.procs")):
            path = os.path.join(root, f"jaxcourse-bench-{os.getpid()}-{time.monotonic_ns()}")
            try:
                os.mkdir(path)
            except OSError:
                continue
            if os.path.exists(os.path.join(path, counter)):
                return path, counter
            os.rmdir(path)
    return None


def _cgroup_cpu_s(group: tuple[str, str]) -> float:
    text = Path(group[0], group[1]).read_text()
    if group[1] == "cpuacct.usage":
        return int(text) / 1e9
    return int(next(line.split()[1] for line in text.splitlines() if line.startswith("usage_usec"))) / 1e6


def child(spec_file: str):
    """In a fresh process: grade the batch; print seconds, CPU seconds and verdicts as one JSON line."""
    import compile_cache as cc
    from autograder.sandbox import forkserver
    spec = json.loads(Path(spec_file).read_text())
    if spec.get("cgroup"):
        Path(spec["cgroup"], "cgroup.procs").write_text("0")
    out = cc.run_batch(spec["paths"], spec["jobs"], True, spec["cell_timeout"])
    forkserver.shutdown()
    usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    out["cpu_s"] = sum(u.ru_utime + u.ru_stime for u in usage)
    print(json.dumps(out))


def batch(paths: list[str], fork: bool, jobs: int, cell_timeout: float) -> dict:
    group = _cpu_cgroup()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump({"paths": paths, "jobs": jobs, "cell_timeout": cell_timeout, "cgroup": group and group[0]}, fh)
    env = {**os.environ, "JAX_PLATFORMS": "cpu", SWITCH: "1" if fork else "0"}
    r = subprocess.run([sys.executable, __file__, "--child", fh.name], capture_output=True, text=True, env=env)
    os.unlink(fh.name)
    if r.returncode != 0:
        raise SystemExit(f"the batch failed:\n{r.stderr[-3000:]}")
    out = json.loads(r.stdout.splitlines()[-1])
    if group:
        time.sleep(1)     # the last workers' processes, ended with the grader, leave the cgroup
        out["cpu_s"] = _cgroup_cpu_s(group)
        for _ in range(50):
            try:
                os.rmdir(group[0])
                break
            except OSError:
                time.sleep(0.2)
    return out


def batches(args) -> dict:
    import compile_cache as cc
    cc.student_kind = lambda i, mix: "wrong" if i % 2 else "right"
    with tempfile.TemporaryDirectory(prefix="jaxcourse-fs-") as tmp:
        paths = cc.class_notebooks(Path(tmp), args.assignment, args.notebooks, True)
        runs = {"exec": [], "fork": []}
        for i in range(args.rounds):
            for side in (("exec", "fork") if i % 2 == 0 else ("fork", "exec")):
                runs[side].append(batch(paths, side == "fork", args.jobs, args.cell_timeout))
    disagree = sum(runs["exec"][0]["verdicts"][p].get(c) != v
                   for p, checks in runs["fork"][0]["verdicts"].items() for c, v in checks.items())
    row = {side: {"wall_s": statistics.median(r["seconds"] for r in rs), "cpu_s": statistics.median(r["cpu_s"] for r in rs),
                  "runs": [(round(r["seconds"], 2), round(r["cpu_s"], 2)) for r in rs]} for side, rs in runs.items()}
    row.update(notebooks=args.notebooks, jobs=args.jobs, disagreements=disagree,
               wall_ratio=row["exec"]["wall_s"] / row["fork"]["wall_s"], cpu_ratio=row["exec"]["cpu_s"] / row["fork"]["cpu_s"])
    print(f"{args.notebooks} notebooks of {args.assignment} at --jobs {args.jobs}, median of {args.rounds}: "
          f"exec {row['exec']['wall_s']:.1f} s wall, {row['exec']['cpu_s']:.1f} s CPU; fork server "
          f"{row['fork']['wall_s']:.1f} s wall, {row['fork']['cpu_s']:.1f} s CPU; exec / fork: wall "
          f"{row['wall_ratio']:.2f}x, CPU {row['cpu_ratio']:.2f}x; checks that disagree: {disagree}", flush=True)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--starts", type=int, default=7)
    ap.add_argument("--notebooks", type=int, default=8)
    ap.add_argument("--assignment", default="03_control_flow")
    from compile_cache import batch_options
    batch_options(ap, rounds=2)
    args = ap.parse_args()
    if args.child:
        return child(args.child)
    print(f"cores: {os.cpu_count()}, load: {os.getloadavg()[0]:.1f}", flush=True)
    rows = {}
    if args.starts:
        rows["starts"] = starts(args.starts)
    if args.notebooks:
        rows["batch"] = batches(args)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
