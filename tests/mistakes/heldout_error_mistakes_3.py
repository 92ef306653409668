"""A third held-out batch of JAX errors outside jit: cases written after the rules of
`usage_rules.py` were revised against the first two held-out batches, asked for kinds of error those
lack; after their first run (2 of 23 told their fix: no rule knew those messages) they were used to
write rules for them (same format as `error_mistakes.py`).

Every function below is reduced from a public report that none of `error_mistakes.py`,
`heldout_error_mistakes.py`, `heldout_error_mistakes_2.py` (nor the jit and retrace corpora) uses
(a JAX issue or pull request, a library's issue) and raises `raises` on the pinned jax (0.10.2) at
`line`, the innermost frame of the student's own code; `fixed` is that line as the maintainers
(or the accepted answer) fixed it. The code is written fresh: names and numbers differ from the
threads, the mistake is the same. Each function is self-contained (module-level names: `jax`,
`jnp`, `lax`, `np`, `functools`, `NamedTuple`, `dataclasses`) and `args()` returns plain data, so
a case can be pasted into a notebook cell or sent to a sandboxed grader worker.

This batch looks for kinds of mistakes the earlier batches lack (a collective over an unnamed vmap
axis, complex outputs under grad, float loop bounds, a scan with nothing to scan over, branch
functions that expect an operand cond never passes, `lax.select` across dtypes, string arguments
to jit, forward-mode through a custom_vjp, einsum labels, uneven splits...). Where the fix belongs
to a rule the student defined earlier (custom_vjp), JAX checks the rule only after it returns, so
the student's innermost frame is the line that differentiates; `fixed` there re-registers the
corrected rule and differentiates again, on one line.
"""
from __future__ import annotations

import dataclasses  # noqa: F401  (a name the cases may use)
import functools  # noqa: F401  (a name the cases may use)
from typing import NamedTuple  # noqa: F401  (a name the cases may use)

import jax
import jax.numpy as jnp
import numpy as np  # noqa: F401  (a name the cases may use)
from jax import lax

from .corpus import error_case


# ====================================================================== vmap
@error_case(family="vmap", fix="vmap-axis-name", raises="NameError",
            source="https://github.com/jax-ml/jax/issues/8220",
            line="return jax.vmap(lambda s: s / lax.psum(s, 'batch'))(scores)",
            fixed="return jax.vmap(lambda s: s / lax.psum(s, 'batch'), axis_name='batch')(scores)",
            args=lambda: (jnp.array([1.0, 2.0, 3.0, 4.0]),))
def vote_shares(scores):
    return jax.vmap(lambda s: s / lax.psum(s, 'batch'))(scores)


@error_case(family="vmap", fix="vmap-in-axes-none", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/2367",
            line="return jax.vmap(sq_error, in_axes=({'w': None}, 0, 0))(params, xs, ys)",
            fixed="return jax.vmap(sq_error, in_axes=(None, 0, 0))(params, xs, ys)",
            args=lambda: ({'w': jnp.ones(3), 'b': jnp.array(0.5)}, jnp.ones((4, 3)), jnp.zeros(4)))
def per_example_errors(params, xs, ys):
    def sq_error(p, x, y):
        return (jnp.dot(p['w'], x) + p['b'] - y) ** 2
    return jax.vmap(sq_error, in_axes=({'w': None}, 0, 0))(params, xs, ys)


@error_case(family="vmap", fix="vmap-in-axes-axis", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/8403",
            line="return jax.vmap(one_copy)()",
            fixed="return jax.vmap(one_copy)(jax.random.split(key, n_copies))",
            args=lambda: (jnp.linspace(0.0, 1.0, 5), 3))
def noisy_copies(signal, n_copies):
    key = jax.random.key(7)

    def one_copy(k=key):
        return signal + 0.1 * jax.random.normal(k, signal.shape)
    return jax.vmap(one_copy)()


