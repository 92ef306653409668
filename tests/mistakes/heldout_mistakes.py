"""Held-out mistakes: written after the diagnosis rules were, and never used to tune them.

The main corpus (jit_mistakes.py, retrace_mistakes.py) is what the rules were written against, so
its rates are in-sample. These cases measure how the messages do on code nobody tuned for: the
same kinds of mistakes, in other forms (a helper function between the jitted function and the
failing line, methods instead of functions, other JAX calls). Sources are the sections of JAX's
own documentation that describe each mistake. `rates.py --heldout` prints their rates;
`tests/test_mistakes.py` requires that every one is caught and keeps their rates from falling.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .corpus import jit_case, retrace_case

GOTCHAS = "https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html"
JIT_DOC = "https://docs.jax.dev/en/latest/jit-compilation.html"
CONTROL = "https://docs.jax.dev/en/latest/control-flow.html"
ERRORS = "https://docs.jax.dev/en/latest/errors.html"
DEBUG = "https://docs.jax.dev/en/latest/debugging/print_breakpoint.html"
CHECKIFY = "https://docs.jax.dev/en/latest/debugging/checkify_guide.html"
PYTREES = "https://docs.jax.dev/en/latest/working-with-pytrees.html"

vec = lambda: jnp.array([0.5, -1.5, 2.0, -3.0, 4.0, 1.0])  # noqa: E731


# ------------------------------------------------------------------ jit failures
@jit_case(pattern="jnp shape arithmetic", fix="numpy-shape-math", raises="TypeError", source=JIT_DOC,
          line="return jnp.zeros((half, 2))", args=lambda: (vec(),))
def half_grid(x):
    half = jnp.floor_divide(x.shape[0], 2)
    return jnp.zeros((half, 2))


def _positive_part(v):
    if v.sum() > 0:
        return v
    return -v


@jit_case(pattern="if/while on a traced value", fix="cond", raises="TracerBoolConversionError",
          source=CONTROL, line="if v.sum() > 0:", args=lambda: (vec(),))
def oriented(x):
    return _positive_part(x) * 2.0


@jit_case(pattern="if/while on a traced value", fix="while_loop", raises="TracerBoolConversionError",
          source=CONTROL, line="while step > 1e-3:", args=lambda: (jnp.float32(1.0),))
def halve_until_small(step):
    while step > 1e-3:
        step = step / 2
    return step


@jit_case(pattern="range over a traced value", fix="fori_loop", raises="TracerIntegerConversionError",
          source=CONTROL, line="for _ in range(times):", args=lambda: (vec(), jnp.int32(3)))
def smooth_times(x, times):
    for _ in range(times):
        x = 0.5 * (x + jnp.roll(x, 1))
    return x


@jit_case(pattern="boolean mask indexing", fix="where", raises="NonConcreteBooleanIndexError",
          source=GOTCHAS, line="return x[x > 0].mean()", args=lambda: (vec(),))
def mean_of_positives(x):
    return x[x > 0].mean()


@jit_case(pattern="nonzero without size", fix="size", raises="ConcretizationTypeError",
          source=GOTCHAS, line="idx = jnp.flatnonzero(x < 0)", args=lambda: (vec(),))
def first_negative_index(x):
    idx = jnp.flatnonzero(x < 0)
    return idx[0]


@jit_case(pattern="NumPy on a tracer", fix="jnp", raises="TracerArrayConversionError", source=GOTCHAS,
          line="return np.log1p(x ** 2)", args=lambda: (vec(),))
def soft_magnitude(x):
    return np.log1p(x ** 2)


@jit_case(pattern="assert on a traced value", fix="checkify", raises="TracerBoolConversionError",
          source=CHECKIFY, line="assert (x > -10).all(), \"out of range\"", args=lambda: (vec(),))
def checked_scale(x):
    assert (x > -10).all(), "out of range"
    return 3 * x


@jit_case(pattern="and/or on traced values", fix="logical", raises="TracerBoolConversionError",
          source=GOTCHAS, line="inside = lo < x and x < hi", args=lambda: (jnp.float32(0.3),))
def in_unit_interval(x):
    lo, hi = 0.0, 1.0
    inside = lo < x and x < hi
    return jnp.where(inside, 1.0, 0.0)


@jit_case(pattern="list indexed by a tracer", fix="asarray-index", raises="TracerIntegerConversionError",
          source=GOTCHAS, line="return rates[level] * x", args=lambda: (vec(), jnp.int32(1)))
def scheduled(x, level):
    rates = [1.0, 0.5, 0.25]
    return rates[level] * x


@jit_case(pattern="int argument sets a size", fix="static-arg", raises="TypeError", source=JIT_DOC,
          line="return jnp.eye(dim) * scale", args=lambda: (3, jnp.float32(2.0)))
def scaled_identity(dim, scale):
    return jnp.eye(dim) * scale


@jit_case(pattern="traced slice bounds", fix="dynamic_slice", raises="IndexError", source=CONTROL,
          line="return x[start:start + 2]", args=lambda: (vec(), jnp.int32(1)))
def window(x, start):
    return x[start:start + 2]


@jit_case(pattern="print of a tracer", fix="debug-print", raises="TypeError", source=DEBUG,
          line="print(f\"loss {loss:.3f}\")", args=lambda: (vec(),))
def logged_loss(x):
    loss = jnp.mean(x ** 2)
    print(f"loss {loss:.3f}")
    return loss


@jit_case(pattern="float()/.item() on a tracer", fix="stay-jnp", raises="ConcretizationTypeError",
          source=GOTCHAS, line="peak = float(x.max())", args=lambda: (vec(),))
def normalised(x):
    peak = float(x.max())
    return x / peak


@jit_case(pattern="unhashable static argument", fix="hashable-static", raises="ValueError", source=JIT_DOC,
          line="return x * weights[0]", args=lambda: (vec(), [2.0, 3.0]), static_argnums=(1,))
def weighted(x, weights):
    return x * weights[0]


@jit_case(pattern="int argument sets a size", fix="static-arg", raises="ConcretizationTypeError",
          source=JIT_DOC, line="return jnp.arange(n) * step", args=lambda: (5, 0.5))
def ramp(n, step):
    return jnp.arange(n) * step


class Clipper:
    """A callable object, jitted as `jax.jit(Clipper())`."""
    def __call__(self, x):
        if x.max() > 1.0:
            return x / x.max()
        return x


@jit_case(pattern="if/while on a traced value", fix="cond", raises="TracerBoolConversionError",
          source=CONTROL, line="if x.max() > 1.0:", args=lambda: (vec(),))
def clipper_call(x):
    return Clipper()(x)


@jit_case(pattern="traced branch index", fix="switch", raises="TracerIntegerConversionError",
          source=CONTROL, line="return [jnp.sin, jnp.cos, jnp.tanh][which](x)",
          args=lambda: (vec(), jnp.int32(2)))
def pick_activation(x, which):
    return [jnp.sin, jnp.cos, jnp.tanh][which](x)


# ------------------------------------------------------------------ retraces
@retrace_case(pattern="dtype changes", fix="cast", source=JIT_DOC,
              calls=lambda: [(np.arange(4),), (np.arange(4).astype(np.float32),)])
def cumulative_mean(x):
    return jnp.cumsum(x) / jnp.arange(1, x.shape[0] + 1)


@retrace_case(pattern="pytree structure changes", fix="same-structure", source=PYTREES,
              calls=lambda: [({"w": jnp.ones(2)},), ({"w": jnp.ones(2), "b": jnp.zeros(2)},)])
def apply_layer(params):
    out = params["w"] * 2.0
    return out + params["b"] if "b" in params else out


@retrace_case(pattern="shape changes", fix="pad-bucket", source=JIT_DOC,
              calls=lambda: [(jnp.ones(n),) for n in (5, 6, 7)])
def batch_norm(x):
    return (x - x.mean()) / (x.std() + 1e-6)


@retrace_case(pattern="weak type changes", fix="weak-type", source=JIT_DOC,
              calls=lambda: [(jnp.ones(3), 2), (jnp.ones(3), jnp.int32(2))])
def shifted_by(x, k):
    return x + k


class _Config:
    """A static configuration without value equality: hashed by identity."""
    def __init__(self, gain):
        self.gain = gain


@retrace_case(pattern="static argument hashed by identity", fix="value-hash", source=JIT_DOC,
              calls=lambda: [(jnp.ones(3), _Config(2.0)), (jnp.ones(3), _Config(2.0))],
              static_argnums=(1,))
def amplified(x, config):
    return x * config.gain
