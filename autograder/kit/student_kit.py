"""`autograder student-kit --out DIR`: what a student (or a JupyterHub image) gets, and nothing else.

    DIR/<assignment>/<assignment>.ipynb   the release notebooks (nbgrader's student versions)
    DIR/wheels/*.whl                      this package, built by pip: the checks the visible tests
                                          import and `autograder check`; it holds no course content
    DIR/requirements.txt                  the pinned versions the course was tested with
    DIR/jupyter-config/                   student-side Jupyter settings (see below)
    DIR/install.sh                        .venv with all of the above
    DIR/README.md                         for students

No solution, hidden test or source/ notebook goes in: the release notebooks are nbgrader's output,
and the package finds a course only in the working directory (see `course.layout`), so in the kit
it says it is the kit. `build` refuses to finish if a solution or hidden-test marker got in anyway.

The Jupyter settings make Validate agree with the grader: nbgrader's Validator zeroes a test cell
that wrote to stderr (JAX warnings do), which the grader does not, so the kit's nbgrader_config.py
drops stderr before Validate scores (as the instructor's config does for autograde). They also hide
the instructor's menus (formgrader, create assignment, course list) from students.
"""
from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

from ..course.layout import Course
from ..course.packaging import (INSTRUCTOR_LAB_PLUGINS, INSTRUCTOR_SERVER_EXTENSIONS, PackagingError as KitError,
                                build_wheel, markers, pinned_requirements)


STUDENT_NBGRADER_CONFIG = '''\
"""nbgrader settings for students (installed by the kit into the environment's etc/jupyter/).

Validate runs every test cell in your kernel. JAX prints harmless warnings to stderr, which nbgrader
would count as a failed test; the grader only counts raised errors, so stderr is dropped here too.
"""
from nbgrader.preprocessors import CheckCellMetadata, ClearOutput, Execute, IgnorePattern

c = get_config()  # noqa: F821
c.Validator.preprocessors = [CheckCellMetadata, ClearOutput, Execute, IgnorePattern]
c.IgnorePattern.pattern = r"[\\s\\S]"
c.Execute.timeout = 120
'''

INSTALL_SH = '''\
#!/usr/bin/env sh
# sh install.sh        creates .venv here with the course's pinned packages, its check library and
#                      the student Jupyter settings. Then: .venv/bin/jupyter lab
# sh install.sh ENV    the same into an existing Python environment ENV (a venv or conda prefix):
#                      what a JupyterHub image or a shared environment for a class runs
set -eu
if [ $# -gt 0 ]; then ENV=$(cd "$1" && pwd); else ENV=""; fi
cd "$(dirname "$0")"
if [ -z "$ENV" ]; then
    python3 -m venv .venv
    ENV=$(pwd)/.venv
fi
"$ENV/bin/python" -m pip install --quiet --upgrade pip
"$ENV/bin/python" -m pip install --quiet -r requirements.txt wheels/*.whl
mkdir -p "$ENV/etc/jupyter"
cp -R jupyter-config/. "$ENV/etc/jupyter/"
echo "ready: $ENV/bin/jupyter lab   (or: $ENV/bin/autograder check 02_static_shapes/02_static_shapes.ipynb)"
'''

README = '''\
# JAX course: student kit

One folder per assignment, each with its notebook. Install once, then work in JupyterLab:

```sh
sh install.sh            # creates .venv with the pinned packages (Python 3.11 or newer)
                         # (sh install.sh ENV installs into an existing environment ENV instead)
.venv/bin/jupyter lab    # open <assignment>/<assignment>.ipynb
```

In each notebook, replace `raise NotImplementedError()` with your solution and run the test cells
below it. A failing test says what it checked, what it saw, and what to change:

```
AssertionError: [check] jax.jit(...) failed: <the error and your line>
  cause: <why it happens under jit>
  fix: <what to change>
```

Check a whole notebook from a terminal, with the same checks, messages and points per cell as the
grader (it exits non-zero when a visible test fails):

```sh
.venv/bin/autograder check 02_static_shapes/02_static_shapes.ipynb
```

The **Validate** button runs the same visible tests in your kernel. Passing them is necessary, not
sufficient: grading also runs **hidden tests** on inputs you have not seen (edge cases, other
shapes and dtypes), so test your own edge cases. Nothing in this kit contains solutions or hidden
tests.
'''


