"""The least-privilege RBAC ArgoCD's application controller needs to sync the destinations of one ArgoCD set
(``outputs.argocd.controller_rbac``): a Role per namespace the objects land in, granting exactly their kinds, a
ClusterRole for the cluster-scoped kinds and the cluster sets a ManagedClusterSetBinding binds, and the bindings
to the controller's ServiceAccount. Pure; no I/O.

Why: a stock OpenShift GitOps controller may read everything but write only namespaces, configmaps,
persistentvolume(claim)s, RBAC and a few OpenShift and OLM groups cluster-wide (redhat-developer/gitops-operator
``controllers/argocd/openshift/openshift.go``, ``policyRulesForClusterConfig``): no Secrets, Services,
ServiceAccounts, ResourceQuotas, Deployments, monitoring.coreos.com, ACM or grafana-operator kinds, so the hub's,
Grafana's and a single cluster's Applications end "forbidden". Its ServiceAccount is
``<instance>-argocd-application-controller`` in the instance's namespace (argoproj-labs/argocd-operator,
``generateResourceName``). OCM's admission webhook lets a ManagedClusterSetBinding be created only by who may
``create`` ``managedclustersets/bind`` on that set (open-cluster-management-io/ocm
``pkg/registration/webhook/v1beta2/managedclustersetbinding_validating.go``), a cluster-scoped check.

A Role needs its namespace: the set also holds the Namespace objects of the namespaces the destinations create
(the same objects), so ``kubectl apply -k`` of the set (Namespaces first) grants before the first sync.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gpudash.base import kube, layout
from gpudash.base.yamlfmt import COMMENT
from gpudash.model.types import ArgoCD

CONTROLLER = "argocd-application-controller"  # argocd-operator's component name: <instance>-<component>
NAME = "gpudash-argocd-controller"
VERBS = ("create", "delete", "get", "list", "patch", "update", "watch")
BIND = ("cluster.open-cluster-management.io", "managedclustersets/bind")  # the webhook's SubjectAccessReview


def account(argocd: ArgoCD) -> dict[str, str]:
    return {"kind": "ServiceAccount", "name": f"{argocd.instance}-{CONTROLLER}", "namespace": argocd.namespace}


def needs(objects: Iterable[dict[str, Any]]) -> tuple[dict[str, set[tuple[str, str]]], set[str]]:
    """({namespace, "" for cluster-scoped: {(group, resource)}}, the cluster sets bound) of ``objects``."""
    by_namespace: dict[str, set[tuple[str, str]]] = {}
    sets: set[str] = set()
    for o in objects:
        by_namespace.setdefault(o["metadata"].get("namespace", ""), set()).add(kube.resource(o))
        if o["kind"] == "ManagedClusterSetBinding":
            sets.add(o["spec"]["clusterSet"])
    return by_namespace, sets


def _rules(pairs: set[tuple[str, str]]) -> list[dict[str, Any]]:
    groups: dict[str, list[str]] = {}
    for group, resource in sorted(pairs):
        groups.setdefault(group, []).append(resource)
    return [{"apiGroups": [g], "resources": r, "verbs": list(VERBS)} for g, r in sorted(groups.items())]


def _binding(argocd: ArgoCD, kind: str, name: str, namespace: str | None = None) -> dict[str, Any]:
    return kube.obj(kube.RBAC_API, f"{kind}Binding", name, namespace, subjects=[account(argocd)],
                    roleRef={"apiGroup": "rbac.authorization.k8s.io", "kind": kind, "name": name})


def objects(argocd: ArgoCD, name: str, synced: list[dict[str, Any]],
            namespaces: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The RBAC of ArgoCD set ``name`` for the ``synced`` objects; ``namespaces``: {name: the Namespace object} of
    those the destinations create, put in the set too."""
    by_namespace, sets = needs(synced)
    role = f"{NAME}-{name}"
    why = (f"What ArgoCD's application controller ({account(argocd)['name']}) needs, beside the stock\n"
           f"OpenShift GitOps ClusterRole, to sync the Applications of {layout.deploy_argocd(name)}/: exactly the\n"
           "kinds they hold (outputs.argocd.controller_rbac).")
    out: dict[str, dict[str, Any]] = {
        layout.argocd_object(name, ns, "Namespace"): namespaces[ns] for ns in sorted(namespaces)}
    cluster_rules = _rules(by_namespace.pop("", set()))
    if sets:
        cluster_rules.append({"apiGroups": [BIND[0]], "resources": [BIND[1]], "verbs": ["create"],
                              "resourceNames": sorted(sets)})
    if cluster_rules:
        out[layout.argocd_object(name, role, "ClusterRole")] = {
            COMMENT: why, **kube.obj(kube.RBAC_API, "ClusterRole", role, rules=cluster_rules)}
        out[layout.argocd_object(name, role, "ClusterRoleBinding")] = _binding(argocd, "ClusterRole", role)
    for ns, pairs in sorted(by_namespace.items()):
        out[layout.argocd_object(name, f"{ns}.{role}", "Role")] = {
            COMMENT: why, **kube.obj(kube.RBAC_API, "Role", role, ns, rules=_rules(pairs))}
        out[layout.argocd_object(name, f"{ns}.{role}", "RoleBinding")] = _binding(argocd, "Role", role, ns)
    return out
