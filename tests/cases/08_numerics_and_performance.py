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
        "fails": ["pairwise_sq_dists_correctness", "pairwise_sq_dists_performance"],   # timed values differ from the reference
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
    "stable_logsumexp_bfloat16_arithmetic": {
        "why": "shifted by the row max, but exp, log and the shift's addition in the input dtype (red team, "
               "atk08a; jnp.sum itself accumulates bfloat16 in float32): log(sum) rounded to bfloat16 before "
               "the shift is added is off by up to half a bfloat16 step of log(sum), 2**-5 for sums of 3e3 "
               "to 9e6 terms, which shows where the shift and log(sum) cancel and the result is near 0",
        "cells": {"stable_logsumexp": (
            "def stable_logsumexp(x):\n"
            "    m = jnp.max(x, axis=-1, keepdims=True)\n"
            "    return jnp.log(jnp.sum(jnp.exp(x - m), axis=-1)) + m[..., 0]\n")},
        "fails": ["stable_logsumexp_correctness_2"],
    },
    "stable_logsumexp_bfloat16_pairwise_tree": {
        "why": "the sum as a pairwise tree of additions in the input dtype (more accurate than a running sum, "
               "but every partial sum, and log(sum), is still rounded to bfloat16)",
        "cells": {"stable_logsumexp": (
            "def stable_logsumexp(x):\n"
            "    m = jnp.max(x, axis=-1, keepdims=True)\n"
            "    s = jnp.exp(x - m)\n"
            "    while s.shape[-1] > 1:\n"
            "        if s.shape[-1] % 2:\n"
            "            s = jnp.concatenate([s, jnp.zeros_like(s[..., :1])], axis=-1)\n"
            "        s = s[..., 0::2] + s[..., 1::2]\n"
            "    return m[..., 0] + jnp.log(s[..., 0])\n")},
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

RIGHT = {
    # ------------------------------------------------------------ safe_norm
    "safe_norm_where_on_input": {
        "why": "the second where guards the input x itself (all ones when the sum of squares is 0), "
               "so the unpicked branch takes the sqrt at a harmless point",
        "cells": {"safe_norm": (
            "def safe_norm(x):\n"
            "    nonzero = jnp.sum(x * x) > 0\n"
            "    safe_x = jnp.where(nonzero, x, jnp.ones_like(x))\n"
            "    return jnp.where(nonzero, jnp.sqrt(jnp.sum(safe_x ** 2)), 0.0)\n")},
    },
    "safe_norm_custom_jvp_guarded": {
        "why": "jax.custom_jvp whose rule divides by a guarded norm and returns a zero tangent at 0",
        "cells": {"safe_norm": (
            "@jax.custom_jvp\n"
            "def safe_norm(x):\n"
            "    return jnp.sqrt(jnp.sum(x * x))\n"
            "\n"
            "@safe_norm.defjvp\n"
            "def _safe_norm_jvp(primals, tangents):\n"
            "    (x,), (t,) = primals, tangents\n"
            "    norm = safe_norm(x)\n"
            "    positive = norm > 0\n"
            "    direction = jnp.where(positive, x / jnp.where(positive, norm, 1.0), 0.0)\n"
            "    return norm, jnp.sum(direction * t)\n")},
    },
    "safe_norm_lax_select": {
        "why": "the double-where trick with lax.select (explicit same-dtype operands) and jnp.vdot for "
               "the sum of squares over every entry",
        "cells": {"safe_norm": (
            "def safe_norm(x):\n"
            "    sq = jnp.vdot(x, x)\n"
            "    ok = sq > 0\n"
            "    one, zero = jnp.ones_like(sq), jnp.zeros_like(sq)\n"
            "    return lax.select(ok, jnp.sqrt(lax.select(ok, sq, one)), zero)\n")},
    },
    "safe_norm_arithmetic_mask": {
        "why": "a 0/1 mask instead of where: sqrt(sq + (1 - mask)) is sqrt(1) at 0, and multiplying by "
               "the mask gives exactly 0 with a finite derivative",
        "cells": {"safe_norm": (
            "def safe_norm(x):\n"
            "    sq = jnp.sum(jnp.square(x))\n"
            "    mask = (sq > 0).astype(sq.dtype)\n"
            "    return mask * jnp.sqrt(sq + (1.0 - mask))\n")},
    },
    "safe_norm_linalg_norm_guarded": {
        "why": "jnp.linalg.norm of the flattened entries, with the same two wheres around it",
        "cells": {"safe_norm": (
            "def safe_norm(x):\n"
            "    flat = jnp.ravel(x)\n"
            "    is_zero = jnp.dot(flat, flat) == 0\n"
            "    norm = jnp.linalg.norm(jnp.where(is_zero, 1.0, flat))\n"
            "    return jnp.where(is_zero, jnp.zeros_like(norm), norm)\n")},
    },
    # ------------------------------------------------------------ clip_grad
    "clip_grad_none_cotangent": {
        "why": "bwd returns None for max_norm (JAX reads it as a zero cotangent); the norm from "
               "jnp.linalg.norm of the flat g, guarded by where",
        "cells": {"clip_grad": (
            "@jax.custom_vjp\n"
            "def clip_grad(x, max_norm):\n"
            "    return x\n"
            "\n"
            "def _clip_grad_fwd(x, max_norm):\n"
            "    return x, (max_norm,)\n"
            "\n"
            "def _clip_grad_bwd(residuals, g):\n"
            "    (max_norm,) = residuals\n"
            "    norm = jnp.linalg.norm(g.ravel())\n"
            "    scale = jnp.where(norm > 0, jnp.minimum(1.0, max_norm / jnp.where(norm > 0, norm, 1.0)), 1.0)\n"
            "    return g * scale, None\n"
            "\n"
            "clip_grad.defvjp(_clip_grad_fwd, _clip_grad_bwd)\n")},
    },
    "clip_grad_where_over_max_norm": {
        "why": "scales only when ||g|| > max_norm (then ||g|| > 0, so the guarded division is safe); "
               "the same as min(1, max_norm / ||g||)",
        "cells": {"clip_grad": (
            "@jax.custom_vjp\n"
            "def clip_grad(x, max_norm):\n"
            "    return x\n"
            "\n"
            "def _clip_grad_fwd(x, max_norm):\n"
            "    return clip_grad(x, max_norm), max_norm\n"
            "\n"
            "def _clip_grad_bwd(max_norm, g):\n"
            "    norm = jnp.sqrt(jnp.sum(jnp.square(g)))\n"
            "    too_long = norm > max_norm\n"
            "    scale = jnp.where(too_long, max_norm / jnp.where(too_long, norm, 1.0), 1.0)\n"
            "    return g * scale, jnp.zeros_like(max_norm)\n"
            "\n"
            "clip_grad.defvjp(_clip_grad_fwd, _clip_grad_bwd)\n")},
    },
    "clip_grad_lax_cond": {
        "why": "lax.cond picks the scaled or the unchanged cotangent: the division runs only on the "
               "branch where ||g|| > max_norm >= 0",
        "cells": {"clip_grad": (
            "@jax.custom_vjp\n"
            "def clip_grad(x, max_norm):\n"
            "    return x\n"
            "\n"
            "def _clip_grad_fwd(x, max_norm):\n"
            "    return x, max_norm\n"
            "\n"
            "def _clip_grad_bwd(max_norm, g):\n"
            "    norm = jnp.sqrt(jnp.vdot(g, g))\n"
            "    clipped = lax.cond(norm > max_norm,\n"
            "                       lambda: g * (max_norm / norm),\n"
            "                       lambda: g)\n"
            "    return clipped, jnp.zeros_like(max_norm)\n"
            "\n"
            "clip_grad.defvjp(_clip_grad_fwd, _clip_grad_bwd)\n")},
    },
    "clip_grad_tree_global_norm": {
        "why": "bwd written for any pytree cotangent (global norm over tree leaves, tree.map to scale), "
               "as an optimiser library would; for an array g it is the same rule",
        "cells": {"clip_grad": (
            "@jax.custom_vjp\n"
            "def clip_grad(x, max_norm):\n"
            "    return x\n"
            "\n"
            "def _clip_grad_fwd(x, max_norm):\n"
            "    return x, max_norm\n"
            "\n"
            "def _clip_grad_bwd(max_norm, g):\n"
            "    leaves = jax.tree_util.tree_leaves(g)\n"
            "    norm = jnp.sqrt(sum(jnp.sum(leaf * leaf) for leaf in leaves))\n"
            "    safe = jnp.where(norm > 0, norm, 1.0)\n"
            "    factor = jnp.where(norm > 0, jnp.minimum(1.0, max_norm / safe), 1.0)\n"
            "    return jax.tree.map(lambda leaf: leaf * factor.astype(leaf.dtype), g), jnp.zeros_like(max_norm)\n"
            "\n"
            "clip_grad.defvjp(_clip_grad_fwd, _clip_grad_bwd)\n")},
    },
    "clip_grad_wrapped_function": {
        "why": "custom_vjp applied to a plain identity function (no decorator syntax), fwd/bwd with "
               "their own names, the scale written as 1 / max(1, ||g|| / max_norm) with a guarded "
               "division",
        "cells": {"clip_grad": (
            "def _identity(x, max_norm):\n"
            "    \"\"\"x unchanged in the forward pass.\"\"\"\n"
            "    return x\n"
            "\n"
            "clip_grad = jax.custom_vjp(_identity)\n"
            "\n"
            "def forward(x, max_norm):\n"
            "    return x, max_norm\n"
            "\n"
            "def backward(max_norm, g):\n"
            "    norm = jnp.sqrt(jnp.sum(g ** 2))\n"
            "    scale = jnp.where(norm > max_norm, max_norm / jnp.maximum(norm, max_norm), 1.0)\n"
            "    return g * scale, jnp.zeros((), jnp.result_type(max_norm))\n"
            "\n"
            "clip_grad.defvjp(forward, backward)\n")},
    },
    # ------------------------------------------------------------ pairwise_sq_dists
    "pairwise_sq_dists_einsum": {
        "why": "the expansion with jnp.einsum for the norms and for the cross term",
        "cells": {"pairwise_sq_dists": (
            "def pairwise_sq_dists(x, y):\n"
            "    xx = jnp.einsum('id,id->i', x, x)\n"
            "    yy = jnp.einsum('jd,jd->j', y, y)\n"
            "    xy = jnp.einsum('id,jd->ij', x, y)\n"
            "    return jnp.maximum(xx[:, None] + yy[None, :] - 2.0 * xy, 0.0)\n")},
    },
    "pairwise_sq_dists_augmented_matmul": {
        "why": "one matrix product of augmented rows [-2x, |x|^2, 1] and [y, 1, |y|^2] gives "
               "|x|^2 + |y|^2 - 2 x.y directly; clamped with jnp.clip",
        "cells": {"pairwise_sq_dists": (
            "def pairwise_sq_dists(x, y):\n"
            "    x_sq = jnp.sum(x ** 2, axis=1, keepdims=True)\n"
            "    y_sq = jnp.sum(y ** 2, axis=1, keepdims=True)\n"
            "    xa = jnp.concatenate([-2.0 * x, x_sq, jnp.ones_like(x_sq)], axis=1)\n"
            "    ya = jnp.concatenate([y, jnp.ones_like(y_sq), y_sq], axis=1)\n"
            "    return jnp.clip(xa @ ya.T, min=0.0)\n")},
    },
    "pairwise_sq_dists_dot_general": {
        "why": "lax.dot_general contracting the feature axes of x and y (no transpose), relu as the clamp",
        "cells": {"pairwise_sq_dists": (
            "def pairwise_sq_dists(x, y):\n"
            "    cross = lax.dot_general(x, y, (((1,), (1,)), ((), ())))\n"
            "    d = (x * x).sum(-1)[:, None] - 2.0 * cross + (y * y).sum(-1)[None, :]\n"
            "    return jax.nn.relu(d)\n")},
    },
    "pairwise_sq_dists_vmap_rows": {
        "why": "vmap over the rows of x of a row-against-all-of-y function (xi @ y.T): batched, this "
               "is one matrix product, not an (n, m, d) broadcast",
        "cells": {"pairwise_sq_dists": (
            "def pairwise_sq_dists(x, y):\n"
            "    y_sq = jnp.sum(y * y, axis=-1)\n"
            "\n"
            "    def row(xi):\n"
            "        return jnp.maximum(jnp.dot(xi, xi) + y_sq - 2.0 * (xi @ y.T), 0.0)\n"
            "\n"
            "    return jax.vmap(row)(x)\n")},
    },
    "pairwise_sq_dists_inner": {
        "why": "jnp.inner (contracts the last axes) for the cross term, the factor -2 folded into x "
               "first, norms from jnp.square",
        "cells": {"pairwise_sq_dists": (
            "def pairwise_sq_dists(x, y):\n"
            "    x_norms = jnp.square(x).sum(axis=1)\n"
            "    y_norms = jnp.square(y).sum(axis=1)\n"
            "    d = jnp.inner(-2.0 * x, y)\n"
            "    d = d + x_norms[:, jnp.newaxis]\n"
            "    d = d + y_norms[jnp.newaxis, :]\n"
            "    return jnp.where(d < 0, 0.0, d)\n")},
    },
    # ------------------------------------------------------------ stable_logsumexp
    "stable_logsumexp_library_float32": {
        "why": "jax.nn.logsumexp (shifted internally) on the input cast to float32, the result cast back",
        "cells": {"stable_logsumexp": (
            "def stable_logsumexp(x):\n"
            "    return jax.nn.logsumexp(x.astype(jnp.float32), axis=-1).astype(x.dtype)\n")},
    },
    "stable_logsumexp_scipy_import": {
        "why": "jax.scipy.special.logsumexp imported in the cell, the float32 compute dtype chosen "
               "with jnp.promote_types",
        "cells": {"stable_logsumexp": (
            "from jax.scipy.special import logsumexp\n"
            "\n"
            "def stable_logsumexp(x):\n"
            "    compute = jnp.promote_types(x.dtype, jnp.float32)\n"
            "    return logsumexp(x.astype(compute), axis=-1).astype(x.dtype)\n")},
    },
    "stable_logsumexp_stop_gradient_shift": {
        "why": "the shift without keepdims (re-expanded with [..., None]) and under lax.stop_gradient, "
               "as library code writes it; float32 by an explicit astype",
        "cells": {"stable_logsumexp": (
            "def stable_logsumexp(x):\n"
            "    in_dtype = x.dtype\n"
            "    x = jnp.asarray(x, jnp.float32)\n"
            "    c = lax.stop_gradient(jnp.max(x, axis=-1))\n"
            "    s = jnp.sum(jnp.exp(x - c[..., None]), axis=-1)\n"
            "    return (c + jnp.log(s)).astype(in_dtype)\n")},
    },
    "stable_logsumexp_online_float32_scan": {
        "why": "a streaming (online) log-sum-exp with lax.scan whose carry is float32: the running "
               "max and the rescaled running sum, right also for bfloat16 input",
        "cells": {"stable_logsumexp": (
            "def stable_logsumexp(x):\n"
            "    x32 = x.astype(jnp.float32)\n"
            "\n"
            "    def step(carry, x_t):\n"
            "        c, s = carry\n"
            "        c_new = jnp.maximum(c, x_t)\n"
            "        return (c_new, s * jnp.exp(c - c_new) + jnp.exp(x_t - c_new)), None\n"
            "\n"
            "    first = x32[..., 0]\n"
            "    init = (first, jnp.ones_like(first))\n"
            "    (c, s), _ = lax.scan(step, init, jnp.moveaxis(x32[..., 1:], -1, 0))\n"
            "    return (c + jnp.log(s)).astype(x.dtype)\n")},
    },
    "stable_logsumexp_vmap_rows": {
        "why": "a 1-D log-sum-exp vmapped over the rows of x reshaped to (rows, N), reshaped back",
        "cells": {"stable_logsumexp": (
            "def _lse_1d(v):\n"
            "    c = jnp.max(v)\n"
            "    return c + jnp.log(jnp.sum(jnp.exp(v - c)))\n"
            "\n"
            "def stable_logsumexp(x):\n"
            "    rows = x.astype(jnp.float32).reshape(-1, x.shape[-1])\n"
            "    return jax.vmap(_lse_1d)(rows).reshape(x.shape[:-1]).astype(x.dtype)\n")},
    },
}
