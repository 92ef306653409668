"""`autograder report ASSIGNMENT`: the class at a glance, in `reports/<assignment>/`.

- `scores.csv`: one row per student, a column per graded check (its points in the gradebook, so
  manual grades count), the total, and whether the student was graded;
- `score_histogram.png`, `pass_rate.png` (per exercise, one bar per check kind) and
  `failure_causes.png` (the most common `cause:` lines of failed checks), drawn with matplotlib;
- `summary.html`: one page showing them, with the headline numbers and the students not graded.

Scores come from the gradebook; pass/fail and causes from the grader's results files. When
`autograder similarity` has written `similarity/pairs.csv` beside it, the page says how many pairs
it flagged.
"""
from __future__ import annotations

import collections
import csv
import html
import io
import re
import statistics
from pathlib import Path

from .nbgrader_course import NbgraderCourse, write_atomically
from .similarity_report import flagged_summary

KIND_ORDER = ("correctness", "jit", "retrace", "structure", "performance", "integrity")


def cause_of(message: str) -> str:
    """The `cause:` line of a failure message, or a short label for one without it."""
    for line in message.splitlines():
        if line.strip().startswith("cause:"):
            return line.strip()[len("cause:"):].strip()
    first = (message.splitlines() or [""])[0]
    if "timed out" in first:
        return "(no cause line) timed out"
    m = re.search(r"raised (\w+)", first)
    if m:
        return f"(no cause line) raised {m.group(1)}"
    return "(no cause line) " + re.sub(r"\d+(\.\d+)?", "N", first.split(" failed:")[0])[:60]


def _collect(ncourse: NbgraderCourse, assignment: str):
    from .gradebook import read_scores
    spec = ncourse.course.assignment(assignment)
    cells = [(c.grade_id, c.exercise, c.kind, c.points) for c in spec.test_cells]
    scores = read_scores(ncourse, assignment)
    results = ncourse.load_results(assignment)
    submitted = set(ncourse.submitted_students(assignment))
    students = sorted(set(scores) | set(results) | submitted)
    return spec, cells, scores, results, students


def _plots(out: Path, totals: list[float], max_score: float, pass_rates: dict, causes: list[tuple[str, int]]):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.5))
    bins = min(20, max(5, int(max_score) + 1)) if max_score else 10
    ax.hist(totals, bins=bins, range=(0, max_score or 1), color="#4c72b0", edgecolor="white")
    ax.set_xlabel(f"score (out of {max_score:g})")
    ax.set_ylabel("students")
    ax.set_title("Scores")
    fig.tight_layout()
    fig.savefig(out / "score_histogram.png", dpi=110)
    plt.close(fig)

    exercises = list(dict.fromkeys(ex for ex, _ in pass_rates))
    kinds = [k for k in KIND_ORDER if any(kind == k for _, kind in pass_rates)]
    fig, ax = plt.subplots(figsize=(max(7, 1.2 * len(exercises) + 2), 4))
    width = 0.8 / max(1, len(kinds))
    for i, kind in enumerate(kinds):
        xs = [j + (i - (len(kinds) - 1) / 2) * width for j in range(len(exercises))]
        ys = [pass_rates.get((ex, kind), float("nan")) * 100 for ex in exercises]
        ax.bar(xs, ys, width=width, label=kind)
    ax.set_xticks(range(len(exercises)))
    ax.set_xticklabels(exercises, rotation=30, ha="right")
    ax.set_ylim(0, 105)
    ax.set_ylabel("% of students passing")
    ax.set_title("Pass rate per exercise and check kind")
    ax.legend(fontsize="small", ncols=min(len(kinds), 4) or 1)
    fig.tight_layout()
    fig.savefig(out / "pass_rate.png", dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(9, 0.45 * max(3, len(causes)) + 1))
    labels = [c if len(c) <= 80 else c[:77] + "..." for c, _ in causes][::-1]
    ax.barh(range(len(causes)), [n for _, n in causes][::-1], color="#dd8452")
    ax.set_yticks(range(len(causes)))
    ax.set_yticklabels(labels, fontsize="small")
    ax.set_xlabel("failed checks")
    ax.set_title("Most common failure causes" if causes else "No failed checks")
    fig.tight_layout()
    fig.savefig(out / "failure_causes.png", dpi=110)
    plt.close(fig)


