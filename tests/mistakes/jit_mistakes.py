"""Real jit mistakes, each reduced from a public JAX issue or discussion to a small function.

Every function below fails under `jax.jit` on the pinned jax (0.10.2) with the exception named in
`raises`, at the line quoted in `line`. `fix` is the kind of fix the maintainers (or the accepted
answer) gave; `source` links the thread. The code is written fresh for this corpus: names and
numbers differ from the threads, the mistake is the same.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .corpus import jit_case

x4 = lambda: jnp.array([1.0, -2.0, 3.0, -4.0])  # noqa: E731


# ------------------------------------------------------------------ shape arithmetic done with jnp
@jit_case(pattern="jnp shape arithmetic", fix="numpy-shape-math", raises="TypeError",
          source="https://github.com/jax-ml/jax/issues/4449",
          line="return jnp.ones((count,))", args=lambda: (jnp.ones(3),))
def ones_one_longer(arr):
    count = jnp.add(arr.size, 1)
    return jnp.ones((count,))


@jit_case(pattern="jnp shape arithmetic", fix="numpy-shape-math", raises="ConcretizationTypeError",
          source="https://github.com/jax-ml/jax/issues/4798",
          line="return jnp.arange(n_keep)", args=lambda: (4, jnp.arange(10)), static_argnums=(0,))
def first_indices(n, x):
    n_keep = jnp.minimum(jnp.shape(x)[0], n)
    return jnp.arange(n_keep)


@jit_case(pattern="jnp shape arithmetic", fix="numpy-shape-math", raises="ConcretizationTypeError",
          source="https://github.com/jax-ml/jax/issues/5208",
          line="return jnp.linspace(t0, t1, steps + 1)", args=lambda: (jnp.zeros(2),))
def time_grid(x):
    t0, t1, dt = 0.0, 2.0, 0.25
    steps = jnp.maximum(jnp.abs((t1 - t0) / dt), 1)
    return jnp.linspace(t0, t1, steps + 1)


@jit_case(pattern="jnp shape arithmetic", fix="numpy-shape-math", raises="ConcretizationTypeError",
          source="https://github.com/asantini29/phentax/pull/28",
          line="n = int(jnp.ceil(duration / 0.1))", args=lambda: (jnp.ones(3), 1.25),
          static_argnums=(1,))
def padded_signal(signal, duration):
    n = int(jnp.ceil(duration / 0.1))
    return jnp.zeros(n).at[:3].set(signal)


@jit_case(pattern="jnp shape arithmetic", fix="numpy-shape-math", raises="TypeError",
          source="https://github.com/jax-ml/jax/pull/3236",
          line="return x.reshape(x.shape[0], jnp.prod(jnp.array(x.shape[1:])))",
          args=lambda: (jnp.ones((2, 3, 4)),))
def flatten_features(x):
    return x.reshape(x.shape[0], jnp.prod(jnp.array(x.shape[1:])))


@jit_case(pattern="jnp shape arithmetic", fix="numpy-shape-math", raises="TypeError",
          source="https://github.com/jax-ml/jax/issues/4449",
          line="return v.reshape(side, side)", args=lambda: (jnp.arange(16.0),))
def as_square(v):
    side = jnp.sqrt(v.size).astype(int)
    return v.reshape(side, side)


@jit_case(pattern="jnp shape arithmetic", fix="numpy-shape-math", raises="ConcretizationTypeError",
          source="https://github.com/jax-ml/jax/issues/10550",
          line="size = int(2 ** jnp.ceil(jnp.log2(x.shape[0])))", args=lambda: (jnp.ones(5),))
def pad_to_power_of_two(x):
    size = int(2 ** jnp.ceil(jnp.log2(x.shape[0])))
    return jnp.pad(x, (0, size - x.shape[0]))


# ------------------------------------------------------------------ Python ints that set sizes
@jit_case(pattern="int argument sets a size", fix="static-arg", raises="ConcretizationTypeError",
          source="https://github.com/jax-ml/jax/pull/3656",
          line="return jax.nn.one_hot(labels, num_classes)",
          args=lambda: (jnp.array([0, 2, 1]), 3))
def encode_labels(labels, num_classes):
    return jax.nn.one_hot(labels, num_classes)


@jit_case(pattern="int argument sets a size", fix="static-arg", raises="ConcretizationTypeError",
          source="https://github.com/jax-ml/jax/pull/5558",
          line="return jnp.pad(img, window)", args=lambda: (jnp.ones((4, 4)), 2))
def pad_image(img, window):
    return jnp.pad(img, window)


@jit_case(pattern="int argument sets a size", fix="static-arg", raises="TypeError",
          source="https://github.com/jax-ml/jax/issues/16994",
          line="return jnp.tile(block, reps)", args=lambda: (jnp.ones((1, 2)), 3))
def repeat_block(block, reps):
    return jnp.tile(block, reps)


@jit_case(pattern="int argument sets a size", fix="static-arg", raises="TypeError",
          source="https://github.com/jax-ml/jax/pull/689",
          line="w = jax.random.normal(key, (dim, n))", args=lambda: (jax.random.key(0), 5, 3))
def random_features(key, n, dim):
    w = jax.random.normal(key, (dim, n))
    return jnp.cos(w)


@jit_case(pattern="int argument sets a size", fix="static-arg", raises="ConcretizationTypeError",
          source="https://github.com/jax-ml/jax/issues/5186",
          line="grid = jnp.arange(npix) - npix / 2", args=lambda: (jnp.ones((4, 5)), 3))
def pixel_grid(plane, npix):
    grid = jnp.arange(npix) - npix / 2
    return plane.sum() * grid


@jit_case(pattern="int argument sets a size", fix="static-arg", raises="TypeError",
          source="https://github.com/jax-ml/jax/issues/1629",
          line="return jnp.reshape(flat, (rows, m, n), order='F')",
          args=lambda: (jnp.ones((2, 6)), 2, 3))
def unflatten_images(flat, m, n):
    rows = flat.shape[0]
    return jnp.reshape(flat, (rows, m, n), order='F')


@jit_case(pattern="int argument sets a size", fix="static-arg", raises="ConcretizationTypeError",
          source="https://github.com/jax-ml/jax/pull/2508",
          line="return jnp.split(x, parts)", args=lambda: (jnp.arange(6.0), 3))
def chunks(x, parts):
    return jnp.split(x, parts)


@jit_case(pattern="int argument sets a size", fix="static-arg", raises="ConcretizationTypeError",
          source="https://github.com/jax-ml/jax/issues/3696",
          line="return jnp.repeat(x, times)", args=lambda: (jnp.arange(3.0), 2))
def stretch(x, times):
    return jnp.repeat(x, times)


@jit_case(pattern="int argument sets a size", fix="static-arg", raises="TypeError",
          source="https://github.com/jax-ml/jax/issues/648",
          line="noise = jax.random.uniform(key, (n_samples,))",
          args=lambda: (jax.random.key(1), 10))
def sample_uniform(key, n_samples):
    noise = jax.random.uniform(key, (n_samples,))
    return noise.mean()


@jit_case(pattern="int argument steers control flow", fix="static-arg",
          raises="TracerBoolConversionError",
          source="https://github.com/patrick-kidger/diffrax/issues/379",
          line="if max_steps == 1:", args=lambda: (jnp.ones(3), 1))
def solve_steps(y, max_steps):
    if max_steps == 1:
        return y * 0.5
    return lax.fori_loop(0, max_steps, lambda i, v: v * 0.5, y)


@jit_case(pattern="int argument steers control flow", fix="static-arg",
          raises="TracerBoolConversionError",
          source="https://github.com/google-deepmind/optax/pull/1730",
          line="if x.shape[0] < min_dim:", args=lambda: (jnp.ones((4, 4)), 8))
def factored_rows(x, min_dim):
    if x.shape[0] < min_dim:
        return x.sum()
    return x.sum(axis=0)


# ------------------------------------------------------------------ and / or / not on tracers
@jit_case(pattern="and/or on traced values", fix="logical", raises="TracerBoolConversionError",
          source="https://github.com/jax-ml/jax/issues/3761",
          line="return lax.cond(x < 0 and y < 0, lambda v: v - 5.0, lambda v: v + 1.0, x)",
          args=lambda: (0.3, 0.1))
def both_negative(x, y):
    return lax.cond(x < 0 and y < 0, lambda v: v - 5.0, lambda v: v + 1.0, x)


@jit_case(pattern="and/or on traced values", fix="logical", raises="TracerBoolConversionError",
          source="https://github.com/jax-ml/jax/issues/24683",
          line="inside = (x > lo) and (x <= hi)", args=lambda: (jnp.float32(1.0), 2.0, 3.0))
def in_interval(x, lo, hi):
    inside = (x > lo) and (x <= hi)
    return jnp.where(inside, 1.0, 0.0)


@jit_case(pattern="and/or on traced values", fix="logical", raises="TracerBoolConversionError",
          source="https://github.com/jax-ml/jax/issues/2708",
          line="return not jnp.allclose(v, 10.0)", args=lambda: (0.0,))
def count_to_ten(v0):
    def keep_going(v):
        return not jnp.allclose(v, 10.0)
    return lax.while_loop(keep_going, lambda v: v + 1.0, v0)


@jit_case(pattern="and/or on traced values", fix="logical", raises="TracerBoolConversionError",
          source="https://github.com/GalacticDynamics/galax/pull/692",
          line="if radius < 0 or mass < 0:", args=lambda: (jnp.float32(1.0), jnp.float32(2.0)))
def check_potential(radius, mass):
    if radius < 0 or mass < 0:
        return jnp.nan
    return mass / radius


@jit_case(pattern="and/or on traced values", fix="logical", raises="TracerBoolConversionError",
          source="https://github.com/jax-ml/jax/issues/1461",
          line="return lax.cond(ready and valid, lambda p: p[0], lambda p: p[1], (a, b))",
          args=lambda: (True, True, 1.0, 2.0))
def pick(ready, valid, a, b):
    return lax.cond(ready and valid, lambda p: p[0], lambda p: p[1], (a, b))


# ------------------------------------------------------------------ assert on tracers
@jit_case(pattern="assert on a traced value", fix="checkify", raises="TracerBoolConversionError",
          source="https://github.com/jax-ml/jax/issues/2273",
          line="assert jnp.all(jnp.isfinite(x))", args=lambda: (x4(),))
def finite_sum(x):
    assert jnp.all(jnp.isfinite(x))
    return x.sum()


@jit_case(pattern="assert on a traced value", fix="checkify", raises="TracerBoolConversionError",
          source="https://github.com/apple/axlearn/issues/815",
          line="assert bool(jnp.isfinite(x).all()), 'non-finite values'", args=lambda: (x4(),))
def checked_layer(x):
    assert bool(jnp.isfinite(x).all()), 'non-finite values'
    return jnp.tanh(x)


@jit_case(pattern="assert on a traced value", fix="checkify", raises="TracerBoolConversionError",
          source="https://github.com/asantini29/phentax/pull/28",
          line="assert jnp.all(jnp.abs(spins) <= 1.0), 'spin out of range'",
          args=lambda: (jnp.array([0.1, 0.5]),))
def spin_energy(spins):
    assert jnp.all(jnp.abs(spins) <= 1.0), 'spin out of range'
    return jnp.sum(spins ** 2)


# ------------------------------------------------------------------ a Python list indexed by a tracer
@jit_case(pattern="list indexed by a tracer", fix="asarray-index",
          raises="TracerIntegerConversionError", source="https://github.com/jax-ml/jax/pull/5853",
          line="return weights[i] * x", args=lambda: (jnp.ones(2), 1))
def weighted(x, i):
    weights = [0.5, 1.0, 2.0]
    return weights[i] * x


@jit_case(pattern="list indexed by a tracer", fix="asarray-index",
          raises="TracerIntegerConversionError",
          source="https://github.com/EiffL/Quarks2CosmosDataChallenge/pull/6",
          line="scale = SCALES[level]", args=lambda: (jnp.ones(3), 2))
def decode_level(z, level):
    scale = SCALES[level]
    return z * scale


SCALES = (1.0, 0.5, 0.25, 0.125)


@jit_case(pattern="list indexed by a tracer", fix="asarray-index",
          raises="TracerArrayConversionError", source="https://github.com/google-deepmind/distrax/issues/291",
          line="return table[idx]", args=lambda: (jnp.array([0, 2]),))
def lookup(idx):
    table = np.arange(10.0) ** 2
    return table[idx]


@jit_case(pattern="list indexed by a tracer", fix="asarray-index", raises="TypeError",
          source="https://github.com/jax-ml/jax/issues/648",
          line="return rates[kind] * x", args=lambda: (jnp.ones(2), 1))
def rate_by_kind(x, kind):
    rates = {0: 0.1, 1: 0.2, 2: 0.4}
    return rates[kind] * x


# ------------------------------------------------------------------ a traced branch index
@jit_case(pattern="traced branch index", fix="switch", raises="TracerIntegerConversionError",
          source="https://github.com/jax-ml/jax/issues/13351",
          line="return layers[k](x)", args=lambda: (jnp.ones(3), jnp.int32(1)))
def apply_layer(x, k):
    layers = [jnp.sin, jnp.cos, jnp.tanh]
    return layers[k](x)


@jit_case(pattern="traced branch index", fix="switch", raises="ConcretizationTypeError",
          source="https://github.com/jax-ml/jax/pull/25179",
          line="return branches[int(mode)](x)", args=lambda: (jnp.ones(3), jnp.int32(0)))
def by_mode(x, mode):
    branches = (jax.nn.relu, jax.nn.sigmoid)
    return branches[int(mode)](x)


# ------------------------------------------------------------------ a sample of random size
@jit_case(pattern="sample of random size", fix="pad-mask", raises="TypeError",
          source="https://github.com/brainpy/BrainPy/issues/607",
          line="return lax.dynamic_slice(out, (0,), (stop,))",
          args=lambda: (jnp.arange(10.0), jnp.array([3, 5])))
def period(out, gt):
    stop = gt[0]
    return lax.dynamic_slice(out, (0,), (stop,))


@jit_case(pattern="sample of random size", fix="pad-mask", raises="TypeError",
          source="https://github.com/jax-ml/jax/issues/803",
          line="return jax.random.normal(k2, (count,))", args=lambda: (jax.random.key(3),))
def random_count(key):
    k1, k2 = jax.random.split(key)
    count = jax.random.poisson(k1, 4.0)
    return jax.random.normal(k2, (count,))


@jit_case(pattern="sample of random size", fix="pad-mask", raises="TracerBoolConversionError",
          source="https://github.com/jax-ml/jax/issues/9548",
          line="return jax.random.choice(k2, pool, (k,), replace=False)",
          args=lambda: (jax.random.key(5), jnp.arange(10)))
def random_subset(key, pool):
    k1, k2 = jax.random.split(key)
    k = jax.random.randint(k1, (), 1, 5)
    return jax.random.choice(k2, pool, (k,), replace=False)


# ------------------------------------------------------------------ the classics
@jit_case(pattern="if/while on a traced value", fix="while_loop", raises="TracerBoolConversionError",
          source="https://github.com/secretflow/spu/issues/148",
          line="if jnp.max(jnp.abs(c - old)) < 1e-4:", args=lambda: (jnp.ones(3),))
def iterate_until_stable(c):
    for _ in range(50):
        old = c
        c = 0.5 * (c + 1.0 / c)
        if jnp.max(jnp.abs(c - old)) < 1e-4:
            break
    return c


@jit_case(pattern="if/while on a traced value", fix="while_loop", raises="TracerBoolConversionError",
          source="https://github.com/jax-ml/jax/issues/24740",
          line="while jnp.abs(z) <= 2.0 and n < limit:", args=lambda: (jnp.complex64(0.3 + 0.2j), 20))
def escape_time(c, limit):
    z, n = 0j, 0
    while jnp.abs(z) <= 2.0 and n < limit:
        z = z * z + c
        n += 1
    return n


@jit_case(pattern="if/while on a traced value", fix="cond", raises="TracerBoolConversionError",
          source="https://github.com/google/flax/pull/1903",
          line="if step < warmup:", args=lambda: (jnp.int32(3),))
def triangular_lr(step):
    warmup = 10
    if step < warmup:
        return 0.1 * step / warmup
    return 0.1


@jit_case(pattern="range over a traced value", fix="fori_loop", raises="TracerIntegerConversionError",
          source="https://github.com/jax-ml/jax/issues/25186",
          line="for _ in range(n_steps - 1):", args=lambda: (jnp.ones(3), jnp.int32(5)))
def euler(y, n_steps):
    for _ in range(n_steps - 1):
        y = y + 0.1 * y
    return y


@jit_case(pattern="range over a traced value", fix="fori_loop", raises="TracerIntegerConversionError",
          source="https://github.com/QuantEcon/lecture-jax/issues/95",
          line="for _ in range(num_iter):", args=lambda: (jnp.eye(2), 10))
def power_iteration(m, num_iter):
    v = jnp.ones(m.shape[0])
    for _ in range(num_iter):
        v = m @ v / jnp.linalg.norm(m @ v)
    return v


@jit_case(pattern="boolean mask indexing", fix="where", raises="NonConcreteBooleanIndexError",
          source="https://github.com/probml/probml-notebooks/pull/70",
          line="return x.at[x < 0].set(0.0)", args=lambda: (x4(),))
def clip_negative(x):
    return x.at[x < 0].set(0.0)


@jit_case(pattern="boolean mask indexing", fix="where", raises="NonConcreteBooleanIndexError",
          source="https://github.com/secretflow/secretflow/issues/406",
          line="return data[labels == 0].mean(axis=0)",
          args=lambda: (jnp.ones((4, 2)), jnp.array([0, 1, 0, 1])))
def cluster_mean(data, labels):
    return data[labels == 0].mean(axis=0)


@jit_case(pattern="nonzero without size", fix="size", raises="ConcretizationTypeError",
          source="https://github.com/google/jaxonnxruntime/issues/29",
          line="return jnp.stack(jnp.nonzero(x))", args=lambda: (jnp.array([0, 1, 1, 0]),))
def nonzero_indices(x):
    return jnp.stack(jnp.nonzero(x))


@jit_case(pattern="nonzero without size", fix="size", raises="ConcretizationTypeError",
          source="https://github.com/jax-ml/jax/pull/6915",
          line="return jnp.argwhere(x > 0)", args=lambda: (x4(),))
def positive_positions(x):
    return jnp.argwhere(x > 0)


@jit_case(pattern="nonzero without size", fix="size", raises="ConcretizationTypeError",
          source="https://github.com/jax-ml/jax/pull/6912",
          line="return jnp.unique(labels)", args=lambda: (jnp.array([3, 1, 3, 2]),))
def distinct(labels):
    return jnp.unique(labels)


@jit_case(pattern="NumPy on a tracer", fix="jnp", raises="TracerArrayConversionError",
          source="https://github.com/wesselb/stheno/issues/21",
          line="keep = np.isnan(y)", args=lambda: (x4(),))
def drop_missing(y):
    keep = np.isnan(y)
    return jnp.where(keep, 0.0, y)


@jit_case(pattern="NumPy on a tracer", fix="jnp", raises="TracerArrayConversionError",
          source="https://github.com/mpi4jax/mpi4jax/issues/20",
          line="return np.exp(x) / np.exp(x).sum()", args=lambda: (x4(),))
def softmax_np(x):
    return np.exp(x) / np.exp(x).sum()


@jit_case(pattern="float()/.item() on a tracer", fix="stay-jnp", raises="ConcretizationTypeError",
          source="https://github.com/quantumlib/OpenFermion/pull/1396",
          line="return float(jnp.sum(residual ** 2))", args=lambda: (x4(),))
def objective(residual):
    return float(jnp.sum(residual ** 2))


@jit_case(pattern="float()/.item() on a tracer", fix="stay-jnp", raises="ConcretizationTypeError",
          source="https://github.com/blackjax-devs/blackjax/issues/1029",
          line="floor = max(0.1, float(step) * 3)", args=lambda: (jnp.float32(0.2),))
def trajectory_floor(step):
    floor = max(0.1, float(step) * 3)
    return step + floor


@jit_case(pattern="float()/.item() on a tracer", fix="stay-jnp", raises="ConcretizationTypeError",
          source="https://github.com/gdsfactory/klujax/issues/34",
          line="return x * x.sum().item()", args=lambda: (x4(),))
def scale_by_total(x):
    return x * x.sum().item()


_saved = {}


def _remember(x):
    _saved["last"] = x
    return x * 2


@jit_case(pattern="leaked tracer", fix="pure", raises="UnexpectedTracerError",
          source="https://github.com/jax-ml/jax/pull/4312",
          line='_saved["last"] = x', args=lambda: (x4(),),
          note="JAX raises after the trace ends, with no frame of the student's; the line named is "
               "the store the fix removes (found from JAX's 'value leaked was _remember at ...')")
def reuse_saved(x):
    jax.jit(_remember)(x)
    return x + _saved['last']


@jit_case(pattern="print of a tracer", fix="debug-print", raises="TypeError",
          source="https://github.com/jax-ml/jax/pull/11770",
          line="print(f'loss {loss:.3f}')", args=lambda: (x4(),))
def loss_with_log(x):
    loss = jnp.mean(x ** 2)
    print(f'loss {loss:.3f}')
    return loss


@jit_case(pattern="print of a tracer", fix="debug-print", raises="ConcretizationTypeError",
          source="https://github.com/jax-ml/jax/issues/196",
          line="print('params', float(w.sum()))", args=lambda: (x4(),))
def update_with_print(w):
    print('params', float(w.sum()))
    return w - 0.1


@jit_case(pattern="traced slice bounds", fix="dynamic_slice", raises="IndexError",
          source="https://github.com/jax-ml/jax/issues/7222",
          line="return x[i:i + 2]", args=lambda: (jnp.arange(6.0), 1))
def window(x, i):
    return x[i:i + 2]


@jit_case(pattern="traced slice bounds", fix="dynamic_slice", raises="IndexError",
          source="https://github.com/jax-ml/jax/issues/204",
          line="return seq[start:start + 3].sum()", args=lambda: (jnp.arange(10.0), jnp.int32(2)))
def window_sum(seq, start):
    return seq[start:start + 3].sum()


# ------------------------------------------------------------------ unhashable static arguments
@jit_case(pattern="unhashable static argument", fix="hashable-static", raises="ValueError",
          source="https://github.com/genjax-community/genjax/issues/1179",
          line="return x * sizes[0]", args=lambda: (jnp.ones(2), [2, 3]), static_argnums=(1,))
def scale_first(x, sizes):
    return x * sizes[0]


@dataclass
class SolverConfig:
    tolerance: float
    iterations: int


@jit_case(pattern="unhashable static argument", fix="hashable-static", raises="ValueError",
          source="https://github.com/jax-ml/jax/issues/3701",
          line="return x * config.tolerance", args=lambda: (jnp.ones(2), SolverConfig(0.1, 3)),
          static_argnums=(1,))
def configured(x, config):
    return x * config.tolerance


@jit_case(pattern="unhashable static argument", fix="hashable-static", raises="ValueError",
          source="https://github.com/jax-ml/jax/issues/883",
          line="return x + v.sum()", args=lambda: (jnp.ones(2), jnp.array([1, 2, 3])),
          static_argnums=(1,))
def add_static_array(x, v):
    return x + v.sum()


@jit_case(pattern="jnp shape arithmetic", fix="numpy-shape-math", raises="ConcretizationTypeError",
          source="https://github.com/jax-ml/jax/issues/35090",
          line="return jnp.arange(add_one(k))", args=lambda: (5,), static_argnums=(0,))
def arange_plus_one(k):
    return jnp.arange(add_one(k))


@functools.partial(jax.jit, static_argnums=(0,))
def add_one(i):
    return i + 1
