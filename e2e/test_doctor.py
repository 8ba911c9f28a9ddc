"""``gpudash doctor`` against real Prometheus servers scraping the live mock cluster: spokes with the rules loaded
as on a single cluster, and hubs that receive the healthy spoke's allowlisted series every push interval (a
federation scrape standing in for ACM's metrics-collector, which pushes the same series with their sample
times). A healthy setup has no failing check, and each broken setup fails exactly the one check that names its
cause. The servers scrape side by side for about a minute."""
from __future__ import annotations

import dataclasses
import time

import pytest
import yaml

from e2e import mco_sim, pipeline
from e2e.test_live import _live_model, _scrape_configs
from gpudash.base import layout
from gpudash.model import alert_names as an
from gpudash.model import series as names
from gpudash.model import vendors
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.types import SelfManaged
from gpudash.ops import doctor
from gpudash.ops.mock.server import MockServer, exposition
from gpudash.ops.prometheus_client import Prometheus
from gpudash.render import alerts, wiring
from gpudash.render.rules import inputs
from tests.conftest import FIXTURES
from tests.standins import StandIn

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

WARMUP = 65.0  # seconds: a few scrapes, an evaluation of every rule group (intervals 10 s and 20 s, each group
# starting at an offset within its interval) and three pushes to the hubs
PUSH = 20  # seconds: billing.mco_interval of the doctor's model; a multiple of the spoke rules' 10 s interval,
# so each federation scrape finds a sample evaluated one interval after the last one
BOUNDARY = 3 * PUSH + 10  # seconds after an hour starts by which a push and a hub evaluation of the hour happened
SPOKES = ("healthy", "honor_labels", "ksm_job", "no_alerts", "emptydir", "day1")
# The day-one spoke: OpenShift's minimal collection profile (kube-state-metrics scraped through CMO's keep regex,
# tests/fixtures/upstream/cmo), the TSDB on a claim whose volumeClaimTemplate is named prometheus-data, and the
# spoke tier's rule group not loaded (the Placement missed the cluster).
MINIMAL = yaml.safe_load((FIXTURES / "upstream/cmo/kube-state-metrics-minimal-service-monitor.yaml").read_text())
RENAMED_VOLUME = "prometheus-data"
DEFAULT_VOLUME = "prometheus-k8s-db"  # prometheus-operator pkg/prometheus/common.go VolumeName: prometheus-<name>-db
HUBS = ("hub", "hub_fast", "hub_bare", "hub_stalled", "hub_day1")


def _model():
    """The live model, pushing every PUSH seconds, with the spoke tier, on a self-managed spoke (the exporters
    scraped as wiring/ says)."""
    model = _live_model()
    managed = SelfManaged("gpu-monitoring", (("dcgm_service_labels", (("app", "dcgm-exporter"),)),
                                             ("amd_service_labels", (("app", "amd-metrics-exporter"),))))
    billing = dataclasses.replace(model.billing, mco_interval=PUSH, spoke_tier="policy")
    return dataclasses.replace(model, billing=billing, sources=dataclasses.replace(model.sources, self_managed=managed))


def _minimal_profile() -> list[dict]:
    """The metric relabelling of CMO's minimal kube-state-metrics ServiceMonitor (its keep regex), as Prometheus
    configuration."""
    (keep,) = [r for r in MINIMAL["spec"]["endpoints"][0]["metricRelabelings"] if r["action"] == "keep"]
    return [{"action": "keep", "source_labels": keep["sourceLabels"], "regex": keep["regex"]}]


def _as_rendered(scrape: list[dict], model) -> None:
    """The exporters' scrape jobs as the rendered ServiceMonitors set them up: honor_labels and job."""
    monitors = wiring.artifacts(model)
    for job, what in zip(scrape[1:3], ("dcgm", "amd")):
        (endpoint,) = monitors[layout.wiring_service_monitor(vendors.by_source(what).wiring.stem)]["spec"]["endpoints"]
        job["honor_labels"] = endpoint["honorLabels"]
        (job["job_name"],) = [r["replacement"] for r in endpoint["relabelings"] if r["targetLabel"] == "job"]


def _platform_pods(volume: str | None) -> str:
    """kube-state-metrics' series of the platform Prometheus pod: its TSDB volume a claim of the StatefulSet's
    volumeClaimTemplate named ``volume`` (claim <volume>-<pod>, pkg/controller/statefulset), or an emptyDir."""
    pod = (("namespace", doctor.PLATFORM_NAMESPACE), ("pod", "prometheus-k8s-0"))
    series = {(("__name__", ksm.POD_INFO), *pod): 1}
    if volume:
        claim = ("persistentvolumeclaim", f"{volume}-prometheus-k8s-0")
        series[(("__name__", ksm.POD_PVC), *pod, claim, ("volume", volume))] = 1
        series[(("__name__", ksm.PVC_INFO), pod[0], claim, ("storageclass", "gp3-csi"))] = 1
    return exposition(series)


