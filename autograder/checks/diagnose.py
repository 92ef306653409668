"""Turn an exception raised while tracing student code into a cause and a fix, in student terms.

Two halves, because the exception happens where the student's code runs (the notebook kernel, or
the sandboxed worker under the CLI) and the verdict is written in the grader:

- `describe_exception` runs where the exception happened. It reads what only that place can see
  (the traceback's frames, the failing line's source parsed with `ast`, the frame's locals, JAX's
  own account of where a tracer came from, how each jit argument was passed) and returns plain
  data that can cross a process boundary.
- `explain` works on that plain data only. It walks `RULES`, one ordered table: the first rule
  whose `when` holds gives the cause and the fix. Specific rules come before general ones (an
  `assert` before an `if`, a list indexed by a tracer before other integer conversions, and
  `TracerBoolConversionError` before its parent `ConcretizationTypeError`).

A fix says what to change in the student's own terms (naming their argument or their list); it
never gives the answer to a course exercise. `explain_retrace` does the same for the changes
between calls that `evidence.count_traces` finds.
"""
from __future__ import annotations

import ast
import linecache
import os
import re
import types
from dataclasses import dataclass
from typing import Callable

# ---------------------------------------------------------------- where student code is
_LIBRARY_MARKERS = (os.sep + "jax" + os.sep, os.sep + "jaxlib" + os.sep, os.sep + "numpy" + os.sep,
                    os.sep + "autograder" + os.sep, os.sep + "site-packages" + os.sep,
                    os.sep + "cloudpickle" + os.sep)
_STDLIB = os.path.dirname(os.__file__)


def is_student_frame(filename: str) -> bool:
    """Student code is any frame outside the libraries and the standard library."""
    if not filename or filename.startswith("<frozen"):
        return False
    if filename.startswith(_STDLIB) and os.sep + "site-packages" + os.sep not in filename:
        return False
    return not any(m in filename for m in _LIBRARY_MARKERS)


# ---------------------------------------------------------------- text
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


_OBJECT_ID = re.compile(r" at 0x[0-9a-fA-F]+")
_SOURCE_PATH = re.compile(r"(?:[A-Za-z]:)?(?:[\\/][^\s\\/:'\"()<>]+)+[\\/]([^\s\\/:'\"()<>]+\.py)\b")


def scrub(text: str) -> str:
    """`text` without what varies between runs and machines: object ids (` at 0x7f..`) and the
    directories of source files (the worker's scratch path); a cell file keeps its name, which is
    the cell's grade_id."""
    return _SOURCE_PATH.sub(r"\1", _OBJECT_ID.sub("", text))


_TRACING_AT = re.compile(r"The error occurred while tracing the function \S+ at \S+ for \w+\.\s*")
_ORIGIN_LINE = re.compile(r"from line (\S+?):(\d+)(?::\d+)? \(([^)]*)\)")
_DEPENDS_ON = re.compile(r"depends on the value of the arguments? (.+?)\.(?:\s|$)")


def _jax_evidence(message: str) -> str:
    """JAX's message without what the student cannot act on: links, file paths, jaxpr listings."""
    keep = []
    for line in message.strip().splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(("See https://", "operation ", "from line ", "----")):
            continue
        if stripped.startswith("This value became a tracer due to JAX operations"):
            continue
        line = _TRACING_AT.sub("", line)
        line = line.replace(" This value became a tracer due to JAX operations on these lines:", "")
        if line.strip():
            keep.append(line.rstrip())
    return "\n".join(keep)


# ---------------------------------------------------------------- reading the student's line
def _module_tree(filename: str):
    linecache.checkcache(filename)         # a cell file rewritten since (the same grade_id run again)
    source = "".join(linecache.getlines(filename))
    if not source:
        return None
    try:
        return ast.parse(source)
    except SyntaxError:
        return None


def _innermost_statement(tree, lineno: int):
    """The innermost statement spanning `lineno`, and the loop (if any) around it."""
    best, loop = None, None
    stack = [(tree, None)]
    while stack:
        node, enclosing_loop = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt) and child.lineno <= lineno <= (child.end_lineno or child.lineno):
                best = child
                loop = enclosing_loop
                stack.append((child, child if isinstance(child, (ast.For, ast.While)) else enclosing_loop))
            elif not isinstance(child, ast.stmt):
                stack.append((child, enclosing_loop))
    return best, loop


def _header(stmt):
    """The part of a statement that runs on its first line (an `if`'s test, not its body)."""
    if isinstance(stmt, (ast.If, ast.While)):
        return stmt.test, "while" if isinstance(stmt, ast.While) else "if"
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return stmt.iter, "for"
    if isinstance(stmt, ast.Assert):
        return stmt, "assert"
    if isinstance(stmt, ast.Return):
        return stmt, "return"
    if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        return stmt, "assign"
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.With)):
        return None, "other"
    return stmt, "expr"


def _dotted(node) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else f".{node.attr}"
    if isinstance(node, ast.Call):
        return _dotted(node.func)
    return ""


_ARRAY_MODULES = ("jnp.", "jax.numpy.", "lax.", "jax.lax.", "jax.nn.", "jax.random.", "jax.scipy.")


