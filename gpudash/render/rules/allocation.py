"""GPU allocation per pod at one spoke step (docs/billing-contract.md section 2), from kube-state-metrics: each
Running pod's effective request on its node with the node's GPU product, AMD partitions and time-sliced MIG slices
billed as what they are, and the pod's workload.
"""
from __future__ import annotations

from gpudash.model import series as names
from gpudash.model import vendors
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.pricing import mig_profile_names, mig_replicas
from gpudash.model.types import Model
from gpudash.model.vendors import Vendor
from gpudash.promql import build as q
from gpudash.render.rules.pods import POD, running


def request_parts(model: Model) -> tuple[str, str]:
    """The two sides of Kubernetes' effective request per pod, node and GPU resource, node-bound only: the sum over
    app containers and restartable init containers (native sidecars), and the max over the other init containers.

    Kubernetes adds each sidecar's request on top of the app containers (KEP-753; kubernetes/kubernetes
    pkg/api/v1/resource/helpers.go PodRequests); kube-state-metrics shows sidecars as
    ``kube_pod_init_container_info{restart_policy="Always"}`` (kubernetes/kube-state-metrics
    docs/metrics/workload/pod-metrics.md). kube-state-metrics gives no container order, so an init container
    is taken to run before the sidecars (exact when sidecars hold no GPU or are declared last).
    """
    per_container = (*POD, "node", "resource")
    each = (*POD, "container", "node", "resource")
    init = ksm.gpu_requests(ksm.INIT_CONTAINER_REQUESTS, model.sources)
    sidecar = q.selector(ksm.INIT_CONTAINER_INFO, ksm.job(model.sources), ("restart_policy", "=", "Always"))
    sidecar_of = f"on (cluster, namespace, pod, uid, container) {sidecar}"
    running = (f"{q.agg('max', each, ksm.gpu_requests(ksm.CONTAINER_REQUESTS, model.sources))}"
               f" or {q.agg('max', each, f'{init} and {sidecar_of}')}")
    return q.agg("sum", per_container, running), q.agg("max", per_container, f"{init} unless {sidecar_of}")


def _effective_request(model: Model) -> str:
    """Kubernetes' effective request per pod and GPU resource (:func:`request_parts`): the larger part."""
    per_container = (*POD, "node", "resource")
    app, init = (q.label_replace(e, "gpudash_part", part, "", "") for e, part in zip(request_parts(model),
                                                                                         ("app", "init")))
    return q.agg("max", per_container, f"{app} or {init}")


def _node_product(model: Model) -> str:
    """The GPU product label of each node (each vendor's node labeller in the registry's order: NVIDIA's GPU
    Feature Discovery first, then AMD's), as ``product``."""
    src = model.sources
    labelled = [q.label_replace(q.selector(ksm.NODE_LABELS, ksm.job(src), (v.product_label(src), "!=", "")),
                                "product", "$1", v.product_label(src), "(.+)") for v in vendors.VENDORS.values()]
    return q.agg("max", ("cluster", "node", "product"), " or on (cluster, node) ".join(labelled))


def _partitions(alloc: str, nodes_with_requests: str, model: Model, v: Vendor) -> str:
    """``alloc`` with the whole-GPU resource on a partitioned node of vendor ``v`` billed as the partition it is
    (AMD: ``amd.com/gpu`` on a partitioned node).

    Under the AMD device plugin's single naming strategy a CPX/NPS4 MI300X node offers ``amd.com/gpu: 64``
    (ROCm/k8s-device-plugin docs/user-guide/configuration.md "Resource Naming Strategy"); the node labeller
    writes the partition as ``amd.com/gpu.compute-memory-partition`` (cmd/k8s-node-labeller/main.go, only on
    nodes whose GPUs share one partition style). Such a request becomes ``amd_com_<partition>``, the resource
    the mixed strategy would have named, so both strategies bill alike. SPX is a whole GPU and stays as is.
    """
    src = model.sources
    label = v.partition_label(src)
    assert label is not None, "a vendor with partitions has a partition label"
    nodes = q.selector(ksm.NODE_LABELS, ksm.job(src), (label, "=~", ".+"), (label, "!~", v.whole_partitions))
    part = q.agg("max", ("cluster", "node", "gpudash_partition"),
                 q.label_replace(nodes, "gpudash_partition", "$1", label, "(.+)"))
    every = f"{part} or on (cluster, node) ({nodes_with_requests} * 0 + 1)"  # one join, alloc evaluated once
    keyed = q.call("label_join", f"{alloc} * on (cluster, node) group_left (gpudash_partition) ({every})",
                   q.quote("gpudash_key"), q.quote("/"), q.quote("resource"), q.quote("gpudash_partition"))
    domain, whole = ksm.sanitise_resource(v.domain), ksm.sanitise_resource(v.resource)
    renamed = q.label_replace(keyed, "resource", f"{domain}_$1", "gpudash_key", f"{whole}/(.+)")
    return q.agg("sum", (*POD, "node", "product", "resource"), renamed)


