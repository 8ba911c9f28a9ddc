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

from gpudash.model import mig
from gpudash.model import series as names
from gpudash.model.pricing import mig_profile_names
from gpudash.model.sources import gpu_exporters as gx
from gpudash.model.sources import kube_state_metrics as ksm
from gpudash.model.types import Model
from gpudash.promql import build as q
from gpudash.render.rules.pods import gpu_holders

# A physical GPU, by the exporters' own labels (no relabelling per step: DCGM's host label is Hostname or hostname,
# AMD's hostname; a DCGM GPU is (gpu, UUID), an AMD one gpu_id).
GPU = tuple(dict.fromkeys(("cluster", *gx.DCGM_HOST_LABELS, *gx.DCGM_GPU_LABELS, gx.AMD_HOST_LABEL, gx.AMD_GPU_LABEL)))
JOULES_PER_KWH = 3.6e6


def _per_gpu(model: Model, dcgm: str, amd: str, dcgm_scale: float = 1.0, amd_scale: float = 1.0,
             offset: str = "") -> str:
    """One value per physical GPU of the DCGM metric ``dcgm`` and the AMD metric ``amd``, scaled; ``max`` folds the
    copies a GPU may have (a new series when the pod holding it changes, a MIG instance's copy of a device field)."""
    src = model.sources
    nvidia = q.agg("max", GPU, q.selector(dcgm, gx.job(src.dcgm)) + offset)
    amd = q.agg("max", GPU, q.selector(gx.amd_metric(src, amd), gx.job(src.amd)) + offset)
    scaled = [f"{e} * {s!r}" if s != 1 else e for e, s in ((nvidia, dcgm_scale), (amd, amd_scale))]
    return " or ".join(scaled)


def _step_energy(model: Model) -> str:
    """Joules each GPU drew over the step ending now: its energy counter's rise since the step before; where there
    is none (no counter, a sample missing, or the counter went down: a driver reload), its power now x the step."""
    r = model.billing.resolution
    now = _per_gpu(model, gx.DCGM_ENERGY, gx.AMD_ENERGY, gx.DCGM_ENERGY_JOULES, gx.AMD_ENERGY_JOULES)
    before = _per_gpu(model, gx.DCGM_ENERGY, gx.AMD_ENERGY, gx.DCGM_ENERGY_JOULES, gx.AMD_ENERGY_JOULES,
                      f" offset {q.duration(r)}")
    return f"(({now}) - ({before}) >= 0) or ({_per_gpu(model, gx.DCGM_POWER_USAGE, gx.AMD_POWER)}) * {r}"


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


def _replica_share(model: Model) -> str:
    """Per time-sliced node, the share of a device one replica is: 1/replicas from GPU Feature Discovery's
    ``<resource>.replicas`` node labels (NVIDIA/k8s-device-plugin internal/lm/resource.go; the smallest share
    where they differ); 0 for a count above every class's ``time_slicing.replicas`` (no share is assumed).

    Each count is keyed to its share by a label (``gpudash_share``, "0" unless a known count replaces it) and a
    small table, so the node labels are read once: the energy rule holds this expression four times.
    """
    src = model.sources
    keys = [ksm.node_label(ksm.replicas_key(r))
            for r in ("nvidia.com/gpu", *(f"nvidia.com/mig-{p}" for p in mig_profile_names(model)))]
    many = "[0-9]*[2-9]|[0-9]*[1-9][0-9]+"  # a count of at least 2
    labelled = ((k, q.selector(ksm.NODE_LABELS, ksm.job(src), (k, "=~", many))) for k in keys)
    counts = " or ".join(q.label_replace(q.agg("max", ("cluster", "node", k), nodes), "gpudash_replicas", "$1", k,
                                         "(.+)") for k, nodes in labelled)
    top = max((c.time_slicing_replicas for c in model.gpu_classes), default=1)
    shares = q.times_keyed(q.agg("max", ("cluster", "node", "gpudash_replicas"), counts), "gpudash_share",
                           "gpudash_replicas", [(repr(1 / n), str(n)) for n in range(2, top + 1)], "0")
    return q.agg("min", ("cluster", "node"), shares)


def _holders(model: Model) -> str:
    """Per (GPU, namespace, pod): the share of the GPU the pod holds now, as the exporters attribute devices to
    pods (dcgm-exporter through the kubelet's pod-resources API, NVIDIA/dcgm-exporter
    internal/pkg/transformation/kubernetes.go): 1 for a whole GPU, the compute share for a MIG instance, times
    1/replicas on a time-sliced node (by default dcgm-exporter shows one pod per shared device: the other replicas'
    share stays unallocated unless it runs with --kubernetes-virtual-gpus). AMD GPUs
    on a partitioned node have no holder: the exporter reports the physical GPU's power and energy on partition 0
    only (ROCm/device-metrics-exporter docs/configuration/metricslist.md), so no partition's share is measured.
    Only pods holding GPUs by allocation (:func:`~gpudash.render.rules.pods.gpu_holders`) hold a share: a GPU series
    carrying the exporter's own pod (honorLabels) is unallocated energy, not a non-tenant namespace's."""
    src = model.sources
    holders = f"on {q.labels(names.POD)} {gpu_holders(model)}"  # never the exporter's own pod (honorLabels)
    dcgm = f"({gx.on_node(gx.to_pod_labels(gx.attributed(gx.DCGM_FB_USED, src.dcgm), src.dcgm))} and {holders})"
    shares = [(repr(share), q.regex_alternation(profiles)) for share, profiles in sorted(_mig_shares(model).items())]
    weighted = q.times_keyed(f"({dcgm} * 0 + 1)", "gpudash_weight", gx.DCGM_MIG_PROFILE_LABEL, shares, "1")
    device = (*GPU, "node", gx.DCGM_MIG_INSTANCE_LABEL, "namespace", "pod")
    nvidia = q.agg("max", device, weighted)
    nvidia = f"({nvidia} * on (cluster, node) group_left () {_replica_share(model)}) or {nvidia}"
    label = src.amd_partition_label
    partitioned = q.selector(ksm.NODE_LABELS, ksm.job(src), (label, "=~", ".+"), (label, "!~", "spx_.*"))
    amd = gx.to_pod_labels(gx.attributed(gx.amd_metric(src, gx.AMD_GFX_ACTIVITY), src.amd), src.amd)
    amd = q.label_replace(f"{amd} and {holders}", "node", "$1", gx.AMD_HOST_LABEL, "(.+)")
    amd = f"({q.agg('max', (*GPU, 'node', 'namespace', 'pod'), amd)} * 0 + 1) unless on (cluster, node) {partitioned}"
    return q.agg("sum", (*GPU, "namespace", "pod"), f"{nvidia} or {amd}")


def _gpus(model: Model) -> str:
    """1 per physical GPU the exporters list (every device has a framebuffer or activity series, held or not)."""
    return f"({_per_gpu(model, gx.DCGM_FB_USED, gx.AMD_GFX_ACTIVITY)}) * 0 + 1"


def step_joules(model: Model) -> str:
    """Joules of the step ending now per namespace, and without ``namespace`` the share no pod holds."""
    held, on = _holders(model), f"on {q.labels(GPU)}"
    # the share no pod holds, as one more holder row without namespace and pod
    free = f"clamp_min(1 - ({q.agg('sum', GPU, held)} or ({_gpus(model)}) * 0), 0)"
    split = f"({_step_energy(model)}) * {on} group_right () ({held} or {free})"
    return q.agg("sum", names.labels(names.HOURLY_ENERGY), split)
