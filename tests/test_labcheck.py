"""`make labcheck` (autograder/lab/labcheck.py), as far as a machine without a GPU can run it:
the one-line refusals, and a few of its stages end to end with `--allow-cpu`."""
from __future__ import annotations

import json
import os
import subprocess
import sys

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
    assert report["verdict"] == "PASS" and [s["name"] for s in report["stages"]] == ["devices", "memory", "retrace"]
    assert report["machine"]["jax"] and report["machine"]["memory_limit_auto"]
    retrace = report["stages"][2]
    assert retrace["detail"]["default"]["failed"]["round0"] == ["create_filled_retrace"]
    assert "PASS: " in r.stdout and "labcheck: " in r.stdout   # the table's title and the last line
