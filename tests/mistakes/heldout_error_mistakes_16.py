"""A sixteenth held-out batch of JAX errors outside jit, written by four blind helper sessions at once
(vmap and grad; loops and branches; pytrees and keys; custom rules, shapes and other) that never opened
the rules under `autograder/` nor any message the course prints, from one brief (the fifteenth's: one
public thread per case, none cited by an earlier batch; each part checked with `check_error_cases.py
--part`), so that its first run measures the rules on mistakes they were not written from. Each part's own
account follows, as its helper wrote it.

## Part a

Part A of the sixteenth held-out batch (families vmap and grad), written by a blind helper session that never
opened the rules under `autograder/` nor any message the course prints.

How the cases were found: the `source=` of every file in `tests/mistakes/` was collected first (747 addresses) and
each candidate was checked against that list before use. The JAX tracker's vmap/grad threads that the search tools
surface are nearly all cited already (one_hot under vmap, the `axis_size` docs thread, the grad-of-vector-output and
integer-input threads, PR 20474 on `in_axes` vs `axis`...), and the downstream trackers searched (equinox, diffrax,
numpyro, flax, optax, haiku, MPAX) mostly held library bugs rather than plain JAX mistakes, or threads whose fixing
comment the stored excerpts do not show. So besides one jax-ml/jax issue, the cases come from public tutorial and
question-and-answer pages that state the mistake and its repair: crackedaicode.com problem pages (their "Common
pitfalls" sections), theneuralbase.com lessons, two openillumi.com write-ups of Stack Overflow questions not cited
before, an errorhandle.ai question page, and the `jnp.bincount` page of the JAX docs. Every page and thread was read
through the search excerpts. The code is my own (own names and numbers); the mistake and the fix are the source's.
Called eagerly on `args()` with the pinned jax, each function raises `raises` at `line` and runs with `fixed`.

The 13 cases (7 vmap, 6 grad), 11 sources:
- vmap, crackedaicode jax-vmap-in-axes-mechanics (two cases): examples stored as columns but mapped with
  `in_axes=0`, fix `in_axes=1` for that argument; and an `in_axes` with fewer entries than the function has
  positional arguments, fix one entry per argument.
- vmap, crackedaicode jax-vmap-broadcast-with-none: a weight matrix shared by the whole batch mapped with `(0, 0)`,
  fix `in_axes=(None, 0)`.
- vmap, crackedaicode jax-vmap-out-axes: `out_axes=1` copied from `in_axes=1` while each example reduces to a scalar
  (the page: `in_axes` and `out_axes` are independent; scalar outputs have no axis to place), fix `out_axes=0`.
- vmap, JAX docs page of `jax.numpy.bincount`: `jnp.bincount` under `vmap` without `length`, whose output size would
  depend on the mapped values; the page: `length` must be given statically for use under JAX transformations.
- vmap, theneuralbase shape-mismatch-in-vmap: a single 1-D example handed to a function vmapped over a 2-D batch, so
  each mapped call sees a scalar and indexing it fails; fix add the leading batch axis (`reading[None, :]`).
- vmap, errorhandle.ai "How to handle PRNG splitting in a jax.vmap context": one key passed where `in_axes` maps a
  key per example, fix `jax.random.split(key, n)` and map over the array of keys.
- grad, crackedaicode jax-grad-scalar-function (two cases): "calling instead of wrapping", `jax.grad(loss(w, b, x))`,
  fix pass the function itself; and differentiating with respect to an integer, fix cast the input to float.
- grad, jax-ml/jax issue 23614: `io_callback` has no autodiff rule (the maintainer: wrap it in `custom_vjp` or
  `custom_jvp`); the case differentiates through the raw callback although a custom-VJP wrapper exists, fix call
  the wrapped version.
- grad, openillumi jax-autograd-jacobian-fix: the input of `jacobian` given as an (n, 1) column, so the Jacobian is
  4-D and `det` rejects it; fix pass a flat 1-D float vector.
- grad, theneuralbase jax-numpy-plus-autodiff-plus-jit-on-gpu-tpu: `jax.grad` of a vector-valued function, the
  page's fix `jax.jacobian`.
- grad, openillumi fix-jax-grad-np-power-error (a Stack Overflow question): `np.mean(np.power(...))` inside the
  differentiated loss, fix the `jnp` versions.

New categories (regexes written from the fixes alone): `bincount-length-b16a` (give `bincount` a static `length=`),
`out-axes-rank-b16a` (`out_axes` must be an axis the per-example output has; `out_axes=0` for scalar outputs),
`one-d-input-b16a` (pass the differentiated input as a flat 1-D vector: `.ravel()`, `.reshape(-1)`, shape `(n,)`).
Existing categories used: vmap-in-axes-axis, vmap-in-axes-entries, vmap-in-axes-none, add-batch-dim, keys-array,
loop-body-callable, grad-float, callback-custom-rule, jacobian-b11a, np-to-jnp.

Caveats: most sources are tutorial pages rather than maintainer threads; their fixes are stated outright, but:
the in_axes-mechanics page says a single int `in_axes` for a two-argument function errors (in fact a single int is
broadcast), so the case uses a one-entry tuple, the form that does fail, with the page's fix; the out-axes page does
not show the failing call, so `out_axes=1` on a scalar output is my reading of its two pitfalls; the
shape-mismatch page names the mistake (a 1-D array where vmap expects the 2-D batch) but the excerpt stops before
its fix, so adding the batch axis is inferred; the errorhandle.ai answer is machine-written ("Copilot said"); the
`bincount` source is the API page, not a user report. In issue 23614 the user's own code already used `custom_vjp`
(with other mistakes); the case takes the maintainer's general statement, and `fixed` calls a wrapper defined in
the case. The openillumi jacobian page treats JAX and Autograd together; the JAX form of the error is `det`
rejecting the (2, 1, 2, 1) Jacobian. The two integer and vector-output grad cases repeat kinds of fix that earlier
batches already have, from new sources. Shortfall: none against the counts asked (vmap 7, grad 6).

## Part b

Part b of the sixteenth held-out batch (families loops and branches), written by a blind helper session that
never opened the rules under `autograder/` nor any message the course prints.

How the cases were found: the `source=` of every file in `tests/mistakes/` was collected first and each candidate
was checked against it. The loop and branch threads of the JAX tracker that the search tools surface (scan/while
carry types, cond branch types, switch indices, reverse-mode while loops, Python `if` under jit) are nearly all
cited already, and so are most loop threads of flax, equinox and numpyro, so this part leans on teaching material
that states a mistake and its repair: a public JAX workshop repository (notebooks that run the failing code and then
show the fix), crackedaicode problem pages ("Common pitfalls" sections), the JAX documentation's errors page, a
Manning liveBook concept page, a Qiita article, an openillumi article, a project's own JAX notes kept as a GitHub
issue (pgx), and one uncited JAX question thread answered by a maintainer. No website gives more than 3 cases here
(github.com/AdrienCorenflos/jax-workshop 3, pgx issue 5 2, crackedaicode 2, every other source 1). The code is my
own (names, numbers, data); the mistake and the fix are the source's. Each function raises `raises` at `line` when
called eagerly on `args()` with the pinned jax 0.10.2 and runs with `fixed` in its place; where the source's fix sits
on another line (a decorator, a loop header), the call was inlined so that the offending thing is on the raising line.

The 12 cases, one line each:
- loops, jax-workshop loops.ipynb: `res[i] = val` inside a `fori_loop` body (JAX arrays are immutable); the notebook's
  fix carries the array and updates it functionally (then `index_update`, today `.at[i].set`).
- loops, jax-workshop loops.ipynb: `jax.grad` through a `lax.while_loop` (reverse-mode is not defined for it); the
  notebook rewrites the fixed-count Newton iteration with `lax.scan`, whose gradient works.
- loops, crackedaicode "Bounded Search via lax.while_loop": Python `and` joining two traced comparisons in the
  `while_loop` condition; the page's fix is `&`.
- loops, Manning liveBook "Lax.fori_loop" (Deep Learning with JAX): `for k in range(count)` with a traced count under
  jit raises TracerIntegerConversionError; the book replaces the loop with `lax.fori_loop(0, count, ...)`.
- loops, openillumi "equinox-jax-scan-unhashable-fix-curry": a callable model object holding arrays passed directly as
  the `lax.scan` body fails with "unhashable type: ArrayImpl"; the article's one-line fix wraps the call in a lambda,
  `lax.scan(lambda xk, uk: model(xk, uk), x0, inputs)`.
- loops, pgx issue 5 (the maintainers' JAX/jit notes): a Python `for` over `range(n)` with `n` a jit argument; the
  note says the loop is fine when `n` is static, written here as `static_argnums=1`.
- branches, jax-workshop if-else.ipynb: `x if x > 0 else -x` under `jit`; the notebook's fix is `lax.cond`.
- branches, crackedaicode "Multi-Condition where": an if/elif chain on an array under jit (for a non-scalar array
  the pinned jax raises ValueError, ambiguous truth value); the page's fix is nested `jnp.where`.
- branches, JAX docs errors page (TracerBoolConversionError, "traced value used in control flow"): a Python `if` on a
  boolean flag passed to a jitted function; the page marks the flag static with `static_argnames`.
- branches, Qiita "jax.lax.condの使い方": `lax.cond` given an array predicate ("Pred must be a scalar"); the article
  notes `cond` cannot be used on arrays and points to `jnp.where` for elementwise choice.
- branches, pgx issue 5: `lax.cond` whose two branches return different dtypes (int and float); the note says both
  branch functions must return the same type, written here as a cast in the float branch.
- branches, jax issue 5261 ("How to loop over a list of functions"): indexing a Python list of functions with a traced
  loop index; jakevdp's answer selects the function with `lax.switch`.

New category: `lambda-wrap-b16b` (hand `lax.scan` a lambda or plain function that calls the object, instead of the
object itself; the regex asks for `lax.scan(lambda` or wording that wraps the call in a lambda/function). Existing
categories used: at-set, static-loop-bounds, elementwise-and, fori_loop, static-arg (twice, loops and branches),
cond, where, select-where, branch-types, switch-branches-b11a.

Caveats: the workshop notebooks predate `.at[]`; `fixed` uses today's spelling of their `index_update` fix, and the
case carries the array in the loop state from the start (the notebook's failing version closed over it). The
openillumi article uses an Equinox module; the case reproduces the same failure in plain JAX with a frozen dataclass
holding an array and defining `__call__` (its generated `__hash__` hashes the array). The pgx note states only that a
`for` over `range(n)` is fine when `n` is static; `static_argnums` is my spelling of that. The pgx note's branch rule
("the types of true_fn and false_fn must be the same") gives no code; the cast is mine. jax issue 5261's answer is a
vmapped `lax.switch`; the case keeps the reporter's loop and puts `lax.switch` at the indexing site. The crackedaicode
where page says the Python `if` raises a concretization error; on the pinned jax an array condition gives ValueError,
which `raises` records. The Manning and Qiita pages are short concept pages whose fix is stated in one sentence.

Shortfall: none against the counts asked (loops 6, branches 6).

## Part c

Part C of the sixteenth held-out batch (families pytrees and keys), written by a blind helper session that never
opened the rules under `autograder/` nor any message the course prints.

How the cases were found: the `source=` of every file in `tests/mistakes/` was collected first (747 addresses) and
every candidate was checked against that list before use; most pytree and key threads of the JAX tracker that the
search tools surface are already cited, so the threads below are uncited JAX issues and pull requests (feature
questions whose answer is the fix, pull requests that added a check or an example), downstream pull requests whose
fix commit I read in a fetched snapshot (BasisResearch/dynestyx, marin-community/haliax), one downstream pull
request read from its description (RobertTLange/evosax), a JAX documentation page, and one tutorial page
(crackedaicode.com) that names the pitfall and its repair. The code is my own (own names and numbers); the mistake
and the fix are the thread's. Called eagerly on `args()` with the pinned jax 0.10.2 each function raises `raises` at
`line` and runs with `fixed` in its place; where the thread's fix sits on another line, the offending call was put on
the line that raises.

The 12 cases (pytrees 6, keys 6), one thread each:
- pytrees, jax issue 18049: `tree.map` over a dict of 3-vectors kept as plain lists treats each list as a subtree,
  so the mapped function gets floats and indexing fails; fix (the maintainer's answer): `is_leaf=` that stops at the
  lists.
- pytrees, JAX docs "Custom pytree nodes": a container class that JAX does not know is a leaf, so `tree.map(lambda
  x: x + 1, ...)` adds 1 to the object; fix: register the class (here `register_pytree_node_class`, the class
  already has its `tree_flatten`/`tree_unflatten`).
- pytrees, jax issue 34079: `register_dataclass` with a field in both `data_fields` and `meta_fields` (ValueError on
  the pinned jax, the check added by PR 34105); fix: list the field in one of them only.
- pytrees, haliax PR 68: a named-array node whose `tree_unflatten` checks the rank against its axis names fails when
  JAX rebuilds it from per-example tracers or placeholders (here under `jax.vmap`); fix: no shape check in the
  unflatten rule.
- pytrees, jax issue 190: a flat parameter vector wanted from a dict of arrays of different ranks; fix (the
  maintainer's answer): `jax.flatten_util.ravel_pytree`.
- pytrees, evosax PR 26: a parameter reshaper written for dicts (`.values()`) fails on a model that is another pytree
  (a NamedTuple); fix: go through `jax.tree` flatten/leaves and unflatten.
- keys, dynestyx PR 180: code written for legacy uint32 keys handed a typed key (here stored into a uint32 key table,
  ValueError); fix (the PR's diff): convert with `jax.random.key_data`.
- keys, crackedaicode.com "PRNGKey and Split": the seed arrives as a float, `PRNGKey` rejects it; fix: `int(seed)`.
- keys, jax PR 17225: with `jax_legacy_prng_key="error"` a key made by `PRNGKey` is refused (ValueError); fix: make it
  with `jax.random.key`.
- keys, jax PR 25688: `jax.random.multinomial` with `shape=(n,)` for a 4-category `p` (ValueError); the thread shows
  `shape=(10, 4)` working: fix: the shape ends with the category axis.
- keys, jax PR 36893 (the `wrap_key_data` example it added): key data of a non-default (rbg) key wrapped back without
  saying which implementation (TypeError); fix: `wrap_key_data(data, dtype=key.dtype)`.
- keys, jax PR 20080: one key consumed twice by `random.bits` inside `jax.jit` with key-reuse checking on
  (KeyReuseError); fix: split the key and use each half once.

New categories (in `NEW_CATEGORIES`, each written from its thread's fix alone): `int-seed-b16c` (cast the seed to a
Python int before making the key), `disjoint-fields-b16c` (a dataclass field goes in `data_fields` or in
`meta_fields`, not both), `wrap-key-dtype-b16c` (give `wrap_key_data` the dtype or impl of the key the data came
from). Existing categories used: none-leaf, register-pytree, unflatten-any-leaf, ravel-pytree-b14b,
tree-util-flatten, key-one-style, prng-key, sample-shape-match, split-fresh-key-b15c.

Caveats, where the error or `fixed` is inferred rather than shown: jax issues 18049 and 190 are questions answered with
the fix (`is_leaf`, `ravel_pytree`); the failing calls (indexing a float leaf, `jnp.concatenate` of leaves of
different ranks) are my reductions. The docs page registers with `register_pytree_node`; the case's class already
defines the two methods and `fixed` registers it with `register_pytree_node_class` inside a conditional expression so
the fix stays on the raising line. jax issue 34079 asked for an early error; the fix (name the field once) follows the
PR's reason that a field cannot be both static and dynamic. haliax's failure came from `eqxi.while_loop`; the case
triggers the same unflatten check with `jax.vmap`, and `fixed` drops the check (`pass`) where haliax disables it.
evosax PR 26 gives no traceback; the AttributeError on `.values()` is Python's, not JAX's. dynestyx PR 180 does not
show which legacy operation failed; the uint32 table is my choice. jax PR 25688's reviewer only contrasts the failing
and the working call. The text of jax issue 36878 (fixed by PR 36893) was not available; the mistake is inferred from
the example the PR added. jax PR 20080 improves the reuse error; the split fix is the standard one, and the jitted
lambda is inlined because under `jit` the innermost frame in the case is the call line.

Shortfall: none against the counts asked (pytrees 6, keys 6).

## Part d

Part D of the sixteenth held-out batch (families custom-rules, shapes and other), written by a blind
helper session that never opened the rules under `autograder/` nor any message the course prints.

How the cases were found: I first collected every `source=` of the case files in tests/mistakes (see the
process note below) and checked each candidate thread against that list before use. The JAX tracker's
custom-derivative threads are almost all cited already, so the searches went wider: the `issues` corpus (error
texts, API names, library names), the `pages` corpus (Q&A and tutorial pages), and `git log --grep`/`-G` over
fetched snapshots of JAX-using libraries (dynamax, optax, numpyro, distrax, jraph, netket, ott, aqt, mctx, pgx,
diffrax, ...) to find pull requests whose diff is the fix; each thread or PR was then read (search excerpts,
and for PRs the diff in the snapshot). Every case was run on the pinned JAX 0.10.2; code, names and numbers are
my own, the mistake and the fix are the thread's.

custom-rules (4):
- jax PR 19071 (mattjj): a `custom_vjp` bwd rule that returned only the cotangent of its second (pair-valued)
  argument instead of one cotangent per primal argument; the PR's fix returns a cotangent for every input (the
  shape check of PR 19009 is what catches it). Fix category bwd-none (one cotangent for each argument).
- jax PR 22869 (dfm): a `jax.custom_batching.custom_vmap` function vmapped before any rule was registered; the PR
  improves the error raised "when `def_vmap` isn't called". Fix: register the rule with `def_vmap`
  (def-vmap-b16d).
- jax PR 3550 (hawkinsp, fixes #2325): a JVP rule for the real eigenvalues of a complex Hermitian matrix produced
  complex tangents; the fix makes the eigenvalue tangents real (real-tangent-b16d).
- fwdlap issue 5 (answer by the maintainer): a `custom_jvp` with `nondiff_argnums` pointing at an integer array
  that JAX traces; the answer: do not mark arguments that can be traced as nondiff (nondiff-arrays).
shapes (4):
- dynamax PR 22: `emissions[..., None, :]` puts the new axis in front when the emissions are scalars of shape
  (T,), so they no longer broadcast against the K states; fix `emissions[:, None, ...]` (broadcast-axes).
- optax PR 1200: non-negative least squares built its initial iterate as zeros of shape
  `b.shape[:-1] + A.shape[-1:]`, wrong for a matrix right-hand side; fix `A.shape[-1:] + b.shape[1:]`
  (init-carry-shape).
- numpyro PR 1859 (fehiepsi): `enumerate_support` added the batched `low` to an `arange`, which fails to
  broadcast when low/high have a batch shape; fix: one scalar low/high and `arange` between them, reshaped with
  trailing singleton axes (scalar-bounds-b16d).
- optax issue 1309 (fixed by PR 1310): an inner product of two (1, 2) arrays written with `jnp.dot`, which
  contracts the wrong axes; the fix computes it as the JVP of the summed log-density along the tangent
  (inner-product-b16d).
other (5):
- GPJax issue 520: `checkify.check` inside a jitted function that was never functionalized; the reporter's fix
  decorates the checking helper with `@checkify.checkify` (checkify-wrap-b16d).
- openillumi.com "JAX static_argnums Array Fix" (a write-up of a Q&A): training arrays marked as static
  arguments of `jax.jit` are unhashable; fix: plain `jax.jit` without static arguments (unmark-static).
- jax issue 9635: the same buffer passed twice to a jitted function that donates its first argument; mattjj: to
  make a copy, just don't use `donate_argnums` (drop-donate-b16d).
- jax issue 14258 (fixed by PR 14446): a per-row array given as `initial` to `jnp.max`; PR 14446 requires a
  scalar `initial` and shows the replacement, a `vmap` of the reduction with one scalar initial per row
  (vmap-scalar-initial-b16d).
- jax PR 8754 (jakevdp): an array passed where `lax.convert_element_type` expects a dtype (it used to take the
  array's dtype); the PR makes lax require an explicit dtype (pass-dtype-b16d).

New categories (in NEW_CATEGORIES, each written from its thread's fix and checked not to match the error text
JAX 0.10.2 raises for its case): def-vmap-b16d, real-tangent-b16d, scalar-bounds-b16d, checkify-wrap-b16d,
drop-donate-b16d, inner-product-b16d, vmap-scalar-initial-b16d, pass-dtype-b16d; the comment above each says
what it means. Existing categories used: bwd-none, nondiff-arrays, broadcast-axes, init-carry-shape,
unmark-static.

Caveats: where a thread's fix sits on another line than the one that raises, the offending piece is inlined
(the bwd rule, the JVP's tangent post-processing, the `custom_jvp` options and the scan's initial value are
passed on the raising line through small factories or lambdas). PR 19071 used a PRNG key inside the state pair;
the case uses a plain float array and writes the first argument's cotangent as `0.0`. PR 22869 only describes
the improved error; that the fix is calling `def_vmap` is my reading of it. PR 3550 fixed JAX's own eigh JVP
rule; the case writes the same rule as a user `custom_jvp`. fwdlap issue 5 arose under fwdlap's `lap` on a
vmapped function; in plain JAX the same misuse fails when the `custom_jvp` is jitted and then differentiated
(a TypeError about a tracer constant on 0.10.2), and the case's rule accepts both signatures so that only the
`nondiff_argnums` option changes. optax 1309's fix in PR 1310 is a `jax.jvp` of the summed log-probability;
the category also accepts other ways of saying "inner product over all entries". jax 9635 reported a hang on
GPU/TPU; on 0.10.2 (CPU) the same call raises JaxRuntimeError and XLA also logs the error to stderr (nothing is
printed to stdout). jax 14258 reported that a non-scalar `initial` worked (and then broke with a TypeError); on 0.10.2 the call
raises "initial value must be a scalar", and the fix comes from PR 14446, which closes the issue. PR 8754's fix (pass a dtype) is inferred
from its statement that lax now requires explicit dtype inputs; on 0.10.2 the call raises TypeError. The
openillumi page is a tutorial write-up, not an issue thread.

Shortfall: none against the counts asked (custom-rules 4, shapes 4, other 5). Process note: to collect the cited
threads I ran one `grep -ho 'source="..."'` over tests/mistakes/*.py, which also scanned case_hints.py,
error_runs.py and rates.py; only `source=` URL strings came out (merged into one list used for de-duplication),
and nothing else from those files was read or shown. One later grep over tests/mistakes/*.py for an existing
category name likewise passed over them with its output filtered to case files. No file under `autograder/`,
`docs/`, `benchmarks/` or the course's messages was opened, and nothing importing `autograder` was run.
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


# ----------------------------------------------------------------------------------------------- vmap

@error_case(family="vmap", fix="vmap-in-axes-axis", raises="ValueError",
            source="https://crackedaicode.com/problems/jax-vmap-in-axes-mechanics",
            line="return jax.vmap(jnp.outer, in_axes=(0, 0))(left_rows, right_cols)",
            fixed="return jax.vmap(jnp.outer, in_axes=(0, 1))(left_rows, right_cols)",
            args=lambda: (np.arange(12.0, dtype=np.float32).reshape(4, 3),
                          np.arange(12.0, dtype=np.float32).reshape(3, 4)))
def quill_pair_outers(left_rows, right_cols):
    # left_rows holds one example per row (4, 3); right_cols holds one example per column (3, 4)
    return jax.vmap(jnp.outer, in_axes=(0, 0))(left_rows, right_cols)


@error_case(family="vmap", fix="vmap-in-axes-entries", raises="ValueError",
            source="https://crackedaicode.com/problems/jax-vmap-in-axes-mechanics",
            line="return jax.vmap(blend, in_axes=(0,))(starts, stops)",
            fixed="return jax.vmap(blend, in_axes=(0, 0))(starts, stops)",
            args=lambda: (np.array([0.0, 1.0, 2.0], np.float32), np.array([4.0, 5.0, 6.0], np.float32)))
def quill_midpoints(starts, stops):
    def blend(a, b):
        return 0.5 * (a + b)
    return jax.vmap(blend, in_axes=(0,))(starts, stops)


@error_case(family="vmap", fix="vmap-in-axes-none", raises="ValueError",
            source="https://crackedaicode.com/problems/jax-vmap-broadcast-with-none",
            line="return jax.vmap(lambda w, x: w @ x, in_axes=(0, 0))(weight, samples)",
            fixed="return jax.vmap(lambda w, x: w @ x, in_axes=(None, 0))(weight, samples)",
            args=lambda: (np.ones((2, 3), np.float32), np.arange(15.0, dtype=np.float32).reshape(5, 3)))
def quill_shared_affine(weight, samples):
    # one (2, 3) weight matrix shared by all five samples of shape (3,)
    return jax.vmap(lambda w, x: w @ x, in_axes=(0, 0))(weight, samples)


@error_case(family="vmap", fix="out-axes-rank-b16a", raises="ValueError",
            source="https://crackedaicode.com/problems/jax-vmap-out-axes",
            line="return jax.vmap(lambda col: jnp.sum(col ** 2), in_axes=1, out_axes=1)(table)",
            fixed="return jax.vmap(lambda col: jnp.sum(col ** 2), in_axes=1, out_axes=0)(table)",
            args=lambda: (np.arange(12.0, dtype=np.float32).reshape(3, 4),))
def quill_column_energy(table):
    # the examples are the columns of `table`; each one reduces to a scalar
    return jax.vmap(lambda col: jnp.sum(col ** 2), in_axes=1, out_axes=1)(table)


@error_case(family="vmap", fix="bincount-length-b16a", raises="ConcretizationTypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.numpy.bincount.html",
            line="return jax.vmap(jnp.bincount)(votes)",
            fixed="return jax.vmap(lambda row: jnp.bincount(row, length=5))(votes)",
            args=lambda: (np.array([[0, 1, 1, 4], [2, 2, 3, 0], [1, 1, 1, 1]], np.int32),))
def quill_vote_tallies(votes):
    # one row of ballots per district, candidates numbered 0..4
    return jax.vmap(jnp.bincount)(votes)


@error_case(family="vmap", fix="add-batch-dim", raises="IndexError",
            source="https://theneuralbase.com/jax/learn/beginner/shape-mismatch-in-vmap/",
            line="return jax.vmap(lambda row: row - row[1])(reading)",
            fixed="return jax.vmap(lambda row: row - row[1])(reading[None, :])",
            args=lambda: (np.array([4.0, 1.5, 2.5], np.float32),))
def quill_recentred(reading):
    # `reading` is ONE example of shape (3,), handed to a function vmapped over examples
    return jax.vmap(lambda row: row - row[1])(reading)


@error_case(family="vmap", fix="keys-array", raises="ValueError",
            source="https://errorhandle.ai/how-to-handle-prng-splitting-in-a-jax-vmap-context",
            line="return jax.vmap(jitter, in_axes=(0, 0))(jax.random.key(seed), levels)",
            fixed="return jax.vmap(jitter, in_axes=(0, 0))(jax.random.split(jax.random.key(seed), levels.shape[0]), levels)",
            args=lambda: (7, np.array([1.0, 2.0, 3.0, 4.0], np.float32)))
def quill_jittered_levels(seed, levels):
    def jitter(k, level):
        return level + 0.1 * jax.random.normal(k, ())
    return jax.vmap(jitter, in_axes=(0, 0))(jax.random.key(seed), levels)


# ----------------------------------------------------------------------------------------------- grad

@error_case(family="grad", fix="loop-body-callable", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-grad-scalar-function",
            line="return jax.grad(sq_fit(slope, offset, points))(slope)",
            fixed="return jax.grad(sq_fit)(slope, offset, points)",
            args=lambda: (0.5, 1.0, np.array([1.0, 2.0, 3.0], np.float32)))
def quill_slope_gradient(slope, offset, points):
    def sq_fit(w, b, xs):
        return jnp.sum((w * xs + b) ** 2)
    return jax.grad(sq_fit(slope, offset, points))(slope)


@error_case(family="grad", fix="callback-custom-rule", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/23614",
            line="kept = io_callback(stash, jax.ShapeDtypeStruct(v.shape, v.dtype), v)",
            fixed="kept = stashed(v)",
            args=lambda: (np.array([1.0, -2.0, 0.5], np.float32),))
def quill_stashed_energy(state):
    from jax.experimental import io_callback
    saved = []

    def stash(v):
        saved.append(np.asarray(v))
        return v

    @jax.custom_vjp
    def stashed(v):
        return io_callback(stash, jax.ShapeDtypeStruct(v.shape, v.dtype), v)

    stashed.defvjp(lambda v: (stashed(v), None), lambda _, g: (g,))

    def energy(v):
        kept = io_callback(stash, jax.ShapeDtypeStruct(v.shape, v.dtype), v)
        return jnp.sum(kept ** 2)
    return jax.grad(energy)(state)


@error_case(family="grad", fix="one-d-input-b16a", raises="ValueError",
            source="https://openillumi.com/jax-autograd-jacobian-fix",
            line="return jnp.linalg.det(jax.jacobian(field)(point))",
            fixed="return jnp.linalg.det(jax.jacobian(field)(point.reshape(-1)))",
            args=lambda: (np.array([[3.0], [11.0]], np.float32),))
def quill_jacobian_volume(point):
    def field(p):
        return jnp.stack([p[0] ** 2 * p[1], 5.0 * p[0] + jnp.sin(p[1])])
    return jnp.linalg.det(jax.jacobian(field)(point))


@error_case(family="grad", fix="jacobian-b11a", raises="TypeError",
            source="https://theneuralbase.com/jax/learn/beginner/jax-numpy-plus-autodiff-plus-jit-on-gpu-tpu/",
            line="return jax.grad(powers)(at)",
            fixed="return jax.jacobian(powers)(at)",
            args=lambda: (2.0,))
def quill_power_slopes(at):
    def powers(t):
        return jnp.stack([t ** 2, t ** 3, t ** 4])
    return jax.grad(powers)(at)


@error_case(family="grad", fix="np-to-jnp", raises="TracerArrayConversionError",
            source="https://openillumi.com/fix-jax-grad-np-power-error",
            line="return np.mean(np.power(params['w'] * xs + params['b'] - ys, 2))",
            fixed="return jnp.mean(jnp.power(params['w'] * xs + params['b'] - ys, 2))",
            args=lambda: ({"w": 1.5, "b": 0.0}, np.linspace(0.0, 1.0, 8).astype(np.float32),
                          np.linspace(3.0, 5.0, 8).astype(np.float32)))
def quill_line_fit_grads(params, xs, ys):
    def mse(params):
        return np.mean(np.power(params['w'] * xs + params['b'] - ys, 2))
    return jax.grad(mse)(params)


@error_case(family="grad", fix="grad-float", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-grad-scalar-function",
            line="return jax.grad(spread)(scale, samples)",
            fixed="return jax.grad(spread)(jnp.asarray(scale).astype(jnp.float32), samples)",
            args=lambda: (3, np.array([0.5, -1.0, 2.0], np.float32)))
def quill_scale_gradient(scale, samples):
    def spread(s, xs):
        return jnp.sum((s * xs) ** 2)
    return jax.grad(spread)(scale, samples)


# ---- part b


# ---- loops


@error_case(family="loops", fix="at-set", raises="TypeError",
            source="https://github.com/AdrienCorenflos/jax-workshop/blob/master/notebooks/controlflow/loops.ipynb",
            line="running[i] = level",
            fixed="running = running.at[i].set(level)",
            args=lambda: (np.array([0.5, 2.0, 1.25, 3.0, 0.75], dtype=np.float32),))
def quill_running_levels(rain):
    rain = jnp.asarray(rain)

    def body(i, carry):
        running, level = carry
        level = level + rain[i]
        running[i] = level
        return running, level

    running, _ = lax.fori_loop(0, rain.shape[0], body, (jnp.zeros_like(rain), jnp.float32(0.0)))
    return running


@error_case(family="loops", fix="static-loop-bounds", raises="ValueError",
            source="https://github.com/AdrienCorenflos/jax-workshop/blob/master/notebooks/controlflow/loops.ipynb",
            line="return jax.grad(lambda a: lax.while_loop(lambda c: c[0] < 12, lambda c: (c[0] + 1, 0.5 * (c[1] + a / c[1])), (0, 1.0))[1])(area)",
            fixed="return jax.grad(lambda a: lax.scan(lambda y, _: (0.5 * (y + a / y), None), 1.0, None, length=12)[0])(area)",
            args=lambda: (np.float32(2.25),))
def quill_heron_side_slope(area):
    return jax.grad(lambda a: lax.while_loop(lambda c: c[0] < 12, lambda c: (c[0] + 1, 0.5 * (c[1] + a / c[1])), (0, 1.0))[1])(area)


@error_case(family="loops", fix="elementwise-and", raises="TracerBoolConversionError",
            source="https://crackedaicode.com/problems/jax-while-loop-bounded-search",
            line="keep_going = lambda i: (i < n) and (depths[i] > 0.0)",
            fixed="keep_going = lambda i: (i < n) & (depths[i] > 0.0)",
            args=lambda: (np.array([3.0, 1.5, 2.0, -0.5, 4.0], dtype=np.float32),))
def quill_first_dry_cell(depths):
    depths = jnp.asarray(depths)
    n = depths.shape[0]
    keep_going = lambda i: (i < n) and (depths[i] > 0.0)
    return lax.while_loop(keep_going, lambda i: i + 1, jnp.int32(0))


@error_case(family="loops", fix="fori_loop", raises="TracerIntegerConversionError",
            source="https://livebook.manning.com/learn/concepts/lax-fori-loop--api-element/deep-learning-with-jax",
            line="for k in range(count): acc = acc + k * k",
            fixed="acc = lax.fori_loop(0, count, lambda k, a: a + k * k, acc)",
            args=lambda: (6,))
def quill_square_tally(count):
    @jax.jit
    def tally(count):
        acc = 0
        for k in range(count): acc = acc + k * k
        return acc
    return tally(count)


@error_case(family="loops", fix="lambda-wrap-b16b", raises="TypeError",
            source="https://openillumi.com/equinox-jax-scan-unhashable-fix-curry",
            line="_, path = lax.scan(plant, x0, pushes)",
            fixed="_, path = lax.scan(lambda s, u: plant(s, u), x0, pushes)",
            args=lambda: (np.float32(0.9), np.float32(1.0), np.array([0.5, -0.25, 0.0, 1.0], dtype=np.float32)))
def quill_plant_trajectory(gain, x0, pushes):
    @dataclasses.dataclass(frozen=True)
    class Plant:
        gain: jax.Array

        def __call__(self, state, push):
            nxt = self.gain * state + push
            return nxt, nxt

    plant = Plant(jnp.asarray(gain))
    _, path = lax.scan(plant, x0, pushes)
    return path


@error_case(family="loops", fix="static-arg", raises="TracerIntegerConversionError",
            source="https://github.com/sotetsuk/pgx/issues/5",
            line="return jax.jit(lambda m, n: sum(m[t % m.shape[0]] for t in range(n)))(moves, n_turns)",
            fixed="return jax.jit(lambda m, n: sum(m[t % m.shape[0]] for t in range(n)), static_argnums=1)(moves, n_turns)",
            args=lambda: (np.array([1.0, -0.5, 2.0], dtype=np.float32), 5))
def quill_rotating_score(moves, n_turns):
    return jax.jit(lambda m, n: sum(m[t % m.shape[0]] for t in range(n)))(moves, n_turns)


# ---- branches


@error_case(family="branches", fix="cond", raises="TracerBoolConversionError",
            source="https://github.com/AdrienCorenflos/jax-workshop/blob/master/notebooks/controlflow/if-else.ipynb",
            line="return jax.jit(lambda g: g if g > 0 else -g)(gap)",
            fixed="return jax.jit(lambda g: lax.cond(g > 0, lambda: g, lambda: -g))(gap)",
            args=lambda: (np.float32(-3.5),))
def quill_gap_size(gap):
    return jax.jit(lambda g: g if g > 0 else -g)(gap)


@error_case(family="branches", fix="where", raises="ValueError",
            source="https://crackedaicode.com/problems/jax-where-multi-condition",
            line="return -1.0 if v < low else (1.0 if v > high else 0.0)",
            fixed="return jnp.where(v < low, -1.0, jnp.where(v > high, 1.0, 0.0))",
            args=lambda: (np.array([-4.0, 0.5, 6.0, 2.0], dtype=np.float32), -1.0, 3.0))
def quill_band_labels(temps, low, high):
    @jax.jit
    def label(v):
        return -1.0 if v < low else (1.0 if v > high else 0.0)
    return label(temps)


@error_case(family="branches", fix="static-arg", raises="TracerBoolConversionError",
            source="https://docs.jax.dev/en/latest/errors.html",
            line="return jax.jit(lambda v, rescale: v / v.sum() if rescale else v)(counts, rescale)",
            fixed="return jax.jit(lambda v, rescale: v / v.sum() if rescale else v, static_argnames=('rescale',))(counts, rescale)",
            args=lambda: (np.array([2.0, 3.0, 5.0], dtype=np.float32), True))
def quill_share_of_votes(counts, rescale):
    return jax.jit(lambda v, rescale: v / v.sum() if rescale else v)(counts, rescale)


@error_case(family="branches", fix="select-where", raises="TypeError",
            source="https://qiita.com/shibaura/items/b246de663fe576b35e45",
            line="return lax.cond(bids > 0, lambda: bids * 2.0, lambda: bids)",
            fixed="return jnp.where(bids > 0, bids * 2.0, bids)",
            args=lambda: (np.array([1.5, -0.5, 3.0, 0.0], dtype=np.float32),))
def quill_double_positive_bids(bids):
    bids = jnp.asarray(bids)
    return lax.cond(bids > 0, lambda: bids * 2.0, lambda: bids)


@error_case(family="branches", fix="branch-types", raises="TypeError",
            source="https://github.com/sotetsuk/pgx/issues/5",
            line="return jax.jit(lambda n: lax.cond(n % 2 == 0, lambda: n // 2, lambda: n * 1.5))(steps)",
            fixed="return jax.jit(lambda n: lax.cond(n % 2 == 0, lambda: n // 2, lambda: (n * 1.5).astype(n.dtype)))(steps)",
            args=lambda: (np.int32(7),))
def quill_halve_or_stretch(steps):
    return jax.jit(lambda n: lax.cond(n % 2 == 0, lambda: n // 2, lambda: n * 1.5))(steps)


@error_case(family="branches", fix="switch-branches-b11a", raises="TracerIntegerConversionError",
            source="https://github.com/jax-ml/jax/issues/5261",
            line="return out.at[i].set(shapers[i](t))",
            fixed="return out.at[i].set(lax.switch(i, shapers, t))",
            args=lambda: (np.float32(0.75),))
def quill_profile_at(t):
    shapers = [jnp.sin, jnp.cos, jnp.tanh]

    def fill(i, out):
        return out.at[i].set(shapers[i](t))

    return lax.fori_loop(0, len(shapers), fill, jnp.zeros(len(shapers), dtype=jnp.float32))


# ---- part c


# ----------------------------------------------------------------------------------------------------- pytrees

@error_case(family="pytrees", fix="none-leaf", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/18049",
            line="lengths = jax.tree.map(lambda v: jnp.sqrt(v[0] ** 2 + v[1] ** 2 + v[2] ** 2), arrows)",
            fixed="lengths = jax.tree.map(lambda v: jnp.sqrt(v[0] ** 2 + v[1] ** 2 + v[2] ** 2), arrows, is_leaf=lambda x: isinstance(x, list) and len(x) == 3)",
            args=lambda: ({"wind": [3.0, 4.0, 0.0], "drift": [1.0, 2.0, 2.0]},))
def quiver_lengths(arrows):
    # each entry is one 3-vector kept as a plain list; the list itself should be the leaf
    lengths = jax.tree.map(lambda v: jnp.sqrt(v[0] ** 2 + v[1] ** 2 + v[2] ** 2), arrows)
    return lengths


@error_case(family="pytrees", fix="register-pytree", raises="TypeError",
            source="https://docs.jax.dev/en/latest/custom_pytrees.html",
            line="shifted = jax.tree.map(lambda leaf: leaf + 1.0, pins)",
            fixed="shifted = jax.tree.map(lambda leaf: leaf + 1.0, pins) if jax.tree_util.register_pytree_node_class(Pin) else None",
            args=lambda: ([0.0, 2.0], [1.0, 4.0]))
def shift_pins(xs, ys):
    class Pin:
        def __init__(self, x, y):
            self.x = x
            self.y = y

        def tree_flatten(self):
            return (self.x, self.y), None

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(*children)

    pins = [Pin(a, b) for a, b in zip(xs, ys)]
    shifted = jax.tree.map(lambda leaf: leaf + 1.0, pins)
    return [(p.x, p.y) for p in shifted]


@error_case(family="pytrees", fix="disjoint-fields-b16c", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/34079",
            line='Probe = jax.tree_util.register_dataclass(Probe, data_fields=["signal", "gain"], meta_fields=["gain"])',
            fixed='Probe = jax.tree_util.register_dataclass(Probe, data_fields=["signal"], meta_fields=["gain"])',
            args=lambda: (np.array([0.5, -1.0, 2.0], np.float32), 3.0))
def amplified_probe(signal, gain):
    @dataclasses.dataclass
    class Probe:
        signal: object
        gain: object

    Probe = jax.tree_util.register_dataclass(Probe, data_fields=["signal", "gain"], meta_fields=["gain"])
    probe = Probe(jnp.asarray(signal), gain)
    return jax.jit(lambda p: p.signal * p.gain)(probe)


@error_case(family="pytrees", fix="unflatten-any-leaf", raises="AssertionError",
            source="https://github.com/marin-community/haliax/pull/68",
            line='assert jnp.ndim(children[0]) == len(names), "axis names do not match the array rank"',
            fixed="pass  # no shape check here: JAX rebuilds the node from placeholders and per-example tracers",
            args=lambda: (np.arange(12.0, dtype=np.float32).reshape(3, 4),))
def named_row_means(table):
    @jax.tree_util.register_pytree_node_class
    class Named:
        def __init__(self, data, names):
            self.data = data
            self.names = names

        def tree_flatten(self):
            return (self.data,), self.names

        @classmethod
        def tree_unflatten(cls, names, children):
            assert jnp.ndim(children[0]) == len(names), "axis names do not match the array rank"
            return cls(children[0], names)

    grid = Named(jnp.asarray(table), ("row", "col"))
    return jax.vmap(lambda g: jnp.mean(g.data))(grid)


@error_case(family="pytrees", fix="ravel-pytree-b14b", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/190",
            line="flat = jnp.concatenate(jax.tree.leaves(params))",
            fixed="flat = ravel_pytree(params)[0]",
            args=lambda: (np.ones((2, 3), np.float32), np.zeros(3, np.float32)))
def packed_parameters(weight, bias):
    from jax.flatten_util import ravel_pytree  # noqa: F401  (what the thread points to)
    params = {"w": jnp.asarray(weight), "b": jnp.asarray(bias)}
    flat = jnp.concatenate(jax.tree.leaves(params))
    return flat


@error_case(family="pytrees", fix="tree-util-flatten", raises="AttributeError",
            source="https://github.com/RobertTLange/evosax/pull/26",
            line="shapes = [leaf.shape for leaf in template.values()]",
            fixed="shapes = [leaf.shape for leaf in jax.tree.leaves(template)]",
            args=lambda: (np.arange(8.0, dtype=np.float32), (2, 3), (2,)))
def unpack_candidate(flat_params, kernel_shape, bias_shape):
    class Dense(NamedTuple):
        kernel: object
        bias: object

    # the reshaper was written for dict parameters; this model is a NamedTuple
    template = Dense(jnp.zeros(kernel_shape), jnp.zeros(bias_shape))
    shapes = [leaf.shape for leaf in template.values()]
    sizes = [int(np.prod(s)) for s in shapes]
    pieces = jnp.split(jnp.asarray(flat_params), np.cumsum(sizes)[:-1].tolist())
    return jax.tree.unflatten(jax.tree.structure(template), [p.reshape(s) for p, s in zip(pieces, shapes)])


# -------------------------------------------------------------------------------------------------------- keys

@error_case(family="keys", fix="key-one-style", raises="ValueError",
            source="https://github.com/BasisResearch/dynestyx/pull/180",
            line="history = history.at[t].set(step_key)",
            fixed="history = history.at[t].set(jax.random.key_data(step_key))",
            args=lambda: (5, 4))
def filter_key_history(seed, n_steps):
    # legacy particle-filter bookkeeping: one row of raw uint32 key words per step
    key = jax.random.key(seed)
    history = jnp.zeros((n_steps, 2), dtype=jnp.uint32)
    for t in range(n_steps):
        key, step_key = jax.random.split(key)
        history = history.at[t].set(step_key)
    return history


@error_case(family="keys", fix="int-seed-b16c", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-prngkey-and-split",
            line="base = jax.random.PRNGKey(seed)",
            fixed="base = jax.random.PRNGKey(int(seed))",
            args=lambda: (7.0, 4))
def twin_normal_rows(seed, n):
    # the seed arrives as a float from a JSON config
    base = jax.random.PRNGKey(seed)
    left, right = jax.random.split(base, 2)
    return jnp.stack([jax.random.normal(left, (n,)), jax.random.normal(right, (n,))])


@error_case(family="keys", fix="prng-key", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/17225",
            line="return jax.random.bernoulli(jax.random.PRNGKey(seed), 0.8, (width,))",
            fixed="return jax.random.bernoulli(jax.random.key(seed), 0.8, (width,))",
            args=lambda: (11, 6))
def strict_keep_mask(seed, width):
    # the course config refuses legacy uint32 keys
    with jax.legacy_prng_key("error"):
        return jax.random.bernoulli(jax.random.PRNGKey(seed), 0.8, (width,))


@error_case(family="keys", fix="sample-shape-match", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/25688",
            line="counts = jax.random.multinomial(key, n_voters, p, shape=(n_polls,))",
            fixed="counts = jax.random.multinomial(key, n_voters, p, shape=(n_polls, p.shape[-1]))",
            args=lambda: (np.array([0.1, 0.2, 0.3, 0.4], np.float32), 10, 5))
def poll_tallies(probs, n_voters, n_polls):
    key = jax.random.key(0)
    p = jnp.asarray(probs)
    counts = jax.random.multinomial(key, n_voters, p, shape=(n_polls,))
    return counts


@error_case(family="keys", fix="wrap-key-dtype-b16c", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/36893",
            line="restored = jax.random.wrap_key_data(jnp.asarray(saved))",
            fixed="restored = jax.random.wrap_key_data(jnp.asarray(saved), dtype=key.dtype)",
            args=lambda: (21, 6))
def resumed_dropout_mask(seed, width):
    key = jax.random.key(seed, impl="rbg")
    saved = np.asarray(jax.random.key_data(key))  # what the checkpoint file holds
    restored = jax.random.wrap_key_data(jnp.asarray(saved))
    return jax.random.bernoulli(restored, 0.5, (width,))


@error_case(family="keys", fix="split-fresh-key-b15c", raises="KeyReuseError",
            source="https://github.com/jax-ml/jax/pull/20080",
            line="return jax.jit(lambda k: jax.random.bits(k, (n,)) ^ jax.random.bits(k, (n,)))(jax.random.key(seed))",
            fixed="return jax.jit(lambda ks: jax.random.bits(ks[0], (n,)) ^ jax.random.bits(ks[1], (n,)))(jax.random.split(jax.random.key(seed)))",
            args=lambda: (0, 4))
def mixed_noise_bits(seed, n):
    with jax.debug_key_reuse(True):
        return jax.jit(lambda k: jax.random.bits(k, (n,)) ^ jax.random.bits(k, (n,)))(jax.random.key(seed))


# ---- part d


# ---------------------------------------------------------------- custom rules

@error_case(family="custom-rules", fix="bwd-none", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/19071",
            line="return jax.grad(lambda st: jnp.sum(relay_with(lambda _, st_bar: st_bar)(gain, st)[0] * 2.0))(state)",
            fixed="return jax.grad(lambda st: jnp.sum(relay_with(lambda _, st_bar: (0.0, st_bar))(gain, st)[0] * 2.0))(state)",
            args=lambda: (1.5, (np.ones(3, np.float32), np.zeros(2, np.float32))))
def tally_relay_state(gain, state):
    def relay_with(bwd):
        @jax.custom_vjp
        def relay(g, st):
            return st
        relay.defvjp(lambda g, st: (st, None), bwd)
        return relay
    return jax.grad(lambda st: jnp.sum(relay_with(lambda _, st_bar: st_bar)(gain, st)[0] * 2.0))(state)


@error_case(family="custom-rules", fix="def-vmap-b16d", raises="AttributeError",
            source="https://github.com/jax-ml/jax/pull/22869",
            line="return jax.vmap(make_clip())(xs)",
            fixed="return jax.vmap(make_clip(clip_rule))(xs)",
            args=lambda: (np.array([-2.0, -0.3, 0.4, 3.0], np.float32),))
def squash_batch(xs):
    def make_clip(rule=None):
        clip = jax.custom_batching.custom_vmap(lambda x: jnp.clip(x, -1.0, 1.0))
        if rule is not None:
            clip.def_vmap(rule)
        return clip

    def clip_rule(axis_size, in_batched, vals):
        return jnp.clip(vals, -1.0, 1.0), in_batched[0]
    return jax.vmap(make_clip())(xs)


@error_case(family="custom-rules", fix="real-tangent-b16d", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/3550",
            line="return jax.jvp(levels_with(lambda dw: dw), (ham,), (jnp.eye(ham.shape[0], dtype=ham.dtype),))[1]",
            fixed="return jax.jvp(levels_with(lambda dw: dw.real), (ham,), (jnp.eye(ham.shape[0], dtype=ham.dtype),))[1]",
            args=lambda: (np.array([[2.0, 1j], [-1j, 3.0]], np.complex64),))
def hermitian_level_drift(ham):
    def levels_with(finish):
        @jax.custom_jvp
        def levels(m):
            return jnp.linalg.eigvalsh(m)

        @levels.defjvp
        def levels_jvp(primals, tangents):
            (m,), (dm,) = primals, tangents
            w, v = jnp.linalg.eigh(m)
            return w, finish(jnp.einsum("ji,jk,ki->i", v.conj(), dm, v))
        return levels
    return jax.jvp(levels_with(lambda dw: dw), (ham,), (jnp.eye(ham.shape[0], dtype=ham.dtype),))[1]


@error_case(family="custom-rules", fix="nondiff-arrays", raises="TypeError",
            source="https://github.com/y1xiaoc/fwdlap/issues/5",
            line="return jax.grad(lambda x: jnp.sum(jax.jit(make_power(nondiff_argnums=(1,)))(x, orders)))(xs)",
            fixed="return jax.grad(lambda x: jnp.sum(jax.jit(make_power())(x, orders)))(xs)",
            args=lambda: (np.array([0.5, 1.0, 1.5, 2.0], np.float32), np.array([1, 2, 3, 4], np.int32)))
def monomial_series_grad(xs, orders):
    def make_power(**options):
        power = jax.custom_jvp(lambda x, n: x ** n, **options)

        def power_jvp(*args):
            *static, primals, tangents = args
            x, n = (primals[0], static[0]) if static else primals
            return x ** n, n * x ** (n - 1) * tangents[0]
        power.defjvp(power_jvp)
        return power
    return jax.grad(lambda x: jnp.sum(jax.jit(make_power(nondiff_argnums=(1,)))(x, orders)))(xs)


# ---------------------------------------------------------------- shapes

@error_case(family="shapes", fix="broadcast-axes", raises="ValueError",
            source="https://github.com/probml/dynamax/pull/22",
            line="return -0.5 * (emissions[..., None, :] - means) ** 2",
            fixed="return -0.5 * (emissions[:, None, ...] - means) ** 2",
            args=lambda: (np.linspace(-1.0, 1.0, 6, dtype=np.float32), np.array([-0.5, 0.0, 0.5], np.float32)))
def emission_table(emissions, means):
    emissions, means = jnp.asarray(emissions), jnp.asarray(means)
    return -0.5 * (emissions[..., None, :] - means) ** 2


@error_case(family="shapes", fix="init-carry-shape", raises="TypeError",
            source="https://github.com/google-deepmind/optax/pull/1200",
            line="return lax.scan(lambda x, _: (jnp.maximum(x - 0.05 * (gram @ x - proj), 0.0), None), jnp.zeros_like(rhs, shape=rhs.shape[:-1] + mat.shape[-1:]), length=steps)[0]",
            fixed="return lax.scan(lambda x, _: (jnp.maximum(x - 0.05 * (gram @ x - proj), 0.0), None), jnp.zeros_like(rhs, shape=mat.shape[-1:] + rhs.shape[1:]), length=steps)[0]",
            args=lambda: (np.arange(15, dtype=np.float32).reshape(5, 3) / 10.0, np.ones((5, 2), np.float32), 20))
def nonneg_fit(mat, rhs, steps):
    mat, rhs = jnp.asarray(mat), jnp.asarray(rhs)
    gram, proj = mat.T @ mat, mat.T @ rhs
    return lax.scan(lambda x, _: (jnp.maximum(x - 0.05 * (gram @ x - proj), 0.0), None), jnp.zeros_like(rhs, shape=rhs.shape[:-1] + mat.shape[-1:]), length=steps)[0]


@error_case(family="shapes", fix="scalar-bounds-b16d", raises="TypeError",
            source="https://github.com/pyro-ppl/numpyro/pull/1859",
            line="return (low + jnp.arange(np.amax(high - low) + 1)).reshape((-1,) + (1,) * low.ndim)",
            fixed="return jnp.arange(np.reshape(low, -1)[0], np.reshape(high, -1)[0] + 1).reshape((-1,) + (1,) * low.ndim)",
            args=lambda: (np.zeros(3, np.int32), np.full(3, 4, np.int32)))
def dice_support(low, high):
    return (low + jnp.arange(np.amax(high - low) + 1)).reshape((-1,) + (1,) * low.ndim)


@error_case(family="shapes", fix="inner-product-b16d", raises="TypeError",
            source="https://github.com/google-deepmind/optax/issues/1309",
            line="return jnp.dot(jax.grad(log_density)(noise), direction)",
            fixed="return jax.jvp(log_density, (noise,), (direction,))[1]",
            args=lambda: (np.array([[0.3, -1.2]], np.float32), np.array([[1.0, 0.5]], np.float32)))
def score_along(noise, direction):
    def log_density(z):
        return jnp.sum(-0.5 * z ** 2)
    return jnp.dot(jax.grad(log_density)(noise), direction)


# ---------------------------------------------------------------- other

@error_case(family="other", fix="checkify-wrap-b16d", raises="ValueError",
            source="https://github.com/thomaspinder/GPJax/issues/520",
            line="return jax.jit(to_log)(lengthscale)",
            fixed="return checkify.checkify(jax.jit(to_log))(lengthscale)[1]",
            args=lambda: (np.array([0.5, 2.0], np.float32),))
def log_lengthscale(lengthscale):
    from jax.experimental import checkify

    def to_log(ls):
        checkify.check(jnp.all(ls > 0), "lengthscale must be positive")
        return jnp.log(ls)
    return jax.jit(to_log)(lengthscale)


@error_case(family="other", fix="unmark-static", raises="ValueError",
            source="https://openillumi.com/en/en-jax-jit-static-argnums-array-fix",
            line="return jax.jit(mse, static_argnums=(1, 2))(slope, xs, ys)",
            fixed="return jax.jit(mse)(slope, xs, ys)",
            args=lambda: (0.7, np.linspace(0.0, 1.0, 8, dtype=np.float32), np.linspace(0.1, 2.1, 8, dtype=np.float32)))
def fit_slope_loss(slope, xs, ys):
    def mse(r, x, y):
        return jnp.mean((r * x - y) ** 2)
    return jax.jit(mse, static_argnums=(1, 2))(slope, xs, ys)


@error_case(family="other", fix="drop-donate-b16d", raises="JaxRuntimeError",
            source="https://github.com/jax-ml/jax/issues/9635",
            line="return jax.jit(lambda acc, inc: acc + inc, donate_argnums=(0,))(buf, buf)",
            fixed="return jax.jit(lambda acc, inc: acc + inc)(buf, buf)",
            args=lambda: (np.arange(6, dtype=np.float32),))
def double_in_place(values):
    buf = jnp.asarray(values)
    return jax.jit(lambda acc, inc: acc + inc, donate_argnums=(0,))(buf, buf)


@error_case(family="other", fix="vmap-scalar-initial-b16d", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/14258",
            line="return jnp.max(scores, axis=-1, initial=floors, where=jnp.isfinite(scores))",
            fixed="return jax.vmap(lambda s, f: jnp.max(s, initial=f, where=jnp.isfinite(s)))(scores, floors[:, 0])",
            args=lambda: (np.array([[0.2, np.inf, 0.9], [1.5, 0.1, -0.3], [np.nan, 0.4, 0.0], [2.0, 2.5, 1.0]], np.float32),
                          np.array([[0.5], [0.0], [1.0], [3.0]], np.float32)))
def capped_row_peaks(scores, floors):
    scores, floors = jnp.asarray(scores), jnp.asarray(floors)
    return jnp.max(scores, axis=-1, initial=floors, where=jnp.isfinite(scores))


@error_case(family="other", fix="pass-dtype-b16d", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/8754",
            line="return lax.convert_element_type(counts, weights) * weights",
            fixed="return lax.convert_element_type(counts, weights.dtype) * weights",
            args=lambda: (np.arange(4, dtype=np.int32), np.full(4, 0.25, np.float32)))
def weighted_counts(counts, weights):
    return lax.convert_element_type(counts, weights) * weights