# path -> exposition
PODS = {"/pvc": _platform_pods(DEFAULT_VOLUME), "/emptydir": _platform_pods(None),
        "/renamed": _platform_pods(RENAMED_VOLUME)}


def _pods(request):
    body = PODS.get(request.path, "").encode()
    return (200 if body else 404), body, "text/plain; version=0.0.4"


def _spoke(mock: str, pods: str, model, rendered, break_with: str = "") -> dict:
    scrape = _scrape_configs(mock, model)
    _as_rendered(scrape, model)
    # The platform Prometheus pods as kube-state-metrics exports them, from a target of their own (an extra
    # kube-state-metrics target would double its `up`): the series take kube-state-metrics' job.
    scrape.append({"job_name": "platform-pods", "scrape_interval": "2s", "static_configs": [{"targets": [pods]}],
                   "metrics_path": {"emptydir": "/emptydir", "day1": "/renamed"}.get(break_with, "/pvc"),
                   "metric_relabel_configs": [{"target_label": "job",
                                               "replacement": model.sources.kube_state_metrics_job}]})
    if break_with == "day1":  # both kube-state-metrics targets through the minimal profile's keep regex
        for job in (scrape[0], scrape[-1]):
            job["metric_relabel_configs"] = job.get("metric_relabel_configs", []) + _minimal_profile()
    for job in scrape:
        job["static_configs"][0].setdefault("labels", {})["cluster"] = model.clusters[0]  # the single cluster's name
    if break_with == "honor_labels":  # the DCGM ServiceMonitor with honorLabels: true, the model says unset
        scrape[1]["honor_labels"] = True
    if break_with == "ksm_job":  # kube-state-metrics scraped under another job name than the model's
        scrape[0]["job_name"] = "ksm-other"
    files = [rendered / layout.SPOKE_RULES, rendered / layout.HUB_RULES]
    if break_with != "day1":  # the spoke tier's group, as its Policy puts it on every cluster the Placement selects
        files.append(rendered / layout.SPOKE_TIER_RULES)
    if break_with != "no_alerts":  # the alerts were never applied
        files.append(rendered / layout.ALERT_RULES)
    return {"rule_files": files, "config_extra": {"global": {"scrape_interval": "2s", "evaluation_interval": "10s"},
                                                  "scrape_configs": scrape}}


def _stalled_alerts(rendered, tmp) -> object:
    """The alert groups with a 10,000-hour interval: loaded and healthy but not evaluated during the test, as when
    the Ruler evaluating them is stuck. Prometheus first evaluates a group at its own offset within the interval
    (a hash of the group and file, rules/group.go EvalTimestamp), so with 1h one of the groups evaluated within a
    two-minute test about one run in eight; with 10,000 h the chance is negligible."""
    groups = yaml.safe_load((rendered / layout.ALERT_RULES).read_text())
    for group in groups["groups"]:
        group["interval"] = "10000h"
    path = tmp / "stalled.alerts.yaml"
    path.write_text(yaml.safe_dump(groups, sort_keys=False))
    return path


def _hub(spoke_url: str, model, rendered, tmp, break_with: str = "") -> dict:
    """A hub receiving the allowlisted series of the healthy spoke once per push interval, as each of the
    model's clusters (the spoke's cluster label replaced)."""
    allowlist = mco_sim.decode_allowlist(rendered / mco_sim.ALLOWLIST_FILE)
    match = allowlist.selectors() + [f'{{__name__="{record}"}}' for record, _ in allowlist.recording_rules]
    host = spoke_url.removeprefix("http://")
    interval = PUSH // 2 if break_with == "hub_fast" else PUSH  # the collector pushes more often than the model
    scrape = []
    for cluster in model.clusters:
        relabel = {"target_label": "cluster", "replacement": cluster}
        if break_with == "hub_bare" and cluster != model.clusters[0]:
            relabel = {"action": "labeldrop", "regex": "cluster"}  # pushed without its cluster label
        scrape.append({"job_name": f"push-{cluster}", "scrape_interval": f"{interval}s", "metrics_path": "/federate",
                       "honor_labels": True, "params": {"match[]": match}, "static_configs": [{"targets": [host]}],
                       "metric_relabel_configs": [relabel]})
    stalled = break_with == "hub_stalled"
    files = [rendered / layout.HUB_RULES, _stalled_alerts(rendered, tmp) if stalled else rendered / layout.ALERT_RULES]
    return {"rule_files": files, "config_extra": {"global": {"evaluation_interval": "10s"}, "scrape_configs": scrape}}


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """{setup name: Prometheus URL}, model after the warm-up; the servers stop at module teardown."""
    from e2e.harness import Prometheus as Server

    tmp = tmp_path_factory.mktemp("doctor")
    model = _model()
    rendered = pipeline.render(model, tmp / "rendered", rules_only=True)
    mock_file = tmp / "live.mock.yaml"
    mock_file.write_text((pipeline.DATA / "live.mock.yaml").read_text())
    server = MockServer(mock_file, model, port=0).start()
    pods = StandIn(_pods).start()
    pods_address = pods.url.removeprefix("http://")
    servers = {}
    try:
        for name in SPOKES:
            servers[name] = Server(tmp / name, **_spoke(server.address, pods_address, model, rendered, name)).start()
        for name in HUBS:
            source = servers["day1" if name == "hub_day1" else "healthy"].url
            servers[name] = Server(tmp / name, **_hub(source, model, rendered, tmp, name)).start()
        time.sleep(WARMUP)
        yield {name: s.url for name, s in servers.items()}, model
    finally:
        for s in servers.values():
            s.stop()
        pods.stop()
        server.stop()


