"""What only the place where an exception happened can see, described as plain data.

`describe_exception` runs where the student's code runs (the notebook kernel, or the sandboxed
worker under the CLI). It reads the traceback's frames, the failing line's source parsed with `ast`,
the frame's locals, JAX's own account of where a tracer came from and how each jit argument was
passed, and returns plain data that can cross a process boundary; `rules.py` explains it.
"""
from __future__ import annotations

import ast
import functools
import linecache
import os
import re
import types

from . import call_facts
from .text import bounded, scrub, shorten

# ---------------------------------------------------------------- where student code is
_LIBRARY_MARKERS = (os.sep + "jax" + os.sep, os.sep + "jaxlib" + os.sep, os.sep + "numpy" + os.sep,
                    os.sep + "autograder" + os.sep, os.sep + "site-packages" + os.sep,
                    os.sep + "cloudpickle" + os.sep)
_STDLIB = os.path.dirname(os.__file__)


def is_student_frame(filename: str) -> bool:
    """Student code is any frame outside the libraries and the standard library."""
    if not filename or filename.startswith("<frozen") or filename.endswith((".pyx", ".pxd", ".pxi")):
        return False      # (a compiled extension's frame names its Cython source: NumPy's random)
    if filename.startswith(_STDLIB) and os.sep + "site-packages" + os.sep not in filename:
        return False
    return not any(m in filename for m in _LIBRARY_MARKERS)


_TRACING_AT = re.compile(r"The error occurred while tracing the function \S+ at \S+ for \w+\.\s*")
_ORIGIN_LINE = re.compile(r"from line (\S+?):(\d+)(?::\d+)? \(([^)]*)\)")
# "the value of the argument x", "the values of the arguments t and h"
_DEPENDS_ON = re.compile(r"depends on the values? of the arguments? (.+?)\.(?:\s|$)")


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
    return _parsed(source) if source else None


@functools.lru_cache(maxsize=16)
def _parsed(source: str):
    """The tree of `source` (never changed by its readers), parsed once per text: parsing is what an
    explanation cost where a cell is long (a 5,000-line cell: 0.17 s per error, where the rest took 3 ms)."""
    try:
        return ast.parse(source)
    except SyntaxError:
        return None


def _segment(filename: str, node) -> str:
    """The source text of `node` (as `ast.get_source_segment`, whose offsets are UTF-8 bytes), from its
    own lines only: not the whole file split again for each segment."""
    lines = linecache.getlines(filename)[node.lineno - 1:getattr(node, "end_lineno", None) or node.lineno]
    end = getattr(node, "end_col_offset", None)
    if not lines or end is None:
        return ""
    if len(lines) == 1:
        return lines[0].encode()[node.col_offset:end].decode(errors="replace")
    return "".join([lines[0].encode()[node.col_offset:].decode(errors="replace"), *lines[1:-1],
                    lines[-1].encode()[:end].decode(errors="replace")])


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


def _header_sharing_line(tree, stmt, lineno: int):
    """The `if`/`while` whose test is on `lineno` and whose body holds `stmt`, or None; only the
    statements spanning the line are visited (a long cell is not walked whole per error)."""
    node = tree
    while node is not None:
        if isinstance(node, (ast.If, ast.While)) and node.test.lineno == lineno and stmt in node.body:
            return node
        node = next((c for c in ast.iter_child_nodes(node) if isinstance(c, ast.stmt) and c is not stmt
                     and c.lineno <= lineno <= (c.end_lineno or c.lineno)), None)
    return None


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
        if str(getattr(value, "dtype", "")).startswith("key<"):   # a typed PRNG key (JAX's own class)
            return "key"
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


_TRANSFORMS = ("vmap", "grad", "value_and_grad", "jacfwd", "jacrev", "hessian", "pmap")
_TRANSFORM_CALL = re.compile(r"\b(vmap|grad|value_and_grad|jacfwd|jacrev|hessian|pmap|jvp|vjp|jit|shard_map|"
                             r"cond|switch)\(")


