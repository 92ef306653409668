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
        "fails": ["shifted_correctness", "shifted_jit", "shifted_retrace"],   # traced, it leaks the shift it read
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
        "fails": ["random_walk_correctness", "random_walk_jit", "random_walk_retrace"],   # traced, a constant walk
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

# Correct answers in other idioms than the reference: each one must pass every graded cell of the
# exercises it touches (issue 26: no correct answer loses a point).
RIGHT = {
    # ------------------------------------------------------------ debug_mean
    "debug_mean_positional_placeholder": {
        "why": "x.mean() as a method and jax.debug.print with a positional {} placeholder",
        "cells": {"debug_mean": (
            "def debug_mean(x):\n"
            "    m = x.mean()\n"
            "    jax.debug.print('mean={}', m)\n"
            "    return m\n")},
    },
    "debug_mean_ordered_print": {
        "why": "jax.debug.print with ordered=True (the line keeps its place among other effects)",
        "cells": {"debug_mean": (
            "def debug_mean(x):\n"
            "    \"\"\"Mean of every entry, printed on each call (compiled or not).\"\"\"\n"
            "    mean = jnp.mean(x)\n"
            "    jax.debug.print(\"mean={mean}\", mean=mean, ordered=True)\n"
            "    return mean\n")},
    },
    "debug_mean_callback": {
        "why": "jax.debug.callback with a Python print of the runtime (NumPy) value: also part of the "
               "compiled program, so it runs on every call and prints the same text",
        "cells": {"debug_mean": (
            "def _report(value):\n"
            "    print(f'mean={value}')\n"
            "\n"
            "\n"
            "def debug_mean(x):\n"
            "    m = jnp.mean(x)\n"
            "    jax.debug.callback(_report, m)\n"
            "    return m\n")},
    },
    "debug_mean_sum_over_size": {
        "why": "the mean as jnp.sum(x) / x.size (the size is static), printed from the returned value",
        "cells": {"debug_mean": (
            "def debug_mean(x):\n"
            "    total = jnp.sum(x)\n"
            "    m = total / x.size\n"
            "    jax.debug.print('mean={m}', m=m)\n"
            "    return m\n")},
    },
    "debug_mean_jitted": {
        "why": "jits itself: every call, the first included, runs the compiled program, whose "
               "debug_print prints each time",
        "cells": {"debug_mean": (
            "@jax.jit\n"
            "def debug_mean(x):\n"
            "    m = jnp.mean(jnp.ravel(x))\n"
            "    jax.debug.print('mean={m}', m=m)\n"
            "    return m\n")},
    },
    # ------------------------------------------------------------ shifted
    "shifted_jnp_add": {
        "why": "jnp.add(x, shift): the same sum spelled as a function call",
        "cells": {"shifted": (
            "def shifted(x, shift):\n"
            "    return jnp.add(x, shift)\n")},
    },
    "shifted_jitted": {
        "why": "jits itself with shift traced (no static arguments): one compile for every shift",
        "cells": {"shifted": (
            "@jax.jit\n"
            "def shifted(x, shift):\n"
            "    \"\"\"x + shift, pure: everything it reads is an argument.\"\"\"\n"
            "    return x + shift\n")},
    },
    "shifted_lax_add": {
        "why": "lax.add, with shift added on the left (addition commutes exactly in floating point)",
        "cells": {"shifted": (
            "def shifted(x, shift):\n"
            "    return lax.add(shift, x)\n")},
    },
    "shifted_cast_to_x_dtype": {
        "why": "converts shift to x's dtype explicitly before adding",
        "cells": {"shifted": (
            "def shifted(x, shift):\n"
            "    x = jnp.asarray(x)\n"
            "    return x + jnp.asarray(shift, dtype=x.dtype)\n")},
    },
    "shifted_full_like": {
        "why": "builds the shift as a full array (jnp.full_like accepts a traced fill value) and adds",
        "cells": {"shifted": (
            "def shifted(x, shift):\n"
            "    return x + jnp.full_like(x, shift)\n")},
    },
    # ------------------------------------------------------------ random_walk
    "random_walk_scan_position": {
        "why": "a lax.scan over the keys that carries the position and emits it after each step",
        "cells": {"random_walk": (
            "def random_walk(key, num_steps):\n"
            "    keys = jax.random.split(key, num_steps)\n"
            "\n"
            "    def step(position, k):\n"
            "        position = position + jnp.where(jax.random.bernoulli(k), 1, -1)\n"
            "        return position, position\n"
            "\n"
            "    _, positions = lax.scan(step, jnp.int32(0), keys)\n"
            "    return positions\n")},
    },
    "random_walk_arithmetic_steps": {
        "why": "steps as 2 * coin - 1 (an arithmetic mask instead of jnp.where), cumsum with dtype=int32",
        "cells": {"random_walk": (
            "def random_walk(key, num_steps):\n"
            "    keys = jax.random.split(key, num_steps)\n"
            "    coins = jax.vmap(jax.random.bernoulli)(keys).astype(jnp.int32)\n"
            "    return jnp.cumsum(2 * coins - 1, dtype=jnp.int32)\n")},
    },
    "random_walk_python_list_of_coins": {
        "why": "a Python loop over the static num_steps draws one coin per key, then jnp.stack, "
               "lax.select and jnp.cumsum",
        "cells": {"random_walk": (
            "def random_walk(key, num_steps):\n"
            "    keys = jax.random.split(key, num_steps)\n"
            "    up = jnp.stack([jax.random.bernoulli(keys[t]) for t in range(num_steps)])\n"
            "    ones = jnp.ones(num_steps, jnp.int32)\n"
            "    return jnp.cumsum(lax.select(up, ones, -ones))\n")},
    },
    "random_walk_jitted_explicit_p": {
        "why": "jits itself with num_steps static, passes p=0.5 explicitly and uses lax.cumsum",
        "cells": {"random_walk": (
            "@partial(jax.jit, static_argnums=1)\n"
            "def random_walk(key, num_steps):\n"
            "    keys = jax.random.split(key, num_steps)\n"
            "    up = jax.vmap(lambda k: jax.random.bernoulli(k, p=0.5))(keys)\n"
            "    steps = jnp.where(up, jnp.int32(1), jnp.int32(-1))\n"
            "    return lax.cumsum(steps, axis=0)\n")},
    },
    "random_walk_scan_steps_then_cumsum": {
        "why": "a carry-free lax.scan turns each key into its step (+1 / -1), jnp.cumsum sums them",
        "cells": {"random_walk": (
            "def random_walk(key, num_steps):\n"
            "    \"\"\"int32 positions after each step of a +/-1 walk, one coin per split key.\"\"\"\n"
            "    keys = jax.random.split(key, num_steps)   # given: the convention, one key per step\n"
            "\n"
            "    def coin_to_step(carry, k):\n"
            "        return carry, jnp.where(jax.random.bernoulli(k), 1, -1).astype(jnp.int32)\n"
            "\n"
            "    _, steps = lax.scan(coin_to_step, None, keys)\n"
            "    return jnp.cumsum(steps)\n")},
    },
}
