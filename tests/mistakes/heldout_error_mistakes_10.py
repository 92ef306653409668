"""A tenth held-out batch of JAX errors outside jit, written by two helper sessions at once that never
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


# ====================================================================== keys
@error_case(family="keys", fix="prng-key", raises="AttributeError",
            source="https://github.com/MarkusAI/rA9/issues/76",
            line="keep = jnp.random.uniform(size=x.shape) > rate",
            fixed="keep = jax.random.uniform(jax.random.key(0), x.shape) > rate",
            args=lambda: (jnp.arange(6.0).reshape(2, 3), 0.25))
def dropped_activations(x, rate):
    keep = jnp.random.uniform(size=x.shape) > rate
    return jnp.where(keep, x / (1.0 - rate), 0.0)


@error_case(family="keys", fix="key-one-style", raises="TypeError",
            source="https://github.com/google-deepmind/optax/pull/1167",
            line="return jax.tree.map(lambda a, b: jnp.all(a == b), state, blank)",
            fixed="return jax.tree.map(lambda a, b: jnp.all(a == b), dict(state, rng=jax.random.key_data(state['rng'])), blank)",
            args=lambda: (11, 3))
def noise_state_is_blank(seed, count):
    state = {'rng': jax.random.key(seed), 'count': jnp.asarray(count)}
    blank = {'rng': jnp.zeros(2, jnp.uint32), 'count': jnp.asarray(0)}
    return jax.tree.map(lambda a, b: jnp.all(a == b), state, blank)

@error_case(family="keys", fix="shape-tuple", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/4125",
            line="picks = jax.random.choice(key, candidates, 3)",
            fixed="picks = jax.random.choice(key, candidates, (3,))",
            args=lambda: (5, jnp.array([2.0, 4.0, 8.0, 16.0, 32.0])))
def sampled_step_sizes(seed, candidates):
    key = jax.random.key(seed)
    picks = jax.random.choice(key, candidates, 3)
    return jnp.sort(picks)

@error_case(family="keys", fix="key-vmap", raises="ValueError",
            source="https://github.com/pyro-ppl/numpyro/issues/1916",
            line="chain_keys, step_keys = jax.random.split(chain_keys)",
            fixed="chain_keys, step_keys = jax.vmap(jax.random.split, out_axes=1)(chain_keys)",
            args=lambda: (3, jnp.zeros((4, 2))))
def walker_moves(seed, walkers):
    chain_keys = jax.random.split(jax.random.key(seed), walkers.shape[0])
    chain_keys, step_keys = jax.random.split(chain_keys)
    return walkers + jax.vmap(lambda k: jax.random.normal(k, (2,)))(step_keys)


@error_case(family="keys", fix="split-count", raises="ValueError",
            source="https://github.com/genjax-community/genjax/issues/621",
            line="return jax.vmap(lambda k, p: p + 0.1 * jax.random.normal(k, p.shape))(jax.random.split(key), particles)",
            fixed="return jax.vmap(lambda k, p: p + 0.1 * jax.random.normal(k, p.shape))(jax.random.split(key, particles.shape[0]), particles)",
            args=lambda: (8, jnp.arange(10.0).reshape(5, 2)))
def rejuvenated_particles(seed, particles):
    key = jax.random.key(seed)
    return jax.vmap(lambda k, p: p + 0.1 * jax.random.normal(k, p.shape))(jax.random.split(key), particles)


@error_case(family="keys", fix="key-no-arith", raises="ValueError",
            source="https://github.com/huggingface/diffusers/pull/7703",
            line="noise = jax.random.normal(jax.random.split(key, 1), shape=latents.shape)",
            fixed="noise = jax.random.normal(jax.random.split(key)[1], shape=latents.shape)",
            args=lambda: (2, jnp.ones((2, 3))))
def noised_latents(seed, latents):
    key = jax.random.key(seed)
    noise = jax.random.normal(jax.random.split(key, 1), shape=latents.shape)
    return latents + 0.5 * noise


# ====================================================================== custom rules
@error_case(family="custom-rules", fix="pass-closed-over", raises="UnexpectedTracerError",
            source="https://github.com/google/jaxopt/issues/285",
            line="return jnp.sum(make_solver(lambda lam: y / (1.0 + lam))(penalty))",
            fixed="return jnp.sum(make_solver(lambda lam, t: t / (1.0 + lam))(penalty, y))",
            args=lambda: (jnp.array([1.0, -2.0, 0.5]), 0.5))
def shrunk_total_slope(targets, penalty):
    def make_solver(fun):
        solve = jax.custom_vjp(lambda lam, *rest: fun(lam, *rest))
        solve.defvjp(lambda lam, *rest: (fun(lam, *rest), (lam, rest)), lambda res, g: jax.vjp(fun, res[0], *res[1])[1](g))
        return solve

    def fitted_total(y):
        return jnp.sum(make_solver(lambda lam: y / (1.0 + lam))(penalty))
    return jax.grad(fitted_total)(targets)

@error_case(family="custom-rules", fix="vjp-reverse-mode", raises="TypeError",
            source="https://github.com/patrick-kidger/optimistix/issues/50",
            line="return jax.jacfwd(lambda k: decay(k) - observed)(rates)",
            fixed="return jax.jacrev(lambda k: decay(k) - observed)(rates)",
            args=lambda: (jnp.array([0.5, 1.5]), jnp.array([0.6, 0.2])))
def decay_fit_jacobian(rates, observed):
    decay = jax.custom_vjp(lambda k: jnp.exp(-k))
    decay.defvjp(lambda k: (jnp.exp(-k), jnp.exp(-k)), lambda e, g: (-e * g,))
    return jax.jacfwd(lambda k: decay(k) - observed)(rates)


# ====================================================================== shapes
@error_case(family="shapes", fix="solve-vector", raises="ValueError",
            source="https://github.com/probml/dynamax/issues/389",
            line="return jnp.linalg.solve(jnp.eye(2) - weights, biases)",
            fixed="return jnp.linalg.solve(jnp.eye(2) - weights, biases[..., None]).squeeze(-1)",
            args=lambda: (jnp.tile(jnp.array([[0.5, 0.1], [0.0, 0.3]]), (4, 1, 1)), jnp.ones((4, 2))))
def stationary_points(weights, biases):
    return jnp.linalg.solve(jnp.eye(2) - weights, biases)

@error_case(family="shapes", fix="int-index", raises="TypeError",
            source="https://github.com/MarkusAI/rA9/issues/5",
            line="membrane = jnp.zeros((spikes.shape[0] / 2, steps))",
            fixed="membrane = jnp.zeros((spikes.shape[0] // 2, steps))",
            args=lambda: (jnp.ones((6, 3)), 4))
def paired_membrane_trace(spikes, steps):
    membrane = jnp.zeros((spikes.shape[0] / 2, steps))
    return membrane + spikes[::2, :1]

@error_case(family="shapes", fix="last-axis", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/2470",
            line="return jnp.squeeze(scores, axis=0)",
            fixed="return jnp.squeeze(scores, axis=-1)",
            args=lambda: (jnp.arange(4.0).reshape(4, 1),))
def flattened_scores(scores):
    return jnp.squeeze(scores, axis=0)


# ====================================================================== other
@error_case(family="other", fix="axis-not-dim-b10", raises="TypeError",
            source="https://github.com/probml/probml-notebooks/pull/65",
            line="weights = jax.nn.softmax(scores, dim=-1)",
            fixed="weights = jax.nn.softmax(scores, axis=-1)",
            args=lambda: (jnp.arange(6.0).reshape(2, 3), jnp.arange(12.0).reshape(3, 4)))
def attention_readout(scores, values):
    weights = jax.nn.softmax(scores, dim=-1)
    return weights @ values


@error_case(family="other", fix="mesh-devices-shape-b10", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/18856",
            line="mesh = jax.sharding.Mesh(jax.devices(), ('data', 'model'))",
            fixed="mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(-1, 1), ('data', 'model'))",
            args=lambda: (jnp.arange(8.0).reshape(4, 2),))
def sharded_batch(batch):
    mesh = jax.sharding.Mesh(jax.devices(), ('data', 'model'))
    spec = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec('data', None))
    return jax.device_put(batch, spec) * 2.0

@error_case(family="other", fix="cpu-platform", raises="RuntimeError",
            source="https://github.com/danijar/dreamerv3/issues/18",
            line="device = jax.devices('gpu')[0]",
            fixed="device = jax.devices('cpu')[0]",
            args=lambda: (jnp.arange(4.0),))
def replay_on_accelerator(frames):
    device = jax.devices('gpu')[0]
    return jax.device_put(frames, device) / 255.0
