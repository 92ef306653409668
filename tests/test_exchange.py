"""A class run through nbgrader's exchange on one host, by following docs/INSTRUCTORS.md as written:
the exchange made, the course directory made by `autograder quickstart`, release, fetch, work,
submit, collect, `autograder autograde` into the gradebook, `autograder feedback`, release_feedback,
fetch_feedback; then one student resubmits after feedback.

The instructor's commands are read from the doc's marked blocks (`<!-- tested: instructor-sequence,
NAME -->`, see `support/doc_shell.py`) and typed, in the doc's order, into one bash session started
in the instructor's own home with a new login's environment (no virtualenv on PATH, nothing of the
test runner's), so a doc line that does not work as written fails here, with its command and the end
of its stderr. Only two host paths of the doc are replaced (PLACEHOLDERS): the folder of the
instructor's clone, by a stand-in clone whose course holds the test's short assignment under the
doc's assignment name (`support/exchange.py`), and nbgrader's shared exchange, by a folder of this
run; `~` is the instructor's fresh home, so `~/jax-course` is used as written.

The students' lines of the same blocks are each student's own steps, run through nbgrader's apps
under a uid of their own when the tests run as root (`support/as_user.py`), with their work put
into the notebook before each `submit`. They are given `--student` on submit and fetch_feedback, as
the doc says a student must whose account name is not their id: nbgrader takes the id from the
uid's account name (`nbgrader.utils.get_username` reads pwd, not $USER), and these uids have no
account; for the same reason collect warns that each submission is "owned by unknown id" (its
check_owner), which it would not on a host with real accounts.

Nothing is mocked: nbgrader 0.9.6's own commands and default exchange. The loop runs once per
module (the `loop` fixture, which fails on the first command that fails); each test asserts on one
step of it.
"""
from __future__ import annotations

import json
import shlex
import shutil
import stat
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import pytest

from support.doc_shell import Segment, Shell, outside, segments
from support.exchange import LOGIN_PATH, ClassOnOneHost, files_under, open_class
from support.gradebook import RIGHT_DOUBLE, STUDENTS, dump_gradebook, points, sqlite_url
from support.machine import unavailable
from support.notebooks import ROOT

DOC = ROOT / "docs" / "INSTRUCTORS.md"
BLOCKS = ["exchange", "course directory", "class"]      # the marked blocks, in the doc's order
A = "02_static_shapes"                                  # the doc's assignment (the stand-in's is the toy)
# the doc's two paths of the host, and the ClassOnOneHost field that stands for each in this run
PLACEHOLDERS = {"/path/to/the/checkout": "clone", "/srv/nbgrader/exchange": "exchange"}
COMMAND_TIMEOUT = 180                                   # seconds, for any one command of the doc
RIGHT_TRIPLE = "def triple(x):\n    return 3.0 * x\n"
# one right, one wrong (passes the visible test, fails the hidden one), one hostile (kills its worker)
WORK = {
    "ada": {"double": RIGHT_DOUBLE, "triple": RIGHT_TRIPLE},
    "ben": {"double": STUDENTS["ben"]["double"], "triple": RIGHT_TRIPLE},
    "eve": {"double": STUDENTS["crash"]["double"], "triple": RIGHT_TRIPLE},
}
RESUBMITS = "ben"                                       # "a student" of the doc, who fixes `double`
REWORK = {"double": RIGHT_DOUBLE}
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
    runs: dict = field(default_factory=dict)        # step -> what it printed (CompletedProcess, Typed)
    fetched: dict = field(default_factory=dict)     # student -> {relative path: text} after the first fetch
    refetched: dict = field(default_factory=dict)   # the same after the resubmission
    seconds: dict = field(default_factory=dict)     # step -> wall time
    dumps: dict = field(default_factory=dict)       # "first" / "second" -> gradebook dump
    peek: dict = field(default_factory=dict)        # what eve's uid could see
    submitted: dict = field(default_factory=dict)   # "first" / "second" -> `collected()`
    _clock: float = field(default_factory=time.monotonic)

    def ok(self, step: str, proc, command: str = ""):
        self.runs[step] = proc
        self.seconds[step] = time.monotonic() - self._clock
        self._clock = time.monotonic()
        assert proc.returncode == 0, (f"{step}: {command or proc.args}: exit {proc.returncode}\n--- stdout "
                                      f"(end)\n{proc.stdout[-3000:]}\n--- stderr (end)\n{proc.stderr[-3000:]}")
        return proc

    def students(self, step: str, steps_by_student: dict[str, list]):
        while any(f"{step} {name}" in self.runs for name in steps_by_student):
            step += " again"
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


