"""The raw inputs the spoke rules need, checked on each spoke at every push: a series that is absent is recorded
as a row of :data:`~gpudash.model.series.INPUT_MISSING` (``input`` names it), which the hub alerts on
(``GPUBillingInputMissing``) and ``gpudash doctor`` reports, so no billable input is lost silently.

* ``init_containers``: kube-state-metrics' per-container series are not scraped while its pod series are.
  OpenShift's ``collectionProfile: minimal`` keeps ``kube_pod_info``, ``kube_pod_status_phase`` and
  ``kube_pod_container_resource_requests`` but drops ``kube_pod_init_container_resource_requests``,
  ``kube_pod_init_container_info`` and ``kube_pod_container_info`` (openshift/cluster-monitoring-operator
  assets/kube-state-metrics/minimal-service-monitor.yaml, its ``keep`` regex): init containers' and native
  sidecars' GPU requests are then not billed. ``kube_pod_container_info`` exists for every container with a status,
  so its absence beside Running pods tells the dropped series from a cluster without init containers.
* ``spoke_tier`` (``billing.spoke_tier: policy``): the tier's step heartbeat is absent while kube-state-metrics is
  up: the tier's rule group is not loaded on this cluster (the Placement missed it) or not evaluating, and the
  hourly figures it feeds are empty.
* ``gpu_power``: a node's GPUs report activity but none reports power or energy (AMD MI300X_VF guests and MI2xx
  without ``gpu_package_power``, ROCm/device-metrics-exporter docs/configuration/metricslist.md; a DCGM counters
  file without the power fields): their energy is not measured and the idle power veto cannot apply there.
"""
from __future__ import annotations

from gpudash.model import series as names
from gpudash.model import vendors
from gpudash.model.exporters import gpu_exporters as gx
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.types import Model
from gpudash.model.vendors import Vendor
from gpudash.promql import build as q
from gpudash.render.rules.format import Rule

INIT_CONTAINERS, SPOKE_TIER, GPU_POWER = "init_containers", "spoke_tier", "gpu_power"
# What each missing input means and how to fix it: the hub alert's description and doctor's line.
CAUSE = {
    INIT_CONTAINERS: "kube-state-metrics' pod series are scraped but not its container series "
                     "(kube_pod_container_info, kube_pod_init_container_info, "
                     "kube_pod_init_container_resource_requests): GPUs requested by init containers and native "
                     "sidecars are not billed",
    SPOKE_TIER: f"no spoke-tier step ({names.TIER_KSM_UP}) is recorded while kube-state-metrics is up: the "
                "gpudash-spoke-tier rule group is not loaded or not evaluating, so the hourly GPU-hours and energy "
                "are empty",
    GPU_POWER: "GPUs report activity but no GPU of the node reports power or energy: their energy is not measured "
               "(neither a tenant's nor unallocated) and the idle alert's power veto cannot apply to them",
}
def _power_fix() -> str:
    """The vendors' ways to export power or energy (Vendor.power_fix), those whose GPUs may lack it first."""
    first, *more = [v.power_fix for v in sorted(vendors.VENDORS.values(), key=lambda v: v.sample_power) if v.power_fix]
    return first + "".join(f" ({m})" for m in more) + ", or accept this node's energy as unmetered"


FIX = {
    INIT_CONTAINERS: "OpenShift's monitoring collectionProfile minimal drops them: set "
                     "prometheusK8s.collectionProfile: full in the openshift-monitoring cluster-monitoring-config "
                     "ConfigMap, or keep these series in the scrape",
    SPOKE_TIER: "make the hub's Placement gpudash-spoke-tier select the cluster (its ManagedCluster name must be in "
                "the model's clusters) and check that the Policy gpudash-spoke-tier is compliant there",
    GPU_POWER: _power_fix(),
}
_LABELS = names.labels(names.INPUT_MISSING)


def _row(expr: str, what: str) -> str:
    """``expr`` (by cluster, or by cluster and node) as rows of the missing-input series for ``what``."""
    return q.label_replace(expr, "input", what, "", "")


def _per_cluster(present: str, *absent: str) -> str:
    """1 per cluster where ``present`` has series and none of ``absent`` has any."""
    out = f"{q.agg('count', ('cluster',), present)} * 0 + 1"
    for series in absent:
        out = f"({out}) unless on (cluster) {q.agg('count', ('cluster',), series)}"
    return out


def _init_containers(model: Model) -> str:
    job = ksm.job(model.sources)
    running = f"{q.selector(ksm.POD_PHASE, job, ('phase', '=', 'Running'))} == 1"
    return _row(_per_cluster(running, q.selector(ksm.CONTAINER_INFO, job),
                             q.selector(ksm.INIT_CONTAINER_INFO, job)), INIT_CONTAINERS)


def heartbeat_window(model: Model) -> int:
    """Seconds the tier's heartbeat is looked for: a push interval, at least two tier steps."""
    return max(model.billing.mco_interval, 2 * model.billing.resolution)


def _spoke_tier(model: Model) -> str:
    """The tier's heartbeat, looked for over a push interval (at least two tier steps; 1 ms short, so a heartbeat
    exactly one interval old is outside under Prometheus 2 and 3 alike: :func:`~gpudash.promql.build.window`),
    while kube-state-metrics is up (the heartbeat is absent then anyway, and GPUKubeStateMetricsDown says so)."""
    window = q.window(heartbeat_window(model))
    up = f"{q.selector('up', ksm.job(model.sources))} == 1"
    return _row(_per_cluster(up, f"max_over_time({names.TIER_KSM_UP}[{window}])"), SPOKE_TIER)


def _gpus_by_node(expr: str, gpu: tuple[str, ...]) -> str:
    return q.agg("count", ("cluster", "node"), q.agg("max", ("cluster", "node", *gpu), expr))


def _gpu_power(model: Model) -> str:
    """Per node, the GPUs reporting activity where no GPU of the node reports power or energy (per node, since on a
    partitioned AMD GPU only partition 0 reports them)."""
    src = model.sources

    def on_node(v: Vendor, metrics: list[str]) -> str:
        # the same rows either way: one relabelling of the union per host label where there are several, else one
        # per series (as rendered so far)
        selectors = [q.selector(v.metric(src, m), gx.job(gx.exporter(src, v))) for m in metrics]
        if len(v.host_labels) > 1:
            return gx.on_node(" or ".join(selectors), v)
        return " or ".join(gx.on_node(sel, v) for sel in selectors)

    rows = [f"{_gpus_by_node(on_node(v, [m for m, _ in v.activity]), v.gpu_labels)} unless on (cluster, node) "
            f"{q.agg('count', ('cluster', 'node'), on_node(v, [v.power, v.energy]))}"
            for v in vendors.VENDORS.values()]
    return _row(" or ".join(f"({r})" for r in rows), GPU_POWER)


def expr(model: Model) -> str:
    parts = [_init_containers(model), _gpu_power(model)] + ([_spoke_tier(model)] if model.billing.tier else [])
    return q.agg("sum", _LABELS, " or ".join(f"({p})" for p in parts))


def rules(model: Model) -> tuple[Rule, ...]:
    return (Rule(names.INPUT_MISSING, expr(model),
                 "A raw input the spoke rules need is absent here (input: init_containers, spoke_tier,"
                 "\ngpu_power): the GPU-hours or energy it feeds are under-measured until it returns."
                 "\nPushed at every push; the hub's GPUBillingInputMissing names the cause and the fix."),)
