"""The Scope every panel query carries, and the PromQL both dashboards share: built with :mod:`gpudash.promql.build`
over recorded series only.

Every query reads the hub as :mod:`gpudash.promql.read` defines it: instantaneous values "now" (the latest
push), clock-hour series once per hour at hour boundaries ``T`` (hour ``[T-2h, T-1h)``).

A :class:`Scope` adds the same matchers to every selector: ``namespace="<ns>"`` on tenant dashboards (the
isolation proof in :mod:`gpudash.render.grafana.isolation` checks every one), ``cluster=~"$cluster"`` on provider
dashboards.
"""
from __future__ import annotations

from dataclasses import dataclass

from gpudash.model import series as names
from gpudash.model.types import Model
from gpudash.promql import build as q
from gpudash.promql import read
from gpudash.promql.calendar import period_to_date

Matcher = tuple[str, str, str]


@dataclass(frozen=True)
class Scope:
    """Matchers added to selectors: ``always`` on every selector, ``clustered`` on every series of a real cluster
    (all but the provider-only price table, which lives on ``names.MODEL_CLUSTER``)."""

    model: Model
    always: tuple[Matcher, ...] = ()
    clustered: tuple[Matcher, ...] = ()

    @property
    def fresh(self) -> str:
        """The range that always holds the latest hub sample (:func:`gpudash.promql.read.fresh_range`)."""
        return read.fresh_range(self.model.billing.mco_interval)

    def sel(self, metric: str, *extra: Matcher, cluster_label: bool = True) -> str:
        scoped = (*self.always, *(self.clustered if cluster_label else ()), *extra)
        return q.selector(metric, *scoped)

    def now(self, metric: str, *extra: Matcher, cluster_label: bool = True) -> str:
        """The latest value of a series (:func:`gpudash.promql.read.now`)."""
        return read.now(self.sel(metric, *extra, cluster_label=cluster_label), self.model.billing.mco_interval)

    def hour(self, metric: str, *extra: Matcher, cluster_label: bool = True) -> str:
        """A clock-hour series read at an hour boundary T: the value of hour [T-2h, T-1h)."""
        return read.hour(self.sel(metric, *extra, cluster_label=cluster_label))


def tenant_scope(model: Model, namespace: str) -> Scope:
    return Scope(model, always=(("namespace", "=", namespace),))


def provider_scope(model: Model, cluster_var: str = "cluster") -> Scope:
    return Scope(model, clustered=(("cluster", "=~", f"${cluster_var}"),))


def hours_in_range(hour_expr: str, by: tuple[str, ...], rng: str = "$__range") -> str:
    """Sum of a clock-hour series over the hours read in the dashboard's time range (each hour once).

    The subquery steps are the hour boundaries in the range; step T reads hour [T-2h, T-1h), so the
    result covers the range shifted back by the two-hour reporting delay.
    """
    return q.agg("sum", by, f"sum_over_time(({hour_expr})[{rng}:1h])")


def sku_classes(scope: Scope) -> str:
    """(product, resource in kube-state-metrics form) -> gpu_class, value 1: joins spoke series to classes."""
    keyed = q.label_replace(f"{scope.sel(names.SKU_PRICE, cluster_label=False)} * 0 + 1", "resource", "$1",
                            "ksm_resource", "(.*)")
    return q.agg("max", ("product", "resource", "gpu_class"), keyed)


def pod_allocation_by_class(scope: Scope) -> str:
    """GPUs allocated now per pod and GPU class (``unpriced`` when the product has no price)."""
    alloc = scope.now(names.POD_ALLOCATED)
    priced = f"{alloc} * on (product, resource) group_left (gpu_class) {sku_classes(scope)}"
    unpriced = q.label_replace(alloc, "gpu_class", "unpriced", "", "")
    return q.agg("sum", ("cluster", "namespace", "pod", "gpu_class"),
                 f"({priced}) or on (cluster, namespace, pod, resource) {unpriced}")


def pod_activity(scope: Scope) -> str:
    """Mean GPU activity (0-1) of each pod over the last push window."""
    return q.agg("max", ("cluster", "namespace", "pod"), scope.now(names.POD_ACTIVITY_AVG))


def idle_pods(scope: Scope) -> str:
    """Pods the hub records as idle (``names.POD_IDLE``, :mod:`gpudash.render.rules.idle`: the one idle definition, the
    series GPUAllocatedIdle and the pruner read), value their cost per hour."""
    return q.agg("max", ("cluster", "namespace", "pod"), scope.now(names.POD_IDLE))


def of_idle_pods(scope: Scope, series: str) -> str:
    """``series`` (per pod) of the recorded idle pods only."""
    return f"{scope.now(series)} and on (cluster, namespace, pod) ({idle_pods(scope)})"


def idle_cost(scope: Scope) -> str:
    """Burn rate of the recorded idle pods (0 when none)."""
    return f"sum({of_idle_pods(scope, names.POD_COST_RATE)}) or vector(0)"


def allocated_by_line(scope: Scope) -> str:
    """Units allocated now per cluster, GPU class and billed resource."""
    return q.agg("sum", ("cluster", "gpu_class", "resource"), scope.now(names.CLASS_ALLOCATED))


# --- energy (shared by the provider and tenant dashboards) ----------------------------------------------------
def energy_to_date(s: Scope, by: tuple[str, ...] = ()) -> str:
    """GPU kWh of this period's complete hours up to the hour before last (energy has no "right now" figure)."""
    return q.agg("sum", by, period_to_date(s.hour(names.HOUR_ENERGY), "vector(0)", ("cluster", "namespace"),
                                                read.delay(s.model)))


def power_per_hour(s: Scope, by: tuple[str, ...]) -> str:
    """Average GPU power (W) of each complete clock hour: its kWh x 1000."""
    return f"{q.agg('sum', by, s.hour(names.HOUR_ENERGY))} * 1000"


def energy_per_gpu_hour(s: Scope) -> str:
    """kWh per GPU-hour over the complete hours of the selected range."""
    return (f"sum({hours_in_range(s.hour(names.HOUR_ENERGY), ())}) / "
            f"sum({hours_in_range(s.hour(names.HOUR_GPU_HOURS), ())})")
