"""Delivery targets: each takes the content of a render (:mod:`gpudash.render.content`) and returns the files that
deliver it one way; the model chooses which (``outputs.targets``, default all; names and descriptions:
:data:`gpudash.model.types.TARGETS`). The content's own files are written whatever the choice.

One module (or package) per target, each a pure function ``deliver(model, content) -> {path: data}`` (the shape of
sloth's ``internal/storage/io``: one writer per format) that packages the content and never calls a content builder
(tests/unit/test_layering.py); :data:`DELIVER` (registry.py) registers them. Adding a target is one module here,
its line in :data:`DELIVER` and in ``TARGETS``, and its folder in docs/outputs.md (CONTRIBUTING.md). Pure; no I/O.
"""
from gpudash.render.targets.registry import ALWAYS, DELIVER, merge, split

__all__ = ["ALWAYS", "DELIVER", "merge", "split"]
