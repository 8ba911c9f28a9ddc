"""The series registry: every series gpudash records, with its labels and meaning, declared once.

This is the contract between rules, alerts, dashboards and reports. Generators take their ``by`` clauses from
:func:`labels` / :func:`key`, and tests/unit/test_series_registry.py checks every rendered recording rule's output
labels against it.

Names follow ``level:metric:operations``; the level lists the labels kept. ``cluster`` is in every series' labels:
spoke rules keep it when the spoke's Prometheus has it as an external label, and on the hub the ACM
metrics-collector adds it to everything a spoke pushes (with ``clusterID``, which no hub rule keeps).

Spoke series are evaluated on each managed cluster (as MCO allowlist ``recording_rules`` at every push, or as
a plain rule group every ``billing.resolution`` without ACM). Hub series are Thanos Ruler rules over what
the spokes pushed. Label conventions:

* ``resource`` on spoke series is kube-state-metrics' sanitised resource (``nvidia_com_gpu``,
  ``nvidia_com_mig_1g_10gb``, ``nvidia_com_gpu_shared``, ``amd_com_gpu``); on hub series it is the
  Kubernetes resource name that is billed (``nvidia.com/gpu``, ``nvidia.com/mig-1g.10gb``,
  ``nvidia.com/gpu.shared``, ``amd.com/gpu``). On single-strategy MIG nodes a slice is requested as
  ``nvidia.com/gpu``; gpudash bills it as the slice (``nvidia.com/mig-<profile>``), taken from the node's product.
* ``product`` is the node's GPU product label as GPU Feature Discovery writes it (spaces replaced by ``-``,
  e.g. ``NVIDIA-A100-SXM4-80GB``, ``NVIDIA-A100-SXM4-80GB-MIG-1g.10gb``); empty when the node has none.
* ``gpu_class`` is the model's class name; ``tenant`` the model's tenant name.
"""
from __future__ import annotations

from dataclasses import dataclass

from gpudash.model import vendors

SPOKE, HUB = "spoke", "hub"
# For people: the exporters that attribute a MIG slice or time-sliced replica's physical GPU to its pods
FRACTION_EXPORTERS = vendors.exporters_with("attributes_fractions")
# Recorded on each managed cluster by the optional spoke tier (billing.spoke_tier: policy) and read there by the
# hourly spoke rules; never pushed.
SPOKE_TIER = "spoke-tier"
# Every hourly spoke rule adds one row with only this label (value 0): proof that the rule ran in that push.
SENTINEL_LABEL = "gpudash_sentinel"
# With billing.backfill_hours N > 0, every hourly spoke rule returns its rows N + 1 times, for the hour k = 1..N + 1
# hours before the push's own clock hour, each with this label set to k (docs/billing-contract.md section 6).
LAG_LABEL = "gpudash_lag"
# Where a step's active GPUs of a node came from (docs/billing-contract.md section 5):
ACTIVE_FROM_LABEL = "active_from"
# only whole GPUs allocated: the count is the allocation, exact and independent of any exporter
FROM_ALLOCATION = "allocation"
# MIG slices or time-sliced replicas on an NVIDIA node whose dcgm-exporter is seen: the whole GPUs allocated plus the
# physical GPUs dcgm-exporter attributes to the pods holding those slices, at least the compute-share bound
FROM_ATTRIBUTION = "attribution"
# fractional devices no exporter maps to physical GPUs (AMD partitions, unpriced shares): the compute-share bound
FROM_BOUND = "bound"
# as FROM_ATTRIBUTION, but no dcgm-exporter series of the node was seen: the bound only, possibly low (flagged)
FROM_EXPORTER_DOWN = "exporter_down"
# as FROM_ATTRIBUTION, but a regular init container keeps NVIDIA fractions for its pod that no exporter names (kubelet
# reuses them for no listed container) and the node shows GPUs not counted: they may sit there, possibly low (flagged)
FROM_INIT_UNSEEN = "init_unseen"


