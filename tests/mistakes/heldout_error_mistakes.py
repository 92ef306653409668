"""Held-out JAX errors outside jit: cases written after the first rules of `usage_rules.py` by
someone who had not read them; after their first run (21 of 28 told their fix) they were used to
revise the rules (same format as `error_mistakes.py`).

Every function below is reduced from a public report the in-sample corpus does not use (a JAX
issue or pull request, a library's issue, a question-and-answer page) and raises `raises` on the
pinned jax (0.10.2) at `line`, the innermost frame of the student's own code; `fixed` is that line
as the maintainers (or the accepted answer) fixed it. The code is written fresh: names and numbers
differ from the threads, the mistake is the same. Each function is self-contained (module-level
names: `jax`, `jnp`, `lax`, `np`, `functools`, `NamedTuple`, `dataclasses`) and `args()` returns
plain data, so a case can be pasted into a notebook cell or sent to a sandboxed grader worker.

Where the fix belongs to a rule the student defined earlier (custom_vjp/custom_jvp), JAX checks
the rule only after it returns, so the student's innermost frame is the line that differentiates;
`fixed` there re-registers the corrected rule and differentiates again, on one line.
"""
from __future__ import annotations

import dataclasses
import functools  # noqa: F401  (a name the cases may use)
from typing import NamedTuple  # noqa: F401  (a name the cases may use)

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .corpus import error_case


# ====================================================================== vmap
@error_case(family="vmap", fix="vmap-in-axes-entries", raises="ValueError",
            source="https://github.com/flo-schu/pymob/issues/161",
            line="return jax.vmap(decay, in_axes=(0, 0, None, None))(c0, rates, times)",
            fixed="return jax.vmap(decay, in_axes=(0, 0, None))(c0, rates, times)",
            args=lambda: (jnp.array([1.0, 2.0, 3.0]), jnp.array([0.1, 0.5, 1.0]),
                          jnp.linspace(0.0, 2.0, 5)))
def concentration_curves(c0, rates, times):
    def decay(start, k, t):
        return start * jnp.exp(-k * t)
    return jax.vmap(decay, in_axes=(0, 0, None, None))(c0, rates, times)


@error_case(family="vmap", fix="vmap-in-axes-none", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/24406",
            line="return jax.vmap(scaled_error)(preds, targets, scale=feature_scale)",
            fixed="return jax.vmap(scaled_error, in_axes=(0, 0, None))(preds, targets, feature_scale)",
            args=lambda: (jnp.ones((4, 3)), jnp.zeros((4, 3)), jnp.array([1.0, 2.0, 0.5])))
def per_row_error(preds, targets, feature_scale):
    def scaled_error(p, t, scale):
        return jnp.sum(((p - t) * scale) ** 2)
    return jax.vmap(scaled_error)(preds, targets, scale=feature_scale)


@error_case(family="vmap", fix="vmap-in-axes-entries", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/39450",
            line="return jax.vmap(attend_one, in_axes=(0, None, None))(queries, memory=memory, values=values)",
            fixed="return jax.vmap(attend_one, in_axes=(0, None, None))(queries, memory, values)",
            args=lambda: (jnp.ones((5, 4)), jnp.ones((6, 4)), jnp.ones((6, 2))))
def attention(queries, memory, values):
    def attend_one(q, memory, values):
        weights = jax.nn.softmax(memory @ q)
        return weights @ values
    return jax.vmap(attend_one, in_axes=(0, None, None))(queries, memory=memory, values=values)


@error_case(family="vmap", fix="vmap-out-axes", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/3613",
            line="return jax.vmap(standardize, out_axes=(0, 0))(batch)",
            fixed="return jax.vmap(standardize, out_axes=0)(batch)",
            args=lambda: (jnp.arange(12.0).reshape(4, 3),))
def standardized_rows(batch):
    def standardize(row):
        return (row - row.mean()) / (row.std() + 1e-6)
    return jax.vmap(standardize, out_axes=(0, 0))(batch)


