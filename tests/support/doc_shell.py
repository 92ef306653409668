"""A doc's command sequence, run as written: the marked code blocks of a markdown file, split into
who types what, and one bash session that types the instructor's lines.

A block is marked by an HTML comment on the line before its fence, which a rendered page hides:

    <!-- tested: instructor-sequence, NAME ... -->
    ```sh
    ...
    ```

Inside a block, a comment alone on its line that names a role switches who types the lines after
it: `# instructor ...`, `# each student ...` (every student of the class), or any other comment
naming a student (`# a student who ...`, `# that student`: one student). Lines before the first such
comment are the instructor's. Other lines are commands; a trailing `\\` joins the next line.
"""
from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

MARK = re.compile(r"<!--\s*tested:\s*instructor-sequence,\s*([\w ]+?)\s*(?:\(|-->)")
FENCE = re.compile(r"^\s*```")


@dataclass
class Segment:
    block: str              # the marked block's name
    role: str               # "instructor", "each student" or "one student"
    commands: list[str]     # as written


def marked_blocks(text: str) -> dict[str, list[str]]:
    """name -> the lines of the fenced block right after its marker, in the doc's order."""
    lines, blocks = text.splitlines(), {}
    for n, line in enumerate(lines):
        m = MARK.search(line)
        if not m:
            continue
        name = m.group(1)
        assert n + 1 < len(lines) and FENCE.match(lines[n + 1]), \
            f"line {n + 1}: the marker of {name!r} is not followed by a fenced code block"
        assert name not in blocks, f"line {n + 1}: a second block marked {name!r}"
        end = next((k for k in range(n + 2, len(lines)) if FENCE.match(lines[k])), None)
        assert end is not None, f"line {n + 1}: the block marked {name!r} never closes"
        blocks[name] = lines[n + 2:end]
    return blocks


def _role(comment: str) -> str | None:
    words = comment.lower()
    if "instructor" in words:
        return "instructor"
    if "each student" in words:
        return "each student"
    if "student" in words:
        return "one student"
    return None


def segments(text: str, names: list[str]) -> list[Segment]:
    """The blocks `names`, in this order (each must be marked in `text`), as runs of one role."""
    blocks = marked_blocks(text)
    missing = [name for name in names if name not in blocks]
    assert not missing, f"no block marked `<!-- tested: instructor-sequence, NAME -->` for {missing}"
    order = [name for name in blocks if name in names]
    assert order == names, f"the marked blocks are in the order {order}, not {names}"
    out = []
    for name in names:
        role, pending = "instructor", ""
        out.append(Segment(name, role, []))
        for line in blocks[name]:
            stripped = line.strip()
            if not pending and (not stripped or stripped.startswith("#")):
                new = _role(stripped) if stripped else None
                if new and new != out[-1].role:
                    if not out[-1].commands:
                        out.pop()
                    out.append(Segment(name, new, []))
                continue
            if stripped.endswith("\\"):
                pending += line + "\n"
                continue
            out[-1].commands.append(pending + line)
            pending = ""
    return [s for s in out if s.commands]


ABSOLUTE = re.compile(r"(?<![\w$~.}/])/[\w.\-/]+")


def outside(command: str, allowed: list[Path]) -> list[str]:
    """The absolute paths of `command` that are under none of `allowed` (nor /dev/null)."""
    return [p for p in ABSOLUTE.findall(command)
            if p != "/dev/null" and not any(p == str(a) or p.startswith(f"{a}/") for a in allowed)]


@dataclass
class Typed:
    command: str
    returncode: int
    stdout: str
    stderr: str
    seconds: float


class Shell:
    """One bash session, as the instructor's terminal: each command is typed into the same shell
    (so `cd` and variables carry over), its stdin empty, its output kept in files of its own; the
    shell then prints the command's status on its own stdout, which is all this reads. A command
    past its timeout ends the whole session (its process group) and fails."""

    def __init__(self, cwd: Path, env: dict, scratch: Path):
        self.scratch = scratch
        scratch.mkdir(mode=0o700)
        self.count = 0
        self.proc = subprocess.Popen(["bash", "--noprofile", "--norc"], cwd=cwd, env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     start_new_session=True)

    def cwd(self) -> Path:
        return Path(os.readlink(f"/proc/{self.proc.pid}/cwd"))

    def type(self, command: str, timeout: float) -> Typed:
        self.count += 1
        out, err = self.scratch / f"{self.count}.out", self.scratch / f"{self.count}.err"
        # the newline before `}` ends a trailing `# comment` of the command
        self.proc.stdin.write(f"{{ {command}\n}} </dev/null >'{out}' 2>'{err}'; echo \"status $?\"\n")
        self.proc.stdin.flush()
        start = time.monotonic()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline() if ready else ""
        seconds = time.monotonic() - start
        if not ready:
            self.close(kill=True)
            code, note = 124, f"\n(no status within {timeout:.0f} s: the session was killed)"
        elif not line.startswith("status "):
            code, note = 255, "\n(the shell ended)"
        else:
            code, note = int(line.split()[1]), ""
        read = lambda p: p.read_text(errors="replace") if p.exists() else ""  # noqa: E731
        return Typed(command, code, read(out), read(err) + note, seconds)

    def close(self, kill: bool = False):
        """End the session (at once with `kill`, else as EOF ends it) and whatever it left in its
        process group."""
        if not kill and self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()

    def left(self) -> list[int]:
        """The live (not zombie) processes still in the session's process group."""
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == self.proc.pid and fields[0] != "Z":
                found.append(int(stat.parent.name))
        return found
