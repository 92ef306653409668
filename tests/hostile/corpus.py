"""Hostile submissions and the verdict each must get.

Every attack replaces the `victim` exercise's solution cell of a three-exercise assignment (see
test_hostile.py). The victim's honest answer would be wrong (and not jittable), so any point it
earns is a false point. The two bystander exercises are solved correctly and must keep full marks.

Keys:
  cell        the victim's solution cell; `{source}`, `{gradebook}` and `{marker}` (a process name
              unique to the test run) are filled in by the test
  victim      points the victim must get (default 0: no false points)
  message     text that must appear in a victim check's message (how the attack was stopped)
  integrity   True when the victim must carry a failed `integrity` check
  errors      text that must appear in the result's `errors`
  notebook    a function(nb) -> nb changing the submission beyond the victim cell
"""

WRONG = "def victim(x):\n    if x.sum() > 0:\n        return x + 1.0\n    return x\n"
RIGHT = "def victim(x):\n    return 2.0 * x\n"


def _cell(nb, gid):
    return next(c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == gid)


def edit_test_cells(nb):
    _cell(nb, "victim_correctness").source = "pass"
    _cell(nb, "victim_jit").source = "pass"
    return nb


def delete_test_cells(nb):
    nb.cells = [c for c in nb.cells
                if not c.get("metadata", {}).get("nbgrader", {}).get("grade_id", "").startswith("victim_")]
    return nb


def duplicate_grade_id(nb):
    import copy
    dup = copy.deepcopy(_cell(nb, "victim"))
    dup.source = WRONG
    dup["id"] = "duplicate-victim"
    nb.cells.append(dup)
    return nb


def mark_solution_as_test(nb):
    meta = _cell(nb, "victim").metadata["nbgrader"]
    meta.update({"grade": True, "points": 100})
    return nb


