"""Scrape wiring for self-managed spokes (``sources.self_managed``): the ServiceMonitors that let OpenShift's
platform Prometheus scrape the GPU exporters the way the model reads them, and kube-state-metrics'
``--metric-labels-allowlist`` for vanilla Kubernetes (OpenShift's kube-state-metrics exports every node label).

A ServiceMonitor (prometheus-operator example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml)
selects Services by label in its own namespace; each endpoint here sets ``honorLabels`` from the exporter's
``tenant_label`` (true keeps the exporter's own namespace/pod labels, unset stores them as exported_*) and
relabels ``job`` to a name the exporter's job regex matches.
"""
from __future__ import annotations

from gpudash import kube, layout
from gpudash.model.types import Exporter, Model
from gpudash.sources import gpu_exporters as gx
from gpudash.sources import kube_state_metrics as ksm

METRICS_PATH = "/metrics"  # both exporters
# Exporter (sources.<key>) -> its ServiceMonitor's file, name and where the exporter serves: the DCGM exporter's
# Service port "metrics" (9400; NVIDIA/dcgm-exporter deployment/templates/service.yaml, values.yaml
# service.port), the AMD device-metrics-exporter's container port 5000 (ROCm/device-metrics-exporter
# helm-charts/values.yaml service.ClusterIP.port; the chart's Service port has no name).
SERVICE_MONITORS = {
    "dcgm": (layout.DCGM_SERVICE_MONITOR, "gpudash-dcgm-exporter", {"port": "metrics"}),
    "amd": (layout.AMD_SERVICE_MONITOR, "gpudash-amd-metrics-exporter", {"targetPort": 5000}),
}


def service_monitor(name: str, namespace: str, exporter: Exporter, service_labels, port: dict) -> dict:
    endpoint = {**port, "path": METRICS_PATH, "honorLabels": exporter.tenant_label == "namespace",
                "relabelings": [{"action": "replace", "targetLabel": "job", "replacement": gx.sample_job(exporter)}]}
    return kube.obj("monitoring.coreos.com/v1", "ServiceMonitor", name, namespace,
                    spec={"selector": {"matchLabels": dict(service_labels)}, "endpoints": [endpoint]})


def allowlist_keys(model: Model) -> dict[str, list[str]]:
    """The Kubernetes label keys the rules read from kube_node_labels and kube_pod_labels, per resource kind."""
    resources = ("nvidia.com/gpu", *(p.resource for c in model.gpu_classes for p in c.mig))
    nodes = sorted({*ksm.PRODUCT_KEYS, *map(ksm.replicas_key, resources)})
    return {"nodes": nodes, "pods": sorted((ksm.INFERENCESERVICE_KEY, ksm.NOTEBOOK_KEY))}


def ksm_allowlist(model: Model) -> str:
    """The value of kube-state-metrics' ``--metric-labels-allowlist`` (kubernetes/kube-state-metrics
    docs/developer/cli-arguments.md: ``kind=[key,...],...``)."""
    value = ",".join(f"{kind}=[{','.join(keys)}]" for kind, keys in allowlist_keys(model).items())
    return (f"# kube-state-metrics --metric-labels-allowlist for the labels gpudash reads (vanilla Kubernetes; "
            f"OpenShift's exports every node label)\n{value}\n")


def artifacts(model: Model) -> dict[str, object]:
    managed = model.sources.self_managed
    if managed is None:
        return {}
    files: dict[str, object] = {layout.WIRING_NAMESPACE: kube.obj("v1", "Namespace", managed.namespace,
                                                         labels=kube.CLUSTER_MONITORING)}
    for what, (path, name, port) in SERVICE_MONITORS.items():
        files[path] = service_monitor(name, managed.namespace, getattr(model.sources, what),
                                      getattr(managed, f"{what}_service_labels"), port)
    files[layout.KSM_ALLOWLIST] = ksm_allowlist(model)
    return files
