"""An eighth held-out batch of JAX errors outside jit, part 1 (the families vmap, grad, loops, branches
and pytrees; a second helper writes keys, custom rules, shapes and other in a file of its own), written by
a helper session that never opened the rules under `autograder/` nor any message the course prints, so
that the first run of this batch measures how the course's explanations carry over to mistakes they were
not fitted on.

How the cases were made: each function is reduced from one public thread (a JAX issue or pull request, or
an issue or pull request of a project built on JAX: NumPyro, Equinox, jaxopt) that none of
`error_mistakes.py`, `heldout_error_mistakes.py` ... `heldout_error_mistakes_7.py` (nor the jit and
retrace corpora) cites. The code is new (names and numbers differ from the thread), the mistake is the
thread's. Called eagerly on `args()` with the pinned jax (0.10.2), each function raises `raises` at
`line`, the innermost line of the function itself (jit, vmap, grad, hessian and the lax loops may run
inside it); `fixed` is that line as the thread's maintainers, accepted answer or merged fix wrote it, and
the function runs once it is swapped in. Functions use only the module-level names `jax`, `jnp`, `lax`,
`np`, `functools`, `NamedTuple` and `dataclasses`; `args()` returns plain data. Where the fix belongs to a
piece the student defined earlier (a pytree's flatten rule, a dataclass constructor), JAX raises at the
call that uses it, so `fixed` rebuilds the corrected piece and calls again on one line, as batch 7 did.

Several threads are pull requests whose improved error message is the maintainers' whole advice (jax PRs
39508: slice a loop index with `lax.dynamic_slice`; 23228: `scan`'s `length` must be a concrete int;
16150: reverse mode needs `fori_loop` with static bounds; 8843: `jnp.where` promotes where `lax.select`
does not; 9372: `in_axes` must be a tree prefix of the argument; 8467: branches with no operand take no
parameters; 610: `jacfwd` on complex inputs needs `holomorphic=True`), and 18550 is the pull request that
answered an issue an earlier batch cites (its fix is the same `in_axes=(...,)` tuple, its thread is not);
their `fixed` line follows that advice. The case from jax issue 24308 (Hessian of `eigvals`) follows the
maintainers' current error message, written for that issue (jax PR 24350): opt in with
`jax.lax.linalg.eig(..., enable_eigvec_derivs=True)`.

What the batch leans on: NumPy functions and Python lists of pytrees under `vmap` (`np.vdot` on batched
rows, a list of dicts or NamedTuples mapped instead of one struct of stacked arrays, an `in_axes` dict not
wrapped in a tuple or not a prefix of the argument); float indices inside `grad` (`take_along_axis` with
float actions), `float()` on a differentiated value, holomorphic differentiation on real inputs or without
`holomorphic=True`, and a Hessian through `eigvals`; loop bodies that slice with the loop index, a traced
`scan` length, reverse mode through `fori_loop` with traced bounds, `&` binding tighter than `<` in a
`while_loop` condition, and a `scan` over a mixed int/float array used as an index; `not`/`|` on a traced
flag and a NumPy check on a closed-over array inside jit, `lax.select` of int and float operands, and
`lax.cond` branches declared with a parameter but given no operand; `tree.map` over a dict of NamedTuple
layers without `is_leaf`, an array kept in a pytree's aux data, `jnp.where` applied to dicts, and a
`register_dataclass` class whose custom `__init__` cannot take its fields as keywords.

23 cases (vmap 5, grad 5, loops 5, branches 4, pytrees 4), one thread each. Most threads a search turns
up for these families are already cited by the earlier batches, and several others describe bugs the
pinned jax no longer has (jax issues 1575 and 5925 among them, checked and dropped), which is why the
batch leans on improved-error pull requests.
"""
from __future__ import annotations

import dataclasses  # noqa: F401  (a name the cases may use)
import functools  # noqa: F401  (a name the cases may use)
from typing import NamedTuple  # noqa: F401  (a name the cases may use)

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .corpus import error_case


