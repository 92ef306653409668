"""labcheck on a lab machine with no network: the machine's own JAX, and the grader's other
dependencies from a folder of wheels, installed only where the machine's Python lacks them; then
labcheck starts again with the repository and the wheels on PYTHONPATH."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .common import NEEDED, READY, REPO, T0, say


def gpu_problem() -> str | None:
    """Why this machine cannot run the check (None: its JAX sees a GPU). Costs one `import jax`."""
    from ..sandbox import devices
    found = devices.discover()
    if found.kind != "gpu" or not found.count:
        where = found.source if found.source != "none found" else \
            "none in /proc/driver/nvidia/gpus, /dev/nvidia* or nvidia-smi"
        return f"no GPU on this machine ({where}): nothing to check here"
    env = {k: v for k, v in os.environ.items() if k not in ("JAX_PLATFORMS", "AUTOGRADER_WORKER_JAX_PLATFORMS")}
    r = subprocess.run([sys.executable, "-c", "import jax; print(len(jax.devices('gpu')))"],
                       capture_output=True, text=True, env=env, timeout=300)
    if r.returncode == 0:
        return None
    last = (r.stderr.strip().splitlines() or ["no output"])[-1][:200]
    return (f"this machine has {found.count} GPU(s) but `{sys.executable}` has no JAX with a GPU "
            f"backend ({last}): install the course's `cuda` extra (pip install -e '.[cuda]') or a "
            f"jax[cuda12]/jax[cuda13] matching the driver, then run this again")


def _installed(dist: str) -> bool:
    from importlib import metadata
    try:
        metadata.version(dist)
        return True
    except metadata.PackageNotFoundError:
        return False


def install_wheels(folder: Path) -> Path:
    """Install the wheels of `folder` that this Python lacks into a private target folder (no
    index, no dependencies resolved: the folder holds the whole tree); return that folder."""
    wheels = sorted(folder.glob("*.whl"))
    todo = [w for w in wheels if not _installed(w.name.split("-")[0])]
    stamp = str(abs(hash(tuple(w.name for w in todo))))
    target = Path(tempfile.gettempdir()) / f"jaxcourse-labcheck-site-{sys.version_info[0]}{sys.version_info[1]}"
    if (target / ".stamp").exists() and (target / ".stamp").read_text() == stamp:
        return target
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(mode=0o755)
    if todo:
        r = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
                            "--no-compile", "--disable-pip-version-check", "--target", str(target),
                            *map(str, todo)], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"pip could not install the wheels of {folder}: "
                               + (r.stderr.strip().splitlines() or ["?"])[-1])
    for d, _, _ in os.walk(target):        # the workers run under other uids: readable by all
        os.chmod(d, 0o755)
    (target / ".stamp").write_text(stamp)
    return target


def bootstrap(argv: list[str], wheels: Path) -> int | None:
    """Make the grader importable, then run this module again with PYTHONPATH set (the workers
    inherit it). Returns an exit status when it cannot; does not return when it re-executes."""
    from importlib.util import find_spec
    missing = [m for m in NEEDED if find_spec(m) is None]
    if "jax" in missing or "numpy" in missing:
        say(f"labcheck: `{sys.executable}` has no JAX (or NumPy): use the Python whose JAX sees the GPU")
        return 2
    paths = [str(REPO)]
    if missing:
        if not any(wheels.glob("*.whl")):
            say(f"labcheck: {', '.join(missing)} missing and no wheels in {wheels}: run `make "
                f"labcheck-wheels` on a machine with network and copy {wheels.name}/ here")
            return 2
        try:
            paths.insert(0, str(install_wheels(wheels)))
        except (RuntimeError, OSError) as exc:
            say(f"labcheck: {exc}")
            return 2
    old = os.environ.get("PYTHONPATH")
    env = {**os.environ, READY: "1", "PYTHONPATH": os.pathsep.join(paths + ([old] if old else [])),
           T0: os.environ.get(T0, repr(time.time()))}
    os.execve(sys.executable, [sys.executable, "-m", "autograder.lab.labcheck", *argv], env)
    return None
