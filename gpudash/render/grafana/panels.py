"""The one adapter between gpudash dashboards and grafanalib (0.7.1): dashboard code never touches grafanalib.

grafanalib's quirks are handled here and nowhere else:

* it emits ``schemaVersion`` 12 unless told: dashboards get :data:`SCHEMA_VERSION` (39, Grafana 10.x/11.x);
* Stat panels default to ``thresholds.steps: ""``: every panel gets explicit thresholds (a base step at least);
* a ``Target`` without a datasource emits ``"datasource": null``: every panel and every target carries the
  datasource UID it was built for, or ``${datasource}`` on dashboards with a datasource variable;
* legacy keys (dashboard ``id``, ``rows``, ``style``; target ``intervalFactor``/``step``; null panel fields)
  are removed, so provisioning never sees a database ``id`` and the JSON stays small and diffable;
* panel ids and grid positions are assigned here, left to right in rows of 24 columns.

Every panel must have a unit and a description (what the number means for billing); building one without
them is a programming error (``ValueError``).
"""
from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import grafanalib.core as G
from grafanalib._gen import DashboardEncoder

SCHEMA_VERSION = 39
GRID_WIDTH = 24

GREEN, YELLOW, ORANGE, RED, BLUE = "green", "yellow", "orange", "red", "blue"

# Threshold steps: (lower bound or None for the base step, colour).
Thresholds = tuple[tuple[float | None, str], ...]
BASE: Thresholds = ((None, GREEN),)
NEUTRAL: Thresholds = ((None, BLUE),)


def currency_unit(code: str) -> str:
    """Grafana unit of an amount of money in ``code``: ``suffix: USD``. Grafana's ``currency*`` units scale
    large amounts (``$5.00K``); ``suffix:`` is a fixed-point number with the code after it
    (grafana/grafana packages/grafana-data/src/valueFormats/valueFormats.ts, ``getValueFormat``), so money reads
    the same in every panel, to the decimals the panel sets."""
    return f"suffix: {code}"


def currency_rate_unit(code: str) -> str:
    """Grafana unit of a burn rate: the currency per hour, e.g. ``suffix: USD/h``."""
    return f"suffix: {code}/h"


GPU_HOURS = "suffix: GPU-h"
KWH = "kwatth"
WATTS = "watt"
KWH_PER_GPU_HOUR = "suffix: kWh/GPU-h"
GPUS = "short"
RATIO = "percentunit"
SECONDS = "s"
DATETIME = "dateTimeAsIso"


@dataclass(frozen=True)
class Query:
    """One PromQL target of a panel."""

    expr: str
    legend: str = ""
    instant: bool = False  # an instant query at the end of the time range (else a range query)
    table: bool = False  # format "table" (one row per series, or per series and step for range queries)
    interval: str = ""  # minimum step of a range query, e.g. "1h"


@dataclass(frozen=True)
class PanelSpec:
    """A panel before layout: its size and a builder that needs the datasource, position and id."""

    title: str
    width: int
    height: int
    build: Callable[[dict, G.GridPos, int], object]
    is_row: bool = False


def _check(title: str, description: str, unit: str) -> None:
    if not description.strip():
        raise ValueError(f"panel {title!r} has no description")
    if not unit:
        raise ValueError(f"panel {title!r} has no unit")


def _steps(thresholds: Thresholds) -> list[dict]:
    if not thresholds or thresholds[0][0] is not None:
        raise ValueError("thresholds need a base step (value None) first")
    return [{"color": color, "value": value} for value, color in thresholds]


def _targets(queries: tuple[Query, ...], ds: dict) -> list:
    if not queries:
        raise ValueError("a panel needs at least one query")
    out = []
    for i, qy in enumerate(queries):
        out.append(G.Target(expr=qy.expr, legendFormat=qy.legend, refId=chr(ord("A") + i), instant=qy.instant,
                            format="table" if qy.table else "time_series", interval=qy.interval, datasource=ds))
    return out


def _max_points(queries: tuple[Query, ...], max_points: int | None) -> int:
    """Hourly range queries need one point per hour of the range: 11000 is Prometheus' per-query limit."""
    if max_points:
        return max_points
    return 11000 if any(qy.interval == "1h" for qy in queries) else 1000


