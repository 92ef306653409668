"""The docs tested like code (issue 37, item 5). Reads README.md and docs/*.md, runs nothing:

- every `autograder ...` command (also `.venv/bin/autograder`, `$V/autograder`, `python -m
  autograder.cli`) in a code block or inline code: its subcommands and `--flags` exist in the CLI's
  own argparse parser (`autograder.cli._parser`), and every `--flag` a help text names is an option
  of that same subcommand;
- every `make TARGET [VAR=...]`: the target is in the Makefile, the variable is read by the Makefile
  or by the package;
- every repository path the docs name (`autograder/checks/trials.py`, `tests/...`, `sandbox/...`
  under autograder/, markdown links) exists, every link's anchor is a heading, and every "section N"
  or quoted section title points at a heading that exists;
- figures repeated in several files agree with their one source: the attack counts (the corpora in
  tests/hostile/), the Python version (`requires-python` of pyproject.toml), the pinned versions;
- every package's `__init__.py` names each of its modules (docs/ARCHITECTURE.md says so).

Each check is a function of text, so that the last part of this file can show that it fails on a
fake doc line with the mistake it is there to catch.
"""
from __future__ import annotations

import argparse
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PACKAGE = ROOT / "autograder"


# ---------------------------------------------------------------- reading markdown

FENCE = re.compile(r"^\s*```")


def code_pieces(text: str) -> list[tuple[int, str]]:
    """(line number, text) of every code-block line and every inline code span (a span may run over
    a line break inside its paragraph; it is joined with a space)."""
    pieces, prose, inside = [], [], False
    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            inside = not inside
            prose.append("")
            continue
        if inside:
            pieces.append((n, line))
            prose.append("")
        else:
            prose.append(line)
    joined = "\n".join(prose)
    for m in re.finditer(r"`([^`]+)`", joined):
        if "\n\n" not in m.group(1):
            pieces.append((joined.count("\n", 0, m.start()) + 1, " ".join(m.group(1).split())))
    return pieces


def headings(text: str) -> list[str]:
    """The text of every heading, markdown marks (`, *) removed."""
    out, inside = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            inside = not inside
        elif not inside and (m := re.match(r"#{1,6}\s+(.*)", line)):
            out.append(m.group(1).replace("`", "").replace("*", "").strip())
    return out


def slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


# ---------------------------------------------------------------- autograder commands

COMMAND = re.compile(r"(?<![\w./\-\[:$])(?<!from )(?<!import )(?:[^\s`]*/)?"
                     r"(?:autograder|python3?\s+-m\s+autograder\.cli)(?=\s)")
END = re.compile(r"\s#|&&|\|\||;|\s\|\s|`")


def commands(piece: str) -> list[list[str]]:
    """The words after each `autograder` of a code piece, up to a comment, `&&`, `;` or a pipe."""
    found = []
    for m in COMMAND.finditer(piece):
        rest = piece[m.end():]
        end = END.search(rest)
        found.append((rest[:end.start()] if end else rest).split())
    return found


def _subparsers(parser) -> dict:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    return {}


def _clean(word: str) -> str:
    return word.strip("[](){}\"',;:.")


def command_problems(words: list[str], parser) -> list[str]:
    """What is wrong with `autograder WORDS` for `parser`: an unknown subcommand (or platform), a
    flag the subcommand lacks. `a|b` stands for two subcommands, each must exist."""
    parsers, problems, i = [parser], [], 0
    while i < len(words) and _subparsers(parsers[0]):
        word = _clean(words[i])
        if word.startswith("-"):
            break
        choices = _subparsers(parsers[0])
        unknown = [w for w in word.split("|") if w not in choices]
        if unknown:
            return [f"unknown subcommand {word!r} (known: {', '.join(choices)})"]
        parsers = [choices[w] for w in word.split("|")]
        i += 1
    for word in words[i:]:
        m = re.match(r"--[A-Za-z0-9][\w-]*", _clean(word))
        if not m:
            continue
        for p in parsers:
            if m.group(0) not in p._option_string_actions:
                problems.append(f"{p.prog}: no option {m.group(0)}")
    return problems


def doc_command_problems(text: str, parser) -> list[str]:
    return [f"line {n}: `autograder {' '.join(words)}`: {problem}"
            for n, piece in code_pieces(text) for words in commands(piece)
            for problem in command_problems(words, parser)]


