"""The floor of grading one notebook, shared by the speed benchmarks.

The floor is one plain Python process that runs every code cell of the source notebook (solutions
and all tests) once, in order, in one namespace: what the notebook costs with no grader at all.
It reads the notebook as plain JSON, not with nbformat: importing nbformat pulls in jsonschema's
IRI checker (about 0.9 s of Lark grammars), which would pad the floor with work that is not the
notebook's.
"""
from __future__ import annotations

import sys

SCRIPT = ("import json, sys\n"
          "cells = json.load(open(sys.argv[1], encoding='utf-8'))['cells']\n"
          "ns = {'__name__': '__main__'}\n"
          "for cell in cells:\n"
          "    if cell['cell_type'] == 'code':\n"
          "        source = cell['source']\n"
          "        source = ''.join(source) if isinstance(source, list) else source\n"
          "        exec(compile(source, '<cell>', 'exec'), ns)\n")


def floor_command(notebook) -> list[str]:
    """The command that runs `notebook`'s floor."""
    return [sys.executable, "-c", SCRIPT, str(notebook)]
