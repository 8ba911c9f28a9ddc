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
proof of :mod:`gpudash.grafana.isolation` (with ACM's rbac-query-proxy modelled) before anything is written; a
violation fails the render.
"""
from __future__ import annotations

import weakref

from gpudash import layout
from gpudash.errors import GenerationError
from gpudash.grafana import delivery, isolation, tenant_board, uids
from gpudash.grafana import provisioning as prov
from gpudash.model.types import Model
from gpudash.promql import read
from gpudash.report import queries as report_queries


def rendered(model: Model, acm: bool = False) -> tuple[dict[str, dict], dict[str, dict[str, dict]]]:
    """(provider dashboards by file stem, {tenant name: tenant dashboards by file stem}) as Grafana JSON.

    ``acm`` selects the hub Grafana's datasource instead of gpudash's own. Tenant dashboards are proven
    isolated here, each variant as returned.
    """
    # grafanalib is loaded only to build dashboards: `gpudash --help` and the runtime tools that import
    # gpudash.grafana.uids or .bootstrap never pay for it
    from gpudash.grafana import dashboards
    from gpudash.grafana import panels as P

    provider_ds = uids.ACM_DATASOURCE_UID if acm else uids.provider_datasource_uid()
    provider = {}
    for dash in dashboards.provider_dashboards(model):
        provider[dashboards.file_name(dash)] = P.render(dash, prov.datasource_ref(provider_ds))
    tenants: dict[str, dict[str, dict]] = {}
    for t in model.tenants:
        stem, data = _tenant_boards(model)[t.name]
        if acm:
            data = tenant_board.with_datasource(data, uids.tenant_datasource_uid(t.name), uids.ACM_DATASOURCE_UID)
            isolation.prove(data, t.namespace, uids.ACM_DATASOURCE_UID, model.clusters)
        tenants[t.name] = {stem: data}
    seen: dict[str, str] = {}
    for stem, data in [*provider.items(), *((s, d) for group in tenants.values() for s, d in group.items())]:
        if data["uid"] in seen:
            raise GenerationError(f"dashboards {seen[data['uid']]!r} and {stem!r} have the same uid {data['uid']}")
        seen[data["uid"]] = stem
    return provider, tenants


# id(model) -> {tenant name: (file stem, dashboard JSON)}, dropped with the model (models are not all hashable).
_BUILT: dict[int, dict[str, tuple[str, dict]]] = {}


def _tenant_boards(model: Model) -> dict[str, tuple[str, dict]]:
    """{tenant name: (file stem, dashboard JSON)} with each tenant's own datasource, built through grafanalib and
    proven isolated once per model: the Grafana and mixin families and the ACM variant share them (read-only)."""
    from gpudash.grafana import dashboards
    from gpudash.grafana import panels as P

    if id(model) not in _BUILT:
        built = {}
        for t in model.tenants:
            dash, ds_uid = dashboards.tenant(model, t), uids.tenant_datasource_uid(t.name)
            data = P.render(dash, prov.datasource_ref(ds_uid))
            isolation.prove(data, t.namespace, ds_uid, model.clusters)
            built[t.name] = dashboards.file_name(dash), data
        _BUILT[id(model)] = built
        weakref.finalize(model, _BUILT.pop, id(model), None)
    return _BUILT[id(model)]


def prove_reports(model: Model) -> None:
    """Every query ``gpudash report --tenant`` sends is confined and complete through the proxy."""
    lookback = read.fresh_seconds(model.billing.mco_interval)
    window = max(model.alerts.idle.window, 2 * model.billing.mco_interval)
    for t in model.tenants:
        isolation.prove_queries(report_queries.tenant_queries(t.namespace, lookback, window), t.namespace,
                                model.clusters)


def artifacts(model: Model) -> dict[str, object]:
    """The files of the chosen delivery targets (gpudash.targets: the caller keeps only those; the variants no
    chosen target needs are not built)."""
    from gpudash.grafana import panels as P  # grafanalib, as in rendered()

    chosen = set(model.outputs.targets)
    prove_reports(model)
    provider, tenants = rendered(model)
    out: dict[str, object] = {}
    for stem, data in provider.items():
        out[layout.dashboard_json(stem)] = data
        out[layout.dashboard_import(stem)] = P.for_import(data)
    for group in tenants.values():
        for stem, data in group.items():
            out[layout.dashboard_json(stem)] = data
    if "acm" in chosen:
        acm_provider, acm_tenants = rendered(model, acm=True)
        for stem, data in acm_provider.items():
            out[layout.dashboard_configmap(stem)] = delivery.acm_configmap(stem, data,
                                                                        prov.provider_folder_title(model))
        for t in model.tenants:
            for stem, data in acm_tenants[t.name].items():
                out[layout.dashboard_configmap(stem)] = delivery.acm_configmap(stem, data, prov.tenant_folder_title(t))
    if "grafana-provisioning" in chosen:
        files = {"provider": [f"{stem}.json" for stem in provider]}
        files.update({name: [f"{stem}.json" for stem in group] for name, group in tenants.items()})
        out.update(prov.files(model, files))
        out[layout.GRAFANA_BOOTSTRAP] = prov.bootstrap(model)
    if "grafana-operator" in chosen:
        out.update(delivery.operator_objects(model, provider, tenants))
    return out
