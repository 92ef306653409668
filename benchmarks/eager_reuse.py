"""Eager loops compiled once per program (`sandbox/eager_reuse.py`): each source notebook run whole in a
fresh process with JAX's own dispatch and with the merging, alternated, and what each side compiled.

    .venv/bin/python benchmarks/eager_reuse.py [--assignment A ...] [--rounds 2] [--kernel]

Each side runs every code cell of the source notebook (solutions and all tests, hidden ones included)
in one plain process (no grader, no sandbox), with the quick compiles a correctness worker has
(`compile_effort`), and counts XLA compiles with JAX's monitoring events. Prints, per assignment, the
best CPU seconds of each side, the ratio (merged / plain: below 1, the merging saves time), and the
compiles of each. Every cell must run on both sides, or the script stops.

`--kernel`: each side runs the notebook in a fresh Jupyter kernel started with nbgrader_config.py's
exec lines, as `nbgrader autograde` starts one (plain: without the merging's line), and reports the
wall seconds from the kernel's start to the last cell's end (compiles are not counted there).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import compiles  # noqa: E402  (benchmarks/compiles.py: a notebook run whole, its compiles counted)

QUICK = {"JAX_PLATFORMS": "cpu", "XLA_FLAGS": "--xla_cpu_use_fusion_emitters=false",
         "JAX_DISABLE_MOST_OPTIMIZATIONS": "1"}     # what a correctness worker compiles with
MERGE = "from autograder.sandbox import eager_reuse; eager_reuse.install()"


KERNEL_LINE = "autograder.sandbox.eager_reuse"   # the merging's exec line in nbgrader_config.py


def run(notebook: Path, side: str) -> dict:
    return compiles.count(notebook, ROOT, MERGE if side == "merged" else "", QUICK)


def run_in_kernel(notebook: Path, side: str) -> dict:
    import time

    import nbformat
    from nbclient import NotebookClient
    from traitlets.config import Config
    config, path = Config(), ROOT / "nbgrader_config.py"
    exec(compile(path.read_text(), str(path), "exec"), {"get_config": lambda: config, "__file__": str(path)})
    args = [a for a in config.Execute.extra_arguments if side == "merged" or KERNEL_LINE not in a]
    nb = nbformat.read(notebook, as_version=4)
    start = time.perf_counter()
    NotebookClient(nb, timeout=300, kernel_name="python3", extra_arguments=args).execute()
    return {"cpu_s": time.perf_counter() - start, "compiles": "-"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--assignment", action="append", help="default: every assignment in source/")
    ap.add_argument("--rounds", type=int, default=2, help="runs of each side, alternating which goes first")
    ap.add_argument("--kernel", action="store_true", help="in nbgrader's kernels (wall seconds), not plain processes")
    a = ap.parse_args()
    measure = run_in_kernel if a.kernel else run
    names = a.assignment or sorted(p.name for p in (ROOT / "source").iterdir() if p.is_dir())
    unit = "wall s" if a.kernel else "CPU s"
    print(f"| assignment | plain: {unit}, compiles | merged: {unit}, compiles | merged / plain |")
    print("|---|---|---|---|")
    totals = {"plain": 0.0, "merged": 0.0}
    for name in names:
        notebook = ROOT / "source" / name / f"{name}.ipynb"
        best = compiles.best_alternated(measure, notebook, ("plain", "merged"), a.rounds)
        for side in totals:
            totals[side] += best[side]["cpu_s"]
        print(f"| {name} | {best['plain']['cpu_s']:.1f}, {best['plain']['compiles']} | "
              f"{best['merged']['cpu_s']:.1f}, {best['merged']['compiles']} | "
              f"{best['merged']['cpu_s'] / best['plain']['cpu_s']:.2f}x |", flush=True)
    print(f"| all | {totals['plain']:.1f} | {totals['merged']:.1f} | {totals['merged'] / totals['plain']:.2f}x |")


if __name__ == "__main__":
    main()
