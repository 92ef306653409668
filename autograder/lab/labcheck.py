"""`make labcheck`: one prepared check that grading works on this machine's GPU with the JAX it has.

It runs from a copy of the repository on a lab machine whose Python and JAX are already installed
and that may have no network: it uses the machine's own `python3` and JAX (when `jax.devices("gpu")`
works there), and takes the grader's few pure-Python dependencies (nbformat and its tree) from a
folder of wheels that `make labcheck-wheels` prepares on a machine with network. Stages, in the
order of what a GPU has never shown first (the first four), each timed:

  retrace   a retracing and a non-retracing submission, with the student code on the GPU, then on
            the CPU: the verdicts of the CPU on both
  gpu-j2    the self-test of every assignment (reference + known-wrong rounds, 55 notebooks) as one
            batch at --jobs 2 on one GPU: verdicts, notebooks per minute
  cpu-j2    the same batch with the student code on the CPU (AUTOGRADER_WORKER_JAX_PLATFORMS=cpu)
  gpu-j1    the same batch at --jobs 1: 08, 07 and 03 first, then as many others as the deadline
            leaves time for (--quick: those three)
  devices   the GPUs, the JAX version, what one worker gets (its GPU, allocator settings, memory cap)
  memory    a worker under each kind of memory cap: does CUDA start under it, how much host memory
            it holds (measured; the kind `auto` picks must start the GPU)
  hostile   a host-memory bomb, two GPU-memory bombs and a fork bomb, graded at --jobs 2 beside a
            right answer: each costs only its own exercise
  gpu-auto  the same batch at the default --jobs (optional: the first to go when time runs short)
  scaling   a class batch of one assignment's reference with the trusted compile cache, student code
            on the CPU, at --jobs 4, 8 and 16 (capped at the cores): notebooks per minute for each
            (optional; `scaling.py`)

After each stage the whole JSON so far replaces $OUT/labcheck.json (OUT set; else ./labcheck.json,
or --json), verdict "RUNNING" and the stages left, and one line says how the stage ended: a run cut
short still reports what it saw. At the end it prints one table and writes the final JSON.
Exit status: 0 every verdict as expected; 1 an unexpected verdict; 2 it cannot run here (no GPU:
one line); 3 all as expected, but a stage (or some of gpu-j1's assignments) was left out to end by
--deadline (default 450 s from the start: under 8 minutes with room for a stage that overruns its
guess): rerun with `--stages` for what is left.

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
from .common import (DEADLINE, FIRST_ASSIGNMENTS, J2_SECONDS_PER_NOTEBOOK, OPTIONAL, PRIOR_SECONDS,
                     QUICK_ASSIGNMENTS, READY, REPO, STAGES, T0, say)
from .scaling import DEFAULT_ASSIGNMENT, DEFAULT_JOBS, stage_scaling
from .scaling import rows as scaling_rows
from .stages import Lab, Stage

def run(args) -> int:
    from ..grading.startup import isolate_jax_for_grader
    isolate_jax_for_grader()
    started = time.perf_counter() - max(0.0, time.time() - float(os.environ.get(T0, time.time())))
    lab = Lab(args)
    out = json_path(args)
    chosen = [s for s in STAGES if s in args.stages]
    first = [a for a in FIRST_ASSIGNMENTS if a in lab.assignments]
    batch = first + ([] if args.quick else [a for a in lab.assignments if a not in first])
    end_by = started + args.deadline
    plan = {
        "devices": lambda st: lab.stage_devices(st),
        "memory": lambda st: lab.stage_memory(st),
        "hostile": lambda st: lab.stage_hostile(st),
        "retrace": lambda st: lab.stage_retrace(st),
        "gpu-j2": lambda st: lab.stage_batch(st, 2, None, lab.assignments),
        "cpu-j2": lambda st: lab.stage_batch(st, 2, "cpu", lab.assignments),
        "gpu-j1": lambda st: lab.stage_batch(st, 1, None, batch, end_by=end_by, pace=_j1_pace(stages)),
        "gpu-auto": lambda st: lab.stage_batch(st, None, None, lab.assignments),
        "scaling": lambda st: stage_scaling(lab, st, end_by=end_by, core_seconds=_core_seconds(stages)),
    }
    stages = []
    for i, name in enumerate(chosen):
        st = Stage(name)
        stages.append(st)
        elapsed = time.perf_counter() - started
        left = args.deadline - elapsed
        guess = _guess_seconds(name, stages, lab)
        if guess > left or left <= 0:
            st.skipped = (f"not started: {elapsed:.0f} s gone, about {guess:.0f} s more would pass "
                          f"--deadline {args.deadline:g} s")
        if not st.skipped:
            say(f"[labcheck] {name} ... (at {elapsed:.0f} s of {args.deadline:g})")
            t = time.perf_counter()
            try:
                plan[name](st)
            except Exception as exc:   # a broken stage is a failed stage; the others still run
                import traceback
                st.problems.append(f"stage crashed: {type(exc).__name__}: {exc}")
                st.detail["traceback"] = traceback.format_exc()[-3000:]
            st.detail["wall_s"] = round(time.perf_counter() - t, 1)
            if not st.seconds:
                st.seconds = st.detail["wall_s"]
            st.seconds = round(st.seconds, 1)
        _finish(st)
        # the file first, then the line: a run cut short after this line still reports the stage
        try:
            write_json(out, lab, stages, time.perf_counter() - started, args, "RUNNING", chosen[i + 1:])
        except OSError as exc:
            say(f"[labcheck] could not write {out}: {exc}")
        say(f"[labcheck] {stage_line(st)}")
    total = time.perf_counter() - started
    report(lab, stages, total, args, out)
    shutil.rmtree(lab.tmp, ignore_errors=True)
    if any(not s.passed and not s.skipped for s in stages):
        return 1
    return 3 if _incomplete(stages) else 0


def _incomplete(stages: list[Stage]) -> bool:
    """A stage that is not optional was left out (or part of it), for time."""
    return any((s.skipped or s.skipped_part) and s.name not in OPTIONAL for s in stages)


def _finish(st: Stage):
    if st.skipped_part:
        st.note = (st.note + "; " if st.note else "") + f"left out for time: {', '.join(st.skipped_part)}"
    if st.skipped:
        st.note = st.skipped


def stage_line(st: Stage) -> str:
    """One stage as it ends: its verdicts, batch, rate and backend."""
    if st.skipped:
        return f"{st.name}: skipped ({st.skipped})"
    parts = [f"{st.good}/{st.expected} as expected"]
    if st.notebooks:
        parts.append(f"{st.notebooks} notebooks at --jobs {st.jobs}" if st.jobs else f"{st.notebooks} notebooks")
    if st.per_minute:
        parts.append(f"{st.per_minute} nb/min")
    if st.backend:
        parts.append(f"backend {st.backend}")
    line = f"{st.name}: {'ok' if st.passed else 'FAILED'} in {st.detail.get('wall_s', st.seconds):.1f} s: " + ", ".join(parts)
    if st.skipped_part:
        line += f"; left out for time: {', '.join(st.skipped_part)}"
    return line + "".join(f"\n  {p.splitlines()[0][:300]}" for p in st.problems[:5])


def _j2_pace(done: list, prefer: str = "gpu-j2") -> tuple[float, int] | None:
    """(wall seconds, notebooks) of a --jobs 2 batch already run (`prefer` first)."""
    timed = {s.name: (s.detail["wall_s"], s.notebooks) for s in done
             if s.name in ("gpu-j2", "cpu-j2") and not s.skipped and s.detail.get("wall_s") and s.notebooks}
    return timed.get(prefer) or next(iter(timed.values()), None)


def _guess_seconds(name: str, done: list, lab: Lab) -> float:
    """A stage's likely length: a batch's from a --jobs 2 batch already timed, else from the prior
    per notebook; the fixed stages' from PRIOR_SECONDS (0 for gpu-j1 and scaling: they grade only
    what fits before --deadline, or nothing)."""
    if name in PRIOR_SECONDS:
        return PRIOR_SECONDS[name]
    if name not in ("gpu-j2", "cpu-j2", "gpu-auto"):
        return 0.0
    pace = _j2_pace(done)
    return pace[0] if pace else J2_SECONDS_PER_NOTEBOOK * lab.batch_size()


def _j1_pace(done: list) -> float:
    """Seconds per notebook at --jobs 1, guessed as twice the --jobs 2 batch's (or the prior's)."""
    pace = _j2_pace(done)
    return 2.0 * (pace[0] / pace[1] if pace else J2_SECONDS_PER_NOTEBOOK)


def _core_seconds(done: list) -> float | None:
    """A notebook's seconds on one core, from a --jobs 2 batch (the CPU one first), or None."""
    pace = _j2_pace(done, prefer="cpu-j2")
    return 2.0 * pace[0] / pace[1] if pace else None


