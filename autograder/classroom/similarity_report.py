"""What `autograder similarity` writes, in `reports/<assignment>/similarity/` (or `--out`):

- `pairs.csv`: every pair of students, highest score first: the pair's score (the larger of the
  notebook's and the best exercise's), the notebook's score, one column per exercise, flagged yes/no;
- `similarity.html`: the flagged pairs, each exercise they share rare code in shown side by side
  with the shared parts highlighted (copydetect's `get_copied_slices` and `highlight_overlap`,
  mapped back from filtered to raw code as copydetect's own report does).

`flagged_summary` reads a pairs.csv back for the class report's one line.
"""
from __future__ import annotations

import csv
import html
import io
from pathlib import Path

import numpy as np

from .nbgrader_course import write_atomically
from .similarity import Fingerprints, Result

PAGE_PAIRS = 100       # flagged pairs drawn on the page (all of them are in pairs.csv)
SHOWN_EXERCISE = 0.05  # an exercise of a flagged pair is drawn when it scores at least this


def write_outputs(result: Result, out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    write_atomically(out / "pairs.csv", _csv(result))
    write_atomically(out / "similarity.html", _page(result))
    return out / "pairs.csv", out / "similarity.html"


def _csv(result: Result) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(["student_a", "student_b", "score", "notebook", *result.exercises, "flagged"])
    score, names, threshold = result.pair_score, result.students, result.settings.threshold
    for i, j in result.pairs():
        writer.writerow([names[i], names[j], f"{score[i, j]:.3f}", f"{result.notebook[i, j]:.3f}",
                         *[f"{result.per_exercise[ex][i, j]:.3f}" for ex in result.exercises],
                         "yes" if score[i, j] >= threshold else "no"])
    return buf.getvalue()


def summary_line(result: Result, shown: str) -> str:
    n = len(result.students)
    flagged = result.flagged()
    top = ""
    if flagged:
        i, j = flagged[0]
        top = f"; top: {result.students[i]} & {result.students[j]} {result.pair_score[i, j]:.2f}"
    skipped = f", {len(result.skipped)} left out" if result.skipped else ""
    pairs = n * (n - 1) // 2
    return (f"similarity {result.assignment}: {n} students{skipped}, {pairs} pair{'s' * (pairs != 1)}, "
            f"{len(flagged)} flagged at >= {result.settings.threshold:g}{top}; "
            f"{shown}/ (pairs.csv, similarity.html)")


def flagged_summary(pairs_csv: Path) -> tuple[int, int] | None:
    """(flagged pairs, all pairs) of a similarity run's pairs.csv; None when there is none."""
    try:
        with open(pairs_csv, newline="") as fh:
            rows = list(csv.DictReader(fh))
    except OSError:
        return None
    return sum(r.get("flagged") == "yes" for r in rows), len(rows)


# ------------------------------------------------------------------ the page
def _highlighted(fp: Fingerprints, shared: list[int]) -> str:
    """The raw code, HTML-escaped, with the parts that hold the shared fingerprints in <mark>."""
    from copydetect.utils import get_copied_slices, highlight_overlap
    if not fp.raw:
        return '<span class="none">(no code)</span>'
    positions = [p for h in shared for p in fp.hash_idx.get(h, [])]
    if not positions:
        return html.escape(fp.raw)
    slices = get_copied_slices(np.array(positions), fp.k)
    if len(fp.offsets) > 0:     # filtered positions -> raw ones, as copydetect.detector.compare_files
        slices = slices + fp.offsets[:, 1][np.clip(np.searchsorted(fp.offsets[:, 0], slices),
                                                   0, fp.offsets.shape[0] - 1)]
    text, _ = highlight_overlap(fp.raw, slices.astype(int), "<mark>", "</mark>", escape_html=True)
    return text


def _pair_section(result: Result, i: int, j: int) -> str:
    a, b = result.students[i], result.students[j]
    esc = html.escape
    parts = [f'<section><h2>{esc(a)} &amp; {esc(b)}: {result.pair_score[i, j]:.2f}</h2>'
             f'<p>notebook {result.notebook[i, j]:.2f}; '
             + ", ".join(f"{esc(ex)} {result.per_exercise[ex][i, j]:.2f}" for ex in result.exercises) + "</p>"]
    order = sorted(result.exercises, key=lambda ex: -result.per_exercise[ex][i, j])
    for ex in order:
        if result.per_exercise[ex][i, j] < SHOWN_EXERCISE:
            continue
        fa, fb = result.prints[a][ex], result.prints[b][ex]
        weights = result.weights[ex]
        shared = [h for h in fa.hash_idx if h in fb.hash_idx and weights.get(h, 0.0) > 0]
        parts.append(f'<h3>{esc(ex)}: {result.per_exercise[ex][i, j]:.2f}</h3><div class="side">'
                     f'<div><h4>{esc(a)}</h4><pre>{_highlighted(fa, shared)}</pre></div>'
                     f'<div><h4>{esc(b)}</h4><pre>{_highlighted(fb, shared)}</pre></div></div>')
    parts.append("</section>")
    return "".join(parts)


def _page(result: Result) -> str:
    esc = html.escape
    s = result.settings
    flagged = result.flagged()
    sections = "".join(_pair_section(result, i, j) for i, j in flagged[:PAGE_PAIRS])
    more = (f"<p>{len(flagged) - PAGE_PAIRS} more flagged pairs are in pairs.csv.</p>"
            if len(flagged) > PAGE_PAIRS else "")
    skipped = ("<p>Left out: " + "; ".join(esc(r) for r in result.skipped) + "</p>") if result.skipped else ""
    body = sections or "<p>No pair reaches the threshold.</p>"
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>{esc(result.assignment)}: similarity</title>
<style>body{{font-family:system-ui,sans-serif;max-width:90rem;margin:2rem auto;padding:0 1rem}}
.side{{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem}}
pre{{background:#f6f6f6;padding:.5rem;overflow-x:auto}}
mark{{background:#ffd54f}}section{{border-top:2px solid #ccc;margin-top:1.5rem}}.none{{color:#888}}</style></head><body>
<h1>{esc(result.assignment)}: similar solutions</h1>
<p>{len(result.students)} students, {len(flagged)} of {len(result.students) * (len(result.students) - 1) // 2}
pairs flagged (score at least {s.threshold:g}). Only the students' solution cells are compared, without the
handed-out code. Marked: code the pair shares that little of the class shares; code most of the class
wrote counts for nothing (k-grams of {s.noise_t} characters of copydetect's filtered code, weighing less
the more students hold them, nothing when more than {s.common_fraction:.0%} of the class and more than
{s.common_min} students do). A high score is a
reason to look, not proof. Every pair's scores: <a href="pairs.csv">pairs.csv</a>.</p>
{skipped}{body}{more}
</body></html>
"""
