"""Real JAX mistakes beyond jit (issue 24): each raises one of JAX's errors when called eagerly.

Every function below is reduced from a public report (a JAX issue or pull request, a library's
issue, a question-and-answer thread) and raises `raises` on the pinned jax (0.10.2) at the line
quoted in `line`, the innermost frame of the student's own code. `fixed` is that line as the
maintainers (or the accepted answer) fixed it: put in place of `line`, the function runs. `fix`
names the kind of fix; `family` groups the cases for the rates. The code is written fresh: names
and numbers differ from the threads, the mistake is the same.

Each function is self-contained (helpers are nested; the only module-level names it uses are
`jax`, `jnp`, `lax`, `np`, `functools`, `NamedTuple` and `dataclasses`) and `args()` returns plain
data, so a case can be pasted into a notebook cell or sent to a sandboxed grader worker.
`check_error_cases.py` verifies all of this.
"""
from __future__ import annotations

import dataclasses
import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .corpus import error_case

# The only module-level names a case may use (a notebook cell or a grader worker provides them).
CASE_GLOBALS = {"jax": jax, "jnp": jnp, "lax": lax, "np": np, "functools": functools,
                "NamedTuple": NamedTuple, "dataclasses": dataclasses}



# ====================================================================== vmap
@error_case(family="vmap", fix="vmap-in-axes-axis", raises="ValueError", source="https://github.com/jax-ml/jax/issues/705",
            line="return jax.vmap(total, in_axes=(0, 1))(feats, extras)",
            fixed="return jax.vmap(total, in_axes=(0, 0))(feats, extras)",
            args=lambda: (jnp.ones((6, 4)), jnp.ones((6, 2))))
def row_totals(feats, extras):
    def total(f, e):
        return jnp.sum(f) + jnp.sum(e)
    return jax.vmap(total, in_axes=(0, 1))(feats, extras)


@error_case(family="vmap", fix="vmap-in-axes-axis", raises="ValueError", source="https://github.com/jax-ml/jax/pull/1613",
            line="return jax.vmap(combine, (0, 1, 0))(a, b, c)",
            fixed="return jax.vmap(combine, (0, 0, 0))(a, b, c)",
            args=lambda: (jnp.ones((5, 3)), jnp.ones((5, 2)), jnp.ones((5, 3))))
def three_way(a, b, c):
    def combine(x, y, z):
        return x @ z + y.sum()
    return jax.vmap(combine, (0, 1, 0))(a, b, c)


@error_case(family="vmap", fix="vmap-in-axes-none", raises="ValueError", source="https://openillumi.com/?p=107659",
            line="return jax.vmap(predict)(w, xs)",
            fixed="return jax.vmap(predict, in_axes=(None, 0))(w, xs)",
            args=lambda: (jnp.ones((3, 2)), jnp.ones((5, 3))))
def batch_predict(w, xs):
    def predict(w, x):
        return jnp.tanh(x @ w)
    return jax.vmap(predict)(w, xs)


@error_case(family="vmap", fix="vmap-in-axes-none", raises="ValueError", source="https://openillumi.com/?p=107659",
            line="return jax.vmap(mlp)(params, images)",
            fixed="return jax.vmap(mlp, in_axes=(None, 0))(params, images)",
            args=lambda: ({"w1": jnp.ones((4, 8)), "b1": jnp.zeros(8), "w2": jnp.ones((8, 2))},
                          jnp.ones((6, 4))))
def mlp_logits(params, images):
    def mlp(p, x):
        h = jax.nn.relu(x @ p["w1"] + p["b1"])
        return h @ p["w2"]
    return jax.vmap(mlp)(params, images)


@error_case(family="vmap", fix="vmap-in-axes-entries", raises="ValueError", source="https://openillumi.com/?p=107659",
            line="return jax.vmap(score, in_axes=(None, 0))(w, xs, temperature)",
            fixed="return jax.vmap(score, in_axes=(None, 0, None))(w, xs, temperature)",
            args=lambda: (jnp.ones(3), jnp.ones((4, 3)), 2.0))
def tempered_scores(w, xs, temperature):
    def score(w, x, t):
        return jnp.dot(w, x) / t
    return jax.vmap(score, in_axes=(None, 0))(w, xs, temperature)


@error_case(family="vmap", fix="vmap-in-axes-entries", raises="ValueError", source="https://github.com/jax-ml/jax/issues/9928",
            line="return jax.vmap(render, (0, 0))(origins, directions, near)",
            fixed="return jax.vmap(render, (0, 0, None))(origins, directions, near)",
            args=lambda: (jnp.zeros((8, 3)), jnp.ones((8, 3)), 0.5))
def render_rays(origins, directions, near):
    def render(o, d, t):
        return o + t * d
    return jax.vmap(render, (0, 0))(origins, directions, near)


@error_case(family="vmap", fix="vmap-in-axes-entries", raises="TypeError", source="https://github.com/jax-ml/jax/issues/18548",
            line="return jax.vmap(residual, in_axes={'x': 0, 'y': 0})(batch)",
            fixed="return jax.vmap(residual, in_axes=({'x': 0, 'y': 0},))(batch)",
            args=lambda: ({"x": jnp.ones((4, 2)), "y": jnp.zeros(4)},))
def batch_residuals(batch):
    def residual(example):
        return example["x"].sum() - example["y"]
    return jax.vmap(residual, in_axes={'x': 0, 'y': 0})(batch)


@error_case(family="vmap", fix="vmap-in-axes-none", raises="ValueError", source="https://github.com/jax-ml/jax/issues/5201",
            line="return jax.vmap(rescale)(signals, gain)",
            fixed="return jax.vmap(rescale, in_axes=(0, None))(signals, gain)",
            args=lambda: (jnp.ones((4, 10)), 2.5))
def rescale_all(signals, gain):
    def rescale(s, g):
        return s * g / jnp.max(jnp.abs(s))
    return jax.vmap(rescale)(signals, gain)


