"""Detect a student's tampering with the libraries and hooks the grader relies on.

`Snapshot.take()` runs in the worker after the trusted setup cells and before any student code.
It records the attributes of the modules and classes whose behaviour a verdict depends on (jax,
jax.numpy, lax, numpy, numpy.testing, builtins, the autograder package) and the interpreter's
global hooks (trace/profile functions, import hooks, audit hooks, threads, child processes).
`Snapshot.violations()` lists what changed since. Added attributes are allowed (lazy submodule
imports add some); replaced or deleted ones are not.

This is defence in depth: under the CLI every verdict is taken in the grader's own process, so
tampering in the worker can change evidence but never a comparison against reference values.
"""
from __future__ import annotations

import builtins
import importlib
import os
import sys
import threading

WATCHED_MODULES = (
    "builtins", "numpy", "numpy.testing", "numpy.linalg", "jax", "jax.numpy", "jax.lax",
    "jax.random", "jax.tree_util", "jax.nn", "jax.monitoring", "jax.extend.core", "jax._src.api",
    "jax._src.pjit", "jax._src.core", "jax._src.dispatch", "jax._src.array", "jax._src.config",
    "autograder", "autograder.checks.check", "autograder.checks.evidence", "autograder.checks.diagnose",
    "autograder.sandbox.wire", "autograder.sandbox.integrity", "autograder.sandbox.worker", "json", "os", "sys",
    "struct", "logging", "contextlib", "io",
)
_IGNORED = {"__builtins__", "__loader__", "__spec__", "__cached__", "__file__", "_", "__doc__"}
_audit_events: list[str] = []
_AUDITED = {"sys.addaudithook", "sys.settrace", "sys.setprofile", "sys._getframe"}


def _audit(event, args):
    # Records attempts to install hooks that could intercept the grader. `sys._getframe` is only
    # recorded when it reaches into the worker loop (checked in violations()).
    if event in ("sys.addaudithook", "sys.settrace", "sys.setprofile"):
        _audit_events.append(event)


def _module_state(mod):
    return {k: v for k, v in vars(mod).items() if k not in _IGNORED}


def _class_state(cls):
    return dict(vars(cls))


class Snapshot:
    def __init__(self):
        self.modules: dict[str, tuple] = {}
        self.classes: dict[str, tuple] = {}
        self.hooks: dict[str, object] = {}
        self.threads: set[int] = set()

    @classmethod
    def take(cls) -> "Snapshot":
        import jax
        import numpy as np
        snap = cls()
        for name in WATCHED_MODULES:
            try:  # import what student code might patch later, so that it is watched from now on
                importlib.import_module(name)
            except Exception:
                pass
            mod = sys.modules.get(name)
            if mod is not None:
                snap.modules[name] = (mod, _module_state(mod))
        for c in (jax.Array, type(jax.numpy.zeros(1)), np.random.RandomState, type(jax.jit(lambda x: x))):
            snap.classes[f"{c.__module__}.{c.__qualname__}"] = (c, _class_state(c))
        snap.hooks = snap._hooks()
        snap.threads = {t.ident for t in threading.enumerate()}
        if not getattr(sys, "_autograder_audit", False):
            sys.addaudithook(_audit)
            sys._autograder_audit = True
        _audit_events.clear()
        return snap

    @staticmethod
    def _hooks():
        return {
            "sys.gettrace": sys.gettrace(), "sys.getprofile": sys.getprofile(),
            "threading.gettrace": threading.gettrace(), "threading.getprofile": threading.getprofile(),
            "sys.meta_path": list(sys.meta_path), "sys.path_hooks": list(sys.path_hooks),
            "sys.excepthook": sys.excepthook, "builtins.__import__": builtins.__import__,
            "sys.displayhook": sys.displayhook,
        }

    def violations(self) -> list[str]:
        found = []
        for name, (mod, state) in self.modules.items():
            if sys.modules.get(name) is not mod:
                found.append(f"module {name} was replaced in sys.modules")
                continue
            now = vars(mod)
            for key, value in state.items():
                if key not in now:
                    found.append(f"{name}.{key} was deleted")
                elif now[key] is not value and not _benign_change(value, now[key]):
                    found.append(f"{name}.{key} was replaced")
        for name, (cls, state) in self.classes.items():
            now = vars(cls)
            for key, value in state.items():
                if key not in now or now[key] is not value:
                    found.append(f"{name}.{key} was replaced or deleted")
            for key in now.keys() - state.keys():
                found.append(f"{name}.{key} was added")
        for key, value in self._hooks().items():
            before = self.hooks[key]
            same = value == before if isinstance(value, list) else value is before
            if not same:
                found.append(f"{key} was changed")
        extra = [t for t in threading.enumerate() if t.ident not in self.threads and t.is_alive()]
        if extra:
            found.append(f"{len(extra)} thread(s) started by student code are still running")
        if _audit_events:
            found.append(f"student code called {sorted(set(_audit_events))}")
        kids = _child_processes()
        if kids:
            found.append(f"{len(kids)} child process(es) started by student code are still running")
        return found[:20]


def _benign_change(before, after) -> bool:
    """Module-level values that libraries rebind themselves (counters, caches, plain data)."""
    plain = (int, float, str, bytes, bool, type(None), tuple, frozenset)
    return isinstance(before, plain) and isinstance(after, plain)


def _child_processes() -> list[int]:
    me = os.getpid()
    try:
        with open(f"/proc/{me}/task/{me}/children") as fh:
            return [int(p) for p in fh.read().split()]
    except OSError:
        return []
