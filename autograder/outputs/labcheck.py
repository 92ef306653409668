"""`make labcheck`: one prepared check that grading works on this machine's GPU with the JAX it has.

It runs from a copy of the repository on a lab machine whose Python and JAX are already installed
and that may have no network: it uses the machine's own `python3` and JAX (when `jax.devices("gpu")`
works there), and takes the grader's few pure-Python dependencies (nbformat and its tree) from a
folder of wheels that `make labcheck-wheels` prepares on a machine with network. Stages, in order,
each timed:

  devices   the GPUs, the JAX version, what one worker gets (its GPU, allocator settings, memory cap)
  memory    a worker under each kind of memory cap: does CUDA start under it, how much host memory
            it holds (measured; the kind `auto` picks must start the GPU)
  hostile   a host-memory bomb, two GPU-memory bombs and a fork bomb, graded at --jobs 2 beside a
            right answer: each costs only its own exercise
  retrace   a retracing and a non-retracing submission, with the student code on the GPU, then on
            the CPU: the verdicts of the CPU on both
  gpu-j2    the self-test of every assignment (reference + known-wrong rounds, 55 notebooks) as one
            batch at --jobs 2 on one GPU: verdicts, notebooks per minute
  cpu-j2    the same batch with the student code on the CPU (AUTOGRADER_WORKER_JAX_PLATFORMS=cpu)
  gpu-j1    the same batch at --jobs 1: 08, 07 and 03 first, then as many others as the deadline
            leaves time for (--quick: those three)
  gpu-auto  the same batch at the default --jobs (optional: the first to go when time runs short)

It prints one table and writes the JSON to $OUT/labcheck.json when OUT is set, else ./labcheck.json.
Exit status: 0 every verdict as expected; 1 an unexpected verdict; 2 it cannot run here (no GPU:
one line); 3 all as expected, but a stage (or some of gpu-j1's assignments) was left out to end by
--deadline (default 330 s from the start): rerun with `--stages` for what is left.

`--allow-cpu` (hidden; for the project's own CPU machines) runs every stage with whatever backend
the worker's JAX finds, so the whole script can be exercised where there is no GPU.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
STAGES = ("devices", "memory", "hostile", "retrace", "gpu-j2", "cpu-j2", "gpu-j1", "gpu-auto")
OPTIONAL = ("gpu-auto",)                 # skipped for time without making the run incomplete
# gpu-j1 grades these first (timing, devices and retraces are where a GPU differs most), then the
# others, as many as the deadline leaves time for
FIRST_ASSIGNMENTS = ("08_numerics_and_performance", "07_parallelism", "03_control_flow")
QUICK_ASSIGNMENTS = FIRST_ASSIGNMENTS
T0 = "JAXCOURSE_LABCHECK_T0"             # when the first pass started (time.time()), for the total
READY = "JAXCOURSE_LABCHECK_READY"       # set once the dependencies are importable (after re-exec)
NEEDED = ("nbformat", "cloudpickle", "rich", "numpy", "jax")
HOSTILE_TIMEOUT = 8.0                    # seconds per call in the hostile stage (the fork bomb waits it out)


def say(text: str = ""):
    print(text, flush=True)


# ================================================================ before anything is imported
def gpu_problem() -> str | None:
    """Why this machine cannot run the check (None: its JAX sees a GPU). Costs one `import jax`."""
    from ..sandbox import devices
    found = devices.discover()
    if found.kind != "gpu" or not found.count:
        where = found.source if found.source != "none found" else \
            "none in /proc/driver/nvidia/gpus, /dev/nvidia* or nvidia-smi"
        return f"no GPU on this machine ({where}): nothing to check here"
    env = {k: v for k, v in os.environ.items() if k not in ("JAX_PLATFORMS", "AUTOGRADER_WORKER_JAX_PLATFORMS")}
    r = subprocess.run([sys.executable, "-c", "import jax; print(len(jax.devices('gpu')))"],
                       capture_output=True, text=True, env=env, timeout=300)
    if r.returncode == 0:
        return None
    last = (r.stderr.strip().splitlines() or ["no output"])[-1][:200]
    return (f"this machine has {found.count} GPU(s) but `{sys.executable}` has no JAX with a GPU "
            f"backend ({last}): install the course's `cuda` extra (pip install -e '.[cuda]') or a "
            f"jax[cuda12]/jax[cuda13] matching the driver, then run this again")


def _installed(dist: str) -> bool:
    from importlib import metadata
    try:
        metadata.version(dist)
        return True
    except metadata.PackageNotFoundError:
        return False


def install_wheels(folder: Path) -> Path:
    """Install the wheels of `folder` that this Python lacks into a private target folder (no
    index, no dependencies resolved: the folder holds the whole tree); return that folder."""
    wheels = sorted(folder.glob("*.whl"))
    todo = [w for w in wheels if not _installed(w.name.split("-")[0])]
    stamp = str(abs(hash(tuple(w.name for w in todo))))
    target = Path(tempfile.gettempdir()) / f"jaxcourse-labcheck-site-{sys.version_info[0]}{sys.version_info[1]}"
    if (target / ".stamp").exists() and (target / ".stamp").read_text() == stamp:
        return target
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(mode=0o755)
    if todo:
        r = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
                            "--no-compile", "--disable-pip-version-check", "--target", str(target),
                            *map(str, todo)], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"pip could not install the wheels of {folder}: "
                               + (r.stderr.strip().splitlines() or ["?"])[-1])
    for d, _, _ in os.walk(target):        # the workers run under other uids: readable by all
        os.chmod(d, 0o755)
    (target / ".stamp").write_text(stamp)
    return target


def bootstrap(argv: list[str], wheels: Path) -> int | None:
    """Make the grader importable, then run this module again with PYTHONPATH set (the workers
    inherit it). Returns an exit status when it cannot; does not return when it re-executes."""
    from importlib.util import find_spec
    missing = [m for m in NEEDED if find_spec(m) is None]
    if "jax" in missing or "numpy" in missing:
        say(f"labcheck: `{sys.executable}` has no JAX (or NumPy): use the Python whose JAX sees the GPU")
        return 2
    paths = [str(REPO)]
    if missing:
        if not any(wheels.glob("*.whl")):
            say(f"labcheck: {', '.join(missing)} missing and no wheels in {wheels}: run `make "
                f"labcheck-wheels` on a machine with network and copy {wheels.name}/ here")
            return 2
        try:
            paths.insert(0, str(install_wheels(wheels)))
        except (RuntimeError, OSError) as exc:
            say(f"labcheck: {exc}")
            return 2
    old = os.environ.get("PYTHONPATH")
    env = {**os.environ, READY: "1", "PYTHONPATH": os.pathsep.join(paths + ([old] if old else [])),
           T0: os.environ.get(T0, repr(time.time()))}
    os.execve(sys.executable, [sys.executable, "-m", "autograder.outputs.labcheck", *argv], env)
    return None


# ================================================================ stages
@dataclass
class Stage:
    name: str
    backend: str = ""
    jobs: int = 0
    notebooks: int = 0
    expected: int = 0          # verdicts checked
    good: int = 0              # verdicts as expected
    seconds: float = 0.0
    note: str = ""
    problems: list = field(default_factory=list)
    detail: dict = field(default_factory=dict)
    skipped: str = ""
    skipped_part: list = field(default_factory=list)   # gpu-j1: assignments left out for time

    @property
    def per_minute(self) -> float | None:
        return round(self.notebooks / self.seconds * 60, 1) if self.notebooks and self.seconds else None

    @property
    def passed(self) -> bool:
        return not self.skipped and not self.problems and self.good == self.expected and self.expected > 0


@contextmanager
def worker_platforms(value: str | None):
    """The student's worker runs on `value` ("cpu"), or on what JAX finds (None) meanwhile."""
    key = "AUTOGRADER_WORKER_JAX_PLATFORMS"
    old = os.environ.get(key)
    os.environ[key] = value or ""
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = old


