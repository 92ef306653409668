"""The two directions of the grader <-> worker channel, with different trust.

grader -> worker: pickled requests (cloudpickle, so that test cells can pass lambdas). The grader is
trusted, so the worker may unpickle what it receives.

worker -> grader: the worker runs student code, so what it sends is data the grader must parse
without executing anything: a JSON header plus raw array buffers. Only exact built-in containers,
scalars and numeric/bool arrays cross by value, each recognised by its exact type
(`checks/plain.py`, the one converter); anything else (a function the student returns, an
object of the student's own class) stays in the worker and crosses as an opaque handle. No pickle,
no object the student defined, ever reaches the grader's process.

Frames are a 4-byte big-endian length followed by the payload. A reply's payload starts with the
nonce of the request it answers (`NONCE_BYTES` ASCII bytes), so that the grader can refuse a reply
that does not belong to its request before it reads the rest, let alone decodes it. The decoder
then treats the rest as hostile: every malformation is a `WireError`, at most `MAX_NODES` values,
every array buffer used by one array only (so a reply decodes to no more bytes than it holds).
"""
from __future__ import annotations

import io
import json
import math
import os
import pickle
import struct

import numpy as np

from ..checks import plain

MAX_FRAME = 512 * 2**20       # a reply larger than this is treated as a broken worker
# A student's function returns about what it is given (an exercise's output is a small multiple of
# its inputs; the course's largest, a 2048 x 2048 distance matrix, is 16 MB from 1 MB): the reply to
# a call or a probe may have REPLY_MULTIPLE times its request's bytes, at least REPLY_FLOOR and at
# most REPLY_CAP, 4x the largest legitimate reply (a cap, so that a chain of calls that sends each
# reply back cannot grow its own budget). The grader's memory for one reply is then bounded
# whatever the worker chooses to send (a 440 MB reply took a grader from 0.4 GB to 1.25 GB).
REPLY_FLOOR = 32 * 2**20
REPLY_CAP = 64 * 2**20
REPLY_MULTIPLE = 16
MAX_NODES = 200_000
MAX_DEPTH = 64
NONCE_BYTES = 24              # secrets.token_hex(12)
_DTYPES = {np.dtype(t).str for t in (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8,
                                      np.uint16, np.uint32, np.uint64, np.float16, np.float32,
                                      np.float64, np.complex64, np.complex128)}


class WireError(Exception):
    """A malformed frame or reply: the worker is broken or was tampered with."""


# ---------------------------------------------------------------- framing
def write_frame(fd: int, payload: bytes) -> None:
    data = struct.pack(">I", len(payload)) + payload
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _read_exact(fd: int, n: int) -> bytes:
    chunks, got = [], 0
    while got < n:
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            raise EOFError("channel closed")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def reply_budget(op, request_bytes: int) -> int:
    """The most bytes the reply to a request may have: calls and probes (student code) are held to
    their budget; the worker's own answers before student code (setup, the builder's compiles)
    to MAX_FRAME."""
    if op in ("call", "probe", "exec", "info"):
        return min(REPLY_CAP, max(REPLY_FLOOR, REPLY_MULTIPLE * request_bytes))
    return MAX_FRAME


def over_budget(size: int, budget: int) -> str:
    return (f"sent a reply of {size / 2**20:.0f} MB, over this request's budget of {budget / 2**20:.0f} MB "
            f"({REPLY_MULTIPLE}x the request's size, at least {REPLY_FLOOR >> 20} MB, at most {REPLY_CAP >> 20} MB)")


def nonce_bytes(nonce) -> bytes:
    """The fixed-size prefix of a reply: its request's nonce (ASCII, space-padded)."""
    raw = (nonce if isinstance(nonce, str) else "").encode("ascii", "replace")[:NONCE_BYTES]
    return raw.ljust(NONCE_BYTES, b" ")


def read_frame(fd: int) -> bytes:
    (n,) = struct.unpack(">I", _read_exact(fd, 4))
    if n > MAX_FRAME:
        raise WireError(f"reply of {n} bytes exceeds the {MAX_FRAME}-byte limit")
    return _read_exact(fd, n)


