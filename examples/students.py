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
    },
}