def help_problems(parser) -> list[str]:
    """Every `--flag` named in a help text of a (sub)command is an option of that command."""
    problems, todo = [], [parser]
    while todo:
        p = todo.pop()
        todo.extend(_subparsers(p).values())
        for action in p._actions:
            for flag in re.findall(r"--[A-Za-z0-9][\w-]*", action.help or ""):
                if flag not in p._option_string_actions:
                    problems.append(f"{p.prog} {'/'.join(action.option_strings) or action.dest}: "
                                    f"its help names {flag}, which `{p.prog}` lacks")
    return problems


@pytest.fixture(scope="module")
def parser():
    from autograder.cli import _parser
    return _parser()


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_autograder_command_in_the_docs_parses(doc, parser):
    problems = doc_command_problems(doc.read_text(), parser)
    assert not problems, "\n".join(problems)


def test_the_docs_hold_autograder_commands(parser):
    """Guards the reader: a change that stopped it from finding commands would pass everything."""
    found = [words for doc in DOCS for _, piece in code_pieces(doc.read_text()) for words in commands(piece)]
    assert len(found) > 30, found
    assert {"grade", "autograde", "selftest", "export", "similarity"} <= {w[0] for w in found if w}


def test_help_texts_name_only_their_own_options(parser):
    problems = help_problems(parser)
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- make

# `make` as a command: at the start of a code piece, or after `&&` / `;` (not "make it static")
MAKE = re.compile(r"(?:^|&&|;)\s*make\s+(?=\S*[A-Za-z])([\w./-]+)((?:\s+[A-Z_][A-Z0-9_]*=\S*)*)")


def makefile_targets(makefile: str) -> set[str]:
    """The Makefile's targets, its simple variables (`A := b`, `A ?= b`) expanded."""
    variables = dict(re.findall(r"^([A-Z_][A-Z0-9_]*)\s*[:?]?=\s*(.*?)\s*$", makefile, re.M))

    def expand(text):
        for _ in range(5):
            text = re.sub(r"\$\((\w+)\)", lambda m: variables.get(m.group(1), m.group(0)), text)
        return text
    targets = set()
    for line in makefile.splitlines():
        if (m := re.match(r"^([^\s#=:][^=:]*):(?!=)", line)) and not line.startswith("."):
            targets.update(expand(m.group(1)).split())
    return targets


def package_environment_names() -> str:
    return "\n".join(p.read_text() for p in PACKAGE.rglob("*.py"))


def make_problems(text: str, makefile: str, sources: str) -> list[str]:
    """Unknown targets of `make X`, and `VAR=...` that neither the Makefile nor the package reads."""
    targets, problems = makefile_targets(makefile), []
    for n, piece in code_pieces(text):
        for m in MAKE.finditer(piece):
            if m.group(1) not in targets:
                problems.append(f"line {n}: `make {m.group(1)}`: no such target in the Makefile")
            for var in re.findall(r"([A-Z_][A-Z0-9_]*)=", m.group(2)):
                if f"$({var})" not in makefile and f'"{var}"' not in sources:
                    problems.append(f"line {n}: `make {m.group(1)} {var}=...`: nothing reads {var}")
    return problems


@pytest.fixture(scope="module")
def makefile():
    return (ROOT / "Makefile").read_text()


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_make_line_names_a_target(doc, makefile):
    problems = make_problems(doc.read_text(), makefile, package_environment_names())
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- paths and references

TOP = ("autograder", "tests", "docs", "source", "release", "benchmarks", "examples")
SUBPACKAGES = tuple(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists())
REPO_PATH = re.compile(r"(?<![\w./~$<>@:-])((?:%s)/[\w./*<>{}-]*)" % "|".join(TOP))
PACKAGE_PATH = re.compile(r"(?<![\w./~$<>@:-])((?:%s)/[\w.-]+\.py)\b" % "|".join(SUBPACKAGES))
LINK = re.compile(r"\]\(([^)\s]+)\)")
# Paths the docs name that are not this repository's, each with where it is.
NOT_OURS = {"tests/run_grader.py": "inside the PrairieLearn question folder the export writes"}


