"""GPU exporter vocabulary: NVIDIA DCGM exporter and AMD device-metrics-exporter.

Used for utilisation only: with time-slicing the exporters report per device, not per pod, so billing comes
from allocation (kube-state-metrics) and never from these series.
"""
from __future__ import annotations

from gpudash.model.types import Sources
from gpudash.promql import build as q

DCGM_GR_ENGINE_ACTIVE = "DCGM_FI_PROF_GR_ENGINE_ACTIVE"  # ratio 0-1; the one that works for MIG instances
DCGM_GPU_UTIL = "DCGM_FI_DEV_GPU_UTIL"  # percent; not available for MIG instances
DCGM_POWER_USAGE = "DCGM_FI_DEV_POWER_USAGE"  # watts
DCGM_XID_ERRORS = "DCGM_FI_DEV_XID_ERRORS"  # last XID error code, 0 when none
DCGM_MODEL_LABEL = "modelName"
AMD_GFX_ACTIVITY = "gpu_gfx_activity"  # percent
AMD_POWER = "gpu_package_power"  # watts
AMD_MODEL_LABEL = "card_model"


def amd_metric(sources: Sources, name: str) -> str:
    return sources.amd_metric_prefix + name


def attributed(metric: str, job: str, sources: Sources) -> str:
    """Series of ``metric`` that carry pod attribution (idle GPUs have no pod labels)."""
    return q.selector(metric, ("job", "=", job), (sources.pod_label, "!=", ""), (sources.tenant_label, "!=", ""))


def to_pod_labels(expr: str, sources: Sources) -> str:
    """Rename the exporter's pod attribution labels to ``namespace``/``pod`` (a no-op when already so named)."""
    for plain, exported in (("namespace", sources.tenant_label), ("pod", sources.pod_label)):
        if plain != exported:
            expr = q.label_replace(expr, plain, "$1", exported, "(.+)")
    return expr
