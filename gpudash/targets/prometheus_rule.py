"""``prometheus-rule``: PrometheusRule objects for a cluster's own Prometheus (rules/kubernetes,
alerts/kubernetes)."""
from __future__ import annotations

from gpudash import alerts, rules
from gpudash.content import Content
from gpudash.model.types import Model


def deliver(model: Model, c: Content) -> dict[str, object]:
    return {**rules.objects(c.spoke, c.hub, c.tier), **alerts.objects(c.alerts)}
