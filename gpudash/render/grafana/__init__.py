"""Grafana: provider, CCSP and tenant dashboards, tenant folders and orgs, datasources, three delivery paths.

Artifacts (all from the model, deterministic):

* ``dashboards/<uid>.json`` — plain dashboard JSON using gpudash's own datasource UIDs (file provisioning,
  grafana-operator);
* ``dashboards/import/<uid>.json`` — the provider and CCSP dashboards for Grafana's "Import dashboard"
  (``__inputs``: the importer picks the Prometheus datasource);
* ``dashboards/acm/<uid>.yaml`` — the same dashboards as ACM hub Grafana ConfigMaps, querying MCO's
  ``Observatorium`` datasource;
* ``grafana/provisioning/{datasources,dashboards}/*.yaml`` — Grafana file provisioning, one org per tenant;
* ``grafana/bootstrap.json`` — orgs, folders, permissions and service accounts that
  ``gpudash grafana-bootstrap`` creates through the Grafana HTTP API;
* ``grafana/operator/*.yaml`` — grafana-operator v5 ``GrafanaFolder``/``GrafanaDashboard``/``GrafanaDatasource``.

Every tenant dashboard of every variant, and every query ``gpudash report --tenant`` sends, passes the isolation
proof of :mod:`gpudash.render.grafana.isolation` (with ACM's rbac-query-proxy modelled) before the output folder changes
(an ACM variant is proven as the writer stages it); a violation fails the render.
"""
from gpudash.render.grafana.built_boards import (
    boards,
    built_board,
    hub_board,
    provider_boards,
    rendered,
    tenant_boards,
)
from gpudash.render.grafana.isolation import prove_reports

__all__ = ["boards", "built_board", "hub_board", "prove_reports", "provider_boards", "rendered", "tenant_boards"]
