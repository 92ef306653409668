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
        "fails": ["ema_correctness", "ema_performance"],   # timed values differ from the reference
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
        "fails": ["ema_correctness", "ema_performance"],   # timed values differ from the reference
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
        "fails": ["ema_correctness", "ema_performance", "ema_structure"],   # the iterator is state: the traced program differs
    },
    # ------------------------------------------------------------ a required primitive that does no work
    "repeated_square_decorative_primitive": {
        "why": "red team: a closed-form power beside a lax.while_loop whose condition is always False; the while is there but does no work",
        "cells": {"repeated_square": (
            "def repeated_square(x, n):\n"
            "    # decorative loop: the squaring itself is a closed-form power, not repeated multiplication\n"
            "    n = lax.while_loop(lambda c: False, lambda c: c, jnp.asarray(n, jnp.int32))\n"
            "    return jnp.where(n == 0, x, jnp.abs(x) ** (2.0 ** n.astype(jnp.float32)))\n")},
        "fails": ["repeated_square_structure"],
    },
    "newton_sqrt_decorative_primitive": {
        "why": "red team: the Newton iterates in closed form from jnp.sqrt, beside a fori_loop whose body returns its carry",
        "cells": {"newton_sqrt": (
            "def newton_sqrt(a, num_iters):\n"
            "    # closed form of the Newton iterates from jnp.sqrt itself; the fori_loop does nothing\n"
            "    a = lax.fori_loop(0, num_iters, lambda i, c: c, a)\n"
            "    s = jnp.sqrt(a)\n"
            "    r = (s - 1.0) / (s + 1.0)\n"
            "    p = r ** (2 ** num_iters)\n"
            "    return s * (1.0 + p) / (1.0 - p)\n")},
        "fails": ["newton_sqrt_structure"],
    },
    "collatz_steps_decorative_primitive": {
        "why": "red team's form, shortened: 20 unrolled steps (wrong past 20; theirs unrolled 120, whose compile "
               "outlasts the tests' short timeout on a loaded machine) beside a while_loop whose condition is always False",
        "cells": {"collatz_steps": (
            "def collatz_steps(n):\n"
            "    m = lax.while_loop(lambda c: False, lambda c: c, jnp.asarray(n, jnp.int32))\n"
            "    k = jnp.int32(0)\n"
            "    for _ in range(20):\n"
            "        done = m == 1\n"
            "        k = jnp.where(done, k, k + 1)\n"
            "        m = jnp.where(done, m, jnp.where(m % 2 == 0, m // 2, 3 * m + 1))\n"
            "    return k\n")},
        "fails": ["collatz_steps_correctness", "collatz_steps_structure"],
    },
    "halve_if_wide_decorative_primitive": {
        "why": "red team: jnp.where does the choosing; lax.cond(True, id, id) is decoration",
        "cells": {"halve_if_wide": (
            "def halve_if_wide(x):\n"
            "    wide = jnp.abs(jnp.max(x) - jnp.min(x)) > 1.0\n"
            "    x = lax.cond(True, lambda v: v, lambda v: v, x)   # decorative\n"
            "    return jnp.where(wide, x / 2, x)\n")},
        "fails": ["halve_if_wide_structure"],
    },
    "activation_decorative_primitive": {
        "why": "red team: jnp.select does the choosing; lax.switch(0, [id] * 4) is decoration",
        "cells": {"activation": (
            "def activation(x, kind):\n"
            "    k = jnp.clip(kind, 0, 3)\n"
            "    x = lax.switch(0, [lambda v: v] * 4, x)   # decorative 4-branch cond\n"
            "    return jnp.select([k == 0, k == 1, k == 2], [x, jax.nn.relu(x), jnp.tanh(x)], jax.nn.sigmoid(x))\n")},
        "fails": ["activation_structure"],
    },
    "ema_decorative_primitive": {
        "why": "red team: a T x T weight matrix does the averaging; the scan passes x through",
        "cells": {"ema": (
            "def ema(x, alpha):\n"
            "    # closed form through a T x T weight matrix, the scan is decorative\n"
            "    x = lax.scan(lambda c, r: (c, r), 0.0, x)[1]\n"
            "    T = x.shape[0]\n"
            "    t = jnp.arange(T)\n"
            "    d = (t[:, None] - t[None, :]).astype(jnp.float32)\n"
            "    b = jnp.float32(1.0) - alpha\n"
            "    w = jnp.where(d >= 0, alpha * b ** jnp.maximum(d, 0.0), 0.0)\n"
            "    w = w.at[:, 0].set(b ** t.astype(jnp.float32))\n"
            "    y = jnp.tensordot(w, x, axes=1)\n"
            "    return y.astype(x.dtype)\n")},
        "fails": ["ema_structure", "ema_performance"],
    },
}