def stat(title: str, description: str, unit: str, queries: tuple[Query, ...], *, thresholds: Thresholds = BASE,
         width: int = 6, height: int = 4, decimals: int | None = None, mappings: tuple[dict, ...] = (),
         no_value: str = "no data", color_mode: str = "value") -> PanelSpec:
    """A single number (last non-null value of each series)."""
    _check(title, description, unit)

    def build(ds, pos, pid):
        return G.Stat(title=title, description=description, dataSource=ds, targets=_targets(queries, ds),
                      gridPos=pos, id=pid, format=unit, thresholds=_steps(thresholds), decimals=decimals,
                      mappings=list(mappings), noValue=no_value, reduceCalc="lastNotNull", graphMode="none",
                      colorMode=color_mode, textMode="auto", maxDataPoints=_max_points(queries, None))
    return PanelSpec(title, width, height, build)


def timeseries(title: str, description: str, unit: str, queries: tuple[Query, ...], *, width: int = 12,
               height: int = 8, bars: bool = False, stack: bool = False, thresholds: Thresholds = BASE,
               decimals: int | None = None, legend_calcs: tuple[str, ...] = ("lastNotNull", "max"),
               min_value: float | None = None, max_value: float | None = None,
               max_points: int | None = None) -> PanelSpec:
    """A time series graph; ``bars`` for hourly (clock-hour) series."""
    _check(title, description, unit)

    def build(ds, pos, pid):
        return G.TimeSeries(
            title=title, description=description, dataSource=ds, targets=_targets(queries, ds), gridPos=pos,
            id=pid, unit=unit, thresholds=_steps(thresholds), valueDecimals=decimals, valueMin=min_value,
            valueMax=max_value, drawStyle="bars" if bars else "line", fillOpacity=80 if bars else 10,
            lineWidth=1, showPoints="never", stacking={"mode": "normal" if stack else "none", "group": "A"},
            legendDisplayMode="table", legendPlacement="bottom", legendCalcs=list(legend_calcs),
            tooltipMode="multi", tooltipSort="desc", maxDataPoints=_max_points(queries, max_points))
    return PanelSpec(title, width, height, build)


def table(title: str, description: str, unit: str, queries: tuple[Query, ...], *, width: int = 24,
          height: int = 8, merge: bool = False, rename: dict[str, str] | None = None, hide: tuple[str, ...] = (),
          units: dict[str, str] | None = None, sort_by: str | None = None, decimals: int | None = None,
          thresholds: Thresholds = BASE, max_points: int | None = None) -> PanelSpec:
    """A table; ``merge`` joins several table queries on their common labels (one row per label set).

    ``rename`` maps field names (``Value #A``, label names) to column titles, ``hide`` drops fields,
    ``units`` overrides the unit of single fields (by their original name).
    """
    _check(title, description, unit)
    transformations = []
    if merge:
        transformations.append({"id": "merge", "options": {}})
    if rename or hide:
        transformations.append({"id": "organize", "options": {
            "excludeByName": {name: True for name in hide}, "indexByName": {},
            "renameByName": dict(rename or {})}})
    overrides = [{"matcher": {"id": "byName", "options": (rename or {}).get(name, name)},
                  "properties": [{"id": "unit", "value": u}]} for name, u in sorted((units or {}).items())]
    sort = [G.TableSortByField(displayName=sort_by, desc=True)] if sort_by else []

    def build(ds, pos, pid):
        extra = {"fieldConfig": {"defaults": {"decimals": decimals}}} if decimals is not None else {}
        return G.Table(title=title, description=description, dataSource=ds, targets=_targets(queries, ds),
                       gridPos=pos, id=pid, unit=unit, thresholds=_steps(thresholds), overrides=overrides,
                       transformations=transformations, sortBy=sort, filterable=True,
                       maxDataPoints=_max_points(queries, max_points), extraJson=extra)
    return PanelSpec(title, width, height, build)


def row(title: str) -> PanelSpec:
    """A full-width section heading (not collapsible, so every panel stays visible and exportable)."""
    def build(ds, pos, pid):
        return G.RowPanel(title=title, gridPos=pos, id=pid, collapsed=False)
    return PanelSpec(title, GRID_WIDTH, 1, build, is_row=True)


