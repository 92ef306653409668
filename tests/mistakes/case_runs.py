"""Every corpus case raised, and its maintainers' fix run, in one process that compiles quickly.

What test_error_corpus asks of each case (`error_mistakes.py` and the held-out batches): the case
raises the exception its report names, at the student's line, and the line as the maintainers fixed
it runs. Both are answered here for all cases at once, in a child process whose JAX compiles as a
grader's correctness worker does (`sandbox/compile_effort.py`: most of XLA's optimization off, the
older CPU emitters): 0.61x the time of the per-case runs at full optimization on this course's 2-core
machine (benchmarks/README.md). What a program raises, and whether it runs, does not depend on how hard
XLA optimized it; the values it computes (last bits at most) are not compared here.

The test process itself keeps JAX's defaults: other tests in it time programs.
Run as `python -m mistakes.case_runs OUT.json` from tests/ (what `run_all` does).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent


def check(case) -> dict:
    """What calling `case` raised, at which line of its own file, and what its fixed version raised."""
    from .error_runs import fixed_function
    out = {"raised": None, "message": "", "line": None, "fix_error": None}
    try:
        case.fn(*case.make_args())
    except Exception as exc:        # noqa: BLE001 - any exception is the evidence
        mine = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).parent == HERE]
        out.update(raised=type(exc).__name__, message=str(exc)[:300],
                   line=mine[-1].line.strip() if mine else None)
    try:
        fixed_function(case)(*case.make_args())
    except Exception as exc:        # noqa: BLE001
        out["fix_error"] = f"{type(exc).__name__}: {str(exc)[:300]}"
    return out


def run_all(timeout: float = 1200) -> dict[str, dict]:
    """{case name: `check`'s answer} for every case, from one child process (quick compiles)."""
    import tempfile
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join([str(HERE.parent), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cases.json"
        r = subprocess.run([sys.executable, "-m", "mistakes.case_runs", str(out)], cwd=HERE.parent, env=env,
                           capture_output=True, text=True, timeout=timeout)
        assert r.returncode == 0 and out.exists(), f"the corpus's run stopped (exit {r.returncode}): {r.stderr[-3000:]}"
        return json.loads(out.read_text())


def _main(out: str) -> None:
    from autograder.sandbox.compile_effort import for_kernel
    for_kernel()        # before JAX is imported: the quick compiles nbgrader's kernels get
    from .error_runs import load
    results = {case.name: check(case) for case in load(False) + load(True)}
    Path(out).write_text(json.dumps(results))


if __name__ == "__main__":
    _main(sys.argv[1])
