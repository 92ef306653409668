"""What is traced is what is graded: a traced program's results against the function's own eager ones.

Correctness is checked on eager calls (`f(x)`), while the jit, retrace, structure and performance
checks trace `f`. A function that asks whether its argument is a tracer could hand the tracing
checks a cheap, jittable, non-retracing program and the correctness checks the honest one, and
earn points neither program earns alone. So every check that traces a student's function also
runs the program it traced and compares its results with the eager call's on the same inputs: its
inputs `perturbed`, or its own where nothing moves (`evidence._traced_agreement` says why one set is
enough); performance checks compare with the reference's (`timing.py`). Results that differ fail that
check.

Tolerances are loose on purpose (`TOLERANCE`): the two sides are the same computation, once fused
by XLA and once op by op, and honest code differs only by rounding; ill-conditioned honest code
differs by more (third finite differences in float32: 0.2% between the fused and the op-by-op
program). A program that computes something else differs by far more. A function that also recognises the check's exact inputs and
lies eagerly on them too is caught only where those inputs are hidden (docs/SECURITY.md).
"""
from __future__ import annotations

import numpy as np
import jax
import jax.numpy as jnp
from jax import tree_util

# Relative tolerance by dtype kind and size, applied to each leaf with an absolute floor of the
# same fraction of the leaf's largest magnitude (cancellation in a fused sum moves small entries).
TOLERANCE = {2: 2.0 ** -4, 4: 1e-2, 8: 1e-6}
# What the grader says when the program a check traced computes something else than a direct call
# (`agreement.py`): fixed texts, so a hidden test may show them.
TRACED_CAUSE = ("your function computes something else when jax.jit traces it than when it is called directly "
                "(it asks whether its arguments are tracers, or reads state that changes between calls), so "
                "what this check traced is not what the correctness tests graded")
TRACED_FIX = ("compute the same thing either way: no branch on whether a value is a tracer, and no global "
              "state read inside the function")
_ARRAY_TYPES = (np.ndarray, jax.Array)
_flatten = tree_util.tree_flatten


def as_traced(args: tuple, kwargs: dict, static_argnums, static_argnames) -> tuple[tuple, dict]:
    """The arguments with every Python number outside the static ones as the weakly typed JAX
    scalar that jit traces it as."""
    nums = {n % len(args) for n in static_argnums} if args else set()

    def jaxify(tree):
        return tree_util.tree_map(lambda v: jnp.asarray(v) if type(v) in (int, float, complex, bool) else v, tree)
    return (tuple(a if i in nums else jaxify(a) for i, a in enumerate(args)),
            {k: v if k in static_argnames else jaxify(v) for k, v in kwargs.items()})


def perturbed(args: tuple, kwargs: dict, static_argnums, static_argnames) -> tuple[tuple, dict]:
    """The arguments with every floating-point value outside the static ones moved (scaled by 0.5 to
    1.5 and shifted by up to 0.25, the same way each time): a check's inputs are often degenerate
    (all ones, all zeros), and on those a program that computes something else can agree with the
    direct call by chance (ones squared any number of times are ones)."""
    rng = np.random.default_rng(34)
    nums = {n % len(args) for n in static_argnums} if args else set()

    def move(leaf):
        if type(leaf) is float:
            return float(leaf * rng.uniform(0.5, 1.5) + rng.uniform(-0.25, 0.25))
        if not isinstance(leaf, _ARRAY_TYPES) or not jnp.issubdtype(leaf.dtype, jnp.floating):
            return leaf
        host = np.asarray(leaf, np.float32)
        moved = (host * rng.uniform(0.5, 1.5, host.shape) + rng.uniform(-0.25, 0.25, host.shape)).astype(np.float32)
        return jnp.asarray(moved, leaf.dtype) if isinstance(leaf, jax.Array) else moved.astype(leaf.dtype)

    def move_tree(tree):
        return tree_util.tree_map(move, tree)
    return (tuple(a if i in nums else move_tree(a) for i, a in enumerate(args)),
            {k: v if k in static_argnames else move_tree(v) for k, v in kwargs.items()})