def write_report(ncourse: NbgraderCourse, assignment: str, out: Path | None = None) -> Path:
    """Write the report; returns the summary page's path."""
    from .gradebook import check_known
    check_known(ncourse, assignment)
    spec, cells, scores, results, students = _collect(ncourse, assignment)
    out = Path(out) if out else ncourse.reports_dir(assignment)
    out.mkdir(parents=True, exist_ok=True)
    max_score = float(sum(points for *_, points in cells))

    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(["student", "graded", "score", "max_score", *[c[0] for c in cells]])
    totals, not_graded = [], []
    for student in students:
        row = scores.get(student)
        if row is None:
            not_graded.append(student)
            writer.writerow([student, "no", "", f"{max_score:g}", *["" for _ in cells]])
            continue
        total = sum(row.get(c[0], 0.0) for c in cells)
        totals.append(total)
        writer.writerow([student, "yes", f"{total:g}", f"{max_score:g}", *[f"{row.get(c[0], 0.0):g}" for c in cells]])
    write_atomically(out / "scores.csv", buf.getvalue())

    exercise_of = {c.grade_id: c.exercise for c in spec.test_cells}
    passed, seen = collections.Counter(), collections.Counter()
    causes = collections.Counter()
    for student, result in results.items():
        if student not in scores:
            continue
        for ex in result.get("exercises", {}).values():
            for c in ex["checks"]:
                if c["kind"] != "integrity":   # (an integrity check exists only when it failed)
                    key = (exercise_of.get(c["name"], c["name"].rsplit("_", 1)[0]), c["kind"])
                    seen[key] += 1
                    passed[key] += bool(c["passed"])
                if not c["passed"]:
                    causes[cause_of(c.get("message", ""))] += 1
    pass_rates = {key: passed[key] / seen[key] for key in seen}
    top_causes = causes.most_common(12)
    _plots(out, totals, max_score, pass_rates, top_causes)

    esc = html.escape
    stats = ""
    if totals:
        stats = (f"{len(totals)} graded; mean {statistics.mean(totals):.2f}, median {statistics.median(totals):g}, "
                 f"min {min(totals):g}, max {max(totals):g} (out of {max_score:g})")
    rows = "".join(f"<tr><td>{n}</td><td>{esc(c)}</td></tr>" for c, n in top_causes)
    similar = flagged_summary(out / "similarity" / "pairs.csv")
    similarity = (f"<p>Similarity: {similar[0]} of {similar[1]} pairs flagged "
                  f"(<a href=\"similarity/similarity.html\">similarity.html</a>).</p>\n") if similar else ""
    page = f"""<!doctype html><html><head><meta charset="utf-8"><title>{esc(assignment)}: class report</title>
<style>body{{font-family:system-ui,sans-serif;max-width:64rem;margin:2rem auto;padding:0 1rem}}
img{{max-width:100%}}td,th{{padding:.25rem .5rem;text-align:left;border-bottom:1px solid #ddd}}</style></head><body>
<h1>{esc(assignment)}: class report</h1>
<p>{len(students)} students: {esc(stats) or "none graded"}.
{f"Not graded: {esc(', '.join(not_graded))}." if not_graded else "Every student is graded."}
Per-student scores: <a href="scores.csv">scores.csv</a>.</p>
{similarity}<h2>Scores</h2><img src="score_histogram.png" alt="score histogram">
<h2>Pass rate per exercise and check kind</h2><img src="pass_rate.png" alt="pass rate per exercise and check kind">
<h2>Most common failure causes</h2><img src="failure_causes.png" alt="most common failure causes">
<table><tr><th>failed checks</th><th>cause</th></tr>{rows}</table>
</body></html>
"""
    write_atomically(out / "summary.html", page)
    return out / "summary.html"

