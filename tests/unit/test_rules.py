"""Generated rules: parseable, escaped, and shaped as ACM and OpenShift expect (promtool checks them in
tests/integration/test_rules.py)."""
from __future__ import annotations

import json
import re
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from gpudash.base import layout
from gpudash.model import series as names
from gpudash.model.pricing import product_label, skus
from gpudash.model.tenants import threshold_label
from gpudash.model.types import Tenant
from gpudash.promql import build as q
from gpudash.promql.lint import parse, vector_selectors
from gpudash.render.rules import hub, spoke
from gpudash.render.targets.acm import mco
from tests.conftest import load_yaml
from tests.thorough import examples


def test_every_recording_rule_is_named_and_commented(rendered):
    text = (rendered / layout.HUB_RULES).read_text()
    for group in load_yaml(rendered / layout.HUB_RULES)["groups"]:
        for rule in group["rules"]:
            level, metric, ops = rule["record"].split(":")
            assert level and metric.startswith("gpudash_") and ops
    # each rule is preceded by a comment line saying what it means for billing
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith("- record:"):
            assert lines[i - 1].strip().startswith("#"), line


def test_allowlist_rules_survive_the_collectors_json_flag(rendered, example_model):
    """The metrics-collector builds ``--recordingrule={"name":"..","query":"<expr>"}`` without escaping."""
    cm = load_yaml(rendered / layout.mco_configmap(mco.ALLOWLIST))
    assert cm["metadata"] == {"name": "observability-metrics-custom-allowlist",
                              "namespace": "open-cluster-management-observability",
                              "labels": cm["metadata"]["labels"]}
    body = load_yaml(cm["data"]["metrics_list.yaml"])
    expected = {r.record: r.expr for r in spoke.rules(example_model)}
    decoded = {}
    for rule in body["recording_rules"]:
        flag = f'{{"name":"{rule["record"]}","query":"{rule["expr"]}"}}'
        parsed = json.loads(flag)
        decoded[parsed["name"]] = parsed["query"]
    assert decoded == expected
    assert "rules" not in body  # the deprecated key would be ignored next to recording_rules


def test_thanos_ruler_configmap_holds_the_hub_groups(rendered):
    cm = load_yaml(rendered / layout.mco_configmap(mco.RULER))
    assert cm["metadata"]["name"] == "thanos-ruler-custom-rules"
    groups = load_yaml(cm["data"]["custom_rules.yaml"])["groups"]
    plain = load_yaml(rendered / layout.HUB_RULES)["groups"]
    assert groups[: len(plain)] == plain


def test_prometheusrule_for_cluster_monitoring(rendered):
    obj = load_yaml(rendered / layout.RULES_PROMETHEUS_RULE)
    ns = load_yaml(rendered / layout.RULES_NAMESPACE)
    assert obj["apiVersion"] == "monitoring.coreos.com/v1" and obj["kind"] == "PrometheusRule"
    assert obj["metadata"]["namespace"] == ns["metadata"]["name"]
    assert ns["metadata"]["labels"]["openshift.io/cluster-monitoring"] == "true"
    groups = [g["name"] for g in obj["spec"]["groups"]]
    assert groups[:3] == ["gpudash-spoke-tier", "gpudash-spoke", "gpudash-hub-model"]


def test_kustomization_lists_every_kubernetes_object(rendered):
    kust = load_yaml(rendered / "kustomization.yaml")
    objects = []
    for path in sorted(rendered.rglob("*.yaml")):
        data = load_yaml(path)
        if (isinstance(data, dict) and "apiVersion" in data and "kind" in data
                and data["kind"] not in ("Kustomization", "Component") and not path.name.endswith(".patch.yaml")):
            objects.append(str(path.relative_to(rendered)))
    assert sorted(kust["resources"]) == objects


def test_every_expression_parses(example_model):
    rules = [*spoke.rules(example_model)] + [r for g in hub.groups(example_model) for r in g.rules]
    for rule in rules:
        parse(rule.expr, rule.record)


def test_label_values_are_escaped_into_promql(example_model):
    nasty = 'Evil"} or vector(1) # \\ GPU'
    cls = replace(example_model.gpu_classes[0], products=(nasty,))
    model = replace(example_model, gpu_classes=(cls, *example_model.gpu_classes[1:]))
    product = product_label("nvidia", nasty)
    price_rules = [r for r in hub.groups(model)[0].rules if dict(r.labels).get("product") == product]
    assert price_rules
    weights = spoke.rules(model)[2].expr
    for sel in vector_selectors(parse(weights, "ccsp")):
        for m in sel.matchers.matchers:
            assert m.name != "product" or m.value == product
    assert q.quote('a"b\\c\nd') == '"a\\"b\\\\c\\nd"'
    assert parse(q.selector("m", ("l", "=", 'a"b\\c')), "t")


