"""The golden reference model and synthesiser on tiny scenarios, with expectations worked out by hand from
docs/billing-contract.md (never from running the code)."""
import dataclasses

import pytest

from gpudash.model import series as names
from gpudash.model.types import (
    Alerts,
    Billing,
    Exporter,
    GpuClass,
    Grafana,
    IdleAlerts,
    MigProfile,
    Model,
    Sources,
    Tenant,
    TenantDatasource,
)
from gpudash.render.golden.emit import HubView
from gpudash.simulation import scenario as sc
from gpudash.simulation.devices import exporter_visible
from gpudash.simulation.notation import notation
from gpudash.simulation.pushes import Lagged, Pushed, push_results, pushed_samples, rule_content, rule_samples
from gpudash.simulation.reference import Reference, period_start
from gpudash.simulation.series import scrape, synthesise

A100 = GpuClass("a100", "nvidia", ("NVIDIA A100-SXM4-80GB",), 3.0, "A100-80GB",
                (MigProfile("1g.10gb", 1, 1, 0.5, "model", "nvidia.com/mig-1g.10gb"),
                 MigProfile("3g.40gb", 3, 4, 1.5, "model", "nvidia.com/mig-3g.40gb")), 1.0)
L40S = GpuClass("l40s", "nvidia", ("NVIDIA L40S",), 1.2, None, (), 0.3, time_slicing_replicas=4)
MODEL = Model(
    "USD", Billing("monthly", 60, 300, 3600),
    Sources("ksm", dcgm=Exporter("dcgm", "namespace"), amd=Exporter("amd", "namespace"), amd_metric_prefix="",
            nvidia_product_label="label_nvidia_com_gpu_product", amd_product_label="label_amd_com_gpu_product_name",
            amd_partition_label="label_amd_com_gpu_compute_memory_partition"),
    (A100, L40S),
    (Tenant("alpha", "team-a", 10.0, (0.5, 1.0), (), "r"), Tenant("beta", "team-b", 100.0, (1.0,), (), "r")),
    ("east", "west"),
    Alerts("", "", "provider", 2.0, IdleAlerts(1800, ".*", ".*", 0.0)),
    Grafana("", TenantDatasource("thanos-querier", "", ""), "GPU"))
LINE = ("east", "team-a", "a100", "nvidia.com/gpu")
PRODUCT = "NVIDIA-A100-SXM4-80GB"


def scenario(pods, nodes=None, faults=(), duration="2h", **extra):
    nodes = nodes or [{"name": "n1", "gpu": {"class": "a100"}, "count": 8}]
    raw = {"name": "t", "protects": "p", "duration": duration, "nodes": nodes, "pods": pods, "faults": list(faults),
           **extra}
    return sc.resolve(raw, MODEL)


def pod(lifecycle, requests=None, init=None, **extra):
    out = {"name": "p", "tenant": 0, "node": "n1", "lifecycle": lifecycle,
           "containers": [{"name": f"c{i}", "requests": r} for i, r in enumerate(requests or [{"gpu": 1}])]}
    if init:
        out["init_containers"] = [{"name": f"i{i}", "requests": r} for i, r in enumerate(init)]
    return out | extra


def hours(s, hour=0):
    return Reference(s, MODEL).billing(hour)


def test_running_minutes_are_billed_per_step():
    # Running at 10m, Succeeded at 40m: steps 10..39 -> 30 steps x 2 GPUs x 1/60 h = 1.0 GPU-hour, 3.0 USD.
    s = scenario([pod([{"at": "0m", "phase": "Pending"}, {"at": "10m", "phase": "Running"},
                       {"at": "40m", "phase": "Succeeded"}], [{"gpu": 2}])])
    assert hours(s) == {LINE: (1.0, 3.0)}
    assert hours(s, 1) == {}


def test_bound_pending_is_not_billed():
    # Bound at 5m but Pending until 25m: only steps 25..59 count.
    s = scenario([pod([{"at": "0m", "phase": "Pending"}, {"at": "5m", "phase": "Pending", "node": "n1"},
                       {"at": "25m", "phase": "Running"}])])
    assert hours(s)[LINE][0] == pytest.approx(35 / 60)


def test_deleted_pod_stops_at_once():
    s = scenario([pod([{"at": "0m", "phase": "Running"}, {"at": "47m", "deleted": True}], [{"gpu": 3}])])
    assert hours(s)[LINE][0] == pytest.approx(47 * 3 / 60)


@pytest.mark.parametrize("init, apps, expected", [([{"gpu": 2}], [{"gpu": 1}], 2),
                                                  ([{"gpu": 1}], [{"gpu": 1}, {"gpu": 1}], 2)])