def _run(url, model, role: str) -> list[doctor.Check]:
    """doctor against a live server, away from a wall-clock hour boundary: without backfill the hub's coverage of
    the last hour exists only once a push of the current hour arrived and a hub evaluation followed (up to
    BOUNDARY seconds after the hour starts), so a run just after the boundary would read no coverage."""
    into_hour = time.time() % 3600
    if role == "hub" and into_hour < BOUNDARY:
        time.sleep(BOUNDARY - into_hour)
    return doctor.run(Prometheus(url), model, role)


def _failed(url, model, role: str = "single") -> list[doctor.Check]:
    return [c for c in _run(url, model, role) if c.status == doctor.FAIL]


def _one_failure(url, model, role: str = "single") -> doctor.Check:
    failed = _failed(url, model, role)
    assert len(failed) == 1, [c.line() for c in failed]
    return failed[0]


def _not_ok(checks) -> list[doctor.Check]:
    """Checks not ok, but for the last hour's coverage: the servers started within this hour, so it is short."""
    return [c for c in checks if c.status != doctor.OK and c.name != "billed hours"]


def test_healthy_cluster_passes(live):
    urls, model = live
    checks = _run(urls["healthy"], model, "single")
    assert _not_ok(checks) == [], "\n".join(c.line() for c in checks)
    assert {c.name for c in checks} >= {"node product labels", "GPUs on nodes priced", "spoke rules evaluate",
                                        "rule groups", "billed hours", "tenant series carry cluster",
                                        "Prometheus storage"}
    (rules_check,) = [c for c in checks if c.name == "spoke rules evaluate"]
    assert "slowest" in rules_check.found and "s (" in rules_check.found  # the query time is reported


def test_healthy_hub_passes(live):
    urls, model = live
    checks = _run(urls["hub"], model, "hub")
    assert _not_ok(checks) == [], "\n".join(c.line() for c in checks)
    names = {c.name for c in checks}
    assert {f"push from {c}" for c in model.clusters} | {f"push interval of {c}" for c in model.clusters} <= names


def test_exporter_label_mode_differs_from_the_model(live):
    urls, model = live
    check = _one_failure(urls["honor_labels"], model)
    assert check.name == "dcgm exporter labels" and "honorLabels: true" in check.found


def test_kube_state_metrics_under_another_job(live):
    urls, model = live
    check = _one_failure(urls["ksm_job"], model)
    assert check.name.startswith("raw series") and "found under job ksm-other" in check.found


def test_alerts_not_installed(live):
    urls, model = live
    check = _one_failure(urls["no_alerts"], model)
    first = alerts.hub_groups(model)[0].name
    assert check.name == "rule groups" and check.found.startswith(f"not loaded: {first}")


def test_prometheus_on_empty_dir(live):
    urls, model = live
    check = _one_failure(urls["emptydir"], model)
    assert check.name == "Prometheus storage"
    assert check.found.startswith("the data volume is not a PersistentVolumeClaim (emptyDir) on prometheus-k8s-0")


def test_storage_cannot_tell_without_the_pods(live):
    urls, model = live
    other = dataclasses.replace(model, sources=dataclasses.replace(model.sources, kube_state_metrics_job="ksm-other"))
    (check,) = doctor.storage(Prometheus(urls["healthy"]), other, time.time())
    assert check.status == doctor.WARN and check.found.startswith("cannot tell")


