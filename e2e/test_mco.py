"""ACM MCO path: a month of raw history in one spoke Prometheus per cluster, the metrics-collector simulated
from the rendered allowlist ConfigMap (jittered and lost pushes, a 40-minute outage), the pushed samples in a
hub Prometheus, the rendered hub rule file backfilled there level by level; every hour's bill and CCSP
figures, period-to-date, the alerts the month should raise and October's invoice through
``python -m gpudash report billing`` compared with the reference model.

prod-east loses about 1 % of its pushes at random; prod-west pushes 95 s after each slot (a collector started
at another phase) and loses 40 minutes of pushes on day 20 (cyclic jitter is covered by
``test_range_equals_instant`` and the golden hub tests). Billing must not notice either (contract section 6).

As the real collector does, pushes go out with the rules that succeeded: prod-east's GPU-hours rule fails in
every push of one hour (that hour is a gap with coverage 0 and an alert, never another hour's figures) and its
CCSP rule in some pushes of another (nothing lost); prod-west's rules straddle hour boundaries on some days, and
its collector lands on a replica restarted with an empty TSDB (the cut hour is under-billed by the lost steps
only, with an alert). Every hour not lost must match the reference exactly. Daily, Prometheus 2.42 runs the month's
last days only (``MCO_DAYS``), 3.5.3 the whole month.

CCSP on MIG and time-sliced nodes (MIG mixed and single strategy, time-sliced slices of both, time-sliced whole
GPUs): on every hour where dcgm-exporter reported (the month's last day), each node's maximum on the hub equals
the physical GPUs dcgm-exporter shows holding a pod, including hours where that is more than the fewest GPUs that
could hold the allocation. A pod requesting an ``nvidia.com/`` resource no SKU has is unpriced and alerted.
Energy, pushed with the same gating: on every hour the exporters reported, each namespace's kWh and cost and the
unallocated line equal the reference's and add up to each cluster's GPU energy, a driver reload's hour included."""
from __future__ import annotations

import concurrent.futures

import pytest

from e2e import mco_sim, pipeline, toolsets
from e2e.harness import Prometheus
from gpudash.model import series as names
from gpudash.model.tenants import threshold_label
from gpudash.render.rules.spoke import rules as spoke_rules
from tests.thorough import THOROUGH

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DAY, HOUR = 1440, 60
OUTAGE = (20 * DAY + 10 * HOUR + 10, 40)  # prod-west pushes lost from day 20 10:10 for 40 minutes
LOST_HOUR = 10 * 24 + 4  # prod-east's GPU-hours rule fails in every push of the hour after (day 10 05:00-06:00)
FLAKY_HOUR = 12 * 24 + 9  # prod-east's CCSP rule fails in half the pushes of the hour after
RESTART = 15 * DAY + 14 * HOUR + 20  # prod-west's collector lands on a replica restarted with an empty TSDB
PASSTHROUGH = "nvidia_com_GA100_A100_PCIE_80GB"  # the passthrough pod's resource as kube-state-metrics names it
STRADDLE_DAYS = (3, 9, 17, 26)  # prod-west's pushes at these midnights run some rules before, some after
RESET_HOUR = 31 * 24 + 8  # prod-east's a100-0 reloads its GPU driver at 08:07 on the last day (e2e/data)
NOVEMBER = 31 * DAY  # the second month starts on day 31
# Days at the month's end each version's test collects, pushes and compares (None: all of it). Prometheus 2.42's
# range queries over `timestamp()` cost 40 times 3.5.3's, and the collector's month is most of this test's time:
# daily, 2.42 runs the last 8 days (a straddled midnight, the last day's exporters, XID, idle notebook and driver
# reload, November's first period-to-date, where the versions' lookbacks differ as in any hour) and 3.5.3 the
# whole month's story; GPUDASH_THOROUGH=1 runs the whole month on both (tests/thorough.py).
MCO_DAYS = {"2": None if THOROUGH else 8, "3": None}


