"""A second held-out batch of JAX errors outside jit: cases written after the rules of
`usage_rules.py` were revised against the first held-out batch; after their first run (23 of 26
told their fix) they were used to revise the rules again (same format as `error_mistakes.py`).

Every function below is reduced from a public report that neither `error_mistakes.py` nor
`heldout_error_mistakes.py` uses (a JAX issue or pull request, a library's issue, a
question-and-answer page) and raises `raises` on the pinned jax (0.10.2) at `line`, the innermost
frame of the student's own code; `fixed` is that line as the maintainers (or the accepted answer)
fixed it. The code is written fresh: names and numbers differ from the threads, the mistake is
the same. Each function is self-contained (module-level names: `jax`, `jnp`, `lax`, `np`,
`functools`, `NamedTuple`, `dataclasses`) and `args()` returns plain data, so a case can be pasted
into a notebook cell or sent to a sandboxed grader worker.

Where the fix belongs to a rule the student defined earlier (custom_vjp/custom_jvp), JAX checks
the rule only after it returns, so the student's innermost frame is the line that differentiates;
`fixed` there re-registers the corrected rule and differentiates again, on one line. Where the
fix belongs to a line just above the failing one (a weight shaped for the wrong input size), the
same one-line form rebuilds it and repeats the failing statement.
"""
from __future__ import annotations

import dataclasses
import functools  # noqa: F401  (a name the cases may use)
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np  # noqa: F401  (a name the cases may use)
from jax import lax

from .corpus import error_case


# ====================================================================== vmap
@error_case(family="vmap", fix="vmap-in-axes-none", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/3877",
            line="return jax.vmap(position, in_axes=(None, 0, 0))(velocity, times, start)",
            fixed="return jax.vmap(position, in_axes=(None, 0, None))(velocity, times, start)",
            args=lambda: (jnp.array([1.0, -0.5]), jnp.linspace(0.0, 3.0, 7), jnp.array([0.0, 2.0])))
def trajectory(velocity, times, start):
    def position(v, t, x0):
        return x0 + v * t
    return jax.vmap(position, in_axes=(None, 0, 0))(velocity, times, start)


@error_case(family="vmap", fix="vmap-in-axes-entries", raises="ValueError",
            source="https://github.com/Drenderer/klax/issues/19",
            line="return jax.vmap(pair_error, in_axes=(0, 0))(batch)",
            fixed="return jax.vmap(pair_error, in_axes=((0, 0),))(batch)",
            args=lambda: ((jnp.ones((5, 3)), jnp.zeros((5, 3))),))
def paired_errors(batch):
    def pair_error(pair):
        prediction, target = pair
        return jnp.sum((prediction - target) ** 2)
    return jax.vmap(pair_error, in_axes=(0, 0))(batch)


@error_case(family="vmap", fix="vmap-in-axes-entries", raises="ValueError",
            source="https://boohere.com/kr/detail/123872.html",
            line="return jax.vmap(blend, in_axes=((0, 1), (0, 1)))(left, right)",
            fixed="return jax.vmap(jax.vmap(blend, in_axes=(0, 0)), in_axes=(1, 1), out_axes=1)(left, right)",
            args=lambda: (jnp.arange(9.0).reshape(3, 3), -jnp.arange(9.0).reshape(3, 3)))
def blended_grid(left, right):
    def blend(a, b):
        return 0.5 * (a + b)
    return jax.vmap(blend, in_axes=((0, 1), (0, 1)))(left, right)


@error_case(family="vmap", fix="vmap-in-axes-none", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/3161",
            line="return jax.vmap(shifted)(config, offset, scale)",
            fixed="return jax.vmap(shifted, in_axes=({'base': None, 'values': 0}, None, None))(config, offset, scale)",
            args=lambda: ({"base": 4.0, "values": jnp.arange(5.0)}, 1.0, 2.0))
def shifted_values(config, offset, scale):
    def shifted(cfg, off, s):
        return s * (cfg['base'] + cfg['values']) + off
    return jax.vmap(shifted)(config, offset, scale)


