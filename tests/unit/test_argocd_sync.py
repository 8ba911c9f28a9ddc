"""Would it sync (issue #43): every deploy/ destination, read as ArgoCD reads it (its kustomization's resources,
through the destinations it lists), checked statically against what its applier may do and what must exist:

- each object's kind (group, resource, the verbs a sync uses) is allowed by the RBAC the hub's (or the single
  cluster's) ArgoCD application controller has: the stock OpenShift GitOps ClusterRole (redhat-developer/
  gitops-operator, tests/fixtures/upstream/argocd/SOURCE.md) plus the Roles and ClusterRole rendered for it
  (``outputs.argocd.controller_rbac``), bound to its ServiceAccount; a ManagedClusterSetBinding also needs
  ``create`` on ``managedclustersets/bind`` of its set (the OCM webhook);
- every namespace an object lands in is created by the same destination (a Namespace object, or the
  Application's CreateNamespace) or is a documented prerequisite (gitops.PREREQUISITES, a tenant's own namespace);
- every object in a tenant's namespace goes only to clusters where that tenant exists (``tenants[].clusters``).

The spokes' Applications (the ApplicationSet) are applied with the identity of ACM's push-model cluster secrets,
the application-manager addon's ServiceAccount on each managed cluster (stolostron/multicloud-operators-subscription,
tests/fixtures/upstream/acm-gitops/SOURCE.md; docs/outputs.md, "Who applies what")."""
from __future__ import annotations

import json
import posixpath
from typing import Any

import pytest

from gpudash.base import kube, layout
from gpudash.model import model_from_dict
from gpudash.render.targets import argocd_rbac, gitops
from tests.conftest import FIXTURES, generate_without_golden
from tests.unit.test_mco_settings import example

STOCK = json.loads((FIXTURES / "upstream" / "argocd" / "openshift-gitops-controller.clusterrole.json").read_text())
# The identity of ACM's push-model cluster secrets on a managed cluster (tests/fixtures/upstream/acm-gitops/SOURCE.md)
APPLICATION_MANAGER = json.loads((FIXTURES / "upstream" / "acm-gitops" / "application-manager.clusterrole.json")
                                 .read_text())
SYNC_VERBS = ("get", "create", "patch", "delete")  # apply (client- or server-side), prune
ARGOCD = {"repo_url": "https://git.example.com/platform/gitops.git", "path": "gpu/billing"}
PRUNE = {"image": "registry.example.com/gpudash:1", "prometheus_url": "https://thanos.example.com",
         "token_secret": "hub-token"}
EVERYTHING = {"billing.spoke_tier": "policy", "sources.self_managed": {"namespace": "gpu-monitoring"}, "prune": PRUNE}


# Renders whose in-cluster destinations hold other kinds: the whole MultiClusterObservability (cluster-scoped) on
# the hub; one cluster, so deploy/single/ also holds the pruner's Deployment.
VARIANTS = {"example": {}, "mco-resource": {"mco.output": "resource"}, "one-cluster": {"clusters": ["prod-east"]}}


def render(rbac: bool, **changes: Any) -> tuple[Any, dict[str, Any]]:
    data = example(**EVERYTHING, **{"outputs.argocd": {**ARGOCD, "controller_rbac": rbac}}, **changes)
    data.pop("energy")  # its cluster prices name the example's clusters
    for t in data["tenants"]:  # team-b exists on prod-east only
        if t["name"] == "team-b":
            t["clusters"] = ["prod-east"]
    model = model_from_dict(data)
    return model, generate_without_golden(model)


def objects_of(files: dict[str, Any], folder: str) -> list[dict]:
    """The objects kustomize builds from ``folder``: its kustomization's resources, folders recursively."""
    out: list[dict] = []
    for entry in files[layout.kustomization(folder)]["resources"]:
        path = posixpath.normpath(posixpath.join(folder, entry))
        out += objects_of(files, path) if layout.kustomization(path) in files else [files[path]]
    return out


def _allows(rule: dict, group: str, resource: str, verb: str, name: str | None) -> bool:
    def has(key: str, value: str) -> bool:
        return bool({"*", value} & set(rule.get(key, ())))

    return (has("apiGroups", group) and has("resources", resource) and has("verbs", verb)
            and (not rule.get("resourceNames") or name in rule["resourceNames"]))


def controller_rules(files: dict[str, Any], account: dict) -> dict[str, list[dict]]:
    """{namespace, "" = cluster-wide: the rules the controller's ServiceAccount holds there}."""
    roles = {(d["kind"], d["metadata"].get("namespace", ""), d["metadata"]["name"]): d["rules"]
             for d in files.values() if isinstance(d, dict) and d.get("kind") in ("Role", "ClusterRole")}
    out: dict[str, list[dict]] = {"": list(STOCK["rules"])}
    for d in files.values():
        if isinstance(d, dict) and d.get("kind") in ("RoleBinding", "ClusterRoleBinding") and account in d["subjects"]:
            ns = d["metadata"].get("namespace", "")
            role_ns = ns if d["roleRef"]["kind"] == "Role" else ""
            out.setdefault(ns, []).extend(roles.get((d["roleRef"]["kind"], role_ns, d["roleRef"]["name"]), []))
    return out


