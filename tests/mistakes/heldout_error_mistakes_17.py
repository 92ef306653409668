"""A seventeenth held-out batch of JAX errors outside jit, written by four blind helper sessions at once
(vmap and grad; loops and branches; pytrees and keys; custom rules, shapes and other) that never opened
the rules under `autograder/` nor any message the course prints, from the brief of the fifteenth and
sixteenth batches (one public thread per case, none cited by an earlier batch; each part checked with
`check_error_cases.py --part`), so that its first run measures the rules on mistakes they were not written
from. Part d found no uncited custom-rule thread that still fails on the pinned JAX, and one shape thread.
Each part's own account follows, as its helper wrote it.

## Part a

Part A of the seventeenth held-out batch (families vmap and grad), written by a blind helper session that never
opened the rules under `autograder/` nor any message the course prints.

How the cases were found: the `source=` addresses of every case file in `tests/mistakes/` were collected first and
every candidate was checked against them. The vmap and grad threads of the JAX tracker that the search tools surface
(and most flax, optax, equinox, diffrax, numpyro and haiku ones) are already cited, so this part leans on teaching
pages with a stated pitfall and its repair (crackedaicode "Common pitfalls" sections, a Manning liveBook concept page,
a CSDN note, an openillumi article built on a Stack Overflow question), a Stack Overflow answer read through a kiwix
mirror, a public notebook that runs the failing call, three pages of JAX's own API documentation, and one JAX issue.

Cases, one line each (thread: mistake -> fix):
- vmap, crackedaicode jax-grad-then-vmap-vs-vmap-then-grad: per-example gradients with a scalar shared weight and the
  default in_axes, so vmap tries to map the rank-0 weight -> `in_axes=(None, 0)` (the page's "in_axes must match
  scalar vs. array args" pitfall).
- vmap, Stack Overflow 73212780 "Struggling to understand nested vmaps" (kiwix mirror): mapping two arrays of different
  lengths "at once" with `in_axes=(0, 0)` when the all-pairs table is wanted -> one vmap per axis,
  `vmap(vmap(f, in_axes=(None, 0)), in_axes=(0, None))` (the answer's outer-product recipe).
- vmap, JAX API page of `jax.vmap`: `out_axes=None` for an output that depends on the mapped input -> a mapped axis in
  `out_axes` (the page: outputs with a mapped axis need a non-None `out_axes`).
- vmap, jax-ml/jax issue 24740: a Python `if` on a batched value inside the vmapped function (Mandelbrot escape test)
  raises TracerBoolConversionError -> select with `jnp.where`.
- vmap, Manning liveBook concept page "in_axes" (Deep Learning with JAX): a shared coefficient passed by keyword, and
  keyword arguments are always mapped over their leading axis -> partially apply it (`functools.partial`).
- vmap, CSDN note on vmap in_axes (blog.csdn.net/bbbeoy 139438455): every in_axes entry None -> at least one entry must
  be an integer, `in_axes=(0, None)`.
- grad, riberaborrell/playground-jax notebook: `vmap(der2_f(inputs))`, i.e. the second-derivative function called on
  the whole batch inside vmap's parentheses, raises "Gradient only defined for scalar-output functions" -> vmap the
  derivative function and call that, `jax.vmap(jax.grad(jax.grad(f)))(x)`.
- grad, crackedaicode jax-value-and-grad: `(value, grad) = jax.grad(f)(...)`, while grad returns only the gradient ->
  `jax.value_and_grad`.
- grad, crackedaicode jax-jacfwd-vs-jacrev: `jax.jacfwd(f(x))` -> wrap the function, not its result, `jax.jacfwd(f)(x)`.
- grad, openillumi en-jax-flax-nn-hessian-efficient-calculation (from a Stack Overflow question): nested `jax.grad` for
  the second derivative of a scalar function of a vector input -> `jax.hessian` under vmap.
- grad, JAX API page of `jax.grad`: the function returns a shape-(1,) array (a (1,) bias) -> return a true scalar
  (shape `()`, e.g. index `[0]`); the page says shape () counts as a scalar but shape (1,) does not.
- grad, JAX API page of `jax.value_and_grad`: with `has_aux=True` the result is `((value, aux), grad)`; unpacking it as
  three flat names fails -> `(loss, aux), grads = ...`.

New categories (regexes written from the fixes alone): `hessian-b17a` (use `jax.hessian`), `value-and-grad-b17a`
(use `jax.value_and_grad` to get value and gradient together), `scalar-shape-b17a` (make the output a shape-() scalar:
`[0]`, `.reshape(())`, squeeze), `aux-nesting-b17a` (unpack `(value, aux), grad` as a nested pair). Existing categories
used: vmap-in-axes-none, vmap-nested, vmap-out-axes, where, functools-partial, vmap-in-axes-axis, grad-scalar,
loop-body-callable.

Caveats: several sources are tutorials or API pages rather than reports with a maintainer's answer. The stored copy of
issue 24740 ends before any reply, so `jnp.where` is my inference of the usual repair; the case also reduces the
issue's loop with an early return to one conditional. The kiwix copy shows only the answer, so the failing
`in_axes=(0, 0)` call on different-length arrays is my reading of the answer's contrast between mapping "at once" and
nesting. The notebook never prints a fixed cell for the second derivative; `fixed` follows the working first-derivative
cell next to it (`vmap(der1_f)(inputs)`). The openillumi article reports an IndexError in its Flax setting; with a plain
function under JAX 0.10.2 the same nested-grad mistake raises the non-scalar TypeError, and the fix is the article's.
The CSDN note states the rule rather than showing a traceback. The three API-page cases (vmap out_axes, grad's
shape-(1,) output, value_and_grad's nested aux pair) build the failing call from the documented rule; I read the grad
and value_and_grad texts on readthedocs and mirrors of the same pages and cite the canonical docs.jax.dev addresses.
Two pairs share an error but not a fix: the rank-0 mapping ValueError (in_axes None vs functools.partial) and the
non-scalar TypeError (vmap of grad vs jax.hessian). At most three cases come from one website (crackedaicode 3,
docs.jax.dev 3). Shortfall: none against the counts asked (vmap 6, grad 6).

## Part b

Part B of the seventeenth held-out batch (families loops and branches), written by a blind helper session that
never opened the rules under `autograder/` nor any message the course prints.

How the cases were found: every candidate address was first checked against the `source=` lines of
tests/mistakes/error_mistakes.py and heldout_error_mistakes*.py (the jax tracker's loop/branch threads, gymnax, Qrisp,
optax, jaxopt, taourl and most crackedaicode pages are already cited there). New material came from the `docs` and
`pages` corpora (JAX's own API and 201 pages, tutorial and Q&A sites not cited before) and one jax issue still uncited.
Each function is my own code (own names and numbers) reduced to the mistake and the fix the source states.

Loops (6):
- JAX docs, `jax.lax.fori_loop` page: reverse-mode autodiff works only when the trip count is static; the case takes
  `grad` of a fori_loop whose upper bound is a traced `jit` argument (ValueError); fix: make the bound static
  (`static_argnums=1`), so the loop lowers to scan.
- code-examples.net "Common Issues and Solutions for JAX Scan with Extra Arguments": a scanned function with a third
  parameter (TypeError, missing argument); fix: bind the constant outside the scan signature (closure /
  `functools.partial`).
- crackedaicode jax-fori-vs-scan-vs-while (three cases, the page's three pitfalls): (1) fori_loop body written in
  scan order `(acc, i)`, so the carry comes back with the counter's type (TypeError); fix `(i, acc)`. (2) while_loop
  counter started at `0.0` and used as an index (TypeError, float indexer); fix start it at the integer `0`.
  (3) scan over `jnp.ones(n)` with `n` a traced jit argument (TypeError, non-concrete shape); fix mark `n` static.
- jax-ml/jax issue 2708: a while_loop `cond_fun` returning `not jnp.allclose(...)`; the maintainer's fix is
  `jnp.logical_not` (Python `not` forces a bool of a tracer).

Branches (6):
- JAX docs 201 "Control flow and logical operators with jit": `(x > 0) and (x < limit)` under jit
  (TracerBoolConversionError); fix the elementwise operator `&`.
- Manning liveBook concept "Structured control flow" (Deep Learning with JAX): a ReLU written as a Python
  conditional on a traced value; the page's fix `jax.lax.cond(x > 0, lambda x: x, lambda x: 0.0, x)`.
- cnblogs xyz/p/17954270: `-x if neg else x` on a traced flag under jit; fix `static_argnums=(1,)`.
- apxml "Conditional execution: lax.cond" (two cases): (1) branches returning different dtypes (int32 mask vs float
  input; TypeError); fix make both branches return the same dtype. (2) a non-scalar predicate handed to `lax.cond`
  for a per-entry choice (TypeError, pred must be scalar); fix `jnp.where`.
- JAX docs `jax.lax.switch` page: the index must be an integer scalar; the case passes `jnp.floor(...)` (a float);
  fix `.astype(jnp.int32)`.

New categories: none; all fixes map onto existing ones (static-loop-bounds, close-over, body-signature, int-index,
static-arg, logical, elementwise-and, cond, branch-types, select-where, switch-int-index).

Caveats (where `fixed` is my reading rather than a line shown in the source): the fori_loop and switch doc pages state
the rule (static trip count for reverse mode; integer index) but show no failing call, so the failing call and the
one-line fix are mine. The 201 control-flow excerpt I could read shows the failing `and` example; that its remedy is
the elementwise `&` / `jnp.logical_*` operators is from the section's topic, not a line I saw. The apxml page states
that pred must be a scalar boolean and that both branches must return identical shape/dtype; the `jnp.where` fix for
the per-entry case and the dtype-matching fix are inferred from those rules. The code-examples.net page's first
remedy is to carry the constants in the carry tuple; the closure/partial form used here is the page's other remedy
(and the standard one). The crackedaicode page lists its pitfalls in prose; the failing code is mine. Counts: 6 loops
and 6 branches as asked; at most 3 cases per website (docs.jax.dev 3, crackedaicode 3, apxml 2).

## Part c

Part C of the seventeenth held-out batch (families pytrees and keys), written by a blind helper session that never
opened the rules under `autograder/` nor any message the course prints.

How the cases were found: the `source=` lines of error_mistakes.py and heldout_error_mistakes*.py were
collected first and every candidate address was checked against them (almost every pytree/key thread on the
JAX tracker, and those of optax, flax, equinox, numpyro, pertpy and others that came up, were already cited).
Searches ran over the issues, pages and docs corpora (JAX tracker, jaxtyping, axlearn, JAX API pages, Q&A and
tutorial sites). Each case was reduced to plain JAX with my own names and numbers and checked on jax 0.10.2.

Pytrees:
- openillumi.com/?p=110968: a Python lambda carried through lax.scan is "not a valid JAX type"; wrap it in
  jax.tree_util.Partial (new category tree-partial-b17c).
- jax-ml/jax#24204: an array marked as a static dataclass field breaks the jit cache comparison on the second
  call; keep the array a data (pytree) field (unmark-static).
- jax-ml/jax#12643: a sharding spec dict missing some of the argument's keys gives a pytree prefix error; give
  the spec the same keys (tree-same-structure).
- docs.jax.dev jax.tree.map page: the structure comes from the first tree, so the shallower tree goes first;
  swapping them raises (new category prefix-first-b17c).
- apple/axlearn#47: a FrozenDict-like registered node mapped against a plain dict spec tree mismatches; use
  plain dicts (plain-dict-container).
- patrick-kidger/jaxtyping#177: unflatten calls __init__, which converts/validates leaves and fails on the
  non-array leaves tree.map produces; do not convert in __init__ (unflatten-any-leaf).
Keys:
- jax-ml/jax#17990: numpy's assert_array_equal on typed keys fails; compare jax.random.key_data (key-one-style).
- docs.jax.dev jax.random.PRNGKey page: a legacy uint32 key made with impl="rbg" is read with the default impl
  by split; make a typed key with jax.random.key(..., impl=...) (prng-key).
- docs.jax.dev jax.random.wrap_key_data page: re-wrapping rbg key data without its dtype; pass dtype=
  (wrap-key-dtype-b16c).
- jax-ml/jax#17904: `key + 7` on a typed key is refused; derive keys with fold_in (key-no-arith).
- jax-ml/jax#37484: lax.pad on a batch of typed keys; pad the key_data and wrap it again (key-one-style, a
  different error from the #17990 case).
- creativeworksofknowledge.com jax-quest random/5: vmapping a per-example function over one unsplit key; split
  the key to the batch length first (split-count).

New categories: tree-partial-b17c (the explanation must name jax.tree_util.Partial, or wrapping in Partial);
prefix-first-b17c (put the prefix/shallower tree first, i.e. swap the trees' order).

Caveats, where `fixed` is inferred and not quoted from the thread: #12643 is an enhancement request (the fix,
completing the spec's keys, follows from its text); #17904 asks for a better message and shows no user fix
(fold_in is the documented way to derive keys); #37484 is marked answered but the answer was not visible in
the stored copy (the key_data/pad/wrap_key_data fix is mine, following the documented key_data round trip);
the creativeworksofknowledge page shows the in_axes=None pitfall (which raises nothing), so the case uses the
raising variant of the same mistake (mapping an unsplit key) with the page's fix; #24204's fix is the
reporter's own observation (no error when the field is a pytree node), put on one line by choosing the
class with the field as data; jaxtyping#177's fix (unflatten must not call a converting/validating __init__)
is taken from the maintainer's guidance referenced there. Three cases come from docs.jax.dev, the most
allowed from one site. No shortfall: 6 pytrees and 6 keys.

## Part d

Part D of the seventeenth held-out batch (families custom-rules, shapes, other), written by a blind helper
session that never opened the rules under `autograder/` nor any message the course prints.

How the cases were found: searches of the `issues` corpus (JAX's tracker and those of diffrax, equinox,
numpyro, optax, jaxopt, blackjax, cuEquivariance, navix and others), of the `pages` and `docs` corpora, one
snapshot fetch (navix, to read the commit behind its PR) and `read_file`/`find_string` on JAX's own docs
sources to confirm what the two documentation pages show. Every candidate's address was checked against the
`source=` of error_mistakes.py and heldout_error_mistakes*.py before it was used; at most three cases come
from any one site (three from the jax-ml/jax tracker, three from docs.jax.dev pages). Each case was run on
JAX 0.10.2 before it was kept; several uncited threads were dropped because their code no longer fails on
0.10.2 (jax 18113, 3056, 6357, 5351, 1159, 17448, cuEquivariance 158) or because the thread shows no fix
(jax 4802, 3727, 13302).

- diffrax issue 446 (shapes): a vector field multiplies a weight matrix by the 0-d time `t`
  ("matmul input operand 1 must have ndim at least 1"); the answer: give `t` a dimension before the matmul.
  `fixed` uses `jnp.atleast_1d(t)`; the thread says only "add a dimension to t" (new category
  scalar-to-1d-b17d).
- jax issue 18074 (other): `jax.pure_callback` given a bare shape tuple as `result_shape_dtypes`
  (AttributeError: 'int' object has no attribute 'dtype'); the fix in the thread and its PR: describe the
  result with `jax.ShapeDtypeStruct` (new category shape-dtype-struct-b17d).
- jax issue 8299 (other): `sparse.BCOO.fromdense` inside `jax.jit` without `nse` (ConcretizationTypeError);
  the maintainer's fix, and the improved error of PR 8305: pass a static `nse` (category static-nse-b15a).
- navix PR 44 (other): an integer upper bound written as Python's `sys.maxsize` overflows int32 under the
  default x32 mode (OverflowError); the commit replaced it with `jnp.iinfo(jnp.int16).max` (new category
  iinfo-bound-b17d). The case writes the literal value of `sys.maxsize` so that no `sys` import is needed.
- jax issue 9954 (other): NumPy's in-place `put_along_axis` carried over to JAX; the maintainer's fix: use the
  index-update operators `.at[...].set(...)` (category at-set). On 0.10.2 `jnp.put_along_axis` exists but
  raises ValueError unless `inplace=False`, so the mistake still fails; `fixed` is the thread's `.at` form.
- docs.jax.dev/en/latest/aot.html, two cases (other): (1) an executable compiled ahead of time for int32
  scalars called with length-3 vectors ("Argument types differ from the types for which this computation was
  compiled"); the page's fix: lower and compile for the argument types it will be called with (category
  jit-lower). (2) `jax.vmap` applied to an AOT-compiled executable ("Cannot apply JAX transformations to a
  function lowered and compiled..."); the page's fix: transform the `jax.jit` function instead (new category
  vmap-jitted-not-compiled-b17d).
- docs.jax.dev/en/latest/notebooks/thinking_in_jax.html (other): `lax.add` on an int and a float (TypeError:
  lax.add requires arguments to have the same dtypes); the page's fix: promote explicitly,
  `lax.add(jnp.float32(1), 1.0)` (new category explicit-promotion-b17d).

New categories: scalar-to-1d-b17d (give the 0-d value a dimension: `jnp.atleast_1d`, `[None]`,
`reshape(1)`, or those words), shape-dtype-struct-b17d (`jax.ShapeDtypeStruct`), iinfo-bound-b17d
(`jnp.iinfo(...)` or an int32/int16 maximum as the bound), explicit-promotion-b17d (`jnp.float32(...)`,
`.astype(...)`, `convert_element_type`, `jnp.add(`, or "explicit promotion"), vmap-jitted-not-compiled-b17d
(`jax.vmap(jax.jit(...))`, or words saying to transform the jitted function, not the compiled one).

Shortfall: 8 cases instead of 14, and the mix is off (custom-rules 0 of 4, shapes 1 of 5, other 7 of 5). The
custom-rules threads that the searches returned (custom_vjp bwd/fwd structure, nondiff_argnums, hessian of a
custom_vjp, custom_jvp tangent shape, closed-over values) were all already cited by earlier batches, or
repeated a cited mistake (cuEquivariance issue 162 is the same tuple-versus-list fwd mistake as the cited
cuEquivariance PR 295), or no longer fail on 0.10.2; the shape threads found were mostly cited (equinox 205,
454, 662, QArray PR 1) or library bugs without a user fix. Rather than pad the part with duplicates, it
stops here; the two extra "other" cases are kept because they are distinct errors with distinct fixes.
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

@error_case(family="vmap", fix="vmap-in-axes-none", raises="ValueError",
            source="https://crackedaicode.com/problems/jax-grad-then-vmap-vs-vmap-then-grad",
            line="per_slope = jax.vmap(jax.grad(sq_err))(gain, samples)",
            fixed="per_slope = jax.vmap(jax.grad(sq_err), in_axes=(None, 0))(gain, samples)",
            args=lambda: (0.75, np.array([1.0, 2.0, 4.0], np.float32)))
def tarn_per_sample_slopes(gain, samples):
    # one shared scalar gain, a batch of samples: per-example gradients w.r.t. the gain
    def sq_err(g, s):
        return (g * s - 1.0) ** 2
    per_slope = jax.vmap(jax.grad(sq_err))(gain, samples)
    return per_slope.sum()


@error_case(family="vmap", fix="vmap-nested", raises="ValueError",
            source="https://kiwix.lema.org/stackoverflow.com_en_all_2023-11/questions/73212780/"
                   "struggling-to-understand-nested-vmaps-in-jax",
            line="return jax.vmap(blend, in_axes=(0, 0))(lows, highs)",
            fixed="return jax.vmap(jax.vmap(blend, in_axes=(None, 0)), in_axes=(0, None))(lows, highs)",
            args=lambda: (np.arange(4.0, dtype=np.float32), np.arange(10.0, 16.0, dtype=np.float32)))
def tarn_all_pairs_table(lows, highs):
    # wanted: the (4, 6) table of blend(lows[i], highs[j]) for every pair
    def blend(a, b):
        return 0.25 * a + 0.75 * b
    return jax.vmap(blend, in_axes=(0, 0))(lows, highs)


@error_case(family="vmap", fix="vmap-out-axes", raises="ValueError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.vmap.html",
            line="return jax.vmap(lambda r: r - r.mean(), out_axes=None)(rows)",
            fixed="return jax.vmap(lambda r: r - r.mean(), out_axes=0)(rows)",
            args=lambda: (np.arange(12.0, dtype=np.float32).reshape(3, 4),))
def tarn_centre_rows(rows):
    # each row is centred on its own mean, so every output depends on the mapped row
    return jax.vmap(lambda r: r - r.mean(), out_axes=None)(rows)


@error_case(family="vmap", fix="where", raises="TracerBoolConversionError",
            source="https://github.com/jax-ml/jax/issues/24740",
            line="return 1.0 if jnp.abs(z) > 2.0 else 0.0",
            fixed="return jnp.where(jnp.abs(z) > 2.0, 1.0, 0.0)",
            args=lambda: (np.array([0.1, -0.5, 1.5, 3.0], np.float32),))
def tarn_escape_flags(seeds):
    def escaped(c):
        z = c
        for _ in range(3):
            z = z * z + c
        return 1.0 if jnp.abs(z) > 2.0 else 0.0
    return jax.vmap(escaped)(seeds)


@error_case(family="vmap", fix="functools-partial", raises="ValueError",
            source="https://livebook.manning.com/learn/concepts/in-axes--api-element/deep-learning-with-jax",
            line="return jax.vmap(stretch, in_axes=(0,))(arrows, koeff=factor)",
            fixed="return jax.vmap(functools.partial(stretch, koeff=factor))(arrows)",
            args=lambda: (np.arange(24.0, dtype=np.float32).reshape(8, 3), 2.0))
def tarn_stretch_arrows(arrows, factor):
    # the factor is shared by all eight arrows, but it is passed by keyword
    def stretch(v, koeff):
        return koeff * v
    return jax.vmap(stretch, in_axes=(0,))(arrows, koeff=factor)


@error_case(family="vmap", fix="vmap-in-axes-axis", raises="ValueError",
            source="https://blog.csdn.net/bbbeoy/article/details/139438455",
            line="return jax.vmap(jnp.add, in_axes=(None, None))(grid, offset)",
            fixed="return jax.vmap(jnp.add, in_axes=(0, None))(grid, offset)",
            args=lambda: (np.arange(6.0, dtype=np.float32).reshape(2, 3), np.array([10.0, 20.0, 30.0], np.float32)))
def tarn_shift_rows(grid, offset):
    # every row of the grid gets the same offset added
    return jax.vmap(jnp.add, in_axes=(None, None))(grid, offset)


# ----------------------------------------------------------------------------------------------- grad

@error_case(family="grad", fix="grad-scalar", raises="TypeError",
            source="https://github.com/riberaborrell/playground-jax",
            line="return jax.vmap(jax.grad(jax.grad(bowl))(points))",
            fixed="return jax.vmap(jax.grad(jax.grad(bowl)))(points)",
            args=lambda: (np.array([0.5, -1.0, 2.0], np.float32),))
def tarn_batched_curvature(points):
    def bowl(x):
        return 0.5 * x ** 2
    return jax.vmap(jax.grad(jax.grad(bowl))(points))


@error_case(family="grad", fix="value-and-grad-b17a", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-value-and-grad",
            line="loss, slope = jax.grad(fit_loss)(weight, xs)",
            fixed="loss, slope = jax.value_and_grad(fit_loss)(weight, xs)",
            args=lambda: (2.0, np.array([1.0, 3.0], np.float32)))
def tarn_loss_and_slope(weight, xs):
    def fit_loss(w, x):
        return jnp.sum((w * x - 1.0) ** 2)
    loss, slope = jax.grad(fit_loss)(weight, xs)
    return jnp.stack([loss, slope])


@error_case(family="grad", fix="loop-body-callable", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-jacfwd-vs-jacrev",
            line="return jax.jacfwd(moments(point))(point)",
            fixed="return jax.jacfwd(moments)(point)",
            args=lambda: (np.array([1.0, 2.0, 0.5], np.float32),))
def tarn_moment_jacobian(point):
    def moments(v):
        return jnp.stack([jnp.sum(v), jnp.sum(v ** 2), jnp.sum(v ** 3)])
    return jax.jacfwd(moments(point))(point)


@error_case(family="grad", fix="hessian-b17a", raises="TypeError",
            source="https://openillumi.com/en/en-jax-flax-nn-hessian-efficient-calculation",
            line="return jax.vmap(jax.grad(jax.grad(energy)))(cloud)",
            fixed="return jax.vmap(jax.hessian(energy))(cloud)",
            args=lambda: (np.arange(12.0, dtype=np.float32).reshape(4, 3) / 10.0,))
def tarn_input_hessians(cloud):
    # scalar energy of one 3-vector input; we want the (3, 3) second derivative per input
    def energy(x):
        return jnp.sum(jnp.sin(x)) + jnp.dot(x, x)
    return jax.vmap(jax.grad(jax.grad(energy)))(cloud)


@error_case(family="grad", fix="scalar-shape-b17a", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.grad.html",
            line="return jax.grad(lambda w: w @ feats + bias)(weights)",
            fixed="return jax.grad(lambda w: (w @ feats + bias)[0])(weights)",
            args=lambda: (np.array([0.2, -0.4, 1.0], np.float32), np.array([1.0, 2.0, 3.0], np.float32),
                          np.array([0.5], np.float32)))
def tarn_score_gradient(weights, feats, bias):
    # bias has shape (1,), so the score is a shape-(1,) array, not a scalar
    return jax.grad(lambda w: w @ feats + bias)(weights)


@error_case(family="grad", fix="aux-nesting-b17a", raises="ValueError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.value_and_grad.html",
            line="loss, resid, grads = jax.value_and_grad(fit, has_aux=True)(coef)",
            fixed="(loss, resid), grads = jax.value_and_grad(fit, has_aux=True)(coef)",
            args=lambda: (np.array([0.5, -1.0], np.float32), np.array([[1.0, 2.0], [3.0, 4.0]], np.float32),
                          np.array([1.0, 0.0], np.float32)))
def tarn_fit_step(coef, design, target):
    def fit(c):
        r = design @ c - target
        return jnp.mean(r ** 2), r
    loss, resid, grads = jax.value_and_grad(fit, has_aux=True)(coef)
    return coef - 0.1 * grads


# ---- part b


# ----------------------------------------------------------------------------------------------------------- loops

@error_case(family="loops", fix="static-loop-bounds", raises="ValueError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.lax.fori_loop.html",
            line="slope = jax.jit(jax.grad(compound))(rate, periods)",
            fixed="slope = jax.jit(jax.grad(compound), static_argnums=1)(rate, periods)",
            args=lambda: (1.05, 4))
def wrenly_growth_slope(rate, periods):
    def compound(r, n):
        return lax.fori_loop(0, n, lambda i, acc: acc * r, 1.0)
    slope = jax.jit(jax.grad(compound))(rate, periods)
    return slope


@error_case(family="loops", fix="close-over", raises="TypeError",
            source="https://code-examples.net/en/q/4c0cfd3",
            line="final, trace = lax.scan(drift_step, level, pushes)",
            fixed="final, trace = lax.scan(functools.partial(drift_step, gain=gain), level, pushes)",
            args=lambda: (2.0, np.array([1.0, 0.5, -0.25, 2.0], np.float32), 0.1))
def wrenly_drift_track(level, pushes, gain):
    def drift_step(carry, push, gain):
        new = carry + gain * push
        return new, new
    final, trace = lax.scan(drift_step, level, pushes)
    return final, trace


@error_case(family="loops", fix="body-signature", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-fori-vs-scan-vs-while",
            line="return lax.fori_loop(0, rounds, lambda acc, i: acc * 0.5, jnp.asarray(stock))",
            fixed="return lax.fori_loop(0, rounds, lambda i, acc: acc * 0.5, jnp.asarray(stock))",
            args=lambda: (np.array([8.0, 4.0, 2.0], np.float32), 3))
def wrenly_halvings(stock, rounds):
    # each round halves every entry of the stock vector
    return lax.fori_loop(0, rounds, lambda acc, i: acc * 0.5, jnp.asarray(stock))


@error_case(family="loops", fix="logical", raises="TracerBoolConversionError",
            source="https://github.com/jax-ml/jax/issues/2708",
            line="return not jnp.allclose(value, goal)",
            fixed="return jnp.logical_not(jnp.allclose(value, goal))",
            args=lambda: (0.0, 6.0))
def wrenly_count_up(start, goal):
    def keep_going(value):
        return not jnp.allclose(value, goal)
    return lax.while_loop(keep_going, lambda v: v + 1.0, jnp.float32(start))


# -------------------------------------------------------------------------------------------------------- branches

@error_case(family="branches", fix="elementwise-and", raises="TracerBoolConversionError",
            source="https://docs.jax.dev/en/latest/201/control-flow.html",
            line="return jnp.where((reading > 0) and (reading < limit), reading, 0.0)",
            fixed="return jnp.where((reading > 0) & (reading < limit), reading, 0.0)",
            args=lambda: (2.5, 4.0))
def brisk_in_window(reading, limit):
    @jax.jit
    def keep(reading):
        return jnp.where((reading > 0) and (reading < limit), reading, 0.0)
    return keep(reading)


@error_case(family="branches", fix="cond", raises="TracerBoolConversionError",
            source="https://livebook.manning.com/learn/concepts/structured-control-flow--technique/deep-learning-with-jax",
            line="return jax.jit(lambda v: v if v > 0 else 0.0)(signal)",
            fixed="return jax.jit(lambda v: lax.cond(v > 0, lambda u: u, lambda u: 0.0, v))(signal)",
            args=lambda: (-1.25,))
def brisk_rectify(signal):
    return jax.jit(lambda v: v if v > 0 else 0.0)(signal)


@error_case(family="branches", fix="static-arg", raises="TracerBoolConversionError",
            source="https://www.cnblogs.com/xyz/p/17954270",
            line="return jax.jit(lambda v, flip: -v if flip else v)(value, negate)",
            fixed="return jax.jit(lambda v, flip: -v if flip else v, static_argnums=(1,))(value, negate)",
            args=lambda: (111.0, False))
def brisk_maybe_negate(value, negate):
    return jax.jit(lambda v, flip: -v if flip else v)(value, negate)


@error_case(family="branches", fix="branch-types", raises="TypeError",
            source="https://apxml.com/courses/advanced-jax/chapter-1-advanced-jax-transformations-control-flow/conditional-execution-lax-cond",
            line="return lax.cond(use_mask, lambda v: (v > 0).astype(jnp.int32), lambda v: v, jnp.asarray(scores))",
            fixed="return lax.cond(use_mask, lambda v: (v > 0).astype(v.dtype), lambda v: v, jnp.asarray(scores))",
            args=lambda: (np.array([0.5, -1.0, 2.0], np.float32), True))
def brisk_mask_or_keep(scores, use_mask):
    return lax.cond(use_mask, lambda v: (v > 0).astype(jnp.int32), lambda v: v, jnp.asarray(scores))


@error_case(family="branches", fix="switch-int-index", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.lax.switch.html",
            line="return lax.switch(jnp.floor(level / 10.0), [calm, busy, storm], level)",
            fixed="return lax.switch(jnp.floor(level / 10.0).astype(jnp.int32), [calm, busy, storm], level)",
            args=lambda: (14.0,))
def brisk_tiered(level):
    def calm(v):
        return v * 0.5
    def busy(v):
        return v
    def storm(v):
        return v * 2.0
    return lax.switch(jnp.floor(level / 10.0), [calm, busy, storm], level)


@error_case(family="branches", fix="select-where", raises="TypeError",
            source="https://apxml.com/courses/advanced-jax/chapter-1-advanced-jax-transformations-control-flow/conditional-execution-lax-cond",
            line="return lax.cond(gains > 0, lambda g: g, lambda g: g * 0.0, gains)",
            fixed="return jnp.where(gains > 0, gains, gains * 0.0)",
            args=lambda: (np.array([0.5, -1.0, 2.0, -0.25], np.float32),))
def brisk_clip_losses(gains):
    gains = jnp.asarray(gains)
    # meant per entry: keep the positive gains, zero the losses
    return lax.cond(gains > 0, lambda g: g, lambda g: g * 0.0, gains)


# ----------------------------------------------------------------------------------------------- loops (continued)

@error_case(family="loops", fix="int-index", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-fori-vs-scan-vs-while",
            line="_, total = lax.while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, s[1] + table[s[0]]), (0.0, 0.0))",
            fixed="_, total = lax.while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, s[1] + table[s[0]]), (0, 0.0))",
            args=lambda: (np.array([3.0, 1.0, 4.0, 1.5, 9.0], np.float32), 4))
def wrenly_prefix_total(values, n):
    table = jnp.asarray(values)
    _, total = lax.while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, s[1] + table[s[0]]), (0.0, 0.0))
    return total


@error_case(family="loops", fix="static-arg", raises="TypeError",
            source="https://crackedaicode.com/problems/jax-fori-vs-scan-vs-while",
            line="return jax.jit(lambda b, k: lax.scan(lambda c, _: (c * b, c * b), 1.0, jnp.ones(k))[0])(base, power)",
            fixed="return jax.jit(lambda b, k: lax.scan(lambda c, _: (c * b, c * b), 1.0, jnp.ones(k))[0], static_argnums=1)(base, power)",
            args=lambda: (2.0, 5))
def wrenly_power_by_scan(base, power):
    return jax.jit(lambda b, k: lax.scan(lambda c, _: (c * b, c * b), 1.0, jnp.ones(k))[0])(base, power)


# ---- part c


# ====================================================================== pytrees

@error_case(family="pytrees", fix="tree-partial-b17c", raises="TypeError",
            source="https://openillumi.com/?p=110968",
            line="state, _ = lax.scan(walk, (potential, jnp.float32(0.0)), steps)",
            fixed="state, _ = lax.scan(walk, (jax.tree_util.Partial(potential), jnp.float32(0.0)), steps)",
            args=lambda: (np.linspace(0.0, 1.0, 5, dtype=np.float32),))
def quilt_function_in_carry(steps):
    potential = lambda q: -0.5 * q ** 2  # noqa: E731

    def walk(carry, q):
        fn, total = carry
        return (fn, total + fn(q)), None

    state, _ = lax.scan(walk, (potential, jnp.float32(0.0)), steps)
    return state[1]


@error_case(family="pytrees", fix="unmark-static", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/24204",
            line="outs = [advance(FrozenTable(weights, jnp.array(table))) for _ in range(2)]",
            fixed="outs = [advance(LeafTable(weights, jnp.array(table))) for _ in range(2)]",
            args=lambda: (np.ones(3, np.float32), np.arange(4, dtype=np.float32)))
def quilt_static_array_field(weights, table):
    @jax.tree_util.register_dataclass
    @dataclasses.dataclass
    class FrozenTable:
        w: jax.Array
        tab: jax.Array = dataclasses.field(metadata={"static": True})

    @jax.tree_util.register_dataclass
    @dataclasses.dataclass
    class LeafTable:
        w: jax.Array
        tab: jax.Array

    advance = jax.jit(lambda s: s.w * 2.0 + s.tab.sum())
    outs = [advance(FrozenTable(weights, jnp.array(table))) for _ in range(2)]
    return outs[-1]


@error_case(family="pytrees", fix="tree-same-structure", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/12643",
            line='out = jax.jit(affine, in_shardings=({"w": where, "b": where},))(params)',
            fixed='out = jax.jit(affine, in_shardings=({"w": where, "b": where, "scale": where},))(params)',
            args=lambda: ({"w": np.ones(3, np.float32), "b": np.zeros(3, np.float32),
                           "scale": np.float32(2.0)},))
def quilt_sharding_spec_keys(params):
    where = jax.sharding.SingleDeviceSharding(jax.devices()[0])

    def affine(p):
        return p["w"] * p["scale"] + p["b"]

    out = jax.jit(affine, in_shardings=({"w": where, "b": where},))(params)
    return out


@error_case(family="pytrees", fix="prefix-first-b17c", raises="ValueError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.tree.map.html",
            line="merged = jax.tree.map(lambda tail, head: [head] + tail, tails, heads)",
            fixed="merged = jax.tree.map(lambda head, tail: [head] + tail, heads, tails)",
            args=lambda: ([3, 4], [[10, 11], [12, 13]]))
def quilt_prefix_tree_second(heads, tails):
    merged = jax.tree.map(lambda tail, head: [head] + tail, tails, heads)
    return merged


@error_case(family="pytrees", fix="plain-dict-container", raises="ValueError",
            source="https://github.com/apple/axlearn/pull/47",
            line="scaled = jax.tree.map(lambda p, spec: p * spec, params, specs)",
            fixed="scaled = jax.tree.map(lambda p, spec: p * spec, dict(params.items()), specs)",
            args=lambda: (np.ones(3, np.float32), np.zeros(3, np.float32)))
def quilt_frozen_mapping_vs_dict(weights, bias):
    @jax.tree_util.register_pytree_node_class
    class FrozenParams:
        def __init__(self, mapping):
            self._d = dict(mapping)

        def items(self):
            return self._d.items()

        def tree_flatten(self):
            names = tuple(sorted(self._d))
            return tuple(self._d[n] for n in names), names

        @classmethod
        def tree_unflatten(cls, names, children):
            return cls(zip(names, children))

    params = FrozenParams({"w": weights, "b": bias})
    specs = {"w": 2.0, "b": 1.0}
    scaled = jax.tree.map(lambda p, spec: p * spec, params, specs)
    return scaled


@error_case(family="pytrees", fix="unflatten-any-leaf", raises="ValueError",
            source="https://github.com/patrick-kidger/jaxtyping/issues/177",
            line="self.w = jnp.asarray(w, dtype=jnp.float32)",
            fixed="self.w = w",
            args=lambda: (np.ones(3, np.float32), np.zeros(3, np.float32)))
def quilt_convert_in_init(weights, bias):
    @jax.tree_util.register_pytree_node_class
    class Dense:
        def __init__(self, w, b):
            self.w = jnp.asarray(w, dtype=jnp.float32)
            self.b = b

        def tree_flatten(self):
            return (self.w, self.b), None

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(*children)

    layer = Dense(weights, bias)
    kinds = jax.tree.map(lambda leaf: leaf.dtype.name, layer)
    return kinds.b


# ====================================================================== keys

@error_case(family="keys", fix="key-one-style", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/17990",
            line="np.testing.assert_array_equal(first, again)",
            fixed="np.testing.assert_array_equal(jax.random.key_data(first), jax.random.key_data(again))",
            args=lambda: (11,))
def quilt_compare_typed_keys(seed):
    first = jax.random.fold_in(jax.random.key(seed), 3)
    again = jax.random.fold_in(jax.random.key(seed), 3)
    np.testing.assert_array_equal(first, again)
    return jax.random.uniform(first, (2,))


@error_case(family="keys", fix="prng-key", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.random.PRNGKey.html",
            line='draws = jax.random.split(jax.random.PRNGKey(seed, impl="rbg"), 3)',
            fixed='draws = jax.random.split(jax.random.key(seed, impl="rbg"), 3)',
            args=lambda: (7,))
def quilt_legacy_key_other_impl(seed):
    draws = jax.random.split(jax.random.PRNGKey(seed, impl="rbg"), 3)
    return jax.vmap(lambda k: jax.random.normal(k, (2,)))(draws)


@error_case(family="keys", fix="wrap-key-dtype-b16c", raises="TypeError",
            source="https://docs.jax.dev/en/latest/_autosummary/jax.random.wrap_key_data.html",
            line="restored = jax.random.wrap_key_data(saved)",
            fixed="restored = jax.random.wrap_key_data(saved, dtype=original.dtype)",
            args=lambda: (21,))
def quilt_rewrap_without_dtype(seed):
    original = jax.random.key(seed, impl="rbg")
    saved = jax.random.key_data(original)
    restored = jax.random.wrap_key_data(saved)
    return jax.random.uniform(restored, (3,))


@error_case(family="keys", fix="key-no-arith", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/17904",
            line="step_key = base + 7",
            fixed="step_key = jax.random.fold_in(base, 7)",
            args=lambda: (13,))
def quilt_key_plus_offset(seed):
    base = jax.random.key(seed)
    step_key = base + 7
    return jax.random.normal(step_key, (2,))


@error_case(family="keys", fix="key-one-style", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/37484",
            line="padded = lax.pad(batch, 0, ((0, extra, 0),))",
            fixed="padded = jax.random.wrap_key_data(lax.pad(jax.random.key_data(batch), jnp.uint32(0), ((0, extra, 0), (0, 0, 0))))",
            args=lambda: (2, 5, 3))
def quilt_pad_key_batch(seed, count, extra):
    batch = jax.random.split(jax.random.key(seed), count)
    padded = lax.pad(batch, 0, ((0, extra, 0),))
    return jax.vmap(lambda k: jax.random.uniform(k))(padded)


@error_case(family="keys", fix="split-count", raises="ValueError",
            source="https://www.creativeworksofknowledge.com/cwk-quests/jax-quest/random/5/",
            line="noisy = jax.vmap(jitter, in_axes=(0, 0))(rows, key)",
            fixed="noisy = jax.vmap(jitter, in_axes=(0, 0))(rows, jax.random.split(key, rows.shape[0]))",
            args=lambda: (np.zeros((4, 3), np.float32), 8))
def quilt_map_unsplit_key(rows, seed):
    key = jax.random.key(seed)

    def jitter(row, k):
        return row + 0.1 * jax.random.normal(k, row.shape)

    noisy = jax.vmap(jitter, in_axes=(0, 0))(rows, key)
    return noisy


# ---- part d


@error_case(family="shapes", fix="scalar-to-1d-b17d", raises="ValueError",
            source="https://github.com/patrick-kidger/diffrax/issues/446",
            line="return jnp.tanh(weights @ t)",
            fixed="return jnp.tanh(weights @ jnp.atleast_1d(t))",
            args=lambda: (np.float32(0.5), np.ones((3, 1), np.float32)))
def brisk_time_feature(t, weights):
    # a force network whose first layer takes a one-feature input; the solver hands it a 0-d time
    return jnp.tanh(weights @ t)


@error_case(family="other", fix="shape-dtype-struct-b17d", raises="AttributeError",
            source="https://github.com/jax-ml/jax/issues/18074",
            line="return jax.pure_callback(host_double, (values.shape[0],), values)",
            fixed="return jax.pure_callback(host_double, jax.ShapeDtypeStruct(values.shape, values.dtype), values)",
            args=lambda: (np.arange(4.0, dtype=np.float32),))
def brisk_host_double(values):
    def host_double(v):
        return (np.asarray(v) * 2).astype(np.float32)
    return jax.pure_callback(host_double, (values.shape[0],), values)


@error_case(family="other", fix="static-nse-b15a", raises="ConcretizationTypeError",
            source="https://github.com/jax-ml/jax/issues/8299",
            line="packed = sparse.BCOO.fromdense(mat)",
            fixed="packed = sparse.BCOO.fromdense(mat, nse=mat.shape[0])",
            args=lambda: (np.eye(4, dtype=np.float32),))
def brisk_sparse_total(mat):
    from jax.experimental import sparse

    @jax.jit
    def total(mat):
        packed = sparse.BCOO.fromdense(mat)
        return packed.data.sum()
    return total(mat)


@error_case(family="other", fix="iinfo-bound-b17d", raises="OverflowError",
            source="https://github.com/epignatelli/navix/pull/44",
            line="upper = jnp.asarray(9223372036854775807)",
            fixed="upper = jnp.asarray(jnp.iinfo(jnp.int16).max)",
            args=lambda: (np.array([[0, 3], [7, 2]], np.int32),))
def brisk_grid_bounds(grid):
    # a discrete observation space whose upper bound was written as Python's sys.maxsize
    upper = jnp.asarray(9223372036854775807)
    return jnp.all(grid <= upper)


@error_case(family="other", fix="at-set", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/9954",
            line="return jnp.put_along_axis(table, picks, marks, axis=1)",
            fixed="return jnp.asarray(table).at[jnp.arange(table.shape[0])[:, None], picks].set(marks)",
            args=lambda: (np.zeros((3, 4), np.float32), np.array([[1], [0], [3]], np.int32),
                          np.ones((3, 1), np.float32)))
def brisk_mark_cells(table, picks, marks):
    # NumPy's put_along_axis writes into `table`; a JAX array cannot be written into
    return jnp.put_along_axis(table, picks, marks, axis=1)


@error_case(family="other", fix="jit-lower", raises="TypeError",
            source="https://docs.jax.dev/en/latest/aot.html",
            line="return scaled_sum.lower(one, one).compile()(left, right)",
            fixed="return scaled_sum.lower(left, right).compile()(left, right)",
            args=lambda: (np.arange(3, dtype=np.int32), np.arange(3, dtype=np.int32)))
def brisk_aot_pair(left, right):
    scaled_sum = jax.jit(lambda a, b: 2 * a + b)
    one = jax.ShapeDtypeStruct((), jnp.dtype("int32"))
    # compiled ahead of time for scalars, then called with length-3 vectors
    return scaled_sum.lower(one, one).compile()(left, right)


@error_case(family="other", fix="vmap-jitted-not-compiled-b17d", raises="TypeError",
            source="https://docs.jax.dev/en/latest/aot.html",
            line="return jax.vmap(row_apply_aot)(stack)",
            fixed="return jax.vmap(jax.jit(row_apply))(stack)",
            args=lambda: (np.ones((3, 2), np.float32), np.ones((4, 3, 2), np.float32)))
def brisk_aot_batch(one, stack):
    def row_apply(m):
        return m @ jnp.ones(2, m.dtype)
    row_apply_aot = jax.jit(row_apply).lower(one).compile()
    return jax.vmap(row_apply_aot)(stack)


@error_case(family="other", fix="explicit-promotion-b17d", raises="TypeError",
            source="https://docs.jax.dev/en/latest/notebooks/thinking_in_jax.html",
            line="return lax.add(count, rate)",
            fixed="return lax.add(jnp.float32(count), rate)",
            args=lambda: (3, 0.5))
def brisk_lax_sum(count, rate):
    # jnp.add would promote int + float; lax.add takes operands of one dtype
    return lax.add(count, rate)
