"""The CCSP and attribution golden scenarios under both exporter label conventions (issue 28, issue 29 item 6).

The bundled example scrapes dcgm-exporter without honorLabels (``exported_namespace``) and the AMD exporter with it
(``namespace``), and the golden suite runs every scenario that way (tests/integration/test_golden_suite.py). Here the
example is rendered with each exporter's convention flipped and the scenarios whose figures depend on the exporters'
pod labels run through its rules on every pinned Prometheus version: the synthesiser writes the labels Prometheus
stores under that convention (gpudash.simulation.series.scraped) and the reference model's figures must not move."""
import pytest

from e2e import pipeline, toolsets
from gpudash.base import layout
from gpudash.ops import promtest
from tests.conftest import render_with_scenarios

# every scenario whose figures read the GPU exporters' pod attribution
SCENARIOS = ("ccsp-idle-amd", "ccsp-idle-exporter-pod", "ccsp-init-sidecar", "ccsp-mig-attributed",
             "ccsp-mig-init-unseen", "energy-busy-idle", "mig-mixed-shared", "time-sliced-shared", "amd-gpu")


@pytest.fixture(scope="module")
def rendered_convention(tmp_path_factory, example_model):
    """The example with both conventions flipped (only these scenarios' golden tests). Under its own conventions
    the same files run in the golden suite, on both versions."""
    out = render_with_scenarios(pipeline.other_convention(example_model), tmp_path_factory.mktemp("flipped"),
                                SCENARIOS)
    tests = out / layout.TESTS
    for settled in [*tests.glob(layout.golden_test("*", "settled").split("/")[-1]),
                    *tests.glob(layout.golden_shared("settled").split("/")[-1])]:
        settled.unlink()  # the reference's pushes into the hub rules: no exporter label in them, as in the suite
    return out


def test_the_conventions_are_flipped(example_model):
    src, flipped = example_model.sources, pipeline.other_convention(example_model).sources
    assert {src.dcgm.tenant_label, flipped.dcgm.tenant_label} == {"namespace", "exported_namespace"}
    assert {src.amd.tenant_label, flipped.amd.tenant_label} == {"namespace", "exported_namespace"}


@pytest.mark.parametrize("toolset", toolsets.params())
def test_golden_scenarios_under_each_convention(rendered_convention, toolset):
    results = promtest.run_promtool_tests(rendered_convention, jobs=1, promtool=toolsets.require(toolset).promtool)
    assert len(results) >= len(SCENARIOS)
    failed = [str(r) for r in results if not r.ok]
    assert not failed, "\n".join(failed)
