"""Classes of students for the similarity tests and benchmark: solution cells written in the
course's known idioms (the reference and tests/cases' RIGHT answers), and copies disguised as a
copier would disguise them (variables renamed, comments added), written into an nbgrader course. A disguised cell needs only to read like a
copier's; it is compared, never run."""
from __future__ import annotations

import builtins
import io
import keyword
import shutil
import tokenize
from pathlib import Path

import nbformat

# names a copier cannot rename without breaking the code: modules and what the notebook imports
KEEP = {"jax", "jnp", "lax", "np", "math", "partial", "functools", "self"}


def rename_variables(code: str, tag: str, keep=()) -> str:
    """`code` with every local name renamed (x -> x_<tag>); modules, attributes, builtins, keyword
    arguments and the names in `keep` (the exercise's own functions) are left alone."""
    tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    edits, depth = [], 0
    for i, tok in enumerate(tokens):
        if tok.type == tokenize.OP and tok.string in "([{":
            depth += 1
        elif tok.type == tokenize.OP and tok.string in ")]}":
            depth -= 1
        if tok.type != tokenize.NAME or keyword.iskeyword(tok.string) or tok.string in KEEP or tok.string in keep:
            continue
        if hasattr(builtins, tok.string):
            continue
        before = tokens[i - 1].string if i else ""
        after = tokens[i + 1].string if i + 1 < len(tokens) else ""
        if before == "." or (depth > 0 and after == "=" and before in ("(", ",")):
            continue
        edits.append((tok.start, tok.end, f"{tok.string}_{tag}"))
    return _apply(code, edits)


def add_comments(code: str, words: str = "copied, but mine now") -> str:
    """A comment at the end of every logical line and one before the first line."""
    tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    edits = [(tok.start, tok.start, f"  # {words} ({n})") for n, tok in enumerate(tokens)
             if tok.type == tokenize.NEWLINE and tok.start[1] > 0]
    return f"# {words}\n" + _apply(code, edits)


def disguise(code: str, tag: str, keep=()) -> str:
    return add_comments(rename_variables(code, tag, keep))


def _apply(code: str, edits) -> str:
    lines = code.splitlines(keepends=True)
    for (row, col), (erow, ecol), text in sorted(edits, reverse=True):
        assert row == erow
        line = lines[row - 1]
        lines[row - 1] = line[:col] + text + line[ecol:]
    return "".join(lines)


def idioms(course, assignment: str) -> dict[str, list[str]]:
    """exercise -> its correct answers: the reference first, then tests/cases' RIGHT answers."""
    from autograder.lab.selftest import load_right_answers
    spec = course.assignment(assignment)
    out = {c.grade_id: [c.source] for c in spec.solution_cells}
    for answer in load_right_answers(course, assignment).values():
        for ex, src in answer["cells"].items():
            out[ex].append(src)
    return out


def make_course(course, root: Path, assignment: str, students: dict[str, dict[str, str]]) -> Path:
    """An nbgrader course at `root` (the project's config, source/ and release/ of `assignment`) with
    submitted/<student>/<assignment>/<assignment>.ipynb: the release notebook, each solution cell
    replaced by the student's code for that exercise (left as handed out when absent)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "nbgrader_config.py").write_text((course.root / "nbgrader_config.py").read_text()
                                             + f"\nc.CourseDirectory.root = {str(root)!r}\n")
    for top in ("source", "release"):
        shutil.copytree(getattr(course, top) / assignment, root / top / assignment)
    release = nbformat.read(str(course.release / assignment / f"{assignment}.ipynb"), as_version=4)
    for student, cells in students.items():
        nb = nbformat.reads(nbformat.writes(release), as_version=4)
        for cell in nb.cells:
            gid = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if gid in cells:
                cell.source = cells[gid]
        path = root / "submitted" / student / assignment / f"{assignment}.ipynb"
        path.parent.mkdir(parents=True)
        nbformat.write(nb, str(path))
    return root

