"""The batch's trusted compile cache in `nbgrader autograde`'s kernels, where our runs of nbgrader give it.

Why: two thirds of a notebook's time in nbgrader's kernel is XLA compiling the same small programs in
every student's kernel (the probes' programs, the references', solutions that lower to the reference's
HLO). The CLI's workers already read a cache of them, built from the reference solutions by a
sandboxed builder and sealed by the grader (`grading/batch_cache.py`, `sandbox/compile_cache.py`).
Given the same folder, a kernel graded 03's reference in 0.60x the time, 04's in 0.62x (the builder's
entries: 238 of 315 lookups hit).

What holds, and why:
- **Only the grader writes the entries.** The folder is the one a `BatchCache` sealed; no kernel is
  asked to write it and a kernel's own compiles stay in its memory (`TrustedCache.private`).
- **A kernel uses only entries that match the manifest it was told of.** The folder and its manifest's
  digest reach the kernel through the environment of the process that started `nbgrader autograde`
  (`environment`), which no kernel can change; the kernel reads the manifest and every entry once,
  before the notebook's first cell (`install_from_environment`, run by nbgrader_config.py's
  `exec_lines`), keeps an entry only if its bytes hash to the manifest's value, and removes the two
  variables from its environment. A student's code that rewrites, plants or deletes files there makes
  a later kernel's lookups miss (it compiles, as without the cache); it cannot make one load its bytes.
- **A compile-time check compiles cold** (`tracing._cold_compiles`): it times a compile, never a
  lookup. Compile counts are unchanged (JAX counts a hit as a compile) and a hit is the executable the
  compile would have produced, so no verdict depends on the cache (`tests/test_course.py` compares
  both graders cell by cell with it on).

What it does not change: under nbgrader, the student's code runs in the kernel that runs the tests,
and can read the entries (the references' compiled programs) as it can read the hidden tests nbgrader
put in its notebook (docs/SECURITY.md, "Under `nbgrader autograde`"). Plain `nbgrader autograde`,
started by an instructor without these variables, grades exactly as before.
"""
from __future__ import annotations

import os

# Their names do not name the grader (a student's code should not learn that it is being graded).
ENV_FOLDER = "XLA_KERNEL_CACHE"
ENV_DIGEST = "XLA_KERNEL_CACHE_DIGEST"


def environment(built) -> dict[str, str]:
    """The variables that give `nbgrader autograde`'s kernels the sealed folder of `built` (a
    `batch_cache.Built`); {} where the build left no usable folder."""
    if built is None or not built.folder or not built.digest:
        return {}
    return {ENV_FOLDER: built.folder, ENV_DIGEST: built.digest}


def install_from_environment() -> None:
    """In a kernel, before the notebook's first cell: install the trusted cache when the variables
    are set, and remove them. Returns None (it runs as a kernel's exec line: nothing to display).
    Any failure leaves the kernel without a cache, grading as before."""
    folder = os.environ.pop(ENV_FOLDER, "")
    digest = os.environ.pop(ENV_DIGEST, "")
    if not folder or not digest:
        return None
    try:
        # The probes' import switches off any cache a lab configured; the trusted one is installed after.
        from ..checks import tracing  # noqa: F401
        from ..sandbox import compile_cache
        compile_cache.install(folder, digest)
    except Exception:  # an unreadable folder, a JAX without the interface: no cache
        pass
    return None
