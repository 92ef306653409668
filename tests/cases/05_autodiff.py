"""Known-wrong submissions for 05_autodiff and the graded cells each one must fail.

`cells` maps an exercise id to the full replacement source of its solution cell; `fails` is the
exact set of graded test cells that must fail (every other graded cell still passes).
"""

CASES = {
    # ------------------------------------------------------------ second_derivative
    "second_derivative_finite_difference": {
        "why": "a central finite difference of f's values: in float32 it loses most digits, and it cannot "
               "see a custom derivative rule",
        "cells": {"second_derivative": (
            "def second_derivative(f):\n"
            "    h = 1e-2\n"
            "    return lambda x: (f(x + h) - 2 * f(x) + f(x - h)) / h ** 2\n")},
        "fails": ["second_derivative_correctness"],
    },
    "second_derivative_hardcoded_sin": {
        "why": "the textbook formula for sin, (sin)'' = -sin: right on the visible sin example only",
        "cells": {"second_derivative": (
            "def second_derivative(f):\n"
            "    return lambda x: -jnp.sin(x)\n")},
        "fails": ["second_derivative_correctness"],
    },
    "second_derivative_float_input": {
        "why": "float(x) before differentiating: fine eagerly, ConcretizationTypeError under jit",
        "cells": {"second_derivative": (
            "def second_derivative(f):\n"
            "    def d2(x):\n"
            "        return jax.grad(jax.grad(f))(float(x))\n"
            "    return d2\n")},
        "fails": ["second_derivative_jit"],
    },
    "second_derivative_first_only": {
        "why": "one jax.grad: the first derivative, not the second",
        "cells": {"second_derivative": (
            "def second_derivative(f):\n"
            "    return jax.grad(f)\n")},
        "fails": ["second_derivative_correctness"],
    },
    # ------------------------------------------------------------ nth_derivative
    "nth_derivative_late_binding_lambda": {
        "why": "f = lambda x: jax.grad(f)(x) in a loop: the lambda looks f up when called, finds itself, "
               "and recurses forever (RecursionError) for every n >= 1",
        "cells": {"nth_derivative": (
            "def nth_derivative(f, n):\n"
            "    for _ in range(n):\n"
            "        f = lambda x: jax.grad(f)(x)\n"
            "    return f\n")},
        "fails": ["nth_derivative_correctness", "nth_derivative_jit"],
    },
    "nth_derivative_one_short": {
        "why": "off by one: range(1, n) nests n - 1 times (n = 0 and n = 1 both return f)",
        "cells": {"nth_derivative": (
            "def nth_derivative(f, n):\n"
            "    for _ in range(1, n):\n"
            "        f = jax.grad(f)\n"
            "    return f\n")},
        "fails": ["nth_derivative_correctness"],
    },
    "nth_derivative_finite_difference": {
        "why": "repeated central differences: error explodes with the order in float32 and ignores custom rules",
        "cells": {"nth_derivative": (
            "def nth_derivative(f, n):\n"
            "    h = 1e-2\n"
            "    for _ in range(n):\n"
            "        f = (lambda g: lambda x: (g(x + h) - g(x - h)) / (2 * h))(f)\n"
            "    return f\n")},
        "fails": ["nth_derivative_correctness"],
    },
    # ------------------------------------------------------------ loss_and_grad
    "loss_and_grad_no_has_aux": {
        "why": "value_and_grad of a function returning (loss, accuracy) without has_aux=True: TypeError "
               "'Gradient only defined for scalar-output functions'",
        "cells": {"loss_and_grad": (
            "def loss_and_grad(params, xs, labels):\n"
            "    def loss_fn(p):\n"
            "        logits = xs @ p['W'].T + p['b']\n"
            "        log_probs = jax.nn.log_softmax(logits)\n"
            "        loss = -jnp.mean(log_probs[jnp.arange(xs.shape[0]), labels])\n"
            "        return loss, jnp.mean(jnp.argmax(logits, axis=-1) == labels)\n"
            "    return jax.value_and_grad(loss_fn)(params)\n")},
        "fails": ["loss_and_grad_correctness", "loss_and_grad_jit"],
    },
    "loss_and_grad_all_pairs_indexing": {
        "why": "log_probs[:, labels] picks a B x B block (every row at every label), not one entry per row",
        "cells": {"loss_and_grad": (
            "def loss_and_grad(params, xs, labels):\n"
            "    def loss_fn(p):\n"
            "        logits = xs @ p['W'].T + p['b']\n"
            "        log_probs = jax.nn.log_softmax(logits)\n"
            "        loss = -jnp.mean(log_probs[:, labels])\n"
            "        return loss, jnp.mean(jnp.argmax(logits, axis=-1) == labels)\n"
            "    return jax.value_and_grad(loss_fn, has_aux=True)(params)\n")},
        "fails": ["loss_and_grad_correctness"],
    },
    "loss_and_grad_sum_not_mean": {
        "why": "sums the per-example losses instead of averaging: loss and gradients B times too large",
        "cells": {"loss_and_grad": (
            "def loss_and_grad(params, xs, labels):\n"
            "    def loss_fn(p):\n"
            "        logits = xs @ p['W'].T + p['b']\n"
            "        log_probs = jax.nn.log_softmax(logits)\n"
            "        loss = -jnp.sum(log_probs[jnp.arange(xs.shape[0]), labels])\n"
            "        return loss, jnp.mean(jnp.argmax(logits, axis=-1) == labels)\n"
            "    return jax.value_and_grad(loss_fn, has_aux=True)(params)\n")},
        "fails": ["loss_and_grad_correctness"],
    },
    "loss_and_grad_accuracy_item": {
        "why": "accuracy.item() to report a Python float: right values eagerly, ConcretizationTypeError under jit",
        "cells": {"loss_and_grad": (
            "def loss_and_grad(params, xs, labels):\n"
            "    def loss_fn(p):\n"
            "        logits = xs @ p['W'].T + p['b']\n"
            "        log_probs = jax.nn.log_softmax(logits)\n"
            "        loss = -jnp.mean(log_probs[jnp.arange(xs.shape[0]), labels])\n"
            "        return loss, jnp.mean(jnp.argmax(logits, axis=-1) == labels)\n"
            "    (loss, accuracy), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)\n"
            "    return (loss, accuracy.item()), grads\n")},
        "fails": ["loss_and_grad_jit"],
    },
    # ------------------------------------------------------------ hvp
    "hvp_full_hessian": {
        "why": "jax.hessian(f)(x) @ v: right values for a vector x, but builds the n x n Hessian (and for a "
               "matrix x the Hessian has four axes, so `@ v` is not the product)",
        "cells": {"hvp": (
            "def hvp(f, x, v):\n"
            "    return jax.hessian(f)(x) @ v\n")},
        "fails": ["hvp_correctness", "hvp_structure"],
    },
    "hvp_jacfwd_of_grad": {
        "why": "jax.jacfwd(jax.grad(f))(x) @ v: the Hessian again, by another name (four axes for a matrix x)",
        "cells": {"hvp": (
            "def hvp(f, x, v):\n"
            "    return jax.jacfwd(jax.grad(f))(x) @ v\n")},
        "fails": ["hvp_correctness", "hvp_structure"],
    },
    "hvp_jvp_without_tuples": {
        "why": "jax.jvp(jax.grad(f), x, v): primals and tangents must be tuples, so it raises TypeError",
        "cells": {"hvp": (
            "def hvp(f, x, v):\n"
            "    return jax.jvp(jax.grad(f), x, v)[1]\n")},
        "fails": ["hvp_correctness", "hvp_jit", "hvp_structure"],
    },
    "hvp_finite_difference": {
        "why": "central difference of the gradient along v: an approximation that loses digits in float32",
        "cells": {"hvp": (
            "def hvp(f, x, v):\n"
            "    eps = 1e-3\n"
            "    g = jax.grad(f)\n"
            "    return (g(x + eps * v) - g(x - eps * v)) / (2 * eps)\n")},
        "fails": ["hvp_correctness"],
    },
    "hvp_gradient_times_v": {
        "why": "grad(f)(x) * v: the gradient scaled by v, no second derivative at all",
        "cells": {"hvp": (
            "def hvp(f, x, v):\n"
            "    return jax.grad(f)(x) * v\n")},
        "fails": ["hvp_correctness"],
    },
    "hvp_reverse_over_reverse_dot": {
        "why": "grad of jnp.dot(grad f(x), v): a valid HVP for a vector x, but for a matrix x jnp.dot is a matrix "
               "product, not a scalar, so jax.grad raises",
        "cells": {"hvp": (
            "def hvp(f, x, v):\n"
            "    return jax.grad(lambda y: jnp.dot(jax.grad(f)(y), v))(x)\n")},
        "fails": ["hvp_correctness"],
    },
    # ------------------------------------------------------------ newton_minimize
    "newton_minimize_python_loop": {
        "why": "a Python for loop over the static num_steps: right values and jits, but unrolls into the jaxpr",
        "cells": {"newton_minimize": (
            "def newton_minimize(f, x0, num_steps):\n"
            "    df = jax.grad(f)\n"
            "    d2f = jax.grad(df)\n"
            "    x = x0\n"
            "    for _ in range(num_steps):\n"
            "        x = x - df(x) / d2f(x)\n"
            "    return x\n")},
        "fails": ["newton_minimize_structure"],
    },
    "newton_minimize_until_converged": {
        "why": "a Python while until the step is small: stops early (not num_steps steps) and raises "
               "TracerBoolConversionError under jit",
        "cells": {"newton_minimize": (
            "def newton_minimize(f, x0, num_steps):\n"
            "    df = jax.grad(f)\n"
            "    d2f = jax.grad(df)\n"
            "    x = x0\n"
            "    step = df(x) / d2f(x)\n"
            "    while jnp.abs(step) > 1e-6:\n"
            "        x = x - step\n"
            "        step = df(x) / d2f(x)\n"
            "    return x\n")},
        "fails": ["newton_minimize_correctness", "newton_minimize_jit", "newton_minimize_structure"],
    },
    "newton_minimize_gradient_descent": {
        "why": "x - 0.1 * f'(x): gradient descent, not Newton (no f'')",
        "cells": {"newton_minimize": (
            "def newton_minimize(f, x0, num_steps):\n"
            "    df = jax.grad(f)\n"
            "    return lax.fori_loop(0, num_steps, lambda i, x: x - 0.1 * df(x), x0)\n")},
        "fails": ["newton_minimize_correctness"],
    },
    "newton_minimize_uphill": {
        "why": "sign error x + f'(x) / f''(x): steps away from the minimum",
        "cells": {"newton_minimize": (
            "def newton_minimize(f, x0, num_steps):\n"
            "    df = jax.grad(f)\n"
            "    d2f = jax.grad(df)\n"
            "    return lax.fori_loop(0, num_steps, lambda i, x: x + df(x) / d2f(x), x0)\n")},
        "fails": ["newton_minimize_correctness"],
    },
}