# ====================================================================== grad
@error_case(family="grad", fix="grad-real-output", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/22948",
            line="return jax.grad(wave)(t)",
            fixed="return jax.jacfwd(wave)(t)",
            args=lambda: (0.3,))
def wave_derivative(t):
    def wave(t):
        return jnp.cos(t) + 1j * jnp.sin(2.0 * t)
    return jax.grad(wave)(t)


@error_case(family="grad", fix="grad-float", raises="TypeError",
            source="https://github.com/pyro-ppl/numpyro/issues/226",
            line="return jax.hessian(energy)(counts)",
            fixed="return jax.hessian(energy)(counts.astype(jnp.float32))",
            args=lambda: (jnp.arange(3),))
def energy_curvature(counts):
    def energy(n):
        return jnp.sum(n ** 3) / 6.0
    return jax.hessian(energy)(counts)


@error_case(family="grad", fix="grad-scalar", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/5848",
            line="return jax.value_and_grad(warped)(image)",
            fixed="return jax.value_and_grad(lambda img: jnp.sum(warped(img)))(image)",
            args=lambda: (jnp.ones((3, 3)), 0.5))
def warp_value_and_grad(image, shift):
    def warped(img):
        return img + shift * jnp.roll(img, 1, axis=0)
    return jax.value_and_grad(warped)(image)


# ====================================================================== loops
@error_case(family="loops", fix="loop-int-bounds", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/1693",
            line="return lax.fori_loop(0, n_steps, lambda i, x: x - dt * 0.5 * x, x0)",
            fixed="return lax.fori_loop(0, int(n_steps), lambda i, x: x - dt * 0.5 * x, x0)",
            args=lambda: (jnp.float32(1.0), 1.0, 0.25))
def simulate_decay(x0, t_end, dt):
    n_steps = t_end / dt
    return lax.fori_loop(0, n_steps, lambda i, x: x - dt * 0.5 * x, x0)


@error_case(family="loops", fix="scan-length", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/1800",
            line="_, path = lax.scan(move, start, None)",
            fixed="_, path = lax.scan(move, start, None, length=5)",
            args=lambda: (jnp.zeros(2), jnp.array([0.5, -0.5])))
def drift_path(start, step):
    def move(pos, _):
        pos = pos + step
        return pos, pos
    _, path = lax.scan(move, start, None)
    return path


@error_case(family="loops", fix="loop-body-callable", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/10262",
            line="return lax.fori_loop(0, n_iters, smooth(x0), x0)",
            fixed="return lax.fori_loop(0, n_iters, lambda i, x: smooth(x), x0)",
            args=lambda: (jnp.array([0.0, 4.0, 0.0, 4.0]), 3))
def relax_profile(x0, n_iters):
    def smooth(x):
        return 0.5 * (x + jnp.roll(x, 1))
    return lax.fori_loop(0, n_iters, smooth(x0), x0)


# ====================================================================== branches
@error_case(family="branches", fix="branch-operands", raises="TypeError",
            source="https://github.com/brainpy/BrainPy/pull/456",
            line="return lax.cond(reached_goal, lambda _: 10.0, lambda _: 0.0)",
            fixed="return lax.cond(reached_goal, lambda: 10.0, lambda: 0.0)",
            args=lambda: (jnp.array(True),))
def goal_bonus(reached_goal):
    return lax.cond(reached_goal, lambda _: 10.0, lambda _: 0.0)


@error_case(family="branches", fix="select-where", raises="TypeError",
            source="https://github.com/RobertTLange/gymnax/issues/52",
            line="return jax.tree.map(lambda a, b: lax.select(done, a, b), fresh, stepped)",
            fixed="return jax.tree.map(lambda a, b: jnp.where(done, a, b), fresh, stepped)",
            args=lambda: (jnp.array(True), {'pos': jnp.zeros(2), 'time': jnp.array(0.0)},
                          {'pos': jnp.ones(2), 'time': jnp.array(7)}))
