"""Messages as a student sees them: in Jupyter, without grader frames; JAX's text cut only at a
word; fixes that fit the exercise; no empty colon; nothing that varies between runs."""
from __future__ import annotations

import os
import re

import jax.numpy as jnp
import pytest

from autograder import check
from autograder.checks import diagnose
from autograder.grading.session import StudentCodeError


def _message(fn, *args, **kwargs):
    with pytest.raises(AssertionError) as info:
        fn(*args, **kwargs)
    return str(info.value)


def _student_function(source: str, name: str, filename: str):
    """Define a function as the worker does: compiled from a cell file in a scratch directory."""
    os.makedirs(os.path.dirname(filename), exist_ok=True)
    with open(filename, "w") as fh:
        fh.write(source)
    ns = {"jnp": jnp}
    exec(compile(source, filename, "exec"), ns)
    return ns[name]


# ---------------------------------------------------------------- (a) Jupyter shows no grader frames
_IPYTHON = r"""
import json, re, sys
from IPython.core.interactiveshell import InteractiveShell
sh = InteractiveShell.instance(colors="nocolor")
shown = []
sh._showtraceback = lambda etype, value, stb: shown.append(re.sub(r"\x1b\[[0-9;]*m", "", sh.InteractiveTB.stb2text(stb)))
sh.run_cell("import jax.numpy as jnp\nfrom autograder import check\ndef add_one(x):\n    return x + 2\n")
failed = sh.run_cell("check.assert_close(add_one(jnp.ones(3)), jnp.full(3, 2.0), what='add_one(ones)')")
sh.run_cell("def mine():\n    assert 1 == 2, 'my own check'\nmine()")
print(json.dumps({"shown": shown, "is_assertion": isinstance(failed.error_in_exec, AssertionError)}))
"""


@pytest.fixture(scope="module")
def jupyter_tracebacks():
    """What IPython shows for a failed check and for a student's own assert (in a fresh process:
    an IPython shell changes global hooks)."""
    import json
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", _IPYTHON], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_jupyter_traceback_shows_the_test_line_then_the_message(jupyter_tracebacks):
    assert jupyter_tracebacks["is_assertion"]                    # the cell still fails
    text = jupyter_tracebacks["shown"][0]
    assert "check.py" not in text and "autograder" not in text, text
    assert "check.assert_close(add_one" in text                 # the student's test line
    assert text.index("check.assert_close(add_one") < text.index("[check] values of add_one(ones) failed")


def test_jupyter_shows_a_students_own_assertion_in_full(jupyter_tracebacks):
    text = jupyter_tracebacks["shown"][1]
    assert "my own check" in text and "mine()" in text and "assert 1 == 2" in text


# ---------------------------------------------------------------- (b) never cut mid-word
def test_shorten_cuts_at_a_word_or_sentence():
    text = ("Abstract tracer value encountered where concrete value is expected. "
            "This concrete value was not available in Python because it depends on the value of x.")
    for limit in range(20, len(text)):
        cut = diagnose.shorten(text, limit)
        assert cut.endswith(" …")
        body = cut[:-2].rstrip(".")
        assert text.startswith(body) and text[len(body)] in " .", (limit, cut)
    assert diagnose.shorten(text, len(text)) == text


def test_retrace_reason_is_not_cut_mid_word():
    def pick(x, s):
        return x * len(s)
    message = _message(check.assert_max_traces, pick,
                       [(jnp.ones(2), "a" * 300), (jnp.ones(2), "b" * 300)], static_argnums=(1,))
    reason = message.split("JAX's reason for the first retrace: ")[1].splitlines()[0]
    assert reason.endswith((" …", ")")) or len(reason) < 400, reason


# ---------------------------------------------------------------- (c) the fix fits the exercise
LOOP = "def repeated_square(x, n):\n    for _ in range(n):\n        x = x * x\n    return x\n"
WHILE = "def repeated_square(x, n):\n    while n > 0:\n        x = x * x\n        n = n - 1\n    return x\n"


