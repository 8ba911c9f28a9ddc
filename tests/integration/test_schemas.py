"""Every Kubernetes object a render writes validates where it is applied: built-in kinds against the Kubernetes
OpenAPI schema of the OpenShift releases gpudash supports (kubernetes-validate, strict: an unknown field fails),
custom resources against their upstream CRD schemas (tests/fixtures/upstream/*/SOURCE.md), with the fields the API
server would drop silently (structural pruning) reported too. The objects a Policy enforces on the spokes are
checked as well. Renders: the bundled example (every target) and the example with the spoke tier, the
self-managed scrape wiring and the ArgoCD Applications on, so every object kind gpudash writes is covered.

Each deploy/ destination, built alone by kustomize (``kubectl kustomize``, kubectl's built-in kustomize), gives
objects that validate, and no object twice; the ArgoCD objects point at destinations that exist."""
from __future__ import annotations

import json
import posixpath
import subprocess

import jsonschema
import kubernetes_validate
import pytest
import yaml

from gpudash.base import kube, layout
from gpudash.base.deferred import built
from gpudash.base.yamlfmt import strip_comments
from gpudash.render import writer
from tests.conftest import FIXTURES, generate_without_golden, require
from tests.unit.test_mco_settings import example, pruned

# OpenShift 4.18, 4.19 and 4.21 ship Kubernetes 1.31, 1.32 and 1.34 (the Prometheus 3 releases gpudash is proven on
# arrive with 4.19-4.21, docs/testing.md "Prometheus versions").
KUBERNETES_VERSIONS = ("1.31.0", "1.32.0", "1.34.0")
UPSTREAM = FIXTURES / "upstream"
CRDS = {  # (apiVersion, kind) -> the upstream CRD schema of that version
    ("monitoring.coreos.com/v1", "PrometheusRule"): "prometheusrule/prometheusrule-v1",
    ("monitoring.coreos.com/v1", "ServiceMonitor"): "servicemonitor/servicemonitor-v1",
    ("observability.open-cluster-management.io/v1beta2", "MultiClusterObservability"):
        "mco/multiclusterobservability-v1beta2",
    ("policy.open-cluster-management.io/v1", "Policy"): "acm-policy/policy-v1",
    ("policy.open-cluster-management.io/v1", "ConfigurationPolicy"): "acm-policy/configurationpolicy-v1",
    ("policy.open-cluster-management.io/v1", "PlacementBinding"): "acm-policy/placementbinding-v1",
    ("cluster.open-cluster-management.io/v1beta1", "Placement"): "acm-policy/placement-v1beta1",
    ("cluster.open-cluster-management.io/v1beta2", "ManagedClusterSetBinding"):
        "acm-policy/managedclustersetbinding-v1beta2",
    ("grafana.integreatly.org/v1beta1", "GrafanaDashboard"): "grafana-operator/grafanadashboard-v1beta1",
    ("grafana.integreatly.org/v1beta1", "GrafanaFolder"): "grafana-operator/grafanafolder-v1beta1",
    ("grafana.integreatly.org/v1beta1", "GrafanaDatasource"): "grafana-operator/grafanadatasource-v1beta1",
    ("argoproj.io/v1alpha1", "Application"): "argocd/application-v1alpha1",
    ("argoproj.io/v1alpha1", "ApplicationSet"): "argocd/applicationset-v1alpha1",
}
SCHEMAS = {key: json.loads((UPSTREAM / f"{stem}.schema.json").read_text()) for key, stem in CRDS.items()}
ARGOCD = {"repo_url": "https://git.example.com/platform/gitops.git", "path": "gpu/billing", "controller_rbac": True}
VARIANTS = {
    "example": {},
    "tier-wiring-argocd": {"billing.spoke_tier": "policy", "sources.self_managed": {"namespace": "gpu-monitoring"},
                           "outputs.argocd": ARGOCD},
}


def _builtin(obj: dict) -> bool:
    group = obj["apiVersion"].rpartition("/")[0]
    return "." not in group or group.endswith(".k8s.io")


