"""Alerts with the real promtool: it accepts the rendered alerts and the emitted promtool tests pass, for the
bundled example and for models that stress timing, escaping, long names and vendor mixes (tests/unit/test_alerts.py
checks coverage and style without promtool), and the alerts fire on what the real hub rules record."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

from gpudash.base import layout
from gpudash.model import alert_names as an
from gpudash.model import model_from_dict
from gpudash.render.alerts import promtool
from tests.conftest import require
from tests.unit.test_alerts import VARIANTS, coverage, render_alerts, rule_names


def run(*cmd, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=300)


def check_rendered(out: Path):
    require("promtool")
    result = run("promtool", "check", "rules", "--lint=duplicate-rules", "--lint-fatal",
                 *sorted(str(p) for p in out.glob(f"{layout.ALERTS}/*.yaml")))
    assert result.returncode == 0, result.stdout + result.stderr
    tests = sorted(str(p) for p in out.glob(layout.alert_test("*")))
    assert tests
    result = run("promtool", "test", "rules", *tests)
    assert result.returncode == 0, result.stdout + result.stderr


def test_promtool_accepts_the_alerts_and_their_tests_pass(rendered):
    check_rendered(rendered)


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