def _mentions_static_size(node) -> bool:
    """Whether an expression reads a shape-like number: `.shape`, `.size`, `.ndim` or `len(...)`."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr in ("shape", "size", "ndim"):
            return True
        if isinstance(sub, ast.Call) and _dotted(sub.func) == "len":
            return True
    return False


def _kind_of(value) -> str:
    """A plain-data word for a local value; never calls student code beyond `type()`."""
    t = type(value)
    mod = getattr(t, "__module__", "") or ""
    if t in (list, tuple, dict, int, float, bool, str):
        return t.__name__
    if mod.startswith("numpy"):
        return "ndarray" if t.__name__ == "ndarray" else "numpy"
    if "Tracer" in t.__name__:
        return "tracer"
    if mod.startswith(("jax", "jaxlib")):
        if callable(value) and hasattr(value, "lower") and hasattr(value, "__wrapped__"):
            return "jitted"
        return "jax"
    if callable(value):
        return "callable"
    return "object"


def _lookup(frame, name):
    if frame is None:
        return None, False
    try:
        if name in frame.f_locals:
            return frame.f_locals[name], True
        if name in frame.f_globals:
            return frame.f_globals[name], True
    except Exception:  # a frame whose locals cannot be read
        pass
    return None, False


def _names_a_function(node, frame) -> bool:
    """An element of a list written in place is a function: a lambda, a name bound to a callable,
    or a module attribute such as `jnp.sin` (looked up on the module, never on student objects)."""
    if isinstance(node, ast.Lambda):
        return True
    if isinstance(node, ast.Name):
        value, found = _lookup(frame, node.id)
        return found and callable(value)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        module, found = _lookup(frame, node.value.id)
        return found and isinstance(module, types.ModuleType) and callable(getattr(module, node.attr, None))
    return False


def _expression_facts(expr, frame) -> dict:
    """What a rule may ask about an expression: calls, boolean operators, subscripts and their
    containers, conversions wrapped around `jnp` calls, shape arithmetic done with `jnp`."""
    calls, subscripts, names = [], [], []
    facts = {"bool_ops": False, "fstring_spec": False, "int_around_array_call": False,
             "array_math_on_sizes": False, "jitted_calls": []}
    for node in ast.walk(expr):
        if isinstance(node, ast.BoolOp) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
            facts["bool_ops"] = True
        elif isinstance(node, ast.JoinedStr) and any(
                isinstance(v, ast.FormattedValue) and v.format_spec is not None for v in node.values):
            facts["fstring_spec"] = True
        elif isinstance(node, ast.Name):
            names.append(node.id)
        elif isinstance(node, ast.Call):
            name = _dotted(node.func)
            calls.append(name)
            if name == "int" and node.args and isinstance(node.args[0], ast.Name):
                facts.setdefault("int_of_names", []).append(node.args[0].id)   # `int(k)`: an index
            if name in ("int", "float", "bool", "round", "complex") and node.args:
                inner = [_dotted(c.func) for c in ast.walk(node.args[0]) if isinstance(c, ast.Call)]
                if any(n.startswith(_ARRAY_MODULES) for n in inner):
                    facts["int_around_array_call"] = True
            if name.startswith(_ARRAY_MODULES) and any(_mentions_static_size(a) for a in node.args):
                facts["array_math_on_sizes"] = True
            if isinstance(node.func, ast.Name):
                value, found = _lookup(frame, node.func.id)
                if found and _kind_of(value) == "jitted":
                    facts["jitted_calls"].append(node.func.id)
        elif isinstance(node, ast.Subscript):
            entry = {"name": _dotted(node.value), "slice": isinstance(node.slice, ast.Slice),
                     "index": ast.unparse(node.slice) if hasattr(ast, "unparse") else "",
                     "container": "", "callables": False}
            if isinstance(node.value, ast.Name):
                value, found = _lookup(frame, node.value.id)
                if found:
                    entry["container"] = _kind_of(value)
                    if entry["container"] in ("list", "tuple"):
                        entry["callables"] = bool(value) and all(callable(v) for v in value)
                    elif entry["container"] == "dict":
                        entry["callables"] = bool(value) and all(callable(v) for v in value.values())
            elif isinstance(node.value, (ast.List, ast.Tuple)):   # `[f, g, h][i]`, written in place
                entry["container"] = "list" if isinstance(node.value, ast.List) else "tuple"
                entry["callables"] = bool(node.value.elts) and all(
                    _names_a_function(e, frame) for e in node.value.elts)
                entry["name"], entry["literal"] = ast.unparse(node.value), True
            subscripts.append(entry)
    tracers = []
    for name in dict.fromkeys(names):
        value, found = _lookup(frame, name)
        if found and _kind_of(value) == "tracer":
            tracers.append(name)
    facts.update(calls=calls, subscripts=subscripts, tracers=tracers)
    return facts


def _statement_facts(filename: str, lineno: int, frame=None) -> dict:
    """Facts about the statement at `filename:lineno`, read with `ast` (empty if unreadable)."""
    tree = _module_tree(filename)
    if tree is None:
        return {}
    stmt, loop = _innermost_statement(tree, lineno)
    if stmt is None:
        return {}
    expr, kind = _header(stmt)
    facts = {"kind": kind, "line": lineno}
    if expr is not None:
        facts.update(_expression_facts(expr, frame))
        try:
            facts["source"] = shorten(ast.get_source_segment("".join(linecache.getlines(filename)), expr) or "", 300)
        except Exception:
            facts["source"] = ""
    facts["in_loop"] = loop is not None
    facts["exits_loop"] = kind == "if" and any(isinstance(n, ast.Break) for b in stmt.body for n in ast.walk(b))
    if kind == "if" and any(isinstance(n, ast.Break) for n in ast.walk(stmt)):
        facts["exits_loop"] = True
    return facts


def _leak_site(message: str) -> dict | None:
    """For an escaped tracer: the line of the leaking function that stores into outside state."""
    m = re.search(r"value leaked was (\S+) at (\S+?):(\d+)", message)
    if not m:
        return None
    name, filename, lineno = m.group(1), m.group(2), int(m.group(3))
    tree = _module_tree(filename)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name \
                and node.lineno <= lineno <= (node.end_lineno or lineno):
            local = {a.arg for a in node.args.args + node.args.kwonlyargs}
            for sub in ast.walk(node):
                if isinstance(sub, (ast.Assign, ast.AugAssign)):
                    targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
                    for t in targets:
                        if isinstance(t, ast.Name):
                            local.add(t.id)
            for sub in ast.walk(node):
                hit = False
                if isinstance(sub, (ast.Assign, ast.AugAssign)):
                    targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
                    hit = any(isinstance(t, (ast.Subscript, ast.Attribute)) and
                              _dotted(t.value).split(".")[0] not in local for t in targets)
                elif isinstance(sub, ast.Global):
                    hit = True
                elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and \
                        sub.func.attr in ("append", "extend", "update", "add", "setdefault", "insert"):
                    hit = _dotted(sub.func.value).split(".")[0] not in local
                if hit:
                    line = linecache.getline(filename, sub.lineno).strip()
                    return {"file": os.path.basename(filename), "line": sub.lineno, "code": line,
                            "function": name}
            return {"file": os.path.basename(filename), "line": node.lineno,
                    "code": linecache.getline(filename, node.lineno).strip(), "function": name}
    return None


def _first_use(signature: dict, names: list) -> dict | None:
    """The first line of the function body that reads one of `names` (a static argument JAX
    failed on before tracing began), as a `where` entry; None when it cannot be read."""
    path = signature.get("path")
    tree = _module_tree(path) if path else None
    if tree is None or not names:
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno <= signature["line"] \
                and node.name == signature.get("function"):
            uses = [n.lineno for stmt in node.body for n in ast.walk(stmt)
                    if isinstance(n, ast.Name) and n.id in names]
            if uses:
                line = min(uses)
                return {**signature, "line": line, "code": linecache.getline(path, line).strip()}
    return None


# ---------------------------------------------------------------- the description
def describe_exception(exc: BaseException, call: dict | None = None) -> dict:
    """Plain-data description of an exception, made where it was raised.

    `call` (from `evidence.call_context`) says which function was jitted and how each of its
    arguments was passed; rules use it to tell a size argument from a data argument.
    """
    names = [c.__name__ for c in type(exc).__mro__ if c not in (object, BaseException)]
    message = str(exc)
    where, frame = None, None
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if is_student_frame(code.co_filename):
            lineno = tb.tb_lineno
            linecache.checkcache(code.co_filename)
            line = linecache.getline(code.co_filename, lineno).strip()
            where = {"file": os.path.basename(code.co_filename), "line": lineno, "code": line,
                     "function": code.co_name, "path": code.co_filename}
            frame = tb.tb_frame
        tb = tb.tb_next
    facts = _statement_facts(where["path"], where["line"], frame) if where else {}
    if where is None and "UnexpectedTracerError" in names:
        where = _leak_site(message)
    if where is None and call and call.get("signature"):
        where = dict(call["signature"])           # e.g. a static argument JAX could not hash
        where = _first_use(where, call.get("static") or []) or where
    origin = []
    for filename, lineno, _fn in _ORIGIN_LINE.findall(message)[:3]:
        facts_at = _statement_facts(filename, int(lineno))
        origin.append({"line": int(lineno), "code": linecache.getline(filename, int(lineno)).strip(),
                       "array_math_on_sizes": bool(facts_at.get("array_math_on_sizes")),
                       "calls": facts_at.get("calls", [])})
    depends = _DEPENDS_ON.search(message)
    traced_args = []
    if depends:
        traced_args = [a.strip(" '") for a in re.split(r",\s*|\s+and\s+", depends.group(1)) if a.strip()]
    if where:
        where.pop("path", None)
    if call and call.get("signature"):          # a path is no evidence a student can act on
        call = {**call, "signature": {k: v for k, v in call["signature"].items() if k != "path"}}
    return {
        "type": type(exc).__name__, "mro": names,
        "message": shorten(scrub(_jax_evidence(message) or message), 600),
        "text": scrub(message)[:4000],
        "where": where, "facts": facts, "origin": origin,
        "from_operations": "became a tracer due to JAX operations" in message,
        "traced_args": traced_args,
        "call": call or {},
    }


# ---------------------------------------------------------------- the rule table
class Facts:
    """Read-only helpers over a description, for the rules' `when`, `cause` and `fix`."""

    def __init__(self, desc: dict):
        self.desc = desc
        self.types = set(desc.get("mro") or [desc.get("type", "")])
        self.text = desc.get("text") or desc.get("message", "")
        self.stmt = desc.get("facts") or {}
        self.call = desc.get("call") or {}

    def is_(self, *names) -> bool:
        return any(n in self.types for n in names)

    def says(self, pattern: str) -> bool:
        return re.search(pattern, self.text) is not None

    def calls(self, *prefixes) -> list:
        return [c for c in self.stmt.get("calls", []) if c.startswith(prefixes) or c in prefixes]

    @property
    def kind(self) -> str:
        return self.stmt.get("kind", "")

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
    def code(self) -> str:
        return (self.desc.get("where") or {}).get("code", "")


