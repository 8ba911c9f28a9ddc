"""End to end: every panel query of every dashboard runs against a real Prometheus holding hub data.

The server (Debian's prometheus 2.42 via e2e/harness.py, 127.0.0.1, own data dir, stopped by PID) holds what
ACM's metrics-collector would push to the hub from the scenario below (backfilled as OpenMetrics, one sample
per 5-minute push), and the real gpudash hub rules backfilled over it every push interval (by query: the samples
promtool's rules backfill writes, e2e/test_harness.py), as the Thanos Ruler evaluates them. Each target is run
the way Grafana runs it: Grafana's macros substituted
(``$__range`` = the 5 h range below), the provider variable ``$cluster`` at "All" (``.*``), instant targets at
EVAL, range targets over [EVAL - 3 h, EVAL] at the panel's step (1 h for hourly panels, else the push
interval). Every query must return data of its panel's shape: one unlabelled number for a stat, series
carrying the labels their legend names for a graph, rows for a table. A few numbers are checked against
values worked out by hand from the scenario (arithmetic in the comments), never from running the rules.

Scenario, 2026-03-10 (mid-month), pushes every 5 min from 23:00 the day before to 06:00:

  cluster east: node gpu-1 (NVIDIA A100-SXM4-80GB: 3.20/h, MIG 1g.10gb 0.55/h), node t4-1 (NVIDIA Tesla T4:
  no price); cluster west: node amd-1 (AMD Instinct MI300X: 4.10/h); cluster north: in the model, never pushes.

  pod                   node   requests                  Running (UTC)   GPU activity
  team-a/train-0        gpu-1  2 nvidia.com/gpu           00:00 - 06:00   0.9
  team-a/infer-0        gpu-1  1 nvidia.com/mig-1g.10gb   00:00 - 06:00   0.6
  team-a/notebook-0     gpu-1  1 nvidia.com/gpu           00:00 - 06:00   0   (idle)
  sandbox/dev-0         gpu-1  1 nvidia.com/gpu           00:00 - 06:00   0.9 (no tenant)
  team-a/old-0          t4-1   1 nvidia.com/gpu           02:00 - 06:00   0.9 (unpriced product)
  ml-research/sim-0     amd-1  4 amd.com/gpu              01:00 - 06:00   0.9

Every push also carries the hour before's energy (e2e/pushed_story.py push_energy: kW per GPU held, plus the
clusters' unallocated energy).
"""
from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from e2e import pushed_story as story  # noqa: E402

pytestmark = pytest.mark.e2e

MODEL = story.MODEL
A100, T4, MI300, MIG_1G, ts = story.A100, story.T4, story.MI300, story.MIG_1G, story.ts


T0 = ts("2026-03-10T00:00:00")
H = 3600
PUSH = 300
PUSH_FROM, PUSH_TO = T0 - H, T0 + 6 * H
EVAL = T0 + 5 * H  # 05:00
RANGE = (EVAL - 3 * H, EVAL)
GRAFANA_RANGE = "18000s"  # $__range: the dashboard shows 00:00 .. 05:00
KSM, DCGM, AMD = "kube-state-metrics", "nvidia-dcgm-exporter", "amd-device-metrics-exporter"

# (cluster, namespace, pod, node, product, ksm resource, units, start, end, workload, kind, gpu model, activity)
PODS = [
    ("east", "team-a", "train-0", "gpu-1", A100, "nvidia_com_gpu", 2, T0, T0 + 6 * H, "train", "Job",
     "NVIDIA A100-SXM4-80GB", 0.9),
    ("east", "team-a", "infer-0", "gpu-1", A100, MIG_1G, 1, T0, T0 + 6 * H, "infer", "Deployment",
     "NVIDIA A100-SXM4-80GB", 0.6),
    ("east", "team-a", "notebook-0", "gpu-1", A100, "nvidia_com_gpu", 1, T0, T0 + 6 * H, "nb-alice", "Notebook",
     "NVIDIA A100-SXM4-80GB", 0.0),
    ("east", "sandbox", "dev-0", "gpu-1", A100, "nvidia_com_gpu", 1, T0, T0 + 6 * H, "dev-0", "Pod",
     "NVIDIA A100-SXM4-80GB", 0.9),
    ("east", "team-a", "old-0", "t4-1", T4, "nvidia_com_gpu", 1, T0 + 2 * H, T0 + 6 * H, "old", "Job",
     "Tesla T4", 0.9),
    ("west", "ml-research", "sim-0", "amd-1", MI300, "amd_com_gpu", 4, T0 + H, T0 + 6 * H, "sim", "Job",
     "AMD Instinct MI300X", 0.9),
]