@error_case(family="vmap", fix="vmap-in-axes-axis", raises="ValueError", source="https://github.com/jax-ml/jax/pull/7281",
            line="return jax.vmap(lambda s: s ** 2, in_axes=1)(samples)",
            fixed="return jax.vmap(lambda s: s ** 2, in_axes=0)(samples)",
            args=lambda: (jnp.arange(5.0),))
def squared_samples(samples):
    return jax.vmap(lambda s: s ** 2, in_axes=1)(samples)


@error_case(family="vmap", fix="vmap-in-axes-axis", raises="ValueError", source="https://github.com/jax-ml/jax/issues/5021",
            line="return jax.vmap(shift, in_axes=(None, None))(offset, points)",
            fixed="return jax.vmap(shift, in_axes=(None, 0))(offset, points)",
            args=lambda: (jnp.ones(2), jnp.zeros((5, 2))))
def shift_points(offset, points):
    def shift(o, p):
        return p + o
    return jax.vmap(shift, in_axes=(None, None))(offset, points)


@error_case(family="vmap", fix="vmap-in-axes-none", raises="ValueError",
            source="https://51tsys.com/article/51380.html",
            line="return jax.vmap(pair_energy)(charges, distances)",
            fixed="return jax.vmap(jax.vmap(pair_energy, in_axes=(None, 0)), in_axes=(0, None))(charges, distances)",
            args=lambda: (jnp.arange(1.0, 6.0), jnp.arange(1.0, 4.0)))
def energy_table(charges, distances):
    def pair_energy(q, r):
        return q / r
    return jax.vmap(pair_energy)(charges, distances)


@error_case(family="vmap", fix="vmap-in-axes-none", raises="ValueError",
            source="https://github.com/google/flax/issues/858",
            line="return jax.vmap(jax.grad(loss))(w, xs, ys)",
            fixed="return jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(w, xs, ys)",
            args=lambda: (jnp.ones(3), jnp.ones((4, 3)), jnp.zeros(4)))
def per_example_grads(w, xs, ys):
    def loss(w, x, y):
        return (jnp.dot(w, x) - y) ** 2
    return jax.vmap(jax.grad(loss))(w, xs, ys)


@error_case(family="vmap", fix="vmap-out-axes", raises="ValueError", source="https://github.com/jax-ml/jax/pull/21766",
            line="return jax.vmap(step, out_axes=(0, None))(xs)",
            fixed="return jax.vmap(step, out_axes=(0, 0))(xs)",
            args=lambda: (jnp.ones((4, 3)),))
def predictions_and_norms(xs):
    def step(x):
        return jnp.tanh(x), jnp.linalg.norm(x)
    return jax.vmap(step, out_axes=(0, None))(xs)


@error_case(family="vmap", fix="vmap-out-axes", raises="ValueError", source="https://github.com/jax-ml/jax/pull/2530",
            line="return jax.vmap(stats, out_axes=(0, 0, 0))(rows)",
            fixed="return jax.vmap(stats, out_axes=(0, 0))(rows)",
            args=lambda: (jnp.arange(12.0).reshape(3, 4),))
def row_stats(rows):
    def stats(r):
        return r.mean(), r.std()
    return jax.vmap(stats, out_axes=(0, 0, 0))(rows)


# ====================================================================== grad
@error_case(family="grad", fix="grad-scalar", raises="TypeError",
            source="https://github.com/patrick-kidger/equinox/issues/213",
            line="return jax.grad(net)(point)",
            fixed="return jax.grad(lambda p: net(p)[0])(point)",
            args=lambda: (jnp.array([0.3, -0.2]),))
def input_gradient(point):
    w1 = jnp.linspace(-1.0, 1.0, 16).reshape(2, 8)
    w2 = jnp.ones((8, 1))

    def net(x):
        return jnp.tanh(x @ w1) @ w2
    return jax.grad(net)(point)


@error_case(family="grad", fix="grad-scalar", raises="TypeError", source="https://github.com/jax-ml/jax/pull/1092",
            line="return jax.grad(squared_errors)(w, xs, ys)",
            fixed="return jax.grad(lambda w, xs, ys: squared_errors(w, xs, ys).mean())(w, xs, ys)",
            args=lambda: (jnp.ones(3), jnp.ones((5, 3)), jnp.zeros(5)))
def regression_grad(w, xs, ys):
    def squared_errors(w, xs, ys):
        return (xs @ w - ys) ** 2
    return jax.grad(squared_errors)(w, xs, ys)


@error_case(family="grad", fix="grad-scalar", raises="TypeError", source="https://github.com/jax-ml/jax/pull/39557",
            line="return jax.grad(field)(position)",
            fixed="return jax.jacobian(field)(position)",
            args=lambda: (jnp.array([1.0, 2.0]),))
def field_derivative(position):
    def field(r):
        return jnp.array([-r[1], r[0]]) / jnp.sum(r ** 2)
    return jax.grad(field)(position)


@error_case(family="grad", fix="grad-float", raises="TypeError", source="https://github.com/jax-ml/jax/issues/2663",
            line="return jax.grad(jnp.tanh)(2)",
            fixed="return jax.grad(jnp.tanh)(2.0)",
            args=lambda: ())
def tanh_slope():
    return jax.grad(jnp.tanh)(2)


@error_case(family="grad", fix="grad-float", raises="TypeError", source="https://github.com/jax-ml/jax/issues/424",
            line="return jax.grad(cube)(n)",
            fixed="return jax.grad(cube)(float(n))",
            args=lambda: (3,))
def cube_slope(n):
    def cube(x):
        return x ** 3
    return jax.grad(cube)(n)


@error_case(family="grad", fix="grad-float", raises="TypeError",
            source="https://github.com/google-deepmind/dm-haiku/issues/513",
            line="return jax.grad(brightness)(pixels)",
            fixed="return jax.grad(brightness)(pixels.astype(jnp.float32))",
            args=lambda: (jnp.array([[0, 128], [255, 64]], dtype=jnp.int32),))
