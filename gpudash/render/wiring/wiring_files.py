"""The scrape wiring's files (``wiring/``): the exporters' Namespace, the ServiceMonitors that let OpenShift's platform
Prometheus scrape the GPU exporters the way the model reads them, the Role and RoleBinding it needs to discover
them, and kube-state-metrics' allowlist (:mod:`gpudash.render.wiring.ksm_allowlist`).

A ServiceMonitor (prometheus-operator example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml)
selects Services by label in its own namespace; each endpoint here sets ``honorLabels`` from the exporter's
``tenant_label`` (true keeps the exporter's own namespace/pod labels, unset stores them as exported_*) and
relabels ``job`` to a name the exporter's job regex matches.

The platform Prometheus discovers a ServiceMonitor's targets only in namespaces where its service account may list
services, endpoints and pods: its ClusterRole grants none (openshift/cluster-monitoring-operator
assets/prometheus-k8s/cluster-role.yaml), CMO grants them per namespace (role-specific-namespaces.yaml,
role-binding-specific-namespaces.yaml), and so does the NVIDIA GPU Operator for its own (NVIDIA/gpu-operator
assets/state-operator-metrics/0100_prom_role_openshift.yaml, 0110_prom_rolebinding_openshift.yaml). Without that
Role and RoleBinding no exporter series exist: utilisation, idle alerts, the pruner and energy go blank.
"""
from __future__ import annotations

from gpudash.base import kube, layout
from gpudash.base.yamlfmt import COMMENT
from gpudash.model import vendors
from gpudash.model.exporters import gpu_exporters as gx
from gpudash.model.types import Exporter, Model, SelfManaged, Sources
from gpudash.model.vendors import Vendor
from gpudash.render.wiring.ksm_allowlist import ksm_allowlist

METRICS_PATH = "/metrics"  # every bundled exporter's
METRICS_PORT_NAME = "metrics"  # the exporter Service's port, or that of wiring's own Service (Wiring.own_service)
SERVICE_NAME_LABEL = "app.kubernetes.io/name"


def own_service(name: str, namespace: str, pod_labels, port: int) -> dict:
    """A Service selecting the exporter's pods, labelled for its ServiceMonitor alone."""
    return kube.obj("v1", "Service", name, namespace, labels={SERVICE_NAME_LABEL: name}, spec={
        "selector": dict(pod_labels),
        "ports": [{"name": METRICS_PORT_NAME, "port": port, "targetPort": port, "protocol": "TCP"}]})


def exporter_wiring(v: Vendor, sources: Sources, managed: SelfManaged) -> dict[str, dict]:
    """The ServiceMonitor of vendor ``v``'s exporter (and the Service of its own it selects, if any), by path."""
    assert v.wiring is not None
    name, selected = f"gpudash-{v.wiring.stem}", managed.labels(v.wiring.labels_field)
    files = {}
    if v.wiring.own_service:
        files[layout.wiring_service(v.wiring.stem)] = own_service(name, managed.namespace, selected, v.exporter_port)
        selected = ((SERVICE_NAME_LABEL, name),)
    files[layout.wiring_service_monitor(v.wiring.stem)] = service_monitor(name, managed.namespace,
                                                                          gx.exporter(sources, v), selected)
    return files


def service_monitor(name: str, namespace: str, exporter: Exporter, service_labels) -> dict:
    endpoint = {"port": METRICS_PORT_NAME, "path": METRICS_PATH, "honorLabels": exporter.tenant_label == "namespace",
                "relabelings": [{"action": "replace", "targetLabel": "job", "replacement": gx.sample_job(exporter)}]}
    return kube.obj("monitoring.coreos.com/v1", "ServiceMonitor", name, namespace,
                    spec={"selector": {"matchLabels": dict(service_labels)}, "endpoints": [endpoint]})


# What the platform Prometheus needs in the exporters' namespace to discover them: CMO's own Role grants the same
# (endpointslices too, for a Prometheus whose serviceDiscoveryRole is EndpointSlice).
DISCOVERY_RULES = [
    {"apiGroups": [""], "resources": ["services", "endpoints", "pods"], "verbs": ["get", "list", "watch"]},
    {"apiGroups": ["discovery.k8s.io"], "resources": ["endpointslices"], "verbs": ["get", "list", "watch"]},
]


def discovery_rbac(namespace: str) -> tuple[dict, dict]:
    """The Role and RoleBinding that let the platform Prometheus discover Endpoints in ``namespace`` (the scrape
    wiring's and the pruner's namespace: a namespace labelled for cluster monitoring is scraped only with them)."""
    name = kube.PLATFORM_PROMETHEUS
    role = kube.obj(kube.RBAC_API, "Role", name, namespace, rules=DISCOVERY_RULES)
    binding = kube.obj(kube.RBAC_API, "RoleBinding", name, namespace,
                       roleRef={"apiGroup": kube.RBAC_API.split("/")[0], "kind": "Role", "name": name},
                       subjects=[{"kind": "ServiceAccount", "name": name, "namespace": kube.PLATFORM_NAMESPACE}])
    return role, binding


def namespace(name: str) -> dict:
    """The exporters' Namespace, labelled for the platform Prometheus. The GPU Operator (or whoever deployed the
    exporters) owns it: ArgoCD never prunes or deletes it, so removing wiring/ leaves the exporters running."""
    return {COMMENT: f"The exporters' namespace: gpudash only labels it for cluster monitoring. Never pruned or\n"
                     f"deleted by ArgoCD ({kube.NOT_OWNED}); to remove wiring/, delete its other objects,\n"
                     "never this Namespace (kubectl delete -k wiring/ would delete the exporters).",
            **kube.obj("v1", "Namespace", name, labels=kube.CLUSTER_MONITORING,
                       annotations={kube.SYNC_OPTIONS: kube.NOT_OWNED})}


def artifacts(model: Model) -> dict[str, object]:
    managed = model.sources.self_managed
    if managed is None:
        return {}
    files: dict[str, object] = {layout.WIRING_NAMESPACE: namespace(managed.namespace),
                                 **dict(zip((layout.WIRING_ROLE, layout.WIRING_ROLE_BINDING),
                                            discovery_rbac(managed.namespace)))}
    for v in (v for v in vendors.VENDORS.values() if v.wiring):
        files.update(exporter_wiring(v, model.sources, managed))
    files[layout.KSM_ALLOWLIST] = ksm_allowlist(model)
    return files