def test_effective_request_is_max_of_init_and_app_sum(init, apps, expected):
    s = scenario([pod([{"at": "0m", "phase": "Running"}], apps, init)])
    assert hours(s) == {LINE: (expected, expected * 3.0)}


def test_missed_scrapes_are_bridged_and_a_ksm_restart_is_not():
    running = [pod([{"at": "0m", "phase": "Running"}])]
    missed = scenario(running, faults=[{"kind": "missed_scrapes", "at": "20m", "minutes": 4}])
    assert hours(missed)[LINE][0] == 1.0
    # Down from 30m for 7 minutes: steps 30..36 see stale series -> 53 of 60 minutes billed.
    down = scenario(running, faults=[{"kind": "ksm_restart", "at": "30m", "minutes": 7}])
    assert hours(down)[LINE][0] == pytest.approx(53 / 60)


def test_ha_duplicates_count_once():
    s = scenario([pod([{"at": "0m", "phase": "Running"}], [{"gpu": 2}])], faults=[{"kind": "ksm_duplicate"}])
    assert hours(s) == {LINE: (2.0, 6.0)}


def test_mig_slices_priced_per_profile_and_counted_by_compute_share():
    layout = {"strategy": "mixed", "layout": {"1g": 4, "3g": 1}}
    node = [{"name": "n1", "gpu": {"mig": True}, "count": 1, "mig": layout}]
    s = scenario([pod([{"at": "0m", "phase": "Running"}], [{"mig-1g": 2}, {"mig-3g": 1}])], node)
    ref = Reference(s, MODEL)
    assert ref.billing(0) == {("east", "team-a", "a100", "nvidia.com/mig-1g.10gb"): (2.0, 1.0),
                              ("east", "team-a", "a100", "nvidia.com/mig-3g.40gb"): (1.0, 1.5)}
    # 2 x 1/7 + 3/7 = 5/7 of a GPU -> 1 active GPU.
    assert ref.node_max(0) == {("east", "n1"): 1}


def test_mig_single_strategy_bills_gpu_requests_as_slices():
    node = [{"name": "n1", "gpu": {"mig": True}, "count": 1, "mig": {"strategy": "single", "profile": "1g"}}]
    s = scenario([pod([{"at": "0m", "phase": "Running"}], [{"gpu": 3}])], node)
    assert hours(s) == {("east", "team-a", "a100", "nvidia.com/mig-1g.10gb"): (3.0, 1.5)}


def test_time_sliced_replicas():
    node = [{"name": "n1", "gpu": {"time_slicing": True}, "count": 1, "time_slicing": {"rename": False}}]
    s = scenario([pod([{"at": "0m", "phase": "Running"}], [{"gpu": 3}])], node)
    ref = Reference(s, MODEL)
    assert ref.billing(0) == {("east", "team-a", "l40s", "nvidia.com/gpu.shared"): (3.0, pytest.approx(0.9))}
    assert ref.node_max(0) == {("east", "n1"): 1}  # 3 x 1/4 -> 1 GPU


def test_ccsp_hourly_max_and_fleet():
    s = scenario([pod([{"at": "0m", "phase": "Running"}]),
                  pod([{"at": "5m", "phase": "Running"}, {"at": "15m", "phase": "Succeeded"}], name="q")])
    ref = Reference(s, MODEL)
    assert ref.node_max(0) == {("east", "n1"): 2}
    assert ref.fleet(0) == {"east": (1, 2)}


def test_unknown_product_is_unpriced():
    node = [{"name": "n1", "gpu": {"product": "NVIDIA Tesla T4"}, "count": 1}]
    s = scenario([pod([{"at": "0m", "phase": "Running"}])], node)
    ref = Reference(s, MODEL)
    assert ref.billing(0) == {}
    assert ref.unpriced(0) == {("east", "team-a", "NVIDIA-Tesla-T4", "nvidia_com_gpu"): 1.0}


def test_period_to_date_and_thresholds():
    # 1 GPU at 3 USD/h from 0: at 2h, hour 0 is complete (3) plus the rate for the hour since (3) = 6.
    s = scenario([pod([{"at": "0m", "phase": "Running"}])])
    ref = Reference(s, MODEL)
    assert ref.period_to_date(120) == {"team-a": 6.0, "team-b": 0.0}
    assert ref.thresholds_crossed(120) == {"alpha": (0.5,), "beta": ()}
    # In the first hour of a period only the time since the period start counts.
    assert ref.period_to_date(30) == {"team-a": 1.5, "team-b": 0.0}
    assert period_start(31 * 24 * 60 + 5) == 31 * 24 * 60  # February 1970 starts 31 days after the epoch


