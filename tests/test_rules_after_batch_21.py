"""The revision after the twenty-first held-out batch's first run: `checks/form_rules.py` (a call in a form
its function's convention rules out), `advice_rules`' tree argument for any class of arrays, and four
rules of `checks/intent_rules.py` (a string returned by a differentiated function, a dict of parameters holding integers, a `lax.scan` input laid out the other
way, an unflatten function with its parameters swapped), `take_along_axis`'s indices from `argmax`
told `keepdims=True`, and the facts they read (`call_facts`: string arguments, integer dict entries,
scan inputs' shapes), which read nothing of the student's own types.

Each rule has a mistake written here (none of them a corpus case) where it must fire and tell the fix,
and, where the fix rewrites the line, the fixed code runs; and, for rules read from the line, a near miss
where it must not."""
from __future__ import annotations

import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from support.explain import explanation_of as _block, rule_of as _rule, told as _told


class _Pair(NamedTuple):
    a: jnp.ndarray
    b: jnp.ndarray


class _Bare:
    def __init__(self, u, v):
        self.u, self.v = u, v


class _Swapped:
    def __init__(self, u, v):
        self.u, self.v = u, v


class _Keyed:
    def __init__(self, u, v):
        self.u, self.v = u, v


class _SpyDict(dict):
    """A dict whose `values` records that it ran: the facts must not call the student's methods."""
    calls = 0

    def values(self):
        _SpyDict.calls += 1
        return super().values()


# ---- form_rules: counts a function fixes

def test_piecewise_with_a_function_short_is_told_one_per_condition():
    x = jnp.linspace(-1.0, 1.0, 5)
    rule, fix = _told(lambda: jnp.piecewise(x, [x < 0, x >= 0], [lambda v: -v]))
    assert rule == "piecewise-count" and "one function per condition (2 of them)" in fix
    jnp.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v])


def test_select_with_the_fallback_among_the_choices_is_told_default():
    x = jnp.linspace(-1.0, 1.0, 5)
    rule, fix = _told(lambda: jnp.select([x < 0], [x * 0, x]))
    assert rule == "select-default" and "jnp.select([x < 0], [x * 0], default=x)" in fix
    jnp.select([x < 0], [x * 0], default=x)


def test_where_with_two_arguments_is_told_both_values():
    x = jnp.linspace(-1.0, 1.0, 5)
    rule, fix = _told(lambda: jnp.where(x > 0, x))
    assert rule == "where-two-arguments" and "jnp.where(x > 0, x, 0.0)" in fix
    jnp.where(x > 0, x, 0.0)


def test_tree_reduce_of_an_empty_tree_is_told_a_starting_value():
    rule, fix = _told(lambda: jax.tree_util.tree_reduce(lambda a, b: a + b, {"w": None}))
    assert rule == "tree-reduce-empty" and "initializer=0.0" in fix
    jax.tree_util.tree_reduce(lambda a, b: a + b, {"w": None}, initializer=0.0)


# ---- arrays and trees

def test_a_jnp_function_given_a_namedtuple_is_told_tree_map():
    p, q = _Pair(jnp.ones(2), jnp.ones(3)), _Pair(jnp.ones(2), jnp.ones(3))
    rule, fix = _told(lambda: jnp.multiply(p, q))
    assert rule == "tree-argument" and "jax.tree.map(lambda a, b: jnp.multiply(a, b), p, q)" in fix
    jax.tree.map(jnp.multiply, p, q)


def test_a_list_given_to_a_jnp_function_is_not_a_container_of_arrays():
    assert _rule(lambda: jnp.multiply([1.0, 2.0], 3.0)) != "tree-argument"


def test_two_operands_with_the_new_axis_in_one_place_are_told_the_table_of_pairs():
    a, b = jnp.ones(3), jnp.ones(4)
    rule, fix = _told(lambda: a[:, None] - b[:, None])
    assert rule == "pairs-need-two-axes" and "a[:, None] - b[None, :]" in fix
    assert (a[:, None] - b[None, :]).shape == (3, 4)


def test_the_same_shapes_without_the_new_axes_on_the_line_are_not_a_table():
    a, b = jnp.ones((3, 1)), jnp.ones((4, 1))
    assert _rule(lambda: a - b) != "pairs-need-two-axes"


def test_expand_dims_past_the_result_is_told_minus_one():
    image = jnp.ones((4, 5))
    rule, fix = _told(lambda: jnp.expand_dims(image, 3))
    assert rule == "expand-dims-axis" and "`-1`" in fix
    assert jnp.expand_dims(image, -1).shape == (4, 5, 1)


