// Draws a `gpudash preview` page: each panel of the JSON in <script id="data"> at its gridPos, time series and bar
// gauges with uPlot (vendor/), stats as one big number per query, tables as rows joined on their labels.
// Marks each panel with data-state (from the evaluation) and data-drawn once drawn.
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
function last(points) {
  for (let i = points.length - 1; i >= 0; i--) if (points[i][1] !== null) return points[i][1];
  return null;
}
function chart(el, p, bars) {
  const series = p.targets.flatMap(t => t.series);
  const times = [...new Set(series.flatMap(s => s[2].map(x => x[0])))].sort((a, b) => a - b);
  const idx = new Map(times.map((t, i) => [t, i]));
  const data = [times];
  for (const s of series) {
    const col = times.map(() => null);
    for (const [t, v] of s[2]) col[idx.get(t)] = v;
    data.push(col);
  }
  const box = el.querySelector('.body');
  const opts = {width: box.clientWidth, height: box.clientHeight, legend: {show: true, live: false},
    cursor: {show: false}, scales: {x: {time: !bars}},
    axes: [{stroke: '#9fa7b3', grid: {stroke: '#2a2d33'}, values: bars ? ((u, v) => v.map(() => '')) : undefined},
           {stroke: '#9fa7b3', grid: {stroke: '#2a2d33'}, size: 90,
            values: (u, v) => v.map(x => fmt(x, p.unit, null))}],
    series: [{}, ...series.map((s, i) => ({label: s[0], stroke: COLORS[i % COLORS.length], width: 1.5,
      fill: bars ? COLORS[i % COLORS.length] : undefined, spanGaps: false,
      paths: bars ? uPlot.paths.bars({size: [0.6, 80]}) : undefined,
      value: (u, v) => fmt(v, p.unit, p.decimals)}))]};
  if (bars) {  // a bar gauge: one bar per series, its last value
    data[0] = series.map((_, i) => i);
    for (let i = 1; i < data.length; i++) data[i] = series.map((s, j) => j === i - 1 ? last(s[2]) : null);
  }
  opts.height = box.clientHeight - 24 * Math.min(3, Math.ceil(series.length / 3));
  new uPlot(opts, data, box);
}
function table(el, p) {
  const rows = new Map(); const keys = new Set(); const cols = []; const hidden = new Set(p.exclude);
  p.targets.forEach((t, ti) => {
    const col = p.targets.length > 1 ? 'Value #' + String.fromCharCode(65 + ti) : 'Value'; cols.push(col);
    for (const s of t.series) {
      Object.keys(s[1]).forEach(k => keys.add(k));
      const key = JSON.stringify(Object.entries(s[1]).filter(([k]) => k !== '__name__').sort());
      if (!rows.has(key)) rows.set(key, {labels: s[1]});
      rows.get(key)[col] = last(s[2]);
    }
  });
  const names = [...keys].filter(k => k !== '__name__' && !hidden.has(k)).sort();
  const shown = cols.filter(c => !hidden.has(c));
  const title = c => p.rename[c] || c;
  const head = '<tr>' + [...names, ...shown].map(c => '<th>' + esc(title(c)) + '</th>').join('') + '</tr>';
  const cell = (r, c) => '<td class="num">' +
    (c in r ? esc(fmt(r[c], p.units[title(c)] || p.unit, p.decimals)) : '') + '</td>';
  const body = [...rows.values()].map(r => '<tr>' +
    names.map(n => '<td>' + esc(r.labels[n] ?? '') + '</td>').join('') +
    shown.map(c => cell(r, c)).join('') + '</tr>').join('');
  el.querySelector('.body').innerHTML = '<table>' + head + body + '</table>';
}
const ENTITIES = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'};
function esc(s) { return String(s).replace(/[&<>"]/g, c => ENTITIES[c]); }
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
    const why = bad.error || (bad.state === 'nan' ? 'NaN' : 'No data');
    el.querySelector('.body').innerHTML = '<div class="bad">' + esc(why) + '<code>' + esc(bad.expr) + '</code></div>';
    continue;
  }
  if (p.type === 'stat') {
    const big = t => '<div class="stat">' + esc(fmt(last(t.series[0][2]), p.unit, p.decimals)) + '</div>';
    el.querySelector('.body').innerHTML = p.targets.map(big).join('');
  } else if (p.type === 'table') table(el, p);
  else chart(el, p, p.type === 'bargauge');
  el.dataset.drawn = '1';
}
grid.style.height = bottom + 'px';
document.body.dataset.done = '1';