ATTACKS = {
    # ---- broken code
    "syntax_error": {"cell": "def victim(x) return 2.0 * x\n", "message": "SyntaxError"},
    "raise_at_import": {"cell": "raise RuntimeError('boom at import')\n" + RIGHT, "message": "RuntimeError"},
    # ---- crashes
    "os_exit_at_import": {"cell": "import os\nos._exit(3)\n" + RIGHT, "message": "exited with code 3"},
    "os_exit_in_function": {"cell": "import os\ndef victim(x):\n    os._exit(0)\n", "message": "exited with code 0"},
    "segfault_at_import": {"cell": "import ctypes\nctypes.string_at(0)\n" + RIGHT, "message": "SIGSEGV"},
    "segfault_in_function": {"cell": "import ctypes\ndef victim(x):\n    return ctypes.string_at(0)\n",
                             "message": "SIGSEGV"},
    "sys_exit_at_import": {"cell": "import sys\nsys.exit(0)\n" + RIGHT, "message": "SystemExit"},
    # ---- text that acts on the reader: a terminal's control sequences, a carriage return, NUL, a
    # bidirectional override and a zero-width space in the message, a class name with a newline
    "terminal_control_in_messages": {"cell": "class _E(Exception):\n    pass\n"
                                             "_E.__name__ = _E.__qualname__ = 'Passed\\n[check] all passed'\n"
                                             "def victim(x):\n    raise _E('ok\\x1b[2J\\x1b[31mALL PASSED"
                                             "\\x1b[0m\\r\\x00\\u202etxet\\u200b')\n",
                                     "message": "\\x1b[2J\\x1b[31mALL PASSED"},
    # the same property reached by other routes: raw control characters in the source line the message
    # quotes, a C1 control (\x9b starts a sequence too), a line separator and an isolate, a KeyError
    # (whose text is its repr), printed output, and a function renamed with ESC and CR
    "terminal_control_in_source_and_names": {"cell": "def victim(x):\n"
                                                     "    s = 'raw\x1b[2K\u2028line\u2066'\n"
                                                     "    print('\\x1b[31mprinted\\u2029')\n"
                                                     "    raise KeyError('\\x07bell\\x9b1m' + s)\n"
                                                     "victim.__name__ = 'v\\x1b[0mictim\\r'\n"},
    # ---- hangs
    "infinite_loop_at_import": {"cell": "while True:\n    pass\n" + RIGHT, "message": "timed out"},
    "infinite_loop_in_function": {"cell": "def victim(x):\n    while True:\n        pass\n", "message": "timed out"},
    "sleep_past_timeout": {"cell": "import time\ndef victim(x):\n    time.sleep(10_000)\n", "message": "timed out"},
    "ignores_sigterm": {"cell": "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                                "def victim(x):\n    time.sleep(10_000)\n", "integrity": True},   # its handler, then its hang
    # ---- floods and bombs
    "output_100MB_at_import": {"cell": "print('x' * 100_000_000)\n" + RIGHT, "message": "File too large"},
    "output_flood_in_function": {"cell": "import sys\ndef victim(x):\n    while True:\n"
                                         "        sys.stdout.write('y' * 65536)\n", "message": "File too large"},
    "memory_bomb_at_import": {"cell": "hog = bytearray(64 * 2**30)\n" + RIGHT, "message": "MemoryError"},
    "memory_bomb_in_function": {"cell": "def victim(x):\n    hog = []\n    while True:\n"
                                        "        hog.append(bytearray(2**26))\n", "message": "MemoryError"},
    "jax_memory_bomb": {"cell": "import jax.numpy as jnp\ndef victim(x):\n"
                                "    return jnp.ones((1 << 36,), jnp.float32) * x.sum()\n"},
    "fork_children_left_running": {"cell": "import ctypes, os, time\nfor _ in range(30):\n    if os.fork() == 0:\n"
                                           "        ctypes.CDLL(None).prctl(15, {marker!r}.encode(), 0, 0, 0)\n"
                                           "        time.sleep(300)\n        os._exit(0)\n" + RIGHT,
                                   "integrity": True},
    "fork_bomb": {"cell": "import os\ndef victim(x):\n    while True:\n        try:\n            os.fork()\n"
                          "        except OSError:\n            pass\n", "message": "timed out"},
    # ---- tampering with the libraries behind the verdicts
    "patch_jax_jit": {"cell": "import jax\njax.jit = lambda f, *a, **k: f\n" + WRONG, "integrity": True},
    "patch_make_jaxpr": {"cell": "import jax\njax.make_jaxpr = lambda f, *a, **k: (lambda *b, **c: None)\n" + WRONG,
                         "integrity": True},
    "patch_numpy_testing": {"cell": "import numpy.testing\nnumpy.testing.assert_allclose = lambda *a, **k: None\n"
                                    "numpy.testing.assert_array_equal = lambda *a, **k: None\n" + WRONG,
                            "integrity": True},
    "patch_allclose": {"cell": "import numpy as np, jax.numpy as jnp\nnp.allclose = lambda *a, **k: True\n"
                               "jnp.allclose = lambda *a, **k: True\nnp.isclose = lambda a, b, **k: "
                               "np.ones(np.shape(a), bool)\n" + WRONG, "integrity": True},
    "patch_builtins": {"cell": "import builtins\n_real = builtins.isinstance\n"
                               "builtins.isinstance = lambda o, t: True if t is AssertionError else _real(o, t)\n"
                               + WRONG, "integrity": True},
    "patch_autograder_check": {"cell": "from autograder import check\ncheck.assert_close = lambda *a, **k: None\n"
                                       "check.assert_jittable = lambda *a, **k: None\n" + WRONG, "integrity": True},
    "patch_evidence_probe": {"cell": "import autograder.checks.evidence as ev\nev.run_jit = lambda *a, **k: {'ok': True}\n"
                                     + WRONG, "integrity": True},
    "patch_comparison_helper": {"cell": "import autograder.checks.check as c\nc._compare_leaf = lambda *a, **k: None\n"
                                        + WRONG, "integrity": True},
    "patch_array_class": {"cell": "import jax.numpy as jnp\ntype(jnp.zeros(1)).__eq__ = lambda s, o: True\n" + WRONG,
                          "integrity": True},
    # code left behind to run later, inside another exercise's calls (a blind red team's attacks:
    # each took the points of the bystanders while the victim kept its own)
    "signal_alarm_for_later": {"cell": "import signal\ndef _tick(*a):\n    raise KeyboardInterrupt('tick')\n"
                                       "signal.signal(signal.SIGALRM, _tick)\n"
                                       "signal.setitimer(signal.ITIMER_REAL, 1.0, 0.25)\n" + WRONG,
                               "integrity": True},
    "finalizer_hangs_later": {"cell": "class _Bomb:\n    def __init__(self):\n        self.me = self\n"
                                      "    def __del__(self):\n        import time\n        time.sleep(60)\n"
                                      "_Bomb()\n" + WRONG, "message": "timed out"},
    "gc_callback_hangs_later": {"cell": "import gc\ndef _hang(*a):\n    import time\n    time.sleep(60)\n"
                                        "gc.callbacks.append(_hang)\n" + WRONG, "message": "timed out"},
    "jax_listener_raises_later": {"cell": "import jax\ndef _boom(*a, **k):\n    raise RuntimeError('monitor')\n"
                                          "jax.monitoring.register_event_listener(_boom)\n"
                                          "jax.monitoring.register_event_duration_secs_listener(_boom)\n" + WRONG,
                                  "integrity": True},
    "logging_filter_raises_later": {"cell": "import logging\nclass _F(logging.Filter):\n"
                                            "    def filter(self, record):\n        raise RuntimeError('logfilter')\n"
                                            "for _name in ('', 'jax', 'jax._src.dispatch', 'jax._src.interpreters.pxla'):\n"
                                            "    logging.getLogger(_name).addFilter(_F())\n"
                                            "    logging.getLogger(_name).setLevel(logging.DEBUG)\n"
                                            "logging.getLogger().addHandler(logging.StreamHandler())\n" + WRONG,
                                    "integrity": True},
    # a patch hidden from a check that reads the namespace through attribute lookup: the module's (or
    # class's) type swapped for one whose `__dict__` shows the old entries, or that answers for a name
    # a module of this package that no list of watched modules named (every one loaded is watched)
    "patch_an_unlisted_probe_helper": {"cell": "import autograder.checks.agreement as a\n"
                                               "a.difference = lambda *args, **kwargs: None\n" + WRONG,
                                       "integrity": True},
    "patch_hidden_by_module_class": {"cell": "import types, jax\n_old = dict(vars(jax))\n"
                                             "class _Quiet(types.ModuleType):\n    @property\n"
                                             "    def __dict__(self):\n        return _old\n"
                                             "jax.make_jaxpr = lambda f, *a, **k: (lambda *b, **c: None)\n"
                                             "jax.__class__ = _Quiet\n" + WRONG, "integrity": True},
    "patch_answered_by_module_getattribute": {"cell": "import types, jax.numpy as jnp\n"
                                                      "class _Answering(types.ModuleType):\n"
                                                      "    def __getattribute__(self, name):\n"
                                                      "        if name == 'allclose':\n"
                                                      "            return lambda *a, **k: True\n"
                                                      "        return super().__getattribute__(name)\n"
                                                      "jnp.__class__ = _Answering\n" + WRONG, "integrity": True},
    "patch_hidden_by_metaclass": {"cell": "import jax\n_old = dict(vars(jax.Array))\n"
                                          "class _Meta(type(jax.Array)):\n    @property\n"
                                          "    def __dict__(cls):\n        return _old\n"
                                          "jax.Array.__eq__ = lambda s, o: True\njax.Array.__class__ = _Meta\n" + WRONG,
                                  "integrity": True},
    "patch_inside_the_call": {"cell": "import jax\ndef victim(x):\n    jax.jit = lambda f, *a, **k: f\n"
                                      "    return x + 1.0\n", "integrity": True},
    "trace_hook": {"cell": "import sys\nsys.settrace(lambda *a: None)\n" + WRONG, "integrity": True},
    "audit_hook": {"cell": "import sys\nsys.addaudithook(lambda *a: None)\n" + WRONG, "integrity": True},
    "background_thread": {"cell": "import threading, time\n"
                                  "threading.Thread(target=lambda: time.sleep(600), daemon=True).start()\n" + WRONG,
                          "integrity": True},
    "object_equal_to_everything": {"cell": "class Anything:\n    def __eq__(self, other):\n        return True\n"
                                           "    __hash__ = object.__hash__\n"
                                           "def victim(x):\n    return Anything()\n", "message": "type of"},
    "forge_reply_in_channel": {"cell": (
        "import sys\nfrom autograder.sandbox import wire\n"
        "def victim(x):\n"
        "    f = sys._getframe(1)\n"
        "    while f is not None and 'req' not in f.f_locals:\n"
        "        f = f.f_back\n"
        "    nonce = f.f_locals['req']['nonce'] if f is not None else ''\n"
        "    fake = {'ok': True, 'value': 2.0 * x, 'nonce': nonce, 'violations': []}\n"
        "    wire.write_frame(4, wire.encode_reply(fake, {}))\n"
        "    return x + 1.0\n"), "integrity": True},
    "junk_in_channel": {"cell": "import os\ndef victim(x):\n    os.write(4, b'\\xff' * 64)\n    return x + 1.0\n"},
    # ---- secrets, the gradebook, the grader
    "read_hidden_tests": {"cell": (
        "import json\n" + WRONG +
        "try:\n"
        "    nb = json.load(open({source!r}))\n"
        "    exec(next(''.join(c['source']) for c in nb['cells']\n"
        "              if c['metadata'].get('nbgrader', {{}}).get('grade_id') == 'victim'))\n"
        "except Exception:\n    pass\n")},
    "write_gradebook": {"cell": ("try:\n    open({gradebook!r}, 'ab').write(b'hacked')\nexcept Exception:\n"
                                 "    pass\n" + WRONG)},
    "signal_the_grader": {"cell": ("import os, signal\n"
                                   "for pid in [os.getppid()] + [int(p) for p in os.listdir('/proc') if p.isdigit()]:\n"
                                   "    if pid > 1 and pid != os.getpid():\n"
                                   "        try:\n            os.kill(pid, signal.SIGKILL)\n"
                                   "        except Exception:\n            pass\n" + WRONG)},
    "read_grader_memory": {"cell": (
        "import os\n" + WRONG +
        "for p in os.listdir('/proc'):\n"
        "    if p.isdigit() and int(p) != os.getpid():\n"
        "        try:\n"
        "            if b'autograder' in open(f'/proc/{{p}}/cmdline', 'rb').read():\n"
        "                open(f'/proc/{{p}}/mem', 'rb')\n"
        "                def victim(x):\n                    return 2.0 * x\n"
        "        except Exception:\n            pass\n")},
    # the batch's compile cache (sandbox/compile_cache.py): found through the worker's start-up
    # environment, then overwritten, added to and removed from; every write must fail (read-only
    # there) and no notebook of the batch, this one included, may grade differently
    "poison_compile_cache": {"cell": (
        "import glob, os\n"
        "env = open('/proc/self/environ', 'rb').read().split(b'\\0')\n"
        "found = [e.split(b'=', 1)[1].decode() for e in env if e.startswith(b'XLA_SHARED_CACHE=')]\n"
        "for folder in found:\n"
        "    for path in glob.glob(os.path.join(folder, '*')) + [os.path.join(folder, 'jit_mul-0.bin')]:\n"
        "        for how in (lambda: open(path, 'wb').write(b'x'), lambda: os.remove(path)):\n"
        "            try:\n                how()\n            except OSError:\n                pass\n"
        + RIGHT), "victim": 3.0},
    # a message whose text the grader's explanation reads: it names a JAX module the grader must not
    # import for it (checks/fallback_rules.py looks in JAX's public modules only)
    "name_a_module_for_the_grader": {"cell": (
        "def victim(x):\n"
        "    raise AttributeError(\"module 'jax.example_libraries.stax' has no attribute 'Dense2'\")\n"),
        "message": "AttributeError"},
    # a line the explanation reads, as long as the student likes: a rule's pattern costs time that grows
    # with what it reads (quadratically for one), so the grader must read a bounded part of it
    # a message of JAX's own wording, raised by the student, naming a function of another module (the explanation
    # looks a library function up by that name: only in JAX's modules, and calls nothing it finds)
    "raised_message_names_a_library_function": {
        "cell": "import jax, jax.numpy as jnp\n"
                "class ConcretizationTypeError(TypeError):\n    pass\n"
                "MESSAGE = ('Abstract tracer value encountered where concrete value is expected: traced array\\n'\n"
                "           'd argument of system\\nThe error occurred while tracing the function system at '\n"
                "           '/usr/lib/python3.11/os.py:1 for jit.')\n"
                "def victim(x):\n    error = ConcretizationTypeError(MESSAGE)\n"
                "    return jax.jit(jnp.system)(x, 2) if error is None else (_ for _ in ()).throw(error)\n",
        "message": "ConcretizationTypeError"},
    "explain_an_endless_line": {"cell": (
        "def victim(x):\n"
        "    raise TypeError(\"'int' object is not callable\")  # " + "x." * 100_000 + "\n"),
        "message": "TypeError"},
    "detect_grading_run": {"cell": (
        "import os, sys\n"
        "def _grading():\n"
        "    env = ' '.join(os.environ).upper()\n"
        "    main = str(getattr(sys.modules['__main__'], '__file__', ''))\n"
        "    return any(w in env for w in ('NBGRADER', 'GRADER', 'AUTOGRADE')) or 'autograder' in ' '.join(sys.argv) + main\n"
        "def victim(x):\n    return x + 1.0 if _grading() else 2.0 * x\n"), "victim": 3.0},
    # ---- tampering with the notebook
    "edited_test_cells": {"cell": WRONG, "notebook": edit_test_cells},
    "deleted_test_cells": {"cell": WRONG, "notebook": delete_test_cells},
    "duplicated_grade_id": {"cell": RIGHT, "notebook": duplicate_grade_id, "errors": "appears in cells"},
    "solution_marked_as_test": {"cell": WRONG, "notebook": mark_solution_as_test, "errors": "altered nbgrader metadata"},
}
