"""What a rule reads: `Facts` over a described exception (`facts.describe_exception`), and `Rule`.

Shared by the rule tables of `rules.py` (jit and retrace) and `usage_rules.py` (the rest of JAX's
API: vmap, grad, loops, branches, pytrees, keys, custom rules, shapes).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from .text import bounded


class Facts:
    """Read-only helpers over a description, for the rules' `when`, `cause` and `fix`. Every rule reads
    the description through one, cut to a bounded size first (`text.bounded`): a description may come
    from an untrusted worker, and what a rule's pattern costs grows with what it reads."""

    def __init__(self, desc: dict):
        desc = bounded(desc) if isinstance(desc, dict) else {}
        self.desc = desc
        self.types = set(desc.get("mro") or [desc.get("type", "")])
        self.text = desc.get("text") or desc.get("message", "")
        self.stmt = desc.get("facts") or {}
        self.call = desc.get("call") or {}

    def is_(self, *names) -> bool:
        return any(n in self.types for n in names)

    def says(self, pattern: str) -> bool:
        return re.search(pattern, self.text) is not None

    def group(self, pattern: str, group: int = 1, default: str = "") -> str:
        """A group of `pattern` in JAX's message (multi-line), or `default`."""
        m = re.search(pattern, self.text, re.M | re.S)
        return m.group(group) if m else default

    @property
    def source(self) -> str:
        """The failing line as the student wrote it."""
        return self.stmt.get("at_line", "")

    def calls(self, *prefixes) -> list:
        return [c for c in self.stmt.get("calls", []) if c.startswith(prefixes) or c in prefixes]

    @property
    def traced_code(self) -> str:
        """`jitted code`, or, where the student's lines transform without jit, `code under `jax.vmap``."""
        named = [t for t in self.desc.get("transforms") or [] if t != "jit"]
        if named and not self.stmt.get("jitted_calls"):
            return "code under " + " and ".join(f"`jax.{t}`" for t in named)
        return "jitted code"

    @property
    def kind(self) -> str:
        """The failing statement's kind; for a truth asked of a tracer, the `if`/`while` whose test
        shares the line with its body (`while t: x = f(x)`)."""
        if "TracerBoolConversionError" in self.types and self.stmt.get("header"):
            return self.stmt["header"]
        return self.stmt.get("kind", "")

    @property
    def parsed(self):
        """The failing line as an `ast` module (an empty one where it does not parse alone)."""
        import ast
        try:
            return ast.parse(self.code.strip())
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return ast.parse("")

    @property
    def fn(self) -> str:
        return self.call.get("function") or (self.desc.get("where") or {}).get("function") or "f"

    @property
    def arg(self) -> str:
        """The jit argument the failing value depends on (JAX names it), if any."""
        args = self.desc.get("traced_args") or []
        if args:
            return re.split(r"[\[.]", args[0])[0]
        for name in self.stmt.get("tracers", []):   # JAX did not name it: a traced Python scalar
            if self.given(name) in ("int", "bool", "str"):
                return name
        return ""

    def given(self, name: str) -> str:
        """How argument `name` was passed: 'int', 'float', 'bool', 'str', 'array', 'key', 'static', ...."""
        return (self.call.get("args") or {}).get(name, {}).get("kind", "")

    @property
    def arg_is_python_scalar(self) -> bool:
        return self.given(self.arg) in ("int", "bool", "str")

    @property
    def arg_is_data(self) -> bool:
        return self.given(self.arg) in ("array", "key", "pytree", "float")

    def subscript(self, *containers) -> dict | None:
        tracers = set(self.stmt.get("tracers", []))
        for s in self.stmt.get("subscripts", []):
            if s["container"] in containers and not s["slice"] and (
                    not tracers or any(t in s["index"] for t in tracers) or "int(" in s["index"]):
                return s
        return None

    @property
    def trial(self) -> dict:
        """Which candidate fixes traced on the student's values (`trials.attempt`), or {}."""
        trial = self.desc.get("trial")
        return trial if isinstance(trial, dict) else {}

    @property
    def code(self) -> str:
        return (self.desc.get("where") or {}).get("code", "")

    def line_with(self, old, new) -> str:
        """The failing line with the source of node `old` replaced by `new` (a node, or source text): the
        line's own text elsewhere, its quotes and spacing, is kept (`ast.unparse` of it all would not)."""
        import ast
        line = self.code.strip()
        new = new if isinstance(new, str) else ast.unparse(new)
        return line.replace(ast.get_source_segment(line, old) or ast.unparse(old), new, 1)


@dataclass(frozen=True)
class Rule:
    name: str
    when: Callable[[Facts], bool]
    cause: str | Callable[[Facts], str]
    fix: str | Callable[[Facts], str]


def float_shape(f: Facts) -> str:
    """The concrete shape holding a float that JAX's shape check quotes ('(3.0,)'), or ''."""
    m = re.search(r"Shapes must be 1D sequences of concrete values of integer type, got (\([^()]*\d\.\d*[^()]*\))", f.text)
    return m.group(1) if m else ""


def true_division(f: Facts) -> str:
    """The student's line with its true divisions `/` made floor divisions `//`, or '' when it has none."""
    code = f.stmt.get("at_line") or f.code
    if not re.search(r"(?<![/*])/(?![/=])", code):
        return ""
    return re.sub(r"\s*(?<![/*])/(?![/=])\s*", " // ", code)