@dataclass(frozen=True)
class Series:
    """One recorded series: its ``labels`` in the order of the rule's ``by`` clause; ``detail`` labels describe
    a series without identifying it (the hub reads it by :attr:`key`); ``sentinel`` series also carry the one
    :data:`SENTINEL_LABEL` row."""

    name: str
    where: str  # SPOKE or HUB
    labels: tuple[str, ...]
    meaning: str
    detail: tuple[str, ...] = ()
    sentinel: bool = False

    @property
    def key(self) -> tuple[str, ...]:
        return tuple(label for label in self.labels if label not in self.detail)


SERIES: dict[str, Series] = {}


def _series(name: str, where: str, labels: tuple[str, ...], meaning: str, *, detail: tuple[str, ...] = (),
            sentinel: bool = False) -> str:
    SERIES[name] = Series(name, where, labels, meaning, detail, sentinel)
    return name


def labels(name: str) -> tuple[str, ...]:
    """The labels of the recorded series ``name``."""
    return SERIES[name].labels


def key(name: str) -> tuple[str, ...]:
    """The identifying labels of the recorded series ``name`` (its labels without the detail ones)."""
    return SERIES[name].key


# A pod's identity on the hub (the labels the hub rules, alerts and reports match pods on).
POD = ("cluster", "namespace", "pod")
_WORKLOAD = ("workload", "workload_type")
_BILLING_LINE = ("cluster", "namespace", "gpu_class", "resource")
_PRODUCT_LINE = ("cluster", "namespace", "product", "resource")
_TENANT = ("cluster", "namespace", "tenant")

# --- spoke: evaluated on every managed cluster, pushed to the hub -------------------------------------------------
POD_ALLOCATED = _series(
    "namespace_pod:gpudash_gpus_allocated:running", SPOKE, (*POD, "node", "product", "resource", *_WORKLOAD),
    "GPUs (units of `resource`) allocated right now to each Running, node-bound pod: burn rate per pod and "
    "workload, live allocation views.")
HOURLY_GPU_HOURS = _series(
    "namespace_product_resource:gpudash_gpu_hours:previous_hour", SPOKE, _PRODUCT_LINE,
    "GPU-hours allocated in the previous complete clock hour (UTC), integrated at full spoke resolution. Every "
    "push during hour h+1 carries hour h's total, so lost pushes lose nothing; the hub reads each pushed hourly "
    "series only from samples evaluated during hour h+1 (the collector stamps a recording-rule sample with its "
    "own query's evaluation time), so no series is ever taken for the wrong hour.", sentinel=True)
HOURLY_ENERGY = _series(
    "namespace:gpudash_energy_kwh:previous_hour", SPOKE, ("cluster", "namespace"),
    "GPU energy (kWh) of the previous complete clock hour per namespace, each physical GPU's measured energy split "
    f"at every spoke step among the pods {FRACTION_EXPORTERS} attributes it to (gpudash.render.rules.energy); the "
    "row without `namespace` is the energy of GPU capacity held by no pod (the provider line `unallocated`). Pushed "
    "and read "
    "like the GPU-hours.", sentinel=True)
BILLED_HOUR = _series(
    "cluster:gpudash_billed_hour:start_timestamp", SPOKE, ("cluster",),
    "Start (Unix seconds) of the clock hour a push made now describes: the cluster's heartbeat, pushed whether "
    "or not it runs GPUs.")
STEPS_OBSERVED = _series(
    "cluster:gpudash_steps_observed:previous_hour", SPOKE, ("cluster",),
    "Spoke steps (billing.resolution) of the previous clock hour at which kube-state-metrics was up: how much "
    "of the hour the hourly figures cover (all 3600 / resolution steps, unless data was lost). With the spoke "
    "tier, the steps it recorded: a missed evaluation is a step not observed.")
