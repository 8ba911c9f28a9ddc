"""Alerts without promtool: the emitted promtool tests show every alert firing and not firing, the three outputs
hold the same alerts, alert style, escaping (tests/integration/test_alerts.py runs them with promtool)."""
from __future__ import annotations

import copy
import re
from pathlib import Path

from gpudash.base import layout
from gpudash.model import alert_names as an
from gpudash.model import model_from_dict
from gpudash.model import series as rnames
from gpudash.model.vendors import nvidia
from gpudash.promql.lint import parse
from gpudash.render import alerts, rules, writer
from gpudash.render.alerts import alert_table, common, promtool
from gpudash.render.grafana import uids
from gpudash.render.rules import idle as idle_record
from gpudash.render.targets.acm import mco
from tests.conftest import ROOT, load_yaml
from tests.unit.test_mco_allowlist import allowlist_of

ODD = {  # 7-minute pushes, a long tenant name, budget 0, thresholds all >= 1, regexes with quotes, power veto
    "currency": "EUR",
    "billing": {"resolution": "1m", "mco_interval": "7m", "burn_rate_window": "2h"},
    "sources": {"dcgm": {"tenant_label": "namespace"}},
    "gpu_classes": [
        {"name": "a100", "vendor": "nvidia", "products": ["NVIDIA A100-SXM4-80GB"], "price_per_hour": 3.3},
        {"name": "l4", "vendor": "nvidia", "products": ["NVIDIA L4"], "price_per_hour": 0.85},
    ],
    "tenants": [
        {"name": "a-very-long-tenant-name-beyond-the-grafana-uid-limit", "namespace": "team-x", "budget": 0,
         "alert_at": [1.0, 1.5], "receiver": "pager-x"},
        {"name": "zeta", "namespace": "zz-unwatched", "budget": 250.5, "receiver": "noc"},
    ],
    "clusters": ["solo"],
    "alerts": {"runbook_url": "https://wiki.example.com/runbooks?alert={alertname}&x={{y}}",
               "dashboard_url": "https://g.example.com/grafana/", "provider_receiver": "noc",
               "burn_jump_factor": 1.5,
               "idle": {"window": "25m", "namespace_regex": 'team-.*|x"y\\\\', "model_regex": ".*A100.*",
                        "power_veto_watts": 150}},
}
FAST = {  # 1-minute pushes, AMD only with a metric prefix, thresholds all < 1, exported_* labels, quotas, spoke tier
    "billing": {"resolution": "30s", "mco_interval": "1m", "burn_rate_window": "2m", "spoke_tier": "policy"},
    "sources": {"amd": {"tenant_label": "exported_namespace"}, "amd_metric_prefix": "amd_"},
    "gpu_classes": [{"name": "mi300x", "vendor": "amd", "products": ["AMD Instinct MI300X"], "price_per_hour": 4.1}],
    "tenants": [{"name": "lab", "namespace": "lab", "budget": 90, "alert_at": [0.25, 0.75],
                 "quota": {"amd.com/gpu": 0}},
                {"name": "ops", "namespace": "ops", "budget": 10, "quota": {"amd.com/gpu": 2}}],
    "clusters": ["c1", "c2", "c3"],
    "alerts": {"idle": {"window": "2m"}},
}
MINIMAL = {
    "gpu_classes": [{"name": "a100", "vendor": "nvidia", "products": ["NVIDIA A100-SXM4-40GB"], "price_per_hour": 2.8}],
    "tenants": [{"name": "team-a", "namespace": "team-a", "budget": 100}],
    "clusters": ["east"],
}
HOURLY = {**ODD, "billing": {"resolution": "15m", "mco_interval": "1h", "burn_rate_window": "2h"},
          "alerts": {**ODD["alerts"], "idle": {**ODD["alerts"]["idle"], "window": "2h"}}}
QUARTER_MINUTE = {**FAST, "billing": {"resolution": "15s", "mco_interval": "15s", "burn_rate_window": "30s"},
                  "alerts": {"idle": {"window": "45s"}}}
AMD_VETO = {**FAST, "alerts": {"idle": {"window": "2m", "power_veto_watts": 300}}}
VARIANTS = {"odd": ODD, "fast": FAST, "minimal": MINIMAL, "hourly": HOURLY, "quarter-minute": QUARTER_MINUTE,
            "amd-veto": AMD_VETO}


def render_alerts(model, out: Path) -> Path:
    """Write the alert family's files (rule file, promtool tests, Alertmanager config) under ``out``, and the
    recording rules the idle alert reads."""
    for path, data in {**rules.artifacts(model), **alerts.artifacts(model)}.items():
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(writer.serialise(path, data))
    return out




