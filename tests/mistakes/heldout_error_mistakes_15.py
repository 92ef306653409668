"""A fifteenth held-out batch of JAX errors outside jit, written by four blind helper sessions at once
(vmap and grad; loops and branches; pytrees and keys; custom rules, shapes and other) that never opened
the rules under `autograder/` nor any message the course prints, from one brief
(its rules: one public thread per case, none cited by an earlier batch; each part checked
with `check_error_cases.py --part`), so that its first run measures the rules on mistakes they were not
written from. Each part's own account follows, as its helper wrote it.

## Part a

Part a of the fifteenth held-out batch (families vmap and grad), written by a blind helper session that never
opened the rules under `autograder/` nor any message the course prints, nor ran anything that imports `autograder`.

How the cases were found: every thread below was checked against the `source=` of every file in `tests/mistakes`
before use (the jax-ml/jax tracker is heavily mined there, so most searches for the plain vmap/grad error texts
returned cited threads only). New threads came from three directions: downstream trackers (jax-md, PyAutoFit,
JAXbind, equinox), JAX issues about operations whose derivative or batching rule refuses a particular call
(SVD with full matrices, `BCOO.fromdense`, `jax.checkpoint` with a Python flag, `pure_callback`'s old
`vectorized=True`), and two pages of JAX's own documentation plus one public tutorial notebook, where the
authors show the failing call and the fix. Each thread was read through the search excerpts (and, for JAXbind,
the fix commit in a fetched snapshot). The code is my own (own names and numbers); the mistake and the fix are
the thread's. Called eagerly on `args()` with the pinned jax 0.10.2, each function raises `raises` at `line`,
and runs once `fixed` is swapped in. Where the thread's fix sits on another line than the one that raises, the
offending call is inlined onto the raising line.

The 12 cases, one thread each:
- vmap: jax-md issue 101 (`vmap(neighbor_fn)` sizes a neighbour table with `int()` of a per-example count; the
  maintainer: the capacity must be allocated up front, so it is computed once, outside the vmapped function, from
  the whole batch), jax issue 17187 (a host `np.matmul` callback written for the old `vectorized=True` batching
  with one unbatched operand; fix `vmap_method='expand_dims'`, the broadcasting batching the issue led to),
  the external-callbacks page of the JAX docs (an `io_callback(..., ordered=True)` inside a vmapped function
  cannot be batched; use an unordered callback), jax issue 7603 (a vmapped function returns a non-array value,
  a string, with `out_axes=None`; the reporter's fix wraps it in a registered pytree node that keeps it as aux
  data), jax issue 18245 (`jax.vmap(sparse.BCOO.fromdense)`; the maintainer: pass a static `nse`), PyAutoFit
  issue 1216 (two likelihood constraints joined with Python `and` on traced values under the JAX/vmap path; fix
  `logical_and`).
- grad: equinox issue 502 (a differentiated function called with every argument by keyword; fixed by PR 503,
  whose message says the differentiated argument must be passed by position), JAXbind issue 9 (a VJP pullback
  called with a tuple cotangent for a function that returns a list; fix commit of PR 11 passes a list), jax
  issue 508 (`jnp.linalg.svd` of a non-square matrix has no JVP with `full_matrices=True`; the maintainers note
  only the `full_matrices=False` case is implemented), jax issue 7426 (`jax.checkpoint` of a function that
  branches in Python on a flag passed as an argument; the maintainer: make it static with `functools.partial`),
  the complex-differentiation page of the JAX docs (`jax.grad` of a complex-output function needs
  `holomorphic=True`), and the annotated-jax notebook (ShawonAshraf/annotated-jax: `grad` of a vector-valued
  function; the author's fix is `jax.jacobian`).

New categories (regexes written from the fixes alone): `svd-reduced-b15a` (call `svd` with `full_matrices=False`,
the reduced decomposition), `unordered-callback-b15a` (drop `ordered=True` from the callback so vmap can batch
it), `static-nse-b15a` (give `BCOO.fromdense` a static `nse`), `aux-wrapper-b15a` (carry the non-array value
in the aux data of a registered pytree node). Existing categories used: compute-outside-trace, vmap-method,
elementwise-and, grad-argnums, tree-same-structure, functools-partial, holomorphic-flag, jacobian-b11a.

Caveats: jax-md issue 101's stored excerpt is cut after "we need to allocate memory upfront for the maximum number
of neighbors"; the reduction (a capacity computed once from the concrete batch and bound with `functools.partial`)
is my reading of that fix. jax issue 17187 predates `vmap_method`; on the pinned jax the old `vectorized=True`
flag no longer selects a batching rule, so the case raises the "vmap_method" error and `fixed` uses
`'expand_dims'`, the broadcasting method that replaced it (inferred: the `vmap_method` redesign of JAX PR 23881 is
what addressed the issue; the excerpt does not show the closing comment). The two documentation pages are
maintainers' write-ups rather than user reports; the external-callbacks page only says that vmapping an ordered
callback raises, so `ordered=False` is inferred. jax issue 508 is an enhancement thread; its fix is the
maintainers' remark that the `full_matrices=False` JVP exists. Equinox issue 502 uses `eqx.filter_grad`; the case
reproduces the same keyword-only call with `jax.value_and_grad`. jax issue 7603 returns an `object()`; the case
returns a string label. The remat case inlines the checkpointed lambda so that the branch that raises and the call
that the fix changes share a line.

Shortfall: none against the counts asked (vmap 6, grad 6).

## Part b

Part b of the fifteenth held-out batch (families loops and branches), written by a blind helper session that
never opened the rules under `autograder/` nor any message the course prints.

How the cases were found: every candidate thread was checked against the `source=` of every file in
`tests/mistakes` before it was used. The JAX tracker's loop and branch threads that the search tools surface are
nearly all cited already, so the branch cases come from the git history of JAX and of downstream projects (pull
requests whose diff is the fix: jax-ml/jax, kscalelabs/ksim, genjax-community/genjax), and the loop cases from
public tutorial and question-and-answer pages that state a mistake and its fix (crackedaicode.com problem pages,
whose "Common pitfalls" sections name the error and the repair, and a question-and-answer mirror page). The code
is my own (names and numbers differ); the mistake and the fix are the source's. Each function raises `raises` at
`line` when called eagerly on `args()` with the pinned jax, and runs with `fixed` in its place.

The 11 cases, one source each:
- loops: crackedaicode "lax.while_loop vs Python while" (a Python `while` on a traced value inside `jit`; use
  `lax.while_loop`), crackedaicode "Scan over Layer Stack" (the scan body returns only the new carry; return
  `(new_carry, None)`), crackedaicode "x^n via lax.fori_loop" (the trip count arrives as a float JAX scalar; cast
  the upper bound with `jnp.int32`), crackedaicode "Cumulative Sum via lax.scan" (an integer initial carry for a
  float scan; build the init with the data's dtype), crackedaicode "lax.map vs vmap" (the mapped function is
  written for the whole batch, but `lax.map` hands it one slice of `xs`; index the single element), taourl.com
  "Jax - Passing a constant argument into a scanned function" (a three-argument step function given to `scan`;
  bind the constant with a closure).
- branches: jax PR 9868 (`lax.select` given operands of different but broadcastable shapes; broadcast them first
  with `jnp.broadcast_arrays`), ksim PR 415 (`jnp.where` applied to a dict-valued carry; map it over the leaves
  with `jax.tree.map`), ksim PR 344 (`jnp.where` given the whole per-step `done` sequence as its condition against
  a per-episode carry; use the last step's flag, `done[..., -1]`), genjax PR 1140 (a cookbook entry: a `lax.cond`
  whose one branch returns the integer input squared and the other a NumPy float array; with float input both
  branches agree, written here as a cast), crackedaicode "vmap over lax.cond" (a batch of predicates given to
  `lax.cond`; vmap the per-example cond).

New categories: `select-broadcast-b15b` (broadcast the operands of `lax.select` to one common shape before
selecting, e.g. with `jnp.broadcast_arrays`, because `lax.select` does not broadcast) and `last-step-b15b` (take
the final step's flag, `[..., -1]`, instead of the whole per-step sequence). Existing categories used: while_loop,
scan-pair, loop-int-bounds, carry-keep-dtype, xs-shape, close-over, tree-api, cast, vmap-cond-b14b.

Caveats: the crackedaicode pages and the taourl page are tutorial/answer pages, not issue threads; each states the
mistake and the fix in prose, and the code here is reduced from that prose (for the fori_loop page the fix is its
"cast with jnp.int32(n)" advice; for the cumsum page, its "use jnp.zeros((), dtype=x.dtype)" advice; for the
lax.map page, its "f receives one element, shape xs.shape[1:]" advice). jax PR 9868 fixed JAX's own jet rule for
`lax.max`; the reduction writes the same `lax.select` call in user code. ksim PRs 415 and 344 fixed ksim's
reward-carry reset; the reduction keeps the `jnp.where` reset. genjax PR 1140 shows the failing call and, just
before it, a working call with float input; `fixed` casts the input to float32, which is inferred from that
working call rather than written in the entry. xs-shape is used for the lax.map case because its pattern is about
the function receiving each slice of `xs`.

Shortfall: none against the counts asked (6 loops, 5 branches); GitHub threads for loops that are not already
cited were the scarcest, which is why the loop cases lean on tutorial pages.

## Part c

Part c of the fifteenth held-out batch (families pytrees and keys), written by a blind helper session that never
opened the rules under `autograder/` nor any message the course prints.

How the cases were found: the `source=` of every file in `tests/mistakes/` was collected first, and each
candidate thread was checked against that list before use. Threads came from semantic searches of the issue
tracker corpus (JAX, TensorFlow Probability, GPJax, PyAutoLens, liesel, equinox), from the git history of
downstream projects fetched as snapshots (optax, invrs-io/opt, jax-ml/coix, liesel) where the fix commit shows
the before/after lines, and from one open JAX issue. The code is new (own names and numbers); the mistake and
the fix are the thread's. Each function raises `raises` at `line` on the pinned jax 0.10.2 and runs with
`fixed` in its place; where the thread's fix sits on another line, the offending thing was put on the line
that raises.

The 12 cases (pytrees 6, keys 6), one thread each:
- pytrees, jax PR 2935: an L2 penalty written with `tree.reduce` and no initializer takes the first leaf
  as-is, so the loss is not a scalar and `jax.grad` fails; fix: pass the initializer `0.0` (the PR's own
  example, `tree_reduce(l2_sum, params, 0.)`).
- pytrees, equinox issue 296: a pytree class with a custom `__new__(cls, x)` whose `tree_unflatten` calls
  `cls.__new__(cls)`; fix (the reporter's, citing the JAX pytree docs): `object.__new__(cls)`.
- pytrees, PyAutoLens PR 561: a class registered by one code path (a model walker) and again by another that
  only checks its own record, giving "Duplicate custom PyTreeDef type registration"; fix: guard the
  registration with the union of both records (the PR cross-populates the registered sets and adds flags).
- pytrees, invrs-io/opt PR 33: `register_dataclass` with a field (`metadata`) in neither `data_fields` nor
  `meta_fields`; fix: `meta_fields=["metadata"]` (the commit's one-line diff).
- pytrees, optax PR 1742: a NamedTuple train state updated with `store.replace(...)` inside a jitted step
  (AttributeError); fix: `store._replace(...)`.
- pytrees, optax PR 1374: `jax.tree.map(jnp.min, tree)` over a tree with a zero-size leaf (ValueError, no
  identity for min); fix: map empty leaves to `None` and reduce with an initializer (the PR's `tree_min`).
- keys, tensorflow/probability issue 1292: a SHA-512 salt folded into a key with `fold_in` overflows
  (OverflowError); fix: keep the low 32 bits, as TFP's samplers do: `salt & (2**32 - 1)`.
- keys, GPJax PR 191: the same key used for the inputs and for the noise; fix: split the key and draw each
  from its own key.
- keys, jax issue 25951: `jnp.cov` of a single-variable sample is a 0-d scalar, so `multivariate_normal`
  rejects it; fix: make the covariance 2-D (`jnp.atleast_2d`).
- keys, liesel PR 156: a key made with `PRNGKey` passed where an int seed was expected, and seeded again
  (TypeError "PRNGKey accepts a scalar seed"); fix: use the key as is when it is a `jax.Array`.
- keys, jax-ml/coix PR 5: `jax.random.split` called on a batch of keys (ValueError); fix: map the split over
  the batch with `jax.vmap(jax.random.split, ...)`.
- keys, jax-ml/coix PR 15: arithmetic on a key (`key + jnp.asarray([1, 0], dtype=key.dtype)`, `key + 1`) to
  make two keys, which typed keys reject; fix: `jax.random.split(key)`.

New fix categories (in `NEW_CATEGORIES`, each written from its thread's fix alone): `reduce-initializer-b15c`
(give `tree.reduce` an initial value), `register-once-b15c` (register a pytree type once, guarded by a record
of what is registered), `fold-in-uint32-b15c` (bring a large salt into the uint32 range before `fold_in`),
`split-fresh-key-b15c` (split, and draw each sample from its own key), `atleast-2d-cov-b15c` (a 2-D covariance
for `multivariate_normal`), `list-meta-field-b15c` (list the missing field in `meta_fields`),
`namedtuple-replace-b15c` (`._replace` on a NamedTuple), `skip-empty-leaves-b15c` (skip zero-size leaves or
give the reduction an initial value) and `vmap-split-b15c` (vmap `jax.random.split` over a batch of keys).
Existing categories used: `init-no-conversion-b10d` (its pattern names `object.__new__`), `key-not-seed` and
`key-no-arith`.

Caveats, where `fixed` or the error is inferred rather than shown in the thread: jax PR 2935 shows the fix
(an initializer) but not this failure; the case lets the missing initializer surface through `jax.grad`.
Equinox issue 296 is about equinox's own `tree_unflatten` (the maintainer preferred keeping `cls.__new__`
there); the reduction moves the unflatten rule into user code and uses the reporter's `object.__new__`.
PyAutoLens PR 561's fix spans module flags and set cross-population; `fixed` checks both records on one line.
invrs-io/opt PR 33 predates JAX's check for unlisted fields; on the pinned jax the omission raises at
registration. GPJax PR 191 reports no error (the reused key only correlates the draws); the case turns on
`jax.debug_key_reuse(True)` so the reuse raises `KeyReuseError`, and the thread's split is already in place
with the student drawing both samples from the same half. jax issue 25951 only says the reporter worked
around the scalar in their library; `jnp.atleast_2d` is the inferred workaround. TFP issue 1292's salt came
from `hashlib`; the reduction builds an equally oversized int with `int.from_bytes`.

Shortfall: none against the 6 + 6 asked. Keys threads outside the already-cited trackers were the hardest to
find; several candidates (float seeds, `PRNGKey` on an array of seeds, integer `categorical` logits) were
dropped for want of an uncited thread that gives the fix.

## Part d

Part d of the fifteenth held-out batch (families custom-rules, shapes and other), written by a blind helper
session that never opened the rules under `autograder/` nor any message the course prints.

How the cases were found: searches of the `issues` corpus (error texts, API names, "custom_vjp"/"custom_jvp"
with library names), and `git log --grep` over fetched snapshots of JAX-using libraries (deer, ksim, mctx,
evosax, min-dalle, equinox, ...) for fix commits, then reading the thread or commit that gave the fix. Every
source was checked against all `source=` lines of tests/mistakes/*.py before use. Each reproduction was run
on the pinned JAX 0.10.2; the code, names and numbers are my own.

custom-rules (4):
- deer PR 43: a custom_jvp rule gave its boolean output a bool tangent; fix: a float0 zero tangent,
  `jnp.zeros_like(ok, dtype=jax.dtypes.float0)` (new category float0-tangent-b15d).
- nufftax issue 13 (fixed in its PR 15): a custom_vjp whose function argument closes over the parameter
  being differentiated raises "differentiation ... with respect to a closed-over value" under jit; fix: hoist
  the closed-over values with `jax.closure_convert` and pass them as explicit inputs (closure-convert-b15d).
- jax issue 5309: a custom_jvp rule solving its tangent system with `jax.scipy.sparse.linalg.gmres` works
  with jacfwd but jacrev fails (NotImplementedError on 0.10.2); the reporter's working fix: a direct
  `jnp.linalg.solve` (direct-solve-b15d).
- jax issue 29342: a PRNG key given to custom_jvp through nondiff_argnums inside a scan, then
  differentiated; mattjj's fix: drop nondiff_argnums and pass the key as an ordinary argument
  (nondiff-arrays).
shapes (5):
- jax-rl issue 10: `.transpose((0, 1))` on a 3-D log-prob array; fix: drop the transpose
  (drop-transpose-b15d).
- ksim PR 317: jnp.where with a per-joint (n,) mask against stacked (n, 2) limits; fix: apply where to each
  1-D array and stack afterwards (mask-before-stack-b15d).
- ksim PR 446: per-environment curriculum levels (n,) scaling a (n, t, d) noise batch; fix: reduce the
  levels to one scalar with `.mean()` (reduce-to-scalar-b15d).
- mctx issue 37 (commit "Fixes #37"): `len(leaf)` (batch size) used as the rank when building a broadcast
  shape; fix: `len(leaf.shape)` (ndim-not-len-b15d).
- evosax PR 69: einsum 'i,ij->j' of elite-only weights against all population members; fix: use the weights
  zero-padded to the population (`weights_truncated`) (padded-weights-b15d).
other (6):
- flax issue 587: a dict passed as a jit static argument (unhashable); fix: a hashable tuple of its items
  (hashable-static-b15d).
- min-dalle issue 15: float16 keys/values written into a float32 cache with lax.dynamic_update_slice; fix:
  cast with `.astype(jnp.float32)` (cast).
- jax issue 15686: `np.from_dlpack(jax.dlpack.to_dlpack(x))`; fix: hand the array itself to
  `np.from_dlpack` (dlpack-direct-b15d).
- maxtext PR 2527: `jax.shard_map(..., check_rep=False)`; fix: `check_vma=False` (check-vma-b15d).
- jaxpruner issue 10: pjit with `in_axis_resources`/`out_axis_resources`; fix: `in_shardings`/
  `out_shardings` (in-shardings-b15d).
- equinox PR 1162: `jax.core.get_aval` (removed); fix: `jax.typeof` (typeof-b15d).

New categories (in NEW_CATEGORIES below, each written from the thread's fix and checked not to match the
error text JAX raises for its case): float0-tangent-b15d, closure-convert-b15d, direct-solve-b15d,
drop-transpose-b15d, mask-before-stack-b15d, reduce-to-scalar-b15d, ndim-not-len-b15d,
padded-weights-b15d, hashable-static-b15d, dlpack-direct-b15d, check-vma-b15d, in-shardings-b15d,
typeof-b15d; the comment above each says what it means.

Caveats: min-dalle 15's `fixed` comes from the repository's fix commit (b40fd83), not from the issue text.
jax 15686's thread shows a PyCapsule error from an older stack; on 0.10.2 the same line raises an
AttributeError (`to_dlpack` is gone), the fix being the same. jax 29342's thread reports a symbolic-Zero
TypeError on an older JAX; on 0.10.2 the same misuse inside scan raises UnexpectedTracerError, and the rule
in my case accepts either signature (`*args`) so that only the decorator's options differ between the two
versions. jax 5309 is an open issue; the fix used is the reporter's statement that a direct solve works.
nufftax 13 needs `jax.jit` around the loss to raise the closed-over-value error (as in the thread).

Shortfall: custom-rules has 4 cases of the 5 asked. Custom-derivative threads are heavily mined by the
earlier batches; most of the uncited ones I tried either no longer fail on 0.10.2 (float0 handling in
custom_vjp, jnp.zeros with float0, lax.cond/vmap with nondiff_argnums), have no fix in the thread, duplicate
a cited thread's mistake (cuEquivariance issue 162 = cited PR 295; jaxopt 31/111 = cited jaxopt 285), or
need a hijax primitive as the fix (jax 19087). I chose to stop at four rather than add a near-duplicate.
Process note: one shell `grep -c` over tests/mistakes/*.py also counted matches (all zero, no text shown) in
case_hints.py, error_runs.py and rates.py; nothing from those files was read.
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

# ====================================================================== vmap

@error_case(family="vmap", fix="compute-outside-trace", raises="ConcretizationTypeError",
            source="https://github.com/jax-md/jax-md/issues/101",
            line="return jax.vmap(lambda r: table(r, int(jnp.max(jnp.sum(contact_mask(r), axis=1)))))(positions)",
            fixed="return jax.vmap(functools.partial(table, capacity=int(jnp.max(jax.vmap(lambda r: jnp.sum(contact_mask(r), axis=1))(positions)))))(positions)",
            args=lambda: (np.random.RandomState(0).uniform(size=(3, 6, 2)).astype(np.float32), 0.5))
def batched_contact_tables(positions, cutoff):
    def contact_mask(r):
        d = jnp.sqrt(jnp.sum((r[:, None, :] - r[None, :, :]) ** 2, axis=-1))
        return (d < cutoff) & (d > 0.0)

    def table(r, capacity):
        return jnp.argsort(~contact_mask(r), axis=1, stable=True)[:, :capacity]
    return jax.vmap(lambda r: table(r, int(jnp.max(jnp.sum(contact_mask(r), axis=1)))))(positions)


@error_case(family="vmap", fix="vmap-method", raises="NotImplementedError",
            source="https://github.com/jax-ml/jax/issues/17187",
            line="return jax.pure_callback(np.matmul, jax.ShapeDtypeStruct((block.shape[0], w.shape[1]), block.dtype), block, w, vectorized=True)",
            fixed="return jax.pure_callback(np.matmul, jax.ShapeDtypeStruct((block.shape[0], w.shape[1]), block.dtype), block, w, vmap_method='expand_dims')",
            args=lambda: (np.ones((3, 4, 5), np.float32), np.ones((5, 2), np.float32)))
def host_projected_blocks(stack, weights):
    def project(block, w):
        return jax.pure_callback(np.matmul, jax.ShapeDtypeStruct((block.shape[0], w.shape[1]), block.dtype), block, w, vectorized=True)
    return jax.vmap(project, in_axes=(0, None))(stack, weights)


@error_case(family="vmap", fix="unordered-callback-b15a", raises="ValueError",
            source="https://docs.jax.dev/en/latest/external-callbacks.html",
            line="io_callback(seen.append, None, x, ordered=True)",
            fixed="io_callback(seen.append, None, x, ordered=False)",
            args=lambda: (np.array([1.0, 2.0, 3.0], np.float32),))
def logged_doubling(values):
    from jax.experimental import io_callback
    seen = []

    def step(x):
        io_callback(seen.append, None, x, ordered=True)
        return 2.0 * x
    return jax.vmap(step)(values)


@error_case(family="vmap", fix="aux-wrapper-b15a", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/7603",
            line="return jax.vmap(lambda row: {'score': jnp.sum(row ** 2), 'unit': 'squared metres'}, out_axes={'score': 0, 'unit': None})(rows)",
            fixed="return jax.vmap(lambda row: {'score': jnp.sum(row ** 2), 'unit': Tag('squared metres')}, out_axes={'score': 0, 'unit': None})(rows)",
            args=lambda: (np.arange(6.0, dtype=np.float32).reshape(3, 2),))
def tagged_row_scores(rows):
    class Tag:
        def __init__(self, value):
            self.value = value
    jax.tree_util.register_pytree_node(Tag, lambda t: ((), t.value), lambda value, _: Tag(value))
    return jax.vmap(lambda row: {'score': jnp.sum(row ** 2), 'unit': 'squared metres'}, out_axes={'score': 0, 'unit': None})(rows)


@error_case(family="vmap", fix="static-nse-b15a", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/issues/18245",
            line="return jax.vmap(sparse.BCOO.fromdense)(frames)",
            fixed="return jax.vmap(lambda m: sparse.BCOO.fromdense(m, nse=m.size))(frames)",
            args=lambda: (np.arange(32.0, dtype=np.float32).reshape(2, 4, 4),))
def sparse_frames(frames):
    from jax.experimental import sparse
    return jax.vmap(sparse.BCOO.fromdense)(frames)


@error_case(family="vmap", fix="elementwise-and", raises="TracerBoolConversionError",
            source="https://github.com/PyAutoLabs/PyAutoFit/issues/1216",
            line="allowed = (theta[0] > 0.0) and (theta[1] > theta[0])",
            fixed="allowed = jnp.logical_and(theta[0] > 0.0, theta[1] > theta[0])",
            args=lambda: (np.array([[0.5, 1.0], [-0.2, 0.3], [0.4, 0.1]], np.float32),))
def constrained_log_likelihoods(samples):
    def log_likelihood(theta):
        allowed = (theta[0] > 0.0) and (theta[1] > theta[0])
        return jnp.where(allowed, -0.5 * jnp.sum(theta ** 2), -1e10)
    return jax.vmap(log_likelihood)(samples)


# ====================================================================== grad

@error_case(family="grad", fix="grad-argnums", raises="TypeError",
            source="https://github.com/patrick-kidger/equinox/issues/502",
            line="return jax.value_and_grad(misfit)(weights=w, data=x)",
            fixed="return jax.value_and_grad(misfit)(w, data=x)",
            args=lambda: (np.ones(3, np.float32), np.arange(12.0, dtype=np.float32).reshape(4, 3)))
def misfit_and_slope(w, x):
    def misfit(weights, data):
        return jnp.mean((data @ weights - 1.0) ** 2)
    return jax.value_and_grad(misfit)(weights=w, data=x)


@error_case(family="grad", fix="tree-same-structure", raises="ValueError",
            source="https://github.com/NIFTy-PPL/JAXbind/issues/9",
            line="return pullback((jnp.full(a.shape, 6.0),))",
            fixed="return pullback([jnp.full(a.shape, 6.0)])",
            args=lambda: (np.full((2, 3), 4.0, np.float32), np.full((2, 3), 2.0, np.float32)))
def pullback_of_listed_output(a, b):
    def fused(x, y):
        return [x * y ** 2]
    _, pullback = jax.vjp(fused, a, b)
    return pullback((jnp.full(a.shape, 6.0),))


@error_case(family="grad", fix="svd-reduced-b15a", raises="NotImplementedError",
            source="https://github.com/jax-ml/jax/issues/508",
            line="u, s, vh = jnp.linalg.svd(a)",
            fixed="u, s, vh = jnp.linalg.svd(a, full_matrices=False)",
            args=lambda: (np.arange(1.0, 7.0, dtype=np.float32).reshape(3, 2),))
def leading_mode_gradient(m):
    def leading_mode_energy(a):
        u, s, vh = jnp.linalg.svd(a)
        return s[0] * jnp.sum(u[:, 0])
    return jax.grad(leading_mode_energy)(m)


@error_case(family="grad", fix="functools-partial", raises="TracerBoolConversionError",
            source="https://github.com/jax-ml/jax/issues/7426",
            line="return jax.grad(lambda v: jnp.sum(jax.checkpoint(lambda h, shift: jnp.sin(h + 1.0) if shift else jnp.sin(h))(v, True)))(x)",
            fixed="return jax.grad(lambda v: jnp.sum(jax.checkpoint(functools.partial(lambda h, shift: jnp.sin(h + 1.0) if shift else jnp.sin(h), shift=True))(v)))(x)",
            args=lambda: (np.arange(3.0, dtype=np.float32),))
def rematerialised_shift_gradient(x):
    return jax.grad(lambda v: jnp.sum(jax.checkpoint(lambda h, shift: jnp.sin(h + 1.0) if shift else jnp.sin(h))(v, True)))(x)


@error_case(family="grad", fix="holomorphic-flag", raises="TypeError",
            source="https://docs.jax.dev/en/latest/complex-differentiation.html",
            line="return jax.grad(jnp.sin)(z)",
            fixed="return jax.grad(jnp.sin, holomorphic=True)(z)",
            args=lambda: (np.complex64(3.0 + 4.0j),))
def complex_sine_slope(z):
    return jax.grad(jnp.sin)(z)


@error_case(family="grad", fix="jacobian-b11a", raises="TypeError",
            source="https://github.com/ShawonAshraf/annotated-jax",
            line="return jax.grad(stacked_terms)(t)",
            fixed="return jax.jacobian(stacked_terms)(t)",
            args=lambda: (np.float32(1.5),))
def stacked_term_slopes(t):
    def stacked_terms(x):
        return jnp.array([[5.0 * x ** 2 * jnp.log(x)], [7.0 * x]])
    return jax.grad(stacked_terms)(t)


# ---- part b

# ---- loops


@error_case(family="loops", fix="while_loop", raises="TracerBoolConversionError",
            source="https://crackedaicode.com/problems/jax-while-loop-vs-python-while",
            line="while v > floor: v = v * 0.8",
            fixed="v = lax.while_loop(lambda s: s > floor, lambda s: s * 0.8, v)",
            args=lambda: (jnp.float32(7.5), 0.3))
def wren_decay_below(start, floor):
    @jax.jit
    def shrink(v):
        while v > floor: v = v * 0.8
        return v
    return shrink(start)


@error_case(family="loops", fix="scan-pair", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-scan-over-params",
            line="out, _ = lax.scan(lambda h, w: w @ h, h0, mats)",
            fixed="out, _ = lax.scan(lambda h, w: (w @ h, None), h0, mats)",
            args=lambda: (np.stack([np.eye(3, dtype=np.float32), 2.0 * np.eye(3, dtype=np.float32)]),
                          np.array([1.0, -1.0, 0.5], dtype=np.float32)))
def wren_layer_stack(mats, h0):
    out, _ = lax.scan(lambda h, w: w @ h, h0, mats)
    return out


@error_case(family="loops", fix="loop-int-bounds", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-fori-loop-power",
            line="return lax.fori_loop(0, times, lambda i, acc: acc * base, 1.0)",
            fixed="return lax.fori_loop(0, jnp.int32(times), lambda i, acc: acc * base, 1.0)",
            args=lambda: (jnp.float32(1.5), jnp.float32(4.0)))
def wren_repeated_power(base, times):
    return lax.fori_loop(0, times, lambda i, acc: acc * base, 1.0)


@error_case(family="loops", fix="carry-keep-dtype", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-scan-cumsum",
            line="_, sums = lax.scan(lambda tot, v: (tot + v, tot + v), jnp.zeros((), dtype=int), deposits)",
            fixed="_, sums = lax.scan(lambda tot, v: (tot + v, tot + v), jnp.zeros((), dtype=deposits.dtype), deposits)",
            args=lambda: (np.array([2.5, 0.25, 4.0, 1.0], dtype=np.float32),))
def wren_running_balance(deposits):
    _, sums = lax.scan(lambda tot, v: (tot + v, tot + v), jnp.zeros((), dtype=int), deposits)
    return sums


@error_case(family="loops", fix="xs-shape", raises="IndexError",
            source="https://crackedaicode.com/problems/jax-lax-map",
            line="return lax.map(lambda pair: pair[:, 0] - pair[:, 1], spans)",
            fixed="return lax.map(lambda pair: pair[0] - pair[1], spans)",
            args=lambda: (np.array([[5.0, 2.0], [9.0, 4.5], [3.0, 3.0]], dtype=np.float32),))
def wren_span_widths(spans):
    return lax.map(lambda pair: pair[:, 0] - pair[:, 1], spans)


@error_case(family="loops", fix="close-over", raises="TypeError",
            source="https://taourl.com/read-2383641.html",
            line="total, _ = lax.scan(weighted_step, 0.0, readings)",
            fixed="total, _ = lax.scan(lambda c, r: weighted_step(c, r, gain), 0.0, readings)",
            args=lambda: (np.array([0.5, 1.5, 3.0], dtype=np.float32), 4.0))
def wren_weighted_total(readings, gain):
    def weighted_step(carry, reading, scale):
        return carry + reading * scale, None
    total, _ = lax.scan(weighted_step, 0.0, readings)
    return total


# ---- branches


@error_case(family="branches", fix="select-broadcast-b15b", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/9868",
            line="return lax.select(signal > cap, signal, cap)",
            fixed="return lax.select(*jnp.broadcast_arrays(signal > cap, signal, cap))",
            args=lambda: (np.array([0.2, 1.7, -0.4, 2.9], dtype=np.float32), np.float32(1.0)))
def wren_upper_envelope(signal, cap):
    cap = jnp.asarray(cap)
    return lax.select(signal > cap, signal, cap)


@error_case(family="branches", fix="tree-api", raises="TypeError",
            source="https://github.com/kscalelabs/ksim/pull/415",
            line="return jnp.where(episode_over, fresh, stale)",
            fixed="return jax.tree.map(lambda f, s: jnp.where(episode_over, f, s), fresh, stale)",
            args=lambda: (np.bool_(True),
                          {"streak": np.zeros((), np.float32), "history": np.zeros(3, np.float32)},
                          {"streak": np.float32(4.0), "history": np.array([1.0, 0.5, 2.0], np.float32)}))
def wren_reset_reward_state(episode_over, fresh, stale):
    return jnp.where(episode_over, fresh, stale)


@error_case(family="branches", fix="last-step-b15b", raises="ValueError",
            source="https://github.com/kscalelabs/ksim/pull/344",
            line="return jnp.where(done_per_step, initial, carried)",
            fixed="return jnp.where(done_per_step[..., -1], initial, carried)",
            args=lambda: (np.array([False, False, True, False, True]),
                          np.zeros(3, np.float32), np.array([0.4, 1.1, 2.3], np.float32)))
def wren_carry_after_rollout(done_per_step, initial, carried):
    return jnp.where(done_per_step, initial, carried)


@error_case(family="branches", fix="cast", raises="TypeError",
            source="https://github.com/genjax-community/genjax/pull/1140",
            line="return jax.jit(lambda u: lax.cond(u.sum() > 0, lambda w: w * w, lambda w: lookup, u))(counts)",
            fixed="return jax.jit(lambda u: lax.cond(u.sum() > 0, lambda w: w * w, lambda w: lookup, u))(counts.astype(jnp.float32))",
            args=lambda: (jnp.array([2, 5, 1]),))
def wren_square_or_lookup(counts):
    lookup = np.array([3, 1, 4], dtype=np.float64)
    return jax.jit(lambda u: lax.cond(u.sum() > 0, lambda w: w * w, lambda w: lookup, u))(counts)


@error_case(family="branches", fix="vmap-cond-b14b", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-vmap-of-cond",
            line="return lax.cond(jnp.sum(scores, axis=1) > cutoffs, lambda: 1.0, lambda: -1.0)",
            fixed="return jax.vmap(lambda s, c: lax.cond(jnp.sum(s) > c, lambda: 1.0, lambda: -1.0))(scores, cutoffs)",
            args=lambda: (np.array([[0.5, 0.8], [0.1, 0.2], [2.0, -0.5]], dtype=np.float32),
                          np.array([1.0, 1.0, 1.0], dtype=np.float32)))
def wren_pass_fail(scores, cutoffs):
    return lax.cond(jnp.sum(scores, axis=1) > cutoffs, lambda: 1.0, lambda: -1.0)


# ---- part c

@error_case(family="pytrees", fix="reduce-initializer-b15c", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/2935",
            line="return jax.grad(lambda p: jax.tree.reduce(add_square, p))(params)",
            fixed="return jax.grad(lambda p: jax.tree.reduce(add_square, p, 0.0))(params)",
            args=lambda: ({"kernel": np.linspace(-1.0, 1.0, 6, dtype=np.float32).reshape(3, 2),
                           "bias": np.array([0.5, -0.25], np.float32)},))
def ridge_penalty_grads(params):
    def add_square(total, leaf):
        return total + jnp.sum(leaf ** 2)
    return jax.grad(lambda p: jax.tree.reduce(add_square, p))(params)


@error_case(family="pytrees", fix="init-no-conversion-b10d", raises="TypeError",
            source="https://github.com/patrick-kidger/equinox/issues/296",
            line="obj = cls.__new__(cls)",
            fixed="obj = object.__new__(cls)",
            args=lambda: (4,))
def sprout_shift(size):
    @jax.tree_util.register_pytree_node_class
    class Sprout:
        def __new__(cls, width):
            return super().__new__(cls)

        def __init__(self, width):
            self.width = width
            self.weights = jnp.zeros(width)

        def tree_flatten(self):
            return (self.weights,), self.width

        @classmethod
        def tree_unflatten(cls, width, children):
            obj = cls.__new__(cls)
            obj.width, obj.weights = width, children[0]
            return obj

    return jax.tree.map(lambda w: w + 1.0, Sprout(size)).weights


@error_case(family="pytrees", fix="register-once-b15c", raises="ValueError",
            source="https://github.com/PyAutoLabs/PyAutoLens/pull/561",
            line="jax.tree_util.register_pytree_node(LensTracer, to_leaves, from_leaves)",
            fixed="if LensTracer not in walker_done | analysis_done: jax.tree_util.register_pytree_node(LensTracer, to_leaves, from_leaves)",
            args=lambda: (np.array([1.0, 0.5, 2.0], np.float32),))
def lens_fit_after_model_walk(einstein_radii):
    class LensTracer:
        def __init__(self, radii):
            self.radii = radii

    def to_leaves(tracer):
        return (tracer.radii,), None

    def from_leaves(_, children):
        return LensTracer(children[0])

    walker_done, analysis_done = set(), set()
    for cls in (LensTracer,):          # the model walker registers what it meets
        jax.tree_util.register_pytree_node(cls, to_leaves, from_leaves)
        walker_done.add(cls)
    # the analysis registers its own classes, checking only its own record
    if LensTracer not in analysis_done:
        jax.tree_util.register_pytree_node(LensTracer, to_leaves, from_leaves)
        analysis_done.add(LensTracer)
    return jax.tree.map(lambda r: r ** 2, LensTracer(jnp.asarray(einstein_radii))).radii


@error_case(family="keys", fix="fold-in-uint32-b15c", raises="OverflowError",
            source="https://github.com/tensorflow/probability/issues/1292",
            line="key = jax.random.fold_in(key, salt)",
            fixed="key = jax.random.fold_in(key, salt & (2**32 - 1))",
            args=lambda: (7, 5))
def salted_chain_draws(seed, n):
    key = jax.random.key(seed)
    salt = int.from_bytes("mcmc.sample_chain".encode("utf-8"), "big")
    key = jax.random.fold_in(key, salt)
    return jax.random.normal(key, (n,))


@error_case(family="keys", fix="split-fresh-key-b15c", raises="KeyReuseError",
            source="https://github.com/thomaspinder/GPJax/pull/191",
            line="noise = 0.3 * jax.random.normal(subkey, (n,))",
            fixed="noise = 0.3 * jax.random.normal(key, (n,))",
            args=lambda: (123, 8))
def toy_regression_data(seed, n):
    with jax.debug_key_reuse(True):
        key, subkey = jax.random.split(jax.random.key(seed))
        x = jnp.sort(jax.random.uniform(subkey, (n,), minval=-3.0, maxval=3.0))
        noise = 0.3 * jax.random.normal(subkey, (n,))
        return x, jnp.sin(4.0 * x) + noise


@error_case(family="keys", fix="atleast-2d-cov-b15c", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/25951",
            line="return jax.random.multivariate_normal(key, centre, spread, (draws,))",
            fixed="return jax.random.multivariate_normal(key, centre, jnp.atleast_2d(spread), (draws,))",
            args=lambda: (np.linspace(-1.0, 2.0, 40, dtype=np.float32).reshape(1, 40), 3))
def resample_like(observed, draws):
    key = jax.random.key(0)
    centre = jnp.mean(observed, axis=1)
    spread = jnp.cov(observed)
    return jax.random.multivariate_normal(key, centre, spread, (draws,))


@error_case(family="pytrees", fix="list-meta-field-b15c", raises="ValueError",
            source="https://github.com/invrs-io/opt/pull/33",
            line='jax.tree_util.register_dataclass(PixelParams, data_fields=["latents"], meta_fields=[])',
            fixed='jax.tree_util.register_dataclass(PixelParams, data_fields=["latents"], meta_fields=["metadata"])',
            args=lambda: (np.array([[0.2, 0.8], [0.5, 0.1]], np.float32),))
def pixel_descent_step(density):
    @dataclasses.dataclass
    class PixelParams:
        latents: jnp.ndarray
        metadata: object

    jax.tree_util.register_dataclass(PixelParams, data_fields=["latents"], meta_fields=[])
    params = PixelParams(jnp.asarray(density), None)
    return jax.tree.map(lambda x: jnp.clip(x - 0.05, 0.0, 1.0), params).latents


@error_case(family="pytrees", fix="namedtuple-replace-b15c", raises="AttributeError",
            source="https://github.com/google-deepmind/optax/pull/1742",
            line="return store.replace(params=params, step=store.step + 1), value",
            fixed="return store._replace(params=params, step=store.step + 1), value",
            args=lambda: (np.array([1.5, -0.5, 2.0], np.float32),))
def sharpness_aware_step(weights):
    class TrainStore(NamedTuple):
        params: jnp.ndarray
        step: jnp.ndarray

    @jax.jit
    def step(store):
        value, grads = jax.value_and_grad(lambda p: jnp.sum(p ** 2))(store.params)
        params = store.params - 0.1 * grads
        return store.replace(params=params, step=store.step + 1), value

    return step(TrainStore(jnp.asarray(weights), jnp.array(0)))


@error_case(family="pytrees", fix="skip-empty-leaves-b15c", raises="ValueError",
            source="https://github.com/google-deepmind/optax/pull/1374",
            line="smallest = jax.tree.map(jnp.min, tree)",
            fixed="smallest = jax.tree.map(lambda a: None if jnp.size(a) == 0 else jnp.min(a), tree)",
            args=lambda: ({"embed": np.array([[0.3, -1.2], [0.7, 0.1]], np.float32),
                           "mask_bias": np.zeros((0,), np.float32),
                           "scale": np.array([2.5], np.float32)},))
def smallest_entry(tree):
    smallest = jax.tree.map(jnp.min, tree)
    return jax.tree.reduce(jnp.minimum, smallest, initializer=float("inf"))


@error_case(family="keys", fix="key-not-seed", raises="TypeError",
            source="https://github.com/liesel-devs/liesel/pull/156",
            line="engine_key = jax.random.PRNGKey(seed)",
            fixed="engine_key = seed if isinstance(seed, jax.Array) else jax.random.PRNGKey(seed)",
            args=lambda: (jnp.array([0, 42], dtype=jnp.uint32), 3))
def sampler_start_jitter(seed, chains):
    # the caller hands over a key it already made with PRNGKey, not an int seed
    engine_key = jax.random.PRNGKey(seed)
    engine_key, jitter_key = jax.random.split(engine_key)
    return jax.random.uniform(jitter_key, (chains,), minval=-2.0, maxval=2.0)


@error_case(family="keys", fix="vmap-split-b15c", raises="ValueError",
            source="https://github.com/jax-ml/coix/pull/5",
            line="key_body, key_init = jax.random.split(particle_keys)",
            fixed="key_body, key_init = jax.vmap(jax.random.split, out_axes=1)(particle_keys)",
            args=lambda: (11, np.array([0.0, 0.5, -1.0, 2.0], np.float32)))
def anneal_particles(seed, positions):
    particle_keys = jax.random.split(jax.random.key(seed), positions.shape[0])
    key_body, key_init = jax.random.split(particle_keys)
    start = positions + jax.vmap(jax.random.normal)(key_init)
    return start + 0.1 * jax.vmap(jax.random.normal)(key_body)


@error_case(family="keys", fix="key-no-arith", raises="TypeError",
            source="https://github.com/jax-ml/coix/pull/15",
            line="p_key, q_key = key + jnp.asarray([1, 0], dtype=key.dtype), key + 1",
            fixed="p_key, q_key = jax.random.split(key)",
            args=lambda: (5, np.array([0.3, -0.7, 1.1], np.float32)))
def importance_log_weight(seed, obs):
    key = jax.random.key(seed)
    p_key, q_key = key + jnp.asarray([1, 0], dtype=key.dtype), key + 1
    target = obs + jax.random.normal(p_key, obs.shape)
    proposal = jax.random.normal(q_key, obs.shape)
    return jnp.sum(target - proposal)


# ---- part d

# ---------------------------------------------------------------- custom rules

@error_case(family="custom-rules", fix="float0-tangent-b15d", raises="TypeError",
            source="https://github.com/machine-discovery/deer/pull/43",
            line="return root.defjvp(functools.partial(root_jvp, flag_tangent=lambda ok: jnp.full_like(ok, True))) and jax.grad(lambda c: jnp.sum(root(c)[0]))(targets)",
            fixed="return root.defjvp(functools.partial(root_jvp, flag_tangent=lambda ok: jnp.zeros_like(ok, dtype=jax.dtypes.float0))) and jax.grad(lambda c: jnp.sum(root(c)[0]))(targets)",
            args=lambda: (np.array([2.0, 3.0, 5.0], np.float32),))
def newton_root_flag_grad(targets):
    @jax.custom_jvp
    def root(c):
        y = jnp.sqrt(c)
        return y, jnp.all(jnp.isfinite(y))

    def root_jvp(primals, tangents, flag_tangent):
        (c,), (dc,) = primals, tangents
        y, ok = root(c)
        return (y, ok), (dc / (2.0 * y), flag_tangent(ok))
    return root.defjvp(functools.partial(root_jvp, flag_tangent=lambda ok: jnp.full_like(ok, True))) and jax.grad(lambda c: jnp.sum(root(c)[0]))(targets)


@error_case(family="custom-rules", fix="closure-convert-b15d", raises="CustomVJPException",
            source="https://github.com/GragasLab/nufftax/issues/13",
            line="return jax.grad(jax.jit(lambda w: smear(bump(w), (), points)))(width)",
            fixed="return jax.grad(jax.jit(lambda w: smear(*jax.closure_convert(bump(w), points), points)))(width)",
            args=lambda: (1.5, np.linspace(-2.0, 2.0, 5, dtype=np.float32)))
def gauss_width_grad(width, points):
    @functools.partial(jax.custom_vjp, nondiff_argnums=(0,))
    def smear(phi, consts, x):
        return jnp.sum(phi(x, *consts))

    def smear_fwd(phi, consts, x):
        return smear(phi, consts, x), (consts, x)

    def smear_bwd(phi, res, g):
        consts, x = res
        _, pullback = jax.vjp(lambda c, y: phi(y, *c), consts, x)
        return pullback(g * jnp.ones_like(x))
    smear.defvjp(smear_fwd, smear_bwd)

    def bump(w):
        return lambda x: jnp.exp(-x ** 2 / (2.0 * w ** 2))
    return jax.grad(jax.jit(lambda w: smear(bump(w), (), points)))(width)


@error_case(family="custom-rules", fix="direct-solve-b15d", raises="NotImplementedError",
            source="https://github.com/jax-ml/jax/issues/5309",
            line="return jax.jacrev(implicit_with(lambda a, b: jax.scipy.sparse.linalg.gmres(a, b)[0]))(shift)",
            fixed="return jax.jacrev(implicit_with(jnp.linalg.solve))(shift)",
            args=lambda: (np.array([0.3, -1.2, 0.8, 2.0], np.float32),))
def pinned_state_jacobian(shift):
    def residual(x, p):
        return 2.0 * x - p

    def implicit_with(lin_solve):
        @jax.custom_jvp
        def settle(p):
            return p / 2.0

        @settle.defjvp
        def settle_jvp(primals, tangents):
            (p,), (dp,) = primals, tangents
            x = settle(p)
            r_x, r_p = jax.jacfwd(residual, argnums=(0, 1))(x, p)
            return x, lin_solve(r_x, -r_p @ dp)
        return settle
    return jax.jacrev(implicit_with(lambda a, b: jax.scipy.sparse.linalg.gmres(a, b)[0]))(shift)


@error_case(family="custom-rules", fix="nondiff-arrays", raises="UnexpectedTracerError",
            source="https://github.com/jax-ml/jax/issues/29342",
            line="return lax.scan(lambda c, k: (c + smoothed(nondiff_argnums=(1,))(theta, k).sum(), None), 0.0, keys)[0]",
            fixed="return lax.scan(lambda c, k: (c + smoothed()(theta, k).sum(), None), 0.0, keys)[0]",
            args=lambda: (np.array([0.1, -0.4, 0.7], np.float32), 5))
def noisy_tanh_grad(theta, seed):
    def jitter(p, rng):
        return jnp.mean(jnp.tanh(p + 0.1 * jax.random.normal(rng, (8,) + p.shape)), axis=0)

    def jitter_jvp(*args):
        primals, tangents = args[-2:]
        rng = args[0] if len(args) == 3 else primals[1]
        out = jitter(primals[0], rng)
        return out, (1.0 - out ** 2) * tangents[0]

    def smoothed(**options):
        fn = jax.custom_jvp(jitter, **options)
        fn.defjvp(jitter_jvp)
        return fn

    def total(theta):
        keys = jax.random.split(jax.random.key(seed), 3)
        return lax.scan(lambda c, k: (c + smoothed(nondiff_argnums=(1,))(theta, k).sum(), None), 0.0, keys)[0]
    return jax.grad(total)(jnp.asarray(theta))


# ---------------------------------------------------------------- shapes

@error_case(family="shapes", fix="drop-transpose-b15d", raises="TypeError",
            source="https://github.com/henry-prior/jax-rl/issues/10",
            line="weighted = weights * jnp.asarray(log_probs).transpose((0, 1))",
            fixed="weighted = weights * jnp.asarray(log_probs)",
            args=lambda: (np.full((6, 4, 1), 0.25, np.float32),
                          np.linspace(-2.0, -0.5, 24, dtype=np.float32).reshape(6, 4, 1)))
def mpo_tilt_actor_loss(weights, log_probs):
    weighted = weights * jnp.asarray(log_probs).transpose((0, 1))
    return -jnp.mean(jnp.sum(weighted, axis=1))


@error_case(family="shapes", fix="mask-before-stack-b15d", raises="ValueError",
            source="https://github.com/kscalelabs/ksim/pull/317",
            line="limits = jnp.where(limited, jnp.stack([lo, hi], axis=-1), jnp.stack([jnp.full_like(lo, -jnp.inf), jnp.full_like(hi, jnp.inf)], axis=-1))",
            fixed="limits = jnp.stack([jnp.where(limited, lo, -jnp.inf), jnp.where(limited, hi, jnp.inf)], axis=-1)",
            args=lambda: (np.array([-1.0, -0.5, 0.0], np.float32), np.array([1.0, 0.5, 2.0], np.float32),
                          np.array([True, False, True])))
def padded_joint_limits(joint_min, joint_max, is_limited):
    margin = (jnp.asarray(joint_max) - jnp.asarray(joint_min)) * 0.05
    lo, hi = joint_min - margin, joint_max + margin
    limited = jnp.asarray(is_limited)
    limits = jnp.where(limited, jnp.stack([lo, hi], axis=-1), jnp.stack([jnp.full_like(lo, -jnp.inf), jnp.full_like(hi, jnp.inf)], axis=-1))
    return limits


@error_case(family="shapes", fix="reduce-to-scalar-b15d", raises="ValueError",
            source="https://github.com/kscalelabs/ksim/pull/446",
            line="return motions + noise * (max_noise - (max_noise - min_noise) * jnp.asarray(env_levels))",
            fixed="return motions + noise * (max_noise - (max_noise - min_noise) * jnp.asarray(env_levels).mean())",
            args=lambda: (np.zeros((6, 4, 3), np.float32), np.linspace(0.0, 1.0, 6, dtype=np.float32), 3))
def curriculum_noisy_motions(motions, env_levels, seed):
    max_noise, min_noise = 0.2, 0.02
    noise = jax.random.normal(jax.random.key(seed), motions.shape)
    return motions + noise * (max_noise - (max_noise - min_noise) * jnp.asarray(env_levels))


@error_case(family="shapes", fix="ndim-not-len-b15d", raises="ValueError",
            source="https://github.com/google-deepmind/mctx/issues/37",
            line="return jnp.where(jnp.reshape(is_decision, [-1] + [1] * (len(decision_leaf) - 1)), decision_leaf, chance_leaf)",
            fixed="return jnp.where(jnp.reshape(is_decision, [-1] + [1] * (len(decision_leaf.shape) - 1)), decision_leaf, chance_leaf)",
            args=lambda: (np.array([True, False]), np.ones((2, 3, 4), np.float32), np.zeros((2, 3, 4), np.float32)))
def select_node_leaf(is_decision, decision_leaf, chance_leaf):
    decision_leaf, chance_leaf = jnp.asarray(decision_leaf), jnp.asarray(chance_leaf)
    return jnp.where(jnp.reshape(is_decision, [-1] + [1] * (len(decision_leaf) - 1)), decision_leaf, chance_leaf)


@error_case(family="shapes", fix="padded-weights-b15d", raises="ValueError",
            source="https://github.com/RobertTLange/evosax/pull/69",
            line="return jnp.einsum('i,ij->j', elite_weights, steps ** 2)",
            fixed="return jnp.einsum('i,ij->j', padded_weights, steps ** 2)",
            args=lambda: (np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(6, 2),
                          np.array([3.0, 1.0, 4.0, 1.5, 5.0, 9.0], np.float32), 3))
def sepcma_rank_mu(samples, fitness, n_elite):
    raw = jnp.log(n_elite + 0.5) - jnp.log(jnp.arange(1, n_elite + 1))
    elite_weights = raw / raw.sum()
    padded_weights = jnp.zeros(samples.shape[0]).at[:n_elite].set(elite_weights)
    order = jnp.argsort(jnp.asarray(fitness))
    steps = (jnp.asarray(samples)[order] - samples.mean(axis=0)) / 0.5
    return jnp.einsum('i,ij->j', elite_weights, steps ** 2)


# ---------------------------------------------------------------- other

@error_case(family="other", fix="hashable-static-b15d", raises="ValueError",
            source="https://github.com/google/flax/issues/587",
            line="return build(seed, model_kwargs)",
            fixed="return build(seed, tuple(sorted(model_kwargs.items())))",
            args=lambda: (3, {"emb_dim": 4, "vocab_size": 11}))
def wmt_like_create_params(seed, model_kwargs):
    def make_params(s, kwargs):
        opts = dict(kwargs)
        key = jax.random.key(s)
        return jax.random.normal(key, (opts["vocab_size"], opts["emb_dim"]))
    build = jax.jit(make_params, static_argnums=(1,))
    return build(seed, model_kwargs)


@error_case(family="other", fix="cast", raises="TypeError",
            source="https://github.com/kuprel/min-dalle/issues/15",
            line="return lax.dynamic_update_slice(cache, jnp.concatenate([keys, values]), (step, 0))",
            fixed="return lax.dynamic_update_slice(cache, jnp.concatenate([keys, values]).astype(jnp.float32), (step, 0))",
            args=lambda: (np.zeros((6, 3), np.float32), np.array([[0.5, -1.0, 2.0]], np.float32), 2))
def half_precision_cache_write(cache, hidden, step):
    keys = jnp.asarray(hidden, jnp.float16) * 0.5
    values = jnp.asarray(hidden, jnp.float16) * 2.0
    return lax.dynamic_update_slice(cache, jnp.concatenate([keys, values]), (step, 0))


@error_case(family="other", fix="dlpack-direct-b15d", raises="AttributeError",
            source="https://github.com/jax-ml/jax/issues/15686",
            line="return np.from_dlpack(jax.dlpack.to_dlpack(doubled))",
            fixed="return np.from_dlpack(doubled)",
            args=lambda: (np.arange(6, dtype=np.int32),))
def host_copy_via_dlpack(counts):
    doubled = jnp.asarray(counts) * 2
    return np.from_dlpack(jax.dlpack.to_dlpack(doubled))


@error_case(family="other", fix="check-vma-b15d", raises="TypeError",
            source="https://github.com/AI-Hypercomputer/maxtext/pull/2527",
            line="sharded = jax.shard_map(local, mesh=mesh, in_specs=jax.P('d'), out_specs=jax.P('d'), check_rep=False)",
            fixed="sharded = jax.shard_map(local, mesh=mesh, in_specs=jax.P('d'), out_specs=jax.P('d'), check_vma=False)",
            args=lambda: (np.linspace(0.0, 1.0, 8, dtype=np.float32),))
def center_per_device(values):
    mesh = jax.make_mesh((1,), ('d',), axis_types=(jax.sharding.AxisType.Auto,))

    def local(block):
        return block - lax.pmean(jnp.mean(block), 'd')
    sharded = jax.shard_map(local, mesh=mesh, in_specs=jax.P('d'), out_specs=jax.P('d'), check_rep=False)
    return jax.jit(sharded)(values)


@error_case(family="other", fix="in-shardings-b15d", raises="TypeError",
            source="https://github.com/google-research/jaxpruner/issues/10",
            line="step = pjit(update, in_axis_resources=None, out_axis_resources=None)",
            fixed="step = pjit(update, in_shardings=None, out_shardings=None)",
            args=lambda: (np.array([1.0, -2.0, 0.5], np.float32), np.array([0.1, 0.1, 0.1], np.float32)))
def pruned_sgd_step(weights, grads):
    from jax.experimental.pjit import pjit

    def update(w, g):
        return jnp.where(jnp.abs(w) > 0.75, w - 0.1 * g, 0.0)
    step = pjit(update, in_axis_resources=None, out_axis_resources=None)
    return step(weights, grads)


@error_case(family="other", fix="typeof-b15d", raises="AttributeError",
            source="https://github.com/patrick-kidger/equinox/pull/1162",
            line="return tuple(jax.core.get_aval(leaf).shape for leaf in leaves)",
            fixed="return tuple(jax.typeof(leaf).shape for leaf in leaves)",
            args=lambda: ({"w": np.zeros((3, 2), np.float32), "b": np.zeros(2, np.float32)},))
def leaf_shapes(params):
    leaves = jax.tree_util.tree_leaves(params)
    return tuple(jax.core.get_aval(leaf).shape for leaf in leaves)
