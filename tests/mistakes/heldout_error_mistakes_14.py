"""A fourteenth held-out batch of JAX errors outside jit, written by helper sessions that never opened the
rules under `autograder/` nor any message the course prints, so that its first run measures how the
course's explanations carry over to mistakes they were not fitted on. Each part's own account follows.

## Part c

Part c (the families custom rules, shapes and other), written by a blind helper that never opened the
rules under `autograder/`, `docs/`, the top-level tests nor any message the course prints.

How the cases were made: each function is reduced from one public thread (a GitHub issue or pull request
of JAX or of a project that uses it: objax, marin-community/levanter, NVIDIA/TransformerEngine, equinox,
flaxmodels, dm-haiku, sandialabs/WecOptTool, LorenFrankLab/spyglass) that no earlier file in
`tests/mistakes` cites (checked against the set of cited sources before each case). The code is new
(names and numbers differ from the thread), the mistake is the thread's. Called eagerly on `args()` with
the pinned jax (0.10.2), each function raises `raises` at `line`; `fixed` is that line as the thread's
maintainers, reviewers or accepted comment fixed it, and the function runs with it. Functions use only
the allowed module-level names; where a case needs a submodule that `import jax` does not bind
(`jax.experimental.ode`, `jax.scipy.optimize`, `jax.interpreters.pxla`, `jax.experimental.maps`) it
imports it inside itself. Where the mistaken line sits in a rule that has already returned when JAX
checks its output (a `bwd` returning a scalar zero), the rule is passed as a lambda on the failing line so
that line is the innermost frame of the case.

The cases: custom rules: `jax.hessian` of an `odeint` solution (jax 7401, a `custom_vjp` under forward
mode; reverse-over-reverse), a `custom_jvp` method called through the instance (jax 2483), a pytree node
whose `__init__` converts every child with `jnp.asarray` meeting a `None` cotangent from `bwd` (jax
10238), and a `bwd` returning a scalar `0.0` for an array input instead of `None` (jax PR 4595). Shapes:
a per-example affine layer applied to a (features, points) matrix (equinox 56) and to a (1, tokens,
features) batch (equinox 454), a batched `jnp.linalg.solve` with a right-hand side of shape (batch, n)
(jax PR 19674), a 2-D `x0` handed to `jax.scipy.optimize.minimize` (jax PR 3101, review thread), and a
`jnp.squeeze` that drops the size-1 axis of a block before `lax.dynamic_update_slice` (spyglass 817).
Other: `arr.device_buffers` (objax 270), `PartitionSpec` imported from `jax.interpreters.pxla` (levanter
178), `arr.device()` (jax PR 18730), `jax.experimental.maps.Mesh` (TransformerEngine PR 332),
`jax.linear_util` (jax 23392), `jax.abstract_arrays.ShapedArray` (jax PR 16271), `initial=` passed to
`jax.nn.softmax` (jax PR 20690), `jnp.reshape(..., newshape=)` (flaxmodels PR 42), `.at` on a NumPy
array (dm-haiku PR 283), item assignment into a JAX array (WecOptTool 427), `dtype=object` passed to `jnp.array`
(jax 1579) and a Python list as the fill value of `jnp.full` (jax PR 5649, where a maintainer writes the
`jnp.array` form that works).

New fix categories (in `corpus.CATEGORIES` and `FIXES`, patterns written from the maintainers' fixes
alone): `addressable-shards-b14c` (read per-device data through `addressable_shards`/`addressable_data`),
`sharding-module-b14c` (import `PartitionSpec`/`Mesh` from `jax.sharding`), `rule-as-function-b14c` (use
the custom-derivative function as a plain function, passing the instance explicitly, or wrap it in a
method), `jax-extend-b14c` (`jax.extend.linear_util`), `core-shapedarray-b14c` (`jax.core.ShapedArray`),
`flat-x0-b14c` (give the optimizer a flat 1-D `x0` and reshape inside the objective), `drop-initial-b14c`
(drop the removed `initial` argument of `softmax`), `no-squeeze-b14c` (do not squeeze away a size-1 axis
the update needs).

Caveats, where the stored thread does not show the fixed line and `fixed` writes the fix the thread points
to (inferred): jax 7401 (the stored text is the question; `fixed` uses `jax.jacrev(jax.jacrev(...))`, the
usual remedy for forward mode over a `custom_vjp`), equinox 454 (the stored text stops before the answer;
`fixed` maps twice over the leading axes, the Equinox convention its maintainer states in equinox PR 57),
equinox 56 (the maintainer's review in PR 57 says to `jax.vmap` the layer; `in_axes=1, out_axes=1` because
the thread's input is (features, batch)), jax 2483 (the reporter notes that calling the function with the
instance passed explicitly works and a maintainer suggests plain functions; `fixed` calls it through the
class), jax PR 4595 (the pull request that lets `bwd` return `None` for a zero cotangent; the mistake is
reduced from its rationale, not from a user report), levanter 178 (the issue says `PartitionSpec` moved;
`fixed` imports it from its public home `jax.sharding`), jax PR 18730 (a deprecation pull request;
`fixed` uses `arr.devices()`), jax PR 16271 (a deprecation pull request whose stored text is its title;
`fixed` uses `jax.core.ShapedArray`, the replacement JAX's changelog names), objax 270 (the issue shows
only failing tests; `fixed` is the replacement JAX's own message names), jax 1579 (a maintainer says JAX
will not support object arrays; `fixed` gives the array a numeric dtype) and spyglass 817 (the maintainer
removed an errant `squeeze` in `non_local_detector`; the case is a pure-JAX reduction of that code path).
Candidates left out on purpose: `jax.scipy.optimize` and `jax.flatten_util` used without importing them
(jax 12390, 13110, 18457) raise only until some other code in the process imports those submodules (cases
of batches 6 and 9 do), so the case would not raise reliably in a shared run.

No shortfall: the brief asked for custom rules 4, shapes 4, other 9; part c has 21 cases (custom rules 4,
shapes 5, other 12) from 21 threads.
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


@error_case(family="custom-rules", fix="vjp-reverse-mode", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/7401",
            line="return jax.hessian(lambda r: jnp.sum((odeint(decay, start, times, r[0]) - 0.5) ** 2) * r[1])(rates)",
            fixed="return jax.jacrev(jax.jacrev(lambda r: jnp.sum((odeint(decay, start, times, r[0]) - 0.5) ** 2) * r[1]))(rates)",
            args=lambda: (jnp.array([0.7, 1.3]),))
def decay_misfit_curvature(rates):
    from jax.experimental.ode import odeint
    start, times = jnp.array([1.0, 2.0]), jnp.array([0.0, 0.5, 1.0])

    def decay(y, t, k):
        return -k * y
    return jax.hessian(lambda r: jnp.sum((odeint(decay, start, times, r[0]) - 0.5) ** 2) * r[1])(rates)


@error_case(family="other", fix="addressable-shards-b14c", raises="AttributeError",
            source="https://github.com/google/objax/issues/270",
            line="pieces = weights.device_buffers",
            fixed="pieces = [shard.data for shard in weights.addressable_shards]",
            args=lambda: (jnp.linspace(0.0, 1.0, 6),))
def per_device_weight_norms(weights):
    pieces = weights.device_buffers
    return [float(jnp.linalg.norm(p)) for p in pieces]


@error_case(family="other", fix="sharding-module-b14c", raises="ImportError",
            source="https://github.com/marin-community/levanter/issues/178",
            line="from jax.interpreters.pxla import PartitionSpec",
            fixed="from jax.sharding import PartitionSpec",
            args=lambda: (2,))
def spec_for_activations(rank):
    from jax.interpreters.pxla import PartitionSpec
    return PartitionSpec("batch", *([None] * (rank - 1)))


@error_case(family="other", fix="devices-method", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/18730",
            line="return str(batch.device().platform)",
            fixed="return str(next(iter(batch.devices())).platform)",
            args=lambda: (jnp.ones((2, 3)),))
def where_does_batch_live(batch):
    return str(batch.device().platform)


@error_case(family="custom-rules", fix="rule-as-function-b14c", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/2483",
            line="return spring.energy(stretch)",
            fixed="return Spring.energy(spring, stretch)",
            args=lambda: (jnp.array([0.5, -1.0, 2.0]),))
def spring_energy_with_custom_jvp(stretch):
    class Spring:
        stiffness = 3.0

        @functools.partial(jax.custom_jvp, nondiff_argnums=(0,))
        def energy(self, x):
            return 0.5 * self.stiffness * jnp.sum(x ** 2)

        @energy.defjvp
        def energy_jvp(self, primals, tangents):
            x, = primals
            x_dot, = tangents
            return Spring.energy(self, x), self.stiffness * jnp.sum(x * x_dot)

    spring = Spring()
    return spring.energy(stretch)


@error_case(family="custom-rules", fix="init-no-conversion-b10d", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/10238",
            line="self.gain = jnp.asarray(gain, dtype=float)",
            fixed="self.gain = gain",
            args=lambda: (1.5, 0.8))
def pullback_through_settings_node(signal, gain):
    @jax.tree_util.register_pytree_node_class
    class Settings:
        def __init__(self, gain):
            self.gain = jnp.asarray(gain, dtype=float)

        def tree_flatten(self):
            return (self.gain,), None

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(*children)

    @jax.custom_vjp
    def amplify(x, settings):
        return 2.0 * x

    def amplify_fwd(x, settings):
        return amplify(x, settings), None

    def amplify_bwd(res, ct):
        return 2.0 * ct, None

    amplify.defvjp(amplify_fwd, amplify_bwd)
    _, pullback = jax.vjp(amplify, signal, Settings(gain))
    return pullback(1.0)[0]


@error_case(family="shapes", fix="vmap-per-example-b13c", raises="ValueError",
            source="https://github.com/patrick-kidger/equinox/issues/56",
            line="return weight @ points + bias",
            fixed="return jax.vmap(lambda p: weight @ p + bias, in_axes=1, out_axes=1)(points)",
            args=lambda: (jnp.arange(15.0).reshape(3, 5),))
def affine_layer_on_point_columns(points):
    weight = jnp.arange(12.0).reshape(4, 3) / 10.0
    bias = jnp.linspace(-1.0, 1.0, 4)
    return weight @ points + bias


@error_case(family="shapes", fix="vmap-nested", raises="TypeError",
            source="https://github.com/patrick-kidger/equinox/issues/454",
            line="return weight @ tokens",
            fixed="return jax.vmap(jax.vmap(lambda t: weight @ t))(tokens)",
            args=lambda: (jnp.ones((1, 3, 4)),))
def project_token_features(tokens):
    weight = jnp.arange(24.0).reshape(6, 4) / 24.0
    return weight @ tokens


@error_case(family="other", fix="sharding-module-b14c", raises="ModuleNotFoundError",
            source="https://github.com/NVIDIA/TransformerEngine/pull/332",
            line="from jax.experimental.maps import Mesh",
            fixed="from jax.sharding import Mesh",
            args=lambda: (jnp.arange(8.0),))
def replicate_over_local_mesh(values):
    from jax.experimental.maps import Mesh
    mesh = Mesh(np.array(jax.devices()[:1]), ("data",))
    return jax.device_put(values, jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec()))


@error_case(family="other", fix="jax-extend-b14c", raises="AttributeError",
            source="https://github.com/jax-ml/jax/issues/23392",
            line="lu = jax.linear_util",
            fixed="from jax.extend import linear_util as lu",
            args=lambda: (jnp.array([1.0, 2.0, 3.0]),))
def wrap_scaling_for_tracing(values):
    lu = jax.linear_util
    wrapped = lu.wrap_init(lambda v: v * 2.0)
    return wrapped.call_wrapped(values)


@error_case(family="other", fix="core-shapedarray-b14c", raises="AttributeError",
            source="https://github.com/jax-ml/jax/pull/16271",
            line="spec = jax.abstract_arrays.ShapedArray(batch.shape, batch.dtype)",
            fixed="spec = jax.core.ShapedArray(batch.shape, batch.dtype)",
            args=lambda: (jnp.zeros((4, 2)),))
def describe_batch_abstractly(batch):
    spec = jax.abstract_arrays.ShapedArray(batch.shape, batch.dtype)
    return spec.shape[0] * spec.shape[1]


@error_case(family="shapes", fix="solve-vector", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/19674",
            line="return jnp.linalg.solve(stiffness, loads)",
            fixed="return jnp.linalg.solve(stiffness, loads[..., None]).squeeze(-1)",
            args=lambda: (jnp.array([2.0, 4.0]), jnp.arange(6.0).reshape(2, 3)))
def displacements_per_load_case(springs, loads):
    stiffness = springs[:, None, None] * jnp.eye(3) + 0.5 * jnp.ones((3, 3))
    return jnp.linalg.solve(stiffness, loads)


@error_case(family="shapes", fix="flat-x0-b14c", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/3101",
            line="return jax.scipy.optimize.minimize(energy, grid, method=\"BFGS\").x",
            fixed="return jax.scipy.optimize.minimize(lambda v: energy(v.reshape(grid.shape)), grid.ravel(), method=\"BFGS\").x.reshape(grid.shape)",
            args=lambda: (jnp.arange(6.0).reshape(2, 3),))
def relax_height_grid(target):
    import jax.scipy.optimize

    def energy(heights):
        return jnp.sum((heights - target) ** 2) + 0.1 * jnp.sum(heights ** 4)

    grid = jnp.zeros_like(target)
    return jax.scipy.optimize.minimize(energy, grid, method="BFGS").x


@error_case(family="other", fix="drop-initial-b14c", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/20690",
            line="return jax.nn.softmax(scores, where=visible, initial=-jnp.inf)",
            fixed="return jax.nn.softmax(scores, where=visible)",
            args=lambda: (jnp.array([0.5, 2.0, -1.0, 1.0]), jnp.array([True, True, False, True])))
def attention_over_visible_tokens(scores, visible):
    return jax.nn.softmax(scores, where=visible, initial=-jnp.inf)


@error_case(family="other", fix="reshape-shape-arg", raises="TypeError",
            source="https://github.com/matthias-wright/flaxmodels/pull/42",
            line="patches = jnp.reshape(image, newshape=(rows // 2, 2, cols // 2, 2))",
            fixed="patches = jnp.reshape(image, shape=(rows // 2, 2, cols // 2, 2))",
            args=lambda: (jnp.arange(16.0).reshape(4, 4),))
def average_pool_two_by_two(image):
    rows, cols = image.shape
    patches = jnp.reshape(image, newshape=(rows // 2, 2, cols // 2, 2))
    return patches.mean(axis=(1, 3))


@error_case(family="custom-rules", fix="bwd-none", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/4595",
            line="return jax.grad(lambda v: jnp.sum(gated(lambda mask, ct: (ct * mask, 0.0))(v, gate)))(signal)",
            fixed="return jax.grad(lambda v: jnp.sum(gated(lambda mask, ct: (ct * mask, None))(v, gate)))(signal)",
            args=lambda: (jnp.arange(3.0), jnp.array([1.0, 0.0, 1.0])))
def gated_signal_gradient(signal, gate):
    def gated(bwd):
        apply_gate = jax.custom_vjp(lambda x, mask: x * mask)
        apply_gate.defvjp(lambda x, mask: (x * mask, mask), bwd)
        return apply_gate
    return jax.grad(lambda v: jnp.sum(gated(lambda mask, ct: (ct * mask, 0.0))(v, gate)))(signal)


@error_case(family="other", fix="np-to-jnp", raises="AttributeError",
            source="https://github.com/google-deepmind/dm-haiku/pull/283",
            line="tokens = np.zeros((length,), dtype=np.int32).at[0].set(start_token)",
            fixed="tokens = jnp.zeros((length,), dtype=jnp.int32).at[0].set(start_token)",
            args=lambda: (7, 5))
def seed_token_buffer(start_token, length):
    tokens = np.zeros((length,), dtype=np.int32).at[0].set(start_token)
    return tokens


@error_case(family="other", fix="at-set", raises="TypeError",
            source="https://github.com/sandialabs/WecOptTool/issues/427",
            line="transfer[row, row] = gains[row]",
            fixed="transfer = transfer.at[row, row].set(gains[row])",
            args=lambda: (jnp.array([2.0, 3.0, 5.0]),))
def diagonal_transfer_matrix(gains):
    transfer = jnp.zeros((3, 3))
    for row in range(3):
        transfer[row, row] = gains[row]
    return transfer


@error_case(family="shapes", fix="no-squeeze-b14c", raises="TypeError",
            source="https://github.com/LorenFrankLab/spyglass/issues/817",
            line="log_joint = lax.dynamic_update_slice(log_joint, jnp.squeeze(block_estimate), (start, 0))",
            fixed="log_joint = lax.dynamic_update_slice(log_joint, block_estimate, (start, 0))",
            args=lambda: (jnp.arange(5.0)[:, None], jnp.array([[0.5]])))
def blockwise_mark_log_intensity(spike_features, bin_centers):
    log_joint = jnp.zeros((spike_features.shape[0], bin_centers.shape[0]))
    for start in range(0, spike_features.shape[0], 2):
        block = spike_features[start:start + 2]
        block_estimate = -0.5 * (block - bin_centers.T) ** 2
        log_joint = lax.dynamic_update_slice(log_joint, jnp.squeeze(block_estimate), (start, 0))
    return log_joint


@error_case(family="other", fix="object-to-numeric-b13c", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/1579",
            line="counts = jnp.array(per_class, dtype=object)",
            fixed="counts = jnp.array(per_class, dtype=jnp.int32)",
            args=lambda: ([4, 5, 7],))
def class_frequencies(per_class):
    counts = jnp.array(per_class, dtype=object)
    return counts / jnp.sum(counts)


@error_case(family="other", fix="list-to-array", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/5649",
            line="board = jnp.full((rows, 3), [0.25, 0.5, 0.25])",
            fixed="board = jnp.full((rows, 3), jnp.array([0.25, 0.5, 0.25]))",
            args=lambda: (4,))
def initial_stencil_rows(rows):
    board = jnp.full((rows, 3), [0.25, 0.5, 0.25])
    return board.sum(axis=1)
