"""`autograder autograde` in nbgrader's course layout, into nbgrader's sqlite gradebook, and what
reads that gradebook afterwards: formgrader's API and views, manual grading, `nbgrader export`,
`autograder feedback` and `autograder report`.

One toy class (honest, hostile and mangled students, plus three folders that cannot be graded) is
graded once per module: first the honest students alone, then everyone together with --force, so
the honest students' rows can be compared between the two runs.
"""
from __future__ import annotations

import csv
import json
import os
import pty
import re
import shutil
import signal
import subprocess
from pathlib import Path

import nbformat
import pytest

from support.gradebook import (EXPECTED, HONEST, UNGRADABLE, autograder_cmd, copy_course, descendants,
                               dump_gradebook, make_course, points, run_autograde, run_nbgrader,
                               sqlite_url, start_autograde, student_notebook, submit, submit_class,
                               wait_for_results, _env)


@pytest.fixture(scope="module")
def toy_class(tmp_path_factory):
    root = make_course(tmp_path_factory.mktemp("class") / "course")
    submit_class(root)
    first = run_autograde(root, "toy", *sum((["--student", s] for s in HONEST), []), "--jobs", "2")
    assert first.returncode == 0, first.stdout + first.stderr
    honest_alone = dump_gradebook(sqlite_url(root))
    run = run_autograde(root, "toy", "--jobs", "2", "--force")
    return root, run, honest_alone


def test_every_student_gets_grades_or_one_line_error(toy_class):
    root, run, _ = toy_class
    assert run.returncode == 2, run.stdout + run.stderr
    errors = run.stderr.strip().splitlines()
    assert len(errors) == len(UNGRADABLE), run.stderr
    for student, words in UNGRADABLE.items():
        line = next(e for e in errors if e.startswith(f"autograder: error: {student}: "))
        assert words in line
    assert points(dump_gradebook(sqlite_url(root))) == EXPECTED


def test_a_hostile_batch_changes_no_other_row(toy_class):
    root, _, honest_alone = toy_class
    after = dump_gradebook(sqlite_url(root), students=HONEST)
    assert after == honest_alone


def test_same_rows_as_nbgrader_autograde_on_honest_submissions(toy_class, tmp_path):
    from autograder.course import Course
    from autograder.course.release import build
    root, _, _ = toy_class
    release = build(Course(root), tmp_path / "release", ["toy"])[0]
    copies = {}
    for name in ("ours", "theirs"):
        work = copy_course(root, tmp_path / name)
        for student in os.listdir(work / "submitted"):
            if student not in HONEST:
                shutil.rmtree(work / "submitted" / student)
        # a submission time, so nbgrader's timestamp handling is compared too
        (work / "submitted" / "ada" / "toy" / "timestamp.txt").write_text("2031-01-02 03:04:05.000000 UTC")
        # the release untouched: zero points, and "No response." on its solution cells
        submit(work, "toy", "blank", nbformat.read(str(release), as_version=4))
        copies[name] = work
    assert run_autograde(copies["ours"], "toy", "--jobs", "2").returncode == 0
    assert run_nbgrader(copies["theirs"], "generate_assignment", "toy", "--force", "--create").returncode == 0
    r = run_nbgrader(copies["theirs"], "autograde", "toy", "--force")
    assert r.returncode == 0, r.stderr[-3000:]
    theirs = dump_gradebook(sqlite_url(copies["theirs"]))
    assert dump_gradebook(sqlite_url(copies["ours"])) == theirs
    assert points(theirs) == {**{s: EXPECTED[s] for s in HONEST},
                              "blank": {"double_correctness": 0.0, "double_jit": 0.0, "triple_correctness": 0.0}}
    assert theirs["toy/blank/toy"]["comments"]["double"] == ("No response.", None)
    assert theirs["toy/ada/toy"]["timestamp"].startswith("2031-01-02")