NODE_ACTIVE_GPUS_MAX = _series(
    "node:gpudash_gpus_active:max_previous_hour", SPOKE, ("cluster", "node", ACTIVE_FROM_LABEL),
    "Most GPUs active at any spoke step of the previous clock hour, per node (CCSP); `active_from` says "
    f"what gave the figure: allocation, attribution, bound, exporter_down (the bound while {FRACTION_EXPORTERS} "
    "was not seen) or init_unseen (a regular init container keeps MIG slices or replicas no exporter "
    "names, and the node has GPUs not counted); report nodes flags the last two as possibly low.",
    detail=(ACTIVE_FROM_LABEL,), sentinel=True)
POD_ACTIVITY_MAX = _series(
    "namespace_pod:gpudash_gpu_activity:max", SPOKE, (*POD, "gpu_model"),
    "Peak GPU activity ratio (0-1) per pod over the push window.")
POD_ACTIVITY_AVG = _series(
    "namespace_pod:gpudash_gpu_activity:avg", SPOKE, (*POD, "gpu_model"),
    "Mean GPU activity ratio (0-1) per pod over the push window.")
POD_POWER_MAX = _series(
    "namespace_pod:gpudash_gpu_power:max", SPOKE, POD,
    "Peak GPU power (W) per pod over the push window. Only when alerts.idle.power_veto_watts > 0.")
INPUT_MISSING = _series(
    "cluster_input_node:gpudash_input_missing:count", SPOKE, ("cluster", "input", "node"),
    "A raw series the spoke rules need is absent on the cluster (gpudash.render.rules.inputs, `input` says which; "
    "`node` where it is per node, else empty); the value counts what is affected (GPUs on the node, else 1). Pushed at "
    "every push and alerted on the hub (GPUBillingInputMissing), so no billable input is lost silently.")

# --- spoke tier: recorded every billing.resolution on each managed cluster, read by the hourly spoke rules ---------
TIER_POD_STEP = _series(
    "node_pod_resource:gpudash_gpus_allocated:step", SPOKE_TIER, ("cluster", "node", "namespace", "pod", "product",
                                                                  "resource"),
    "GPUs allocated to each Running, node-bound pod at one spoke step, per node, product and resource, plus a "
    "sentinel row: the tier's first rule, the one allocation join of the step. The tier's other rules read only its "
    "rows written at their own evaluation, and the step heartbeat needs its sentinel (spoke_tier: policy).",
    sentinel=True)
TIER_ALLOCATED = _series(
    "namespace_product_resource:gpudash_gpus_allocated:step", SPOKE_TIER, _PRODUCT_LINE,
    "GPUs allocated to Running, node-bound pods at one spoke step, per namespace, product and resource: one "
    "sample per step, summed by the hourly GPU-hours rule, and a sentinel row when the step's allocation was "
    "recorded, which the step heartbeat needs (spoke_tier: policy).", sentinel=True)
TIER_NODE_ACTIVE = _series(
    "node:gpudash_gpus_active:step", SPOKE_TIER, ("cluster", "node", ACTIVE_FROM_LABEL),
    "Active GPUs per node at one spoke step (allocation, attribution, bound, exporter_down, init_unseen): the hourly "
    "per-node maximum's input, and a sentinel row when the step's GPU equivalents were recorded, which the step "
    "heartbeat needs (spoke_tier: policy).", detail=(ACTIVE_FROM_LABEL,), sentinel=True)
TIER_POD_KINDS = _series(
    "node_pod_kind:gpudash_gpu_equivalents:step", SPOKE_TIER, ("cluster", "node", "namespace", "pod", "gpudash_kind"),
    "Physical-GPU equivalents allocated to each Running, node-bound pod at one spoke step, per node and kind of "
    "device (whole, attribution or bound; docs/billing-contract.md section 5): the SKU weights applied once per step "
    "for the active-GPUs rule, which reads only the rows written at its own evaluation, and a sentinel row when the "
    "step's allocation was recorded (spoke_tier: policy).", sentinel=True)
