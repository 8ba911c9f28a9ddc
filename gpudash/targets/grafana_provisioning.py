"""``grafana-provisioning``: self-managed Grafana: file provisioning (grafana/provisioning/, with the plain
dashboards it points at) and grafana/bootstrap.json for ``gpudash grafana-bootstrap``."""
from __future__ import annotations

from gpudash import grafana
from gpudash.content import Content
from gpudash.model.types import Model


def deliver(model: Model, c: Content) -> dict[str, object]:
    return {**grafana.plain(c.provider, c.tenants), **grafana.provisioned(model, c.provider, c.tenants)}