@dataclass(frozen=True)
class Rule:
    name: str
    when: Callable[[Facts], bool]
    cause: str | Callable[[Facts], str]
    fix: str | Callable[[Facts], str]


def _static_fix(f: Facts, what="it sets a size") -> str:
    return f"if {what}, make it static: `jax.jit({f.fn}, static_argnames='{f.arg}')`"


_SIZE_ERRORS = (r"Shapes must be 1D sequences|concrete value|abstract tracer|not hashable|"
                r"must be static|static (value|integer)|argument `?num_classes|'num' argument|pad_width")
_SIZE_CALLS = ("jnp.zeros", "jnp.ones", "jnp.full", "jnp.empty", "jnp.arange", "jnp.linspace", "jnp.eye",
               "jnp.tile", "jnp.repeat", "jnp.pad", "jnp.split", "jnp.reshape", ".reshape", "jax.nn.one_hot",
               "jax.random.", "lax.dynamic_slice", "jnp.broadcast_to", "lax.top_k", "jnp.identity")


# JAX's own errors about a traced value; each has rules of its own, so the generic TypeError
# rules (which match on JAX's text) must not take them.
_TRACER_ERRORS = ("ConcretizationTypeError", "TracerArrayConversionError", "TracerIntegerConversionError",
                  "TracerBoolConversionError", "NonConcreteBooleanIndexError")


