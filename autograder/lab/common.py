"""What labcheck's parts share: the stages, the assignments the GPU batch grades first, the
variables of its two passes, and its one way of saying what it is doing."""
from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
STAGES = ("devices", "memory", "hostile", "retrace", "gpu-j2", "cpu-j2", "gpu-j1", "gpu-auto")
OPTIONAL = ("gpu-auto",)                 # skipped for time without making the run incomplete
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
