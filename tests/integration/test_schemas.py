"""Every Kubernetes object a render writes validates where it is applied: built-in kinds against the Kubernetes
OpenAPI schema of the OpenShift releases gpudash supports (kubernetes-validate, strict: an unknown field fails),
custom resources against their upstream CRD schemas (tests/upstream_schemas.py: the ACM ones of each supported ACM
release, tests/fixtures/upstream/acm/SOURCE.md), with the fields the API server would drop silently (structural
pruning) refused too, as strict field validation does. The objects a Policy enforces on the spokes are checked as
well. Renders: the bundled example (every target, for the oldest supported ACM), the example with the spoke tier,
the self-managed scrape wiring and the ArgoCD Applications on, and the example for ACM 2.14 and later, so every
object kind gpudash writes is covered, each against every ACM release its outputs.acm_version says it applies on,
the ArgoCD objects against every supported OpenShift GitOps release's CRDs.

Each deploy/ destination, built alone by kustomize (``kubectl kustomize``, kubectl's built-in kustomize), gives
objects that validate, and no object twice; the ArgoCD objects point at destinations that exist."""
from __future__ import annotations

import posixpath
import subprocess

import kubernetes_validate
import pytest
import yaml

from gpudash.base import kube, layout
from gpudash.base.deferred import built
from gpudash.base.yamlfmt import strip_comments
from gpudash.model.versions import ACM_CEL_SELECTOR, ACM_VERSIONS, GITOPS_VERSIONS, has_cel_selector
from gpudash.render import writer
from tests import upstream_schemas
from tests.conftest import generate_without_golden, require
from tests.unit.test_mco_settings import example

# OpenShift 4.18, 4.19 and 4.21 ship Kubernetes 1.31, 1.32 and 1.34 (the Prometheus 3 releases gpudash is proven on
# arrive with 4.19-4.21, docs/testing.md "Prometheus versions").
KUBERNETES_VERSIONS = ("1.31.0", "1.32.0", "1.34.0")
ARGOCD = {"repo_url": "https://git.example.com/platform/gitops.git", "path": "gpu/billing", "controller_rbac": True}
VARIANTS = {  # each for every supported ACM from its outputs.acm_version on (the example's: the oldest)
    "example": {},
    "tier-wiring-argocd": {"billing.spoke_tier": "policy", "sources.self_managed": {"namespace": "gpu-monitoring"},
                           "outputs.argocd": ARGOCD},
    "acm-2.14": {"outputs.acm_version": ACM_CEL_SELECTOR},
}


def _builtin(obj: dict) -> bool:
    group = obj["apiVersion"].rpartition("/")[0]
    return "." not in group or group.endswith(".k8s.io")


def problems(obj: dict, version: str, acm_version: str = upstream_schemas.NEWEST,
             gitops_version: str = upstream_schemas.NEWEST_GITOPS) -> list[str]:
    """Why ``obj`` would be refused or altered by an API server of Kubernetes ``version`` on a hub (or its managed
    cluster) of ACM ``acm_version`` with OpenShift GitOps ``gitops_version``; [] when it would not."""
    name = f"{obj['kind']} {obj.get('metadata', {}).get('name')}"
    if _builtin(obj):
        try:
            kubernetes_validate.validate(obj, version, strict=True)
        except kubernetes_validate.ValidationError as err:
            return [f"{name} {'.'.join(map(str, err.absolute_path))}: {err.message}"]
        return []
    schema = upstream_schemas.schemas(acm_version, gitops_version).get((obj["apiVersion"], obj["kind"]))
    if schema is None:
        return [f"{name}: no upstream schema for {obj['apiVersion']} {obj['kind']} (add it to tests/fixtures/upstream)"]
    out = [f"{name} {p}" for p in upstream_schemas.refused(obj, schema)]
    for inner in _enforced(obj):
        out += problems(inner, version, acm_version)
    return out


def _enforced(obj: dict) -> list[dict]:
    """The objects a Policy's ConfigurationPolicies put on the managed clusters, and the templates themselves."""
    if obj["kind"] == "Policy":
        return [t["objectDefinition"] for t in obj["spec"]["policy-templates"]]
    if obj["kind"] == "ConfigurationPolicy":
        return [t["objectDefinition"] for t in obj["spec"]["object-templates"]]
    return []


def _model(variant: str):
    from gpudash.model import model_from_dict

    return model_from_dict(example(**VARIANTS[variant]))