def test_a_product_no_class_lists(live):
    urls, model = live
    a100 = next(c for c in model.gpu_classes if c.name == "a100-80gb")
    narrowed = dataclasses.replace(a100, products=tuple(p for p in a100.products if "SXM4" not in p))
    unpriced = dataclasses.replace(model, gpu_classes=tuple(narrowed if c is a100 else c for c in model.gpu_classes))
    check = _one_failure(urls["healthy"], unpriced)
    assert check.name == "GPUs on nodes priced" and "no GPU class lists NVIDIA-A100-SXM4-80GB" in check.found


def test_hub_push_interval_differs_from_the_model(live):
    urls, model = live
    failed = _failed(urls["hub_fast"], model, "hub")
    assert [c.name for c in failed] == [f"push interval of {c}" for c in model.clusters], [c.line() for c in failed]
    assert failed[0].found == f"pushes every {PUSH // 2}s, billing.mco_interval is {PUSH}s"


def test_hub_cluster_not_pushing(live):
    urls, model = live
    silent = dataclasses.replace(model, clusters=(*model.clusters, "prod-north"))
    check = _one_failure(urls["hub"], silent, "hub")
    assert check.name == "push from prod-north" and check.found == "never pushed (within the lookback)"


def test_hub_tenant_series_without_cluster(live):
    urls, model = live
    first = dataclasses.replace(model, clusters=model.clusters[:1])  # the other cluster pushes without its label
    check = _one_failure(urls["hub_bare"], first, "hub")
    assert check.name == "tenant series carry cluster" and check.found.startswith("without cluster: cluster_namespace")


def test_hub_ruler_not_evaluating(live):
    urls, model = live
    check = _one_failure(urls["hub_stalled"], model, "hub")
    first = alerts.hub_groups(model)[0].name
    assert check.name == "rule groups" and check.found.startswith(f"{len(alerts.hub_groups(model))} group(s) not "
                                                                  f"evaluating, first {first} (never evaluated)")


def test_healthy_storage_names_its_volume(live):
    urls, model = live
    (check,) = doctor.storage(Prometheus(urls["healthy"]), model, time.time())
    assert check.status == doctor.OK and check.found.startswith(f"data volume {DEFAULT_VOLUME} on a Persistent")


def test_day_one_spoke(live):
    """The minimal collection profile, a data volume named by its volumeClaimTemplate and no spoke tier: doctor
    fails exactly the missing init-container series and the tier, each with its fix; the storage check finds the
    renamed volume's claim (the pods' volume series are dropped by the profile) instead of failing."""
    urls, model = live
    checks = _run(urls["day1"], model, "single")
    failed = [c for c in checks if c.status == doctor.FAIL]
    assert [(c.name, c.found, c.fix) for c in failed] == [
        ("billing inputs", inputs.CAUSE[inputs.INIT_CONTAINERS], inputs.FIX[inputs.INIT_CONTAINERS]),
        ("spoke tier", "rule group gpudash-spoke-tier not loaded on this cluster: its hourly GPU-hours and energy "
         "are empty", inputs.FIX[inputs.SPOKE_TIER])], [c.line() for c in failed]
    (storage,) = [c for c in checks if c.name == "Prometheus storage"]
    assert storage.status == doctor.OK and storage.found == (
        f"data volume {RENAMED_VOLUME} on a PersistentVolumeClaim (1 pod(s), from {ksm.PVC_INFO})")
    # the spoke rules record what the hub alerts on: the init-container series and the tier missing
    rows = Prometheus(urls["day1"]).query(names.INPUT_MISSING, time.time())
    assert sorted(r["input"] for r, _ in rows) == [inputs.INIT_CONTAINERS, inputs.SPOKE_TIER], rows
    assert Prometheus(urls["healthy"]).query(names.INPUT_MISSING, time.time()) == []


def test_hub_names_a_cluster_missing_an_input(live):
    """The hub fires GPUBillingInputMissing for the day-one spoke's inputs at the first evaluation after a push
    (the tier) and reports them in doctor."""
    urls, model = live
    failed = _failed(urls["hub_day1"], model, "hub")
    assert {c.name for c in failed} == {"billing inputs of the clusters"}, [c.line() for c in failed]
    assert any(inputs.CAUSE[inputs.SPOKE_TIER] in c.found for c in failed)
    firing = Prometheus(urls["hub_day1"]).query(f'ALERTS{{alertname="{an.INPUT_MISSING}",alertstate="firing"}}',
                                                time.time())
    assert {(r["cluster"], r["input"]) for r, _ in firing} >= {(c, inputs.SPOKE_TIER) for c in model.clusters}