# ====================================================================== grad
@error_case(family="grad", fix="grad-scalar", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/28110",
            line="return jax.vmap(jax.grad(potential))(positions)",
            fixed="return jax.vmap(jax.grad(potential))(positions[:, 0])",
            args=lambda: (jnp.linspace(-1.0, 1.0, 6).reshape(6, 1),))
def forces(positions):
    def potential(x):
        return 0.5 * x ** 2 + 0.1 * x ** 4
    return jax.vmap(jax.grad(potential))(positions)


@error_case(family="grad", fix="grad-argnums", raises="TypeError",
            source="https://github.com/pymc-devs/pytensor/issues/2072",
            line="return jax.grad(picked_sum, argnums=(0, 1))(weights, indices)",
            fixed="return jax.grad(picked_sum, argnums=0)(weights, indices)",
            args=lambda: (jnp.linspace(0.0, 1.0, 8), jnp.array([1, 4, 6])))
def selected_weight_grads(weights, indices):
    def picked_sum(w, idx):
        return jnp.sum(w[idx] ** 2)
    return jax.grad(picked_sum, argnums=(0, 1))(weights, indices)


@error_case(family="grad", fix="grad-has-aux", raises="TypeError",
            source="https://github.com/d2l-ai/d2l-en/pull/2354",
            line="grads = jax.grad(loss_and_state)(params, xs, ys)",
            fixed="grads, _ = jax.grad(loss_and_state, has_aux=True)(params, xs, ys)",
            args=lambda: ({"w": jnp.ones((3, 4)), "b": jnp.zeros(4)}, jnp.ones((5, 3)), jnp.array([0, 1, 2, 3, 0])))
def softmax_regression_grads(params, xs, ys):
    def loss_and_state(p, x, y):
        logits = x @ p['w'] + p['b']
        log_probs = jax.nn.log_softmax(logits)
        loss = -jnp.mean(log_probs[jnp.arange(y.shape[0]), y])
        return loss, {}
    grads = jax.grad(loss_and_state)(params, xs, ys)
    return grads


@error_case(family="grad", fix="grad-argnums", raises="TypeError",
            source="https://github.com/deepmodeling/DMFF/issues/82",
            line="return jax.grad(pair_energy, argnums=2)(positions, box, pairs, charges)",
            fixed="return jax.grad(pair_energy, argnums=3)(positions, box, pairs, charges)",
            args=lambda: (jnp.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.5]]), 10.0,
                          jnp.array([[0, 1], [0, 2], [1, 2]]), jnp.array([0.5, -0.5, 0.2])))
def charge_gradient(positions, box, pairs, charges):
    def pair_energy(pos, box, pairs, q):
        delta = pos[pairs[:, 0]] - pos[pairs[:, 1]]
        delta = delta - box * jnp.round(delta / box)
        r = jnp.linalg.norm(delta, axis=1)
        return jnp.sum(q[pairs[:, 0]] * q[pairs[:, 1]] / r)
    return jax.grad(pair_energy, argnums=2)(positions, box, pairs, charges)


# ====================================================================== loops
@error_case(family="loops", fix="carry-shape", raises="TypeError",
            source="https://github.com/google/brax/issues/228",
            line="(_, total), _ = lax.scan(step, (start, jnp.float32(0.0)), pushes)",
            fixed="(_, total), _ = lax.scan(step, (start, jnp.zeros(1)), pushes)",
            args=lambda: (jnp.zeros(2), jnp.ones((4, 2))))
def episode_reward(start, pushes):
    def step(carry, push):
        pos, reward = carry
        new_pos = pos + 0.1 * push
        gain = jnp.sum(new_pos - pos, keepdims=True)
        return (new_pos, reward + gain), gain
    (_, total), _ = lax.scan(step, (start, jnp.float32(0.0)), pushes)
    return total


@error_case(family="loops", fix="carry-dtype", raises="TypeError",
            source="https://github.com/RobertTLange/gymnax/pull/24",
            line="(cell, last_reward), rewards = lax.scan(step, (start_cell, jnp.float32(0.0)), moves)",
            fixed="(cell, last_reward), rewards = lax.scan(step, (start_cell, jnp.int32(0)), moves)",
            args=lambda: (jnp.int32(0), jnp.array([1, 1, -1, 1, 1]), jnp.int32(3)))
