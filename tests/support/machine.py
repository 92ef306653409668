"""A test whose real subject this machine cannot run (an isolation mode, a browser, a database).

On a workstation it is skipped, with the reason. Under CI (`CI=true`) it fails instead: a runner
that cannot run the sandbox's tests must not pass them by skipping. `JAX_COURSE_ALLOW_SKIP=1`
says that a runner is known to lack it and lets the skip stand.
"""
from __future__ import annotations

import os

import pytest


def unavailable(reason: str):
    if os.environ.get("CI", "").lower() == "true" and os.environ.get("JAX_COURSE_ALLOW_SKIP") != "1":
        pytest.fail(f"this CI runner cannot run this test's real subject: {reason} "
                    f"(set JAX_COURSE_ALLOW_SKIP=1 if that is known and accepted)")
    pytest.skip(reason)
