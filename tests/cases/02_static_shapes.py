"""Known-wrong submissions for 02_static_shapes.

Each case replaces one solution cell (exercise id -> complete new cell source) and lists exactly the
graded test cells that must fail; every other graded cell must still pass.
"""

CASES = {
    # ------------------------------------------------------------ create_filled
    "create_filled_length_traced": {
        "why": "jax.jit without static_argnums: length arrives as a tracer and cannot be a shape",
        "cells": {"create_filled": (
            "def create_filled(val, length):\n"
            "    return jnp.full((length,), val)\n"
            "\n"
            "create_filled_jit = jax.jit(create_filled)\n")},
        "fails": ["create_filled_jit", "create_filled_retrace"],
    },
    "create_filled_val_static": {
        "why": "val (data) made static too: correct values, but every new val traces and compiles again",
        "cells": {"create_filled": (
            "def create_filled(val, length):\n"
            "    return jnp.full((length,), val)\n"
            "\n"
            "create_filled_jit = jax.jit(create_filled, static_argnums=(0, 1))\n")},
        "fails": ["create_filled_retrace"],
    },
    "create_filled_float_ones": {
        "why": "val * jnp.ones(length) is always float32: an int val loses its dtype",
        "cells": {"create_filled": (
            "def create_filled(val, length):\n"
            "    return val * jnp.ones(length)\n"
            "\n"
            "create_filled_jit = jax.jit(create_filled, static_argnums=1)\n")},
        "fails": ["create_filled_correctness"],
    },
    "create_filled_list_literal": {
        "why": "jnp.array([val] * length): right for every length but 0, where the empty list becomes a "
               "float32 array whatever val's dtype",
        "cells": {"create_filled": (
            "def create_filled(val, length):\n"
            "    return jnp.array([val] * length)\n"
            "\n"
            "create_filled_jit = jax.jit(create_filled, static_argnums=1)\n")},
        "fails": ["create_filled_correctness"],
    },
    # ------------------------------------------------------------ flatten_features
    "flatten_features_jnp_prod": {
        "why": "the size computed with jnp.prod(jnp.array(shape)): a tracer under jit, and a float for a 1-D x",
        "cells": {"flatten_features": (
            "def flatten_features(x):\n"
            "    return x.reshape(x.shape[0], jnp.prod(jnp.array(x.shape[1:])))\n")},
        "fails": ["flatten_features_correctness", "flatten_features_jit"],
    },
    "flatten_features_minus_one": {
        "why": "reshape(B, -1): right until the batch is empty, where -1 has no size to stand for",
        "cells": {"flatten_features": (
            "def flatten_features(x):\n"
            "    return x.reshape(x.shape[0], -1)\n")},
        "fails": ["flatten_features_correctness"],
    },
    "flatten_features_np_prod_float": {
        "why": "np.prod of the trailing shape: fine under jit, but np.prod(()) is the float 1.0, not a size",
        "cells": {"flatten_features": (
            "def flatten_features(x):\n"
            "    return x.reshape(x.shape[0], np.prod(x.shape[1:]))\n")},
        "fails": ["flatten_features_correctness"],
    },
    # ------------------------------------------------------------ mask_tensor
    "mask_tensor_boolean_index": {
        "why": "x.at[mask].set(...) has a value-dependent shape under jit",
        "cells": {"mask_tensor": "def mask_tensor(x, mask):\n    return x.at[mask].set(-100.0)\n"},
        "fails": ["mask_tensor_jit", "mask_tensor_retrace"],
    },
    "mask_tensor_python_if": {
        "why": "a Python `if` on a traced value (skipping the work when nothing is masked)",
        "cells": {"mask_tensor": (
            "def mask_tensor(x, mask):\n"
            "    if not mask.any():\n"
            "        return x\n"
            "    return jnp.where(mask, -100.0, x)\n")},
        "fails": ["mask_tensor_jit", "mask_tensor_retrace"],
    },
    "mask_tensor_inverted": {
        "why": "jnp.where's branches swapped: the unmasked entries are set instead",
        "cells": {"mask_tensor": "def mask_tensor(x, mask):\n    return jnp.where(mask, x, -100.0)\n"},
        "fails": ["mask_tensor_correctness"],
    },
    # ------------------------------------------------------------ sum_negatives
    "sum_negatives_boolean_index": {
        "why": "x[x < 0] has a value-dependent shape under jit",
        "cells": {"sum_negatives": "def sum_negatives(x):\n    return jnp.sum(x[x < 0])\n"},
        "fails": ["sum_negatives_jit", "sum_negatives_retrace"],
    },
    "sum_negatives_python_if": {
        "why": "a Python `if` on a traced value: TracerBoolConversionError under jit",
        "cells": {"sum_negatives": (
            "def sum_negatives(x):\n"
            "    if jnp.any(x < 0):\n"
            "        return jnp.sum(jnp.where(x < 0, x, 0.0))\n"
            "    return jnp.float32(0.0)\n")},
        "fails": ["sum_negatives_jit", "sum_negatives_retrace"],
    },
    "sum_negatives_magnitude": {
        "why": "returns the sum of the magnitudes (a positive number) instead of the negative sum",
        "cells": {"sum_negatives": "def sum_negatives(x):\n    return jnp.sum(jnp.where(x < 0, -x, 0.0))\n"},
        "fails": ["sum_negatives_correctness"],
    },
    "sum_negatives_count": {
        "why": "counts the negative entries (an int32) instead of adding them up",
        "cells": {"sum_negatives": "def sum_negatives(x):\n    return jnp.sum(x < 0)\n"},
        "fails": ["sum_negatives_correctness"],
    },
    # ------------------------------------------------------------ compact_negatives
    "compact_negatives_nonzero_no_size": {
        "why": "jnp.nonzero without size=: output size depends on the values (ConcretizationTypeError under jit)",
        "cells": {"compact_negatives": (
            "def compact_negatives(x, fill):\n"
            "    (idx,) = jnp.nonzero(x < 0)\n"
            "    count = jnp.sum(x < 0, dtype=jnp.int32)\n"
            "    out = jnp.full_like(x, fill).at[:idx.shape[0]].set(x[idx])\n"
            "    return out, count\n")},
        "fails": ["compact_negatives_jit", "compact_negatives_retrace", "compact_negatives_structure"],
    },
    "compact_negatives_boolean_index": {
        "why": "x[x < 0] then concatenate: value-dependent shape under jit",
        "cells": {"compact_negatives": (
            "def compact_negatives(x, fill):\n"
            "    negatives = x[x < 0]\n"
            "    rest = jnp.full((x.shape[0] - negatives.shape[0],), fill, dtype=x.dtype)\n"
            "    return jnp.concatenate([negatives, rest]), jnp.int32(negatives.shape[0])\n")},
        "fails": ["compact_negatives_jit", "compact_negatives_retrace", "compact_negatives_structure"],
    },
    "compact_negatives_static_fill": {
        "why": "fill (data) made static: correct, but every new fill value compiles again",
        "cells": {"compact_negatives": (
            "@partial(jax.jit, static_argnums=1)\n"
            "def compact_negatives(x, fill):\n"
            "    negative = x < 0\n"
            "    count = jnp.sum(negative, dtype=jnp.int32)\n"
            "    destination = jnp.where(negative, jnp.cumsum(negative) - 1, x.shape[0])\n"
            "    return jnp.full_like(x, fill).at[destination].set(x, mode='drop'), count\n")},
        "fails": ["compact_negatives_retrace"],
    },
    "compact_negatives_one_hot": {
        "why": "correct and jittable, but builds an n-by-n one-hot table to move the entries",
        "cells": {"compact_negatives": (
            "def compact_negatives(x, fill):\n"
            "    negative = x < 0\n"
            "    count = jnp.sum(negative, dtype=jnp.int32)\n"
            "    slot = jnp.cumsum(negative) - 1\n"
            "    table = negative[:, None] & (slot[:, None] == jnp.arange(x.shape[0])[None, :])\n"
            "    moved = jnp.sum(jnp.where(table, x[:, None], 0.0), axis=0)\n"
            "    return jnp.where(jnp.arange(x.shape[0]) < count, moved, fill).astype(x.dtype), count\n")},
        "fails": ["compact_negatives_structure"],
    },
    "compact_negatives_sorted": {
        "why": "sorts the negatives by value instead of keeping their original order",
        "cells": {"compact_negatives": (
            "def compact_negatives(x, fill):\n"
            "    negative = x < 0\n"
            "    count = jnp.sum(negative, dtype=jnp.int32)\n"
            "    ordered = jnp.sort(jnp.where(negative, x, jnp.inf))\n"
            "    return jnp.where(jnp.arange(x.shape[0]) < count, ordered, fill), count\n")},
        "fails": ["compact_negatives_correctness"],
    },
    "compact_negatives_float_count": {
        "why": "count comes back as float32, not as the int32 scalar the exercise asks for",
        "cells": {"compact_negatives": (
            "def compact_negatives(x, fill):\n"
            "    negative = x < 0\n"
            "    count = jnp.sum(jnp.where(negative, 1.0, 0.0))\n"
            "    destination = jnp.where(negative, jnp.cumsum(negative) - 1, x.shape[0])\n"
            "    return jnp.full_like(x, fill).at[destination].set(x, mode='drop'), count\n")},
        "fails": ["compact_negatives_correctness"],
    },
    # ------------------------------------------------------------ bucket_pad
    "bucket_pad_jnp_searchsorted": {
        "why": "picks the bucket with jnp (searchsorted + int()): a tracer under jit, ConcretizationTypeError",
        "cells": {"bucket_pad": (
            "def bucket_pad(x, buckets):\n"
            "    n = x.shape[0]\n"
            "    i = int(jnp.searchsorted(jnp.asarray(buckets), n))\n"
            "    if i == len(buckets):\n"
            "        raise ValueError(f'length {n} does not fit in {buckets}')\n"
            "    size = buckets[i]\n"
            "    return jnp.pad(x, (0, size - n)), jnp.arange(size) < n\n")},
        "fails": ["bucket_pad_jit"],
    },
    "bucket_pad_strict_greater": {
        "why": "`b > n` instead of `b >= n`: a length equal to a bucket goes to the next one (or raises)",
        "cells": {"bucket_pad": (
            "def bucket_pad(x, buckets):\n"
            "    n = x.shape[0]\n"
            "    fitting = [b for b in buckets if b > n]\n"
            "    if not fitting:\n"
            "        raise ValueError(f'length {n} does not fit in {buckets}')\n"
            "    size = fitting[0]\n"
            "    return jnp.pad(x, (0, size - n)), jnp.arange(size) < n\n")},
        "fails": ["bucket_pad_correctness"],
    },
    "bucket_pad_truncates": {
        "why": "too-long inputs are cut to the largest bucket instead of raising ValueError",
        "cells": {"bucket_pad": (
            "def bucket_pad(x, buckets):\n"
            "    n = min(x.shape[0], buckets[-1])\n"
            "    size = min(b for b in buckets if b >= n)\n"
            "    return jnp.pad(x[:n], (0, size - n)), jnp.arange(size) < n\n")},
        "fails": ["bucket_pad_correctness"],
    },
    # ------------------------------------------------------------ masked_mean
    "masked_mean_boolean_index": {
        "why": "padded[mask] has a value-dependent shape under jit",
        "cells": {"masked_mean": "def masked_mean(padded, mask):\n    return jnp.mean(padded[mask])\n"},
        "fails": ["masked_mean_jit", "masked_mean_retrace"],
    },
    "masked_mean_python_count": {
        "why": "int(mask.sum()) needs a concrete value: ConcretizationTypeError under jit",
        "cells": {"masked_mean": (
            "def masked_mean(padded, mask):\n"
            "    count = int(mask.sum())\n"
            "    return jnp.sum(jnp.where(mask, padded, 0.0)) / count\n")},
        "fails": ["masked_mean_jit", "masked_mean_retrace"],
    },
    "masked_mean_includes_padding": {
        "why": "averages over the whole padded array, padding included",
        "cells": {"masked_mean": "def masked_mean(padded, mask):\n    return jnp.mean(padded)\n"},
        "fails": ["masked_mean_correctness"],
    },
    "masked_mean_assumes_zero_padding": {
        "why": "sums every entry, assuming the padding is zero; wrong when it is not",
        "cells": {"masked_mean": "def masked_mean(padded, mask):\n    return jnp.sum(padded) / jnp.sum(mask)\n"},
        "fails": ["masked_mean_correctness"],
    },
    "masked_mean_multiplies_by_float_mask": {
        "why": "zeroes the padding by multiplying with the mask as floats: right for finite padding, but a "
               "masked-out inf or nan gives inf * 0 = nan and poisons the sum. (The red team's atk02 wrote "
               "padded * mask with the bool mask: XLA rewrites a product with a converted bool into a select, "
               "so that answer's values are right on this backend and no value check can fail it; the "
               "explicit astype is a separate eager op and keeps the IEEE nan.)",
        "cells": {"masked_mean": (
            "def masked_mean(padded, mask):\n"
            "    return jnp.sum(padded * mask.astype(padded.dtype)) / jnp.sum(mask)\n")},
        "fails": ["masked_mean_correctness"],
    },
}


