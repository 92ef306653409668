"""Processes read from /proc, for everyone who walks them: children, descendants, state, start
time, process group; and the prctl options the sandbox and the grading container set. Standard
library only, since the sandbox's inside imports it too.

The grader uses it to find what a worker left running (children, and orphans re-parented to the
supervisor), which student code cannot hide from a process outside its sandbox; the supervisor
uses it to end its descendants in `process` mode; the grading container and `autograde` to end
what their workers left.
"""
from __future__ import annotations

import ctypes
import os

PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER = 1, 4, 36


def prctl(option: int, value: int) -> int:
    """prctl(2) on this process; 0 when it worked."""
    return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)


def children(pid: int) -> list[int]:
    """Direct children of `pid`, over all its threads (/proc/<pid>/task/<tid>/children); where the
    kernel has no such files (CONFIG_PROC_CHILDREN), every process whose parent is `pid`."""
    found: list[int] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    readable = False
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as fh:
                found.extend(int(k) for k in fh.read().split() if int(k) not in found)
            readable = True
        except (OSError, ValueError):
            continue
    if not readable:
        found = [int(p) for p in os.listdir("/proc") if p.isdigit() and parent(int(p)) == pid]
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


def owned_by(uid: int) -> list[int]:
    """Live processes (not zombies) whose real uid is `uid`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as fh:
                real = int(next(line for line in fh if line.startswith("Uid:")).split()[1])
        except (OSError, StopIteration, ValueError, IndexError):
            continue
        if real == uid and state(int(entry)) not in ("Z", "X", None):
            found.append(int(entry))
    return found


def _stat_fields(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            text = fh.read()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()   # the command name may hold spaces and parentheses


def parent(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return int(fields[1]) if fields else None


def process_group(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return int(fields[2]) if fields else None


def state(pid: int) -> str | None:
    """The one-letter state (R, S, D, Z, ...), or None when the process is gone."""
    fields = _stat_fields(pid)
    return fields[0] if fields else None


def start_time(pid: int) -> int | None:
    """Clock ticks after boot at which the process started (field 22 of /proc/<pid>/stat)."""
    fields = _stat_fields(pid)
    return int(fields[19]) if fields else None