@pytest.fixture(scope="module", params=sorted(VARIANTS))
def variant(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def render(variant) -> dict[str, object]:
    return generate_without_golden(_model(variant))


@pytest.fixture(scope="module")
def objects(render) -> dict[str, dict]:
    return {path: strip_comments(built(data)) for path, data in render.items() if kube.is_resource(path, data)}


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_every_rendered_object_validates(objects, version):
    assert objects
    found = [f"{path}: {p}" for path, obj in sorted(objects.items()) for p in problems(obj, version)]
    assert found == [], "\n".join(found)


def _supported(variant: str) -> tuple[str, ...]:
    """The ACM releases a render of ``variant`` must apply on: its outputs.acm_version and every later one."""
    return ACM_VERSIONS[ACM_VERSIONS.index(_model(variant).outputs.acm_version):]


@pytest.mark.parametrize("acm_version", ACM_VERSIONS)
def test_every_rendered_object_validates_on_each_supported_acm(variant, objects, acm_version):
    """Strictly, against that ACM release's CRDs: a field the release lacks fails, never "it gets dropped"."""
    if acm_version not in _supported(variant):
        pytest.skip(f"{variant} renders for ACM {_supported(variant)[0]} and later")
    found = [f"{path}: {p}" for path, obj in sorted(objects.items())
             for p in problems(obj, KUBERNETES_VERSIONS[-1], acm_version)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("gitops_version", GITOPS_VERSIONS)
def test_the_argocd_objects_validate_on_each_supported_openshift_gitops(objects, gitops_version):
    """Strictly, against the Application and ApplicationSet CRDs that OpenShift GitOps release installs."""
    argocd = {path: obj for path, obj in objects.items() if obj["apiVersion"].startswith("argoproj.io/")}
    if not argocd:
        pytest.skip("no outputs.argocd in this variant")
    found = [f"{path}: {p}" for path, obj in sorted(argocd.items())
             for p in problems(obj, KUBERNETES_VERSIONS[-1], gitops_version=gitops_version)]
    assert found == [], "\n".join(found)
    for obj in argocd.values():  # and a field that release lacks would fail
        assert problems({**obj, "spec": {**obj["spec"], "syncPolicies": {}}}, KUBERNETES_VERSIONS[-1],
                        gitops_version=gitops_version)


def test_a_placement_with_a_field_an_older_acm_lacks_fails_there(objects, variant):
    """The check is per release: the celSelector form of ACM 2.14 is refused by ACM 2.13's (backplane-2.8) CRD."""
    placement = objects[layout.MCO_TIER_PLACEMENT]
    cel = has_cel_selector(_model(variant).outputs.acm_version)
    assert bool(problems(placement, KUBERNETES_VERSIONS[-1], "2.13")) == cel
    assert problems(placement, KUBERNETES_VERSIONS[-1], ACM_CEL_SELECTOR) == []


def test_the_check_catches_what_the_api_server_refuses_or_drops():
    namespace = kube.obj("v1", "Namespace", "x")
    assert problems(namespace, KUBERNETES_VERSIONS[0]) == []
    assert problems({**namespace, "spec": {"finalisers": []}}, KUBERNETES_VERSIONS[0])
    rule = kube.obj("monitoring.coreos.com/v1", "PrometheusRule", "r", "ns", spec={"groups": [{"name": "g"}]})
    assert problems(rule, KUBERNETES_VERSIONS[0]) == []
    assert any("pruned" in p for p in problems({**rule, "spec": {"groups": [], "group": []}}, KUBERNETES_VERSIONS[0]))
    assert problems(kube.obj("argoproj.io/v1alpha1", "Unknown", "u"), KUBERNETES_VERSIONS[0])


def test_each_destination_builds_alone_into_valid_objects(variant, render, tmp_path):
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
        found = [(acm, p) for acm in _supported(variant) for d in docs
                 for p in problems(d, KUBERNETES_VERSIONS[-1], acm)]
        assert found == [], (destination, found)
    for path, data in render.items():  # every Application's path is a destination of this render
        if path.startswith(layout.DEPLOY_ARGOCD) and isinstance(data, dict) and data.get("kind") == "Application":
            where = posixpath.relpath(data["spec"]["source"]["path"], ARGOCD["path"])
            assert where in destinations, where
        if isinstance(data, dict) and data.get("kind") == "ApplicationSet":  # each selected cluster has its folder
            (generator,) = data["spec"]["generators"]
            for cluster in generator["selector"]["matchExpressions"][0]["values"]:
                assert layout.deploy_cluster(cluster) in destinations, cluster
