"""Attacks on the boundary between the grader's test cells and the student's code (issue 23).

`corpus.py` attacks the process (crashes, bombs, patched libraries). These attack what crosses the
boundary: names the test cells look up, evidence the worker sends back, hidden data that could leak
out in a message, the reply reader itself, what a worker leaves behind, and what it can see of its
batch-mates. Every one was written before the fixes and run against main 9e6139e, where each one
succeeded (`BEFORE` records what it got there); `test_boundary.py` checks that each now fails.

The harness (test_boundary.py) grades a three-exercise assignment: `victim(x, k) = k * x` between
two bystanders. The victim's test cells are ordered correctness (2 points, with hidden inputs),
performance (1, hidden reference), jit (1), retrace (1), structure (1: the jaxpr holds `mul`). Each
attack starts from an honest but imperfect victim and tries to earn more than it:

  WRONG_VALUES  k * x + 1            earns 3 (jit, retrace, structure: since issue 34 a performance
                                     check compares the timed values with the reference's)
  NONJIT        Python `if` on k     earns 2 (correctness only)
  RETRACING     k static in its jit  earns 5 (everything but retrace)
  NO_MUL        x / (1 / k)          earns 5 (everything but structure)

Keys of an attack:
  cell       the victim's solution cell (`{subs}` is the folder of the batch's notebooks)
  victim     the points the victim must get now (its honest score, or 0 when `integrity`)
  integrity  True when the victim must carry a failed `integrity` check
  says       text the victim's messages must still hold (the error the student's code really raised)
  class      which of the issue's six classes it belongs to (1..5; the corpus is class 6)
  BEFORE     what it did against 9e6139e
Class 4 attacks that target the grader's memory and CPU are in `READER_ATTACKS` and run one per
grader process, so that each process's peak memory and CPU time are its own.
"""

# The hidden inputs of the victim's correctness test, and the hidden reference's docstring: none of
# these may appear in any message or feedback about the victim.
HIDDEN_MARKERS = ("13.5", "0.4375", "5.906", "ref-doc-5d1c")

WRONG_VALUES = "def victim(x, k):\n    return k * x + 1.0\n"
NONJIT = "def victim(x, k):\n    if float(k) > 0:\n        return k * x\n    return k * x\n"
RETRACING = "import jax\ndef _v(x, k):\n    return k * x\nvictim = jax.jit(_v, static_argnums=1)\n"
NO_MUL = "def victim(x, k):\n    return x / (1.0 / k)\n"
RIGHT = "def victim(x, k):\n    return k * x\n"

HONEST = {"WRONG_VALUES": 3.0, "NONJIT": 2.0, "RETRACING": 5.0, "NO_MUL": 5.0, "RIGHT": 6.0}

# Walk up from the student's frame to the grader's objects (the worker, a probe's locals).
_FRAME_WALK = (
    "import sys\n"
    "def _frames():\n"
    "    f = sys._getframe(1)\n"
    "    while f is not None:\n"
    "        yield f\n"
    "        f = f.f_back\n"
)

# A raw syscall through libc, for the doors a JAX worker has no use for.
_SYSCALL = (
    "import ctypes, platform\n"
    "_libc = ctypes.CDLL(None, use_errno=True)\n"
    "_NR = {'x86_64': {'add_key': 248, 'unshare': 272, 'io_uring_setup': 425},\n"
    "       'aarch64': {'add_key': 217, 'unshare': 97, 'io_uring_setup': 425}}[platform.machine()]\n"
    "def _syscall(name, *args):\n"
    "    return _libc.syscall(_NR[name], *args)\n"
)

