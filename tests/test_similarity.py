"""`autograder similarity`: copied solution cells are flagged, honest ones are not, and rare shared
code outweighs common shared code.

The class is 03_control_flow's, written into a real nbgrader course directory from the course's
own correct answers: the reference (the solution most of the class writes) and tests/cases' RIGHT
answers (five other idioms per exercise, one honest student each, no two alike on any exercise).
Planted among them: a full copy and a one-exercise copy, both with variables renamed and
comments added.
"""
from __future__ import annotations

import csv
import io
import re
import subprocess

import pytest

from support.classmates import disguise, idioms, make_course
from support.gradebook import _env, autograder_cmd

A = "03_control_flow"
THRESHOLD = 0.6      # Settings.threshold, the CLI's default (checked through the summary line)


@pytest.fixture(scope="module")
def answers(course):
    return idioms(course, A), course.assignment(A).exercises


def honest(answers, j: int) -> dict:
    """Honest student j: on exercise e the RIGHT answer 1 + (j + e) % 5, so no two share one."""
    ids, exercises = answers
    return {ex: ids[ex][1 + (j + e) % 5] for e, ex in enumerate(exercises)}


def reference_like(answers, i: int) -> dict:
    """The reference solution, every other one with its variables renamed and comments added."""
    ids, exercises = answers
    return {ex: disguise(ids[ex][0], f"r{i}", keep=exercises) if i % 2 else ids[ex][0] for ex in exercises}


