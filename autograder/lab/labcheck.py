"""`make labcheck`: one prepared check that grading works on this machine's GPU with the JAX it has.

It runs from a copy of the repository on a lab machine whose Python and JAX are already installed
and that may have no network: it uses the machine's own `python3` and JAX (when `jax.devices("gpu")`
works there), and takes the grader's few pure-Python dependencies (nbformat and its tree) from a
folder of wheels that `make labcheck-wheels` prepares on a machine with network. Stages, in order,
each timed:

  devices   the GPUs, the JAX version, what one worker gets (its GPU, allocator settings, memory cap)
  memory    a worker under each kind of memory cap: does CUDA start under it, how much host memory
            it holds (measured; the kind `auto` picks must start the GPU)
  hostile   a host-memory bomb, two GPU-memory bombs and a fork bomb, graded at --jobs 2 beside a
            right answer: each costs only its own exercise
  retrace   a retracing and a non-retracing submission, with the student code on the GPU, then on
            the CPU: the verdicts of the CPU on both
  gpu-j2    the self-test of every assignment (reference + known-wrong rounds, 55 notebooks) as one
            batch at --jobs 2 on one GPU: verdicts, notebooks per minute
  cpu-j2    the same batch with the student code on the CPU (AUTOGRADER_WORKER_JAX_PLATFORMS=cpu)
  gpu-j1    the same batch at --jobs 1: 08, 07 and 03 first, then as many others as the deadline
            leaves time for (--quick: those three)
  gpu-auto  the same batch at the default --jobs (optional: the first to go when time runs short)

It prints one table and writes the JSON to $OUT/labcheck.json when OUT is set, else ./labcheck.json.
Exit status: 0 every verdict as expected; 1 an unexpected verdict; 2 it cannot run here (no GPU:
one line); 3 all as expected, but a stage (or some of gpu-j1's assignments) was left out to end by
--deadline (default 330 s from the start): rerun with `--stages` for what is left.

`--allow-cpu` (hidden; for the project's own CPU machines) runs every stage with whatever backend
the worker's JAX finds, so the whole script can be exercised where there is no GPU.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from dataclasses import asdict
from pathlib import Path

from .bootstrap import bootstrap, gpu_problem
from .common import FIRST_ASSIGNMENTS, OPTIONAL, QUICK_ASSIGNMENTS, READY, REPO, STAGES, T0, say
from .stages import Lab, Stage

def run(args) -> int:
    from ..grading.startup import isolate_jax_for_grader
    isolate_jax_for_grader()
    started = time.perf_counter() - max(0.0, time.time() - float(os.environ.get(T0, time.time())))
    lab = Lab(args)
    chosen = [s for s in STAGES if s in args.stages]
    first = [a for a in FIRST_ASSIGNMENTS if a in lab.assignments]
    batch = first + ([] if args.quick else [a for a in lab.assignments if a not in first])
    plan = {
        "devices": lambda st: lab.stage_devices(st),
        "memory": lambda st: lab.stage_memory(st),
        "hostile": lambda st: lab.stage_hostile(st),
        "retrace": lambda st: lab.stage_retrace(st),
        "gpu-j2": lambda st: lab.stage_batch(st, 2, None, lab.assignments),
        "cpu-j2": lambda st: lab.stage_batch(st, 2, "cpu", lab.assignments),
        "gpu-j1": lambda st: lab.stage_batch(st, 1, None, batch, end_by=started + args.deadline,
                                             pace=_j1_pace(stages)),
        "gpu-auto": lambda st: lab.stage_batch(st, None, None, lab.assignments),
    }
    stages = []
    for name in chosen:
        st = Stage(name)
        stages.append(st)
        elapsed = time.perf_counter() - started
        left = args.deadline - elapsed
        guess = _guess_seconds(name, stages, len(lab.assignments))
        if guess > left or left <= 0:
            st.skipped = (f"not started: {elapsed:.0f} s gone, about {guess:.0f} s more would pass "
                          f"--deadline {args.deadline:g} s")
        if st.skipped:
            say(f"[labcheck] {name}: skipped ({st.skipped})")
            continue
        say(f"[labcheck] {name} ... (at {elapsed:.0f} s of {args.deadline:g})")
        t = time.perf_counter()
        try:
            plan[name](st)
        except Exception as exc:   # a broken stage is a failed stage; the others still run
            import traceback
            st.problems.append(f"stage crashed: {type(exc).__name__}: {exc}")
            st.detail["traceback"] = traceback.format_exc()[-3000:]
        wall = time.perf_counter() - t
        st.detail["wall_s"] = round(wall, 1)
        if not st.seconds:
            st.seconds = wall
        st.seconds = round(st.seconds, 1)
        say(f"[labcheck] {name}: {'ok' if st.passed else 'FAILED'} in {wall:.1f} s")
    total = time.perf_counter() - started
    report(lab, stages, total, args)
    shutil.rmtree(lab.tmp, ignore_errors=True)
    if any(not s.passed and not s.skipped for s in stages):
        return 1
    incomplete = any((s.skipped and s.name not in OPTIONAL) or s.skipped_part for s in stages)
    return 3 if incomplete else 0


def _j2_pace(done: list) -> tuple[float, int] | None:
    """(wall seconds, notebooks) of the first --jobs 2 batch already run."""
    for s in done:
        if s.name in ("gpu-j2", "cpu-j2") and not s.skipped and s.detail.get("wall_s") and s.notebooks:
            return s.detail["wall_s"], s.notebooks
    return None


def _guess_seconds(name: str, done: list, all_n: int) -> float:
    """A batch stage's likely length from a --jobs 2 batch already timed (0 when none is)."""
    pace = _j2_pace(done)
    if not pace or name not in ("cpu-j2", "gpu-auto"):
        return 0.0
    return pace[0]


