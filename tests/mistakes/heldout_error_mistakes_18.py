"""An eighteenth held-out batch of JAX errors outside jit, written by four blind helper sessions at once
(vmap and grad; loops and branches; pytrees and keys; custom rules, shapes and other) that never opened
the rules under `autograder/` nor any message the course prints, from the brief of the fifteenth to
seventeenth batches (one public source per case, none cited by an earlier batch; each part checked with
`check_error_cases.py --part`), so that its first run measures the rules on mistakes they were not written
from. Uncited tracker threads that still fail on the pinned JAX are running out: more of this batch's
sources than before are teaching pages and JAX's own API pages, which state a pitfall and its fix rather
than show one user's failure (each part says which). Each part's own account follows, as its helper wrote it.

## Part a

Part a of the eighteenth held-out batch (families vmap and grad), written by a blind helper session that never
opened the rules under `autograder/` nor any message the course prints.

How the cases were found: I collected every `source=` address cited by the case files in `tests/mistakes/` (832
of them) into a list and checked each candidate against it before reading it. The jax tracker's vmap and grad threads
that the `issues` search surfaces (in_axes arity, kwargs, dict in_axes, rank-0 mapping, non-scalar grad, integer
inputs, has_aux, jacfwd/holomorphic, ...) are almost all cited already, so this part uses the few uncited tracker and
library threads I found (jax #673 and #4024, diffrax #139, flax PR #306, lineax PR #60), JAX's own tutorial pages that
no batch cites (automatic vectorization, the autodiff cookbook), a Stack Overflow answer read through a mirror, and
teaching pages with a stated pitfall and its repair (apxml, theneuralbase, wangkuiyi, educative, crackedaicode's
pytree page). Each function is my own code (own names and numbers); the mistake and the fix are the source's.

Cases (source: mistake -> fix):
- vmap, jax-ml/jax#673: vmapping a call over a Python list of (partial) functions -> TypeError (a function is not a
  valid JAX type); mattjj's fix: write the variation as a parameter and vmap one function over an array of it
  (`vmap(f_template)(np.arange(5), x)`). New category `params-not-functions-b18a`.
- vmap, patrick-kidger/diffrax#139: one `vmap(jacfwd(field))` over states of shape (runs, times, 2) hands the field
  a (times, 2) slice, so the matmul inside jacfwd inside vmap fails -> one vmap per batch axis,
  `jax.vmap(jax.vmap(jax.jacfwd(fn)))` (the maintainer's answer).
- vmap, docs.jax.dev automatic-vectorization: batching the convolution over signals with the shared kernel mapped
  too (inconsistent mapped sizes) -> `in_axes=[0, None]` (the page's `batch_convolve_v3`).
- vmap, wangkuiyi.github.io/vmap.html: examples stored as the columns of a table, vmapped over axis 0, so each slice
  has the wrong length for the dot product inside the lambda -> `in_axes=1`.
- vmap, apxml "vmap in_axes/out_axes" lesson: a scalar offset passed to the vmapped `add_scalar` with the default
  in_axes (rank-0 argument mapped on axis 0) -> `in_axes=(0, None)`.
- vmap, theneuralbase "vmap vs manual batching": the per-sample forward pass `jnp.dot(W, x)` called on the whole
  batch (contracting-dimension TypeError) -> vmap it with the weights unmapped, `in_axes=(None, 0)` here.
- vmap, google/flax PR #306 (per-example gradient HOWTO): `vmap(grad(loss))` hands the loss one image while the model
  expects a batch, so the model's reshape/matmul fails inside grad inside vmap -> `jnp.expand_dims(x, 0)` before the
  model, as the HOWTO's diff does.
- grad, patrick-kidger/lineax PR #60: `jacfwd` of a complex function on complex inputs (TypeError: real-valued inputs
  required) -> pass `holomorphic=True`.
- grad, Stack Overflow 66466941 via example-a.com ("Understanding JAX argnums"): unpacking `jax.grad(f)(w, b)` into
  `(g_w, g_b)` while grad differentiates only the first argument -> `argnums=(0, 1)`, which returns the tuple.
- grad, educative "Machine Learning with JAX": a function that returns `(value, extra)` given to plain `jax.grad`
  (non-scalar output) -> `has_aux=True`.
- grad, jax-ml/jax#4024: the derivative of a kernel at every data point taken with `grad` on the batched kernel
  (non-scalar output) -> write it for one point and `vmap(grad(k), in_axes=(0, None, None))`.
- grad, autodiff cookbook (docs.jax.dev): `jax.grad` of an R^3 -> R^2 layer (non-scalar output) -> the full Jacobian
  with `jax.jacfwd`.
- grad, crackedaicode "Gradient over pytree params": `argnums=(0, 1)` also differentiates the data argument (here
  integer tokens, TypeError) while the gradient is wanted for the dict of params only -> `argnums=0`.

New category: `params-not-functions-b18a`: vmap a single function over an array holding the varying parameter
(`jnp.arange` of the indices/scales) instead of over a list of functions. Existing ones used: vmap-nested,
vmap-in-axes-none (two cases, different errors), vmap-in-axes-axis, vectorized-combine, add-batch-dim,
holomorphic-flag, grad-argnums (two cases, different errors), grad-has-aux, grad-scalar, jacobian-b11a.

Caveats: several sources are tutorials or API pages rather than reports with a maintainer's answer, and there the
failing call is mine, built from the rule the page states (automatic-vectorization, wangkuiyi, apxml, theneuralbase,
educative, the cookbook). The Stack Overflow asker already used `argnums=(0, 1)` and asked what it means; the failing
call without it is my reading of the answer. In #673 the fixed line vmaps over `jnp.arange(4.0)` as the maintainer's
example does over `np.arange(5)`. In #4024 the user built a huge jacfwd rather than hitting an error; the non-scalar
grad call is my reduction of the answer's "write it for single vectors and vmap". In diffrax #139 the reporter only
said the single vmap "doesn't seem to work"; the matmul in my field makes it raise. On the crackedaicode page the
pitfall is differentiating the data with `argnums=(0, 1)`; making the data integer (so that it raises) is mine.
lineax PR #60 adds the `holomorphic` flag to lineax's own jacobian wrapper; the case applies that fix to `jax.jacfwd`
directly. The flax case puts the model in a one-line lambda so that the failing and the fixed line are the same line.
Four vmap cases raise the same contracting-dimension TypeError but each has a different fix (nested vmap, in_axes=1,
vmap at all, expand_dims); two grad cases share the non-scalar TypeError with different fixes (vmap of grad, jacfwd).
Shortfall: none against the counts asked (vmap 7, grad 6, 13 in all).

## Part b

Part b of the eighteenth held-out batch (families loops and branches), written by a blind helper session that
never opened the rules under `autograder/` nor any message the course prints.

How the cases were found: every `source=` of the case files in `tests/mistakes/` was collected first (832 addresses)
and each candidate was checked against that list. The loop and branch threads of the JAX tracker that the search tools
surface (scan/while/fori carry types, cond/switch branch mismatches, associative_scan, lax.map) turned out to be almost
all cited already, as were the Stack Overflow mirrors and most crackedaicode and openillumi pages on control flow. So this
part leans on one library pull request (thermox) with a maintainer's review, teaching pages that name a pitfall and its
repair (crackedaicode problem pages, an apxml course page, a theneuralbase lesson, an openillumi article, an errorhandle.ai
answer), and five API pages of JAX's own documentation (lax.scan, lax.while_loop, lax.map, lax.cond, lax.select) whose
stated constraint is the mistake. Every case was run on the pinned JAX 0.10.2 and checked with `--part`.

Cases, one line each (thread: mistake -> fix):
- loops, normal-computing/thermox pull 30: `lax.associative_scan` with a combine function written for single elements
  (a matmul of one step's matrix with another's vector), which fails on the stacked slices the scan passes ("contracting
  dimensions" error) -> the reviewer's "just vmap this function": `lax.associative_scan(jax.vmap(combine), elems)`.
- loops, apxml course page "looping-lax-while-loop": `cond_fun` compares a whole vector (`s < cap`), but cond_fun must
  return a boolean scalar -> reduce it, `jnp.all(s < cap)` (the page states the scalar rule; `jnp.all` is my reduction).
- loops, same apxml page (second case): the body must return the carry with the same dtype; an integer starting level
  gets `+ 0.25` each step, so the carry turns float -> start the carry as a float (`jnp.asarray(start, jnp.float32)`).
- loops, crackedaicode "jax-jit-of-scan": `jax.jit(running_total(vals))` jits the result of a scan-based function, not
  the function -> `jax.jit(running_total)(vals)` (the page's first pitfall).
- loops, JAX API page of `jax.lax.scan`: the carry starts as the scalar `0.0` while each step adds a feature row, so the
  carry changes shape; the page says the carry must keep one fixed shape and dtype -> an initial carry of the row's shape,
  `jnp.zeros(rows.shape[1])`.
- loops, JAX API page of `jax.lax.while_loop`: `jax.grad` through a while_loop with a fixed count (ValueError: reverse
  mode does not work); the page says while_loop is not reverse-mode differentiable for want of static bounds -> a loop
  with a static trip count, `lax.scan(..., length=6)` (fix inferred from the page and the error's own hint).
- loops, JAX API page of `jax.lax.map`: `lax.map(f, starts, ends)` as if map took several sequences -> one pytree of xs,
  `lax.map(lambda ab: ..., (starts, ends))` (the page: xs may be an arbitrary nested pytree).
- branches, theneuralbase lesson "tracer-errors-dynamic-control-flow": a Python `if` on `a[0] > 5` inside jit
  (TracerBoolConversionError) -> the lesson's `lax.cond(a[0] > 5, lambda v: v * 2, lambda v: v + 1, a)`.
- branches, crackedaicode "jax-tracing-shape-vs-value": `lax.cond` on a shape test (`x.shape[0] >= 3`) whose branches
  return different shapes (TypeError) -> the page's point that a shape test is a Python int known at trace time, so a
  plain Python `if` is right (the mistake itself is my reduction of the page's lesson).
- branches, crackedaicode "jax-lax-cond-classifier": branches `lambda: 1` and `lambda: -1.0` (int vs float outputs) ->
  matching literals `1.0` / `-1.0` (the page's pitfall).
- branches, JAX API page of `jax.lax.cond` (the older readthedocs version that requires an operand): an operand is passed
  but the branch lambdas take no argument -> branches that accept the operand, `lambda _: 23.0` (the page's example).
- branches, openillumi "en-jax-where-select-difference": `lax.select` between an int32 array and a float fill (TypeError,
  dtypes must match) -> `jnp.where`, which promotes (the article's recommendation).
- branches, JAX API page of `jax.lax.select`: a per-row predicate of shape (3,) against a (3, 2) grid (select does not
  broadcast; pred must have the operands' shape) -> broadcast the predicate, `jnp.broadcast_to(keep[:, None], grid.shape)`.
- branches, errorhandle.ai "equivalent-of-jax-lax-cond-for-multiple-boolean-conditions": an if/elif chain on an array
  inside jit (on 0.10.2 a ValueError, "truth value of an array with more than one element") -> the answer's
  `jnp.select([v < 0, v < 1], [v, 2 * v], default=3 * v)`.

New category: `jnp-select-b18b`, choose among several conditions with `jnp.select(condlist, choicelist, default=...)`;
its pattern asks for `jnp.select(` or the words select ... condlist/choicelist, written from the answer's fix alone.

Caveats: six of the fourteen rest on documentation or teaching pages rather than on a user's report, and two threads give
two cases each (apxml while_loop page; none gives three). Where a page states a rule rather than a repair (the scan,
while_loop, map and select API pages, the apxml scalar-predicate rule), the one-line `fixed` is the smallest repair that
obeys it, noted above. Variety covered: carries that change shape (scalar vs row) and dtype (int start, float steps),
a reverse-mode failure raised from `jax.grad` around a loop, a non-vectorised combine, operand-passing conventions, branch
outputs of different dtypes and shapes, select's strict dtype and shape rules, and multi-way choice. Not covered for want
of an uncited thread: `lax.switch` index dtypes, None leaves in a carry.

## Part c

Part c of the eighteenth held-out batch (families pytrees and keys), written by a blind helper session that never
opened the rules under `autograder/` nor any message the course prints.

How the cases were found: every `source=` of the case files in `tests/mistakes/` was collected first and each
candidate was checked against that list. The JAX tracker's pytree and PRNG threads are almost all cited already, and
many of the rest no longer fail on the pinned JAX (e.g. `jax.random.normal(key, 1000)` and float `fold_in` data now
work), so this part leans on teaching pages that state a pitfall and its repair (crackedaicode problem pages not yet
cited, Equinox's FAQ, one page of JAX's API reference), plus issues and pull requests in jax-ml/jax, aesara, treescope, pcx and jax-dataloader. Each
candidate was first run on the pinned JAX (0.10.2) to confirm it still raises, and with the thread's fix swapped in.

Cases, one line each (thread: mistake -> fix):
- pytrees, crackedaicode jax-pytree-map: a two-tree `tree_map` (EMA blend) whose second tree is the flat tuple of the
  first tree's leaves -> the trees must have identical structure (rebuild the shadow copy with the params' treedef).
- pytrees, crackedaicode jax-pytree-leaves: a gradient mask with `None` for frozen entries, mapped as the first tree,
  fails because `None` is a node with no children, not a leaf -> treat `None` as a leaf with `is_leaf=`.
- pytrees, crackedaicode jax-tree-flatten-unflatten: unflattening one tree's leaves with the treedef of a different
  tree ("different treedefs are incompatible ... JAX will raise") -> unflatten with the treedef of the same tree.
- pytrees, Equinox FAQ "Optax throwing a TypeError": optimizer state built with `zeros_like` over a model tree that
  also holds its activation function (a custom_jvp leaf) -> keep only the array leaves (filter the others to None).
- pytrees, BirkhoffG/jax-dataloader issue 2: a data-loader object (an unregistered class) passed as an argument of a
  jitted function -> mark it static with `static_argnames`.
- pytrees, JAX API page of `jax.tree_util.register_pytree_node`: an unregistered container class passed to a jitted
  function ("JAX does not yet know how to handle this type") -> register it as a pytree (the case uses the page's
  simpler sibling `register_dataclass`, inline on the failing line).
- pytrees, jax-ml/jax issue 15728: a `shard_map`ped two-argument function called with one argument, reported as a
  pytree prefix mismatch between `in_specs` and the arguments -> call it with both arguments.
- keys, jax-ml/jax pull 2925 (shuffle deprecated in favour of permutation): `jax.random.shuffle`, now removed ->
  `jax.random.permutation`.
- keys, google-deepmind/treescope pull 73: `np.asarray` on an array of typed keys -> convert the key data
  (`jax.random.key_data`) instead.
- keys, liukidar/pcx issue 91: a key tiled over the batch for a vmapped step, so it keeps a stray leading axis, is
  handed to `split`
  ("split accepts a single key") -> restore the single key, `keys[0]`.
- keys, crackedaicode jax-deterministic-batch-with-keys: the per-sample draw uses `(n,)` with `n` arriving as a float
  ("requires n as a Python int") -> `int(n)`.
- keys, aesara-devs/aesara issue 702: the sample shape passed to `jax.random.normal` as a JAX array argument of a
  jitted function, so it is traced -> JAX only accepts a tuple of concrete ints as the shape (pass `tuple(size)`).
- keys, crackedaicode jax-prngkey-fold-in: the seed arrives as a float and goes straight into `jax.random.PRNGKey`
  -> `jax.random.PRNGKey(int(seed))`.

New categories (each written from the thread's fix alone):
- `own-treedef-b18c`: unflatten the leaves with the treedef of the tree they came from (the same / matching treedef,
  `jax.tree.structure` of that tree).
- `all-args-b18c`: call the shard_mapped function with one argument per entry of `in_specs` (pass both arguments).
- `single-key-b18c`: hand `split` the single key (index it out, `keys[0]`), not the array with the stray batch axis.

Caveats: in pcx 91 the maintainers' fix is a try/finally that restores `key[0]`; the case puts that indexing on the
failing line. In jax-dataloader 2 the answer uses `partial(jax.jit, static_argnames=[...])`; the case passes
`static_argnames` directly. The register_pytree_node page registers with `register_pytree_node` on its own line; the
case registers with `register_dataclass` (which returns the class) inside the failing call. The Equinox FAQ's fix is `eqx.filter(model, eqx.is_inexact_array)`; the case writes the same
filter with `jax.tree.map` (non-arrays become None). For aesara 702 the fix in the thread (PR 1284) converts the size to
a tuple; the case does the conversion outside the jitted lambda. Counts: 7 pytrees and 6 keys, 13 in all.

## Part d

Part d of the eighteenth held-out batch (families custom-rules, shapes, other), written by a blind helper
session that never opened the rules under `autograder/` nor any message the course prints.

How the cases were found: every `source=` in tests/mistakes/ was collected first and each candidate checked
against it. The custom_jvp/custom_vjp threads of the JAX tracker that the search tools surface are nearly all cited
already (4617, 2912, 8356, 13099, 20889, 28757, 12611, 2502, 5571, flash-attention-jax 7/8, fwdlap 5 ...), and the
uncited ones I ran (4802, 9374, 3964, cuEquivariance 162's list/tuple mismatch, PR 21568) no longer fail on 0.10.2;
23065's rule-signature slip is incidental to that issue and has no fix there. So the custom-rule cases, and most
shape cases, come from JAX's own API pages (docs.jax.dev `_autosummary`, none cited before), each stating the rule
whose violation the case commits and the repair; two "other" cases come from openillumi articles built on Stack
Overflow questions (pages not cited before) and two from uncited JAX issues. Every function is my own code.

Cases, one line each (source: mistake -> fix):
- custom-rules, API page jax.custom_jvp.defjvps: `defjvps` on a custom_jvp with nondiff_argnums (the page: the
  wrapper "cannot be used together with nondiff_argnums") -> one `defjvp` rule taking the nondiff argument first.
- custom-rules, API page jax.custom_jvp.defjvp: the rule returns only the tangent (the page: it must produce a pair,
  primal output then tangent output) -> return `(primal_out, tangent_out)`.
- custom-rules, API page jax.custom_gradient: the decorated function returns only its value (the page: it must
  return a pair, the value and the VJP function) -> return `(value, lambda g: ...)`.
- shapes, API page jax.numpy.concatenate: a (4, 3) matrix and a (4, 1) column joined on the default axis 0 (the
  page: same shape except along the axis; its own example joins (2, 3) and (2, 1) with `axis=1`) -> `axis=1`.
- shapes, API page jax.numpy.split: an integer section count that does not divide the length (the page: N must evenly
  divide, see `array_split`) -> `jnp.array_split`.
- shapes, API page jax.lax.dynamic_slice: the slice length is a traced argument of a jitted function (the page: slice
  sizes must be static inside jit) -> make it static (`static_argnums=1`).
- shapes, API page jax.numpy.reshape: a hard-coded row count that does not fit the size (the page: `-1` is inferred
  from the input size) -> `(-1, 4)`.
- shapes, API page jax.numpy.pad: three (before, after) pairs for a 2-D array (the page: one pair per array dimension)
  -> two pairs.
- other, openillumi ?p=88376 (from a Stack Overflow question): NumPy-style masked assignment `q[q < 0] = 0.0` on a
  JAX array -> `q = q.at[q < 0].set(0.0)`.
- other, openillumi ?p=109430 (from a Stack Overflow question): a list passed as a `static_argnames` argument ->
  pass a hashable tuple.
- other, jax-ml/jax issue 5091: a NumPy float128/longdouble array handed to JAX (hawkinsp: JAX does not support
  float128) -> cast to a supported float first.
- other, jax-ml/jax issue 1822: a float shape for `jnp.zeros` (`jnp.zeros(1.0)` in the issue; here `n / 2`) -> an
  integer shape (`n // 2`).
- other, API page jax.numpy.union1d: `jnp.union1d` under jit (the page shows the traceback and the fix) ->
  `size=`.

New categories (regexes written from the fixes alone): `defjvp-not-defjvps-b18d` (use `defjvp` rather than the
`defjvps` wrapper when there are nondiff arguments), `custom-gradient-pair-b18d` (a custom_gradient function returns
the pair of value and VJP function), `supported-dtype-b18d` (cast float128/longdouble data to float64/float32 before
it reaches JAX), `int-shape-b18d` (give array-creation functions an integer shape: `//` or `int(...)`). Existing
categories used: jvp-pair, concat-shapes, split-sections, static-arg, reshape-size, pad-width-rank, at-set,
hashable-static-b15d, size.

Caveats: nine of the thirteen sources are pages of one website (JAX's API reference), one page per case; they state a
rule rather than report a user's traceback, so each failing call is built from the documented rule (as earlier parts
did with API pages). `fixed` is inferred, not shown, for: issue 5091 (the thread only says float128 is unsupported;
the cast is my repair), issue 1822 (the thread is about the misleading message for `jnp.zeros(1.0)`; the integer
shape is the implied repair), the dynamic_slice page (it says only static sizes work under jit; `static_argnums` is
my way of making the size static), and the reshape page (it documents `-1`, not a failing call). The defjvp and
custom_gradient cases put the rule on the failing line (a small `attach` helper, an inline `jax.custom_gradient`),
because JAX raises after the rule returns, at the differentiating call. The lax.dynamic_slice mistake is also the
subject of the already-cited jax issue 1007; this case cites only the API page. Shortfall: none against the counts
asked (custom-rules 3, shapes 5, other 5), but the custom-rule quota is met only through API pages, since I found no
uncited custom-rule thread that still fails on the pinned JAX.
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

@error_case(family="vmap", fix="params-not-functions-b18a", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/673",
            line="return jax.vmap(lambda fn: fn(x))(scalers)",
            fixed="return jax.vmap(lambda i: x * i)(jnp.arange(4.0))",
            args=lambda: (3.0,))
def fennel_apply_each_scaler(x):
    # the same input through four differently scaled copies of one function
    def scaled(i, v):
        return v * i
    scalers = [functools.partial(scaled, float(i)) for i in range(4)]
    return jax.vmap(lambda fn: fn(x))(scalers)


@error_case(family="vmap", fix="vmap-nested", raises="TypeError",
            source="https://github.com/patrick-kidger/diffrax/issues/139",
            line="return jax.vmap(jax.jacfwd(lambda y: jnp.tanh(mix @ y)))(states)",
            fixed="return jax.vmap(jax.vmap(jax.jacfwd(lambda y: jnp.tanh(mix @ y))))(states)",
            args=lambda: (np.array([[0.5, -1.0], [1.5, 0.25]], np.float32),
                          np.linspace(-1.0, 1.0, 3 * 7 * 2, dtype=np.float32).reshape(3, 7, 2)))
def fennel_field_jacobians(mix, states):
    # states: (runs, times, 2); wanted one (2, 2) Jacobian of the vector field per (run, time)
    return jax.vmap(jax.jacfwd(lambda y: jnp.tanh(mix @ y)))(states)


@error_case(family="vmap", fix="vmap-in-axes-none", raises="ValueError",
            source="https://docs.jax.dev/en/latest/automatic-vectorization.html",
            line="return jax.vmap(smooth)(signals, taps)",
            fixed="return jax.vmap(smooth, in_axes=[0, None])(signals, taps)",
            args=lambda: (np.arange(12.0, dtype=np.float32).reshape(2, 6),
                          np.array([0.25, 0.5, 0.25], np.float32)))
def fennel_batch_smooth(signals, taps):
    # a batch of signals, one shared kernel
    def smooth(sig, k):
        out = []
        for i in range(1, sig.shape[0] - 1):
            out.append(jnp.dot(sig[i - 1:i + 2], k))
        return jnp.stack(out)
    return jax.vmap(smooth)(signals, taps)


@error_case(family="vmap", fix="vmap-in-axes-axis", raises="TypeError",
            source="https://wangkuiyi.github.io/vmap.html",
            line="return jax.vmap(lambda col: col @ weights)(table)",
            fixed="return jax.vmap(lambda col: col @ weights, in_axes=1)(table)",
            args=lambda: (np.arange(15.0, dtype=np.float32).reshape(3, 5),
                          np.array([1.0, -2.0, 0.5], np.float32)))
def fennel_score_columns(table, weights):
    # the examples are the 5 columns of `table` (each a length-3 vector)
    return jax.vmap(lambda col: col @ weights)(table)


@error_case(family="vmap", fix="vmap-in-axes-none", raises="ValueError",
            source="https://www.apxml.com/courses/getting-started-with-jax/chapter-4-automatic-vectorization-vmap/"
                   "vmap-axes-arguments",
            line="return jax.vmap(shift)(rows, offset)",
            fixed="return jax.vmap(shift, in_axes=(0, None))(rows, offset)",
            args=lambda: (np.arange(12.0, dtype=np.float32).reshape(4, 3), 100.0))
def fennel_shift_rows(rows, offset):
    def shift(row, c):
        return row + c
    return jax.vmap(shift)(rows, offset)


@error_case(family="vmap", fix="vectorized-combine", raises="TypeError",
            source="https://theneuralbase.com/jax/learn/beginner/vmap-vs-manual-batching/",
            line="return jnp.dot(mat, samples)",
            fixed="return jax.vmap(jnp.dot, in_axes=(None, 0))(mat, samples)",
            args=lambda: (np.arange(12.0, dtype=np.float32).reshape(4, 3),
                          np.diag(np.array([1.0, 2.0, 3.0], np.float32))))
def fennel_forward_batch(samples, mat):
    # the per-sample forward pass is jnp.dot(mat, x) for one x of shape (3,); `samples` is a batch of 4
    return jnp.dot(mat, samples)


@error_case(family="vmap", fix="add-batch-dim", raises="TypeError",
            source="https://github.com/google/flax/pull/306",
            line="logits = (lambda b: b.reshape((b.shape[0], -1)) @ w)(image)",
            fixed="logits = (lambda b: b.reshape((b.shape[0], -1)) @ w)(jnp.expand_dims(image, 0))",
            args=lambda: (np.full((16, 3), 0.1, np.float32),
                          np.arange(5 * 4 * 4, dtype=np.float32).reshape(5, 4, 4) / 80.0))
def fennel_per_image_grads(w, images):
    # the "model" (the lambda) expects a batch of images; vmap hands the loss one image at a time
    def loss_one(w, image):
        logits = (lambda b: b.reshape((b.shape[0], -1)) @ w)(image)
        return -jnp.sum(jax.nn.log_softmax(logits)[:, 0])
    return jax.vmap(jax.grad(loss_one), in_axes=(None, 0))(w, images)


# ====================================================================== grad

@error_case(family="grad", fix="holomorphic-flag", raises="TypeError",
            source="https://github.com/patrick-kidger/lineax/pull/60",
            line="return jax.jacfwd(lambda z: z ** 2 + 1j * z)(roots)",
            fixed="return jax.jacfwd(lambda z: z ** 2 + 1j * z, holomorphic=True)(roots)",
            args=lambda: (np.array([1.0 + 1.0j, 2.0 - 0.5j], np.complex64),))
def fennel_complex_jacobian(roots):
    return jax.jacfwd(lambda z: z ** 2 + 1j * z)(roots)


@error_case(family="grad", fix="grad-argnums", raises="ValueError",
            source="https://example-a.com/answer/66466941",
            line="g_w, g_b = jax.grad(half_sse)(w, b)",
            fixed="g_w, g_b = jax.grad(half_sse, argnums=(0, 1))(w, b)",
            args=lambda: (np.array([0.5, -0.25, 1.0], np.float32), 0.1,
                          np.arange(12.0, dtype=np.float32).reshape(4, 3) / 10.0,
                          np.array([1.0, 0.0, 2.0, 1.0], np.float32)))
def fennel_weight_and_bias_grads(w, b, feats, target):
    def half_sse(w, b):
        return jnp.sum((feats @ w + b - target) ** 2) / 2
    g_w, g_b = jax.grad(half_sse)(w, b)
    return w - 0.1 * g_w, b - 0.1 * g_b


@error_case(family="grad", fix="grad-has-aux", raises="TypeError",
            source="https://educative.io/courses/deep-learning-with-jax-and-flax/machine-learning-with-jax",
            line="slope, shifted = jax.grad(soft_total)(xs)",
            fixed="slope, shifted = jax.grad(soft_total, has_aux=True)(xs)",
            args=lambda: (np.arange(6.0, dtype=np.float32),))
def fennel_logistic_slope(xs):
    def soft_total(v):
        return jnp.sum(1.0 / (1.0 + jnp.exp(-v))), v + 1.0
    slope, shifted = jax.grad(soft_total)(xs)
    return slope, shifted


@error_case(family="grad", fix="grad-scalar", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/4024",
            line="return jax.grad(rbf)(points, centre, 0.8)",
            fixed="return jax.vmap(jax.grad(rbf), in_axes=(0, None, None))(points, centre, 0.8)",
            args=lambda: (np.linspace(-1.0, 1.0, 10, dtype=np.float32).reshape(5, 2),
                          np.array([0.1, -0.2], np.float32)))
def fennel_rbf_slopes(points, centre):
    # wanted: d k(p, centre) / dp for every point p, each a (2,) vector
    def rbf(p, c, scale):
        return jnp.exp(-0.5 * jnp.sum((p - c) ** 2, axis=-1) / scale ** 2)
    return jax.grad(rbf)(points, centre, 0.8)


@error_case(family="grad", fix="jacobian-b11a", raises="TypeError",
            source="https://docs.jax.dev/en/latest/notebooks/autodiff_cookbook.html",
            line="return jax.grad(layer)(x)",
            fixed="return jax.jacfwd(layer)(x)",
            args=lambda: (np.array([[1.0, 0.5, 0.0], [0.0, 1.0, -1.0]], np.float32),
                          np.array([0.2, -0.4, 0.6], np.float32)))
def fennel_layer_sensitivity(mat, x):
    # the layer maps R^3 -> R^2; wanted: d outputs / d x
    def layer(v):
        return jnp.tanh(mat @ v)
    return jax.grad(layer)(x)


@error_case(family="grad", fix="grad-argnums", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-grad-over-pytree",
            line="grads = jax.grad(sq_loss, argnums=(0, 1))(params, tokens)",
            fixed="grads = jax.grad(sq_loss, argnums=0)(params, tokens)",
            args=lambda: ({"w": np.array([0.5, -1.0], np.float32), "b": np.float32(0.25)},
                          np.array([[1, -1], [2, 0], [0, 3]], np.int32)))
def fennel_pytree_param_grads(params, tokens):
    # params is a dict pytree; tokens is integer data, not something to differentiate
    def sq_loss(p, x):
        return jnp.sum((x @ p["w"] + p["b"]) ** 2)
    grads = jax.grad(sq_loss, argnums=(0, 1))(params, tokens)
    return grads


# ---- part b


# ----------------------------------------------------------------------------------------------------------- loops

@error_case(family="loops", fix="vectorized-combine", raises="TypeError",
            source="https://github.com/normal-computing/thermox/pull/30",
            line="return lax.associative_scan(lambda p, q: (q[0] @ p[0], q[0] @ p[1] + q[1]), (mats, offs))",
            fixed="return lax.associative_scan(jax.vmap(lambda p, q: (q[0] @ p[0], q[0] @ p[1] + q[1])), (mats, offs))",
            args=lambda: (np.tile(np.eye(2, dtype=np.float32) * 0.9, (8, 1, 1)), np.ones((8, 2), np.float32)))
def quill_affine_prefix(mats, offs):
    # compose the affine steps x -> A_t x + b_t for every prefix of the sequence, in parallel
    mats, offs = jnp.asarray(mats), jnp.asarray(offs)
    return lax.associative_scan(lambda p, q: (q[0] @ p[0], q[0] @ p[1] + q[1]), (mats, offs))


@error_case(family="loops", fix="loop-scalar-pred", raises="TypeError",
            source="https://apxml.com/courses/advanced-jax/chapter-1-advanced-jax-transformations-control-flow/looping-lax-while-loop",
            line="return lax.while_loop(lambda s: s < cap, lambda s: s * 2.0, jnp.asarray(levels))",
            fixed="return lax.while_loop(lambda s: jnp.all(s < cap), lambda s: s * 2.0, jnp.asarray(levels))",
            args=lambda: (np.array([1.0, 2.5, 4.0], np.float32), 10.0))
def quill_double_until(levels, cap):
    # keep doubling the whole vector of levels until it passes the cap
    return lax.while_loop(lambda s: s < cap, lambda s: s * 2.0, jnp.asarray(levels))


@error_case(family="loops", fix="carry-dtype", raises="TypeError",
            source="https://apxml.com/courses/advanced-jax/chapter-1-advanced-jax-transformations-control-flow/looping-lax-while-loop",
            line="steps, level = lax.while_loop(lambda s: s[1] < goal, lambda s: (s[0] + 1, s[1] + 0.25), (0, jnp.asarray(start)))",
            fixed="steps, level = lax.while_loop(lambda s: s[1] < goal, lambda s: (s[0] + 1, s[1] + 0.25), (0, jnp.asarray(start, jnp.float32)))",
            args=lambda: (np.int32(0), 2.0))
def quill_fill_steps(start, goal):
    # count quarter-steps from an integer starting level up to the goal
    steps, level = lax.while_loop(lambda s: s[1] < goal, lambda s: (s[0] + 1, s[1] + 0.25), (0, jnp.asarray(start)))
    return steps, level


@error_case(family="loops", fix="loop-body-callable", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-jit-of-scan",
            line="return jax.jit(running_total(vals))",
            fixed="return jax.jit(running_total)(vals)",
            args=lambda: (np.array([1.0, 2.0, 3.0, 4.0], np.float32),))
def quill_jit_total(vals):
    def running_total(xs):
        total, _ = lax.scan(lambda c, x: (c + x, None), 0.0, xs)
        return total
    return jax.jit(running_total(vals))


@error_case(family="loops", fix="init-carry-shape", raises="TypeError",
            source="https://jax.readthedocs.io/en/latest/_autosummary/jax.lax.scan.html",
            line="total, history = lax.scan(lambda c, r: (c + r, c), 0.0, rows)",
            fixed="total, history = lax.scan(lambda c, r: (c + r, c), jnp.zeros(rows.shape[1]), rows)",
            args=lambda: (np.arange(12, dtype=np.float32).reshape(4, 3),))
def quill_row_accumulate(rows):
    # accumulate the rows of a (steps, features) table, keeping every partial sum
    rows = jnp.asarray(rows)
    total, history = lax.scan(lambda c, r: (c + r, c), 0.0, rows)
    return total, history


@error_case(family="loops", fix="static-loop-bounds", raises="ValueError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.lax.while_loop.html",
            line="return jax.grad(lambda r: lax.while_loop(lambda s: s[1] < 6, lambda s: (s[0] * r, s[1] + 1), (jnp.float32(1.0), 0))[0])(rate)",
            fixed="return jax.grad(lambda r: lax.scan(lambda c, _: (c * r, None), jnp.float32(1.0), length=6)[0])(rate)",
            args=lambda: (0.8,))
def quill_decay_slope(rate):
    # derivative of rate**6, computed by six multiplications in a loop
    return jax.grad(lambda r: lax.while_loop(lambda s: s[1] < 6, lambda s: (s[0] * r, s[1] + 1), (jnp.float32(1.0), 0))[0])(rate)


@error_case(family="loops", fix="map-tuple-xs", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.lax.map.html",
            line="return lax.map(lambda a, b: jnp.linalg.norm(b - a), starts, ends)",
            fixed="return lax.map(lambda ab: jnp.linalg.norm(ab[1] - ab[0]), (starts, ends))",
            args=lambda: (np.zeros((5, 2), np.float32), np.arange(10, dtype=np.float32).reshape(5, 2)))
def quill_leg_lengths(starts, ends):
    # one distance per (start, end) pair, computed one pair at a time
    return lax.map(lambda a, b: jnp.linalg.norm(b - a), starts, ends)


# -------------------------------------------------------------------------------------------------------- branches

@error_case(family="branches", fix="cond", raises="TracerBoolConversionError",
            source="https://theneuralbase.com/jax/learn/beginner/tracer-errors-dynamic-control-flow/",
            line="return a * 2 if a[0] > 5 else a + 1",
            fixed="return lax.cond(a[0] > 5, lambda v: v * 2, lambda v: v + 1, a)",
            args=lambda: (np.array([7.0, 1.0, 2.0], np.float32),))
def quill_boost_head(arr):
    @jax.jit
    def boost(a):
        return a * 2 if a[0] > 5 else a + 1
    return boost(jnp.asarray(arr))


@error_case(family="branches", fix="python-if-static", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-tracing-shape-vs-value",
            line="return lax.cond(x.shape[0] >= 3, lambda v: v[:3], lambda v: v, x)",
            fixed="return x[:3] if x.shape[0] >= 3 else x",
            args=lambda: (np.arange(5, dtype=np.float32),))
def quill_first_three(x):
    # keep at most the first three readings; the length is known when the function is traced
    x = jnp.asarray(x)
    return lax.cond(x.shape[0] >= 3, lambda v: v[:3], lambda v: v, x)


@error_case(family="branches", fix="branch-types", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-lax-cond-classifier",
            line="return lax.cond(jnp.sum(x) > threshold, lambda: 1, lambda: -1.0)",
            fixed="return lax.cond(jnp.sum(x) > threshold, lambda: 1.0, lambda: -1.0)",
            args=lambda: (np.array([0.5, 0.75, 1.0], np.float32), 1.5))
def quill_vote(x, threshold):
    # +1 when the readings add up past the threshold, -1 otherwise
    return lax.cond(jnp.sum(x) > threshold, lambda: 1, lambda: -1.0)


@error_case(family="branches", fix="branch-operands", raises="TypeError",
            source="https://jax.readthedocs.io/en/latest/_autosummary/jax.lax.cond.html",
            line="return lax.cond(flag > 0, lambda: 23.0, lambda: 42.0, jnp.asarray(payload))",
            fixed="return lax.cond(flag > 0, lambda _: 23.0, lambda _: 42.0, jnp.asarray(payload))",
            args=lambda: (1, np.ones(2, np.float32)))
def quill_pick_constant(flag, payload):
    # the branches ignore the payload, but it is handed to cond anyway
    return lax.cond(flag > 0, lambda: 23.0, lambda: 42.0, jnp.asarray(payload))


@error_case(family="branches", fix="select-where", raises="TypeError",
            source="https://openillumi.com/en/en-jax-where-select-difference",
            line="return lax.select(counts > 3, counts, jnp.full(counts.shape, fill))",
            fixed="return jnp.where(counts > 3, counts, jnp.full(counts.shape, fill))",
            args=lambda: (np.array([1, 5, 2, 8], np.int32), 0.5))
def quill_floor_counts(counts, fill):
    # small counts are replaced by a fractional placeholder
    counts = jnp.asarray(counts)
    return lax.select(counts > 3, counts, jnp.full(counts.shape, fill))


@error_case(family="branches", fix="select-broadcast-b15b", raises="TypeError",
            source="https://jax.readthedocs.io/en/latest/_autosummary/jax.lax.select.html",
            line="return lax.select(keep, grid, jnp.zeros_like(grid))",
            fixed="return lax.select(jnp.broadcast_to(keep[:, None], grid.shape), grid, jnp.zeros_like(grid))",
            args=lambda: (np.array([True, False, True]), np.arange(6, dtype=np.float32).reshape(3, 2)))
def quill_mask_rows(keep, grid):
    # one flag per row of the grid
    keep, grid = jnp.asarray(keep), jnp.asarray(grid)
    return lax.select(keep, grid, jnp.zeros_like(grid))


@error_case(family="branches", fix="jnp-select-b18b", raises="ValueError",
            source="https://errorhandle.ai/equivalent-of-jax-lax-cond-for-multiple-boolean-conditions",
            line="return v if v < 0 else (2 * v if v < 1 else 3 * v)",
            fixed="return jnp.select([v < 0, v < 1], [v, 2 * v], default=3 * v)",
            args=lambda: (np.array([-0.5, 0.5, 1.5], np.float32),))
def quill_three_slopes(x):
    @jax.jit
    def ramp(v):
        return v if v < 0 else (2 * v if v < 1 else 3 * v)
    return ramp(jnp.asarray(x))


# ---- part c


# ---------------------------------------------------------------------------------------------------------- pytrees

@error_case(family="pytrees", fix="tree-same-structure", raises="ValueError",
            source="https://crackedaicode.com/problems/jax-pytree-map",
            line="blended = jax.tree.map(lambda p, s: decay * s + (1 - decay) * p, params, shadow)",
            fixed="blended = jax.tree.map(lambda p, s: decay * s + (1 - decay) * p, params, "
                  "jax.tree.unflatten(jax.tree.structure(params), shadow))",
            args=lambda: ({"w": np.ones((2, 3), np.float32), "b": np.zeros(3, np.float32)}, 0.9))
def kelp_ema_against_flat_copy(params, decay):
    shadow = tuple(jnp.asarray(leaf) * 0.5 for leaf in jax.tree.leaves(params))
    blended = jax.tree.map(lambda p, s: decay * s + (1 - decay) * p, params, shadow)
    return jax.tree.leaves(blended)


@error_case(family="pytrees", fix="none-leaf", raises="ValueError",
            source="https://crackedaicode.com/problems/jax-pytree-leaves",
            line="masked = jax.tree.map(lambda m, g: g * m, mask, grads)",
            fixed="masked = jax.tree.map(lambda m, g: jnp.zeros_like(g) if m is None else g * m, mask, grads, "
                  "is_leaf=lambda x: x is None)",
            args=lambda: ({"kernel": np.ones((2, 2), np.float32), "bias": np.ones(2, np.float32)},))
def kelp_mask_with_none_entries(grads):
    mask = {"kernel": 1.0, "bias": None}
    masked = jax.tree.map(lambda m, g: g * m, mask, grads)
    return masked["kernel"]


@error_case(family="pytrees", fix="own-treedef-b18c", raises="ValueError",
            source="https://crackedaicode.com/problems/jax-tree-flatten-unflatten",
            line="rebuilt = jax.tree.unflatten(template_def, leaves)",
            fixed="rebuilt = jax.tree.unflatten(treedef, leaves)",
            args=lambda: ({"enc": np.ones(3, np.float32), "dec": np.ones(2, np.float32)},))
def kelp_unflatten_with_other_treedef(weights):
    leaves, treedef = jax.tree.flatten(weights)
    template_def = jax.tree.structure({"enc": 0, "dec": 0, "head": 0})
    leaves = [2.0 * leaf for leaf in leaves]
    rebuilt = jax.tree.unflatten(template_def, leaves)
    return rebuilt["enc"]


@error_case(family="pytrees", fix="non-array-leaf", raises="TypeError",
            source="https://docs.kidger.site/equinox/faq/",
            line="moments = jax.tree.map(jnp.zeros_like, model)",
            fixed="moments = jax.tree.map(jnp.zeros_like, jax.tree.map(lambda v: v if isinstance(v, jax.Array) "
                  "else None, model))",
            args=lambda: (np.ones((3, 2), np.float32), np.zeros(2, np.float32)))
def kelp_optimizer_state_over_function_leaf(weight, bias):
    model = {"weight": jnp.asarray(weight), "bias": jnp.asarray(bias), "activation": jax.nn.relu}
    moments = jax.tree.map(jnp.zeros_like, model)
    return moments["weight"]


@error_case(family="pytrees", fix="static-arg", raises="TypeError",
            source="https://github.com/BirkhoffG/jax-dataloader/issues/2",
            line="head = jax.jit(first_batch)(loader, scale)",
            fixed='head = jax.jit(first_batch, static_argnames=["loader"])(loader, scale)',
            args=lambda: (np.arange(12.0, dtype=np.float32).reshape(6, 2), 3, 0.5))
def kelp_loader_object_into_jit(data, batch_size, scale):
    class BatchLoader:
        def __init__(self, rows, size):
            self.rows = rows
            self.size = size

        def head(self):
            return self.rows[: self.size]

    def first_batch(loader, s):
        return jnp.asarray(loader.head()) * s

    loader = BatchLoader(data, batch_size)
    head = jax.jit(first_batch)(loader, scale)
    return head


@error_case(family="pytrees", fix="all-args-b18c", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/15728",
            line="total = summed(left)",
            fixed="total = summed(left, right)",
            args=lambda: (np.arange(8.0, dtype=np.float32), np.ones(8, np.float32)))
def kelp_shard_map_missing_argument(left, right):
    mesh = jax.sharding.Mesh(np.array(jax.devices()[:1]), ("rows",))
    spec = jax.sharding.PartitionSpec("rows")
    summed = jax.shard_map(lambda a, b: a + b, mesh=mesh, in_specs=(spec, spec), out_specs=spec)
    total = summed(left)
    return total


@error_case(family="pytrees", fix="register-pytree", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.register_pytree_node.html",
            line="out = jax.jit(combined)(stash)",
            fixed='out = jax.jit(combined)(jax.tree_util.register_dataclass(Stash, data_fields=["lo", "hi"], '
                  'meta_fields=["count"])(stash.lo, stash.hi, stash.count))',
            args=lambda: (4,))
def kelp_unregistered_container_into_jit(count):
    @dataclasses.dataclass
    class Stash:
        lo: jax.Array
        hi: jax.Array
        count: int

    def combined(s):
        return s.lo + s.hi + jnp.arange(s.count)

    stash = Stash(jnp.zeros(count), jnp.ones(count), count)
    out = jax.jit(combined)(stash)
    return out


# ------------------------------------------------------------------------------------------------------------- keys

@error_case(family="keys", fix="permutation-not-shuffle", raises="AttributeError",
            source="https://github.com/jax-ml/jax/pull/2925",
            line="order = jax.random.shuffle(key, jnp.arange(n_rows))",
            fixed="order = jax.random.permutation(key, jnp.arange(n_rows))",
            args=lambda: (np.arange(10.0, dtype=np.float32).reshape(5, 2), 4))
def kelp_shuffle_rows(rows, seed):
    key = jax.random.key(seed)
    n_rows = rows.shape[0]
    order = jax.random.shuffle(key, jnp.arange(n_rows))
    return jnp.asarray(rows)[order]


@error_case(family="keys", fix="key-one-style", raises="TypeError",
            source="https://github.com/google-deepmind/treescope/pull/73",
            line="snapshot = np.asarray(keys)",
            fixed="snapshot = np.asarray(jax.random.key_data(keys))",
            args=lambda: (5, 4))
def kelp_keys_to_numpy(seed, count):
    keys = jax.random.split(jax.random.key(seed), count)
    snapshot = np.asarray(keys)
    return snapshot.shape


@error_case(family="keys", fix="single-key-b18c", raises="ValueError",
            source="https://github.com/liukidar/pcx/issues/91",
            line="layer_key, next_key = jax.random.split(keys)",
            fixed="layer_key, next_key = jax.random.split(keys[0])",
            args=lambda: (7, np.ones((4, 3), np.float32)))
def kelp_split_key_with_stray_axis(seed, xs):
    base = jax.random.key(seed)
    keys = jnp.broadcast_to(base, (xs.shape[0],))  # the key tiled over the batch for a vmapped step
    noisy = jax.vmap(lambda k, x: x + jax.random.normal(k, x.shape))(keys, xs)
    layer_key, next_key = jax.random.split(keys)
    return noisy + jax.random.normal(layer_key, (3,))


@error_case(family="keys", fix="static-python-value", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-deterministic-batch-with-keys",
            line="batch = jax.vmap(lambda k: jax.random.normal(k, (n,)))(keys)",
            fixed="batch = jax.vmap(lambda k: jax.random.normal(k, (int(n),)))(keys)",
            args=lambda: (0, 4, 3.0))
def kelp_vmapped_draw_float_length(seed, batch_size, n):
    keys = jax.random.split(jax.random.PRNGKey(seed), batch_size)
    batch = jax.vmap(lambda k: jax.random.normal(k, (n,)))(keys)
    return batch


@error_case(family="keys", fix="shape-tuple", raises="TypeError",
            source="https://github.com/aesara-devs/aesara/issues/702",
            line="draws = jax.jit(lambda k, s: jax.random.normal(k, s))(key, size)",
            fixed="draws = jax.jit(lambda k: jax.random.normal(k, tuple(size)))(key)",
            args=lambda: (11, np.array([4, 2])))
def kelp_traced_sample_shape(seed, size):
    key = jax.random.key(seed)
    draws = jax.jit(lambda k, s: jax.random.normal(k, s))(key, size)
    return draws


@error_case(family="keys", fix="int-seed-b16c", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-prngkey-fold-in",
            line="base_key = jax.random.PRNGKey(seed)",
            fixed="base_key = jax.random.PRNGKey(int(seed))",
            args=lambda: (np.float64(3.0), 3))
def kelp_float_seed_per_step(seed, n_steps):
    base_key = jax.random.PRNGKey(seed)
    rows = [jax.random.normal(jax.random.fold_in(base_key, step), (2,)) for step in range(n_steps)]
    return jnp.stack(rows)


# ---- part d


@error_case(family="custom-rules", fix="defjvp-not-defjvps-b18d", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.custom_jvp.defjvps.html",
            line="powk.defjvps(lambda v_dot, out, v, n: n * v ** (n - 1) * v_dot)",
            fixed="powk.defjvp(lambda n, primals, tangents: (powk(primals[0], n), n * primals[0] ** (n - 1) * tangents[0]))",
            args=lambda: (1.5, 3))
def mosk_power_rule(x, k):
    # the exponent is a Python int, so it is marked non-differentiable
    @functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
    def powk(v, n):
        return v ** n
    powk.defjvps(lambda v_dot, out, v, n: n * v ** (n - 1) * v_dot)
    return jax.grad(powk)(x, k)


@error_case(family="custom-rules", fix="jvp-pair", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.custom_jvp.defjvp.html",
            line="return jax.grad(attach(lambda p, t: jax.nn.sigmoid(p[0]) * t[0]))(x)",
            fixed="return jax.grad(attach(lambda p, t: (soft(p[0]), jax.nn.sigmoid(p[0]) * t[0])))(x)",
            args=lambda: (0.25,))
def mosk_softplus_tangent(x):
    @jax.custom_jvp
    def soft(v):
        return jnp.log1p(jnp.exp(v))

    def attach(rule):
        soft.defjvp(rule)
        return soft
    # the rule hands back only the tangent
    return jax.grad(attach(lambda p, t: jax.nn.sigmoid(p[0]) * t[0]))(x)


@error_case(family="custom-rules", fix="custom-gradient-pair-b18d", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.custom_gradient.html",
            line="return jax.grad(jax.custom_gradient(lambda v: jnp.sin(v) * 2.0))(x)",
            fixed="return jax.grad(jax.custom_gradient(lambda v: (jnp.sin(v) * 2.0, lambda g: (g * 2.0 * jnp.cos(v),))))(x)",
            args=lambda: (0.5,))
def mosk_wave_slope(x):
    # custom_gradient used like a plain decorator: the function returns only its value
    return jax.grad(jax.custom_gradient(lambda v: jnp.sin(v) * 2.0))(x)


@error_case(family="shapes", fix="concat-shapes", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.numpy.concatenate.html",
            line="return jnp.concatenate([feats, ones])",
            fixed="return jnp.concatenate([feats, ones], axis=1)",
            args=lambda: (np.arange(12.0, dtype=np.float32).reshape(4, 3),))
def mosk_bias_column(feats):
    # append a column of ones to a (rows, features) design matrix
    ones = jnp.ones((feats.shape[0], 1), feats.dtype)
    return jnp.concatenate([feats, ones])


@error_case(family="shapes", fix="split-sections", raises="ValueError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.numpy.split.html",
            line="chunks = jnp.split(signal, 4)",
            fixed="chunks = jnp.array_split(signal, 4)",
            args=lambda: (np.arange(10.0, dtype=np.float32),))
def mosk_chunk_means(signal):
    # ten samples into four windows
    chunks = jnp.split(signal, 4)
    return jnp.stack([c.mean() for c in chunks])


@error_case(family="shapes", fix="static-arg", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.lax.dynamic_slice.html",
            line="return jax.jit(lambda a, k: jnp.sum(lax.dynamic_slice(a, (0,), (k,))))(vals, count)",
            fixed="return jax.jit(lambda a, k: jnp.sum(lax.dynamic_slice(a, (0,), (k,))), static_argnums=1)(vals, count)",
            args=lambda: (np.arange(8.0, dtype=np.float32), 3))
def mosk_prefix_total(vals, count):
    # the slice length comes in as a traced argument of the jitted function
    return jax.jit(lambda a, k: jnp.sum(lax.dynamic_slice(a, (0,), (k,))))(vals, count)


@error_case(family="shapes", fix="reshape-size", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.numpy.reshape.html",
            line="grid = jnp.reshape(px, (4, 4))",
            fixed="grid = jnp.reshape(px, (-1, 4))",
            args=lambda: (np.arange(12.0, dtype=np.float32),))
def mosk_pixel_rows(pixels):
    # twelve pixels, four per row: the row count is guessed instead of inferred
    px = jnp.asarray(pixels)
    grid = jnp.reshape(px, (4, 4))
    return grid.sum(axis=1)


@error_case(family="shapes", fix="pad-width-rank", raises="ValueError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.numpy.pad.html",
            line="return jnp.pad(img, ((1, 1), (1, 1), (0, 0)))",
            fixed="return jnp.pad(img, ((1, 1), (1, 1)))",
            args=lambda: (np.ones((3, 4), np.float32),))
def mosk_frame_gray(img):
    # the padding written for (height, width, channels) images, applied to a grayscale (height, width) one
    return jnp.pad(img, ((1, 1), (1, 1), (0, 0)))


@error_case(family="other", fix="at-set", raises="TypeError",
            source="https://openillumi.com/?p=88376",
            line="q[q < 0] = 0.0",
            fixed="q = q.at[q < 0].set(0.0)",
            args=lambda: (np.array([0.5, -1.0, 2.0, -0.25], np.float32),))
def mosk_clamp_negative(raw):
    # NumPy-style masked assignment ported as is
    q = jnp.asarray(raw)
    q[q < 0] = 0.0
    return q


@error_case(family="other", fix="hashable-static-b15d", raises="ValueError",
            source="https://openillumi.com/?p=109430",
            line="return summed(cube, axes=[0, 2])",
            fixed="return summed(cube, axes=(0, 2))",
            args=lambda: (np.ones((2, 3, 4), np.float32),))
def mosk_reduce_axes(cube):
    summed = jax.jit(lambda c, axes: c.sum(axis=axes), static_argnames="axes")
    # the static argument is a list
    return summed(cube, axes=[0, 2])


@error_case(family="other", fix="supported-dtype-b18d", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/5091",
            line="return jnp.asarray(readings) * 2.0",
            fixed="return jnp.asarray(readings.astype(np.float64)) * 2.0",
            args=lambda: ([1.0, 2.5, 4.0],))
def mosk_long_readings(values):
    # host data kept in extended precision before it reaches JAX
    readings = np.asarray(values, dtype=np.longdouble)
    return jnp.asarray(readings) * 2.0


@error_case(family="other", fix="int-shape-b18d", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/1822",
            line="pad = jnp.zeros(signal.shape[0] / 2)",
            fixed="pad = jnp.zeros(signal.shape[0] // 2)",
            args=lambda: (np.arange(6.0, dtype=np.float32),))
def mosk_half_padding(signal):
    # pad with half as many zeros as there are samples
    pad = jnp.zeros(signal.shape[0] / 2)
    return jnp.concatenate([signal, pad])


@error_case(family="other", fix="size", raises="ConcretizationTypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.numpy.union1d.html",
            line="return jax.jit(lambda a, b: jnp.union1d(a, b))(tags_a, tags_b)",
            fixed="return jax.jit(lambda a, b: jnp.union1d(a, b, size=8))(tags_a, tags_b)",
            args=lambda: (np.array([1, 3, 5, 7], np.int32), np.array([3, 4, 5, 6], np.int32)))
def mosk_merged_tags(tags_a, tags_b):
    # the union's length depends on the values, and the call is jitted
    return jax.jit(lambda a, b: jnp.union1d(a, b))(tags_a, tags_b)