def path_problems(text: str, doc: Path, root: Path = ROOT) -> list[str]:
    """Repository paths the doc names that do not exist (a placeholder's prefix must), and links
    whose file or anchor does not."""
    problems = []
    lines = text.splitlines()
    for n, line in enumerate(lines, 1):
        for m in REPO_PATH.finditer(line):
            path = m.group(1).rstrip(".,:;)")
            if path in NOT_OURS:
                continue
            fixed = re.split(r"[<*{]", path)[0]
            if fixed != path:
                fixed = fixed[:fixed.rfind("/") + 1]
            if not (root / fixed).exists():
                problems.append(f"line {n}: {path}: no such file or folder")
        for m in PACKAGE_PATH.finditer(line):
            if not (root / "autograder" / m.group(1)).exists():
                problems.append(f"line {n}: {m.group(1)}: no such module under autograder/")
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            where = (doc.parent / file) if file else doc
            if not where.exists():
                problems.append(f"line {n}: link {target}: no such file")
            elif anchor and anchor not in {slug(h) for h in headings(where.read_text())}:
                problems.append(f"line {n}: link {target}: no heading with that anchor")
    return problems


SECTION = re.compile(r"(?:([\w./-]+\.md),\s+)?section (\d+)")
TITLE = re.compile(r"(?:([\w./-]+\.md),\s*|\bsee\s+|section \d+,\s*)\"([^\"]+)\"")


def reference_problems(text: str, doc: Path, root: Path = ROOT) -> list[str]:
    """"section N" and quoted section titles ("see "X"", `X.md, "Y"`) that name no heading of the
    doc they point at (the one named before them, else their own)."""
    problems = []

    def target(name):
        if not name:
            return doc
        for base in (doc.parent, root, root / "docs"):
            if (base / name).exists():
                return base / name
        return None
    flat = " ".join(text.split())
    for m in SECTION.finditer(flat):
        where = target(m.group(1))
        if where is None or not any(re.match(rf"{m.group(2)}\.\s", h) for h in headings(where.read_text())):
            problems.append(f"{m.group(0)!r}: no heading '{m.group(2)}. ...' in {m.group(1) or doc.name}")
    for m in TITLE.finditer(flat):
        where, title = target(m.group(1)), m.group(2).replace("`", "")
        if where is None or not any(h.startswith(title) for h in headings(where.read_text())):
            problems.append(f"{m.group(0)!r}: no heading starting {title!r} in {m.group(1) or doc.name}")
    return problems


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_path_the_docs_name_exists(doc):
    problems = path_problems(doc.read_text(), doc)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_section_reference_has_its_heading(doc):
    problems = reference_problems(doc.read_text(), doc)
    assert not problems, "\n".join(problems)


def test_nbgrader_config_names_a_section_that_exists():
    """The course's nbgrader_config.py sends its reader to a section of docs/SECURITY.md."""
    m = re.search(r'docs/SECURITY.md \("([^"]+)"\)', " ".join((ROOT / "nbgrader_config.py").read_text().split()))
    assert m, "nbgrader_config.py no longer names its section of docs/SECURITY.md"
    security = (ROOT / "docs" / "SECURITY.md").read_text()
    assert " ".join(m.group(1).split()) in " ".join(security.replace("*", "").split())


# ---------------------------------------------------------------- figures repeated in several files

def attack_counts() -> dict[str, int]:
    from hostile import boundary, corpus, trust
    counts = {"boundary": len(boundary.ATTACKS) + len(boundary.READER_ATTACKS),
              "corpus": len(corpus.ATTACKS), "trust": len(trust.ATTACKS)}
    counts["all"] = sum(counts.values())
    return counts


# Every "N attacks" of the docs, and what N counts. A new figure must be added here.
ATTACK_CLAIMS = (
    (r"red-team corpus of (\d+) attacks", "all"),
    (r"\((\d+) attacks? of them on\b|\((\d+) of them on", "trust"),
    (r"`tests/hostile/boundary\.py` holds (\d+) attacks", "boundary"),
    (r"(\d+) attacks on the process in `tests/hostile/corpus\.py`", "corpus"),
    (r"`tests/test_boundary\.py`\): (\d+) attacks", "boundary"),
)


def attack_count_problems(texts: dict[str, str], counts: dict[str, int]) -> list[str]:
    problems, seen = [], set()
    for name, text in texts.items():
        flat, checked = " ".join(text.split()), set()
        for pattern, what in ATTACK_CLAIMS:
            for m in re.finditer(pattern, flat):
                seen.add(pattern)
                group = next(i for i, g in enumerate(m.groups(), 1) if g)
                checked.add(m.start(group))
                if int(m.group(group)) != counts[what]:
                    problems.append(f"{name}: {m.group(0)!r}: {m.group(group)}, but the {what} corpus "
                                    f"holds {counts[what]}")
        for m in re.finditer(r"\b(\d+) attacks\b", flat):
            if m.start(1) not in checked:
                problems.append(f"{name}: {flat[max(0, m.start() - 60):m.end() + 20]!r}: an attack count "
                                f"that no pattern of ATTACK_CLAIMS checks")
    problems += [f"no doc says {p!r} any more: update ATTACK_CLAIMS" for p, _ in ATTACK_CLAIMS if p not in seen]
    return problems


