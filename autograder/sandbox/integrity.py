"""Detect a student's tampering with the libraries, hooks and state the grader relies on.

`Snapshot.take()` runs in the worker after the trusted setup cells and before any student code.
It records the attributes of the modules and classes whose behaviour a verdict depends on (jax,
jax.numpy, lax, numpy, numpy.testing, builtins, the autograder package, the worker itself) and the
interpreter's global hooks (trace/profile functions, import hooks), and the Python threads alive.
`Snapshot.violations()` lists what changed since (a thread still running is charged to the cell whose
code it runs). Added attributes are allowed (lazy submodule
imports add some); replaced or deleted ones are not. Processes a worker leaves running are counted
by the grader itself, from /proc (`WorkerProcess.leftover_processes`).

It also installs an audit hook (PEP 578; it cannot be removed) that raises an *alarm* when student
code reaches for what would let it alter the evidence from inside: a frame (`sys._getframe`,
`inspect.currentframe`/`stack`, a traceback's or generator's frame, `traceback.walk_*`; from a
frame, the worker's probe table, its snapshot and the request being answered are in reach), the
garbage collector's object lists, the frames of other threads, a trace or profile function, a new
audit hook, or a function's code replaced. An alarm is one byte written at once to a pipe (fd 5)
whose read end only the grader holds, before the student's code gets what it asked for, so it
cannot be taken back. Library code (JAX's logging and traceback filtering, `namedtuple`) asks for
frames too; the alarm is raised only when the caller is the student's own code.

This is defence in depth: under the CLI every verdict is taken in the grader's own process, so
tampering in the worker can change evidence but never a comparison against reference values.
"""
from __future__ import annotations

import builtins
import gc
import importlib
import operator
import os
import signal
import sys
import threading
import time

WATCHED_MODULES = (
    "builtins", "numpy", "numpy.testing", "numpy.linalg", "jax", "jax.numpy", "jax.lax",
    "jax.random", "jax.tree_util", "jax.nn", "jax.monitoring", "jax.extend.core", "jax._src.api",
    "jax._src.pjit", "jax._src.core", "jax._src.dispatch", "jax._src.array", "jax._src.config",
    "jax._src.monitoring", "autograder", "autograder.checks.check", "autograder.checks.evidence",
    "autograder.checks.diagnose", "autograder.checks.facts", "autograder.checks.rules", "autograder.checks.text",
    "autograder.checks.failure", "autograder.checks.plausible", "autograder.checks.tracing", "autograder.checks.calls",
    "autograder.checks.timing", "autograder.checks.performance", "autograder.checks.keyuse",
    "autograder.sandbox.wire", "autograder.sandbox.integrity", "autograder.sandbox.worker",
    "autograder.sandbox.procs", "autograder.sandbox.compile_cache", "json", "os", "sys", "struct", "logging", "contextlib", "io", "gc",
    "inspect", "traceback",
)
_IGNORED = {"__builtins__", "__loader__", "__spec__", "__cached__", "__file__", "_", "__doc__"}

ALARM_FD = 5
# One byte per kind of alarm; the grader turns it into the violation's text.
ALARMS = {
    "F": "reached for the frames of the code that called it (sys._getframe, inspect, traceback frames)",
    "G": "searched the garbage collector's objects (gc.get_objects, get_referrers, get_referents)",
    "T": "read the frames of other threads (sys._current_frames)",
    "H": "installed a trace, profile or audit hook",
    "C": "replaced the code of a function (__code__), or the defaults of a library's (__defaults__)",
}
_EVENTS = {"sys._getframe": "F", "sys._current_frames": "T", "gc.get_objects": "G",
           "gc.get_referrers": "G", "gc.get_referents": "G", "sys.settrace": "H", "sys.setprofile": "H",
           "sys.addaudithook": "H"}
_FRAME_ATTRIBUTES = {"tb_frame", "gi_frame", "cr_frame", "ag_frame"}
# Library functions that hand frames to their caller: called by student code, they raise the alarm.
_FRAME_APIS = {("inspect", "currentframe"), ("inspect", "stack"), ("inspect", "trace"),
               ("inspect", "getouterframes"), ("inspect", "getinnerframes"), ("traceback", "walk_stack"),
               ("traceback", "walk_tb")}
_in_hook: set[int] = set()


