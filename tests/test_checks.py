"""Every check passes a good submission and fails a bad one, with a message naming cause and fix.

Each test runs twice: `local` (the function lives in this process, as under nbgrader) and `remote`
(the function lives in a sandboxed worker and only plain data comes back, as under the CLI).
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from autograder import check
from autograder.course import Assignment
from autograder.course.notebook import Cell
from autograder.course.exports import top_level_names
from autograder.grading.session import GradingSession

STUDENT = '''
import functools
import numpy as np
import jax
import jax.extend.random
import jax.numpy as jnp
from jax import lax

def good_mask(x, m):
    return jnp.where(m, -100.0, x)

def bool_index(x, m):
    return x.at[m].set(-100.0)

def python_if(x):
    if x.sum() > 0:
        return x
    return -x

def python_and(x):
    return x if (x.sum() > 0 and x.max() < 10) else -x

def to_float(x):
    return float(x.sum()) * x

def nonzero(x):
    return x[jnp.nonzero(x < 0)]

def range_loop(x, n):
    for _ in range(n):
        x = x * x
    return x

def fori(x, n):
    return lax.fori_loop(0, n, lambda i, y: y * y, x)

def fstring_print(x):
    print(f"loss {x.sum():.4f}")
    return x

def np_convert(x):
    return jnp.asarray(np.asarray(x) * 2)

def traced_shape(v, n):
    return jnp.full((n,), v)

def traced_slice(x, i):
    return x[i:i + 2]

def dyn_slice(x, i):
    return lax.dynamic_slice(x, (i,), (2,))

_leak = []
def leaky(x):
    _leak.append(x)
    return x

def uses_leaked_tracer(x):
    jax.jit(leaky)(x)
    return x + _leak[-1]

def static_n(x, n):
    return x * n

def create_filled(v, n):
    return jnp.full((n,), v)

create_filled_jit = jax.jit(create_filled, static_argnums=1)

def halve_cond(x):
    return lax.cond(jnp.max(x) - jnp.min(x) > 1.0, lambda y: y / 2, lambda y: y, x)

def halve_where(x):
    return jnp.where(jnp.max(x) - jnp.min(x) > 1.0, x / 2, x)

def act_switch(x, k):
    return lax.switch(k, [lambda y: y, jax.nn.relu, jnp.tanh, jax.nn.sigmoid], x)

def act_two_conds(x, k):
    return lax.cond(k == 0, lambda y: y, lambda y: lax.cond(k == 1, jax.nn.relu, jnp.tanh, y), x)

# a loop or branch that is there but does no work (red team, issue: structure by presence only)
def power_with_idle_while(x, n):
    n = lax.while_loop(lambda c: False, lambda c: c, jnp.asarray(n, jnp.int32))
    return jnp.where(n == 0, x, jnp.abs(x) ** (2.0 ** n.astype(jnp.float32)))

def power_with_unused_loop(x, n):
    busy = lax.fori_loop(0, n, lambda i, c: jnp.tanh(c), x)     # runs n times, its result thrown away
    return jnp.abs(x) ** (2.0 ** jnp.asarray(n, jnp.float32)) + 0.0 * busy

def collatz_while(n):
    step = lambda c: (jnp.where(c[0] % 2 == 0, c[0] // 2, 3 * c[0] + 1), c[1] + 1)
    return lax.while_loop(lambda c: c[0] != 1, step, (n, 0))[1]

def ema_scan(x, alpha):
    step = lambda y, r: (alpha * r + (1 - alpha) * y, alpha * r + (1 - alpha) * y)
    return jnp.concatenate([x[:1], lax.scan(step, x[0], x[1:])[1]])

def ema_scan_as_map(x, alpha):
    # a scan whose iterations do not feed each other (its carry only counts), then a closed form
    _, ys = lax.scan(lambda c, r: (c + 1.0, alpha * r), 0.0, x)
    w = (1 - alpha) ** jnp.arange(x.shape[0], dtype=x.dtype)
    return jnp.cumsum(ys / w) * w + (1 - alpha) * w * (x[0] - ys[0] / alpha * alpha)

def halve_idle_cond(x):
    x = lax.cond(True, lambda v: v, lambda v: v, x)
    return jnp.where(jnp.max(x) - jnp.min(x) > 1.0, x / 2, x)

def halve_same_branches(x):
    y = lax.cond(jnp.max(x) - jnp.min(x) > 1.0, lambda v: v * 1.0, lambda v: v + 0.0, x)
    return jnp.where(jnp.max(x) - jnp.min(x) > 1.0, y / 2, y)

def halve_constant_index(x):
    return jnp.where(jnp.max(x) - jnp.min(x) > 1.0, lax.cond(True, lambda v: v / 2, lambda v: v, x), x)

def act_idle_switch(x, k):
    x = lax.switch(0, [lambda v: v] * 4, x)
    k = jnp.clip(k, 0, 3)
    return jnp.select([k == 0, k == 1, k == 2], [x, jax.nn.relu(x), jnp.tanh(x)], jax.nn.sigmoid(x))

def fori_printing(x, n):
    jax.debug.print("x={x}", x=x)
    return lax.fori_loop(0, n, lambda i, y: y * y, x)

def fori_with_callback(x, n):
    squared = jax.pure_callback(lambda a: np.asarray(a) ** 2, jax.ShapeDtypeStruct(x.shape, x.dtype), x)
    return lax.fori_loop(0, n, lambda i, y: y * y, squared)

def dists_in_callback(x, y):
    def host(a, b):
        a, b = np.asarray(a), np.asarray(b)
        return ((a[:, None, :] - b[None, :, :]) ** 2).sum(-1).astype(a.dtype)
    return jax.pure_callback(host, jax.ShapeDtypeStruct((x.shape[0], y.shape[0]), x.dtype), x, y)

def dists_in_io_callback(x, y):
    from jax.experimental import io_callback
    host = lambda a, b: ((np.asarray(a)[:, None] - np.asarray(b)[None]) ** 2).sum(-1).astype(np.float32)
    return io_callback(host, jax.ShapeDtypeStruct((x.shape[0], y.shape[0]), x.dtype), x, y)

def hvp_fwd_over_rev(f, x, v):
    return jax.jvp(jax.grad(f), (x,), (v,))[1]

def hvp_full_hessian(f, x, v):
    return jax.hessian(f)(x) @ v

def quartic(x):
    return jnp.sum(x ** 4)

def debug_mean(x):
    m = x.mean()
    jax.debug.print("mean={m}", m=m)
    return m

def print_mean(x):
    m = x.mean()
    print(f"mean={m}")
    return m

def two_draws_split(key):
    k1, k2 = jax.random.split(key)
    return jax.random.normal(k1, (2,)) + jax.random.normal(k2, (2,))

def two_draws_reuse(key):
    return jax.random.normal(key, (2,)) + jax.random.normal(key, (2,))

# Keys used once, in the idioms a student writes (each must pass), and the same idioms reusing one.
def keys_unpacked(key):
    key, *subkeys = jax.random.split(key, 4)
    return key, jax.vmap(lambda k: jax.random.normal(k, (2,)))(jnp.stack(subkeys))

def keys_unpacked_reuse(key):
    key, *subkeys = jax.random.split(key, 4)
    return key, jax.vmap(lambda k: jax.random.normal(k, (2,)))(jnp.stack([subkeys[0]] + subkeys[:2]))

def keys_stacked(key):
    a, b = jax.random.split(key)
    return jax.vmap(jax.random.uniform)(jnp.stack([a, b]))

def keys_stacked_reuse(key):
    a, b = jax.random.split(key)
    return jax.vmap(jax.random.uniform)(jnp.stack([a, a]))

def keys_indexed(key):
    ks = jax.random.split(key, 3)
    return jax.random.normal(ks[0]) + jax.random.uniform(ks[1]) + jax.random.bernoulli(ks[2])

def keys_indexed_reuse(key):
    ks = jax.random.split(key, 3)
    return jax.random.normal(ks[1]) + jax.random.uniform(ks[1])

def keys_fold_in(key):
    return jnp.stack([jax.random.normal(jax.random.fold_in(key, i)) for i in range(3)])

def keys_fold_in_reuse(key):
    return jnp.stack([jax.random.normal(jax.random.fold_in(key, 1)) for i in range(3)])

def keys_split_in_vmap(key):
    return jax.vmap(lambda k: jax.random.normal(jax.random.split(k)[1]))(jax.random.split(key, 4))

def keys_split_in_vmap_reuse(key):
    def one(k):
        a, b = jax.random.split(k)
        return jax.random.normal(a) + jax.random.normal(k)
    return jax.vmap(one)(jax.random.split(key, 4))

def keys_split_in_scan(key):
    def step(k, _):
        k, sub = jax.random.split(k)
        return k, jax.random.normal(sub)
    return lax.scan(step, key, None, length=4)

def keys_split_in_scan_reuse(key):
    def step(k, _):
        return k, jax.random.normal(k)
    return lax.scan(step, key, None, length=4)

# The same, drawn through JAX's PRNG on raw key data (issue 34): the threefry function of
# jax.extend.random, its primitive on key_data's words, and a key rebuilt with wrap_key_data.
def keys_extend_threefry(key):
    counts = jnp.arange(4, dtype=jnp.uint32)
    draw = lambda k: jax.extend.random.threefry_2x32(k, counts)
    key, *subkeys = jax.random.split(key, 4)
    return key, jax.vmap(draw)(jax.random.key_data(jnp.stack(subkeys)))

def keys_extend_threefry_reuse(key):
    counts = jnp.arange(4, dtype=jnp.uint32)
    a, b = jax.random.split(key)
    again = jax.extend.random.threefry_2x32(jax.random.key_data(key), counts)   # the key that was split
    return jax.random.normal(a) + jax.random.normal(b), again

def keys_key_data_threefry(key):
    counts = jnp.arange(3, dtype=jnp.uint32)
    a, b = jax.random.split(key)
    k1, k2 = jax.random.key_data(a)
    bits = jax.extend.random.threefry2x32_p.bind(k1, k2, counts, counts)
    return bits, jax.random.normal(b, (2,))

def keys_key_data_threefry_reuse(key):
    counts = jnp.arange(3, dtype=jnp.uint32)
    a, b = jax.random.split(key)
    k1, k2 = jax.random.key_data(a)
    bits = jax.extend.random.threefry2x32_p.bind(k1, k2, counts, counts)
    return bits, jax.random.normal(a, (2,)), jax.random.normal(b, (2,))

def keys_wrap_key_data(key):
    a, b = jax.random.split(key)
    return jax.random.normal(jax.random.wrap_key_data(jax.random.key_data(a))) + jax.random.normal(b)

def keys_wrap_key_data_reuse(key):
    a, b = jax.random.split(key)
    return jax.random.normal(jax.random.wrap_key_data(jax.random.key_data(a))) + jax.random.normal(a)

def keys_in_batched_while(keys):
    def one(k):
        def body(c):
            k, x = c
            k, sub = jax.random.split(k)
            return k, x + jax.random.uniform(sub)
        return lax.while_loop(lambda c: c[1] < 2.0, body, (k, 0.0))
    return jax.vmap(one)(keys)

def keys_in_batched_while_reuse(keys):
    def one(k):
        return lax.while_loop(lambda c: c[1] < 2.0, lambda c: (c[0], c[1] + jax.random.uniform(c[0])), (k, 0.0))
    return jax.vmap(one)(keys)

def keys_unwatched(key):
    from jax._src.random import prng
    watched = prng.random_bits_p.impl
    prng.random_bits_p.impl = lambda *a, **p: watched(*a, **p)   # a new object in the watch's place
    return jax.random.normal(key) + jax.random.normal(key)

def mutates(x):
    x[0] = 5.0
    return jnp.asarray(x)

def copies(x):
    return jnp.asarray(x).at[0].set(5.0)

def bucket(x):
    if len(x) > 4:
        raise ValueError("too long")
    return x

def second(f):
    return jax.grad(jax.grad(f))
'''


@pytest.fixture(scope="module")
def remote_session(limits):
    cells = [Cell(0, "setup", "setup", "import jax\nimport jax.numpy as jnp\nfrom autograder import check"),
             Cell(1, "solution", "student", STUDENT, exercise="student"),
             # the tests below call every function of the cell: a test cell that names them all
             Cell(2, "test", "student_correctness", "\n".join(sorted(top_level_names(STUDENT))),
                  exercise="student", kind="correctness")]
    session = GradingSession(Assignment("unit", None, cells), {"student": STUDENT}, limits)
    session.ensure_worker()
    yield session
    session.close()


@pytest.fixture(params=["local", "remote"])
def fns(request, tmp_path_factory):
    if request.param == "local":
        path = tmp_path_factory.mktemp("cell") / "student_cell.py"
        path.write_text(STUDENT)  # a real file, as a kernel cell has: tracebacks show its lines
        ns: dict = {}
        exec(compile(STUDENT, str(path), "exec"), ns)
        return ns
    session = request.getfixturevalue("remote_session")
    return session._test_namespace()


x4 = jnp.arange(4.0) - 1.0
m4 = jnp.array([True, False, True, False])


def fails(fn, *args, contains=(), **kwargs):
    with pytest.raises(AssertionError) as info:
        fn(*args, **kwargs)
    msg = str(info.value)
    for word in contains:
        assert word in msg, f"{word!r} not in message:\n{msg}"
    return msg


# ------------------------------------------------------------------ closeness
def test_close_passes_equal_trees(fns):
    check.assert_close(fns["good_mask"](x4, m4), jnp.array([-100.0, 0.0, -100.0, 2.0]))
    check.assert_close({"a": [jnp.ones(2)], "b": jnp.int32(3)}, {"a": [jnp.ones(2)], "b": jnp.int32(3)})


@pytest.mark.parametrize("actual, expected, words", [
    ([{"W": jnp.ones((2, 3))}], [{"W": jnp.ones((3, 2))}], ["[0]['W']", "(2, 3)", "transposed"]),
    (jnp.ones(3, jnp.int32), jnp.ones(3), ["dtype", "int32", "float32"]),
    (jnp.array([1.0, 2.0, 3.0]), jnp.array([1.0, 2.5, 3.0]), ["mismatched elements: 1 / 3", "index [1]"]),
    ((jnp.ones(2),), [jnp.ones(2)], ["structure"]),
    ("not an array", jnp.ones(2), ["type", "str"]),
    (1.5, jnp.int32(1), ["Python float"]),
])
def test_close_fails_with_evidence(actual, expected, words):
    fails(check.assert_close, actual, expected, what="out", contains=words)


def test_close_on_a_nan_answer_warns_nothing_and_reports_inf():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an all-NaN RuntimeWarning would show in the notebook
        fails(check.assert_close, jnp.array([jnp.nan, 1.0]), jnp.array([1.0, 1.0]),
              contains=["nan (actual)", "max abs diff inf"])


def test_close_fails_on_wrong_student_value(fns):
    fails(check.assert_close, fns["good_mask"](x4, m4), jnp.zeros(4), what="good_mask(x, m)",
          contains=["values of good_mask(x, m)"])


def test_raises(fns):
    check.assert_raises(ValueError, fns["bucket"], jnp.ones(5))
    fails(check.assert_raises, ValueError, fns["bucket"], jnp.ones(3), contains=["returned normally"])
    fails(check.assert_raises, KeyError, fns["bucket"], jnp.ones(5), contains=["raised ValueError"])


# ------------------------------------------------------------------ jit: every classic mistake
def test_jittable_passes(fns):
    check.assert_jittable(fns["good_mask"], x4, m4)
    check.assert_jittable(fns["fori"], 1.0, 5)
    check.assert_jittable(fns["traced_shape"], 1.0, 3, static_argnums=(1,))
    check.assert_jittable(fns["dyn_slice"], x4, 1)
    check.assert_jittable(fns["create_filled_jit"], 1.0, 3)


def test_a_function_that_donates_its_inputs_is_graded_on_copies():
    """Each call of a check gets its own copy of the inputs: a student's jit with `donate_argnums`
    deletes what it is given, which must be neither the caller's arrays nor the next call's. The
    copies keep what the function can see (dtype, weak type, committed placement)."""
    donating = jax.jit(lambda x, y: x * 2 + y, donate_argnums=(0, 1))
    x = jnp.arange(4.0)
    y = jax.device_put(jnp.ones(4, jnp.bfloat16), jax.devices()[0])
    check.assert_jittable(donating, x, y)
    check.assert_max_traces(donating, [(x, y), (x + 1, y)], max_traces=1)
    assert not x.is_deleted() and not y.is_deleted()
    from autograder.checks.agreement import fresh_inputs
    for leaf in (x, y, jnp.asarray(2.0), np.ones(3), jax.random.key(1)):
        copy = fresh_inputs(leaf)
        assert copy is not leaf and type(copy) is type(leaf) and copy.dtype == leaf.dtype
        if isinstance(leaf, jax.Array) and not jax.dtypes.issubdtype(leaf.dtype, jax.dtypes.prng_key):
            assert (copy.weak_type, copy.committed) == (leaf.weak_type, leaf.committed)
            assert copy.unsafe_buffer_pointer() != leaf.unsafe_buffer_pointer()


@pytest.mark.parametrize("name, args, static, words", [
    ("bool_index", (x4, m4), (), ["NonConcreteBooleanIndexError", "jnp.where"]),
    ("python_if", (x4,), (), ["TracerBoolConversionError", "lax.cond", "line"]),
    ("python_and", (x4,), (), ["TracerBoolConversionError"]),
    ("to_float", (x4,), (), ["ConcretizationTypeError", "float("]),
    ("nonzero", (x4,), (), ["ConcretizationTypeError", "size="]),
    ("range_loop", (1.0, 3), (), ["TracerIntegerConversionError", "fori_loop"]),
    ("np_convert", (x4,), (), ["TracerArrayConversionError", "jnp"]),
    ("fstring_print", (x4,), (), ["TypeError", "formatting a traced value", "jax.debug.print"]),
    ("traced_shape", (1.0, 3), (), ["TypeError", "static_argnums"]),
    ("traced_slice", (x4, 1), (), ["IndexError", "dynamic_slice"]),
    ("uses_leaked_tracer", (x4,), (), ["UnexpectedTracerError", "pure"]),
    ("static_n", (x4, [1, 2]), (1,), ["ValueError", "hashable"]),
])
def test_jittable_fails_with_cause_and_fix(fns, name, args, static, words):
    msg = fails(check.assert_jittable, fns[name], *args, static_argnums=static, contains=words)
    assert "fix:" in msg and "cause:" in msg


def test_jit_error_names_the_student_line(fns):
    msg = fails(check.assert_jittable, fns["python_if"], x4)
    assert "if x.sum() > 0:" in msg


# ------------------------------------------------------------------ retrace
def test_no_retrace_passes(fns):
    check.assert_max_traces(fns["good_mask"], [(x4, m4), (x4 + 1, ~m4), (x4 * 2, m4)])
    check.assert_max_traces(fns["fori"], [(1.0, 3), (2.0, 5)])


def test_retrace_from_shape_change(fns):
    fails(check.assert_max_traces, fns["good_mask"], [(x4, m4), (jnp.ones(5), jnp.ones(5, bool))],
          contains=["2 traces", "f32[5]", "shape"])


def test_retrace_from_static_value(fns):
    calls = [(x4, 1), (x4, 2), (x4, 3)]
    check.assert_max_traces(fns["static_n"], calls, static_argnums=(1,), max_traces=3)
    fails(check.assert_max_traces, fns["static_n"], calls, static_argnums=(1,), contains=["3 traces", "static"])


def test_retrace_from_weak_type(fns):
    fails(check.assert_max_traces, fns["static_n"], [(x4, 2.0), (x4, jnp.float32(2.0))],
          contains=["weak"])


def test_retrace_counts_a_student_jit_with_its_own_static_args(fns):
    calls = [(1.0, 3), (2.0, 3), (1.0, 4)]
    check.assert_max_traces(fns["create_filled_jit"], calls, max_traces=2)
    fails(check.assert_max_traces, fns["create_filled_jit"], calls, max_traces=1, contains=["2 traces"])


def test_retrace_reports_a_failing_call(fns):
    fails(check.assert_max_traces, fns["bool_index"], [(x4, m4)], contains=["call 1", "jnp.where"])


# ------------------------------------------------------------------ structure
def test_loop_primitive(fns):
    check.assert_has_primitive(fns["fori"], (1.0, 5), ("while", "scan"))
    fails(check.assert_has_primitive, fns["range_loop"], (1.0, 5), ("while", "scan"),
          static_argnums=(1,), contains=["no while/scan"])


def test_required_loop_must_do_the_work(fns):
    """Present is not enough: the loop must matter to the result (checks/work.py). A loop that runs
    zero times, or runs and is thrown away, or a scan whose iterations do not feed each other, fails;
    while loops, fori_loops (traced and static counts) and scans that carry the work pass, on inputs of
    ones too (squaring ones changes nothing: the check moves the inputs)."""
    x = jnp.ones(4)
    check.assert_has_primitive(fns["fori"], (x, jnp.int32(1000)), ("while", "scan"))
    check.assert_has_primitive(fns["fori"], (x, 10), ("while", "scan"), static_argnums=(1,))
    check.assert_has_primitive(fns["collatz_while"], (jnp.int32(27),), "while")
    check.assert_has_primitive(fns["ema_scan"], (jnp.ones(1000), 0.5), "scan")
    for name, args in [("power_with_idle_while", (x, jnp.int32(1000))), ("power_with_unused_loop", (x, jnp.int32(7)))]:
        fails(check.assert_has_primitive, fns[name], args, ("while", "scan"), fix="loop with lax.fori_loop",
              contains=["does not depend on it", "zero iterations", "closed form", "fix: loop with lax.fori_loop"])
    fails(check.assert_has_primitive, fns["ema_scan_as_map"], (jnp.ones(1000), 0.5), "scan",
          contains=["does not depend on it", "carry never updated", "do not feed each other"])
    check.assert_has_primitive(fns["fori"], (x, jnp.int32(3)), "mul")   # not a loop or branch: presence alone


def test_required_cond_must_choose_the_result(fns):
    """A cond whose branches are the same function, or whose result is not returned, fails; one whose
    index is a constant fails as such; real conds pass whichever branch the input takes."""
    wide = jnp.array([0.0, 3.0, 1.0])
    check.assert_cond_branches(fns["halve_cond"], (jnp.ones(3),), 2)
    check.assert_cond_branches(fns["act_switch"], (jnp.ones((3, 3)), jnp.int32(0)), 4)
    for name in ("halve_idle_cond", "halve_same_branches"):
        fails(check.assert_cond_branches, fns[name], (wide,), 2,
              contains=["does not depend on which branch runs", "jnp.where", "lax.cond(pred"])
    fails(check.assert_cond_branches, fns["halve_constant_index"], (wide,), 2,
          contains=["index is a constant", "constant predicate"])
    fails(check.assert_cond_branches, fns["act_idle_switch"], (jnp.ones((3, 3)), jnp.int32(2)), 4,
          contains=["does not depend on which branch runs", "lax.switch"])


def test_host_callbacks_fail_every_structure_check(fns):
    """Work a callback does on the host is in no jaxpr: no structure check vouches for it. A
    debug print returns nothing into the program and is allowed."""
    x = jnp.ones(4)
    check.assert_has_primitive(fns["fori_printing"], (x, jnp.int32(5)), ("while", "scan"))
    fails(check.assert_has_primitive, fns["fori_with_callback"], (x, jnp.int32(5)), ("while", "scan"),
          contains=["calls host code (pure_callback)", "cannot see how it is computed", "without a callback"])
    fails(check.assert_not_unrolled, fns["fori_with_callback"], (x, 10), (x, 1000), static_argnums=(1,),
          contains=["pure_callback"])
    a, b = jnp.ones((64, 8)), jnp.ones((32, 8))
    for name, prim in [("dists_in_callback", "pure_callback"), ("dists_in_io_callback", "io_callback")]:
        fails(check.assert_no_large_intermediate, fns[name], (a, b), 64 * 32 * 8,
              contains=[f"calls host code ({prim})", "structure check cannot inspect"])


def test_unrolled_loop(fns):
    check.assert_not_unrolled(fns["fori"], (1.0, 10), (1.0, 1000), static_argnums=(1,))
    fails(check.assert_not_unrolled, fns["range_loop"], (1.0, 10), (1.0, 1000), static_argnums=(1,),
          contains=["unrolled", "fori_loop", "grows from"])


def test_cond_branches(fns):
    check.assert_cond_branches(fns["halve_cond"], (x4,), 2)
    check.assert_cond_branches(fns["act_switch"], (x4, 2), 4)
    fails(check.assert_cond_branches, fns["halve_where"], (x4,), 2, contains=["select_n", "lax.cond"])
    fails(check.assert_cond_branches, fns["act_two_conds"], (x4, 2), 4, contains=["[2, 2]", "lax.switch"])


def test_no_large_intermediate(fns):
    n = 300
    x, v = jnp.ones(n), jnp.ones(n)
    check.assert_no_large_intermediate(fns["hvp_fwd_over_rev"], (fns["quartic"], x, v), n * n,
                                       static_argnums=(0,))
    fails(check.assert_no_large_intermediate, fns["hvp_full_hessian"], (fns["quartic"], x, v), n * n,
          static_argnums=(0,), contains=["[300, 300]"])


# ------------------------------------------------------------------ effects, keys, purity
def test_prints_every_call(fns):
    calls = [(x4,), (x4 + 1,), (x4 + 2,)]
    check.assert_prints(fns["debug_mean"], calls, expected_lines=3, pattern=r"mean=-?[0-9.]+")
    fails(check.assert_prints, fns["print_mean"], calls, expected_lines=3,
          contains=["1 line(s)", "jax.debug.print", "trace time"])


def test_key_reuse(fns):
    key = jax.random.key(0)
    check.assert_no_key_reuse(fns["two_draws_split"], key)
    fails(check.assert_no_key_reuse, fns["two_draws_reuse"], key,
          contains=["consumed twice", "jax.random.normal at line", "of two_draws_reuse", "jax.random.split"])


KEY_FORMS = ["unpacked", "stacked", "indexed", "fold_in", "split_in_vmap", "split_in_scan",
             "extend_threefry", "key_data_threefry", "wrap_key_data"]


@pytest.mark.parametrize("make_key", [jax.random.key, jax.random.PRNGKey], ids=["typed", "raw"])
@pytest.mark.parametrize("form", KEY_FORMS)
def test_key_reuse_is_judged_by_the_keys_consumed(fns, form, make_key):
    """Each key used once passes, whatever the idiom (JAX's own checker fails the unpacked one);
    one key consumed twice in the same idiom fails, naming both uses."""
    check.assert_no_key_reuse(fns[f"keys_{form}"], make_key(3))
    fails(check.assert_no_key_reuse, fns[f"keys_{form}_reuse"], make_key(3),
          contains=["the same key was consumed twice", "at line", "fix:"])


def test_key_reuse_out_of_sight_falls_back_to_jaxs_checker(fns):
    """A loop whose condition vmap batches runs compiled, where draws cannot be watched one by one."""
    keys = jax.random.split(jax.random.key(0), 3)
    check.assert_no_key_reuse(fns["keys_in_batched_while"], keys)
    fails(check.assert_no_key_reuse, fns["keys_in_batched_while_reuse"], keys,
          contains=["KeyReuseError", "JAX's key-reuse checker", "compiled while"])


def test_key_reuse_watch_removed_is_implausible(fns):
    fails(check.assert_no_key_reuse, fns["keys_unwatched"], jax.random.key(0), contains=["implausible"])


def test_key_reuse_split_and_drawn_is_named():
    def split_and_draw(key):
        a, b = jax.random.split(key)
        return jax.random.normal(key) + jax.random.normal(a) + jax.random.normal(b)
    fails(check.assert_no_key_reuse, split_and_draw, jax.random.key(0),
          contains=["by jax.random.split at line", "then by jax.random.normal", "was also drawn from"])


def test_key_reuse_through_raw_key_data_is_named(fns):
    """A split key drawn again through threefry on its raw data (jax.extend.random) is seen at the
    primitive, and named as such."""
    fails(check.assert_no_key_reuse, fns["keys_extend_threefry_reuse"], jax.random.key(0),
          contains=["by jax.random.split at line",
                    "then by the threefry2x32 primitive on raw key data at line", "was also drawn from"])


def test_keys_consumed_are_counted_when_asked():
    """`consumes`: one split and one draw per sample key pass; drawing nothing (no reuse, because no
    use) and drawing every sample from one key of the split fail, with the count."""
    def by_convention(key, n):
        keys = jax.random.split(key, n + 1)
        return keys[0], jax.vmap(lambda k: jax.random.normal(k, (2,)))(keys[1:])

    def draws_nothing(key, n):
        return key, jnp.zeros((n, 2))

    def one_key_for_all(key, n):
        keys = jax.random.split(key, n + 1)
        return keys[0], jax.random.normal(keys[1], (n, 2))

    check.assert_no_key_reuse(by_convention, jax.random.key(1), 4, consumes=5)
    fails(check.assert_no_key_reuse, draws_nothing, jax.random.key(1), 4, consumes=5,
          contains=["consumed 0 key(s) where this call should consume 5", "fix:"])
    fails(check.assert_no_key_reuse, one_key_for_all, jax.random.key(1), 4, consumes=5,
          contains=["consumed 2 key(s)"])
    check.assert_no_key_reuse(draws_nothing, jax.random.key(1), 4)      # without `consumes`: no reuse


def test_key_reuse_inside_jaxs_own_operations_is_not_counted_again():
    """The threefry2x32 calls inside a draw, a split or fold_in, and the splits and draws that
    jax.random.gamma makes from its key inside its primitive, are that operation's own work."""
    def gamma_and_fold(key):
        a, b = jax.random.split(key)
        return jax.random.gamma(a, 2.0, (3,)), jax.random.normal(jax.random.fold_in(b, 1))
    check.assert_no_key_reuse(gamma_and_fold, jax.random.key(0))


def test_inputs_unchanged(fns):
    check.assert_inputs_unchanged(fns["copies"], np.ones(3, np.float32))
    fails(check.assert_inputs_unchanged, fns["mutates"], np.ones(3, np.float32), contains=["in place"])


def test_returned_function_is_usable(fns):
    d2 = fns["second"](lambda t: t ** 3)
    check.assert_close(d2(2.0), jnp.asarray(12.0, jnp.float32), what="second(f)(2.0)")
    check.assert_jittable(d2, 2.0)
