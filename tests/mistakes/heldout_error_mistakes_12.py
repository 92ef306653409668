"""A twelfth held-out batch of JAX errors outside jit, written by two helper sessions at once that never
opened the rules under `autograder/` nor any message the course prints (part a: vmap, grad, loops,
branches, pytrees; part b: keys, custom rules, shapes, other), so that its first run measures how the
course's explanations carry over to mistakes they were not fitted on. (Being written: no case yet.)
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


# ---------------------------------------------------------------- part b: keys

@error_case(family="keys", fix="key-one-style", raises="TypeError",
            source="https://github.com/scverse/pertpy/issues/685",
            line="table = np.asarray(chain_keys)",
            fixed="table = np.asarray(jax.random.key_data(chain_keys))",
            args=lambda: (11, 4))
def chain_seed_table(seed, n_chains):
    chain_keys = jax.random.split(jax.random.key(seed), n_chains)
    table = np.asarray(chain_keys)
    return table.reshape(n_chains, -1).astype(np.uint32)


# ---------------------------------------------------------------- part b: other

@error_case(family="other", fix="jax-array-type", raises="AttributeError",
            source="https://github.com/gchq/coreax/pull/419",
            line="key_type = jax.random.PRNGKeyArray",
            fixed="key_type = jax.Array",
            args=lambda: (5, 3))
def pick_landmarks(seed, n_landmarks):
    key_type = jax.random.PRNGKeyArray
    key = jax.random.key(seed)
    if not isinstance(key, key_type):
        raise TypeError("expected a key")
    return jax.random.choice(key, 4 * n_landmarks, (n_landmarks,), replace=False)
