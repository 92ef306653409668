"""An eleventh held-out batch of JAX errors outside jit, written by two helper sessions at once that never
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


# ====================================================================== part b: keys
@error_case(family="keys", fix="permutation-not-shuffle", raises="AttributeError",
            source="https://github.com/google/flax/pull/242",
            line="order = jax.random.shuffle(key, jnp.arange(n_nodes))",
            fixed="order = jax.random.permutation(key, jnp.arange(n_nodes))",
            args=lambda: (jnp.array([[0.0, 1.0], [1.0, 0.5], [2.0, 2.5], [3.0, 0.1], [4.0, 4.4]]), 7))
def shuffled_node_features(features, seed):
    key = jax.random.key(seed)
    n_nodes = features.shape[0]
    order = jax.random.shuffle(key, jnp.arange(n_nodes))
    return features[order]


# ====================================================================== part b: other
@error_case(family="other", fix="tree-api", raises="AttributeError",
            source="https://github.com/michael-0brien/cryojax/pull/374",
            line="first = jax.tree_map(lambda leaf: leaf[0:1], per_image)",
            fixed="first = jax.tree.map(lambda leaf: leaf[0:1], per_image)",
            args=lambda: ({'defocus': jnp.array([1.2, 1.5, 0.9]), 'pose': jnp.arange(6.0).reshape(3, 2)},))
def first_image_parameters(per_image):
    first = jax.tree_map(lambda leaf: leaf[0:1], per_image)
    return first['defocus'] * jnp.sum(first['pose'])


@error_case(family="other", fix="example-libraries-b11b", raises="ImportError",
            source="https://github.com/probml/probml-utils/issues/33",
            line="from jax.experimental import optimizers",
            fixed="from jax.example_libraries import optimizers",
            args=lambda: (jnp.array([1.0, -2.0, 0.5]), 0.1))
def one_sgd_step(weights, step_size):
    from jax.experimental import optimizers
    init_fn, update_fn, get_params = optimizers.sgd(step_size)
    state = init_fn(weights)
    grads = jax.grad(lambda w: jnp.sum(w ** 2))(weights)
    return get_params(update_fn(0, grads, state))
