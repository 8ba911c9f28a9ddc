"""Tenancy through ACM's rbac-query-proxy (issue #12) and hub objects within Kubernetes size limits (#11.3).

The proxy model is checked against the behaviour read in stolostron/multicluster-observability-operator
(proxy/pkg/rewrite/rewrite_cluster.go, proxy/pkg/metricquery/modifier.go and filter.go); the isolation proof
must reject a query reading a cluster-less series and a tenant series emitted without ``cluster``.
"""
from __future__ import annotations

import json

import promql_parser as pp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpudash.base import kube, layout
from gpudash.base.errors import GenerationError
from gpudash.model import series as names
from gpudash.render import grafana
from gpudash.render.grafana import isolation, proxy, uids
from gpudash.render.grafana.panels import iter_targets
from gpudash.render.rules import hub
from gpudash.render.targets import artifacts

NS = "team-a"
CLUSTERS = ("prod-east", "prod-west")


def _matchers(expr: str) -> list[list[tuple[str, str, str]]]:
    out = []
    pp.walk(pp.parse(expr), pre_visit=lambda n: out.append(
        [(m.name, proxy._op(m), m.value) for m in n.matchers.matchers]) if isinstance(n, pp.VectorSelector) else True)
    return out


# --- the proxy model -------------------------------------------------------------------------------------------
def test_one_cluster_is_an_equality_several_an_unescaped_alternation():
    one = proxy.rewrite('sum(x{namespace="team-a"})', proxy.Access.tenant(NS, ["prod-east"]))
    assert _matchers(one) == [[("namespace", "=", NS), ("cluster", "=", "prod-east"), ("namespace", "=", NS)]]
    two = proxy.rewrite("x / on (cluster) max_over_time(y[5m:1m])", proxy.Access.tenant(NS, ["b.c", "a"]))
    assert _matchers(two) == [[("cluster", "=~", "a|b.c"), ("namespace", "=", NS)]] * 2


def test_no_access_gets_cluster_empty_and_no_namespace_matcher():
    assert _matchers(proxy.rewrite('rate(x{namespace="n"}[5m])', proxy.Access())) == \
        [[("namespace", "=", "n"), ("cluster", "=", "")]]


def test_full_access_is_not_rewritten_and_namespaces_are_intersected_over_targeted_clusters():
    expr = "sum(x)"
    assert proxy.rewrite(expr, proxy.Access({"a": ("*",), "b": ("*",)}), ["a", "b"]) == expr
    mixed = proxy.Access({"a": ("n1", "n2"), "b": ("n2",), "c": ("*",)})
    assert _matchers(proxy.rewrite("x", mixed, ["a", "b", "c"]))[0][-1] == ("namespace", "=", "n2")
    # the query names cluster a only: its namespaces alone count (filter.go getClustersInQuery)
    assert _matchers(proxy.rewrite('x{cluster="a"}', mixed, ["a", "b", "c"]))[0][-1] == ("namespace", "=~", "n1|n2")
    # nothing in common: namespace="" (rewrite.go InjectLabels with no values)
    assert _matchers(proxy.rewrite("x", proxy.Access({"a": ("n1",), "b": ("n2",)}), ["a", "b"]))[0][-1] == \
        ("namespace", "=", "")


def test_printing_keeps_sub_second_durations_and_is_idempotent(rendered):
    expr = "sum_over_time((last_over_time(x[1h] offset 1ms))[59m59s999ms:5m]) * on (a) group_left (b) y"
    text = proxy.unparse(pp.parse(expr))
    assert "offset 1ms" in text and "[59m59s999ms:5m]" in text and "group_left (b)" in text
    count = 0
    for path in rendered.glob(f"{layout.DASHBOARDS}/*.json"):
        for _, target in iter_targets(json.loads(path.read_text())):
            once = proxy.unparse(pp.parse(isolation.substitute_macros(target["expr"])))
            assert proxy.unparse(pp.parse(once)) == once
            count += 1
    assert count > 50


# --- the proof -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("expr, reason", [
    ('sum(last_over_time(namespace:gpudash_cost:period_to_date{namespace="team-a"}[10m]))', "no cluster"),
    (f'{names.POD_COST_RATE}{{namespace="team-a"}} * on () group_left () max({names.SKU_PRICE}{{namespace="team-a"}})',
     "no namespace"),
    (f'count({names.BILLED_HOUR}{{namespace="team-a"}})', "no namespace"),
])
def test_the_proof_rejects_series_the_proxy_would_hide_or_leak(expr, reason):
    found = isolation.check_proxy(expr, NS, CLUSTERS)
    assert any(reason in r for r in found), found


def test_every_tenant_dashboard_and_report_query_is_proven(example_model):
    _, tenants = grafana.rendered(example_model)
    for t in example_model.tenants:
        dash = tenants[t.name][uids.tenant_dashboard_uid(t.name)]
        assert isolation.violations(dash, t.namespace, uids.tenant_datasource_uid(t.name),
                                    clusters=example_model.clusters) == []
    grafana.prove_reports(example_model)


def test_a_tenant_series_emitted_without_cluster_fails_the_render(example_model, monkeypatch):
    """Mutation: period-to-date recorded per namespace only (as before issue #12)."""
    monkeypatch.setattr(names, "TENANT_COST_PTD", "namespace:gpudash_cost:period_to_date")
    monkeypatch.setattr(isolation, "TENANT_SERIES", isolation.TENANT_SERIES | {names.TENANT_COST_PTD})
    with pytest.raises(GenerationError, match="period_to_date has no cluster label on the hub"):
        grafana.rendered(example_model)


