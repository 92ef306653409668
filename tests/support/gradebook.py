"""Helpers for the `autograder autograde` tests (sqlite and PostgreSQL): a toy nbgrader course with
hidden tests, a class of students (honest, hostile and mangled), running the real commands, and a
gradebook dumped as plain data so two gradebooks can be compared row by row."""
from __future__ import annotations

import copy
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat

from support.notebooks import ROOT, make_notebook, toy_cells

# double_correctness holds a hidden test whose message would name its input (the secret values and
# the word SECRET_PROBE), so a feedback page that leaked hidden tests would show them.
HIDDEN_DOUBLE_TEST = (
    "check.assert_close(double(jnp.arange(3.0)), jnp.array([0.0, 2.0, 4.0]), what='double(x)')\n"
    "### BEGIN HIDDEN TESTS\n"
    "secret_input = jnp.array([31.5, -7.25])\n"
    "check.assert_close(double(secret_input), secret_input * 2.0,\n"
    "                   what=f'double({secret_input.tolist()}) SECRET_PROBE')\n"
    "### END HIDDEN TESTS"
)

RIGHT_DOUBLE = "def double(x):\n    return 2.0 * x\n"
STUDENTS = {
    # honest
    "ada": {},
    "ben": {"double": "def double(x):\n    return 2.0 * jnp.abs(x)\n"},   # fails only the hidden test
    "cal": {"triple": "def triple(x):\n    return x\n"},
    # hostile
    "crash": {"double": "import os\ndef double(x):\n    os._exit(3)\n"},
    "hang": {"triple": "while True:\n    pass\n"},
}
HONEST = ["ada", "ben", "cal"]
# points per graded cell (double_correctness 2, double_jit 1, triple_correctness 1)
EXPECTED = {
    "ada": {"double_correctness": 2.0, "double_jit": 1.0, "triple_correctness": 1.0},
    "ben": {"double_correctness": 0.0, "double_jit": 1.0, "triple_correctness": 1.0},
    "cal": {"double_correctness": 2.0, "double_jit": 1.0, "triple_correctness": 0.0},
    "crash": {"double_correctness": 0.0, "double_jit": 0.0, "triple_correctness": 1.0},
    "hang": {"double_correctness": 2.0, "double_jit": 1.0, "triple_correctness": 0.0},
    "deleted": {"double_correctness": 0.0, "double_jit": 0.0, "triple_correctness": 1.0},
    "duplicated": {"double_correctness": 0.0, "double_jit": 1.0, "triple_correctness": 1.0},
    "retyped": {"double_correctness": 0.0, "double_jit": 0.0, "triple_correctness": 1.0},
    "relabelled": {"double_correctness": 2.0, "double_jit": 1.0, "triple_correctness": 1.0},
}
UNGRADABLE = {"notjson": "not a readable Jupyter notebook", "empty": "no notebook in",
              "two": "2 notebooks in"}


def source_cells():
    cells = toy_cells()
    for cell in cells:
        if cell.metadata["nbgrader"]["grade_id"] == "double_correctness":
            cell.source = HIDDEN_DOUBLE_TEST
    return cells


def _cell(nb, grade_id):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def student_notebook(own: dict[str, str]):
    """The solved assignment with the student's own solution cells."""
    nb = make_notebook(source_cells())
    for gid, src in own.items():
        _cell(nb, gid).source = src
    return nb


def mangled_notebooks() -> dict:
    deleted = student_notebook({})
    deleted.cells = [c for c in deleted.cells if c.metadata.get("nbgrader", {}).get("grade_id") != "double"]
    duplicated = student_notebook({})
    dup = copy.deepcopy(_cell(duplicated, "double"))
    dup.source = "def double(x):\n    return x\n"
    dup["id"] = "second-double"
    duplicated.cells.append(dup)        # a notebook run keeps the last definition
    retyped = student_notebook({})
    cell = _cell(retyped, "double")
    retyped.cells[retyped.cells.index(cell)] = nbformat.v4.new_markdown_cell(cell.source, metadata=cell.metadata)
    relabelled = student_notebook({})
    _cell(relabelled, "double").metadata["nbgrader"].update({"grade": True, "points": 100})
    return {"deleted": deleted, "duplicated": duplicated, "retyped": retyped, "relabelled": relabelled}


