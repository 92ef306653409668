"""The parts of the trust boundary (issue 23) one at a time; test_boundary.py attacks them together.

Each part is tested with what it must accept and what it must refuse: the names test cells may
call, what a hidden failure may say, which evidence is plausible, the system calls a worker may
make, and worker uids that two graders can never share.
"""
from __future__ import annotations

import errno
import json
import platform
import subprocess
import sys

import numpy as np
import pytest

from autograder.checks import plausible
from autograder.checks.failure import CheckFailure
from autograder.course.exports import exported_names, free_global_names, top_level_names
from autograder.course.notebook import Cell
from autograder.grading import hidden


# ---------------------------------------------------------------- the names test cells may call
def test_the_course_exports_its_exercise_functions_and_nothing_a_student_adds(course):
    exported = exported_names(course.assignment("02_static_shapes").cells)
    assert exported["create_filled_jit"] == "create_filled" and exported["mask_tensor"] == "mask_tensor"
    for assignment in course.assignment_names():
        spec = course.assignment(assignment)
        names = exported_names(spec.cells)
        assert set(spec.exercises) <= set(names)
        assert not {"len", "zip", "range", "abs", "jnp", "np", "check", "jax"} & set(names), names


def test_a_builtin_or_a_test_helper_is_never_exported():
    cells = [Cell(0, "setup", "setup", "import numpy as np"),
             Cell(1, "solution", "f", "def f(x):\n    return x\ndef len(x):\n    return 0\nnp = None\n", exercise="f"),
             Cell(2, "test", "f_correctness", "def _ref(x):\n    return x\nassert len([1]) == 1\nf(_ref(1))\n",
                  exercise="f", kind="correctness")]
    assert exported_names(cells) == {"f": "f"}
    assert "_ref" not in free_global_names(cells[2].source) and "len" in free_global_names(cells[2].source)
    assert top_level_names(cells[1].source) == {"f", "len", "np"}


# ---------------------------------------------------------------- what a hidden failure may say
def test_a_hidden_failure_keeps_fixed_teaching_and_drops_the_evidence():
    exc = CheckFailure("[check] values of f(x) on a hidden input failed: actual [13.5]", category="values",
                       hidden_cause=None, hidden_fix="check the formula")
    text = hidden.message("f_correctness", exc)
    assert "13.5" not in text and "hidden input" not in text and "differs from the expected values" in text
    assert "fix: check the formula" in text


def test_a_student_exception_is_named_only_when_its_class_is_python_or_jax():
    class Raised(Exception):
        desc = {"type": "Input_13.5_0.4375", "message": "cause: 13.5"}
    assert "13.5" not in hidden.message("f_correctness", Raised())
    Raised.desc = {"type": "ValueError", "message": "13.5"}
    text = hidden.message("f_correctness", Raised())
    assert "raised ValueError" in text and "13.5" not in text


@pytest.mark.parametrize("actual", [np.array([1, 2, 3], np.complex64), np.zeros((2, 2), np.float32),
                                    np.array([7.0, 7.0, 7.0], np.float16), {"a": np.zeros(3)}])
def test_a_hidden_failure_says_nothing_that_depends_on_the_expected_value(actual):
    """The same wrong output against hidden expected values of other dtypes, values and shapes (none
    a permutation of the output's shape): one message per kind of failure (wrong shape, wrong
    dtype: which one is the few bits a hidden failure tells). A fix that named the expected dtype
    told the student a hidden case's dtype (a blind red team read `.astype(jnp.bool)` off it)."""
    from autograder.checks import check
    texts: dict[str, set] = {}
    for expected in (np.array([1.0, 2.0, 3.0], np.float32), np.array([True, False, True]),
                     np.array([4, 5, 6], np.int32), np.array([0.5, 0.25, 0.125], np.float64),
                     np.zeros(5, np.float32), np.ones(7, np.int32), np.zeros(5, bool)):
        with pytest.raises(CheckFailure) as info:
            check.assert_close(actual, expected)
        texts.setdefault(info.value.category, set()).add(hidden.message("f_correctness", info.value))
    assert all(len(kind) == 1 for kind in texts.values()), texts


def test_a_hidden_failure_names_only_the_errors_jax_code_raises_by_mistake():
    class Raised(Exception):
        desc = {"type": "IsADirectoryError", "message": ""}
    assert "IsADirectoryError" not in hidden.message("f_correctness", Raised())
    Raised.desc = {"type": "ConcretizationTypeError", "message": ""}
    assert "raised ConcretizationTypeError" in hidden.message("f_correctness", Raised())