class Lab:
    def __init__(self, args):
        from ..course.layout import Course
        self.args = args
        self.course = Course(REPO)
        self.tmp = Path(tempfile.mkdtemp(prefix="jaxcourse-labcheck-"))
        os.chmod(self.tmp, 0o755)
        self.probes: dict = {}     # (platforms, assignment) -> probe
        self.machine: dict = {}
        self.assignments = self.course.assignment_names()

    # ---------------------------------------------------------------- helpers
    def probe(self, assignments, platforms: str | None) -> dict:
        """Backend, device kind and count as each assignment's worker sees them (in parallel)."""
        from .selftest import probe_devices
        todo = [a for a in assignments if (platforms, a) not in self.probes]
        with worker_platforms(platforms), ThreadPoolExecutor(max_workers=max(1, len(todo))) as pool:
            for a, info in zip(todo, pool.map(lambda a: probe_devices(self.course, a), todo)):
                self.probes[(platforms, a)] = info
        return {a: self.probes[(platforms, a)] for a in assignments}

    def limits(self, **kw):
        from ..sandbox.process import Limits
        return Limits(cell_timeout=60.0, check_timeout=60.0, startup_timeout=120.0, **kw)

    def write(self, folder: Path, name: str, nb) -> Path:
        from ..course.notebook import nbformat
        path = folder / name / f"{folder.name}.ipynb"
        path.parent.mkdir(parents=True)
        nbformat.write(nb, str(path))
        return path

    # ---------------------------------------------------------------- devices
    def stage_devices(self, st: Stage):
        from ..sandbox import devices, memlimit
        import jax
        found = devices.discover()
        plan = devices.make_plan(1, 1)
        smi = ""
        if shutil.which("nvidia-smi"):
            smi = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
        info = self.probe(["01_jax_basics"], None)["01_jax_basics"]
        h = memlimit.hierarchy()
        self.machine = {
            "jax": info["jax"], "grader_jax": jax.__version__, "python": sys.version.split()[0],
            "backend": info["backend"], "device_kind": info["kind"], "devices_per_worker_seen": info["count"],
            "gpus": list(found.ids), "gpus_from": found.source, "nvidia_smi": smi.splitlines(),
            "cores": os.cpu_count(), "worker_environment": plan.environment(0 if plan.groups else None),
            "memory_limit_auto": memlimit.label(memlimit.choose("auto", devices.accelerator_may_be_used()),
                                                4096),
            "cgroup": f"v{h.version} under {h.parent}" if h else "none writable",
            "cgroup_mounts": _cgroup_mounts(),
            "device_nodes": _device_nodes(),
            "default_jobs": devices.default_jobs(40),
        }
        st.backend, st.expected = info["backend"], 1
        st.good = int(self.args.allow_cpu or info["backend"] == "gpu")
        if not st.good:
            st.problems.append(f"the worker's JAX runs on {info['backend']}, not the GPU")
        st.note = f"{info['kind']} x{info['count']}, jax {info['jax']}"
        st.detail = self.machine
        for key, value in self.machine.items():
            say(f"  {key}: {value}")

    # ---------------------------------------------------------------- memory
    def stage_memory(self, st: Stage):
        """One worker per kind of cap, at once: does JAX start the GPU under it, and does the cap
        stop a host-memory bomb (64 MB strings, written, for up to BOMB_WINDOW seconds)?"""
        from ..sandbox import devices, memlimit
        from ..sandbox.process import WorkerDied, WorkerProcess, dumps_request as _dumps
        accelerator = devices.accelerator_may_be_used()
        auto = memlimit.choose("auto", accelerator)
        # "none" tells a cap that stops CUDA from a sandbox that does (device permissions, ...)
        kinds = ["none", "rlimit-as", "rlimit-data"] + (["cgroup"] if memlimit.hierarchy() else [])
        want = self.probe(["01_jax_basics"], None)["01_jax_basics"]["backend"]
        setup = ("import jax, jax.numpy as jnp\n_y = (jnp.ones((1024, 1024)) @ jnp.ones((1024, 1024)))"
                 ".block_until_ready()\n")

        def one(kind):
            t = time.perf_counter()
            worker = None
            try:
                worker = WorkerProcess(self.limits(memory_limit=kind, concurrent_workers=len(kinds)), [])
                reply = worker.request({"op": "exec", "grade_id": "setup", "source": setup, "trusted": True},
                                       120, None)
                if not reply["ok"]:
                    return {"kind": kind, "backend": "failed", "why": reply["error"]["message"][:200]}
                backend = worker.request({"op": "info"}, 120, None)["backend"]
                out = {"kind": kind, "backend": backend, "host_mb_after_start": worker.memory.peak_mb()}
                if backend != want:
                    out["why"] = (worker.stderr_tail(400).strip().splitlines() or [""])[-1][:200]
                # the device allocator's own limit: the worker's share of the GPU (0.75 / sharers)
                worker.request({"op": "exec", "grade_id": "mem", "source": MEMORY_STATS}, 60, None)
                stats = worker.request({"op": "call", "target": ("name", "_memory_stats"),
                                        "args": _dumps(((), {}))}, 60, None)
                if stats.get("ok") and stats["value"].get("bytes_limit"):
                    out["device_limit_gb"] = round(stats["value"]["bytes_limit"] / 2**30, 1)
                if kind != "none":   # uncapped, the bomb would take the machine's memory
                    worker.request({"op": "exec", "grade_id": "bomb", "source": BOMB}, 60, None)
                    t1 = time.perf_counter()
                    try:
                        reply = worker.request({"op": "call", "target": ("name", "bomb"),
                                                "args": _dumps(((), {}))}, BOMB_WINDOW, None)
                        out["bomb"] = reply["error"]["type"] if not reply["ok"] else "returned"
                    except WorkerDied as died:
                        out["bomb"] = died.reason
                    out["bomb_s"] = round(time.perf_counter() - t1, 1)
                    out["host_peak_mb"] = worker.memory.peak_mb()
                    out["bomb_stopped"] = _stopped(out, kind)
                return out
            except (WorkerDied, RuntimeError, OSError) as exc:
                tail = worker.stderr_tail(400).strip().splitlines()[-1:] if worker else []
                return {"kind": kind, "backend": "failed", "why": f"{exc} {' '.join(tail)}"[:300]}
            finally:
                if worker:
                    worker.close()
                st.detail.setdefault("seconds", {})[kind] = round(time.perf_counter() - t, 1)

        with ThreadPoolExecutor(max_workers=len(kinds)) as pool:
            rows = list(pool.map(one, kinds))
        st.detail["kinds"] = rows
        st.detail["auto"] = auto
        st.backend = want
        chosen = next(r for r in rows if r["kind"] == auto)
        st.expected = 2
        st.good = int(chosen["backend"] == want) + int(bool(chosen.get("bomb_stopped")))
        if chosen["backend"] != want:
            st.problems.append(f"under the cap `auto` picks ({auto}) the worker runs on {chosen['backend']}, "
                               f"not {want}: {chosen.get('why', '')}")
        if not chosen.get("bomb_stopped"):
            st.problems.append(f"the cap `auto` picks ({auto}) did not stop a host-memory bomb: "
                               f"{chosen.get('bomb')}, peak {chosen.get('host_peak_mb')} MB")
        st.note = "; ".join(f"{r['kind']}: {r['backend']}"
                            + (f", bomb {'stopped' if r.get('bomb_stopped') else 'NOT stopped'}" if "bomb" in r else "")
                            + (f", {r['host_mb_after_start']:.0f} MB at start" if r.get("host_mb_after_start") else "")
                            + (f", GPU share {r['device_limit_gb']} GB" if r.get("device_limit_gb") else "")
                            for r in rows) + f"; auto = {auto}"
        for r in rows:
            say(f"  {r}")

    # ---------------------------------------------------------------- hostile
    def stage_hostile(self, st: Stage):
        from ..course.layout import Course
        from ..grading.grade import grade_many
        corpus = _load(REPO / "tests" / "hostile" / "corpus.py")
        attacks = {
            "host_memory_bomb": corpus["ATTACKS"]["memory_bomb_in_function"]["cell"],
            "gpu_memory_bomb": ("import jax.numpy as jnp\ndef victim(x):\n    hog = []\n    while True:\n"
                                "        hog.append(jnp.zeros((2**30,)) + x.sum())   # 4 GiB more each time\n"),
            "gpu_memory_bomb_one_array": ("import jax.numpy as jnp\ndef victim(x):\n"
                                          "    return jnp.zeros((2**36,)) + x.sum()   # 256 GiB at once\n"),
            "fork_bomb": corpus["ATTACKS"]["fork_bomb"]["cell"],
            "right_answer_beside_them": corpus["RIGHT"],
        }
        root = self.tmp / "hostile"
        source = root / "course" / "source" / "hostile" / "hostile.ipynb"
        source.parent.mkdir(parents=True)
        from ..course.notebook import nbformat
        nbformat.write(_hostile_notebook(corpus["RIGHT"]), str(source))
        subs = root / "subs" / "hostile"
        paths = [self.write(subs, name, _hostile_notebook(cell)) for name, cell in attacks.items()]
        limits = self.limits()
        limits.cell_timeout = limits.check_timeout = HOSTILE_TIMEOUT
        st.jobs, st.notebooks = 2, len(paths)
        results = grade_many(paths, Course(root / "course"), "hostile", limits, jobs=2)
        st.backend = "/".join(sorted({r["backend"] for r in results}))
        st.expected = len(results)
        for name, r in zip(attacks, results):
            ex = r["exercises"]
            victim = ex.get("victim", {}).get("score")
            bystanders = [ex.get(b, {}).get("score") for b in ("bystander_a", "bystander_b")]
            want_victim = 3.0 if name == "right_answer_beside_them" else 0.0
            ok = victim == want_victim and bystanders == [3.0, 3.0] and not r["errors"]
            st.good += ok
            messages = [c["message"].splitlines()[0][:160] for c in ex.get("victim", {}).get("checks", [])
                        if not c["passed"]]
            st.detail[name] = {"victim": victim, "bystanders": bystanders, "messages": messages,
                               "memory_limit": r.get("memory_limit"), "backend": r["backend"]}
            if not ok:
                st.problems.append(f"{name}: victim {victim} (want {want_victim}), bystanders {bystanders} "
                                   f"(want 3.0 each), errors {r['errors'][:1]}: {messages[:1]}")
        st.note = f"memory_limit {results[0].get('memory_limit')}"

    # ---------------------------------------------------------------- retrace
    def stage_retrace(self, st: Stage):
        from ..grading.grade import grade_many
        from .selftest import compare, load_cases, notebook_with_cells
        a = "02_static_shapes"
        cases = load_cases(self.course, a)
        name = next(n for n, c in cases.items() if c["fails"] == ["create_filled_retrace"])
        source = self.course.source / a / f"{a}.ipynb"
        subs = {"reference": notebook_with_cells(source), "round0": notebook_with_cells(source, cases[name]["cells"])}
        verdicts = {}
        for platforms in (None, "cpu"):
            folder = self.tmp / f"retrace-{platforms or 'default'}" / a
            paths = [self.write(folder, s, nb) for s, nb in subs.items()]
            with worker_platforms(platforms):
                results = grade_many(paths, self.course, a, self.limits(), jobs=2)
            label = "/".join(sorted({r["backend"] for r in results}))
            got = compare(dict(zip(subs, results)), {name: cases[name]}, {name: "round0"}, 1)
            verdicts[label if platforms is None else "cpu"] = got
            failed = {s: sorted(c["name"] for e in r["exercises"].values() for c in e["checks"]
                                if not c["passed"] and c["name"].startswith("create_filled"))
                      for s, r in zip(subs, results)}
            st.detail[platforms or "default"] = {"backend": label, "failed": failed}
            st.expected += len(got)
            st.good += sum(v.as_expected for v in got)
            st.problems += [f"{label}: {v.case}: {v.detail}" for v in got if not v.as_expected]
        if st.detail["default"]["failed"] != st.detail["cpu"]["failed"]:
            st.problems.append(f"verdicts differ: {st.detail['default']['failed']} vs cpu {st.detail['cpu']['failed']}")
        st.backend = f"{st.detail['default']['backend']}+cpu"
        st.jobs, st.notebooks = 2, 4
        st.note = f"{name} fails only create_filled_retrace; the reference passes"

    # ---------------------------------------------------------------- the self-test as one batch
    def stage_batch(self, st: Stage, jobs: int | None, platforms: str | None, assignments,
                    end_by: float | None = None, pace: float | None = None):
        """The self-test of `assignments` as one batch of `jobs` workers. With `end_by` (a
        perf_counter time; --jobs 1 only, where one batch per assignment loses nothing), the
        assignments are graded one after another and those that would end after it are left out,
        judged by the seconds per notebook so far (or `pace` before the first)."""
        from ..grading.grade import grade_many
        from ..sandbox import devices
        from .selftest import compare, load_cases, submissions
        probes = self.probe(assignments, platforms)
        folder = self.tmp / st.name
        index, groups = {}, []
        for a in assignments:
            cases = load_cases(self.course, a)
            subs, rounds = submissions(self.course, a, cases)
            index[a] = (cases, rounds, list(subs))
            groups.append([self.write(folder / a, s, nb) for s, nb in subs.items()])
        if end_by is None:
            groups = [[p for g in groups for p in g]]
        results, done, graded = [], [], 0
        with worker_platforms(platforms):
            jobs = jobs or devices.default_jobs(sum(map(len, groups)))
            started = time.perf_counter()
            for i, paths in enumerate(groups):
                per_notebook = (time.perf_counter() - started) / graded if graded else (pace or 0.0)
                if end_by is not None and time.perf_counter() + per_notebook * len(paths) > end_by:
                    st.skipped_part = assignments[i:]
                    break
                results += grade_many(paths, self.course, None, self.limits(), jobs)
                graded += len(paths)
                done.append(assignments[i] if end_by is not None else None)
            st.seconds = time.perf_counter() - started      # grading only: the rate's denominator
        if end_by is not None:
            assignments = [a for a in done if a]
            if not assignments:
                st.skipped = "not started: no assignment fits in the time left before --deadline"
                return
        paths = [p for g in groups for p in g]
        by_path = dict(zip(map(str, paths), results))
        st.jobs, st.notebooks = jobs, len(results)
        per = {}
        for a in assignments:
            cases, rounds, students = index[a]
            mine = {s: by_path[str(folder / a / s / f"{a}.ipynb")] for s in students}
            verdicts = compare(mine, cases, rounds, probes[a]["count"])
            backends = {r["backend"] for r in mine.values()}
            if backends != {probes[a]["backend"]}:
                st.problems.append(f"{a}: graded on {sorted(backends)} but JAX reports {probes[a]['backend']}")
            st.expected += len(verdicts)
            st.good += sum(v.as_expected for v in verdicts)
            st.problems += [f"{a} / {v.case}: {v.detail}" for v in verdicts if not v.as_expected]
            per[a] = {"as_expected": sum(v.as_expected for v in verdicts), "verdicts": len(verdicts),
                      "backend": probes[a]["backend"], "devices": probes[a]["count"],
                      "seconds_in_worker": round(sum(r.get("seconds", 0) for r in mine.values()), 1)}
        st.detail = {"assignments": per, "memory_limit": sorted({r.get("memory_limit") for r in results})}
        st.backend = "/".join(sorted({r["backend"] for r in results}))
        st.note = f"memory_limit {', '.join(st.detail['memory_limit'])}"


