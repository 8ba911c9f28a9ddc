"""A ``gpudash preview`` page in headless Chromium: each panel kind (stat, table, time series, bar gauge) is drawn
as such at its grid position, and a panel without data says so instead of being drawn (the demo's real
dashboards: e2e/test_demo.py)."""
from __future__ import annotations

import re
import subprocess

from gpudash.ops.preview import evaluate, page
from tests.pictures import chromium

NOW = 1_773_100_800.0  # 2026-03-10T00:00:00Z


class Answers:
    """A stand-in for the Prometheus client: every query answers two series, except ``empty``."""

    def query(self, expr, time, figures=True):
        return [] if "empty" in expr else [((("pod", "a"),), 2.0), ((("pod", "b"),), 3.5)]

    def query_range(self, expr, start, end, step, figures=True):
        points = [(start + i * step, float(i)) for i in range(int((end - start) // step) + 1)]
        return [((("pod", "a"),), points), ((("pod", "b"),), [(t, v * 2) for t, v in points])]


def _panel(kind: str, x: int, expr: str = "x", instant: bool = True) -> dict:
    return {"type": kind, "title": f"{kind} {expr}", "gridPos": {"x": x, "y": 0, "w": 6, "h": 8},
            "targets": [{"expr": expr, "instant": instant, "legendFormat": "{{pod}}", "refId": "A"}],
            "fieldConfig": {"defaults": {"unit": "suffix: USD"}}}


def test_each_panel_kind_is_drawn_and_an_empty_one_says_so(tmp_path):
    from gpudash.ops.report.pdf import headless

    chromium()
    board = {"title": "kinds", "uid": "kinds", "time": {"from": "now-6h", "to": "now"}, "panels": [
        _panel("stat", 0), _panel("table", 6), _panel("timeseries", 12, instant=False), _panel("bargauge", 18),
        {**_panel("stat", 0, "empty"), "gridPos": {"x": 0, "y": 8, "w": 6, "h": 4}}]}
    data = evaluate.dashboard_data(Answers(), board, evaluate.Viewer(), NOW)
    html_file = tmp_path / "kinds.html"
    html_file.write_text(page.page(data), encoding="utf-8")
    dom = subprocess.run([*headless(tmp_path / "profile"), "--dump-dom", html_file.as_uri()],
                         capture_output=True, text=True, timeout=120).stdout
    panels = []  # (state, kind, drawn, style, its HTML up to the next panel)
    for chunk in dom.split('<div class="panel" ')[1:]:
        attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', chunk.split(">", 1)[0]))
        panels.append((attrs.get("data-state"), attrs.get("data-kind"), attrs.get("data-drawn"), attrs["style"],
                       chunk))
    drawn = {kind: (state, style, body) for state, kind, _, style, body in panels[:4]}
    assert [p[0] for p in panels] == ["data", "data", "data", "data", "empty"], dom[-3000:]
    assert [p[2] for p in panels] == ["1", "1", "1", "1", None]
    assert "5.50 USD" not in dom and "2.00 USD" in drawn["stat"][2]  # a stat: its first series' number
    assert "<table>" in drawn["table"][2] and drawn["table"][2].count("<tr>") == 3  # header and two pods
    assert "uplot" in drawn["timeseries"][2] and "uplot" in drawn["bargauge"][2]  # charts, by uPlot
    assert "left: 0px" in drawn["stat"][1] and "left: 0px" not in drawn["bargauge"][1]  # where gridPos puts them
    assert "No data<code>empty</code>" in panels[-1][4]  # the empty panel shows its query


def test_an_unreachable_prometheus_stops_preview_in_one_line_writing_nothing(tmp_path, capsys):
    from gpudash import cli

    out = tmp_path / "preview"
    assert cli.main(["preview", "--example", "--prometheus-url", "http://127.0.0.1:1", "--no-png",
                     "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "127.0.0.1:1" in err, err
    assert not out.exists()