def openmetrics() -> str:
    """What the spokes push (docs/billing-contract.md section 6), plus up and the ruler's ALERTS."""
    series = story.Series()
    for t in range(PUSH_FROM, PUSH_TO + 1, PUSH):
        story.push(series, PODS, ("east", "west"), t, PUSH)
        story.push_energy(series, PODS, t)
        for cluster, jobs in (("east", (KSM, DCGM)), ("west", (KSM, AMD))):
            for job in jobs:
                series.add("up", {"cluster": cluster, "clusterID": f"id-{cluster}", "job": job,
                                  "instance": f"{job}.{cluster}:443"}, t, 1)
        if t >= T0 + 3 * H:  # the hub ruler's alerts (what the alerts family would fire), one per tenant, with
            # cluster like every tenant alert (alerts/tenant.py), so that the rbac-query-proxy lets the tenant see it
            for cluster, ns, alert in (("east", "team-a", "GpudashIdleGpu"),
                                       ("west", "ml-research", "GpudashBudgetBurn")):
                series.add("ALERTS", {"alertname": alert, "alertstate": "firing", "namespace": ns, "cluster": cluster,
                                      "severity": "warning"}, t, 1)
    return series.openmetrics()


@pytest.fixture(scope="module")
def model():
    from gpudash.model import model_from_dict

    return model_from_dict(MODEL)


@pytest.fixture(scope="module")
def hub(pushed_hub, model):
    from gpudash.base.yamlfmt import strip_comments
    from gpudash.render.rules import hub as hub_rules
    from gpudash.render.rules.format import rule_file

    groups = strip_comments(rule_file(hub_rules.groups(model)))["groups"]
    return pushed_hub("dashboards-hub", openmetrics(), groups, PUSH_FROM, PUSH_TO, eval_interval=PUSH)


@pytest.fixture(scope="module")
def dashboards(model):
    from gpudash.render import grafana

    provider, tenants = grafana.rendered(model)
    return {**provider, **{stem: d for group in tenants.values() for stem, d in group.items()}}


def grafana_expr(expr: str) -> str:
    from gpudash.render.grafana.isolation import substitute_macros

    return substitute_macros(expr, {"__range": GRAFANA_RANGE, "__range_s": GRAFANA_RANGE[:-1],
                                    "__range_ms": GRAFANA_RANGE[:-1] + "000"}).replace("$cluster", ".*")


# Panels with nothing to show in this scenario, by (dashboard uid, panel title): none (stats of quantities
# show 0, not "no data", when nothing is allocated).
EMPTY_OK: set[tuple[str, str]] = set()


def run_panel(prom, panel) -> list[list]:
    """Results of each target of ``panel``: instant rows [(labels, value)] or range series [(labels, points)]."""
    out = []
    for target in panel["targets"]:
        expr = grafana_expr(target["expr"])
        if target.get("instant"):
            out.append(prom.query(expr, time=EVAL))
        else:
            step = 3600 if target.get("interval") == "1h" else PUSH
            start = RANGE[0] - RANGE[0] % step
            out.append(prom.query_range(expr, start, RANGE[1], step))
    return out


