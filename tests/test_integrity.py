"""The worker's tamper check (`sandbox/integrity.py`) on its own: what it reports and what it lets
pass, case by case, in one fresh interpreter (the cases change jax's own modules and classes, so
they never run in the test process). End to end, the hostile corpus grades the same attacks."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Each case: code run after the snapshot, then undone (UNDO) before the next case.
CASES = {
    "nothing": ("", []),
    "a counter rebound": ("import numpy\nnumpy._a_counter_for_the_test = 1\n", []),
    "a plain value changed": ("import json\njson.__version__ = '0'\n", []),
    "a function replaced": ("import jax\njax.make_jaxpr = print\n", ["jax.make_jaxpr was replaced"]),
    "a function deleted": ("import jax.numpy as jnp\ndel jnp.allclose\n", ["jax.numpy.allclose was deleted"]),
    "a method added to a class": ("import jax\njax.Array.extra = 1\n", ["Array.extra was added"]),
    "hidden by a module class": (
        "import types, jax\n_old = dict(vars(jax))\n"
        "class _Quiet(types.ModuleType):\n    @property\n    def __dict__(self):\n        return _old\n"
        "jax.make_jaxpr = print\njax.__class__ = _Quiet\n",
        ["module jax was given another class", "jax.make_jaxpr was replaced"]),
    "answered by a module's __getattribute__": (
        "import types, jax.numpy as jnp\n"
        "class _Answering(types.ModuleType):\n    def __getattribute__(self, name):\n"
        "        return print if name == 'allclose' else super().__getattribute__(name)\n"
        "jnp.__class__ = _Answering\n",
        ["module jax.numpy was given another class"]),
    "hidden by a metaclass": (
        "import jax\n_old = dict(vars(jax.Array))\n"
        "class _Meta(type(jax.Array)):\n    @property\n    def __dict__(cls):\n        return _old\n"
        "jax.Array.__eq__ = lambda s, o: True\njax.Array.__class__ = _Meta\n",
        ["Array was given another metaclass", "Array.__eq__ was replaced or deleted"]),
    "NumPy told to raise on floating-point errors": ("import numpy\nnumpy.seterr(all='raise')\n",
                                                      ["NumPy's floating-point error handling (np.seterr) was changed"]),
    "a hook for threads' exceptions": ("import threading\nthreading.excepthook = print\n",
                                        ["threading.excepthook was changed"]),
    "the thread-state handles retyped": ("from autograder.sandbox import integrity\n"
                                         "integrity._THREAD_NEXT.restype = None\n",
                                         ["the interpreter's thread-state handles were retyped"]),
    "ctypes' shared pointer retyped": ("import ctypes\nctypes.pythonapi.PyThreadState_Next.restype = None\n", []),
    "NumPy's error handling changed and restored": (
        "import numpy\nwith numpy.errstate(all='raise'):\n    numpy.ones(1) / 1\n", []),
}

SCRIPT = textwrap.dedent("""
    import copy, ctypes, json, sys, types
    import jax, jax.numpy as jnp, numpy
    from autograder.sandbox import integrity
    cases = json.loads(sys.argv[1])
    saved = {m: dict(vars(m)) for m in (jax, jnp, numpy, sys.modules['json'])}
    saved_array = dict(vars(jax.Array)); meta = type(jax.Array); saved_err = numpy.geterr()
    import threading; saved_hook = threading.excepthook
    out = {}
    for name, code in cases.items():
        snap = integrity.Snapshot.take()
        exec(code, {})
        out[name] = snap.violations({})[0]
        # undo: the real types, then the real namespaces
        for m, entries in saved.items():
            m.__class__ = types.ModuleType
            vars(m).clear(); vars(m).update(entries)
        jax.Array.__class__ = meta
        numpy.seterr(**saved_err); threading.excepthook = saved_hook
        integrity._THREAD_NEXT.restype = ctypes.c_void_p; ctypes.pythonapi.PyThreadState_Next.restype = ctypes.c_int
        for key in set(vars(jax.Array)) - set(saved_array):
            delattr(jax.Array, key)
        for key, value in saved_array.items():
            if vars(jax.Array).get(key) is not value:
                setattr(jax.Array, key, value)
    print(json.dumps(out))
""")


@pytest.fixture(scope="module")
def reported():
    cases = {name: code for name, (code, _) in CASES.items()}
    run = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(cases)], capture_output=True, text=True,
                         timeout=120, env={"JAX_PLATFORMS": "cpu", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.splitlines()[-1])


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_tamper_check_reports_exactly_what_changed(reported, case):
    expected = CASES[case][1]
    found = reported[case]
    for text in expected:
        assert any(text in line for line in found), (case, found)
    if not expected:
        assert found == [], (case, found)
