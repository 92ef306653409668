"""The package's layout: imports run one way, down the flow of the data (reads the imports, runs
nothing).

    checks <- course <- sandbox <- grading <- {classroom, platforms, kit, lab} <- cli

A module may import from its own package and the packages before it, never from one after it,
and the four audiences never import each other. What runs inside the sandbox's namespaces before
the worker (sandbox/inside.py and the modules it imports) uses the standard library only.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "autograder"
ORDER = {"checks": 0, "course": 1, "sandbox": 2, "grading": 3, "classroom": 4, "platforms": 4, "kit": 4,
         "lab": 4, "cli": 5}
AUDIENCES = {"classroom", "platforms", "kit", "lab"}
INSIDE = ("inside", "procs", "seccomp", "memlimit")   # sandbox modules stage 2 runs


def modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        yield ".".join(parts), path, path.name == "__init__.py"


def imported(name: str, path: Path, is_init: bool) -> list[tuple[str, int]]:
    """(module, line) for every import of the file, relative ones resolved."""
    package = name if is_init else name.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((target, node.lineno))
            if node.level and not node.module:     # `from . import x`: x is a module of that package
                found += [(f"{target}.{alias.name}", node.lineno) for alias in node.names]
    return found


def layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "autograder" and len(parts) > 1 and parts[1] in ORDER else None


def test_every_module_has_a_layer():
    assert {layer(name) for name, _, _ in modules() if name != "autograder"} <= set(ORDER)


@pytest.mark.parametrize("name,path,is_init", list(modules()), ids=lambda v: v if isinstance(v, str) else "")
def test_imports_run_down_the_data_flow(name, path, is_init):
    mine = layer(name)
    if mine is None:
        return                                    # the package's own __init__: it imports checks lazily
    for target, line in imported(name, path, is_init):
        theirs = layer(target)
        if theirs is None or theirs == mine:
            continue
        assert ORDER[theirs] < ORDER[mine], f"{path.name}:{line} imports {target}: an arrow back up ({mine} -> {theirs})"
        assert not (mine in AUDIENCES and theirs in AUDIENCES), f"{path.name}:{line}: {mine} imports {theirs}"


@pytest.mark.parametrize("module", INSIDE)
def test_the_inside_of_the_sandbox_imports_the_standard_library_only(module):
    path = PACKAGE / "sandbox" / f"{module}.py"
    for target, line in imported(f"autograder.sandbox.{module}", path, False):
        if target.startswith("autograder."):
            assert target.split(".")[-1] in INSIDE or target == "autograder.sandbox", \
                f"{module}.py:{line} imports {target}, which is not one of the inside's modules"
        else:
            top = target.split(".")[0]
            assert top in sys.stdlib_module_names or top == "__future__", f"{module}.py:{line} imports {target}"


def test_the_pytest_plugin_keeps_its_entry_point():
    import tomllib
    with open(PACKAGE.parent / "pyproject.toml", "rb") as fh:
        entry = tomllib.load(fh)["project"]["entry-points"]["pytest11"]["autograder"]
    assert (PACKAGE.parent / (entry.replace(".", "/") + ".py")).exists(), entry


def test_no_module_is_over_450_lines():
    long = {name: n for name, path, _ in modules() if (n := len(path.read_text().splitlines())) > 450}
    assert not long, long


def test_every_explanation_rule_has_its_own_name():
    """Reports and tests name a rule by its name (`rates.py --failures`, `_told`): two rules of one name,
    with different conditions, would be counted as one. Read from the source, so a table not yet in
    `rules.RULES` counts too."""
    names = [node.args[0].value for path in (PACKAGE / "checks").glob("*.py")
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Rule"
             and node.args and isinstance(node.args[0], ast.Constant)]
    assert len(names) > 300
    assert sorted({n for n in names if names.count(n) > 1}) == []