# Correct answers in other idioms than the reference solution: each must pass every graded cell of the
# exercise it replaces (issue 26: no correct answer loses a point).
RIGHT = {
    # ------------------------------------------------------------ create_filled
    "create_filled_static_argnames": {
        "why": "jnp.full with a bare int shape, and length made static by name rather than by position",
        "cells": {"create_filled": (
            "def create_filled(val, length):\n"
            "    return jnp.full(length, val)\n"
            "\n"
            "create_filled_jit = jax.jit(create_filled, static_argnames='length')\n")},
    },
    "create_filled_broadcast_to": {
        "why": "broadcasts the 0-d array of val to (length,): val's dtype, a view-like broadcast instead of a fill",
        "cells": {"create_filled": (
            "def create_filled(val, length):\n"
            "    \"\"\"`length` copies of `val`, by broadcasting a 0-d array.\"\"\"\n"
            "    return jnp.broadcast_to(jnp.asarray(val), (length,))\n"
            "\n"
            "create_filled_jit = jax.jit(create_filled, static_argnums=(1,))\n")},
    },
    "create_filled_lax_full": {
        "why": "lax.full takes its dtype from val as jnp.full does; static_argnums given as a tuple",
        "cells": {"create_filled": (
            "def create_filled(val, length):\n"
            "    return lax.full((length,), val)\n"
            "\n"
            "create_filled_jit = jax.jit(create_filled, static_argnums=(1,))\n")},
    },
    "create_filled_result_type_ones": {
        "why": "asks jnp.result_type for val's dtype and multiplies a ones vector of that dtype by val",
        "cells": {"create_filled": (
            "def create_filled(val, length):\n"
            "    dtype = jnp.result_type(val)\n"
            "    return jnp.ones((length,), dtype=dtype) * val\n"
            "\n"
            "create_filled_jit = jax.jit(create_filled, static_argnums=1)\n")},
    },
    "create_filled_decorated_wrapper": {
        "why": "create_filled_jit written as its own function under a @partial(jax.jit, static_argnames=...) "
               "decorator that calls create_filled",
        "cells": {"create_filled": (
            "def create_filled(val, length):\n"
            "    return jnp.full((length,), val)\n"
            "\n"
            "\n"
            "@partial(jax.jit, static_argnames=('length',))\n"
            "def create_filled_jit(val, length):\n"
            "    # length is static (it is a shape), val stays traced (it is data)\n"
            "    return create_filled(val, length)\n")},
    },
    # ------------------------------------------------------------ flatten_features
    "flatten_features_math_prod": {
        "why": "math.prod of the trailing shape: a Python int, and 1 for the empty product",
        "cells": {"flatten_features": (
            "import math\n"
            "\n"
            "def flatten_features(x):\n"
            "    batch, *features = x.shape\n"
            "    return jnp.reshape(x, (batch, math.prod(features)))\n")},
    },
    "flatten_features_python_loop": {
        "why": "multiplies the trailing sizes in a Python loop over the static shape",
        "cells": {"flatten_features": (
            "def flatten_features(x):\n"
            "    width = 1\n"
            "    for size in x.shape[1:]:\n"
            "        width *= size\n"
            "    return x.reshape(x.shape[0], width)\n")},
    },
    "flatten_features_reduce_mul": {
        "why": "functools.reduce(operator.mul, ..., 1) over the trailing shape, with its initial value 1",
        "cells": {"flatten_features": (
            "import functools\n"
            "import operator\n"
            "\n"
            "def flatten_features(x):\n"
            "    width = functools.reduce(operator.mul, x.shape[1:], 1)\n"
            "    return x.reshape((x.shape[0], width))\n")},
    },
    "flatten_features_vmap_ravel": {
        "why": "jax.vmap(jnp.ravel) flattens each example; a 0-d example ravels to shape (1,), and vmap "
               "handles an empty batch",
        "cells": {"flatten_features": (
            "def flatten_features(x):\n"
            "    return jax.vmap(jnp.ravel)(x)\n")},
    },
    "flatten_features_lax_collapse": {
        "why": "lax.collapse merges every axis from 1 on into one (of size 1 when there is none)",
        "cells": {"flatten_features": (
            "def flatten_features(x):\n"
            "    return lax.collapse(x, 1)\n")},
    },
    # ------------------------------------------------------------ mask_tensor
    "mask_tensor_where_literal": {
        "why": "jnp.where with a Python float literal: a weak type, so the result keeps x's float32",
        "cells": {"mask_tensor": (
            "def mask_tensor(x, mask):\n"
            "    return jnp.where(mask, -100.0, x)\n")},
    },
    "mask_tensor_lax_select": {
        "why": "lax.select needs both branches at x's shape and dtype: jnp.full_like builds the -100 one",
        "cells": {"mask_tensor": (
            "def mask_tensor(x, mask):\n"
            "    return lax.select(mask, jnp.full_like(x, -100.0), x)\n")},
    },
    "mask_tensor_arithmetic": {
        "why": "blends with a 0/1 float mask: exact because x is finite (x * 0 - 100 is -100, x * 1 - 0 is x, "
               "even for x = -0.0)",
        "cells": {"mask_tensor": (
            "def mask_tensor(x, mask):\n"
            "    m = mask.astype(x.dtype)\n"
            "    return x * (1 - m) - 100.0 * m\n")},
    },
    "mask_tensor_scatter_drop": {
        "why": "scatters -100 into the flattened copy at the masked positions, sending the others out of "
               "range where mode='drop' skips them",
        "cells": {"mask_tensor": (
            "def mask_tensor(x, mask):\n"
            "    flat = x.ravel()\n"
            "    targets = jnp.where(mask.ravel(), jnp.arange(flat.size), flat.size)\n"
            "    return flat.at[targets].set(-100.0, mode='drop').reshape(x.shape)\n")},
    },
    "mask_tensor_jit_decorated_negated": {
        "why": "@jax.jit on the function itself, keeping x where the mask is False (~mask)",
        "cells": {"mask_tensor": (
            "@jax.jit\n"
            "def mask_tensor(x, mask):\n"
            "    \"\"\"Entries where mask is True become -100.\"\"\"\n"
            "    keep = ~mask\n"
            "    return jnp.where(keep, x, jnp.float32(-100.0))\n")},
    },
    # ------------------------------------------------------------ sum_negatives
    "sum_negatives_where_kwarg": {
        "why": "the reduction's own where= argument: the other entries count as 0",
        "cells": {"sum_negatives": (
            "def sum_negatives(x):\n"
            "    return jnp.sum(x, where=x < 0)\n")},
    },
    "sum_negatives_minimum": {
        "why": "min(x, 0) is x on the negatives and 0 elsewhere: no mask at all",
        "cells": {"sum_negatives": (
            "def sum_negatives(x):\n"
            "    return jnp.minimum(x, 0.0).sum()\n")},
    },
    "sum_negatives_negated_relu": {
        "why": "relu(-x) keeps the magnitudes of the negatives; negating their sum is exact",
        "cells": {"sum_negatives": (
            "def sum_negatives(x):\n"
            "    return -jnp.sum(jax.nn.relu(-x))\n")},
    },
    "sum_negatives_clip": {
        "why": "jnp.clip with only an upper bound of 0, summed over every axis",
        "cells": {"sum_negatives": (
            "def sum_negatives(x):\n"
            "    clipped = jnp.clip(x, max=0.0)\n"
            "    return jnp.sum(clipped, axis=tuple(range(x.ndim)))\n")},
    },
    "sum_negatives_jit_select": {
        "why": "@jax.jit on the function, lax.select against a zeros array",
        "cells": {"sum_negatives": (
            "@jax.jit\n"
            "def sum_negatives(x):\n"
            "    # the entries >= 0 become 0, the neutral element of the sum\n"
            "    return lax.select(x < 0, x, jnp.zeros_like(x)).sum()\n")},
    },
    # ------------------------------------------------------------ compact_negatives
    "compact_negatives_nonzero_size": {
        "why": "jnp.nonzero with size=n gives the negatives' positions in order; gather them, then fill "
               "the slots past count",
        "cells": {"compact_negatives": (
            "def compact_negatives(x, fill):\n"
            "    n = x.shape[0]\n"
            "    negative = x < 0\n"
            "    (positions,) = jnp.nonzero(negative, size=n, fill_value=0)\n"
            "    count = jnp.count_nonzero(negative).astype(jnp.int32)\n"
            "    return jnp.where(jnp.arange(n) < count, x[positions], fill), count\n")},
    },
    "compact_negatives_stable_argsort": {
        "why": "a stable argsort on 0 (negative) / 1 (not) moves the negatives to the front in their "
               "original order",
        "cells": {"compact_negatives": (
            "def compact_negatives(x, fill):\n"
            "    negative = x < 0\n"
            "    count = negative.sum(dtype=jnp.int32)\n"
            "    order = jnp.argsort(jnp.where(negative, 0, 1), stable=True)\n"
            "    slots = jnp.arange(x.shape[0])\n"
            "    return jnp.where(slots < count, x[order], fill).astype(x.dtype), count\n")},
    },
    "compact_negatives_lax_sort": {
        "why": "lax.sort of (key, x) with one key and is_stable=True carries x along with the key",
        "cells": {"compact_negatives": (
            "def compact_negatives(x, fill):\n"
            "    key = (x >= 0).astype(jnp.int32)\n"
            "    _, moved = lax.sort((key, x), num_keys=1, is_stable=True)\n"
            "    count = x.shape[0] - key.sum()\n"
            "    valid = lax.iota(jnp.int32, x.shape[0]) < count\n"
            "    return jnp.where(valid, moved, fill), count\n")},
    },
    "compact_negatives_permutation": {
        "why": "a full permutation (negatives to 0..count-1, the others after them), scattered without "
               "mode='drop', then the tail replaced by fill",
        "cells": {"compact_negatives": (
            "def compact_negatives(x, fill):\n"
            "    negative = x < 0\n"
            "    count = jnp.sum(negative).astype(jnp.int32)\n"
            "    to_front = jnp.cumsum(negative) - 1\n"
            "    to_back = count + jnp.cumsum(~negative) - 1\n"
            "    destination = jnp.where(negative, to_front, to_back)\n"
            "    moved = jnp.zeros_like(x).at[destination].set(x, unique_indices=True)\n"
            "    return jnp.where(jnp.arange(x.shape[0]) < count, moved, fill), count\n")},
    },
    "compact_negatives_scan": {
        "why": "one pass with lax.scan: the carry holds the output buffer and the next free slot",
        "cells": {"compact_negatives": (
            "def compact_negatives(x, fill):\n"
            "    def step(carry, value):\n"
            "        out, count = carry\n"
            "        is_negative = value < 0\n"
            "        out = lax.cond(is_negative, lambda o: o.at[count].set(value), lambda o: o, out)\n"
            "        return (out, count + is_negative.astype(jnp.int32)), None\n"
            "    start = (jnp.full_like(x, fill), jnp.int32(0))\n"
            "    (out, count), _ = lax.scan(step, start, x)\n"
            "    return out, count\n")},
    },
    # ------------------------------------------------------------ bucket_pad
    "bucket_pad_next_generator": {
        "why": "next() over a generator with a None default picks the first fitting bucket",
        "cells": {"bucket_pad": (
            "def bucket_pad(x, buckets):\n"
            "    n = len(x)\n"
            "    size = next((b for b in buckets if b >= n), None)\n"
            "    if size is None:\n"
            "        raise ValueError(f'{n} entries do not fit in any of the buckets {buckets}')\n"
            "    return jnp.pad(x, (0, size - n)), jnp.arange(size) < n\n")},
    },
    "bucket_pad_bisect": {
        "why": "bisect.bisect_left on the sorted buckets finds the smallest bucket >= n in Python",
        "cells": {"bucket_pad": (
            "import bisect\n"
            "\n"
            "def bucket_pad(x, buckets):\n"
            "    n = x.shape[0]\n"
            "    i = bisect.bisect_left(buckets, n)\n"
            "    if i == len(buckets):\n"
            "        raise ValueError('input longer than the largest bucket')\n"
            "    size = buckets[i]\n"
            "    padded = jnp.zeros(size, dtype=x.dtype).at[:n].set(x)\n"
            "    mask = jnp.concatenate([jnp.ones(n, dtype=bool), jnp.zeros(size - n, dtype=bool)])\n"
            "    return padded, mask\n")},
    },
    "bucket_pad_for_else": {
        "why": "a for loop with an else clause that raises; lax.pad for the values and jnp.pad of a "
               "True vector for the mask",
        "cells": {"bucket_pad": (
            "def bucket_pad(x, buckets):\n"
            "    n = x.shape[0]\n"
            "    for size in buckets:\n"
            "        if size >= n:\n"
            "            break\n"
            "    else:\n"
            "        raise ValueError(f'no bucket of {buckets} holds a length of {n}')\n"
            "    padded = lax.pad(x, jnp.zeros((), x.dtype), [(0, size - n, 0)])\n"
            "    mask = jnp.pad(jnp.ones(n, dtype=bool), (0, size - n))\n"
            "    return padded, mask\n")},
    },
    "bucket_pad_check_first": {
        "why": "checks the largest bucket first, then min() over the fitting ones; writes x into zeros "
               "with lax.dynamic_update_slice",
        "cells": {"bucket_pad": (
            "def bucket_pad(x, buckets):\n"
            "    n = x.shape[0]\n"
            "    if n > max(buckets):\n"
            "        raise ValueError(f'length {n} > largest bucket {max(buckets)}')\n"
            "    size = min(b for b in buckets if b >= n)\n"
            "    padded = lax.dynamic_update_slice(jnp.zeros((size,), x.dtype), x, (0,))\n"
            "    return padded, lax.iota(jnp.int32, size) < n\n")},
    },
    "bucket_pad_jit_decorated": {
        "why": "the function jitted by a decorator with buckets static by name: the bucket choice and "
               "the ValueError happen while tracing",
        "cells": {"bucket_pad": (
            "@partial(jax.jit, static_argnames='buckets')\n"
            "def bucket_pad(x, buckets):\n"
            "    n = x.shape[0]\n"
            "    candidates = sorted(b for b in buckets if b >= n)\n"
            "    if len(candidates) == 0:\n"
            "        raise ValueError('x is longer than every bucket')\n"
            "    size = candidates[0]\n"
            "    return jnp.pad(x, [(0, size - n)], constant_values=0.0), jnp.arange(size) < n\n")},
    },
    # ------------------------------------------------------------ masked_mean
    "masked_mean_mean_where": {
        "why": "jnp.mean's own where= argument averages over the True entries only",
        "cells": {"masked_mean": (
            "def masked_mean(padded, mask):\n"
            "    return jnp.mean(padded, where=mask)\n")},
    },
    "masked_mean_sum_where_count_nonzero": {
        "why": "jnp.sum(where=) divided by jnp.count_nonzero(mask)",
        "cells": {"masked_mean": (
            "def masked_mean(padded, mask):\n"
            "    return jnp.sum(padded, where=mask) / jnp.count_nonzero(mask)\n")},
    },
    "masked_mean_nanmean": {
        "why": "turns the masked-out entries into NaN and lets jnp.nanmean skip them",
        "cells": {"masked_mean": (
            "def masked_mean(padded, mask):\n"
            "    return jnp.nanmean(jnp.where(mask, padded, jnp.nan))\n")},
    },
    "masked_mean_lax_select_float_count": {
        "why": "lax.select against zeros, and the count as a float32 sum of the mask",
        "cells": {"masked_mean": (
            "def masked_mean(padded, mask):\n"
            "    kept = lax.select(mask, padded, jnp.zeros_like(padded))\n"
            "    return kept.sum() / mask.astype(jnp.float32).sum()\n")},
    },
    "masked_mean_jit_dot": {
        "why": "@jax.jit on the function; the sum is a dot product of the selected values with the "
               "0/1 mask (the unselected values are zeroed first, so any padding is safe)",
        "cells": {"masked_mean": (
            "@jax.jit\n"
            "def masked_mean(padded, mask):\n"
            "    weights = mask.astype(padded.dtype)\n"
            "    selected = jnp.where(mask, padded, 0.0)\n"
            "    return jnp.dot(selected, weights) / jnp.sum(weights)\n")},
    },
}
