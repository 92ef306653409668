"""Eager loops and branches compile once per program in a correctness worker (`sandbox/eager_reuse.py`),
and compute exactly what JAX computes without it: each scenario runs in a fresh interpreter as
JAX dispatches it and, in another, with the merging installed first; both runs' values, dtypes and
weak types must be equal, while the repeated calls compile nothing the second time."""
from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

from support.worker_calls import call_in_worker

SCENARIOS = r'''
import json, os, sys
os.environ["JAX_PLATFORMS"] = "cpu"
import jax, jax.numpy as jnp, numpy as np
from jax import lax

compiles = [0]
def on_event(event, duration, **kw):
    if event == "/jax/core/compile/backend_compile_duration":
        compiles[0] += 1
jax.monitoring.register_event_duration_secs_listener(on_event)

def ema(xs, a):                       # the body is a new closure at each call
    def step(c, x):
        c = a * c + (1 - a) * x
        return c, c
    return lax.scan(step, xs[0], xs)[1]

def weighted(xs, w):                  # closes over an array: a constant of the jaxpr
    return lax.fori_loop(0, 3, lambda i, c: c * w + xs, jnp.zeros_like(xs))

def carried(init):                    # a Python float or a float32 carry: weak type or not
    return lax.fori_loop(0, 2, lambda i, c: c + 1, init)

def called_back(x, f):                # the same printed program, another callback
    return lax.fori_loop(0, 2, lambda i, c: jax.pure_callback(f, jax.ShapeDtypeStruct(c.shape, c.dtype), c), x)

def branch(p, x):
    return lax.cond(p, lambda: x * 2.0, lambda: x - 1.0)

class Scale:                          # two callbacks that print alike and differ
    def __init__(self, k): self.k = k
    def __call__(self, c): return np.asarray(c * self.k, c.dtype)
    def __repr__(self): return "Scale"
plus, times = Scale(2), Scale(3)

xs = jnp.linspace(0.0, 1.0, 12).reshape(6, 2)
CALLS = [
    ("ema 0.5", lambda: ema(xs, 0.5)), ("ema 0.5 again", lambda: ema(xs, 0.5)),
    ("ema 0.25 (another literal)", lambda: ema(xs, 0.25)),
    ("weighted w1", lambda: weighted(xs, jnp.array([1.0, 2.0]))),
    ("weighted w2 (other constants)", lambda: weighted(xs, jnp.array([3.0, -1.0]))),
    ("carry float", lambda: carried(0.0)),
    ("carry float32", lambda: carried(jnp.float32(0))),
    ("callback plus", lambda: called_back(jnp.ones(3), plus)),
    ("callback times", lambda: called_back(jnp.ones(3), times)),
    ("cond true", lambda: branch(True, xs)), ("cond false", lambda: branch(False, xs)),
    ("cond true again", lambda: branch(True, xs)),
    ("scatter and gather (named-tuple parameters)", lambda: ema(xs, 0.5)[:, 0].at[1].set(7.0)[jnp.array([0, 2])]),
    ("switch", lambda: lax.switch(1, [lambda v: v + 1, lambda v: v * 5, lambda v: -v], xs)),
]

def run():
    out = {}
    for name, call in CALLS:
        before = compiles[0]
        r = jax.block_until_ready(call())
        out[name] = {"value": np.asarray(r).tolist(), "dtype": str(r.dtype), "weak": bool(r.weak_type),
                     "compiles": compiles[0] - before}
    return out

if sys.argv[1] == "install":   # before any call: JAX's own cache must not answer for it
    from autograder.sandbox import eager_reuse
    eager_reuse.install()
print("RESULT " + json.dumps(run()))
'''


def _scenarios(mode: str) -> dict:
    r = subprocess.run([sys.executable, "-c", SCENARIOS, mode], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-3000:]
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("RESULT "))
    return json.loads(line[len("RESULT "):])