def test_every_tenant_facing_hub_series_carries_cluster_and_namespace():
    for metric in isolation.TENANT_SERIES:
        assert {"cluster", "namespace"} <= isolation.hub_labels(metric), metric


def test_the_reserved_table_cluster_is_never_a_managed_cluster(example_model, tmp_path):
    import dataclasses

    bad = dataclasses.replace(example_model, clusters=("gpudash.model",))
    with pytest.raises(GenerationError, match="reserved"):
        hub.groups(bad)


# --- hub objects within Kubernetes limits ----------------------------------------------------------------------
def test_large_objects_get_server_side_apply_and_huge_ones_are_refused():
    cm = kube.configmap("x", "ns", {"k": "a" * 300_000})
    fitted = kube.fit("mco/x.yaml", cm)
    assert fitted["metadata"]["annotations"][kube.SYNC_OPTIONS] == kube.SERVER_SIDE_APPLY
    assert "server-side" in fitted["__comment__"] and kube.server_side(fitted)
    small = kube.configmap("x", "ns", {"k": "small"})
    assert kube.fit("mco/x.yaml", small) == small
    with pytest.raises(GenerationError, match=r"mco/x.yaml: ConfigMap x is \d+ bytes, over"):
        kube.fit("mco/x.yaml", kube.configmap("x", "ns", {"k": "a" * kube.MAX_OBJECT_BYTES}))


@pytest.mark.parametrize("data,annotations", [
    ({"k": "a > 0 && b < 1" * 8000}, None),  # PromQL: Go's encoder writes each <, >, & as 6 bytes (\u003e)
    ({"k": "a" * (kube.LAST_APPLIED_LIMIT - 200)}, None),  # the annotation's key and the encoder's newline
    ({"k": "a" * (kube.LAST_APPLIED_LIMIT // 2 + 10_000)}, {"note": "b" * (kube.LAST_APPLIED_LIMIT // 4)}),
])
def test_the_last_applied_guard_counts_as_the_api_server_does(data, annotations):
    """Client-side apply stores the object, encoded by a Go json.Encoder (HTML escaping on, a trailing newline;
    kubernetes apimachinery unstructured/helpers.go doEncode), in kubectl.kubernetes.io/last-applied-configuration,
    and the API server sums every annotation's key and value (objectmeta.go ValidateAnnotationsSize): each object
    here is under 256 KiB as compact JSON but over it as the API server counts, so it must go server-side."""
    cm = kube.configmap("x", "ns", data, **({"annotations": annotations} if annotations else {}))
    assert kube.size(cm) <= kube.LAST_APPLIED_LIMIT
    assert kube.server_side(kube.fit("mco/x.yaml", cm))
    assert kube.annotations_size(cm) > kube.LAST_APPLIED_LIMIT


def test_the_annotations_size_is_what_kubectl_stores():
    cm = kube.configmap("x", "ns", {"k": "a<b>c&d\u2028é"}, annotations={"note": "ü"})
    stored = ('{"apiVersion":"v1","data":{"k":"a\\u003cb\\u003ec\\u0026d\\u2028é"},"kind":"ConfigMap",'
              '"metadata":{"annotations":{"note":"ü"},"labels":{"app.kubernetes.io/managed-by":"gpudash",'
              '"app.kubernetes.io/part-of":"gpudash"},"name":"x","namespace":"ns"}}\n')
    assert kube.annotations_size(cm) == len(f"{kube.LAST_APPLIED}{stored}noteü".encode())


_ESCAPED = st.sampled_from(['"', "\\", "\b", "\f", "\n", "\r", "\t", "\x00", "\x1f", "\x7f", "<", ">", "&",
                            "\u2028", "\u2029", "é", "€", "\U0001f600", "a", "{"])


@settings(max_examples=150, deadline=None)
@given(text=st.lists(st.one_of(_ESCAPED, st.text(max_size=40)), min_size=1).map("".join),
       pad=st.integers(0, 64),
       annotations=st.none() | st.dictionaries(st.text(max_size=5), st.text(max_size=50)))
def test_a_long_string_is_counted_as_kubectl_stores_it(text, pad, annotations):
    """A string of kube.LONG characters or more (a dashboard in a ConfigMap) is counted, not escaped: the same size
    as Go's encoding of the object's compact JSON (the stored text built, as for short strings)."""
    value = text + "x" * (kube.LONG + pad)  # long, whatever the escapes
    cm = kube.configmap("x", "ns", {"k": value, value[:64]: "short"},
                        **({"annotations": annotations} if annotations else {}))
    stored = json.dumps(cm, separators=(",", ":"), ensure_ascii=False)
    others = sum(len(f"{k}{v}".encode()) for k, v in (annotations or {}).items())
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                         ("\u2029", "\\u2029")):  # what Go's encoder writes (golang/go src/encoding/json/encode.go)
        stored = stored.replace(char, escape)
    expected = len(kube.LAST_APPLIED.encode()) + len(stored.encode()) + len("\n") + others
    assert kube.annotations_size(cm) == expected == kube.annotations_size(cm, json.dumps(cm, separators=(",", ":"),
                                                                                         ensure_ascii=False))


def test_the_example_render_lists_no_oversized_object(example_files):
    assert artifacts.size_notes(example_files) == []
