"""A fourth held-out batch of JAX errors outside jit (issue 38): cases written by someone who had not
read the rules of `usage_rules.py` (nor any message the course prints for them), so that their first
run measures the rules as they stand, not as they were fitted.

Every function below is reduced from a public report that none of `error_mistakes.py`,
`heldout_error_mistakes.py`, `heldout_error_mistakes_2.py`, `heldout_error_mistakes_3.py` (nor the jit
and retrace corpora) uses (a JAX issue or pull request, a library's issue or pull request, a
question-and-answer thread or a page retelling one) and raises `raises` on the pinned jax (0.10.2) at
`line`, the innermost frame of the student's own code; `fixed` is that line as the maintainers (or
the accepted answer) fixed it. The code is written fresh: names and numbers differ from the threads,
the mistake is the same. Each function is self-contained (module-level names: `jax`, `jnp`, `lax`,
`np`, `functools`, `NamedTuple`, `dataclasses`) and `args()` returns plain data, so a case can be
pasted into a notebook cell or sent to a sandboxed grader worker.

The batch asks for situations the earlier batches lack: `in_axes` given a container for one argument
where an int or None was meant; an error raised inside the machinery of another transformation that
is built on vmap (`jax.jacfwd`, `jnp.vectorize`, `jnp.apply_along_axis`) where the student never wrote
vmap; transformed methods (`self` as the first argument of `jax.grad`, `jax.jit`, `jax.vmap`); a loop
carry that gains a singleton axis (float32[] becomes float32[1]); `None` leaves in masks and trees.
It adds a family, `other`, for JAX errors outside the eight families (in-place assignment, renamed
keyword arguments, functions passed where arrays go).

Where the fix belongs to a rule or a definition the student wrote earlier (a custom derivative rule,
a loop body), JAX raises only when the outer call runs, so the student's innermost frame is the line
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
@error_case(family="vmap", fix="vmap-nested", raises="ValueError",
            source="https://openillumi.com/en/en-jax-vmap-nested-loop-fix",
            line="grid = jax.vmap(energy, in_axes=(None, (0, None), (None, 0)))(offset, radii, angles)",
            fixed="grid = jax.vmap(jax.vmap(energy, in_axes=(None, None, 0)), in_axes=(None, 0, None))(offset, radii, angles)",
            args=lambda: (0.5, jnp.linspace(1.0, 2.0, 3), jnp.linspace(0.0, 1.0, 4)))
def ring_energy_total(offset, radii, angles):
    def energy(c, r, a):
        return c + r * jnp.cos(a)
    grid = jax.vmap(energy, in_axes=(None, (0, None), (None, 0)))(offset, radii, angles)
    return grid.sum()


@error_case(family="vmap", fix="vmap-nested", raises="ValueError",
            source="https://php.cn/ja/faq/671449.html",
            line="return jax.vmap(combine, in_axes=(None, 0, 0))(xs, ys, zs)",
            fixed="return jax.vmap(jax.vmap(jax.vmap(combine, (None, None, 0)), (None, 0, None)), (0, None, None))(xs, ys, zs)",
            args=lambda: (jnp.arange(4.0), jnp.arange(3.0), jnp.arange(2.0)))
def outer_combinations(xs, ys, zs):
    def combine(x, y, z):
        return x * y + z
    return jax.vmap(combine, in_axes=(None, 0, 0))(xs, ys, zs)


@error_case(family="vmap", fix="vmap-no-zip", raises="TypeError",
            source="https://openillumi.com/en/en-jax-vmap-multiple-arguments-solution",
            line="return jax.vmap(pair_norm)(zip(xs, ys))",
            fixed="return jax.vmap(pair_norm)((xs, ys))",
            args=lambda: (jnp.ones((4, 3)), jnp.full((4, 2), 2.0)))
def paired_norms(xs, ys):
    def pair_norm(pair):
        x, y = pair
        return jnp.sqrt(jnp.sum(x ** 2) + jnp.sum(y ** 2))
    return jax.vmap(pair_norm)(zip(xs, ys))


@error_case(family="vmap", fix="stack-leaves", raises="ValueError",
            source="https://openillumi.com/en/en-jax-vmap-error-list-pytree-to-soa",
            line="return jax.vmap(lambda p: 0.5 * p['m'] * p['v'] ** 2)(particles)",
            fixed="return jax.vmap(lambda p: 0.5 * p['m'] * p['v'] ** 2)(jax.tree.map(lambda *leaves: jnp.stack(leaves), *particles))",
            args=lambda: (jnp.array([1.0, 2.0, 3.0]), jnp.array([0.5, 1.5, 2.5])))
def particle_energies(masses, speeds):
    particles = [{'m': m, 'v': v} for m, v in zip(masses, speeds)]
    return jax.vmap(lambda p: 0.5 * p['m'] * p['v'] ** 2)(particles)


@error_case(family="vmap", fix="size", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/issues/7542",
            line="return jnp.apply_along_axis(jnp.where, 1, occupancy)",
            fixed="return jnp.apply_along_axis(lambda row: jnp.where(row, size=2)[0], 1, occupancy)",
            args=lambda: (jnp.array([[0, 1, 0, 1], [1, 1, 0, 0], [0, 0, 1, 1]]),))
def occupied_slots(occupancy):
    return jnp.apply_along_axis(jnp.where, 1, occupancy)


@error_case(family="vmap", fix="where", raises="TracerBoolConversionError",
            source="https://github.com/ttsim-dev/gettsim/pull/425",
            line="return 0.3 * (income - 9000.0) if income > 9000.0 else 0.0 * income",
            fixed="return jnp.where(income > 9000.0, 0.3 * (income - 9000.0), 0.0 * income)",
            args=lambda: (jnp.array([4000.0, 12000.0, 30000.0]),))
def income_tax(incomes):
    def tax(income):
        return 0.3 * (income - 9000.0) if income > 9000.0 else 0.0 * income
    return jnp.vectorize(tax)(incomes)


@error_case(family="vmap", fix="vmap-in-axes-none", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/15115",
            line="return jax.vmap(Amplifier.apply)(amp, xs)",
            fixed="return jax.vmap(Amplifier.apply, in_axes=(None, 0))(amp, xs)",
            args=lambda: (2.0, jnp.linspace(-1.0, 1.0, 5)))
def amplified_batch(gain, xs):
    class Amplifier:
        def __init__(self, g):
            self.g = g

        def apply(self, x):
            return self.g * jnp.tanh(x)
    amp = Amplifier(gain)
    return jax.vmap(Amplifier.apply)(amp, xs)


@error_case(family="vmap", fix="vmap-method", raises="NotImplementedError",
            source="https://github.com/jax-ml/jax/pull/23881",
            line="return jax.pure_callback(host_squash, jax.ShapeDtypeStruct(v.shape, v.dtype), v)",
            fixed="return jax.pure_callback(host_squash, jax.ShapeDtypeStruct(v.shape, v.dtype), v, vmap_method='sequential')",
            args=lambda: (jnp.array([0.1, 0.7, 1.5]),))
def host_squashed(xs):
    def host_squash(v):
        return np.tanh(v).astype(np.float32)

    def one(v):
        return jax.pure_callback(host_squash, jax.ShapeDtypeStruct(v.shape, v.dtype), v)
    return jnp.vectorize(one)(xs)


# ====================================================================== grad
@error_case(family="grad", fix="grad-argnums", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/17532",
            line="return jax.value_and_grad(Regressor.loss)(model, w, x, y)",
            fixed="return jax.value_and_grad(Regressor.loss, argnums=1)(model, w, x, y)",
            args=lambda: (jnp.ones(3), jnp.arange(12.0).reshape(4, 3) / 10.0, jnp.ones(4)))
def method_loss_step(w, x, y):
    class Regressor:
        def loss(self, w, x, y):
            return jnp.mean((x @ w - y) ** 2)
    model = Regressor()
    return jax.value_and_grad(Regressor.loss)(model, w, x, y)


@error_case(family="grad", fix="grad-float", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/48",
            line="return jax.grad(lambda side: side ** 2)(length)",
            fixed="return jax.grad(lambda side: side ** 2)(float(length))",
            args=lambda: (3,))
def square_area_slope(length):
    return jax.grad(lambda side: side ** 2)(length)


@error_case(family="grad", fix="static-loop-bounds", raises="ValueError",
            source="https://github.com/google-deepmind/mujoco/issues/1207",
            line="return jax.grad(settle)(v0)",
            fixed="return jax.grad(lambda v: lax.scan(lambda c, _: (0.5 * c + 0.1, None), v, None, length=20)[0])(v0)",
            args=lambda: (1.0,))
def settled_velocity_grad(v0):
    def settle(v):
        def step(c):
            vel, n = c
            return 0.5 * vel + 0.1, n + 1
        return lax.while_loop(lambda c: c[1] < 20, step, (v, 0))[0]
    return jax.grad(settle)(v0)


@error_case(family="grad", fix="non-array-leaf", raises="TypeError",
            source="https://github.com/pmelchior/scarlet2/issues/131",
            line="return jax.grad(chi2)(obs)",
            fixed="return jax.grad(lambda f: chi2({'flux': f, 'bands': obs['bands']}))(obs['flux'])",
            args=lambda: (jnp.array([0.8, 1.1, 1.3]),))
def band_flux_gradient(flux):
    obs = {'flux': flux, 'bands': 'gri'}

    def chi2(o):
        return jnp.sum((o['flux'] - 1.0) ** 2)
    return jax.grad(chi2)(obs)


@error_case(family="grad", fix="np-to-jnp", raises="TracerArrayConversionError",
            source="https://github.com/unifyai/ivy/pull/16255",
            line="h = np.asarray(x @ w)",
            fixed="h = jnp.asarray(x @ w)",
            args=lambda: (jnp.ones((3, 2)) * 0.1, jnp.arange(6.0).reshape(2, 3)))
def hidden_layer_grad(w, x):
    def forward(w):
        h = np.asarray(x @ w)
        return jnp.sum(jnp.tanh(h))
    return jax.grad(forward)(w)


@error_case(family="grad", fix="no-float-cast", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/pull/2602",
            line="return jnp.log(float(w)) + 0.1 * w",
            fixed="return jnp.log(w) + 0.1 * w",
            args=lambda: (3.0,))
def utility_slope(wealth):
    def utility(w):
        return jnp.log(float(w)) + 0.1 * w
    return jax.grad(utility)(wealth)


# ====================================================================== loops
@error_case(family="loops", fix="carry-singleton", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/4207",
            line="total, _ = lax.scan(lambda c, i: (c + table[i, groups[i]], None), 0.0, jnp.arange(table.shape[0]))",
            fixed="total, _ = lax.scan(lambda c, i: (c + table[i, groups[i, 0]], None), 0.0, jnp.arange(table.shape[0]))",
            args=lambda: (jnp.arange(9.0).reshape(3, 3), jnp.array([[0], [2], [1]])))
def grouped_trace(table, groups):
    total, _ = lax.scan(lambda c, i: (c + table[i, groups[i]], None), 0.0, jnp.arange(table.shape[0]))
    return total


@error_case(family="loops", fix="carry-keep-dtype", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/3991",
            line="return lax.fori_loop(0, steps, lambda i, visits: visits * gamma + 1, jnp.int32(0))",
            fixed="return lax.fori_loop(0, steps, lambda i, visits: visits * gamma + 1, jnp.float32(0))",
            args=lambda: (5, 0.9))
def discounted_visits(steps, gamma):
    return lax.fori_loop(0, steps, lambda i, visits: visits * gamma + 1, jnp.int32(0))


@error_case(family="loops", fix="static-loop-bounds", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/2956",
            line="return jax.grad(lambda r: jax.vmap(lambda n: growth(r, n))(horizons).sum())(rate)",
            fixed="return jax.grad(lambda r: jax.vmap(lambda n: lax.fori_loop(0, 8, lambda i, v: jnp.where(i < n, v * (1.0 + r), v), 1.0))(horizons).sum())(rate)",
            args=lambda: (0.05, jnp.array([2, 3, 5])))
def compound_rate_sensitivity(rate, horizons):
    def growth(r, n):
        return lax.fori_loop(0, n, lambda i, v: v * (1.0 + r), 1.0)
    return jax.grad(lambda r: jax.vmap(lambda n: growth(r, n))(horizons).sum())(rate)


@error_case(family="loops", fix="static-loop-bounds", raises="ValueError",
            source="https://github.com/dynamiqs/dynamiqs/pull/917",
            line="return jax.grad(series)(x)",
            fixed="return jax.grad(lambda x: lax.fori_loop(0, 5, lambda k, acc: acc + lax.fori_loop(0, 5, lambda j, p: jnp.where(j < k, p * x, p), 1.0), 0.0))(x)",
            args=lambda: (0.5,))
def triangular_series_grad(x):
    def series(x):
        def outer(k, acc):
            power = lax.fori_loop(0, k, lambda j, p: p * x, 1.0)
            return acc + power
        return lax.fori_loop(0, 5, outer, 0.0)
    return jax.grad(series)(x)


# ====================================================================== branches
@error_case(family="branches", fix="elementwise-and", raises="TracerBoolConversionError",
            source="https://php.wlsqs.com/faq/1902260.html",
            line="pieces = [lambda v: jnp.where(0.0 < v < 1.0, v, 0.0), lambda v: jnp.where(0.0 < v < 1.0, v, 1.0)]",
            fixed="pieces = [lambda v: jnp.where((0.0 < v) & (v < 1.0), v, 0.0), lambda v: jnp.where((0.0 < v) & (v < 1.0), v, 1.0)]",
            args=lambda: (1, 0.4))
def ramp_slope(branch, x):
    pieces = [lambda v: jnp.where(0.0 < v < 1.0, v, 0.0), lambda v: jnp.where(0.0 < v < 1.0, v, 1.0)]
    return jax.grad(lambda v: lax.switch(branch, pieces, v))(x)


@error_case(family="branches", fix="elementwise-and", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/7969",
            line="return jnp.piecewise(x, [x < 0, 0 < x < 1], [lambda v: -v, lambda v: v])",
            fixed="return jnp.piecewise(x, [x < 0, (0 < x) & (x < 1)], [lambda v: -v, lambda v: v])",
            args=lambda: (jnp.linspace(-1.0, 2.0, 7),))
def tent_profile(x):
    return jnp.piecewise(x, [x < 0, 0 < x < 1], [lambda v: -v, lambda v: v])


@error_case(family="branches", fix="is-none-check", raises="TracerBoolConversionError",
            source="https://github.com/jax-ml/jax/pull/16430",
            line="scale = scale or 1.0",
            fixed="scale = scale if scale is not None else 1.0",
            args=lambda: (jnp.ones((3, 2)), jnp.array([2.0, 4.0, 0.5])))
def rescale_rows(rows, scales):
    def one(row, scale=None):
        scale = scale or 1.0
        return row / scale
    return jax.vmap(one)(rows, scales)


# ====================================================================== pytrees
@error_case(family="pytrees", fix="none-leaf", raises="ValueError",
            source="https://github.com/patrick-kidger/equinox/pull/753",
            line="return jax.tree.map(lambda m, p, g: p - 0.1 * g * m, mask, params, grads)",
            fixed="return jax.tree.map(lambda m, p, g: p if m is None else p - 0.1 * g * m, mask, params, grads, is_leaf=lambda t: t is None)",
            args=lambda: ({'w': jnp.ones(3), 'b': jnp.zeros(())}, {'w': jnp.full(3, 0.5), 'b': jnp.ones(())}))
def decayed_params(params, grads):
    mask = {'w': 1.0, 'b': None}
    return jax.tree.map(lambda m, p, g: p - 0.1 * g * m, mask, params, grads)


@error_case(family="pytrees", fix="none-leaf", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/7828",
            line="return jax.tree.map(lambda a, b: b if a is None else a, trainable, frozen)",
            fixed="return jax.tree.map(lambda a, b: b if a is None else a, trainable, frozen, is_leaf=lambda t: t is None)",
            args=lambda: ({'enc': jnp.ones(2), 'dec': jnp.zeros(3)}, {'enc': True, 'dec': False}))
def rejoin_partition(params, train_mask):
    trainable = jax.tree.map(lambda p, m: p if m else None, params, train_mask)
    frozen = jax.tree.map(lambda p, m: None if m else p, params, train_mask)
    return jax.tree.map(lambda a, b: b if a is None else a, trainable, frozen)


@error_case(family="pytrees", fix="close-over", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/2920",
            line="return odeint(rhs, y0, ts, jnp.tanh)",
            fixed="return odeint(lambda y, t: rhs(y, t, jnp.tanh), y0, ts)",
            args=lambda: (jnp.ones(2), jnp.linspace(0.0, 1.0, 4)))
def squashed_decay(y0, ts):
    from jax.experimental.ode import odeint

    def rhs(y, t, squash):
        return -squash(y)
    return odeint(rhs, y0, ts, jnp.tanh)


# ====================================================================== keys
@error_case(family="keys", fix="shape-tuple", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/4124",
            line="idx = jax.random.choice(key, values.shape[0], 3)",
            fixed="idx = jax.random.choice(key, values.shape[0], (3,))",
            args=lambda: (jnp.linspace(0.0, 1.0, 6),))
def pick_three(values):
    key = jax.random.key(5)
    idx = jax.random.choice(key, values.shape[0], 3)
    return values[idx]


@error_case(family="keys", fix="keys-array", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/17747",
            line="return jax.vmap(lambda k, x: x + jax.random.normal(k))(keys, xs)",
            fixed="return jax.vmap(lambda k, x: x + jax.random.normal(k))(jax.random.split(key, xs.shape[0]), xs)",
            args=lambda: (jnp.zeros(3),))
def jittered_batch(xs):
    key = jax.random.PRNGKey(9)
    keys = tuple(jax.random.split(key, xs.shape[0]))
    return jax.vmap(lambda k, x: x + jax.random.normal(k))(keys, xs)


@error_case(family="keys", fix="key-one-style", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/24481",
            line="return np.asarray(key).sum()",
            fixed="return np.asarray(jax.random.key_data(key)).sum()",
            args=lambda: (3,))
def key_checksum(seed):
    key = jax.random.key(seed)
    return np.asarray(key).sum()


@error_case(family="keys", fix="vmap-in-axes-kw", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/20474",
            line="return jax.vmap(jax.random.uniform, axis=0)(keys)",
            fixed="return jax.vmap(jax.random.uniform, in_axes=0)(keys)",
            args=lambda: (4,))
def uniform_per_key(n):
    keys = jax.random.split(jax.random.key(4), n)
    return jax.vmap(jax.random.uniform, axis=0)(keys)


# ====================================================================== custom rules
@error_case(family="custom-rules", fix="jvp-primal-only", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/7972",
            line="return jax.jacfwd(passthrough)(x)",
            fixed="return passthrough.defjvp(lambda primals, tangents: (primals[0], tangents[0])) and jax.jacfwd(passthrough)(x)",
            args=lambda: (jnp.array([5.0, 5.0, 5.0]),))
def passthrough_jacobian(x):
    @jax.custom_jvp
    def passthrough(v):
        return v

    def passthrough_jvp(primals, tangents):
        stacked = jnp.concatenate((*primals, *tangents))
        n = stacked.shape[0] // 2
        return stacked[:n], stacked[n:]
    passthrough.defjvp(passthrough_jvp)
    return jax.jacfwd(passthrough)(x)


@error_case(family="custom-rules", fix="nondiff-arrays", raises="UnexpectedTracerError",
            source="https://github.com/jax-ml/jax/issues/2912",
            line="return jax.grad(lambda p: jax.jit(scaled)(s0, p))(p0)",
            fixed="return (plain := jax.custom_vjp(lambda s, p: p * s)).defvjp(lambda s, p: (p * s, s), lambda s, g: (None, g * s)) or jax.grad(lambda p: jax.jit(plain)(s0, p))(p0)",
            args=lambda: (0.2, 0.1))
def scaled_gradient(s0, p0):
    @functools.partial(jax.custom_vjp, nondiff_argnums=(0,))
    def scaled(s, p):
        return p * s

    def fwd(s, p):
        return p * s, None

    def bwd(s, _, g):
        return (g * s,)
    scaled.defvjp(fwd, bwd)
    return jax.grad(lambda p: jax.jit(scaled)(s0, p))(p0)


@error_case(family="custom-rules", fix="nondiff-arrays", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/23065",
            line="return jax.jacobian(jax.jit(gather))(x, idx)",
            fixed="return (plain := jax.custom_jvp(lambda v, i: v[i])).defjvp(lambda p, t: (p[0][p[1]], t[0][p[1]])) and jax.jacobian(jax.jit(plain))(x, idx)",
            args=lambda: (jnp.arange(6.0), jnp.array([1, 3, 4])))
def gather_jacobian(x, idx):
    @functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
    def gather(v, i):
        return v[i]

    def gather_jvp(i, primals, tangents):
        v, = primals
        v_dot, = tangents
        return gather(v, i), v_dot[i]
    gather.defjvp(gather_jvp)
    return jax.jacobian(jax.jit(gather))(x, idx)


@error_case(family="custom-rules", fix="nondiff-static", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/3045",
            line="return jax.grad(lambda v: act(v, mode))(x)",
            fixed="return (act2 := jax.custom_vjp(lambda v, kind: jnp.tanh(v), nondiff_argnums=(1,))).defvjp(lambda v, kind: (jnp.tanh(v), v), lambda kind, v, g: (g * (1 - jnp.tanh(v) ** 2),)) or jax.grad(lambda v: act2(v, mode))(x)",
            args=lambda: (0.3,))
def activation_gradient(x):
    mode = 'tanh'

    @jax.custom_vjp
    def act(v, kind):
        return jnp.tanh(v) if kind == 'tanh' else jax.nn.relu(v)

    def act_fwd(v, kind):
        return act(v, kind), v

    def act_bwd(v, g):
        return (g * (1 - jnp.tanh(v) ** 2), None)
    act.defvjp(act_fwd, act_bwd)
    return jax.grad(lambda v: act(v, mode))(x)


# ====================================================================== shapes
@error_case(family="shapes", fix="stack-scalars", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/53",
            line="return jnp.concatenate(stats)",
            fixed="return jnp.stack(stats)",
            args=lambda: (jnp.array([1.0, 4.0, 2.0, 8.0]),))
def summary_stats(xs):
    stats = [jnp.mean(xs), jnp.std(xs), jnp.max(xs)]
    return jnp.concatenate(stats)


@error_case(family="shapes", fix="solve-vector", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/826",
            line="return jnp.sum(y * jnp.linalg.solve(covs, y), axis=1)",
            fixed="return jnp.sum(y * jnp.linalg.solve(covs, y[..., None])[..., 0], axis=1)",
            args=lambda: (jnp.array([[1.0, 2.0, 3.0]]), jnp.stack([jnp.eye(3) * k for k in (1.0, 2.0, 4.0, 8.0)])))
def mahalanobis_terms(y, covs):
    return jnp.sum(y * jnp.linalg.solve(covs, y), axis=1)


@error_case(family="shapes", fix="int-index", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/2496",
            line="return values[mid]",
            fixed="return values[int(mid)]",
            args=lambda: (jnp.array([3.0, 1.0, 4.0, 1.0, 5.0]),))
def middle_value(values):
    mid = values.shape[0] / 2
    return values[mid]


@error_case(family="shapes", fix="int-index", raises="TypeError",
            source="https://github.com/mlech26l/gigastep/issues/13",
            line="return jax.vmap(lambda a: thrust_table[a])(actions)",
            fixed="return jax.vmap(lambda a: thrust_table[a])(actions.astype(jnp.int32))",
            args=lambda: (jnp.array([0.0, 2.0, 1.0]), jnp.linspace(0.0, 1.0, 4)))
def agent_thrusts(actions, thrust_table):
    return jax.vmap(lambda a: thrust_table[a])(actions)


# ====================================================================== other
@error_case(family="other", fix="static-arg", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/15115",
            line="return jax.jit(SGD.update)(opt, params, grads)",
            fixed="return jax.jit(SGD.update, static_argnums=0)(opt, params, grads)",
            args=lambda: (jnp.ones(3), jnp.full(3, 0.5)))
def sgd_update(params, grads):
    class SGD:
        def __init__(self, lr):
            self.lr = lr

        def update(self, p, g):
            return p - self.lr * g
    opt = SGD(0.1)
    return jax.jit(SGD.update)(opt, params, grads)


@error_case(family="other", fix="static-arg", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/4416",
            line="return jax.jit(run)(jnp.sin, x)",
            fixed="return jax.jit(run, static_argnums=0)(jnp.sin, x)",
            args=lambda: (jnp.array([0.3, 0.6]),))
def apply_twice(x):
    def run(f, v):
        return f(f(v))
    return jax.jit(run)(jnp.sin, x)


@error_case(family="other", fix="at-set", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/7032",
            line="boxes[:, 0] = jnp.clip(boxes[:, 0], 0.0, width)",
            fixed="boxes = boxes.at[:, 0].set(jnp.clip(boxes[:, 0], 0.0, width))",
            args=lambda: (jnp.array([[-2.0, 1.0], [5.0, 3.0], [12.0, 2.0]]), 10.0))
def clip_box_edges(boxes, width):
    boxes = jnp.asarray(boxes)
    boxes[:, 0] = jnp.clip(boxes[:, 0], 0.0, width)
    return boxes


@error_case(family="other", fix="at-set", raises="TypeError",
            source="https://github.com/BYUCamachoLab/simphony/issues/88",
            line="s[i, 0] = jnp.exp(1j * f)",
            fixed="s = s.at[i, 0].set(jnp.exp(1j * f))",
            args=lambda: (jnp.array([0.1, 0.2, 0.3]),))
def transmission_matrix(freqs):
    s = jnp.zeros((freqs.shape[0], 2), dtype=jnp.complex64)
    for i, f in enumerate(freqs):
        s[i, 0] = jnp.exp(1j * f)
    return s


@error_case(family="other", fix="clip-min-max", raises="TypeError",
            source="https://github.com/ArgonneCPAC/diffmah/issues/130",
            line="return jnp.clip(rates, a_min=0.0, a_max=1.0)",
            fixed="return jnp.clip(rates, min=0.0, max=1.0)",
            args=lambda: (jnp.array([-0.2, 0.5, 1.7]),))
def clamp_rates(rates):
    return jnp.clip(rates, a_min=0.0, a_max=1.0)


@error_case(family="other", fix="clip-min-max", raises="TypeError",
            source="https://github.com/dunnolab/xland-minigrid/pull/33",
            line="return (pos + step).clip(a_min=0, a_max=size - 1)",
            fixed="return (pos + step).clip(min=0, max=size - 1)",
            args=lambda: (jnp.array([0, 3, 7]), jnp.array([-1, 1, 1]), 8))
def move_on_grid(pos, step, size):
    return (pos + step).clip(a_min=0, a_max=size - 1)


@error_case(family="other", fix="shape-tuple", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/459",
            line="return jnp.zeros(shape)",
            fixed="return jnp.zeros(tuple(shape))",
            args=lambda: ((2, 3),))
def padded_buffer(dims):
    shape = (d + 1 for d in dims)
    return jnp.zeros(shape)
