"""The provider dashboard's queries, one named function each (the dashboard module does layout only).

Every function takes the provider :class:`~gpudash.render.grafana.shared_panel_queries.Scope`
(``cluster=~"$cluster"``) and returns PromQL over recorded series, ``up`` and the model's constants.
"""
from __future__ import annotations

from gpudash.model import series as names
from gpudash.model import vendors
from gpudash.model.exporters import gpu_exporters as gx
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.promql import build as q
from gpudash.render.grafana.shared_panel_queries import (
    Scope,
    of_idle_pods,
    pod_activity,
    pod_allocation_by_class,
    power_per_hour,
)

_TENANT = ("tenant", "namespace")


def _literal(resource: str) -> str:
    """A resource name as a regex matching only itself (resource names hold no other regex character)."""
    return resource.replace(".", "\\.")


def whole_gpus() -> tuple[str, str, str]:
    """The billed resources of whole GPUs: every registered vendor's."""
    return ("resource", "=~", "|".join(_literal(v.resource) for v in vendors.VENDORS.values()))


def mig_slices() -> tuple[str, str, str]:
    """The billed resources of MIG slices, of each vendor with MIG."""
    prefixes = (_literal(v.mig_resource_prefix) + ".+" for v in vendors.with_feature("mig_resource_prefix"))
    return ("resource", "=~", "|".join(prefixes))


def shared_replicas() -> tuple[str, str, str]:
    """The billed resources of time-sliced replicas, of each vendor with time-slicing."""
    shared = [v.shared_resource for v in vendors.VENDORS.values() if v.shared_resource]
    return ("resource", "=", shared[0]) if len(shared) == 1 else ("resource", "=~", "|".join(map(_literal, shared)))


def allocated(s: Scope, resources) -> str:
    """Units of the ``resources`` matcher's billed resources allocated now, fleet-wide (0 when none)."""
    return f"sum({s.now(names.CLASS_ALLOCATED, resources)}) or vector(0)"


def revenue_rate(s: Scope) -> str:
    return f"sum({s.now(names.NAMESPACE_COST_RATE)}) or vector(0)"


def revenue_to_date(s: Scope) -> str:
    return f"sum({s.now(names.TENANT_COST_PTD)})"


def revenue_projected(s: Scope) -> str:
    return f"sum({s.now(names.TENANT_COST_PROJECTED)})"


def unpriced_last_hour(s: Scope) -> str:
    return f"sum({s.now(names.UNPRICED_GPU_HOURS)}) or vector(0)"


def utilisation_by_class(s: Scope) -> str:
    """Allocation-weighted mean GPU activity per cluster and class."""
    alloc_by_class = pod_allocation_by_class(s)
    busy = f"{alloc_by_class} * on (cluster, namespace, pod) group_left () {pod_activity(s)}"
    by_class = ("cluster", "gpu_class")
    return f"{q.agg('sum', by_class, busy)} / {q.agg('sum', by_class, alloc_by_class)}"


def revenue_rate_by_cluster(s: Scope) -> str:
    return q.agg("sum", ("cluster",), s.now(names.NAMESPACE_COST_RATE))


def revenue_per_hour(s: Scope) -> str:
    return q.agg("sum", ("cluster",), s.hour(names.HOUR_COST))


def tenant_to_date(s: Scope) -> str:
    return q.agg("sum", _TENANT, s.now(names.TENANT_COST_PTD))


def tenant_projected(s: Scope) -> str:
    return q.agg("sum", _TENANT, s.now(names.TENANT_COST_PROJECTED))


def tenant_budget(s: Scope) -> str:
    return q.agg("max", _TENANT, s.now(names.TENANT_BUDGET))


def tenant_budget_used(s: Scope) -> str:
    return f"{tenant_to_date(s)} / {tenant_budget(s)}"


def top_burn_rates(s: Scope) -> str:
    return f"topk(10, {q.agg('sum', ('namespace',), s.now(names.NAMESPACE_COST_RATE))})"


def spend_outside_tenants(s: Scope) -> str:
    """Burn rate of namespaces that hold GPUs and are no tenant of the model."""
    return (f"{q.agg('sum', ('cluster', 'namespace'), s.now(names.NAMESPACE_COST_RATE))} "
            f"unless on (namespace) {s.now(names.TENANT_INFO)}")


def idle_by_pod(s: Scope, series: str) -> str:
    """``series`` (allocation or burn rate) of the recorded idle pods, per pod and workload."""
    return q.agg("sum", ("cluster", "namespace", "pod", "workload"), of_idle_pods(s, series))


def idle_cost_by_cluster(s: Scope) -> str:
    return q.agg("sum", ("cluster",), of_idle_pods(s, names.POD_COST_RATE))


def mig_by_profile(s: Scope) -> str:
    return q.agg("sum", ("cluster", "gpu_class", "resource"), s.now(names.CLASS_ALLOCATED, mig_slices()))


def mig_hours(s: Scope) -> str:
    return q.agg("sum", ("gpu_class", "resource"), s.hour(names.HOUR_GPU_HOURS, mig_slices()))


def unpriced_lines(s: Scope) -> str:
    return q.agg("sum", ("cluster", "namespace", "product", "resource"), s.now(names.UNPRICED_GPU_HOURS))


def _pushing(s: Scope) -> str:
    return q.agg("count", ("cluster",), s.now(names.BILLED_HOUR))


def clusters_pushing(s: Scope) -> str:
    return f"count({_pushing(s)})"


def clusters_not_pushing(s: Scope) -> str:
    """The model's clusters (one constant series each) without a fresh heartbeat."""
    clusters = " or ".join(q.const_series(1, cluster=c) for c in s.model.clusters) or "vector(1) * 0 < 0"
    return f"({clusters}) unless on (cluster) {_pushing(s)}"


def push_ts(selector: str) -> str:
    """Newest sample time of ``selector`` within the hour (``timestamp()`` of a raw selector is the sample's
    own time; the 1-minute subquery sees every push whatever the push interval)."""
    return f"max_over_time(timestamp({selector})[1h:1m])"


def push_age(s: Scope) -> str:
    """Seconds since each cluster's newest gpudash push."""
    return f"time() - {q.agg('max', ('cluster',), push_ts(s.sel(names.BILLED_HOUR)))}"


def ksm_push_age(s: Scope) -> str:
    """Seconds since each cluster's newest pushed kube-state-metrics ``up``."""
    return f"time() - {q.agg('max', ('cluster',), push_ts(s.sel('up', ksm.job(s.model.sources))))}"


def targets_up(s: Scope) -> str:
    """Share of scrape targets up per cluster and job: kube-state-metrics and the GPU exporters."""
    src = s.model.sources
    jobs = (q.regex_alternation([src.kube_state_metrics_job]),
            *(gx.exporter(src, v).job for v in vendors.VENDORS.values()))
    exporters = "|".join(f"(?:{j})" for j in jobs)
    return q.agg("avg", ("cluster", "job"), f"last_over_time({s.sel('up', ('job', '=~', exporters))}[{s.fresh}])")


def billing_lines(s: Scope) -> str:
    return q.agg("count", ("cluster",), s.now(names.HOUR_GPU_HOURS))


def power_by_namespace(s: Scope) -> str:
    """Average GPU power per clock hour, cluster and namespace; the energy of GPUs no pod holds (the row without
    a namespace) shown as namespace ``unallocated``, the provider line's name."""
    return q.label_replace(power_per_hour(s, ("cluster", "namespace")), "namespace", "unallocated", "namespace", "")
