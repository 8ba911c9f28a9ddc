"""The PromQL window semantics gpudash's rules rely on, pinned per Prometheus version (e2e/toolsets.py).

Prometheus 3 made range selectors, subqueries and the lookback left-open (prometheus/prometheus
docs/migration.md, "Range selectors and lookback exclude samples coinciding with the left boundary"). The rules
shift every hour window by 1 ms so both versions count the same steps; these checks fail if a version changes
that again. The lookback cannot be shifted without moving every step's sample: a sample exactly 5 minutes
old is seen by Prometheus 2 but not by 3 and the billing contract ("younger than 5 minutes", section 2). Real
scrapes sit at per-target millisecond offsets, so only step-aligned synthetic data (golden, e2e) can meet it:
their KSM gaps stay shorter than the lookback (checked below).
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

from e2e import toolsets
from gpudash.promql.build import window
from gpudash.render.golden.emit import SCENARIO_DIR
from gpudash.simulation.scenario import LOOKBACK, load_files, minutes

HOUR_STEPS = 60  # one clock hour of 1-minute steps


def _check(toolset: str, tmp_path: Path, expr: str, at: str, values: str, expected: float | None) -> None:
    """``expr`` at ``at`` over one series ``x`` sampled every minute from 0 with ``values`` (promtool notation)
    equals ``expected`` (None: no result), checked by ``promtool test rules`` of ``toolset``."""
    exp = [] if expected is None else [{"labels": "{}", "value": expected}]
    test = {"rule_files": [], "evaluation_interval": "1m", "tests": [{
        "interval": "1m", "input_series": [{"series": "x", "values": values}],
        "promql_expr_test": [{"expr": f"sum({expr})", "eval_time": at, "exp_samples": exp}]}]}
    path = tmp_path / "semantics.test.yaml"
    path.write_text(yaml.safe_dump(test))
    out = subprocess.run([toolsets.require(toolset).promtool, "test", "rules", path.name], cwd=tmp_path,
                         capture_output=True, text=True)
    assert out.returncode == 0, f"{expr} at {at} (values {values}):\n{out.stdout}{out.stderr}"


@pytest.mark.parametrize("toolset", toolsets.params())
def test_shifted_hour_windows_count_the_same_steps(toolset, tmp_path):
    steady = "1+0x120"
    # an hour-aligned evaluation: the 1 ms shifts keep exactly the steps [t - 1h, t) on every version
    _check(toolset, tmp_path, "count_over_time(x[1h] offset 1ms)", "2h", steady, HOUR_STEPS)
    _check(toolset, tmp_path, "count_over_time(x[59m59s999ms])", "2h", steady, HOUR_STEPS)
    _check(toolset, tmp_path, "sum_over_time((x)[1h:1m] offset 1ms)", "2h", steady, HOUR_STEPS)
    # a push window (gpudash.promql.build.window): the 5 steps of (t - 5m, t] on every version
    _check(toolset, tmp_path, f"count_over_time(x[{window(300)}])", "10m", steady, 5)
    # the unshifted hour is where the versions differ: both ends under 2, the right end only under 3
    _check(toolset, tmp_path, "count_over_time(x[1h])", "2h", steady, HOUR_STEPS + (toolset == "2"))


@pytest.mark.parametrize("toolset", toolsets.params())
def test_lookback_of_a_sample_exactly_five_minutes_old(toolset, tmp_path):
    gap = f"1 1 {' '.join('_' * LOOKBACK)} 1"  # samples at 0m, 1m and 7m
    seen_at_6m = 1 if toolset == "2" else None  # the 1m sample is exactly LOOKBACK old at 6m
    _check(toolset, tmp_path, "x", f"{1 + LOOKBACK}m", gap, seen_at_6m)
    _check(toolset, tmp_path, "x", f"{LOOKBACK}m", gap, 1)


def test_synthetic_ksm_gaps_stay_shorter_than_the_lookback():
    """Golden scenarios and the e2e month are step-aligned: a KSM gap of LOOKBACK minutes or more would bill
    one step more on Prometheus 2 than the reference model (and 3) at the gap's last minute."""
    from e2e import pipeline

    _, mock = pipeline.load()
    gaps = [(raw["name"], minutes(f.get("minutes", 0)))
            for raw in load_files(SCENARIO_DIR) for f in raw.get("faults") or ()
            if f["kind"] == "missed_scrapes" and f.get("job", "ksm") == "ksm"]
    gaps += [("e2e month", f.minutes) for f in mock.scenario.faults if f.kind == "missed_scrapes" and f.job == "ksm"]
    assert gaps, "no scenario has a KSM gap: this check no longer checks anything"
    assert all(minutes < LOOKBACK for _, minutes in gaps), gaps


@pytest.mark.parametrize(("ci", "outcome"), [("true", "1 failed"), ("", "1 skipped")])
def test_a_missing_version_fails_in_ci_and_skips_elsewhere(tmp_path, ci, outcome):
    """``.ci/run`` sets CI=true: a 3.x toolset that is not there must fail the run, never skip it."""
    import os
    import sys

    test = f"{Path(__file__).name}::test_lookback_of_a_sample_exactly_five_minutes_old[prometheus3]"
    env = {**os.environ, "CI": ci, "GPUDASH_PROMETHEUS3_DIR": str(tmp_path / "nothing-here")}
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", test],
                         cwd=Path(__file__).parent, env=env, capture_output=True, text=True, timeout=120)
    assert outcome in out.stdout, out.stdout[-2000:]
    assert "scripts/fetch-prometheus3.sh" in out.stdout
    assert (out.returncode != 0) == (ci == "true"), out.stdout[-2000:]


@pytest.mark.parametrize("toolset", toolsets.params())
def test_idle_observed_before_the_window_excludes_its_left_edge(toolset, tmp_path, example_model):
    """The idle rule's "observed before the window" range, ``[1.5P] offset W``: a push exactly 1.5 push intervals
    before the window starts is outside on both versions (the full range held it under 2 only)."""
    from gpudash.model import series as names
    from gpudash.promql.read import fresh_seconds
    from gpudash.render.rules.idle import observed_before

    # the one push, at 0: exactly 1.5 push intervals before the window that starts W before the evaluation
    at = f"{fresh_seconds(example_model.billing.mco_interval) + example_model.alerts.idle.window}s"
    series = f'{names.POD_ACTIVITY_MAX}{{namespace="a", pod="p"}}'
    test = {"rule_files": [], "evaluation_interval": "1m", "tests": [{
        "interval": "1m", "input_series": [{"series": series, "values": "1"}],
        "promql_expr_test": [{"expr": f"sum({observed_before(example_model)})", "eval_time": at,
                              "exp_samples": []}]}]}
    path = tmp_path / "idle.test.yaml"
    path.write_text(yaml.safe_dump(test))
    out = subprocess.run([toolsets.require(toolset).promtool, "test", "rules", path.name], cwd=tmp_path,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
