"""Score tables for people (rich)."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table


def print_table(results: list[dict], title: str = "Scores", console: Console | None = None):
    """One row per notebook, one column per exercise: score/max."""
    console = console or Console()
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