def _is_size_error(f: Facts) -> bool:
    if f.is_("TracerIntegerConversionError", "NonConcreteBooleanIndexError", "TracerArrayConversionError"):
        return False                       # their own rules (NumPy on a tracer: even next to a size call)
    if f.is_("TracerBoolConversionError"):
        return bool(f.calls(*_SIZE_CALLS)) and f.kind not in ("if", "while", "assert")
    return (f.is_("ConcretizationTypeError") or (f.is_("TypeError") and f.says(_SIZE_ERRORS))) \
        and (bool(f.calls(*_SIZE_CALLS)) or f.says(r"Shapes must be 1D|not hashable|num_classes|pad_width|'num'"))


def _size_user(f: Facts) -> str:
    sized = f.calls(*_SIZE_CALLS)
    return f"`{sized[0]}`" if sized else "a shape"


def _shape_math_origin(f: Facts) -> str:
    for o in f.desc.get("origin", []):
        arrays = [c for c in o.get("calls", []) if c.startswith(_ARRAY_MODULES)]
        if arrays:
            return f"`{arrays[0]}` on line {o['line']}"
    arrays = [c for c in f.stmt.get("calls", []) if c.startswith(_ARRAY_MODULES)]
    if f.stmt.get("jitted_calls"):
        return f"the jitted `{f.stmt['jitted_calls'][0]}`"
    return f"`{arrays[0]}`" if arrays else "a `jnp` call"


def _comes_from_operations(f: Facts) -> bool:
    """The traced value came from `jnp` operations on constants or shapes, not from an argument."""
    if f.desc.get("traced_args"):
        return False
    if f.desc.get("from_operations"):
        return True
    return bool(f.stmt.get("int_around_array_call") or f.stmt.get("array_math_on_sizes")
                or f.stmt.get("jitted_calls"))


def _container_fix(f: Facts) -> str:
    s = f.subscript("list", "tuple", "dict", "ndarray")
    name = s["name"] if s else "values"
    index = (s["index"] if s else "i").replace("int(", "").rstrip(")") if s else "i"
    if s and s["callables"]:
        named = f"name the functions, `branches = {name}`, and " if s.get("literal") else ""
        name = "branches" if s.get("literal") else name
        return (f"{named}pick one with `lax.switch(jnp.clip({index}, 0, len({name}) - 1), {name}, ...)` "
                f"(it takes a traced index; `jnp.clip` keeps it in range)")
    if s and s["container"] == "dict":
        return (f"a traced value cannot be a dict key: put the values in an array and index it by "
                f"position: `jnp.asarray(list({name}.values()))[{index}]`")
    return f"index an array instead: `jnp.asarray({name})[{index}]` (a JAX array accepts a traced index)"


def _unhashable_fix(f: Facts) -> str:
    m = re.search(r"object of type <class '([\w.]+)'>", f.text)
    kind = m.group(1).rsplit(".", 1)[-1] if m else ""
    arg = _static_arg_name(f)
    if kind == "list":
        return f"static arguments must be hashable: pass a tuple (`tuple({arg})`) instead of a list"
    if "Tracer" in kind:
        return ("static arguments must be hashable concrete values: call with a plain Python number, "
                "not a value computed by `jnp` inside a jitted function")
    if kind in ("ndarray", "ArrayImpl", "Array"):
        return (f"static arguments must be hashable: make `{arg}` a traced argument (leave it out of "
                f"static_argnums), or pass a tuple of its values")
    if kind in ("dict", "set"):
        return f"static arguments must be hashable: pass a tuple of (key, value) pairs or a frozen dataclass"
    return (f"static arguments must be hashable: give the class value-based `__hash__`/`__eq__` "
            f"(`@dataclass(frozen=True)`), or pass a tuple of its values")


