"""Late hours (issue 30): with ``billing.backfill_hours`` N (24 by default with the spoke tier) every push carries the
hourly figures of the previous hour and the N before it, and the hub settles each hour once, N + 1 hours after it
ends. The golden outage scenarios (one cluster for 1 h, 3 h and 23 h across a month boundary, every cluster for
25 h) are the bundled example's, which the golden suite runs on both Prometheus versions against the reference
model, and deliberate rule mistakes (an hour taken from the last lag only, taken twice, a lost hour not shown, lags
one hour off) each fail one of them."""
import re
import shutil

import pytest
import yaml

from gpudash.base import layout
from gpudash.base.errors import InputError
from gpudash.model import model_from_dict
from gpudash.model import series as names
from gpudash.model.types import DEFAULT_BACKFILL_HOURS
from gpudash.ops.promtest import run_file
from gpudash.promql import build as q
from gpudash.promql import calendar, read
from gpudash.render import writer
from gpudash.render.golden import emit
from gpudash.render.rules import hub, spoke
from tests.conftest import generate_without_golden, golden_kind, render_with_scenarios, scenario_folder
from tests.unit.test_mco_settings import example

OUTAGES = ("outage-cluster-1h", "outage-cluster-3h", "outage-hub-25h", "outage-cluster-23h-month-end")
# every lag of every hourly spoke rule (a spoke file and its tier file), then the push path's outages
SCENARIOS = ("backfill-lags", *OUTAGES)
HOURLY = (names.HOURLY_GPU_HOURS, names.STEPS_OBSERVED, names.NODE_ACTIVE_GPUS_MAX, names.HOURLY_ENERGY)


@pytest.fixture(scope="module")
def model():
    return model_from_dict(example(**{"billing.spoke_tier": "policy"}))


@pytest.fixture(scope="module")
def small(model, tmp_path_factory):
    """The scenarios the mutations are checked against (seconds to emit, without the month-long one)."""
    return render_with_scenarios(model, tmp_path_factory.mktemp("backfill-small"),
                                 {re.sub("-(hub|settled)$", "", test) for _, test in MUTATIONS.values()})


def test_the_default_needs_the_tier_and_is_bounded(example_model, model):
    assert model.billing.backfill_hours == example_model.billing.backfill_hours == DEFAULT_BACKFILL_HOURS == 24
    plain = model_from_dict(example(**{"billing.spoke_tier": "none"}))
    assert plain.billing.backfill_hours == 0
    assert read.delay(model) == 26 * 3600 and read.delay(plain) == read.READ_DELAY
    with pytest.raises(InputError, match=r"billing\.backfill_hours: 3 needs billing\.spoke_tier: policy"):
        model_from_dict(example(**{"billing.spoke_tier": "none", "billing.backfill_hours": 3}))
    with pytest.raises(InputError, match=r"backfill_hours"):
        model_from_dict(example(**{"billing.spoke_tier": "policy", "billing.backfill_hours": 73}))
    off = model_from_dict(example(**{"billing.spoke_tier": "policy", "billing.backfill_hours": 0}))
    assert not any(names.LAG_LABEL in r.expr for r in spoke.rules(off))


def test_every_hourly_rule_carries_each_hour_once(model):
    """Each hourly spoke rule returns lags 1..25, lag k read k - 1 hours back; nothing else is lagged."""
    rules = {r.record: r.expr for r in spoke.rules(model)}
    for record, expr in rules.items():
        lags = [int(part.split('"')[0]) for part in expr.split(f'"{names.LAG_LABEL}", "')[1:]]
        if record in HOURLY:
            assert lags == list(range(1, 26)), record
            assert "offset 24h" in expr and "offset 25h" not in expr, record
        else:
            assert not lags, record


def test_reports_read_each_hour_where_the_hub_settles_it(model):
    from gpudash.ops.report import common
    from gpudash.ops.report.period import readable_until

    calls = []

    class Hub:
        def query_range(self, expr, start, end, step):
            calls.append((start, end, step))
            return [({"cluster": "c"}, [(start, 1.0)])]

    delay = read.delay(model)
    got = common.read_hourly(Hub(), {"x": "x"}, 7 * 3600, 10 * 3600, delay)
    assert calls == [(7 * 3600 + delay, 9 * 3600 + delay, 3600)] and got["x"][0][1] == 7 * 3600
    assert readable_until(100 * 3600, 40 * 3600, delay) == 15 * 3600  # hour 14:00 is final at 14:00 + 26 h = 40:00
    assert "H + 26h" in common.not_final_warning(15 * 3600, 100 * 3600, delay)


