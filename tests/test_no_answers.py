"""No answer reaches the student through the release: nothing from a solution or hidden-test region of
source/ appears in what a student sees (narrative, demos, stubs, visible tests and their `fix=` texts).

Two rules, per assignment:

1. **Lines.** Every line of 20 or more characters (stripped) from a `### BEGIN SOLUTION` or
   `### BEGIN HIDDEN TESTS` region of source/ must not occur in any cell of the release, compared with
   all whitespace removed and quotes unified (so `x.mean( axis=0 )` is the same line as `x.mean(axis=0)`).
2. **Near-copies of reference expressions.** A one-line answer can leak in a shorter or renamed form:
   `jax.vmap(f, in_axes=(None, 0))` gives away `jax.vmap(mlp_forward, in_axes=(None, 0))(params, xs)`,
   and a fix string can quote the reference expression without its `return`. So every expression a
   solution computes (a `return` value, the right-hand side of an assignment) is reduced to a token
   pattern in which the names the student chooses (functions, arguments, locals) and plain numbers
   become a placeholder, while the API (`jax`, `vmap`, attribute names, keyword names and their
   values) stays. The pattern, and the pattern with a trailing call or index on a call result removed
   (`jax.vmap(...)` of `jax.vmap(...)(params, xs)`), must not occur in the release. Only patterns of
   eight or more tokens that combine at least two pieces of API (two functions, a function and a
   lambda, a slice or a structured keyword value such as `in_axes=(None, 0)`) count: a lone API call
   such as `jax.random.split(key, n)` is how the narrative teaches a tool, and `x + shift` or
   `return out, count` are too generic to give anything away.

A hidden-test line that the visible test code of source/ also shows (`max_traces=1, what="ema")`) is
public anyway; solution lines never are.
"""
from __future__ import annotations

import ast
import builtins
import json
import keyword
import re
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MIN_LINE = 20
MIN_TOKENS = 8
MIN_SPECIFICITY = 2
REGION = re.compile(r"### BEGIN (SOLUTION|HIDDEN TESTS)[^\n]*\n(.*?)### END \1", re.S)
TOKEN = re.compile(r"[A-Za-z_]\w*|\d+(?:\.\d*)?(?:e[-+]?\d+)?|\*\*|//|==|!=|<=|>=|->|\S")
KEEP = ({"jax", "jnp", "lax", "np", "numpy", "math", "functools", "partial", "optax"}
        | set(keyword.kwlist) | {n for n in dir(builtins) if not n.startswith("_")})


def _cells(path: Path) -> list[dict]:
    cells = json.loads(path.read_text())["cells"]
    for c in cells:
        c["text"] = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
        c["grade_id"] = c.get("metadata", {}).get("nbgrader", {}).get("grade_id", "?")
    return cells


def regions(cell_text: str) -> list[tuple[str, str]]:
    """(kind, body) of every solution / hidden-test region of a cell."""
    return [(m.group(1), m.group(2)) for m in REGION.finditer(cell_text)]


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text).replace("'", '"')


# ---------------------------------------------------------------- rule 1: lines
def _visible_test_code(source_cells: list[dict]) -> str:
    """What the source's graded test cells show outside their hidden regions, flattened."""
    tests = [c["text"] for c in source_cells if c.get("metadata", {}).get("nbgrader", {}).get("grade")]
    return _flat("\n".join(REGION.sub("", t) for t in tests))


def answer_lines(source_cells: list[dict]) -> dict[str, str]:
    """Normalised line -> where it comes from, for every long line of a solution or hidden region
    (hidden-test lines that the visible test code shows anyway excepted)."""
    public = _visible_test_code(source_cells)
    lines = {}
    for c in source_cells:
        for kind, body in regions(c["text"]):
            for line in body.splitlines():
                line = line.strip()
                flat = _flat(line)
                if len(line) >= MIN_LINE and not (kind == "HIDDEN TESTS" and flat in public):
                    lines.setdefault(flat, f"{c['grade_id']} ({kind.lower()}): {line}")
    return lines


def leaked_lines(source_cells, release_cells) -> list[str]:
    found = []
    lines = answer_lines(source_cells)
    for c in release_cells:
        flat = _flat(c["text"])
        found += [f"release cell {c['grade_id']} contains {origin!r}" for line, origin in lines.items()
                  if line in flat]
    return found


