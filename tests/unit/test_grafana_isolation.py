"""Tenant isolation proof: every tenant dashboard passes, and the adversarial queries it must catch fail.

Rejected (see gpudash/render/grafana/isolation.py): a selector without ``namespace="<ns>"`` (anywhere: either side
of a binary operation, inside a subquery or a function), regex/negative namespace matchers, a second or a
different namespace value, ``or`` matchers, ``__name__`` patterns and series that are not tenant series,
``label_replace``/``label_join`` into ``namespace``, ``count_values("namespace", ...)``, any ``$`` left
after Grafana's macros are substituted, template variables, panel repeats, and any other datasource.
"""
from __future__ import annotations

import copy

import pytest

from gpudash import cli
from gpudash.base.errors import GenerationError
from gpudash.model import series as names
from gpudash.render import grafana
from gpudash.render.golden.orchestrate import cache as golden_cache
from gpudash.render.grafana import dashboards, isolation, panels, uids

NS = "team-a"
COST = names.POD_COST_RATE
OK = f'sum(last_over_time({COST}{{namespace="team-a"}}[10m]))'


@pytest.fixture(scope="module")
def tenant_dashboards(example_model):
    _, tenants = grafana.rendered(example_model)
    return {t.name: (t, tenants[t.name][uids.tenant_dashboard_uid(t.name)]) for t in example_model.tenants}


def test_every_tenant_dashboard_is_proven(example_model, tenant_dashboards):
    for name, (t, dash) in tenant_dashboards.items():
        assert isolation.violations(dash, t.namespace, uids.tenant_datasource_uid(name)) == []
    _, acm = grafana.rendered(example_model, acm=True)
    for t in example_model.tenants:
        dash = acm[t.name][uids.tenant_dashboard_uid(t.name)]
        assert isolation.violations(dash, t.namespace, uids.ACM_DATASOURCE_UID) == []


def test_a_dashboard_is_not_valid_for_another_tenant(tenant_dashboards):
    _, dash = tenant_dashboards["team-a"]
    found = isolation.violations(dash, "team-b", uids.tenant_datasource_uid("team-a"))
    assert found and all("not the tenant's namespace" in v.reason for v in found)


@pytest.mark.parametrize("expr", [
    OK,
    f'sum(sum_over_time(last_over_time({names.HOUR_COST}{{namespace="team-a"}}[1h] offset 1ms)[$__range:1h]))',
    f'max_over_time({COST}{{namespace="team-a"}}[$__rate_interval])',
    f'max_over_time({COST}{{namespace="team-a"}}[${{__interval}}])',
    f'max_over_time({COST}{{namespace="team-a"}}[[[__interval]]])',
    f'sum_over_time({COST}{{namespace="team-a"}}[${{__range_s}}s])',
    f'{COST}{{namespace="team-a"}} / {names.TENANT_BUDGET}{{namespace="team-a"}}',
    f'{{__name__="{COST}", namespace="team-a"}}',
    'vector(time() - 7200)',
    f'label_replace({COST}{{namespace="team-a"}}, "gpudash_part", "x", "", "")',
    f'{COST}{{namespace="team-a", pod=~"trainer-.*"}}',
])
def test_confined_queries_pass(expr):
    assert isolation.check_expr(isolation.substitute_macros(expr), NS) == []


@pytest.mark.parametrize("expr, reason", [
    (f'{COST}{{namespace=~"team-a"}}', "not an exact equality"),
    (f'{COST}{{namespace=~"team-.*"}}', "not an exact equality"),
    (f'{COST}{{namespace!="x"}}', "not an exact equality"),
    (f'{COST}{{namespace!~"x"}}', "not an exact equality"),
    (f'{COST}{{namespace="team-b"}}', "not the tenant's namespace"),
    (f'{COST}{{namespace="team-a", namespace="team-b"}}', "not the tenant's namespace"),
    (f'{COST}', "no namespace matcher"),
    (f'{COST}{{namespace="team-a"}} / {names.TENANT_BUDGET}', "no namespace matcher"),
    (f'{COST}{{namespace="team-a"}} or on () {COST}{{pod="x"}}', "no namespace matcher"),
    (f'{COST}{{namespace="team-a" or namespace="team-b"}}', "'or' matchers"),
    (f'{COST}{{namespace="team-a" or pod="x"}}', "'or' matchers"),
    (f'{COST}{{namespace="$namespace"}}', "template variable"),
    (f'{COST}{{namespace="${{namespace}}"}}', "template variable"),
    (f'{COST}{{namespace="[[namespace]]"}}', "template variable"),
    (f'max_over_time(({COST}{{namespace="team-a"}} + on () group_left {COST})[1h:5m])', "no namespace matcher"),
    (f'sum_over_time(({COST})[1h:5m])', "no namespace matcher"),
    ('{__name__=~".+"}', "no namespace matcher"),
    ('{__name__=~".+", namespace="team-a"}', "metric name matched by a pattern"),
    ('{__name__=~".+", namespace="team-a"}', "no metric name"),
    ('DCGM_FI_DEV_GPU_UTIL{namespace="team-a"}', "is not a tenant series"),
    ('kube_pod_container_resource_requests{namespace="team-a"}', "is not a tenant series"),
    (f'label_replace({COST}{{namespace="team-a"}}, "namespace", "team-b", "", "")', "rewrites the namespace"),
    (f'label_join({COST}{{namespace="team-a"}}, "namespace", ",", "pod")', "rewrites the namespace"),
    (f'count_values("namespace", {COST}{{namespace="team-a"}})', "creates a namespace label"),
    (f'absent({COST}{{namespace!="team-a"}})', "not an exact equality"),
    ('sum(rate(x[1m]', "does not parse"),
])
def test_adversarial_queries_are_rejected(expr, reason):
    found = isolation.check_expr(isolation.substitute_macros(expr), NS)
    assert found, expr
    assert any(reason in r for r in found), found


