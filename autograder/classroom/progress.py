"""What `autograder autograde` shows while it runs: a rich progress bar (students done of total,
failures so far, time left) on a terminal, plain lines otherwise (a log file, CI), one line per
student either way, and a summary at the end."""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                           TimeRemainingColumn)


@dataclass
class Tally:
    total: int = 0
    graded: list = field(default_factory=list)      # (student, score, max_score)
    unchanged: list = field(default_factory=list)   # students skipped: same content as last graded
    busy: list = field(default_factory=list)        # students another run is grading right now
    errors: list = field(default_factory=list)      # one-line reasons
    started: float = field(default_factory=time.perf_counter)

    @property
    def done(self) -> int:
        return len(self.graded) + len(self.unchanged) + len(self.busy) + len(self.errors)


class BatchProgress:
    def __init__(self, assignment: str, total: int, console: Console | None = None):
        self.console = console or Console(highlight=False)
        self.tty = self.console.is_terminal
        self.tally = Tally(total=total)
        self.assignment = assignment
        self._bar = None
        self._task = None

    def __enter__(self):
        if self.tty and self.tally.total:
            self._bar = Progress(TextColumn(f"[bold]{self.assignment}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("students, [red]{task.fields[failed]} failed"), TimeElapsedColumn(),
                                 TextColumn("left"), TimeRemainingColumn(), console=self.console, transient=True)
            self._bar.start()
            self._task = self._bar.add_task("grading", total=self.tally.total, failed=0)
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def _line(self, text: str):
        t = self.tally
        prefix = f"[{t.done:>{len(str(t.total))}}/{t.total}]"
        self.console.print(f"{prefix} {text}", markup=False, highlight=False, soft_wrap=True)
        if self._bar is not None:
            self._bar.update(self._task, completed=t.done, failed=len(t.errors))

    def graded(self, student: str, score: float, max_score: float, seconds: float, notes=()):
        self.tally.graded.append((student, score, max_score))
        self._line(f"{student}: {score:g}/{max_score:g} ({seconds:.1f} s)")
        for note in notes:
            self.console.print(f"    note: {note}", markup=False, highlight=False, soft_wrap=True)

    def unchanged(self, student: str):
        self.tally.unchanged.append(student)
        self._line(f"{student}: unchanged since it was graded, skipped (--force regrades)")

    def busy(self, student: str):
        self.tally.busy.append(student)
        self._line(f"{student}: being graded by another autograde run, skipped")

    def failed(self, error: str):
        self.tally.errors.append(error)
        self._line(f"error: {error}")

    def summary(self, interrupted: bool = False):
        """The closing lines (stdout), then each error again on stderr, one line each."""
        t = self.tally
        seconds = time.perf_counter() - t.started
        parts = [f"graded {len(t.graded)}"]
        if t.unchanged:
            parts.append(f"unchanged {len(t.unchanged)}")
        if t.busy:
            parts.append(f"busy elsewhere {len(t.busy)}")
        parts.append(f"could not grade {len(t.errors)}")
        if interrupted:
            parts.append(f"not started {t.total - t.done}")
        line = f"{self.assignment}: {', '.join(parts)} of {t.total} students in {seconds:.1f} s"
        if t.graded:
            mean = sum(s for _, s, _ in t.graded) / len(t.graded)
            top = max(m for _, _, m in t.graded)
            rate = len(t.graded) / seconds * 60 if seconds > 0 else 0.0
            line += f"; mean score {mean:.2f}/{top:g}; {rate:.1f} notebooks/minute"
        self.console.print(line, markup=False, highlight=False, soft_wrap=True)
        if interrupted:
            self.console.print("interrupted: every student listed above is committed to the gradebook; "
                               "run the same command again to grade the rest", markup=False, highlight=False,
                               soft_wrap=True)
        for error in t.errors:
            print(f"autograder: error: {error}", file=sys.stderr)