BOMB = ("def bomb():\n    hog = []\n    while True:\n"
        "        hog.append(b'x' * 2**26)   # 64 MB, written: really used\n")
BOMB_WINDOW = 20.0
MEMORY_STATS = ("import jax\n"
                "def _memory_stats():\n"
                "    s = jax.devices()[0].memory_stats() or {}\n"
                "    return {k: s.get(k) for k in ('bytes_limit', 'bytes_in_use', 'peak_bytes_in_use')}\n")


def _stopped(out: dict, kind: str) -> bool:
    """The cap stopped the bomb: the allocation failed, or the kernel ended the worker, or (a
    cgroup reclaiming the worker's own pages until the timeout) the cgroup never went past it."""
    what = out.get("bomb", "")
    if "MemoryError" in what or "ran out of memory" in what:
        return True
    peak = out.get("host_peak_mb")
    return kind == "cgroup" and "timed out" in what and peak is not None and peak <= 4096 * 1.02


def _cgroup_mounts() -> list[str]:
    """The cgroup file systems and, for v2, what its root offers and hands down (why a cgroup
    memory cap is or is not possible here)."""
    from ..sandbox import memlimit
    out = []
    for point, fstype, options in memlimit._mounts():
        if fstype == "cgroup2":
            ctl = memlimit._read(os.path.join(point, "cgroup.controllers")).split()
            sub = memlimit._read(os.path.join(point, "cgroup.subtree_control")).split()
            out.append(f"cgroup2 {point}: controllers {ctl}, subtree_control {sub}")
        elif fstype == "cgroup" and "memory" in options.split(","):
            out.append(f"cgroup v1 memory {point}")
    return out


