"""The student flow in a real browser: JupyterLab on localhost, driven in headless Chromium.

A student opens 02_static_shapes, writes a boolean-mask `mask_tensor`, runs the notebook and reads
the `jnp.where` fix under its visible test; writes a correct answer, sees every test pass, presses
nbgrader's Validate and sees success; then runs a cell of their own whose `jax.vmap` call has
mismatched axis sizes and reads, under JAX's traceback, the explanation with `in_axes=`. JupyterLab
runs with the student kit's Jupyter settings, so the instructor's menus must not show. Screenshots
go to $ARTIFACTS_DIR (default .artifacts/browser); with UPDATE_DOCS_SCREENSHOT=1 the failing-test
view and the explained JAX error are also written to docs/ for the README.

Chromium comes from Debian (installed here if missing) and Playwright drives it; Playwright's own
browser download is never used.
"""
from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from support.browser import CHROMIUM, CHROMIUM_ARGS, ensure_chromium, free_port
from support.notebooks import ROOT

ASSIGNMENT = "02_static_shapes"
BOOLEAN_MASK = "def mask_tensor(x, mask):\n    return x.at[mask].set(-100.0)\n"
VMAP_MISTAKE = ("def predict(w, x):\n    return jnp.tanh(x @ w)\n\n"
                "w = jnp.ones(3)\nxs = jnp.ones((8, 3))\njax.vmap(predict)(w, xs)")
WITH_WHERE = "def mask_tensor(x, mask):\n    return jnp.where(mask, jnp.asarray(-100.0, x.dtype), x)\n"
ARTIFACTS = Path(os.environ.get("ARTIFACTS_DIR", ROOT / ".artifacts" / "browser"))
# answers written in the browser are only for this flow; the reference is never shown


@pytest.fixture(scope="module")
def lab(tmp_path_factory, kit, kit_venv):
    """JupyterLab from the installed student kit (its packages, its Jupyter settings), serving a
    02 notebook whose other exercises are solved and whose `mask_tensor` is still the stub."""
    from autograder.classroom.demo import build_submission
    ensure_chromium()
    tmp = tmp_path_factory.mktemp("lab")
    work = tmp / "work"
    work.mkdir()
    release = kit / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    stub = next(c.source for c in nbformat.read(str(release), as_version=4).cells
                if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "mask_tensor")
    nb = build_submission(release, ROOT / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", {"mask_tensor": stub})
    nbformat.write(nb, str(work / f"{ASSIGNMENT}.ipynb"))
    dirs = {name: tmp / name for name in ("config", "runtime", "ipython", "settings", "workspaces")}
    for d in dirs.values():
        d.mkdir()
    # user settings: render every cell (no windowing, so cells far down can be found) and do not
    # ask about news (a popup that would cover the outputs)
    for plugin, settings in (("notebook-extension/tracker", {"windowingMode": "none"}),
                             ("apputils-extension/notification", {"fetchNews": "false",
                                                                  "checkForUpdates": False})):
        path = dirs["settings"] / "@jupyterlab" / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings))
    # the kit's settings live in its venv (install.sh); the user-level config dir is empty
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(dirs["config"]), "JUPYTER_RUNTIME_DIR": str(dirs["runtime"]),
           "IPYTHONDIR": str(dirs["ipython"]), "JUPYTERLAB_SETTINGS_DIR": str(dirs["settings"]),
           "JUPYTERLAB_WORKSPACES_DIR": str(dirs["workspaces"]),
           "PATH": str(kit_venv / "bin") + os.pathsep + os.environ.get("PATH", "")}
    env.pop("JAX_PLATFORMS", None)  # the student's kernel picks its own backend
    port, token = free_port(), secrets.token_hex(16)
    log = open(tmp / "lab.log", "w")
    proc = subprocess.Popen([str(kit_venv / "bin" / "python"), "-m", "jupyterlab", "--no-browser", "--allow-root",
                             f"--port={port}", "--ip=127.0.0.1", f"--ServerApp.token={token}",
                             f"--ServerApp.root_dir={work}", "--LabApp.news_url=None",
                             "--ServerApp.open_browser=False"],
                            cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            log.flush()
            pytest.fail(f"JupyterLab did not start: {(tmp / 'lab.log').read_text()[-2000:]}")
        time.sleep(0.3)
    yield {"base": base, "token": token, "work": work}
    try:
        req = urllib.request.Request(f"{base}/api/shutdown?token={token}", method="POST")
        urllib.request.urlopen(req, timeout=5)
        proc.wait(timeout=15)
    except Exception:
        pass
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    log.close()


@pytest.fixture(scope="module")
def page(lab):
    from playwright.sync_api import sync_playwright
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{lab['base']}/lab/tree/{ASSIGNMENT}.ipynb?token={lab['token']}")
        # the kernel is ready when the status bar says so (the toolbar's indicator is idle before)
        page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=90_000)
        yield page
        browser.close()


