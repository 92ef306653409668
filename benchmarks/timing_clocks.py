"""Which clock measures a short compiled call? 03's `ema` answers timed on three clocks at once.

    .venv/bin/python benchmarks/timing_clocks.py
    env JAX_CPU_ENABLE_ASYNC_DISPATCH=false .venv/bin/python benchmarks/timing_clocks.py   # and so on

The reference (a `lax.scan` over rows), a scan per column (the known-wrong answer, about 5x), a scan
with `unroll=8` and a scan over indices (right answers), compiled as the performance check compiles
them (`timing.FULL_OPTIMIZATION`), on 1000 x 32 floats. Each round takes, for each answer and clock,
the fastest of five samples of about 2 ms of back-to-back calls (as `timing._timed_sample` does); 21
rounds. Prints each clock's second-fastest sample (the check's statistic, `timing.quiet_time`) and its
ratio to the reference's: the wall clock (`perf_counter`), the process's CPU time (`process_time`) and
the calling thread's (`thread_time`). Where the work runs on XLA's threads, the last two do not see
all of it (benchmarks/README.md, "Twenty repeats under the issue's load").
"""
from __future__ import annotations

import math
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from autograder.checks.timing import FULL_OPTIMIZATION, quiet_time

CLOCKS = {"wall": time.perf_counter, "process": time.process_time, "thread": time.thread_time}


def _step(alpha):
    def step(prev, x_t):
        y_t = alpha * x_t + (1 - alpha) * prev
        return y_t, y_t
    return step


def reference(x, alpha):
    _, rest = lax.scan(_step(alpha), x[0], x[1:])
    return jnp.concatenate([x[:1], rest], axis=0)


def scan_per_column(x, alpha):
    def column(col):
        _, rest = lax.scan(_step(alpha), col[0], col[1:])
        return jnp.concatenate([col[:1], rest])
    return jnp.stack([column(x[:, j]) for j in range(x.shape[1])], axis=1)


def unrolled_by_8(x, alpha):
    _, rest = lax.scan(_step(alpha), x[0], x[1:], unroll=8)
    return jnp.vstack([x[:1], rest])


def over_indices(x, alpha):
    def step(prev, t):
        y_t = alpha * x[t] + (1.0 - alpha) * prev
        return y_t, y_t
    _, rest = lax.scan(step, x[0], jnp.arange(1, x.shape[0]))
    return jnp.concatenate([x[None, 0], rest])


def _sample(fn, args, calls, clock):
    start, out = clock(), None
    for _ in range(calls):
        out = fn(*args)
    out.block_until_ready()
    return (clock() - start) / calls


def main(rounds: int = 21) -> None:
    args = (jnp.asarray(np.random.default_rng(36).normal(size=(1000, 32)), jnp.float32), jnp.float32(0.3))
    programs = {f.__name__: jax.jit(f, compiler_options=FULL_OPTIMIZATION)
                for f in (reference, scan_per_column, unrolled_by_8, over_indices)}
    calls = {}
    for name, fn in programs.items():
        fn(*args).block_until_ready()
        one = min(_sample(fn, args, 1, time.perf_counter) for _ in range(5))
        calls[name] = max(1, math.ceil(0.002 / one))
    seen = {name: {clock: [] for clock in CLOCKS} for name in programs}
    for _ in range(rounds):
        for name, fn in programs.items():
            for clock, read in CLOCKS.items():
                seen[name][clock].append(min(_sample(fn, args, calls[name], read) for _ in range(5)))
    for name in programs:
        cells = [f"{clock} {quiet_time(seen[name][clock]) * 1e6:7.1f} us "
                 f"x{quiet_time(seen[name][clock]) / quiet_time(seen['reference'][clock]):5.2f}" for clock in CLOCKS]
        print(f"{name:16s} " + "   ".join(cells))


if __name__ == "__main__":
    main()
