"""Autograder for the JAX course, grouped by the stage of the data it handles:

- `checks`   the student-side checks that test cells import (`from autograder import check`), the
             probes that gather evidence next to student code, and the diagnosis of JAX errors.
             This is what the student kit ships for visible tests.
- `course`   the course on disk: source/ and release/ notebooks, reading a submission, building
             the release with nbgrader.
- `sandbox`  running untrusted student code: the sandboxed worker process, its wire format, and
             the integrity snapshot.
- `grading`  running the source's test cells against a submission, scores and the grading JSON.
- `outputs`  what grading feeds: score tables, `nbgrader autograde` runs, the pytest plugin, the demo.
- `cli`      the `autograder` command.
"""
__version__ = "0.1.0"


def __getattr__(name):
    # `from autograder import check` is what every test cell writes. It is resolved lazily so that
    # `import autograder` stays light: the sandbox's launcher imports this package before it
    # may import numpy or JAX.
    if name == "check":
        from .checks import check
        globals()["check"] = check
        return check
    raise AttributeError(f"module 'autograder' has no attribute {name!r}")
