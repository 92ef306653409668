"""The grader's side of objects that live in the worker: proxies for the student's functions,
the student's exceptions rebuilt as data, and the stop a clean session makes at a hidden region."""
from __future__ import annotations

from ..checks.diagnose import student_error_text
from ..checks.text import bounded


class StudentCodeError(Exception):
    """An exception raised by student code in the worker, re-raised in the grader as data. Its
    description is the worker's, so it is cut to what the explanation rules read (`bounded`) before
    any rule reads it: however long or forged, it is explained in bounded time."""

    def __init__(self, desc: dict):
        desc = bounded(desc if isinstance(desc, dict) else {})
        self.desc = desc
        super().__init__(student_error_text(desc))   # no empty colon for `raise NotImplementedError()`


class HiddenRegionReached(BaseException):
    """Raised in a clean session instead of sending a request from a test cell's hidden region: the
    clean worker must never see hidden data. (A BaseException, so that no test cell's
    `except Exception` takes it for a failure of the student's code.)"""


class ChargedElsewhere(BaseException):
    """A reply's integrity violations were charged to other exercises only (a thread their cells'
    code started, seen late): the test cell runs again in a worker without them (`session.py`). A
    BaseException for the same reason as `HiddenRegionReached`."""


# The violation of a thread charged to the cell whose code it runs (the grader's words, not the worker's).
THREAD_LEFT_RUNNING = "a thread started by student code is still running"


def charges(reply: dict, owner: str | None, open_exercises: set) -> dict:
    """{exercise: violations} a reply's integrity violations are charged to: a thread still running
    to the exercise whose cell's code it runs (the worker names the cell:
    `integrity.Snapshot.violations`), everything else to `owner`, the exercise the request was for
    (None: nobody's). A thread charged to an exercise not open (already left out, or no exercise)
    is `owner`'s: so every charge to another exercise leaves one more cell out of the next worker."""
    charged: dict = {}
    for cell in reply.get("thread_cells") or []:
        if cell in open_exercises and cell != owner:
            charged[cell] = [THREAD_LEFT_RUNNING]
        else:
            charged.setdefault(owner, []).append(THREAD_LEFT_RUNNING)
    if reply.get("violations"):
        charged.setdefault(owner, []).extend(reply["violations"])
    return charged


# What a tainted worker's integrity violations may say (their own text could carry hidden data).
TAINTED_VIOLATION = "student code changed the grader's or JAX's modules, hooks or processes (details withheld: " \
                    "it had run on hidden test data)"


class RemoteObject:
    """Grader-side stand-in for an object that lives in the worker (a student function, or a
    function a student function returned)."""

    def __init__(self, session: "GradingSession", ref: tuple, name: str, generation: int):
        self.__autograder_session__ = session
        self.__autograder_ref__ = ref
        self.__name__ = name
        self._generation = generation

    def __call__(self, *args, **kwargs):
        return self.__autograder_session__.call(self, args, kwargs)

    def __repr__(self):
        return f"<student object {self.__name__}>"


_REBUILDABLE = {"ValueError": ValueError, "TypeError": TypeError, "IndexError": IndexError,
                "KeyError": KeyError, "ZeroDivisionError": ZeroDivisionError,
                "NotImplementedError": NotImplementedError, "AssertionError": AssertionError,
                "RuntimeError": RuntimeError, "ArithmeticError": ArithmeticError,
                "OverflowError": OverflowError, "NameError": NameError, "AttributeError": AttributeError}


def rebuild_exception(desc: dict) -> Exception:
    """An exception of the student's type for `check.assert_raises`, carrying the description.

    Built-in types are rebuilt as themselves (a subclass that also is a StudentCodeError); anything
    else becomes a StudentCodeError. A description that is not a dict (a worker can send anything)
    becomes an error that says so."""
    if not isinstance(desc, dict):
        desc = {"type": "Error", "message": "the worker described the error in a form the grader cannot read"}
    base = _REBUILDABLE.get(desc.get("type"))
    if base is AssertionError:
        base = None  # a student's AssertionError must not read as a failed check of ours
    if base is None:
        return StudentCodeError(desc)
    cls = type(f"Student{base.__name__}", (base, StudentCodeError), {})
    exc = cls.__new__(cls)
    StudentCodeError.__init__(exc, desc)
    return exc

