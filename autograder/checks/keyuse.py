"""Key reuse judged by what the student's code did with its keys, observed while it runs.

JAX's experimental checker (`jax_debug_key_reuse`) infers reuse from how key *values* flow through
a jaxpr, and it errs on idioms that use every key once: unpacking a typed key array
(`key, *subkeys = jax.random.split(key, 4)`) is reported as reuse. A student who is right must
not lose a point to it, so the verdict here rests on evidence: the key data each random operation
actually consumed.

`observe` runs the function once, eagerly (`jax.disable_jit()`, so that jitted helpers, `scan`,
`fori_loop` and `while_loop` run op by op), with the implementations of two kinds of primitive
wrapped:
- the primitives of typed keys: `random_bits` (every draw: normal, uniform, bernoulli, ...),
  `random_split` and `random_gamma` consume their key; `random_fold_in` and `random_seed` derive
  keys and consume none (as in JAX's own rules);
- the PRNG primitives themselves, on raw uint32 key data, whatever API reached them:
  `threefry2x32` (`jax.extend.random.threefry_2x32` or its `threefry2x32_p`, on `key_data` or any
  uint32 words), `rng_bit_generator` (the rbg and unsafe_rbg keys' bits, `jax.lax.rng_bit_generator`),
  and `philox2x32`, `philox4x32`, `threefry4x32`. One call consumes the keys its key operands hold
  (broadcast against each other, not against the counters).
A key is its data words, however it is held and whatever implementation it is wrapped as: a typed
key, its `key_data`, the same words re-wrapped with `wrap_key_data` (as the same, a copied or another
implementation of the same width) or given to `threefry_2x32` are one key. Reuse is one key consumed twice: two
draws, or a split and a draw, through any of these routes. `vmap` reaches a primitive with the
whole batch of keys, and every key of the batch is one consumption (except `rng_bit_generator`,
whose batching rule reads only the batch's first key: the others are not consumed, and not counted).

A consumption that runs inside another watched operation (the threefry2x32 call inside a draw, a
split or fold_in; the splits and draws `jax.random.gamma` makes from its key inside its primitive)
is that operation's own work, and is not counted again, when every key word it hashes was given to
that operation (for fold_in and seeds: also their integers, and 0). A word it was not given, a key
from elsewhere, counts as a consumption of its own. Folding the same data into the same key twice
makes the same key, which is caught where both are drawn from.

What the evidence cannot see, and so cannot flag:
- a consuming primitive that runs compiled inside a control-flow primitive that could not run in
  Python (a `while_loop` whose condition is batched by `vmap`). `observe` says so (`unobserved`) and
  the check falls back to JAX's checker for that call, which judges typed keys only: a raw
  threefry2x32 draw there is not judged;
- draws that the function compiles itself inside the watch (`with jax.disable_jit(False):` around a
  jit, or an ahead-of-time compiled executable): it forges its own key-reuse point, one of the
  evidence points docs/SECURITY.md says a student can forge;
- a generator that is not JAX's PRNG: random bits made from key data by integer arithmetic (a
  threefry or a hash written by hand with jnp's xor, shifts and multiplies), by NumPy's or Python's
  generators seeded from `key_data`, or in a host callback. Reading key data is not consuming it;
  only one of the PRNG primitives above hashing it is;
- key data changed before it is hashed (`key_data(k) ^ 1`, one half of an rbg key given to
  threefry_2x32): a different key, not a reuse, however correlated its bits;
- inside a PRNG implementation the student defines (`jax.extend.random.define_prng_impl`), which runs
  inside the watched primitive: whatever it does with the key words that primitive was given is that
  one consumption (none, for fold_in and seeds), even if it hashes them twice.

Computation that `vmap` evaluates and then discards (both branches of a batched `cond`, the rows
of a batched `while_loop` that had already stopped) is observed as if it were used; so are JAX's own
`jax.random.poisson` and `jax.random.binomial`, which draw two algorithms from one key and keep
one (reported as reuse). None of the course's exercises draws there.
"""
from __future__ import annotations

import contextlib
import functools
import os
import sys

import jax
import jax.extend.random  # noqa: F401  (threefry_2x32, to find its primitive)
import jax.numpy as jnp
import numpy as np

from .facts import is_student_frame
from .tracing import _block

CONSUMERS = {"random_bits": "a random draw", "random_split": "jax.random.split",
             "random_gamma": "jax.random.gamma"}
# JAX's PRNG primitives on raw uint32 key data: how many leading operands are the key's words
# (None: one operand whose last axis is the key), and the implementation whose keys they hash, as
# `jax.random.key_impl` names it (the same key data drawn through either is the same key).
RAW = {"threefry2x32": (2, "threefry2x32"), "threefry4x32": (4, "threefry4x32"),
       "philox2x32": (1, "philox2x32"), "philox4x32": (2, "philox4x32"),
       "rng_bit_generator": (None, "rbg")}
