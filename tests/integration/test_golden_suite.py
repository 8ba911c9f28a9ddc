"""Every promtool test file of the rendered example (the session's render, golden tests included), with the
promtool of every pinned Prometheus version (e2e/toolsets.py), in batches whose failures name their file."""
import time

import pytest
import yaml

from e2e import toolsets
from gpudash.base import layout
from gpudash.ops import promtest


@pytest.mark.parametrize("toolset", toolsets.params())
def test_every_golden_test_passes(rendered, toolset):
    promtool = toolsets.require(toolset).promtool
    start = time.monotonic()
    results = promtest.run_promtool_tests(rendered, promtool=promtool)
    seconds = time.monotonic() - start
    print(f"\n{len(results)} golden test files in {seconds:.1f} s ({promtool})")
    assert len(results) >= 25
    failed = [str(r) for r in results if not r.ok]
    assert not failed, "\n".join(failed)  # its run time is a benchmark figure, printed, never a pass condition


def test_sub_minute_models_get_the_index_only():
    """Scenarios are in whole minutes: a 30 s resolution/push model renders, and says why it has no golden tests."""
    from gpudash.model import model_from_dict
    from gpudash.render.golden.emit import emit_tests

    model = model_from_dict({
        "billing": {"resolution": "30s", "mco_interval": "30s"},
        "gpu_classes": [{"name": "l4", "vendor": "nvidia", "products": ["NVIDIA L4"], "price_per_hour": 1}],
        "tenants": [{"name": "t", "namespace": "t", "budget": 1}], "clusters": ["c"]})
    files = emit_tests(model)
    assert list(files) == [layout.GOLDEN_INDEX]
    assert "whole minutes" in files[layout.GOLDEN_INDEX]["skipped_all"]


def test_the_tests_folder_holds_only_promtool_tests(rendered):
    """``promtool test rules tests/*.yaml`` (kubernetes-mixin's habit) must meet only test files: the golden
    scenario index lives out of that glob's reach."""
    from tests.conftest import load_yaml

    assert (rendered / layout.GOLDEN_INDEX).is_file()
    found = sorted((rendered / layout.TESTS).glob("*.yaml"))
    assert found == sorted((rendered / layout.TESTS).glob(layout.TEST_GLOB))
    for path in found:
        data = load_yaml(path)
        assert data["rule_files"] and data["tests"], path.name


@pytest.mark.parametrize("toolset", toolsets.params())
def test_a_batch_names_the_file_that_failed(tmp_path, toolset):
    """Several files in one promtool process: the result of each file is its own, the failure text too."""
    promtool = toolsets.require(toolset).promtool

    def write(name: str, value: int) -> None:
        check = {"expr": "x", "eval_time": "1m", "exp_samples": [{"labels": "x", "value": value}]}
        test = {"rule_files": [], "tests": [{"interval": "1m", "input_series": [{"series": "x", "values": "1 1"}],
                                             "promql_expr_test": [check]}]}
        (tmp_path / name).write_text(yaml.safe_dump(test))

    for name, value in (("a.test.yaml", 1), ("b.test.yaml", 7), ("c.test.yaml", 1)):
        write(name, value)
    (batch,) = promtest._batches(promtest.test_files(tmp_path), 1)
    results = {r.file: r for r in promtest.run_batch(batch, promtool)}
    assert {f: r.ok for f, r in results.items()} == {"a.test.yaml": True, "b.test.yaml": False, "c.test.yaml": True}
    assert "exp: {__name__=\"x\"} 7E+00" in "\n".join(results["b.test.yaml"].failures)
