"""Presentation of the reports: aligned tables, CSV, JSON and (billing) self-contained HTML statements.

Billing figures arrive rounded (:meth:`gpudash.report.billing.BillingReport.billed`); this module only formats them.
"""
from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, datetime
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from gpudash.report import common
from gpudash.report.billing import BillingReport, budget_rows, days_of
from gpudash.report.idle import IdleReport
from gpudash.report.nodes import NodesReport
from gpudash.report.period import rfc3339

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")


def table(headers: list[str], rows: list[list], right: set[int] = frozenset()) -> str:
    """A plain aligned text table; columns in ``right`` are right-aligned."""
    cells = [headers] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    out = []
    for r in cells:
        cols = (c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(r))
        out.append("  ".join(cols).rstrip())
    return "\n".join(out) + "\n"


def _csv(headers: list[str], rows: list[list]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(headers)
    w.writerows(rows)
    return buf.getvalue()


def dumps(data: dict) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _money(value: float, currency: str) -> str:
    return f"{common.round_money(value, currency):,.{common.money_digits(currency)}f}"


def _hours(value: float) -> str:
    return f"{value:,.{common.GPU_HOURS_DIGITS}f}"


# --- billing --------------------------------------------------------------------------------------------------
def billing_table(r: BillingReport) -> str:
    cur = r.currency
    head = f"GPU billing {rfc3339(r.start)} .. {rfc3339(r.end)} ({cur})\n\n"
    if not r.lines:
        return head + "No billable GPU usage in the period.\n"
    billed = [(x, r.billed(x)) for x in r.lines]
    lines = table(["CLUSTER", "TENANT", "NAMESPACE", "GPU CLASS", "RESOURCE", "GPU-HOURS", f"COST ({cur})"],
                  [[x.cluster, x.tenant, x.namespace, x.gpu_class, x.resource, _hours(b.gpu_hours),
                    _money(b.cost, cur)] for x, b in billed], right={5, 6})
    total = r.total(r.lines)
    totals = table(["TENANT", "GPU-HOURS", f"COST ({cur})"],
                   [[t, _hours(b.gpu_hours), _money(b.cost, cur)] for t, b in r.totals()]
                   + [["TOTAL", _hours(total.gpu_hours), _money(total.cost, cur)]], right={1, 2})
    return head + lines + "\n" + totals


def billing_csv(r: BillingReport) -> str:
    data = r.to_json()
    return _csv(["start", "end", "cluster", "tenant", "namespace", "gpu_class", "resource", "gpu_hours", "cost",
                 "currency"],
                [[data["start"], data["end"], x["cluster"], x["tenant"], x["namespace"], x["gpu_class"],
                  x["resource"], f"{x['gpu_hours']:.6f}", f"{x['cost']:.{common.money_digits(r.currency)}f}",
                  r.currency] for x in data["lines"]])


# --- nodes ----------------------------------------------------------------------------------------------------
def nodes_table(r: NodesReport) -> str:
    head = f"CCSP active GPUs per hour {rfc3339(r.start)} .. {rfc3339(r.end)} (UTC clock hours)\n\n"
    if not r.summary:
        return head + "No CCSP data in the period.\n"
    summary = table(["HOUR", "ACTIVE NODES", "ACTIVE GPUS"], [[rfc3339(h), n, g] for h, n, g in r.summary],
                    right={1, 2})
    nodes = table(["HOUR", "CLUSTER", "NODE", "ACTIVE GPUS"], [[rfc3339(h), c, n, g] for h, c, n, g in r.rows],
                  right={3})
    return head + summary + "\n" + nodes


def nodes_csv(r: NodesReport, summary: bool = False) -> str:
    if summary:
        return _csv(["hour", "active_nodes", "active_gpus"], [[rfc3339(h), n, g] for h, n, g in r.summary])
    return _csv(["hour", "cluster", "node", "active_gpus"], [[rfc3339(h), c, n, g] for h, c, n, g in r.rows])


# --- idle -----------------------------------------------------------------------------------------------------
def _idle_rows(r: IdleReport) -> list[list]:
    return [[w.cluster, w.namespace, w.owner_kind, w.owner_name, " ".join(w.pods), f"{w.gpus:g}",
             rfc3339(w.idle_since), _money(w.cost_per_hour, r.currency), w.action] for w in r.workloads]


def idle_table(r: IdleReport) -> str:
    from gpudash.promql.build import duration

    head = f"Idle GPUs at {rfc3339(r.time)}: zero peak activity for at least {duration(r.window)} (dry run)\n\n"
    if not r.workloads:
        return head + "No idle workload holds GPUs.\n"
    body = table(["CLUSTER", "NAMESPACE", "KIND", "NAME", "PODS", "GPUS", "IDLE SINCE", f"{r.currency}/H",
                  "DRY-RUN ACTION"], _idle_rows(r), right={5, 7})
    return head + body + f"\nIdle GPUs cost {_money(r.total_cost_per_hour, r.currency)} {r.currency} per hour.\n"


def idle_csv(r: IdleReport) -> str:
    return _csv(["cluster", "namespace", "owner_kind", "owner_name", "pods", "gpus", "idle_since", "cost_per_hour",
                 "dry_run_action"], _idle_rows(r))


# --- HTML statements ------------------------------------------------------------------------------------------
def _env() -> Environment:
    env = Environment(loader=PackageLoader("gpudash.report", "templates"), autoescape=select_autoescape(["html", "j2"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    return env


def statement_filename(tenant: str, start: int, end: int) -> str:
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", tenant).strip("._") or "tenant"
    fmt = lambda t: datetime.fromtimestamp(t, UTC).strftime("%Y%m%dT%H%MZ")  # noqa: E731
    return f"gpudash-statement-{safe}-{fmt(start)}-{fmt(end)}.html"


def _nice_max(value: float) -> float:
    """The smallest 1, 2, 2.5 or 5 x 10^k at or above ``value`` (the top of the chart's y axis)."""
    if value <= 0:
        return 1.0
    return min(b * 10 ** e for e in range(-3, 13) for b in (1, 2, 2.5, 5) if b * 10 ** e >= value)


def daily_chart(r: BillingReport, tenant: str, classes: list[str], width: int = 680, height: int = 220) -> dict:
    """Geometry of a stacked bar chart of GPU-hours per UTC day and class (drawn as SVG by the template)."""
    days = days_of(r)
    per_day = r.daily.get(tenant, {})
    left, bottom, top = 56, 34, 10
    plot_w, plot_h = width - left - 10, height - bottom - top
    ymax = _nice_max(max((sum(per_day.get(d, {}).values()) for d in days), default=0.0))
    slot = plot_w / max(1, len(days))
    bar_w = max(1.0, slot * 0.75)
    colors = {c: PALETTE[i % len(PALETTE)] for i, c in enumerate(classes)}
    bars = []
    for i, d in enumerate(days):
        y = top + plot_h
        for c in classes:
            v = per_day.get(d, {}).get(c, 0.0)
            if v <= 0:
                continue
            h = v / ymax * plot_h
            y -= h
            bars.append({"x": round(left + i * slot + (slot - bar_w) / 2, 2), "y": round(y, 2),
                         "w": round(bar_w, 2), "h": round(h, 2), "color": colors[c],
                         "title": f"{rfc3339(d)[:10]} {c}: {v:,.2f} GPU-hours"})
    label_every = max(1, -(-len(days) // 12))
    xlabels = [{"x": round(left + i * slot + slot / 2, 2), "text": rfc3339(d)[5:10]}
               for i, d in enumerate(days) if i % label_every == 0]
    yticks = [{"y": round(top + plot_h - k / 4 * plot_h, 2), "text": f"{ymax * k / 4:,.4g}"} for k in range(5)]
    return {"width": width, "height": height, "left": left, "top": top, "plot_w": plot_w, "plot_h": plot_h,
            "bars": bars, "xlabels": xlabels, "yticks": yticks,
            "legend": [{"name": c, "color": colors[c]} for c in classes],
            "empty": not bars}


# Warnings that concern every tenant's statement (the rest name other namespaces or clusters).
_GENERAL_NOTES = ("hours from ", "the query API warned", "the hub rules recorded nothing")


def statements(r: BillingReport, output_dir: str | Path) -> list[Path]:
    """Write one HTML statement per tenant of the report; returns the paths."""
    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    template = _env().get_template("statement.html.j2")
    cur, digits = r.currency, common.money_digits(r.currency)
    paths = []
    for tenant in r.tenants:
        lines = r.tenant_lines(tenant.name)
        classes = sorted({x.gpu_class for x in lines})
        total = r.total(lines)
        budgets = budget_rows(r, tenant)
        notes = [f"{common.round_hours(u['gpu_hours']):g} GPU-hours of {u['resource']} on product "
                 f"{u['product'] or '(none)'} (cluster {u['cluster']}) have no price yet and are not included."
                 for u in r.unpriced if u["namespace"] == tenant.namespace]
        notes += [w for w in r.warnings if w.startswith(_GENERAL_NOTES)]
        html = template.render(
            tenant=tenant, currency=cur, start=rfc3339(r.start), end=rfc3339(r.end),
            complete_until=rfc3339(r.readable_end), complete=r.readable_end >= r.end,
            lines=[{"cluster": x.cluster, "gpu_class": x.gpu_class, "resource": x.resource,
                    "gpu_hours": _hours(b.gpu_hours), "rate": _money(x.cost / x.gpu_hours, cur) if x.gpu_hours else "",
                    "cost": _money(b.cost, cur)} for x, b in ((x, r.billed(x)) for x in lines)],
            total_gpu_hours=_hours(total.gpu_hours), total_cost=_money(total.cost, cur),
            budgets=[{**b, "cost": _money(b["cost"], cur), "budget": _money(b["budget"], cur),
                      "pct": f"{b['used'] * 100:.1f}" if b["used"] is not None else "",
                      "bar": min(100.0, (b["used"] or 0) * 100)} for b in budgets],
            chart=daily_chart(r, tenant.name, classes), notes=notes, digits=digits)
        path = out / statement_filename(tenant.name, r.start, r.end)
        path.write_text(html, encoding="utf-8")
        paths.append(path)
    return paths