def _static_arg_name(f: Facts) -> str:
    m = re.search(r"argument \(index (\d+)\)", f.text)
    static = f.call.get("static") or []
    if static:
        return static[0]
    return f"argument {m.group(1)}" if m else "the static argument"


RULES: list[Rule] = [
    # ---- not JAX at all
    Rule("stub", lambda f: f.is_("NotImplementedError"),
         "the exercise is not implemented yet (the `raise NotImplementedError()` stub is still there)",
         "replace the stub with your solution"),
    Rule("numpy-at", lambda f: f.is_("AttributeError") and f.says(r"'numpy\.ndarray' object has no attribute 'at'"),
         "the input is a NumPy array here; `.at[...]` exists only on JAX arrays",
         lambda f: f"convert it first: `{_at_name(f)} = jnp.asarray({_at_name(f)})`, then "
                   f"`{_at_name(f)}.at[...].set(...)` returns a new array"),
    Rule("immutable", lambda f: f.is_("TypeError") and f.says(r"immutable|does not support item assignment"),
         "JAX arrays are immutable: `x[i] = v` cannot write into them",
         "build a new array instead: `x = x.at[i].set(v)`"),
    Rule("key-reuse", lambda f: f.is_("KeyReuseError"),
         "a PRNG key was used twice, so two 'independent' draws are identical",
         "`jax.random.split` the key and use each subkey once"),
    Rule("nondiff-tracer", lambda f: f.is_("UnexpectedTracerError") and f.says(r"nondiff_argnums"),
         "a traced value (an array argument) was declared in `nondiff_argnums` of a custom derivative rule",
         "keep array arguments differentiable; return a zero (or `None`) cotangent for them from `bwd`"),
    Rule("vjp-bwd-structure", lambda f: f.is_("TypeError") and f.says(r"Custom VJP bwd rule must produce"),
         "the custom_vjp backward rule returned a different number or structure of cotangents than the "
         "function has inputs",
         "return a tuple from `bwd` with one cotangent per input, in order (zeros or `None` for inputs "
         "without a gradient)"),
    Rule("leaked-tracer", lambda f: f.is_("UnexpectedTracerError"),
         lambda f: ("a traced value escaped its trace: "
                    + (f"`{f.desc['where']['function']}` stores it outside the function "
                       f"(line {f.desc['where']['line']}), and it is used after that trace ended"
                       if f.desc.get("where") else "it was stored in a global, a list or an object, then used later")),
         "keep the function pure: return it (or pass it in as an argument) instead of storing it in "
         "a global or an object"),
    Rule("format-tracer", lambda f: f.is_("TypeError") and f.says(r"unsupported format string passed to \w*Tracer"),
         "formatting a traced value (`f'{loss:.3f}'`) needs its number, which does not exist while tracing",
         "return the value and format it outside the jitted function, or use "
         "`jax.debug.print('loss {l:.3f}', l=loss)`"),
    Rule("unhashable-static", lambda f: f.is_("ValueError") and f.says(r"[Nn]on-hashable static arguments"),
         lambda f: f"`{_static_arg_name(f)}` is a static argument, and jit hashes static arguments to "
                   f"look up compiled code; this value cannot be hashed",
         _unhashable_fix),
    # ---- control flow on traced values
    Rule("assert", lambda f: f.is_("ConcretizationTypeError") and f.kind == "assert",
         "`assert` on a traced value: its truth is unknown while tracing",
         "check values with `jax.experimental.checkify.check(pred, 'message')` inside a function "
         "wrapped by `checkify.checkify`, or drop the check; keep Python `assert` for shapes and "
         "static values"),
    Rule("while-loop", lambda f: f.is_("TracerBoolConversionError") and (f.kind == "while" or f.stmt.get("exits_loop")),
         lambda f: ("a Python `while` on a traced value: its truth is unknown while tracing"
                    if f.kind == "while" else
                    "a loop that stops early (`break`) on a traced value: the number of steps is unknown while tracing"),
         lambda f: "loop with `lax.while_loop(cond_fun, body_fun, init)`, which tests the condition at run time"
                   + ("; inside `cond_fun` combine conditions with `jnp.logical_and`/`jnp.logical_or` "
                      "(not `and`/`or`)" if f.stmt.get("bool_ops") else "")),
    Rule("and-or", lambda f: f.is_("TracerBoolConversionError") and f.stmt.get("bool_ops"),
         "Python `and`/`or`/`not` call `bool()` on a traced value, whose truth is unknown while tracing",
         "combine traced conditions with `jnp.logical_and`/`jnp.logical_or`/`jnp.logical_not` (or "
         "`&`, `|`, `~`), then branch with `jnp.where(cond, a, b)` or `lax.cond`"),
    Rule("static-control", lambda f: f.is_("TracerBoolConversionError") and not _is_size_error(f)
         and f.arg and f.arg_is_python_scalar,
         lambda f: f"`{f.arg}` is a jit argument, so it is traced, and a Python `{f.kind if f.kind in ('if', 'while') else 'if'}` "
                   f"on it needs its value",
         lambda f: _static_fix(f, "it picks the code path (a mode or a count)")
         + "; if it is data, branch with `jnp.where` or `lax.cond` instead"),
    Rule("if", lambda f: f.is_("TracerBoolConversionError") and not _is_size_error(f),
         lambda f: ("Python `if` on a traced value: its truth is unknown while tracing" if f.kind == "if" else
                    "Python `if`/`while`/`and`/`or`/`assert` on a traced value: its truth is unknown while tracing"),
         lambda f: ("branch with `jnp.where(pred, a, b)` (elementwise) or `lax.cond(pred, true_fn, false_fn, x)`"
                    if f.kind == "if" else
                    "branch with `jnp.where` (elementwise) or `lax.cond` / `lax.switch`; loop with `lax.while_loop`")),
    Rule("boolean-mask", lambda f: f.is_("NonConcreteBooleanIndexError"),
         "boolean-mask indexing (`x[mask]` or `x.at[mask]`): the result's shape depends on the values",
         "keep the shape static: `jnp.where(mask, new, x)` instead of indexing with the mask"),
    # ---- a traced value used as a Python int: indexes and branch numbers
    Rule("container-index", lambda f: f.is_("TracerIntegerConversionError", "TracerArrayConversionError", "TypeError",
                                            "ConcretizationTypeError")
         and f.subscript("list", "tuple", "dict", "ndarray") is not None
         and (f.is_("TracerIntegerConversionError", "TracerArrayConversionError") or
              f.says(r"unhashable type: '\w*Tracer'|indices must be integers|problem arose with the `int`")),
         lambda f: (lambda s: f"a traced index into the Python {s['container'] if s['container'] != 'ndarray' else 'NumPy array'} "
                    f"`{s['name']}`: Python needs a concrete number to pick an item")(f.subscript("list", "tuple", "dict", "ndarray")),
         _container_fix),
    Rule("int-branch-index", lambda f: f.is_("ConcretizationTypeError") and f.says(r"problem arose with the `int`")
         and not _comes_from_operations(f)
         and (f.arg_is_python_scalar or f.arg in f.stmt.get("int_of_names", [])),  # not `int(x.sum())`
         lambda f: (f"`{f.arg}` is a jit argument, so it is traced, and `int()` needs a concrete number"
                    if f.arg else "`int()` needs a concrete number, but the value is traced"),
         lambda f: (_static_fix(f, "it picks a branch or sets a size") + "; to keep it traced, drop `int()` and "
                    if f.arg_is_python_scalar else f"keep `{f.arg}` an array (drop `int()`); ")
         + f"pick a branch with `lax.switch(jnp.clip({f.arg}, 0, len(branches) - 1), branches, x)` "
           "(`jnp.clip` keeps the index in range)"),
    # ---- shapes and sizes
    Rule("shape-math-with-jnp", lambda f: (_is_size_error(f) or f.is_("ConcretizationTypeError", "TracerIntegerConversionError"))
         and _comes_from_operations(f),
         lambda f: f"shape arithmetic done with {_shape_math_origin(f)} turns static numbers (shapes, "
                   f"constants) into traced values, and {_size_user(f) if _is_size_error(f) else '`int()`'} "
                   f"needs a concrete number",
         "do shape arithmetic in plain Python or NumPy, which stays static: `x.size + 1`, `max(n, 2)`, "
         "`math.ceil(math.log2(n))`, `np.prod(x.shape)`; keep `jnp` for the array data"),
    Rule("nonzero-size", lambda f: f.is_("ConcretizationTypeError") and f.says(r"jnp\.nonzero|size argument|argwhere|flatnonzero|jnp\.unique|jnp\.compress"),
         "`jnp.nonzero` / one-argument `jnp.where` on a traced value: the output size depends on the values",
         "pass a static `size=` (and `fill_value=`), or rewrite with `jnp.where(cond, a, b)` and a cumulative sum"),
    Rule("range", lambda f: f.is_("TracerIntegerConversionError") and "range" in f.stmt.get("calls", []),
         lambda f: (f"`{f.arg}` is a jit argument, so it is traced, and `range()` needs a concrete count"
                    if f.arg else "`range()` of a traced value: the loop count is unknown while tracing"),
         lambda f: ("loop with `lax.fori_loop(0, n, body, init)`, which accepts a traced bound"
                    + (f"; or, if `{f.arg}` is a true constant, make it static: "
                       f"`jax.jit({f.fn}, static_argnames='{f.arg}')`" if f.arg and f.arg_is_python_scalar else
                       f" (`{f.arg}` arrives as an array, so it stays traced)" if f.arg and f.arg_is_data else ""))),
    Rule("size-from-int-argument", lambda f: _is_size_error(f) and f.arg and not f.arg_is_data,
         lambda f: f"`{f.arg}` is a jit argument, so it is traced; {_size_user(f)} needs its value to fix an "
                   f"output shape",
         lambda f: _static_fix(f) + ("; or pass `total_repeat_length=`" if f.says("total_repeat_length") else "")),
    Rule("size-from-data", lambda f: _is_size_error(f) and f.arg and f.arg_is_data,
         lambda f: f"the size depends on `{f.arg}`, which is traced data (its values are unknown while "
                   f"tracing), so {_size_user(f)} cannot fix an output shape",
         "shapes must not depend on values: work at a fixed maximum size and mask the extra entries "
         "(e.g. `valid = jnp.arange(max_n) < n`, then `jnp.where(valid, x, 0)`)"),
    Rule("traced-slice", lambda f: f.is_("IndexError") and f.says(r"[Ss]lice entries must be static|[Aa]rray slice indices must have static|traced|dynamic"),
         "slicing with a traced start or stop (`x[i:i + k]`)",
         lambda f: "use `lax.dynamic_slice(x, (i,), (k,))` with a static size `k`"
                   + (f"; or, if `{f.arg}` sets the length, make it static: `jax.jit({f.fn}, static_argnames='{f.arg}')`"
                      if f.arg and f.arg_is_python_scalar else "")),
    Rule("arange-size", lambda f: f.is_("ConcretizationTypeError") and f.says(r"arange"),
         "a traced value used as a shape or size",
         "make that argument static (`static_argnums`) or keep shapes fixed and mask instead"),
    Rule("shape-size", lambda f: f.is_("TypeError") and not f.is_(*_TRACER_ERRORS) and f.says(r"Shapes must be 1D sequences of concrete values|concrete value|abstract tracer"),
         "a traced value used as a shape (`jnp.zeros(n)`, `jnp.full((n,), v)`, `reshape(n)`)",
         "mark the size argument static: `jax.jit(f, static_argnums=...)`"),
    # ---- NumPy and Python numbers on traced values
    Rule("numpy-call", lambda f: f.is_("TracerArrayConversionError") and bool(f.calls("np.", "numpy.", "onp.")),
         lambda f: f"`{f.calls('np.', 'numpy.', 'onp.')[0]}` is NumPy: it needs concrete numbers, but the value is traced",
         lambda f: f"use `jnp.{f.calls('np.', 'numpy.', 'onp.')[0].split('.', 1)[1]}` instead of "
                   f"`{f.calls('np.', 'numpy.', 'onp.')[0]}` inside jitted code"),
    Rule("numpy", lambda f: f.is_("TracerArrayConversionError"),
         "`np.asarray` / NumPy called on a traced value",
         "use `jnp` functions instead of `np` inside jitted code"),
    Rule("print-number", lambda f: f.is_("ConcretizationTypeError") and "print" in f.stmt.get("calls", []),
         "printing needs the number, which does not exist while tracing",
         "print traced values with `jax.debug.print('w={w}', w=w)`, which runs on every call"),
    Rule("float-item", lambda f: f.is_("ConcretizationTypeError") and (f.says(r"`float` function|item\(\) method|`bool` function|`int` function")
                                                                      or f.calls("float", "int", ".item", "bool")),
         "a traced value was needed as a concrete Python value (`float(t)`, `int(t)`, `.item()`, `bool(t)`)",
         "keep it an array: drop `int()`/`float()`/`.item()` (cast with `.astype(jnp.float32)` if you need a "
         "dtype) and convert outside the jitted function; to look at it, use `jax.debug.print`"),
    Rule("concrete", lambda f: f.is_("ConcretizationTypeError"),
         "a traced value was needed as a concrete Python value (`float(t)`, `int(t)`, `.item()`, `bool(t)`)",
         "stay in `jnp` (no `float()`/`.item()`); print with `jax.debug.print`; make true constants static"),
    Rule("index-int", lambda f: f.is_("TracerIntegerConversionError"),
         "a traced value used as a Python int (e.g. `range(n)` or a list index)",
         lambda f: "use `lax.fori_loop(0, n, body, init)` for a traced bound"
                   + (f"; or, if `{f.arg}` is a true constant, make it static: "
                      f"`jax.jit({f.fn}, static_argnames='{f.arg}')`" if f.arg and f.arg_is_python_scalar else "")),
    # ---- limits of the grader
    Rule("output-cap", lambda f: f.is_("OSError") and f.says(r"File too large"),
         "the code printed more output than the grader allows (the cap counts bytes)",
         "print summaries, not whole arrays or a print in every loop step"),
    Rule("memory", lambda f: f.is_("MemoryError"),
         "the code allocated more memory than the grader allows",
         "work on the sizes the exercise gives; avoid building huge intermediates"),
]


