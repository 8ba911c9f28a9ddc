"""Reports without a server: periods and chunks, rounding, the PromQL sent, and every output format.

The reports against a real Prometheus are in e2e/test_reports.py.
"""
from __future__ import annotations

import csv
import io
import json
import re
from datetime import date
from decimal import Decimal
from pathlib import Path

import promql_parser as pp
import pytest

from gpudash.base.timestamps import rfc3339
from gpudash.model import series as names
from gpudash.model.types import Issuer, Tenant
from gpudash.ops.report import common, invoice, presentation
from gpudash.ops.report.billing import UNALLOCATED, BillingReport, EnergyLine, Line, budget_rows
from gpudash.ops.report.idle import IdleReport, IdleWorkload
from gpudash.ops.report.nodes import NodesReport
from gpudash.ops.report.period import PeriodError, chunks, parse_period, parse_time, readable_until
from gpudash.promql.lint import parse, vector_selectors
from gpudash.queries import report_queries as queries

H = 3600


def t(text: str) -> int:
    return int(parse_time(text, "--start"))


# --- periods ----------------------------------------------------------------------------------------------------
def test_parse_period_accepts_rfc3339_and_offsets():
    assert parse_period("2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z") == (t("2026-01-01T00:00:00Z"),
                                                                           t("2026-02-01T00:00:00Z"))
    assert parse_period("2026-01-01T02:00:00+02:00", "2026-01-01T01:00:00Z")[0] == t("2026-01-01T00:00:00Z")
    assert parse_period("2026-01-01T00:00:00", "2026-01-01T01:00:00")[0] == t("2026-01-01T00:00:00Z")  # UTC


@pytest.mark.parametrize("start,end,needle", [
    ("2026-01-01T00:30:00Z", "2026-01-02T00:00:00Z", "--start 2026-01-01T00:30:00Z is not on a whole UTC hour"),
    ("2026-01-01T00:00:00Z", "2026-01-02T00:00:01Z", "--end"),
    ("2026-01-01T00:00:00+05:30", "2026-01-02T00:00:00Z", "is not on a whole UTC hour"),
    ("2026-01-02T00:00:00Z", "2026-01-01T00:00:00Z", "must be after"),
    ("yesterday", "2026-01-01T00:00:00Z", "not an RFC 3339 time"),
])
def test_parse_period_rejects_with_a_reason(start, end, needle):
    with pytest.raises(PeriodError) as err:
        parse_period(start, end)
    assert needle in str(err.value)
    if "whole UTC hour" in needle:
        assert "one figure per clock hour" in str(err.value) and "(e.g. " in str(err.value)


