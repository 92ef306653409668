"""How workers share accelerators, and the memory cap each one gets (sandbox/devices.py, memlimit.py);
how the lab hub's student servers share them beside the graders (lab/hub_spawn.py).

The GPUs are faked with AUTOGRADER_GPUS (this machine has none); everything else is the real code
path: the plan, the leases, the worker's environment as the worker process itself reads it, its
rlimits and its cgroup, and a memory bomb stopped by that cgroup.
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

import pytest

from support.notebooks import TEST_TIMEOUT, write_toy_submission

from autograder.sandbox import devices, memlimit


def fake(n, **extra) -> dict:
    """A grader environment with `n` fake GPUs and the worker's JAX free to use them."""
    return {"AUTOGRADER_GPUS": str(n), "AUTOGRADER_WORKER_JAX_PLATFORMS": "", **extra}


def lease_all(jobs, per_worker=1, environ=None):
    """The environments of `jobs` workers running at once (leases taken, then given back)."""
    plan = devices.make_plan(jobs, per_worker, environ)
    leases = [devices.Lease(plan, environ) for _ in range(jobs)]
    try:
        return [lease.environment for lease in leases]
    finally:
        for lease in leases:
            lease.release()


@pytest.mark.parametrize("gpus, jobs, per_worker, visible, fraction", [
    (1, 1, 1, ["0"], "0.75"),                                  # JAX's own default share
    (1, 2, 1, ["0", "0"], "0.375"),                            # one GPU shared by two workers
    (2, 2, 1, ["0", "1"], "0.75"),                             # a GPU each
    (2, 4, 1, ["0", "1", "0", "1"], "0.375"),                  # two workers per GPU, round robin
    (8, 8, 1, [str(i) for i in range(8)], "0.75"),
    (8, 4, 2, ["0,1", "2,3", "4,5", "6,7"], "0.75"),           # --devices-per-worker 2
    (8, 3, 3, ["0,1,2", "3,4,5", "0,1,2"], "0.375"),           # 6 and 7 left over: 2 groups of 3
    (8, 16, 1, [str(i % 8) for i in range(16)], "0.375"),
])
def test_each_worker_gets_its_share(gpus, jobs, per_worker, visible, fraction):
    envs = lease_all(jobs, per_worker, fake(gpus))
    assert [e["CUDA_VISIBLE_DEVICES"] for e in envs] == visible
    assert {e["XLA_PYTHON_CLIENT_PREALLOCATE"] for e in envs} == {"false"}
    assert {e["XLA_PYTHON_CLIENT_MEM_FRACTION"] for e in envs} == {fraction}


def test_a_freed_gpu_is_taken_before_a_busy_one():
    """Leases, not a counter: a worker that restarts while its neighbour runs on GPU 1 gets GPU 0
    again, never a second worker on GPU 1 while GPU 0 is idle."""
    plan = devices.make_plan(2, 1, fake(2))
    first, second = devices.Lease(plan, fake(2)), devices.Lease(plan, fake(2))
    try:
        assert (first.devices, second.devices) == (("0",), ("1",))
        first.release()
        again = devices.Lease(plan, fake(2))
        assert again.devices == ("0",)
        again.release()
    finally:
        first.release()
        second.release()


def test_the_cpu_gets_no_gpu_variables():
    for environ in (fake(8, AUTOGRADER_WORKER_JAX_PLATFORMS="cpu"), fake(0), {"AUTOGRADER_GPUS": "0"}):
        assert not devices.accelerator_may_be_used(environ)
        assert lease_all(2, 1, environ) == [{}, {}]


def test_admin_settings_win():
    """The admin's CUDA_VISIBLE_DEVICES is the pool; their allocator variables are passed on."""
    environ = {"AUTOGRADER_WORKER_JAX_PLATFORMS": "", "CUDA_VISIBLE_DEVICES": "2,5",
               "XLA_PYTHON_CLIENT_MEM_FRACTION": ".5"}
    envs = lease_all(2, 1, environ)
    assert [e["CUDA_VISIBLE_DEVICES"] for e in envs] == ["2", "5"]
    assert {e["XLA_PYTHON_CLIENT_MEM_FRACTION"] for e in envs} == {".5"}
    assert devices.discover({"CUDA_VISIBLE_DEVICES": "0,-1,1"}).ids == ("0",)   # CUDA stops at -1
    assert devices.discover({"CUDA_VISIBLE_DEVICES": ""}).count == 0


