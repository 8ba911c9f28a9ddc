"""kube-state-metrics vocabulary: the series allocation is billed from.

Extended resources are sanitised by kube-state-metrics (``nvidia.com/mig-1g.10gb`` -> ``nvidia_com_mig_1g_10gb``).
Requests exist while a pod is Pending (``node=""`` until scheduled) and after it Succeeded/Failed until it is
deleted, so billing always joins them with the Running phase.
"""
from __future__ import annotations

import re

from gpudash.model import vendors
from gpudash.model.types import Sources
from gpudash.promql import build as q

CONTAINER_REQUESTS = "kube_pod_container_resource_requests"
INIT_CONTAINER_REQUESTS = "kube_pod_init_container_resource_requests"
INIT_CONTAINER_INFO = "kube_pod_init_container_info"  # restart_policy="Always": a native sidecar
POD_PHASE = "kube_pod_status_phase"
POD_OWNER = "kube_pod_owner"
POD_LABELS = "kube_pod_labels"
REPLICASET_OWNER = "kube_replicaset_owner"
NODE_LABELS = "kube_node_labels"
NODE_ALLOCATABLE = "kube_node_status_allocatable"
NODE_CAPACITY = "kube_node_status_capacity"
POD_INFO = "kube_pod_info"
# One series per container with a status (kubernetes/kube-state-metrics internal/store/pod.go
# createPodContainerInfoFamilyGenerator, from pod.Status.ContainerStatuses): never read by the rules, it tells a
# scrape that keeps pod-level series only (OpenShift's collectionProfile: minimal) from a cluster without init
# containers.
CONTAINER_INFO = "kube_pod_container_info"
PVC_INFO = "kube_persistentvolumeclaim_info"  # one series per PVC (labels namespace, persistentvolumeclaim)
POD_PVC = "kube_pod_spec_volumes_persistentvolumeclaims_info"  # one series per PVC volume of a pod (labels volume,
# persistentvolumeclaim): a pod whose volume has no such series mounts something else, e.g. an emptyDir


def gpu_resource_regex() -> str:
    """Every extended resource of the registered GPU vendors' domains, in kube-state-metrics' sanitised form:
    billed when the model prices it, else recorded as unpriced (and alerted), never silently free. This covers the
    NVIDIA device plugin's renamed resources (nvidia.com/gpu.shared, nvidia.com/mig-<profile>.shared), MIG +me
    profiles (nvidia.com/mig-1g.10gb.me) and the AMD device plugin's partition resources (amd.com/cpx_nps4)."""
    return "|".join(f"{sanitise_resource(v.domain)}_.+" for v in vendors.VENDORS.values())


# Pod label keys that name the workload better than the owner chain (KServe, Kubeflow notebooks).
INFERENCESERVICE_KEY = "serving.kserve.io/inferenceservice"
NOTEBOOK_KEY = "notebook-name"


def product_keys() -> tuple[str, ...]:
    """Node label keys of the GPU products and partitions (GPU Feature Discovery, the AMD node labeller), each
    vendor's: the model's sources.*_label defaults are kube-state-metrics' names of these."""
    return tuple(k for v in vendors.VENDORS.values() for k in (v.product_label_key, v.partition_label_key) if k)


# GPU Feature Discovery writes ``<resource>.replicas`` for every resource it labels (NVIDIA/k8s-device-plugin
# internal/lm/resource.go ``baseLabeler``): the replicas each device is shared as (0 without a sharing config, 1
# unshared). The key uses the resource's original name even when the sharing config renames it to ``.shared``, and
# under the single MIG strategy the resource is ``nvidia.com/gpu``.
REPLICAS_SUFFIX = ".replicas"


def replicas_key(resource: str) -> str:
    """GPU Feature Discovery's node label key of ``resource``'s replica count: ``nvidia.com/gpu.replicas``."""
    return resource + REPLICAS_SUFFIX


def node_label(key: str) -> str:
    """kube-state-metrics' ``kube_node_labels`` label for a node label key: ``nvidia.com/gpu.replicas`` ->
    ``label_nvidia_com_gpu_replicas``."""
    return "label_" + sanitise_resource(key)


def sanitise_resource(resource: str) -> str:
    """kube-state-metrics' form of a Kubernetes resource name: ``nvidia.com/gpu`` -> ``nvidia_com_gpu``."""
    return re.sub(r"[^a-zA-Z0-9_]", "_", resource)


INFERENCESERVICE_LABEL = node_label(INFERENCESERVICE_KEY)  # kube_pod_labels names pod labels as node labels
NOTEBOOK_LABEL = node_label(NOTEBOOK_KEY)


def sample_resource() -> str:
    """A GPU resource for test data, as kube-state-metrics names it (:func:`gpudash.model.vendors.sample`'s)."""
    return sanitise_resource(vendors.sample().resource)


def job(sources: Sources) -> tuple[str, str, str]:
    """The matcher pinning kube-state-metrics' job (other exporters of KSM-named series would double-count)."""
    return ("job", "=", sources.kube_state_metrics_job)


def gpu_requests(metric: str, sources: Sources) -> str:
    """Requests of GPU resources by containers bound to a node."""
    return q.selector(metric, job(sources), ("resource", "=~", gpu_resource_regex()), ("node", "!=", ""))


def any_gpu_requests(sources: Sources) -> str:
    """:func:`gpu_requests` of app containers or init containers (sidecars included)."""
    return " or ".join(gpu_requests(m, sources) for m in (CONTAINER_REQUESTS, INIT_CONTAINER_REQUESTS))
