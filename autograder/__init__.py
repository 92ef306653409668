"""Autograder for the JAX course, one package per stage of the data and per audience:

- `checks`     what test cells import (`from autograder import check`): the checks, the probes that
               gather evidence next to the student's code, and the diagnosis of JAX errors. The
               student kit ships it for the visible tests.
- `course`     the course on disk: source/ and release/, cells and their roles, a submission, the
               names a notebook exports to its tests, what ships (wheel, markers).
- `sandbox`    running untrusted code: the worker process (grader's side, host side, inside), its
               channel, integrity, seccomp, memory caps and devices.
- `grading`    the source's test cells against a submission: session, batches, results, hidden
               failures, performance timing, the shared command-line options and console tables.
- `classroom`  an instructor on nbgrader: autograde into the gradebook, feedback, class report, demo.
- `platforms`  grading beyond one machine: Gradescope and PrairieLearn packages, the container
               they run, the pytest plugin.
- `kit`        what students get.
- `lab`        what a lab admin runs: the self-test and labcheck.
- `cli`        the `autograder` command.

Imports run down this list (tests/test_layout.py); the four audiences never import each other.
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