def _is_library(frame) -> bool:
    """Code of an imported module other than the student's notebook (`__main__`): its globals are
    that module's own namespace. Student cells, and code exec'd or unpickled into a namespace of
    their own, are not."""
    name = frame.f_globals.get("__name__")
    module = sys.modules.get(name) if isinstance(name, str) else None
    return module is not None and name != "__main__" and getattr(module, "__dict__", None) is frame.f_globals


def _asked_by_student(frame) -> bool:
    if frame is None:
        return False
    if not _is_library(frame):
        return True
    module = frame.f_globals.get("__name__")
    return (module, frame.f_code.co_name) in _FRAME_APIS and frame.f_back is not None \
        and not _is_library(frame.f_back)


def _watched_function(fn) -> bool:
    """A function of a watched module or of the grader's package: its defaults are bound state (the
    thread-state handles of `_threads_without_frames`), as its code is."""
    module = getattr(fn, "__module__", None)
    return isinstance(module, str) and (module in WATCHED_MODULES or module.startswith("autograder"))


def _audit(event, args):
    code = _EVENTS.get(event)
    if code is None:
        if event == "object.__getattr__" and len(args) > 1 and args[1] in _FRAME_ATTRIBUTES:
            code = "F"
        elif event == "object.__setattr__" and len(args) > 1 and (args[1] == "__code__" or (
                args[1] in ("__defaults__", "__kwdefaults__") and _watched_function(args[0]))):
            code = "C"
        else:
            return
    me = threading.get_ident()
    if me in _in_hook:
        return
    _in_hook.add(me)
    try:
        if code in "HC" or _asked_by_student(sys._getframe(1)):
            os.write(ALARM_FD, code.encode())
    except Exception:  # the channel closed: the grader sees its end-of-file
        pass
    finally:
        _in_hook.discard(me)


class _Watched:
    """One watched module or class as it was before student code: the object, its type, its own
    namespace (the live dict, kept from then, not read again through attribute lookup) and a copy of
    its entries.

    Why the live namespace and the type: `vars(obj)` goes through `__dict__`, which a subclass can
    override. Student code could give a module (or, through a metaclass, a class) a new type whose
    `__dict__` property returns the old entries, or whose `__getattribute__` answers for replaced
    ones, and `vars()` would show nothing changed. The namespace kept here is the one attribute
    assignments really change (a module's or class's `__dict__` cannot be rebound), and a new type
    is itself reported.

    `unchanged()` is the fast path of every reply: the entries now against those of the copy, by
    identity, compared in C.
    (`operator.is_`, not `id()`: `id()` raises an audit event, and the audit hook below would run
    once per entry.)"""
    __slots__ = ("obj", "type", "live", "state", "_get", "_values", "_size")

    def __init__(self, obj, ignored=frozenset()):
        self.obj, self.type, self.live = obj, type(obj), vars(obj)
        self.state = {k: v for k, v in self.live.items() if k not in ignored}
        keys = tuple(self.state)
        self._get = operator.itemgetter(*keys) if len(keys) > 1 else (
            (lambda d, k=keys[0]: (d[k],)) if keys else (lambda d: ()))
        self._values = self._get(self.state)
        self._size = len(self.live)

    def unchanged(self, same_size: bool = False) -> bool:
        try:
            same = all(map(operator.is_, self._get(self.live), self._values))
        except KeyError:
            return False
        return same and (not same_size or len(self.live) == self._size)


_SIGNALS = sorted(set(signal.valid_signals()) - {signal.SIGKILL, signal.SIGSTOP})
_TIMERS = (signal.ITIMER_REAL, signal.ITIMER_VIRTUAL, signal.ITIMER_PROF)
_LISTENER_LISTS = ("_event_listeners", "_event_duration_secs_listeners", "_event_time_span_listeners",
                   "_scalar_listeners")


def _logging_hooks() -> list:
    """Every handler and filter of every logger: code that runs inside any later call that logs
    (JAX logs while it compiles). A logger made later by a library's import usually gets a plain
    `NullHandler`, which runs nothing, and is left out."""
    import logging
    loggers = [logging.root, *(v for v in list(logging.Logger.manager.loggerDict.values())
                               if isinstance(v, logging.Logger))]
    return [h for logger in loggers for h in (*logger.handlers, *logger.filters)
            if type(h) is not logging.NullHandler]


def _numpy_error_handling() -> tuple:
    """NumPy's floating-point error settings (`np.seterr`), as plain data compared by value."""
    numpy = sys.modules.get("numpy")
    return tuple(sorted(numpy.geterr().items())) if numpy is not None else ()


