"""A fourteenth held-out batch of JAX errors outside jit, written by helper sessions that never opened the
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


@error_case(family="custom-rules", fix="vjp-reverse-mode", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/7401",
            line="return jax.hessian(lambda r: jnp.sum((odeint(decay, start, times, r[0]) - 0.5) ** 2) * r[1])(rates)",
            fixed="return jax.jacrev(jax.jacrev(lambda r: jnp.sum((odeint(decay, start, times, r[0]) - 0.5) ** 2) * r[1]))(rates)",
            args=lambda: (jnp.array([0.7, 1.3]),))
def decay_misfit_curvature(rates):
    from jax.experimental.ode import odeint
    start, times = jnp.array([1.0, 2.0]), jnp.array([0.0, 0.5, 1.0])

    def decay(y, t, k):
        return -k * y
    return jax.hessian(lambda r: jnp.sum((odeint(decay, start, times, r[0]) - 0.5) ** 2) * r[1])(rates)
