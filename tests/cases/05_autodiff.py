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

RIGHT = {
    # ------------------------------------------------------------ second_derivative
    "second_derivative_named_inner_def": {
        "why": "a named inner function that applies the nested grads when called: the same f'', "
               "built lazily at call time instead of returning the grad object",
        "cells": {"second_derivative": (
            "def second_derivative(f):\n"
            "    \"\"\"x -> f''(x).\"\"\"\n"
            "    def f_second(x):\n"
            "        return jax.grad(jax.grad(f))(x)\n"
            "    return f_second\n")},
    },
    "second_derivative_loop_twice": {
        "why": "applies jax.grad in a Python loop of two static iterations: the same nesting, written "
               "as a repeat",
        "cells": {"second_derivative": (
            "def second_derivative(f):\n"
            "    g = f\n"
            "    for _ in range(2):\n"
            "        g = jax.grad(g)\n"
            "    return g\n")},
    },
    "second_derivative_lambda_wrapped": {
        "why": "the outer jax.grad differentiates a lambda that calls jax.grad(f): still grad of grad",
        "cells": {"second_derivative": (
            "def second_derivative(f):\n"
            "    first = jax.grad(f)\n"
            "    return jax.grad(lambda x: first(x))\n")},
    },
    "second_derivative_forward_over_reverse": {
        "why": "jax.jacfwd over jax.grad(f): forward mode on top of the reverse-mode first derivative, "
               "which for a scalar x is the same f'' (the custom rules are followed the same way)",
        "cells": {"second_derivative": (
            "def second_derivative(f):\n"
            "    return jax.jacfwd(jax.grad(f))\n")},
    },
    "second_derivative_jitted_result": {
        "why": "returns the nested grads already wrapped in jax.jit, with argnums spelled out: same "
               "values, compiled on first call",
        "cells": {"second_derivative": (
            "def second_derivative(f):\n"
            "    return jax.jit(jax.grad(jax.grad(f, argnums=0), argnums=0))\n")},
    },
    # ------------------------------------------------------------ nth_derivative
    "nth_derivative_recursive": {
        "why": "recursion on n: grad of the (n-1)-th derivative, with n = 0 the base case",
        "cells": {"nth_derivative": (
            "def nth_derivative(f, n):\n"
            "    if n == 0:\n"
            "        return f\n"
            "    return jax.grad(nth_derivative(f, n - 1))\n")},
    },
    "nth_derivative_tail_recursive": {
        "why": "tail recursion: differentiate f once, then ask for n - 1 more derivatives of that",
        "cells": {"nth_derivative": (
            "def nth_derivative(f, n):\n"
            "    return f if n == 0 else nth_derivative(jax.grad(f), n - 1)\n")},
    },
    "nth_derivative_functools_reduce": {
        "why": "functools.reduce folds jax.grad over range(n) starting from f (range(0) leaves f)",
        "cells": {"nth_derivative": (
            "import functools\n"
            "\n"
            "def nth_derivative(f, n):\n"
            "    return functools.reduce(lambda g, _: jax.grad(g), range(n), f)\n")},
    },
    "nth_derivative_lambda_default_arg": {
        "why": "the closure-in-a-loop pitfall avoided with a default argument, which binds the current "
               "function when the lambda is made",
        "cells": {"nth_derivative": (
            "def nth_derivative(f, n):\n"
            "    for _ in range(n):\n"
            "        f = lambda x, g=f: jax.grad(g)(x)\n"
            "    return f\n")},
    },
    "nth_derivative_list_of_derivatives": {
        "why": "builds the list [f, f', f'', ...] and returns entry n",
        "cells": {"nth_derivative": (
            "def nth_derivative(f, n):\n"
            "    derivatives = [f]\n"
            "    while len(derivatives) <= n:\n"
            "        derivatives.append(jax.grad(derivatives[-1]))\n"
            "    return derivatives[n]\n")},
    },
    # ------------------------------------------------------------ loss_and_grad
    "loss_and_grad_take_along_axis": {
        "why": "picks one log-probability per row with jnp.take_along_axis instead of fancy indexing",
        "cells": {"loss_and_grad": (
            "def loss_and_grad(params, xs, labels):\n"
            "    def loss_fn(p):\n"
            "        logits = xs @ p['W'].T + p['b']\n"
            "        log_probs = jax.nn.log_softmax(logits, axis=-1)\n"
            "        picked = jnp.take_along_axis(log_probs, labels[:, None], axis=1)[:, 0]\n"
            "        accuracy = jnp.mean(jnp.argmax(logits, axis=-1) == labels)\n"
            "        return -picked.mean(), accuracy\n"
            "    return jax.value_and_grad(loss_fn, has_aux=True)(params)\n")},
    },
    "loss_and_grad_one_hot": {
        "why": "cross-entropy as a sum against one-hot labels (jax.nn.one_hot), einsum for the logits, "
               "accuracy cast to float32 explicitly",
        "cells": {"loss_and_grad": (
            "def loss_and_grad(params, xs, labels):\n"
            "    num_classes = params['W'].shape[0]\n"
            "\n"
            "    def loss_fn(p):\n"
            "        logits = jnp.einsum('bd,cd->bc', xs, p['W']) + p['b']\n"
            "        targets = jax.nn.one_hot(labels, num_classes)\n"
            "        loss = -jnp.mean(jnp.sum(targets * jax.nn.log_softmax(logits), axis=-1))\n"
            "        accuracy = (logits.argmax(-1) == labels).astype(jnp.float32).mean()\n"
            "        return loss, accuracy\n"
            "    return jax.value_and_grad(loss_fn, has_aux=True)(params)\n")},
    },
    "loss_and_grad_logsumexp": {
        "why": "log-softmax written as logits minus their logsumexp (jax.scipy.special), so "
               "-log p[y] = logsumexp(logits) - logits[y]",
        "cells": {"loss_and_grad": (
            "from jax.scipy.special import logsumexp\n"
            "\n"
            "def loss_and_grad(params, xs, labels):\n"
            "    rows = jnp.arange(xs.shape[0])\n"
            "\n"
            "    def loss_fn(p):\n"
            "        logits = jnp.dot(xs, p['W'].T) + p['b'][None, :]\n"
            "        nll = logsumexp(logits, axis=1) - logits[rows, labels]\n"
            "        return nll.mean(), jnp.mean(jnp.argmax(logits, axis=1) == labels)\n"
            "    return jax.value_and_grad(loss_fn, has_aux=True)(params)\n")},
    },
    "loss_and_grad_vmap_per_example": {
        "why": "writes the loss of one example and vmaps it over the batch, then averages: the same "
               "mean loss",
        "cells": {"loss_and_grad": (
            "def loss_and_grad(params, xs, labels):\n"
            "    def one_example(p, x, y):\n"
            "        logits = p['W'] @ x + p['b']\n"
            "        return -jax.nn.log_softmax(logits)[y], (jnp.argmax(logits) == y)\n"
            "\n"
            "    def loss_fn(p):\n"
            "        losses, hits = jax.vmap(one_example, in_axes=(None, 0, 0))(p, xs, labels)\n"
            "        return jnp.mean(losses), jnp.mean(hits.astype(jnp.float32))\n"
            "    return jax.value_and_grad(loss_fn, has_aux=True)(params)\n")},
    },
    "loss_and_grad_explicit_arguments": {
        "why": "the inner loss takes (params, xs, labels) explicitly instead of closing over them; "
               "value_and_grad differentiates argument 0 only (argnums=0)",
        "cells": {"loss_and_grad": (
            "def _logits(params, xs):\n"
            "    return xs @ params['W'].T + params['b']\n"
            "\n"
            "def _loss_with_accuracy(params, xs, labels):\n"
            "    logits = _logits(params, xs)\n"
            "    log_probs = jax.nn.log_softmax(logits)\n"
            "    loss = -jnp.mean(log_probs[jnp.arange(labels.shape[0]), labels])\n"
            "    return loss, jnp.mean(jnp.argmax(logits, -1) == labels)\n"
            "\n"
            "def loss_and_grad(params, xs, labels):\n"
            "    return jax.value_and_grad(_loss_with_accuracy, argnums=0, has_aux=True)(params, xs, labels)\n")},
    },
    # ------------------------------------------------------------ hvp
    "hvp_unpacked_tangent": {
        "why": "the same forward-over-reverse product, the jvp's (primal, tangent) unpacked by name "
               "and the gradient function named",
        "cells": {"hvp": (
            "def hvp(f, x, v):\n"
            "    grad_f = jax.grad(f)\n"
            "    _, hv = jax.jvp(grad_f, (x,), (v,))\n"
            "    return hv\n")},
    },
    "hvp_linearize": {
        "why": "jax.linearize of the gradient gives its JVP as a function, applied to v: forward over "
               "reverse through another API",
        "cells": {"hvp": (
            "def hvp(f, x, v):\n"
            "    _, grad_jvp = jax.linearize(jax.grad(f), x)\n"
            "    return grad_jvp(v)\n")},
    },
    "hvp_directional_scalar": {
        "why": "jvp in a scalar step t of t -> grad f(x + t v) at t = 0: the directional derivative of "
               "the gradient along v, which is H v",
        "cells": {"hvp": (
            "def hvp(f, x, v):\n"
            "    along_v = lambda t: jax.grad(f)(x + t * v)\n"
            "    return jax.jvp(along_v, (jnp.float32(0.0),), (jnp.float32(1.0),))[1]\n")},
    },
    "hvp_flatten_and_reshape": {
        "why": "flattens x and v, takes the forward-over-reverse product over the flat vector, and "
               "reshapes back: the Hessian over the entries, as the exercise defines it",
        "cells": {"hvp": (
            "def hvp(f, x, v):\n"
            "    shape = x.shape\n"
            "    flat_f = lambda z: f(z.reshape(shape))\n"
            "    _, hv = jax.jvp(jax.grad(flat_f), (x.ravel(),), (v.ravel(),))\n"
            "    return hv.reshape(shape)\n")},
    },
    "hvp_jitted_decorator": {
        "why": "@partial(jax.jit, static_argnums=0) on the forward-over-reverse product, primals and "
               "tangents passed as lists",
        "cells": {"hvp": (
            "@partial(jax.jit, static_argnums=0)\n"
            "def hvp(f, x, v):\n"
            "    return jax.jvp(jax.grad(f), [x], [v])[1]\n")},
    },
    # ------------------------------------------------------------ newton_minimize
    "newton_minimize_named_body": {
        "why": "a named body function with the step spelled out, fori_loop called with keywords for "
               "the bounds",
        "cells": {"newton_minimize": (
            "def newton_minimize(f, x0, num_steps):\n"
            "    df = jax.grad(f)\n"
            "    d2f = jax.grad(jax.grad(f))\n"
            "\n"
            "    def body(i, x):\n"
            "        step = df(x) / d2f(x)\n"
            "        return x - step\n"
            "\n"
            "    return lax.fori_loop(0, num_steps, body_fun=body, init_val=x0)\n")},
    },
    "newton_minimize_value_and_grad_of_grad": {
        "why": "jax.value_and_grad of f' returns f'(x) and f''(x) from one pass",
        "cells": {"newton_minimize": (
            "def newton_minimize(f, x0, num_steps):\n"
            "    slope_and_curvature = jax.value_and_grad(jax.grad(f))\n"
            "\n"
            "    def body(_, x):\n"
            "        d1, d2 = slope_and_curvature(x)\n"
            "        return x - d1 / d2\n"
            "\n"
            "    return lax.fori_loop(0, num_steps, body, x0)\n")},
    },
    "newton_minimize_jvp_of_grad": {
        "why": "one jax.jvp of jax.grad(f) with tangent 1 returns f'(x) and f''(x) together "
               "(forward over reverse)",
        "cells": {"newton_minimize": (
            "def newton_minimize(f, x0, num_steps):\n"
            "    def body(i, x):\n"
            "        d1, d2 = jax.jvp(jax.grad(f), (x,), (jnp.ones_like(x),))\n"
            "        return x - d1 / d2\n"
            "    return lax.fori_loop(0, num_steps, body, x0)\n")},
    },
    "newton_minimize_jit_decorated": {
        "why": "@partial(jax.jit, static_argnames=...) with f and num_steps static; x0 converted to "
               "float32 before the loop",
        "cells": {"newton_minimize": (
            "@partial(jax.jit, static_argnames=('f', 'num_steps'))\n"
            "def newton_minimize(f, x0, num_steps):\n"
            "    x0 = jnp.asarray(x0, jnp.float32)\n"
            "    newton_step = lambda x: x - jax.grad(f)(x) / jax.grad(jax.grad(f))(x)\n"
            "    return lax.fori_loop(0, num_steps, lambda _, x: newton_step(x), x0)\n")},
    },
    "newton_minimize_tuple_carry": {
        "why": "carries (x, f'(x)) through fori_loop, so each step evaluates f' once at the new point",
        "cells": {"newton_minimize": (
            "def newton_minimize(f, x0, num_steps):\n"
            "    df = jax.grad(f)\n"
            "    d2f = jax.grad(df)\n"
            "\n"
            "    def body(i, carry):\n"
            "        x, slope = carry\n"
            "        x_new = x - slope / d2f(x)\n"
            "        return x_new, df(x_new)\n"
            "\n"
            "    x, _ = lax.fori_loop(0, num_steps, body, (x0, df(x0)))\n"
            "    return x\n")},
    },
}