TIER_KSM_UP = _series(
    "cluster:gpudash_ksm_up:step", SPOKE_TIER, ("cluster",),
    "1 at every spoke step the tier evaluated with kube-state-metrics up and every billed figure of the step "
    "recorded (the sentinel of each rule before it), no sample otherwise: the step heartbeat the hourly "
    "steps-observed rule counts, so a missed evaluation or a failed rule is a missing step (spoke_tier: policy).")
TIER_POD_ALLOCATED = _series(
    "namespace_pod:gpudash_gpus_allocated:step", SPOKE_TIER, labels(POD_ALLOCATED),
    "GPUs allocated to each Running, node-bound pod at one spoke step, with its workload: the pushed live "
    "allocation (`namespace_pod:gpudash_gpus_allocated:running`) reads it at each push instead of redoing the "
    "joins; never billed, so a failed workload join costs only the live view (spoke_tier: policy).")
TIER_ENERGY = _series(
    "namespace:gpudash_energy_joules:step", SPOKE_TIER, ("cluster", "namespace"),
    "GPU energy (joules) of the step ending at one spoke step per namespace, the row without `namespace` the "
    "energy no pod holds: summed by the hourly energy rule, and a sentinel row, which the step heartbeat needs "
    "(spoke_tier: policy).", sentinel=True)

# --- hub: model constants -----------------------------------------------------------------------------------------
# Every hub series carries `cluster`, so that ACM's rbac-query-proxy (which adds a cluster matcher to every selector,
# and `cluster=""` for a user without access) never returns a cluster-less gpudash series. Constants that no tenant
# reads are one table on a reserved cluster value no managed cluster can match; the tenant-visible ones are expanded
# to every cluster of the model's `clusters` (readable wherever the tenant has metrics access there).
MODEL_CLUSTER = "gpudash/model"
SKU_PRICE = _series(
    "cluster_product_resource:gpudash_price_per_hour:model", HUB,
    ("cluster", "gpu_class", "ksm_resource", "product", "resource"),
    "Price per hour of one unit of `resource` on `product` (provider-only, on MODEL_CLUSTER; joined by the "
    "billing rules).")
ENERGY_PRICE = _series(
    "cluster:gpudash_energy_price_per_kwh:model", HUB, ("cluster",),
    "Energy price per kWh on each model cluster (energy.price_per_kwh or the cluster's override).")
TENANT_ROWS = _series(
    "cluster_row:gpudash_tenant:model", HUB, ("cluster", "part", "row"),
    "The compact tenant table (provider-only, on MODEL_CLUSTER): value the budget, label row "
    "\"<namespace> <tenant> <alert_at,...>\", part the rule holding the row. Decoded onto each model cluster.")
TENANT_INFO = _series(
    "cluster_namespace:gpudash_tenant:info", HUB, _TENANT, "1 per tenant, on every cluster of the model.")
TENANT_BUDGET = _series(
    "cluster_namespace:gpudash_budget:model", HUB, _TENANT,
    "Budget per billing period, on every cluster of the model (the same everywhere: take max, never sum, across "
    "clusters).")
TENANT_THRESHOLD = _series(
    "cluster_namespace:gpudash_budget_threshold:model", HUB, (*_TENANT, "threshold"),
    "One series per alert threshold (fraction of budget) of each tenant, on every cluster of the model.")