def brightness_grad(pixels):
    def brightness(img):
        return jnp.mean(jnp.sqrt(img / 255.0))
    return jax.grad(brightness)(pixels)


@error_case(family="grad", fix="grad-has-aux", raises="TypeError", source="https://github.com/jax-ml/jax/issues/6213",
            line="return jax.grad(error_and_residual)(w, xs, ys)",
            fixed="return jax.grad(error_and_residual, has_aux=True)(w, xs, ys)",
            args=lambda: (jnp.ones(2), jnp.ones((4, 2)), jnp.zeros(4)))
def fit_gradient(w, xs, ys):
    def error_and_residual(w, xs, ys):
        residual = xs @ w - ys
        return jnp.sum(residual ** 2), residual
    return jax.grad(error_and_residual)(w, xs, ys)


@error_case(family="grad", fix="grad-has-aux", raises="TypeError",
            source="https://github.com/google/flax/pull/107",
            line="(loss, recon), g = jax.value_and_grad(vae_loss)(params, batch)",
            fixed="(loss, recon), g = jax.value_and_grad(vae_loss, has_aux=True)(params, batch)",
            args=lambda: ({"enc": jnp.ones((4, 2)), "dec": jnp.ones((2, 4))}, jnp.ones((3, 4))))
def vae_step(params, batch):
    def vae_loss(p, x):
        z = jnp.tanh(x @ p["enc"])
        recon = jax.nn.sigmoid(z @ p["dec"])
        return jnp.mean((recon - x) ** 2), recon
    (loss, recon), g = jax.value_and_grad(vae_loss)(params, batch)
    return loss, g


@error_case(family="grad", fix="grad-has-aux", raises="TypeError", source="https://github.com/jax-ml/jax/issues/5776",
            line="return jax.grad(penalty, has_aux=True)(w)",
            fixed="return jax.grad(penalty)(w)",
            args=lambda: (jnp.array([0.5, -1.0, 2.0]),))
def penalty_grad(w):
    def penalty(w):
        return 0.01 * jnp.sum(w ** 2)
    return jax.grad(penalty, has_aux=True)(w)


@error_case(family="grad", fix="grad-has-aux", raises="TypeError", source="https://github.com/jax-ml/jax/issues/5776",
            line="return jax.grad(lambda w: (jnp.sum(w ** 2), w.mean(), w.max()), has_aux=True)(w)",
            fixed="return jax.grad(lambda w: (jnp.sum(w ** 2), (w.mean(), w.max())), has_aux=True)(w)",
            args=lambda: (jnp.array([1.0, 2.0, 3.0]),))
def loss_with_two_stats(w):
    return jax.grad(lambda w: (jnp.sum(w ** 2), w.mean(), w.max()), has_aux=True)(w)


@error_case(family="grad", fix="grad-argnums", raises="TypeError", source="https://github.com/jax-ml/jax/issues/1696",
            line="return dloss(w=w, b=b)",
            fixed="return dloss(w, b=b)",
            args=lambda: (jnp.ones(3), 0.5))
def keyword_gradient(w, b):
    def loss(w, b):
        return jnp.sum((w + b) ** 2)
    dloss = jax.grad(loss)
    return dloss(w=w, b=b)


@error_case(family="grad", fix="grad-argnums", raises="TypeError", source="https://github.com/jax-ml/jax/pull/1697",
            line="return jax.grad(objective, argnums=2)(theta, data)",
            fixed="return jax.grad(objective, argnums=1)(theta, data)",
            args=lambda: (jnp.float32(0.3), jnp.ones(4)))
def data_sensitivity(theta, data):
    def objective(theta, data):
        return jnp.sum(jnp.sin(theta * data))
    return jax.grad(objective, argnums=2)(theta, data)


# ====================================================================== loops
@error_case(family="loops", fix="carry-dtype", raises="TypeError",
            source="https://github.com/jax-md/jax-md/issues/99",
            line="final, _ = lax.scan(step, State(x0, jnp.zeros_like(x0), jnp.int32(0)), None, length=5)",
            fixed="final, _ = lax.scan(step, State(x0, jnp.zeros_like(x0), jnp.float32(0)), None, length=5)",
            args=lambda: (jnp.array([1.0, -2.0]),))
def fire_descent(x0):
    class State(NamedTuple):
        x: jax.Array
        v: jax.Array
        n_pos: jax.Array

    def step(s, _):
        v = 0.9 * s.v - 0.1 * s.x
        n_pos = jnp.where(jnp.dot(v, s.x) < 0, s.n_pos + 1, 0.0)
        return State(s.x + v, v, n_pos), None
    final, _ = lax.scan(step, State(x0, jnp.zeros_like(x0), jnp.int32(0)), None, length=5)
    return final.x


@error_case(family="loops", fix="carry-shape", raises="TypeError", source="https://github.com/jax-ml/jax/issues/1686",
            line="energy, _ = lax.fori_loop(0, spins.shape[1] - 1, bond, (0, spins))",
            fixed="energy, _ = lax.fori_loop(0, spins.shape[1] - 1, bond, (jnp.zeros(spins.shape[0]), spins))",
            args=lambda: (jnp.ones((3, 5)),))
def chain_energy(spins):
    def bond(i, carry):
        e, s = carry
        return e - s[:, i] * s[:, i + 1], s
    energy, _ = lax.fori_loop(0, spins.shape[1] - 1, bond, (0, spins))
    return energy


@error_case(family="loops", fix="carry-shape", raises="TypeError", source="https://github.com/jax-ml/jax/issues/3106",
            line="return lax.fori_loop(0, 5, lambda i, h: jnp.append(h, h[-1] * decay), x0[None])",
            fixed="return lax.fori_loop(0, 5, lambda i, h: h.at[i + 1].set(h[i] * decay), jnp.zeros(6).at[0].set(x0))",
            args=lambda: (jnp.float32(1.0), 0.5))
def decay_history(x0, decay):
    return lax.fori_loop(0, 5, lambda i, h: jnp.append(h, h[-1] * decay), x0[None])