def test_threshold_checks_read_each_tenant_s_own_total_under_its_own_model():
    """The period-to-date checks (emit._ptd_checks) keep each model's thresholds (emit._thresholds) for the last
    model and read only the tenants with a cost: their rows are the definition's -- a tenant's threshold f is
    crossed when its total reaches f x its budget, a tenant without cost (0.0) too when that is 0 -- through models
    met one after another (a budget of 0, other fractions)."""
    from gpudash.model.tenants import threshold_label
    from gpudash.render.golden.emit import _check, _ptd_checks

    alpha, beta = MODEL.tenants
    zero = dataclasses.replace(MODEL, tenants=(alpha, dataclasses.replace(beta, budget=0.0)))
    low = dataclasses.replace(MODEL, tenants=(dataclasses.replace(alpha, alert_at=(0.25, 0.6)), beta))  # 6 at 2h
    s = scenario([pod([{"at": "0m", "phase": "Running"}])], duration="5h")
    crossed_zero, reached = [], []
    for model in (MODEL, zero, low, MODEL, zero):
        ref = Reference(s, model)
        for minute in (60, 120, 180, 300):
            total = ref.period_to_date(minute)
            rows = {(t.namespace, t.name, threshold_label(f)): 1 for t in model.tenants for f in t.alert_at
                    if total[t.namespace] >= f * t.budget}
            keys = ("namespace", "tenant", "threshold")
            spoke, crossed = _ptd_checks(ref, model, minute, cluster_label=False)
            assert crossed["exp_samples"] == _check("x", minute, rows, keys, metric=False)["exp_samples"]
            totals = {(t.namespace, t.name): total[t.namespace] for t in model.tenants}
            assert spoke["exp_samples"] == _check("x", minute, totals, keys[:2], metric=False)["exp_samples"]
            crossed_zero.append(("team-b", "beta", threshold_label(1.0)) in rows)
            reached.append(model is low and rows.get(("team-a", "alpha", threshold_label(0.6)), 0) and minute)
    assert crossed_zero == [False] * 4 + [True] * 4 + [False] * 8 + [True] * 4 and 120 in reached


def test_skips_what_the_model_cannot_run():
    with pytest.raises(sc.Skip, match="3 clusters"):
        scenario([pod([{"at": "0m", "phase": "Running"}])], clusters=3)
    with pytest.raises(sc.Skip, match="no GPU class"):
        scenario([pod([{"at": "0m", "phase": "Running"}])], [{"name": "n1", "gpu": {"vendor": "amd"}}])


def test_an_unknown_check_is_refused():
    with pytest.raises(ValueError, match=r"unknown checks \['budget'\]"):
        scenario([pod([{"at": "0m", "phase": "Running"}])], checks=["budget", "labels"])


def test_hub_view_takes_each_series_from_its_own_pushes_of_the_current_hour():
    s = scenario([pod([{"at": "0m", "phase": "Running"}])], duration="3h")
    ref = Reference(s, MODEL)
    line = ("east", "team-a", PRODUCT, "nvidia_com_gpu")
    samples = [Pushed("gpu_hours", m, rule_content(ref, "gpu_hours", m)) for m in (60, 115)]
    hub = HubView(ref, samples + [Pushed("billed_hour", 125, rule_content(ref, "billed_hour", 125))])
    assert hub.at(115)["gpu_hours"] == {line: 1.0}
    assert hub.at(125)["gpu_hours"] == {}  # its latest sample was evaluated in the previous hour
    assert hub.at(125)["coverage"] == {("east",): 0.0}  # the cluster pushed, the hourly rule never ran


