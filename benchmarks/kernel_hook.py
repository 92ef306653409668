"""What the kernel's explanation hook costs a student: a cell's round trip in a real kernel, without
the hook, with it (trials off) and with it (trials on: candidate fixes traced in a forked child,
`checks/trials.py`), in the same kernel and the same run.

    .venv/bin/python benchmarks/kernel_hook.py [--repeats 40]

Each cell runs `--repeats` times in each setting: one that succeeds (the hook returns at once), JAX
errors a rule explains (three with a trial: vmap's in_axes, a scan carry, a broadcast), three whose fix
is a rewrite by the error's kind (`checks/trial_kinds.py`), one calling convention and one fallback
(a JAX function's signature, `checks/fallback_rules.py`), a habit from PyTorch (`checks/habit_rules.py`),
a renamed name, NumPy's masked arrays under `vmap`, a module that moved, a list searched by value under
`vmap`, typed keys reshaped as raw pairs, a `fori_loop` body without the index, dicts of arrays subtracted, an
integer returned beside a differentiated result, a `shard_map` carry that does not vary over the mesh axis
its body's output varies over, typed keys padded as numbers, a pullback given a tuple for a list and a
`jax.tree.reduce` without a start under `grad` (`checks/convention_rules.py`), `jnp.select` with its
fallback among the choices (`checks/form_rules.py`), a `lax.scan` input laid out the other way, a stack of
tangents for one `jvp` and `randint` asked for floats (`checks/contract_rules.py`), and one error no rule knows. Prints the median and the worst round trip of each, and the ratios to the cell without the hook.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("JAX_PLATFORMS", "cpu")

CELLS = {
    "succeeds": "jnp.sum(xs @ w)",
    "vmap error (explained, tried)": "jax.vmap(predict)(w, xs)",
    "scan carry error (explained, tried)": "lax.scan(step, 0.0, xs)",
    "broadcast error (explained, tried)": "w - xs[:, 0]",
    "key from an int (explained, no trial)": "jax.random.normal(3, (2,))",
    # rewrites by the error's kind (`checks/trial_kinds.py`): no rule's fix traced
    "Python `if` on a traced value (tried by kind)": "jax.jit(lambda v: v * 2 if v.sum() > 0 else -v)(w)",
    "keyword given positional-only (tried by kind)": "jnp.where(w > 0, x=w, y=0.0)",
    "key split too short (tried by kind)": "k1, k2, k3 = jax.random.split(jax.random.key(0), 2)",
    # rules by kind of API mistake (`checks/api_rules.py`) and the last, guessing ones (`fallback_rules.py`)
    "jvp without tuples (calling convention)": "jax.jvp(predict, w, xs)",
    "keyword a JAX function lacks (fallback)": "jnp.sum(xs, axes=0)",
    # habits from other libraries (`checks/habit_rules.py`), and a name JAX renamed (tried by kind)
    "PyTorch's `dim=` (habit rule, no trial)": "jax.nn.softmax(xs, dim=-1)",
    "a name JAX renamed (tried by kind)": "jnp.row_stack([w, w])",
    # after batch 11: NumPy's masked arrays under vmap (a jnp name checked), a module that moved (fallback)
    "`np.ma` under vmap (habit rule, no trial)": "jax.vmap(lambda v: np.ma.masked_array(v, mask=v > 1).mean())(xs)",
    "a module that moved (fallback, no trial)": "from jax.experimental import optimizers",
    # after batch 12: a list searched by value under vmap (read from the line), typed keys reshaped as pairs
    "`list.remove` under vmap (line habit, no trial)": "jax.vmap(lambda v: (lambda t: (t.remove(t[1]), t[0])[1])([v, v * 2]))(xs)",
    "typed keys reshaped as pairs (operand rule)": "jax.random.split(jax.random.key(0), 6).reshape(2, 3, 2)",
    "fori_loop body without the index (calling convention)": "lax.fori_loop(0, 3, lambda c: c * 2.0, w)",
    # after batch 13: dicts of arrays in arithmetic (value rule), an integer beside a differentiated result
    "dict minus dict (value rule, no trial)": "{'w': w} - {'w': w}",
    "integer output of jacrev (transform rule)": "jax.jacrev(lambda v: (v * 2.0, jnp.sum(v > 0)))(w)",
    # after batch 14: a shard_map carry that does not vary (transform rule), keys padded as numbers (value rule)
    "shard_map carry without its varying axis (transform rule)": (
        "jax.jit(jax.shard_map(lambda b: lax.scan(lambda c, r: (c + r, None), jnp.zeros(b.shape[1:]), b)[0][None], "
        "mesh=jax.make_mesh((1,), ('i',)), in_specs=jax.P('i'), out_specs=jax.P('i')))(xs)"),
    "keys padded as numbers (value rule)": "jnp.pad(jax.random.split(jax.random.key(0), 3), ((0, 1),))",
    # after batch 15: conventions one message states exactly (`checks/convention_rules.py`)
    "pullback given a tuple for a list (convention rule)": "jax.vjp(lambda v: [v * 2.0], w)[1]((w,))",
    "tree.reduce without a start under grad (convention rule)": (
        "jax.grad(lambda p: jax.tree.reduce(lambda a, v: a + jnp.sum(v * v), p))({'a': w, 'b': xs})"),
    # after batch 16: what a message or the line states outright (`checks/stated_rules.py`)
    "grad of a function's value (stated rule)": "jax.grad(predict(w, xs[0]))(w)",
    "one key mapped by vmap (stated rule)": "jax.vmap(lambda k, v: v + jax.random.normal(k))(jax.random.key(1), w)",
    # after batch 18: what the line shows was meant (`checks/intent_rules.py`), a product tried by `in_axes`
    "gradient per argument unpacked (intent rule)": "gw, gx = jax.grad(predict)(w, xs[0])",
    "matrix product under vmap (rule's in_axes trial)": "jax.vmap(lambda c: c @ w)(xs.T)",
    # after batch 21: a call in a form its function rules out (`checks/form_rules.py`), a transposed scan input
    "select with its fallback among the choices (form rule)": "jnp.select([w < 0], [w * 0, w])",
    "a scan input laid out the other way (intent rule)": "lax.scan(lambda c, ab: (c, None), 0.0, (xs, xs, xs.T))",
    # after batch 22: an input a function refuses (`checks/input_rules.py`), a scan body's outputs swapped (tried)
    "unflatten with the leaves first (input rule)": "jax.tree.unflatten(*jax.tree.flatten({'a': w}))",
    "scan body returning (y, carry) (carry trial)": "lax.scan(lambda c, x: (jnp.stack([x[0], c]), c + x[0]), 0.0, xs)",
    # after batch 24: what a function's contract requires of a call (`checks/contract_rules.py`)
    "a stack of tangents for one jvp (contract rule)": "jax.jvp(jnp.tanh, (w,), (xs,))",
    "randint asked for floats (contract rule)": "jax.random.randint(jax.random.key(0), (3,), 0, 5, dtype=jnp.float32)",
    "KeyError (no rule)": "{}['missing']",
}
SETUP = ("import jax, jax.numpy as jnp, numpy as np\nfrom jax import lax\n"
         "def predict(w, x):\n    return jnp.tanh(x @ w)\n"
         "def step(c, x):\n    return c + x[:1], c\n"
         "w, xs = jnp.ones(3), jnp.ones((8, 3))\n")
TRIALS = "import autograder.checks.trials as _t; _t.ENABLED = {}"


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
        runs = {"without the hook": {name: round_trips(client, code, a.repeats) for name, code in CELLS.items()}}
        client.execute_interactive("from autograder import check", timeout=120, output_hook=lambda msg: None)
        for setting, on in (("hook, trials off", False), ("hook, trials on", True)):
            client.execute_interactive(TRIALS.format(on), timeout=60, output_hook=lambda msg: None)
            runs[setting] = {name: round_trips(client, code, a.repeats) for name, code in CELLS.items()}
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    print(f"| cell | " + " | ".join(f"{s} (median / worst of {a.repeats})" for s in runs) + " |")
    print("|---|" + "---|" * len(runs))
    for name in CELLS:
        base = statistics.median(runs["without the hook"][name])
        cells = [f"{statistics.median(r[name]) * 1000:.1f} / {max(r[name]) * 1000:.1f} ms"
                 + ("" if s == "without the hook" else f" ({statistics.median(r[name]) / base:.2f}x)")
                 for s, r in runs.items()]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
