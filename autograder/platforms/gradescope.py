"""`autograder export gradescope ASSIGNMENT --out FILE.zip`, and what then runs inside Gradescope.

The zip (Gradescope unpacks it into /autograder/source and runs setup.sh once, as root, when it
builds the image; then run_autograder once per submission):

    setup.sh            Python >= 3.11 (Ubuntu 22.04's python3 is 3.10; its universe archive has
                        python3.11), a venv at /autograder/venv with the pinned requirements and this
                        package's wheel; then the grading material is made readable by root only
    run_autograder      `python -m autograder.platforms.gradescope`; if even that cannot start, it
                        writes a results.json that says so
    requirements.txt    pinned dependencies;  wheels/  this package (no course content)
    course/             the grading notebook: setup and test cells with their hidden tests, solution
                        cells cleared (`bundle.py`)
    config.json         assignment, deadline, limits;  README.md  for the instructor

Grading runs in `container.py` (hidden tests kept from student code, a deadline, every cell in the
result). `AUTOGRADER_ROOT` replaces /autograder, so a test can unpack the zip into a folder and run it.

What students see (results.json): one test per graded cell, named by its grade_id. A test is
`visible` when its result is something the student's own notebook already shows: a cell without
hidden tests, or one that failed before its hidden tests. Otherwise (it passed, or failed on hidden
inputs) it is `after_published`: the student sees it when the instructor publishes grades. No message
quotes test code, and the top-level output names no hidden input.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import zipfile
from pathlib import Path

from ..course.layout import Course
from ..sandbox.process import Limits
from ..grading import visibility
from . import bundle, container

DEADLINE_S = 480.0   # Gradescope's default limit is 600 s, and a timeout shows the student nothing
MESSAGE_CHARS = 4000

SETUP_SH = r'''#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder image (Ubuntu 22.04 by default).
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SRC="$ROOT/source"
PYTHON=""
for candidate in python3.13 python3.12 python3.11; do
  if command -v "$candidate" >/dev/null 2>&1; then PYTHON="$candidate"; break; fi
done
if [ -z "$PYTHON" ]; then
  # JAX needs Python >= 3.11; Ubuntu 22.04 ships 3.10 as python3 and 3.11 in its universe archive
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3.11 python3.11-venv
  PYTHON=python3.11
fi
[ -x "$ROOT/venv/bin/python" ] || "$PYTHON" -m venv "$ROOT/venv"
"$ROOT/venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$SRC/requirements.txt"
"$ROOT/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "$SRC"/wheels/*.whl
# Student code runs in this container: only root may read the grading material (hidden tests).
chmod 755 "$ROOT"
chmod -R go-rwx "$SRC"
"$ROOT/venv/bin/python" -I -c "import jax, autograder.platforms.gradescope; print('grader ready: jax', jax.__version__)"
'''

RUN_AUTOGRADER = r'''#!/usr/bin/env bash
# Gradescope runs this for every submission, as root. It always leaves results/results.json behind.
ROOT="${AUTOGRADER_ROOT:-/autograder}"
"$ROOT/venv/bin/python" -I -m autograder.platforms.gradescope "$ROOT"
if [ ! -s "$ROOT/results/results.json" ]; then
  mkdir -p "$ROOT/results"
  cat > "$ROOT/results/results.json" <<'EOF'
{"score": 0.0, "execution_time": 0, "output": "The autograder could not start, so this submission was not graded. Your instructor can see why in the autograder's log; submit again once it is fixed.", "output_format": "text", "stdout_visibility": "hidden", "tests": []}
EOF
fi
'''

README = '''# Gradescope autograder for {assignment}

Built by `autograder export gradescope {assignment}`. Upload this zip as a programming
assignment's autograder (Ubuntu 22.04 base image). Students submit `{assignment}.ipynb`.

- `setup.sh` installs Python 3.11+, the pinned packages and the grader into /autograder/venv.
- `run_autograder` grades the notebook in /autograder/submission and writes
  /autograder/results/results.json within {deadline:.0f} s (Gradescope's default limit is 600 s).
- `course/` holds the assignment's hidden tests (never its solutions): Gradescope does not show
  /autograder/source to students, and the grader keeps it from their code while it runs.

Container settings: give it at least 1 GB of memory. Grading holds two JAX processes (the grader's
and the student's) and peaks near 780 MB on the course's largest assignment, over Gradescope's
default 768 MB; the default CPU (0.5) is enough. The course's docs/INSTRUCTORS.md ("Gradescope and PrairieLearn")
has the measurements.
'''


def build(course: Course, assignment: str, out: Path, deadline_s: float = DEADLINE_S,
          limits: Limits | None = None) -> Path:
    """Write the autograder zip; refuses (BundleError) if reference-solution text got in."""
    limits = limits or Limits(cell_timeout=20.0)
    course.assignment(assignment)   # a one-line error for an unknown assignment, before any work
    with tempfile.TemporaryDirectory(prefix="jaxcourse-gradescope-") as tmp:
        stage = Path(tmp)
        bundle.write_material(course, assignment, stage)
        bundle.write_python_package(stage)
        bundle.write_config(stage, assignment, deadline_s, limits, platform="gradescope")
        for name, text in (("setup.sh", SETUP_SH), ("run_autograder", RUN_AUTOGRADER)):
            (stage / name).write_text(text)
            (stage / name).chmod(0o755)
        (stage / "README.md").write_text(README.format(assignment=assignment, deadline=deadline_s))
        bundle.check_no_solutions(stage, course, assignment)
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp_zip = out.with_suffix(out.suffix + ".tmp")
        with zipfile.ZipFile(tmp_zip, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in sorted(stage.rglob("*")):
                if path.is_file():
                    info = zipfile.ZipInfo.from_file(path, path.relative_to(stage).as_posix())
                    info.compress_type = zipfile.ZIP_DEFLATED
                    zf.writestr(info, path.read_bytes())   # keeps the executable bits
        tmp_zip.replace(out)
    return out


# ------------------------------------------------------------------ inside Gradescope
def results_json(outcome: container.Outcome, deadline_s: float) -> dict:
    """Gradescope's results.json from a container outcome (see the module docstring)."""
    r = outcome.result
    tests, shown, later = [], 0, 0
    for i, (ex, e) in enumerate(r["exercises"].items(), 1):
        for j, c in enumerate(e["checks"], 1):
            at_once = visibility.shown_at_once(c, outcome.hidden.get(c["name"], False),
                                               outcome.reached.get(c["name"], False))
            shown += at_once
            later += not at_once
            asked = outcome.questions.get(c["name"], "")
            body = c["message"][:MESSAGE_CHARS] if not c["passed"] else "passed"
            tests.append({"name": c["name"], "number": f"{i}.{j}", "score": c["points"],
                          "max_score": c["max_points"], "status": "passed" if c["passed"] else "failed",
                          "output": f"{asked}\n{body}" if asked else body, "output_format": "text",
                          "tags": [c["kind"]], "visibility": "visible" if at_once else "after_published"})
    lines = []
    if outcome.unusable:
        lines.append(f"This submission could not be graded: {outcome.unusable}")
    else:
        lines.append(f"Graded on {r['backend']} in {outcome.seconds:.0f} s.")
        lines.append(f"Shown now ({shown}): cells that failed in their visible tests (the ones in your "
                     f"notebook) and cells without hidden tests.")
        if later:
            lines.append(f"Shown when your instructor publishes grades ({later}): every other cell. "
                         f"Hidden tests check inputs you have not seen, so test your own edge cases.")
        if outcome.stopped == "deadline":
            lines.append(f"Grading stopped at its time limit ({deadline_s:.0f} s): the checks it did "
                         f"not reach score 0.")
        elif outcome.stopped:
            lines.append("Grading stopped early (out of memory, or stopped by the submission's code): "
                         "the checks it did not reach score 0.")
    for error in r.get("errors", [])[:10] if not outcome.unusable else []:
        lines.append(f"Note: {error}")
    return {"score": float(sum(t["score"] for t in tests)), "execution_time": int(round(outcome.seconds)),
            "output": "\n".join(lines), "output_format": "text", "stdout_visibility": "hidden",
            "extra_data": {"assignment": r["assignment"], "backend": r["backend"],
                           "isolation": r.get("isolation"), "stopped": outcome.stopped},
            "tests": tests}


