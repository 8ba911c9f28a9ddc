"""AMD: the ROCm device plugin and node labeller, and the device-metrics-exporter.

Sources of these facts: ROCm/device-metrics-exporter pkg/amdgpu/gpuagent/gpuagent_gpu_metrics.go (gpuEnergyConsumed;
pod labels exposed empty on a GPU no workload holds, gpuMandatoryLables), pkg/amdgpu/gpuagent/gpuagent_gpu.go (the
hostname label), docs/configuration/metricslist.md (GPU_ENERGY_CONSUMED on MI2xx/MI3xx; in a CPX/DPX/QPX
partitioned mode only partition 0 reports power and energy, the physical GPU's), helm-charts/values.yaml and
templates/servicemonitor.yaml (honorLabels: true; job <release>-amdgpu-metrics-exporter), helm-charts/templates/
_helpers.tpl (the app label); ROCm/gpu-operator api/v1alpha1/deviceconfig_types.go (honorLabels default true),
internal/utils.go (MetricsExporterNameSuffix: <DeviceConfig>-metrics-exporter; default namespace kube-amd-gpu);
ROCm/k8s-device-plugin docs/user-guide/configuration.md ("Resource Naming Strategy": amd.com/gpu, or
amd.com/<compute>_<memory> per partition under the mixed strategy) and cmd/k8s-node-labeller/main.go
(``product-name``: spaces -> ``_``, parentheses dropped).
"""
from __future__ import annotations

from gpudash.model import partitions
from gpudash.model.vendors.vendor import Vendor

GFX_ACTIVITY = "gpu_gfx_activity"  # percent
POWER = "gpu_package_power"  # watts
# Accumulated energy in microjoules, exported as a gauge that only grows until the driver resets it.
ENERGY = "gpu_energy_consumed"
ENERGY_JOULES = 1e-6  # joules per counter unit
GPU_LABEL = "gpu_id"  # the GPU (a partition's own index when partitioned)
MODEL_LABEL = "card_model"  # a board part number, not the GPU model: display names come from the node label
HOST_LABEL = "hostname"  # the node


def product_value(product: str) -> str:
    """The node labeller's ``amd.com/gpu.product-name``: spaces -> ``_``, parentheses dropped
    (``AMD_Instinct_MI300X_OAM``)."""
    return product.strip().replace(" ", "_").replace("(", "").replace(")", "")


VENDOR = Vendor(
    name="amd",
    title="AMD",
    resource="amd.com/gpu",
    resource_pattern=r"amd\.com/(gpu|[a-z]px_nps[1248])",  # the whole GPU, or a partition (mixed strategy)
    product_value=product_value,
    product_label_key="amd.com/gpu.product-name",
    partition_label_key="amd.com/gpu.compute-memory-partition",
    source="amd",
    product_label_field="amd_product_label",
    partition_label_field="amd_partition_label",
    metric_prefix_field="amd_metric_prefix",
    exporter_title="AMD device-metrics-exporter",
    default_job=".+-metrics-exporter",
    default_tenant_label="namespace",
    default_tenant_label_why="the AMD GPU Operator and the exporter's chart set honorLabels: true.",
    activity=((GFX_ACTIVITY, 100),),
    power=POWER,
    energy=ENERGY,
    energy_joules=ENERGY_JOULES,
    memory_used="gpu_used_vram",  # as the mock serves them
    memory_total="gpu_total_vram",
    attribution=GFX_ACTIVITY,  # every GPU has one, its pod labels empty when no workload holds it
    host_labels=(HOST_LABEL,),
    gpu_labels=(GPU_LABEL,),
    model_label=MODEL_LABEL,
    model_label_names_product=False,
    idle_pod_labels_empty=True,
    partitions=True,
    whole_partitions="spx_.*",  # SPX: one partition, the whole GPU
    partition_shares=partitions.partitions,  # compute modes and their shares (gpudash/model/partitions.py)
    upstream_jobs=("default-metrics-exporter", "amd-gpu-amdgpu-metrics-exporter"),
    exporter_pod=("kube-amd-gpu", "metrics-exporter-container", "default-metrics-exporter"),
    exporter_port=5000,  # the container port (helm-charts/values.yaml service.ClusterIP.port)
    sample_power=False,
    sample_memory_mib=196608,
)
