"""The upstream CRD schemas rendered custom resources are checked against, one set per supported ACM release and
OpenShift GitOps release (gpudash.model.versions), and the check itself: an object is refused when its schema
refuses it and when the API server would drop a field of it (structural pruning; strict field validation, as kubectl
and ArgoCD apply, refuses such a field instead). Provenance: tests/fixtures/upstream/*/SOURCE.md."""
from __future__ import annotations

import functools
import json

import jsonschema

from gpudash.model.versions import ACM_VERSIONS, GITOPS_VERSIONS
from tests.conftest import FIXTURES

UPSTREAM = FIXTURES / "upstream"
# (apiVersion, kind) -> its schema file in each ACM release's folder, tests/fixtures/upstream/acm/<version>/
ACM_CRDS = {
    ("observability.open-cluster-management.io/v1beta2", "MultiClusterObservability"):
        "multiclusterobservability-v1beta2",
    ("policy.open-cluster-management.io/v1", "Policy"): "policy-v1",
    ("policy.open-cluster-management.io/v1", "ConfigurationPolicy"): "configurationpolicy-v1",
    ("policy.open-cluster-management.io/v1", "PlacementBinding"): "placementbinding-v1",
    ("cluster.open-cluster-management.io/v1beta1", "Placement"): "placement-v1beta1",
    ("cluster.open-cluster-management.io/v1beta2", "ManagedClusterSetBinding"): "managedclustersetbinding-v1beta2",
}
OTHER_CRDS = {  # (apiVersion, kind) -> the one stored version of its schema, whatever the ACM release
    ("monitoring.coreos.com/v1", "PrometheusRule"): "prometheusrule/prometheusrule-v1",
    ("monitoring.coreos.com/v1", "ServiceMonitor"): "servicemonitor/servicemonitor-v1",
    ("grafana.integreatly.org/v1beta1", "GrafanaDashboard"): "grafana-operator/grafanadashboard-v1beta1",
    ("grafana.integreatly.org/v1beta1", "GrafanaFolder"): "grafana-operator/grafanafolder-v1beta1",
    ("grafana.integreatly.org/v1beta1", "GrafanaDatasource"): "grafana-operator/grafanadatasource-v1beta1",
}
# (apiVersion, kind) -> its schema file in each OpenShift GitOps release's folder, tests/fixtures/upstream/gitops/<v>/
GITOPS_CRDS = {
    ("argoproj.io/v1alpha1", "Application"): "application-v1alpha1",
    ("argoproj.io/v1alpha1", "ApplicationSet"): "applicationset-v1alpha1",
}
NEWEST = ACM_VERSIONS[-1]
NEWEST_GITOPS = GITOPS_VERSIONS[-1]


def acm_folder(acm_version: str):
    """The folder of ACM ``acm_version``'s schemas."""
    return UPSTREAM / "acm" / acm_version


def gitops_folder(gitops_version: str):
    """The folder of OpenShift GitOps ``gitops_version``'s schemas."""
    return UPSTREAM / "gitops" / gitops_version


@functools.cache
def _load(path) -> dict:
    return json.loads(path.read_text())


def schemas(acm_version: str = NEWEST, gitops_version: str = NEWEST_GITOPS) -> dict[tuple[str, str], dict]:
    """Every stored CRD schema by (apiVersion, kind): the ACM ones of release ``acm_version``, the Argo CD ones of
    OpenShift GitOps ``gitops_version``."""
    acm = {key: _load(acm_folder(acm_version) / f"{stem}.schema.json") for key, stem in ACM_CRDS.items()}
    gitops = {key: _load(gitops_folder(gitops_version) / f"{stem}.schema.json") for key, stem in GITOPS_CRDS.items()}
    return {**{key: _load(UPSTREAM / f"{stem}.schema.json") for key, stem in OTHER_CRDS.items()}, **acm, **gitops}


def schema(api_version: str, kind: str, acm_version: str = NEWEST) -> dict:
    """The stored schema of one custom resource kind (the newest OpenShift GitOps' for Argo CD's)."""
    return schemas(acm_version)[(api_version, kind)]


def pruned(instance, node, path="") -> list[str]:
    """Fields the API server would drop silently (structural pruning, as the Kubernetes CRD docs describe it):
    unknown keys of a node without x-kubernetes-preserve-unknown-fields; declared keys are checked recursively
    either way, array items too; ObjectMeta is the API server's own."""
    if isinstance(instance, list) and isinstance(node.get("items"), dict):
        return [p for i, item in enumerate(instance) for p in pruned(item, node["items"], f"{path}[{i}]")]
    if not isinstance(instance, dict):
        return []
    props, extra = node.get("properties") or {}, node.get("additionalProperties")
    keep_unknown = node.get("x-kubernetes-preserve-unknown-fields")
    out = []
    for key, value in instance.items():
        if not path and key == "metadata":
            continue
        if key in props:
            out += pruned(value, props[key], f"{path}.{key}")
        elif isinstance(extra, dict):
            out += pruned(value, extra, f"{path}.{key}")
        elif not keep_unknown:
            out.append(f"{path}.{key}")
    return out


def refused(obj: dict, node: dict) -> list[str]:
    """Why the API server, validating strictly against the CRD schema ``node``, would refuse ``obj``."""
    out = [f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
           for e in jsonschema.Draft7Validator(node).iter_errors(obj)]
    return out + [f"{p}: not in the CRD (pruned)" for p in pruned(obj, node)]
