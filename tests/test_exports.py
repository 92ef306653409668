"""The Gradescope and PrairieLearn packages, built by the CLI and run the way the platforms run them.

Gradescope: the zip is unpacked into a simulated /autograder (`AUTOGRADER_ROOT`), setup.sh installs
into its venv (whose base packages come from this test environment, so nothing is downloaded), and
run_autograder grades the reference, the untouched release, every round of known-wrong
submissions and a hostile notebook. PrairieLearn: the question's tests/ goes into a simulated /grade
job folder and its entry point runs there. Every results.json is checked against the platform's
format (../shared/INFRA_NOTES.md) and for hidden-test source.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

from support.machine import unavailable
from support.notebooks import ROOT, code_cell, load_cases, submission_from_source
from autograder.course import Course
from autograder.grading.grade import grade_many
from autograder.grading import visibility
from autograder.lab import selftest
from autograder.platforms import bundle
from autograder.sandbox.process import Limits

COURSE = Course(ROOT)
ASSIGNMENT = "06_tracing_and_purity"      # the quickest to grade; any assignment works the same way
CLI = [sys.executable, "-m", "autograder.cli"]
SYSTEM_PYTHON = "/usr/bin/python3.11"      # reachable by any uid, like Gradescope's /usr/bin/python3.11

GS_TEST_KEYS = {"name", "number", "score", "max_score", "status", "output", "output_format", "tags",
                "visibility"}
GS_VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}
GS_FORMATS = {"text", "html", "simple_format", "md", "ansi"}
PL_INFO_KEYS = {"uuid", "type", "title", "topic", "tags", "singleVariant", "gradingMethod",
                "externalGradingOptions"}
PL_GRADING_KEYS = {"enabled", "image", "entrypoint", "serverFilesCourse", "timeout", "enableNetworking",
                   "environment"}


def hidden_source_lines(assignment: str) -> set[str]:
    """Every line of every hidden-test region (long enough to be code, not a bracket)."""
    mark_begin = visibility.hidden_delimiter()
    mark_end = mark_begin.replace("BEGIN", "END")
    lines = set()
    for cell in COURSE.assignment(assignment).test_cells:
        inside = False
        for line in cell.source.splitlines():
            if mark_begin in line:
                inside = True
            elif mark_end in line:
                inside = False
            elif inside and len(line.strip()) >= 16:
                lines.add(line.strip())
    return lines


def _strings(obj) -> str:
    """Every string in a JSON value, decoded (a leak may hide behind JSON escapes)."""
    if isinstance(obj, str):
        return obj + "\n"
    if isinstance(obj, dict):
        return "".join(_strings(k) + _strings(v) for k, v in obj.items())
    if isinstance(obj, list):
        return "".join(_strings(v) for v in obj)
    return ""


def assert_no_hidden_source(results, assignment: str = ASSIGNMENT):
    text = _strings(results)
    leaked = [line for line in hidden_source_lines(assignment) if line in text]
    assert not leaked, leaked[:3]
    assert visibility.hidden_delimiter() not in text


def test_the_hidden_delimiter_is_nbgraders():
    from nbgrader.preprocessors import ClearHiddenTests
    assert visibility.hidden_delimiter() == ClearHiddenTests.begin_test_delimeter.default_value
    assert visibility.HIDDEN_END_DELIMITER == ClearHiddenTests.end_test_delimeter.default_value


def test_the_leak_check_catches_a_leak():
    line = sorted(hidden_source_lines(ASSIGNMENT))[0]
    with pytest.raises(AssertionError):
        assert_no_hidden_source({"tests": [{"output": f"your code raised ValueError: x | {line} | y"}]})


def validate_gradescope(results: dict, cells: list) -> dict[str, dict]:
    """Gradescope's results.json format; returns the tests by name."""
    assert isinstance(results["score"], float) and isinstance(results["execution_time"], int)
    assert isinstance(results["output"], str) and results["stdout_visibility"] == "hidden"
    tests = {t["name"]: t for t in results["tests"]}
    assert {n for n in tests if not n.endswith("_integrity")} == {c.grade_id for c in cells}
    for t in results["tests"]:
        assert GS_TEST_KEYS <= set(t), t
        assert isinstance(t["number"], str) and isinstance(t["output"], str)
        assert 0.0 <= t["score"] <= t["max_score"]
        assert t["status"] in ("passed", "failed")
        assert t["score"] == (t["max_score"] if t["status"] == "passed" else 0.0)
        assert t["visibility"] in GS_VISIBILITY and t["output_format"] in GS_FORMATS
        assert len(t["tags"]) == 1 and isinstance(t["tags"][0], str)
    assert results["score"] == sum(t["score"] for t in results["tests"])
    assert_no_hidden_source(results)
    return tests


