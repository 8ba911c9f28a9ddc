"""``grafana-operator``: grafana-operator v5 custom resources (grafana/operator/)."""
from __future__ import annotations

from gpudash.model.types import Model
from gpudash.render.content import Content
from gpudash.render.grafana import delivery


def deliver(model: Model, c: Content) -> dict[str, object]:
    return delivery.operator_objects(model, c.provider, c.tenants)