def denied(destination: str, objects: list[dict], rules: dict[str, list[dict]]) -> list[str]:
    """What an applier holding ``rules`` ({namespace, "" = cluster-wide: rules}) may not do to sync ``objects``."""
    out = []
    for o in objects:
        group, resource = kube.resource(o)
        ns = o["metadata"].get("namespace", "")
        held = rules[""] + rules.get(ns, []) if ns else rules[""]
        out += [f"{destination}: {verb} {resource}.{group} in {ns or 'the cluster'}" for verb in SYNC_VERBS
                if not any(_allows(r, group, resource, verb, o["metadata"]["name"]) for r in held)]
        if o["kind"] == "ManagedClusterSetBinding" and not any(
                _allows(r, argocd_rbac.BIND[0], argocd_rbac.BIND[1], "create", o["spec"]["clusterSet"])
                for r in rules[""]):
            out.append(f"{destination}: bind cluster set {o['spec']['clusterSet']}")
    return out


def forbidden(files: dict[str, Any], model) -> list[str]:
    """What the appliers may not do: the controller for the Applications it syncs to its own cluster, ACM's
    application-manager for what the ApplicationSet syncs to each managed cluster."""
    rules = controller_rules(files, argocd_rbac.account(model.outputs.argocd))
    out = []
    for app in (d for p, d in files.items() if p.startswith(layout.DEPLOY_ARGOCD) and d.get("kind") == "Application"):
        destination = posixpath.relpath(app["spec"]["source"]["path"], model.outputs.argocd.path)
        out += denied(destination, objects_of(files, destination), rules)
    spokes = [d for p, d in files.items() if p.startswith(layout.DEPLOY_ARGOCD) and d.get("kind") == "ApplicationSet"]
    for appset in spokes:
        assert appset["spec"]["template"]["spec"]["source"]["path"].endswith(layout.deploy_cluster("{{.name}}"))
        out += [p for c in model.clusters for p in denied(layout.deploy_cluster(c), objects_of(
            files, layout.deploy_cluster(c)), {"": APPLICATION_MANAGER["rules"]})]
    return out


def destinations(files: dict[str, Any]) -> list[str]:
    return sorted(p.rpartition("/")[0] for p in files if p.startswith(f"{layout.DEPLOY}/")
                  and p.endswith(layout.KUSTOMIZATION) and not p.startswith(layout.DEPLOY_ARGOCD))


def clusters_of(model, destination: str) -> tuple[str, ...]:
    """The clusters a destination goes to (the hub and Grafana: none of the model's managed clusters)."""
    if destination.startswith(layout.deploy_cluster("")):
        return (destination.removeprefix(layout.deploy_cluster("")),)
    return model.clusters if destination in (layout.DEPLOY_SPOKES, layout.DEPLOY_SINGLE) else ()


def missing_namespaces(files: dict[str, Any], model) -> list[str]:
    created_by_app = {posixpath.relpath(d["spec"]["source"]["path"], model.outputs.argocd.path):
                      d["spec"]["destination"]["namespace"] for d in files.values()
                      if isinstance(d, dict) and d.get("kind") == "Application"
                      and "CreateNamespace=true" in d["spec"]["syncPolicy"].get("syncOptions", ())}
    out = []
    for destination in destinations(files):
        objects = objects_of(files, destination)
        tenants = {t.namespace for t in model.tenants if all(t.on(c) for c in clusters_of(model, destination))}
        created = {o["metadata"]["name"] for o in objects if o["kind"] == "Namespace"}
        created |= {created_by_app[destination]} if destination in created_by_app else set()
        allowed = created | set(gitops.PREREQUISITES) | (tenants if clusters_of(model, destination) else set())
        landing = {o["metadata"].get("namespace") for o in objects} - {None}
        out += [f"{destination}: namespace {ns}" for ns in sorted(landing - allowed)]
    return out


def misplaced_tenant_objects(files: dict[str, Any], model) -> list[str]:
    out = []
    for destination in destinations(files):
        for o in objects_of(files, destination):
            tenant = model.tenant_for_namespace(o["metadata"].get("namespace", ""))
            clusters = clusters_of(model, destination)
            if tenant and (not clusters or not all(tenant.on(c) for c in clusters)):
                out.append(f"{destination}: {o['kind']} {o['metadata']['name']} of tenant {tenant.name}")
    return out