def test_the_golden_suite_runs_the_outage_scenarios(rendered, example_model, model):
    """The bundled example is this model (the tier and its backfill are its defaults), so
    tests/integration/test_golden_suite.py runs these scenarios against the reference on both versions: the lags
    and each complete hour settled (``-settled``), and the outages on the push path."""
    assert example_model.billing == model.billing
    index = yaml.safe_load((rendered / layout.GOLDEN_INDEX).read_text())["scenarios"]
    for name in SCENARIOS:
        want = {"backfill-lags": ("spoke", "tier", "settled")}.get(name, ("hub",))
        files = {f"{layout.TESTS}/{f}" for f in index[name].get("files", ())}
        assert files == {emit.file_of(name, kind, model) for kind in want}, (name, index[name])


def _only_the_last_lag(model, series, matchers, by, step):
    """The hour taken only from the pushes of the hour the hub settles it in (the oldest lag)."""
    rows = q.selector(series, *matchers, (names.LAG_LABEL, "=", str(model.billing.backfill_hours + 1)))
    return q.agg("max", by, calendar.pushed_this_hour(rows, (*by, names.LAG_LABEL), hub._LOOKBACK))


def _every_lag_added(real):
    """The hour taken from every push that carried it, added up: an hour billed more than once."""
    return lambda model, series, matchers, by, step: real(model, series, matchers, by, step).replace(
        "max by", "sum by", 1)


def _no_lost_hour_rows(real):
    """Coverage without the zero rows of model clusters nothing delivered: a lost hour silently absent."""
    return lambda model: real(model).rsplit(" or on (cluster) ((", 1)[0]


def _lags_one_hour_off(real):
    """Lag k read k hours back instead of k - 1: every backfilled hour labelled as the next one."""
    return lambda per_hour, hours_before=0: real(per_hour, hours_before + 1 if hours_before else 0)


MUTATIONS = {
    "only the last lag": ((hub, "_settled", lambda real: _only_the_last_lag), "outage-hub-25h-hub"),
    "every lag added": ((hub, "_settled", _every_lag_added), "outage-cluster-1h-hub"),
    "every lag added, settled": ((hub, "_settled", _every_lag_added), "backfill-lags-settled"),
    "no lost-hour row": ((hub, "_coverage", _no_lost_hour_rows), "outage-hub-25h-hub"),
    "lags one hour off": ((spoke, "_at_last_hour_boundary", _lags_one_hour_off), "backfill-lags"),
}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_a_wrong_settling_fails_a_golden_test(model, small, tmp_path, monkeypatch, mutation):
    (module, attr, wrap), test = MUTATIONS[mutation]
    monkeypatch.setattr(module, attr, wrap(getattr(module, attr)))
    files = generate_without_golden(model)
    rules = (layout.SPOKE_TIER_RULES, layout.SPOKE_RULES, layout.HUB_RULES)
    writer.apply(writer.plan(tmp_path, {p: files[p] for p in rules}))
    (tmp_path / layout.TESTS).mkdir()
    name = emit.file_of(*golden_kind(test, "spoke"), model, scenario_folder(small)).rpartition("/")[2]
    shutil.copy(small / layout.TESTS / name, tmp_path / layout.TESTS / name)
    result = run_file(tmp_path / layout.TESTS / name)
    assert not result.ok, f"{mutation}: {test} still passes"


def test_without_backfill_there_is_no_lag():
    """No lag label anywhere without backfill (the tier on or off)."""
    for tier in ("policy", "none"):
        model = model_from_dict(example(**{"billing.spoke_tier": tier, "billing.backfill_hours": 0}))
        files = generate_without_golden(model)
        text = "\n".join(str(v) for v in files.values())
        assert names.LAG_LABEL not in text, tier
