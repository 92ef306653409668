"""Which isolation a worker gets: `namespace` (the grader is root), `userns` (unprivileged user
namespaces) or `process`, and the util-linux `unshare` command of the exec path (`process.py`
starts `unshare [flags] python -m autograder.sandbox.inside CONFIG`; the fork server,
`zygote.py`, makes the same system calls itself: `zygote.enter_namespaces`)."""
from __future__ import annotations

import os
import shutil
import subprocess
from functools import lru_cache

_UNSHARE = ["unshare", "--mount", "--pid", "--fork", "--mount-proc", "--propagation", "private"]
_UNSHARE_USER = ["unshare", "--user", "--map-root-user", "--mount", "--pid", "--fork", "--mount-proc",
                 "--propagation", "private"]


def _unshare_command(mode: str, without=()) -> list[str]:
    base = _UNSHARE if mode == "namespace" else _UNSHARE_USER
    extra = []
    if "network" not in without:
        extra.append("--net")
    if "disk" not in without:
        extra.append("--ipc")
    return base[:-3] + extra + base[-3:]  # flags before `--mount-proc --propagation private`


@lru_cache(maxsize=None)
def _works(cmd: tuple) -> bool:
    if not shutil.which("unshare"):
        return False
    try:
        return subprocess.run([*cmd, "true"], capture_output=True, timeout=20).returncode == 0
    except Exception:
        return False


def choose_isolation(requested: str) -> str:
    """`namespace` as root; `userns` (unprivileged user namespaces) otherwise; else `process`.

    Both namespace modes include the network and IPC namespaces: a machine that cannot give the
    worker a network of its own gets `process`, which says so in its results."""
    if requested == "process":
        return "process"
    root_ok = os.geteuid() == 0 and _works(tuple(_unshare_command("namespace")))
    user_ok = _works(tuple(_unshare_command("userns")))
    if requested == "namespace" and root_ok:
        return "namespace"
    if requested == "userns" and user_ok:
        return "userns"
    if requested in ("namespace", "userns"):
        raise RuntimeError(f"{requested} isolation is not available here (needs util-linux `unshare`"
                           f"{' and root' if requested == 'namespace' else ' and user namespaces'})")
    return "namespace" if root_ok else "userns" if user_ok else "process"


def isolation_label(mode: str) -> str:
    """The `isolation` value of a result: `process` mode states that the network is open."""
    return "process-network-open" if mode == "process" else mode
