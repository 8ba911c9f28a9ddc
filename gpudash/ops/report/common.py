"""What every report shares: reading hourly series chunk by chunk, the rules-installed check, progress, money."""
from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

import iso4217

from gpudash.base.errors import GpudashError
from gpudash.base.timestamps import rfc3339
from gpudash.model import series as names
from gpudash.model import vendors
from gpudash.model.types import Model
from gpudash.ops.prometheus_client import Prometheus, PrometheusError, nonnegative
from gpudash.ops.report.period import chunks, readable_until
from gpudash.promql import read
from gpudash.promql.read import HOUR, READ_DELAY
from gpudash.queries import report_queries as queries

GPU_HOURS_DIGITS = 6  # presentation precision of GPU-hours (a 1-minute step is 0.016667 GPU-hours)
ENERGY, KWH = "energy", "kWh"  # the resource and unit of an energy line (docs/billing-contract.md section 10)
_FLOAT_NOISE = Decimal("1e-9")  # hourly sums carry float error far below this; cut it before rounding half up


def money_digits(currency: str) -> int:
    """Digits of the currency's minor unit, from ISO 4217's own list (the ``iso4217`` package ships the
    published table; a code the model accepted always has one, see :mod:`gpudash.model.load`)."""
    return iso4217.Currency(currency.upper()).exponent or 0


def exact(value: float | Decimal) -> Decimal:
    """``value`` as a Decimal without the float noise of hourly sums."""
    return Decimal(repr(value) if isinstance(value, float) else value).quantize(_FLOAT_NOISE, ROUND_HALF_EVEN)


def money(value: float | Decimal, currency: str) -> Decimal:
    """``value`` rounded once to the currency's minor unit, half away from zero: the amount an invoice line
    shows. Totals are sums of these, never rounded sums."""
    return exact(value).quantize(Decimal(1).scaleb(-money_digits(currency)), ROUND_HALF_UP) + 0


def hours(value: float | Decimal, digits: int = GPU_HOURS_DIGITS) -> Decimal:
    """A quantity (GPU-hours, slice-hours, kWh) rounded once to ``digits``: :data:`GPU_HOURS_DIGITS` as every
    report format prints them, an invoice's own precision on a statement."""
    return exact(value).quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP) + 0  # + 0: no -0


def unit(resource: str) -> str:
    """The unit a resource is billed in: whole GPUs, MIG slices, shared GPUs and energy are different things, so
    quantities are only added up within one unit."""
    if resource == ENERGY:
        return KWH
    kind, name = vendors.device(resource)
    if kind == "mig":
        return f"{name} slice-hours"
    return "shared GPU-hours" if kind == "shared" else "GPU-hours"


def money_text(value: float | Decimal, currency: str) -> str:
    """:func:`money` as JSON writes it: a decimal string with the currency's ISO 4217 exponent ("38.40", "1235"
    for JPY), never a binary float."""
    return f"{money(value, currency):.{money_digits(currency)}f}"


def round_money(value: float | Decimal, currency: str) -> float:
    """:func:`money` as a JSON number."""
    return float(money(value, currency))


def round_hours(value: float | Decimal) -> float:
    """:func:`hours` as a JSON number."""
    return float(hours(value))


def read_hourly(prom: Prometheus, exprs: dict[str, str], start: int, end: int, delay: int,
                progress: Callable[[int, int, str], None] | None = None) -> dict[str, list[tuple[dict, int, float]]]:
    """Every hour of ``[start, end)`` of each expression: {key: [(labels, hour start, value)]}.

    Hour H is evaluated at H + ``delay`` (:func:`gpudash.promql.read.delay`); the period is cut into month chunks
    (<= 745 points per query).
    """
    out: dict[str, list] = {k: [] for k in exprs}
    pieces = chunks(start, end)
    for i, (a, b) in enumerate(pieces):
        if progress:
            progress(i + 1, len(pieces), rfc3339(a)[:7])
        for key, expr in exprs.items():
            for labels, values in prom.query_range(expr, a + delay, b - HOUR + delay, HOUR):
                for t, v in values:  # the client refused NaN, infinities and absurd magnitudes
                    hour = int(round(t)) - delay
                    if a <= hour < b:
                        out[key].append((labels, hour, nonnegative(prom, labels, v, t)))
    return out


def check_rules_installed(prom: Prometheus, scope: queries.Scope, start: int, end: int, seen: set[int],
                          warnings: list[str]) -> list[int]:
    """Raise when the hub rules are not installed at all; warn when they did not run for (part of) the period.
    Returns the hours of ``[start, end)`` in which they did not run."""
    if end <= start:
        return []
    total = (end - start) // HOUR
    if seen:
        missing = sorted(set(range(start, end, HOUR)) - seen)
        if missing:
            warnings.append(f"the hub rules recorded nothing for {len(missing)} of {total} hour(s) of the period "
                            f"({describe_hours(missing)}): figures for those hours may be missing")
        return missing
    selector = queries.tenant_info_selector(scope)
    try:
        exists = bool(prom.series(selector))
    except PrometheusError:
        exists = bool(prom.query(f"count({selector})", end + READ_DELAY))
    if not exists:
        who = f" for namespace {scope.namespace}" if scope.namespace else ""
        raise GpudashError(
            f"{prom.shown} has no {names.TENANT_INFO} series{who} at all: the gpudash hub rules are not installed "
            "there (apply the rendered rules/ or mco/ folder), or the URL is not the hub's query endpoint")
    warnings.append(f"the hub rules recorded nothing in this period ({names.TENANT_INFO} has no sample in it): "
                    "the report is empty")
    return list(range(start, end, HOUR))


