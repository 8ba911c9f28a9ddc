"""``gpudash doctor`` against real Prometheus servers scraping the live mock cluster (rules loaded as on a
single cluster): a healthy setup has no failing check, and each broken setup fails exactly the one check that
names its cause. The four servers scrape side by side for about 45 seconds."""
from __future__ import annotations

import dataclasses
import time

import pytest

from e2e import pipeline
from e2e.test_live import _live_model, _scrape_configs
from gpudash import alerts, doctor, layout
from gpudash.mock.server import MockServer
from gpudash.report.client import Prometheus

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

WARMUP = 45.0  # seconds: a few scrapes and an evaluation of every rule group (intervals 10 s and 30 s, each
# group starting at an offset within its interval)


def _setup(server, model, rendered, break_with: str = "") -> dict:
    scrape = _scrape_configs(server.address, model)
    for job in scrape:
        job["static_configs"][0]["labels"]["cluster"] = model.clusters[0]  # the single cluster's name
    if break_with == "honor_labels":  # the DCGM ServiceMonitor with honorLabels: true, the model says unset
        scrape[1]["honor_labels"] = True
    if break_with == "ksm_job":  # kube-state-metrics scraped under another job name than the model's
        scrape[0]["job_name"] = "ksm-other"
    files = [rendered / layout.SPOKE_RULES, rendered / layout.HUB_RULES]
    if break_with != "no_alerts":  # the alerts were never applied
        files.append(rendered / layout.ALERT_RULES)
    return {"rule_files": files, "config_extra": {"global": {"scrape_interval": "2s", "evaluation_interval": "10s"},
                                                  "scrape_configs": scrape}}


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """{setup name: (Prometheus URL, model)} after the warm-up; the servers stop at module teardown."""
    from e2e.harness import Prometheus as Server

    tmp = tmp_path_factory.mktemp("doctor")
    model = _live_model()
    rendered = pipeline.render(model, tmp / "rendered", rules_only=True)
    mock_file = tmp / "live.mock.yaml"
    mock_file.write_text((pipeline.DATA / "live.mock.yaml").read_text())
    server = MockServer(mock_file, model, port=0).start()
    servers = {}
    try:
        for name in ("healthy", "honor_labels", "ksm_job", "no_alerts"):
            servers[name] = Server(tmp / name, **_setup(server, model, rendered, name)).start()
        time.sleep(WARMUP)
        yield {name: s.url for name, s in servers.items()}, model
    finally:
        for s in servers.values():
            s.stop()
        server.stop()


def _failed(url, model) -> list[doctor.Check]:
    return [c for c in doctor.run(Prometheus(url), model, "single") if c.status == doctor.FAIL]


def test_healthy_cluster_passes(live):
    urls, model = live
    checks = doctor.run(Prometheus(urls["healthy"]), model, "single")
    assert [c for c in checks if c.status == doctor.FAIL] == [], "\n".join(c.line() for c in checks)
    assert {c.name for c in checks} >= {"node product labels", "GPUs on nodes priced", "spoke rules evaluate",
                                        "rule groups", "billed hours", "tenant series carry cluster"}


def test_exporter_label_mode_differs_from_the_model(live):
    urls, model = live
    (check,) = _failed(urls["honor_labels"], model)
    assert check.name == "dcgm exporter labels" and "honorLabels: true" in check.found


def test_kube_state_metrics_under_another_job(live):
    urls, model = live
    (check,) = _failed(urls["ksm_job"], model)
    assert check.name.startswith("raw series") and "found under job ksm-other" in check.found


def test_alerts_not_installed(live):
    urls, model = live
    (check,) = _failed(urls["no_alerts"], model)
    first = alerts.hub_groups(model)[0].name
    assert check.name == "rule groups" and check.found.startswith(f"not loaded: {first}")


def test_a_product_no_class_lists(live):
    urls, model = live
    a100 = next(c for c in model.gpu_classes if c.name == "a100-80gb")
    narrowed = dataclasses.replace(a100, products=tuple(p for p in a100.products if "SXM4" not in p))
    unpriced = dataclasses.replace(model, gpu_classes=tuple(narrowed if c is a100 else c for c in model.gpu_classes))
    failed = _failed(urls["healthy"], unpriced)
    assert len(failed) == 1, [c.line() for c in failed]
    (check,) = failed
    assert check.name == "GPUs on nodes priced" and "no GPU class lists NVIDIA-A100-SXM4-80GB" in check.found