def _step(command: str, runs: dict) -> str:
    """A short name for a typed command: the subcommand and its flags (`collect --update`), or the
    command itself; ` again` when that name ran before."""
    words = shlex.split(command, comments=True)
    name = " ".join(words)
    if len(words) > 1 and Path(words[0]).name in ("nbgrader", "autograder"):
        name = " ".join([words[1]] + [w for w in words[2:] if w.startswith("--")])
    while name in runs:
        name += " again"
    return name


def student_steps(commands: list[str], name: str, work: dict) -> list:
    """A student's lines of the doc as `as_user` steps: each `nbgrader ...` as written (plus
    `--student`, see above), and their work written into the notebook before a `submit`."""
    steps = []
    for command in commands:
        words = shlex.split(command, comments=True)
        assert words[:1] == ["nbgrader"] and len(words) > 1, \
            f"{DOC.name}: a student's line this test cannot type for a student: {command!r}"
        if words[1] == "submit":
            steps.append(["solve", f"{A}/{A}.ipynb", work])
        steps.append(words + (["--student", name] if words[1] in ("submit", "fetch_feedback") else []))
    return steps


def _instructor(run: Loop, shell: Shell, written: str, placeholders: dict, counts: Counter):
    """One instructor's line of the doc, typed with the placeholders replaced; after `collect` and
    `autograde`, what they left is kept for the tests."""
    command = written
    for placeholder, path in placeholders.items():
        command = command.replace(placeholder, str(path))
    step = _step(written, run.runs)
    stray = outside(command, [run.klass.base])
    assert not stray, f"{DOC.name}: {written!r} names {stray}, outside this test's folders: add a placeholder"
    typed = run.ok(step, shell.type(command, COMMAND_TIMEOUT), command)
    for word, take in (("collect", lambda: run.collected()),
                       ("autograde", lambda: dump_gradebook(sqlite_url(run.klass.course)))):
        if step.split()[0] == word:
            counts[word] += 1
            (run.submitted if word == "collect" else run.dumps)[("first", "second")[counts[word] - 1]] = take()
    return typed


def _students(run: Loop, segment: Segment, counts: Counter):
    """One run of students' lines of the class block, by every student or by the one who resubmits,
    all at once; their first work before their first submit, the fix before the next."""
    names = list(WORK) if segment.role == "each student" else [RESUBMITS]
    steps = {}
    for name in names:
        steps[name] = student_steps(segment.commands, name, REWORK if counts[f"submit {name}"] else WORK[name])
        counts[f"submit {name}"] += sum(step[:2] == ["nbgrader", "submit"] for step in steps[name])
    feedback = any(step[:2] == ["nbgrader", "fetch_feedback"] for s in steps.values() for step in s)
    if feedback and not run.fetched and "eve" in steps:
        # eve also tries to get ben's page, and looks where she should not
        ex = run.klass.exchange / "jax-course"
        looks = [str(ex / "inbound"), str(ex / "feedback"), str(run.klass.students["ben"].home),
                 str(run.klass.course)]
        steps["eve"] += [_fetch_feedback("ben"), ["peek", looks]]
    run.students(" ".join(sorted({step[1] for s in steps.values() for step in s if step[0] == "nbgrader"})), steps)
    if feedback:
        (run.refetched if run.fetched else run.fetched).update({name: run.feedback_of(name) for name in WORK})


