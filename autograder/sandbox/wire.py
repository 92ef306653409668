"""The two directions of the grader <-> worker channel, with different trust.

grader -> worker: pickled requests (cloudpickle, so that test cells can pass lambdas). The grader is
trusted, so the worker may unpickle what it receives.

worker -> grader: the worker runs student code, so what it sends is data the grader must parse
without executing anything: a JSON header plus raw array buffers. Only exact built-in containers,
scalars and numeric/bool arrays cross by value; anything else (a function the student returns, an
object of the student's own class) stays in the worker and crosses as an opaque handle. No pickle,
no object the student defined, ever reaches the grader's process.

Frames are a 4-byte big-endian length followed by the payload.
"""
from __future__ import annotations

import io
import json
import math
import os
import struct

import numpy as np

MAX_FRAME = 512 * 2**20       # a reply larger than this is treated as a broken worker
MAX_NODES = 200_000
MAX_DEPTH = 64
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


def read_frame(fd: int) -> bytes:
    (n,) = struct.unpack(">I", _read_exact(fd, 4))
    if n > MAX_FRAME:
        raise WireError(f"reply of {n} bytes exceeds the {MAX_FRAME}-byte limit")
    return _read_exact(fd, n)


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
        if isinstance(obj, np.generic) and t.__module__ == "numpy":
            return self._array(np.asarray(obj), "npscalar") or self._handle(obj)
        import jax  # only the worker encodes, after jax is imported
        if isinstance(obj, jax.Array) and type(obj).__module__.startswith("jax"):
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
def decode_reply(payload: bytes, make_handle):
    """Parse a reply safely. `make_handle(node)` turns a handle node into a grader-side proxy."""
    try:
        n_head, n_buf = struct.unpack_from(">II", payload, 0)
        pos = 8
        header = json.loads(payload[pos:pos + n_head])
        pos += n_head
        buffers = []
        for _ in range(n_buf):
            (n,) = struct.unpack_from(">Q", payload, pos)
            pos += 8
            buffers.append(payload[pos:pos + n])
            pos += n
    except Exception as exc:
        raise WireError(f"malformed reply from the worker ({type(exc).__name__})") from None
    if not isinstance(header, dict):
        raise WireError("malformed reply from the worker (header is not an object)")
    if "value" in header:
        header["value"] = _decode(header["value"], buffers, make_handle, 0)
    return header


def _decode(node, buffers, make_handle, depth):
    if depth > MAX_DEPTH:
        raise WireError("reply too deeply nested")
    if node is None or type(node) in (bool, int, float):
        return node
    if type(node) is not dict or "t" not in node:
        raise WireError("malformed value in reply")
    t = node["t"]
    if t == "str":
        return str(node["v"])
    if t == "bigint":
        return int(node["v"])
    if t == "float":
        return float(node["v"])
    if t == "complex":
        return complex(float(node["re"]), float(node["im"]))
    if t in ("list", "tuple"):
        items = [_decode(x, buffers, make_handle, depth + 1) for x in node["v"]]
        return items if t == "list" else tuple(items)
    if t == "dict":
        keys = node["k"]
        if any(type(k) not in (str, int) for k in keys):
            raise WireError("malformed dict in reply")
        return dict(zip(keys, (_decode(v, buffers, make_handle, depth + 1) for v in node["v"])))
    if t in ("np", "npscalar", "jax", "key"):
        if node["dtype"] not in _DTYPES:
            raise WireError("unsupported dtype in reply")
        dtype = np.dtype(node["dtype"])
        shape = tuple(int(s) for s in node["shape"])
        raw = buffers[int(node["b"])]
        if len(raw) != dtype.itemsize * int(np.prod(shape, dtype=np.int64)):
            raise WireError("array buffer does not match its shape")
        arr = np.frombuffer(raw, dtype=dtype).reshape(shape).copy()
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
    if t == "handle":
        return make_handle(node)
    raise WireError(f"unknown value kind {t!r} in reply")