def test_a_lagged_push_is_one_result_carrying_each_earlier_hour():
    """With billing.backfill_hours N a push's hourly rule is one Lagged result of lags 1..N + 1 (only the hours
    before ``before``: the settling pushes), which the hub view and the pushed series read lag by lag."""
    model = dataclasses.replace(MODEL, billing=dataclasses.replace(MODEL.billing, backfill_hours=2))
    s = sc.resolve({"name": "t", "protects": "p", "duration": "5h", "faults": [],
                    "nodes": [{"name": "n1", "gpu": {"class": "a100"}, "count": 8}],
                    "pods": [pod([{"at": "0m", "phase": "Running"}])]}, model)
    ref = Reference(s, model)
    (r,) = push_results(ref, "gpu_hours", 185)
    assert isinstance(r, Lagged) and r.lags == range(1, 4)
    assert r.contents == tuple(rule_content(ref, "gpu_hours", 185, lag=k) for k in (1, 2, 3))
    assert [x.lags for x in push_results(ref, "gpu_hours", 185, before=2)] == [range(2, 4)]  # hours 1 and 0
    assert push_results(ref, "gpu_hours", 185, before=0) == []
    line = ("east", "team-a", PRODUCT, "nvidia_com_gpu")
    hub = HubView(ref, rule_samples(s, model, ref))
    assert hub.at(235)["gpu_hours"] == {line: 1.0}  # hour 0 from its lag 3, pushed in hour 3
    assert hub.at(239)["gpu_hours"] == hub.final(0, 5)["gpu_hours"]
    rows = {dict(k)[names.LAG_LABEL]: v for k, v in pushed_samples(s, model, ref).items()
            if dict(k)["__name__"] == names.HOURLY_GPU_HOURS and names.SENTINEL_LABEL not in dict(k)}
    assert rows["3"] == {t: 1.0 for t in range(180, 301, 5)}  # hours 0 to 2, by the pushes 3 hours later


def test_an_hours_cost_on_the_hub_is_its_final_figures_cost():
    """The period-to-date's hour costs (emit.HubView.hour_costs) fold the GPU-hours and energy alone: the costs of
    :meth:`HubView.final`'s figures at every hour, with backfill, a lost push, a failed rule and a restarted
    replica; and an hour's costs are its own (the pushes of other hours and kinds are not read as its)."""
    model = dataclasses.replace(MODEL, billing=dataclasses.replace(MODEL.billing, backfill_hours=2))
    s = sc.resolve({"name": "t", "protects": "p", "duration": "6h", "pods": [
        pod([{"at": "0m", "phase": "Running"}, {"at": "2h10m", "phase": "Succeeded"}]),
        pod([{"at": "70m", "phase": "Running"}], name="q", tenant=1, utilisation=50)],
        "nodes": [{"name": "n1", "gpu": {"class": "a100"}, "count": 8}],
        "faults": [{"kind": "mco_missed", "pushes": [125, 190]}, {"kind": "spoke_restart", "at": "200m"},
                   {"kind": "mco_rule_failed", "pushes": [245], "rules": ["gpu_hours"]}]}, model)
    ref = Reference(s, model)
    hub = HubView(ref, rule_samples(s, model, ref))
    costs = []
    for h in range(6):
        final = hub.final(h, 5)
        costs.append(hub.hour_costs(h, 5))
        assert costs[-1] == ref.hour_costs(final["gpu_hours"], final["energy"]), h
    assert len({tuple(c.items()) for c in costs if c}) >= 3


def test_a_restarted_replica_under_counts_only_the_steps_it_lost():
    s = scenario([pod([{"at": "0m", "phase": "Running"}])], duration="3h",
                 faults=[{"kind": "spoke_restart", "at": "90m"}])
    ref = Reference(s, MODEL)
    hub = HubView(ref, rule_samples(s, MODEL, ref))
    line = ("east", "team-a", PRODUCT, "nvidia_com_gpu")
    assert hub.final(0, 5)["gpu_hours"] == {line: 1.0}  # pushes before the restart carried the whole hour
    assert hub.final(1, 5)["gpu_hours"] == {line: 0.5}  # the replica only holds 90m-120m of hour 1
    assert hub.final(1, 5)["coverage"] == {("east",): 0.5}


def test_notation_and_staleness():
    assert notation([1, 1, 1, None, None, "stale", 2.5]) == "1x2 _x2 stale 2.5"
    # A series missing from a scrape that had it gets a stale marker; a down target marks everything stale.
    stored = scrape([{("a",): 1}, {}, {("a",): 1}, {("a",): 1}], ["ok", "ok", "ok", "down"])
    assert stored == {("a",): [1, "stale", 1, "stale"]}


def test_sparse_notation_is_the_notation_of_its_samples():
    """A pushed series' notation (sparse_notation, with its path for samples no two of which are adjacent) is
    notation's of the same samples as a per-minute list, pushes every 5 minutes and every hour included."""
    import random

    from gpudash.simulation.notation import sparse_notation

    rng = random.Random(45)
    for case in range(300):
        length, every = rng.choice([(60, 1), (300, 5), (3000, 60)])
        values = [0, 1, 2.5, 3, 1e16, 0.1 + 0.2, "stale", -4][:rng.randint(1, 8)]
        samples = {m: rng.choice(values) for m in range(rng.randint(0, 3), length + 9, every * rng.randint(1, 3))}
        dense = [samples.get(m) for m in range(length)]
        assert sparse_notation(samples, length) == notation(dense), case
    for case in range(300):  # single samples and spans of adjacent ones in one series (the settled file's merges)
        length, values = rng.randint(1, 200), [0, 1, 2, 3, 4, 2.5, "stale", -4][:rng.randint(1, 8)]
        samples = {m: rng.choice(values) for m in rng.sample(range(length + 3), rng.randint(0, length))}
        dense = [samples.get(m) for m in range(length)]
        assert sparse_notation(samples, length) == notation(dense), (case, samples)


