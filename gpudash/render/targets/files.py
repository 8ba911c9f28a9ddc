"""``files``: plain Grafana dashboard JSON for manual import or any Grafana (dashboards/*.json, and
dashboards/import/ with ``__inputs``)."""
from __future__ import annotations

from gpudash.model.types import Model
from gpudash.render import grafana
from gpudash.render.content import Content


def deliver(model: Model, c: Content) -> dict[str, object]:
    return {**grafana.plain(c.provider, c.tenants), **grafana.for_import(c.provider)}