@pytest.fixture(scope="module")
def loop():
    for tool in ("nbgrader", "autograder", "jupyter"):       # the doc must say where they are
        assert shutil.which(tool, path=LOGIN_PATH) is None, f"{tool} is on the login PATH {LOGIN_PATH}"
    text = DOC.read_text()
    for placeholder in PLACEHOLDERS:
        assert placeholder in text, f"{DOC.name} no longer names {placeholder}: update PLACEHOLDERS"
    klass = open_class(list(WORK), A)
    run = Loop(klass)
    placeholders = {placeholder: getattr(klass, name) for placeholder, name in PLACEHOLDERS.items()}
    counts = Counter()      # how many times each step ran (collect, autograde, a student's submit)
    shell = Shell(klass.instructor_home, klass.instructor_env(), klass.base / "typed")
    try:
        for segment in segments(text, BLOCKS):
            if segment.role == "instructor":
                for command in segment.commands:
                    _instructor(run, shell, command, placeholders, counts)
                if segment.block == "course directory":
                    klass.course = shell.cwd()           # where the doc left the instructor
                continue
            _students(run, segment, counts)
        assert run.refetched, f"{DOC.name}: the class block ended before the resubmission's feedback was fetched"
        run.peek = json.loads(run.runs["fetch_feedback eve"].stdout.split("peek: ", 1)[1])
        yield run
    finally:
        shell.close()
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


def test_quickstart_made_the_course_directory_the_doc_then_works_in(loop):
    course = loop.klass.course
    assert course == (loop.klass.instructor_home / "jax-course").resolve()
    out = loop.runs["quickstart --exchange"].stdout
    assert f"{course}/bin/nbgrader collect" in out, out            # the next commands, by path
    assert _mode(course) == 0o700 and "submitted/" in (course / ".gitignore").read_text()
    tools = subprocess.run([str(course / "bin" / "python"), "-c", "import nbgrader, autograder"], timeout=60)
    assert tools.returncode == 0                                    # bin/ runs this environment


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


# ---------------------------------------------------------------- reading and typing the doc (no class)

def test_the_doc_marks_the_instructor_sequence_with_its_roles():
    roles = [(s.block, s.role) for s in segments(DOC.read_text(), BLOCKS)]
    assert roles == [("exchange", "instructor"), ("course directory", "instructor"), ("class", "instructor"),
                     ("class", "each student"), ("class", "instructor"), ("class", "each student"),
                     ("class", "one student"), ("class", "instructor"), ("class", "one student")], roles


def test_a_missing_block_or_a_line_no_one_can_type_fails():
    marked = "<!-- tested: instructor-sequence, exchange -->\n```sh\nmkdir -p /x \\\n  /y\n# each student\nls\n```\n"
    with pytest.raises(AssertionError, match="class"):
        segments(marked, ["exchange", "class"])
    with pytest.raises(AssertionError, match="not followed by a fenced code block"):
        segments("<!-- tested: instructor-sequence, exchange -->\nmkdir /x\n", ["exchange"])
    first, student = segments(marked, ["exchange"])
    assert first.commands == ["mkdir -p /x \\\n  /y"] and student.role == "each student"
    with pytest.raises(AssertionError, match="cannot type for a student"):
        student_steps(student.commands, "ada", {})
    assert outside("cd ~/c && $V/nbgrader x /srv/ex </dev/null", [Path("/tmp/t")]) == ["/srv/ex"]


def test_the_shell_keeps_its_state_and_a_command_past_its_time_leaves_nothing(tmp_path):
    shell = Shell(tmp_path, {"PATH": LOGIN_PATH, "HOME": str(tmp_path)}, tmp_path / "typed")
    try:
        assert shell.type("cd / && X=1   # a comment", 10).returncode == 0
        typed = shell.type('test "$X" = 1 && pwd && echo oops >&2', 10)
        assert (typed.returncode, typed.stdout, typed.stderr) == (0, "/\n", "oops\n")
        assert shell.type("false", 10).returncode == 1
        late = shell.type("sleep 60 & sleep 60", 1)
        assert late.returncode == 124 and "killed" in late.stderr
        deadline = time.monotonic() + 5
        while shell.left() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not shell.left()                   # the session's group is gone, its sleeps with it
    finally:
        shell.close()