# ====================================================================== vmap
@error_case(family="vmap", fix="np-to-jnp", raises="TracerArrayConversionError",
            source="https://github.com/jax-ml/jax/issues/1162",
            line="return jax.vmap(lambda row, v: np.vdot(row, v), in_axes=(0, None))(mat, vec)",
            fixed="return jax.vmap(lambda row, v: jnp.vdot(row, v), in_axes=(0, None))(mat, vec)",
            args=lambda: (jnp.array([[1.0, 0.0, 2.0], [0.5, 1.5, -1.0]]), jnp.array([2.0, 1.0, 0.5])))
def matrix_vector_by_rows(mat, vec):
    return jax.vmap(lambda row, v: np.vdot(row, v), in_axes=(0, None))(mat, vec)


@error_case(family="vmap", fix="in-axes-tuple", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/18550",
            line="return jax.vmap(lambda batch: batch['signal'] * batch['gain'], in_axes={'signal': 0, 'gain': None})(readings)",
            fixed="return jax.vmap(lambda batch: batch['signal'] * batch['gain'], in_axes=({'signal': 0, 'gain': None},))(readings)",
            args=lambda: ({'signal': jnp.arange(6.0).reshape(3, 2), 'gain': jnp.array([1.0, 0.5])},))
def scaled_readings(readings):
    return jax.vmap(lambda batch: batch['signal'] * batch['gain'], in_axes={'signal': 0, 'gain': None})(readings)


@error_case(family="vmap", fix="stack-leaves", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/7430",
            line="return jax.vmap(lambda x, p: p['slope'] * x + p['offset'], in_axes=(0, 0))(xs, lines)",
            fixed="return jax.vmap(lambda x, p: p['slope'] * x + p['offset'], in_axes=(0, 0))(xs, jax.tree.map(lambda *v: jnp.stack(v), *lines))",
            args=lambda: (jnp.array([1.0, 2.0, 3.0]), [{'slope': 2.0, 'offset': 0.5}, {'slope': -1.0, 'offset': 1.0}, {'slope': 0.5, 'offset': 0.0}]))
def evaluate_lines(xs, lines):
    return jax.vmap(lambda x, p: p['slope'] * x + p['offset'], in_axes=(0, 0))(xs, lines)


@error_case(family="vmap", fix="stack-leaves", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/3102",
            line="return jax.vmap(lambda leg: jnp.sum(leg.start + leg.stop) * leg.count)(legs)",
            fixed="return jax.vmap(lambda leg: jnp.sum(leg.start + leg.stop) * leg.count)(Leg(*map(jnp.stack, zip(*legs))))",
            args=lambda: ([(jnp.full(3, 1.0), jnp.zeros(3), 2), (jnp.full(3, 0.5), jnp.ones(3), 1), (jnp.zeros(3), jnp.full(3, 2.0), 3)],))
def leg_costs(rows):
    class Leg(NamedTuple):
        start: jax.Array
        stop: jax.Array
        count: int
    legs = [Leg(*row) for row in rows]
    return jax.vmap(lambda leg: jnp.sum(leg.start + leg.stop) * leg.count)(legs)


@error_case(family="vmap", fix="in-axes-prefix", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/9372",
            line="return jax.vmap(lambda p: p['hidden'][0] * p['hidden'][2] + p['out'][1], in_axes=({'hidden': (0, 0, None), 'out': (0,)},))(members)",
            fixed="return jax.vmap(lambda p: p['hidden'][0] * p['hidden'][2] + p['out'][1], in_axes=({'hidden': (0, 0, None), 'out': (0, 0, None)},))(members)",
            args=lambda: ({'hidden': (jnp.ones((4, 3)), jnp.zeros((4, 3)), 0.5), 'out': (jnp.ones((4, 3)), jnp.full((4, 3), 2.0), 1.0)},))
def ensemble_readout(members):
    return jax.vmap(lambda p: p['hidden'][0] * p['hidden'][2] + p['out'][1], in_axes=({'hidden': (0, 0, None), 'out': (0,)},))(members)


# ====================================================================== grad
@error_case(family="grad", fix="int-index", raises="TypeError",
            source="https://github.com/pyro-ppl/numpyro/issues/541",
            line="chosen = jnp.take_along_axis(log_probs, actions[:, None], axis=1)[:, 0]",
            fixed="chosen = jnp.take_along_axis(log_probs, jnp.asarray(actions, dtype=jnp.int32)[:, None], axis=1)[:, 0]",
            args=lambda: (jnp.array([[0.1, 0.5, -0.2], [0.3, 0.0, 1.0]]), jnp.array([2.0, 0.0]), jnp.array([1.0, -0.5])))
