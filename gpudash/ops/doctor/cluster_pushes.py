"""What the clusters push reaches the hub: each cluster's heartbeat fresh and on the model's interval, its hours
billed, its missing inputs, the cluster label on every tenant series."""
from __future__ import annotations

import statistics

from gpudash.model import series as names
from gpudash.model.types import Model
from gpudash.ops.doctor.check import FAIL, OK, WARN, Check, label_values
from gpudash.ops.prometheus_client import Prometheus, nonnegative
from gpudash.promql import build as q
from gpudash.promql import read
from gpudash.render.rules import inputs

INTERVAL_TOLERANCE = 0.2  # a median push spacing this far (relative) from billing.mco_interval fails


def _ages(prom: Prometheus, now: float) -> dict[str, float]:
    return {labels.get("cluster", ""): v for labels, v in
            prom.query(f"time() - max by (cluster) (timestamp({names.BILLED_HOUR}))", now)}


def clusters(prom: Prometheus, model: Model, role: str, now: float) -> tuple[str, ...]:
    """The clusters to check: the model's on the hub; on a single cluster the one its heartbeat names."""
    return model.clusters if role == "hub" else tuple(sorted(_ages(prom, now))) or ("",)


def shown(cluster: str) -> str:
    return cluster or "this cluster"  # a single cluster's heartbeat has no cluster label (no collector adds it)


def pushes(prom: Prometheus, model: Model, expected: tuple[str, ...], now: float) -> list[Check]:
    """Each cluster's heartbeat is within the hub's freshness window (what every hub read sees as "now")."""
    limit = read.fresh_seconds(model.billing.mco_interval)
    ages = _ages(prom, now)
    out = []
    for cluster in expected:
        age = ages.get(cluster)
        if age is not None and age < 0:  # a sample stamped after our "now": the clocks disagree
            out.append(Check(f"push from {shown(cluster)}", FAIL, f"last push stamped {-age:.0f}s in the future",
                             "synchronise the clocks (NTP) of this machine, the hub and the cluster"))
        elif age is None or age > limit:
            found = "never pushed (within the lookback)" if age is None else f"last push {age:.0f}s ago"
            out.append(Check(f"push from {shown(cluster)}", FAIL, found,
                             "check the cluster's metrics-collector (ACM observability add-on) and the allowlist"))
        else:
            out.append(Check(f"push from {shown(cluster)}", OK, f"last push {age:.0f}s ago"))
    return out


def push_intervals(prom: Prometheus, model: Model, expected: tuple[str, ...], now: float) -> list[Check]:
    """Each cluster pushes every ``billing.mco_interval`` (the metrics-collector's interval): the median spacing
    of its heartbeat samples over the last ten intervals, read as the distinct sample timestamps of a range
    query stepping ten times per interval."""
    want = model.billing.mco_interval
    out = []
    for cluster in expected:
        heartbeat = f"timestamp({q.selector(names.BILLED_HOUR, ('cluster', '=', cluster))})"
        rows = prom.query_range(heartbeat, now - 10 * want, now, want / 10)
        stamps = sorted({v for _, values in rows for _, v in values})
        name = f"push interval of {shown(cluster)}"
        if len(stamps) < 2:
            out.append(Check(name, WARN, f"cannot tell yet: {len(stamps)} push(es) in the last {10 * want}s"))
            continue
        spacing = statistics.median(b - a for a, b in zip(stamps, stamps[1:]))
        if abs(spacing - want) > INTERVAL_TOLERANCE * want:
            out.append(Check(name, FAIL, f"pushes every {spacing:.0f}s, billing.mco_interval is {want}s",
                             "set billing.mco_interval to the MultiClusterObservability CR's "
                             "observabilityAddonSpec.interval (or the other way round) and re-render"))
        else:
            out.append(Check(name, OK, f"pushes every {spacing:.0f}s as billing.mco_interval says"))
    return out


def billed_hours(prom: Prometheus, model: Model, expected: tuple[str, ...], now: float) -> list[Check]:
    """The last hour's coverage series exist for the clusters that push: the hub rules turn pushes into billed
    hours (a cluster that does not push fails its push check instead)."""
    if not expected:
        return []
    coverage = {labels.get("cluster", ""): nonnegative(prom, labels, v)
                for labels, v in prom.query(names.BILLING_COVERAGE, now)}
    absent = [c for c in expected if c not in coverage]
    if absent:
        return [Check("billed hours", FAIL, f"no {names.BILLING_COVERAGE} for {', '.join(map(shown, absent))}",
                      "install the hub rules (mco/thanos-ruler-custom-rules) and check that the clusters push")]
    short = {c: v for c, v in coverage.items() if c in expected and v < 1}
    if short:
        covered = ", ".join(f"{shown(c)} {v:.0%}" for c, v in short.items())
        late = model.billing.backfill_hours
        hint = (f"the hub settles an hour {late + 1} hours after it ends (billing.backfill_hours): a cluster "
                f"connected less than {late + 2} hours ago shows 0 until then" if late else
                "a cluster that started this hour covers less")
        return [Check("billed hours", WARN, f"last {'settled ' if late else ''}hour covered {covered}",
                      f"{hint}; else see GPUBillingDataGap")]
    return [Check("billed hours", OK, f"last hour fully covered on {len(coverage)} cluster(s)")]


def pushed_inputs(prom: Prometheus, model: Model, now: float) -> list[Check]:
    """On the hub: the inputs each cluster's last push reports missing (what GPUBillingInputMissing fires on)."""
    name = "billing inputs of the clusters"
    rows = prom.query(read.now(names.INPUT_MISSING, model.billing.mco_interval), now)
    if not rows:
        return [Check(name, OK, "no cluster reports a missing input")]
    out = []
    for labels, value in sorted(rows, key=lambda r: sorted(r[0].items())):
        what = labels.get("input", "")
        node = f" node {labels['node']}: {value:.0f}" if labels.get("node") else ""
        out.append(Check(name, FAIL, f"{shown(labels.get('cluster', ''))}{node}: {inputs.CAUSE.get(what, what)}",
                         inputs.FIX.get(what, "")))
    return out


def tenant_clusters(prom: Prometheus, model: Model, now: float) -> list[Check]:
    """No gpudash tenant series (a row with a ``namespace``) lacks ``cluster`` (ACM's rbac-query-proxy would hide or
    leak it). A hub settle's sentinel row has no namespace: on a single cluster it carries no cluster either."""
    bare = label_values(prom, '{__name__=~"cluster_namespace.*:gpudash_.+", cluster="", namespace!=""}', "__name__",
                        now)
    if bare:
        return [Check("tenant series carry cluster", FAIL, f"without cluster: {', '.join(sorted(bare))}",
                      "set the cluster external label (single cluster) or re-render the hub rules")]
    return [Check("tenant series carry cluster", OK, "every tenant series has a cluster")]
