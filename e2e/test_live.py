"""Live path: the mock exporter served on 127.0.0.1 and scraped by Prometheus in real time (every 2 s) with
the rendered spoke and hub rules loaded normally (a model with ``resolution: 10s``). Proves the rules behave on
a live server with staleness markers: a pod deleted while Running stops being billed within a scrape, not
after the 5-minute lookback that backfilled data (which has no staleness markers) would give it; a pod's
Pending and Succeeded phases are not billed; the mock file is hot-reloaded mid-run; exporter series arrive
renamed ``exported_*`` as with the GPU Operator's ServiceMonitor. About 2 minutes."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml

from e2e import pipeline, toolsets
from gpudash.base import layout
from gpudash.model import model_from_dict
from gpudash.model import series as names
from gpudash.model.exporters import gpu_exporters as gx
from gpudash.ops.mock.server import MockServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

MINUTE = 10.0  # wall-clock seconds per scenario minute (live.mock.yaml)
SCRAPE = 2  # seconds
RUN = 115.0  # seconds of scenario time observed


def _live_model(**billing):
    raw = yaml.safe_load(pipeline.MODEL.read_text())
    raw["billing"].update(resolution="10s", mco_interval="30s", burn_rate_window="1m", **billing)
    return model_from_dict(raw, "e2e live model")


def _scrape_configs(address: str, model) -> list[dict]:
    src = model.sources
    jobs = [(src.kube_state_metrics_job, "/ksm/metrics", {}, True),
            # The GPU Operator's ServiceMonitor: honor_labels false and the exporter pod's own namespace, pod
            # and container as target labels, so the exporter's pod attribution labels are stored as
            # exported_namespace/exported_pod/exported_container.
            # The AMD GPU Operator's and chart's ServiceMonitors set honorLabels: true (plain namespace/pod).
            (gx.sample_job(src.dcgm), "/dcgm/metrics", {"namespace": "nvidia-gpu-operator",
                                                        "pod": "nvidia-dcgm-exporter-x7k2p",
                                                        "container": "nvidia-dcgm-exporter"},
             src.dcgm.tenant_label == "namespace"),
            (gx.sample_job(src.amd), "/amd/metrics", {"namespace": "amd-gpu-operator",
                                                      "pod": "amd-metrics-exporter-q9z4d",
                                                      "container": "metrics-exporter"},
             src.amd.tenant_label == "namespace")]
    return [{"job_name": job, "metrics_path": path, "scrape_interval": f"{SCRAPE}s", "honor_labels": honor,
             "static_configs": [{"targets": [address], "labels": labels}]} for job, path, labels, honor in jobs]


def _series(prom, expr: str, t: float) -> dict[str, float]:
    return {dict(labels).get("pod", ""): v for labels, v in prom.query(expr, t)}


def test_live_scrape_with_staleness(tmp_path: Path, prometheus_factory, stopwatch):
    """On every pinned version side by side (scraping: Prometheus 3 negotiates the protocol strictly), one mock
    server: the test waits on the wall clock, so the versions share its two minutes."""
    model = _live_model()
    # rules only: the golden test emitter does not take sub-minute intervals (gpudash/render/golden/emit.py).
    rendered = pipeline.render(model, tmp_path / "rendered", rules_only=True)
    mock_file = tmp_path / "live.mock.yaml"
    mock_file.write_text((pipeline.DATA / "live.mock.yaml").read_text())
    server = MockServer(mock_file, model, port=0).start()
    try:
        t0 = server.cluster.t0
        proms = {name: prometheus_factory(
            f"live-{name}", toolset=name, rule_files=[rendered / layout.SPOKE_RULES, rendered / layout.HUB_RULES],
            config_extra={"global": {"scrape_interval": f"{SCRAPE}s", "evaluation_interval": "10s"},
                          "scrape_configs": _scrape_configs(server.address, model)}) for name in toolsets.NAMES}
        stopwatch("start")
        # Hot reload: 40 s in, a new pod appears in the mock file (Running from minute 0).
        _sleep_until(t0 + 40)
        raw = yaml.safe_load(mock_file.read_text())
        raw["workload"].append({"name": "late", "tenant": 2, "pool": "a100", "containers": [
            {"name": "main", "requests": {"gpu": 1}}], "lifecycle": [{"at": "0m", "phase": "Running"}]})
        mock_file.write_text(yaml.safe_dump(raw))
        _sleep_until(t0 + RUN)
        stopwatch("scrape")
        end = time.time()
        assert server.cluster.reloads == 1
        for name, prom in proms.items():
            _check_live(prom, t0, end, name)
        stopwatch("checks")
    finally:
        server.stop()


def _check_live(prom, t0: float, end: float, version: str) -> None:
    """What one server recorded from the live run (``version``: its toolset, named in failures)."""
    alloc = {}
    step = 5.0
    for labels, samples in prom.query_range(f"sum by (pod) ({names.POD_ALLOCATED})", t0 + 10, end, step):
        alloc[dict(labels)["pod"]] = {round(t - t0): v for t, v in samples}

    def span(pod):
        ts = sorted(alloc.get(pod, {}))
        return (ts[0], ts[-1]) if ts else None

    # steady: billed 2 GPUs for the whole run.
    assert set(alloc["steady"].values()) == {2.0}, (version, alloc["steady"])
    assert span("steady")[1] >= RUN - 15, version
    # doomed: deleted while Running at 60 s. The scrape after the deletion writes staleness markers, so the
    # pod's allocation ends within a scrape + a rule evaluation, not 5 minutes later.
    first, last = span("doomed")
    assert first <= 30 and 55 <= last <= 60 + SCRAPE + 10 + step, (version, first, last)
    # batch: Pending until 30 s, Running until 90 s (2 MIG slices), Succeeded after: billed only in between.
    first, last = span("batch")
    assert 30 <= first <= 30 + SCRAPE + 10 + step and 85 <= last <= 90 + SCRAPE + 10 + step, (version, first, last)
    assert set(alloc["batch"].values()) == {2.0}, version
    # late: added to the file at 40 s, picked up by the hot reload within a second or two.
    first, _ = span("late")
    assert 40 <= first <= 40 + 1 + SCRAPE + 10 + step, (version, first)
    # Exporter attribution arrives as exported_* labels and the activity rule maps it back to the pod.
    activity = _series(prom, names.POD_ACTIVITY_MAX, end)
    assert activity.get("steady") == pytest.approx(0.7), (version, activity)
    raw_dcgm = prom.query(
        'count(DCGM_FI_PROF_GR_ENGINE_ACTIVE{exported_pod="steady",namespace="nvidia-gpu-operator"})', end)
    assert raw_dcgm and raw_dcgm[0][1] == 2, version
    # The hub rules run on the same server: burn rates per namespace. team-beta peaked while doomed (3.20/h)
    # and batch (2 x 0.55/h) both ran (30-60 s); the hot-reloaded pod shows up for team-gamma.
    rates = {dict(lb)["namespace"]: v for lb, v in prom.query(names.NAMESPACE_COST_RATE, end)}
    assert rates.get("team-alpha") == pytest.approx(2 * 3.20), (version, rates)
    assert rates.get("team-gamma") == pytest.approx(3.20), (version, rates)
    beta = prom.query(f'max_over_time({names.NAMESPACE_COST_RATE}{{namespace="team-beta"}}[{int(end - t0)}s])', end)
    assert beta and beta[0][1] == pytest.approx(3.20 + 2 * 0.55), (version, beta)


def _sleep_until(t: float) -> None:
    while (left := t - time.time()) > 0:
        time.sleep(min(left, 1.0))