@pytest.fixture(scope="module")
def with_rbac():
    return render(True)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_stock_openshift_gitops_syncs_every_application_with_the_rendered_rbac(variant):
    model, files = render(True, **VARIANTS[variant])
    assert any(p.endswith(".clusterrole.yaml") for p in files if p.startswith(layout.DEPLOY_ARGOCD))
    assert forbidden(files, model) == []
    assert missing_namespaces(files, model) == [] and misplaced_tenant_objects(files, model) == []


def test_without_it_the_stock_controller_is_forbidden_what_the_issue_names():
    model, files = render(False)
    found = "\n".join(forbidden(files, model))
    one, single = render(False, **VARIANTS["one-cluster"])
    assert "deploy/single: create deployments.apps in gpudash-prune" in forbidden(single, one)
    for what in ("secrets. in open-cluster-management-observability", "policies.policy.open-cluster-management.io",
                 "placements.cluster.open-cluster-management.io", "grafanadashboards.grafana.integreatly.org",
                 "prometheusrules.monitoring.coreos.com", "services. in", "serviceaccounts.",
                 "resourcequotas.", "bind cluster set global"):
        assert what in found, what


def test_the_rendered_rbac_is_least_privilege(with_rbac):
    """Nothing but the kinds synced: no wildcard, no kind no destination holds, Roles where a namespace suffices."""
    _, files = with_rbac
    rbac = [d for p, d in files.items()
            if p.startswith(layout.DEPLOY_ARGOCD) and d.get("kind") in ("Role", "ClusterRole")]
    held = {r for d in rbac for rule in d["rules"] for r in rule["resources"] + rule["apiGroups"] + rule["verbs"]}
    assert "*" not in held
    cluster_wide = {r for d in rbac if d["kind"] == "ClusterRole" for rule in d["rules"] for r in rule["resources"]}
    assert cluster_wide <= {"namespaces", argocd_rbac.BIND[1]}, cluster_wide


def test_every_namespace_is_created_by_its_destination_or_a_prerequisite(with_rbac):
    model, files = with_rbac
    assert missing_namespaces(files, model) == []


def test_tenant_objects_go_only_where_the_tenant_exists(with_rbac):
    model, files = with_rbac
    east = objects_of(files, layout.deploy_cluster("prod-east"))
    assert any(o["metadata"].get("namespace") == "team-b" for o in east)
    assert misplaced_tenant_objects(files, model) == []


def test_the_checks_catch_what_would_not_sync(with_rbac):
    """The same render, broken the ways issue #43 names: each check fails."""
    model, files = with_rbac
    broken = dict(files)
    for name in ("acm", "single"):
        grafana = layout.argocd_object(name, "gpudash-grafana", "Application")
        broken[grafana] = {**files[grafana], "spec": {**files[grafana]["spec"], "syncPolicy": {}}}
    assert missing_namespaces(broken, model) == [f"{layout.DEPLOY_GRAFANA}: namespace gpudash-grafana"]
    team_b = next(p for p, d in files.items() if p.startswith(layout.PRUNE) and d.get("kind") == "Role"
                  and d["metadata"]["namespace"] == "team-b")
    broken[layout.prune_role("team-b")] = files[team_b]
    broken[layout.kustomization(layout.PRUNE)] = {**files[layout.kustomization(layout.PRUNE)], "resources": [
        *files[layout.kustomization(layout.PRUNE)]["resources"], layout.prune_role("team-b").rpartition("/")[2]]}
    assert any("of tenant team-b" in p for p in misplaced_tenant_objects(broken, model))
    bare = {p: d for p, d in files.items() if not (p.startswith(layout.DEPLOY_ARGOCD) and "Role" in d.get("kind", ""))}
    assert forbidden(bare, model)


def test_an_object_too_large_for_client_side_apply_makes_its_application_apply_server_side():
    big = kube.fit("x.yaml", kube.configmap("big", "ns", {"k": "x" * (kube.LAST_APPLIED_LIMIT + 1)}))
    argocd = model_from_dict(example(**{"outputs.argocd": ARGOCD})).outputs.argocd
    assert kube.SERVER_SIDE_APPLY in gitops.application(argocd, layout.DEPLOY_HUB, [big])["spec"]["syncPolicy"][
        "syncOptions"]
    assert "syncOptions" not in gitops.application(argocd, layout.DEPLOY_HUB, [])["spec"]["syncPolicy"]


def test_the_pull_model_is_refused_with_one_line():
    from gpudash.base.errors import InputError

    with pytest.raises(InputError) as err:
        model_from_dict(example(**{"outputs.argocd": {**ARGOCD, "mode": "pull"}}), file="m.yaml")
    assert "outputs.argocd.mode" in str(err.value) and "pull model is not supported" in str(err.value)
    assert "\n" not in str(err.value).strip()

