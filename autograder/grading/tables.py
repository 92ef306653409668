"""Score tables for people (rich)."""
from __future__ import annotations

import sys

from rich.console import Console
from rich.table import Table


def stdout_console() -> Console:
    """The terminal's width in a terminal; 160 columns when piped to a file or a CI log, where
    rich would otherwise assume 80 and cut the column headers ("as expec…")."""
    return Console(width=None if sys.stdout.isatty() else 160)


def print_table(results: list[dict], title: str = "Scores", console: Console | None = None):
    """One row per notebook, one column per exercise: score/max."""
    console = console or stdout_console()
    if not results:
        return
    exercises = []
    for r in results:
        for ex in r["exercises"]:
            if ex not in exercises:
                exercises.append(ex)
    table = Table(title=title)
    table.add_column("notebook")
    for ex in exercises:
        table.add_column(ex, justify="right")
    table.add_column("total", justify="right")
    for r in results:
        row = [r.get("student") or r["notebook"]]
        for ex in exercises:
            e = r["exercises"].get(ex)
            row.append(f"{e['score']:g}/{e['max_score']:g}" if e else "-")
        row.append(f"{r['score']:g}/{r['max_score']:g}")
        table.add_row(*row)
    console.print(table)


def print_visible_report(result: dict, console: Console | None = None) -> bool:
    """What `autograder check` prints for a student: one row per exercise, the failed checks'
    messages, and a last line that never claims more than the visible tests showed.

    Returns True when every visible test passed."""
    console = console or stdout_console()
    table = Table(title=f"{result['assignment']}: visible tests")
    table.add_column("exercise")
    table.add_column("visible checks")
    table.add_column("points", justify="right")
    failed, first_failures = [], []
    for ex, e in result["exercises"].items():
        marks = []
        for c in e["checks"]:
            marks.append(f"{'[green]passed[/]' if c['passed'] else '[red]FAILED[/]'} {c['name']}")
            if not c["passed"]:
                failed.append(c)
        mine = [c for c in e["checks"] if not c["passed"]]
        if mine:
            first_failures.append((mine[0], len(mine) - 1))
        table.add_row(ex, "\n".join(marks) or "-", f"{e['score']:g}/{e['max_score']:g}")
    console.print(table)
    # one message per exercise: the first failed check usually explains the others
    for c, others in first_failures:
        console.rule(f"{c['name']} ({c['kind']}, {c['max_points']:g} pt)", style="red")
        console.print(c["message"], markup=False, highlight=False, soft_wrap=True)
        if others:
            console.print(f"  ({others} more failed check(s) of this exercise: run its cells in the notebook)",
                          markup=False, highlight=False)
    for error in result.get("errors", []):
        console.print(f"note: {error}", markup=False, highlight=False, soft_wrap=True)
    if failed:
        console.print(f"{len(failed)} visible test(s) failed; fix them first. Hidden tests run at grading.",
                      markup=False, highlight=False)
        return False
    console.print("visible tests passed; hidden tests run at grading", markup=False, highlight=False)
    return True
