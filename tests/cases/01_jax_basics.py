"""Known-wrong submissions for 01_jax_basics and the graded cells each one must fail.

`cells` maps an exercise id to the full replacement source of its solution cell; `fails` is the
exact set of graded test cells that must fail (every other graded cell still passes).
"""

CASES = {
    # ------------------------------------------------------------ weighted_mean
    "weighted_mean_no_conversion": {
        "why": "computes on the arguments as given: right for arrays, but Python lists cannot be "
               "multiplied (TypeError) and jnp refuses them",
        "cells": {"weighted_mean": (
            "def weighted_mean(values, weights):\n"
            "    return jnp.sum(values * weights) / jnp.sum(weights)\n")},
        "fails": ["weighted_mean_correctness_2"],
    },
    "weighted_mean_int_products": {
        "why": "converts with jnp.asarray but keeps int32: the products of large ints overflow",
        "cells": {"weighted_mean": (
            "def weighted_mean(values, weights):\n"
            "    v, w = jnp.asarray(values), jnp.asarray(weights)\n"
            "    return jnp.sum(w * v) / jnp.sum(w)\n")},
        "fails": ["weighted_mean_correctness_2"],
    },
    "weighted_mean_numpy_average": {
        "why": "np.average: right values (as a NumPy float), but NumPy cannot take a tracer under jit",
        "cells": {"weighted_mean": (
            "def weighted_mean(values, weights):\n"
            "    return np.average(values, weights=weights)\n")},
        "fails": ["weighted_mean_jit"],
    },
    "weighted_mean_unnormalised": {
        "why": "forgets to divide by the sum of the weights",
        "cells": {"weighted_mean": (
            "def weighted_mean(values, weights):\n"
            "    return jnp.sum(jnp.asarray(values, jnp.float32) * jnp.asarray(weights, jnp.float32))\n")},
        "fails": ["weighted_mean_correctness", "weighted_mean_correctness_2"],
    },
    # ------------------------------------------------------------ split_and_sample
    "split_and_sample_split_twice": {
        "why": "splits the same key twice (once for new_key, once for the samples): right values, but "
               "the key is consumed twice, which jax_debug_key_reuse reports",
        "cells": {"split_and_sample": (
            "def split_and_sample(key, n, shape):\n"
            "    new_key = jax.random.split(key, n + 1)[0]\n"
            "    keys = jax.random.split(key, n + 1)[1:]\n"
            "    return new_key, jax.vmap(lambda k: jax.random.normal(k, shape))(keys)\n")},
        "fails": ["split_and_sample_correctness_2"],
    },
    "split_and_sample_one_subkey": {
        "why": "draws every sample from keys[1]: n identical rows, and the same key used n times",
        "cells": {"split_and_sample": (
            "def split_and_sample(key, n, shape):\n"
            "    keys = jax.random.split(key, n + 1)\n"
            "    samples = jnp.stack([jax.random.normal(keys[1], shape) for _ in range(n)])\n"
            "    return keys[0], samples\n")},
        "fails": ["split_and_sample_correctness", "split_and_sample_correctness_2"],
    },
    "split_and_sample_draws_nothing": {
        "why": "hands the key back and returns zeros of the right shape: no key is reused because none is "
               "used (red team, 2026-12-02: it passed the key-use cell before that cell counted the keys)",
        "cells": {"split_and_sample": (
            "def split_and_sample(key, n, shape):\n"
            "    return key, jnp.zeros((n, *shape), jnp.float32)\n")},
        "fails": ["split_and_sample_correctness", "split_and_sample_correctness_2"],
    },
    "split_and_sample_new_key_last": {
        "why": "keeps the last key for the caller and samples from the first n: the wrong convention",
        "cells": {"split_and_sample": (
            "def split_and_sample(key, n, shape):\n"
            "    keys = jax.random.split(key, n + 1)\n"
            "    return keys[n], jax.vmap(lambda k: jax.random.normal(k, shape))(keys[:n])\n")},
        "fails": ["split_and_sample_correctness"],
    },
    "split_and_sample_numpy_stack": {
        "why": "collects the draws with np.asarray/np.stack: right values eagerly, "
               "TracerArrayConversionError under jit",
        "cells": {"split_and_sample": (
            "def split_and_sample(key, n, shape):\n"
            "    keys = jax.random.split(key, n + 1)\n"
            "    samples = np.stack([np.asarray(jax.random.normal(k, shape)) for k in keys[1:]])\n"
            "    return keys[0], samples\n")},
        "fails": ["split_and_sample_jit", "split_and_sample_retrace"],
    },
    # ------------------------------------------------------------ set_diagonal
    "set_diagonal_index_assign": {
        "why": "NumPy habit x[i, i] = value: TypeError on a JAX array (immutable), and a NumPy "
               "argument is written into",
        "cells": {"set_diagonal": (
            "def set_diagonal(x, value):\n"
            "    for i in range(x.shape[0]):\n"
            "        x[i, i] = value\n"
            "    return x\n")},
        "fails": ["set_diagonal_correctness", "set_diagonal_correctness_2", "set_diagonal_jit"],
    },
    "set_diagonal_numpy_fill": {
        "why": "copies to NumPy and uses np.fill_diagonal: right values and the input is safe, but "
               "np.array of a tracer fails under jit",
        "cells": {"set_diagonal": (
            "def set_diagonal(x, value):\n"
            "    out = np.array(x)\n"
            "    np.fill_diagonal(out, value)\n"
            "    return jnp.asarray(out)\n")},
        "fails": ["set_diagonal_jit"],
    },
    "set_diagonal_numpy_fast_path": {
        "why": "special-cases NumPy input and writes into it with np.fill_diagonal: right values, "
               "but the caller's array changes",
        "cells": {"set_diagonal": (
            "def set_diagonal(x, value):\n"
            "    if isinstance(x, np.ndarray):\n"
            "        np.fill_diagonal(x, value)\n"
            "        return jnp.asarray(x)\n"
            "    i = jnp.arange(x.shape[0])\n"
            "    return x.at[i, i].set(value)\n")},
        "fails": ["set_diagonal_correctness_2"],
    },
    "set_diagonal_float_value": {
        "why": "float(value) needs a concrete value: ConcretizationTypeError with value traced",
        "cells": {"set_diagonal": (
            "def set_diagonal(x, value):\n"
            "    eye = jnp.eye(x.shape[0], dtype=bool)\n"
            "    return jnp.where(eye, float(value), x)\n")},
        "fails": ["set_diagonal_jit"],
    },
    "set_diagonal_adds": {
        "why": "adds value to the diagonal instead of replacing it",
        "cells": {"set_diagonal": (
            "def set_diagonal(x, value):\n"
            "    return jnp.asarray(x) + value * jnp.eye(x.shape[0])\n")},
        "fails": ["set_diagonal_correctness"],
    },
    # ------------------------------------------------------------ accumulate
    "accumulate_jax_inplace": {
        "why": "NumPy habit x[idx] += values: TypeError, JAX arrays are immutable",
        "cells": {"accumulate": (
            "def accumulate(x, idx, values):\n"
            "    x[idx] += values\n"
            "    return x\n")},
        "fails": ["accumulate_correctness", "accumulate_correctness_2", "accumulate_jit", "accumulate_retrace"],
    },
    "accumulate_numpy_inplace": {
        "why": "x[idx] += values on a NumPy copy: repeated indices keep only the last value, indices past "
               "the end raise IndexError, and np.array of a tracer fails under jit",
        "cells": {"accumulate": (
            "def accumulate(x, idx, values):\n"
            "    out = np.array(x)\n"
            "    out[np.asarray(idx)] += np.asarray(values)\n"
            "    return jnp.asarray(out)\n")},
        "fails": ["accumulate_correctness", "accumulate_correctness_2", "accumulate_jit", "accumulate_retrace"],
    },
    "accumulate_set_of_gathered": {
        "why": "x.at[idx].set(x[idx] + values) is NumPy's x[idx] += v: a repeated index keeps one value",
        "cells": {"accumulate": (
            "def accumulate(x, idx, values):\n"
            "    return x.at[idx].set(x[idx] + values)\n")},
        "fails": ["accumulate_correctness", "accumulate_correctness_2"],
    },
    "accumulate_clip_mode": {
        "why": "mode='clip' moves indices past the end onto the last entry instead of dropping them",
        "cells": {"accumulate": (
            "def accumulate(x, idx, values):\n"
            "    return x.at[idx].add(values, mode='clip')\n")},
        "fails": ["accumulate_correctness_2"],
    },
    "accumulate_python_if": {
        "why": "skips out-of-range indices with a Python if: right values eagerly, "
               "TracerBoolConversionError under jit",
        "cells": {"accumulate": (
            "def accumulate(x, idx, values):\n"
            "    x = jnp.asarray(x)\n"
            "    for i, v in zip(idx, values):\n"
            "        if i < x.shape[0]:\n"
            "            x = x.at[i].add(v)\n"
            "    return x\n")},
        "fails": ["accumulate_jit", "accumulate_retrace"],
    },
    "accumulate_one_hot_matmul": {
        "why": "values @ one_hot(idx, n): repeats add up and indices past the end get an all-zero row, but "
               "0 * inf is nan, so a non-finite value at an ignored index spreads nan over every entry",
        "cells": {"accumulate": (
            "def accumulate(x, idx, values):\n"
            "    return x + values @ jax.nn.one_hot(idx, x.shape[0])\n")},
        "fails": ["accumulate_correctness_2"],
    },
    # ------------------------------------------------------------ standardize_columns
    "standardize_columns_sample_std": {
        "why": "ddof=1 (the pandas/torch default) instead of the population std",
        "cells": {"standardize_columns": (
            "def standardize_columns(x):\n"
            "    return (x - x.mean(axis=0)) / x.std(axis=0, ddof=1)\n")},
        "fails": ["standardize_columns_correctness"],
    },
    "standardize_columns_global_stats": {
        "why": "mean and std of the whole array instead of per column",
        "cells": {"standardize_columns": (
            "def standardize_columns(x):\n"
            "    return (x - x.mean()) / x.std()\n")},
        "fails": ["standardize_columns_correctness"],
    },
    "standardize_columns_numpy_inside": {
        "why": "computes in NumPy: right values eagerly, TracerArrayConversionError under jit",
        "cells": {"standardize_columns": (
            "def standardize_columns(x):\n"
            "    a = np.asarray(x)\n"
            "    return jnp.asarray((a - a.mean(axis=0)) / a.std(axis=0))\n")},
        "fails": ["standardize_columns_jit", "standardize_columns_retrace"],
    },
    "standardize_columns_one_pass_variance": {
        "why": "variance as mean(x**2) - mean(x)**2: fine for small values, but when a column's mean is large "
               "next to its spread the float32 difference has no correct digit left (or is negative: nan)",
        "cells": {"standardize_columns": (
            "def standardize_columns(x):\n"
            "    mean = x.mean(axis=0)\n"
            "    return (x - mean) / jnp.sqrt((x ** 2).mean(axis=0) - mean ** 2)\n")},
        "fails": ["standardize_columns_correctness"],
    },
    "standardize_columns_python_guard": {
        "why": "guards against constant columns with a Python if on traced values: "
               "TracerBoolConversionError under jit",
        "cells": {"standardize_columns": (
            "def standardize_columns(x):\n"
            "    std = x.std(axis=0)\n"
            "    if jnp.any(std == 0):\n"
            "        raise ValueError('a column is constant')\n"
            "    return (x - x.mean(axis=0)) / std\n")},
        "fails": ["standardize_columns_jit", "standardize_columns_retrace"],
    },
}


