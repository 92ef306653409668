"""Grade one assignment's notebooks with both graders: the `autograder` CLI's `grade_many` and
`nbgrader autograde` (into its own gradebook), as the course tests compare them cell by cell. With
`limits.compile_cache`, both read one compile cache built from the references (the CLI's workers as
`autograde` does, nbgrader's kernels as our runs of nbgrader do: `classroom/kernel_cache.py`)."""
from __future__ import annotations

from pathlib import Path

import nbformat


def grade_with_both(course, assignment: str, notebooks: dict, workdir: Path, limits, jobs: int = 2):
    """{student: notebook} -> ({student: CLI result JSON}, {student: {cell: nbgrader points}},
    {student: the notebook's path})."""
    from autograder.classroom import nbgrader_run
    from autograder.grading.batch_cache import BatchCache
    from autograder.grading.grade import grade_many

    paths = {}
    for student, nb in notebooks.items():
        path = workdir / "in" / student / f"{assignment}.ipynb"
        path.parent.mkdir(parents=True)
        nbformat.write(nb, str(path))
        paths[student] = path
    # one compile cache, built from the references, for the CLI's workers and nbgrader's kernels
    # (`kernel_cache.py`), as grade_many would build it (the batch hidden from every worker)
    cache = BatchCache(limits, course.hidden_paths() + [str(p.resolve()) for p in paths.values()]) \
        if limits.compile_cache else None
    try:
        cli = dict(zip(paths, grade_many(list(paths.values()), course, assignment, limits, jobs=jobs, cache=cache)))
        work = nbgrader_run.prepare(course, workdir / "nbgrader", assignment, paths)
        nbgrader_run.generate(work, assignment)
        built = cache.build(course.assignment(assignment)) if cache else None
        assert cache is None or (built and built.digest), f"no compile cache was built: {built}"
        run = nbgrader_run.run_nbgrader_autograde(work, assignment, cache=built)
    finally:
        if cache:
            cache.close()
    assert run.returncode == 0, run.stderr[-3000:]
    return cli, nbgrader_run.read_gradebook(work, assignment), paths


def check_points(result: dict) -> dict:
    """{graded cell: points} of a CLI result, as nbgrader's gradebook holds them (no integrity)."""
    return {c["name"]: c["points"] for e in result["exercises"].values() for c in e["checks"]
            if c["kind"] != "integrity"}


def disagreements(cli: dict, gradebook: dict) -> list:
    """(student, cell, ours, nbgrader's) wherever the two graders differ, or a cell one lacks."""
    out = []
    for student, result in cli.items():
        ours, theirs = check_points(result), gradebook[student]
        for cell in set(ours) | set(theirs):
            if cell not in ours or cell not in theirs or abs(ours[cell] - theirs[cell]) > 1e-9:
                out.append((student, cell, ours.get(cell), theirs.get(cell)))
    return out