def json_path(args) -> Path:
    return Path(args.json) if args.json else Path(os.environ.get("OUT") or ".") / "labcheck.json"


def write_json(out: Path, lab: Lab, stages: list[Stage], elapsed: float, args, verdict: str, left=()):
    """The whole report so far, replacing the file at once (a reader never sees half of it)."""
    payload = {"verdict": verdict, "elapsed_s": round(elapsed, 1), "deadline_s": args.deadline,
               "machine": machine(lab), "allow_cpu": bool(args.allow_cpu), "quick": bool(args.quick),
               "stages": [{**asdict(s), "per_minute": s.per_minute, "passed": s.passed} for s in stages],
               "stages_left": list(left)}
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(payload, indent=1, default=str))
    os.replace(tmp, out)


def machine(lab: Lab) -> dict:
    return lab.machine or next(({"device_kind": p["kind"], "backend": p["backend"], "jax": p["jax"]}
                                for (platforms, _), p in lab.probes.items() if platforms is None), {})


def report(lab: Lab, stages: list[Stage], total: float, args, out: Path):
    from rich.console import Console
    from rich.table import Table
    m = machine(lab)
    title = (f"labcheck: {m.get('device_kind', '?')} ({m.get('backend', '?')}), jax {m.get('jax', '?')}, "
             f"python {m.get('python', sys.version.split()[0])}, {os.cpu_count()} cores")
    table = Table(title=title)
    for col, justify in (("stage", "left"), ("backend", "left"), ("jobs", "right"), ("notebooks", "right"),
                         ("as expected", "right"), ("seconds", "right"), ("nb/min", "right"), ("notes", "left")):
        table.add_column(col, justify=justify, no_wrap=col != "notes")
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
    ok = all(s.passed or (s.skipped and s.name in OPTIONAL) for s in stages) and not _incomplete(stages)
    verdict = "PASS" if ok else ("INCOMPLETE" if all(s.passed or s.skipped for s in stages) else "FAIL")
    console.print(f"{verdict}: {sum(s.good for s in stages)}/{sum(s.expected for s in stages)} verdicts as "
                  f"expected; {total:.0f} s in all", markup=False, highlight=False)
    write_json(out, lab, stages, total, args, verdict)
    console.print(f"wrote {out}", markup=False, highlight=False)