def _shared_slices(alloc: str, model: Model) -> str:
    """``alloc`` with time-sliced MIG slices counted in slices: ``q`` replicas of a slice shared ``r`` ways are
    ``q / r`` units of ``nvidia_com_mig_<profile>_shared`` (mixed strategy) or of the node's product and resource
    (single strategy: ``<GPU>-MIG-<profile>-SHARED`` on ``nvidia.com/gpu``, ``<GPU>-MIG-<profile>`` on
    ``nvidia.com/gpu.shared`` when renamed), priced at the slice price.

    The replica count is GPU Feature Discovery's ``<resource>.replicas`` node label (NVIDIA/k8s-device-plugin
    internal/lm/resource.go): ``nvidia.com/mig-<profile>.replicas`` under the mixed strategy (where ``-SHARED``
    goes on ``nvidia.com/mig-<profile>.product``, not on ``nvidia.com/gpu.product``), ``nvidia.com/gpu.replicas``
    on a ``-MIG-`` product under the single one. PromQL cannot divide by a label, so the label value is matched
    against a constant table of the replica counts :func:`pricing.mig_replicas` allows; a count outside it stays
    undivided under ``<resource>_replicas_<count>``, and a shared slice on a node without the label under
    ``<resource>_replicas_unknown``: no SKU prices them (unpriced and alerted, never over-billed).
    """
    src, job = model.sources, ksm.job(model.sources)
    v = next(x for x in vendors.VENDORS.values() if x.mig_labels)  # one vendor with MIG slices: NVIDIA
    mig_ksm, whole = ksm.sanitise_resource(v.mig_resource_prefix), ksm.sanitise_resource(v.resource)
    many = "[0-9]*[2-9]|[0-9]*[1-9][0-9]+"  # a count of at least 2
    sources: list[tuple[str, str, tuple[tuple[str, str, str], ...]]]  # (node label, resource, matchers)
    sources = [(ksm.node_label(ksm.replicas_key(f"{v.mig_resource_prefix}{p}")),
                ksm.sanitise_resource(f"{v.mig_resource_prefix}{p}"), ()) for p in mig_profile_names(model)]
    sources.append((ksm.node_label(ksm.replicas_key(v.resource)), whole,
                    ((v.product_label(src), "=~", ".+-MIG-.+"),)))
    # each node's labels series as it is (the max below folds copies, a kube-state-metrics HA pair's): a shorter rule
    shared = " or ".join(
        q.label_replace(q.label_replace(q.selector(ksm.NODE_LABELS, job, (label, "=~", many), *extra),
                                        "gpudash_replicas", "$1", label, "(.+)"), "gpudash_base", resource, "", "")
        for label, resource, extra in sources)
    shared = q.agg("max", ("cluster", "node", "gpudash_base", "gpudash_replicas"), shared)

    def base(expr: str) -> str:  # the resource without the device plugin's ".shared" rename
        return q.label_replace(expr, "gpudash_base", "$1", "resource", "(.+?)(_shared)?")

    requests = ksm.any_gpu_requests(src)
    bases = q.agg("max", ("cluster", "node", "gpudash_base"), base(requests))
    every = f"{shared} or on (cluster, node, gpudash_base) ({bases} * 0 + 1)"  # one join, alloc evaluated once
    keyed = f"{base(alloc)} * on (cluster, node, gpudash_base) group_left (gpudash_replicas) ({every})"
    known = mig_replicas(model)
    if known:
        keyed = q.label_replace(keyed, "gpudash_r", "$1", "gpudash_replicas",
                                f"({q.regex_alternation(map(str, known))})")

    def key(expr: str) -> str:
        return q.call("label_join", expr, q.quote("gpudash_key"), q.quote("/"), q.quote("product"),
                      q.quote("resource"), q.quote("gpudash_replicas"), q.quote("gpudash_r"))

    mixed = q.label_replace(key(keyed), "resource", "${1}_shared", "gpudash_key",
                            f"[^/]*/({mig_ksm}.+?)(_shared)?/[0-9]+/.*")
    unknown = q.label_replace(key(mixed), "resource", "${1}_replicas_$2", "gpudash_key", "[^/]*/([^/]+)/([0-9]+)/")
    # a shared slice on a node without a replicas label: its share is unknown, so no SKU may price it whole
    unlabelled = q.label_replace(unknown, "resource", "${1}${2}${3}_replicas_unknown", "gpudash_key",
                                 f"(?:[^/]*/({mig_ksm}.+_shared)|.+-MIG-[^/]+/({whole}_shared)"
                                 f"|.+-MIG-[^/]+-SHARED/({whole}))//")
    table = ["vector(1)", *(q.const_series(repr(1 / r), gpudash_r=str(r)) for r in known)]
    return f"{unlabelled} * on (gpudash_r) group_left () ({' or '.join(table)})"


