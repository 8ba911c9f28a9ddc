"""Energy is metered only when the model has an ``energy`` section (issue 30): without it no energy rule is rendered
or pushed (the hourly energy rule was the spoke's costliest, 126 of 159 s per push at 10,000 GPUs in
benchmarks/RESULTS.md), no energy alert or panel appears, coverage does not wait for an energy sentinel, and the
golden scenarios still pass against the reference model, with the energy scenarios skipped and saying why."""
import dataclasses
import json

import pytest

from e2e import toolsets
from gpudash.base import layout
from gpudash.model import alert_names as an
from gpudash.model import model_from_dict
from gpudash.model import series as names
from gpudash.model.types import Energy
from gpudash.ops import promtest
from gpudash.render import writer
from gpudash.render.golden import emit
from gpudash.simulation import scenario
from tests.conftest import generate_without_golden

ENERGY_SERIES = (names.HOURLY_ENERGY, names.HOUR_ENERGY, names.HOUR_ENERGY_COST, names.ENERGY_PRICE,
                 names.TIER_ENERGY)
# scenarios whose coverage counts each hourly rule's sentinel, and one about energy (skipped here)
SCENARIOS = ("whole-gpu-steady", "mco-rule-failed-hour", "energy-rule-failed-hour")


@pytest.fixture(scope="module")
def unmetered(example_model):
    return dataclasses.replace(example_model, energy=Energy())


@pytest.fixture(scope="module")
def rendered(unmetered, tmp_path_factory):
    """The example without energy: these scenarios' golden tests, and every other file."""
    scenarios = tmp_path_factory.mktemp("scenarios")
    for name in SCENARIOS:
        (scenarios / f"{name}.yaml").write_text((emit.SCENARIO_DIR / f"{name}.yaml").read_text())
    out = tmp_path_factory.mktemp("unmetered")
    writer.apply(writer.plan(out, {**generate_without_golden(unmetered), **emit.emit_tests(unmetered, scenarios)}))
    return out


@pytest.fixture(scope="module")
def rendered_with_tier(unmetered, tmp_path_factory):
    """The same with the spoke tier (its energy series too), without golden tests."""
    out = tmp_path_factory.mktemp("unmetered-tier")
    model = dataclasses.replace(unmetered, billing=dataclasses.replace(unmetered.billing, spoke_tier="policy"))
    writer.apply(writer.plan(out, generate_without_golden(model)))
    return out


def test_the_energy_section_decides_metering(example_model):
    assert example_model.energy.metered
    data = {"currency": "EUR", "clusters": ["c1"], "tenants": [{"name": "a", "namespace": "a", "budget": 10}],
            "gpu_classes": [{"name": "a100", "vendor": "nvidia", "products": ["NVIDIA-A100-80GB-PCIe"],
                             "price_per_hour": 2}]}
    assert not model_from_dict(data).energy.metered
    assert model_from_dict({**data, "energy": {}}).energy.metered


def test_no_energy_rule_alert_or_panel_is_rendered(rendered_with_tier):
    files = [p for p in rendered_with_tier.rglob("*") if p.is_file()]
    assert any(p.name == "gpudash-spoke-tier.rules.yaml" for p in files)
    text = "\n".join(p.read_text() for p in files)
    for series in ENERGY_SERIES:
        assert series not in text, series
    assert an.ENERGY_UNALLOCATED not in text
    boards = [json.loads(p.read_text()) for p in (rendered_with_tier / layout.DASHBOARDS).glob("*.json")]
    assert boards
    titles = {panel.get("title") for board in boards for panel in board["panels"]}
    assert "Energy" not in titles and "GPU energy this period" not in titles


def test_the_energy_scenarios_are_skipped_with_their_reason(unmetered, example_model):
    runnable, skipped = scenario.load(unmetered, emit.SCENARIO_DIR)
    energy = {"energy-busy-idle", "energy-counter-reset", "energy-rule-failed-hour"}
    assert {name: why for name, why in skipped.items() if name in energy} == dict.fromkeys(
        energy, "protects energy metering: needs an energy section in the model")
    assert energy <= {s.name for s in scenario.load(example_model, emit.SCENARIO_DIR)[0]}
    assert not energy & {s.name for s in runnable}


@pytest.mark.parametrize("toolset", toolsets.params())
def test_the_golden_scenarios_pass_without_energy(rendered, toolset):
    results = promtest.run_promtool_tests(rendered, jobs=1, promtool=toolsets.require(toolset).promtool)
    golden = [r for r in results if r.file.startswith("golden-")]
    assert len(golden) >= 3, [r.file for r in results]  # two scenarios: two spoke files and a push-path file
    failed = [str(r) for r in results if not r.ok]
    assert not failed, "\n".join(failed)
