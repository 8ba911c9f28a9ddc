"""What every report shares: reading hourly series chunk by chunk, the rules-installed check, progress, money."""
from __future__ import annotations

import sys
from collections.abc import Callable

from gpudash.errors import GpudashError
from gpudash.report import queries
from gpudash.report.client import Prometheus, PrometheusError
from gpudash.report.period import HOUR, READ_DELAY, chunks, rfc3339
from gpudash.rules import names

# ISO 4217 currencies whose minor unit is not 1/100 (the rest round to cents).
_MINOR_UNITS = {"BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0,
                "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
                "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3}
GPU_HOURS_DIGITS = 6  # presentation precision of GPU-hours (a 1-minute step is 0.016667 GPU-hours)


def money_digits(currency: str) -> int:
    return _MINOR_UNITS.get(currency.upper(), 2)


def round_money(value: float, currency: str) -> float:
    """Round to the currency's minor unit (cents), half away from zero, at presentation only."""
    digits = money_digits(currency)
    scale = 10 ** digits
    rounded = int(abs(value) * scale + 0.5 + 1e-9) / scale
    return rounded if value >= 0 else -rounded


def round_hours(value: float) -> float:
    out = round(value, GPU_HOURS_DIGITS)
    return 0.0 if out == 0 else out


class Progress:
    """One updating line on stderr, only when stderr is a terminal."""

    def __init__(self, label: str, enabled: bool | None = None):
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.shown = False

    def __call__(self, done: int, total: int, what: str) -> None:
        if self.enabled and total > 1:
            sys.stderr.write(f"\rgpudash: {self.label}: {what} ({done}/{total})\033[K")
            sys.stderr.flush()
            self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def read_hourly(prom: Prometheus, exprs: dict[str, str], start: int, end: int,
                progress: Callable[[int, int, str], None] | None = None) -> dict[str, list[tuple[dict, int, float]]]:
    """Every hour of ``[start, end)`` of each expression: {key: [(labels, hour start, value)]}.

    Hour H is evaluated at H + 2h; the period is cut into month chunks (<= 745 points per query).
    """
    out: dict[str, list] = {k: [] for k in exprs}
    pieces = chunks(start, end)
    for i, (a, b) in enumerate(pieces):
        if progress:
            progress(i + 1, len(pieces), rfc3339(a)[:7])
        for key, expr in exprs.items():
            for labels, values in prom.query_range(expr, a + READ_DELAY, b - HOUR + READ_DELAY, HOUR):
                for t, v in values:
                    hour = int(round(t)) - READ_DELAY
                    if a <= hour < b and v == v:  # drop NaN
                        out[key].append((labels, hour, v))
    return out


def rule_hours(prom: Prometheus, scope: queries.Scope, start: int, end: int,
               progress: Callable[[int, int, str], None] | None = None) -> set[int]:
    """Hours of ``[start, end)`` in which the hub rules recorded the model constants."""
    found = read_hourly(prom, {"info": queries.tenant_info_present(scope)}, start, end, progress)
    return {hour for _, hour, v in found["info"] if v > 0}


def check_rules_installed(prom: Prometheus, scope: queries.Scope, start: int, end: int, seen: set[int],
                          warnings: list[str]) -> None:
    """Raise when the hub rules are not installed at all; warn when they did not run for (part of) the period."""
    if end <= start:
        return
    total = (end - start) // HOUR
    if seen:
        missing = sorted(set(range(start, end, HOUR)) - seen)
        if missing:
            warnings.append(f"the hub rules recorded nothing for {len(missing)} of {total} hour(s) of the period "
                            f"({describe_hours(missing)}): figures for those hours may be missing")
        return
    selector = queries.tenant_info_selector(scope)
    try:
        exists = bool(prom.series(selector))
    except PrometheusError:
        exists = bool(prom.query(f"count({selector})", end + READ_DELAY))
    if not exists:
        who = f" for namespace {scope.namespace}" if scope.namespace else ""
        raise GpudashError(
            f"{prom.url} has no {names.TENANT_INFO} series{who} at all: the gpudash hub rules are not installed "
            "there (apply the rendered rules/ or mco/ folder), or the URL is not the hub's query endpoint")
    warnings.append(f"the hub rules recorded nothing in this period ({names.TENANT_INFO} has no sample in it): "
                    "the report is empty")


def pushed_hours(found: list[tuple[dict, int, float]]) -> dict[str, set[int]]:
    """{cluster: hours whose figures it pushed in time} from :func:`queries.cluster_billed_hour` rows."""
    out: dict[str, set[int]] = {}
    for labels, hour, value in found:
        if int(round(value)) == hour:
            out.setdefault(labels.get("cluster", ""), set()).add(hour)
    return out


def missing_cluster_warnings(clusters, pushed: dict[str, set[int]], start: int, end: int, what: str) -> list[str]:
    """A warning per cluster of the model that did not push some (or all) hours of ``[start, end)``."""
    out, every = [], set(range(start, end, HOUR))
    for c in clusters:
        missing = sorted(every - pushed.get(c, set()))
        if not missing:
            continue
        if len(missing) == len(every):
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


def not_final_warning(readable_end: int, end: int) -> str | None:
    if readable_end >= end:
        return None
    return (f"hours from {rfc3339(max(readable_end, 0))} to {rfc3339(end)} are not in the report: hour H is final "
            f"on the hub at H + 2h; run the report again after {rfc3339(end + READ_DELAY)}")
