"""The recorded-series tables of docs/billing.md, generated from the series registry (a test keeps the doc in
sync)."""
from __future__ import annotations

from gpudash.base import doctable
from gpudash.model import series as names

SOURCE = "gpudash.render.rules.series_tables from gpudash/model/series.py"


def markers(where: str) -> tuple[str, str]:
    return doctable.markers(f"series-table:{where}", SOURCE)


def table(where: str) -> str:
    """The series recorded on ``where`` (names.SPOKE or names.HUB), in registry order, between their markers."""
    rows = [(f"`{s.name}`", ", ".join(s.labels), doctable.cell(s.meaning)) for s in names.SERIES.values()
            if s.where == where]
    return doctable.block(f"series-table:{where}", SOURCE, ("series", "labels", "meaning"), rows)