def test_allowlist_decodes_as_the_collector_does(month):
    model, _, rendered = month
    allow = mco_sim.decode_allowlist(rendered / mco_sim.ALLOWLIST_FILE)
    assert [(r.record, r.expr) for r in spoke_rules(model)] == list(allow.recording_rules)
    assert "up" in allow.names and "kube_pod_container_resource_requests" in allow.names


def _slots_of_hour(hour: int, share: float = 1.0) -> list[int]:
    """Push slot indices (5-minute slots from the month start) in the hour after ``hour``."""
    first = (hour + 1) * 12
    return list(range(first, first + round(12 * share)))


def _collectors(spokes, allow, mock, model, replica, first: int = 0):
    """The two clusters' collectors, pushing from minute ``first`` (a whole day) on: the faults' slot indices
    (5-minute slots from the month start) shifted to slots from ``first``, those before it dropped."""
    interval = model.billing.mco_interval
    east, west = mock.scenario.clusters
    skip = first // 5

    def shifted(slots):
        return [k - skip for k in slots if k >= skip]

    outage = shifted(range(OUTAGE[0] // 5, (OUTAGE[0] + OUTAGE[1]) // 5))
    records = sorted(r for r, _ in allow.recording_rules)
    before_hourly = (records.index(names.HOURLY_GPU_HOURS) + 0.5) * mco_sim.Collector.RULE_SECONDS
    straddle = {d * DAY // 5 - skip: (0.07 if i % 2 else before_hourly) for i, d in enumerate(STRADDLE_DAYS)
                if d * DAY >= first}
    failures = {names.HOURLY_GPU_HOURS: shifted(_slots_of_hour(LOST_HOUR)),
                names.NODE_ACTIVE_GPUS_MAX: shifted(_slots_of_hour(FLAKY_HOUR, 0.5))}
    return [mco_sim.Collector(spokes[east], east, allow, interval, lost=shifted(sorted(_one_percent(mock))),
                              rule_failures=failures),
            mco_sim.Collector(spokes[west], west, allow, interval, jitter=(95,), lost=outage, straddle=straddle,
                              replica=replica)]


def _truth(refs, mock):
    east, west = mock.scenario.clusters
    return pipeline.HubTruth(refs, lost={(east, LOST_HOUR, "gpu_hours")}, since={(west, RESTART // 60): RESTART})


def _one_percent(mock) -> set:
    import random

    rng = random.Random(5)
    return {k for k in range(mock.scenario.duration // 5 + 1) if rng.random() < 0.01}


@pytest.mark.parametrize("toolset", toolsets.params())
def test_month_through_mco(tmp_path, prometheus_factory, e2e_cache, month, stopwatch, toolset):
    model, mock, rendered = month
    blocks, _ = pipeline.cached_blocks(e2e_cache, model, mock, toolset=toolset)
    stopwatch("history")
    spokes = {}
    for c in mock.scenario.clusters:
        spokes[c] = pipeline.prometheus_with_blocks(tmp_path / f"spoke-{c}", blocks[c], toolset=toolset)
        prometheus_factory.track(spokes[c])
    allow = mco_sim.decode_allowlist(rendered / mco_sim.ALLOWLIST_FILE)
    days = MCO_DAYS[toolset]
    first = 0 if days is None else mock.scenario.duration - days * DAY  # the minute the pushes start at
    start, end = mock.at(first), mock.at(mock.scenario.duration)
    west = mock.scenario.clusters[1]
    t0, replica = mock.at(RESTART), None
    if RESTART >= first:
        fresh = pipeline.restarted_replica(tmp_path / "spoke-restarted", blocks[west], t0, t0 + 2 * 3600,
                                           toolset=toolset)
        prometheus_factory.track(fresh)
        replica = (t0, t0 + 2 * 3600, fresh)
    collectors = _collectors(spokes, allow, mock, model, replica, first)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:  # the two spokes are separate processes
        logs = list(pool.map(lambda col: col.collect(start, end), collectors))
    for s in [*spokes.values(), *([replica[2]] if replica else [])]:
        s.stop()
    stopwatch("collector")
    files = mco_sim.write_pushes(logs, tmp_path / "pushed")
    hub = Prometheus(tmp_path / "hub", toolset=toolset)
    prometheus_factory.track(hub)
    hub.backfill_openmetrics(files)
    hub.backfill_rules([rendered / mco_sim.HUB_RULES_FILE], start, end, method="query")
    stopwatch("hub_backfill")

    refs = pipeline.references(model, mock, toolset)
    truth = _truth(refs, mock)
    hours = range(first // HOUR + (2 if first else 0), mock.scenario.duration // 60 - 2)
    problems, counts = pipeline.compare_hub(hub, model, mock, refs, hours, cluster_label=True, truth=truth)
    stopwatch("compare_hours")
    least = 1400 if not first else 0.9 * len(mock.scenario.clusters) * len(hours)
    assert counts["gpu_hours"] > least and counts["node_max"] > least, counts
    assert not problems, f"{len(problems)} mismatches (of {counts}):\n" + "\n".join(problems[:25])
    assert not pipeline.shared_ccsp_gaps(mock, counts, mock.scenario.clusters), counts["shared"]
    outage_lost = 8 if OUTAGE[0] >= first else 0
    assert len(logs[0].lost) >= (50 if not first else 10), "about 1 % of pushes were lost"
    assert len(logs[1].lost) == outage_lost, "the outage's pushes were lost"
    # energy: every hour the exporters reported (the last day), per namespace and unallocated, the counter reset too
    assert counts["energy"] >= 160 and counts["energy_reset_hours"] == [(mock.scenario.clusters[0], RESET_HOUR)], counts
    assert counts["totals"]["energy_kwh_got"] == pytest.approx(counts["totals"]["energy_kwh_expected"], rel=1e-9)
    _check_ptd(hub, rendered, model, mock, refs, logs, truth, first)
    stopwatch("compare_ptd")
    _check_alerts(hub, rendered, model, mock, truth, first)
    stopwatch("alerts")
    if not first:  # the faults of days 10 to 20 and October's invoice need October's pushes
        _check_coverage(hub, mock, truth)
        _check_report(hub, model, truth)
        stopwatch("report")


def _check_ptd(hub, rendered, model, mock, refs, logs, truth, first: int):
    """Period-to-date, at hub evaluations where allocation was stable (the estimate uses the current rate), on
    days whose month the pushes from minute ``first`` cover."""
    ptd_rule = next(r for g in _groups(rendered) for r in g["rules"] if r.get("record") == names.TENANT_COST_PTD)
    checked = 0
    if not first:
        moments = [day * DAY + 13 * HOUR for day in list(range(1, 31, 3)) + [31]]
    else:  # November's first day, the one month the pushes cover from its start
        moments = [NOVEMBER + h * HOUR for h in range(3, 23, 2)] if NOVEMBER >= first else []
    for minute in moments:
        t = mock.at(minute)
        m = pipeline.relative_minute(mock, t)
        if not all(pipeline.stable(r, m, window=20) for r in refs.values()):
            continue
        # the recorded sample at the billing group's evaluation nearest before t
        last = {lb: s[-1] for lb, s in hub.samples(names.TENANT_COST_PTD, t - 300, t)}  # per cluster and tenant
        stamps = {ts for ts, _ in last.values()}
        assert len(stamps) == 1, last
        t = stamps.pop()
        # the part since the hour before last is an estimate from the latest pushes' burn rate (contract
        # section 7); around a lost push that rate is stale, so exactness is checked where every push of the
        # last 20 minutes arrived (as allocation is required to be stable for them)
        if any(t - 20 * 60 <= p <= t for log in logs for p in log.lost):
            continue
        got: dict[str, float] = {}
        for lb, (_, v) in last.items():
            ns = dict(lb)["namespace"]
            got[ns] = got.get(ns, 0.0) + v
        exp = pipeline.expected_ptd(refs, model, mock, t, truth)
        for ns, v in exp.items():
            assert abs(got.get(ns, 0.0) - v) <= 1e-6 * max(1.0, v), (minute, ns, got, exp, ptd_rule["expr"][:80])
        checked += 1
    assert checked >= min(5 if not first else 2, len(moments)), (checked, moments)


def _check_coverage(hub, mock, truth):
    """The lost hour reads coverage 0 and the cut hour the share of steps the restarted replica held."""
    east, west = mock.scenario.clusters
    read = f"last_over_time({names.BILLING_COVERAGE}[1h] offset 1ms)"
    for cluster, hour, expected in ((east, LOST_HOUR, 0.0), (west, RESTART // 60, 40 / 60),
                                    (east, LOST_HOUR + 1, 1.0), (east, FLAKY_HOUR, 1.0)):
        got = {dict(lb)["cluster"]: v for lb, v in hub.query(read, mock.at((hour + 2) * 60))}
        assert got.get(cluster) is not None and abs(got[cluster] - expected) < 1e-9, (cluster, hour, got)
        assert abs(truth.coverage(cluster, hour) - expected) < 1e-9


def _check_report(hub, model, truth):
    """October's invoice through ``python -m gpudash report billing`` against the hub equals the reference
    model's, line by line (GPU-hours to the report's precision, cost to the cent)."""
    report = pipeline.report_billing(hub, pipeline.MODEL, "2026-10-01T00:00:00Z", "2026-11-01T00:00:00Z")
    mismatches = pipeline.statement_mismatches(report, model, truth, range(31 * 24))
    assert not mismatches, "\n".join(mismatches)
    non_tenant = [x for x in report["provider"]["lines"] if x["kind"] == "provider-gpu"]
    assert report["unpriced"] and non_tenant, "the T4 pod and the ml-sandbox pod are reported"
    assert any(x["resource"] == PASSTHROUGH and x["gpu_hours"] for x in report["unpriced"]), report["unpriced"]


def _groups(rendered):
    import yaml

    return yaml.safe_load((rendered / mco_sim.HUB_RULES_FILE).read_text())["groups"]


def _check_alerts(hub, rendered, model, mock, truth, first: int = 0):
    """The alerts this month must raise on the hub, at the times it must raise them: the last day's, and with the
    pushes from the month's start (``first`` 0) those of October."""
    alerts = pipeline.alert_rules(rendered)
    east, west = mock.scenario.clusters

    def fired(name, minute, **labels):
        rows = pipeline.firing(hub, alerts[name], mock.at(minute))
        return any(all(r.get(k) == v for k, v in labels.items()) for r in rows)

    # XID 79 (fallen off the bus) on one GPU of prod-west, last day 12:00-12:30, federated via the allowlist names;
    # that node's dcgm-exporter uses the newer host label name (the test data alternates Hostname and hostname).
    assert fired("GPUXidError", 31 * DAY + 12 * HOUR + 20, cluster=west, hostname="a100w-0", gpu="5")
    assert not fired("GPUXidError", 31 * DAY + 14 * HOUR, cluster=west)
    # The idle notebook (allocated, 0 % activity, last day 06:00-10:00) is flagged.
    assert fired("GPUAllocatedIdle", 31 * DAY + 8 * HOUR, cluster=west, namespace="team-gamma")
    if first:
        return
    # A product the model does not price (the T4 pod, day 5) is reported, never silently free.
    assert fired("GPUUsageUnpriced", 5 * DAY + 12 * HOUR, cluster=east, namespace="team-alpha")
    assert not fired("GPUUsageUnpriced", 7 * DAY + 12 * HOUR, cluster=east)
    # So is an nvidia.com/ resource no SKU has (the KubeVirt passthrough pod, day 8), on a priced product.
    assert fired("GPUUsageUnpriced", 8 * DAY + 12 * HOUR, cluster=east, namespace="team-beta",
                 resource=PASSTHROUGH)
    # A pod Pending with GPU requests for two days (day 6 to 8) is flagged.
    assert fired("GPURequestsUnscheduled", 7 * DAY, cluster=west, namespace="team-beta")
    # The 40-minute push outage of prod-west is seen as a cluster not reporting.
    assert fired("GPUClusterNotReporting", OUTAGE[0] + 35, cluster=west)
    assert not fired("GPUClusterNotReporting", OUTAGE[0] + 120, cluster=west)
    # The hour whose GPU-hours rule failed in every push, and the hour the replica restart cut, are alerted.
    assert fired("GPUBillingDataGap", (LOST_HOUR + 1) * HOUR + 50, cluster=east)
    assert fired("GPUBillingDataGap", (RESTART // 60 + 1) * HOUR + 50, cluster=west)
    assert not fired("GPUBillingDataGap", (FLAKY_HOUR + 1) * HOUR + 50, cluster=east)
    # Budget thresholds: each one the reference says is crossed in October fires two hours later, and those
    # never crossed do not fire at the end of the month.
    oct_end = 31 * DAY - 1
    for t in model.tenants:
        spent = sum(truth.period_to_date(c, oct_end - 60)[t.namespace] for c in truth.refs)
        for a in t.alert_at:
            name = "GPUBudgetExhausted" if a >= 1.0 and "GPUBudgetExhausted" in alerts else "GPUBudgetThresholdReached"
            if spent >= a * t.budget * 1.02:
                crossed = _first_crossing(truth, t, a, oct_end)
                assert fired(name, crossed + 2 * HOUR, namespace=t.namespace), (t.name, a, crossed)
            elif spent < a * t.budget * 0.98:
                assert not any(r.get("namespace") == t.namespace and r.get("threshold") in (None, threshold_label(a))
                               for r in pipeline.firing(hub, alerts[name], mock.at(oct_end - 60))
                               if name == "GPUBudgetThresholdReached" or a >= 1.0), (t.name, a)


def _first_crossing(truth, tenant, fraction, until):
    """First whole hour at which the tenant's period-to-date (exact complete hours) reaches the threshold."""
    for m in range(120, until, 60):
        if sum(truth.period_to_date(c, m)[tenant.namespace] for c in truth.refs) >= fraction * tenant.budget:
            return m
    raise AssertionError("not crossed")


@pytest.mark.parametrize("toolset", toolsets.params())
def test_range_equals_instant(tmp_path, prometheus_factory, e2e_cache, month, toolset):
    """The collector's range-query shortcut pushes exactly what one instant query per push would."""
    model, mock, rendered = month
    blocks, _ = pipeline.cached_blocks(e2e_cache, model, mock, toolset=toolset)
    east = mock.scenario.clusters[0]
    spoke = pipeline.prometheus_with_blocks(tmp_path / "spoke", blocks[east], toolset=toolset)
    prometheus_factory.track(spoke)
    allow = mco_sim.decode_allowlist(rendered / mco_sim.ALLOWLIST_FILE)
    start = mock.at(10 * DAY + 3 * HOUR)  # the trainer crash and recreation, with short jobs around
    logs = {}
    for mode in ("instant", "range"):
        col = mco_sim.Collector(spoke, east, allow, model.billing.mco_interval, jitter=(0, 37, 95), lost=[4, 5],
                                mode=mode)
        logs[mode] = col.collect(start, start + 4 * 3600)
    assert logs["instant"].pushes == logs["range"].pushes
    assert logs["instant"].samples == logs["range"].samples
    assert logs["range"].queries < logs["instant"].queries / 5
