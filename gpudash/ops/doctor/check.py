"""One check's result (ok / warn / fail, what was found, the fix) and the two queries most checks ask:
how many series match, and which values a label takes."""
from __future__ import annotations

from dataclasses import dataclass

from gpudash.base.terminal import printable
from gpudash.ops.prometheus_client import Prometheus, nonnegative

OK, WARN, FAIL = "ok", "warn", "fail"


@dataclass(frozen=True)
class Check:
    name: str
    status: str
    found: str
    fix: str = ""

    def line(self) -> str:
        # label values and server messages in name and found: no control character reaches a terminal
        return f"{self.status:<4}  {printable(self.name)}: {printable(self.found)}" + \
            (f"; fix: {self.fix}" if self.fix else "")


def count_series(prom: Prometheus, expr: str, now: float) -> int:
    rows = prom.query(f"count({expr})", now)
    return int(nonnegative(prom, *rows[0])) if rows else 0


def label_values(prom: Prometheus, expr: str, label: str, now: float) -> set[str]:
    return {labels.get(label, "") for labels, _ in prom.query(f"group by ({label}) ({expr})", now)}