# --- hub: settles -------------------------------------------------------------------------------------------------
# Each pushed hourly spoke series settled once per evaluation, first in the group that reads it: the rows of the hour
# the hub settles now (the hour before this one, or with billing.backfill_hours N the hour N + 1 before it), the
# largest pushed value of each series, its sentinel row included. Never billed as such: the billed figures read each
# row only while its latest sample is stamped in the current clock hour (gpudash.promql.calendar.own_hour), which is
# the same hour's figure from whichever evaluation or Ruler replica wrote it (gpudash.render.rules.hub).
_SETTLE = "Settle of `{}` (the hub's own-hour read of it, once per evaluation): "
SETTLED_GPU_HOURS = _series(
    "cluster_namespace_product_resource:gpudash_gpu_hours:settled_hour", HUB, _PRODUCT_LINE,
    _SETTLE.format(HOURLY_GPU_HOURS) + "GPU-hours of the hour the hub settles now, as pushed (product and "
    "resource in kube-state-metrics form), plus the sentinel row per cluster whose rule ran. Input of the billing "
    "lines, unpriced usage and coverage.", sentinel=True)
SETTLED_ENERGY = _series(
    "cluster_namespace:gpudash_energy_kwh:settled_hour", HUB, ("cluster", "namespace"),
    _SETTLE.format(HOURLY_ENERGY) + "GPU energy (kWh) of the hour the hub settles now, the row without `namespace` "
    "unallocated, plus the sentinel row. Input of the energy lines and coverage.", sentinel=True)
SETTLED_STEPS = _series(
    "cluster:gpudash_steps_observed:settled_hour", HUB, ("cluster",),
    _SETTLE.format(STEPS_OBSERVED) + "spoke steps observed in the hour the hub settles now. Input of coverage.")
SETTLED_NODE_MAX = _series(
    "cluster_node_source:gpudash_gpus_active:max_settled_hour", HUB, ("cluster", "node", ACTIVE_FROM_LABEL),
    _SETTLE.format(NODE_ACTIVE_GPUS_MAX) + "most GPUs active per node and source in the hour the hub settles now, "
    "plus the sentinel row. Input of the CCSP series.", detail=(ACTIVE_FROM_LABEL,), sentinel=True)
# {pushed hourly spoke series: its settle on the hub}
SETTLED = {HOURLY_GPU_HOURS: SETTLED_GPU_HOURS, HOURLY_ENERGY: SETTLED_ENERGY, STEPS_OBSERVED: SETTLED_STEPS,
           NODE_ACTIVE_GPUS_MAX: SETTLED_NODE_MAX}

# --- hub: billing -------------------------------------------------------------------------------------------------
HOUR_GPU_HOURS = _series(
    "cluster_namespace_class_resource:gpudash_gpu_hours:last_hour", HUB, _BILLING_LINE,
    "GPU-hours of the last complete clock hour per billing line.")
HOUR_COST = _series(
    "cluster_namespace_class_resource:gpudash_cost:last_hour", HUB, _BILLING_LINE,
    "Cost of the last complete clock hour per billing line: what is invoiced.")
HOUR_ENERGY = _series(
    "cluster_namespace:gpudash_energy_kwh:last_hour", HUB, ("cluster", "namespace"),
    "GPU energy (kWh) of the last complete clock hour per namespace and cluster; the row without `namespace` is "
    "the provider line `unallocated` (GPUs held by no pod). Tenants plus unallocated = the cluster's GPU energy.")
HOUR_ENERGY_COST = _series(
    "cluster_namespace:gpudash_energy_cost:last_hour", HUB, ("cluster", "namespace"),
    "Energy cost of the last complete clock hour per namespace and cluster (kWh x the cluster's energy price); "
    "the row without `namespace` is the unallocated line.")
UNPRICED_GPU_HOURS = _series(
    "cluster_namespace_product_resource:gpudash_unpriced_gpu_hours:last_hour", HUB, _PRODUCT_LINE,
    "Pushed GPU-hours whose (product, resource) has no price: visible, never silently free.")
NAMESPACE_COST_RATE = _series(
    "cluster_namespace:gpudash_cost_per_hour:current", HUB, ("cluster", "namespace"),
    "Cost per hour right now (burn rate) per namespace and cluster.")
