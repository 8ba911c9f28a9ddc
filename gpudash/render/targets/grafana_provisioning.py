"""``grafana-provisioning``: self-managed Grafana: file provisioning (grafana/provisioning/, with the plain
dashboards it points at) and grafana/bootstrap.json for ``gpudash grafana-bootstrap``. Pure; no I/O."""
from __future__ import annotations

from gpudash.base import layout
from gpudash.model.types import Model
from gpudash.render.content import Content
from gpudash.render.grafana import provisioning as prov
from gpudash.render.targets.files import plain


def deliver(model: Model, c: Content) -> dict[str, object]:
    files = {"provider": [f"{stem}.json" for stem in c.provider]}
    files.update({name: [f"{b.stem}.json"] for name, b in c.tenants.items()})
    return {**plain(c), **prov.files(model, files), layout.GRAFANA_BOOTSTRAP: prov.bootstrap(model)}
