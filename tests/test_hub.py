"""The lab's JupyterHub as a class uses it, in a real browser (`autograder lab-hub`, docs/LABS.md).

The real command starts JupyterHub 6 on 127.0.0.1 (a free port) with its proxy from npm, the
dummy authenticator and LocalProcessSpawner; the instructor and three students are real local
users made here (useradd, removed after), and each server runs under its user's uid from the
class environment (the student kit's install.sh, plus jupyterhub). In headless Chromium, the
instructor logs in and sees Formgrader listing the assignment; each student logs in, fetches it in
nbgrader's Assignment List, opens it, runs a cell that imports the check library and shows its
explanation of a JAX error, and submits. From a shell as the instructor's uid (with the
environment the hub gives the instructor's server) the instructor collects, runs `autograder
autograde`, writes and releases feedback; one student fetches it in the Assignment List and opens
it. Then the hub is stopped, and no process of the hub, its proxy or any of the users may be left.

Nothing here is mocked; without root, useradd, Node.js or Chromium it is skipped (failed under CI).
"""
from __future__ import annotations

import json
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from support.browser import CHROMIUM, CHROMIUM_ARGS, ensure_chromium, free_port
from support.gradebook import make_course
from support.machine import unavailable

A = "toy"
PASSWORD = "trial-" + secrets.token_hex(4)
CELL = ("import jax, jax.numpy as jnp\nfrom autograder import check\n"
        "print('check library:', check.__name__)\n"
        "jax.vmap(lambda w, x: x @ w)(jnp.ones(3), jnp.ones((8, 3)))")
IDLE = "Python 3 (ipykernel) | Idle"


@dataclass
class Hub:
    base: Path
    url: str
    proc: subprocess.Popen
    instructor: str
    students: list[str]
    started: float
    seconds: dict = field(default_factory=dict)

    @property
    def settings(self) -> dict:
        return json.loads((self.base / "hub" / "hub.json").read_text())

    def uids(self) -> set[int]:
        return {pwd.getpwnam(n).pw_uid for n in [self.instructor, *self.students]}

    def as_instructor(self, script: str, timeout: float = 180) -> subprocess.CompletedProcess:
        """A shell as the instructor's uid, in the course directory, with the environment the hub
        gives the instructor's server (and so its terminals)."""
        from autograder.lab.hub_spawn import Shares, server_environment
        s = self.settings
        user = pwd.getpwnam(self.instructor)
        env = {"HOME": user.pw_dir, "USER": user.pw_name, "LOGNAME": user.pw_name, "SHELL": "/bin/sh",
               "LANG": "C.UTF-8",
               **server_environment(s, self.instructor, Shares(s["gpus"], s["grading_gpus"], s["students_per_gpu"]))}
        return subprocess.run(["/bin/sh", "-ec", script], user=user.pw_uid, group=user.pw_gid, extra_groups=[],
                              cwd=s["course_dir"], env=env, capture_output=True, text=True, timeout=timeout)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)        # JupyterHub stops its servers and its proxy
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                pass

    def leftovers(self) -> list[str]:
        """Processes of the users, the hub's session (hub, proxy) or its pid files that still run."""
        uids, mine = self.uids(), self.proc.pid
        pids = set()
        for name in ("jupyterhub.pid", "proxy.pid"):
            path = self.base / "hub" / "state" / name
            if path.exists() and path.read_text().strip().isdigit():
                pids.add(int(path.read_text().strip()))
        left = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                status = (entry / "status").read_text()
                uid = int(next(line for line in status.splitlines() if line.startswith("Uid:")).split()[1])
                sid = os.getsid(int(entry.name))
                cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")[:120]
            except (OSError, StopIteration, ValueError):
                continue
            if uid in uids or sid == mine or int(entry.name) in pids:
                left.append(f"{entry.name} uid {uid}: {cmd}")
        return left


def _require_machine():
    if os.geteuid() != 0:
        unavailable("LocalProcessSpawner needs root to start each user's server under its uid")
    from autograder.lab.hub import node_problem
    for tool in ("useradd", "userdel"):
        if not shutil.which(tool):
            unavailable(f"the hub's users are local accounts: {tool} is missing")
    if node_problem():
        unavailable(node_problem())
    ensure_chromium()


