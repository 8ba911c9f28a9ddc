"""Active GPUs per node at one spoke step, for CCSP (docs/billing-contract.md section 5): whole GPUs from the
allocation, fractions on the physical GPUs dcgm-exporter shows them on or by their compute-share bound, and which
of those the figure came from (``active_from``).
"""
from __future__ import annotations

import re

from gpudash.model import mig, vendors
from gpudash.model import series as names
from gpudash.model.exporters import gpu_exporters as gx
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.pricing import ksm_resource, skus
from gpudash.model.types import Model
from gpudash.model.vendors import Vendor
from gpudash.promql import build as q
from gpudash.render.rules.allocation import request_parts
from gpudash.render.rules.pods import POD


def _gpu_equivalents(node_res: str, model: Model) -> str:
    """``node_res`` (units per node, product and resource) in physical GPUs: every series gets a weight label
    (1 by default; the compute share of a MIG slice; 1/replicas for a time-sliced replica) from its
    ``product/resource`` key, then is multiplied by a small table keyed by that label."""
    by_weight: dict[float, list[tuple[str, str]]] = {}
    for s in skus(model):
        if s.weight != 1.0:
            by_weight.setdefault(s.weight, []).append((s.product, s.ksm_resource))
    sku = q.call("label_join", node_res, q.quote("gpudash_sku"), q.quote("/"), q.quote("product"), q.quote("resource"))
    return q.times_keyed(sku, "gpudash_weight", "gpudash_sku",
                         [(repr(w), q.regex_pairs(keys, "/")) for w, keys in sorted(by_weight.items())], "1")


def _attributing() -> Vendor:
    """The vendor whose exporter names the physical GPU of a fractional device (MIG slices, time-sliced replicas):
    NVIDIA's. One vendor only: the kinds below tell attribution from bound by the resource's domain."""
    found = [v for v in vendors.VENDORS.values() if v.attributes_fractions]
    assert len(found) == 1, "one registered vendor with MIG or time-slicing (gpudash.render.rules.active_gpus)"
    return found[0]


def _kinded(rows: str, model: Model) -> str:
    """``rows`` (units per pod, node, product and resource) in physical GPUs (:func:`_gpu_equivalents`), each with
    ``gpudash_kind``: ``whole`` (weight 1: a whole GPU, or a MIG slice with all its GPU's compute), ``attribution``
    (a fraction of an NVIDIA GPU: a MIG slice or a time-sliced replica, which dcgm-exporter maps to its physical
    GPU) or ``bound`` (another fraction: an AMD partition, whose exporter series name no physical GPU)."""
    key = q.call("label_join", _gpu_equivalents(rows, model), q.quote("gpudash_kindkey"), q.quote("/"),
                 q.quote("gpudash_weight"), q.quote("resource"))
    kind = q.label_replace(key, "gpudash_kind", "bound", "", "")
    domain = re.escape(ksm_resource(_attributing().domain))
    kind = q.label_replace(kind, "gpudash_kind", "attribution", "gpudash_kindkey", f"[^/]+/{domain}_.+")
    return q.label_replace(kind, "gpudash_kind", "whole", "gpudash_kindkey", "1/.+")


def _of_kind(kinded: str, kind: str) -> str:
    return f"({kinded} and on (gpudash_kind) {q.const_series(1, gpudash_kind=kind)})"


def _fractional_profiles(model: Model) -> list[str]:
    """MIG profiles with less than their GPU's compute (a full-compute slice, e.g. 7g.80gb, is a whole GPU)."""
    return sorted({p.name for c in model.gpu_classes if c.mig_model for p in c.mig
                   if p.compute_slices < mig.GPU_SLICES[c.mig_model][0]})