def _python_threads() -> dict[int, object]:
    """Every thread running Python code, by ident, with its current frame: threads started with
    `threading` and with `_thread` alike (threading.enumerate() misses the latter)."""
    return sys._current_frames()


def _bind_thread_states():
    """CPython's list of this interpreter's thread states, through its C API (bound before any student
    code runs). Function pointers of their own, made from prototypes: `ctypes.pythonapi`'s are shared
    objects that any code can retype (`ctypes.pythonapi.PyThreadState_Next.restype = None` would end the
    walk at its first state and hide every new thread); these are reached only through this module, and
    `_handle_types` tells whether they were retyped."""
    import ctypes
    api, state = ctypes.pythonapi, ctypes.c_void_p
    of_state = ctypes.PYFUNCTYPE(state, state)
    return (ctypes.PYFUNCTYPE(state)(("PyInterpreterState_Get", api)),
            of_state(("PyInterpreterState_ThreadHead", api)), of_state(("PyThreadState_Next", api)))


_INTERPRETER, _THREAD_HEAD, _THREAD_NEXT = _bind_thread_states()


def _handle_types(handles=(_INTERPRETER, _THREAD_HEAD, _THREAD_NEXT)) -> tuple:
    return tuple((h.restype, h.argtypes) for h in handles)


_HANDLE_TYPES = _handle_types()


def _threads_without_frames(_interpreter=_INTERPRETER, _head=_THREAD_HEAD, _next=_THREAD_NEXT) -> int:
    """Python threads that hold no frame yet. `_thread.start_new_thread` (and so `threading`) gives the
    new thread its thread state in the thread that starts it, before the new one first runs; until then
    `sys._current_frames()` misses it. Native threads (XLA's and LLVM's pools) have no thread state:
    they are not counted."""
    states, state = 0, _head(_interpreter())
    while state:
        states += 1
        state = _next(state)
    return states - len(sys._current_frames())


def _await_first_frames(without_frames_before: int, limit_s: float = 0.1):
    """Wait until the Python threads started since the last look (more threads without a frame than
    `without_frames_before`) have reached their first frame, at most `limit_s`. On a loaded machine a
    new thread can be scheduled far later than a moment; seen only at a later request, a thread whose
    code is no cell's (compiled by student code under another file name) would be charged to that
    request's exercise, a bystander. Returns at once when no Python thread was started, whatever
    native threads were."""
    deadline = time.monotonic() + limit_s
    while _threads_without_frames() > without_frames_before and time.monotonic() < deadline:
        time.sleep(0.005)


def _started_by_student(frame) -> bool:
    """A thread whose outermost frame is not the runtime's (JAX runs host callbacks on threads of
    its own, which hold a frame only while a callback runs)."""
    while frame.f_back is not None:
        frame = frame.f_back
    name = frame.f_globals.get("__name__", "")
    return not (isinstance(name, str) and name.startswith(("jax", "jaxlib")))


def _cell_running(frame, cell_codes: dict[int, str]) -> str | None:
    """The cell whose code a thread was started to run: of the thread's frames running a code object
    the worker compiled from a cell (by identity), the outermost one's cell (its grade_id); None when
    no frame runs one."""
    cell = None
    while frame is not None:
        cell = cell_codes.get(id(frame.f_code), cell)
        frame = frame.f_back
    return cell


