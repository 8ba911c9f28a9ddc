"""``grafana-operator``: grafana-operator v5 custom resources (grafana/operator/)."""
from __future__ import annotations

from gpudash.content import Content
from gpudash.grafana import delivery
from gpudash.model.types import Model


def deliver(model: Model, c: Content) -> dict[str, object]:
    return delivery.operator_objects(model, c.provider, c.tenants)
