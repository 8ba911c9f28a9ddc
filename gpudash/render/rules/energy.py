"""The spoke's energy split: each physical GPU's energy per spoke step, split among the pods holding it (the
hourly energy rule in :mod:`gpudash.render.rules.spoke` sums it over the hour).

At every step ``s`` (``billing.resolution``) of the previous clock hour, a GPU's energy over ``(s - r, s]`` is the
rise of its energy counter between the two steps, or, where there is no rise (no counter, a sample missing, or a
counter that went down because a driver reload reset it), its power at ``s`` times ``r``.
It goes to the pods the GPU exporter attributes the GPU's devices to at ``s``: a whole GPU to its pod, a MIG
instance by its compute share (``GPU_I_PROFILE``); what no pod holds goes to the row without ``namespace``, the
provider's ``unallocated`` line, so the rows add up to the GPUs' energy. A step where the exporter was not seen at
``s`` or at ``s - r`` measures nothing (never estimated, never counted twice). See docs/billing-contract.md.
"""
from __future__ import annotations

from collections.abc import Callable

from gpudash.model import mig, vendors
from gpudash.model import series as names
from gpudash.model.exporters import gpu_exporters as gx
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.pricing import mig_profile_names
from gpudash.model.types import Model
from gpudash.model.vendors import Vendor
from gpudash.promql import build as q
from gpudash.render.rules.pods import gpu_holders

JOULES_PER_KWH = 3.6e6


def gpu_key() -> tuple[str, ...]:
    """A physical GPU, by the exporters' own labels (no relabelling per step): ``cluster`` and every registered
    vendor's host and GPU labels (DCGM's host label is Hostname or hostname, AMD's hostname; a DCGM GPU is
    (gpu, UUID), an AMD one gpu_id)."""
    return tuple(dict.fromkeys(("cluster", *(label for v in vendors.VENDORS.values()
                                             for label in (*v.host_labels, *v.gpu_labels)))))


def _per_gpu(model: Model, pick: Callable[[Vendor], tuple[str, float]], offset: str = "") -> str:
    """One value per physical GPU of each vendor's metric ``pick`` names, scaled (``pick``: vendor -> (metric,
    factor)); ``max`` folds the copies a GPU may have (a new series when the pod holding it changes, a MIG
    instance's copy of a device field)."""
    src = model.sources
    scaled = []
    for v in vendors.VENDORS.values():
        metric, factor = pick(v)
        e = q.agg("max", gpu_key(), q.selector(v.metric(src, metric), gx.job(gx.exporter(src, v))) + offset)
        scaled.append(f"{e} * {factor!r}" if factor != 1 else e)
    return " or ".join(scaled)


def _step_energy(model: Model) -> str:
    """Joules each GPU drew over the step ending now: its energy counter's rise since the step before; where there
    is none (no counter, a sample missing, or the counter went down: a driver reload), its power now x the step."""
    r = model.billing.resolution

    def energy(v: Vendor) -> tuple[str, float]:
        return v.energy, v.energy_joules

    def power(v: Vendor) -> tuple[str, float]:
        return v.power, 1.0

    now = _per_gpu(model, energy)
    before = _per_gpu(model, energy, f" offset {q.duration(r)}")
    return f"(({now}) - ({before}) >= 0) or ({_per_gpu(model, power)}) * {r}"


def _mig_shares(model: Model) -> dict[float, list[str]]:
    """{compute share of its GPU: MIG profile names} over the model's MIG classes."""
    out: dict[float, list[str]] = {}
    for c in model.gpu_classes:
        if c.mig_model is None:  # no MIG profiles
            continue
        for p in c.mig:
            share = p.compute_slices / mig.GPU_SLICES[c.mig_model][0]
            if p.name not in out.setdefault(share, []):
                out[share].append(p.name)
    return out


def _replica_share(model: Model, vendor: Vendor) -> str:
    """Per time-sliced node, the share of a device one replica is: 1/replicas from GPU Feature Discovery's
    ``<resource>.replicas`` node labels (NVIDIA/k8s-device-plugin internal/lm/resource.go; the smallest share
    where they differ); 0 for a count above every class's ``time_slicing.replicas`` (no share is assumed).

    Each count is keyed to its share by a label (``gpudash_share``, "0" unless a known count replaces it) and a
    small table, so the node labels are read once: the energy rule holds this expression twice.
    """
    src = model.sources
    keys = [ksm.node_label(ksm.replicas_key(r))
            for r in (vendor.resource, *(f"{vendor.mig_resource_prefix}{p}" for p in mig_profile_names(model)))]
    many = "[0-9]*[2-9]|[0-9]*[1-9][0-9]+"  # a count of at least 2
    labelled = ((k, q.selector(ksm.NODE_LABELS, ksm.job(src), (k, "=~", many))) for k in keys)
    # each node's labels series as it is (the max below folds copies, a kube-state-metrics HA pair's): a shorter rule
    counts = " or ".join(q.label_replace(nodes, "gpudash_replicas", "$1", k, "(.+)") for k, nodes in labelled)
    top = max((c.time_slicing_replicas for c in model.gpu_classes), default=1)
    shares = q.times_keyed(q.agg("max", ("cluster", "node", "gpudash_replicas"), counts), "gpudash_share",
                           "gpudash_replicas", [(repr(1 / n), str(n)) for n in range(2, top + 1)], "0")
    return q.agg("min", ("cluster", "node"), shares)