# ------------------------------------------------------------------ Gradescope
def _unprivileged_can_run(python: str) -> bool:
    try:
        return subprocess.run([python, "-c", "pass"], user=65534, group=65534, extra_groups=[],
                              capture_output=True).returncode == 0
    except PermissionError:
        return False


def _readable_dependencies(open_tmp: Path) -> Path:
    """This environment's packages where the grading uid can read them: where they are, or, when the
    checkout lies in a folder only its owner may open (a `mktemp -d` clone), a copy of hard links
    under `open_tmp` (no data copied; a plain copy where the two are on different filesystems)."""
    purelib = Path(sysconfig.get_paths()["purelib"])
    if os.geteuid() != 0:
        return purelib                      # no other uid grades here
    python = SYSTEM_PYTHON if Path(SYSTEM_PYTHON).exists() else sys.executable
    try:
        probe = subprocess.run([python, "-c", f"import os; os.listdir({str(purelib)!r})"], user=65534,
                               group=65534, extra_groups=[], capture_output=True).returncode
    except PermissionError:
        probe = 1
    if probe == 0:
        return purelib
    linked = open_tmp / "site-packages"

    def link(src, dst):
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)
    shutil.copytree(purelib, linked, copy_function=link, symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pth", "__editable__*"))
    for path in [linked, *linked.rglob("*")]:
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)
    return linked


