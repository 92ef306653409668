"""A nineteenth held-out batch of JAX errors outside jit, written by four blind helper sessions at once
(vmap and grad; loops and branches; pytrees and keys; custom rules, shapes and other) that never opened
the rules under `autograder/` nor any message the course prints, from the brief of the fifteenth to
eighteenth batches (one public source per case, none cited by an earlier batch; each part checked with
`check_error_cases.py --part`), so that its first run measures the rules on mistakes they were not written
from. Uncited tracker threads that still fail on the pinned JAX are running out: more of this batch's
sources than before are teaching pages and JAX's own API pages, which state a pitfall and its fix rather
than show one user's failure (each part says which). Each part's own account follows, as its helper wrote it.

## Part a

Part a of the nineteenth held-out batch (families vmap, grad), written by a blind helper session that never
opened the rules under `autograder/` nor any message the course prints.

How the cases were found: searches of the `issues` and `pages` corpora for each vmap/grad error message and for
library names (haiku, flax, equinox, numpyro, blackjax, optax, diffrax), every candidate address checked against
the `source=` values already in tests/mistakes/ (well over 800, so most JAX threads on these errors were taken);
only threads whose fix shows in the stored excerpt were kept. Four teaching pages and one tutorial notebook
(r2dl) were used once no thread with a visible fix was left. Every case was reduced by hand, checked on JAX 0.10.2.

vmap (7):
- tensorneat#5: a bound method vmapped with `in_axes=(None, 0)` (a None for `self`, already bound); the reporter's
  fix drops the None -> `in_axes=(0,)`.
- dm-haiku#458 (from jax discussion 11297): shared parameters (`out_axes=None`) drawn from a per-example (split)
  key; the fix is not to split the key at init, i.e. the key unmapped, `in_axes=(None, 0)`.
- flax#4153: stacking layers by vmapping a constructor that has no mapped input; the fix splits the key into one
  per layer and gives vmap `axis_size=3` (`nnx.split_rngs(splits=3)` + `nnx.vmap(axis_size=3)` there).
- jax#912: an argument passed to a vmapped function by keyword is mapped (here a scalar, rank 0); the thread's
  working form passes it positionally, here with `in_axes=(0, None)`.
- theneuralbase "in_axes: specifying batch dimensions" (teaching page): a shared scalar left at the default
  `in_axes=0`; the page's rule is None for unbatched inputs.
- jax PR #3176 (the dict-in_axes docstring example from #3161): a dict spec given as the whole `in_axes` of a
  one-argument function instead of a one-entry tuple holding it.
- theneuralbase "out_axes: output batch dimension" (teaching page): `out_axes=1` for a function returning a
  scalar; the page says scalar outputs get their batch axis at 0 with no out_axes.
grad (6):
- jax#366 (fixed by PR #484, which added has_aux): grad of a loss returning (loss, stats) -> `has_aux=True`.
- jax#47: grad of a vector-valued function w.r.t. its third input; the answer: grad is for scalar outputs, use
  jacrev (written with today's `argnums=2`).
- pmrjorge/r2dl (d2l notebook port): grad of an elementwise `x * x`; the notebook's fix sums the output first.
- codingguru "Integer input gradient JAX" (teaching page): integer counts into grad; fix: convert to float.
- jax#4996: a complex-valued model fitted with a squared error that stays complex; the fix makes the loss
  real (`abs(...) ** 2`).
- theneuralbase "Gradient of loss with respect to params" (teaching page): params are the second argument, so
  the default argnums=0 differentiates the integer labels; fix `argnums=1`.

New categories: "axis-size-b19a" (tell vmap the batch size with `axis_size=`, or split the key into one per
member); "out-axes-rank-b19a" (the mapped output axis must exist in the batched output: `out_axes=0` / drop it
for scalar results).

Caveats (fixed inferred, not copied): #366's fix is read from PR #484 that closed it; #4996's maintainer answer
was not in the excerpt, so the real-valued loss is the standard reading of "the loss must be real"; #458 and
#4153 are library-level (haiku/flax) fixes translated to plain jax.vmap; #47's fix uses today's argnums where
the 2018 answer wrapped the function; the four teaching pages state the rule, not a user's failing code, so the
failing line is my own illustration of the rule each page gives. No shortfall: 13 cases, 7 vmap
and 6 grad; no vmap `axis_name`/spmd case, for want of an unused thread with a visible fix.

## Part b

Part b of the nineteenth held-out batch (families loops and branches), written by a blind helper session
that never opened the rules under `autograder/` nor any message the course prints.

Found by searching the stored GitHub issue/PR threads (corpus `issues`) and pages for loop and branch
mistakes, checking every candidate address against the `source=` lines of all files in `tests/mistakes/`,
and reproducing each under JAX 0.10.2 before writing it. Code, names and numbers are my own.

Loops (6):
- jax PR 35095: `lax.reduce` given an init value shaped like the result row; fix: one scalar init value
  (new category `scalar-init-b19b`).
- jax PR 5170: `lax.reduce` of a float32 operand with the int literal `0` as init (reducer `jnp.add`); fix:
  an init of the operand's dtype, `0.0` (`carry-keep-dtype`).
- jax issue 5536: `lax.reduce_window` with a reducer that returns `[lax.min(a, b)]`; skye's answer: the
  reducer must return a single value, not a list (new category `reducer-single-array-b19b`).
- jax PR 23229: `lax.scan(..., unroll=n)` with `n` traced by jit; the PR's message says `unroll` needs a
  concrete int; fix: a Python int (`static-python-value`).
- jax.lax.associative_scan API page (no unused thread found): `jnp.dot` as the combine function, which is
  not applied elementwise over the scanned axis; the page says to wrap it with `jax.vmap`
  (`vectorized-combine`).
- jax issue 3285: `fori_loop` whose body indexes `vals[i]` on an empty array raises IndexError at trace
  time; mattjj calls this working as intended (the body is ill-typed for a zero-length array). The
  `fixed` line (skip the loop with a Python check of the static length) is inferred, not shown in the
  thread (`python-if-static`).

Branches (6):
- jax issue 901: `lax.select(pred, x, 0.0)` expecting NumPy broadcasting; the thread's answer is that
  lax.select does not broadcast and `jnp.select` was added for this (new category `jnp-select-b19b`).
- jax.lax.select_n API page: a float `which`; the page requires bool or integer, fix `.astype(jnp.int32)`
  (`int-index`). The fix is read off the documented requirement.
- lineax PR 188 (closed, fixing lineax issue 187): `trans=1 if flag else 0` with a traced flag under jit;
  the PR's fix is `lax.cond` choosing between the two solves (`cond`).
- data-apis/array-api-extra issue 303: a Python `while jnp.all(v < tol)` loop under jit; the thread's fix
  is `jax.lax.while_loop` (`while_loop`).
- diffusers issue 2155: multistep blend via `lax.select_n` whose cases mix float32 and the half-precision
  stored history; pcuenca's fix is to keep the scheduler state in float32. Written as a float32 cast of the
  offending case on the raising line (`cast`); the thread did the cast at loading time instead.
- openpi PR 1021: the remat `static_argnums` index points at the wrong argument, so the `deterministic`
  flag stays traced and a Python conditional on it fails; fix: the right index. Reduced from flax's
  `nn.remat` to `jax.checkpoint` (`static-arg`).

New categories: `scalar-init-b19b` (say the init value must be a scalar), `reducer-single-array-b19b`
(say the reducer returns the bare array, not a list), `jnp-select-b19b` (name `jnp.select`).
Shortfall: no `lax.map` or `lax.switch` case, and no scan carry dtype/shape case: every thread I found for
those was already cited or no longer raises under JAX 0.10.2 (old `cond` signature, zero-length
`lax.map`, `unroll=0`).

## Part c

Part c of the nineteenth held-out batch (families pytrees and keys), written by a blind helper session that never
opened the rules under `autograder/` nor any message the course prints.

How the cases were found: I first gathered every `source=` address cited by the case files in `tests/mistakes/`
(884 of them) and checked each candidate against that list before using it. I searched the `issues` corpus for
pytree and PRNG mistakes (tree_map mismatches, None leaves, NamedTuple and dataclass registration, flatten/unflatten,
tree_transpose, key paths, typed vs raw keys, key shapes under vmap, shape/dtype arguments of samplers, choice and
categorical arguments). Most user reports on these errors are already cited, so more than half of this part rests on
JAX pull requests where a maintainer states the rule or the repair (often in an error-message PR). I ran every
candidate against the pinned JAX 0.10.2 before writing it. All code, names and numbers are mine; the mistake and the
fix follow the source.

Cases (source: mistake -> fix):
- pytrees, jax-ml/jax PR #19832 (tree_transpose: optionally infer inner_treedef): transposing a list of 3-tuples with
  a hand-written 2-tuple inner treedef (TypeError "Mismatch") -> pass `None` and let JAX infer the inner structure.
  New category `infer-inner-b19c`.
- pytrees, jax-ml/jax PR #14093 (list/tuple tree-prefix errors): an SGD step maps over `[w, b]` and a grads list that
  also holds the input's gradient (ValueError, lists of different length) -> give both trees the same structure
  (`grads[:2]`). Category tree-same-structure.
- pytrees, google/flax PR #1432 (restoring named tuples built a new class, so structures no longer compared equal): an
  optimizer state rebuilt from a checkpoint with a freshly made NamedTuple class of the same name, mapped against the
  live state (ValueError) -> rebuild it with the original class. Category class-once-b12d.
- pytrees, jax-ml/jax PR #23042 (doc: data_fields and meta_fields of register_dataclass): registering a dataclass with
  its static `units` field missing from both lists (ValueError) -> list it in `meta_fields`. Category non-array-leaf.
- pytrees, jax-ml/jax PR #1758 (pytrees notebook and tree_unflatten docstring: the leaves must match the treedef's
  leaves): unflattening with only the 2-D leaves that were transformed (ValueError, too few leaves) -> return every
  leaf, the others unchanged. New category `all-leaves-b19c`.
- pytrees, jax-ml/jax PR #19044 (tree prefix errors in tree_map, special handling for the dict case): a momentum tree
  whose dict says "bias" where the params say "b" (ValueError, different pytree metadata) -> use the same keys.
  New category `match-dict-keys-b19c`.
- pytrees, jax-ml/jax PR #39115 (fixes #25659): code that assumes every key path entry has `.key`, which only DictKey
  and FlattenedIndexKey have, meets a GetAttrKey of a registered dataclass (AttributeError) -> use each entry's
  `str()` form, as mattjj's fix does. New category `key-str-b19c`.
- pytrees, jax-ml/jax PR #39239 (fixes #13074): a tree of per-parameter rates with None for frozen entries mapped
  against the grads, None being read as an empty container (ValueError) -> `is_leaf=lambda x: x is None`, the
  repair the PR applies. Category none-leaf.
- keys, jax-ml/jax PR #1515 (mattjj: when `shape` is given and the parameters are not scalars they must be
  consistent): `bernoulli(key, p_of_shape_(3,), shape=(n,))` (ValueError) -> `shape=(n,) + p.shape`.
  Category sample-shape-match.
- keys, jax-ml/jax PR #13127 (fixes #13124: categorical's shape = sample prefix + the logits' batch shape):
  `categorical(key, logits (4, 10), shape=(3,))` (ValueError) -> `shape=(3, 4)`. New category `shape-ends-batch-b19c`.
- keys, jax-ml/jax PR #8202 (Cleanup random.permutation, better error messages): permuting `total / batches`, a Python
  float (TypeError: x must be an integer or at least 1-dimensional) -> pass `int(...)`. Category static-python-value.
- keys, jax-ml/jax issue #28457 (binomial returns floats and rejects `dtype=int`): asking binomial for int32 counts
  (ValueError) -> sample floats and `.astype(jnp.int32)`. Category random-dtype.
- keys, jax-ml/jax issue #8158 (random.choice on multidimensional arrays; the `axis` argument it asked for): weighted
  choice of columns of a (3, 5) table with five weights and the default axis 0 (ValueError: p must match
  a.shape[axis]) -> `axis=1`. New category `choice-axis-b19c`.
- keys, jax-ml/jax PR #179 (closes #177, vmap over PRNG keys): vmapping a noisy map with a single key as the mapped
  argument (ValueError, rank 0 mapped on axis 0) -> map over `jax.random.split(key, n)`. Category keys-array.

New categories (patterns written from the fixes alone): `infer-inner-b19c` (pass None as inner treedef / let
tree_transpose infer it), `all-leaves-b19c` (give unflatten all the leaves back), `match-dict-keys-b19c` (use the same
dict keys / rename the key), `key-str-b19c` (use str(entry) or keystr, not `.key`), `shape-ends-batch-b19c`
(categorical's shape ends with the logits' batch shape), `choice-axis-b19c` (pass `axis=` to choice).

Caveats: only jax #28457 and #8158 are user reports; the rest are maintainers' pull requests, and for several of them
the stored copy showed only the title and description (#19044, #23042, #179, #1758's docstring), so the failing code
there is mine, built from the rule the PR states. #14093, #39115 and #39239 change JAX's own error reporting; the
user-side mistake is my reduction of the situation they describe, and `fixed` applies their stated repair to user
code. In #28457 the issue is still open; `.astype` on the float sample is my reading of the reporter's need (integer
counts), not a maintainer's answer. In #8158 the fix is the `axis` argument the issue requested and JAX later added.
flax #1432 is about flax's own serialization; the case reproduces its cause (a second NamedTuple class with the same
name) with plain JAX. Two cases share tree-same-structure-like fixes in spirit (list lengths vs dict keys) but have
different errors and categories. Shortfall: none against the counts asked (pytrees 8, keys 6, 14 in all).

## Part d

Part d of the nineteenth held-out batch (families custom-rules, shapes, other), written by a blind helper
session that never opened the rules under `autograder/` nor any message the course prints.

How the cases were found: every `source=` in tests/mistakes/ was collected into a list first (884 entries) and each
candidate address was checked against it (jax-ml and google/jax spellings both) before it was read. I searched the
`issues` corpus for custom_jvp/custom_vjp structure and dtype errors, symbolic zeros, nondiff_argnums, conv/einsum/
tensordot/dynamic-slice shape errors, device_put, debug.print and lax argument conventions, and the `pages`/`docs`
corpora for the same. As the eighteenth batch found, the custom-rule threads on the tracker are nearly all cited
already (5571, 28757, 8356, 13099, 2502, 7972, 4617, 6683, 12982, 3808, 4008, 6127, 16049, 3996, numpyro 1195, t5x
351 ...) and the uncited ones I ran (1875, 18113, 7780, 21220, 16000, 14833) no longer fail on 0.10.2 or are JAX bugs
with no user fix, so the two custom-rule cases come from a Q&A-style page and JAX's own API page. Every function is my
own code (own names and numbers); each was run eagerly on the pinned JAX to confirm the error and the repair.

Cases, one line each (source: mistake -> fix):
- custom-rules, errorhandle.ai "JAX custom_vjp for functions with multiple outputs": the bwd rule of a two-input,
  two-output custom_vjp returns a 1-tuple (only d/dx) -> return one cotangent per primal input, `(dx, dy)` (the
  page: "return a tuple of gradients matching the number of inputs"). The whole defvjp+grad sits on one line so the
  raising line is the one the fix edits.
- custom-rules, API page jax.custom_vjp.defvjp: `symbolic_zeros=True` passed to defvjp while fwd still uses its
  arguments as arrays (the page: fwd then receives `CustomVJPPrimal` objects with `value` and `perturbed`) -> read
  `x.value`.
- shapes, google/flax issue 2000: conv padding given as `(3, 3)` instead of one pair per spatial dimension (here at
  the lax.conv_general_dilated level the flax Conv forwards to) -> `((1, 1), (1, 1))`, as the reporter states.
- shapes, jax-ml/jax PR 2658: tensordot `axes` built from `np.arange` arrays (the PR's "if some dummy passes aranges")
  -> pass tuples/lists of ints (the error text the PR adds: "either ints, tuples or lists").
- shapes, API page jax.lax.dynamic_update_slice: a 1-D row written into a 2-D buffer (update rank differs from
  operand rank; the page's 2-D example updates with a 2-D block) -> `row[None]`.
- shapes, crackedaicode "Dynamic Update Slice" pitfalls ("Float start index. Cast to jnp.int32"): start index computed
  with `jnp.floor` stays float -> `.astype(jnp.int32)`.
- other, jax-ml/jax issue 10391: `jax.local_devices('cpu')` (the string lands in `process_index`; mattjj: "the second
  argument is meant to be the backend") -> `backend='cpu'`.
- other, jax-ml/jax issue 365: a Python list passed to a jax.numpy ufunc (hawkinsp: list arguments are banned; mattjj:
  the user calls an explicit asarray) -> `jnp.asarray(angles)`.
- other, jax-ml/jax PR 18652 (debug.print docstring): an f-string given to `jax.debug.print` together with the value as
  a keyword -> a plain template string, `jax.debug.print("residual {res}", res=res)`, as the docstring says.
- other, jax-ml/jax PR 11725 (format the string eagerly so misformatted templates fail early): a `{loss}` field with no
  matching keyword argument -> pass `loss=loss`. The fix is inferred from what the PR checks, not shown in it.
- other, jax-ml/jax PR 15595: `jax.device_put(x, 0)` with a device index (mattjj's example `jax.device_put(1, 1)`)
  -> a Device object, `jax.devices()[0]`.
- other, API page jax.lax.pad (two cases, different errors and fixes): numpy-style `(before, after)` pairs as the
  padding_config -> `(low, high, interior)` triples; and a Python `0` as padding value for a float32 operand (the
  page: the padding value "must have the same dtype as operand") -> `jnp.array(0, sig.dtype)`.

New categories (regexes written from the fixes alone): `bwd-per-input-b19d` (one cotangent per primal input / a tuple
as long as the argument list), `primal-value-attr-b19d` (`.value` of the CustomVJPPrimal, or drop symbolic_zeros),
`conv-pad-pairs-b19d` (a (low, high) pair per spatial dimension), `axes-tuples-b19d` (tensordot axes as tuples/lists
of ints), `backend-keyword-b19d` (`backend=` keyword), `plain-template-b19d` (no f-string: a plain template with the
value as argument), `fmt-field-kwarg-b19d` (a keyword argument for every template field), `device-object-b19d` (a
Device from `jax.devices()`, not an index), `pad-triples-b19d` ((low, high, interior) triples), `pad-value-dtype-b19d`
(a padding value of the operand's dtype). Existing ones used: list-to-array, add-batch-dim, cast.

Caveats and shortfalls: 13 cases from 12 sources (the lax.pad page gives two). Five sources are pages rather than
one user's report with a maintainer's answer (the defvjp, dynamic_update_slice and lax.pad API pages, errorhandle.ai
and crackedaicode), because uncited tracker threads that still fail on 0.10.2 ran short; the lax.pad pair, the
dynamic_update_slice rank case and PR 11725's missing keyword have their `fixed` inferred from the stated rule rather
than copied from a shown repair. Only two custom-rule cases: I found no further uncited source whose custom_jvp/vjp
mistake still fails on the pinned JAX, so the count is made up in `other` (7).
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


@error_case(family="vmap", fix="vmap-in-axes-entries", raises="ValueError",
            source="https://github.com/EMI-Group/tensorneat/issues/5",
            line="attrs = jax.vmap(gene.new_random_attrs, in_axes=(None, 0))(keys)",
            fixed="attrs = jax.vmap(gene.new_random_attrs, in_axes=(0,))(keys)",
            args=lambda: (3, 0.5))
def quill_node_attrs(seed, scale):
    # a bound method already carries `self`; the None meant for it is one entry too many
    class NodeGene:
        def __init__(self, s):
            self.s = s

        def new_random_attrs(self, key):
            return self.s * jax.random.normal(key, (3,))

    gene = NodeGene(scale)
    keys = jax.random.split(jax.random.PRNGKey(seed), 4)
    attrs = jax.vmap(gene.new_random_attrs, in_axes=(None, 0))(keys)
    return attrs


@error_case(family="vmap", fix="vmap-in-axes-none", raises="ValueError",
            source="https://github.com/google-deepmind/dm-haiku/issues/458",
            line="w, ys = jax.vmap(init_and_apply, in_axes=(0, 0), out_axes=(None, 0))(keys, xs)",
            fixed="w, ys = jax.vmap(init_and_apply, in_axes=(None, 0), out_axes=(None, 0))(key, xs)",
            args=lambda: (np.linspace(-1.0, 1.0, 15, dtype=np.float32).reshape(5, 3),))
def quill_shared_init(xs):
    # weights meant to be shared across the batch (out_axes None) but drawn from a per-example key
    def init_and_apply(k, x):
        w = jax.random.normal(k, (x.shape[0],))
        return w, jnp.dot(w, x)

    key = jax.random.PRNGKey(7)
    keys = jax.random.split(key, xs.shape[0])
    w, ys = jax.vmap(init_and_apply, in_axes=(0, 0), out_axes=(None, 0))(keys, xs)
    return w, ys


@error_case(family="vmap", fix="axis-size-b19a", raises="ValueError",
            source="https://github.com/google/flax/issues/4153",
            line="layers = jax.vmap(make_layer, in_axes=None)(key)",
            fixed="layers = jax.vmap(make_layer, axis_size=3)(jax.random.split(key, 3))",
            args=lambda: (4,))
def quill_stack_layers(width):
    # three stacked hidden layers built by vmapping a constructor; nothing tells vmap how many
    def make_layer(k):
        return 0.1 * jax.random.normal(k, (width, width))

    key = jax.random.PRNGKey(11)
    layers = jax.vmap(make_layer, in_axes=None)(key)
    return layers


@error_case(family="vmap", fix="vmap-kwargs-positional", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/912",
            line="return jax.vmap(shift_scale)(rows, scale=gain)",
            fixed="return jax.vmap(shift_scale, in_axes=(0, None))(rows, gain)",
            args=lambda: (np.arange(12.0, dtype=np.float32).reshape(4, 3), 2.5))
def quill_keyword_gain(rows, gain):
    # keyword arguments are always mapped along axis 0; a scalar passed by keyword has no such axis
    def shift_scale(row, scale):
        return (row - row.mean()) * scale

    return jax.vmap(shift_scale)(rows, scale=gain)


@error_case(family="vmap", fix="vmap-in-axes-none", raises="ValueError",
            source="https://theneuralbase.com/jax/learn/beginner/in-axes-specifying-batch-dimensions/",
            line="return jax.vmap(add_offset)(vectors, offset)",
            fixed="return jax.vmap(add_offset, in_axes=(0, None))(vectors, offset)",
            args=lambda: (np.arange(12.0, dtype=np.float32).reshape(4, 3), 100.0))
def quill_shared_offset(vectors, offset):
    # one offset shared by every vector of the batch, left at the default in_axes=0
    def add_offset(vec, off):
        return vec + off

    return jax.vmap(add_offset)(vectors, offset)


@error_case(family="vmap", fix="in-axes-tuple", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/3176",
            line="return jax.vmap(predict, in_axes={\"x\": 0, \"w\": None})(batch)",
            fixed="return jax.vmap(predict, in_axes=({\"x\": 0, \"w\": None},))(batch)",
            args=lambda: ({"x": np.arange(8.0, dtype=np.float32).reshape(4, 2),
                           "w": np.array([0.5, -1.0], np.float32)},))
def quill_dict_batch(batch):
    # one dict argument: inputs batched, weights shared; the spec is written for the dict, not the args
    def predict(b):
        return jnp.tanh(b["x"] @ b["w"])

    return jax.vmap(predict, in_axes={"x": 0, "w": None})(batch)


@error_case(family="vmap", fix="out-axes-rank-b19a", raises="ValueError",
            source="https://theneuralbase.com/jax/learn/beginner/out-axes-output-batch-dimension/",
            line="return jax.vmap(row_energy, out_axes=1)(rows)",
            fixed="return jax.vmap(row_energy, out_axes=0)(rows)",
            args=lambda: (np.arange(10.0, dtype=np.float32).reshape(5, 2),))
def quill_scalar_out_axis(rows):
    # each row reduces to a scalar, so the batched result is 1-D and has no axis 1
    def row_energy(r):
        return jnp.sum(r ** 2)

    return jax.vmap(row_energy, out_axes=1)(rows)


# ----------------------------------------------------------------------------------------------- grad


@error_case(family="grad", fix="grad-has-aux", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/366",
            line="g = jax.grad(loss)(w)",
            fixed="g, stats = jax.grad(loss, has_aux=True)(w)",
            args=lambda: (np.array([0.5, -0.25], np.float32),
                          np.array([[1.0, 2.0], [0.0, 1.0], [3.0, -1.0]], np.float32),
                          np.array([1.0, 0.5, 2.0], np.float32)))
def quill_loss_with_stats(w, x, y):
    # the loss also hands back side information next to the scalar
    def loss(w):
        err = x @ w - y
        return jnp.mean(err ** 2), {"worst": jnp.max(jnp.abs(err))}

    g = jax.grad(loss)(w)
    return g


@error_case(family="grad", fix="jacobian-b11a", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/47",
            line="return jax.grad(response, argnums=2)(a, b, c)",
            fixed="return jax.jacrev(response, argnums=2)(a, b, c)",
            args=lambda: (np.array([1.0, 2.0, 3.0], np.float32), np.array([0.1, 0.2, 0.3], np.float32),
                          np.array([0.5, -0.5, 1.5], np.float32)))
def quill_third_input_sensitivity(a, b, c):
    # derivative of a vector-valued model with respect to its third input
    def response(a, b, c):
        return a * jnp.sin(b) + c ** 2

    return jax.grad(response, argnums=2)(a, b, c)


@error_case(family="grad", fix="grad-scalar", raises="TypeError",
            source="https://github.com/pmrjorge/r2dl",
            line="return jax.grad(square)(x)",
            fixed="return jax.grad(lambda v: square(v).sum())(x)",
            args=lambda: (np.arange(4.0, dtype=np.float32),))
def quill_elementwise_square_grad(x):
    # backward through a non-scalar result, as one would call `y.backward()` elsewhere
    def square(v):
        return v * v

    return jax.grad(square)(x)


@error_case(family="grad", fix="grad-float", raises="TypeError",
            source="https://codingguru.site/page/integer-input-gradient-jax",
            line="return jax.grad(energy)(counts)",
            fixed="return jax.grad(energy)(counts.astype(jnp.float32))",
            args=lambda: (np.array([3, 1, 4, 1], np.int32),))
def quill_count_energy(counts):
    # integer counts fed straight into reverse-mode differentiation
    def energy(n):
        return jnp.sum(0.5 * n ** 2 - n)

    counts = jnp.asarray(counts)
    return jax.grad(energy)(counts)


@error_case(family="grad", fix="grad-real-output", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/4996",
            line="return jax.grad(lambda p: jnp.mean(resid(p) ** 2))(theta)",
            fixed="return jax.grad(lambda p: jnp.mean(jnp.abs(resid(p)) ** 2))(theta)",
            args=lambda: (np.array([0.3, -0.2], np.float32), np.array([0.5, 1.0, 1.5], np.float32),
                          np.array([1.0 + 0.5j, 0.2 - 1.0j, -0.3 + 0.1j], np.complex64)))
def quill_complex_fit(theta, z, target):
    # a complex-valued model fitted with a plain squared error, which stays complex
    def resid(p):
        return p[0] * z + 1j * p[1] * z ** 2 - target

    return jax.grad(lambda p: jnp.mean(resid(p) ** 2))(theta)


@error_case(family="grad", fix="grad-argnums", raises="TypeError",
            source="https://theneuralbase.com/jax/learn/beginner/gradient-of-loss-with-respect-to-params/",
            line="return jax.grad(loss_fn)(labels, params)",
            fixed="return jax.grad(loss_fn, argnums=1)(labels, params)",
            args=lambda: (np.array([0, 2, 1], np.int32), np.array([[0.1, 0.2, 0.3], [0.0, -0.1, 0.4],
                                                                   [0.2, 0.2, -0.3]], np.float32)))
def quill_params_second(labels, params):
    # labels come first in the signature, so the default argnums=0 differentiates the integer labels
    def loss_fn(y, p):
        logp = jax.nn.log_softmax(p, axis=-1)
        return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=-1))

    labels = jnp.asarray(labels)
    return jax.grad(loss_fn)(labels, params)


# ---- part b


@error_case(family="loops", fix="scalar-init-b19b", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/35095",
            line="return lax.reduce(table, jnp.zeros(table.shape[1:], table.dtype), lax.add, [0])",
            fixed="return lax.reduce(table, jnp.zeros((), table.dtype), lax.add, [0])",
            args=lambda: (np.arange(15.0, dtype=np.float32).reshape(5, 3),))
def brindle_column_totals(table):
    # sum the rows of a table down to one row; the start value was shaped like the row
    return lax.reduce(table, jnp.zeros(table.shape[1:], table.dtype), lax.add, [0])


@error_case(family="loops", fix="carry-keep-dtype", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/5170",
            line="return lax.reduce(charges, 0, jnp.add, (0,))",
            fixed="return lax.reduce(charges, 0.0, jnp.add, (0,))",
            args=lambda: (np.array([0.5, 1.25, -0.75, 2.0], np.float32),))
def brindle_total_charge(charges):
    # float32 operand, integer start value
    return lax.reduce(charges, 0, jnp.add, (0,))


@error_case(family="loops", fix="reducer-single-array-b19b", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/5536",
            line='return lax.reduce_window(img, jnp.inf, lambda a, b: [lax.min(a, b)], (1, 3, 3, 1), (1, 2, 2, 1), "SAME")',
            fixed='return lax.reduce_window(img, jnp.inf, lax.min, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")',
            args=lambda: (np.linspace(-1.0, 1.0, 2 * 6 * 6 * 3, dtype=np.float32).reshape(2, 6, 6, 3),))
def brindle_min_pool(img):
    # a 3x3 min-pool with stride 2 over an NHWC batch
    return lax.reduce_window(img, jnp.inf, lambda a, b: [lax.min(a, b)], (1, 3, 3, 1), (1, 2, 2, 1), "SAME")


@error_case(family="loops", fix="static-python-value", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/pull/23229",
            line="return lax.scan(step, v, None, length=8, unroll=n)",
            fixed="return lax.scan(step, v, None, length=8, unroll=4)",
            args=lambda: (1.0, 4))
def brindle_unrolled_decay(start, n_unroll):
    def step(c, _):
        return c * 0.9, c

    @jax.jit
    def run(v, n):
        # the unroll factor arrives as a traced argument of the jitted function
        return lax.scan(step, v, None, length=8, unroll=n)
    return run(start, n_unroll)


@error_case(family="loops", fix="vectorized-combine", raises="TypeError",
            source="https://jax.readthedocs.io/en/latest/_autosummary/jax.lax.associative_scan.html",
            line="return lax.associative_scan(jnp.dot, mats)",
            fixed="return lax.associative_scan(jax.vmap(jnp.dot), mats)",
            args=lambda: (np.stack([np.array([[1.0, 0.1 * k], [0.0, 1.0]], np.float32) for k in range(5)]),))
def brindle_chain_transfer(mats):
    # running products of 2x2 transfer matrices, stacked on the leading axis
    return lax.associative_scan(jnp.dot, mats)


@error_case(family="branches", fix="jnp-select-b19b", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/901",
            line="return lax.select(signal > 0.0, signal, 0.0)",
            fixed="return jnp.select([signal > 0.0], [signal], 0.0)",
            args=lambda: (np.array([-1.5, 0.25, 2.0, -0.5], np.float32),))
def brindle_keep_positive(signal):
    # zero out the negative entries, expecting NumPy-style broadcasting of the scalar
    return lax.select(signal > 0.0, signal, 0.0)


@error_case(family="branches", fix="int-index", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.lax.select_n.html",
            line="return lax.select_n(regime, low, mid, high)",
            fixed="return lax.select_n(regime.astype(jnp.int32), low, mid, high)",
            args=lambda: (np.array([0.0, 2.0, 1.0, 2.0], np.float32),
                          np.zeros(4, np.float32), np.ones(4, np.float32), np.full(4, 5.0, np.float32)))
def brindle_pick_regime(codes, low, mid, high):
    # per-entry regime codes computed in floating point
    regime = jnp.asarray(codes)
    return lax.select_n(regime, low, mid, high)


@error_case(family="branches", fix="cond", raises="TracerBoolConversionError",
            source="https://github.com/patrick-kidger/lineax/pull/188",
            line="return jax.scipy.linalg.lu_solve(lu_piv, b, trans=1 if flag else 0)",
            fixed="return lax.cond(flag, lambda v: jax.scipy.linalg.lu_solve(lu_piv, v, trans=1), "
                  "lambda v: jax.scipy.linalg.lu_solve(lu_piv, v, trans=0), b)",
            args=lambda: (np.array([[4.0, 1.0], [2.0, 3.0]], np.float32), np.array([1.0, -1.0], np.float32), True))
def brindle_lu_apply(mat, rhs, transposed):
    lu_piv = jax.scipy.linalg.lu_factor(mat)

    @jax.jit
    def solve(b, flag):
        # the transpose flag is traced once it goes through jit
        return jax.scipy.linalg.lu_solve(lu_piv, b, trans=1 if flag else 0)
    return solve(rhs, transposed)


@error_case(family="branches", fix="while_loop", raises="TracerBoolConversionError",
            source="https://github.com/data-apis/array-api-extra/issues/303",
            line="while jnp.all(v < tol): v = v * 1.5 + 0.01",
            fixed="v = lax.while_loop(lambda w: jnp.all(w < tol), lambda w: w * 1.5 + 0.01, v)",
            args=lambda: (np.array([0.2, 0.4], np.float32), 3.0))
def brindle_refine_until(start, tol):
    @jax.jit
    def run(v):
        # keep improving until every entry has passed the tolerance
        while jnp.all(v < tol): v = v * 1.5 + 0.01
        return v
    return run(start)


@error_case(family="branches", fix="cast", raises="TypeError",
            source="https://github.com/huggingface/diffusers/issues/2155",
            line="return lax.select_n(step, fresh, (fresh + hist[0]) / 2, (3 * hist[0] - hist[1]) / 2)",
            fixed="return lax.select_n(step, fresh, (fresh + hist[0]) / 2, "
                  "((3 * hist[0] - hist[1]) / 2).astype(jnp.float32))",
            args=lambda: (5, np.array([0.5, -0.25, 1.0], np.float32),
                          np.array([[0.4, -0.2, 0.9], [0.3, -0.1, 0.8]], np.float16)))
def brindle_multistep_blend(counter, fresh, history):
    # multistep update: the stored history was kept at half precision, the fresh output is float32
    hist = jnp.asarray(history)
    step = jnp.clip(counter, 0, 2)
    return lax.select_n(step, fresh, (fresh + hist[0]) / 2, (3 * hist[0] - hist[1]) / 2)


@error_case(family="loops", fix="python-if-static", raises="IndexError",
            source="https://github.com/jax-ml/jax/issues/3285",
            line="return lax.fori_loop(0, len(vals), lambda i, acc: acc + vals[i], start)",
            fixed="return start if len(vals) == 0 else lax.fori_loop(0, len(vals), lambda i, acc: acc + vals[i], start)",
            args=lambda: (np.zeros((0,), np.float32),))
def brindle_running_total(values):
    # sums a batch that can be empty; the loop body indexes into it
    vals = jnp.asarray(values)
    start = jnp.zeros((), vals.dtype)
    return lax.fori_loop(0, len(vals), lambda i, acc: acc + vals[i], start)


@error_case(family="branches", fix="static-arg", raises="TracerBoolConversionError",
            source="https://github.com/Physical-Intelligence/openpi/pull/1021",
            line="return jax.checkpoint(lambda h, s, det: h * s if det else h * s * 0.5, "
                 "static_argnums=(1,))(x, scale, deterministic)",
            fixed="return jax.checkpoint(lambda h, s, det: h * s if det else h * s * 0.5, "
                  "static_argnums=(2,))(x, scale, deterministic)",
            args=lambda: (np.array([1.0, -2.0, 0.5], np.float32), 2.0, True))
def brindle_remat_block(x, scale, deterministic):
    # a rematerialised block whose dropout-like branch depends on a Python flag
    return jax.checkpoint(lambda h, s, det: h * s if det else h * s * 0.5, static_argnums=(1,))(x, scale, deterministic)


# ---- part c


# ----------------------------------------------------------------------------------------------------------- pytrees

@error_case(family="pytrees", fix="infer-inner-b19c", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/19832",
            line="by_stat = jax.tree.transpose(jax.tree.structure([0] * len(per_row)), jax.tree.structure((0, 0)), per_row)",
            fixed="by_stat = jax.tree.transpose(jax.tree.structure([0] * len(per_row)), None, per_row)",
            args=lambda: (np.arange(6.0, dtype=np.float32).reshape(3, 2),))
def quill_transpose_row_stats(table):
    rows = jnp.asarray(table)
    per_row = [(r.mean(), r.min(), r.max()) for r in rows]   # a list of 3-tuples
    by_stat = jax.tree.transpose(jax.tree.structure([0] * len(per_row)), jax.tree.structure((0, 0)), per_row)
    return by_stat


@error_case(family="pytrees", fix="tree-same-structure", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/14093",
            line="new_params = jax.tree.map(lambda p, g: p - 0.1 * g, [w, b], grads)",
            fixed="new_params = jax.tree.map(lambda p, g: p - 0.1 * g, [w, b], grads[:2])",
            args=lambda: (np.ones((2, 3), np.float32), np.zeros(3, np.float32), np.ones((4, 2), np.float32)))
def quill_sgd_list_step(w, b, x):
    def loss(w_, b_, x_):
        return jnp.sum((x_ @ w_ + b_) ** 2)
    grads = list(jax.grad(loss, argnums=(0, 1, 2))(jnp.asarray(w), jnp.asarray(b), jnp.asarray(x)))
    new_params = jax.tree.map(lambda p, g: p - 0.1 * g, [w, b], grads)
    return new_params


@error_case(family="pytrees", fix="class-once-b12d", raises="ValueError",
            source="https://github.com/google/flax/pull/1432",
            line="merged = jax.tree.map(lambda a, c: 0.5 * (a + c), state, Rebuilt(**saved))",
            fixed="merged = jax.tree.map(lambda a, c: 0.5 * (a + c), state, AdamLikeState(**saved))",
            args=lambda: (np.ones(3, np.float32), np.full(3, 2.0, np.float32)))
def quill_restore_namedtuple_state(mu, nu):
    class AdamLikeState(NamedTuple):
        mu: object
        nu: object
    state = AdamLikeState(jnp.asarray(mu), jnp.asarray(nu))
    saved = {"mu": np.asarray(mu) * 2, "nu": np.asarray(nu) * 2}           # e.g. read back from a checkpoint
    Rebuilt = NamedTuple("AdamLikeState", [(name, object) for name in saved])  # a new class with the same name
    merged = jax.tree.map(lambda a, c: 0.5 * (a + c), state, Rebuilt(**saved))
    return merged


@error_case(family="pytrees", fix="non-array-leaf", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/23042",
            line='jax.tree_util.register_dataclass(DenseLayer, data_fields=["weight"], meta_fields=[])',
            fixed='jax.tree_util.register_dataclass(DenseLayer, data_fields=["weight"], meta_fields=["units"])',
            args=lambda: (np.ones((2, 4), np.float32), 4))
def quill_register_dense_layer(w, n_units):
    @dataclasses.dataclass
    class DenseLayer:
        weight: object
        units: int
    jax.tree_util.register_dataclass(DenseLayer, data_fields=["weight"], meta_fields=[])
    layer = DenseLayer(jnp.asarray(w), n_units)
    doubled = jax.tree.map(lambda a: a * 2, layer)
    return doubled.weight


@error_case(family="pytrees", fix="all-leaves-b19c", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/1758",
            line="halved = jax.tree.unflatten(treedef, [leaf * 0.5 for leaf in leaves if leaf.ndim == 2])",
            fixed="halved = jax.tree.unflatten(treedef, [leaf * 0.5 if leaf.ndim == 2 else leaf for leaf in leaves])",
            args=lambda: (np.ones((3, 2), np.float32), np.ones(2, np.float32)))
def quill_halve_matrices_only(w, b):
    params = {"w": jnp.asarray(w), "b": jnp.asarray(b)}
    leaves, treedef = jax.tree.flatten(params)
    halved = jax.tree.unflatten(treedef, [leaf * 0.5 for leaf in leaves if leaf.ndim == 2])
    return halved


@error_case(family="pytrees", fix="match-dict-keys-b19c", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/19044",
            line='stepped = jax.tree.map(lambda p, v: p - 0.1 * v, params, {"w": jnp.zeros_like(params["w"]), "bias": jnp.zeros_like(params["b"])})',
            fixed='stepped = jax.tree.map(lambda p, v: p - 0.1 * v, params, {"w": jnp.zeros_like(params["w"]), "b": jnp.zeros_like(params["b"])})',
            args=lambda: (np.ones((3, 2), np.float32), np.ones(2, np.float32)))
def quill_momentum_dict_keys(w, b):
    params = {"w": jnp.asarray(w), "b": jnp.asarray(b)}
    stepped = jax.tree.map(lambda p, v: p - 0.1 * v, params, {"w": jnp.zeros_like(params["w"]), "bias": jnp.zeros_like(params["b"])})
    return stepped


@error_case(family="pytrees", fix="key-str-b19c", raises="AttributeError",
            source="https://github.com/jax-ml/jax/pull/39115",
            line='names = ["/".join(str(entry.key) for entry in path) for path in paths]',
            fixed='names = ["/".join(str(entry) for entry in path) for path in paths]',
            args=lambda: (np.ones((3, 2), np.float32), np.zeros(2, np.float32)))
def quill_decay_by_path_name(w, b):
    @jax.tree_util.register_dataclass
    @dataclasses.dataclass
    class Affine:
        w: object
        b: object
    params = {"head": Affine(jnp.asarray(w), jnp.asarray(b))}
    paths = [path for path, _ in jax.tree_util.tree_flatten_with_path(params)[0]]
    names = ["/".join(str(entry.key) for entry in path) for path in paths]
    decay = [0.0 if name.endswith("b") else 1e-4 for name in names]
    return jnp.asarray(decay)


@error_case(family="pytrees", fix="none-leaf", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/39239",
            line="updates = jax.tree.map(lambda lr, g: jnp.zeros_like(g) if lr is None else -lr * g, rates, grads)",
            fixed="updates = jax.tree.map(lambda lr, g: jnp.zeros_like(g) if lr is None else -lr * g, rates, grads, is_leaf=lambda x: x is None)",
            args=lambda: (np.ones((3, 2), np.float32), np.ones(2, np.float32)))
def quill_frozen_rates_none(gw, gb):
    grads = {"w": jnp.asarray(gw), "b": jnp.asarray(gb)}
    rates = {"w": 0.1, "b": None}                      # None: keep the bias frozen
    updates = jax.tree.map(lambda lr, g: jnp.zeros_like(g) if lr is None else -lr * g, rates, grads)
    return updates


# -------------------------------------------------------------------------------------------------------------- keys

@error_case(family="keys", fix="sample-shape-match", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/1515",
            line="keep = jax.random.bernoulli(key, jnp.asarray(probs), shape=(n_draws,))",
            fixed="keep = jax.random.bernoulli(key, jnp.asarray(probs), shape=(n_draws,) + jnp.shape(probs))",
            args=lambda: (np.array([0.2, 0.5, 0.9], np.float32), 4))
def quill_bernoulli_masks(probs, n_draws):
    key = jax.random.key(3)
    keep = jax.random.bernoulli(key, jnp.asarray(probs), shape=(n_draws,))
    return keep


@error_case(family="keys", fix="shape-ends-batch-b19c", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/13127",
            line="tokens = jax.random.categorical(key, jnp.asarray(logits), shape=(n_samples,))",
            fixed="tokens = jax.random.categorical(key, jnp.asarray(logits), shape=(n_samples, logits.shape[0]))",
            args=lambda: (np.zeros((4, 10), np.float32), 3))
def quill_sample_tokens(logits, n_samples):
    key = jax.random.key(7)
    tokens = jax.random.categorical(key, jnp.asarray(logits), shape=(n_samples,))
    return tokens


@error_case(family="keys", fix="static-python-value", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/8202",
            line="order = jax.random.permutation(key, per_batch)",
            fixed="order = jax.random.permutation(key, int(per_batch))",
            args=lambda: (12, 3))
def quill_permute_batch_slots(total, batches):
    key = jax.random.key(0)
    per_batch = total / batches
    order = jax.random.permutation(key, per_batch)
    return order


@error_case(family="keys", fix="random-dtype", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/28457",
            line="counts = jax.random.binomial(key, n_trials, p, shape=(5,), dtype=jnp.int32)",
            fixed="counts = jax.random.binomial(key, n_trials, p, shape=(5,)).astype(jnp.int32)",
            args=lambda: (10, 0.3))
def quill_binomial_counts(n_trials, p):
    key = jax.random.key(1)
    counts = jax.random.binomial(key, n_trials, p, shape=(5,), dtype=jnp.int32)
    return counts


@error_case(family="keys", fix="choice-axis-b19c", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/8158",
            line="cols = jax.random.choice(key, jnp.asarray(table), shape=(2,), p=jnp.asarray(col_weights))",
            fixed="cols = jax.random.choice(key, jnp.asarray(table), shape=(2,), p=jnp.asarray(col_weights), axis=1)",
            args=lambda: (np.arange(15.0, dtype=np.float32).reshape(3, 5), np.full(5, 0.2, np.float32)))
def quill_pick_weighted_columns(table, col_weights):
    key = jax.random.key(5)
    cols = jax.random.choice(key, jnp.asarray(table), shape=(2,), p=jnp.asarray(col_weights))
    return cols


@error_case(family="keys", fix="keys-array", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/179",
            line="noisy = jax.vmap(lambda k, x: x + jax.random.normal(k, x.shape))(key, jnp.asarray(xs))",
            fixed="noisy = jax.vmap(lambda k, x: x + jax.random.normal(k, x.shape))(jax.random.split(key, len(xs)), jnp.asarray(xs))",
            args=lambda: (np.ones((4, 3), np.float32),))
def quill_noisy_rows_one_key(xs):
    key = jax.random.key(2)
    noisy = jax.vmap(lambda k, x: x + jax.random.normal(k, x.shape))(key, jnp.asarray(xs))
    return noisy


# ---- part d


# ---------------------------------------------------------------- custom-rules

@error_case(family="custom-rules", fix="bwd-per-input-b19d", raises="TypeError",
            source="https://errorhandle.ai/jax-custom-vjp-for-functions-with-multiple-outputypescript",
            line="return ratio_pair.defvjp(pair_fwd, lambda res, g: (g[0] * res[1] + g[1] / res[1],)) or jax.grad(lambda a, b: sum(ratio_pair(a, b)), argnums=(0, 1))(num, den)",
            fixed="return ratio_pair.defvjp(pair_fwd, lambda res, g: (g[0] * res[1] + g[1] / res[1], g[0] * res[0] - g[1] * res[0] / res[1] ** 2)) or jax.grad(lambda a, b: sum(ratio_pair(a, b)), argnums=(0, 1))(num, den)",
            args=lambda: (3.0, 1.5))
def quar_ratio_pair_grads(num, den):
    # product and quotient of two scalars, with a hand-written backward pass
    @jax.custom_vjp
    def ratio_pair(a, b):
        return a * b, a / b

    def pair_fwd(a, b):
        return ratio_pair(a, b), (a, b)
    return ratio_pair.defvjp(pair_fwd, lambda res, g: (g[0] * res[1] + g[1] / res[1],)) or jax.grad(lambda a, b: sum(ratio_pair(a, b)), argnums=(0, 1))(num, den)


@error_case(family="custom-rules", fix="primal-value-attr-b19d", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.custom_vjp.defvjp.html",
            line="return damped(x, gain), (jnp.cos(x), gain)",
            fixed="return damped(x.value, gain.value), (jnp.cos(x.value), gain.value)",
            args=lambda: (0.7, 2.5))
def quar_damped_sine_grad(angle, scale):
    # the rule asks to be told which inputs are perturbed, then uses them as plain arrays
    @jax.custom_vjp
    def damped(x, gain):
        return jnp.sin(x) * gain

    def damped_fwd(x, gain):
        return damped(x, gain), (jnp.cos(x), gain)

    def damped_bwd(res, g):
        cos_x, gain = res
        return (cos_x * gain * g, None)
    damped.defvjp(damped_fwd, damped_bwd, symbolic_zeros=True)
    return jax.grad(damped)(angle, scale)


# ---------------------------------------------------------------- shapes

@error_case(family="shapes", fix="conv-pad-pairs-b19d", raises="ValueError",
            source="https://github.com/google/flax/issues/2000",
            line="return lax.conv_general_dilated(img, kern, (2, 2), (1, 1), dimension_numbers=('NHWC', 'HWIO', 'NHWC'))",
            fixed="return lax.conv_general_dilated(img, kern, (2, 2), ((1, 1), (1, 1)), dimension_numbers=('NHWC', 'HWIO', 'NHWC'))",
            args=lambda: (np.ones((2, 12, 12, 3), np.float32), np.ones((3, 3, 3, 8), np.float32)))
def quar_strided_conv(img, kern):
    # a strided 3x3 convolution with one pixel of zero padding on each side
    return lax.conv_general_dilated(img, kern, (2, 2), (1, 1), dimension_numbers=('NHWC', 'HWIO', 'NHWC'))


@error_case(family="shapes", fix="axes-tuples-b19d", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/2658",
            line="return jnp.tensordot(feats, proj, axes=(lead + feats.ndim - k, lead))",
            fixed="return jnp.tensordot(feats, proj, axes=(tuple(lead + feats.ndim - k), tuple(lead)))",
            args=lambda: (np.ones((5, 2, 3), np.float32), np.ones((2, 3, 4), np.float32), 2))
def quar_trailing_contract(feats, proj, k):
    # contract the last k axes of feats with the first k axes of proj
    lead = np.arange(k)
    return jnp.tensordot(feats, proj, axes=(lead + feats.ndim - k, lead))


# ---------------------------------------------------------------- other

@error_case(family="other", fix="backend-keyword-b19d", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/10391",
            line="host = jax.local_devices('cpu')[0]",
            fixed="host = jax.local_devices(backend='cpu')[0]",
            args=lambda: (np.arange(4.0, dtype=np.float32),))
def quar_pin_to_host(vec):
    # keep this buffer on the host CPU
    host = jax.local_devices('cpu')[0]
    return jax.device_put(vec, host) * 2.0


@error_case(family="other", fix="list-to-array", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/365",
            line="return jnp.cos(angles) ** 2",
            fixed="return jnp.cos(jnp.asarray(angles)) ** 2",
            args=lambda: ([0.1, 0.4, 0.9],))
def quar_cos_squared(angles):
    # a plain Python list of angles straight into a jax.numpy ufunc
    return jnp.cos(angles) ** 2


@error_case(family="other", fix="plain-template-b19d", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/18652",
            line="jax.debug.print(f\"residual {res}\", res=res)",
            fixed="jax.debug.print(\"residual {res}\", res=res)",
            args=lambda: (np.array([1.0, 2.0, 4.0], np.float32), 0.5))
def quar_report_residual(xs, shift):
    # print an intermediate value from inside a jitted function
    def body(v):
        res = jnp.sum(v - shift)
        jax.debug.print(f"residual {res}", res=res)
        return res
    return jax.jit(body)(xs)


@error_case(family="other", fix="fmt-field-kwarg-b19d", raises="KeyError",
            source="https://github.com/jax-ml/jax/pull/11725",
            line="jax.debug.print(\"step {i}: loss {loss}\", i=i)",
            fixed="jax.debug.print(\"step {i}: loss {loss}\", i=i, loss=loss)",
            args=lambda: (np.array([0.3, -0.2], np.float32),))
def quar_log_each_step(w):
    # log the loss at every step of a short descent loop
    def step(i, w):
        loss = jnp.sum(w ** 2)
        jax.debug.print("step {i}: loss {loss}", i=i)
        return w - 0.1 * 2 * w
    return lax.fori_loop(0, 3, step, w)


@error_case(family="other", fix="device-object-b19d", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/15595",
            line="placed = jax.device_put(table, 0)",
            fixed="placed = jax.device_put(table, jax.devices()[0])",
            args=lambda: (np.arange(6.0, dtype=np.float32).reshape(2, 3),))
def quar_place_first_device(table):
    # put the table on the first accelerator by its index
    placed = jax.device_put(table, 0)
    return placed.sum(axis=0)


@error_case(family="shapes", fix="add-batch-dim", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.lax.dynamic_update_slice.html",
            line="return lax.dynamic_update_slice(buf, row, (slot, 0))",
            fixed="return lax.dynamic_update_slice(buf, row[None], (slot, 0))",
            args=lambda: (np.zeros((4, 3), np.float32), np.array([1.0, 2.0, 3.0], np.float32), 2))
def quar_write_row(buf, row, slot):
    # overwrite one row of a ring buffer at a traced position
    return lax.dynamic_update_slice(buf, row, (slot, 0))


@error_case(family="shapes", fix="cast", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-dynamic-update-slice",
            line="return lax.dynamic_update_slice(track, patch, (start,))",
            fixed="return lax.dynamic_update_slice(track, patch, (start.astype(jnp.int32),))",
            args=lambda: (np.zeros(8, np.float32), np.array([7.0, 8.0], np.float32), 0.4))
def quar_paste_patch(track, patch, frac):
    # paste a patch at a position given as a fraction of the track length
    start = jnp.floor(frac * track.shape[0])
    return lax.dynamic_update_slice(track, patch, (start,))


@error_case(family="other", fix="pad-triples-b19d", raises="ValueError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.lax.pad.html",
            line="return lax.pad(grid, 0.0, [(1, 1), (2, 2)])",
            fixed="return lax.pad(grid, 0.0, [(1, 1, 0), (2, 2, 0)])",
            args=lambda: (np.ones((3, 4), np.float32),))
def quar_halo_border(grid):
    # a border of zeros: one row above and below, two columns left and right
    return lax.pad(grid, 0.0, [(1, 1), (2, 2)])


@error_case(family="other", fix="pad-value-dtype-b19d", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.lax.pad.html",
            line="padded = lax.pad(sig, 0, [(taps - 1, 0, 0)])",
            fixed="padded = lax.pad(sig, jnp.array(0, sig.dtype), [(taps - 1, 0, 0)])",
            args=lambda: (np.array([1.0, 3.0, 2.0, 5.0], np.float32), 3))
def quar_causal_window_sum(sig, taps):
    # left-pad so each output sums the current and previous taps-1 samples
    padded = lax.pad(sig, 0, [(taps - 1, 0, 0)])
    return jnp.convolve(padded, jnp.ones(taps, sig.dtype), mode="valid")
