"""Memory and CPU of one grading-container run (Gradescope/PrairieLearn), per assignment.

Runs the Gradescope entry point (`python -m autograder.platforms.gradescope ROOT`) on each
assignment's reference notebook in a simulated /autograder, with the isolation Gradescope's
containers allow (`process`), and samples every process of the run every 20 ms:

- peak PSS: the run's memory with shared pages counted once (what a container's memory limit
  charges, less page cache that the kernel can drop);
- peak anonymous RSS: memory that cannot be dropped (no swap in a grading container);
- CPU seconds (grader and workers), and so the wall time to expect on Gradescope's default half a CPU;
- the CLI (`autograder grade`) on the same notebook in the same run, as the baseline for wall time.

    .venv/bin/python benchmarks/container_footprint.py [ASSIGNMENT ...]
"""
from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from autograder.course import Course  # noqa: E402
from autograder.platforms import bundle  # noqa: E402
from autograder.sandbox.process import Limits  # noqa: E402

LIMIT_MB = 768


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def _kb(path: Path, key: str) -> int:
    try:
        for line in path.read_text().splitlines():
            if line.startswith(key):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def measure(cmd: list[str], env: dict) -> dict:
    """Run `cmd`, sampling its process tree; returns peaks (MB), CPU seconds and wall seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = {"pss": 0, "anon": 0, "processes": 0}
    done = threading.Event()

    def sample():
        while not done.is_set():
            pids = _descendants(proc.pid)
            pss = sum(_kb(Path(f"/proc/{p}/smaps_rollup"), "Pss:") for p in pids)
            anon = sum(_kb(Path(f"/proc/{p}/status"), "RssAnon:") for p in pids)
            peak["pss"] = max(peak["pss"], pss)
            peak["anon"] = max(peak["anon"], anon)
            peak["processes"] = max(peak["processes"], len(pids))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = proc.communicate()
    done.set()
    sampler.join()
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd[:4]} exited {proc.returncode}: {err.decode()[-500:]}")
    return {"pss_mb": peak["pss"] / 1024, "anon_mb": peak["anon"] / 1024, "cpu_s": cpu, "wall_s": wall,
            "processes": peak["processes"]}


def container_python(folder: Path) -> str:
    """A venv any uid may run (the grading child drops root, as on Gradescope), whose packages are
    this environment's and this checkout's (no download)."""
    import sysconfig
    base = "/usr/bin/python3.11" if Path("/usr/bin/python3.11").exists() else sys.executable
    subprocess.run([base, "-m", "venv", "--without-pip", str(folder)], check=True)
    site = next((folder / "lib").glob("python3*/site-packages"))
    (site / "_footprint.pth").write_text(f"{sysconfig.get_paths()['purelib']}\n"
                                         f"{Path(__file__).resolve().parent.parent}\n")
    return str(folder / "bin" / "python")


def main(names: list[str]) -> int:
    course = Course()
    names = names or course.assignment_names()
    env = {**os.environ, "AUTOGRADER_WORKER_JAX_PLATFORMS": "cpu", "JAX_PLATFORMS": "cpu"}
    rows = []
    shared = Path(tempfile.mkdtemp(prefix="jaxcourse-footprint-"))
    shared.chmod(0o755)
    python = container_python(shared / "venv")
    for name in names:
        with tempfile.TemporaryDirectory(prefix="run-", dir=shared) as tmp:
            Path(tmp).chmod(0o755)
            root = Path(tmp) / "autograder"
            bundle.write_material(course, name, root / "source")
            bundle.write_config(root / "source", name, 480.0, Limits(cell_timeout=20.0, isolation="process"))
            (root / "submission").mkdir(parents=True)
            shutil.copy(course.source / name / f"{name}.ipynb", root / "submission" / f"{name}.ipynb")
            container = measure([python, "-I", "-m", "autograder.platforms.gradescope", str(root)], env)
            results = json.loads((root / "results" / "results.json").read_text())
            out = Path(tmp) / "cli.json"
            cli = measure([sys.executable, "-m", "autograder.cli", "grade", str(course.source / name / f"{name}.ipynb"),
                           "--json", str(out), "--quiet", "--isolation", "process"], env)
        full = bool(results["tests"]) and results["score"] == sum(t["max_score"] for t in results["tests"]) > 0
        isolation = results.get("extra_data", {}).get("isolation")
        rows.append((name, container, cli, full))
        print(f"{name:28s} peak PSS {container['pss_mb']:6.0f} MB ({container['pss_mb'] / LIMIT_MB:4.2f} of "
              f"{LIMIT_MB}) | anon {container['anon_mb']:6.0f} MB | {container['processes']} processes | "
              f"CPU {container['cpu_s']:5.1f} s -> ~{container['cpu_s'] / 0.5:5.0f} s on 0.5 CPU | wall "
              f"{container['wall_s']:5.1f} s vs CLI {cli['wall_s']:5.1f} s ({container['wall_s'] / cli['wall_s']:.2f}x)"
              f" | CLI peak PSS {cli['pss_mb']:5.0f} MB | isolation {isolation} | full marks: {full}", flush=True)
    shutil.rmtree(shared, ignore_errors=True)
    worst = max(rows, key=lambda r: r[1]["pss_mb"])
    print(f"worst: {worst[0]}: {worst[1]['pss_mb']:.0f} MB PSS = {worst[1]['pss_mb'] / LIMIT_MB:.2f} of "
          f"Gradescope's default {LIMIT_MB} MB")
    return 0 if all(r[3] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