def _device_nodes() -> list[str]:
    """The NVIDIA device nodes and their modes (the worker opens them as an unprivileged uid)."""
    import glob
    import stat
    return [f"{p} {stat.filemode(os.stat(p).st_mode)}" for p in sorted(glob.glob("/dev/nvidia*"))
            if not os.path.isdir(p)]


def _load(path: Path) -> dict:
    ns: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), ns)
    return ns


def _hostile_notebook(victim: str):
    """tests/test_hostile.py's three-exercise assignment: two bystanders solved right around the
    victim; each exercise has a correctness cell (2 points) and a jit cell (1 point)."""
    from ..course.notebook import nbformat
    new = nbformat.v4

    def cell(source, gid, role="other", points=None):
        meta = {"grade_id": gid, "locked": role != "solution", "solution": role == "solution",
                "grade": role == "test", "schema_version": 3}
        if points is not None:
            meta["points"] = points
        return new.new_code_cell(source, metadata={"nbgrader": meta})

    # (no solution delimiters in this file: the platform exports refuse a package that holds them)
    bystander = "def bystander_{n}(x):\n    return {k} * x\n"
    cells = [new.new_markdown_cell("labcheck: hostile submissions"),
             cell("import jax\nimport jax.numpy as jnp\nfrom autograder import check", "setup")]
    for name, source, k in (("bystander_a", bystander.format(n="a", k=3.0), 3.0), ("victim", victim, 2.0),
                            ("bystander_b", bystander.format(n="b", k=4.0), 4.0)):
        cells += [cell(source, name, role="solution"),
                  cell(f"check.assert_close({name}(jnp.arange(3.0)), {k} * jnp.arange(3.0), what='{name}(x)')",
                       f"{name}_correctness", role="test", points=2),
                  cell(f"check.assert_jittable({name}, jnp.arange(3.0))", f"{name}_jit", role="test", points=1)]
    nb = new.new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                   "language": "python"}})
    nb.cells = cells
    return nb


