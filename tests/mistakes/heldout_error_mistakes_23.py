"""A twenty-third held-out batch of JAX errors outside jit, written by four blind helper sessions at once
(vmap and grad; loops and branches; pytrees and keys; custom rules, shapes and other) that never opened
the rules under `autograder/` nor any message the course prints, from the brief of the fifteenth to
twenty-second batches (one public source per case, none cited by an earlier batch; each part checked with
`check_error_cases.py --part`), so that its first run measures the rules on mistakes they were not written
from. Uncited tracker threads that still fail on the pinned JAX are running out: more of this batch's
sources than before are teaching pages and JAX's own API pages, which state a pitfall and its fix rather
than show one user's failure (each part says which). Each part's own account follows, as its helper wrote it.

## Part a

Part a of the twenty-third held-out batch (families vmap and grad), written by a blind helper session that never
opened the rules under `autograder/` nor any message the course prints.

How the cases were found: the `issues` corpus was queried first, by error text and by topic (scalar-output grad, integer
inputs, jvp/vjp argument mismatches, QR/SVD derivatives, vmap in_axes, concretization under vmap, has_aux), and every
candidate address was checked against the `source=` lines of all files in tests/mistakes/. The JAX tracker is mined out
for these two families (nearly every vmap/grad thread the searches returned was already cited, and the one uncited
candidate with a clear fix, jax#22264 on QR in complete mode, no longer fails on the pinned JAX). So the sources are
JAX's own API pages that state a constraint together with the way to meet it, a course page, an exercise page, and two
tutorial notebooks on GitHub that show the mistake and the right call side by side; each reduction was run on the
pinned JAX before it was kept. Code, names and numbers are my own.

vmap
- docs.jax.dev jax.numpy.repeat (JAX API page): `total_repeat_length` "must be specified statically for jnp.repeat to be
  compatible with jit() and other JAX transformations"; per-row repeat counts under vmap (`total-repeat-length`).
- docs.jax.dev jax.numpy.argwhere (JAX API page): the output size is data-dependent, so under transformations the
  static `size` argument is needed; argwhere of a mapped grid (`size`).
- docs.jax.dev jax.lax.dynamic_slice_in_dim (JAX API page): `start_index` may be dynamic, `slice_size` is "the static
  slice size"; windows whose width travels in the mapped (start, width) pairs. New category `static-slice-size-b23a`.
- docs.jax.dev jax.lax.all_gather (JAX API page): `x` must have "a mapped axis named axis_name", the name given to the
  mapped axis by the mapping transformation; all_gather inside a vmap that never names its axis, fixed by binding the
  name with vmap's `axis_name=` (`vmap-axis-name`).
- crackedaicode.com "Nested vmap (vmap-of-vmap)" (exercise page): an all-pairs table over two sets of different sizes
  needs one vmap per set, the inner one fixing x (None) and mapping y, the outer one mapping x; a single vmap over both
  sets fails on their different lengths (`vmap-nested`).
- mridul-sahu/baking-with-jax-autodiff (tutorial notebook on GitHub, section "per-customer gradients"): a gradient
  function mapped over a batch of targets while the ingredients stay shared needs `in_axes=(None, 0)`
  (`vmap-in-axes-none`). The error is raised with vmap around grad.

grad
- docs.jax.dev jax.vjp (JAX API page): the pullback takes "a cotangent vector with the same shape as primals_out";
  a bare 1.0 for a vector output, fixed with `jnp.ones_like(out)` (`tangent-like-primal`), and, second case from the
  same page, a single output's cotangent wrapped in a one-element tuple, fixed by passing the array itself. New
  category `cotangent-structure-b23a`.
- docs.jax.dev jax.linearize (JAX API page): the signature is `linearize(fun, *primals)`; the primals packed into one
  tuple leave the function one argument short (`vjp-unpacked`).
- mridul-sahu/baking-with-jax-autodiff (tutorial notebook, "Exotic Flavors"): a complex-to-complex function "must use
  holomorphic=True"; plain grad of it fails (`holomorphic-flag`).
- BKris2315/CleanCodeAndDirtyTricks, jax_tutorials/gradients-and-jacobians-in-jax.ipynb (a copy of the Kaggle
  tutorial "Gradients and Jacobians in JAX"): with integer coefficients first in the signature the tutorial passes
  `argnums=1` to differentiate with respect to the point (`grad-argnums`); and it states that grad only works on
  functions that return one scalar, its paraboloid reducing with `jnp.sum` (`grad-scalar`).
- apxml.com "Getting started with JAX", chapter 3, "grad limitations" (course page): integer casting inside a
  differentiated function; the page's own function casts the squared integer result back with `.astype(jnp.float32)`
  before returning it, so that grad gets the floating-point output it requires. Here the cast back is missing and grad
  rejects the int32 output. New category `float-output-b23a`. (The page's point is that the gradient through such a
  cast is zero; the fix shown only makes the call legal.)

New categories (patterns written from the fixes alone):
- `static-slice-size-b23a`: give `dynamic_slice_in_dim` / `dynamic_slice` a static (Python int) slice size; only the
  start index may be traced.
- `float-output-b23a`: give the differentiated function a floating-point output (cast the integer result back with
  `.astype(jnp.float32)`, or drop the integer cast).
- `cotangent-structure-b23a`: the cotangent handed to a vjp pullback has the structure of the primal output (here a
  bare array), not that output wrapped in a tuple.

Caveats: the API and course pages state the constraint and show correct calls rather than a user's failing code, so
each failing line is my reduction of the stated pitfall, and each `fixed` is the page's own call pattern. 13 cases:
6 vmap, 7 grad, from 10 sources (the jax.vjp page and two notebooks give two cases each). A vmap case from the
jax.numpy.extract page (size= under vmap) was dropped because part b of this batch cites that page for the same error
and fix under jit.

## Part b

Part b of the twenty-third held-out batch (families loops and branches), written by a blind helper session that never
opened the rules under `autograder/` nor any message the course prints.

How the cases were found: I collected every `source=` address cited in tests/mistakes/ (about 1080) and checked each
candidate against it (repository and number, issue or PR alike, and the page address for docs and tutorials). I searched
the `issues` corpus by error text and topic (while_loop/fori_loop/scan carries, reverse mode, bounds; cond/switch/select
predicates, branch outputs) and library trackers (gymnax, brax, evojax, purejaxrl, equinox, jax-md, Mava), then the
`pages` and `docs` corpora for teaching pages and API pages that state a pitfall with its fix. The JAX tracker and the
usual teaching sites (crackedaicode, openillumi, apxml, theneuralbase, errorhandle, code-examples) are close to mined
out for these two families: nearly every loop or branch thread that still fails on 0.10.2 was already cited (jax#8605,
#1686, #22045, #25140, #11810, #23228, gymnax#52, brax#228, jax-md#99, equinox#987, ...). So one source is a JAX issue,
one a JAX PR, and the other eleven are documentation or book pages (kind marked below). Every reduction was run on the
pinned JAX before it was kept; code, names and numbers are my own.

Loops
- jax-ml/jax#2469 (JAX issue, "while_loop with a maximum number of iterations to allow reverse differentiation"):
  `jax.grad` through a data-dependent `lax.while_loop`; the thread's recipe (carlosgmartin) is a `lax.scan` of a fixed
  length whose body applies the step under `lax.cond(cond_fun(val), ...)` (`static-loop-bounds`).
- jax-ml/jax PR #6549 (JAX PR, "enable fori-to-scan lowering"): a `fori_loop` with static bounds lowers to `scan` and is
  reverse-differentiable; here the bound is wrapped as `jnp.int32(v.shape[0])` inside `jit(grad(...))`, which makes it
  dynamic; the fix passes the Python int `v.shape[0]` (`loop-int-bounds`).
- livebook.manning.com ShapedArray concept page (book page, Deep Learning with JAX): loops whose bound uses a traced
  value raise TracerIntegerConversionError; `range(n)` over a jitted argument, fixed by keeping the argument static
  (`static_argnums`, the page's "static arguments") (`static-arg`).
- livebook.manning.com "Code compilation" concept page (book page, Deep Learning with JAX): an input-dependent Python
  loop bound under jit; the page's replacement is `jax.lax.fori_loop` (`fori_loop`).
- docs.jax.dev tracing.html (JAX guide page, "Different kinds of JAX values"): control-flow primitives give their bodies
  abstract tracers, so a Python conditional on a value that rides in a `fori_loop` carry fails even without jit; the page
  says such a value must stay a regular Python value; the fix (carry only the changing value and close over the
  constant divisor) is my reading of that (`close-over`).
Branches
- docs.jax.dev jax.numpy.choose (JAX API page): "the default mode of 'raise' is not compatible with JAX
  transformations"; `jnp.choose` under jit, fixed with `mode='clip'` (`take-mode`).
- livebook.manning.com Lax.cond concept page (book page, Deep Learning with JAX): a hand-written ReLU with a Python
  conditional on a traced value; the page's form is `jax.lax.cond(x > 0, lambda x: x, lambda x: 0.0, x)` (`cond`).
- docs.jax.dev jax.ensure_compile_time_eval (JAX API page): a branch decided by a value computed from constants with
  `jnp` inside jit; the page's fix evaluates it inside `with jax.ensure_compile_time_eval():`. New category
  `compile-time-eval-b23b`.
- docs.kidger.site/equinox/api/debug (library documentation page, Equinox "Common sources of NaNs"): `jnp.where(x > 0,
  jnp.log(x), 0)` gives a NaN gradient; the page's fix is the double where. The NaN is made to raise with
  `jax.debug_nans(True)` (FloatingPointError) (`double-where-b20b`).
- docs.jax.dev jax.checkpoint (JAX API page): a Python branch on an `is_training` argument of a checkpointed function;
  the page's fix is `static_argnums` (`static-arg`).
- docs.jax.dev jax.numpy.apply_along_axis (JAX API page): JAX implements it with `vmap`, so `func1d` must be compatible
  with vmap; a per-row Python conditional fails; fix inferred: `jnp.where` (`where`).
Other
- livebook.manning.com jax.lax concept page (book page, Deep Learning with JAX): lax needs explicit promotion, unlike
  `jnp.add`; `lax.add` of int32 and float32, fixed with an explicit cast (`explicit-promotion-b17d`).
- docs.jax.dev jax.numpy.extract (JAX API page): `size` must be given for `extract` under jit (`size`).

New category (pattern written from the source's fix alone):
- "compile-time-eval-b23b": evaluate the constant computation eagerly with `jax.ensure_compile_time_eval`.

Caveats and shortfall: 13 cases, 5 loops / 6 branches / 2 other, one short of the loops count asked: uncited loop threads
that still fail on 0.10.2 were the scarcest thing in this search. `fixed` is inferred rather than shown for the tracing
page (close over the constant), apply_along_axis (jnp.where), the ShapedArray page (static_argnums for a loop bound; the
page names static arguments for conditionals) and PR #6549 (Python-int bound). The Code-compilation and ShapedArray pages
come from the same book section as the already-cited Lax.fori_loop and Structured-control-flow pages, but are distinct
pages with their own statements. Several cases put the transform call and the offending loop, bound or conditional on
one line (jax#2469, PR #6549, ShapedArray, tracing, choose, checkpoint, extract), because JAX raises at the transform
call and the fix changes that call; the ensure_compile_time_eval fix uses a one-line `with` statement and an explicit
`bool(...)` so that the raising line is the one the fix wraps. Dropped: gymnax#111 (needs x64), jax-gcm#797 (x64),
Mava#1184 (needs two devices), several threads found already cited.

## Part c

Part c of the twenty-third held-out batch (families pytrees and keys), written by a blind helper session that never
opened the rules under `autograder/` nor any message the course prints.

How the cases were found: every `source=` of the case files in tests/mistakes/ was collected first (1,078 addresses),
and each candidate was checked against that list by repository and number (issues and pulls alike) or by exact page
address. I then listed, on the pinned JAX (0.10.2), which key and pytree misuses still raise outside jit (about 80
probes), and searched the `issues`, `docs` and `pages` corpora for a public source stating each one with its fix.
The JAX tracker is close to mined out for these two families (nearly every pytree/PRNG thread the searches returned
was already cited), so ten of the thirteen sources are JAX API reference pages (marked "API page"), each stating the
contract the mistake breaks, with the fix the page's own signature or example implies; the other three are a JAX
issue, a library pull request and a tutorial blog post. Code, names and numbers are my own; every reduction and every
fixed line was run on the pinned JAX before it was kept.

keys
- API page jax.random.uniform (bounds are `minval`/`maxval`): NumPy's `low=`/`high=` raise TypeError (unexpected
  keyword); fix `minval=lo, maxval=hi`. New category `minval-maxval-b23c`.
- jax#4549 (JAX issue; mattjj: `jax.random` does not follow NumPy's API, its samplers take `shape`): NumPy's
  `size=(n, 3)` raises TypeError; fix `shape=(n, 3)`. New category `shape-not-size-b23c`.
- API page jax.random.choice (`p` gives the probabilities of the entries along `axis`, default 0, "selects by row"):
  per-column probabilities on a (3, 5) table without `axis=1` raise ValueError; fix `axis=1` (`choice-axis-b19c`).
- API page jax.random.multivariate_normal (`cov` has shape (..., n, n)): a 1-D vector of variances raises
  ValueError; fix `jnp.diag(spread)`. New category `diag-cov-b23c`; the diag is inferred from the page's contract.
- blog.csdn.net/qq_27390023/article/details/135712112 (tutorial post on fold_in: one integer is folded per call, a
  batch of data goes through `jax.vmap`): `fold_in(base, steps)` with an array raises TypeError; fix
  `jax.vmap(lambda s: jax.random.fold_in(base, s))(steps)`. New category `vmap-fold-in-b23c`.
- API page jax.random.key_data (recovers the raw bits under a typed key): `np.asarray` of a typed key raises
  TypeError; fix `np.asarray(jax.random.key_data(sub))` (`key-one-style`).
- API page jax.random.key (returns a scalar key array, to be consumed by `split`/`fold_in`): `key, sub = key` raises
  TypeError (iteration over a 0-d key array); fix `jax.random.split(key)` (`split-fresh-key-b15c`).

pytrees
- API page jax.tree.all (calls Python's all() over the leaves; the examples are bool leaves): a tree of boolean
  arrays raises ValueError (ambiguous truth value); fix: reduce each leaf with `jnp.all` first. New category
  `bool-leaves-b23c`; the per-leaf reduction is inferred from the page's contract.
- API page jax.tree.map_with_path (f takes the key path first, then the leaf): a one-argument lambda raises TypeError;
  fix `lambda path, leaf: ...`. New category `path-first-b23c`.
- API page jax.flatten_util.ravel_pytree (the unravel callable takes a 1-D vector of the same length as the raveled
  one): a vector sized from one leaf raises ValueError; fix `jnp.zeros(flat.shape[0])`. New category
  `unravel-length-b23c`.
- API page jax.tree.reduce (the function is Callable[[T, Any], T], called on accumulator and leaf):
  `jax.tree.reduce(jnp.sum, grads)` raises TypeError (the second leaf lands in `axis`); fix
  `lambda acc, g: acc + jnp.sum(g)` with initializer 0.0. New category `binary-reducer-b23c`.
- PyAutoLabs/PyAutoGalaxy PR #352 (library PR: a `functools.partial` body handed to a jitted scan fails with "Error
  interpreting argument ... as an abstract array"; the fix restores `jax.tree_util.Partial`): TypeError at the
  jitted call; fix `jax.tree_util.Partial(body, rate)` (`tree-partial-b17c`).
- API page jax.tree.transpose (outer_treedef describes only the outer container, e.g. `structure(['*', '*'])`): the
  treedef of the whole tree as outer_treedef raises TypeError ("Mismatch"); fix
  `jax.tree.structure([0] * len(rows))`. New category `outer-only-treedef-b23c`.

New categories (patterns written from the sources' fixes alone, before any message was read):
- "minval-maxval-b23c": name the bounds of jax.random.uniform `minval`/`maxval`.
- "shape-not-size-b23c": pass the output shape as `shape=`, not NumPy's `size=`.
- "diag-cov-b23c": build the full (n, n) covariance with `jnp.diag` from per-coordinate variances.
- "vmap-fold-in-b23c": fold a batch of integers into a key by vmapping fold_in.
- "bool-leaves-b23c": map each array leaf to one bool (jnp.all) before jax.tree.all.
- "path-first-b23c": the map_with_path function takes the key path first, then the leaf.
- "unravel-length-b23c": give the unravel function a flat vector of the raveled length.
- "binary-reducer-b23c": jax.tree.reduce's function takes (accumulator, leaf).
- "outer-only-treedef-b23c": outer_treedef is the structure of the outer container only.

Caveats: most sources are API pages rather than one user's report, so the mistake is my reduction of the contract
the page states; `fixed` for the multivariate_normal, tree.all and ravel_pytree cases is inferred from that
contract. No case from the `other` family. Thirteen cases, seven keys and six pytrees, as asked.

## Part d

Part d of the twenty-third held-out batch (families custom-rules, shapes and other), written by a blind helper
session that never opened the rules under `autograder/` nor any message the course prints.

How the cases were found: I listed every `source=` address cited in tests/mistakes/ (about 1,080; GitHub numbers
compared under both google/jax and jax-ml/jax, issue and pull alike) and the addresses of parts b and c of this batch
(none shared), probed on the pinned JAX 0.10.2 about a hundred custom-rule, shape and API mistakes to see which still
raise, and then searched the `issues`, `pages` and `docs` corpora for a source that states each mistake with its fix.
Uncited custom_jvp/custom_vjp threads that still fail are nearly gone (every tracker thread the searches returned on
residuals, nondiff_argnums, forward mode of custom_vjp and bwd signatures was cited already), so two custom-rule cases
come from a teaching page and a library issue, and two from the API pages of the neighbouring custom-rule APIs
(lax.custom_root, lax.custom_linear_solve). Most shape and other cases come from JAX's own API pages, which state the
rule and the fix; one from a Manning liveBook concept page and one from a library PR. Code, names and numbers are mine;
where a rule has to be handed in, it is passed inline on the raising line (through a small `build`/`attach` helper),
so the line that raises is the line the fix changes.

custom-rules
- wick_saved_residuals: crackedaicode.com "Saved Residuals in custom_vjp" (teaching page; its pitfall list says the
  residual is one object and two separate residuals error, wrap them in a tuple): fwd returns (out, r1, r2) (TypeError,
  fwd must produce a pair) -> (out, (r1, r2)) (fwd-pair).
- wick_forward_spectral: astro-informatics/s2fft#165 (library issue: their custom_vjp limits the code to reverse mode;
  the answer recommends custom_jvp instead): jax.jacfwd of a custom_vjp function (TypeError, can't apply forward-mode
  autodiff) -> decorate with jax.custom_jvp (use-custom-jvp-b10d). The helper picks defjvp or defvjp by the decorator
  so the switch sits on one line.
- wick_implicit_sqrt: jax.lax.custom_root API page (tangent_solve takes two positional arguments, a linear function g
  and y; "for scalar y, use lambda g, y: y / g(1.0)"): a tangent_solve written as `lambda y: ...` (TypeError under grad)
  -> the page's `lambda g, y: y / g(1.0)` (new tangent-solve-args-b23d).
- wick_solve_sensitivity: jax.lax.custom_linear_solve API page (transpose_solve is "required for backwards mode automatic
  differentiation, unless symmetric=True"): grad of a non-symmetric solve without transpose_solve (TypeError) -> pass
  transpose_solve solving with mat.T (new transpose-solve-b23d).

shapes
- wick_pool_images: jax.lax.reduce_window API page (window dimensions and strides are sequences over the operand's axes,
  strides of the same length as the window): 2x2 max pooling of NHWC images given `(2, 2)` (TypeError, wrong number of
  window_dimensions) -> `(1, 2, 2, 1)` for window and strides (new window-per-axis-b23d). `fixed` is inferred from the
  parameter rule; the page shows no pooling example.
- wick_batch_traces: jax.numpy.diag API page (v is a 1-D array, or a 2-D array to extract a diagonal): diag of a stack of
  matrices (ValueError, must be 1d or 2d) -> jnp.diagonal over axis1=-2, axis2=-1 (new diagonal-b23d). The fix comes
  from the sibling jnp.diagonal page (axis1/axis2), so it is inferred rather than printed on the diag page.
- wick_sample_contract: jax.numpy.tensordot API page (an int N contracts the last N axes of a with the first N of b; a
  pair of sequences names the axes of each): `axes=1` when both operands carry the summed axis first (TypeError,
  contracting dimensions differ) -> `axes=([0], [0])` (new tensordot-axes-b23d).
- wick_pooled_scores: jax.numpy.average API page (NumPy's rule: 1-D weights must have the length of `a` along the given
  axis): one weight per row without an axis (ValueError, axis must be specified when shapes differ) -> `axis=0` (new
  weights-axis-b23d). I read NumPy's text of the same parameter; the JAX page mirrors it.

other
- wick_rank_ages: jax.numpy.argsort API page ("kind: deprecated; instead specify sort algorithm using stable=True or
  stable=False"): `kind='stable'` (TypeError) -> `stable=True` (sort-stable).
- wick_lookup_prices: jax.numpy.take API page (mode is "fill" or "clip"): NumPy's `mode='raise'` (NotImplementedError)
  -> `mode='clip'` (take-mode).
- wick_place_on_host: Manning liveBook concept page "jax.device_put()" (Deep Learning with JAX: "pass a device such as
  jax.devices('cpu')[0]"): the platform name 'cpu' as the target (ValueError) -> jax.devices('cpu')[0] (cpu-platform).
  It runs the same with or without an accelerator: every machine has a CPU device.
- wick_chain_horizon: jax.numpy.linalg.matrix_power API page ("n (int) - the integer exponent"): a step count passed as
  the float 3.0 (TypeError, exponent must be an integer) -> int(horizon) (static-python-value).
- wick_bound_probs: google/hackable_diffusion PR #41 (library PR: "Replace jnp.clip(..., a_min=..., a_max=...) with
  jnp.clip(..., min=..., max=...)"; a_min/a_max are deprecated names, now removed): a_min/a_max (TypeError) ->
  min/max (clip-min-max).

New categories (patterns written from the sources' fixes alone): tangent-solve-args-b23d (custom_root's tangent_solve
takes the linearized function g and y); transpose-solve-b23d (supply transpose_solve, or symmetric=True, for reverse
mode through custom_linear_solve); window-per-axis-b23d (one reduce_window window size/stride per operand axis, 1 for
batch and channels); diagonal-b23d (jnp.diagonal over the last two axes, or vmap diag, for stacked matrices);
tensordot-axes-b23d (name the contracted axis of each operand with a pair of sequences); weights-axis-b23d (give
jnp.average the axis its 1-D weights run along).

Caveats: a lax.add case of mixed dtypes was dropped because part b has the same error and fix from another page; a
nondiff_argnums-with-tracers case was dropped for want of an uncited thread. Counts: custom-rules 4, shapes 4,
other 5 (13 in all).
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


# ---------------------------------------------------------------------------------------------------- vmap

@error_case(family="vmap", fix="total-repeat-length", raises="ConcretizationTypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.numpy.repeat.html",
            line="return jnp.repeat(row, counts)",
            fixed="return jnp.repeat(row, counts, total_repeat_length=6)",
            args=lambda: (np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=np.float32),
                          np.array([[2, 1, 3], [1, 4, 1]], dtype=np.int32)))
def brindle_stretch_runs(rows, counts_per_row):
    # each row's entries repeated by that row's own counts (every row's counts add up to six)
    def expand(row, counts):
        return jnp.repeat(row, counts)
    return jax.vmap(expand)(rows, counts_per_row)


@error_case(family="vmap", fix="size", raises="ConcretizationTypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.numpy.argwhere.html",
            line="return jnp.argwhere(grid > 0.5)",
            fixed="return jnp.argwhere(grid > 0.5, size=4, fill_value=-1)",
            args=lambda: (np.array([[[0.9, 0.1], [0.2, 0.7]],
                                    [[0.3, 0.8], [0.6, 0.4]],
                                    [[0.0, 0.2], [0.95, 0.1]]], dtype=np.float32),))
def brindle_hot_cells(grids):
    # the coordinates of the cells above threshold, one small grid per mapped entry
    def hot(grid):
        return jnp.argwhere(grid > 0.5)
    return jax.vmap(hot)(grids)


@error_case(family="vmap", fix="static-slice-size-b23a", raises="TracerIntegerConversionError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.lax.dynamic_slice_in_dim.html",
            line="return lax.dynamic_slice_in_dim(signal, span[0], span[1])",
            fixed="return lax.dynamic_slice_in_dim(signal, span[0], 2)",
            args=lambda: (np.arange(15, dtype=np.float32).reshape(3, 5),
                          np.array([[0, 2], [3, 2], [1, 2]], dtype=np.int32)))
def brindle_windows(signals, spans):
    # a window of every signal, its (start, width) pair stored alongside (all windows are two wide)
    def window(signal, span):
        return lax.dynamic_slice_in_dim(signal, span[0], span[1])
    return jax.vmap(window)(signals, spans)


@error_case(family="vmap", fix="vmap-axis-name", raises="NameError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.lax.all_gather.html",
            line="return jax.vmap(lambda r: r - jnp.mean(lax.all_gather(r, \"readings\"), axis=0))(table)",
            fixed="return jax.vmap(lambda r: r - jnp.mean(lax.all_gather(r, \"readings\"), axis=0), "
                  "axis_name=\"readings\")(table)",
            args=lambda: (np.array([[1.0, 4.0], [3.0, 2.0], [5.0, 0.0]], dtype=np.float32),))
def brindle_deviation(table):
    # every reading minus the mean of all readings, gathered across the mapped rows
    return jax.vmap(lambda r: r - jnp.mean(lax.all_gather(r, "readings"), axis=0))(table)


@error_case(family="vmap", fix="vmap-in-axes-none", raises="ValueError",
            source="https://github.com/mridul-sahu/baking-with-jax-autodiff/blob/main/Baking_with_JAX_Autodiff.ipynb",
            line="return jax.vmap(slope)(mix, targets)",
            fixed="return jax.vmap(slope, in_axes=(None, 0))(mix, targets)",
            args=lambda: (np.array([1.5, 0.8, 2.0], dtype=np.float32),
                          np.array([4.0, 4.5, 5.0, 3.5], dtype=np.float32)))
def brindle_taster_slopes(mix, targets):
    # one gradient of the squared flavour error per taster's target; the recipe mix is shared by all tasters
    weights = jnp.array([2.0, 0.5, 1.0])

    def flavour_error(m, target):
        return (jnp.dot(weights, m) - target) ** 2
    slope = jax.grad(flavour_error)
    return jax.vmap(slope)(mix, targets)


@error_case(family="vmap", fix="vmap-nested", raises="ValueError",
            source="https://crackedaicode.com/problems/jax-nested-vmap",
            line="return jax.vmap(gap)(stations, depots)",
            fixed="return jax.vmap(jax.vmap(gap, in_axes=(None, 0)), in_axes=(0, None))(stations, depots)",
            args=lambda: (np.array([[0.0, 0.0], [1.0, 2.0], [3.0, 1.0], [2.5, 4.0]], dtype=np.float32),
                          np.array([[1.0, 1.0], [4.0, 3.0]], dtype=np.float32)))
def brindle_depot_gaps(stations, depots):
    # the table of distances from every station to every depot (four stations, two depots)
    def gap(a, b):
        return jnp.sqrt(jnp.sum((a - b) ** 2))
    return jax.vmap(gap)(stations, depots)


# ---------------------------------------------------------------------------------------------------- grad

@error_case(family="grad", fix="tangent-like-primal", raises="ValueError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.vjp.html",
            line="back, = pullback(1.0)",
            fixed="back, = pullback(jnp.ones_like(out))",
            args=lambda: (np.array([0.3, 1.2, -0.8, 2.0], dtype=np.float32),))
def brindle_seeded_pullback(x):
    # the vector-Jacobian product of a damped wave, seeded with ones
    out, pullback = jax.vjp(lambda z: jnp.exp(-0.5 * z) * jnp.cos(z), x)
    back, = pullback(1.0)
    return back


@error_case(family="grad", fix="cotangent-structure-b23a", raises="ValueError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.vjp.html",
            line="back, = pullback((weights,))",
            fixed="back, = pullback(weights)",
            args=lambda: (np.array([0.5, -1.0, 1.5], dtype=np.float32),
                          np.array([1.0, 0.5, 2.0], dtype=np.float32)))
def brindle_weighted_pullback(x, weights):
    # a weighted sensitivity of a single-output softplus layer, the weights used as the cotangent
    out, pullback = jax.vjp(lambda z: jnp.log1p(jnp.exp(z)), x)
    back, = pullback((weights,))
    return back


@error_case(family="grad", fix="vjp-unpacked", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.linearize.html",
            line="value, push = jax.linearize(field, (pos, amp))",
            fixed="value, push = jax.linearize(field, pos, amp)",
            args=lambda: (np.array([0.2, 0.9], dtype=np.float32), np.array([1.5, 0.5], dtype=np.float32),
                          np.array([1.0, 0.0], dtype=np.float32), np.array([0.0, 1.0], dtype=np.float32)))
def brindle_linear_field(pos, amp, dpos, damp):
    # the linearised change of a two-argument field along a direction, pushed forward once
    def field(p, a):
        return a * jnp.sin(3.0 * p)
    value, push = jax.linearize(field, (pos, amp))
    return push(dpos, damp)


@error_case(family="grad", fix="holomorphic-flag", raises="TypeError",
            source="https://github.com/mridul-sahu/baking-with-jax-autodiff/blob/main/Baking_with_JAX_Autodiff.ipynb",
            line="return jax.grad(ripple)(z)",
            fixed="return jax.grad(ripple, holomorphic=True)(z)",
            args=lambda: (np.complex64(1.5 + 0.5j),))
def brindle_complex_slope(z):
    # the complex derivative of a polynomial ripple at one complex point
    def ripple(w):
        return w ** 3 - 2.0 * w
    return jax.grad(ripple)(z)


@error_case(family="grad", fix="grad-argnums", raises="TypeError",
            source="https://github.com/BKris2315/CleanCodeAndDirtyTricks/blob/main/02_optimize_that_snake/jax_tutorials/"
                   "gradients-and-jacobians-in-jax.ipynb",
            line="return jax.grad(bowl)(weights, point)",
            fixed="return jax.grad(bowl, argnums=1)(weights, point)",
            args=lambda: (np.array([2, 7, 1, 3], dtype=np.int32), np.array([1.0, -0.5, 2.5, 0.25], dtype=np.float32)))
def brindle_weighted_bowl(weights, point):
    # the slope of a weighted bowl at a point; the integer weights come first in the signature
    def bowl(w, x):
        return jnp.sum(w * x ** 2)
    return jax.grad(bowl)(weights, point)


@error_case(family="grad", fix="grad-scalar", raises="TypeError",
            source="https://github.com/BKris2315/CleanCodeAndDirtyTricks/blob/main/02_optimize_that_snake/jax_tutorials/"
                   "gradients-and-jacobians-in-jax.ipynb",
            line="slopes.append(jax.grad(lambda v: v ** 2 + 0.5 * v)(p))",
            fixed="slopes.append(jax.grad(lambda v: jnp.sum(v ** 2 + 0.5 * v))(p))",
            args=lambda: (np.array([[0.4, 1.1], [2.0, -0.3], [1.7, 0.6]], dtype=np.float32),))
def brindle_bowl_slopes(points):
    # the gradient of a shifted paraboloid at each of a few points, one point at a time
    slopes = []
    for p in points:
        slopes.append(jax.grad(lambda v: v ** 2 + 0.5 * v)(p))
    return jnp.stack(slopes)


@error_case(family="grad", fix="float-output-b23a", raises="TypeError",
            source="https://apxml.com/courses/getting-started-with-jax/chapter-3-automatic-differentiation-grad/"
                   "grad-limitations",
            line="return jax.grad(lambda v: jnp.sum(v.astype(jnp.int32) ** 2))(x)",
            fixed="return jax.grad(lambda v: jnp.sum(v.astype(jnp.int32) ** 2).astype(jnp.float32))(x)",
            args=lambda: (np.array([1.7, 2.2, 3.9], dtype=np.float32),))
def brindle_binned_energy(x):
    # the gradient of an energy computed on whole-number bins of the input
    return jax.grad(lambda v: jnp.sum(v.astype(jnp.int32) ** 2))(x)


# ---- part b


# ---------------------------------------------------------------------------------------------------- loops

@error_case(family="loops", fix="static-loop-bounds", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/2469",
            line="return jax.grad(lambda x: lax.while_loop(keep_going, step, (0, x))[1])(x0)",
            fixed="return jax.grad(lambda x: lax.scan(lambda c, _: (lax.cond(keep_going(c), step, lambda c: c, c), None), (0, x), None, length=8)[0][1])(x0)",
            args=lambda: (0.7,))
def quern_damped_iterate(x0):
    # a data-dependent iteration count, then reverse-mode differentiated
    def keep_going(c):
        return (c[0] < 4) & (c[1] < 50.0)

    def step(c):
        return (c[0] + 1, c[1] * 1.5 + jnp.sin(c[1]))
    return jax.grad(lambda x: lax.while_loop(keep_going, step, (0, x))[1])(x0)


@error_case(family="loops", fix="loop-int-bounds", raises="ValueError",
            source="https://github.com/jax-ml/jax/pull/6549",
            line="return jax.jit(jax.grad(lambda v: lax.fori_loop(0, jnp.int32(v.shape[0]), lambda i, acc: acc * v[i] + 1.0, 0.0)))(w)",
            fixed="return jax.jit(jax.grad(lambda v: lax.fori_loop(0, v.shape[0], lambda i, acc: acc * v[i] + 1.0, 0.0)))(w)",
            args=lambda: (np.array([0.5, 1.5, -0.25, 2.0], dtype=np.float32),))
def quern_horner_bound(w):
    # Horner-style accumulation over the coefficients, bound wrapped in a jnp integer inside jit
    return jax.jit(jax.grad(lambda v: lax.fori_loop(0, jnp.int32(v.shape[0]), lambda i, acc: acc * v[i] + 1.0, 0.0)))(w)


@error_case(family="loops", fix="static-arg", raises="TracerIntegerConversionError",
            source="https://livebook.manning.com/learn/concepts/shapedarray--data-structure/deep-learning-with-jax",
            line="return jax.jit(lambda x, n: functools.reduce(lambda acc, _: 0.5 * acc + 1.0, range(n), x))(x0, steps)",
            fixed="return jax.jit(lambda x, n: functools.reduce(lambda acc, _: 0.5 * acc + 1.0, range(n), x), static_argnums=1)(x0, steps)",
            args=lambda: (np.ones(3, dtype=np.float32), 4))
def quern_relax_steps(x0, steps):
    # a Python loop whose trip count is a jitted argument
    return jax.jit(lambda x, n: functools.reduce(lambda acc, _: 0.5 * acc + 1.0, range(n), x))(x0, steps)


@error_case(family="loops", fix="fori_loop", raises="TracerIntegerConversionError",
            source="https://livebook.manning.com/learn/concepts/code-compilation--technique/deep-learning-with-jax",
            line="total = sum(i * i for i in range(k))",
            fixed="total = lax.fori_loop(0, k, lambda i, v: v + i * i, 0)",
            args=lambda: (6,))
def quern_square_tally(n):
    # sum of squares below an input-dependent bound, compiled
    def tally(k):
        total = sum(i * i for i in range(k))
        return total
    return jax.jit(tally)(n)


@error_case(family="loops", fix="close-over", raises="TracerBoolConversionError",
            source="https://docs.jax.dev/en/latest/tracing.html",
            line="return lax.fori_loop(0, 3, lambda i, c: ((c[0] / c[1] if c[1] >= 1.0 else 0.0) + 1.0, c[1]), (x0, y0))[0]",
            fixed="return lax.fori_loop(0, 3, lambda i, c: (c / y0 if y0 >= 1.0 else 0.0) + 1.0, x0)",
            args=lambda: (2.0, 3.0))
def quern_guarded_ratio(x0, y0):
    # a Python-guarded division inside a loop body; the divisor never changes but rides in the carry
    return lax.fori_loop(0, 3, lambda i, c: ((c[0] / c[1] if c[1] >= 1.0 else 0.0) + 1.0, c[1]), (x0, y0))[0]


# ---------------------------------------------------------------------------------------------------- branches

@error_case(family="branches", fix="take-mode", raises="ConcretizationTypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.numpy.choose.html",
            line="return jax.jit(lambda a, c: jnp.choose(a, c))(which, table)",
            fixed="return jax.jit(lambda a, c: jnp.choose(a, c, mode='clip'))(which, table)",
            args=lambda: (np.array([0, 2, 1, 0], dtype=np.int32),
                          np.arange(12.0, dtype=np.float32).reshape(3, 4)))
def quern_pick_rows(which, table):
    # per column, take the entry of the row named by `which`, inside jit
    return jax.jit(lambda a, c: jnp.choose(a, c))(which, table)


@error_case(family="branches", fix="cond", raises="TracerBoolConversionError",
            source="https://livebook.manning.com/learn/concepts/lax-cond--api-element/deep-learning-with-jax",
            line="return x if x > 0 else 0.0",
            fixed="return lax.cond(x > 0, lambda x: x, lambda x: 0.0, x)",
            args=lambda: (np.float32(2.5),))
def quern_ramp_cut(v):
    # a hand-written ReLU on a scalar, compiled
    def ramp(x):
        return x if x > 0 else 0.0
    return jax.jit(ramp)(v)


@error_case(family="branches", fix="compile-time-eval-b23b", raises="TracerBoolConversionError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.ensure_compile_time_eval.html",
            line="positive = bool(jnp.sin(jnp.sin(3.0)) > 0)",
            fixed="with jax.ensure_compile_time_eval(): positive = bool(jnp.sin(jnp.sin(3.0)) > 0)",
            args=lambda: (np.float32(0.4),))
def quern_const_switch(v):
    # the branch depends only on a constant, but the constant is computed with jnp inside jit
    def f(x):
        positive = bool(jnp.sin(jnp.sin(3.0)) > 0)
        return jnp.sin(x) if positive else jnp.cos(x)
    return jax.jit(f)(v)


@error_case(family="branches", fix="double-where-b20b", raises="FloatingPointError",
            source="https://docs.kidger.site/equinox/api/debug",
            line="return jax.grad(lambda x: jnp.where(x > 0, jnp.log(x), 0.0))(v)",
            fixed="return jax.grad(lambda x: jnp.where(x > 0, jnp.log(jnp.where(x > 0, x, 1.0)), 0.0))(v)",
            args=lambda: (0.0,))
def quern_guarded_log(v):
    # a log guarded by where, differentiated at the guarded point, with NaN checking on
    with jax.debug_nans(True):
        return jax.grad(lambda x: jnp.where(x > 0, jnp.log(x), 0.0))(v)


@error_case(family="branches", fix="static-arg", raises="TracerBoolConversionError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.checkpoint.html",
            line="h = jax.checkpoint(lambda z, is_training: jnp.sin(z) * 0.9 if is_training else jnp.sin(z))(p @ p, True)",
            fixed="h = jax.checkpoint(lambda z, is_training: jnp.sin(z) * 0.9 if is_training else jnp.sin(z), static_argnums=(1,))(p @ p, True)",
            args=lambda: (np.array([[0.2, -0.1], [0.4, 0.3]], dtype=np.float32),))
def quern_remat_mode(w):
    # a rematerialised layer that behaves differently in training, the flag passed as an argument
    def loss(p):
        h = jax.checkpoint(lambda z, is_training: jnp.sin(z) * 0.9 if is_training else jnp.sin(z))(p @ p, True)
        return jnp.sum(h ** 2)
    return jax.grad(loss)(w)


@error_case(family="branches", fix="where", raises="TracerBoolConversionError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.numpy.apply_along_axis.html",
            line="return r / r.sum() if r.sum() > 0 else r",
            fixed="return jnp.where(r.sum() > 0, r / r.sum(), r)",
            args=lambda: (np.array([[1.0, 3.0], [-2.0, 0.5], [0.25, 0.25]], dtype=np.float32),))
def quern_row_normalise(m):
    # normalise each row that has a positive total, leave the others
    def rowfix(r):
        return r / r.sum() if r.sum() > 0 else r
    return jnp.apply_along_axis(rowfix, 1, m)


# ---------------------------------------------------------------------------------------------------- other

@error_case(family="other", fix="explicit-promotion-b17d", raises="TypeError",
            source="https://livebook.manning.com/learn/concepts/jax-lax--api-element/deep-learning-with-jax",
            line="return lax.add(count, scale)",
            fixed="return lax.add(count.astype(scale.dtype), scale)",
            args=lambda: (np.int32(42), np.float32(0.5)))
def quern_lax_mix(count, scale):
    # lax primitives do not promote mixed dtypes
    return lax.add(count, scale)


@error_case(family="other", fix="size", raises="TracerBoolConversionError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.numpy.extract.html",
            line="return jax.jit(lambda c, a: jnp.extract(c, a))(keep, vals)",
            fixed="return jax.jit(lambda c, a: jnp.extract(c, a, size=4))(keep, vals)",
            args=lambda: (np.array([True, False, True, True]), np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32)))
def quern_keep_marked(keep, vals):
    # the entries whose flag is set, inside jit
    return jax.jit(lambda c, a: jnp.extract(c, a))(keep, vals)


# ---- part c


# ---------------------------------------------------------------------------------------------------------------- keys

@error_case(family="keys", fix="minval-maxval-b23c",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.random.uniform.html",
            raises="TypeError",
            line="pts = jax.random.uniform(key, (4, 2), low=lo, high=hi)",
            fixed="pts = jax.random.uniform(key, (4, 2), minval=lo, maxval=hi)",
            args=lambda: (-1.5, 1.5))
def kestrel_box_points(lo, hi):
    key = jax.random.key(3)
    pts = jax.random.uniform(key, (4, 2), low=lo, high=hi)
    return pts.mean(axis=0)


@error_case(family="keys", fix="choice-axis-b19c",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.random.choice.html",
            raises="ValueError",
            line="cols = jax.random.choice(key, table, (2,), p=probs)",
            fixed="cols = jax.random.choice(key, table, (2,), p=probs, axis=1)",
            args=lambda: (np.arange(15.0).reshape(3, 5), np.array([0.1, 0.2, 0.3, 0.25, 0.15])))
def kestrel_pick_columns(table, probs):
    key = jax.random.key(8)
    cols = jax.random.choice(key, table, (2,), p=probs)
    return cols.sum()


@error_case(family="keys", fix="diag-cov-b23c",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.random.multivariate_normal.html",
            raises="ValueError",
            line="draws = jax.random.multivariate_normal(key, centre, spread, (6,))",
            fixed="draws = jax.random.multivariate_normal(key, centre, jnp.diag(spread), (6,))",
            args=lambda: (np.array([0.0, 1.0, -1.0]), np.array([1.0, 0.5, 2.0])))
def kestrel_gauss_cloud(centre, spread):
    key = jax.random.key(21)
    draws = jax.random.multivariate_normal(key, centre, spread, (6,))
    return draws.mean(axis=0)


@error_case(family="keys", fix="vmap-fold-in-b23c",
            source="https://blog.csdn.net/qq_27390023/article/details/135712112",
            raises="TypeError",
            line="keys = jax.random.fold_in(base, steps)",
            fixed="keys = jax.vmap(lambda s: jax.random.fold_in(base, s))(steps)",
            args=lambda: (np.arange(4, dtype=np.int32),))
def kestrel_step_keys(steps):
    base = jax.random.key(11)
    keys = jax.random.fold_in(base, steps)
    return jax.vmap(lambda k: jax.random.normal(k, ()))(keys)


@error_case(family="keys", fix="key-one-style",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.random.key_data.html",
            raises="TypeError",
            line="saved = np.asarray(sub)",
            fixed="saved = np.asarray(jax.random.key_data(sub))",
            args=lambda: (7,))
def kestrel_save_key(seed):
    key = jax.random.key(seed)
    key, sub = jax.random.split(key)
    saved = np.asarray(sub)
    return jnp.asarray(saved.astype(np.int64).sum())


@error_case(family="keys", fix="shape-not-size-b23c",
            source="https://github.com/jax-ml/jax/issues/4549",
            raises="TypeError",
            line="noise = jax.random.uniform(key, size=(n, 3), minval=-amp, maxval=amp)",
            fixed="noise = jax.random.uniform(key, shape=(n, 3), minval=-amp, maxval=amp)",
            args=lambda: (4, 0.25))
def kestrel_jitter(n, amp):
    key = jax.random.key(17)
    noise = jax.random.uniform(key, size=(n, 3), minval=-amp, maxval=amp)
    return noise.std()


@error_case(family="keys", fix="split-fresh-key-b15c",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.random.key.html",
            raises="TypeError",
            line="key, sub = key",
            fixed="key, sub = jax.random.split(key)",
            args=lambda: (42,))
def kestrel_two_keys(seed):
    key = jax.random.key(seed)
    key, sub = key
    return jax.random.normal(sub, (2,))


# ------------------------------------------------------------------------------------------------------------- pytrees

@error_case(family="pytrees", fix="bool-leaves-b23c",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.tree.all.html",
            raises="ValueError",
            line="ok = jax.tree.all(jax.tree.map(lambda a: a > 0, params))",
            fixed="ok = jax.tree.all(jax.tree.map(lambda a: bool(jnp.all(a > 0)), params))",
            args=lambda: ({"w": np.ones((2, 3)), "b": np.full(3, 0.5)},))
def kestrel_all_positive(params):
    ok = jax.tree.all(jax.tree.map(lambda a: a > 0, params))
    return jnp.asarray(ok)


@error_case(family="pytrees", fix="path-first-b23c",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.tree.map_with_path.html",
            raises="TypeError",
            line="scaled = jax.tree.map_with_path(lambda leaf: leaf * 0.5, params)",
            fixed="scaled = jax.tree.map_with_path(lambda path, leaf: leaf * 0.5, params)",
            args=lambda: ({"enc": np.ones(3), "dec": np.ones(2)},))
def kestrel_halve_by_path(params):
    scaled = jax.tree.map_with_path(lambda leaf: leaf * 0.5, params)
    return scaled["enc"].sum() + scaled["dec"].sum()


@error_case(family="pytrees", fix="unravel-length-b23c",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.flatten_util.ravel_pytree.html",
            raises="ValueError",
            line='restored = unravel(jnp.zeros(params["w"].size))',
            fixed="restored = unravel(jnp.zeros(flat.shape[0]))",
            args=lambda: ({"w": np.ones((2, 2)), "b": np.ones(3)},))
def kestrel_reset_params(params):
    from jax.flatten_util import ravel_pytree
    flat, unravel = ravel_pytree(params)
    restored = unravel(jnp.zeros(params["w"].size))
    return restored["b"]


@error_case(family="pytrees", fix="binary-reducer-b23c",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.tree.reduce.html",
            raises="TypeError",
            line="total = jax.tree.reduce(jnp.sum, grads)",
            fixed="total = jax.tree.reduce(lambda acc, g: acc + jnp.sum(g), grads, 0.0)",
            args=lambda: ({"w": np.ones((2, 3)), "b": np.ones(3)},))
def kestrel_grad_total(grads):
    total = jax.tree.reduce(jnp.sum, grads)
    return total


@error_case(family="pytrees", fix="tree-partial-b17c",
            source="https://github.com/PyAutoLabs/PyAutoGalaxy/pull/352",
            raises="TypeError",
            line="return run(functools.partial(body, rate), 0.0, xs)",
            fixed="return run(jax.tree_util.Partial(body, rate), 0.0, xs)",
            args=lambda: (0.5, np.arange(4.0)))
def kestrel_scan_partial(rate, xs):
    def body(r, acc, x):
        return acc + r * x, acc

    @jax.jit
    def run(step, init, seq):
        return lax.scan(step, init, seq)

    return run(functools.partial(body, rate), 0.0, xs)


@error_case(family="pytrees", fix="outer-only-treedef-b23c",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.tree.transpose.html",
            raises="TypeError",
            line="cols = jax.tree.transpose(jax.tree.structure(rows), jax.tree.structure((0, 0)), rows)",
            fixed="cols = jax.tree.transpose(jax.tree.structure([0] * len(rows)), jax.tree.structure((0, 0)), rows)",
            args=lambda: ([(np.ones(2), 1.0), (np.zeros(2), 2.0), (np.ones(2), 3.0)],))
def kestrel_unzip_rows(rows):
    cols = jax.tree.transpose(jax.tree.structure(rows), jax.tree.structure((0, 0)), rows)
    vecs, scales = cols
    return jnp.stack(vecs).sum() + jnp.asarray(scales).sum()


# ---- part d


# ----------------------------------------------------------------------------------------------- custom-rules

@error_case(family="custom-rules", fix="fwd-pair", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-saved-residuals-pattern",
            line="return jax.grad(build(lambda v: (jnp.sum(v * jnp.sin(v)), v, jnp.sin(v))))(xs)",
            fixed="return jax.grad(build(lambda v: (jnp.sum(v * jnp.sin(v)), (v, jnp.sin(v)))))(xs)",
            args=lambda: (np.array([0.5, 1.0, 1.5], dtype=np.float32),))
def wick_saved_residuals(xs):
    # the forward rule returns its two saved values as separate outputs next to the primal
    def build(fwd):
        @jax.custom_vjp
        def weigh(v):
            return jnp.sum(v * jnp.sin(v))
        weigh.defvjp(fwd, lambda res, g: (g * (res[1] + res[0] * jnp.cos(res[0])),))
        return weigh
    return jax.grad(build(lambda v: (jnp.sum(v * jnp.sin(v)), v, jnp.sin(v))))(xs)


@error_case(family="custom-rules", fix="use-custom-jvp-b10d", raises="TypeError",
            source="https://github.com/astro-informatics/s2fft/issues/165",
            line="return jax.jacfwd(attach(jax.custom_vjp(lambda v: jnp.sin(v) * 2.0)))(xs)",
            fixed="return jax.jacfwd(attach(jax.custom_jvp(lambda v: jnp.sin(v) * 2.0)))(xs)",
            args=lambda: (np.array([0.1, 0.4, 0.9], dtype=np.float32),))
def wick_forward_spectral(xs):
    # a transform given a hand-written derivative, then differentiated in forward mode
    def attach(op):
        if isinstance(op, jax.custom_jvp):
            op.defjvp(lambda p, t: (jnp.sin(p[0]) * 2.0, jnp.cos(p[0]) * 2.0 * t[0]))
        else:
            op.defvjp(lambda v: (jnp.sin(v) * 2.0, v), lambda v, g: (jnp.cos(v) * 2.0 * g,))
        return op
    return jax.jacfwd(attach(jax.custom_vjp(lambda v: jnp.sin(v) * 2.0)))(xs)


@error_case(family="custom-rules", fix="tangent-solve-args-b23d", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.lax.custom_root.html",
            line="return lax.custom_root(lambda x: x ** 2 - c, 1.0, lambda f, x0: jnp.sqrt(c), lambda y: y / (2.0 * jnp.sqrt(c)))",
            fixed="return lax.custom_root(lambda x: x ** 2 - c, 1.0, lambda f, x0: jnp.sqrt(c), lambda g, y: y / g(1.0))",
            args=lambda: (2.25,))
def wick_implicit_sqrt(level):
    # a closed-form root with implicit derivatives; the tangent solver is written for the right-hand side only
    def side(c):
        return lax.custom_root(lambda x: x ** 2 - c, 1.0, lambda f, x0: jnp.sqrt(c), lambda y: y / (2.0 * jnp.sqrt(c)))
    return jax.grad(side)(level)


@error_case(family="custom-rules", fix="transpose-solve-b23d", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.lax.custom_linear_solve.html",
            line="return jax.grad(lambda b: lax.custom_linear_solve(lambda v: mat @ v, b, lambda mv, r: jnp.linalg.solve(mat, r)).sum())(rhs)",
            fixed="return jax.grad(lambda b: lax.custom_linear_solve(lambda v: mat @ v, b, lambda mv, r: jnp.linalg.solve(mat, r), transpose_solve=lambda vm, r: jnp.linalg.solve(mat.T, r)).sum())(rhs)",
            args=lambda: (np.array([[3.0, 1.0], [0.5, 2.0]], dtype=np.float32), np.array([1.0, 2.0], dtype=np.float32)))
def wick_solve_sensitivity(mat, rhs):
    # gradient of a non-symmetric matrix-free solve with respect to its right-hand side
    mat = jnp.asarray(mat)
    return jax.grad(lambda b: lax.custom_linear_solve(lambda v: mat @ v, b, lambda mv, r: jnp.linalg.solve(mat, r)).sum())(rhs)


# ----------------------------------------------------------------------------------------------------- shapes

@error_case(family="shapes", fix="window-per-axis-b23d", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.lax.reduce_window.html",
            line="return lax.reduce_window(x, -jnp.inf, lax.max, (2, 2), (2, 2), 'VALID')",
            fixed="return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), 'VALID')",
            args=lambda: (np.arange(2 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 3),))
def wick_pool_images(images):
    # 2x2 max pooling of a batch of NHWC images, the window given for the spatial axes only
    x = jnp.asarray(images)
    return lax.reduce_window(x, -jnp.inf, lax.max, (2, 2), (2, 2), 'VALID')


@error_case(family="shapes", fix="diagonal-b23d", raises="ValueError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.numpy.diag.html",
            line="d = jnp.diag(jnp.asarray(mats))",
            fixed="d = jnp.diagonal(jnp.asarray(mats), axis1=-2, axis2=-1)",
            args=lambda: (np.arange(2 * 3 * 3, dtype=np.float32).reshape(2, 3, 3),))
def wick_batch_traces(mats):
    # traces of a stack of square matrices via their diagonals
    d = jnp.diag(jnp.asarray(mats))
    return d.sum(-1)


@error_case(family="shapes", fix="tensordot-axes-b23d", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.numpy.tensordot.html",
            line="return jnp.tensordot(jnp.asarray(feats), jnp.asarray(coefs), axes=1)",
            fixed="return jnp.tensordot(jnp.asarray(feats), jnp.asarray(coefs), axes=([0], [0]))",
            args=lambda: (np.ones((2, 3), dtype=np.float32), np.arange(8, dtype=np.float32).reshape(2, 4)))
def wick_sample_contract(feats, coefs):
    # both operands carry the 2 samples on axis 0, which is the axis to sum over
    return jnp.tensordot(jnp.asarray(feats), jnp.asarray(coefs), axes=1)


@error_case(family="shapes", fix="weights-axis-b23d", raises="ValueError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.numpy.average.html",
            line="return jnp.average(jnp.asarray(scores), weights=jnp.asarray(counts))",
            fixed="return jnp.average(jnp.asarray(scores), weights=jnp.asarray(counts), axis=0)",
            args=lambda: (np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]], dtype=np.float32),
                          np.array([1.0, 3.0], dtype=np.float32)))
def wick_pooled_scores(scores, counts):
    # one weight per row (per run), averaging the runs' score vectors
    return jnp.average(jnp.asarray(scores), weights=jnp.asarray(counts))


# ------------------------------------------------------------------------------------------------------ other

@error_case(family="other", fix="sort-stable", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.numpy.argsort.html",
            line="order = jnp.argsort(jnp.asarray(ages), kind='stable')",
            fixed="order = jnp.argsort(jnp.asarray(ages), stable=True)",
            args=lambda: (np.array([31, 25, 31, 19], dtype=np.int32),))
def wick_rank_ages(ages):
    # ties must keep their input order, asked for in NumPy's old spelling
    order = jnp.argsort(jnp.asarray(ages), kind='stable')
    return order


@error_case(family="other", fix="take-mode", raises="NotImplementedError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.numpy.take.html",
            line="return jnp.take(jnp.asarray(table), jnp.asarray(ids), mode='raise')",
            fixed="return jnp.take(jnp.asarray(table), jnp.asarray(ids), mode='clip')",
            args=lambda: (np.array([0.5, 1.5, 2.5, 3.5], dtype=np.float32), np.array([3, 0, 2], dtype=np.int32)))
def wick_lookup_prices(table, ids):
    # a lookup that wants an error on a bad id, as NumPy's default gives
    return jnp.take(jnp.asarray(table), jnp.asarray(ids), mode='raise')


@error_case(family="other", fix="cpu-platform", raises="ValueError",
            source="https://livebook.manning.com/learn/concepts/jax-device-put--api-element/deep-learning-with-jax",
            line="host = jax.device_put(jnp.asarray(values), 'cpu')",
            fixed="host = jax.device_put(jnp.asarray(values), jax.devices('cpu')[0])",
            args=lambda: (np.array([1, 42, 7], dtype=np.int32),))
def wick_place_on_host(values):
    # moving an array to the host CPU, naming the platform as a string
    host = jax.device_put(jnp.asarray(values), 'cpu')
    return host * 2


@error_case(family="other", fix="static-python-value", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.numpy.linalg.matrix_power.html",
            line="return jnp.linalg.matrix_power(jnp.asarray(trans), horizon)",
            fixed="return jnp.linalg.matrix_power(jnp.asarray(trans), int(horizon))",
            args=lambda: (np.array([[0.9, 0.1], [0.2, 0.8]], dtype=np.float32), 3.0))
def wick_chain_horizon(trans, horizon):
    # a Markov transition matrix raised to a step count that arrives as a float
    return jnp.linalg.matrix_power(jnp.asarray(trans), horizon)


@error_case(family="other", fix="clip-min-max", raises="TypeError",
            source="https://github.com/google/hackable_diffusion/pull/41",
            line="return jnp.clip(jnp.asarray(probs), a_min=0.0, a_max=1.0)",
            fixed="return jnp.clip(jnp.asarray(probs), min=0.0, max=1.0)",
            args=lambda: (np.array([-0.2, 0.3, 1.4], dtype=np.float32),))
def wick_bound_probs(probs):
    # clamping with the keyword names of older NumPy
    return jnp.clip(jnp.asarray(probs), a_min=0.0, a_max=1.0)
