"""Run the corpus of JAX errors outside jit (`error_mistakes.py`, issue 24) where students meet them.

- **kernel**: every case in one real IPython kernel (nbclient), as a student's notebook runs it (XLA
  compiling as in nbgrader's kernels: `run_in_kernel`): a
  cell with `from autograder import check`, a cell defining the cases as the student wrote them, then
  one cell per case calling it. What counts is what the cell says about the error: JAX's message
  (the error output's last line; the traceback's source lines, JAX's own code, are left out) and
  whatever the hook printed after it.
- **grader**: the cases are the student's cell of a sandboxed grading session; each is called as a
  test cell calls a student function, and the message is the one a test result carries
  (`your code raised ...`).

A message "tells" a case when one of its `fix:` lines matches the case's fix category
(`corpus.CATEGORIES`). To measure an
older version of the checks, put its package first: `PYTHONPATH=/old/checkout python rates.py`.
"""
from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field

from .corpus import CATEGORIES, ERROR_CASES, ErrorCase

# What a case's source may use besides itself (the corpus module's own imports).
PRELUDE = """import dataclasses, functools
from typing import NamedTuple
import numpy as np
import jax
import jax.numpy as jnp
from jax import lax

_ARGS = {}


def error_case(*, args, **_):
    def register(fn):
        _ARGS[fn.__name__] = args
        return fn
    return register
"""
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# How a fix the checks could not try on the student's values begins (`trial_texts.GUESS`; written
# here too, so that an older version of the checks, which has no such module, can be measured)
GUESS = "a guess, not tried on your values: "


def batch_of(case: ErrorCase) -> str:
    """`sample` (error_mistakes.py), or the held-out batch: `heldout`, `heldout_2`, `heldout_3`
    (heldout_error_mistakes*.py), each written after the rules of its time and used to revise
    them after its first run (docs/STUDENTS.md gives both runs)."""
    module = case.fn.__module__.rsplit(".", 1)[-1]
    return "sample" if module == "error_mistakes" else module.replace("_error_mistakes", "")


def load(heldout: bool = False) -> list[ErrorCase]:
    """The cases the rules were written against, or (`heldout`) those written after them."""
    import importlib
    import pkgutil
    from pathlib import Path
    for module in pkgutil.iter_modules([str(Path(__file__).parent)]):   # importing registers the cases
        if module.name == "error_mistakes" or module.name.startswith("heldout_error_mistakes"):
            importlib.import_module(f"{__package__}.{module.name}")
    names = [c.name for c in ERROR_CASES]
    twice = sorted({n for n in names if names.count(n) > 1})
    # one kernel and one grading session define every case by its name: a name used twice would
    # run one case's function for both
    assert not twice, f"case names used by two batches: {twice}"
    return [c for c in ERROR_CASES if (batch_of(c) != "sample") == heldout]


def module_source(cases: list[ErrorCase]) -> str:
    """The cases' source as one student cell: the prelude, then each decorated function."""
    return PRELUDE + "\n\n" + "\n\n".join(inspect.getsource(c.fn) for c in cases)


def fixed_function(case: ErrorCase):
    """The case's function with its failing line replaced by the maintainers' fix."""
    source = inspect.getsource(case.fn)
    lines = source.splitlines()
    hits = [i for i, line in enumerate(lines) if line.strip() == case.line]
    assert len(hits) == 1, f"{case.name}: line {case.line!r} found {len(hits)} times"
    indent = lines[hits[0]][:len(lines[hits[0]]) - len(lines[hits[0]].lstrip())]
    lines[hits[0]] = indent + case.fixed
    ns: dict = {}
    exec(PRELUDE, ns)
    exec("\n".join(lines), ns)
    return ns[case.name]


@dataclass
class Told:
    case: ErrorCase
    kernel: str = ""
    grader: str = ""
    problems: list = field(default_factory=list)

    def verdict(self, where: str) -> str:
        """`told` (a fix line gives the case's fix category), `wrong` (a fix line instructs something
        else: the message's fix, applied, would not be the maintainers'; each is read by hand to see
        whether it would still fail), or `missing` (no fix line, or only guesses, marked as such by
        `trial_texts.GUESS`, that miss)."""
        if self.tells(where):
            return "told"
        fixes = re.findall(r"^\s*fix: (.*)$", getattr(self, where), re.M)
        return "wrong" if any(not fix.startswith(GUESS) for fix in fixes) else "missing"

    def tells(self, where: str) -> bool:
        """Whether a `fix:` line of what `where` said gives the case's fix category (JAX's text and the
        student's quoted line are not advice, and could match by chance: `jnp.sum` in their code)."""
        fixes = " ".join(re.findall(r"^\s*fix: (.*)$", getattr(self, where), re.M))
        return re.search(CATEGORIES[self.case.fix], fixes) is not None