# ================================================================ run, report
def run(args) -> int:
    from ..cli import _isolate_jax_for_grader
    _isolate_jax_for_grader()
    started = time.perf_counter() - max(0.0, time.time() - float(os.environ.get(T0, time.time())))
    lab = Lab(args)
    chosen = [s for s in STAGES if s in args.stages]
    first = [a for a in FIRST_ASSIGNMENTS if a in lab.assignments]
    batch = first + ([] if args.quick else [a for a in lab.assignments if a not in first])
    plan = {
        "devices": lambda st: lab.stage_devices(st),
        "memory": lambda st: lab.stage_memory(st),
        "hostile": lambda st: lab.stage_hostile(st),
        "retrace": lambda st: lab.stage_retrace(st),
        "gpu-j2": lambda st: lab.stage_batch(st, 2, None, lab.assignments),
        "cpu-j2": lambda st: lab.stage_batch(st, 2, "cpu", lab.assignments),
        "gpu-j1": lambda st: lab.stage_batch(st, 1, None, batch, end_by=started + args.deadline,
                                             pace=_j1_pace(stages)),
        "gpu-auto": lambda st: lab.stage_batch(st, None, None, lab.assignments),
    }
    stages = []
    for name in chosen:
        st = Stage(name)
        stages.append(st)
        elapsed = time.perf_counter() - started
        left = args.deadline - elapsed
        guess = _guess_seconds(name, stages, len(lab.assignments))
        if guess > left or left <= 0:
            st.skipped = (f"not started: {elapsed:.0f} s gone, about {guess:.0f} s more would pass "
                          f"--deadline {args.deadline:g} s")
        if st.skipped:
            say(f"[labcheck] {name}: skipped ({st.skipped})")
            continue
        say(f"[labcheck] {name} ... (at {elapsed:.0f} s of {args.deadline:g})")
        t = time.perf_counter()
        try:
            plan[name](st)
        except Exception as exc:   # a broken stage is a failed stage; the others still run
            import traceback
            st.problems.append(f"stage crashed: {type(exc).__name__}: {exc}")
            st.detail["traceback"] = traceback.format_exc()[-3000:]
        wall = time.perf_counter() - t
        st.detail["wall_s"] = round(wall, 1)
        if not st.seconds:
            st.seconds = wall
        st.seconds = round(st.seconds, 1)
        say(f"[labcheck] {name}: {'ok' if st.passed else 'FAILED'} in {wall:.1f} s")
    total = time.perf_counter() - started
    report(lab, stages, total, args)
    shutil.rmtree(lab.tmp, ignore_errors=True)
    if any(not s.passed and not s.skipped for s in stages):
        return 1
    incomplete = any((s.skipped and s.name not in OPTIONAL) or s.skipped_part for s in stages)
    return 3 if incomplete else 0


