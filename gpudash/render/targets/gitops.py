"""The output as a GitOps user points ArgoCD at it: one folder per destination under ``deploy/``, each a kustomization
that applies alone (it lists the folders of Kubernetes objects that go there), ArgoCD Applications of them
(``outputs.argocd``), and a README.md at the output root saying what every folder is and where it goes.

The object folders stay where they were (``mco/``, ``quotas/``, ``prune/<cluster>/`` ...); a destination only lists
them (a kustomization may list another folder's kustomization: kubernetes-sigs/kustomize docs, "resources" accept
directories). ArgoCD formats from argoproj/argo-cd: Application and ApplicationSet (manifests/crds/), the cluster
generator with a post selector on the generated ``name`` (docs/operator-manual/applicationset/Generators-Cluster.md,
Generators-Post-Selector.md).
"""
from __future__ import annotations

import posixpath
from collections.abc import Iterable
from typing import Any

from gpudash.base import kube, layout
from gpudash.model.types import ArgoCD, Model
from gpudash.render.targets import argocd_rbac
from gpudash.render.targets.acm.settings import NAMESPACE as MCO_NAMESPACE
from gpudash.render.targets.grafana_operator import OPERATOR_NAMESPACE

ARGOCD_API = "argoproj.io/v1alpha1"
IN_CLUSTER = "https://kubernetes.default.svc"  # ArgoCD's name for the cluster it runs on
PROJECT = "default"
# Every Application syncs by itself, prunes what a render removed, undoes drift, and retries a failed sync (an
# object whose CRD or namespace is not there yet): argoproj/argo-cd docs/user-guide/auto_sync.md, sync-options.md
# and the Application CRD's spec.syncPolicy (retry.limit, retry.backoff).
SYNC_POLICY = {"automated": {"prune": True, "selfHeal": True},
               "retry": {"limit": 10, "backoff": {"duration": "30s", "factor": 2, "maxDuration": "10m"}}}
CREATE_NAMESPACE = "CreateNamespace=true"
# The namespace an Application creates (its destination namespace, CreateNamespace=true): gpudash's, holding every
# object of the destination but not rendered as a Namespace object, since the user's Grafana and token Secrets live
# there too: ArgoCD only creates it when missing (argo-cd docs/user-guide/sync-options.md, "Create Namespace").
CREATED_NAMESPACE = {layout.DEPLOY_GRAFANA: OPERATOR_NAMESPACE}
# Namespaces objects land in that no destination creates: what must exist before a sync (docs/outputs.md), besides
# each tenant's namespace on the clusters it exists on (tenants[].clusters).
PREREQUISITES = {MCO_NAMESPACE: "ACM's observability (the MultiClusterObservability is installed on the hub)"}

# Every top-level folder a render may write: what it holds and where it goes (the README's table).
FOLDERS = {
    layout.DEPLOY: ("one folder per destination, each a kustomization that applies alone; argocd/: the ArgoCD "
                    "Applications of them (outputs.argocd)", "point ArgoCD (or kubectl apply -k) at a destination"),
    layout.MCO: ("MCO metrics allowlist with the spoke rules, Thanos Ruler rules and alerts, Alertmanager Secret, "
                 "MCO settings (a kustomize Component), the spoke tier's Policy", "the ACM hub (deploy/hub)"),
    layout.RULES: ("spoke and hub rules as plain rule files; kubernetes/: one PrometheusRule",
                   "any Prometheus; kubernetes/: a cluster without ACM (deploy/single)"),
    layout.ALERTS: ("alert rules, alertmanager.yml; kubernetes/: the alerts as a PrometheusRule",
                    "any Prometheus / Alertmanager; kubernetes/: a cluster without ACM (deploy/single)"),
    layout.QUOTAS: ("the tenants' GPU ResourceQuotas; <cluster>/: those of tenants existing on some clusters only",
                    "every cluster (deploy/spokes, deploy/single); <cluster>/: that cluster "
                    "(deploy/clusters/<cluster>)"),
    layout.DASHBOARDS: ("dashboard JSON; acm/: the hub's Grafana ConfigMaps; import/: for Grafana's manual import",
                        "Grafana; acm/: the ACM hub (deploy/hub)"),
    layout.GRAFANA: ("provisioning/ (self-managed Grafana), operator/ (grafana-operator CRs), bootstrap.json",
                     "Grafana; operator/: where grafana-operator runs (deploy/grafana)"),
    layout.TESTS: ("promtool tests of the rules and alerts", "your CI (python -m gpudash test)"),
    layout.MIXIN: ("the same rules, alerts and dashboards as a jsonnet mixin", "kube-prometheus users"),
    layout.WIRING: ("the exporters' ServiceMonitors, the Role letting prometheus-k8s discover them, "
                    "kube-state-metrics' --metric-labels-allowlist", "every self-managed spoke (deploy/spokes)"),
    layout.PRUNE: ("the idle-GPU pruner's namespace and RBAC; <cluster>/: its Deployment there and the Roles in "
                   "namespaces of tenants existing on some clusters only",
                   "every cluster (deploy/spokes); <cluster>/: that cluster (deploy/clusters/<cluster>)"),
}