def test_vectorize_of_a_matrix_function_is_told_its_signature():
    stack = jnp.ones((4, 2, 2))
    rule, fix = _told(lambda: jnp.vectorize(jnp.linalg.det)(stack))
    assert rule == "vectorize-signature" and 'signature="(n,n)->()"' in fix
    assert jnp.vectorize(jnp.linalg.det, signature="(n,n)->()")(stack).shape == (4,)


# ---- keys

def test_transposed_raw_keys_are_told_to_swap_the_batch_axes_only():
    raw = jax.random.split(jax.random.PRNGKey(0), 12).reshape(3, 4, 2)
    rule, fix = _told(lambda: jax.vmap(jax.vmap(lambda k: jax.random.normal(k)))(raw.T))
    assert rule == "raw-keys-transposed" and "jnp.swapaxes(raw, 0, 1)" in fix
    assert jax.vmap(jax.vmap(lambda k: jax.random.normal(k)))(jnp.swapaxes(raw, 0, 1)).shape == (4, 3)


def test_a_removed_key_constructor_is_told_impl():
    rule, fix = _told(lambda: jax.random.threefry2x32_key(7))
    assert rule == "removed-key-constructor" and "jax.random.PRNGKey(7, impl='threefry2x32')" in fix
    jax.random.PRNGKey(7, impl="threefry2x32")


def test_a_short_implementation_name_is_told_the_default_of_its_family():
    rule, fix = _told(lambda: jax.random.key(0, impl="threefry"))
    assert rule == "prng-impl-name" and "impl='threefry2x32'" in fix


def test_an_implementation_name_that_fits_two_names_and_not_the_default_is_not_guessed():
    assert _rule(lambda: jax.random.key(0, impl="philox")) != "prng-impl-name"


def test_a_64_bit_seed_turned_into_a_key_inside_jit_is_told_to_make_the_key_outside():
    seed = 2 ** 40
    rule, fix = _told(lambda: jax.jit(lambda s: jax.random.normal(jax.random.PRNGKey(s)))(seed))
    assert rule == "seed-hashed-in-jit" and "jax.random.PRNGKey(s)" in fix
    jax.jit(lambda key: jax.random.normal(key))(jax.random.PRNGKey(seed))


def test_dirichlet_of_one_concentration_is_told_one_per_category():
    rule, fix = _told(lambda: jax.random.dirichlet(jax.random.key(0), 0.5, shape=(4,)))
    assert rule == "dirichlet-scalar-alpha" and "jnp.full((4,), 0.5)" in fix
    assert jax.random.dirichlet(jax.random.key(0), jnp.full((4,), 0.5)).shape == (4,)


def test_a_key_path_flatten_with_bare_children_is_told_to_pair_them():
    def run():
        bare = type("Bare", (_Bare,), {})     # a class of its own for each run: registered once
        jax.tree_util.register_pytree_with_keys(bare, lambda c: ((c.u, c.v), None), lambda _, kids: bare(*kids)); return jax.tree_util.tree_flatten_with_path(bare(jnp.ones(2), jnp.zeros(2)))  # noqa: E702,E501
    rule, fix = _told(run)
    assert rule == "key-path-pairs" and "(jax.tree_util.GetAttrKey('u'), c.u)" in fix
    jax.tree_util.register_pytree_with_keys(
        _Keyed, lambda c: (((jax.tree_util.GetAttrKey('u'), c.u), (jax.tree_util.GetAttrKey('v'), c.v)), None),
        lambda _, kids: _Keyed(*kids))
    assert len(jax.tree_util.tree_flatten_with_path(_Keyed(jnp.ones(2), jnp.zeros(2)))[0]) == 2


# ---- transforms

def test_fori_unroll_with_a_jitted_bound_is_told_its_static_argnums():
    rule, fix = _told(lambda: jax.jit(lambda n, x: lax.fori_loop(0, n, lambda i, c: c + x, x, unroll=2))(3, 1.0))
    assert rule == "fori-unroll-traced" and "static_argnums=0" in fix
    jax.jit(lambda n, x: lax.fori_loop(0, n, lambda i, c: c + x, x, unroll=2), static_argnums=0)(3, 1.0)