def test_synthesised_ksm_series():
    lifecycle = [{"at": "0m", "phase": "Pending"}, {"at": "2m", "phase": "Running"}, {"at": "4m", "deleted": True}]
    s = scenario([pod(lifecycle)],
                 duration="5m")
    series = {x["series"]: x["values"] for x in synthesise(s, MODEL, "east")}
    uid = s.pods[0].uid
    base = 'container="c0",job="ksm",namespace="team-a"'
    assert series[f'kube_pod_container_resource_requests{{{base},node="",pod="p",resource="nvidia_com_gpu",'
                  f'uid="{uid}",unit="integer"}}'] == "1x1 stale _x3"
    assert series[f'kube_pod_container_resource_requests{{{base},node="n1",pod="p",resource="nvidia_com_gpu",'
                  f'uid="{uid}",unit="integer"}}'] == "_x2 1x1 stale _"
    assert series[f'kube_pod_status_phase{{job="ksm",namespace="team-a",phase="Running",pod="p",uid="{uid}"}}'] \
        == "0x1 1x1 stale _"


@pytest.mark.parametrize("rows", [{("a",): 410592212787.5686, ("b",): 103917976285.09239},  # budgets near 10^12
                                  {("a",): 123456.78}, {("a",): 3.2, ("b",): 1e11 + 0.5}])
def test_large_figures_get_a_coarser_rounding_quantum(rows):
    """A budget or cost far above a few thousand (a VND or JPY model, or a budget near the 10^12 cap) found no
    rounding quantum among 2^-18..2^-22 and ended render in a traceback (tests/integration/
    test_render_property.py): the quantum grows with the figures, and promtool rounds to it the same way."""
    from gpudash.render.golden.emit import _check

    check = _check("x", 60, rows, ("k",))
    to = check["expr"].removeprefix("round(x, ").removesuffix(") != 0")
    quantum = eval(to)  # noqa: S307 - "1/1048576" or "128": a literal the emitter wrote
    assert quantum > 0 and float(quantum).hex().startswith("0x1.0000000000000p")  # a power of two
    for sample, value in zip(check["exp_samples"], (v for _, v in sorted(rows.items()))):
        assert abs(sample["value"] - value) <= quantum / 2


# --- CCSP: the seed's definition (issue 28) ------------------------------------------------------------------------
def test_ccsp_counts_a_larger_init_containers_gpus_for_the_whole_run():
    # init 2 GPUs, app 1: the pod holds 2 (the device manager keeps the init container's), the exporter names 1.
    s = scenario([pod([{"at": "0m", "phase": "Running"}], [{"gpu": 1}], init=[{"gpu": 2}])])
    ref = Reference(s, MODEL)
    assert ref.node_max_by_source(0) == {("east", "n1", "allocation"): 2}
    assert ref.defined_gpus(30) == {("east", "n1"): 2}
    assert len(exporter_visible(ref.held(30))) == 1


def test_ccsp_mig_init_slices_on_a_second_gpu_count_by_the_bound():
    # filler: 6 of GPU 0's seven 1g slices; then init 3 / app 1: the app's slice is GPU 0's last, the init
    # container keeps 2 on GPU 1. The exporter shows GPU 0 only (1 GPU); the bound ceil(9/7) = 2 = the definition.
    node = [{"name": "n1", "gpu": {"mig": True}, "count": 2, "mig": {"strategy": "mixed", "layout": {"1g": 7}}}]
    s = scenario([pod([{"at": "0m", "phase": "Running"}], [{"mig-1g": 6}], name="filler"),
                  pod([{"at": "0m", "phase": "Running"}], [{"mig-1g": 1}], init=[{"mig-1g": 3}])], node)
    ref = Reference(s, MODEL)
    assert ref.attributed_gpus(30) == {("east", "n1"): 1}
    assert ref.node_max_by_source(0) == {("east", "n1", "attribution"): 2}
    assert ref.defined_gpus(30) == {("east", "n1"): 2}


