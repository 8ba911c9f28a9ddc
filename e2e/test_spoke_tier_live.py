"""The spoke tier's group on a live Prometheus when its first rule fails at some steps.

promtool's unit tests stop at the first rule evaluation error, so what a failed rule leaves behind is proven here:
the mock exporter scraped every second, the rendered tier group evaluated every 2 s, and a test series whose two
copies make the first rule (the per-pod allocation of the step) fail while they are exposed. A failed rule writes
no sample and no staleness marker (prometheus/prometheus rules/group.go ``Group.Eval``), so its rows of the step
before stay within the lookback; the tier's other rules must write nothing at such a step (the step is not
observed, so not billed and alerted), never that step-before's figures. A second server runs a mutant that reads the
per-pod rows without the sentinel's timestamp, and must be caught. About 25 s, both Prometheus versions at once.
The second test fails each later billed rule in turn (issue #47): the heartbeat must miss every such step, and a
mutant heartbeat that needs only the first rule's sentinel must be caught. About 30 s."""
from __future__ import annotations

import contextlib
import http.server
import threading
import time
from pathlib import Path

import pytest

from e2e import toolsets
from e2e.test_live import _live_model, _scrape_configs, _sleep_until
from gpudash.model import series as names
from gpudash.ops.mock.server import MockServer
from gpudash.render import writer
from gpudash.render.rules import format as format_rules
from gpudash.render.rules import spoke, spoke_tier

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

INTERVAL = 2  # seconds between the tier group's evaluations here (billing.resolution is at least 10 s)
FAILING = (8.0, 14.0)  # seconds after the start during which the failure series is exposed
RUN = 22.0
FAILURE = "gpudash_test_failure"
# two copies of FAILURE on one side of a one-to-one match: a query error while they are exposed, nothing otherwise
TRIGGER = f"(vector(1) * on () group_left () {FAILURE} or vector(1))"


class _Failure(http.server.BaseHTTPRequestHandler):
    exposed = False
    rule = ""  # the rule whose trigger (_trigger) the exposed copies fire, "" for TRIGGER's

    def do_GET(self):  # noqa: N802 (http.server's name)
        copies = (f'{FAILURE}{{rule="{_Failure.rule}", copy="{c}"}} 1\n' for c in "ab")
        body = "".join(copies) if _Failure.exposed else ""
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args):
        pass


def _rules(model, monkeypatch, out: Path, gated: bool) -> Path:
    """The rendered tier group at INTERVAL, its first rule made to fail with TRIGGER (and, for the mutant, the
    per-pod rows read without the sentinel's timestamp)."""
    with monkeypatch.context() as m:
        real = spoke.pod_step
        m.setattr(spoke, "pod_step", lambda model: f"({real(model)}) and on () {TRIGGER}")
        if not gated:
            m.setattr(spoke, "recorded_now", lambda series: f'{series}{{{names.SENTINEL_LABEL}=""}}')
        data = format_rules.rule_file((spoke_tier.group(model),))
    data["groups"][0]["interval"] = f"{INTERVAL}s"
    writer.apply(writer.plan(out, {"tier.rules.yaml": data}))
    return out / "tier.rules.yaml"


@contextlib.contextmanager
def _scraped(tmp_path: Path, model):
    """The mock exporter and the failure target running; yields the Prometheus config that scrapes both every
    second and evaluates every INTERVAL."""
    mock_file = tmp_path / "live.mock.yaml"
    mock_file.write_text((Path(__file__).parent / "data" / "live.mock.yaml").read_text())
    server = MockServer(mock_file, model, port=0).start()
    failure = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Failure)
    threading.Thread(target=failure.serve_forever, daemon=True).start()
    try:
        scrape = [{**job, "scrape_interval": "1s"} for job in _scrape_configs(server.address, model)]
        scrape.append({"job_name": "gpudash-test-failure", "scrape_interval": "1s",
                       "static_configs": [{"targets": [f"127.0.0.1:{failure.server_address[1]}"]}]})
        yield {"global": {"scrape_interval": "1s", "evaluation_interval": f"{INTERVAL}s"}, "scrape_configs": scrape}
    finally:
        server.stop()
        failure.shutdown()
        _Failure.exposed, _Failure.rule = False, ""


def _stamps(prom, series: str, start: float, end: float) -> set[float]:
    return {t for _, samples in prom.samples(series, start, end) for t, _ in samples}


