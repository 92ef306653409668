"""Text helpers shared by the worker-side facts and the grader-side messages."""
from __future__ import annotations

import re
import unicodedata


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


# What acts on a terminal or on how text is laid out instead of showing as text, by Unicode category:
# controls (Cc: ESC starts a terminal's control sequences, CR rewrites the line, NUL), format marks (Cf:
# bidirectional overrides and isolates, zero-width characters), line and paragraph separators (Zl, Zp)
# and lone surrogates (Cs). Tab and newline stay: messages are laid out with them.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def visible(text: str) -> str:
    """`text` with every character of `_INVISIBLE_CATEGORIES` but tab and newline written as its
    escape (`\\x1b`, `\\u202e`): a message that quotes what student code raised or printed then
    shows it as text wherever the message goes (a terminal, a feedback page, a gradebook), and cannot
    clear a screen, rewrite a line or reorder what the grader wrote."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(c if c in "\n\t" or unicodedata.category(c) not in _INVISIBLE_CATEGORIES
                   else c.encode("unicode_escape", "backslashreplace").decode("ascii") for c in text)


OBJECT_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_SOURCE_PATH = re.compile(r"(?:[A-Za-z]:)?(?:[\\/][^\s\\/:'\"()<>]+)+[\\/]([^\s\\/:'\"()<>]+\.py)\b")


def scrub(text: str) -> str:
    """`text` without what varies between runs and machines: object ids (` at 0x7f..`) and the
    directories of source files (the worker's scratch path); a cell file keeps its name, which is
    the cell's grade_id."""
    return _SOURCE_PATH.sub(r"\1", OBJECT_ADDRESS.sub("", text))




# How much of a description of an exception the explanation rules read (`bounded`)
TEXT_CHARS = 4000          # JAX's message (`text`)
OTHER_CHARS = 1000         # any other string: a line of code, a name, a fix tried
ENTRIES = 64               # entries of one list or dict
DEPTH = 8                  # levels of nesting


def bounded(value, key: str = "", depth: int = 0):
    """A description of an exception (plain data) cut to what the explanation rules read: JAX's message
    to TEXT_CHARS characters, every other string to OTHER_CHARS, ENTRIES entries per list or dict,
    DEPTH levels; anything that is not plain data becomes None.

    The rules' regular expressions cost up to quadratic time in the length of what they read, and a
    description can be as long as the student makes it (a line of 200,000 characters is still one
    line) or forged outright by an untrusted worker. Cut here, explaining one error in the grader
    costs a bounded time, whatever the worker sent and whatever a rule's pattern is."""
    if isinstance(value, str):
        return value[:TEXT_CHARS if key == "text" else OTHER_CHARS]
    if isinstance(value, (bool, int, float)) or value is None:
        return value
    if depth >= DEPTH:
        return None
    if isinstance(value, dict):
        return {k: bounded(v, k, depth + 1) for k, v in list(value.items())[:ENTRIES]
                if isinstance(k, (str, int))}
    if isinstance(value, (list, tuple)):
        return type(value)(bounded(v, key, depth + 1) for v in list(value)[:ENTRIES])
    return None
