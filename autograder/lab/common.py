"""What labcheck's parts share: the stages, the assignments the GPU batch grades first, the
variables of its two passes, and its one way of saying what it is doing."""
from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# in order of what a GPU has never shown (retrace, the batch on the GPU, on the CPU, at --jobs 1),
# then what it has (devices, memory caps, bombs), then the optional ones
STAGES = ("retrace", "gpu-j2", "cpu-j2", "gpu-j1", "devices", "memory", "hostile", "gpu-auto", "scaling")
OPTIONAL = ("gpu-auto", "scaling")       # skipped for time without making the run incomplete
# a stage's likely seconds before anything of the run is timed (an H200 with 16 cores, 2026-11-26:
# devices 2.4, memory 6.2, hostile 46.8, retrace 52.6; memory's bombs may take BOMB_WINDOW each)
PRIOR_SECONDS = {"devices": 5.0, "memory": 30.0, "hostile": 60.0, "retrace": 60.0}
J2_SECONDS_PER_NOTEBOOK = 3.5            # a --jobs 2 batch, per notebook (174.7 s / 55 on 2 CPU cores)
DEADLINE = 450.0                         # seconds: under 8 minutes with 30 s for a stage that overruns its guess
# gpu-j1 grades these first (timing, devices and retraces are where a GPU differs most), then the
# others, as many as the deadline leaves time for
FIRST_ASSIGNMENTS = ("08_numerics_and_performance", "07_parallelism", "03_control_flow")
QUICK_ASSIGNMENTS = FIRST_ASSIGNMENTS
T0 = "JAXCOURSE_LABCHECK_T0"             # when the first pass started (time.time()), for the total
READY = "JAXCOURSE_LABCHECK_READY"       # set once the dependencies are importable (after re-exec)
NEEDED = ("nbformat", "cloudpickle", "rich", "numpy", "jax")
HOSTILE_TIMEOUT = 8.0                    # seconds per call in the hostile stage (the fork bomb waits it out)


def say(text: str = ""):
    print(text, flush=True)
