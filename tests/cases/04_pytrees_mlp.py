"""Known-wrong submissions for 04_pytrees_mlp and the graded cells each one must fail.

`cells` maps an exercise id to the full replacement source of its solution cell; `fails` is the
exact set of graded test cells that must fail (every other graded cell still passes).

`mlp_forward_batch` calls the student's `mlp_forward`, and `train_step` calls `mlp_forward_batch`
and `sgd_step`, as the exercises ask: a case that breaks one of those also lists the cells of the
exercises that call it.
"""

CASES = {
    # ------------------------------------------------------------ init_mlp
    "init_mlp_transposed_W": {
        "why": "W drawn as (dims[i], dims[i+1]), inputs by outputs: the layout check names the leaf and both shapes",
        "cells": {"init_mlp": (
            "def init_mlp(key, dims):\n"
            "    keys = jax.random.split(key, len(dims) - 1)\n"
            "    return [{'W': jax.random.normal(k, (n_in, n_out)) / jnp.sqrt(n_in), 'b': jnp.zeros(n_out)}\n"
            "            for k, n_in, n_out in zip(keys, dims[:-1], dims[1:])]\n")},
        "fails": ["init_mlp_correctness", "init_mlp_correctness_2"],
    },
    "init_mlp_resplit_per_layer": {
        "why": "splits the key again before every layer (key, sub = split(key)) instead of once into len(dims) - 1 keys: "
               "right layout, other random numbers",
        "cells": {"init_mlp": (
            "def init_mlp(key, dims):\n"
            "    params = []\n"
            "    for n_in, n_out in zip(dims[:-1], dims[1:]):\n"
            "        key, sub = jax.random.split(key)\n"
            "        params.append({'W': jax.random.normal(sub, (n_out, n_in)) / jnp.sqrt(n_in),\n"
            "                       'b': jnp.zeros(n_out)})\n"
            "    return params\n")},
        "fails": ["init_mlp_correctness_2"],
    },
    "init_mlp_tuples": {
        "why": "a list of (W, b) tuples instead of {'W', 'b'} dicts: right numbers, another tree structure",
        "cells": {"init_mlp": (
            "def init_mlp(key, dims):\n"
            "    keys = jax.random.split(key, len(dims) - 1)\n"
            "    return [(jax.random.normal(k, (n_out, n_in)) / jnp.sqrt(n_in), jnp.zeros(n_out))\n"
            "            for k, n_in, n_out in zip(keys, dims[:-1], dims[1:])]\n")},
        "fails": ["init_mlp_correctness", "init_mlp_correctness_2"],
    },
    # ------------------------------------------------------------ mlp_forward
    "mlp_forward_tanh_on_output": {
        "why": "tanh on the last layer too: outputs squashed into (-1, 1); the batch version and the training "
               "step inherit it (the loss still falls, and the batch version still matches it row by row)",
        "cells": {"mlp_forward": (
            "def mlp_forward(params, x):\n"
            "    for layer in params:\n"
            "        x = jnp.tanh(layer['W'] @ x + layer['b'])\n"
            "    return x\n")},
        "fails": ["mlp_forward_correctness", "mlp_forward_batch_correctness", "train_step_correctness"],
    },
    "mlp_forward_numpy_tanh": {
        "why": "np.tanh instead of jnp.tanh: fine on concrete arrays, TracerArrayConversionError under jit; vmap and "
               "grad trace too, so the batch version and the training step fail even when called directly",
        "cells": {"mlp_forward": (
            "def mlp_forward(params, x):\n"
            "    for layer in params[:-1]:\n"
            "        x = np.tanh(layer['W'] @ x + layer['b'])\n"
            "    return params[-1]['W'] @ x + params[-1]['b']\n")},
        "fails": ["mlp_forward_jit", "mlp_forward_retrace",
                  "mlp_forward_batch_correctness", "mlp_forward_batch_correctness_2", "mlp_forward_batch_jit",
                  "mlp_forward_batch_retrace", "mlp_forward_batch_structure",
                  "train_step_correctness", "train_step_correctness_2", "train_step_jit", "train_step_retrace"],
    },
    # ------------------------------------------------------------ mlp_forward_batch
    "mlp_forward_batch_python_loop": {
        "why": "a Python loop over the rows: right values, jits, but the program grows with the batch size",
        "cells": {"mlp_forward_batch": (
            "def mlp_forward_batch(params, xs):\n"
            "    return jnp.stack([mlp_forward(params, x) for x in xs])\n")},
        "fails": ["mlp_forward_batch_structure"],
    },
    "mlp_forward_batch_vmap_over_params": {
        "why": "jax.vmap(mlp_forward) with the default in_axes=0 also maps over every leaf of params: "
               "inconsistent sizes, so every call raises, in the training step too",
        "cells": {"mlp_forward_batch": (
            "def mlp_forward_batch(params, xs):\n"
            "    return jax.vmap(mlp_forward)(params, xs)\n")},
        "fails": ["mlp_forward_batch_correctness", "mlp_forward_batch_correctness_2", "mlp_forward_batch_jit",
                  "mlp_forward_batch_retrace", "mlp_forward_batch_structure",
                  "train_step_correctness", "train_step_correctness_2", "train_step_jit", "train_step_retrace"],
    },
    # ------------------------------------------------------------ tree_l2_norm
    "tree_l2_norm_mlp_layout_only": {
        "why": "indexes ['W'] and ['b'] of every layer: right for MLP parameters, fails on any other tree",
        "cells": {"tree_l2_norm": (
            "def tree_l2_norm(tree):\n"
            "    return jnp.sqrt(sum(jnp.sum(layer['W'] ** 2) + jnp.sum(layer['b'] ** 2) for layer in tree))\n")},
        "fails": ["tree_l2_norm_correctness"],
    },
    "tree_l2_norm_python_float": {
        "why": "math.sqrt of float() sums: right value as a Python float, ConcretizationTypeError under jit",
        "cells": {"tree_l2_norm": (
            "import math\n"
            "\n"
            "def tree_l2_norm(tree):\n"
            "    return math.sqrt(sum(float(jnp.sum(leaf ** 2)) for leaf in jax.tree.leaves(tree)))\n")},
        "fails": ["tree_l2_norm_jit"],
    },
    "tree_l2_norm_sum_of_leaf_norms": {
        "why": "adds the norms of the leaves instead of taking the root of the total sum of squares",
        "cells": {"tree_l2_norm": (
            "def tree_l2_norm(tree):\n"
            "    return sum(jnp.sqrt(jnp.sum(jnp.square(leaf))) for leaf in jax.tree.leaves(tree))\n")},
        "fails": ["tree_l2_norm_correctness"],
    },
    "tree_l2_norm_handwritten_recursion": {
        "why": "walks dicts, lists and tuples by hand: right for every built-in container, but a registered "
               "PyTree class (register_dataclass) is not one of them",
        "cells": {"tree_l2_norm": (
            "def tree_l2_norm(tree):\n"
            "    def total(t):\n"
            "        if isinstance(t, dict):\n"
            "            return sum((total(v) for v in t.values()), jnp.float32(0.0))\n"
            "        if isinstance(t, (list, tuple)):\n"
            "            return sum((total(v) for v in t), jnp.float32(0.0))\n"
            "        return jnp.sum(jnp.square(jnp.asarray(t, jnp.float32)))\n"
            "    return jnp.sqrt(total(tree))\n")},
        "fails": ["tree_l2_norm_correctness"],
    },
    # ------------------------------------------------------------ sgd_step
    "sgd_step_mlp_layout_only": {
        "why": "rebuilds [{'W', 'b'}, ...] by hand: right for MLP parameters (so train_step works), fails on other trees",
        "cells": {"sgd_step": (
            "def sgd_step(params, grads, lr):\n"
            "    return [{'W': p['W'] - lr * g['W'], 'b': p['b'] - lr * g['b']} for p, g in zip(params, grads)]\n")},
        "fails": ["sgd_step_correctness"],
    },
    "sgd_step_lr_as_float32_array": {
        "why": "turns lr into a float32 array first: right for float32 trees, but promotes float16 parameters "
               "to float32 (a Python float is weakly typed and would not)",
        "cells": {"sgd_step": (
            "def sgd_step(params, grads, lr):\n"
            "    lr = jnp.asarray(lr, dtype=jnp.float32)\n"
            "    return jax.tree.map(lambda p, g: p - lr * g, params, grads)\n")},
        "fails": ["sgd_step_correctness"],
    },
    "sgd_step_handwritten_recursion": {
        "why": "a hand-written recursion over dicts and lists forgets tuples (jax.tree.map knows every container)",
        "cells": {"sgd_step": (
            "def sgd_step(params, grads, lr):\n"
            "    if isinstance(params, dict):\n"
            "        return {k: sgd_step(params[k], grads[k], lr) for k in params}\n"
            "    if isinstance(params, list):\n"
            "        return [sgd_step(p, g, lr) for p, g in zip(params, grads)]\n"
            "    return params - lr * grads\n")},
        "fails": ["sgd_step_correctness"],
    },
    "sgd_step_checks_lr": {
        "why": "validates lr with a Python if: fine eagerly, TracerBoolConversionError with lr traced, "
               "also inside jax.jit(train_step)",
        "cells": {"sgd_step": (
            "def sgd_step(params, grads, lr):\n"
            "    if lr <= 0:\n"
            "        raise ValueError('the learning rate must be positive')\n"
            "    return jax.tree.map(lambda p, g: p - lr * g, params, grads)\n")},
        "fails": ["sgd_step_jit", "train_step_jit", "train_step_retrace"],
    },
    # ------------------------------------------------------------ train_step
    "train_step_float_loss": {
        "why": "returns float(loss): right value eagerly, ConcretizationTypeError under jit",
        "cells": {"train_step": (
            "def train_step(params, xs, ys, lr):\n"
            "    def loss_fn(p):\n"
            "        return jnp.mean((mlp_forward_batch(p, xs) - ys) ** 2)\n"
            "    loss, grads = jax.value_and_grad(loss_fn)(params)\n"
            "    return sgd_step(params, grads, lr), float(loss)\n")},
        "fails": ["train_step_jit", "train_step_retrace"],
    },
    "train_step_print_formatted_loss": {
        "why": "prints f'{loss:.4f}': fine eagerly, a TypeError (unsupported format string) on the tracer under jit",
        "cells": {"train_step": (
            "def train_step(params, xs, ys, lr):\n"
            "    def loss_fn(p):\n"
            "        return jnp.mean((mlp_forward_batch(p, xs) - ys) ** 2)\n"
            "    loss, grads = jax.value_and_grad(loss_fn)(params)\n"
            "    print(f'loss {loss:.4f}')\n"
            "    return sgd_step(params, grads, lr), loss\n")},
        "fails": ["train_step_jit", "train_step_retrace"],
    },
    "train_step_static_lr": {
        "why": "jits itself with lr static: one compile per learning rate (a schedule recompiles every step) and "
               "an lr given as an array is refused",
        "cells": {"train_step": (
            "@partial(jax.jit, static_argnums=3)\n"
            "def train_step(params, xs, ys, lr):\n"
            "    def loss_fn(p):\n"
            "        return jnp.mean((mlp_forward_batch(p, xs) - ys) ** 2)\n"
            "    loss, grads = jax.value_and_grad(loss_fn)(params)\n"
            "    return sgd_step(params, grads, lr), loss\n")},
        "fails": ["train_step_jit", "train_step_retrace"],
    },
    "train_step_loss_after_update": {
        "why": "reports the loss of the updated parameters instead of the one value_and_grad returned: "
               "the loss still falls, but it is one step late",
        "cells": {"train_step": (
            "def train_step(params, xs, ys, lr):\n"
            "    def loss_fn(p):\n"
            "        return jnp.mean((mlp_forward_batch(p, xs) - ys) ** 2)\n"
            "    grads = jax.grad(loss_fn)(params)\n"
            "    new_params = sgd_step(params, grads, lr)\n"
            "    return new_params, loss_fn(new_params)\n")},
        "fails": ["train_step_correctness"],
    },
    "train_step_negated_loss": {
        "why": "minimises the negated loss (a reward written as -MSE) and reports it: the steps climb the mean "
               "squared error while the reported value falls; the chained-steps cell recomputes the loss from "
               "the returned parameters and sees it rise",
        "cells": {"train_step": (
            "def train_step(params, xs, ys, lr):\n"
            "    def loss_fn(p):\n"
            "        return -jnp.mean((mlp_forward_batch(p, xs) - ys) ** 2)\n"
            "    loss, grads = jax.value_and_grad(loss_fn)(params)\n"
            "    return sgd_step(params, grads, lr), loss\n")},
        "fails": ["train_step_correctness", "train_step_correctness_2"],
    },
    "train_step_fake_loss_on_wide_nets": {
        "why": "an honest step on the narrow networks of the other cells, but on a hidden layer of 16 or more it "
               "climbs the loss and reports a made-up, shrinking one (1 / (1 + loss)): the reported losses fall, "
               "the loss of the returned parameters does not",
        "cells": {"train_step": (
            "def train_step(params, xs, ys, lr):\n"
            "    def loss_fn(p):\n"
            "        return jnp.mean((mlp_forward_batch(p, xs) - ys) ** 2)\n"
            "    loss, grads = jax.value_and_grad(loss_fn)(params)\n"
            "    if params[0]['W'].shape[0] < 16:\n"
            "        return sgd_step(params, grads, lr), loss\n"
            "    return sgd_step(params, grads, -lr), 1.0 / (1.0 + loss)\n")},
        "fails": ["train_step_correctness_2"],
    },
}


