"""``grafana-operator``: grafana-operator v5 (``grafana.integreatly.org/v1beta1``): a ``GrafanaFolder`` (with
permissions) per audience, a ``GrafanaDashboard`` per dashboard (``gzipJson``: base64 of gzip with mtime 0, so the
output is deterministic and objects stay far below the 262,144-byte annotation limit of client-side apply and
ArgoCD), and a ``GrafanaDatasource`` per audience whose bearer token comes from a Secret. Each audience is a Grafana
instance (or an external Grafana org) selected by labels: ``gpudash.io/audience: provider``, or
``gpudash.io/audience: tenant`` plus ``gpudash.io/tenant: <name>``.
"""
from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Iterable
from typing import Any

from gpudash.base import kube, layout
from gpudash.base.deferred import Deferred
from gpudash.model.types import Model, Tenant
from gpudash.render.content import Content
from gpudash.render.grafana import provisioning as prov
from gpudash.render.grafana import uids
from gpudash.render.grafana.tenant_board import Board, text
from gpudash.render.targets.dashboard_objects import check_size, object_name

OPERATOR_API = "grafana.integreatly.org/v1beta1"
OPERATOR_NAMESPACE = "gpudash-grafana"
AUDIENCE_LABEL = "gpudash.io/audience"
TENANT_LABEL = "gpudash.io/tenant"


def compact_json(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def gzip_json(compact: str) -> str:
    """base64(gzip(``compact``: :func:`compact_json` of a dashboard)), byte-for-byte reproducible (mtime 0, fixed
    level)."""
    raw = compact.encode("utf-8")
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


def ungzip_json(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(gzip.decompress(base64.b64decode(text)).decode("utf-8"))
    return data


def provider_selector() -> dict[str, Any]:
    return {"matchLabels": {AUDIENCE_LABEL: "provider"}}


def tenant_selector(t: Tenant) -> dict[str, Any]:
    return {"matchLabels": {AUDIENCE_LABEL: "tenant", TENANT_LABEL: t.name}}


def grafana_folder(name: str, uid: str, title: str, permissions: Iterable[dict[str, Any]],
                   selector: dict[str, Any]) -> dict[str, Any]:
    items = json.dumps({"items": list(permissions)}, sort_keys=True)
    return kube.obj(OPERATOR_API, "GrafanaFolder", name, OPERATOR_NAMESPACE,
                    spec={"instanceSelector": selector, "uid": uid, "title": title, "permissions": items})


def grafana_dashboard(name: str, compact: str, folder_ref: str, selector: dict[str, Any]) -> dict[str, Any]:
    """The dashboard whose :func:`compact_json` is ``compact``, as a ``GrafanaDashboard``."""
    obj = kube.obj(OPERATOR_API, "GrafanaDashboard", name, OPERATOR_NAMESPACE,
                   spec={"instanceSelector": selector, "folderRef": folder_ref, "resyncPeriod": "10m0s",
                         "gzipJson": gzip_json(compact)})
    return check_size("GrafanaDashboard", name, obj)


def grafana_datasource(name: str, datasource: dict[str, Any], selector: dict[str, Any], secret: str) -> dict[str, Any]:
    """The provisioning datasource as a CR; the bearer token is read from ``secret`` (key ``token``)."""
    ds = {k: v for k, v in datasource.items() if k not in ("orgId", "editable", "secureJsonData")}
    ds["secureJsonData"] = {"httpHeaderValue1": "Bearer ${token}"}
    return kube.obj(OPERATOR_API, "GrafanaDatasource", name, OPERATOR_NAMESPACE, spec={
        "instanceSelector": selector, "datasource": ds,
        "valuesFrom": [{"targetPath": "secureJsonData.httpHeaderValue1",
                        "valueFrom": {"secretKeyRef": {"name": secret, "key": "token"}}}]})


def provider_token_secret() -> str:
    return "gpudash-provider-token"


def tenant_token_secret(t: Tenant) -> str:
    return object_name("gpudash-token-tenant", t.name)


def deliver(model: Model, c: Content) -> dict[str, object]:
    """``grafana/operator/*.yaml``: the content's provider dashboards and tenant boards (gpudash's datasources)."""
    provider, tenants = c.provider, c.tenants
    out: dict[str, object] = {}
    folder = object_name("gpudash-folder", "provider")
    out[layout.grafana_operator(folder)] = grafana_folder(
        folder, uids.provider_folder_uid(), prov.provider_folder_title(model), prov.PROVIDER_FOLDER_PERMISSIONS,
        provider_selector())
    ds = object_name("gpudash-datasource", "provider")
    out[layout.grafana_operator(ds)] = grafana_datasource(ds, prov.provider_datasource(model),
                                                            provider_selector(), provider_token_secret())
    for stem, dash in sorted(provider.items()):
        name = object_name("gpudash-dashboard", stem)
        out[layout.grafana_operator(name)] = grafana_dashboard(name, compact_json(dash), folder, provider_selector())
    for t in model.tenants:
        sel = tenant_selector(t)
        tfolder = object_name("gpudash-folder-tenant", t.name)
        out[layout.grafana_operator(tfolder)] = grafana_folder(
            tfolder, uids.tenant_folder_uid(t.name), prov.tenant_folder_title(t), prov.TENANT_FOLDER_PERMISSIONS,
            sel)
        tds = object_name("gpudash-datasource-tenant", t.name)
        out[layout.grafana_operator(tds)] = grafana_datasource(
            tds, prov.tenant_datasource(model, t, None), sel, tenant_token_secret(t))
        name = object_name("gpudash-dashboard", tenants[t.name].stem)
        out[layout.grafana_operator(name)] = Deferred(_tenant_dashboard, (name, tenants[t.name], tfolder, sel),
                                                      resource=True)
    return out


def _tenant_dashboard(name: str, b: Board, folder_ref: str, selector: dict[str, Any]) -> dict[str, Any]:
    """A tenant board's ``GrafanaDashboard``, built as the writer reaches it (its gzip in a render's forked writers;
    refused over the last-applied limit by :func:`grafana_dashboard`, as a deferred object must be)."""
    return grafana_dashboard(name, text(b, compact_json), folder_ref, selector)