def test_every_panel_query_returns_data_of_its_shape(hub, dashboards):
    from gpudash.render.grafana.panels import iter_panels

    checked = 0
    for uid, dash in dashboards.items():
        for panel in iter_panels(dash):
            if panel["type"] == "row":
                continue
            where = f"{uid} / {panel['title']}"
            results = run_panel(hub, panel)
            if (uid, panel["title"]) in EMPTY_OK:
                continue
            for target, result in zip(panel["targets"], results, strict=True):
                assert result, f"{where} / {target['refId']}: no data for {target['expr']}"
                if target.get("instant"):
                    values = [v for _, v in result]
                else:
                    values = [v for _, points in result for _, v in points]
                    assert all(t % (3600 if target.get("interval") == "1h" else PUSH) == 0
                               for _, points in result for t, _ in points), where
                assert all(math.isfinite(v) for v in values), f"{where}: {values}"
                legend_labels = re.findall(r"\{\{\s*(\w+)\s*\}\}", target.get("legendFormat", ""))
                for labels, _ in result:
                    names = dict(labels)
                    for label in legend_labels:
                        assert names.get(label), f"{where}: legend label {label} missing in {labels}"
            if panel["type"] == "stat":
                for result in results:
                    assert len(result) == 1 and result[0][0] == (), f"{where}: a stat shows one number: {result}"
            if panel["type"] == "table" and len(panel["targets"]) > 1 and \
                    all(t.get("instant") for t in panel["targets"]):
                # merged tables: every query has the same label names, so Grafana's merge joins their rows
                # (a pod on an unpriced product has GPUs but no burn rate: its row has an empty cell)
                label_names = [{tuple(sorted(dict(lab))) for lab, _ in r} for r in results]
                assert all(len(n) == 1 and n == label_names[0] for n in label_names), f"{where}: {label_names}"
                keys = [{tuple(sorted(dict(lab).items())) for lab, _ in r} for r in results]
                assert set.intersection(*keys), f"{where}: the queries share no row: {keys}"
            checked += 1
    assert checked >= 50


def stat(prom, dashboards, uid: str, title: str) -> float:
    from gpudash.render.grafana.panels import iter_panels

    panel = next(p for p in iter_panels(dashboards[uid]) if p["title"] == title)
    (rows,) = run_panel(prom, panel)
    assert len(rows) == 1
    return rows[0][1]


def rows(prom, dashboards, uid: str, title: str, target: int = 0):
    from gpudash.render.grafana.panels import iter_panels

    panel = next(p for p in iter_panels(dashboards[uid]) if p["title"] == title)
    return run_panel(prom, panel)[target]


# Hand-computed at 05:00 (everything of the scenario is running).
# Priced whole GPUs: train-0 2 + notebook-0 1 + dev-0 1 + sim-0 4 = 8 (old-0 is on an unpriced T4).
# Revenue rate: 2 x 3.20 + 3.20 + 3.20 + 0.55 + 4 x 4.10 = 29.75 USD/h.
# team-a: burn 6.40 + 0.55 + 3.20 = 10.15 USD/h (old-0 is unpriced).
# team-a GPU efficiency: (2 x 0.9 + 1 x 0.6 + 1 x 0 + 1 x 0.9) / 5 = 0.66; idle: notebook-0, 3.20 USD/h.
# team-a GPU-hours this month (priced): 4 per hour (2 + 1 + 1) x 5 h = 20.
@pytest.mark.parametrize("uid, title, expected", [
    ("gpudash-provider", "Whole GPUs allocated", 8),
    ("gpudash-provider", "MIG slices allocated", 1),
    ("gpudash-provider", "Revenue rate", 29.75),
    ("gpudash-provider", "Idle GPUs cost", 3.20),
    ("gpudash-provider", "Unpriced GPU-hours, last hour", 1),  # old-0, hour 04:00-05:00
    ("gpudash-provider", "Clusters pushing", 2),
    ("gpudash-tenant-team-a", "Burn rate now", 10.15),
    ("gpudash-tenant-team-a", "Budget", 500),
    ("gpudash-tenant-team-a", "GPU-hours this period", 20),
    ("gpudash-tenant-team-a", "GPU efficiency now", 0.66),
    ("gpudash-tenant-team-a", "Idle GPUs cost", 3.20),
    ("gpudash-tenant-research", "Burn rate now", 16.40),
    ("gpudash-tenant-research", "GPU efficiency now", 0.9),
])
def test_hand_computed_figures(hub, dashboards, uid, title, expected):
    assert stat(hub, dashboards, uid, title) == pytest.approx(expected, rel=1e-9, abs=1e-9)


