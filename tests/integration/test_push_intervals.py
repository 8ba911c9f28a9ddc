"""Every push interval the schema accepts renders, and its golden tests pass on Prometheus 2 and 3 (issue 26,
defect 10: ``billing.mco_interval`` 1m, 2m or 3m ended in a traceback from the golden emitter).

The push-window rules read ``(t - P, t]``: a range 1 ms shorter than ``P`` (:func:`gpudash.promql.read.window`),
which holds the same minute-aligned samples under Prometheus 2's closed and 3's left-open ranges
(prometheus/prometheus docs/migration.md, "Range selectors and lookback exclude samples coinciding with the left
boundary"). The window semantics themselves are pinned in tests/integration/test_prometheus_versions.py."""
from __future__ import annotations

import subprocess

import pytest
import yaml

from e2e import toolsets
from gpudash import cli
from gpudash.base import layout
from gpudash.model import load_model, model_from_dict
from gpudash.model.load import bundled_example_path
from tests.conftest import render_with_scenarios


def _model(tmp_path, interval: str):
    data = yaml.safe_load(bundled_example_path().read_text())
    data["billing"]["mco_interval"] = interval
    path = tmp_path / "gpudash.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.mark.parametrize("interval", ["1m", "2m", "3m"])
def test_a_push_interval_the_schema_accepts_renders(tmp_path, capsys, interval):
    out = tmp_path / "out"
    assert cli.main(["render", "-c", str(_model(tmp_path, interval)), "-o", str(out), "-j", "1"]) == 0
    assert "Traceback" not in capsys.readouterr().err
    assert (out / layout.golden_test("whole-gpu-steady")).exists()


@pytest.mark.parametrize("toolset", toolsets.params())
def test_the_push_window_golden_test_passes_on_both_versions_at_2m(tmp_path, toolset):
    """The scenario whose last push window starts on a change of activity (whole-gpu-steady at 2m): its golden
    test, expectations from the reference model, passes on this Prometheus version."""
    out = render_with_scenarios(load_model(_model(tmp_path, "2m")), tmp_path, ["whole-gpu-steady"])
    test = layout.golden_test("whole-gpu-steady")
    run = subprocess.run([toolsets.require(toolset).promtool, "test", "rules", test.removeprefix(
        f"{layout.TESTS}/")], cwd=out / layout.TESTS, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]


@pytest.mark.parametrize("toolset", toolsets.params())
def test_golden_tests_of_large_figures_pass_on_both_versions(tmp_path, toolset):
    """Budgets and prices of a currency with large figures (VND-like: 123,456.78 budgets, 98,765.43 per GPU hour)
    get a coarser rounding quantum (gpudash.render.golden.emit._quantum); the golden test that checks them by value
    passes on this Prometheus version."""
    data = yaml.safe_load(bundled_example_path().read_text())
    for t in data["tenants"]:
        t["budget"] = 123456.78 * 10**4
    data["gpu_classes"][0]["price_per_hour"] = 98765.43
    out = render_with_scenarios(model_from_dict(data), tmp_path, ["whole-gpu-steady", "budget-thresholds"])
    tests = [layout.golden_test(name).removeprefix(f"{layout.TESTS}/") for name in ("whole-gpu-steady",
                                                                                   "budget-thresholds")]
    tests = [t for t in tests if (out / layout.TESTS / t).exists()] + [
        layout.golden_test("budget-thresholds", "hub").removeprefix(f"{layout.TESTS}/")]
    run = subprocess.run([toolsets.require(toolset).promtool, "test", "rules", *tests], cwd=out / layout.TESTS,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