def explained(cell, artifact: str, docs_image: str) -> str:
    """The text of a cell's outputs once a `fix:` line shows in them; the cell's screenshot goes to
    the artifacts (and, with UPDATE_DOCS_SCREENSHOT=1, to docs/ for the README)."""
    cell.scroll_into_view_if_needed()
    cell.locator(".jp-OutputArea-output").filter(has_text="fix:").wait_for(timeout=60_000)
    output = cell.locator(".jp-OutputArea").inner_text()
    cell.screenshot(path=str(ARTIFACTS / artifact))
    if os.environ.get("UPDATE_DOCS_SCREENSHOT"):
        cell.screenshot(path=str(ROOT / "docs" / docs_image))
    return output


def set_cell(page, marker: str, source: str):
    """Replace the text of the code cell that contains `marker`."""
    cell = page.locator(".jp-CodeCell").filter(has_text=marker).first
    cell.scroll_into_view_if_needed()
    editor = cell.locator(".cm-content")
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(source)  # typed keys would be auto-indented a second time


def run_all(page):
    """Run menu -> Run All Cells, then wait for the kernel to go busy and back to idle."""
    page.locator(".lm-MenuBar").first.get_by_text("Run", exact=True).click()
    page.locator("[data-command='runmenu:run-all']").click()
    try:
        page.get_by_text("Python 3 (ipykernel) | Busy").wait_for(timeout=5_000)
    except Exception:
        pass  # it may already be done
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=120_000)


def run_new_cell(page, source: str, marker: str):
    """Add a code cell at the end of the notebook, type `source` and run it (Shift+Enter); the new
    cell is found by `marker` (a later `.last` would be the empty cell Shift+Enter adds)."""
    last = page.locator(".jp-Notebook .jp-Cell").last
    last.scroll_into_view_if_needed()
    last.locator(".jp-InputPrompt").first.click()      # selects it, in command mode
    page.keyboard.press("Escape")
    page.keyboard.press("b")                           # insert a code cell below and select it
    page.keyboard.press("Enter")                       # edit it
    page.keyboard.insert_text(source)
    page.keyboard.press("Shift+Enter")
    return page.locator(".jp-CodeCell").filter(has_text=marker).first


def test_student_flow(page, lab):
    started = time.monotonic()
    menubar = page.locator(".lm-MenuBar").first.inner_text()
    page.screenshot(path=str(ARTIFACTS / "0-opened.png"))

    set_cell(page, "def mask_tensor(x, mask):", BOOLEAN_MASK)
    run_all(page)
    failing = page.locator(".jp-CodeCell").filter(has_text="check.assert_jittable(mask_tensor").first
    output = explained(failing, "1-failing-test.png", "student-failing-test.png")
    assert "NonConcreteBooleanIndexError" in output and "jnp.where(mask" in output, output[-1500:]
    assert "fix:" in output

    set_cell(page, "def mask_tensor(x, mask):", WITH_WHERE)
    run_all(page)
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    tracebacks = [t for t in errors.all_inner_texts() if "Error" in t]
    page.screenshot(path=str(ARTIFACTS / "2-all-passing.png"), full_page=True)
    assert not tracebacks, tracebacks[:2]

    page.locator(".jp-Notebook").click()
    page.locator("[data-jp-item-name='runAll']").get_by_text("Validate").click()
    dialog = page.locator(".jp-Dialog-body")
    dialog.wait_for(timeout=120_000)
    page.screenshot(path=str(ARTIFACTS / "3-validate.png"))
    assert "validation-success" in (dialog.get_attribute("class") or ""), dialog.inner_text()[:2000]
    page.keyboard.press("Escape")

    # a cell of the student's own that calls JAX wrongly: JAX's error, then the explanation
    cell = run_new_cell(page, VMAP_MISTAKE, "jax.vmap(predict)")
    output = explained(cell, "4-jax-error-explained.png", "student-jax-error.png")
    assert "inconsistent sizes" in output and "[autograder]" in output, output[-1500:]
    assert output.index("inconsistent sizes") < output.index("[autograder]"), output[-1500:]
    assert "in_axes=(None, 0)" in output.split("fix:", 1)[1], output[-1500:]
    print(f"browser flow: {time.monotonic() - started:.1f} s")

    for instructor_only in ("Formgrader", "Create Assignment", "Course List"):
        assert instructor_only not in menubar


def test_instructor_menus_are_hidden(page):
    """Students see no instructor entries anywhere in the Nbgrader menu or the command palette."""
    bar = page.locator(".lm-MenuBar").first
    if bar.get_by_text("Nbgrader", exact=True).count():
        bar.get_by_text("Nbgrader", exact=True).click()
        items = page.locator(".lm-Menu-content").first.inner_text()
        page.keyboard.press("Escape")
        assert "Formgrader" not in items and "Course List" not in items, items
    page.keyboard.press("Control+Shift+c")
    page.wait_for_timeout(300)
    palette = page.locator(".lm-CommandPalette-content").first.inner_text()
    page.keyboard.press("Escape")
    assert "Formgrader" not in palette and "Create Assignment" not in palette, palette[:2000]
