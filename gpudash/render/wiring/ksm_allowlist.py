"""kube-state-metrics' ``--metric-labels-allowlist`` for vanilla Kubernetes: the node and pod label keys the rules read
(OpenShift's kube-state-metrics exports every node label)."""
from __future__ import annotations

from gpudash.model import vendors
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.types import Model


def allowlist_keys(model: Model) -> dict[str, list[str]]:
    """The Kubernetes label keys the rules read from kube_node_labels and kube_pod_labels, per resource kind."""
    # the replicas labels of the time-sliced resources (GPU Feature Discovery's <resource>.replicas)
    resources = (*(v.resource for v in vendors.with_feature("time_slicing")),
                 *(p.resource for c in model.gpu_classes for p in c.mig))
    nodes = sorted({*ksm.product_keys(), *map(ksm.replicas_key, resources)})
    return {"nodes": nodes, "pods": sorted((ksm.INFERENCESERVICE_KEY, ksm.NOTEBOOK_KEY))}


def ksm_allowlist(model: Model) -> str:
    """The value of kube-state-metrics' ``--metric-labels-allowlist`` (kubernetes/kube-state-metrics
    docs/developer/cli-arguments.md: ``kind=[key,...],...``)."""
    value = ",".join(f"{kind}=[{','.join(keys)}]" for kind, keys in allowlist_keys(model).items())
    return (f"# kube-state-metrics --metric-labels-allowlist for the labels gpudash reads (vanilla Kubernetes; "
            f"OpenShift's exports every node label)\n{value}\n")