def rule_names(rule_file: Path) -> set[str]:
    return {r["alert"] for g in load_yaml(rule_file)["groups"] for r in g["rules"]}


def coverage(out: Path) -> dict[str, tuple[int, int]]:
    """alertname -> (cases expecting it to fire, cases expecting silence) over the emitted tests."""
    seen: dict[str, list[int]] = {}
    for path in out.glob(layout.alert_test("*")):
        data = load_yaml(path)
        assert data["rule_files"][-1] == layout.from_tests(layout.ALERT_RULES)  # idle also loads the hub rules it reads
        for group in data["tests"]:
            for case in group["alert_rule_test"]:
                counts = seen.setdefault(case["alertname"], [0, 0])
                counts[0 if case["exp_alerts"] else 1] += 1
    return {name: (a, b) for name, (a, b) in seen.items()}


# --- the bundled example ---------------------------------------------------------------------------------------

def test_every_alert_is_tested_firing_and_not_firing(rendered):
    covered = coverage(rendered)
    for name in rule_names(rendered / layout.ALERT_RULES):
        firing, silent = covered.get(name, (0, 0))
        assert firing and silent, f"{name}: {firing} firing and {silent} silent cases"


def test_each_test_group_is_small(rendered):
    """Tiny groups keep promtool fast: a few dozen pushes and series at most."""
    for path in rendered.glob(layout.alert_test("*")):
        for group in load_yaml(path)["tests"]:
            assert len(group["input_series"]) <= 30, (path.name, group["name"])
            steps = max(sum(int(p.split("x")[1]) + 1 if "x" in p and not p.startswith("_") else
                            int(p[2:]) if p.startswith("_x") else 1 for p in s["values"].split())
                        for s in group["input_series"])
            assert steps <= 60, (path.name, group["name"], steps)


def test_outputs_are_the_same_alerts_in_three_places(rendered, example_model):
    plain = load_yaml(rendered / layout.ALERT_RULES)
    prule = load_yaml(rendered / layout.ALERTS_PROMETHEUS_RULE)
    assert prule["apiVersion"] == "monitoring.coreos.com/v1" and prule["kind"] == "PrometheusRule"
    assert prule["metadata"]["name"] == "gpudash-alerts"
    assert prule["metadata"]["namespace"] == "gpudash-monitoring"
    assert prule["spec"] == plain
    ruler = load_yaml(rendered / layout.mco_configmap(mco.RULER))
    hub = load_yaml(ruler["data"]["custom_rules.yaml"])
    alert_groups = [g for g in hub["groups"] if g["name"].startswith("gpudash-alerts-")]
    assert alert_groups == plain["groups"]
    assert "keep_firing_for" not in (rendered / layout.ALERT_RULES).read_text()  # promtool 2.42 floor


def test_alert_style(rendered, example_model):
    text = (rendered / layout.ALERT_RULES).read_text()
    lines = text.splitlines()
    for i, line in enumerate(lines):  # every group and alert says what it means for billing
        if line.strip().startswith(("- alert:", "- name:")):
            assert lines[i - 1].strip().startswith("#"), line
    for group in load_yaml(rendered / layout.ALERT_RULES)["groups"]:
        assert group["name"].startswith("gpudash-alerts-")
        assert group["interval"] == "5m"
        for rule in group["rules"]:
            name = rule["alert"]
            assert re.fullmatch(r"GPU[A-Z][A-Za-z]+", name), name
            labels = rule["labels"]
            assert labels["severity"] in ("critical", "warning", "info")
            assert labels[an.AUDIENCE] in (an.TENANT, an.PROVIDER)
            static = {"input"} if name == an.INPUT_MISSING else set()  # its rules differ by input (promtool's lint)
            assert set(labels) == {"severity", an.AUDIENCE, *static}, name  # no query values in labels
            assert not any("{{" in v for v in labels.values())
            ann = rule["annotations"]
            assert set(ann) == {"summary", "description", "runbook_url", "dashboard_url"}, name
            assert ann["runbook_url"] == f"https://runbooks.example.com/gpudash/{name}"
            assert ann["summary"].endswith(".") and "{{" not in ann["summary"] and ann["summary"][0].isupper()
            assert ann["description"].endswith(".") and "{{" in ann["description"]
            if labels[an.AUDIENCE] == an.TENANT:
                assert ann["dashboard_url"].startswith("https://grafana.example.com/d/")
                assert "$labels.tenant" in ann["dashboard_url"]
            parse(rule["expr"], name)
    # money is shown in the model's currency with two decimals
    assert text.count('{{ $value | printf "%.2f" }} USD') >= 5