def _j2_pace(done: list) -> tuple[float, int] | None:
    """(wall seconds, notebooks) of the first --jobs 2 batch already run."""
    for s in done:
        if s.name in ("gpu-j2", "cpu-j2") and not s.skipped and s.detail.get("wall_s") and s.notebooks:
            return s.detail["wall_s"], s.notebooks
    return None


def _guess_seconds(name: str, done: list, all_n: int) -> float:
    """A batch stage's likely length from a --jobs 2 batch already timed (0 when none is)."""
    pace = _j2_pace(done)
    if not pace or name not in ("cpu-j2", "gpu-auto"):
        return 0.0
    return pace[0]


def _j1_pace(done: list) -> float | None:
    """Seconds per notebook at --jobs 1, guessed as twice the --jobs 2 batch's (None: unknown)."""
    pace = _j2_pace(done)
    return 2.0 * pace[0] / pace[1] if pace else None


def report(lab: Lab, stages: list[Stage], total: float, args):
    from rich.console import Console
    from rich.table import Table
    m = lab.machine or next(({"device_kind": p["kind"], "backend": p["backend"], "jax": p["jax"]}
                             for (platforms, _), p in lab.probes.items() if platforms is None), {})
    title = (f"labcheck: {m.get('device_kind', '?')} ({m.get('backend', '?')}), jax {m.get('jax', '?')}, "
             f"python {m.get('python', sys.version.split()[0])}, {os.cpu_count()} cores")
    table = Table(title=title)
    for col, justify in (("stage", "left"), ("backend", "left"), ("jobs", "right"), ("notebooks", "right"),
                         ("as expected", "right"), ("seconds", "right"), ("nb/min", "right"), ("notes", "left")):
        table.add_column(col, justify=justify, no_wrap=col != "notes")
    for s in stages:
        if s.skipped_part:
            s.note = (s.note + "; " if s.note else "") + f"left out for time: {', '.join(s.skipped_part)}"
        if s.skipped:
            s.note = s.skipped
    table_rows(table, stages)
    console = Console(width=200 if not sys.stdout.isatty() else None)
    console.print(table)
    for s in stages:
        for p in s.problems:
            console.print(f"{s.name}: {p}", markup=False, highlight=False, soft_wrap=True)
    rates = {s.name: s.per_minute for s in stages if s.per_minute and s.name in ("gpu-j2", "cpu-j2")}
    if len(rates) == 2:
        console.print(f"batch rate, student code on the GPU vs on the CPU (--jobs 2): {rates['gpu-j2']} vs "
                      f"{rates['cpu-j2']} notebooks per minute", markup=False, highlight=False)
    ok = all(s.passed or (s.skipped and s.name in OPTIONAL) for s in stages) \
        and not any(s.skipped_part for s in stages)
    verdict = "PASS" if ok else ("INCOMPLETE" if all(s.passed or s.skipped for s in stages) else "FAIL")
    console.print(f"{verdict}: {sum(s.good for s in stages)}/{sum(s.expected for s in stages)} verdicts as "
                  f"expected; {total:.0f} s in all", markup=False, highlight=False)
    out = Path(args.json) if args.json else Path(os.environ.get("OUT") or ".") / "labcheck.json"
    payload = {"verdict": verdict, "elapsed_s": round(total, 1), "machine": m, "allow_cpu": bool(args.allow_cpu),
               "quick": bool(args.quick),
               "stages": [{**asdict(s), "per_minute": s.per_minute, "passed": s.passed} for s in stages]}
    out.write_text(json.dumps(payload, indent=1, default=str))
    console.print(f"wrote {out}", markup=False, highlight=False)


