"""What XLA's older CPU emitters save a quick process: each source notebook run with and without
`compile_effort.QUICK_XLA_FLAGS`, interleaved in the same run.

    .venv/bin/python benchmarks/xla_emitters.py [--rounds 2] [ASSIGNMENT ...]

Each run is a fresh Python process that executes every code cell of the assignment's source notebook
(solutions, visible and hidden tests) in one namespace, as a notebook kernel would, with
`JAX_DISABLE_MOST_OPTIMIZATIONS=1` (a correctness worker's and nbgrader's kernels' setting) on both
sides; the only difference is `XLA_FLAGS`. The child times the whole run and every XLA compile
(`jax._src.compiler.backend_compile_and_load`, wrapped from outside the package). Prints, per
assignment, each side's best total and compile seconds, the number of compiles (the same on both sides:
the flag changes how a program is compiled, not which), and the ratios.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import contextlib, io, json, sys, time
cells = json.loads(sys.argv[1])
from jax._src import compiler
spent = [0.0, 0]
real = compiler.backend_compile_and_load
def timed(*args, **kwargs):
    start = time.perf_counter()
    try:
        return real(*args, **kwargs)
    finally:
        spent[0] += time.perf_counter() - start
        spent[1] += 1
compiler.backend_compile_and_load = timed
namespace = {"__name__": "__main__"}
start = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()):
    for source in cells:
        exec(compile(source, "<cell>", "exec"), namespace)
print(json.dumps({"total": time.perf_counter() - start, "compile": spent[0], "compiles": spent[1]}))
"""


def code_cells(assignment: str) -> list[str]:
    nb = json.loads((ROOT / "source" / assignment / f"{assignment}.ipynb").read_text())
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def run(cells: list[str], quick_flags: bool) -> dict:
    sys.path.insert(0, str(ROOT))
    from autograder.sandbox.compile_effort import QUICK_XLA_FLAGS
    env = {**os.environ, "JAX_DISABLE_MOST_OPTIMIZATIONS": "1", "JAX_PLATFORMS": "cpu",
           "XLA_FLAGS": QUICK_XLA_FLAGS if quick_flags else ""}
    r = subprocess.run([sys.executable, "-c", CHILD, json.dumps(cells)], capture_output=True, text=True,
                       env=env, cwd=ROOT, timeout=900)
    if r.returncode != 0:
        raise SystemExit(f"a run failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("assignments", nargs="*")
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    names = args.assignments or sorted(p.name for p in (ROOT / "source").iterdir() if p.is_dir())
    print("| assignment | compiles | default emitters: total / compile s | older emitters: total / compile s "
          "| total ratio | compile ratio |\n|---|---|---|---|---|---|")
    sums = {False: [0.0, 0.0], True: [0.0, 0.0]}
    for name in names:
        cells = code_cells(name)
        best = {False: None, True: None}
        for r in range(args.rounds):
            for quick in ((False, True) if r % 2 == 0 else (True, False)):
                got = run(cells, quick)
                if best[quick] is None or got["total"] < best[quick]["total"]:
                    best[quick] = got
        d, q = best[False], best[True]
        for side, got in best.items():
            sums[side][0] += got["total"]
            sums[side][1] += got["compile"]
        print(f"| {name} | {d['compiles']} / {q['compiles']} | {d['total']:.2f} / {d['compile']:.2f} "
              f"| {q['total']:.2f} / {q['compile']:.2f} | {q['total'] / d['total']:.2f}x "
              f"| {q['compile'] / d['compile']:.2f}x |", flush=True)
    d, q = sums[False], sums[True]
    print(f"| all | | {d[0]:.2f} / {d[1]:.2f} | {q[0]:.2f} / {q[1]:.2f} | {q[0] / d[0]:.2f}x | {q[1] / d[1]:.2f}x |")


if __name__ == "__main__":
    main()
