"""What a worker's mounts cover (sandbox/host.py `covering_folders`): every hidden path (the course's
hidden material, every notebook of the batch) is under a cover, no folder a worker must read is, and a
class's notebooks cost a few mounts, not one each."""
from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.sandbox.host import covering_folders
from autograder.sandbox.inside import SYSTEM_FOLDERS, is_within
from hostile.boundary import READ_BATCH_MATES_BY_PATH as ATTACK

KEEP = ("/usr", "/opt/venv", "/srv/course/autograder", "/tmp/jaxcourse-worker-1-abc")


def _covered(path: str, covers) -> bool:
    return any(is_within(path, c) for c in covers)


def test_a_class_in_nbgraders_layout_is_one_folder():
    hide = tuple(f"/srv/course/submitted/s{i:04d}/03_control_flow/03_control_flow.ipynb" for i in range(1000))
    assert covering_folders(hide + ("/srv/course/source",), KEEP) == ("/srv/course/source", "/srv/course/submitted")


def test_a_hidden_path_under_a_kept_folder_is_covered_alone():
    # the package's own folder is read by the worker: only the hidden file itself is covered there
    assert covering_folders(("/srv/course/autograder/secret/answers.ipynb",), KEEP) == \
        ("/srv/course/autograder/secret/answers.ipynb",)


def test_a_hidden_path_that_holds_a_kept_one_is_left_out():
    assert covering_folders(("/srv/course", "/opt"), KEEP) == ()


def test_the_system_is_never_covered_above_what_was_asked():
    assert covering_folders(("/usr/share/course/answers.ipynb", "/etc/course/key"), ("/opt/venv",)) == \
        ("/etc/course/key", "/usr/share/course/answers.ipynb")


def test_tmp_is_never_covered_whole_unless_asked():
    assert covering_folders(("/tmp/class/s1/a.ipynb", "/tmp/class/s2/a.ipynb"), KEEP) == ("/tmp/class",)
    assert covering_folders(("/tmp/class/s1/a.ipynb", "/tmp"), ("/opt/venv",)) == ("/tmp",)


SEGMENT = st.sampled_from(["srv", "home", "tmp", "usr", "opt", "course", "venv", "submitted", "s1", "s2", "a", "b"])
PATH = st.lists(SEGMENT, min_size=1, max_size=5).map(lambda parts: "/" + "/".join(parts))


@settings(max_examples=300, deadline=None)
@given(hide=st.lists(PATH, max_size=12), keep=st.lists(PATH, min_size=1, max_size=4))
def test_every_hidden_path_is_covered_and_every_kept_one_reachable(hide, keep):
    covers = covering_folders(tuple(hide), tuple(keep))
    for path in hide:
        if not any(is_within(k, path) for k in keep):
            assert _covered(path, covers), (path, covers)
    for cover in covers:
        # a cover holds no kept path; one inside a kept folder is exactly a path that was asked
        assert not any(is_within(k, cover) for k in keep), (cover, keep)
        assert cover in map(os.path.realpath, hide) or not any(is_within(cover, k) for k in keep), (cover, keep)
        # the top level is only covered where it was asked (inside._only_the_system decides there)
        assert cover.count("/") > 1 or cover in hide, cover
        # and inside a system folder (but /tmp), nothing above what was asked
        assert cover.split("/")[1] not in SYSTEM_FOLDERS - {"tmp"} or cover in hide, cover
        assert not any(o != cover and is_within(cover, o) for o in covers), covers


# ---------------------------------------------------------------- attacked in a real worker


def test_a_student_reads_no_batch_mate_in_any_layout(limits):
    """The property, attacked as a student would (open each batch-mate's file by its path, read its
    folder's listing), where only hiding keeps them out: inside a folder the worker must read (the interpreter's
    environment), which the cover of the host's other folders binds back. Layouts the examples above
    were not written from: nbgrader's nested one, and notebooks flat in one folder."""
    import json
    import shutil
    import sys
    import tempfile
    from pathlib import Path

    from autograder.sandbox.process import WorkerProcess
    from support.machine import unavailable
    root = Path(tempfile.mkdtemp(prefix="hiding-", dir=sys.prefix))
    try:
        root.chmod(0o755)
        paths = [root / "submitted" / "ann" / "03" / "03.ipynb", root / "flat" / "bob.ipynb", root / "flat" / "cy.ipynb"]
        for p in paths:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(f"SECRET ANSWER OF {p.stem}")
            p.chmod(0o644)
            for folder in p.parents:
                if folder == root.parent:
                    break
                folder.chmod(0o755)
        worker = WorkerProcess(limits, [str(p) for p in paths])
        try:
            if worker.isolation == "process":
                unavailable("namespace isolation is not available here: paths are not hidden in process mode")
            source = f"PATHS = {json.dumps(json.dumps([str(p) for p in paths]))}\n" + ATTACK
            reply = worker.request({"op": "exec", "grade_id": "cell", "source": source}, 60, None)
            assert reply["ok"], reply
            with open(worker.stdout_path) as fh:
                line = next(ln for ln in fh.read().splitlines() if ln.startswith("FOUND "))
        finally:
            worker.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    found = json.loads(line[len("FOUND "):])
    # what is read of each notebook is nothing (each is covered by /dev/null); inside a kept folder the
    # names in a listing stay (covering the folder there could cover what the worker needs)
    assert not any("SECRET" in str(v) for v in found.values()), found
