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
}