def test_default_jobs_follow_the_devices():
    cores = os.cpu_count() or 1
    assert devices.default_jobs(100, 1, fake(0)) == cores
    assert devices.default_jobs(100, 1, fake(1)) == min(cores, devices.DEFAULT_WORKERS_PER_GPU)
    assert devices.default_jobs(100, 1, fake(8)) == min(cores, 8 * devices.DEFAULT_WORKERS_PER_GPU)
    assert devices.default_jobs(100, 8, fake(8)) == min(cores, devices.DEFAULT_WORKERS_PER_GPU)
    assert devices.default_jobs(1, 1, fake(8)) == 1
    assert devices.default_jobs(100, 1, fake(8, AUTOGRADER_WORKER_JAX_PLATFORMS="cpu")) == cores


def test_memory_cap_kind():
    assert memlimit.choose("auto", accelerator=False) == "rlimit-as"
    assert memlimit.choose("auto", accelerator=True) == ("cgroup" if memlimit.hierarchy() else "rlimit-data")
    assert memlimit.choose("rlimit-data", accelerator=False) == "rlimit-data"
    with pytest.raises(ValueError):
        memlimit.choose("ulimit", accelerator=True)
    assert memlimit.label("cgroup", 4096) == "cgroup 4096 MB" and memlimit.label("none", 1) == "none"


# ---------------------------------------------------------------- the lab's hub (lab/hub_spawn.py)
def _hub_settings(instructor="prof"):
    return {"instructor": instructor, "env": "/srv/env",
            "config_dirs": {"student": "/srv/config/student", "instructor": "/srv/config/instructor"}}


def test_hub_students_share_their_cards_and_grading_keeps_its_own():
    """4 fake GPUs, GPU 3 kept for grading, 4 students a card: 12 students' servers round robin
    over GPUs 0-2 with a quarter of JAX's share each; the instructor's server sees GPU 3 only, and
    the grading workers `autograder autograde` starts from its terminal take their shares there."""
    from autograder.lab.hub_spawn import Shares, server_environment
    shares = Shares(None, ["3"], students_per_gpu=4, environ=fake(4))
    try:
        students = [server_environment(_hub_settings(), f"s{i}", shares) for i in range(12)]
        assert [e["CUDA_VISIBLE_DEVICES"] for e in students] == [str(i % 3) for i in range(12)]
        assert {e["XLA_PYTHON_CLIENT_MEM_FRACTION"] for e in students} == {"0.1875"}
        assert {e["XLA_PYTHON_CLIENT_PREALLOCATE"] for e in students} == {"false"}
        assert {e["JUPYTER_CONFIG_PATH"] for e in students} == {"/srv/config/student"}
        teacher = server_environment(_hub_settings(), "prof", shares)
        assert teacher["JUPYTER_CONFIG_PATH"] == "/srv/config/instructor"
        assert teacher["CUDA_VISIBLE_DEVICES"] == "3" and "XLA_PYTHON_CLIENT_MEM_FRACTION" not in teacher
        # what the hub's spawner passes on (LocalProcessSpawner keeps PATH, LANG, ... and adds these)
        workers = lease_all(3, 1, {**teacher, "AUTOGRADER_WORKER_JAX_PLATFORMS": ""})
        assert [e["CUDA_VISIBLE_DEVICES"] for e in workers] == ["3", "3", "3"]
        assert {e["XLA_PYTHON_CLIENT_MEM_FRACTION"] for e in workers} == {"0.25"}    # 0.75 / 3
        assert not {e["CUDA_VISIBLE_DEVICES"] for e in workers} & {e["CUDA_VISIBLE_DEVICES"] for e in students}
        # both sides wrote their share with the one function the grader uses
        assert devices.share_environment(("1",), 4) == {k: students[1][k] for k in devices.share_environment(("1",), 4)}
    finally:
        for i in range(12):
            shares.release(f"s{i}")


