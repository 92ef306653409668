"""A fifth held-out batch of JAX errors outside jit: cases written by someone who had not read the
rules of `autograder/checks/` (nor any message the course prints for them), so that their first run
measures the rules as they stand, not as they were fitted.

Every function below is reduced from a public report that none of `error_mistakes.py`,
`heldout_error_mistakes.py` ... `heldout_error_mistakes_4.py` (nor the jit and retrace corpora) uses
(a JAX issue or pull request, a library's issue or pull request) and raises `raises` on the pinned jax
(0.10.2) at `line`, the innermost frame of the student's own code; `fixed` is that line as the
maintainers (or the accepted answer, or the reporter's own confirmed fix) fixed it. The code is written
fresh: names and numbers differ from the threads, the mistake is the same. Each function is
self-contained (module-level names: `jax`, `jnp`, `lax`, `np`, `functools`, `NamedTuple`,
`dataclasses`) and `args()` returns plain data, so a case can be pasted into a notebook cell or sent
to a sandboxed grader worker.

The batch leans on everyday mistakes of a course's students: keyword arguments to a vmapped function,
gradients taken with respect to the data instead of the parameters, `has_aux` forgotten, loop bodies
parametrised with `functools.partial` on their first parameter, branch functions without an operand,
`lax.cond` on a predicate that is static anyway, functions (activations, norms) kept inside parameter
trees, integer seeds used as keys and keys used as seeds, sampling parameters whose shape disagrees
with `shape`, forward-mode through `custom_vjp` functions, image layouts, Python lists given to
`jax.numpy`, and arrays given where jit wants a hashable static value.

Where the fix belongs to a definition the student wrote earlier (a custom derivative rule, a loop
body, a loss), JAX raises only when the outer call runs, so the student's innermost frame is the line
that calls it; `fixed` there rebuilds the corrected piece and calls again, on one line.
"""
from __future__ import annotations

import dataclasses  # noqa: F401  (a name the cases may use)
import functools
from typing import NamedTuple  # noqa: F401  (a name the cases may use)

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .corpus import error_case


# ====================================================================== vmap
@error_case(family="vmap", fix="vmap-kwargs-positional", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/20914",
            line="return batched(offset)",
            fixed="return jax.vmap(row_total, in_axes=(None, 0))(offset, samples)",
            args=lambda: (0.5, jnp.arange(12.0).reshape(4, 3)))
def shifted_row_totals(offset, samples):
    def row_total(c, rows):
        return c + rows.sum()
    batched = functools.partial(jax.vmap(row_total, in_axes=(None, 0)), rows=samples)
    return batched(offset)


@error_case(family="vmap", fix="vmap-kwargs-positional", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/20914",
            line="return norms(vectors, s=scale)",
            fixed="return norms(vectors, scale)",
            args=lambda: (jnp.arange(6.0).reshape(3, 2), 2.0))
def scaled_vector_norms(vectors, scale):
    norms = jax.vmap(lambda v, s: s * jnp.linalg.norm(v), in_axes=(0, None))
    return norms(vectors, s=scale)


@error_case(family="vmap", fix="vmap-kwargs-positional", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/22339",
            line="return shift(bias, row=rows)",
            fixed="return shift(bias, rows)",
            args=lambda: (1.5, jnp.ones((4, 3))))
def biased_rows(bias, rows):
    @functools.partial(jax.vmap, in_axes=(None, 0))
    def shift(b, row):
        return row + b
    return shift(bias, row=rows)


@error_case(family="vmap", fix="close-over", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/5617",
            line="return warp(images, coords, order=1)",
            fixed="return jax.vmap(lambda img, pts: jax.scipy.ndimage.map_coordinates(img, pts, order=1))(images, coords)",
            args=lambda: (jnp.arange(32.0).reshape(2, 4, 4), jnp.full((2, 2, 3), 1.5)))
def resampled_images(images, coords):
    @jax.vmap
    def warp(img, pts, **opts):
        return jax.scipy.ndimage.map_coordinates(img, pts, **opts)
    return warp(images, coords, order=1)


