"""A thirteenth held-out batch of JAX errors outside jit, written by helper sessions that never opened the
rules under `autograder/` nor any message the course prints, so that its first run measures how the
course's explanations carry over to mistakes they were not fitted on. Each part's own account follows.
"""
from __future__ import annotations

import dataclasses  # noqa: F401  (a name the cases may use)
import functools  # noqa: F401  (a name the cases may use)
from typing import NamedTuple  # noqa: F401  (a name the cases may use)

import jax  # noqa: F401
import jax.numpy as jnp  # noqa: F401
import numpy as np  # noqa: F401
from jax import lax  # noqa: F401

from .corpus import error_case  # noqa: F401


# ---- part c

# ---------------------------------------------------------------- part c: other

@error_case(family="other", fix="trapezoid", raises="AttributeError",
            source="https://github.com/kirkegaardlab/deeptangle/pull/15",
            line="return jnp.trapz(seg, dx=1.0 / (seg.shape[0] - 1))",
            fixed="return jax.scipy.integrate.trapezoid(seg, dx=1.0 / (seg.shape[0] - 1))",
            args=lambda: (np.array([[0.0, 0.0], [0.3, 0.1], [0.7, 0.1], [1.0, 0.4]], dtype=np.float32),))
def worm_arc_length(points):
    steps = jnp.diff(points, axis=0)
    seg = jnp.concatenate([jnp.zeros(1), jnp.cumsum(jnp.linalg.norm(steps, axis=1))])
    return jnp.trapz(seg, dx=1.0 / (seg.shape[0] - 1))


@error_case(family="other", fix="neg-inf-b10", raises="AttributeError",
            source="https://github.com/jfcrenshaw/pzflow/pull/95",
            line="log_p = jnp.where(inside, log_p, jnp.NINF)",
            fixed="log_p = jnp.where(inside, log_p, -jnp.inf)",
            args=lambda: (np.array([0.2, 1.4, -0.3, 0.9], dtype=np.float32),))
def box_prior_log_prob(z):
    inside = (z >= 0.0) & (z <= 1.0)
    log_p = jnp.zeros_like(z)
    log_p = jnp.where(inside, log_p, jnp.NINF)
    return log_p


@error_case(family="other", fix="jax-array-type", raises="AttributeError",
            source="https://github.com/jax-ml/jax/issues/19812",
            line="if not isinstance(key, jax.random.KeyArray):",
            fixed="if not isinstance(key, jax.Array):",
            args=lambda: (3, np.arange(6, dtype=np.float32)))
def jittered_signal_copy(seed, signal):
    key = jax.random.PRNGKey(seed)
    if not isinstance(key, jax.random.KeyArray):
        raise TypeError("expected a PRNG key")
    return signal + 0.1 * jax.random.normal(key, signal.shape)
