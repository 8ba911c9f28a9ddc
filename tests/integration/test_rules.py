"""Generated rules accepted by the real promtool (``check rules`` with the duplicate-rules lint); shape, parsing and
escaping without promtool: tests/unit/test_rules.py."""
from __future__ import annotations

import subprocess

import yaml

from gpudash.base import layout
from gpudash.promql import build as q
from tests.conftest import require


def test_promtool_accepts_every_rule_file(rendered):
    require("promtool")
    files = sorted(str(p) for p in rendered.glob(f"{layout.RULES}/*.rules.yaml"))
    result = subprocess.run(["promtool", "check", "rules", "--lint=duplicate-rules", "--lint-fatal", *files],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_times_keyed_multiplies_each_series_by_its_case_or_the_default(tmp_path):
    """The factor table behind the MIG, replica and SKU weights, on promtool's engine: the case whose regex
    fully matches the source label (never a partial match: "12" is not "2"), the default elsewhere, including a
    series without the source label; each series keeps its labels apart from the added key."""
    require("promtool")
    expr = q.times_keyed("x", "k", "s", [("0.5", "2"), ("0.25", "4|8")], "0")
    (tmp_path / "t.test.yaml").write_text(yaml.safe_dump({"rule_files": [], "tests": [{
        "interval": "1m",
        "input_series": [{"series": f'x{{s="{s}"}}', "values": "3"} for s in ("2", "12", "4", "8")]
        + [{"series": "x", "values": "3"}],
        "promql_expr_test": [{"expr": expr, "eval_time": "0m", "exp_samples": [
            {"labels": '{s="2", k="0.5"}', "value": 1.5}, {"labels": '{s="12", k="0"}', "value": 0},
            {"labels": '{s="4", k="0.25"}', "value": 0.75}, {"labels": '{s="8", k="0.25"}', "value": 0.75},
            {"labels": '{k="0"}', "value": 0}]}]}]}))
    result = subprocess.run(["promtool", "test", "rules", "t.test.yaml"], cwd=tmp_path, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout + result.stderr
