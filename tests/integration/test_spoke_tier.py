"""The spoke recording tier (``billing.spoke_tier: policy``): the model field, its ACM delivery validated against the
upstream CRD schemas, and the golden scenarios run with the tier against the unchanged reference model."""
from __future__ import annotations

import copy
import dataclasses
import re

import pytest
import yaml

from gpudash.base import kube, layout
from gpudash.base.errors import InputError
from gpudash.model import model_from_dict
from gpudash.model import series as names
from gpudash.ops.promtest import run_file
from gpudash.render.golden import emit
from gpudash.render.rules import spoke, spoke_tier
from gpudash.render.rules.allocation import allocation
from gpudash.render.targets.acm import spoke_tier as delivery
from gpudash.simulation import scenario as sc
from tests import upstream_schemas
from tests.conftest import generate_without_golden, golden_share
from tests.unit.test_mco_settings import example
from tests.upstream_schemas import refused

TIER_OBJECTS = (layout.MCO_TIER_POLICY, layout.MCO_TIER_PLACEMENT, layout.MCO_TIER_PLACEMENT_BINDING,
                layout.MCO_TIER_CLUSTER_SET_BINDING)
# Spoke scenarios the bundled example (the tier and its 24 hours of backfill being its default) must run, each as its
# spoke file and its tier file, in the golden suite on both versions: every series by value, MIG slices shared by
# time-slicing, a kube-state-metrics outage, and the missed tier evaluations.
SCENARIOS = ("whole-gpu-steady", "mig-mixed-shared", "ksm-restart", "spoke-tier-missed")


@pytest.fixture(scope="module")
def tier_model():
    return model_from_dict(example(**{"billing.spoke_tier": "policy"}))


@pytest.fixture(scope="module")
def tier_files(tier_model):
    return generate_without_golden(tier_model)


def problems(obj: dict) -> list[str]:
    """What the API server would refuse or drop in ``obj`` (its kind's upstream schema); a Policy's
    ConfigurationPolicy templates are checked against theirs (the Policy CRD keeps them as unknown fields)."""
    out = [f"{obj['kind']} {p}" for p in refused(obj, upstream_schemas.schema(obj["apiVersion"], obj["kind"]))]
    if obj["kind"] == "Policy":
        for template in obj["spec"]["policy-templates"]:
            out += problems(template["objectDefinition"])
    return out


def test_without_the_tier_nothing_reads_it(example_model):
    """The example (the acm target rendered) has the tier by default; a model with ``spoke_tier: none`` renders
    none of its objects and its pushed rules read no tier series."""
    assert example_model.billing.spoke_tier == "policy"
    plain = model_from_dict(example(**{"billing.spoke_tier": "none"}))
    files = generate_without_golden(plain)
    assert not set(TIER_OBJECTS + (layout.SPOKE_TIER_RULES,)) & set(files)
    tier = {n for n, s in names.SERIES.items() if s.where == names.SPOKE_TIER}
    assert not any(t in r.expr for r in spoke.rules(plain) for t in tier)


def test_a_bad_tier_is_a_clear_input_error():
    with pytest.raises(InputError, match=r"billing\.spoke_tier.*(policy|none)"):
        model_from_dict(example(**{"billing.spoke_tier": "yes"}))


def test_the_hourly_rules_read_the_tier(tier_model):
    """With the tier the pushed hourly rules and the live per-pod allocation read only recorded samples: no raw
    kube-state-metrics or exporter series."""
    hourly = {r.record: r.expr for r in spoke.rules(tier_model)}
    tier = ((names.HOURLY_GPU_HOURS, names.TIER_ALLOCATED), (names.STEPS_OBSERVED, names.TIER_KSM_UP),
            (names.NODE_ACTIVE_GPUS_MAX, names.TIER_NODE_ACTIVE), (names.HOURLY_ENERGY, names.TIER_ENERGY),
            (names.POD_ALLOCATED, names.TIER_POD_ALLOCATED))
    for record, series in tier:
        assert series in hourly[record] and not re.search(r"kube_|DCGM_|\bgpu_", hourly[record]), record
    group = spoke_tier.group(tier_model)
    assert group.interval == tier_model.billing.resolution
    assert {r.record for r in group.rules} == {series for _, series in tier} | {names.TIER_POD_STEP,
                                                                                 names.TIER_POD_KINDS}
    # the step's one allocation join is the group's first rule; the others read its rows of this evaluation
    first, *others = group.rules
    assert first.record == names.TIER_POD_STEP and allocation(tier_model) in first.expr
    assert not any(allocation(tier_model) in r.expr for r in others)
    fresh = {r.record for r in others if spoke.recorded_now(names.TIER_POD_STEP) in r.expr}
    assert fresh == {names.TIER_ALLOCATED, names.TIER_POD_KINDS, names.TIER_POD_ALLOCATED}
    # the active GPUs read the pods' weighted devices, recorded just before them at this evaluation
    order = [r.record for r in group.rules]
    active = next(r for r in others if r.record == names.TIER_NODE_ACTIVE)
    assert spoke.recorded_now(names.TIER_POD_KINDS) in active.expr
    assert order.index(names.TIER_POD_KINDS) < order.index(names.TIER_NODE_ACTIVE)
    # the heartbeat comes after every figure the hourly rules bill, so a group stopped mid-step counts no step
    billed = {names.TIER_ALLOCATED, names.TIER_NODE_ACTIVE, names.TIER_ENERGY} & set(order)
    assert names.TIER_ENERGY in billed and max(map(order.index, billed)) < order.index(names.TIER_KSM_UP)
    # and it needs the sentinel of every rule before it, so a rule that errors (the group goes on) is a missing step
    heartbeat = next(r for r in others if r.record == names.TIER_KSM_UP).expr
    before = order[:order.index(names.TIER_KSM_UP)]
    assert all(names.SERIES[series].sentinel for series in before)
    assert all(f'timestamp({series}{{{names.SENTINEL_LABEL}="1"}}) == time()' in heartbeat for series in before)