def run_in_kernel(cases: list[ErrorCase], timeout: int = 120, quick: bool = True) -> dict[str, str]:
    """{case: the text its cell shows} from one real kernel.

    `quick`: the kernel's XLA compiles as nbgrader's kernels do (`compile_effort.for_kernel`: most
    optimization off, the older CPU emitters), not as a student's own kernel does: which exception a
    case raises and what the hook then says do not depend on how hard XLA optimized what ran before:
    all 1,097 cases showed the same text both ways but for object ids, addresses, the order of a set
    and a trailing blank line, and the same `fix:` lines; the kernel took 0.85x and 0.94x the time in
    two runs (benchmarks/README.md)."""
    import os
    import nbclient
    import nbformat
    from autograder.sandbox.compile_effort import with_quick_flags
    env = {**os.environ, "JAX_DISABLE_MOST_OPTIMIZATIONS": "1",
           "XLA_FLAGS": with_quick_flags(os.environ.get("XLA_FLAGS", ""))} if quick else None
    cells = [nbformat.v4.new_code_cell("from autograder import check"),
             nbformat.v4.new_code_cell(module_source(cases))]
    cells += [nbformat.v4.new_code_cell(f"{c.name}(*_ARGS[{c.name!r}]())") for c in cases]
    nb = nbformat.v4.new_notebook(cells=cells)
    nbclient.NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True).execute(
        **({"env": env} if env else {}))
    shown = {}
    for case, cell in zip(cases, nb.cells[2:]):
        parts = []
        for out in cell.outputs:
            if out.output_type == "error":     # JAX's message (the frames' source lines are JAX's code)
                parts.append(f"{out.ename}: {out.evalue}")
            elif out.output_type == "stream":
                parts.append(out.text)
        shown[case.name] = _ANSI.sub("", "\n".join(parts))
    return shown


def run_in_grader(cases: list[ErrorCase], limits) -> dict[str, str]:
    """{case: the test result's message} from one sandboxed grading session."""
    from autograder.course import Assignment
    from autograder.course.notebook import Cell
    from autograder.grading.session import GradingSession, StudentCodeError
    source = module_source(cases)
    cells = [Cell(0, "setup", "setup", "from autograder import check"),
             Cell(1, "solution", "cases", source, exercise="cases"),
             Cell(2, "test", "cases_test", "\n".join(c.name for c in cases), exercise="cases",
                  kind="correctness")]
    session = GradingSession(Assignment("mistakes", None, cells), {"cases": source}, limits)
    try:
        session.ensure_worker()
        ns = session._test_namespace()
        said = {}
        for case in cases:
            try:
                ns[case.name](*case.make_args())
                said[case.name] = ""
            except StudentCodeError as exc:
                said[case.name] = f"your code raised {exc}"   # as `run_test_cell` words it
        return said
    finally:
        session.close()


def run_all(heldout: bool = False, limits=None, where=("kernel", "grader"), cases=None) -> list[Told]:
    """Every case (`cases`, else the in-sample or held-out set) told in one kernel and one grading
    session."""
    cases = load(heldout) if cases is None else cases
    told = [Told(c) for c in cases]
    if "kernel" in where:
        shown = run_in_kernel(cases)
        for t in told:
            t.kernel = shown[t.case.name]
    if "grader" in where:
        from autograder.sandbox.process import Limits
        said = run_in_grader(cases, limits or Limits(cell_timeout=60, check_timeout=60, startup_timeout=120))
        for t in told:
            t.grader = said[t.case.name]
    for t in told:
        for place in where:
            if not getattr(t, place):
                t.problems.append(f"{place}: the case raised nothing")
            elif not t.tells(place):
                t.problems.append(f"{place}: fix {t.case.fix!r} not told")
    return told


def rate_table(told: list[Told], where=("kernel", "grader"), by=lambda t: t.case.family) -> str:
    """Per family (or per `by`): cases, and how many were told their fix in each place (Markdown)."""
    families: dict[str, list[Told]] = {}
    for t in told:
        families.setdefault(by(t), []).append(t)
    rows = ["| family | cases | " + " | ".join(f"told the fix ({w})" for w in where) + " |",
            "|---|---|" + "---|" * len(where)]
    for family in list(families) + ["**all**"]:
        items = told if family == "**all**" else families[family]
        cells = " | ".join(f"{sum(t.tells(w) for t in items)}/{len(items)}" for w in where)
        rows.append(f"| {family} | {len(items)} | {cells} |")
    return "\n".join(rows)


def rates(told: list[Told], where=("kernel", "grader")) -> dict[str, float]:
    return {w: sum(t.tells(w) for t in told) / max(len(told), 1) for w in where}


def before_after_table(told: list[Told], before: dict[str, dict]) -> str:
    """Per family: cases told their fix before (`before`: {case: {"kernel": bool, "grader": bool}},
    from another version's `rates.py --json`) and now, in the kernel and in the grader (Markdown)."""
    families: dict[str, list[Told]] = {}
    for t in told:
        families.setdefault(t.case.family, []).append(t)
    rows = ["| family | cases | kernel before | kernel after | grader before | grader after |",
            "|---|---|---|---|---|---|"]
    for family in list(families) + ["**all**"]:
        items = told if family == "**all**" else families[family]
        n = len(items)
        cells = [f"{sum(before.get(t.case.name, {}).get(w, False) for t in items)}/{n} | {sum(t.tells(w) for t in items)}/{n}"
                 for w in ("kernel", "grader")]
        rows.append(f"| {family} | {n} | {cells[0]} | {cells[1]} |")
    return "\n".join(rows)
