"""Known-wrong submissions for 03_control_flow and the graded cells each one must fail.

`cells` maps an exercise id to the full replacement source of its solution cell; `fails` is the
exact set of graded test cells that must fail (every other graded cell still passes).
"""

CASES = {
    # ------------------------------------------------------------ repeated_square
    "repeated_square_python_loop": {
        "why": "range(n) needs a concrete n: fine eagerly, fails under jit with n traced",
        "cells": {"repeated_square": (
            "def repeated_square(x, n):\n"
            "    for _ in range(n):\n"
            "        x = x * x\n"
            "    return x\n")},
        "fails": ["repeated_square_jit", "repeated_square_retrace", "repeated_square_structure",
                  "repeated_square_performance"],
    },
    "repeated_square_python_while": {
        "why": "a Python while on the traced n raises TracerBoolConversionError under jit",
        "cells": {"repeated_square": (
            "def repeated_square(x, n):\n"
            "    while n > 0:\n"
            "        x = x * x\n"
            "        n = n - 1\n"
            "    return x\n")},
        "fails": ["repeated_square_jit", "repeated_square_retrace", "repeated_square_structure",
                  "repeated_square_performance"],
    },
    "repeated_square_closed_form": {
        "why": "x ** (2 ** n) gives the values and jits, but the spec asks for a loop (no while/scan), and "
               "with n = 1000 static XLA expands the power into 1000 multiplications anyway",
        "cells": {"repeated_square": (
            "def repeated_square(x, n):\n"
            "    return x ** (2 ** n)\n")},
        "fails": ["repeated_square_structure", "repeated_square_performance"],
    },
    "repeated_square_one_short": {
        "why": "fori_loop from 1 squares n - 1 times (n = 0 still looks right)",
        "cells": {"repeated_square": (
            "def repeated_square(x, n):\n"
            "    return lax.fori_loop(1, n, lambda i, y: y * y, x)\n")},
        "fails": ["repeated_square_correctness"],
    },
    # ------------------------------------------------------------ newton_sqrt
    "newton_sqrt_python_loop": {
        "why": "a Python loop over the static num_iters jits but unrolls: 1000 steps, thousands of equations",
        "cells": {"newton_sqrt": (
            "def newton_sqrt(a, num_iters):\n"
            "    y = a\n"
            "    for _ in range(num_iters):\n"
            "        y = 0.5 * (y + a / y)\n"
            "    return y\n")},
        "fails": ["newton_sqrt_structure"],
    },
    "newton_sqrt_until_converged": {
        "why": "loops until converged instead of num_iters times, with a Python while on traced values",
        "cells": {"newton_sqrt": (
            "def newton_sqrt(a, num_iters):\n"
            "    y = a\n"
            "    while jnp.max(jnp.abs(y * y - a) / a) > 1e-4:\n"
            "        y = 0.5 * (y + a / y)\n"
            "    return y\n")},
        "fails": ["newton_sqrt_correctness", "newton_sqrt_jit", "newton_sqrt_structure"],
    },
    "newton_sqrt_one_extra": {
        "why": "off by one: num_iters + 1 Newton steps",
        "cells": {"newton_sqrt": (
            "def newton_sqrt(a, num_iters):\n"
            "    return lax.fori_loop(0, num_iters + 1, lambda i, y: 0.5 * (y + a / y), a)\n")},
        "fails": ["newton_sqrt_correctness"],
    },
    "newton_sqrt_start_at_one": {
        "why": "starts from y = 1 instead of y = a: converges, but the first iterates are wrong",
        "cells": {"newton_sqrt": (
            "def newton_sqrt(a, num_iters):\n"
            "    return lax.fori_loop(0, num_iters, lambda i, y: 0.5 * (y + a / y), jnp.ones_like(a))\n")},
        "fails": ["newton_sqrt_correctness"],
    },
    # ------------------------------------------------------------ collatz_steps
    "collatz_steps_python_while": {
        "why": "a Python while on the traced n raises TracerBoolConversionError under jit",
        "cells": {"collatz_steps": (
            "def collatz_steps(n):\n"
            "    steps = 0\n"
            "    while n != 1:\n"
            "        n = jnp.where(n % 2 == 0, n // 2, 3 * n + 1)\n"
            "        steps += 1\n"
            "    return jnp.int32(steps)\n")},
        "fails": ["collatz_steps_jit", "collatz_steps_retrace", "collatz_steps_structure"],
    },
    "collatz_steps_counts_from_one": {
        "why": "off by one: the counter starts at 1, so collatz_steps(1) == 1",
        "cells": {"collatz_steps": (
            "def collatz_steps(n):\n"
            "    def cond(state):\n"
            "        return state[0] != 1\n"
            "    def body(state):\n"
            "        m, steps = state\n"
            "        return jnp.where(m % 2 == 0, m // 2, 3 * m + 1), steps + 1\n"
            "    return lax.while_loop(cond, body, (jnp.asarray(n, jnp.int32), jnp.int32(1)))[1]\n")},
        "fails": ["collatz_steps_correctness"],
    },
    "collatz_steps_fixed_fori": {
        "why": "a fixed 1000-pass fori_loop that idles after reaching 1: right values, but a scan, no while",
        "cells": {"collatz_steps": (
            "def collatz_steps(n):\n"
            "    def body(i, state):\n"
            "        m, steps = state\n"
            "        done = m == 1\n"
            "        nxt = jnp.where(m % 2 == 0, m // 2, 3 * m + 1)\n"
            "        return jnp.where(done, m, nxt), steps + jnp.where(done, 0, 1)\n"
            "    return lax.fori_loop(0, 1000, body, (jnp.asarray(n, jnp.int32), jnp.int32(0)))[1]\n")},
        "fails": ["collatz_steps_structure"],
    },
    # ------------------------------------------------------------ halve_if_wide
    "halve_if_wide_python_if": {
        "why": "a Python if on the traced spread raises TracerBoolConversionError under jit",
        "cells": {"halve_if_wide": (
            "def halve_if_wide(x):\n"
            "    if jnp.abs(jnp.max(x) - jnp.min(x)) > 1.0:\n"
            "        return x / 2\n"
            "    return x\n")},
        "fails": ["halve_if_wide_jit", "halve_if_wide_structure"],
    },
    "halve_if_wide_jnp_where": {
        "why": "jnp.where gives the values and jits, but is a select_n, not a 2-branch cond",
        "cells": {"halve_if_wide": (
            "def halve_if_wide(x):\n"
            "    return jnp.where(jnp.abs(jnp.max(x) - jnp.min(x)) > 1.0, x / 2, x)\n")},
        "fails": ["halve_if_wide_structure"],
    },
    "halve_if_wide_at_least_one": {
        "why": ">= instead of >: a spread of exactly 1.0 gets halved",
        "cells": {"halve_if_wide": (
            "def halve_if_wide(x):\n"
            "    wide = jnp.abs(jnp.max(x) - jnp.min(x)) >= 1.0\n"
            "    return lax.cond(wide, lambda v: v / 2, lambda v: v, x)\n")},
        "fails": ["halve_if_wide_correctness"],
    },
    # ------------------------------------------------------------ activation
    "activation_if_chain": {
        "why": "an if/elif chain on the traced kind raises TracerBoolConversionError under jit",
        "cells": {"activation": (
            "def activation(x, kind):\n"
            "    if kind <= 0:\n"
            "        return x\n"
            "    elif kind == 1:\n"
            "        return jax.nn.relu(x)\n"
            "    elif kind == 2:\n"
            "        return jnp.tanh(x)\n"
            "    return jax.nn.sigmoid(x)\n")},
        "fails": ["activation_jit", "activation_retrace", "activation_structure"],
    },
    "activation_jnp_select": {
        "why": "jnp.select computes all four and selects: right values, jits, but no 4-branch cond",
        "cells": {"activation": (
            "def activation(x, kind):\n"
            "    k = jnp.clip(kind, 0, 3)\n"
            "    return jnp.select([k == 0, k == 1, k == 2],\n"
            "                      [x, jax.nn.relu(x), jnp.tanh(x)], jax.nn.sigmoid(x))\n")},
        "fails": ["activation_structure"],
    },
    "activation_nested_cond": {
        "why": "nested 2-way lax.cond: right values and one compile, but three 2-branch conds",
        "cells": {"activation": (
            "def activation(x, kind):\n"
            "    k = jnp.clip(kind, 0, 3)\n"
            "    low = lambda v: lax.cond(k == 0, lambda u: u, jax.nn.relu, v)\n"
            "    high = lambda v: lax.cond(k == 2, jnp.tanh, jax.nn.sigmoid, v)\n"
            "    return lax.cond(k <= 1, low, high, x)\n")},
        "fails": ["activation_structure"],
    },
    "activation_wraps_around": {
        "why": "kind % 4 wraps instead of clamping: kind = -3 gives relu, not identity",
        "cells": {"activation": (
            "def activation(x, kind):\n"
            "    branches = [lambda v: v, jax.nn.relu, jnp.tanh, jax.nn.sigmoid]\n"
            "    return lax.switch(kind % 4, branches, x)\n")},
        "fails": ["activation_correctness"],
    },
    # ------------------------------------------------------------ ema
    "ema_python_loop": {
        "why": "a Python loop over the rows jits (the length is a shape) but unrolls: no scan, grows with T",
        "cells": {"ema": (
            "def ema(x, alpha):\n"
            "    ys = [x[0]]\n"
            "    for t in range(1, x.shape[0]):\n"
            "        ys.append(alpha * x[t] + (1 - alpha) * ys[-1])\n"
            "    return jnp.stack(ys)\n")},
        "fails": ["ema_structure", "ema_performance"],
    },
    "ema_alpha_check_in_python": {
        "why": "validates alpha with a Python if: fine eagerly, TracerBoolConversionError with alpha traced",
        "cells": {"ema": (
            "def ema(x, alpha):\n"
            "    if not 0.0 <= alpha <= 1.0:\n"
            "        raise ValueError('alpha must lie in [0, 1]')\n"
            "    def step(prev, x_t):\n"
            "        y_t = alpha * x_t + (1 - alpha) * prev\n"
            "        return y_t, y_t\n"
            "    _, rest = lax.scan(step, x[0], x[1:])\n"
            "    return jnp.concatenate([x[:1], rest], axis=0)\n")},
        "fails": ["ema_jit", "ema_structure", "ema_performance"],
    },
    "ema_scan_per_column": {
        "why": "one scan per column in a Python loop: right values, a scan that does not grow with T, but "
               "D sequential loops where one carrying a whole row does the same work in one",
        "cells": {"ema": (
            "def ema(x, alpha):\n"
            "    def one_column(col):\n"
            "        def step(prev, x_t):\n"
            "            y_t = alpha * x_t + (1 - alpha) * prev\n"
            "            return y_t, y_t\n"
            "        _, rest = lax.scan(step, col[0], col[1:])\n"
            "        return jnp.concatenate([col[:1], rest])\n"
            "    if x.ndim == 1:\n"
            "        return one_column(x)\n"
            "    return jnp.stack([one_column(x[:, j]) for j in range(x.shape[1])], axis=1)\n")},
        "fails": ["ema_performance"],
    },
    "ema_zero_start": {
        "why": "starts the average at 0 instead of x[0], so y[0] = alpha * x[0]",
        "cells": {"ema": (
            "def ema(x, alpha):\n"
            "    def step(prev, x_t):\n"
            "        y_t = alpha * x_t + (1 - alpha) * prev\n"
            "        return y_t, y_t\n"
            "    return lax.scan(step, jnp.zeros_like(x[0]), x)[1]\n")},
        "fails": ["ema_correctness"],
    },
    "ema_swapped_weights": {
        "why": "alpha weighs the old average instead of the new sample (invisible at alpha = 0.5)",
        "cells": {"ema": (
            "def ema(x, alpha):\n"
            "    def step(prev, x_t):\n"
            "        y_t = (1 - alpha) * x_t + alpha * prev\n"
            "        return y_t, y_t\n"
            "    _, rest = lax.scan(step, x[0], x[1:])\n"
            "    return jnp.concatenate([x[:1], rest], axis=0)\n")},
        "fails": ["ema_correctness"],
    },
    "ema_iterator_in_fori_loop": {
        "why": "the trap of the iterator demo: next(rows) runs once, while the body is traced, so every "
               "step reuses x[0]; it jits and holds a scan, only the values are wrong",
        "cells": {"ema": (
            "def ema(x, alpha):\n"
            "    rows = iter(x)\n"
            "    def body(t, y):\n"
            "        return y.at[t].set(alpha * next(rows) + (1 - alpha) * y[t - 1])\n"
            "    return lax.fori_loop(1, x.shape[0], body, x)\n")},
        "fails": ["ema_correctness"],
    },
}