@error_case(family="vmap", fix="vmap-in-axes-none", raises="ValueError",
            source="https://github.com/patrick-kidger/equinox/issues/278",
            line="return jax.vmap(member_output, in_axes=(0, None))(ensemble, x)",
            fixed="return jax.vmap(member_output, in_axes=({'w': 0, 'b': 0, 'temperature': None}, None))(ensemble, x)",
            args=lambda: ({"w": jnp.ones((8, 3, 2)), "b": jnp.zeros((8, 2)), "temperature": 2.0},
                          jnp.ones(3)))
def ensemble_outputs(ensemble, x):
    def member_output(params, x):
        return jnp.tanh((x @ params['w'] + params['b']) / params['temperature'])
    return jax.vmap(member_output, in_axes=(0, None))(ensemble, x)


# ====================================================================== grad
@error_case(family="grad", fix="grad-scalar", raises="TypeError",
            source="https://github.com/MilesCranmer/lagrangian_nns/issues/6",
            line="return jax.grad(lagrangian, 1)(q, q_dot)",
            fixed="return jax.grad(lambda a, b: jnp.sum(lagrangian(a, b)), 1)(q, q_dot)",
            args=lambda: ({"w": jnp.full((4, 1), 0.1)}, jnp.array([0.1, 0.2]), jnp.array([0.3, -0.1])))
def generalized_momentum(params, q, q_dot):
    def lagrangian(q, v):
        state = jnp.concatenate([q, v])
        return jnp.tanh(state) @ params['w']
    return jax.grad(lagrangian, 1)(q, q_dot)


@error_case(family="grad", fix="grad-has-aux", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/1105",
            line="grads, stats = jax.grad(mse, has_aux=True)(w, xs, ys)",
            fixed="grads, stats = jax.grad(mse)(w, xs, ys), None",
            args=lambda: (jnp.ones(3), jnp.ones((6, 3)), jnp.zeros(6)))
def regression_step(w, xs, ys):
    def mse(w, xs, ys):
        err = xs @ w - ys
        return jnp.mean(err ** 2)
    grads, stats = jax.grad(mse, has_aux=True)(w, xs, ys)
    return w - 0.1 * grads, stats


@error_case(family="grad", fix="grad-float", raises="TypeError",
            source="https://blog.51cto.com/u_15642578/9365750",
            line="return jax.grad(total, argnums=(0, 1))(weights, counts)",
            fixed="return jax.grad(total, argnums=(0, 1))(weights, [c.astype(jnp.float32) for c in counts])",
            args=lambda: ([jnp.arange(3.0), jnp.arange(1.0, 4.0)], [jnp.arange(1, 4), jnp.arange(2, 5)]))
def paired_gradients(weights, counts):
    def total(w, c):
        return jnp.sum(2 * w[0] + c[0] + 2 * w[1] + c[1])
    return jax.grad(total, argnums=(0, 1))(weights, counts)


@error_case(family="grad", fix="grad-argnums", raises="TypeError",
            source="https://github.com/google-deepmind/optax/issues/366",
            line="loss, grads = jax.value_and_grad(critic_loss)(labels, features, params)",
            fixed="loss, grads = jax.value_and_grad(critic_loss, argnums=2)(labels, features, params)",
            args=lambda: (jnp.array([0, 1, 1, 0]), jnp.ones((4, 2)), {"w": jnp.ones(2), "b": jnp.zeros(())}))
def critic_update(labels, features, params):
    def critic_loss(labels, features, params):
        value = features @ params['w'] + params['b']
        return 0.5 * jnp.mean((value - labels) ** 2)
    loss, grads = jax.value_and_grad(critic_loss)(labels, features, params)
    return loss, grads


@error_case(family="grad", fix="grad-scalar", raises="TypeError",
            source="https://openillumi.com/en/en-jax-jacobian-gradient-for-list-of-arrays",
            line="return jax.grad(layer_outputs)(gain)",
            fixed="return jax.jacobian(layer_outputs)(gain)",
            args=lambda: (1.5, jnp.ones((2, 3))))
