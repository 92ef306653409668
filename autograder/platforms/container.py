"""One submission in a disposable grading container (Gradescope, PrairieLearn): always a result.

Such a container holds the grading material (the assignment's setup and test cells, hidden tests
included) and runs the student's code, as root and, usually, without the namespaces that
`autograder grade` uses to hide files from student code (Docker withholds them). So:

1. this process (the *supervisor*, root) reads the material and the submission into memory;
2. a *grading child* runs the timeboxed grading (`timebox.py`). Where the sandbox has its `namespace`
   isolation, the child stays root and the worker covers the material with its mounts. Elsewhere the
   supervisor first makes the material, the submission folder and the results folder root-only and
   starts the child under an unprivileged uid of its own: student code, which runs as that uid,
   can then neither read the hidden tests nor write a results file, and the child makes itself
   non-dumpable so that student code cannot reach into it through /proc;
3. the child streams each verdict as soon as it is decided; the supervisor enforces the deadline,
   kills whatever the child or the student's code left behind, and returns a result in which every
   graded cell appears (those never decided are "not run", with the reason). A student's code can
   stop the grading early (same uid: it may signal the child); it can never add a point.

The platform modules (`gradescope.py`, `prairielearn.py`) turn the result into their JSON.
"""
from __future__ import annotations

import dataclasses
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..checks import failure
from ..course.layout import Assignment, Course
from ..course.notebook import Cell, NotebookError
from ..course.submission import read_submission
from ..grading.results import CheckResult, ExerciseResult, NotebookResult
from ..sandbox import procs
from ..sandbox.host import UidLease
from ..sandbox.process import Limits, choose_isolation
from ..grading import visibility

# uids for grading children: far from the sandbox's worker uids (200000 + ...) and from real users
CHILD_UID_BASE = 400_000   # test_exports looks for leftovers in [CHILD_UID_BASE, +100_000)


@dataclass
class Job:
    """What one container run grades."""
    course_root: Path                   # holds source/<assignment>/<assignment>.ipynb (the material)
    assignment: str
    submission: Path
    deadline_s: float = 480.0
    limits: Limits = field(default_factory=Limits)
    private: list[Path] = field(default_factory=list)   # results folder, platform metadata, ...


@dataclass
class Outcome:
    result: dict                         # the contract's JSON (grading/results.py)
    hidden: dict[str, bool]              # grade_id -> the cell has hidden tests
    reached: dict[str, bool]             # grade_id -> the cell got as far as its hidden tests
    questions: dict[str, str]            # grade_id -> the cell's docstring question
    seconds: float = 0.0
    unusable: str = ""                   # the submission could not be graded at all (one line)
    stopped: str = ""                    # why grading ended before every cell was decided