def test_a_failed_first_rule_leaves_the_step_unobserved(tmp_path, prometheus_factory, monkeypatch):
    """Every pinned version side by side, each with the rendered group and the mutant (the test waits on the wall
    clock, so the four servers share its seconds)."""
    model = _live_model(spoke_tier="policy")
    with _scraped(tmp_path, model) as config:
        rules = {gated: _rules(model, monkeypatch, tmp_path / f"rules-{gated}", gated) for gated in (True, False)}
        servers = {(name, gated): prometheus_factory(f"tier-{name}-{gated}", toolset=name, config_extra=config,
                                                     rule_files=[rules[gated]])
                   for name in toolsets.NAMES for gated in (True, False)}
        t0 = time.time()
        _sleep_until(t0 + FAILING[0])
        _Failure.exposed = True
        _sleep_until(t0 + FAILING[1])
        _Failure.exposed = False
        _sleep_until(t0 + RUN)
        end = time.time()
        # every rule after the first but the energy split, which reads the exporters and not the allocation (its
        # step's figure is measured whether or not the allocation's rule ran)
        derived = [r.record for r in spoke_tier.group(model).rules[1:] if r.record != names.TIER_ENERGY]
        seen = {}
        for (name, gated), prom in servers.items():
            ran = _stamps(prom, names.TIER_KSM_UP, t0, end) | _stamps(prom, names.TIER_ALLOCATED, t0, end)
            recorded = _stamps(prom, f'{names.TIER_POD_STEP}{{{names.SENTINEL_LABEL}="1"}}', t0, end)
            failed = sorted(t for t in ran if t not in recorded)
            seen[name, gated] = {series: sorted(_stamps(prom, series, t0, end) - recorded) for series in derived}
            assert len(recorded) >= 4, (name, gated, sorted(recorded), prom.log_tail())
            # the mock's steady pods are billed before and after the failing window
            billed = _stamps(prom, names.TIER_ALLOCATED, t0, end) & recorded
            assert min(billed) < t0 + FAILING[0] and max(billed) > t0 + FAILING[1], (name, gated, sorted(billed))
            assert "many-to-many" in prom.log_path.read_text(), (name, gated, "the first rule never failed")
            if not gated:
                assert failed, (name, "the mutant wrote nothing at a failed step: the test could not catch it")
        for name in toolsets.NAMES:
            assert seen[name, True] == {series: [] for series in derived}, (name, seen[name, True])
            assert any(seen[name, False].values()), (name, seen[name, False])


# each billed rule of the tier after the first fails in a window of its own, one after the other
BILLED_START, BILLED_WINDOW, BILLED_RUN = 6.0, 5.0, 30.0


def _trigger(record: str) -> str:
    """As TRIGGER, for the copies of FAILURE labelled with ``record`` only."""
    return f'(vector(1) * on () group_left () {FAILURE}{{rule="{record}"}} or vector(1))'


def _billed_rules(model, out: Path, gated: bool) -> tuple[Path, list[str]]:
    """The rendered tier group at INTERVAL, each rule between the first and the heartbeat made to fail while its
    copies of FAILURE are exposed; for the mutant, the heartbeat as it was before issue #47 (the per-pod step's
    sentinel only). Returns the rule file and those rules, in order."""
    data = format_rules.rule_file((spoke_tier.group(model),))
    rules = data["groups"][0]["rules"]
    records = [r["record"] for r in rules]
    billed = records[1:records.index(names.TIER_KSM_UP)]
    for rule in rules:
        if rule["record"] in billed:
            rule["expr"] = f"({rule['expr']}) and on () {_trigger(rule['record'])}"
        if rule["record"] == names.TIER_KSM_UP and not gated:
            rule["expr"] = f"{spoke._ksm_up_raw(model)} and {spoke._fresh(names.TIER_POD_STEP)}"
    data["groups"][0]["interval"] = f"{INTERVAL}s"
    writer.apply(writer.plan(out, {"tier.rules.yaml": data}))
    return out / "tier.rules.yaml", billed


def test_a_failed_billed_rule_leaves_the_step_unobserved(tmp_path, prometheus_factory):
    """Issue #47: the allocation, GPU-equivalents, active-GPUs and energy rules each fail in turn (the first rule's
    failure is the test above). The group goes on past a failing rule (rules/group.go ``Group.Eval``), so the
    rules after it still record; the heartbeat must not, so the step is unobserved: short and alerted. The mutant
    heartbeat (the per-pod step's sentinel only) must count such steps, or this test could not catch it."""
    model = _live_model(spoke_tier="policy")
    with _scraped(tmp_path, model) as config:
        made = {gated: _billed_rules(model, tmp_path / f"billed-{gated}", gated) for gated in (True, False)}
        billed = made[True][1]
        assert names.TIER_ALLOCATED in billed and names.TIER_ENERGY in billed, billed
        servers = {(name, gated): prometheus_factory(f"billed-{name}-{gated}", toolset=name, config_extra=config,
                                                     rule_files=[made[gated][0]])
                   for name in toolsets.NAMES for gated in (True, False)}
        t0 = time.time()
        for i, record in enumerate(billed):
            _sleep_until(t0 + BILLED_START + i * BILLED_WINDOW)
            _Failure.rule, _Failure.exposed = record, True
            _sleep_until(t0 + BILLED_START + i * BILLED_WINDOW + BILLED_WINDOW - 1.5)
            _Failure.exposed = False
        _sleep_until(t0 + BILLED_RUN)
        end = time.time()
        for (name, gated), prom in servers.items():
            recorded = _stamps(prom, f'{names.TIER_POD_STEP}{{{names.SENTINEL_LABEL}="1"}}', t0, end)
            proved = {r: _stamps(prom, f'{r}{{{names.SENTINEL_LABEL}="1"}}', t0, end) for r in billed}
            failed = {r: recorded - proved[r] for r in billed}
            observed = _stamps(prom, names.TIER_KSM_UP, t0, end)
            assert all(failed.values()), (name, gated, "a rule never failed", failed, prom.log_tail())
            # the group went on: the energy split (independent of the allocation) recorded where the allocation failed
            assert failed[names.TIER_ALLOCATED] <= proved[names.TIER_ENERGY], (name, gated, failed, proved)
            lost = set().union(*failed.values())
            if gated:
                assert not observed & lost, (name, "a step with a failed rule counted", sorted(observed & lost))
                assert observed, (name, "no step observed at all")
            else:
                assert observed & lost, (name, "the mutant counted no failed step: the test could not catch it")
