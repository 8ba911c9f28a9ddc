"""The hourly figures references of one single-cluster scenario share (gpudash/simulation/cluster_free.py): read,
never recomputed, by the scenario moved to another cluster, renamed to it, and never its prices (the bundled example
prices energy per cluster: prod-west's tariff is not prod-east's)."""
import pytest

from gpudash.simulation import cluster_free
from gpudash.simulation import scenario as sc
from gpudash.simulation.caches import clear_caches
from gpudash.simulation.cluster_free import SHARED, SharedFigures, on_cluster
from gpudash.simulation.reference import Reference

HOURS = range(3)


def _scenario(model, duration: str = "3h") -> sc.Scenario:
    raw = {"name": "t", "protects": "p", "duration": duration,
           "nodes": [{"name": "n1", "gpu": {"class": model.gpu_classes[0].name}, "count": 2}],
           "pods": [{"name": "p", "tenant": 0, "node": "n1", "lifecycle": [{"at": "10m", "phase": "Running"}],
                     "containers": [{"name": "c", "requests": {"gpu": 1}}]}]}
    return sc.resolve(raw, model)


def _figures(ref: Reference) -> dict:
    """Every figure the emitter reads per hour: the shared ones and those priced per cluster."""
    out = {}
    for h in HOURS:
        out |= {(f, h): getattr(ref, f)(h) for f in SHARED}
        out |= {("energy_lines", h): ref.energy_lines(ref.energy(h)),
                ("hour_costs", h): ref.hour_costs(ref.gpu_hours(h), ref.energy(h))}
    return out | {("period_to_date", 0): ref.period_to_date_by_cluster(4 * 60)}


@pytest.fixture
def counted(monkeypatch):
    """{figure: times Reference computed it}."""
    calls = dict.fromkeys(SHARED, 0)
    def counting(figure: str):
        computed = getattr(Reference, figure)

        def count(self, hour, since=0):
            calls[figure] += 1
            return computed(self, hour, since)
        return count

    for figure in SHARED:
        monkeypatch.setattr(Reference, figure, counting(figure))
    yield calls
    clear_caches()


def test_a_moved_scenario_reads_the_figures_renamed_and_prices_its_own(example_model, counted):
    s = _scenario(example_model)
    east, west = example_model.clusters
    assert s.clusters == (east,) and example_model.energy.price(east) != example_model.energy.price(west)
    _figures(SharedFigures(s, example_model))
    computed = dict(counted)
    moved = _figures(SharedFigures(on_cluster(s, west), example_model))
    assert counted == computed  # nothing computed again
    clear_caches()
    alone = _figures(Reference(on_cluster(s, west), example_model))
    assert moved == alone  # the figures, the energy lines' costs and the period to date at prod-west's tariff
    assert moved[("energy_lines", 1)] and all(k[0] == west for k in moved[("energy_lines", 1)])


def test_the_spoke_s_own_reference_shares_them_and_prices_at_the_model_wide_tariff(example_model, counted):
    s = _scenario(example_model)
    hub, spoke = SharedFigures(s, example_model), SharedFigures(s, example_model, labelled=False)
    assert _figures(spoke) == _figures(Reference(s, example_model, labelled=False))
    computed = dict(counted)
    _figures(hub)
    assert counted == computed


def test_scenarios_that_differ_in_more_than_their_cluster_share_nothing(example_model, counted):
    SharedFigures(_scenario(example_model), example_model).energy(1)
    SharedFigures(_scenario(example_model, "4h"), example_model).energy(1)
    assert counted["energy"] == 2


def test_a_figure_keyed_by_another_cluster_is_never_renamed():
    with pytest.raises(ValueError, match="keyed by another cluster"):
        cluster_free._renamed("prod-east", {("prod-west", "ns"): 1.0}, "prod-03")