# Correct answers in other idioms than the reference: each one must pass every graded cell of the
# exercises it touches (issue 26: no correct answer loses a point).
RIGHT = {
    # ------------------------------------------------------------ repeated_square
    "repeated_square_while_counter": {
        "why": "lax.while_loop with an explicit (counter, value) carry: a while with a traced trip count, "
               "the same n multiplications",
        "cells": {"repeated_square": (
            "def repeated_square(x, n):\n"
            "    def not_done(state):\n"
            "        i, _ = state\n"
            "        return i < n\n"
            "\n"
            "    def square(state):\n"
            "        i, y = state\n"
            "        return i + 1, y * y\n"
            "\n"
            "    _, y = lax.while_loop(not_done, square, (0, x))\n"
            "    return y\n")},
    },
    "repeated_square_while_countdown": {
        "why": "counts n down to 0 in a lax.while_loop instead of counting an index up",
        "cells": {"repeated_square": (
            "def repeated_square(x, n):\n"
            "    \"\"\"Square x elementwise n times, counting the remaining squarings down.\"\"\"\n"
            "    remaining, y = lax.while_loop(lambda s: s[0] > 0,\n"
            "                                  lambda s: (s[0] - 1, s[1] * s[1]),\n"
            "                                  (jnp.asarray(n, jnp.int32), x))\n"
            "    return y\n")},
    },
    "repeated_square_fori_named_body": {
        "why": "lax.fori_loop with a named body that ignores the index and calls jnp.square, all "
               "arguments by keyword",
        "cells": {"repeated_square": (
            "def repeated_square(x, n):\n"
            "    # the loop index is not needed: every pass does the same thing\n"
            "    def body(_, y):\n"
            "        return jnp.square(y)\n"
            "\n"
            "    return lax.fori_loop(lower=0, upper=n, body_fun=body, init_val=x)\n")},
    },
    "repeated_square_jit_decorated": {
        "why": "jits itself with no static arguments, so n stays traced and one program serves every n; "
               "the power is written y ** 2 (integer_pow, the same product)",
        "cells": {"repeated_square": (
            "@jax.jit\n"
            "def repeated_square(x, n):\n"
            "    return lax.fori_loop(0, n, lambda i, y: y ** 2, x)\n")},
    },
    "repeated_square_dict_state": {
        "why": "a lax.while_loop whose state is a dict pytree, the counter kept as int32 with jnp.int32",
        "cells": {"repeated_square": (
            "def repeated_square(x, n):\n"
            "    state = {'done': jnp.int32(0), 'value': jnp.asarray(x)}\n"
            "\n"
            "    def step(s):\n"
            "        return {'done': s['done'] + 1, 'value': s['value'] * s['value']}\n"
            "\n"
            "    return lax.while_loop(lambda s: s['done'] < n, step, state)['value']\n")},
    },
    # ------------------------------------------------------------ newton_sqrt
    "newton_sqrt_named_body_keywords": {
        "why": "the Newton step as a named helper inside the cell, fori_loop called with keywords, and "
               "the average written (y + a / y) / 2 (halving is exact either way)",
        "cells": {"newton_sqrt": (
            "def newton_sqrt(a, num_iters):\n"
            "    def newton_step(i, y):\n"
            "        \"\"\"One Newton step for y ** 2 = a.\"\"\"\n"
            "        return (y + a / y) / 2\n"
            "\n"
            "    return lax.fori_loop(lower=0, upper=num_iters, body_fun=newton_step, init_val=a)\n")},
    },
    "newton_sqrt_carry_pair": {
        "why": "carries the pair (a, y) through the loop instead of closing over a",
        "cells": {"newton_sqrt": (
            "def newton_sqrt(a, num_iters):\n"
            "    def body(i, carry):\n"
            "        target, y = carry\n"
            "        return target, 0.5 * (y + target / y)\n"
            "\n"
            "    _, y = lax.fori_loop(0, num_iters, body, (a, a))\n"
            "    return y\n")},
    },
    "newton_sqrt_update_form": {
        "why": "Newton's update written as y - f(y) / f'(y) with f(y) = y * y - a: the same iteration, "
               "another order of float operations",
        "cells": {"newton_sqrt": (
            "def newton_sqrt(a, num_iters):\n"
            "    def body(i, y):\n"
            "        return y - (y * y - a) / (2.0 * y)\n"
            "    return lax.fori_loop(0, num_iters, body, a)\n")},
    },
    "newton_sqrt_jit_static_argnames": {
        "why": "jits itself with num_iters static by name, as the exercise intends; the loop is a fori_loop",
        "cells": {"newton_sqrt": (
            "@partial(jax.jit, static_argnames='num_iters')\n"
            "def newton_sqrt(a, num_iters):\n"
            "    return lax.fori_loop(0, num_iters, lambda i, y: 0.5 * (y + a / y), a)\n")},
    },
    "newton_sqrt_jnp_functions": {
        "why": "converts a with jnp.asarray and spells the step with jnp.multiply/jnp.add/jnp.divide",
        "cells": {"newton_sqrt": (
            "def newton_sqrt(a, num_iters):\n"
            "    a = jnp.asarray(a, dtype=jnp.float32)\n"
            "    step = lambda i, y: jnp.multiply(0.5, jnp.add(y, jnp.divide(a, y)))\n"
            "    return lax.fori_loop(0, num_iters, step, a)\n")},
    },
    # ------------------------------------------------------------ collatz_steps
    "collatz_steps_cond_in_body": {
        "why": "chooses between m // 2 and 3m + 1 with lax.cond inside the while body instead of jnp.where",
        "cells": {"collatz_steps": (
            "def collatz_steps(n):\n"
            "    def body(state):\n"
            "        m, steps = state\n"
            "        m = lax.cond(m % 2 == 0, lambda v: v // 2, lambda v: 3 * v + 1, m)\n"
            "        return m, steps + 1\n"
            "\n"
            "    init = (jnp.asarray(n, jnp.int32), jnp.int32(0))\n"
            "    return lax.while_loop(lambda s: s[0] != 1, body, init)[1]\n")},
    },
    "collatz_steps_arithmetic_mask": {
        "why": "an arithmetic mask (odd = m % 2) blends the two successors; the loop stops when m > 1 fails",
        "cells": {"collatz_steps": (
            "def collatz_steps(n):\n"
            "    def body(state):\n"
            "        m, steps = state\n"
            "        odd = m % 2\n"
            "        m = odd * (3 * m + 1) + (1 - odd) * (m // 2)\n"
            "        return m, steps + 1\n"
            "\n"
            "    _, steps = lax.while_loop(lambda s: s[0] > 1, body, (jnp.int32(n), jnp.int32(0)))\n"
            "    return steps\n")},
    },
    "collatz_steps_bit_ops_select": {
        "why": "parity from a bitwise and, halving by a right shift, lax.select to choose",
        "cells": {"collatz_steps": (
            "def collatz_steps(n):\n"
            "    def cond_fun(state):\n"
            "        return state[0] != 1\n"
            "\n"
            "    def body_fun(state):\n"
            "        m, steps = state\n"
            "        is_odd = (m & 1) == 1\n"
            "        return lax.select(is_odd, 3 * m + 1, m >> 1), steps + 1\n"
            "\n"
            "    start = lax.convert_element_type(n, jnp.int32)\n"
            "    return lax.while_loop(cond_fun, body_fun, (start, jnp.zeros((), jnp.int32)))[1]\n")},
    },
    "collatz_steps_dict_state_jitted": {
        "why": "jits itself (n traced) and keeps the loop state in a dict pytree",
        "cells": {"collatz_steps": (
            "@jax.jit\n"
            "def collatz_steps(n):\n"
            "    \"\"\"Collatz steps from n to 1, as int32.\"\"\"\n"
            "    def step(s):\n"
            "        m = s['m']\n"
            "        return {'m': jnp.where(m % 2 == 0, m // 2, 3 * m + 1), 'count': s['count'] + 1}\n"
            "\n"
            "    out = lax.while_loop(lambda s: s['m'] != 1, step,\n"
            "                         {'m': jnp.asarray(n, jnp.int32), 'count': jnp.int32(0)})\n"
            "    return out['count']\n")},
    },
    "collatz_steps_helper_functions": {
        "why": "the Collatz map as a helper function using jnp.floor_divide / jnp.remainder, and an "
               "int32 counter cast at the end",
        "cells": {"collatz_steps": (
            "def collatz_next(m):\n"
            "    even = jnp.remainder(m, 2) == 0\n"
            "    return jnp.where(even, jnp.floor_divide(m, 2), 3 * m + 1)\n"
            "\n"
            "\n"
            "def collatz_steps(n):\n"
            "    def keep_going(state):\n"
            "        return state[0] != 1\n"
            "\n"
            "    def advance(state):\n"
            "        return collatz_next(state[0]), state[1] + 1\n"
            "\n"
            "    _, count = lax.while_loop(keep_going, advance, (jnp.asarray(n, dtype=jnp.int32), 0))\n"
            "    return count.astype(jnp.int32)\n")},
    },
    # ------------------------------------------------------------ halve_if_wide
    "halve_if_wide_ptp_multiply": {
        "why": "the spread as jnp.ptp (max - min is never negative) and halving as x * 0.5 (exact)",
        "cells": {"halve_if_wide": (
            "def halve_if_wide(x):\n"
            "    return lax.cond(jnp.ptp(x) > 1.0, lambda v: v * 0.5, lambda v: v, x)\n")},
    },
    "halve_if_wide_no_operands": {
        "why": "branches without operands that close over x: lax.cond(pred, lambda: x / 2, lambda: x)",
        "cells": {"halve_if_wide": (
            "def halve_if_wide(x):\n"
            "    spread = jnp.abs(x.max() - x.min())\n"
            "    return lax.cond(spread > 1.0, lambda: x / 2, lambda: x)\n")},
    },
    "halve_if_wide_negated_predicate": {
        "why": "negates the test with jnp.logical_not (not <=, which would differ on nan) and swaps "
               "the branches",
        "cells": {"halve_if_wide": (
            "def halve_if_wide(x):\n"
            "    def keep(v):\n"
            "        return v\n"
            "\n"
            "    def halve(v):\n"
            "        return v / 2\n"
            "\n"
            "    narrow = jnp.logical_not(jnp.abs(jnp.max(x) - jnp.min(x)) > 1.0)\n"
            "    return lax.cond(narrow, keep, halve, x)\n")},
    },
    "halve_if_wide_jitted_greater": {
        "why": "jits itself, takes the comparison with jnp.greater and divides with jnp.true_divide",
        "cells": {"halve_if_wide": (
            "@jax.jit\n"
            "def halve_if_wide(x):\n"
            "    \"\"\"Halve x when its values spread over more than 1.\"\"\"\n"
            "    wide = jnp.greater(jnp.abs(jnp.max(x) - jnp.min(x)), 1.0)\n"
            "    return lax.cond(wide, lambda v: jnp.true_divide(v, 2.0), lambda v: v, x)\n")},
    },
    "halve_if_wide_flattened": {
        "why": "takes the extremes of the flattened array (jnp.ravel) and compares hi - lo without abs, "
               "since max - min is never negative",
        "cells": {"halve_if_wide": (
            "def halve_if_wide(x):\n"
            "    flat = jnp.ravel(x)\n"
            "    lo, hi = jnp.min(flat), jnp.max(flat)\n"
            "    return lax.cond(hi - lo > 1.0, lambda v: v / 2.0, lambda v: v, x)\n")},
    },
    # ------------------------------------------------------------ activation
    "activation_switch_clamps_itself": {
        "why": "relies on lax.switch clamping an out-of-range index to 0 or 3 itself (documented)",
        "cells": {"activation": (
            "def activation(x, kind):\n"
            "    return lax.switch(kind, [lambda v: v, jax.nn.relu, jnp.tanh, jax.nn.sigmoid], x)\n")},
    },
    "activation_named_branches": {
        "why": "named branch functions written by hand (relu by jnp.maximum, sigmoid by 1 / (1 + exp(-v))) "
               "and the clamp by jnp.minimum/jnp.maximum",
        "cells": {"activation": (
            "def activation(x, kind):\n"
            "    def identity(v):\n"
            "        return v\n"
            "\n"
            "    def relu(v):\n"
            "        return jnp.maximum(v, 0.0)\n"
            "\n"
            "    def tanh(v):\n"
            "        return jnp.tanh(v)\n"
            "\n"
            "    def sigmoid(v):\n"
            "        return 1.0 / (1.0 + jnp.exp(-v))\n"
            "\n"
            "    index = jnp.minimum(jnp.maximum(kind, 0), 3)\n"
            "    return lax.switch(index, (identity, relu, tanh, sigmoid), x)\n")},
    },
    "activation_lax_clamp": {
        "why": "clamps with lax.clamp(0, kind, 3) and keeps the branches in a module-level tuple",
        "cells": {"activation": (
            "ACTIVATIONS = (lambda v: v, jax.nn.relu, jnp.tanh, jax.nn.sigmoid)\n"
            "\n"
            "\n"
            "def activation(x, kind):\n"
            "    return lax.switch(lax.clamp(0, kind, 3), ACTIVATIONS, x)\n")},
    },
    "activation_jitted_dict": {
        "why": "jits itself with kind traced; the branches come from a dict keyed by kind, listed in order",
        "cells": {"activation": (
            "_BY_KIND = {0: lambda v: v, 1: jax.nn.relu, 2: jnp.tanh, 3: jax.nn.sigmoid}\n"
            "\n"
            "\n"
            "@jax.jit\n"
            "def activation(x, kind):\n"
            "    \"\"\"identity / relu / tanh / sigmoid by kind, one compiled program for all kinds.\"\"\"\n"
            "    branches = [_BY_KIND[k] for k in range(4)]\n"
            "    return lax.switch(jnp.clip(jnp.asarray(kind, jnp.int32), 0, 3), branches, x)\n")},
    },
    "activation_where_inside_branches": {
        "why": "relu as jnp.where(v > 0, v, 0) and sigmoid via tanh (sigmoid(v) = (1 + tanh(v / 2)) / 2), "
               "inside a 4-way lax.switch",
        "cells": {"activation": (
            "def activation(x, kind):\n"
            "    branches = [\n"
            "        lambda v: v,\n"
            "        lambda v: jnp.where(v > 0, v, jnp.zeros_like(v)),\n"
            "        jnp.tanh,\n"
            "        lambda v: 0.5 * (1.0 + jnp.tanh(0.5 * v)),\n"
            "    ]\n"
            "    return lax.switch(jnp.clip(kind, min=0, max=3), branches, x)\n")},
    },
    # ------------------------------------------------------------ ema
    "ema_scan_whole_sequence": {
        "why": "scans over all of x from carry x[0]: step 0 gives alpha * x0 + (1 - alpha) * x0 = x0 "
               "(to rounding), so no concatenation is needed",
        "cells": {"ema": (
            "def ema(x, alpha):\n"
            "    def step(prev, x_t):\n"
            "        y_t = alpha * x_t + (1 - alpha) * prev\n"
            "        return y_t, y_t\n"
            "\n"
            "    _, ys = lax.scan(step, x[0], x)\n"
            "    return ys\n")},
    },
    "ema_increment_form": {
        "why": "the update written prev + alpha * (x_t - prev): the same average, another order of "
               "float operations; the first row is put back with .at[0].set",
        "cells": {"ema": (
            "def ema(x, alpha):\n"
            "    def step(prev, x_t):\n"
            "        new = prev + alpha * (x_t - prev)\n"
            "        return new, new\n"
            "\n"
            "    _, ys = lax.scan(step, x[0], x)\n"
            "    return ys.at[0].set(x[0])\n")},
    },
    "ema_scan_over_indices": {
        "why": "scans over the time indices 1..T-1 and reads x[t] inside the step (a traced index)",
        "cells": {"ema": (
            "def ema(x, alpha):\n"
            "    def step(prev, t):\n"
            "        y_t = alpha * x[t] + (1.0 - alpha) * prev\n"
            "        return y_t, y_t\n"
            "\n"
            "    _, rest = lax.scan(step, x[0], jnp.arange(1, x.shape[0]))\n"
            "    return jnp.concatenate([x[None, 0], rest])\n")},
    },
    "ema_scan_unrolled_body": {
        "why": "lax.scan with unroll=8: still one scan in the jaxpr (unrolling happens in the compiler); "
               "the result is stacked with jnp.vstack / jnp.hstack",
        "cells": {"ema": (
            "def ema(x, alpha):\n"
            "    beta = 1.0 - alpha\n"
            "\n"
            "    def step(prev, x_t):\n"
            "        y_t = alpha * x_t + beta * prev\n"
            "        return y_t, y_t\n"
            "\n"
            "    _, rest = lax.scan(step, x[0], x[1:], unroll=8)\n"
            "    stack = jnp.vstack if x.ndim > 1 else jnp.hstack\n"
            "    return stack([x[:1], rest])\n")},
    },
    "ema_jitted_emits_pair": {
        "why": "jits itself (alpha traced) and emits (x_t, y_t) pairs from the scan, keeping only y",
        "cells": {"ema": (
            "@jax.jit\n"
            "def ema(x, alpha):\n"
            "    def step(prev, x_t):\n"
            "        y_t = jnp.add(jnp.multiply(alpha, x_t), jnp.multiply(1 - alpha, prev))\n"
            "        return y_t, (x_t, y_t)\n"
            "\n"
            "    _, (_, rest) = lax.scan(step, x[0], x[1:])\n"
            "    return jnp.concatenate([jnp.expand_dims(x[0], 0), rest])\n")},
    },
}
