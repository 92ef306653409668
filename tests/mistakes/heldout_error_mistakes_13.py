"""A thirteenth held-out batch of JAX errors outside jit, written by helper sessions that never opened the
rules under `autograder/` nor any message the course prints, so that its first run measures how the
course's explanations carry over to mistakes they were not fitted on. Each part's own account follows.

## Part c

Part c (the families custom rules, shapes and `other`) was written by a blind helper session that never
opened `autograder/`, `docs/`, the README, `benchmarks/`, the top-level tests, `error_runs.py`, `rates.py` or
`case_hints.py`, ran nothing that imports `autograder` or prints a course message, and read only `CATEGORIES`
and `error_case` in corpus.py, check_error_cases.py and the earlier case files (for the format and the
threads already cited).

How the cases were made: the issue corpus was searched with the exact text of JAX exceptions (alone and
with library names: equinox, optax, numpyro, flax, ...) and with the names of removed APIs; every candidate
URL was checked against the sources of all earlier tests/mistakes files, the mistake was first tried with
the pinned jax (0.10.2) (several threads no longer raise and were dropped: jax 4802, 3056, 9374, 18113, and
dynalang 10's `one_hot` with a NumPy class count), and each case (own names and numbers, the thread's
mistake and fix) was run through `check_error_cases.py --heldout 13` and committed on its own.

Threads and projects: custom rules: jax-ml/jax 16049 (forward-mode through a `custom_vjp` function:
`jacfwd` -> `jacrev`), jax 3035 (a `custom_jvp` rule whose tangent is not linear in the input tangent,
`x_dot ** 2`; reverse mode then needs a transpose rule for `integer_pow`), jax 30401 (a `custom_jvp` rule
that runs a `pure_callback` on the tangent; fix: run the callback on the primal and multiply the tangent),
jax 11646 (`int()` of an argument of a `custom_vjp` function called under `jit(static_argnums=...)`; fix:
close over the static Python value); shapes: patrick-kidger/equinox 205 (a per-example dense layer applied to
a batch laid out as columns; fix: `vmap` over the batch axis), equinox 662 (one `vmap` over a
(batch, tokens, features) input; fix: `jax.vmap(jax.vmap(...))`), jax PR 3725 (`@` with a 0-d scale; fix:
`*`), jax PR 3639 (`jnp.split` into unequal sections; fix: `jnp.array_split`); other:
kirkegaardlab/deeptangle PR 15 (`jnp.trapz` -> `jax.scipy.integrate.trapezoid`), jfcrenshaw/pzflow PR 95
(`jnp.NINF` -> `-jnp.inf`), jax 19812 (`jax.random.KeyArray` -> `jax.Array`), jaymody/picoGPT PR 10
(`jnp.append(tokens, [next_token])` -> drop the list), Joshuaalbert/jaxns PR 46 (a list of quantiles to
`jnp.percentile` -> an array), nglaze00/SCoNe_GCN 3 (JAX array elements used as dict keys -> iterate a NumPy
array), jax 16902 (`jnp.DeviceArray` -> `jax.Array`, here in a `functools.singledispatch` registration),
jaxleyverse/jaxley PR 802 (`jnp.clip(..., a_max=...)` -> `jnp.minimum`), waymo-research/waymax PR 77
(`jax.tree_map` -> `jax.tree.map`), jax 14506 (`None` for a missing reading inside `jnp.array`; fix:
`jnp.nan`), jax 856 (a NumPy object-dtype column handed to a `jax.numpy` function; fix: cast it to a
numeric dtype first), jax PR 2339 (`jnp.clip_by_value`, a TensorFlow name that jax.numpy never had ->
`jnp.clip`).

New fix categories (in corpus.CATEGORIES and FIXES, under "added with the thirteenth held-out batch, part c",
regexes written from the maintainers' fixes alone and checked not to match the error text itself):
`linear-tangent-b13c` (make the JVP rule's tangent output linear in the input tangents: multiply the
incoming tangent by the derivative), `minimum-not-clip-b13c` (`jnp.minimum` instead of `jnp.clip` with the
removed `a_max`), `vmap-per-example-b13c` (write the layer for one example and `jax.vmap` it over the batch
axis), `scalar-multiply-b13c` (multiply by a scalar with `*`, not `@`), `nan-not-none-b13c` (mark a missing
value with `jnp.nan`, not `None`), `object-to-numeric-b13c` (convert an object-dtype NumPy array to a
numeric dtype, e.g. `.astype(np.float32)`, before JAX sees it), `jnp-clip-b13c` (`jnp.clip` instead of
TensorFlow's `clip_by_value`).

Caveats (where `fixed` is inferred rather than copied): jax 16049 is about `jax.hessian` of a `custom_vjp`
function; with the pinned jax a Hessian goes through when the fwd rule does not call the primal, so the case
keeps the part that still fails in every form, forward mode (`jacfwd`) of the `custom_vjp` function, and the
fix is the reverse-over-reverse route the thread's users report working (`grad(grad(f))`; `jacrev` here).
jax 3035 is a question whose stored text shows the failing tangent (`tangents[0]**3`) beside a linear one
that works; `fixed` writes the correct linear tangent of `x ** 3`. jax 30401 is an open issue; `fixed`
follows the solution it cites from discussion 13277 (callback on the primals only, tangent multiplied by the
result). jax 11646 is open and stores no maintainer reply; the thread's own error (an `IndexError` in 2022)
is a `ConcretizationTypeError` with the pinned jax, and `fixed` closes over the static value instead of
passing it through the `custom_vjp` signature (the docs' route for non-array values). equinox 205: the
maintainer's answer is "use `vmap`, layers act on one example"; `in_axes=1, out_axes=1` are inferred from
the reporter's (features, batch) layout. equinox 662's `jax.vmap(jax.vmap(linear))` is a contributor's
answer in the thread, which the maintainers let stand. jax PR 3725 only adds the check (issue 3718's text is
not stored); `*` is NumPy's own advice for scalar operands of `matmul`. jax PR 3639 is the closed first
attempt at `jnp.array_split`, which JAX later added; the case uses it. jax 19812 and jax 16902: the
maintainers point to the changelog / say `jax.Array` replaced the removed names; the `isinstance` and
`singledispatch` settings are mine. jaxns PR 46 says "use ndarray for quantiles" without the stored line;
`fixed` wraps the list in `jnp.asarray`. SCoNe_GCN 3: the maintainer's fix is "np instead of onp" (build the
node array with NumPy); `fixed` converts with `np.asarray` on the same line. The two `list-to-array` cases
share JAX's "requires ndarray or scalar arguments" message template (for different functions); the two
`jax-array-type` cases are different AttributeErrors; no other message repeats within part c. jax 14506 is
the report that `jnp.array` silently read `None` as NaN, closed by deprecating `None` (PR 18564); `fixed`
writes the NaN the old behaviour stood for. jax 856 dates from 2019 (then a RuntimeError; with the pinned
jax a TypeError whose text speaks of jit static arguments); the maintainer's answer is that JAX does not
work with object arrays, and `fixed` casts the column to float32. jax PR 2339 fixed the slip in JAX's own
example code (`jnp.clip_by_value` does not exist); the case puts the same slip in a student's clipped
surrogate loss.

20 cases (custom rules 4, shapes 4, other 12), 20 threads; no shortfall against the brief's aims (custom
rules 4, shapes 4, other 9). Threads were checked only against the files already in this worktree; parts a
and b, written at the same time elsewhere, were not visible, and check_error_cases.py allows up to 3 cases
per thread within a batch, so a thread shared with them would pass unflagged: compare the sources when the
parts are merged.
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


# ---- part c

# ---------------------------------------------------------------- part c: custom rules

@error_case(family="custom-rules", fix="vjp-reverse-mode", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/16049",
            line="return jax.jacfwd(damped_energy)(theta)",
            fixed="return jax.jacrev(damped_energy)(theta)",
            args=lambda: (np.array([0.3, -0.8], dtype=np.float32), 1.5))
def damped_energy_sensitivity(theta, gain):
    @jax.custom_vjp
    def damped_energy(t):
        return gain * jnp.sin(t) ** 2

    def energy_fwd(t):
        return damped_energy(t), t

    def energy_bwd(t, g):
        return (gain * jnp.sin(2.0 * t) * g,)
    damped_energy.defvjp(energy_fwd, energy_bwd)
    return jax.jacfwd(damped_energy)(theta)


@error_case(family="custom-rules", fix="linear-tangent-b13c", raises="NotImplementedError",
            source="https://github.com/jax-ml/jax/issues/3035",
            line="return soft_cube.defjvps(lambda x_dot, ans, x: 3.0 * x_dot ** 2) or jax.grad(penalty)(weights)",
            fixed="return soft_cube.defjvps(lambda x_dot, ans, x: 3.0 * x ** 2 * x_dot) or jax.grad(penalty)(weights)",
            args=lambda: (np.array([0.5, 1.0, 2.0], dtype=np.float32),))
def cube_penalty_grad(weights):
    soft_cube = jax.custom_jvp(lambda x: x ** 3)

    def penalty(w):
        return jnp.sum(soft_cube(w))
    return soft_cube.defjvps(lambda x_dot, ans, x: 3.0 * x_dot ** 2) or jax.grad(penalty)(weights)


@error_case(family="custom-rules", fix="linear-tangent-b13c", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/30401",
            line="return host_sine.defjvps(lambda dv, ans, v: host_sine(dv)) or jax.grad(total)(x)",
            fixed="return host_sine.defjvps(lambda dv, ans, v: host_cosine(v) * dv) or jax.grad(total)(x)",
            args=lambda: (np.array([0.0, 0.5, 1.0], dtype=np.float32),))
def host_sine_slope(x):
    def host_sine(v):
        return jax.pure_callback(np.sin, jax.ShapeDtypeStruct(v.shape, v.dtype), v)

    def host_cosine(v):
        return jax.pure_callback(np.cos, jax.ShapeDtypeStruct(v.shape, v.dtype), v)
    host_sine = jax.custom_jvp(host_sine)

    def total(v):
        return jnp.sum(host_sine(v))
    return host_sine.defjvps(lambda dv, ans, v: host_sine(dv)) or jax.grad(total)(x)


@error_case(family="custom-rules", fix="close-over", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/issues/11646",
            line="return b ** int(k)",
            fixed="return b ** int(order)",
            args=lambda: (np.array([1.5, 2.0, 0.5], dtype=np.float32), 3.0))
def integer_power_grad(base, order):
    @jax.custom_vjp
    def int_power(b, k):
        return b ** int(k)

    def int_power_fwd(b, k):
        return int_power(b, k), (b, k)

    def int_power_bwd(res, g):
        b, k = res
        return (g * k * b ** (k - 1), None)
    int_power.defvjp(int_power_fwd, int_power_bwd)
    loss = jax.jit(lambda b, k: jnp.sum(int_power(b, k)), static_argnums=1)
    return jax.grad(loss)(base, order)


# ---------------------------------------------------------------- part c: shapes

@error_case(family="shapes", fix="vmap-per-example-b13c", raises="ValueError",
            source="https://github.com/patrick-kidger/equinox/issues/205",
            line="return weight @ signals + bias",
            fixed="return jax.vmap(lambda v: weight @ v + bias, in_axes=1, out_axes=1)(signals)",
            args=lambda: (np.ones((3, 5), dtype=np.float32), np.zeros(3, dtype=np.float32),
                          np.arange(20, dtype=np.float32).reshape(5, 4)))
def project_signal_columns(weight, bias, signals):
    return weight @ signals + bias


@error_case(family="shapes", fix="vmap-nested", raises="TypeError",
            source="https://github.com/patrick-kidger/equinox/issues/662",
            line="return jax.vmap(lambda v: weight @ v + bias)(tokens)",
            fixed="return jax.vmap(jax.vmap(lambda v: weight @ v + bias))(tokens)",
            args=lambda: (np.ones((4, 6), dtype=np.float32), np.zeros(4, dtype=np.float32),
                          np.ones((2, 3, 6), dtype=np.float32)))
def embed_token_batch(weight, bias, tokens):
    return jax.vmap(lambda v: weight @ v + bias)(tokens)


@error_case(family="shapes", fix="scalar-multiply-b13c", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/3725",
            line="return (weights @ gain) + bias",
            fixed="return (weights * gain) + bias",
            args=lambda: (np.array([[1.0, -0.5], [0.25, 2.0]], dtype=np.float32), np.float32(0.5),
                          np.array([0.1, 0.2], dtype=np.float32)))
def scaled_layer_weights(weights, gain, bias):
    return (weights @ gain) + bias


@error_case(family="shapes", fix="split-sections", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/3639",
            line="chunks = jnp.split(signal, n_chunks)",
            fixed="chunks = jnp.array_split(signal, n_chunks)",
            args=lambda: (np.arange(10, dtype=np.float32), 3))
def chunk_means(signal, n_chunks):
    chunks = jnp.split(signal, n_chunks)
    return jnp.stack([c.mean() for c in chunks])


# ---------------------------------------------------------------- part c: other

@error_case(family="other", fix="trapezoid", raises="AttributeError",
            source="https://github.com/kirkegaardlab/deeptangle/pull/15",
            line="return jnp.trapz(seg, dx=1.0 / (seg.shape[0] - 1))",
            fixed="return jax.scipy.integrate.trapezoid(seg, dx=1.0 / (seg.shape[0] - 1))",
            args=lambda: (np.array([[0.0, 0.0], [0.3, 0.1], [0.7, 0.1], [1.0, 0.4]], dtype=np.float32),))
def worm_arc_length(points):
    steps = jnp.diff(points, axis=0)
    seg = jnp.concatenate([jnp.zeros(1), jnp.cumsum(jnp.linalg.norm(steps, axis=1))])
    return jnp.trapz(seg, dx=1.0 / (seg.shape[0] - 1))


@error_case(family="other", fix="neg-inf-b10", raises="AttributeError",
            source="https://github.com/jfcrenshaw/pzflow/pull/95",
            line="log_p = jnp.where(inside, log_p, jnp.NINF)",
            fixed="log_p = jnp.where(inside, log_p, -jnp.inf)",
            args=lambda: (np.array([0.2, 1.4, -0.3, 0.9], dtype=np.float32),))
def box_prior_log_prob(z):
    inside = (z >= 0.0) & (z <= 1.0)
    log_p = jnp.zeros_like(z)
    log_p = jnp.where(inside, log_p, jnp.NINF)
    return log_p


@error_case(family="other", fix="jax-array-type", raises="AttributeError",
            source="https://github.com/jax-ml/jax/issues/19812",
            line="if not isinstance(key, jax.random.KeyArray):",
            fixed="if not isinstance(key, jax.Array):",
            args=lambda: (3, np.arange(6, dtype=np.float32)))
def jittered_signal_copy(seed, signal):
    key = jax.random.PRNGKey(seed)
    if not isinstance(key, jax.random.KeyArray):
        raise TypeError("expected a PRNG key")
    return signal + 0.1 * jax.random.normal(key, signal.shape)


@error_case(family="other", fix="list-to-array", raises="TypeError",
            source="https://github.com/jaymody/picoGPT/pull/10",
            line="tokens = jnp.append(tokens, [next_token])",
            fixed="tokens = jnp.append(tokens, next_token)",
            args=lambda: (np.array([[0.1, 0.7, 0.2], [0.5, 0.2, 0.3], [0.3, 0.3, 0.4]], dtype=np.float32),
                          np.array([2, 0], dtype=np.int32), 3))
def greedy_decode(transition, tokens, steps):
    for _ in range(steps):
        next_token = jnp.argmax(transition[tokens[-1]])
        tokens = jnp.append(tokens, [next_token])
    return tokens


@error_case(family="other", fix="list-to-array", raises="TypeError",
            source="https://github.com/Joshuaalbert/jaxns/pull/46",
            line="return jnp.percentile(samples, [2.5, 50.0, 97.5])",
            fixed="return jnp.percentile(samples, jnp.asarray([2.5, 50.0, 97.5]))",
            args=lambda: (np.linspace(-2.0, 3.0, 41, dtype=np.float32),))
def credible_interval(samples):
    return jnp.percentile(samples, [2.5, 50.0, 97.5])


@error_case(family="other", fix="host-asarray", raises="TypeError",
            source="https://github.com/nglaze00/SCoNe_GCN/issues/3",
            line="return [len(neighbours[node]) for node in jnp.asarray(last_nodes)]",
            fixed="return [len(neighbours[node]) for node in np.asarray(last_nodes)]",
            args=lambda: ([3, 0, 2], [[1, 2], [0], [0, 3], [2]]))
def neighbour_counts(last_nodes, adjacency):
    neighbours = dict(enumerate(adjacency))
    return [len(neighbours[node]) for node in jnp.asarray(last_nodes)]


@error_case(family="other", fix="jax-array-type", raises="AttributeError",
            source="https://github.com/jax-ml/jax/issues/16902",
            line="@to_host.register(jnp.DeviceArray)",
            fixed="@to_host.register(jax.Array)",
            args=lambda: ({"loss": np.float32(0.25), "step": 3, "weights": np.ones(2, dtype=np.float32)},))
def log_summary(metrics):
    @functools.singledispatch
    def to_host(value):
        return value

    @to_host.register(jnp.DeviceArray)
    def _(value):
        return np.asarray(value).tolist()
    return {name: to_host(jnp.asarray(v) if name != "step" else v) for name, v in metrics.items()}


@error_case(family="other", fix="minimum-not-clip-b13c", raises="TypeError",
            source="https://github.com/jaxleyverse/jaxley/pull/802",
            line="return jnp.exp(jnp.clip(exponent, a_max=ceiling))",
            fixed="return jnp.exp(jnp.minimum(exponent, ceiling))",
            args=lambda: (np.array([-2.0, 10.0, 900.0], dtype=np.float32), 60.0))
def guarded_exp(exponent, ceiling):
    return jnp.exp(jnp.clip(exponent, a_max=ceiling))


@error_case(family="other", fix="tree-api", raises="AttributeError",
            source="https://github.com/waymo-research/waymax/pull/77",
            line="shifted = jax.tree_map(lambda x: x - offset, trajectory)",
            fixed="shifted = jax.tree.map(lambda x: x - offset, trajectory)",
            args=lambda: ({"x": np.array([1.0, 2.0, 4.0], dtype=np.float32),
                           "y": np.array([0.5, 0.5, 1.5], dtype=np.float32)}, 1.0))
def recentre_trajectory(trajectory, offset):
    shifted = jax.tree_map(lambda x: x - offset, trajectory)
    return shifted


@error_case(family="other", fix="nan-not-none-b13c", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/14506",
            line="readings = jnp.array([v if v >= 0 else None for v in raw])",
            fixed="readings = jnp.array([v if v >= 0 else jnp.nan for v in raw])",
            args=lambda: ([12.5, -1.0, 13.1, 12.9, -1.0],))
def mean_valid_reading(raw):
    readings = jnp.array([v if v >= 0 else None for v in raw])
    return jnp.nanmean(readings)


@error_case(family="other", fix="object-to-numeric-b13c", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/856",
            line="return jnp.subtract(column, baseline)",
            fixed="return jnp.subtract(column.astype(np.float32), baseline)",
            args=lambda: (np.array([1.0, 2.5, 4.0], dtype=object), np.float32(2.0)))
def centred_column(column, baseline):
    return jnp.subtract(column, baseline)


@error_case(family="other", fix="jnp-clip-b13c", raises="AttributeError",
            source="https://github.com/jax-ml/jax/pull/2339",
            line="clipped = jnp.clip_by_value(ratio, 1.0 - eps, 1.0 + eps)",
            fixed="clipped = jnp.clip(ratio, 1.0 - eps, 1.0 + eps)",
            args=lambda: (np.array([0.7, 1.05, 1.4], dtype=np.float32), np.array([1.0, -0.5, 2.0], dtype=np.float32), 0.2))
def clipped_surrogate(ratio, advantage, eps):
    clipped = jnp.clip_by_value(ratio, 1.0 - eps, 1.0 + eps)
    return -jnp.mean(jnp.minimum(ratio * advantage, clipped * advantage))
