"""Known-wrong submissions for 06_tracing_and_purity and the graded cells each one must fail.

`cells` maps an exercise id to the full replacement source of its solution cell; `fails` is the
exact set of graded test cells that must fail (every other graded cell still passes).
"""

CASES = {
    # ------------------------------------------------------------ debug_mean
    "debug_mean_python_print": {
        "why": "Python print runs while tracing only: right eagerly, one line for three jitted calls",
        "cells": {"debug_mean": (
            "def debug_mean(x):\n"
            "    m = jnp.mean(x)\n"
            "    print(f'mean={m}')\n"
            "    return m\n")},
        "fails": ["debug_mean_jit_2"],
    },
    "debug_mean_fstring_debug_print": {
        "why": "jax.debug.print of an f-string: the text is made at trace time, so every jitted call "
               "prints the same line about a tracer instead of the value",
        "cells": {"debug_mean": (
            "def debug_mean(x):\n"
            "    m = jnp.mean(x)\n"
            "    jax.debug.print(f'mean={m}')\n"
            "    return m\n")},
        "fails": ["debug_mean_jit_2"],
    },
    "debug_mean_print_float": {
        "why": "print(float(m)) needs a concrete value: ConcretizationTypeError under jit",
        "cells": {"debug_mean": (
            "def debug_mean(x):\n"
            "    m = jnp.mean(x)\n"
            "    print(f'mean={float(m)}')\n"
            "    return m\n")},
        "fails": ["debug_mean_jit", "debug_mean_jit_2"],
    },
    "debug_mean_axis0": {
        "why": "mean over axis 0 only: right for 1-D input, a vector for 2-D input",
        "cells": {"debug_mean": (
            "def debug_mean(x):\n"
            "    m = jnp.mean(x, axis=0)\n"
            "    jax.debug.print('mean={m}', m=m)\n"
            "    return m\n")},
        "fails": ["debug_mean_correctness"],
    },
    "debug_mean_no_print": {
        "why": "returns the mean but prints nothing",
        "cells": {"debug_mean": (
            "def debug_mean(x):\n"
            "    return jnp.mean(x)\n")},
        "fails": ["debug_mean_correctness", "debug_mean_jit_2"],
    },
    # ------------------------------------------------------------ shifted
    "shifted_reads_global": {
        "why": "still reads a module-level SHIFT instead of the argument",
        "cells": {"shifted": (
            "SHIFT = 0.5\n"
            "\n"
            "def shifted(x, shift):\n"
            "    return x + SHIFT\n")},
        "fails": ["shifted_correctness"],
    },
    "shifted_stale_global_jit": {
        "why": "stores shift in a global that a jitted helper reads: the helper keeps the value of its "
               "first trace, so the second shift gives the first shift's answer",
        "cells": {"shifted": (
            "current_shift = 0.0\n"
            "\n"
            "@jax.jit\n"
            "def _add_current_shift(x):\n"
            "    return x + current_shift\n"
            "\n"
            "def shifted(x, shift):\n"
            "    global current_shift\n"
            "    current_shift = shift\n"
            "    return _add_current_shift(x)\n")},
        "fails": ["shifted_correctness"],
    },
    "shifted_static_shift": {
        "why": "jits itself with shift static: right values for Python floats, but every shift "
               "recompiles and an array shift is not hashable",
        "cells": {"shifted": (
            "@partial(jax.jit, static_argnums=1)\n"
            "def shifted(x, shift):\n"
            "    return x + shift\n")},
        "fails": ["shifted_jit", "shifted_retrace"],
    },
    "shifted_wrong_sign": {
        "why": "subtracts the shift",
        "cells": {"shifted": (
            "def shifted(x, shift):\n"
            "    return x - shift\n")},
        "fails": ["shifted_correctness"],
    },
    # ------------------------------------------------------------ random_walk
    "random_walk_numpy_rng": {
        "why": "draws the steps from NumPy's global generator: not a function of the key (and a "
               "constant under jit)",
        "cells": {"random_walk": (
            "def random_walk(key, num_steps):\n"
            "    steps = np.random.choice([-1, 1], size=num_steps)\n"
            "    return jnp.cumsum(jnp.asarray(steps, dtype=jnp.int32))\n")},
        "fails": ["random_walk_correctness"],
        "varies_between_runs": True,
    },
    "random_walk_python_if": {
        "why": "a Python if on each coin: right values eagerly, TracerBoolConversionError under jit",
        "cells": {"random_walk": (
            "def random_walk(key, num_steps):\n"
            "    positions, pos = [], 0\n"
            "    for k in jax.random.split(key, num_steps):\n"
            "        if jax.random.bernoulli(k):\n"
            "            pos = pos + 1\n"
            "        else:\n"
            "            pos = pos - 1\n"
            "        positions.append(pos)\n"
            "    return jnp.array(positions, dtype=jnp.int32)\n")},
        "fails": ["random_walk_jit", "random_walk_retrace"],
    },
    "random_walk_one_draw": {
        "why": "one bernoulli call of shape (num_steps,) from the key: a valid walk, but not the convention",
        "cells": {"random_walk": (
            "def random_walk(key, num_steps):\n"
            "    up = jax.random.bernoulli(key, shape=(num_steps,))\n"
            "    return jnp.cumsum(jnp.where(up, 1, -1)).astype(jnp.int32)\n")},
        "fails": ["random_walk_correctness"],
    },
    "random_walk_starts_at_zero": {
        "why": "returns the positions before each step (starting with 0) instead of after",
        "cells": {"random_walk": (
            "def random_walk(key, num_steps):\n"
            "    up = jax.vmap(jax.random.bernoulli)(jax.random.split(key, num_steps))\n"
            "    steps = jnp.where(up, 1, -1).astype(jnp.int32)\n"
            "    return jnp.concatenate([jnp.zeros(1, jnp.int32), jnp.cumsum(steps)[:-1]])\n")},
        "fails": ["random_walk_correctness"],
    },
    "random_walk_float_positions": {
        "why": "float steps (+1.0 / -1.0): right numbers, but float32 instead of int32",
        "cells": {"random_walk": (
            "def random_walk(key, num_steps):\n"
            "    up = jax.vmap(jax.random.bernoulli)(jax.random.split(key, num_steps))\n"
            "    return jnp.cumsum(jnp.where(up, 1.0, -1.0))\n")},
        "fails": ["random_walk_correctness"],
    },
}
