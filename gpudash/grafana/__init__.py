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

import json
import weakref

from gpudash import layout
from gpudash.errors import GenerationError
from gpudash.grafana import delivery, isolation, tenant_board, uids
from gpudash.grafana import provisioning as prov
from gpudash.model.types import Model, Tenant
from gpudash.promql import read
from gpudash.report import queries as report_queries


def rendered(model: Model, acm: bool = False) -> tuple[dict[str, dict], dict[str, dict[str, dict]]]:
    """(provider dashboards by file stem, {tenant name: tenant dashboards by file stem}) as Grafana JSON.

    ``acm`` selects the hub Grafana's datasource instead of gpudash's own. Tenant dashboards are proven
    isolated here.
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
    if not acm:
        _BUILT.pop(id(model), None)  # built afresh here; only the ACM variant that follows reuses the build
    for t in model.tenants:
        ds_uid = uids.ACM_DATASOURCE_UID if acm else uids.tenant_datasource_uid(t.name)
        stem, text = _tenant_json(model, t)
        data = tenant_board.with_datasource(json.loads(text), uids.tenant_datasource_uid(t.name), ds_uid)
        isolation.prove(data, t.namespace, ds_uid, model.clusters)
        tenants[t.name] = {stem: data}
    seen: dict[str, str] = {}
    for stem, data in [*provider.items(), *((s, d) for group in tenants.values() for s, d in group.items())]:
        if data["uid"] in seen:
            raise GenerationError(f"dashboards {seen[data['uid']]!r} and {stem!r} have the same uid {data['uid']}")
        seen[data["uid"]] = stem
    return provider, tenants


# id(model) -> {tenant name: (file stem, compact JSON)}, dropped with the model (models are not all hashable).
_BUILT: dict[int, dict[str, tuple[str, str]]] = {}


def _tenant_json(model: Model, t: Tenant) -> tuple[str, str]:
    """(file stem, compact JSON) of ``t``'s dashboard with its own datasource, built through grafanalib once per
    render of the gpudash variant: the ACM variant that follows specialises a fresh copy of it."""
    from gpudash.grafana import dashboards
    from gpudash.grafana import panels as P

    if id(model) not in _BUILT:
        _BUILT[id(model)] = {}
        weakref.finalize(model, _BUILT.pop, id(model), None)
    built = _BUILT[id(model)]
    if t.name not in built:
        dash = dashboards.tenant(model, t)
        built[t.name] = dashboards.file_name(dash), json.dumps(P.render(dash, prov.datasource_ref(
            uids.tenant_datasource_uid(t.name))), separators=(",", ":"), ensure_ascii=False)
    return built[t.name]


def prove_reports(model: Model) -> None:
    """Every query ``gpudash report --tenant`` sends is confined and complete through the proxy."""
    lookback = read.fresh_seconds(model.billing.mco_interval)
    window = max(model.alerts.idle.window, 2 * model.billing.mco_interval)
    for t in model.tenants:
        isolation.prove_queries(report_queries.tenant_queries(t.namespace, lookback, window), t.namespace,
                                model.clusters)


def plain(provider: dict[str, dict], tenants: dict[str, dict[str, dict]]) -> dict[str, dict]:
    """``dashboards/<uid>.json``: the dashboards with gpudash's datasources (files and file provisioning)."""
    boards = {**provider, **{stem: data for group in tenants.values() for stem, data in group.items()}}
    return {layout.dashboard_json(stem): data for stem, data in boards.items()}


def for_import(provider: dict[str, dict]) -> dict[str, dict]:
    """``dashboards/import/<uid>.json``: the provider and CCSP dashboards with ``__inputs`` (files)."""
    from gpudash.grafana import panels as P  # grafanalib, as in rendered()

    return {layout.dashboard_import(stem): P.for_import(data) for stem, data in provider.items()}


def acm(model: Model) -> dict[str, dict]:
    """``dashboards/acm/<uid>.yaml``: every dashboard as an ACM hub Grafana ConfigMap (MCO's datasource)."""
    provider, tenants = rendered(model, acm=True)
    out = {layout.dashboard_configmap(stem): delivery.acm_configmap(stem, data, prov.provider_folder_title(model))
           for stem, data in provider.items()}
    for t in model.tenants:
        for stem, data in tenants[t.name].items():
            out[layout.dashboard_configmap(stem)] = delivery.acm_configmap(stem, data, prov.tenant_folder_title(t))
    return out


def provisioned(model: Model, provider: dict[str, dict], tenants: dict[str, dict[str, dict]]) -> dict[str, object]:
    """Grafana file provisioning of the plain dashboards, and ``grafana/bootstrap.json``."""
    files = {"provider": [f"{stem}.json" for stem in provider]}
    files.update({name: [f"{stem}.json" for stem in group] for name, group in tenants.items()})
    return {**prov.files(model, files), layout.GRAFANA_BOOTSTRAP: prov.bootstrap(model)}
