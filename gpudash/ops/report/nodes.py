"""The CCSP hourly report: active GPUs per worker node per UTC clock hour, and active nodes / GPUs per hour.

Read from ``cluster_node:gpudash_gpus_active:max_last_hour`` (the most GPUs allocated to Running pods on the
node at any spoke step of the hour: whole GPUs from the allocation, MIG slices and time-sliced replicas on the
physical GPUs dcgm-exporter attributes to their pods, at least the compute-share bound), with each node-hour's
sources (``active_from``: allocation, attribution, bound, exporter_down, init_unseen) from
``cluster_node_source:gpudash_gpus_active:max_last_hour``; a node-hour with exporter_down (counted by the bound while
dcgm-exporter was not seen) or init_unseen (a larger init container's fractions no exporter names, perhaps on a GPU
not counted) is named in a warning: possibly low. A node is active in an hour when that
maximum is at least 1; the hour's ``active_gpus`` is the sum of
the per-node maxima over the fleet (docs/billing-contract.md section 5). The ``summary`` has one row per clock
hour for which at least one cluster pushed its figures (``cluster:gpudash_billed_hour:start_timestamp``), zeros
included, so every such hour has an answer; hours no cluster pushed are left out with a warning ("no data" is not
"nothing active"), and a cluster of the model that missed hours is named in a warning.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from gpudash.base.timestamps import rfc3339
from gpudash.model import series as names
from gpudash.model.types import Model
from gpudash.ops.prometheus_client import Prometheus
from gpudash.ops.report import common
from gpudash.promql.read import HOUR
from gpudash.queries import report_queries as queries


@dataclass
class NodesReport:
    start: int
    end: int
    readable_end: int
    rows: list[tuple[int, str, str, int]]  # (hour, cluster, node, active GPUs >= 1), sorted
    summary: list[tuple[int, int, int]]  # (hour, active nodes, active GPUs)
    warnings: list[str] = field(default_factory=list)
    sources: dict[tuple[int, str, str], tuple[str, ...]] = field(default_factory=dict)  # a row's active_from values
    partial: bool = False  # the query API warned that some data may be missing (client.Prometheus.partial)

    def to_json(self) -> dict:
        return {
            "start": rfc3339(self.start),
            "end": rfc3339(self.end),
            "hours": [{"hour": rfc3339(h), "cluster": c, "node": n, "active_gpus": g,
                       "active_from": list(self.sources.get((h, c, n), ()))} for h, c, n, g in self.rows],
            "summary": [{"hour": rfc3339(h), "active_nodes": n, "active_gpus": g} for h, n, g in self.summary],
            "complete_until": rfc3339(self.readable_end),
            "partial": self.partial,
            "warnings": list(self.warnings),
        }


# the sources that make a node-hour's count a lower bound, and why (docs/billing-contract.md section 5)
POSSIBLY_LOW = {
    names.FROM_EXPORTER_DOWN: f"counted by the compute-share bound while {names.FRACTION_EXPORTERS} was down "
                              "(possibly low; MIG slices or time-sliced replicas)",
    names.FROM_INIT_UNSEEN: "holding a larger init container's MIG slices or time-sliced replicas that no exporter "
                            "names, on GPUs that may not be counted (possibly low)",
}


def _possibly_low(sources: dict[tuple[int, str, str], set[str]], per_node: dict) -> list[str]:
    """One warning per :data:`POSSIBLY_LOW` source naming the node-hours counted with it."""
    out = []
    for source, why in POSSIBLY_LOW.items():
        hit = sorted(k for k, v in sources.items() if source in v and k in per_node)
        if hit:
            where = sorted({f"{c}/{n}" if c else n for _, c, n in hit})
            out.append(f"{len(hit)} node-hour(s) {why}: {', '.join(where)} at "
                       f"{common.describe_hours(sorted({h for h, _, _ in hit}))}")
    return out


def fetch(prom: Prometheus, model: Model, start: int, end: int, cluster: str | None = None,
          now: float | None = None, progress=None) -> NodesReport:
    now = time.time() if now is None else now
    scope = queries.Scope(cluster=cluster)
    delay, readable_end, warnings = common.readable_window(model, start, end, now)
    data = common.read_hourly(prom, {"nodes": queries.node_active_gpus(scope),
                                     "sources": queries.node_active_sources(scope),
                                     "pushed": queries.cluster_billed_hour(scope, delay),
                                     "info": queries.tenant_info_present(queries.Scope())},
                              start, readable_end, delay, progress)
    common.check_recorded_backfill(prom, model, scope, start, end, now)
    common.check_rules_installed(prom, queries.Scope(), start, readable_end,
                                 {h for _, h, v in data["info"] if v > 0}, warnings)
    per_node: dict[tuple[int, str, str], int] = {}
    for labels, hour, value in data["nodes"]:
        gpus = int(round(value))
        if gpus >= 1:
            key = (hour, labels.get("cluster", ""), labels.get("node", ""))
            per_node[key] = max(per_node.get(key, 0), gpus)
    rows = sorted((h, c, n, g) for (h, c, n), g in per_node.items())
    sources: dict[tuple[int, str, str], set[str]] = {}
    for labels, hour, _ in data["sources"]:
        key = (hour, labels.get("cluster", ""), labels.get("node", ""))
        sources.setdefault(key, set()).add(labels.get(names.ACTIVE_FROM_LABEL, ""))
    warnings += _possibly_low(sources, per_node)
    pushed = common.pushed_hours(data["pushed"])
    clusters = model.clusters if cluster is None else (cluster,)
    answered = {h for c, hours in pushed.items() if cluster is None or c == cluster for h in hours}
    answered |= {h for h, _, _, _ in rows}
    by_hour: dict[int, list[int]] = {}
    for h, _, _, g in rows:
        by_hour.setdefault(h, []).append(g)
    summary = [(h, len(by_hour.get(h, ())), sum(by_hour.get(h, ()))) for h in range(start, readable_end, HOUR)
               if h in answered]
    if readable_end > start:
        if not answered:
            warnings.append("no cluster pushed CCSP figures in the period: the report is empty")
        else:
            warnings += common.missing_cluster_warnings(clusters, pushed, start, readable_end, "CCSP data")
            unanswered = sorted(set(range(start, readable_end, HOUR)) - answered)
            if unanswered:
                warnings.append(f"{len(unanswered)} hour(s) have no summary row because no cluster pushed figures "
                                f"for them: {common.describe_hours(unanswered)}")
    for w in prom.warnings:
        if w not in warnings:
            warnings.append(w)
    return NodesReport(start, end, readable_end, rows, summary, warnings,
                       {k: tuple(sorted(v)) for k, v in sources.items() if k in per_node}, prom.partial)
