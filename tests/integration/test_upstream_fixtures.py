"""Exposition transcribed from the upstream components' own test data and docs, replayed through the real
spoke rules and price table with promtool; the expected figures are hand-computed in each fixture's header."""
from __future__ import annotations

import re
import subprocess

import pytest
import yaml

from gpudash.base.yamlfmt import dump_yaml
from gpudash.model import load_model
from gpudash.model import series as names
from gpudash.render import rules
from gpudash.render.rules import hub, spoke
from gpudash.render.rules.format import rule_file
from tests.conftest import FIXTURES

HERE = FIXTURES / "upstream"
FIXTURES = sorted(p for p in HERE.glob("*.yaml") if p.name != "model.yaml")
SERIES = re.compile(r"^(?P<name>[a-zA-Z_:][a-zA-Z0-9_:]*)\{(?P<labels>.*)\} (?P<value>\S+)$")
COST = (f'sum by (pod) (label_replace({names.POD_ALLOCATED}, "ksm_resource", "$1", "resource", "(.*)")'
        f" * on (product, ksm_resource) group_left () {names.SKU_PRICE})")


def _input_series(exposition: str) -> list[dict]:
    out = []
    for line in exposition.strip().splitlines():
        m = SERIES.match(line)
        assert m, f"not an exposition line: {line}"
        out.append({"series": f"{m['name']}{{{m['labels']}}}", "values": f"{m['value']}x10"})
    return out


def _labels(d: dict) -> str:
    return "{" + ",".join(f'{k}="{v}"' for k, v in sorted(d.items())) + "}"


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_upstream_fixture_bills_as_computed_by_hand(path, tmp_path):
    model = load_model(HERE / "model.yaml")
    fixture = yaml.safe_load(path.read_text())
    # the spoke tier (the default with the acm target) runs first at each step, as its group's rule file comes first
    groups = [*rules.tier_groups(model), spoke.group(model), hub.groups(model)[0]]
    (tmp_path / "rules.yaml").write_text(dump_yaml(rule_file(groups)))
    allocated = [{"labels": names.POD_ALLOCATED + _labels(
        {"namespace": "team-a", "node": next(iter(re.findall(rf'node="([^"]+)"[^\n]*pod="{a["pod"]}"',
                                                             fixture["exposition"]))),
         "pod": a["pod"], "product": a["product"], "resource": a["resource"], "workload": a["pod"],
         "workload_type": "Pod"}), "value": a["value"]} for a in fixture["allocated"]]
    cost = [{"labels": _labels({"pod": pod}), "value": value} for pod, value in fixture["cost_per_hour"].items()]
    models = [{"labels": _labels({"gpu_model": m, "pod": pod}), "value": 1}
              for pod, m in fixture.get("gpu_model", {}).items()]
    model_test = [{"expr": f"count by (pod, gpu_model) ({names.POD_ACTIVITY_MAX})", "eval_time": "5m",
                   "exp_samples": models}] if models else []
    test = {"rule_files": ["rules.yaml"], "evaluation_interval": "1m", "tests": [{
        "interval": "1m", "input_series": _input_series(fixture["exposition"]),
        "promql_expr_test": [{"expr": names.POD_ALLOCATED, "eval_time": "5m", "exp_samples": allocated},
                             {"expr": COST, "eval_time": "5m", "exp_samples": cost}, *model_test]}]}
    (tmp_path / "fixture.test.yaml").write_text(yaml.safe_dump(test, sort_keys=False))
    proc = subprocess.run(["promtool", "test", "rules", "fixture.test.yaml"], cwd=tmp_path, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
