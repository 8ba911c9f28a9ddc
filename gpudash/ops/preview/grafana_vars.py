"""What Grafana sends Prometheus for a dashboard: its time range, each query's step and the variables in its text.

Read from grafana/grafana:

* ``packages/grafana-data/src/datetime/datemath.ts`` (``parse``, ``parseDateMath``): ``now``, then ``+N<unit>`` /
  ``-N<unit>`` (units ``y M w d h m s``) and ``/<unit>``, which rounds to the start of the unit for ``from``
  and to its end for ``to``. Dashboards here say ``"timezone": "utc"``, so the rounding is in UTC.
* ``pkg/promlib/intervalv2/intervalv2.go`` (``Calculate``) and ``pkg/promlib/models/query.go``
  (``calculatePrometheusInterval``): the step is the range / max data points, raised to the minimum interval (the
  query's ``interval``, else the datasource's scrape interval, default 15s) and rounded to a "nice" value
  (gtime's ``RoundInterval``: each bracket ends half way to the next nice value).
* ``pkg/promlib/models/query.go`` (``InterpolateVariables``, ``calculateRateInterval``): ``$__interval`` is that
  step, ``$__range`` the range in whole seconds, ``$__rate_interval`` = max(``$__interval`` + scrape interval,
  4 x scrape interval).
* Dashboard variables (Grafana's documentation, "Variables > selection options"): "All" with a custom all value
  is replaced by that value, never escaped (gpudash's ``$cluster``: ``.*``), else by every option combined; a
  datasource variable by the datasource's uid.
"""
from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from gpudash.base.errors import GpudashError

SCRAPE_INTERVAL = 15.0  # Grafana's default for a Prometheus datasource without timeInterval
MAX_DATA_POINTS = 1000  # a panel without maxDataPoints: about the width of a panel in pixels
SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
# (largest interval of the bracket, the nice value), seconds: RoundInterval's brackets from 1 s up
NICE = ((1.5, 1), (3.5, 2), (7.5, 5), (12.5, 10), (17.5, 15), (25, 20), (45, 30), (90, 60), (210, 120),
        (450, 300), (750, 600), (1050, 900), (1500, 1200), (2700, 1800), (5400, 3600), (9000, 7200),
        (16200, 10800), (32400, 21600), (86400, 43200), (604800, 86400), (3600 * 24 * 30, 604800),
        (3600 * 24 * 365, 2592000))
_MATH = re.compile(r"([+-])(\d*)([yMwdhms])|/([yMwdhms])")
_DURATION = re.compile(r"^(\d+)([smhdw])$")


def _shift(t: datetime, sign: int, n: int, unit: str) -> datetime:
    if unit in SECONDS:
        return t + sign * timedelta(seconds=n * SECONDS[unit])
    months = t.year * 12 + t.month - 1 + sign * n * (12 if unit == "y" else 1)
    year, month = divmod(months, 12)
    return t.replace(year=year, month=month + 1, day=min(t.day, calendar.monthrange(year, month + 1)[1]))


def _round(t: datetime, unit: str, up: bool) -> datetime:
    if unit == "w":
        raise GpudashError("time range rounding to a week (/w) depends on the browser's locale: not drawn")
    keep = {"y": 0, "M": 1, "d": 2, "h": 3, "m": 4, "s": 5}[unit]
    start = t.replace(month=1 if keep < 1 else t.month, day=1 if keep < 2 else t.day, hour=0 if keep < 3 else t.hour,
                      minute=0 if keep < 4 else t.minute, second=0 if keep < 5 else t.second, microsecond=0)
    if not up:
        return start
    return _shift(start, 1, 1, unit) - timedelta(milliseconds=1)


def parse_time(text: str, now: float, up: bool = False) -> float:
    """Seconds since the epoch of Grafana's relative time ``text`` (``now-7d``, ``now/M``...) at ``now``."""
    if not text.startswith("now"):
        raise GpudashError(f"time {text!r}: only times relative to now are drawn")
    t = datetime.fromtimestamp(now, UTC)
    rest = text[3:].replace(" ", "")
    while rest:
        m = _MATH.match(rest)
        if not m:
            raise GpudashError(f"time {text!r}: not Grafana's date math")
        if m[4]:
            t = _round(t, m[4], up)
        else:
            t = _shift(t, 1 if m[1] == "+" else -1, int(m[2] or 1), m[3])
        rest = rest[m.end():]
    return t.timestamp()


def duration(text: str) -> float:
    """Seconds of a Grafana interval such as ``1h`` or ``15s``."""
    m = _DURATION.match(text.strip().lstrip("<>"))
    if not m:
        raise GpudashError(f"interval {text!r}: not a duration such as 1h")
    return float(int(m[1]) * SECONDS[m[2]])


def nice(seconds: float) -> float:
    """gtime's RoundInterval from 1 s up."""
    return float(next((value for bound, value in NICE if seconds <= bound), 31536000))


def step(start: float, end: float, max_points: int | None, min_interval: str | None) -> float:
    """The step Grafana sends for a range query over [start, end]."""
    floor = duration(min_interval) if min_interval else SCRAPE_INTERVAL
    calculated = (end - start) / (max_points or MAX_DATA_POINTS)
    return floor if calculated < floor else nice(calculated)


def format_seconds(seconds: float) -> str:
    """A duration as Grafana formats ``$__interval`` (largest whole unit)."""
    for unit in ("w", "d", "h", "m"):
        if seconds >= SECONDS[unit] and seconds % SECONDS[unit] == 0:
            return f"{int(seconds // SECONDS[unit])}{unit}"
    return f"{int(seconds)}s"


@dataclass(frozen=True)
class Variables:
    """The values Grafana substitutes into one query of a dashboard."""

    start: float
    end: float
    step: float
    template: tuple[tuple[str, str], ...]  # dashboard variables: (name, value)

    def table(self) -> dict[str, str]:
        rng = round(self.end - self.start)
        rate = max(self.step + SCRAPE_INTERVAL, 4 * SCRAPE_INTERVAL)
        return {"__interval": format_seconds(self.step), "__interval_ms": str(int(self.step * 1000)),
                "__range": f"{rng}s", "__range_s": str(rng), "__range_ms": str(rng * 1000),
                "__rate_interval": format_seconds(rate), "__rate_interval_ms": str(int(rate * 1000)),
                **dict(self.template)}

    def apply(self, expr: str) -> str:
        from gpudash.render.grafana.isolation import substitute_macros

        return substitute_macros(expr, self.table())


def template_values(dashboard: dict, datasource_uid: str) -> tuple[tuple[str, str], ...]:
    """The dashboard's variables at their saved values: "All" as ``allValue`` (else every option joined by ``|``),
    a datasource variable as ``datasource_uid``."""
    out = []
    for var in (dashboard.get("templating") or {}).get("list", []):
        name, kind = var.get("name", ""), var.get("type", "")
        if kind == "datasource":
            out.append((name, datasource_uid))
            continue
        current = (var.get("current") or {}).get("value", "")
        values = current if isinstance(current, list) else [current]
        if "$__all" in values:
            options = [o.get("value", "") for o in var.get("options", []) if o.get("value") != "$__all"]
            out.append((name, var.get("allValue") or "|".join(options)))
        else:
            out.append((name, "|".join(values) if len(values) > 1 else str(values[0] if values else "")))
    return tuple(out)
