"""How hard XLA optimizes what a correctness worker compiles: on the CPU, without its costly passes.

Why: most of grading a notebook is XLA compiling small programs (the student's, the references', the
test cells' eager operations) that then run once or twice on small arrays. Most of each compile is
LLVM optimizing machine code that never runs long enough to repay it. JAX's
`jax_disable_most_optimizations` (XLA's backend optimization level 0, LLVM's expensive passes off)
skips that: about 0.45x the compile time of a 12-layer gradient program on this course's CPU machine
(benchmarks/compile_effort.py measures it per assignment). And without XLA's newer CPU fusion emitters
(`QUICK_XLA_FLAGS`): they lower every fusion through a pipeline of their own whose fixed cost, paid
per compile, is most of what a small program costs to compile at that level; with the older emitters
the eight source notebooks' compiles took about half the time (benchmarks/README.md, "Compile
less: XLA's older CPU emitters").

What it does not change: XLA's own HLO passes (fusion, algebraic simplification) still run, and
floating point stays strict (XLA's CPU fast math is off by default), so a program computes what it
computes fully optimized, or within its last bits: reductions, matmuls, cumulative sums, gradients and
transcendental functions over 400,000 values came out bitwise identical, and over the course's
batches one printed value moved (a known-wrong `train_step`'s loss, in its seventh digit). Traces,
jaxprs and compile counts (what the jit, retrace and structure checks read) do not depend on it. The
older emitters were checked the same way: every reference, known-wrong case and right answer of the
course, by both graders (tests/test_course.py, tests/test_right_answers.py).

Who keeps every optimization: the timing worker (a performance check times what a student would run:
`Limits.quick_compiles` is off there), the student's own kernel, and accelerators (JAX's setting is
applied where the worker's JAX runs on the CPU only; the XLA flag is added everywhere and changes only
what XLA compiles for the CPU). The builder of a batch's compile cache is a
correctness worker, so its entries are keyed with the same compile options the workers look up.

The grader sets `ENV` for the worker; the worker reads and removes it at its start (`take_environment`,
so student code does not find it, and its name does not name the grader), adds `QUICK_XLA_FLAGS` to
`XLA_FLAGS` there (XLA reads them when JAX starts its backend, after the setup cells, which may add
their own), and applies the rest once JAX is imported, before any student code (`apply`).
`nbgrader autograde`'s kernels get the same from nbgrader_config.py (`for_kernel`), and the timed
programs undo both per compile (`checks/timing.FULL_OPTIMIZATION`).
"""
from __future__ import annotations

import os

ENV = "XLA_QUICK_COMPILES"

# XLA's flags for quick compiles. They stay in `XLA_FLAGS` where they were added: JAX's persistent
# compile cache keys its entries with that variable, so the batch cache's builder (a correctness
# worker), the workers and nbgrader's kernels must all see the same value.
QUICK_XLA_FLAGS = "--xla_cpu_use_fusion_emitters=false"

_asked = False


def with_quick_flags(flags: str) -> str:
    """`flags` (an XLA_FLAGS value) with `QUICK_XLA_FLAGS` added once."""
    return flags if QUICK_XLA_FLAGS in flags.split() else f"{flags} {QUICK_XLA_FLAGS}".strip()


def for_worker(limits) -> dict[str, str]:
    """The grader's side: the environment that asks a worker of `limits` for quick compiles."""
    return {ENV: "1"} if limits.quick_compiles else {}


def take_environment():
    """In a worker, at its start: remember whether the grader asked, and remove the variable."""
    global _asked
    _asked = os.environ.pop(ENV, "") == "1"
    if _asked:
        os.environ["XLA_FLAGS"] = with_quick_flags(os.environ.get("XLA_FLAGS", ""))


def asked() -> bool:
    """Whether this worker is one the grader asked for quick compiles (a correctness worker)."""
    return _asked


def for_kernel() -> None:
    """nbgrader_config.py's first exec line, in `nbgrader autograde`'s kernel before the notebook's
    first cell (so before JAX is imported): the quick compiles of a correctness worker. An
    instructor's own JAX_DISABLE_MOST_OPTIMIZATIONS wins. Returns None (an exec line's value is shown)."""
    os.environ.setdefault("JAX_DISABLE_MOST_OPTIMIZATIONS", "1")
    os.environ["XLA_FLAGS"] = with_quick_flags(os.environ.get("XLA_FLAGS", ""))


def apply() -> bool:
    """In a worker, once JAX is imported and before student code: compile without XLA's costly
    passes if the grader asked and JAX runs on the CPU. Returns whether it did."""
    if not _asked:
        return False
    import jax
    if jax.default_backend() != "cpu":
        return False
    jax.config.update("jax_disable_most_optimizations", True)
    return True
