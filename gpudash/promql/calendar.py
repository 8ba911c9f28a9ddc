"""Calendar arithmetic in PromQL: the billing period (UTC month) and period-to-date sums of clock hours.

Shared by the hub rules and the dashboards so both compute period-to-date the same way.
"""
from __future__ import annotations

from collections.abc import Iterable

from gpudash.promql import build as q
from gpudash.promql import read

# Seconds since the start of the UTC month / the time left in it, at the evaluation time.
SINCE_MONTH_START = "((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))"
UNTIL_MONTH_END = f"(days_in_month(vector(time())) * 86400 - {SINCE_MONTH_START})"


def pushed_this_hour(selector: str, by: tuple[str, ...], step: int) -> str:
    """Per series of ``selector`` (labels ``by``), the largest value among its samples whose own timestamp lies
    in the current clock hour; series without such a sample are absent.

    A recording-rule sample pushed by ACM's metrics-collector carries the evaluation time of the instant query
    that produced it (collectors/metrics/pkg/metricsclient/metricsclient.go RetrieveRecordingMetrics keeps the
    result's timestamp), so this reads each hourly series from its own pushes of this hour and never from an
    earlier hour's. The largest value wins: all pushes of an hour carry the same figure unless the spoke lost
    data (a Prometheus restarted with an empty TSDB sees less), and the fuller figure is the truer one.

    A subquery every ``step`` seconds (at most the 5-minute lookback, so every sample is seen by a step) keeps
    at each step the samples of that step's own hour; its steps span two clock hours, told apart by parity.
    The samples newer than its last step are read at the evaluation time itself.
    """
    parts = []
    for k in (0, 1):
        # at a step of the other parity the threshold is out of reach (scalar arithmetic only, per step)
        threshold = f"{_HOUR_START_SCALAR} + 1e12 * ({_HOUR_START_SCALAR} / {read.HOUR} % 2 != bool {k})"
        parts.append(f"(max_over_time({own_hour(selector, threshold)}[1h:{q.duration(step)}]) and on () "
                     f"(floor(vector(time()) / {read.HOUR}) % 2 == {k}))")
    latest = q.label_replace(own_hour(selector), "gpudash_part", "latest", "", "")
    return q.agg("max", by, f"{' or '.join(parts)} or {latest}")


def at_hour_boundary(expr: str, hours_before: int = 0) -> str:
    """``expr`` evaluated once, at the last clock-hour boundary (``hours_before`` hours earlier): subquery steps are
    multiples of their step since the epoch (prometheus/prometheus promql/engine.go), and a range 1 ms shorter
    than an hour holds exactly one such step under Prometheus 2 (closed ranges) and 3 (left-open) alike."""
    offset = f" offset {hours_before}h" if hours_before else ""
    return f"last_over_time(({expr})[{q.window(read.HOUR)}:1h]{offset})"


def own_hour(selector: str, threshold: str | None = None) -> str:
    """The series of ``selector`` whose latest sample is stamped at or after ``threshold`` (default: the start of
    the evaluation time's clock hour), i.e. in the current clock hour: the own-hour read. A series whose latest
    sample is older (an earlier hour's, still within the lookback) is absent, whether or not a staleness marker
    followed it."""
    return f"({selector} and timestamp({selector}) >= {threshold or _HOUR_START_SCALAR})"


def pushed_hours_ago(reads: Iterable[tuple[str, int]]) -> str:
    """Per series of each ``(selector, hours_ago)`` of ``reads`` (all its labels: the caller folds them), the largest
    value among its samples whose own timestamp lies in the complete clock hour ``hours_ago`` (at least 1) hours
    before the evaluation time's: the hour read (:func:`gpudash.promql.read.hour_range`, ``hours_ago - 1`` hours
    earlier) at the last hour boundary (:func:`at_hour_boundary`), whatever the evaluation time within the current
    hour. The reads share one subquery: a subquery's offset only shifts its range (prometheus/prometheus
    promql/engine.go, ``SubqueryExpr`` in ``evaluator.eval``), so a whole-hour offset on the read selects the
    samples an offset subquery would; one subquery per read cost 24 per settled series at every evaluation. No
    aggregation of its own: a rule's expression is parsed again at every evaluation (prometheus/prometheus
    rules/recording.go ``Eval``)."""
    hours = [f"max_over_time({sel}{read.hour_range(ago - 1)})" for sel, ago in reads]
    return at_hour_boundary(" or ".join(hours))


# The start of the evaluation time's clock hour as a scalar (exact: fmod is exact, and so is the subtraction).
_HOUR_START_SCALAR = f"(time() - time() % {read.HOUR})"


def month_mod3(t: str) -> str:
    """The month (1-12, UTC: prometheus/prometheus promql/functions.go funcMonth) of the one-sample vector ``t``
    modulo 3. Three consecutive months differ in it, across a year end too, since a year is 12 months, a multiple
    of 3: the same as ``(year * 12 + month) % 3`` without the year
    (whose per-step evaluation inside a 31-day subquery cost more than half of the period-to-date rule)."""
    return f"month({t}) % 3"


_MONTH_TAG = "gpudash_month"


def _month_tag(t: str) -> str:
    """One series, value 1, whose label :data:`_MONTH_TAG` is the month modulo 3 of the one-sample vector ``t``
    ("0", "1" or "2": count_values formats the value as its label, prometheus/prometheus promql/engine.go)."""
    return f'count_values("{_MONTH_TAG}", {month_mod3(t)})'


def period_to_date(hour_expr: str, rate_expr: str, by: tuple[str, ...], delay: int = read.READ_DELAY) -> str:
    """This UTC month so far: exact complete hours up to the last hour the hub has settled, plus ``rate_expr`` (the
    same quantity per hour right now) for the time since then, never before the month start.

    ``hour_expr`` must give, at an hour-aligned step ``s``, the figure of hour ``[s - delay, s - delay + 1h)`` (the
    hub series read with :func:`gpudash.promql.read.hour`; ``delay`` is :func:`gpudash.promql.read.delay`). A
    31-day hourly subquery holds at most three months, so the month modulo 3 tells the current month apart from the
    others: each step's figures are tagged with their hour's month modulo 3 (``count_values`` turns that number
    into a label value), summed per tag in one subquery, and the tag of ``time()``'s month is kept. It is compared
    per step with ``time()`` only, so the expression is right in instant and range queries (and rule backfills)
    alike.
    """
    tagged = f"{hour_expr} * on () group_left ({_MONTH_TAG}) {_month_tag(f'vector(time() - {delay})')}"
    months = q.agg("sum", (*by, _MONTH_TAG), f"sum_over_time(({tagged})[31d:1h])")
    this_month = f"{months} * on ({_MONTH_TAG}) group_left () {_month_tag('vector(time())')}"
    complete = q.label_replace(q.agg("sum", by, this_month), "gpudash_part", "hours", "", "")
    since_hour = f"vector(time() % {read.HOUR} + {delay - read.HOUR})"
    seconds = f"scalar(({since_hour} < {SINCE_MONTH_START}) or {SINCE_MONTH_START})"
    estimate = q.label_replace(q.agg("sum", by, f"{rate_expr} * {seconds} / {read.HOUR}"), "gpudash_part",
                               "estimate", "", "")
    return q.agg("sum", by, f"{complete} or {estimate}")
