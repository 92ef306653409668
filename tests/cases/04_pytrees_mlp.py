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
}