def _j1_pace(done: list) -> float | None:
    """Seconds per notebook at --jobs 1, guessed as twice the --jobs 2 batch's (None: unknown)."""
    pace = _j2_pace(done)
    return 2.0 * pace[0] / pace[1] if pace else None


def report(lab: Lab, stages: list[Stage], total: float, args):
    from rich.console import Console
    from rich.table import Table
    m = lab.machine or next(({"device_kind": p["kind"], "backend": p["backend"], "jax": p["jax"]}
                             for (platforms, _), p in lab.probes.items() if platforms is None), {})
    title = (f"labcheck: {m.get('device_kind', '?')} ({m.get('backend', '?')}), jax {m.get('jax', '?')}, "
             f"python {m.get('python', sys.version.split()[0])}, {os.cpu_count()} cores")
    table = Table(title=title)
    for col, justify in (("stage", "left"), ("backend", "left"), ("jobs", "right"), ("notebooks", "right"),
                         ("as expected", "right"), ("seconds", "right"), ("nb/min", "right"), ("notes", "left")):
        table.add_column(col, justify=justify, no_wrap=col != "notes")
    for s in stages:
        if s.skipped_part:
            s.note = (s.note + "; " if s.note else "") + f"left out for time: {', '.join(s.skipped_part)}"
        if s.skipped:
            s.note = s.skipped
    table_rows(table, stages)
    console = Console(width=200 if not sys.stdout.isatty() else None)
    console.print(table)
    for s in stages:
        for p in s.problems:
            console.print(f"{s.name}: {p}", markup=False, highlight=False, soft_wrap=True)
    rates = {s.name: s.per_minute for s in stages if s.per_minute and s.name in ("gpu-j2", "cpu-j2")}
    if len(rates) == 2:
        console.print(f"batch rate, student code on the GPU vs on the CPU (--jobs 2): {rates['gpu-j2']} vs "
                      f"{rates['cpu-j2']} notebooks per minute", markup=False, highlight=False)
    ok = all(s.passed or (s.skipped and s.name in OPTIONAL) for s in stages) \
        and not any(s.skipped_part for s in stages)
    verdict = "PASS" if ok else ("INCOMPLETE" if all(s.passed or s.skipped for s in stages) else "FAIL")
    console.print(f"{verdict}: {sum(s.good for s in stages)}/{sum(s.expected for s in stages)} verdicts as "
                  f"expected; {total:.0f} s in all", markup=False, highlight=False)
    out = Path(args.json) if args.json else Path(os.environ.get("OUT") or ".") / "labcheck.json"
    payload = {"verdict": verdict, "elapsed_s": round(total, 1), "machine": m, "allow_cpu": bool(args.allow_cpu),
               "quick": bool(args.quick),
               "stages": [{**asdict(s), "per_minute": s.per_minute, "passed": s.passed} for s in stages]}
    out.write_text(json.dumps(payload, indent=1, default=str))
    console.print(f"wrote {out}", markup=False, highlight=False)


def table_rows(table, stages: list[Stage]):
    for s in stages:
        mark = "skipped" if s.skipped else f"{s.good}/{s.expected}" + ("" if s.passed else "  FAIL")
        table.add_row(s.name, s.backend, str(s.jobs or ""), str(s.notebooks or ""), mark,
                      "" if s.skipped else f"{s.seconds:.1f}", str(s.per_minute or ""), s.note)


def parse(argv):
    ap = argparse.ArgumentParser(prog="labcheck", description=__doc__.split("\n")[0])
    ap.add_argument("--stages", default=",".join(STAGES),
                    help=f"comma-separated stages to run (default: all: {','.join(STAGES)})")
    ap.add_argument("--quick", action="store_true", help=f"gpu-j1 on {', '.join(QUICK_ASSIGNMENTS)} only")
    ap.add_argument("--wheels", type=Path, default=REPO / ".labwheels",
                    help="folder of wheels for what this Python lacks (default: .labwheels)")
    ap.add_argument("--json", help="where to write the JSON (default: $OUT/labcheck.json, else ./labcheck.json)")
    ap.add_argument("--deadline", type=float, default=330.0,
                    help="seconds from the start by which the run should end: a stage that would "
                         "pass it is skipped, gpu-j1 grades only what fits (default 330)")
    ap.add_argument("--allow-cpu", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    args.allow_cpu = args.allow_cpu or os.environ.get("JAXCOURSE_LABCHECK_ALLOW_CPU") == "1"
    args.stages = [s.strip() for s in args.stages.split(",") if s.strip()]
    unknown = [s for s in args.stages if s not in STAGES]
    if unknown:
        ap.error(f"unknown stage {unknown[0]!r} (known: {', '.join(STAGES)})")
    return args


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse(argv)
    if os.environ.get(READY) != "1":      # first pass: can it run here at all, then the dependencies
        if not args.allow_cpu:
            problem = gpu_problem()
            if problem:
                say(f"labcheck: {problem}")
                return 2
        status = bootstrap(argv, args.wheels)
        if status is not None:
            return status
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