def test_autograded_notebook_where_nbgrader_puts_it(toy_class):
    from nbgrader.utils import determine_grade, is_grade
    root, _, _ = toy_class
    book = points(dump_gradebook(sqlite_url(root)))
    for student in EXPECTED:
        path = root / "autograded" / student / "toy" / "toy.ipynb"
        assert oct(path.stat().st_mode & 0o777) == "0o444"
        nb = nbformat.read(str(path), as_version=4)
        graded = {c.metadata["nbgrader"]["grade_id"]: determine_grade(c)[0]
                  for c in nb.cells if c.get("metadata", {}).get("nbgrader") and is_grade(c)}
        # nbgrader's own rule reads the same points from the notebook as the gradebook holds
        assert graded == book[student], student
    relabelled = nbformat.read(str(root / "autograded" / "relabelled" / "toy" / "toy.ipynb"), as_version=4)
    assert any("BEGIN HIDDEN TESTS" in c.source for c in relabelled.cells)  # the instructor's copy


def test_nbgrader_export_reads_the_grades(toy_class):
    root, _, _ = toy_class
    r = run_nbgrader(root, "export", "--to", "grades.csv")
    assert r.returncode == 0, r.stderr[-2000:]
    rows = {row["student_id"]: row for row in csv.DictReader(open(root / "grades.csv"))
            if row["assignment"] == "toy"}
    assert {s: float(rows[s]["score"]) for s in EXPECTED} == {s: sum(p.values()) for s, p in EXPECTED.items()}
    assert float(rows["ada"]["max_score"]) == 4.0


def test_unchanged_students_are_skipped_and_force_regrades(toy_class):
    root, _, _ = toy_class
    before = dump_gradebook(sqlite_url(root))
    again = run_autograde(root, "toy", *sum((["--student", s] for s in EXPECTED), []))
    assert again.returncode == 0, again.stderr
    assert again.stdout.count("unchanged since it was graded") == len(EXPECTED)
    assert dump_gradebook(sqlite_url(root)) == before
    forced = run_autograde(root, "toy", "--student", "ben", "--force")
    assert "ben: 2/4" in forced.stdout and "unchanged" not in forced.stdout
    assert dump_gradebook(sqlite_url(root)) == before


def test_manual_grade_survives_regrading(toy_class, tmp_path):
    from nbgrader.api import Gradebook
    root = Path(shutil.copytree(toy_class[0], tmp_path / "course"))    # graded as it is, others untouched
    with Gradebook(sqlite_url(root), "jax-course") as gb:
        grade = gb.find_grade("double_correctness", "toy", "toy", "ben")
        grade.manual_score = 1.5
        gb.db.commit()
    r = run_autograde(root, "toy", "--student", "ben", "--force")
    assert r.returncode == 0, r.stderr
    row = dump_gradebook(sqlite_url(root))["toy/ben/toy"]["grades"]["double_correctness"]
    assert row == (0.0, 1.5, True)            # formgrader flags it for review, as nbgrader does
    run_nbgrader(root, "export", "--to", str(tmp_path / "g.csv"))
    ben = next(r for r in csv.DictReader(open(tmp_path / "g.csv")) if r["student_id"] == "ben")
    assert float(ben["score"]) == 3.5


def test_formgrader_shows_the_submissions(toy_class):
    """formgrader's own API (what its pages call) and its manual-grading view of a notebook."""
    from nbconvert.exporters import HTMLExporter
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.server_extensions.formgrader import handlers
    from traitlets.config import Config
    root, _, _ = toy_class
    cfg = Config()
    cfg.CourseDirectory.root = str(root)
    cfg.CourseDirectory.course_id = "jax-course"
    api = NbGraderAPI(CourseDirectory(config=cfg), config=cfg)
    subs = {s["student"]: s for s in api.get_submissions("toy")}
    for student, cells in EXPECTED.items():
        assert subs[student]["autograded"] and subs[student]["score"] == sum(cells.values()), student
    nbs = {n["student"]: n for n in api.get_notebook_submissions("toy", "toy")}
    assert nbs["crash"]["failed_tests"] and not nbs["ada"]["failed_tests"]
    cfg.HTMLExporter.template_name = "formgrade"
    cfg.HTMLExporter.extra_template_basedirs = [handlers.template_path]
    html, _ = HTMLExporter(config=cfg).from_filename(
        str(root / "autograded" / "crash" / "toy" / "toy.ipynb"),
        resources={"assignment_id": "toy", "notebook_id": "toy", "submission_id": nbs["crash"]["id"],
                   "index": 0, "total": len(nbs), "base_url": "", "student": "crash", "last_name": None,
                   "first_name": None, "notebook_path": "autograded/crash/toy/toy.ipynb"})
    assert "double_correctness" in html and "exited with code 3" in html


