"""doctor's exporter-labels check (gpudash/ops/doctor) on a real Prometheus holding one DCGM GPU's series as the
scrape stores them, with and without honorLabels, held by a pod or idle: an idle GPU's series carry the exporter
pod's target labels, which say nothing about honorLabels, so a cluster whose GPUs are all idle does not fail."""
from __future__ import annotations

import dataclasses
import time

import pytest

from gpudash.model import load_bundled_example, vendors
from gpudash.model.exporters import gpu_exporters as gx
from gpudash.ops import doctor
from gpudash.ops.doctor import exporter_scrape
from gpudash.ops.mock.openmetrics import series_text
from gpudash.ops.prometheus_client import Prometheus
from gpudash.simulation import series as gs

HOST = "gpu-node-1"
WORKLOAD = (("container", "trainer"), ("namespace", "team-a"), ("pod", "trainer-0"))


def _openmetrics(honor: bool, held: bool, now: float) -> str:
    """``up`` and the attribution series of one GPU, stored as Prometheus stores them (gs.scraped)."""
    model = load_bundled_example()
    v = vendors.by_source("dcgm")
    exporter = gx.exporter(model.sources, v)
    target = gs.exporter_target(v, HOST)
    job = (("job", gx.sample_job(exporter)), ("instance", f"{HOST}:{v.exporter_port}"))
    gpu = (("__name__", v.metric(model.sources, v.attribution)), ("gpu", "0"), ("Hostname", HOST), *job,
           *(WORKLOAD if held else ()))
    lines = []
    for name, labels in (("up", (("__name__", "up"), *job)), (gpu[0][1], gpu)):
        lines.append(f"# TYPE {name} gauge")
        stored = gs.scraped(labels, target, honor)
        lines += [f"{series_text(tuple(sorted(stored)))} 1 {int(now) - ago}" for ago in (240, 120, 60)]
    return "\n".join([*lines, "# EOF", ""])


@pytest.mark.parametrize(("honor", "held", "reads", "status"), [
    (False, False, "exported_namespace", doctor.OK),  # every GPU idle, honorLabels unset as the model says
    (True, False, "namespace", doctor.OK),  # every GPU idle, honorLabels as the model says
    (True, False, "exported_namespace", doctor.OK),  # idle: nothing tells the mode yet
    (False, True, "exported_namespace", doctor.OK),
    (True, True, "namespace", doctor.OK),
    (True, True, "exported_namespace", doctor.FAIL),  # a workload's pod as plain pod: honorLabels set
    (False, True, "namespace", doctor.FAIL),  # exported_namespace: honorLabels unset
])
def test_the_label_mode_is_judged_from_a_workloads_series_only(pushed_hub, honor, held, reads, status):
    now = time.time()
    prom = pushed_hub(f"doctor-labels-{honor}-{held}-{reads}", _openmetrics(honor, held, now), [], now - 600, now)
    model = load_bundled_example()
    dcgm = dataclasses.replace(model.sources.dcgm, tenant_label=reads)  # the label the model says the GPUs carry
    model = dataclasses.replace(model, sources=dataclasses.replace(model.sources, dcgm=dcgm))
    check = exporter_scrape.exporter_labels(Prometheus(prom.url), model, vendors.by_source("dcgm"), now)
    assert check.status == status, check.line()