def _relative(destination: str, folder: str) -> str:
    return posixpath.relpath(folder, destination)


def _kustomization(destination: str, folders: Iterable[str]) -> dict[str, Any]:
    return {"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization",
            "resources": [_relative(destination, f) for f in folders]}


def destinations(model: Model, folders: set[str]) -> dict[str, tuple[str, ...]]:
    """{destination folder: the object folders (or destinations) it lists}, for the ``folders`` that hold a
    kustomization; a destination with nothing to list is left out."""
    def present(*wanted: str) -> tuple[str, ...]:
        return tuple(f for f in wanted if f in folders)

    out = {layout.DEPLOY_HUB: present(layout.MCO, layout.DASHBOARDS_ACM),
           layout.DEPLOY_SPOKES: present(layout.QUOTAS, layout.PRUNE, layout.WIRING),
           layout.DEPLOY_GRAFANA: present(layout.GRAFANA_OPERATOR)}
    for cluster in model.clusters:
        out[layout.deploy_cluster(cluster)] = (*((layout.DEPLOY_SPOKES,) if out[layout.DEPLOY_SPOKES] else ()),
                                               *present(layout.quotas_on(cluster),
                                                        layout.prune_deployment(cluster).rpartition("/")[0]))
    alone = present(layout.prune_deployment(model.clusters[0]).rpartition("/")[0]) if len(model.clusters) == 1 else ()
    out[layout.DEPLOY_SINGLE] = present(layout.RULES_KUBERNETES, layout.ALERTS_KUBERNETES, layout.QUOTAS,
                                        layout.PRUNE, layout.WIRING) + alone
    return {d: f for d, f in out.items() if f}


def _source(argocd: ArgoCD, path: str) -> dict[str, str]:
    return {"repoURL": argocd.repo_url, "targetRevision": argocd.revision,
            "path": posixpath.normpath(posixpath.join(argocd.path, path))}


def synced(destination: str, present: dict[str, tuple[str, ...]], files: dict[str, object]) -> list[dict[str, Any]]:
    """The objects ``destination`` applies: those of the folders it lists, through the destinations it lists (a
    deferred object is left out: only tenant dashboards are, beside objects of their kind)."""
    folders: set[str] = set()
    todo = [destination]
    while todo:
        for f in present.get(todo.pop(), ()):
            if f in present:
                todo.append(f)
            else:
                folders.add(f)
    return [d for p, d in sorted(files.items())
            if p.rpartition("/")[0] in folders and kube.is_resource(p, d) and kube.is_object(d)]


def _sync_policy(objects: list[dict[str, Any]], namespace: str | None) -> dict[str, Any]:
    """SYNC_POLICY, with CreateNamespace when the Application creates ``namespace`` and ServerSideApply when an
    object is too large for client-side apply (:func:`kube.fit` annotated it)."""
    options = [*([CREATE_NAMESPACE] if namespace else []),
               *([kube.SERVER_SIDE_APPLY] if any(kube.server_side(o) for o in objects) else [])]
    return {**SYNC_POLICY, **({"syncOptions": options} if options else {})}