def policy_gradient(logits, actions, returns):
    def surrogate(lg):
        log_probs = jax.nn.log_softmax(lg)
        chosen = jnp.take_along_axis(log_probs, actions[:, None], axis=1)[:, 0]
        return -jnp.mean(returns * chosen)
    return jax.grad(surrogate)(logits)


@error_case(family="grad", fix="no-float-cast", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/issues/2783",
            line="return jax.grad(lambda v: v if float(v) >= 0.0 else -v)(x)",
            fixed="return jax.grad(lambda v: v if v.astype(float) >= 0.0 else -v)(x)",
            args=lambda: (jnp.float32(-2.5),))
def absolute_slope(x):
    return jax.grad(lambda v: v if float(v) >= 0.0 else -v)(x)


@error_case(family="grad", fix="complex-input", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/3121",
            line="return jax.jacrev(lambda u: coupling @ u, holomorphic=True)(amplitudes)",
            fixed="return jax.jacrev(lambda u: coupling @ u, holomorphic=True)(amplitudes.astype(jnp.complex64))",
            args=lambda: (jnp.array([[0.0, 1.0], [1.0, 0.0]]), jnp.array([0.6, 0.8])))
def coupling_jacobian(coupling, amplitudes):
    return jax.jacrev(lambda u: coupling @ u, holomorphic=True)(amplitudes)


@error_case(family="grad", fix="holomorphic-flag", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/610",
            line="return jax.jacfwd(lambda z: z * z + shift * z)(impedances)",
            fixed="return jax.jacfwd(lambda z: z * z + shift * z, holomorphic=True)(impedances)",
            args=lambda: (jnp.array([1.0 + 1.0j, 0.5 - 2.0j], dtype=jnp.complex64), 3.0))
def impedance_jacobian(impedances, shift):
    return jax.jacfwd(lambda z: z * z + shift * z)(impedances)


@error_case(family="grad", fix="eigvec-derivs", raises="NotImplementedError",
            source="https://github.com/jax-ml/jax/issues/24308",
            line="return jax.hessian(lambda m: jnp.max(jnp.linalg.eigvals(m).real))(jacobian)",
            fixed="return jax.hessian(lambda m: jnp.max(jax.lax.linalg.eig(m, compute_left_eigenvectors=False, compute_right_eigenvectors=False, enable_eigvec_derivs=True)[0].real))(jacobian)",
            args=lambda: (jnp.array([[-1.0, 0.4], [0.2, -0.5]]),))
def growth_rate_curvature(jacobian):
    return jax.hessian(lambda m: jnp.max(jnp.linalg.eigvals(m).real))(jacobian)


# ====================================================================== loops
@error_case(family="loops", fix="dynamic_slice", raises="IndexError",
            source="https://github.com/jax-ml/jax/pull/39508",
            line="return lax.fori_loop(0, signal.shape[0] - width + 1, lambda i, acc: jnp.maximum(acc, jnp.sum(signal[i:i + width])), -jnp.inf)",
            fixed="return lax.fori_loop(0, signal.shape[0] - width + 1, lambda i, acc: jnp.maximum(acc, jnp.sum(lax.dynamic_slice(signal, (i,), (width,)))), -jnp.inf)",
            args=lambda: (jnp.array([0.5, 2.0, -1.0, 3.0, 1.5, 0.0]), 3))
def best_window_sum(signal, width):
    return lax.fori_loop(0, signal.shape[0] - width + 1, lambda i, acc: jnp.maximum(acc, jnp.sum(signal[i:i + width])), -jnp.inf)


@error_case(family="loops", fix="static-arg", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/pull/23228",
            line="return jax.jit(lambda v, n: lax.scan(lambda c, _: (c * ratio, c), v, None, length=n)[1])(first, n_terms)",
            fixed="return jax.jit(lambda v, n: lax.scan(lambda c, _: (c * ratio, c), v, None, length=n)[1], static_argnums=1)(first, n_terms)",
            args=lambda: (2.0, 4, 0.5))
def geometric_terms(first, n_terms, ratio):
    return jax.jit(lambda v, n: lax.scan(lambda c, _: (c * ratio, c), v, None, length=n)[1])(first, n_terms)


