"""``mixin``: a jsonnet monitoring mixin of the same rules, alerts and dashboards (mixin/)."""
from __future__ import annotations

from gpudash.model.types import Model
from gpudash.render import mixin
from gpudash.render.content import Content


def deliver(model: Model, c: Content) -> dict[str, object]:
    return mixin.artifacts(model, c)