def problems(obj: dict, version: str) -> list[str]:
    """Why ``obj`` would be refused or altered by an API server of Kubernetes ``version``; [] when it would not."""
    name = f"{obj['kind']} {obj.get('metadata', {}).get('name')}"
    if _builtin(obj):
        try:
            kubernetes_validate.validate(obj, version, strict=True)
        except kubernetes_validate.ValidationError as err:
            return [f"{name} {'.'.join(map(str, err.absolute_path))}: {err.message}"]
        return []
    schema = SCHEMAS.get((obj["apiVersion"], obj["kind"]))
    if schema is None:
        return [f"{name}: no upstream schema for {obj['apiVersion']} {obj['kind']} (add it to tests/fixtures/upstream)"]
    out = [f"{name} {'.'.join(map(str, e.absolute_path))}: {e.message}"
           for e in jsonschema.Draft7Validator(schema).iter_errors(obj)]
    out += [f"{name} {p}: not in the CRD (pruned)" for p in pruned(obj, schema)]
    for inner in _enforced(obj):
        out += problems(inner, version)
    return out


def _enforced(obj: dict) -> list[dict]:
    """The objects a Policy's ConfigurationPolicies put on the managed clusters, and the templates themselves."""
    if obj["kind"] == "Policy":
        return [t["objectDefinition"] for t in obj["spec"]["policy-templates"]]
    if obj["kind"] == "ConfigurationPolicy":
        return [t["objectDefinition"] for t in obj["spec"]["object-templates"]]
    return []


@pytest.fixture(scope="module", params=sorted(VARIANTS))
def render(request) -> dict[str, object]:
    from gpudash.model import model_from_dict

    return generate_without_golden(model_from_dict(example(**VARIANTS[request.param])))


@pytest.fixture(scope="module")
def objects(render) -> dict[str, dict]:
    return {path: strip_comments(built(data)) for path, data in render.items() if kube.is_resource(path, data)}


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_every_rendered_object_validates(objects, version):
    assert objects
    found = [f"{path}: {p}" for path, obj in sorted(objects.items()) for p in problems(obj, version)]
    assert found == [], "\n".join(found)


def test_the_check_catches_what_the_api_server_refuses_or_drops():
    namespace = kube.obj("v1", "Namespace", "x")
    assert problems(namespace, KUBERNETES_VERSIONS[0]) == []
    assert problems({**namespace, "spec": {"finalisers": []}}, KUBERNETES_VERSIONS[0])
    rule = kube.obj("monitoring.coreos.com/v1", "PrometheusRule", "r", "ns", spec={"groups": [{"name": "g"}]})
    assert problems(rule, KUBERNETES_VERSIONS[0]) == []
    assert any("pruned" in p for p in problems({**rule, "spec": {"groups": [], "group": []}}, KUBERNETES_VERSIONS[0]))
    assert problems(kube.obj("argoproj.io/v1alpha1", "Unknown", "u"), KUBERNETES_VERSIONS[0])


def test_each_destination_builds_alone_into_valid_objects(render, tmp_path):
    require("kubectl")
    writer.apply(writer.plan(tmp_path, render))
    destinations = sorted(p.rpartition("/")[0] for p in render
                          if p.startswith(f"{layout.DEPLOY}/") and p.endswith(layout.KUSTOMIZATION))
    assert {layout.DEPLOY_HUB, layout.DEPLOY_SPOKES, layout.DEPLOY_SINGLE} <= set(destinations)
    for destination in destinations:
        built_text = subprocess.run(["kubectl", "kustomize", destination], cwd=tmp_path, capture_output=True,
                                    text=True, timeout=120)
        assert built_text.returncode == 0, (destination, built_text.stderr)
        docs = [d for d in yaml.safe_load_all(built_text.stdout) if d]
        assert docs, destination
        ids = [(d["apiVersion"], d["kind"], d["metadata"].get("namespace"), d["metadata"]["name"]) for d in docs]
        assert len(ids) == len(set(ids)), destination
        found = [p for d in docs for p in problems(d, KUBERNETES_VERSIONS[-1])]
        assert found == [], (destination, found)
    for path, data in render.items():  # every Application's path is a destination of this render
        if path.startswith(layout.DEPLOY_ARGOCD) and isinstance(data, dict) and data.get("kind") == "Application":
            where = posixpath.relpath(data["spec"]["source"]["path"], ARGOCD["path"])
            assert where in destinations, where
        if isinstance(data, dict) and data.get("kind") == "ApplicationSet":  # each selected cluster has its folder
            (generator,) = data["spec"]["generators"]
            for cluster in generator["selector"]["matchExpressions"][0]["values"]:
                assert layout.deploy_cluster(cluster) in destinations, cluster