@error_case(family="loops", fix="static-loop-bounds", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/16150",
            line="return jax.jit(lambda r, m: jax.grad(lambda q: lax.fori_loop(0, m, lambda i, v: v * (1.0 + q), principal))(r))(rate, n_periods)",
            fixed="return jax.jit(lambda r, m: jax.grad(lambda q: lax.fori_loop(0, m, lambda i, v: v * (1.0 + q), principal))(r), static_argnums=1)(rate, n_periods)",
            args=lambda: (0.05, 4, 100.0))
def compound_growth_slope(rate, n_periods, principal):
    return jax.jit(lambda r, m: jax.grad(lambda q: lax.fori_loop(0, m, lambda i, v: v * (1.0 + q), principal))(r))(rate, n_periods)


@error_case(family="loops", fix="elementwise-and", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/21186",
            line="return lax.while_loop(lambda s: s[0] < max_iter & jnp.abs(s[1] ** 2 - target) > tol, lambda s: (s[0] + 1, s[1] - (s[1] ** 2 - target) / (2.0 * s[1])), (0, x0))[1]",
            fixed="return lax.while_loop(lambda s: (s[0] < max_iter) & (jnp.abs(s[1] ** 2 - target) > tol), lambda s: (s[0] + 1, s[1] - (s[1] ** 2 - target) / (2.0 * s[1])), (0, x0))[1]",
            args=lambda: (1.0, 3.0, 1e-5, 25))
def newton_root(x0, target, tol, max_iter):
    return lax.while_loop(lambda s: s[0] < max_iter & jnp.abs(s[1] ** 2 - target) > tol, lambda s: (s[0] + 1, s[1] - (s[1] ** 2 - target) / (2.0 * s[1])), (0, x0))[1]


@error_case(family="loops", fix="int-index", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/2486",
            line="return lax.scan(lambda total, row: (total + row[1] * prices[row[0]], None), 0.0, orders)[0]",
            fixed="return lax.scan(lambda total, row: (total + row[1] * prices[row[0].astype(jnp.int32)], None), 0.0, orders)[0]",
            args=lambda: (jnp.array([1.5, 4.0, 2.25]), jnp.array([[0, 2.0], [2, 1.5], [1, 3.0]])))
def order_total(prices, orders):
    return lax.scan(lambda total, row: (total + row[1] * prices[row[0]], None), 0.0, orders)[0]


# ====================================================================== branches
@error_case(family="branches", fix="logical", raises="TracerBoolConversionError",
            source="https://github.com/google/jaxopt/pull/350",
            line="return jax.jit(lambda s, bad: lax.cond(not stop_on_failure | ~bad, lambda v: 0.5 * v, lambda v: v, s))(step_size, failed)",
            fixed="return jax.jit(lambda s, bad: lax.cond(jnp.logical_or(not stop_on_failure, ~bad), lambda v: 0.5 * v, lambda v: v, s))(step_size, failed)",
            args=lambda: (1.0, jnp.array(True), False))
def next_step_size(step_size, failed, stop_on_failure):
    return jax.jit(lambda s, bad: lax.cond(not stop_on_failure | ~bad, lambda v: 0.5 * v, lambda v: v, s))(step_size, failed)


@error_case(family="branches", fix="host-numpy-check", raises="TracerBoolConversionError",
            source="https://github.com/pyro-ppl/numpyro/pull/821",
            line="if np.all(shape_params <= 0):",
            fixed="if np.all(np.less_equal(shape_params, 0)):",
            args=lambda: (jnp.array([0.5, -1.0, 2.0]), jnp.array([1.5, 0.2, 3.0])))
def tail_adjusted(x, shape_params):
    def adjusted(v):
        if np.all(shape_params <= 0):
            return v - shape_params
        return v + shape_params
    return jax.jit(adjusted)(x)


@error_case(family="branches", fix="select-where", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/8843",
            line="return lax.select(steps >= limit, jnp.full(steps.shape, -1), scores)",
            fixed="return jnp.where(steps >= limit, jnp.full(steps.shape, -1), scores)",
            args=lambda: (jnp.array([3, 12, 7]), jnp.array([0.5, 0.9, 0.2]), 10))
def capped_scores(steps, scores, limit):
    return lax.select(steps >= limit, jnp.full(steps.shape, -1), scores)


