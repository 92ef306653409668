"""Eager loops compiled once per program (`sandbox/eager_reuse.py`): each source notebook run whole in a
fresh process with JAX's own dispatch and with the merging, alternated, and what each side compiled.

    .venv/bin/python benchmarks/eager_reuse.py [--assignment A ...] [--rounds 2]

Each side runs every code cell of the source notebook (solutions and all tests, hidden ones included)
in one plain process (no grader, no sandbox), with the quick compiles a correctness worker has
(`compile_effort`), and counts XLA compiles with JAX's monitoring events. Prints, per assignment, the
best CPU seconds of each side, the ratio (merged / plain: below 1, the merging saves time), and the
compiles of each. Every cell must run on both sides, or the script stops.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RUN = r'''
import json, os, resource, sys
os.environ["JAX_PLATFORMS"] = "cpu"
os.environ["XLA_FLAGS"] = "--xla_cpu_use_fusion_emitters=false"
os.environ["JAX_DISABLE_MOST_OPTIMIZATIONS"] = "1"
import jax, jax.monitoring
counts = {"compiles": 0}
def on_event(event, duration, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        counts["compiles"] += 1
jax.monitoring.register_event_duration_secs_listener(on_event)
if sys.argv[2] == "merged":
    from autograder.sandbox import eager_reuse
    eager_reuse.install()
namespace = {"__name__": "__main__"}
for cell in json.load(open(sys.argv[1], encoding="utf-8"))["cells"]:
    if cell["cell_type"] == "code":
        source = cell["source"]
        exec(compile("".join(source) if isinstance(source, list) else source, "<cell>", "exec"), namespace)
usage = resource.getrusage(resource.RUSAGE_SELF)
counts["cpu_s"] = usage.ru_utime + usage.ru_stime
print("COUNTS " + json.dumps(counts))
'''


def run(notebook: Path, side: str) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    r = subprocess.run([sys.executable, "-c", RUN, str(notebook), side], capture_output=True, text=True,
                       env=env, cwd=notebook.parent, timeout=900)
    line = [ln for ln in r.stdout.splitlines() if ln.startswith("COUNTS ")]
    if r.returncode != 0 or not line:
        raise SystemExit(f"{notebook.name} ({side}) failed:\n{r.stderr[-2000:]}")
    return json.loads(line[-1][len("COUNTS "):])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--assignment", action="append", help="default: every assignment in source/")
    ap.add_argument("--rounds", type=int, default=2, help="runs of each side, alternating which goes first")
    a = ap.parse_args()
    names = a.assignment or sorted(p.name for p in (ROOT / "source").iterdir() if p.is_dir())
    print("| assignment | plain: CPU s, compiles | merged: CPU s, compiles | merged / plain |")
    print("|---|---|---|---|")
    totals = {"plain": 0.0, "merged": 0.0}
    for name in names:
        notebook = ROOT / "source" / name / f"{name}.ipynb"
        best = {}
        for i in range(a.rounds):
            for side in (("plain", "merged") if i % 2 == 0 else ("merged", "plain")):
                got = run(notebook, side)
                if side not in best or got["cpu_s"] < best[side]["cpu_s"]:
                    best[side] = got
        for side in totals:
            totals[side] += best[side]["cpu_s"]
        print(f"| {name} | {best['plain']['cpu_s']:.1f}, {best['plain']['compiles']} | "
              f"{best['merged']['cpu_s']:.1f}, {best['merged']['compiles']} | "
              f"{best['merged']['cpu_s'] / best['plain']['cpu_s']:.2f}x |", flush=True)
    print(f"| all | {totals['plain']:.1f} | {totals['merged']:.1f} | {totals['merged'] / totals['plain']:.2f}x |")


if __name__ == "__main__":
    main()
