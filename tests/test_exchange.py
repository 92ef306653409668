"""A class run through nbgrader's exchange on one host, as an instructor and students would run it:
release, fetch, work, submit, collect, `autograder autograde` into the gradebook, `autograder
feedback`, release_feedback, fetch_feedback; then one student resubmits after feedback.

Nothing is mocked: nbgrader 0.9.6's own commands and default exchange, one shared exchange folder
made as nbgrader's docs say, the instructor's course directory (the project's nbgrader_config.py plus
`c.Exchange.root`), and three students with homes of their own, each running nbgrader under a uid of
their own when the tests run as root (`support/as_user.py`). The students are given `--student`
on submit and fetch_feedback: nbgrader takes the student id from the uid's account name
(`nbgrader.utils.get_username` reads pwd, not $USER), and these uids have no account; for the same
reason collect warns that each submission is "owned by unknown id" (its check_owner), which it would
not on a host with real accounts.

The loop runs once per module (the `loop` fixture, which fails on the first command that fails);
each test asserts on one step of it.
"""
from __future__ import annotations

import json
import stat
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import pytest

from support.exchange import ClassOnOneHost, files_under, open_class
from support.gradebook import (RIGHT_DOUBLE, STUDENTS, _env, autograder_cmd, dump_gradebook, points,
                               run_autograde, sqlite_url)
from support.machine import unavailable

A = "toy"
RIGHT_TRIPLE = "def triple(x):\n    return 3.0 * x\n"
# one right, one wrong (passes the visible test, fails the hidden one), one hostile (kills its worker)
WORK = {
    "ada": {"double": RIGHT_DOUBLE, "triple": RIGHT_TRIPLE},
    "ben": {"double": STUDENTS["ben"]["double"], "triple": RIGHT_TRIPLE},
    "eve": {"double": STUDENTS["crash"]["double"], "triple": RIGHT_TRIPLE},
}
FIRST = {
    "ada": {"double_correctness": 2.0, "double_jit": 1.0, "triple_correctness": 1.0},
    "ben": {"double_correctness": 0.0, "double_jit": 1.0, "triple_correctness": 1.0},
    "eve": {"double_correctness": 0.0, "double_jit": 0.0, "triple_correctness": 1.0},
}
# what a feedback page must never show: HIDDEN_DOUBLE_TEST's marker, inputs and source
HIDDEN = ["SECRET_PROBE", "31.5", "-7.25", "secret_input", "BEGIN HIDDEN TESTS"]