def custom_variable(name: str, label: str, values: tuple[str, ...]) -> dict:
    """A multi-value variable over fixed ``values``, with "All" (= ``.*``), for provider dashboards only."""
    var = G.Template(name=name, label=label, query=",".join(values), type="custom", includeAll=True, multi=True,
                     allValue=".*")
    data = _plain(var)
    data["current"] = {"selected": True, "text": ["All"], "value": ["$__all"]}
    data["options"] = [{"selected": False, "text": v, "value": v} for v in values]
    for legacy in ("auto", "auto_count", "auto_min", "tagValuesQuery", "tagsQuery", "useTags", "datasource",
                   "refresh", "regex", "sort"):
        data.pop(legacy, None)
    return data


DATASOURCE_VARIABLE = "datasource"
# The input Grafana's dashboard import asks for: it writes the chosen datasource wherever "${DS_PROMETHEUS}"
# stands in a string of the JSON and drops ``__inputs`` (grafana/grafana
# pkg/services/dashboardimport/utils/dash_template_evaluator.go; the ``__inputs`` entry has the shape that
# public/app/features/dashboard/components/DashExportModal/DashboardExporter.ts writes for a datasource).
IMPORT_INPUT = "DS_PROMETHEUS"


def datasource_variable(ds: dict) -> dict:
    """A ``datasource`` variable over the org's datasources of ``ds``'s type, ``ds`` selected: panels read
    ``${datasource}``, so the dashboard works wherever a datasource of that type exists."""
    return {"name": DATASOURCE_VARIABLE, "label": "Datasource", "type": "datasource", "query": ds["type"],
            "current": {"selected": True, "text": ds["uid"], "value": ds["uid"]}, "options": [], "hide": 0,
            "includeAll": False, "multi": False, "refresh": 1, "regex": "", "skipUrlSync": False}


def for_import(dashboard: dict) -> dict:
    """The dashboard for Grafana's "Import dashboard": ``__inputs`` asks for a Prometheus datasource, whose
    value Grafana puts in the ``datasource`` variable (every panel reads it). Only for dashboards rendered
    with a datasource variable."""
    out = copy.deepcopy(dashboard)
    found = [v for v in out["templating"]["list"] if v["name"] == DATASOURCE_VARIABLE]
    if not found:
        raise ValueError(f"dashboard {dashboard.get('uid')!r} has no datasource variable to import through")
    ref = f"${{{IMPORT_INPUT}}}"
    found[0]["current"] = {"selected": False, "text": ref, "value": ref}
    out["__inputs"] = [{"name": IMPORT_INPUT, "label": "Prometheus", "type": "datasource",
                        "pluginId": found[0]["query"], "pluginName": "Prometheus",
                        "description": "The Prometheus-compatible datasource that holds gpudash's recorded series "
                                       "(the ACM hub's Observatorium, or a cluster's thanos-querier)."}]
    return out


def _plain(obj) -> dict[str, Any]:
    """A grafanalib object -> its plain JSON data (a JSON object of dicts, lists and scalars)."""
    return json.loads(json.dumps(obj.to_json_data(), cls=DashboardEncoder))


_PANEL_DROP_IF_NULL = ("cacheTimeout", "height", "interval", "maxPerRow", "minSpan", "repeat", "repeatDirection",
                       "span", "timeFrom", "timeShift")
# Legacy top-level keys (value mappings and colours live in fieldConfig.defaults since schemaVersion 28).
_PANEL_DROP = ("editable", "error", "hideTimeOverride", "columns", "fontSize", "color", "mappings", "minSpan")
_TARGET_DROP = ("intervalFactor", "step", "target", "metric", "query", "hide")