@pytest.fixture(scope="module")
def installed():
    """Each scenario as JAX dispatches it ("plain") and with the merging ("merged"), each side in a
    process of its own."""
    return {"plain": _scenarios("plain"), "merged": _scenarios("install")}


def test_merged_calls_compute_what_jax_computes(installed):
    for name, plain in installed["plain"].items():
        merged = installed["merged"][name]
        assert {k: merged[k] for k in ("value", "dtype", "weak")} == \
               {k: plain[k] for k in ("value", "dtype", "weak")}, name
    # the scenarios that must not be merged really differ (else the test above proves nothing)
    m = installed["merged"]
    assert m["ema 0.5"]["value"] != m["ema 0.25 (another literal)"]["value"]
    assert m["weighted w1"]["value"] != m["weighted w2 (other constants)"]["value"]
    assert m["carry float"]["weak"] != m["carry float32"]["weak"]
    assert m["callback plus"]["value"] != m["callback times"]["value"]
    assert m["cond true"]["value"] != m["cond false"]["value"]


def test_a_repeated_eager_loop_compiles_once_only_with_the_merging(installed):
    for side in ("plain", "merged"):
        assert installed[side]["ema 0.5"]["compiles"] >= 1, side
    # JAX alone compiles the same loop again at each call; merged, the second call finds it compiled
    assert installed["plain"]["ema 0.5 again"]["compiles"] >= 1
    assert installed["merged"]["ema 0.5 again"]["compiles"] == 0
    assert installed["merged"]["cond true again"]["compiles"] == 0
    # what differs is compiled anew (a literal or a callback is part of the program)
    assert installed["merged"]["ema 0.25 (another literal)"]["compiles"] >= 1
    assert installed["merged"]["callback times"]["compiles"] >= 1


WHO = ("def who():\n"
       "    from jax._src import dispatch\n"
       "    from jax._src.interpreters import mlir\n"
       "    return [dispatch.xla_primitive_callable.__module__, mlir.make_ir_context.__module__]\n")


def test_correctness_workers_merge_and_the_timing_worker_does_not(limits):
    """... and the same for the shared MLIR context (`lowering_context.py`), installed beside it."""
    assert call_in_worker(limits, WHO, "who") == ["autograder.sandbox.eager_reuse",
                                                  "autograder.sandbox.lowering_context"]
    assert call_in_worker(dataclasses.replace(limits, quick_compiles=False), WHO, "who") == [
        "jax._src.dispatch", "jax._src.interpreters.mlir"]


# In nbgrader's kernel: a setup cell sets a JAX option before importing JAX, the next cell reads it.
KERNEL_CELLS = [
    "import os, sys\nbefore = 'jax' in sys.modules\nos.environ['JAX_ENABLE_X64'] = '1'\nimport jax, jax.numpy as jnp",
    "from jax._src import dispatch\nfrom jax._src.interpreters import mlir\n"
    "print(before, dispatch.xla_primitive_callable.__module__, mlir.make_ir_context.__module__, jnp.zeros(1).dtype)",
]


def test_nbgraders_kernels_merge_from_the_first_cell_after_jax_is_imported():
    """nbgrader_config.py's exec lines, in a real kernel as `nbgrader autograde` starts it: nothing is
    imported before the first cell (a setup cell's JAX options hold), the merging is in place from the
    next cell on."""
    from pathlib import Path

    import nbformat
    from nbclient import NotebookClient
    from traitlets.config import Config
    path = Path(__file__).resolve().parent.parent / "nbgrader_config.py"
    config = Config()
    exec(compile(path.read_text(), str(path), "exec"), {"get_config": lambda: config, "__file__": str(path)})
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in KERNEL_CELLS])
    NotebookClient(nb, timeout=120, kernel_name="python3",
                   extra_arguments=list(config.Execute.extra_arguments)).execute()
    assert nb.cells[1].outputs[0]["text"].split() == ["False", "autograder.sandbox.eager_reuse",
                                                      "autograder.sandbox.lowering_context", "float64"]
