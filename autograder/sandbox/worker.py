"""The sandboxed process that runs a student's code (started by `process.py`, driven by `grading/session.py`).

Requests arrive on fd REQUEST_FD, replies leave on fd REPLY_FD (see `wire.py`); stdin is /dev/null
and stdout/stderr go to capped files. The order of start-up matters:
  1. run the source's setup cells (trusted: they may set XLA_FLAGS before JAX initialises);
  2. import the probes and take the integrity snapshot (references bound before student code);
  3. only then execute student cells and answer calls and probes.
Each reply carries the integrity violations seen so far, so tampering is attributed to the cell or
call that caused it. A request that leaves the disk full gets no reply: the worker exits with
DISK_FULL_EXIT, so the grader charges that request (a cell or a call) and starts afresh.
"""
from __future__ import annotations

import builtins
import gc
import os
import pickle
import sys
import time
import types

from . import wire
from .inside import DISK_FULL_EXIT

REQUEST_FD = 3
REPLY_FD = 4
# "Full": less than this many bytes, or files, left. Writes that hit ENOSPC leave less than a page.
DISK_FULL_BYTES = 1 << 20
DISK_FULL_FILES = 4
_exit = os._exit  # bound before student code runs


class Worker:
    def __init__(self, scratch: str):
        self.scratch = scratch
        # Student cells run in a fresh __main__ module, as in a notebook kernel; nothing in
        # sys.argv or __main__ names the grader.
        main_module = types.ModuleType("__main__")
        main_module.__dict__["__builtins__"] = builtins
        sys.modules["__main__"] = main_module
        sys.argv = [""]
        self.namespace = main_module.__dict__
        self.handles: dict[int, object] = {}
        self.snapshot = None
        self.probes = {}
        self.describe = None
        self.returning_plain = None   # bound before student code runs (`_after_trusted`)
        self.compile_cache = None   # the grader's compile cache, if it gave one (`compile_cache.py`)
        # id of every code object compiled from a cell -> its grade_id (threads are charged by it); the
        # objects are kept, so no id is reused. By identity: code compiled elsewhere under a cell's file
        # name is no cell's.
        self.cell_codes: dict[int, str] = {}
        self._compiled: list = []

    # -- helpers -------------------------------------------------------------
    def _cell_file(self, grade_id: str, source: str) -> str:
        """Write the cell to a file named after it, so tracebacks show its lines; when the disk
        cannot take it, keep the source in linecache under the same name instead."""
        safe = "".join(ch if ch.isalnum() or ch in "_-" else "_" for ch in grade_id) or "cell"
        path = os.path.join(self.scratch, f"{safe}.py")
        try:
            with open(path, "w") as fh:
                fh.write(source)
        except OSError:
            import linecache
            linecache.cache[path] = (len(source), None, source.splitlines(True), path)
        return path

    def _resolve(self, target):
        kind, key = target
        if kind == "name":
            if key not in self.namespace:
                raise NameError(f"name {key!r} is not defined")
            return self.namespace[key]
        return self.handles[key]

    def _unpickle(self, payload: bytes):
        worker = self

        class Unpickler(pickle.Unpickler):
            def persistent_load(self, pid):
                return worker._resolve(pid)

        import io
        return Unpickler(io.BytesIO(payload)).load()

    def _violations(self) -> tuple[list[str], list[str]]:
        """(violations of the request being answered, cells whose code a thread still runs)."""
        return self.snapshot.violations(self.cell_codes) if self.snapshot is not None else ([], [])

    def _keep_codes(self, code, grade_id: str):
        """Note the cell's code objects: its own and those of the functions, lambdas and classes in it."""
        stack = [code]
        while stack:
            c = stack.pop()
            self._compiled.append(c)
            self.cell_codes[id(c)] = grade_id
            stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))

    # -- operations ----------------------------------------------------------
    def op_exec(self, req):
        """Run one cell's source in the notebook namespace; report the names it (re)bound."""
        before = dict(self.namespace)
        error = None
        try:
            code = compile(req["source"], self._cell_file(req["grade_id"], req["source"]), "exec")
            self._keep_codes(code, req["grade_id"])
            exec(code, self.namespace)
        except BaseException as exc:  # SystemExit and KeyboardInterrupt from student code too
            error = self._describe(exc)
        if req.get("trusted"):
            self._after_trusted()
        bound = sorted(k for k, v in self.namespace.items()
                       if not k.startswith("__") and (k not in before or before[k] is not v))
        callables = [k for k in bound if callable(self.namespace[k])]
        return {"ok": error is None, "error": error, "bound": bound, "callables": callables}

    def _after_trusted(self):
        """After the setup cells (which may set XLA_FLAGS or JAX's options before importing JAX):
        the grader's compile cache if it gave one (`compile_cache.py`), then the probes and the
        snapshot, before any student code runs."""
        if self.snapshot is not None:
            return
        import jax
        from . import compile_cache, compile_effort, eager_reuse, lowering_context
        compile_effort.apply()   # before the cache: its entries are keyed with the compile options
        if compile_effort.asked():
            eager_reuse.install()
            lowering_context.install()
        self.compile_cache = compile_cache.install_from_environment()
        from ..checks import diagnose, evidence
        from . import integrity
        # A lab's own persistent cache stays off (probes trace and compile afresh); the grader's
        # trusted one stays on (its hits are timed as compiles: counts are unchanged)
        jax.config.update("jax_enable_compilation_cache", self.compile_cache is not None)
        from ..checks import plain
        self.returning_plain = plain.returning_plain
        self.describe = diagnose.describe_exception
        self.probes = {name: getattr(evidence, name) for name in dir(evidence)
                       if callable(getattr(evidence, name)) and not name.startswith("_")}
        self.snapshot = integrity.Snapshot.take()
        _collect_this_requests_garbage()

    def _describe(self, exc):
        if self.describe is None:
            from ..checks.diagnose import describe_exception
            self.describe = describe_exception
        return self.describe(exc)

    def op_call(self, req):
        fn = self._resolve(req["target"])
        args, kwargs = self._unpickle(req["args"])
        try:
            value = fn(*args, **kwargs)
            _block_until_ready(value)
        except BaseException as exc:
            return {"ok": False, "error": self._describe(exc)}
        return {"ok": True, "value": value}

    def op_probe(self, req):
        """Run a probe on a function of the notebook (`target`), or, with no target, on its
        arguments alone (the reference worker's references, which arrive as arguments)."""
        target = req.get("target")
        probe = self.probes[req["probe"]] if "probe" in req else self._unpickle(req["probe_pickle"])
        args, kwargs = self._unpickle(req["args"])
        if target is not None:
            fn = self._resolve(target)
            # a test cell's own probe reads what the function returns: only plain data by type
            # (`checks/plain.py`), never a look-alike's own `dtype`; the grader's probes check it
            args = (fn if "probe" in req else self.returning_plain(fn), *args)
        try:
            value = probe(*args, **kwargs)
        except BaseException as exc:
            return {"ok": False, "error": self._describe(exc)}
        return {"ok": True, "value": value}

    def op_info(self, req):
        import jax
        return {"ok": True, "backend": jax.default_backend(), "devices": jax.device_count(),
                "pid": os.getpid(), "uid": os.getuid()}

    def op_compile_cache(self, req):
        """The compile cache's counts; with `entries`, what this worker compiled (asked of the
        builder worker only, which ran the references: `grading/batch_cache.py`)."""
        import numpy as np
        from . import compile_cache
        value = {"stats": compile_cache.stats()}
        if req.get("entries"):
            found = compile_cache.entries()
            value["keys"] = list(found)
            value["blobs"] = [np.frombuffer(blob, dtype=np.uint8) for blob in found.values()]
        return {"ok": True, "value": value}

    def serve(self):
        ops = {"exec": self.op_exec, "call": self.op_call, "probe": self.op_probe, "info": self.op_info,
               "compile_cache": self.op_compile_cache}
        while True:
            try:
                req = pickle.loads(wire.read_frame(REQUEST_FD))
            except EOFError:
                return
            started = time.perf_counter()
            try:
                reply = ops[req["op"]](req)
                _collect_this_requests_garbage()
            except BaseException as exc:
                reply = {"ok": False, "error": self._describe(exc)}
            if _disk_full(self.scratch):
                _exit(DISK_FULL_EXIT)
            reply["seconds"] = round(time.perf_counter() - started, 4)
            reply["violations"], thread_cells = self._violations()
            if thread_cells:
                reply["thread_cells"] = thread_cells
            try:
                payload = wire.encode_reply(reply, self.handles)
            except Exception as exc:
                payload = wire.encode_reply({"ok": False, "error": self._describe(exc),
                                             **{k: reply[k] for k in ("violations", "thread_cells") if k in reply}},
                                            self.handles)
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except Exception:  # e.g. the output cap was reached: nothing more is printed
                    pass
            wire.write_frame(REPLY_FD, wire.nonce_bytes(req.get("nonce")) + payload)


