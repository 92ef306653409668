"""`make labcheck` (autograder/lab/labcheck.py), as far as a machine without a GPU can run it:
the one-line refusals, and a few of its stages end to end with `--allow-cpu`."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from support.notebooks import ROOT

LABCHECK = [sys.executable, "-m", "autograder.lab.labcheck"]


def run(*args, **env):
    return subprocess.run([*LABCHECK, *args], capture_output=True, text=True, timeout=600, cwd=ROOT,
                          env={**os.environ, **env})


def test_no_gpu_is_one_line_and_exit_2():
    r = run(AUTOGRADER_GPUS="0")
    assert r.returncode == 2, r.stderr[-2000:]
    assert r.stdout.strip().splitlines() == ["labcheck: no GPU on this machine (AUTOGRADER_GPUS): nothing "
                                             "to check here"] and not r.stderr


def test_a_gpu_without_a_jax_that_sees_it_says_what_to_install():
    """A GPU is found (faked), but this Python's JAX has no GPU backend: one line naming the fix,
    after really asking JAX."""
    r = run(AUTOGRADER_GPUS="1", JAX_PLATFORMS="")
    assert r.returncode == 2, r.stderr[-2000:]
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1 and "has 1 GPU(s) but" in lines[0] and "`cuda` extra" in lines[0], lines


def test_stages_run_on_the_cpu_when_allowed(tmp_path):
    out = tmp_path / "lab.json"
    r = run("--allow-cpu", "--stages", "devices,memory,retrace", "--json", str(out))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    report = json.loads(out.read_text())
    assert report["verdict"] == "PASS" and [s["name"] for s in report["stages"]] == ["retrace", "devices", "memory"]
    assert report["machine"]["jax"] and report["machine"]["memory_limit_auto"]
    retrace = report["stages"][0]
    assert retrace["detail"]["default"]["failed"]["round0"] == ["create_filled_retrace"]
    assert "PASS: " in r.stdout and "labcheck: " in r.stdout   # the table's title and the last line


def test_stages_run_in_the_order_of_what_a_gpu_has_never_shown(tmp_path):
    """Whatever order --stages names them in; with no time left every one is skipped (exit 3) and
    the JSON still lists them all, in that order."""
    out = tmp_path / "lab.json"
    r = run("--allow-cpu", "--deadline", "0", "--json", str(out),
            "--stages", "scaling,hostile,memory,devices,gpu-auto,gpu-j1,cpu-j2,gpu-j2,retrace")
    order = ["retrace", "gpu-j2", "cpu-j2", "gpu-j1", "devices", "memory", "hostile", "gpu-auto", "scaling"]
    assert r.returncode == 3, r.stdout[-3000:] + r.stderr[-2000:]
    report = json.loads(out.read_text())
    assert [s["name"] for s in report["stages"]] == order and all(s["skipped"] for s in report["stages"])
    assert report["verdict"] == "INCOMPLETE" and report["stages_left"] == []
    lines = [line.split(":")[0] for line in r.stdout.splitlines() if line.startswith("[labcheck] ")]
    assert lines == [f"[labcheck] {name}" for name in order]


def test_each_stage_is_in_the_json_as_it_ends_and_the_scaling_stage_runs_at_jobs_1_and_2(tmp_path):
    """After each stage's line the JSON already holds that stage's row (a run cut short there still
    reports it); the scaling stage, on 2 cores, grades its class batch at --jobs 1 and 2."""
    out = tmp_path / "lab.json"
    proc = subprocess.Popen([*LABCHECK, "--allow-cpu", "--stages", "scaling,devices", "--json", str(out),
                             "--scaling-assignment", "06_tracing_and_purity", "--scaling-notebooks", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    seen, lines, started = {}, [], time.time()
    try:
        for line in proc.stdout:
            lines.append(line)
            for name in ("devices", "scaling"):
                if line.startswith(f"[labcheck] {name}: "):
                    seen[name] = json.loads(out.read_text())
            assert time.time() - started < 300, "".join(lines)[-3000:]
        assert proc.wait(timeout=60) == 0, "".join(lines)[-3000:]
    finally:
        proc.kill()
        proc.wait()
    after_devices, after_scaling = seen["devices"], seen["scaling"]
    assert after_devices["verdict"] == "RUNNING" and after_devices["stages_left"] == ["scaling"]
    assert [s["name"] for s in after_devices["stages"]] == ["devices"] and after_devices["stages"][0]["passed"]
    assert [s["name"] for s in after_scaling["stages"]] == ["devices", "scaling"]
    assert after_scaling["verdict"] == "RUNNING" and after_scaling["stages_left"] == []
    final = json.loads(out.read_text())
    assert final["verdict"] == "PASS"
    scaling = final["stages"][1]
    assert scaling["passed"] and scaling["good"] == scaling["expected"] == 4 and not scaling["skipped_part"]
    runs = scaling["detail"]["runs"]
    assert [r["jobs"] for r in runs] == [1, 2] and all(r["backend"] == "cpu" for r in runs)
    assert all(r["notebooks"] == 2 and r["as_expected"] == 2 and r["per_minute"] > 0 for r in runs)
    assert runs[0]["speedup"] == 1.0 and runs[1]["of_linear"] == round(runs[1]["speedup"] / 2, 2)
    assert "  --jobs 2" in "".join(lines)   # its rows in the table
