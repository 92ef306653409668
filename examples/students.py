"""Example students for `make demo`: what each one wrote in place of the reference solution.

A student's notebook is the release with every solution cell filled in: with the reference
solution, except where `WROTE` gives the student's own cell. Solutions are keyed by assignment,
then exercise id.
"""

WROTE = {
    # Ada solves everything the intended way.
    "ada": {},
    # Ben makes the classic JAX mistakes: right values, wrong way.
    "ben": {
        "02_static_shapes": {
            "mask_tensor": "def mask_tensor(x, mask):\n    return x.at[mask].set(-100.0)\n",
            "sum_negatives": "def sum_negatives(x):\n    return x[x < 0].sum()\n",
        },
        "03_control_flow": {
            "repeated_square": ("def repeated_square(x, n):\n    for _ in range(n):\n"
                                "        x = x * x\n    return x\n"),
            "halve_if_wide": ("def halve_if_wide(x):\n    if jnp.abs(jnp.max(x) - jnp.min(x)) > 1.0:\n"
                              "        return x / 2\n    return x\n"),
        },
        "01_jax_basics": {
            "accumulate": ("def accumulate(x, idx, values):\n    out = np.array(x)\n"
                           "    out[np.asarray(idx)] += np.asarray(values)\n    return jnp.asarray(out)\n"),
        },
        "04_pytrees_mlp": {
            "train_step": ("def train_step(params, xs, ys, lr):\n    def loss_fn(p):\n"
                           "        return jnp.mean((mlp_forward_batch(p, xs) - ys) ** 2)\n"
                           "    loss, grads = jax.value_and_grad(loss_fn)(params)\n"
                           "    return sgd_step(params, grads, lr), float(loss)\n"),
        },
        "05_autodiff": {
            "hvp": "def hvp(f, x, v):\n    return jax.hessian(f)(x) @ v\n",
        },
        "06_tracing_and_purity": {
            "debug_mean": "def debug_mean(x):\n    m = jnp.mean(x)\n    print(f'mean={m}')\n    return m\n",
        },
        "08_numerics_and_performance": {
            "safe_norm": ("def safe_norm(x):\n    sq = jnp.sum(x * x)\n"
                          "    return jnp.where(sq > 0, jnp.sqrt(sq), 0.0)\n"),
            "pairwise_sq_dists": ("def pairwise_sq_dists(x, y):\n"
                                  "    return jnp.sum((x[:, None, :] - y[None, :, :]) ** 2, axis=-1)\n"),
        },
    },
    # Cal gets a value wrong and writes a loop that never ends.
    "cal": {
        "02_static_shapes": {
            "sum_negatives": "def sum_negatives(x):\n    return jnp.where(x <= 0, x, 0.0).sum() + 1.0\n",
        },
        "03_control_flow": {
            "collatz_steps": ("def collatz_steps(n):\n    steps = 0\n    while True:\n"
                              "        steps += 1\n    return steps\n"),
        },
        "04_pytrees_mlp": {
            "init_mlp": ("def init_mlp(key, dims):\n    keys = jax.random.split(key, len(dims) - 1)\n"
                         "    return [{'W': jax.random.normal(k, (n_in, n_out)) / jnp.sqrt(n_in), 'b': jnp.zeros(n_out)}\n"
                         "            for k, n_in, n_out in zip(keys, dims[:-1], dims[1:])]\n"),
        },
        "05_autodiff": {
            "second_derivative": ("def second_derivative(f):\n    h = 1e-2\n"
                                  "    return lambda x: (f(x + h) - 2 * f(x) + f(x - h)) / h ** 2\n"),
        },
        "08_numerics_and_performance": {
            "stable_logsumexp": "def stable_logsumexp(x):\n    return jnp.log(jnp.sum(jnp.exp(x), axis=-1))\n",
        },
    },
}
