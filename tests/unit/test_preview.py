"""``gpudash preview``'s pure parts: Grafana's time range, step and variables (gpudash/ops/preview/grafana_vars.py,
each figure from the grafana/grafana source it cites), and a tenant's queries confined as its datasource's proxy
confines them."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gpudash.base.errors import GpudashError
from gpudash.ops.preview import evaluate
from gpudash.ops.preview import grafana_vars as gv

NOW = datetime(2026, 3, 10, 14, 37, 12, tzinfo=UTC).timestamp()


def _at(text: str, up: bool = False) -> str:
    return datetime.fromtimestamp(gv.parse_time(text, NOW, up), UTC).isoformat(timespec="milliseconds")


def test_relative_times_as_grafanas_datemath():
    assert _at("now") == "2026-03-10T14:37:12.000+00:00"
    assert _at("now-7d") == "2026-03-03T14:37:12.000+00:00"
    assert _at("now-2d/d") == "2026-03-08T00:00:00.000+00:00"  # rounding: start of the unit for "from"
    assert _at("now/M") == "2026-03-01T00:00:00.000+00:00"
    assert _at("now/M", up=True) == "2026-03-31T23:59:59.999+00:00"  # ... and its end for "to"
    assert _at("now-1M") == "2026-02-10T14:37:12.000+00:00"
    assert _at("now-1y/y") == "2025-01-01T00:00:00.000+00:00"
    for bad in ("2026-03-01", "now-7x", "now/w", "now-"):
        with pytest.raises(GpudashError):
            gv.parse_time(bad, NOW)


def test_step_and_interval_variables_as_grafana_computes_them():
    week = 7 * 86400
    assert gv.step(NOW - week, NOW, 1000, None) == 600  # 604.8 s rounded to 10m
    assert gv.step(NOW - week, NOW, 11000, "1h") == 3600  # the query's interval is the floor
    assert gv.step(NOW - 3600, NOW, 1000, None) == 15  # 3.6 s is under the 15 s scrape interval
    table = gv.Variables(NOW - week, NOW, 600, (("cluster", ".*"),)).table()
    assert table["__interval"] == "10m" and table["__interval_ms"] == "600000"
    assert table["__range"] == "604800s" and table["__range_s"] == "604800" and table["__range_ms"] == "604800000"
    assert table["__rate_interval"] == "615s"  # max(600 + 15, 4 x 15)
    expr = gv.Variables(NOW - week, NOW, 600, (("cluster", ".*"),)).apply(
        'sum(rate(x{cluster=~"$cluster"}[$__rate_interval])) + sum_over_time(y[${__range}:1h])')
    assert expr == 'sum(rate(x{cluster=~".*"}[615s])) + sum_over_time(y[604800s:1h])'


def test_template_variables_at_their_saved_values():
    board = {"templating": {"list": [
        {"name": "datasource", "type": "datasource", "query": "prometheus"},
        {"name": "cluster", "type": "custom", "allValue": ".*", "current": {"value": ["$__all"]}},
        {"name": "env", "type": "custom", "current": {"value": ["a", "b"]}, "options": []},
        {"name": "region", "type": "custom", "current": {"value": ["$__all"]},
         "options": [{"value": "$__all"}, {"value": "eu"}, {"value": "us"}]}]}}
    assert dict(gv.template_values(board, "ds-1")) == {"datasource": "ds-1", "cluster": ".*", "env": "a|b",
                                                       "region": "eu|us"}


@pytest.mark.parametrize("mode", [evaluate.RBAC_QUERY_PROXY, evaluate.THANOS_QUERIER])
def test_a_tenant_queries_only_its_namespace(mode):
    import promql_parser as pp

    from gpudash.promql.lint import vector_selectors

    viewer = evaluate.Viewer("team-a", ("prod-east",), mode)
    expr = viewer.confine('sum(x{namespace="team-b"}) + sum(y) + count(ALERTS)')
    for sel in vector_selectors(pp.parse(expr)):
        matchers = {(m.name, m.value) for m in sel.matchers.matchers if str(m.op) == "MatchOp.Equal"}
        assert ("namespace", "team-a") in matchers, expr  # every selector, a foreign namespace included
    assert evaluate.Viewer().confine("sum(x)") == "sum(x)"  # the provider reads as written


def test_problems_name_the_panel_and_its_query():
    data = {"uid": "d", "panels": [
        {"title": "Fine", "targets": [{"state": "data", "expr": "a"}]},
        {"title": "Empty", "targets": [{"state": "empty", "expr": "b"}]},
        {"title": "Broken", "targets": [{"state": "error", "error": "bad_data: parse error", "expr": "c("}]},
        {"title": "NaN", "targets": [{"state": "nan", "expr": "0/0"}]}]}
    assert evaluate.problems(data) == ["d / Empty: no data: b", "d / Broken: bad_data: parse error: c(",
                                       "d / NaN: NaN: 0/0"]