@error_case(family="vmap", fix="close-over", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/5617",
            line="return warp(images, coords, mode='nearest')",
            fixed="return jax.vmap(lambda img, pts: jax.scipy.ndimage.map_coordinates(img, pts, order=1, mode='nearest'))(images, coords)",
            args=lambda: (jnp.arange(32.0).reshape(2, 4, 4), jnp.full((2, 2, 3), 4.5)))
def clamped_resample(images, coords):
    @jax.vmap
    def warp(img, pts, **opts):
        return jax.scipy.ndimage.map_coordinates(img, pts, order=1, **opts)
    return warp(images, coords, mode='nearest')


# ====================================================================== grad
@error_case(family="grad", fix="grad-wrt-params", raises="ValueError",
            source="https://github.com/patrick-kidger/equinox/issues/458",
            line="return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)",
            fixed="return jax.tree.map(lambda p, g: p - 0.1 * g, params, jax.grad(lambda p: jnp.mean((x @ p['w'] + p['b']) ** 2))(params))",
            args=lambda: ({'w': jnp.full((3, 2), 0.1), 'b': jnp.zeros(2)}, jnp.arange(12.0).reshape(4, 3) / 10.0))
def linear_sgd_step(params, x):
    def loss(x):
        return jnp.mean((x @ params['w'] + params['b']) ** 2)
    grads = jax.grad(loss)(x)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


@error_case(family="grad", fix="non-array-leaf", raises="TypeError",
            source="https://github.com/patrick-kidger/equinox/issues/458",
            line="return jax.grad(loss)(model)",
            fixed="return jax.grad(lambda w_: loss({'w': w_, 'act': model['act']}))(model['w'])",
            args=lambda: (jnp.full((3, 2), 0.2), jnp.ones((4, 3))))
def squashed_layer_grad(w, x):
    model = {'w': w, 'act': jnp.tanh}

    def loss(m):
        return jnp.sum(m['act'](x @ m['w']))
    return jax.grad(loss)(model)


@error_case(family="grad", fix="grad-has-aux", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/484",
            line="g, powers = jax.grad(with_powers)(x)",
            fixed="g, powers = jax.grad(with_powers, has_aux=True)(x)",
            args=lambda: (1.5,))
def slope_and_powers(x):
    def with_powers(v):
        return v ** 2, [v ** 3, v ** 4]
    g, powers = jax.grad(with_powers)(x)
    return g + powers[0]


@error_case(family="grad", fix="grad-has-aux", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/484",
            line="(loss, metrics), g = jax.value_and_grad(loss_fn)(w)",
            fixed="(loss, metrics), g = jax.value_and_grad(loss_fn, has_aux=True)(w)",
            args=lambda: (jnp.zeros(3), jnp.arange(12.0).reshape(4, 3), jnp.ones(4)))
def loss_metrics_grad(w, x, y):
    def loss_fn(w):
        err = x @ w - y
        return jnp.mean(err ** 2), {'max_err': jnp.max(jnp.abs(err))}
    (loss, metrics), g = jax.value_and_grad(loss_fn)(w)
    return loss, metrics['max_err'], g


@error_case(family="grad", fix="static-loop-bounds", raises="ValueError",
            source="https://github.com/google-research/ott/issues/7",
            line="return jax.grad(transport_cost)(eps)",
            fixed="return jax.grad(lambda e: final_cost(e, lax.scan(lambda uv, _: (step(uv, jnp.exp(-cost / e)), None), (jnp.ones(n), jnp.ones(n)), None, length=20)[0]))(eps)",
            args=lambda: (0.5, jnp.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]])))
def sinkhorn_cost_slope(eps, cost):
    n = cost.shape[0]

    def step(uv, k):
        u = 1.0 / (k @ uv[1])
        return u, 1.0 / (k.T @ u)

    def final_cost(eps, uv):
        k = jnp.exp(-cost / eps)
        return jnp.sum(uv[0][:, None] * k * uv[1][None, :] * cost)

    def transport_cost(eps):
        k = jnp.exp(-cost / eps)
        uv, _ = lax.while_loop(lambda s: s[1] < 20, lambda s: (step(s[0], k), s[1] + 1), ((jnp.ones(n), jnp.ones(n)), 0))
        return final_cost(eps, uv)
    return jax.grad(transport_cost)(eps)