def write_jupyter_config(out: Path):
    (out / "labconfig").mkdir(parents=True)
    (out / "labconfig" / "page_config.json").write_text(json.dumps(
        {"disabledExtensions": {p: True for p in INSTRUCTOR_LAB_PLUGINS}}, indent=1))
    (out / "jupyter_server_config.d").mkdir()
    (out / "jupyter_server_config.d" / "zz-jax-course-student.json").write_text(json.dumps(
        {"ServerApp": {"jpserver_extensions": {e: False for e in INSTRUCTOR_SERVER_EXTENSIONS}}}, indent=1))
    (out / "nbgrader_config.py").write_text(STUDENT_NBGRADER_CONFIG)


def marker_hits(kit: Path) -> list[str]:
    """Files in the kit (inside wheels too) that hold a solution or hidden-test marker."""
    import zipfile
    hits, needles = [], markers()
    for path in sorted(kit.rglob("*")):
        if not path.is_file():
            continue
        texts = {str(path): path.read_bytes()}
        if path.suffix == ".whl":
            with zipfile.ZipFile(path) as zf:
                texts = {f"{path}!{n}": zf.read(n) for n in zf.namelist()}
        for name, data in texts.items():
            text = data.decode("utf-8", errors="replace")
            if any(m in text for m in needles):
                hits.append(name)
    return hits


def build(course: Course, out: Path) -> list[Path]:
    """Write the kit into `out` (new or empty); returns the notebooks it holds."""
    if out.exists() and any(out.iterdir()):
        raise KitError(f"{out} exists and is not empty; choose a new folder")
    names = course.assignment_names()
    missing = [n for n in names if not (course.release / n / f"{n}.ipynb").exists()]
    if not names or missing:
        raise KitError(f"no release notebook for {missing or 'any assignment'} under {course.release}; "
                       f"run `make release` first")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="jaxcourse-kit-") as tmp:
        staging = Path(tmp) / "kit"
        notebooks = []
        for name in names:
            (staging / name).mkdir(parents=True)
            shutil.copy(course.release / name / f"{name}.ipynb", staging / name / f"{name}.ipynb")
            notebooks.append(out / name / f"{name}.ipynb")
        build_wheel(staging / "wheels")
        (staging / "requirements.txt").write_text(
            "# pinned: the versions this course was tested with\n"
            + "\n".join(pinned_requirements()) + "\n")
        write_jupyter_config(staging / "jupyter-config")
        (staging / "install.sh").write_text(INSTALL_SH)
        (staging / "install.sh").chmod(0o755)
        (staging / "README.md").write_text(README)
        hits = marker_hits(staging)
        if hits:
            raise KitError(f"refusing to write the kit: solution or hidden-test markers in {hits[:3]}")
        shutil.copytree(staging, out, dirs_exist_ok=True)
    return notebooks


def main(out: Path, course_root: Path | None = None) -> int:
    course = Course(course_root)
    if not course.source.is_dir():
        from ..course.layout import STUDENT_KIT_NOTE
        print(f"autograder: error: no source/ under {course.root}: {STUDENT_KIT_NOTE}", file=sys.stderr)
        return 2
    try:
        notebooks = build(course, Path(out))
    except KitError as exc:
        print(f"autograder: error: {exc}", file=sys.stderr)
        return 2
    print(f"student kit in {out}: {len(notebooks)} notebooks, wheels/, requirements.txt, install.sh, README.md")
    return 0
