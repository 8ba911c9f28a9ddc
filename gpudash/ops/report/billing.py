"""Billing statements: GPU-hours and cost per (cluster, tenant, GPU class, billed resource) over a period.

Read from the hub's hourly series ``cluster_namespace_class_resource:gpudash_gpu_hours:last_hour`` and
``...:gpudash_cost:last_hour`` (one figure per UTC clock hour, already priced by the hub rules), summed over the
hours of ``[start, end)``. Nothing is silent: GPU-hours on products without a price
(``...:gpudash_unpriced_gpu_hours:last_hour``), usage in namespaces that are no tenant of the model, clusters of
the model without data, hours not final yet, hours in which the hub rules did not run, and Thanos
partial-response warnings all become warnings.

Energy (docs/billing-contract.md section 10) is read from ``cluster_namespace:gpudash_energy_kwh:last_hour`` and
``...:gpudash_energy_cost:last_hour`` the same way: one energy line per (cluster, tenant namespace), and per cluster
the provider's ``unallocated`` line (the row without ``namespace``: GPUs held by no pod), never billed and never
in a tenant's report (its namespace matcher does not select it).

Rounding: each line is summed from the unrounded hourly values, then rounded once, money to the currency's ISO 4217
minor unit and quantities (GPU-hours, slice-hours, kWh) to 6 decimals (:meth:`BillingReport.billed`). Every total
(per tenant, per unit, the grand total, a month's cost against the budget) is the exact sum of those rounded lines,
in every format; quantities are only added up within one unit (:func:`common.unit`).
"""
from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from gpudash.base.timestamps import rfc3339
from gpudash.model.pricing import skus
from gpudash.model.types import Model, Tenant
from gpudash.ops.prometheus_client import Prometheus
from gpudash.ops.report import common
from gpudash.ops.report.period import month_start, next_month
from gpudash.queries import report_queries as queries

DAY = 86400


@dataclass
class Line:
    cluster: str
    tenant: str
    namespace: str
    gpu_class: str
    resource: str
    gpu_hours: float = 0.0
    cost: float = 0.0

    @property
    def quantity(self) -> float:
        return self.gpu_hours


@dataclass
class EnergyLine:
    """GPU energy of one namespace on one cluster; tenant ``unallocated`` (namespace "") is the provider's line."""

    cluster: str
    tenant: str
    namespace: str
    kwh: float = 0.0
    cost: float = 0.0
    gpu_class = ""
    resource = common.ENERGY

    @property
    def quantity(self) -> float:
        return self.kwh


UNALLOCATED = "unallocated"


@dataclass(frozen=True)
class Billed:
    """A line's or a total's printed figures: rounded once (lines) or summed from rounded lines (totals); the
    quantity is in the line's unit (:func:`common.unit`) and only summed within it."""

    quantity: Decimal
    cost: Decimal

    def __add__(self, other: Billed) -> Billed:
        return Billed(self.quantity + other.quantity, self.cost + other.cost)


NOTHING = Billed(Decimal(0), Decimal(0))


