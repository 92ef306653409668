"""The grading core shared by the CLI and the pytest plugin.

A `GradingSession` grades one submission of one assignment:
- the **worker** (sandboxed, see `sandbox/process.py`) runs the source's setup cells, then the student's
  solution cells, in notebook order;
- the **grader** (this process) runs the source's setup cells and then each graded test cell from
  `source/`, never from the submission. Student functions appear in the test cells' namespace as
  `RemoteObject` proxies: calling one sends the arguments to the worker and brings plain data back
  (`sandbox/wire.py`); `check.*` sends its probes to the worker and takes the verdict here.

Only the names the contract gives the student's notebook cross into the test cells (the exercise
functions, `course/exports.py`): a student's `len` or `_reference` is never what a test cell calls.
A failure on a hidden test says only what `hidden.py` allows; a performance check is timed in a
worker of its own (`timing.py`), so that its hidden reference never enters the student's worker.

**Student text only from a clean worker.** Anything student code produces (an exception's text or
class name, printed output, a repr, a returned value quoted in a message, an integrity violation
naming what it changed) could carry data the student has not seen, once that code has seen some.
So a worker is *tainted* from the first request a test cell sends it from its hidden region (the
hidden inputs, or hidden test functions, reach it only from there), until it is replaced. A failure
whose message was built while the worker was tainted is never shown as it is: in its hidden region
it is rebuilt in the grader's words (`hidden.py`); in the visible part, the cell is run again,
up to its hidden region, against a *clean* worker of its own that only ever receives requests
from visible regions, once the tainted workers are gone (`clean.py`), and that run's message is
shown (or, if it does not fail there, the grader's words). Violations reported by a tainted worker are told without their text.

A solution cell that crashes, hangs or tampers with the worker "poisons" it: the cell's exercise
is marked failed, and a fresh worker is started without that cell, so every other exercise keeps
the score it would have had without it. A test cell whose call crashes or hangs the worker fails,
and the next test cell gets a fresh worker.
"""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

from ..checks import check as check_module
from ..checks import evidence, failure
from ..checks.diagnose import shorten, type_name
from ..checks.text import bounded
from ..course.exports import exported_names
from ..course.layout import Assignment
from ..course.notebook import Cell, hidden_lines
from ..sandbox.process import ForgedReply, Limits, WorkerDied
from ..sandbox.wire import dumps_request
from . import clean as clean_runs
from . import hidden, timeouts, timing
from .remote import (TAINTED_VIOLATION, ChargedElsewhere, HiddenRegionReached, RemoteObject,  # noqa: F401
                     StudentCodeError, charges, rebuild_exception)
from .results import CheckResult, NotebookResult, notebook_result
from .startup import StartedWorker, setup_request, start_worker


@dataclass
class _Exercise:
    exercise: str
    failure: str = ""                 # why the whole exercise failed (crash, hang, tampering)
    integrity: list = field(default_factory=list)
    cell_error: dict | None = None     # an ordinary exception raised by the solution cell


