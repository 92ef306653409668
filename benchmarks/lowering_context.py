"""Lowerings in a shared MLIR context (`sandbox/lowering_context.py`): each source notebook run whole in a
fresh process with a new context per lowering (JAX's way) and with the shared one, alternated.

    .venv/bin/python benchmarks/lowering_context.py [--assignment A ...] [--rounds 2]

Both sides run every code cell of the source notebook (solutions and all tests, hidden ones included)
in one plain process, as a correctness worker would: quick compiles (`compile_effort`) and the eager
loops merged (`eager_reuse`); only the shared context differs. Prints, per assignment, the best CPU
seconds of each side, the ratio (shared / plain: below 1, sharing saves time), the programs lowered
and the XLA compiles of each side (they must be equal: only how a lowering is made changes).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import compiles  # noqa: E402  (benchmarks/compiles.py: a notebook run whole, its compiles counted)
from eager_reuse import MERGE, QUICK  # noqa: E402  (what a correctness worker runs with)

SHARED = MERGE + "; from autograder.sandbox import lowering_context; lowering_context.install()"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--assignment", action="append", help="default: every assignment in source/")
    ap.add_argument("--rounds", type=int, default=2, help="runs of each side, alternating which goes first")
    a = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from autograder.course import Course
    names = a.assignment or Course(ROOT).assignment_names()
    print("| assignment | plain: CPU s | shared: CPU s | shared / plain | lowerings | compiles (plain, shared) |")
    print("|---|---|---|---|---|---|")
    totals = {"plain": 0.0, "shared": 0.0}
    for name in names:
        notebook = ROOT / "source" / name / f"{name}.ipynb"
        best = compiles.best_alternated(
            lambda nb, side: compiles.count(nb, ROOT, SHARED if side == "shared" else MERGE, QUICK),
            notebook, ("plain", "shared"), a.rounds)
        for side in totals:
            totals[side] += best[side]["cpu_s"]
        print(f"| {name} | {best['plain']['cpu_s']:.1f} | {best['shared']['cpu_s']:.1f} | "
              f"{best['shared']['cpu_s'] / best['plain']['cpu_s']:.2f}x | {best['plain']['lowerings']} | "
              f"{best['plain']['compiles']}, {best['shared']['compiles']} |", flush=True)
    print(f"| all | {totals['plain']:.1f} | {totals['shared']:.1f} | {totals['shared'] / totals['plain']:.2f}x | | |")


if __name__ == "__main__":
    main()
