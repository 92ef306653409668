"""A twelfth held-out batch of JAX errors outside jit, written by two helper sessions at once that never
opened the rules under `autograder/` nor any message the course prints (part a: vmap, grad, loops,
branches, pytrees; part b: keys, custom rules, shapes, other), so that its first run measures how the
course's explanations carry over to mistakes they were not fitted on. (Being written: no case yet.)
"""
from __future__ import annotations

import dataclasses  # noqa: F401  (a name the cases may use)
import functools  # noqa: F401  (a name the cases may use)
from typing import NamedTuple  # noqa: F401  (a name the cases may use)

import jax  # noqa: F401
import jax.numpy as jnp  # noqa: F401
import numpy as np  # noqa: F401
from jax import lax  # noqa: F401

from .corpus import error_case  # noqa: F401


# ---------------------------------------------------------------- part a: vmap, grad, loops, branches, pytrees

@error_case(family="vmap", fix="stack-leaves", raises="ValueError",
            source="https://github.com/google-deepmind/dm-haiku/issues/219",
            line="return jax.vmap(member_loss, in_axes=(0, 0, 0))(ensemble, inputs, targets)",
            fixed="return jax.vmap(member_loss, in_axes=(0, 0, 0))(jax.tree.map(lambda *ps: jnp.stack(ps), *ensemble), inputs, targets)",
            args=lambda: ([{'w': jnp.full((4, 2), 0.1 * k), 'b': jnp.zeros(2)} for k in range(3)],
                          jnp.ones((3, 4)), jnp.zeros((3, 2))))
def ensemble_losses(ensemble, inputs, targets):
    def member_loss(params, x, y):
        pred = x @ params['w'] + params['b']
        return jnp.mean((pred - y) ** 2)
    return jax.vmap(member_loss, in_axes=(0, 0, 0))(ensemble, inputs, targets)


@error_case(family="loops", fix="non-array-leaf", raises="TypeError",
            source="https://github.com/patrick-kidger/equinox/issues/446",
            line="return lax.scan(step, model, xs)[1]",
            fixed="return lax.scan(lambda w, x: (w, model['act'](x @ w).sum()), model['w'], xs)[1]",
            args=lambda: (jnp.full((3, 2), 0.2), jnp.ones((5, 3))))
def losses_with_model_as_carry(weights, xs):
    model = {'w': weights, 'act': jnp.tanh}

    def step(m, x):
        return m, m['act'](x @ m['w']).sum()
    return lax.scan(step, model, xs)[1]


@error_case(family="grad", fix="non-array-leaf", raises="TypeError",
            source="https://github.com/patrick-kidger/equinox/issues/706",
            line="return jax.value_and_grad(batch_loss)(model, xs)",
            fixed="return jax.value_and_grad(lambda w: batch_loss({'w': w, 'act': model['act']}, xs))(model['w'])",
            args=lambda: (jnp.linspace(-1.0, 1.0, 6).reshape(3, 2), jnp.ones((4, 3))))
def loss_and_grad_with_activation(weights, xs):
    model = {'w': weights, 'act': jax.nn.gelu}

    def batch_loss(m, x):
        return jnp.sum(m['act'](x @ m['w']))
    return jax.value_and_grad(batch_loss)(model, xs)


@error_case(family="branches", fix="python-if-static", raises="TypeError",
            source="https://github.com/keras-team/keras/issues/19379",
            line="return lax.cond(do_crop, lambda: volume[:depth, :height], lambda: volume)",
            fixed="return volume[:depth, :height] if do_crop else volume",
            args=lambda: (jnp.ones((5, 9, 4)), True, 3, 6))
def crop_volume_if_asked(volume, do_crop, depth, height):
    return lax.cond(do_crop, lambda: volume[:depth, :height], lambda: volume)


@error_case(family="vmap", fix="vmap-kwargs-positional", raises="ValueError",
            source="https://github.com/jax-ml/jax/issues/7465",
            line="return jax.vmap(scaled_shift, in_axes=(0, 0, None))(base=bases, slope=slopes, offset=offset)",
            fixed="return jax.vmap(scaled_shift, in_axes=(0, 0, None))(bases, slopes, offset)",
            args=lambda: (jnp.array([1.0, 2.0, 3.0]), jnp.array([0.5, 0.25, 2.0]), 0.1))
def shifted_by_keyword(bases, slopes, offset):
    def scaled_shift(base, slope, offset):
        return slope * base + offset
    return jax.vmap(scaled_shift, in_axes=(0, 0, None))(base=bases, slope=slopes, offset=offset)


@error_case(family="pytrees", fix="tree-same-structure", raises="ValueError",
            source="https://github.com/google/flax/issues/3994",
            line="parts = jax.tree.map(lambda d, enc: enc(d), data, encoders)",
            fixed="parts = jax.tree.map(lambda d, enc: enc(d), data, encoders._asdict())",
            args=lambda: ({'img': jnp.ones((4, 4)), 'vec': jnp.arange(3.0)},))
def encode_leaves(data):
    class Encoders(NamedTuple):
        img: object
        vec: object

    encoders = Encoders(img=lambda a: a.mean(), vec=lambda v: v.sum())
    parts = jax.tree.map(lambda d, enc: enc(d), data, encoders)
    return jnp.stack(jax.tree.leaves(parts))


@error_case(family="loops", fix="non-array-leaf", raises="TypeError",
            source="https://github.com/patrick-kidger/equinox/issues/709",
            line="last, history = lax.scan(shift_kernel, kernel, offsets)",
            fixed="last, history = lax.scan(lambda p, o: (lambda q: (q, q))({'bias': p['bias'] + o, 'scale': p['scale']}), {'bias': kernel['bias'], 'scale': kernel['scale']}, offsets)",
            args=lambda: (jnp.zeros(2), jnp.ones(2), jnp.ones((4, 2))))
def drift_kernel_bias(bias, scale, offsets):
    kernel = {'bias': bias, 'scale': scale, 'link': jnp.exp}

    def shift_kernel(k, offset):
        new = {'bias': k['bias'] + offset, 'scale': k['scale'], 'link': k['link']}
        return new, new
    last, history = lax.scan(shift_kernel, kernel, offsets)
    return history['bias']


@error_case(family="vmap", fix="in-axes-tuple", raises="TypeError",
            source="https://github.com/patrick-kidger/equinox/issues/952",
            line="return jax.vmap(lambda s: jnp.mean(s['value'] * s['time']), in_axes=member_axes)(series)",
            fixed="return jax.vmap(lambda s: jnp.mean(s['value'] * s['time']), in_axes=(member_axes,))(series)",
            args=lambda: ({'value': jnp.ones((6, 5)), 'time': jnp.arange(5.0)},))
def ensemble_member_means(series):
    member_axes = {'value': 0, 'time': None}
    return jax.vmap(lambda s: jnp.mean(s['value'] * s['time']), in_axes=member_axes)(series)
