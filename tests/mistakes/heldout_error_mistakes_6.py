"""A sixth held-out batch of JAX errors outside jit, written by a helper session that never opened the
rules under `autograder/` nor any message the course prints, so that the first run of this batch
measures how the course's explanations carry over to mistakes they were not fitted on.

How the cases were made: each function is reduced from one public thread (a JAX issue, discussion or
pull request, or an issue or pull request of a library built on JAX: Flax, Keras, gymnax, ...) that
none of `error_mistakes.py`, `heldout_error_mistakes.py` ... `heldout_error_mistakes_5.py` (nor the jit
and retrace corpora) cites. The code is new (names and numbers differ from the thread), the mistake is
the thread's. Called eagerly on `args()` with the pinned jax (0.10.2), each function raises `raises`
at `line`, the innermost line of the function itself (jit, vmap, grad and the lax loops may run inside
it); `fixed` is that line as the thread's maintainers, accepted answer or merged fix wrote it, and the
function runs once it is swapped in. Functions use only the module-level names `jax`, `jnp`, `lax`,
`np`, `functools`, `NamedTuple` and `dataclasses`; `args()` returns plain data.

Where the fix belongs to a piece the student defined earlier (a derivative rule, a loop body), JAX
raises at the call that uses it, so `fixed` rebuilds the corrected piece and calls again on one line.

What the batch leans on: data-dependent sizes under jit and vmap (aranges, slices, samples, `unique`,
`compress`, unary `where`), NumPy arrays indexed by tracers, Python `if`, `bool()` and float division
on traced values, the calling conventions of `lax.map`, `jax.vjp`, `jnp.where`, `custom_gradient` and
`scipy.optimize.minimize`, keys (a removed `shuffle`, a split count that does not match the unpacking,
keys marked static, sample counts drawn at run time), pytrees whose dict keys cannot be sorted or whose
leaves are strings, and custom rules whose `nondiff_argnums` are misplaced or hold arrays.
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
@error_case(family="vmap", fix="where", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/issues/5454",
            line="return jnp.sum(segments[jnp.arange(n)], axis=0)",
            fixed="return jnp.sum(jnp.where((jnp.arange(segments.shape[0]) < n)[:, None], segments, 0.0), axis=0)",
            args=lambda: (jnp.arange(14.0).reshape(7, 2), jnp.array([2, 5, 3])))
def leading_segment_totals(segments, counts):
    def leading_total(n):
        return jnp.sum(segments[jnp.arange(n)], axis=0)
    return jax.vmap(leading_total)(counts)


@error_case(family="vmap", fix="vmap-in-axes-none", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/6372",
            line="return jax.vmap(lambda row, g: row * g, in_axes=(True, False))(rows, gain)",
            fixed="return jax.vmap(lambda row, g: row * g, in_axes=(0, None))(rows, gain)",
            args=lambda: (jnp.arange(6.0).reshape(3, 2), 0.5))
def amplified_rows(rows, gain):
    return jax.vmap(lambda row, g: row * g, in_axes=(True, False))(rows, gain)


@error_case(family="vmap", fix="list-to-array", raises="TracerIntegerConversionError",
            source="https://github.com/jax-ml/jax/issues/19506",
            line="return jax.vmap(lambda i: lax.switch(i, transforms, signals[i]))(choice)",
            fixed="return jax.vmap(lambda i, s: lax.switch(i, transforms, s[i]), in_axes=(0, None))(choice, jnp.array(signals))",
            args=lambda: (jnp.array([1, 0, 1]), jnp.linspace(0.0, 1.0, 4), jnp.linspace(1.0, 2.0, 4)))
def switched_transforms(choice, first, second):
    transforms = [jnp.sin, jnp.cos]
    signals = [first, second]
    return jax.vmap(lambda i: lax.switch(i, transforms, signals[i]))(choice)


@error_case(family="vmap", fix="keys-array", raises="ValueError",
            source="https://github.com/PredictiveIntelligenceLab/Physics-informed-DeepONets/issues/3",
            line="return jax.vmap(jitter, in_axes=(0, 0, None))(keys, profiles, n_keep)",
            fixed="return jax.vmap(jitter, in_axes=(0, 0, None))(jax.random.split(jax.random.key(7), profiles.shape[0]), profiles, n_keep)",
            args=lambda: (jnp.arange(30.0).reshape(5, 6), 4))
def jittered_profiles(profiles, n_keep):
    keys = jax.random.split(jax.random.key(7), 64)

    def jitter(k, profile, n):
        return profile[:n] + 0.01 * jax.random.normal(k, (n,))
    return jax.vmap(jitter, in_axes=(0, 0, None))(keys, profiles, n_keep)


@error_case(family="vmap", fix="batch-leading-axis", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/16594",
            line="return batched(top, bottom, triple)",
            fixed="return batched(top_batch, bottom_batch, triple)",
            args=lambda: (jnp.ones((2, 2)), jnp.full((3, 2), 2.0)))
def tripled_and_stacked(top, bottom):
    triple = lambda m: 3 * m  # noqa: E731
    batched = jax.vmap(lambda a, b, f: jnp.vstack((f(a), b)), in_axes=(0, 0, None))
    top_batch = jnp.stack([top] * 4)
    bottom_batch = jnp.stack([bottom] * 4)
    return batched(top, bottom, triple)


# ====================================================================== grad
@error_case(family="grad", fix="np-to-jnp", raises="TracerArrayConversionError",
            source="https://github.com/jax-ml/jax/issues/7545",
            line="row = gains[jnp.argmax(w)]",
            fixed="row = jnp.asarray(gains)[jnp.argmax(w)]",
            args=lambda: (jnp.array([0.2, 0.9, 0.4]),))
def weighted_gain_slope(weights):
    gains = np.array([[1.0, 0.5], [0.2, 0.8], [0.6, 0.6]])

    def loss(w):
        row = gains[jnp.argmax(w)]
        return jnp.sum(row * w[:2])
    return jax.jit(jax.grad(loss))(weights)


@error_case(family="grad", fix="cotangent-dtype", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/9994",
            line="return pullback(1.0)",
            fixed="return pullback(jnp.array(1.0, dtype=jnp.float16))",
            args=lambda: (jnp.array([0.5, 1.5, -2.0]),))
def half_precision_energy_slope(x):
    energy, pullback = jax.vjp(lambda v: jnp.sum(v ** 2), x.astype(jnp.float16))
    return pullback(1.0)


@error_case(family="grad", fix="vjp-unpacked", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/1310",
            line="out, pullback = jax.vjp(lambda w_, b_: jnp.sum(w_ * b_), (w, b))",
            fixed="out, pullback = jax.vjp(lambda w_, b_: jnp.sum(w_ * b_), w, b)",
            args=lambda: (jnp.array([1.0, 2.0]), jnp.array([3.0, -1.0])))
def bilinear_cotangents(w, b):
    out, pullback = jax.vjp(lambda w_, b_: jnp.sum(w_ * b_), (w, b))
    return pullback(jnp.float32(1.0))


# ====================================================================== loops
@error_case(family="loops", fix="map-tuple-xs", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/29538",
            line="return lax.map(lambda a, b: jnp.linalg.norm(a - b), starts, ends)",
            fixed="return lax.map(lambda ab: jnp.linalg.norm(ab[0] - ab[1]), (starts, ends))",
            args=lambda: (jnp.zeros((4, 3)), jnp.arange(12.0).reshape(4, 3)))
def segment_lengths(starts, ends):
    return lax.map(lambda a, b: jnp.linalg.norm(a - b), starts, ends)


@error_case(family="loops", fix="dynamic_slice", raises="IndexError",
            source="https://github.com/jax-ml/jax/issues/9463",
            line="windows.append(v[o[i]:o[i] + 3])",
            fixed="windows.append(lax.dynamic_slice_in_dim(v, o[i], 3))",
            args=lambda: (jnp.arange(10.0), jnp.array([0, 4, 6])))
def windows_at_offsets(values, offsets):
    @jax.jit
    def gather(v, o):
        windows = []
        for i in range(o.shape[0]):
            windows.append(v[o[i]:o[i] + 3])
        return jnp.stack(windows)
    return gather(values, offsets)


@error_case(family="loops", fix="numpy-shape-math", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/issues/5017",
            line="yf, _ = lax.scan(lambda yy, _: (yy + c * yy * h, None), y, jnp.arange(steps))",
            fixed="yf, _ = lax.scan(lambda yy, _: (yy + c * yy * h, None), y, jnp.arange(int((t1 - t0) // max_dt)))",
            args=lambda: (-0.7, 2.0))
def euler_decay(rate, y0):
    def solve(c, y):
        t0, t1, max_dt = 0.0, 0.6, 0.2
        steps = jnp.array((t1 - t0) // max_dt).astype(int)
        h = (t1 - t0) / steps
        yf, _ = lax.scan(lambda yy, _: (yy + c * yy * h, None), y, jnp.arange(steps))
        return yf
    return jax.jit(solve)(rate, y0)


@error_case(family="loops", fix="fori_loop", raises="TracerIntegerConversionError",
            source="https://github.com/jax-ml/jax/issues/1406",
            line="return jax.jit(lambda x, n: functools.reduce(lambda acc, _: 0.5 * acc + 1.0, range(n), x))(x0, n_steps)",
            fixed="return jax.jit(lambda x, n: lax.fori_loop(0, n, lambda _, acc: 0.5 * acc + 1.0, x))(x0, n_steps)",
            args=lambda: (8.0, 5))
def relaxed_value(x0, n_steps):
    return jax.jit(lambda x, n: functools.reduce(lambda acc, _: 0.5 * acc + 1.0, range(n), x))(x0, n_steps)


@error_case(family="loops", fix="np-to-jnp", raises="TracerArrayConversionError",
            source="https://github.com/jax-ml/jax/issues/3133",
            line="return lax.fori_loop(0, picks.shape[0], lambda k, acc: acc + table[picks[k], :], jnp.zeros(3))",
            fixed="return lax.fori_loop(0, picks.shape[0], lambda k, acc: acc + jnp.asarray(table)[picks[k], :], jnp.zeros(3))",
            args=lambda: (jnp.array([3, 0, 3]),))
def summed_table_rows(picks):
    table = np.arange(12.0).reshape(4, 3)
    return lax.fori_loop(0, picks.shape[0], lambda k, acc: acc + table[picks[k], :], jnp.zeros(3))


@error_case(family="loops", fix="xs-shape", raises="IndexError",
            source="https://github.com/jax-ml/jax/pull/11810",
            line="total, _ = lax.scan(lambda c, p: (c + p[0] * p[1], None), 0.0, jnp.asarray(pairs))",
            fixed="total, _ = lax.scan(lambda c, p: (c + p[0] * p[1], None), 0.0, jnp.asarray(pairs).reshape(-1, 2))",
            args=lambda: (np.zeros((0,), dtype=np.float32),))
def dot_of_pairs(pairs):
    total, _ = lax.scan(lambda c, p: (c + p[0] * p[1], None), 0.0, jnp.asarray(pairs))
    return total


# ====================================================================== branches
@error_case(family="branches", fix="cond", raises="TracerBoolConversionError",
            source="https://github.com/jax-ml/jax/issues/575",
            line="return -s if d_energy < u else s",
            fixed="return lax.cond(d_energy < u, lambda: -s, lambda: s)",
            args=lambda: (jnp.array([1.0, -1.0, 1.0]), 0.3))
def metropolis_flip(spins, u):
    @jax.jit
    def step(s, u):
        d_energy = 0.5 * jnp.sum(s)
        return -s if d_energy < u else s
    return step(spins, u)


@error_case(family="branches", fix="branchless-sign", raises="TracerBoolConversionError",
            source="https://github.com/mlysy/pfjax/issues/3",
            line="return sd * 1.2 if acc < target else sd / 1.2",
            fixed="return jnp.exp(jnp.log(sd) - 0.2 * jnp.sign(target - acc))",
            args=lambda: (0.5, 0.3))
def adapted_proposal_scale(step_sd, accept_rate):
    def adapt(sd, acc, target=0.44):
        return sd * 1.2 if acc < target else sd / 1.2
    return jax.jit(adapt)(step_sd, accept_rate)


@error_case(family="branches", fix="argmax-index", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/issues/4585",
            line="return jax.jit(lambda g: jnp.where(g == jnp.max(g)))(grid)",
            fixed="return jax.jit(lambda g: jnp.unravel_index(jnp.argmax(g), g.shape))(grid)",
            args=lambda: (jnp.array([[0.1, 0.7], [0.9, 0.2]]),))
def brightest_pixel(grid):
    return jax.jit(lambda g: jnp.where(g == jnp.max(g)))(grid)


@error_case(family="branches", fix="vmap-kwargs-positional", raises="TypeError",
            source="https://github.com/Herculens/herculens/pull/53",
            line="return jnp.where(jnp.abs(coeffs) > lam, x=coeffs - lam * jnp.sign(coeffs), y=0.0)",
            fixed="return jnp.where(jnp.abs(coeffs) > lam, coeffs - lam * jnp.sign(coeffs), 0.0)",
            args=lambda: (jnp.array([-2.0, 0.3, 1.5]), 0.5))
def soft_threshold(coeffs, lam):
    return jnp.where(jnp.abs(coeffs) > lam, x=coeffs - lam * jnp.sign(coeffs), y=0.0)


@error_case(family="branches", fix="jax-scalar", raises="ZeroDivisionError",
            source="https://github.com/jax-ml/jax/issues/10360",
            line="return jnp.where(jnp.abs(r) < 1.0, 1.0 / (r - 1.0), 0.0)",
            fixed="return jnp.where(jnp.abs(r) < 1.0, 1.0 / (jnp.asarray(r) - 1.0), 0.0)",
            args=lambda: (1.0,))
def inverse_gap(r):
    return jnp.where(jnp.abs(r) < 1.0, 1.0 / (r - 1.0), 0.0)


# ====================================================================== pytrees
@error_case(family="pytrees", fix="uniform-dict-keys", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/18187",
            line="return lax.while_loop(lambda s: s['n'] < limit, lambda s: {**s, 'n': s['n'] + 1}, state)",
            fixed="return lax.while_loop(lambda s: s['n'] < limit, lambda s: {**s, 'n': s['n'] + 1}, {str(k): v for k, v in state.items()})",
            args=lambda: (5,))
def ticks_until(limit):
    state = {('pos', 0): jnp.float32(0.0), ('pos', 1): jnp.float32(1.0), 'n': 0}
    return lax.while_loop(lambda s: s['n'] < limit, lambda s: {**s, 'n': s['n'] + 1}, state)


@error_case(family="pytrees", fix="close-over", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/35996",
            line="return jax.tree.map(lambda lr, p: p - lr * p, 0.05, params)",
            fixed="return jax.tree.map(lambda p: p - 0.05 * p, params)",
            args=lambda: ({'w': jnp.ones((2, 2)), 'b': jnp.zeros(2)},))
def decayed_leaves(params):
    return jax.tree.map(lambda lr, p: p - lr * p, 0.05, params)


@error_case(family="pytrees", fix="non-array-leaf", raises="TypeError",
            source="https://github.com/google/flax/issues/1492",
            line="return step(batch, w)",
            fixed="return step({k: v for k, v in batch.items() if k != 'id'}, w)",
            args=lambda: ({'x': np.ones((3, 2), np.float32), 'y': np.array([0, 1, 1]),
                           'id': np.array([b'img_07', b'img_12', b'img_31'])}, jnp.eye(2)))
def eval_accuracy(batch, w):
    step = jax.jit(lambda b, w_: jnp.mean(jnp.argmax(b['x'] @ w_, -1) == b['y']))
    return step(batch, w)


@error_case(family="pytrees", fix="static-arg", raises="TypeError",
            source="https://github.com/google/flax/issues/853",
            line="return jax.jit(lambda m, p, v: m.apply(p, v))(model, params, x)",
            fixed="return jax.jit(lambda m, p, v: m.apply(p, v), static_argnums=0)(model, params, x)",
            args=lambda: ({'w': jnp.ones((2, 3))}, jnp.ones((4, 2))))
def dense_forward(params, x):
    @dataclasses.dataclass(frozen=True)
    class Dense:
        features: int

        def apply(self, p, v):
            return v @ p['w'][:, :self.features]
    model = Dense(3)
    return jax.jit(lambda m, p, v: m.apply(p, v))(model, params, x)


# ====================================================================== keys
@error_case(family="keys", fix="pad-mask", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/5100",
            line="return d[jax.random.randint(k2, (n,), 0, d.shape[0])]",
            fixed="return jnp.where((jnp.arange(8) < n)[:, None], d[jax.random.randint(k2, (8,), 0, d.shape[0])], 0.0)",
            args=lambda: (jnp.arange(20.0).reshape(10, 2),))
def random_subsample(data):
    @jax.jit
    def draw(d, key):
        k1, k2 = jax.random.split(key)
        n = jax.random.poisson(k1, 3.0)
        return d[jax.random.randint(k2, (n,), 0, d.shape[0])]
    return draw(data, jax.random.key(2))


@error_case(family="keys", fix="permutation-not-shuffle", raises="AttributeError",
            source="https://github.com/keras-team/keras/pull/19272",
            line="return jax.random.shuffle(jax.random.key(4), x, axis=0)",
            fixed="return jax.random.permutation(jax.random.key(4), x, axis=0, independent=True)",
            args=lambda: (jnp.arange(8.0).reshape(4, 2),))
def shuffled_rows(x):
    return jax.random.shuffle(jax.random.key(4), x, axis=0)


@error_case(family="keys", fix="split-count", raises="ValueError",
            source="https://github.com/open-lm-engine/accelerated-model-architectures/pull/480",
            line="k_in, k_hidden, k_out = jax.random.split(jax.random.key(0), 2)",
            fixed="k_in, k_hidden, k_out = jax.random.split(jax.random.key(0), 3)",
            args=lambda: (4, 8, 2))
def init_three_layers(n_in, n_hidden, n_out):
    k_in, k_hidden, k_out = jax.random.split(jax.random.key(0), 2)
    return (jax.random.normal(k_in, (n_in, n_hidden)), jax.random.normal(k_hidden, (n_hidden, n_hidden)),
            jax.random.normal(k_out, (n_hidden, n_out)))


@error_case(family="keys", fix="unmark-static", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/2294",
            line="return noisy(jax.random.PRNGKey(5), x)",
            fixed="return jax.jit(lambda rng, v: v + jax.random.normal(rng, v.shape))(jax.random.PRNGKey(5), x)",
            args=lambda: (jnp.zeros(3),))
def noisy_copy(x):
    noisy = jax.jit(lambda rng, v: v + jax.random.normal(rng, v.shape), static_argnums=0)
    return noisy(jax.random.PRNGKey(5), x)


# ====================================================================== custom rules
@error_case(family="custom-rules", fix="nondiff-first", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/4617",
            line="return jax.grad(lambda v: scaled_copy(v, 2.5))(x)",
            fixed="return scaled_copy.defvjp(copy_fwd, lambda factor, res, g: (g * factor,)) or jax.grad(lambda v: scaled_copy(v, 2.5))(x)",
            args=lambda: (1.5,))
def scaled_copy_slope(x):
    @functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
    def scaled_copy(v, factor):
        return v * factor

    def copy_fwd(v, factor):
        return scaled_copy(v, factor), None

    def copy_bwd(res, g):
        return (g * 2.5,)
    scaled_copy.defvjp(copy_fwd, copy_bwd)
    return jax.grad(lambda v: scaled_copy(v, 2.5))(x)


@error_case(family="custom-rules", fix="nondiff-arrays", raises="UnexpectedTracerError",
            source="https://github.com/jax-ml/jax/issues/20889",
            line="carry, _ = lax.scan(lambda c, _: ((masked(*c), c[1]), None), (v, m), None, length=2)",
            fixed="carry, _ = lax.scan(lambda c, _: ((apply_mask(*c), c[1]), None), (v, m), None, length=2)",
            args=lambda: (jnp.ones(4), jnp.array([True, False, True, True])))
def masked_rollout_slope(x, mask):
    def apply_mask(arr, m):
        return arr * m

    def apply_mask_jvp(m, primals, tangents):
        return jax.jvp(lambda a: a * m, primals, tangents)
    masked = jax.custom_jvp(apply_mask, nondiff_argnums=(1,))
    masked.defjvp(apply_mask_jvp)

    def rollout_loss(v, m):
        carry, _ = lax.scan(lambda c, _: ((masked(*c), c[1]), None), (v, m), None, length=2)
        return carry[0].sum()
    return jax.grad(rollout_loss)(x, mask)


@error_case(family="custom-rules", fix="vmap-kwargs-positional", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/1938",
            line="return jax.grad(lambda a: jnp.square(weighted_sum(a, y, c=3.0)))(x)",
            fixed="return jax.grad(lambda a: jnp.square(weighted_sum(a, y, 3.0)))(x)",
            args=lambda: (2.0, 1.0))
def weighted_sum_slope(x, y):
    @jax.custom_gradient
    def weighted_sum(a, b, c=1.0):
        return c * (a + b), lambda g: (c * g, c * g, 0.0)
    return jax.grad(lambda a: jnp.square(weighted_sum(a, y, c=3.0)))(x)


@error_case(family="custom-rules", fix="use-custom-vjp", raises="AttributeError",
            source="https://github.com/jax-ml/jax/issues/1270",
            line="jax.defvjp(energy, lambda g, ans, v: g * jnp.clip(2 * v, -1.0, 1.0))",
            fixed="energy = jax.custom_vjp(energy); energy.defvjp(lambda v: (jnp.sum(v ** 2), v), lambda v, g: (g * jnp.clip(2 * v, -1.0, 1.0),))",
            args=lambda: (jnp.array([0.2, -3.0, 1.0]),))
def clipped_energy_grad(x):
    energy = lambda v: jnp.sum(v ** 2)  # noqa: E731
    jax.defvjp(energy, lambda g, ans, v: g * jnp.clip(2 * v, -1.0, 1.0))
    return jax.grad(energy)(x)


# ====================================================================== shapes
@error_case(family="shapes", fix="where", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/1007",
            line="return jax.jit(lambda arr, kk: jnp.sum(lax.dynamic_slice(arr, (0,), (kk,))))(a, k)",
            fixed="return jax.jit(lambda arr, kk: jnp.sum(jnp.where(jnp.arange(arr.shape[0]) < kk, arr, 0)))(a, k)",
            args=lambda: (jnp.arange(6.0), 3))
def sum_of_first(a, k):
    return jax.jit(lambda arr, kk: jnp.sum(lax.dynamic_slice(arr, (0,), (kk,))))(a, k)


@error_case(family="shapes", fix="pad-to-same", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/32855",
            line="return jnp.stack([a, b, c])",
            fixed="return jnp.stack([jnp.pad(s, (0, 5 - s.shape[0])) for s in (a, b, c)])",
            args=lambda: (jnp.ones(3), jnp.arange(5.0), jnp.full(2, 7.0)))
def batch_of_sequences(a, b, c):
    return jnp.stack([a, b, c])


@error_case(family="shapes", fix="static-python-value", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/pull/12334",
            line="return jax.jit(lambda v: jnp.squeeze(v, jnp.array(1)))(x)",
            fixed="return jax.jit(lambda v: jnp.squeeze(v, 1))(x)",
            args=lambda: (jnp.ones((3, 1, 2)),))
def drop_singleton_axis(x):
    return jax.jit(lambda v: jnp.squeeze(v, jnp.array(1)))(x)


@error_case(family="shapes", fix="static-arg", raises="ConcretizationTypeError",
            source="https://github.com/codestella/putting-nerf-on-a-diet/pull/11",
            line="render = jax.jit(lambda lo, hi, n: jnp.linspace(lo, hi, n))",
            fixed="render = jax.jit(lambda lo, hi, n: jnp.linspace(lo, hi, n), static_argnums=2)",
            args=lambda: (2.0, 6.0, 16))
def sample_depths(near, far, n_samples):
    render = jax.jit(lambda lo, hi, n: jnp.linspace(lo, hi, n))
    return render(near, far, n_samples)


# ====================================================================== other
@error_case(family="other", fix="np-to-jnp", raises="TracerArrayConversionError",
            source="https://github.com/jax-ml/jax/issues/553",
            line="return jax.jit(lambda i: np.arange(6)[i])(idx)",
            fixed="return jax.jit(lambda i: lax.iota(jnp.int32, 6)[i])(idx)",
            args=lambda: (jnp.array([4, 1, 2], dtype=jnp.int32),))
def permuted_positions(idx):
    return jax.jit(lambda i: np.arange(6)[i])(idx)


@error_case(family="other", fix="size", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/issues/10231",
            line="return jax.jit(lambda a: jnp.unique(a))(age_idx)",
            fixed="return jax.jit(lambda a: jnp.unique(a, size=a.shape[0], fill_value=-1))(age_idx)",
            args=lambda: (jnp.array([24, 25, 24, 31, 25]),))
def distinct_ages(age_idx):
    return jax.jit(lambda a: jnp.unique(a))(age_idx)


@error_case(family="other", fix="size", raises="TracerBoolConversionError",
            source="https://github.com/jax-ml/jax/issues/38603",
            line="return jax.jit(lambda v: jnp.compress(v > 0, v))(x)",
            fixed="return jax.jit(lambda v: jnp.compress(v > 0, v, size=v.shape[0]))(x)",
            args=lambda: (jnp.array([1.5, -0.5, 2.0, -3.0]),))
def positive_entries(x):
    return jax.jit(lambda v: jnp.compress(v > 0, v))(x)


@error_case(family="other", fix="static-arg", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/23855",
            line="return act(x, kind)",
            fixed="return jax.jit(lambda v, k: jnp.tanh(v) if k == 'tanh' else jax.nn.relu(v), static_argnames='k')(x, kind)",
            args=lambda: (jnp.array([-1.0, 0.5]), 'tanh'))
def activated(x, kind):
    act = jax.jit(lambda v, k: jnp.tanh(v) if k == 'tanh' else jax.nn.relu(v))
    return act(x, kind)


@error_case(family="other", fix="at-set", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/24315",
            line="x[0] = 0.0",
            fixed="x = x.at[0].set(0.0)",
            args=lambda: (jnp.array([3.0, 1.0, 2.0]),))
def zero_first_entry(x):
    x[0] = 0.0
    return x


@error_case(family="other", fix="args-tuple", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/5732",
            line="return minimize(lambda w, d: jnp.sum((w - d) ** 2), jnp.zeros(2), args=data, method='BFGS').x",
            fixed="return minimize(lambda w, d: jnp.sum((w - d) ** 2), jnp.zeros(2), args=(data,), method='BFGS').x",
            args=lambda: (jnp.array([1.0, -2.0]),))
def fitted_offset(data):
    from jax.scipy.optimize import minimize
    return minimize(lambda w, d: jnp.sum((w - d) ** 2), jnp.zeros(2), args=data, method='BFGS').x


@error_case(family="other", fix="int-index", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/26865",
            line="return rates[positions / width]",
            fixed="return rates[(positions // width).astype(jnp.int32)]",
            args=lambda: (jnp.array([0.5, 2.5, 3.5]), 1.0))
def rate_at_positions(positions, width):
    rates = jnp.array([0.1, 0.2, 0.4, 0.8])
    return rates[positions / width]


@error_case(family="other", fix="no-bool-cast", raises="TracerBoolConversionError",
            source="https://github.com/RobertTLange/gymnax/issues/83",
            line="return jax.jit(lambda lv: bool(jnp.sum(lv <= 0) > 0))(lives)",
            fixed="return jax.jit(lambda lv: jnp.bool_(jnp.sum(lv <= 0) > 0))(lives)",
            args=lambda: (jnp.array([2, 0, 1]),))
def any_player_out(lives):
    return jax.jit(lambda lv: bool(jnp.sum(lv <= 0) > 0))(lives)


@error_case(family="other", fix="arange-scalars", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/14920",
            line="return jnp.arange([lo, hi])",
            fixed="return jnp.arange(lo, hi)",
            args=lambda: (2, 6))
def index_window(lo, hi):
    return jnp.arange([lo, hi])