def test_ccsp_mig_init_slices_on_a_gpu_with_no_visible_slice_are_flagged():
    # filler: 6 of GPU 0's slices until 20m; from 10m init 3 / app 1: the app's slice is GPU 0's last, the init
    # container keeps 2 on GPU 1. After 20m the exporter shows GPU 0 only and the bound ceil(3/7) is 1, while the pod
    # holds slices on both GPUs: counted 1, flagged init_unseen (hour 1). Alone on the node (second scenario) the
    # kept slices sit beside the app's: 1 is the definition, and the flag still says only "possibly low".
    node = [{"name": "n1", "gpu": {"mig": True}, "count": 2, "mig": {"strategy": "mixed", "layout": {"1g": 7}}}]
    warmup = pod([{"at": "10m", "phase": "Running"}], [{"mig-1g": 1}], init=[{"mig-1g": 3}])
    filler = pod([{"at": "0m", "phase": "Running"}, {"at": "20m", "phase": "Succeeded"}], [{"mig-1g": 6}],
                 name="filler")
    ref = Reference(scenario([filler, warmup], node, duration="2h"), MODEL)
    # hour 0: the bound ceil(9/7) while GPU 0 is full, then 1 flagged
    assert ref.node_max_by_source(0) == {("east", "n1", "attribution"): 2, ("east", "n1", names.FROM_INIT_UNSEEN): 1}
    assert ref.node_max_by_source(1) == {("east", "n1", names.FROM_INIT_UNSEEN): 1}
    assert ref.defined_gpus(90) == {("east", "n1"): 2}
    alone = Reference(scenario([warmup], node, duration="2h"), MODEL)
    assert alone.node_max_by_source(1) == {("east", "n1", names.FROM_INIT_UNSEEN): 1}
    assert alone.defined_gpus(90) == {("east", "n1"): 1}


def test_ccsp_exporter_down_keeps_the_bound_and_says_so():
    node = [{"name": "n1", "gpu": {"mig": True}, "count": 2, "mig": {"strategy": "mixed", "layout": {"1g": 7}}}]
    s = scenario([pod([{"at": "0m", "phase": "Running"}], [{"mig-1g": 6}], name="big"),
                  pod([{"at": "0m", "phase": "Running"}], [{"mig-1g": 2}])], node,
                 faults=[{"kind": "exporter_gap", "at": "0m", "minutes": 60}])
    assert Reference(s, MODEL).node_max_by_source(0) == {("east", "n1", "exporter_down"): 2}  # ceil(8/7)


def test_scraped_labels_as_prometheus_stores_them():
    # prometheus/prometheus scrape/scrape.go mutateSampleLabels, checked on 2.42.0 and 3.5.3 (docs/billing-contract.md)
    from gpudash.simulation.series import scraped

    target = {"namespace": "kube-amd-gpu", "pod": "exp-1", "container": "exporter"}
    idle_amd = (("gpu_id", "0"), ("namespace", ""), ("pod", ""), ("container", ""))
    idle_dcgm = (("gpu", "0"),)
    held = (("gpu", "1"), ("namespace", "t"), ("pod", "p"), ("container", "c"))
    assert dict(scraped(idle_amd, target, True)) == {"gpu_id": "0"}  # an empty label keeps the target's out
    assert dict(scraped(idle_dcgm, target, True)) == {"gpu": "0", **target}  # an absent one lets it in
    assert dict(scraped(held, target, True)) == dict(held)
    assert dict(scraped(idle_amd, target, False)) == {"gpu_id": "0", **target}
    assert dict(scraped(held, target, False)) == {"gpu": "1", **target, "exported_namespace": "t",
                                                  "exported_pod": "p", "exported_container": "c"}


def test_ccsp_measured_equals_the_definition_in_every_golden_scenario():
    """Where no scrape is lost, the count the spoke measures (the reference's :meth:`active_gpus`, what every golden
    test expects) is seed 000's definition at every minute of every golden scenario: the physical GPUs a device of
    which the device plugin handed to a Running pod (:meth:`defined_gpus`), except where a larger init container's
    fractions no exporter names may sit on a GPU not counted: there it is at most the definition, flagged
    init_unseen. Lost scrapes are the faults' own stories (exporter_down is flagged)."""
    from gpudash.model import load_bundled_example
    from gpudash.render.golden.emit import SCENARIO_DIR

    model = load_bundled_example()
    checked = flagged = 0
    for s in sc.load(model, SCENARIO_DIR)[0]:
        if s.faults or s.hub_only:
            continue
        ref = Reference(s, model)
        for minute in range(s.duration):
            active = ref.active_gpus(minute)
            measured = {(c, n): g for (c, n, _), g in active.items()}
            defined = ref.defined_gpus(minute)
            unseen = {(c, n) for (c, n, source) in active if source == names.FROM_INIT_UNSEEN}
            flagged += len(unseen)
            for c, n in unseen:  # a lower bound, flagged: the rest may sit on the GPUs not counted
                assert measured.pop((c, n)) <= defined.pop((c, n)) <= s.node(c, n).count, (s.name, minute)
            assert measured == defined, (s.name, minute)
        checked += 1
    assert checked >= 30 and flagged


