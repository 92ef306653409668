"""labcheck's stages (`Lab`): devices, memory caps, bombs, retraces and the self-test batches, each
timed and turned into one row of the table (`Stage`)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .common import HOSTILE_TIMEOUT, REPO, say


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

    def batch_size(self) -> int:
        """The notebooks of the self-test batch: each assignment's reference and rounds."""
        from .selftest import load_cases, pack_cases
        return sum(1 + len(pack_cases(load_cases(self.course, a))) for a in self.assignments)

    def limits(self, **kw):
        from ..sandbox.process import Limits
        # the batches a lab grades share a compile cache (on by default there): checked here too
        return Limits(cell_timeout=60.0, check_timeout=60.0, startup_timeout=120.0,
                      **{"compile_cache": True, **kw})

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
        from ..sandbox.process import WorkerDied, WorkerProcess
        from ..sandbox.wire import dumps_request as _dumps
        accelerator = devices.accelerator_may_be_used()
        auto = memlimit.choose("auto", accelerator)
        # "none" tells a cap that stops CUDA from a sandbox that does (device permissions, ...)
        kinds = ["none", "rlimit-as", "rlimit-data"] + (["cgroup"] if memlimit.hierarchy() else [])
        want = self.probe(["01_jax_basics"], None)["01_jax_basics"]["backend"]
        setup = ("import jax, jax.numpy as jnp\n_y = (jnp.ones((1024, 1024)) @ jnp.ones((1024, 1024)))"
                 ".block_until_ready()\n")

        one_bomb_at_a_time = threading.Lock()

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
                    with one_bomb_at_a_time:   # three 4 GB bombs at once thrash a small machine
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
        probes = {None: self.probe([a], None)[a]["backend"], "cpu": "cpu"}   # (and the title's card)
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
            if label != probes[platforms]:
                st.problems.append(f"graded on {label} but JAX reports {probes[platforms]}")
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