# A key's identity is its data words alone, whatever implementation holds them: the same words
# wrapped as a copied or another implementation of the same width are the same key (red team:
# `second_split_under_another_impl`); no honest program hashes one key's words with two algorithms.
_WORDS = "words"
_RAW_LABEL = "the {} primitive on raw key data"
# Control flow that runs compiled at eval level when it cannot run in Python under disable_jit.
_COMPILED_REGIONS = ("while", "scan", "cond")
# Where the public jax.random functions live (a module in some releases, a package in others).
_PUBLIC_RANDOM = (os.path.join("jax", "_src", "random.py"), os.path.join("jax", "_src", "random", "core.py"))
_MAX_EVENTS = 100_000
_WORD = 0xFFFFFFFF


def _primitives_in(jaxpr, found: dict):
    for eqn in jaxpr.eqns:
        found.setdefault(eqn.primitive.name, eqn.primitive)
        for value in eqn.params.values():
            for sub in value if isinstance(value, (list, tuple)) else (value,):
                inner = getattr(sub, "jaxpr", None)
                if inner is not None:
                    _primitives_in(inner if hasattr(inner, "eqns") else inner.jaxpr, found)


@functools.lru_cache(maxsize=1)
def _primitives() -> dict:
    """JAX's primitives by name, found in jaxprs of public functions (their module moves between
    JAX releases; their names do not). The raw PRNG primitives are found in the jaxprs of the
    implementations themselves: `jax.extend.random.threefry_2x32` (threefry2x32 and rbg keys),
    `jax.lax.rng_bit_generator` (rbg, unsafe_rbg), and the bits function of the other implementations
    `jax.random.key(..., impl=)` accepts."""
    key = jax.random.key(0)
    found: dict = {}
    u32 = lambda *shape: jax.ShapeDtypeStruct(shape, jnp.uint32)   # noqa: E731  (traced, never computed)
    programs = [
        (lambda k: (jax.random.bits(k), jax.random.split(k), jax.random.gamma(k, 1.0),
                    jax.random.fold_in(k, 1)), (key,)),
        (lambda s: jax.random.key(s), (0,)),
        (lambda x: jax.lax.while_loop(lambda c: c < 3, lambda c: c + 1, x), (0,)),
        (lambda x: jax.lax.scan(lambda c, _: (c + 1, None), x, None, length=2), (0,)),
        (lambda x: jax.lax.cond(x > 0, lambda: x, lambda: -x), (1,)),
        (lambda d, c: jax.extend.random.threefry_2x32(d, c), (u32(2), u32(3))),
        (lambda d: jax.lax.rng_bit_generator(d, (2,)), (u32(4),)),
    ]
    for name in ("philox2x32", "philox4x32", "threefry4x32"):   # split, fold_in, seed: the same primitive
        try:   # the implementation behind a key of that name (eval_shape: nothing is compiled)
            impl = jax.eval_shape(functools.partial(jax.random.key, 0, impl=name)).dtype._impl
        except Exception:   # not in this release
            continue
        programs.append((lambda d, impl=impl: impl.random_bits(d, 32, (3,)), (u32(*impl.key_shape),)))
    for fn, args in programs:
        _primitives_in(jax.make_jaxpr(fn)(*args).jaxpr, found)
    return found


def _contains_consumer(params) -> bool:
    found: dict = {}
    for value in params.values():
        for sub in value if isinstance(value, (list, tuple)) else (value,):
            inner = getattr(sub, "jaxpr", None)
            if inner is not None:
                _primitives_in(inner if hasattr(inner, "eqns") else inner.jaxpr, found)
    return any(name in found for name in (*CONSUMERS, *RAW))


def _site() -> dict | None:
    """The student's line that led to this operation, and the jax.random function it called."""
    frame, api, where = sys._getframe(2), None, None
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.endswith(_PUBLIC_RANDOM) and not frame.f_code.co_name.startswith("_"):
            api = frame.f_code.co_name          # the outermost public jax.random function wins
        elif is_student_frame(filename):
            where = {"function": frame.f_code.co_name, "line": frame.f_lineno}
            break
        frame = frame.f_back
    if where is not None and api is not None:
        where["api"] = f"jax.random.{api}"
    return where


def _key_rows(keys) -> tuple:
    """One identity per key of the (possibly batched) key array (its data words); and the data, one
    row per key."""
    if jax.dtypes.issubdtype(keys.dtype, jax.dtypes.prng_key):
        data = np.asarray(jax.random.key_data(keys))
    else:   # a raw uint32 key reaching the primitive directly
        data = np.asarray(keys)
    count = int(np.prod(keys.shape)) if keys.shape else 1
    rows = data.reshape(count, -1)
    return [(_WORDS, row.tobytes()) for row in rows], rows