# ====================================================================== loops
@error_case(family="loops", fix="init-carry-shape", raises="TypeError",
            source="https://github.com/pyro-ppl/numpyro/pull/682",
            line="_, path = lax.scan(step, 0, scores)",
            fixed="_, path = lax.scan(step, jnp.zeros((scores.shape[1], 1), dtype=jnp.int32), scores)",
            args=lambda: (jnp.arange(60.0).reshape(5, 3, 4) % 7,))
def greedy_state_path(scores):
    def step(prev, s):
        state = jnp.argmax(s + prev, axis=-1, keepdims=True)
        return state, state
    _, path = lax.scan(step, 0, scores)
    return path


@error_case(family="loops", fix="static-loop-bounds", raises="ValueError",
            source="https://github.com/IGE-OPERA/jaxparrow/pull/64",
            line="return jax.grad(lambda f: solve(f).sum())(coriolis)",
            fixed="return jax.grad(lambda f: lax.scan(lambda u, _: (u - 0.5 * (u - f * jnp.tanh(u)), None), u0, None, length=10)[0].sum())(coriolis)",
            args=lambda: (0.8, jnp.array([0.1, 0.4, -0.3])))
def balanced_flow_sensitivity(coriolis, u0):
    def solve(f):
        def body(state):
            u, it = state
            return u - 0.5 * (u - f * jnp.tanh(u)), it + 1
        return lax.while_loop(lambda s: s[1] < 10, body, (u0, 0))[0]
    return jax.grad(lambda f: solve(f).sum())(coriolis)


@error_case(family="loops", fix="stack-leaves", raises="IndexError",
            source="https://github.com/jax-ml/jax/issues/19113",
            line="_, errs = lax.scan(lambda _, node: (None, jnp.abs(node['v'] - node['t'])), None, nodes)",
            fixed="_, errs = lax.scan(lambda _, node: (None, jnp.abs(node['v'] - node['t'])), None, jax.tree.map(lambda *leaves: jnp.stack(leaves), *nodes))",
            args=lambda: (jnp.array([0.2, 0.9, 0.4, 0.7]), jnp.array([0.0, 1.0, 0.5, 0.5])))
def node_errors(values, targets):
    nodes = tuple({'v': v, 't': t} for v, t in zip(values, targets))
    _, errs = lax.scan(lambda _, node: (None, jnp.abs(node['v'] - node['t'])), None, nodes)
    return errs


@error_case(family="loops", fix="body-signature", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/17615",
            line="return lax.fori_loop(0, weights.shape[0], functools.partial(body, masked_scale=scale), 0.0)",
            fixed="return lax.fori_loop(0, weights.shape[0], functools.partial(body, scale), 0.0)",
            args=lambda: (jnp.array([1.0, 2.0, 3.0]), 0.5))
def masked_weight_total(weights, scale):
    def body(masked_scale, i, acc):
        return acc + masked_scale * weights[i]
    return lax.fori_loop(0, weights.shape[0], functools.partial(body, masked_scale=scale), 0.0)


@error_case(family="loops", fix="body-signature", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/17615",
            line="final, _ = lax.scan(functools.partial(step, decay=rate), 0.0, xs)",
            fixed="final, _ = lax.scan(functools.partial(step, rate), 0.0, xs)",
            args=lambda: (jnp.array([1.0, 0.0, 2.0, 1.0]), 0.9))
def decayed_total(xs, rate):
    def step(decay, total, x):
        return total * decay + x, total
    final, _ = lax.scan(functools.partial(step, decay=rate), 0.0, xs)
    return final


# ====================================================================== branches
@error_case(family="branches", fix="branch-operands", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/3569",
            line="return lax.cond(score > 0.5, lambda _: 0.9, lambda _: 0.1)",
            fixed="return lax.cond(score > 0.5, lambda _: 0.9, lambda _: 0.1, None)",
            args=lambda: (0.7,))
def confidence_level(score):
    return lax.cond(score > 0.5, lambda _: 0.9, lambda _: 0.1)


