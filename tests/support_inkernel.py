"""Development aid: run a notebook in a Jupyter kernel (as nbgrader does) and report each graded cell.

    .venv/bin/python tests/support_inkernel.py NOTEBOOK [--replace EXERCISE=FILE ...]

Prints `grade_id: PASS|FAIL first line of the error` for every graded test cell.
"""
import argparse
import sys

import nbclient
import nbformat


def run(nb, timeout=120):
    client = nbclient.NotebookClient(nb, timeout=timeout, allow_errors=True, kernel_name="python3")
    client.execute()
    report = {}
    for c in nb.cells:
        meta = c.get("metadata", {}).get("nbgrader", {})
        if c.cell_type == "code" and meta.get("grade") and not meta.get("solution"):
            errs = [o for o in c.get("outputs", []) if o.get("output_type") == "error"]
            report[meta["grade_id"]] = (not errs, (errs[0]["ename"] + ": " + errs[0]["evalue"]) if errs else "")
    return report


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("notebook")
    ap.add_argument("--replace", action="append", default=[], help="EXERCISE=FILE with the new solution cell source")
    a = ap.parse_args()
    nb = nbformat.read(a.notebook, as_version=4)
    for spec in a.replace:
        ex, path = spec.split("=", 1)
        for c in nb.cells:
            if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == ex:
                c.source = open(path).read()
    for gid, (ok, err) in run(nb).items():
        print(f"{gid}: {'PASS' if ok else 'FAIL ' + err.splitlines()[0][:300] if err else 'FAIL'}")
    sys.exit(0)
