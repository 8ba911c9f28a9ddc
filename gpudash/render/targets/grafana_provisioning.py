"""``grafana-provisioning``: self-managed Grafana: file provisioning (grafana/provisioning/, with the plain
dashboards it points at) and grafana/bootstrap.json for ``gpudash grafana-bootstrap``."""
from __future__ import annotations

from gpudash.model.types import Model
from gpudash.render import grafana
from gpudash.render.content import Content


def deliver(model: Model, c: Content) -> dict[str, object]:
    return {**grafana.plain(c.provider, c.tenants), **grafana.provisioned(model, c.provider, c.tenants)}