@error_case(family="branches", fix="branch-operands", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/3569",
            line="return lax.switch(tier, [lambda _: 0.0, lambda _: 5.0, lambda _: 12.5])",
            fixed="return lax.switch(tier, [lambda _: 0.0, lambda _: 5.0, lambda _: 12.5], None)",
            args=lambda: (1,))
def tier_bonus(tier):
    return lax.switch(tier, [lambda _: 0.0, lambda _: 5.0, lambda _: 12.5])


@error_case(family="branches", fix="python-if-static", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/14216",
            line="return lax.cond(jnp.iscomplexobj(z), jax.jacfwd(sq, holomorphic=True), jax.jacfwd(sq), z)",
            fixed="return jax.jacfwd(sq, holomorphic=True)(z) if jnp.iscomplexobj(z) else jax.jacfwd(sq)(z)",
            args=lambda: (jnp.array([1.0, 2.0]),))
def square_jacobian(z):
    sq = lambda v: v ** 2  # noqa: E731
    return lax.cond(jnp.iscomplexobj(z), jax.jacfwd(sq, holomorphic=True), jax.jacfwd(sq), z)


@error_case(family="branches", fix="python-if-static", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/26897",
            line="return lax.cond(v.shape[0] == 3, lambda u: u.reshape(3, 1), lambda u: u.reshape(2, 2), v)",
            fixed="return v.reshape(3, 1) if v.shape[0] == 3 else v.reshape(2, 2)",
            args=lambda: (jnp.array([1.0, 2.0, 3.0]),))
def column_or_square(v):
    return lax.cond(v.shape[0] == 3, lambda u: u.reshape(3, 1), lambda u: u.reshape(2, 2), v)


# ====================================================================== pytrees
@error_case(family="pytrees", fix="grad-wrt-params", raises="ValueError",
            source="https://github.com/google-deepmind/optax/issues/291",
            line="return jax.tree.map(lambda p, g: p - 0.01 * g, params, grads)",
            fixed="return jax.tree.map(lambda p, g: p - 0.01 * g, params, jax.grad(lambda p: loss(x @ p['w'], y))(params))",
            args=lambda: ({'w': jnp.full((3, 1), 0.3)}, jnp.arange(12.0).reshape(4, 3) / 10.0, jnp.ones((4, 1))))
def regression_update(params, x, y):
    def loss(preds, targets):
        return jnp.mean((preds - targets) ** 2)
    preds = x @ params['w']
    grads = jax.grad(loss)(preds, y)
    return jax.tree.map(lambda p, g: p - 0.01 * g, params, grads)


@error_case(family="pytrees", fix="non-array-leaf", raises="TypeError",
            source="https://github.com/patrick-kidger/equinox/issues/853",
            line="return jax.tree.map(jnp.zeros_like, model)",
            fixed="return jax.tree.map(jnp.zeros_like, {k: v for k, v in model.items() if isinstance(v, jax.Array)})",
            args=lambda: (jnp.ones((3, 2)), jnp.zeros(2)))
def accumulator_init(weights, bias):
    model = {'w': weights, 'b': bias, 'activation': jax.nn.relu}
    return jax.tree.map(jnp.zeros_like, model)


@error_case(family="pytrees", fix="non-array-leaf", raises="TypeError",
            source="https://github.com/patrick-kidger/diffrax/issues/521",
            line="return lax.cond(step % 2 == 0, lambda m: {'w': m['w'] - 0.1 * grads}, lambda m: {'w': m['w']}, model)",
            fixed="return lax.cond(step % 2 == 0, lambda m: {'w': m['w'] - 0.1 * grads}, lambda m: {'w': m['w']}, {'w': model['w']})",
            args=lambda: (2, jnp.ones(3), jnp.full(3, 0.5)))
def every_other_update(step, weights, grads):
    model = {'w': weights, 'norm': jnp.linalg.norm}
    return lax.cond(step % 2 == 0, lambda m: {'w': m['w'] - 0.1 * grads}, lambda m: {'w': m['w']}, model)