def test_the_acm_objects_validate_against_the_upstream_crds(tier_files, tier_model):
    for path in TIER_OBJECTS:
        obj = tier_files[path]
        assert problems(obj) == [], path
        assert kube.annotations_size(obj) <= kube.LAST_APPLIED_LIMIT, path
        assert obj["metadata"]["namespace"] == "open-cluster-management-observability"
    policy = tier_files[layout.MCO_TIER_POLICY]
    delivered = {t["objectDefinition"]["spec"]["object-templates"][0]["objectDefinition"]["kind"]:
                 t["objectDefinition"]["spec"]["object-templates"][0]["objectDefinition"]
                 for t in policy["spec"]["policy-templates"]}
    assert delivered["Namespace"]["metadata"]["labels"]["openshift.io/cluster-monitoring"] == "true"
    rule = delivered["PrometheusRule"]
    assert rule["metadata"]["namespace"] == delivered["Namespace"]["metadata"]["name"]
    assert rule["spec"] == tier_files[layout.SPOKE_TIER_RULES]  # the group the golden tests run
    binding = tier_files[layout.MCO_TIER_PLACEMENT_BINDING]
    assert binding["placementRef"]["name"] == tier_files[layout.MCO_TIER_PLACEMENT]["metadata"]["name"]
    assert binding["subjects"][0]["name"] == policy["metadata"]["name"]
    placement = tier_files[layout.MCO_TIER_PLACEMENT]["spec"]
    assert placement["clusterSets"] == [tier_files[layout.MCO_TIER_CLUSTER_SET_BINDING]["spec"]["clusterSet"]]
    assert placement["predicates"][0]["requiredClusterSelector"] == {  # every supported ACM's form (acm_version)
        "labelSelector": delivery.label_selector(tier_model.clusters)}
    listed = yaml.safe_load(yaml.safe_dump(tier_files[layout.kustomization(layout.MCO)]))["resources"]
    assert {p.removeprefix(f"{layout.MCO}/") for p in TIER_OBJECTS} <= set(listed)


def test_the_crd_check_catches_what_the_api_server_would_refuse_or_drop(tier_files):
    policy = copy.deepcopy(tier_files[layout.MCO_TIER_POLICY])
    policy["spec"]["policy-templates"][1]["objectDefinition"]["spec"]["remediationAction"] = "fix"
    assert any("remediationAction" in p for p in problems(policy))
    binding = copy.deepcopy(tier_files[layout.MCO_TIER_PLACEMENT_BINDING])
    binding["subjects"][0]["kind"] = "Policies"
    binding["spec"] = {}
    found = problems(binding)
    assert any("kind" in p for p in found) and any(".spec: not in the CRD" in p for p in found)


def test_a_template_marker_in_a_rule_is_refused(tier_model, monkeypatch):
    from gpudash.base.errors import GenerationError

    real, marked = spoke.tier_steps, 'vector(1) and on () up{a="{{x}}"}'
    monkeypatch.setattr(spoke, "tier_steps", lambda m: {**real(m), names.TIER_KSM_UP: marked})
    with pytest.raises(GenerationError, match="template"):
        delivery.policy((spoke_tier.group(tier_model),), "ns")


# --- the golden scenarios with the tier ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tier_golden(rendered, example_model, tier_model):
    """The bundled example's render: the tier and its 24 hours of backfill are its defaults (the ACM target)."""
    assert example_model.billing == tier_model.billing
    return rendered


