"""`autograder similarity ASSIGNMENT`: which students' solution cells look copied from each other.

What is compared: each student's solution cells of the assignment (found by grade_id, one text per
exercise), never the handed-out code: the release notebook's solution cells are boilerplate, and
their fingerprints are dropped from every student's. Tokenizing and fingerprinting are copydetect's
(`filter_code` turns every name into V, F or O and drops comments and whitespace, so renamed
variables and added comments change nothing; `CodeFingerprint` hashes the k-grams of what is left
and winnows them).

How pairs are scored (MOSS-like): the exercises are short, so many honest students write the same
code, and only code few students share is evidence. A fingerprint's weight falls with the number
of students who hold it (`weigh`: 1 when only two students hold it, an IDF falling to 0 at
`common_fraction` of the class, or `common_min` students in a small class; beyond that, 0). For
one exercise and a pair of students:

    score = sum of the weights of the fingerprints both hold / max(mean own mass, floor)

where a student's own mass counts each of their fingerprints by the same weight, or 1 when at most
two students hold it (their own code). Code the class shares weighs nearly nothing on both sides,
so two students who both wrote the common one-liner score near 0, two who share an unusual solution
near 1 however much common code surrounds it, and `floor` keeps a short shared line from counting
as a whole solution. The notebook's score is the sum of the exercises' numerators over the sum of
their (floored) denominators. A pair's score is the larger of its notebook score and its best
exercise score: one exercise copied out of six still shows.

The report is written by `similarity_report`.
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass, field

import numpy as np

from ..course.notebook import NotebookError, classify, read_notebook
from .nbgrader_course import NbgraderCourse


@dataclass(frozen=True)
class Settings:
    """How fingerprints are taken and weighed.

    `noise_t` (copydetect's noise threshold: the k of the k-grams, in characters of filtered code)
    and `guarantee_t` (any match at least this long is found; window = guarantee_t - noise_t + 1):
    copydetect's defaults (25 and 30) suit whole files. A solution cell here is a few lines, and
    filtering shrinks it further (`return lax.fori_loop(0, k, lambda j, v: v + v, z)` becomes the
    30 characters `returnV.V(0,V,lambdaV,V:V+V,V)`), so 25-grams winnowed over a window of 6 leave
    a cell a handful of fingerprints, too few to weigh (copydetect issue #26: short files). k = 16
    spans about one expression: on the course's known answers (tests/cases' RIGHT), 12 let honest
    students' different idioms share more chance fragments and 20 started to miss copies of short
    cells. The window is 1 (guarantee_t = noise_t, every k-gram kept), which copydetect's
    documentation allows when time does not matter: a class of 300 holds under a megabyte of code.

    `floor` (characters of filtered code): an exercise must hold this much before a full match there
    counts fully; a shorter match scores in proportion (the 30 characters above, identical in two
    notebooks, score at most 15 / 41 = 0.37). Two students who wrote the same line prove nothing.

    `threshold`: a pair is flagged when its score reaches it. Measured on 03_control_flow and
    02_static_shapes (tests/test_similarity.py and benchmarks/similarity.py): honest pairs writing
    the course's different idioms reach 0.37 at most (two idioms of `ema` built on the same scan),
    disguised copies of an exercise of three lines or more score 1.0.
    """
    noise_t: int = 16
    guarantee_t: int = 16
    common_fraction: float = 0.1
    common_min: int = 5
    floor: int = 56
    threshold: float = 0.6

    @property
    def window(self) -> int:
        return self.guarantee_t - self.noise_t + 1

    @property
    def floor_prints(self) -> int:
        """The floor as a count of fingerprints (a window of w keeps about 2 / (w + 1) of the k-grams)."""
        return max(1, round((self.floor - self.noise_t + 1) * 2 / (self.window + 1)))


@dataclass
class Fingerprints:
    """One student's code for one exercise, fingerprinted (copydetect's CodeFingerprint, less the
    boilerplate's hashes)."""
    raw: str
    offsets: np.ndarray
    hash_idx: dict          # hash -> positions in the filtered code
    k: int

    @property
    def hashes(self) -> set:
        return set(self.hash_idx)


@dataclass
class Result:
    assignment: str
    exercises: list[str]
    students: list[str]
    notebook: np.ndarray                 # (n, n) pair scores over the whole notebook
    per_exercise: dict[str, np.ndarray]  # exercise -> (n, n)
    settings: Settings
    prints: dict[str, dict[str, Fingerprints]]   # student -> exercise -> fingerprints
    weights: dict[str, dict[int, float]]         # exercise -> hash -> weight (0 for common ones)
    skipped: list[str] = field(default_factory=list)   # one-line reasons for students left out

    @property
    def pair_score(self) -> np.ndarray:
        """The larger of the notebook's and the best exercise's score (rounded: copydetect's hashes
        are Python's salted `hash`, so sums run in another order each run; the order of the pairs
        must not)."""
        best = self.notebook.copy()
        for scores in self.per_exercise.values():
            best = np.maximum(best, scores)
        return np.round(best, 6)

    def pairs(self) -> list[tuple[int, int]]:
        """Every pair (i < j), highest score first."""
        score = self.pair_score
        i, j = np.triu_indices(len(self.students), 1)
        order = np.lexsort((j, i, -score[i, j]))
        return [(int(i[o]), int(j[o])) for o in order]

    def flagged(self) -> list[tuple[int, int]]:
        score = self.pair_score
        return [(i, j) for i, j in self.pairs() if score[i, j] >= self.settings.threshold]


def fingerprint(code: str, settings: Settings, boilerplate: set, name: str = "cell.py") -> Fingerprints:
    """copydetect's fingerprints of `code` with the boilerplate's hashes removed.

    The boilerplate is removed here rather than by CodeFingerprint's `boilerplate` argument: that
    one uses `np.intersect1d(..., assume_unique=True)` on hashes that repeat whenever a k-gram comes
    twice, and then drops positions of code that is no boilerplate (of `abcabcabc` with any
    boilerplate, only the last occurrence of each 3-gram is kept), which the highlighting needs."""
    from copydetect import CodeFingerprint
    fp = CodeFingerprint(name, settings.noise_t, settings.window, language="python", fp=io.StringIO(code))
    kept = {int(h): [int(i) for i in idx] for h, idx in fp.hash_idx.items() if int(h) not in boilerplate}
    return Fingerprints(code, fp.offsets, kept, settings.noise_t)


def boilerplate_hashes(code: str, settings: Settings) -> set:
    """Every k-gram hash of the handed-out code (window 1, as copydetect takes its boilerplate)."""
    from copydetect import CodeFingerprint
    fp = CodeFingerprint("boilerplate.py", settings.noise_t, 1, language="python", fp=io.StringIO(code))
    return {int(h) for h in fp.hashes}


def solution_code(nb, exercises: list[str]) -> dict[str, str]:
    """exercise -> the notebook's solution cell source(s) with that grade_id ('' when absent)."""
    out = {ex: [] for ex in exercises}
    for cell in classify(nb):
        if cell.role == "solution" and cell.grade_id in out:
            out[cell.grade_id].append(cell.source)
    return {ex: "\n".join(parts) for ex, parts in out.items()}


def read_class(ncourse: NbgraderCourse, assignment: str) -> tuple[list[str], dict, dict, list[str]]:
    """(exercises, release code per exercise, student -> exercise -> code, skipped reasons)."""
    spec = ncourse.course.assignment(assignment)          # unknown assignment: NotebookError
    release = ncourse.course.release / assignment / f"{assignment}.ipynb"
    if not release.exists():
        raise NotebookError(f"no {release.relative_to(ncourse.root)}: the handed-out code is what the "
                            f"comparison ignores; run `nbgrader generate_assignment {assignment}` first")
    exercises = spec.exercises
    handed_out = solution_code(read_notebook(release), exercises)
    code, skipped = {}, []
    for sub in ncourse.find_submissions(assignment):
        if sub.notebook is None:
            skipped.append(sub.error)
            continue
        try:
            code[sub.student] = solution_code(read_notebook(sub.notebook), exercises)
        except NotebookError as exc:
            skipped.append(f"{sub.student}: {exc}")
    if len(code) < 2:
        folder = ncourse.coursedir.submitted_directory
        raise NotebookError(f"{len(code)} readable submission(s) of {assignment} under {folder}/: "
                            f"nothing to compare (run nbgrader collect first)")
    return exercises, handed_out, code, skipped


def weigh(df: int, students: int, settings: Settings) -> float:
    """A shared fingerprint's weight, from the number of students who hold it (df).

    1 when only two students hold it, falling as an IDF, log(cap_plus / df) / log(cap_plus / 2) with
    cap_plus = cap + 1, to nearly 0 at the cap, max(common_min, common_fraction * N) holders, and 0
    beyond it. The IDF is taken within the cap rather than over the class so that the weight has no
    step there: log(N / df) / log(N / 2) is still 0.46 at a tenth of a class of 300, so two honest
    students who both wrote an idiom 29 others wrote would share it at half weight. In a class of
    300 (cap 30) a fingerprint three students share weighs 0.85, five 0.67, ten 0.41; in a class of
    17 (cap 5) three weigh 0.63."""
    cap = max(settings.common_min, settings.common_fraction * students)
    if df < 2 or df > cap:
        return 0.0
    return math.log((cap + 1) / df) / math.log((cap + 1) / 2)


def compare(assignment: str, exercises: list[str], handed_out: dict[str, str], code: dict[str, dict[str, str]],
            settings: Settings, skipped: list[str] | None = None) -> Result:
    """Score every pair of students, per exercise and over the notebook."""
    students = sorted(code)
    n = len(students)
    prints = {s: {} for s in students}
    per_exercise, weights = {}, {}
    shared_total, size_total = np.zeros((n, n)), np.zeros((n, n))
    for ex in exercises:
        boiler = boilerplate_hashes(handed_out.get(ex, ""), settings)
        for s in students:
            prints[s][ex] = fingerprint(code[s][ex], settings, boiler, f"{s}/{ex}.py")
        shared, floored, weights[ex] = _exercise([prints[s][ex].hashes for s in students], settings)
        per_exercise[ex] = _zero_diagonal(shared / floored)
        shared_total += shared
        size_total += floored
    notebook = _zero_diagonal(shared_total / size_total)
    return Result(assignment, exercises, students, notebook, per_exercise, settings, prints, weights,
                  list(skipped or []))


def _exercise(sets: list[set], settings: Settings) -> tuple[np.ndarray, np.ndarray, dict]:
    """For one exercise: (n, n) sums of the weights of the hashes each pair shares, (n, n) floored
    mean own masses, and each hash's weight. The shared sums are one matrix product over the hashes
    that weigh anything (those at most the cap of students hold), so a class of 300 takes 45,000
    pairs in milliseconds."""
    df: dict[int, int] = {}
    for hs in sets:
        for h in hs:
            df[h] = df.get(h, 0) + 1
    holders = sum(1 for hs in sets if hs)
    w = {h: weigh(d, holders, settings) for h, d in df.items()}
    column = {h: c for c, h in enumerate(sorted(h for h, v in w.items() if v > 0))}
    member = np.zeros((len(sets), len(column)))
    for i, hs in enumerate(sets):
        member[i, [column[h] for h in hs if h in column]] = 1.0
    vec = np.array([w[h] for h in column])
    shared = (member * vec) @ member.T
    mass = np.array([sum(1.0 if df[h] <= 2 else w[h] for h in hs) for hs in sets])
    floored = np.maximum((mass[:, None] + mass[None, :]) / 2, settings.floor_prints)
    return shared, floored, w


def _zero_diagonal(m: np.ndarray) -> np.ndarray:
    m = np.clip(m, 0.0, 1.0)
    np.fill_diagonal(m, 0.0)
    return m


def run_similarity(ncourse: NbgraderCourse, assignment: str, settings: Settings) -> Result:
    exercises, handed_out, code, skipped = read_class(ncourse, assignment)
    return compare(assignment, exercises, handed_out, code, settings, skipped)