def _raw_rows(name: str, args) -> tuple:
    """The keys one call of a raw PRNG primitive hashed: its key operands broadcast against each
    other only (not against the counters), one row per key, as `vmap` batches them."""
    words, _ = RAW[name]
    if words is None:
        data = np.asarray(args[0])
        rows = data.reshape(-1, data.shape[-1]) if data.ndim else data.reshape(1, 1)
    else:
        parts = np.broadcast_arrays(*(np.asarray(a) for a in args[:words]))
        rows = np.stack(parts, axis=-1).reshape(-1, words)
    rows = np.ascontiguousarray(rows, dtype=np.uint32)
    return [(_WORDS, row.tobytes()) for row in rows], rows


def _integer_words(values) -> set:
    """The 32-bit words an integer input (a seed, fold_in's data) can reach a PRNG with."""
    ints = np.asarray(values).astype(np.int64).ravel()
    return {0, *(int(v) & _WORD for v in ints), *((int(v) >> 32) & _WORD for v in ints),
            *((int(v) & 0xFFFFFFFFFFFFFFFF) >> 32 for v in ints)}


@contextlib.contextmanager
def _watching(events: list, unobserved: list):
    """Record every consumption of key data. One that runs inside another watched operation (the
    threefry2x32 call inside `random_bits`, the splits inside `random_gamma`) is that operation's
    own work when every key word it hashes was given to it, and is not counted again."""
    prims = _primitives()
    saved = {}
    given: list = []   # per watched operation now running: every word given to it and to those around it

    def record(rows, label):
        if given and rows[1].size and set(rows[1].ravel().tolist()) <= given[-1]:
            return
        site = _site()
        for identity in rows[0]:
            if len(events) < _MAX_EVENTS:
                events.append((identity, label, site))

    def watched(prim, keys_of, label=None, integers_of=None):
        original = prim.impl

        def impl(*args, **params):
            rows = keys_of(args) if keys_of is not None else None
            if label is not None:
                record(rows, label)
            words = set(given[-1]) if given else set()
            if rows is not None:
                words.update(rows[1].ravel().tolist())
            if integers_of is not None:
                words |= _integer_words(integers_of(args))
            given.append(words)
            try:
                return original(*args, **params)
            finally:
                given.pop()
        return original, impl

    def region(prim):
        original = prim.impl

        def impl(*args, **params):
            if _contains_consumer(params):
                unobserved.append(prim.name)
            return original(*args, **params)
        return original, impl

    typed = lambda args: _key_rows(args[0])   # noqa: E731
    for name, label in CONSUMERS.items():
        saved[prims[name]] = watched(prims[name], typed, label)
    # fold_in and seeds consume nothing; watched so that the PRNG work inside them (threefry2x32 on
    # the folded key and the folded integer) is known to be theirs
    saved[prims["random_fold_in"]] = watched(prims["random_fold_in"], typed, integers_of=lambda args: args[1])
    saved[prims["random_seed"]] = watched(prims["random_seed"], None, integers_of=lambda args: args[0])
    for name in RAW:
        if name in prims:   # every one this release has
            saved[prims[name]] = watched(prims[name], functools.partial(_raw_rows, name),
                                         _RAW_LABEL.format(name))
    for name in _COMPILED_REGIONS:
        saved[prims[name]] = region(prims[name])
    for prim, (_, wrapper) in saved.items():
        prim.impl = wrapper
    try:
        yield lambda: all(prim.impl is wrapper for prim, (_, wrapper) in saved.items())
    finally:
        for prim, (original, _) in saved.items():
            prim.impl = original


def _describe_use(label: str, site: dict | None) -> str:
    what = (site or {}).get("api") or label
    if site is None:
        return what
    return f"{what} at line {site['line']} of {site['function']}"


def first_reuse(events: list) -> dict | None:
    """The first key consumed a second time: where it was consumed first and where again."""
    first_use: dict = {}
    for identity, label, site in events:
        if identity in first_use:
            before = first_use[identity]
            split = CONSUMERS["random_split"]
            return {"first": _describe_use(*before), "again": _describe_use(label, site),
                    "split_then_drawn": (before[0] == split) != (label == split)}
        first_use[identity] = (label, site)
    return None


def observe(fn, args, kwargs, describe_exception) -> dict:
    """Call `fn` once, watching every key it consumes. Plain data for the grader:
    {'ok', 'consumed' (keys), 'reuse' (None or where), 'unobserved' (primitive names), 'intact'}."""
    events: list = []
    unobserved: list = []
    with _watching(events, unobserved) as intact, jax.disable_jit():
        try:
            _block(fn(*args, **(kwargs or {})))
        except Exception as exc:
            return {"ok": False, "error": describe_exception(exc)}
        hooks_intact = intact()
    return {"ok": True, "consumed": len(events), "reuse": first_reuse(events),
            "unobserved": sorted(set(unobserved)), "intact": hooks_intact}
