"""Spoke rules: GPU allocation measured on each managed cluster at full local resolution.

Each rule is self-contained (it reads only raw exporter series), because ACM's metrics-collector runs the
allowlist's ``recording_rules`` as instant queries at every push and the spoke has no other gpudash rules --
except with ``billing.spoke_tier: policy``, where the hourly rules read the per-step samples the spoke tier
(:mod:`gpudash.render.rules.spoke_tier`) records on the same Prometheus. The same rules form the plain
``gpudash-spoke`` group for a single cluster without ACM.
See docs/billing-contract.md for the definitions.
"""
from __future__ import annotations

from gpudash.model import mig
from gpudash.model import series as names
from gpudash.model.pricing import mig_profile_names, mig_replicas, skus
from gpudash.model.sources import gpu_exporters as gx
from gpudash.model.sources import kube_state_metrics as ksm
from gpudash.model.types import Exporter, Model
from gpudash.promql import build as q
from gpudash.promql import calendar, read
from gpudash.render.rules import energy, inputs
from gpudash.render.rules.format import Group, Rule
from gpudash.render.rules.pods import POD, gpu_holders, running


def _effective_request(model: Model) -> str:
    """Kubernetes' effective request per pod and GPU resource, node-bound only: max(sum over app containers and
    restartable init containers (native sidecars), max over the other init containers).

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
    app = q.agg("sum", per_container, running)
    init = q.agg("max", per_container, f"{init} unless {sidecar_of}")
    app, init = (q.label_replace(e, "gpudash_part", part, "", "") for e, part in ((app, "app"), (init, "init")))
    return q.agg("max", per_container, f"{app} or {init}")


def _node_product(model: Model) -> str:
    """The GPU product label of each node (NVIDIA from GPU Feature Discovery, else AMD), as ``product``."""
    src = model.sources
    nvidia = q.label_replace(q.selector(ksm.NODE_LABELS, ksm.job(src), (src.nvidia_product_label, "!=", "")),
                             "product", "$1", src.nvidia_product_label, "(.+)")
    amd = q.label_replace(q.selector(ksm.NODE_LABELS, ksm.job(src), (src.amd_product_label, "!=", "")),
                          "product", "$1", src.amd_product_label, "(.+)")
    return q.agg("max", ("cluster", "node", "product"), f"{nvidia} or on (cluster, node) {amd}")


def _amd_partitions(alloc: str, nodes_with_requests: str, model: Model) -> str:
    """``alloc`` with ``amd.com/gpu`` on a partitioned AMD node billed as the partition it is.

    Under the AMD device plugin's single naming strategy a CPX/NPS4 MI300X node offers ``amd.com/gpu: 64``
    (ROCm/k8s-device-plugin docs/user-guide/configuration.md "Resource Naming Strategy"); the node labeller
    writes the partition as ``amd.com/gpu.compute-memory-partition`` (cmd/k8s-node-labeller/main.go, only on
    nodes whose GPUs share one partition style). Such a request becomes ``amd_com_<partition>``, the resource
    the mixed strategy would have named, so both strategies bill alike. SPX is a whole GPU and stays as is.
    """
    src = model.sources
    label = src.amd_partition_label
    nodes = q.selector(ksm.NODE_LABELS, ksm.job(src), (label, "=~", ".+"), (label, "!~", "spx_.*"))
    part = q.agg("max", ("cluster", "node", "gpudash_partition"),
                 q.label_replace(nodes, "gpudash_partition", "$1", label, "(.+)"))
    every = f"{part} or on (cluster, node) ({nodes_with_requests} * 0 + 1)"  # one join, alloc evaluated once
    keyed = q.call("label_join", f"{alloc} * on (cluster, node) group_left (gpudash_partition) ({every})",
                   q.quote("gpudash_key"), q.quote("/"), q.quote("resource"), q.quote("gpudash_partition"))
    renamed = q.label_replace(keyed, "resource", "amd_com_$1", "gpudash_key", "amd_com_gpu/(.+)")
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
    many = "[0-9]*[2-9]|[0-9]*[1-9][0-9]+"  # a count of at least 2
    sources: list[tuple[str, str, tuple[tuple[str, str, str], ...]]]  # (node label, resource, matchers)
    sources = [(ksm.node_label(ksm.replicas_key(f"nvidia.com/mig-{p}")),
                ksm.sanitise_resource(f"nvidia.com/mig-{p}"), ()) for p in mig_profile_names(model)]
    sources.append((ksm.node_label(ksm.replicas_key("nvidia.com/gpu")), "nvidia_com_gpu",
                    ((src.nvidia_product_label, "=~", ".+-MIG-.+"),)))
    shared = " or ".join(
        q.label_replace(q.label_replace(q.agg("max", ("cluster", "node", label),
                                              q.selector(ksm.NODE_LABELS, job, (label, "=~", many), *extra)),
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
                            "[^/]*/(nvidia_com_mig_.+?)(_shared)?/[0-9]+/.*")
    unknown = q.label_replace(key(mixed), "resource", "${1}_replicas_$2", "gpudash_key", "[^/]*/([^/]+)/([0-9]+)/")
    # a shared slice on a node without a replicas label: its share is unknown, so no SKU may price it whole
    unlabelled = q.label_replace(unknown, "resource", "${1}${2}${3}_replicas_unknown", "gpudash_key",
                                 "(?:[^/]*/(nvidia_com_mig_.+_shared)|.+-MIG-[^/]+/(nvidia_com_gpu_shared)"
                                 "|.+-MIG-[^/]+-SHARED/(nvidia_com_gpu))//")
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
    return _amd_partitions(_shared_slices(with_product, model), request_nodes, model)


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


def hour_steps(expr: str, model: Model) -> str:
    """``expr`` at every spoke step of the clock hour ending at the evaluation time: steps ``[t - 1h, t)`` —
    the 1 ms offset keeps the step at ``t`` out under Prometheus 2 and 3 alike."""
    return f"({expr})[1h:{q.duration(model.billing.resolution)}] offset 1ms"


# The row every hourly rule adds to its result, whatever else it finds: value 0, one label. The collector
# pushes the rules that succeeded even when others fail (stolostron/multicluster-observability-operator,
# collectors/metrics/pkg/forwarder/forwarder.go getRecordingMetrics/forward), so an hour whose rule failed in
# every push must be told apart from an hour without GPUs: the hub reads a missing sentinel as a lost hour.
SENTINEL = q.const_series(0, **{names.SENTINEL_LABEL: "1"})


def _at_last_hour_boundary(per_hour: str, hours_before: int = 0) -> str:
    """``per_hour`` (an aggregate over the steps of one hour) at the last clock hour boundary (``hours_before``
    hours earlier). The outer hourly subquery evaluates it exactly once, at that boundary, so every evaluation
    during hour H+1 gives the same figures for hour H; the hub keeps each series only from samples evaluated
    during H+1 (their own timestamps), so a series that stops simply has no sample there."""
    return calendar.at_hour_boundary(per_hour, hours_before)


def _lagged(model: Model, figures) -> str:
    """The rows ``figures(hours_before)`` of the previous clock hour, and with ``billing.backfill_hours`` N > 0
    also of the N hours before it, each with :data:`~gpudash.model.series.LAG_LABEL` k for the hour k hours
    before the evaluation's own (k = 1..N + 1): a push after an outage of up to N hours still carries every
    hour the lost pushes did. Without backfill the rows carry no lag label."""
    n = model.billing.backfill_hours
    if not n:
        return figures(0)
    return " or ".join(q.label_replace(figures(k - 1), names.LAG_LABEL, str(k), "", "") for k in range(1, n + 2))


def previous_hour(model: Model, per_hour: str) -> str:
    """:func:`_at_last_hour_boundary` plus the sentinel row, for each hour :func:`_lagged` carries."""
    return _lagged(model, lambda before: f"{_at_last_hour_boundary(per_hour, before)} or {SENTINEL}")


def _gpu_equivalents(node_res: str, model: Model) -> str:
    """``node_res`` (units per node, product and resource) in physical GPUs: every series gets a weight label
    (1 by default; the compute share of a MIG slice; 1/replicas for a time-sliced replica) from its
    ``product/resource`` key, then is multiplied by a small table keyed by that label."""
    by_weight: dict[float, list[str]] = {}
    for s in skus(model):
        if s.weight != 1.0:
            by_weight.setdefault(s.weight, []).append(f"{s.product}/{s.ksm_resource}")
    sku = q.call("label_join", node_res, q.quote("gpudash_sku"), q.quote("/"), q.quote("product"), q.quote("resource"))
    return q.times_keyed(sku, "gpudash_weight", "gpudash_sku",
                         [(repr(w), q.regex_alternation(keys)) for w, keys in sorted(by_weight.items())], "1")


def _kinded(rows: str, model: Model) -> str:
    """``rows`` (units per pod, node, product and resource) in physical GPUs (:func:`_gpu_equivalents`), each with
    ``gpudash_kind``: ``whole`` (weight 1: a whole GPU, or a MIG slice with all its GPU's compute), ``attribution``
    (a fraction of an NVIDIA GPU: a MIG slice or a time-sliced replica, which dcgm-exporter maps to its physical
    GPU) or ``bound`` (another fraction: an AMD partition, whose exporter series name no physical GPU)."""
    key = q.call("label_join", _gpu_equivalents(rows, model), q.quote("gpudash_kindkey"), q.quote("/"),
                 q.quote("gpudash_weight"), q.quote("resource"))
    kind = q.label_replace(key, "gpudash_kind", "bound", "", "")
    kind = q.label_replace(kind, "gpudash_kind", "attribution", "gpudash_kindkey", "[^/]+/nvidia_com_.+")
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
    src = model.sources.dcgm
    pod = ("cluster", "node", "namespace", "pod")
    own = ("cluster", *gx.DCGM_HOST_LABELS, *gx.DCGM_GPU_LABELS, src.tenant_label, src.pod_label)

    def shown(*matchers) -> str:
        sel = q.selector(gx.DCGM_FB_USED, gx.job(src), (src.pod_label, "!=", ""), (src.tenant_label, "!=", ""),
                         *matchers)
        return gx.on_node(gx.to_pod_labels(q.agg("max", own, sel), src))

    holders = q.agg("max", pod, _of_kind(kinded, names.FROM_ATTRIBUTION))
    whole = q.agg("max", pod, _of_kind(kinded, "whole"))
    # a time-sliced GPU's series carry no GPU_I_PROFILE: a pod's unsliced whole GPUs are counted as whole already
    shown_gpus = f"({shown((gx.DCGM_MIG_PROFILE_LABEL, '=', ''))} unless on {q.labels(pod)} {whole})"
    profiles = _fractional_profiles(model)
    if profiles:
        shown_gpus += f" or {shown((gx.DCGM_MIG_PROFILE_LABEL, '=~', q.regex_alternation(profiles)))}"
    # the holders' filter once for both kinds of device (each use re-evaluates the allocation at every step)
    held = f"({shown_gpus}) and on {q.labels(pod)} {holders}"
    return q.agg("count", ("cluster", "node"), q.agg("max", ("cluster", "node", *gx.DCGM_GPU_LABELS), held))


def _node_active(pods: str, model: Model) -> str:
    """Active GPUs per node at one step (docs/billing-contract.md section 5): the most GPUs allocated to Running pods.

    Whole GPUs come from the allocation (kube-state-metrics' effective requests: exact, whatever the exporters
    do; kubelet's device manager keeps a larger init container's devices for the pod, kubernetes/kubernetes
    pkg/kubelet/cm/devicemanager/manager.go, where dcgm-exporter sees only the containers the pod-resources API
    lists, pkg/kubelet/apis/podresources/server_v1.go). A fractional device's physical GPU only dcgm-exporter knows
    (NVIDIA/dcgm-exporter internal/pkg/transformation/kubernetes.go: a MIG device by its GPU instance, a time-sliced
    one by its device ID without the ``::<replica>`` suffix): whole + :func:`_attributed_gpus`, at least the
    compute-share bound (whole + the fractions' weights, rounded up), which alone counts where no exporter maps
    them. ``active_from`` says which (:data:`~gpudash.model.series.FROM_ALLOCATION` and the others)."""
    node = ("cluster", "node")
    kinded = _kinded(pods, model)
    # per node and kind, its GPUs rounded up: whole GPUs, or the fractions' compute-share bound (a node has one
    # vendor, so its fractions are all of one kind); each use of this evaluates the allocation again at every step,
    # so the value and the source read it twice in all (Prometheus 2 grows worse than linearly with each copy)
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
    # dcgm-exporter seen on the node now: any of its GPU series, held or not (an exporter down goes stale); every
    # node holding GPU requests gets gpudash_seen 1 or 0 (from plain selectors, so the source is read once)
    seen = q.agg("count", node, gx.on_node(q.agg("max", ("cluster", *gx.DCGM_HOST_LABELS),
                                                 q.selector(gx.DCGM_FB_USED, gx.job(model.sources.dcgm)))))
    requests = ksm.any_gpu_requests(model.sources)
    presence = (f"{q.label_replace(f'{seen} * 0 + 1', 'gpudash_seen', '1', '', '')} or on (cluster, node) "
                f"{q.label_replace(q.agg('max', node, f'({requests}) * 0'), 'gpudash_seen', '0', '', '')}")
    keyed = q.call("label_join", f"{source} * on (cluster, node) group_left (gpudash_seen) ({presence})",
                   q.quote("gpudash_src"), q.quote("/"), q.quote(names.ACTIVE_FROM_LABEL), q.quote("gpudash_seen"))
    source = q.label_replace(keyed, names.ACTIVE_FROM_LABEL, names.FROM_EXPORTER_DOWN, "gpudash_src",
                             f"{names.FROM_ATTRIBUTION}/0")
    labels = q.labels((*node, names.ACTIVE_FROM_LABEL))
    return (f"max by {labels} (({value}) * on (cluster, node) group_left ({names.ACTIVE_FROM_LABEL}) "
            f"(({source}) * 0 + 1))")


def per_step(model: Model) -> dict[str, str]:
    """The figures the hourly rules aggregate over a clock hour, evaluated at one spoke step from raw series (the
    path without the spoke tier re-derives them at every step of the hour): allocation per product line, active GPUs
    per node, 1 per cluster while kube-state-metrics is up, and the step's GPU energy per namespace."""
    alloc = allocation(model)
    pods = q.agg("sum", names.labels(names.TIER_POD_STEP), alloc)
    steps = {names.TIER_ALLOCATED: q.agg("sum", names.labels(names.TIER_ALLOCATED), alloc),
             names.TIER_NODE_ACTIVE: _node_active(pods, model), names.TIER_KSM_UP: _ksm_up_raw(model)}
    if model.energy.metered:
        steps[names.TIER_ENERGY] = energy.step_joules(model)
    return steps


def _ksm_up_raw(model: Model) -> str:
    return q.agg("max", names.labels(names.TIER_KSM_UP), f"{q.selector('up', ksm.job(model.sources))} == 1")


def pod_step(model: Model) -> str:
    """The spoke tier's first rule: GPUs allocated per Running, node-bound pod, node, product and resource at this
    step (:func:`allocation`, the one allocation join of the step), plus the sentinel row that proves the rule ran."""
    return f"{q.agg('sum', names.labels(names.TIER_POD_STEP), allocation(model))} or {SENTINEL}"


def recorded_now(series: str) -> str:
    """The rows of the tier's sentinel ``series`` written at this very evaluation, sentinel row excluded.

    Rules of one group run in order at one timestamp, and each rule's samples are committed before the next one
    runs (prometheus/prometheus rules/group.go ``Group.Eval``), so a later rule reads an earlier one's rows of the
    step. Each row is kept only if its own sample carries this evaluation's timestamp: a rule that fails writes
    nothing and no staleness marker (the same ``Eval``), and after a restart the rule manager no longer knows which
    rows to mark stale, so older rows may stay within the lookback. A failed step is then missing from every figure
    (not counted, alerted), never filled with the step before, and a pod that ended is never read again.
    """
    rows = q.selector(series, (names.SENTINEL_LABEL, "=", ""))
    return f"({rows} and {_written_now(rows)})"


def _written_now(selector: str) -> str:
    """The samples of ``selector`` whose own timestamp is this evaluation's (a rule of the same group wrote them
    now), by their timestamp."""
    return f"(timestamp({selector}) == time())"


def tier_steps(model: Model) -> dict[str, str]:
    """The spoke tier's rules in evaluation order: the per-pod allocation of the step (:func:`pod_step`), then the
    figures of :func:`per_step` and the per-pod live allocation, each read from it (:func:`recorded_now`) instead of
    re-evaluating the allocation join; the steps-observed heartbeat only when it was recorded at this step."""
    pods = recorded_now(names.TIER_POD_STEP)
    fresh = f"on () {_written_now(q.selector(names.TIER_POD_STEP, (names.SENTINEL_LABEL, '=', '1')))}"
    steps = {names.TIER_POD_STEP: pod_step(model),
             names.TIER_ALLOCATED: q.agg("sum", names.labels(names.TIER_ALLOCATED), pods),
             names.TIER_NODE_ACTIVE: _node_active(pods, model),
             names.TIER_KSM_UP: f"{_ksm_up_raw(model)} and {fresh}"}
    if model.energy.metered:
        steps[names.TIER_ENERGY] = energy.step_joules(model)
    steps[names.TIER_POD_ALLOCATED] = _with_workload(pods, model)
    return steps


def _with_workload(rows: str, model: Model) -> str:
    """``rows`` (per pod, node, product and resource) summed per :data:`~gpudash.model.series.POD_ALLOCATED` line,
    with the pod's workload (:func:`_workloads`)."""
    return q.agg("sum", names.labels(names.POD_ALLOCATED),
                 f"{rows} * on (cluster, namespace, pod) group_left (workload, workload_type) ({_workloads(model)})")


def pod_allocated(model: Model) -> str:
    """GPUs allocated now per Running, node-bound pod (:func:`allocation`), with the pod's workload."""
    return _with_workload(allocation(model), model)


def live_pod_allocated(model: Model) -> str:
    """What the pushed :data:`~gpudash.model.series.POD_ALLOCATED` evaluates at each push: :func:`pod_allocated`, or
    with the spoke tier its newest recorded step (a plain selector: a pod that stops gets the rule manager's
    staleness marker at the next step and disappears; see docs/billing.md for a push during a tier gap)."""
    if model.billing.tier:
        return q.agg("sum", names.labels(names.POD_ALLOCATED), names.TIER_POD_ALLOCATED)
    return pod_allocated(model)


def over_hour(model: Model, series: str, expr: str) -> str:
    """The steps of the clock hour ending at the evaluation time: the spoke tier's recorded ``series`` (read
    with the range that holds, at an hour boundary ``T``, the samples of ``[T - 1h, T)``: 3600 / resolution of
    them, fewer where an evaluation was missed), else ``expr`` re-derived at every step."""
    return f"{series}{read.HOUR_RANGE}" if model.billing.tier else hour_steps(expr, model)


def rules(model: Model) -> tuple[Rule, ...]:
    r = model.billing.resolution
    step = {series: over_hour(model, series, expr) for series, expr in per_step(model).items()}
    hour_gpu_hours = f"sum_over_time({step[names.TIER_ALLOCATED]}) * {r} / {read.HOUR}"
    steps_observed = f"count_over_time({step[names.TIER_KSM_UP]})"
    node_max = f"max_over_time({step[names.TIER_NODE_ACTIVE]})"
    return (
        Rule(names.POD_ALLOCATED, live_pod_allocated(model),
             "GPUs allocated now to each Running, node-bound pod, with its workload: the live burn rate per pod"
             "\nand workload on the hub. Not an integral: billing uses the hourly series below."),
        Rule(names.HOURLY_GPU_HOURS, previous_hour(model, hour_gpu_hours),
             "GPU-hours allocated in the previous complete UTC clock hour, integrated at every spoke step"
             "\n(billing.resolution). Every push during an hour carries the same total for the hour before,"
             "\nso the hub reads each hour exactly once and a lost push loses nothing. The sentinel row says"
             "\nthe rule ran."),
        Rule(names.BILLED_HOUR, f"floor(vector(time()) / {read.HOUR}) * {read.HOUR} - {read.HOUR}",
             "Start of the clock hour the hourly series of a push made now describe: the cluster's heartbeat"
             "\n(pushed whether or not it runs GPUs; the hub's not-reporting alert and push-age panels)."),
        Rule(names.STEPS_OBSERVED,
             _lagged(model, lambda before: f"{_at_last_hour_boundary(steps_observed, before)} or vector(0)"),
             "Spoke steps of the previous clock hour at which kube-state-metrics was up: the share of the"
             "\nhour the hourly figures cover. Less than every step (a restarted Prometheus with an empty"
             "\nTSDB, kube-state-metrics down) is an under-billed hour, which the hub alerts on."),
        Rule(names.NODE_ACTIVE_GPUS_MAX, previous_hour(model, node_max),
             "CCSP: most GPUs allocated to Running pods on each node at any step of the previous clock hour:"
             "\nwhole GPUs from the allocation (active_from=allocation); MIG slices and time-sliced replicas on"
             "\nthe physical GPUs dcgm-exporter attributes to their pods, at least the compute-share bound"
             "\n(attribution); other fractions by the bound (bound); the bound while dcgm-exporter was not seen"
             "\n(exporter_down: flagged, possibly low)."),
        *_activity_rules(model),
        *_energy_rules(model),
        *inputs.rules(model),
    )


def _energy_rules(model: Model) -> tuple[Rule, ...]:
    """The hourly energy rule (:mod:`gpudash.render.rules.energy` gives its per-step figure), only for a model with an
    ``energy`` section."""
    if not model.energy.metered:
        return ()
    hourly = (f"sum_over_time({over_hour(model, names.TIER_ENERGY, energy.step_joules(model))}) / "
              f"{energy.JOULES_PER_KWH!r}")
    return (
        Rule(names.HOURLY_ENERGY, previous_hour(model, hourly),
             "GPU energy (kWh) of the previous clock hour per namespace: each GPU's counter rise (power x step"
             "\nwithout a counter) at every spoke step, split among the pods holding it (MIG by compute share);"
             "\nthe row without namespace is the unallocated line. Pushed like GPU-hours, with a sentinel row."),
    )


def _exporter_per_pod(model: Model, metric: str, exporter: Exporter, fn: str, op: str, scale: str = "",
                      model_label: str | None = None) -> str:
    """``op`` per pod of ``fn(metric[push window])`` over the exporter's pod-attributed series, with the
    exporter's pod labels renamed to ``namespace``/``pod`` (and its model label to ``gpu_model``).

    The series are aggregated by the exporter's own labels first and renamed after: ``label_replace`` then runs on
    one row per pod, not on every exporter series (18,000 DCGM series at 10,000 GPUs). The selector requires both
    pod labels, so the renames map those rows one to one and the outer ``op`` sees one row per group: the same
    figures as renaming every series first, ``avg`` included.
    """
    own = ("cluster", exporter.tenant_label, exporter.pod_label, *((model_label,) if model_label else ()))
    window = f"{fn}({gx.attributed(metric, exporter)}[{q.window(model.billing.mco_interval)}]){scale}"
    rows = f"{gx.to_pod_labels(q.agg(op, own, window), exporter)} and on {q.labels(names.POD)} {gpu_holders(model)}"
    if model_label is None:
        return q.agg(op, names.labels(names.POD_POWER_MAX), rows)
    rows = q.label_replace(rows, "gpu_model", "$1", model_label, "(.*)")
    return q.agg(op, names.labels(names.POD_ACTIVITY_MAX), rows)


def _amd_activity(model: Model, fn: str, op: str) -> str:
    """AMD graphics activity per pod, named by the node's ``amd.com/gpu.product-name`` label: the exporter's
    ``card_model`` is a board part number (ROCm/device-metrics-exporter), not a GPU model a person recognises.
    Pods on a node without the label keep ``card_model``. Aggregated per pod, node and ``card_model`` before the
    pod and model labels are renamed (as in :func:`_exporter_per_pod`); ``node`` is set on each series first, since
    a series without ``hostname`` keeps its own ``node``."""
    src = model.sources
    series = q.label_replace(f"{fn}({gx.attributed(gx.amd_metric(src, gx.AMD_GFX_ACTIVITY), src.amd)}"
                             f"[{q.window(model.billing.mco_interval)}]) / 100", "node", "$1", gx.AMD_HOST_LABEL,
                             "(.+)")
    own = ("cluster", src.amd.tenant_label, src.amd.pod_label, "node", gx.AMD_MODEL_LABEL)
    held = f"{gx.to_pod_labels(q.agg(op, own, series), src.amd)} and on {q.labels(names.POD)} {gpu_holders(model)}"
    per_node = q.label_replace(held, "gpu_model", "$1", gx.AMD_MODEL_LABEL, "(.*)")
    products = q.agg("max", ("cluster", "node", "gpudash_product"),
                     q.label_replace(q.selector(ksm.NODE_LABELS, ksm.job(src), (src.amd_product_label, "!=", "")),
                                     "gpudash_product", "$1", src.amd_product_label, "(.+)"))
    named = q.label_replace(f"{per_node} * on (cluster, node) group_left (gpudash_product) {products}",
                            "gpu_model", "$1", "gpudash_product", "(.+)")
    return q.agg(op, names.labels(names.POD_ACTIVITY_MAX), f"{named} or on (cluster, namespace, pod) {per_node}")


def _activity(model: Model, fn: str, op: str) -> str:
    """Per pod GPU activity ratio (0-1) over the push window: DCGM graphics-engine activity (works for MIG),
    falling back to DCGM GPU utilisation, and AMD graphics activity."""
    src = model.sources
    parts = (
        _exporter_per_pod(model, gx.DCGM_GR_ENGINE_ACTIVE, src.dcgm, fn, op, "", gx.DCGM_MODEL_LABEL),
        _exporter_per_pod(model, gx.DCGM_GPU_UTIL, src.dcgm, fn, op, " / 100", gx.DCGM_MODEL_LABEL),
        _amd_activity(model, fn, op),
    )
    return " or on (cluster, namespace, pod) ".join(parts)


def _power(model: Model) -> str:
    """Peak GPU power (W) per pod over the push window, DCGM and AMD."""
    src = model.sources
    return (f"{_exporter_per_pod(model, gx.DCGM_POWER_USAGE, src.dcgm, 'max_over_time', 'max')}"
            f" or on (cluster, namespace, pod) "
            f"{_exporter_per_pod(model, gx.amd_metric(src, gx.AMD_POWER), src.amd, 'max_over_time', 'max')}")


def _activity_rules(model: Model) -> tuple[Rule, ...]:
    rules: tuple[Rule, ...] = (
        Rule(names.POD_ACTIVITY_MAX, _activity(model, "max_over_time", "max"),
             "Peak GPU activity (0-1) of each pod over the push window: zero for long enough = an idle GPU"
             "\nthat is still billed (idle alerts and the idle report)."),
        Rule(names.POD_ACTIVITY_AVG, _activity(model, "avg_over_time", "avg"),
             "Mean GPU activity (0-1) of each pod over the push window: allocated-vs-used efficiency panels."),
    )
    if model.alerts.idle.power_veto_watts > 0:
        rules += (Rule(names.POD_POWER_MAX, _power(model),
                       "Peak GPU power (W) of each pod over the push window: the idle alert's power veto (a GPU"
                       "\ndrawing power is working even when its activity counters read zero)."),)
    return rules


def group(model: Model) -> Group:
    return Group("gpudash-spoke", model.billing.resolution,
                 "Spoke: GPU allocation per pod, per hour and per node, measured on each cluster.", rules(model))
