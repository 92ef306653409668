"""Which names of a student's notebook the test cells may call: the exercise functions, nothing else.

The grader runs test cells in its own process and the student's code in the worker. A test cell
reaches the student's code only through names bound in its namespace, so those names are the whole
door between the two. The door is as narrow as the contract: each exercise's id, plus the other
names its solution cell must define that the test cells use (e.g. `create_filled_jit` beside
`create_filled`), read from the instructor's source notebook, never from the submission. A builtin
(`len`, `zip`, `range`), a setup name (`jnp`, `check`) or a helper a test cell defines for itself can
never be one of them, so a student who binds `len` or `_reference` changes nothing the tests call.
"""
from __future__ import annotations

import ast
import builtins
import functools
import symtable
import threading

from .notebook import Cell

_BUILTINS = frozenset(dir(builtins))
# CPython 3.11's AST conversion keeps its recursion depth in state shared by all threads, and
# raises "SystemError: AST constructor recursion depth mismatch" when two threads parse at once
# (graders grade notebooks in parallel threads): parse under one lock, once per assignment.
_parse_lock = threading.Lock()


def top_level_names(source: str) -> set[str]:
    """Names a cell binds at module level (def, class, import, assignment targets)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(stmt.name)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in stmt.names)
        else:
            names.update(node.id for node in ast.walk(stmt)
                         if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store))
    return names


def free_global_names(source: str) -> set[str]:
    """Global names a cell reads without binding them itself, in its body or any nested scope."""
    try:
        table = symtable.symtable(source, "<test cell>", "exec")
    except SyntaxError:
        return set()
    bound = {s.get_name() for s in table.get_symbols() if s.is_assigned() or s.is_imported()}
    used: set[str] = set()
    stack = [table]
    while stack:
        scope = stack.pop()
        for symbol in scope.get_symbols():
            if not symbol.is_referenced():
                continue
            if scope.get_type() == "module" or symbol.is_global():
                used.add(symbol.get_name())
        stack.extend(scope.get_children())
    return used - bound


def exported_names(cells: list[Cell]) -> dict[str, str]:
    """name -> exercise, for every name a test cell may look up in the student's notebook."""
    with _parse_lock:
        return dict(_exported(tuple((c.role, c.grade_id, c.source) for c in cells)))


@functools.lru_cache(maxsize=64)
def _exported(cells: tuple) -> tuple:
    cells = [Cell(i, role, gid, source) for i, (role, gid, source) in enumerate(cells)]
    setup = set().union(*(top_level_names(c.source) for c in cells if c.role == "setup"))
    used = set().union(*(free_global_names(c.source) for c in cells if c.role == "test"))
    exported: dict[str, str] = {}
    for cell in cells:
        if cell.role != "solution":
            continue
        for name in {cell.grade_id} | (top_level_names(cell.source) & used):
            if name not in _BUILTINS and name not in setup and name.isidentifier():
                exported.setdefault(name, cell.grade_id)
    return tuple(exported.items())