# ---------------------------------------------------------------- rule 2: near-copies
def pattern(text: str) -> list[str]:
    """Tokens with the names a student chooses and plain numbers replaced by '_'."""
    raw = ['"' if t == "'" else t for t in TOKEN.findall(text)]
    out, keyword_value = [], []          # a stack: is this bracket the value of a keyword argument?
    for i, tok in enumerate(raw):
        before = raw[i - 1] if i else ""
        after = raw[i + 1] if i + 1 < len(raw) else ""
        if tok in "([{":
            keyword_value.append(before == "=")
        elif tok in ")]}" and keyword_value:
            keyword_value.pop()
        kept_value = before == "=" or (keyword_value and keyword_value[-1])
        if tok[0].isalpha() or tok[0] == "_":
            keep = tok in KEEP or before == "." or after == "="
            out.append(tok if keep else "_")
        elif tok[0].isdigit():
            out.append(tok if kept_value else "_")
        else:
            out.append(tok)
    return out


def specificity(tokens: list[str]) -> int:
    """How many pieces of API a pattern combines: functions or attributes it uses (the last name of
    each dotted chain), lambdas, slices, and bracketed keyword values (`in_axes=(None, 0)`). A plain
    keyword value (`dtype=jnp.float32`, `has_aux=True`) is configuration and does not count."""
    score, brackets, i = 0, [], 0
    while i < len(tokens):
        tok = tokens[i]
        before = tokens[i - 1] if i else ""
        if tok in "([{":
            brackets.append(tok)
            score += before == "="
        elif tok in ")]}" and brackets:
            brackets.pop()
        elif tok == "lambda" or (tok == ":" and brackets and brackets[-1] == "["):
            score += 1
        elif before == "=" and _is_name(tok):        # skip the keyword value's dotted chain
            while i + 2 < len(tokens) and tokens[i + 1] == "." and _is_name(tokens[i + 2]):
                i += 2
        elif _is_name(tok) and not keyword.iskeyword(tok) and (tokens[i + 1] if i + 1 < len(tokens) else "") \
                not in (".", "="):
            score += 1
        i += 1
    return score


def _is_name(tok: str) -> bool:
    return tok != "_" and (tok[0].isalpha() or tok[0] == "_")


def _strip_trailing(tokens: list[str]) -> list[str] | None:
    """`A(...)(b, c)` -> `A(...)`, `A(...)[1]` -> `A(...)`; None when there is no such postfix."""
    if not tokens or tokens[-1] not in ")]":
        return None
    closer, opener, depth = tokens[-1], {")": "(", "]": "["}[tokens[-1]], 0
    for i in range(len(tokens) - 1, -1, -1):
        if tokens[i] == closer:
            depth += 1
        elif tokens[i] == opener:
            depth -= 1
            if depth == 0:
                return tokens[:i] if i > 0 and tokens[i - 1] in ")]" else None
    return None


def reference_expressions(source_cells: list[dict]) -> list[tuple[str, str]]:
    """(exercise, expression source) of every value a solution region returns or assigns."""
    found = []
    for c in source_cells:
        for kind, body in regions(c["text"]):
            if kind != "SOLUTION":
                continue
            code = textwrap.dedent(body)
            try:
                tree = ast.parse("def _wrapper():\n" + textwrap.indent(code, "    "))
            except SyntaxError:
                tree = ast.parse(code)
            for node in ast.walk(tree):
                value = getattr(node, "value", None) if isinstance(node, (ast.Return, ast.Assign, ast.AugAssign,
                                                                           ast.AnnAssign, ast.Expr)) else None
                if value is not None and not isinstance(value, ast.Constant):
                    found.append((c["grade_id"], ast.unparse(value)))
    return found


def reference_patterns(source_cells) -> list[tuple[str, str, list[str]]]:
    """(exercise, expression, token pattern) for every pattern specific enough to count."""
    out = []
    for exercise, expr in reference_expressions(source_cells):
        tokens = pattern(expr)
        while tokens is not None:
            if len(tokens) >= MIN_TOKENS and specificity(tokens) >= MIN_SPECIFICITY:
                out.append((exercise, expr, tokens))
            tokens = _strip_trailing(tokens)
    return out


def _contains(haystack: list[str], needle: list[str]) -> bool:
    n = len(needle)
    first = needle[0]
    return any(haystack[i] == first and haystack[i:i + n] == needle for i in range(len(haystack) - n + 1))


