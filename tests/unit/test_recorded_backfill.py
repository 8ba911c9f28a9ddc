"""A report refuses a model whose billing.backfill_hours the recorded series contradict (#44 point 2): the spokes'
hourly rows carry no lag label without backfill and 1..N + 1 with N (gpudash.render.rules.spoke), and the check
reads which of them the period holds."""
from __future__ import annotations

import dataclasses

import pytest

from gpudash.base.errors import GpudashError
from gpudash.model import load_bundled_example
from gpudash.model.series import LAG_LABEL
from gpudash.ops.report import common
from gpudash.queries import report_queries as queries

START, END, NOW = 0, 24 * 3600, 3 * 24 * 3600


class Recorded:
    """A Prometheus answering the check's one query with a row per lag label value (None: no label)."""

    shown = "http://hub.example"

    def __init__(self, *lags: str | None, partial: bool = False):
        self.partial = partial  # the query API warned: some stores did not answer
        self.rows = [({} if lag is None else {LAG_LABEL: lag}, 1.0) for lag in lags]
        self.asked: list[tuple[str, float]] = []

    def query(self, expr: str, time: float, figures: bool = True):
        self.asked.append((expr, time))
        return self.rows


def model(backfill: int):
    example = load_bundled_example()
    return dataclasses.replace(example, billing=dataclasses.replace(example.billing, backfill_hours=backfill))


@pytest.mark.parametrize("backfill,lags", [
    (24, [str(k) for k in range(1, 26)]),  # the example: the tier and 24 h of backfill
    (0, [None]),  # no backfill: no lag label
    (24, []),  # nothing recorded: the other checks speak for an empty period
])
def test_the_settings_the_series_were_recorded_with_pass(backfill, lags):
    prom = Recorded(*lags)
    common.check_recorded_backfill(prom, model(backfill), queries.Scope(), START, END, NOW)
    ((expr, at),) = prom.asked
    assert f"count by ({LAG_LABEL})" in expr and at == END + (backfill + 2) * 3600  # the period's last read


@pytest.mark.parametrize("backfill,lags,recorded", [
    (24, [None], "0"),  # the demo's Prometheus read with the example model: 25.39 USD instead of 607.05
    (0, [str(k) for k in range(1, 26)], "24"),
    (12, [str(k) for k in range(1, 26)], "24"),
    (24, [None, *(str(k) for k in range(1, 26))], "0 and 24"),  # a change of setting inside the period
])
def test_a_model_with_other_settings_is_refused_in_one_line(backfill, lags, recorded):
    with pytest.raises(GpudashError) as err:
        common.check_recorded_backfill(Recorded(*lags), model(backfill), queries.Scope(), START, END, NOW)
    text = str(err.value)
    assert "\n" not in text and f"backfill_hours {recorded} " in text and f"says {backfill} " in text, text


def test_a_partial_answer_settles_nothing():
    """Rows from some stores only: the partial refusal (or --allow-partial's marking) speaks, not this check."""
    common.check_recorded_backfill(Recorded(None, partial=True), model(24), queries.Scope(), START, END, NOW)


def test_a_tenants_check_reads_only_its_namespace():
    prom = Recorded()
    common.check_recorded_backfill(prom, model(24), queries.Scope(namespace="team-a"), START, END, NOW)
    assert 'namespace="team-a"' in prom.asked[0][0]
