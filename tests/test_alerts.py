"""Alerts: promtool accepts them, the emitted promtool tests pass (and show every alert firing and not firing), for
the bundled example and for models that stress timing, escaping, long names and vendor mixes; alert style."""
from __future__ import annotations

import copy
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from gpudash import alerts, artifacts, layout, mco, rules, writer
from gpudash.alerts import catalog, common, promtool
from gpudash.alerts import names as an
from gpudash.grafana import uids
from gpudash.model import model_from_dict
from gpudash.promql.lint import parse
from gpudash.rules import idle as idle_record
from gpudash.rules import names as rnames
from gpudash.rules import spoke
from gpudash.sources import gpu_exporters as gx
from tests.conftest import ROOT, require

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
FAST = {  # 1-minute pushes, AMD only with a metric prefix, thresholds all < 1, exported_* labels, quotas
    "billing": {"resolution": "30s", "mco_interval": "1m", "burn_rate_window": "2m"},
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


def run(*cmd, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=300)


def load(path: Path):
    return yaml.safe_load(path.read_text())


def rule_names(rule_file: Path) -> set[str]:
    return {r["alert"] for g in load(rule_file)["groups"] for r in g["rules"]}


def check_rendered(out: Path):
    require("promtool")
    result = run("promtool", "check", "rules", "--lint=duplicate-rules", "--lint-fatal",
                 *sorted(str(p) for p in out.glob(f"{layout.ALERTS}/*.yaml")))
    assert result.returncode == 0, result.stdout + result.stderr
    tests = sorted(str(p) for p in out.glob(layout.alert_test("*")))
    assert tests
    result = run("promtool", "test", "rules", *tests)
    assert result.returncode == 0, result.stdout + result.stderr


def coverage(out: Path) -> dict[str, tuple[int, int]]:
    """alertname -> (cases expecting it to fire, cases expecting silence) over the emitted tests."""
    seen: dict[str, list[int]] = {}
    for path in out.glob(layout.alert_test("*")):
        data = load(path)
        assert data["rule_files"][-1] == layout.from_tests(layout.ALERT_RULES)  # idle also loads the hub rules it reads
        for group in data["tests"]:
            for case in group["alert_rule_test"]:
                counts = seen.setdefault(case["alertname"], [0, 0])
                counts[0 if case["exp_alerts"] else 1] += 1
    return {name: (a, b) for name, (a, b) in seen.items()}


# --- the bundled example ---------------------------------------------------------------------------------------

def test_promtool_accepts_the_alerts_and_their_tests_pass(rendered):
    check_rendered(rendered)


def test_every_alert_is_tested_firing_and_not_firing(rendered):
    covered = coverage(rendered)
    for name in rule_names(rendered / layout.ALERT_RULES):
        firing, silent = covered.get(name, (0, 0))
        assert firing and silent, f"{name}: {firing} firing and {silent} silent cases"


def test_each_test_group_is_small(rendered):
    """Tiny groups keep promtool fast: a few dozen pushes and series at most."""
    for path in rendered.glob(layout.alert_test("*")):
        for group in load(path)["tests"]:
            assert len(group["input_series"]) <= 30, (path.name, group["name"])
            steps = max(sum(int(p.split("x")[1]) + 1 if "x" in p and not p.startswith("_") else
                            int(p[2:]) if p.startswith("_x") else 1 for p in s["values"].split())
                        for s in group["input_series"])
            assert steps <= 60, (path.name, group["name"], steps)


def test_outputs_are_the_same_alerts_in_three_places(rendered, example_model):
    plain = load(rendered / layout.ALERT_RULES)
    prule = load(rendered / layout.ALERTS_PROMETHEUS_RULE)
    assert prule["apiVersion"] == "monitoring.coreos.com/v1" and prule["kind"] == "PrometheusRule"
    assert prule["metadata"]["name"] == "gpudash-alerts"
    assert prule["metadata"]["namespace"] == "gpudash-monitoring"
    assert prule["spec"] == plain
    ruler = load(rendered / layout.mco_configmap(mco.RULER))
    hub = yaml.safe_load(ruler["data"]["custom_rules.yaml"])
    alert_groups = [g for g in hub["groups"] if g["name"].startswith("gpudash-alerts-")]
    assert alert_groups == plain["groups"]
    assert "keep_firing_for" not in (rendered / layout.ALERT_RULES).read_text()  # promtool 2.42 floor


def test_alert_style(rendered, example_model):
    text = (rendered / layout.ALERT_RULES).read_text()
    lines = text.splitlines()
    for i, line in enumerate(lines):  # every group and alert says what it means for billing
        if line.strip().startswith(("- alert:", "- name:")):
            assert lines[i - 1].strip().startswith("#"), line
    for group in load(rendered / layout.ALERT_RULES)["groups"]:
        assert group["name"].startswith("gpudash-alerts-")
        assert group["interval"] == "5m"
        for rule in group["rules"]:
            name = rule["alert"]
            assert re.fullmatch(r"GPU[A-Z][A-Za-z]+", name), name
            labels = rule["labels"]
            assert labels["severity"] in ("critical", "warning", "info")
            assert labels[an.AUDIENCE] in (an.TENANT, an.PROVIDER)
            assert set(labels) == {"severity", an.AUDIENCE}, name  # no query values in labels
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
        for group in load(path)["tests"]:
            for case in group["alert_rule_test"]:
                for alert in case["exp_alerts"]:
                    labels = alert["exp_labels"]
                    if labels[an.AUDIENCE] == an.TENANT:
                        assert tenants[labels["namespace"]] == labels["tenant"]
                        assert alert["exp_annotations"]["dashboard_url"] == \
                            f"https://grafana.example.com/d/{uids.tenant_dashboard_uid(labels['tenant'])}"


def test_allowlist_adds_only_what_the_default_lacks(rendered, example_model):
    assert alerts.allowlist_names(example_model) == (gx.DCGM_XID_ERRORS,)
    body = yaml.safe_load(load(rendered / layout.mco_configmap(mco.ALLOWLIST))["data"]
                          ["metrics_list.yaml"])
    assert body["names"] == [gx.DCGM_XID_ERRORS]
    veto = model_from_dict(ODD)
    assert alerts.allowlist_names(veto) == (gx.DCGM_XID_ERRORS,)  # the veto reads a spoke series, not raw power
    assert alerts.allowlist_names(model_from_dict(FAST)) == ()  # AMD only
    assert alerts.allowlist_names(model_from_dict(AMD_VETO)) == ()
    body = yaml.safe_load(mco.allowlist(veto, spoke.group(veto))["data"]["metrics_list.yaml"])
    assert body["names"] == [gx.DCGM_XID_ERRORS]
    assert rnames.POD_POWER_MAX in {r["record"] for r in body["recording_rules"]}
    no_veto = yaml.safe_load(mco.allowlist(example_model, spoke.group(example_model))["data"]["metrics_list.yaml"])
    assert rnames.POD_POWER_MAX not in {r["record"] for r in no_veto["recording_rules"]}


def test_docs_table_is_current(example_model):
    doc = (ROOT / "docs" / "alerts.md").read_text()
    assert catalog.table(example_model) in doc, "re-generate the table with gpudash.alerts.catalog.table"
    for name in {r["alert"] for r in catalog.rows(example_model)}:
        assert f"`{name}`" in doc


def test_rendering_is_deterministic(example_model):
    first = {p: writer.serialise(p, d) for p, d in alerts.artifacts(example_model).items()}
    again = {p: writer.serialise(p, d) for p, d in alerts.artifacts(copy.deepcopy(example_model)).items()}
    assert first == again
    assert set(first) <= set(artifacts.generate(example_model))


# --- other models --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_variant_models_render_valid_alerts_and_passing_tests(variant, tmp_path):
    model = model_from_dict(VARIANTS[variant])
    out = render_alerts(model, tmp_path)
    check_rendered(out)
    covered = coverage(out)
    assert covered, "no alert tests emitted"
    for name, (_firing, silent) in covered.items():
        assert silent, f"{variant}: {name} is never tested silent"
    assert not {n for n in rule_names(out / layout.ALERT_RULES) if not covered.get(n, (0, 0))[0]} - {
        an.QUOTA_EXHAUSTED}, f"{variant}: some alert is never tested firing"


def test_odd_model_escapes_and_links(tmp_path):
    model = model_from_dict(ODD)
    rules = yaml.safe_load(writer.serialise("x.yaml", alerts.artifacts(model)[layout.ALERT_RULES]))
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


def test_alerts_fire_on_what_the_hub_rules_record(rendered, tmp_path):
    """Wiring check against the real hub rules (not hand-fed recorded series): a pushed allocation of 1000 A100s
    in team-b (budget 2000 USD) exhausts its budget, jumps its burn rate, and leaves an idle pod idle."""
    require("promtool")
    pod = {"cluster": "prod-east", "namespace": "team-b", "node": "gpu-node-1", "product": "NVIDIA-A100-SXM4-80GB",
           "resource": "nvidia_com_gpu", "workload_type": "Deployment"}
    series = [
        promtool.series("namespace_pod:gpudash_gpus_allocated:running", {**pod, "pod": "big-0", "workload": "big"},
                        [None] * 2 + [1000] * 40),
        promtool.series("namespace_pod:gpudash_gpus_allocated:running", {**pod, "pod": "nb-0", "workload": "nb"},
                        [None] * 2 + [1] * 40),
        promtool.series("namespace_pod:gpudash_gpu_activity:max",
                        {"cluster": "prod-east", "namespace": "team-b", "pod": "nb-0",
                         "gpu_model": "NVIDIA A100-SXM4-80GB"}, [0.0] * 42),
    ]

    def firing(alertname: str, minutes: int, labels: dict, clusters=("prod-east",)) -> dict:
        def body(cluster):
            return ",".join(f'{k}="{v}"' for k, v in sorted({**labels, "alertname": alertname, "cluster": cluster,
                                                              "alertstate": "firing"}.items()))
        return {"expr": f'ALERTS{{alertname="{alertname}"}}', "eval_time": f"{minutes}m",
                "exp_samples": [{"labels": f"ALERTS{{{body(c)}}}", "value": 1} for c in clusters]}

    everywhere = ("prod-east", "prod-west")  # tenant alerts: one copy per model cluster, for the proxy

    tenant = {"namespace": "team-b", "tenant": "team-b", an.AUDIENCE: an.TENANT}
    test = {
        "rule_files": [layout.HUB_RULES, layout.ALERT_RULES],
        "evaluation_interval": "5m",
        "tests": [{"interval": "5m", "input_series": series, "promql_expr_test": [
            firing(an.BURN_RATE_JUMP, 20, {**tenant, "severity": "info"}, everywhere),
            firing(an.BUDGET_EXHAUSTED, 60, {**tenant, "severity": "critical", "threshold": "1"}, everywhere),
            firing(an.IDLE, 45, {**tenant, "severity": "warning", "pod": "nb-0",
                                 "gpu_model": "NVIDIA A100-SXM4-80GB", "workload": "nb",
                                 "workload_type": "Deployment"}),
        ]}],
    }
    for name in test["rule_files"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text((rendered / name).read_text())
    (tmp_path / "on-hub-rules.test.yaml").write_text(yaml.safe_dump(test))
    result = run("promtool", "test", "rules", "on-hub-rules.test.yaml", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
