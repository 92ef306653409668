"""A ninth held-out batch of JAX errors outside jit, written by two helper sessions at once that never
opened the rules under `autograder/` nor any message the course prints, so that the first run of this
batch measures how the course's explanations carry over to mistakes they were not fitted on. Part a
(vmap, grad, loops, branches, pytrees) and part b (keys, custom rules, shapes, other) were written apart
and merged into this file; each part's own account follows. (Part b's writer read the first 50 lines of
README.md, the quick start and the table of topics, before starting: no rule or course message.)

46 cases in all: vmap 5, grad 5, loops 5, branches 4, pytrees 4, keys 5, custom rules 5, shapes 5,
other 8.

## Part a

A ninth held-out batch of JAX errors outside jit, part a (the families vmap, grad, loops, branches and
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

## Part b

A ninth held-out batch of JAX errors outside jit, part b (the families keys, custom rules, shapes and
`other`; a second helper writes vmap, grad, loops, branches and pytrees in a file of its own), written by a
helper session that never opened the rules under `autograder/` nor any message the course prints, so that
the first run of this batch measures how the course's explanations carry over to mistakes they were not
fitted on.

How the cases were made: each function is reduced from one public thread (a JAX issue or pull request, or
an issue of a project built on JAX: vmc_jax, RiskAverseTrajOpt) that none of `error_mistakes.py`,
`heldout_error_mistakes.py` ... `heldout_error_mistakes_8.py` (nor the jit and retrace corpora) cites. The
code is new (names and numbers differ from the thread), the mistake is the thread's. Called eagerly on
`args()` with the pinned jax (0.10.2), each function raises `raises` at `line`, the innermost line of the
function itself (grad, vmap, jit, pmap and the custom-rule machinery may run inside it); `fixed` is that
line as the thread's maintainers, accepted answer or merged change wrote it, and the function runs once it
is swapped in. Functions use only the module-level names `jax`, `jnp`, `lax`, `np`, `functools`,
`NamedTuple` and `dataclasses`; `args()` returns plain data. Where the fix belongs to a piece the student
defined earlier (a custom rule handed to `defvjp`), JAX raises at the call that uses it, so `fixed`
redefines the rule and calls again on one line, as batches 7 and 8 did; where the failing code is a lambda
(under `vmap`, `jit`), the lambda sits on the failing line so that line is the innermost frame.

What the batch leans on, as the brief asked, is ordinary mistakes rather than messages: numpy habits in
`jax.random` (a `scale` handed to `wald` and `gamma`, whose third argument is `shape`; unpacking
`split(key, n + 1)` into two names; a key handed to `PRNGKey` where a seed belongs; `fold_in` with
`axis_index` under a `vmap` that names no axis); custom rules written with the wrong signature or output
(a forward rule returning three values, a backward rule that forgets the `nondiff_argnums` value comes
first, a JVP rule that uses the primals tuple as an array, a backward rule that returns one cotangent for
two inputs, a `symbolic_zeros=True` forward rule that treats its `CustomVJPPrimal` inputs as arrays);
shapes (a reduction over an axis the array does not have, the same new axis twice in `expand_dims`, a
traced slice bound under `jit`, `jnp.repeat` with traced counts under `jit`, a mean over an axis a full
`sum` already removed); and, outside the eight families, a non-mapped argument given to `pmap`, removed or
renamed APIs (`Array.to_py`, `jax.partial`, the `kind=` of `argsort`), NumPy's in-place functions
(`jnp.put`, `jnp.fill_diagonal`), strings parsed by `jnp.array`, and a Python int past int32.

Caveats. Threads from search are mostly cited by earlier batches already, and Stack Overflow answers were
not found in the stored pages, so many cases rest on a maintainer's pull request whose description,
docstring or improved message is the advice: jax PRs 15139 (`wald(key, mean) / scale`), 14722
(`gamma(key, a) * scale`), 12611 (a forward rule must return a pair), 6683 (non-differentiable arguments
come first in `bwd`), 15088 (`symbolic_zeros` forward rules receive wrapped primals; `fixed` reads them
with the pinned API's `.value`), 9615 (repeated axes in `expand_dims` are an error), 3795 (slice at a
dynamic position with `lax.dynamic_slice`), 22403 (`total_repeat_length` makes `jnp.repeat` work under
`jit`), 25155 (an out-of-bounds reduction axis; an open PR), 16844 (`jnp.put` needs `inplace=False`), 7938
(`jax.partial` removed: use `functools.partial`) and 19220 (`kind` deprecated for `stable`). Where a
thread's stored text does not show the exact fixed line, `fixed` writes the fix the thread points to: jax
issue 3822 (the excerpt stops where the maintainer shows his changed rule; the rule takes the value out of the primal
tuple; `fixed` indexes it, to stay on one line), jax issue 888 (sum over an axis that exists: the last one), jax PR 9615 (two distinct new axes),
jax PR 25155 (keep the example axis by summing over the last one), jax issue 1883 (the answer is not in
the stored text; the question shows NumPy parsing the strings, which `fixed` does before `jnp.array`),
jax issue 4903 (the reporter's resolution, `JAX_ENABLE_X64=1`, written as the `jax.enable_x64` context so
that it does not change the process), jax issue 2680 (the `.at[jnp.diag_indices_from(...)]` update is a
user's comment in the thread, after the maintainers' explanation that JAX cannot fill in place), jax issue
4779 (the advice to return `None` for an input without a cotangent is the reporter's, in a thread the
maintainers closed), jax issue 5554 (the maintainer endorsed `keys[0], keys[1:]`; the two-name unpacking is
the naive form of what the reporter wanted, not code from the thread), jax issue 7708 (the thread's working
code names `axis_name='batch'`; the mistake of leaving it out is constructed from it), and vmc_jax issue 12
(a title-only issue by the project's maintainer stating the fix: pass the integer seed, not a key; the
mistake overlaps the key-not-seed pattern of earlier batches). The `jnp.repeat` mistake also appears in
`jit_mistakes.py` under another thread. The `pmap` case uses a leading axis of 1 so it runs on one CPU
device.

23 cases (keys 5, custom rules 5, shapes 5, other 8), one thread each.
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



# ====================================================================== keys
@error_case(family="keys", fix="rescale-standard-sample", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/15139",
            line="return jax.random.wald(key, mean_times, spread)",
            fixed="return jax.random.wald(key, mean_times) / spread",
            args=lambda: (5, jnp.array([1.0, 2.0, 0.5]), 3.0))
def first_passage_times(seed, mean_times, spread):
    key = jax.random.key(seed)
    return jax.random.wald(key, mean_times, spread)


@error_case(family="keys", fix="rescale-standard-sample", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/14722",
            line="return jax.random.gamma(key, shapes, time_scale)",
            fixed="return jax.random.gamma(key, shapes) * time_scale",
            args=lambda: (8, jnp.array([2.0, 0.5, 4.0, 1.0]), 0.25))
def service_durations(seed, shapes, time_scale):
    key = jax.random.key(seed)
    return jax.random.gamma(key, shapes, time_scale)


@error_case(family="keys", fix="split-then-slice", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/5554",
            line="key, walker_keys = jax.random.split(key, n_walkers + 1)",
            fixed="keys = jax.random.split(key, n_walkers + 1); key, walker_keys = keys[0], keys[1:]",
            args=lambda: (13, 4))
def walker_start_points(seed, n_walkers):
    key = jax.random.key(seed)
    key, walker_keys = jax.random.split(key, n_walkers + 1)
    starts = jax.vmap(lambda k: jax.random.normal(k, (2,)))(walker_keys)
    return starts + jax.random.uniform(key, (2,))


@error_case(family="keys", fix="vmap-axis-name", raises="NameError",
            source="https://github.com/jax-ml/jax/issues/7708",
            line="return jax.vmap(lambda k, x: x + 0.1 * jax.random.normal(jax.random.fold_in(k, lax.axis_index('rows')), x.shape), in_axes=(None, 0))(key, xs)",
            fixed="return jax.vmap(lambda k, x: x + 0.1 * jax.random.normal(jax.random.fold_in(k, lax.axis_index('rows')), x.shape), in_axes=(None, 0), axis_name='rows')(key, xs)",
            args=lambda: (21, jnp.arange(6.0).reshape(3, 2)))
def per_row_jitter(seed, xs):
    key = jax.random.key(seed)
    return jax.vmap(lambda k, x: x + 0.1 * jax.random.normal(jax.random.fold_in(k, lax.axis_index('rows')), x.shape), in_axes=(None, 0))(key, xs)


@error_case(family="keys", fix="prng-key", raises="TypeError",
            source="https://github.com/markusschmitt/vmc_jax/issues/12",
            line="chain_key = jax.random.PRNGKey(base_key)",
            fixed="chain_key = jax.random.PRNGKey(chain_seed)",
            args=lambda: (17, 3))
def chain_initial_spins(chain_seed, n_sites):
    base_key = jax.random.PRNGKey(chain_seed)
    chain_key = jax.random.PRNGKey(base_key)
    return jnp.sign(jax.random.normal(chain_key, (n_sites,)))


# ====================================================================== custom rules
@error_case(family="custom-rules", fix="fwd-pair", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/12611",
            line="return jax.grad(lambda v: jnp.sum(softplus(v)))(x)",
            fixed="softplus.defvjp(lambda v: (jnp.logaddexp(v, 0.0), jax.nn.sigmoid(v)), lambda s, g: (s * g,)); return jax.grad(lambda v: jnp.sum(softplus(v)))(x)",
            args=lambda: (jnp.array([-1.0, 0.0, 2.0]),))
def softplus_slope(x):
    softplus = jax.custom_vjp(lambda v: jnp.logaddexp(v, 0.0))
    softplus.defvjp(lambda v: (jnp.logaddexp(v, 0.0), jax.nn.sigmoid(v), v), lambda s, g: (s * g,))
    return jax.grad(lambda v: jnp.sum(softplus(v)))(x)


@error_case(family="custom-rules", fix="nondiff-first", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/6683",
            line="return jax.grad(lambda v: raise_to(v, power))(x)",
            fixed="raise_to.defvjp(lambda v, p: (v ** p, v), lambda p, v, g: (p * v ** (p - 1) * g,)); return jax.grad(lambda v: raise_to(v, power))(x)",
            args=lambda: (1.5, 3))
def power_slope(x, power):
    @functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
    def raise_to(v, p):
        return v ** p

    raise_to.defvjp(lambda v, p: (v ** p, v), lambda v, g: (power * v ** (power - 1) * g,))
    return jax.grad(lambda v: raise_to(v, power))(x)


@error_case(family="custom-rules", fix="unpack-primals", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/3822",
            line="return jnp.log1p(primal), tangent / (1.0 + primal)",
            fixed="return jnp.log1p(primal[0]), tangent[0] / (1.0 + primal[0])",
            args=lambda: (2.0,))
def shifted_log_slope(alpha):
    @jax.custom_jvp
    def shifted_log(a):
        return jnp.log1p(a)

    @shifted_log.defjvp
    def shifted_log_jvp(primal, tangent):
        return jnp.log1p(primal), tangent / (1.0 + primal)
    return jax.grad(shifted_log)(alpha)


@error_case(family="custom-rules", fix="bwd-none", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/4779",
            line="return jax.grad(lambda v: jnp.sum(gated(v, gate)))(w)",
            fixed="gated.defvjp(lambda v, m: (v * m, m), lambda m, g: (g * m, None)); return jax.grad(lambda v: jnp.sum(gated(v, gate)))(w)",
            args=lambda: (jnp.array([0.5, -1.0, 2.0]), jnp.array([1.0, 0.0, 1.0])))
def gated_weight_slope(w, gate):
    gated = jax.custom_vjp(lambda v, m: v * m)
    gated.defvjp(lambda v, m: (v * m, m), lambda m, g: (g * m,))
    return jax.grad(lambda v: jnp.sum(gated(v, gate)))(w)


@error_case(family="custom-rules", fix="primal-value", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/15088",
            line="smooth_abs.defvjp(lambda v: (jnp.sqrt(v ** 2 + 1e-3), v), lambda v, g: (v / jnp.sqrt(v ** 2 + 1e-3) * g,), symbolic_zeros=True)",
            fixed="smooth_abs.defvjp(lambda v: (jnp.sqrt(v.value ** 2 + 1e-3), v.value), lambda v, g: (v / jnp.sqrt(v ** 2 + 1e-3) * g,), symbolic_zeros=True)",
            args=lambda: (jnp.array([-2.0, 0.0, 0.5]),))
def smooth_abs_slope(x):
    smooth_abs = jax.custom_vjp(lambda v: jnp.sqrt(v ** 2 + 1e-3))
    smooth_abs.defvjp(lambda v: (jnp.sqrt(v ** 2 + 1e-3), v), lambda v, g: (v / jnp.sqrt(v ** 2 + 1e-3) * g,), symbolic_zeros=True)
    return jax.grad(lambda v: jnp.sum(smooth_abs(v)))(x)


# ====================================================================== shapes
@error_case(family="shapes", fix="last-axis", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/888",
            line="return jnp.sum(volume, axis=3)",
            fixed="return jnp.sum(volume, axis=-1)",
            args=lambda: (jnp.arange(24.0).reshape(2, 3, 4),))
def voxel_channel_totals(volume):
    return jnp.sum(volume, axis=3)


@error_case(family="shapes", fix="distinct-axes", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/9615",
            line="return jnp.expand_dims(profile, (0, 0))",
            fixed="return jnp.expand_dims(profile, (0, 1))",
            args=lambda: (jnp.array([0.2, 0.4, 0.6]),))
def profile_as_image(profile):
    return jnp.expand_dims(profile, (0, 0))


@error_case(family="shapes", fix="dynamic_slice", raises="IndexError",
            source="https://github.com/jax-ml/jax/pull/3795",
            line="return jax.jit(lambda s, i: jnp.mean(s[i:i + 3]))(signal, start)",
            fixed="return jax.jit(lambda s, i: jnp.mean(lax.dynamic_slice(s, (i,), (3,))))(signal, start)",
            args=lambda: (jnp.array([1.0, 4.0, 2.0, 8.0, 5.0, 7.0]), 2))
def window_mean_at(signal, start):
    return jax.jit(lambda s, i: jnp.mean(s[i:i + 3]))(signal, start)


@error_case(family="shapes", fix="total-repeat-length", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/pull/22403",
            line="return jax.jit(lambda t, c: jnp.repeat(t, c))(tokens, counts)",
            fixed="return jax.jit(lambda t, c: jnp.repeat(t, c, total_repeat_length=6))(tokens, counts)",
            args=lambda: (jnp.array([7, 8, 9]), jnp.array([1, 3, 2])))
def expanded_tokens(tokens, counts):
    return jax.jit(lambda t, c: jnp.repeat(t, c))(tokens, counts)


@error_case(family="shapes", fix="reduce-last-axis", raises="IndexError",
            source="https://github.com/jax-ml/jax/pull/25155",
            line="return jnp.mean(jnp.sum(residuals ** 2), axis=0)",
            fixed="return jnp.mean(jnp.sum(residuals ** 2, axis=-1), axis=0)",
            args=lambda: (jnp.arange(6.0).reshape(3, 2) - 2.0,))
def mean_example_error(residuals):
    return jnp.mean(jnp.sum(residuals ** 2), axis=0)


# ====================================================================== other
@error_case(family="other", fix="close-over", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/1991",
            line="return jax.pmap(repeat_double)(shards, times)",
            fixed="return jax.pmap(functools.partial(repeat_double, n=times))(shards)",
            args=lambda: (jnp.arange(4.0).reshape(1, 4), 3))
def doubled_shards(shards, times):
    def repeat_double(a, n):
        for _ in range(n):
            a = a + a
        return a
    return jax.pmap(repeat_double)(shards, times)


@error_case(family="other", fix="host-asarray", raises="AttributeError",
            source="https://github.com/StanfordASL/RiskAverseTrajOpt/issues/2",
            line="return path.to_py()",
            fixed="return np.asarray(path)",
            args=lambda: (jnp.array([[0.1, 0.0], [0.2, 0.1], [0.1, 0.3]]),))
def trajectory_for_plot(steps):
    path = jnp.cumsum(steps, axis=0)
    return path.to_py()


@error_case(family="other", fix="inplace-false", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/16844",
            line="marked = jnp.put(buffer, slots, -1.0)",
            fixed="marked = jnp.put(buffer, slots, -1.0, inplace=False)",
            args=lambda: (jnp.zeros(6), jnp.array([1, 4])))
def with_marked_slots(buffer, slots):
    marked = jnp.put(buffer, slots, -1.0)
    return marked


@error_case(family="other", fix="functools-partial", raises="AttributeError",
            source="https://github.com/jax-ml/jax/pull/7938",
            line="soft = jax.partial(jax.nn.softmax, axis=-1)",
            fixed="soft = functools.partial(jax.nn.softmax, axis=-1)",
            args=lambda: (jnp.array([[1.0, 2.0, 0.5], [0.0, 0.0, 3.0]]), 2.0))
def tempered_softmax(logits, temperature):
    soft = jax.partial(jax.nn.softmax, axis=-1)
    return soft(logits / temperature)


@error_case(family="other", fix="sort-stable", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/19220",
            line="return jnp.argsort(-scores, kind='stable')",
            fixed="return jnp.argsort(-scores, stable=True)",
            args=lambda: (jnp.array([0.3, 0.9, 0.3, 0.1]),))
def ranking_order(scores):
    return jnp.argsort(-scores, kind='stable')


@error_case(family="other", fix="at-set", raises="NotImplementedError",
            source="https://github.com/jax-ml/jax/issues/2680",
            line="jnp.fill_diagonal(adjacency, 0.0)",
            fixed="adjacency = adjacency.at[jnp.diag_indices_from(adjacency)].set(0.0)",
            args=lambda: (jnp.ones((3, 3)),))
def without_self_loops(adjacency):
    jnp.fill_diagonal(adjacency, 0.0)
    return adjacency.sum(axis=1)


@error_case(family="other", fix="parse-host", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/1883",
            line="return jnp.array(fields).astype(jnp.float32) * 0.5",
            fixed="return jnp.array(np.array(fields).astype(np.float32)) * 0.5",
            args=lambda: ((1.5, 2.25, 3.0),))
def parsed_text_readings(raw):
    fields = [f"{v:.2f}" for v in raw]
    return jnp.array(fields).astype(jnp.float32) * 0.5


@error_case(family="other", fix="enable-x64", raises="OverflowError",
            source="https://github.com/jax-ml/jax/issues/4903",
            line="return jnp.array([1000000000000, 2, 3, 4])[1:] + offset",
            fixed="with jax.enable_x64(True): return jnp.array([1000000000000, 2, 3, 4])[1:] + offset",
            args=lambda: (3,))
def shifted_event_ids(offset):
    return jnp.array([1000000000000, 2, 3, 4])[1:] + offset
