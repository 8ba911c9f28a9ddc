"""Python's cyclic garbage collector paused while gpudash builds and frees objects by the hundred thousand.

Reference counts free almost all of a render's garbage; the collector's passes over what is alive (the model, every
tenant's board) only cost time: 0.2 s of the parent's 2 s of CPU in a 1,000-tenant render, and a fifth of loading
that model (0.04 of 0.2 s, on one core before the golden workers fork). All it found at a render's end was 12,212
objects (2 MB) of import-time cycles (benchmarks/suite_times.md sections 23 and 24). The forked workers run without
it for the same reason (gpudash/render/golden/orchestrate/workers.py).
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """The collector off while the block runs, and back on after it (however it ends) if it was on: a test or a
    library calling gpudash keeps its own setting."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
