"""The golden file every scenario shares (gpudash/render/golden/shared.py): each scenario's series and checks kept
apart by its cluster label, the shares joined into the text one file of all of them serialises to."""
from __future__ import annotations

import promql_parser
import pytest
import yaml

from gpudash.base import layout
from gpudash.base.yamlfmt import serialise
from gpudash.promql import lint
from gpudash.render.golden import shared
from gpudash.simulation import scenario as sc

HEADER = {"rule_files": ["../rules/r.yaml"], "evaluation_interval": "1m", "group_eval_order": ["g"]}
TIER = layout.golden_shared("tier")


def _group(pod: str) -> dict:
    return {"name": pod, "interval": "1m",
            "input_series": [{"series": f'kube_pod_info{{namespace="a",pod="{pod}"}}', "values": "1x3"},
                             {"series": "up", "values": "1"}],
            "promql_expr_test": [
                {"expr": "a:gpudash_x:step != 0", "eval_time": "1m",
                 "exp_samples": [{"labels": f'a:gpudash_x:step{{pod="{pod}"}}', "value": 1}]},
                {"expr": 'round(a:gpudash_x:step{input="x:y"}, 1/1048576) != 0', "eval_time": "2m",
                 "exp_samples": [{"labels": "{}", "value": 0.5}]},
                {"expr": 'sum by (input) (a:gpudash_m:count{input="spoke_tier"}) != 0', "eval_time": "3m",
                 "exp_samples": [{"labels": '{input="spoke_tier"}', "value": 2}]}]}


def test_the_first_scenario_keeps_a_spoke_s_unlabelled_series_and_the_others_get_their_own_label():
    assert shared.scope(True, "short-job", "prod-east") == ""
    assert shared.scope(False, "short-job", "prod-east") == "short-job/prod-east"


def test_a_scenario_s_share_selects_its_own_series_in_every_check():
    data = shared.part("tier", [_group("p")], ["s/c"], HEADER)
    (group,) = data["tests"]
    assert [x["series"] for x in group["input_series"]] == [
        'kube_pod_info{cluster="s/c",namespace="a",pod="p"}', 'up{cluster="s/c"}']
    exprs = [t["expr"] for t in group["promql_expr_test"]]
    assert exprs == ['a:gpudash_x:step{cluster="s/c"} != 0',
                     'round(a:gpudash_x:step{cluster="s/c",input="x:y"}, 1/1048576) != 0',  # "x:y": a value, kept
                     'sum by (input) (a:gpudash_m:count{cluster="s/c",input="spoke_tier"}) != 0']
    for expr in exprs:  # every selector of the check reads this scenario's series only
        selectors = [n for n in lint.nodes(promql_parser.parse(expr)) if isinstance(n, promql_parser.VectorSelector)]
        assert selectors and all('cluster="s/c"' in str(s) for s in selectors), expr
    labels = [t["exp_samples"][0]["labels"] for t in group["promql_expr_test"]]
    assert labels == ['a:gpudash_x:step{cluster="s/c",pod="p"}', '{cluster="s/c"}', '{input="spoke_tier"}']
    assert {k: v for k, v in data.items() if k != "tests"} == HEADER and group["name"] == shared.NAMES["tier"]


def test_the_unlabelled_share_selects_series_without_the_label():
    (group,) = shared.part("tier", [_group("p")], [""], HEADER)["tests"]
    assert group["input_series"] == _group("p")["input_series"]
    assert group["promql_expr_test"][0]["expr"] == 'a:gpudash_x:step{cluster=""} != 0'
    assert group["promql_expr_test"][0]["exp_samples"] == _group("p")["promql_expr_test"][0]["exp_samples"]


def test_a_series_that_has_the_label_already_is_refused():
    group = _group("p")
    group["input_series"][0]["series"] = 'kube_pod_info{cluster="x",pod="p"}'
    with pytest.raises(ValueError, match="cluster label already"):
        shared.part("tier", [group], ["s/c"], HEADER)


def test_joined_shares_are_the_text_of_one_file_of_all_their_series_and_checks():
    parts = [shared.part("tier", [_group("p")], [""], HEADER),
             shared.part("tier", [_group("q"), _group("r")], ["two/east", "two/west"], HEADER)]
    whole = {**HEADER, "tests": [{**parts[0]["tests"][0],
                                  "input_series": [x for p in parts for x in p["tests"][0]["input_series"]],
                                  "promql_expr_test": [x for p in parts for x in p["tests"][0]["promql_expr_test"]]}]}
    text = shared.joined([serialise(TIER, p) for p in parts])
    assert text == serialise(TIER, whole) and yaml.safe_load(text) == whole


def test_shares_that_differ_in_their_rules_are_not_joined():
    other = {**HEADER, "evaluation_interval": "5m"}
    with pytest.raises(ValueError, match="differ"):
        shared.joined([serialise(TIER, shared.part("tier", [_group("p")], ["a/b"], h)) for h in (HEADER, other)])


def test_assemble_joins_the_shares_where_the_first_was_and_keeps_every_other_file():
    a, b = (serialise(TIER, shared.part("tier", [_group(p)], [f"{p}/c"], HEADER)) for p in "ab")
    out = shared.assemble([("tests/x.test.yaml", {"x": 1}), (TIER, a), ("tests/y.test.yaml", {"y": 2}), (TIER, b)])
    assert list(out) == ["tests/x.test.yaml", TIER, "tests/y.test.yaml"]
    assert out[TIER] == shared.joined([a, b]) and out["tests/y.test.yaml"] == {"y": 2}
    with pytest.raises(TypeError):
        shared.assemble([(TIER, {"not": "text"})])


def test_no_scenario_s_own_file_can_be_named_like_a_shared_one(tmp_path, example_model):
    """A shared file's name has a dot; a scenario's name (which names its own files) cannot."""
    assert all(layout.is_golden(path) and "." in path.removeprefix(f"{layout.TESTS}/golden-").removesuffix(
        ".test.yaml") for path in shared.PATHS)
    (tmp_path / "x.yaml").write_text("name: scenarios.tier\nprotects: x\nduration: 1h\npods: []\n")
    with pytest.raises(ValueError, match="lower-case letters, digits and dashes"):
        sc.load(example_model, tmp_path)