@error_case(family="pytrees", fix="non-array-leaf", raises="TypeError",
            source="https://github.com/patrick-kidger/equinox/issues/590",
            line="return jax.jit(lambda m, g: jax.tree.map(lambda p: p - 0.1 * g, m))(model, grads)",
            fixed="return jax.jit(lambda m, g: jax.tree.map(lambda p: p - 0.1 * g, m))({'w': model['w']}, grads)",
            args=lambda: (jnp.ones(4), jnp.full(4, 0.2)))
def accumulated_update(weights, grads):
    model = {'w': weights, 'act': jax.nn.relu}
    return jax.jit(lambda m, g: jax.tree.map(lambda p: p - 0.1 * g, m))(model, grads)


# ====================================================================== keys
@error_case(family="keys", fix="sample-shape-match", raises="ValueError",
            source="https://github.com/glass-dev/glass/pull/1126",
            line="return jax.random.uniform(key, minval=low, maxval=high)",
            fixed="return jax.random.uniform(key, jnp.broadcast_shapes(low.shape, high.shape), minval=low, maxval=high)",
            args=lambda: (jnp.array([0.0, 1.0, 2.0]), jnp.array([1.0, 3.0, 2.5])))
def uniform_in_boxes(low, high):
    key = jax.random.key(3)
    return jax.random.uniform(key, minval=low, maxval=high)


@error_case(family="keys", fix="sample-shape-match", raises="ValueError",
            source="https://github.com/glass-dev/glass/pull/1126",
            line="return jax.random.randint(key, (), low, high)",
            fixed="return jax.random.randint(key, jnp.broadcast_shapes(low.shape, high.shape), low, high)",
            args=lambda: (jnp.array([0, 10, 20]), jnp.array([5, 15, 40])))
def integer_per_bin(low, high):
    key = jax.random.key(8)
    return jax.random.randint(key, (), low, high)


@error_case(family="keys", fix="prng-key", raises="TypeError",
            source="https://github.com/gchq/coreax/issues/332",
            line="noise = jax.random.normal(seed, points.shape)",
            fixed="noise = jax.random.normal(jax.random.key(seed), points.shape)",
            args=lambda: (jnp.zeros((4, 2)), 11))
def perturbed_points(points, seed):
    noise = jax.random.normal(seed, points.shape)
    return points + 0.1 * noise


@error_case(family="keys", fix="key-not-seed", raises="TypeError",
            source="https://github.com/gchq/coreax/issues/332",
            line="rng = jax.random.PRNGKey(key)",
            fixed="rng = key",
            args=lambda: (jnp.arange(10.0), np.array([0, 42], dtype=np.uint32)))
def inducing_subset(points, key):
    rng = jax.random.PRNGKey(key)
    idx = jax.random.choice(rng, points.shape[0], (3,), replace=False)
    return points[idx]


# ====================================================================== custom rules
@error_case(family="custom-rules", fix="vjp-reverse-mode", raises="TypeError",
            source="https://github.com/pyro-ppl/numpyro/issues/1195",
            line="return jax.hessian(lambda k: -jnp.sum((odeint(decay, 1.0, ts, k) - observed) ** 2))(rate)",
            fixed="return jax.jacrev(jax.jacrev(lambda k: -jnp.sum((odeint(decay, 1.0, ts, k) - observed) ** 2)))(rate)",
            args=lambda: (0.5,))
def decay_curvature(rate):
    from jax.experimental.ode import odeint
    ts = jnp.linspace(0.0, 1.0, 4)
    observed = jnp.exp(-0.7 * ts)

    def decay(y, t, k):
        return -k * y
    return jax.hessian(lambda k: -jnp.sum((odeint(decay, 1.0, ts, k) - observed) ** 2))(rate)


@error_case(family="custom-rules", fix="vjp-reverse-mode", raises="TypeError",
            source="https://github.com/pyro-ppl/numpyro/issues/1195",
            line="return jax.jacfwd(jax.grad(lambda p: jnp.sum((odeint(inflow, 0.0, ts, p[0], p[1]) - 0.4 * ts) ** 2) + 0.5 * jnp.sum(p ** 2)))(params)",
            fixed="return jax.jacrev(jax.grad(lambda p: jnp.sum((odeint(inflow, 0.0, ts, p[0], p[1]) - 0.4 * ts) ** 2) + 0.5 * jnp.sum(p ** 2)))(params)",
            args=lambda: (jnp.array([0.6, 1.2]),))
