"""The ACM target's entry: the hub's objects from the content (:mod:`.mco`, :mod:`.dashboards`) and the
Alertmanager routing Secret. Pure, no I/O."""
from __future__ import annotations

from typing import Any

from gpudash.base import kube
from gpudash.base.layout import ALERTMANAGER_SECRET
from gpudash.base.yamlfmt import COMMENT, dump_yaml
from gpudash.model.types import Model
from gpudash.render.content import Content
from gpudash.render.targets.acm import dashboards, mco
from gpudash.render.targets.acm.settings import NAMESPACE

# The hub Alertmanager's configuration: the Secret MCO creates once (see gpudash.render.alerts.routing)
SECRET_NAME = "alertmanager-config"
SECRET_KEY = "alertmanager.yaml"


def secret(alertmanager: dict[str, Any]) -> dict[str, Any]:
    """The Alertmanager configuration (``alertmanager.yml``'s data, its comment the header) as ACM's hub Secret
    ``alertmanager-config``, key ``alertmanager.yaml``."""
    body = {k: v for k, v in alertmanager.items() if k != COMMENT}
    text = dump_yaml(body, header=alertmanager[COMMENT])
    return kube.obj("v1", "Secret", SECRET_NAME, NAMESPACE, type="Opaque", stringData={SECRET_KEY: text})


def deliver(model: Model, c: Content) -> dict[str, object]:
    routing = {ALERTMANAGER_SECRET: secret(c.alertmanager)} if model.mco.alertmanager_config == "render" else {}
    rules = mco.objects(model, c.spoke, c.hub, c.alerts, c.tier, c.hub_series)
    return {**rules, **routing, **dashboards.objects(model, c)}
