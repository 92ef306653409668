"""Known-wrong submissions for 07_parallelism and the graded cells each one must fail.

`cells` maps an exercise id to the full replacement source of its solution cell; `fails` is the
exact set of graded test cells that must fail (every other graded cell still passes).

The data_parallel_step cases are graded where 8 simulated CPU devices exist (the notebook's setup
cell sets XLA_FLAGS); on a single device a psum equals a pmean and the first shard is the whole
batch, so `_psum_loss`, `_pmean_grads` and `_first_shard_only` are right there:
`fails_on_one_device` is their verdict on a one-accelerator lab machine (`autograder selftest`).
"""

_LOSS = (
    "def classifier_loss(params, xs, ys):\n"
    "    logits = xs @ params['W'].T + params['b']\n"
    "    return jnp.mean(-jax.nn.log_softmax(logits)[jnp.arange(xs.shape[0]), ys])\n"
    "\n"
    "\n"
)

CASES = {
    # ------------------------------------------------------------ per_example_grads
    "per_example_grads_batch_mean": {
        "why": "jax.grad of the batch loss: one averaged gradient, no per-example leading axis",
        "cells": {"per_example_grads": _LOSS + (
            "def per_example_grads(params, xs, ys):\n"
            "    return jax.grad(classifier_loss)(params, xs, ys)\n")},
        "fails": ["per_example_grads_correctness"],
    },
    "per_example_grads_python_loop": {
        "why": "a Python loop of jax.grad over the examples: right values, but unrolled once per example",
        "cells": {"per_example_grads": _LOSS + (
            "def per_example_grads(params, xs, ys):\n"
            "    grads = [jax.grad(classifier_loss)(params, xs[i:i + 1], ys[i:i + 1])\n"
            "             for i in range(xs.shape[0])]\n"
            "    return jax.tree.map(lambda *g: jnp.stack(g), *grads)\n")},
        "fails": ["per_example_grads_structure"],
    },
    "per_example_grads_params_batched": {
        "why": "jax.vmap with the default in_axes=0 maps over the parameters too: inconsistent sizes",
        "cells": {"per_example_grads": _LOSS + (
            "def per_example_grads(params, xs, ys):\n"
            "    def one_example_loss(params, x, y):\n"
            "        return classifier_loss(params, x[None], y[None])\n"
            "    return jax.vmap(jax.grad(one_example_loss))(params, xs, ys)\n")},
        "fails": ["per_example_grads_correctness", "per_example_grads_jit", "per_example_grads_structure"],
    },
    "per_example_grads_divided_by_batch": {
        "why": "the Jacobian of the per-example terms of the batch mean: every gradient divided by B",
        "cells": {"per_example_grads": _LOSS + (
            "def per_example_grads(params, xs, ys):\n"
            "    def scaled_losses(params):\n"
            "        logits = xs @ params['W'].T + params['b']\n"
            "        losses = -jax.nn.log_softmax(logits)[jnp.arange(xs.shape[0]), ys]\n"
            "        return losses / xs.shape[0]\n"
            "    return jax.jacrev(scaled_losses)(params)\n")},
        "fails": ["per_example_grads_correctness"],
    },
    # ------------------------------------------------------------ data_parallel_step
    "data_parallel_step_psum_loss": {
        "why": "lax.psum instead of lax.pmean: the loss, and so the gradient, is device_count() times too big",
        "cells": {"data_parallel_step": _LOSS + (
            "def data_parallel_step(params, xs, ys, lr):\n"
            "    mesh = Mesh(np.array(jax.devices()), ('batch',))\n"
            "\n"
            "    @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P('batch'), P('batch')), out_specs=P())\n"
            "    def whole_batch_loss(params, xs, ys):\n"
            "        return lax.psum(classifier_loss(params, xs, ys), 'batch')\n"
            "\n"
            "    @jax.jit\n"
            "    def step(params, xs, ys, lr):\n"
            "        grads = jax.grad(whole_batch_loss)(params, xs, ys)\n"
            "        return jax.tree.map(lambda p, g: p - lr * g, params, grads)\n"
            "\n"
            "    return step(params, xs, ys, lr)\n")},
        "fails": ["data_parallel_step_correctness"],
        "fails_on_one_device": [],
    },
    "data_parallel_step_pmean_grads": {
        "why": "the pmap habit inside shard_map: grads w.r.t. replicated params are already summed over "
               "devices, so pmean of them leaves device_count() times the mean gradient",
        "cells": {"data_parallel_step": _LOSS + (
            "def data_parallel_step(params, xs, ys, lr):\n"
            "    mesh = Mesh(np.array(jax.devices()), ('batch',))\n"
            "\n"
            "    @jax.jit\n"
            "    @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P('batch'), P('batch'), P()), out_specs=P())\n"
            "    def step(params, xs, ys, lr):\n"
            "        grads = lax.pmean(jax.grad(classifier_loss)(params, xs, ys), 'batch')\n"
            "        return jax.tree.map(lambda p, g: p - lr * g, params, grads)\n"
            "\n"
            "    return step(params, xs, ys, lr)\n")},
        "fails": ["data_parallel_step_correctness"],
        "fails_on_one_device": [],
    },
    "data_parallel_step_first_shard_only": {
        "why": "pmap without any cross-device mean: the update of device 0, computed from its block alone",
        "cells": {"data_parallel_step": _LOSS + (
            "def data_parallel_step(params, xs, ys, lr):\n"
            "    n = jax.device_count()\n"
            "\n"
            "    def local_step(params, xs, ys):\n"
            "        grads = jax.grad(classifier_loss)(params, xs, ys)\n"
            "        return jax.tree.map(lambda p, g: p - lr * g, params, grads)\n"
            "\n"
            "    out = jax.pmap(local_step, in_axes=(None, 0, 0))(\n"
            "        params, xs.reshape(n, -1, xs.shape[1]), ys.reshape(n, -1))\n"
            "    return jax.tree.map(lambda leaf: leaf[0], out)\n")},
        "fails": ["data_parallel_step_correctness"],
        "fails_on_one_device": [],
    },
    "data_parallel_step_single_device": {
        "why": "the plain jitted step: right values, but the whole batch stays on one device",
        "cells": {"data_parallel_step": _LOSS + (
            "@jax.jit\n"
            "def data_parallel_step(params, xs, ys, lr):\n"
            "    grads = jax.grad(classifier_loss)(params, xs, ys)\n"
            "    return jax.tree.map(lambda p, g: p - lr * g, params, grads)\n")},
        "fails": ["data_parallel_step_structure"],
    },
    "data_parallel_step_sharded_decoy": {
        "why": "red team: the whole batch on one device, plus a sharded zeros vector folded into the result "
               "as 0.0 * decoy.sum(): a split over all devices, but not of the batch",
        "cells": {"data_parallel_step": _LOSS + (
            "_mesh = Mesh(np.array(jax.devices()), ('batch',))\n"
            "\n"
            "def data_parallel_step(params, xs, ys, lr):\n"
            "    decoy = lax.with_sharding_constraint(jnp.zeros(jax.device_count()), NamedSharding(_mesh, P('batch')))\n"
            "    grads = jax.grad(classifier_loss)(params, xs, ys)\n"
            "    new = jax.tree.map(lambda p, g: p - lr * g, params, grads)\n"
            "    new['b'] = new['b'] + 0.0 * decoy.sum()\n"
            "    return new\n")},
        "fails": ["data_parallel_step_structure"],
    },
    "data_parallel_step_batch_shaped_decoy": {
        "why": "the decoy has the batch's shape (jnp.zeros_like(xs)) and is split over all devices, yet holds "
               "none of its values: the gradient is computed from the unsplit xs",
        "cells": {"data_parallel_step": _LOSS + (
            "def data_parallel_step(params, xs, ys, lr):\n"
            "    mesh = Mesh(np.array(jax.devices()), ('batch',))\n"
            "    decoy = jax.device_put(jnp.zeros_like(xs), NamedSharding(mesh, P('batch')))\n"
            "    grads = jax.grad(classifier_loss)(params, xs, ys)\n"
            "    return {'W': params['W'] - lr * grads['W'], 'b': params['b'] - lr * grads['b'] + 0.0 * decoy.sum()}\n")},
        "fails": ["data_parallel_step_structure"],
    },
    "data_parallel_step_split_left_unused": {
        "why": "device_put splits xs over the devices, but the step computes on the unsplit xs: the split's "
               "result never reaches the new params",
        "cells": {"data_parallel_step": _LOSS + (
            "def data_parallel_step(params, xs, ys, lr):\n"
            "    mesh = Mesh(np.array(jax.devices()), ('batch',))\n"
            "    jax.device_put(xs, NamedSharding(mesh, P('batch')))\n"
            "    grads = jax.jit(jax.grad(classifier_loss))(params, xs, ys)\n"
            "    return jax.tree.map(lambda p, g: p - lr * g, params, grads)\n")},
        "fails": ["data_parallel_step_structure"],
    },
    "data_parallel_step_explicit_mesh": {
        "why": "jax.make_mesh without axis_types gives explicit axes: shard_map rejects the unsharded "
               "inputs (ValueError) before anything runs",
        "cells": {"data_parallel_step": _LOSS + (
            "def data_parallel_step(params, xs, ys, lr):\n"
            "    mesh = jax.make_mesh((jax.device_count(),), ('batch',))\n"
            "\n"
            "    @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P('batch'), P('batch')), out_specs=P())\n"
            "    def whole_batch_loss(params, xs, ys):\n"
            "        return lax.pmean(classifier_loss(params, xs, ys), 'batch')\n"
            "\n"
            "    grads = jax.jit(jax.grad(whole_batch_loss))(params, xs, ys)\n"
            "    return jax.tree.map(lambda p, g: p - lr * g, params, grads)\n")},
        "fails": ["data_parallel_step_correctness", "data_parallel_step_jit", "data_parallel_step_structure"],
    },
}