WORKLOAD_COST_RATE = _series(
    "cluster_namespace_workload:gpudash_cost_per_hour:current", HUB, ("cluster", "namespace", *_WORKLOAD),
    "Cost per hour right now (burn rate) per workload.")
POD_COST_RATE = _series(
    "cluster_namespace_pod:gpudash_cost_per_hour:current", HUB, (*POD, *_WORKLOAD),
    "Cost per hour right now (burn rate) per pod, with its workload.")
TENANT_HOUR_COST = _series(
    "cluster_namespace:gpudash_cost:last_hour", HUB, ("cluster", "namespace"),
    "Cost of the last complete clock hour per namespace and cluster (input of period-to-date).")
CLASS_ALLOCATED = _series(
    "cluster_namespace_class_resource:gpudash_gpus_allocated:current", HUB, _BILLING_LINE,
    "GPUs allocated right now per billing line.")
TENANT_COST_PTD = _series(
    "cluster_namespace:gpudash_cost:period_to_date", HUB, _TENANT,
    "Period-to-date cost per cluster (a tenant's figure is the sum over clusters); every (model cluster, tenant) "
    "pair has a series, 0 when unused.")
TENANT_COST_PROJECTED = _series(
    "cluster_namespace:gpudash_cost:period_projection", HUB, _TENANT,
    "Period-to-date cost projected to the period end with the average burn rate, per cluster.")
TENANT_COST_RATE_AVG = _series(
    "cluster_namespace:gpudash_cost_per_hour:avg_window", HUB, ("cluster", "namespace"),
    "Average cost per hour over billing.burn_rate_window, per cluster.")
POD_IDLE = _series(
    "cluster_namespace_pod:gpudash_gpu_idle:cost_per_hour", HUB, (*POD, "gpu_model", *_WORKLOAD),
    "The one idle definition (gpudash.render.rules.idle): the cost per hour of each pod holding priced GPUs whose peak "
    "activity over alerts.idle.window was zero (model namespace/model filters, power veto, observed for the "
    "whole window). Read by GPUAllocatedIdle, the idle report and `gpudash prune`.")
BILLING_COVERAGE = _series(
    "cluster:gpudash_billing_coverage:last_hour", HUB, ("cluster",),
    "Share (0-1) of the last complete clock hour that the cluster's billed figures cover: steps observed over "
    "steps in an hour, 0 when the cluster pushed in the hour but an hourly rule failed in every push (the hour "
    "is lost, not repeated). Below 1 the hour is under-billed: GPUBillingDataGap.")

# --- hub: CCSP ----------------------------------------------------------------------------------------------------
CCSP_NODE_GPUS = _series(
    "cluster_node:gpudash_gpus_active:max_last_hour", HUB, ("cluster", "node"),
    "CCSP: most GPUs active at once on each node during the last complete clock hour.")
CCSP_NODE_SOURCES = _series(
    "cluster_node_source:gpudash_gpus_active:max_last_hour", HUB, ("cluster", "node", ACTIVE_FROM_LABEL),
    "CCSP: the most GPUs active on each node during the last complete clock hour per source of the count "
    "(active_from: allocation, attribution, bound, exporter_down, init_unseen). An exporter_down row flags a node "
    f"counted by the compute-share bound while {FRACTION_EXPORTERS} was not seen, an init_unseen row one where a "
    "regular init container keeps MIG slices or replicas no exporter names, on GPUs that may not be counted: possibly "
    "low, and `report nodes` says so.",
    detail=(ACTIVE_FROM_LABEL,))
CCSP_ACTIVE_NODES = _series(
    "cluster:gpudash_nodes_active:last_hour", HUB, ("cluster",),
    "CCSP: nodes with at least one active GPU during the last complete clock hour.")
CCSP_ACTIVE_GPUS = _series(
    "cluster:gpudash_gpus_active:sum_last_hour", HUB, ("cluster",),
    "CCSP: fleet total of the per-node hourly maxima for the last complete clock hour.")
