"""The panel tables of docs/dashboards.md, generated from the dashboards the bundled example renders: each
panel's title, its description (what the number means for billing) and the series its queries read (a test
keeps the doc in sync)."""
from __future__ import annotations

import re

from gpudash.base import doctable
from gpudash.model import series as names
from gpudash.model.types import Model

SOURCE = "gpudash.render.grafana.panel_tables from the panels' descriptions"
BUILT_IN = ("up", "ALERTS")  # series Prometheus produces itself, which dashboards may read
_NAME = re.compile(r"[A-Za-z_:][A-Za-z0-9_:]*")


def reads(panel: dict) -> list[str]:
    """The recorded (and built-in) series named in ``panel``'s queries, in order of first use."""
    found: dict[str, None] = {}
    for target in panel.get("targets", ()):
        for token in _NAME.findall(target.get("expr", "")):
            if token in names.SERIES or token in BUILT_IN:
                found.setdefault(token)
    return list(found)


def _rows(dashboard: dict) -> list[tuple[str, str, str]]:
    out = []
    for panel in dashboard["panels"]:
        if panel["type"] == "row":
            out.append((f"**{doctable.cell(panel['title'])}**", "", ""))
        else:
            out.append((doctable.cell(panel["title"]), doctable.cell(panel.get("description", "")),
                        ", ".join(f"`{s}`" for s in reads(panel))))
    return out


def tables(model: Model) -> dict[str, str]:
    """{dashboard kind (provider, ccsp, tenant): its panel table}; the tenant one is the model's first tenant's."""
    from gpudash.render import grafana

    provider, tenants = grafana.rendered(model)
    boards = {kind: board for stem, board in provider.items() for kind in ("provider", "ccsp") if stem.endswith(kind)}
    boards["tenant"] = next(iter(tenants[model.tenants[0].name].values()))
    return {kind: doctable.block(f"panel-table:{kind}", SOURCE, ("panel", "what it shows", "reads"), _rows(board))
            for kind, board in boards.items()}