# A frame written straight into the grader's reply channel (fd 4), in the wire format of 9e6139e
# (4-byte length, then an 8-byte header-length/buffer-count prefix, the JSON header, the buffers).
_RAW_REPLY = (
    "import json, os, struct\n"
    "def _raw_reply(header, buffers, chunk=None):\n"
    "    head = json.dumps(header).encode()\n"
    "    body = struct.pack('>II', len(head), len(buffers)) + head\n"
    "    body += b''.join(struct.pack('>Q', len(b)) + b for b in buffers)\n"
    "    data = struct.pack('>I', len(body)) + body\n"
    "    step = chunk or len(data)\n"
    "    for i in range(0, len(data), step):\n"
    "        os.write(4, data[i:i + step])\n"
)

ATTACKS = {
    # ---------------------------------------------------------------- 1. test cells call student code by name
    "shadow_len_and_zip": {
        "class": 1, "victim": HONEST["WRONG_VALUES"],
        "cell": WRONG_VALUES + "def len(obj):\n    return 0\ndef zip(*iterables):\n    return []\n",
        "BEFORE": "6/6: both loops of the correctness cell ran zero times (the test cell's len and zip were the student's)"},
    "shadow_map": {
        "class": 1, "victim": HONEST["NONJIT"],
        "cell": NONJIT + "def map(fn, *iterables):\n    return []\n",
        "BEFORE": "3/6: the jit cell's loops ran zero times, a non-jittable victim got its jit point"},
    "shadow_sorted": {
        "class": 1, "victim": HONEST["RETRACING"],
        "cell": RETRACING + "def sorted(values):\n    return [1.0]\n",
        "BEFORE": "6/6: the retrace cell called the victim with one value of k instead of three"},
    # ---------------------------------------------------------------- 2. evidence taken on trust
    "duck_typed_jit": {
        "class": 2, "victim": HONEST["NONJIT"],
        "cell": NONJIT.replace("def victim", "def _v") + (
            "class _LooksJitted:\n"
            "    def __init__(self, fn):\n"
            "        self.__wrapped__ = fn\n"
            "        self.__name__ = 'victim'\n"
            "    def __call__(self, *args, **kwargs):\n"
            "        return self.__wrapped__(*args, **kwargs)\n"
            "    def lower(self, *args, **kwargs):\n"
            "        raise RuntimeError('not really jitted')\n"
            "    trace = lower\n"
            "victim = _LooksJitted(_v)\n"),
        "BEFORE": "4/6: probed as if already jitted, it was called eagerly: jit and retrace passed"},
    "swapped_fun_attribute": {
        "class": 2, "victim": HONEST["NO_MUL"],
        "cell": ("import jax\ndef _honest(x, k):\n    return x / (1.0 / k)\ndef _shown(x, k):\n    return k * x\n"
                 "victim = jax.jit(_honest)\nvictim._fun = _shown\n"),
        "BEFORE": "6/6: jax.jit(...).trace read the swapped _fun, so the structure check saw a mul"},
    "trace_method_on_instance": {
        "class": 2, "victim": HONEST["NO_MUL"],
        "cell": ("import jax\ndef _honest(x, k):\n    return x / (1.0 / k)\ndef _shown(x, k):\n    return k * x\n"
                 "victim = jax.jit(_honest)\nvictim.trace = jax.jit(_shown).trace\n"),
        "BEFORE": "6/6: the instance attribute `trace` answered the structure probe"},
    "wrapped_names_another_function": {
        "class": 2, "victim": HONEST["RETRACING"],
        "cell": RETRACING + "def _never_traced(x, k):\n    return x\nvictim.__wrapped__ = _never_traced\n",
        "BEFORE": "6/6: traces were counted under the name of __wrapped__ (0 traces), so the retrace check passed"},
    "zero_the_trace_counter": {
        "class": 2, "victim": HONEST["RETRACING"],
        "cell": ("import jax\nimport autograder.checks.evidence as _ev\n"
                 "def _v(x, k):\n"
                 "    for counter in getattr(_ev, '_active_counters', []):\n"
                 "        counter['traces'] = 0\n"
                 "    return k * x\n"
                 "victim = jax.jit(_v, static_argnums=1)\n"),
        "BEFORE": "6/6: the probe's counter, a module global, was reset while tracing"},
    "replace_probes_through_frames": {
        "class": 2, "victim": 0.0, "integrity": True,
        "cell": _FRAME_WALK + (
            "def _ok(*args, **kwargs):\n    return {'ok': True}\n"
            "def _one_trace(fn, calls, *args, **kwargs):\n"
            "    return {'ok': True, 'traces': 1, 'compiles': 1, 'calls': len(calls), 'explanations': [], 'change': None}\n"
            "def victim(x, k):\n"
            "    for f in _frames():\n"
            "        worker = f.f_locals.get('self')\n"
            "        if worker is not None and hasattr(worker, 'probes'):\n"
            "            worker.probes['run_jit'] = _ok\n"
            "            worker.probes['count_traces'] = _one_trace\n"
            "    if float(k) > 0:\n        return k * x\n    return k * x\n"),
        "BEFORE": "4/6: the worker's probe table, found through frames, answered the jit and retrace probes"},
    "disable_snapshot_then_patch": {
        "class": 2, "victim": 0.0, "integrity": True,
        "cell": _FRAME_WALK + (
            "import autograder.checks.evidence as _ev\n"
            "def victim(x, k):\n"
            "    for f in _frames():\n"
            "        worker = f.f_locals.get('self')\n"
            "        if worker is not None and hasattr(worker, 'snapshot'):\n"
            "            worker.snapshot = None\n"
            "            _ev._jitted = lambda fn, *a, **kw: fn\n"
            "    if float(k) > 0:\n        return k * x\n    return k * x\n"),
        "BEFORE": "4/6: with the integrity snapshot gone, a patched evidence module ran the victim eagerly"},
    # ---------------------------------------------------------------- 3. hidden data leaks out
    "cause_line_in_exception": {
        "class": 3, "victim": 0.0, "leak": True,
        "cell": ("def victim(x, k):\n"
                 "    if float(k) not in (2.0, -1.0, -3.0):\n"
                 "        raise ValueError('bad input\\n  cause: ' + repr((x.tolist(), float(k))))\n"
                 "    return k * x\n"),
        "BEFORE": "the hidden input survived as a `cause:` line in the JSON message and in the feedback"},
    "exception_class_name": {
        "class": 3, "victim": 0.0, "leak": True,
        "cell": ("def victim(x, k):\n"
                 "    if float(k) not in (2.0, -1.0, -3.0):\n"
                 "        name = 'Input_' + '_'.join(str(v) for v in x.tolist() + [float(k)])\n"
                 "        raise type(name, (Exception,), {})('')\n"
                 "    return k * x\n"),
        "BEFORE": "the hidden input, spelled as the exception's class name, was in the JSON message"},
    "return_the_input": {
        "class": 3, "victim": 4.0, "leak": True,
        "cell": ("import jax.numpy as jnp\ndef victim(x, k):\n"
                 "    if isinstance(k, float) and k not in (2.0, -1.0, -3.0):\n"
                 "        return jnp.concatenate([x[:-1], jnp.asarray([k], x.dtype)])\n"
                 "    return k * x\n"),
        "BEFORE": "the hidden input came back as the 'actual' values of the correctness message"},
    # (4 points: right on every input but the hidden one, the timed one included)
    "steal_the_performance_reference": {
        "class": 3, "victim": 0.0, "integrity": True, "leak": True,
        "cell": _FRAME_WALK + (
            "import gc\n_stolen = []\n"
            "def victim(x, k):\n"
            "    if _stolen:\n"
            "        raise ValueError('found: ' + _stolen[0])\n"
            "    try:\n"
            "        for f in _frames():\n"
            "            ref = f.f_locals.get('reference')\n"
            "            if callable(ref) and getattr(ref, '__doc__', None):\n"
            "                _stolen.append(ref.__doc__)\n"
            "    except Exception:\n"
            "        pass\n"
            "    return k * x\n"),
        "BEFORE": "the hidden reference's code was in the worker; its docstring came back in the jit message"
                  " (now the reference is timed in a worker of its own, whose only output is the verdict)"},
    "explanation_bomb": {
        "class": 3, "victim": 0.0,
        "says": "vmap got inconsistent sizes",
        "cell": ("import jax, jax.numpy as jnp\n"
                 "def victim(x, k):\n"
                 "    return jax.vmap(lambda a, b: a * b, in_axes=" + "-" * 600 + "0)(x, jnp.ones(7))\n"),
        "BEFORE": "a JAX error raised from a line too deep to unparse: describing it raised RecursionError in "
                  "the worker, and the student got that instead of JAX's text and its explanation"},
    # ---------------------------------------------------------------- 4. the grader decodes before it trusts
    "malformed_frame": {
        "class": 4, "victim": 0.0, "integrity": True,
        "cell": _RAW_REPLY + (
            "_raw_reply({'ok': True, 'nonce': 'x', 'value': {'t': 'np', 'dtype': '<f4', 'shape': [1], 'b': 99}}, [])\n"
            + RIGHT),
        "BEFORE": "an IndexError escaped the reader: the whole notebook failed, bystanders included (0/12)"},
    # ---------------------------------------------------------------- 5. leftovers and shared state
    "raw_thread_left_running": {
        "class": 5, "victim": 0.0, "integrity": True,
        "cell": "import _thread, time\n_thread.start_new_thread(lambda: time.sleep(600), ())\n" + RIGHT,
        "BEFORE": "6/6: a thread started with _thread is invisible to threading.enumerate()"},
    "thread_blames_a_bystander": {
        "class": 5, "victim": 0.0, "integrity": True,
        "cell": ("import _thread, os, time\n"
                 "def _here():\n    pass\n"
                 "_dir = os.path.dirname(_here.__code__.co_filename)\n"
                 "_ns = {'time': time}\n"   # a function compiled under the earlier bystander's cell file name
                 "exec(compile('def linger():\\n    time.sleep(600)\\n', os.path.join(_dir, 'bystander_a.py'), 'exec'), _ns)\n"
                 "_thread.start_new_thread(_ns['linger'], ())\n" + RIGHT),
        "BEFORE": "against 980ce24 (threads charged by their frames' file names): bystander_a was charged "
                  "with the victim's thread and lost its points"},
    "double_fork_daemon": {
        "class": 5, "victim": 0.0, "integrity": True,
        "cell": ("import os, time\n"
                 "if os.fork() == 0:\n"
                 "    if os.fork() == 0:\n"
                 "        time.sleep(600)\n"
                 "    os._exit(0)\n"
                 "os.wait()\n" + RIGHT),
        "BEFORE": "6/6: the grandchild, re-parented away from the worker, was not counted"},
    "kernel_keyring": {
        "class": 5, "victim": HONEST["WRONG_VALUES"],
        "cell": _SYSCALL + (
            "_serial = _syscall('add_key', b'user', b'jaxcourse-note', b'left for a later worker', 23,\n"
            "                   ctypes.c_int(-4))\n"   # KEY_SPEC_USER_KEYRING
            + WRONG_VALUES + "if _serial > 0:\n" + "".join("    " + ln + "\n" for ln in RIGHT.splitlines())),
        "BEFORE": "6/6: add_key into the uid's keyring worked (a later worker with the same uid could read it)"},
    "new_user_namespace": {
        "class": 5, "victim": HONEST["WRONG_VALUES"],
        "cell": _SYSCALL + (
            "import os\n"
            "_pid = os.fork()\n"   # unshare(CLONE_NEWUSER) wants a single-threaded process: a fresh child
            "if _pid == 0:\n"
            "    os._exit(0 if _syscall('unshare', 0x10000000) == 0 else 1)\n"   # CLONE_NEWUSER
            "_rc = os.waitstatus_to_exitcode(os.waitpid(_pid, 0)[1])\n"
            + WRONG_VALUES + "if _rc == 0:\n" + "".join("    " + ln + "\n" for ln in RIGHT.splitlines())),
        "BEFORE": "6/6: the worker could make a user namespace of its own"},
    "io_uring": {
        "class": 5, "victim": HONEST["WRONG_VALUES"],
        "cell": _SYSCALL + (
            "_params = ctypes.create_string_buffer(120)\n"
            "_fd = _syscall('io_uring_setup', 4, _params)\n"
            + WRONG_VALUES + "if _fd >= 0:\n" + "".join("    " + ln + "\n" for ln in RIGHT.splitlines())),
        "BEFORE": "6/6: io_uring_setup returned a ring (a kernel interface no JAX worker needs)"},
    "read_a_batch_mate": {
        "class": 5, "victim": HONEST["WRONG_VALUES"],
        "cell": ("import glob, json\n" + WRONG_VALUES +
                 "for _path in sorted(glob.glob({subs!r} + '/*/boundary.ipynb')):\n"
                 "    try:\n"
                 "        _nb = json.load(open(_path))\n"
                 "    except Exception:\n"
                 "        continue\n"
                 "    for _c in _nb['cells']:\n"
                 "        _src = ''.join(_c['source'])\n"
                 "        if _c['metadata'].get('nbgrader', {{}}).get('grade_id') == 'victim' and 'return k * x\\n' in _src "
                 "and 'read_a_batch_mate' not in _src:\n"
                 "            exec(_src)\n"),
        "BEFORE": "6/6: another student's notebook of the same batch was readable; its answer was copied"},
}

