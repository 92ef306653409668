"""Eager loops and branches compiled once per program, not once per call (in a correctness worker).

Why: a direct call of a student's function that uses `lax.scan`, `lax.fori_loop`, `lax.while_loop`,
`lax.cond` or `lax.switch` outside `jit` traces the loop's body into a new jaxpr at every call (the body
is usually a closure the function makes anew), and JAX's dispatch keys its caches on that jaxpr
object's identity (`dispatch.xla_primitive_callable`, then the jit it returns). So every call lowers
the loop to MLIR again and reads or compiles its executable: about 20 ms a call on the course's CPU
machine, for a program that runs in microseconds. The correctness cells and the checks' comparisons
with a direct call make tens of such calls per notebook, mostly of the same few programs.

What it does: before that cache, each jaxpr parameter of a primitive is replaced by the first jaxpr
this process saw that is the same program, so the call finds the program already compiled. Two
jaxprs are the same program when they print the same (every equation with its parameters, literals
and types, nested jaxprs included), have the same input and output types (weak types included: they
decide the dtype of what the student computes next), and the same constants, byte for byte (compared
by a BLAKE2 digest). A jaxpr any of whose equations holds a function as a parameter (a callback, a
custom derivative rule) is never merged: a function prints as its address or as nothing that says
what it does. A merged call computes what its own jaxpr says, with the executable compiled for an
equal one.

What it does not change: the body is still traced at each call (trace counts, and anything a body
prints at trace time, are as before); jitted programs never pass here; results are the same.
Installed by the worker once JAX is imported, before the integrity snapshot and any student code
(`worker.Session._after_trusted`), where the grader asked for quick compiles (correctness workers;
not the timing worker, which times jitted programs only); and in `nbgrader autograde`'s kernels, which
compile quickly too, before the first cell that runs once JAX is imported (`for_kernel`, an exec line
of nbgrader_config.py; not before, since a setup cell may set JAX's options before importing it). A
student who replaces it or fills its table only changes what their own process computes, as any of
JAX's caches already allows.
"""
from __future__ import annotations

import hashlib

import numpy as np

MAX_PROGRAMS = 4096          # distinct programs remembered; past that, calls dispatch as JAX does
MAX_CONSTANT_BYTES = 1 << 20  # a jaxpr closing over more is not digested (nor merged)

_installed = False


def _holds_no_function(jaxpr, core, mesh) -> bool:
    for eqn in jaxpr.eqns:
        for value in eqn.params.values():
            for item in value if isinstance(value, (tuple, list)) else (value,):
                if isinstance(item, core.ClosedJaxpr):
                    item = item.jaxpr
                if isinstance(item, core.Jaxpr):
                    if not _holds_no_function(item, core, mesh):
                        return False
                elif callable(item) and not isinstance(item, (mesh.BaseMesh, type)):
                    return False
    return True


def _program_key(closed, core, mesh):
    """What makes two closed jaxprs the same program, or None where this cannot say."""
    jaxpr = closed.jaxpr
    if not _holds_no_function(jaxpr, core, mesh):
        return None
    digest, size = hashlib.blake2b(digest_size=20), 0
    for const in closed.consts:
        value = np.asarray(const)
        size += value.nbytes
        if size > MAX_CONSTANT_BYTES or value.dtype == object:
            return None
        digest.update(f"{value.dtype.str}{value.shape}".encode())
        digest.update(np.ascontiguousarray(value).tobytes())
    return (str(jaxpr), tuple(v.aval for v in jaxpr.invars),
            tuple(getattr(v, "aval", None) for v in jaxpr.outvars), digest.hexdigest())


def install() -> None:
    """Put the merging in front of JAX's eager dispatch cache (once per process)."""
    global _installed
    if _installed:
        return
    from jax._src import core, dispatch, mesh
    programs: dict = {}
    dispatch_cache = dispatch.xla_primitive_callable

    def same_program(value):
        if type(value) is tuple:   # cond's branches; never a named tuple (scatter's dimension numbers)
            return tuple(same_program(v) for v in value)
        if not isinstance(value, core.ClosedJaxpr):
            return value
        try:
            key = _program_key(value, core, mesh)
        except Exception:
            return value
        if key is None:
            return value
        first = programs.get(key)
        if first is None and len(programs) < MAX_PROGRAMS:
            programs[key] = first = value
        return first or value

    def xla_primitive_callable(prim, **params):
        return dispatch_cache(prim, **{name: same_program(v) for name, v in params.items()})

    xla_primitive_callable.__doc__ = dispatch_cache.__doc__
    for name in ("cache_clear", "cache_info"):   # JAX's test utilities read its counters
        if hasattr(dispatch_cache, name):
            setattr(xla_primitive_callable, name, getattr(dispatch_cache, name))
    dispatch.xla_primitive_callable = xla_primitive_callable
    _installed = True


def for_kernel(shell) -> None:
    """nbgrader_config.py's exec line, in `nbgrader autograde`'s kernel (which compiles quickly, as a
    correctness worker does: `compile_effort.for_kernel`): install the merging before the first cell
    that runs once JAX is imported (JAX may be imported by a setup cell only, after its options are
    set), and the shared MLIR context a correctness worker lowers in (`lowering_context`). Returns None
    (an exec line's value is shown)."""
    import sys

    from . import lowering_context

    def before_cell(*_):
        if "jax" in sys.modules:
            shell.events.unregister("pre_run_cell", before_cell)
            for install_one in (install, lowering_context.install):
                try:
                    install_one()
                except Exception:   # a JAX without this interface: it works as JAX does
                    pass

    shell.events.register("pre_run_cell", before_cell)
    return None
