"""Lowerings share an MLIR context, renewed every `RENEW_AFTER` of them (in a correctness worker).

Why: JAX lowers every program it has not seen (each jitted function at new shapes, each eager
operation, loop or branch at new shapes) to MLIR in a context of its own: `mlir.make_ir_context`
creates one and loads every dialect JAX uses, about 2.3 ms on the course's CPU machine, then the
context is freed. A notebook's grading lowers hundreds of programs, most of them small, so creating
contexts was a tenth of the CPU a source notebook costs (benchmarks/lowering_context.py). MLIR's
developers say the same of their own compilers: a context per compile is costly, and the only
reason not to keep one is that it grows, since it keeps every type and attribute it has seen
(llvm/llvm-project PR 217320).

What it does: `make_ir_context` hands out the same context for up to `RENEW_AFTER` calls in a thread,
then a new one, so what one context keeps is bounded by what that many lowerings made. Each thread
has its own (MLIR's Python objects are not meant to be shared by threads lowering at once).

What it does not change: what is lowered (the same text, and the same key in JAX's persistent compile
cache, so the batch cache's builder, the workers and nbgrader's kernels find each other's entries),
what is traced or compiled, and results. Installed where `eager_reuse` is (a correctness worker,
before the integrity snapshot and any student code; `nbgrader autograde`'s kernels), never in the
timing worker, whose compile-time checks time what a student's own kernel pays. A student who
replaces it only changes what their own process spends, as with `eager_reuse`.
"""
from __future__ import annotations

import threading

RENEW_AFTER = 64

_installed = False


def install() -> None:
    """Put the shared context in front of JAX's `mlir.make_ir_context` (once per process)."""
    global _installed
    if _installed:
        return
    from jax._src.interpreters import mlir
    fresh_context = mlir.make_ir_context
    held = threading.local()

    def make_ir_context():
        if getattr(held, "uses", RENEW_AFTER) >= RENEW_AFTER:
            held.context, held.uses = fresh_context(), 0
        held.uses += 1
        return held.context

    make_ir_context.__doc__ = fresh_context.__doc__
    mlir.make_ir_context = make_ir_context
    _installed = True
