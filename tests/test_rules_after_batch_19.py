"""The revision after the nineteenth held-out batch's first run: the rules of `checks/argument_rules.py`
(an argument in a form its function refuses, read from the message that names it: `lax.reduce`'s
initial values, a reducer that returns a list, `select_n`'s `which`, `lax.pad`'s triples and padding
value, float start indices, a convolution's padding pair, `tensordot`'s axes, a backend name by position,
a device index, `jax.debug.print`'s f-string and missing field, `permutation` of a float, `choice`'s `p`,
`categorical`'s `shape`, a key path entry read as a dict key, `tree.transpose`'s inner treedef,
`symbolic_zeros`' wrapped primals), and two of `checks/intent_rules.py` (leaves filtered before
`unflatten`, two classes of one name).

Each has a mistake written here (none of them a corpus case) where it must fire and tell the fix, and,
where the fix rewrites a call, the fixed call runs; and, for rules read from the line, a near miss where
it must not."""
from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from autograder.checks.trial_texts import GUESS
from support.explain import rule_of as _rule, told as _told

_ROWS = jnp.arange(12.0).reshape(3, 4)


def test_a_reduce_started_from_a_row_is_told_a_scalar():
    rule, fix = _told(lambda: lax.reduce(_ROWS, jnp.zeros(4), lax.add, (0,)))
    assert rule == "reduce-init-not-scalar" and "jnp.zeros((), _ROWS.dtype)" in fix
    lax.reduce(_ROWS, jnp.zeros((), _ROWS.dtype), lax.add, (0,))


def test_a_reduce_started_from_an_int_is_told_the_operands_dtype():
    rule, fix = _told(lambda: lax.reduce(_ROWS, 0, lambda a, b: a + b, (1,)))
    assert rule == "reduce-init-dtype" and "0.0" in fix and "jnp.zeros((), _ROWS.dtype)" in fix
    lax.reduce(_ROWS, 0.0, lambda a, b: a + b, (1,))


def test_a_window_reducer_that_returns_a_list_is_told_the_array():
    rule, fix = _told(lambda: lax.reduce_window(_ROWS, -jnp.inf, lambda a, b: [lax.max(a, b)], (2, 2), (1, 1), "VALID"))
    assert rule == "reducer-returns-list" and "not wrapped in a list" in fix
    lax.reduce_window(_ROWS, -jnp.inf, lax.max, (2, 2), (1, 1), "VALID")


def test_select_n_given_a_float_which_is_told_to_cast_it():
    pick = jnp.array([0.0, 1.0, 1.0])
    rule, fix = _told(lambda: lax.select_n(pick, _ROWS[0, :3], _ROWS[1, :3]))
    assert rule == "select-n-float-which" and "pick.astype(jnp.int32)" in fix
    lax.select_n(pick.astype(jnp.int32), _ROWS[0, :3], _ROWS[1, :3])


def test_lax_pad_given_pairs_is_told_the_triples():
    rule, fix = _told(lambda: lax.pad(_ROWS, 0.0, [(0, 1), (2, 0)]))
    assert rule == "lax-pad-pairs" and "[(0, 1, 0), (2, 0, 0)]" in fix
    lax.pad(_ROWS, 0.0, [(0, 1, 0), (2, 0, 0)])


def test_lax_pad_given_an_int_value_is_told_the_operands_dtype():
    rule, fix = _told(lambda: lax.pad(_ROWS, 1, [(0, 1, 0), (0, 0, 0)]))
    assert rule == "lax-pad-value-dtype" and "jnp.array(0, _ROWS.dtype)" in fix
    lax.pad(_ROWS, jnp.array(0, _ROWS.dtype), [(0, 1, 0), (0, 0, 0)])


def test_float_start_indices_are_told_to_cast():
    at = jnp.array(1.0)
    rule, fix = _told(lambda: lax.dynamic_slice(_ROWS, (at, at), (2, 2)))
    assert rule == "slice-start-not-int" and "(at.astype(jnp.int32), at.astype(jnp.int32))" in fix
    lax.dynamic_slice(_ROWS, (at.astype(jnp.int32), at.astype(jnp.int32)), (2, 2))


def test_one_padding_pair_for_a_2d_convolution_is_told_a_pair_per_axis():
    img, kern = jnp.ones((1, 1, 5, 5)), jnp.ones((1, 1, 3, 3))
    rule, fix = _told(lambda: lax.conv_general_dilated(img, kern, (1, 1), (2, 2)))
    assert rule == "conv-padding-pair" and "((2, 2), (2, 2))" in fix
    lax.conv_general_dilated(img, kern, (1, 1), ((2, 2), (2, 2)))


def test_tensordot_axes_as_arrays_are_told_tuples():
    a, b = jnp.ones((2, 3, 4)), jnp.ones((3, 4, 5))
    rule, fix = _told(lambda: jnp.tensordot(a, b, axes=(np.arange(1, 3), np.arange(2))))
    assert rule == "tensordot-axes-arrays" and "axes=((1, 2), (0, 1))" in fix
    jnp.tensordot(a, b, axes=((1, 2), (0, 1)))


def test_a_backend_by_position_is_told_the_keyword():
    rule, fix = _told(lambda: jax.local_devices("cpu"))
    assert rule == "backend-by-position" and "jax.local_devices(backend='cpu')" in fix
    jax.local_devices(backend="cpu")


