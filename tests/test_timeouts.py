"""Timeouts per cell from the references (autograder/grading/timeouts.py): a hung call waits what its
cell's reference costs times the margin (at least the floor), never more than the configured timeout;
`--no-reference-timeouts` gives every cell the configured one. That no correct answer times out under
them is tests/test_right_answers.py's (the course's slowest correct answers, graded in a batch)."""
from __future__ import annotations

import dataclasses

from support.notebooks import toy_cells, write_toy_submission
from autograder.grading import timeouts
from autograder.grading.batch_cache import BatchCache
from autograder.grading.grade import grade_many
from autograder.sandbox.process import Limits

HANGS = "def triple(x):\n    while True:\n        pass\n"


def test_derived_timeouts_have_a_floor_and_a_margin():
    t = timeouts.derive({"fast_check": 0.001, "slow_check": 2.0, "solution": 0.0})
    assert t == {"fast_check": timeouts.FLOOR_S, "slow_check": timeouts.MARGIN * 2.0,
                 "solution": timeouts.FLOOR_S}


def test_a_cell_gets_its_own_timeout_never_above_the_configured_one():
    limits = Limits(check_timeout=30.0, cell_timeout=20.0, cell_timeouts={"a": 6.0, "b": 400.0, "ex": 7.0})
    assert timeouts.call_timeout(limits, "a") == 6.0
    assert timeouts.call_timeout(limits, "b") == 30.0          # capped by --check-timeout
    assert timeouts.call_timeout(limits, "unmeasured") == 30.0
    assert timeouts.call_timeout(limits, None) == 30.0
    assert timeouts.exec_timeout(limits, "ex") == 7.0
    off = dataclasses.replace(limits, reference_timeouts=False)  # the instructor's override
    assert timeouts.call_timeout(off, "a") == 30.0 and timeouts.exec_timeout(off, "ex") == 20.0


def test_a_value_that_is_not_a_positive_number_is_not_a_timeout():
    limits = Limits(check_timeout=30.0, cell_timeouts={"a": "5", "b": -1, "c": 0})
    assert [timeouts.call_timeout(limits, g) for g in "abc"] == [30.0, 30.0, 30.0]


def _hung_batch(toy_course, tmp_path, **limits):
    ok = write_toy_submission(tmp_path / "ok" / "toy.ipynb")
    hung = write_toy_submission(tmp_path / "hung" / "toy.ipynb", cells=toy_cells(triple=HANGS))
    settings = {"check_timeout": 60.0, "cell_timeout": 60.0, "compile_cache": True, **limits}
    cache = BatchCache(Limits(**settings), toy_course.hidden_paths())
    try:
        # one notebook at a time: the second one graded waits for the build, and gets its timeouts
        results = grade_many([ok, hung], toy_course, "toy", cache.limits, jobs=1, cache=cache)
        return results, cache.built["toy"]
    finally:
        cache.close()


def _triple_check(result):
    return next(c for c in result["exercises"]["triple"]["checks"] if c["name"] == "triple_correctness")


def test_a_hung_call_waits_its_cells_timeout_not_the_configured_one(toy_course, tmp_path):
    (ok, hung), built = _hung_batch(toy_course, tmp_path)
    assert ok["score"] == ok["max_score"] > 0
    derived = timeouts.derive(built.reference_seconds)["triple_correctness"]
    assert timeouts.FLOOR_S <= derived < 60.0, built.reference_seconds
    check = _triple_check(hung)
    assert not check["passed"] and f"timed out after {derived:g} s" in check["message"], check["message"]
    assert hung["score"] == 3          # `double` keeps its points


def test_without_reference_timeouts_a_hung_call_waits_the_configured_timeout(toy_course, tmp_path):
    (ok, hung), built = _hung_batch(toy_course, tmp_path, reference_timeouts=False, check_timeout=7.0)
    check = _triple_check(hung)
    assert not check["passed"] and "timed out after 7 s" in check["message"], check["message"]