@error_case(family="loops", fix="carry-shape", raises="TypeError", source="https://github.com/jax-ml/jax/issues/3106",
            line="(w, losses), _ = lax.scan(sgd_step, (w0, jnp.zeros(0)), batches)",
            fixed="w, losses = lax.scan(lambda w, x: (w - 0.1 * x, jnp.sum(w * x)), w0, batches)",
            args=lambda: (jnp.ones(2), jnp.ones((4, 2))))
def loss_curve(w0, batches):
    def sgd_step(carry, x):
        w, losses = carry
        loss = jnp.sum(w * x)
        return (w - 0.1 * x, jnp.concatenate([losses, loss[None]])), None
    (w, losses), _ = lax.scan(sgd_step, (w0, jnp.zeros(0)), batches)
    return losses


@error_case(family="loops", fix="carry-dtype", raises="TypeError", source="https://github.com/jax-ml/jax/issues/1681",
            line="return lax.while_loop(lambda u: u < 5.0, lambda u: (u * 1.5).astype(jnp.float16), u0)",
            fixed="return lax.while_loop(lambda u: u < 5.0, lambda u: (u * 1.5).astype(jnp.float16), u0.astype(jnp.float16))",
            args=lambda: (jnp.float32(1.0),))
def grow_half_precision(u0):
    return lax.while_loop(lambda u: u < 5.0, lambda u: (u * 1.5).astype(jnp.float16), u0)


@error_case(family="loops", fix="carry-dtype", raises="TypeError", source="https://github.com/jax-ml/jax/issues/22045",
            line="(count, total), _ = lax.scan(accumulate, (jnp.int32(0), jnp.float32(0)), weights)",
            fixed="(count, total), _ = lax.scan(accumulate, (jnp.float32(0), jnp.float32(0)), weights)",
            args=lambda: (jnp.array([0.2, 0.0, 0.7, 0.1]),))
def weighted_count(weights):
    def accumulate(carry, w):
        count, total = carry
        return (count + (w > 0) * w, total + w), None
    (count, total), _ = lax.scan(accumulate, (jnp.int32(0), jnp.float32(0)), weights)
    return count / total


@error_case(family="loops", fix="scan-pair", raises="TypeError", source="https://github.com/jax-ml/jax/issues/1534",
            line="final, _ = lax.scan(ema_step, xs[0], xs)",
            fixed="final, _ = lax.scan(lambda m, x: (ema_step(m, x), None), xs[0], xs)",
            args=lambda: (jnp.array([1.0, 2.0, 4.0, 3.0]),))
def moving_average(xs):
    def ema_step(m, x):
        return 0.8 * m + 0.2 * x
    final, _ = lax.scan(ema_step, xs[0], xs)
    return final


@error_case(family="loops", fix="tree-same-structure", raises="TypeError", source="https://github.com/jax-ml/jax/issues/1534",
            line="_, doubled = lax.scan(lambda c, x: (0, 2 * x), None, xs)",
            fixed="_, doubled = lax.scan(lambda c, x: (None, 2 * x), None, xs)",
            args=lambda: (jnp.arange(5.0),))
def doubled_sequence(xs):
    _, doubled = lax.scan(lambda c, x: (0, 2 * x), None, xs)
    return doubled


@error_case(family="loops", fix="tree-same-structure", raises="TypeError", source="https://github.com/jax-ml/jax/issues/25507",
            line="return lax.fori_loop(0, 3, cool, {'t': temp0})",
            fixed="return lax.fori_loop(0, 3, cool, {'T': temp0})",
            args=lambda: (jnp.array([300.0]),))
def cooling(temp0):
    def cool(i, state):
        return {'T': temp0 * 0.9 ** (i + 1)}
    return lax.fori_loop(0, 3, cool, {'t': temp0})


@error_case(family="loops", fix="loop-scalar-pred", raises="TypeError",
            source="https://github.com/secretflow/spu/issues/148",
            line="return lax.while_loop(not_converged, update, (centroids, centroids + 1.0))[0]",
            fixed="return lax.while_loop(lambda s: jnp.any(not_converged(s)), update, (centroids, centroids + 1.0))[0]",
            args=lambda: (jnp.array([[0.0, 1.0], [2.0, 3.0]]),))
def settle_centroids(centroids):
    def not_converged(state):
        new, old = state
        return jnp.abs(new - old).max(axis=1) > 1e-3

    def update(state):
        new, _ = state
        return 0.5 * new, new
    return lax.while_loop(not_converged, update, (centroids, centroids + 1.0))[0]


@error_case(family="loops", fix="loop-scalar-pred", raises="TypeError", source="https://github.com/jax-ml/jax/pull/7206",
            line="return lax.while_loop(lambda x: x < limit, lambda x: x * 2.0, x0)",
            fixed="return lax.while_loop(lambda x: jnp.all(x < limit), lambda x: x * 2.0, x0)",
            args=lambda: (jnp.array([1.0, 3.0, 0.5]), 10.0))
def double_until(x0, limit):
    return lax.while_loop(lambda x: x < limit, lambda x: x * 2.0, x0)


# ====================================================================== branches
@error_case(family="branches", fix="branch-types", raises="TypeError", source="https://github.com/jax-ml/jax/issues/2660",
            line="return lax.cond(step >= 10, with_metrics, without_metrics, logits)",
            fixed="return lax.cond(step >= 10, with_metrics, lambda z: (0.0, {'max': 0.0, 'min': 0.0}), logits)",
            args=lambda: (jnp.int32(12), jnp.array([0.5, -1.0, 2.0])))
def maybe_metrics(step, logits):
    def with_metrics(z):
        return jnp.mean(z), {'max': jnp.max(z), 'min': jnp.min(z)}

    def without_metrics(z):
        return 0.0, {}
    return lax.cond(step >= 10, with_metrics, without_metrics, logits)