def auto_reset(done, fresh, stepped):
    return jax.tree.map(lambda a, b: lax.select(done, a, b), fresh, stepped)


@error_case(family="branches", fix="select-where", raises="TypeError",
            source="https://github.com/huggingface/diffusers/issues/3039",
            line="return lax.select(use_prev, prev, fresh)",
            fixed="return jnp.where(use_prev, prev, fresh)",
            args=lambda: (jnp.array(True), jnp.ones(3), jnp.zeros(3)))
def sampler_update(use_prev, prev_sample, fresh):
    prev = prev_sample.astype(jnp.bfloat16)
    return lax.select(use_prev, prev, fresh)


# ====================================================================== pytrees
@error_case(family="pytrees", fix="static-arg", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/13914",
            line="return jax.jit(combine)(x, y, mode)",
            fixed="return jax.jit(combine, static_argnames='mode')(x, y, mode)",
            args=lambda: (jnp.array([1.0, 2.0]), jnp.array([3.0, 4.0])))
def combine_inputs(x, y):
    mode = 'add'

    def combine(x, y, mode):
        return x + y if mode == 'add' else x * y
    return jax.jit(combine)(x, y, mode)


@error_case(family="pytrees", fix="tree-same-structure", raises="ValueError",
            source="https://github.com/invrs-io/opt/pull/13",
            line="return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)",
            fixed="return jax.tree.map(lambda p, g: p - 0.1 * g, params, dict(grads, b=None))",
            args=lambda: (jnp.ones(3), jnp.full(3, 0.5)))
def no_bias_step(w, grad_w):
    params = {'w': w, 'b': None}
    grads = {'w': grad_w, 'b': jnp.zeros(())}
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


@error_case(family="pytrees", fix="grad-argnums", raises="ValueError",
            source="https://github.com/google-deepmind/optax/issues/808",
            line="return jax.tree.map(lambda p, g: p - 0.01 * g, params, jax.grad(loss)(targets, params))",
            fixed="return jax.tree.map(lambda p, g: p - 0.01 * g, params, jax.grad(loss, argnums=1)(targets, params))",
            args=lambda: (jnp.zeros((4, 3)), jnp.ones((4, 3)), jnp.eye(3)))
def linear_fit_step(targets, inputs, weights):
    params = {'weights': weights}

    def loss(y_true, params):
        return jnp.mean((y_true - inputs @ params['weights']) ** 2)
    return jax.tree.map(lambda p, g: p - 0.01 * g, params, jax.grad(loss)(targets, params))


# ====================================================================== keys
@error_case(family="keys", fix="random-dtype", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/3317",
            line="return jax.random.normal(key, (n,), dtype=jnp.int32)",
            fixed="return jax.random.normal(key, (n,)).astype(jnp.int32)",
            args=lambda: (5,))
def integer_noise(n):
    key = jax.random.key(3)
    return jax.random.normal(key, (n,), dtype=jnp.int32)


@error_case(family="keys", fix="sample-size", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/9564",
            line="picks = jax.random.choice(key, n_items, (n_picks,), replace=False)",
            fixed="picks = jax.random.choice(key, n_items, (min(n_picks, n_items),), replace=False)",
            args=lambda: (jnp.arange(4.0), 6))
def distinct_subset(values, n_picks):
    key = jax.random.key(11)
    n_items = values.shape[0]
    picks = jax.random.choice(key, n_items, (n_picks,), replace=False)
    return values[picks]


# ====================================================================== custom rules
@error_case(family="custom-rules", fix="vjp-reverse-mode", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/3996",
            line="return jax.jacfwd(clip_gradient)(x)",
            fixed="return jax.jacrev(clip_gradient)(x)",
            args=lambda: (jnp.array([0.5, 2.0]),))