def table_rows(table, stages: list[Stage]):
    for s in stages:
        mark = "skipped" if s.skipped else f"{s.good}/{s.expected}" + ("" if s.passed else "  FAIL")
        table.add_row(s.name, s.backend, str(s.jobs or ""), str(s.notebooks or ""), mark,
                      "" if s.skipped else f"{s.seconds:.1f}", str(s.per_minute or ""), s.note)


def parse(argv):
    ap = argparse.ArgumentParser(prog="labcheck", description=__doc__.split("\n")[0])
    ap.add_argument("--stages", default=",".join(STAGES),
                    help=f"comma-separated stages to run (default: all: {','.join(STAGES)})")
    ap.add_argument("--quick", action="store_true", help=f"gpu-j1 on {', '.join(QUICK_ASSIGNMENTS)} only")
    ap.add_argument("--wheels", type=Path, default=REPO / ".labwheels",
                    help="folder of wheels for what this Python lacks (default: .labwheels)")
    ap.add_argument("--json", help="where to write the JSON (default: $OUT/labcheck.json, else ./labcheck.json)")
    ap.add_argument("--deadline", type=float, default=330.0,
                    help="seconds from the start by which the run should end: a stage that would "
                         "pass it is skipped, gpu-j1 grades only what fits (default 330)")
    ap.add_argument("--allow-cpu", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    args.allow_cpu = args.allow_cpu or os.environ.get("JAXCOURSE_LABCHECK_ALLOW_CPU") == "1"
    args.stages = [s.strip() for s in args.stages.split(",") if s.strip()]
    unknown = [s for s in args.stages if s not in STAGES]
    if unknown:
        ap.error(f"unknown stage {unknown[0]!r} (known: {', '.join(STAGES)})")
    return args


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse(argv)
    if os.environ.get(READY) != "1":      # first pass: can it run here at all, then the dependencies
        if not args.allow_cpu:
            problem = gpu_problem()
            if problem:
                say(f"labcheck: {problem}")
                return 2
        status = bootstrap(argv, args.wheels)
        if status is not None:
            return status
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
