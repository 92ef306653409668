"""How busy a command keeps the machine's CPUs, from /proc/stat (Linux), every process included.

    .venv/bin/python benchmarks/cpu_use.py [--every 10] -- make test

Why not `/usr/bin/time`: its user + sys counts only the processes its child waited for, down the tree.
The grader's sandboxed workers and nbgrader's kernels are reaped elsewhere, so on the suite it read 131%
of one core where every core was busy. This reads the machine's own counters before, during and after:
busy, idle (with I/O wait) and, on a virtual machine, stolen time (a neighbour's load, which makes whole
runs of the same code differ). Prints one line per interval and a total; exits with the command's code.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import time

FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")


def sample() -> dict[str, int]:
    """The machine's CPU time so far, in clock ticks, by kind (the first line of /proc/stat)."""
    with open("/proc/stat") as fh:
        values = [int(v) for v in fh.readline().split()[1:len(FIELDS) + 1]]
    return dict(zip(FIELDS, values))


def shares(before: dict, after: dict) -> dict[str, float]:
    """Busy, idle and stolen fractions of the CPU time between two samples."""
    d = {k: after[k] - before[k] for k in FIELDS}
    total = sum(d.values()) or 1
    idle = d["idle"] + d["iowait"]
    return {"busy": (total - idle - d["steal"]) / total, "idle": idle / total, "steal": d["steal"] / total}


def _line(label: str, s: dict) -> str:
    return f"{label}: busy {s['busy']:.1%}, idle {s['idle']:.1%}, stolen {s['steal']:.1%}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--every", type=float, default=10.0, help="seconds between interval lines")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    args = ap.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error("give the command to measure after --")
    start, t0 = sample(), time.monotonic()
    done = threading.Event()

    def report():
        last = start
        while not done.wait(args.every):
            now = sample()
            print(_line(f"[cpu_use] {time.monotonic() - t0:7.0f} s", shares(last, now)), file=sys.stderr, flush=True)
            last = now

    threading.Thread(target=report, daemon=True).start()
    code = subprocess.call(command)
    done.set()
    print(_line(f"[cpu_use] total over {time.monotonic() - t0:.0f} s", shares(start, sample())), file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
