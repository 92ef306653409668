"""Lowerings share an MLIR context in a correctness worker (`sandbox/lowering_context.py`) and lower
exactly what JAX lowers without it: each side runs in a fresh interpreter (the sharing is per
process), and the persistent compile cache one side writes is what the other side reads."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

# Programs of the kinds a notebook lowers: a jitted function, an eager loop, a gradient, an eager op.
PROGRAMS = r'''
import json, os, sys, threading
os.environ["JAX_PLATFORMS"] = "cpu"
import jax, jax.numpy as jnp
from jax import lax
from jax._src.interpreters import mlir
cache, side = sys.argv[1], sys.argv[2]
jax.config.update("jax_compilation_cache_dir", cache)
jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
lookups = {"/jax/compilation_cache/cache_hits": 0, "/jax/compilation_cache/cache_misses": 0}
jax.monitoring.register_event_listener(
    lambda event, **kw: lookups.__setitem__(event, lookups[event] + 1) if event in lookups else None)

def lowered_texts():
    return [jax.jit(lambda x: jnp.sin(x) @ x.T).lower(jnp.ones((8, 8))).as_text(),
            jax.jit(lambda x, n: lax.fori_loop(0, n, lambda i, y: y * y, x), static_argnums=1)
               .lower(jnp.ones(4), 10).as_text(),
            jax.jit(jax.grad(lambda p: jnp.sum(jnp.tanh(p["w"] @ p["b"]))))
               .lower({"w": jnp.ones((3, 3)), "b": jnp.ones(3)}).as_text()]

out = {"texts_before": lowered_texts()}
if side == "shared":
    from autograder.sandbox import lowering_context
    lowering_context.install()
    made = [mlir.make_ir_context() for _ in range(lowering_context.RENEW_AFTER + 1)]
    elsewhere = []
    thread = threading.Thread(target=lambda: elsewhere.append(mlir.make_ir_context()))
    thread.start(); thread.join()
    out["distinct_contexts"] = len({id(c) for c in made})
    out["renewed_at"] = next(i for i, c in enumerate(made) if c is not made[0])
    out["other_thread_shares"] = any(elsewhere[0] is c for c in made)
out["texts_after"] = lowered_texts()
out["values"] = [float(jnp.sum(lax.scan(lambda c, r: (c + r, c * r), jnp.ones(3), jnp.ones((5, 3)))[1])),
                 float(jax.grad(lambda x: jnp.sum(jnp.sin(x) ** 2))(jnp.arange(3.0))[2])]
out["hits"] = lookups["/jax/compilation_cache/cache_hits"]
out["misses"] = lookups["/jax/compilation_cache/cache_misses"]
print(json.dumps(out))
'''


def _run(cache, side):
    r = subprocess.run([sys.executable, "-c", PROGRAMS, str(cache), side], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def sides(tmp_path_factory):
    """The plain side writes the persistent cache first; the shared side then reads it."""
    cache = tmp_path_factory.mktemp("cache")
    plain = _run(cache, "plain")
    return plain, _run(cache, "shared")


def test_one_context_serves_many_lowerings_and_is_renewed(sides):
    from autograder.sandbox import lowering_context
    _, shared = sides
    assert shared["distinct_contexts"] == 2
    assert shared["renewed_at"] == lowering_context.RENEW_AFTER
    assert shared["other_thread_shares"] is False     # each thread has its own


def test_what_is_lowered_and_computed_is_unchanged(sides):
    plain, shared = sides
    assert shared["texts_after"] == shared["texts_before"] == plain["texts_before"]
    assert shared["values"] == plain["values"]


def test_the_persistent_cache_finds_what_a_plain_process_wrote(sides):
    """The batch cache's builder, the workers and nbgrader's kernels look up each other's entries."""
    plain, shared = sides
    assert plain["misses"] >= 5     # the plain side compiled its programs (each op, the scan, the grad)
    assert shared["misses"] == 0 and shared["hits"] >= plain["misses"]