@dataclass
class Loop:
    klass: ClassOnOneHost
    runs: dict = field(default_factory=dict)        # step -> CompletedProcess
    fetched: dict = field(default_factory=dict)     # student -> {relative path: text} after the first fetch
    refetched: dict = field(default_factory=dict)   # the same after the resubmission
    seconds: dict = field(default_factory=dict)     # step -> wall time
    dumps: dict = field(default_factory=dict)       # "first" / "second" -> gradebook dump
    peek: dict = field(default_factory=dict)        # what eve's uid could see
    submitted: dict = field(default_factory=dict)   # "first" / "second" -> `collected()`
    _clock: float = field(default_factory=time.monotonic)

    def ok(self, step: str, proc: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
        self.runs[step] = proc
        self.seconds[step] = time.monotonic() - self._clock
        self._clock = time.monotonic()
        assert proc.returncode == 0, (f"{step}: exit {proc.returncode}\n--- stdout\n{proc.stdout[-3000:]}"
                                      f"\n--- stderr\n{proc.stderr[-3000:]}")
        return proc

    def instructor(self, step: str, *args) -> subprocess.CompletedProcess:
        return self.ok(step, self.klass.instructor(*args))

    def autograder(self, step: str, command: str, *args) -> subprocess.CompletedProcess:
        if command == "autograde":
            return self.ok(step, run_autograde(self.klass.course, A, *args))
        return self.ok(step, subprocess.run(autograder_cmd(command, self.klass.course, A, *args),
                                            capture_output=True, text=True, timeout=300, env=_env()))

    def students(self, step: str, steps_by_student: dict[str, list]):
        for name, proc in self.klass.students_do(steps_by_student).items():
            self.ok(f"{step} {name}", proc)

    def feedback_of(self, name: str) -> dict[str, str]:
        return files_under(self.klass.students[name].home / A / "feedback")

    def collected(self) -> dict[str, tuple[str, str, str]]:
        """student -> (timestamp, their `double` cell, their own copy's) in submitted/ and at home."""
        out = {}
        for name, student in self.klass.students.items():
            folder = self.klass.course / "submitted" / name / A
            out[name] = ((folder / "timestamp.txt").read_text(), _answer(folder / f"{A}.ipynb"),
                         _answer(student.home / A / f"{A}.ipynb"))
        return out


def _fetch_feedback(name: str) -> list:
    return ["nbgrader", "fetch_feedback", A, "--student", name]


@pytest.fixture(scope="module")
def loop():
    klass = open_class(list(WORK), A)
    run = Loop(klass)
    course, db = klass.course, sqlite_url(klass.course)
    try:
        # 1. the instructor releases the assignment into the exchange
        run.instructor("generate_assignment", "generate_assignment", A)
        run.instructor("release_assignment", "release_assignment", A)
        # 2. each student fetches it into their home, works, submits
        run.students("work", {name: [["nbgrader", "fetch_assignment", A],
                                     ["solve", f"{A}/{A}.ipynb", answers],
                                     ["nbgrader", "submit", A, "--student", name]]
                              for name, answers in WORK.items()})
        # 3. the instructor collects and grades into the gradebook
        run.instructor("collect", "collect", A)
        run.submitted["first"] = run.collected()
        run.autograder("autograde", "autograde", "--jobs", "2")
        run.dumps["first"] = dump_gradebook(db)
        # 4. feedback written, released, fetched by each student; eve also tries to get ben's, and
        #    looks where she should not
        run.autograder("feedback", "feedback")
        run.instructor("release_feedback", "release_feedback", A)
        ex = klass.exchange / "jax-course"
        looks = [str(ex / "inbound"), str(ex / "feedback"), str(klass.students["ben"].home), str(course)]
        run.students("fetch_feedback", {name: [_fetch_feedback(name)] + (
            [_fetch_feedback("ben"), ["peek", looks]] if name == "eve" else []) for name in WORK})
        run.peek = json.loads(run.runs["fetch_feedback eve"].stdout.split("peek: ", 1)[1])
        run.fetched = {name: run.feedback_of(name) for name in WORK}
        # 5. ben fixes his answer after reading his feedback and resubmits
        run.students("resubmit", {"ben": [["solve", f"{A}/{A}.ipynb", {"double": RIGHT_DOUBLE}],
                                          ["nbgrader", "submit", A, "--student", "ben"]]})
        run.instructor("collect --update", "collect", "--update", A)
        run.submitted["second"] = run.collected()
        run.autograder("autograde again", "autograde", "--jobs", "2")
        run.dumps["second"] = dump_gradebook(db)
        run.autograder("feedback again", "feedback")
        run.instructor("release_feedback again", "release_feedback", A)
        run.students("fetch_feedback again", {"ben": [_fetch_feedback("ben")]})
        run.refetched = {name: run.feedback_of(name) for name in WORK}
        yield run
    finally:
        print("seconds per step:", {step: round(t, 1) for step, t in run.seconds.items()})
        klass.close()


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _answer(notebook: Path, grade_id: str = "double") -> str:
    nb = nbformat.read(str(notebook), as_version=4)
    return next(c.source for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def test_exchange_is_set_up_as_nbgrader_documents(loop):
    """The root as the docs make it (mkdir, chmod ugo+rw); nbgrader makes the course's folders."""
    ex = loop.klass.exchange
    assert _mode(ex) == 0o777
    course = ex / "jax-course"
    assert {p.name: _mode(p) for p in course.iterdir()} == {
        "outbound": 0o755, "inbound": 0o2733, "feedback": 0o711}


def test_every_student_fetched_the_release_and_submitted_their_own_work(loop):
    released = (loop.klass.exchange / "jax-course" / "outbound" / A / f"{A}.ipynb").read_text()
    assert "NotImplementedError" in released
    for word in HIDDEN + ["return 2.0 * x", "return 3.0 * x"]:     # no hidden test, no solution
        assert word not in released, word
    collected = loop.runs["collect"].stderr
    for name, answers in WORK.items():
        student = loop.klass.students[name]
        assert (student.home / A / f"{A}.ipynb").stat().st_uid == student.uid
        _, submitted, at_home = loop.submitted["first"][name]
        assert submitted == at_home == answers["double"]
        assert f"Collecting submission: {name} {A}" in collected
        assert (loop.klass.course / "submitted" / name / A / "submission_secret.txt").is_file()


def test_autograde_puts_each_students_points_in_the_gradebook(loop):
    assert points(loop.dumps["first"], A) == FIRST
    out = loop.runs["autograde"].stdout
    assert "graded 3, could not grade 0 of 3 students" in out, out


def test_each_student_fetches_their_own_feedback(loop):
    totals = {"ada": "4 / 4", "ben": "2 / 4", "eve": "1 / 4"}
    for name, files in loop.fetched.items():
        assert len(files) == 1 and next(iter(files)).endswith(f"/{A}.html"), (name, files)
        page = next(iter(files.values()))
        assert f"Student: <b>{name}</b>" in page and f"Score: <b>{totals[name]}</b>" in page, page
        for other in set(WORK) - {name}:
            assert f"<b>{other}</b>" not in page
        # the folder nbgrader names it by is the timestamp of this student's own submission
        stamp = loop.submitted["first"][name][0]
        assert next(iter(files)) == f"{stamp}/{A}.html"
    released = list((loop.klass.exchange / "jax-course" / "feedback").glob("*.html"))
    # one page per submission, at the end of the loop: one each, and ben's second
    assert len(released) == 4 and all(_mode(p) & 0o004 for p in released), \
        "released feedback must be readable by the student's own uid, else they cannot fetch it"


def test_feedback_holds_no_hidden_test(loop):
    for name, files in {**loop.fetched, **loop.refetched}.items():
        for path, page in files.items():
            for word in HIDDEN:
                assert word not in page, f"{name}'s {path} shows {word!r}"
    ben = next(iter(loop.fetched["ben"].values()))
    assert "double_correctness" in ben and "failed" in ben       # he is told what failed, not on what


def test_a_student_sees_nothing_of_the_others(loop):
    if not loop.klass.separate_uids:
        unavailable("the students share the test's uid: the exchange's permissions need root to test")
    ex, course = loop.klass.exchange / "jax-course", loop.klass.course
    seen = loop.peek
    assert seen[str(ex / "inbound")] == "denied"       # other students' submissions
    assert seen[str(ex / "feedback")] == "denied"      # released pages are fetched by name only
    assert seen[str(loop.klass.students["ben"].home)] == "denied"
    assert seen[str(course)] == "denied"
    secret = course / "feedback" / "ben" / A / "submission_secret.txt"
    assert _mode(secret) == 0o600
    # fetch_feedback --student ben, run by eve, still finds only what eve's own cache names
    assert "<b>ben</b>" not in "".join(loop.fetched["eve"].values())


def test_resubmission_regrades_only_that_student(loop):
    assert f"Updating submission: ben {A}" in loop.runs["collect --update"].stderr
    out = loop.runs["autograde again"].stdout
    for name in ("ada", "eve"):
        assert f"{name}: unchanged since it was graded, skipped" in out, out
    assert "ben: 4/4" in out and "graded 1, unchanged 2," in out, out
    assert points(loop.dumps["second"], A) == {**FIRST, "ben": FIRST["ada"]}
    for name in ("ada", "eve"):
        key = f"{A}/{name}/{A}"
        assert loop.dumps["second"][key] == loop.dumps["first"][key]
    first, second = (loop.dumps[k][f"{A}/ben/{A}"]["timestamp"] for k in ("first", "second"))
    stamps = [loop.submitted[k]["ben"][0] for k in ("first", "second")]
    assert stamps[1] > stamps[0] and loop.submitted["second"]["ben"][1] == RIGHT_DOUBLE
    assert first.split(".")[0] in stamps[0] and second.split(".")[0] in stamps[1]


def test_new_feedback_replaces_the_old(loop):
    page = (loop.klass.course / "feedback" / "ben" / A / f"{A}.html").read_text()
    assert "Score: <b>4 / 4</b>" in page
    files = loop.refetched["ben"]
    stamp = loop.submitted["second"]["ben"][0]
    newest = files[f"{stamp}/{A}.html"]
    assert "Score: <b>4 / 4</b>" in newest
    # nbgrader keeps one page per submission: the first one's page still says what it got then
    older = {path: text for path, text in files.items() if not path.startswith(stamp)}
    assert list(older.values()) == list(loop.fetched["ben"].values())
    for name in ("ada", "eve"):
        assert loop.refetched[name] == loop.fetched[name]
