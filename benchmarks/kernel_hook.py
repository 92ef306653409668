"""What the kernel's explanation hook costs a student: a cell's round trip in a real kernel, with the
hook and without, in the same kernel and the same run.

    .venv/bin/python benchmarks/kernel_hook.py [--repeats 40]

Three cells, each run `--repeats` times before `from autograder import check` (no hook) and as many
times after (hook installed): one that succeeds (the hook returns at once), one that raises a JAX
error a rule explains (the hook describes the exception, matches the rules and prints two lines),
and one that raises an error no rule knows. Prints the median round trip of each and the ratio.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("JAX_PLATFORMS", "cpu")

CELLS = {
    "succeeds": "jnp.sum(xs @ w)",
    "vmap error (explained)": "jax.vmap(predict)(w, xs)",
    "KeyError (no rule)": "{}['missing']",
}
SETUP = ("import jax, jax.numpy as jnp\n"
         "def predict(w, x):\n    return jnp.tanh(x @ w)\n"
         "w, xs = jnp.ones(3), jnp.ones((8, 3))\n")


def round_trips(client, code: str, repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        start = time.perf_counter()
        client.execute_interactive(code, timeout=60, output_hook=lambda msg: None)
        out.append(time.perf_counter() - start)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=40)
    a = ap.parse_args()
    from jupyter_client.manager import start_new_kernel
    manager, client = start_new_kernel(kernel_name="python3")
    try:
        client.execute_interactive(SETUP, timeout=120, output_hook=lambda msg: None)
        for code in CELLS.values():                       # warm: JAX compiles once, outside the timing
            client.execute_interactive(code, timeout=120, output_hook=lambda msg: None)
        without = {name: round_trips(client, code, a.repeats) for name, code in CELLS.items()}
        client.execute_interactive("from autograder import check", timeout=120, output_hook=lambda msg: None)
        with_hook = {name: round_trips(client, code, a.repeats) for name, code in CELLS.items()}
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    print(f"| cell | without the hook (median of {a.repeats}) | with the hook | ratio |")
    print("|---|---|---|---|")
    for name in CELLS:
        before, after = statistics.median(without[name]), statistics.median(with_hook[name])
        print(f"| {name} | {before * 1000:.1f} ms | {after * 1000:.1f} ms | {after / before:.2f}x |")


if __name__ == "__main__":
    main()
