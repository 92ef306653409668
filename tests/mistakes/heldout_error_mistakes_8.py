"""An eighth held-out batch of JAX errors outside jit, written by two helper sessions at once that never
opened the rules under `autograder/` nor any message the course prints, so that the first run of this
batch measures how the course's explanations carry over to mistakes they were not fitted on. Part 1
(vmap, grad, loops, branches, pytrees) and part 2 (keys, custom rules, shapes, other) were written apart
and merged into this file; each part's own account follows.

46 cases in all: vmap 5, grad 5, loops 5, branches 4, pytrees 4, keys 5, custom rules 5, shapes 5,
other 8; one thread each.

## Part 1

An eighth held-out batch of JAX errors outside jit, part 1 (the families vmap, grad, loops, branches
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

## Part 2

An eighth held-out batch, part 2, of JAX errors outside jit (families keys, custom rules, shapes and
`other`), written by a helper session that never opened the rules under `autograder/` nor any message
the course prints, so that the first run of this batch measures how the course's explanations carry over
to mistakes they were not fitted on.

How the cases were made: each function is reduced from one public thread (a JAX issue or pull request,
or an issue or pull request of a project built on or around JAX: Keras, IREE, PyMC, pertpy, glass,
dynalang, ...) that none of `error_mistakes.py`, `heldout_error_mistakes.py` ...
`heldout_error_mistakes_7.py` (nor the jit and retrace corpora) cites. The code is new (names and numbers
differ from the thread), the mistake is the thread's. Called eagerly on `args()` with the pinned jax
(0.10.2), each function raises `raises` at `line`, the innermost line of the function itself (grad, jvp,
vmap, jit and the custom-rule machinery may run inside it); `fixed` is that line as the thread's
maintainers, accepted answer or merged fix wrote it, and the function runs once it is swapped in.
Functions use only the module-level names `jax`, `jnp`, `lax`, `np`, `functools`, `NamedTuple` and
`dataclasses`; `args()` returns plain data.

Where the fix belongs to a piece the student defined earlier (a custom rule, a batching rule), JAX raises
at the call that uses it, so `fixed` rebuilds the corrected piece and calls again on one line.

What the batch leans on: typed PRNG keys meeting code written for raw ones (the removed
`jax.random.KeyArray` and `PRNGKeyArray`, `np.array` of a key for logging, one seed per chain handed
to `PRNGKey`) and a sampler given array bounds without a `shape`; custom derivative rules that break under
a second transformation (NumPy inside a JVP rule under a Hessian-vector product, a non-linear `nan_to_num` on the
tangent under `grad`, a `custom_vjp` closing over the value being differentiated), `grad` through a
`pure_callback` with no rule at all, and a `custom_vmap` rule returning lists; shapes given the wrong way
(the removed `newshape=` keyword of `jnp.reshape`, float image sizes for `jax.image.resize`, a 2-D kernel
handed to the 1-D `jnp.convolve`, scalars concatenated instead of stacked, `squeeze` of an axis whose size
is not one); and, outside the eight families, removed or renamed APIs (`jax.xla_computation`,
`jax.tree_flatten`, `jnp.trapz`, `jnp.in1d`, the `Array.device()` method), a GPU asked for on a machine
without one, `mode='raise'` in `jnp.take`, and `lax` primitives that do not promote dtypes.

Where a thread's stored text does not show the maintainers' exact line, `fixed` writes the fix the thread
points to: jax issue 16650 (NumPy in a JVP rule) uses `jnp` in the rule; jax issue 2284 (squeeze of a
non-singleton axis) squeezes the size-one axis; dynalang issue 6 (no GPU: run on the CPU platform) asks for
`jax.devices('cpu')`; jax issue 10333 (`mode='raise'` unsupported) uses `mode='clip'`.

23 cases (keys 5, custom rules 5, shapes 5, other 8), one thread each. Threads a search turns up for these
errors are mostly cited by the earlier batches already, so several cases rest on a maintainer's pull request
whose change or message is the advice (jax PRs 4008, 8843, 9369, 13587, 17261), or on a downstream
project's issue or pull request whose text states the fix (blackjax, pertpy, PyMC, chromax, uvadlc notebooks;
for pertpy the fix is the `jax.random.key_data` the quoted JAX error names).
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


# ====================================================================== part 2
# ====================================================================== keys
@error_case(family="keys", fix="jax-array-type", raises="AttributeError",
            source="https://github.com/jax-ml/jax/issues/22990",
            line="return isinstance(key, jax.random.KeyArray)",
            fixed="return isinstance(key, jax.Array)",
            args=lambda: (11,))
def is_sampler_key(seed):
    key = jax.random.key(seed)
    return isinstance(key, jax.random.KeyArray)


@error_case(family="keys", fix="sample-shape-match", raises="ValueError",
            source="https://github.com/glass-dev/glass/issues/1117",
            line="return jax.random.uniform(jax.random.key(7), minval=low, maxval=high)",
            fixed="return jax.random.uniform(jax.random.key(7), shape=low.shape, minval=low, maxval=high)",
            args=lambda: (jnp.array([0.0, 1.0, 2.0, 5.0]), jnp.array([1.0, 3.0, 2.5, 9.0])))
def jittered_bins(low, high):
    return jax.random.uniform(jax.random.key(7), minval=low, maxval=high)


@error_case(family="keys", fix="key-one-style", raises="TypeError",
            source="https://github.com/scverse/pertpy/issues/689",
            line="return {'draws': draws, 'rng_key': np.array(key)}",
            fixed="return {'draws': draws, 'rng_key': np.array(jax.random.key_data(key))}",
            args=lambda: (3, 5))
def sampler_record(seed, n_draws):
    key = jax.random.key(seed)
    draws = jax.random.normal(key, (n_draws,))
    return {'draws': draws, 'rng_key': np.array(key)}


@error_case(family="keys", fix="keys-array", raises="TypeError",
            source="https://github.com/pymc-devs/pymc/pull/5535",
            line="chain_keys = jax.random.PRNGKey(seeds)",
            fixed="chain_keys = jax.random.split(jax.random.PRNGKey(seeds[0]), n_chains)",
            args=lambda: (3, 20))
def chain_starting_points(n_chains, base_seed):
    seeds = np.random.RandomState(base_seed).randint(2 ** 30, size=n_chains)
    chain_keys = jax.random.PRNGKey(seeds)
    return jax.vmap(lambda k: jax.random.normal(k, (2,)))(chain_keys)


@error_case(family="keys", fix="jax-array-type", raises="AttributeError",
            source="https://github.com/kora-labs/chromax/issues/14",
            line="return [name for name, v in state.items() if isinstance(v, jax.random.PRNGKeyArray)]",
            fixed="return [name for name, v in state.items() if isinstance(v, jax.Array) and jax.dtypes.issubdtype(v.dtype, jax.dtypes.prng_key)]",
            args=lambda: (4, jnp.zeros(3)))
def key_fields(seed, weights):
    state = {'weights': weights, 'rng': jax.random.key(seed), 'step': jnp.int32(0)}
    return [name for name, v in state.items() if isinstance(v, jax.random.PRNGKeyArray)]


# ====================================================================== custom rules
@error_case(family="custom-rules", fix="np-to-jnp", raises="TracerArrayConversionError",
            source="https://github.com/jax-ml/jax/issues/16650",
            line="slope = np.exp(-v ** 2) * (2 * v ** 2 + 2 * v * np.sin(v) - np.cos(v) - 1)",
            fixed="slope = jnp.exp(-v ** 2) * (2 * v ** 2 + 2 * v * jnp.sin(v) - jnp.cos(v) - 1)",
            args=lambda: (jnp.array([1.0, 0.5]), jnp.array([1.0, 0.0])))
def bump_curvature(x, direction):
    def host_bump(v):
        return (-(v + np.sin(v)) * np.exp(-v ** 2)).astype(v.dtype)

    @jax.custom_jvp
    def bump(v):
        return jax.pure_callback(host_bump, jax.ShapeDtypeStruct(v.shape, v.dtype), v)

    @bump.defjvp
    def bump_jvp(primals, tangents):
        v, = primals
        slope = np.exp(-v ** 2) * (2 * v ** 2 + 2 * v * np.sin(v) - np.cos(v) - 1)
        return bump(v), slope * tangents[0]
    return jax.jvp(jax.grad(lambda v: jnp.sum(bump(v))), (x,), (direction,))[1]


@error_case(family="custom-rules", fix="callback-custom-rule", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/13587",
            line="return jax.grad(lambda v: jax.pure_callback(np.sinh, spec, v))(x)",
            fixed="host_sinh = jax.custom_jvp(lambda v: jax.pure_callback(np.sinh, spec, v)); host_sinh.defjvp(lambda p, t: (host_sinh(p[0]), jnp.cosh(p[0]) * t[0])); return jax.grad(host_sinh)(x)",
            args=lambda: (np.float32(0.5),))
def host_sinh_slope(x):
    spec = jax.ShapeDtypeStruct((), jnp.float32)
    return jax.grad(lambda v: jax.pure_callback(np.sinh, spec, v))(x)


@error_case(family="custom-rules", fix="pass-closed-over", raises="UnexpectedTracerError",
            source="https://github.com/jax-ml/jax/pull/4008",
            line="wave = jax.custom_vjp(lambda v: a * jnp.sin(v))",
            fixed="wave = jax.custom_vjp(lambda v, s: s * jnp.sin(v)); wave.defvjp(lambda v, s: (wave(v, s), (v, s)), lambda r, g: (r[1] * jnp.cos(r[0]) * g, jnp.sin(r[0]) * g)); return wave(phase, a)",
            args=lambda: (0.3, 2.0))
def amplitude_slope(phase, amplitude):
    def wave_at(a):
        wave = jax.custom_vjp(lambda v: a * jnp.sin(v))
        wave.defvjp(lambda v: (wave(v), v), lambda v, g: (a * jnp.cos(v) * g,))
        return wave(phase)
    return jax.grad(wave_at)(amplitude)


@error_case(family="custom-rules", fix="use-custom-vjp", raises="AssertionError",
            source="https://github.com/jax-ml/jax/issues/9087",
            line="return jax.grad(lambda v: jnp.sum(guarded_log(v)))(x)",
            fixed="guarded_log = jax.custom_vjp(jnp.log); guarded_log.defvjp(lambda v: (jnp.log(v), v), lambda v, g: (jnp.nan_to_num(g / v),)); return jax.grad(lambda v: jnp.sum(guarded_log(v)))(x)",
            args=lambda: (jnp.array([1.0, 2.0, 4.0]),))
def guarded_log_slope(x):
    @jax.custom_jvp
    def guarded_log(v):
        return jnp.log(v)

    @guarded_log.defjvp
    def guarded_log_jvp(primals, tangents):
        v, = primals
        return guarded_log(v), jnp.nan_to_num(tangents[0] / v)
    return jax.grad(lambda v: jnp.sum(guarded_log(v)))(x)


@error_case(family="custom-rules", fix="vmap-rule-structure", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/9369",
            line="return jax.vmap(weighted, in_axes=(None, 0))(weights, rows)",
            fixed="weighted.def_vmap(lambda n, batched, w, r: (r @ w if batched[1] else w @ r, batched[0] or batched[1])); return jax.vmap(weighted, in_axes=(None, 0))(weights, rows)",
            args=lambda: (jnp.array([1.0, 2.0, 3.0]), jnp.arange(12.0).reshape(4, 3)))
def weighted_rows(weights, rows):
    @jax.custom_batching.custom_vmap
    def weighted(w, r):
        return w @ r

    @weighted.def_vmap
    def weighted_rule(axis_size, in_batched, w, r):
        out = r @ w if in_batched[1] else w @ r
        return [out], [in_batched[0] or in_batched[1]]
    return jax.vmap(weighted, in_axes=(None, 0))(weights, rows)


# ====================================================================== shapes
@error_case(family="shapes", fix="reshape-shape-arg", raises="TypeError",
            source="https://github.com/keras-team/keras/pull/20469",
            line="return jnp.reshape(pixels, newshape=(-1, 4))",
            fixed="return jnp.reshape(pixels, (-1, 4))",
            args=lambda: (jnp.arange(16.0).reshape(4, 4),))
def pixel_quads(pixels):
    return jnp.reshape(pixels, newshape=(-1, 4))


@error_case(family="shapes", fix="scipy-convolve", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/4775",
            line="return jnp.convolve(image, box, mode='same')",
            fixed="return jax.scipy.signal.convolve(image, box, mode='same')",
            args=lambda: (jnp.arange(25.0).reshape(5, 5),))
def box_blurred(image):
    box = jnp.full((3, 3), 1.0 / 9.0)
    return jnp.convolve(image, box, mode='same')


@error_case(family="shapes", fix="int-index", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/8047",
            line="return jax.image.resize(frame, (frame.shape[0] * zoom, frame.shape[1] * zoom), 'linear')",
            fixed="return jax.image.resize(frame, (int(frame.shape[0] * zoom), int(frame.shape[1] * zoom)), 'linear')",
            args=lambda: (jnp.arange(24.0).reshape(4, 6), 1.5))
def zoomed_frame(frame, zoom):
    return jax.image.resize(frame, (frame.shape[0] * zoom, frame.shape[1] * zoom), 'linear')


@error_case(family="shapes", fix="stack-scalars", raises="ValueError",
            source="https://github.com/google/TensorNetwork/issues/350",
            line="return jnp.concatenate(norms)",
            fixed="return jnp.stack(norms)",
            args=lambda: (jnp.arange(6.0).reshape(3, 2),))
def row_norm_vector(rows):
    norms = [jnp.linalg.norm(r) for r in rows]
    return jnp.concatenate(norms)


@error_case(family="shapes", fix="last-axis", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/2284",
            line="return jnp.squeeze(scores, axis=0)",
            fixed="return jnp.squeeze(scores, axis=-1)",
            args=lambda: (jnp.arange(12.0).reshape(4, 3), jnp.array([0.5, -1.0, 2.0])))
def flat_scores(features, weights):
    scores = features @ weights[:, None]
    return jnp.squeeze(scores, axis=0)


# ====================================================================== other
@error_case(family="other", fix="jit-lower", raises="AttributeError",
            source="https://github.com/iree-org/iree-jax/pull/55",
            line="return jax.xla_computation(lambda v: jnp.tanh(v) * 2.0)(x).as_hlo_text()",
            fixed="return jax.jit(lambda v: jnp.tanh(v) * 2.0).lower(x).as_text()",
            args=lambda: (jnp.ones(3),))
def scaled_tanh_ir(x):
    return jax.xla_computation(lambda v: jnp.tanh(v) * 2.0)(x).as_hlo_text()


@error_case(family="other", fix="cpu-platform", raises="RuntimeError",
            source="https://github.com/jlin816/dynalang/issues/6",
            line="accelerator = jax.devices('gpu')[0]",
            fixed="accelerator = jax.devices('cpu')[0]",
            args=lambda: (jnp.arange(4.0),))
def staged_batch(batch):
    accelerator = jax.devices('gpu')[0]
    return jax.device_put(batch, accelerator) * 2.0


@error_case(family="other", fix="take-mode", raises="NotImplementedError",
            source="https://github.com/jax-ml/jax/issues/10333",
            line="return jnp.take(table, rows, axis=0, mode='raise')",
            fixed="return jnp.take(table, rows, axis=0, mode='clip')",
            args=lambda: (jnp.arange(12.0).reshape(4, 3), jnp.array([0, 3, 2])))
def looked_up_rows(table, rows):
    return jnp.take(table, rows, axis=0, mode='raise')


@error_case(family="other", fix="jnp-promote", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/8843",
            line="return lax.add(counts, offsets)",
            fixed="return jnp.add(counts, offsets)",
            args=lambda: (jnp.array([1, 2, 3]), jnp.array([0.5, 0.25, 0.125])))
def shifted_counts(counts, offsets):
    return lax.add(counts, offsets)


@error_case(family="other", fix="trapezoid", raises="AttributeError",
            source="https://github.com/jax-ml/jax/issues/20410",
            line="return jnp.trapz(density, grid)",
            fixed="return jax.scipy.integrate.trapezoid(density, grid)",
            args=lambda: (jnp.linspace(0.0, 2.0, 9),))
def area_under_density(grid):
    density = jnp.exp(-grid ** 2)
    return jnp.trapz(density, grid)


@error_case(family="other", fix="isin", raises="AttributeError",
            source="https://github.com/jax-ml/jax/pull/17261",
            line="return jnp.where(jnp.in1d(labels, allowed), labels, -1)",
            fixed="return jnp.where(jnp.isin(labels, allowed), labels, -1)",
            args=lambda: (jnp.array([3, 1, 4, 1, 5]), jnp.array([1, 5])))
def masked_labels(labels, allowed):
    return jnp.where(jnp.in1d(labels, allowed), labels, -1)


@error_case(family="other", fix="devices-method", raises="TypeError",
            source="https://github.com/phlippe/uvadlc_notebooks/issues/153",
            line="return {'shape': x.shape, 'placed_on': str(x.device())}",
            fixed="return {'shape': x.shape, 'placed_on': str(x.devices())}",
            args=lambda: (jnp.ones((2, 3)),))
def placement_report(x):
    return {'shape': x.shape, 'placed_on': str(x.device())}


@error_case(family="other", fix="tree-util-flatten", raises="AttributeError",
            source="https://github.com/blackjax-devs/blackjax/issues/329",
            line="leaves, _ = jax.tree_flatten(params)",
            fixed="leaves, _ = jax.tree_util.tree_flatten(params)",
            args=lambda: ({'dense': {'w': jnp.ones((3, 2)), 'b': jnp.zeros(2)}, 'scale': jnp.ones(())},))
def parameter_count(params):
    leaves, _ = jax.tree_flatten(params)
    return sum(leaf.size for leaf in leaves)