def test_hub_a_stopped_server_gives_its_card_back():
    from autograder.lab.hub_spawn import Shares
    shares = Shares(["0", "1"], (), students_per_gpu=1, environ={})
    try:
        assert [shares.student(n)["CUDA_VISIBLE_DEVICES"] for n in ("a", "b")] == ["0", "1"]
        shares.release("a")
        assert shares.student("c")["CUDA_VISIBLE_DEVICES"] == "0"
        assert shares.student("b")["CUDA_VISIBLE_DEVICES"] == "1"     # a restart keeps one lease
        assert sum(len(lease.devices) for lease in shares.leases.values()) == 2
        assert shares.instructor()["CUDA_VISIBLE_DEVICES"] == "0,1"    # nothing reserved: every card
    finally:
        for name in ("a", "b", "c"):
            shares.release(name)


def test_hub_falls_back_to_the_cpu():
    from autograder.lab.hub_spawn import Shares
    none = Shares(None, (), environ=fake(0))
    assert none.student("s") == {} and none.instructor() == {}
    every_card_graded = Shares(None, ["0"], environ=fake(1))
    assert every_card_graded.student("s") == {"JAX_PLATFORMS": "cpu", "CUDA_VISIBLE_DEVICES": ""}
    with pytest.raises(ValueError, match="not among"):
        Shares(None, ["7"], environ=fake(2))
    admin = Shares(None, (), environ=fake(1, XLA_PYTHON_CLIENT_MEM_FRACTION=".3"))
    try:
        assert admin.student("s")["XLA_PYTHON_CLIENT_MEM_FRACTION"] == ".3"     # the admin's wins
    finally:
        admin.release("s")


# ---------------------------------------------------------------- real workers
_REPORT = ("import os, resource\n"
           "def report():\n"
           "    env = {k: os.environ.get(k) for k in ('CUDA_VISIBLE_DEVICES', 'XLA_PYTHON_CLIENT_PREALLOCATE',\n"
           "                                         'XLA_PYTHON_CLIENT_MEM_FRACTION', 'JAX_PLATFORMS')}\n"
           "    return {'env': env, 'as': resource.getrlimit(resource.RLIMIT_AS)[0],\n"
           "            'data': resource.getrlimit(resource.RLIMIT_DATA)[0],\n"
           "            'cgroup': open('/proc/self/cgroup').read()}\n")


def _report(worker) -> dict:
    from autograder.sandbox.wire import dumps_request as _dumps
    reply = worker.request({"op": "exec", "grade_id": "report", "source": _REPORT}, 60, None)
    assert reply["ok"], reply
    return worker.request({"op": "call", "target": ("name", "report"), "args": _dumps(((), {}))}, 60, None)["value"]


def _in_cgroup(report: dict, worker) -> bool:
    name = os.path.basename(worker.memory.path or "/nowhere")
    return any(line.endswith("/" + name) for line in report["cgroup"].splitlines())


def test_workers_see_their_own_gpu_and_cap(limits, monkeypatch):
    """Three workers of sixteen at once on 8 (fake) GPUs: each process sees its own GPU, its half
    of JAX's usual share, and the memory cap CUDA can start under, applied to itself."""
    import dataclasses

    from autograder.sandbox.process import WorkerProcess
    for key, value in fake(8).items():
        monkeypatch.setenv(key, value)
    limits = dataclasses.replace(limits, concurrent_workers=16)
    workers = [WorkerProcess(limits, []) for _ in range(3)]
    try:
        reports = [_report(w) for w in workers]
        assert [r["env"]["CUDA_VISIBLE_DEVICES"] for r in reports] == ["0", "1", "2"]
        assert {r["env"]["XLA_PYTHON_CLIENT_PREALLOCATE"] for r in reports} == {"false"}
        assert {r["env"]["XLA_PYTHON_CLIENT_MEM_FRACTION"] for r in reports} == {"0.375"}
        cap = limits.memory_mb * 2**20
        for w, r in zip(workers, reports):
            assert r["as"] == resource.RLIM_INFINITY, "RLIMIT_AS would stop cuInit"
            if memlimit.hierarchy():
                assert w.memory_limit == f"cgroup {limits.memory_mb} MB"
                assert _in_cgroup(r, w), r["cgroup"]
            else:
                assert w.memory_limit == f"rlimit-data {limits.memory_mb} MB" and r["data"] == cap
        paths = [w.memory.path for w in workers]
    finally:
        for w in workers:
            w.close()
    assert not any(p and os.path.exists(p) for p in paths), "a worker's cgroup outlived it"