def test_chunks_cut_at_month_boundaries_and_stay_under_the_point_limit():
    start, end = t("2024-02-15T05:00:00Z"), t("2026-03-02T00:00:00Z")
    pieces = chunks(start, end)
    assert pieces[0] == (start, t("2024-03-01T00:00:00Z"))
    assert pieces[-1] == (t("2026-03-01T00:00:00Z"), end)
    assert all(b == c for (_, b), (c, _) in zip(pieces, pieces[1:], strict=False))  # contiguous: no hour lost
    assert len(pieces) == 26 and max((b - a) // H for a, b in pieces) <= 745
    assert chunks(0, 30 * H, max_hours=10) == [(0, 10 * H), (10 * H, 20 * H), (20 * H, 30 * H)]


def test_readable_until_keeps_hours_final_at_h_plus_2h():
    end = t("2026-01-01T12:00:00Z")
    now = t("2026-01-01T10:30:00Z")  # hour 08:00 is final at 10:00; hour 09:00 only at 11:00
    assert readable_until(end, now) == t("2026-01-01T09:00:00Z")
    assert readable_until(end, t("2026-01-01T14:00:00Z")) == end
    assert readable_until(end, t("2026-01-01T12:59:59Z")) == t("2026-01-01T11:00:00Z")


# --- money ------------------------------------------------------------------------------------------------------
def test_round_money_to_the_currency_minor_unit_half_up():
    assert common.round_money(6.233333, "USD") == 6.23
    assert common.round_money(0.125, "EUR") == 0.13  # half away from zero, not banker's rounding
    assert common.round_money(2.675, "USD") == 2.68  # the float 2.67499999... still rounds as written
    assert common.round_money(1234.5, "JPY") == 1235
    assert common.round_money(1.2345, "KWD") == 1.235
    assert common.round_money(-0.005, "USD") == -0.01
    assert common.round_hours(11.3333333333) == 11.333333 and common.round_hours(1e-9) == 0.0
    assert common.round_money(0.1 + 0.2 + 0.005 - 0.3, "USD") == 0.01  # float noise below 1e-9 is cut first
    assert common.money_digits("CLF") == 4 and common.money_digits("XAU") == 0  # ISO 4217's table (iso4217)


# --- PromQL -----------------------------------------------------------------------------------------------------
def _all_queries(scope: queries.Scope) -> list[str]:
    return [queries.gpu_hours(scope), queries.cost(scope), queries.unpriced(scope),
            queries.tenant_info_present(scope), queries.idle_recorded(scope, "NVIDIA.*", 450),
            queries.activity_history(scope, ".*", ["nb-0", "x.y"], 300), queries.allocated_now(scope, 450),
            queries.activity_seen(scope, 1800)]


def test_every_query_parses_and_reads_hour_h_at_h_plus_2h():
    for expr in _all_queries(queries.Scope()) + [queries.node_active_gpus(queries.Scope(cluster="east")),
                                                 queries.cluster_billed_hour(queries.Scope())]:
        parse(expr, "report")
    assert queries.gpu_hours(queries.Scope()) == (
        "max by (cluster, namespace, gpu_class, resource) "
        "(last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour[1h] offset 1ms))")


def test_a_tenant_scope_puts_its_namespace_on_every_selector():
    """prom-label-proxy (thanos-querier :9092) and rbac-query-proxy accept a query confined to the namespace."""
    ns = 'we"ird\\ns'
    for expr in _all_queries(queries.Scope(namespace=ns, cluster="east")):
        for sel in vector_selectors(pp.parse(expr)):
            found = {(m.name, str(m.op), m.value) for m in sel.matchers.matchers}
            assert any(name == "namespace" and value == ns and "Equal" in op and "Not" not in op
                       for name, op, value in found), (expr, found)
    assert 'namespace="we\\"ird\\\\ns"' in queries.gpu_hours(queries.Scope(namespace=ns))


def test_idle_reads_the_recorded_series_and_filters_only_narrow_it():
    """One idle definition (issue #15 point 1): the report reads names.POD_IDLE, never the activity series with
    a window of its own; gpu-pruner's patterns become extra regex matchers on it."""
    expr = queries.idle_recorded(queries.Scope(namespace_regex="team-.*"), "NVIDIA A10G", 450)
    assert [s.name for s in vector_selectors(pp.parse(expr))] == [names.POD_IDLE]
    assert 'namespace=~"team-.*"' in expr and 'gpu_model=~"NVIDIA A10G"' in expr and "[7m30s]" in expr
    assert "namespace=" not in queries.idle_recorded(queries.Scope(namespace_regex=".*"), ".*", 450)
    # 1 ms shorter than the step: each push counted in exactly one step under Prometheus 2 and 3
    assert "[4m59s999ms]" in queries.activity_history(queries.Scope(), ".*", [], 300)


# --- formats ----------------------------------------------------------------------------------------------------
START, END = t("2026-01-31T20:00:00Z"), t("2026-02-01T04:00:00Z")
TENANTS = [Tenant("research", "ml-research", 100.0, (), (), "r"), Tenant("team-a", "team-a", 500.0, (), (), "r")]


def billing_report() -> BillingReport:
    lines = [Line("east", "team-a", "team-a", "a100-80gb", "nvidia.com/gpu", 12.0, 38.4),
             Line("east", "team-a", "team-a", "a100-80gb", "nvidia.com/mig-1g.10gb", 34 / 3, 34 / 3 * 0.55),
             Line("west", "research", "ml-research", "mi300x", "amd.com/gpu", 12.0, 49.2)]
    return BillingReport(
        START, END, END, "USD", lines, TENANTS,
        [Line("east", "", "sandbox", "a100-80gb", "nvidia.com/gpu", 2.0, 6.4)],
        [{"cluster": "east", "namespace": "team-a", "tenant": "team-a", "product": "NVIDIA-Tesla-T4",
          "resource": "nvidia_com_gpu", "gpu_hours": 2.0}],
        {"team-a": {t("2026-01-31T00:00:00Z"): {"a100-80gb": 12.0}, t("2026-02-01T00:00:00Z"): {"a100-80gb": 34 / 3}},
         "research": {t("2026-01-31T00:00:00Z"): {"mi300x": 6.0}, t("2026-02-01T00:00:00Z"): {"mi300x": 6.0}}},
        {"team-a": {t("2026-01-01T00:00:00Z"): [25.6, 2.2], t("2026-02-01T00:00:00Z"): [12.8, 22 / 3 * 0.55]},
         "research": {t("2026-01-01T00:00:00Z"): [24.6], t("2026-02-01T00:00:00Z"): [24.6]}},
        ["namespace sandbox on cluster east is not a tenant of the model"])


def test_billing_json_shape_and_rounding():
    data = json.loads(presentation.dumps(billing_report().to_json()))
    assert list(data)[:8] == ["start", "end", "currency", "lines", "totals", "by_unit", "total_cost", "provider"]
    assert data["start"] == "2026-01-31T20:00:00Z" and data["end"] == "2026-02-01T04:00:00Z"
    assert data["lines"][1] == {"kind": "gpu", "cluster": "east", "tenant": "team-a", "namespace": "team-a",
                                "gpu_class": "a100-80gb", "resource": "nvidia.com/mig-1g.10gb",
                                "unit": "1g.10gb slice-hours", "quantity": 11.333333, "cost": "6.23"}
    # totals are sums of the rounded lines: 38.40 + 6.23 = 44.63; 44.63 + 49.20 = 93.83; quantities per unit only
    assert data["totals"] == [
        {"tenant": "research", "by_unit": [{"unit": "GPU-hours", "quantity": 12.0, "cost": "49.20"}], "cost": "49.20"},
        {"tenant": "team-a", "by_unit": [{"unit": "GPU-hours", "quantity": 12.0, "cost": "38.40"},
                                         {"unit": "1g.10gb slice-hours", "quantity": 11.333333, "cost": "6.23"}],
         "cost": "44.63"}]
    assert data["by_unit"] == [{"unit": "GPU-hours", "quantity": 24.0, "cost": "87.60"},
                               {"unit": "1g.10gb slice-hours", "quantity": 11.333333, "cost": "6.23"}]
    assert data["total_cost"] == "93.83"  # money as decimal strings at the currency's exponent, never floats
    assert {x["kind"] for x in data["lines"]} == {"gpu"}  # no energy on the hub: no energy lines
    assert data["warnings"] and data["provider"]["lines"][0]["namespace"] == "sandbox"
    assert data["provider"]["lines"][0]["kind"] == "provider-gpu" and data["provider"]["total_cost"] == "6.40"


def test_billing_csv_and_table():
    rows = list(csv.reader(io.StringIO(presentation.billing_csv(billing_report()))))
    assert rows[0] == ["start", "end", "kind", "cluster", "tenant", "namespace", "gpu_class", "resource", "unit",
                       "quantity", "cost", "currency", "partial"]
    assert rows[2][6:] == ["a100-80gb", "nvidia.com/mig-1g.10gb", "1g.10gb slice-hours", "11.333333", "6.23", "USD",
                           "false"]
    total = next(i for i, row in enumerate(rows) if row[2] == "total")
    assert rows[total][-3:] == ["93.83", "USD", "false"]  # the sum of the billed rows above it
    # the provider's own section after it, labelled by kind, with its own total (before: left out of the file)
    assert [row[2] for row in rows[total + 1:]] == ["provider-gpu", "provider-total"]
    assert rows[total + 1][5] == "sandbox" and rows[-1][-3:] == ["6.40", "USD", "false"]
    text = presentation.billing_table(billing_report())
    assert "GPU billing 2026-01-31T20:00:00Z .. 2026-02-01T04:00:00Z (USD)" in text
    # whole-GPU hours and slice-hours are never added up (12 + 12 + 11.333333 would be 35.333333)
    assert _cells(text.splitlines()[-1]) == ["TOTAL", "all units", "93.83"] and "35.333333" not in text
    assert "kWh" not in text and "energy" not in text
    empty = billing_report()
    empty.lines = []
    assert "No billable GPU usage" in presentation.billing_table(empty)


def test_budget_rows_per_month_of_the_period():
    rows = budget_rows(billing_report(), TENANTS[0])
    assert [(r["month"], round(r["used"], 3), r["whole_month"]) for r in rows] == [("2026-01", 0.246, False),
                                                                                  ("2026-02", 0.246, False)]


ISSUER = Issuer(name="Example GPU Cloud Ltd.", address=("1 Example Street", "12345 Example City"),
                tax_id="DE123456789", email="billing@example.com")
ISSUED = date(2026, 2, 2)
NOW = t("2026-02-02T00:00:00Z")  # every hour of the period final: the statements are invoices


def example_model(**issuer):
    from dataclasses import replace

    from gpudash.model import load_bundled_example

    return replace(load_bundled_example(), issuer=replace(ISSUER, **issuer))


def statements(report: BillingReport, folder: Path, now: float = NOW, **issuer) -> list[tuple[Path, str]]:
    """Each tenant's statement as the CLI names and renders it (no I/O)."""
    return [(folder / presentation.statement_filename(inv), presentation.statement_html(report, inv))
            for inv in invoice.invoices(report, example_model(**issuer), ISSUED, now)]


def test_html_statements_are_self_contained_and_escaped(tmp_path):
    report = billing_report()
    report.tenants = [Tenant("<b>x</b>&co", "team-a", 500.0, (), (), "r")]
    for line in report.lines:
        line.tenant = "<b>x</b>&co" if line.tenant == "team-a" else line.tenant
    report.daily["<b>x</b>&co"] = report.daily["team-a"]
    ((path, html),) = statements(report, tmp_path / "out")
    assert path.name == "gpudash-statement-b_x_b_co-20260131T2000Z-20260201T0400Z.html"
    assert not path.parent.exists()  # the generator does no I/O
    assert "&lt;b&gt;x&lt;/b&gt;&amp;co" in html and "<b>x</b>" not in html
    assert "<script" not in html and "<link" not in html and "src=" not in html  # nothing loaded from elsewhere
    assert "@media print" in html and "@page" in html
    assert "44.63 USD" in html and html.count("<rect") == 2  # one bar per day


def test_statement_speaks_the_tenants_language(tmp_path):
    """No series names, products or provider advice; invoice basics from the model and the period."""
    report = billing_report()
    report.gaps, report.partial = [START + H], True
    report.warnings.append("the hub rules recorded nothing for 1 of 8 hour(s) (namespace:gpudash_tenant:info)")
    (_, html), = [s for s in statements(report, tmp_path) if "team-a" in s[0].name]
    for internal in ("gpudash_", "NVIDIA-Tesla-T4", "add the product", "hub rules", "query API", "sandbox"):
        assert internal not in html, internal
    assert "No usage was recorded for 1 hour(s)" in html and "some usage may be missing" in html
    assert "2.000000 GPU-hours on cluster east have no price yet" in html
    for text in ("Example GPU Cloud Ltd.", "12345 Example City", "DE123456789", "Issue date <strong>2026-02-02",
                 "2026-01-31 20:00:00 to 2026-02-01 03:59:59 (inclusive, UTC)", "US Dollar, 2 decimals",
                 "DRAFT-" + invoice.document_key("team-a", START, END)):
        assert text in html, text
    # hours per resource, never whole-GPU hours added to MIG slice-hours
    assert "1g.10gb slice-hours" in html and "35.333333" not in html and "23.333333" not in html


def test_statement_keys_are_deterministic_and_distinct():
    n = invoice.document_key
    assert n("team-a", START, END) == n("team-a", START, END)
    assert len({n("team-a", START, END), n("research", START, END), n("team-a", START, END + H)}) == 3
    assert presentation.period_text(t("2026-01-01T00:00:00Z"), t("2026-02-01T00:00:00Z")) == \
        "2026-01-01 to 2026-01-31 (inclusive, UTC)"


def test_daily_chart_scales_to_a_round_maximum():
    chart = presentation.daily_chart(billing_report(), "team-a")
    assert chart["yticks"][-1]["text"] == "20" and len(chart["bars"]) == 2
    assert chart["bars"][0]["h"] == pytest.approx(12 / 20 * chart["plot_h"], abs=0.01)


def test_single_cluster_report_has_no_cluster_column_or_empty_names():
    report = billing_report()
    for line in report.lines:
        line.cluster = ""
    report.single_cluster = True
    text = presentation.billing_table(report)
    assert "CLUSTER" not in text and "one cluster's own Prometheus" in text
    assert text.splitlines()[2].split()[:2] == ["TENANT", "NAMESPACE"]
    assert report.to_json()["source"] == "single-cluster"


def test_single_cluster_wording():
    every = set(range(START, END, H))
    assert common.single_cluster({"": every}) and not common.single_cluster({"east": every})
    assert common.missing_cluster_warnings(("prod-east",), {"": every}, START, END, "GPU usage") == []
    (gap,) = common.missing_cluster_warnings(("prod-east",), {"": every - {START}}, START, END, "GPU usage")
    assert gap.startswith("the gpudash rules on this cluster recorded no hourly figures for 1 of 8")
    assert "prod-east" not in gap
    (hub,) = common.missing_cluster_warnings(("prod-east",), {"west": every}, START, END, "GPU usage")
    assert hub.startswith("cluster prod-east of the model pushed no hourly figures")
    assert common.on_cluster("") == "" and common.on_cluster("east") == " on cluster east"


def nodes_report() -> NodesReport:
    return NodesReport(START, END, END, [(START, "east", "gpu-1", 4), (START + H, "east", "gpu-1", 3),
                                         (START + H, "west", "amd-1", 4)],
                       [(START, 1, 4), (START + H, 2, 7), (START + 2 * H, 0, 0)], [])


def test_nodes_formats():
    data = nodes_report().to_json()
    assert data["hours"][0] == {"hour": "2026-01-31T20:00:00Z", "cluster": "east", "node": "gpu-1", "active_gpus": 4,
                                "active_from": []}
    assert data["summary"][2] == {"hour": "2026-01-31T22:00:00Z", "active_nodes": 0, "active_gpus": 0}
    assert presentation.nodes_csv(nodes_report()).splitlines()[1] == "2026-01-31T20:00:00Z,east,gpu-1,4,false"
    assert presentation.nodes_csv(nodes_report(), summary=True).splitlines()[2] == "2026-01-31T21:00:00Z,2,7,false"
    assert "ACTIVE NODES" in presentation.nodes_table(nodes_report())


def test_nodes_names_each_possibly_low_node_hour():
    """exporter_down and init_unseen rows make a node-hour's count a lower bound: each source its own warning."""
    from gpudash.model import series as names
    from gpudash.ops.report import nodes

    per_node = {(START, "east", "gpu-1"): 1, (START + H, "east", "gpu-1"): 1, (START, "west", "mig-1"): 2}
    sources = {(START, "east", "gpu-1"): {names.FROM_INIT_UNSEEN, names.FROM_ATTRIBUTION},
               (START + H, "east", "gpu-1"): {names.FROM_INIT_UNSEEN}, (START, "west", "mig-1"): {names.FROM_BOUND},
               (START + 2 * H, "east", "gpu-2"): {names.FROM_EXPORTER_DOWN}}  # no GPU active: no row, no warning
    (unseen,) = nodes._possibly_low(sources, per_node)
    assert unseen.startswith("2 node-hour(s) " + nodes.POSSIBLY_LOW[names.FROM_INIT_UNSEEN] + ": east/gpu-1 at ")
    sources[(START, "west", "mig-1")].add(names.FROM_EXPORTER_DOWN)
    down, unseen = nodes._possibly_low(sources, per_node)
    assert "dcgm-exporter was down" in down and "west/mig-1" in down and "west" not in unseen


def test_idle_formats():
    w = IdleWorkload("east", "team-a", "Notebook", "nb-alice", ["notebook-0"], 1.0, {"nvidia_com_gpu": 1.0},
                     t("2026-02-01T00:00:00Z"), 3.2, 0)
    report = IdleReport(t("2026-02-01T02:00:00Z"), 1800, "USD", [w], [])
    data = report.to_json()
    assert data["workloads"][0]["dry_run_action"] == "scale to 0 replicas" and data["window"] == "30m"
    assert data["total_cost_per_hour"] == 3.2
    assert "3.20 USD per hour" in presentation.idle_table(report)
    assert presentation.idle_csv(report).splitlines()[1].startswith("east,team-a,Notebook,nb-alice,notebook-0,1,")


def test_progress_only_on_a_terminal(capsys):
    from gpudash.base.progress import Progress

    with Progress("billing", enabled=True) as p:
        p(2, 24, "2025-02")
    assert "gpudash: billing: 2025-02" in capsys.readouterr().err
    quiet = Progress("billing", enabled=False)
    quiet(2, 24, "2025-02")
    assert capsys.readouterr().err == ""


# --- command line -----------------------------------------------------------------------------------------------
def test_rfc3339_output():
    assert rfc3339(0) == "1970-01-01T00:00:00Z"


# --- invoice arithmetic: every printed total is the sum of its printed lines ------------------------------------
def naive_report(currency: str = "USD") -> BillingReport:
    """Lines whose unrounded sums round differently: team-a 3 x 1.004 (naive 3.01, printed lines 3 x 1.00),
    research 2 x 0.335 (naive 0.67, printed lines 2 x 0.34) and 2 x 0.0000005 GPU-hours (naive 0.000001,
    printed lines 2 x 0.000001)."""
    a = [Line("east", "team-a", "team-a", "a100-80gb", r, 1 / 3, 1.004)
         for r in ("nvidia.com/gpu", "nvidia.com/mig-1g.10gb", "nvidia.com/gpu.shared")]
    b = [Line(c, "research", "ml-research", "mi300x", "amd.com/gpu", 0.0000005, 0.335) for c in ("east", "west")]
    month = t("2026-01-01T00:00:00Z")
    return BillingReport(t("2026-01-01T00:00:00Z"), t("2026-02-01T00:00:00Z"), t("2026-02-01T00:00:00Z"), currency,
                         a + b, TENANTS, [], [], {}, {"team-a": {month: [1.004] * 3}, "research": {month: [0.335] * 2}})


def _money(text: str) -> Decimal:
    return Decimal(text.replace(",", ""))


def test_the_naive_case_differs():
    """The fixture is worth testing: rounding the unrounded sums would print other totals."""
    assert common.round_money(3 * 1.004, "USD") == 3.01 and common.round_money(2 * 0.335, "USD") == 0.67
    assert common.round_hours(2 * 0.0000005) == 0.000001 and common.round_hours(0.0000005) * 2 == 0.000002


def json_sums(data: dict) -> None:
    """Every JSON total is the sum of the printed lines it covers: per tenant and unit, per tenant, per unit, all."""
    rows = data["lines"]
    assert {x["kind"] for x in rows} <= {"gpu", "energy"}
    dec = lambda v: Decimal(str(v))  # noqa: E731
    for total in data["totals"]:
        mine = [x for x in rows if x["tenant"] == total["tenant"]]
        assert dec(total["cost"]) == sum(dec(x["cost"]) for x in mine)
        for u in total["by_unit"]:
            assert dec(u["quantity"]) == sum(dec(x["quantity"]) for x in mine if x["unit"] == u["unit"])
            assert dec(u["cost"]) == sum(dec(x["cost"]) for x in mine if x["unit"] == u["unit"])
        assert dec(total["cost"]) == sum(dec(u["cost"]) for u in total["by_unit"])
    for u in data["by_unit"]:
        assert dec(u["quantity"]) == sum(dec(x["quantity"]) for x in rows if x["unit"] == u["unit"])
        assert dec(u["cost"]) == sum(dec(x["cost"]) for x in rows if x["unit"] == u["unit"])
    assert dec(data["total_cost"]) == sum(dec(x["cost"]) for x in rows) == sum(dec(t["cost"]) for t in data["totals"])
    provider = data["provider"]
    assert dec(provider["total_cost"]) == sum(dec(x["cost"]) for x in provider["lines"])
    assert all(x["kind"].startswith("provider-") for x in provider["lines"])


def csv_sums(text: str) -> Decimal:
    """The CSV's total row, checked to be the sum of the billed rows above it (the provider's section follows)."""
    rows = list(csv.DictReader(io.StringIO(text)))
    *lines, total = [r for r in rows if not r["kind"].startswith("provider-")]
    assert total["kind"] == "total" and all(r["kind"] in ("gpu", "energy") for r in lines)
    assert Decimal(total["cost"]) == sum(Decimal(r["cost"]) for r in lines)
    return Decimal(total["cost"])


def html_sums(html: str) -> Decimal:
    """The statement's total due, checked to be its subtotal plus tax, the subtotal the sum of its amounts."""
    subtotal, tax, total = map(_money, re.findall(r'<td class="num">([^<]*)</td>',
                                                  html[html.index("<tfoot>"):html.index("</tfoot>")]))
    body = html[html.index("<tbody>"):html.index("</tbody>")]
    amounts = [re.findall(r'<td class="num">([^<]*)</td>', row)[-1] for row in body.split("</tr>") if "num" in row]
    assert subtotal == sum(map(_money, amounts)) and total == subtotal + tax
    return total


def test_json_totals_are_sums_of_printed_lines():
    data = json.loads(presentation.dumps(naive_report().to_json()))
    json_sums(data)
    assert [t["cost"] for t in data["totals"]] == ["0.68", "3.00"] and data["total_cost"] == "3.68"
    assert {u["unit"] for u in data["by_unit"]} == {"GPU-hours", "1g.10gb slice-hours", "shared GPU-hours"}


def test_csv_lines_are_the_json_lines():
    report = naive_report()
    rows = list(csv.DictReader(io.StringIO(presentation.billing_csv(report))))[:-1]
    assert [(Decimal(r["quantity"]), Decimal(r["cost"])) for r in rows] == \
        [(Decimal(str(x["quantity"])), Decimal(str(x["cost"]))) for x in report.to_json()["lines"]]


def test_csv_lines_add_up_to_the_printed_totals():
    """CSV lines summed per tenant give the totals the other formats print; its total row is their sum."""
    report = naive_report()
    sums: dict[str, Decimal] = {}
    text = presentation.billing_csv(report)
    for r in list(csv.DictReader(io.StringIO(text)))[:-1]:
        sums[r["tenant"]] = sums.get(r["tenant"], Decimal(0)) + Decimal(r["cost"])
    assert sums == {t: c for t, _, c in report.totals()}
    assert csv_sums(text) == report.total_cost == Decimal("3.68")


def _cells(row: str) -> list[str]:
    """A text table row's cells (cells are separated by at least two spaces, units hold single ones)."""
    return [c.strip() for c in row.split("  ") if c.strip()]


def table_sums(text: str) -> tuple[list[list[str]], dict]:
    """The billing table's printed lines and its totals {(tenant, unit): (quantity, cost)}, each checked to be
    the sum of the printed lines it covers."""
    blocks = text.split("\n\n")
    lines = [_cells(row) for row in blocks[1].splitlines()[1:]]
    totals = {(r[0], r[1]): r[2:] for r in map(_cells, blocks[-1].splitlines()[2:])}
    for (tenant, unit), figures in totals.items():
        mine = [r for r in lines if tenant in (r[1], "TOTAL") and (unit in (r[6], "all units"))]
        assert _money(figures[-1]) == sum(_money(r[7]) for r in mine), (tenant, unit)
        if unit != "all units":
            assert _money(figures[0]) == sum(_money(r[5]) for r in mine), (tenant, unit)
    return lines, totals


def test_table_totals_are_sums_of_printed_lines():
    lines, totals = table_sums(presentation.billing_table(naive_report()))
    assert _money(totals[("TOTAL", "all units")][0]) == Decimal("3.68")
    # one row per unit: whole GPUs, MIG slices and shared GPUs are not added up
    assert {u for t, u in totals if t == "team-a"} == {"GPU-hours", "1g.10gb slice-hours", "shared GPU-hours",
                                                       "all units"}


@pytest.mark.parametrize("currency,line_cost,total", [("JPY", "1", "3"), ("KWD", "1.004", "3.012")])
def test_totals_follow_the_currency_minor_unit(currency, line_cost, total):
    text = presentation.billing_table(naive_report(currency))
    team = [_cells(row) for row in text.splitlines() if " team-a " in f" {row} " and row.startswith("east")]
    assert {r[7] for r in team} == {line_cost}
    assert _cells(text.splitlines()[-5]) == ["team-a", "all units", total]  # team-a's total in the totals table
    data = json.loads(presentation.dumps(naive_report(currency).to_json()))  # the JSON's money at the same exponent
    assert {x["cost"] for x in data["lines"] if x["tenant"] == "team-a"} == {line_cost}
    assert [t["cost"] for t in data["totals"] if t["tenant"] == "team-a"] == [total]


def test_html_totals_and_budget_are_sums_of_printed_lines(tmp_path):
    """The invoice arithmetic (docs/billing-contract.md section 11): subtotal = the amounts, total = subtotal +
    tax; a line's shown quantity times its unit price is its amount within the rounding of the quantity shown."""
    for _, html in statements(naive_report(), tmp_path):
        body = html[html.index("<tbody>"):html.index("</tbody>")]
        rows = [re.findall(r'<td class="num">([^<]*)</td>', row) for row in body.split("</tr>") if "num" in row]
        subtotal, tax, total = re.findall(r'<td class="num">([^<]*)</td>',
                                          html[html.index("<tfoot>"):html.index("</tfoot>")])
        assert _money(subtotal) == sum(_money(r[2]) for r in rows) and _money(total) == _money(subtotal) + _money(tax)
        for quantity, price, cost in rows:
            digits = -_money(quantity).as_tuple().exponent
            bound = _money(price) * Decimal(5).scaleb(-digits - 1) + Decimal("0.005")
            assert abs(_money(quantity) * _money(price) - _money(cost)) <= bound
        # a one-month period: the budget table's month cost is the statement's subtotal (tax is not budgeted)
        assert f'<td class="num">{subtotal}</td><td class="num">' in html[html.index("</tfoot>"):]
        # the summary cards: the total due, and per unit the sum of its lines' printed quantities
        cards = dict(re.findall(r'<div class="label[^"]*">([^<]*)</div>\s*<div class="value">([^<]*)</div>', html))
        assert cards.pop("Total due") == f"{total} USD"
        quantities: dict[str, Decimal] = {}
        for row in body.split("</tr>"):
            found = re.search(r'<td class="num">([^<]*)</td><td>([^<]*)</td>', row)
            if found:
                quantities[found[2]] = quantities.get(found[2], Decimal(0)) + _money(found[1])
        assert {u: _money(q) for u, q in cards.items()} == quantities and quantities


# --- energy (docs/billing-contract.md section 10) ---------------------------------------------------------------
def energy_report() -> BillingReport:
    """The naive report with energy: per tenant and cluster lines whose unrounded sums round differently
    (team-a 1.0000004 kWh + research 2 x 0.0000005 kWh; 0.125 USD twice), and the provider's unallocated line."""
    report = naive_report()
    report.energy = [EnergyLine("east", "research", "ml-research", 0.0000005, 0.125),
                     EnergyLine("west", "research", "ml-research", 0.0000005, 0.125),
                     EnergyLine("east", "team-a", "team-a", 1.0000004, 0.2)]
    report.unallocated = [EnergyLine("east", UNALLOCATED, "", 3.25, 0.65),
                          EnergyLine("west", UNALLOCATED, "", 1.5, 0.3)]
    return report


def test_energy_lines_in_every_format_and_every_total_is_the_sum_of_its_lines(tmp_path):
    report = energy_report()
    data = json.loads(presentation.dumps(report.to_json()))
    json_sums(data)
    # research: 0.68 GPU + 2 x 0.13 energy (each line rounded once, not 0.25 rounded from the sum); team-a 3.00 + 0.20
    assert [(t["tenant"], t["cost"]) for t in data["totals"]] == [("research", "0.94"), ("team-a", "3.20")]
    assert data["total_cost"] == "4.14"
    energy = [x for x in data["lines"] if x["kind"] == "energy"]
    assert energy[0] == {"kind": "energy", "cluster": "east", "tenant": "research", "namespace": "ml-research",
                         "gpu_class": "", "resource": "energy", "unit": "kWh", "quantity": 0.000001, "cost": "0.13"}
    assert [(x["kind"], x["cluster"], x["quantity"], x["cost"]) for x in data["provider"]["lines"]] == [
        ("provider-energy", "east", 3.25, "0.65"), ("provider-energy", "west", 1.5, "0.30")]
    assert data["provider"]["total_cost"] == "0.95"
    assert {"unit": "kWh", "quantity": 1.000002, "cost": "0.46"} in data["by_unit"]  # never the unallocated 4.75 kWh

    text = presentation.billing_csv(report)
    rows = [r for r in csv.DictReader(io.StringIO(text)) if r["kind"] in ("gpu", "energy")]
    billed: dict[str, Decimal] = {}
    for r in rows:
        billed[r["tenant"]] = billed.get(r["tenant"], Decimal(0)) + Decimal(r["cost"])
    assert billed == {"team-a": Decimal("3.20"), "research": Decimal("0.94")}  # unallocated is nobody's line
    provider = [r for r in csv.DictReader(io.StringIO(text)) if r["kind"].startswith("provider-")]
    assert [(r["kind"], r["tenant"], r["quantity"], r["cost"]) for r in provider] == [
        ("provider-energy", "unallocated", "3.250000", "0.65"), ("provider-energy", "unallocated", "1.500000", "0.30"),
        ("provider-total", "", "", "0.95")]  # before: the unallocated energy was in no CSV
    assert csv_sums(text) == Decimal("4.14")
    assert [r["quantity"] for r in rows if r["resource"] == "energy"] == ["0.000001", "0.000001", "1.000000"]

    text = presentation.billing_table(report)
    lines, totals = table_sums(text)
    assert [r[4:7] for r in lines if r[4] == "energy"] == [["energy", "0.000001", "kWh"]] * 2 + [
        ["energy", "1.000000", "kWh"]]
    assert totals[("team-a", "kWh")] == ["1.000000", "0.20"] and totals[("TOTAL", "all units")] == ["4.14"]
    unallocated = text.split("\n\n")[2].splitlines()
    assert "not billed" in unallocated[0]
    assert [_cells(r)[-3:] for r in unallocated[2:]] == [["3.250000", "kWh", "0.65"], ["1.500000", "kWh", "0.30"],
                                                          ["4.750000", "kWh", "0.95"]]
    assert _cells(unallocated[-1])[0] == "TOTAL"  # labelled in the first printed column, with or without CLUSTER
    report.single_cluster = True
    assert _cells(presentation.billing_table(report).split("\n\n")[2].splitlines()[-1])[0] == "TOTAL"
    report.single_cluster = False

    for path, html in statements(report, tmp_path):
        assert "unallocated" not in html and "Energy lines are the kWh" in html
        assert html_sums(html) == {"research": Decimal("0.94"), "team": Decimal("3.20")}[path.name.split("-")[2]]
        assert "<code>energy</code>" in html and "kWh" in html
        assert "Energy is not counted against the budget." in html  # energy.in_budget is false here
    report.energy_in_budget = True
    assert all("not counted against the budget" not in html for _, html in statements(report, tmp_path))


def test_energy_queries_read_the_hour_and_a_tenant_never_sees_unallocated():
    for expr in (queries.energy_kwh(queries.Scope()), queries.energy_cost(queries.Scope())):
        assert expr.startswith("max by (cluster, namespace) (last_over_time(") and expr.endswith("[1h] offset 1ms))")
    tenant = queries.energy_kwh(queries.Scope(namespace="team-a"))
    assert f'{names.HOUR_ENERGY}{{namespace="team-a"}}' in tenant  # the row without namespace is not selected
    assert ("billing energy_cost", queries.energy_cost(queries.Scope(namespace="team-a"))) in \
        queries.tenant_queries("team-a", 450, 1800)