def _exporter_nodes(model: Model, vendor: Vendor) -> str:
    """1 per (cluster, node) the vendor's exporter lists a device on now: every node a holder row of
    :func:`_holders` can name (its ``node`` copied from the same series' host label)."""
    src = model.sources
    devices = q.selector(vendor.metric(src, vendor.attribution), gx.job(gx.exporter(src, vendor)))
    hosts = gx.on_node(q.agg("max", ("cluster", *vendor.host_labels), devices), vendor)
    return f"({q.agg('max', ('cluster', 'node'), hosts)} * 0 + 1)"


def _holders(model: Model) -> str:
    """Per (GPU, namespace, pod): the share of the GPU the pod holds now, as the exporters attribute devices to
    pods (dcgm-exporter through the kubelet's pod-resources API, NVIDIA/dcgm-exporter
    internal/pkg/transformation/kubernetes.go): 1 for a whole GPU, the compute share for a MIG instance, times
    1/replicas on a time-sliced node (by default dcgm-exporter shows one pod per shared device: the other replicas'
    share stays unallocated unless it runs with --kubernetes-virtual-gpus). AMD GPUs
    on a partitioned node have no holder: the exporter reports the physical GPU's power and energy on partition 0
    only (ROCm/device-metrics-exporter docs/configuration/metricslist.md), so no partition's share is measured.
    Only pods holding GPUs by allocation (:func:`~gpudash.render.rules.pods.gpu_holders`) hold a share: a GPU series
    carrying the exporter's own pod (honorLabels) is unallocated energy, not a non-tenant namespace's.

    Each vendor's rows and the holders' filter appear once (the rule holds this expression twice): a rule's text is
    printed and parsed again at every evaluation (prometheus/prometheus rules/recording.go ``RecordingRule.Eval``
    queries ``rule.vector.String()``, rules/manager.go ``EngineQueryFunc`` calls ``NewInstantQuery`` on it), so its
    cost grows with its length."""
    src = model.sources
    holders = f"on {q.labels(names.POD)} {gpu_holders(model)}"  # never the exporter's own pod (honorLabels)
    gpu = gpu_key()
    parts = []
    for v in vendors.VENDORS.values():
        exporter = gx.exporter(src, v)
        attributed = gx.to_pod_labels(gx.attributed(v.metric(src, v.attribution), exporter), exporter)
        if v.mig_labels:  # a MIG instance holds its compute share of the GPU
            profile, instance = v.mig_labels
            held = gx.on_node(attributed, v)
            shares = [(repr(share), q.regex_alternation(profiles))
                      for share, profiles in sorted(_mig_shares(model).items())]
            weighted = q.times_keyed(f"({held} * 0 + 1)", "gpudash_weight", profile, shares, "1")
            part = q.agg("max", (*gpu, "node", instance, "namespace", "pod"), weighted)
        else:
            held = gx.on_node(attributed, v)
            part = f"({q.agg('max', (*gpu, 'node', 'namespace', 'pod'), held)} * 0 + 1)"
        if v.time_slicing:  # times the node's replica share, 1 on a node without one
            part = (f"{part} * on (cluster, node) group_left () ({_replica_share(model, v)} or on (cluster, node) "
                    f"{_exporter_nodes(model, v)})")
        label = v.partition_label(src)
        if label:
            partitioned = q.selector(ksm.NODE_LABELS, ksm.job(src), (label, "=~", ".+"),
                                     (label, "!~", v.whole_partitions))
            part = f"{part} unless on (cluster, node) {partitioned}"
        parts.append(part)
    # the holders' filter once for every vendor's rows: it reads only (cluster, namespace, pod), which each row keeps
    return q.agg("sum", (*gpu, "namespace", "pod"), f"({' or '.join(parts)}) and {holders}")


def _gpus(model: Model) -> str:
    """1 per physical GPU the exporters list (every device has a framebuffer or activity series, held or not)."""
    return f"({_per_gpu(model, lambda v: (v.attribution, 1.0))}) * 0 + 1"


def step_joules(model: Model) -> str:
    """Joules of the step ending now per namespace, and without ``namespace`` the share no pod holds."""
    gpu = gpu_key()
    held, on = _holders(model), f"on {q.labels(gpu)}"
    # the share no pod holds, as one more holder row without namespace and pod
    free = f"clamp_min(1 - ({q.agg('sum', gpu, held)} or ({_gpus(model)}) * 0), 0)"
    split = f"({_step_energy(model)}) * {on} group_right () ({held} or {free})"
    return q.agg("sum", names.labels(names.HOURLY_ENERGY), split)