def test_feedback_never_shows_hidden_tests(toy_class):
    from autograder.classroom.feedback import hidden_lines
    root, _, _ = toy_class
    r = subprocess.run(autograder_cmd("feedback", root, "toy"), capture_output=True, text=True, env=_env())
    assert r.returncode == 0, r.stderr
    source = nbformat.read(str(root / "source" / "toy" / "toy.ipynb"), as_version=4)
    secrets = ["SECRET_PROBE", "31.5", "-7.25"]
    for cell in source.cells:
        hidden = hidden_lines(cell.source)
        secrets += [line.strip() for n, line in enumerate(cell.source.split("\n"), 1)
                    if n in hidden and line.strip()]
    ben = json.loads((root / "results" / "toy" / "ben.json").read_text())
    assert "failed on a hidden test" in ben["exercises"]["double"]["checks"][0]["message"]
    assert not any(s in ben["exercises"]["double"]["checks"][0]["message"] for s in secrets)  # not even in the JSON
    pages = list((root / "feedback").glob("*/toy/toy.html"))
    assert {p.parent.parent.name for p in pages} == set(EXPECTED)
    for page in pages:
        text = page.read_text()
        for secret in secrets:
            assert secret not in text, (page, secret)
    ben_page = (root / "feedback" / "ben" / "toy" / "toy.html").read_text()
    assert "double_correctness failed on a hidden test" in ben_page and "0 / 2" in ben_page
    cal_page = (root / "feedback" / "cal" / "toy" / "toy.html").read_text()
    assert "values of triple(x) failed" in cal_page and "[3. 3.]" in cal_page   # visible evidence stays


def test_class_report(toy_class):
    root, _, _ = toy_class
    r = subprocess.run(autograder_cmd("report", root, "toy"), capture_output=True, text=True, env=_env())
    assert r.returncode == 0, r.stderr
    out = root / "reports" / "toy"
    rows = list(csv.DictReader(open(out / "scores.csv")))
    assert {row["student"] for row in rows} == set(EXPECTED) | set(UNGRADABLE)
    assert list(rows[0])[4:] == ["double_correctness", "double_jit", "triple_correctness"]
    by = {row["student"]: row for row in rows}
    assert float(by["cal"]["triple_correctness"]) == 0 and by["notjson"]["graded"] == "no"
    for png in ("score_histogram.png", "pass_rate.png", "failure_causes.png"):
        data = (out / png).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
        assert f'src="{png}"' in (out / "summary.html").read_text()
    summary = (out / "summary.html").read_text()
    assert "Not graded: empty, notjson, two" in summary
    assert re.search(r"<td>\d+</td><td>[^<]*exited with code 3|<td>\d+</td><td>\(no cause line\)", summary)


def test_bad_assignment_and_missing_folder_are_one_line_errors(tmp_path):
    root = make_course(tmp_path / "c")
    r = run_autograde(root, "toy")
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0
    assert "no submitted/ folder" in r.stderr
    submit(root, "toy", "ada", student_notebook({}))
    r = run_autograde(root, "nope")
    assert r.returncode == 2 and r.stderr.strip() == "autograder: error: unknown assignment 'nope' (known: toy)"