def near_copies(source_cells, release_cells) -> list[str]:
    found = []
    patterns = reference_patterns(source_cells)
    for c in release_cells:
        tokens = pattern(c["text"])
        for exercise, expr, needle in patterns:
            if _contains(tokens, needle):
                found.append(f"release cell {c['grade_id']} contains {' '.join(needle)!r}, "
                             f"a near-copy of {exercise}'s `{expr}`")
    return found


def _assignments() -> list[str]:
    return sorted(p.name for p in (ROOT / "source").iterdir() if (p / f"{p.name}.ipynb").exists())


@pytest.mark.parametrize("assignment", _assignments())
def test_release_hands_out_no_answer(assignment):
    source = _cells(ROOT / "source" / assignment / f"{assignment}.ipynb")
    release = _cells(ROOT / "release" / assignment / f"{assignment}.ipynb")
    problems = sorted(set(leaked_lines(source, release) + near_copies(source, release)))
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- the detector itself
def _nb(*cells):
    return [{"text": text, "grade_id": gid, "metadata": {"nbgrader": {"grade": gid.endswith("correctness")}}}
            for gid, text in cells]


SOURCE = _nb(
    ("mlp_forward_batch", "def mlp_forward_batch(params, xs):\n    ### BEGIN SOLUTION\n"
                          "    return jax.vmap(mlp_forward, in_axes=(None, 0))(params, xs)\n    ### END SOLUTION\n"),
    ("hvp", "def hvp(f, x, v):\n    ### BEGIN SOLUTION\n    return jax.jvp(jax.grad(f), (x,), (v,))[1]\n"
            "    ### END SOLUTION\n"),
    ("shifted", "def shifted(x, shift):\n    ### BEGIN SOLUTION\n    return x + shift\n    ### END SOLUTION\n"),
    ("ema", "def ema(x, alpha):\n    ### BEGIN SOLUTION\n    def step(prev, x_t):\n"
            "        y_t = alpha * x_t + (1 - alpha) * prev\n        return y_t, y_t\n"
            "    _, rest = lax.scan(step, x[0], x[1:])\n    return jnp.concatenate([x[:1], rest], axis=0)\n"
            "    ### END SOLUTION\n"),
    ("hvp_correctness", "check.assert_close(hvp(f, x, v), h, what='hvp(f, x, v) on a quadratic')\n"
                        "### BEGIN HIDDEN TESTS\n"
                        "_secret = jnp.asarray(_rng.normal(size=(4, 3)), jnp.float32)\n"
                        "check.assert_close(hvp(f, x, v), h, what='hvp(f, x, v) on a quadratic')\n"
                        "### END HIDDEN TESTS\n"),
)


@pytest.mark.parametrize("text", [
    "Batch it: `jax.vmap(f, in_axes=(None, 0))` maps over the rows.",               # renamed, no call
    "fix='batch with `jax.vmap(mlp_forward,in_axes=(None,0))(params, xs)`'",        # fix string, spacing
    "H @ v is the tangent output of jax.jvp(jax.grad(g), (y,), (w,))",               # renamed, no [1]
    "return jax.jvp(jax.grad(f), (x,), (v,))[1]",                                    # verbatim
    "_secret = jnp.asarray(_rng.normal(size=(4, 3)), jnp.float32)",                  # a hidden-test line
    "fix='loop with `lax.scan(step, x[0], x[1:])`'",                                 # part of a statement
])
def test_detector_finds_a_leak(text):
    release = _nb(("md_leak", text))
    assert leaked_lines(SOURCE, release) + near_copies(SOURCE, release)


@pytest.mark.parametrize("text", [
    "Batch the first argument and share the second: `jax.vmap(dist, in_axes=(0, None))(points, c)`.",
    "`jax.jvp(f, (x,), (v,))` pushes a tangent forward; `jax.grad` pulls a cotangent back.",
    "Return `x + shift`: the shift is an argument now.",                             # too short to count
    "check.assert_close(hvp(f, x, v), h, what='hvp(f, x, v) on a quadratic')",      # visible test code
    "keys = jax.random.split(key, 3); jax.value_and_grad(loss, has_aux=True)(w)",    # single API calls
    "jnp.asarray(x, dtype=jnp.float32)",                                             # one call, a dtype
])
def test_detector_lets_other_examples_through(text):
    release = _nb(("md_fine", text))
    assert leaked_lines(SOURCE, release) + near_copies(SOURCE, release) == []
