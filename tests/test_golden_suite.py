"""Render the bundled example with its golden tests and run every promtool test file, with the promtool of
every pinned Prometheus version (e2e/toolsets.py)."""
import time

import pytest

from e2e import toolsets
from gpudash import artifacts, layout, writer
from gpudash.model import load_bundled_example
from gpudash.promtest import run_promtool_tests


def render(directory) -> None:
    """Every artifact of the bundled example, golden tests included, written by the project's writer."""
    writer.apply(writer.plan(directory, artifacts.generate(load_bundled_example())))


@pytest.fixture(scope="module")
def golden_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("rendered")
    render(out)
    return out


@pytest.mark.parametrize("toolset", toolsets.params())
def test_every_golden_test_passes(golden_dir, toolset):
    promtool = toolsets.require(toolset).promtool
    start = time.monotonic()
    results = run_promtool_tests(golden_dir, promtool=promtool)
    seconds = time.monotonic() - start
    print(f"\n{len(results)} golden test files in {seconds:.1f} s ({promtool})")
    assert len(results) >= 25
    failed = [str(r) for r in results if not r.ok]
    assert not failed, "\n".join(failed)  # its run time is a benchmark figure, printed, never a pass condition


def test_sub_minute_models_get_the_index_only():
    """Scenarios are in whole minutes: a 30 s resolution/push model renders, and says why it has no golden tests."""
    from gpudash.golden.emit import emit_tests
    from gpudash.model import model_from_dict

    model = model_from_dict({
        "billing": {"resolution": "30s", "mco_interval": "30s"},
        "gpu_classes": [{"name": "l4", "vendor": "nvidia", "products": ["NVIDIA L4"], "price_per_hour": 1}],
        "tenants": [{"name": "t", "namespace": "t", "budget": 1}], "clusters": ["c"]})
    files = emit_tests(model)
    assert list(files) == [layout.GOLDEN_INDEX]
    assert "whole minutes" in files[layout.GOLDEN_INDEX]["skipped_all"]


def test_the_tests_folder_holds_only_promtool_tests(golden_dir):
    """``promtool test rules tests/*.yaml`` (kubernetes-mixin's habit) must meet only test files: the golden
    scenario index lives out of that glob's reach."""
    import yaml

    assert (golden_dir / layout.GOLDEN_INDEX).is_file()
    found = sorted((golden_dir / layout.TESTS).glob("*.yaml"))
    assert found == sorted((golden_dir / layout.TESTS).glob(layout.TEST_GLOB))
    for path in found:
        data = yaml.safe_load(path.read_text())
        assert data["rule_files"] and data["tests"], path.name
