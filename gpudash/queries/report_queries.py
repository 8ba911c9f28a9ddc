"""The PromQL the reports send, built with :mod:`gpudash.promql.build` (every label value escaped there).

Hourly series are read as :mod:`gpudash.promql.read` defines it: :func:`~gpudash.promql.read.hour` evaluated
at ``H + READ_DELAY`` gives hour ``H``. ``max by`` over the identifying labels removes duplicates a
hub may add (e.g. two Thanos Ruler replicas that differ only by a replica label) without double counting.

When a report is confined to one tenant, every selector carries ``namespace="<ns>"`` so that a tenancy proxy
(prom-label-proxy on thanos-querier :9092, the ACM hub's rbac-query-proxy) accepts the query unchanged, and
every series a tenant report reads carries ``cluster`` and ``namespace`` on the hub, so the rbac-query-proxy's
cluster and namespace matchers keep exactly the tenant's series (:func:`tenant_queries`, proven at render time
by :func:`gpudash.render.grafana.isolation.prove_queries`).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from gpudash.model import series as names
from gpudash.promql import build as q
from gpudash.promql import read

BILLING_LINE = names.labels(names.HOUR_COST)
UNPRICED_LINE = names.labels(names.UNPRICED_GPU_HOURS)
ENERGY_LINE = names.labels(names.HOUR_ENERGY)
NODE = names.labels(names.CCSP_NODE_GPUS)
POD = names.POD


@dataclass(frozen=True)
class Scope:
    """Label matchers that confine every query: one namespace (a tenant) and/or one cluster."""

    namespace: str | None = None
    cluster: str | None = None
    namespace_regex: str | None = None  # idle report only (gpu-pruner's pattern match)

    def matchers(self, *extra: tuple[str, str, str], namespaced: bool = True) -> tuple[tuple[str, str, str], ...]:
        out = []
        if namespaced and self.namespace is not None:
            out.append(("namespace", "=", self.namespace))
        elif namespaced and self.namespace_regex not in (None, "", ".*"):
            out.append(("namespace", "=~", self.namespace_regex))
        if self.cluster is not None:
            out.append(("cluster", "=", self.cluster))
        return (*out, *extra)


def hour_read(metric: str, by: tuple[str, ...], scope: Scope, namespaced: bool = True) -> str:
    """Hour H's value of an hourly series, when evaluated at H + 2h."""
    sel = q.selector(metric, *scope.matchers(namespaced=namespaced))
    return q.agg("max", by, read.hour(sel))


def gpu_hours(scope: Scope) -> str:
    return hour_read(names.HOUR_GPU_HOURS, BILLING_LINE, scope)


def cost(scope: Scope) -> str:
    return hour_read(names.HOUR_COST, BILLING_LINE, scope)


def energy_kwh(scope: Scope) -> str:
    """Hour H's GPU energy per (cluster, namespace); the row without namespace is the unallocated line, which a
    tenant's namespace matcher never selects."""
    return hour_read(names.HOUR_ENERGY, ENERGY_LINE, scope)


def energy_cost(scope: Scope) -> str:
    return hour_read(names.HOUR_ENERGY_COST, ENERGY_LINE, scope)


def unpriced(scope: Scope) -> str:
    return hour_read(names.UNPRICED_GPU_HOURS, UNPRICED_LINE, scope)


def tenant_info_present(scope: Scope) -> str:
    """1 for every hour in which the hub rules were running (the model constants are recorded every interval)."""
    sel = q.selector(names.TENANT_INFO, *Scope(namespace=scope.namespace).matchers())
    return f"count({read.hour(sel)})"


def tenant_info_selector(scope: Scope) -> str:
    return q.selector(names.TENANT_INFO, *Scope(namespace=scope.namespace).matchers())


def cluster_billed_hour(scope: Scope, delay: int = read.READ_DELAY) -> str:
    """Per cluster, read at H + ``delay``: the hour its pushes during hour H + 1 describe (== H when the cluster
    pushed in time); with backfill (a longer ``delay``, :func:`gpudash.promql.read.delay`) H itself where some
    push delivered hour H's figures (its coverage is above 0), since the heartbeat then describes a later hour."""
    if delay == read.READ_DELAY:
        return hour_read(names.BILLED_HOUR, names.labels(names.BILLED_HOUR), scope, namespaced=False)
    covered = hour_read(names.BILLING_COVERAGE, names.labels(names.BILLING_COVERAGE), scope, namespaced=False)
    return f"({covered} > 0) * 0 + (time() - {delay})"