def _at_name(f: Facts) -> str:
    m = re.search(r"(\w+)\.at\[", f.code)
    return m.group(1) if m else "x"


def _text(part, f: Facts) -> str:
    return part(f) if callable(part) else part


def explain(desc: dict) -> tuple[str, str]:
    """(cause, fix) for a described exception; a generic pair when no rule matches."""
    rule = match(desc)
    if rule is None:
        return ("the function raised an exception",
                "run it eagerly on the example input and read the traceback")
    f = Facts(desc)
    return _text(rule.cause, f), _text(rule.fix, f)


def match(desc: dict) -> Rule | None:
    """The first rule of `RULES` that holds for `desc` (None when none does)."""
    f = Facts(desc)
    for rule in RULES:
        try:
            if rule.when(f):
                return rule
        except Exception:  # a rule must never turn a failure into a crash
            continue
    return None


def where_text(desc: dict) -> str:
    w = desc.get("where")
    if not w:
        return ""
    return f" at line {w['line']} of {w['function']}: `{w['code']}`"


def error_heading(desc: dict) -> str:
    """`Type at line N of fn: `code`: JAX's text` (no empty colon when the message is empty)."""
    message = desc.get("message", "")
    head = f"{desc['type']}{where_text(desc)}"
    return f"{head}: {shorten(message, 400)}" if message.strip() else head


