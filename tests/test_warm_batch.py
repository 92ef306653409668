"""A batch is graded by one grader process: nothing may carry from one student into the next.

Whatever stays warm across a batch (the grader's own JAX caches, imported modules, a worker parent
if one is ever kept), a student's evidence must be their own: a compiled program or a trace count
left by an earlier student must not make a retracing submission look clean, nor a clean one look
retracing. So a retracing submission is graded after a clean one and after the reference, in the
same batch (one process, one job at a time so the order is the order given), and must get exactly
the verdicts it gets when graded alone; so must the clean one and the reference.
"""
from __future__ import annotations

import nbformat
import pytest

from support.notebooks import load_cases, submission_from_source

ASSIGNMENT = "02_static_shapes"

# A correct solution written differently from the reference: the same program, so a warm jit cache
# keyed on what it computes (not on whose function it is) would be shared with the retracing one.
CLEAN = {"create_filled": (
    "def create_filled(val, length):\n"
    "    return jnp.full(shape=(length,), fill_value=val)\n"
    "\n"
    "create_filled_jit = jax.jit(create_filled, static_argnums=1)\n")}


def _verdicts(result: dict) -> dict:
    return {c["name"]: (c["passed"], c["points"]) for e in result["exercises"].values() for c in e["checks"]}


@pytest.fixture(scope="module")
def notebooks(course, tmp_path_factory):
    retracing = load_cases(ASSIGNMENT)["create_filled_val_static"]
    subs = {"reference": submission_from_source(course, ASSIGNMENT),
            "clean": submission_from_source(course, ASSIGNMENT, CLEAN),
            "retracing": submission_from_source(course, ASSIGNMENT, retracing["cells"])}
    tmp = tmp_path_factory.mktemp("warm")
    paths = {}
    for name, nb in subs.items():
        p = tmp / name / f"{ASSIGNMENT}.ipynb"
        p.parent.mkdir()
        nbformat.write(nb, str(p))
        paths[name] = p
    return paths, retracing["fails"]


def test_retracing_after_clean_and_reference_in_one_batch_matches_alone(course, limits, notebooks):
    from autograder.grading.grade import grade_many, grade_notebook
    paths, fails = notebooks
    alone = {name: _verdicts(grade_notebook(p, course, ASSIGNMENT, limits).to_json())
             for name, p in paths.items()}
    # the retracing submission's own failures, and nothing else, when graded alone
    assert sorted(n for n, (ok, _) in alone["retracing"].items() if not ok) == sorted(fails)
    assert all(ok for ok, _ in alone["clean"].values())
    assert all(ok for ok, _ in alone["reference"].values())

    order = ["clean", "retracing", "reference", "retracing", "clean"]
    batch = grade_many([paths[n] for n in order], course, ASSIGNMENT, limits, jobs=1)
    for name, result in zip(order, batch):
        assert _verdicts(result) == alone[name], f"{name} graded in a batch differs from alone"