def check_recorded_backfill(prom: Prometheus, model: Model, scope: queries.Scope, start: int, end: int,
                            now: float) -> None:
    """Raise when the spokes' hourly rows of the period say they were recorded with another
    ``billing.backfill_hours`` than the model's: the hub then settles hour H at another time than the model reads
    it (:func:`gpudash.promql.read.delay`), so the report would read the wrong hours. No rows: nothing to compare
    (the other checks speak for an empty period). A partial answer settles nothing either: the stores that did not
    answer may hold the other labels, and the report is refused as partial (or marked so with --allow-partial)."""
    delay = read.delay(model)
    rows = prom.query(queries.recorded_lags(scope, end - start + delay), min(now, end + delay), figures=False)
    if prom.partial:
        return
    lags = {labels.get(names.LAG_LABEL, "") for labels, _ in rows}
    numbered = [int(lag) for lag in lags if lag.isdigit()]
    recorded = sorted({*([max(numbered) - 1] if numbered else ()), *([0] if len(numbered) < len(lags) else ())})
    if recorded and recorded != [model.billing.backfill_hours]:
        raise GpudashError(
            f"{prom.shown} holds hourly series recorded with billing.backfill_hours "
            f"{' and '.join(map(str, recorded))} (their {names.LAG_LABEL} labels say so), but {model.source} says "
            f"{model.billing.backfill_hours} (spoke_tier: {model.billing.spoke_tier}): its bill would read the wrong "
            "hours; report with the model the rules were rendered from")


def pushed_hours(found: list[tuple[dict, int, float]]) -> dict[str, set[int]]:
    """{cluster: hours whose figures it pushed in time} from :func:`queries.cluster_billed_hour` rows."""
    out: dict[str, set[int]] = {}
    for labels, hour, value in found:
        if int(round(value)) == hour:
            out.setdefault(labels.get("cluster", ""), set()).add(hour)
    return out


def single_cluster(pushed: dict[str, set[int]]) -> bool:
    """Whether the heartbeat read carries no ``cluster`` label: the report reads one cluster's own Prometheus
    (without ACM, ``cluster`` is at most an external label, see :mod:`gpudash.model.series`), not an ACM hub."""
    return set(pushed) == {""}


def on_cluster(cluster: str) -> str:
    """`` on cluster X`` for a hub's series, nothing for a single cluster's (whose series have no cluster)."""
    return f" on cluster {cluster}" if cluster else ""


def missing_cluster_warnings(clusters, pushed: dict[str, set[int]], start: int, end: int, what: str) -> list[str]:
    """A warning per cluster of the model that did not push some (or all) hours of ``[start, end)``; on a single
    cluster, one for the hours its own spoke rules did not record (the model's cluster names are no labels there)."""
    out, every = [], set(range(start, end, HOUR))
    single = single_cluster(pushed)
    for c in ("",) if single else clusters:
        missing = sorted(every - pushed.get(c, set()))
        if not missing:
            continue
        if single:
            out.append(f"the gpudash rules on this cluster recorded no hourly figures for {len(missing)} of "
                       f"{len(every)} hour(s) ({describe_hours(missing)}): its {what} in those hours is missing from "
                       "the report (Prometheus was down or the rules were not loaded)")
        elif len(missing) == len(every):
            out.append(f"cluster {c} of the model pushed no hourly figures in the period: its {what} is missing "
                       "from the report (not connected to the hub, or its metrics-collector is down)")
        else:
            out.append(f"cluster {c} pushed no hourly figures for {len(missing)} of {len(every)} hour(s) "
                       f"({describe_hours(missing)}): its {what} in those hours is missing from the report")
    return out


def describe_hours(hours: list[int], limit: int = 3) -> str:
    """Compact ranges of hour starts: ``2025-01-01T00:00:00Z..2025-01-01T05:00:00Z (6 h), ...``."""
    ranges: list[list[int]] = []
    for h in hours:
        if ranges and h == ranges[-1][1] + HOUR:
            ranges[-1][1] = h
        else:
            ranges.append([h, h])
    parts = [f"{rfc3339(a)}..{rfc3339(b + HOUR)}" for a, b in ranges[:limit]]
    if len(ranges) > limit:
        parts.append(f"and {len(ranges) - limit} more gap(s)")
    return ", ".join(parts)


def readable_window(model: Model, start: int, end: int, now: float) -> tuple[int, int, list[str]]:
    """(the model's read delay, the end of the final part of ``[start, end)`` at ``now``, the report's warnings so
    far: one naming the hours not final yet, if any)."""
    delay = read.delay(model)
    readable_end = max(start, readable_until(end, now, delay))
    final = not_final_warning(readable_end, end, delay)
    return delay, readable_end, [final] if final else []


def not_final_warning(readable_end: int, end: int, delay: int) -> str | None:
    if readable_end >= end:
        return None
    return (f"hours from {rfc3339(max(readable_end, 0))} to {rfc3339(end)} are not in the report: hour H is final "
            f"on the hub at H + {delay // HOUR}h; run the report again after {rfc3339(end + delay)}")