def test_firing_tenant_alerts_keep_namespace_and_add_tenant(rendered, example_model):
    tenants = {t.namespace: t.name for t in example_model.tenants}
    for path in rendered.glob(layout.alert_test("*")):
        for group in load_yaml(path)["tests"]:
            for case in group["alert_rule_test"]:
                for alert in case["exp_alerts"]:
                    labels = alert["exp_labels"]
                    if labels[an.AUDIENCE] == an.TENANT:
                        assert tenants[labels["namespace"]] == labels["tenant"]
                        assert alert["exp_annotations"]["dashboard_url"] == \
                            f"https://grafana.example.com/d/{uids.tenant_dashboard_uid(labels['tenant'])}"


def test_allowlist_adds_only_what_the_default_lacks(rendered, example_model):
    # the example has a prune: section: the pruner's gauge feeds GPUPrunerIneffective
    assert alerts.allowlist_names(example_model) == (nvidia.XID_ERRORS, an.PRUNE_INEFFECTIVE)
    body = load_yaml(load_yaml(rendered / layout.mco_configmap(mco.ALLOWLIST))["data"]
                          ["metrics_list.yaml"])
    assert body["names"] == [nvidia.XID_ERRORS, an.PRUNE_INEFFECTIVE]
    veto = model_from_dict(ODD)
    assert alerts.allowlist_names(veto) == (nvidia.XID_ERRORS,)  # the veto reads a spoke series, not raw power
    assert alerts.allowlist_names(model_from_dict(FAST)) == ()  # AMD only
    assert alerts.allowlist_names(model_from_dict(AMD_VETO)) == ()
    body = load_yaml(allowlist_of(veto)["data"]["metrics_list.yaml"])
    assert body["names"] == [nvidia.XID_ERRORS]
    assert rnames.POD_POWER_MAX in {r["record"] for r in body["recording_rules"]}
    no_veto = load_yaml(allowlist_of(example_model)["data"]["metrics_list.yaml"])
    assert rnames.POD_POWER_MAX not in {r["record"] for r in no_veto["recording_rules"]}


def test_docs_table_is_current(example_model):
    doc = (ROOT / "docs" / "alerts.md").read_text()
    assert alert_table.table(example_model) in doc, "re-generate the table with gpudash.render.alerts.alert_table.table"
    for name in {r["alert"] for r in alert_table.rows(example_model)}:
        assert f"`{name}`" in doc


def test_rendering_is_deterministic(example_model, example_files):
    first = {p: writer.serialise(p, d) for p, d in alerts.artifacts(example_model).items()}
    again = {p: writer.serialise(p, d) for p, d in alerts.artifacts(copy.deepcopy(example_model)).items()}
    assert first == again
    assert set(first) <= set(example_files)


# --- other models --------------------------------------------------------------------------------------------

def test_odd_model_escapes_and_links(tmp_path):
    model = model_from_dict(ODD)
    rules = load_yaml(writer.serialise("x.yaml", alerts.artifacts(model)[layout.ALERT_RULES]))
    idle_rule = next(r for g in rules["groups"] for r in g["rules"] if r["alert"] == an.IDLE)
    assert rnames.POD_IDLE in idle_rule["expr"]  # the alert reads the one recorded idle definition
    idle_expr = idle_record.expr(model)
    assert 'namespace=~"team-.*|x\\"y\\\\\\\\"' in idle_expr  # the regex, escaped once for PromQL
    assert 'gpu_model=~".*A100.*"' in idle_expr
    assert ">= 150.0" in idle_expr
    long_name = model.tenants[0].name
    uid = uids.tenant_dashboard_uid(long_name)
    assert uid != "gpudash-tenant-" + long_name and len(uid) <= 40
    assert f'eq $labels.tenant "{long_name}" }}}}{uid}' in idle_rule["annotations"]["dashboard_url"]
    # template delimiters in a URL of the model are printed, not executed (the promtool tests check the result)
    assert idle_rule["annotations"]["runbook_url"] == \
        '{{ "https://wiki.example.com/runbooks?alert=' + an.IDLE + '&x={{y}}" }}'
    assert common.tenant_dashboard_link(model, long_name) == f"https://g.example.com/grafana/d/{uid}"
    # the emitted idle test covers the veto, the unwatched namespace and the model filter
    idle_tests = alerts.artifacts(model)[layout.alert_test("idle")]["tests"][0]["input_series"]
    pods = {re.search(r'pod="([^"]+)"', s["series"]).group(1) for s in idle_tests if "pod=" in s["series"]}
    assert {"drawing-power", "unwatched", "other-model", "released", "busy"} <= pods
    assert rnames.POD_POWER_MAX in idle_expr


def test_values_notation():
    assert promtool.values([1, 1, 1, None, None, 2.5, 0]) == "1x2 _x2 2.5 0"
    assert promtool.values([None]) == "_"


