"""``mixin``: a jsonnet monitoring mixin of the same rules, alerts and dashboards (mixin/)."""
from __future__ import annotations

from gpudash import mixin
from gpudash.content import Content
from gpudash.model.types import Model


def deliver(model: Model, c: Content) -> dict[str, object]:
    return mixin.artifacts(model, c)
