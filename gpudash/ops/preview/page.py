"""A dashboard's evaluated panels (:mod:`.evaluate`) as one self-contained HTML page.

Panels sit where Grafana puts them (``gridPos``: 24 columns, rows of 30 px plus an 8 px gap, as Grafana's
``GRID_CELL_HEIGHT`` and ``GRID_CELL_VMARGIN``). Time series and bar gauges are drawn by uPlot (vendored from
npm, see vendor/SOURCE.md: the library Grafana's own time series panel draws with), stats as Grafana's big
number, tables as rows joined on their labels (Grafana's "merge" of instant queries). Each panel carries
``data-state`` (data, empty, nan, error) and, once drawn, ``data-drawn``: what the headless-browser test reads.
"""
from __future__ import annotations

import html
import json
from pathlib import Path

VENDOR = Path(__file__).with_name("vendor")
SCRIPT = Path(__file__).with_name("dashboard.js")  # draws the panels from the page's JSON

_STYLE = """
body{margin:0;background:#111217;color:#ccccdc;font:12px Inter,Helvetica,Arial,sans-serif}
h1{font-size:16px;margin:10px 12px 2px}
.range{color:#8e8e8e;margin:0 12px 8px}
#grid{position:relative;margin:0 4px}
.row{position:absolute;font-weight:bold;font-size:14px;padding-top:8px}
.panel{position:absolute;background:#181b1f;border:1px solid #2a2d33;border-radius:3px;box-sizing:border-box;
 display:flex;flex-direction:column;overflow:hidden}
.title{font-weight:500;padding:4px 8px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.body{flex:1;position:relative;overflow:hidden;padding:0 4px}
.stat{font-size:26px;font-weight:500;color:#73bf69;text-align:center;margin-top:4px}
table{border-collapse:collapse;width:100%;font-size:11px}
th{color:#6e9fff;text-align:left;border-bottom:1px solid #2a2d33;padding:2px 4px}
td{padding:2px 4px;border-bottom:1px solid #202226}
td.num{text-align:right}
.bad{color:#f2495c;padding:4px}.bad code{display:block;color:#8e8e8e;font-size:10px;word-break:break-all}
.u-legend{font-size:10px;color:#ccccdc}.u-legend th{color:inherit;border:0}
"""


def page(data: dict) -> str:
    """The self-contained HTML page of one evaluated dashboard (it loads nothing)."""
    from datetime import UTC, datetime

    when = " - ".join(datetime.fromtimestamp(data[k], UTC).strftime("%Y-%m-%d %H:%M UTC") for k in ("start", "end"))
    js = (VENDOR / "uPlot.iife.min.js").read_text(encoding="utf-8")
    script = SCRIPT.read_text(encoding="utf-8")
    css = (VENDOR / "uPlot.min.css").read_text(encoding="utf-8")
    payload = json.dumps(data, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")
    return (f'<!doctype html><meta charset="utf-8"><title>{html.escape(data["title"])}</title>'
            f"<style>{css}{_STYLE}</style><h1>{html.escape(data['title'])}</h1>"
            f'<div class="range">{html.escape(when)}</div><div id="grid"></div>'
            f'<script id="data" type="application/json">{payload}</script>'
            f"<script>{js}</script><script>{script}</script>\n")


def height(data: dict) -> int:
    """The page's height in pixels (the picture's)."""
    rows = max((p["gridPos"].get("y", 0) + p["gridPos"].get("h", 0) for p in data["panels"]), default=0)
    return rows * 38 + 70