def test_figures_kept_across_steps_equal_those_computed_afresh():
    """The reference keeps a GPU's split, device holders and exporter attribution while the devices shown and the
    allocation stay the same (simulation/energy.py, ccsp.py): each step's figures from one reference walking the
    steps in order equal a fresh reference's, exactly, through allocation changes, a kube-state-metrics restart
    (the allocation goes stale while the devices stay shown) and an exporter gap."""
    nodes = [{"name": "n1", "gpu": {"mig": True}, "count": 2, "mig": {"strategy": "mixed", "layout": {"1g": 7}}},
             {"name": "n2", "gpu": {"time_slicing": True}, "count": 1, "time_slicing": {}}]
    s = scenario([pod([{"at": "0m", "phase": "Running"}, {"at": "50m", "phase": "Succeeded"}], [{"mig-1g": 3}]),
                  pod([{"at": "20m", "phase": "Running"}], [{"mig-1g": 6}], name="q", utilisation=80),
                  pod([{"at": "10m", "phase": "Running"}, {"at": "90m", "deleted": True}], [{"shared": 2}],
                      name="r", node="n2", tenant=1)], nodes,
                 faults=[{"kind": "ksm_restart", "at": "30m", "minutes": 6},
                         {"kind": "exporter_gap", "at": "70m", "minutes": 5}])
    walked = Reference(s, MODEL)
    for m in range(s.duration + 1):
        fresh = Reference(s, MODEL)
        assert walked.step_energy(m) == fresh.step_energy(m), m
        assert walked.active_gpus(m) == fresh.active_gpus(m), m
    assert walked.energy(0) and walked.node_max_by_source(0)


def test_energy_counter_is_the_counter_runs_of_every_minute():
    """The reference's energy counter (simulation/devices.py: each minute's power x 60 s added to the counter of the
    minute before) is exactly counter_runs' with a run starting at every minute, through pods starting and stopping
    at a utilisation whose joules are not whole, a reload of one node's driver and of every node's (at minute 0)."""
    from gpudash.simulation.devices import counter_runs, energy_counter, gpu_watts, reloads

    nodes = [{"name": "n1", "gpu": {"class": "a100"}, "count": 2}, {"name": "n2", "gpu": {"class": "a100"}, "count": 1}]
    s = scenario([pod([{"at": "3m", "phase": "Running"}, {"at": "50m", "phase": "Succeeded"}], utilisation=33.71),
                  pod([{"at": "20m", "phase": "Running"}], name="q", node="n2", utilisation=71.37)], nodes,
                 faults=[{"kind": "driver_reload", "node": "n1", "at": "30m"}, {"kind": "driver_reload", "at": "0m"}])
    minutes = range(s.duration + 1)
    for node in s.nodes:
        for g in range(node.count):
            runs = counter_runs(minutes, [gpu_watts(s, node, g, k) for k in minutes], reloads(s, node))
            assert energy_counter(s, node, g) == tuple(value for _, value, _ in runs), (node.name, g)
    assert energy_counter(s, s.nodes[0], 0)[29] % 1 and energy_counter(s, s.nodes[0], 0)[30] == 0.0


class _PerStep(Reference):
    """The reference computing every hour step by step: no :meth:`alike_hour` (a subclass), no plain-hour energy."""

    def _plain_hour(self, hour, since):
        return None