def laplace_precision(params):
    from jax.experimental.ode import odeint
    ts = jnp.linspace(0.0, 2.0, 5)

    def inflow(y, t, a, b):
        return a - b * y
    return jax.jacfwd(jax.grad(lambda p: jnp.sum((odeint(inflow, 0.0, ts, p[0], p[1]) - 0.4 * ts) ** 2) + 0.5 * jnp.sum(p ** 2)))(params)


@error_case(family="custom-rules", fix="fwd-pair", raises="TypeError",
            source="https://github.com/lucidrains/flash-attention-jax/issues/7",
            line="return jax.grad(lambda z: stable_softmax(z)[0])(logits)",
            fixed="return stable_softmax.defvjp(lambda z: (stable_softmax(z), (stable_softmax(z),)), softmax_bwd) or jax.grad(lambda z: stable_softmax(z)[0])(logits)",
            args=lambda: (jnp.array([0.5, 1.5, -0.5]),))
def softmax_first_grad(logits):
    @jax.custom_vjp
    def stable_softmax(z):
        e = jnp.exp(z - z.max())
        return e / e.sum()

    def softmax_fwd(z):
        e = jnp.exp(z - z.max())
        total = e.sum()
        out = e / total
        return out, total, (out,)

    def softmax_bwd(res, g):
        out, = res
        return (out * (g - jnp.sum(g * out)),)
    stable_softmax.defvjp(softmax_fwd, softmax_bwd)
    return jax.grad(lambda z: stable_softmax(z)[0])(logits)


@error_case(family="custom-rules", fix="drop-custom-vjp", raises="TypeError",
            source="https://github.com/google-research/t5x/issues/351",
            line="return jax.jvp(xent, (logits,), (direction,))",
            fixed="return jax.jvp(lambda z: jax.nn.logsumexp(z) - z[0], (logits,), (direction,))",
            args=lambda: (jnp.array([2.0, 0.5, -1.0]), jnp.array([1.0, 0.0, 0.0])))
def xent_directional_derivative(logits, direction):
    @jax.custom_vjp
    def xent(z):
        return jax.nn.logsumexp(z) - z[0]
    xent.defvjp(lambda z: (xent(z), jax.nn.softmax(z)), lambda p, g: (g * (p - jnp.eye(p.shape[0])[0]),))
    return jax.jvp(xent, (logits,), (direction,))


# ====================================================================== shapes
@error_case(family="shapes", fix="layout-transpose", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/3289",
            line="return lax.conv(images, kernel, (1, 1), 'SAME')",
            fixed="return lax.conv(jnp.transpose(images, (0, 3, 1, 2)), kernel, (1, 1), 'SAME')",
            args=lambda: (jnp.ones((2, 6, 6, 3)), jnp.full((4, 3, 3, 3), 0.1)))
def conv_features(images, kernel):
    return lax.conv(images, kernel, (1, 1), 'SAME')


@error_case(family="shapes", fix="add-batch-dim", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/3289",
            line="return lax.conv(image, kernel, (1, 1), 'SAME')",
            fixed="return lax.conv(image[None], kernel, (1, 1), 'SAME')[0]",
            args=lambda: (jnp.ones((3, 5, 5)), jnp.full((2, 3, 3, 3), 0.1)))
def single_image_features(image, kernel):
    return lax.conv(image, kernel, (1, 1), 'SAME')


@error_case(family="shapes", fix="pad-width-rank", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/6605",
            line="return jnp.pad(field, [[1, 1], [1, 1], [0, 0]], mode='wrap')",
            fixed="return jnp.pad(field, [[1, 1], [1, 1]], mode='wrap')",
            args=lambda: (jnp.arange(16.0).reshape(4, 4),))
def periodic_halo(field):
    return jnp.pad(field, [[1, 1], [1, 1], [0, 0]], mode='wrap')