def recorded_lags(scope: Scope, window: int) -> str:
    """The spokes' hourly GPU-hours rows of the last ``window``, counted per value of
    :data:`~gpudash.model.series.LAG_LABEL`: without ``billing.backfill_hours`` the rows carry none, with N they
    carry 1..N + 1 (:func:`gpudash.render.rules.spoke.previous_hour`), so the labels tell the setting the data was
    recorded with."""
    sel = q.selector(names.HOURLY_GPU_HOURS, *scope.matchers())
    return q.agg("count", (names.LAG_LABEL,), f"last_over_time({sel}[{q.duration(window)}])")


def node_active_gpus(scope: Scope) -> str:
    return hour_read(names.CCSP_NODE_GPUS, NODE, scope, namespaced=False)


def node_active_sources(scope: Scope) -> str:
    """Hour H's per-node count by its source (``active_from``)."""
    return hour_read(names.CCSP_NODE_SOURCES, names.labels(names.CCSP_NODE_SOURCES), scope, namespaced=False)


# --- idle report ------------------------------------------------------------------------------------------------
def idle_recorded(scope: Scope, model_regex: str, lookback: int) -> str:
    """Pods the hub records as idle at the latest push (``names.POD_IDLE``, the one idle definition: window,
    model filters, power veto), value their cost per hour; the scope and ``model_regex`` only narrow it."""
    extra = (("gpu_model", "=~", model_regex),) if model_regex not in ("", ".*") else ()
    sel = q.selector(names.POD_IDLE, *scope.matchers(*extra))
    return q.agg("max", POD, f"last_over_time({sel}[{q.duration(lookback)}])")


def activity_history(scope: Scope, model_regex: str, pods: list[str], step: int) -> str:
    """Peak activity per pod over each ``step`` (a range query evaluates it every step)."""
    extra = [("gpu_model", "=~", model_regex)] if model_regex not in ("", ".*") else []
    if pods:
        extra.append(("pod", "=~", q.regex_alternation(pods)))
    sel = q.selector(names.POD_ACTIVITY_MAX, *scope.matchers(*extra))
    # A range 1 ms shorter than the step holds each push once under Prometheus 2 (closed) and 3 (left-open).
    return q.agg("max", POD, f"max_over_time({sel}[{q.duration(step - 0.001)}])")


def activity_seen(scope: Scope, window: int) -> str:
    """Pods with any activity sample in the window (whatever the GPU model)."""
    sel = q.selector(names.POD_ACTIVITY_MAX, *scope.matchers())
    return q.agg("max", POD, f"last_over_time({sel}[{q.duration(window)}])")


def allocated_now(scope: Scope, lookback: int) -> str:
    """GPUs each pod holds at the latest push: units per resource, with the pod's workload."""
    sel = q.selector(names.POD_ALLOCATED, *scope.matchers())
    return q.agg("max", (*POD, "product", "resource", "workload", "workload_type"),
                 f"last_over_time({sel}[{q.duration(lookback)}])") + " > 0"


def tenant_queries(namespace: str, lookback: int, window: int) -> list[tuple[str, str]]:
    """(what, PromQL) of every query ``gpudash report`` sends with ``--tenant`` (billing and idle): :func:`_sent`'s,
    made from its pieces around the namespace (a render proves every tenant's, 12,000 at 1,000 tenants)."""
    quoted = q.quote(namespace)
    return [(what, quoted.join(pieces)) for what, pieces in _pieces(lookback, window)]


_NOWHERE = "\0gpudash tenant namespace\0"  # a namespace no model holds (a NUL) and no query text holds otherwise


@lru_cache(maxsize=8)
def _pieces(lookback: int, window: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each query of :func:`_sent` split at the quoted namespace: the builders put the namespace in a query only as
    that quoted matcher value (tests/unit/test_report_queries.py holds the joined pieces equal to the queries built
    for any namespace)."""
    return tuple((what, tuple(expr.split(q.quote(_NOWHERE)))) for what, expr in _sent(_NOWHERE, lookback, window))


def _sent(namespace: str, lookback: int, window: int) -> list[tuple[str, str]]:
    """(what, PromQL) of every query ``gpudash report`` sends with ``--tenant``, built as it builds them."""
    scope = Scope(namespace=namespace)
    return [("billing gpu_hours", gpu_hours(scope)), ("billing cost", cost(scope)),
            ("billing unpriced", unpriced(scope)), ("billing energy_kwh", energy_kwh(scope)),
            ("billing energy_cost", energy_cost(scope)), ("backfill recorded", recorded_lags(scope, window)),
            ("rules installed", tenant_info_present(scope)), ("rules installed (series)", tenant_info_selector(scope)),
            ("idle recorded", idle_recorded(scope, ".*", lookback)),
            ("idle history", activity_history(scope, ".*", ["a-pod"], window)),
            ("idle activity seen", activity_seen(scope, window)), ("idle allocation", allocated_now(scope, lookback))]