def application(argocd: ArgoCD, destination: str, objects: list[dict[str, Any]]) -> dict[str, Any]:
    """The Application syncing ``destination`` (its ``objects``) to the cluster ArgoCD runs on."""
    name = kube.ARGOCD_APP_PREFIX + destination.removeprefix(f"{layout.DEPLOY}/").replace("/", "-")
    namespace = CREATED_NAMESPACE.get(destination)
    return kube.obj(ARGOCD_API, "Application", name, argocd.namespace,
                    spec={"project": PROJECT, "source": _source(argocd, destination),
                          "destination": {"server": IN_CLUSTER, **({"namespace": namespace} if namespace else {})},
                          "syncPolicy": _sync_policy(objects, namespace)})


def spokes(argocd: ArgoCD, clusters: Iterable[str], objects: list[dict[str, Any]]) -> dict[str, Any]:
    """The ApplicationSet giving each of the model's clusters its destination: ArgoCD's cluster generator (every
    cluster ArgoCD knows, e.g. registered by ACM's GitOpsCluster) narrowed to the model's by name; ``objects``:
    those of every cluster's destination."""
    template = {"metadata": {"name": kube.ARGOCD_APP_PREFIX + "{{.nameNormalized}}"},
                "spec": {"project": PROJECT, "source": _source(argocd, layout.deploy_cluster("{{.name}}")),
                         "destination": {"server": "{{.server}}"}, "syncPolicy": _sync_policy(objects, None)}}
    generator = {"clusters": {}, "selector": {"matchExpressions": [{"key": "name", "operator": "In",
                                                                    "values": list(clusters)}]}}
    return kube.obj(ARGOCD_API, "ApplicationSet", "gpudash-spokes", argocd.namespace,
                    spec={"goTemplate": True, "goTemplateOptions": ["missingkey=error"], "generators": [generator],
                          "template": template})


def _created(objects: list[dict[str, Any]], destinations: list[str]) -> dict[str, dict[str, Any]]:
    """{namespace: its Namespace object} of the namespaces ``destinations`` (whose ``objects`` these are) create."""
    out = {o["metadata"]["name"]: o for o in objects if o["kind"] == "Namespace"}
    return {**out, **{CREATED_NAMESPACE[d]: kube.obj("v1", "Namespace", CREATED_NAMESPACE[d])
                      for d in destinations if d in CREATED_NAMESPACE}}


def argocd_objects(model: Model, present: dict[str, tuple[str, ...]],
                   files: dict[str, object]) -> dict[str, dict[str, Any]]:
    """deploy/argocd/acm/ (the hub, the spokes' ApplicationSet, Grafana) and deploy/argocd/single/ (a cluster
    without ACM, Grafana), each with its kustomization and, with ``controller_rbac``, the controller's RBAC."""
    argocd = model.outputs.argocd
    if argocd is None:
        return {}
    sets = {"acm": [d for d in (layout.DEPLOY_HUB, layout.DEPLOY_GRAFANA) if d in present],
            "single": [d for d in (layout.DEPLOY_SINGLE, layout.DEPLOY_GRAFANA) if d in present]}
    out: dict[str, dict[str, Any]] = {}
    for name, dests in sets.items():
        folder = layout.deploy_argocd(name)
        by_destination = {d: synced(d, present, files) for d in dests}
        objects = {layout.argocd_object(name, app["metadata"]["name"], "Application"): app
                   for app in (application(argocd, d, o) for d, o in by_destination.items())}
        clusters = [d for d in present if d.startswith(f"{layout.DEPLOY}/clusters/")]
        if name == "acm" and clusters:
            objects[layout.argocd_object(name, "gpudash-spokes", "ApplicationSet")] = spokes(
                argocd, model.clusters, [o for d in clusters for o in synced(d, present, files)])
        if objects and argocd.controller_rbac:
            applied = [o for d in dests for o in by_destination[d]]
            objects.update(argocd_rbac.objects(argocd, name, applied, _created(applied, dests)))
        if objects:
            out.update(objects)
            out[layout.kustomization(folder)] = {"apiVersion": "kustomize.config.k8s.io/v1beta1",
                                                 "kind": "Kustomization",
                                                 "resources": sorted(p.rpartition("/")[2] for p in objects)}
    return out


