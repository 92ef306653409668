"""`autograder autograde`, `feedback`, `report` and `nbgrader export` against a real PostgreSQL
server (db_url `postgresql+psycopg://...`), started and stopped by this module: Debian's server,
initdb as the `postgres` user, a unix socket only, trust authentication (see INFRA_NOTES)."""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile

import pytest

from support.machine import unavailable
from support.gradebook import (EXPECTED, HONEST, UNGRADABLE, _env, autograder_cmd, dump_gradebook, make_course,
                               points, run_autograde, run_nbgrader, start_autograde, student_notebook, submit,
                               submit_class)


def _pg_bin() -> str:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        if os.geteuid() != 0 or not shutil.which("apt-get"):
            unavailable("PostgreSQL is not installed and cannot be installed here (needs root and apt-get)")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        # a fresh image has no package lists: update them first, as the browser test does (README)
        subprocess.run(["apt-get", "update", "-qq"], env=env, capture_output=True, timeout=600)
        subprocess.run(["apt-get", "install", "-y", "-q", "postgresql"], check=True, capture_output=True,
                       env=env, timeout=600)
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return os.path.dirname(found[-1])


def _as_postgres(*cmd, **kw):
    """initdb and pg_ctl refuse to run as root: run them as the `postgres` user."""
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    return subprocess.run([*prefix, *cmd], check=True, capture_output=True, text=True, timeout=120, **kw)


@pytest.fixture(scope="module")
def postgres():
    """A private PostgreSQL server for this module; yields a function making a fresh database."""
    if shutil.which("runuser") is None and os.geteuid() == 0:
        unavailable("runuser (util-linux) is needed to start PostgreSQL as root")
    bindir = _pg_bin()
    base = tempfile.mkdtemp(prefix="pg", dir="/tmp")     # short: a socket path must stay under 108 bytes
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
    data = os.path.join(base, "data")
    _as_postgres(f"{bindir}/initdb", "-D", data, "-A", "trust", "--no-sync", "-U", "nbgrader")
    options = f"-k {base} -c listen_addresses='' -c fsync=off -c max_connections=100"
    _as_postgres(f"{bindir}/pg_ctl", "-D", data, "-o", options, "-l", os.path.join(base, "log"), "-w", "start")
    made = []

    def database(name: str) -> str:
        _as_postgres(f"{bindir}/createdb", "-h", base, "-U", "nbgrader", name)
        made.append(name)
        return f"postgresql+psycopg://nbgrader@/{name}?host={base}"

    try:
        yield database
    finally:
        subprocess.run(["runuser", "-u", "postgres", "--", f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "stop"]
                       if os.geteuid() == 0 else [f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(base, ignore_errors=True)


def _course(tmp_path, url, assignments=("toy",)):
    return make_course(tmp_path / "course", assignments, config_extra=f"\nc.CourseDirectory.db_url = {url!r}\n")


def test_a_class_into_postgres(postgres, tmp_path):
    url = postgres("class_book")
    root = _course(tmp_path, url)
    students = HONEST + ["crash"]          # (the whole hostile class runs on sqlite in test_autograde.py)
    submit_class(root, students=students, mangled=False)
    run = run_autograde(root, "toy", "--jobs", "2")
    assert run.returncode == 2, run.stdout + run.stderr
    assert len(run.stderr.strip().splitlines()) == len(UNGRADABLE)
    assert points(dump_gradebook(url)) == {s: EXPECTED[s] for s in students}
    assert not (root / "gradebook.db").exists()                   # the sqlite default was not used
    # the rest of the toolchain on the same database
    export = run_nbgrader(root, "export", "--to", "grades.csv")
    assert export.returncode == 0, export.stderr[-2000:]
    assert "ada" in (root / "grades.csv").read_text()
    again = run_autograde(root, "toy", "--student", "ada", "--student", "ben")
    assert again.returncode == 0 and again.stdout.count("unchanged since") == 2
    for command in ("feedback", "report"):
        r = subprocess.run(autograder_cmd(command, root, "toy"), capture_output=True, text=True, env=_env())
        assert r.returncode == 0, r.stderr
    assert (root / "feedback" / "ben" / "toy" / "toy.html").exists()
    assert "ben,yes,2," in (root / "reports" / "toy" / "scores.csv").read_text()


def test_two_assignments_at_once_into_postgres(postgres, tmp_path):
    """Both commands start on an empty database (no tables yet) with the same students."""
    url = postgres("shared_book")
    root = _course(tmp_path, url, ("toy", "toy2"))
    for a in ("toy", "toy2"):
        for student in HONEST:
            submit(root, a, student, student_notebook({}))
    procs = [start_autograde(root, a, "--jobs", "1") for a in ("toy", "toy2")]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    dump = dump_gradebook(url)
    full = {"double_correctness": 2.0, "double_jit": 1.0, "triple_correctness": 1.0}
    assert points(dump, "toy") == points(dump, "toy2") == {s: full for s in HONEST}