def clipped_jacobian(x):
    @jax.custom_vjp
    def clip_gradient(v):
        return v

    def fwd(v):
        return v, None

    def bwd(_, g):
        return (jnp.clip(g, -1.0, 1.0),)
    clip_gradient.defvjp(fwd, bwd)
    return jax.jacfwd(clip_gradient)(x)


@error_case(family="custom-rules", fix="vjp-reverse-mode", raises="TypeError",
            source="https://github.com/google/jaxopt/issues/474",
            line="return jax.jvp(lambda t: jnp.sum(ridge(t) ** 2), (theta,), (1.0,))[1]",
            fixed="return jax.grad(lambda t: jnp.sum(ridge(t) ** 2))(theta)",
            args=lambda: (0.5, jnp.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]]), jnp.array([1.0, 2.0, 3.0])))
def ridge_sensitivity(theta, xs, ys):
    gram = xs.T @ xs

    @jax.custom_vjp
    def ridge(t):
        return jnp.linalg.solve(gram + t * jnp.eye(gram.shape[0]), xs.T @ ys)

    def fwd(t):
        a = gram + t * jnp.eye(gram.shape[0])
        w = jnp.linalg.solve(a, xs.T @ ys)
        return w, (a, w)

    def bwd(res, g):
        a, w = res
        return (-jnp.dot(g, jnp.linalg.solve(a, w)),)
    ridge.defvjp(fwd, bwd)
    return jax.jvp(lambda t: jnp.sum(ridge(t) ** 2), (theta,), (1.0,))[1]


@error_case(family="custom-rules", fix="fwd-pair", raises="AttributeError",
            source="https://github.com/lucidrains/flash-attention-jax/pull/8",
            line="return jax.grad(lambda q: scores(q, k).sum())(q)",
            fixed="return scores.defvjp(lambda q, k: (scores(q, k), (q, k, scores(q, k))), bwd) or jax.grad(lambda q: scores(q, k).sum())(q)",
            args=lambda: (jnp.ones((2, 3)), jnp.arange(12.0).reshape(4, 3) / 10.0))
def attention_query_grad(q, k):
    @jax.custom_vjp
    def scores(q, k):
        return jax.nn.softmax(q @ k.T)

    def fwd(q, k):
        s = jax.nn.softmax(q @ k.T)
        row_sum = s.sum(axis=-1)
        return (s, row_sum), (q, k, s)

    def bwd(res, g):
        q, k, s = res
        ds = s * (g - jnp.sum(g * s, axis=-1, keepdims=True))
        return ds @ k, ds.T @ q
    scores.defvjp(fwd, bwd)
    return jax.grad(lambda q: scores(q, k).sum())(q)


# ====================================================================== shapes
@error_case(family="shapes", fix="contract-dims", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/3645",
            line="return jnp.einsum('bi,ij,bj->b', left, w, right)",
            fixed="return jnp.einsum('bi,ji,bj->b', left, w, right)",
            args=lambda: (jnp.ones((4, 3)), jnp.ones((5, 3)), jnp.ones((4, 5))))
def bilinear_scores(left, w, right):
    return jnp.einsum('bi,ij,bj->b', left, w, right)


@error_case(family="shapes", fix="split-sections", raises="ValueError",
            source="https://github.com/awslabs/graphstorm/pull/71",
            line="shards = jnp.split(batch, n_shards)",
            fixed="shards = jnp.array_split(batch, n_shards)",
            args=lambda: (jnp.ones((10, 2)), 3))
def shard_means(batch, n_shards):
    shards = jnp.split(batch, n_shards)
    return jnp.stack([s.mean(axis=0) for s in shards])


@error_case(family="shapes", fix="update-shape", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/1380",
            line="history = history.at[t].set(states[t])",
            fixed="history = history.at[t].set(states[t, :2])",
            args=lambda: (jnp.ones((3, 3)), 3))
def planar_history(states, n_steps):
    history = jnp.zeros((n_steps, 2))
    for t in range(n_steps):
        history = history.at[t].set(states[t])
    return history