def _failure_json(reason: str) -> dict:
    return {"score": 0.0, "execution_time": 0, "output_format": "text", "stdout_visibility": "hidden",
            "output": "The autograder failed, so this submission was not graded. Your instructor can see "
                      "why in the autograder's log; submit again once it is fixed.",
            "extra_data": {"grader_error": reason[:2000]}, "tests": []}


def run(root: Path) -> int:
    """Grade /autograder/submission into /autograder/results/results.json. Always exits 0 with a
    results file (a grader failure scores 0 and says so, and its reason goes to the log)."""
    root = Path(root)
    results = root / "results"
    results.mkdir(parents=True, exist_ok=True)
    try:
        config, limits = bundle.read_config(root / "source")
        job = container.Job(course_root=root / "source" / bundle.MATERIAL, assignment=config["assignment"],
                            submission=root / "submission", deadline_s=float(config["deadline_s"]),
                            limits=limits, private=[root / "source", results,
                                                    root / "submission_metadata.json"])
        outcome = container.run(job)
        data = results_json(outcome, job.deadline_s)
        print(f"{config['assignment']}: {data['score']:g} / {outcome.result.get('max_score', 0):g} in "
              f"{outcome.seconds:.0f} s on {outcome.result.get('backend')} "
              f"(isolation {outcome.result.get('isolation')}); stopped: {outcome.stopped or 'no'}")
        for error in outcome.result.get("errors", []):
            print(f"  {error}")
    except Exception as exc:  # the grader itself failed: still a results file
        import traceback
        traceback.print_exc()
        data = _failure_json(f"{type(exc).__name__}: {exc}")
    tmp = results / "results.json.tmp"
    tmp.write_text(json.dumps(data, indent=1))
    tmp.replace(results / "results.json")
    return 0


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    root = Path(argv[0]) if argv else Path(os.environ.get("AUTOGRADER_ROOT", "/autograder"))
    return run(root)


if __name__ == "__main__":
    sys.exit(main())
