"""The golden files every scenario shares (gpudash/render/golden/shared.py) on real promtool: a rule that mixed two
scenarios' series fails the shared file, while each scenario alone, unlabelled as on a spoke, still passes with it
(on one spoke the rule would bill right: the failure comes from the mixing alone)."""
from __future__ import annotations

import re
import shutil

import pytest

from e2e import toolsets
from gpudash.base import layout
from gpudash.ops.promtest import run_file
from tests.conftest import golden_share, render_with_scenarios

SCENARIOS = ("pod-crossing-hour", "short-job")  # both on a node named gpu-node-1; the first one unlabelled


@pytest.fixture(scope="module")
def two(example_model, tmp_path_factory):
    return render_with_scenarios(example_model, tmp_path_factory.mktemp("shared"), SCENARIOS)


def _without_cluster(text: str) -> str:
    """The spoke tier's per-node groupings and joins without ``cluster``: harmless on one spoke, mixing here."""
    mutated = re.sub(r"\b(by|on) \(cluster, node\b", r"\1 (node", text)
    assert mutated != text
    return mutated


@pytest.mark.parametrize("toolset", toolsets.params())
def test_a_rule_mixing_scenarios_fails_the_shared_file_and_passes_each_share(two, example_model, tmp_path, toolset):
    promtool = toolsets.require(toolset).promtool
    shutil.copytree(two / layout.RULES, tmp_path / layout.RULES)
    tests = tmp_path / layout.TESTS
    tests.mkdir()
    shared_tier = layout.golden_shared("tier")
    shutil.copy(two / shared_tier, tmp_path / shared_tier)
    assert run_file(tmp_path / shared_tier, promtool).ok
    for name in SCENARIOS:
        path, text = golden_share(example_model, name, "tier", first=True)
        (tmp_path / path).write_text(text)
    (tmp_path / layout.SPOKE_TIER_RULES).write_text(_without_cluster((two / layout.SPOKE_TIER_RULES).read_text()))
    mixed = run_file(tmp_path / shared_tier, promtool)
    assert not mixed.ok and "exp:" in "\n".join(mixed.failures), mixed
    for name in SCENARIOS:
        alone = run_file(tmp_path / layout.golden_test(f"{name}-share"), promtool)
        assert alone.ok, alone