def test_hours_computed_once_equal_those_computed_step_by_step():
    """An hour whose steps see the inputs of an earlier hour's (simulation/reference.py ``alike_hour``) takes that
    hour's GPU-hours, node maxima and steps observed, and its energy is summed from the counters' rises once per
    distinct split and rises (simulation/energy.py): the same figures, exactly, as computed step by step, at every
    hour and ``since`` of 17 hours of pods starting and stopping, a utilisation step, a pod restart, missed
    kube-state-metrics scrapes, a restart of it, an exporter gap and a driver reload (a counter going down)."""
    nodes = [{"name": "n1", "gpu": {"class": "a100"}, "count": 2}, {"name": "n2", "gpu": {"class": "l40s"},
                                                                     "count": 1, "time_slicing": {}}]
    s = scenario([pod([{"at": "0m", "phase": "Running"}, {"at": "6h10m", "phase": "Succeeded"}],
                      utilisation=[{"at": "0m", "percent": 40}, {"at": "2h30m", "percent": 33.71}]),
                  pod([{"at": "1h", "phase": "Running"}, {"at": "4h", "phase": "Running", "restart": True}],
                      [{"shared": 2}], name="q", node="n2", tenant=1, utilisation=71.37),
                  pod([{"at": "9h20m", "phase": "Running"}, {"at": "11h", "deleted": True}], name="r")], nodes,
                 faults=[{"kind": "missed_scrapes", "job": "ksm", "at": "8h", "minutes": 3},
                         {"kind": "ksm_restart", "at": "12h15m", "minutes": 6},
                         {"kind": "exporter_gap", "at": "13h40m", "minutes": 4},
                         {"kind": "driver_reload", "node": "n1", "at": "14h30m"}], duration="17h")
    fast, slow = Reference(s, MODEL), _PerStep(s, MODEL)
    for since in (0, 130):
        for h in range(17):
            assert fast.gpu_hours(h, since) == slow.gpu_hours(h, since), (h, since)
            assert fast.node_max_by_source(h, since) == slow.node_max_by_source(h, since), (h, since)
            assert fast.steps_observed(h, since) == slow.steps_observed(h, since), (h, since)
            assert fast.energy(h, since) == slow.energy(h, since), (h, since)
    assert sum(fast.alike_hour(h) != h for h in range(17)) >= 3 and fast._plain_hours


def test_steady_counter_rises_equal_the_counters_differences():
    """A GPU's counter summed from whole joules rises exactly by its power x 60 s each minute (simulation/devices.py
    ``steady_rises``), so an hour within one run of power takes its rises from the run (simulation/energy.py
    ``_steady_rises``): the same energy, exactly, as step by step, at every hour and ``since``, at a 1- and a
    5-minute resolution, through utilisation steps within an hour and on its boundary and a MIG node (whole
    watts as ints). A GPU at 33.71 % draws joules that are not whole: its node's counter is not steady, and every
    hour it shares with the others takes the counters' differences."""
    nodes = [{"name": "n1", "gpu": {"class": "a100"}, "count": 2},
             {"name": "n2", "gpu": {"mig": True}, "count": 1, "mig": {"strategy": "mixed", "layout": {"1g": 7}}}]
    steps = [{"at": "0m", "percent": 40}, {"at": "2h", "percent": 50}, {"at": "3h17m", "percent": 20}]
    s = scenario([pod([{"at": "0m", "phase": "Running"}, {"at": "4h20m", "phase": "Succeeded"}], utilisation=steps),
                  pod([{"at": "30m", "phase": "Running"}], [{"mig-1g": 2}], name="q", node="n2", tenant=1)], nodes,
                 duration="6h")
    odd = scenario([pod([{"at": "0m", "phase": "Running"}], utilisation=steps),
                    pod([{"at": "1h", "phase": "Running"}], name="q", utilisation=33.71)], nodes, duration="4h")
    for model in (MODEL, dataclasses.replace(MODEL, billing=dataclasses.replace(MODEL.billing, resolution=300))):
        plain = []  # each scenario's plain hours' keys: (id of the split, rises, steps: None unless steady)
        for sc_ in (s, odd):
            fast, slow = Reference(sc_, model), _PerStep(sc_, model)
            for since in (0, 70):
                for h in range(sc_.duration // 60):
                    assert fast.energy(h, since) == slow.energy(h, since), (model.billing.resolution, sc_, h, since)
            plain.append([n for _, _, n in fast._plain_hours])
        assert plain[0].count(60 * 60 // model.billing.resolution) >= 3 and plain[1] and set(plain[1]) == {None}


def test_a_check_of_the_model_alone_is_made_once_per_model_and_never_another_model_s():
    from gpudash.render.golden.emit import _check, _of_model

    other = dataclasses.replace(MODEL, tenants=MODEL.tenants[:1])
    made = []

    def rows(model):
        return lambda: made.append(model) or Reference(scenario([]), model).tenant_info()

    keys = ("cluster", "namespace", "tenant")
    for model, minute in ((MODEL, 60), (MODEL, 120), (other, 60), (MODEL, 60)):
        assert _of_model(model, names.TENANT_INFO, minute, rows(model), keys) == \
            _check(names.TENANT_INFO, minute, Reference(scenario([]), model).tenant_info(), keys)
    assert made == [MODEL, other, MODEL]