def gain_sensitivity(gain, x):
    def layer_outputs(g):
        h = jnp.tanh(g * x)
        return [h, h ** 2, jnp.sum(h, axis=0)]
    return jax.grad(layer_outputs)(gain)


# ====================================================================== loops
@error_case(family="loops", fix="carry-dtype", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/833",
            line="return lax.while_loop(lambda n: n > 10, lambda n: n * survival, jnp.int32(population))",
            fixed="return lax.while_loop(lambda n: n > 10, lambda n: n * survival, jnp.float32(population))",
            args=lambda: (1000, 0.7))
def decline(population, survival):
    return lax.while_loop(lambda n: n > 10, lambda n: n * survival, jnp.int32(population))


@error_case(family="loops", fix="carry-shape", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/15178",
            line="total, _ = lax.scan(add_frame, jnp.float32(0.0), frames)",
            fixed="total, _ = lax.scan(add_frame, jnp.zeros((1, 1)), frames)",
            args=lambda: (jnp.ones((4, 2, 3)),))
def total_energy(frames):
    def add_frame(energy, frame):
        return energy + jnp.sum(frame ** 2, keepdims=True), None
    total, _ = lax.scan(add_frame, jnp.float32(0.0), frames)
    return total


# ====================================================================== branches
@error_case(family="branches", fix="branch-types", raises="TypeError",
            source="https://github.com/pyro-ppl/numpyro/issues/1763",
            line="return lax.cond(feeling_lazy, lazy_night, usual_night, noise)",
            fixed="return lax.cond(feeling_lazy, lazy_night, lambda n: (6.0 + n[1], n[0] > 1.0), noise)",
            args=lambda: (True, jnp.array([0.4, 0.3])))
def hours_slept(feeling_lazy, noise):
    def lazy_night(n):
        ignored_alarm = n[0] > 0.2
        return 8.0 + 2.0 * ignored_alarm + n[1], ignored_alarm

    def usual_night(n):
        return 6.0 + n[1]
    return lax.cond(feeling_lazy, lazy_night, usual_night, noise)


@error_case(family="branches", fix="branch-types", raises="TypeError",
            source="https://github.com/robfiras/loco-mujoco/issues/87",
            line="return lax.cond(step % 10 == 0, evaluate, no_metrics, rollout)",
            fixed="return lax.cond(step % 10 == 0, evaluate, lambda r: {'distance': jnp.zeros(r.shape[0]), 'reward': jnp.float32(0.0)}, rollout)",
            args=lambda: (jnp.int32(20), jnp.ones((5, 3))))
def validation_metrics(step, rollout):
    def evaluate(r):
        return {'distance': jnp.linalg.norm(r, axis=1), 'reward': jnp.mean(r)}

    def no_metrics(r):
        return {'distance': jnp.float32(0.0), 'reward': jnp.float32(0.0)}
    return lax.cond(step % 10 == 0, evaluate, no_metrics, rollout)


@error_case(family="branches", fix="branch-types", raises="TypeError",
            source="https://github.com/climate-analytics-lab/jax-gcm/issues/797",
            line="return lax.cond(over_ocean, ocean_flux, land_flux, temperature)",
            fixed="return lax.cond(over_ocean, ocean_flux, lambda t: land_flux(t).astype(t.dtype), temperature)",
            args=lambda: (False, jnp.array([288.0, 291.5, 295.0])))
def surface_flux(over_ocean, temperature):
    def ocean_flux(t):
        return 0.8 * (t - 290.0)

    def land_flux(t):
        return (0.5 * (t - 285.0)).astype(jnp.bfloat16)
    return lax.cond(over_ocean, ocean_flux, land_flux, temperature)


@error_case(family="branches", fix="scalar-pred", raises="TracerBoolConversionError",
            source="https://github.com/jax-ml/jax/issues/1076",
            line="return 0.0 if jnp.abs(d) > width else jnp.exp(-d ** 2)",
            fixed="return jnp.where(jnp.abs(d) > width, 0.0, jnp.exp(-d ** 2))",
            args=lambda: (jnp.array([-0.5, 0.1, 0.05, 0.3]), 0.18))