def fresh_inputs(tree):
    """A copy of every array leaf of `tree`, so that a call that donates its arguments or writes
    into a NumPy argument cannot change the next call's inputs."""
    return tree_util.tree_map(_fresh_copy, tree)


def _fresh_copy(leaf):
    """`leaf.copy()`, where a JAX array's copy is a compiled program of its own, per shape and dtype
    (a lowering and a cache read in every worker: 8 to 38 per notebook). A plain array on one device
    is copied through the host instead, a transfer, with what the student's code can see kept: dtype,
    committed placement. Weakly typed arrays (promotion depends on it), keys and arrays over several
    devices keep JAX's own copy."""
    if not isinstance(leaf, _ARRAY_TYPES):
        return leaf
    if (isinstance(leaf, jax.Array) and not jax.dtypes.issubdtype(leaf.dtype, jax.dtypes.prng_key)
            and not leaf.weak_type and len(leaf.sharding.device_set) == 1):
        host = np.array(leaf)   # a copy of its own, which nothing else holds
        return jax.device_put(host, leaf.sharding) if leaf.committed else jax.device_put(host)
    return leaf.copy()


def _host(leaf):
    if isinstance(leaf, jax.Array) and jax.dtypes.issubdtype(leaf.dtype, jax.dtypes.prng_key):
        return np.asarray(jax.random.key_data(leaf)), "key"
    arr = np.asarray(leaf)
    if arr.dtype.kind == "V" or arr.dtype.name == "bfloat16":   # ml_dtypes' narrow floats
        return arr.astype(np.float32), "bfloat16"
    return arr, arr.dtype.name


def difference(traced, eager) -> str | None:
    """None when `traced` (the traced program's results) matches `eager`; else where they first
    differ, in the grader's words: the structure, a leaf's shape or dtype, or how many entries."""
    t_leaves, t_def = _flatten(traced)
    e_leaves, e_def = _flatten(eager)
    if t_def != e_def:
        return f"the traced program returns {t_def.num_leaves} values where the eager call returns {e_def.num_leaves}" \
            if t_def.num_leaves != e_def.num_leaves else "the traced program returns another structure"
    for i, (t, e) in enumerate(zip(t_leaves, e_leaves)):
        where = f"value {i + 1} of {len(t_leaves)}" if len(t_leaves) > 1 else "the result"
        try:
            (t_arr, t_kind), (e_arr, e_kind) = _host(t), _host(e)
        except Exception:
            return f"{where} is not an array in one of the two"
        if t_arr.shape != e_arr.shape:
            return f"{where} has shape {t_arr.shape} traced, {e_arr.shape} eager"
        if isinstance(t, jax.Array) and isinstance(e, jax.Array) and t_kind != e_kind:
            return f"{where} is {t_kind} traced, {e_kind} eager"
        bad = _differing(t_arr, e_arr)
        if bad:
            return f"{where} differs in {bad} of {e_arr.size} entries"
    return None


def _tolerance(dtype: np.dtype) -> float:
    size = dtype.itemsize // 2 if dtype.kind == "c" else dtype.itemsize
    return TOLERANCE.get(size, 1e-3)


def _differing(t: np.ndarray, e: np.ndarray) -> int:
    if t.dtype.kind in "biu" and e.dtype.kind in "biu":
        return int(np.count_nonzero(t.astype(np.int64) != e.astype(np.int64)))
    t64, e64 = t.astype(np.complex128 if "c" in (t.dtype.kind, e.dtype.kind) else np.float64), \
        e.astype(np.complex128 if "c" in (t.dtype.kind, e.dtype.kind) else np.float64)
    rtol = max(_tolerance(t.dtype), _tolerance(e.dtype))
    finite = np.abs(e64[np.isfinite(e64)])
    atol = rtol * max(1.0, float(finite.max()) if finite.size else 1.0)
    with np.errstate(all="ignore"):
        close = np.isclose(t64, e64, rtol=rtol, atol=atol, equal_nan=True)
    return int(np.count_nonzero(~close))