class Snapshot:
    def __init__(self):
        self.modules: dict[str, tuple] = {}
        self.classes: dict[str, tuple] = {}
        self.hooks: dict[str, object] = {}
        self.threads: set[int] = set()
        self.without_frames = 0

    @classmethod
    def take(cls) -> "Snapshot":
        import jax
        import numpy as np

        from . import worker
        snap = cls()
        for name in WATCHED_MODULES:
            try:  # import what student code might patch later, so that it is watched from now on
                importlib.import_module(name)
            except Exception:
                pass
            mod = sys.modules.get(name)
            if mod is not None:
                snap.modules[name] = _Watched(mod, _IGNORED)
        for name, mod in list(sys.modules.items()):   # and every module of this package loaded by now:
            if name.startswith("autograder.") and name not in snap.modules and mod is not None:   # a probe's
                snap.modules[name] = _Watched(mod, _IGNORED)      # helpers are looked up in their module
        for c in (jax.Array, type(jax.device_put(np.zeros(1))), np.random.RandomState, type(jax.jit(lambda x: x)),
                  cls, worker.Worker):
            snap.classes[f"{c.__module__}.{c.__qualname__}"] = _Watched(c)
        snap.hooks = snap._hooks()
        snap.threads = set(_python_threads())
        snap.without_frames = _threads_without_frames()
        if not getattr(sys, "_autograder_audit", False):
            sys.addaudithook(_audit)
            sys._autograder_audit = True
        return snap

    @staticmethod
    def _hooks():
        """The interpreter's and the libraries' hooks: code they run later, inside whatever request
        comes next (another exercise's call). Lists are compared entry by entry, by identity."""
        monitoring = sys.modules.get("jax._src.monitoring")
        return {
            "sys.gettrace": sys.gettrace(), "sys.getprofile": sys.getprofile(),
            "threading.gettrace": threading.gettrace(), "threading.getprofile": threading.getprofile(),
            "sys.meta_path": list(sys.meta_path), "sys.path_hooks": list(sys.path_hooks),
            "sys.excepthook": sys.excepthook, "threading.excepthook": threading.excepthook, "builtins.__import__": builtins.__import__,
            "sys.displayhook": sys.displayhook,
            "a signal handler": [signal.getsignal(s) for s in _SIGNALS],
            "an interval timer (signal.setitimer, signal.alarm)": [signal.getitimer(t) != (0.0, 0.0) for t in _TIMERS],
            "gc.callbacks": list(gc.callbacks),
            "jax.monitoring's listeners": [listener for name in _LISTENER_LISTS
                                           for listener in getattr(monitoring, name, ())],
            "a logger's handlers or filters": _logging_hooks(),
            # a later exercise's NumPy arithmetic would raise (or stay silent) by this cell's setting
            "NumPy's floating-point error handling (np.seterr)": _numpy_error_handling(),
        }

    def violations(self, cell_codes: dict[int, str] | None = None) -> tuple[list[str], list[str]]:
        """What changed since the snapshot: (the violations of the request being answered, the cells
        whose code a thread that student code started still runs). `cell_codes` maps the id of each
        code object compiled from a student cell to its grade_id. A thread started with `_thread`
        holds no frame until it first runs, so one started by a cell may show only at a later
        request: it is charged by the code it runs (`_cell_running`), not by when it was seen; one whose frames are no cell's (still in
        `threading`'s start-up, or running a library function) is a violation of the request."""
        found = []
        for name, mod in self.modules.items():
            if sys.modules.get(name) is not mod.obj:
                found.append(f"module {name} was replaced in sys.modules")
                continue
            if type(mod.obj) is not mod.type:
                found.append(f"module {name} was given another class")
            if mod.unchanged():
                continue
            now = mod.live
            for key, value in mod.state.items():
                if key not in now:
                    found.append(f"{name}.{key} was deleted")
                elif now[key] is not value and not _benign_change(value, now[key]):
                    found.append(f"{name}.{key} was replaced")
        for name, cls in self.classes.items():
            if type(cls.obj) is not cls.type:
                found.append(f"class {name} was given another metaclass")
            if cls.unchanged(same_size=True):
                continue
            now = cls.live
            for key, value in cls.state.items():
                if key not in now or now[key] is not value:
                    found.append(f"{name}.{key} was replaced or deleted")
            for key in now.keys() - cls.state.keys():
                found.append(f"{name}.{key} was added")
        for key, value in self._hooks().items():
            before = self.hooks[key]
            same = (len(value) == len(before) and all(map(operator.is_, value, before)) if isinstance(value, list)
                    else value == before if isinstance(value, tuple) else value is before)
            if not same:
                found.append(f"{key} was changed")
        # threads started since the last look: let each reach its first frame (read through handles that
        # must still have their types: retyped, they could hide a thread that has none yet)
        if _handle_types() != _HANDLE_TYPES:
            found.append("the interpreter's thread-state handles were retyped")
        _await_first_frames(self.without_frames)
        self.without_frames = _threads_without_frames()
        me = threading.get_ident()
        running = [_cell_running(frame, cell_codes or {}) for ident, frame in _python_threads().items()
                   if ident not in self.threads and ident != me and _started_by_student(frame)]
        unknown = running.count(None)
        if unknown:
            found.append(f"{unknown} thread(s) started by student code are still running")
        return found[:20], sorted({cell for cell in running if cell is not None})


def _benign_change(before, after) -> bool:
    """Module-level values that libraries rebind themselves (counters, caches, plain data)."""
    plain = (int, float, str, bytes, bool, type(None), tuple, frozenset)
    return isinstance(before, plain) and isinstance(after, plain)
