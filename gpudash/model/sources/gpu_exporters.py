"""GPU exporter vocabulary: NVIDIA DCGM exporter and AMD device-metrics-exporter.

Used for utilisation and for CCSP's count of physical GPUs holding a pod: with time-slicing the exporters report
per device, not per pod, so billing comes from allocation (kube-state-metrics) and never from these series.
"""
from __future__ import annotations

import re

from gpudash.model.types import Exporter, Sources
from gpudash.promql import build as q

DCGM_GR_ENGINE_ACTIVE = "DCGM_FI_PROF_GR_ENGINE_ACTIVE"  # ratio 0-1; the one that works for MIG instances
DCGM_GPU_UTIL = "DCGM_FI_DEV_GPU_UTIL"  # percent; not available for MIG instances
DCGM_POWER_USAGE = "DCGM_FI_DEV_POWER_USAGE"  # watts
# Energy since the driver loaded, in millijoules: a counter that restarts from 0 when the driver reloads. Both are
# device-level fields in dcgm-exporter's default set (NVIDIA/dcgm-exporter etc/default-counters.csv).
DCGM_ENERGY = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"
DCGM_ENERGY_JOULES = 1e-3  # joules per counter unit
# A MIG instance's series carry its parent GPU's gpu/UUID plus these two (NVIDIA/dcgm-exporter
# internal/pkg/rendermetrics/render_metrics.go, internal/pkg/collector/gpu_collector.go): the profile name
# (e.g. 1g.10gb) and the GPU instance id.
DCGM_MIG_PROFILE_LABEL = "GPU_I_PROFILE"
DCGM_MIG_INSTANCE_LABEL = "GPU_I_ID"
DCGM_XID_ERRORS = "DCGM_FI_DEV_XID_ERRORS"  # last XID error code, 0 when none
DCGM_FB_USED = "DCGM_FI_DEV_FB_USED"  # MiB; in the default counters, per GPU and per MIG instance
DCGM_MODEL_LABEL = "modelName"
# The node a DCGM series was measured on: dcgm-exporter renamed Hostname to hostname; either may be set.
DCGM_HOST_LABELS = ("Hostname", "hostname")
# A physical GPU: its index and UUID (a MIG instance's series carry its parent GPU's, plus GPU_I_ID/GPU_I_PROFILE).
DCGM_GPU_LABELS = ("gpu", "UUID")
AMD_GFX_ACTIVITY = "gpu_gfx_activity"  # percent
AMD_POWER = "gpu_package_power"  # watts
# Accumulated energy in microjoules, exported as a gauge that only grows until the driver resets it
# (ROCm/device-metrics-exporter pkg/amdgpu/gpuagent/gpuagent_gpu_metrics.go gpuEnergyConsumed; listed as
# GPU_ENERGY_CONSUMED, MI2xx/MI3xx, in docs/configuration/metricslist.md). In a CPX/DPX/QPX partitioned mode only
# partition 0 reports power and energy (the physical GPU's); the other partitions report none or 0.
AMD_ENERGY = "gpu_energy_consumed"
AMD_ENERGY_JOULES = 1e-6  # joules per counter unit
AMD_GPU_LABEL = "gpu_id"  # the GPU (a partition's own index when partitioned)
AMD_MODEL_LABEL = "card_model"  # a board part number, not the GPU model: display names come from the node label
AMD_HOST_LABEL = "hostname"  # the node (ROCm/device-metrics-exporter pkg/amdgpu/gpuagent/gpuagent_gpu.go)


def amd_metric(sources: Sources, name: str) -> str:
    return sources.amd_metric_prefix + name


# Job names the upstream installs give each exporter: the GPU Operator's service (NVIDIA/gpu-operator
# assets/state-dcgm-exporter/0400_service.yaml), the AMD GPU Operator's <DeviceConfig>-metrics-exporter
# (ROCm/gpu-operator internal/utils.go MetricsExporterNameSuffix) and the AMD chart's app label
# (ROCm/device-metrics-exporter helm-charts/templates/_helpers.tpl). Test data uses the first one a model's
# regex matches.
UPSTREAM_JOBS = ("nvidia-dcgm-exporter", "default-metrics-exporter", "amd-gpu-amdgpu-metrics-exporter")


def sample_job(exporter: Exporter) -> str:
    """A concrete job name the exporter's job regex matches, for generated test data."""
    return next((j for j in UPSTREAM_JOBS if re.fullmatch(exporter.job, j)), exporter.job)


def job(exporter: Exporter) -> tuple[str, str, str]:
    """The matcher of the exporter's job (a regex: upstream installs name the job after the release)."""
    return ("job", "=~", exporter.job)


def attributed(metric: str, exporter: Exporter) -> str:
    """Series of ``metric`` that carry pod attribution (idle GPUs have no pod labels)."""
    return q.selector(metric, job(exporter), (exporter.pod_label, "!=", ""), (exporter.tenant_label, "!=", ""))


def to_pod_labels(expr: str, exporter: Exporter) -> str:
    """Rename the exporter's pod attribution labels to ``namespace``/``pod`` (a no-op when already so named)."""
    for plain, exported in (("namespace", exporter.tenant_label), ("pod", exporter.pod_label)):
        if plain != exported:
            expr = q.label_replace(expr, plain, "$1", exported, "(.+)")
    return expr


def on_node(expr: str) -> str:
    """``expr`` (DCGM series) with its host label copied to ``node``, whichever of the two names it carries."""
    for label in DCGM_HOST_LABELS:
        expr = q.label_replace(expr, "node", "$1", label, "(.+)")
    return expr