def _kill_midway(root: Path, sig: int, graded_first: int = 2) -> str:
    """Start a run, send `sig` once `graded_first` students are done; returns its output."""
    proc = start_autograde(root, "toy", "--jobs", "1")
    started = []
    try:
        wait_for_results(root, "toy", graded_first, proc)
        started = descendants(proc.pid)
        proc.send_signal(sig)
        proc.wait(timeout=60)
    finally:
        for pid in started:     # a worker orphaned by SIGKILL (it would exit by itself at EOF)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.stdout.read()


@pytest.fixture(scope="module")
def honest_class(tmp_path_factory):
    """Six honest students, graded without interruption: the gradebook a killed run must reach."""
    root = make_course(tmp_path_factory.mktemp("honest") / "course")
    for i in range(6):
        submit(root, "toy", f"s{i}", student_notebook(
            {"double": f"def double(x):\n    return {i % 3}.0 * x\n"} if i % 2 else {}))
    r = run_autograde(root, "toy", "--jobs", "2")
    assert r.returncode == 0, r.stderr
    return root, dump_gradebook(sqlite_url(root))


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_killed_run_resumes_to_the_same_gradebook(honest_class, tmp_path, sig):
    src, uninterrupted = honest_class
    root = copy_course(src, tmp_path / "course")
    out = _kill_midway(root, sig)
    graded = len(list((root / "results" / "toy").glob("*.json")))
    assert 2 <= graded < 6, out
    if sig == signal.SIGINT:
        assert "interrupted" in out
    rerun = run_autograde(root, "toy", "--jobs", "2")
    assert rerun.returncode == 0, rerun.stderr
    assert rerun.stdout.count("unchanged since it was graded") == graded      # only the rest is graded
    assert dump_gradebook(sqlite_url(root)) == uninterrupted


def test_two_assignments_at_once_into_one_gradebook(tmp_path):
    """Two autograde commands start together on an empty gradebook; nothing is lost."""
    root = make_course(tmp_path / "course", assignments=("toy", "toy2"))
    for a in ("toy", "toy2"):
        for student in HONEST:
            submit(root, a, student, student_notebook({}))
    procs = [start_autograde(root, a, "--jobs", "1") for a in ("toy", "toy2")]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    dump = dump_gradebook(sqlite_url(root))
    full = {"double_correctness": 2.0, "double_jit": 1.0, "triple_correctness": 1.0}
    assert points(dump, "toy") == points(dump, "toy2") == {s: full for s in HONEST}


def test_progress_bar_on_a_terminal(honest_class):
    root, _ = honest_class
    main, secondary = pty.openpty()
    env = {**_env(), "COLUMNS": "120", "TERM": "xterm"}
    proc = subprocess.Popen(autograder_cmd("autograde", root, "toy", "--student", "s0", "--student", "s1",
                                           "--force", "--jobs", "2"),
                            stdout=secondary, stderr=secondary, env=env)
    os.close(secondary)
    chunks = []
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(main)
    screen = b"".join(chunks).decode(errors="replace")
    assert proc.returncode == 0, screen
    assert "━" in screen and "students," in screen and "left" in screen        # the rich bar
    assert "s0: 4/4" in screen and "graded 2" in screen                       # lines and summary


def test_a_student_being_graded_elsewhere_is_left_alone(honest_class, tmp_path):
    """Never the same student twice at once: a run finding s0's folder locked by another run leaves
    s0 to it (and its rows as they are) and grades the others."""
    import fcntl
    src, uninterrupted = honest_class
    root = copy_course(src, tmp_path / "course")
    fd = os.open(root / "submitted" / "s0" / "toy", os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        r = run_autograde(root, "toy", "--student", "s0", "--student", "s1")
    finally:
        os.close(fd)
    assert r.returncode == 0, r.stderr
    assert "s0: being graded by another autograde run" in r.stdout and "s1: 2/4" in r.stdout
    assert set(dump_gradebook(sqlite_url(root))) == {"toy/s1/toy"}
