"""NVIDIA: the GPU Operator's device plugin and GPU Feature Discovery, and the DCGM exporter.

Sources of these facts: NVIDIA/dcgm-exporter etc/default-counters.csv (the default fields: energy and framebuffer
used are device-level fields in the default set), internal/pkg/rendermetrics/render_metrics.go and
internal/pkg/collector/gpu_collector.go (a MIG instance's series carry its parent GPU's gpu/UUID plus the profile
name, e.g. 1g.10gb, and the GPU instance id), internal/pkg/transformation/kubernetes.go (pod labels only on a device
the pod-resources API lists a pod for); NVIDIA/k8s-device-plugin internal/lm/resource.go (GPU Feature Discovery's
``sanitise`` of the product label value); NVIDIA/gpu-operator assets/state-dcgm-exporter/0400_service.yaml (the
job name), 0500_service_monitor.yaml (no honorLabels) and 0800_daemonset.yaml (the exporter pods' namespace and
container).
"""
from __future__ import annotations

import re

from gpudash.model.schema_types import ref
from gpudash.model.vendors.vendor import Vendor, Wiring

GR_ENGINE_ACTIVE = "DCGM_FI_PROF_GR_ENGINE_ACTIVE"  # ratio 0-1; the one that works for MIG instances
GPU_UTIL = "DCGM_FI_DEV_GPU_UTIL"  # percent; not available for MIG instances
POWER_USAGE = "DCGM_FI_DEV_POWER_USAGE"  # watts
# Energy since the driver loaded, in millijoules: a counter that restarts from 0 when the driver reloads.
ENERGY = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"
ENERGY_JOULES = 1e-3  # joules per counter unit
MIG_PROFILE_LABEL = "GPU_I_PROFILE"
MIG_INSTANCE_LABEL = "GPU_I_ID"
XID_ERRORS = "DCGM_FI_DEV_XID_ERRORS"  # last XID error code, 0 when none
# XIDs after which NVIDIA says the GPU needs a reset or a node reboot (double-bit / uncontained ECC, row-remap
# failure, NVLink, fallen off the bus, GSP): critical. Other XIDs (mostly application faults) are warnings.
FATAL_XIDS = (48, 64, 74, 79, 94, 95, 119, 120)
FB_USED = "DCGM_FI_DEV_FB_USED"  # MiB; in the default counters, per GPU and per MIG instance
FB_FREE = "DCGM_FI_DEV_FB_FREE"  # MiB
MODEL_LABEL = "modelName"
# The node a DCGM series was measured on: dcgm-exporter renamed Hostname to hostname; either may be set.
HOST_LABELS = ("Hostname", "hostname")
# A physical GPU: its index and UUID (a MIG instance's series carry its parent GPU's, plus GPU_I_ID/GPU_I_PROFILE).
GPU_LABELS = ("gpu", "UUID")


def product_value(product: str) -> str:
    """GPU Feature Discovery's product label value: characters outside ``[A-Za-z0-9-_. ]`` dropped, runs of spaces
    -> ``-`` (``NVIDIA-A100-SXM4-80GB``)."""
    return "-".join(re.sub(r"[^A-Za-z0-9\-_. ]", "", product).split())


def _gpu_labels(index: int, uuid: str) -> tuple[tuple[str, str], ...]:
    return (("gpu", str(index)), ("UUID", f"GPU-{uuid}"), ("device", f"nvidia{index}"))


VENDOR = Vendor(
    name="nvidia",
    title="NVIDIA",
    resource="nvidia.com/gpu",
    resource_pattern=r"nvidia\.com/(gpu|gpu\.shared|mig-.+)",
    product_value=product_value,
    product_value_doc="characters outside [A-Za-z0-9-_. ] dropped, spaces -> '-': NVIDIA-A100-SXM4-80GB",
    product_label_key="nvidia.com/gpu.product",
    labeller="GPU Feature Discovery",
    source="dcgm",
    product_label_field="nvidia_product_label",
    sources_fields=(("nvidia_product_label", ref("label_name", "kube_node_labels label holding the GPU Feature "
                                                               "Discovery product (nvidia.com/gpu.product).",
                                                 default="label_nvidia_com_gpu_product")),),
    # NVIDIA/dcgm-exporter deployment/templates/_helpers.tpl (selectorLabels), service.yaml (port "metrics", 9400;
    # values.yaml service.port)
    wiring=Wiring("dcgm-exporter", "dcgm_service_labels", (("app.kubernetes.io/name", "dcgm-exporter"),),
                  "Labels of the DCGM exporter's Service (port named metrics, 9400)."),
    node_resources="nvidia_com_gpu|nvidia_com_gpu_shared|nvidia_com_mig_.+",
    exporter_name="dcgm-exporter",
    exporter_short="DCGM",
    exporter_title="NVIDIA DCGM exporter",
    default_job="nvidia-dcgm-exporter",
    default_tenant_label="exported_namespace",
    default_tenant_label_why="the GPU Operator's ServiceMonitor leaves honorLabels unset.",
    activity=((GR_ENGINE_ACTIVE, 1), (GPU_UTIL, 100)),
    power=POWER_USAGE,
    energy=ENERGY,
    energy_joules=ENERGY_JOULES,
    memory_used=FB_USED,
    memory_free=FB_FREE,
    attribution=FB_USED,  # per GPU and per MIG instance, pod labels only on a held device
    error_metric=XID_ERRORS,
    fatal_errors=FATAL_XIDS,
    host_labels=HOST_LABELS,
    gpu_labels=GPU_LABELS,
    model_label=MODEL_LABEL,
    model_label_names_product=True,
    idle_pod_labels_empty=False,
    mig_labels=(MIG_PROFILE_LABEL, MIG_INSTANCE_LABEL),
    mig_resource_prefix="nvidia.com/mig-",
    time_slicing=True,
    upstream_jobs=("nvidia-dcgm-exporter",),
    exporter_pod=("nvidia-gpu-operator", "nvidia-dcgm-exporter", "nvidia-dcgm-exporter"),
    exporter_port=9400,  # the Service port "metrics" (NVIDIA/dcgm-exporter deployment/templates/service.yaml)
    sample_gpu_labels=_gpu_labels,
    power_fix=f"DCGM: {POWER_USAGE} or {ENERGY} in its counters",
    sample_labels=(("DCGM_FI_DRIVER_VERSION", "550.127.08"),),
    sample_products=("NVIDIA-A100-SXM4-80GB", "NVIDIA-B200"),
)