def test_attack_counts_agree_with_the_corpora():
    problems = attack_count_problems({d.name: d.read_text() for d in DOCS}, attack_counts())
    assert not problems, "\n".join(problems)


def pyproject() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)["project"]


PYTHON_CLAIM = re.compile(r"\b3\.(\d+) or newer|>=\s*3\.(\d+)\b|\b3\.(\d+)\+")
# Where the minimum Python is stated beside the docs: the kit's README, the Gradescope setup.
PYTHON_FILES = [*DOCS, PACKAGE / "kit" / "student_kit.py", PACKAGE / "platforms" / "gradescope.py"]


def python_problems(texts: dict[str, str], requires: str) -> list[str]:
    minimum = int(re.fullmatch(r">=\s*3\.(\d+)", requires).group(1))
    return [f"{name}: {m.group(0)!r}, but pyproject.toml requires-python is {requires!r}"
            for name, text in texts.items() for m in PYTHON_CLAIM.finditer(text)
            if int(next(g for g in m.groups() if g)) != minimum]


def test_the_python_version_agrees_with_pyproject():
    texts = {p.name: p.read_text() for p in PYTHON_FILES}
    assert any(PYTHON_CLAIM.search(t) for t in texts.values())
    problems = python_problems(texts, pyproject()["requires-python"])
    assert not problems, "\n".join(problems)


def pins() -> dict[str, str]:
    return dict(re.match(r"([\w-]+)==(\S+)", d).groups() for d in pyproject()["dependencies"])


def pin_problems(texts: dict[str, str], pinned: dict[str, str]) -> list[str]:
    """`jax/jaxlib X` anywhere, and each `name X` of a `(pinned: ...)` list, is the pin."""
    problems = []
    for name, text in texts.items():
        flat = " ".join(text.split())
        for m in re.finditer(r"jax/jaxlib (\d+\.\d+\.\d+)", flat):
            if m.group(1) != pinned["jax"] or m.group(1) != pinned["jaxlib"]:
                problems.append(f"{name}: {m.group(0)!r}, but the pins are jax {pinned['jax']}, jaxlib {pinned['jaxlib']}")
        for m in re.finditer(r"pinned: ([^;)]*)", flat):
            for package, version in re.findall(r"([\w-]+) (\d+\.\d+\.\d+)", m.group(1)):
                if package != "jaxlib" and pinned.get(package) != version:
                    problems.append(f"{name}: pinned {package} {version}, but pyproject.toml pins {pinned.get(package)}")
    return problems


def test_pinned_versions_in_the_docs_are_the_pins():
    problems = pin_problems({d.name: d.read_text() for d in DOCS}, pins())
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- package docstrings

def docstring_problems(package: Path, pending: set = frozenset()) -> list[str]:
    import ast
    doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text())) or ""
    named = set(re.findall(r"`(\w+)`", doc))
    modules = {p.stem for p in package.glob("*.py") if p.name != "__init__.py"}
    modules |= {p.name for p in package.iterdir() if (p / "__init__.py").exists()}
    return [f"{package.name}/__init__.py does not name `{m}`" for m in sorted(modules - named - set(pending))]


@pytest.mark.parametrize("package", [PACKAGE, *sorted(PACKAGE / p for p in SUBPACKAGES)], ids=lambda p: p.name)
def test_every_package_docstring_names_its_modules(package):
    problems = docstring_problems(package)
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- each check can fail

def test_an_unknown_subcommand_or_flag_fails(parser):
    assert doc_command_problems("Run `autograder grade NB --json OUT`.", parser) == []
    assert doc_command_problems("```sh\n.venv/bin/autograder grade x.ipynb --json o --bogus-flag 3\n```", parser)
    assert doc_command_problems("`autograder regrade 02_static_shapes`", parser)
    assert doc_command_problems("`python -m autograder.cli export moodle A --out x`", parser)
    assert doc_command_problems("`autograder export gradescope|moodle`", parser)
    # a flag of another subcommand: `check` has no --jobs
    assert doc_command_problems("```sh\n$V/autograder check nb.ipynb --jobs 2   # a comment --ignored\n```", parser)
    # what follows a comment or `&&` is not the command's
    problems = doc_command_problems("```sh\n$V/autograder report A  # then --whatever\n```", parser)
    assert not problems, "\n".join(problems)