def test_the_tier_changes_no_expected_figure(example_model):
    """Both emissions (without backfill) assert the same reference figures (the invoice) on the same raw input:
    the spoke files differ only in taking the tier's samples as input too, the push-path files not at all; each
    spoke file gets a tier file checking those samples (but a scenario whose faults the spoke never sees), and only
    the tier's own fault scenarios are new."""
    billing = example_model.billing
    plain_model = dataclasses.replace(example_model, billing=dataclasses.replace(billing, spoke_tier="none",
                                                                                backfill_hours=0))
    tier_model = dataclasses.replace(example_model, billing=dataclasses.replace(billing, backfill_hours=0))
    plain, tier = emit.emit_tests(plain_model), emit.emit_tests(tier_model)
    tier_series = {n for n, s in names.SERIES.items() if s.where == names.SPOKE_TIER}
    tier_only = {s.name for s in sc.load(tier_model, emit.SCENARIO_DIR)[0]
                 if any(f.kind in sc.TIER_FAULTS for f in s.faults)}
    assert tier_only >= {"spoke-tier-missed", "tier-rule-failed"}, tier_only
    spoke_files = [p for p in plain if p != layout.GOLDEN_INDEX and layout.golden_kind_of(p) != "hub"]
    collector_only = {s.name for s in sc.load(tier_model, emit.SCENARIO_DIR)[0]
                      if s.faults and all(f.kind in emit.COLLECTOR_FAULTS for f in s.faults)}
    assert collector_only and {layout.golden_test(n) for n in collector_only} < set(spoke_files)
    # every scenario's tier checks share one file (gpudash.render.golden.shared): all but the collector-only ones
    assert set(tier) - set(plain) == {layout.golden_test(n) for n in tier_only} | {layout.golden_shared("tier")}
    index = tier[layout.GOLDEN_INDEX]["scenarios"]
    shared_tier = layout.golden_shared("tier").removeprefix(f"{layout.TESTS}/")
    tiered = {n for n, entry in index.items() if shared_tier in entry.get("files", ())}
    assert tiered == {p.removeprefix(f"{layout.TESTS}/golden-").removesuffix(".test.yaml") for p in spoke_files
                      if p.endswith(".test.yaml")} - collector_only | tier_only
    for path, data in plain.items():
        if path == layout.GOLDEN_INDEX:
            continue
        if layout.golden_kind_of(path) == "hub":
            assert tier[path] == data, path
            continue
        assert {k: v for k, v in tier[path].items() if k != "tests"} == {k: v for k, v in data.items() if k != "tests"}
        assert len(tier[path]["tests"]) == len(data["tests"]), path
        for ours, theirs in zip(tier[path]["tests"], data["tests"]):
            assert ours["promql_expr_test"] == theirs["promql_expr_test"], path
            extra = [x for x in ours["input_series"] if x not in theirs["input_series"]]
            assert [x for x in ours["input_series"] if x not in extra] == theirs["input_series"], path
            assert {x["series"].split("{")[0] for x in extra} <= tier_series, path


def test_the_golden_suite_runs_the_tier_scenarios(tier_golden, tier_model):
    """tests/integration/test_golden_suite.py runs every file of the example on both versions: these among them."""
    index = yaml.safe_load((tier_golden / layout.GOLDEN_INDEX).read_text())["scenarios"]
    for name in SCENARIOS:
        files = {f"{layout.TESTS}/{f}" for f in index[name].get("files", ())}
        wanted = {emit.file_of(name, kind, tier_model) for kind in ("spoke", "tier")}
        assert wanted <= files and layout.golden_shared("tier") in wanted, (name, index[name])


def test_missed_tier_evaluations_are_what_the_golden_file_sees(tier_golden, tier_model, tmp_path):
    """The restart scenario's expectations hold only because evaluations were missed: the same file with the
    tier's rules evaluated at every step (nothing missed) fails on the under-billed hour."""
    _, text = golden_share(tier_model, "spoke-tier-missed", "spoke")  # its checks in the shared spoke file
    for rules in (layout.SPOKE_TIER_RULES, layout.SPOKE_RULES, layout.HUB_RULES):  # the session's render stays as is
        (tmp_path / rules).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rules).write_text((tier_golden / rules).read_text())
    (tmp_path / layout.TESTS).mkdir()
    data = yaml.safe_load(text)
    tier = {n for n, s in names.SERIES.items() if s.where == names.SPOKE_TIER}
    full = {**data, "rule_files": [emit.TIER_RULES, *data["rule_files"]], "evaluation_interval": "1m",
            "group_eval_order": [spoke_tier.GROUP, *data["group_eval_order"]]}
    full["tests"] = [{**g, "input_series": [s for s in g["input_series"] if s["series"].split("{")[0] not in tier]}
                     for g in data["tests"]]
    every_step = tmp_path / layout.TESTS / "golden-spoke-tier-every-step.test.yaml"
    every_step.write_text(yaml.safe_dump(full, sort_keys=False))
    result = run_file(every_step)
    under_billed = (names.BILLING_COVERAGE, names.STEPS_OBSERVED, names.HOURLY_GPU_HOURS)
    assert not result.ok and any(x in f for f in result.failures for x in under_billed), result


