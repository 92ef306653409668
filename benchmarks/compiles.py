"""XLA compiles per notebook, per assignment: this checkout against another version of the checks.

    .venv/bin/python benchmarks/compiles.py [--before DIR] [--assignment A ...]

Runs each assignment's source notebook (solutions and every test cell, hidden ones included) the way
the floor does (`floor.py`: one plain process, one namespace, no grader) with a listener on JAX's
compile and trace events, and prints compiles, traces and the process's CPU seconds per notebook.
This is the work the check library asks of JAX wherever it runs: in `nbgrader autograde`'s kernel,
all of it; under the `autograder` CLI, split between the grader and the sandboxed worker. Counts do
not depend on the machine's load; CPU seconds do, a little (they are not wall time).

`--before DIR` runs the same notebooks with the package of another checkout first on the path (a
`git worktree add DIR <commit>` of an earlier version) and prints both, with the ratio.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COUNTING = r'''
import json, os, resource, sys
os.environ["JAX_PLATFORMS"] = "cpu"
import jax, jax.monitoring
counts = {"compiles": 0, "traces": 0, "lowerings": 0}
def on_event(event, duration, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        counts["compiles"] += 1
    elif event == "/jax/core/compile/jaxpr_trace_duration":
        counts["traces"] += 1
    elif event == "/jax/core/compile/jaxpr_to_mlir_module_duration":
        counts["lowerings"] += 1
jax.monitoring.register_event_duration_secs_listener(on_event)
exec(sys.argv[2] if len(sys.argv) > 2 else "")   # what a caller runs before the cells (eager_reuse.py)
namespace = {"__name__": "__main__"}
for cell in json.load(open(sys.argv[1], encoding="utf-8"))["cells"]:
    if cell["cell_type"] == "code":
        source = cell["source"]
        exec(compile("".join(source) if isinstance(source, list) else source, "<cell>", "exec"), namespace)
usage = resource.getrusage(resource.RUSAGE_SELF)
counts["cpu_s"] = usage.ru_utime + usage.ru_stime
print("COUNTS " + json.dumps(counts))
'''


def count(notebook: Path, package_root: Path, before_cells: str = "", env: dict | None = None) -> dict:
    """Compiles, traces and CPU seconds of `notebook` run whole in a fresh process, with `package_root`'s
    package first on the path, `env` added to the environment and `before_cells` run after JAX's import."""
    env = {**os.environ, **(env or {}),
           "PYTHONPATH": os.pathsep.join([str(package_root), os.environ.get("PYTHONPATH", "")])}
    r = subprocess.run([sys.executable, "-c", COUNTING, str(notebook), before_cells], capture_output=True, text=True,
                       env=env, cwd=notebook.parent, timeout=900)
    line = [ln for ln in r.stdout.splitlines() if ln.startswith("COUNTS ")]
    if r.returncode != 0 or not line:
        raise SystemExit(f"{notebook.name}: the notebook failed with {package_root}'s checks:\n{r.stderr[-2000:]}")
    return json.loads(line[-1][len("COUNTS "):])


def best_alternated(measure, notebook: Path, sides: tuple[str, str], rounds: int) -> dict:
    """{side: the run with the fewest CPU seconds} of `measure(notebook, side)` over `rounds` rounds, the
    two sides taking turns going first (so that both meet the same moments of a shared machine)."""
    best: dict = {}
    for i in range(rounds):
        for side in (sides if i % 2 == 0 else sides[::-1]):
            got = measure(notebook, side)
            if side not in best or got["cpu_s"] < best[side]["cpu_s"]:
                best[side] = got
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, help="another checkout whose `autograder` package to compare with")
    ap.add_argument("--assignment", action="append", help="only these assignments (default: all)")
    a = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from autograder.course import Course
    names = a.assignment or Course(ROOT).assignment_names()
    rows, totals = [], {"before": 0, "now": 0}
    for name in names:
        notebook = ROOT / "source" / name / f"{name}.ipynb"
        now = count(notebook, ROOT)
        before = count(notebook, a.before.resolve()) if a.before else None
        totals["now"] += now["compiles"]
        if before:
            totals["before"] += before["compiles"]
            rows.append(f"| {name} | {before['compiles']} | {now['compiles']} | {now['compiles'] / before['compiles']:.2f}x "
                        f"| {before['cpu_s']:.1f} | {now['cpu_s']:.1f} |")
        else:
            rows.append(f"| {name} | {now['compiles']} | {now['traces']} | {now['cpu_s']:.1f} |")
    if a.before:
        print("| assignment | compiles before | compiles now | ratio | CPU s before | CPU s now |\n|---|---|---|---|---|---|")
        print("\n".join(rows))
        print(f"| **all** | {totals['before']} | {totals['now']} | {totals['now'] / totals['before']:.2f}x | | |")
    else:
        print("| assignment | compiles | traces | CPU s |\n|---|---|---|---|")
        print("\n".join(rows))
        print(f"| **all** | {totals['now']} | | |")


if __name__ == "__main__":
    main()