def chain_rewards(start_cell, moves, goal):
    def step(carry, move):
        cell, _ = carry
        cell = jnp.clip(cell + move, 0, 4)
        reward = (cell == goal).astype(jnp.int32)
        return (cell, reward), reward
    (cell, last_reward), rewards = lax.scan(step, (start_cell, jnp.float32(0.0)), moves)
    return rewards


@error_case(family="loops", fix="carry-dtype", raises="TypeError",
            source="https://github.com/Joshuaalbert/jaxns/issues/85",
            line="point, _ = lax.while_loop(keep_going, shrink, (jnp.array([4, -3]), 0))",
            fixed="point, _ = lax.while_loop(keep_going, shrink, (jnp.array([4.0, -3.0]), 0))",
            args=lambda: (0.5,))
def contract_point(factor):
    def keep_going(state):
        point, steps = state
        return (jnp.linalg.norm(point) > 0.1) & (steps < 50)

    def shrink(state):
        point, steps = state
        return point * factor, steps + 1
    point, _ = lax.while_loop(keep_going, shrink, (jnp.array([4, -3]), 0))
    return point


@error_case(family="loops", fix="carry-shape", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/17629",
            line="_, final = lax.fori_loop(0, n_steps, step, (track, {'pos': start, 'vel': velocity, 'trail': jnp.zeros((0, 3))}))",
            fixed="_, final = lax.fori_loop(0, n_steps, step, (track, {'pos': start, 'vel': velocity, 'trail': jnp.zeros((n_steps, 3))}))",
            args=lambda: (jnp.zeros(3), jnp.array([1.0, 0.0, 2.0]), 6))
def ball_trail(start, velocity, n_steps):
    track = jnp.zeros((n_steps, 3))

    def step(i, carry):
        track, state = carry
        track = track.at[i].set(state['pos'])
        new_state = {'pos': state['pos'] + 0.1 * state['vel'], 'vel': state['vel'], 'trail': track}
        return track, new_state
    _, final = lax.fori_loop(0, n_steps, step, (track, {'pos': start, 'vel': velocity, 'trail': jnp.zeros((0, 3))}))
    return final['trail']


# ====================================================================== branches
@error_case(family="branches", fix="switch-int-index", raises="TypeError",
            source="https://github.com/genjax-community/genjax/issues/702",
            line="return lax.switch(coin, [tails, heads], bias)",
            fixed="return lax.switch(coin.astype(jnp.int32), [tails, heads], bias)",
            args=lambda: (jnp.uint32(3), 0.7))
def coin_payout(seed, bias):
    coin = jax.random.bernoulli(jax.random.key(seed), bias)

    def tails(b):
        return -1.0 * b

    def heads(b):
        return 2.0 * b
    return lax.switch(coin, [tails, heads], bias)


@error_case(family="branches", fix="branch-types", raises="TypeError",
            source="https://github.com/f0uriest/interpax/issues/142",
            line="return lax.switch(order, [weights, slopes, curvature], x0, x1, xq)",
            fixed="return lax.switch(order, [weights, lambda x0, x1, xq: jnp.array([-1.0, 1.0]), curvature], x0, x1, xq)",
            args=lambda: (1, 0.0, 1.0, 0.25))
def linear_basis(order, x0, x1, xq):
    def weights(x0, x1, xq):
        return jnp.array([x1 - xq, xq - x0])

    def slopes(x0, x1, xq):
        return jnp.array([-1, 1])

    def curvature(x0, x1, xq):
        return jnp.zeros(2)
    return lax.switch(order, [weights, slopes, curvature], x0, x1, xq)


@error_case(family="branches", fix="scalar-pred", raises="TypeError",
            source="https://github.com/eclipse-qrisp/Qrisp/issues/203",
            line="return lax.cond(is_positive, halve, negate, state)",
            fixed="return lax.cond(is_positive(state), halve, negate, state)",
            args=lambda: (jnp.array([4.0, 2.0]),))
