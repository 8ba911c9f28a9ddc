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

ARGOCD_API = "argoproj.io/v1alpha1"
IN_CLUSTER = "https://kubernetes.default.svc"  # ArgoCD's name for the cluster it runs on
PROJECT = "default"

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
    layout.QUOTAS: ("the tenants' GPU ResourceQuotas", "every cluster (deploy/spokes, deploy/single)"),
    layout.DASHBOARDS: ("dashboard JSON; acm/: the hub's Grafana ConfigMaps; import/: for Grafana's manual import",
                        "Grafana; acm/: the ACM hub (deploy/hub)"),
    layout.GRAFANA: ("provisioning/ (self-managed Grafana), operator/ (grafana-operator CRs), bootstrap.json",
                     "Grafana; operator/: where grafana-operator runs (deploy/grafana)"),
    layout.TESTS: ("promtool tests of the rules and alerts", "your CI (python -m gpudash test)"),
    layout.MIXIN: ("the same rules, alerts and dashboards as a jsonnet mixin", "kube-prometheus users"),
    layout.WIRING: ("the exporters' ServiceMonitors, the Role letting prometheus-k8s discover them, "
                    "kube-state-metrics' --metric-labels-allowlist", "every self-managed spoke (deploy/spokes)"),
    layout.PRUNE: ("the idle-GPU pruner's namespace and RBAC; <cluster>/: its Deployment there",
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
                                               *present(layout.prune_deployment(cluster).rpartition("/")[0]))
    alone = present(layout.prune_deployment(model.clusters[0]).rpartition("/")[0]) if len(model.clusters) == 1 else ()
    out[layout.DEPLOY_SINGLE] = present(layout.RULES_KUBERNETES, layout.ALERTS_KUBERNETES, layout.QUOTAS,
                                        layout.PRUNE, layout.WIRING) + alone
    return {d: f for d, f in out.items() if f}


def _source(argocd: ArgoCD, path: str) -> dict[str, str]:
    return {"repoURL": argocd.repo_url, "targetRevision": argocd.revision,
            "path": posixpath.normpath(posixpath.join(argocd.path, path))}


def application(argocd: ArgoCD, destination: str) -> dict[str, Any]:
    """The Application syncing ``destination`` to the cluster ArgoCD runs on."""
    name = "gpudash-" + destination.removeprefix(f"{layout.DEPLOY}/").replace("/", "-")
    return kube.obj(ARGOCD_API, "Application", name, argocd.namespace,
                    spec={"project": PROJECT, "source": _source(argocd, destination),
                          "destination": {"server": IN_CLUSTER}})


def spokes(argocd: ArgoCD, clusters: Iterable[str]) -> dict[str, Any]:
    """The ApplicationSet giving each of the model's clusters its destination: ArgoCD's cluster generator (every
    cluster ArgoCD knows, e.g. registered by ACM's GitOpsCluster) narrowed to the model's by name."""
    template = {"metadata": {"name": "gpudash-{{.nameNormalized}}"},
                "spec": {"project": PROJECT, "source": _source(argocd, layout.deploy_cluster("{{.name}}")),
                         "destination": {"server": "{{.server}}"}}}
    generator = {"clusters": {}, "selector": {"matchExpressions": [{"key": "name", "operator": "In",
                                                                    "values": list(clusters)}]}}
    return kube.obj(ARGOCD_API, "ApplicationSet", "gpudash-spokes", argocd.namespace,
                    spec={"goTemplate": True, "goTemplateOptions": ["missingkey=error"], "generators": [generator],
                          "template": template})


def argocd_objects(model: Model, present: dict[str, tuple[str, ...]]) -> dict[str, dict[str, Any]]:
    """deploy/argocd/acm/ (the hub, the spokes' ApplicationSet, Grafana) and deploy/argocd/single/ (a cluster
    without ACM, Grafana), each with its kustomization."""
    argocd = model.outputs.argocd
    if argocd is None:
        return {}
    sets = {"acm": [d for d in (layout.DEPLOY_HUB, layout.DEPLOY_GRAFANA) if d in present],
            "single": [d for d in (layout.DEPLOY_SINGLE, layout.DEPLOY_GRAFANA) if d in present]}
    files: dict[str, dict[str, Any]] = {}
    for name, dests in sets.items():
        folder = f"{layout.DEPLOY_ARGOCD}/{name}"
        objects = {f"{folder}/{application(argocd, d)['metadata']['name']}.application.yaml": application(argocd, d)
                   for d in dests}
        if name == "acm" and any(d.startswith(f"{layout.DEPLOY}/clusters/") for d in present):
            objects[f"{folder}/gpudash-spokes.applicationset.yaml"] = spokes(argocd, model.clusters)
        if objects:
            files.update(objects)
            files[layout.kustomization(folder)] = {"apiVersion": "kustomize.config.k8s.io/v1beta1",
                                                   "kind": "Kustomization",
                                                   "resources": sorted(p.rpartition("/")[2] for p in objects)}
    return files


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
                  "(`kubectl apply -k`).", ""]
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
    out.update(argocd_objects(model, present))
    out[layout.README] = readme(model, {**files, **out}, present)
    return out
