"""The spoke's missing-input series (gpudash.render.rules.inputs) with the real promtool, on series in the upstream
label shapes: kube-state-metrics scraped through OpenShift's minimal collection profile (the keep regex of
openshift/cluster-monitoring-operator assets/kube-state-metrics/minimal-service-monitor.yaml, in
tests/fixtures/upstream/cmo) loses the init-container series, and GPUs that report activity but no power or energy
(AMD MI300X_VF guests, MI2xx: ROCm/device-metrics-exporter docs/configuration/metricslist.md; a DCGM counters file
without the power fields) are named per node. A cluster with every input, and a partitioned AMD GPU whose
partition 0 alone reports power, report nothing."""
from __future__ import annotations

import re

import yaml

from e2e import pipeline
from gpudash.base import layout
from gpudash.model import model_from_dict
from gpudash.model import series as names
from gpudash.model.exporters import gpu_exporters as gx
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.load import bundled_example_path
from gpudash.model.vendors import amd, nvidia
from gpudash.ops.promtest import run_file
from gpudash.render.alerts import promtool as pt
from gpudash.render.rules import inputs
from tests.conftest import FIXTURES, require

MINIMAL = yaml.safe_load((FIXTURES / "upstream/cmo/kube-state-metrics-minimal-service-monitor.yaml").read_text())
STEPS = 6


def _keep(metric: str) -> bool:
    """Whether the minimal profile's keep relabelling keeps ``metric`` (Prometheus anchors the regex)."""
    (rule,) = [r for r in MINIMAL["spec"]["endpoints"][0]["metricRelabelings"] if r["action"] == "keep"]
    return re.fullmatch(rule["regex"], metric) is not None


def _ksm(model, cluster: str) -> list[tuple[str, dict]]:
    """A Running pod with an init container, a native sidecar and an app container, as kube-state-metrics shows
    it (kubernetes/kube-state-metrics docs/metrics/workload/pod-metrics.md)."""
    job = model.sources.kube_state_metrics_job
    pod = {"cluster": cluster, "job": job, "namespace": "team-a", "pod": "warmup", "uid": "u-warmup"}
    gpu = {"node": "gpu-node-1", "resource": "nvidia_com_gpu", "unit": "integer"}
    return [(ksm.POD_PHASE, {**pod, "phase": "Running"}),
            (ksm.CONTAINER_INFO, {**pod, "container": "server"}),
            (ksm.CONTAINER_REQUESTS, {**pod, **gpu, "container": "server"}),
            (ksm.INIT_CONTAINER_INFO, {**pod, "container": "load-weights"}),
            (ksm.INIT_CONTAINER_REQUESTS, {**pod, **gpu, "container": "load-weights"}),
            (ksm.INIT_CONTAINER_INFO, {**pod, "container": "proxy", "restart_policy": "Always"})]


def _amd(model, cluster: str, node: str, gpus: int, power: str) -> list[tuple[str, dict]]:
    """device-metrics-exporter series of a node: activity for every GPU; power and energy for ``power``: all,
    partition0 (a partitioned GPU: only partition 0 reports them) or none (an MI300X_VF guest)."""
    src = model.sources
    out = []
    for g in range(gpus):
        labels = {"cluster": cluster, "job": gx.sample_job(src.amd), amd.GPU_LABEL: str(g),
                  amd.HOST_LABEL: node, amd.MODEL_LABEL: "102-G30211-0C"}
        out.append((amd.VENDOR.metric(src, amd.GFX_ACTIVITY), labels))
        if power == "all" or (power == "partition0" and g == 0):
            out += [(amd.VENDOR.metric(src, amd.POWER), labels), (amd.VENDOR.metric(src, amd.ENERGY), labels)]
    return out


def _dcgm(model, cluster: str, node: str, gpus: int) -> list[tuple[str, dict]]:
    """dcgm-exporter with a counters file without DCGM_FI_DEV_POWER_USAGE and the energy counter."""
    return [(nvidia.GPU_UTIL, {"cluster": cluster, "job": gx.sample_job(model.sources.dcgm), "gpu": str(g),
                               "UUID": f"GPU-{node}-{g}", "Hostname": node, nvidia.MODEL_LABEL: "NVIDIA A100"})
            for g in range(gpus)]


def _series(rows) -> list[dict]:
    return [pt.series(metric, labels, [1] * STEPS) for metric, labels in rows]


def _expected(rows) -> list[dict]:
    return [{"labels": pt.series(names.INPUT_MISSING, labels, [])["series"], "value": value} for labels, value in rows]


def test_missing_inputs_are_named(tmp_path):
    require("promtool")
    model = model_from_dict(yaml.safe_load(bundled_example_path().read_text()), "example")
    rendered = pipeline.render(model, tmp_path / "rendered", rules_only=True)
    complete = [*_ksm(model, "full"), *_amd(model, "full", "mi300x-1", 8, "all"),
                *_amd(model, "full", "mi300x-cpx", 8, "partition0")]
    minimal = [(m, labels) for m, labels in _ksm(model, "minimal") if _keep(m)]
    assert {m for m, _ in minimal} == {ksm.POD_PHASE, ksm.CONTAINER_REQUESTS}  # what the profile keeps of these
    unmetered = [*_amd(model, "guest", "mi300x-vf-1", 4, "none"), *_dcgm(model, "guest", "a100-nopower", 2)]
    expected = [({"cluster": "minimal", "input": inputs.INIT_CONTAINERS}, 1),
                ({"cluster": "guest", "input": inputs.GPU_POWER, "node": "a100-nopower"}, 2),
                ({"cluster": "guest", "input": inputs.GPU_POWER, "node": "mi300x-vf-1"}, 4)]
    test = {"rule_files": [str(rendered / layout.SPOKE_RULES)], "evaluation_interval": "1m", "tests": [{
        "interval": "1m", "input_series": _series(complete + minimal + unmetered),
        "promql_expr_test": [{"expr": names.INPUT_MISSING, "eval_time": f"{STEPS - 1}m",
                              "exp_samples": _expected(expected)}]}]}
    path = tmp_path / "inputs.test.yaml"
    path.write_text(yaml.safe_dump(test, sort_keys=False))
    result = run_file(path)
    assert result.ok, "\n".join(result.failures)
