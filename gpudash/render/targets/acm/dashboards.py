"""The hub Grafana's dashboards: MCO's ``grafana-dashboard-loader`` (stolostron/multicluster-observability-operator
``loaders/dashboards/pkg/controller/dashboard_controller.go``) loads every ConfigMap labelled
``grafana-custom-dashboard: "true"`` in ``open-cluster-management-observability`` into the hub Grafana, in
the folder named by the annotation ``observability.open-cluster-management.io/dashboard-folder``. These
dashboards query MCO's own datasource (``Observatorium``, uid 000000001) through rbac-query-proxy, which
confines each user to the namespaces they may read; the hub Grafana has one org, so folders only organise.
"""
from __future__ import annotations

from typing import Any

from gpudash.base import kube, layout
from gpudash.base.deferred import Deferred
from gpudash.base.yamlfmt import dump_json
from gpudash.model.types import Model
from gpudash.render.content import Content
from gpudash.render.grafana import provisioning as prov
from gpudash.render.grafana.tenant_board import Board
from gpudash.render.targets.acm.settings import NAMESPACE
from gpudash.render.targets.dashboard_objects import check_size, object_name

FOLDER_ANNOTATION = "observability.open-cluster-management.io/dashboard-folder"


def configmap(file_stem: str, text: str, folder: str) -> dict[str, Any]:
    """One dashboard as an ACM custom-dashboard ConfigMap (data key ``<name>.json``): ``text`` is the JSON as the
    writer writes a dashboard file (yamlfmt.dump_json, the one serialiser)."""
    name = object_name("gpudash-dashboard", file_stem)
    cm = kube.configmap(name, NAMESPACE, {f"{file_stem}.json": text},
                        labels={"grafana-custom-dashboard": "true"},
                        annotations={FOLDER_ANNOTATION: folder})
    return check_size("ConfigMap", name, cm)


def _tenant_configmap(board: Deferred, folder: str) -> dict[str, Any]:
    b = board()
    assert isinstance(b, Board)
    return configmap(b.stem, b.text, folder)


def objects(model: Model, c: Content) -> dict[str, object]:
    """``dashboards/acm/<uid>.yaml``: every dashboard as a hub Grafana ConfigMap, of the content's hub variants (MCO's
    datasource); a tenant's is deferred: built, proven and wrapped when the writer reaches it (one at a time)."""
    folder = prov.provider_folder_title(model)
    out: dict[str, object] = {layout.dashboard_configmap(stem): configmap(stem, dump_json(data), folder)
                              for stem, data in c.hub_provider.items()}
    for t in model.tenants:
        out[layout.dashboard_configmap(c.tenants[t.name].stem)] = Deferred(
            _tenant_configmap, (c.hub_tenants[t.name], prov.tenant_folder_title(t)), resource=True)
    return out