def test_period_to_date_cost(hub, dashboards):
    """The hub rule's value from its latest evaluation, which the backfill makes at unaligned times in the
    push interval before 05:00. At an evaluation t in [04:55, 05:00): the complete hours up to the hour before last
    (00, 01, 02: 3 x 10.15 = 30.45) plus the burn rate since 03:00 (10.15 x (t - 03:00) / 1 h): from 49.90 at
    04:55 up to 50.75."""
    cost = stat(hub, dashboards, "gpudash-tenant-team-a", "Cost this period")
    assert 49.90 <= cost <= 50.75 + 1e-9
    used = stat(hub, dashboards, "gpudash-tenant-team-a", "Budget used")
    assert used == pytest.approx(cost / 500)


def test_health_and_leftover_tables(hub, dashboards):
    assert [dict(lab)["cluster"] for lab, _ in rows(hub, dashboards, "gpudash-provider",
                                                 "Clusters of the model not pushing")] == ["north"]
    outside = rows(hub, dashboards, "gpudash-provider", "GPU spend outside any tenant")
    assert [(dict(lab)["namespace"], v) for lab, v in outside] == [("sandbox", pytest.approx(3.20))]
    idle = rows(hub, dashboards, "gpudash-provider", "Idle but allocated GPUs")
    assert [(dict(lab)["pod"], v) for lab, v in idle] == [("notebook-0", 1)]
    unpriced = rows(hub, dashboards, "gpudash-provider", "Unpriced usage, last hour")
    assert [(dict(lab)["product"], v) for lab, v in unpriced] == [(T4, pytest.approx(1.0))]


def test_ccsp_hourly_rows(hub, dashboards):
    # Hour 03:00-04:00, read at 05:00: gpu-1 = ceil(2 + 1/7 + 1 + 1) = 5, t4-1 = 1, amd-1 = 4;
    # active nodes east 2, west 1; active GPUs east 6, west 4.
    per_node = rows(hub, dashboards, "gpudash-ccsp", "Per node and hour: active GPUs")
    at_eval = {dict(lab)["node"]: dict(points)[float(EVAL)] for lab, points in per_node}
    assert at_eval == {"gpu-1": 5, "t4-1": 1, "amd-1": 4}
    nodes = rows(hub, dashboards, "gpudash-ccsp", "Per cluster and hour: active nodes and GPUs", 0)
    gpus = rows(hub, dashboards, "gpudash-ccsp", "Per cluster and hour: active nodes and GPUs", 1)
    assert {dict(lab)["cluster"]: dict(p)[float(EVAL)] for lab, p in nodes} == {"east": 2, "west": 1}
    assert {dict(lab)["cluster"]: dict(p)[float(EVAL)] for lab, p in gpus} == {"east": 6, "west": 4}
    hour_start = rows(hub, dashboards, "gpudash-ccsp", "Per cluster and hour: active nodes and GPUs", 2)
    assert dict(hour_start[0][1])[float(EVAL)] == EVAL - 2 * H


def test_tenant_dashboard_sees_only_its_namespace(hub, dashboards):
    """Run against an unrestricted Prometheus, a tenant dashboard still returns only its own namespace."""
    from gpudash.render.grafana.panels import iter_panels

    for uid, ns in (("gpudash-tenant-team-a", "team-a"), ("gpudash-tenant-research", "ml-research")):
        for panel in iter_panels(dashboards[uid]):
            if panel["type"] == "row":
                continue
            for result in run_panel(hub, panel):
                for labels, _ in result:
                    assert dict(labels).get("namespace", ns) == ns, f"{uid} / {panel['title']}: {labels}"


