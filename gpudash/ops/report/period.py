"""Report periods: RFC 3339 parsing, whole-hour checks, and splitting long periods into query chunks.

Billing and CCSP figures are recorded once per UTC clock hour; hour ``H`` (``[H, H + 1h)``) is final on the
hub at ``H + READ_DELAY`` (2h) and read there (:mod:`gpudash.promql.read`). A range query with step 1h from
``a + 2h`` to ``b + 1h`` therefore returns every hour of ``[a, b)``. Long periods are cut at UTC month
boundaries, so no query asks for more than 745 points (Prometheus refuses more than 11,000 per series) and each
stays small enough for the server's query timeout.
"""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gpudash.base.errors import GpudashError
from gpudash.base.timestamps import rfc3339
from gpudash.promql.read import HOUR, READ_DELAY

MAX_POINTS = 10_000  # per range query; Prometheus' hard limit is 11,000


class PeriodError(GpudashError):
    """A bad --start/--end/--time value (exit 2)."""


def parse_time(text: str, option: str) -> float:
    """Seconds since the epoch of an RFC 3339 time (``2025-01-01T00:00:00Z``; a time without an offset is UTC)."""
    try:
        dt = datetime.fromisoformat(text.strip().replace("z", "Z"))
    except ValueError:
        raise PeriodError(f"{option} {text!r} is not an RFC 3339 time such as 2025-01-01T00:00:00Z") from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.timestamp()


def parse_period(start: str, end: str, whole_hours: bool = True) -> tuple[int, int]:
    """(start, end) in epoch seconds; both on whole UTC hours when ``whole_hours``; start < end."""
    a, b = parse_time(start, "--start"), parse_time(end, "--end")
    if whole_hours:
        for value, option, text in ((a, "--start", start), (b, "--end", end)):
            if value % HOUR:
                floor = rfc3339(value - value % HOUR)
                raise PeriodError(
                    f"{option} {text} is not on a whole UTC hour: the recorded billing series hold one figure per "
                    f"clock hour, so a period must start and end on an hour (e.g. {floor})")
    if b <= a:
        raise PeriodError(f"--end {end} must be after --start {start}")
    return int(a), int(b)


def month_start(seconds: float) -> int:
    t = datetime.fromtimestamp(seconds, UTC)
    return int(datetime(t.year, t.month, 1, tzinfo=UTC).timestamp())


def next_month(seconds: float) -> int:
    t = datetime.fromtimestamp(month_start(seconds), UTC)
    return int((t.replace(day=28) + timedelta(days=4)).replace(day=1).timestamp())


def chunks(start: int, end: int, max_hours: int = MAX_POINTS) -> list[tuple[int, int]]:
    """``[start, end)`` cut at UTC month boundaries and at most ``max_hours`` hours per piece."""
    out, a = [], start
    while a < end:
        b = min(end, next_month(a), a + max_hours * HOUR)
        out.append((a, b))
        a = b
    return out


def readable_until(end: int, now: float, delay: int = READ_DELAY) -> int:
    """The end of the readable part of ``[.., end)``: hours ``H`` with ``H + delay <= now``
    (:func:`gpudash.promql.read.delay`)."""
    last_readable_hour = int((now - delay) // HOUR) * HOUR  # latest H with H + delay <= now
    return min(end, last_readable_hour + HOUR)


def hours(start: int, end: int) -> range:
    return range(start, end, HOUR)
