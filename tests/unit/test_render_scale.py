"""Render at scale: delivery targets chosen by the model, tenant dashboards built once and specialised, and the
isolation proof run once per query shape (issue #16). The targets' whole renders:
tests/integration/test_render_scale.py."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpudash import cli
from gpudash.render import targets
from gpudash.render.grafana import dashboards, isolation, tenant_board, uids
from gpudash.render.grafana import panels as P
from gpudash.render.grafana import provisioning as prov
from tests.thorough import examples

CLUSTERS = ("prod-east", "prod-west")
METRIC = "cluster_namespace:gpudash_cost:period_to_date"


def test_unknown_target_is_a_clear_error(tmp_path, capsys):
    model = tmp_path / "gpudash.yaml"
    from gpudash.model.load import bundled_example_path

    model.write_text(bundled_example_path().read_text() + "outputs:\n  targets: [acm, argocd]\n")
    assert cli.main(["render", "-c", str(model), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and f"{model}:" in err
    assert "outputs.targets[1]: 'argocd' is not one of files, prometheus-rule, acm" in err
    assert not (tmp_path / "out").exists()  # nothing half-written


def test_specialised_datasource_variant_equals_a_full_build(example_model):
    """The ACM variant derived from the built dashboard is what grafanalib builds for the ACM datasource."""
    for t in example_model.tenants:
        dash = dashboards.tenant(example_model, t)
        own = P.render(dash, prov.datasource_ref(uids.tenant_datasource_uid(t.name)))
        acm = P.render(dash, prov.datasource_ref(uids.ACM_DATASOURCE_UID))
        assert own != acm
        assert tenant_board.with_datasource(own, uids.tenant_datasource_uid(t.name), uids.ACM_DATASOURCE_UID) == acm


def test_proof_by_shape_still_rejects_another_namespace():
    ok = f'sum(last_over_time({METRIC}{{namespace="team-a"}}[10m]))'
    assert isolation.query_violations([("q", ok)], "team-a", CLUSTERS) == []  # proven, shape remembered
    assert isolation.query_violations([("q", ok.replace("team-a", "team-b"))], "team-b", CLUSTERS) == []
    # the same shape for team-b reads team-a: the matcher naming team-a is not abstracted for team-b
    leak = f'{METRIC}{{namespace="team-b"}} + {METRIC}{{namespace="team-a"}}'
    assert isolation.query_violations([("q", leak)], "team-b", CLUSTERS)
    assert isolation.query_violations([("q", ok)], "team-b", CLUSTERS)  # team-a's query under team-b's token


def test_a_shape_proven_in_one_context_is_not_taken_for_another():
    """A shape is remembered with the allowed series, clusters and proxy it was proven for: a query proven under one
    of them gets the full proof (and fails) under another."""
    local = "namespace:gpudash_probe:series"  # no cluster label on the hub: the proxy's matchers hide it
    allowed = isolation.TENANT_SERIES | {local}
    assert isolation._Shapes("team-g", allowed, CLUSTERS, proxy=False).reasons(f'{local}{{namespace="team-g"}}') == []
    assert isolation._Shapes("team-h", allowed, CLUSTERS, proxy=True).reasons(f'{local}{{namespace="team-h"}}')
    assert isolation._Shapes("team-i", isolation.TENANT_SERIES, CLUSTERS, proxy=False).reasons(
        f'{local}{{namespace="team-i"}}')
    ok = f'{METRIC}{{namespace="team-g"}}'
    assert isolation.query_violations([("q", ok)], "team-g", CLUSTERS) == []
    assert isolation.query_violations([("q", ok.replace("team-g", "team-h"))], "team-h", ())  # no cluster confines it


def test_shape_abstracts_only_the_tenants_namespace_matchers():
    expr = f'{METRIC}{{namespace="team-c",exported_namespace="team-c"}} / {METRIC}{{namespace="team-cc"}}'
    assert isolation._shape(expr, "team-c") == (f'{METRIC}{{namespace="\u00a7",exported_namespace="team-c"}} / '
                                                f'{METRIC}{{namespace="team-cc"}}')
    assert isolation._shape(f"{METRIC}{{namespace='team-c'}}", "team-c") is None  # other quotes: full proof
    assert isolation._shape(expr, "Team_C") is None  # not a DNS-1123 label: full proof


def test_expressions_without_a_shape_get_the_full_proof():
    expr = f"sum({METRIC}{{namespace='team-e'}})"
    assert isolation.query_violations([("q", expr)], "team-e", CLUSTERS) == []
    assert isolation.query_violations([("q", expr)], "team-f", CLUSTERS)


def test_two_targets_may_deliver_a_file_only_identically():
    assert targets.merge({"files": {"a.json": {"x": 1}}, "grafana-provisioning": {"a.json": {"x": 1}}}) == \
        {"a.json": {"x": 1}}
    with pytest.raises(AssertionError, match="a.json"):
        targets.merge({"files": {"a.json": {"x": 1}}, "grafana-provisioning": {"a.json": {"x": 2}}})


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from(['namespace="team-c"', 'exported_namespace="team-c"', "x", ":", " ", '"', "{", "_",
                                 'namespace="team-d"', "namespace=", "9", "'", "`", "\\", "#", "\u00a7"]),
                max_size=12).map("".join))
def test_shape_replaces_what_the_defining_regex_replaces(expr):
    """The split in _shape is the regex it replaced: ``namespace="<ns>"`` not preceded by a label-name char; no shape
    for an expression holding a quote but ``"``, a backslash, a ``#`` or the placeholder."""
    want = re.sub(r'(?<![A-Za-z0-9_:])namespace="team-c"', 'namespace="\u00a7"', expr)
    assert isolation._shape(expr, "team-c") == (None if re.search("['`\\\\#\u00a7]", expr) else want)
