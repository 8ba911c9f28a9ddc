"""GPU energy per tenant (issue #19): the model section's errors, the reference's conservation (tenants plus
unallocated = every GPU's measured energy), and the golden tests with energy counted in budgets, run with the
real promtool."""
import shutil
from dataclasses import replace

import pytest

from gpudash.base import layout
from gpudash.base.errors import InputError
from gpudash.model import model_from_dict
from gpudash.ops.promtest import run_file
from gpudash.render import rules, writer
from gpudash.render.golden.emit import SCENARIO_DIR, emit_tests
from gpudash.simulation import scenario
from gpudash.simulation.reference import Reference

BUDGET_SCENARIOS = ("whole-gpu-steady", "two-clusters")  # every_series (hour cost); per-cluster prices, PTD


def _scenario(name: str, model) -> scenario.Scenario:
    raw = next(r for r in scenario.load_files(SCENARIO_DIR) if r["name"] == name)
    return scenario.resolve(raw, model)


def _minimal(energy: dict) -> dict:
    return {"gpu_classes": [{"name": "l4", "vendor": "nvidia", "products": ["NVIDIA L4"], "price_per_hour": 1}],
            "tenants": [{"name": "t", "namespace": "t", "budget": 1}], "clusters": ["c1", "c2"], "energy": energy}


def test_energy_defaults_and_cluster_prices():
    model = model_from_dict(_minimal({"price_per_kwh": 0.2, "clusters": {"c2": 0.3}}))
    assert (model.energy.price("c1"), model.energy.price("c2")) == (0.2, 0.3)
    assert model_from_dict(_minimal({})).energy.price("c1") == 0
    assert not model.energy.in_budget and model.energy.unallocated_alert_ratio == 0.5


@pytest.mark.parametrize("energy, message", [
    ({"clusters": {"nowhere": 0.1}}, "energy.clusters.nowhere: 'nowhere' is not one of the model's clusters"),
    ({"price_per_kwh": -1}, "energy.price_per_kwh"),
    ({"unallocated_alert_ratio": 0}, "energy.unallocated_alert_ratio"),
    ({"in_budget": "yes"}, "energy.in_budget"),
])
def test_bad_energy_sections_name_the_field(energy, message):
    with pytest.raises(InputError, match=message.replace(".", r"\.")):
        model_from_dict(_minimal(energy), "gpudash.yaml")


@pytest.mark.parametrize("name", ["energy-busy-idle", "energy-counter-reset", "mig-mixed", "time-sliced-shared"])
def test_tenants_plus_unallocated_is_every_gpus_energy(example_model, name):
    """The reference's split conserves energy: per hour, the rows add up to the GPUs' own step energies."""
    s = _scenario(name, example_model)
    ref = Reference(s, example_model)
    for hour in range(s.duration // 60):
        total = sum(j for m in ref.steps(hour) for n in s.nodes for g in range(n.count)
                    if (j := ref.gpu_step_energy(n, g, m)) is not None) / 3.6e6
        assert sum(ref.energy(hour).values()) == pytest.approx(total, rel=1e-12)
        assert total > 0


def test_a_busy_tenant_pays_for_more_energy_than_an_idle_one(example_model):
    s = _scenario("energy-busy-idle", example_model)
    hour0 = Reference(s, example_model).energy(0)
    busy, idle = (example_model.tenants[i].namespace for i in (0, 1))
    assert hour0[(s.clusters[0], busy)] > 1.5 * hour0[(s.clusters[0], idle)]
    assert hour0[(s.clusters[0], "")] > 0  # two free GPUs draw idle power: the unallocated line


@pytest.fixture(scope="module")
def in_budget(tmp_path_factory, example_model):
    """Golden tests of the budget scenarios with energy counted in budgets, rendered with their rules; without
    backfill, so that the hub settles each hour within the scenario and its period-to-date checks see them."""
    model = replace(example_model, energy=replace(example_model.energy, in_budget=True),
                    billing=replace(example_model.billing, backfill_hours=0))
    scenarios = tmp_path_factory.mktemp("scenarios")
    for name in BUDGET_SCENARIOS:
        shutil.copy(SCENARIO_DIR / f"{name}.yaml", scenarios)
    out = tmp_path_factory.mktemp("in-budget")
    writer.apply(writer.plan(out, {**rules.artifacts(model), **emit_tests(model, scenarios)}))
    return out


@pytest.mark.parametrize("path", [layout.golden_test("whole-gpu-steady"), layout.golden_test("two-clusters", "hub")])
def test_energy_in_budget_golden_tests_pass(in_budget, path):
    result = run_file(in_budget / path)
    assert result.ok, str(result)