def adjust_state(state):
    def is_positive(s):
        return s[0] > 0

    def halve(s):
        return s / 2.0

    def negate(s):
        return -s
    return lax.cond(is_positive, halve, negate, state)


# ====================================================================== pytrees
@error_case(family="pytrees", fix="tree-same-structure", raises="ValueError",
            source="https://github.com/google-deepmind/optax/issues/160",
            line="return jax.tree.map(lambda p, g, m: p - 0.1 * g * m, params, grads, trainable)",
            fixed="return jax.tree.map(lambda p, g, m: p - 0.1 * g * m, params, grads, Layer(**trainable))",
            args=lambda: ((jnp.ones((2, 3)), jnp.zeros(3)), (jnp.full((2, 3), 0.5), jnp.ones(3)),
                          {"kernel": 1.0, "bias": 0.0}))
def masked_step(params, grads, trainable):
    class Layer(NamedTuple):
        kernel: jax.Array
        bias: jax.Array

    params, grads = Layer(*params), Layer(*grads)
    return jax.tree.map(lambda p, g, m: p - 0.1 * g * m, params, grads, trainable)


@error_case(family="pytrees", fix="register-pytree", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/2371",
            line="return jax.jit(kinetic_energy)(Particles(velocities, masses))",
            fixed="return jax.jit(kinetic_energy)(jax.tree_util.register_dataclass(Particles)(velocities, masses))",
            args=lambda: (jnp.ones((4, 3)), jnp.array([1.0, 2.0, 1.0, 0.5])))
def system_energy(velocities, masses):
    @dataclasses.dataclass
    class Particles:
        velocity: jax.Array
        mass: jax.Array

    def kinetic_energy(p):
        return 0.5 * jnp.sum(p.mass * jnp.sum(p.velocity ** 2, axis=1))
    return jax.jit(kinetic_energy)(Particles(velocities, masses))


@error_case(family="pytrees", fix="tree-same-structure", raises="ValueError",
            source="https://github.com/google-deepmind/dm-haiku/issues/191",
            line="new_velocity = jax.tree.map(lambda v, g: 0.9 * v + g, velocity, grads)",
            fixed="new_velocity = jax.tree.map(lambda v, g: 0.9 * v + g, velocity, list(grads))",
            args=lambda: ([jnp.ones(3), jnp.ones(())],))
def momentum_update(params):
    velocity = [jnp.zeros_like(p) for p in params]
    grads = tuple(2.0 * p for p in params)
    new_velocity = jax.tree.map(lambda v, g: 0.9 * v + g, velocity, grads)
    return [p - 0.01 * v for p, v in zip(params, new_velocity)]


# ====================================================================== keys
@error_case(family="keys", fix="key-vmap", raises="ValueError",
            source="https://github.com/liukidar/pcx/issues/75",
            line="return jax.random.normal(keys, (n_features,))",
            fixed="return jax.vmap(lambda k: jax.random.normal(k, (n_features,)))(keys)",
            args=lambda: (1, 4))
def noise_batch(batch_size, n_features):
    keys = jax.random.split(jax.random.key(7), batch_size)
    return jax.random.normal(keys, (n_features,))


@error_case(family="keys", fix="key-vmap", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/16484",
            line="keys = jax.random.key(seeds)",
            fixed="keys = jax.vmap(jax.random.key)(seeds)",
            args=lambda: (jnp.arange(5),))
def seeded_dropout_masks(seeds):
    keys = jax.random.key(seeds)
    return jax.vmap(lambda k: jax.random.bernoulli(k, 0.8, (6,)))(keys)


@error_case(family="keys", fix="prng-key", raises="TypeError",
            source="https://github.com/ott-jax/ott/issues/172",
            line="return jax.random.uniform(seed, (n_points, dim))",
            fixed="return jax.random.uniform(jax.random.key(seed), (n_points, dim))",
            args=lambda: (8, 2, 0))