def _attributed_gpus(kinded: str, model: Model) -> str:
    """Per node, the physical GPUs (``gpu``, ``UUID``) on which dcgm-exporter shows a fractional device (a MIG slice
    of less than a whole GPU, or a time-sliced GPU) held by a pod that holds fractional NVIDIA devices there by
    allocation. The join on the allocation keeps out every pod that holds no GPU: under honorLabels Prometheus fills
    a GPU series without pod labels (dcgm-exporter writes none for a GPU no pod holds) with the target's own
    namespace/pod, the exporter's (prometheus/prometheus scrape/scrape.go mutateSampleLabels)."""
    v = _attributing()
    src = gx.exporter(model.sources, v)
    profile = v.mig_labels[0] if v.mig_labels else ""
    pod = ("cluster", "node", "namespace", "pod")
    own = ("cluster", *v.host_labels, *v.gpu_labels, src.tenant_label, src.pod_label)

    def shown(*matchers) -> str:
        sel = q.selector(v.metric(model.sources, v.attribution), gx.job(src), (src.pod_label, "!=", ""),
                         (src.tenant_label, "!=", ""), *matchers)
        return gx.on_node(gx.to_pod_labels(q.agg("max", own, sel), src), v)

    holders = q.agg("max", pod, _of_kind(kinded, names.FROM_ATTRIBUTION))
    whole = q.agg("max", pod, _of_kind(kinded, "whole"))
    # a time-sliced GPU's series carry no GPU_I_PROFILE: a pod's unsliced whole GPUs are counted as whole already
    shown_gpus = f"({shown((profile, '=', ''))} unless on {q.labels(pod)} {whole})"
    profiles = _fractional_profiles(model)
    if profiles:
        shown_gpus += f" or {shown((profile, '=~', q.regex_alternation(profiles)))}"
    # the holders' filter once for both kinds of device (each use re-evaluates the allocation at every step)
    held = f"({shown_gpus}) and on {q.labels(pod)} {holders}"
    return q.agg("count", ("cluster", "node"), q.agg("max", ("cluster", "node", *v.gpu_labels), held))


def _init_kept(kinded: str, model: Model) -> str:
    """1 per node where a pod holding NVIDIA fractions there by the allocation has a regular init container that
    requested more of an NVIDIA resource than its listed containers (app containers and sidecars) together. kubelet's
    device manager hands the init container its devices, reuses some for the app containers and keeps the rest for
    the pod while it runs (kubernetes/kubernetes pkg/kubelet/cm/devicemanager/manager.go ``devicesToReuse``,
    ``podDevices.devices``); the pod-resources API lists only the app containers and sidecars
    (pkg/kubelet/apis/podresources/server_v1.go ``List``), the only ones dcgm-exporter names a pod for
    (NVIDIA/dcgm-exporter internal/pkg/transformation/kubernetes.go ``iterateGPUDevices``): the rest shows as free,
    on any GPU with room for it."""
    app, init = request_parts(model)
    per = q.labels((*POD, "node", "resource"))
    kept = f"({init} > on {per} {app}) or ({init} unless on {per} {app})"
    domain = re.escape(ksm_resource(_attributing().domain))
    attributed = q.label_replace(kept, "gpudash_kept", "1", "resource", f"{domain}_.+")
    attributed = f"({attributed} and on (gpudash_kept) {q.const_series(1, gpudash_kept='1')})"
    holders = q.agg("max", ("cluster", "node", "namespace", "pod"), _of_kind(kinded, names.FROM_ATTRIBUTION))
    held = f"{attributed} and on (cluster, node, namespace, pod) {holders}"
    return q.agg("max", ("cluster", "node"), held) + " * 0 + 1"


def pod_kinds(pods: str, model: Model) -> str:
    """``pods`` (units per pod, node, product and resource) as physical-GPU equivalents per pod, node and
    ``gpudash_kind`` (:func:`_kinded` summed): all that :func:`node_active` reads of the allocation. The spoke tier
    records it once per step (:data:`~gpudash.model.series.TIER_POD_KINDS`): the SKU weights are one regex per
    weight, compiled at each evaluation of each copy (prometheus/prometheus promql/functions.go label_replace), and
    :func:`node_active` reads its input four times."""
    return q.agg("sum", names.labels(names.TIER_POD_KINDS), _kinded(pods, model))