@error_case(family="shapes", fix="pad-width-rank", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/6605",
            line="padded = jnp.pad(signal, [[2, 2], [0, 0]], mode='edge')",
            fixed="padded = jnp.pad(signal, [[2, 2]], mode='edge')",
            args=lambda: (jnp.array([1.0, 3.0, 2.0, 5.0]),))
def edge_smoothed(signal):
    padded = jnp.pad(signal, [[2, 2], [0, 0]], mode='edge')
    return jnp.convolve(padded, jnp.ones(5) / 5.0, mode='valid')


# ====================================================================== other
@error_case(family="other", fix="list-to-array", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/15500",
            line="return jnp.linalg.norm([jnp.linalg.norm(g.ravel()) for g in jax.tree.leaves(grads)])",
            fixed="return jnp.linalg.norm(jnp.array([jnp.linalg.norm(g.ravel()) for g in jax.tree.leaves(grads)]))",
            args=lambda: ({'w': jnp.ones((2, 2)), 'b': jnp.array([3.0, 4.0])},))
def global_grad_norm(grads):
    return jnp.linalg.norm([jnp.linalg.norm(g.ravel()) for g in jax.tree.leaves(grads)])


@error_case(family="other", fix="list-to-array", raises="TypeError",
            source="https://github.com/naruya/VaxNeRF/issues/6",
            line="far = jnp.broadcast_to([1e10], z_vals[..., :1].shape)",
            fixed="far = jnp.broadcast_to(1e10, z_vals[..., :1].shape)",
            args=lambda: (jnp.linspace(2.0, 6.0, 8).reshape(2, 4),))
def ray_segment_lengths(z_vals):
    far = jnp.broadcast_to([1e10], z_vals[..., :1].shape)
    return jnp.concatenate([z_vals[..., 1:] - z_vals[..., :-1], far], axis=-1)


@error_case(family="other", fix="list-to-array", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/3038",
            line="return jnp.mean(losses)",
            fixed="return jnp.mean(jnp.array(losses))",
            args=lambda: (jnp.ones(3), jnp.zeros(4), jnp.full(2, 3.0)))
def mean_of_task_losses(a, b, c):
    losses = [jnp.mean(a), jnp.mean(b), jnp.mean(c)]
    return jnp.mean(losses)


@error_case(family="other", fix="list-to-array", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/3038",
            line="return jnp.max(peaks)",
            fixed="return jnp.max(jnp.array(peaks))",
            args=lambda: (jnp.arange(12.0).reshape(3, 4),))
def highest_batch_peak(batches):
    peaks = [jnp.max(b) for b in batches]
    return jnp.max(peaks)


@error_case(family="other", fix="static-python-value", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/6233",
            line="return symmetric(jnp.add(n, 1))",
            fixed="return symmetric(int(jnp.add(n, 1)))",
            args=lambda: (4,))
def symmetric_range(n):
    symmetric = jax.jit(lambda m: jnp.arange(-m, m), static_argnums=0)
    return symmetric(jnp.add(n, 1))


@error_case(family="other", fix="static-python-value", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/6233",
            line="return head(scores, width)",
            fixed="return head(scores, int(width))",
            args=lambda: (jnp.array([0.1, 0.7, 0.3, 0.9, 0.2]),))
def leading_window(scores):
    width = jnp.argmax(scores)
    head = jax.jit(lambda s, w: s[:w], static_argnums=1)
    return head(scores, width)


@error_case(family="other", fix="unmark-static", raises="ValueError",
            source="https://github.com/google/flax/issues/2410",
            line="return step(params, rng, batch)",
            fixed="return jax.jit(lambda p, r, b: p - 0.01 * b.mean() * jax.random.normal(r, p.shape))(params, rng, batch)",
            args=lambda: (jnp.ones(3), jnp.arange(6.0)))
def noisy_train_step(params, batch):
    rng = jax.random.PRNGKey(0)
    step = jax.jit(lambda p, r, b: p - 0.01 * b.mean() * jax.random.normal(r, p.shape), static_argnums=(1,))
    return step(params, rng, batch)