@pytest.mark.parametrize("source", [LOOP, WHILE], ids=["range", "while"])
def test_a_traced_n_is_not_told_to_be_static(source, tmp_path):
    fn = _student_function(source, "repeated_square", str(tmp_path / "repeated_square.py"))
    message = _message(check.assert_jittable, fn, jnp.ones(4), jnp.int32(3))
    fix = message.split("fix: ")[1]
    assert "static" not in fix.replace("stays traced", ""), message
    assert "lax.fori_loop" in fix or "lax.while_loop" in fix


def test_a_python_int_n_is_told_it_may_be_static(tmp_path):
    """The near miss: the same loop, called with a Python int, may be made static."""
    fn = _student_function(LOOP, "repeated_square", str(tmp_path / "repeated_square.py"))
    message = _message(check.assert_jittable, fn, jnp.ones(4), 3)
    assert "static_argnames='n'" in message and "lax.fori_loop" in message


# ---------------------------------------------------------------- (d) the untouched stub
STUB = "def repeated_square(x, n):\n    # YOUR CODE HERE\n    raise NotImplementedError()\n"


def test_stub_message_has_no_empty_colon(tmp_path):
    fn = _student_function(STUB, "repeated_square", str(tmp_path / "repeated_square.py"))
    message = _message(check.assert_jittable, fn, jnp.ones(4), jnp.int32(3))
    assert "NotImplementedError at line 3 of repeated_square: `raise NotImplementedError()`\n" in message
    assert not re.search(r":\s*$", message.splitlines()[0])
    try:
        fn(jnp.ones(4), 3)
    except NotImplementedError as exc:
        desc = diagnose.describe_exception(exc)
    text = str(StudentCodeError(desc))
    assert text.startswith("NotImplementedError (line 3 of repeated_square")
    assert "replace the stub" in text and "NotImplementedError:" not in text


# ---------------------------------------------------------------- (e) nothing that varies between runs
def test_no_scratch_path_in_a_message(tmp_path):
    scratch = tmp_path / "jaxcourse-worker-abc123"
    source = ("_seen = []\n"
              "def keep(x):\n    _seen.append(x)\n    return x\n"
              "def leaky(x):\n    import jax\n    jax.jit(keep)(x)\n    return x + _seen[-1]\n")
    fn = _student_function(source, "leaky", str(scratch / "leaky.py"))
    message = _message(check.assert_jittable, fn, jnp.ones(2))
    assert "UnexpectedTracerError" in message
    assert "jaxcourse-worker" not in message and str(tmp_path) not in message, message
    assert "_seen.append(x)" in message                         # the student's line instead


def test_no_object_ids_in_a_retrace_message():
    class Opt:
        def __init__(self, lr):
            self.lr = lr

    def step(opt, w):
        return w * opt.lr
    message = _message(check.assert_max_traces, step, [(Opt(0.1), jnp.ones(2)) for _ in range(2)],
                       static_argnums=(0,))
    assert not re.search(r"0x[0-9a-f]{6,}", message), message
    assert "`__hash__` and `__eq__`" in message


@pytest.mark.parametrize("reasons", [
    ["at x, now f32[4] and before f32[3]"],                      # jax 0.10's wording
    ["for x: bf16[2,3] now, was bf16[2,4]"],                      # another dtype, other words
    ["never seen input type signature:", "  x: bool[5]"],        # older releases
    ["the shape of x changed"],
])
def test_retrace_reasons_are_read_whatever_the_wording_and_dtype(reasons):
    """The fallback reading of JAX's cache-miss explanations (used when no argument change was
    found) keys on avals of any dtype and on a few stable words, not on one release's sentence."""
    from autograder.checks.diagnose import explain_retrace
    cause, _ = explain_retrace(None, reasons)
    assert cause == "the shape or dtype of an argument changes between calls"


def test_a_compiled_extensions_frame_is_not_the_students_line():
    """NumPy's random module is Cython: its frames name their .pyx source by a relative path, which
    no library marker matches; the student's line is the one that called it (batch 7's host_centroids)."""
    from autograder.checks.facts import is_student_frame
    assert not is_student_frame("numpy/random/_mt19937.pyx")
    assert not is_student_frame("numpy/random/mtrand.pyx")
    assert is_student_frame("/tmp/ipykernel_4242/1234.py") and is_student_frame("/home/alice/work/helpers.py")
