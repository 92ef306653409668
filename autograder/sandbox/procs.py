"""Processes read from /proc: children, descendants, state, start time (standard library only,
since the sandbox's inside imports it too).

The grader uses it to find what a worker left running (children, and orphans re-parented to the
supervisor), which student code cannot hide from a process outside its sandbox; the supervisor
uses it to end its descendants in `process` mode.
"""
from __future__ import annotations

import os


def children(pid: int) -> list[int]:
    """Direct children of `pid`, over all its threads (/proc/<pid>/task/<tid>/children)."""
    found: list[int] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as fh:
                found.extend(int(k) for k in fh.read().split() if int(k) not in found)
        except (OSError, ValueError):
            continue
    return found


def descendants(root: int) -> list[int]:
    """Live descendants of `root`, children before grandchildren."""
    found: list[int] = []
    todo = [root]
    while todo:
        for kid in children(todo.pop()):
            if kid not in found:
                found.append(kid)
                todo.append(kid)
    return found


def _stat_fields(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            text = fh.read()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()   # the command name may hold spaces and parentheses


def state(pid: int) -> str | None:
    """The one-letter state (R, S, D, Z, ...), or None when the process is gone."""
    fields = _stat_fields(pid)
    return fields[0] if fields else None


def start_time(pid: int) -> int | None:
    """Clock ticks after boot at which the process started (field 22 of /proc/<pid>/stat)."""
    fields = _stat_fields(pid)
    return int(fields[19]) if fields else None
