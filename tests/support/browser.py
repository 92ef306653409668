"""Headless Chromium for the browser tests (JupyterLab alone, and behind the lab's JupyterHub).

Chromium comes from Debian (installed here when missing, as root); Playwright drives it, and its own
browser download is never used.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
from pathlib import Path

from support.machine import unavailable

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run"]


def ensure_chromium():
    if Path(CHROMIUM).exists():
        return
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        unavailable("Debian's chromium is missing and cannot be installed here (needs root and apt-get)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], env=env, capture_output=True, timeout=600)
    r = subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], env=env, capture_output=True,
                       text=True, timeout=900)
    assert r.returncode == 0 and Path(CHROMIUM).exists(), r.stderr[-2000:]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
