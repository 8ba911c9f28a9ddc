"""How the hub is read: "now", "the hour H" and when an hour is final. Hub rules, alerts, dashboards, reports and
the pruner take these from here.

The hub holds one sample of every pushed series per push interval ``P`` (``billing.mco_interval``, the ACM
metrics-collector's interval) and the hub rules run every ``P``:

* **now**: the latest value of a series is ``last_over_time(series[1.5 P])``, the newest sample of the last push
  whatever its jitter (no range shorter than that anywhere: no ``rate(x[1m])``);
* **the hour H**: a clock-hour series (``...:last_hour``) records hour ``H`` during ``[H + 1h, H + 2h)``, so at an
  hour boundary ``T`` the read ``last_over_time(series[1h] offset 1ms)`` holds exactly hour ``[T - 2h, T - 1h)``
  (the 1 ms keeps the sample at ``T`` itself, which describes the next hour, out under Prometheus 2 and 3);
* **final**: hour ``H`` is final, and read, at ``H + READ_DELAY``.

With ``billing.backfill_hours`` N > 0 the hub settles hour ``H`` during ``[H + (N + 1)h, H + (N + 2)h)`` instead,
after every push that may carry it: the same read then holds hour ``[T - (N + 2)h, T - (N + 1)h)`` and
:func:`delay` is ``(N + 2)h``.
"""
from __future__ import annotations

from typing import Protocol

from gpudash.promql import build as q

HOUR = 3600
READ_DELAY = 2 * HOUR  # hour H is pushed during H + 1h and read at H + 2h (without backfill)


def hour_range(hours_before: int = 0) -> str:
    """The range that holds, at an hour boundary T, hour [T - 2h, T - 1h) (``hours_before`` hours earlier)."""
    return f"[1h] offset {q.duration(hours_before * HOUR + 0.001)}"


HOUR_RANGE = hour_range()  # the range that holds, at an hour boundary T, hour [T - 2h, T - 1h)


class _Backfill(Protocol):
    @property
    def backfill_hours(self) -> int: ...


class BilledModel(Protocol):
    """What the reads need of a model (:class:`gpudash.model.types.Model`, a layer above): its backfill."""

    @property
    def billing(self) -> _Backfill: ...


def delay(model: BilledModel) -> int:
    """Seconds from the start of hour H to the boundary where a read of the hub's hour series holds it: 2h, plus
    ``billing.backfill_hours`` (the hub settles an hour only once every push that may carry it is due)."""
    return READ_DELAY + model.billing.backfill_hours * HOUR


def hour_read_text(model: BilledModel) -> str:
    """The hour a read at an hour boundary T holds, for panel and report texts: ``[T-2h, T-1h)`` without backfill."""
    hours = delay(model) // HOUR
    return f"[T-{hours}h, T-{hours - 1}h)"


def read_hour_start(model: BilledModel) -> str:
    """The start of the hour that a read at the evaluation time holds, as a one-sample vector."""
    return f"vector(time() - {delay(model)})"


def fresh_seconds(interval: int) -> int:
    """The range that always holds the latest push of a series pushed every ``interval`` seconds: 1.5 pushes."""
    return interval * 3 // 2


def fresh_range(interval: int) -> str:
    return q.duration(fresh_seconds(interval))


def now(selector: str, interval: int) -> str:
    """The latest value of ``selector`` on the hub: ``last_over_time(selector[1.5 P])``."""
    return f"last_over_time({selector}[{fresh_range(interval)}])"


def hour(selector: str) -> str:
    """The clock-hour series ``selector`` read at an hour boundary ``T``: the value of hour ``[T - 2h, T - 1h)``."""
    return f"last_over_time({selector}{HOUR_RANGE})"
