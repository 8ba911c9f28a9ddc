"""Every registered series (gpudash/model/series.py) is asserted by value in at least one golden test: the
rendered example's (tests/golden-*.test.yaml, read through gpudash/base/layout.py), or for the power series, which
the example does not record (its idle power veto and spoke tier are off), the every_series scenario rendered
with both on and run here with the real promtool."""
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from gpudash.base import layout
from gpudash.model import series as names
from gpudash.ops.promtest import run_file
from gpudash.render import rules, writer
from gpudash.render.golden.emit import SCENARIO_DIR, emit_tests
from tests.conftest import EXAMPLE_RENDERED

EVERY_SERIES = "whole-gpu-steady"  # the scenario with checks: [every_series]
# Series no golden test can assert exactly, with the reason. Keep this as short as possible.
NOT_ASSERTED: dict[str, str] = {}


def asserted_series(folder: Path) -> set[str]:
    """Registered series named in the expression of a golden promql_expr_test that expects samples."""
    found = set()
    for path in sorted((folder / layout.TESTS).glob(f"golden-{layout.TEST_GLOB}")):
        for group in yaml.load(path.read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))["tests"]:
            for test in group.get("promql_expr_test", ()):
                if test.get("exp_samples"):
                    found.update(n for n in names.SERIES
                                 if re.search(rf"(?<![\w:]){re.escape(n)}(?![\w:])", test["expr"]))
    return found


@pytest.fixture(scope="module")
def with_power_veto(tmp_path_factory, example_model) -> Path:
    """The every_series scenario's golden test under the example with a 100 W idle power veto and the spoke tier,
    rendered."""
    idle = replace(example_model.alerts.idle, power_veto_watts=100.0)
    model = replace(example_model, alerts=replace(example_model.alerts, idle=idle),
                    billing=replace(example_model.billing, spoke_tier="policy"))
    scenarios = tmp_path_factory.mktemp("scenarios")
    shutil.copy(SCENARIO_DIR / f"{EVERY_SERIES}.yaml", scenarios)
    out = tmp_path_factory.mktemp("veto")
    writer.apply(writer.plan(out, {**rules.artifacts(model), **emit_tests(model, scenarios)}))
    return out


def test_the_power_veto_golden_test_passes(with_power_veto):
    result = run_file(with_power_veto / layout.golden_test(EVERY_SERIES))
    assert result.ok, str(result)


@pytest.fixture(scope="module")
def asserted(with_power_veto) -> set[str]:
    return asserted_series(EXAMPLE_RENDERED) | asserted_series(with_power_veto)


def test_every_registered_series_is_asserted_by_value(asserted):
    missing = sorted(set(names.SERIES) - asserted - set(NOT_ASSERTED))
    assert not missing, "registered series never asserted by value in a golden test:\n" + "\n".join(missing)


def test_the_reader_sees_an_unasserted_series(tmp_path):
    """The check above can fail: a test without expected samples, or naming a longer series, asserts nothing."""
    tests = tmp_path / layout.TESTS
    tests.mkdir()
    exprs = [{"expr": f"{names.POD_COST_RATE} != 0", "exp_samples": []},
             {"expr": f"{names.TENANT_COST_PTD}_x", "exp_samples": [{"labels": "{}", "value": 1}]},
             {"expr": f"sum({names.HOUR_COST})", "exp_samples": [{"labels": "{}", "value": 1}]}]
    (tests / "golden-x.test.yaml").write_text(yaml.safe_dump({"tests": [{"promql_expr_test": exprs}]}))
    assert asserted_series(tmp_path) == {names.HOUR_COST}


def test_the_allowlist_names_registered_unasserted_series(asserted):
    assert set(NOT_ASSERTED) <= set(names.SERIES)
    assert not set(NOT_ASSERTED) & asserted