@error_case(family="branches", fix="branch-types", raises="TypeError", source="https://github.com/jax-ml/jax/pull/25800",
            line="return lax.switch(mode, [lambda v: {'out': v}, lambda v: {'out': (v, v)}], x)",
            fixed="return lax.switch(mode, [lambda v: {'out': (v, v)}, lambda v: {'out': (v, v)}], x)",
            args=lambda: (jnp.int32(1), jnp.ones(3)))
def routed(mode, x):
    return lax.switch(mode, [lambda v: {'out': v}, lambda v: {'out': (v, v)}], x)


@error_case(family="branches", fix="branch-types", raises="TypeError", source="https://github.com/jax-ml/jax/issues/25140",
            line="return lax.switch(kind, [identity, first_half, doubled], signal)",
            fixed="return lax.switch(kind, [identity, lambda s: jnp.where(jnp.arange(s.size) < s.size // 2, s, 0.0), doubled], signal)",
            args=lambda: (jnp.int32(0), jnp.arange(6.0)))
def filtered(kind, signal):
    def identity(s):
        return s

    def first_half(s):
        return s[: s.size // 2]

    def doubled(s):
        return 2 * s
    return lax.switch(kind, [identity, first_half, doubled], signal)


@error_case(family="branches", fix="branch-types", raises="TypeError",
            source="https://github.com/aesara-devs/aesara/pull/187",
            line="return lax.cond(pick_first, lambda: [a], lambda: b)",
            fixed="return lax.cond(pick_first, lambda: a, lambda: b)",
            args=lambda: (True, jnp.ones(2), jnp.zeros(2)))
def select_output(pick_first, a, b):
    return lax.cond(pick_first, lambda: [a], lambda: b)


@error_case(family="branches", fix="branch-types", raises="TypeError",
            source="https://github.com/google-deepmind/optax/issues/1038",
            line="return lax.cond(apply_now, lambda g: g.astype(jnp.bfloat16), lambda g: jnp.zeros_like(g), grads)",
            fixed="return lax.cond(apply_now, lambda g: g.astype(jnp.bfloat16), lambda g: jnp.zeros_like(g, dtype=jnp.bfloat16), grads)",
            args=lambda: (True, jnp.ones(4)))
def accumulate_or_skip(apply_now, grads):
    return lax.cond(apply_now, lambda g: g.astype(jnp.bfloat16), lambda g: jnp.zeros_like(g), grads)


@error_case(family="branches", fix="switch-int-index", raises="TypeError", source="https://github.com/jax-ml/jax/issues/4696",
            line="return lax.switch(phase, [jnp.sin, jnp.cos, jnp.tanh], t)",
            fixed="return lax.switch(phase.astype(jnp.int32), [jnp.sin, jnp.cos, jnp.tanh], t)",
            args=lambda: (jnp.float32(1.7),))
def piecewise_wave(t):
    phase = jnp.floor(t)
    return lax.switch(phase, [jnp.sin, jnp.cos, jnp.tanh], t)


@error_case(family="branches", fix="switch-int-index", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-lax-switch-multi-branch",
            line="return lax.switch(op_index, [jnp.sin, jnp.cos, jnp.exp], x)",
            fixed="return lax.switch(jnp.int32(op_index), [jnp.sin, jnp.cos, jnp.exp], x)",
            args=lambda: (jnp.ones(3), 2.0))
def apply_op(x, op_index):
    return lax.switch(op_index, [jnp.sin, jnp.cos, jnp.exp], x)


@error_case(family="branches", fix="scalar-pred", raises="TypeError",
            source="https://openillumi.com/?p=109614",
            line="return lax.cond(mask, lambda: jnp.ones_like(mask, jnp.float32), lambda: jnp.zeros_like(mask, jnp.float32))",
            fixed="return jnp.where(mask, 1.0, 0.0)",
            args=lambda: (jnp.array([[True, False], [False, True]]),))
def mask_to_float(mask):
    return lax.cond(mask, lambda: jnp.ones_like(mask, jnp.float32), lambda: jnp.zeros_like(mask, jnp.float32))


@error_case(family="branches", fix="scalar-pred", raises="TypeError", source="https://github.com/jax-ml/jax/issues/490",
            line="return lax.cond(x > 0, jnp.sqrt, lambda v: -v, x)",
            fixed="return jnp.where(x > 0, jnp.sqrt(jnp.abs(x)), -x)",
            args=lambda: (jnp.array([4.0, -1.0, 9.0]),))
def signed_root(x):
    return lax.cond(x > 0, jnp.sqrt, lambda v: -v, x)


# ====================================================================== pytrees
@error_case(family="pytrees", fix="tree-same-structure", raises="ValueError", source="https://github.com/jax-ml/jax/pull/23771",
            line="return jax.tree.map(lambda a, b: a + b, history, latest)",
            fixed="return jax.tree.map(lambda a, b: a + b, history, {'loss': latest['loss'][:3]})",
            args=lambda: ({"loss": [1.0, 0.8, 0.7]}, {"loss": [0.1, 0.1, 0.1, 0.1]}))
def add_histories(history, latest):
    return jax.tree.map(lambda a, b: a + b, history, latest)


@error_case(family="pytrees", fix="tree-same-structure", raises="ValueError", source="https://github.com/jax-ml/jax/issues/20451",
            line="return jax.tree.map(lambda p, pair: p + pair[0] * pair[1], params, (params, grads))",
            fixed="return jax.tree.map(lambda p, a, b: p + a * b, params, params, grads)",
            args=lambda: ({"w": jnp.ones(2), "b": jnp.zeros(1)}, {"w": jnp.ones(2), "b": jnp.ones(1)}))
def scaled_update(params, grads):
    return jax.tree.map(lambda p, pair: p + pair[0] * pair[1], params, (params, grads))


@error_case(family="pytrees", fix="tree-same-structure", raises="ValueError", source="https://github.com/jax-ml/jax/issues/17798",
            line="return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)",
            fixed="return jax.tree.map(lambda p, g: p - 0.1 * g, params, list(grads))",
            args=lambda: ([jnp.ones((2, 2)), jnp.zeros(2)], jnp.ones(2)))
def layer_sgd(params, x):
    def loss(w, b):
        return jnp.sum(jnp.tanh(w @ x + b))
    grads = jax.grad(loss, argnums=(0, 1))(*params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


@error_case(family="pytrees", fix="tree-same-structure", raises="ValueError",
            source="https://github.com/google-deepmind/optax/issues/1371",
            line="velocity = jax.tree.map(lambda v, g: 0.9 * v + g, {'w': jnp.zeros_like(params['w'])}, grads)",
            fixed="velocity = jax.tree.map(lambda v, g: 0.9 * v + g, jax.tree.map(jnp.zeros_like, params), grads)",
            args=lambda: ({"w": jnp.ones(3), "b": jnp.zeros(())}, {"w": jnp.ones(3), "b": jnp.ones(())}))
def momentum_first_step(params, grads):
    velocity = jax.tree.map(lambda v, g: 0.9 * v + g, {'w': jnp.zeros_like(params['w'])}, grads)
    return jax.tree.map(lambda p, v: p - 0.01 * v, params, velocity)


@error_case(family="pytrees", fix="register-pytree", raises="TypeError", source="https://github.com/jax-ml/jax/issues/14740",
            line="return jax.jit(advance)(Particle(pos, vel))",
            fixed="return jax.jit(advance)(jax.tree_util.register_dataclass(Particle)(pos, vel))",
            args=lambda: (jnp.zeros(2), jnp.ones(2)))
def jitted_advance(pos, vel):
    @dataclasses.dataclass
    class Particle:
        pos: jax.Array
        vel: jax.Array

    def advance(p):
        return Particle(p.pos + 0.1 * p.vel, p.vel)
    return jax.jit(advance)(Particle(pos, vel))


@error_case(family="pytrees", fix="register-pytree", raises="TypeError", source="https://github.com/jax-ml/jax/issues/806",
            line="return jax.grad(loss)(Linear(w, b), x)",
            fixed="return jax.grad(loss)(jax.tree_util.register_dataclass(Linear)(w, b), x)",
            args=lambda: (jnp.ones((3, 2)), jnp.zeros(2), jnp.ones(3)))
def linear_layer_grad(w, b, x):
    @dataclasses.dataclass
    class Linear:
        w: jax.Array
        b: jax.Array

    def loss(layer, x):
        return jnp.sum(jnp.tanh(x @ layer.w + layer.b))
    return jax.grad(loss)(Linear(w, b), x)


@error_case(family="pytrees", fix="register-pytree", raises="TypeError",
            source="https://github.com/eclipse-qrisp/Qrisp/issues/281",
            line="return jax.vmap(area)(Box(widths, heights))",
            fixed="return jax.vmap(area)(jax.tree_util.register_dataclass(Box)(widths, heights))",
            args=lambda: (jnp.arange(1.0, 4.0), jnp.ones(3)))
def box_areas(widths, heights):
    @dataclasses.dataclass
    class Box:
        width: jax.Array
        height: jax.Array

    def area(box):
        return box.width * box.height
    return jax.vmap(area)(Box(widths, heights))


# ====================================================================== keys
@error_case(family="keys", fix="prng-key", raises="TypeError",
            source="https://github.com/keras-team/keras-core/pull/651",
            line="noise = jax.random.normal(seed, x.shape)",
            fixed="noise = jax.random.normal(jax.random.key(seed), x.shape)",
            args=lambda: (jnp.ones(4), 0))
def add_noise(x, seed):
    noise = jax.random.normal(seed, x.shape)
    return x + 0.1 * noise


@error_case(family="keys", fix="prng-key", raises="TypeError",
            source="https://github.com/mlcommons/algorithmic-efficiency/issues/801",
            line="return jax.random.bernoulli(rng, 0.9, acts.shape) * acts / 0.9",
            fixed="return jax.random.bernoulli(jax.random.key(seed), 0.9, acts.shape) * acts / 0.9",
            args=lambda: (jnp.ones(5), 7))
def dropout(acts, seed):
    rng = jnp.array([0, seed])
    return jax.random.bernoulli(rng, 0.9, acts.shape) * acts / 0.9


@error_case(family="keys", fix="prng-key", raises="TypeError",
            source="https://github.com/unifyai/ivy/pull/21110",
            line="return jax.random.multivariate_normal(key, mean, cov)",
            fixed="return jax.random.multivariate_normal(jax.random.key(0), mean, cov)",
            args=lambda: (jnp.zeros(2), jnp.eye(2)))
def sample_gaussian(mean, cov):
    key = jnp.array([0.0, 1.0])
    return jax.random.multivariate_normal(key, mean, cov)


@error_case(family="keys", fix="key-vmap", raises="ValueError", source="https://github.com/jax-ml/jax/issues/19376",
            line="return jax.random.normal(keys, (3,))",
            fixed="return jax.vmap(lambda k: jax.random.normal(k, (3,)))(keys)",
            args=lambda: (jax.random.PRNGKey(0),))
def per_worker_noise(key):
    keys = jax.random.split(key, 4)
    return jax.random.normal(keys, (3,))


@error_case(family="keys", fix="key-vmap", raises="ValueError",
            source="https://github.com/google/flax/issues/4355",
            line="return jax.random.uniform(keys, (2, 2), minval=-0.1, maxval=0.1)",
            fixed="return jax.vmap(lambda k: jax.random.uniform(k, (2, 2), minval=-0.1, maxval=0.1))(keys)",
            args=lambda: ())
def ensemble_init():
    keys = jax.random.split(jax.random.key(1), 5)
    return jax.random.uniform(keys, (2, 2), minval=-0.1, maxval=0.1)


@error_case(family="keys", fix="key-no-arith", raises="TypeError", source="https://github.com/jax-ml/jax/issues/5549",
            line="mixed = key_a + key_b",
            fixed="mixed = jax.random.fold_in(key_a, jax.random.bits(key_b))",
            args=lambda: ())
def merged_key_sample():
    key_a = jax.random.key(3)
    key_b = jax.random.key(4)
    mixed = key_a + key_b
    return jax.random.normal(mixed, ())


@error_case(family="keys", fix="key-no-arith", raises="TypeError",
            source="https://github.com/kora-labs/chromax/issues/16",
            line="step_keys = base + jnp.arange(n_steps)",
            fixed="step_keys = jax.vmap(lambda i: jax.random.fold_in(base, i))(jnp.arange(n_steps))",
            args=lambda: (3,))
def step_noises(n_steps):
    base = jax.random.key(11)
    step_keys = base + jnp.arange(n_steps)
    return jax.vmap(lambda k: jax.random.normal(k, ()))(step_keys)


@error_case(family="keys", fix="key-one-style", raises="ValueError", source="https://github.com/jax-ml/jax/pull/8381",
            line="keys = jnp.concatenate([jax.random.split(new_key, 2), old_keys])",
            fixed="keys = jnp.concatenate([jax.random.split(new_key, 2), jax.random.wrap_key_data(old_keys)])",
            args=lambda: (jax.random.split(jax.random.PRNGKey(5), 2),))
def pooled_keys(old_keys):
    new_key = jax.random.key(6)
    keys = jnp.concatenate([jax.random.split(new_key, 2), old_keys])
    return jax.vmap(lambda k: jax.random.uniform(k, ()))(keys)


@error_case(family="keys", fix="key-one-style", raises="TypeError", source="https://github.com/jax-ml/jax/pull/6899",
            line="key = lax.cond(restart, lambda: jax.random.key(0), lambda: key)",
            fixed="key = lax.cond(restart, lambda: jax.random.key(0), lambda: jax.random.wrap_key_data(key))",
            args=lambda: (jax.random.PRNGKey(9), True))
def maybe_restart(key, restart):
    key = lax.cond(restart, lambda: jax.random.key(0), lambda: key)
    return jax.random.normal(key, (2,))


# ====================================================================== custom rules
# The rules are passed to a small helper on the failing line: JAX checks a rule's output only
# after the rule returns, so the student's innermost frame is the line that takes the derivative.
@error_case(family="custom-rules", fix="bwd-tuple", raises="TypeError", source="https://github.com/jax-ml/jax/pull/5571",
            line="return jax.grad(lambda v: with_vjp(ident, fwd, lambda _, g: jnp.clip(g, -1.0, 1.0))(v).sum())(x)",
            fixed="return jax.grad(lambda v: with_vjp(ident, fwd, lambda _, g: (jnp.clip(g, -1.0, 1.0),))(v).sum())(x)",
            args=lambda: (jnp.array([0.5, 3.0, -2.0]),))
def clipped_grad(x):
    def with_vjp(f, fwd, bwd):
        op = jax.custom_vjp(f)
        op.defvjp(fwd, bwd)
        return op

    def ident(v):
        return v

    def fwd(v):
        return v, None
    return jax.grad(lambda v: with_vjp(ident, fwd, lambda _, g: jnp.clip(g, -1.0, 1.0))(v).sum())(x)


@error_case(family="custom-rules", fix="bwd-tuple", raises="TypeError", source="https://github.com/jax-ml/jax/issues/8356",
            line="return jax.grad(lambda w: with_vjp(scale, fwd, lambda res, g: (g * res[1],))(w, data).sum())(weights)",
            fixed="return jax.grad(lambda w: with_vjp(scale, fwd, lambda res, g: (g * res[1], g * res[0]))(w, data).sum())(weights)",
            args=lambda: (jnp.ones(3), jnp.arange(3.0)))
def scaled_data_grad(weights, data):
    def with_vjp(f, fwd, bwd):
        op = jax.custom_vjp(f)
        op.defvjp(fwd, bwd)
        return op

    def scale(w, d):
        return w * d

    def fwd(w, d):
        return w * d, (w, d)
    return jax.grad(lambda w: with_vjp(scale, fwd, lambda res, g: (g * res[1],))(w, data).sum())(weights)


@error_case(family="custom-rules", fix="bwd-shape", raises="ValueError", source="https://github.com/jax-ml/jax/pull/28757",
            line="return jax.grad(lambda m: with_vjp(square, fwd, lambda x, g: (jnp.sum(2 * x * g, axis=0),))(m).sum())(mat)",
            fixed="return jax.grad(lambda m: with_vjp(square, fwd, lambda x, g: (2 * x * g,))(m).sum())(mat)",
            args=lambda: (jnp.ones((2, 3)),))
def squared_entries_grad(mat):
    def with_vjp(f, fwd, bwd):
        op = jax.custom_vjp(f)
        op.defvjp(fwd, bwd)
        return op

    def square(x):
        return x ** 2

    def fwd(x):
        return x ** 2, x
    return jax.grad(lambda m: with_vjp(square, fwd, lambda x, g: (jnp.sum(2 * x * g, axis=0),))(m).sum())(mat)


@error_case(family="custom-rules", fix="jvp-pair", raises="TypeError", source="https://github.com/jax-ml/jax/issues/2516",
            line="return jax.jvp(with_jvp(jnp.sin, lambda p, t: jnp.cos(p[0]) * t[0]), (x,), (dx,))",
            fixed="return jax.jvp(with_jvp(jnp.sin, lambda p, t: (jnp.sin(p[0]), jnp.cos(p[0]) * t[0])), (x,), (dx,))",
            args=lambda: (jnp.float32(0.5), jnp.float32(1.0)))
def sine_tangent(x, dx):
    def with_jvp(f, rule):
        op = jax.custom_jvp(f)
        op.defjvp(rule)
        return op
    return jax.jvp(with_jvp(jnp.sin, lambda p, t: jnp.cos(p[0]) * t[0]), (x,), (dx,))


@error_case(family="custom-rules", fix="jvp-pair", raises="TypeError", source="https://github.com/jax-ml/jax/issues/2502",
            line="return jax.grad(with_jvp(log_normalizer, lambda p, t: (log_normalizer(p[0]), jax.nn.sigmoid(p[0]) * t[0])))(q)",
            fixed="return jax.grad(with_jvp(log_normalizer, lambda p, t: (log_normalizer(p[0]), jax.nn.sigmoid(p[0][0]) * t[0][0])))(q)",
            args=lambda: (jnp.array([0.0]),))
def normalizer_grad(q):
    def with_jvp(f, rule):
        op = jax.custom_jvp(f)
        op.defjvp(rule)
        return op

    def log_normalizer(q):
        return jnp.logaddexp(q[0], 0.0)
    return jax.grad(with_jvp(log_normalizer, lambda p, t: (log_normalizer(p[0]), jax.nn.sigmoid(p[0]) * t[0])))(q)


@error_case(family="custom-rules", fix="jvp-pair", raises="TypeError",
            source="https://github.com/patrick-kidger/equinox/issues/869",
            line="return jax.jvp(with_jvp(count_up, lambda p, t: (count_up(p[0]), t[0] * jnp.float32(2.0))), (n,), (dn,))",
            fixed="return jax.jvp(with_jvp(count_up, lambda p, t: (count_up(p[0]), t[0] * 2.0)), (n,), (dn,))",
            args=lambda: (jnp.float16(1.0), jnp.float16(1.0)))
def half_precision_tangent(n, dn):
    def with_jvp(f, rule):
        op = jax.custom_jvp(f)
        op.defjvp(rule)
        return op

    def count_up(v):
        return v * jnp.float16(2.0)
    return jax.jvp(with_jvp(count_up, lambda p, t: (count_up(p[0]), t[0] * jnp.float32(2.0))), (n,), (dn,))


# ====================================================================== shapes
@error_case(family="shapes", fix="concat-shapes", raises="TypeError", source="https://github.com/jax-ml/jax/issues/9934",
            line="return jnp.concatenate([image, mask])",
            fixed="return jnp.concatenate([image, mask], axis=2)",
            args=lambda: (jnp.ones((4, 4, 3)), jnp.zeros((4, 4, 1))))
def image_with_mask(image, mask):
    return jnp.concatenate([image, mask])


@error_case(family="shapes", fix="concat-shapes", raises="TypeError",
            source="https://github.com/b-vanstraaten/QArray/pull/1",
            line="return jnp.concatenate([gates, jnp.zeros((pad, 2))])",
            fixed="return jnp.concatenate([gates, jnp.zeros((pad, gates.shape[1]))])",
            args=lambda: (jnp.ones((5, 3)), 3))
def pad_batch(gates, pad):
    return jnp.concatenate([gates, jnp.zeros((pad, 2))])


@error_case(family="shapes", fix="concat-shapes", raises="ValueError",
            source="https://openillumi.com/en/en-jax-vmap-ragged-array-segment-sum",
            line="return jnp.stack([jnp.cumsum(s) for s in series])",
            fixed="return jnp.concatenate([jnp.cumsum(s) for s in series])",
            args=lambda: ([jnp.ones(3), jnp.ones(4), jnp.ones(2)],))
def running_totals(series):
    return jnp.stack([jnp.cumsum(s) for s in series])


@error_case(family="shapes", fix="broadcast-axes", raises="ValueError",
            source="https://e-learn.cn/qa/answer/1151023/2235198.html",
            line="return (x - x.mean(axis=1)) / x.std(axis=1)",
            fixed="return (x - x.mean(axis=1, keepdims=True)) / x.std(axis=1, keepdims=True)",
            args=lambda: (jnp.arange(12.0).reshape(4, 3),))
def standardize_rows(x):
    return (x - x.mean(axis=1)) / x.std(axis=1)


@error_case(family="shapes", fix="broadcast-axes", raises="ValueError",
            source="https://e-learn.cn/qa/answer/1151023/2235198.html",
            line="return x / jnp.linalg.norm(x, axis=1)",
            fixed="return x / jnp.linalg.norm(x, axis=1, keepdims=True)",
            args=lambda: (jnp.arange(1.0, 13.0).reshape(4, 3),))
def unit_rows(x):
    return x / jnp.linalg.norm(x, axis=1)


@error_case(family="shapes", fix="contract-dims", raises="TypeError",
            source="https://codepudding.com/Mobile/424937.html",
            line="return jnp.tanh(hidden @ w_out)",
            fixed="return jnp.tanh(hidden @ w_out.T)",
            args=lambda: (jnp.ones((5, 16)), jnp.ones((2, 16))))
def readout(hidden, w_out):
    return jnp.tanh(hidden @ w_out)


@error_case(family="shapes", fix="contract-dims", raises="TypeError",
            source="https://datascience.stackexchange.com/questions/37152/matrix-multiplication-issue-shapes-not-alligned",
            line="return jax.nn.relu(x @ w)",
            fixed="return jax.nn.relu(x @ w.T)",
            args=lambda: (jnp.ones((8, 15)), jnp.ones((4, 15))))
def first_layer(x, w):
    return jax.nn.relu(x @ w)


@error_case(family="shapes", fix="reshape-size", raises="TypeError",
            source="https://github.com/rdcolema/tensorflow-image-classification/issues/24",
            line="flat = images.reshape(batch_size, 8 * 8 * 3)",
            fixed="flat = images.reshape(-1, 8 * 8 * 3)",
            args=lambda: (jnp.ones((5, 8, 8, 3)), 16))
def flatten_batch(images, batch_size):
    flat = images.reshape(batch_size, 8 * 8 * 3)
    return flat.mean(axis=1)


@error_case(family="shapes", fix="reshape-size", raises="TypeError",
            source="https://github.com/xAbhidhar/Keras-Tensorflow-Satellite-Images-classification/issues/1",
            line="return pixels.reshape(pixels.shape[0], 2, 2)",
            fixed="return pixels.reshape(pixels.shape[0], 2, 2, -1)",
            args=lambda: (jnp.ones((6, 12)),))
def to_patches(pixels):
    return pixels.reshape(pixels.shape[0], 2, 2)