def table_rows(table, stages: list[Stage]):
    for s in stages:
        mark = "skipped" if s.skipped else f"{s.good}/{s.expected}" + ("" if s.passed else "  FAIL")
        table.add_row(s.name, s.backend, str(s.jobs or ""), str(s.notebooks or ""), mark,
                      "" if s.skipped else f"{s.seconds:.1f}", str(s.per_minute or ""), s.note)
        if s.name == "scaling":
            for row in scaling_rows(s):
                table.add_row(*row)


def parse(argv):
    ap = argparse.ArgumentParser(prog="labcheck", description=__doc__.split("\n")[0])
    ap.add_argument("--stages", default=",".join(STAGES),
                    help=f"comma-separated stages to run (default: all: {','.join(STAGES)})")
    ap.add_argument("--quick", action="store_true", help=f"gpu-j1 on {', '.join(QUICK_ASSIGNMENTS)} only")
    ap.add_argument("--wheels", type=Path, default=REPO / ".labwheels",
                    help="folder of wheels for what this Python lacks (default: .labwheels)")
    ap.add_argument("--json", help="where to write the JSON (default: $OUT/labcheck.json, else ./labcheck.json)")
    ap.add_argument("--deadline", type=float, default=DEADLINE,
                    help="seconds from the start by which the run should end: a stage that would "
                         f"pass it is skipped, gpu-j1 and scaling grade only what fits (default {DEADLINE:g})")
    ap.add_argument("--scaling-assignment", default=DEFAULT_ASSIGNMENT,
                    help=f"the assignment whose reference the scaling stage copies (default {DEFAULT_ASSIGNMENT})")
    ap.add_argument("--scaling-jobs", default=",".join(map(str, DEFAULT_JOBS)),
                    help="the --jobs values of the scaling stage, each capped at the cores "
                         f"(default {','.join(map(str, DEFAULT_JOBS))})")
    ap.add_argument("--scaling-notebooks", type=int, default=0,
                    help="notebooks per scaling batch (default: 3 x the largest --jobs)")
    ap.add_argument("--allow-cpu", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    args.allow_cpu = args.allow_cpu or os.environ.get("JAXCOURSE_LABCHECK_ALLOW_CPU") == "1"
    args.stages = [s.strip() for s in args.stages.split(",") if s.strip()]
    try:
        args.scaling_jobs = [int(j) for j in args.scaling_jobs.split(",") if j.strip()] or list(DEFAULT_JOBS)
    except ValueError:
        ap.error(f"--scaling-jobs takes whole numbers separated by commas, not {args.scaling_jobs!r}")
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
