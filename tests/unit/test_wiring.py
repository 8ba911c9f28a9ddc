"""The scrape wiring rendered for self-managed spokes (wiring/): ServiceMonitors valid against the upstream CRD,
with the honorLabels and job each exporter's model settings assume, in a namespace OpenShift's platform
Prometheus watches; and a kube-state-metrics allowlist that exports every node and pod label the rules read."""
from __future__ import annotations

import json
import re

import jsonschema
import pytest
import yaml

from gpudash.base import kube, layout
from gpudash.model import model_from_dict, vendors
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.load import bundled_example_path
from gpudash.render import rules, wiring
from tests.conftest import FIXTURES

SCHEMA = json.loads((FIXTURES / "upstream/servicemonitor/servicemonitor-v1.schema.json")
                    .read_text())
EXPORTERS = {v.source: layout.wiring_service_monitor(v.wiring.stem) for v in vendors.VENDORS.values() if v.wiring}


def _model(dcgm="exported_namespace", amd="namespace", self_managed=None):
    data = yaml.safe_load(bundled_example_path().read_text())
    data["sources"] = {"dcgm": {"tenant_label": dcgm}, "amd": {"tenant_label": amd}}
    if self_managed is not None:
        data["sources"]["self_managed"] = self_managed
    return model_from_dict(data, "test model")


def test_nothing_without_self_managed():
    assert wiring.artifacts(_model()) == {}


@pytest.mark.parametrize("dcgm,amd", [("exported_namespace", "namespace"), ("namespace", "exported_namespace")])
def test_service_monitors_follow_the_model(dcgm, amd):
    model = _model(dcgm, amd, {"namespace": "gpu-exporters"})
    files = wiring.artifacts(model)
    # the objects are listed in wiring/kustomization.yaml (one deployment target: the spoke), the allowlist is not
    assert [p for p, d in files.items() if not kube.is_resource(p, d)] == [layout.KSM_ALLOWLIST]
    namespace = files[layout.WIRING_NAMESPACE]
    assert namespace["metadata"]["name"] == "gpu-exporters"
    assert namespace["metadata"]["labels"].items() >= kube.CLUSTER_MONITORING.items()
    # the exporters' namespace is the GPU Operator's: removing wiring/ from ArgoCD (pruned, or the Application
    # deleted) must not delete it with the exporters (argoproj/argo-cd docs/user-guide/sync-options.md)
    options = namespace["metadata"]["annotations"][kube.SYNC_OPTIONS].split(",")
    assert {"Prune=false", "Delete=false"} <= set(options)
    for what, path in EXPORTERS.items():
        monitor, exporter = files[path], getattr(model.sources, what)
        jsonschema.validate(monitor, SCHEMA)
        assert monitor["metadata"]["namespace"] == "gpu-exporters"
        (endpoint,) = monitor["spec"]["endpoints"]
        # honorLabels true keeps the exporter's namespace/pod labels; unset stores them as exported_*
        assert endpoint["honorLabels"] is (exporter.tenant_label == "namespace")
        (relabel,) = endpoint["relabelings"]
        assert relabel["targetLabel"] == "job" and re.fullmatch(exporter.job, relabel["replacement"])


def test_service_labels_from_the_model():
    model = _model(self_managed={"dcgm_service_labels": {"app": "dcgm"}})
    files = wiring.artifacts(model)
    assert files[EXPORTERS["dcgm"]]["spec"]["selector"] == {"matchLabels": {"app": "dcgm"}}
    amd_service = files[layout.wiring_service(vendors.vendor("amd").wiring.stem)]
    assert amd_service["spec"]["selector"] == {"app": "amd-gpu-amdgpu-metrics-exporter"}  # default


def test_the_amd_exporter_is_selected_whatever_its_chart_version():
    """The AMD chart's Service has no labels up to v1.2.1 (ROCm/device-metrics-exporter
    helm-charts/templates/metrics-exporter-service.yaml), so a ServiceMonitor selecting the chart's Service by label
    matches nothing there; its pods carry the app label in every version. The AMD ServiceMonitor selects a Service
    rendered in wiring/ itself, whose selector is the model's pod labels, on the container port 5000."""
    model = _model(self_managed={"namespace": "gpu-exporters"})
    files = wiring.artifacts(model)
    monitor = files[EXPORTERS["amd"]]
    wanted = monitor["spec"]["selector"]["matchLabels"].items()
    services = [d for d in files.values() if isinstance(d, dict) and d.get("kind") == "Service"
                and d["metadata"]["namespace"] == monitor["metadata"]["namespace"]
                and d["metadata"]["labels"].items() >= wanted]
    (service,) = services
    assert service["spec"]["selector"] == dict(model.sources.self_managed.labels("amd_service_labels"))
    (port,) = service["spec"]["ports"]
    (endpoint,) = monitor["spec"]["endpoints"]
    assert endpoint["port"] == port["name"] and port["targetPort"] == 5000


def test_ksm_allowlist_covers_every_label_the_rules_read():
    model = _model(self_managed={})
    text = wiring.artifacts(model)[layout.KSM_ALLOWLIST]
    (value,) = [line for line in text.splitlines() if not line.startswith("#")]
    kinds = dict(re.fullmatch(r"(\w+)=\[([^\]]*)\]", part).groups() for part in re.findall(r"\w+=\[[^\]]*\]", value))
    assert set(kinds) == {"nodes", "pods"} and ",".join(f"{k}=[{v}]" for k, v in kinds.items()) == value
    exported = {ksm.node_label(key) for keys in kinds.values() for key in keys.split(",")}
    read = set()
    for group in rules.artifacts(model)[layout.SPOKE_RULES]["groups"]:
        for rule in group["rules"]:
            read |= set(re.findall(r"\b(label_[A-Za-z0-9_]+)\b(?!\s*\()", rule["expr"]))  # not label_replace(
    assert read and read <= exported, read - exported


def test_platform_prometheus_may_discover_the_exporters():
    """OpenShift's platform Prometheus (service account prometheus-k8s in openshift-monitoring) discovers a
    ServiceMonitor's Endpoints only where a Role grants it list/watch on services, endpoints and pods: CMO grants
    it in its own namespaces (openshift/cluster-monitoring-operator
    assets/prometheus-k8s/role-specific-namespaces.yaml; the ClusterRole cluster-role.yaml grants none), the GPU
    Operator ships the same Role and RoleBinding (NVIDIA/gpu-operator
    assets/state-operator-metrics/0100_prom_role_openshift.yaml, 0110_prom_rolebinding_openshift.yaml)."""
    files = wiring.artifacts(_model(self_managed={"namespace": "gpu-exporters"}))
    roles = [d for d in files.values() if isinstance(d, dict) and d.get("kind") == "Role"]
    bindings = [d for d in files.values() if isinstance(d, dict) and d.get("kind") == "RoleBinding"]
    assert len(roles) == 1 and len(bindings) == 1, sorted(files)
    (role,), (binding,) = roles, bindings
    assert role["metadata"]["namespace"] == binding["metadata"]["namespace"] == "gpu-exporters"
    granted = {(g, r, v) for rule in role["rules"] for g in rule["apiGroups"] for r in rule["resources"]
               for v in rule["verbs"]}
    assert {("", r, v) for r in ("services", "endpoints", "pods") for v in ("get", "list", "watch")} <= granted
    assert binding["roleRef"] == {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role",
                                  "name": role["metadata"]["name"]}
    assert binding["subjects"] == [{"kind": "ServiceAccount", "name": "prometheus-k8s",
                                    "namespace": "openshift-monitoring"}]
