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
from gpudash.model.schema_types import ref
from gpudash.model.vendors.vendor import Vendor, Wiring

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
    product_value_doc="spaces -> '_', parentheses dropped: AMD_Instinct_MI300X_OAM",
    product_label_key="amd.com/gpu.product-name",
    labeller="the AMD node labeller",
    partition_label_key="amd.com/gpu.compute-memory-partition",
    source="amd",
    product_label_field="amd_product_label",
    partition_label_field="amd_partition_label",
    metric_prefix_field="amd_metric_prefix",
    sources_fields=(
        ("amd_metric_prefix", {"title": "a metric name prefix (letters and '_' only)",
                               "description": "Prefix of the AMD exporter's metric names, e.g. amd_.",
                               "type": "string", "pattern": "^[a-zA-Z_]*$", "default": ""}),
        ("amd_product_label", ref("label_name", "kube_node_labels label holding the AMD node labeller's product "
                                                "name (amd.com/gpu.product-name).",
                                  default="label_amd_com_gpu_product_name")),
        ("amd_partition_label", ref("label_name", "kube_node_labels label holding the AMD node labeller's "
                                                  "compute-memory partition (amd.com/gpu.compute-memory-partition,"
                                                  " e.g. cpx_nps4).",
                                    default="label_amd_com_gpu_compute_memory_partition")),
    ),
    # The chart's Service has no labels up to v1.2.1, so no ServiceMonitor can select it there (helm-charts/
    # templates/metrics-exporter-service.yaml: labels from commit e30b19db, first in v1.3.1), and its port has no
    # name before that either; its pods carry app: <release>-amdgpu-metrics-exporter in every version
    # (templates/daemonsets.yaml, _helpers.tpl appLabelWithReleaseName) and serve on container port 5000
    # (values.yaml service.ClusterIP.port). So wiring/ renders a Service of its own selecting the pods.
    wiring=Wiring("amd-metrics-exporter", "amd_service_labels", (("app", "amd-gpu-amdgpu-metrics-exporter"),),
                  "Labels of the AMD device-metrics-exporter's pods (port 5000), the selector of its Service: "
                  "wiring/ renders a Service of its own with it (the chart's Service has no labels before v1.3.1).",
                  own_service=True),
    exporter_name="device-metrics-exporter",
    exporter_short="AMD",
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
    # ... and tenant quota keys: pods request amd.com/<partition> under the mixed strategy (ROCm/k8s-device-plugin
    # docs/user-guide/configuration.md, "Mixed": limits amd.com/cpx_nps4: 1)
    upstream_jobs=("default-metrics-exporter", "amd-gpu-amdgpu-metrics-exporter"),
    exporter_pod=("kube-amd-gpu", "metrics-exporter-container", "default-metrics-exporter"),
    exporter_port=5000,  # the container port (helm-charts/values.yaml service.ClusterIP.port)
    sample_power=False,
    power_fix=f"AMD MI300X_VF guests and MI2xx GPUs export no {POWER} (ROCm/device-metrics-exporter "
              f"docs/configuration/metricslist.md): have the exporter export {ENERGY} or {POWER}",
    sample_memory_mib=196608,
)
