"""A fourteenth held-out batch of JAX errors outside jit, written by helper sessions that never opened the
rules under `autograder/` nor any message the course prints, so that its first run measures how the
course's explanations carry over to mistakes they were not fitted on. Each part's own account follows.

## Part a

Part a (the families vmap, grad and loops), written by a blind helper session that never opened the rules
under `autograder/`, nor any message the course prints, nor ran anything that imports `autograder`.

How the cases were made: each function is reduced from one public thread that no earlier file in
`tests/mistakes` cites (checked against the `source=` of every file before writing): issues and pull
requests of JAX, TensorFlow (the TFP JAX substrate), jax-fem, DiffeRT, folx, blackjax, tn4ml and
google-research/discs, and one Stack Overflow-based article (openillumi.com). The code is new (own names
and numbers), the mistake is the thread's. Called eagerly on `args()` with the pinned jax (0.10.2), each
function raises `raises` at `line`; `fixed` is that line as the thread's maintainers, answer or reporter
fixed it (or as inferred, see the caveats), and the function runs once it is swapped in. Where a fix lies
on a different line than the one that raises, the two are written on one line (the loop, or the `vmap`
call, holds the offending argument inline).

What the part leans on: vmap: a tuple `in_axes` with an argument passed by keyword (jax PR 13849), a
size argument mapped by `vmap` instead of held static with `in_axes=None` (openillumi), a keyword argument
of another length that `vmap` maps anyway (jax issue 10193), a host NumPy solver called on batched tracers
(jax-fem issue 3, fix `jax.pure_callback`), and keys split by one config count against parameters stacked
by another (discs issue 63); grad: `float()` of a differentiated parameter to call NumPy (jax issue 9085),
a NumPy regulariser inside a differentiated loss (tn4ml issue 4), and, under `jax.shard_map`, pullback
seeds built from thin air without the output's varying mesh axis (jax issues 29832 and 29965); loops: a
`lax.while_loop` differentiated in reverse mode (tensorflow issue 62828, fix `fori_loop` with static
bounds), a `scan` schedule one step short of the scanned draws (blackjax issue 267, fixed by PR 268), and,
under `jax.shard_map`, loop carries initialised with non-varying values while the body makes them varying
(DiffeRT issue 280 for `scan`, folx PR 36 and jax issue 27664 for `while_loop`). The shard_map cases run on
one CPU device (a one-device mesh with `AxisType.Auto`, under `jax.jit`); six of the fourteen cases use
this varying-manual-axes corner, because it was the one part of the families the earlier batches had left
uncited.

New fix categories (in `corpus.CATEGORIES` and `FIXES`, written from the maintainers' fixes alone):
`pcast-carry-b14a` (apply `jax.lax.pcast(..., to='varying')`, formerly `pvary`, to the initial loop carry),
`pcast-cotangent-b14a` (the same for a cotangent seed or basis given to a pullback) and
`xs-equal-length-b14a` (give every array scanned over the same leading length).

Caveats, where the stored thread does not show the fixed line and `fixed` is inferred: jax PR 13849 (an
improved-error PR; `fixed` passes the argument positionally), jax issue 10193 (a better-errors issue;
`fixed` passes the shift positionally with `in_axes=(0, None)`), the openillumi article (the stored
excerpt summarises the question; the code is reduced from that summary), tensorflow issue 62828 (closed as
stale; `fixed` follows JAX's own suggestion of `fori_loop` with static bounds), tn4ml issue 4 (`fixed`
writes the regulariser with `jnp`), DiffeRT issue 280 (`fixed` applies the cast the error suggests), folx
PR 36 (the PR adds `pvary` to arrays made from thin air; which loop it was is not stored, so a
`while_loop` accumulator stands for it), jax issue 29832 (the thread's `jacrev` failure was fixed inside
JAX; the reduction writes the basis pullback by hand and casts the basis as the reporter suggests) and jax
issue 29965 (the thread's seed came from `lax.full_like`, which keeps the varying axes on the pinned jax;
the reduction builds it with `jnp.ones(())`, and `fixed` is the thread's `pvary` line). `pvary` no longer
exists on the pinned jax, so every such fix is written with `jax.lax.pcast(..., to='varying')`.

Shortfall: 14 cases (vmap 5, grad 4, loops 5), one grad case short of the 15 asked; grad threads outside
the mined trackers were the hardest to find, and two further grad candidates (a Hessian through a
`custom_vjp`, `.item()` inside a differentiated function) no longer raise on the pinned jax.

14 cases, 14 threads.

## Part b

Part b of the fourteenth held-out batch (the families branches, pytrees and keys), written by a blind helper
session that never opened the rules under `autograder/` nor any message the course prints. It reads only
`corpus.CATEGORIES`/`error_case`, `check_error_cases.py` and the earlier batch files (for their format and
the threads they cite).

How the cases were made: each function is reduced from one public thread (an issue, or the pull request
that fixed it) that no earlier file in `tests/mistakes` cites. Most threads were found by reading the git
history of downstream projects for fix commits about keys, pytrees and conditionals (numpyro, optax,
jaxopt, flax, jax-md, coreax, jaxoplanet) and by searching issue trackers with the text of JAX's errors
(jumanji, tunix, optree, PyAutoFit, jaxpruner, blackjax). The code is new (own names and numbers); the
mistake and the fix are the thread's. Called eagerly on `args()` with the pinned jax, each function raises `raises` at
`line`, and runs with `fixed` in its place; only the module-level names allowed by the checker are used.

The 18 cases (branches 5, pytrees 6, keys 7), one thread each:
- keys: numpyro PR 2073 (typed keys padded with `jnp.pad` before a chunked vmap; pad their `key_data`),
  optax PR 1169 (`jax.dtypes.scalar_type_of` on a typed key among hyperparameters; test the dtype with
  `issubdtype`), flax PR 4332 (`np.testing.assert_array_equal` on typed keys; compare the keys with `==`),
  numpyro PR 1642 (a single key detected by `ndim == 1`, which a typed key fails, so it is vmapped over),
  jax-md PR 304 (`jax.random.KeyArray`, removed from JAX; use `jax.Array`), numpyro PR 1992 (a key that is
  `None` when no key was provided; fall back to `jax.random.key(0)`), coreax PR 941 (a key array as a
  dataclass field default; use `default_factory`).
- branches: optax PR 1122 (gradient accumulation `lax.cond` whose skip branch returns bfloat16 zeros
  against float32 updates; cast), tunix PR 1880 (an update branch promotes a bfloat16 moment to float32;
  cast back to the moment's dtype), jumanji issue 28 (`lax.cond` on a batched `done` vector; vmap the
  per-environment cond), flax issue 1429 (a restored state rebuilt with a look-alike NamedTuple class
  returned from the other branch; rebuild it with the state's own class), jaxoplanet issue 234 (a Python
  `assert` on a traced coefficient under vmap; drop it).
- pytrees: jaxopt PR 597 (`jnp.sum(c * x)` on tuples of arrays; map over the leaves), jaxopt PR 420 (a
  float hyperparameter mapped against a parameter dict; broadcast it to the params' structure), PyAutoFit
  PR 1221 (a flatten rule that reuses the first instance's attribute names; flatten each instance's own
  names into aux data), optree issue 126 (unpacking a tree of pairs returned by `tree.map`; transpose it),
  jaxpruner issue 12 (`None` masks mapped against arrays; `is_leaf=lambda x: x is None`), blackjax issue
  227 (a tuple of arrays as the initial point of a flat-vector minimizer; `ravel_pytree` it and unravel
  inside the objective).

New fix categories (added to `FIXES` and `corpus.CATEGORIES`, regexes written from the maintainers' fixes
alone): `key-equality-b14b` (compare keys with `==` rather than through NumPy), `typed-key-scalar-b14b`
(a typed key is a scalar of shape `()`, not a `(2,)` array), `vmap-cond-b14b` (vmap the per-example cond
instead of giving it a batched predicate), `per-instance-aux-b14b` (flatten each instance's own field
names into the aux data), `tree-transpose-b14b` (transpose a tree of tuples into a tuple of trees),
`drop-assert-b14b` (remove a Python `assert` on a traced value), `default-factory-b14b` (build the key
with `default_factory`), `ravel-pytree-b14b` (flatten the tree into one vector with `ravel_pytree`
and unravel it inside the objective). Existing categories used: key-one-style, issubdtype-b12c,
jax-array-type, is-none-check, cast, carry-keep-dtype, tree-same-structure, tree-api, none-leaf.

Caveats, where `fixed` is not the thread's literal line: optax PR 1122 casts with `.astype(upd.dtype)`,
written here as `.astype(jnp.float32)` (the other branch's dtype); jaxopt PR 597 uses jaxopt's
`tree_sum(tree_mul(c, x))`, written with `jax.tree.map`/`jax.tree.leaves`; flax PR 4332 uses
`self.assertEqual(key1, key2)`, written as `assert bool(first == second)`; numpyro PR 1642 calls numpyro's
`is_prng_key`, whose typed-key test `shape == ()` is inlined; numpyro PR 1992 sets the default on the line
before, written inline; coreax PR 941 changes a field of an equinox module, written with
`dataclasses.make_dataclass` so that the failing line carries the fix; PyAutoFit PR 1221 is reduced to a
flatten rule that reads `vars(g)` per instance. Inferred: jumanji issue 28 (the thread's workaround is to
vmap the wrapped environment, so `fixed` vmaps the cond), flax issue 1429 (the maintainer fixed flax's
deserialization to restore the original NamedTuple class; `fixed` rebuilds the restored value with that
class), tunix PR 1880 (restores floating state leaves to their captured dtypes; `fixed` casts the updated
moment back), optree issue 126 (the fix is the reporter's `tree_transpose` call from the thread),
jaxoplanet issue 234 (the maintainers deleted the assert in PR 236; `fixed` is `pass`) and blackjax issue
227 (reduced with `jax.scipy.optimize.minimize` in place of blackjax's own L-BFGS; `fixed` is the
ravel-then-unravel approach the maintainers proposed in the thread).

Notes: the brief asked for 15 (5 per family) and allowed 18; 18 are here. A case from flax issue 1550
(the pytree twin of flax issue 1429) was written and then dropped, because it was a third case with JAX's
"pytree structure error: different types" message. Uncited branch threads were the scarcest: most
`lax.cond` and `lax.switch` threads in JAX's and the usual libraries' trackers are already cited.
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


# ---- part a


@error_case(family="vmap", fix="vmap-kwargs-positional", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/13849",
            line="return doubled_plus(left, right=right)",
            fixed="return doubled_plus(left, right)",
            args=lambda: (jnp.arange(5.0), jnp.ones(5)))
def add_rows_by_keyword(left, right):
    doubled_plus = jax.vmap(lambda a, right: a * 2.0 + right, in_axes=(0, 0))
    return doubled_plus(left, right=right)


@error_case(family="loops", fix="pcast-carry-b14a", raises="TypeError",
            source="https://github.com/jeertmans/DiffeRT/issues/280",
            line="final, partials = lax.scan(step, jnp.zeros(block.shape[1:]), block)",
            fixed="final, partials = lax.scan(step, jax.lax.pcast(jnp.zeros(block.shape[1:]), ('rows',), to='varying'), block)",
            args=lambda: (np.arange(12.0, dtype=np.float32).reshape(4, 3),))
def sharded_running_sums(rows):
    mesh = jax.make_mesh((1,), ('rows',), axis_types=(jax.sharding.AxisType.Auto,))

    def per_shard(block):
        def step(acc, row):
            acc = acc + row
            return acc, jnp.sum(acc)
        final, partials = lax.scan(step, jnp.zeros(block.shape[1:]), block)
        return final[None], partials

    return jax.jit(jax.shard_map(per_shard, mesh=mesh, in_specs=jax.P('rows'),
                                 out_specs=(jax.P('rows'), jax.P('rows'))))(rows)


@error_case(family="loops", fix="pcast-carry-b14a", raises="TypeError",
            source="https://github.com/microsoft/folx/pull/36",
            line="_, total = lax.while_loop(lambda s: s[0] < x.shape[0], body, (0, jnp.zeros(x.shape[1])))",
            fixed="_, total = lax.while_loop(lambda s: s[0] < x.shape[0], body, (0, jax.lax.pcast(jnp.zeros(x.shape[1]), ('i',), to='varying')))",
            args=lambda: (np.arange(12.0, dtype=np.float32).reshape(4, 3),))
def sharded_projected_squares(samples):
    mesh = jax.make_mesh((1,), ('i',), axis_types=(jax.sharding.AxisType.Auto,))

    def local(x):
        basis = jnp.eye(x.shape[1])

        def body(state):
            k, acc = state
            return k + 1, acc + (x[k] @ basis) * x[k]
        _, total = lax.while_loop(lambda s: s[0] < x.shape[0], body, (0, jnp.zeros(x.shape[1])))
        return total[None]

    return jax.jit(jax.shard_map(local, mesh=mesh, in_specs=jax.P('i'), out_specs=jax.P('i')))(samples)


@error_case(family="grad", fix="np-to-jnp", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/issues/9085",
            line="scale = np.exp(-float(rate))",
            fixed="scale = jnp.exp(-rate)",
            args=lambda: (jnp.float32(0.5), jnp.arange(4.0)))
def decay_rate_gradient(rate0, times):
    def misfit(rate):
        scale = np.exp(-float(rate))
        return jnp.sum((times * scale - 1.0) ** 2)
    return jax.grad(misfit)(rate0)


@error_case(family="vmap", fix="vmap-in-axes-none", raises="ConcretizationTypeError",
            source="https://openillumi.com/en/en-jax-vmap-fixed-size-jit-misunderstanding",
            line="return jax.vmap(lambda n, g: jnp.sum(jnp.arange(n) * g))(lengths, gains)",
            fixed="return jax.vmap(lambda n, g: jnp.sum(jnp.arange(n) * g), in_axes=(None, 0))(int(lengths[0]), gains)",
            args=lambda: (np.array([4, 4, 4]), jnp.array([0.5, 1.0, 2.0])))
def ramp_totals(lengths, gains):
    return jax.vmap(lambda n, g: jnp.sum(jnp.arange(n) * g))(lengths, gains)


@error_case(family="vmap", fix="vmap-kwargs-positional", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/10193",
            line="return shifted(points, shift=offsets)",
            fixed="return jax.vmap(lambda p, shift: p + jnp.sum(shift), in_axes=(0, None))(points, offsets)",
            args=lambda: (jnp.arange(3.0), jnp.array([0.25, 0.75])))
def shift_each_point(points, offsets):
    shifted = jax.vmap(lambda p, shift: p + jnp.sum(shift))
    return shifted(points, shift=offsets)


@error_case(family="loops", fix="fori_loop", raises="ValueError",
            source="https://github.com/tensorflow/tensorflow/issues/62828",
            line="return jax.grad(lambda a: jnp.sum(lax.while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, step(s[0], s[1])), (0, a))[1] ** 2))(basis)",
            fixed="return jax.grad(lambda a: jnp.sum(lax.fori_loop(0, n, step, a) ** 2))(basis)",
            args=lambda: (jnp.eye(3) + 0.1,))
def gram_schmidt_norm_grad(basis):
    n = basis.shape[-1]

    def step(k, q):
        v = q[:, k]
        v = v - q.dot(jnp.where(jnp.arange(n) < k, q.T.dot(v), 0.0))
        return q.at[:, k].set(v / jnp.linalg.norm(v))
    return jax.grad(lambda a: jnp.sum(lax.while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, step(s[0], s[1])), (0, a))[1] ** 2))(basis)


@error_case(family="vmap", fix="callback-api", raises="TracerArrayConversionError",
            source="https://github.com/deepmodeling/jax-fem/issues/3",
            line="return jnp.asarray(np.linalg.solve(stiffness, load))",
            fixed="return jax.pure_callback(np.linalg.solve, jax.ShapeDtypeStruct(load.shape, load.dtype), stiffness, load, vmap_method='sequential')",
            args=lambda: (jnp.stack([jnp.eye(3) * 2.0, jnp.eye(3) * 4.0]), jnp.ones((2, 3))))
def batched_host_solves(stiffnesses, loads):
    def solve_one(stiffness, load):
        return jnp.asarray(np.linalg.solve(stiffness, load))
    return jax.vmap(solve_one)(stiffnesses, loads)


@error_case(family="vmap", fix="batch-leading-axis", raises="ValueError",
            source="https://github.com/google-research/discs/issues/63",
            line="return jax.vmap(step)(jax.random.split(key, experiment_models), params)",
            fixed="return jax.vmap(step)(jax.random.split(key, model_models), params)",
            args=lambda: (jnp.ones((4, 4)), 8, 1))
def parallel_burn_in(edge_weight, experiment_models, model_models):
    key = jax.random.key(0)
    params = jnp.broadcast_to(edge_weight, (model_models,) + edge_weight.shape)
    step = lambda k, w: jnp.sum(w) + jax.random.normal(k)
    return jax.vmap(step)(jax.random.split(key, experiment_models), params)


@error_case(family="grad", fix="np-to-jnp", raises="TracerArrayConversionError",
            source="https://github.com/bsc-quantic/tn4ml/issues/4",
            line="penalty = np.log(1.0 + np.maximum(norm - 1.0, 0.0))",
            fixed="penalty = jnp.log(1.0 + jnp.maximum(norm - 1.0, 0.0))",
            args=lambda: (jnp.ones(4),))
def regularised_loss_grad(cores):
    def loss(c):
        norm = jnp.sqrt(jnp.sum(c ** 2))
        penalty = np.log(1.0 + np.maximum(norm - 1.0, 0.0))
        return penalty + jnp.sum(c)
    return jax.grad(loss)(cores)


@error_case(family="loops", fix="xs-equal-length-b14a", raises="ValueError",
            source="https://github.com/blackjax-devs/blackjax/issues/267",
            line="_, sizes = lax.scan(step, init_step, (draws, jnp.concatenate([jnp.zeros(num_steps // 4), jnp.ones(num_steps - num_steps // 4 - 1)])))",
            fixed="_, sizes = lax.scan(step, init_step, (draws, jnp.concatenate([jnp.zeros(num_steps // 4), jnp.ones(num_steps - num_steps // 4)])))",
            args=lambda: (jnp.float32(0.1), 12))
def adapt_step_sizes(init_step, num_steps):
    draws = jnp.linspace(0.0, 1.0, num_steps)

    def step(size, inp):
        u, slow = inp
        size = jnp.where(slow > 0, size * (0.9 + 0.2 * u), size)
        return size, size
    _, sizes = lax.scan(step, init_step, (draws, jnp.concatenate([jnp.zeros(num_steps // 4), jnp.ones(num_steps - num_steps // 4 - 1)])))
    return sizes


@error_case(family="loops", fix="pcast-carry-b14a", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/27664",
            line="_, _, y = lax.while_loop(cond, body, (0, jnp.inf, b))",
            fixed="_, _, y = lax.while_loop(cond, body, (0, jax.lax.pcast(jnp.float32(jnp.inf), ('x',), to='varying'), b))",
            args=lambda: (np.linspace(0.0, 0.5, 4).astype(np.float32),))
def sharded_fixed_points(rhs):
    mesh = jax.make_mesh((1,), ('x',), axis_types=(jax.sharding.AxisType.Auto,))

    def local(b):
        def cond(state):
            k, resid, y = state
            return (k < 50) & (resid > 1e-6)

        def body(state):
            k, resid, y = state
            y_new = jnp.cos(y) + b
            return k + 1, jnp.max(jnp.abs(y_new - y)), y_new
        _, _, y = lax.while_loop(cond, body, (0, jnp.inf, b))
        return y

    return jax.jit(jax.shard_map(local, mesh=mesh, in_specs=jax.P('x'), out_specs=jax.P('x')))(rhs)


@error_case(family="grad", fix="pcast-cotangent-b14a", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/29832",
            line="return jax.vmap(pull)(jnp.eye(y.shape[0]))[0]",
            fixed="return jax.vmap(pull)(jax.lax.pcast(jnp.eye(y.shape[0]), ('S',), to='varying'))[0]",
            args=lambda: (np.arange(12.0, dtype=np.float32).reshape(4, 3),
                          np.arange(8.0, dtype=np.float32).reshape(2, 4)))
def sharded_output_jacobian(weights, inputs):
    mesh = jax.make_mesh((1,), ('S',), axis_types=(jax.sharding.AxisType.Auto,))

    def local(w, xs):
        y, pull = jax.vjp(lambda v: jnp.sum(xs @ v, axis=-1), w)
        return jax.vmap(pull)(jnp.eye(y.shape[0]))[0]

    return jax.jit(jax.shard_map(local, mesh=mesh, in_specs=(jax.P(), jax.P('S')),
                                 out_specs=jax.P('S')))(weights, inputs)


@error_case(family="grad", fix="pcast-cotangent-b14a", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/29965",
            line="return pull(jnp.ones(()))",
            fixed="return pull(jax.lax.pcast(jnp.ones(()), ('S',), to='varying'))",
            args=lambda: (np.array([0.5, -1.0, 2.0], dtype=np.float32),
                          np.arange(12.0, dtype=np.float32).reshape(4, 3)))
def per_row_param_grads(p, rows):
    mesh = jax.make_mesh((1,), ('S',), axis_types=(jax.sharding.AxisType.Auto,))

    def one_grad(x):
        y, pull = jax.vjp(lambda q: jnp.dot(x, q), p)
        return pull(jnp.ones(()))

    return jax.jit(jax.shard_map(lambda r: lax.map(one_grad, r)[0], mesh=mesh,
                                 in_specs=jax.P('S'), out_specs=jax.P('S')))(rows)
# ---- part b


@error_case(family="keys", fix="key-one-style", raises="ValueError",
            source="https://github.com/pyro-ppl/numpyro/pull/2073",
            line="padded = jnp.pad(draw_keys, ((0, pad),))",
            fixed="padded = jnp.pad(jax.random.key_data(draw_keys), ((0, pad), (0, 0)))",
            args=lambda: (jnp.array([0.3, -1.2, 0.8, 2.0, 0.1]), 4, 11))
def chunked_posterior_draws(locs, chunk, seed):
    draw_keys = jax.random.split(jax.random.key(seed), locs.shape[0])
    pad = -locs.shape[0] % chunk
    padded = jnp.pad(draw_keys, ((0, pad),))
    padded_locs = jnp.pad(locs, (0, pad))
    chunks = (padded.reshape(-1, chunk, *padded.shape[1:]), padded_locs.reshape(-1, chunk))
    draws = lax.map(lambda kl: jax.vmap(lambda k, l: l + jax.random.normal(k))(*kl), chunks)
    return draws.reshape(-1)[:locs.shape[0]]


@error_case(family="branches", fix="cast", raises="TypeError",
            source="https://github.com/google-deepmind/optax/pull/1122",
            line="updates, acc = lax.cond((step + 1) % every == 0, emit, lambda a: (jnp.zeros_like(a), a), acc)",
            fixed="updates, acc = lax.cond((step + 1) % every == 0, emit, lambda a: (jnp.zeros_like(a).astype(jnp.float32), a), acc)",
            args=lambda: (jnp.zeros(3, dtype=jnp.bfloat16), jnp.array([0.5, -1.0, 2.0]), 2, 4))
def microbatch_accumulate(acc, grads, step, every):
    acc = acc + grads.astype(acc.dtype)
    emit = lambda a: (a.astype(jnp.float32) / every, jnp.zeros_like(a))
    updates, acc = lax.cond((step + 1) % every == 0, emit, lambda a: (jnp.zeros_like(a), a), acc)
    return updates, acc


@error_case(family="keys", fix="issubdtype-b12c", raises="TypeError",
            source="https://github.com/google-deepmind/optax/pull/1169",
            line="hyper = {name: jnp.asarray(v, jnp.float32) if jax.dtypes.scalar_type_of(v) is float else v for name, v in hyper.items()}",
            fixed="hyper = {name: jnp.asarray(v, jnp.float32) if jax.dtypes.issubdtype(getattr(v, 'dtype', type(v)), jnp.floating) else v for name, v in hyper.items()}",
            args=lambda: (jnp.array([1.0, -2.0, 0.5]), 2e-3, 17))
def noisy_update_with_hyperparams(grads, scale, seed):
    hyper = {'noise_scale': scale, 'noise_key': jax.random.key(seed)}
    hyper = {name: jnp.asarray(v, jnp.float32) if jax.dtypes.scalar_type_of(v) is float else v for name, v in hyper.items()}
    noise = jax.random.normal(hyper['noise_key'], grads.shape)
    return grads + hyper['noise_scale'] * noise


@error_case(family="pytrees", fix="tree-api", raises="TypeError",
            source="https://github.com/google/jaxopt/pull/597",
            line="return objective(xx) - jnp.sum(lin * xx)",
            fixed="return objective(xx) - sum(jax.tree.leaves(jax.tree.map(lambda a, b: jnp.sum(a * b), lin, xx)))",
            args=lambda: ((jnp.array([1.0, 2.0]), jnp.array([0.5])), (jnp.array([0.3, -0.1]), jnp.array([2.0]))))
def quadratic_part_matvec(x, lin):
    def objective(z):
        return 0.5 * jnp.sum(z[0] ** 2) + 1.5 * jnp.sum(z[1] ** 2) + jnp.sum(lin[0] * z[0]) + jnp.sum(lin[1] * z[1])

    def minus_linear(xx):
        return objective(xx) - jnp.sum(lin * xx)
    return jax.grad(minus_linear)(x)


@error_case(family="pytrees", fix="tree-same-structure", raises="ValueError",
            source="https://github.com/google/jaxopt/pull/420",
            line="return jax.tree.map(shrink, params, l1reg)",
            fixed="return jax.tree.map(shrink, params, jax.tree.map(lambda y: l1reg * jnp.ones_like(y), params))",
            args=lambda: ({'w': jnp.array([0.5, -2.0, 0.05]), 'b': jnp.array([0.1])}, 0.3, 0.5))
def soft_threshold_params(params, l1reg, step):
    def shrink(u, lam):
        return jnp.sign(u) * jax.nn.relu(jnp.abs(u) - lam * step)
    return jax.tree.map(shrink, params, l1reg)


@error_case(family="keys", fix="key-equality-b14b", raises="TypeError",
            source="https://github.com/google/flax/pull/4332",
            line="np.testing.assert_array_equal(first, second)",
            fixed="assert bool(first == second)",
            args=lambda: (jnp.linspace(0.0, 1.0, 4), 5, 2))
def reproducible_dropout_mask(x, seed, layer):
    first = jax.random.fold_in(jax.random.key(seed), layer)
    second = jax.random.fold_in(jax.random.key(seed), layer)
    np.testing.assert_array_equal(first, second)
    return x * jax.random.bernoulli(first, 0.8, x.shape)


@error_case(family="keys", fix="typed-key-scalar-b14b", raises="ValueError",
            source="https://github.com/pyro-ppl/numpyro/pull/1642",
            line="return draw(rng_key) if rng_key.ndim == 1 else jax.vmap(draw)(rng_key)",
            fixed="return draw(rng_key) if rng_key.shape == () else jax.vmap(draw)(rng_key)",
            args=lambda: (jnp.array([0.5, -1.0, 2.0]), 3))
def initial_chain_states(x0, seed):
    rng_key = jax.random.key(seed)

    def draw(k):
        return x0 + 0.1 * jax.random.normal(k, x0.shape)
    return draw(rng_key) if rng_key.ndim == 1 else jax.vmap(draw)(rng_key)


@error_case(family="branches", fix="vmap-cond-b14b", raises="TypeError",
            source="https://github.com/instadeepai/jumanji/issues/28",
            line="return lax.cond(done, lambda r: (r, jnp.zeros_like(r)), lambda r: (r, jnp.ones_like(r)), reward)",
            fixed="return jax.vmap(lambda d, rw: lax.cond(d, lambda r: (r, jnp.zeros_like(r)), lambda r: (r, jnp.ones_like(r)), rw))(done, reward)",
            args=lambda: (jnp.array([False, True, False]), jnp.array([0.5, 1.0, -0.2])))
def batched_env_timestep(done, reward):
    return lax.cond(done, lambda r: (r, jnp.zeros_like(r)), lambda r: (r, jnp.ones_like(r)), reward)


@error_case(family="keys", fix="jax-array-type", raises="AttributeError",
            source="https://github.com/jax-md/jax-md/pull/304",
            line="key = key_or_seed if isinstance(key_or_seed, jax.random.KeyArray) else jax.random.key(key_or_seed)",
            fixed="key = key_or_seed if isinstance(key_or_seed, jax.Array) else jax.random.key(key_or_seed)",
            args=lambda: (jnp.array([0.2, -0.4, 1.0]), 7, 0.1))
def langevin_kick(momentum, key_or_seed, gamma):
    key = key_or_seed if isinstance(key_or_seed, jax.random.KeyArray) else jax.random.key(key_or_seed)
    noise = jax.random.normal(key, momentum.shape)
    return momentum * (1.0 - gamma) + jnp.sqrt(gamma) * noise


@error_case(family="pytrees", fix="per-instance-aux-b14b", raises="AttributeError",
            source="https://github.com/PyAutoLabs/PyAutoFit/pull/1221",
            line="jax.tree_util.register_pytree_node(Galaxy, lambda g: ([getattr(g, n) for n in names], names), unflatten)",
            fixed="jax.tree_util.register_pytree_node(Galaxy, lambda g: ([getattr(g, n) for n in sorted(vars(g))], tuple(sorted(vars(g)))), unflatten)",
            args=lambda: ({'bulge': jnp.ones(3), 'mass': jnp.array(2.0)}, {'pixelization': jnp.arange(4.0)}))
def galaxy_light_sum(lens_kwargs, source_kwargs):
    class Galaxy:
        def __init__(self, redshift, **kwargs):
            self.redshift = redshift
            self.__dict__.update(kwargs)

    def unflatten(field_names, children):
        g = object.__new__(Galaxy)
        g.__dict__.update(zip(field_names, children))
        return g
    lens = Galaxy(0.5, **lens_kwargs)
    source = Galaxy(1.0, **source_kwargs)
    names = tuple(sorted(vars(lens)))
    jax.tree_util.register_pytree_node(Galaxy, lambda g: ([getattr(g, n) for n in names], names), unflatten)
    return jax.jit(lambda gs: sum(jnp.sum(leaf) for leaf in jax.tree.leaves(gs)))([lens, source])


@error_case(family="branches", fix="carry-keep-dtype", raises="TypeError",
            source="https://github.com/google/tunix/pull/1880",
            line="return lax.cond(step % accum == accum - 1, lambda m: m * 0.9 + 0.1 * grad_sq, lambda m: m, moment)",
            fixed="return lax.cond(step % accum == accum - 1, lambda m: (m * 0.9 + 0.1 * grad_sq).astype(m.dtype), lambda m: m, moment)",
            args=lambda: (jnp.zeros(3, dtype=jnp.bfloat16), jnp.array([0.1, 0.4, 0.9]), 3, 4))
def accumulated_second_moment(moment, grad_sq, step, accum):
    return lax.cond(step % accum == accum - 1, lambda m: m * 0.9 + 0.1 * grad_sq, lambda m: m, moment)


@error_case(family="pytrees", fix="tree-transpose-b14b", raises="ValueError",
            source="https://github.com/metaopt/optree/issues/126",
            line="means, scales = jax.tree.map(moments, layers)",
            fixed="means, scales = jax.tree_util.tree_transpose(jax.tree.structure(layers), jax.tree.structure(('*', '*')), jax.tree.map(moments, layers))",
            args=lambda: ([jnp.array([1.0, 3.0]), jnp.array([[0.5, -0.5], [2.0, 4.0]]), jnp.arange(4.0)],))
def layer_statistics(layers):
    def moments(w):
        return jnp.mean(w), jnp.std(w)
    means, scales = jax.tree.map(moments, layers)
    return jnp.stack(means), jnp.stack(scales)


@error_case(family="branches", fix="tree-same-structure", raises="TypeError",
            source="https://github.com/google/flax/issues/1429",
            line="return lax.cond(jnp.isfinite(loss), lambda: stepped, lambda: restored)",
            fixed="return lax.cond(jnp.isfinite(loss), lambda: stepped, lambda: type(stepped)(*restored))",
            args=lambda: (jnp.array([1.0, -2.0]), jnp.array([0.5, 0.5]), 0.1, 3))
def step_or_keep_restored(params, grads, lr, step):
    class TrainState(NamedTuple):
        step: jnp.ndarray
        params: jnp.ndarray
    saved = {'step': jnp.asarray(step), 'params': params}
    restored = NamedTuple('TrainState', [(k, jnp.ndarray) for k in saved])(**saved)
    stepped = TrainState(restored.step + 1, restored.params - lr * grads)
    loss = jnp.sum(stepped.params ** 2)
    return lax.cond(jnp.isfinite(loss), lambda: stepped, lambda: restored)


@error_case(family="branches", fix="drop-assert-b14b", raises="TracerBoolConversionError",
            source="https://github.com/exoplanet-dev/jaxoplanet/issues/234",
            line="assert coeffs[0] != 0.0, 'the (0, 0) coefficient must be non-zero to normalize'",
            fixed="pass",
            args=lambda: (jnp.array([[1.0, 0.0, 0.3, 0.0], [2.0, 0.1, -0.4, 0.0]]),))
def normalized_map_coefficients(batch):
    def normalize(coeffs):
        assert coeffs[0] != 0.0, 'the (0, 0) coefficient must be non-zero to normalize'
        return coeffs / coeffs[0]
    return jax.vmap(normalize)(batch)


@error_case(family="keys", fix="is-none-check", raises="TypeError",
            source="https://github.com/pyro-ppl/numpyro/pull/1992",
            line="kernel = 0.1 * jax.random.normal(rng_key, (features.shape[-1], width))",
            fixed="kernel = 0.1 * jax.random.normal(rng_key if rng_key is not None else jax.random.key(0), (features.shape[-1], width))",
            args=lambda: (jnp.ones((2, 3)), 4, {}))
def init_dense_from_context(features, width, handler_state):
    rng_key = handler_state.get('rng_key')
    kernel = 0.1 * jax.random.normal(rng_key, (features.shape[-1], width))
    return jnp.tanh(features @ kernel)


@error_case(family="pytrees", fix="none-leaf", raises="ValueError",
            source="https://github.com/google-research/jaxpruner/issues/12",
            line="return jax.tree.map(lambda m, p: p * m, masks, params)",
            fixed="return jax.tree.map(lambda m, p: p if m is None else p * m, masks, params, is_leaf=lambda x: x is None)",
            args=lambda: ({'kernel': jnp.array([[0.5, -0.01], [0.02, 1.5]]), 'bias': jnp.array([0.1, -0.1])}, 0.05))
def apply_sparsity_masks(params, threshold):
    masks = {'kernel': (jnp.abs(params['kernel']) > threshold).astype(params['kernel'].dtype), 'bias': None}
    return jax.tree.map(lambda m, p: p * m, masks, params)


@error_case(family="keys", fix="default-factory-b14b", raises="ValueError",
            source="https://github.com/gchq/coreax/pull/941",
            line="KernelHerding = dataclasses.make_dataclass('KernelHerding', [('coreset_size', int), ('random_key', jax.Array, jax.random.key(0))])",
            fixed="KernelHerding = dataclasses.make_dataclass('KernelHerding', [('coreset_size', int), ('random_key', jax.Array, dataclasses.field(default_factory=lambda: jax.random.key(0)))])",
            args=lambda: (jnp.arange(12.0).reshape(6, 2), 3))
def herding_coreset(data, size):
    KernelHerding = dataclasses.make_dataclass('KernelHerding', [('coreset_size', int), ('random_key', jax.Array, jax.random.key(0))])
    solver = KernelHerding(size)
    picks = jax.random.choice(solver.random_key, data.shape[0], (solver.coreset_size,), replace=False)
    return data[picks]


@error_case(family="pytrees", fix="ravel-pytree-b14b", raises="ValueError",
            source="https://github.com/blackjax-devs/blackjax/issues/227",
            line="result = minimize(lambda x: neg_log_post(x), init, method='BFGS')",
            fixed="result = minimize(lambda x: neg_log_post(unravel(x)), ravel_pytree(init)[0], method='BFGS')",
            args=lambda: ((jnp.array([0.2, -0.1]), jnp.array(0.5)), jnp.array([1.0, 2.0, 0.5])))
def posterior_mode(init, data):
    from jax.flatten_util import ravel_pytree
    from jax.scipy.optimize import minimize

    def neg_log_post(p):
        loc, log_scale = p
        return jnp.sum((data[:, None] - loc) ** 2) * jnp.exp(-2 * log_scale) / 2 + data.size * log_scale
    _, unravel = ravel_pytree(init)
    result = minimize(lambda x: neg_log_post(x), init, method='BFGS')
    return unravel(result.x)
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
