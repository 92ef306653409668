"""The explanation of a JAX error in the student's own kernel, printed under JAX's traceback.

Once a notebook has run `from autograder import check`, every cell that ends in an exception a
rule of `rules.py` knows gets, after the traceback, the same `cause:` / `fix:` lines the checks
print. The hook is an IPython `post_run_cell` callback: it runs after IPython has shown the
traceback and sent the cell's error output, so JAX's text, the student's frames, the exception's
type and the error output that nbgrader scores a test cell by all stay exactly as they were; the
hook only adds a few lines on stderr. (`set_custom_exc` would replace that error output by
text, and nbgrader would then count a failed test cell as passed.)

Outside IPython (the grader's sandboxed worker, plain Python, pytest) `install` does nothing, and
it never imports IPython itself.
"""
from __future__ import annotations

import sys

HEADING = "[autograder] what the error above means:"
_MARK = "_autograder_explains_errors"     # set on our callback, so that a second install replaces it


def _explain_after_error(result) -> None:
    """post_run_cell callback: print the explanation of the cell's exception, if a rule knows it.

    Never raises: an error here would be reported by IPython as a failure of the hook, on top of
    the student's own error."""
    try:
        exc = getattr(result, "error_in_exec", None)
        if exc is None:                       # the cell succeeded (or did not parse): no work
            return
        from .diagnose import explanation_block
        block = explanation_block(exc)
        if block:
            lines = "\n".join(f"  {line}" for line in block.splitlines())
            print(f"{HEADING}\n{lines}", file=sys.stderr, flush=True)
    except BaseException:                     # noqa: BLE001 (the hook must never fail a cell)
        pass


setattr(_explain_after_error, _MARK, True)


def install() -> bool:
    """Register the callback with the running IPython shell, replacing one registered before (by
    another import, or an earlier version of this module after `importlib.reload`), so that a
    cell's explanation is printed once. Returns whether a shell was found."""
    ipython = sys.modules.get("IPython")  # a kernel has imported it; elsewhere it is not imported here
    try:
        shell = ipython.get_ipython() if ipython is not None else None
        if shell is None:
            return False
        callbacks = shell.events.callbacks.get("post_run_cell", [])
        for callback in [cb for cb in callbacks if getattr(cb, _MARK, False)]:
            shell.events.unregister("post_run_cell", callback)
        shell.events.register("post_run_cell", _explain_after_error)
        return True
    except Exception:                         # noqa: BLE001 (an odd shell must not break the import)
        return False