@error_case(family="branches", fix="nullary-branches", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/8467",
            line="return lax.cond(budget > spent, lambda _: jnp.minimum(budget - spent, cap), lambda _: jnp.zeros_like(budget))",
            fixed="return lax.cond(budget > spent, lambda: jnp.minimum(budget - spent, cap), lambda: jnp.zeros_like(budget))",
            args=lambda: (jnp.float32(10.0), jnp.float32(6.5), 2.0))
def remaining_allowance(budget, spent, cap):
    return lax.cond(budget > spent, lambda _: jnp.minimum(budget - spent, cap), lambda _: jnp.zeros_like(budget))


# ====================================================================== pytrees
@error_case(family="pytrees", fix="none-leaf", raises="AttributeError",
            source="https://github.com/jax-ml/jax/pull/5311",
            line="return jax.tree.map(lambda layer: layer._replace(w=scale * layer.w), model)",
            fixed="return jax.tree.map(lambda layer: layer._replace(w=scale * layer.w), model, is_leaf=lambda n: isinstance(n, Dense))",
            args=lambda: ({'encoder': [jnp.ones((2, 3)), jnp.zeros(3)], 'head': [jnp.eye(3), jnp.ones(3)]}, 0.5))
def rescaled_weights(raw, scale):
    class Dense(NamedTuple):
        w: jax.Array
        b: jax.Array
    model = {name: Dense(*wb) for name, wb in raw.items()}
    return jax.tree.map(lambda layer: layer._replace(w=scale * layer.w), model)


@error_case(family="pytrees", fix="aux-to-children", raises="ValueError",
            source="https://github.com/patrick-kidger/equinox/issues/798",
            line="return first + jax.jit(energy)(Field(values, jnp.asarray(mask_rows)))",
            fixed="split, join = (lambda f: ((f.values, f.mask), None)), (lambda aux, ch: Field(*ch)); return jax.jit(energy)(Field(values, jnp.asarray(mask_rows))) + jax.jit(energy)(Field(values, jnp.asarray(mask_rows)))",
            args=lambda: (jnp.array([2.0, 1.0, 3.0]), [1.0, 0.0, 1.0]))
def masked_energy(values, mask_rows):
    class Field:
        def __init__(self, values, mask):
            self.values, self.mask = values, mask
    jax.tree_util.register_pytree_node(Field, lambda f: split(f), lambda aux, ch: join(aux, ch))
    split = lambda f: ((f.values,), f.mask)  # noqa: E731
    join = lambda aux, ch: Field(ch[0], aux)  # noqa: E731
    energy = lambda f: jnp.sum(f.values * f.mask)  # noqa: E731
    first = jax.jit(energy)(Field(values, jnp.asarray(mask_rows)))
    return first + jax.jit(energy)(Field(values, jnp.asarray(mask_rows)))


@error_case(family="pytrees", fix="tree-api", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/9349",
            line="return jnp.where(done, fresh, stepped)",
            fixed="return jax.tree.map(lambda a, b: jnp.where(done, a, b), fresh, stepped)",
            args=lambda: (jnp.array(True), {'pos': jnp.zeros(2), 'vel': jnp.zeros(2)}, {'pos': jnp.array([0.3, 0.1]), 'vel': jnp.array([1.0, -0.5])}))
def reset_on_done(done, fresh, stepped):
    return jnp.where(done, fresh, stepped)


@error_case(family="pytrees", fix="dataclass-init-fields", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/25486",
            line="return jax.tree.map(lambda s: 2.0 * s, Gain(decibels=decibels)).scale",
            fixed="Gain.__init__ = lambda self, scale=None, decibels=None: setattr(self, 'scale', scale if decibels is None else 10.0 ** (decibels / 20.0)); return jax.tree.map(lambda s: 2.0 * s, Gain(decibels=decibels)).scale",
            args=lambda: (jnp.array([0.0, 6.0, 20.0]),))
def doubled_gain(decibels):
    @jax.tree_util.register_dataclass
    @dataclasses.dataclass
    class Gain:
        scale: jax.Array

        def __init__(self, *, decibels):
            self.scale = 10.0 ** (decibels / 20.0)
    return jax.tree.map(lambda s: 2.0 * s, Gain(decibels=decibels)).scale