def test_macros_are_substituted_like_grafana():
    sub = isolation.substitute_macros
    assert sub("x[$__rate_interval]") == "x[1200s]"
    assert sub("x[${__range_s}s]") == "x[2592000s]"
    assert sub("$__range_ms $__range $__interval_ms $__interval") == "2592000000 2592000s 300000 300s"
    assert sub("x[[[__interval]]]") == "x[300s]"
    assert sub("${__interval:text}") == "300s"
    assert sub("$__interval_x") == "$__interval_x"  # not a macro: left for the '$' check to reject
    assert sub("x[$__interval]", {"__interval": "1h"}) == "x[1h]"


def _mutate(dash, fn):
    bad = copy.deepcopy(dash)
    fn(bad)
    return bad


def test_dashboard_level_checks(tenant_dashboards):
    _, dash = tenant_dashboards["team-a"]
    ds = uids.tenant_datasource_uid("team-a")

    def first_target(d):
        return next(t for _, t in panels.iter_targets(d))

    def first_panel(d):
        return next(p for p in panels.iter_panels(d) if p["type"] != "row")

    cases = {
        "template variables": lambda d: d["templating"]["list"].append({"name": "namespace", "type": "query"}),
        "repeats": lambda d: first_panel(d).update(repeat="namespace"),
        "panel datasource": lambda d: first_panel(d).update(datasource={"type": "datasource", "uid": "-- Mixed --"}),
        "target datasource": lambda d: first_target(d).update(datasource={"type": "prometheus", "uid": "other"}),
        "null datasource": lambda d: first_target(d).update(datasource=None),
        "no PromQL": lambda d: first_target(d).update(expr=""),
        "regex": lambda d: first_target(d).update(expr=f'{COST}{{namespace=~".*"}}'),
    }
    for what, fn in cases.items():
        assert isolation.violations(_mutate(dash, fn), NS, ds), what


def test_a_violation_names_its_place(tenant_dashboards):
    """Each violation names the dashboard, the panel (its title) and, for a query, the target's refId."""
    _, dash = tenant_dashboards["team-a"]
    panel, target = next(panels.iter_targets(dash))
    where = f"{dash['title']} / {panel['title']}"
    leaky = _mutate(dash, lambda d: next(panels.iter_targets(d))[1].update(expr=f"sum({COST})"))
    assert [v.where for v in isolation.violations(leaky, NS, uids.tenant_datasource_uid("team-a"))] == \
        [f"{where} / {target['refId']}"]
    mixed = _mutate(dash, lambda d: next(panels.iter_targets(d))[0].update(datasource=None))
    assert [v.where for v in isolation.violations(mixed, NS, uids.tenant_datasource_uid("team-a"))] == [where]


def test_prove_raises_generation_error(tenant_dashboards):
    _, dash = tenant_dashboards["team-a"]
    bad = _mutate(dash, lambda d: next(t for _, t in panels.iter_targets(d)).update(expr=f"sum({COST})"))
    with pytest.raises(GenerationError, match="tenant isolation violated for namespace 'team-a'"):
        isolation.prove(bad, NS, uids.tenant_datasource_uid("team-a"))


def test_render_fails_and_writes_nothing_when_a_tenant_query_leaks(tmp_path, monkeypatch, capsys):
    real = dashboards.tenant

    def leaky(model, t):
        dash = real(model, t)
        leak = panels.timeseries("All namespaces", "leaks", "short", (panels.Query(f"sum by (namespace) ({COST})"),))
        return type(dash)(**{**dash.__dict__, "panels": (*dash.panels, leak)})

    monkeypatch.setattr(dashboards, "tenant", leaky)
    monkeypatch.setattr(golden_cache, "load", lambda model: {})  # no golden tests: no emitter, no forked process
    out = tmp_path / "out"
    assert cli.main(["render", "--example", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "tenant isolation violated" in err and "All namespaces" in err and "no namespace matcher" in err
    assert not out.exists() or not any(out.iterdir())