def test_a_callback_declared_64_bit_is_told_32_bit():
    x = jnp.ones(2)
    rule, fix = _told(lambda: jax.pure_callback(lambda v: v, jax.ShapeDtypeStruct((2,), np.float64), x))
    assert rule == "callback-64-bit-result" and "np.float32" in fix
    jax.pure_callback(lambda v: np.asarray(v, np.float32), jax.ShapeDtypeStruct((2,), np.float32), x)


def test_a_scalar_given_a_one_axis_spec_is_told_the_empty_spec():
    from jax.sharding import Mesh, PartitionSpec as P
    mesh = Mesh(np.array(jax.devices()[:1]), ("i",))
    row, scale = np.ones(4, np.float32), np.float32(2.0)
    rule, fix = _told(lambda: jax.shard_map(lambda r, s: r * s, mesh=mesh, in_specs=(P("i"), P(None)),
                                            out_specs=P("i"))(row, scale))
    assert rule == "scalar-spec" and "`P()` at `in_specs[1]`" in fix
    jax.shard_map(lambda r, s: r * s, mesh=mesh, in_specs=(P("i"), P()), out_specs=P("i"))(row, scale)


def test_an_io_callback_in_a_cond_under_vmap_is_told_to_move_the_vmap_as_a_guess():
    import jax.experimental   # noqa: F401  (io_callback)

    def report(x):
        lax.cond(x > 0, lambda: jax.experimental.io_callback(lambda v: None, None, x), lambda: None)
        return x
    rule, fix = _told(lambda: jax.vmap(report)(jnp.ones(3)))
    assert rule == "effect-in-vmapped-cond" and fix.startswith("a guess")


def test_a_library_function_jitted_whole_is_told_to_bind_its_static_argument():
    from jax.scipy.special import multigammaln
    a, dim = jnp.float32(3.0), 2
    rule, fix = _told(lambda: jax.jit(multigammaln)(a, dim))
    assert rule == "library-argument-static" and "jax.jit(functools.partial(multigammaln, d=dim))(a)" in fix
    jax.jit(functools.partial(multigammaln, d=dim))(a)


def test_repeat_counts_mapped_by_vmap_are_told_the_total_length():
    values, counts = jnp.ones((2, 3)), jnp.array([[1, 1, 1], [2, 0, 1]])
    rule, fix = _told(lambda: jax.vmap(lambda v, c: jnp.repeat(v, c))(values, counts))
    assert rule == "repeat-length-under-vmap" and "total_repeat_length=" in fix
    jax.vmap(lambda v, c: jnp.repeat(v, c, total_repeat_length=3))(values, counts)


# ---- intent_rules

def _field(x):
    return x ** 2, "tag"


def _scaled(x, mode):
    return x * 2.0


def test_a_string_returned_by_a_differentiated_function_is_told_has_aux():
    x = jnp.ones(2)
    rule, fix = _told(lambda: jax.jacrev(_field)(x))
    assert rule == "string-returned-by-derivative" and "jax.jacrev(_field, has_aux=True)(x)" in fix
    jax.jacrev(_field, has_aux=True)(x)


def test_a_string_given_as_an_argument_is_not_a_returned_one():
    mode = "fast"
    assert _rule(lambda: jax.grad(lambda m: jnp.sum(_scaled(jnp.ones(2), m)))(mode)) \
        not in ("string-returned-by-derivative", None)


def test_a_dict_of_parameters_holding_an_integer_is_told_to_split_it():
    w, n = jnp.ones(3), 2
    loss = lambda p: jnp.sum(p["w"] ** p["n"])   # noqa: E731
    rule, fix = _told(lambda: jax.grad(loss)({"w": w, "n": n}))
    assert rule == "grad-of-a-dict-with-integers" and "'n'" in fix
    assert "jax.grad(lambda floats, ints: loss({**floats, **ints}))({'w': w}, {'n': n})" in fix
    jax.grad(lambda floats, ints: loss({**floats, **ints}))({"w": w}, {"n": n})


def test_a_dict_subclass_is_not_read_through_its_own_methods():
    _SpyDict.calls = 0
    assert _rule(lambda: jax.jit(lambda x, m: x)(jnp.ones(2), _SpyDict(mode="a"))) is not None
    assert _SpyDict.calls == 0


def test_a_scan_input_laid_out_the_other_way_is_told_its_transpose():
    a, b, c = jnp.ones((4, 3)), jnp.ones((4, 3)), jnp.ones((3, 4))
    step = lambda s, abc: (s + jnp.sum(abc[0] * abc[1] * abc[2]), None)   # noqa: E731
    rule, fix = _told(lambda: lax.scan(step, 0.0, (a, b, c)))
    assert rule == "scan-xs-transposed" and "`c.T`" in fix
    lax.scan(step, 0.0, (a, b, c.T))