def allocation(model: Model) -> str:
    """GPUs allocated per (pod, uid, node, resource) to Running, node-bound pods, with the node's ``product``.

    Pods on a node without a known product label get ``product=""``: they stay visible and unpriced. The
    fallback lists the nodes that hold GPU requests (a cheap selector), so the pod join is evaluated once.
    """
    pods = f"{_effective_request(model)} * on {q.labels(POD)} group_left () {running(model)}"
    request_nodes = q.agg("max", ("cluster", "node"), ksm.gpu_requests(ksm.CONTAINER_REQUESTS, model.sources))
    products = f"{_node_product(model)} or on (cluster, node) ({request_nodes} * 0 + 1)"
    with_product = f"({pods} * on (cluster, node) group_left (product) ({products}))"
    out = _shared_slices(with_product, model)
    for v in vendors.with_feature("partitions"):
        out = _partitions(out, request_nodes, model, v)
    return out


def _workloads(model: Model) -> str:
    """One (workload, workload_type) per pod: KServe InferenceService or Kubeflow Notebook labels first,
    then the owner chain (ReplicaSet -> Deployment), then any other owner, then the pod itself."""
    src = model.sources
    job = ksm.job(src)
    keep = ("cluster", "namespace", "pod", "workload", "workload_type")

    def named(expr: str, from_label: str, kind: str | None) -> str:
        out = q.label_replace(expr, "workload", "$1", from_label, "(.+)")
        kind_src = ("owner_kind", "(.+)") if kind is None else ("", "")
        return q.agg("max", keep, q.label_replace(out, "workload_type", kind or "$1", *kind_src))

    isvc = named(q.selector(ksm.POD_LABELS, job, (ksm.INFERENCESERVICE_LABEL, "!=", "")),
                 ksm.INFERENCESERVICE_LABEL, "InferenceService")
    notebook = named(q.selector(ksm.POD_LABELS, job, (ksm.NOTEBOOK_LABEL, "!=", "")), ksm.NOTEBOOK_LABEL, "Notebook")
    pod_rs = q.agg("max", ("cluster", "namespace", "pod", "replicaset"),
                   q.label_replace(q.selector(ksm.POD_OWNER, job, ("owner_kind", "=", "ReplicaSet")),
                                   "replicaset", "$1", "owner_name", "(.+)"))
    rs_deploy = q.agg("max", ("cluster", "namespace", "replicaset", "owner_name"),
                      q.selector(ksm.REPLICASET_OWNER, job, ("owner_kind", "=", "Deployment")))
    deployment = named(f"{pod_rs} * on (cluster, namespace, replicaset) group_left (owner_name) {rs_deploy}",
                       "owner_name", "Deployment")
    replicaset = named(pod_rs, "replicaset", "ReplicaSet")
    other = named(q.selector(ksm.POD_OWNER, job, ("owner_kind", "!~", "ReplicaSet|<none>|")), "owner_name", None)
    bare = named(q.selector(ksm.POD_OWNER, job, ("owner_kind", "=~", "<none>|")), "pod", "Pod")
    # a Running pod without any owner series still gets a workload (itself), so the join never drops it
    unowned = named(q.selector(ksm.POD_PHASE, job, ("phase", "=", "Running")), "pod", "Pod")
    chain = [isvc, notebook, deployment, replicaset, other, bare, unowned]
    return " or on (cluster, namespace, pod) ".join(f"({c})" for c in chain)


def with_workload(rows: str, model: Model) -> str:
    """``rows`` (per pod, node, product and resource) summed per :data:`~gpudash.model.series.POD_ALLOCATED` line,
    with the pod's workload (:func:`_workloads`)."""
    return q.agg("sum", names.labels(names.POD_ALLOCATED),
                 f"{rows} * on (cluster, namespace, pod) group_left (workload, workload_type) ({_workloads(model)})")


def pod_allocated(model: Model) -> str:
    """GPUs allocated now per Running, node-bound pod (:func:`allocation`), with the pod's workload."""
    return with_workload(allocation(model), model)