def _useradd(name: str, home: Path):
    done = subprocess.run(["useradd", "--create-home", "--home-dir", str(home), "--user-group", "--shell",
                           "/bin/bash", name], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def _wait_for(url: str, proc: subprocess.Popen, log: Path, seconds: float = 120):
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"the hub did not start: {log.read_text()[-3000:]}")
        time.sleep(0.3)


@pytest.fixture(scope="module")
def hub(kit_venv):
    _require_machine()
    from autograder.lab.hub import add_hub
    add_hub(kit_venv)                              # a JupyterHub image: install.sh ENV, then jupyterhub
    base = Path(tempfile.mkdtemp(prefix="jaxcourse-hub-"))
    base.chmod(0o755)
    tag = secrets.token_hex(3)
    instructor, students = f"jh{tag}prof", [f"jh{tag}s{i}" for i in (1, 2, 3)]
    made, proc, log = [], None, base / "hub.log"
    try:
        (base / "home").mkdir(mode=0o755)
        for name in [instructor, *students]:
            _useradd(name, base / "home" / name)
            made.append(name)
        root = make_course(base / "course-root", (A,))
        subprocess.run(["chmod", "-R", "o+rX", str(root)], check=True)
        port = free_port()
        started = time.monotonic()
        with open(log, "w") as out:
            proc = subprocess.Popen([sys.executable, "-m", "autograder.cli", "lab-hub", str(base / "hub"),
                                     "--env", str(kit_venv), "--instructor", instructor, "--students",
                                     ",".join(students), "--course-root", str(root), "--port", str(port),
                                     "--password", PASSWORD], stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        url = f"http://127.0.0.1:{port}"
        _wait_for(f"{url}/hub/api", proc, log)
        h = Hub(base, url, proc, instructor, students, started)
        h.seconds["hub up"] = time.monotonic() - started
        yield h
    finally:
        if proc is not None:
            if proc.poll() is None:
                Hub(base, "", proc, instructor, students, 0).stop()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for name in made:
            subprocess.run(["pkill", "-KILL", "-u", name], capture_output=True, timeout=30)
            subprocess.run(["userdel", name], capture_output=True, timeout=60)
        shutil.rmtree(base, ignore_errors=True)


# ---------------------------------------------------------------- the browser's side
def login(context, hub: Hub, name: str):
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"{hub.url}/hub/login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit], input[type=submit]")
    return page


def wait_for_lab(page):
    page.wait_for_url("**/lab**", timeout=120_000)
    page.locator(".lm-MenuBar").first.get_by_text("Nbgrader", exact=True).wait_for(timeout=90_000)


def nbgrader_menu(page) -> str:
    bar = page.locator(".lm-MenuBar").first
    bar.get_by_text("Nbgrader", exact=True).click()
    return page.locator(".lm-Menu-content").first.inner_text()


def open_from_menu(page, item: str):
    nbgrader_menu(page)
    page.locator(".lm-Menu-content").first.get_by_text(item, exact=True).click()


def fetch_and_run(page) -> str:
    """Assignment List: fetch, open the notebook, run the check library's cell; its output."""
    open_from_menu(page, "Assignment List")
    page.locator("#released_assignments_list .list_item").filter(has_text=A).get_by_role(
        "button", name="Fetch").click()
    fetched = page.locator("#fetched_assignments_list > .list_item").filter(has_text=A).first
    fetched.locator("a.assignment-notebooks-link").click()
    fetched.locator(".nested_list_item a").filter(has_text=A).click()
    page.get_by_text(IDLE).wait_for(timeout=90_000)
    last = page.locator(".jp-Notebook .jp-Cell").last
    last.locator(".jp-InputPrompt").first.click()
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    page.keyboard.press("Enter")
    page.keyboard.insert_text(CELL)
    page.keyboard.press("Shift+Enter")
    cell = page.locator(".jp-CodeCell").filter(has_text="check library").first
    cell.locator(".jp-OutputArea-output").filter(has_text="fix:").wait_for(timeout=90_000)
    return cell.locator(".jp-OutputArea").inner_text()