# Correct answers in other idioms than the reference solution: each must pass every graded cell of the
# exercise it replaces (issue 26: no correct answer loses a point).
RIGHT = {
    # ------------------------------------------------------------ weighted_mean
    "weighted_mean_vdot": {
        "why": "converts both to float32 at the boundary, then a dot product (jnp.vdot) instead of sum of a product",
        "cells": {"weighted_mean": (
            "def weighted_mean(values, weights):\n"
            "    v = jnp.asarray(values, dtype=jnp.float32)\n"
            "    w = jnp.asarray(weights, dtype=jnp.float32)\n"
            "    return jnp.vdot(w, v) / w.sum()\n")},
    },
    "weighted_mean_jnp_average": {
        "why": "jnp.average with weights= (the jnp twin of np.average) on arrays converted to float first",
        "cells": {"weighted_mean": (
            "def weighted_mean(values, weights):\n"
            "    \"\"\"Weighted mean via jnp.average; the conversion to float comes before any product.\"\"\"\n"
            "    values = jnp.asarray(values, dtype=float)\n"
            "    weights = jnp.asarray(weights, dtype=float)\n"
            "    return jnp.average(values, weights=weights)\n")},
    },
    "weighted_mean_einsum": {
        "why": "jnp.einsum('i,i->', ...) for the weighted sum; jnp.array with the dtype given as a string",
        "cells": {"weighted_mean": (
            "def weighted_mean(values, weights):\n"
            "    v = jnp.array(values, dtype='float32')\n"
            "    w = jnp.array(weights, dtype='float32')\n"
            "    return jnp.einsum('i,i->', w, v) / jnp.sum(w)\n")},
    },
    "weighted_mean_normalise_weights_first": {
        "why": "normalises the weights to sum 1, then sums w * v: another (stable) order of the float operations",
        "cells": {"weighted_mean": (
            "def weighted_mean(values, weights):\n"
            "    v = jnp.array(values, dtype=jnp.float32)\n"
            "    w = jnp.array(weights, dtype=jnp.float32)\n"
            "    w = w / jnp.sum(w)\n"
            "    return jnp.sum(w * v)\n")},
    },
    "weighted_mean_jitted_core": {
        "why": "converts at the boundary in a plain Python function and hands the float32 arrays to a "
               "module-level jax.jit core (nested jits inline under the test's jit)",
        "cells": {"weighted_mean": (
            "@jax.jit\n"
            "def _weighted_mean_core(v, w):\n"
            "    return (w * v).sum() / w.sum()\n"
            "\n"
            "\n"
            "def weighted_mean(values, weights):\n"
            "    return _weighted_mean_core(jnp.asarray(values, jnp.float32), jnp.asarray(weights, jnp.float32))\n")},
    },
    # ------------------------------------------------------------ split_and_sample
    "split_and_sample_python_loop": {
        "why": "a Python loop over the static n, indexing keys[i + 1] for draw i, stacked with jnp.stack",
        "cells": {"split_and_sample": (
            "def split_and_sample(key, n, shape):\n"
            "    keys = jax.random.split(key, n + 1)\n"
            "    samples = jnp.stack([jax.random.normal(keys[i + 1], shape) for i in range(n)])\n"
            "    return keys[0], samples\n")},
    },
    "split_and_sample_star_unpack": {
        "why": "unpacks the split as new_key, *subkeys and loops over the subkeys (same keys, same order)",
        "cells": {"split_and_sample": (
            "def split_and_sample(key, n, shape):\n"
            "    new_key, *subkeys = jax.random.split(key, n + 1)\n"
            "    samples = jnp.stack([jax.random.normal(k, shape) for k in subkeys])\n"
            "    return new_key, samples\n")},
    },
    "split_and_sample_unpack_then_vmap": {
        "why": "issue 26's answer: unpacks the typed key array, stacks the subkeys back and vmaps the draw; "
               "every key is consumed once (JAX's experimental checker called the unpacking reuse)",
        "cells": {"split_and_sample": (
            "def split_and_sample(key, n, shape):\n"
            "    key, *subkeys = jax.random.split(key, n + 1)\n"
            "    return key, jax.vmap(lambda k: jax.random.normal(k, shape))(jnp.stack(subkeys))\n")},
    },
    "split_and_sample_lax_map": {
        "why": "lax.map (a scan) over keys[1:] instead of vmap: one draw per key, sequentially in one compiled loop",
        "cells": {"split_and_sample": (
            "def split_and_sample(key, n, shape):\n"
            "    keys = jax.random.split(key, n + 1)\n"
            "    samples = lax.map(lambda k: jax.random.normal(k, shape), keys[1:])\n"
            "    return keys[0], samples\n")},
    },
    "split_and_sample_jit_static_argnames": {
        "why": "decorated with @partial(jax.jit, static_argnames=('n', 'shape')): n and shape are static by "
               "name, the key traced; the vmap draws as in the reference",
        "cells": {"split_and_sample": (
            "@partial(jax.jit, static_argnames=('n', 'shape'))\n"
            "def split_and_sample(key, n, shape):\n"
            "    keys = jax.random.split(key, n + 1)\n"
            "    samples = jax.vmap(lambda k: jax.random.normal(k, shape))(keys[1:])\n"
            "    return keys[0], samples\n")},
    },
    # ------------------------------------------------------------ set_diagonal
    "set_diagonal_where_eye": {
        "why": "jnp.where with a boolean identity mask: value on the diagonal, x elsewhere; no scatter",
        "cells": {"set_diagonal": (
            "def set_diagonal(x, value):\n"
            "    x = jnp.asarray(x)\n"
            "    on_diagonal = jnp.eye(x.shape[0], dtype=bool)\n"
            "    return jnp.where(on_diagonal, value, x).astype(x.dtype)\n")},
    },
    "set_diagonal_lax_select": {
        "why": "lax.select of a full_like(x, value) against x, with the mask built by broadcasting two aranges",
        "cells": {"set_diagonal": (
            "def set_diagonal(x, value):\n"
            "    x = jnp.asarray(x)\n"
            "    i = jnp.arange(x.shape[0])\n"
            "    mask = i[:, None] == i[None, :]\n"
            "    return lax.select(mask, jnp.full_like(x, value), x)\n")},
    },
    "set_diagonal_diag_indices": {
        "why": "jnp.diag_indices_from gives the (rows, cols) index pair for .at[...].set",
        "cells": {"set_diagonal": (
            "def set_diagonal(x, value):\n"
            "    x = jnp.asarray(x)\n"
            "    return x.at[jnp.diag_indices_from(x)].set(value)\n")},
    },
    "set_diagonal_jnp_fill_diagonal": {
        "why": "jnp.fill_diagonal with inplace=False: JAX's functional version of np.fill_diagonal",
        "cells": {"set_diagonal": (
            "def set_diagonal(x, value):\n"
            "    return jnp.fill_diagonal(jnp.asarray(x), value, inplace=False)\n")},
    },
    "set_diagonal_python_loop": {
        "why": "a Python loop over the static size n with one .at[i, i].set per entry (unrolled, still jittable)",
        "cells": {"set_diagonal": (
            "def set_diagonal(x, value):\n"
            "    out = jnp.asarray(x)\n"
            "    for i in range(out.shape[0]):\n"
            "        out = out.at[i, i].set(value)\n"
            "    return out\n")},
    },
    # ------------------------------------------------------------ accumulate
    "accumulate_default_mode": {
        "why": ".at[idx].add without mode=: a scatter drops out-of-range updates by default",
        "cells": {"accumulate": (
            "def accumulate(x, idx, values):\n"
            "    return jnp.asarray(x).at[idx].add(values)\n")},
    },
    "accumulate_segment_sum": {
        "why": "jax.ops.segment_sum with num_segments=len(x): ids outside [0, len(x)) are dropped, repeats summed",
        "cells": {"accumulate": (
            "def accumulate(x, idx, values):\n"
            "    x = jnp.asarray(x)\n"
            "    return x + jax.ops.segment_sum(values, idx, num_segments=x.shape[0])\n")},
    },
    "accumulate_bincount_weights": {
        "why": "jnp.bincount with weights and a static length: a histogram of the values, past-the-end bins dropped",
        "cells": {"accumulate": (
            "def accumulate(x, idx, values):\n"
            "    x = jnp.asarray(x)\n"
            "    return x + jnp.bincount(idx, weights=values, length=x.shape[0])\n")},
    },
    "accumulate_where_in_bounds": {
        "why": "masks explicitly with jnp.where: out-of-range entries get index 0 and value 0 (selected, never "
               "multiplied), then a plain scatter-add",
        "cells": {"accumulate": (
            "def accumulate(x, idx, values):\n"
            "    x = jnp.asarray(x)\n"
            "    idx, values = jnp.asarray(idx), jnp.asarray(values)\n"
            "    inside = idx < x.shape[0]\n"
            "    safe_idx = jnp.where(inside, idx, 0)\n"
            "    safe_values = jnp.where(inside, values, jnp.zeros_like(values))\n"
            "    return x.at[safe_idx].add(safe_values)\n")},
    },
    "accumulate_scan": {
        "why": "lax.scan over the (index, value) pairs with x as the carry, one dropping scatter per pair: "
               "sequential like np.add.at, and an empty idx is simply a scan of length 0",
        "cells": {"accumulate": (
            "def accumulate(x, idx, values):\n"
            "    def add_one(acc, pair):\n"
            "        i, v = pair\n"
            "        return acc.at[i].add(v, mode='drop'), None\n"
            "\n"
            "    out, _ = lax.scan(add_one, jnp.asarray(x), (jnp.asarray(idx), jnp.asarray(values)))\n"
            "    return out\n")},
    },
    # ------------------------------------------------------------ standardize_columns
    "standardize_columns_keepdims": {
        "why": "jnp.mean/jnp.std as functions with keepdims=True: (1, d) statistics broadcast against x",
        "cells": {"standardize_columns": (
            "def standardize_columns(x):\n"
            "    mu = jnp.mean(x, axis=0, keepdims=True)\n"
            "    sigma = jnp.std(x, axis=0, keepdims=True)\n"
            "    return (x - mu) / sigma\n")},
    },
    "standardize_columns_two_pass": {
        "why": "centres first and takes the root of the mean square of the centred values (two-pass variance)",
        "cells": {"standardize_columns": (
            "def standardize_columns(x):\n"
            "    centred = x - x.mean(axis=0)\n"
            "    return centred / jnp.sqrt(jnp.mean(centred ** 2, axis=0))\n")},
    },
    "standardize_columns_rsqrt_var": {
        "why": "multiplies by lax.rsqrt of the variance instead of dividing by the std",
        "cells": {"standardize_columns": (
            "def standardize_columns(x):\n"
            "    return (x - x.mean(axis=0)) * lax.rsqrt(x.var(axis=0))\n")},
    },
    "standardize_columns_vmap_columns": {
        "why": "a one-column function mapped over the columns with vmap(in_axes=1, out_axes=1)",
        "cells": {"standardize_columns": (
            "def standardize_columns(x):\n"
            "    def one_column(c):\n"
            "        return (c - c.mean()) / c.std()\n"
            "\n"
            "    return jax.vmap(one_column, in_axes=1, out_axes=1)(x)\n")},
    },
    "standardize_columns_jit_decorated": {
        "why": "@jax.jit on the function itself; sums divided by m instead of mean()",
        "cells": {"standardize_columns": (
            "@jax.jit\n"
            "def standardize_columns(x):\n"
            "    m = x.shape[0]\n"
            "    centred = x - jnp.sum(x, axis=0) / m\n"
            "    return centred / jnp.sqrt(jnp.sum(centred * centred, axis=0) / m)\n")},
    },
}