def make_course(root: Path, assignments=("toy",), config_extra: str = "") -> Path:
    """An nbgrader course: the project's nbgrader_config.py and source/<a>/<a>.ipynb for each."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "nbgrader_config.py").write_text((ROOT / "nbgrader_config.py").read_text() + config_extra)
    for a in assignments:
        (root / "source" / a).mkdir(parents=True, exist_ok=True)
        nbformat.write(make_notebook(source_cells()), str(root / "source" / a / f"{a}.ipynb"))
    return root


def submit(root: Path, assignment: str, student: str, nb=None, raw: str | None = None):
    folder = root / "submitted" / student / assignment
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{assignment}.ipynb"
    if raw is not None:
        path.write_text(raw)
    elif nb is not None:
        nbformat.write(nb, str(path))
    return path


def submit_class(root: Path, assignment: str = "toy", students=None, mangled=True, ungradable=True):
    for student, own in STUDENTS.items():
        if students is None or student in students:
            submit(root, assignment, student, student_notebook(own))
    if mangled:
        for student, nb in mangled_notebooks().items():
            submit(root, assignment, student, nb)
    if ungradable:
        submit(root, assignment, "notjson", raw="{ this is not a notebook")
        (root / "submitted" / "empty" / assignment).mkdir(parents=True, exist_ok=True)
        submit(root, assignment, "two", student_notebook({}))
        nbformat.write(student_notebook({}), str(root / "submitted" / "two" / assignment / "copy.ipynb"))


def autograder_cmd(command: str, root: Path, *args) -> list[str]:
    return [sys.executable, "-m", "autograder.cli", command, *map(str, args), "--course-root", str(root)]


def run_autograde(root: Path, assignment: str, *args, timeout=600, cell_timeout="5") -> subprocess.CompletedProcess:
    cmd = autograder_cmd("autograde", root, assignment, "--cell-timeout", cell_timeout, *args)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=_env())


def start_autograde(root: Path, assignment: str, *args, cell_timeout="5") -> subprocess.Popen:
    cmd = autograder_cmd("autograde", root, assignment, "--cell-timeout", cell_timeout, *args)
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())


def _env() -> dict:
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env.pop("COLUMNS", None)
    return env


def run_nbgrader(root: Path, *args, timeout=600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=root, capture_output=True, text=True,
                          timeout=timeout, env=_env())


def dump_gradebook(db_url: str, course_id: str = "jax-course", students=None) -> dict:
    """Every submission's rows, as plain data: what formgrader and `nbgrader export` read."""
    from nbgrader.api import Gradebook
    out = {}
    with Gradebook(db_url, course_id) as gb:
        for assignment in gb.assignments:
            for sub in assignment.submissions:
                if students is not None and sub.student.id not in students:
                    continue
                for nb in sub.notebooks:
                    out[f"{assignment.name}/{sub.student.id}/{nb.name}"] = {
                        "timestamp": str(sub.timestamp), "late_penalty": nb.late_submission_penalty,
                        "grades": {g.name: (g.auto_score, g.manual_score, g.needs_manual_grade) for g in nb.grades},
                        "comments": {c.name: (c.auto_comment, c.manual_comment) for c in nb.comments},
                    }
    return out


def points(dump: dict, assignment: str = "toy") -> dict[str, dict[str, float]]:
    """student -> {cell: auto_score} from a dump."""
    return {key.split("/")[1]: {cell: row[0] for cell, row in value["grades"].items()}
            for key, value in dump.items() if key.startswith(assignment + "/")}


def sqlite_url(root: Path) -> str:
    return f"sqlite:///{root / 'gradebook.db'}"


def descendants(pid: int) -> list[int]:
    """Processes started, directly or not, by `pid` (read from /proc)."""
    from autograder.sandbox import procs
    return procs.descendants(pid)


def wait_for_results(root: Path, assignment: str, count: int, proc: subprocess.Popen, timeout: float = 120):
    folder = root / "results" / assignment
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if folder.is_dir() and len(list(folder.glob("*.json"))) >= count:
            return
        if proc.poll() is not None:
            raise AssertionError(f"autograde ended early: {proc.stderr.read()[-2000:]}")
        time.sleep(0.05)
    raise AssertionError(f"{count} students not graded within {timeout} s")


def copy_course(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("gradebook.db", "autograded", "results",
                                                            "feedback", "reports"))
    return dst