def submit(page):
    page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab").filter(has_text="Assignments").click()
    page.locator("#fetched_assignments_list > .list_item").filter(has_text=A).get_by_role(
        "button", name="Submit").click()
    page.locator("#submitted_assignments_list .list_item").filter(has_text=A).first.wait_for(timeout=60_000)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def flow(hub, browser):
    """The class's loop, once; each test asserts on one step of what it saw."""
    seen = {"outputs": {}}
    contexts = {n: browser.new_context(viewport={"width": 1400, "height": 1000})
                for n in [hub.instructor, *hub.students]}
    try:
        with ThreadPoolExecutor(1) as pool:     # the instructor releases while the servers start
            release = pool.submit(hub.as_instructor,
                                  f"nbgrader generate_assignment {A} && nbgrader release_assignment {A}")
            pages = {n: login(contexts[n], hub, n) for n in contexts}     # every server starts at once
            for name, page in pages.items():
                wait_for_lab(page)
            released = release.result()
        assert released.returncode == 0, released.stderr[-3000:]
        hub.seconds["servers up"] = time.monotonic() - hub.started
        prof = pages[hub.instructor]
        seen["instructor menu"] = nbgrader_menu(prof)
        prof.keyboard.press("Escape")
        seen["student menu"] = nbgrader_menu(pages[hub.students[0]])
        pages[hub.students[0]].keyboard.press("Escape")
        for name in hub.students:
            seen["outputs"][name] = fetch_and_run(pages[name])
            hub.seconds.setdefault("first cell output", time.monotonic() - hub.started)
            submit(pages[name])
        hub.seconds["submitted"] = time.monotonic() - hub.started
        open_from_menu(prof, "Formgrader")         # in the instructor's own server, in an iframe
        frame = prof.frame_locator("iframe").first
        frame.get_by_text("Manage Assignments").first.wait_for(timeout=60_000)
        frame.locator("td").filter(has_text=A).first.wait_for(timeout=60_000)
        seen["formgrader"] = True
        t = time.monotonic()
        seen["grading"] = hub.as_instructor(
            f"nbgrader collect {A} && autograder autograde {A} --jobs 2 && autograder feedback {A} && "
            f"nbgrader release_feedback {A}", timeout=300)
        hub.seconds["collect, autograde, feedback"] = time.monotonic() - t
        assert seen["grading"].returncode == 0, seen["grading"].stdout[-3000:] + seen["grading"].stderr[-3000:]
        page = pages[hub.students[0]]
        page.locator("#refresh_assignments_list").click()
        submitted = page.locator("#submitted_assignments_list > .list_item").filter(has_text=A).first
        submitted.get_by_role("button", name="Fetch Feedback").click()
        submitted.get_by_text("(view feedback)").first.click()
        page.locator(".jp-DirListing-item").filter(has_text=f"{A}.html").first.wait_for(timeout=60_000)
        seen["feedback listed"] = True
        page.screenshot(path=str(hub.base / "feedback.png"))
        hub.seconds["feedback seen"] = time.monotonic() - hub.started
    finally:
        for context in contexts.values():
            context.close()
        print("hub seconds since the command:", {k: round(v, 1) for k, v in hub.seconds.items()})
    return seen


def test_students_see_the_assignment_list_and_not_the_instructors_tools(flow):
    assert "Assignment List" in flow["student menu"]
    for item in ("Formgrader", "Create Assignment", "Course List"):
        assert item not in flow["student menu"]
    assert "Formgrader" in flow["instructor menu"] and flow["formgrader"]


def test_each_student_ran_the_check_library_in_their_own_server(hub, flow):
    for name, output in flow["outputs"].items():
        assert "check library: autograder.checks.check" in output, (name, output[-1500:])
        assert "[autograder] what the error above means" in output and "in_axes" in output, output[-1500:]


def test_the_instructor_graded_every_submission_from_a_shell(hub, flow):
    out = flow["grading"].stdout + flow["grading"].stderr
    for name in hub.students:
        assert f"Collecting submission: {name} {A}" in out, out[-3000:]
    assert "graded 3, could not grade 0 of 3 students" in out, out[-3000:]
    course = Path(hub.settings["course_dir"])
    for name in hub.students:
        assert (course / "feedback" / name / A / f"{A}.html").is_file()


def test_a_student_sees_feedback_in_the_assignment_list(flow):
    assert flow["feedback listed"]


def test_stopping_the_hub_leaves_no_process(hub, flow):
    hub.stop()
    assert hub.proc.returncode is not None, "the hub did not stop within 60 s"
    deadline = time.monotonic() + 10
    while hub.leftovers() and time.monotonic() < deadline:
        time.sleep(0.5)
    assert hub.leftovers() == []
