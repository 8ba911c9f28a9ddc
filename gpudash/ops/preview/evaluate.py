"""Each panel of a dashboard evaluated against a Prometheus as Grafana would query it (:mod:`.grafana_vars`).

Instant targets are read at the range's end, range targets over the range at Grafana's step. A tenant's
dashboard is queried only as that tenant, through what its datasource goes through
(``grafana.tenant_datasource.mode``), so a preview can never show more than the tenant's own Grafana would:

* ``rbac-query-proxy`` (ACM hub): every query rewritten as ACM's proxy rewrites it for a user bound to the
  tenant's namespace on its clusters (:mod:`gpudash.render.grafana.proxy`);
* ``thanos-querier`` (one cluster's tenancy port): prom-label-proxy enforces ``namespace="<ns>"`` on every
  selector (prometheus-community/prom-label-proxy ``injectproxy/enforce.go``, ``EnforceMatchers``: an enforced
  equality matcher replaces the query's own). Here it is appended to each selector: the same where the query's
  own matcher is the tenant's (as every tenant query's is), and never broader where it is not.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from gpudash.base.errors import GpudashError
from gpudash.ops.preview import grafana_vars as gv

RBAC_QUERY_PROXY, THANOS_QUERIER = "rbac-query-proxy", "thanos-querier"  # grafana.tenant_datasource.mode
DRAWN = ("stat", "timeseries", "table", "bargauge")  # panel types drawn; rows are headings


@dataclass(frozen=True)
class Viewer:
    """Who looks at a dashboard: the provider (queries as written) or a tenant (queries through the proxy)."""

    namespace: str | None = None
    clusters: tuple[str, ...] = ()
    mode: str = RBAC_QUERY_PROXY

    def confine(self, expr: str) -> str:
        if self.namespace is None:
            return expr
        import promql_parser as pp

        from gpudash.render.grafana import proxy

        if self.mode == RBAC_QUERY_PROXY:
            return proxy.rewrite(expr, proxy.Access.tenant(self.namespace, self.clusters))
        return proxy.unparse(pp.parse(expr), (("namespace", "=", self.namespace),))


def _legend(fmt: str, labels: dict[str, str]) -> str:
    import re

    if fmt:
        return re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: labels.get(m[1], ""), fmt)
    return ", ".join(f"{k}={v}" for k, v in sorted(labels.items()) if k != "__name__") or "value"


def _number(v: float) -> float | None:
    return v if math.isfinite(v) else None


def _target(client, target: dict, panel: dict, board_vars, viewer: Viewer, start: float, end: float) -> dict:
    """One target's answer: {expr, legend, state: data|empty|nan|error, error?, series: [[name, [[t, v]...]]]}."""
    instant = bool(target.get("instant"))
    step = gv.step(start, end, panel.get("maxDataPoints"), target.get("interval") or panel.get("interval"))
    expr = viewer.confine(gv.Variables(start, end, step, board_vars).apply(target.get("expr", "")))
    out: dict = {"expr": expr, "legend": target.get("legendFormat", ""), "instant": instant, "series": []}
    try:
        if instant:
            rows = [(dict(labels), [(end, value)]) for labels, value in client.query(expr, end, figures=False)]
        else:
            first = start - start % step  # Grafana aligns the range to the step (query.go AlignTimeRange)
            rows = [(dict(labels), points) for labels, points in
                    client.query_range(expr, first, end - end % step, step, figures=False)]
    except GpudashError as err:
        return {**out, "state": "error", "error": str(err)}
    values = [v for _, points in rows for _, v in points]
    out["series"] = [[_legend(out["legend"], labels), labels, [[t, _number(v)] for t, v in points]]
                     for labels, points in rows]
    out["state"] = "empty" if not values else "nan" if not all(math.isfinite(v) for v in values) else "data"
    return out


def panel_data(client, panel: dict, board_vars, viewer: Viewer, start: float, end: float) -> dict:
    """The panel as the page draws it: its place, kind, units (Grafana's ``byName`` overrides) and each target's
    answer; a table's columns renamed and hidden as its ``organize`` transformation says."""
    defaults = (panel.get("fieldConfig") or {}).get("defaults") or {}
    targets = [_target(client, t, panel, board_vars, viewer, start, end) for t in panel.get("targets", [])]
    states = {t["state"] for t in targets}
    state = next((s for s in ("error", "nan", "empty") if s in states), "data") if targets else "empty"
    organize = next((t.get("options") or {} for t in panel.get("transformations", []) if t.get("id") == "organize"),
                    {})
    units = {o["matcher"].get("options"): prop["value"] for o in (panel.get("fieldConfig") or {}).get("overrides", [])
             if (o.get("matcher") or {}).get("id") == "byName" for prop in o.get("properties", [])
             if prop.get("id") == "unit"}
    return {"title": panel.get("title", ""), "type": panel.get("type", ""), "gridPos": panel.get("gridPos", {}),
            "unit": defaults.get("unit", ""), "decimals": defaults.get("decimals"), "state": state,
            "targets": targets, "rename": organize.get("renameByName") or {},
            "exclude": sorted(k for k, v in (organize.get("excludeByName") or {}).items() if v), "units": units}


def dashboard_data(client, board: dict, viewer: Viewer, now: float, datasource_uid: str = "") -> dict:
    """Every panel of ``board`` with its answers, over the dashboard's saved time range ending at ``now``."""
    from gpudash.render.grafana.panels import iter_panels

    rng = board.get("time") or {}
    start = gv.parse_time(rng.get("from", "now-6h"), now)
    end = min(gv.parse_time(rng.get("to", "now"), now, up=True), now)
    board_vars = gv.template_values(board, datasource_uid)
    panels = []
    for panel in iter_panels(board):
        if panel.get("type") in DRAWN:
            panels.append(panel_data(client, panel, board_vars, viewer, start, end))
        elif panel.get("type") == "row":
            panels.append({"title": panel.get("title", ""), "type": "row", "gridPos": panel.get("gridPos", {})})
    return {"title": board.get("title", ""), "uid": board.get("uid", ""), "start": start, "end": end,
            "panels": panels}


def problems(data: dict) -> list[str]:
    """One line per drawn panel that shows no number: its title, state and query."""
    out = []
    for panel in data["panels"]:
        for target in panel.get("targets", []):
            if target["state"] != "data":
                why = target.get("error") or {"empty": "no data", "nan": "NaN"}[target["state"]]
                out.append(f"{data['uid']} / {panel['title']}: {why}: {target['expr']}")
    return out