# Class 4 attacks on the grader's own resources: each is graded in a grader process of its own, whose
# peak memory (ru_maxrss) and CPU time are read from the kernel.
READER_ATTACKS = {
    "one_buffer_many_arrays": {
        "class": 4, "victim": 0.0, "integrity": True,
        "cell": _RAW_REPLY + (
            "_raw_reply({'ok': True, 'nonce': 'x', 'value': {'t': 'list', 'v': [\n"
            "    {'t': 'np', 'dtype': '<f4', 'shape': [1 << 20], 'b': 0}] * 600}}, [b'\\0' * (4 << 20)])\n"
            + RIGHT),
        "BEFORE": "a 4 MB reply decoded into 600 copies: the grader's peak memory grew by about 2.5 GB"},
    "node_flood": {
        "class": 4, "victim": 0.0, "integrity": True,
        "cell": _RAW_REPLY + (
            "_raw_reply({'ok': True, 'nonce': 'x', 'value': {'t': 'list', 'v': [{'t': 'str', 'v': ''}] * 3_000_000}},"
            " [])\n" + RIGHT),
        "BEFORE": "3 million nodes were decoded before the nonce was looked at"},
    "large_reply_in_small_writes": {
        "class": 4, "victim": 0.0, "integrity": True,
        "cell": _RAW_REPLY + "_raw_reply({'ok': True, 'nonce': 'x'}, [b'\\0' * (160 << 20)], chunk=1 << 16)\n" + RIGHT,
        "BEFORE": "a 160 MB reply in 64 KB writes: the growing buffer was copied on every read"},
}


# Run alone in a worker given the batch's notebooks to hide (tests/test_hiding.py), not by the harness
# above: opens each batch-mate's notebook by its path (`PATHS`, set before it) and lists its folder, and
# prints what it got. Written against the covering folders of 0e64639, for layouts they were not
# written from (nbgrader's nested one, notebooks flat in one folder, inside a folder the worker keeps).
READ_BATCH_MATES_BY_PATH = """\
import json, os
found = {}
for path in json.loads(PATHS):
    try:
        with open(path) as fh:
            found[path] = fh.read()
    except OSError:
        pass
    folder = os.path.dirname(path)
    try:
        found[folder] = sorted(os.listdir(folder))
    except OSError:
        pass
print("FOUND", json.dumps({k: v for k, v in found.items() if v}))
"""
