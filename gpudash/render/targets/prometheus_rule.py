"""``prometheus-rule``: PrometheusRule objects for a cluster's own Prometheus (rules/kubernetes,
alerts/kubernetes)."""
from __future__ import annotations

from gpudash.model.types import Model
from gpudash.render import alerts, rules
from gpudash.render.content import Content


def deliver(model: Model, c: Content) -> dict[str, object]:
    return {**rules.objects(c.spoke, c.hub, c.tier), **alerts.objects(c.alerts)}