# --- through ACM's rbac-query-proxy (issue #12), modelled by gpudash.render.grafana.proxy -----------------------------
TENANTS = (("gpudash-tenant-team-a", "team-a"), ("gpudash-tenant-research", "ml-research"))


def _tenant_queries(dashboards, model, uid: str, ns: str) -> list[tuple[str, str]]:
    """(where, PromQL) of every target of the tenant's dashboard and every query of ``report --tenant``."""
    from gpudash.queries import report_queries as queries
    from gpudash.render.grafana.panels import iter_targets

    out = [(f"{uid} / {p['title']} / {t['refId']}", grafana_expr(t["expr"])) for p, t in iter_targets(dashboards[uid])]
    return out + [(f"report / {w}", e) for w, e in queries.tenant_queries(ns, 2 * PUSH, 2 * PUSH)]


def _values(rows) -> list[float]:
    return [v for _, v in rows]


def test_tenant_queries_through_the_proxy(hub, dashboards, model):
    """Every tenant panel and report query, rewritten by the proxy for the tenant (metrics/<ns> on every model
    cluster), returns exactly what the provider's unrestricted view of the same query returns: the tenant's own
    figures, non-empty where data exists. Rewritten for the other tenant, or for a user without any access
    (cluster="", no namespace matcher), it returns nothing of gpudash (at most a literal 0 fallback)."""
    from gpudash.render.grafana import proxy

    stranger = proxy.Access()
    for uid, ns in TENANTS:
        mine = proxy.Access.tenant(ns, model.clusters)
        other = proxy.Access.tenant(next(n for _, n in TENANTS if n != ns), model.clusters)
        answered = 0
        for where, expr in _tenant_queries(dashboards, model, uid, ns):
            direct = sorted(hub.query(expr, EVAL))
            assert sorted(hub.query(proxy.rewrite(expr, mine), EVAL)) == direct, where
            answered += any(v != 0 for v in _values(direct))
            for labels, _ in direct:
                assert dict(labels).get("namespace", ns) == ns, (where, labels)
            for access in (other, stranger):
                assert all(v == 0 for v in _values(hub.query(proxy.rewrite(expr, access), EVAL))), (where, access)
        assert answered >= 20, (uid, answered)  # budget, period-to-date, projection, burn rates, hours, alerts...


def test_no_gpudash_series_is_readable_without_access(hub):
    from gpudash.render.grafana import proxy

    everything = '{__name__=~".+:gpudash_.+|ALERTS"}'
    assert hub.query(f"count({everything})", EVAL)
    assert hub.query(proxy.rewrite(f"count({everything})", proxy.Access()), EVAL) == []


def test_tenant_stats_equal_the_providers_view(hub, dashboards):
    """The tenant's 'Cost this period' and 'Budget' through the proxy equal the provider table's row."""
    from gpudash.render.grafana import proxy
    from gpudash.render.grafana.panels import iter_panels

    for uid, ns in TENANTS:
        mine = proxy.Access.tenant(ns, ("east", "north", "west"))
        stats = {p["title"]: grafana_expr(p["targets"][0]["expr"]) for p in iter_panels(dashboards[uid])
                 if p["type"] == "stat"}
        ptd = _values(hub.query(proxy.rewrite(stats["Cost this period"], mine), EVAL))
        budget = _values(hub.query(proxy.rewrite(stats["Budget"], mine), EVAL))
        table = {dict(lb)["namespace"]: v for lb, v in rows(hub, dashboards, "gpudash-provider",
                                                            "Tenants by period-to-date spend", 0)}
        budgets = {dict(lb)["namespace"]: v for lb, v in rows(hub, dashboards, "gpudash-provider",
                                                              "Tenants by period-to-date spend", 2)}
        assert ptd == [pytest.approx(table[ns], rel=1e-12)] and ptd[0] > 0, uid
        assert budget == [budgets[ns]], uid