# ---------------------------------------------------------------- grader side: pickle requests
def stripped(fn):
    """A function of a test or setup cell without what the tests do not need: its docstring, its
    cell's name and its line numbers (a hidden test function reaches a worker only with the
    constants its code uses)."""
    import types
    code = fn.__code__
    consts = code.co_consts
    if fn.__doc__ is not None and fn.__name__ != "<lambda>" and consts and consts[0] is fn.__doc__:
        consts = (None, *consts[1:])
    new = types.FunctionType(code.replace(co_consts=consts, co_filename="<test>", co_firstlineno=1),
                             fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    new.__kwdefaults__, new.__qualname__, new.__module__ = fn.__kwdefaults__, fn.__name__, fn.__module__
    new.__dict__.update(fn.__dict__)
    new.__doc__ = None
    return new


def dumps_request(req) -> bytes:
    """Pickle a request; grader-side proxies become references the worker resolves, and functions
    of the test cells go `stripped`."""
    import types

    import cloudpickle

    class Pickler(cloudpickle.Pickler):
        def persistent_id(self, obj):
            ref = getattr(obj, "__autograder_ref__", None)
            return ref if isinstance(ref, tuple) else None

        def reducer_override(self, obj):
            if type(obj) is types.FunctionType and obj.__code__.co_filename.startswith(("<test ", "<setup ")):
                obj = stripped(obj)
            return super().reducer_override(obj)

    buf = io.BytesIO()
    Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(req)
    return buf.getvalue()



# ---------------------------------------------------------------- worker side: encode replies
class Encoder:
    """Encodes a reply tree; objects that cannot cross by value are kept in `handles`."""

    def __init__(self, handles: dict):
        self.handles = handles
        self.buffers: list[bytes] = []
        self.nodes = 0

    def _handle(self, obj):
        key = len(self.handles) + 1
        while key in self.handles:
            key += 1
        self.handles[key] = obj
        name = getattr(obj, "__name__", None)
        desc = f"{type(obj).__name__}" + (f" {name}" if isinstance(name, str) else "")
        return {"t": "handle", "id": key, "desc": desc[:120], "callable": callable(obj)}

    def _array(self, arr: np.ndarray, kind: str, weak=False, impl=None):
        arr = np.asarray(arr, order="C")  # (ascontiguousarray would turn 0-d into 1-d)
        if arr.dtype.str not in _DTYPES:
            return None
        self.buffers.append(arr.tobytes())
        node = {"t": kind, "b": len(self.buffers) - 1, "dtype": arr.dtype.str, "shape": list(arr.shape)}
        if weak:
            node["weak"] = True
        if impl:
            node["impl"] = impl
        return node

    def encode(self, obj, depth=0):
        self.nodes += 1
        if self.nodes > MAX_NODES or depth > MAX_DEPTH:
            raise WireError("reply too large or too deeply nested")
        t = type(obj)
        if obj is None or t in (bool, int, str):
            if t is int and abs(obj) > 2**63:
                return {"t": "bigint", "v": str(obj)}
            return obj if t is not str else {"t": "str", "v": obj[:100_000]}
        if t is float:
            return obj if math.isfinite(obj) else {"t": "float", "v": repr(obj)}
        if t is complex:
            return {"t": "complex", "re": repr(obj.real), "im": repr(obj.imag)}
        if t in (list, tuple):
            return {"t": t.__name__, "v": [self.encode(x, depth + 1) for x in obj]}
        if t is dict and all(type(k) in (str, int) for k in obj):
            return {"t": "dict", "k": list(obj.keys()), "v": [self.encode(v, depth + 1) for v in obj.values()]}
        if t is np.ndarray:
            return self._array(obj, "np") or self._handle(obj)
        found = plain.kind(obj)   # by exact type: a look-alike with a `dtype` stays a handle
        if found == "npscalar":
            return self._array(np.asarray(obj), "npscalar") or self._handle(obj)
        import jax  # only the worker encodes, after jax is imported
        if found in ("jax", "key"):
            try:
                if jax.numpy.issubdtype(obj.dtype, jax.dtypes.prng_key):
                    return self._array(np.asarray(jax.random.key_data(obj)), "key",
                                       impl=str(jax.random.key_impl(obj)))
                return self._array(np.asarray(obj), "jax", weak=bool(getattr(obj, "weak_type", False))) \
                    or self._handle(obj)
            except Exception:  # e.g. a tracer that escaped: not data
                return self._handle(obj)
        return self._handle(obj)


def encode_reply(header: dict, handles: dict) -> bytes:
    """header may hold a 'value' (any object); everything else must be plain JSON data."""
    enc = Encoder(handles)
    header = dict(header)
    if "value" in header:
        header["value"] = enc.encode(header["value"])
    head = json.dumps(header, allow_nan=False).encode()
    out = io.BytesIO()
    out.write(struct.pack(">II", len(head), len(enc.buffers)))
    out.write(head)
    for b in enc.buffers:
        out.write(struct.pack(">Q", len(b)))
        out.write(b)
    return out.getvalue()


# ---------------------------------------------------------------- grader side: decode replies
# The header fields a reply may have, with their types: anything else is malformed.
_ENVELOPE = {"ok": bool, "error": (dict, type(None)), "value": object, "violations": list, "thread_cells": list,
             "seconds": (int, float),
             "bound": list, "callables": list, "backend": str, "devices": int, "pid": int, "uid": int}


def decode_reply(payload, make_handle):
    """Parse a reply's payload (after its nonce) safely. `make_handle(node)` turns a handle node
    into a grader-side proxy. Every malformed reply raises WireError, whatever is wrong with it."""
    try:
        return _Decoder(memoryview(payload), make_handle).reply()
    except WireError:
        raise
    except Exception as exc:  # any other failure of a hostile payload: a broken channel, not a crash
        raise WireError(f"malformed reply from the worker ({type(exc).__name__})") from None


class _Decoder:
    def __init__(self, payload: memoryview, make_handle):
        self.payload = payload
        self.make_handle = make_handle
        self.buffers: list[tuple[int, int]] = []   # (offset, length) in the payload
        self.used: set[int] = set()
        self.nodes = 0

    def reply(self) -> dict:
        n_head, n_buf = struct.unpack_from(">II", self.payload, 0)
        pos = 8
        if pos + n_head > len(self.payload) or n_buf > MAX_NODES:
            raise WireError("malformed reply from the worker (sizes exceed the frame)")
        header = json.loads(bytes(self.payload[pos:pos + n_head]))
        pos += n_head
        for _ in range(n_buf):
            (n,) = struct.unpack_from(">Q", self.payload, pos)
            pos += 8
            if pos + n > len(self.payload):
                raise WireError("malformed reply from the worker (a buffer exceeds the frame)")
            self.buffers.append((pos, n))
            pos += n
        if type(header) is not dict:
            raise WireError("malformed reply from the worker (header is not an object)")
        for key, value in header.items():
            kind = _ENVELOPE.get(key)
            if kind is None or (kind is not object and not isinstance(value, kind)) or \
                    (kind is int and type(value) is bool):
                raise WireError(f"malformed reply from the worker (field {key!r})")
        if type(header.get("ok")) is not bool:
            raise WireError("malformed reply from the worker (no verdict)")
        for key in ("violations", "thread_cells", "bound", "callables"):
            if not all(type(v) is str for v in header.get(key, [])):
                raise WireError(f"malformed reply from the worker (field {key!r})")
        error = header.get("error")
        if error is not None and not (type(error.get("type")) is str and type(error.get("message", "")) is str):
            raise WireError("malformed reply from the worker (an error without a type)")
        if "value" in header:
            header["value"] = self.decode(header["value"], 0)
        return header

    def decode(self, node, depth):
        self.nodes += 1
        if self.nodes > MAX_NODES or depth > MAX_DEPTH:
            raise WireError("reply too large or too deeply nested")
        if node is None or type(node) in (bool, int, float):
            return node
        if type(node) is not dict or type(node.get("t")) is not str:
            raise WireError("malformed value in reply")
        t = node["t"]
        if t == "str":
            return str(node["v"])
        if t == "bigint":
            return int(str(node["v"])[:400])
        if t == "float":
            return float(str(node["v"]))
        if t == "complex":
            return complex(float(str(node["re"])), float(str(node["im"])))
        if t in ("list", "tuple"):
            if type(node["v"]) is not list:
                raise WireError("malformed list in reply")
            items = [self.decode(x, depth + 1) for x in node["v"]]
            return items if t == "list" else tuple(items)
        if t == "dict":
            keys, values = node["k"], node["v"]
            if type(keys) is not list or type(values) is not list or len(keys) != len(values) or \
                    any(type(k) not in (str, int) for k in keys):
                raise WireError("malformed dict in reply")
            return dict(zip(keys, (self.decode(v, depth + 1) for v in values)))
        if t in ("np", "npscalar", "jax", "key"):
            return self.array(node, t)
        if t == "handle":
            return self.make_handle(node)
        raise WireError(f"unknown value kind {t!r} in reply")

    def array(self, node, t):
        if node["dtype"] not in _DTYPES:
            raise WireError("unsupported dtype in reply")
        dtype = np.dtype(node["dtype"])
        shape = node["shape"]
        if type(shape) is not list or len(shape) > MAX_DEPTH or any(type(s) is not int or s < 0 for s in shape):
            raise WireError("malformed array shape in reply")
        index = node["b"]
        if type(index) is not int or not 0 <= index < len(self.buffers) or index in self.used:
            raise WireError("an array buffer missing or used twice in reply")
        self.used.add(index)
        offset, length = self.buffers[index]
        if length != dtype.itemsize * math.prod(shape):
            raise WireError("array buffer does not match its shape")
        arr = np.frombuffer(self.payload[offset:offset + length], dtype=dtype).reshape(shape).copy()
        if t == "np":
            return arr
        if t == "npscalar":
            return arr[()]
        import jax
        import jax.numpy as jnp
        if t == "key":
            return jax.random.wrap_key_data(jnp.asarray(arr), impl=str(node.get("impl", "threefry2x32")))
        out = jnp.asarray(arr)
        if node.get("weak"):
            try:
                from jax._src.lax.lax import _convert_element_type
                out = _convert_element_type(out, weak_type=True)
            except Exception:  # pragma: no cover - private API moved; weak type is then lost
                pass
        return out