def node_active(kinded: str, model: Model) -> str:
    """Active GPUs per node at one step (docs/billing-contract.md section 5): the most GPUs allocated to Running pods.

    Whole GPUs come from the allocation (kube-state-metrics' effective requests: exact, whatever the exporters
    do; kubelet's device manager keeps a larger init container's devices for the pod, kubernetes/kubernetes
    pkg/kubelet/cm/devicemanager/manager.go, where dcgm-exporter sees only the containers the pod-resources API
    lists, pkg/kubelet/apis/podresources/server_v1.go). A fractional device's physical GPU only dcgm-exporter knows
    (NVIDIA/dcgm-exporter internal/pkg/transformation/kubernetes.go: a MIG device by its GPU instance, a time-sliced
    one by its device ID without the ``::<replica>`` suffix): whole + :func:`_attributed_gpus`, at least the
    compute-share bound (whole + the fractions' weights, rounded up), which alone counts where no exporter maps
    them. ``active_from`` says which (:data:`~gpudash.model.series.FROM_ALLOCATION` and the others). ``kinded`` is
    :func:`pod_kinds` of the step's allocation."""
    node = ("cluster", "node")
    # per node and kind, its GPUs rounded up: whole GPUs, or the fractions' compute-share bound (a node has one
    # vendor, so its fractions are all of one kind); each use of this evaluates the allocation again at every step
    # (Prometheus 2 grows worse than linearly with each copy): the value, the source, and the init-kept flag, which
    # also reads the value once more (cheap with the spoke tier, where ``kinded`` is a recorded series)
    per_kind = f"ceil({q.agg('sum', (*node, 'gpudash_kind'), kinded)} - 1e-06)"
    attributed = q.label_replace(q.label_replace(_attributed_gpus(kinded, model), "gpudash_kind",
                                                 names.FROM_ATTRIBUTION, "", ""), "gpudash_part", "shown", "", "")
    # whole + the larger of the fractions' bound and the GPUs dcgm-exporter shows them on
    value = q.agg("sum", node, q.agg("max", (*node, "gpudash_kind"), f"{per_kind} or {attributed}"))
    # the node's source: its least certain kind (attribution > bound > whole)
    ranked = q.times_keyed(f"({per_kind} * 0 + 1)", "gpudash_rank",
                           "gpudash_kind", [("2", names.FROM_BOUND), ("3", names.FROM_ATTRIBUTION)], "1")
    source = q.label_replace(f"topk by (cluster, node) (1, {ranked})", names.ACTIVE_FROM_LABEL, "$1", "gpudash_kind",
                             "(.+)")
    source = q.label_replace(source, names.ACTIVE_FROM_LABEL, names.FROM_ALLOCATION, "gpudash_kind", "whole")
    # dcgm-exporter seen on the node now: its GPUs, held or not (an exporter down goes stale); every node holding GPU
    # requests gets gpudash_seen 1 or 0, and gpudash_kept 1 where a larger init container's unnamed fractions may sit
    # on a GPU the figure does not count (from plain selectors, so the source is read once)
    v = _attributing()
    seen = q.agg("count", node, gx.on_node(q.agg("max", ("cluster", *v.host_labels, *v.gpu_labels), q.selector(
        v.metric(model.sources, v.attribution), gx.job(gx.exporter(model.sources, v)))), v))
    kept = f"({seen} > on (cluster, node) {value}) and on (cluster, node) {_init_kept(kinded, model)}"
    nodes = q.agg("max", node, f"({ksm.any_gpu_requests(model.sources)}) * 0")
    for flag, flagged in (("gpudash_seen", seen), ("gpudash_kept", kept)):
        presence = (f"{q.label_replace(f'({flagged}) * 0 + 1', flag, '1', '', '')} or on (cluster, node) "
                    f"{q.label_replace(nodes, flag, '0', '', '')}")
        source = f"({source}) * on (cluster, node) group_left ({flag}) ({presence})"
    keyed = q.call("label_join", source, q.quote("gpudash_src"), q.quote("/"), q.quote(names.ACTIVE_FROM_LABEL),
                   q.quote("gpudash_seen"), q.quote("gpudash_kept"))
    source = q.label_replace(keyed, names.ACTIVE_FROM_LABEL, names.FROM_EXPORTER_DOWN, "gpudash_src",
                             f"{names.FROM_ATTRIBUTION}/0/.")
    source = q.label_replace(source, names.ACTIVE_FROM_LABEL, names.FROM_INIT_UNSEEN, "gpudash_src",
                             f"{names.FROM_ATTRIBUTION}/1/1")
    labels = q.labels((*node, names.ACTIVE_FROM_LABEL))
    return (f"max by {labels} (({value}) * on (cluster, node) group_left ({names.ACTIVE_FROM_LABEL}) "
            f"(({source}) * 0 + 1))")