def readme(model: Model, files: dict[str, object], present: dict[str, tuple[str, ...]]) -> str:
    """The output's README.md: every top-level folder, every destination and what it lists, the upgrade notes."""
    tops = sorted({p.split("/")[0] for p in files if "/" in p} | {layout.DEPLOY})
    lines = ["# gpudash output", "", f"{layout.RENDERED}, not these files.", "", "## Folders", "",
             "| folder | what | where it goes |", "|---|---|---|"]
    lines += [f"| `{t}/` | {FOLDERS.get(t, ('', ''))[0]} | {FOLDERS.get(t, ('', ''))[1]} |" for t in tops]
    lines += ["", "## Destinations (`deploy/`)", "",
              "Each folder is a kustomization that applies alone (`kubectl apply -k deploy/<name>`, or an ArgoCD "
              "Application whose path is it); it lists the object folders that go to that destination.", "",
              "| destination | lists |", "|---|---|"]
    lines += [f"| `{d}/` | {', '.join(f'`{f}/`' for f in folders)} |" for d, folders in sorted(present.items())]
    argocd = model.outputs.argocd
    lines += ["", "## ArgoCD", ""]
    if argocd is None:
        lines += ["Set `outputs.argocd.repo_url` in the model to render ArgoCD Applications of the destinations."]
    else:
        lines += [f"`{layout.DEPLOY_ARGOCD}/acm/`: with ACM, on the hub's ArgoCD (namespace `{argocd.namespace}`): "
                  "the hub's and Grafana's Applications and the ApplicationSet `gpudash-spokes`, whose cluster "
                  "generator gives each of the model's clusters (as ArgoCD knows them, e.g. registered by ACM's "
                  "GitOpsCluster) its `deploy/clusters/<cluster>/`. "
                  f"`{layout.DEPLOY_ARGOCD}/single/`: a cluster without ACM. Apply one of the two "
                  "(`kubectl apply -k`). Every Application syncs automatically, prunes and retries; "
                  + ("each set also holds the Roles and ClusterRole its application controller needs (a stock "
                     "OpenShift GitOps cannot write Secrets, Services, Deployments, quotas or the ACM, Grafana and "
                     "monitoring kinds)." if argocd.controller_rbac else
                     "set `outputs.argocd.controller_rbac: true` to render the Roles a stock OpenShift GitOps "
                     "controller lacks (Secrets, Services, Deployments, quotas, the ACM, Grafana and monitoring "
                     "kinds): without them those syncs fail as forbidden."), ""]
    lines += ["", "## Upgrade notes", "",
              f"- `deploy/` and this README are new. The top-level `{layout.KUSTOMIZATION}` still lists every object "
              "of every destination at once (hub MCO objects, single-cluster PrometheusRules, quotas, every "
              "cluster's pruner Deployment), so applying it puts every destination's objects on one cluster: it is "
              "kept for this release only; point ArgoCD at a `deploy/` folder instead.",
              "- The object folders have not moved.",
              f"- gpudash now writes `{layout.README}` at the output root: an existing README.md it did not write "
              "stops the render (move it away or render into a subfolder).",
              f"- `{layout.ALERTMANAGER}` routes only gpudash's alerts (label `audience`) to gpudash's receivers; "
              "every other alert goes where MCO's default configuration sends it (`null`), no longer to the "
              "provider's or a tenant's receiver. A hub with an Alertmanager configuration of its own: set "
              "`mco.alertmanager_config: merge` and merge gpudash's route into it (docs/alerts.md, \"Routing\")."]
    return "\n".join(lines) + "\n"


def artifacts(model: Model, files: dict[str, object]) -> dict[str, object]:
    """The destinations' kustomizations, the ArgoCD objects and the README of a render's ``files``."""
    folders = {p.rpartition("/")[0] for p in files if p.endswith(f"/{layout.KUSTOMIZATION}")}
    present = destinations(model, folders)
    out: dict[str, object] = {layout.kustomization(d): _kustomization(d, folders) for d, folders in present.items()}
    out.update(argocd_objects(model, present, files))
    out[layout.README] = readme(model, {**files, **out}, present)
    return out
