"""An eleventh held-out batch of JAX errors outside jit, written by two helper sessions at once that never
opened the rules under `autograder/` nor any message the course prints (part a: vmap, grad, loops,
branches, pytrees; part b: keys, custom rules, shapes, other), so that its first run measures how the
course's explanations carry over to mistakes they were not fitted on. 44 cases in all (part a 22, part b 22);
each part's own account follows.

## Part a

Written by a helper that never opened `autograder/`, `docs/`, the README, the top-level tests, `error_runs.py`,
`rates.py` or `case_hints.py`, and never ran anything that prints a course message; it read only `CATEGORIES` and
`error_case` in corpus.py, check_error_cases.py and the earlier case files (for the format and for the threads
already cited). Each case was made the same way: find a public thread (searched with the issue and page corpora,
then read, and for PRs the merged diff where the mirror had it), check that no tests/mistakes file cites its URL,
reduce the thread's mistake to a fresh function with new names and numbers, and take `fixed` from what the
maintainers or the answer did; every case was run through `check_error_cases.py --heldout 11` before it was
committed. 22 cases: vmap 5, grad 4, loops 4, branches 4, pytrees 5.

Threads and projects: jax-ml/jax issues 2215, 2348, 2990, 4309, 10247, 17264 and PR 10424; google/jaxopt 242;
jkitchin/discopt 66 (fixed by PR 67); google-deepmind/mujoco 2259; google-deepmind/ferminet PR 105;
Physical-Intelligence/openpi PR 550; IGE-OPERA/jaxparrow issue 42 (two cases) and PR 57 (two cases; the release PR
that describes the change, whose code is commit f22da98, merged just before through PR 56); michael-0brien/cryojax PR 374; google/evojax PR 40;
adaptive-intelligent-robotics/Kheperax PR 2; lindermanlab/ssm-jax 37; one Stack Overflow question through the
php.wlsqs.com mirror (derivative order looped over a traced value, answered with precomputed derivatives and
`lax.switch`); one openillumi.com article built on a Stack Overflow question (a loop count drawn with
`jax.random.randint` inside jit).

New fix categories (in corpus.CATEGORIES and FIXES, patterns written from the maintainers' fixes alone):
`list-to-tuple-b11a` (give `lax.cond`/`lax.scan` state a tuple, not a list: ferminet restored a list where the
carry held a tuple), `switch-branches-b11a` (precompute one function per case and pick it with `lax.switch`
instead of looping to a traced count), `jacobian-b11a` (take `jax.jacobian`/`jacfwd`/`jacrev` of a
vector-valued function instead of `jax.grad`, as discopt PR 67 did).

Caveats, where the thread does not show the fixed line and `fixed` is inferred from it:
pick_cells_by_index (jax 4309 says to index an array, the exact `jnp.array(...)[n]` line is mine);
batched_argmin (jaxopt 242's fix was the solver's `jit=True`, which runs `lax.while_loop`; the one-line
`lax.while_loop` is the equivalent written out); energy_gradient (jax 2215: the int leaf is closed over rather
than differentiated; the closure line is mine); pair_slot_values (jax 2348: `is_leaf=lambda t: t is None` follows
later JAX guidance for None slots); geostrophic_speed_per_snapshot and mean_sea_level_per_snapshot (jaxparrow 42
only says `np.*` must become `jnp.*` and masked arrays must go; commit 5e475fa passes masks as separate arrays,
so the `jnp.where` mean is my rendering); response_sensitivity (jax 10247 fixed `expit` inside JAX so a list is
rejected consistently; passing `jnp.array(logits)` is the user-side fix); carry_over_coefficients (jax 17264:
the maintainer says the body is traced even for zero iterations and points to JAX code that guards the empty
case first; the Python guard line is mine); relax_random_number_of_times (the article's main fix is drawing the
count outside jit and marking it static; its stated alternative, `lax.fori_loop`, is used because the fix must
replace the raising line); keep_state_if_nan (ferminet converted the restored list to a tuple where it was
loaded; the case applies the tuple at the `lax.cond` line). cyclogeostrophic_fixed_point and iteration_residual
follow the jaxparrow diff closely but compress a multi-line `lax.while_loop`/`lax.cond` into one line.
Repeated messages: TracerBoolConversionError appears four times (one BatchTracer under vmap, two "for jit ...
depends on the value of the argument", one inside a `while_loop` body with operation provenance), so its first
sentence repeats although the rest differs; "Gradient only defined for scalar-output functions" and the vmap
TracerArrayConversionError appear twice each; four pytrees cases are removed `jax.tree_*` names (different names).

Shortfall: 22 of the 23 aimed for (grad has 4, not 5). Most search hits for these families in jax-ml/jax and in
the usual library trackers were already cited by earlier batches, and uncited Stack Overflow material in the
page corpus was sparse, so several cases lean on library PRs whose diffs show the fix.

## Part b

Part b (the families keys, custom rules, shapes and `other`) was written by a helper session that never
opened the rules under `autograder/`, this project's `docs/` or README, nor any message the course prints.

How the cases were made: each function is reduced from one public thread that none of `error_mistakes.py`,
`heldout_error_mistakes.py` ... `heldout_error_mistakes_10.py` (nor the jit and retrace corpora) cites: issues
and pull requests of JAX and of projects that use it (flax, cryojax, probml-utils, simsopt, Piscis, scico,
alphagenome_ft, nanoGPT-jax, PennyLane), and two pages of JAX's own documentation that each show mistakes and
their fixes (JEP 9263 on typed PRNG keys, JEP 4008 on the `custom_vjp` / `nondiff_argnums` update; read from
the JAX repository's `docs/` folder, not this project's). The code is new (names and numbers differ from the
thread), the mistake is the thread's. Called eagerly on `args()` with the pinned jax (0.10.2), each function
raises `raises` at `line`, the innermost line of the function itself; `fixed` is that line as the thread's
maintainers, accepted answer, merged change or reporter fixed it. Where a fix changes how a custom rule is
defined (PennyLane, JEP 4008), the function builds both the mistaken and the fixed rule in small helpers and
the failing line picks one of them, so that the fix fits on the failing line; where the failing code is a
lambda (under `grad`, `vmap`, `jit`) the lambda sits on the failing line.

What it leans on: keys (NumPy's removed `jax.random.shuffle`, indexing a typed key to seed a new one, key
arithmetic to make a batch of keys, mapping a batch of typed keys along a key-buffer axis that no longer
exists, `randint` over the full `uint32` range with a Python-int `maxval`); custom rules (`jacfwd` through a
`custom_vjp` function, a function passed as an argument to `jax.custom_gradient`, array-valued
`nondiff_argnums` under `vmap`, differentiating with respect to a value a `custom_jvp` function closes over);
shapes (a random, traced sample count used as a shape under `jit`, a `stax` network initialised with an input
shape that has no feature dimension, `jnp.linalg.norm` over three axes, a `stax` `Conv` applied to one image
without a batch axis); and, outside the eight families, APIs that JAX or NumPy renamed or removed: `jax.tree_map`,
`jax.experimental.optimizers`, `from jax.config import config`, `jax.lib.xla_bridge`,
`jax.scipy.special.sph_harm`, `jax.device_put_replicated`, `jnp.round_`, `lax.tie_in`, and PyTorch's
`tensor.split` method called on a JAX array. Six of the nine `other` cases are removed names (each with its
own message text), which is where uncited threads with visible fixes were found in the time.

Ten new fix categories were added to `corpus.py` (and `FIXES` in `check_error_cases.py`), with patterns written
from the maintainers' fixes alone: `example-libraries-b11b` (import from `jax.example_libraries`),
`config-import-b11b` (`from jax import config` / `jax.config.update`), `sph-harm-y-b11b` (call `sph_harm_y`),
`device-put-b11b` (replicate with `jax.device_put` and a sharding), `jnp-round-b11b` (`jnp.round`),
`jnp-split-b11b` (`jnp.split(x, ...)`, not an array method), `randint-range-b11b` (give `maxval` the requested
unsigned dtype, or draw with `jax.random.bits`), `feature-dim-b11b` (give the input shape its trailing feature
dimension, `(-1, 1)`), `norm-flatten-b11b` (flatten before taking the norm) and `drop-tie-in-b11b` (drop the
`tie_in` call and use the value directly).

Caveats, where the stored thread does not show the exact fixed line and `fixed` writes the fix it points to
(inferred): jax issue 18766 (closed as answered, but no answer is stored; `fixed` passes `maxval` as a
`jnp.uint32` value, which addresses the int32 conversion the reporter pinpointed; `jax.random.bits` would
also do), jax issue 26112 (the maintainer explains that one axis means a vector norm and two a matrix norm;
`fixed` flattens the array), jax issue 381 (the discussion says `stax`'s `Conv` needs a batch dimension and
that `vmap` works; `fixed` adds a singleton batch axis and drops it afterwards), jax pull request 19413 (the
deprecation of `tie_in`, "a pre-omnistaging relic"; `fixed` drops the call, which only returned its second
argument), scico pull request 594 (the swap to `sph_harm_y`; the argument order `(n, m, theta, phi)` is taken
from JAX pull request 25753, which added it), and the JEP 9263 page, whose "incorrect/correct" key-transposing
example writes `vmap(..., axis=...)` (a typo JAX pull request 20474 later corrected to `in_axes`); with typed
keys the mistaken mapped axis 1 does not exist, so `fixed` maps axis 0 as the page's correct version does.
Fixes that are the reporter's own, confirmed or adopted in the thread: probml-utils issue 33 (the maintainer
applied the reporter's import), simsopt issue 447 (the import from JAX discussion 18403, applied by a
maintainer's commit), alphagenome_ft issue 11 (the drop-in replacement from JAX's migration docs), jax issue 931
(the reporter's workaround of a trailing size-one dimension, which the maintainer's reply presupposes), and
jax issue 1366 (the reporter's working factory that closes over the function; the maintainers' reply is not
stored). nanoGPT-jax pull request 1 and PennyLane pull request 2791 are not merged (the former is open, the
latter a closed work-in-progress whose approach is switching the interface from `custom_vjp` to
`custom_jvp`). jax issue 5013 is the maintainer's own advice (do not `jit` the part with the random-sized
shape). On jax 0.10.2 the JEP 4008 closure case raises `UnexpectedTracerError` rather than the page's quoted
message; the page's advice (pass the closed-over value in as an argument) is the fix.

Shortfall: none against the brief's counts (keys 5, custom rules 4, shapes 4, other 9).

22 cases (keys 5, custom rules 4, shapes 4, other 9), 19 threads (JEP 9263 gives three cases, JEP 4008 two).
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


# ---------------------------------------------------------------- part a: vmap, grad, loops, branches, pytrees

@error_case(family="vmap", fix="in-axes-tuple", raises="TypeError",
            source="https://github.com/jax-ml/jax/pull/10424",
            line="return jax.vmap(lambda cfg: cfg['rate'] * cfg['dose'], in_axes={'rate': 0, 'dose': 0})(config)",
            fixed="return jax.vmap(lambda cfg: cfg['rate'] * cfg['dose'], in_axes=({'rate': 0, 'dose': 0},))(config)",
            args=lambda: ({'rate': jnp.array([0.5, 1.0, 1.5]), 'dose': jnp.array([2.0, 4.0, 6.0])},))
def dose_per_config(config):
    return jax.vmap(lambda cfg: cfg['rate'] * cfg['dose'], in_axes={'rate': 0, 'dose': 0})(config)


@error_case(family="pytrees", fix="tree-api", raises="AttributeError",
            source="https://github.com/michael-0brien/cryojax/pull/374",
            line="return jax.tree_map(lambda leaf: leaf * pixel_size, particle)",
            fixed="return jax.tree.map(lambda leaf: leaf * pixel_size, particle)",
            args=lambda: ({'offset': jnp.array([1.0, -2.0]), 'defocus': jnp.array(8000.0)}, 1.3))
def rescale_particle_params(particle, pixel_size):
    return jax.tree_map(lambda leaf: leaf * pixel_size, particle)


@error_case(family="branches", fix="list-to-tuple-b11a", raises="TypeError",
            source="https://github.com/google-deepmind/ferminet/pull/105",
            line="return lax.cond(jnp.isnan(loss), lambda: restored_state, lambda: new_state)",
            fixed="return lax.cond(jnp.isnan(loss), lambda: tuple(restored_state), lambda: new_state)",
            args=lambda: ([jnp.ones(3), jnp.zeros(2)], (jnp.full(3, 0.5), jnp.ones(2)), jnp.array(0.25)))
def keep_state_if_nan(restored_state, grads, loss):
    new_state = tuple(s - 0.1 * g for s, g in zip(restored_state, grads))
    return lax.cond(jnp.isnan(loss), lambda: restored_state, lambda: new_state)


@error_case(family="vmap", fix="list-to-array", raises="TracerIntegerConversionError",
            source="https://github.com/jax-ml/jax/issues/4309",
            line="row, col = cell_pairs[n]",
            fixed="row, col = jnp.array(cell_pairs)[n]",
            args=lambda: ([[0, 1], [1, 2], [2, 0], [1, 1]], jnp.arange(9.0).reshape(3, 3)))
def pick_cells_by_index(cell_pairs, grid):
    def one_cell(n):
        row, col = cell_pairs[n]
        return grid[row, col] * 2.0
    return jax.vmap(one_cell)(jnp.arange(len(cell_pairs)))


@error_case(family="branches", fix="switch-branches-b11a", raises="ConcretizationTypeError",
            source="https://php.wlsqs.com/faq/1922820.html",
            line="for _ in jnp.arange(order): f = jax.grad(f)",
            fixed="f = lambda v: lax.switch(order, [jnp.tanh, jax.grad(jnp.tanh), jax.grad(jax.grad(jnp.tanh))], v)",
            args=lambda: (jnp.array([0, 1, 2, 1]), 0.3))
def tanh_derivative_of_order(orders, x):
    def nth(order):
        f = jnp.tanh
        for _ in jnp.arange(order): f = jax.grad(f)
        return f(x)
    return jax.vmap(nth)(orders)


@error_case(family="pytrees", fix="tree-api", raises="AttributeError",
            source="https://github.com/google/evojax/pull/40",
            line="return jax.tree_multimap(lambda v, g: momentum * v + g, velocity, fitness_grads)",
            fixed="return jax.tree_util.tree_map(lambda v, g: momentum * v + g, velocity, fitness_grads)",
            args=lambda: ({'mu': jnp.zeros(4), 'log_sigma': jnp.zeros(4)},
                          {'mu': jnp.array([0.1, -0.2, 0.3, 0.0]), 'log_sigma': jnp.full(4, -0.05)}, 0.9))
def es_momentum_step(velocity, fitness_grads, momentum):
    return jax.tree_multimap(lambda v, g: momentum * v + g, velocity, fitness_grads)


@error_case(family="grad", fix="grad-scalar", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/2990",
            line="return jax.grad(field_values)(points)",
            fixed="return jax.jacrev(field_values)(points)",
            args=lambda: (jnp.array([[0.5, -0.3], [0.2, 0.8]]), jnp.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])))
def field_input_gradients(weights, points):
    def field_values(xs):
        hidden = jnp.tanh(xs @ weights)
        return hidden.sum(axis=1)
    return jax.grad(field_values)(points)


@error_case(family="grad", fix="close-over", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/2215",
            line="return jax.grad(energy)(params)",
            fixed="return jax.grad(lambda c: energy({'coeff': c, 'power': params['power']}))(params['coeff'])",
            args=lambda: (1.5, 3))
def energy_gradient(coeff, power):
    params = {'coeff': coeff, 'power': power}
    def energy(p):
        return p['power'] * p['coeff'] ** 2
    return jax.grad(energy)(params)


@error_case(family="pytrees", fix="none-leaf", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/2348",
            line="return jax.tree.map(lambda new, old: (new, old), current, previous)",
            fixed="return jax.tree.map(lambda new, old: (new, old), current, previous, is_leaf=lambda t: t is None)",
            args=lambda: (jnp.array([1.0, 2.0]), jnp.array([0.5, 0.5])))
def pair_slot_values(fresh, stale):
    current = [None, fresh]
    previous = [stale, None]
    return jax.tree.map(lambda new, old: (new, old), current, previous)


@error_case(family="loops", fix="static-loop-bounds", raises="ValueError",
            source="https://github.com/google-deepmind/mujoco/issues/2259",
            line="return jax.grad(lambda k: lax.while_loop(lambda s: ~converged(s, k), lambda s: relax_step(s, k), init)[0])(stiffness)",
            fixed="return jax.grad(lambda k: lax.scan(lambda s, _: (lax.cond(converged(s, k), lambda: s, lambda: relax_step(s, k)), None), init, length=200)[0][0])(stiffness)",
            args=lambda: (2.0, 1.0))
def equilibrium_sensitivity(stiffness, load):
    def relax_step(state, k):
        x, it = state
        return x - 0.1 * (k * x - load), it + 1

    def converged(state, k):
        x, it = state
        return (jnp.abs(k * x - load) < 1e-4) | (it >= 200)

    init = (jnp.zeros(()), 0)
    return jax.grad(lambda k: lax.while_loop(lambda s: ~converged(s, k), lambda s: relax_step(s, k), init)[0])(stiffness)


@error_case(family="pytrees", fix="tree-util-flatten", raises="AttributeError",
            source="https://github.com/adaptive-intelligent-robotics/Kheperax/pull/2",
            line="leaves = jax.tree_leaves(genotypes)",
            fixed="leaves = jax.tree_util.tree_leaves(genotypes)",
            args=lambda: ({'layer0': {'w': jnp.ones((3, 4)), 'b': jnp.zeros(4)}, 'layer1': {'w': jnp.ones((4, 2))}},))
def genotype_size(genotypes):
    leaves = jax.tree_leaves(genotypes)
    return sum(leaf.size for leaf in leaves)


@error_case(family="vmap", fix="while_loop", raises="TracerBoolConversionError",
            source="https://github.com/google/jaxopt/issues/242",
            line="while jnp.abs(slope(x)) > 1e-3: x = x - 0.25 * slope(x)",
            fixed="x = lax.while_loop(lambda v: jnp.abs(slope(v)) > 1e-3, lambda v: v - 0.25 * slope(v), x)",
            args=lambda: (jnp.array([0.1, 1.5, -2.0, 4.0]), 2.1))
def batched_argmin(starts, shift):
    def slope(x):
        return 2.0 * (x - shift) + 1.0

    def solve(x):
        while jnp.abs(slope(x)) > 1e-3: x = x - 0.25 * slope(x)
        return x
    return jax.vmap(solve)(starts)


@error_case(family="grad", fix="jacobian-b11a", raises="TypeError",
            source="https://github.com/jkitchin/discopt/issues/66",
            line="row = jax.grad(body)(origin)",
            fixed="row = jax.jacobian(body)(origin).reshape(-1, origin.size)",
            args=lambda: (jnp.array([[1.0, -2.0, 0.5], [0.0, 3.0, 1.0]]), jnp.array([4.0, -1.0])))
def linear_constraint_rows(coeffs, offsets):
    def body(x):
        return coeffs @ x - offsets

    origin = jnp.zeros(coeffs.shape[1])
    row = jax.grad(body)(origin)
    return row, body(origin)


@error_case(family="vmap", fix="np-to-jnp", raises="TracerArrayConversionError",
            source="https://github.com/IGE-OPERA/jaxparrow/issues/42",
            line="dh_dy, dh_dx = np.gradient(ssh, spacing)",
            fixed="dh_dy, dh_dx = jnp.gradient(ssh, spacing)",
            args=lambda: (jnp.arange(48.0).reshape(3, 4, 4) ** 1.5, 0.25, 9.81))
def geostrophic_speed_per_snapshot(ssh_stack, spacing, gravity):
    def speed(ssh):
        dh_dy, dh_dx = np.gradient(ssh, spacing)
        return gravity * jnp.hypot(dh_dx, dh_dy)
    return jax.vmap(speed)(ssh_stack)


@error_case(family="loops", fix="while_loop", raises="TracerBoolConversionError",
            source="https://github.com/IGE-OPERA/jaxparrow/pull/57",
            line="while not jnp.all(jnp.abs(step(u) - u) < tol): u = step(u)",
            fixed="u = lax.while_loop(lambda v: ~jnp.all(jnp.abs(step(v) - v) < tol), step, u)",
            args=lambda: (jnp.array([[0.3, 0.5], [0.2, 0.4]]), jnp.array([[1.0, 1.2], [0.9, 1.1]]), 1e-5))
def cyclogeostrophic_fixed_point(u_geo, coriolis, tol):
    def step(u):
        return u_geo - 0.2 * u * u / coriolis

    @jax.jit
    def solve(u):
        while not jnp.all(jnp.abs(step(u) - u) < tol): u = step(u)
        return u
    return solve(u_geo)


@error_case(family="branches", fix="cond", raises="TracerBoolConversionError",
            source="https://github.com/Physical-Intelligence/openpi/pull/550",
            line="token = jax.random.categorical(sub, logits / temperature, axis=-1) if temperature > 0.0 else jnp.argmax(logits, axis=-1)",
            fixed="token = lax.cond(temperature > 0.0, lambda: jax.random.categorical(sub, logits / temperature, axis=-1), lambda: jnp.argmax(logits, axis=-1))",
            args=lambda: (jnp.array([[0.1, 2.0, -1.0, 0.5], [1.5, 0.2, 0.3, -0.4]]), 0.7, 3))
def decode_tokens(first_logits, temperature, max_steps):
    vocab = first_logits.shape[-1]

    @jax.jit
    def run(first_logits, temperature):
        def step(carry):
            key, logits, tokens, i = carry
            key, sub = jax.random.split(key)
            token = jax.random.categorical(sub, logits / temperature, axis=-1) if temperature > 0.0 else jnp.argmax(logits, axis=-1)
            tokens = tokens.at[:, i].set(token)
            logits = jnp.roll(logits, 1, axis=-1) + 0.1 * jax.nn.one_hot(token, vocab)
            return key, logits, tokens, i + 1

        init = (jax.random.key(0), first_logits, jnp.zeros((first_logits.shape[0], max_steps), jnp.int32), 0)
        return lax.while_loop(lambda c: c[3] < max_steps, step, init)[2]
    return run(first_logits, temperature)


@error_case(family="pytrees", fix="tree-api", raises="AttributeError",
            source="https://github.com/lindermanlab/ssm-jax/issues/37",
            line="same = jax.tree_util.tree_multimap(lambda a, b: bool(jnp.allclose(a, b)), first, second)",
            fixed="same = jax.tree_util.tree_map(lambda a, b: bool(jnp.allclose(a, b)), first, second)",
            args=lambda: ({'means': jnp.array([0.0, 1.0]), 'scales': jnp.array([1.0, 2.0])},
                          {'means': jnp.array([0.0, 1.0]), 'scales': jnp.array([1.0, 2.5])}))
def trees_all_close(first, second):
    same = jax.tree_util.tree_multimap(lambda a, b: bool(jnp.allclose(a, b)), first, second)
    return all(jax.tree_util.tree_leaves(same))


@error_case(family="loops", fix="fori_loop", raises="TracerIntegerConversionError",
            source="https://openillumi.com/en/en-jax-jit-dynamic-loop-error-fix",
            line="for _ in range(n_steps): x = step(x)",
            fixed="x = lax.fori_loop(0, n_steps, lambda _, v: step(v), x)",
            args=lambda: (1.0, 7))
def relax_random_number_of_times(start, seed):
    def step(x):
        return 0.5 * x + 1.0

    @jax.jit
    def run(x, seed):
        n_steps = jax.random.randint(jax.random.key(seed), (), 1, 10)
        for _ in range(n_steps): x = step(x)
        return x
    return run(start, seed)


@error_case(family="loops", fix="python-if-static", raises="IndexError",
            source="https://github.com/jax-ml/jax/issues/17264",
            line="return lax.fori_loop(0, n_old, lambda i, c: jnp.where((modes_old[i] == modes_new).all(axis=1), c_old[i], c), c_new)",
            fixed="return c_new if n_old == 0 else lax.fori_loop(0, n_old, lambda i, c: jnp.where((modes_old[i] == modes_new).all(axis=1), c_old[i], c), c_new)",
            args=lambda: (jnp.zeros((0, 3)), jnp.zeros(0),
                          jnp.array([[0, 0, 0], [1, 0, 1], [1, 1, 0], [2, 0, 2]]), jnp.zeros(4)))
def carry_over_coefficients(modes_old, c_old, modes_new, c_new):
    n_old = modes_old.shape[0]
    return lax.fori_loop(0, n_old, lambda i, c: jnp.where((modes_old[i] == modes_new).all(axis=1), c_old[i], c), c_new)


@error_case(family="grad", fix="list-to-array", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/10247",
            line="return jax.jacrev(jax.scipy.special.expit)(logits)",
            fixed="return jax.jacrev(jax.scipy.special.expit)(jnp.array(logits))",
            args=lambda: ([-0.5, 1.0, 2.5],))
def response_sensitivity(logits):
    return jax.jacrev(jax.scipy.special.expit)(logits)


@error_case(family="branches", fix="cond", raises="TracerBoolConversionError",
            source="https://github.com/IGE-OPERA/jaxparrow/pull/57",
            line="res = jnp.convolve(res, kernel, mode='same') if use_filter else res",
            fixed="res = lax.cond(use_filter, lambda r: jnp.convolve(r, kernel, mode='same'), lambda r: r, res)",
            args=lambda: (jnp.array([0.2, 0.5, 0.4, 0.9, 0.3]), jnp.array([0.1, 0.4, 0.6, 0.7, 0.3]), True))
def iteration_residual(u_new, u_old, use_filter):
    kernel = jnp.ones(3) / 3.0

    @jax.jit
    def residual(u_new, u_old, use_filter):
        res = jnp.abs(u_new - u_old)
        res = jnp.convolve(res, kernel, mode='same') if use_filter else res
        return res
    return residual(u_new, u_old, use_filter)


@error_case(family="vmap", fix="where", raises="TracerArrayConversionError",
            source="https://github.com/IGE-OPERA/jaxparrow/issues/42",
            line="return np.ma.masked_array(ssh, mask=~valid).mean()",
            fixed="return jnp.sum(jnp.where(valid, ssh, 0.0)) / jnp.sum(valid)",
            args=lambda: (jnp.array([[0.2, 0.4, 0.9], [0.1, 0.3, 0.5]]),
                          jnp.array([[True, True, False], [True, False, True]])))
def mean_sea_level_per_snapshot(ssh_stack, valid_stack):
    def masked_mean(ssh, valid):
        return np.ma.masked_array(ssh, mask=~valid).mean()
    return jax.vmap(masked_mean)(ssh_stack, valid_stack)

# ====================================================================== part b: keys
@error_case(family="keys", fix="permutation-not-shuffle", raises="AttributeError",
            source="https://github.com/google/flax/pull/242",
            line="order = jax.random.shuffle(key, jnp.arange(n_nodes))",
            fixed="order = jax.random.permutation(key, jnp.arange(n_nodes))",
            args=lambda: (jnp.array([[0.0, 1.0], [1.0, 0.5], [2.0, 2.5], [3.0, 0.1], [4.0, 4.4]]), 7))
def shuffled_node_features(features, seed):
    key = jax.random.key(seed)
    n_nodes = features.shape[0]
    order = jax.random.shuffle(key, jnp.arange(n_nodes))
    return features[order]


@error_case(family="keys", fix="key-no-arith", raises="IndexError",
            source="https://docs.jax.dev/en/latest/jep/9263-typed-keys.html",
            line="new_key = jax.random.key(key[1])",
            fixed="key, new_key = jax.random.split(key)",
            args=lambda: (999,))
def fresh_dropout_mask(seed):
    key = jax.random.key(seed)
    new_key = jax.random.key(key[1])
    return jax.random.bernoulli(new_key, 0.7, (4,))


@error_case(family="keys", fix="key-no-arith", raises="TypeError",
            source="https://docs.jax.dev/en/latest/jep/9263-typed-keys.html",
            line="walker_keys = key + jnp.arange(n_walkers)",
            fixed="walker_keys = jax.random.split(key, n_walkers)",
            args=lambda: (0, 5))
def walker_initial_positions(seed, n_walkers):
    key = jax.random.key(seed)
    walker_keys = key + jnp.arange(n_walkers)
    return jax.vmap(lambda k: jax.random.normal(k, (2,)))(walker_keys)


@error_case(family="keys", fix="vmap-in-axes-axis", raises="ValueError",
            source="https://docs.jax.dev/en/latest/jep/9263-typed-keys.html",
            line="return jax.vmap(jax.random.uniform, in_axes=1)(keys)",
            fixed="return jax.vmap(jax.random.uniform, in_axes=0)(keys)",
            args=lambda: (0,))
def one_uniform_per_key(seed):
    keys = jax.random.split(jax.random.key(seed))
    return jax.vmap(jax.random.uniform, in_axes=1)(keys)


@error_case(family="keys", fix="randint-range-b11b", raises="OverflowError",
            source="https://github.com/jax-ml/jax/issues/18766",
            line="seeds = jax.random.randint(key, (n_workers,), minval=0, maxval=2 ** 32 - 1, dtype=jnp.uint32)",
            fixed="seeds = jax.random.randint(key, (n_workers,), minval=0, maxval=jnp.uint32(2 ** 32 - 1), dtype=jnp.uint32)",
            args=lambda: (3, 4))
def worker_seeds(seed, n_workers):
    key = jax.random.key(seed)
    seeds = jax.random.randint(key, (n_workers,), minval=0, maxval=2 ** 32 - 1, dtype=jnp.uint32)
    return seeds


# ====================================================================== part b: custom rules
@error_case(family="custom-rules", fix="use-custom-jvp-b10d", raises="TypeError",
            source="https://github.com/PennyLaneAI/pennylane/pull/2791",
            line="return jax.jacfwd(with_rule(jax.custom_vjp))(angles)",
            fixed="return jax.jacfwd(with_rule(jax.custom_jvp))(angles)",
            args=lambda: (jnp.array([0.3, 0.9]),))
def expval_forward_jacobian(angles):
    def expval(theta):
        return jnp.cos(theta[0]) * jnp.cos(theta[1])

    def with_rule(kind):
        f = kind(expval)
        if kind is jax.custom_vjp:
            f.defvjp(lambda t: (expval(t), t),
                     lambda t, g: (g * jnp.array([-jnp.sin(t[0]) * jnp.cos(t[1]), -jnp.cos(t[0]) * jnp.sin(t[1])]),))
        else:
            f.defjvp(lambda p, d: (expval(p[0]), jnp.dot(jnp.array([-jnp.sin(p[0][0]) * jnp.cos(p[0][1]),
                                                                    -jnp.cos(p[0][0]) * jnp.sin(p[0][1])]), d[0])))
        return f
    return jax.jacfwd(with_rule(jax.custom_vjp))(angles)


@error_case(family="custom-rules", fix="close-over", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/1366",
            line="return jax.grad(lambda a, b: doubled(jnp.multiply, a, b), argnums=(0, 1))(x, y)",
            fixed="return jax.grad(make_doubled(jnp.multiply), argnums=(0, 1))(x, y)",
            args=lambda: (2.0, 3.0))
def doubled_product_grads(x, y):
    @jax.custom_gradient
    def doubled(func, a, b):
        out, f_vjp = jax.vjp(func, a, b)
        return out, lambda g: (None,) + tuple(2.0 * p for p in f_vjp(g))

    def make_doubled(func):
        @jax.custom_gradient
        def f(a, b):
            out, f_vjp = jax.vjp(func, a, b)
            return out, lambda g: tuple(2.0 * p for p in f_vjp(g))
        return f

    return jax.grad(lambda a, b: doubled(jnp.multiply, a, b), argnums=(0, 1))(x, y)


@error_case(family="custom-rules", fix="nondiff-arrays", raises="UnexpectedTracerError",
            source="https://docs.jax.dev/en/latest/jep/4008-custom-vjp-update.html",
            line="return jax.vmap(lambda hi: jax.grad(lambda v: clip_old(-hi, hi, v) * 3.0)(x))(bounds)",
            fixed="return jax.vmap(lambda hi: jax.grad(lambda v: clip_new(-hi, hi, v) * 3.0)(x))(bounds)",
            args=lambda: (0.5, jnp.array([1.0, 2.0, 4.0])))
def clipped_slopes(x, bounds):
    clip_old = jax.custom_vjp(lambda lo, hi, v: v, nondiff_argnums=(0, 1))
    clip_old.defvjp(lambda lo, hi, v: (v, None), lambda lo, hi, _, g: (jnp.clip(g, lo, hi),))

    clip_new = jax.custom_vjp(lambda lo, hi, v: v)
    clip_new.defvjp(lambda lo, hi, v: (v, (lo, hi)), lambda res, g: (None, None, jnp.clip(g, res[0], res[1])))

    return jax.vmap(lambda hi: jax.grad(lambda v: clip_old(-hi, hi, v) * 3.0)(x))(bounds)


@error_case(family="custom-rules", fix="pass-closed-over", raises="UnexpectedTracerError",
            source="https://docs.jax.dev/en/latest/jep/4008-custom-vjp-update.html",
            line="return jax.grad(lambda s: with_jvp(lambda y: s * jnp.sin(y))(3.0))(scale)",
            fixed="return jax.grad(lambda s: with_jvp(lambda y, c: c * jnp.sin(y))(3.0, s))(scale)",
            args=lambda: (2.0,))
def amplitude_sensitivity(scale):
    def with_jvp(fn):
        f = jax.custom_jvp(fn)
        f.defjvp(lambda p, t: (fn(*p), jax.jvp(fn, p, t)[1]))
        return f
    return jax.grad(lambda s: with_jvp(lambda y: s * jnp.sin(y))(3.0))(scale)


# ====================================================================== part b: other
@error_case(family="other", fix="tree-api", raises="AttributeError",
            source="https://github.com/michael-0brien/cryojax/pull/374",
            line="first = jax.tree_map(lambda leaf: leaf[0:1], per_image)",
            fixed="first = jax.tree.map(lambda leaf: leaf[0:1], per_image)",
            args=lambda: ({'defocus': jnp.array([1.2, 1.5, 0.9]), 'pose': jnp.arange(6.0).reshape(3, 2)},))
def first_image_parameters(per_image):
    first = jax.tree_map(lambda leaf: leaf[0:1], per_image)
    return first['defocus'] * jnp.sum(first['pose'])


@error_case(family="other", fix="example-libraries-b11b", raises="ImportError",
            source="https://github.com/probml/probml-utils/issues/33",
            line="from jax.experimental import optimizers",
            fixed="from jax.example_libraries import optimizers",
            args=lambda: (jnp.array([1.0, -2.0, 0.5]), 0.1))
def one_sgd_step(weights, step_size):
    from jax.experimental import optimizers
    init_fn, update_fn, get_params = optimizers.sgd(step_size)
    state = init_fn(weights)
    grads = jax.grad(lambda w: jnp.sum(w ** 2))(weights)
    return get_params(update_fn(0, grads, state))


@error_case(family="other", fix="config-import-b11b", raises="ModuleNotFoundError",
            source="https://github.com/hiddenSymmetries/simsopt/issues/447",
            line="from jax.config import config",
            fixed="from jax import config",
            args=lambda: (jnp.array([0.25, 0.5, 0.125]),))
def coil_currents_dtype(currents):
    from jax.config import config
    wide = jnp.float64 if config.jax_enable_x64 else jnp.float32
    return currents.astype(wide) * 2.0


@error_case(family="other", fix="cpu-platform", raises="AttributeError",
            source="https://github.com/zjniu/Piscis/pull/4",
            line="platform = jax.lib.xla_bridge.get_backend().platform",
            fixed="platform = jax.default_backend()",
            args=lambda: (jnp.arange(16.0),))
def tile_sums_for_backend(pixels):
    platform = jax.lib.xla_bridge.get_backend().platform
    tile = 4 if platform == "cpu" else 8
    return pixels.reshape(-1, tile).sum(axis=1)


@error_case(family="other", fix="sph-harm-y-b11b", raises="AttributeError",
            source="https://github.com/lanl/scico/pull/594",
            line="y = jax.scipy.special.sph_harm(order, degree, azimuth, polar, n_max=4)",
            fixed="y = jax.scipy.special.sph_harm_y(degree, order, polar, azimuth, n_max=4)",
            args=lambda: (jnp.array([1, 0]), jnp.array([2, 3]), jnp.array([0.7, 1.1]), jnp.array([0.3, 2.0])))
def harmonic_magnitudes(order, degree, azimuth, polar):
    y = jax.scipy.special.sph_harm(order, degree, azimuth, polar, n_max=4)
    return jnp.abs(y)


@error_case(family="other", fix="device-put-b11b", raises="AttributeError",
            source="https://github.com/genomicsxai/alphagenome_ft/issues/11",
            line="copies = jax.device_put_replicated(params, devices)",
            fixed="copies = jax.tree.map(lambda y: jax.device_put(jnp.stack([y] * len(devices)), sharding), params)",
            args=lambda: ({'w': jnp.ones((3, 2)), 'b': jnp.array([0.5, -0.5])},))
def replicate_head_params(params):
    devices = jax.local_devices()
    mesh = jax.sharding.Mesh(np.array(devices), ('x',))
    sharding = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec('x'))
    copies = jax.device_put_replicated(params, devices)
    return jax.tree.map(lambda leaf: leaf.shape[0], copies)


@error_case(family="other", fix="jnp-round-b11b", raises="AttributeError",
            source="https://github.com/jax-ml/jax/pull/23397",
            line="cents = jnp.round_(prices * 100.0)",
            fixed="cents = jnp.round(prices * 100.0)",
            args=lambda: (jnp.array([1.234, 5.678, 9.999]),))
def prices_to_cents(prices):
    cents = jnp.round_(prices * 100.0)
    return cents.astype(jnp.int32)


@error_case(family="other", fix="jnp-split-b11b", raises="AttributeError",
            source="https://github.com/cgarciae/nanoGPT-jax/pull/1",
            line="q, k, v = qkv.split(3, axis=-1)",
            fixed="q, k, v = jnp.split(qkv, 3, axis=-1)",
            args=lambda: (jnp.arange(24.0).reshape(2, 12) / 10.0,))
def attention_scores(qkv):
    q, k, v = qkv.split(3, axis=-1)
    weights = jax.nn.softmax(q @ k.T, axis=-1)
    return weights @ v


@error_case(family="other", fix="drop-tie-in-b11b", raises="AttributeError",
            source="https://github.com/jax-ml/jax/pull/19413",
            line="counts = lax.tie_in(x, jnp.zeros(n_bins))",
            fixed="counts = jnp.zeros(n_bins)",
            args=lambda: (jnp.array([0, 2, 2, 1]), 3))
def bin_counts(x, n_bins):
    counts = lax.tie_in(x, jnp.zeros(n_bins))
    return counts.at[x].add(1.0)


# ====================================================================== part b: shapes
@error_case(family="shapes", fix="compute-outside-trace", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/5013",
            line="draw = jax.jit(lambda k, c: jax.random.randint(k, (c.sum(), 3), 0, n_rows))",
            fixed="draw = lambda k, c: jax.random.randint(k, (c.sum(), 3), 0, n_rows)",
            args=lambda: (jnp.arange(40.0).reshape(8, 5), 3))
def random_size_subsample(data, seed):
    n_rows = data.shape[0]
    count_key, index_key = jax.random.split(jax.random.key(seed))
    block_counts = jax.random.poisson(count_key, 2.0, (2,))
    draw = jax.jit(lambda k, c: jax.random.randint(k, (c.sum(), 3), 0, n_rows))
    rows = draw(index_key, block_counts)
    return data[rows[:, 0]].sum()


@error_case(family="shapes", fix="feature-dim-b11b", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/931",
            line="out_shape, params = net_init(jax.random.key(seed), (-1,))",
            fixed="out_shape, params = net_init(jax.random.key(seed), (-1, 1))",
            args=lambda: (jnp.array([0.5, -1.0, 2.0]), 0))
def scalar_regressor_outputs(xs, seed):
    from jax.example_libraries import stax
    net_init, net_apply = stax.serial(stax.Dense(8), stax.Relu, stax.Dense(1))
    out_shape, params = net_init(jax.random.key(seed), (-1,))
    return net_apply(params, xs[:, None])[:, 0]


@error_case(family="shapes", fix="norm-flatten-b11b", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/26112",
            line="total = jnp.linalg.norm(field, axis=(0, 1, 2))",
            fixed="total = jnp.linalg.norm(field.ravel())",
            args=lambda: (jnp.arange(24.0).reshape(2, 3, 4) / 10.0,))
def rms_field_strength(field):
    total = jnp.linalg.norm(field, axis=(0, 1, 2))
    return total / jnp.sqrt(field.size)


@error_case(family="shapes", fix="add-batch-dim", raises="TypeError",
            source="https://github.com/jax-ml/jax/issues/381",
            line="feature_map = conv_apply(params, image)",
            fixed="feature_map = conv_apply(params, image[None])[0]",
            args=lambda: (jnp.linspace(0.0, 1.0, 36).reshape(6, 6, 1), 1))
def edge_features(image, seed):
    from jax.example_libraries import stax
    conv_init, conv_apply = stax.serial(stax.Conv(2, (3, 3), padding='SAME'), stax.Relu)
    _, params = conv_init(jax.random.key(seed), (-1,) + image.shape)
    feature_map = conv_apply(params, image)
    return feature_map.sum(axis=(0, 1))
