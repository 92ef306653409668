"""A ninth held-out batch of JAX errors outside jit, part a (the families vmap, grad, loops, branches and
pytrees; a second helper writes keys, custom rules, shapes and other in a file of its own), written by a
helper session that never opened the rules under `autograder/` nor any message the course prints, so that
the first run of this batch measures how the course's explanations carry over to mistakes they were not
fitted on.

How the cases were made: each function is reduced from one public thread (a JAX issue or pull request, or
an issue or pull request of a project that uses JAX: probml/pyprobml, waymo-research/waymax) that none of
`error_mistakes.py`, `heldout_error_mistakes.py` ... `heldout_error_mistakes_8.py` (nor the jit and retrace
corpora) cites. The code is new (names and numbers differ from the thread), the mistake is the thread's.
Called eagerly on `args()` with the pinned jax (0.10.2), each function raises `raises` at `line`, the
innermost line of the function itself (jit, vmap, grad, jvp, linearize and the lax loops may run inside
it); `fixed` is that line as the thread's maintainers or accepted answer wrote it, and the function runs
once it is swapped in. Functions use only the module-level names `jax`, `jnp`, `lax`, `np`, `functools`,
`NamedTuple` and `dataclasses` (one case imports `ravel_pytree` from `jax.flatten_util` inside itself, as
the thread's user did, since `import jax` alone does not load that module); `args()` returns plain data.

What the batch leans on: ordinary user questions rather than improved-error pull requests, as the brief
asked: NumPy functions, shape-setting integers, `argnums` and a Python container indexed by the mapped
value under `vmap`, and an `axis` argument mapped as if it were data; calling a `grad` function with
keyword arguments, `argnums` given to `jax.jvp`, a Python list handed to `jnp.max`, a tangent of the wrong
dtype given to a linearized function, and in-place assignment inside a loss; a float index in a
`fori_loop` body, a Python list as `scan`'s `xs`, a traced `scan` length, a Python `range` over a traced
count and a jnp buffer filled by item assignment in a Python loop; the one-argument `jnp.where` and boolean
masks under `jit`, Python `and` in a `cond` predicate and `bool()` of a traced comparison; `tree.map` over
custom nodes whose aux data differ, without `is_leaf`, `jit` of a function that returns a function, an unflatten rule that
converts its leaves, and a pytree class whose aux data is a treedef of its own leaves.

Stack Overflow: the brief asked to prefer Stack Overflow threads through the `pages` corpus. The corpus
returned mostly tutorial sites and Stack Overflow mirrors whose questions earlier batches already cite
(51tsys, boohere, openillumi); no uncited Stack Overflow question with an accepted answer turned up in the
time, so every case here rests on a GitHub thread. JAX's own question threads are heavily mined by the
earlier batches (several hundred cited), so most threads below are older questions.

Caveats, where a thread's stored text does not show the maintainers' exact line and `fixed` writes the
fix the thread points to (inferred): jax issue 835 (float bin index in a loop body: cast the index to an
integer), jax issue 744 (`scan` over a Python list: pass an array), jax issue 277 (`jnp.max` of a list:
wrap the list in `jnp.array`), jax issue 6134 (`vmap` over `argnums`: the fix pull request 6137 only
improved the error; `fixed` loops over the static positions in Python), jax issue 10493 (an axis argument
mapped by `vmap`: an improved-error issue whose message says the axis must be static; `fixed` closes over
a Python int), jax issue 2285 (a Python container indexed by the mapped index: `fixed` turns it into a
boolean mask array), jax issue 4473 (traced `scan` length: `fixed` marks the scalars static),
waymo-research/waymax issue 14 (a maintainer's snippet with `range` over a traced count: `fixed` uses
`lax.fori_loop`), jax issue 7546 (a pytree whose reconstruction converts its leaves: `fixed` passes the
children through unchanged, as JAX's guidance on custom pytrees and initialization says) and jax issue
10710 (aux data that is a treedef of the node's own leaves; the reporter's working alternative was a plain
dict, which `fixed` uses). Where the fix is the reporter's own, confirmed in the thread rather than written by a maintainer: jax
issue 952 (the call with positional arguments is the issue's own working line; a maintainer linked the
kwargs tracking issue) and jax issue 5078 (the reporter closed it on finding `jnp.logical_and`). jax pull
request 609 is a contributor's pull request where a maintainer's review gave the fix (drop the `bool`).
jax issue 101 gives two cases (item assignment into a jnp array, in a data-building loop and inside a
loss); the answer there pointed to JAX's functional index update (`jax.ops.index_update` then, spelled
today `.at[...].set`) or to mutable NumPy arrays for data built outside JAX; `fixed` uses `.at[...].set`.

23 cases (vmap 5, grad 5, loops 5, branches 4, pytrees 4), 22 threads.
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
            source="https://github.com/jax-ml/jax/issues/1318",
            line="return jax.vmap(lambda tri, w: w * np.linalg.det(tri))(triangles, weights)",
            fixed="return jax.vmap(lambda tri, w: w * jnp.linalg.det(tri))(triangles, weights)",
            args=lambda: (jnp.array([[[2.0, 0.0], [0.0, 1.0]], [[1.0, 1.0], [0.0, 3.0]], [[0.5, 0.2], [0.1, 1.0]]]),
                          jnp.array([1.0, 0.5, 2.0])))
def host_cell_areas(triangles, weights):
    return jax.vmap(lambda tri, w: w * np.linalg.det(tri))(triangles, weights)


@error_case(family="vmap", fix="close-over", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/issues/10493",
            line="return jax.vmap(lambda b, ax: jnp.sum(b, ax))(blocks, axes)",
            fixed="return jax.vmap(lambda b: jnp.sum(b, axis))(blocks)",
            args=lambda: (jnp.arange(24.0).reshape(3, 2, 4), 1))
def summed_blocks(blocks, axis):
    axes = jnp.full((blocks.shape[0],), axis)
    return jax.vmap(lambda b, ax: jnp.sum(b, ax))(blocks, axes)


@error_case(family="vmap", fix="python-loop", raises="TypeError",
            source="https://github.com/probml/pyprobml/pull/647",
            line="return jax.vmap(lambda d: jnp.ones((d, width)).sum())(jnp.asarray(dims))",
            fixed="return jnp.stack([jnp.ones((d, width)).sum() for d in dims])",
            args=lambda: ([2, 3, 5], 4))
def padded_block_sums(dims, width):
    return jax.vmap(lambda d: jnp.ones((d, width)).sum())(jnp.asarray(dims))


@error_case(family="vmap", fix="python-loop", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/issues/6134",
            line="return jax.vmap(lambda p: jax.grad(jax.grad(energy, p), p)(*point))(jnp.arange(len(point)))",
            fixed="return jnp.stack([jax.grad(jax.grad(energy, p), p)(*point) for p in range(len(point))])",
            args=lambda: ((1.0, 2.0),))
def cubic_second_derivatives(point):
    def energy(a, b):
        return jnp.sum(jnp.array([a, b]) ** 3)
    return jax.vmap(lambda p: jax.grad(jax.grad(energy, p), p)(*point))(jnp.arange(len(point)))


@error_case(family="vmap", fix="list-to-array", raises="TracerIntegerConversionError",
            source="https://github.com/jax-ml/jax/issues/2285",
            line="return jax.vmap(lambda j, w: jnp.where(j in excluded[j], 0.0, w))(jnp.arange(weights.shape[0]), weights)",
            fixed="return jax.vmap(lambda skip, w: jnp.where(skip, 0.0, w))(jnp.array([j in row for j, row in enumerate(excluded)]), weights)",
            args=lambda: (jnp.array([0.5, 1.5, 2.5]), [[0, 2], [0], [2]]))
def kept_weights(weights, excluded):
    return jax.vmap(lambda j, w: jnp.where(j in excluded[j], 0.0, w))(jnp.arange(weights.shape[0]), weights)


# ====================================================================== grad
@error_case(family="grad", fix="vmap-kwargs-positional", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/952",
            line="return jax.grad(lambda w, b: (2.0 * w + b - target) ** 2)(w=weight, b=bias)",
            fixed="return jax.grad(lambda w, b: (2.0 * w + b - target) ** 2)(weight, bias)",
            args=lambda: (0.75, 0.5, 1.0))
def squared_error_slope(weight, bias, target):
    return jax.grad(lambda w, b: (2.0 * w + b - target) ** 2)(w=weight, b=bias)


@error_case(family="grad", fix="close-over", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/11703",
            line="return jax.jvp(energy, tuple(blocks), (direction,), argnums=i)[1]",
            fixed="return jax.jvp(lambda xi: energy(*blocks[:i], xi, *blocks[i + 1:]), (blocks[i],), (direction,))[1]",
            args=lambda: ([jnp.ones(2), jnp.arange(2.0), jnp.full(2, 3.0)], jnp.array([1.0, 0.5]), 1))
def block_tangent(blocks, direction, i):
    def energy(*xs):
        return sum(jnp.sum(x ** 2) * (k + 1) for k, x in enumerate(xs))
    return jax.jvp(energy, tuple(blocks), (direction,), argnums=i)[1]


@error_case(family="grad", fix="list-to-array", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/277",
            line="return jax.grad(lambda p: discount * jnp.max([p - strike, 0.0]))(price)",
            fixed="return jax.grad(lambda p: discount * jnp.max(jnp.array([p - strike, 0.0])))(price)",
            args=lambda: (104.0, 100.0, 0.97))
def call_payoff_delta(price, strike, discount):
    return jax.grad(lambda p: discount * jnp.max([p - strike, 0.0]))(price)


@error_case(family="grad", fix="cotangent-dtype", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/5364",
            line="return push_forward(jnp.asarray(direction, dtype=jnp.float16))",
            fixed="return push_forward(jnp.asarray(direction, dtype=state.dtype))",
            args=lambda: (jnp.array([[1.0, 0.5], [0.0, 2.0]]), [[0.1, 0.0], [0.0, -0.2]]))
def linearized_response(state, direction):
    _, push_forward = jax.linearize(lambda m: jnp.tanh(m) @ m, state)
    return push_forward(jnp.asarray(direction, dtype=jnp.float16))


@error_case(family="grad", fix="at-set", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/101",
            line="buf[0] = v",
            fixed="buf = buf.at[0].set(v)",
            args=lambda: (1.5, 4))
def padded_loss_slope(w, width):
    def loss(v):
        buf = jnp.zeros(width)
        buf[0] = v
        return jnp.sum((buf - 1.0) ** 2)
    return jax.grad(loss)(w)


# ====================================================================== loops
@error_case(family="loops", fix="int-index", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/835",
            line="return acc + densities[new_bin]",
            fixed="return acc + densities[new_bin.astype(jnp.int32)]",
            args=lambda: (jnp.array([0.1, 0.4, 0.2, 0.3]), jnp.array([0.05, 0.6, 0.35]), 0.25))
def binned_density_walk(densities, energies, bin_width):
    def body(j, acc):
        new_bin = energies[j] // bin_width
        return acc + densities[new_bin]
    return lax.fori_loop(0, energies.shape[0], body, 0.0)


@error_case(family="loops", fix="list-to-array", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/744",
            line="return lax.scan(lambda total, k: (total * ratio + k, total), start, list(range(steps)))[0]",
            fixed="return lax.scan(lambda total, k: (total * ratio + k, total), start, jnp.arange(steps))[0]",
            args=lambda: (1.0, 0.5, 5))
def geometric_scan_total(start, ratio, steps):
    return lax.scan(lambda total, k: (total * ratio + k, total), start, list(range(steps)))[0]


@error_case(family="loops", fix="static-arg", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/issues/4473",
            line="return jax.jit(lambda x0, t, h: lax.scan(lambda x, _: (x + h * 0.9 * x, None), x0, None, length=round(t / h))[0])(state, horizon, dt)",
            fixed="return jax.jit(lambda x0, t, h: lax.scan(lambda x, _: (x + h * 0.9 * x, None), x0, None, length=round(t / h))[0], static_argnums=(1, 2))(state, horizon, dt)",
            args=lambda: (jnp.array([1.0, 2.0]), 1.0, 0.25))
def euler_final_state(state, horizon, dt):
    return jax.jit(lambda x0, t, h: lax.scan(lambda x, _: (x + h * 0.9 * x, None), x0, None, length=round(t / h))[0])(state, horizon, dt)


@error_case(family="loops", fix="fori_loop", raises="TracerIntegerConversionError",
            source="https://github.com/waymo-research/waymax/issues/14",
            line="return functools.reduce(lambda v, _: v * decay, range(n), s)",
            fixed="return lax.fori_loop(0, n, lambda i, v: v * decay, s)",
            args=lambda: (8.0, 3, 0.5))
def halving_schedule(value, remaining, decay):
    def rollout(s, n):
        return functools.reduce(lambda v, _: v * decay, range(n), s)
    return jax.jit(rollout)(value, remaining)


@error_case(family="loops", fix="at-set", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/101",
            line="batches[i, :] = jnp.arange(width) * (i + 1)",
            fixed="batches = batches.at[i, :].set(jnp.arange(width) * (i + 1))",
            args=lambda: (3, 4))
def stacked_batches(n_batches, width):
    batches = jnp.zeros((n_batches, width))
    for i in range(n_batches):
        batches[i, :] = jnp.arange(width) * (i + 1)
    return batches.sum(axis=1)


# ====================================================================== branches
@error_case(family="branches", fix="where", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/issues/4418",
            line="rows, cols = jnp.where(~grid.any(axis=2))",
            fixed="return jnp.where(~grid.any(axis=2), 0.0, 1.0)",
            args=lambda: (jnp.array([[[1, 2], [0, 0]], [[0, 0], [4, 0]]]),))
def jit_mask_fill(grid):
    def mask_of(grid):
        rows, cols = jnp.where(~grid.any(axis=2))
        return jnp.ones(grid.shape[:2]).at[rows, cols].set(0.0)
    return jax.jit(mask_of)(grid)


@error_case(family="branches", fix="where", raises="NonConcreteBooleanIndexError",
            source="https://github.com/jax-ml/jax/issues/4471",
            line="return jax.jit(lambda y: y[jnp.isfinite(y)].sum())(readings)",
            fixed="return jax.jit(lambda y: jnp.where(jnp.isfinite(y), y, 0).sum())(readings)",
            args=lambda: (jnp.array([1.5, jnp.inf, 2.0, -jnp.inf, 0.5]),))
def finite_total(readings):
    return jax.jit(lambda y: y[jnp.isfinite(y)].sum())(readings)


@error_case(family="branches", fix="logical", raises="TracerBoolConversionError",
            source="https://github.com/jax-ml/jax/issues/5078",
            line="return jax.jit(lambda a, b: lax.cond(a < 0 and b < 0, lambda v: v - penalty, lambda v: v + bonus, a))(x, y)",
            fixed="return jax.jit(lambda a, b: lax.cond(jnp.logical_and(a < 0, b < 0), lambda v: v - penalty, lambda v: v + bonus, a))(x, y)",
            args=lambda: (-0.3, -0.1, 5.0, 1.0))
def cond_both_negative(x, y, penalty, bonus):
    return jax.jit(lambda a, b: lax.cond(a < 0 and b < 0, lambda v: v - penalty, lambda v: v + bonus, a))(x, y)


@error_case(family="branches", fix="no-bool-cast", raises="TracerBoolConversionError",
            source="https://github.com/jax-ml/jax/pull/609",
            line="return jax.jit(lambda a, b: bool(jnp.asarray(a == b).all()))(left, right)",
            fixed="return jax.jit(lambda a, b: jnp.asarray(a == b).all())(left, right)",
            args=lambda: (jnp.array([1.0, 2.0, 3.0]), jnp.array([1.0, 2.0, 3.5])))
def jit_arrays_equal(left, right):
    return jax.jit(lambda a, b: bool(jnp.asarray(a == b).all()))(left, right)


# ====================================================================== pytrees
@error_case(family="pytrees", fix="none-leaf", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/12711",
            line="return jax.tree.map(lambda p, q: Tagged(p.value * q.value, p.tag + q.tag), first, second).value",
            fixed="return jax.tree.map(lambda p, q: Tagged(p.value * q.value, p.tag + q.tag), first, second, is_leaf=lambda n: isinstance(n, Tagged)).value",
            args=lambda: (jnp.array([2.0, 3.0]), jnp.array([4.0, 0.5]), 1, 2))
def tagged_product(values_a, values_b, tag_a, tag_b):
    @jax.tree_util.register_pytree_node_class
    class Tagged:
        def __init__(self, value, tag):
            self.value, self.tag = value, tag

        def tree_flatten(self):
            return (self.value,), self.tag

        @classmethod
        def tree_unflatten(cls, tag, children):
            return cls(children[0], tag)
    first, second = Tagged(values_a, tag_a), Tagged(values_b, tag_b)
    return jax.tree.map(lambda p, q: Tagged(p.value * q.value, p.tag + q.tag), first, second).value


@error_case(family="pytrees", fix="jit-returns-arrays", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/4305",
            line="flat, _ = jax.jit(ravel_pytree)(params)",
            fixed="flat = jax.jit(lambda tree: ravel_pytree(tree)[0])(params)",
            args=lambda: ({'w': jnp.ones((2, 3)), 'b': jnp.zeros(3), 'scale': 2.0},))
def flat_parameter_vector(params):
    from jax.flatten_util import ravel_pytree
    flat, _ = jax.jit(ravel_pytree)(params)
    return flat


@error_case(family="pytrees", fix="unflatten-any-leaf", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/issues/7546",
            line="return cls(float(children[0]), children[1])",
            fixed="return cls(*children)",
            args=lambda: (0.5, 2.0, 1.0))
def constrained_loc_slope(loc, scale, target):
    @jax.tree_util.register_pytree_node_class
    class NormalParams:
        def __init__(self, loc, raw_scale):
            self.loc, self.raw_scale = loc, raw_scale

        def tree_flatten(self):
            return (self.loc, self.raw_scale), None

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(float(children[0]), children[1])
    params = NormalParams(loc, jnp.log(jnp.expm1(scale)))
    return jax.grad(lambda p: (p.loc - target) ** 2 + jax.nn.softplus(p.raw_scale))(params).loc


@error_case(family="pytrees", fix="plain-dict-container", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/10710",
            line="return jax.tree.map(lambda x, pair: x * pair[1], weights, paired).params['a']",
            fixed="return jax.tree.map(lambda x, pair: x * pair[1], {'a': a}, {'a': (a, factor)})['a']",
            args=lambda: (jnp.arange(4.0).reshape(1, 4), 1.5))
def params_dict_scaled(a, factor):
    @jax.tree_util.register_pytree_node_class
    class ParamsDict:
        def __init__(self, **params):
            self.params = dict(params)

        def tree_flatten(self):
            return jax.tree_util.tree_flatten(self.params)

        @classmethod
        def tree_unflatten(cls, aux, leaves):
            return cls(**jax.tree_util.tree_unflatten(aux, leaves))
    weights = ParamsDict(a=a)
    paired = jax.tree.map(lambda x: (x, factor), weights)
    return jax.tree.map(lambda x, pair: x * pair[1], weights, paired).params['a']
