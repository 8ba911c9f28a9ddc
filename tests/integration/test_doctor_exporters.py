"""doctor on a spoke whose GPU nodes of a vendor have no exporter scraped: a real Prometheus (PATH's) holding
kube-state-metrics' allocatable GPUs of an NVIDIA and an AMD node and the DCGM exporter's target only. Until this
check, doctor said "ok: no amd exporter scraped" while that node's utilisation, idle alerts, pruning and energy
were blank."""
from __future__ import annotations

import time

import pytest

from gpudash.model import vendors
from gpudash.model.exporters import gpu_exporters as gx
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.ops import doctor
from gpudash.ops.demo.prometheus import Prometheus, ToolMissing
from gpudash.ops.prometheus_client import Prometheus as Client

STEP = 30  # seconds between samples
SAMPLES = 20


def _openmetrics(model, start: int) -> str:
    ksm_job = model.sources.kube_state_metrics_job
    nvidia, amd = vendors.VENDORS["nvidia"], vendors.VENDORS["amd"]
    dcgm_job = gx.sample_job(gx.exporter(model.sources, nvidia))
    memory = nvidia.metric(model.sources, nvidia.attribution)
    series = {
        f'{ksm.NODE_ALLOCATABLE}{{job="{ksm_job}",node="gpu-n1",resource="{nvidia.ksm_node_resources.split("|")[0]}"'
        ',unit="integer"}': 8,
        f'{ksm.NODE_ALLOCATABLE}{{job="{ksm_job}",node="gpu-a1",resource="{amd.ksm_node_resources}"'
        ',unit="integer"}': 8,
        f'up{{job="{dcgm_job}",instance="10.0.0.5:9400"}}': 1,
        # the same pod scraped by the dcgm-exporter chart's own ServiceMonitor too (its job: the Service's name)
        **{f'{memory}{{job="{job}",instance="10.0.0.5:9400",gpu="0",Hostname="gpu-n1"}}': 1024
           for job in (dcgm_job, "dcgm-exporter")},
        # the AMD exporter's series under its own job from the same address: another exporter, not a second scrape
        f'{amd.metric(model.sources, amd.attribution)}{{job="x-metrics",instance="10.0.0.5:9400",gpu_id="0"}}': 1,
    }
    lines = [f"{name} {value} {start + i * STEP}" for name, value in series.items() for i in range(SAMPLES)]
    return "\n".join(sorted(lines, key=lambda line: line.split("{")[0])) + "\n# EOF\n"


@pytest.fixture(scope="module")
def spoke(tmp_path_factory, example_model):
    start = int(time.time()) - 3 * 3600
    try:
        prom = Prometheus(tmp_path_factory.mktemp("doctor-exporters"))
    except ToolMissing as err:
        pytest.skip(str(err))
    data = prom.workdir / "series.om"
    data.write_text(_openmetrics(example_model, start))
    prom.backfill_openmetrics([data])
    try:
        yield Client(prom.url, timeout=30), start + SAMPLES * STEP - STEP
    finally:
        prom.stop()


def test_gpu_nodes_of_a_vendor_without_its_exporter_fail(spoke, example_model):
    client, now = spoke
    dcgm, twice, amd = doctor.exporters(client, example_model, now)
    assert (amd.name, amd.status) == ("amd exporter scraped", doctor.FAIL), amd.line()
    assert "gpu-a1" in amd.found and "amd.com/gpu" in amd.found
    assert "sources.amd.job" in amd.fix and "wiring/" in amd.fix
    assert (dcgm.name, dcgm.status) == ("dcgm exporter labels", doctor.OK)  # scraped: its labels are checked


def test_an_exporter_scraped_by_two_jobs_warns(spoke, example_model):
    """wiring/'s ServiceMonitor and the dcgm-exporter chart's own (on by default) both scrape the pod."""
    client, now = spoke
    twice = [c for c in doctor.exporters(client, example_model, now) if c.name == "dcgm exporter scraped once"]
    assert [c.status for c in twice] == [doctor.WARN] and "10.0.0.5:9400" in twice[0].found
    assert "serviceMonitor.enabled: false" in twice[0].fix


def test_no_gpu_node_no_exporter_is_fine(spoke, example_model):
    client, now = spoke
    before = now - 2 * 3600  # no sample within the lookback
    assert {(c.name, c.status) for c in doctor.exporters(client, example_model, before)} == \
        {("dcgm exporter scraped", doctor.OK), ("amd exporter scraped", doctor.OK)}
