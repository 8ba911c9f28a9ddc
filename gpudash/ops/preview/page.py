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

_SCRIPT = r"""
const D = JSON.parse(document.getElementById('data').textContent);
const COLORS = ['#73bf69','#f2cc0c','#8ab8ff','#ff780a','#f2495c','#5794f2','#b877d9','#fade2a','#c4162a','#96d98d'];
function fmt(v, unit, decimals) {
  if (v === null || v === undefined) return 'NaN';
  let d = decimals ?? (Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 1 ? 2 : 3);
  if (unit === 'percentunit') return (v * 100).toFixed(decimals ?? 1) + '%';
  const sfx = unit.startsWith('suffix:') ? ' ' + unit.slice(7).trim() :
    ({kwatth: ' kWh', watt: ' W', s: ' s'})[unit] || '';
  return v.toLocaleString('en-US', {minimumFractionDigits: d, maximumFractionDigits: d}) + sfx;
}
function last(points) { for (let i = points.length - 1; i >= 0; i--) if (points[i][1] !== null) return points[i][1]; return null; }
function chart(el, p, bars) {
  const series = p.targets.flatMap(t => t.series);
  const times = [...new Set(series.flatMap(s => s[2].map(x => x[0])))].sort((a, b) => a - b);
  const idx = new Map(times.map((t, i) => [t, i]));
  const data = [times];
  for (const s of series) { const col = times.map(() => null); for (const [t, v] of s[2]) col[idx.get(t)] = v; data.push(col); }
  const box = el.querySelector('.body');
  const opts = {width: box.clientWidth, height: box.clientHeight, legend: {show: true},
    cursor: {show: false}, scales: {x: {time: !bars}},
    axes: [{stroke: '#9fa7b3', grid: {stroke: '#2a2d33'}, values: bars ? ((u, v) => v.map(() => '')) : undefined},
           {stroke: '#9fa7b3', grid: {stroke: '#2a2d33'}, size: 70, values: (u, v) => v.map(x => fmt(x, p.unit, null))}],
    series: [{}, ...series.map((s, i) => ({label: s[0], stroke: COLORS[i % COLORS.length], width: 1.5,
      fill: bars ? COLORS[i % COLORS.length] : undefined, spanGaps: false,
      paths: bars ? uPlot.paths.bars({size: [0.6, 80]}) : undefined,
      value: (u, v) => fmt(v, p.unit, p.decimals)}))]};
  if (bars) { data[0] = series.map((_, i) => i); for (let i = 1; i < data.length; i++) data[i] = series.map((s, j) => j === i - 1 ? last(s[2]) : null); }
  opts.height = box.clientHeight - 24 * Math.min(3, Math.ceil(series.length / 3));
  new uPlot(opts, data, box);
}
function table(el, p) {
  const rows = new Map(); const keys = new Set(); const cols = [];
  p.targets.forEach((t, ti) => {
    const col = p.targets.length > 1 ? 'Value #' + String.fromCharCode(65 + ti) : 'Value'; cols.push(col);
    for (const s of t.series) {
      Object.keys(s[1]).forEach(k => k !== '__name__' && keys.add(k));
      const key = JSON.stringify(Object.entries(s[1]).filter(([k]) => k !== '__name__').sort());
      if (!rows.has(key)) rows.set(key, {labels: s[1]}); rows.get(key)[col] = last(s[2]);
    }
  });
  const names = [...keys].sort();
  const head = '<tr>' + [...names, ...cols].map(c => '<th>' + esc(c) + '</th>').join('') + '</tr>';
  const body = [...rows.values()].map(r => '<tr>' + names.map(n => '<td>' + esc(r.labels[n] ?? '') + '</td>').join('') +
    cols.map(c => '<td class="num">' + (c in r ? esc(fmt(r[c], p.unit, p.decimals)) : '') + '</td>').join('') + '</tr>').join('');
  el.querySelector('.body').innerHTML = '<table>' + head + body + '</table>';
}
function esc(s) { return String(s).replace(/[&<>"]/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'})[c]); }
const W = Math.floor((document.body.clientWidth - 8) / 24), H = 30, M = 8;
const grid = document.getElementById('grid');
let bottom = 0;
for (const p of D.panels) {
  const g = p.gridPos, el = document.createElement('div');
  el.className = p.type === 'row' ? 'row' : 'panel';
  el.style.cssText = `left:${g.x * W}px;top:${g.y * (H + M)}px;width:${g.w * W - M}px;height:${g.h * (H + M) - M}px`;
  bottom = Math.max(bottom, (g.y + g.h) * (H + M));
  grid.appendChild(el);
  if (p.type === 'row') { el.textContent = p.title; continue; }
  el.dataset.state = p.state; el.dataset.kind = p.type;
  el.innerHTML = '<div class="title">' + esc(p.title) + '</div><div class="body"></div>';
  const bad = p.targets.find(t => t.state !== 'data');
  if (bad) {
    el.querySelector('.body').innerHTML = '<div class="bad">' + esc(bad.error || (bad.state === 'nan' ? 'NaN' : 'No data')) +
      '<code>' + esc(bad.expr) + '</code></div>';
    continue;
  }
  if (p.type === 'stat') {
    el.querySelector('.body').innerHTML = p.targets.map(t => '<div class="stat">' + esc(fmt(last(t.series[0][2]), p.unit, p.decimals)) + '</div>').join('');
  } else if (p.type === 'table') table(el, p);
  else chart(el, p, p.type === 'bargauge');
  el.dataset.drawn = '1';
}
grid.style.height = bottom + 'px';
document.body.dataset.done = '1';
"""

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
    css = (VENDOR / "uPlot.min.css").read_text(encoding="utf-8")
    payload = json.dumps(data, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")
    return (f'<!doctype html><meta charset="utf-8"><title>{html.escape(data["title"])}</title>'
            f"<style>{css}{_STYLE}</style><h1>{html.escape(data['title'])}</h1>"
            f'<div class="range">{html.escape(when)}</div><div id="grid"></div>'
            f'<script id="data" type="application/json">{payload}</script>'
            f"<script>{js}</script><script>{_SCRIPT}</script>\n")


def height(data: dict) -> int:
    """The page's height in pixels (the picture's)."""
    rows = max((p["gridPos"].get("y", 0) + p["gridPos"].get("h", 0) for p in data["panels"]), default=0)
    return rows * 38 + 70