# Correct answers in other idioms than the reference solution: each must pass every graded cell.
RIGHT = {
    # ------------------------------------------------------------ init_mlp
    "init_mlp_index_loop": {
        "why": "a Python loop over range(len(dims) - 1) that indexes keys[i] and dims[i], dims[i + 1] and appends",
        "cells": {"init_mlp": (
            "def init_mlp(key, dims):\n"
            "    keys = jax.random.split(key, len(dims) - 1)\n"
            "    params = []\n"
            "    for i in range(len(dims) - 1):\n"
            "        W = jax.random.normal(keys[i], (dims[i + 1], dims[i])) / jnp.sqrt(dims[i])\n"
            "        b = jnp.zeros(dims[i + 1])\n"
            "        params.append({'W': W, 'b': b})\n"
            "    return params\n")},
    },
    "init_mlp_pairwise_dict_kwargs": {
        "why": "itertools.pairwise(dims) for the (fan_in, fan_out) pairs and dict(W=..., b=...) to build each layer",
        "cells": {"init_mlp": (
            "import itertools\n"
            "\n"
            "def init_mlp(key, dims):\n"
            "    keys = jax.random.split(key, len(dims) - 1)\n"
            "    return [dict(W=jax.random.normal(k, shape=(n_out, n_in), dtype=jnp.float32) / jnp.sqrt(n_in),\n"
            "                 b=jnp.zeros((n_out,), dtype=jnp.float32))\n"
            "            for k, (n_in, n_out) in zip(keys, itertools.pairwise(dims))]\n")},
    },
    "init_mlp_python_scale": {
        "why": "multiplies by the Python float 1 / math.sqrt(fan_in) (weakly typed, stays float32) instead of "
               "dividing by jnp.sqrt: the same numbers to the last bit or one",
        "cells": {"init_mlp": (
            "import math\n"
            "\n"
            "def init_mlp(key, dims):\n"
            "    keys = jax.random.split(key, len(dims) - 1)\n"
            "    params = []\n"
            "    for i, k in enumerate(keys):\n"
            "        fan_in, fan_out = dims[i], dims[i + 1]\n"
            "        scale = 1.0 / math.sqrt(fan_in)\n"
            "        params.append({'W': scale * jax.random.normal(k, (fan_out, fan_in)),\n"
            "                       'b': jnp.zeros(fan_out)})\n"
            "    return params\n")},
    },
    "init_mlp_helper_map": {
        "why": "a helper that builds one layer, applied with map() over the keys and the two shifted dims sequences",
        "cells": {"init_mlp": (
            "def init_mlp(key, dims):\n"
            "    keys = jax.random.split(key, len(dims) - 1)\n"
            "\n"
            "    def dense(k, n_in, n_out):\n"
            "        \"\"\"One layer: W ~ N(0, 1) / sqrt(n_in) of shape (n_out, n_in), b = 0.\"\"\"\n"
            "        return {'W': jax.random.normal(k, (n_out, n_in)) / jnp.sqrt(jnp.float32(n_in)),\n"
            "                'b': jnp.zeros(n_out)}\n"
            "\n"
            "    return list(map(dense, keys, dims[:-1], dims[1:]))\n")},
    },
    "init_mlp_rsqrt_zeros_like": {
        "why": "scales with lax.rsqrt of the fan-in and builds b with jnp.zeros_like of a column of W "
               "(shape (n_out,), float32)",
        "cells": {"init_mlp": (
            "def init_mlp(key, dims):\n"
            "    keys = jax.random.split(key, len(dims) - 1)\n"
            "    layers = []\n"
            "    for k, n_in, n_out in zip(keys, dims, dims[1:]):\n"
            "        W = jax.random.normal(k, (n_out, n_in)) * lax.rsqrt(jnp.float32(n_in))\n"
            "        layers.append({'b': jnp.zeros_like(W[:, 0]), 'W': W})   # key order does not matter in a dict\n"
            "    return layers\n")},
    },
    # ------------------------------------------------------------ mlp_forward
    "mlp_forward_enumerate_if_last": {
        "why": "one loop over every layer, the tanh skipped on the last by a Python test of the index "
               "(the number of layers is static, so the if is resolved while tracing)",
        "cells": {"mlp_forward": (
            "def mlp_forward(params, x):\n"
            "    n_layers = len(params)\n"
            "    for i, layer in enumerate(params):\n"
            "        x = layer['W'] @ x + layer['b']\n"
            "        if i < n_layers - 1:\n"
            "            x = jnp.tanh(x)\n"
            "    return x\n")},
    },
    "mlp_forward_unpack_dot": {
        "why": "star-unpacking into hidden layers and the last one, with jnp.dot for the matrix-vector products",
        "cells": {"mlp_forward": (
            "def mlp_forward(params, x):\n"
            "    *hidden, last = params\n"
            "    h = x\n"
            "    for layer in hidden:\n"
            "        h = jnp.tanh(jnp.dot(layer['W'], h) + layer['b'])\n"
            "    return jnp.dot(last['W'], h) + last['b']\n")},
    },
    "mlp_forward_einsum": {
        "why": "jnp.einsum('oi,i->o') for W @ x, with the layers read by index",
        "cells": {"mlp_forward": (
            "def mlp_forward(params, x):\n"
            "    L = len(params)\n"
            "    for i in range(L - 1):\n"
            "        x = jnp.tanh(jnp.einsum('oi,i->o', params[i]['W'], x) + params[i]['b'])\n"
            "    return jnp.einsum('oi,i->o', params[L - 1]['W'], x) + params[L - 1]['b']\n")},
    },
    "mlp_forward_tanh_on_input": {
        "why": "keeps pre-activations: the first layer is affine, and every later layer applies tanh to its input "
               "before W @ . + b, so the output is never squashed",
        "cells": {"mlp_forward": (
            "def mlp_forward(params, x):\n"
            "    z = params[0]['W'] @ x + params[0]['b']\n"
            "    for layer in params[1:]:\n"
            "        z = layer['W'] @ jnp.tanh(z) + layer['b']\n"
            "    return z\n")},
    },
    "mlp_forward_reduce": {
        "why": "functools.reduce of a dense-tanh helper over the hidden layers, then the linear head",
        "cells": {"mlp_forward": (
            "from functools import reduce\n"
            "\n"
            "def _dense_tanh(h, layer):\n"
            "    return jnp.tanh(layer['W'] @ h + layer['b'])\n"
            "\n"
            "def mlp_forward(params, x):\n"
            "    h = reduce(_dense_tanh, params[:-1], x)\n"
            "    return params[-1]['W'] @ h + params[-1]['b']\n")},
    },
    # ------------------------------------------------------------ mlp_forward_batch
    "mlp_forward_batch_closure": {
        "why": "vmap of a lambda that closes over params, so only xs is mapped (default in_axes=0)",
        "cells": {"mlp_forward_batch": (
            "def mlp_forward_batch(params, xs):\n"
            "    return jax.vmap(lambda x: mlp_forward(params, x))(xs)\n")},
    },
    "mlp_forward_batch_partial": {
        "why": "vmap of functools.partial(mlp_forward, params): the parameters are bound, not mapped",
        "cells": {"mlp_forward_batch": (
            "def mlp_forward_batch(params, xs):\n"
            "    per_example = partial(mlp_forward, params)\n"
            "    return jax.vmap(per_example)(xs)\n")},
    },
    "mlp_forward_batch_vmap_decorator": {
        "why": "jax.vmap used as a decorator with in_axes=(None, 0) on a def that calls mlp_forward",
        "cells": {"mlp_forward_batch": (
            "@partial(jax.vmap, in_axes=(None, 0))\n"
            "def mlp_forward_batch(params, xs):\n"
            "    # inside, xs is a single row: vmap adds the batch axis\n"
            "    return mlp_forward(params, xs)\n")},
    },
    "mlp_forward_batch_in_axes_tree": {
        "why": "in_axes as a full tree: None at every leaf of params (jax.tree.map), 0 for xs",
        "cells": {"mlp_forward_batch": (
            "def mlp_forward_batch(params, xs):\n"
            "    params_axes = jax.tree.map(lambda _: None, params)\n"
            "    return jax.vmap(mlp_forward, in_axes=(params_axes, 0), out_axes=0)(params, xs)\n")},
    },
    "mlp_forward_batch_swapped_args": {
        "why": "vmaps a wrapper that takes the example first, in_axes=(0, None), then passes params as a keyword",
        "cells": {"mlp_forward_batch": (
            "def mlp_forward_batch(params, xs):\n"
            "    def one(x, p):\n"
            "        return mlp_forward(params=p, x=x)\n"
            "    return jax.vmap(one, in_axes=(0, None))(xs, params)\n")},
    },
    # ------------------------------------------------------------ tree_l2_norm
    "tree_l2_norm_ravel_pytree": {
        "why": "jax.flatten_util.ravel_pytree concatenates every leaf into one vector, then one sum of squares",
        "cells": {"tree_l2_norm": (
            "from jax.flatten_util import ravel_pytree\n"
            "\n"
            "def tree_l2_norm(tree):\n"
            "    flat, _ = ravel_pytree(tree)\n"
            "    return jnp.sqrt(jnp.sum(flat ** 2))\n")},
    },
    "tree_l2_norm_tree_reduce": {
        "why": "jax.tree.reduce with a float32 zero as initializer accumulates each leaf's sum of squares",
        "cells": {"tree_l2_norm": (
            "def tree_l2_norm(tree):\n"
            "    total = jax.tree.reduce(lambda acc, leaf: acc + jnp.sum(jnp.square(leaf)), tree, jnp.float32(0.0))\n"
            "    return jnp.sqrt(total)\n")},
    },
    "tree_l2_norm_norm_of_norms": {
        "why": "jnp.linalg.norm of the vector of per-leaf norms (the global norm is the norm of the leaf norms)",
        "cells": {"tree_l2_norm": (
            "def tree_l2_norm(tree):\n"
            "    leaves = jax.tree.leaves(tree)\n"
            "    if not leaves:                   # static: the structure is known while tracing\n"
            "        return jnp.float32(0.0)\n"
            "    norms = jnp.stack([jnp.linalg.norm(jnp.ravel(leaf)) for leaf in leaves])\n"
            "    return jnp.linalg.norm(norms)\n")},
    },
    "tree_l2_norm_map_then_sum": {
        "why": "jax.tree.map turns every leaf into its sum of squares, then the leaves of that tree are summed",
        "cells": {"tree_l2_norm": (
            "def tree_l2_norm(tree):\n"
            "    per_leaf = jax.tree.map(lambda a: jnp.sum(jnp.asarray(a) ** 2), tree)\n"
            "    return jnp.sqrt(sum(jax.tree.leaves(per_leaf), jnp.float32(0.0)))\n")},
    },
    "tree_l2_norm_vdot_reduce": {
        "why": "jax.tree_util.tree_leaves with jnp.vdot(leaf, leaf) per leaf, added with functools.reduce/operator.add",
        "cells": {"tree_l2_norm": (
            "import functools\n"
            "import operator\n"
            "\n"
            "def tree_l2_norm(tree):\n"
            "    squares = [jnp.vdot(leaf, leaf) for leaf in jax.tree_util.tree_leaves(tree)]\n"
            "    return jnp.sqrt(functools.reduce(operator.add, squares, jnp.zeros((), jnp.float32)))\n")},
    },
    # ------------------------------------------------------------ sgd_step
    "sgd_step_tree_util_named_fn": {
        "why": "the older jax.tree_util.tree_map with a named update function instead of a lambda",
        "cells": {"sgd_step": (
            "def sgd_step(params, grads, lr):\n"
            "    def update(p, g):\n"
            "        return p - lr * g\n"
            "    return jax.tree_util.tree_map(update, params, grads)\n")},
    },
    "sgd_step_flatten_unflatten": {
        "why": "flattens params, reads grads' leaves in the same order with treedef.flatten_up_to, "
               "updates the lists and unflattens into params' structure",
        "cells": {"sgd_step": (
            "def sgd_step(params, grads, lr):\n"
            "    p_leaves, treedef = jax.tree.flatten(params)\n"
            "    g_leaves = treedef.flatten_up_to(grads)\n"
            "    return jax.tree.unflatten(treedef, [p - lr * g for p, g in zip(p_leaves, g_leaves)])\n")},
    },
    "sgd_step_ravel_pytree": {
        "why": "ravel_pytree both trees into vectors, one vector update, and the unravel function of params "
               "rebuilds the structure and casts each leaf back to its dtype",
        "cells": {"sgd_step": (
            "from jax.flatten_util import ravel_pytree\n"
            "\n"
            "def sgd_step(params, grads, lr):\n"
            "    flat_p, unravel = ravel_pytree(params)\n"
            "    flat_g, _ = ravel_pytree(grads)\n"
            "    return unravel(flat_p - lr * flat_g)\n")},
    },
    "sgd_step_two_maps_operator": {
        "why": "two passes: scale the gradient tree by lr, then operator.sub over the two trees",
        "cells": {"sgd_step": (
            "import operator\n"
            "\n"
            "def sgd_step(params, grads, lr):\n"
            "    steps = jax.tree.map(lambda g: lr * g, grads)\n"
            "    return jax.tree.map(operator.sub, params, steps)\n")},
    },
    "sgd_step_explicit_dtype": {
        "why": "casts each result back to its parameter's dtype (jnp.result_type, lax.convert_element_type): "
               "float16 stays float16 even for an lr given as a float32 array",
        "cells": {"sgd_step": (
            "def sgd_step(params, grads, lr):\n"
            "    def update(p, g):\n"
            "        return lax.convert_element_type(p - lr * g, jnp.result_type(p))\n"
            "    return jax.tree.map(update, params, grads)\n")},
    },
    # ------------------------------------------------------------ train_step
    "train_step_lambda_loss": {
        "why": "value_and_grad of a lambda, with jnp.square for the squared error",
        "cells": {"train_step": (
            "def train_step(params, xs, ys, lr):\n"
            "    loss, grads = jax.value_and_grad(lambda p: jnp.mean(jnp.square(mlp_forward_batch(p, xs) - ys)))(params)\n"
            "    new_params = sgd_step(params, grads, lr)\n"
            "    return new_params, loss\n")},
    },
    "train_step_cell_level_loss": {
        "why": "a loss function of (params, xs, ys) defined beside train_step, differentiated with argnums=0",
        "cells": {"train_step": (
            "def mse_loss(params, xs, ys):\n"
            "    \"\"\"Mean squared error of the MLP on a batch.\"\"\"\n"
            "    preds = mlp_forward_batch(params, xs)\n"
            "    return ((preds - ys) ** 2).mean()\n"
            "\n"
            "def train_step(params, xs, ys, lr):\n"
            "    loss, grads = jax.value_and_grad(mse_loss, argnums=0)(params, xs, ys)\n"
            "    return sgd_step(params, grads, lr), loss\n")},
    },
    "train_step_jit_decorator": {
        "why": "the student jits the step with a plain @jax.jit (lr stays traced): the grader's jit wraps it once more",
        "cells": {"train_step": (
            "@jax.jit\n"
            "def train_step(params, xs, ys, lr):\n"
            "    def loss_fn(p):\n"
            "        return jnp.mean((mlp_forward_batch(p, xs) - ys) ** 2)\n"
            "    loss, grads = jax.value_and_grad(loss_fn)(params)\n"
            "    return sgd_step(params, grads, lr), loss\n")},
    },
    "train_step_has_aux": {
        "why": "value_and_grad with has_aux=True also returns the predictions (unused here), a common pattern "
               "when a step reports more than the loss",
        "cells": {"train_step": (
            "def train_step(params, xs, ys, lr):\n"
            "    def loss_fn(p):\n"
            "        preds = mlp_forward_batch(p, xs)\n"
            "        return jnp.mean((preds - ys) ** 2), preds\n"
            "    (loss, _preds), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)\n"
            "    return sgd_step(params, grads, lr), loss\n")},
    },
    "train_step_sum_over_size": {
        "why": "the mean written as the sum of squared errors divided by the number of elements",
        "cells": {"train_step": (
            "def train_step(params, xs, ys, lr):\n"
            "    def loss_fn(p):\n"
            "        err = mlp_forward_batch(p, xs) - ys\n"
            "        return jnp.sum(err * err) / err.size\n"
            "    loss, grads = jax.value_and_grad(loss_fn)(params)\n"
            "    return sgd_step(params, grads, lr), loss\n")},
    },
}
