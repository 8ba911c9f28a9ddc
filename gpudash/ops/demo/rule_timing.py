"""When a Prometheus rule manager evaluates a rule group: every interval at an offset hashed from the group's
file and name (``rules.Group.EvalTimestamp``), with XXH64 over the label set as the build encodes it. promtool's
rules backfill places its evaluations the same way, so a backfill by query must too.
"""
from __future__ import annotations

import re


def labels_encoding(server_version: str | None, tags: frozenset[str]) -> str:
    """How a Prometheus build hashes a label set, which places rule group evaluations (``rules.Group.hash``):
    "slicelabels" (name, 0xff, value, 0xff per label), "stringlabels" (3.5+: each string after its length in
    one byte, or 0xff and three bytes) or "stringlabels-varint" (2.44-3.4: after a uvarint length).
    ``stringlabels`` is the default from 3.5 and a build tag before (prometheus/prometheus
    model/labels/labels_stringlabels.go; CHANGELOG 2.44.0 and 3.5.0 #16069); Debian's 2.42 has no tag."""
    major, minor = (int(x) for x in re.findall(r"^(\d+)\.(\d+)", server_version or "0.0")[0])
    if (major, minor) >= (3, 5):
        return "slicelabels" if tags & {"slicelabels", "dedupelabels"} else "stringlabels"
    return "stringlabels-varint" if "stringlabels" in tags else "slicelabels"


_P1, _P2, _P3, _P4, _P5 = (11400714785074694791, 14029467366897019727, 1609587929392839161,
                           9650029242287828579, 2870177450012600261)
_M = (1 << 64) - 1


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (64 - r))) & _M


def _round(acc: int, lane: int) -> int:
    return (_rotl((acc + lane * _P2) & _M, 31) * _P1) & _M


def xxh64(data: bytes, seed: int = 0) -> int:
    """XXH64, the hash Prometheus uses for label sets (github.com/cespare/xxhash)."""
    n, i = len(data), 0
    if n >= 32:
        v = [(seed + _P1 + _P2) & _M, (seed + _P2) & _M, seed, (seed - _P1) & _M]
        while i + 32 <= n:
            v = [_round(v[k], int.from_bytes(data[i + 8 * k:i + 8 * k + 8], "little")) for k in range(4)]
            i += 32
        h = (_rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) + _rotl(v[3], 18)) & _M
        for lane in v:
            h = ((h ^ _round(0, lane)) * _P1 + _P4) & _M
    else:
        h = (seed + _P5) & _M
    h = (h + n) & _M
    while i + 8 <= n:
        h = (_rotl(h ^ _round(0, int.from_bytes(data[i:i + 8], "little")), 27) * _P1 + _P4) & _M
        i += 8
    if i + 4 <= n:
        h = (_rotl(h ^ (int.from_bytes(data[i:i + 4], "little") * _P1) & _M, 23) * _P2 + _P3) & _M
        i += 4
    while i < n:
        h = (_rotl(h ^ (data[i] * _P5) & _M, 11) * _P1) & _M
        i += 1
    h ^= h >> 33
    h = (h * _P2) & _M
    h ^= h >> 29
    h = (h * _P3) & _M
    return h ^ (h >> 32)


def group_eval_start(name: str, interval: float, start: float, file: str = "",
                     labels_encoding: str = "slicelabels") -> float:
    """First evaluation time at or after ``start`` of a rule group, as the Prometheus rule manager (and so
    promtool's rules backfill) places it: every ``interval`` seconds at the offset
    ``hash(labels{file, name}) % interval`` (``rules.Group.EvalTimestamp``), the hash depending on how the build
    encodes labels (:func:`labels_encoding`)."""
    step = int(round(interval * 1e9))
    offset = xxh64(_labels_bytes({"file": file, "name": name}, labels_encoding)) % step
    t = int(round(start * 1e9))
    base = (t - offset) - ((t - offset) % step) + offset
    while base < t:
        base += step
    return base / 1e9


def _labels_bytes(labels: dict[str, str], encoding: str) -> bytes:
    """The bytes ``labels.Labels.Hash`` hashes under ``encoding`` (prometheus/prometheus model/labels/)."""
    strings = [s.encode() for k in sorted(labels) for s in (k, labels[k])]
    if encoding == "slicelabels":
        return b"".join(s + b"\xff" for s in strings)

    def size(n: int) -> bytes:
        if encoding == "stringlabels":
            return bytes([n]) if n < 255 else b"\xff" + n.to_bytes(3, "little")
        out = b""
        while n >= 0x80:
            out, n = out + bytes([n & 0x7F | 0x80]), n >> 7
        return out + bytes([n])

    if encoding not in ("stringlabels", "stringlabels-varint"):
        raise ValueError(f"unknown labels encoding {encoding!r}")
    return b"".join(size(len(s)) + s for s in strings)
