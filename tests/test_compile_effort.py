"""Correctness workers on the CPU compile without XLA's costly passes; the timing worker compiles with
all of them (`sandbox/compile_effort.py`). Whether a verdict moves with it is checked on the whole
course by tests/test_course.py and tests/test_right_answers.py (every reference, known-wrong case and
right answer, by the CLI and by `nbgrader autograde`, whose kernels compile quickly too)."""
from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import nbformat

from support.notebooks import code_cell, make_notebook
from support.worker_calls import call_in_worker

REPORT = ("import os, jax\n"
          "def report():\n"
          "    return [bool(jax.config.read('jax_disable_most_optimizations')),\n"
          "            any('QUICK' in name for name in os.environ),\n"
          "            '--xla_cpu_use_fusion_emitters=false' in os.environ.get('XLA_FLAGS', '').split()]\n")


def _report(limits) -> list:
    return call_in_worker(limits, REPORT, "report")


def test_a_worker_compiles_quickly_when_asked_and_student_code_finds_no_variable(limits):
    assert limits.quick_compiles                                   # the default
    assert _report(limits) == [True, False, True]
    assert _report(dataclasses.replace(limits, quick_compiles=False)) == [False, False, False]


def test_nbgraders_kernel_gets_the_quick_compiles_before_jax_and_keeps_an_instructors_flags():
    """nbgrader_config.py's first exec line, in a fresh interpreter as in the kernel: the same settings
    a correctness worker gets, added to XLA_FLAGS that were set already, once."""
    import os
    import subprocess
    import sys
    line = "__import__('autograder.sandbox.compile_effort', fromlist=['_']).for_kernel()"
    config = (Path(__file__).resolve().parent.parent / "nbgrader_config.py").read_text()
    assert f"--IPKernelApp.exec_lines={line}" in config
    code = (f"{line}\n{line}\nimport os, sys, jax\n"
            "print(os.environ['XLA_FLAGS'], bool(jax.config.read('jax_disable_most_optimizations')))")
    env = {k: v for k, v in os.environ.items() if k != "JAX_DISABLE_MOST_OPTIMIZATIONS"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={**env, "XLA_FLAGS": "--xla_force_host_platform_device_count=2"})
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["--xla_force_host_platform_device_count=2", "--xla_cpu_use_fusion_emitters=false",
                                "True"], r.stdout


# A student whose answer depends on how its worker compiles: right with quick compiles, wrong (and
# slow) with full ones. Its correctness cell passes only in a quick worker; its performance cell
# finds that the fully optimizing timing worker traced another program than the quick worker did.
SOLUTION = ("QUICK = jax.config.read('jax_disable_most_optimizations')\n\n"
            "def wave(x):\n"
            "    ### BEGIN SOLUTION\n"
            "    if QUICK:\n"
            "        return jnp.sin(x)\n"
            "    slow = jax.lax.fori_loop(0, 200_000, lambda i, v: v + 0.0 * jnp.sin(v), x)\n"
            "    return jnp.sin(slow) + 1.0\n"
            "    ### END SOLUTION\n")


def _cells():
    return [
        code_cell("import jax\nimport jax.numpy as jnp\nfrom autograder import check", "setup"),
        code_cell(SOLUTION, "wave", role="solution"),
        code_cell("check.assert_close(wave(jnp.arange(3.0)), jnp.sin(jnp.arange(3.0)), what='wave(x)')",
                  "wave_correctness", role="test", points=1),
        code_cell("check.assert_runtime_within(wave, jnp.sin, (jnp.arange(3.0),), 3, what='x of shape (3,)')",
                  "wave_performance", role="test", points=1),
    ]


def test_the_correctness_worker_compiles_quickly_and_the_timing_worker_fully(tmp_path, limits):
    from autograder.course import Course
    from autograder.grading.grade import grade_notebook
    root = tmp_path / "course"
    (root / "source" / "wave").mkdir(parents=True)
    shutil.copy(Path(__file__).resolve().parent.parent / "nbgrader_config.py", root / "nbgrader_config.py")
    nbformat.write(make_notebook(_cells()), str(root / "source" / "wave" / "wave.ipynb"))
    student = tmp_path / "submitted" / "wave.ipynb"
    student.parent.mkdir(parents=True)
    nbformat.write(make_notebook(_cells()), str(student))
    result = grade_notebook(student, Course(root), "wave", limits).to_json()
    verdicts = {c["name"]: (c["passed"], c["message"]) for e in result["exercises"].values() for c in e["checks"]}
    assert verdicts["wave_correctness"][0], verdicts["wave_correctness"][1]
    passed, message = verdicts["wave_performance"]
    assert not passed and "traced where the other checks ran, the same function and inputs give" in message, message


SPY = """
import json, jax, jax.numpy as jnp
from jax._src import compiler
seen = []
real = compiler.get_compile_options
def spy(*args, **kwargs):
    options = real(*args, **kwargs)
    overrides = dict(options.env_option_overrides)
    seen.append([overrides.get("xla_backend_optimization_level"),
                 options.executable_build_options.debug_options.xla_backend_optimization_level,
                 overrides.get("xla_cpu_use_fusion_emitters")])
    return options
compiler.get_compile_options = spy
from autograder.checks import timing
x = jnp.arange(3.0)
jnp.cos(x).block_until_ready()
eager = list(seen)
seen.clear()
result = timing.time_against(lambda v: jnp.sin(v) * 2, lambda v: jnp.sin(v) * 2, (x,), 3)
print(json.dumps({"eager": eager, "timed": seen, "ok": result["ok"]}))
"""


def test_a_performance_check_times_fully_optimized_programs_in_a_quick_process():
    """Where the process compiles quickly (a correctness worker, nbgrader's kernel), the two programs a
    performance check times are compiled with XLA's full optimization and its default emitters all the
    same: each compile's options carry them as overrides, which XLA applies over the process's setting
    (the override's effect on compile time: benchmarks/README.md)."""
    import json
    import os
    import subprocess
    import sys
    from autograder.sandbox.compile_effort import QUICK_XLA_FLAGS
    env = {**os.environ, "JAX_DISABLE_MOST_OPTIMIZATIONS": "1", "JAX_PLATFORMS": "cpu", "XLA_FLAGS": QUICK_XLA_FLAGS}
    r = subprocess.run([sys.executable, "-c", SPY], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    seen = json.loads(r.stdout.strip().splitlines()[-1])
    assert seen["eager"] and all(e == [None, 0, None] for e in seen["eager"]), seen    # the process: quick
    assert sum(t == [3, 0, True] for t in seen["timed"]) == 2, seen                 # student's and reference's
    assert seen["ok"], seen
