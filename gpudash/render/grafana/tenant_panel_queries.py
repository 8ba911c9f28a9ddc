"""A tenant dashboard's queries, one named function each (the dashboard module does layout only).

Every function takes the tenant's :class:`~gpudash.render.grafana.shared_panel_queries.Scope` (``namespace="<ns>"``
on every selector, proven by :mod:`gpudash.render.grafana.isolation`) and returns PromQL over recorded series and
``ALERTS``.
"""
from __future__ import annotations

from gpudash.model import series as names
from gpudash.promql import build as q
from gpudash.promql import read
from gpudash.promql.calendar import period_to_date
from gpudash.render.grafana.shared_panel_queries import Scope, hours_in_range, pod_activity

LINE = ("cluster", "gpu_class", "resource")  # a tenant's billing line, without its namespace


def cost_to_date(s: Scope) -> str:
    return f"sum({s.now(names.TENANT_COST_PTD)})"


def budget(s: Scope) -> str:
    return f"max({s.now(names.TENANT_BUDGET)})"


def budget_used(s: Scope) -> str:
    return f"{cost_to_date(s)} / {budget(s)}"


def projected(s: Scope) -> str:
    return f"sum({s.now(names.TENANT_COST_PROJECTED)})"


def gpu_hours_to_date(s: Scope) -> str:
    """GPU-hours this period: complete hours, then the current allocation (:func:`period_to_date`)."""
    ptd = period_to_date(s.hour(names.HOUR_GPU_HOURS), s.now(names.CLASS_ALLOCATED), ("namespace",),
                         read.delay(s.model))
    return f"sum({ptd})"


def burn_rate(s: Scope) -> str:
    return f"sum({s.now(names.NAMESPACE_COST_RATE)})"


def burn_rate_average(s: Scope) -> str:
    return f"sum({s.now(names.TENANT_COST_RATE_AVG)})"


def _allocated_per_pod(s: Scope) -> str:
    return q.agg("sum", ("cluster", "namespace", "pod"), s.now(names.POD_ALLOCATED))


def _used(s: Scope) -> str:
    """GPU-equivalents busy per pod: allocation x mean activity."""
    return f"{_allocated_per_pod(s)} * on (cluster, namespace, pod) group_left () {pod_activity(s)}"


def efficiency(s: Scope) -> str:
    """Allocation-weighted mean activity of the pods that have activity metrics."""
    return f"sum({_used(s)}) / sum({_allocated_per_pod(s)} and on (cluster, namespace, pod) {pod_activity(s)})"


def burn_rate_per_workload(s: Scope) -> str:
    return q.agg("sum", ("workload_type", "workload"), s.now(names.WORKLOAD_COST_RATE))


def per_pod(s: Scope, series: str) -> str:
    """``series`` (burn rate or allocation) per pod, with its workload."""
    return q.agg("sum", ("cluster", "pod", "workload"), s.now(series))


def activity_per_pod(s: Scope) -> str:
    """Mean activity per pod, with the pod's workload."""
    workloads = q.agg("max", ("cluster", "namespace", "pod", "workload"), s.now(names.POD_ALLOCATED))
    by_workload = f"{pod_activity(s)} * on (cluster, namespace, pod) group_left (workload) ({workloads} * 0 + 1)"
    return q.agg("max", ("cluster", "pod", "workload"), by_workload)


def gpu_hours_per_hour(s: Scope) -> str:
    return q.agg("sum", LINE, s.hour(names.HOUR_GPU_HOURS))


def in_range(s: Scope, series: str) -> str:
    """``series`` (an hourly GPU-hours or cost series) summed over the complete hours of the selected range."""
    return hours_in_range(s.hour(series), LINE)


def allocated(s: Scope) -> str:
    return f"sum({_allocated_per_pod(s)})"


def used(s: Scope) -> str:
    return f"sum({_used(s)})"


def activity(s: Scope) -> str:
    return q.agg("max", ("cluster", "pod"), pod_activity(s))


def alerts(s: Scope) -> str:
    """The namespace's pending and firing alerts (``ALERTS``, which Prometheus records itself)."""
    return f"last_over_time({s.sel('ALERTS')}[{s.fresh}])"