def _collect_this_requests_garbage(_collect=gc.collect, _freeze=gc.freeze):
    """Collect the garbage this request made, then freeze what survives (gc.freeze: moved out of the
    collector's reach). A finalizer (`__del__`, a weakref callback) of garbage a request made runs
    in that request, charged to it: a cell whose object hangs or exits in its finalizer no longer
    does so later, inside another exercise's call, wherever the collector happened to run (a blind
    red team's bomb cost every exercise of its notebook that way). What survives a request is never
    collected as a cycle again, only freed by reference counting, which runs when code drops it.
    Cheap: only the objects made since the last freeze are examined (a full collection of a worker
    that imported JAX examines 100,000 objects, 0.3-0.5 s)."""
    _collect()
    _freeze()


def _disk_full(path: str, _statvfs=os.statvfs) -> bool:
    try:
        st = _statvfs(path)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < DISK_FULL_BYTES or (st.f_files > 0 and st.f_favail < DISK_FULL_FILES)


def _block_until_ready(value):
    """Finish asynchronous work inside the call, so that its time and errors belong to it."""
    import jax
    try:
        for leaf in jax.tree_util.tree_leaves(value):
            if isinstance(leaf, jax.Array):
                leaf.block_until_ready()
    except Exception:
        pass


def main():
    from . import compile_cache, compile_effort, one_core
    one_core.take_environment()   # first: before JAX or NumPy starts a thread (each inherits the mask)
    compile_cache.take_environment()
    compile_effort.take_environment()
    scratch = os.getcwd()
    Worker(scratch).serve()


if __name__ == "__main__":
    main()