@dataclass
class BillingReport:
    start: int
    end: int
    readable_end: int  # hours from here on were not final yet
    currency: str
    lines: list[Line]  # tenants only, sorted by cluster, tenant, class, resource
    tenants: list[Tenant]  # the tenants the report is about (all of the model, or the --tenant one)
    non_tenant: list[Line]  # usage in namespaces that are not tenants (tenant = "")
    unpriced: list[dict]  # {cluster, namespace, tenant, product, resource, gpu_hours}
    daily: dict[str, dict[int, dict[str, float]]]  # tenant -> day start -> "gpu_class resource" -> cost
    monthly_cost: dict[str, dict[int, list[float]]]  # tenant -> month start -> the month's cost of each line
    warnings: list[str] = field(default_factory=list)  # the provider's diagnostics (stderr, JSON)
    single_cluster: bool = False  # read from one cluster's own Prometheus (no cluster label), not an ACM hub
    gaps: list[int] = field(default_factory=list)  # hours of the period for which nothing was recorded
    partial: bool = False  # the query API warned that some data may be missing
    energy: list[EnergyLine] = field(default_factory=list)  # tenants' energy lines, sorted by cluster, tenant
    unallocated: list[EnergyLine] = field(default_factory=list)  # the provider's, per cluster: never billed
    non_tenant_energy: list[EnergyLine] = field(default_factory=list)  # namespaces that are not tenants (warned)
    energy_in_budget: bool = False  # the model's energy.in_budget: monthly_cost holds the energy cost too

    def billed(self, line: Line | EnergyLine) -> Billed:
        """The line as printed: quantity and cost each rounded once."""
        return Billed(common.hours(line.quantity), common.money(line.cost, self.currency))

    def cost(self, lines: list) -> Decimal:
        """The sum of the printed costs of ``lines``."""
        return sum((self.billed(x).cost for x in lines), Decimal(0))

    def by_unit(self, lines: list) -> list[tuple[str, Billed]]:
        """(unit, sum of the printed ``lines`` in that unit), in the order the units first appear."""
        out: dict[str, Billed] = {}
        for x in lines:
            u = common.unit(x.resource)
            out[u] = out.get(u, NOTHING) + self.billed(x)
        return list(out.items())

    @property
    def charged(self) -> list:
        """Every billed line: the GPU lines, then the tenants' energy lines."""
        return [*self.lines, *self.energy]

    def totals(self) -> list[tuple[str, list[tuple[str, Billed]], Decimal]]:
        """(tenant, its printed lines summed per unit, its total cost) per tenant with lines, by name."""
        return [(t, self.by_unit(self.tenant_lines(t)), self.cost(self.tenant_lines(t)))
                for t in sorted({x.tenant for x in self.charged})]

    @property
    def total_cost(self) -> Decimal:
        return self.cost(self.charged)

    def tenant_lines(self, tenant: str) -> list:
        return [line for line in self.charged if line.tenant == tenant]

    def kind(self, line: Line | EnergyLine) -> str:
        """A line's kind in the CSV and JSON: ``gpu`` or ``energy`` for what a tenant is billed; the provider's own
        lines (energy held by no pod, usage outside any tenant) are ``provider-...`` and in no tenant total."""
        if not line.tenant or line.tenant == UNALLOCATED:
            return f"provider-{'energy' if line.resource == common.ENERGY else 'gpu'}"
        return "energy" if line.resource == common.ENERGY else "gpu"

    def line_json(self, x: Line | EnergyLine) -> dict:
        b = self.billed(x)
        return {"kind": self.kind(x), "cluster": x.cluster, "tenant": x.tenant, "namespace": x.namespace,
                "gpu_class": x.gpu_class, "resource": x.resource, "unit": common.unit(x.resource),
                "quantity": float(b.quantity), "cost": common.money_text(b.cost, self.currency)}

    @property
    def provider_lines(self) -> list:
        """The provider's own lines: energy held by no pod, GPU-hours and energy of namespaces no tenant owns."""
        return [*self.unallocated, *self.non_tenant, *self.non_tenant_energy]

    def to_json(self) -> dict:
        """Billed lines in one list (``kind`` gpu or energy) whose costs sum to ``total_cost``; the provider's own
        lines apart, in ``provider``, with their own total. Money as decimal strings (:func:`common.money_text`)."""
        cur = self.currency
        units = lambda lines: [{"unit": u, "quantity": float(b.quantity),  # noqa: E731
                                "cost": common.money_text(b.cost, cur)} for u, b in self.by_unit(lines)]
        return {
            "start": rfc3339(self.start),
            "end": rfc3339(self.end),
            "currency": self.currency,
            "lines": [self.line_json(x) for x in self.charged],
            "totals": [{"tenant": t, "by_unit": units(self.tenant_lines(t)), "cost": common.money_text(c, cur)}
                       for t, _, c in self.totals()],
            "by_unit": units(self.charged),
            "total_cost": common.money_text(self.total_cost, cur),
            "provider": {"lines": [self.line_json(x) for x in self.provider_lines],
                         "total_cost": common.money_text(self.cost(self.provider_lines), cur)},
            "complete_until": rfc3339(self.readable_end),
            "partial": self.partial,
            "source": "single-cluster" if self.single_cluster else "acm-hub",
            "unpriced": [{**u, "gpu_hours": common.round_hours(u["gpu_hours"])} for u in self.unpriced],
            "warnings": list(self.warnings),
        }


def tenant_by_name(model: Model, name: str) -> Tenant:
    found = [t for t in model.tenants if t.name == name]
    if not found:
        from gpudash.base.errors import GpudashError

        known = ", ".join(t.name for t in model.tenants) or "none"
        owner = model.tenant_for_namespace(name)
        hint = (f": {name} is the namespace of tenant {owner.name}, pass --tenant {owner.name}" if owner
                else f" (tenants: {known}); pass the provider's model with -c")
        raise GpudashError(f"--tenant {name!r} is not a tenant of the model {model.source}{hint}")
    return found[0]


