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
    """A shared file's name has a dot; a scenario's name (which names its own files) cannot, nor end as the
    name of another scenario's file of another kind does."""
    assert all(layout.is_golden(path) and "." in path.removeprefix(f"{layout.TESTS}/golden-").removesuffix(
        ".test.yaml") for path in shared.PATHS)
    for name in ("scenarios.tier", "a.b", "x-hub", "x-settled", "x-tier"):  # a shared file's; another one's kind
        (tmp_path / "x.yaml").write_text(f"name: {name}\nprotects: x\nduration: 1h\npods: []\n")
        with pytest.raises(ValueError, match="lower-case letters, digits and dashes, not ending in"):
            sc.load(example_model, tmp_path)
    assert layout.golden_kind_of(layout.golden_pair("a", "b", "hub")) == "hub"


def _settled(*checks: str) -> dict:
    return {**HEADER, "tests": [{"name": "s", "interval": "1m", "input_series": [],
                                 "promql_expr_test": [{"expr": c, "eval_time": "1h", "exp_samples": []}
                                                      for c in checks]}]}


def test_a_paired_share_limits_every_check_to_its_cluster():
    ptd = 'sum by (namespace) (a:gpudash_ptd:x{cluster="west"})'
    (group,) = shared.on_cluster(_settled("a:gpudash_x:y != 0", ptd), "west", "a and b")["tests"]
    first, own = (c["expr"] for c in group["promql_expr_test"])
    assert group["name"] == "a and b" and own == ptd  # a check without the label selects the cluster itself
    assert first == '(a:gpudash_x:y != 0) and on (cluster) label_replace(vector(1), "cluster", "west", "", "")'
    for wrong in ("sum by (namespace) (a:gpudash_ptd:x)", 'sum without (cluster) (a:gpudash_ptd:x{cluster="east"})'):
        with pytest.raises(ValueError, match="reads every cluster"):  # it would read the other scenario's figures
            shared.on_cluster(_settled(wrong), "west", "a and b")


def test_scenarios_share_files_where_they_take_as_long(example_model):
    """The two month-long push-path scenarios share one file (promtool evaluates it for one month, not two); a pair
    is two single-cluster scenarios pushing as often. The single-cluster scenarios' settled checks share one file,
    on the first two model clusters in turn, each from the hour the one before it on its cluster ended; a model of
    one cluster pairs none and runs them one after another."""
    from gpudash.model import model_from_dict
    from gpudash.render.golden import emit
    from gpudash.simulation.pushes import push_interval
    from tests.unit.test_mco_settings import example

    scenarios = emit.catalogue(example_model)[0]
    by_name = {s.name: s for s in scenarios}
    where = emit.places(scenarios, example_model)
    month = ("outage-cluster-23h-month-end", "month-boundary")
    assert where["month-boundary"].hub_pair == where[month[0]].hub_pair == month
    assert emit.file_of("month-boundary", "hub", example_model) == layout.golden_pair(*month, "hub")
    pairs = {p.hub_pair for p in where.values()} - {()}
    assert pairs and all(len(by_name[n].clusters) == 1 for p in pairs for n in p)
    assert all(len({push_interval(by_name[n], example_model) for n in p}) == 1 for p in pairs)
    _one_after_another(scenarios, where, lanes=2)
    one = model_from_dict(example(clusters=["prod-east"], **{"energy.clusters": {}}))
    alone = emit.places(emit.catalogue(one)[0], one)
    assert not any(p.hub_pair for p in alone.values())
    _one_after_another(emit.catalogue(one)[0], alone, lanes=1)


def _one_after_another(scenarios, where, lanes: int) -> None:
    """Each lane's scenarios run one after another in whole hours, never two at once on a cluster."""
    slots = sorted((where[s.name].slot, -(-s.duration // 60)) for s in scenarios if where[s.name].slot)
    assert slots and {lane for (lane, _), _ in slots} == set(range(lanes))
    for lane in range(lanes):
        on = [(hour, hours) for (at, hour), hours in slots if at == lane]
        assert on[0][0] == 0 and all(a + n == b for (a, n), (b, _) in zip(on, on[1:])), on


def test_scenarios_one_after_another_on_a_cluster_push_one_series():
    """Two shares' samples of one series are one series; at a minute both push, the larger (the hub settles each
    hour as the largest pushed for it, and a scenario pushes zero rows only for the hours it does not own)."""
    from gpudash.model import series as names
    from gpudash.simulation.pushes import later

    steps = (("__name__", names.STEPS_OBSERVED), ("cluster", "east"), (names.LAG_LABEL, "1"))
    billed = (("__name__", names.BILLED_HOUR), ("cluster", "east"))
    first = shared.Share(HEADER, {steps: {60: 60, 120: 60}}, [{"expr": "a", "eval_time": "2h"}], 180)
    second = shared.Share(HEADER, later({steps: {0: 0, 60: 30}, billed: {60: 0}}, 120),
                          [{"expr": "b", "eval_time": "4h"}], 300)
    assert second.series[billed] == {180: 7200}  # the hour it describes moved with it
    (group,) = shared.merged([first, second])["tests"]
    assert group["name"] == shared.NAMES["settled"] and [c["expr"] for c in group["promql_expr_test"]] == ["a", "b"]
    values = {s["series"]: s["values"] for s in group["input_series"]}
    assert values[f'{names.STEPS_OBSERVED}{{cluster="east",{names.LAG_LABEL}="1"}}'] == \
        "_x60 60 _x59 60 _x59 30 _x120"  # 120: max(60, 0)
    with pytest.raises(ValueError, match="differ"):
        shared.merged([first, first._replace(header={**HEADER, "evaluation_interval": "5m"})])
    with pytest.raises(ValueError, match="at minute 120 with 60 and 30"):  # two figures for one hour: never a max
        shared.merged([first, first._replace(series={steps: {120: 30}})])
    live = (("__name__", names.POD_ALLOCATED), ("cluster", "east"))  # where one scenario ends and the next starts
    (both,) = shared.merged([first._replace(series={live: {120: 1}}), first._replace(series={live: {120: 2}})])["tests"]
    assert both["input_series"] == [{"series": f'{names.POD_ALLOCATED}{{cluster="east"}}', "values": "_x120 2 _x60"}]
    with pytest.raises(TypeError):
        shared.assemble([("tests/own.test.yaml", first)])
