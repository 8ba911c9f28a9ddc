"""Presentation of the reports: aligned tables, CSV, JSON and (billing) self-contained HTML statements.

Billing figures arrive rounded (:meth:`gpudash.ops.report.billing.BillingReport.billed`); this module only formats them.
"""
from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Collection
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import cast

import iso4217
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from gpudash.base.terminal import printable
from gpudash.base.timestamps import rfc3339
from gpudash.ops.report import common, invoice
from gpudash.ops.report.billing import BillingReport, budget_rows, days_of
from gpudash.ops.report.idle import IdleReport
from gpudash.ops.report.invoice import Invoice
from gpudash.ops.report.nodes import NodesReport

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")


def table(headers: list[str], rows: list[list], right: Collection[int] = frozenset()) -> str:
    """A plain aligned text table; columns in ``right`` are right-aligned. Control characters in a cell (a label
    value from the server) are escaped: a cell cannot start a line or move the cursor."""
    cells = [headers] + [[printable(str(c)) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    out = []
    for r in cells:
        cols = (c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(r))
        out.append("  ".join(cols).rstrip())
    return "\n".join(out) + "\n"


def _csv(headers: list[str], rows: list[list]) -> str:
    """RFC 4180: CRLF line ends, a field holding a comma, a quote or a line break quoted (quotes doubled)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(headers)
    w.writerows(rows)
    return buf.getvalue()


PARTIAL_MARK = ("PARTIAL: part of the metrics store did not answer (--allow-partial); these figures may be short, "
                "never final\n\n")


def _partial_head(partial: bool) -> str:
    """The mark a partial report's table opens with (the CSV has its ``partial`` column, the JSON its field)."""
    return PARTIAL_MARK if partial else ""


def _flag(partial: bool) -> str:
    """The value of the CSV's ``partial`` column."""
    return "true" if partial else "false"


def dumps(data: dict) -> str:
    """Indented JSON; json escapes C0 controls itself, DEL, C1 and the Unicode line breaks are escaped here too
    (they can only occur inside strings, where ``\\uXXXX`` is the same text)."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text) + "\n"


_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _money(value: float | Decimal, currency: str) -> str:
    return f"{common.round_money(value, currency):,.{common.money_digits(currency)}f}"


def _hours(value: float | Decimal) -> str:
    return f"{value:,.{common.GPU_HOURS_DIGITS}f}"


# --- billing --------------------------------------------------------------------------------------------------
def billing_table(r: BillingReport) -> str:
    """The billing lines (GPU, then energy), the provider's unallocated energy, and the totals: per tenant and
    overall, one row per unit (GPU-hours, slice-hours and kWh are never added up) and the cost, the sum of them."""
    cur = r.currency
    source = ", from one cluster's own Prometheus (no ACM hub)" if r.single_cluster else ""
    head = f"{_partial_head(r.partial)}GPU billing {rfc3339(r.start)} .. {rfc3339(r.end)} ({cur}){source}\n\n"
    if not r.charged and not r.unallocated:
        return head + "No billable GPU usage in the period.\n"
    skip = 1 if r.single_cluster else 0  # a single cluster's series have no cluster label: no empty column
    row = lambda x, b: [x.cluster, x.tenant, x.namespace or "-", x.gpu_class or "-", x.resource,  # noqa: E731
                        _hours(b.quantity), common.unit(x.resource), _money(b.cost, cur)][skip:]
    headers = ["CLUSTER", "TENANT", "NAMESPACE", "GPU CLASS", "RESOURCE", "QUANTITY", "UNIT", f"COST ({cur})"][skip:]
    out = head + table(headers, [row(x, r.billed(x)) for x in r.charged], right={5 - skip, 7 - skip})
    if r.unallocated:
        spent = r.by_unit(r.unallocated)[0][1]
        out += ("\nGPU energy held by no pod (the provider's, not billed):\n"
                + table(headers, [row(x, r.billed(x)) for x in r.unallocated]
                        + [["TOTAL", *[""] * (4 - skip), _hours(spent.quantity), common.KWH,
                            _money(spent.cost, cur)]], right={5 - skip, 7 - skip}))
    rows = []
    for name, units, cost in [*r.totals(), ("TOTAL", r.by_unit(r.charged), r.total_cost)]:
        rows += [[name, u, _hours(b.quantity), _money(b.cost, cur)] for u, b in units]
        rows.append([name, "all units", "", _money(cost, cur)])
    return out + "\nTotals (quantities per unit; the cost of each tenant and overall is the sum of its units):\n" + \
        table(["TENANT", "UNIT", "QUANTITY", f"COST ({cur})"], rows, right={2, 3})


def billing_csv(r: BillingReport) -> str:
    """RFC 4180 CSV: one row per billed line (kind gpu or energy), then a ``total`` row whose cost is the sum of
    the billed rows above it; then the provider's own section, not billed to anyone: its lines (kind
    ``provider-gpu`` or ``provider-energy``: energy held by no pod, usage outside any tenant) and a
    ``provider-total`` row, the sum of those. Money as in the JSON: decimal strings at the currency's exponent."""
    data = r.to_json()
    headers = ["start", "end", "kind", "cluster", "tenant", "namespace", "gpu_class", "resource", "unit", "quantity",
               "cost", "currency", "partial"]
    rows = lambda lines: [[data["start"], data["end"], x["kind"], x["cluster"], x["tenant"], x["namespace"],  # noqa: E731
                           x["gpu_class"], x["resource"], x["unit"], f"{x['quantity']:.{common.GPU_HOURS_DIGITS}f}",
                           x["cost"], r.currency, _flag(r.partial)] for x in lines]
    total = lambda kind, cost: [data["start"], data["end"], kind, *[""] * 7, cost, r.currency,  # noqa: E731
                                _flag(r.partial)]
    provider = data["provider"]
    out = [*rows(data["lines"]), total("total", data["total_cost"])]
    if provider["lines"]:
        out += [*rows(provider["lines"]), total("provider-total", provider["total_cost"])]
    return _csv(headers, out)


# --- nodes ----------------------------------------------------------------------------------------------------
def nodes_table(r: NodesReport, per_node: bool = True) -> str:
    """The hourly CCSP summary, then (``per_node``) every node's hourly count."""
    head = (f"{_partial_head(r.partial)}CCSP active GPUs per hour {rfc3339(r.start)} .. {rfc3339(r.end)} "
            "(UTC clock hours)\n\n")
    if not r.summary:
        return head + "No CCSP data in the period.\n"
    summary = table(["HOUR", "ACTIVE NODES", "ACTIVE GPUS"], [[rfc3339(h), n, g] for h, n, g in r.summary],
                    right={1, 2})
    if not per_node:
        return head + summary
    nodes = table(["HOUR", "CLUSTER", "NODE", "ACTIVE GPUS"], [[rfc3339(h), c, n, g] for h, c, n, g in r.rows],
                  right={3})
    return head + summary + "\n" + nodes


def nodes_csv(r: NodesReport, summary: bool = False) -> str:
    flag = _flag(r.partial)
    if summary:
        return _csv(["hour", "active_nodes", "active_gpus", "partial"],
                    [[rfc3339(h), n, g, flag] for h, n, g in r.summary])
    return _csv(["hour", "cluster", "node", "active_gpus", "partial"],
                [[rfc3339(h), c, n, g, flag] for h, c, n, g in r.rows])


# --- idle -----------------------------------------------------------------------------------------------------
def _idle_rows(r: IdleReport) -> list[list]:
    return [[w.cluster, w.namespace, w.owner_kind, w.owner_name, " ".join(w.pods), f"{w.gpus:g}",
             rfc3339(w.idle_since), _money(w.cost_per_hour, r.currency), w.action] for w in r.workloads]


def idle_table(r: IdleReport) -> str:
    from gpudash.promql.build import duration

    head = (f"{_partial_head(r.partial)}Idle GPUs at {rfc3339(r.time)}: zero peak activity for at least "
            f"{duration(r.window)} (dry run)\n\n")
    if not r.workloads:
        return head + "No idle workload holds GPUs.\n"
    body = table(["CLUSTER", "NAMESPACE", "KIND", "NAME", "PODS", "GPUS", "IDLE SINCE", f"{r.currency}/H",
                  "DRY-RUN ACTION"], _idle_rows(r), right={5, 7})
    return head + body + f"\nIdle GPUs cost {_money(r.total_cost_per_hour, r.currency)} {r.currency} per hour.\n"


def idle_csv(r: IdleReport) -> str:
    return _csv(["cluster", "namespace", "owner_kind", "owner_name", "pods", "gpus", "idle_since", "cost_per_hour",
                 "dry_run_action", "partial"], [[*row, _flag(r.partial)] for row in _idle_rows(r)])


# --- HTML statements ------------------------------------------------------------------------------------------
def _env() -> Environment:
    env = Environment(loader=PackageLoader("gpudash.ops.report", "templates"),
                      autoescape=select_autoescape(["html", "j2"]), undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    return env


def statement_filename(inv: Invoice, suffix: str = ".html") -> str:
    """A file name per tenant and period; a draft's says so, so it never takes the final statement's place, and a
    credit note's names itself and its number."""
    safe = _file_safe(inv.buyer.name) or "tenant"
    fmt = lambda t: datetime.fromtimestamp(t, UTC).strftime("%Y%m%dT%H%MZ")  # noqa: E731
    if inv.credit:  # beside the invoice it cancels, never in its place
        return f"gpudash-credit-note-{safe}-{fmt(inv.start)}-{fmt(inv.end)}-{_file_safe(inv.number)}{suffix}"
    return f"gpudash-statement-{safe}-{fmt(inv.start)}-{fmt(inv.end)}{'-DRAFT' if inv.draft else ''}{suffix}"


def _file_safe(text: str) -> str:
    """``text`` as a part of a file name: letters, digits, dot, dash and underscore only, no leading dot."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._")


def _nice_max(value: float) -> float:
    """The smallest 1, 2, 2.5 or 5 x 10^k at or above ``value`` (the top of the chart's y axis)."""
    if value <= 0:
        return 1.0
    return min(b * 10 ** e for e in range(-3, 13) for b in (1, 2, 2.5, 5) if b * 10 ** e >= value)


def daily_chart(r: BillingReport, tenant: str, width: int = 680, height: int = 150) -> dict:
    """Geometry of a stacked bar chart of cost per UTC day and (class, resource) (drawn as SVG by the template):
    money adds up across resources, GPU-hours and MIG slice-hours do not."""
    days = days_of(r)
    per_day = r.daily.get(tenant, {})
    series = sorted({k for d in per_day.values() for k in d})
    left, bottom, top = 56, 34, 10
    plot_w, plot_h = width - left - 10, height - bottom - top
    ymax = _nice_max(max((sum(per_day.get(d, {}).values()) for d in days), default=0.0))
    slot = plot_w / max(1, len(days))
    bar_w = max(1.0, slot * 0.75)
    colors = {c: PALETTE[i % len(PALETTE)] for i, c in enumerate(series)}
    bars = []
    for i, d in enumerate(days):
        y: float = top + plot_h
        for c in series:
            v = per_day.get(d, {}).get(c, 0.0)
            if v <= 0:
                continue
            h = v / ymax * plot_h
            y -= h
            bars.append({"x": round(left + i * slot + (slot - bar_w) / 2, 2), "y": round(y, 2),
                         "w": round(bar_w, 2), "h": round(h, 2), "color": colors[c],
                         "title": f"{rfc3339(d)[:10]} {c}: {v:,.2f} {r.currency}"})
    label_every = max(1, -(-len(days) // 12))
    xlabels = [{"x": round(left + i * slot + slot / 2, 2), "text": rfc3339(d)[5:10]}
               for i, d in enumerate(days) if i % label_every == 0]
    yticks = [{"y": round(top + plot_h - k / 4 * plot_h, 2), "text": f"{ymax * k / 4:,.4g}"} for k in range(5)]
    return {"width": width, "height": height, "left": left, "top": top, "plot_w": plot_w, "plot_h": plot_h,
            "bars": bars, "xlabels": xlabels, "yticks": yticks,
            "legend": [{"name": c, "color": colors[c]} for c in series],
            "empty": not bars}


def price_text(price: Decimal, currency: str) -> str:
    """A unit price with at least the currency's minor-unit digits (3.20, 0.275)."""
    exponent = cast(int, price.as_tuple().exponent)  # a finite price's: a number, not NaN's 'n'
    digits = max(common.money_digits(currency), -exponent)
    return f"{price:,.{digits}f}"


def period_text(start: int, end: int) -> str:
    """The period with an inclusive end: whole days as dates, otherwise to the last second (UTC)."""
    a, b = datetime.fromtimestamp(start, UTC), datetime.fromtimestamp(end, UTC)
    if start % 86400 == 0 and end % 86400 == 0:
        return f"{a:%Y-%m-%d} to {b - timedelta(days=1):%Y-%m-%d} (inclusive, UTC)"
    return f"{a:%Y-%m-%d %H:%M:%S} to {b - timedelta(seconds=1):%Y-%m-%d %H:%M:%S} (inclusive, UTC)"


def tenant_notes(r: BillingReport, tenant) -> list[str]:
    """What the tenant must know about its statement, in its own terms (the provider's diagnostics stay in
    :attr:`BillingReport.warnings`)."""
    notes = []
    if r.readable_end < r.end:
        notes.append(f"Figures are final up to {rfc3339(r.readable_end)}; later hours are not included yet.")
    if r.gaps:
        notes.append(f"No usage was recorded for {len(r.gaps)} hour(s) of the period "
                     f"({common.describe_hours(r.gaps)}); usage in those hours is not included.")
    if r.partial:
        notes.append("Part of the metrics store did not answer: some usage may be missing from this statement.")
    notes += [f"{_hours(common.hours(u['gpu_hours']))} {common.unit(u['resource'])}{common.on_cluster(u['cluster'])} "
              "have no price yet and are not included." for u in r.unpriced if u["namespace"] == tenant.namespace]
    return notes


def payment_lines(issuer) -> list[str]:
    """The issuer's payment lines without one that gives its ``iban`` already (however spaced): the statement
    prints the IBAN once, with the BIC, in a line of its own."""
    iban = issuer.iban.upper()
    return [x for x in issuer.payment if not iban or iban not in re.sub(r"\s+", "", x).upper()]


def statement_html(r: BillingReport, inv: Invoice) -> str:
    """The printable statement of ``inv`` (a tenant's part of ``r``)."""
    cur, tenant = r.currency, inv.buyer
    per_unit: dict[str, Decimal] = {}
    for x in inv.lines:
        per_unit[x.unit] = per_unit.get(x.unit, Decimal(0)) + x.quantity
    return _env().get_template("statement.html.j2").render(
        inv=inv, tenant=tenant, issuer=inv.seller, billing=tenant.billing, number=inv.number,
        payment=payment_lines(inv.seller),
        issued=inv.issued.isoformat(), due=inv.due.isoformat(), period=period_text(r.start, r.end), currency=cur,
        currency_name=iso4217.Currency(cur).currency_name, digits=common.money_digits(cur),
        single_cluster=r.single_cluster,
        lines=[{"description": x.description, "cluster": x.cluster, "resource": x.resource, "unit": x.unit,
                "quantity": f"{x.quantity:,f}", "price": price_text(x.unit_price, cur), "cost": _money(x.amount, cur)}
               for x in inv.lines],
        usage=[{"unit": u, "quantity": f"{q:,f}"} for u, q in per_unit.items()],
        subtotal=_money(inv.subtotal, cur), tax_amount=_money(inv.tax_amount, cur),
        total_due=_money(inv.total_due, cur), tax_rate=f"{common.exact(inv.tax.rate).normalize():f}",
        budgets=[{**b, "cost": _money(b["cost"], cur), "budget": _money(b["budget"], cur),
                  "pct": f"{b['used'] * 100:.1f}" if b["used"] is not None else "",
                  "bar": min(100.0, (b["used"] or 0) * 100)} for b in budget_rows(r, tenant)],
        chart=daily_chart(r, tenant.name), notes=tenant_notes(r, tenant),
        energy=any(x.kind == invoice.ENERGY for x in inv.lines), energy_in_budget=r.energy_in_budget)
