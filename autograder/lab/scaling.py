"""labcheck's `scaling` stage: how a class batch's rate grows with `--jobs` on this machine's cores.

One assignment's reference solution (03_control_flow by default: the class the 1,000-student model
of benchmarks/README.md is built on), copied N times (3 x the largest `--jobs`, or
`--scaling-notebooks`), is graded as one class batch per `--jobs` value: with the trusted compile
cache (built from the reference by the batch itself, as `autograde` builds it) and the student code
on the CPU (AUTOGRADER_WORKER_JAX_PLATFORMS=cpu), so that only the cores count. The values are 4, 8
and 16 (`--scaling-jobs`), each capped at the cores; with fewer than two values left (fewer than 4
cores), 1 and the cores. Each run is one row: notebooks per minute, per core-minute, and the speed-up
over the smallest `--jobs` beside the linear one (`of_linear` 1.0: linear). Every copy must pass
every check (one verdict each)."""
from __future__ import annotations

import dataclasses
import os
import time

from .common import say

DEFAULT_ASSIGNMENT = "03_control_flow"
DEFAULT_JOBS = (4, 8, 16)
PRIOR_CORE_SECONDS = 5.0   # a notebook's seconds on one core, before any batch of the run is timed
                           # (03 in a class batch with the cache: 28.1/min on 2 cores, about 4.3 s)


def jobs_values(asked, cores: int) -> list[int]:
    """The `--jobs` values to run: each asked one capped at the cores; 1 added if fewer than two."""
    values = sorted({max(1, min(int(j), cores)) for j in asked})
    if len(values) < 2:
        values = sorted({1, *values})
    return values


def stage_scaling(lab, st, end_by: float | None = None, core_seconds: float | None = None):
    """Grade the copies at each `--jobs` value; one before which `end_by` (a perf_counter time)
    would pass, judged by the core-seconds per notebook so far (or `core_seconds`, or a prior),
    is left out (`st.skipped_part`)."""
    from ..grading.batch_cache import BatchCache
    from ..grading.grade import grade_many
    from .selftest import REFERENCE, compare, notebook_with_cells
    from .stages import worker_platforms
    args = lab.args
    a = getattr(args, "scaling_assignment", None) or DEFAULT_ASSIGNMENT
    values = jobs_values(getattr(args, "scaling_jobs", None) or DEFAULT_JOBS, os.cpu_count() or 1)
    n = max(0, getattr(args, "scaling_notebooks", 0) or 0) or 3 * max(values)
    source = lab.course.source / a / f"{a}.ipynb"
    if not source.exists():
        raise ValueError(f"no assignment {a!r} in {lab.course.source}")
    nb = notebook_with_cells(source)
    folder = lab.tmp / "scaling" / a
    paths = [lab.write(folder, f"s{i:03d}", nb) for i in range(n)]
    devices = lab.probe([a], "cpu")[a]["count"]
    per_core = core_seconds or PRIOR_CORE_SECONDS
    runs = []
    with worker_platforms("cpu"):
        for jobs in values:
            if end_by is not None and time.perf_counter() + n * per_core / jobs > end_by:
                st.skipped_part.append(f"--jobs {jobs}")
                continue   # a larger --jobs may still fit
            limits = dataclasses.replace(lab.limits(), concurrent_workers=jobs)
            cache = BatchCache(limits, lab.course.hidden_paths() + [str(p.resolve()) for p in paths])
            started = time.perf_counter()
            try:
                results = grade_many(paths, lab.course, a, limits, jobs, cache=cache)
                seconds = time.perf_counter() - started
                summary = cache.summary()
            finally:
                cache.close()
            per_core = seconds * jobs / n
            good = sum(v.as_expected for r in results for v in compare({REFERENCE: r}, {}, {}, devices))
            backends = sorted({r["backend"] for r in results})
            built = summary.get("built", {}).get(a, {})
            runs.append({"jobs": jobs, "notebooks": n, "seconds": round(seconds, 1),
                         "per_minute": round(n / seconds * 60, 1),
                         "per_core_minute": round(n / seconds * 60 / jobs, 1),
                         "as_expected": good, "backend": "/".join(backends),
                         "cache_hit_share": summary.get("hit_share"), "cache_build_s": built.get("seconds"),
                         "cache_error": built.get("error", "")})
            st.expected += n
            st.good += good
            if good < n:
                bad = next(r for r in results if not compare({REFERENCE: r}, {}, {}, devices)[0].as_expected)
                st.problems.append(f"--jobs {jobs}: {n - good} of {n} copies of the reference lost points: "
                                   f"{compare({REFERENCE: bad}, {}, {}, devices)[0].detail[:300]}")
            if backends != ["cpu"]:
                st.problems.append(f"--jobs {jobs}: the student code ran on {backends}, not the CPU")
            say(f"  scaling --jobs {jobs}: {n} notebooks in {seconds:.1f} s, {runs[-1]['per_minute']} per minute "
                f"({runs[-1]['per_core_minute']} per core-minute), {good}/{n} as expected")
    if not runs:
        st.skipped = f"not started: no --jobs value fits in the time left before --deadline ({n} notebooks)"
        return
    base = runs[0]
    for r in runs:
        r["speedup"] = round(r["per_minute"] / base["per_minute"], 2)
        r["of_linear"] = round(r["speedup"] / (r["jobs"] / base["jobs"]), 2)
    top = runs[-1]
    st.backend, st.jobs, st.notebooks, st.seconds = "cpu", top["jobs"], n, top["seconds"]
    st.detail = {"assignment": a, "notebooks": n, "cores": os.cpu_count(), "runs": runs}
    st.note = (f"{a} reference x{n}, cache, student code on the CPU; nb/min by --jobs: "
               + ", ".join(f"{r['jobs']}: {r['per_minute']}" + (f" ({r['speedup']}x, {r['of_linear']} of linear)"
                                                                 if r is not base else "") for r in runs))


def rows(st) -> list[tuple]:
    """The table's sub-rows of a scaling stage: one per `--jobs` value."""
    return [(f"  --jobs {r['jobs']}", r["backend"], str(r["jobs"]), str(r["notebooks"]),
             f"{r['as_expected']}/{r['notebooks']}", f"{r['seconds']:.1f}", str(r["per_minute"]),
             f"{r['per_core_minute']} per core-minute; {r['speedup']}x, {r['of_linear']} of linear; "
             f"cache hits {r['cache_hit_share']}") for r in st.detail.get("runs", [])]