# Correct answers in other idioms than the reference solution: each must pass every graded cell of the
# exercise it replaces (issue 26: no correct answer loses a point). The solution cell also holds
# classifier_loss, so every answer starts with it.
RIGHT = {
    # ------------------------------------------------------------ per_example_grads
    "per_example_grads_lambda": {
        "why": "the one-example loss as a lambda over classifier_loss on x[None], y[None], vmapped with "
               "in_axes=(None, 0, 0)",
        "cells": {"per_example_grads": _LOSS + (
            "def per_example_grads(params, xs, ys):\n"
            "    one = lambda p, x, y: classifier_loss(p, x[None], y[None])\n"
            "    return jax.vmap(jax.grad(one), in_axes=(None, 0, 0))(params, xs, ys)\n")},
    },
    "per_example_grads_batches_of_one": {
        "why": "reshapes the batch into B batches of one example (xs[:, None], ys[:, None]) and vmaps the "
               "gradient of classifier_loss itself, no wrapper function",
        "cells": {"per_example_grads": _LOSS + (
            "def per_example_grads(params, xs, ys):\n"
            "    grad_fn = jax.grad(classifier_loss)\n"
            "    return jax.vmap(grad_fn, in_axes=(None, 0, 0))(params, xs[:, None, :], ys[:, None])\n")},
    },
    "per_example_grads_single_example_loss": {
        "why": "writes the loss of one example from scratch (W @ x + b, -log_softmax[y]) instead of reusing "
               "the batch loss",
        "cells": {"per_example_grads": _LOSS + (
            "def example_loss(params, x, y):\n"
            "    \"\"\"Cross-entropy of one example: x of shape (D,), y an int label.\"\"\"\n"
            "    logits = params['W'] @ x + params['b']\n"
            "    return -jax.nn.log_softmax(logits)[y]\n"
            "\n"
            "\n"
            "def per_example_grads(params, xs, ys):\n"
            "    return jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0))(params, xs, ys)\n")},
    },
    "per_example_grads_value_and_grad": {
        "why": "vmap of jax.value_and_grad (per-example losses come along) and keeps only the gradients",
        "cells": {"per_example_grads": _LOSS + (
            "def per_example_grads(params, xs, ys):\n"
            "    def one_example_loss(params, x, y):\n"
            "        return classifier_loss(params, x[None], y[None])\n"
            "\n"
            "    _losses, grads = jax.vmap(jax.value_and_grad(one_example_loss), in_axes=(None, 0, 0))(params, xs, ys)\n"
            "    return grads\n")},
    },
    "per_example_grads_stacked_decorators": {
        "why": "the transformations as decorators: @partial(jax.vmap, in_axes=(None, 0, 0)) over @jax.grad",
        "cells": {"per_example_grads": _LOSS + (
            "@partial(jax.vmap, in_axes=(None, 0, 0))\n"
            "@jax.grad\n"
            "def example_grad(params, x, y):\n"
            "    return classifier_loss(params, x[None], y[None])\n"
            "\n"
            "\n"
            "def per_example_grads(params, xs, ys):\n"
            "    return example_grad(params, xs, ys)\n")},
    },
    # ------------------------------------------------------------ data_parallel_step
    "data_parallel_step_device_put_sharded_jit": {
        "why": "the automatic way: device_put xs and ys with NamedSharding(mesh, P('batch')), params "
               "replicated, then the plain jitted step; the compiler inserts the all-reduce",
        "cells": {"data_parallel_step": _LOSS + (
            "@jax.jit\n"
            "def _plain_step(params, xs, ys, lr):\n"
            "    grads = jax.grad(classifier_loss)(params, xs, ys)\n"
            "    return jax.tree.map(lambda p, g: p - lr * g, params, grads)\n"
            "\n"
            "\n"
            "def data_parallel_step(params, xs, ys, lr):\n"
            "    mesh = Mesh(np.array(jax.devices()), ('batch',))\n"
            "    split, replicated = NamedSharding(mesh, P('batch')), NamedSharding(mesh, P())\n"
            "    xs, ys = jax.device_put(xs, split), jax.device_put(ys, split)\n"
            "    params = jax.device_put(params, replicated)\n"
            "    return _plain_step(params, xs, ys, lr)\n")},
    },
    "data_parallel_step_jit_in_shardings": {
        "why": "jax.jit with in_shardings/out_shardings naming the layout instead of device_put",
        "cells": {"data_parallel_step": _LOSS + (
            "def data_parallel_step(params, xs, ys, lr):\n"
            "    mesh = Mesh(np.array(jax.devices()), ('batch',))\n"
            "    rep, batch = NamedSharding(mesh, P()), NamedSharding(mesh, P('batch'))\n"
            "\n"
            "    def step(params, xs, ys, lr):\n"
            "        grads = jax.grad(classifier_loss)(params, xs, ys)\n"
            "        return {k: params[k] - lr * grads[k] for k in params}\n"
            "\n"
            "    step = jax.jit(step, in_shardings=(rep, batch, batch, rep), out_shardings=rep)\n"
            "    return step(params, xs, ys, lr)\n")},
    },
    "data_parallel_step_sharding_constraint": {
        "why": "lax.with_sharding_constraint inside the jitted step pins xs and ys to P('batch')",
        "cells": {"data_parallel_step": _LOSS + (
            "def data_parallel_step(params, xs, ys, lr):\n"
            "    mesh = Mesh(np.array(jax.devices()), ('batch',))\n"
            "    by_batch = NamedSharding(mesh, P('batch'))\n"
            "\n"
            "    @jax.jit\n"
            "    def step(params, xs, ys, lr):\n"
            "        xs = lax.with_sharding_constraint(xs, by_batch)\n"
            "        ys = lax.with_sharding_constraint(ys, by_batch)\n"
            "        grads = jax.grad(classifier_loss)(params, xs, ys)\n"
            "        return jax.tree.map(lambda p, g: p - lr * g, params, grads)\n"
            "\n"
            "    return step(params, xs, ys, lr)\n")},
    },
    "data_parallel_step_pmap_pmean_grads": {
        "why": "the older pmap recipe: batch reshaped to (devices, -1, ...), grad on each device, pmean of the "
               "gradients (pmap does not sum them for replicated params), and [0] of the replicated result",
        "cells": {"data_parallel_step": _LOSS + (
            "def data_parallel_step(params, xs, ys, lr):\n"
            "    n = jax.device_count()\n"
            "\n"
            "    def local_step(params, xs_block, ys_block, lr):\n"
            "        grads = lax.pmean(jax.grad(classifier_loss)(params, xs_block, ys_block), axis_name='devices')\n"
            "        return jax.tree.map(lambda p, g: p - lr * g, params, grads)\n"
            "\n"
            "    step = jax.pmap(local_step, axis_name='devices', in_axes=(None, 0, 0, None))\n"
            "    out = step(params, xs.reshape(n, -1, xs.shape[-1]), ys.reshape(n, -1), lr)\n"
            "    return jax.tree.map(lambda leaf: leaf[0], out)\n")},
    },
    "data_parallel_step_whole_step_in_shard_map": {
        "why": "the whole step runs per device inside shard_map: grad of the pmean-ed loss (global, so the "
               "gradient is the whole batch's) and the update, with lr passed replicated",
        "cells": {"data_parallel_step": _LOSS + (
            "def data_parallel_step(params, xs, ys, lr):\n"
            "    mesh = Mesh(np.array(jax.devices()), ('batch',))\n"
            "\n"
            "    @jax.jit\n"
            "    @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P('batch'), P('batch'), P()), out_specs=P())\n"
            "    def step(params, xs_block, ys_block, lr):\n"
            "        global_loss = lambda p: lax.pmean(classifier_loss(p, xs_block, ys_block), 'batch')\n"
            "        grads = jax.grad(global_loss)(params)\n"
            "        return jax.tree.map(lambda p, g: p - lr * g, params, grads)\n"
            "\n"
            "    return step(params, xs, ys, lr)\n")},
    },
}
