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
