"""`autograder export prairielearn ASSIGNMENT --out DIR`: a PrairieLearn externally graded question.

    DIR/info.json          v3 question, gradingMethod External, the grading image and entry point
    DIR/question.html      <pl-file-upload> for ASSIGNMENT.ipynb; the grader's results and the file
    DIR/tests/             copied by PrairieLearn to /grade/tests for every job:
        run_grader.py        the entry point: always writes /grade/results/results.json, exits 0
        course/, config.json the grading notebook (hidden tests, no solutions) and the limits
    DIR/image/             the grading image (prairielearn/grader-python has no JAX, and jobs have no
                           network): Dockerfile, requirements.txt, wheels/
    DIR/README.md          for the instructor

Grading runs in `container.py`, as for Gradescope. PrairieLearn shows a job's results to the student
at once, so a cell that failed on hidden inputs says only that (its evidence would describe inputs
the student has not seen); a cell that failed in its visible tests carries the full message.
`AUTOGRADER_ROOT` replaces /grade, so a test can run the entry point in a folder.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import uuid
from pathlib import Path

from ..course.layout import Course
from ..sandbox.process import Limits
from ..grading import visibility
from . import bundle, container

DEADLINE_S = 480.0      # the job's timeout below leaves room for starting the container
JOB_TIMEOUT_S = 600     # PrairieLearn's maximum (its default, 30 s, is far too short for JAX)
MESSAGE_CHARS = 4000    # results.json over 1 MiB makes the job "not gradable"
HIDDEN_FAILURE = ("failed on hidden tests (inputs you have not seen): look for the edge cases that "
                  "the tests in your notebook do not cover")

RUN_GRADER = '''#!/usr/bin/env python3
"""PrairieLearn's entry point for this question (info.json: externalGradingOptions.entrypoint).

