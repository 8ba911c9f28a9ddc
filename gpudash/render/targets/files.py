"""``files``: plain Grafana dashboard JSON for manual import or any Grafana (dashboards/*.json, and
dashboards/import/ with ``__inputs``). Pure; no I/O."""
from __future__ import annotations

from gpudash.base import layout
from gpudash.model.types import Model
from gpudash.render.content import Content


def plain(c: Content) -> dict[str, object]:
    """``dashboards/<uid>.json``: the dashboards with gpudash's datasources (files and file provisioning); the
    tenant dashboards as their one build serialised them."""
    out: dict[str, object] = {layout.dashboard_json(stem): data for stem, data in c.provider.items()}
    out.update({layout.dashboard_json(b.stem): b.text for b in c.tenants.values()})
    return out


def deliver(model: Model, c: Content) -> dict[str, object]:
    """The plain dashboards, and the provider and CCSP dashboards with ``__inputs`` for Grafana's import."""
    from gpudash.render.grafana import panels  # grafanalib: loaded only when a render delivers files

    return {**plain(c), **{layout.dashboard_import(stem): panels.for_import(data) for stem, data in c.provider.items()}}