@pytest.fixture(scope="module")
def mixed(course, answers, tmp_path_factory):
    ids, exercises = answers
    students = {f"ref{i}": reference_like(answers, i) for i in range(8)}
    students.update({f"honest{j}": honest(answers, j) for j in range(5)})
    # copies: honest2's whole notebook, and honest3's collatz_steps (its longest cell) alone
    students["copy_full"] = {ex: disguise(src, "c", keep=exercises) for ex, src in honest(answers, 2).items()}
    students["copy_one"] = {**reference_like(answers, 0),
                            "collatz_steps": disguise(honest(answers, 3)["collatz_steps"], "o", keep=exercises)}
    students["blank_a"] = students["blank_b"] = {}          # the release, untouched
    root = make_course(course, tmp_path_factory.mktemp("similar") / "course", A, students)
    run = subprocess.run(autograder_cmd("similarity", root, A), capture_output=True, text=True, env=_env(),
                         timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    out = root / "reports" / A / "similarity"
    rows = list(csv.DictReader(open(out / "pairs.csv")))
    return root, run, rows, out


def pair(rows, a, b) -> tuple[int, dict]:
    for n, row in enumerate(rows):
        if {row["student_a"], row["student_b"]} == {a, b}:
            return n, row
    raise AssertionError(f"no row for {a} & {b}")


def test_every_pair_has_a_row_with_notebook_and_exercise_scores(mixed, answers):
    from autograder.classroom.similarity import Settings
    assert Settings().threshold == THRESHOLD     # the default the CLI's help states
    _, run, rows, _ = mixed
    n = 17
    assert len(rows) == n * (n - 1) // 2
    assert list(rows[0]) == ["student_a", "student_b", "score", "notebook", *answers[1], "flagged"]
    scores = [float(r["score"]) for r in rows]
    assert scores == sorted(scores, reverse=True)
    assert re.fullmatch(rf"similarity {A}: 17 students, 136 pairs, 2 flagged at >= {THRESHOLD:g}; "
                        rf"top: copy_full & honest2 \d\.\d\d; reports/{A}/similarity/ "
                        r"\(pairs.csv, similarity.html\)\n", run.stdout), run.stdout


def test_planted_copies_are_flagged(mixed):
    _, _, rows, _ = mixed
    _, full = pair(rows, "copy_full", "honest2")
    assert full["flagged"] == "yes" and float(full["notebook"]) >= THRESHOLD, full
    _, one = pair(rows, "copy_one", "honest3")
    # one exercise of six: the notebook's score alone would miss it, the exercise's catches it
    assert one["flagged"] == "yes" and float(one["collatz_steps"]) >= THRESHOLD, one
    assert float(one["notebook"]) < THRESHOLD, one


def test_honest_and_reference_like_students_are_not_flagged(mixed):
    _, _, rows, _ = mixed
    flagged = {frozenset((r["student_a"], r["student_b"])) for r in rows if r["flagged"] == "yes"}
    assert flagged == {frozenset(("copy_full", "honest2")), frozenset(("copy_one", "honest3"))}
    honest_pairs = [r for r in rows if r["student_a"].startswith("honest") and r["student_b"].startswith("honest")]
    assert len(honest_pairs) == 10 and max(float(r["score"]) for r in honest_pairs) < 0.35, honest_pairs[:2]


def test_a_class_that_mostly_wrote_the_reference_flags_nobody(course, answers, tmp_path):
    """Nine of twelve students hand in the reference (six of them disguised differently): all
    identical after filtering, and none of it evidence, as is the honest three's own code."""
    from autograder.classroom.nbgrader_course import NbgraderCourse
    from autograder.classroom.similarity import Settings, run_similarity
    students = {f"ref{i}": reference_like(answers, i) for i in range(9)}
    students.update({f"honest{j}": honest(answers, j) for j in range(3)})
    result = run_similarity(NbgraderCourse(make_course(course, tmp_path / "course", A, students)), A, Settings())
    assert result.flagged() == [] and result.pair_score.max() < 0.35, result.pair_score.max()
    unweighted = run_similarity(NbgraderCourse(tmp_path / "course"), A, Settings(common_min=1000))
    assert len(unweighted.flagged()) >= 36      # the check can fail: with no cap, the references match


def test_the_common_solution_ranks_below_a_shared_unusual_one(mixed, answers):
    """ref0 and ref2 submitted the very same notebook (copydetect alone calls them identical), but
    eight students wrote that code; copy_one and honest3 share one unusual cell."""
    from copydetect import CodeFingerprint, compare_files
    ids, _ = answers
    cell = ids["repeated_square"][0]
    prints = [CodeFingerprint("a.py", 16, 1, language="python", fp=io.StringIO(cell)) for _ in range(2)]
    assert compare_files(*prints)[1] == (1.0, 1.0)
    _, _, rows, _ = mixed
    common_rank, common = pair(rows, "ref0", "ref2")
    rare_rank, rare = pair(rows, "copy_one", "honest3")
    assert rare_rank < common_rank and float(common["score"]) < float(rare["score"]), (common, rare)
    assert float(common["score"]) < 0.1, common


def test_handed_out_code_is_not_compared(mixed):
    _, _, rows, _ = mixed
    _, row = pair(rows, "blank_a", "blank_b")      # two untouched release notebooks
    assert float(row["score"]) == 0.0, row


def test_page_shows_flagged_pairs_side_by_side(mixed):
    _, _, _, out = mixed
    page = (out / "similarity.html").read_text()
    sections = re.findall(r"<section><h2>(\w+) &amp; (\w+)", page)
    assert sorted(map(sorted, sections)) == [["copy_full", "honest2"], ["copy_one", "honest3"]]
    one = page[page.index("<h2>copy_one"):]
    one = one[:one.index("</section>")]
    # the copied cell, both sides marked, the copier's renamed names inside the marks
    assert one.count('<div class="side">') == 1 and "<h3>collatz_steps" in one
    marked = "".join(re.findall(r"<mark>(.*?)</mark>", one, re.S))
    assert "_o" in marked and "lax" in marked


def test_class_report_says_how_many_pairs_were_flagged(mixed, tmp_path):
    from autograder.classroom.class_report import write_report
    from autograder.classroom.nbgrader_course import NbgraderCourse
    root = mixed[0]
    ncourse = NbgraderCourse(root)
    page = write_report(ncourse, A).read_text()
    assert "Similarity: 2 of 136 pairs flagged" in page and 'href="similarity/similarity.html"' in page
    elsewhere = write_report(ncourse, A, tmp_path / "other").read_text()
    assert "Similarity" not in elsewhere


def _error(root, *args):
    r = subprocess.run(autograder_cmd("similarity", root, *args), capture_output=True, text=True, env=_env(),
                       timeout=120)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and lines[0].startswith("autograder: error: "), r.stderr
    return lines[0]


def test_bad_input_is_a_one_line_error(mixed, course, tmp_path):
    root = mixed[0]
    assert "unknown assignment 'no_such'" in _error(root, "no_such")
    assert "--threshold 1.5" in _error(root, A, "--threshold", "1.5")
    empty = make_course(course, tmp_path / "empty", A, {})
    assert "0 readable submission(s)" in _error(empty, A)
    assert "no nbgrader_config.py" in _error(tmp_path, A)


def test_unreadable_submissions_are_left_out_with_a_note(course, answers, tmp_path):
    root = make_course(course, tmp_path / "course", A, {"ada": honest(answers, 0), "ben": honest(answers, 1)})
    (root / "submitted" / "cal" / A).mkdir(parents=True)
    (root / "submitted" / "cal" / A / f"{A}.ipynb").write_text("{ not a notebook")
    out = tmp_path / "elsewhere"
    r = subprocess.run(autograder_cmd("similarity", root, A, "--out", out, "--threshold", "0.9"),
                       capture_output=True, text=True, env=_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    assert re.fullmatch(r"autograder: note: left out cal: .*not a readable Jupyter notebook.*\n", r.stderr), r.stderr
    assert r.stdout.startswith(f"similarity {A}: 2 students, 1 left out, 1 pair, 0 flagged at >= 0.9;"), r.stdout
    assert len(list(csv.DictReader(open(out / "pairs.csv")))) == 1 and (out / "similarity.html").exists()
