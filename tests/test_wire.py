"""The reply decoder against hostile payloads (issue 23, class 4), with hypothesis.

Every reply comes from a process that runs student code, so the decoder must turn anything at all
into a reply or a WireError: never another exception, never more values than its node budget,
never one buffer decoded twice (a 4 MB reply once decoded into 2.5 GB of copies).
"""
from __future__ import annotations

import json
import math
import os
import struct

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autograder.sandbox import wire

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_dtypes = st.sampled_from(["bool", "int8", "int32", "int64", "uint8", "uint16", "float16", "float32", "float64",
                           "complex64"])
_arrays = st.builds(lambda dtype, shape, seed: np.random.default_rng(seed).integers(0, 5, size=shape).astype(dtype),
                    _dtypes, st.lists(st.integers(0, 4), max_size=3).map(tuple), st.integers(0, 2**16))
_scalars = st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True) | st.text(max_size=20) \
    | st.complex_numbers(allow_nan=False)
_values = st.recursive(_scalars | _arrays, lambda inner: st.lists(inner, max_size=4)
                       | st.lists(inner, max_size=4).map(tuple)
                       | st.dictionaries(st.text(max_size=5) | st.integers(0, 9), inner, max_size=4),
                       max_leaves=20)


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape and \
            np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return type(b) is dict and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _decode(payload):
    return wire.decode_reply(payload, lambda node: ("handle", node.get("id")))


@SETTINGS
@given(_values)
def test_every_plain_value_crosses_unchanged(value):
    payload = wire.encode_reply({"ok": True, "value": value, "violations": []}, {})
    assert _same(value, _decode(payload)["value"])


@SETTINGS
@given(st.binary(max_size=400))
def test_random_bytes_are_a_wire_error_or_a_reply(data):
    try:
        reply = _decode(data)
    except wire.WireError:
        return
    assert type(reply) is dict and type(reply["ok"]) is bool


@SETTINGS
@given(_values, st.data())
def test_a_corrupted_reply_is_a_wire_error_or_a_reply(value, data):
    payload = bytearray(wire.encode_reply({"ok": True, "value": value, "violations": []}, {}))
    for _ in range(data.draw(st.integers(1, 4))):
        where = data.draw(st.integers(0, len(payload) - 1))
        action = data.draw(st.sampled_from(["flip", "cut", "insert"]))
        if action == "flip":
            payload[where] ^= data.draw(st.integers(1, 255))
        elif action == "cut":
            del payload[where:where + data.draw(st.integers(1, 8))]
        else:
            payload[where:where] = data.draw(st.binary(min_size=1, max_size=8))
        if not payload:
            break
    try:
        reply = _decode(bytes(payload))
    except wire.WireError:
        return
    assert type(reply) is dict


@SETTINGS
@given(st.recursive(st.none() | st.integers() | st.text(max_size=4) | st.floats(),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                    max_leaves=30))
def test_any_json_header_is_a_wire_error_or_a_reply(header):
    head = json.dumps(header).encode()
    try:
        reply = _decode(struct.pack(">II", len(head), 0) + head)
    except wire.WireError:
        return
    assert type(reply) is dict


def _raw(header: dict, buffers: list[bytes]) -> bytes:
    head = json.dumps(header).encode()
    return struct.pack(">II", len(head), len(buffers)) + head + b"".join(struct.pack(">Q", len(b)) + b for b in buffers)


def test_one_buffer_cannot_back_two_arrays():
    node = {"t": "np", "dtype": "<f4", "shape": [4], "b": 0}
    with pytest.raises(wire.WireError, match="used twice"):
        _decode(_raw({"ok": True, "value": {"t": "list", "v": [node, node]}}, [b"\0" * 16]))
    assert _decode(_raw({"ok": True, "value": {"t": "list", "v": [node]}}, [b"\0" * 16]))["value"][0].shape == (4,)


def test_the_node_budget_is_enforced():
    many = {"t": "list", "v": [1] * (wire.MAX_NODES + 1)}
    with pytest.raises(wire.WireError, match="too large"):
        _decode(_raw({"ok": True, "value": many}, []))


def test_a_shape_that_overflows_int64_does_not_match_a_small_buffer():
    node = {"t": "np", "dtype": "<f8", "shape": [2**32, 2**32, 2**32], "b": 0}
    with pytest.raises(wire.WireError):
        _decode(_raw({"ok": True, "value": node}, [b"\0" * 8]))


@pytest.mark.parametrize("header", [{"ok": "yes"}, {"ok": True, "violations": [3]}, {"ok": True, "extra": 1},
                                    {"ok": False, "error": {"message": "no type"}}, {"value": 1}])
def test_an_envelope_of_the_wrong_form_is_a_wire_error(header):
    with pytest.raises(wire.WireError):
        _decode(_raw(header, []))


def test_the_grader_reads_a_large_reply_into_one_buffer_and_checks_its_nonce_first(limits):
    """A reply for another request is refused after its 4 + 24 first bytes: the rest is never read."""
    from autograder.sandbox.process import ForgedReply, WorkerProcess
    worker = WorkerProcess(limits, [])
    try:
        r, w = os.pipe()
        worker._rep_r, old = r, worker._rep_r
        os.write(w, struct.pack(">I", 10**8) + wire.nonce_bytes("not-the-nonce") + b"\0" * 1000)
        with pytest.raises(ForgedReply):
            worker.receive("the-nonce", 5, None)
        os.close(w)
        os.close(old)
    finally:
        worker.close()
