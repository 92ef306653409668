"""Real recompilation reports, each reduced to one function and the calls that retrace it.

Every case traces more than `max_traces` times over its calls on the pinned jax (0.10.2). `fix` is
the kind of fix the maintainers (or the accepted answer) gave; `source` links the thread. The code
is written fresh for this corpus.
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from .corpus import retrace_case

# ------------------------------------------------------------------ a dtype that changes
@retrace_case(pattern="dtype changes", fix="cast", source="https://github.com/ryan112358/mbi/pull/193",
              calls=lambda: [(np.array([1, 2], np.uint8), jnp.ones(4)),
                             (np.array([1, 300], np.uint16), jnp.ones(4))])
def generate_column(parents, table):
    return table[parents]


@retrace_case(pattern="dtype changes", fix="cast",
              source="https://github.com/OpenSourceEconomics/pylcm/pull/341",
              calls=lambda: [(jnp.arange(3, dtype=jnp.int16),), (jnp.arange(3, dtype=jnp.int32),)])
def next_state(state):
    return state + 1


@retrace_case(pattern="dtype changes", fix="cast", source="https://github.com/ryan112358/mbi/pull/201",
              calls=lambda: [(jnp.ones(3), 1), (jnp.ones(3), 2.5), (jnp.ones(3), 7.0)])
def normalise_total(counts, known_total):
    return counts / known_total


@retrace_case(pattern="dtype changes", fix="cast",
              source="https://github.com/jax-ml/jax/issues/4274#issuecomment-1302329406",
              calls=lambda: [(jnp.arange(4),), (jnp.ones(4),)])
def centred(v):
    return v - v.mean()


# ------------------------------------------------------------------ weak types
@retrace_case(pattern="weak type changes", fix="weak-type", source="https://github.com/jax-ml/jax/issues/3163",
              calls=lambda: [(0, 1), (jnp.int32(1), 2), (jnp.int32(3), 3)])
def accumulate(total, i):
    return total + i


@retrace_case(pattern="weak type changes", fix="weak-type", source="https://github.com/jax-ml/jax/issues/4274",
              calls=lambda: [(jnp.ones(2), 0.1), (jnp.ones(2), jnp.float32(0.09))])
def sgd(w, lr):
    return w - lr * w


@retrace_case(pattern="weak type changes", fix="weak-type", source="https://github.com/google/jaxopt/issues/451",
              calls=lambda: [((jnp.ones(2), 1.0),), ((jnp.ones(2), jnp.float32(0.5)),)])
def solver_update(state):
    params, stepsize = state
    return params * stepsize, stepsize * 0.5


@retrace_case(pattern="weak type changes", fix="weak-type",
              source="https://github.com/PlasmaControl/DESC/pull/1963",
              calls=lambda: [(jnp.ones(3), float(np.float32(2.0))), (jnp.ones(3), jnp.float32(2.0))])
def scaled_field(b, scale):
    return b * scale


# ------------------------------------------------------------------ pytree structure that changes
@retrace_case(pattern="pytree structure changes", fix="same-structure",
              source="https://github.com/jax-ml/jax/issues/2720",
              calls=lambda: [(jnp.ones(3), None), (jnp.ones(3), jnp.ones(3)), (jnp.ones(3), None)])
def add_bias(logits, bias=None):
    return logits if bias is None else logits + bias


@retrace_case(pattern="pytree structure changes", fix="same-structure",
              source="https://github.com/jax-ml/jax/pull/1242",
              calls=lambda: [(jnp.ones(3), {}), (jnp.ones(3), {"mask": jnp.ones(3)})])
def masked_total(x, extras):
    return (x * extras["mask"]).sum() if "mask" in extras else x.sum()


@retrace_case(pattern="pytree structure changes", fix="same-structure",
              source="https://github.com/genjax-community/genjax/issues/1352",
              calls=lambda: [({"y": jnp.float32(1.0)},), ({"y": jnp.float32(1.0), "z": jnp.float32(2.0)},)])
def score(trace):
    return sum(trace.values())


# ------------------------------------------------------------------ static arguments hashed by identity
class AdamLike:
    """An optimizer object without value-based equality (as optax's were)."""

    def __init__(self, lr):
        self.lr = lr

    def step(self, w):
        return w - self.lr * w


@retrace_case(pattern="static argument hashed by identity", fix="value-hash",
              source="https://github.com/google-deepmind/optax/issues/353",
              calls=lambda: [(AdamLike(0.01), jnp.ones(2)) for _ in range(3)], static_argnums=(0,))
def train_step(opt, w):
    return opt.step(w)


class Grid:
    """Defines `__hash__` by value but keeps identity `__eq__`."""

    def __init__(self, n):
        self.n = n

    def __hash__(self):
        return hash(self.n)


@retrace_case(pattern="static argument hashed by identity", fix="value-hash",
              source="https://github.com/jax-ml/jax/issues/28418",
              calls=lambda: [(Grid(4), jnp.ones(4)), (Grid(4), jnp.ones(4))], static_argnums=(0,))
def on_grid(grid, x):
    return x * grid.n


@retrace_case(pattern="static argument hashed by identity", fix="define-once",
              source="https://github.com/jax-ml/jax/issues/9288",
              calls=lambda: [(lambda v: v + 1.0, jnp.ones(2)) for _ in range(3)], static_argnums=(0,))
def apply_fn(fn, x):
    return fn(x)


def _scale(v, factor):
    return v * factor


@retrace_case(pattern="static argument hashed by identity", fix="define-once",
              source="https://github.com/patrick-kidger/equinox/issues/291",
              calls=lambda: [(functools.partial(_scale, factor=2.0), jnp.ones(2)) for _ in range(3)],
              static_argnums=(0,))
def apply_partial(fn, x):
    return fn(x)


# ------------------------------------------------------------------ pytree metadata that holds a number
@jax.tree_util.register_pytree_node_class
class Measurement:
    """Keeps its noise level in the pytree metadata (aux data), not as a leaf."""

    def __init__(self, values, stddev):
        self.values = values
        self.stddev = stddev

    def tree_flatten(self):
        return (self.values,), self.stddev

    @classmethod
    def tree_unflatten(cls, stddev, children):
        return cls(children[0], stddev)


@retrace_case(pattern="pytree metadata holds a number", fix="leaf",
              source="https://github.com/ryan112358/mbi/pull/196",
              calls=lambda: [(Measurement(jnp.ones(3), s),) for s in (1.0, 2.0, 0.5)])
def weighted_loss(m):
    return jnp.sum(m.values ** 2) / m.stddev


@jax.tree_util.register_pytree_node_class
class Schedule:
    """A learning rate kept in the metadata: every new rate is a new pytree structure."""

    def __init__(self, count, lr):
        self.count = count
        self.lr = lr

    def tree_flatten(self):
        return (self.count,), self.lr

    @classmethod
    def tree_unflatten(cls, lr, children):
        return cls(children[0], lr)


@retrace_case(pattern="pytree metadata holds a number", fix="leaf",
              source="https://github.com/google-deepmind/optax/issues/577",
              calls=lambda: [(Schedule(jnp.int32(0), lr), jnp.ones(2)) for lr in (3e-3, 3e-4)])
def scheduled_update(state, grads):
    return -state.lr * grads


# ------------------------------------------------------------------ shapes that change
@retrace_case(pattern="shape changes", fix="pad-bucket",
              source="https://github.com/patrick-kidger/diffrax/issues/111",
              calls=lambda: [(jnp.ones((256, 3)),), (jnp.ones((256, 3)),), (jnp.ones((16, 3)),)])
def batch_loss(batch):
    return jnp.mean(batch ** 2)


@retrace_case(pattern="shape changes", fix="pad-bucket", source="https://github.com/jax-ml/jax/issues/803",
              calls=lambda: [(jnp.ones(n),) for n in (5, 7, 9)])
def norm(v):
    return jnp.sqrt(jnp.sum(v * v))


@retrace_case(pattern="shape changes", fix="pad-bucket", source="https://github.com/ACEsuit/mace/issues/1590",
              calls=lambda: [(jnp.ones((n, 3)),) for n in (10, 14, 23)])
def energy(positions):
    return jnp.sum(jnp.linalg.norm(positions, axis=-1))


# ------------------------------------------------------------------ static values that change
@retrace_case(pattern="static value changes", fix="traced-not-static",
              source="https://github.com/google-deepmind/optax/issues/577#issuecomment-2298903102",
              calls=lambda: [(jnp.ones(2), 0.1 * 0.9 ** t) for t in range(4)], static_argnums=(1,))
def decayed_step(w, lr):
    return w - lr * w