def truncated_kernel(distances, width):
    def kernel(d):
        return 0.0 if jnp.abs(d) > width else jnp.exp(-d ** 2)
    return jax.vmap(kernel)(distances)


# ====================================================================== pytrees
@error_case(family="pytrees", fix="tree-same-structure", raises="ValueError",
            source="https://github.com/google-deepmind/optax/issues/1148",
            line="return jax.tree.map(lambda p, lr: p * lr, grads, layer_rates)",
            fixed="return jax.tree.map(lambda p, lr: p * lr, grads, {k: {n: layer_rates[k] for n in v} for k, v in grads.items()})",
            args=lambda: ({"conv": {"w": jnp.ones((3, 3)), "b": jnp.zeros(3)},
                           "head": {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)}},
                          {"conv": 0.01, "head": 0.1}))
def per_layer_updates(grads, layer_rates):
    return jax.tree.map(lambda p, lr: p * lr, grads, layer_rates)


@error_case(family="pytrees", fix="register-pytree", raises="TypeError",
            source="https://github.com/beartype/beartype/issues/185",
            line="return jax.vmap(lambda y: shifted(prior, y))(data)",
            fixed="return jax.vmap(lambda y: shifted(jax.tree_util.register_dataclass(Params)(prior.mean), y))(data)",
            args=lambda: (2.0, jnp.ones(10)))
def shifted_means(mean, data):
    @dataclasses.dataclass(frozen=True)
    class Params:
        mean: jax.Array

    prior = Params(mean)

    def shifted(p, y):
        return Params(p.mean + y)
    return jax.vmap(lambda y: shifted(prior, y))(data)


# ====================================================================== keys
@error_case(family="keys", fix="prng-key", raises="TypeError",
            source="https://github.com/tensorflow/probability/pull/2032",
            line="return jax.random.categorical(seed, logits, shape=(num_samples,))",
            fixed="return jax.random.categorical(jax.random.key(seed), logits, shape=(num_samples,))",
            args=lambda: (jnp.log(jnp.array([0.2, 0.5, 0.3])), 4, 123))
def draw_classes(logits, num_samples, seed):
    return jax.random.categorical(seed, logits, shape=(num_samples,))


@error_case(family="keys", fix="key-no-arith", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/18382",
            line="noise = jax.random.normal(key + epoch, (n,))",
            fixed="noise = jax.random.normal(jax.random.fold_in(key, epoch), (n,))",
            args=lambda: (3, 4))
def epoch_noise(epoch, n):
    key = jax.random.key(42)
    noise = jax.random.normal(key + epoch, (n,))
    return noise


@error_case(family="keys", fix="key-one-style", raises="IndexError",
            source="https://github.com/mlcommons/algorithmic-efficiency/issues/815",
            line="shuffle_seed = int(rng[0])",
            fixed="shuffle_seed = int(jax.random.key_data(rng)[0])",
            args=lambda: (jnp.arange(10.0), 0))
def shuffled_examples(data, seed):
    rng = jax.random.key(seed)
    shuffle_seed = int(rng[0])
    order = np.random.default_rng(shuffle_seed).permutation(data.shape[0])
    return data[order]


@error_case(family="keys", fix="key-one-style", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/16028",
            line="layer_key = jax.random.PRNGKey(layer_seed)",
            fixed="layer_key = layer_seed",
            args=lambda: (3, 2))
def init_layer(n_in, n_out):
    layer_seed = jax.random.split(jax.random.key(0))[0]
    layer_key = jax.random.PRNGKey(layer_seed)
    return jax.random.normal(layer_key, (n_in, n_out)) / jnp.sqrt(n_in)


# ====================================================================== custom rules
@error_case(family="custom-rules", fix="bwd-tuple", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/4308",
            line="return jax.grad(lambda v: noisy_shift(v, seed_bits))(x)",
            fixed="noisy_shift.defvjp(fwd, lambda res, g: (g, None)); return jax.grad(lambda v: noisy_shift(v, seed_bits))(x)",
            args=lambda: (1.5, np.array([0, 7], dtype=np.uint32)))
