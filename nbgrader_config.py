"""nbgrader configuration for the JAX course, as strict as nbgrader allows.

What nbgrader cannot enforce (tests run inside the student's kernel, no memory or process limits,
hidden tests readable during grading) is listed at the end of docs/SECURITY.md ("Under `nbgrader
autograde`"); the `autograder` CLI is the integrity-grade path.
"""
import os

c = get_config()  # noqa: F821  (provided by traitlets when nbgrader loads this file)

c.CourseDirectory.course_id = "jax-course"
c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))

# Per-cell time limit while autograding; the tests shorten it through the environment.
c.Execute.timeout = int(os.environ.get("JAX_COURSE_CELL_TIMEOUT", "60"))
c.Execute.interrupt_on_timeout = True

# Restore test cells a student deleted, and overwrite edited read-only cells from source/.
c.OverwriteCells.add_missing_cells = True

# nbgrader zeroes a test cell that writes anything to stderr. JAX and XLA write warnings there
# (float64 truncation, C++ log lines), so a correct answer would lose its points. A test cell
# fails by raising, which nbgrader records as an `error` output, never as a stderr stream; so
# every stderr stream is dropped before scoring. This also keeps nbgrader in agreement with the
# CLI, which scores a cell by whether it raised.
# (nbgrader 0.9.6 always runs IgnorePattern and ignores its `enabled` flag: the pattern, empty by
# default, is what switches it on.)
c.IgnorePattern.enabled = True
c.IgnorePattern.pattern = r"[\s\S]"

# A flood of output is cut (nbgrader counts lines only; the CLI caps bytes).
c.LimitOutput.max_lines = 200
c.LimitOutput.max_traceback = 60

# Student notebooks must not change the kernel the tests run in.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.enforce_metadata = True

# Each notebook's kernel compiles quickly (JAX's `jax_disable_most_optimizations`: XLA's backend
# optimization level 0; XLA's older CPU emitters), as the `autograder` CLI's correctness workers do: most of autograding a
# notebook is XLA compiling small programs that run once. Values and verdicts are those of a full
# compile (autograder/sandbox/compile_effort.py says what was measured); the two programs a
# performance check times are compiled with every optimization whatever this says
# (autograder/checks/timing.py). Set before the notebook's first cell, so before JAX is imported
# (autograder/sandbox/compile_effort.py's `for_kernel`); the expression binds no name in the student's namespace.
# The last line makes an eager loop or branch (a `lax.scan` called outside `jit`) compile once per
# program rather than at every call, from the first cell after JAX is imported, as a correctness
# worker does (autograder/sandbox/eager_reuse.py): the source notebooks ran in 0.95x the time
# (benchmarks/eager_reuse.py --kernel); it also lowers programs in one MLIR context, renewed every 64
# lowerings, instead of a new context each (autograder/sandbox/lowering_context.py).
#
# Where `nbgrader autograde` is started by the autograder's own runs (the tests, `make demo` with
# NBGRADER=1), its environment names a compile cache the grader built from the reference solutions and
# sealed; the second line reads it into the kernel's memory before the first cell, keeping only entries
# that match the digest it was given (autograder/classroom/kernel_cache.py). Without those variables
# (a plain `nbgrader autograde`), it does nothing.
c.Execute.extra_arguments = [
    "--HistoryManager.hist_file=:memory:",
    "--IPKernelApp.exec_lines=__import__('autograder.sandbox.compile_effort', fromlist=['_']).for_kernel()",
    "--IPKernelApp.exec_lines=__import__('autograder.classroom.kernel_cache', fromlist=['_']).install_from_environment()",
    "--IPKernelApp.exec_lines=__import__('autograder.sandbox.eager_reuse', fromlist=['_']).for_kernel(get_ipython())",
]