def fetch(prom: Prometheus, model: Model, start: int, end: int, tenant: str | None = None,
          cluster: str | None = None, now: float | None = None, progress=None) -> BillingReport:
    """Query the hub and assemble the statement of ``[start, end)`` (whole UTC hours)."""
    now = time.time() if now is None else now
    chosen = tenant_by_name(model, tenant) if tenant else None
    scope = queries.Scope(namespace=chosen.namespace if chosen else None, cluster=cluster)
    delay, readable_end, warnings = common.readable_window(model, start, end, now)
    data = _hourly_data(prom, scope, start, readable_end, delay, progress)
    common.check_recorded_backfill(prom, model, scope, start, end, now)
    gaps = common.check_rules_installed(prom, scope, start, readable_end,
                                        {h for _, h, v in data["info"] if v > 0}, warnings)

    by_ns = {t.namespace: t for t in model.tenants}
    daily: dict[str, dict[int, dict[str, float]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(float)))
    monthly: dict[str, dict[int, dict[tuple, float]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(float)))
    lines = _gpu_lines(data, by_ns, daily, monthly)
    energy = _energy_lines(data, by_ns, daily, monthly, model.energy.in_budget)
    unpriced_rows = _unpriced_rows(data, by_ns)

    tenant_lines = sorted((x for x in lines.values() if x.tenant and (x.gpu_hours or x.cost)),
                          key=lambda x: (x.cluster, x.tenant, x.gpu_class, x.resource))
    others = sorted((x for x in lines.values() if not x.tenant and (x.gpu_hours or x.cost)),
                    key=lambda x: (x.cluster, x.namespace, x.gpu_class, x.resource))
    kept = sorted((x for x in energy.values() if x.kwh or x.cost), key=lambda x: (x.cluster, x.tenant))
    energy_lines = [x for x in kept if x.tenant and x.tenant != UNALLOCATED]
    unallocated = [x for x in kept if x.tenant == UNALLOCATED]
    non_tenant_energy = [x for x in kept if not x.tenant]

    pushed = common.pushed_hours(data.get("pushed", ()))
    single = common.single_cluster(pushed) if pushed else bool(lines) and not any(k[0] for k in lines)
    warnings += _usage_warnings(model, tenant_lines, others, non_tenant_energy, unpriced_rows)
    if not scope.namespace and readable_end > start and any(v > 0 for _, _, v in data["info"]):
        warnings += common.missing_cluster_warnings(model.clusters if cluster is None else (cluster,),
                                                    pushed, start, readable_end, "GPU usage")
    for w in prom.warnings:
        if w not in warnings:
            warnings.append(w)
    tenants = [chosen] if chosen else list(model.tenants)
    return BillingReport(start, end, readable_end, model.currency, tenant_lines, tenants, others, unpriced_rows,
                         {k: {d: dict(v) for d, v in days.items()} for k, days in daily.items()},
                         {k: {m: list(v.values()) for m, v in months.items()} for k, months in monthly.items()},
                         warnings, single, gaps, prom.partial, energy_lines, unallocated,
                         non_tenant_energy, model.energy.in_budget)


def _hourly_data(prom: Prometheus, scope: queries.Scope, start: int, end: int, delay: int, progress) -> dict:
    """The hub's hourly figures of ``[start, end)`` the statement reads: {kind: [(labels, hour, value)]}."""
    exprs = {"gpu_hours": queries.gpu_hours(scope), "cost": queries.cost(scope), "unpriced": queries.unpriced(scope),
             "info": queries.tenant_info_present(scope), "energy_kwh": queries.energy_kwh(scope),
             "energy_cost": queries.energy_cost(scope)}
    if not scope.namespace:  # provider view: which clusters pushed each hour (a tenant cannot see this series)
        exprs["pushed"] = queries.cluster_billed_hour(scope, delay)
    return common.read_hourly(prom, exprs, start, end, delay, progress)


def _gpu_lines(data: dict, by_ns: dict[str, Tenant], daily, monthly) -> dict[tuple, Line]:
    """The GPU lines {billing line key: Line} summed over the hours; a tenant's cost also per day (``daily``) and
    per month (``monthly``)."""
    lines: dict[tuple, Line] = {}
    for kind in ("gpu_hours", "cost"):
        for labels, hour, value in data[kind]:
            key = tuple(labels.get(k, "") for k in queries.BILLING_LINE)
            t = by_ns.get(key[1])
            line = lines.setdefault(key, Line(key[0], t.name if t else "", key[1], key[2], key[3]))
            setattr(line, kind, getattr(line, kind) + value)
            if t and kind == "cost":
                daily[t.name][hour - hour % DAY][f"{key[2]} {key[3]}"] += value
                monthly[t.name][month_start(hour)][key] += value
    return lines


