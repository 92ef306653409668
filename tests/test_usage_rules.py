"""The rules for JAX's errors outside jit (`checks/usage_rules.py`, issue 24): each fires on its
mistake and names the evidence, and does not fire on a near miss (the fixed code, or a different
mistake that another rule or none explains)."""
from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from autograder.checks import diagnose


def _raise(fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001
        return exc
    return None


def _rule(fn):
    exc = _raise(fn)
    if exc is None:
        return None, ""
    desc = diagnose.describe_exception(exc)
    rule = diagnose.match(desc)
    return (rule.name if rule else None), (diagnose.explanation_block(exc) or "")


def fires_with(name, fire, words) -> str:
    """The explanation of `fire`'s error, asserted to come from rule `name` and to name `words`."""
    rule, text = _rule(fire)
    assert rule == name, (rule, text)
    for word in words:
        assert word in text, f"{word!r} not in:\n{text}"
    return text


def _bwd(bwd, n_inputs=2):
    @jax.custom_vjp
    def f(*xs):
        return sum(xs) if n_inputs > 1 else jnp.sum(xs[0])
    f.defvjp(lambda *xs: (f(*xs), xs), bwd)
    return f


def _jvp(rule):
    @jax.custom_jvp
    def f(x):
        return jnp.sum(x)
    f.defjvp(rule)
    return f


_join = jnp.concatenate   # a JAX function handed to another one: its error is raised in JAX's code


# each on its own line: the facts of a failing line are its whole statement
def _scan_single_combine():
    return lax.associative_scan(lambda a, b: jnp.dot(b, a), jnp.ones((5, 2, 2)))


def _scan_batched_combine():
    return lax.associative_scan(jax.vmap(lambda a, b: jnp.dot(b, a)), jnp.ones((5, 2, 2)))


def _map_join():
    return lax.map(_join, [jnp.ones((3, 2)), jnp.ones((3, 2, 1))])


def _map_concatenate():          # the student's own concatenate: the plain concatenate rule
    return lax.map(jnp.concatenate, [jnp.ones((3, 2)), jnp.ones((3, 2, 1))])


@dataclasses.dataclass
class Layer:                     # not registered as a pytree
    w: jax.Array


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class RegisteredLayer:
    w: jax.Array


def _cond_without_operand():
    return lax.cond(True, lambda _: 10.0, lambda _: 0.0)


def _cond_with_operand():
    return lax.cond(True, lambda _: 10.0, lambda _: 0.0, None)


def _scaled(x, mode):
    return 2 * x if mode == "double" else x


def _set_wrong_shape():
    history = jnp.zeros((4, 2))
    return history.at[0].set(jnp.ones(3))


def _set_right_shape():
    history = jnp.zeros((4, 2))
    return history.at[0].set(jnp.ones(3)[:2])


def _positive(v):
    return v > 0


def _index_typed_key():
    key = jax.random.key(0)
    return key[0]


x3, x4 = jnp.ones(3), jnp.ones(4)

# rule -> (code that must fire it, words its text must hold, near miss that must not fire it)
CASES = {
    "vmap-sizes": (lambda: jax.vmap(lambda w, x: w * x)(x3, x4), ["axis 0 of `w` has 3", "in_axes=(None, 0)"],
                   lambda: jax.vmap(lambda w, x: w * x, in_axes=(None, 0))(x3, x4)),
    "vmap-in-axes-count": (lambda: jax.vmap(lambda a, b: a + b, in_axes=(0,))(x3, x3), ["2 here", "in_axes=(0, None)"],
                           lambda: jax.vmap(lambda a, b: a + b, in_axes=(0, None))(x3, x3)),
    "vmap-in-axes-tree": (lambda: jax.vmap(lambda a, b: a + b, in_axes=((0, 1), (0, 1)))(jnp.ones((2, 3)), jnp.ones((2, 3))),
                          ["one entry per positional argument", "nest two vmaps"],
                          lambda: jax.vmap(lambda a, b: a + b, in_axes=(1, 1))(jnp.ones((2, 3)), jnp.ones((2, 3)))),
    "vmap-rank": (lambda: jax.vmap(lambda a: a, in_axes=1)(x3), ["no axis 1", "shape (3,)"],
                  lambda: jax.vmap(lambda a: a, in_axes=1)(jnp.ones((2, 3)))),
    "vmap-out-axes": (lambda: jax.vmap(lambda a: (a, a), out_axes=(0, 0, 0))(x3), ["length 3", "length 2"],
                      lambda: jax.vmap(lambda a: (a, a), out_axes=(0, 0))(x3)),
    "vmap-out-axes-batched": (lambda: jax.vmap(lambda a: (a, a.sum()), out_axes=(0, None))(jnp.ones((2, 3))),
                              ["`out_axes[1]` is `None`", "`0` at `out_axes[1]`"],
                              lambda: jax.vmap(lambda a: (a, jnp.float32(1)), out_axes=(0, None))(jnp.ones((2, 3)))),
    "vmap-python-if": (lambda: jax.vmap(lambda a: a if a > 0 else -a)(x3), ["jnp.where(pred, a, b)"],
                       lambda: jax.jit(lambda a: a if a > 0 else -a)(1.0)),
    "vmap-all-none": (lambda: jax.vmap(lambda a: a, in_axes=None)(x3), ["axis_size="],
                      lambda: jax.vmap(lambda a: a, in_axes=None, axis_size=2)(x3)),
    "grad-output": (lambda: jax.grad(lambda v: v ** 2)(x3), ["shape (3,)", "jnp.sum"],
                    lambda: jax.grad(lambda v: jnp.sum(v ** 2))(x3)),
    "grad-int-input": (lambda: jax.grad(lambda v: v ** 2)(3), ["int32", "3.0"],
                       lambda: jax.grad(lambda v: v ** 2)(3.0)),
    "grad-complex-input": (lambda: jax.jacfwd(lambda z: z * z)(jnp.array([1.0 + 2.0j])),
                           ["jax.jacfwd", "complex64", "holomorphic=True", "real and imaginary parts"],
                           lambda: jax.jacfwd(lambda z: z * z, holomorphic=True)(jnp.array([1.0 + 2.0j]))),
    "grad-has-aux": (lambda: jax.grad(lambda v: jnp.sum(v), has_aux=True)(x3), ["one value", "drop `has_aux=True`"],
                     lambda: jax.grad(lambda v: (jnp.sum(v), v), has_aux=True)(x3)),
    "grad-argnums": (lambda: jax.grad(lambda a, b: jnp.sum(a * b), argnums=1)(x3, b=x3), ["argnums=1", "positionally"],
                     lambda: jax.grad(lambda a, b: jnp.sum(a * b), argnums=1)(x3, x3)),
    "loop-carry-type": (lambda: lax.scan(lambda c, v: (c + v, None), jnp.int32(0), x3), ["int32[]", "float32[]", ".astype(jnp.float32)"],
                        lambda: lax.scan(lambda c, v: (c + v, None), jnp.float32(0), x3)),
    "loop-carry-structure": (lambda: lax.scan(lambda c, v: ((c, c), v), 0.0, x3), ["`c` comes in as an array", "a tuple"],
                             lambda: lax.scan(lambda c, v: (c + v, (c, c)), 0.0, x3)),
    "scan-pair": (lambda: lax.scan(lambda c, v: c + v, 0.0, x3), ["(carry, y)"],
                  lambda: lax.scan(lambda c, v: (c + v, None), 0.0, x3)),
    "loop-predicate": (lambda: lax.while_loop(lambda c: c < 3, lambda c: c + 1, jnp.zeros(3)), ["bool[3]", "jnp.all"],
                       lambda: lax.while_loop(lambda c: jnp.all(c < 3), lambda c: c + 1, jnp.zeros(3))),
    "branch-types": (lambda: lax.cond(True, lambda v: v, lambda v: v.sum(), x3), ["float32[3]", "float32[]"],
                     lambda: lax.cond(True, lambda v: v, lambda v: jnp.full_like(v, v.sum()), x3)),
    "cond-predicate": (lambda: lax.cond(x3 > 0, lambda v: v, lambda v: -v, x3), ["shape (3,)", "jnp.where(pred"],
                       lambda: lax.cond(jnp.all(x3 > 0), lambda v: v, lambda v: -v, x3)),
    "cond-predicate-type": (lambda: lax.cond(_positive, lambda v: v, lambda v: -v, 1.0),
                            ["the function `_positive`", "lax.cond(_positive(x)"],
                            lambda: lax.cond(_positive(1.0), lambda v: v, lambda v: -v, 1.0)),
    "switch-index": (lambda: lax.switch(1.0, [lambda v: v, lambda v: -v], 1.0), ["float32", "astype(jnp.int32)"],
                     lambda: lax.switch(1, [lambda v: v, lambda v: -v], 1.0)),
    "tree-structure": (lambda: jax.tree.map(jnp.add, {"w": x3, "b": x3}, {"w": x3, "c": x3}), ["('b', 'w')", "('c', 'w')"],
                       lambda: jax.tree.map(jnp.add, {"w": x3, "b": x3}, {"w": x3, "b": x3})),
    "unregistered-class": (lambda: jax.jit(lambda layer: layer.w * 2)(Layer(x3)), ["`Layer`", "register_dataclass"],
                           lambda: jax.jit(lambda layer: layer.w * 2)(RegisteredLayer(x3))),
    "key-from-int": (lambda: jax.random.normal(0, (2,)), ["jax.random.key(0)"],
                     lambda: jax.random.normal(jax.random.key(0), (2,))),
    "key-seeds": (lambda: jax.random.key(jnp.arange(3)), ["shape (3,)", "jax.vmap(jax.random.key)(seeds)"],
                  lambda: jax.vmap(jax.random.key)(jnp.arange(3))),
    "key-already": (lambda: jax.random.PRNGKey(jax.random.key(0)), ["already a PRNG key"],
                    lambda: jax.random.PRNGKey(0)),
    "key-indexed": (_index_typed_key, ["typed PRNG key", "key, new_key = jax.random.split(key)"],
                    lambda: jax.random.PRNGKey(0)[0]),
    "key-mixed": (lambda: jnp.stack([jax.random.key(0), jax.random.PRNGKey(1)]), ["wrap_key_data"],
                  lambda: jnp.stack([jax.random.key(0), jax.random.key(1)])),
    "key-arithmetic": (lambda: jax.random.key(0) + 1, ["fold_in"],
                       lambda: jax.random.fold_in(jax.random.key(0), 1)),
    "key-batch": (lambda: jax.random.normal(jax.random.split(jax.random.key(0), 3), (2,)), ["shape (3,)", "jax.vmap(lambda k"],
                  lambda: jax.vmap(lambda k: jax.random.normal(k, (2,)))(jax.random.split(jax.random.key(0), 3))),
    "vjp-bwd-structure": (lambda: jax.grad(_bwd(lambda res, g: g))(1.0, 2.0), ["PyTreeDef((*, *))", "tuple from `bwd`"],
                          lambda: jax.grad(_bwd(lambda res, g: (g, g)))(1.0, 2.0)),
    "vjp-bwd-shape": (lambda: jax.grad(_bwd(lambda res, g: (g,), n_inputs=1))(x3), ["output[0]", "float32[3]"],
                      lambda: jax.grad(_bwd(lambda res, g: (g * jnp.ones_like(res[0]),), n_inputs=1))(x3)),
    "jvp-pair": (lambda: jax.jvp(_jvp(lambda p, t: t[0]), (x3,), (x3,)), ["(primal_out, tangent_out)"],
                 lambda: jax.jvp(_jvp(lambda p, t: (jnp.sum(p[0]), jnp.sum(t[0]))), (x3,), (x3,))),
    "jvp-tangent": (lambda: jax.jvp(_jvp(lambda p, t: (jnp.sum(p[0]), t[0])), (x3,), (x3,)), ["float32[3]", "float32[]"],
                    lambda: jax.jvp(_jvp(lambda p, t: (jnp.sum(p[0]), jnp.sum(t[0]))), (x3,), (x3,))),
    "broadcast": (lambda: x3 + x4, ["(3,), (4,)", "[:, None]"], lambda: x3[:, None] + x4),
    "associative-scan-combine": (_scan_single_combine, ["inside `lax.associative_scan`", "a guess", "jax.vmap(combine)"],
                                 _scan_batched_combine),
    "inside-transform": (_map_join, ["inside `lax.map`", "(2,), (2, 1)", "a guess"], _map_concatenate),
    "concatenate": (lambda: jnp.concatenate([jnp.ones((3, 2)), jnp.ones((3, 4))]), ["axis=1"],
                    lambda: jnp.concatenate([jnp.ones((3, 2)), jnp.ones((3, 4))], axis=1)),
    "stack": (lambda: jnp.stack([x3, x4]), ["(3,), (4,)"], lambda: jnp.concatenate([x3, x4])),
    "contract": (lambda: jnp.ones((3, 2)) @ jnp.ones((3, 2)), ["(2,) and (3,)", ".T"],
                 lambda: jnp.ones((3, 2)) @ jnp.ones((3, 2)).T),
    "reshape": (lambda: jnp.ones(6).reshape(4, 2), ["holds 6", "-1"], lambda: jnp.ones(6).reshape(-1, 2)),
    # kinds the third held-out batch met first
    "vmap-axis-name": (lambda: jax.vmap(lambda v: v / lax.psum(v, "batch"))(x3), ["axis_name='batch'"],
                       lambda: jax.vmap(lambda v: v / lax.psum(v, "batch"), axis_name="batch")(x3)),
    "vmap-no-arguments": (lambda: jax.vmap(lambda: jnp.ones(2))(), ["axis_size="],
                          lambda: jax.vmap(lambda: jnp.ones(2), axis_size=3)()),
    "grad-complex-output": (lambda: jax.grad(lambda t: jnp.exp(1j * t))(1.0), ["complex64", "jax.jacfwd"],
                            lambda: jax.grad(lambda t: jnp.abs(jnp.exp(1j * t)) ** 2)(1.0)),
    "loop-bounds": (lambda: lax.fori_loop(0, 3.0, lambda i, v: v + 1, 0.0), ["int32 and float32", "int(n)"],
                    lambda: lax.fori_loop(0, 3, lambda i, v: v + 1, 0.0)),
    "scan-without-xs": (lambda: lax.scan(lambda c, _: (c + 1, c), 0.0, None), ["length=n"],
                    lambda: lax.scan(lambda c, _: (c + 1, c), 0.0, None, length=3)),
    "loop-body-callable": (lambda: lax.fori_loop(0, 3, jnp.sin(1.0), 0.0), ["not its result"],
                           lambda: lax.fori_loop(0, 3, lambda i, v: jnp.sin(v), 0.0)),
    "branch-operands": (_cond_without_operand, ["`lambda: 10.0`"], _cond_with_operand),
    "select-types": (lambda: lax.select(True, jnp.int32(1), jnp.float32(2)), ["jnp.where(pred, a, b)"],
                     lambda: lax.select(True, jnp.float32(1), jnp.float32(2))),
    "non-array-argument": (lambda: jax.jit(_scaled)(x3, "double"), ["static_argnames='mode'"],
                           lambda: jax.jit(_scaled, static_argnames="mode")(x3, "double")),
    "sampler-dtype": (lambda: jax.random.normal(jax.random.key(0), (2,), dtype=jnp.int32), ["jax.random.randint"],
                      lambda: jax.random.normal(jax.random.key(0), (2,)).astype(jnp.int32)),
    "sample-size": (lambda: jax.random.choice(jax.random.key(0), 3, (5,), replace=False), ["replace=True"],
                    lambda: jax.random.choice(jax.random.key(0), 3, (3,), replace=False)),
    "vjp-forward-mode": (lambda: jax.jacfwd(_bwd(lambda res, g: (g * jnp.ones_like(res[0]),), n_inputs=1))(x3),
                         ["jax.jacrev"], lambda: jax.jacrev(_bwd(lambda res, g: (g * jnp.ones_like(res[0]),), n_inputs=1))(x3)),
    "einsum-label": (lambda: jnp.einsum("bi,ij->bj", jnp.ones((2, 5)), jnp.ones((3, 5))), ["`i`", "two lengths, 5 and 3", "the terms before it"],
                     lambda: jnp.einsum("bi,ji->bj", jnp.ones((2, 5)), jnp.ones((3, 5)))),
    "split-equal": (lambda: jnp.split(jnp.ones(5), 2), ["jnp.array_split"], lambda: jnp.array_split(jnp.ones(5), 2)),
    "set-shape": (_set_wrong_shape, ["float32[3]", "float32[2]"], _set_right_shape),
    "key-compared": (lambda: jax.random.key(3) == jnp.zeros(2, jnp.uint32), ["jax.random.key_data(key) == raw"],
                     lambda: jax.random.key(3) + 1),
}


def test_every_usage_rule_has_a_case():
    from autograder.checks.usage_rules import USAGE_RULES
    assert {r.name for r in USAGE_RULES} == set(CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_rule_fires_with_its_evidence_and_not_on_the_near_miss(name):
    fire, words, near = CASES[name]
    text = fires_with(name, fire, words)
    assert text.startswith("cause: ") and "\nfix: " in text
    assert _rule(near)[0] != name


def test_a_rule_never_hides_an_error_it_cannot_read():
    """An error no rule knows gets no block (the kernel hook then adds nothing)."""
    assert _rule(lambda: {}["missing"]) == (None, "")
    assert diagnose.explanation_block(KeyError("missing")) is None


def test_a_count_passed_as_the_key_is_told_the_key_comes_first():
    """`jax.random.split(n)`: no key made from `n` would help; the count goes second."""
    fires_with("key-from-int", lambda: jax.random.split(5), ["`jax.random.split(key, 5)`", "count second"])
    text = fires_with("key-from-int", lambda: jax.random.normal(0, (2,)), ["jax.random.key(0)"])
    assert "count second" not in text


def test_a_float_size_is_not_blamed_on_jnp():
    """A float shape from `/` is a float where an integer is needed, not shape arithmetic with `jnp`."""
    sizes = jnp.ones(6)
    fires_with("float-size", lambda: jnp.zeros(sizes.shape[0] / 2), ["(3.0,)", "`/`", "sizes.shape[0] // 2", "int()"])
    text = fires_with("float-size", lambda: jnp.zeros((2, 3.5)), ["(2, 3.5)", "int()"])
    assert "//" not in text                                  # no `/` on the line: no `//` to offer
    assert _rule(lambda: jnp.zeros(sizes.shape[0] // 2))[0] is None
    traced = jax.jit(lambda v, s: jnp.reshape(v, jnp.array(s)), static_argnums=1)
    assert _rule(lambda: traced(sizes, (2, 3)))[0] == "shape-math-with-jnp"


def test_a_shape_made_a_jnp_array_is_told_to_stay_a_tuple():
    fires_with("shape-math-with-jnp",
               lambda: jax.jit(lambda v, s: jnp.reshape(v, jnp.array(s)), static_argnums=1)(x3, (3, 1)),
               ["`jnp.array(s)`", "`tuple(s)`"])
    text = fires_with("shape-math-with-jnp", lambda: jax.jit(lambda v: jnp.zeros(jnp.sum(jnp.ones(3)).astype(int)))(x3),
                      ["plain Python"])
    assert "tuple(" not in text


def test_a_traced_scan_length_is_offered_both_fixes_and_the_generic_concrete_fix_is_a_guess():
    """fori_loop where only the final carry is used, a static length where the stacked outputs are (their
    number is a shape): the student knows which, so both are offered as a guess."""
    from autograder.checks.trial_texts import GUESS
    text = fires_with("scan-length", lambda: jax.jit(lambda v, k: lax.scan(lambda c, _: (c * 2, c), v, None, length=k)[1])(1.0, 3),
                      ["`k` is a jit argument", "lax.fori_loop(0, k,", "static_argnames='k'"])
    assert "fix: " + GUESS in text, text
    assert _rule(lambda: jax.jit(lambda v, k: lax.fori_loop(0, k, lambda i, c: c * 2, v))(1.0, 3)) == (None, "")
    from autograder.checks import rules
    assert [r for r in rules.RULES if r.name == "concrete"][0].fix.startswith(GUESS)


def test_an_integer_or_boolean_output_of_a_custom_jvp_is_told_its_tangent_is_float0():
    """An integer or boolean primal output has no tangent space: JAX expects a `float0` tangent, in
    either of its two wordings (one output, or each mismatching output of several). A float zero is
    not the fix; the types are read from both wordings."""
    import numpy as np

    def pair(make_tangent):
        @jax.custom_jvp
        def step(x):
            return 2.0 * x, jnp.int32(3)
        step.defjvp(lambda p, t: (step(*p), (2.0 * t[0], make_tangent())))
        return lambda: jax.jvp(step, (1.0,), (1.0,))

    def flag(make_tangent):
        @jax.custom_jvp
        def positive(x):
            return x > 0
        positive.defjvp(lambda p, t: (positive(*p), make_tangent()))
        return lambda: jax.jvp(positive, (1.0,), (1.0,))

    for fire in (pair(lambda: jnp.zeros((), jnp.int32)), flag(lambda: jnp.zeros((), bool))):
        text = fires_with("jvp-tangent", fire, ["float0[]", "no tangent space", "dtype=jax.dtypes.float0"])
        assert "write floats" not in text
    assert _rule(pair(lambda: np.zeros((), dtype=jax.dtypes.float0)))[0] is None
    assert "write floats" in fires_with("jvp-tangent", CASES["jvp-tangent"][0], ["float32[3]"])
