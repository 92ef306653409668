"""A pytest plugin for tests/test_suite_groups.py: after collection, print each test's `xdist_group`
(the work unit `--dist loadgroup` sends to one worker) as `GROUP <nodeid> <group>`."""
from __future__ import annotations


def pytest_collection_finish(session):
    for item in session.items:
        mark = item.get_closest_marker("xdist_group")
        group = (mark.args[0] if mark.args else mark.kwargs.get("name", "")) if mark else ""
        print(f"GROUP {item.nodeid} {group}")