def _energy_lines(data: dict, by_ns: dict[str, Tenant], daily, monthly, in_budget: bool) -> dict[tuple, EnergyLine]:
    """The energy lines {energy line key: EnergyLine} summed over the hours (the row without namespace is
    :data:`UNALLOCATED`); a tenant's energy cost also per day, and per month when ``energy.in_budget``."""
    energy: dict[tuple, EnergyLine] = {}
    for kind in ("energy_kwh", "energy_cost"):
        for labels, hour, value in data[kind]:
            key = tuple(labels.get(k, "") for k in queries.ENERGY_LINE)
            t = by_ns.get(key[1])
            used = energy.setdefault(key, EnergyLine(key[0], t.name if t else "" if key[1] else UNALLOCATED, key[1]))
            if kind == "energy_kwh":
                used.kwh += value
                continue
            used.cost += value
            if t:
                daily[t.name][hour - hour % DAY][common.ENERGY] += value
                if in_budget:  # as the hub's budget rules count it
                    monthly[t.name][month_start(hour)][key] += value
    return energy


def _unpriced_rows(data: dict, by_ns: dict[str, Tenant]) -> list[dict]:
    """GPU-hours without a price per (cluster, namespace, product, resource), summed over the hours."""
    unpriced: dict[tuple, float] = defaultdict(float)
    for labels, _hour, value in data["unpriced"]:
        key = tuple(labels.get(k, "") for k in queries.UNPRICED_LINE)
        unpriced[key] += value
    return [{"cluster": c, "namespace": ns, "tenant": by_ns[ns].name if ns in by_ns else "", "product": p,
             "resource": r, "gpu_hours": v} for (c, ns, p, r), v in sorted(unpriced.items()) if v]


def _usage_warnings(model: Model, tenant_lines: list[Line], others: list[Line], non_tenant_energy: list[EnergyLine],
                    unpriced_rows: list[dict]) -> list[str]:
    """Usage billed to no one (namespaces that are no tenant, products without a price) and hub prices that are
    not the model's."""
    cur = model.currency
    warnings = [_not_a_tenant(x, f"GPU-hours of {x.gpu_class} {x.resource}", cur) for x in others]
    warnings += [_not_a_tenant(x, "kWh of GPU energy", cur) for x in non_tenant_energy]
    for u in unpriced_rows:
        warnings.append(f"{common.round_hours(u['gpu_hours']):g} GPU-hours of {u['resource']} on product "
                        f"{u['product'] or '(no product label)'} in namespace {u['namespace']}"
                        f"{common.on_cluster(u['cluster'])} have no price in the model: not billed (add the "
                        "product to a GPU class)")
    return warnings + _price_drift(model, tenant_lines)


def _not_a_tenant(x: Line | EnergyLine, what: str, cur: str) -> str:
    """The warning for a line of a namespace that is no tenant: ``what`` names its quantity's unit and kind."""
    return (f"namespace {x.namespace}{common.on_cluster(x.cluster)} is not a tenant of the model: "
            f"{common.round_hours(x.quantity):g} {what} "
            f"({common.round_money(x.cost, cur):.{common.money_digits(cur)}f} {cur}) are not billed to anyone")


def _price_drift(model: Model, lines: list[Line]) -> list[str]:
    """Warn when the hub's recorded cost does not match the model's price (the hub ran another model)."""
    prices = {(s.gpu_class, s.resource): s.price_per_hour for s in skus(model)}
    out, seen = [], set()
    for x in lines:
        price = prices.get((x.gpu_class, x.resource))
        if price is None or x.gpu_hours <= 0 or (x.gpu_class, x.resource) in seen:
            continue
        if abs(x.cost - x.gpu_hours * price) > 1e-6 * max(1.0, x.cost) + 1e-9:
            seen.add((x.gpu_class, x.resource))
            out.append(f"the hub priced {x.gpu_class} {x.resource} at {x.cost / x.gpu_hours:.4g} {model.currency}/h on "
                       f"average, the model at {price:g}: the hub's installed prices differ from this model "
                       "(the report uses the hub's recorded cost)")
    return out


def budget_rows(report: BillingReport, tenant: Tenant) -> list[dict]:
    """Per calendar month touched by the period: the tenant's cost in the period (each line's share of the month
    rounded once, then summed, so a one-month period shows the statement's total), its budget, the share used."""
    rows, m = [], month_start(report.start)
    while m < report.end:
        cost = sum((common.money(c, report.currency) for c in report.monthly_cost.get(tenant.name, {}).get(m, ())),
                   Decimal(0))
        whole = report.start <= m and next_month(m) <= report.end
        rows.append({"month": rfc3339(m)[:7], "cost": cost, "budget": tenant.budget,
                     "used": float(cost) / tenant.budget if tenant.budget else None, "whole_month": whole})
        m = next_month(m)
    return rows


def days_of(report: BillingReport) -> list[int]:
    first = report.start - report.start % DAY
    return list(range(first, report.end, DAY))

