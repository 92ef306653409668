"""Shared fixtures: the course, short limits, a toy course, the student kit (helpers: tests/support/)."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from support.notebooks import TEST_TIMEOUT, make_notebook, toy_cells  # noqa: E402

os.environ.setdefault("JAX_COURSE_CELL_TIMEOUT", str(int(TEST_TIMEOUT * 3)))
os.environ.setdefault("AUTOGRADER_WORKER_JAX_PLATFORMS", os.environ.get("JAX_PLATFORMS", ""))
os.environ["JAX_PLATFORMS"] = "cpu"


@pytest.fixture(scope="session")
def course():
    from autograder.course import Course
    return Course(ROOT)


@pytest.fixture(scope="session")
def limits():
    from autograder.sandbox.process import Limits
    # compile_cache: the batches of the tests (both graders' agreement, the warm batch, the right
    # answers) share the grader's compile cache, as `autograde` does by default
    return Limits(cell_timeout=TEST_TIMEOUT, check_timeout=TEST_TIMEOUT, startup_timeout=60,
                  memory_mb=3072, output_bytes=1_000_000, compile_cache=True)


@pytest.fixture(scope="session")
def course_grading(course, tmp_path_factory, limits):
    """Every course assignment graded once per worker by both graders (tests/support/course_grading.py)."""
    from support.course_grading import CourseGrading
    return CourseGrading(course, tmp_path_factory, limits)


# The test files whose tests of one assignment share that assignment's grading (`course_grading`).
GRADED_BY_ASSIGNMENT = ("tests/test_course.py", "tests/test_right_answers.py")


def work_unit(nodeid: str, assignments) -> str:
    """What one worker runs whole (the Makefile's `--dist loadgroup`): a test of GRADED_BY_ASSIGNMENT's
    files whose parameters start with an assignment goes with that assignment's other tests, so one
    worker grades each assignment once for both files and assignments spread over the workers; any
    other test goes with its file, as `--dist loadfile` would keep it (a file's module fixtures are
    built once)."""
    path = nodeid.split("::", 1)[0]
    if path in GRADED_BY_ASSIGNMENT and "[" in nodeid:
        params = nodeid.split("[", 1)[1]
        for name in assignments:
            if params == f"{name}]" or params.startswith(f"{name}-"):
                return f"assignment {name}"
    return path


def pytest_xdist_make_scheduler(config, log):
    """`--dist loadgroup` with the work units of `work_unit`, computed from each test's id. (Not
    `xdist_group` marks: pytest 9 keeps a node's id where xdist 3.8's renaming does not reach, so
    marked groups are not kept together.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling
    from autograder.course import Course
    assignments = sorted(Course(ROOT).assignment_names(), key=len, reverse=True)

    class ByWorkUnit(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid, assignments)

    return ByWorkUnit(config, log)


@pytest.fixture
def toy_course(tmp_path):
    """A course directory holding the project's nbgrader_config.py and source/toy/toy.ipynb."""
    from autograder.course import Course
    root = tmp_path / "course"
    (root / "source" / "toy").mkdir(parents=True)
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    nbformat.write(make_notebook(toy_cells()), str(root / "source" / "toy" / "toy.ipynb"))
    return Course(root)


@pytest.fixture(scope="session")
def kit(tmp_path_factory):
    """The student kit, built by the real CLI (`autograder student-kit`)."""
    import subprocess
    out = tmp_path_factory.mktemp("kit") / "jax-course-kit"
    r = subprocess.run([sys.executable, "-m", "autograder.cli", "student-kit", "--out", str(out),
                        "--course-root", str(ROOT)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return out


@pytest.fixture(scope="session")
def kit_venv(kit):
    """A fresh environment outside the kit (as a class's shared environment or a JupyterHub image
    is) holding only what `install.sh ENV` puts there: docs/STUDENTS.md's way to install it. Made
    with a Python every user can run, in a folder every user can read (not pytest's, which is
    private): the hub test's students start their servers from it under their own uids."""
    import subprocess
    import tempfile
    from autograder.lab.hub import python_for_everyone
    shared = Path(tempfile.mkdtemp(prefix="jaxcourse-shared-"))
    shared.chmod(0o755)
    env = shared / "env"
    try:
        made = subprocess.run([python_for_everyone(), "-m", "venv", str(env)], capture_output=True, text=True,
                              timeout=300)
        assert made.returncode == 0, made.stderr[-3000:]
        r = subprocess.run(["sh", str(kit / "install.sh"), str(env)], capture_output=True, text=True, timeout=1200)
        assert r.returncode == 0, r.stderr[-3000:]
        assert (env / "etc" / "jupyter" / "labconfig" / "page_config.json").is_file()    # the student settings
        yield env
    finally:
        # removing a whole environment takes a minute on a slow disk: nothing waits for it
        subprocess.Popen(["rm", "-rf", str(shared)], start_new_session=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