def test_two_scan_inputs_each_the_others_transpose_are_not_guessed_between():
    a, b = jnp.ones((4, 3)), jnp.ones((3, 4))
    assert _rule(lambda: lax.scan(lambda s, ab: (s, None), 0.0, (a, b))) == "scan-xs-lengths"


def test_scan_inputs_of_unrelated_lengths_are_not_transposed_ones():
    a, b = jnp.ones((4, 3)), jnp.ones((5, 3))
    assert _rule(lambda: lax.scan(lambda c, ab: (c, None), 0.0, (a, b))) == "scan-xs-lengths"


def test_an_unflatten_with_its_parameters_swapped_is_told_the_order():
    def run():
        swapped = type("Swapped", (_Swapped,), {})     # a class of its own for each run: registered once
        jax.tree_util.register_pytree_node(swapped, lambda s: ((s.u, s.v), None), lambda kids, meta: swapped(*kids)); return jax.tree.map(lambda t: t + 1, swapped(jnp.ones(2), jnp.ones(2)))  # noqa: E702,E501
    rule, fix = _told(run)
    assert rule == "unflatten-argument-order" and "lambda meta, kids: swapped(*kids)" in fix


def test_take_along_axis_of_argmax_indices_is_told_keepdims():
    scores = jnp.arange(6.0).reshape(2, 3)
    rule, fix = _told(lambda: jnp.take_along_axis(scores, jnp.argmax(scores, axis=1), axis=1))
    assert rule == "take-along-axis-ndim" and "keepdims=True" in fix
    jnp.take_along_axis(scores, jnp.argmax(scores, axis=1, keepdims=True), axis=1)


class _PlantedCallable:
    """A callable planted in a JAX module under a name a raised message gives: it counts calls and reads of
    its signature (the explanation must do neither: reading a property runs the student's code)."""
    calls = reads = 0

    def __call__(self, *args, **kwargs):
        _PlantedCallable.calls += 1

    @property
    def __signature__(self):
        _PlantedCallable.reads += 1
        return None


class ConcretizationTypeError(TypeError):
    """JAX's error's name, on a class student code can define and raise itself."""


def _static_argument_message(name: str, where: str) -> str:
    return (f"Abstract tracer value encountered where concrete value is expected: traced array with shape int32[]\n"
            f"d argument of {name}\nThe error occurred while tracing the function {name} at {where}:1 for jit. "
            f"This concrete value was not available in Python because it depends on the value of the argument d.")


def _planted(a, d):
    return a


def test_a_raised_message_naming_a_library_function_imports_and_calls_nothing():
    """`library-argument-static` takes a function's name from JAX's message, which student code can raise
    itself: the name is looked up only in JAX's own modules (never in the module or file the message names),
    an object planted there is neither called nor has its signature read, and the kernel's and the grader's
    explanations both survive whatever is found. A plain function planted there is read (the rule's path
    runs: the test would see a lookup that found nothing as a pass)."""
    import sys

    from autograder.checks import diagnose
    planted_module = "jax.example_libraries.stax"
    earlier = sys.modules.pop(planted_module, None)
    try:
        for name, planted in [("serial", None), ("__getattr__", None), ("__import__", None), ("system", None),
                              ("planted_fn", _PlantedCallable()), ("planted_fn", _planted)]:
            jnp.planted_fn = planted
            message = _static_argument_message(name, "/site-packages/jax/example_libraries/stax.py")

            def raise_it():       # the message raised from a jitted call's line, as the rule reads it
                error = ConcretizationTypeError(message)
                return jax.jit(jnp.planted_fn)(1, 2) if error is None else (_ for _ in ()).throw(error)
            before = set(sys.modules)
            block = _block(raise_it)                                    # the kernel's explanation
            try:
                raise_it()
            except TypeError as exc:                                    # the grader's, from the description
                diagnose.student_error_text(diagnose.describe_exception(exc))
            assert planted_module not in sys.modules, name
            assert not {m for m in set(sys.modules) - before if not m.startswith(("jax", "autograder"))}, name
            assert ("functools.partial(jnp.planted_fn, d=2)" in block) == (planted is _planted), (name, block)
        assert _PlantedCallable.calls == _PlantedCallable.reads == 0
    finally:
        del jnp.planted_fn
        if earlier is not None:
            sys.modules[planted_module] = earlier