def shift_gradient(x, seed_bits):
    @jax.custom_vjp
    def noisy_shift(v, bits):
        noise = jax.random.normal(jax.random.wrap_key_data(bits), ())
        return v + 0.1 * noise

    def fwd(v, bits):
        return noisy_shift(v, bits), None

    def bwd(res, g):
        return (g,)
    noisy_shift.defvjp(fwd, bwd)
    return jax.grad(lambda v: noisy_shift(v, seed_bits))(x)


@error_case(family="custom-rules", fix="bwd-shape", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/18859",
            line="return jax.grad(energy, argnums=1)(state, forcing)",
            fixed="energy.defvjp(fwd, lambda res, g: (None, g * jnp.sum(res[0]['u'] ** 2))); return jax.grad(energy, argnums=1)(state, forcing)",
            args=lambda: ({"u": jnp.array([1.0, 2.0]), "v": jnp.array([0.5, 0.5])}, 0.3))
def forcing_sensitivity(state, forcing):
    @jax.custom_vjp
    def energy(state, forcing):
        return jnp.sum(state['u'] ** 2) * forcing

    def fwd(state, forcing):
        return energy(state, forcing), (state, forcing)

    def bwd(res, g):
        state, _ = res
        return 0.0, g * jnp.sum(state['u'] ** 2)
    energy.defvjp(fwd, bwd)
    return jax.grad(energy, argnums=1)(state, forcing)


@error_case(family="custom-rules", fix="jvp-pair", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/3201",
            line="return jax.jvp(row_means, (mat,), (direction,))",
            fixed="row_means.defjvp(lambda pr, ta: (row_means(pr[0]), jnp.mean(ta[0], axis=1, keepdims=True))); return jax.jvp(row_means, (mat,), (direction,))",
            args=lambda: (jnp.arange(6.0).reshape(2, 3), jnp.ones((2, 3))))
def row_means_jvp(mat, direction):
    @jax.custom_jvp
    def row_means(m):
        return jnp.mean(m, axis=1, keepdims=True)

    @row_means.defjvp
    def row_means_rule(primals, tangents):
        (m,), (dm,) = primals, tangents
        return row_means(m), jnp.mean(dm, axis=1)
    return jax.jvp(row_means, (mat,), (direction,))


# ====================================================================== shapes
@error_case(family="shapes", fix="concat-shapes", raises="TypeError",
            source="https://github.com/sokrypton/ColabDesign/issues/1",
            line="msa = jnp.concatenate([binder, target_msa], axis=0)",
            fixed="msa = jnp.concatenate([binder[None], target_msa], axis=0)",
            args=lambda: (jnp.full((7, 20), 0.05), jnp.full((3, 7, 20), 0.05)))
def paired_msa(binder, target_msa):
    msa = jnp.concatenate([binder, target_msa], axis=0)
    return msa.mean(axis=0)


@error_case(family="shapes", fix="reshape-size", raises="TypeError",
            source="https://github.com/spinsphotonics/pjz/issues/14",
            line="tiles = grid.reshape(rows // (2 * m), 2 * m, cols // (2 * m), 2 * m)",
            fixed="tiles = grid[:rows // (2 * m) * 2 * m, :cols // (2 * m) * 2 * m].reshape(rows // (2 * m), 2 * m, cols // (2 * m), 2 * m)",
            args=lambda: (jnp.ones((8, 7)), 2))
def tile_means(grid, m):
    rows, cols = grid.shape
    tiles = grid.reshape(rows // (2 * m), 2 * m, cols // (2 * m), 2 * m)
    return tiles.mean(axis=(1, 3))


@error_case(family="shapes", fix="broadcast-axes", raises="ValueError",
            source="https://github.com/jeertmans/DiffeRT/pull/138",
            line="return directions / jnp.linalg.norm(directions, axis=-1)",
            fixed="return directions / jnp.linalg.norm(directions, axis=-1, keepdims=True)",
            args=lambda: (jnp.arange(12.0).reshape(4, 3) + 1.0,))
def unit_directions(directions):
    return directions / jnp.linalg.norm(directions, axis=-1)