def test_a_device_index_is_told_the_device():
    rule, fix = _told(lambda: jax.device_put(_ROWS, 0))
    assert rule == "device-index" and "jax.devices()[0]" in fix
    jax.device_put(_ROWS, jax.devices()[0])


def test_an_f_string_for_debug_print_is_told_a_template():
    def show(v):
        jax.debug.print(f"value {v}", v=v)
        return v
    rule, fix = _told(lambda: jax.jit(show)(1.0))
    assert rule == "debug-print-fstring" and "jax.debug.print('value {v}', v=v)" in fix
    jax.jit(lambda v: (jax.debug.print("value {v}", v=v), v)[1])(1.0)


def test_a_debug_print_field_without_its_keyword_is_told_it():
    def show(v, n):
        jax.debug.print("{n}: {v}", n=n)
        return v
    rule, fix = _told(lambda: jax.jit(show)(1.0, 2))
    assert rule == "debug-print-field" and "jax.debug.print('{n}: {v}', n=n, v=v)" in fix


def test_a_permutation_of_a_float_is_told_int():
    count = 4.0
    rule, fix = _told(lambda: jax.random.permutation(jax.random.key(0), count))
    assert rule == "permutation-of-a-float" and "int(count)" in fix
    jax.random.permutation(jax.random.key(0), int(count))


def test_choice_weights_of_another_axis_are_offered_axis():
    rule, fix = _told(lambda: jax.random.choice(jax.random.key(0), _ROWS, (2,), p=jnp.ones(4) / 4))
    assert rule == "choice-p-other-axis" and fix.startswith(GUESS) and "axis=1" in fix
    jax.random.choice(jax.random.key(0), _ROWS, (2,), p=jnp.ones(4) / 4, axis=1)


def test_categorical_without_the_batch_shape_is_told_it_at_the_end():
    logits = jnp.zeros((3, 5))
    rule, fix = _told(lambda: jax.random.categorical(jax.random.key(0), logits, shape=(7,)))
    assert rule == "categorical-shape-batch" and "shape=(n, *logits.shape[:-1])" in fix
    jax.random.categorical(jax.random.key(0), logits, shape=(7, *logits.shape[:-1]))


def test_a_key_path_entry_read_as_a_dict_key_is_told_str():
    class Box(NamedTuple):
        w: jax.Array

    def names():
        return [str(path[0].key) for path, _ in jax.tree_util.tree_flatten_with_path(Box(jnp.ones(2)))[0]]
    rule, fix = _told(names)
    # (told `str(entry)` until batch 22, whose `.name` read on a `DictKey` showed `str` changes the names:
    # each kind's own field is the fix, `keystr` where one path mixes kinds)
    assert rule == "key-path-entry-field" and "`GetAttrKey`'s own field, `.name`" in fix and "keystr" in fix


def test_a_wrong_inner_treedef_for_transpose_is_told_none():
    rows = [(1.0, 2.0), (3.0, 4.0)]
    outer = jax.tree.structure([0, 0])
    rule, fix = _told(lambda: jax.tree.transpose(outer, jax.tree.structure((0, 0, 0)), rows))
    assert rule == "transpose-inner-mismatch" and "None" in fix
    jax.tree.transpose(outer, None, rows)


def test_symbolic_zeros_primals_are_told_value():
    @jax.custom_vjp
    def twice(x):
        return 2.0 * x

    def fwd(x):
        return twice(x), None
    twice.defvjp(fwd, lambda _, g: (2.0 * g,), symbolic_zeros=True)
    rule, fix = _told(lambda: jax.grad(twice)(1.0))
    assert rule == "symbolic-zeros-primal" and "x.value" in fix


def test_leaves_filtered_before_unflatten_are_told_to_keep_the_others():
    tree = {"w": jnp.ones((2, 2)), "b": jnp.ones(2)}
    leaves, treedef = jax.tree.flatten(tree)
    rule, fix = _told(lambda: jax.tree.unflatten(treedef, [x * 2 for x in leaves if x.ndim == 1]))
    assert rule == "unflatten-dropped-leaves" and "[x * 2 if x.ndim == 1 else x for x in leaves]" in fix
    jax.tree.unflatten(treedef, [x * 2 if x.ndim == 1 else x for x in leaves])


def test_leaves_of_another_tree_are_not_told_a_filter():
    leaves = [1.0, 2.0, 3.0]
    assert _rule(lambda: jax.tree.unflatten(jax.tree.structure((0, 0)), leaves)) == "unflatten-other-treedef"


class _Pair(NamedTuple):
    a: jax.Array
    b: jax.Array


def test_two_classes_of_one_name_are_told_to_define_it_once():
    def restored():
        class _Pair(NamedTuple):     # the same name, a new class
            a: jax.Array
            b: jax.Array
        return _Pair(jnp.ones(2), jnp.ones(2))
    rule, fix = _told(lambda: jax.tree.map(jnp.add, _Pair(jnp.ones(2), jnp.ones(2)), restored()))
    assert rule == "classes-of-one-name" and "define the class once" in fix


def test_two_classes_of_other_names_are_not_of_one_name():
    Other = NamedTuple("Other", [("a", jax.Array), ("b", jax.Array)])
    rule = _rule(lambda: jax.tree.map(jnp.add, _Pair(jnp.ones(2), jnp.ones(2)), Other(jnp.ones(2), jnp.ones(2))))
    assert rule != "classes-of-one-name"


def test_a_string_given_to_a_parameter_named_backend_is_not_moved():
    assert _rule(lambda: jnp.ones(3, "cpu")) != "backend-by-position"

