"""Is every cluster pushing, and does the last complete hour cover all of its steps? The heartbeat is gpudash's
``cluster:gpudash_billed_hour:start_timestamp``, pushed by every cluster at every push, GPUs or not.
"""
from __future__ import annotations

from gpudash.model import alert_names as an
from gpudash.model import series as names
from gpudash.model.types import Model
from gpudash.promql import build as q
from gpudash.promql import read
from gpudash.render.alerts import common as c
from gpudash.render.alerts import promtool as pt


def not_reporting_for(model):
    return c.pushes(model, 3)


def gap_for(model):
    return c.pushes(model, 3)


def _not_reporting_text(cluster):
    return (f"No gpudash data has arrived from cluster {cluster} for the last pushes: its metrics-collector "
            "stopped pushing or the gpudash allowlist is missing there. GPU time on it is not billed until pushes "
            "resume; an hour is lost when no push arrives during the hour after it.")


def _gap_text(cluster, share, backfill: int = 0):
    if backfill:
        return (f"The billed figures of the hour the hub settled last ({backfill + 1} hours ago) of cluster "
                f"{cluster} cover {share} of its spoke steps: GPU time in the rest of the hour is not billed. Either "
                f"no push carried the hour (every push lost for more than {backfill} hours), an hourly gpudash rule "
                "failed in every push that carried it, or the spoke Prometheus had no data for part of the hour "
                "(restarted with an empty TSDB, kube-state-metrics down, a spoke-tier rule failed or missed).")
    return (f"The billed figures of the last complete hour of cluster {cluster} cover {share} of its spoke steps: "
            "GPU time in the rest of the hour is not billed. Either an hourly gpudash rule failed in every push "
            "of the hour (the collector pushes the rules that succeed), or the spoke Prometheus had no data for "
            "part of the hour (restarted with an empty TSDB, kube-state-metrics down, a spoke-tier rule failed "
            "or missed).")


def not_reporting(model: Model):
    """One rule for the model's clusters: ``absent_over_time`` per cluster (each names its cluster), off when the
    heartbeat carries no cluster label (a single cluster, where ``cluster`` is only an external label)."""
    heartbeat = names.BILLED_HOUR
    single = c.fresh(model, q.selector(heartbeat, ("cluster", "=", "")))
    fresh = read.fresh_range(c.push(model))
    absent = " or ".join(f"absent_over_time({q.selector(heartbeat, ('cluster', '=', cluster))}[{fresh}])"
                         for cluster in model.clusters)
    return c.provider_alert(
        model, an.CLUSTER_NOT_REPORTING, f"({absent}) unless on () {single}", not_reporting_for(model), "critical",
        summary="A cluster of the model sends no gpudash data to the hub.",
        description=_not_reporting_text(c.label("cluster")),
        help=f"A cluster of the model's clusters list pushed no {heartbeat}"
             "\n(sent at every push, GPUs or not): nothing it runs is billed while it is silent.",
        threshold=f"no push from a `clusters` entry in {fresh}; "
                  f"for {q.duration(not_reporting_for(model))}")


def gap(model: Model):
    return c.provider_alert(
        model, an.BILLING_DATA_GAP, f"{names.BILLING_COVERAGE} < 1", gap_for(model), "critical",
        summary="The last complete hour of a cluster is billed from incomplete data.",
        description=_gap_text(c.label("cluster"), c.VALUE_PERCENT, model.billing.backfill_hours),
        help="The hour before this one is under-billed on a cluster: an hourly spoke rule failed in every"
             "\npush of this hour (the hour is missing, never taken from another hour), or the spoke"
             "\nPrometheus had no data for part of it. Pushes carry the previous hour, so lost pushes alone"
             "\nlose nothing while one push of the hour arrives.",
        threshold=f"`{names.BILLING_COVERAGE}` < 1; for {q.duration(gap_for(model))}")


# --- promtool tests ----------------------------------------------------------------------------------------------

def not_reporting_tests(model: Model) -> list[dict]:
    """The first cluster stops pushing; the others keep going. On a single cluster (no cluster label) the
    per-cluster checks stay quiet."""
    stop = 3
    absent_from = stop + 2  # no sample in [t - 1.5 P, t] from here on
    fire = absent_from + pt.steps(model, not_reporting_for(model))
    total = fire + 2
    first, *others = model.clusters
    hour = 0.0
    inputs = [pt.series(names.BILLED_HOUR, {"cluster": first}, [hour] * (stop + 1) + [None] * (total - stop - 1))]
    inputs += [pt.series(names.BILLED_HOUR, {"cluster": other}, [hour] * total) for other in others]
    fired = pt.provider_alert(model, (not_reporting(model),), an.CLUSTER_NOT_REPORTING,
                              {"cluster": first, "severity": "critical"}, _not_reporting_text(first))
    multi = pt.test_group(model, "a cluster of the model stops pushing", inputs, [
        pt.case(model, stop, an.CLUSTER_NOT_REPORTING),
        pt.case(model, fire - 1, an.CLUSTER_NOT_REPORTING),
        pt.case(model, fire, an.CLUSTER_NOT_REPORTING, [fired]),
    ])
    single = pt.test_group(model, "a single cluster: series without a cluster label", [
        pt.series(names.BILLED_HOUR, {}, [hour] * total)], [pt.case(model, fire, an.CLUSTER_NOT_REPORTING)])
    return [multi, single]


def gap_tests(model: Model) -> list[dict]:
    """The coverage of the last hour drops to a half (fires after the hold) and to 0 (a rule that failed all
    hour); a complete hour stays quiet."""
    cluster = model.clusters[0]
    hold = pt.steps(model, gap_for(model))
    total = hold + 3
    inputs = [
        pt.series(names.BILLING_COVERAGE, {"cluster": cluster}, [0.5] * total),
        pt.series(names.BILLING_COVERAGE, {"cluster": "gpudash-lost"}, [1.0] * 2 + [0.0] * (total - 2)),
        pt.series(names.BILLING_COVERAGE, {"cluster": "gpudash-complete"}, [1.0] * total),
    ]
    rules = (gap(model),)
    half = pt.provider_alert(model, rules, an.BILLING_DATA_GAP, {"cluster": cluster, "severity": "critical"},
                             _gap_text(cluster, c.percent(0.5), model.billing.backfill_hours))
    lost = pt.provider_alert(model, rules, an.BILLING_DATA_GAP, {"cluster": "gpudash-lost", "severity": "critical"},
                             _gap_text("gpudash-lost", c.percent(0), model.billing.backfill_hours))
    return [pt.test_group(model, "the last hour is billed from part of its steps, or not at all", inputs, [
        pt.case(model, hold - 1, an.BILLING_DATA_GAP),
        pt.case(model, hold, an.BILLING_DATA_GAP, [half]),
        pt.case(model, hold + 2, an.BILLING_DATA_GAP, sorted([half, lost], key=pt.order)),
    ])]
