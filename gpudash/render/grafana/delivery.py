"""Dashboards as Kubernetes objects: ACM hub Grafana ConfigMaps and grafana-operator v5 custom resources.

ACM: MCO's ``grafana-dashboard-loader`` (stolostron/multicluster-observability-operator
``loaders/dashboards/pkg/controller/dashboard_controller.go``) loads every ConfigMap labelled
``grafana-custom-dashboard: "true"`` in ``open-cluster-management-observability`` into the hub Grafana, in
the folder named by the annotation ``observability.open-cluster-management.io/dashboard-folder``. These
dashboards query MCO's own datasource (``Observatorium``, uid 000000001) through rbac-query-proxy, which
confines each user to the namespaces they may read; the hub Grafana has one org, so folders only organise.

grafana-operator v5 (``grafana.integreatly.org/v1beta1``): a ``GrafanaFolder`` (with permissions) per
audience, a ``GrafanaDashboard`` per dashboard (``gzipJson``: base64 of gzip with mtime 0, so the output is
deterministic and objects stay far below the 262,144-byte annotation limit of client-side apply and
ArgoCD), and a ``GrafanaDatasource`` per audience whose bearer token comes from a Secret. Each audience is a
Grafana instance (or an external Grafana org) selected by labels: ``gpudash.io/audience: provider``, or
``gpudash.io/audience: tenant`` plus ``gpudash.io/tenant: <name>``.
"""
from __future__ import annotations

import base64
import gzip
import json
import re

from gpudash.base import kube, layout
from gpudash.base.errors import GenerationError
from gpudash.model.types import Model, Tenant
from gpudash.render.grafana import provisioning as prov
from gpudash.render.grafana.tenant_board import Board, text

ACM_NAMESPACE = "open-cluster-management-observability"
ACM_FOLDER_ANNOTATION = "observability.open-cluster-management.io/dashboard-folder"
OPERATOR_API = "grafana.integreatly.org/v1beta1"
OPERATOR_NAMESPACE = "gpudash-grafana"
AUDIENCE_LABEL = "gpudash.io/audience"
TENANT_LABEL = "gpudash.io/tenant"


def object_name(prefix: str, name: str) -> str:
    """A DNS-1123 object name: ``<prefix>-<name>`` lower-cased, other characters -> ``-``."""
    return re.sub(r"[^a-z0-9-]", "-", f"{prefix}-{name}".lower()).strip("-")[:253]


def compact_json(data: dict) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _check_size(kind: str, name: str, obj: dict) -> dict:
    """``obj``, refused when client-side apply could not store it as its last-applied annotation (the file is
    deferred: never annotated for server-side apply)."""
    size = kube.annotations_size(obj)
    if size > kube.LAST_APPLIED_LIMIT:
        raise GenerationError(f"{kind} {name} needs {size} bytes of annotations applied client-side, over the "
                              f"{kube.LAST_APPLIED_LIMIT}-byte limit")
    return obj


# --- ACM ----------------------------------------------------------------------------------------------------------

def acm_configmap(file_stem: str, text: str, folder: str) -> dict:
    """One dashboard as an ACM custom-dashboard ConfigMap (data key ``<name>.json``): ``text`` is the JSON as the
    writer writes a dashboard file (yamlfmt.dump_json, the one serialiser)."""
    name = object_name("gpudash-dashboard", file_stem)
    cm = kube.configmap(name, ACM_NAMESPACE, {f"{file_stem}.json": text},
                        labels={"grafana-custom-dashboard": "true"},
                        annotations={ACM_FOLDER_ANNOTATION: folder})
    return _check_size("ConfigMap", name, cm)


# --- grafana-operator ---------------------------------------------------------------------------------------------

def gzip_json(compact: str) -> str:
    """base64(gzip(``compact``: :func:`compact_json` of a dashboard)), byte-for-byte reproducible (mtime 0, fixed
    level)."""
    raw = compact.encode("utf-8")
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


def ungzip_json(text: str) -> dict:
    return json.loads(gzip.decompress(base64.b64decode(text)).decode("utf-8"))


def provider_selector() -> dict:
    return {"matchLabels": {AUDIENCE_LABEL: "provider"}}


def tenant_selector(t: Tenant) -> dict:
    return {"matchLabels": {AUDIENCE_LABEL: "tenant", TENANT_LABEL: t.name}}


def grafana_folder(name: str, uid: str, title: str, permissions, selector: dict) -> dict:
    items = json.dumps({"items": list(permissions)}, sort_keys=True)
    return kube.obj(OPERATOR_API, "GrafanaFolder", name, OPERATOR_NAMESPACE,
                    spec={"instanceSelector": selector, "uid": uid, "title": title, "permissions": items})


def grafana_dashboard(name: str, compact: str, folder_ref: str, selector: dict) -> dict:
    """The dashboard whose :func:`compact_json` is ``compact``, as a ``GrafanaDashboard``."""
    obj = kube.obj(OPERATOR_API, "GrafanaDashboard", name, OPERATOR_NAMESPACE,
                   spec={"instanceSelector": selector, "folderRef": folder_ref, "resyncPeriod": "10m0s",
                         "gzipJson": gzip_json(compact)})
    return _check_size("GrafanaDashboard", name, obj)


def grafana_datasource(name: str, datasource: dict, selector: dict, secret: str) -> dict:
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


def operator_objects(model: Model, provider: dict[str, dict], tenants: dict[str, Board]) -> dict:
    """``grafana/operator/*.yaml``: ``provider`` maps file stems to dashboards (gpudash datasource uids),
    ``tenants`` tenant name -> its board."""
    from gpudash.render.grafana import uids

    out = {}
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
        b = tenants[t.name]
        name = object_name("gpudash-dashboard", b.stem)
        out[layout.grafana_operator(name)] = grafana_dashboard(name, text(b, compact_json), tfolder, sel)
    return out
