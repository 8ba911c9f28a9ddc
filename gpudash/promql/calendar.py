"""Calendar arithmetic in PromQL: the billing period (UTC month) and period-to-date sums of clock hours.

Shared by the hub rules and the dashboards so both compute period-to-date the same way.
"""
from __future__ import annotations

from gpudash.promql import build as q

# Seconds since the start of the UTC month / the time left in it, at the evaluation time.
SINCE_MONTH_START = "((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))"
UNTIL_MONTH_END = f"(days_in_month(vector(time())) * 86400 - {SINCE_MONTH_START})"


# Start (Unix seconds) of the clock hour of the evaluation time, as a one-sample vector.
HOUR_START = "(floor(vector(time()) / 3600) * 3600)"


def pushed_this_hour(selector: str) -> str:
    """Per series of ``selector``, the largest value among its samples whose own timestamp lies in the current
    clock hour; series without such a sample are absent.

    A recording-rule sample pushed by ACM's metrics-collector carries the evaluation time of the instant query
    that produced it (collectors/metrics/pkg/metricsclient/metricsclient.go RetrieveRecordingMetrics keeps the
    result's timestamp), so this reads each hourly series from its own pushes of this hour and never from an
    earlier hour's. The largest value wins: all pushes of an hour carry the same figure unless the spoke lost
    data (a Prometheus restarted with an empty TSDB sees less), and the fuller figure is the truer one.

    A 1-minute subquery (finer than the 5-minute lookback, so every sample is seen) keeps at each step the
    samples of that step's own hour; the steps of the last hour span two clock hours, told apart by parity.
    """
    hour_parity = "(floor(vector(time()) / 3600) % 2 == {})"
    own_hour = f"({selector} and timestamp({selector}) >= scalar{HOUR_START})"
    parts = [f"(max_over_time(({own_hour} and on () {hour_parity.format(k)})[1h:1m]) and on () "
             f"{hour_parity.format(k)})" for k in (0, 1)]
    return f"({' or '.join(parts)})"


def month_index(t: str) -> str:
    """year * 12 + month of the one-sample vector ``t``."""
    return f"(year({t}) * 12 + month({t}))"


def period_to_date(hour_expr: str, rate_expr: str, by: tuple[str, ...]) -> str:
    """This UTC month so far: exact complete hours up to the hour before last, plus ``rate_expr`` (the same
    quantity per hour right now) for the time since then, never before the month start.

    ``hour_expr`` must give, at an hour-aligned step ``s``, the figure of hour ``[s - 2h, s - 1h)`` (the hub
    series read with ``last_over_time(...[1h] offset 1ms)``). A 31-day hourly subquery holds at most three
    months, so the month index modulo 3 tells the current month apart from the others; it is compared per
    step with ``time()`` only, so the expression is right in instant and range queries (and rule backfills)
    alike.
    """
    now = month_index("vector(time())")
    step = month_index("vector(time() - 7200)")
    parts = []
    for k in range(3):
        inner = f"{hour_expr} and on () ({step} % 3 == {k})"
        parts.append(f"({q.agg('sum', by, f'sum_over_time(({inner})[31d:1h])')} and on () ({now} % 3 == {k}))")
    complete = q.label_replace(" or ".join(parts), "gpudash_part", "hours", "", "")
    since_hour = "vector(time() % 3600 + 3600)"
    seconds = f"scalar(({since_hour} < {SINCE_MONTH_START}) or {SINCE_MONTH_START})"
    estimate = q.label_replace(q.agg("sum", by, f"{rate_expr} * {seconds} / 3600"), "gpudash_part", "estimate", "", "")
    return q.agg("sum", by, f"{complete} or {estimate}")
