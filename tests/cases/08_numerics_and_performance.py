"""Known-wrong submissions for 08_numerics_and_performance and the graded cells each one must fail.

`cells` maps an exercise id to the full replacement source of its solution cell; `fails` is the
exact set of graded test cells that must fail (every other graded cell still passes).
"""

_CLIP_FWD = (
    "def _clip_grad_fwd(x, max_norm):\n"
    "    return x, max_norm\n"
)

CASES = {
    # ------------------------------------------------------------ safe_norm
    "safe_norm_single_where": {
        "why": "one jnp.where guards the value only: the unpicked sqrt(0) still has derivative inf, "
               "and 0 * inf = nan in the gradient at 0",
        "cells": {"safe_norm": (
            "def safe_norm(x):\n"
            "    sq = jnp.sum(x * x)\n"
            "    return jnp.where(sq > 0, jnp.sqrt(sq), 0.0)\n")},
        "fails": ["safe_norm_correctness_2"],
    },
    "safe_norm_linalg_norm": {
        "why": "jnp.linalg.norm has the textbook nan gradient at the zero vector",
        "cells": {"safe_norm": (
            "def safe_norm(x):\n"
            "    return jnp.linalg.norm(x.ravel())\n")},
        "fails": ["safe_norm_correctness_2"],
    },
    "safe_norm_epsilon": {
        "why": "sqrt(sum + 1e-12): finite gradient, but the value at 0 is 1e-6 and tiny inputs get a "
               "wrong gradient",
        "cells": {"safe_norm": (
            "def safe_norm(x):\n"
            "    return jnp.sqrt(jnp.sum(x * x) + 1e-12)\n")},
        "fails": ["safe_norm_correctness", "safe_norm_correctness_2"],
    },
    "safe_norm_python_if": {
        "why": "a Python if on the sum works eagerly (gradient included), but raises "
               "TracerBoolConversionError under jit",
        "cells": {"safe_norm": (
            "def safe_norm(x):\n"
            "    sq = jnp.sum(x * x)\n"
            "    if sq == 0:\n"
            "        return jnp.float32(0.0)\n"
            "    return jnp.sqrt(sq)\n")},
        "fails": ["safe_norm_jit", "safe_norm_retrace"],
    },
    "safe_norm_custom_jvp_unguarded": {
        "why": "a custom_jvp whose rule divides by the norm without a guard: nan at 0 again",
        "cells": {"safe_norm": (
            "@jax.custom_jvp\n"
            "def safe_norm(x):\n"
            "    return jnp.sqrt(jnp.sum(x * x))\n"
            "\n"
            "@safe_norm.defjvp\n"
            "def _safe_norm_jvp(primals, tangents):\n"
            "    (x,), (t,) = primals, tangents\n"
            "    n = safe_norm(x)\n"
            "    return n, jnp.sum(x / n * t)\n")},
        "fails": ["safe_norm_correctness_2"],
    },
    # ------------------------------------------------------------ clip_grad
    "clip_grad_forgets_max_norm_cotangent": {
        "why": "bwd returns a 1-tuple: no cotangent for max_norm, which JAX rejects when differentiating",
        "cells": {"clip_grad": (
            "@jax.custom_vjp\n"
            "def clip_grad(x, max_norm):\n"
            "    return x\n"
            "\n" + _CLIP_FWD + "\n"
            "def _clip_grad_bwd(max_norm, g):\n"
            "    norm = jnp.sqrt(jnp.sum(g * g))\n"
            "    return (g * jnp.minimum(1.0, max_norm / jnp.where(norm > 0, norm, 1.0)),)\n"
            "\n"
            "clip_grad.defvjp(_clip_grad_fwd, _clip_grad_bwd)\n")},
        "fails": ["clip_grad_correctness_2", "clip_grad_jit"],
    },
    "clip_grad_clips_the_primal": {
        "why": "no custom_vjp: clips x itself in the forward pass, so the value changes and the gradient "
               "is the derivative of the clipping, not a clipped cotangent",
        "cells": {"clip_grad": (
            "def clip_grad(x, max_norm):\n"
            "    norm = jnp.sqrt(jnp.sum(x * x))\n"
            "    return x * jnp.minimum(1.0, max_norm / jnp.where(norm > 0, norm, 1.0))\n")},
        "fails": ["clip_grad_correctness", "clip_grad_correctness_2"],
    },
    "clip_grad_nondiff_max_norm": {
        "why": "max_norm in nondiff_argnums: fine for a concrete max_norm, but JAX rejects a traced one "
               "(under jit, or when differentiating with respect to it)",
        "cells": {"clip_grad": (
            "@partial(jax.custom_vjp, nondiff_argnums=(1,))\n"
            "def clip_grad(x, max_norm):\n"
            "    return x\n"
            "\n"
            "def _clip_grad_fwd(x, max_norm):\n"
            "    return x, None\n"
            "\n"
            "def _clip_grad_bwd(max_norm, residuals, g):\n"
            "    norm = jnp.sqrt(jnp.sum(g * g))\n"
            "    return (g * jnp.minimum(1.0, max_norm / jnp.where(norm > 0, norm, 1.0)),)\n"
            "\n"
            "clip_grad.defvjp(_clip_grad_fwd, _clip_grad_bwd)\n")},
        "fails": ["clip_grad_correctness_2", "clip_grad_jit", "clip_grad_retrace"],
    },
    "clip_grad_elementwise_clip": {
        "why": "clips each entry of g to [-max_norm, max_norm] instead of scaling the whole vector: "
               "changes the gradient's direction",
        "cells": {"clip_grad": (
            "@jax.custom_vjp\n"
            "def clip_grad(x, max_norm):\n"
            "    return x\n"
            "\n" + _CLIP_FWD + "\n"
            "def _clip_grad_bwd(max_norm, g):\n"
            "    return jnp.clip(g, -max_norm, max_norm), jnp.zeros_like(max_norm)\n"
            "\n"
            "clip_grad.defvjp(_clip_grad_fwd, _clip_grad_bwd)\n")},
        "fails": ["clip_grad_correctness_2"],
    },
    "clip_grad_python_if_in_bwd": {
        "why": "a Python if on the norm in bwd: right eagerly, TracerBoolConversionError once the "
               "gradient is jitted",
        "cells": {"clip_grad": (
            "@jax.custom_vjp\n"
            "def clip_grad(x, max_norm):\n"
            "    return x\n"
            "\n" + _CLIP_FWD + "\n"
            "def _clip_grad_bwd(max_norm, g):\n"
            "    norm = jnp.sqrt(jnp.sum(g * g))\n"
            "    if norm > max_norm:\n"
            "        g = g * (max_norm / norm)\n"
            "    return g, jnp.zeros_like(max_norm)\n"
            "\n"
            "clip_grad.defvjp(_clip_grad_fwd, _clip_grad_bwd)\n")},
        "fails": ["clip_grad_jit"],
    },
    # ------------------------------------------------------------ pairwise_sq_dists
    "pairwise_sq_dists_broadcast": {
        "why": "the (n, m, d) broadcast: right values, an n*m*d intermediate, several times slower",
        "cells": {"pairwise_sq_dists": (
            "def pairwise_sq_dists(x, y):\n"
            "    return jnp.sum((x[:, None, :] - y[None, :, :]) ** 2, axis=-1)\n")},
        "fails": ["pairwise_sq_dists_structure", "pairwise_sq_dists_performance"],
    },
    "pairwise_sq_dists_not_clamped": {
        "why": "the expanded formula without the clamp: float32 cancellation leaves negative distances",
        "cells": {"pairwise_sq_dists": (
            "def pairwise_sq_dists(x, y):\n"
            "    return jnp.sum(x * x, 1)[:, None] + jnp.sum(y * y, 1)[None, :] - 2.0 * (x @ y.T)\n")},
        "fails": ["pairwise_sq_dists_correctness"],
    },
    "pairwise_sq_dists_row_loop": {
        "why": "lax.map over the rows of x: no large intermediate, but a sequential loop of small steps "
               "that runs many times slower than one matrix product",
        "cells": {"pairwise_sq_dists": (
            "def pairwise_sq_dists(x, y):\n"
            "    return lax.map(lambda xi: jnp.sum((y - xi) ** 2, axis=-1), x)\n")},
        "fails": ["pairwise_sq_dists_performance"],
    },
    "pairwise_sq_dists_transposed": {
        "why": "y @ x.T: the (m, n) matrix of the same distances, transposed",
        "cells": {"pairwise_sq_dists": (
            "def pairwise_sq_dists(x, y):\n"
            "    d = jnp.sum(x * x, 1)[None, :] + jnp.sum(y * y, 1)[:, None] - 2.0 * (y @ x.T)\n"
            "    return jnp.maximum(d, 0.0)\n")},
        "fails": ["pairwise_sq_dists_correctness"],
    },
    # ------------------------------------------------------------ stable_logsumexp
    "stable_logsumexp_naive": {
        "why": "log(sum(exp(x))) as it reads: inf for x near 1000 (bfloat16 near 9000 too), -inf for x "
               "near -1000",
        "cells": {"stable_logsumexp": (
            "def stable_logsumexp(x):\n"
            "    return jnp.log(jnp.sum(jnp.exp(x), axis=-1))\n")},
        "fails": ["stable_logsumexp_correctness", "stable_logsumexp_correctness_2"],
    },
    "stable_logsumexp_bfloat16_running_sum": {
        "why": "a streaming (online) log-sum-exp with its carry in the input dtype: in bfloat16 the "
               "running sum stalls once it reaches a few hundred",
        "cells": {"stable_logsumexp": (
            "def stable_logsumexp(x):\n"
            "    def step(carry, x_t):\n"
            "        c, s = carry\n"
            "        c_new = jnp.maximum(c, x_t)\n"
            "        return (c_new, s * jnp.exp(c - c_new) + jnp.exp(x_t - c_new)), None\n"
            "    init = (jnp.full(x.shape[:-1], -jnp.inf, x.dtype), jnp.zeros(x.shape[:-1], x.dtype))\n"
            "    (c, s), _ = lax.scan(step, init, jnp.moveaxis(x, -1, 0))\n"
            "    return c + jnp.log(s)\n")},
        "fails": ["stable_logsumexp_correctness_2"],
    },
    "stable_logsumexp_returns_float32": {
        "why": "computes in float32 but forgets to cast back: bfloat16 in, float32 out",
        "cells": {"stable_logsumexp": (
            "def stable_logsumexp(x):\n"
            "    x = x.astype(jnp.float32)\n"
            "    c = jnp.max(x, axis=-1, keepdims=True)\n"
            "    return c[..., 0] + jnp.log(jnp.sum(jnp.exp(x - c), axis=-1))\n")},
        "fails": ["stable_logsumexp_correctness_2"],
    },
    "stable_logsumexp_global_max": {
        "why": "shifts every row by the maximum of the whole array: a row far below it underflows to log(0)",
        "cells": {"stable_logsumexp": (
            "def stable_logsumexp(x):\n"
            "    x32 = x.astype(jnp.float32)\n"
            "    c = jnp.max(x32)\n"
            "    return (c + jnp.log(jnp.sum(jnp.exp(x32 - c), axis=-1))).astype(x.dtype)\n")},
        "fails": ["stable_logsumexp_correctness"],
    },
    "stable_logsumexp_numpy_shift": {
        "why": "the per-row shift computed with NumPy: fine eagerly, TracerArrayConversionError under jit",
        "cells": {"stable_logsumexp": (
            "def stable_logsumexp(x):\n"
            "    x32 = x.astype(jnp.float32)\n"
            "    c = np.max(np.asarray(x32), axis=-1, keepdims=True)\n"
            "    return (c[..., 0] + jnp.log(jnp.sum(jnp.exp(x32 - c), axis=-1))).astype(x.dtype)\n")},
        "fails": ["stable_logsumexp_jit", "stable_logsumexp_retrace"],
    },
}