# ---------------------------------------------------------------- plausible evidence
def test_implausible_trace_counts_fail_as_evidence():
    with pytest.raises(CheckFailure) as info:
        plausible.traces({"ok": True, "traces": 0, "compiles": 0, "explanations": [], "change": None}, 3)
    assert info.value.category == "evidence"
    ok = {"ok": True, "traces": 2, "compiles": 2, "explanations": ["x"], "change": None}
    assert plausible.traces(ok, 3) is ok


def test_a_jaxpr_summary_must_add_up():
    summary = {"ok": True, "primitives": {"mul": 2}, "eqns": 2, "cond_branches": [],
               "largest": {"size": 6, "shape": [2, 3], "dtype": "float32", "primitive": "mul"}}
    assert plausible.jaxpr(dict(summary))["eqns"] == 2
    with pytest.raises(CheckFailure):
        plausible.jaxpr({**summary, "eqns": 1})
    with pytest.raises(CheckFailure):
        plausible.jaxpr({**summary, "cond_branches": [2]})


def test_timing_ratios_are_recomputed_from_the_samples():
    summary = {"primitives": {}, "eqns": 0, "cond_branches": [], "largest": {"size": 0, "shape": [], "dtype": "", "primitive": ""}}
    result = {"ok": True, "not_timed": None, "summary": {"student": summary, "reference": summary},
              "samples": {"student": [2.0, 2.0], "reference": [1.0, 1.0]}, "ratios": [0.1, 0.1],
              "first_call_s": {"student": 1.0, "reference": 1.0}, "trace_s": {"student": 0.1, "reference": 0.1},
              "differs": None}
    assert plausible.timing(result)["ratios"] == [2.0, 2.0]
    with pytest.raises(CheckFailure):   # the timed program's results were not compared with the reference's
        plausible.timing({k: v for k, v in result.items() if k != "differs"})
    with pytest.raises(CheckFailure):
        plausible.timing({**result, "samples": {"student": [-1.0, 1.0], "reference": [1.0, 1.0]}})


# ---------------------------------------------------------------- the system calls a worker may make
FILTERED_CHILD = """
import ctypes, json, os, platform, threading
from autograder.sandbox import seccomp
libc = ctypes.CDLL(None, use_errno=True)
nr = {"x86_64": {"add_key": 248, "unshare": 272, "io_uring_setup": 425},
      "aarch64": {"add_key": 217, "unshare": 97, "io_uring_setup": 425}}[platform.machine()]
out = {"installed": seccomp.install()}
for name, args in (("add_key", (b"user", b"k", b"v", 1, ctypes.c_int(-4))), ("unshare", (0x10000000,)),
                   ("io_uring_setup", (4, ctypes.create_string_buffer(120)))):
    rc = libc.syscall(nr[name], *args)
    out[name] = -ctypes.get_errno() if rc < 0 else rc
started = []
thread = threading.Thread(target=lambda: started.append(1))   # clone3 -> ENOSYS -> clone works
thread.start()
thread.join()
pid = os.fork()
if pid == 0:
    os._exit(7)
out["thread"] = started == [1]
out["fork"] = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
print(json.dumps(out))
"""


@pytest.mark.skipif(platform.machine() not in ("x86_64", "aarch64"), reason="the filter covers x86-64 and arm64")
def test_the_worker_filter_denies_keyrings_namespaces_and_io_uring_but_not_threads_or_fork():
    r = subprocess.run([sys.executable, "-c", FILTERED_CHILD], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["installed"] == "seccomp"
    assert out["add_key"] == out["unshare"] == out["io_uring_setup"] == -errno.EPERM, out
    assert out["thread"] and out["fork"] == 7, out


# ---------------------------------------------------------------- worker uids
LEASE_HOLDER = """
import sys
from autograder.sandbox import host
host.UID_RANGE = 2
lease = host.UidLease(sys.argv[1], tries=200)
print(lease.uid, flush=True)
sys.stdin.read()     # held until the test closes our stdin; exiting releases it
"""


def test_uid_leases_are_never_shared_between_graders(tmp_path, monkeypatch):
    """With only two uids to hand out, two graders get one each and a third gets none until one is
    released (the old pid-derived uids collided for graders whose pids differ by 2000)."""
    from autograder.sandbox import host
    monkeypatch.setattr(host, "UID_RANGE", 2)
    mine = host.UidLease(str(tmp_path))
    other = subprocess.Popen([sys.executable, "-c", LEASE_HOLDER, str(tmp_path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    theirs = int(other.stdout.readline())
    assert theirs in (host.UID_BASE, host.UID_BASE + 1) and theirs != mine.uid
    with pytest.raises(RuntimeError, match="no free worker uid"):
        host.UidLease(str(tmp_path), tries=50)   # both held, one by another process
    other.communicate(timeout=30)                    # it exited: the kernel released its lock
    again = host.UidLease(str(tmp_path), tries=200)
    assert again.uid == theirs
    mine.release()
    again.release()