def _transformed_call(node: ast.Call) -> dict:
    """`jax.vmap(f, in_axes=...)(a, b)` written on one line: the transform, the function it
    transforms, the transform's keywords and the positional arguments of the call, as source text."""
    inner = node.func
    return {"transform": _dotted(inner.func).split(".")[-1],
            "fn": ast.unparse(inner.args[0]) if inner.args else "",
            "options": {k.arg: ast.unparse(k.value) for k in inner.keywords if k.arg},
            "in_axes": next((ast.unparse(k.value) for k in inner.keywords if k.arg == "in_axes"),
                            ast.unparse(inner.args[1]) if len(inner.args) > 1 else ""),
            "args": [ast.unparse(a) for a in node.args],
            "starred": any(isinstance(a, ast.Starred) for a in node.args) or bool(node.keywords),
            "line": node.lineno}


def _expression_facts(expr, frame) -> dict:
    """What a rule may ask about an expression: calls, boolean operators, subscripts and their
    containers, conversions wrapped around `jnp` calls, shape arithmetic done with `jnp`."""
    calls, subscripts, names = [], [], []
    facts = {"bool_ops": False, "fstring_spec": False, "int_around_array_call": False,
             "array_math_on_sizes": False, "jitted_calls": []}
    for node in ast.walk(expr):
        if isinstance(node, ast.BoolOp) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)) \
                or (isinstance(node, ast.Compare) and len(node.ops) > 1):   # `0 < v < 1` is `0 < v and v < 1`
            facts["bool_ops"] = True
        elif isinstance(node, ast.JoinedStr) and any(
                isinstance(v, ast.FormattedValue) and v.format_spec is not None for v in node.values):
            facts["fstring_spec"] = True
        elif isinstance(node, ast.Name):
            names.append(node.id)
        elif isinstance(node, ast.IfExp):      # `a if pred else b`: Python asks for `pred`'s truth
            facts.setdefault("if_tests", []).append(ast.unparse(node.test))
        elif isinstance(node, ast.Call):
            name = _dotted(node.func)
            calls.append(name)
            if name == "int" and node.args and isinstance(node.args[0], ast.Name):
                facts.setdefault("int_of_names", []).append(node.args[0].id)   # `int(k)`: an index
            if name in ("int", "float", "round", "complex") and node.args:   # (`bool()` is never a size)
                inner = [_dotted(c.func) for c in ast.walk(node.args[0]) if isinstance(c, ast.Call)]
                if any(n.startswith(_ARRAY_MODULES) for n in inner):
                    facts["int_around_array_call"] = True
            if name.startswith(_ARRAY_MODULES) and any(_mentions_static_size(a) for a in node.args):
                facts["array_math_on_sizes"] = True
            if isinstance(node.func, ast.Call) and _dotted(node.func.func).split(".")[-1] in _TRANSFORMS:
                facts.setdefault("transformed", []).append(_transformed_call(node))
            if isinstance(node.func, ast.Name):
                value, found = _lookup(frame, node.func.id)
                if found and _kind_of(value) == "jitted":
                    facts["jitted_calls"].append(node.func.id)
            for key, items in call_facts.about(node, name, lambda n: _lookup(frame, n)).items():
                facts.setdefault(key, []).extend(items)
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
    """Facts about the statement at `filename:lineno`, read with `ast` (empty if unreadable: a line
    nested too deep to walk must not replace the student's error by a RecursionError of ours)."""
    try:
        return _read_statement(filename, lineno, frame)
    except Exception:  # noqa: BLE001
        return {}