def _clean_panel(panel: dict) -> dict:
    for key in _PANEL_DROP_IF_NULL:
        if panel.get(key) is None:
            panel.pop(key, None)
    if panel.get("type") != "row":
        for key in _PANEL_DROP:
            panel.pop(key, None)
    defaults = panel.get("fieldConfig", {}).get("defaults", {})
    for key in ("color", "decimals", "min", "max", "noValue"):
        if key in defaults and defaults[key] is None:
            del defaults[key]
    custom = defaults.get("custom", {})
    for key in ("axisSoftMin", "axisSoftMax"):
        if key in custom and custom[key] is None:
            del custom[key]
    for target in panel.get("targets", []):
        for key in _TARGET_DROP:
            target.pop(key, None)
        if not target.get("interval"):
            target.pop("interval", None)
    if panel.get("type") == "row":
        for key in ("targets", "datasource", "fieldConfig", "transformations", "links", "maxDataPoints",
                    "transparent", "description", "cacheTimeout", "editable", "error", "hideTimeOverride"):
            panel.pop(key, None)
        panel["panels"] = []
    return panel


def _layout(specs: list[PanelSpec], ds: dict) -> list[dict]:
    panels, x, y, row_height = [], 0, 0, 0
    for pid, spec in enumerate(specs, start=1):
        if spec.is_row or x + spec.width > GRID_WIDTH:
            x, y, row_height = 0, y + row_height, 0
        pos = G.GridPos(h=spec.height, w=spec.width, x=x, y=y)
        panels.append(_clean_panel(_plain(spec.build(ds, pos, pid))))
        x += spec.width
        row_height = max(row_height, spec.height)
        if spec.is_row:
            x, y, row_height = 0, y + spec.height, 0
    return panels


@dataclass(frozen=True)
class DashboardLink:
    title: str
    tags: tuple[str, ...]


@dataclass(frozen=True)
class Dashboard:
    """Everything about a dashboard except its datasource: :func:`render` makes the Grafana JSON."""

    title: str
    uid: str
    description: str
    tags: tuple[str, ...]
    panels: tuple[PanelSpec, ...]
    time_from: str = "now-24h"
    refresh: str = "5m"
    variables: tuple[Callable[[dict], dict], ...] = ()  # ds -> variable JSON
    # Panels read ``${datasource}`` (a variable, first in the list) instead of the fixed datasource.
    datasource_variable: bool = False
    links: tuple[DashboardLink, ...] = field(default=())


def render(dash: Dashboard, ds: dict) -> dict:
    """The dashboard JSON for datasource ``ds`` (``{"type": "prometheus", "uid": ...}``): fixed in every panel, or
    the datasource variable's selection when the dashboard has one."""
    if not ds.get("uid"):
        raise ValueError("dashboards need a datasource uid")
    links = [G.DashboardLink(title=link.title, type="dashboards", tags=list(link.tags), asDropdown=True,
                             keepTime=True, includeVars=False, targetBlank=False, uri="", icon="external link")
             for link in dash.links]
    data = _plain(G.Dashboard(
        title=dash.title, uid=dash.uid, description=dash.description, tags=list(dash.tags),
        schemaVersion=SCHEMA_VERSION, editable=False, graphTooltip=1, timezone="utc", refresh=dash.refresh,
        time=G.Time(dash.time_from, "now"), links=links,
        templating=G.Templating(list=[]), panels=[]))
    for key in ("id", "rows", "hideControls", "sharedCrosshair", "style", "gnetId", "__inputs", "version"):
        data.pop(key, None)
    panel_ds = {"type": ds["type"], "uid": f"${{{DATASOURCE_VARIABLE}}}"} if dash.datasource_variable else ds
    data["panels"] = _layout(list(dash.panels), panel_ds)
    own = [datasource_variable(ds)] if dash.datasource_variable else []
    data["templating"] = {"list": own + [make(ds) for make in dash.variables]}
    for link in data["links"]:
        for key in ("tooltip", "url"):
            if not link.get(key):
                link.pop(key, None)
    data["timepicker"] = {"refresh_intervals": ["1m", "5m", "15m", "30m", "1h"]}
    return data


def iter_panels(dashboard: dict):
    """Every panel of a dashboard JSON, including panels nested in collapsed rows."""
    for panel in dashboard.get("panels", []):
        yield panel
        yield from panel.get("panels", [])


def iter_targets(dashboard: dict):
    """(panel, target) for every query target of a dashboard JSON."""
    for panel in iter_panels(dashboard):
        for target in panel.get("targets", []):
            yield panel, target
