"""The options every grading command shares, defined once: the limits of a student's worker (their
defaults are those of `sandbox.process.Limits`), the isolation and memory-cap choices, and the
accelerator options. `grade`, `check`, `selftest`, `autograde`, the exports and the pytest plugin
build their parsers and their `Limits` from here."""
from __future__ import annotations

import argparse

from ..sandbox.process import Limits

ISOLATION_CHOICES = ("auto", "namespace", "userns", "process")
MEMORY_LIMIT_CHOICES = ("auto", "cgroup", "rlimit-data", "rlimit-as", "none")
DEFAULT = Limits()

HELP = {
    "cell_timeout": "seconds per solution cell",
    "check_timeout": "seconds per call of a student function",
    "memory_mb": "memory cap of a student's process, in MB",
    "output_bytes": "cap on a student's printed output",
    "disk_mb": "a student's private scratch space (/tmp, cwd, HOME), in RAM; namespace modes",
}


def add_limit_options(p, names=("cell_timeout", "check_timeout", "memory_mb", "output_bytes", "disk_mb"),
                      isolation=True, devices=True, defaults: dict | None = None, helps: dict | None = None):
    """Add `--cell-timeout`, `--check-timeout`, ... (those in `names`), `--isolation` and the
    accelerator options to parser `p`; `defaults` and `helps` override the usual ones by name."""
    defaults, helps = defaults or {}, helps or {}
    for name in names:
        default = defaults.get(name, getattr(DEFAULT, name))
        kind = float if isinstance(getattr(DEFAULT, name), float) else int
        text = helps.get(name, HELP[name])
        if name == "memory_mb" and devices and name not in helps:
            text += " (how: --memory-limit)"
        p.add_argument("--" + name.replace("_", "-"), type=kind, default=default, help=text)
    if isolation:
        p.add_argument("--isolation", choices=ISOLATION_CHOICES, default=DEFAULT.isolation)
    if devices:
        add_device_options(p, memory_mb="memory_mb" in names)


def add_device_options(p, memory=True, memory_mb=True):
    """`--devices-per-worker` and `--memory-limit`; `memory_mb`: whether `p` has `--memory-mb` (a help
    text names only options of its own command)."""
    cap = "--memory-mb" if memory_mb else f"the memory cap ({DEFAULT.memory_mb} MB)"
    p.add_argument("--devices-per-worker", type=int, default=DEFAULT.devices_per_worker, metavar="N",
                   help="GPUs each student's worker gets where there are several (round robin; default 1)")
    if memory:
        p.add_argument("--memory-limit", choices=MEMORY_LIMIT_CHOICES, default=DEFAULT.memory_limit,
                       help=f"how {cap} is enforced (auto: RLIMIT_AS when the student's JAX runs on "
                            "the CPU; with an accelerator a cgroup, else RLIMIT_DATA)")


def add_compile_cache_option(p, batch: bool | None, own_only: bool = False):
    """`--compile-cache` / `--no-compile-cache`. `batch`: True where the command grades batches (on
    unless switched off), None where it may (on for several notebooks), False elsewhere (off unless
    asked). `own_only`: the command has no references to build from (`check`): the worker keeps
    only its own compiles."""
    default = ("on for several notebooks" if batch is None else "on" if batch else "off")
    what = ("keep the worker's own XLA compiles in its memory, so that a program compiled again is not"
            if own_only else
            "share the XLA compiles of the assignment's reference solutions with every student's "
            "worker, read-only and checked against digests, and keep each worker's own compiles")
    p.add_argument("--compile-cache", action=argparse.BooleanOptionalAction, default=None,
                   help=f"{what} (verdicts are the same either way; default: {default})")


def add_reference_timeouts_option(p):
    """`--reference-timeouts` / `--no-reference-timeouts` (grading/timeouts.py)."""
    p.add_argument("--reference-timeouts", action=argparse.BooleanOptionalAction, default=True,
                   help="in a batch with a compile cache, give each cell a timeout of its own from what the "
                        "reference costs there (at least a few seconds, never more than the configured "
                        "timeout), so that a hung call does not wait the whole configured timeout "
                        "(default: on; --no-reference-timeouts gives every cell the configured timeout)")


def add_grader_processes_option(p):
    """`--grader-processes P` (default: one per 4 notebooks graded at once)."""
    p.add_argument("--grader-processes", type=int, default=None, metavar="P",
                   help="grader processes sharing the --jobs (default: one per 4 jobs, so that the "
                        "grader's own work is not held to one core)")


def compile_cache_wanted(args, batch: bool) -> bool:
    """Whether the cache is on: as asked, else on for a batch."""
    asked = getattr(args, "compile_cache", None)
    return batch if asked is None else asked


def limits_from(args, **overrides) -> Limits:
    """The `Limits` of parsed `args` (the options it has; the defaults for the others)."""
    fields = ("cell_timeout", "check_timeout", "memory_mb", "output_bytes", "disk_mb", "isolation",
              "memory_limit", "devices_per_worker", "reference_timeouts")
    given = {name: getattr(args, name) for name in fields if getattr(args, name, None) is not None}
    return Limits(**{**given, **overrides})


def option_error(args) -> str | None:
    """A one-line error for option values no command accepts, else None."""
    if getattr(args, "devices_per_worker", 1) < 1:
        return f"--devices-per-worker must be at least 1 (got {args.devices_per_worker})"
    if getattr(args, "jobs", None) is not None and args.jobs < 1:
        return f"--jobs must be at least 1 (got {args.jobs})"
    if getattr(args, "grader_processes", None) is not None and args.grader_processes < 1:
        return f"--grader-processes must be at least 1 (got {args.grader_processes})"
    return None