def _read_statement(filename: str, lineno: int, frame=None) -> dict:
    tree = _module_tree(filename)
    if tree is None:
        return {}
    stmt, loop = _innermost_statement(tree, lineno)
    if stmt is None:
        return {}
    expr, kind = _header(stmt)
    facts = {"kind": kind, "line": lineno}
    shared = _header_sharing_line(tree, stmt, lineno)
    if shared is not None:        # `while t: body` on one line: the error may be the test's
        facts["header"] = _header(shared)[1]
    if expr is not None:
        facts.update(_expression_facts(expr, frame))
        on_line = next((n for n in ast.walk(expr) if isinstance(n, (ast.Call, ast.BinOp, ast.Lambda))
                        and n.lineno == lineno), None)
        if on_line is not None:      # the outermost call or operation that starts on the failing line
            facts["at_line"] = shorten(_segment(filename, on_line), 600)
        try:
            facts["source"] = shorten(_segment(filename, expr), 300)
        except Exception:
            facts["source"] = ""
    facts["in_loop"] = loop is not None
    facts["exits_loop"] = kind == "if" and any(isinstance(n, ast.Break) for n in ast.walk(stmt))
    if kind == "if" and not stmt.orelse and all(isinstance(s, ast.Raise) for s in stmt.body):
        facts["guards_raise"] = True      # a check that stops the program: `if bad: raise ...`
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
_JAX_MODULE = re.compile(r"[/\\]jax[/\\]_src[/\\](?:[\w/\\]+[/\\])?(\w+)\.py$")


def _jax_module(frame) -> str:
    """The module of JAX's own code that called the student's function (`custom_derivatives` for a custom rule,
    `tree_util` for a pytree's unflatten), '' for other code. Read from the caller, which filtering leaves alone."""
    m = _JAX_MODULE.search(frame.f_code.co_filename) if frame is not None else None
    return m.group(1) if m else ""


def describe_exception(exc: BaseException, call: dict | None = None) -> dict:
    """Plain-data description of an exception, made where it was raised (`call`: `evidence.call_context`'s, how
    each argument of the jitted function was passed); code made at run time, no source, is `where["generated"]`."""
    names = [c.__name__ for c in type(exc).__mro__ if c not in (object, BaseException)]
    message = str(exc)
    where, frame, transforms, last, chain = None, None, [], "", []
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        last = code.co_filename
        student = is_student_frame(code.co_filename)   # (only a student frame's source is read)
        if student:
            linecache.checkcache(code.co_filename)
            line = linecache.getline(code.co_filename, lineno := tb.tb_lineno).strip()
        if student and where and not line and code.co_filename.startswith("<"):
            where["generated"] = code.co_name
        elif student:
            transforms += _TRANSFORM_CALL.findall(line)
            where = {"file": os.path.basename(code.co_filename), "line": lineno, "code": line,
                     "function": code.co_name, "path": code.co_filename,
                     "params": list(code.co_varnames[:code.co_argcount]),
                     "called_by_jax": _jax_module(tb.tb_frame.f_back)}
            frame = tb.tb_frame
            chain.append({"function": code.co_name, "called_by_jax": where["called_by_jax"]})
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
    traced_args = [a.strip(" '") for a in re.split(r",\s*|\s+and\s+", depends.group(1)) if a.strip()] if depends else []
    if where:
        where.pop("path", None)
    if call and call.get("signature"):          # a path is no evidence a student can act on
        call = {**call, "signature": {k: v for k, v in call["signature"].items() if k != "path"}}
    return bounded({        # (what the rules read, cut to a size they explain in bounded time)
        "type": type(exc).__name__, "mro": names,
        "message": shorten(scrub(_jax_evidence(message) or message), 600),
        "text": scrub(message)[:4000],
        "where": where, "facts": facts, "origin": origin,
        "from_operations": "became a tracer due to JAX operations" in message,
        "traced_args": traced_args,
        "call": call or {},
        "transforms": list(dict.fromkeys(transforms)),   # those the student's lines call, outermost first
        "raised_in_jax": bool(re.search(r"[/\\]jax(lib)?[/\\]", last)),   # JAX's own code raised it
        "raised_by": (_JAX_MODULE.search(last) or [None, ""])[1],   # which (JAX keeps its frames: process.py)
        "chain": chain[-8:],    # the student's frames, outermost first, each with the JAX module that called it
    })


