"""A file whose data is built when the writer reaches it, so a render holds one such file at a time.

Tenant-scaled files (a ConfigMap per tenant dashboard, say) would otherwise all sit in memory between generation
and writing: at thousands of tenants that is most of a render's peak memory. A :class:`Deferred` is still pure:
the same builder and arguments give the same data, and two are equal when those are.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Deferred:
    """``build(*args)``, called by the writer; ``resource``: the data is a Kubernetes object a kustomization lists
    (known without building it). A deferred object is never annotated for server-side apply: its builder refuses
    it over the last-applied limit instead."""

    build: Callable[..., object]
    args: tuple[object, ...] = ()
    resource: bool = False

    def __call__(self) -> object:
        return self.build(*self.args)


def resolve(data: object) -> object:
    """``data``, built if deferred: plain data, or text as an iterator of pieces (what the writer streams)."""
    return data() if isinstance(data, Deferred) else data


def built(data: object) -> object:
    """``data`` built as a reader of a whole render wants it: a file written piece by piece as its text."""
    data = resolve(data)
    return "".join(data) if isinstance(data, Iterator) else data


def resolved(files: dict[str, object]) -> dict[str, object]:
    """``files`` with every deferred file built (:func:`built`; for tests)."""
    return {path: built(data) for path, data in files.items()}
