"""Deliberately wrong rule edits must each make at least one golden test fail."""
import shutil

import pytest
import yaml

from e2e import toolsets
from gpudash.base import layout
from gpudash.model import series as names
from gpudash.ops.promtest import run_promtool_tests
from gpudash.promql import build as q
from gpudash.promql import calendar
from gpudash.render.golden import emit, shared
from tests.conftest import golden_kind, golden_share
from tests.integration.test_hub_settle_restart import write_restart_test

SPOKE = layout.SPOKE_RULES
HUB = layout.HUB_RULES
# The per-step figures (allocation, node count, energy split) live in the spoke tier's group, the example's default:
# their mutations are caught by the scenarios' tier files, which evaluate that group on the raw series.
TIER = layout.SPOKE_TIER_RULES


def _mig_at_full_price(text: str) -> str:
    data = yaml.safe_load(text)
    whole = {r["labels"]["gpu_class"]: r["expr"] for g in data["groups"] for r in g["rules"]
             if r.get("record") == names.SKU_PRICE
             and r["labels"]["resource"] == "nvidia.com/gpu"}
    for g in data["groups"]:
        for r in g["rules"]:
            if r.get("record") == names.SKU_PRICE \
                    and r["labels"]["resource"].startswith("nvidia.com/mig-"):
                r["expr"] = whole[r["labels"]["gpu_class"]]
    return yaml.safe_dump(data)


def _cluster_level_gate(text: str) -> str:
    """The first design: each cluster's hourly series accepted whole while its heartbeat says "the hour before",
    whatever hour each series' own latest sample was evaluated in."""
    from gpudash.render.rules import hub

    data = yaml.safe_load(text)
    fresh = f"last_over_time({names.BILLED_HOUR}[1h]) == scalar(floor(vector(time()) / 3600)) * 3600 - 3600"
    for series in (names.HOURLY_GPU_HOURS, names.NODE_ACTIVE_GPUS_MAX):
        sel = q.selector(series, (names.SENTINEL_LABEL, "=", ""))
        for g in data["groups"]:
            for r in g["rules"]:
                r["expr"] = r["expr"].replace(hub._this_hours_push(series),
                                              f"(last_over_time({sel}[1h]) and on (cluster) ({fresh}))")
    return yaml.safe_dump(data)


def _stale_settle_read(text: str) -> str:
    """Each settle read without its own-hour filter: its latest sample within the lookback, of whichever hour."""
    for settle in names.SETTLED.values():
        for matchers in ((), ((names.SENTINEL_LABEL, "=", ""),), ((names.SENTINEL_LABEL, "=", "1"),)):
            selector = q.selector(settle, *matchers)
            text = text.replace(calendar.own_hour(selector), selector)
    return text


# the init-kept flag's guard: the node's GPUs shown > its count (gpudash.render.rules.active_gpus.node_active)
_KEPT_WHEN = '")) > on (cluster, node) sum by (cluster, node)'
# name -> (rule file, edit of its text, scenarios that must catch it, or a function writing a test file that must)
MUTATIONS = {
    "no Running filter": (TIER, lambda t: t.replace(',phase="Running"', ""), ["succeeded-lingers", "failed-lingers"]),
    "sum duplicates": (TIER, lambda t: t.replace("max by (cluster, namespace, pod, uid, container, node, resource)",
                                                  "sum by (cluster, namespace, pod, uid, container, node, resource)"),
                       ["ksm-ha-duplicate"]),
    "MIG at full GPU price": (HUB, _mig_at_full_price, ["mig-mixed-settled", "mig-single-settled"]),
    "bill Pending": (TIER, lambda t: t.replace('phase="Running"', 'phase=~"Running|Pending"'),
                     ["pending-image-pull"]),
    # the hour read of the tier's recorded steps without its 1 ms offset
    "boundary step twice": (SPOKE, lambda t: t.replace("[1h] offset 1ms", "[1h]"),
                            ["whole-gpu-steady", "pod-crossing-hour"]),
    "cluster-level push gate": (HUB, _cluster_level_gate, ["mco-rule-failed-hour-hub", "mco-push-straddle-hub"]),
    # a restart-like gap: an earlier hour's settle row, no staleness marker after it (test_hub_settle_restart.py)
    "settle read from an earlier hour": (HUB, _stale_settle_read, [write_restart_test]),
    "energy counter may go down": (TIER, lambda t: t.replace(") >= 0) or (", ") >= -1e+30) or ("),
                                   ["energy-counter-reset"]),
    "MIG energy as a whole GPU": (TIER, lambda t: t.replace('"GPU_I_PROFILE"', '"GPU_I_PROFILE_none"'), ["mig-mixed"]),
    # a larger init container's unnamed MIG slices: counted as certain, or flagged where every GPU is counted
    "init-kept slices as certain": (TIER, lambda t: t.replace(f'"{names.FROM_ATTRIBUTION}/1/1"',
                                                              f'"{names.FROM_ATTRIBUTION}/1/none"'),
                                    ["ccsp-mig-init-unseen"]),
    "init-kept flag with every GPU counted": (TIER, lambda t: t.replace(_KEPT_WHEN, _KEPT_WHEN.replace(">", ">=")),
                                              ["ccsp-init-sidecar"]),
}


@pytest.mark.parametrize("toolset", toolsets.params())
@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_mutation_is_caught(rendered, tmp_path, example_model, name, toolset):
    """On every pinned version: e.g. without the 1 ms offsets an hour is one step longer on Prometheus 2 (both
    ends closed) and one step late on Prometheus 3 (left-open), so only a pod crossing the hour catches it there."""
    promtool = toolsets.require(toolset).promtool
    rule_file, edit, scenarios = MUTATIONS[name]
    shutil.copytree(rendered / layout.RULES, tmp_path / layout.RULES)
    (tmp_path / layout.TESTS).mkdir()
    original = (rendered / rule_file).read_text()
    mutated = edit(original)
    assert mutated != original, f"mutation {name!r} no longer applies to {rule_file}"
    (tmp_path / rule_file).write_text(mutated)
    wanted: list[tuple[str, str]] = []  # per named scenario: its file, and in a shared one the label of its checks
    for s in scenarios:
        if callable(s):  # a test file written for the mutation, not a scenario's
            s(tmp_path / layout.TESTS, example_model)
            continue
        scenario, kind = golden_kind(s, "tier" if rule_file == TIER else "spoke")
        path = emit.file_of(scenario, kind, example_model)
        if shared.is_shared(path):  # the scenario's share of a file scenarios share, as the render joins it
            share = golden_share(example_model, scenario, kind)
            (tmp_path / share[0]).write_text(share[1])
            wanted.append((share[0].rpartition("/")[2], f'cluster="{s}/' if path in shared.PATHS else ""))
        else:
            shutil.copy(rendered / path, tmp_path / layout.TESTS)
            wanted.append((path.rpartition("/")[2], ""))
    results = {r.file: r for r in run_promtool_tests(tmp_path, promtool=promtool)}
    assert len(results) == len(list((tmp_path / layout.TESTS).iterdir()))
    failed = {f: "\n".join(r.failures) for f, r in results.items() if not r.ok and "exp:" in "\n".join(r.failures)}
    assert failed, f"mutation {name!r} passed every golden test"
    assert not wanted or any(f in failed and label in failed[f] for f, label in wanted), \
        f"mutation {name!r}: caught, but not by the checks of {scenarios}"