def test_a_cpu_worker_keeps_rlimit_as(limits, monkeypatch):
    from autograder.sandbox.process import WorkerProcess
    for key, value in fake(8, AUTOGRADER_WORKER_JAX_PLATFORMS="cpu").items():
        monkeypatch.setenv(key, value)
    worker = WorkerProcess(limits, [])
    try:
        r = _report(worker)
    finally:
        worker.close()
    assert worker.memory_limit == f"rlimit-as {limits.memory_mb} MB"
    assert r["as"] == limits.memory_mb * 2**20
    assert r["env"]["CUDA_VISIBLE_DEVICES"] is None and r["env"]["XLA_PYTHON_CLIENT_PREALLOCATE"] is None


BOMB = ("def bomb():\n    hog = []\n    while True:\n"
        "        hog.append(b'x' * 2**26)   # written, so the pages are really used\n")


@pytest.mark.skipif(memlimit.hierarchy() is None, reason="no writable memory cgroup here (needs root)")
def test_cgroup_stops_a_memory_bomb(limits):
    """Under a 512 MB cgroup the kernel ends the worker; the grader says it ran out of memory, and
    the cgroup is gone after close()."""
    import dataclasses

    from autograder.sandbox.process import WorkerDied, WorkerProcess
    from autograder.sandbox.wire import dumps_request as _dumps
    worker = WorkerProcess(dataclasses.replace(limits, memory_limit="cgroup", memory_mb=512), [])
    try:
        assert worker.request({"op": "exec", "grade_id": "bomb", "source": BOMB}, 60, None)["ok"]
        with pytest.raises(WorkerDied) as died:
            worker.request({"op": "call", "target": ("name", "bomb"), "args": _dumps(((), {}))}, 60, None)
        assert died.value.reason == "ran out of memory (the limit is 512 MB)"
        assert worker.memory.peak_mb() is None or worker.memory.peak_mb() <= 512
        path = worker.memory.path
    finally:
        worker.close()
    assert not os.path.exists(path)


def test_rlimit_data_stops_a_memory_bomb(limits):
    """RLIMIT_DATA (the fallback where no cgroup can be made): the allocation fails, the worker lives."""
    import dataclasses

    from autograder.sandbox.process import WorkerProcess
    from autograder.sandbox.wire import dumps_request as _dumps
    worker = WorkerProcess(dataclasses.replace(limits, memory_limit="rlimit-data", memory_mb=512), [])
    try:
        assert worker.request({"op": "exec", "grade_id": "bomb", "source": BOMB}, 60, None)["ok"]
        reply = worker.request({"op": "call", "target": ("name", "bomb"), "args": _dumps(((), {}))}, 60, None)
        assert not reply["ok"] and reply["error"]["type"] == "MemoryError", reply
        assert worker.memory_limit == "rlimit-data 512 MB"
    finally:
        worker.close()


def test_cli_reports_the_memory_limit_and_takes_the_options(toy_course, tmp_path):
    nb = write_toy_submission(tmp_path / "toy.ipynb")
    base = [sys.executable, "-m", "autograder.cli", "grade", str(nb), "--course-root", str(toy_course.root),
            "--check-timeout", str(TEST_TIMEOUT), "--cell-timeout", str(TEST_TIMEOUT), "--quiet"]
    runs = {"cpu": {"AUTOGRADER_WORKER_JAX_PLATFORMS": "cpu"}, "gpu": fake(2)}
    for name, extra in runs.items():
        out = tmp_path / f"{name}.json"
        r = subprocess.run([*base, "--json", str(out), "--devices-per-worker", "2"], capture_output=True,
                           text=True, timeout=300, env={**os.environ, **extra})
        assert r.returncode == 0, r.stderr[-2000:]
        obj = json.loads(out.read_text())
        assert obj["score"] == obj["max_score"] > 0
        expected = "rlimit-as" if name == "cpu" else "cgroup" if memlimit.hierarchy() else "rlimit-data"
        assert obj["memory_limit"] == f"{expected} 4096 MB"
    r = subprocess.run([*base, "--json", str(tmp_path / "x.json"), "--devices-per-worker", "0"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and r.stderr.strip() == \
        "autograder: error: --devices-per-worker must be at least 1 (got 0)"