@pytest.fixture(scope="module")
def open_tmp():
    """A folder any uid may traverse, as /autograder is (pytest's own tmp folders are root-only)."""
    base = Path(tempfile.mkdtemp(prefix="jaxcourse-test-exports-"))
    base.chmod(0o755)
    yield base
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def gradescope_zip(tmp_path_factory):
    out = tmp_path_factory.mktemp("gs") / "autograder.zip"
    r = subprocess.run([*CLI, "export", "gradescope", ASSIGNMENT, "--out", str(out), "--course-root", str(ROOT)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return out


@pytest.fixture(scope="module")
def installed_root(gradescope_zip, open_tmp):
    """A simulated /autograder after Gradescope's image build: zip unpacked, setup.sh run."""
    root = open_tmp / "installed"
    with zipfile.ZipFile(gradescope_zip) as zf:
        for info in zf.infolist():
            zf.extract(info, root / "source")
            (root / "source" / info.filename).chmod(info.external_attr >> 16 & 0o777 or 0o644)
    python = SYSTEM_PYTHON if Path(SYSTEM_PYTHON).exists() else sys.executable
    # the venv's dependencies come from this test environment (a .pth), so setup.sh downloads
    # nothing; the package itself is installed from the zip's wheel, as on Gradescope
    subprocess.run([python, "-m", "venv", "--without-pip", str(root / "venv")], check=True)
    site = next((root / "venv" / "lib").glob("python3*/site-packages"))
    (site / "_test_environment.pth").write_text(str(_readable_dependencies(open_tmp)) + "\n")
    r = subprocess.run(["bash", str(root / "source" / "setup.sh")], env={**os.environ, "AUTOGRADER_ROOT": str(root)},
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    assert "grader ready" in r.stdout
    assert (site / "autograder" / "platforms" / "gradescope.py").exists()   # from the wheel, not the checkout
    assert oct((root / "source").stat().st_mode & 0o777) == "0o700"
    return root


def run_gradescope(installed: Path, workdir: Path, nb, config: dict | None = None,
                   prepare=None) -> tuple[dict, float]:
    """A fresh container from the installed image: the submission, then run_autograder (`prepare`,
    if given, changes the container's copy first)."""
    root = workdir / "autograder"
    shutil.copytree(installed, root, symlinks=True)
    if prepare is not None:
        prepare(root)
    if config:
        path = root / "source" / "config.json"
        merged = json.loads(path.read_text())
        merged["limits"].update(config.pop("limits", {}))
        merged.update(config)
        path.write_text(json.dumps(merged))
    (root / "submission").mkdir()
    nbformat.write(nb, str(root / "submission" / f"{ASSIGNMENT}.ipynb"))
    (root / "submission_metadata.json").write_text('{"users": [{"name": "A. Student"}]}')
    started = time.monotonic()
    r = subprocess.run(["bash", str(root / "source" / "run_autograder")], capture_output=True, text=True,
                       env={**os.environ, "AUTOGRADER_ROOT": str(root)}, timeout=900)
    seconds = time.monotonic() - started
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads((root / "results" / "results.json").read_text()), seconds


def test_a_grader_that_cannot_start_says_why_not_a_zero(installed_root, open_tmp):
    """The grading child dies before it runs anything of the submission: here it cannot read its own
    package as the uid it grades under (as where a checkout's environment is private). results.json
    says the grader failed, with the reason for the instructor, not "Graded on unknown in 0 s" with
    every test at 0 as if the student's code had crashed it."""
    if os.geteuid() != 0:
        unavailable("the grading child drops to a uid of its own only under root")

    def unreadable_package(root: Path):
        package = next((root / "venv" / "lib").glob("python3*/site-packages")) / "autograder"
        package.chmod(0o700)
    results, _ = run_gradescope(installed_root, open_tmp / "cannot-start",
                                submission_from_source(COURSE, ASSIGNMENT), {"limits": {"isolation": "process"}},
                                prepare=unreadable_package)
    assert results["tests"] == [] and results["score"] == 0.0, results["output"]
    assert "autograder failed" in results["output"] and "Graded on" not in results["output"]
    assert "did not start" in results["extra_data"]["grader_error"], results["extra_data"]


def test_package_holds_hidden_tests_but_no_solutions(gradescope_zip):
    with zipfile.ZipFile(gradescope_zip) as zf:
        names = set(zf.namelist())
        assert {"setup.sh", "run_autograder", "requirements.txt", "config.json"} <= names
        assert zf.getinfo("run_autograder").external_attr >> 16 & 0o111
        material = zf.read(f"course/source/{ASSIGNMENT}/{ASSIGNMENT}.ipynb").decode()
        requirements = zf.read("requirements.txt").decode()
        readme = zf.read("README.md").decode()
    assert bundle.solution_leaks(gradescope_zip, COURSE, ASSIGNMENT) == []
    assert bundle.solution_leaks(COURSE.source / ASSIGNMENT, COURSE, ASSIGNMENT)   # the check can fail
    assert any(line in material for line in hidden_source_lines(ASSIGNMENT))      # the grader needs them
    assert all("==" in line for line in requirements.splitlines() if not line.startswith("#"))
    assert "at least 1 GB of memory" in readme        # 04_pytrees_mlp peaks over the default 768 MB


@pytest.fixture(scope="module")
def graded_on_gradescope(installed_root, open_tmp, tmp_path_factory):
    """Reference, release and every round of known-wrong submissions, two containers at a time,
    with the isolation Gradescope's containers allow (`process`: the grading child drops to a uid of
    its own), plus the CLI's grading of some of the same notebooks."""
    if not _unprivileged_can_run(str(installed_root / "venv" / "bin" / "python")):
        unavailable("no Python interpreter here that an unprivileged uid may run")
    cases = load_cases(ASSIGNMENT)
    subs, rounds = selftest.submissions(COURSE, ASSIGNMENT, cases)
    subs["release"] = submission_from_source(COURSE, ASSIGNMENT, base="release")
    work = open_tmp / "runs"

    def one(name):
        return name, run_gradescope(installed_root, work / name, subs[name], {"limits": {"isolation": "process"}})

    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = dict(pool.map(one, subs))
    compared = [selftest.REFERENCE, "release", "round0"]   # the CLI grades a few of them again
    paths = []
    for name in compared:
        path = tmp_path_factory.mktemp("cli") / name / f"{ASSIGNMENT}.ipynb"
        path.parent.mkdir(parents=True)
        nbformat.write(subs[name], str(path))
        paths.append(path)
    cli = dict(zip(compared, grade_many(paths, COURSE, ASSIGNMENT, jobs=2)))
    return runs, cli, cases, rounds


def test_gradescope_results_match_the_cli_and_the_expected_verdicts(graded_on_gradescope):
    runs, cli, cases, rounds = graded_on_gradescope
    cells = COURSE.assignment(ASSIGNMENT).test_cells
    as_cli = {}
    exercise_of = {c.grade_id: c.exercise for c in cells}
    for name, (results, seconds) in runs.items():
        tests = validate_gradescope(results, cells)
        assert results["extra_data"]["isolation"] == "process-network-open"  # and says so
        if name in cli:
            assert results["score"] == cli[name]["score"], name       # tests' total == the CLI's score
            assert {n: t["score"] for n, t in tests.items()} == \
                {c["name"]: c["points"] for e in cli[name]["exercises"].values() for c in e["checks"]}
        assert results["execution_time"] <= seconds + 1
        as_cli[name] = {"exercises": {ex: {"checks": [{"name": t["name"], "passed": t["status"] == "passed",
                                                       "message": t["output"]} for t in tests.values()
                                                      if exercise_of.get(t["name"]) == ex]}
                                      for ex in COURSE.assignment(ASSIGNMENT).exercises},
                        "errors": [], "max_score": sum(t["max_score"] for t in tests.values())}
    verdicts = selftest.compare(as_cli, cases, rounds, devices=1)
    assert [v for v in verdicts if not v.as_expected] == []


def test_students_see_at_once_only_what_their_notebook_shows(graded_on_gradescope):
    runs, *_ = graded_on_gradescope
    reference, _ = runs[selftest.REFERENCE]
    hidden = {c.grade_id for c in COURSE.assignment(ASSIGNMENT).test_cells if visibility.has_hidden_tests(c)}
    # a pass says the hidden tests passed: only once grades are published
    assert all(t["visibility"] == "after_published" for t in reference["tests"] if t["name"] in hidden)
    release, _ = runs["release"]
    # the untouched release fails in its visible tests (NotImplementedError): shown at once
    assert all(t["visibility"] == "visible" and "NotImplementedError" in t["output"] for t in release["tests"])


HIDDEN_TOY = [
    code_cell("import jax\nimport jax.numpy as jnp\nfrom autograder import check", "setup"),
    code_cell("def double(x):\n    ### BEGIN SOLUTION\n    return 2.0 * x\n    ### END SOLUTION\n",
              "double", role="solution"),
    code_cell('"""Is double(x) twice x?"""\n'
              "check.assert_close(double(jnp.arange(3.0)), jnp.array([0.0, 2.0, 4.0]), what='double(x)')\n"
              "### BEGIN HIDDEN TESTS\n"
              "_negatives = jnp.full(2, -1.5)\n"
              "check.assert_close(double(_negatives), jnp.array([-3.0, -3.0]), what='double(x) of negatives')\n"
              "### END HIDDEN TESTS\n", "double_correctness", role="test", points=2),
    code_cell("def triple(x):\n    ### BEGIN SOLUTION\n    return 3.0 * x\n    ### END SOLUTION\n",
              "triple", role="solution"),
    code_cell("check.assert_close(triple(jnp.ones(2)), jnp.array([3.0, 3.0]), what='triple(x)')\n"
              "### BEGIN HIDDEN TESTS\n"
              "check.assert_close(triple(-jnp.ones(2)), jnp.array([-3.0, -3.0]), what='triple(x) of negatives')\n"
              "### END HIDDEN TESTS\n", "triple_correctness", role="test", points=1),
]


@pytest.fixture(scope="module")
def hidden_toy_runs(tmp_path_factory):
    """A two-exercise course whose test cells have hidden tests, and a submission that fails one
    cell in its hidden tests (double: right on the visible inputs only) and one in its visible
    tests (triple), graded by both platforms' entry points."""
    from support.notebooks import make_notebook
    work = tmp_path_factory.mktemp("hidden-toy")
    material = make_notebook(HIDDEN_TOY)
    submission = make_notebook(HIDDEN_TOY)
    submission.cells[2].source = "def double(x):\n    return jnp.abs(2.0 * x)\n"
    submission.cells[4].source = "def triple(x):\n    return x\n"
    out = {}
    for platform, folder, entry in (("gradescope", "source", "-m autograder.platforms.gradescope"),
                                    ("prairielearn", "tests", "-m autograder.platforms.prairielearn")):
        root = work / platform
        (root / folder / bundle.MATERIAL / "source" / "toy").mkdir(parents=True)
        nbformat.write(material, str(root / folder / bundle.MATERIAL / "source" / "toy" / "toy.ipynb"))
        bundle.write_config(root / folder, "toy", 120.0, Limits(cell_timeout=20.0))
        student = root / ("submission" if platform == "gradescope" else "student")
        student.mkdir()
        nbformat.write(submission, str(student / "toy.ipynb"))
        r = subprocess.run([sys.executable, *entry.split(), str(root)], capture_output=True, text=True,
                           timeout=300)
        assert r.returncode == 0, r.stderr[-3000:]
        out[platform] = json.loads((root / "results" / "results.json").read_text())
    return out


def test_a_failure_on_hidden_inputs_waits_for_publication(hidden_toy_runs):
    tests = {t["name"]: t for t in hidden_toy_runs["gradescope"]["tests"]}
    double, triple = tests["double_correctness"], tests["triple_correctness"]
    assert double["status"] == "failed" and double["visibility"] == "after_published"
    assert double["output"].startswith("Is double(x) twice x?")
    # even after publication it says only the grader's words: not the case the hidden test names
    assert "failed on a hidden test" in double["output"] and "negatives" not in double["output"]
    assert triple["status"] == "failed" and triple["visibility"] == "visible"
    assert "values of triple(x)" in triple["output"] and "negatives" not in triple["output"]
    text = _strings(hidden_toy_runs["gradescope"])
    assert "_negatives = jnp.full(2, -1.5)" not in text and "BEGIN HIDDEN" not in text


def test_prairielearn_says_only_that_hidden_inputs_failed(hidden_toy_runs):
    from autograder.platforms.prairielearn import HIDDEN_FAILURE
    results = hidden_toy_runs["prairielearn"]
    tests = {t["name"]: t for t in results["tests"]}
    assert tests["double_correctness"]["message"] == HIDDEN_FAILURE
    assert tests["double_correctness"]["description"] == "Is double(x) twice x?"
    assert "values of triple(x)" in tests["triple_correctness"]["message"]
    assert results["gradable"] and results["score"] == 0.0
    assert "negatives" not in _strings(results)


@pytest.fixture(scope="module")
def hostile_run(installed_root, open_tmp):
    """One exercise reads the hidden tests and the student metadata and forges results (in the
    results folder and through the grader's pipe in /proc); the next starts a daemon that keeps
    forging results, then hangs; the others are right. Isolation `process`, as in Gradescope's
    containers (no namespaces): the grading child runs under a uid of its own."""
    if not _unprivileged_can_run(str(installed_root / "venv" / "bin" / "python")):
        unavailable("no Python interpreter here that an unprivileged uid may run")
    work = open_tmp / "hostile"
    root = work / "autograder"
    exercises = COURSE.assignment(ASSIGNMENT).exercises
    victim, hang = exercises[0], exercises[1]
    forged = json.dumps({"event": "done", "reached": {}, "result": {
        "assignment": ASSIGNMENT, "backend": "cpu", "isolation": "none", "score": 1000.0, "max_score": 1.0,
        "exercises": {victim: {"score": 1000.0, "max_score": 1.0, "checks": [{
            "name": f"{victim}_correctness", "kind": "correctness", "passed": True, "points": 1000.0,
            "max_points": 1.0, "message": "", "backend": "cpu", "seconds": 0}]}}, "errors": []}})
    targets = [root / "source" / bundle.MATERIAL / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb",
               root / "source" / "config.json", root / "submission_metadata.json"]
    attack = f'''
import json, os, time
_root = {str(root)!r}
_stolen = []
for _p in {[str(t) for t in targets]!r}:   # the hidden tests first, then the student's metadata
    try:
        with open(_p) as _fh:
            _text = _fh.read()
        try:   # a notebook: what follows the hidden-test marker, one line
            _src = "\\n".join(c["source"] if isinstance(c["source"], str) else "".join(c["source"])
                               for c in json.loads(_text)["cells"])
            _text = _src[_src.find("HIDDEN"):]
        except Exception:
            pass
        _stolen.append(_text.replace("\\n", " | ")[:500])
    except Exception as _e:
        _stolen.append(type(_e).__name__)
_forged = {forged!r} + "\\n"
for _fd in range(20):   # the grader's protocol pipe, through /proc
    try:
        _w = os.open(f"/proc/{{os.getppid()}}/fd/{{_fd}}", os.O_WRONLY | os.O_NONBLOCK)
        os.write(_w, _forged.encode())
        os.close(_w)
    except OSError:
        pass
def _forge_results():
    try:
        with open(_root + "/results/results.json", "w") as _fh:
            _fh.write('{{"score": 1000.0, "tests": []}}')
    except OSError:
        pass
_forge_results()
def {victim}(*args, **kwargs):
    with open("/proc/self/oom_score_adj") as _fh:   # the kernel's first choice when memory runs out?
        _stolen.append("oom_score_adj=" + _fh.read().strip())
    raise ValueError(" ; ".join(_stolen))
'''
    daemon_then_hang = f'''
import os, time
if os.fork() == 0:   # a daemon that outlives the worker and forges the results after grading
    os.setsid()
    if os.fork() == 0:
        for _ in range(400):
            try:
                with open({str(root)!r} + "/results/results.json", "w") as _fh:
                    _fh.write('{{"score": 1000.0, "tests": []}}')
            except OSError:
                pass
            time.sleep(0.05)
    os._exit(0)
while True:
    pass
'''
    nb = submission_from_source(COURSE, ASSIGNMENT, {victim: attack, hang: daemon_then_hang})
    results, seconds = run_gradescope(installed_root, work, nb,
                                      {"limits": {"isolation": "process", "cell_timeout": 5.0}})
    time.sleep(1.5)   # long enough for a surviving daemon to overwrite results.json
    after = json.loads((root / "results" / "results.json").read_text())
    return results, after, victim, hang, seconds


def test_hostile_submission_costs_only_its_exercises_and_leaks_nothing(hostile_run):
    results, after, victim, hang, _ = hostile_run
    assert after == results                                     # no forged results, not even later
    tests = validate_gradescope(results, COURSE.assignment(ASSIGNMENT).test_cells)
    spec = COURSE.assignment(ASSIGNMENT)
    for cell in spec.test_cells:
        t = tests[cell.grade_id]
        if cell.exercise in (victim, hang):
            assert t["score"] == 0, t
        else:
            assert t["score"] == t["max_score"] > 0, t           # bystanders keep full marks
    assert any("timed out" in tests[c.grade_id]["output"] for c in spec.test_cells if c.exercise == hang)
    assert results["extra_data"]["isolation"] == "process-network-open"  # and says so
    assert_no_hidden_source(results)
    victim_text = " ".join(tests[c.grade_id]["output"] for c in spec.test_cells if c.exercise == victim)
    assert "PermissionError" in victim_text                     # it tried, and was refused
    assert "oom_score_adj=500" in victim_text                   # out of memory, the worker goes first


def test_hostile_submission_leaves_no_process_behind(hostile_run, open_tmp):
    """No process of a grading uid runs this module's images any more (processes of another test run
    on the same host, which grades from a folder of its own, are not this run's leftovers)."""
    leftovers = []
    for entry in Path("/proc").iterdir():
        try:
            uid = int((entry / "status").read_text().split("Uid:")[1].split()[0])
            cmdline = (entry / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if 400_000 <= uid < 500_000 and str(open_tmp).encode() in cmdline:
            leftovers.append((entry.name, cmdline[:80], _state_and_signals(entry)))
    assert not leftovers   # (state and pending signals say whether a leftover was already dying)


def _state_and_signals(proc: Path) -> str:
    try:
        return " ".join(line.replace("\t", " ") for line in (proc / "status").read_text().splitlines()
                        if line.startswith(("State:", "SigPnd:", "ShdPnd:", "PPid:")))
    except OSError:
        return "gone"


def test_deadline_always_leaves_a_complete_results_file(installed_root, tmp_path):
    """A solution cell that hangs longer than the whole deadline: the supervisor stops the grading
    and still reports every graded cell."""
    exercises = COURSE.assignment(ASSIGNMENT).exercises
    nb = submission_from_source(COURSE, ASSIGNMENT, {exercises[0]: "while True:\n    pass\n"})
    deadline = 10.0
    results, seconds = run_gradescope(installed_root, tmp_path, nb,
                                      {"deadline_s": deadline, "limits": {"cell_timeout": 120.0}})
    tests = validate_gradescope(results, COURSE.assignment(ASSIGNMENT).test_cells)
    assert seconds < deadline + 15
    assert results["extra_data"]["stopped"] == "deadline" and "time limit" in results["output"]
    assert all(t["score"] == 0 for t in tests.values())
    assert all("not run" in t["output"] for t in tests.values())


def test_run_autograder_answers_even_without_a_grader(tmp_path, gradescope_zip):
    root = tmp_path / "autograder"
    with zipfile.ZipFile(gradescope_zip) as zf:
        zf.extract("run_autograder", root / "source")
    r = subprocess.run(["bash", str(root / "source" / "run_autograder")], capture_output=True, text=True,
                       env={**os.environ, "AUTOGRADER_ROOT": str(root)}, timeout=60)
    assert r.returncode == 0
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == 0 and results["tests"] == [] and "could not start" in results["output"]


def test_malformed_notebook_is_reported_not_crashed(installed_root, tmp_path):
    root = tmp_path / "autograder"
    shutil.copytree(installed_root, root, symlinks=True)
    (root / "submission").mkdir()
    (root / "submission" / f"{ASSIGNMENT}.ipynb").write_text("{not a notebook")
    r = subprocess.run(["bash", str(root / "source" / "run_autograder")], capture_output=True, text=True,
                       env={**os.environ, "AUTOGRADER_ROOT": str(root)}, timeout=300)
    assert r.returncode == 0
    results = json.loads((root / "results" / "results.json").read_text())
    validate_gradescope(results, COURSE.assignment(ASSIGNMENT).test_cells)
    assert results["score"] == 0 and "not a readable Jupyter notebook" in results["output"]


def test_unknown_assignment_is_a_one_line_error(tmp_path):
    r = subprocess.run([*CLI, "export", "gradescope", "99_nope", "--out", str(tmp_path / "x.zip"),
                        "--course-root", str(ROOT)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "unknown assignment" in r.stderr
    assert not (tmp_path / "x.zip").exists()


# ------------------------------------------------------------------ PrairieLearn
@pytest.fixture(scope="module")
def question(tmp_path_factory):
    out = tmp_path_factory.mktemp("pl") / "question"
    r = subprocess.run([*CLI, "export", "prairielearn", ASSIGNMENT, "--out", str(out), "--course-root", str(ROOT)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return out


def test_prairielearn_question_files(question):
    info = json.loads((question / "info.json").read_text())
    assert set(info) <= PL_INFO_KEYS and info["type"] == "v3" and info["gradingMethod"] == "External"
    grading = info["externalGradingOptions"]
    assert set(grading) <= PL_GRADING_KEYS and grading["image"] and 60 <= grading["timeout"] <= 600
    assert grading["entrypoint"][-1] == "/grade/tests/run_grader.py"
    html = (question / "question.html").read_text()
    assert f'<pl-file-upload file-names="{ASSIGNMENT}.ipynb">' in html
    assert "<pl-external-grader-results>" in html and "<pl-file-preview>" in html
    dockerfile = (question / "image" / "Dockerfile").read_text()
    assert "requirements.txt" in dockerfile and list((question / "image" / "wheels").glob("*.whl"))
    assert bundle.solution_leaks(question, COURSE, ASSIGNMENT) == []


def run_prairielearn(question: Path, job: Path, notebook, python: str | None = None) -> tuple[dict, int]:
    """A simulated grading job: /grade/{tests,student,data}, then the entry point."""
    shutil.copytree(question / "tests", job / "tests")
    (job / "student").mkdir()
    (job / "data").mkdir()
    (job / "data" / "data.json").write_text('{"params": {}, "correct_answers": {}, "submitted_answers": {}}')
    target = job / "student" / f"{ASSIGNMENT}.ipynb"
    if isinstance(notebook, str):
        target.write_text(notebook)
    else:
        nbformat.write(notebook, str(target))
    entry = json.loads((question / "info.json").read_text())["externalGradingOptions"]["entrypoint"]
    cmd = [python or sys.executable] + [a.replace("/grade", str(job)) for a in entry[1:]]
    r = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "AUTOGRADER_ROOT": str(job)},
                       timeout=900)
    return json.loads((job / "results" / "results.json").read_text()), r.returncode


def validate_prairielearn(results: dict):
    assert isinstance(results["gradable"], bool) and isinstance(results["message"], str)
    assert isinstance(results["score"], float) and 0.0 <= results["score"] <= 1.0
    assert len(json.dumps(results)) < 2**20
    for t in results.get("tests", []):
        assert {"name", "points", "max_points", "message"} <= set(t)
        assert 0.0 <= t["points"] <= t["max_points"]
    if results.get("tests"):
        total = sum(t["max_points"] for t in results["tests"])
        assert abs(results["score"] - sum(t["points"] for t in results["tests"]) / total) < 1e-6
    assert_no_hidden_source(results)


def test_prairielearn_job_grades_reference_and_wrong_submissions(question, tmp_path):
    cases = load_cases(ASSIGNMENT)
    subs, rounds = selftest.submissions(COURSE, ASSIGNMENT, cases)
    wrong = next(r for r in subs if r != selftest.REFERENCE)

    def one(name):
        return name, run_prairielearn(question, tmp_path / name, subs[name])

    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = dict(pool.map(one, [selftest.REFERENCE, wrong]))
    for results, code in runs.values():
        assert code == 0
        validate_prairielearn(results)
        assert results["gradable"]
    assert runs[selftest.REFERENCE][0]["score"] == 1.0
    tests = {t["name"]: t for t in runs[wrong][0]["tests"]}
    expected = {f for n, r in rounds.items() if r == wrong for f in cases[n]["fails"]}
    assert {n for n, t in tests.items() if t["points"] < t["max_points"]} == expected
    for name in expected:   # a failure names hidden inputs only if it happened in the visible tests
        message = tests[name]["message"]
        assert message.startswith(("[check]", "your code raised", "failed on hidden tests")), message


def test_prairielearn_unusable_notebook_is_not_gradable(question, tmp_path):
    results, code = run_prairielearn(question, tmp_path / "job", "{broken")
    assert code == 0 and results["gradable"] is False and "not a readable Jupyter notebook" in results["message"]
    validate_prairielearn(results)


def test_prairielearn_entry_point_answers_without_the_grader(question, tmp_path):
    """An image without the package (the system Python): still exit 0 with a results file."""
    python = SYSTEM_PYTHON if Path(SYSTEM_PYTHON).exists() else shutil.which("python3")
    probe = subprocess.run([python, "-I", "-c", "import autograder"], capture_output=True)
    if probe.returncode == 0:
        unavailable("this system Python has the grader installed")
    results, code = run_prairielearn(question, tmp_path / "job", "{}", python=python)
    assert code == 0 and results["gradable"] is False and "no grader installed" in results["message"]


# ------------------------------------------------------------------ the time budget
def test_an_exercise_that_hangs_uses_up_only_its_own_share(toy_course, limits):
    """double's calls hang: its first check waits for what is left of its share (not the usual
    timeout), its second is not run; triple keeps full marks."""
    import dataclasses
    from autograder.grading.timebox import grade_timeboxed
    spec = toy_course.assignment("toy")
    solutions = {c.exercise: c.source for c in spec.solution_cells}
    solutions["double"] = "def double(x):\n    while True:\n        pass\n"
    started = time.monotonic()
    result = grade_timeboxed(spec, solutions, dataclasses.replace(limits, check_timeout=60.0), share_s=5.0)
    seconds = time.monotonic() - started
    checks = {c.name: c for e in result.exercises.values() for c in e.checks}
    assert "timed out after 5 s" in checks["double_correctness"].message
    assert "not run: `double` used its share of the grading time (5 s)" in checks["double_jit"].message
    assert checks["triple_correctness"].passed and result.score == 1.0
    assert seconds < 60
