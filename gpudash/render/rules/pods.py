"""The Running pods the spoke rules bill and attribute exporter series to, from kube-state-metrics: read by the
allocation join (:mod:`gpudash.render.rules.spoke`) and the energy split (:mod:`gpudash.render.rules.energy`) alike."""
from __future__ import annotations

from gpudash.model import series as names
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.types import Model
from gpudash.promql import build as q

POD = (*names.POD, "uid")


def running(model: Model) -> str:
    """1 per (pod, uid) whose phase is Running; duplicates from an HA kube-state-metrics pair collapse."""
    phase = q.selector(ksm.POD_PHASE, ksm.job(model.sources), ("phase", "=", "Running"))
    return q.agg("max", POD, f"{phase} == 1")


def gpu_holders(model: Model) -> str:
    """1 per Running pod (cluster, namespace, pod) holding GPUs by kube-state-metrics' allocation: the only pods a
    GPU exporter series is attributed to. Under honorLabels a series the exporter writes without pod labels (an idle
    GPU on dcgm-exporter, NVIDIA/dcgm-exporter internal/pkg/transformation/kubernetes.go sets them only for a device
    the pod-resources API lists) is stored with the target's own namespace/pod, the exporter's (prometheus/prometheus
    scrape/scrape.go mutateSampleLabels: honor keeps a label the sample has, fills the others from the target)."""
    requests = ksm.any_gpu_requests(model.sources)
    return f"({q.agg('max', names.POD, f'({requests}) > 0')} and on {q.labels(names.POD)} {running(model)})"
