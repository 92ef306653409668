"""Text helpers shared by the worker-side facts and the grader-side messages."""
from __future__ import annotations

import re


def shorten(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters at a sentence or word boundary, with an ellipsis."""
    text = text.strip()
    if len(text) <= limit:
        return text
    head = text[:limit]
    cut = max(head.rfind(". "), head.rfind(".\n"), head.rfind("\n"))
    if cut < limit // 2:                      # no sentence end late enough: cut at a word
        cut = head.rfind(" ")
        if cut < limit // 2:
            cut = limit
        return head[:cut].rstrip(" ,;:") + " …"
    return head[:cut + 1].rstrip() + " …"


OBJECT_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_SOURCE_PATH = re.compile(r"(?:[A-Za-z]:)?(?:[\\/][^\s\\/:'\"()<>]+)+[\\/]([^\s\\/:'\"()<>]+\.py)\b")


def scrub(text: str) -> str:
    """`text` without what varies between runs and machines: object ids (` at 0x7f..`) and the
    directories of source files (the worker's scratch path); a cell file keeps its name, which is
    the cell's grade_id."""
    return _SOURCE_PATH.sub(r"\1", OBJECT_ADDRESS.sub("", text))