def find_notebook(folder: Path, assignment: str) -> Path:
    """The submitted notebook: `<assignment>.ipynb`, else the only notebook (raises NotebookError)."""
    found = sorted(p for p in Path(folder).rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    named = [p for p in found if p.name == f"{assignment}.ipynb"]
    if len(named) >= 1:
        return named[0]
    if len(found) == 1:
        return found[0]
    if not found:
        raise NotebookError(f"no notebook in the submission; submit {assignment}.ipynb")
    names = ", ".join(p.name for p in found[:5])
    raise NotebookError(f"several notebooks in the submission ({names}) and none is named "
                        f"{assignment}.ipynb; submit that one")


# ------------------------------------------------------------------ supervisor
def run(job: Job) -> Outcome:
    """Grade `job` within its deadline; never raises for a bad submission."""
    started = time.monotonic()
    _protect_supervisor()
    spec = Course(job.course_root).assignment(job.assignment)
    spec = dataclasses.replace(spec, cells=[visibility.instrument(c) if c.role == "test" else c
                                            for c in spec.cells])
    tests = spec.test_cells
    outcome = Outcome(result={}, hidden={c.grade_id: visibility.has_hidden_tests(c) for c in tests},
                      reached={}, questions={c.grade_id: visibility.question(c) for c in tests})
    try:
        path = find_notebook(job.submission, job.assignment) if job.submission.is_dir() else job.submission
        sub = read_submission(path, spec)
    except NotebookError as exc:
        outcome.unusable = str(exc)
        outcome.result = _empty_result(spec, str(exc))
        return outcome

    lease = _child_uid_lease(job.limits)
    uid = lease.uid if lease else None
    try:
        return _grade_as(job, spec, sub, path, uid, outcome, started)
    finally:
        if lease:
            lease.release()   # after _run_child stopped every process of that uid


class GraderDidNotStart(RuntimeError):
    """The grading child exited before it ran any of the submission's code (it could not import
    its own packages, or could not read them as the uid it runs under): the platform reports a
    grader failure with this reason, never a 0 that looks like the student's."""


def _grade_as(job: Job, spec, sub, path, uid, outcome: Outcome, started: float) -> Outcome:
    material = [job.course_root / "source", Path(path).parent, *job.private]
    if uid is not None:
        for p in material:
            _root_only(p)
    payload = {"assignment": spec.name, "path": str(spec.path),
               "cells": [dataclasses.asdict(c) for c in spec.cells],
               "solutions": sub.solutions, "errors": sub.errors, "notebook": Path(path).name,
               "limits": dataclasses.asdict(job.limits), "hide": [str(p) for p in material],
               "budget_s": job.deadline_s - (time.monotonic() - started), "sweep": uid is not None}
    streamed, done, stopped, began = _run_child(payload, uid, job.deadline_s - (time.monotonic() - started))
    if not began and stopped != "deadline":
        # it died before it ran anything of the submission: the grader's environment, not the student
        raise GraderDidNotStart(f"the grading child did not start: {stopped}")
    outcome.stopped = stopped
    if done is not None:
        outcome.result = done["result"]
        outcome.reached = done["reached"]
    else:
        outcome.result = _compose(spec, streamed, stopped, sub.errors, Path(path).name)
        outcome.reached = {s["check"]["name"]: s["reached"] for s in streamed}
    outcome.seconds = round(time.monotonic() - started, 1)
    return outcome


def _protect_supervisor():
    """The supervisor must outlive memory pressure and collect orphans of the grading."""
    if os.geteuid() == 0:
        try:
            Path("/proc/self/oom_score_adj").write_text("-1000")
        except OSError:
            pass
    try:
        procs.prctl(procs.PR_SET_CHILD_SUBREAPER, 1)
    except (OSError, AttributeError):
        pass


def _child_uid_lease(limits: Limits) -> UidLease | None:
    """An unprivileged uid for the grading child where the sandbox cannot hide the material, leased
    from a range of its own (not the sandbox workers'), so that two containers on one host never
    share one: its processes are all killed by uid when the child is done."""
    if os.geteuid() != 0:
        return None
    if choose_isolation(limits.isolation) == "namespace":
        return None
    return UidLease(base=CHILD_UID_BASE, span=100_000)


def _root_only(path: Path):
    if not path.exists():
        return
    os.chown(path, 0, 0)
    path.chmod(0o700 if path.is_dir() else 0o600)


def _run_child(payload: dict, uid: int | None, budget_s: float):
    """Start the grading child, collect its verdicts until it is done or the time is up."""
    deadline = time.monotonic() + max(1.0, budget_s)
    home = Path(tempfile.mkdtemp(prefix="jaxcourse-grading-"))
    (home / "tmp").mkdir()
    env = dict(os.environ)
    env.update({"HOME": str(home), "TMPDIR": str(home / "tmp"), "JAX_PLATFORMS": "cpu",
                "AUTOGRADER_WORKER_JAX_PLATFORMS": os.environ.get(
                    "AUTOGRADER_WORKER_JAX_PLATFORMS", os.environ.get("JAX_PLATFORMS", ""))})
    if uid is not None:        # the child's own, and its students' (same uid)
        for p in (home, home / "tmp"):
            os.chown(p, uid, uid)
        home.chmod(0o700)
    else:                      # root's; the sandbox's workers (uids of their own) traverse it
        for p in (home, home / "tmp"):
            p.chmod(0o755)
    kwargs = {"user": uid, "group": uid, "extra_groups": []} if uid is not None else {}
    log_path = home / "grader.log"          # the child's stderr: its last line says why it stopped
    log = open(log_path, "wb")
    try:
        child = subprocess.Popen([sys.executable, "-I", "-m", __name__, "--child"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=log, cwd="/", env=env, start_new_session=True,
                                 **kwargs)
    except PermissionError:
        raise RuntimeError(f"the grading child (uid {uid}) may not run {sys.executable}: install the "
                           f"grader's Python where every user can read it (/usr/bin, /autograder/venv)") from None
    streamed, done, stopped, began = [], None, "", False
    try:
        child.stdin.write(json.dumps(payload).encode())
        child.stdin.close()
    except BrokenPipeError:
        pass
    buf = b""
    fd = child.stdout.fileno()
    while done is None:
        left = deadline - time.monotonic()
        if left <= 0:
            stopped = "deadline"
            break
        ready, _, _ = select.select([fd], [], [], min(left, 1.0))
        if not ready:
            continue
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            code = child.wait()
            stopped = f"the grader stopped (exit status {code}{_last_words(log_path)})"
            break
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("event") == "ready":
                began = True
            elif event.get("event") == "check":
                streamed.append(event)
            elif event.get("event") == "done":
                done = event
    _stop(child, uid)
    log.close()
    try:                                      # the whole log stays in the platform's own output
        sys.stderr.write(log_path.read_bytes()[-20000:].decode(errors="replace"))
    except OSError:
        pass
    import shutil
    shutil.rmtree(home, ignore_errors=True)
    return streamed, done, stopped, began


def _last_words(log_path: Path) -> str:
    """`: <the last line of the child's stderr>`, or "" when it wrote none."""
    try:
        lines = [ln for ln in log_path.read_bytes()[-4000:].decode(errors="replace").splitlines() if ln.strip()]
    except OSError:
        return ""
    return f": {lines[-1].strip()[:300]}" if lines else ""


def _stop(child: subprocess.Popen, uid: int | None):
    """Kill the child, everything of its uid, and any orphan that was reparented to us."""
    if child.poll() is None:
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        child.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    if uid is not None:
        # kill(-1) from that uid reaches every process of it (but the caller); again while any is
        # left, since a process that forks while the first sweep runs can have a child it missed
        for _ in range(5):
            subprocess.run([sys.executable, "-I", "-c", "import os, signal\ntry:\n os.kill(-1, signal.SIGKILL)\n"
                            "except ProcessLookupError:\n pass"], user=uid, group=uid, extra_groups=[],
                           cwd="/", timeout=30)
            time.sleep(0.05)
            if not procs.owned_by(uid):
                break
    for _ in range(3):
        orphans = procs.children(os.getpid())
        if not orphans:
            break
        for pid in orphans:
            for kill in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
                try:
                    kill()
                except (ProcessLookupError, PermissionError):
                    pass
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass


def _compose(spec: Assignment, streamed: list[dict], stopped: str, errors: list[str],
             notebook: str) -> dict:
    """The result from the verdicts that arrived; every other cell is "not run", with the reason.
    An exercise whose code tampered with the worker scores 0, as `GradingSession.result` decides."""
    decided = {e["check"]["name"]: e["check"] for e in streamed}
    tampered = set().union(*(e.get("integrity", []) for e in streamed)) if streamed else set()
    meta = streamed[-1] if streamed else {}
    if stopped == "deadline":
        why = "the grading time ran out before this check"
    else:
        why = f"{stopped} before this check (out of memory, or killed by the submission's code)"
    exercises = {ex: ExerciseResult(ex) for ex in spec.exercises}
    for cell in spec.test_cells:
        c = decided.get(cell.grade_id)
        check = CheckResult(**c) if c else CheckResult(cell.grade_id, cell.kind, cell.exercise,
                                                       max_points=cell.points,
                                                       message=failure.message(cell.grade_id, why, verb="not run"))
        if check.exercise in tampered:
            check.passed, check.points = False, 0.0
        if check.exercise in exercises:
            exercises[check.exercise].checks.append(check)
    result = NotebookResult(spec.name, meta.get("backend") or "unknown", meta.get("isolation") or "unknown",
                            exercises, errors=list(errors), notebook=notebook)
    return result.to_json()


def _empty_result(spec: Assignment, error: str) -> dict:
    exercises = {ex: ExerciseResult(ex, [CheckResult(c.grade_id, c.kind, ex, max_points=c.points,
                                                     message=failure.message(c.grade_id, error, verb="not run"))
                                         for c in spec.test_cells if c.exercise == ex])
                 for ex in spec.exercises}
    return NotebookResult(spec.name, "unknown", "none", exercises, errors=[error]).to_json()


# ------------------------------------------------------------------ grading child
def _child_main() -> int:
    """Runs as `python -I -m autograder.platforms.container --child`: job on stdin, events on stdout."""
    proto = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)                     # anything printed by libraries goes to the log, not the protocol
    try:
        Path("/proc/self/oom_score_adj").write_text("0")   # the supervisor's -1000 is not for us
    except OSError:
        pass
    procs.prctl(procs.PR_SET_DUMPABLE, 0)
    job = json.loads(sys.stdin.read())
    spec = Assignment(job["assignment"], Path(job["path"]), [Cell(**c) for c in job["cells"]])
    limits = Limits(**job["limits"])

    def emit(event: dict):
        proto.write(json.dumps(event) + "\n")
        proto.flush()

    def on_check(check: CheckResult, session):
        emit({"event": "check", "check": dataclasses.asdict(check),
              "reached": visibility.did_reach(check.name),
              "integrity": sorted(ex for ex, st in session.exercises.items() if st.integrity),
              "backend": session.backend, "isolation": session.isolation})

    def expendable(worker):
        # under the container's memory limit the kernel kills the biggest process by its score:
        # let that be the student's worker (one exercise lost), not the grader (the rest lost)
        for pid in [worker.proc.pid, *procs.descendants(worker.proc.pid)]:
            try:
                Path(f"/proc/{pid}/oom_score_adj").write_text("500")
            except OSError:
                pass

    def sweep():
        # every other process of this uid is the student's (the worker was just discarded)
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            pass

    from ..grading.startup import start_worker
    started = start_worker(limits, job["hide"], spec.setup_cells)  # imports JAX while this child does
    from ..grading.timebox import grade_timeboxed, share_for   # (here: JAX stays out of the supervisor)
    share = share_for(job["budget_s"], len(spec.exercises), limits)
    emit({"event": "ready"})          # from here on the submission's code runs
    result = grade_timeboxed(spec, job["solutions"], limits, share, hide=job["hide"],
                             on_check=on_check, after_worker_lost=sweep if job["sweep"] else None,
                             after_worker_start=expendable, started=started)
    result.errors = job["errors"] + result.errors
    result.notebook = job["notebook"]
    emit({"event": "done", "result": result.to_json(),
          "reached": {c.grade_id: visibility.did_reach(c.grade_id) for c in spec.test_cells}})
    return 0


if __name__ == "__main__" and sys.argv[1:] == ["--child"]:
    sys.exit(_child_main())
