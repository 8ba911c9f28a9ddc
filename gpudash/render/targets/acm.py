"""``acm``: the ACM hub: the MCO allowlist, Thanos Ruler rules and settings, the spoke tier's Policy (mco/), the
Alertmanager routing Secret (unless ``mco.alertmanager_config`` is ``merge``: the hub admin merges gpudash's route
into their own Secret) and the hub Grafana's ConfigMaps (dashboards/acm/)."""
from __future__ import annotations

from gpudash.base.layout import ALERTMANAGER_SECRET
from gpudash.model.types import Model
from gpudash.render import grafana, mco
from gpudash.render.alerts import routing
from gpudash.render.content import Content


def deliver(model: Model, c: Content) -> dict[str, object]:
    secret = {ALERTMANAGER_SECRET: routing.secret(model)} if model.mco.alertmanager_config == "render" else {}
    return {**mco.objects(model, c.spoke, c.hub, c.alerts, c.tier), **secret, **grafana.acm(model, c.tenants)}
