"""A ninth held-out batch of JAX errors outside jit, part b (the families keys, custom rules, shapes and
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