def test_sku_table_covers_whole_mig_single_and_shared(example_model):
    rows = {(s.product, s.ksm_resource): s for s in skus(example_model)}
    a100 = "NVIDIA-A100-SXM4-80GB"
    assert rows[(a100, "nvidia_com_gpu")].price_per_hour == 3.2
    assert rows[(a100, "nvidia_com_mig_1g_10gb")].resource == "nvidia.com/mig-1g.10gb"
    assert rows[(a100, "nvidia_com_mig_1g_10gb")].price_per_hour == 0.55
    single = rows[(f"{a100}-MIG-1g.10gb", "nvidia_com_gpu")]
    assert single.resource == "nvidia.com/mig-1g.10gb" and single.price_per_hour == 0.55
    assert abs(single.weight - 1 / 7) < 1e-12
    l40s = rows[("NVIDIA-L40S", "nvidia_com_gpu_shared")]
    assert l40s.price_per_hour == 1.1 / 4 and l40s.weight == 0.25
    assert rows[("NVIDIA-L40S-SHARED", "nvidia_com_gpu")].resource == "nvidia.com/gpu.shared"
    # the AMD node labeller's value (spaces -> "_"), from a human name and from an exact label value alike
    for product in ("AMD_Instinct_MI300X_OAM", "AMD_Instinct_MI300X_VF"):
        assert rows[(product, "amd_com_gpu")].resource == "amd.com/gpu"
        cpx = rows[(product, "amd_com_cpx_nps4")]
        assert cpx.resource == "amd.com/cpx_nps4" and cpx.weight == 1 / 8
        assert cpx.price_per_hour == 0.55  # the class's partitions table
        dpx = rows[(product, "amd_com_dpx_nps1")]  # not in the table: its compute share of the GPU price
        assert dpx.weight == 1 / 2 and dpx.price_per_hour == rows[(product, "amd_com_gpu")].price_per_hour / 2


def test_public_series_names_follow_the_convention():
    for value in vars(names).values():
        if isinstance(value, str) and value.count(":") == 2:
            level, metric, ops = value.split(":")
            assert level and ops and metric.startswith("gpudash_"), value


def test_collector_expr_is_json_string_body():
    expr = 'sum(x{a="b\\\\.c"})\n'
    assert json.loads(f'"{mco.collector_expr(expr)}"') == expr


def test_each_object_folder_has_its_own_kustomization(rendered):
    from gpudash.base import layout

    for kust_path in rendered.rglob("kustomization.yaml"):
        if kust_path.parent == rendered or rendered / layout.DEPLOY in kust_path.parents:
            continue  # the top level and deploy/ gather folders (tests/unit/test_gitops.py)
        kust = load_yaml(kust_path)
        if kust["kind"] == "Component":  # mco/settings: patches only, listed under patches
            assert [p["path"] for p in kust["patches"]] == sorted(
                p.name for p in kust_path.parent.glob("*.patch.yaml")), kust_path
            continue
        local = sorted(p.name for p in kust_path.parent.glob("*.yaml") if p.name != "kustomization.yaml"
                       and "apiVersion" in (load_yaml(p) or {}))
        assert kust["resources"] == local, kust_path


_DNS_LABEL = st.from_regex(r"[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?", fullmatch=True)
_FRACTIONS = st.lists(st.floats(min_value=0.01, max_value=5, allow_nan=False), min_size=1, max_size=5, unique=True)


@settings(max_examples=examples(300), deadline=None)
@given(namespace=_DNS_LABEL, name=_DNS_LABEL, alert_at=_FRACTIONS, probe=st.floats(min_value=0.01, max_value=5))
def test_threshold_matcher_selects_exactly_the_tenants_listing_it(namespace, name, alert_at, probe):
    """The hub's threshold rule selects a tenant row (RE2 and Python agree on this syntax; Prometheus anchors the
    regex) exactly when the row's alert_at, as rendered, lists the threshold."""
    tenant = Tenant(name=name, namespace=namespace, budget=1.0, alert_at=tuple(sorted(alert_at)), quota=(),
                    receiver="r")
    row = hub.tenant_row(tenant)
    for a in (*alert_at, probe):
        listed = threshold_label(a) in row.split(" ")[2].split(",")
        assert bool(re.fullmatch(hub.threshold_matcher(a), row)) == listed, (row, a)


def test_the_demo_backfills_the_spoke_group_every_push_interval(tmp_path, example_model):
    """The demo evaluates the spoke rules at each push, as ACM's collector does (the e2e single-cluster month proves
    the hourly figures the same as at the group's own interval): the same rules, a fifth of the evaluations."""
    from gpudash.ops.demo.cli import _render_rules

    spoke_file, hub_file, _ = _render_rules(example_model, tmp_path)

    def shape(groups):
        return [(g["name"], [(r["record"], r["expr"]) for r in g["rules"]]) for g in groups]

    rendered = spoke.group(example_model).data()
    (group,) = load_yaml(spoke_file)["groups"]
    assert group["interval"] == f"{example_model.billing.mco_interval}s" != rendered["interval"]
    assert shape([group]) == shape([rendered])
    assert shape(load_yaml(hub_file)["groups"]) == shape(g.data() for g in hub.groups(example_model))