def sample_cloud(n_points, dim, seed):
    return jax.random.uniform(seed, (n_points, dim))


# ====================================================================== custom rules
@error_case(family="custom-rules", fix="jvp-pair", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/6121",
            line="return jax.grad(lambda m: jnp.sum(log_volume(m)))(cells)",
            fixed="log_volume.defjvp(lambda pr, ta: (log_volume(pr[0]), jnp.trace(jnp.linalg.solve(pr[0], ta[0]), axis1=-2, axis2=-1))); return jax.grad(lambda m: jnp.sum(log_volume(m)))(cells)",
            args=lambda: (jnp.stack([2.0 * jnp.eye(2), 3.0 * jnp.eye(2), jnp.eye(2) + 0.5]),))
def log_volume_grads(cells):
    @jax.custom_jvp
    def log_volume(mats):
        return jnp.linalg.slogdet(mats)[1]

    @log_volume.defjvp
    def log_volume_jvp(primals, tangents):
        (mats,), (mats_dot,) = primals, tangents
        return log_volume(mats), jnp.trace(jnp.linalg.solve(mats, mats_dot))
    return jax.grad(lambda m: jnp.sum(log_volume(m)))(cells)


@error_case(family="custom-rules", fix="bwd-tuple", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/4673",
            line="return jax.grad(clipped_output, argnums=(0, 1))(layer, x)",
            fixed="clipped_output.defvjp(fwd, lambda res, g: ({'w': res[1] * g, 'b': g}, res[0]['w'] * g)); return jax.grad(clipped_output, argnums=(0, 1))(layer, x)",
            args=lambda: ({"w": jnp.float32(1.5), "b": jnp.float32(0.2)}, jnp.float32(0.7)))
def clipped_grads(layer, x):
    @jax.custom_vjp
    def clipped_output(layer, x):
        return jnp.clip(layer['w'] * x + layer['b'], -1.0, 1.0)

    def fwd(layer, x):
        return clipped_output(layer, x), (layer, x)

    def bwd(res, g):
        layer, x = res
        return (x * g, g), layer['w'] * g
    clipped_output.defvjp(fwd, bwd)
    return jax.grad(clipped_output, argnums=(0, 1))(layer, x)


# ====================================================================== shapes
@error_case(family="shapes", fix="contract-dims", raises="TypeError",
            source="https://github.com/google/neural-tangents/issues/135",
            line="hidden = jnp.tanh(features @ w1)",
            fixed="w1 = jax.random.normal(k1, (features.shape[-1], width)); hidden = jnp.tanh(features @ w1)",
            args=lambda: (jnp.ones((6, 5)), 8))
def regression_head(features, width):
    k1, k2 = jax.random.split(jax.random.key(0))
    w1 = jax.random.normal(k1, (1, width))
    w2 = jax.random.normal(k2, (width, 1))
    hidden = jnp.tanh(features @ w1)
    return hidden @ w2


@error_case(family="shapes", fix="broadcast-axes", raises="ValueError",
            source="https://github.com/vyraun/Half-Size/issues/2",
            line="centered = embeddings - jnp.mean(embeddings, axis=1)",
            fixed="centered = embeddings - jnp.mean(embeddings, axis=0)",
            args=lambda: (jnp.arange(24.0).reshape(6, 4),))
def centered_embeddings(embeddings):
    centered = embeddings - jnp.mean(embeddings, axis=1)
    return centered / jnp.linalg.norm(centered, axis=1, keepdims=True)


@error_case(family="shapes", fix="reshape-size", raises="TypeError",
            source="https://github.com/huggingface/diffusers/issues/1746",
            line="scale = jnp.asarray(guidance).reshape(prompt_ids.shape[:2])",
            fixed="scale = jnp.full(prompt_ids.shape[:2], guidance)",
            args=lambda: (jnp.zeros((2, 3, 5), dtype=jnp.int32), 7.5))
def guidance_grid(prompt_ids, guidance):
    scale = jnp.asarray(guidance).reshape(prompt_ids.shape[:2])
    return scale[..., None] * jnp.ones(prompt_ids.shape, jnp.float32)
