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