def test_a_help_text_naming_another_commands_flag_fails():
    ap = argparse.ArgumentParser(prog="autograder")
    sub = ap.add_subparsers(dest="command")
    s = sub.add_parser("selftest")
    s.add_argument("--memory-limit", help="how --memory-mb is enforced")
    assert help_problems(ap)
    s.add_argument("--memory-mb", help="the cap")
    problems = help_problems(ap)
    assert not problems, "\n".join(problems)


def test_an_unknown_make_target_or_variable_fails(makefile):
    problems = make_problems("`make demo ASSIGNMENTS=01_jax_basics`", makefile, package_environment_names())
    assert not problems, "\n".join(problems)
    problems = make_problems("```sh\nmake .venv/.installed   # the venv\n```", makefile, "")
    assert not problems, "\n".join(problems)
    assert make_problems("```sh\nmake docs\n```", makefile, "")
    assert make_problems("`make selftest NO_SUCH_VARIABLE=1`", makefile, package_environment_names())


def test_a_missing_path_link_or_anchor_fails(tmp_path):
    doc = ROOT / "docs" / "INSTRUCTORS.md"
    problems = path_problems("see `autograder/checks/trials.py` and sandbox/seccomp.py, `tests/cases/<a>.py`", doc)
    assert not problems, "\n".join(problems)
    assert path_problems("see `autograder/checks/no_such_module.py`", doc)
    assert path_problems("the checks in grading/no_such.py", doc)
    assert path_problems("`tests/no_such_folder/<assignment>.py`", doc)
    assert path_problems("[the labs](LABS.md#no-such-heading)", doc)
    assert path_problems("[gone](NO_SUCH.md)", doc)
    problems = path_problems("[memory](LABS.md#6-how-workers-use-accelerators)", doc)
    assert not problems, "\n".join(problems)


def test_a_dead_section_reference_fails():
    labs = ROOT / "docs" / "LABS.md"
    problems = reference_problems('(section 7, "Tolerances per backend")', labs)
    assert not problems, "\n".join(problems)
    assert reference_problems("(section 12)", labs)
    assert reference_problems('the memory cap (see "For labs")', ROOT / "docs" / "INSTRUCTORS.md")
    assert reference_problems("0.11.2 (see section 5)", ROOT / "README.md")   # the README has no section 5
    problems = reference_problems("0.11.2 (docs/LABS.md, section 5)", ROOT / "README.md")
    assert not problems, "\n".join(problems)


def test_a_wrong_attack_count_fails():
    counts = attack_counts()
    right = {"README.md": f"A red-team corpus of {counts['all']} attacks ({counts['trust']} of them on the"}
    assert not [p for p in attack_count_problems(right, counts) if "no doc says" not in p]
    wrong = {"SECURITY.md": f"`tests/hostile/boundary.py` holds {counts['boundary'] - 1} attacks"}
    assert [p for p in attack_count_problems(wrong, counts) if "no doc says" not in p]
    unchecked = {"X.md": "a new corpus of 12 attacks on the wire"}
    assert [p for p in attack_count_problems(unchecked, counts) if "no pattern" in p]


def test_a_wrong_python_version_or_pin_fails():
    assert python_problems({"README.md": "`python3` (3.10 or newer)"}, ">=3.11")
    assert python_problems({"kit": "Python >= 3.12"}, ">=3.11")
    problems = python_problems({"README.md": "Python 3.12.3 and jax 0.11.2; Python 3.11+"}, ">=3.11")
    assert not problems, "\n".join(problems)
    assert pin_problems({"README.md": "(pinned: jax/jaxlib 0.9.0, nbgrader 0.9.6, ...;"}, pins())
    assert pin_problems({"README.md": "(pinned: nbgrader 0.1.0, ...;"}, pins())


def test_a_docstring_missing_a_module_fails(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text('"""A package.\n\n- `one`  the first\n"""\n')
    (package / "one.py").write_text("")
    problems = docstring_problems(package)
    assert not problems, "\n".join(problems)
    (package / "two.py").write_text("")
    assert docstring_problems(package) == ["pkg/__init__.py does not name `two`"]