def format_failure(desc: dict) -> str:
    """One line of evidence plus the cause and the fix, used inside an AssertionError message."""
    cause, fix = explain(desc)
    return f"{error_heading(desc)}\n  cause: {cause}\n  fix: {fix}"


# ---------------------------------------------------------------- retraces
def explain_retrace(change: dict | None, reasons: list[str]) -> tuple[str, str]:
    """(cause, fix) for the first retrace, from the argument change `evidence.count_traces` found."""
    kind = (change or {}).get("kind", "")
    arg = (change or {}).get("arg", "")
    now = (change or {}).get("now", "")
    if kind == "dtype":
        dtype = (change or {}).get("before_dtype") or "float32"
        return (f"the dtype of `{arg}` changes between calls, and each "
                f"dtype compiles its own version",
                f"give `{arg}` one dtype on every call: cast it before the call, e.g. "
                f"`jnp.asarray({arg}, jnp.{dtype})` (or `{arg}.astype(jnp.{dtype})`)")
    if kind == "weak_type":
        dtype = (change or {}).get("before_dtype") or "float32"
        return (f"`{arg}` arrives as a Python scalar (weakly typed) in one call and as a typed array in "
                f"another, and jit compiles each separately",
                f"pass `{arg}` the same way every call, e.g. always `jnp.{dtype}({arg})` (or "
                f"`jnp.asarray({arg}, jnp.{dtype})`)")
    if kind == "shape":
        return (f"the shape of `{arg}` changes between calls, and every new "
                f"shape compiles again",
                "keep shapes fixed: pad inputs up to a few bucket sizes and pass a mask for the padding")
    if kind == "structure":
        return (f"the pytree structure of `{arg}` changes between calls, "
                f"and every new structure compiles again",
                f"pass `{arg}` with the same structure every call: use a placeholder of the same "
                f"structure (e.g. zeros and a mask) instead of `None` or a missing key, or make the "
                f"choice a static flag")
    if kind == "metadata":
        return (f"`{arg}` is a pytree whose node metadata (aux data) holds a value that changes; "
                f"metadata is part of the cache key",
                "make that number a leaf: return it among the children in `tree_flatten` (or mark the "
                "field as data), so it is traced instead of compiled in")
    if kind == "static_identity":
        if (change or {}).get("callable"):
            return (f"`{arg}` is static and a new function object ({now}) arrives on every call; static "
                    f"arguments are compared by `==`, and two lambdas or partials never compare equal",
                    f"define it once (at top level) and pass that same object every call, or pass its "
                    f"parameters as traced arguments")
        return (f"`{arg}` is static, and its class compares by identity: each new "
                f"`{(change or {}).get('type', 'object')}` object is a new "
                f"cache key, even with equal values",
                f"give the class value-based `__hash__` and `__eq__` (e.g. `@dataclass(frozen=True)`), or "
                f"pass a hashable tuple of its values as the static argument")
    if kind == "static_value":
        return (f"`{arg}` is static, so every new value compiles again",
                f"keep static only what sets shapes or modes; pass `{arg}` as a traced argument instead "
                f"(pass it as a traced `jnp` scalar and leave it out of static_argnums)")
    joined = " ".join(reasons)
    if "weak" in joined:
        return ("the same value arrives sometimes as a Python scalar (weakly typed) and sometimes as an array",
                "convert with `jnp.asarray(v, dtype)` before the call or keep the types consistent")
    if "Static" in joined or "static" in joined:
        return ("an argument the exercise treats as traced is static, so every new value retraces",
                "keep only true sizes/modes in static_argnums; pass data as traced arrays")
    # JAX's cache-miss lines name avals as dtype[shape] ("f32[4]", "bf16[2,3]", "bool[]"); match any
    # dtype, not a few, and the wording around them only loosely (it changes between releases)
    if re.search(r"\b[a-z]+\d*\[[\d,\s]*\]", joined) or re.search(r"\b(now|shape|dtype)\b", joined):
        return ("the shape or dtype of an argument changes between calls",
                "keep shapes fixed (pad to a bucket) and dtypes consistent")
    return ("the function is re-created or re-jitted on every call, or a Python value changes the trace",
            "jit once at top level and pass changing values as arguments")


# ---------------------------------------------------------------- errors raised by student code
def student_error_text(desc: dict) -> str:
    """`Type: message (line N of fn: `code`)`, plus the cause and fix when a rule knows them.

    Used for an exception the student's code raised during a test (re-raised in the grader as
    data); an empty message (`raise NotImplementedError()`) leaves no dangling colon."""
    message = (desc.get("message") or "").strip()
    text = f"{desc.get('type')}: {message}" if message else f"{desc.get('type')}"
    if desc.get("where"):
        w = desc["where"]
        text += f" (line {w['line']} of {w['function']}: `{w['code']}`)"
    if match(desc) is not None:
        cause, fix = explain(desc)
        text += f"\n  cause: {cause}\n  fix: {fix}"
    return text