It always writes /grade/results/results.json and exits 0: PrairieLearn reads the results only from
an entry point that exits 0 in time, and calls a job with no results "not gradable"."""
import json
import os
import sys

ROOT = os.environ.get("AUTOGRADER_ROOT", "/grade")
try:
    from autograder.platforms.prairielearn import run
except Exception as exc:  # the image lacks the grader: say so instead of failing silently
    os.makedirs(os.path.join(ROOT, "results"), exist_ok=True)
    with open(os.path.join(ROOT, "results", "results.json"), "w") as fh:
        json.dump({"gradable": False, "score": 0.0,
                   "message": "The grading image has no grader installed, so this submission was not "
                              "graded (it does not count against you). Please tell your instructor.",
                   "output": f"{type(exc).__name__}: {exc}"}, fh)
    sys.exit(0)
sys.exit(run(ROOT))
'''

QUESTION_HTML = '''<pl-question-panel>
  <p>Upload your notebook <code>{assignment}.ipynb</code> (the course's release notebook with your
  solutions). It is graded on its visible tests, which you can run yourself, and on hidden tests
  with inputs you have not seen.</p>
  <pl-file-upload file-names="{assignment}.ipynb"></pl-file-upload>
</pl-question-panel>

<pl-submission-panel>
  <pl-external-grader-results></pl-external-grader-results>
  <pl-file-preview></pl-file-preview>
</pl-submission-panel>
'''

DOCKERFILE = '''# The grading image of the JAX course's PrairieLearn questions. prairielearn/grader-python has no
# JAX, and grading jobs have no network, so the pinned packages and the grader are installed here:
#   docker build -t {image} . && docker push {image}
# and info.json's externalGradingOptions.image names it.
FROM python:3.11-slim-bookworm
# unshare (util-linux) and mount let the grader use namespaces where the container allows them
RUN apt-get update && apt-get install -y --no-install-recommends util-linux mount \\
 && rm -rf /var/lib/apt/lists/*
COPY requirements.txt /opt/jax-course/requirements.txt
COPY wheels/ /opt/jax-course/wheels/
RUN python3 -m pip install --no-cache-dir -r /opt/jax-course/requirements.txt \\
 && python3 -m pip install --no-cache-dir --no-deps /opt/jax-course/wheels/*.whl \\
 && python3 -I -c "import jax, autograder.platforms.prairielearn; print('grader ready: jax', jax.__version__)"
'''

README = '''# PrairieLearn question for {assignment}

Built by `autograder export prairielearn {assignment}`.

1. Build and push the grading image (once per course version):
   `docker build -t {image} image/ && docker push {image}`
   (or rename it, and change `externalGradingOptions.image` in info.json to match).
2. Copy this folder (without image/, which PrairieLearn does not need) into your course's
   `questions/`, and add the question to an assessment.

Jobs get {timeout} s (`externalGradingOptions.timeout`; PrairieLearn's default of 30 s is too short
for JAX), and the grader always answers within {deadline:.0f} s. `tests/` holds the assignment's hidden
tests (never its solutions); PrairieLearn does not show it to students, and the grader keeps it from
their code while it runs.
'''


def build(course: Course, assignment: str, out: Path, image: str = "", deadline_s: float = DEADLINE_S,
          timeout_s: int = JOB_TIMEOUT_S, limits: Limits | None = None) -> Path:
    """Write the question folder; refuses (BundleError) if reference-solution text got in."""
    from .. import __version__
    limits = limits or Limits(cell_timeout=20.0)
    course.assignment(assignment)
    image = image or f"jax-course-grader:{__version__}"
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise bundle.BundleError(f"{out} exists and is not empty; choose a new folder")
    with tempfile.TemporaryDirectory(prefix="jaxcourse-prairielearn-") as tmp:
        stage = Path(tmp)
        tests = stage / "tests"
        bundle.write_material(course, assignment, tests)
        bundle.write_config(tests, assignment, deadline_s, limits, platform="prairielearn")
        (tests / "run_grader.py").write_text(RUN_GRADER)
        (tests / "run_grader.py").chmod(0o755)
        bundle.write_python_package(stage / "image")
        (stage / "image" / "Dockerfile").write_text(DOCKERFILE.format(image=image))
        info = {
            "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"jax-course/{course.root.name}/{assignment}")),
            "type": "v3", "title": f"JAX: {assignment} (notebook upload)", "topic": "JAX",
            "tags": ["jax", "autograded"], "singleVariant": True, "gradingMethod": "External",
            "externalGradingOptions": {"enabled": True, "image": image,
                                       "entrypoint": ["python3", "-I", "/grade/tests/run_grader.py"],
                                       "timeout": int(timeout_s), "enableNetworking": False},
        }
        (stage / "info.json").write_text(json.dumps(info, indent=2) + "\n")
        (stage / "question.html").write_text(QUESTION_HTML.format(assignment=assignment))
        (stage / "README.md").write_text(README.format(assignment=assignment, image=image,
                                                       timeout=timeout_s, deadline=deadline_s))
        bundle.check_no_solutions(stage, course, assignment)
        out.mkdir(parents=True, exist_ok=True)
        shutil.copytree(stage, out, dirs_exist_ok=True)
    return out


# ------------------------------------------------------------------ inside the grading job
def results_json(outcome: container.Outcome) -> dict:
    r = outcome.result
    if outcome.unusable:
        return {"gradable": False, "score": 0.0,
                "message": f"This submission could not be graded (it does not count against you): "
                           f"{outcome.unusable}"[:MESSAGE_CHARS]}
    tests, points, max_points = [], 0.0, 0.0
    for e in r["exercises"].values():
        for c in e["checks"]:
            at_once = visibility.shown_at_once(c, outcome.hidden.get(c["name"], False),
                                               outcome.reached.get(c["name"], False))
            message = "passed" if c["passed"] else c["message"] if at_once else HIDDEN_FAILURE
            tests.append({"name": c["name"], "description": outcome.questions.get(c["name"], ""),
                          "points": c["points"], "max_points": c["max_points"],
                          "message": message[:MESSAGE_CHARS]})
            points += c["points"]
            max_points += c["max_points"]
    lines = [f"Graded on {r['backend']} in {outcome.seconds:.0f} s: {points:g} / {max_points:g} points."]
    if outcome.stopped == "deadline":
        lines.append("Grading stopped at its time limit: the checks it did not reach score 0.")
    elif outcome.stopped:
        lines.append("Grading stopped early (out of memory, or stopped by the submission's code): "
                     "the checks it did not reach score 0.")
    lines += [f"Note: {e}" for e in r.get("errors", [])[:10]]
    score = min(1.0, max(0.0, points / max_points)) if max_points > 0 else 0.0
    return {"gradable": True, "score": round(score, 6), "message": "\n".join(lines)[:MESSAGE_CHARS],
            "tests": tests}


def run(root) -> int:
    """Grade /grade/student into /grade/results/results.json; always exits 0 with a results file."""
    root = Path(root)
    results = root / "results"
    results.mkdir(parents=True, exist_ok=True)
    try:
        config, limits = bundle.read_config(root / "tests")
        job = container.Job(course_root=root / "tests" / bundle.MATERIAL, assignment=config["assignment"],
                            submission=root / "student", deadline_s=float(config["deadline_s"]),
                            limits=limits, private=[root / "tests", results, root / "data"])
        outcome = container.run(job)
        data = results_json(outcome)
        print(f"{config['assignment']}: score {data['score']} in {outcome.seconds:.0f} s "
              f"(isolation {outcome.result.get('isolation')}); stopped: {outcome.stopped or 'no'}")
    except Exception as exc:  # the grader itself failed: not the student's fault
        import traceback
        traceback.print_exc()
        data = {"gradable": False, "score": 0.0,
                "message": "The grader failed, so this submission was not graded (it does not count "
                           "against you). Please tell your instructor.",
                "output": f"{type(exc).__name__}: {exc}"[:MESSAGE_CHARS]}
    tmp = results / "results.json.tmp"
    tmp.write_text(json.dumps(data, indent=1))
    tmp.replace(results / "results.json")
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("AUTOGRADER_ROOT", "/grade")))
