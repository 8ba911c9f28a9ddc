"""The idle-GPU report: workloads holding GPUs that the hub records as idle.

This is gpu-pruner's dry run, read from the hub: it lists what a pruner would scale down and what it costs per
hour, and never changes anything in a cluster. It reads the recorded idle series
``cluster_namespace_pod:gpudash_gpu_idle:cost_per_hour`` (:mod:`gpudash.render.rules.idle`, the one definition the
GPUAllocatedIdle alert, dashboards and ``gpudash prune`` read: zero peak activity over ``alerts.idle.window``,
observed for the whole window, the model's filters and power veto). ``--window``, ``--namespace``, ``--model``,
``--cluster`` and ``--tenant`` only narrow it. Pods holding GPUs without any activity series are never idle
(there is no evidence either way); they are counted in a warning.

"Idle since" is the end of the last push interval in which the pod showed activity, looked for up to
``--lookback`` back (default 7d); a pod idle for longer shows the first time it was seen in that lookback. Its
precision is the ACM push interval (``billing.mco_interval``).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from gpudash.base.timestamps import rfc3339
from gpudash.model.pricing import skus
from gpudash.model.types import Model
from gpudash.ops.prometheus_client import Prometheus, nonnegative
from gpudash.ops.report import common
from gpudash.ops.report.period import MAX_POINTS
from gpudash.promql import build as q
from gpudash.promql import read
from gpudash.queries import report_queries as queries


@dataclass
class IdleWorkload:
    cluster: str
    namespace: str
    owner_kind: str
    owner_name: str
    pods: list[str]
    gpus: float  # units held by the idle pods (a MIG slice or time-sliced replica counts as one)
    resources: dict[str, float]
    idle_since: int
    cost_per_hour: float
    active_pods: int  # pods of the same workload that hold GPUs and are not idle

    @property
    def action(self) -> str:
        if self.active_pods:
            return f"none: {self.active_pods} pod(s) of it still use their GPUs"
        return "scale to 0 replicas" if self.owner_kind != "Pod" else "delete the pod"


@dataclass
class IdleReport:
    time: int
    window: int
    currency: str
    workloads: list[IdleWorkload]
    warnings: list[str] = field(default_factory=list)
    partial: bool = False  # the query API warned that some data may be missing (client.Prometheus.partial)

    @property
    def total_cost_per_hour(self) -> float:
        return sum(w.cost_per_hour for w in self.workloads)

    def to_json(self) -> dict:
        cur = self.currency
        return {
            "time": rfc3339(self.time),
            "window": q.duration(self.window),
            "currency": cur,
            "workloads": [{"cluster": w.cluster, "namespace": w.namespace, "owner_kind": w.owner_kind,
                           "owner_name": w.owner_name, "pods": w.pods, "gpus": common.round_hours(w.gpus),
                           "resources": {k: common.round_hours(v) for k, v in sorted(w.resources.items())},
                           "idle_since": rfc3339(w.idle_since),
                           "cost_per_hour": common.round_money(w.cost_per_hour, cur),
                           "active_pods": w.active_pods, "dry_run_action": w.action} for w in self.workloads],
            "total_cost_per_hour": common.round_money(self.total_cost_per_hour, cur),
            "partial": self.partial,
            "warnings": list(self.warnings),
        }


def fetch(prom: Prometheus, model: Model, at: float | None = None, window: int | None = None,
          namespace_regex: str = ".*", model_regex: str = ".*", namespace: str | None = None,
          cluster: str | None = None, lookback: int = 7 * 86400) -> IdleReport:
    """Idle workloads at ``at``: the recorded idle pods, narrowed to those idle for at least ``window`` (at least
    ``alerts.idle.window``, which the recorded series applies)."""
    at = int(time.time() if at is None else at)
    window = window or model.alerts.idle.window
    interval = model.billing.mco_interval
    scope = queries.Scope(namespace=namespace, cluster=cluster, namespace_regex=namespace_regex)
    latest = read.fresh_seconds(interval)  # the latest push, allowing for jitter (as the hub rules do)
    warnings: list[str] = []

    billed_as = {(s.product, s.ksm_resource): s.resource for s in skus(model)}
    held: dict[tuple, dict] = {}
    for labels, value in prom.query(queries.allocated_now(scope, latest), at):
        key = tuple(labels.get(k, "") for k in queries.POD)
        pod = held.setdefault(key, {"resources": {}, "workload": labels.get("workload") or key[2],
                                    "kind": labels.get("workload_type") or "Pod"})
        res = labels.get("resource", "")  # kube-state-metrics form on spoke series: show the Kubernetes name
        res = billed_as.get((labels.get("product", ""), res), res)
        pod["resources"][res] = pod["resources"].get(res, 0.0) + nonnegative(prom, labels, value)
    if not held:
        common.check_rules_installed(prom, queries.Scope(namespace=namespace), 0, read.HOUR, set(), [])
        warnings.append(f"no pod holds GPUs at {rfc3339(at)} (no push of namespace_pod:gpudash_gpus_allocated:"
                        f"running in the {q.duration(latest)} before it)")
    costs = {tuple(labels.get(k, "") for k in queries.POD): nonnegative(prom, labels, v)
             for labels, v in prom.query(queries.idle_recorded(scope, model_regex, latest), at)}
    idle = sorted(costs.keys() & held.keys())

    since = _idle_since(prom, scope, model_regex, idle, at, lookback, interval)
    since = {k: since.get(k, at - model.alerts.idle.window) for k in idle}  # recorded idle: the window at least
    idle = [k for k in idle if at - since[k] >= window]
    if held:
        with_activity = {tuple(labels.get(k, "") for k in queries.POD)
                         for labels, _ in prom.query(queries.activity_seen(scope, window), at)}
        blind = sorted(k for k in held if k not in with_activity)
        if blind and model_regex in ("", ".*"):
            shown = ", ".join(f"{ns}/{pod}" for _, ns, pod in blind[:5]) + (" ..." if len(blind) > 5 else "")
            warnings.append(f"{len(blind)} pod(s) hold GPUs but have no GPU activity series (exporter not scraped, "
                            f"or its pod labels missing), so they cannot be judged idle: {shown}")

    groups: dict[tuple, IdleWorkload] = {}
    for key in idle:
        pod = held[key]
        wkey = (key[0], key[1], pod["kind"], pod["workload"])
        w = groups.setdefault(wkey, IdleWorkload(key[0], key[1], pod["kind"], pod["workload"], [], 0.0, {}, 0, 0.0, 0))
        w.pods.append(key[2])
        for res, units in pod["resources"].items():
            w.gpus += units
            w.resources[res] = w.resources.get(res, 0.0) + units
        w.idle_since = max(w.idle_since, since[key])
        w.cost_per_hour += costs[key]
    for key, pod in held.items():
        wkey = (key[0], key[1], pod["kind"], pod["workload"])
        if wkey in groups and key[2] not in groups[wkey].pods:
            groups[wkey].active_pods += 1
    workloads = sorted(groups.values(), key=lambda w: (w.cluster, w.namespace, w.owner_kind, w.owner_name))
    for w in workloads:
        w.pods.sort()
    for warning in prom.warnings:
        if warning not in warnings:
            warnings.append(warning)
    return IdleReport(at, window, model.currency, workloads, warnings, prom.partial)


def _idle_since(prom: Prometheus, scope: queries.Scope, model_regex: str, pods: list[tuple], at: int,
                lookback: int, interval: int) -> dict[tuple, int]:
    """{pod key: time since which its peak activity has been 0}: after the last step with activity, else the
    first step it was seen within ``lookback``."""
    if not pods:
        return {}
    step = max(interval, math.ceil(lookback / MAX_POINTS))
    expr = queries.activity_history(scope, model_regex, sorted({p[2] for p in pods}), step)
    wanted, out = set(pods), {}
    for labels, values in prom.query_range(expr, at - lookback, at, step):
        key = tuple(labels.get(k, "") for k in queries.POD)
        if key not in wanted or not values:
            continue
        active = [t for t, v in values if v > 0]
        out[key] = int(active[-1]) if active else int(values[0][0])
    return out
