"""Print how often the course's checks tell each real mistake its fix, by pattern.

    .venv/bin/python tests/mistakes/rates.py [--failures] [--heldout]

Runs every case of tests/mistakes/ through `check.assert_jittable` or `check.assert_max_traces`
in this process and prints two Markdown tables (jit failures, retraces): per pattern, how many
messages named the maintainers' fix category, and for jit failures how many quoted the
student's line. Then a third table: JAX's errors outside jit (error_mistakes.py), by family, as a
student's own kernel shows them and as the grader's message says them (error_runs.py).
`--failures` also prints each message that missed. To measure another version of the checks, put
its package first on the path: `PYTHONPATH=/path/to/other/checkout python ...`.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mistakes import corpus, error_runs  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--failures", action="store_true", help="print the messages that missed")
    ap.add_argument("--heldout", action="store_true",
                    help="the held-out cases (heldout_mistakes.py), not the corpus the rules were written against")
    ap.add_argument("--batch", metavar="NAME", action="append",
                    help="errors outside jit of these batches only (sample, heldout, heldout_2, ...), no jit or "
                         "retrace corpus")
    ap.add_argument("--json", metavar="FILE",
                    help="also write, for each case outside jit, its family, batch and where it was told its fix")
    ap.add_argument("--before", metavar="FILE",
                    help="a --json file written by another version of the checks: print both, side by side")
    a = ap.parse_args()
    import autograder
    print(f"checks from {Path(autograder.__file__).parent}")
    jit, retrace = [], []
    if a.batch:
        chosen = error_runs.load(False) + error_runs.load(True)
        told = error_runs.run_all(cases=[c for c in chosen if error_runs.batch_of(c) in a.batch])
    else:
        jit, retrace = corpus.run_all(a.heldout)
        print("\njit failures (check.assert_jittable)\n")
        print(corpus.rate_table(jit, with_line=True))
        print("\nretraces (check.assert_max_traces)\n")
        print(corpus.rate_table(retrace, with_line=False))
        s = corpus.summary(jit, retrace)
        print(f"\njit: {s['jit_cases']} cases, fix {s['jit_fix_rate']:.0%}, line {s['jit_line_rate']:.0%}; "
              f"retrace: {s['retrace_cases']} cases, fix {s['retrace_fix_rate']:.0%}")
        told = error_runs.run_all(a.heldout)
    print("\nerrors outside jit (vmap, grad, loops, branches, pytrees, keys, custom rules, shapes)\n")
    print(error_runs.rate_table(told))
    if a.heldout or a.batch:
        print("\nheld out, by batch\n")
        print(error_runs.rate_table(told, by=lambda t: error_runs.batch_of(t.case)).replace("| family |", "| batch |"))
    if a.json:
        import json
        Path(a.json).write_text(json.dumps([{"case": t.case.name, "family": t.case.family,
                                             "batch": error_runs.batch_of(t.case), "kernel": t.tells("kernel"),
                                             "grader": t.tells("grader"),
                                             "verdict": {w: t.verdict(w) for w in ("kernel", "grader")},
                                             "said": {"kernel": t.kernel, "grader": t.grader}}
                                            for t in told], indent=1))
    if a.before:
        import json
        before = {row["case"]: row for row in json.loads(Path(a.before).read_text())}
        print("\nbefore (the --before file) and after (this run)\n")
        print(error_runs.before_after_table(told, before))
    r = error_runs.rates(told)
    print(f"\nerrors: {len(told)} cases, kernel {r['kernel']:.0%}, grader {r['grader']:.0%}")
    for where in ("kernel", "grader"):
        verdicts = [t.verdict(where) for t in told]
        wrong = [t.case.name for t in told if t.verdict(where) == "wrong"]
        print(f"{where}: told {verdicts.count('told')}, missing {verdicts.count('missing')}, "
              f"wrong {len(wrong)} {wrong if wrong else ''}")
    if a.failures:
        for t in told:
            if t.problems:
                print(f"\n== {t.case.name} ({t.case.family}; {t.case.source}): {'; '.join(t.problems)}\n"
                      f"-- kernel:\n{t.kernel[-1500:]}\n-- grader:\n{t.grader}")
        for o in jit + retrace:
            if o.problems:
                print(f"\n== {o.case.name} ({o.case.pattern}; {o.case.source}): {'; '.join(o.problems)}\n"
                      f"{o.message}")


if __name__ == "__main__":
    main()