class GradingSession:
    def __init__(self, assignment: Assignment, solutions: dict[str, str], limits: Limits | None = None,
                 hide: list[str] | None = None, started: StartedWorker | None = None, clean: bool = False):
        self.assignment = assignment
        self.solutions = solutions          # exercise id -> the student's solution cell source
        self.limits = limits or Limits()
        self.hide = hide or []
        self.exercises = {ex: _Exercise(ex) for ex in assignment.exercises}
        self.excluded: set[str] = set()     # solution cells left out after poisoning a worker
        self.worker = None                  # the running WorkerProcess, if any
        self.started = started              # a worker started ahead by `start_worker`, not yet used
        self.generation = 0
        self.backend = None
        self.isolation = None
        self.memory_limit = None
        self.exported = exported_names(assignment.cells)   # the only names test cells may call
        self.bound: dict[str, str] = {}     # exported callable name -> exercise whose cell bound it
        self.current_exercise: str | None = None
        self.current_cell: str | None = None    # the grade_id of the test cell running
        self.exec_seconds: dict[str, float] = {}   # solution cell -> seconds it took (the builder's `timeouts`)
        self.namespace: dict | None = None
        self.timing = None                  # the worker of the performance checks (timing.py)
        self.timing_excluded: set[str] = set()
        self.clean = clean                  # a clean session: never sends a request from a hidden region
        self.tainted = False                # this worker has received a request from a hidden region
        self.deferred: list = []            # tainted visible failures, whose messages `clean.py` finds
        self._cell_file, self._cell_hidden = "", set()     # the test cell running, and its hidden lines
        if not clean and timing.needs_timing_worker(assignment.test_cells):   # started now: its import of JAX overlaps
            self.timing = timing.TimingWorker(self.limits, self.hide, assignment.setup_cells)

    # ------------------------------------------------------------------ worker lifecycle
    def _make_handle(self, node):
        return RemoteObject(self, ("handle", node["id"]), node.get("desc", "object"), self.generation)

    def _request(self, req, timeout):
        reply = self.worker.request(req, timeout, self._make_handle)
        return reply

    def ensure_worker(self):
        """Start a worker and replay setup + solution cells, leaving out poisoned cells."""
        while self.worker is None:
            self.generation += 1
            started = self.started or start_worker(self.limits, self.hide, self.assignment.setup_cells)
            self.started = None
            worker = started.worker
            self.worker = worker
            self.tainted = False
            self.isolation = worker.label
            self.memory_limit = worker.memory_limit
            try:
                for i, cell in enumerate(self.assignment.setup_cells):
                    if i == 0 and started.setup_nonce:   # sent by start_worker: read its reply
                        reply = worker.receive(started.setup_nonce, self.limits.startup_timeout,
                                               self._make_handle)
                    else:
                        reply = self._request(setup_request(cell), self.limits.startup_timeout)
                    if not reply["ok"]:
                        raise RuntimeError(f"the assignment's setup cell failed in the worker: "
                                           f"{reply['error']['type']}: {reply['error']['message']}")
                info = self._request({"op": "info"}, self.limits.startup_timeout)
                self.backend = info["backend"]
                check_module.ACTUAL_BACKEND = self.backend
            except WorkerDied as died:
                tail = worker.stderr_tail(500)
                self._discard_worker()
                raise RuntimeError(f"the grading worker could not start: {died.reason}; "
                                   f"stderr: {tail}") from None
            self.bound = {}
            for exercise in self.assignment.exercises:
                if exercise in self.excluded or exercise not in self.solutions:
                    continue
                state = self.exercises[exercise]
                try:
                    t0 = time.perf_counter()
                    reply = self._request({"op": "exec", "grade_id": exercise, "source": self.solutions[exercise]},
                                          timeouts.exec_timeout(self.limits, exercise))
                    self.exec_seconds[exercise] = time.perf_counter() - t0
                except ForgedReply as forged:
                    self._poisoned(exercise, "", [f"student code {forged.reason}"])
                    break
                except WorkerDied as died:
                    self._poisoned(exercise, f"your `{exercise}` cell {died.reason}")
                    break
                if reply.get("violations") or reply.get("thread_cells"):
                    self._charge(reply, exercise)
                    break
                if not reply.get("ok"):
                    error = reply.get("error")
                    state.cell_error = bounded({"type": "Error", "message": "unknown", **error}
                                               if isinstance(error, dict) else {"type": "Error", "message": "unknown"})
                callables = [n for n in reply.get("callables", []) if n in self.exported]
                for name in callables:
                    self.bound[name] = exercise
                for name in reply.get("bound", []):
                    if name not in callables:
                        self.bound.pop(name, None)

    def _charge(self, reply: dict, owner: str | None) -> set:
        """Poison the exercises a reply's violations are charged to (`remote.charges`), discard the
        worker, and return those exercises (None among them: charged to nobody's request)."""
        charged = charges(reply, owner, set(self.exercises) - self.excluded)
        for exercise, violations in charged.items():
            if exercise is not None:
                self._poisoned(exercise, "", self._violations(violations))
        self._discard_worker()
        return set(charged)

    def _poisoned(self, exercise: str, reason: str, violations=None):
        state = self.exercises[exercise]
        if violations:
            state.integrity.extend(violations)
        elif reason and not state.failure:
            state.failure = reason
        self.excluded.add(exercise)
        self._discard_worker()

    def _discard_worker(self):
        if self.worker is not None:
            self.worker.close()
        self.worker = None
        self.namespace = None

    def compile_cache_reply(self, entries: bool = False) -> dict | None:
        """The worker's compile-cache counts as {'stats': ...} (with `entries`, also what it
        compiled, as 'keys' and 'blobs': asked of the batch cache's builder only), or None without
        a worker or a cache."""
        if self.worker is None or not self.limits.compile_cache:
            return None
        try:
            reply = self._request({"op": "compile_cache", "entries": entries}, self.limits.check_timeout)
        except WorkerDied:
            return None
        value = reply.get("value") if reply.get("ok") else None
        return value if isinstance(value, dict) else None

    def close(self):
        self._discard_worker()
        self.close_timing_worker()
        if self.started is not None:         # started ahead but never needed
            self.started.worker.close()
            self.started = None

    def close_timing_worker(self):
        if self.timing is not None:
            self.timing.close()
            self.timing = None

    # ------------------------------------------------------------------ calls from test cells
    def _owner(self, obj: RemoteObject) -> str | None:
        kind, key = obj.__autograder_ref__
        return self.bound.get(key) if kind == "name" else self.current_exercise

    def _check_alive(self, obj: RemoteObject):
        if obj._generation != self.generation or self.worker is None:
            raise RuntimeError(f"{obj.__name__} belonged to a worker that was restarted")

    def _in_hidden_region(self) -> bool:
        """Whether the running test cell is in its hidden region: the line its own top-level code
        is on (a function it defined and called counts from where it was called)."""
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename == self._cell_file and frame.f_code.co_name == "<module>":
                return frame.f_lineno in self._cell_hidden
            frame = frame.f_back
        return False

    def _violations(self, violations: list[str]) -> list[str]:
        """A worker's integrity violations as the student may read them."""
        return [TAINTED_VIOLATION] if self.tainted else violations

    def _roundtrip(self, obj: RemoteObject, req: dict):
        self._check_alive(obj)
        if self._in_hidden_region():
            if self.clean:
                raise HiddenRegionReached()
            self.tainted = True
        try:
            reply = self._request(req, timeouts.call_timeout(self.limits, self.current_cell))
        except ForgedReply as forged:
            owner = self._owner(obj) or self.current_exercise
            if owner:
                self._poisoned(owner, "", [f"student code {forged.reason}"])
            self._discard_worker()
            raise AssertionError(failure.message(f"integrity of {obj.__name__}", f"it {forged.reason}")) from None
        except WorkerDied as died:
            self._discard_worker()
            raise AssertionError(failure.message(f"calling {obj.__name__}", f"it {died.reason}")) from None
        if reply.get("violations") or reply.get("thread_cells"):
            owner = self._owner(obj) or self.current_exercise
            if owner not in self._charge(reply, owner):
                raise ChargedElsewhere()
            violations = self._violations(charges(reply, owner, set())[owner])
            raise AssertionError(failure.message(f"integrity of {obj.__name__}", "; ".join(violations[:3])))
        return reply

    def call(self, obj: RemoteObject, args, kwargs):
        reply = self._roundtrip(obj, {"op": "call", "target": obj.__autograder_ref__,
                                      "args": dumps_request((args, kwargs))})
        if not reply["ok"]:
            raise rebuild_exception(reply["error"])
        return reply["value"]

    def run_probe(self, probe, obj: RemoteObject, args, kwargs):
        req = {"op": "probe", "target": obj.__autograder_ref__, "args": dumps_request((args, kwargs))}
        if getattr(evidence, getattr(probe, "__name__", ""), None) is probe:   # one of the worker's own probes
            req["probe"] = probe.__name__
        else:
            req["probe_pickle"] = dumps_request(probe)
        reply = self._roundtrip(obj, req)
        if not reply["ok"]:
            raise rebuild_exception(reply["error"])
        return reply["value"]

    def time_against(self, obj: RemoteObject, reference, args, factor, static_argnums, phase) -> dict:
        """A performance check's timings, `obj` against `reference`, in the timing worker."""
        kind, name = obj.__autograder_ref__
        if kind != "name":
            raise AssertionError(failure.message(f"timing {obj.__name__}", "only a function the notebook "
                                                 "defines can be timed, not one that a function returned"))
        if self.timing is not None and (self.timing_excluded != self.excluded or not self.timing.alive()):
            self.close_timing_worker()   # replayed with a cell since left out, or ended by a cleanup
                                         # between checks (a container's sweep): start it again
        if self.timing is None:
            self.timing = timing.TimingWorker(self.limits, self.hide, self.assignment.setup_cells)
        self.timing_excluded = set(self.excluded)
        solutions = [(ex, self.solutions[ex]) for ex in self.assignment.exercises
                     if ex in self.solutions and ex not in self.excluded]
        try:
            return self.timing.time_against(solutions, name, reference, args, factor, static_argnums, phase)
        except timing.TimingFailed as exc:
            self.close_timing_worker()
            owner = self.bound.get(name) or self.current_exercise
            if exc.thread_cells and owner not in self._charge({"thread_cells": exc.thread_cells}, owner):
                raise ChargedElsewhere() from None
            if exc.timed_out:   # a slow compile or slow calls: a failure of its own kind, named on a hidden test too
                raise failure.CheckFailure(failure.message(f"timing {obj.__name__}", str(exc)), category="timing-limit",
                                           hidden_fix=timing.LIMIT_FIX) from None
            raise AssertionError(failure.message(f"timing {obj.__name__}", str(exc))) from None

    # ------------------------------------------------------------------ test cells
    def _test_namespace(self) -> dict:
        if self.namespace is None:
            ns = {"__name__": "__main__"}
            saved_env = dict(os.environ)  # a setup cell may set XLA_FLAGS for the worker's JAX
            try:
                for cell in self.assignment.setup_cells:
                    exec(compile(cell.source, f"<setup {cell.grade_id}>", "exec"), ns)
            finally:
                os.environ.clear()
                os.environ.update(saved_env)
            setup_names = set(ns)
            for name in self.bound:
                if name not in setup_names:
                    ns[name] = RemoteObject(self, ("name", name), name, self.generation)
            self.namespace = ns
        return dict(self.namespace)

    def run_test_cell(self, cell: Cell) -> CheckResult:
        """Run one graded test cell from source/ against the submission; never raises."""
        state = self.exercises.get(cell.exercise)
        result = CheckResult(name=cell.grade_id, kind=cell.kind, exercise=cell.exercise,
                             max_points=cell.points)
        started = time.perf_counter()
        if state is not None and state.failure:
            result.message = failure.message(cell.grade_id, state.failure, verb="not run")
            return result
        if state is not None and state.integrity:
            result.message = failure.message("integrity", "; ".join(state.integrity[:3]))
            return result
        try:
            self.ensure_worker()
            ns = self._test_namespace()
        except RuntimeError as exc:
            result.message = f"[grader] {exc}"
            return result
        started = time.perf_counter()      # the cell's own time, not the worker's start (timeouts.py)
        if state is not None and (state.failure or state.integrity):
            return self.run_test_cell(cell)
        self.current_exercise, self.current_cell = cell.exercise, cell.grade_id
        self._cell_file, self._cell_hidden = f"<test {cell.grade_id}>", hidden_lines(cell.source)
        raised, again = None, False
        try:
            # (no stdout redirection: sessions run in parallel threads and sys.stdout is global)
            try:
                exec(compile(cell.source, f"<test {cell.grade_id}>", "exec"), ns)
            except Exception as exc:
                result.line = _cell_line(exc, f"<test {cell.grade_id}>")
                raise
            result.passed = True
            result.points = cell.points
        except AssertionError as exc:
            result.message = str(exc) or "AssertionError"
            raised = exc
        except StudentCodeError as exc:
            result.message = f"your code raised {exc}"
            raised = exc
        except NameError as exc:
            result.message = f"{exc}: " + self._missing_hint(cell.exercise)
        except HiddenRegionReached:             # a clean session's run stops where hidden tests begin
            result.reached_hidden = True
        except ChargedElsewhere:                # another exercise's thread was found: run the cell again
            again = True
        except Exception as exc:
            result.message = f"{type(exc).__name__}: {exc}"[:2000]
            raised = exc
        finally:
            tainted = self.tainted
            again = self._sync(cell.exercise) or again
            self.current_exercise = self.current_cell = None
        if again:   # without the exercises just charged (each time one more is left out)
            return self.run_test_cell(cell)
        if raised is not None and result.line in self._cell_hidden:
            result.message = hidden.message(cell.grade_id, raised)   # nothing the student's code produced
        elif raised is not None and tainted:    # from a clean worker, once this one is gone (clean.py)
            clean_runs.defer(self, result, cell, raised)
        if state is not None and state.integrity:
            result.passed, result.points = False, 0.0
        if state is not None and state.cell_error and not result.passed:
            desc = state.cell_error
            message = shorten(desc.get("message") or "", 200)
            result.message += (f"\n  note: your `{cell.exercise}` cell raised {type_name(desc)}"
                               + (f": {message}" if message else ""))
        result.seconds = round(time.perf_counter() - started, 3)
        return result

    def _sync(self, exercise: str) -> bool:
        """A round trip after each test cell: a stale reply still in the channel means one of this
        cell's replies was forged, and is charged to this cell's exercise. True when a violation it
        found was charged to other exercises only: the cell ran beside their thread, and runs again."""
        if self.worker is None:
            return False
        try:
            reply = self._request({"op": "info"}, self.limits.check_timeout)
            if reply.get("violations") or reply.get("thread_cells"):
                return exercise not in self._charge(reply, exercise)
        except ForgedReply as forged:
            self._poisoned(exercise, "", [f"student code {forged.reason}"])
        except WorkerDied:
            self._discard_worker()
        return False

    def _missing_hint(self, exercise: str) -> str:
        if exercise not in self.solutions:
            return (f"the submission has no solution cell with grade_id '{exercise}' "
                    f"(was it deleted, or its metadata edited?)")
        return "run your solution cell; it must define the function with exactly this name"

    # ------------------------------------------------------------------ whole notebook
    def grade(self) -> NotebookResult:
        started = time.perf_counter()
        checks = [self.run_test_cell(cell) for cell in self.assignment.test_cells]
        clean_runs.resolve(self)
        return self.result(checks, time.perf_counter() - started)

    def result(self, checks: list[CheckResult], seconds: float) -> NotebookResult:
        return notebook_result(self.assignment, checks, {ex: s.integrity for ex, s in self.exercises.items()},
                               backend=self.backend or "unknown", isolation=self.isolation or "unknown",
                               memory_limit=self.memory_limit or "unknown", seconds=round(seconds, 3))


def _cell_line(exc: BaseException, filename: str) -> int:
    """The line of the test cell's own top-level statement that raised (1-based; 0 if unknown), so
    feedback can tell a failure in a hidden test from one in the visible part."""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            return tb.tb_lineno
        tb = tb.tb_next
    return 0
